"""The ``strategytree`` command: a thin layer over the library.

Each command gathers its options, calls the library, and prints the result;
the library's errors speak of arguments, and are worded here in flags.
:mod:`.options` declares every option once, :mod:`.terminal` says what
happened and ends the run, :mod:`.group` registers the commands of
:mod:`.commands` and holds the entry point :func:`main`.

Exit codes: 0 success (a valid strategy), 1 an invalid strategy,
2 an unreadable file or bad arguments, 130 interrupted (Ctrl-C),
143 stopped by SIGTERM, 129 stopped by SIGHUP (both stop as Ctrl-C does:
a search's checkpoint is saved, no output is left half-written).
Errors are printed, never tracebacks.
"""

from . import commands  # noqa: F401  (registers the commands)
from .group import app, main

__all__ = ["app", "main"]
