"""Readers of strategy trees as other programs write them, one module per format.

Each reader is a LALR grammar in ``grammars/`` (loaded once) and a module here
that turns what it parsed into the one tree model of :mod:`strategytree.tree`.
:mod:`strategytree.convert` chooses among them; this package holds what they
share: a :class:`Source` that names positions, and :func:`parse`, which turns a
parse failure into a :class:`~strategytree.errors.StrategyFileError` naming
file, line and column.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Any

from ..errors import StrategyFileError
from ..game import LETTERS
from ..tree import Node, Strategy

if TYPE_CHECKING:
    from lark import Lark

__all__ = ["Source", "letters", "parse"]

#: an offset in the text being read
Offset = int


class Source:
    """A text being read and its name: turns offsets into ``line:column`` for messages."""

    def __init__(self, text: str, name: str = "<string>") -> None:
        text = text.removeprefix("\ufeff")
        self.text = text
        """the text, without a byte-order mark"""
        self.name = name
        """the file it came from (or ``<string>``)"""
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        """offsets of the line ends"""

    def position(self, offset: Offset) -> tuple[int, int]:
        """The 1-based (line, column) of ``offset``."""
        line = bisect.bisect_left(self.newlines, offset)
        start = self.newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1

    def error(self, offset: Offset | None, message: str) -> StrategyFileError:
        """A :class:`StrategyFileError` at ``offset`` (the whole file if None)."""
        if offset is None:
            return StrategyFileError(message, source=self.name)
        line, column = self.position(offset)
        return StrategyFileError(message, source=self.name, line=line, column=column)

    def strategy(self, root: Node) -> Strategy:
        """The strategy under ``root``, knowing where its guesses were written."""
        return Strategy(root, source=self.name, newlines=self.newlines)


def letters(digits: str, base: int, source: Source, offset: Offset) -> str:
    """A code written in digits (colour ``base`` first) in letters: ``"0012"`` -> ``"AABC"``.

    >>> letters("1123", 1, Source("1123"), 0)
    'AABC'
    """
    out = []
    for i, ch in enumerate(digits):
        colour = ord(ch) - 48 - base
        if not 0 <= colour < len(LETTERS):
            raise source.error(
                offset + i, f"colour {ch} in {digits}: this format writes colours from {base}"
            )
        out.append(LETTERS[colour])
    return "".join(out)


def _shown(value: str) -> str:
    if not value:
        return "the end of the file"
    if len(value) > 24:
        value = value[:20] + "..."
    return repr(value)


def parse(parser: Lark, source: Source, names: dict[str, str]) -> Any:
    """What ``parser`` makes of the text; a parse failure becomes a
    :class:`StrategyFileError` saying what was expected (by ``names``) and found."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    text = source.text
    try:
        return parser.parse(text)
    except UnexpectedToken as err:
        expected = set(getattr(err, "accepts", None) or err.expected)
        if err.token.type == "$END":
            offset, found = len(text), "the end of the file"
        else:
            offset = err.token.start_pos
            if offset is None:
                offset = len(text)
            found = _shown(str(err.token) or text[offset : offset + 1])
    except UnexpectedCharacters as err:
        expected, offset = set(err.allowed or ()), err.pos_in_stream
        found = _shown(text[offset : offset + 1])
    except UnexpectedEOF as err:
        expected, offset, found = set(err.expected), len(text), "the end of the file"
    if offset is None:
        offset = len(text)
    wanted = sorted({names.get(n, n) for n in expected if not n.startswith("_")}) or ["no more"]
    what = wanted[0] if len(wanted) == 1 else ", ".join(wanted[:-1]) + " or " + wanted[-1]
    raise source.error(offset, f"expected {what}, found {found}") from None
