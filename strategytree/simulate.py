"""Playing many games: a rule or a strategy against all secrets, a fraction of
them, or secrets drawn at random; the average, the worst case, the histogram,
and the spread over several seeds for randomised rules.

A rule is played game by game with :class:`~strategytree.builders.GreedyChooser`,
and each set of secrets still possible is split once: the choices and the
splits are kept in a tree grown as the games need it, so playing every secret
costs about one build of the tree (and, with a deterministic rule, plays
exactly the tree :func:`~strategytree.builders.build_greedy` builds).  A
randomised rule (``random``, ``sample:N`` pools) with one seed is one such
tree, drawn as the games go; ``runs`` repeats with other seeds.

>>> from strategytree.game import mastermind
>>> from strategytree.builders import GreedyChooser
>>> game = mastermind(4, 6)
>>> result = simulate(game, GreedyChooser(game, "minimax"))
>>> result.total, result.max_guesses, result.histogram
(5801, 5, {1: 1, 2: 6, 3: 62, 4: 533, 5: 694})
"""

from __future__ import annotations

import csv
import io
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import feedback
from .builders import GreedyChooser, draws_at_random
from .errors import ArgumentError, StrategyError, StrategyTreeError, check_whole, refuse_inert
from .game import MEMORY_PER_SECRET, CodeIndex, Game, ReplyCode
from .memory import too_much
from .outcome import INVALID, OK, CommandOutcome
from .play import Alphabet, Outcome, alphabet_for, moves_text
from .progress import QUIET, Progress, ProgressCallback, Watch
from .replay import FlatTree, replay
from .symmetry import Symmetry
from .tree import Node, Strategy
from .words import plural

__all__ = [
    "adversary_view",
    "against_adversary",
    "play_games",
    "simulation_view",
    "Played",
    "Simulation",
    "Spread",
    "Summary",
    "adversary_json",
    "check_simulate",
    "choose_secrets",
    "games_csv",
    "plot_histogram",
    "simulate",
    "simulation_json",
    "simulate_outcome",
    "simulate_runs",
    "spread",
    "summary",
]

#: what a game can be played with: a strategy, or a rule choosing as it goes
Player = Strategy | GreedyChooser


@dataclass
class Played:
    """One game."""

    secret: CodeIndex
    """the secret, an index into ``game.secrets``"""
    moves: list[tuple[CodeIndex, ReplyCode]]
    """the guesses (indices into ``game.guesses``) and their replies"""
    solved: bool = True
    reason: str | None = None
    """why the strategy stopped, when it did not solve the secret"""

    @property
    def guesses(self) -> int:
        return len(self.moves)


@dataclass
class Simulation:
    """The games one player played."""

    game: Game
    player: str
    """what played: ``minimax`` (a rule, with its pool) or the strategy's source"""
    games: list[Played]
    seed: int | None = None
    """the seed of the run (secrets drawn, randomised rule), when one was used"""
    secrets: str = "all"
    """which secrets: ``all``, ``fraction 0.1`` or ``10,000 random``"""

    @property
    def solved(self) -> int:
        return sum(g.solved for g in self.games)

    @property
    def unsolved(self) -> int:
        return len(self.games) - self.solved

    @property
    def total(self) -> int:
        """Guesses summed over the solved games (verify's total for all secrets)."""
        return sum(g.guesses for g in self.games if g.solved)

    @property
    def average(self) -> float:
        """Guesses per solved game."""
        return self.total / self.solved if self.solved else 0.0

    @property
    def max_guesses(self) -> int:
        return max((g.guesses for g in self.games if g.solved), default=0)

    @property
    def histogram(self) -> dict[int, int]:
        """Guesses -> solved games that took that many."""
        counts: dict[int, int] = {}
        for g in self.games:
            if g.solved:
                counts[g.guesses] = counts.get(g.guesses, 0) + 1
        return dict(sorted(counts.items()))


# -- the tree grown as games need it ----------------------------------------------------
class _Node:
    __slots__ = ("child_sym", "children", "guess", "replies", "reply_of", "secrets", "sym")

    def __init__(self, secrets: np.ndarray, sym: Symmetry) -> None:
        self.secrets = secrets  # indices into game.secrets, increasing
        self.sym = sym
        self.guess = -1
        self.replies: np.ndarray | None = None  # the guess's reply to each of self.secrets
        self.reply_of: dict[int, int] = {}  # the same, by secret
        self.children: dict[int, _Node] = {}
        self.child_sym: Symmetry | None = None


class _Grower:
    """Plays one secret at a time with a rule, growing the tree of choices and splits."""

    def __init__(self, game: Game, player: GreedyChooser) -> None:
        self.game = game
        self.player = player
        self.root = _Node(np.arange(len(game.secrets)), player.root_symmetry())
        self._buffer = np.empty(len(game.secrets), dtype=np.int8)

    def _guess(self, node: _Node, is_root: bool) -> None:
        player = self.player
        if is_root and player.opening is not None:
            node.guess = player.opening
        else:
            node.guess = player.choose(node.secrets, node.sym)

    def _split(self, node: _Node) -> None:
        node.replies = feedback.replies_into(self.game, node.guess, node.secrets,
                                             self._buffer).copy()
        node.reply_of = dict(zip(node.secrets.tolist(), node.replies.tolist()))

    def _child(self, node: _Node, reply: int) -> _Node:
        child = node.children.get(reply)
        if child is not None:
            return child
        subset = node.secrets[node.replies == reply]
        if len(subset) == len(node.secrets):
            guess = self.game.code_text(self.game.guesses[node.guess])
            raise StrategyTreeError(
                f"no progress: guess {guess} does not split {plural(len(subset), 'secret')}"
            )
        if node.child_sym is None:
            node.child_sym = node.sym.after(self.game.guesses[node.guess])
        child = node.children[reply] = _Node(subset, node.child_sym)
        return child

    def play(self, secret: CodeIndex) -> Played:
        game = self.game
        node = self.root
        moves: list[tuple[int, int]] = []
        while True:
            if node.guess < 0:
                self._guess(node, node is self.root)
            if node.replies is None:
                self._split(node)
            reply = node.reply_of[secret]
            moves.append((node.guess, reply))
            if reply == game.win:
                return Played(secret, moves)
            node = self._child(node, reply)


def _strategy_games(game: Game, strategy: Strategy, secrets: np.ndarray) -> Callable[[int], Played]:
    """Game ``k`` of ``secrets`` played by ``strategy``: all of them replayed at once
    (:func:`strategytree.replay.replay`), each read back as a :class:`Played`."""
    played = replay(FlatTree(strategy, game), secrets)

    def one(k: int) -> Played:
        return Played(int(played.secrets[k]), played.moves(k), bool(played.guesses[k]),
                      played.reason(k))

    return one


# -- which secrets ------------------------------------------------------------------
def choose_secrets(
    game: Game, *, fraction: float | None = None, games: int | None = None, seed: int | None = 0
) -> np.ndarray:
    """The secrets to play (indices into ``game.secrets``): all of them, a
    ``fraction`` of them drawn without repeats (in code order), or ``games``
    secrets drawn at random with repeats (in the order drawn).

    >>> from strategytree.game import mastermind
    >>> choose_secrets(mastermind(2, 3), fraction=0.5, seed=1)
    array([2, 3, 6, 8])
    """
    n = len(game.secrets)
    if fraction is not None and games is not None:
        raise StrategyTreeError("give a fraction of the secrets or a number of games, not both")
    rng = np.random.default_rng(seed)
    if fraction is not None:
        if not 0 < fraction <= 1:
            raise StrategyTreeError(f"the fraction must be in (0, 1], got {fraction}")
        size = max(1, round(fraction * n))
        return np.sort(rng.choice(n, size=size, replace=False))
    if games is not None:
        if games < 1:
            raise StrategyTreeError(f"the number of games must be at least 1, got {games}")
        need = games * MEMORY_PER_SECRET["check"]  # (each game a secret replayed)
        if (free := too_much(need)) is not None:
            raise StrategyTreeError(
                f"{games:,} games take about {need / 2**30:,.1f} GiB of memory, more than the "
                f"{free / 2**30:,.1f} GiB available: fewer games (or --runs)")
        return rng.integers(n, size=games)
    return np.arange(n)


def _describe(player: Player) -> str:
    if isinstance(player, GreedyChooser):
        pool = player.pool.kind + (f":{player.pool.size}" if player.pool.kind == "sample" else "")
        return f"{player.rule} rule, pool {pool}"
    return player.source


def simulate(
    game: Game,
    player: Player,
    secrets: np.ndarray | None = None,
    *,
    seed: int | None = None,
    which: str = "all",
    progress: ProgressCallback | None = None,
) -> Simulation:
    """Play ``player`` (a strategy, or a rule as a :class:`GreedyChooser`)
    against each of ``secrets`` (indices into ``game.secrets``; default all).

    ``seed`` and ``which`` only label the result.  ``progress`` is called with
    the games played (a :class:`~strategytree.progress.Progress`), now and then.
    """
    if isinstance(player, Strategy) and not isinstance(player.root, Node):
        raise StrategyError("the strategy has no root")
    secrets = (np.arange(len(game.secrets)) if secrets is None
               else np.asarray(secrets, dtype=np.int64))
    started = time.perf_counter()
    if isinstance(player, Strategy):
        play = _strategy_games(game, player, secrets)
        positions: list[int] = list(range(len(secrets)))
    else:
        play = _Grower(game, player).play
        positions = secrets.tolist()
    games = []
    for k, position in enumerate(positions):
        games.append(play(position))
        if progress is not None and k % 256 == 255:
            progress(Progress(k + 1, len(secrets), "games", time.perf_counter() - started))
    if progress is not None:
        progress(Progress(len(games), len(secrets), "games", time.perf_counter() - started))
    return Simulation(game, _describe(player), games, seed, which)


def simulate_runs(
    game: Game,
    make_player: Callable[[int], Player] | Strategy,
    *,
    runs: int = 1,
    seed: int = 0,
    fraction: float | None = None,
    games: int | None = None,
    progress: ProgressCallback | None = None,
) -> list[Simulation]:
    """``runs`` simulations, run ``k`` with seed ``seed + k``: ``make_player(seed)``
    (or the one strategy given instead) plays the secrets :func:`choose_secrets`
    draws with that seed.  ``progress`` counts the games of all runs."""
    if runs < 1:
        raise StrategyTreeError(f"runs must be at least 1, got {runs}")
    if fraction is not None:
        which = f"fraction {fraction:g}"
    elif games is not None:
        which = f"{games:,} random"
    else:
        which = "all"
    drawn = [choose_secrets(game, fraction=fraction, games=games, seed=seed + k)
             for k in range(runs)]
    planned = sum(len(secrets) for secrets in drawn)
    started = time.perf_counter()
    out = []
    done = 0
    for k, secrets in enumerate(drawn):
        run_seed = seed + k
        step = None
        if progress is not None:
            def step(p: Progress, base: int = done) -> None:
                progress(Progress(base + p.done, planned, "games", time.perf_counter() - started))
        player = make_player if isinstance(make_player, Strategy) else make_player(run_seed)
        out.append(simulate(game, player, secrets, seed=run_seed, which=which, progress=step))
        done += len(secrets)
    return out


@dataclass(frozen=True)
class Spread:
    """How the average varies over runs."""

    runs: int
    mean: float
    """the mean of the runs' averages"""
    stdev: float
    """their sample standard deviation (0 for one run)"""
    low: float
    high: float
    worst: int
    """the most guesses of any game of any run"""


def spread(simulations: list[Simulation]) -> Spread:
    """The spread of the averages of several runs."""
    averages = [s.average for s in simulations]
    return Spread(
        len(averages),
        statistics.fmean(averages),
        statistics.stdev(averages) if len(averages) > 1 else 0.0,
        min(averages),
        max(averages),
        max(s.max_guesses for s in simulations),
    )


@dataclass(frozen=True)
class Summary:
    """Several runs taken together: what ``strategytree simulate`` reports."""

    games: int
    """games played, over all runs"""
    solved: int
    total: int
    """guesses summed over the solved games"""
    max_guesses: int
    histogram: dict[int, int]
    """guesses -> solved games that took that many, over all runs"""
    unsolved: list[tuple[Simulation, Played]]
    """the games not solved, with their run"""
    spread: Spread
    """how the average varies from run to run"""

    @property
    def average(self) -> float | None:
        """Guesses per solved game (None when none was solved)."""
        return self.total / self.solved if self.solved else None


def summary(simulations: list[Simulation]) -> Summary:
    """The runs of :func:`simulate_runs` taken together.

    >>> from strategytree.game import mastermind
    >>> game = mastermind(2, 3)
    >>> runs = simulate_runs(game, lambda seed: GreedyChooser(game, "random", seed=seed), runs=3)
    >>> s = summary(runs)
    >>> s.games, s.solved, sum(s.histogram.values())
    (27, 27, 27)
    """
    histogram: dict[int, int] = {}
    for sim in simulations:
        for guesses, n in sim.histogram.items():
            histogram[guesses] = histogram.get(guesses, 0) + n
    return Summary(
        games=sum(len(sim.games) for sim in simulations),
        solved=sum(sim.solved for sim in simulations),
        total=sum(sim.total for sim in simulations),
        max_guesses=max(sim.max_guesses for sim in simulations),
        histogram=dict(sorted(histogram.items())),
        unsolved=[(sim, g) for sim in simulations for g in sim.games if not g.solved],
        spread=spread(simulations),
    )


# -- JSON ---------------------------------------------------------------------------
def _path(game: Game, moves: list[tuple[CodeIndex, ReplyCode]]) -> str:
    """A game's path in the game's alphabet."""
    return moves_text(game, moves)


def simulation_json(simulations: list[Simulation], seconds: float | None = None) -> dict[str, Any]:
    """The ``simulate --json`` shape: ``game``, ``player``, ``secrets`` (which were
    played), ``runs``, ``games``, ``solved``, ``total``, ``average`` (None when none
    was solved), ``max_guesses``, ``histogram`` (keys as strings, all runs together),
    ``per_run`` (``seed``, ``games``, ``solved``, ``total``, ``average``,
    ``max_guesses`` of each), ``spread`` (:class:`Spread`'s fields), ``unsolved``
    (``run``, ``seed``, ``secret``, ``path``, ``reason`` of each game not solved;
    codes in the game's alphabet) and ``seconds``.
    """
    s = summary(simulations)
    first = simulations[0]
    game = first.game
    runs = {id(sim): k for k, sim in enumerate(simulations, 1)}
    return {
        "game": game.name,
        "player": first.player,
        "secrets": first.secrets,
        "runs": len(simulations),
        "games": s.games,
        "solved": s.solved,
        "total": s.total,
        "average": s.average,
        "max_guesses": s.max_guesses,
        "histogram": {str(k): v for k, v in s.histogram.items()},
        "per_run": [
            {"seed": sim.seed, "games": len(sim.games), "solved": sim.solved, "total": sim.total,
             "average": sim.average, "max_guesses": sim.max_guesses}
            for sim in simulations
        ],
        "spread": asdict(s.spread),
        "unsolved": [
            {"run": runs[id(sim)], "seed": sim.seed,
             "secret": alphabet_for(game).text(game, g.secret, secret=True),
             "path": _path(game, g.moves), "reason": g.reason}
            for sim, g in s.unsolved
        ],
        "seconds": seconds,
    }


def adversary_json(
    game: Game, outcome: Outcome, player: str, seconds: float | None = None
) -> dict[str, Any]:
    """The ``simulate --adversary --json`` shape: ``game``, ``player``, ``adversary``
    (True), ``guesses``, ``moves`` (``guess`` in the game's alphabet, ``reply``),
    ``path``, ``note`` (what the strategy said, or None) and ``seconds``."""
    return {
        "game": game.name,
        "player": player,
        "adversary": True,
        "guesses": outcome.guesses,
        "moves": [
            {"guess": alphabet_for(game).text(game, g),
             "reply": str(game.reply(r))}
            for g, r in outcome.moves
        ],
        "path": _path(game, outcome.moves),
        "note": outcome.note,
        "seconds": seconds,
    }


# -- files --------------------------------------------------------------------------
def games_csv(simulations: list[Simulation], alphabet: Alphabet | None = None) -> str:
    """One row per game: run, seed, secret, guesses, solved, path (``AABB 11, ABCD 40``),
    codes in ``alphabet`` (by default the game's own: digits for Bulls and Cows)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["run", "seed", "secret", "guesses", "solved", "path"])
    for run, sim in enumerate(simulations, 1):
        game = sim.game
        spelled = alphabet or alphabet_for(game)
        for g in sim.games:
            writer.writerow([
                run,
                "" if sim.seed is None else sim.seed,
                spelled.text(game, g.secret, secret=True),
                g.guesses,
                "yes" if g.solved else "no",
                moves_text(game, g.moves, spelled),
            ])
    return buffer.getvalue()


def plot_histogram(simulations: list[Simulation], path: str | Path,
                   title: str | None = None) -> Path:
    """Draw the histogram of guesses per game (all runs together) into an image
    file (PNG, SVG or PDF by the suffix: :func:`strategytree.stats.plot_format`).

    Needs matplotlib (``pip install "strategytree[plot]"``).
    """
    from .stats import plot_format, pyplot

    kind = plot_format(path)
    plt = pyplot()
    counts = summary(simulations).histogram
    played = sum(counts.values())
    first = simulations[0]
    figure, axes = plt.subplots(figsize=(6.4, 4.0))
    xs = sorted(counts)
    axes.bar(xs, [counts[x] for x in xs], color="#4c72b0")
    axes.set_xticks(xs)
    axes.set_xlabel("guesses")
    axes.set_ylabel("games")
    s = spread(simulations)
    extra = f" ± {s.stdev:.4f} over {s.runs} runs" if s.runs > 1 else ""
    axes.set_title(
        title
        or f"{first.game.name}, {first.player}: {plural(played, 'game')}, "
        f"average {s.mean:.4f}{extra}",
        fontsize=9,
    )
    from .files import write_bytes_atomic

    path = Path(path)
    buffer = io.BytesIO()
    try:
        figure.tight_layout()
        figure.savefig(buffer, format=kind, dpi=100)
    except (OSError, ValueError) as err:
        raise StrategyTreeError(f"cannot write {path}: {err}") from None
    finally:
        plt.close(figure)
    return write_bytes_atomic(path, buffer.getvalue())


def check_simulate(
    *,
    strategy: object = None,
    adversary: bool = False,
    rule: str | None = None,
    pool: str | None = None,
    seed: int | None = None,
    first: str | None = None,
    fraction: float | None = None,
    games: int | None = None,
    runs: int | None = None,
    csv: object = None,
    plot: object = None,
) -> None:
    """Raise :class:`~strategytree.errors.ArgumentError` unless each argument
    given (not None nor False; ``runs`` above 1) has an effect in the simulation
    asked for.

    Against the ``adversary`` one game is played: the secrets (``fraction``,
    ``games``), ``runs`` and the outputs (``csv``, ``plot``) have no effect.
    A ``strategy`` chooses every guess (``rule``, ``pool``, ``first`` have no
    effect; against the adversary the rule takes over where the strategy has
    no branch, but the strategy still opens).  ``seed`` and ``runs`` need
    something drawn at random: the random rule, a sample:N pool, or the
    secrets (``fraction``, ``games``).

    >>> check_simulate(strategy="s.txt", rule="minimax")
    Traceback (most recent call last):
    ...
    strategytree.errors.ArgumentError: rule='minimax' has no effect with strategy='s.txt'
    """
    check_counts(seed=seed, games=games, runs=runs, fraction=fraction)
    runs = runs if runs is not None and runs > 1 else None
    given = {
        "strategy": strategy, "rule": rule, "pool": pool, "first": first, "seed": seed,
        "fraction": fraction, "games": games, "runs": runs, "csv": csv, "plot": plot,
    }
    if adversary:
        plays = ("strategy", "rule", "pool", "first", "seed")
        refuse_inert(given, plays, "against {adversary} (one game)", adversary=True)
    elif strategy is not None:
        refuse_inert(
            {"rule": rule, "pool": pool}, (), "with {strategy}", strategy=strategy
        )
    if strategy is not None and first is not None:
        raise ArgumentError(
            "{first} has no effect with {strategy}: the strategy opens the game",
            first=first, strategy=strategy,
        )
    drawn = fraction is not None or games is not None
    if not drawn and not draws_at_random(rule or "entropy", pool or "all"):
        why = ("nothing is drawn at random (the random rule, a sample:N pool"
               + (")" if adversary else ", {games}, {fraction})"))  # (no draw of secrets there)
        if seed is not None:
            raise ArgumentError("{seed} has no effect: " + why, seed=seed, games="N", fraction="F")
        if runs is not None:
            raise ArgumentError(
                "{runs} would play the same games again: " + why, runs=runs, games="N",
                fraction="F",
            )


# -- what ``strategytree simulate`` does ---------------------------------------------------
def play_games(
    game: Game,
    strategy: Strategy | None = None,
    *,
    rule: str = "entropy",
    pool: str = "all",
    seed: int = 0,
    first: str | None = None,
    fraction: float | None = None,
    games: int | None = None,
    runs: int = 1,
    csv: str | Path | None = None,
    plot: str | Path | None = None,
    alphabet: str = "auto",
    force: bool = False,
    progress: ProgressCallback | None = None,
) -> list[Simulation]:
    """:func:`simulate_runs` with ``strategy``, else the one-step ``rule`` (with
    its ``pool`` and ``first`` guess; run ``k`` seeded ``seed + k``); the games
    written one row each to ``csv`` (:func:`games_csv`, codes in ``alphabet``,
    atomically) and their histogram drawn to ``plot`` when given."""
    from .files import write_text_atomic

    player = strategy if strategy is not None else (
        lambda run_seed: GreedyChooser(game, rule, pool, seed=run_seed, first=first)
    )
    results = simulate_runs(
        game, player, runs=runs, seed=seed, fraction=fraction, games=games, progress=progress
    )
    if csv is not None:
        write_text_atomic(csv, games_csv(results, alphabet_for(game, alphabet)), force=force)
    if plot is not None:
        plot_histogram(results, plot)
    return results


def against_adversary(
    game: Game,
    strategy: Strategy | None = None,
    name: str = "the strategy",
    *,
    rule: str = "entropy",
    pool: str = "all",
    seed: int = 0,
    first: str | None = None,
) -> tuple[Outcome, str]:
    """One game of ``strategy`` (``name`` names it), else of the ``rule``, against
    the adversary (:func:`~strategytree.play.adversary_game`): the outcome, and
    what played it (``name``, or ``the entropy rule``)."""
    from .play import adversary_game, breaker_for

    guesser = breaker_for(game, strategy, rule, pool, seed=seed, first=first)
    what = name if strategy is not None else f"the {guesser.chooser.rule} rule"
    return adversary_game(game, guesser), what


def adversary_view(
    game: Game, outcome: Outcome, what: str, seconds: float, alphabet: str = "auto"
) -> list[Any]:
    """What ``strategytree simulate --adversary`` prints: lines (str with rich
    markup, or rich Text)."""
    from rich.markup import escape
    from rich.text import Text

    parts: list[Any] = [
        f"{escape(game.name)}: {escape(what)} against the adversary",
        Text(moves_text(game, outcome.moves, alphabet_for(game, alphabet))),
    ]
    if outcome.note:
        parts.append(Text(outcome.note))
    return [*parts, f"{plural(outcome.guesses, 'guess')} ({seconds:.2f} s)"]


def simulation_view(simulations: list[Simulation], alphabet: str = "auto") -> list[Any]:
    """What ``strategytree simulate`` prints of its runs (:func:`summary`): lines
    (str with rich markup, or rich Text) and tables."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from .verify import histogram_table

    s = summary(simulations)
    first_run, game = simulations[0], simulations[0].game
    shown = alphabet_for(game, alphabet)
    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_row("games", f"{s.games:,}")
    table.add_row("solved", f"{s.solved:,}")
    table.add_row("total guesses", f"{s.total:,}")
    table.add_row("average", "-" if s.average is None else f"{s.average:.4f}")
    table.add_row("max guesses", str(s.max_guesses))
    parts: list[Any] = [
        f"[bold]{escape(game.name)}[/]: {escape(first_run.player)}; secrets: "
        f"{escape(first_run.secrets)}"
        + (f", {len(simulations)} runs" if len(simulations) > 1 else ""),
        table,
    ]
    if s.histogram:
        parts.append(histogram_table(s.histogram, "games"))
    if len(simulations) > 1:
        per_run = Table(box=None, padding=(0, 1), show_edge=False)
        for name in ("run", "seed", "average", "max"):
            per_run.add_column(name, justify="right")
        for k, r in enumerate(simulations, 1):
            per_run.add_row(str(k), str(r.seed), f"{r.average:.4f}", str(r.max_guesses))
        spread = s.spread
        parts += [per_run, f"average over {spread.runs} runs: {spread.mean:.4f} ± "
                  f"{spread.stdev:.4f} (sd), from {spread.low:.4f} to {spread.high:.4f}; "
                  f"worst game {plural(spread.worst, 'guess')}"]
    if s.unsolved:
        parts.append(f"[red]{plural(len(s.unsolved), 'game')} not solved[/], e.g.:")
        parts += [Text(f"  {shown.text(game, g.secret, secret=True)}: "
                       f"{moves_text(game, g.moves, shown)}: {g.reason}")
                  for _, g in s.unsolved[:5]]
    return parts


def check_counts(*, seed: object = None, games: object = None, runs: object = None,
                 fraction: object = None) -> None:
    """:class:`~strategytree.errors.ArgumentError` unless each given is of its kind: a
    ``seed`` a whole number from 0, ``games`` and ``runs`` from 1, a ``fraction``
    above 0 and at most 1."""
    for name, value, least in (("seed", seed, 0), ("games", games, 1), ("runs", runs, 1)):
        if value is not None:
            check_whole(value, least, **{name: value})
    if fraction is not None and (isinstance(fraction, bool) or not isinstance(fraction, int | float)
                                 or not 0 < fraction <= 1):
        raise ArgumentError("{fraction} must be a number above 0, at most 1", fraction=fraction)


def simulate_outcome(
    path: str | Path | None = None,
    *,
    read: dict[str, Any] | None = None,
    adversary: bool = False,
    as_json: bool = False,
    alphabet: str = "auto",
    watch: Watch = QUIET,
    **play: Any,
) -> CommandOutcome:
    """What ``strategytree simulate`` does: its outputs checked (``csv``, ``plot``;
    an existing file only with ``force``), the strategy at ``path`` read with its
    game, or the game alone
    (:func:`~strategytree.formats.reading.strategy_or_game`, ``read`` its
    keywords), then :func:`play_games` (``play`` its keywords; a rule's kernels
    compiled first, told on ``watch`` with the progress), or with ``adversary``
    one game :func:`against_adversary` (of ``play``, the rule's arguments alone
    are used); their view or JSON, timed, and the files written.  Exit 1 when
    some game is not solved."""
    from rich.markup import escape

    from .files import check_outputs
    from .formats.reading import strategy_or_game
    from .stats import plot_format

    check_counts(**{name: play.get(name) for name in ("seed", "games", "runs", "fraction")})
    check_outputs([play.get("csv"), play.get("plot")], force=play.get("force", False),
                  inputs={"the input": path})
    if play.get("plot") is not None:
        plot_format(play["plot"])  # before the games are played
    started = time.perf_counter()
    game, strategy = strategy_or_game(path, **(read or {}))
    alphabet_for(game, alphabet)  # refused before any game is played
    rule = {key: play[key] for key in ("rule", "pool", "seed", "first") if key in play}
    if adversary:
        outcome, what = against_adversary(game, strategy, str(path), **rule)
        seconds = time.perf_counter() - started
        return CommandOutcome.either(as_json, adversary_json(game, outcome, what, seconds),
                                     adversary_view(game, outcome, what, seconds, alphabet))
    if strategy is None:
        rule.pop("first", None)
        watch.warm(game, lambda small: play_games(small, **rule))
        started = time.perf_counter()
    with watch.running("playing", game, cluster=False) as (_, progress):
        results = play_games(game, strategy, alphabet=alphabet, progress=progress, **play)
    elapsed = time.perf_counter() - started
    written = [f"{what} {escape(str(file))}" for what, file in (
        ("games written to", play.get("csv")), ("histogram drawn to", play.get("plot")))
        if file is not None]
    status = INVALID if any(r.unsolved for r in results) else OK
    if as_json:
        return CommandOutcome(data=simulation_json(results, elapsed), notes=written, status=status)
    shown = [*simulation_view(results, alphabet), f"played in {elapsed:.2f} s", *written]
    return CommandOutcome(shown, status=status)
