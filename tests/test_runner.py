"""The runner of long runs (:mod:`strategytree.runner`), the progress reporter and
the counting bound (:mod:`strategytree.counting`): the pieces every long
run shares."""

from __future__ import annotations

import asyncio
import gc
import threading
import time

import numpy as np
import pytest

from strategytree.counting import counting_total, lower_bounds, solved_by_guess
from strategytree.progress import Reporter
from strategytree.runner import (
    COLLECT_AFTER,
    Cadence,
    Slots,
    Stop,
    Stopped,
    fewer_collections,
    run_in_thread,
    until_stopped,
)


def test_the_work_s_value_and_a_last_report() -> None:
    reports: list[int] = []
    ended = run_in_thread(lambda: 42, "test", Stop(), report=lambda: reports.append(1))
    assert ended == (42, None, False) and reports


def test_a_failure_is_handed_over_and_stops_the_rest() -> None:
    stop = Stop()

    def work() -> None:
        raise ValueError("boom")

    ended = run_in_thread(work, "test", stop)
    assert isinstance(ended.error, ValueError) and stop.is_set() and not ended.interrupted


def test_the_budget_stops_the_work_and_the_checkpoint_is_saved_at_the_end() -> None:
    saves: list[float] = []
    stop = Stop()

    def work() -> str:
        while not stop.is_set():
            time.sleep(0.01)
        return "stopped"

    ended = run_in_thread(work, "test", stop, save=lambda: saves.append(time.monotonic()),
                          seconds=0.2, every=0.05)
    assert ended.value == "stopped" and stop.is_set() and saves  # (the last save at the end)


def test_a_stop_raises_the_compiled_flags() -> None:
    flags = np.zeros(2, dtype=np.int64)
    stop = Stop().also(lambda: flags.__setitem__(1, 1))
    assert flags[1] == 0
    stop.set()
    assert flags[1] == 1
    late = np.zeros(1, dtype=np.int64)
    stop.also(lambda: late.__setitem__(0, 1))  # a stop already set raises it at once
    assert late[0] == 1


def test_a_stopped_coroutine_is_cancelled() -> None:
    stop = threading.Event()

    async def endless() -> None:
        while True:
            await asyncio.sleep(0.01)

    async def main() -> tuple[bool, object]:
        asyncio.get_running_loop().call_later(0.05, stop.set)
        return await until_stopped(endless(), stop.is_set, every=0.01)

    assert asyncio.run(main()) == (False, None)


def test_a_failing_coroutine_raises() -> None:
    async def failing() -> None:
        raise Stopped

    with pytest.raises(Stopped):
        asyncio.run(until_stopped(failing(), lambda: False))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_slots_hold_at_most_n_and_serve_the_least_priority_first(n: int) -> None:
    """Against a plain twin: each time a slot frees, the waiter served is the one of
    least priority *now* (priorities change while they wait), the first come among
    equals; never more than ``n`` runs at once."""
    rng = np.random.default_rng(n)
    rank = [int(r) for r in rng.integers(0, 4, 24)]
    took: list[int] = []
    holding = [0]

    async def run(w: int, slots: Slots) -> None:
        await slots.acquire(lambda: rank[w])
        holding[0] += 1
        assert holding[0] <= n
        took.append(w)
        await asyncio.sleep(0)
        rank[(w * 7 + 3) % len(rank)] = int(rng.integers(0, 4))  # (a waiter's rank moves)
        holding[0] -= 1
        slots.release()

    async def main() -> None:
        slots = Slots(n)
        for _ in range(n):
            await slots.acquire()
        runs = [asyncio.ensure_future(run(w, slots)) for w in range(len(rank))]
        await asyncio.sleep(0)
        assert len(slots.waiting) == len(rank)
        for _ in range(n):
            slots.release()
        await asyncio.gather(*runs)

    # the twin: replay the same moves and check each choice when it was made
    chosen: list[tuple[int, list[tuple[int, int]]]] = []
    real_release = Slots.release

    def watched(self: Slots) -> None:
        before = [(e[0](), e[1]) for e in self.waiting]
        waiting = list(self.waiting)
        real_release(self)
        served = [e for e in waiting if e not in self.waiting]
        for e in served:
            chosen.append(((e[0](), e[1]), before))

    Slots.release = watched  # type: ignore[method-assign]
    try:
        asyncio.run(main())
    finally:
        Slots.release = real_release  # type: ignore[method-assign]
    assert sorted(took) == list(range(len(rank)))
    for picked, before in chosen:
        assert picked == min(before)


def test_a_waiter_cancelled_does_not_keep_a_slot() -> None:
    async def main() -> list[str]:
        slots, took = Slots(1), []
        await slots.acquire()

        async def run(name: str) -> None:
            await slots.acquire()
            took.append(name)
            slots.release()

        gone, kept = asyncio.ensure_future(run("gone")), asyncio.ensure_future(run("kept"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.sleep(0)
        slots.release()
        await kept
        # granted, then cancelled before it ran: the slot goes on to the next
        await slots.acquire()
        late, last = asyncio.ensure_future(run("late")), asyncio.ensure_future(run("last"))
        await asyncio.sleep(0)
        slots.release()
        late.cancel()
        await asyncio.gather(late, last, return_exceptions=True)
        assert slots.free == 1 and not slots.waiting
        return took

    assert asyncio.run(main()) == ["kept", "last"]


def test_the_cadence_waits_longer_after_a_long_save() -> None:
    cadence = Cadence(every=0.0)
    assert cadence.due()
    cadence.saved(time.monotonic() - 1.0)  # a save of a second
    assert cadence.every >= 10.0 and not cadence.due()


def test_the_reporter_counts_from_its_start() -> None:
    seen = []
    report = Reporter(seen.append, "sets bounded", lambda: (3, None, "words"),
                      started=time.perf_counter() - 5)
    report()
    assert seen[0].done == 3 and seen[0].detail == "words" and seen[0].elapsed >= 5
    Reporter(None, "x", lambda: (0, None, ""))()  # nowhere to report: nothing happens


@pytest.mark.parametrize("n, parts", [(1, 1), (20, 3), (200, 5), (1296, 13), (5040, 19)])
def test_the_counting_bound_s_table_and_total_agree(n: int, parts: int) -> None:
    L, cap = lower_bounds(n, parts, 6)
    assert int(L[n]) == counting_total(n, parts)
    assert [int(L[k]) for k in range(n + 1)] == [counting_total(k, parts) for k in range(n + 1)]
    assert sum(solved_by_guess(n, parts)) == n
    assert all(int(cap[d]) == sum(parts**i for i in range(d)) for d in range(7))


def test_a_task_s_thread_time_is_counted_once() -> None:
    pytest.importorskip("distributed")
    from strategytree import workers

    def task(key: str, x: int) -> int:
        time.sleep(0.01)
        return sum(range(20_000)) * 0 + x + len(key)

    before = workers.SPENT[0]
    assert workers.timed(task, "ab", 1) == 3
    assert workers.SPENT[0] > before


def test_a_task_waited_for_ends_cancelled_when_its_client_closed_first() -> None:
    """At a stop the client may close before the run's last waits are cancelled:
    the task's cancel then fails, and the wait ends cancelled all the same (no
    traceback at the end of a run stopped by SIGTERM)."""
    from distributed.client import ClosedClientError

    from strategytree import workers

    class Future:
        def add_done_callback(self, callback) -> None:
            pass

        def cancel(self) -> None:
            raise ClosedClientError("Client is closed.")

    class Client:
        def submit(self, *args, **kwargs) -> Future:
            return Future()

    run = workers.Run(Client(), None)

    async def main() -> None:
        waiting = asyncio.ensure_future(run.answer(print))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert run.count.in_flight == 0 and not run.futures

    asyncio.run(main())


def test_a_greedy_build_collects_less_often_and_puts_the_thresholds_back() -> None:
    from strategytree.builders import build_greedy
    from strategytree.game import mastermind

    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    build_greedy(mastermind(3, 4), progress=lambda done: seen.append(gc.get_threshold()))
    assert seen and set(seen) == {(max(before[0], COLLECT_AFTER), *before[1:])}
    assert gc.get_threshold() == before


def test_overlapping_blocks_of_fewer_collections_end_with_the_last() -> None:
    before = gc.get_threshold()
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with fewer_collections():
            inside.set()
            leave.wait(10)

    helper = threading.Thread(target=other)
    helper.start()
    assert inside.wait(10)
    with fewer_collections():
        assert gc.get_threshold()[0] == max(before[0], COLLECT_AFTER)
    assert gc.get_threshold()[0] == max(before[0], COLLECT_AFTER)  # the other still inside
    leave.set()
    helper.join(10)
    assert gc.get_threshold() == before


@pytest.mark.parametrize("stopping", [False, True])
def test_a_stop_in_a_held_block_waits_for_its_end(stopping: bool) -> None:
    import os
    import signal

    from strategytree.runner import stops_held

    done = []
    before = signal.getsignal(signal.SIGINT)
    try:
        with stops_held(stopping):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # (delivered here, were it not held)
            done.append("the block's end")
        assert stopping  # a stop while stopping asks nothing new
    except KeyboardInterrupt:
        assert not stopping  # acted on once the block was done
    assert done == ["the block's end"]
    assert signal.getsignal(signal.SIGINT) is before
