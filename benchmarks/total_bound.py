"""Proven lower bounds on the least total (``strategytree bound --total``), with counts.

Prints, for each game and depth, the bound, whether the depth was reached, the
sets bounded (a count the machine's load does not change) and the time; the
published optimum beside it when there is one.  MM(5,8) runs at depth 3 for at
most ``--seconds`` (default 1800: the README's figure).

    python benchmarks/total_bound.py              # small games, then MM(5,8) for 30 minutes
    python benchmarks/total_bound.py --quick      # small games only
    python benchmarks/total_bound.py --seconds 600
    python benchmarks/total_bound.py --again      # --exact-below: a set asked again searched
                                                  # with no limit, or under its limit again
    python benchmarks/total_bound.py --root       # --exact-below: the exact search of a small
                                                  # set compiled from its root, or root in Python
    python benchmarks/total_bound.py --small-sets # the exact searches of MM(5,8)'s small sets
    python benchmarks/total_bound.py --part       # one part of MM(5,8) searched exactly
    python benchmarks/total_bound.py --part --size 1250 --seconds 60  # a large one, stopped
    python benchmarks/total_bound.py --one-level  # a set's one-level bound: bits or counted

With ``--again``, the full-depth bounds with ``--exact-below`` of :data:`EXACT_RUNS`,
each with :data:`strategytree.bounds.sets.AGAIN_UNLIMITED` on and off: the bound,
the sets bounded, and the CPU seconds of this process.  With ``--root``, the runs of
:data:`ROOT_RUNS` with the root of each small set's exact search compiled (as shipped)
and in Python (``Search.py_levels`` 1, as before): the bound, the sets bounded and
searched exactly, and the CPU seconds.  With ``--small-sets``, the second of them
(AABCD's part of 429 secrets of MM(5,8) at depth 3, exact below 400) three times,
with the sets the exact searches searched: run it with two installs side by side
to compare them (it reads the counts from outside, the same in every version).
With ``--one-level``, the one-level bound of the sets after AABCD and a second guess of
MM(5,8), by size, read off the replies met as bits
(:func:`~strategytree.bounds.sets.least_bound_scanned`) and counted
(:func:`~strategytree.bounds.sets.scan_bounds`), in this process: where one is
faster than the other (:data:`~strategytree.bounds.sets.BITS_PER_PART`).
With ``--part``, the exact optimum of ABCDE's part of 510 secrets of MM(5,8) (one
large search, as the MM(5,8) run's ``--exact-parts 1400`` asks of its parts) three
times, counted the same way; ``--size N``: ABCDE's part nearest N secrets instead,
``--seconds S``: each search stopped after S seconds (wall; the CPU is printed).
"""

from __future__ import annotations

import statistics
import sys
import time

import strategytree as st
from strategytree.bounds.total import total_lower_bound
from strategytree.literature import published
from strategytree.presets import bulls_and_cows

from _common import print_machine

RUNS = [
    (st.mastermind(4, 6), (1, 2, 3, 4)),
    (bulls_and_cows(), (1, 2, 3)),
    (st.mastermind(4, 7), (1, 2, 3)),
]


#: (game, depth, exact_below) of the --again runs
EXACT_RUNS = [
    (st.mastermind(4, 7), 8, 300),
    (st.mastermind(4, 7), 8, 100),
    (st.mastermind(5, 5), 8, 300),
]


def again() -> None:
    """The --again table (see the module doc)."""
    from strategytree.bounds import sets

    default = sets.AGAIN_UNLIMITED
    for game, depth, below in EXACT_RUNS:
        for unlimited in (True, False):
            sets.AGAIN_UNLIMITED = unlimited
            started = time.process_time()
            result = total_lower_bound(game, depth, exact_below=below)
            cpu = time.process_time() - started
            print(f"{game.name:>10} depth {depth}, exact below {below}, asked again "
                  f"{'with no limit' if unlimited else 'under its limit'}: >= {result.bound:,}, "
                  f"{result.sets:,} sets, {cpu:.1f} s of CPU", flush=True)
    sets.AGAIN_UNLIMITED = default


#: (game, first guess, size of its part, depth) of the --root runs: a full-depth bound, and
#: the part of MM(5,8) nearest the size after the first guess, at the depth (exact below 400)
ROOT_RUNS = [
    (st.mastermind(4, 7), None, None, 8),
    (st.mastermind(5, 8), "AABCD", 430, 3),
    (st.mastermind(5, 8), "AABBC", 386, 3),
]


def root_in_python() -> None:
    """The --root table (see the module doc)."""
    from strategytree.bounds.root import RootGuesses
    from strategytree.bounds.sets import ExactSets, SetBounder
    from strategytree.search import subsets

    compiled = subsets.Exact.search_of

    def python_root(problem):
        search = compiled(problem)
        search.py_levels = 1
        return search

    for game, first, size, depth in ROOT_RUNS:
        for root in ("compiled", "in Python"):
            subsets.Exact.search_of = staticmethod(python_root if root == "in Python"
                                                   else compiled)
            started = time.process_time()
            if first is None:
                result = total_lower_bound(game, depth, exact_below=300)
                what, bound, sets, exact = "full depth, exact below 300", result.bound, \
                    result.sets, ""
            else:
                guesses = RootGuesses(game, True)
                i = [game.code_text(game.guesses[g]) for g in guesses.guesses].index(first)
                part = min(guesses.parts(i), key=lambda part: abs(len(part) - size))
                bounder = SetBounder(game, True, exact=ExactSets(400))
                sym = guesses.sym.after(game.guesses[guesses.guesses[i]])
                started = time.process_time()  # (after the reply table)
                bound = bounder.bound(part, depth, sym=sym)[0]
                what = f"{first}'s part of {len(part)}, depth {depth}, exact below 400"
                sets, exact = bounder.sets, f" ({bounder.solved_sets:,} searched exactly)"
            cpu = time.process_time() - started
            print(f"{game.name:>10} {what}, root {root}: >= {bound:,}, {sets:,} sets{exact}, "
                  f"{cpu:.1f} s of CPU", flush=True)
    subsets.Exact.search_of = compiled


#: the --part run: (game, first guess, part's size, its exact optimum asked) (as
#: ``--exact-parts 1400`` asks it of MM(5,8)'s parts)
PART_RUN = (st.mastermind(5, 8), "ABCDE", 510)


def small_sets(runs: int = 3, whole_part: bool = False, size: int | None = None,
               seconds: float | None = None) -> None:
    """The --small-sets runs, or with ``whole_part`` the --part runs, of the part
    nearest ``size`` secrets, each stopped after ``seconds`` (wall) when given
    (see the module doc)."""
    import threading

    from strategytree.bounds.root import RootGuesses
    from strategytree.bounds.sets import ExactSets, SetBounder
    from strategytree.runner import Stop
    from strategytree.search import subsets

    searched = [0]
    plain = subsets.Exact.searched
    last = [None, 0]  # the last search's problem, and its count then

    def counted(self, *args):
        try:
            return plain(self, *args)
        finally:  # (a search stopped half-way counts too)
            p = self.whole.p if self.whole is not None else self.last
            if p is not None:  # (a problem may serve many sets: its count goes on)
                count = int(p.stats[0])
                searched[0] += count - (last[1] if p is last[0] else 0)
                last[:] = [p, count]

    subsets.Exact.searched = counted
    game, first, usual, depth = (*PART_RUN, 1) if whole_part else ROOT_RUNS[1]
    size = size or usual
    guesses = RootGuesses(game, True)
    i = [game.code_text(game.guesses[g]) for g in guesses.guesses].index(first)
    part = min(guesses.parts(i), key=lambda part: abs(len(part) - size))
    sym = guesses.sym.after(game.guesses[guesses.guesses[i]])
    for _ in range(runs):
        stop = Stop()
        bounder = SetBounder(game, True, stop=stop,
                             exact=ExactSets(400, 1400 if whole_part else 0))
        searched[0] = 0
        started = time.process_time()  # (after the reply table)
        timer = threading.Timer(seconds, stop.set) if seconds else None
        if timer:
            timer.start()
        bound, reached = bounder.bound(part, depth, sym=sym, part=whole_part)
        if timer:
            timer.cancel()
        asked = "its exact optimum" if whole_part else f"depth {depth}, exact below 400"
        if reached < 0:
            asked += f", stopped after {seconds:g} s"
        print(f"{game.name:>10} {first}'s part of {len(part)}, {asked}: "
              f">= {bound:,}, {bounder.solved_sets:,} exact searches, {searched[0]:,} sets "
              f"searched in them, {time.process_time() - started:.1f} s of CPU", flush=True)
    subsets.Exact.searched = plain


def show(game: st.Game, depth: int, seconds: float | None = None) -> None:
    """One line: the bound of ``game`` at ``depth``, with its counts."""
    last = [time.perf_counter()]

    def progress(p) -> None:
        if time.perf_counter() - last[0] >= 60:
            last[0] = time.perf_counter()
            print(f"    {p}", flush=True)

    result = total_lower_bound(game, depth, seconds=seconds, progress=progress)
    optimum = published(game.name, "optimal")
    known = f", optimum {optimum.low:,}" if optimum else ""
    done = "" if result.complete else f" (stopped at depth {result.depth} done)"
    print(f"{game.name:>15} depth {depth}: >= {result.bound:,}{done}, {result.sets:,} sets, "
          f"{result.seconds:.1f} s{known}", flush=True)


def one_level(repeat: int = 3) -> None:
    """The --one-level table (see the module doc)."""
    import numpy as np

    from strategytree.bounds.root import RootGuesses
    from strategytree.bounds.sets import SetBounder, least_bound_scanned

    game = st.mastermind(5, 8)
    bounder = SetBounder(game, True)
    root = RootGuesses(game, True)
    first = [game.code_text(game.guesses[g]) for g in root.guesses].index("AABCD")
    after = root.sym.after(game.guesses[root.guesses[first]])
    rng = np.random.default_rng(1)
    sets = []  # the parts after AABCD and a second guess, each with its group
    for part in root.parts(first)[:6]:
        for h in rng.choice(len(game.guesses), 8, replace=False):
            group = after.after(game.guesses[int(h)])
            sets += [(q, bounder.candidates(q, group)) for q in bounder.parts(part, int(h))
                     if len(q) >= 3]
    times: dict[tuple[int, int], list[list[float]]] = {}
    for S, cands in sets:
        for _ in range(repeat):
            started = time.perf_counter()
            rows, most = bounder.split_bounds(S, cands, bounder.most)
            counted = max(int(rows[0].min()), int(bounder.lbtab[most][len(S)]))
            middle = time.perf_counter()
            b, most = least_bound_scanned(bounder.fbT, S, cands, bounder.lbtab, bounder.most,
                                          True, bounder.win, bounder.met, bounder.sizes)
            bits = max(int(b), int(bounder.lbtab[most][len(S)]))
            ended = time.perf_counter()
            assert bits == counted, (len(S), bits, counted)
            size = next(bin_ for bin_ in ONE_LEVEL_SIZES if bin_[0] <= len(S) <= bin_[1])
            times.setdefault(size, [[], []])
            times[size][0].append(middle - started)
            times[size][1].append(ended - middle)
    print(f"{len(sets):,} sets after AABCD and a second guess of MM(5,8), one-level bound, "
          f"medians of {repeat} runs each (the same bound every time)")
    for (low, high), (counted, bits) in sorted(times.items()):
        c, b = statistics.median(counted), statistics.median(bits)
        print(f"  {low:5,} to {high:6,} secrets ({len(counted) // repeat:4} sets): counted "
              f"{1e3 * c:7.3f} ms, bits {1e3 * b:7.3f} ms, bits/counted {b / c:5.2f}", flush=True)


#: the sizes of the --one-level table's rows
ONE_LEVEL_SIZES = [(3, 11), (12, 48), (49, 96), (97, 128), (129, 160), (161, 200), (201, 400),
                   (401, 1_000_000)]


def main() -> None:
    """Run the table (and MM(5,8) unless ``--quick``)."""
    args = sys.argv[1:]
    seconds = float(args[args.index("--seconds") + 1]) if "--seconds" in args else 1800.0
    if "--again" in args:
        again()
        return
    if "--root" in args:
        root_in_python()
        return
    if "--one-level" in args:
        one_level()
        return
    if "--small-sets" in args or "--part" in args:
        size = int(args[args.index("--size") + 1]) if "--size" in args else None
        small_sets(whole_part="--part" in args, size=size,
                   seconds=seconds if "--seconds" in args else None)
        return
    for game, depths in RUNS:
        for depth in depths:
            show(game, depth, 600)
    if "--quick" not in args:
        show(st.mastermind(5, 8), 3, seconds)


if __name__ == "__main__":
    print_machine()
    main()
