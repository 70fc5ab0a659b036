"""Reading a strategy in any format, and deciding its game: the one call.

:func:`read_strategy` reads a path, ``-`` or a stream (at most ``max_bytes``,
:func:`strategytree.formats.source.read_text`), tells the format from the
content (:func:`detect`) unless one is given, reads it with that format's
reader, and decides the game from the file and the game options
(:func:`strategytree.presets.resolve_game`, the one place options become a
game): every command that reads a strategy goes through it.  Below it,
:func:`read_file` and :func:`reads` read a format without deciding a game
(what ``convert`` and ``format`` need).

Every reader gives the same :class:`~strategytree.tree.Strategy`, and its
errors are :class:`~strategytree.errors.StrategyFileError` naming file, line
and column.

>>> tree = reads('{"guess": "AB", "branches": {"02": {"guess": "BA"}}}')
>>> from strategytree.formats.writing import writes
>>> writes(tree, "brace")
'{AB:{02:BA}}'
>>> detect("9 (12: 1, 2 (23), 1; 4 (32); 1)"), detect("{AB:{02:BA}}")
('mmstrat', 'brace')
>>> writes(reads("9 (12: 1, 2 (23), 1; 4 (32); 1)"), "brace")
'{AB:{02:BA,01:{BC:{01:CA}},00:CC,10:{CB:{01:AC,00:AA,10:BB}}}}'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .. import presets
from ..errors import ArgumentError, GameArgumentError, StrategyFileError, StrategyTreeError
from ..game import Game
from ..tree import Strategy, iter_nodes
from . import brace
from .source import MAX_INPUT_BYTES, Input, read_text, source_name

if TYPE_CHECKING:
    from .source import Source

__all__ = [
    "FORMATS", "GAME_FORMATS", "FormatError", "GameOptionsError", "Loaded", "Read",
    "checked_format", "detect", "fitting_game", "infer_game", "read", "read_file", "read_strategy",
    "options_given", "reads", "reads_all", "strategy_or_game", "strategy_reader",
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


class FormatError(StrategyTreeError, ValueError):
    """A format is unknown, or cannot be written."""


class GameOptionsError(GameArgumentError):
    """The game options given with a file mean no game (they contradict each
    other, or the preset): the same for every file read with them, so a front
    end may stop at once.  Worded as :func:`~strategytree.presets.resolve_game` words it."""


def checked_format(fmt: str, allowed: tuple[str, ...] | dict[str, str]) -> str:
    """``fmt`` as a known format name (lower case), or :class:`FormatError` listing ``allowed``."""
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
        if re.match(r"digraph\s+strategy\s*\{", start):
            return "dot"  # our guides' header, whatever the alphabet of their labels
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


#: the first line of the text guide ``show`` writes (its legend of the replies; the whole
#: tree, after a path, one game)
_TEXT_GUIDE = re.compile(
    r"(?:replies: [0-9]+ = |guess [0-9A-Za-z]+ +[0-9,]+ secrets?|after [0-9A-Za-z]+ |it is |1\. )")
#: the header of ``show``'s Markdown lookup table
_MARKDOWN_GUIDE = re.compile(r"\|\s*game\s*\|\s*guesses\s*\|\s*secret\s*\|")
#: the start of ``show``'s HTML guide (of any web page)
_HTML_GUIDE = re.compile(r"<(?:!doctype html|html)\b", re.IGNORECASE)


def _refuse_guides(text: str, source: str) -> None:
    """Raise :class:`StrategyFileError` for a guide written for a person to read
    (``show``'s text guide, its Markdown table, its web page): they do not read back, and the
    brace grammar's reader would only say it expected ``{``."""
    start = text.lstrip("\ufeff \t\r\n")
    if _TEXT_GUIDE.match(start):
        what = "the text guide that show writes, for a person to read"
    elif _MARKDOWN_GUIDE.match(start):
        what = "the Markdown table that show writes, for a person to read"
    elif _HTML_GUIDE.match(start):
        what = "the HTML guide that show writes, a web page for a person to read"
    else:
        return
    raise StrategyFileError(
        f"this is {what}: it is not read back; show's csv and dot guides are (the csv table "
        "holds the same games), and so is the strategy file it was made from",
        source=source,
    )


class Read(NamedTuple):
    """A strategy file read, and what reading it told."""

    strategy: Strategy
    """the tree"""
    fmt: str
    """the format it was written in: the one given, or the one told from the content"""
    game: Game | None
    """the game it was read in, for a format whose reader needs one (:data:`GAME_FORMATS`):
    the one given, or the one the file tells; None for the other formats"""
    record: dict[str, object] | None = None
    """the game a JSON tree records (the arguments of
    :func:`~strategytree.presets.resolve_game`, checked; its tables not made), else None"""


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
    :func:`strategytree.formats.brace.loads`); on a text in another format
    (given or told from the content) it would do nothing, and is an
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
    options: Mapping[str, Any] | None = None,
) -> Read:
    """The strategy written in ``text``, its format and the game it was read in
    (see :func:`reads` and :class:`Read`).

    ``options`` are game options (as :func:`~strategytree.presets.resolve_game`
    takes them) for a format whose reader needs the game, instead of ``game``:
    what they leave open (pegs, colours) is what the file tells."""
    kind = detect(text) if fmt is None else checked_format(fmt, FORMATS)
    if lenient and kind != "brace":
        if fmt is not None:
            raise ArgumentError(
                "{lenient} reads the brace grammar, not {fmt}", lenient=True, fmt=kind
            )
        raise ArgumentError(
            f"{{lenient}} has no effect on {source}: it is written in {kind} (told from its "
            "content), and lenient reading repairs the brace grammar only",
            lenient=True,
        )
    if kind == "brace":
        if fmt is None:
            _refuse_guides(text, source)
        return Read(brace.loads(text, source=source, lenient=lenient), kind, None)
    # the other readers are imported only when a file needs them
    from .source import Source

    where = Source(text, source)
    if kind == "mmstrat":
        from . import mmstrat

        if options is not None:
            game = _completed(options, mmstrat.told_game(where))
        strategy, told = mmstrat.read_with_game(where, game)
        return Read(strategy, kind, told)
    if kind == "json":
        from . import jsontree

        strategy, record = jsontree.read_with_record(where)
        return Read(strategy, kind, None, record)
    return Read(_other(where, kind), kind, None)


def _other(where: Source, kind: str) -> Strategy:
    """The strategy of a format that needs no game (nor records one)."""
    if kind in ("arfst-table", "arfst-yaml"):
        from . import arfst

        return arfst.read_table(where) if kind == "arfst-table" else arfst.read_yaml(where)
    if kind == "csv":
        from . import lookup

        return lookup.read(where)
    from . import graphviz

    return graphviz.read(where, kind)


def read(
    path: Input,
    fmt: str | None = None,
    game: Game | None = None,
    *,
    lenient: bool = False,
    max_bytes: int = MAX_INPUT_BYTES,
) -> Strategy:
    """The strategy in the file at ``path`` (see :func:`reads` and :func:`read_file`)."""
    return read_file(path, fmt, game, lenient=lenient, max_bytes=max_bytes).strategy


def check_one_length(strategy: Strategy) -> None:
    """Raise :class:`~strategytree.errors.StrategyFileError` where the first guess
    whose length differs from the first guess's is written: no game has codes of
    two lengths (for what writes a file back, which does not replay it).

    >>> try:
    ...     check_one_length(brace.loads("{AB:{00:CCC}}"))
    ... except StrategyFileError as problem:
    ...     print(problem.line, problem.column, problem.message)
    1 9 guess CCC has 3 pegs, where the first guess, AB, has 2
    """
    pre = strategy.preorder
    if pre is not None:
        odd = np.flatnonzero(pre.length != pre.length[0])
        if not len(odd):
            return
        at = int(pre.pos[odd[0]])  # (the two guesses alone, not every one cut out)
        first = pre.text[int(pre.pos[0]):int(pre.pos[0] + pre.length[0])]
        text = pre.text[at:at + int(pre.length[odd[0]])]
    else:
        nodes = iter_nodes(strategy.root)
        first = next(nodes)[0].guess
        found = next((node for node, _, _ in nodes if len(node.guess) != len(first)), None)
        if found is None:
            return
        text, at = found.guess, found.pos if found.pos is not None else -1
    line, column = strategy.locate(at) or (None, None)
    raise StrategyFileError(
        f"guess {text} has {len(text):,} pegs, where the first guess, {first}, has {len(first)}",
        source=strategy.source, line=line, column=column)


def read_file(
    path: Input,
    fmt: str | None = None,
    game: Game | None = None,
    *,
    lenient: bool = False,
    max_bytes: int = MAX_INPUT_BYTES,
    options: Mapping[str, Any] | None = None,
) -> Read:
    """The strategy in the file at ``path``, its format and the game it was read in
    (no game is decided for a format that does not need one: see
    :func:`read_strategy` for that).

    ``path`` may also be a pipe, a device, ``-`` (the standard input) or a
    stream; at most ``max_bytes`` are read
    (:func:`strategytree.formats.source.read_text`).  The brace grammar is read
    as :func:`strategytree.formats.brace.load` reads it (same errors, same
    speed); other formats by ``fmt`` or told from the content (:func:`detect`).
    See :func:`reads` for ``game`` and ``lenient``, :func:`reads_all` for ``options``.
    """
    text = read_text(path, max_bytes)
    return reads_all(
        text, fmt, game, source=source_name(path), lenient=lenient, options=options
    )


class Loaded(NamedTuple):
    """A strategy read, with the game it is played in (:func:`read_strategy`)."""

    strategy: Strategy
    """the tree"""
    fmt: str
    """the format it was written in: the one given, or the one told from the content"""
    game: Game
    """the game: from the options, completed by what the file tells"""
    notes: list[str]
    """what was inferred from the file, one note each (e.g. ``"pegs 4 (from the first guess)"``)"""


def read_strategy(
    path: Input,
    fmt: str | None = None,
    *,
    preset: str | None = None,
    pegs: int | None = None,
    colors: int | None = None,
    distinct: bool = False,
    distinct_guesses: bool = False,
    lenient: bool = False,
    max_bytes: int = MAX_INPUT_BYTES,
) -> Loaded:
    """The strategy at ``path`` (a file, ``-`` or a stream, in any format:
    :func:`read_file`) and the game it is played in, with notes on what was
    inferred: the one reading of a strategy with its game.

    The game options (``preset`` … ``distinct_guesses``, as
    :func:`~strategytree.presets.resolve_game` takes them) decide the game; what
    they leave open is inferred from the file.  A format whose reader needs the
    game (mmstrat) is read in the game the options give when they give one,
    else in the game its counts tell.  A JSON tree that records its game is
    read in it; options that ask for another game (other codes or scoring)
    raise :class:`~strategytree.errors.GameArgumentError` naming them.  Options
    that mean no game raise :class:`GameOptionsError`.
    """
    choice = dict(
        preset=preset, pegs=pegs, colors=colors, distinct=distinct,
        distinct_guesses=distinct_guesses
    )
    needs_game = fmt is None or fmt.strip().lower() in GAME_FORMATS
    given = options_given(choice)
    if given and needs_game:
        _resolved(choice)  # options that mean no game are refused before reading
    found = read_file(
        path, fmt, lenient=lenient, max_bytes=max_bytes, options=choice if given else None
    )
    if found.record is not None:
        return _recorded(found, choice if given else None)
    if found.game is None:
        game, notes = _resolved(choice, found.strategy)
        if not given:
            game, notes = fitting_game(found.strategy, game, notes)
        else:
            _check_pegs(found.strategy, game, choice)
        return Loaded(found.strategy, found.fmt, game, notes)
    if given:
        return Loaded(found.strategy, found.fmt, found.game, _filled(choice, found.game))
    told = found.game
    try:
        game = presets.similar_game(told)
    except ArgumentError as problem:
        raise GameOptionsError(problem.template, **problem.arguments) from None
    kind = ", distinct colours" if len(told.secrets) < told.colors**told.pegs else ""
    notes = [f"pegs {told.pegs}, colors {told.colors}{kind} (from the counts)"]
    return Loaded(found.strategy, found.fmt, game, notes)


#: the game keywords of :func:`read_strategy` (:func:`~strategytree.presets.resolve_game`'s)
GAME_OPTIONS = ("preset", "pegs", "colors", "distinct", "distinct_guesses")


def options_given(options: Mapping[str, Any]) -> bool:
    """True when the game keywords ``options`` ask for something (a value other than
    the defaults: classic Mastermind, whose sizes the file tells).

    >>> options_given({"preset": "mastermind", "pegs": None}), options_given({"pegs": 5})
    (False, True)
    """
    return any(value for key, value in options.items()
               if key in GAME_OPTIONS and not (key == "preset" and value == "mastermind"))


def strategy_or_game(path: Input | None, **read: Any) -> tuple[Game, Strategy | None]:
    """The game and the strategy at ``path`` (:func:`read_strategy`, ``read`` its
    keywords); without a ``path``, the game its :data:`GAME_OPTIONS` mean, and None."""
    if path is not None:
        loaded = read_strategy(path, **read)
        return loaded.game, loaded.strategy
    told = {key: read[key] for key in GAME_OPTIONS if key in read}
    return presets.resolve_game(**told)[0], None


def strategy_reader(**read: Any) -> Callable[[Input], tuple[Strategy, Game, list[str]]]:
    """A reader of paths (what :func:`strategytree.verify.verify_files` takes): the
    strategy, its game and the notes on it of :func:`read_strategy` (``read`` its keywords)."""

    def read_one(path: Input) -> tuple[Strategy, Game, list[str]]:
        loaded = read_strategy(path, **read)
        return loaded.strategy, loaded.game, loaded.notes

    return read_one


def _recorded(found: Read, choice: dict[str, object] | None) -> Loaded:
    """A JSON tree read in the game it records (``found.record``), or in the game
    the options ``choice`` give, what they leave open taken from the record,
    when it is the same game (the same codes and scoring); options that ask for
    another game are refused, naming them."""
    record = found.record or {}
    recorded = _resolved(dict(record))[0]
    note = "the game recorded in the file"
    if choice is None:
        return Loaded(found.strategy, found.fmt, recorded, [note])
    given = {name: value for name, value in choice.items()
             if value not in (None, False) and (name != "preset" or value != "mastermind")}
    try:
        asked: Game | None = presets.resolve_game(**{**record, **given})[0]  # type: ignore[arg-type]
    except ArgumentError:
        asked = None  # e.g. --colors 8 on a Bagel tree: no such Bagel
    if asked is not None and (asked.digest, asked.scoring) == (recorded.digest, recorded.scoring):
        return Loaded(found.strategy, found.fmt, asked, [note])
    differ = {name: value for name, value in given.items() if record.get(name) != value}
    named = differ or given
    options = " ".join(f"{{{name}}}" for name in named)
    one = len(named) == 1
    raise GameArgumentError(
        f"{found.strategy.source} records the game {recorded.name}, but {options} "
        f"{'asks' if one else 'ask'} for "
        f"{'another game' if asked is None else asked.name}: drop {'it' if one else 'them'} "
        "to play the game recorded", **named)


def _check_pegs(strategy: Strategy, game: Game, choice: dict[str, object]) -> None:
    """Refuse a game, given by options, whose codes are not as long as the file's:
    the file was built for another game (each of its guesses would be one error)."""
    guess = strategy.root_guess
    if len(guess) == game.pegs:
        return
    name = "pegs" if choice.get("pegs") else "preset" if choice.get("preset") else "colors"
    raise GameOptionsError(
        f"{strategy.source}: its guesses have {len(guess)} pegs ({guess}), but {{{name}}} means "
        f"{game.name}, a game of {game.pegs}: the file was built for another game",
        **{name: choice.get(name)},
    )


def _resolved(choice: dict[str, object],
              strategy: Strategy | None = None) -> tuple[Game, list[str]]:
    """:func:`~strategytree.presets.resolve_game` of the options (looked up when
    called, as the command line's is), raising :class:`GameOptionsError`."""
    try:
        return presets.resolve_game(**choice, strategy=strategy)  # type: ignore[arg-type]
    except ArgumentError as problem:
        raise GameOptionsError(problem.template, **problem.arguments) from None


def fitting_game(strategy: Strategy, game: Game, notes: list[str]) -> tuple[Game, list[str]]:
    """The game a strategy read without game options was built for, and notes.

    ``game`` is the classic Mastermind its codes tell (:func:`infer_game`).  When
    the codes say it cannot be that one (every solved secret has distinct
    colours, or no reply has whites), the games consistent with them are tried
    (Bulls and Cows and Bagel at their sizes, distinct colours, black-only
    scoring) and the first the tree solves whole is taken.  When none is,
    ``game`` stays and a note names the one that comes closest.
    """
    candidates = _candidates(strategy, game.pegs, game.colors)
    written = strategy.count_nodes()
    # a guess wins on one secret at most: a game of more than twice as many secrets as
    # guesses written is solved under half, neither whole nor nearly (the fewest any
    # candidate has: the codes of distinct colours)
    if not candidates or 2 * written < math.perm(game.colors, game.pegs):
        return game, notes
    from ..verify import verify

    closest: tuple[float, str] | None = None
    for options, why in candidates:
        try:
            tried = presets.resolve_game(**options)[0]  # type: ignore[arg-type]
        except StrategyTreeError:
            continue
        if len(tried.secrets) > 2 * written:
            continue
        report = verify(strategy, tried)
        if report.valid:
            return tried, [f"{why}; the tree solves all {report.secrets:,} secrets of this game"]
        share = report.solved / report.secrets
        if closest is None or share > closest[0]:
            closest = (share, f"{why}: did you mean {_flags(options)}?")
    return game, notes + ([closest[1]] if closest else [])


def _candidates(strategy: Strategy, pegs: int, colors: int) -> list[tuple[dict[str, Any], str]]:
    """The games other than classic Mastermind that the codes of ``strategy`` are
    consistent with, and why, most specific first (none when the codes say nothing)."""
    whites, leaves_distinct, guesses_distinct = _codes_evidence(strategy, pegs)
    found: list[tuple[dict[str, Any], str]] = []
    if not whites:
        found.append((dict(preset="black-only", pegs=pegs, colors=colors), "no reply has whites"))
    if leaves_distinct:
        why = "every solved secret has distinct colours"
        for name, preset in presets.GAMES.items():
            if preset.named and (preset.pegs, preset.colors) == (pegs, colors):
                found.append((dict(preset=name), why))
        if guesses_distinct:
            found.append((dict(pegs=pegs, colors=colors, distinct_guesses=True), why))
        found.append((dict(pegs=pegs, colors=colors, distinct=True), why))
    return found


def _codes_evidence(strategy: Strategy, pegs: int) -> tuple[bool, bool, bool]:
    """Whether some reply has whites, whether every leaf's code, and every
    guess, has distinct colours (True, False, False when the codes are not all
    ``pegs`` long).  From the :class:`~strategytree.tree.Preorder` arrays of a
    file read, one column of colours at a time: no object per node."""
    pre = strategy.preorder
    if pre is not None:
        whites = bool((pre.written[1:] % 10 > 0).any())
        if pegs < 2 or bool((pre.length != pegs).any()):
            return True, False, False
        data = np.frombuffer(pre.text.encode("ascii"), np.uint8)
        starts, leaf = pre.pos, pre.end == np.arange(1, len(pre.pos) + 1)
    else:
        nodes = list(iter_nodes(strategy.root))
        whites = any(reply is not None and reply.white > 0 for _, reply, _ in nodes)
        if pegs < 2 or any(len(node.guess) != pegs for node, _, _ in nodes):
            return True, False, False
        joined = "".join(node.guess for node, _, _ in nodes).encode("ascii", "replace")
        data = np.frombuffer(joined, np.uint8)
        starts = np.arange(len(nodes)) * pegs
        leaf = np.array([not node.branches for node, _, _ in nodes])
    leaves = _all_distinct(data, starts[leaf], pegs)
    return whites, leaves, leaves and _all_distinct(data, starts, pegs)


def _all_distinct(data: np.ndarray, starts: np.ndarray, pegs: int) -> bool:
    """True when no code of ``pegs`` bytes at ``starts`` in ``data`` repeats a colour."""
    for a in range(pegs):
        for b in range(a + 1, pegs):
            if bool((data[starts + a] == data[starts + b]).any()):
                return False
    return True


def _flags(options: Mapping[str, Any]) -> str:
    """Game options as the command line gives them: ``--game bagel``, ``--distinct -p 3 -c 5``."""
    words = [f"--game {options['preset']}"] if "preset" in options else []
    words += [f"--{name.replace('_', '-')}" for name in ("distinct", "distinct_guesses")
              if options.get(name)]
    words += [f"{flag} {options[name]}" for name, flag in (("pegs", "-p"), ("colors", "-c"))
              if name in options]
    return " ".join(words)


def _completed(options: Mapping[str, Any], told: Game) -> Game:
    """The game of the options, the pegs and colours they leave open taken from
    ``told``, the game a file's counts tell (distinct colours are the options'
    own, as a brace file's are)."""
    choice = dict(options)
    preset = presets.GAMES.get(choice.get("preset") or "mastermind")
    if preset is not None:
        if choice.get("pegs") is None and preset.pegs is None:
            choice["pegs"] = told.pegs
        if choice.get("colors") is None and preset.colors is None:
            choice["colors"] = told.colors
    return _resolved(choice)[0]


def _filled(options: Mapping[str, Any], game: Game) -> list[str]:
    """Notes on the sizes of ``game`` that ``options`` left to the file."""
    preset = presets.GAMES.get(options.get("preset") or "mastermind")
    return [
        f"{name} {getattr(game, name)} (from the counts)"
        for name in ("pegs", "colors")
        if options.get(name) is None and preset is not None and getattr(preset, name) is None
    ]


def infer_game(
    strategy: Strategy,
    pegs: int | None = None,
    colors: int | None = None,
    *,
    distinct_secrets: bool = False,
    distinct_guesses: bool = False,
    game: str = "mastermind",
) -> tuple[Game, list[str]]:
    """The game a strategy already read is meant for, and notes on what was inferred:
    :func:`strategytree.presets.resolve_game` with ``strategy`` to infer from
    (distinct guesses must be asked with distinct secrets here)."""
    if not isinstance(strategy, Strategy):
        raise StrategyTreeError(f"the game is inferred from a Strategy (st.loads, st.load), "
                                f"not {type(strategy).__name__}")
    if distinct_guesses and not distinct_secrets:
        raise StrategyTreeError("distinct guesses need distinct secrets (distinct_secrets=True)")
    return presets.resolve_game(
        game, pegs, colors,
        distinct=distinct_secrets, distinct_guesses=distinct_guesses, strategy=strategy,
    )
