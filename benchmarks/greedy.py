"""Speed of the greedy builders.

1. MM(4,6), each rule, after start-up (median of 5 builds in this process).
2. MM(5,8), entropy, every guess considered at every node: the whole
   ``strategytree generate`` process with a warm numba cache (median of 3),
   and its peak memory.
3. How the cost grows with the game (entropy, median of 3 in this process).

    python benchmarks/greedy.py [--quick]
"""

from __future__ import annotations

import sys
import tempfile

import strategytree as st
from strategytree.builders import build_greedy

from _common import median_command, median_time, print_machine

print_machine()

quick = "--quick" in sys.argv
game = st.mastermind(4, 6)
build_greedy(game)  # compile / load the kernels
print("MM(4,6), after start-up (median of 5):")
for rule in ("minimax", "expected", "entropy", "parts"):
    print(f"  {rule:9s} {median_time(lambda rule=rule: build_greedy(game, rule=rule)):.3f} s")

with tempfile.TemporaryDirectory() as folder:
    args = ["generate", "-p", "5", "-c", "8", "--rule", "entropy", "-o", f"{folder}/mm58.txt",
            "--force"]
    whole, peak = median_command(args, repeat=1 if quick else 3)
print(f"MM(5,8) entropy, whole process, warm cache: {whole:.2f} s, peak RSS {peak} MiB")

print("time vs game size (entropy, in-process, median of 3):")
print("| game | secrets | time (s) |")
print("|---|---:|---:|")
sizes = [(4, 6), (4, 7), (5, 6), (5, 7), (5, 8), (6, 6)]
for pegs, colors in sizes[:3] if quick else sizes:
    g = st.mastermind(pegs, colors)
    seconds = median_time(lambda g=g: build_greedy(g, rule="entropy"), repeat=1 if quick else 3)
    print(f"| MM({pegs},{colors}) | {len(g.secrets):,} | {seconds:.2f} |")
