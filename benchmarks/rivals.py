"""Can a guess of examples/mm58.txt be bettered?  Its rivals, one by one.

A node of the record is named by the replies that lead to it: ``21`` is the
second guess, after AABBC 21; ``01/11`` the third, after AABBC 01 and the reply
11 to the second guess.  The rivals of the guess in place (at the second level
every class of guess under the history's symmetry group, colours no secret has
merged; deeper, the 200 best guesses of each rule, as ``improve --widths
0,30,200`` takes them; ``--width`` sets either) are ranked by the totals of
their parts' greedy subtrees, as ``improve --finalists`` ranks them, and those
of ``--ranks`` are completed as ``improve`` completes them: parts of up to 700
secrets solved exactly, larger ones greedily with their small sets solved
exactly (with ``--deepen W,F``, then searched again as ``improve --deepen``
searches them: a rival judged by what its large parts can become, as the guess
in place was), under the total in place plus ``--margin``; those under it are
printed with their totals (with ``--ranks``, the others too, as ``>= limit``).
Where every rival is completed and none has a part above 700 (those completed
greedily are no proof), "none better" proves the guess in place optimal for
the node, within 7 guesses as the record.  ``--prove`` settles a node outright:
the exact search of its whole set (every guess, the history's symmetry group,
within 7 guesses) under the total in place, as ``improve --exact-below`` solves
its sets; "optimal" is a proof that no subtree of the node does better.

    python benchmarks/rivals.py  # the second-level nodes whose guess in place has small parts only
    python benchmarks/rivals.py 21 03            # these nodes, every rival
    python benchmarks/rivals.py 10 --ranks 5:26 --margin 30
    python benchmarks/rivals.py 01/11 --ranks 0:150 --margin 3
    python benchmarks/rivals.py 01 --ranks 0:0 --show 25     # the ranking only
    python benchmarks/rivals.py 02 --width 30 --ranks 0:13 --deepen 50,5 --margin 30
    python benchmarks/rivals.py 01/12 --prove    # the exact search of the node's set

Prints, per node: its secrets, the guess in place, its total and its rank, the
first ``--show`` of the ranking (greedy totals against the guess in place's),
the rivals completed (one core), and the best found.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import strategytree as st
from strategytree.errors import ArgumentError
from strategytree.improve import RULES, improve_settings
from strategytree.nodesearch import ALL, NodeSearch, SearchSettings, split
from strategytree.symmetry import Symmetry

from _common import ROOT, print_machine

print_machine()

EXACT_BELOW = 700


def ranks(text: str) -> slice:
    """``FIRST:LAST`` (either may be left out), as a slice of the ranking."""
    first, colon, last = text.partition(":")
    if not colon or not all(end.isdigit() for end in (first, last) if end):
        raise argparse.ArgumentTypeError(f"expected FIRST:LAST (e.g. 30:150), got {text!r}")
    return slice(int(first) if first else None, int(last) if last else None)


def width(text: str) -> int:
    """A count of rivals a rule, or ``all``."""
    if text != "all" and not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a count or all, got {text!r}")
    return ALL if text == "all" else int(text)


def deepen(text: str) -> tuple[int, ...]:
    """``W,F``, as ``improve --deepen`` takes it."""
    try:
        return SearchSettings.of(deepen=text).deepen
    except ArgumentError as problem:
        raise argparse.ArgumentTypeError(str(problem)) from None


parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("nodes", nargs="*", help="nodes by their replies, e.g. 21 or 01/11")
parser.add_argument("--width", type=width, help="rivals per rule, or all "
                    "[default: all at the second level, 200 below]")
parser.add_argument("--ranks", type=ranks, default=slice(None),
                    help="the ranks completed, FIRST:LAST [default: every one]")
parser.add_argument("--margin", type=int, default=0,
                    help="completed under the total in place plus this [default: 0, only better]")
parser.add_argument("--show", type=int, default=0, help="print the first N of the ranking")
parser.add_argument("--deepen", type=deepen, default=(),
                    help="the rivals' large parts searched again, W a rule, F finalists (W,F) "
                         "[default: left greedy]")
parser.add_argument("--prove", action="store_true",
                    help="solve each node's whole set exactly under its total in place, no ranking")
options = parser.parse_args()
each = options.ranks != slice(None)  # every rival printed, else those under the limit only

game = st.mastermind(5, 8)
searcher = NodeSearch(game, improve_settings(exact_below=EXACT_BELOW, rules=RULES, max_guesses=7,
                                            finalists=(0, 0), deepen=options.deepen))
record = st.load(ROOT / "examples" / "mm58.txt")
index = searcher.index_of(record.root, np.arange(len(game.secrets)), 0, Symmetry.of(game), 0)


def node_at(path: str) -> int:
    """The index of the node reached by the replies of ``path`` (``01/11``)."""
    i = 0
    for reply in path.split("/"):
        kids = {str(game.reply(index.reply[k])): k for k in index.kids[i]}
        if reply not in kids:
            raise SystemExit(f"rivals.py: no node {path!r} in the record (no reply {reply} "
                             f"after {index.where(i)}; expected one of {', '.join(kids)})")
        i = kids[reply]
    return i


def name(g: int) -> str:
    return game.code_text(game.guesses[g])


asked = options.nodes or [
    str(game.reply(index.reply[i])) for i in index.kids[0]
    if len(index.sets[i]) > EXACT_BELOW
    and all(len(index.sets[k]) <= EXACT_BELOW for k in index.kids[i])
]
for path in asked:
    i = node_at(path)
    level = path.count("/") + 1
    S, total, in_place = index.sets[i], int(index.total[i]), int(index.guess[i])
    sym, played = index.symmetry(i)
    started = time.perf_counter()
    if options.prove:
        found = searcher.exact.solve(S, level, sym, played, total)
        print(f"{index.where(i)} ({len(S):,} secrets): {name(in_place)} in place, total {total:,}: "
              + ("optimal" if found is None else f"{found[0]:,} ({found[0] - total:+d}) BETTER")
              + f", {(time.perf_counter() - started) / 60:.1f} min", flush=True)
        continue
    per_rule = options.width if options.width is not None else ALL if level == 1 else 200
    scored = searcher.scored(S, sym, searcher.candidates(S, sym, per_rule, -1))
    rivals = [g for _, g in scored]
    rank = rivals.index(in_place) if in_place in rivals else None
    footing = scored[rank][0] if rank is not None else searcher.greedy_footing(S, sym, in_place)
    print(f"{index.where(i)} ({len(S):,} secrets): {name(in_place)} in place, total {total:,}; "
          f"{len(rivals)} guesses ranked, the guess in place {rank} "
          f"(greedy {footing:,}), {time.perf_counter() - started:.0f} s", flush=True)
    for r, (greedy, g) in enumerate(scored[: options.show]):
        print(f"  rank {r} {name(g)}: greedy {greedy:,} ({greedy - footing:+d})", flush=True)
    limit, best, large, tried = total + options.margin, total, 0, 0
    for r, g in list(enumerate(rivals))[options.ranks]:
        if g == in_place:
            continue
        began = time.perf_counter()
        above = sum(len(part) > EXACT_BELOW for _, part in split(game, S, g))
        found = searcher.with_guess(S, level, sym, played, g, limit)
        tried, large = tried + 1, large + (above > 0)
        if found is not None:
            best = min(best, found[1])
        if found is None and not each:
            continue
        print(f"  rank {r} {name(g)}: "
              + (f">= {limit:,}" if found is None else f"{found[1]:,} ({found[1] - total:+d})")
              + (f", {above} parts above {EXACT_BELOW}" if above else "")
              + f", {time.perf_counter() - began:.0f} s", flush=True)
    if tried:
        print(f"  {tried} rivals completed ({large} with a part above {EXACT_BELOW}), "
              f"best {best:,}{' BETTER' if best < total else ' (none better)'}, "
              f"{(time.perf_counter() - started) / 60:.1f} min", flush=True)
