"""The search's top: the levels near the root in Python, threads, checkpoints, the public functions.

:class:`Search` runs the first :data:`PY_LEVELS` levels of the branch and bound
in Python, with the full symmetry group (:class:`~strategytree.symmetry.Symmetry`),
and hands each set below them to the compiled search
(:func:`~strategytree.search.compiled.solve`).  A node's step is the one the
compiled levels take (the candidates' bounds are
:func:`~strategytree.search.bounds.split_table`, the compiled levels' bound
counted with numpy).  In big games without a checkpoint, the root's parts are
solved by :data:`THREADS` threads side by side, each with its own cache and
state (merged at the end): :meth:`Search.side_by_side`.

The search is the unit of work of :func:`strategytree.runner.run_in_thread`
(its thread, progress, Ctrl-C: :func:`run`); the search saves its checkpoint
itself, in its own thread, when the runner's :class:`~strategytree.runner.Cadence`
says it is due, and once more when stopped (:mod:`strategytree.checkpoint`:
the header names the search, the records hold the cache's rows, each save
appending the rows new since the last).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, Protocol

import numpy as np

from ..builders import build_greedy
from ..checkpoint import Checkpoint, CheckpointError, each_record, header
from ..game import Game
from ..progress import ProgressCallback, Reporter
from ..runner import Cadence, Interrupted, Stop, Stopped, run_in_thread
from ..symmetry import Symmetry
from ..tree import Node, Strategy
from ..verify import verify
from ..words import plural
from .bounds import INF, UNLIMITED, split_table
from .compiled import NODES, STOP
from .problem import Problem, SearchError

__all__ = ["Search", "build_optimal", "prove_bound", "prove_bound_table"]

#: the first levels of the search run in Python, with the full symmetry group
PY_LEVELS = 2
#: sets smaller than this are not written to a checkpoint (cheap to redo)
CHECKPOINT_MIN_SET = 6
#: from this many secrets (a tenth of it without symmetry), a greedy strategy is the
#: first "best so far": its total shown, the tree kept for a run stopped before the
#: search has a whole strategy of its own
GREEDY_FIRST = 2000
#: from this many secrets (and without a checkpoint), the root's parts are solved
#: by as many threads as there are cores, up to THREADS
PARALLEL_FIRST = 1000
THREADS = 2
#: what a search's progress counts
UNIT = "sets searched"


class Choices(NamedTuple):
    """A node's candidates, as :meth:`Search.open` leaves them to be tried."""

    cands: np.ndarray
    """the guesses to try (one per symmetry class)"""
    lbg: np.ndarray
    """each one's lower bound"""
    order: np.ndarray
    """the order to try them in (by bound, then by expected part size)"""
    lb: int
    """the node's own lower bound"""


# -- checkpoints -----------------------------------------------------------------
def checkpoint_header(game: Game, max_guesses: int | None, what: str) -> dict:
    """What a checkpoint of this search says it holds
    (:func:`strategytree.checkpoint.header`): the kind of search, the game, the limit."""
    return header(what, game, max_guesses=max_guesses)


class Resumed(NamedTuple):
    """What a run resumed from its checkpoint goes on with (besides the cache)."""

    tasks: np.ndarray | None
    """a run on a cluster: its finished tasks, as rows"""
    end: int
    """where the file's complete records end (the run adds its records there)"""


def load_checkpoint(path: Path, p: Problem, header: dict) -> Resumed | None:
    """Seed the cache from the checkpoint at ``path``, record by record (no copy
    of them all); None when there is no file.

    Raises :class:`~strategytree.checkpoint.CheckpointError` for a damaged
    checkpoint or one of another search."""
    tasks: list[np.ndarray] = []

    def take(record: dict[str, np.ndarray]) -> None:
        rows = record.get("rows", np.zeros((0, 5), dtype=np.int64))
        if rows.ndim != 2 or rows.shape[1] != 5 or rows.dtype != np.int64:
            raise CheckpointError(f"{path}: not a usable checkpoint (its rows are not the cache's)")
        if len(rows) and (bad := _bad_row(rows, p.game)) is not None:
            raise CheckpointError(f"{path}: damaged: a row of its cache {bad}")
        p.cache.load(rows)
        if "tasks" in record:
            tasks.append(record["tasks"])

    end = each_record(path, header, take)
    if end is None:
        return None
    p.cache.mark_saved()
    return Resumed(np.concatenate(tasks) if tasks else None, end)


def _bad_row(rows: np.ndarray, game: Game) -> str | None:
    """What is wrong with the first bad one of a checkpoint's cache rows (key, key,
    cost, guess, flags: :mod:`.cache`), checked as far as a row alone tells: None
    when nothing is."""
    key1, key2, cost, guess, flags = rows.T
    size = flags >> 1
    checks = [
        ((key1 < 0) | (key1 >= 1 << 40) | (key2 < 0) | (key2 >= 1 << 40), "has a key out of range"),
        ((size < 1) | (size > len(game.secrets)),
         f"is of a set not of 1 to {len(game.secrets):,} secrets"),
        ((cost < 0) | (cost > INF), "has a cost out of range"),
        ((guess < -1) | (guess >= len(game.guesses)),
         f"has a guess not of 0 to {len(game.guesses) - 1:,}"),
        (((flags & 1) == 1) & (guess < 0), "is solved but has no guess"),
        (((flags & 1) == 1) & (cost < 2 * size - 1),
         "is solved for less than any set of its size costs (2 n - 1)"),
    ]
    for wrong, words in checks:
        if wrong.any():
            return f"(row {int(np.flatnonzero(wrong)[0]):,} of a record) {words}"
    return None


class Saver:
    """Saves a search's cache to a checkpoint: the rows new or changed since the
    last save (:meth:`.cache.Cache.unsaved`) and, for a search on a cluster, the
    finished tasks not saved yet; the first save of a fresh run starts the file,
    a resumed run adds to the file it read (``resumed``: what it read)."""

    def __init__(self, path: Path, header: dict, resumed: Resumed | None = None) -> None:
        self.file = Checkpoint(path, header)
        self.started = resumed is not None
        self.tasks_saved = len(resumed.tasks) if resumed and resumed.tasks is not None else 0
        if resumed is not None:
            self.file.cut(resumed.end)

    def save(self, p: Problem, tasks: np.ndarray | None = None, *, whole: bool = False) -> None:
        """Write the cache's rows new since the last save; ``tasks``: every finished
        task so far, as rows (those past the last save are written).  With ``whole``
        (the search is done), the rows of the small sets too: a run resumed from
        the checkpoint then has the very cache the search ended with, and writes
        the same tree."""
        rows = p.cache.unsaved(CHECKPOINT_MIN_SET)
        if whole:
            every = p.cache.rows(0)
            rows = np.concatenate([every[(every[:, 4] >> 1) < CHECKPOINT_MIN_SET], rows])
        arrays = {"rows": rows}
        if tasks is not None:
            arrays["tasks"] = tasks[0 if not self.started else self.tasks_saved :]
            self.tasks_saved = len(tasks)
        if not self.started:
            self.file.rewrite(arrays)
            self.started = True
        elif any(len(a) for a in arrays.values()):
            self.file.append(arrays)


class TaskRunner(Protocol):
    """What runs a search's levels as tasks on a cluster (:class:`.tasks.Tasks`)."""

    def root(self, search: Search, S: np.ndarray, d: int, limit: int, sym: Symmetry | None) -> int:
        """:meth:`Search.node` of the whole set, the levels below it as tasks."""

    def detail(self) -> str:
        """The tasks done, running and queued, and the workers alive, in words."""

    def records(self) -> np.ndarray:
        """Every finished task as a row (for the checkpoint)."""


# -- the levels near the root, in Python ---------------------------------------
class Search:
    """Branch and bound: the first :data:`PY_LEVELS` levels here (full symmetry,
    progress, checkpoints), the rest in the compiled search."""

    def __init__(self, problem: Problem, saver: Saver | None = None) -> None:
        self.p = problem
        self.saver = saver
        self.tasks: TaskRunner | None = None  # set: the levels below the root run as tasks
        self.best: int | None = None
        self.best_tree: Node | None = None
        """a whole strategy of total :attr:`best`, when one is known (for a run stopped)"""
        self.at_root: list = []
        """the first guess under way: [its text, its rank in the order tried, the first
        guesses to try, secrets in its parts solved, secrets in its parts] (for the
        progress shown)"""
        self.lock = threading.Lock()
        self.keep_trees = False
        """True: each better whole strategy found is kept as :attr:`best_tree`"""
        self.cadence = Cadence()
        """when the checkpoint is next due"""
        self.threads = 1  # more: the root's parts are solved side by side (see side_by_side)
        self.py_levels = PY_LEVELS
        """the levels run here (0: all of the search compiled, as for the sets after a
        history of :class:`~strategytree.search.subsets.Exact`, whose history left
        little symmetry for these levels to use; 1: the root's parts go to the
        compiled search at once)"""

    def side_by_side(self, parts: list[np.ndarray], d: int, sym, played: int) -> list[int]:
        """The exact costs of ``parts`` (largest first), solved by this thread and
        ``threads - 1`` more, each with its own cache, state and symmetry group
        (the compiled search releases the GIL); their caches join this one's at
        the end."""
        helpers = [Search(self.p.sibling()) for _ in range(self.threads - 1)]
        groups = [sym] + [sym.copy() if sym is not None else None for _ in helpers]
        costs: list[int] = [INF] * len(parts)
        todo = iter(range(len(parts)))
        lock = threading.Lock()
        failures: list[BaseException] = []

        def work(search: Search, group: Symmetry | None) -> None:
            try:
                while True:
                    with lock:
                        i = next(todo, None)
                    if i is None:
                        return
                    costs[i] = search.node(parts[i], d, INF, group, played, 1)
                    self.solved_at_root(len(parts[i]))
            except BaseException as failure:
                failures.append(failure)
                self.p.stats[STOP] = 1  # the others stop too

        others = [
            threading.Thread(target=work, args=(h, g), daemon=True)
            for h, g in zip(helpers, groups[1:])
        ]
        for thread in others:
            thread.start()
        work(self, groups[0])
        for thread in others:
            thread.join()
        for helper in helpers:
            self.p.cache.load(helper.p.cache.rows(0))
        if failures:
            real = [f for f in failures if not isinstance(f, Stopped)]
            raise real[0] if real else failures[0]
        return costs

    def node(
        self, S: np.ndarray, d: int, limit: int, sym: Symmetry | None, played: int, level: int
    ) -> int:
        """The least cost of ``S`` with ``d`` guesses left, exact when below ``limit``
        (else a lower bound at least ``limit``).

        The step of a compiled level, with the full symmetry group: the answers
        that need no search, then every candidate's bound
        (:func:`~strategytree.search.bounds.split_table`, the bound the compiled
        levels use), tried in order of bound (:meth:`guess`)."""
        p = self.p
        if level >= self.py_levels or len(S) <= 2:
            result = p.solve(S, d, limit, played, sym=sym)
            self.check()
            return result
        opened = self.open(S, d, limit, sym)
        if isinstance(opened, int):
            return opened
        cands, lbg, order, lb = opened
        best, best_guess, fail = limit, -1, INF
        for rank, i in enumerate(order, 1):
            if lbg[i] >= best:
                fail = min(fail, int(lbg[i]))
                break
            g = int(cands[i])
            if level == 0:
                shown = str(g) if p.game is None else p.game.code_text(p.game.guesses[g])
                self.at_root = [shown, rank, len(order), 0, len(S) - 1]
            if level + 1 < self.py_levels:
                total = self.guess(S, d, g, int(lbg[i]), best, sym, played, level)
            else:
                total = p.solve(S, d, best, played, g, sym)
                self.check()
            if total < best:
                best, best_guess = total, g
                if level == 0:
                    self.found(best, self.tree(S, d, g) if self.keep_trees else None)
                if best <= lb:
                    break
            else:
                fail = min(fail, total)
        return self.close(S, d, best, best_guess, fail, lb)

    def open(self, S: np.ndarray, d: int, limit: int, sym: Symmetry | None) -> int | Choices:
        """The start of a node (set ``S`` of at least 3 secrets): its cost when it
        needs no search (too big for the guesses left, its bound at the limit, the
        cache, a guess that splits it perfectly), else its :class:`Choices`."""
        p = self.p
        n = len(S)
        if n > p.cap[d]:
            return INF
        lb = int(p.lbt[n])
        if lb >= limit:
            return lb
        entry = p.get(S, d)
        if entry is not None:
            if entry[2] & 1 or entry[0] >= limit:
                return int(entry[0])
            lb = max(lb, int(entry[0]))
        cands = p.candidates(S, sym)
        t = p.tables
        lbg, parts, worst, sq, cons = split_table(S, cands, d, t.mode, t.fb, p.lbt, p.cap, t.win,
                                                  t.n_replies)
        perfect = np.flatnonzero((parts == n - 1) & (cons == 1) & (lbg < INF))
        if len(perfect):
            cost = int(lbg[perfect[0]])
            p.put(S, d, cost, int(cands[perfect[0]]), True)
            return cost
        order = np.lexsort((sq, worst if t.mode else lbg))
        return Choices(cands, lbg, order, lb)

    def close(self, S: np.ndarray, d: int, best: int, best_guess: int, fail: int, lb: int) -> int:
        """The end of a node: cache its best guess and cost (``best_guess`` -1: none
        under the limit; then a lower bound, the least of ``fail`` and ``lb``)."""
        if best_guess >= 0:
            self.p.put(S, d, best, best_guess, True)
            return best
        fail = max(fail, lb)
        self.p.put(S, d, fail, -1, False)
        return fail

    def found(self, total: int, tree: Node | None = None) -> None:
        """A whole strategy of ``total`` guesses (``tree``) was found: the best so far?"""
        if self.best is None or total < self.best:
            self.best, self.best_tree = total, tree

    def solved_at_root(self, secrets: int) -> None:
        """A part of ``secrets`` secrets of the first guess under way is solved."""
        with self.lock:
            if self.at_root:
                self.at_root[3] += secrets

    def split(
        self, S: np.ndarray, g: int, sym: Symmetry | None, played: int
    ) -> tuple[Symmetry | None, int, list[np.ndarray], list[int]]:
        """Guess ``g`` on ``S``: the group and colours played after it, its parts of
        more than two secrets (largest first) and their lower bounds."""
        p = self.p
        child_sym = sym.after(p.game.guesses[g]) if sym is not None else None
        child_played = played | int(p.tables.gmask[g])
        parts = [part for _, part in sorted(p.parts(S, g), key=lambda item: -len(item[1]))]
        parts = [part for part in parts if len(part) > 2]
        return child_sym, child_played, parts, [int(p.lbt[len(part)]) for part in parts]

    def guess(self, S, d, g, lbg, limit, sym, played, level) -> int:
        """The cost of playing ``g`` on ``S``, exact when below ``limit``."""
        total = lbg
        child_sym, child_played, parts, known = self.split(S, g, sym, played)
        if self.threads > 1 and level == 0 and limit >= INF and len(parts) > 1:
            # nothing to prune against yet: every part is solved exactly, side by side
            costs = self.side_by_side(parts, d - 1, child_sym, child_played)
            return min(INF, total + sum(c - k for c, k in zip(costs, known)))
        # as in compiled.next_part: first a cheap look at each part, then solve them
        for phase in (0, 1) if len(parts) > 1 else (1,):
            for i, part in enumerate(parts):
                if total >= limit:
                    return total
                bound = known[i] + 1 if phase == 0 else limit - (total - known[i])
                c = self.node(part, d - 1, bound, child_sym, child_played, level + 1)
                if c > known[i]:
                    total += c - known[i]
                    known[i] = c
                if level == 0 and phase == 1:
                    self.solved_at_root(len(part))
        return total

    def root(self, S: np.ndarray, d: int, limit: int, sym: Symmetry | None) -> int:
        """:meth:`node` of the whole set (on a cluster when :attr:`tasks` is set)."""
        if self.tasks is not None:
            return self.tasks.root(self, S, d, limit, sym)
        return self.node(S, d, limit, sym, 0, 0)

    def detail(self) -> str:
        """More words for the progress shown: the cluster's tasks and workers, or the
        first guess under way and how much of it is solved (in secrets: its parts
        are solved largest first, the first guess tried is most often the best)."""
        if self.tasks is not None:
            return self.tasks.detail()
        if not self.at_root:
            return ""
        text, rank, every, done, whole = self.at_root
        share = f"{100 * done // max(1, whole)}%"
        return (f"first guess {text}, the {_ordinal(rank)} of at most {every:,} to try: "
                f"{share} of its parts solved")

    def check(self) -> None:
        """Stop when asked; save a checkpoint when one is due."""
        if self.p.stats[STOP]:
            raise Stopped
        if self.saver is not None and self.cadence.due():
            self.save()

    def save(self, *, whole: bool = False) -> None:
        """Save the checkpoint (``whole``: every row, the search being done, see
        :meth:`Saver.save`); a big one less often (at most 10% of the time)."""
        if self.saver is not None:
            started = time.monotonic()
            tasks = self.tasks.records() if self.tasks is not None else None
            self.saver.save(self.p, tasks, whole=whole)
            self.cadence.saved(started)

    def tree(self, S: np.ndarray, d: int, first: int | None = None) -> Node:
        """The strategy the cache holds for ``S`` (solving again what it lacks),
        opening with guess ``first`` when given (its parts solved)."""
        p = self.p
        game = p.game
        text = game.code_text
        root = Node("")
        todo = [(root, S, d)]
        while todo:
            node, S, d = todo.pop()
            n = len(S)
            if n <= 2 and node is not root or first is None and n <= 2:
                g = int(p.tables.as_guess[S[0]])
                node.guess = text(game.guesses[g])
                if n == 2:
                    leaf = Node(text(game.secrets[S[1]]))
                    node.branches = ((game.reply(int(p.tables.fb[g, S[1]])), leaf),)
                continue
            g = first if node is root and first is not None else int(p.best_entry(S, d)[1])
            node.guess = text(game.guesses[g])
            branches = []
            for r, part in p.parts(S, g):
                child = Node("")
                branches.append((game.reply(r), child))
                todo.append((child, part, d - 1))
            node.branches = tuple(branches)
        return root


def _ordinal(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..., ``11th``, ``21st``."""
    last = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{last}"


def run(
    work: Callable[[], object],
    problem: Problem,
    search: Search | None,
    progress: ProgressCallback | None,
) -> object:
    """Run ``work`` in a thread (:func:`~strategytree.runner.run_in_thread`);
    report progress; on Ctrl-C stop it cleanly (saving a checkpoint) and raise
    :class:`~strategytree.runner.Interrupted`."""
    report = Reporter(progress, UNIT, lambda: (
        int(problem.stats[NODES]),
        search.best if search is not None else None,
        search.detail() if search is not None else "",
    ))
    problem.stats[:] = 0
    stop = Stop().also(lambda: problem.stats.__setitem__(STOP, 1))
    ended = run_in_thread(work, "strategytree-search", stop, report=report)
    if ended.interrupted or isinstance(ended.error, Stopped):
        if search is not None:
            search.save()
        raise Interrupted(search.best if search is not None else None)
    if ended.error is not None:
        raise ended.error
    return ended.value


# -- the public functions ----------------------------------------------------------
def build_optimal(
    game: Game,
    *,
    max_guesses: int | None = None,
    progress: ProgressCallback | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    symmetry: bool = True,
    client: object | None = None,
) -> Strategy:
    """A strategy with the fewest guesses in total over all secrets.

    With ``max_guesses``, the fewest among strategies that never need more.
    ``progress`` is called about four times a second with a
    :class:`~strategytree.progress.Progress` (sets searched, best total so far);
    with ``checkpoint`` the search state is saved there every few seconds and on
    Ctrl-C, and read back when the search starts again.  Ctrl-C raises
    :class:`~strategytree.runner.Interrupted` (a KeyboardInterrupt) once the
    search has stopped, its ``result`` the best whole strategy known by then (a
    greedy one the search started from, in big games, or the best it found), or
    None.  Raises :class:`SearchError`
    when no strategy fits ``max_guesses``, and
    :class:`~strategytree.checkpoint.CheckpointError` for a checkpoint that is
    damaged or of another search.

    With ``client`` (a Dask client, :func:`strategytree.cluster.connect`) the
    search below the root runs as tasks on its cluster (:mod:`strategytree.search.tasks`): the same
    total, the same tree; a checkpoint then also records every finished task.
    """
    p = Problem.of(game, max_guesses, symmetry)
    saver, resumed = None, None
    if checkpoint is not None:
        header = checkpoint_header(game, max_guesses, "optimal")
        resumed = load_checkpoint(Path(checkpoint), p, header)
        saver = Saver(Path(checkpoint), header, resumed)
    search = Search(p, saver)
    search.keep_trees = True
    if client is not None:
        from .tasks import Tasks  # the Dask layer: imported only when used

        done = None if resumed is None else resumed.tasks
        search.tasks = Tasks(client, game, max_guesses, symmetry, 0, done)
    S = np.arange(len(game.secrets), dtype=np.int32)
    d = UNLIMITED if max_guesses is None else min(int(max_guesses), UNLIMITED)  # (beyond: the same)
    sym = Symmetry.of(game, symmetry)
    if saver is None and client is None and len(S) >= PARALLEL_FIRST:
        search.threads = max(1, min(THREADS, os.cpu_count() or 1))
    source = f"<optimal{'' if max_guesses is None else f' max {max_guesses}'} {game.name}>"

    def work() -> Node | None:
        search.save()  # right after the setup: a run killed at once leaves its checkpoint
        if len(S) >= (GREEDY_FIRST if symmetry else GREEDY_FIRST // 10):
            # a whole strategy to show as the best so far within a second (the
            # search finds its first one only when the root's parts are solved),
            # and to keep if the run is stopped before then
            greedy = build_greedy(game, rule="expected")
            report = verify(greedy, game)
            if max_guesses is None or report.max_guesses <= max_guesses:
                search.found(report.total, greedy.root)
        cost = search.root(S, d, INF, sym)
        if cost >= INF:
            return None
        search.best = cost
        search.save(whole=True)
        return search.tree(S, d)

    try:
        root = run(work, p, search, progress)
    except Interrupted:
        best = search.best_tree
        raise Interrupted(None if best is None else Strategy(best, source=source)) from None
    if root is None:
        raise SearchError(
            f"no strategy for {game.name} solves every secret within "
            f"{plural(int(max_guesses), 'guess')}"
        )
    return Strategy(root, source=source)


def prove_bound(
    game: Game,
    *,
    progress: ProgressCallback | None = None,
    symmetry: bool = True,
    client: object | None = None,
) -> int:
    """The fewest guesses that solve every secret in the worst case.

    Proved by exhaustion: a strategy within K guesses is found, and the search
    shows that none exists within K - 1.  With ``client`` (a
    Dask client), on its cluster (as :func:`build_optimal`).

    >>> from strategytree.game import mastermind
    >>> prove_bound(mastermind(3, 2))
    3
    """
    p = Problem.of(game, None, symmetry, mode=1)
    search = Search(p)
    if client is not None:
        from .tasks import Tasks  # the Dask layer: imported only when used

        search.tasks = Tasks(client, game, None, symmetry, 1)
    S = np.arange(len(game.secrets), dtype=np.int32)
    sym = Symmetry.of(game, symmetry)

    def work() -> int:
        d = 1
        while search.root(S, d, 1, sym) != 0:
            d += 1
            if d > UNLIMITED:
                raise SearchError(f"{game.name}: no strategy solves every secret")
        return d

    return int(run(work, p, search if client is not None else None, progress))  # type: ignore[arg-type]


def prove_bound_table(
    replies: np.ndarray,
    win: int,
    *,
    progress: ProgressCallback | None = None,
) -> int:
    """:func:`prove_bound` for any game given by its table of replies.

    ``replies[g, s]`` is the reply (a small integer, 0..127) to guess ``g`` when
    the secret is ``s``; ``win`` is the reply that ends the game, which each
    secret gets from exactly one guess.  E.g. guessing a number in 0..7 told
    "lower", "right" or "higher" (three guesses find at most 1 + 2 + 4 numbers):

    >>> import numpy as np
    >>> g, s = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    >>> prove_bound_table(np.sign(g - s) + 1, win=1)
    4
    """
    p = Problem.of_table(replies, win, mode=1)
    search = Search(p)
    S = np.arange(p.tables.fb.shape[1], dtype=np.int32)

    def work() -> int:
        d = 1
        while search.node(S, d, 1, None, 0, 0) != 0:
            d += 1
            if d > UNLIMITED:
                raise SearchError("no strategy solves every secret")
        return d

    return int(run(work, p, None, progress))  # type: ignore[arg-type]
