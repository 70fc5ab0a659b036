"""A node search on a Dask cluster: the tasks of a lookahead being built
(:class:`TreeOnCluster`) and of a tree being improved (:class:`PassOnCluster`),
and the task functions their workers run.

Every task starts the same way (:func:`on_worker`): this worker thread's
:class:`~strategytree.nodesearch.search.NodeSearch` of the run, built from the
run's :class:`Spec` on its first task (:mod:`strategytree.workers`: the game's
tables once per worker), and the symmetry group of the guesses played before
the task's set; its thread time is counted by :func:`strategytree.workers.timed`
(every task is sent by :meth:`strategytree.workers.Run.task`).  Each answer is
put in place by the driver, so the tree is the one the in-process search makes.

Imported only when a run has a ``distributed.Client``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from .. import workers
from ..builders import Grown
from ..game import Game, Reply
from ..runner import Stopped, until_stopped
from ..symmetry import Symmetry
from ..tree import Node
from .saved import Noted
from .search import Index, NodeSearch, Replaced, set_key
from .settings import SearchSettings, Tally

__all__ = ["PART_MIN", "SPLIT_MIN", "PassOnCluster", "Spec", "TreeOnCluster",
           "complete_task", "exact_task", "research_task", "subtree_task"]

#: a lookahead: a set of at least this many secrets is a node of the driver (its
#: shortlist's completions as tasks); a smaller one below the root is one task
SPLIT_MIN = 1000
#: a lookahead: the parts below a guess go to tasks in turn, a task taking parts
#: until they hold this many secrets (a bigger part: a task of its own)
PART_MIN = 2000


@dataclass(frozen=True)
class Spec:
    """What a worker needs to build a run's :class:`NodeSearch` (see
    :mod:`strategytree.workers`)."""

    game: Game
    """the game, without its tables (it travels)"""
    settings: SearchSettings
    """what the run searches"""
    symmetry: bool
    """whether the rules score one guess per class of equivalent guesses"""
    key: str
    """the run's name on the workers"""

    @classmethod
    def of(cls, search: NodeSearch) -> Spec:
        """The spec of ``search``'s run."""
        key = search.game.run_key(search.settings, search.symmetry)
        return cls(replace(search.game), search.settings, bool(search.symmetry), key)


@contextmanager
def on_worker(key: str, history: tuple[int, ...]) -> Iterator[tuple[NodeSearch, Symmetry]]:
    """The prologue of every task: this worker thread's search of the run
    ``key`` (built on the worker's first task of the run, a sibling for each
    other thread), and the symmetry group after the guesses ``history``."""

    def build(spec: Spec) -> NodeSearch:
        return NodeSearch(spec.game, spec.settings, symmetry=spec.symmetry)

    search, groups = workers.on_this_thread(
        key, build, lambda home, first: home if first else home.sibling())
    yield search, workers.history_group(key, groups, history)


# -- a lookahead being built ----------------------------------------------------------------
class TreeOnCluster:
    """Builds a lookahead on a Dask cluster: the nodes of at least :data:`SPLIT_MIN`
    secrets in the driver, the completions of their shortlists as tasks (a
    task taking a guess's parts in turn until they hold :data:`PART_MIN`
    secrets; the subtrees come back flat, and only those of the guess kept are
    rebuilt), and each smaller part below a guess kept as one task
    (:func:`subtree_task`: the in-process search of that part, the decisions it
    made sent back for the checkpoint).  Every node decides as the in-process
    search does, from the same completions: the same tree."""

    def __init__(self, client, search: NodeSearch) -> None:
        self.client = client
        self.search = search
        self.cluster = workers.Run(client, Spec.of(search))
        self.count = self.cluster.count
        self.known: object | None = None

    def run(self, secrets: np.ndarray, sym: Symmetry) -> Grown:
        """The searched tree of ``secrets`` (the root); a cluster that fails (its
        workers gone) raises :class:`~strategytree.errors.StrategyTreeError`."""
        self.search.tally.tasks = self.count.detail
        with self.cluster.installed():
            saved = self.search.checkpoint
            if saved is not None:  # the decisions known, once to every worker
                self.known = self.client.scatter([saved.decisions], broadcast=True)[0] \
                    if saved.decisions else {}
            finished, grown = asyncio.run(
                until_stopped(self.subtree(secrets, sym, (), 0), self.search.stop.is_set))
            if not finished:
                raise Stopped
            if self.search.progress is not None:  # the last completions counted
                self.search.progress(self.search.tally.progress())
            return grown

    async def subtree(self, secrets: np.ndarray, sym: Symmetry, history: tuple[int, ...],
                      level: int) -> Grown:
        """:meth:`NodeSearch.subtree`, its completions and the searches below as tasks."""
        s = self.search
        if s.solvable(secrets):  # on a worker, as the in-process search does
            if level == 0:
                return s.subtree(secrets, sym, level)
            return await self.subtree_task(secrets, history, level)
        if s.width(level) <= 1 or len(secrets) <= 2:
            return s.completion(secrets, sym, level)
        if level > 0 and len(secrets) < SPLIT_MIN:
            return await self.subtree_task(secrets, history, level)
        key, known, shortlist = s.shortlist_of(secrets, sym, level)
        completed = await asyncio.gather(*(self.complete(secrets, history, g) for g in shortlist))
        finalists = s.decide(secrets, key, known, list(zip(shortlist, completed)), level, level)
        built = await asyncio.gather(*(self.searched(secrets, sym, history, level, guess, below)
                                       for guess, below in finalists))
        return s.keep(key, list(built), level)

    async def searched(self, secrets: np.ndarray, sym: Symmetry, history: tuple[int, ...],
                       level: int, guess: int, below: list) -> tuple[int, Grown]:
        """A finalist ``guess`` and its subtree: the parts ``below`` it (packed
        completions) searched again one level deeper, side by side."""
        s = self.search
        below = [(code, None if packed is None else unpack(packed)) for code, packed in below]
        after = sym.after(s.game.guesses[guess])
        then = (*history, guess)
        parts = await asyncio.gather(*(
            self.subtree(part, after, then, level + 1)
            if grown is not None and s.deeper(part, level) else nothing()
            for (_, grown), (_, part) in zip(below, s.parts(secrets, guess))
        ))
        return guess, s.assemble(secrets, guess, below, list(parts), level)

    async def complete(self, secrets: np.ndarray, history: tuple[int, ...], guess: int
                       ) -> list[tuple[int, Grown | None]]:
        """:meth:`NodeSearch.complete_parts`, the parts' greedy subtrees built by tasks."""
        s = self.search
        parts = s.parts(secrets, guess)
        win = s.game.win
        if any(code != win and len(part) == len(secrets) for code, part in parts):
            return []  # the guess does not split: never the best
        batches: list[list[np.ndarray]] = [[]]
        for code, part in parts:
            if code != win:
                if sum(map(len, batches[-1])) >= PART_MIN:
                    batches.append([])
                batches[-1].append(part)
        then = (*history, guess)
        answers = await asyncio.gather(*(self.task(complete_task, batch, then)
                                         for batch in batches if batch))
        trees = iter([tree for packed, _ in answers for tree in packed])
        s.tally.completions += sum(count for _, count in answers)
        return [(code, None if code == win else Packed(*next(trees))) for code, part in parts]

    async def subtree_task(self, secrets: np.ndarray, history: tuple[int, ...], level: int
                           ) -> Grown:
        """The search of a small set, as one task; its decisions noted here."""
        packed, decisions, nodes, completions, saved = await self.task(
            subtree_task, secrets, history, level, self.known)
        grown = unpack(packed)
        tally = self.search.tally
        tally.searched += nodes
        tally.completions += completions
        tally.saved += saved
        if self.search.checkpoint is not None:
            for key, guess in decisions:
                self.search.checkpoint.note(key, guess)
        return grown

    async def task(self, function: Callable, *args: object):
        """The answer of ``function(key, *args)`` run as a task (progress told when done)."""
        answer = await self.cluster.task(function, *args)
        if self.search.progress is not None:
            self.search.progress(self.search.tally.progress())
        return answer


async def nothing() -> None:
    """Nothing, as an awaitable (a part not searched again)."""
    return None


def complete_task(key: str, parts: list[np.ndarray], history: tuple[int, ...]
                  ) -> tuple[list[tuple], int]:
    """Run on a worker: the greedy subtree (the cheapest of the rules') of each
    of ``parts`` after the guesses ``history`` (packed: :func:`pack`), and the
    completions built."""
    with on_worker(key, history) as (search, sym):
        search.tally = Tally()
        trees = [pack(search.completion(part, sym, len(history))) for part in parts]
        return trees, search.tally.completions


def subtree_task(
    key: str, secrets: np.ndarray, history: tuple[int, ...], level: int,
    known: dict[bytes, int] | None,
) -> tuple[tuple, list[tuple[bytes, int]], int, int, int]:
    """Run on a worker: the searched subtree of ``secrets`` at ``level`` after
    the guesses ``history`` (packed: :func:`pack`) (``known``: the checkpoint's
    decisions, None: no checkpoint); with the decisions made, the nodes searched,
    the completions built and the guesses saved."""
    with on_worker(key, history) as (search, sym):
        search.tally = Tally()
        noted = Noted(known) if known is not None else None
        search.checkpoint = noted
        try:
            grown = search.subtree(secrets, sym, level)
        finally:
            search.checkpoint = None
        tally = search.tally
        return (pack(grown), noted.new if noted is not None else [], tally.searched,
                tally.completions, tally.saved)


class Packed(NamedTuple):
    """A subtree as flat lists (:func:`pack`), faster to ship than its nodes."""

    guesses: list[str]
    """the guesses, in preorder"""
    numbers: list[int]
    """after each guess, its branch count and each branch's reply (two numbers)"""
    total: int
    """as :attr:`Grown.total`"""
    depth: int
    """as :attr:`Grown.depth`"""


def pack(grown: Grown) -> tuple[list[str], list[int], int, int]:
    """A subtree as flat lists, faster to ship than its nodes: the guesses in
    preorder, and after each its branch count and each branch's reply (two numbers)."""
    guesses: list[str] = []
    numbers: list[int] = []
    todo = [grown.node]
    while todo:
        node = todo.pop()
        guesses.append(node.guess)
        numbers.append(len(node.branches))
        for reply, _ in node.branches:
            numbers.extend(reply)
        todo.extend(child for _, child in reversed(node.branches))
    return guesses, numbers, grown.total, grown.depth


def unpack(packed: tuple[list[str], list[int], int, int] | Packed) -> Grown:
    """The subtree :func:`pack` flattened."""
    guesses, numbers, total, depth = packed
    replies: dict[tuple[int, int], Reply] = {}
    at = iter(numbers)
    texts = iter(guesses)

    def node() -> Node:
        guess = next(texts)
        branches = []
        for _ in range(next(at)):
            pair = next(at), next(at)
            reply = replies.get(pair)
            if reply is None:
                reply = replies[pair] = Reply(*pair)
            branches.append(reply)
        return Node(guess, tuple((reply, node()) for reply in branches))

    return Grown(node(), total, depth)


# -- a tree being improved ------------------------------------------------------------------
class PassOnCluster:
    """The passes of :class:`~strategytree.improve.Improver` on a Dask cluster.
    Exact: every small top not tried yet is a task (:func:`exact_task`: the set,
    the guesses played before it, the limit: its total now).  Lookahead: every
    large node of a level is a task (:func:`research_task`:
    :meth:`NodeSearch.research` of it, the subtrees it solved exactly sent back
    as tried).  :data:`~strategytree.workers.IN_FLIGHT` per worker thread in flight, the largest
    first; each answer is put in place as it comes (the nodes are disjoint, so
    the order does not matter, and the tree is the one the run would make
    in-process)."""

    def __init__(self, client, run: NodeSearch) -> None:
        self.cluster = workers.Run(client, Spec.of(run))

    def exact_pass(self, run) -> int:
        """Solve the tops of ``run``'s whole tree on the workers; the guesses saved."""
        index: Index = run.index
        todo = [i for i in run.small_tops(index)
                if set_key(index.sets[i], index.level[i], index.total[i]) not in run.done]

        async def one(i: int) -> int:
            found = await self.cluster.task(exact_task, index.sets[i], index.level[i],
                                              index.history(i), index.symmetry(i)[1],
                                              index.total[i])
            return run.take(index, i, found)

        return self.each(run, todo, one)

    def lookahead_pass(self, run, nodes: list[int]) -> int:
        """Search the large ``nodes`` of ``run``'s whole tree (all of one level)
        again on the workers; the guesses saved."""
        index: Index = run.index
        todo = [i for i in nodes if set_key(index.sets[i], index.level[i], index.total[i])
                not in run.done]

        async def one(i: int) -> int:
            before = index.total[i]
            found, tried = await self.cluster.task(
                research_task, index.sets[i], index.level[i], index.history(i),
                index.symmetry(i)[1], before, index.guess[i], run.width(index.level[i]))
            run.done.update(tried)
            run.keep(index, i, found)
            return before - index.total[i]

        return self.each(run, todo, one)

    def each(self, run, todo: list[int], one: Callable) -> int:
        """``one(i)`` (a coroutine: a task, its answer put in place; the guesses
        saved) for every node of ``todo``; the guesses saved in all."""
        if not todo:
            return 0
        with self.cluster.installed(passing=(Stopped,)):
            return asyncio.run(self.all(run, todo, one))

    async def all(self, run, todo: list[int], one: Callable) -> int:
        """:meth:`each`, at most :data:`~strategytree.workers.IN_FLIGHT` a worker
        thread in flight (:meth:`~strategytree.workers.Run.acquire`)."""
        self.cluster.throttle()
        saved = [0]

        async def each(i: int) -> None:
            await self.cluster.acquire()
            try:
                if run.stop.is_set():
                    return
                run.tally.where = f"{self.cluster.count.detail()} ({len(todo)} subtrees)"
                saved[0] += await one(i)
            finally:
                self.cluster.release()
            run.tally.where = f"{self.cluster.count.detail()} ({len(todo)} subtrees)"
            run.check()

        running = [asyncio.ensure_future(each(i)) for i in todo]
        try:
            while running:
                done, _ = await asyncio.wait(running, timeout=0.25,
                                             return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    running.remove(future)
                    future.result()  # (raises Stopped, or a failure of the cluster)
                if run.stop.is_set():
                    raise Stopped
        finally:
            await workers.drop(running)
        return saved[0]


def exact_task(key: str, S: np.ndarray, level: int, history: tuple[int, ...], played: int,
               limit: int) -> tuple[int, Node] | None:
    """Run on a worker: the exact search of the secrets ``S`` after the
    guesses ``history`` (``played``: their colours), under ``limit``."""
    with on_worker(key, history) as (search, sym):
        return search.exact.solve(S, level, sym, played, limit)


def research_task(key: str, S: np.ndarray, level: int, history: tuple[int, ...], played: int,
                  limit: int, skip: int, width: int
                  ) -> tuple[Replaced | None, list[bytes]]:
    """Run on a worker: :meth:`NodeSearch.research` of the secrets ``S`` after the
    guesses ``history`` (``played``: their colours) under ``limit``, and the
    subtrees it solved exactly (:func:`set_key`: the exact pass need not)."""
    with on_worker(key, history) as (search, sym):
        known = set(search.done)
        found = search.research(S, level, sym, played, limit, skip, width)
        return found, [k for k in search.done if k not in known]
