"""The one family of errors that strategytree raises.

Every error a user can cause (a malformed file, a bad argument, a game too big
to enumerate) is a :class:`StrategyTreeError`; the command line catches this
family, prints the message and exits non-zero, never with a traceback.
"""

from __future__ import annotations


class StrategyTreeError(Exception):
    """Base class of every error strategytree raises on purpose."""

    #: exit code the command line uses for this kind of error
    exit_code: int = 2


class GameError(StrategyTreeError, ValueError):
    """A game cannot be built as asked (bad sizes, too many codes, ...)."""


class CodeError(StrategyTreeError, ValueError):
    """A code or a reply written as text is not valid for the game."""


class StrategyFileError(StrategyTreeError):
    """A strategy file cannot be read: it is not in the brace grammar.

    ``source``, ``line`` and ``column`` (1-based) say where; ``str(err)``
    is ``source:line:column: message``.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<string>",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        where = source if line is None else f"{source}:{line}:{column}"
        super().__init__(f"{where}: {message}")


class StrategyError(StrategyTreeError):
    """A strategy does not fit the game it is used with."""
