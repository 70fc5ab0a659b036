"""The ``strategytree`` command, a thin layer over the library: :mod:`.options`
declares every option once, each command of :mod:`.commands` gathers them and
calls one library function, :mod:`.terminal` prints what it composed (errors
worded in flags, never a traceback), and :mod:`.group` registers the commands
and holds the entry point :func:`main`."""

from .commands import app  # the app, its commands registered
from .group import main

__all__ = ["app", "main"]
