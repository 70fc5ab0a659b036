"""Speed of the exact search (``strategytree generate --method optimal`` and ``bound``).

1. MM(4,6), optimal: the whole ``strategytree generate --method optimal``
   process with a warm numba cache (median of 3), and its peak memory.
2. ``strategytree bound --pegs 4 --colors 6``, whole process (median of 3).
3. In this process, after start-up: MM(4,6) (median of 3), 4 distinct of 8 with
   distinct guesses (median of 3), MM(4,7) (one run) and, with ``--bulls``,
   Bulls and Cows (one run, on two threads; about a minute and a half) and its
   proven worst case (``prove_bound``, one run).  Each tree is verified and its total
   printed beside the published one, with the number of sets the search
   searched (the work done, whatever the machine's load).

    python benchmarks/optimal.py [--quick] [--bulls]
"""

from __future__ import annotations

import sys
import tempfile

import strategytree as st
from strategytree.literature import published
from strategytree.search import build_optimal, prove_bound

from _common import median_command, median_time, print_machine

print_machine()

quick = "--quick" in sys.argv
bulls = "--bulls" in sys.argv
repeat = 1 if quick else 3

with tempfile.TemporaryDirectory() as folder:
    args = ["generate", "--method", "optimal", "-p", "4", "-c", "6", "--force"]
    args += ["-o", f"{folder}/mm46.txt"]
    median_command(args, repeat=1)  # warms the numba cache
    whole, peak = median_command(args, repeat=repeat)
print(f"MM(4,6) optimal, whole process, warm cache: {whole:.2f} s, peak RSS {peak} MiB")
bound, _ = median_command(["bound", "--pegs", "4", "--colors", "6"], repeat=repeat)
print(f"bound MM(4,6), whole process: {bound:.2f} s")

games = [
    ("MM(4,6)", "MM(4,6)", lambda: st.mastermind(4, 6), repeat),
    ("4 distinct of 8", "4-distinct-of-8", lambda: st.distinct(4, 8, distinct_guesses=True),
     repeat),
    ("MM(4,7)", "MM(4,7)", lambda: st.mastermind(4, 7), 1),
]
if bulls:
    games.append(
        ("Bulls and Cows", "bulls-and-cows", lambda: st.distinct(4, 10, distinct_guesses=True), 1)
    )
build_optimal(st.mastermind(2, 3))  # load the kernels
print("in-process, after start-up:")
print("| game | total | max | published | sets searched | time (s) |")
print("|---|---:|---:|---:|---:|---:|")
for label, key, make, runs in games:
    game = make()
    trees = []
    seen = []

    def run(g=game, t=trees, s=seen):
        t.append(build_optimal(g, progress=s.append))

    seconds = median_time(run, repeat=runs)
    report = st.verify(trees[-1], game)
    figure = published(key, "optimal")
    known = f"{figure.low:,}" if figure else "-"
    nodes = seen[-1].done if seen else 0
    print(f"| {label} | {report.total:,} | {report.max_guesses} | {known} | {nodes:,} "
          f"| {seconds:.2f} |", flush=True)

if bulls:
    game = st.distinct(4, 10, distinct_guesses=True)
    answer = []
    seconds = median_time(lambda: answer.append(prove_bound(game)), repeat=1)
    print(f"bound Bulls and Cows: {answer[-1]} guesses, proved in {seconds:.1f} s")
