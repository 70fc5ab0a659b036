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

``--quick``: MM(4,6) and MM(4,7) only (seconds); default: MM(4,7) and MM(4,8)
(a few minutes); ``--bulls``: Bulls and Cows too.
"""

from __future__ import annotations

import logging
import os
import sys
import time

import strategytree as st
from strategytree.search import build_optimal, tasks


def arg(name: str, default: int) -> int:
    """The number after ``name`` on the command line, or ``default``."""
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def timed(game, client=None) -> tuple[float, int, str, int, float]:
    """Seconds, sets searched, the last progress detail, the tree's total, and
    the CPU seconds spent (by the workers in tasks, else by this process)."""
    seen = []
    if client is not None:
        client.run(lambda: tasks.SPENT.__setitem__(0, 0.0))
    started, cpu = time.perf_counter(), time.process_time()
    tree = build_optimal(game, client=client, progress=seen.append)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    if client is not None:
        cpu = sum(client.run(lambda: tasks.SPENT[0]).values())
    return seconds, seen[-1].done, seen[-1].detail, st.verify(tree, game).total, cpu


def main() -> None:
    from distributed import Client, LocalCluster

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
        times: dict[int, list[float]] = {1: [], 2: []}
        if "--no-in-process" not in sys.argv:
            seconds, nodes, _, total, cpu = timed(game)
            print(f"| {label} | in-process | {total:,} | {nodes:,} | - | {cpu:.1f} "
                  f"| {seconds:.1f} |", flush=True)
        for _ in range(rounds):
            for workers in (1, 2):
                with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
                        Client(cluster) as client:
                    build_optimal(st.mastermind(3, 4), client=client)  # load the kernels
                    seconds, nodes, detail, total, cpu = timed(game, client)
                times[workers].append(seconds)
                done = detail.split(" done")[0].removeprefix("tasks ")
                print(f"| {label} | {workers} | {total:,} | {nodes:,} | {done} | {cpu:.1f} "
                      f"| {seconds:.1f} |", flush=True)
        ratios = [a / b for a, b in zip(times[1], times[2])]
        print(f"{label}: 2 workers over 1: " + ", ".join(f"{r:.2f}x" for r in ratios), flush=True)
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
