"""One full pass of the MM(5,8) kernel: 32,768 guesses x 32,768 secrets.

Prints the median of several runs of ``partition_counts`` (all partitions)
and of ``scores`` (entropy of every guess), and the same figure for a plain
numpy version of one row, scaled up, as a baseline from the same process.

    python benchmarks/kernel.py
"""

from __future__ import annotations

import time

import numpy as np

import strategytree as st
from strategytree import feedback, scoring

from _common import median_time, print_machine

print_machine()

game = st.mastermind(5, 8)
pairs = len(game.guesses) * len(game.secrets)
start = time.perf_counter()
scoring.partition_counts(game, np.arange(8), np.arange(8))
scoring.scores(game, "entropy", np.arange(8), np.arange(8))
print(f"first calls (compile or load from cache): {time.perf_counter() - start:.2f} s")

counts = median_time(lambda: scoring.partition_counts(game), repeat=5)
scored = median_time(lambda: scoring.scores(game, "entropy"), repeat=5)
# baseline: the same counts with numpy (bit encoding, popcount, bincount) for
# 512 guesses, scaled to all of them
gpos, gcnt = game.guess_bits
spos, scnt = game.secret_bits


def numpy_rows() -> None:
    for i in range(512):
        replies = feedback.replies_numpy(gpos[i], gcnt[i], spos, scnt, game.pegs)
        np.bincount(replies, minlength=game.n_replies)


numpy_full = median_time(numpy_rows, repeat=3) * len(game.guesses) / 512
print(f"MM(5,8) full pass, {pairs:,} feedbacks")
print(f"  partition_counts  {counts:.3f} s  ({pairs / counts / 1e9:.2f} G feedbacks/s)")
print(f"  scores (entropy)  {scored:.3f} s  ({pairs / scored / 1e9:.2f} G feedbacks/s)")
print(f"  numpy baseline    {numpy_full:.1f} s  (kernel is {numpy_full / counts:.0f}x faster)")
