"""`improve` on greedy trees: the total reached, and when the target was first met.

    python benchmarks/improve.py            # MM(4,7) and Bulls and Cows greedy trees
    python benchmarks/improve.py mm58       # also our greedy entropy MM(5,8) tree (10 minutes)

For each case: the greedy tree's total, the improved total, the optimum (or
target), the subtrees searched, and the seconds until the total first met
the target (progress is sampled four times a second) and in all.  The
targets are those of issue 16: within 0.1% of 11,228 (MM(4,7)) and 0.2% of
26,274 (Bulls and Cows) within a minute; MM(5,8) at most 179,000 within 10
minutes.  Kernels are warmed first (their compile is not counted).
"""

from __future__ import annotations

import sys
import time

import strategytree as st
from strategytree.builders import build_greedy
from strategytree.improve import improve
from strategytree.presets import bulls_and_cows

from _common import print_machine

CASES = [
    # (name, game, rule, settings, target, budget in seconds)
    ("MM(4,7) entropy", lambda: st.mastermind(4, 7), "entropy", {"exact_below": 2401}, 11_239, 60),
    ("MM(4,7) minimax", lambda: st.mastermind(4, 7), "minimax", {"exact_below": 2401}, 11_239, 60),
    ("Bulls and Cows entropy", bulls_and_cows, "entropy",
     {"exact_below": 100, "widths": ""}, 26_326, 60),
    ("Bulls and Cows minimax", bulls_and_cows, "minimax",
     {"exact_below": 100, "widths": "1"}, 26_326, 60),
    # the same, wider, with and without the candidates' large parts searched again (--deepen)
    ("Bulls and Cows minimax, wide", bulls_and_cows, "minimax",
     {"exact_below": 100, "widths": "6", "finalists": "3"}, 26_326, 60),
    ("Bulls and Cows minimax, deepened", bulls_and_cows, "minimax",
     {"exact_below": 100, "widths": "6", "finalists": "3", "deepen": "6,3"}, 26_326, 60),
]
MM58 = ("MM(5,8) entropy", lambda: st.mastermind(5, 8), "entropy", {"exact_below": 40},
        179_000, 600)


def run(name, make, rule, settings, target, budget) -> None:
    game = make()
    greedy = build_greedy(game, rule=rule)
    before = st.verify(greedy, game).total
    met: list[float] = []
    last: list = [None]

    def seen(progress) -> None:
        last[0] = progress
        if not met and progress.best is not None and progress.best <= target:
            met.append(progress.elapsed)

    started = time.perf_counter()
    better = improve(greedy, game, budget_seconds=budget, progress=seen, **settings)
    took = time.perf_counter() - started
    report = st.verify(better, game)
    when = f"{met[0]:.1f} s" if met else "not met"
    print(f"{name}: {before:,} -> {report.total:,} (target {target:,}, max {report.max_guesses}, "
          f"valid {report.valid}); target met at {when}, {took:.1f} s in all; "
          f"{last[0].done:,} subtrees searched; {settings}", flush=True)


if __name__ == "__main__":
    print_machine()
    improve(build_greedy(st.mastermind(3, 4)), st.mastermind(3, 4), exact_below=20)  # warm up
    for case in CASES + ([MM58] if "mm58" in sys.argv[1:] else []):
        run(*case)
