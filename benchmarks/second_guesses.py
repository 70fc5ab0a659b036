"""Can a second guess of examples/mm58.txt be bettered?  Every guess tried.

At a node after the first guess (named by its reply, e.g. ``21``), every class
of guess (the history's symmetry group; colours no secret has merged) is tried
as ``improve --widths 0,all --finalists 0,all`` would: ranked by greedy
completions, then each completed with its parts of up to 700 secrets solved
exactly, under the total of the subtree in place as the bound.  Where no
candidate has a larger part, "none better" proves the guess in place optimal
for that node (within 7 guesses, as the record).

    python benchmarks/second_guesses.py            # the nodes whose guess in place has small parts only
    python benchmarks/second_guesses.py 21 03      # these nodes

Prints, per node: its secrets, the guesses tried, how many of them have a part
above 700 (those completed greedily: not a proof for them), the total in place,
the best found and the time (one core).
"""

from __future__ import annotations

import sys
import threading
import time

import numpy as np

import strategytree as st
from strategytree.improve import ALL, RULES, Searcher, Tally, split
from strategytree.symmetry import Symmetry

from _common import ROOT

EXACT_BELOW = 700
game = st.mastermind(5, 8)
searcher = Searcher(game, exact_below=EXACT_BELOW, rules=RULES, max_guesses=7,
                    finalists=(0, ALL), stop=threading.Event(), tally=Tally())
record = st.load(ROOT / "examples" / "mm58.txt")
index = searcher.index_of(record.root, np.arange(len(game.secrets)), 0, Symmetry.of(game), 0)
second = {str(game.reply(index.reply[i])): i for i in index.kids[0]}
asked = sys.argv[1:] or [
    reply for reply, i in second.items()
    if len(index.sets[i]) > EXACT_BELOW
    and all(len(index.sets[k]) <= EXACT_BELOW for k in index.kids[i])
]
for reply in asked:
    i = second[reply]
    S, total = index.sets[i], int(index.total[i])
    sym, played = index.symmetry(i)
    started = time.perf_counter()
    tried = searcher.candidates(S, sym, ALL, int(index.guess[i]))
    large = sum(any(len(part) > EXACT_BELOW for _, part in split(game, S, g)) for g in tried)
    found = searcher.research(S, 1, sym, played, total, int(index.guess[i]), ALL)
    best = total if found is None else found[1]
    print(f"{index.where(i)} ({len(S):,} secrets, {index.node[i].guess} in place): "
          f"{len(tried)} other guesses ({large} with a part above {EXACT_BELOW}), "
          f"total {total:,}, best found {best:,}"
          f"{'' if found is None else ' BETTER'}, {(time.perf_counter() - started) / 60:.1f} min",
          flush=True)
