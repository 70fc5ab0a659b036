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
    python benchmarks/cluster.py --total [--depth 3] [--rounds N] [--no-in-process]

``--quick``: MM(4,6) and MM(4,7) only (seconds); default: MM(4,7) and MM(4,8)
(a few minutes); ``--bulls``: Bulls and Cows too.  ``--lookahead``: the
lookahead of MM(5,8) instead (``--widths``, ``--also``; default 8,8,4 and
parts, about 40 s in-process on an idle machine), in-process and then on 1
and 2 workers, each run's file compared with the in-process one.  ``--total``:
``bound --total`` of MM(4,8) and MM(5,6) at ``--depth`` (3), in-process and then
on 1 and 2 workers (the bound and the sets bounded beside each time).
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


def cluster(workers: int):
    """A local cluster of ``workers`` single-threaded worker processes, and its client."""
    from distributed import Client, LocalCluster

    local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                         dashboard_address=":0", silence_logs=logging.ERROR)
    return local, Client(local)


def option(name: str, default: str) -> str:
    """The text after ``name`` on the command line, or ``default``."""
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def lookahead_main() -> None:
    """The lookahead of MM(5,8): in-process, then 1 and 2 workers in turn."""
    from strategytree import workers
    from strategytree.lookahead import build_lookahead

    game, widths, also = st.mastermind(5, 8), option("--widths", "8,8,4"), option("--also", "parts")
    rounds = arg("--rounds", 1)
    print(f"load average at the start: {os.getloadavg()}, {os.cpu_count()} cores")
    build_lookahead(st.mastermind(3, 4), widths=(2,), also=also)  # this process's kernels

    def run(client=None) -> tuple[float, str, str, float, float]:
        seen = []
        if client is not None:
            client.run(lambda: workers.SPENT.__setitem__(0, 0.0))
        started, cpu = time.perf_counter(), time.process_time()
        tree = build_lookahead(game, widths=widths, also=also, client=client,
                               progress=seen.append)
        seconds, driver = time.perf_counter() - started, time.process_time() - cpu
        cpu = driver
        if client is not None:
            cpu = sum(client.run(lambda: workers.SPENT[0]).values())
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
    times: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(rounds):
        for count in (1, 2):
            local, client = cluster(count)
            try:
                build_lookahead(st.mastermind(3, 4), widths=(2,), also=also, client=client)
                seconds, there, detail, cpu, driver = run(client)
            finally:
                client.close()
                local.close()
            times[count].append(seconds)
            done = detail.split("tasks ")[1].split(" done")[0]
            print(f"| {count} | {st.verify(st.loads(there), game).total:,} | "
                  f"{detail.split(' completions')[0]} | {done} | {cpu:.1f} | {driver:.1f} | "
                  f"{seconds:.1f} | {there == here} |", flush=True)
    ratios = [a / b for a, b in zip(times[1], times[2])]
    print("2 workers over 1: " + ", ".join(f"{r:.2f}x" for r in ratios), flush=True)
    print(f"load average at the end: {os.getloadavg()}")


def total_main() -> None:
    """``bound --total``: in-process, then 1 and 2 workers in turn, per game."""
    from strategytree import workers
    from strategytree.search.total import total_lower_bound

    depth, rounds = arg("--depth", 3), arg("--rounds", 1)
    games = [("MM(4,8)", st.mastermind(4, 8)), ("MM(5,6)", st.mastermind(5, 6))]
    print(f"load average at the start: {os.getloadavg()}, {os.cpu_count()} cores")
    total_lower_bound(st.mastermind(3, 4), depth=3)  # this process's kernels
    print(f"bound --total --depth {depth}")
    print("| game | workers | bound | sets bounded | tasks | CPU in tasks (s) | time (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|")

    def run(game, client=None) -> tuple[float, int, int, str, float]:
        seen = []
        if client is not None:
            client.run(lambda: workers.SPENT.__setitem__(0, 0.0))
        started, cpu = time.perf_counter(), time.process_time()
        result = total_lower_bound(game, depth, client=client, progress=seen.append)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        tasks = "-"
        if client is not None:
            cpu = sum(client.run(lambda: workers.SPENT[0]).values())
            tasks = seen[-1].detail.split("tasks ")[1].split(" done")[0]
        return seconds, result.bound, result.sets, tasks, cpu

    for label, game in games:
        if "--no-in-process" not in sys.argv:
            seconds, bound, sets, _, cpu = run(game)
            print(f"| {label} | in-process | {bound:,} | {sets:,} | - | {cpu:.1f} | {seconds:.1f} |",
                  flush=True)
        times: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(rounds):
            for count in (1, 2):
                local, client = cluster(count)
                try:
                    total_lower_bound(st.mastermind(3, 4), 3, client=client)  # the kernels
                    seconds, bound, sets, tasks, cpu = run(game, client)
                finally:
                    client.close()
                    local.close()
                times[count].append(seconds)
                print(f"| {label} | {count} | {bound:,} | {sets:,} | {tasks} | {cpu:.1f} "
                      f"| {seconds:.1f} |", flush=True)
        ratios = [a / b for a, b in zip(times[1], times[2])]
        print(f"{label}: 2 workers over 1: " + ", ".join(f"{r:.2f}x" for r in ratios), flush=True)
    print(f"load average at the end: {os.getloadavg()}")


def main() -> None:
    from distributed import Client, LocalCluster

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
