"""The ``strategytree`` command: a thin layer over the library.

:mod:`.options` declares every option once, :mod:`.commands` gathers them and
calls the library, :mod:`.terminal` says what happened (errors worded in
flags, never a traceback) and how the run ended (its exit code), and
:mod:`.group` registers the commands and holds the entry point :func:`main`.
"""

from . import commands  # noqa: F401  (registers the commands)
from .group import app, main

__all__ = ["app", "main"]
