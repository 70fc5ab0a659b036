"""The exact search on a Dask cluster: the levels near the root in the driver,
the sets below them as tasks.

The driver (this process) walks the top of the branch and bound with the same
steps as :class:`~strategytree.search.driver.Search` (:meth:`~.driver.Search.open`,
:meth:`~.driver.Search.split`, :meth:`~.driver.Search.close`), as coroutines that
run side by side:

- a **node** (the root, and every set of at least :data:`SPLIT_MIN` secrets and
  1/:data:`SPLIT_SHARE` of the game's) tries its first candidate alone (it sets
  the limit the others are held to), then the others side by side, each with
  the best cost found so far as its limit; a candidate that can no longer be
  the node's choice is cancelled.  The choice is the in-process search's rule:
  the first candidate, in the order tried, of least cost.  Below the root, the
  candidates after the first go to tasks in :data:`CHUNKS` runs, each tried in
  turn on the worker as the in-process search tries them;
- a root candidate, and the first candidate of a node above level
  :data:`SPLIT_LEVELS`, is **split**: its parts are nodes (big) or tasks
  (small) of their own, solved side by side (all exactly when there is no
  limit yet; else a cheap look at each first, then all of them within what the
  limit leaves, stopping as soon as their total reaches it);
- a **task** (:func:`solve_task`) carries a set of secrets (int32 indices), the
  guesses left, a cost limit, the candidates to try (none: the whole set) with
  their bounds, and the history (the guesses played, from which the worker
  rebuilds the symmetry group): about 3 KB for a set of 600.  At most
  :data:`~strategytree.workers.IN_FLIGHT` tasks per worker thread are in
  flight, so that each starts with the tightest limit known.

Each worker builds a game's tables once (:mod:`strategytree.workers`, the
Dask layer: its plugin is installed on every worker, also on those that join
later) and keeps them, with a cache of solved sets per thread, for every task of that
game.  A task returns its cost, the sets it searched, and, when its cost is exact, the rows
of its strategy's cache entries (a few per secret), which the driver keeps to write the tree.
A worker that dies mid-task is replaced by Dask and the task rerun: the
answer is the same.  With a checkpoint, every finished task is recorded as a
row (its set's key, its candidates, the limit, the cost, its best candidate),
appended when the checkpoint is next due (:class:`~strategytree.runner.Cadence`) and at a stop,
so a restarted run (on any number of workers) runs none of them again.

The total is the in-process search's; the tree too, but for ties: a worker's
cache holds what its earlier tasks solved (where Dask ran them), and where two
guesses cost the same the cache can tip the choice.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

import numpy as np

from .. import workers
from ..checkpoint import CheckpointError
from ..game import Game
from ..runner import Stopped, until_stopped
from ..symmetry import Symmetry
from ..workers import history_group
from .bounds import INF
from .compiled import NODES, STOP
from .problem import Problem, SearchError

__all__ = ["CHUNKS", "SPLIT_LEVELS", "SPLIT_MIN", "SPLIT_SHARE", "SearchSpec", "Tasks",
           "solve_task"]

#: a set of at least this many secrets, and at least 1/SPLIT_SHARE of the game's, is
#: searched node by node in the driver (its candidates as tasks); a smaller one is one task
SPLIT_MIN = 100
SPLIT_SHARE = 8
#: the candidates of such a node (after its first, tried alone) go in this many tasks
CHUNKS = 8
#: above this level, the first candidate of a node is split into its parts too (1: only
#: the root's; more helps a game whose one big part is most of the work, as Bulls and Cows)
SPLIT_LEVELS = 1
#: a task's record in the checkpoint: key, key, its first candidate (-1: the whole
#: node), its candidates, the limit, the cost, the place of the best candidate (-1: none)
RECORD = 7


@dataclass(frozen=True)
class SearchSpec:
    """What a worker needs to build a search's tables: the game and the kind of search."""

    game: Game
    """the game (without the tables derived from it: each worker makes them)"""
    max_guesses: int | None
    """the most guesses allowed (None: no limit)"""
    symmetry: bool
    """whether symmetry is used"""
    mode: int
    """0: least total; 1: whether a strategy within the guesses exists"""
    key: str
    """names the search (the game's codes, the limits): the key of the workers' caches"""

    @classmethod
    def of(cls, game: Game, max_guesses: int | None, symmetry: bool, mode: int) -> SearchSpec:
        """The spec of a search of ``game`` (a copy without its memos: it travels)."""
        key = game.run_key(max_guesses, symmetry, mode)
        return cls(replace(game), max_guesses, bool(symmetry), int(mode), key)


# -- on a worker ------------------------------------------------------------------------

def worker_problem(key: str) -> tuple[Problem, dict]:
    """This thread's problem of the search ``key`` (the tables built once per
    worker, a cache and state per thread), and its memo of symmetry groups.

    A worker keeps the tables of its last :data:`~strategytree.workers.KEPT` searches."""
    return workers.on_this_thread(
        key,
        lambda spec: Problem.of(spec.game, spec.max_guesses, spec.symmetry, spec.mode),
        lambda home, first: home if first else home.sibling(own_stats=True),
    )


def solve_task(
    key: str, S: np.ndarray, d: int, limit: int, played: int, history: tuple[int, ...],
    forces: np.ndarray, bounds: np.ndarray, lb: int,
) -> tuple[int, int, np.ndarray, int]:
    """Run on a worker: a node's candidates ``forces`` (none: the whole node) on
    ``S`` with ``d`` guesses left, tried in turn as the in-process search tries
    them (``bounds`` their bounds, ``lb`` the node's), within ``limit``.

    Returns the least cost (exact when below ``limit``, else a lower bound at
    least ``limit``), the place of the candidate that has it in ``forces`` (-1:
    none under the limit; 0 for a whole node solved), the rows of its
    strategy's cache entries when exact, and the sets searched."""
    p, groups = worker_problem(key)
    sym = history_group(key, groups, history)
    before = int(p.stats[NODES])
    if len(forces) == 0:
        cost = p.solve(S, d, limit, played, -1, sym)
        found = 0 if cost < limit else -1
    else:
        best, found, fail = limit, -1, INF
        for i, (g, bound) in enumerate(zip(forces, bounds)):
            if bound >= best:
                fail = min(fail, int(bound))
                break
            total = p.solve(S, d, best, played, int(g), sym)
            if total < best:
                best, found = total, i
                if best <= lb:
                    break
            else:
                fail = min(fail, total)
        cost = best if found >= 0 else fail
    searched = int(p.stats[NODES]) - before
    if found < 0:
        rows = np.zeros((0, 5), dtype=np.int64)
    else:
        rows = strategy_rows(p, S, d, int(forces[found]) if len(forces) else -1)
    return cost, found, rows, searched


def strategy_rows(p: Problem, S: np.ndarray, d: int, force: int) -> np.ndarray:
    """The cache rows (key, key, cost, guess, flags) of the sets of more than two
    secrets met below ``force`` played on ``S`` (-1: from ``S`` itself) in the
    strategy the cache holds."""
    rows = []
    todo = [(part, d - 1) for _, part in p.parts(S, force)] if force >= 0 else [(S, d)]
    while todo:
        X, left = todo.pop()
        if len(X) <= 2:
            continue
        cost, guess, flags = p.best_entry(X, left)
        rows.append((*p.key(X, left), cost, guess, flags))
        todo.extend((part, left - 1) for _, part in p.parts(X, guess))
    return np.array(rows, dtype=np.int64).reshape(-1, 5)


# -- in the driver ------------------------------------------------------------------------
class Tasks:
    """Runs a search's levels below the root as tasks of a Dask client
    (see the module doc); ``done``: the task records of a checkpoint."""

    def __init__(self, client, game: Game, max_guesses: int | None, symmetry: bool, mode: int,
                 done: np.ndarray | None = None) -> None:
        self.cluster = workers.Run(client, SearchSpec.of(game, max_guesses, symmetry, mode))
        self.log: list[tuple[int, ...]] = []
        self.known: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.total_secrets = len(game.secrets)
        if done is not None and (done.ndim != 2 or done.shape[1] != RECORD):
            raise CheckpointError("a checkpoint whose task records are not this search's")
        for row in np.zeros((0, RECORD), dtype=np.int64) if done is None else done:
            self.remember(*(int(x) for x in row))
        self.count = self.cluster.count
        self.search = None

    # -- what the driver's Search asks
    def records(self) -> np.ndarray:
        """Every finished task (and those of the checkpoint resumed) as rows."""
        return np.array(self.log, dtype=np.int64).reshape(-1, RECORD)

    def detail(self) -> str:
        """Tasks done, running and queued, and workers alive, in words."""
        return self.count.detail()

    def root(self, search, S: np.ndarray, d: int, limit: int, sym: Symmetry | None) -> int:
        """The cost of the whole set ``S`` (as :meth:`.driver.Search.node`), the
        levels below the root as tasks.  Raises :class:`~.problem.Stopped` when
        stopped, :class:`~.problem.SearchError` when the cluster fails."""
        self.search = search
        if len(S) <= 2:
            return search.node(S, d, limit, sym, 0, 0)
        with self.cluster.installed(SearchError, passing=(Stopped,)):
            return asyncio.run(self.main(S, d, limit, sym))

    async def main(self, S: np.ndarray, d: int, limit: int, sym: Symmetry | None) -> int:
        """:meth:`node` of the root, stopped when the search's stop flag is set."""
        self.slots_total = self.cluster.throttle()
        stats = self.search.p.stats
        finished, cost = await until_stopped(self.node(S, d, limit, sym, (), 0, 0),  # level 0
                                             lambda: bool(stats[STOP]))
        if not finished:
            raise Stopped
        return cost

    # -- the search's top, as coroutines
    def big(self, S: np.ndarray) -> bool:
        """Whether the set ``S`` is searched node by node here, its candidates
        as tasks (else it is one task)."""
        return len(S) >= max(SPLIT_MIN, self.total_secrets // SPLIT_SHARE)

    async def node(self, S, d, limit, sym, history, played, level) -> int:
        """:meth:`.driver.Search.node`, the candidates side by side (see the module doc)."""
        search = self.search
        opened = search.open(S, d, limit, sym)
        if isinstance(opened, int):
            return opened
        cands, lbg, order, lb = opened
        best, best_k, best_guess, fail = limit, len(order), -1, INF
        size = 1 if level == 0 else max(1, -(-len(order) // CHUNKS))

        def hopeless(k: int) -> bool:  # candidate k can no longer be the node's choice
            bound = lbg[order[k]]
            return bool(bound > best or (bound == best and k > best_k)
                        or (best_guess >= 0 and best <= lb and k > best_k))

        running: dict[asyncio.Future, tuple[int, int, bool]] = {}
        next_k = 0
        try:
            while True:
                while next_k < len(order) and len(running) < self.slots_total and not (
                    next_k > 0 and 0 in (k for k, *_ in running.values())
                ):
                    if hopeless(next_k):
                        fail = min(fail, int(lbg[order[next_k]]))
                        next_k = len(order)
                        break
                    ks = order[next_k : next_k + (1 if next_k == 0 else size)]
                    split = level == 0 or (next_k == 0 and level < SPLIT_LEVELS)
                    if split:  # its parts are nodes or tasks of their own
                        i = ks[0]
                        work = self.guess(S, d, int(cands[i]), int(lbg[i]), best, sym, history,
                                          played, level)
                    else:
                        work = self.task(S, d, best, played, history, cands[ks], lbg[ks], lb)
                    running[asyncio.ensure_future(work)] = (next_k, best, split)
                    next_k += len(ks)
                if not running:
                    break
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    k, used, split = running.pop(task)
                    total, j = (task.result(), 0) if split else task.result()
                    if j >= 0 and total < used and (total < best or (total == best
                                                                     and k + j < best_k)):
                        best, best_k, best_guess = total, k + j, int(cands[order[k + j]])
                        if level == 0:
                            search.found(best)
                    else:
                        fail = min(fail, total)
                for task, (k, *_) in list(running.items()):
                    if hopeless(k):
                        task.cancel()
                        del running[task]
        finally:
            await workers.drop(running)
        return search.close(S, d, best, best_guess, fail, lb)

    async def part(self, S, d, limit, sym, history, played, level) -> int:
        """The cost of a part: a node of its own when big, else one task."""
        if self.big(S):
            return await self.node(S, d, limit, sym, history, played, level)
        empty = np.zeros(0, dtype=np.int64)
        return (await self.task(S, d, limit, played, history, empty, empty, 0))[0]

    async def guess(self, S, d, g, bound, limit, sym, history, played, level) -> int:
        """:meth:`.driver.Search.guess`, the parts side by side."""
        child_sym, child_played, parts, known = self.search.split(S, g, sym, played)
        below = (child_sym, (*history, g), child_played, level + 1)
        total = bound
        if limit >= INF:  # nothing to prune against: every part exactly
            costs = await asyncio.gather(*(self.part(part, d - 1, INF, *below) for part in parts))
            return min(INF, total + sum(c - k for c, k in zip(costs, known)))
        if len(parts) > 1:  # a cheap look at each part first
            looks = [self.part(part, d - 1, k + 1, *below) for part, k in zip(parts, known)]
            for i, c in enumerate(await asyncio.gather(*looks)):
                if c > known[i]:
                    total += c - known[i]
                    known[i] = c
        running = {
            asyncio.ensure_future(self.part(part, d - 1, limit - (total - known[i]), *below)): i
            for i, part in enumerate(parts)
        } if total < limit else {}
        try:
            while running and total < limit:
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    i = running.pop(task)
                    c = task.result()
                    if c > known[i]:
                        total += c - known[i]
                        known[i] = c
        finally:
            await workers.drop(running)
        return total

    async def task(self, S, d, limit, played, history, forces, bounds, lb) -> tuple[int, int]:
        """One task (:func:`solve_task`): its cost and the place of its best
        candidate (-1: none under ``limit``); from the checkpoint when that
        answers it."""
        p = self.search.p
        first = int(forces[0]) if len(forces) else -1
        key = (*(int(x) for x in p.key(S, d)), first, len(forces))
        known = self.known.get(key)
        if known is not None and (known[2] >= 0 or known[1] >= limit):
            return known[1], known[2]
        await self.cluster.acquire()
        try:
            cost, found, rows, searched = await self.cluster.task(
                solve_task, S, d, limit, played, history, np.asarray(forces, dtype=np.int64),
                np.asarray(bounds, dtype=np.int64), int(lb))
        finally:
            self.cluster.release()
        p.stats[NODES] += searched
        if len(rows):
            p.cache.load(rows)
        self.remember(*key, limit, cost, found)
        if self.search.cadence.due():
            self.search.save()  # (appends the tasks finished since the last save)
        self.search.check()  # stop when asked
        return cost, found

    def remember(self, key1: int, key2: int, first: int, count: int, limit: int, cost: int,
                 found: int) -> None:
        """Note a finished task (for the checkpoint, and to run it never again)."""
        self.known[(key1, key2, first, count)] = (limit, cost, found)
        self.log.append((key1, key2, first, count, limit, cost, found))
