"""The exact search's speed per set, and what it depends on (issue 38, item 3).

MM(4,7) optimal in-process (after start-up), one configuration per child process so
that each has its own numba target and a fresh search: the compile target (native;
native with LLVM's 256-bit vectors, ``STRATEGYTREE_VECTOR_BITS=256``, where the
CPU has AVX-512; older targets through ``NUMBA_CPU_NAME``; each with a numba cache
of its own),
the first size of the cache table (rows; it doubles when full, so a bigger start is
a sparser table spread over more memory), and one or two threads.  Each row prints
the sets searched (the work, whatever the machine), the time, the sets per second,
the table's last size (rows, MiB) and the child's peak RSS.

    python benchmarks/per_set.py [--game mm47|mm46|bulls] [--runs N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import print_machine

GAMES = {"mm46": "st.mastermind(4, 6)", "mm47": "st.mastermind(4, 7)",
         "bulls": "st.distinct(4, 10, distinct_guesses=True)"}

CHILD = """
import json, resource, sys, time
import strategytree as st
from strategytree.search import build_optimal, cache, driver
capacity, threads, runs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
cache.CAPACITY = capacity
driver.THREADS = threads
biggest = [0]
made = cache.Cache.__init__
def counted(self, capacity=None):
    made(self, capacity)
    biggest[0] = max(biggest[0], self.capacity)
cache.Cache.__init__ = counted
build_optimal(st.mastermind(3, 4))  # the kernels loaded (or compiled) first
game = GAME
times, sets, totals = [], [], []
for _ in range(runs):
    seen = []
    start = time.perf_counter()
    tree = build_optimal(game, progress=seen.append)
    times.append(time.perf_counter() - start)
    sets.append(seen[-1].done)
    totals.append(st.verify(tree, game).total)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"times": times, "sets": sets, "totals": totals, "rows": biggest[0],
                  "peak": peak}))
"""

#: each target's settings (its own numba cache when it has any); an older CPU's
#: name alone would keep the host's features (AVX-512 with haswell's scheduling),
#: so its features are emptied: that CPU's own
TARGETS = {"native": {}, "native, 256-bit": {"STRATEGYTREE_VECTOR_BITS": "256"},
           **{name: {"NUMBA_CPU_NAME": name, "NUMBA_CPU_FEATURES": ""}
              for name in ("znver1", "haswell", "x86-64-v2")}}


def child(game: str, target: dict[str, str], capacity: int, threads: int, runs: int,
          folder: str) -> dict:
    env = {**os.environ, **target}
    if target:
        env["NUMBA_CACHE_DIR"] = str(Path(folder) / "numba-{}".format(
            "-".join(v for v in target.values() if v)))
    code = CHILD.replace("GAME", GAMES[game])
    out = subprocess.run([sys.executable, "-c", code, str(capacity), str(threads), str(runs)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="mm47", choices=sorted(GAMES))
    parser.add_argument("--runs", type=int, default=3, help="runs per configuration (median)")
    parser.add_argument("--quick", action="store_true", help="native only, no other targets")
    parser.add_argument("--cache-folder", default=None,
                        help="where the other targets' numba caches go (default: a temporary one)")
    options = parser.parse_args()
    print_machine()
    rows = [("native", 1 << 15, 1), ("native", 1 << 15, 2), ("native", 1 << 19, 1),
            ("native", 1 << 22, 1)]
    if not options.quick:
        rows += [(name, 1 << 15, 1) for name in TARGETS if name != "native"]
    folder = options.cache_folder or tempfile.mkdtemp(prefix="strategytree-per-set-")
    print(f"{options.game} optimal, in-process after start-up, median of {options.runs}")
    print("| target | first table rows | threads | total | sets searched | time (s) "
          "| sets/s | last table rows (MiB) | peak RSS (MiB) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, capacity, threads in rows:
        got = child(options.game, TARGETS[name], capacity, threads, options.runs, folder)
        seconds = statistics.median(got["times"])
        sets = statistics.median(got["sets"])
        mib = got["rows"] * 56 / 2**20  # 5 int64 a row and 2 index slots of 8 bytes
        print(f"| {name} | {capacity:,} | {threads} | {got['totals'][-1]:,} | {sets:,.0f} "
              f"| {seconds:.2f} | {sets / seconds / 1000:,.0f} k | {got['rows']:,} ({mib:.0f}) "
              f"| {got['peak']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
