"""Making any valid strategy better by searching its subtrees again: the node
search (:mod:`strategytree.nodesearch`) applied to the nodes of a tree.

:func:`improve` takes a strategy and returns one that is never worse (a lower
total; or the same total and a worst case no higher), by two kinds of work:

- **exact.**  Every subtree whose set of secrets has at most ``exact_below``
  secrets is solved again by the exact search (:mod:`strategytree.search`:
  every allowed guess, the history's symmetry group, the search's bounds),
  with the subtree's own total as the limit, so only a better subtree comes back;
  with ``max_guesses``, it keeps within that many guesses.
- **lookahead.**  At a larger node (the deepest first), the ``widths[level]``
  best guesses of each of several one-step rules are tried (entropy, expected,
  minimax, parts: :meth:`~strategytree.builders.GreedyChooser.shortlist`);
  each candidate's parts are completed by the exact search when small, else
  by the cheapest greedy subtree of the rules whose small subtrees are then
  solved exactly.  A candidate is dropped as soon as the lower bounds of its
  parts (:func:`~strategytree.counting.lower_bounds`) show it cannot beat the
  subtree in place.  With ``finalists``, the candidates are first ranked by
  their parts' greedy subtrees (cheap), and only the best few are completed so:
  wide shortlists, where the best guess of a large set often ranks far down
  every rule's list (100th to 200th for the sets of 1,000 secrets of MM(5,8))
  but near the top of that ranking.  With ``deepen``, the large parts of the
  candidates so completed are searched again themselves (a lookahead of their
  own, whose large parts stay greedy): a candidate is judged by what its
  large parts can become, as the guess in place already was.

Passes repeat until one finds nothing or the budget is spent.  The run is
anytime: ``on_better`` receives the best strategy so far after improvements
(at most once a second, and at the end, also when stopped), and a checkpoint
keeps the best tree and the subtrees already tried, so a run resumes where it
stopped.  Ctrl-C raises KeyboardInterrupt once the best so far was handed over.

>>> from strategytree.builders import build_greedy
>>> from strategytree.game import mastermind
>>> from strategytree.verify import verify
>>> game = mastermind(3, 4)
>>> greedy = build_greedy(game, rule="minimax")
>>> better = improve(greedy, game, exact_below=20)
>>> verify(greedy, game).total, verify(better, game).total
(216, 206)
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import ArgumentError, StrategyTreeError
from .game import Game
from .nodesearch import (
    Index,
    NodeSearch,
    Saved,
    SearchSettings,
    Tally,
    copy_tree,
    set_key,
)
from .outcome import CommandOutcome
from .progress import QUIET, ProgressCallback, Reporter, Watch
from .runner import Interrupted, Stop, Stopped, run_in_thread, stops_held
from .symmetry import Symmetry
from .tree import Node, Strategy
from .verify import Report, verify

if TYPE_CHECKING:
    from .formats.source import Input

__all__ = ["DEFAULT_WIDTHS", "RULES", "ImproveError", "Improver", "improve", "improve_outcome",
           "improve_settings", "parse_budget"]

#: the rules whose best guesses are tried at a large node
RULES = ("entropy", "expected", "minimax", "parts")
#: candidates per rule at each level (a level beyond the list: its last width)
DEFAULT_WIDTHS = (4, 3, 2)
#: the default largest set solved exactly
DEFAULT_EXACT_BELOW = 200
#: at least this many seconds between two calls of ``on_better``
BETTER_EVERY = 1.0


class ImproveError(StrategyTreeError):
    """A strategy that cannot be improved: it is not valid for the game."""

    def __init__(self, report: Report) -> None:
        super().__init__(f"{report.source}: not a valid strategy for {report.game}")
        self.report = report


def parse_budget(text: str | float | None) -> float | None:
    """A time budget as seconds: ``90``, ``90s``, ``30m``, ``2h``, ``1.5h`` or
    several of them together, largest first (``1h30m``, ``2m30s``; None: no limit).

    >>> parse_budget("30m"), parse_budget("1.5h"), parse_budget("45"), parse_budget("1h30m")
    (1800.0, 5400.0, 45.0, 5400.0)
    """
    if text is None or isinstance(text, (int, float)):
        return None if text is None else float(text)
    words = "".join(text.split()).lower()
    units = _BUDGET.fullmatch(words)
    if units is not None and any(units.groups()):
        seconds = sum(float(part) * scale
                      for part, scale in zip(units.groups(), (3600, 60, 1)) if part)
    else:
        try:
            seconds = float(words)  # plain seconds
        except ValueError:
            seconds = math.nan
    if not seconds > 0 or math.isinf(seconds):
        raise ArgumentError(
            "{budget}: expected a time above 0, such as 90s, 30m, 2h or 1h30m", budget=text
        )
    return seconds


#: a budget in hours, minutes and seconds (each optional, in that order)
_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)"
_BUDGET = re.compile(rf"(?:({_NUMBER})h)?(?:({_NUMBER})m)?(?:({_NUMBER})s)?")


class Improver(NodeSearch):
    """One run of :func:`improve`: the node search applied to every node of the
    tree being improved, pass after pass."""

    def __init__(self, strategy: Strategy, game: Game, settings: SearchSettings, *,
                 stop: Stop, tally: Tally, client: object | None = None) -> None:
        super().__init__(game, settings, tally=tally, stop=stop)
        self.sym = Symmetry.of(game)
        everything = np.arange(len(game.secrets))
        self.index = self.index_of(copy_tree(strategy.root), everything, 0, self.sym, 0)
        self.tally.best = self.index.total[0]
        self.changed = threading.Event()
        self.cluster = None
        if client is not None:
            from .nodesearch.cluster import PassOnCluster

            self.cluster = PassOnCluster(client, self)

    @property
    def total(self) -> int:
        """The whole tree's total now."""
        return self.index.total[0]

    @property
    def depth(self) -> int:
        """The whole tree's worst case now."""
        return self.index.depth[0]

    # -- one pass
    def run(self) -> None:
        """Passes over the tree until one saves nothing (or the run is stopped)."""
        while True:
            before = self.total
            self.greedy_pass()
            self.exact_pass()
            self.lookahead_pass()
            if self.total >= before:
                return

    def greedy_pass(self) -> None:
        """Top-down, level by level while ``widths`` last: each node's candidates
        completed greedily (cheap), kept when better than the subtree in place.
        A level with finalists is left to the lookahead pass, whose ranking of
        the candidates is this pass's search and more."""
        for level in range(len(self.settings.widths)):
            index = self.index
            width = self.width(level)
            if width < 1 or self.settings.finalists_at(level) > 0:
                continue
            least = max(2, self.settings.exact_below)  # the exact pass solves the rest
            nodes = [i for i in range(len(index.node))
                     if index.level[i] == level and len(index.sets[i]) > least]
            for i in nodes:
                self.check()
                if self.stale(index, i):
                    continue
                self.attempt(index, i, width, exact=False)
            self.index_of_tree()

    def index_of_tree(self) -> None:
        """Lay the whole tree out again (after a pass changed it)."""
        with self.lock:
            self.index = self.index_of(self.index.node[0], self.index.sets[0], 0, self.sym, 0)

    def exact_pass(self) -> None:
        """Solve every small top of the tree exactly (on the cluster when there is one)."""
        if self.cluster is not None:
            saved = self.cluster.exact_pass(self)
        else:
            saved = self.solve_small(self.index)
        if saved:
            self.index_of_tree()

    def better(self, index: Index) -> None:
        """Note an improvement (of the whole tree, when ``index`` is it)."""
        if index is self.index:
            self.tally.best = self.total
            self.changed.set()

    def lookahead_pass(self) -> None:
        """Search every large node again, the deepest first (on the cluster, the
        nodes of a level side by side: they are disjoint)."""
        index = self.index
        large = [i for i in range(len(index.node))
                 if len(index.sets[i]) > self.settings.exact_below
                 and self.width(index.level[i]) > 0]
        large.sort(key=lambda i: (-index.level[i], -len(index.sets[i])))
        if self.cluster is not None:
            for level in sorted({index.level[i] for i in large}, reverse=True):
                self.cluster.lookahead_pass(self, [i for i in large if index.level[i] == level])
        else:
            for i in large:
                self.check()
                if not self.stale(index, i):  # else under a subtree replaced in this pass
                    self.attempt(index, i, self.width(index.level[i]))
        self.index_of_tree()

    def attempt(self, index: Index, i: int, width: int, exact: bool = True) -> None:
        """Search node ``i`` again (greedy completions only unless ``exact``), keep
        what is better, and remember the subtree as tried (unless it was)."""
        key = set_key(index.sets[i], index.level[i], index.total[i], int(not exact))
        if key in self.done:
            return
        how = "" if exact else ", greedy"
        self.tally.where = f"{index.where(i)} ({len(index.sets[i])} secrets{how})"
        sym, played = index.symmetry(i)
        found = self.research(index.sets[i], index.level[i], sym, played, index.total[i],
                              index.guess[i], width, exact)
        self.keep(index, i, found, exact)

    def keep(self, index: Index, i: int, found: tuple[Node, int, int] | None,
             exact: bool = True) -> None:
        """Put :meth:`research`'s answer for node ``i`` in place (when one came);
        note the subtree as tried."""
        self.tally.searched += 1
        total = index.total[i]
        if found is not None:
            node, total, depth = found
            with self.lock:
                index.replace(i, node, total, depth)
            self.better(index)
        self.done.add(set_key(index.sets[i], index.level[i], total, int(not exact)))

    @staticmethod
    def stale(index: Index, i: int) -> bool:
        """Whether node ``i`` hangs below a node replaced since the layout."""
        while index.parent[i] >= 0:
            p = index.parent[i]
            if i not in index.kids[p]:
                return True
            i = p
        return False


# -- the public function -------------------------------------------------------------------
def improve_settings(
    *, exact_below: int = DEFAULT_EXACT_BELOW, widths: Sequence[int] | str = DEFAULT_WIDTHS,
    rules: Sequence[str] = RULES, max_guesses: int | None = None,
    finalists: Sequence[int] | str = (), deepen: Sequence[int] | str = (),
) -> SearchSettings:
    """The settings of an :func:`improve` run, read and checked (the counts as
    text too: ``4,3,2``, ``all``; a level beyond ``widths`` or ``finalists``:
    as its last; none, or all 0: no lookahead, every candidate completed)."""
    settings = SearchSettings.of(rules=rules, widths=widths, widths_go_on=True,
                                 finalists=finalists, exact_below=exact_below,
                                 max_guesses=max_guesses, deepen=deepen)
    return replace(settings, widths=settings.widths if any(settings.widths) else (),
                   finalists=settings.finalists if any(settings.finalists) else ())


def improve(
    strategy: Strategy,
    game: Game,
    *,
    exact_below: int = DEFAULT_EXACT_BELOW,
    widths: Sequence[int] | str = DEFAULT_WIDTHS,
    rules: Sequence[str] = RULES,
    budget_seconds: float | None = None,
    max_guesses: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    on_better: Callable[[Strategy], None] | None = None,
    client: object | None = None,
    finalists: Sequence[int] | str = (),
    deepen: Sequence[int] | str = (),
    settings: SearchSettings | None = None,
) -> Strategy:
    """A strategy for ``game`` never worse than ``strategy`` (see the module doc).

    ``exact_below``: the most secrets of a subtree solved exactly; ``widths``:
    candidates per rule at each level of the larger nodes (``4,3,2``; a level
    beyond the list: its last width; 0 at a level: none there, so ``0,0,12``
    searches the third level and below; none, or all 0: no lookahead);
    ``finalists``: at each level of the larger nodes (as ``widths``), how many
    candidates, ranked by their greedy completions, are completed exactly (none
    given, or 0: all of them); ``deepen`` (``W,F``): the large parts of a
    candidate completed exactly are then searched again, ``W`` candidates a
    rule, the ``F`` best by their greedy completions completed (their own large
    parts greedily), instead of being left greedy; ``max_guesses``: subtrees
    found keep every secret within that many guesses.  ``settings`` (from
    :func:`improve_settings`) stands for all of these.

    ``budget_seconds``: stop then (counted from the call) with the best so far;
    ``checkpoint``: keep the run there and resume from it; ``progress``: called
    about four times a second (:class:`~strategytree.progress.Progress`: subtrees searched, the best
    total, guesses saved, where the run works); ``on_better``: called with the
    best strategy so far after improvements (at most once every
    :data:`BETTER_EVERY` seconds) and at the end; ``client`` (a
    ``distributed.Client``): the subtrees of the exact pass, and the large
    nodes of a level in the lookahead pass, are searched by tasks on its
    workers, side by side (:class:`~strategytree.nodesearch.cluster.PassOnCluster`).

    Raises :class:`ImproveError` (with the verifier's report) for an invalid
    strategy; :class:`~strategytree.runner.Interrupted` (a KeyboardInterrupt:
    Ctrl-C), whose ``result`` is the best strategy so far, once the run has
    stopped and handed it over to ``on_better`` and the checkpoint.
    """
    started = time.perf_counter()  # (the budget counts the setup: seconds in a big game)
    if settings is None:
        settings = improve_settings(exact_below=exact_below, widths=widths, rules=rules,
                                    max_guesses=max_guesses, finalists=finalists, deepen=deepen)
    report = verify(strategy, game)
    if not report.valid:
        raise ImproveError(report)
    saved = resumed = None
    if checkpoint is not None:
        saved = Saved(checkpoint, strategy, game, settings)
        resumed = saved.load()
        if resumed is not None:
            again = verify(resumed[0], game)
            ranked = (again.total, again.max_guesses)
            if again.valid and ranked <= (report.total, report.max_guesses):
                strategy = resumed[0]
    tally = Tally()
    run = Improver(strategy, game, settings, stop=Stop(), tally=tally, client=client)
    tally.saved = report.total - run.total
    if resumed is not None:
        run.done = resumed[1]
    if budget_seconds is not None:
        budget_seconds = max(0.001, budget_seconds - (time.perf_counter() - started))
    return drive(run, report, budget_seconds, saved, progress, on_better)


def drive(run: Improver, report: Report, budget: float | None, saved: Saved | None,
          progress: ProgressCallback | None,
          on_better: Callable[[Strategy], None] | None) -> Strategy:
    """Run ``run`` as the unit of work of :func:`~strategytree.runner.run_in_thread`
    (the exact search releases the GIL, so Ctrl-C is heard at once): progress
    reported, the run stopped when the budget is spent, the best handed over as
    it improves (at most every :data:`BETTER_EVERY` seconds), the checkpoint
    saved when due (:class:`~strategytree.runner.Cadence`), both at the end."""
    source = f"<improved {report.source}>"
    last = [time.perf_counter()]

    def snapshot() -> Strategy:
        with run.lock:
            return Strategy(run.index.node[0], source=source)

    def hand_over(now: bool) -> None:
        """Give the best so far to ``on_better`` (when due, or ``now``), and save
        the checkpoint (when due, or ``now``)."""
        if run.changed.is_set() and (now or time.perf_counter() - last[0] >= BETTER_EVERY):
            run.changed.clear()
            last[0] = time.perf_counter()
            if on_better is not None:
                on_better(snapshot())
        if saved is not None and (now or saved.cadence.due()):
            saved.save(run.index.node[0], run.done)

    checked = run.check

    def check() -> None:  # the worker's own pauses: hand the best over when due
        checked()
        hand_over(False)

    run.check = check  # type: ignore[method-assign]
    reporter = Reporter(progress, run.tally.unit, run.tally.status, started=run.tally.started)

    def report_progress() -> None:
        run.tally.saved = report.total - run.total
        reporter()

    ended = run_in_thread(run.run, "strategytree-improve", run.stop.also(lambda: run.exact.halt()),
                          report=report_progress, seconds=budget)
    if ended.error is not None and not isinstance(ended.error, Stopped):
        raise ended.error
    interrupted = ended.interrupted
    try:
        with stops_held(interrupted):  # the best is handed over whole, even if stopped now
            run.changed.set()
            hand_over(True)
            report_progress()
    except KeyboardInterrupt:
        interrupted = True
    if interrupted:
        raise Interrupted(Strategy(run.index.node[0], source=source))
    return Strategy(run.index.node[0], source=source)


# -- what ``strategytree improve`` does ----------------------------------------------------
def improvable(strategy: Strategy, game: Game, notes: Sequence[str] = ()) -> Report:
    """The verifier's report on ``strategy`` (``notes``: how its game was told);
    raises :class:`ImproveError` with it unless the strategy is valid."""
    report = verify(strategy, game)
    report.game_notes = list(notes)
    if not report.valid:
        raise ImproveError(report)
    return report


def improve_file(
    strategy: Strategy, game: Game, output: str | os.PathLike[str], **settings: object
) -> tuple[Report, float]:
    """:func:`improve` (``settings`` are its keyword arguments), each better strategy
    written to ``output`` atomically as it is found: the verifier's report on the
    best (its source ``output``), and the seconds the run took.  A ``.json`` output
    is a JSON tree that records the game; anything else the brace grammar.  Stopped
    (Ctrl-C), it raises :class:`~strategytree.runner.Interrupted` whose ``result``
    is that pair, for the best so far, which is in ``output``."""
    from .formats.writing import write

    def keep(better: Strategy) -> None:
        write(better, output, force=True, game=game)

    started = time.perf_counter()
    try:
        best = improve(strategy, game, on_better=keep, **settings)  # type: ignore[arg-type]
    except Interrupted as stopped:  # the best so far was written: say what it is
        report = verify(stopped.result, game)  # type: ignore[arg-type]
        report.source = str(output)
        raise Interrupted((report, time.perf_counter() - started)) from None
    took = time.perf_counter() - started
    report = verify(best, game)
    report.source = str(output)
    return report, took


def improve_outcome(
    path: Input, output: str | os.PathLike[str], *, read: dict[str, Any] | None = None,
    budget: str | float | None = None, checkpoint: str | os.PathLike[str] | None = None,
    force: bool = False, as_json: bool = False, workers: int | str | None = None,
    scheduler: str | None = None, watch: Watch = QUIET, **settings: Any,
) -> CommandOutcome:
    """What ``strategytree improve`` does: the strategy at ``path`` read
    (:func:`~strategytree.formats.reading.read_strategy`, ``read`` its keywords)
    and :func:`improvable`, then :func:`improve_file` (``settings`` the rest of
    :func:`improve`'s keywords; the ``budget`` as :func:`parse_budget` reads it)
    on the cluster of ``workers`` or ``scheduler``, told on ``watch``; the report on
    the file written and :func:`improved_text`, or :func:`improved_json`.  Stopped
    (Ctrl-C), what the output holds (the best so far) and the stop
    (:func:`~strategytree.runner.stopped_outcome`)."""
    from rich.markup import escape
    from rich.text import Text

    from .files import check_outputs
    from .formats.reading import read_strategy
    from .runner import stopped_outcome
    from .verify import report_outcome

    check_outputs([output], force=force, inputs={"the input": path}, checkpoint=checkpoint)
    seconds = parse_budget(budget)
    loaded = read_strategy(path, **(read or {}))
    strategy, game = loaded.strategy, loaded.game
    try:
        before = improvable(strategy, game, loaded.notes)
    except ImproveError as refused:  # the input's report, and nothing written
        said = f"not improved: {escape(str(path))} is not a valid strategy for {game.name}"
        return report_outcome(refused.report, said,
                              improved_json(refused.report, refused.report, 0.0)
                              if as_json else None)
    with watch.running("improving", game, workers, scheduler) as (client, progress):
        try:
            report, took = improve_file(strategy, game, output, budget_seconds=seconds,
                                        checkpoint=checkpoint, progress=progress, client=client,
                                        **settings)
        except Interrupted as stopped:  # the best so far is in the output: say what it holds
            said = Text.from_markup(improved_text(before, *stopped.result, output))  # type: ignore[misc]
            return stopped_outcome(said, checkpoint=checkpoint)
    done = report_outcome(report, improved_text(before, report, took, output),
                          improved_json(before, report, took) if as_json else None)
    limit = settings.get("max_guesses")
    if limit is not None and report.max_guesses > limit:  # (subtrees within it: none found)
        return done._replace(notes=[*done.notes, (
            f"warning: the strategy still needs {report.max_guesses} guesses for some secret: "
            f"no subtree found brings it within --max-guesses {limit}")])
    return done


def improved_json(before: Report, after: Report, seconds: float) -> dict[str, object]:
    """The ``improve --json`` shape: the ``verify`` object of the improved file
    (:meth:`~strategytree.verify.Report.to_dict`), ``before`` (``total`` and
    ``max_guesses`` of the input), ``saved`` (guesses saved) and ``seconds``."""
    return {**after.to_dict(), "before": {"total": before.total,
                                          "max_guesses": before.max_guesses},
            "saved": before.total - after.total, "seconds": round(seconds, 3)}


def improved_text(before: Report, after: Report, seconds: float, output: object) -> str:
    """The line ``strategytree improve`` ends with (rich markup): guesses saved."""
    from rich.markup import escape

    return (f"{before.total - after.total:,} guesses saved ({before.total:,} -> {after.total:,}, "
            f"max {before.max_guesses} -> {after.max_guesses}) in {seconds:.1f} s, "
            f"written to {escape(str(output))}")
