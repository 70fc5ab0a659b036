"""Writing a strategy in the formats that can hold any tree (the brace grammar
and our JSON tree), and writing a file back in the brace grammar the one way
this package writes it (``strategytree format``).

The guides of ``show`` are presentations, written by
:mod:`strategytree.export` and :mod:`strategytree.guide`; those read back
(DOT, the CSV lookup table) have their writer beside their reader here
(:mod:`strategytree.formats.graphviz`, :mod:`strategytree.formats.lookup`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ArgumentError
from ..files import check_json_output, check_outputs, is_stdout, write_text_atomic
from ..game import Game
from ..outcome import CommandOutcome
from ..tree import Strategy
from . import brace
from .reading import (
    GAME_FORMATS,
    Read,
    check_one_length,
    checked_format,
    options_given,
    read_file,
    reads,
)
from .source import MAX_INPUT_BYTES, Input

__all__ = [
    "SUFFIXES", "WRITABLE", "check_in_place", "convert_file", "convert_outcome", "format_outcome",
    "normalise", "normalised", "write", "writes", "written_json",
]

#: the formats that can hold any tree, and so can be written
WRITABLE = ("brace", "json")
#: the format a file written is in, by its suffix (else the brace grammar)
SUFFIXES = {".json": "json"}


def writes(strategy: Strategy, fmt: str = "brace", *, indent: int | None = None,
           game: Game | dict[str, object] | None = None) -> str:
    """The strategy written in ``fmt`` (one of :data:`WRITABLE`), on one line or
    indented; a JSON tree records ``game``, the game it was built for (a game, or
    a record as :attr:`~strategytree.formats.reading.Read.record`; the brace
    grammar cannot hold one)."""
    kind = checked_format(fmt, WRITABLE)
    if kind == "json":
        from . import jsontree

        return jsontree.dumps(strategy, indent=indent, game=game)
    return brace.dumps(strategy, indent=indent)


def write(
    strategy: Strategy,
    path: str | os.PathLike[str],
    fmt: str | None = None,
    *,
    indent: int | None = None,
    force: bool = False,
    game: Game | dict[str, object] | None = None,
) -> Path:
    """Write the strategy to ``path`` atomically, in ``fmt`` (by default from the
    suffix: ``.json`` is JSON, recording ``game``; anything else the brace
    grammar).  An existing file is refused unless ``force``."""
    kind = SUFFIXES.get(Path(path).suffix.lower(), "brace") if fmt is None else fmt
    text = writes(strategy, kind, indent=indent, game=game)
    return write_text_atomic(path, text + "\n", force=force)


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
    path: Input,
    output: str | os.PathLike[str] | None = None,
    fmt: str | None = None,
    game: Game | None = None,
    *,
    lenient: bool = False,
    indent: int | None = None,
    force: bool = False,
    max_bytes: int = MAX_INPUT_BYTES,
    in_place: bool = False,
) -> Read:
    """Write the strategy file at ``path`` (read by :func:`read_file`, repaired
    when ``lenient``) to ``output`` in the brace grammar, as :func:`normalised`
    writes it: atomically, or streamed into ``-`` (the standard output), a
    device or a FIFO; an existing file is refused unless ``force``.  With
    ``in_place`` (and no ``output``), the file ``path`` itself is rewritten,
    atomically (a link's target is replaced and the link kept): only a regular
    file in the brace grammar is (:func:`check_in_place`).  Returns what was
    read (the repairs made are ``read.strategy.repairs``)."""
    if in_place:
        check_in_place(path, output)
    elif output is None:
        raise ArgumentError("{output} or {in_place} is needed", output="FILE", in_place=True)
    read = read_file(path, fmt, game, lenient=lenient, max_bytes=max_bytes)
    check_one_length(read.strategy)  # (written back as it is: no replay says so)
    if in_place:
        if read.fmt != "brace":
            raise ArgumentError(
                f"{{in_place}} rewrites brace files only, and {path} is {read.fmt}: "
                "write it elsewhere with -o, or convert it", in_place=True)
        write(read.strategy, path, "brace", indent=indent, force=True)  # type: ignore[arg-type]
    else:
        write(read.strategy, output, "brace", indent=indent, force=force)  # type: ignore[arg-type]
    return read


def check_in_place(path: Input, output: str | os.PathLike[str] | None = None) -> None:
    """Raise :class:`~strategytree.errors.ArgumentError` unless the file at ``path``
    can be rewritten in place: no other ``output`` is given, and it is a regular
    file (through links), not ``-`` (stdin), a pipe or a device.

    >>> check_in_place("-")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    strategytree.errors.ArgumentError: in_place=True rewrites a regular file, not -
    (stdin, a pipe or a device); write to a file with -o
    """
    if output is not None:
        raise ArgumentError("{in_place} rewrites the input itself: drop {output}",
                            in_place=True, output=output)
    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if name is None or name == "-" or not os.path.isfile(name):
        if name is not None and name != "-" and not os.path.exists(name):
            return  # reading it says it is not there
        raise ArgumentError(
            f"{{in_place}} rewrites a regular file, not {name or 'a stream'} (stdin, a pipe or "
            "a device); write to a file with -o", in_place=True)


def convert_file(
    path: Input,
    output: str | os.PathLike[str] | None = None,
    fmt: str | None = None,
    to: str | None = None,
    *,
    game_options: dict[str, Any] | None = None,
    lenient: bool = False,
    indent: int | None = None,
    force: bool = False,
    max_bytes: int = MAX_INPUT_BYTES,
    on_read: Callable[[Read], object] | None = None,
) -> tuple[Read, str | None]:
    """What ``strategytree convert`` does: the file at ``path`` read (:func:`read_file`,
    in the game ``game_options`` give (as :func:`~strategytree.presets.resolve_game` takes
    them), the missing values from the file, when its format needs a game; for other
    formats the options given are refused),
    ``on_read`` told, and written in format ``to`` to ``output`` (a JSON tree
records the game the file was read in or records, if any) (:func:`write`; by
    default in the format its suffix names, else brace) or printed (``output`` None or
    ``-``: brace unless ``to``).  Returns what was read and the format written to the
    file (None when printed)."""
    from ..errors import refuse_inert

    read = read_file(path, fmt, lenient=lenient, max_bytes=max_bytes, options=game_options)
    check_one_length(read.strategy)  # (written back as it is: no replay says so)
    if read.fmt not in GAME_FORMATS and game_options:
        told = {**game_options, "preset": None if game_options.get("preset") == "mastermind"
                else game_options.get("preset")}
        where = f"on a {read.fmt} file (only mmstrat files are read in a game)"
        refuse_inert(told, (), where)
    if on_read is not None:
        on_read(read)
    game = read.game if read.game is not None else read.record
    if output is None or is_stdout(output):
        sys.stdout.write(writes(read.strategy, to or "brace", indent=indent, game=game) + "\n")
        return read, None
    target = to or SUFFIXES.get(Path(output).suffix.lower(), "brace")
    write(read.strategy, output, target, indent=indent, force=force, game=game)
    return read, target


def written_json(read: Read, source: object, output: object, target: str) -> dict[str, Any]:
    """The ``--json`` shape of ``convert`` and ``format`` (a file read and written
    again): ``source`` and ``output`` (the files), ``from`` and ``to`` (their
    formats), ``game`` (the game the file was read in or records, as a JSON tree
    records it: ``preset``, ``pegs``, ``colors``, ``distinct``, ``distinct_guesses``;
    None when its format tells none), ``guesses`` (nodes in the tree) and
    ``repairs`` (what lenient reading changed, one line each)."""
    from ..presets import game_record

    game = read.record if read.game is None else game_record(read.game)
    return {"source": str(source), "from": read.fmt, "output": str(output), "to": target,
            "game": game,
            "guesses": read.strategy.count_nodes(), "repairs": list(read.strategy.repairs)}


# -- what ``strategytree convert`` and ``format`` do ------------------------------------
def _repairs(read: Read) -> list[Any]:
    """The repairs made reading (:func:`~strategytree.verify.repair_lines`), as notes."""
    from rich.text import Text

    from ..verify import repair_lines

    return [Text(line) for line in repair_lines(read.strategy)]


def convert_outcome(
    path: Input, output: str | os.PathLike[str] | None = None, *, as_json: bool = False,
    game_options: dict[str, Any] | None = None, **convert: Any,
) -> CommandOutcome:
    """What ``strategytree convert`` does: the output checked (an existing file only
    with ``force``), :func:`convert_file` (``convert`` are its keyword arguments;
    ``game_options`` that ask for something, :func:`~.reading.options_given`, and
    mean no game refused before reading),
    then the repairs made, what was written, or its :func:`written_json`."""
    from rich.markup import escape

    from ..presets import resolve_game
    from ..words import plural

    check_outputs([output], force=convert.get("force", False), inputs={"the input": path},
                  stdout=True)
    check_json_output(as_json, output)
    game_options = game_options if game_options and options_given(game_options) else None
    if game_options:
        resolve_game(**game_options)
    read, target = convert_file(path, output, game_options=game_options, **convert)
    notes = _repairs(read)
    if as_json:
        return CommandOutcome(data=written_json(read, path, output, target), notes=notes)
    if target is not None:
        notes.append(f"wrote {escape(str(output))} ({target}) from {escape(str(path))} "
                     f"({read.fmt}): {plural(read.strategy.count_nodes(), 'guess')} in the tree")
    return CommandOutcome(notes=notes)


def format_outcome(
    path: Input, output: str | os.PathLike[str] | None = None, *, as_json: bool = False,
    in_place: bool = False, **write: Any,
) -> CommandOutcome:
    """What ``strategytree format`` does: the output checked (an existing file only
    with ``force``), :func:`normalise` (``write`` are its keyword arguments), then
    the repairs made and what was written, or its :func:`written_json`."""
    from rich.text import Text

    from ..words import plural

    written = path if in_place else output
    if in_place:  # (before the output's own checks: with --in-place there is none)
        check_in_place(path, output)
    check_outputs([output], force=write.get("force", False), inputs={"the input": path},
                  stdout=True)
    check_json_output(as_json, written)  # type: ignore[arg-type]
    read = normalise(path, output, in_place=in_place, **write)
    notes, repairs = _repairs(read), plural(len(read.strategy.repairs), "repair")
    if as_json:
        return CommandOutcome(data=written_json(read, path, written, "brace"), notes=notes)
    if in_place:
        notes.append(Text(f"rewrote {path} in place ({repairs})"))
    elif not is_stdout(output):  # type: ignore[arg-type]
        notes.append(Text(f"wrote {output} ({repairs}) from {path} ({read.fmt})"))
    return CommandOutcome(notes=notes)
