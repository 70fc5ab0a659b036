"""The verifier: replay every secret of a game through a strategy, and score it.

>>> from strategytree.formats.brace import loads
>>> report = verify(loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"))
>>> report.total, report.max_guesses, report.histogram, report.valid
(21, 3, {1: 1, 2: 4, 3: 4}, True)
>>> report.game_notes
['pegs 2 (from the first guess)', 'colors 3 (from the highest colour letter, C)']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .display import html
from .errors import StrategyError, StrategyTreeError
from .game import LETTERS, Game, Reply
from .literature import Gap, gap
from .outcome import INVALID, OK, UNREADABLE, CommandOutcome
from .presets import resolve_game
from .replay import FlatTree, Replay, replay
from .spelling import Alphabet, alphabet_for
from .tree import Node, Strategy

__all__ = [
    "SHOWN_PROBLEMS", "Problem", "Ranked", "Report", "Unsolved", "histogram_table",
    "node_visits", "problem_lines", "rank", "ranking_json", "ranking_view", "report_outcome",
    "report_view", "repair_lines", "verify", "verify_files", "verify_outcome",
]


@dataclass(frozen=True)
class Problem:
    """Something wrong (or suspicious) at one place of a strategy."""

    kind: str
    """``malformed-guess``, ``illegal-guess``, ``invalid-reply``, ``duplicate-reply``
    or ``unreachable-branch``"""
    message: str
    """what is wrong, in words"""
    path: str
    """the guesses and replies that lead to the place (``"AB 10, AC 01"``)"""
    line: int | None = None
    """1-based line of the guess concerned, when read from a file"""
    column: int | None = None
    """1-based column of the guess concerned, when read from a file"""

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.line else ""
        after = f" (after {self.path})" if self.path else ""
        return f"{where}{self.message}{after}"


@dataclass(frozen=True)
class Unsolved:
    """A secret the strategy does not solve, and where it went wrong."""

    secret: str
    """the secret, in the game's alphabet (digits for Bulls and Cows)"""
    path: str
    """the guesses and replies it was given, ending where it failed (same alphabet)"""
    reason: str
    """why the strategy stops there (same alphabet)"""


@dataclass
class Report:
    """What :func:`verify` found.  ``to_dict()`` is the ``--json`` output."""

    source: str
    """the file (or ``<string>``)"""
    game: str
    """the game the strategy was checked against"""
    pegs: int
    colors: int
    game_notes: list[str]
    """which of pegs and colours were inferred from the file, and how"""
    secrets: int
    """number of secrets of the game"""
    solved: int
    """secrets the strategy solves"""
    total: int
    """guesses summed over the solved secrets (the code-golf score N)"""
    max_guesses: int
    """the most guesses any solved secret needs"""
    histogram: dict[int, int]
    """guesses -> number of secrets solved with that many"""
    unsolved: int
    """secrets the strategy does not solve"""
    unsolved_examples: list[Unsolved] = field(default_factory=list)
    """a few unsolved secrets with the path that failed each"""
    invalid_replies: list[Problem] = field(default_factory=list)
    """branches whose reply can never be given (errors)"""
    unreachable_branches: list[Problem] = field(default_factory=list)
    """branches that no remaining secret reaches (warnings; errors when strict)"""
    errors: list[Problem] = field(default_factory=list)
    """every error: malformed or illegal guesses, invalid and duplicate replies"""
    strict: bool = False
    """whether unreachable branches count as errors"""
    repairs: list[str] = field(default_factory=list)
    """what lenient reading changed in the file (``source:line:column: what``)"""
    gap: Gap | None = None
    """how far the total is, or can be, from the optimum (when every secret is solved)"""
    symbols: str = "letters"
    """how the game shows codes (the JSON spells secrets and paths so)"""

    @property
    def average(self) -> float:
        """Guesses per secret, over the solved secrets."""
        return self.total / self.solved if self.solved else 0.0

    @property
    def valid(self) -> bool:
        """True when every secret is solved and nothing is wrong with the file."""
        return (
            self.unsolved == 0
            and not self.errors
            and not (self.strict and self.unreachable_branches)
        )

    @property
    def reason(self) -> str | None:
        """Why the strategy is invalid, in one line (None when valid)."""
        if self.valid:
            return None
        parts = []
        if self.errors:
            parts.append(f"{_count(len(self.errors), 'error')} (first: {self.errors[0]})")
        if self.unsolved:
            first = (f" (e.g. {self.unsolved_examples[0].secret}: "
                     f"{self.unsolved_examples[0].reason})" if self.unsolved_examples else "")
            parts.append(f"{_count(self.unsolved, 'secret')} not solved{first}")
        if not parts:  # strict, and only unreachable branches
            first = self.unreachable_branches[0]
            parts.append(f"{_count(len(self.unreachable_branches), 'unreachable branch', 'es')}"
                         f" (first: {first})")
        return "; ".join(parts)

    def _repr_html_(self) -> str:
        """How Jupyter shows a report: :func:`strategytree.notebook.report_html`
        (registered in :mod:`strategytree.display`)."""
        return html(self)

    def to_dict(self) -> dict[str, Any]:
        """The ``verify --json`` shape of one file: every field (histogram keys as
        strings, secrets and paths in the game's alphabet), ``average``, ``valid``,
        ``reason`` (None when valid) and ``gap`` (:meth:`Gap.to_dict
        <strategytree.literature.Gap.to_dict>`, None when some secret is unsolved)."""
        out = asdict(self)
        out["average"] = self.average
        out["valid"] = self.valid
        out["reason"] = self.reason
        out["histogram"] = {str(k): v for k, v in self.histogram.items()}
        out["gap"] = self.gap.to_dict() if self.gap is not None else None
        spelled = Alphabet(digits=self.symbols == "digits")
        for key in ("invalid_replies", "unreachable_branches", "errors"):
            for problem in out[key]:
                problem["path"] = spelled.words(problem["path"])
        return out


def _count(n: int, thing: str, plural: str = "s") -> str:
    """``1 error``, ``3 errors``."""
    return f"{n:,} {thing}{plural * (n != 1)}"


# -- several files ---------------------------------------------------------------------
@dataclass(frozen=True)
class Ranked:
    """One file of a ranking (:func:`rank`)."""

    source: str
    """the file"""
    report: Report | None
    """its report (None when it could not be read)"""
    rank: int | None
    """1 for the best valid strategy of its game (ties share a rank); None when invalid"""
    reason: str | None
    """why it is not ranked: the report's :attr:`Report.reason`, or why it could not be read"""

    @property
    def game(self) -> str | None:
        """The game the file was checked against (None when unreadable)."""
        return self.report.game if self.report is not None else None

    def to_dict(self) -> dict[str, Any]:
        """One item of ``verify --json`` (a list, one item per file): ``rank`` (None when not
        ranked), ``reason``, ``unreadable`` (why the file could not be read, else
        None) and, for a file read, every field of :meth:`Report.to_dict`; for an
        unreadable one ``source``, ``game`` (None) and ``valid`` (False)."""
        if self.report is None:
            return {"rank": None, "source": self.source, "game": None, "valid": False,
                    "reason": self.reason, "unreadable": self.reason}
        return {"rank": self.rank, **self.report.to_dict(), "unreadable": None}


def rank(results: list[tuple[str, Report | str]]) -> list[Ranked]:
    """Rank files by the code-golf rules, each game apart: the fewest guesses in
    total, then the lowest maximum; the same total and maximum share a rank.

    ``results`` pairs each file with its report, or with why it could not be read.
    Games come in the order of their first file; in a game, the ranked files,
    then the invalid ones (in the given order); the unreadable files last.
    """
    games: dict[str, list[tuple[str, Report]]] = {}
    unreadable = []
    for source, result in results:
        if isinstance(result, Report):
            games.setdefault(result.game, []).append((source, result))
        else:
            unreadable.append(Ranked(source, None, None, result))
    out: list[Ranked] = []
    for files in games.values():
        valid = sorted(
            ((s, r) for s, r in files if r.valid), key=lambda sr: (sr[1].total, sr[1].max_guesses)
        )
        place, score = 0, None
        for k, (source, report) in enumerate(valid, 1):
            if (report.total, report.max_guesses) != score:
                place, score = k, (report.total, report.max_guesses)
            out.append(Ranked(source, report, place, None))
        out += [Ranked(s, r, None, r.reason) for s, r in files if not r.valid]
    return out + unreadable


def ranking_json(ranked: list[Ranked]) -> list[dict[str, Any]]:
    """The ``verify --json`` output, of one file or several: a list of
    :meth:`Ranked.to_dict`, one per file, in the order of the ranking."""
    return [item.to_dict() for item in ranked]


# -- where a node is --------------------------------------------------------------
def _path(
    tree: FlatTree, index: int, last_reply: Reply | None = None, spell: Callable[[str], str] = str
) -> str:
    """``"AB 10, AC 01"``: the guesses and replies that lead to node ``index``.

    With ``last_reply``, the node's own guess and that reply end the path;
    ``spell`` writes each guess (by default as the file does, in letters).
    """
    steps = [f"{short(spell(g))} {r}" for g, r in tree.history(index)]
    if last_reply is not None:
        steps.append(f"{short(spell(tree.guess[index]))} {last_reply}")
    if len(steps) > 2 * PATH_ENDS:  # a path thousands of guesses long: its ends
        left = len(steps) - 2 * PATH_ENDS
        steps[PATH_ENDS:-PATH_ENDS] = [f"... ({left:,} more) ..."]
    return ", ".join(steps)


#: a path longer than twice this many steps is shown by its first and last steps
PATH_ENDS = 10
#: a guess longer than this is shown cut short (only a malformed guess can be)
GUESS_SHOWN = 24


def short(guess: str) -> str:
    """A guess as messages show it: a malformed one of thousands of letters cut short.

    >>> short("ABCD"), short("A" * 30)
    ('ABCD', 'AAAAAAAAAAAAAAAAAAAA... (30 letters)')
    """
    if len(guess) <= GUESS_SHOWN:
        return guess
    return f"{guess[:GUESS_SHOWN - 4]}... ({len(guess):,} letters)"


def _problem(strategy: Strategy, tree: FlatTree, kind: str, message: str, index: int) -> Problem:
    at = strategy.locate(int(tree.positions[index]))
    line, column = at if at else (None, None)
    return Problem(kind, message, _path(tree, index), line, column)


# -- the verifier --------------------------------------------------------------------
def verify(
    strategy: Strategy,
    game: Game | None = None,
    *,
    strict: bool = False,
    examples: int = 5,
) -> Report:
    """Replay every secret of ``game`` through ``strategy`` and report.

    Without a game, the game is inferred from the strategy
    (:func:`strategytree.presets.resolve_game`: classic Mastermind).  Never raises for a bad
    strategy: everything wrong with it is in the report.
    """
    notes: list[str] = []
    if isinstance(strategy, Node):  # a tree made by hand, as dump and dumps take it
        strategy = Strategy(strategy)
    if not isinstance(strategy, Strategy):
        raise StrategyError(f"verify takes a Strategy (st.loads, st.load) or its root Node, "
                            f"not {type(strategy).__name__}")
    if game is not None and not isinstance(game, Game):
        raise StrategyError(f"the game is a Game (st.mastermind(4, 6), st.preset(...)), "
                            f"not {type(game).__name__} {game!r}")
    if game is None:
        game, notes = resolve_game(strategy=strategy)
    tree = FlatTree(strategy, game)
    errors, invalid, wrong = static_problems(strategy, tree)
    played = replay(tree)
    unreachable = _unreachable(strategy, tree, played, wrong)
    if strict:
        errors.extend(unreachable)

    solved_at = played.guesses
    solved = solved_at > 0
    counts = np.bincount(solved_at[solved]) if solved.any() else np.zeros(1, dtype=np.int64)
    histogram = {int(k): int(v) for k, v in enumerate(counts) if v}
    unsolved_ix = np.flatnonzero(~solved)
    cases = [_unsolved(tree, played, int(s)) for s in unsolved_ix[:examples]]
    total = int(solved_at.sum())
    return Report(
        source=strategy.source,
        game=game.name,
        pegs=game.pegs,
        colors=game.colors,
        game_notes=notes,
        secrets=len(game.secrets),
        solved=int(solved.sum()),
        total=total,
        max_guesses=int(solved_at.max()) if len(solved_at) else 0,
        histogram=histogram,
        unsolved=len(unsolved_ix),
        unsolved_examples=cases,
        invalid_replies=invalid,
        unreachable_branches=unreachable,
        errors=errors,
        strict=strict,
        repairs=list(strategy.repairs),
        gap=(gap(game, total, int(solved_at.max()))
             if len(unsolved_ix) == 0 and len(game.secrets) else None),
        symbols=game.symbols,
    )


def static_problems(
    strategy: Strategy, tree: FlatTree
) -> tuple[list[Problem], list[Problem], np.ndarray]:
    """Every error found without replaying (malformed guesses, invalid and
    duplicate replies, illegal guesses), the invalid replies alone, and which
    nodes hang on an invalid reply."""
    game = tree.game
    p, c = game.pegs, game.colors
    errors: list[Problem] = []
    invalid: list[Problem] = []
    for i in np.flatnonzero(~tree.formed).tolist():
        guess = short(tree.guess[i])
        palette = LETTERS[:c]
        strange = next((ch for ch in tree.guess[i] if ch not in LETTERS), None)
        if strange is not None:
            message = f"guess {guess!r} uses {strange!r}, which is not a colour letter A..Z"
        elif len(tree.guess[i]) != p:
            message = f"guess {guess} has {len(tree.guess[i]):,} pegs, expected {p}"
        else:
            bad = next(ch for ch in tree.guess[i] if ch not in palette)
            message = f"guess {guess} uses colour {bad}, beyond the {c} colours A..{palette[-1]}"
        errors.append(_problem(strategy, tree, "malformed-guess", message, i))
    # replies that can never be given (b + w > p, b = p - 1 and w = 1, the win, ...)
    wrong = (tree.code < 0) & (tree.parents >= 0)
    for i in np.flatnonzero(wrong).tolist():
        reply = tree.reply[i]
        assert reply is not None
        why = game.reply_problem(reply)
        guess = tree.guess[tree.parent[i]]
        problem = _problem(strategy, tree, "invalid-reply",
                           f"reply {reply} under guess {guess}: {why}", i)
        invalid.append(problem)
        errors.append(problem)
    # a reply written twice under one guess: each later copy, by guess, then in written order
    key = tree.parents * 100 + tree.written  # digits: no two replies collide
    again = np.ones(len(tree), dtype=bool)
    again[np.unique(key, return_index=True)[1]] = False
    for i in sorted(np.flatnonzero(again).tolist(), key=lambda i: (tree.parent[i], i)):
        parent = tree.parent[i]
        message = f"reply {tree.reply[i]} is written twice under guess {tree.guess[parent]}"
        errors.append(_problem(strategy, tree, "duplicate-reply", message, parent))
    for i in np.flatnonzero(tree.formed & (tree.guess_index < 0)).tolist():
        message = f"guess {tree.guess[i]} is not allowed in {game.name}"
        errors.append(_problem(strategy, tree, "illegal-guess", message, i))
    return errors, invalid, wrong


def _unreachable(
    strategy: Strategy, tree: FlatTree, played: Replay, wrong: np.ndarray
) -> list[Problem]:
    """Branches under a reached, playable guess that no secret took."""
    parents = tree.parents
    reached, usable = played.visits > 0, tree.guess_index >= 0
    edge = np.flatnonzero(~wrong & (parents >= 0))
    edge = edge[reached[parents[edge]] & usable[parents[edge]] & ~played.taken[edge]]
    if len(edge):  # a reply written twice is reported once, as a duplicate
        key = parents * 100 + tree.written
        first = np.zeros(len(tree), dtype=bool)
        first[np.unique(key[1:], return_index=True)[1] + 1] = True
        edge = edge[first[edge]]
    out = []
    for i in edge.tolist():
        guess = tree.guess[tree.parent[i]]
        message = f"no remaining secret gives reply {tree.reply[i]} to guess {guess}"
        out.append(_problem(strategy, tree, "unreachable-branch", message, i))
    return out


def _unsolved(tree: FlatTree, played: Replay, k: int) -> Unsolved:
    """Secret ``k`` (unsolved), the path that failed it and why, in the game's alphabet."""
    game = tree.game
    spelled = alphabet_for(game)
    node, reply = int(played.node[k]), int(played.reply[k])
    guess = short(spelled.word(tree.guess[node]))
    if reply < 0:
        reason = f"guess {guess} cannot be played in {game.name}"
        path = _path(tree, node, spell=spelled.word)
    elif tree.leaf[node]:
        reason = f"known solution {guess} is not the secret"
        path = _path(tree, node, game.reply(reply), spelled.word)
    else:
        reason = f"reply {game.reply(reply)} to guess {guess} has no branch"
        path = _path(tree, node, game.reply(reply), spelled.word)
    return Unsolved(spelled.text(game, played.secrets[k], secret=True), path, reason)


def node_visits(strategy: Strategy, game: Game) -> list[int]:
    """How many secrets of ``game`` reach each node, in written (preorder) order.

    The order is the order in which :func:`strategytree.tree.walk` enters the nodes.
    """
    return replay(FlatTree(strategy, game)).visits.tolist()


# -- what ``strategytree verify`` reports -------------------------------------------------
#: how many errors (and warnings) a report prints; ``--json`` has them all
SHOWN_PROBLEMS = 20


def verify_files(
    paths: list[Any],
    read: Callable[[Any], tuple[Strategy, Game, list[str]]],
    *,
    strict: bool = False,
    examples: int = 5,
    word: Callable[[StrategyTreeError], str] = str,
) -> tuple[list[Ranked], list[StrategyTreeError]]:
    """Verify each file ``read`` reads (a strategy, its game and notes on how the
    game was told) and :func:`rank` them: the ranking, and the errors of the
    files that could not be read (each ranked with ``word(error)`` as reason)."""
    reports: list[tuple[str, Report | str]] = []
    unreadable: list[StrategyTreeError] = []
    for path in paths:
        try:
            strategy, game, notes = read(path)
            report = verify(strategy, game, strict=strict, examples=examples)
            report.game_notes = notes
            report.repairs = strategy.repairs
            reports.append((str(path), report))
        except StrategyTreeError as problem:
            reports.append((str(path), word(problem)))
            unreadable.append(problem)
    return rank(reports), unreadable


def verify_outcome(
    paths: list[Any],
    read: Callable[[Any], tuple[Strategy, Game, list[str]]],
    *,
    strict: bool = False,
    examples: int = 5,
    as_json: bool = False,
    word: Callable[[StrategyTreeError], str] = str,
) -> CommandOutcome:
    """What ``strategytree verify`` does: :func:`verify_files` of ``paths``, each
    read by ``read`` (e.g. :func:`~strategytree.formats.reading.strategy_reader`);
    one file's report, or the ranking (or its JSON, and one ``error:`` line per
    file not read, ``word`` wording it); exit 2 if a file is unreadable (one file
    alone: its error is raised), 1 if one is invalid."""
    from rich.markup import escape

    if sum(str(path) == "-" for path in paths) > 1:
        raise StrategyTreeError("- (the standard input) is given twice: it is read once")
    ranked, unreadable = verify_files(paths, read, strict=strict, examples=examples, word=word)
    if len(paths) == 1 and unreadable and not as_json:
        raise unreadable[0]
    invalid = not all(item.report.valid for item in ranked if item.report is not None)
    status = UNREADABLE if unreadable else INVALID if invalid else OK
    if as_json:
        errors = [f"error: {escape(word(problem))}" for problem in unreadable]
        return CommandOutcome(data=ranking_json(ranked), notes=errors, status=status)
    shown = report_view(ranked[0].report) if len(paths) == 1 else ranking_view(ranked)
    return CommandOutcome(shown, status=status)


def report_outcome(report: Report, line: str, data: Any = None, *,
                   aside: bool = False) -> CommandOutcome:
    """A strategy written and verified (``generate``, ``improve``): its report and
    ``line`` (rich markup), or ``data`` (its JSON) when given; exit 1 if invalid."""
    status = OK if report.valid else INVALID
    return CommandOutcome.either(data is not None, data, [*report_view(report), line],
                                 status=status, aside=aside)


def repair_lines(strategy: Strategy) -> list[str]:
    """The repairs a lenient reading made (:attr:`Strategy.repairs`), one
    ``repaired:`` line each (plain text), the first :data:`SHOWN_PROBLEMS` of them."""
    repairs = strategy.repairs
    more = len(repairs) - SHOWN_PROBLEMS
    return ([f"repaired: {repair}" for repair in repairs[:SHOWN_PROBLEMS]]
            + ([f"repaired: ... and {more:,} more"] if more > 0 else []))


def histogram_table(counts: dict[int, int], what: str) -> Any:
    """Guesses -> how many ``what`` (secrets, games), as one row of a rich table."""
    from rich.table import Table

    histogram = Table(box=None, padding=(0, 1), show_edge=False)
    histogram.add_column("guesses", justify="left")
    for guesses in counts:
        histogram.add_column(str(guesses), justify="right", no_wrap=True)
    histogram.add_row(what, *(f"{n:,}" for n in counts.values()))
    return histogram


def problem_lines(label: str, problems: list) -> list[Any]:
    """Up to :data:`SHOWN_PROBLEMS` problems, each a line after ``label`` (rich markup)."""
    from rich.text import Text

    lines: list[Any] = [
        Text.assemble(Text.from_markup(f"{label} "), str(problem))
        for problem in problems[:SHOWN_PROBLEMS]
    ]
    if len(problems) > SHOWN_PROBLEMS:
        lines.append(f"{label} ... and {len(problems) - SHOWN_PROBLEMS:,} more "
                     "(--json lists them all)")
    return lines


def report_view(report: Report) -> list[Any]:
    """What ``strategytree verify`` prints of one report, in order: lines (str with
    rich markup, or rich Text) and tables."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    notes = f" ({'; '.join(report.game_notes)})" if report.game_notes else ""
    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_row("secrets", f"{report.secrets:,}")
    table.add_row("solved", f"{report.solved:,}")
    table.add_row("total guesses", f"{report.total:,}")
    table.add_row("average", f"{report.average:.4f}")
    table.add_row("max guesses", str(report.max_guesses))
    if report.gap is not None:
        table.add_row("gap", escape(str(report.gap)))
    parts: list[Any] = [f"[bold]{escape(report.source)}[/]: {escape(report.game + notes)}", table]
    if report.histogram:
        parts.append(histogram_table(report.histogram, "secrets"))
    parts += problem_lines("[cyan]repaired:[/]", report.repairs)
    if report.unsolved:
        parts.append(f"[red]{_count(report.unsolved, 'secret')} not solved[/]"
                     + (", e.g.:" if report.unsolved_examples else ""))
        parts += [Text(f"  {case.secret}: {case.path}: {case.reason}")
                  for case in report.unsolved_examples]
    parts += problem_lines("[red]error:[/]", report.errors)
    if not report.strict:
        parts += problem_lines("[yellow]warning:[/]", report.unreachable_branches)
    parts.append("[green]valid[/]" if report.valid else "[bold red]invalid[/]")
    return parts


def ranking_view(ranked: list[Ranked]) -> list[Any]:
    """What ``strategytree verify`` prints of several files: one table per game
    (rank, file, total, average, max, and the gap to the optimum), then one line
    per file not ranked, saying why."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    games: dict[str | None, list[Ranked]] = {}
    for item in ranked:
        games.setdefault(item.game, []).append(item)
    parts: list[Any] = []
    for game, items in games.items():
        title = (f"{game}: ranked by total guesses, then max guesses" if game is not None
                 else "not read")
        table = Table(title=escape(title))
        for column in ("rank", "file", "game", "total", "average", "max", "status"):
            right = column in ("rank", "total", "average", "max")
            table.add_column(
                column, justify="right" if right else "left", no_wrap=right, overflow="fold"
            )
        for item in items:
            r = item.report
            if r is None:
                table.add_row("-", escape(item.source), "", "", "", "", "unreadable")
                continue
            status = "valid" if r.valid else "invalid"
            if r.valid and r.gap is not None:
                above = r.gap.exact and r.gap.excess
                status += f", {r.gap.short}" + (" above the optimum" if above else "")
            table.add_row(
                "-" if item.rank is None else str(item.rank), escape(item.source), escape(r.game),
                f"{r.total:,}", f"{r.average:.4f}", str(r.max_guesses), escape(status),
            )
        parts.append(table)
        for item in items:
            if item.reason is not None:
                why = "unreadable" if item.report is None else "invalid"
                parts.append(Text(f"{item.source}: {why}: {item.reason}"))
            if item.report is not None and item.report.repairs:  # (--lenient: each file's)
                parts += problem_lines(f"[cyan]{escape(item.source)}: repaired:[/]",
                                       item.report.repairs)
    return parts
