"""Lower bounds: the least any strategy can cost; the split of a set by a guess, and its bound.

A guess splits a set of secrets into at most ``b`` parts besides the win
(``b + 1`` = the replies the game can give), and solves at most one secret
itself.  So ``n`` secrets cost at least the sum of depths of the first ``n``
nodes of a complete ``b``-ary tree (the counting bound,
:func:`strategytree.counting.lower_bounds`), and a guess that
splits them into parts of sizes ``k_i`` costs at least ``n + sum L(k_i)``
(:func:`split_bound`).  ``b`` shrinks going down the search, so the search
keeps one row of bounds per ``b`` (:func:`bound_tables`).

The compiled pieces here (:func:`split_sizes`, :func:`split_bound`,
:func:`candidate_bounds`, :func:`lay_out_parts`) are the one description of
"what does this guess do to this set" that the compiled levels of the search
and the total bound share.  The Python levels of the search count the same
with numpy (:func:`split_table`, and
:meth:`~strategytree.search.problem.Problem.parts`), which compiles nothing on
the first run; the tests hold the two to the same answers.

>>> lbtab, captab = bound_tables(20, 13, 3, 0)
>>> [int(x) for x in lbtab[13][:5]], [int(x) for x in captab[13][:4]]
([0, 1, 3, 5, 7], [0, 1, 14, 183])
"""

from __future__ import annotations

import functools

import numpy as np

from ..counting import INF, UNLIMITED, lower_bounds
from ..feedback import compiled as feedback_loops
from ..feedback import popcount
from ..jit import njit

__all__ = [
    "INF",
    "UNLIMITED",
    "bound_tables",
    "candidate_bounds",
    "lay_out_parts",
    "replies_met",
    "split_bound",
    "split_sizes",
    "split_table",
]

feedback_loops()  # numba compiles popcount to one instruction


@functools.lru_cache(maxsize=256)
def bound_tables(n: int, branching: int, depth: int, mode: int) -> tuple[np.ndarray, np.ndarray]:
    """``(lbtab, captab)``: :func:`lower_bounds` for each most number of parts
    ``b`` = 0 .. ``branching`` (row ``b``; row 0 as row 1): costs all 0 when
    ``mode`` is 1 (feasibility), and no secret solved beyond ``depth`` guesses.
    Kept: the same arrays for the same arguments (the exact search of many small
    sets asks for the same few), so they are read, never written."""
    lbtab = np.zeros((branching + 1, n + 1), dtype=np.int64)
    captab = np.zeros((branching + 1, UNLIMITED + 1), dtype=np.int64)
    for b in range(branching + 1):
        lbt, cap = lower_bounds(n, max(b, 1), UNLIMITED)
        cap[depth + 1 :] = cap[depth]  # never used beyond depth; keep the arrays one size
        lbtab[b] = 0 if mode == 1 else lbt
        captab[b] = cap
    return lbtab, captab


@njit(cache=True, nogil=True)
def replies_met(fb, most):
    """How many different reply codes (0 to 127) the table ``fb`` holds, counted no
    further than ``most`` (it stops there: a part of a game meets the whole game's
    replies within its first rows, most often)."""
    seen = np.zeros(128, dtype=np.bool_)
    met = 0
    for g in range(fb.shape[0]):
        for s in range(fb.shape[1]):
            r = fb[g, s]
            if not seen[r]:
                seen[r] = True
                met += 1
                if met >= most:
                    return met
    return met


@njit(cache=True, nogil=True, inline="always")
def split_sizes(row, S, sizes, replies, n_replies):
    """Count the secrets ``S`` by the reply ``row`` gives them (``row``: a guess's
    row of the reply table) into ``sizes`` (all 0 before), and list the replies
    met, increasing, in ``replies``; their number."""
    n = S.shape[0]
    met = 0
    if n < n_replies <= 64:
        # few secrets: note the replies met in a bit set, then list them
        touched = np.uint64(0)
        for j in range(n):
            r = row[S[j]]
            touched |= np.uint64(1) << np.uint64(r)
            sizes[r] += 1
        while touched != 0:
            low = touched & (~touched + np.uint64(1))
            replies[met] = popcount(low - np.uint64(1))
            met += 1
            touched ^= low
    else:
        for j in range(n):
            sizes[row[S[j]]] += 1
        for r in range(n_replies):
            if sizes[r] != 0:
                replies[met] = r
                met += 1
    return met


@njit(cache=True, nogil=True, inline="always")
def split_bound(sizes, replies, met, base, lbt, cap_below, win):
    """The bound of a split counted by :func:`split_sizes` (whose ``sizes`` it sets
    back to 0): ``(bound, parts, largest, squares, wins)`` — ``base + sum L(k)``
    over the parts besides the win (INF when one holds more than ``cap_below``
    secrets, the most the guesses left can solve), their number, the largest,
    the sum of their squares, and 1 when the guess can win."""
    bound = base
    parts = 0
    squares = 0
    largest = 0
    wins = 0
    for x in range(met):
        r = replies[x]
        k = sizes[r]
        sizes[r] = 0
        if r == win:
            wins = 1
        else:
            parts += 1
            squares += k * k
            largest = max(largest, k)
            if k > cap_below:
                bound = INF
            elif bound < INF:
                bound += lbt[k]
    return bound, parts, largest, squares, wins


@njit(cache=True, nogil=True)
def candidate_bounds(S, cands, d, mode, fb, lbt, cap, win, n_replies, out_lb, out_parts,
                     out_worst, out_sq, out_cons):
    """For each candidate: its lower bound (``n + sum L(part)``; 0 + ... when
    ``mode`` is 1, feasibility; INF when a part cannot be solved in ``d - 1``
    guesses), its number of parts besides the win, its largest part, its sum of
    squared parts, and whether it can win (:func:`split_bound`)."""
    sizes = np.zeros(n_replies, dtype=np.int64)
    replies = np.empty(n_replies, dtype=np.int64)
    base = S.shape[0] if mode == 0 else 0
    for t in range(cands.shape[0]):
        met = split_sizes(fb[cands[t]], S, sizes, replies, n_replies)
        bound, parts, largest, squares, wins = split_bound(
            sizes, replies, met, base, lbt, cap[d - 1], win
        )
        out_lb[t] = bound
        out_parts[t] = parts
        out_worst[t] = largest
        out_sq[t] = squares
        out_cons[t] = wins


#: the most (candidate, secret) pairs :func:`split_table` looks at in one go
SPLIT_BLOCK = 1 << 20


def split_table(S: np.ndarray, cands: np.ndarray, d: int, mode: int, fb: np.ndarray,
                lbt: np.ndarray, cap: np.ndarray, win: int, n_replies: int) -> np.ndarray:
    """:func:`candidate_bounds` with numpy: a (5, candidates) array of each
    one's bound, parts, largest part, sum of squared parts and whether it can
    win.  The Python levels of the search score a few dozen sets: numpy's
    counting costs them nothing, and compiles nothing on the first run (the
    compiled :func:`candidate_bounds` took half a second to).

    >>> fb = np.array([[2, 0, 0, 1], [1, 2, 1, 1]], dtype=np.int8)
    >>> L, cap = lower_bounds(4, 2)
    >>> split_table(np.arange(4), np.array([0, 1]), 3, 0, fb, L, cap, 2, 3).tolist()
    [[8, 9], [2, 1], [2, 3], [5, 9], [1, 1]]
    """
    n, k = len(S), len(cands)
    out = np.empty((5, k), dtype=np.int64)
    step = max(1, SPLIT_BLOCK // max(n, 1))
    for a in range(0, k, step):
        rows = fb[cands[a : a + step]][:, S].astype(np.int64)
        rows += (np.arange(len(rows)) * n_replies)[:, None]
        sizes = np.bincount(rows.ravel(), minlength=len(rows) * n_replies).reshape(-1, n_replies)
        out[4, a : a + step] = sizes[:, win] > 0
        sizes[:, win] = 0
        bound = (n if mode == 0 else 0) + lbt[sizes].sum(axis=1)
        bound[(sizes > cap[d - 1]).any(axis=1)] = INF
        out[0, a : a + step] = bound
        out[1, a : a + step] = np.count_nonzero(sizes, axis=1)
        out[2, a : a + step] = sizes.max(axis=1)
        out[3, a : a + step] = (sizes * sizes).sum(axis=1)
    return out


@njit(cache=True, nogil=True, inline="always")
def lay_out_parts(row, S, n_replies, sizes, start, fill, out):
    """Lay the secrets ``S`` out in ``out`` by the reply ``row`` (a guess's row of
    the reply table) gives them: part after part, replies increasing, each part
    in the order of ``S``.  ``sizes[r]`` (all 0 before) becomes the size of the
    part of reply ``r``, ``start[r]`` where it begins; ``fill`` is scratch."""
    n = S.shape[0]
    for j in range(n):
        sizes[row[S[j]]] += 1
    pos = 0
    for r in range(n_replies):
        start[r] = pos
        fill[r] = pos
        pos += sizes[r]
    for j in range(n):
        r = row[S[j]]
        out[fill[r]] = S[j]
        fill[r] += 1
