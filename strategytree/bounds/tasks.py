"""The total bound (:func:`strategytree.bounds.total.total_lower_bound`) on a Dask
cluster: its root (:class:`~strategytree.bounds.root.RootBound`) in the driver,
the runs over the first guesses' parts as tasks.

Each worker builds the game's reply table once (:mod:`strategytree.workers`)
and keeps a memo of the sets it bounded for every task of the run; a task
(:func:`bound_task`) carries its parts, their bounds so far, the depth, the
goal and the guess played, and the bounds of large sets learned in those parts
by earlier tasks; it stops after
:data:`~strategytree.bounds.root.TASK_SECONDS` with what it proved and learned
(kept in the driver and in the checkpoint).  Imported only when a run has a
Dask client (:func:`strategytree.cluster.connect`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from .. import workers
from ..game import Game
from . import root as roots
from .root import RootBound, RootGuesses, refine_parts
from .sets import NO_EXACT, ExactSets, Learned, SetBounder

__all__ = ["BoundSpec", "RootOnCluster", "SCATTER_FROM", "bound_task"]

#: a task's sets learned (bytes) from which they go to the cluster on their own
#: (scattered), not inside the task (Dask warns of a task graph of several MiB)
SCATTER_FROM = 1 << 20


@dataclass(frozen=True)
class BoundSpec:
    """What a worker needs to bound sets of a game (see :mod:`strategytree.workers`)."""

    game: Game
    """the game (without the tables derived from it: each worker makes them)"""
    symmetry: bool
    """whether symmetry is used"""
    key: str
    """names the run: the key of the workers' tables"""
    exact: ExactSets = NO_EXACT
    """the sets bounded by their exact optimum"""


def worker_bounder(key: str) -> tuple[SetBounder, dict]:
    """This worker thread's bounder of the run ``key`` (the reply table built once
    per worker, a memo of bounds per thread), and its memo of symmetry groups."""
    return workers.on_this_thread(key, lambda spec: SetBounder(spec.game, spec.symmetry,
                                                             exact=spec.exact),
                                  lambda home, first: home if first else home.sibling())


def bound_task(key: str, parts: list[np.ndarray], d: int, lead: int, nxt: int,
               cur: list[int], history: tuple[int, ...], most: int, learned: Learned,
               seconds: float, share: tuple[int, int] | None = None
               ) -> tuple[list[tuple[int, int, Learned]], int, float]:
    """Run on a worker: :func:`~strategytree.bounds.root.refine_parts` after the
    guesses ``history``, for at most ``seconds``, starting from the bounds
    ``learned`` of the parts' sets (over ``share`` of the guesses that follow, when
    given); and the sets bounded, and the task's CPU seconds."""
    started = time.thread_time()
    bounder, groups = worker_bounder(key)
    sym = workers.history_group(key, groups, history)
    bounder.learn_all(learned)
    before = bounder.sets
    found = refine_parts(bounder, sym, parts, d, lead, nxt, cur, most, seconds, share)
    return found, bounder.sets - before, time.thread_time() - started


class RootOnCluster(RootBound):
    """:class:`~strategytree.bounds.root.RootBound` with its parts bounded by tasks
    of a Dask cluster, at most :data:`~strategytree.workers.IN_FLIGHT` per worker
    thread in flight (each starts with the tightest goal known); the driver needs no reply
    table.  A task (:func:`bound_task`) carries the parts (int32 indices), their bounds so far,
    the depth, the goal and the guess played; a worker builds the reply table
    once and keeps a memo of the sets it bounded for every task of the run.  A
    worker killed mid-run is replaced by Dask and its task run again."""

    def __init__(self, client, game: Game, symmetry: bool, root: RootGuesses,
                 exact: ExactSets = NO_EXACT) -> None:
        super().__init__(game, symmetry, root, exact)
        key = game.run_key(bool(symmetry), f"total bound, {exact}")
        self.cluster = workers.Run(client, BoundSpec(replace(game), bool(symmetry), key, exact))
        self.count = self.cluster.count

    def deepen(self, depth: int, reached: list[int]) -> None:
        with self.cluster.installed():
            super().deepen(depth, reached)

    def words(self, reached: int, depth: int) -> str:
        return super().words(reached, depth) + ", " + self.count.detail()

    def open_slots(self) -> None:
        self.cluster.throttle()

    @property
    def shares(self) -> int:  # one run a worker thread
        return self.cluster.count.threads

    async def acquire(self, priority):
        await self.cluster.acquire(priority)

    def release(self) -> None:
        self.cluster.release()

    async def run(self, i, batch, d, lead, nxt, share=None):
        parts = self.guesses.parts(i)
        learned = Learned.join([k for j in batch for k in self.kept.get((i, j), [])])
        if learned.rows.nbytes + learned.members.nbytes >= SCATTER_FROM:
            learned = self.cluster.client.scatter([learned], hash=False)[0]  # (not in the graph)
        found, sets, cpu = await self.cluster.task(
            bound_task, [parts[j] for j in batch], d, int(lead), int(nxt),
            [self.cur[i][j] for j in batch], (self.guesses.guesses[i],), self.most, learned,
            roots.TASK_SECONDS, share)
        self.spent += cpu
        return found, sets
