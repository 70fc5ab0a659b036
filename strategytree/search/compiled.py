"""The compiled branch and bound: the levels of the search below the first few.

:func:`solve` finds the least total cost of a set of secrets, depth first,
with an explicit stack of levels (numba cannot cache recursive functions).
Each level is one set of secrets; its state lives in :class:`Levels`: one
record of :data:`FRAME` per level (read by field name), and rows of arrays.
The loop in :func:`solve` takes one step at a time:

- **enter a set** (:func:`enter`): the answers that need no search (one or two
  secrets, a bound already over the limit, the cache);
- **score the candidates** (:func:`score_candidates`, or :func:`score_forced`
  for one given guess): one guess per symmetry class, pruned by its bound,
  sorted by bound then by the sum of squared parts; a guess that splits the
  set into parts of at most two while meeting the bound ends the set at once;
- **next candidate** (:func:`next_candidate`): narrow the symmetry group by
  the next guess (:func:`narrow_group`), split the set by it
  (:func:`split_into_parts`), the parts larger than two to solve largest
  first, each with its bound (:func:`first_bounds`);
- **next part** (:func:`next_part`): go down into the next part, first with
  a limit just over its bound (a cheap look), then for its exact cost; when
  none is left, the candidate is done (:func:`candidate_done`);
- **finish** (:func:`finish`): the set's best guess and cost (or a lower bound)
  go to the cache; back up (:func:`take_part_cost`).

The game's tables are one :class:`Tables`; the scratch arrays of a node one
:class:`Scratch`.  Everything here also runs as plain Python with
``NUMBA_DISABLE_JIT=1`` (slowly: small games), so it can be stepped through.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..feedback import lowest_bit, popcount
from ..jit import njit
from ..sorting import merge_passes
from ..symmetry import compiled as symmetry_loops
from ..symmetry import least_in_class
from .bounds import INF, lay_out_parts, split_bound, split_sizes
from .cache import PAUSED, USED, cache_key, find, store

__all__ = [
    "FRAME",
    "MAX_REPLIES",
    "NODES",
    "STOP",
    "Levels",
    "Scratch",
    "Tables",
    "solve",
    "workspace",
]

# numba knows least_in_class; stabilizer is the dispatcher Python calls too (one compile)
stabilizer = symmetry_loops().stabilizer

#: slots of the statistics array: sets searched, and "stop" (set from outside)
NODES, STOP = 0, 1
#: the steps of :func:`solve`
ENTER, NEXT_CANDIDATE, NEXT_PART, FINISH, RETURN = 0, 1, 2, 3, 4


class Tables(NamedTuple):
    """A game as the compiled search reads it (never written)."""

    fb: np.ndarray
    """(guesses, secrets) int8: the reply of each guess to each secret"""
    fbT: np.ndarray
    """(secrets, guesses): the same, transposed (empty when too big, or not used)"""
    cold_rows: bool
    """a guess's replies are read from ``fbT`` (:func:`row_of`): ``fb``'s rows are long"""
    codes: np.ndarray
    """(guesses, pegs) uint8: the colours of each guess"""
    gmask: np.ndarray
    """the colours of each guess, as bits"""
    smask: np.ndarray
    """the colours of each secret, as bits"""
    as_guess: np.ndarray
    """the guess index of each secret"""
    ids: np.ndarray
    """the number of each secret in the cache's keys (its index in the whole game)"""
    lbtab: np.ndarray
    """lbtab[b]: lower bounds of k secrets when guesses make at most b parts"""
    captab: np.ndarray
    """captab[b]: the most secrets d guesses solve, likewise"""
    win: int
    """the reply that wins"""
    n_replies: int
    """replies (reply codes are below it)"""
    nsmall: int
    """sets this small have only parts with L(k) = 2k - 1"""
    full: int
    """every colour, as bits"""
    symm: bool
    """one guess per symmetry class"""
    merge: bool
    """guesses with colours no secret has are merged (every code is a guess)"""
    dkeyed: bool
    """the cache's keys hold the guesses left (a maximum is asked for)"""
    mode: int
    """0: least total; 1: does a strategy within the guesses exist (costs 0 or INF)"""


#: the most replies a game may have (reply codes are int8)
MAX_REPLIES = 128

#: the state of one level of the search (a row of :attr:`Levels.frames`): a
#: record, read and written by field name, at no cost in compiled code
FRAME = np.dtype([
    ("offset", np.int64),  # where the level's set starts in its row of Levels.sets
    ("n_secrets", np.int64),  # secrets in the level's set
    ("left", np.int64),  # guesses left
    ("limit", np.int64),  # the cost from which the exact value is not needed
    ("played", np.int64),  # the colours played so far, as bits
    ("force", np.int64),  # the only guess to try (-1: every guess)
    ("lb", np.int64),  # the set's lower bound
    ("key1", np.int64),  # the set's key in the cache (first half)
    ("key2", np.int64),  # (second half)
    ("ncand", np.int64),  # candidates (in Levels.cand)
    ("tried", np.int64),  # the candidate being tried
    ("guess", np.int64),  # that candidate
    ("guess_colours", np.int64),  # its colours, as bits
    ("total", np.int64),  # what it costs at least
    ("nparts", np.int64),  # its parts to solve
    ("part", np.int64),  # the part being solved
    ("phase", np.int64),  # 0: a cheap look at each part; 1: solving them
    ("best", np.int64),  # the least cost found (or the limit)
    ("best_guess", np.int64),  # its guess (-1: none under the limit)
    ("fail", np.int64),  # the least cost of the candidates refuted
    # the most parts besides the win a guess makes of the set (a row of the
    # bound tables), and of the parent's set (a part's guesses make no more)
    ("branching", np.int64),
    ("parent_branching", np.int64),
    ("group_size", np.int64),  # maps of the level's symmetry group (0: none used)
    ("part_size", np.int64, (MAX_REPLIES,)),  # the size of each part (by reply)
    ("part_start", np.int64, (MAX_REPLIES,)),  # where it starts in the next row of sets
    ("parts", np.int64, (MAX_REPLIES,)),  # the parts to solve (replies), largest first
    ("part_cost", np.int64, (MAX_REPLIES,)),  # what each costs at least (exactly, once solved)
])


class Levels(NamedTuple):
    """The state of each level of the search: row ``L`` is the set at depth ``L``."""

    frames: np.ndarray
    """(levels + 1,) records of :data:`FRAME`: the level's state"""
    sets: np.ndarray
    """(levels + 1, secrets) int32: each level's parts, side by side"""
    cand: np.ndarray
    """(levels, guesses): the candidates, in the order tried"""
    cand_lb: np.ndarray
    """(levels, guesses): their lower bounds"""
    group_perm: np.ndarray
    """(levels + 1, maps, pegs): the symmetry group of the level's history: positions"""
    group_tau: np.ndarray
    """(levels + 1, maps, colours): and colours (-1: any colour never played)"""


class Scratch(NamedTuple):
    """Scratch arrays of one node."""

    order_key: np.ndarray
    """(guesses,) the sort key of each candidate kept"""
    found: np.ndarray
    """(guesses,) the candidates kept"""
    found_lb: np.ndarray
    """(guesses,) their bounds"""
    fill: np.ndarray
    """(replies,) replies met, or where the next secret of each part goes"""
    seen: np.ndarray
    """(guesses,) the node at which each guess was last scored"""
    met: np.ndarray
    """(guesses,) uint64: the replies each guess meets, as bits"""
    row: np.ndarray
    """(secrets,) a guess's replies, read from the transposed table (:func:`row_of`)"""
    flags: np.ndarray
    """(guesses, to a multiple of 8) uint8: whether :func:`unpruned` keeps each guess"""
    kept: np.ndarray
    """(guesses,) the guesses it keeps, in order"""
    label: np.ndarray
    """(colours,) all -1: scratch of the symmetry tests"""
    free: np.ndarray
    """(colours,) the colours never played, increasing"""
    order: np.ndarray
    """(guesses,) the candidates kept, in order of their key"""
    spare: np.ndarray
    """(guesses,) scratch of that sort"""


def workspace(n: int, m: int, n_replies: int, depth: int, pegs: int = 1, colors: int = 1,
              maps: int = 1) -> tuple[Levels, Scratch]:
    """The state and scratch arrays for :func:`solve` on ``n`` secrets and ``m``
    guesses (``maps``: the most maps a symmetry group given to it may have)."""
    levels = min(depth, n) + 2

    if n_replies > MAX_REPLIES:
        raise ValueError(f"at most {MAX_REPLIES} replies, not {n_replies}")
    # a record array: its rows read by field name both compiled and as plain Python
    frames = np.zeros(levels + 1, dtype=FRAME).view(np.recarray)
    state = Levels(
        frames=frames,
        sets=np.empty((levels + 1, n), dtype=np.int32),
        cand=np.empty((levels, m), dtype=np.int64),
        cand_lb=np.empty((levels, m), dtype=np.int64),
        group_perm=np.zeros((levels + 1, maps, pegs), dtype=np.int64),
        group_tau=np.full((levels + 1, maps, colors), -1, dtype=np.int64),
    )
    scratch = Scratch(
        order_key=np.empty(m, dtype=np.int64),
        found=np.empty(m, dtype=np.int64),
        found_lb=np.empty(m, dtype=np.int64),
        fill=np.empty(n_replies, dtype=np.int64),
        seen=np.full(m, -1, dtype=np.int64),
        met=np.zeros(m, dtype=np.uint64),
        row=np.zeros(n, dtype=np.int8),
        flags=np.zeros(-(-m // 8) * 8, dtype=np.uint8),
        kept=np.empty(m, dtype=np.int64),
        label=np.full(colors, -1, dtype=np.int64),
        free=np.empty(colors, dtype=np.int64),
        order=np.empty(m, dtype=np.int64),
        spare=np.empty(m, dtype=np.int64),
    )
    return state, scratch


# -- the steps -----------------------------------------------------------------------
# Each step takes the level's record ``f`` (and ``nf``, the next level's) and only
# the arrays it reads.
# The small steps are pasted into solve (inline="always"); the scoring, a long
# kernel, is compiled on its own: numba pastes a function in by copying its IR,
# each block with a deep copy of every variable of the function (0.8 s of the
# first compile for this one); called, it costs a call per set searched, nothing
# against its loop over the guesses.  Functions only compiled code calls have no
# Python wrapper (no_cpython_wrapper, no_cfunc_wrapper: code to compile that
# nothing runs).
#
# solve and score_candidates keep no reference counts (_nrt=False): they allocate
# nothing, every array they read is the caller's for the whole call, and what
# they call returns no array (merge_passes, not merge_order).  numba would count
# a reference at every view (a row of a table, a level's set) and for every array
# handed to a call, and uncount it after: atomic operations that took a tenth of
# the run time, and code that took a third of the first compile.
@njit(cache=True, nogil=True, inline="always")
def level_set(sets, f, L):
    """The secrets of level ``L`` (its record ``f``)."""
    return sets[L, f.offset : f.offset + f.n_secrets]


@njit(cache=True, nogil=True, inline="always")
def enter(f, S, lbtab, captab, dkeyed, ids, cache, stats):
    """Enter the set ``S`` of a level: ``(True, cost)`` when it needs no search (one
    or two secrets, too many for the guesses left, a bound at the limit, an
    answer in the cache); else ``(False, 0)`` with its lower bound and key noted,
    and one more set counted as searched."""
    n = f.n_secrets
    d = f.left
    lbt = lbtab[f.parent_branching]
    cap = captab[f.parent_branching]
    f.branching = f.parent_branching
    if n == 1:
        return True, lbt[1]
    if n > cap[d]:
        return True, np.int64(INF)
    lb = lbt[n]
    if f.force < 0:
        if lb >= f.limit:
            return True, lb
        if n == 2:
            return True, lbt[2]
        f.key1, f.key2 = cache_key(S, d if dkeyed else 0, ids)
        e = cache.index[find(cache, f.key1)] - 1
        if e >= 0 and cache.rows[e, 1] == f.key2:
            cost = cache.rows[e, 2]
            if (cache.rows[e, 4] & 1) != 0 or cost >= f.limit:
                return True, cost
            lb = max(lb, cost)
    f.lb = lb
    stats[NODES] += 1
    return False, np.int64(0)


@njit(cache=True, nogil=True, inline="always")
def begin_candidates(f, count, fail):
    """The level's ``count`` candidates are ready: try them from the first."""
    f.ncand = count
    f.fail = fail
    f.tried = 0
    f.best = f.limit
    f.best_guess = -1


@njit(cache=True, nogil=True, inline="always")
def row_of(t, g, S, out):
    """The replies of guess ``g`` from the secrets ``S``, at their places: its row
    of ``t.fb``, or, when those rows are long (MM(5,8)'s whole table, 1 GiB: its
    rows by guess are not at hand) read from ``t.fbT`` into ``out``: the rows of
    ``S``, which the scan has just read."""
    if not t.cold_rows:
        return t.fb[g]
    fbT = t.fbT
    for j in range(S.shape[0]):
        out[S[j]] = fbT[S[j], g]
    return out


@njit(cache=True, nogil=True, inline="always")
def score_forced(L, f, S, t, lv, ws):
    """The only candidate of level ``L`` is its forced guess: its bound."""
    g = f.force
    lbt = t.lbtab[f.branching]
    cap = t.captab[f.branching]
    fill = ws.fill
    met = split_sizes(row_of(t, g, S, ws.row), S, f.part_size, fill, t.n_replies)
    base = S.shape[0] if t.mode == 0 else 0
    bound = split_bound(f.part_size, fill, met, base, lbt, cap[f.left - 1], t.win)[0]
    lv.cand[L, 0] = g
    lv.cand_lb[L, 0] = bound
    begin_candidates(f, 1, INF)


@njit(cache=True, nogil=True, inline="always")
def free_colours(played, free):
    """List the colours not in ``played`` (bits) in ``free``, increasing; their number."""
    nfree = 0
    for x in range(free.shape[0]):
        if (played >> x) & 1 == 0:
            free[nfree] = x
            nfree += 1
    return nfree



@njit(cache=True, nogil=True, inline="always")
def dead_colours(S, t):
    """The colours no secret of ``S`` has, but the first (bits)."""
    present = np.int64(0)
    for j in range(S.shape[0]):
        present |= t.smask[S[j]]
    dead = t.full & ~present
    return dead & (dead - 1)



@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def scan(fbT, S, out):
    """``out[g]``: the bit set of the replies guess ``g`` gets from the secrets ``S``
    (every guess at once, four secrets at a time: loops the compiler vectorises,
    each reading and writing ``out`` once per four secrets)."""
    m = out.shape[0]
    n = S.shape[0]
    one = np.uint64(1)
    for x in range(m):
        out[x] = 0
    for j in range(n % 4):
        col = fbT[S[j]]
        for x in range(m):
            out[x] |= one << np.uint64(col[x])
    for j in range(n % 4, n, 4):
        c0, c1, c2, c3 = fbT[S[j]], fbT[S[j + 1]], fbT[S[j + 2]], fbT[S[j + 3]]
        for x in range(m):
            out[x] |= ((one << np.uint64(c0[x])) | (one << np.uint64(c1[x]))
                       | (one << np.uint64(c2[x])) | (one << np.uint64(c3[x])))



@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def unpruned(met, n, win, lim, keep_to, flags, kept):
    """The guesses :func:`replies_bound` does not prune (their bound under
    ``lim``, or at most ``keep_to``), in order, in ``kept``: their number, and the
    least bound of the others.  A loop the compiler vectorises (in
    ``score_candidates``' loop, the same tests took as long as the scan), then
    the guesses kept read off the flags eight at a time."""
    m = met.shape[0]
    wins = np.uint64(win)
    fmin = np.int64(INF)
    for x in range(m):
        b = met[x]
        bound = 3 * n - np.int64((b >> wins) & np.uint64(1)) - np.int64(popcount(b))
        pruned = (bound >= lim) & (bound > keep_to)
        flags[x] = not pruned
        fmin = min(fmin, bound if pruned else np.int64(INF))
    count = np.int64(0)
    words = flags.view(np.uint64)  # (its bytes past m stay 0)
    for k in range(words.shape[0]):
        word = words[k]
        while word:  # a byte of 1 for each guess kept
            kept[count] = 8 * k + (lowest_bit(word) >> 3)
            count += 1
            word &= word - np.uint64(1)
    return count, fmin



@njit(cache=True, nogil=True, inline="always")
def most_parts(met, win):
    """The most replies besides the win any guess meets (``met``: :func:`scan`'s)."""
    nowin = ~(np.uint64(1) << np.uint64(win))
    most = np.int64(1)
    for x in range(met.shape[0]):
        most = max(most, np.int64(popcount(met[x] & nowin)))
    return most



@njit(cache=True, nogil=True, inline="always")
def replies_bound(n, touched, win):
    """``L(k) >= 2k - 1``, so ``n + sum L(part) >= 3n - 2 (can win) - parts``: a
    bound from the replies met alone (``touched``, bits), exact when every part
    is small."""
    wins = np.int64((touched >> np.uint64(win)) & np.uint64(1))
    return 3 * n - wins - np.int64(popcount(touched))



@njit(cache=True, nogil=True, inline="always")
def settle(f, cache, cost, g, n):
    """The level's set of ``n`` secrets costs exactly ``cost``, with ``g`` first:
    cache it."""
    store(cache, f.key1, f.key2, cost, g, 2 * n + 1)


@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True, _nrt=False)
def score_candidates(L, f, S, t, lv, ws, cache, stats):
    """Score every guess on the set of level ``L`` and keep, sorted, those whose
    bound is under the limit: ``(True, cost)`` when one settles the set at once
    (parts of at most two meeting the bound), else ``(False, 0)``.

    The possible secrets are scored first: one that splits the rest into parts
    of at most two is optimal when it meets the bound, and if none splits them
    into singletons, no strategy costs less than ``2n``.  Then the other
    guesses, one per symmetry class.  When the replies of every guess can be
    met at once (:func:`scan`), a guess is pruned by the bound of its replies
    alone before anything else, and no guess makes more parts than the most any
    makes here: tighter bounds.  A long kernel: the tests of one guess read best
    in one loop, in the order they are made (cheapest first).
    """
    n = f.n_secrets
    d = f.left
    # the arrays of the loop, as locals (a field read in the loop costs a
    # reference count each time)
    fb, fbT, codes, as_guess, gmask = t.fb, t.fbT, t.codes, t.as_guess, t.gmask
    seen, met_bits, fill, free, label = ws.seen, ws.met, ws.fill, ws.free, ws.label
    flags, kept = ws.flags, ws.kept
    found, found_lb, order_key = ws.found, ws.found_lb, ws.order_key
    gperm, gtau, h = lv.group_perm[L], lv.group_tau[L], f.part_size
    win, n_replies, mode = t.win, t.n_replies, t.mode
    m = fb.shape[0]
    lim = f.limit
    lb = f.lb
    lbt = t.lbtab[f.branching]
    capd = t.captab[f.branching][d - 1]
    wide_ok = fbT.shape[0] == fb.shape[1] and fbT.shape[1] == m
    dead_rest = dead_colours(S, t)
    nfree = free_colours(f.played, free)
    gk = f.group_size
    symtest = t.symm and gk > 0 and (gk > 1 or nfree > 1)
    merge = t.merge
    stamp = stats[NODES]
    fmin = np.int64(INF)
    base = n if mode == 0 else 0
    wide = n * n + 1
    count = np.int64(0)  # not 0: merge_order would also be compiled for the literal
    quick = mode == 0 and n_replies <= 64
    fast = quick and n <= t.nsmall and capd >= n
    pruning = quick and wide_ok  # the guesses pruned by their replies alone (scanned)
    total = n + m
    settled = np.int64(-1)  # the guess that settles the set at once
    if pruning and not fast:  # (fast: the scan waits for the secrets' shortcut)
        scan(fbT, S, met_bits)
        bm = most_parts(met_bits, win)
        if bm < f.parent_branching:
            f.branching = bm
            lbt = t.lbtab[bm]
            capd = t.captab[bm][d - 1]
            lb = max(lb, lbt[n])
    for idx in range(n + m):
        if idx == n and pruning:
            if fast:
                scan(fbT, S, met_bits)
            # equivalent guesses have the same bound: pruned before the class tests
            n_kept, fmin_pruned = unpruned(met_bits, n, win, lim, min(lb, 2 * n) if fast else -1,
                                           flags, kept)
            fmin = min(fmin, fmin_pruned)
            total = n + n_kept
        if idx == total:
            break
        lbg = np.int64(0)
        if idx < n:
            g = as_guess[S[idx]]
            seen[g] = stamp
            if idx == n - 1 and mode == 0 and lb < 2 * n:
                lb = 2 * n  # no secret before this one splits the rest into singletons
            # the group maps the set to itself: a secret's class holds secrets
            # only, and its first member is one of them
            if symtest and not least_in_class(codes[g], gperm, gtau, gk, free, label):
                continue
        else:
            g = kept[idx - n] if pruning else idx - n
            if seen[g] == stamp:  # a possible secret, scored already
                continue
            if merge and (gmask[g] & dead_rest) != 0:  # merged with a guess before it
                continue
            if symtest and not least_in_class(codes[g], gperm, gtau, gk, free, label):
                continue
        row = row_of(t, g, S, ws.row)
        if quick:
            if wide_ok and (idx >= n or not fast):  # scanned by now
                touched = met_bits[g]
            else:
                touched = np.uint64(0)
                for j in range(n):
                    touched |= np.uint64(1) << np.uint64(row[S[j]])
            lbg = replies_bound(n, touched, win)
            if not fast and lbg >= lim:
                fmin = min(fmin, lbg)
                continue
        if fast:
            if lbg <= lb and lbg <= 2 * n:  # parts of at most two, meeting the bound
                settled = g
                break
            if lbg >= lim:
                fmin = min(fmin, lbg)
                continue
        met = split_sizes(row, S, h, fill, n_replies)
        lbg, _parts, worst, sq, _wins = split_bound(h, fill, met, base, lbt, capd, win)
        if lbg >= INF:
            continue
        if worst <= 2 and lbg <= lb:  # nothing left to search, meeting the bound
            settled = g
            break
        if lbg >= lim:
            fmin = min(fmin, lbg)
            continue
        found[count] = g
        found_lb[count] = lbg
        order_key[count] = (lbg if mode == 0 else worst) * wide + sq
        count += 1
    if settled >= 0:  # (one place that settles: its code compiled once)
        settle(f, cache, lbg, settled, n)
        return True, lbg
    f.lb = keep_sorted(lv.cand[L], lv.cand_lb[L], ws, count, fmin, lb)
    begin_candidates(f, count, fmin)
    return False, np.int64(0)



@njit(cache=True, nogil=True, inline="always")
def keep_sorted(cand, cand_lb, ws, count, fmin, lb):
    """The ``count`` candidates found, sorted by their key, as the level's
    (``cand``, ``cand_lb``: its rows); the set's bound, raised to the least bound
    of any guess (none costs less)."""
    order = ws.order
    for i in range(count):
        order[i] = i
    if merge_passes(ws.order_key, order, ws.spare, count):  # ties: in the order found
        order = ws.spare
    for i in range(count):
        cand[i] = ws.found[order[i]]
        cand_lb[i] = ws.found_lb[order[i]]
    least = fmin
    if count > 0 and cand_lb[0] < least:
        least = cand_lb[0]
    return max(lb, least)


@njit(cache=True, nogil=True, inline="always")
def split_into_parts(f, S, row, n_replies, win, fill, out):
    """Lay the level's set ``S`` out by the replies ``row`` gives (a guess's row),
    part after part, in ``out``; list the parts of more than two secrets (besides
    the win) largest first (ties: lower reply first); their number."""
    h, big = f.part_size, f.parts
    lay_out_parts(row, S, n_replies, h, f.part_start, fill, out)
    nb = 0
    for r in range(n_replies):
        if h[r] > 2 and r != win:
            big[nb] = r
            nb += 1
    # largest parts first: they most often show that a guess costs too much
    for x in range(1, nb):
        r = big[x]
        y = x - 1
        while y >= 0 and h[big[y]] < h[r]:
            big[y + 1] = big[y]
            y -= 1
        big[y + 1] = r
    return nb


@njit(cache=True, nogil=True, inline="always")
def next_candidate(f, cand, cand_lb, gmask):
    """Take the level's next candidate (``cand``, ``cand_lb``: its rows): True; or
    False when none is left under the best cost (its bound noted as a failure)."""
    i = f.tried
    if i >= f.ncand or cand_lb[i] >= f.best:
        if i < f.ncand and cand_lb[i] < f.fail:
            f.fail = cand_lb[i]
        return False
    f.guess = cand[i]
    f.guess_colours = gmask[f.guess]
    f.total = cand_lb[i]
    return True


@njit(cache=True, nogil=True, inline="always")
def narrow_group(f, nf, code, symm, perms, taus, out_perms, out_taus):
    """The next level's symmetry group: the maps of this level's that fix ``code``,
    the guess played (none when no symmetry is used)."""
    if symm and f.group_size > 0:
        nf.group_size = stabilizer(perms, taus, f.group_size, code, out_perms, out_taus)
    else:
        nf.group_size = 0


@njit(cache=True, nogil=True, inline="always")
def first_bounds(f, nf, lbtab):
    """Before solving the parts of the candidate: each part's lower bound (in the
    rows of bounds the next level uses), and which phase comes first."""
    lbt = lbtab[f.branching]
    nf.parent_branching = f.branching
    for x in range(f.nparts):
        f.part_cost[x] = lbt[f.part_size[f.parts[x]]]
    f.part = 0
    f.phase = 0 if f.nparts > 1 else 1


@njit(cache=True, nogil=True, inline="always")
def next_part(f, nf):
    """Set up the next level (its record ``nf``) with the next part of the
    candidate being tried: True; or False when its parts are all solved (or it
    costs too much)."""
    if f.part >= f.nparts and f.phase == 0 and f.total < f.best:
        f.phase = 1  # every part has a first bound: now solve them
        f.part = 0
    if f.part >= f.nparts or f.total >= f.best:
        return False
    a = f.part
    r = f.parts[a]
    nf.offset = f.part_start[r]
    nf.n_secrets = f.part_size[r]
    nf.left = f.left - 1
    if f.phase == 0:
        # first a cheap look at each part (is its bound met?), so that a guess
        # whose parts all cost a little more is refuted early
        nf.limit = f.part_cost[a] + 1
    else:
        nf.limit = f.best - (f.total - f.part_cost[a])
    nf.played = f.played | f.guess_colours
    nf.force = -1
    return True


@njit(cache=True, nogil=True, inline="always")
def candidate_done(f, n_replies):
    """The candidate being tried is settled: keep it if best; NEXT_CANDIDATE, or
    FINISH when the best meets the set's bound."""
    for r in range(n_replies):
        f.part_size[r] = 0
    step = NEXT_CANDIDATE
    if f.total < f.best:
        f.best = f.total
        f.best_guess = f.guess
        if f.best <= f.lb:
            step = FINISH
    elif f.total < f.fail:
        f.fail = f.total
    f.tried += 1
    return step


@njit(cache=True, nogil=True, inline="always")
def finish(f, cache):
    """The level's set is searched: its cost (exact under the limit, else a lower
    bound), cached unless a guess was forced."""
    n = f.n_secrets
    if f.force >= 0:
        return f.best if f.best_guess >= 0 else f.fail
    # exact with its best guess, or a lower bound with none (-1): one store
    exact = f.best_guess >= 0
    cost = f.best if exact else max(f.lb, f.fail)
    store(cache, f.key1, f.key2, cost, f.best_guess, 2 * n + (1 if exact else 0))
    return cost


@njit(cache=True, nogil=True, inline="always")
def take_part_cost(f, cost):
    """A part of the candidate being tried costs ``cost``: raise its total."""
    a = f.part
    if cost > f.part_cost[a]:
        f.total += cost - f.part_cost[a]
        f.part_cost[a] = cost
    f.part += 1


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def solve(S0, d0, limit0, played0, force0, t, lv, ws, cache, stats):
    """Least total cost of the secrets ``S0`` (sorted indices) with ``d0`` guesses left.

    Returns the exact minimum when it is below ``limit0``, else a lower bound that
    is at least ``limit0`` (INF: no strategy within the guesses left).
    ``force0 >= 0`` evaluates only that guess (and caches nothing for ``S0``).
    ``played0``: the colours played so far (bits); ``lv.frames[0].group_size``
    maps of the symmetry group of the history in ``lv.group_*[0]``.  Exact
    results and lower bounds of the sets met go to ``cache``
    (:class:`~strategytree.search.cache.CacheArrays`).  Stops, storing nothing
    more, when ``stats[STOP]`` is set; ``stats[NODES]`` counts the sets searched.

    Pauses when the cache has too few rows free (returns, ``cache.meta[PAUSED]``
    set): called again, with the same arguments and a bigger cache, it goes on
    where it was.
    """
    frames, sets, fill = lv.frames, lv.sets, ws.fill
    cand, cand_lb, perms, taus = lv.cand, lv.cand_lb, lv.group_perm, lv.group_tau
    codes, gmask, lbtab, captab = t.codes, t.gmask, t.lbtab, t.captab
    dkeyed, n_replies, win, symm = t.dkeyed, t.n_replies, t.win, t.symm
    # the most rows stored before the next look at the room left: a set, then
    # each level below it finishing
    room = frames.shape[0] + 1
    L = cache.meta[PAUSED] - 1  # (an int64: a literal 0 would compile score_candidates twice)
    cache.meta[PAUSED] = 0
    if L < 0:
        L = np.int64(0)
        for i in range(S0.shape[0]):  # (a slice assignment compiles its error path: seconds)
            sets[0, i] = S0[i]
        f = frames[0]
        f.offset = 0
        f.n_secrets = S0.shape[0]
        f.left = d0
        f.limit = limit0
        f.played = played0
        f.force = force0
        f.parent_branching = lbtab.shape[0] - 1
    step = ENTER
    ret = np.int64(0)
    while True:
        f = frames[L]
        if step == ENTER:
            if stats[STOP] != 0:
                return INF
            if cache.meta[USED] + room > cache.rows.shape[0]:
                cache.meta[PAUSED] = L + 1
                return INF
            S = level_set(sets, f, L)
            settled, ret = enter(f, S, lbtab, captab, dkeyed, t.ids, cache, stats)
            step = RETURN
            if not settled:
                if f.force >= 0:
                    score_forced(L, f, S, t, lv, ws)
                    step = NEXT_CANDIDATE
                else:
                    settled, ret = score_candidates(L, f, S, t, lv, ws, cache, stats)
                    if not settled:
                        step = NEXT_CANDIDATE
        elif step == NEXT_CANDIDATE:
            step = FINISH
            if next_candidate(f, cand[L], cand_lb[L], gmask):
                g = f.guess
                nf = frames[L + 1]
                narrow_group(f, nf, codes[g], symm, perms[L], taus[L], perms[L + 1], taus[L + 1])
                S = level_set(sets, f, L)
                f.nparts = split_into_parts(f, S, row_of(t, g, S, ws.row), n_replies, win, fill,
                                            sets[L + 1])
                first_bounds(f, nf, lbtab)
                step = NEXT_PART
        elif step == NEXT_PART:
            if next_part(f, frames[L + 1]):
                L += 1
                step = ENTER
            else:
                step = candidate_done(f, n_replies)
        elif step == FINISH:
            ret = finish(f, cache)
            step = RETURN
        else:  # RETURN
            if stats[STOP] != 0:
                return INF
            if L == 0:
                return ret
            L -= 1
            take_part_cost(frames[L], ret)
            step = NEXT_PART
