"""One runner for long runs: the work's thread, its stop, its time budget, its progress
and when its checkpoint is saved.

A long run (the exact search, the total bound, the node search) supplies its
unit of work, a function run in a worker thread (the compiled kernels release
the GIL), and :func:`run_in_thread` runs it: the caller's thread calls
``report`` every :data:`PROGRESS_EVERY` seconds, ``save`` when the checkpoint
is due (every :data:`SAVE_EVERY` seconds, :class:`Cadence`), stops the work
once ``seconds`` have passed, and on Ctrl-C (SIGTERM and SIGHUP too: the CLI
raises KeyboardInterrupt for them) stops it, waits for it to end, saves, and
tells the caller (:class:`Ended`), which raises :class:`Interrupted` with what
was done so far.

One stop vocabulary: the caller asks a run to stop with :class:`Stop` (a
``threading.Event`` that also raises the flags the compiled code polls); the
work, seeing it, raises :class:`Stopped`; the caller of a run stopped by
Ctrl-C gets :class:`Interrupted`, a KeyboardInterrupt carrying the answer so
far.  Work that runs as coroutines (on a cluster) awaits its top with
:func:`until_stopped`, which cancels it when the stop is set.

>>> stop = Stop()
>>> ended = run_in_thread(lambda: 6 * 7, "example", stop)
>>> ended.value, ended.error, ended.interrupted
(42, None, False)
"""

from __future__ import annotations

import gc
import math
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .outcome import CommandOutcome

__all__ = [
    "PROGRESS_EVERY",
    "SAVE_EVERY",
    "STOP_SIGNALS",
    "Cadence",
    "Ended",
    "Interrupted",
    "Slots",
    "Stop",
    "Stopped",
    "fewer_collections",
    "run_in_thread",
    "stop_like_ctrl_c",
    "stop_status",
    "stop_words",
    "stopped_outcome",
    "stops_held",
    "until_stopped",
]

#: seconds between two progress reports of a run
PROGRESS_EVERY = 0.25
#: seconds between two saves of a run's checkpoint (at least; see :class:`Cadence`)
SAVE_EVERY = 5.0


class Stopped(Exception):
    """The work was asked to stop (:class:`Stop`: Ctrl-C, a time budget, a failure
    beside it) and did."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) stopped a run; ``result`` is its answer so far (None
    when it has none)."""

    def __init__(self, result: object = None, message: str = "") -> None:
        super().__init__(message)
        self.result = result


class Stop(threading.Event):
    """A run's stop: set by the caller's thread (Ctrl-C, the budget) or by the
    work; :meth:`also` names flags to raise with it (the stop flag the compiled
    search polls).

    >>> import numpy as np
    >>> flags = np.zeros(2, dtype=np.int64)
    >>> stop = Stop().also(lambda: flags.__setitem__(1, 1))
    >>> stop.set(); stop.is_set(), int(flags[1])
    (True, 1)
    """

    def __init__(self) -> None:
        super().__init__()
        self.hooks: list[Callable[[], None]] = []

    def also(self, hook: Callable[[], None]) -> Stop:
        """Call ``hook`` whenever the stop is set (now too, if it is)."""
        self.hooks.append(hook)
        if self.is_set():
            hook()
        return self

    def set(self) -> None:
        super().set()
        for hook in self.hooks:
            hook()


class Cadence:
    """When a checkpoint is due: at once (the first save comes right after a run's
    setup, so that a run killed in its first seconds leaves its checkpoint), then
    :data:`SAVE_EVERY` seconds after the last save, and a save that took long (a
    big cache) waits ten times as long (a run spends at most a tenth of its time
    saving).

    >>> cadence = Cadence()
    >>> cadence.due()
    True
    >>> cadence.saved(time.monotonic()); cadence.due()
    False
    """

    def __init__(self, every: float = SAVE_EVERY) -> None:
        self.least = self.every = every
        self.last = -math.inf  # never saved: due at once

    def due(self) -> bool:
        """Whether a save is due."""
        return time.monotonic() - self.last >= self.every

    def saved(self, started: float) -> None:
        """A save that began at ``started`` (``time.monotonic()``) is done."""
        self.last = time.monotonic()
        self.every = max(self.least, 10 * (self.last - started))


#: while trees are built, Python's cycle collector starts a collection after this
#: many new objects (its default is 700): a tree is many objects that live on, and
#: collecting among them that often cost the lookahead of MM(5,8) a fifth of its
#: time (5.3 s against 4.3 s; 50,000 and 200,000 gave no more).  Not for the exact
#: search, whose Python levels ran 3% slower so (Bulls and Cows, 4 pairs)
COLLECT_AFTER = 10_000

_fewer_lock = threading.Lock()
_fewer: list = [0, None]  # blocks open, and the thresholds before the first


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Within the block, Python's cycle collector waits for :data:`COLLECT_AFTER`
    new objects before a collection (any thread; blocks may nest and overlap: the
    thresholds are put back when the last one ends)."""
    with _fewer_lock:
        if _fewer[0] == 0:
            _fewer[1] = gc.get_threshold()
            first, *older = _fewer[1]
            gc.set_threshold(max(first, COLLECT_AFTER), *older)
        _fewer[0] += 1
    try:
        yield
    finally:
        with _fewer_lock:
            _fewer[0] -= 1
            if _fewer[0] == 0:
                gc.set_threshold(*_fewer[1])


class Ended(NamedTuple):
    """How work run by :func:`run_in_thread` ended."""

    value: object
    """what the work returned (None when it failed)"""
    error: BaseException | None
    """what the work raised, if anything"""
    interrupted: bool
    """whether Ctrl-C stopped it (SIGTERM and SIGHUP too: the CLI raises KeyboardInterrupt)"""


def run_in_thread(
    work: Callable[[], object],
    name: str,
    stop: Stop,
    *,
    report: Callable[[], None] | None = None,
    save: Callable[[], None] | None = None,
    seconds: float | None = None,
    every: float = PROGRESS_EVERY,
) -> Ended:
    """Run ``work`` in a daemon thread named ``name``; meanwhile, in this thread,
    every ``every`` seconds: ``report()``, ``save()`` when due (:class:`Cadence`),
    and ``stop`` set once ``seconds`` have passed.  Ctrl-C sets ``stop`` and
    waits for the work to end, deaf to another Ctrl-C.  ``save()`` runs once
    more when the work has ended, however it ended; ``report()`` too when it
    ended well."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = work()
        except BaseException as failure:  # handed to the caller's thread
            result["error"] = failure
            stop.set()

    started = time.perf_counter()
    cadence = Cadence()
    worker = threading.Thread(target=target, name=name, daemon=True)
    worker.start()
    interrupted = False
    try:
        while worker.is_alive():
            worker.join(every)
            if save is not None and cadence.due():
                began = time.monotonic()
                save()
                cadence.saved(began)
            if report is not None:
                report()
            if seconds is not None and time.perf_counter() - started >= seconds:
                stop.set()
    except KeyboardInterrupt:
        interrupted = True
        stop.set()
        while worker.is_alive():
            try:
                worker.join(0.1)
            except KeyboardInterrupt:
                pass
    if save is not None:
        with stops_held(interrupted):
            save()
    error = result.get("error")
    if report is not None and error is None and not interrupted:
        report()
    return Ended(result.get("value"), error, interrupted)


async def until_stopped(coroutine: Awaitable[object], stopped: Callable[[], bool],
                        every: float = 0.1) -> tuple[bool, object]:
    """Await ``coroutine``, looking at ``stopped()`` every ``every`` seconds; once
    it is true, cancel the coroutine and let it end.  ``(True, its value)`` when
    it finished, ``(False, None)`` when it was stopped (or cancelled itself).

    >>> import asyncio
    >>> async def answer():
    ...     return 42
    >>> asyncio.run(until_stopped(answer(), lambda: False))
    (True, 42)
    """
    import asyncio

    top = asyncio.ensure_future(coroutine)
    while not top.done():
        await asyncio.wait([top], timeout=every)
        if stopped() and not top.done():
            top.cancel()
    if top.cancelled() or stopped():
        await asyncio.gather(top, return_exceptions=True)
        return False, None
    return True, top.result()


class Slots:
    """At most ``n`` runs side by side in an event loop, like ``asyncio.Semaphore``,
    except that a slot freed goes to the waiter of least ``priority()`` (read at that
    moment, so it may change while the waiter waits), the first come among equals.

    >>> import asyncio
    >>> async def order():
    ...     slots, took = Slots(1), []
    ...     await slots.acquire()
    ...     async def run(name, rank):
    ...         await slots.acquire(lambda: rank)
    ...         took.append(name)
    ...         slots.release()
    ...     waiting = [asyncio.ensure_future(run(*w)) for w in (("b", 2), ("a", 1), ("c", 2))]
    ...     await asyncio.sleep(0)
    ...     slots.release()
    ...     await asyncio.gather(*waiting)
    ...     return took
    >>> asyncio.run(order())
    ['a', 'b', 'c']
    """

    def __init__(self, n: int) -> None:
        self.free = n
        self.waiting: list[tuple[Callable[[], Any], int, Any]] = []  # (priority, turn, future)
        self.turns = 0

    async def acquire(self, priority: Callable[[], Any] = lambda: 0) -> None:
        """Wait for a free slot; :meth:`release` frees it."""
        import asyncio

        if self.free and not self.waiting:
            self.free -= 1
            return
        granted = asyncio.get_running_loop().create_future()
        self.turns += 1
        entry = (priority, self.turns, granted)
        self.waiting.append(entry)
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self.release()  # (granted, then cancelled before it ran: passed on)
            elif entry in self.waiting:
                self.waiting.remove(entry)
            raise

    def release(self) -> None:
        """Free a slot taken by :meth:`acquire`: to the waiter of least priority."""
        self.free += 1
        while self.free and self.waiting:
            entry = min(self.waiting, key=lambda e: (e[0](), e[1]))
            self.waiting.remove(entry)
            if not entry[2].done():  # (not one cancelled meanwhile)
                self.free -= 1
                entry[2].set_result(None)


# -- signals -------------------------------------------------------------------------------
#: the signals that stop a run as Ctrl-C does, with the exit status shells report for each
#: (128 + the signal): ``kill``, ``timeout`` and batch schedulers send SIGTERM, a closed
#: terminal SIGHUP
STOP_SIGNALS = {signal.SIGTERM: 143, signal.SIGHUP: 129}
#: the exit status of a run stopped by Ctrl-C (128 + SIGINT)
CTRL_C_STATUS = 130
#: the signal that stopped the run, if any (set by :func:`stop_like_ctrl_c`'s handler)
stopped_by: list[int] = []


def stop_like_ctrl_c() -> None:
    """Make SIGTERM and SIGHUP stop a run as Ctrl-C does (KeyboardInterrupt: a
    search saves its checkpoint, an output being written is left as it was);
    :func:`stop_status` then tells which signal it was.  Call it from the main thread."""

    def stop(signum: int, frame: object) -> None:
        for other in STOP_SIGNALS:  # let the run save its work in peace
            signal.signal(other, signal.SIG_IGN)
        stopped_by.append(signum)
        raise KeyboardInterrupt

    for signum in STOP_SIGNALS:
        try:
            signal.signal(signum, stop)
        except (ValueError, OSError):  # not the main thread, or no such signal here
            pass


@contextmanager
def stops_held(stopping: bool = False) -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held while the block runs (a run's result being
    written, its last checkpoint saved), then acted on as they would have been
    (a KeyboardInterrupt, :func:`stop_status` telling which): a stop that lands
    there loses nothing.  When the command is ``stopping`` already, they ask
    nothing new and are dropped (``timeout`` sends its signal twice: to the
    command, then to its process group).  Outside the main thread, nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    signals = (signal.SIGINT, *STOP_SIGNALS)
    before = {signum: signal.getsignal(signum) for signum in signals}
    for signum in signals:
        signal.signal(signum, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        if held and not stopping:
            handler = before[held[0]]
            if callable(handler):  # Python's KeyboardInterrupt, or stop_like_ctrl_c's
                handler(held[0], None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(held[0])


def stop_status() -> int:
    """The exit status of a run stopped by Ctrl-C or by one of :data:`STOP_SIGNALS`."""
    return STOP_SIGNALS.get(stopped_by[0], CTRL_C_STATUS) if stopped_by else CTRL_C_STATUS


def stop_words(checkpoint: object = None) -> str:
    """``interrupted``, or ``stopped by SIGTERM`` (SIGHUP); and where the
    ``checkpoint`` keeps the work, when there is one (stopped before its first
    save, in the run's first second: that nothing is saved)."""
    kept = ""
    if checkpoint is not None:
        kept = (f"; the search is saved in {checkpoint}" if os.path.exists(checkpoint)
                else f"; stopped before the first save: nothing is in {checkpoint} yet")
    how = f"stopped by {signal.Signals(stopped_by[0]).name}" if stopped_by else "interrupted"
    return how + kept


def stopped_outcome(*said: object, checkpoint: object = None) -> CommandOutcome:
    """How a command stopped by Ctrl-C (or a signal) ends: ``said`` (what its output
    holds: plain lines, or rich Text) and :func:`stop_words` on stderr, :func:`stop_status`."""
    from rich.text import Text

    from .outcome import CommandOutcome

    lines = [*said, stop_words(checkpoint)]
    notes = [Text(line) if isinstance(line, str) else line for line in lines]
    return CommandOutcome(notes=notes, status=stop_status())
