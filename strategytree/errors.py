"""The one family of errors that strategytree raises.

Every error a user can cause (a malformed file, a bad argument, a game too big
to enumerate) is a :class:`StrategyTreeError`; the command line catches this
family, prints the message and exits non-zero, never with a traceback.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Collection, Mapping

#: how a front end writes an argument it names: ``flag(name, value)`` (the command line
#: writes ``--name value``, or ``--name`` for True)
Flag = Callable[[str, object], str]


class StrategyTreeError(Exception):
    """Base class of every error strategytree raises on purpose.

    :meth:`worded` is the message with the arguments it names written the way a
    front end names them (the command line: as its flags)."""

    def worded(self, flag: Flag) -> str:
        """The message, each argument it names written as ``flag(name, value)``."""
        return str(self)


class ArgumentError(StrategyTreeError, ValueError):
    """Arguments that do not go together, or a value an argument cannot take.

    The message is a ``template`` naming the arguments as ``{name}``; ``str(err)``
    writes each as ``name=value``, and :meth:`worded` lets a front end (the
    command line) write them its own way, e.g. as its flags.

    >>> err = ArgumentError("{max_guesses} needs {method}", max_guesses=3, method="optimal")
    >>> str(err)
    "max_guesses=3 needs method='optimal'"
    >>> err.worded(lambda name, value: f"<{name} {value}>")
    '<max_guesses 3> needs <method optimal>'
    """

    def __init__(self, template: str, **arguments: object) -> None:
        self.template = template
        """the message, with ``{name}`` where argument ``name`` is meant"""
        self.arguments = arguments
        """the arguments named, with their values"""
        super().__init__(self.worded(lambda name, value: f"{name}={value!r}"))

    def worded(self, flag: Flag) -> str:
        """The message with each argument written as ``flag(name, value)``."""
        return self.template.format(**{k: flag(k, v) for k, v in self.arguments.items()})


def refuse_inert(
    given: Mapping[str, object], takes: Collection[str], where: str, **context: object
) -> None:
    """Raise :class:`ArgumentError` for the first argument of ``given`` (those not
    None nor False: the ones asked for) that is not one of ``takes``: in the mode
    ``where`` describes (a template naming ``context``'s arguments) it would have
    no effect, and an argument silently ignored means a run other than the one asked.

    >>> refuse_inert({"pool": "all", "seed": None}, {"seed"}, "with {method}", method="optimal")
    Traceback (most recent call last):
    ...
    strategytree.errors.ArgumentError: pool='all' has no effect with method='optimal'
    """
    for name, value in given.items():
        if value is not None and value is not False and name not in takes:
            raise ArgumentError(f"{{{name}}} has no effect {where}", **{name: value}, **context)


def check_whole(value: object, least: int, **named: object) -> None:
    """:class:`ArgumentError` unless ``value`` (named by ``named``'s one key) is a whole
    number of at least ``least``.

    >>> check_whole(-1, 0, seed=-1)
    Traceback (most recent call last):
    ...
    strategytree.errors.ArgumentError: seed=-1 must be a whole number of at least 0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        name = next(iter(named))
        raise ArgumentError(f"{{{name}}} must be a whole number of at least {least}", **named)


class OutputExistsError(StrategyTreeError):
    """A file would be overwritten, and overwriting was not allowed."""

    def __init__(self, path: object) -> None:
        self.path = path
        """the file that exists"""
        super().__init__(f"{path} exists; pass force=True to overwrite it")

    def worded(self, flag: Flag) -> str:
        return f"{self.path} exists; use {flag('force', True)} to overwrite it"


class GameError(StrategyTreeError, ValueError):
    """A game cannot be built as asked (bad sizes, too many codes, ...)."""


class GameArgumentError(ArgumentError, GameError):
    """Arguments that mean no game, or contradict each other (a preset and a
    flag it does not have, pegs for a preset that fixes them)."""


class CodeError(StrategyTreeError, ValueError):
    """A code or a reply written as text is not valid for the game."""


class StrategyFileError(StrategyTreeError):
    """A strategy file cannot be read: it is not in the brace grammar.

    ``source``, ``line`` and ``column`` (1-based) say where; ``str(err)``
    is ``source:line:column: message``.  ``lenient_hint`` is set when the
    lenient reading would read the file (the first repair it would make).
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<string>",
        line: int | None = None,
        column: int | None = None,
        lenient_hint: str | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.lenient_hint = lenient_hint
        lenient = "a lenient reading, lenient=True,"
        super().__init__(StrategyFileError.worded(self, lambda name, value: lenient))

    def worded(self, flag: Flag) -> str:
        """The message, naming the lenient reading as ``flag("lenient", True)``."""
        lenient = flag("lenient", True)
        where = self.source if self.line is None else f"{self.source}:{self.line}:{self.column}"
        hint = f" ({lenient} would read it: {self.lenient_hint})" if self.lenient_hint else ""
        return f"{where}: {self.message}{hint}"


class InputTooLargeError(StrategyFileError):
    """A file, pipe or device holds more bytes than the most that may be read.

    ``limit`` is that most, in bytes; :meth:`worded` lets a front end name
    its own way to raise it.
    """

    def __init__(self, source: str, limit: int) -> None:
        self.limit = limit
        """the most bytes read"""
        super().__init__(self._said(limit, "a larger max_bytes"), source=source)

    @staticmethod
    def _said(limit: int, larger: str) -> str:
        whole = limit >= 2**20 and limit % 2**20 == 0
        size = f"{limit // 2**20:,} MiB" if whole else f"{limit:,} bytes"
        return f"more than {size}, the most read ({larger} would read it)"

    def worded(self, flag: Flag) -> str:
        """The message, naming the way to read more as ``flag("max_input_mb", True)``."""
        return f"{self.source}: {self._said(self.limit, 'a larger ' + flag('max_input_mb', True))}"


class StrategyError(StrategyTreeError):
    """A strategy does not fit the game it is used with."""


class ExportError(StrategyTreeError):
    """A guide cannot be exported as asked (too big to draw, no ``dot`` binary, ...)."""


class GuideArgumentError(ArgumentError, ExportError):
    """Arguments of a guide that do not go together (a secret's game in a table, ...)."""


class DrawingTooBig(ExportError):
    """A DOT export would draw more nodes than can be read; a depth or a path draws less."""

    def worded(self, flag: Flag) -> str:
        return f"{self} ({flag('depth', True)}, {flag('path', True)})"
