"""Speed-up of the exact search on a Dask cluster: 2 workers over 1, same run.

For each game, a local cluster of 1 and then of 2 single-threaded worker
processes (in turn, ``--rounds`` times, so that both see the same load) runs
``build_optimal(game, client=...)``; each cluster first solves a small game so
that its workers have loaded the compiled kernels.  Printed per run: the
total, the sets searched by the tasks and the driver, the tasks, the CPU
seconds the workers spent in tasks (the in-process run: its process's), the seconds;
then the ratio of the 1-worker time to the 2-worker time (target 1.6 on a
2-core machine).  The in-process search (two threads from 3,000 secrets) is
timed beside them for scale.  The machine's load average is printed first and
last: the figures are only as quiet as the machine was.

    python benchmarks/cluster.py [--quick] [--rounds N] [--bulls] [--no-in-process]
    python benchmarks/cluster.py --lookahead [--rounds N] [--widths 8,8,4] [--also parts]
    python benchmarks/cluster.py --total [--depth 3] [--rounds N] [--no-in-process] [--split]
                                 [--only "MM(4,8)"]
    python benchmarks/cluster.py --help

``--quick``: MM(4,6) and MM(4,7) only (seconds); default: MM(4,7) and MM(4,8)
(a few minutes); ``--bulls``: Bulls and Cows too.  ``--lookahead``: the
lookahead of MM(5,8) instead (``--widths``, ``--also``; default 8,8,4 and
parts, about 40 s in-process on an idle machine), in-process and then on 1
and 2 workers, each run's file compared with the in-process one.  ``--total``:
``bound --total`` of MM(4,8) and MM(5,6) (``--only`` one) at ``--depth`` (3), in-process and then
on 1 and 2 workers (the bound and the sets bounded beside each time); with
``--split``, on 2 workers only, the leading guess's large parts shared by both
workers (the default, ``bounds.root.SPLIT_FROM``) and each bounded by one task,
in turn, ``--rounds`` times: the time without over the time with, each round.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import strategytree as st
from strategytree import workers
from strategytree.search import build_optimal

from _common import print_machine


def arg(name: str, default: int) -> int:
    """The number after ``name`` on the command line, or ``default``."""
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def option(name: str, default: str) -> str:
    """The text after ``name`` on the command line, or ``default``."""
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def measured(call: Callable[[], object], client=None) -> tuple[object, float, float, float]:
    """``call()``'s answer, its seconds, the CPU seconds spent (by the workers in
    tasks, else by this process) and this process's CPU seconds."""
    if client is not None:
        client.run(lambda: workers.SPENT.__setitem__(0, 0.0))
    started, cpu = time.perf_counter(), time.process_time()
    answer = call()
    seconds, driver = time.perf_counter() - started, time.process_time() - cpu
    spent = driver
    if client is not None:
        spent = sum(client.run(lambda: workers.SPENT[0]).values())
    return answer, seconds, spent, driver


@contextmanager
def cluster(count: int) -> Iterator[object]:
    """The client of a local cluster of ``count`` single-threaded worker processes."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as local, \
            Client(local) as client:
        yield client


def one_then_two(rounds: int, warm: Callable[[object], object],
                 run: Callable[[object, int], tuple[float, str]], label: str = "") -> None:
    """``rounds`` times, a cluster of 1 and then of 2 workers: ``warm(client)``
    loads its workers' kernels, ``run(client, workers)`` is the run timed (its
    seconds, and its row of the table, printed); then the 1-worker time over
    the 2-worker time, each round."""
    times: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(rounds):
        for count in (1, 2):
            with cluster(count) as client:
                warm(client)
                seconds, row = run(client, count)
            times[count].append(seconds)
            print(row, flush=True)
    ratios = [a / b for a, b in zip(times[1], times[2])]
    print(f"{label}2 workers over 1: " + ", ".join(f"{r:.2f}x" for r in ratios), flush=True)


def tasks_done(detail: str) -> str:
    """The tasks done, from a run's last progress detail."""
    return detail.split("tasks ")[1].split(" done")[0]


def timed(game, client=None) -> tuple[float, int, str, int, float]:
    """Seconds, sets searched, the last progress detail, the tree's total, and
    the CPU seconds spent (by the workers in tasks, else by this process)."""
    seen = []
    tree, seconds, cpu, _ = measured(
        lambda: build_optimal(game, client=client, progress=seen.append), client)
    return seconds, seen[-1].done, seen[-1].detail, st.verify(tree, game).total, cpu


def lookahead_main() -> None:
    """The lookahead of MM(5,8): in-process, then 1 and 2 workers in turn."""
    from strategytree.lookahead import build_lookahead

    game, widths, also = st.mastermind(5, 8), option("--widths", "8,8,4"), option("--also", "parts")
    rounds = arg("--rounds", 1)
    print(f"load average at the start: {os.getloadavg()}, {os.cpu_count()} cores")
    build_lookahead(st.mastermind(3, 4), widths=(2,), also=also)  # this process's kernels

    def run(client=None) -> tuple[float, str, str, float, float]:
        seen = []
        tree, seconds, cpu, driver = measured(
            lambda: build_lookahead(game, widths=widths, also=also, client=client,
                                    progress=seen.append), client)
        return seconds, st.dumps(tree), seen[-1].detail, cpu, driver

    print(f"MM(5,8) --widths {widths} --also {also}")
    print("| workers | total | completions | tasks | CPU in tasks (s) | driver CPU (s) | time (s) "
          "| same file |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    seconds, here, detail, cpu, _ = run()
    total = st.verify(st.loads(here), game).total
    completions = detail.split(" completions")[0]
    print(f"| in-process | {total:,} | {completions} | - | {cpu:.1f} | - | {seconds:.1f} | - |",
          flush=True)

    def on(client, count: int) -> tuple[float, str]:
        seconds, there, detail, cpu, driver = run(client)
        return seconds, (f"| {count} | {st.verify(st.loads(there), game).total:,} | "
                         f"{detail.split(' completions')[0]} | {tasks_done(detail)} | "
                         f"{cpu:.1f} | {driver:.1f} | {seconds:.1f} | {there == here} |")

    one_then_two(rounds, lambda client: build_lookahead(st.mastermind(3, 4), widths=(2,),
                                                        also=also, client=client), on)
    print(f"load average at the end: {os.getloadavg()}")


def total_main() -> None:
    """``bound --total``: in-process, then 1 and 2 workers in turn, per game."""
    from strategytree.bounds.total import total_lower_bound

    depth, rounds = arg("--depth", 3), arg("--rounds", 1)
    games = [("MM(4,8)", st.mastermind(4, 8)), ("MM(5,6)", st.mastermind(5, 6))]
    games = [(label, game) for label, game in games if label in option("--only", label)]
    print(f"load average at the start: {os.getloadavg()}, {os.cpu_count()} cores")
    total_lower_bound(st.mastermind(3, 4), depth=3)  # this process's kernels
    print(f"bound --total --depth {depth}")
    print("| game | workers | bound | sets bounded | tasks | CPU in tasks (s) | time (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|")

    def run(game, client=None) -> tuple[float, int, int, str, float]:
        seen = []
        result, seconds, cpu, _ = measured(
            lambda: total_lower_bound(game, depth, client=client, progress=seen.append), client)
        tasks = "-" if client is None else tasks_done(seen[-1].detail)
        return seconds, result.bound, result.sets, tasks, cpu

    def warm(client) -> None:
        total_lower_bound(st.mastermind(3, 4), 3, client=client)

    for label, game in games:
        if "--no-in-process" not in sys.argv:
            seconds, bound, sets, _, cpu = run(game)
            print(f"| {label} | in-process | {bound:,} | {sets:,} | - | {cpu:.1f} "
                  f"| {seconds:.1f} |", flush=True)

        def on(client, count: int, game=game, label=label) -> tuple[float, str]:
            seconds, bound, sets, tasks, cpu = run(game, client)
            return seconds, (f"| {label} | {count} | {bound:,} | {sets:,} | {tasks} | {cpu:.1f} "
                             f"| {seconds:.1f} |")

        if "--split" in sys.argv:
            shared_or_not(rounds, warm, on, f"{label}: ")
        else:
            one_then_two(rounds, warm, on, f"{label}: ")
    print(f"load average at the end: {os.getloadavg()}")


def shared_or_not(rounds: int, warm: Callable[[object], object],
                  run: Callable[[object, int], tuple[float, str]], label: str) -> None:
    """``rounds`` times, on 2 workers, the large parts of the leading first guess
    shared by both (:data:`strategytree.bounds.root.SPLIT_FROM`) and then each
    bounded by one task; then the time of the latter over the former, each round."""
    from strategytree.bounds import root

    default = root.SPLIT_FROM
    try:
        for _ in range(rounds):
            times = []
            for split_from in (default, 1 << 60):
                root.SPLIT_FROM = split_from  # (read by the driver, this process)
                with cluster(2) as client:
                    warm(client)
                    seconds, row = run(client, 2)
                print(row.replace("| 2 |", "| 2, shared |" if split_from == default
                                  else "| 2, one task a part |"), flush=True)
                times.append(seconds)
            print(f"{label}without sharing / with: {times[1] / times[0]:.2f}x", flush=True)
    finally:
        root.SPLIT_FROM = default


def main() -> None:
    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        return
    if "--lookahead" in sys.argv:
        lookahead_main()
        return
    if "--total" in sys.argv:
        total_main()
        return

    games = [("MM(4,6)", st.mastermind(4, 6)), ("MM(4,7)", st.mastermind(4, 7))]
    if "--quick" not in sys.argv:
        games = [("MM(4,7)", st.mastermind(4, 7)), ("MM(4,8)", st.mastermind(4, 8))]
    if "--bulls" in sys.argv:
        games.append(("Bulls and Cows", st.distinct(4, 10, distinct_guesses=True)))
    rounds = arg("--rounds", 1)
    print(f"load average at the start: {os.getloadavg()}, {os.cpu_count()} cores")
    build_optimal(st.mastermind(3, 3))  # this process's kernels
    print("| game | workers | total | sets searched | tasks | CPU in tasks (s) | time (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, game in games:
        if "--no-in-process" not in sys.argv:
            seconds, nodes, _, total, cpu = timed(game)
            print(f"| {label} | in-process | {total:,} | {nodes:,} | - | {cpu:.1f} "
                  f"| {seconds:.1f} |", flush=True)

        def on(client, count: int, game=game, label=label) -> tuple[float, str]:
            seconds, nodes, detail, total, cpu = timed(game, client)
            return seconds, (f"| {label} | {count} | {total:,} | {nodes:,} | {tasks_done(detail)} "
                             f"| {cpu:.1f} | {seconds:.1f} |")

        one_then_two(rounds, lambda client: build_optimal(st.mastermind(3, 4), client=client),
                     on, f"{label}: ")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    print_machine()
    main()
