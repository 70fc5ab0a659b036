"""Exact search: strategies with the fewest guesses in total, and proven worst cases.

:func:`build_optimal` finds a strategy that minimises the total number of
guesses over all secrets (optionally among those that never need more than
``max_guesses``); :func:`prove_bound` finds the fewest guesses that solve
every secret, with a proof by exhaustion.

Both are depth-first branch and bound over the sets of secrets still possible:

- **lower bound.**  A guess splits a set into at most ``b`` parts besides the
  win (``b + 1`` = the replies the game can give), and solves at most one
  secret itself.  So ``n`` secrets cost at least the sum of depths of the
  first ``n`` nodes of a complete ``b``-ary tree (:func:`lower_bounds`), and
  a guess that splits them into parts of sizes ``k_i`` costs at least
  ``n + sum L(k_i)``.  Candidates are pruned with it, and a node stops as soon
  as a strategy meets its bound.  ``b`` shrinks going down: no guess makes more
  parts of a set than the most any guess makes of the set it came from (one
  scan of every guess tells), and a set costs at least its least guess bound.
- **order.**  Candidates are tried by that bound, then by the expected part
  size (Irving), so the first complete strategy is already good.
- **symmetry.**  One guess per class of :mod:`strategytree.symmetry`
  (permutations of colours and positions that fix the history, times any
  renaming of colours never played), at every depth: the compiled search keeps
  the group as arrays of maps, narrows it after each guess (the kernel
  :func:`strategytree.kernels._stabilizer`, as :class:`Symmetry` does) and
  plays a candidate only when it is the first of its class
  (:func:`_least_in_class`).  When every code is a guess, colours no
  remaining secret has are merged.
- **shortcuts.**  One or two secrets; a possible secret that splits the rest
  into singletons is optimal (``2n - 1``).
- **cache.**  Solved sets (exact costs, and lower bounds from failed searches)
  are kept in a hash table keyed by the set; it also rebuilds the tree and is
  what a checkpoint saves.
- **both cores.**  In big games without a checkpoint, the root's parts are
  solved by :data:`THREADS` threads side by side, each with its own cache
  (merged at the end): :meth:`_Search.side_by_side`.

The hot loops are numba kernels over a precomputed feedback table (guess x
secret -> reply code), so any game whose table fits in memory can be searched.
Most of a node's time goes into scoring every guess by the replies it meets; a
transposed copy of the table (secret x guess) lets the kernel do that for all
guesses at once, secret by secret, in a loop the compiler vectorises.
The search runs in a worker thread (the kernels release the GIL): the caller's
thread reports progress, and Ctrl-C stops the search cleanly, saving a
checkpoint first when one was asked for.

>>> from strategytree.game import mastermind
>>> from strategytree.verify import verify
>>> tree = build_optimal(mastermind(2, 3))
>>> verify(tree, mastermind(2, 3)).total
21
>>> prove_bound(mastermind(2, 3))
3
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import math
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.typed import Dict

from .errors import StrategyTreeError
from .files import atomic_path
from .game import Game
from .feedback import popcount
from .feedback import table as _table
from .kernels import _image_key, _stabilizer
from .symmetry import Symmetry
from .tree import Node, Strategy

__all__ = [
    "SearchError",
    "SearchProgress",
    "build_optimal",
    "lower_bounds",
    "prove_bound",
    "prove_bound_table",
]

#: "no strategy within the limits" (any cost at least this is infinite)
INF = 1 << 40
#: guesses left when no maximum is asked for (deeper than any real strategy)
UNLIMITED = 60
#: most feedback-table entries (guesses x secrets, one byte each) the search builds
MAX_TABLE = 400_000_000
#: most entries of the transposed feedback table (a second copy) the search builds
MAX_TRANSPOSED = 100_000_000
#: the first levels of the search run in Python, with the full symmetry group
PY_LEVELS = 2
#: most maps of a symmetry group the compiled search takes (more: no symmetry below)
MAX_MAPS = 5040
#: sets smaller than this are not written to a checkpoint (cheap to redo)
CHECKPOINT_MIN_SET = 6
#: from this many secrets, a greedy strategy's total is the first "best so far" shown
GREEDY_FIRST = 3000
#: from this many secrets (and without a checkpoint), the root's parts are solved
#: by as many threads as there are cores, up to THREADS
PARALLEL_FIRST = 3000
THREADS = 2
#: seconds between checkpoints
CHECKPOINT_EVERY = 5.0

# slots of the shared statistics array
_NODES, _STOP = 0, 1


class SearchError(StrategyTreeError):
    """The search cannot be run as asked (a game too big, a bad checkpoint, ...)."""


class SearchProgress(NamedTuple):
    """What a search has done so far (given to the ``progress`` callback)."""

    nodes: int
    """sets of secrets searched (each at most once per limit)"""
    best: int | None
    """the smallest total of a whole strategy found so far (None before the first)"""
    elapsed: float
    """seconds since the search started"""

    def __str__(self) -> str:
        best = "none yet" if self.best is None else f"{self.best:,}"
        return f"{self.nodes:,} sets searched, best total {best}, {self.elapsed:.1f} s"


# -- the lower bound ---------------------------------------------------------
def lower_bounds(n: int, branching: int, depth: int = UNLIMITED) -> tuple[np.ndarray, np.ndarray]:
    """``(L, cap)``: ``L[k]`` the least total cost of ``k`` secrets, ``cap[d]`` the most
    secrets ``d`` guesses can solve, when a guess makes at most ``branching`` parts
    besides the win.

    >>> L, cap = lower_bounds(20, 13, 3)
    >>> [int(x) for x in L[:5]], int(L[15]), [int(x) for x in cap]
    ([0, 1, 3, 5, 7], 30, [0, 1, 14, 183])
    """
    b = max(int(branching), 1)
    # the k-th secret (k = 1, 2, ...) is solved at the first level whose tree holds k
    holds = [0]
    while holds[-1] < n:
        holds.append(min(1 + b * holds[-1], INF))
    levels = np.searchsorted(np.array(holds[1:], dtype=np.int64), np.arange(1, n + 1)) + 1
    L = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(levels, out=L[1:])
    cap = np.zeros(depth + 1, dtype=np.int64)
    for d in range(1, depth + 1):
        cap[d] = min(1 + b * cap[d - 1], INF)
    return L, cap


# -- kernels -----------------------------------------------------------------
_P1, _P2 = (1 << 40) - 87, (1 << 40) - 57


@njit(cache=True, nogil=True)
def _set_key(S, dkey):
    """Two 40-bit hashes of a sorted set of secret indices (and the guesses left)."""
    h1 = (S.shape[0] * 7919 + dkey) % 1099511627689
    h2 = (dkey * 104729 + S.shape[0]) % 1099511627719
    for i in range(S.shape[0]):
        x = np.int64(S[i]) + 1
        h1 = (h1 * 1000003 + x) % 1099511627689
        h2 = (h2 * 999983 + x * 31) % 1099511627719
    return (h1, h2)


@njit(cache=True, nogil=True)
def _least_in_class(code, perms, taus, k, freec, label):
    """True when ``code`` is the first (in code order) of its class: no map of the
    group (``perms[t]``, ``taus[t]``; code ``g`` goes to ``taus[t][g[perms[t]]]``),
    times the renamings of the colours never played (``taus[t][c] < 0``; ``freec``
    lists them in increasing order), sends it to a smaller code.  ``label`` is
    scratch, all -1 (and left so)."""
    colors = taus.shape[1]
    own = 0
    for i in range(code.shape[0]):
        own = own * colors + code[i]
    for t in range(k):
        if _image_key(code, perms[t], taus[t], freec, label, colors) < own:
            return False
    return True


@njit(cache=True, nogil=True)
def _bounds(S, cands, d, mode, fb, lbt, cap, win, n_replies, out_lb, out_parts, out_worst, out_sq,
            out_cons):
    """For each candidate: its lower bound (``n + sum L(part)``; 0 when ``mode`` is 1,
    feasibility; INF when a part cannot be solved in ``d - 1`` guesses), its number
    of parts besides the win, its largest part, its sum of squared parts, and
    whether it can win."""
    n = S.shape[0]
    hist = np.zeros(n_replies, dtype=np.int64)
    for t in range(cands.shape[0]):
        g = cands[t]
        for j in range(n):
            hist[fb[g, S[j]]] += 1
        lbg = n if mode == 0 else 0
        sq = 0
        cons = 0
        parts = 0
        worst = 0
        for r in range(n_replies):
            k = hist[r]
            if k != 0:
                hist[r] = 0
                if r == win:
                    cons = 1
                else:
                    parts += 1
                    sq += k * k
                    worst = max(worst, k)
                    if k > cap[d - 1]:
                        lbg = INF
                    elif lbg < INF:
                        lbg += lbt[k]
        out_lb[t] = lbg
        out_parts[t] = parts
        out_worst[t] = worst
        out_sq[t] = sq
        out_cons[t] = cons


@njit(cache=True, nogil=True)
def _scan(fbT, S, out):
    """``out[g]``: the bit set of the replies guess ``g`` gets from the secrets ``S``
    (every guess at once, secret by secret: a loop the compiler vectorises)."""
    m = out.shape[0]
    for x in range(m):
        out[x] = 0
    for j in range(S.shape[0]):
        col = fbT[S[j]]
        for x in range(m):
            out[x] |= np.uint64(1) << np.uint64(col[x])


@njit(cache=True, nogil=True)
def _solve(S0, d0, limit0, played0, force0, mode, fb, fbT, codes, gmask, smask, as_guess, lbtab, captab, win,
           n_replies, nsmall, full, symm, merge, dkeyed, cache, stats, ws):
    """Least total cost of the secrets ``S0`` (sorted indices) with ``d0`` guesses left.

    Returns the exact minimum when it is below ``limit0``, else a lower bound that
    is at least ``limit0`` (INF: no strategy within the guesses left).
    ``force0 >= 0`` evaluates only that guess (and caches nothing for ``S0``).
    ``mode`` 1 asks only whether a strategy exists: every cost is then 0 or INF
    (``lbt`` all zeros, ``limit0`` 1).  Exact results and lower bounds of the
    sets met go to ``cache``: (key of the set) -> (cost, best guess or -1,
    2 * size + exact).  An explicit stack, not recursion (numba cannot cache
    recursive functions).  Stops, storing nothing more, when ``stats[1]`` is set.
    ``ws`` is the workspace of :func:`_workspace`.
    """
    N = S0.shape[0]
    m = fb.shape[0]
    (sets, cand, lbs, hist, start, big, keys_tmp, cand_tmp, lb_tmp, fill, fr, seen, pv, qt,
     gperm, gtau, gk, label, freec) = ws
    n_colors = gtau.shape[2]
    # fbT (secret x guess): the replies met by every guess at once, in a loop the
    # compiler vectorises (an empty table when it was too big to build)
    wide_ok = fbT.shape[0] == fb.shape[1] and fbT.shape[1] == m
    sets[0, :N] = S0
    soff, sn, dd, lim, pl, frc, lbv, k1, k2, nc, tt, nbig, aa, total, best, bestg, fail = (
        fr[0], fr[1], fr[2], fr[3], fr[4], fr[5], fr[6], fr[7], fr[8], fr[9], fr[10], fr[11],
        fr[12], fr[13], fr[14], fr[15], fr[16])
    ph = fr[17]
    # the most parts besides the win a guess makes of the level's set, of its parent's
    # (a part's guesses make no more parts of it): rows of lbtab and captab
    bsel, bl = fr[18], fr[19]
    soff[0] = 0
    bl[0] = lbtab.shape[0] - 1

    ENTER, NEXT_CAND, NEXT_PART, FINAL, RETURN = 0, 1, 2, 3, 4
    L = 0
    sn[0] = N
    dd[0] = d0
    lim[0] = limit0
    pl[0] = played0
    frc[0] = force0
    state = ENTER
    ret = np.int64(0)
    while True:
        if state == ENTER:
            if stats[1] != 0:
                return INF
            n = sn[L]
            d = dd[L]
            S = sets[L, soff[L] : soff[L] + n]
            state = RETURN
            lbt = lbtab[bl[L]]
            cap = captab[bl[L]]
            bsel[L] = bl[L]
            if n == 1:
                ret = lbt[1]
                continue
            if n > cap[d]:
                ret = INF
                continue
            lb = lbt[n]
            if frc[L] < 0:
                if lb >= lim[L]:
                    ret = lb
                    continue
                if n == 2:
                    ret = lbt[2]
                    continue
                key = _set_key(S, d if dkeyed else 0)
                k1[L] = key[0]
                k2[L] = key[1]
                if key in cache:
                    entry = cache[key]
                    if (entry[2] & 1) != 0 or entry[0] >= lim[L]:
                        ret = entry[0]
                        continue
                    lb = max(lb, entry[0])
            lbv[L] = lb
            stats[0] += 1

            base = n if mode == 0 else 0
            wide = n * n + 1
            count = 0
            done = False
            if frc[L] >= 0:
                g = frc[L]
                h = hist[L]
                for j in range(n):
                    h[fb[g, S[j]]] += 1
                lbg = base
                for r in range(n_replies):
                    k = h[r]
                    if k != 0:
                        h[r] = 0
                        if r != win:
                            if k > cap[d - 1]:
                                lbg = INF
                            elif lbg < INF:
                                lbg += lbt[k]
                cand[L, 0] = g
                lbs[L, 0] = lbg
                count = 1
                fail[L] = INF
            else:
                present = np.int64(0)
                for j in range(n):
                    present |= smask[S[j]]
                dead = full & ~present
                dead_rest = dead & (dead - 1)
                # the symmetry group of the history: one guess per class
                nfree = 0
                for x in range(n_colors):
                    if (pl[L] >> x) & 1 == 0:
                        freec[nfree] = x
                        nfree += 1
                symtest = symm and gk[L] > 0 and (gk[L] > 1 or nfree > 1)
                h = hist[L]
                stamp = stats[0]
                fmin = INF
                bins = fill
                capd = cap[d - 1]
                quick = mode == 0 and n_replies <= 64
                fast = quick and n <= nsmall and capd >= n
                scanned = False
                if quick and wide_ok and not fast:
                    # every guess's replies at once; no guess makes more parts than
                    # the most any makes here, nor of any part: tighter bounds below
                    _scan(fbT, S, qt)
                    scanned = True
                    nowin = ~(np.uint64(1) << np.uint64(win))
                    bm = np.int64(1)
                    for x in range(m):
                        bx = np.int64(popcount(qt[x] & nowin))
                        if bx > bm:
                            bm = bx
                    if bm < bl[L]:
                        bsel[L] = bm
                        lbt = lbtab[bm]
                        cap = captab[bm]
                        capd = cap[d - 1]
                        if lbt[n] > lb:
                            lb = lbt[n]
                # the possible secrets first: one that splits the rest into parts of
                # at most two is optimal when it meets the bound, and if none splits
                # them into singletons, no strategy costs less than 2n
                for idx in range(n + m):
                    if idx < n:
                        g = as_guess[S[idx]]
                        seen[g] = stamp
                        if idx == n - 1 and mode == 0 and lb < 2 * n:
                            # no secret before this one splits the rest into singletons
                            lb = 2 * n
                        # the group maps the set to itself: a secret's class holds
                        # secrets only, and its first member is one of them
                        if symtest and not _least_in_class(codes[g], gperm[L], gtau[L], gk[L], freec, label):
                            continue
                    else:
                        g = idx - n
                        if quick and wide_ok:
                            if not scanned:
                                _scan(fbT, S, qt)
                                scanned = True
                            # pruned by the bound below: equivalent guesses have the
                            # same bound, so this may come before the symmetry tests
                            touched = qt[g]
                            lbg = 3 * n - np.int64((touched >> np.uint64(win)) & np.uint64(1))
                            lbg -= popcount(touched)
                            if lbg >= lim[L] and not (fast and lbg <= lb and lbg <= 2 * n):
                                fmin = min(fmin, lbg)
                                continue
                        if seen[g] == stamp:
                            continue
                        if merge and (gmask[g] & dead_rest) != 0:
                            continue
                        if symtest and not _least_in_class(codes[g], gperm[L], gtau[L], gk[L], freec, label):
                            continue
                    row = fb[g]
                    if quick:
                        # L(k) >= 2k - 1, so n + sum L(part) >= 3n - 2 (can win) - parts:
                        # a bound from the replies met alone, exact when every part is small
                        if wide_ok and (idx >= n or not fast):
                            if not scanned:  # no shortcut among the secrets to wait for
                                _scan(fbT, S, qt)
                                scanned = True
                            touched = qt[g]
                        else:
                            touched = np.uint64(0)
                            for j in range(n):
                                touched |= np.uint64(1) << np.uint64(row[S[j]])
                        cons = np.int64((touched >> np.uint64(win)) & np.uint64(1))
                        lbg = 3 * n - cons - popcount(touched)
                        if not fast and lbg >= lim[L]:
                            fmin = min(fmin, lbg)
                            continue
                    if fast:
                        if lbg <= lb and lbg <= 2 * n:
                            # parts of at most two, meeting the bound: optimal
                            cache[(k1[L], k2[L])] = (lbg, np.int64(g), np.int64(2 * n + 1))
                            ret = lbg
                            done = True
                            break
                        if lbg >= lim[L]:
                            fmin = min(fmin, lbg)
                            continue
                    nb = 0
                    if n < n_replies <= 64:
                        # few secrets: note the replies met in a bit set, then list them
                        touched = np.uint64(0)
                        for j in range(n):
                            r = row[S[j]]
                            touched |= np.uint64(1) << np.uint64(r)
                            h[r] += 1
                        while touched != 0:
                            low = touched & (~touched + np.uint64(1))
                            bins[nb] = popcount(low - np.uint64(1))
                            nb += 1
                            touched ^= low
                    else:
                        for j in range(n):
                            h[row[S[j]]] += 1
                        for r in range(n_replies):
                            if h[r] != 0:
                                bins[nb] = r
                                nb += 1
                    lbg = base
                    sq = 0
                    worst = 0
                    for x in range(nb):
                        r = bins[x]
                        k = h[r]
                        h[r] = 0
                        if r != win:
                            sq += k * k
                            worst = max(worst, k)
                            if k > capd:
                                lbg = INF
                            elif lbg < INF:
                                lbg += lbt[k]
                    if lbg >= INF:
                        continue
                    if worst <= 2 and lbg <= lb:
                        # nothing left to search, and it meets the bound: optimal
                        cache[(k1[L], k2[L])] = (lbg, np.int64(g), np.int64(2 * n + 1))
                        ret = lbg
                        done = True
                        break
                    if lbg >= lim[L]:
                        fmin = min(fmin, lbg)
                        continue
                    cand_tmp[count] = g
                    lb_tmp[count] = lbg
                    keys_tmp[count] = (lbg if mode == 0 else worst) * wide + sq
                    count += 1
                if done:
                    continue
                order = np.argsort(keys_tmp[:count])
                for i in range(count):
                    cand[L, i] = cand_tmp[order[i]]
                    lbs[L, i] = lb_tmp[order[i]]
                # no guess costs less than its bound: the least bound is the set's
                least = fmin
                if count > 0 and lbs[L, 0] < least:
                    least = lbs[L, 0]
                if least > lb:
                    lb = least
                lbv[L] = lb
                fail[L] = fmin
            nc[L] = count
            tt[L] = 0
            best[L] = lim[L]
            bestg[L] = -1
            state = NEXT_CAND
        elif state == NEXT_CAND:
            t = tt[L]
            if t >= nc[L] or lbs[L, t] >= best[L]:
                if t < nc[L] and lbs[L, t] < fail[L]:
                    fail[L] = lbs[L, t]
                state = FINAL
                continue
            g = cand[L, t]
            n = sn[L]
            S = sets[L, soff[L] : soff[L] + n]
            if symm and gk[L] > 0:
                gk[L + 1] = _stabilizer(gperm[L], gtau[L], gk[L], codes[g], gperm[L + 1], gtau[L + 1])
            else:
                gk[L + 1] = 0
            h = hist[L]
            for j in range(n):
                h[fb[g, S[j]]] += 1
            pos = 0
            nb = 0
            for r in range(n_replies):
                start[L, r] = pos
                fill[r] = pos
                pos += h[r]
                if h[r] > 2 and r != win:
                    big[L, nb] = r
                    nb += 1
            buf = sets[L + 1]
            for j in range(n):
                r = fb[g, S[j]]
                buf[fill[r]] = S[j]
                fill[r] += 1
            # largest parts first: they most often show that a guess costs too much
            for x in range(1, nb):
                r = big[L, x]
                y = x - 1
                while y >= 0 and h[big[L, y]] < h[r]:
                    big[L, y + 1] = big[L, y]
                    y -= 1
                big[L, y + 1] = r
            nbig[L] = nb
            aa[L] = 0
            lbt = lbtab[bsel[L]]
            bl[L + 1] = bsel[L]
            for x in range(nb):
                pv[L, x] = lbt[h[big[L, x]]]
            ph[L] = 0 if nb > 1 else 1
            total[L] = lbs[L, t]
            state = NEXT_PART
        elif state == NEXT_PART:
            if aa[L] >= nbig[L] and ph[L] == 0 and total[L] < best[L]:
                ph[L] = 1  # every part has a first bound: now solve them
                aa[L] = 0
            if aa[L] < nbig[L] and total[L] < best[L]:
                a = aa[L]
                r = big[L, a]
                k = hist[L, r]
                g = cand[L, tt[L]]
                soff[L + 1] = start[L, r]
                sn[L + 1] = k
                dd[L + 1] = dd[L] - 1
                if ph[L] == 0:
                    # first a cheap look at each part (is its bound met?), so that a
                    # guess whose parts all cost a little more is refuted early
                    lim[L + 1] = pv[L, a] + 1
                else:
                    lim[L + 1] = best[L] - (total[L] - pv[L, a])
                pl[L + 1] = pl[L] | gmask[g]
                frc[L + 1] = -1
                L += 1
                state = ENTER
                continue
            h = hist[L]
            for r in range(n_replies):
                h[r] = 0
            state = NEXT_CAND
            if total[L] < best[L]:
                best[L] = total[L]
                bestg[L] = cand[L, tt[L]]
                if best[L] <= lbv[L]:
                    state = FINAL
            elif total[L] < fail[L]:
                fail[L] = total[L]
            tt[L] += 1
        elif state == FINAL:
            n = sn[L]
            if frc[L] >= 0:
                ret = best[L] if bestg[L] >= 0 else fail[L]
            elif bestg[L] >= 0:
                cache[(k1[L], k2[L])] = (best[L], bestg[L], np.int64(2 * n + 1))
                ret = best[L]
            else:
                f = max(lbv[L], fail[L])
                cache[(k1[L], k2[L])] = (f, np.int64(-1), np.int64(2 * n))
                ret = f
            state = RETURN
        else:  # RETURN
            if stats[1] != 0:
                return INF
            if L == 0:
                return ret
            L -= 1
            a = aa[L]
            if ret > pv[L, a]:
                total[L] += ret - pv[L, a]
                pv[L, a] = ret
            aa[L] += 1
            state = NEXT_PART


def _workspace(n: int, m: int, n_replies: int, depth: int, pegs: int = 1, colors: int = 1,
               maps: int = 1) -> tuple:
    """Scratch arrays for :func:`_solve`, one row per level of the search (``maps``:
    the most maps a symmetry group given to it may have)."""
    levels = min(depth, n) + 2
    return (
        np.empty((levels + 1, n), dtype=np.int32),  # the sets of each level
        np.empty((levels, m), dtype=np.int64),  # candidates, in the order tried
        np.empty((levels, m), dtype=np.int64),  # their lower bounds
        np.zeros((levels, n_replies), dtype=np.int64),  # part sizes
        np.empty((levels, n_replies), dtype=np.int64),  # where each part starts
        np.empty((levels, n_replies), dtype=np.int64),  # the parts to solve, largest first
        np.empty(m, dtype=np.int64),
        np.empty(m, dtype=np.int64),
        np.empty(m, dtype=np.int64),
        np.empty(n_replies, dtype=np.int64),
        np.zeros((20, levels), dtype=np.int64),  # the scalars of each level
        np.full(m, -1, dtype=np.int64),  # guesses already scored at a node
        np.zeros((levels, n_replies), dtype=np.int64),  # what each part costs at least
        np.zeros(m, dtype=np.uint64),  # the replies each guess meets (a bit set)
        np.zeros((levels + 1, maps, pegs), dtype=np.int64),  # the symmetry group of each level:
        np.full((levels + 1, maps, colors), -1, dtype=np.int64),  # its maps (perm, tau)
        np.zeros(levels + 1, dtype=np.int64),  # and their number (0: no symmetry used)
        np.full(colors, -1, dtype=np.int64),
        np.empty(colors, dtype=np.int64),
    )


_KEY = types.UniTuple(types.int64, 2)
_VALUE = types.UniTuple(types.int64, 3)


# the cache is only touched by compiled code: typed-dict methods called from
# Python are compiled afresh in every process (seconds)
@njit(cache=True)
def _new_cache():
    return Dict.empty(key_type=_KEY, value_type=_VALUE)


@njit(cache=True)
def _cache_get(cache, S, dkey):
    """(cost, guess, 2 * size + exact) stored for the set ``S``, or (-1, -1, -1)."""
    key = _set_key(S, dkey)
    if key in cache:
        return cache[key]
    return (np.int64(-1), np.int64(-1), np.int64(-1))


@njit(cache=True)
def _cache_put(cache, S, dkey, cost, guess, flags):
    cache[_set_key(S, dkey)] = (np.int64(cost), np.int64(guess), np.int64(flags))


@njit(cache=True)
def _cache_rows(cache, min_size):
    """The entries for sets of at least ``min_size`` secrets, as (k, 5) rows."""
    count = 0
    for value in cache.values():
        if value[2] >> 1 >= min_size:
            count += 1
    out = np.empty((count, 5), dtype=np.int64)
    i = 0
    for key, value in cache.items():
        if value[2] >> 1 >= min_size:
            out[i, 0] = key[0]
            out[i, 1] = key[1]
            out[i, 2] = value[0]
            out[i, 3] = value[1]
            out[i, 4] = value[2]
            i += 1
    return out


@njit(cache=True)
def _cache_load(cache, rows):
    for i in range(rows.shape[0]):
        cache[(rows[i, 0], rows[i, 1])] = (rows[i, 2], rows[i, 3], rows[i, 4])


# -- the problem, as the kernels see it ----------------------------------------
@dataclass
class _Problem:
    """A game as plain arrays, and the search state shared by the levels."""

    game: Game
    fb: np.ndarray  # (guesses, secrets) int8 reply codes
    fbT: np.ndarray  # the same, transposed (empty when too big)
    codes: np.ndarray
    gmask: np.ndarray
    smask: np.ndarray
    as_guess: np.ndarray
    lbtab: np.ndarray  # lbtab[b]: lower bounds (lower_bounds) when guesses make at most b parts
    captab: np.ndarray  # captab[b]: the most secrets d guesses solve, likewise
    win: int
    n_replies: int
    nsmall: int  # sets this small have only parts with L(k) = 2k - 1
    full: int
    symm: bool
    merge: bool
    dkeyed: bool
    mode: int  # 0: least total; 1: does a strategy within the guesses exist
    cache: object
    stats: np.ndarray
    ws: tuple
    every_guess: np.ndarray | None = None
    _group_of: Symmetry | None = None  # the group the workspace's first level holds
    _group_size: int = 0

    @classmethod
    def of(
        cls, game: Game, max_guesses: int | None, symmetry: bool = True, mode: int = 0
    ) -> _Problem:
        n, m = len(game.secrets), len(game.guesses)
        if n * m > MAX_TABLE:
            raise SearchError(
                f"{game.name}: {m:,} guesses x {n:,} secrets is too big for an exact search"
            )
        as_guess = game.guess_index(game.secrets).astype(np.int64)
        if (as_guess < 0).any():
            raise SearchError(f"{game.name}: every secret must be an allowed guess")
        if max_guesses is not None and not (isinstance(max_guesses, int) and max_guesses >= 1):
            raise SearchError(f"max_guesses must be a whole number of at least 1, got {max_guesses!r}")
        fb = _table(game)
        # replies some guess gets from some secret, less the win
        branching = max(int(np.count_nonzero(np.bincount(fb.ravel(), minlength=game.n_replies))) - 1, 1)
        depth = UNLIMITED if max_guesses is None else min(int(max_guesses), UNLIMITED)
        lbtab, captab = _bound_tables(n, branching, depth, mode)
        closed = symmetry and game.symmetric
        from .builders import colour_masks

        return cls(
            game=game,
            fb=fb,
            fbT=_transposed(fb, mode),
            codes=np.ascontiguousarray(game.guesses),
            gmask=colour_masks(game.guesses),
            smask=colour_masks(game.secrets),
            as_guess=as_guess,
            lbtab=lbtab,
            captab=captab,
            win=game.win,
            n_replies=game.n_replies,
            nsmall=branching + 1,
            full=(1 << game.colors) - 1,
            symm=closed,
            merge=closed and m == game.colors**game.pegs,
            dkeyed=max_guesses is not None or mode == 1,
            mode=mode,
            cache=_new_cache(),
            stats=np.zeros(4, dtype=np.int64),
            ws=_workspace(n, m, game.n_replies, UNLIMITED, game.pegs, game.colors,
                          min(math.factorial(game.pegs), MAX_MAPS) if closed else 1),
        )

    # thin calls of the kernels
    def solve(
        self, S: np.ndarray, d: int, limit: int, played: int, force: int = -1,
        sym: Symmetry | None = None,
    ) -> int:
        """:func:`_solve`; ``sym`` the symmetry group of the history (None: none used)."""
        self._set_group(sym)
        return int(
            _solve(S, d, limit, played, force, self.mode, self.fb, self.fbT, self.codes, self.gmask, self.smask, self.as_guess,
                   self.lbtab, self.captab, self.win, self.n_replies, self.nsmall, self.full, self.symm,
                   self.merge, self.dkeyed, self.cache, self.stats, self.ws)
        )

    @property
    def lbt(self) -> np.ndarray:
        """The lower bounds for the game's most parts (the last row of ``lbtab``)."""
        return self.lbtab[-1]

    @property
    def cap(self) -> np.ndarray:
        return self.captab[-1]

    def sibling(self) -> _Problem:
        """The same problem for another thread: the same tables and statistics,
        its own cache and scratch arrays."""
        gperm, gtau = self.ws[14], self.ws[15]
        n, m = self.fb.shape[1], self.fb.shape[0]
        ws = _workspace(n, m, self.n_replies, UNLIMITED, gperm.shape[2], gtau.shape[2], gperm.shape[1])
        return dataclasses.replace(
            self, cache=_new_cache(), ws=ws, every_guess=None, _group_of=None, _group_size=0
        )

    def _set_group(self, sym: Symmetry | None) -> None:
        """Give ``sym`` to :func:`_solve` as arrays (its first level's group)."""
        gperm, gtau, gk = self.ws[14], self.ws[15], self.ws[16]
        if sym is not None and sym is self._group_of:
            gk[0] = self._group_size  # the arrays hold it already (siblings share one)
            return
        self._group_of, self._group_size = sym, 0
        gk[0] = 0
        if sym is None or not self.symm or not sym.enabled:
            return
        if sym.maps is None:  # nothing played: every permutation, every renaming
            if math.factorial(self.game.pegs) > gperm.shape[1]:
                return
            maps = [(np.array(perm), None) for perm in itertools.permutations(range(self.game.pegs))]
        else:
            maps = sym.maps
        if len(maps) > gperm.shape[1]:
            return
        for t, (perm, tau) in enumerate(maps):
            gperm[0, t] = perm
            gtau[0, t] = -1 if tau is None else tau
        gk[0] = self._group_size = len(maps)

    def get(self, S: np.ndarray, d: int) -> tuple[int, int, int] | None:
        """(cost, guess, 2 * size + exact) cached for ``S``, or None."""
        entry = _cache_get(self.cache, S, d if self.dkeyed else 0)
        return None if entry[2] < 0 else entry

    def put(self, S: np.ndarray, d: int, cost: int, guess: int, exact: bool) -> None:
        _cache_put(self.cache, S, d if self.dkeyed else 0, cost, guess, 2 * len(S) + int(exact))

    def parts(self, S: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """(reply, sorted part) for each reply but the win, highest reply first."""
        replies = self.fb[guess, S]
        out = []
        for r in np.unique(replies)[::-1]:
            if r != self.win:
                out.append((int(r), S[replies == r]))
        return out

    @classmethod
    def of_table(cls, replies: np.ndarray, win: int, mode: int) -> _Problem:
        """A game given only by its table of replies (no symmetry is assumed)."""
        fb = np.asarray(replies)
        if fb.ndim != 2 or fb.size == 0 or not np.issubdtype(fb.dtype, np.integer):
            raise SearchError("replies must be a non-empty (guesses, secrets) array of reply codes")
        if fb.min() < 0 or fb.max() > 127 or not 0 <= win <= 127:
            raise SearchError("reply codes must be between 0 and 127")
        m, n = fb.shape
        wins = fb == win
        if not (wins.sum(axis=0) == 1).all():
            raise SearchError("each secret must be won by exactly one guess (the reply win)")
        fb = np.ascontiguousarray(fb, dtype=np.int8)
        n_replies = max(int(fb.max()), win) + 1
        branching = max(int(np.count_nonzero(np.bincount(fb.ravel()))) - 1, 1)
        lbtab, captab = _bound_tables(n, branching, UNLIMITED, mode)
        return cls(
            game=None,  # type: ignore[arg-type]
            fb=fb,
            fbT=_transposed(fb, mode),
            codes=np.zeros((m, 1), dtype=np.uint8),
            gmask=np.zeros(m, dtype=np.int64),
            smask=np.zeros(n, dtype=np.int64),
            as_guess=np.argmax(wins, axis=0).astype(np.int64),
            lbtab=lbtab,
            captab=captab,
            win=int(win),
            n_replies=n_replies,
            nsmall=branching + 1,
            full=0,
            symm=False,
            merge=False,
            dkeyed=mode == 1,
            mode=mode,
            cache=_new_cache(),
            stats=np.zeros(4, dtype=np.int64),
            ws=_workspace(n, m, n_replies, UNLIMITED),
        )

    def candidates(self, S: np.ndarray, sym: Symmetry | None) -> np.ndarray:
        if sym is None:
            return np.arange(len(self.fb), dtype=np.int64)
        if self.every_guess is None:
            self.every_guess = np.arange(len(self.game.guesses))
        # one array for every call: Symmetry remembers its answer for it, so the
        # sets after one guess (one history) share the classes, computed once
        cands = sym.representatives(self.every_guess)
        if self.merge:
            from .builders import _merge_dead_colours

            cands = _merge_dead_colours(self.gmask, self.smask, cands, S)
        return np.ascontiguousarray(cands, dtype=np.int64)


def _bound_tables(n: int, branching: int, depth: int, mode: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`lower_bounds` for each most number of parts ``b`` = 0 .. ``branching``
    (row ``b``; row 0 as row 1): costs all 0 when ``mode`` is 1 (feasibility), and no
    secret solved beyond ``depth`` guesses."""
    lbtab = np.zeros((branching + 1, n + 1), dtype=np.int64)
    captab = np.zeros((branching + 1, UNLIMITED + 1), dtype=np.int64)
    for b in range(branching + 1):
        lbt, cap = lower_bounds(n, max(b, 1), UNLIMITED)
        cap[depth + 1 :] = cap[depth]  # never used beyond depth; keep the arrays one size
        lbtab[b] = 0 if mode == 1 else lbt
        captab[b] = cap
    return lbtab, captab


def _transposed(fb: np.ndarray, mode: int) -> np.ndarray:
    """``fb`` as (secret, guess), for the kernel's all-guesses-at-once scan (only the
    least-total search uses it; an empty table when it is not used or too big)."""
    if mode != 0 or fb.size > MAX_TRANSPOSED:
        return np.zeros((0, 0), dtype=np.int8)
    return np.ascontiguousarray(fb.T)


class _Stopped(Exception):
    """The search was asked to stop."""


# -- the levels near the root, in Python ---------------------------------------
class _Search:
    """Branch and bound: the first :data:`PY_LEVELS` levels here (full symmetry,
    progress, checkpoints), the rest in :func:`_solve`."""

    def __init__(self, problem: _Problem, checkpoint: Path | None, max_guesses: int | None) -> None:
        self.p = problem
        self.checkpoint = checkpoint
        self.max_guesses = max_guesses
        self.best: int | None = None
        self.last_saved = time.monotonic()
        self.every = CHECKPOINT_EVERY
        self.threads = 1  # more: the root's parts are solved side by side (see side_by_side)

    def side_by_side(self, parts: list[np.ndarray], d: int, sym, played: int) -> list[int]:
        """The exact costs of ``parts`` (largest first), solved by this thread and
        ``threads - 1`` more, each with its own cache and scratch (the compiled
        search releases the GIL); their caches join this one's at the end."""
        helpers = [_Search(self.p.sibling(), None, self.max_guesses) for _ in range(self.threads - 1)]
        costs: list[int] = [INF] * len(parts)
        todo = iter(range(len(parts)))
        lock = threading.Lock()
        failures: list[BaseException] = []

        def work(search: _Search) -> None:
            try:
                while True:
                    with lock:
                        i = next(todo, None)
                    if i is None:
                        return
                    costs[i] = search.node(parts[i], d, INF, sym, played, 1)
            except BaseException as failure:  # noqa: BLE001 - raised again below
                failures.append(failure)
                self.p.stats[_STOP] = 1  # the others stop too

        others = [threading.Thread(target=work, args=(h,), daemon=True) for h in helpers]
        for thread in others:
            thread.start()
        work(self)
        for thread in others:
            thread.join()
        for helper in helpers:
            _cache_load(self.p.cache, _cache_rows(helper.p.cache, 0))
        if failures:
            real = [f for f in failures if not isinstance(f, _Stopped)]
            raise real[0] if real else failures[0]
        return costs

    def node(self, S: np.ndarray, d: int, limit: int, sym: Symmetry, played: int, level: int) -> int:
        p = self.p
        n = len(S)
        if level >= PY_LEVELS or n <= 2:
            result = p.solve(S, d, limit, played, sym=sym)
            self.check()
            return result
        if n > p.cap[d]:
            return INF
        lb = int(p.lbt[n])
        if lb >= limit:
            return lb
        entry = p.get(S, d)
        if entry is not None:
            if entry[2] & 1 or entry[0] >= limit:
                return int(entry[0])
            lb = max(lb, int(entry[0]))
        cands = p.candidates(S, sym)
        lbg, parts, worst, sq, cons = np.empty((5, len(cands)), dtype=np.int64)
        _bounds(S, cands, d, p.mode, p.fb, p.lbt, p.cap, p.win, p.n_replies, lbg, parts, worst,
                sq, cons)
        perfect = np.flatnonzero((parts == n - 1) & (cons == 1) & (lbg < INF))
        if len(perfect):
            cost = int(lbg[perfect[0]])
            p.put(S, d, cost, int(cands[perfect[0]]), True)
            return cost
        order = np.lexsort((sq, worst if p.mode else lbg))
        best, best_guess, fail = limit, -1, INF
        for i in order:
            if lbg[i] >= best:
                fail = min(fail, int(lbg[i]))
                break
            g = int(cands[i])
            if level + 1 < PY_LEVELS:
                total = self.guess(S, d, g, int(lbg[i]), best, sym, played, level)
            else:
                total = p.solve(S, d, best, played, g, sym)
                self.check()
            if total < best:
                best, best_guess = total, g
                if level == 0 and (self.best is None or best < self.best):
                    self.best = best
                if best <= lb:
                    break
            else:
                fail = min(fail, total)
        if best_guess >= 0:
            p.put(S, d, best, best_guess, True)
            return best
        fail = max(fail, lb)
        p.put(S, d, fail, -1, False)
        return fail

    def guess(self, S, d, g, lbg, limit, sym, played, level) -> int:
        """The cost of playing ``g`` on ``S``, exact when below ``limit``."""
        p = self.p
        total = lbg
        child_sym = sym.after(p.game.guesses[g]) if sym is not None else None
        child_played = played | int(p.gmask[g])
        parts = [part for _, part in sorted(p.parts(S, g), key=lambda item: -len(item[1]))]
        parts = [part for part in parts if len(part) > 2]
        known = [int(p.lbt[len(part)]) for part in parts]
        if self.threads > 1 and level == 0 and limit >= INF and len(parts) > 1:
            # nothing to prune against yet: every part is solved exactly, side by side
            costs = self.side_by_side(parts, d - 1, child_sym, child_played)
            return min(INF, total + sum(c - k for c, k in zip(costs, known)))
        # as in _solve: first a cheap look at each part, then solve them
        for phase in (0, 1) if len(parts) > 1 else (1,):
            for i, part in enumerate(parts):
                if total >= limit:
                    return total
                bound = known[i] + 1 if phase == 0 else limit - (total - known[i])
                c = self.node(part, d - 1, bound, child_sym, child_played, level + 1)
                if c > known[i]:
                    total += c - known[i]
                    known[i] = c
        return total

    def check(self) -> None:
        """Stop when asked; save a checkpoint when one is due."""
        if self.p.stats[_STOP]:
            raise _Stopped
        if self.checkpoint is not None and time.monotonic() - self.last_saved > self.every:
            self.save()

    def save(self) -> None:
        """Write the checkpoint; a big one is written less often (at most 10% of the time)."""
        if self.checkpoint is not None:
            started = time.monotonic()
            _save_checkpoint(self.checkpoint, self.p, self.max_guesses)
            self.last_saved = time.monotonic()
            self.every = max(CHECKPOINT_EVERY, 10 * (self.last_saved - started))

    def tree(self, S: np.ndarray, d: int) -> Node:
        """The strategy the cache holds for ``S`` (solving again what it lacks)."""
        p = self.p
        text = p.game.code_text
        root = Node("")
        todo = [(root, S, d)]
        while todo:
            node, S, d = todo.pop()
            n = len(S)
            if n <= 2:
                g = int(p.as_guess[S[0]])
                node.guess = text(p.game.guesses[g])
                if n == 2:
                    leaf = Node(text(p.game.secrets[S[1]]))
                    node.branches = ((p.game.reply(int(p.fb[g, S[1]])), leaf),)
                continue
            else:
                entry = p.get(S, d)
                if entry is None or not entry[2] & 1 or entry[1] < 0:
                    p.solve(S, d, INF, 0)
                    entry = p.get(S, d)
                g = int(entry[1])
            node.guess = text(p.game.guesses[g])
            branches = []
            for r, part in p.parts(S, g):
                child = Node("")
                branches.append((p.game.reply(r), child))
                todo.append((child, part, d - 1))
            node.branches = tuple(branches)
        return root


# -- running in a worker thread --------------------------------------------------
def _run(
    work: Callable[[], object],
    problem: _Problem,
    search: _Search | None,
    progress: Callable[[SearchProgress], None] | None,
    every: float = 0.25,
) -> object:
    """Run ``work`` in a thread; report progress; on Ctrl-C stop it cleanly
    (saving a checkpoint) and raise KeyboardInterrupt."""
    started = time.perf_counter()
    result: dict[str, object] = {}

    def target() -> None:
        try:
            result["value"] = work()
        except _Stopped:
            result["stopped"] = True
        except BaseException as problem_:  # noqa: BLE001 - handed to the caller's thread
            result["error"] = problem_

    problem.stats[:] = 0
    worker = threading.Thread(target=target, name="strategytree-search", daemon=True)
    worker.start()
    interrupted = False
    try:
        while worker.is_alive():
            worker.join(every)
            if progress is not None:
                best = search.best if search is not None else None
                progress(SearchProgress(int(problem.stats[_NODES]), best, time.perf_counter() - started))
    except KeyboardInterrupt:
        interrupted = True
        problem.stats[_STOP] = 1
        while worker.is_alive():
            try:
                worker.join(0.1)
            except KeyboardInterrupt:
                pass
    if interrupted or result.get("stopped"):
        if search is not None:
            search.save()
        raise KeyboardInterrupt
    if "error" in result:
        raise result["error"]  # type: ignore[misc]
    if progress is not None:
        best = search.best if search is not None else None
        progress(SearchProgress(int(problem.stats[_NODES]), best, time.perf_counter() - started))
    return result["value"]


# -- checkpoints -----------------------------------------------------------------
def _fingerprint(game: Game, max_guesses: int | None, what: str) -> dict:
    digest = np.bitwise_xor.reduce(
        (game.secrets.astype(np.int64) * 31 + 7).sum(axis=1) * np.arange(1, len(game.secrets) + 1)
    )
    return {
        "format": "strategytree-search-checkpoint",
        "version": 2,
        "what": what,
        "game": game.name,
        "pegs": game.pegs,
        "colors": game.colors,
        "secrets": len(game.secrets),
        "guesses": len(game.guesses),
        "digest": int(digest),
        "max_guesses": max_guesses,
    }


def _save_checkpoint(path: Path, p: _Problem, max_guesses: int | None, what: str = "optimal") -> None:
    """One line of JSON (what was searched), then the cache's rows as raw int64."""
    table = _cache_rows(p.cache, CHECKPOINT_MIN_SET)
    head = _fingerprint(p.game, max_guesses, what)
    head["entries"] = len(table)
    head["byteorder"] = sys.byteorder
    with atomic_path(path) as tmp, open(tmp, "wb") as out:
        out.write(json.dumps(head).encode("ascii") + b"\n")
        out.write(memoryview(np.ascontiguousarray(table)).cast("B"))


def _load_checkpoint(path: Path, p: _Problem, max_guesses: int | None, what: str = "optimal") -> int:
    """Seed the cache from a checkpoint; the number of entries read (0: no file)."""
    if not path.exists():
        return 0
    try:
        with open(path, "rb") as source:
            head = json.loads(source.readline(1 << 16))
            rows = source.read()
        entries = head.pop("entries")
        if head.pop("byteorder") != sys.byteorder or len(rows) != entries * 40:
            raise ValueError("its table is cut short or from another kind of machine")
        table = np.frombuffer(rows, dtype=np.int64).reshape(-1, 5)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError) as err:
        raise SearchError(f"{path}: not a checkpoint of strategytree's search ({err})") from None
    if head != _fingerprint(p.game, max_guesses, what):
        raise SearchError(f"{path}: a checkpoint of another search (game, limits or method differ)")
    _cache_load(p.cache, np.ascontiguousarray(table))
    return len(table)


# -- the public functions ----------------------------------------------------------
def build_optimal(
    game: Game,
    *,
    max_guesses: int | None = None,
    progress: Callable[[SearchProgress], None] | None = None,
    checkpoint: str | Path | None = None,
    symmetry: bool = True,
) -> Strategy:
    """A strategy with the fewest guesses in total over all secrets.

    With ``max_guesses``, the fewest among strategies that never need more.
    ``progress`` is called about four times a second with a
    :class:`SearchProgress`; with ``checkpoint`` the search state is saved
    there (atomically) every few seconds and on Ctrl-C, and read back when the
    search starts again.  Ctrl-C raises KeyboardInterrupt once the search has
    stopped.  Raises :class:`SearchError` when no strategy fits ``max_guesses``.
    """
    p = _Problem.of(game, max_guesses, symmetry)
    path = Path(checkpoint) if checkpoint is not None else None
    if path is not None:
        _load_checkpoint(path, p, max_guesses)
    search = _Search(p, path, max_guesses)
    S = np.arange(len(game.secrets), dtype=np.int32)
    d = UNLIMITED if max_guesses is None else int(max_guesses)
    sym = Symmetry.of(game, symmetry)
    if path is None and len(S) >= PARALLEL_FIRST:
        search.threads = max(1, min(THREADS, os.cpu_count() or 1))

    def work() -> Node | None:
        if len(S) >= GREEDY_FIRST and max_guesses is None:
            # a whole strategy to show as the best so far within a second (the
            # search finds its first one only when the root's parts are solved)
            from .builders import build_greedy
            from .verify import verify

            search.best = verify(build_greedy(game, rule="expected"), game).total
        cost = search.node(S, d, INF, sym, 0, 0)
        if cost >= INF:
            return None
        search.best = cost
        search.save()
        return search.tree(S, d)

    root = _run(work, p, search, progress)
    if root is None:
        raise SearchError(f"no strategy for {game.name} solves every secret within {max_guesses} guesses")
    limit = "" if max_guesses is None else f" max {max_guesses}"
    return Strategy(root, source=f"<optimal{limit} {game.name}>")


def prove_bound(
    game: Game,
    *,
    progress: Callable[[SearchProgress], None] | None = None,
    symmetry: bool = True,
) -> int:
    """The fewest guesses that solve every secret in the worst case.

    Proved by exhaustion: a strategy within K guesses is found, and the search
    shows that none exists within K - 1.

    >>> from strategytree.game import mastermind
    >>> prove_bound(mastermind(3, 2))
    3
    """
    p = _Problem.of(game, None, symmetry, mode=1)
    search = _Search(p, None, None)
    S = np.arange(len(game.secrets), dtype=np.int32)
    sym = Symmetry.of(game, symmetry)

    def work() -> int:
        d = 1
        while search.node(S, d, 1, sym, 0, 0) != 0:
            d += 1
            if d > UNLIMITED:
                raise SearchError(f"{game.name}: no strategy solves every secret")
        return d

    return int(_run(work, p, None, progress))  # type: ignore[arg-type]


def prove_bound_table(
    replies: np.ndarray,
    win: int,
    *,
    progress: Callable[[SearchProgress], None] | None = None,
) -> int:
    """:func:`prove_bound` for any game given by its table of replies.

    ``replies[g, s]`` is the reply (a small integer, 0..127) to guess ``g`` when
    the secret is ``s``; ``win`` is the reply that ends the game, which each
    secret gets from exactly one guess.  E.g. guessing a number in 0..7 told
    "lower", "right" or "higher" (three guesses find at most 1 + 2 + 4 numbers):

    >>> import numpy as np
    >>> g, s = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    >>> prove_bound_table(np.sign(g - s) + 1, win=1)
    4
    """
    p = _Problem.of_table(replies, win, mode=1)
    search = _Search(p, None, None)
    S = np.arange(p.fb.shape[1], dtype=np.int32)

    def work() -> int:
        d = 1
        while search.node(S, d, 1, None, 0, 0) != 0:
            d += 1
            if d > UNLIMITED:
                raise SearchError("no strategy solves every secret")
        return d

    return int(_run(work, p, None, progress))  # type: ignore[arg-type]
