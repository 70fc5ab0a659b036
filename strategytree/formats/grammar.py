"""The grammars of the formats read (``grammars/*.lark``, shipped in the
package, each loaded once as a LALR parser), where lark keeps their analysed
tables between runs, and what every reader shares: :func:`parse`, which turns
a parse failure into a :class:`~strategytree.errors.StrategyFileError` naming
file, line and column, and :func:`letters`, a code written in digits spelled
in letters as our trees hold it.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..game import LETTERS
from .source import Offset, Source

if TYPE_CHECKING:
    from lark import Lark, Token

__all__ = ["MAX_DIGITS", "cache_file", "grammar_text", "letters", "number", "parse", "quoted"]

#: the most digits of a number read in a file (a count, a row number, a node id):
#: 18 digits hold every number a strategy can mean, and a longer run of digits is
#: refused before Python converts it (Python refuses above 4,300 digits, and the
#: time it takes grows with the square of the length)
MAX_DIGITS = 18
#: the most characters of a value quoted from a file in a message
QUOTED_CHARS = 24


def grammar_text(name: str = "strategy") -> str:
    """The text of ``grammars/<name>.lark``, shipped inside the package."""
    try:
        shipped = resources.files("strategytree.grammars").joinpath(f"{name}.lark")
        if shipped.is_file():
            return shipped.read_text(encoding="utf-8")
    except ModuleNotFoundError:
        pass
    # running from a source checkout: the grammars sit beside the package
    beside = Path(__file__).resolve().parents[2] / "grammars" / f"{name}.lark"
    return beside.read_text(encoding="utf-8")


def cache_file(name: str) -> str | bool:
    """Where lark keeps the analysed grammar ``name`` between runs (building
    the LALR tables takes longer than reading most files): a file in the
    user's own cache folder, ``$XDG_CACHE_HOME/strategytree`` (lark checks a
    digest of the grammar text, the options and its version before using it,
    and builds afresh when the file is missing, stale or unreadable); False
    (no cache) when that folder cannot be made."""
    home = os.path.expanduser("~")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    if not os.path.isabs(base):  # no home folder known: no cache, rather than one in the cwd
        return False
    folder = os.path.join(base, "strategytree")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return False
    if not os.access(folder, os.W_OK):
        return False
    return os.path.join(folder, f"lark-{name}.pickle")


def letters(
    digits: str, base: int, source: Source, offset: Offset, *, zero: int | None = None
) -> str:
    """A code written in digits (colour ``base`` first) in letters: ``"0012"`` -> ``"AABC"``;
    with ``zero``, the digit 0 is that colour (mmstrat writes the tenth colour as 0).

    >>> letters("1123", 1, Source("1123"), 0), letters("0423", 1, Source("0423"), 0, zero=9)
    ('AABC', 'JDBC')
    """
    out = []
    for i, ch in enumerate(digits):
        colour = zero if ch == "0" and zero is not None else ord(ch) - 48 - base
        if not 0 <= colour < len(LETTERS):
            raise source.error(
                offset + i,
                f"colour {ch} in {quoted(digits)[1:-1]}: this format writes colours from {base}",
            )
        out.append(LETTERS[colour])
    return "".join(out)


def quoted(value: str, limit: int = QUOTED_CHARS) -> str:
    """``value`` quoted for a message, cut to about ``limit`` characters (a value
    read from a file may be megabytes long).

    >>> quoted("AB"), quoted("A" * 100), quoted("")
    ("'AB'", "'AAAAAAAAAAAAAAAAAAAA...' (100 characters)", "''")
    """
    if len(value) > limit:
        return f"{value[:limit - 4] + '...'!r} ({len(value):,} characters)"
    return repr(value)


def _shown(value: str) -> str:
    if not value:
        return "the end of the file"
    if len(value) > QUOTED_CHARS:
        return repr(value[:QUOTED_CHARS - 4] + "...")
    return repr(value)


def number(token: Token, source: Source, what: str = "number", skip: int = 0) -> int:
    """The value of a run of digits read from the file (``token``, with its
    position; its first ``skip`` characters are not digits), refused when longer
    than :data:`MAX_DIGITS` digits.

    >>> from lark import Token
    >>> number(Token("COUNT", "12", start_pos=0), Source("12"))
    12
    >>> number(Token("COUNT", "9" * 30, start_pos=0), Source("9" * 30), "count")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategytree.errors.StrategyFileError: <string>:1:1: the count 99...9... has 30 digits; ...
    """
    text = str(token)[skip:].strip()
    if len(text) > MAX_DIGITS:
        raise source.error(
            token.start_pos,
            f"the {what} {text[:MAX_DIGITS]}... has {len(text):,} digits; a {what} has at "
            f"most {MAX_DIGITS}",
        )
    return int(text)


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
