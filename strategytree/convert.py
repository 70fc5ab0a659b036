"""Strategy trees in every format strategytree reads, and the formats it writes.

Besides the brace grammar (:mod:`strategytree.notation`), trees written by other
public solvers are read, and our own JSON trees, lookup tables and DOT guides
are read back; each format's reader lives in :mod:`strategytree.formats`.
Every reader gives the same :class:`~strategytree.tree.Strategy`, and its
errors are :class:`~strategytree.errors.StrategyFileError` naming file, line
and column.  Without a format, the format is told from the content.

>>> tree = reads('{"guess": "AB", "branches": {"02": {"guess": "BA"}}}')
>>> writes(tree, "brace")
'{AB:{02:BA}}'
>>> detect("9 (12: 1, 2 (23), 1; 4 (32); 1)"), detect("{AB:{02:BA}}")
('mmstrat', 'brace')
>>> writes(reads("9 (12: 1, 2 (23), 1; 4 (32); 1)"), "brace")
'{AB:{02:BA,01:{BC:{01:CA}},00:CC,10:{CB:{01:AC,00:AA,10:BB}}}}'
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from . import notation
from .errors import ArgumentError, StrategyTreeError
from .files import write_text_atomic
from .game import Game
from .tree import Strategy

if TYPE_CHECKING:
    from .formats import Source

__all__ = [
    "FORMATS", "GAME_FORMATS", "WRITABLE", "FormatError", "Read", "convert_file", "detect", "normalise",
    "normalised", "read", "read_file", "reads", "reads_all", "write", "writes",
]

#: every format read, and what it is
FORMATS = {
    "brace": "the brace grammar of strategy files: {AB:{10:AA,...}}",
    "json": 'our JSON tree: {"guess": "AB", "branches": {"10": {...}}}',
    "mmstrat": "fancidev/mastermind's mmstrat text (Irving's notation)",
    "arfst-table": "arfst23/Mastermind's solution tables",
    "arfst-yaml": "arfst23/Mastermind's solutions in YAML",
    "mikemag": "mikemag/Mastermind's GraphViz trees",
    "dot": "our GraphViz guides (show --format dot)",
    "csv": "our lookup tables (show --format csv)",
}
#: the formats whose reader needs the game: it recomputes secrets the file leaves out
GAME_FORMATS = ("mmstrat",)
#: the formats that can hold any tree, and so can be written
WRITABLE = ("brace", "json")
#: the format a file written is in, by its suffix (else the brace grammar)
SUFFIXES = {".json": "json"}


class FormatError(StrategyTreeError, ValueError):
    """A format is unknown, or cannot be written."""


def _checked(fmt: str, allowed: tuple[str, ...] | dict[str, str]) -> str:
    kind = fmt.strip().lower()
    if kind not in allowed:
        raise FormatError(f"unknown format {fmt!r}; choose one of {', '.join(allowed)}")
    return kind


_TABLE_HEADER = re.compile(r"[XO-]+(?:[ \t]+[XO-]+)+[ \t]*(?:\r?\n|$)")


def detect(text: str) -> str:
    """The format a text is written in (one of :data:`FORMATS`), told from its beginning.

    Text that fits no other format is taken for the brace grammar, whose reader
    then says what it expected where.
    """
    start = text.lstrip("\ufeff \t\r\n")
    if start.startswith("{"):
        return "json" if re.match(r'\{\s*"', start) else "brace"
    if re.match(r"(?:strict\s+)?(?:di)?graph\b", start, re.IGNORECASE) or start.startswith(
        ("//", "/*")
    ):
        label = re.search(r'label\s*=\s*"?\s*([0-9A-Za-z.])', start)
        return "mikemag" if label and label.group(1).isdigit() else "dot"
    if _TABLE_HEADER.match(start):
        return "arfst-table"
    if start.startswith(("---", "- ")):
        return "arfst-yaml"
    if re.match(r'"?game"?\s*,\s*"?guesses"?\s*,\s*"?secret', start):
        return "csv"
    if re.match(r"[0-9]+\s*\(", start):
        return "mmstrat"
    return "brace"


class Read(NamedTuple):
    """A strategy file read, and what reading it told."""

    strategy: Strategy
    """the tree"""
    fmt: str
    """the format it was written in: the one given, or the one told from the content"""
    game: Game | None
    """the game it was read in, for a format whose reader needs one (:data:`GAME_FORMATS`):
    the one given, or the one the file tells; None for the other formats"""


def reads(
    text: str,
    fmt: str | None = None,
    game: Game | None = None,
    *,
    source: str = "<string>",
    lenient: bool = False,
) -> Strategy:
    """The strategy written in ``text``, in format ``fmt`` (told from the text if None).

    ``game`` is the game of a format that leaves secrets to recompute
    (mmstrat; by default the one its first count tells); other formats do not
    need it.  ``lenient`` reads dialects of the brace grammar (see
    :func:`strategytree.notation.loads`); with another ``fmt`` it is an
    :class:`~strategytree.errors.ArgumentError`.
    """
    return reads_all(text, fmt, game, source=source, lenient=lenient).strategy


def reads_all(
    text: str,
    fmt: str | None = None,
    game: Game | None = None,
    *,
    source: str = "<string>",
    lenient: bool = False,
) -> Read:
    """The strategy written in ``text``, its format and the game it was read in
    (see :func:`reads` and :class:`Read`)."""
    kind = detect(text) if fmt is None else _checked(fmt, FORMATS)
    if lenient and fmt is not None and kind != "brace":
        raise ArgumentError("{lenient} reads the brace grammar, not {fmt}", lenient=True, fmt=kind)
    if kind == "brace":
        return Read(notation.loads(text, source=source, lenient=lenient), kind, None)
    # the other readers are imported only when a file needs them
    from .formats import Source

    where = Source(text, source)
    if kind == "mmstrat":
        from .formats import mmstrat

        strategy, told = mmstrat.read_with_game(where, game)
        return Read(strategy, kind, told)
    return Read(_other(where, kind), kind, None)


def _other(where: Source, kind: str) -> Strategy:
    """The strategy of a format that needs no game."""
    if kind == "json":
        from .formats import jsontree

        return jsontree.read(where)
    if kind in ("arfst-table", "arfst-yaml"):
        from .formats import arfst

        return arfst.read_table(where) if kind == "arfst-table" else arfst.read_yaml(where)
    if kind == "csv":
        from .formats import lookup

        return lookup.read(where)
    from .formats import graphviz

    return graphviz.read(where, kind)


def read(
    path: str | os.PathLike[str],
    fmt: str | None = None,
    game: Game | None = None,
    *,
    lenient: bool = False,
    max_bytes: int = notation.MAX_INPUT_BYTES,
) -> Strategy:
    """The strategy in the file at ``path`` (see :func:`reads` and :func:`read_file`)."""
    return read_file(path, fmt, game, lenient=lenient, max_bytes=max_bytes).strategy


def read_file(
    path: str | os.PathLike[str],
    fmt: str | None = None,
    game: Game | None = None,
    *,
    lenient: bool = False,
    max_bytes: int = notation.MAX_INPUT_BYTES,
) -> Read:
    """The strategy in the file at ``path``, its format and the game it was read in:
    the one reading that every command taking a strategy file goes through.

    ``path`` may also be a pipe, a device or ``-`` (the standard input); at most
    ``max_bytes`` are read (:func:`strategytree.notation.read_text`).
    The brace grammar is read as :func:`strategytree.notation.load` reads it
    (same errors, same speed); other formats by ``fmt`` or told from the
    content (:func:`detect`).  See :func:`reads` for ``game`` and ``lenient``.
    """
    text = notation.read_text(path, max_bytes)
    return reads_all(text, fmt, game, source=notation.source_name(path), lenient=lenient)


def writes(strategy: Strategy, fmt: str = "brace", *, indent: int | None = None) -> str:
    """The strategy written in ``fmt`` (one of :data:`WRITABLE`), on one line or indented."""
    kind = _checked(fmt, WRITABLE)
    if kind == "json":
        from .formats import jsontree

        return jsontree.dumps(strategy, indent=indent)
    return notation.dumps(strategy, indent=indent)


def write(
    strategy: Strategy,
    path: str | os.PathLike[str],
    fmt: str | None = None,
    *,
    indent: int | None = None,
    force: bool = False,
) -> Path:
    """Write the strategy to ``path`` atomically, in ``fmt`` (by default from the
    suffix: ``.json`` is JSON, anything else the brace grammar).  An existing file
    is refused unless ``force``."""
    kind = SUFFIXES.get(Path(path).suffix.lower(), "brace") if fmt is None else fmt
    return write_text_atomic(path, writes(strategy, kind, indent=indent) + "\n", force=force)


def normalised(
    text: str,
    fmt: str | None = None,
    game: Game | None = None,
    *,
    lenient: bool = False,
    indent: int | None = None,
    source: str = "<string>",
) -> str:
    """The strategy written in ``text`` (in any format read, see :func:`reads`),
    written back in the brace grammar the one way this package writes it: no
    spaces, upper-case codes, two-digit replies, one line or indented by
    ``indent`` spaces, the branches in the order the text gives them.  With
    ``lenient``, the dialects of the brace grammar are read and repaired.

    >>> normalised("{ AB:{ 10:{ac:{10:AA,01:CB,00:BB}}, 02:BA, 01:{BC:{01:CA}}, 00:CC }}",
    ...            lenient=True)
    '{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}'
    """
    return writes(reads(text, fmt, game, source=source, lenient=lenient), "brace", indent=indent)


def normalise(
    path: str | os.PathLike[str],
    output: str | os.PathLike[str],
    fmt: str | None = None,
    game: Game | None = None,
    *,
    lenient: bool = False,
    indent: int | None = None,
    force: bool = False,
    max_bytes: int = notation.MAX_INPUT_BYTES,
) -> Read:
    """Write the strategy file at ``path`` (read by :func:`read_file`, repaired
    when ``lenient``) to ``output`` in the brace grammar, as :func:`normalised`
    writes it: atomically, or streamed into ``-`` (the standard output), a
    device or a FIFO; an existing file is refused unless ``force``.  Returns
    what was read (the repairs made are ``read.strategy.repairs``)."""
    read = read_file(path, fmt, game, lenient=lenient, max_bytes=max_bytes)
    write(read.strategy, output, "brace", indent=indent, force=force)
    return read


def convert_file(
    path: str | os.PathLike[str],
    output: str | os.PathLike[str] | None = None,
    fmt: str | None = None,
    to: str | None = None,
    game: Game | None = None,
    *,
    game_options: dict[str, object] | None = None,
    lenient: bool = False,
    indent: int | None = None,
    force: bool = False,
    max_bytes: int = notation.MAX_INPUT_BYTES,
    on_read: Callable[[Read], object] | None = None,
) -> tuple[Read, str | None]:
    """What ``strategytree convert`` does: the file at ``path`` read (:func:`read_file`,
    in ``game`` when its format needs one; else the ``game_options`` that gave it,
    those not None, are refused), ``on_read`` told, and written in format ``to`` to
    ``output`` (:func:`write`; by default in the format its suffix names, else
    brace) or printed (``output`` None or ``-``: brace unless ``to``).  Returns what
    was read and the format written to the file (None when printed)."""
    import sys

    from .errors import refuse_inert
    from .files import is_stdout

    read = read_file(path, fmt, game, lenient=lenient, max_bytes=max_bytes)
    if read.fmt not in GAME_FORMATS:
        where = f"on a {read.fmt} file (only mmstrat files are read in a game)"
        refuse_inert(dict(game_options or {}), (), where)
    if on_read is not None:
        on_read(read)
    if output is None or is_stdout(output):
        sys.stdout.write(writes(read.strategy, to or "brace", indent=indent) + "\n")
        return read, None
    target = to or SUFFIXES.get(Path(output).suffix.lower(), "brace")
    write(read.strategy, output, target, indent=indent, force=force)
    return read, target
