"""How many guesses a strategy needs: per secret, and by the reply to the first guess.

>>> from strategytree.formats.brace import loads
>>> from strategytree.game import mastermind
>>> from strategytree.guide import GuideTree
>>> tree = GuideTree.build(
...     loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"), mastermind(2, 3))
>>> s = guess_stats(tree)
>>> s.histogram, s.total, s.max_guesses
({1: 1, 2: 4, 3: 4}, 21, 3)
>>> [(b.reply, b.secrets, b.total, b.max_guesses) for b in s.branches]
[('20', 1, 1, 1), ('10', 4, 11, 3), ('02', 1, 2, 2), ('01', 2, 5, 3), ('00', 1, 2, 2)]
"""

from __future__ import annotations

import io
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import StrategyTreeError
from .game import Game
from .guide import GuideTree
from .literature import Gap, gap
from .outcome import INVALID, OK, CommandOutcome
from .tree import Strategy
from .verify import static_problems
from .words import plural

if TYPE_CHECKING:  # rich is imported only when a report is asked for
    from rich.console import RenderableType

__all__ = ["Branch", "GuessStats", "file_stats", "guess_stats", "plot_stats", "stats_outcome",
           "stats_report"]


@dataclass(frozen=True)
class Branch:
    """The secrets behind one reply to the first guess."""

    reply: str
    """the reply, ``"bw"`` (the win, for the secret the first guess finds)"""
    secrets: int
    """how many secrets give that reply (and are solved)"""
    total: int
    """their guesses, summed"""
    max_guesses: int
    """the most guesses any of them needs"""
    unsolved: int = 0
    """secrets behind the reply that the strategy does not solve"""

    @property
    def average(self) -> float:
        """Guesses per solved secret."""
        return self.total / self.secrets if self.secrets else 0.0


@dataclass(frozen=True)
class GuessStats:
    """Guesses per secret, over a game's secrets."""

    game: str
    """the game's name"""
    first_guess: str
    """the strategy's opening guess, in the game's alphabet"""
    secrets: int
    """secrets of the game"""
    histogram: dict[int, int]
    """guesses -> secrets solved with that many"""
    branches: list[Branch] = field(default_factory=list)
    """one per reply to the first guess, in the strategy's order (the win first)"""
    gap: Gap | None = None
    """how far the total is, or can be, from the optimum (when every secret is solved)"""
    errors: int = 0
    """what ``verify`` reports wrong with the tree besides unsolved secrets (replies the
    game never gives or written twice, guesses it does not allow)"""

    @property
    def valid(self) -> bool:
        """Every secret solved, and nothing else wrong (as ``verify`` says)."""
        return self.unsolved == 0 and self.errors == 0

    @property
    def solved(self) -> int:
        return sum(self.histogram.values())

    @property
    def unsolved(self) -> int:
        return self.secrets - self.solved

    @property
    def total(self) -> int:
        return sum(k * v for k, v in self.histogram.items())

    @property
    def max_guesses(self) -> int:
        return max(self.histogram, default=0)

    @property
    def average(self) -> float:
        return self.total / self.solved if self.solved else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The ``stats --json`` shape: ``game``, ``first_guess`` (in the game's
        alphabet), ``secrets``, ``solved``, ``unsolved``, ``total``, ``average``,
        ``max_guesses``, ``histogram`` (keys as strings), ``branches`` (one per reply
        to the first guess: ``reply``, ``secrets``, ``total``, ``average``,
        ``max_guesses``, ``unsolved``), ``gap`` (None when some secret is unsolved) and
        ``errors``."""
        return {
            "game": self.game,
            "first_guess": self.first_guess,
            "secrets": self.secrets,
            "solved": self.solved,
            "unsolved": self.unsolved,
            "total": self.total,
            "average": self.average,
            "max_guesses": self.max_guesses,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "branches": [asdict(b) | {"average": b.average} for b in self.branches],
            "gap": self.gap.to_dict() if self.gap is not None else None,
            "errors": self.errors,
        }


def guess_stats(tree: GuideTree | Strategy, game: Game | None = None) -> GuessStats:
    """Histogram of guesses per secret, and average and max by first reply.

    Give a replayed :class:`GuideTree`, or a strategy and the game to replay it in.
    """
    if not isinstance(tree, GuideTree):
        if game is None:
            raise StrategyTreeError("the statistics of a strategy need the game it plays")
        tree = GuideTree.build(tree, game)
    won = tree.won >= 0
    depth = np.asarray(tree.depth, dtype=np.int64)
    counts = np.bincount(depth[won] + 1) if won.any() else np.zeros(1, dtype=np.int64)
    histogram = {int(k): int(v) for k, v in enumerate(counts) if v}
    branches: list[Branch] = []
    win = str(tree.game.reply(tree.game.win))
    if won[0]:
        branches.append(Branch(win, 1, 1, 1))
    for c in tree.children(0):
        part = slice(c, tree.end[c])
        g = depth[part][won[part]] + 1
        reached = int(tree.visits[c])
        branches.append(Branch(
            str(tree.reply[c]), len(g), int(g.sum()), int(g.max()) if len(g) else 0,
            reached - len(g),
        ))
    game = tree.game
    solved_all = sum(histogram.values()) == len(game.secrets) > 0
    total = sum(k * v for k, v in histogram.items())
    return GuessStats(
        game.name, tree.shown[0], len(game.secrets), histogram, branches,
        gap=gap(game, total, max(histogram)) if solved_all else None,
        errors=len(static_problems(tree.strategy, tree)[0]),
    )


def stats_report(
    stats: GuessStats, name: str, plot: str | os.PathLike[str] | None = None
) -> list[RenderableType]:
    """What ``strategytree stats`` prints, in order: lines (rich markup) and tables.

    ``name`` names the strategy (its file); ``plot`` the image drawn, if any.
    """
    from rich.markup import escape
    from rich.table import Table

    parts: list[RenderableType] = [
        f"[bold]{escape(name)}[/]: {stats.game}, first guess {stats.first_guess}",
        f"{stats.solved:,} of {plural(stats.secrets, 'secret')} solved, "
        f"{plural(stats.total, 'guess')}, "
        f"average {stats.average:.4f}, max {stats.max_guesses}",
        *([escape(str(stats.gap))] if stats.gap is not None else []),
        "guesses per secret:",
    ]
    histogram = Table(box=None, padding=(0, 1), show_edge=False)
    histogram.add_column("guesses")
    histogram.add_column("secrets", justify="right")
    histogram.add_column("")
    widest = max(stats.histogram.values(), default=1)
    for guesses, count in stats.histogram.items():
        bar = "#" * max(1, round(40 * count / widest))
        histogram.add_row(str(guesses), f"{count:,}", bar)
    parts += [histogram, f"by reply to the first guess, {stats.first_guess}:"]
    branches = Table(box=None, padding=(0, 1), show_edge=False)
    for column in (("reply", "secrets", "average", "max")
                   + (("unsolved",) if stats.unsolved else ())):
        branches.add_column(column, justify="left" if column == "reply" else "right")
    for b in stats.branches:
        cells = [b.reply, f"{b.secrets:,}", f"{b.average:.4f}", str(b.max_guesses)]
        branches.add_row(*cells, *([f"{b.unsolved:,}"] if stats.unsolved else []))
    parts.append(branches)
    if plot is not None:
        parts.append(f"plot written to {escape(str(plot))}")
    wrong = [f"{plural(n, what)}{verb}" for n, what, verb in (
        (stats.unsolved, "secret", " not solved"), (stats.errors, "error", "")) if n]
    if wrong:
        parts.append(f"[red]{' and '.join(wrong)}[/] (strategytree verify says where)")
    return parts


def pyplot():  # -> matplotlib.pyplot
    """matplotlib's pyplot, drawing into files (raises our error when missing)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise StrategyTreeError(
            'plotting needs matplotlib, which is not installed: pip install "strategytree[plot]"'
        ) from None
    return plt


#: the image formats plots are written in, by the output's suffix
PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def plot_format(path: str | os.PathLike[str]) -> str:
    """The image format of a plot written to ``path``: PNG, SVG or PDF by its
    suffix (none: PNG); any other suffix is refused.

    >>> plot_format("h.svg"), plot_format("h")
    ('svg', 'png')
    >>> plot_format("h.jpg")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    strategytree.errors.StrategyTreeError: h.jpg: plots are written as .png, .svg or .pdf
    (by the suffix), not .jpg
    """
    suffix = Path(path).suffix.lower()
    if not suffix:
        return "png"
    if suffix not in PLOT_FORMATS:
        raise StrategyTreeError(
            f"{path}: plots are written as .png, .svg or .pdf (by the suffix), not {suffix}"
        )
    return PLOT_FORMATS[suffix]


def plot_stats(stats: GuessStats, path: str | os.PathLike[str], title: str = "") -> Path:
    """Draw the histogram and the averages by first reply into an image
    (PNG, SVG or PDF by the suffix: :func:`plot_format`), atomically.

    Needs matplotlib (``pip install "strategytree[plot]"``).
    """
    kind = plot_format(path)
    plt = pyplot()
    from .files import write_bytes_atomic

    path = Path(path)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [1, 1.6]}
    )
    guesses = list(stats.histogram)
    left.bar(guesses, list(stats.histogram.values()), color="#4c78a8")
    left.set_xlabel("guesses")
    left.set_ylabel("secrets")
    left.set_xticks(guesses)
    left.set_title(f"{stats.game}: average {stats.average:.4f}, max {stats.max_guesses}")
    names = [b.reply for b in stats.branches]
    right.bar(names, [b.average for b in stats.branches], color="#72b7b2", label="average")
    right.scatter(names, [b.max_guesses for b in stats.branches], color="#e45756",
                  marker="_", s=200, label="max", zorder=3)
    right.set_xlabel(f"reply to the first guess, {stats.first_guess}")
    right.set_ylabel("guesses")
    right.tick_params(axis="x", labelrotation=90)
    right.set_ylim(0, stats.max_guesses + 1.5)
    right.legend(loc="upper right", ncol=2)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=kind, dpi=100)
    plt.close(fig)
    return write_bytes_atomic(path, buffer.getvalue())


def file_stats(
    strategy: Strategy,
    game: Game,
    plot: str | os.PathLike[str] | None = None,
    title: str = "",
) -> GuessStats:
    """What ``strategytree stats`` does: :func:`guess_stats` of ``strategy`` in
    ``game``, also drawn into ``plot`` (:func:`plot_stats`) when given."""
    stats = guess_stats(strategy, game)
    if plot is not None:
        plot_stats(stats, plot, title=title)
    return stats


def stats_outcome(
    path: str | os.PathLike[str],
    plot: str | os.PathLike[str] | None = None,
    *,
    read: dict[str, Any] | None = None,
    force: bool = False,
    as_json: bool = False,
) -> CommandOutcome:
    """What ``strategytree stats`` does: the strategy at ``path`` read
    (:func:`~strategytree.formats.reading.read_strategy`, ``read`` its keywords),
    :func:`file_stats` (drawn into ``plot`` when given: an existing file only with
    ``force``); :func:`stats_report`, or its JSON; exit 1 when the strategy is
    invalid (:attr:`GuessStats.valid`)."""
    from rich.markup import escape

    from .files import check_outputs
    from .formats.reading import read_strategy

    check_outputs([plot], force=force, inputs={"the input": path})
    loaded = read_strategy(path, **(read or {}))
    stats = file_stats(loaded.strategy, loaded.game, plot, title=Path(path).name)
    drawn = [f"plot written to {escape(str(plot))}"] if plot is not None else []
    return CommandOutcome.either(as_json, stats.to_dict(), stats_report(stats, str(path), plot),
                                 notes=drawn if as_json else [],
                                 status=OK if stats.valid else INVALID)
