"""The Dask layer: the one place a run's unit of work becomes tasks of a cluster.

What every run on Dask shares: the tables of a game built once per worker
(:class:`GamePlugin`, :func:`on_this_thread`, :func:`history_group`), a task's
thread time measured on the worker (:func:`timed`, the task's prologue and
epilogue, written once), the throttle of the tasks in flight
(:data:`IN_FLIGHT` per worker thread, :meth:`Run.acquire`), and the driver's
count of its tasks (:class:`TaskCount`).  The exact search
(:mod:`strategytree.search.tasks`), the total bound
(:mod:`strategytree.bounds.tasks`) and the node search
(:mod:`strategytree.nodesearch.cluster`) supply the functions their tasks run.

A run names itself by a key (a digest of the game's codes and the search's
settings) and gives every worker (also one that joins later) its spec with a
:class:`GamePlugin`: any picklable object with ``key``, ``game`` (without the
tables derived from it) and ``symmetry``.  A task then asks
:func:`on_this_thread` for its tables: built on the worker's first task of the
run, kept for every later one (the last :data:`KEPT` runs), with a view and a
memo per worker thread.  The exact search (:mod:`strategytree.search.tasks`)
keeps its :class:`~strategytree.search.problem.Problem` so, the node search
(:mod:`strategytree.nodesearch.cluster`) its
:class:`~strategytree.nodesearch.search.NodeSearch`.

Imported only when a run has a ``distributed.Client``; with
:mod:`strategytree.cluster` (which makes the client), the only module that
imports dask.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from distributed import WorkerPlugin

from .errors import StrategyTreeError
from .runner import Slots
from .symmetry import Symmetry

__all__ = ["IN_FLIGHT", "KEPT", "SPENT", "GamePlugin", "Run", "TaskCount", "awaitable", "drop",
           "history_group", "on_this_thread", "task_words", "timed"]

#: the runs whose tables a worker keeps (the last used)
KEPT = 2
#: CPU seconds this worker process has spent in tasks (read by benchmarks/cluster.py)
SPENT = [0.0]
#: tasks in flight per worker thread (each starts with the tightest limit known)
IN_FLIGHT = 1
#: seconds between two looks at the number of workers alive
WORKERS_EVERY = 2.0

_specs: dict[str, Any] = {}
_shared: dict[str, Any] = {}
_lock = threading.Lock()
_local = threading.local()


class GamePlugin(WorkerPlugin):
    """Gives a run's spec to every worker (those that join later too), under
    its key; the tables are built on a worker's first task of the run."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self.name = f"strategytree-{spec.key}"

    def setup(self, worker: object) -> None:
        """Keep the spec, under its key."""
        _specs[self.spec.key] = self.spec


def on_this_thread(
    key: str, build: Callable[[Any], Any], own: Callable[[Any, bool], Any]
) -> tuple[Any, dict]:
    """This thread's view of the tables of the run ``key``, and its memo (a dict).

    ``build(spec)`` makes the tables, once per worker process (the tables of the
    last :data:`KEPT` runs are kept); ``own(tables, first)`` this thread's view
    of them (``first``: the thread that built them)."""
    mine = _local.__dict__.setdefault("runs", {})
    with _lock:
        for gone in [k for k, (_, _, home) in mine.items() if _shared.get(k) is not home]:
            del mine[gone]
        if key not in mine:
            home = _shared.pop(key, None)
            if home is None:
                home = build(_specs[key])
                mine[key] = (own(home, True), {}, home)
            else:
                mine[key] = (own(home, False), {}, home)
            _shared[key] = home  # (the last used last)
            while len(_shared) > KEPT:
                del _shared[next(iter(_shared))]
    view, memo, _ = mine[key]
    return view, memo


def history_group(key: str, groups: dict, history: tuple[int, ...]) -> Symmetry:
    """The symmetry group of the run ``key`` after the guesses ``history``
    (worked out once per history, kept in ``groups``)."""
    if history not in groups:
        spec = _specs[key]
        group = groups.get(history[:-1]) if history else None
        if group is None:
            group = Symmetry.of(spec.game, spec.symmetry)
            for g in history:
                group = group.after(spec.game.guesses[g])
        else:
            group = group.after(spec.game.guesses[history[-1]])
        if len(groups) > 10_000:
            groups.clear()
        groups[history] = group
    return groups[history]


class Run:
    """A run on the cluster of ``client``: its spec (see the module doc) on every
    worker while it lasts (:meth:`installed`), its tasks counted (``count``)
    and those still out cancelled at its end."""

    def __init__(self, client, spec: Any) -> None:
        self.client, self.spec = client, spec
        self.count = TaskCount(client)
        self.futures: set = set()
        self.slots: Slots | None = None
        self.in_flight = 1
        """the most tasks in flight (:meth:`throttle`)"""

    @contextmanager
    def installed(self, failed: type[Exception] = StrategyTreeError,
                  passing: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
        """The spec on every worker (also those that join later) while the block
        runs.  A cluster without workers, or one that fails (a task whose workers
        all died, the scheduler gone), raises ``failed`` with one line; errors of
        strategytree and ``passing`` go through."""
        plugin = GamePlugin(self.spec)
        try:
            self.client.register_plugin(plugin)
            if not self.count.look():
                raise failed("the cluster has no workers")
            yield
        except (StrategyTreeError, *passing):
            raise
        except Exception as failure:
            raise failed(f"the cluster failed: {type(failure).__name__}: {failure}") from None
        finally:
            try:
                if self.futures:
                    self.client.cancel(list(self.futures))
                self.client.unregister_worker_plugin(plugin.name)
            except Exception:  # the cluster is gone: nothing to tidy
                pass

    def throttle(self) -> int:
        """Open the run's slots in the event loop under way: :data:`IN_FLIGHT` tasks
        per worker thread; how many."""
        self.in_flight = IN_FLIGHT * self.count.threads
        self.slots = Slots(self.in_flight)
        return self.in_flight

    async def acquire(self, priority: Callable[[], Any] = lambda: 0) -> None:
        """Wait for a free slot (counted as waiting meanwhile), the waiter of least
        ``priority()`` first (:class:`~strategytree.runner.Slots`); :meth:`release`
        frees it."""
        self.count.waiting += 1
        try:
            await self.slots.acquire(priority)
        finally:
            self.count.waiting -= 1

    def release(self) -> None:
        """Free a slot taken by :meth:`acquire`."""
        self.slots.release()

    async def task(self, function: Callable, *args: object) -> Any:
        """``function(key, *args)`` run as a task (``key``: the spec's), its thread
        time counted in :data:`SPENT` on the worker (:func:`timed`); its answer."""
        return await self.answer(timed, function, self.spec.key, *args)

    async def answer(self, function: Callable, *args: object) -> Any:
        """``function(*args)`` run as a task, its answer; counted while it runs,
        cancelled when the waiting is."""
        future = self.client.submit(function, *args, pure=False)
        self.futures.add(future)
        self.count.in_flight += 1
        try:
            answer = await awaitable(future, asyncio.get_running_loop())
        except asyncio.CancelledError:
            try:
                future.cancel()
            except Exception:  # (the client closed first, at a stop: its tasks are gone)
                pass
            raise
        finally:
            self.count.in_flight -= 1
            self.futures.discard(future)
        self.count.finished += 1
        return answer


def timed(function: Callable, key: str, *args: object) -> Any:
    """Run on a worker: ``function(key, *args)``, its thread time added to :data:`SPENT`."""
    started = time.thread_time()
    try:
        return function(key, *args)
    finally:
        SPENT[0] += time.thread_time() - started


class TaskCount:
    """The driver's count of a run's tasks, and the workers alive."""

    def __init__(self, client) -> None:
        self.client = client
        self.finished = self.in_flight = self.waiting = 0
        """tasks finished; sent and not finished; not sent yet"""
        self.workers, self.threads, self.looked = 0, 1, -WORKERS_EVERY

    def look(self) -> int:
        """Ask the scheduler for the workers alive now; the number of worker threads."""
        threads = self.client.nthreads()
        self.workers, self.threads = len(threads), max(1, sum(threads.values()))
        self.looked = time.monotonic()
        return sum(threads.values())

    def detail(self) -> str:
        """Tasks done, running and queued, and workers alive, in words (running:
        at most one per worker thread of the tasks sent; the rest queued)."""
        if time.monotonic() - self.looked >= WORKERS_EVERY:
            try:
                self.look()
            except Exception:  # the cluster is going away: keep the last figures
                self.looked = time.monotonic()
        return task_words(self.finished, self.in_flight, self.waiting, self.workers,
                          self.threads)


def task_words(finished: int, in_flight: int, waiting: int, workers: int, threads: int) -> str:
    """Tasks done, running and queued, and workers alive, in words (running: at
    most one per worker thread of the ``in_flight`` tasks sent; the rest queued).

    >>> task_words(12, 3, 4, 2, 2)
    'tasks 12 done, 2 running, 5 queued, 2 workers'
    """
    running = min(in_flight, threads)
    queued = in_flight - running + waiting
    return (f"tasks {finished:,} done, {running:,} running, {queued:,} queued, "
            f"{workers} worker{'s' if workers != 1 else ''}")


async def drop(running) -> None:
    """Cancel the coroutines (asyncio tasks) still running and let them finish."""
    for task in running:
        task.cancel()
    if running:
        await asyncio.gather(*running, return_exceptions=True)


def awaitable(future, loop: asyncio.AbstractEventLoop) -> asyncio.Future:
    """The result of a Dask future, awaitable in ``loop`` (fetched in Dask's
    callback thread)."""
    waiter = loop.create_future()

    def settle(value: object, error: BaseException | None) -> None:
        if waiter.done():
            return
        if error is not None:
            waiter.set_exception(error)
        else:
            waiter.set_result(value)

    def done(finished) -> None:
        value, error = None, None
        try:
            value = finished.result()
        except BaseException as failure:  # handed to the waiter
            error = failure
        try:
            loop.call_soon_threadsafe(settle, value, error)
        except RuntimeError:  # the loop is closed: the run has stopped
            pass

    future.add_done_callback(done)
    return waiter
