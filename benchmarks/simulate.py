"""Seed 004's measurement: the average number of guesses over 10,000 random
games of Bulls and Cows (4 distinct digits of 10; the seed's sampler: 5.18,
random consistent guesses: 5.45).

For each player: the average, max and spread over several seeds (run k plays
10,000 secrets drawn with seed k, and a randomised rule draws with seed k too),
and the time of one run of 10,000 games, in this process after start-up.
Exact figures over all 5,040 secrets for comparison (README's greedy table).

    python benchmarks/simulate.py [--quick] [--runs K]
"""

from __future__ import annotations

import sys
import time

from strategytree.builders import GreedyChooser
from strategytree.presets import preset
from strategytree.simulate import simulate, simulate_runs, spread

from _common import print_machine

print_machine()

quick = "--quick" in sys.argv
runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else (2 if quick else 5)
games = 2_000 if quick else 10_000
game = preset("bulls-and-cows")
simulate(game, GreedyChooser(game, "first"))  # compile / load the kernels

players = [
    ("random consistent", "random", "consistent"),
    ("entropy, pool sample:10", "entropy", "sample:10"),
    ("entropy, pool sample:100", "entropy", "sample:100"),
    ("minimax, pool sample:100", "minimax", "sample:100"),
    ("entropy, pool consistent", "entropy", "consistent"),
    ("entropy, pool all", "entropy", "all"),
]
print(f"{game.name}: {games:,} random games per run, {runs} runs (seeds 0..{runs - 1})")
print("| player | average | sd over runs | max | time per run (s) | all 5,040 secrets: average |")
print("|---|---:|---:|---:|---:|---:|")
for label, rule, pool in players:
    started = time.perf_counter()
    results = simulate_runs(
        game, lambda seed, r=rule, p=pool: GreedyChooser(game, r, p, seed=seed), runs=runs,
        games=games
    )
    per_run = (time.perf_counter() - started) / runs
    s = spread(results)
    exact = simulate(game, GreedyChooser(game, rule, pool, seed=0)).average
    print(
        f"| {label} | {s.mean:.4f} | {s.stdev:.4f} | {s.worst} | {per_run:.2f} | {exact:.4f} |"
    )
