"""What a command does, as the library composes it: the :class:`CommandOutcome` that
each ``*_outcome`` function returns (one per command of ``strategytree``, beside
the idea it is about: :func:`strategytree.verify.verify_outcome`,
:func:`strategytree.stats.stats_outcome`, ...).

The command line only prints it and exits with its status; a Python user calls
the same function and reads the same answer (``data`` is what ``--json`` prints).

>>> done = CommandOutcome(["3 guesses"], status=INVALID)
>>> done.shown, done.data, done.status
(['3 guesses'], None, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

__all__ = ["INVALID", "OK", "UNREADABLE", "CommandOutcome"]

#: the exit statuses of a command: success; an invalid strategy (a secret not solved, a
#: game stopped); unreadable input or bad arguments (a stopped run: :mod:`strategytree.runner`)
OK, INVALID, UNREADABLE = 0, 1, 2


class CommandOutcome(NamedTuple):
    """What a command prints once it has run, and how it ends."""

    shown: Sequence[Any] = ()
    """lines (str with rich markup, or rich Text) and tables for the standard output"""
    data: Any = None
    """the JSON document printed instead (``--json``), when not None"""
    notes: Sequence[Any] = ()
    """lines for stderr, after the rest (files written, a stopped run)"""
    status: int = OK
    """the exit status"""
    aside: bool = False
    """``shown`` goes to stderr (the standard output holds a strategy)"""

    @classmethod
    def either(cls, as_json: bool, data: Any, shown: Sequence[Any], **rest: Any) -> CommandOutcome:
        """``data`` (its JSON) when ``as_json``, else ``shown``."""
        return cls(data=data, **rest) if as_json else cls(shown, **rest)
