"""The greedy builders' choice at a node: score the candidates under a rule,
break ties and stop early, in one compiled call (:func:`best_guess`).

The secrets are bit-sliced (:mod:`strategytree.bitsliced`), and most guesses
are never scored: a lower bound per set of colours orders and prunes them.
:func:`_best_guess_sliced_py` is a short driver over named steps: the set-up
(:func:`_rule_costs`, :func:`slice_secrets`, :func:`_colour_sets`,
:func:`_places_of`), then the scan (:func:`_scan`), one loop over the guesses
that scores each with :func:`_one_block_cost` or :func:`_blocks_cost`.

The steps run once per call are functions of their own, compiled once each
(one signature: nothing reaches them as a literal); the small ones in the
scan's inner loops are ``inline="always"`` functions that numba pastes in, and
the scan calls each scoring step from one place only.  What pasting in costs is
paid at every call site, once per install, and grows with the depth of steps
pasted into steps (numba copies a step's code whole, with what was pasted into
it, at every level): so the scan calls the scoring steps itself, not through a
step that picks one.  The steps pass named tuples of arrays; the inner loops
over blocks take their arrays unpacked.

Nothing is kept between calls in the module: tables derived once per game are
kept on the game (:meth:`strategytree.game.Game.memo`), and what the choice
reuses from one call to the next is the caller's own (:class:`ChoiceScratch`),
so that threads share nothing that changes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .bitsliced import SLICED_PEGS, count_equal, set_sums, slice_secrets
from .errors import StrategyTreeError
from .feedback import compiled as feedback_loops
from .feedback import popcount, reply_of_rows
from .game import Game
from .jit import njit
from .scoring import RULES, nlogn_weights
from .sorting import merge_passes

__all__ = ["SLICED_PEGS", "ChoiceScratch", "best_guess"]

feedback_loops()  # numba learns the bit instructions and the reply step before any kernel compiles


class _Costs(NamedTuple):
    """What parts cost under a rule (lower is better)."""

    rule: int
    """the rule's number in :data:`RULES`"""
    weight: np.ndarray
    """``weight[size]``: the cost of a part of that size (minimax: unused)"""
    split: np.ndarray
    """``split[parts, size]``: the least cost of ``size`` secrets in at most ``parts`` parts"""
    perfect: int
    """the cost of all singletons: no guess does better"""
    pair: int
    """the cost of one pair and singletons: no cost lies between it and ``perfect``"""
    none: int
    """more than any cost: the cost of no guess"""


class _ColourSets(NamedTuple):
    """The sets of colours of the candidates, with the blacks + whites of each."""

    slot: np.ndarray
    """``slot[k]``: the number in use of colour set ``k`` (-1: no candidate has it)"""
    in_use: np.ndarray
    """``in_use[u]``: the colour set numbered ``u``"""
    tabled: bool
    """True when ``sums`` is filled (not too many sets and blocks)"""
    sums: np.ndarray
    """``(blocks, used, 8)`` uint64: the secrets whose blacks + whites are ``t``"""
    floor: np.ndarray
    """``floor[u]``: a lower bound on the cost of every guess with that set"""
    rest: np.ndarray
    """``(blocks, used)`` int64 (or empty, when too large): ``rest[blk, u]``, a lower
    bound on the cost of the secrets of the blocks after ``blk`` alone"""
    tail: np.ndarray
    """``(used, pegs + 2)`` int64: ``tail[u, t]``, the part of ``floor[u]`` that
    comes from the secrets whose blacks + whites are ``t`` or more"""


class _Candidates(NamedTuple):
    """The guesses to choose from, and a scratch array over all guesses."""

    candidates: np.ndarray
    """indices into the guesses, increasing"""
    by_set: np.ndarray
    """the places of the candidates grouped by colour set (in order within each)"""
    set_start: np.ndarray
    """where each colour set's group starts in ``by_set`` (one more entry than sets)"""
    mark: np.ndarray
    """a zeroed uint8 entry per guess: the candidates scored first are marked"""
    grouped: np.ndarray
    """the candidates in the order of ``by_set`` (guesses)"""
    grouped_bits: np.ndarray
    """``(candidates, pegs)`` uint8: their position bit numbers in that order, read
    one after another where ``gbit_pos`` would be read here and there"""


class _Guesses(NamedTuple):
    """The guesses' bits, as the kernel reads them (see :func:`best_guess`)."""

    gpos: np.ndarray
    """``(guesses, words)`` uint64: the position bits"""
    gcnt: np.ndarray
    """the colour-count bits"""
    gbit_pos: np.ndarray
    """``(guesses, pegs)``: the numbers of the position bits"""
    gset: np.ndarray
    """each guess's set of colours"""
    set_bits: np.ndarray
    """``(sets, pegs)``: the numbers of the colour-count bits of each set"""



@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _rule_costs(rule, n, pegs, nlogn):
    """What parts of up to ``n + 1`` secrets cost under ``rule`` (:class:`_Costs`)."""
    weight = np.zeros(n + 2, dtype=np.int64)  # for parts: -1 a part
    for size in range(1, n + 2):
        if rule == 1:
            weight[size] = size * size
        elif rule == 2:
            weight[size] = nlogn[size]
        elif rule == 3:
            weight[size] = -1
    perfect = 1 if rule == 0 else weight[1] * n
    if n < 2:
        pair = perfect
    else:
        pair = 2 if rule == 0 else weight[2] + weight[1] * (n - 2)
    # sizes q and q + 1 are the cheapest split (each rule's cost of a part is convex in its size)
    split = np.zeros((pegs + 2, n + 1), dtype=np.int64)
    for parts in range(1, pegs + 2):
        q = 0
        r = 0
        for size in range(n + 1):
            if rule == 0:
                split[parts, size] = q + (1 if r else 0)
            else:
                split[parts, size] = (parts - r) * weight[q] + r * weight[q + 1]
            r += 1
            if r == parts:
                q += 1
                r = 0
    return _Costs(rule, weight, split, perfect, pair, 1 << 62)



@njit(inline="always")
def _split_bound(sizes, pegs, rule, split):
    """The least cost of secrets of which ``sizes[t]`` have blacks + whites
    ``t``: those fall into at most ``t + 1`` parts (by blacks), at best of
    equal sizes."""
    bound = 0
    for t in range(pegs + 1):
        if rule == 0:
            bound = max(bound, split[t + 1, sizes[t]])
        else:
            bound += split[t + 1, sizes[t]]
    return bound


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _colour_sets(sliced, set_bits, set_start, pegs, costs, set_colours, skip):
    """The colour sets that candidates have, their blacks + whites and bounds
    (:class:`_ColourSets`), worked out once per set.  A set with a colour of
    ``skip`` (``set_colours[k]``: the colours of set ``k``, as bits) is not one of
    them: its guesses are left out.

    The bound of a set is also kept block by block, for the secrets after each
    block (``rest``): a guess whose parts so far cost, with that bound, as much
    as the best guess's is dropped before its last block.  Each rule's cost of
    parts is superadditive (a part of ``s + x`` secrets costs at least what
    parts of ``s`` and ``x`` cost), so the parts of the blocks seen and the
    secrets still to come can be bounded apart and added (minimax: the larger)."""
    has_cnt, valid = sliced.has_cnt, sliced.valid
    rule, split = costs.rule, costs.split
    sets = set_bits.shape[0]
    blocks = has_cnt.shape[0]
    slot = np.full(sets, -1, dtype=np.int64)
    used = 0
    for k in range(sets):
        if set_start[k + 1] > set_start[k] and (set_colours[k] & skip) == 0:
            slot[k] = used
            used += 1
    in_use = np.empty(used, dtype=np.int64)
    tabled = blocks * used <= 1 << 16
    sums = np.empty((blocks if tabled else 0, used, 8), dtype=np.uint64)
    kept = blocks > 1 and blocks * used <= 1 << 23  # at most 64 MiB
    rest = np.empty((blocks if kept else 0, used), dtype=np.int64)
    floor = np.empty(used, dtype=np.int64)
    tail = np.zeros((used, pegs + 2), dtype=np.int64)
    eq = np.empty(8, dtype=np.uint64)
    sizes = np.zeros(pegs + 1, dtype=np.int64)
    for k in range(sets):
        u = slot[k]
        if u < 0:
            continue
        in_use[u] = k
        for t in range(pegs + 1):
            sizes[t] = 0
        for blk in range(blocks - 1, -1, -1):  # the last block first: ``rest`` is a suffix
            if kept:
                rest[blk, u] = _split_bound(sizes, pegs, rule, split)
            set_sums(has_cnt, valid, blk, set_bits[k], pegs, eq)
            for t in range(pegs + 1):
                sizes[t] += np.int64(popcount(eq[t]))
            if tabled:
                for v in range(8):
                    sums[blk, u, v] = eq[v]
        for t in range(pegs, -1, -1):
            if rule == 0:
                tail[u, t] = max(tail[u, t + 1], split[t + 1, sizes[t]])
            else:
                tail[u, t] = tail[u, t + 1] + split[t + 1, sizes[t]]
        floor[u] = tail[u, 0]
    return _ColourSets(slot, in_use, tabled, sums, floor, rest, tail)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _places_of(candidates, consistent, mark):
    """The places in ``candidates`` of the guesses in ``consistent`` that are
    there (binary search; both increasing); marks those guesses in ``mark``."""
    m = candidates.shape[0]
    mine = np.empty(consistent.shape[0], dtype=np.int64)
    mines = 0
    for i in range(consistent.shape[0]):
        g = consistent[i]
        lo = 0
        hi = m
        while lo < hi:
            mid = (lo + hi) >> 1
            if candidates[mid] < g:
                lo = mid + 1
            else:
                hi = mid
        if lo < m and candidates[lo] == g:
            mine[mines] = lo
            mines += 1
            mark[g] = 1
    return mine[:mines]


@njit(inline="always")
def _hist_cost(hist, rule, weight, reset):
    """The cost of the parts in ``hist``; zeroes it when ``reset``."""
    cost = 0
    for h in range(36):
        size = hist[h]
        if reset:
            hist[h] = 0
        if rule == 0:
            cost = max(cost, size)
        else:
            cost += weight[size]
    return cost


@njit(inline="always")
def _tie_break(mine_best, mine_cost, other_best, other_cost):
    """The best of the guesses that could be the secret, unless another does
    strictly better (-1: none)."""
    if other_best >= 0 and other_cost < mine_cost:
        return other_best
    return mine_best


@njit(cache=True, nogil=True, _nrt=False, no_cfunc_wrapper=True)
def _by_floor(floor, below, order, spare):
    """How many sets ``u`` have ``floor[u] < below``; those sets, lowest bound
    first (ties in order), into ``order`` (``spare``: scratch as long).
    :func:`~strategytree.sorting.merge_passes` compiles in a fraction of the
    time numba's ``np.argsort`` takes."""
    n = np.int64(0)  # not 0: merge_passes would also be compiled for the literal
    for u in range(floor.shape[0]):
        if floor[u] < below:
            order[n] = u
            n += 1
    if merge_passes(floor, order, spare, n):
        for i in range(n):
            order[i] = spare[i]
    return n


class _ScanScratch(NamedTuple):
    """What the scan writes as it scores guesses (made once per call)."""

    eq_b: np.ndarray
    """``(8,)`` uint64: the secrets of a block with ``b`` blacks"""
    eq_t: np.ndarray
    """the same with ``t`` blacks + whites"""
    hist: np.ndarray
    """``(36,)`` int64: the size of part (b, t) over the blocks so far, zeroed between guesses"""
    seen: np.ndarray
    """by reply: the number of the last test of :func:`_within` that saw it
    (the last entry: the number of the test at hand)"""
    twice: np.ndarray
    """by reply: the number of the last test where two secrets got it"""
    order: np.ndarray
    """the colour sets worth trying, lowest bound first (one entry per set in use)"""
    spare: np.ndarray
    """scratch as long, to sort them"""


@njit(inline="always")
def _scan_scratch(pegs, used):
    """A zeroed :class:`_ScanScratch` for guesses of ``pegs`` pegs and
    ``used`` colour sets in use."""
    seen = np.zeros((pegs + 1) * (pegs + 1) + 1, dtype=np.int64)
    return _ScanScratch(
        np.empty(8, dtype=np.uint64), np.empty(8, dtype=np.uint64), np.zeros(36, dtype=np.int64),
        seen, np.zeros_like(seen), np.empty(used, dtype=np.int64), np.empty(used, dtype=np.int64),
    )  # fmt: skip


@njit(nogil=True, _nrt=False, no_cfunc_wrapper=True)
def _within(g, level, gs, sliced, rule, seen, twice):
    """True when guess ``g``'s parts cost no more than all singletons
    (``level`` 0: it tells every secret apart) or than one pair and
    singletons (1; minimax: pairs): the secrets one after another until
    that fails."""
    secrets, spos, scnt = sliced.secrets, sliced.spos, sliced.scnt
    gpos, gcnt = gs.gpos, gs.gcnt
    stride = gs.gbit_pos.shape[1] + 1
    test = seen[-1] + 1
    seen[-1] = test
    extra = 0
    for j in range(secrets.shape[0]):
        r = reply_of_rows(gpos, gcnt, g, spos, scnt, secrets[j], stride)
        if seen[r] == test:
            if rule == 0 and level == 1:  # minimax: any pairs, no three
                if twice[r] == test:
                    return False
                twice[r] = test
            else:
                extra += 1
                if extra > level:
                    return False
        seen[r] = test
    return True


@njit(inline="always")
def _blacks_and_sums(blk, u, k, bits, has_pos, has_cnt, valid, tabled, sums, set_bits, eq_b, eq_t):
    """``eq_b``, ``eq_t`` of block ``blk`` for a guess of colour set ``k``
    (numbered ``u`` in use) and position bits ``bits``."""
    pegs = bits.shape[0]
    count_equal(has_pos, blk, bits, pegs, np.uint64(0), eq_b)
    if tabled:
        for v in range(8):
            eq_t[v] = sums[blk, u, v]
    else:
        set_sums(has_cnt, valid, blk, set_bits[k], pegs, eq_t)


@njit(inline="always")
def _add_block(hist, eq_b, eq_t, pegs):
    """Adds the sizes of the parts (b, t) of a block to ``hist``."""
    h = 0
    for b in range(8):  # fixed trip counts, so that the compiler unrolls them
        if b > pegs:
            break
        for t in range(b, 8):
            if t > pegs:
                break
            hist[h] += np.int64(popcount(eq_b[b] & eq_t[t]))
            h += 1


@njit(inline="always")
def _blocks_bound(hist, blk, u, n, costs, rest):
    """A lower bound on the cost of a guess (colour set ``u``) whose parts over
    the blocks up to ``blk`` are ``hist``: those parts, and the bound of the
    secrets still to come (``rest``; with parts, each adds a part at most)."""
    rule = costs.rule
    bound = _hist_cost(hist, rule, costs.weight, False)
    if rule == 3:
        bound -= n - (blk + 1) * 64
    elif rest.shape[0] == 0:
        pass
    elif rule == 0:
        bound = max(bound, rest[blk, u])
    else:
        bound += rest[blk, u]
    return bound


@njit(inline="always")
def _one_block_cost(g, u, limit, bits, gs, sliced, costs, sets, scratch):
    """(True, cost) when guess ``g`` (colour set ``u``, position bits
    ``bits``) costs less than ``limit``, else (False, _), for 64 secrets or
    fewer: the parts by blacks + whites ``t``, with the bound of those of
    ``t + 1`` or more (``tail``)."""
    eq_b, eq_t = scratch.eq_b, scratch.eq_t
    _blacks_and_sums(
        0, u, gs.gset[g], bits, sliced.has_pos, sliced.has_cnt, sliced.valid,
        sets.tabled, sets.sums, gs.set_bits, eq_b, eq_t,
    )  # fmt: skip
    pegs = bits.shape[0]
    rule, weight = costs.rule, costs.weight
    tail = sets.tail
    cost = 0
    for t in range(8):  # fixed trip counts, so that the compiler unrolls them
        if t > pegs:
            break
        for b in range(8):
            if b > t:
                break
            size = np.int64(popcount(eq_b[b] & eq_t[t]))
            if rule == 0:
                cost = max(cost, size)
            else:
                cost += weight[size]
        if limit < costs.none and t < pegs:
            if (max(cost, tail[u, t + 1]) if rule == 0 else cost + tail[u, t + 1]) >= limit:
                return False, cost
    return cost < limit, cost


@njit(inline="always")
def _blocks_cost(g, u, limit, bits, gs, sliced, costs, sets, scratch):
    """:func:`_one_block_cost` for more than 64 secrets: the parts block by block
    in ``hist``, the guess dropped once they and the bound of the blocks still
    to come cost ``limit`` (the cost only grows as secrets are added)."""
    has_pos, has_cnt, valid, n = sliced.has_pos, sliced.has_cnt, sliced.valid, sliced.n
    tabled, sums, rest = sets.tabled, sets.sums, sets.rest
    eq_b, eq_t, hist = scratch.eq_b, scratch.eq_t, scratch.hist
    k, set_bits = gs.gset[g], gs.set_bits
    pegs = bits.shape[0]
    blocks = has_pos.shape[0]
    bounded = limit < costs.none
    dropped = False
    for blk in range(blocks):
        _blacks_and_sums(blk, u, k, bits, has_pos, has_cnt, valid, tabled, sums, set_bits, eq_b,
                         eq_t)
        _add_block(hist, eq_b, eq_t, pegs)
        if bounded and blk < blocks - 1 and _blocks_bound(hist, blk, u, n, costs, rest) >= limit:
            dropped = True
            break
    cost = _hist_cost(hist, costs.rule, costs.weight, True)
    return not dropped and cost < limit, cost


@njit(cache=True, nogil=True, _nrt=False, no_cfunc_wrapper=True)
def _first_within(level, level_cost, cands, gs, sliced, rule, sets, scratch):
    """The place of the first candidate, in order, whose parts cost no more
    than ``level_cost`` (:func:`_within` ``level``), or -1.  The candidates
    one after another when the sets whose bound allows it hold many of them;
    else those sets one after another, each up to the first found so far."""
    candidates, by_set, set_start, grouped = (cands.candidates, cands.by_set, cands.set_start,
                                              cands.grouped)
    slot, in_use, floor = sets.slot, sets.in_use, sets.floor
    gset = gs.gset
    seen, twice = scratch.seen, scratch.twice
    eligible = 0
    for w in range(floor.shape[0]):
        if floor[w] <= level_cost:
            eligible += set_start[in_use[w] + 1] - set_start[in_use[w]]
    if 4 * eligible > candidates.shape[0]:  # dense: the candidates in order
        for i in range(candidates.shape[0]):
            g = candidates[i]
            v = slot[gset[g]]
            if v >= 0 and floor[v] <= level_cost and _within(g, level, gs, sliced, rule, seen,
                                                             twice):
                return i
        return -1
    found = -1  # sparse: set by set
    for w in range(floor.shape[0]):
        if floor[w] > level_cost:
            continue
        for a in range(set_start[in_use[w]], set_start[in_use[w] + 1]):
            if found >= 0 and by_set[a] > found:
                break  # the rest of the set comes later in order
            if _within(grouped[a], level, gs, sliced, rule, seen, twice):
                found = by_set[a]
                break
    return found


# The scan and the steps it calls keep no reference counts (_nrt=False): they
# allocate nothing (the driver makes their scratch), every array they read is
# the caller's for the whole call, and what they call returns no array.  numba
# would count a reference for every array read from a named tuple or handed to
# a pasted-in step, and uncount it after: with them, the scan was 3 (MM(5,8),
# all the secrets) to 20 (40 secrets) times slower.
@njit(cache=True, nogil=True, _nrt=False, no_cfunc_wrapper=True)
def _scan(mine, cands, gs, sliced, costs, sets, scratch):
    """The place in ``candidates`` of the best guess: the scan of
    :func:`_best_guess_sliced_py` with its early stops.

    One loop, so that the scoring steps are pasted in once (each copy is a
    second of compiling): first the guesses that could be the secret
    (``mine``), in order (a later one must do strictly better); then the
    others, a set of colours at a time, lowest bound first, while a set can
    still do better (or as well, earlier in order).  In between, with few
    secrets (fewer than the replies' cells), the first guess in order that
    tells them apart wins, if there is one (:func:`_first_within`); else the
    first that makes one pair (no cost lies between), unless a possible secret
    does.  Below ``pair`` only a guess that tells the secrets apart would do.

    The scoring steps are module-level functions pasted in here
    (``inline="always"``); written as closures over arrays unpacked here
    instead, the scan ran at the same speed (``python benchmarks/greedy.py``)."""
    candidates, by_set, set_start, _, grouped, grouped_bits = cands
    gbit_pos, gset = gs.gbit_pos, gs.gset
    slot, in_use, floor = sets.slot, sets.in_use, sets.floor
    order = scratch.order  # the sets worth trying, lowest bound first: ``n_order`` of them
    n_order = 0
    mine_best = -1
    mine_cost = costs.none
    best = -1
    best_cost = costs.none
    k = 0  # the next of ``mine``; past its end, the others
    o = 0  # the next of the sets worth trying
    u = 0  # the set of the guess at hand
    at = 0  # the next place of set ``u`` in ``by_set``
    end = 0
    bits = gbit_pos[0]  # the position bits of the guess at hand
    while True:
        if k < mine.shape[0]:
            i = mine[k]
            k += 1
            g = candidates[i]
            u = slot[gset[g]]
            bits = gbit_pos[g]
            limit = mine_cost
        else:
            if k == mine.shape[0]:  # the guesses that could be the secret are done
                k += 1
                if mine_cost == costs.perfect:
                    return mine_best  # nothing does better
                for level in range(2 if sliced.n < scratch.seen.shape[0] else 0):  # few secrets
                    if level == 1 and mine_cost <= costs.pair:
                        return mine_best
                    found = _first_within(level, costs.perfect if level == 0 else costs.pair,
                                          cands, gs, sliced, costs.rule, sets, scratch)
                    if found >= 0:
                        return found
                n_order = _by_floor(floor, np.int64(mine_cost), order, scratch.spare)
            if at == end:  # the next set
                if o == n_order:
                    break
                u = order[o]
                o += 1
                if floor[u] >= mine_cost or floor[u] > best_cost:
                    break  # nor does any set after it
                at = set_start[in_use[u]]
                end = set_start[in_use[u] + 1]
                continue
            i = by_set[at]
            g = grouped[at]
            bits = grouped_bits[at]
            at += 1
            # (a guess scored first scores the same again: never better than itself)
            if best >= 0 and i > best:
                if floor[u] >= best_cost:
                    at = end  # the rest of the set comes later in order: no better
                    continue
                limit = min(mine_cost, best_cost)
            else:
                limit = min(mine_cost, best_cost + 1)
        if floor[u] < limit:  # else it cannot beat the best
            if limit <= costs.pair:  # only a guess that tells the secrets apart would do
                better, cost = _within(g, np.int64(0), gs, sliced, costs.rule, scratch.seen,
                                       scratch.twice), costs.perfect
            elif sliced.has_pos.shape[0] == 1:
                better, cost = _one_block_cost(g, u, limit, bits, gs, sliced, costs, sets, scratch)
            else:
                better, cost = _blocks_cost(g, u, limit, bits, gs, sliced, costs, sets, scratch)
            if better:
                if k <= mine.shape[0]:
                    mine_best, mine_cost = i, cost
                else:
                    best, best_cost = i, cost
    return _tie_break(mine_best, mine_cost, best, best_cost)


def _best_guess_sliced_py(
    gpos, gcnt, gbit_pos, gset, set_bits, spos, scnt, secrets,
    candidates, by_set, set_start, grouped, grouped_bits, consistent, pegs, rule, nlogn,
    mark, set_colours, skip,
):  # fmt: skip
    """Position in ``candidates`` of the guess a greedy rule plays (-1: none).

    The highest score of ``rule`` (as :func:`scores` gives it) on the secrets
    ``secrets``; ties go to a guess in ``consistent`` (the secrets still
    possible, as guesses), then to the first in ``candidates``' order.

    The candidates in ``consistent`` are scored first, in order (a later one
    must do strictly better).  Then the others, a set of colours at a time
    (``by_set[set_start[k]:set_start[k + 1]]``: the places of those with set
    ``k``, in order), lowest bound first: a lower bound on the cost of every
    guess with a set of colours comes from the secrets whose blacks + whites
    are t, which fall into at most t + 1 parts (by blacks), at best of equal
    sizes (each rule's cost of a part is convex in its size).  The sets stop
    where the bound can no longer beat the best (or tie with it earlier in
    order), so most guesses are never scored, and the scan stops at once at
    a guess that tells every secret apart.  Once only such a guess could do
    better, the others are tested one secret after another until two get
    the same reply.  With few secrets (fewer than the replies' cells), when
    no possible secret tells them apart, one pass finds the first guess in
    order that does, or else the first that leaves one pair (no cost lies
    between), before any scan.  A guess is also dropped part way: with more
    than 64 secrets, when the parts of the blocks seen so far, plus the
    bound of the blocks still to come, cost as much as the best guess's (the
    costs are superadditive; with parts, each secret still to come adds a
    part at most); with 64 or fewer, the same after each sum of blacks +
    whites.  Guesses of a colour set with a colour in ``skip`` are left out.

    Bit-sliced: the secrets are taken 64 at a time, one bit each, and for
    every bit of the encoding (:func:`strategytree.feedback.encode`) a word
    tells which of the 64 have it.  A guess has ``pegs`` bits set in each of
    its two sets (``gbit_pos[g]``: the numbers of its position bits;
    ``set_bits[gset[g]]``: those of its colour counts, which only depend on
    its set of colours), so its blacks (and blacks + whites) against the 64
    secrets are sums of ``pegs`` words, added bit-sliced into three words
    (``pegs <= 7``), and the size of each part is the popcount of an AND of
    two words.  Blacks + whites are worked out once per set of colours.

    ``gpos``, ``gcnt``, ``spos``, ``scnt``: the guesses' and the secrets' bit
    sets, ``(n, words)`` uint64;
    ``candidates`` (increasing) and ``consistent`` (increasing) index the
    guesses, ``secrets`` the secrets; ``set_colours[k]``: the colours of set
    ``k`` as bits, and the candidates with a colour of ``skip`` are left out;
    ``mark``: a zeroed uint8 scratch array,
    one entry per guess, left zeroed.
    """
    sliced = slice_secrets(spos, scnt, secrets)
    costs = _rule_costs(rule, secrets.shape[0], pegs, nlogn)
    sets = _colour_sets(sliced, set_bits, set_start, pegs, costs, set_colours, skip)
    gs = _Guesses(gpos, gcnt, gbit_pos, gset, set_bits)
    cands = _Candidates(candidates, by_set, set_start, mark, grouped, grouped_bits)
    mine = _places_of(candidates, consistent, mark)  # and marks them
    scratch = _scan_scratch(pegs, sets.floor.shape[0])
    best = _scan(mine, cands, gs, sliced, costs, sets, scratch)
    for i in range(consistent.shape[0]):
        mark[consistent[i]] = 0
    return best


_best_guess_sliced = njit(cache=True, nogil=True)(_best_guess_sliced_py)


def _guess_bit_numbers(game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each guess, the numbers of the ``pegs`` bits set in its position
    bit set, ``(guesses, pegs)`` uint8; the number of its colour-count bit
    set among the distinct ones (``(guesses,)`` int32); and the bit numbers
    of each of those, ``(sets, pegs)`` int64.  Made once per game."""

    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        pegs, colors = game.pegs, game.colors
        codes = game.guesses.astype(np.int64)
        pos_numbers = np.arange(pegs) * colors + codes  # as encode() numbers them
        if game.scoring == "black-only":
            cnt_numbers = pos_numbers
        else:
            seen = np.zeros_like(codes)
            for i in range(1, pegs):
                seen[:, i] = (codes[:, :i] == codes[:, i : i + 1]).sum(axis=1)
            cnt_numbers = codes * pegs + seen
        words = np.ascontiguousarray(game.guess_bits[1])
        if words.shape[1] == 1:
            keys = words[:, 0]
        else:
            keys = words.view(np.dtype((np.void, 8 * words.shape[1])))[:, 0]
        _, first, which = np.unique(keys, return_index=True, return_inverse=True)
        # small types: these are read for every guess scored
        return (
            np.ascontiguousarray(pos_numbers, dtype=np.uint8),
            np.ascontiguousarray(which.reshape(-1), dtype=np.int32),
            np.ascontiguousarray(cnt_numbers[first], dtype=np.int64),
        )

    return game.memo("_guess_bit_numbers", make)


def best_guess(
    game: Game,
    rule: str,
    candidates: np.ndarray,
    secrets: np.ndarray,
    consistent: np.ndarray,
    scratch: ChoiceScratch | None = None,
    skip: int = 0,
) -> int | None:
    """Position in ``candidates`` of the guess a greedy builder plays, or None
    when this game has no such kernel (then score with :func:`scores`).

    The best score of ``rule`` on ``secrets``; ties to a guess in
    ``consistent``, then to the first candidate.  All three are int64 index
    arrays (candidates and consistent into ``game.guesses``, both increasing;
    secrets into ``game.secrets``).  ``scratch`` (the caller's, for this game)
    keeps what the next calls reuse; without it the call makes its own.
    ``skip``: colours (bit ``k`` for colour ``k``) whose guesses are left out, as
    if not among the candidates (:func:`strategytree.symmetry.dead_colours`:
    the candidates stay one array, whose grouping is kept, where leaving them
    out would make a new one at every node).
    No checks: for the builders' inner loops.
    """
    if game.scoring == "table" or game.pegs > SLICED_PEGS or len(candidates) == 0:
        return None
    if scratch is None:
        scratch = ChoiceScratch(game)
    elif scratch.game is not game:
        raise StrategyTreeError("scratch was made for another game")
    gbit_pos, gset, set_bits = _guess_bit_numbers(game)
    gpos, gcnt = game.guess_bits
    spos, scnt = game.secret_bits
    candidates = np.ascontiguousarray(candidates, dtype=np.int64)
    by_set, set_start, grouped, grouped_bits = scratch.grouping(candidates)
    as_int = np.int64
    at = _best_guess_sliced(
        gpos, gcnt, gbit_pos, gset, set_bits, spos, scnt,
        np.ascontiguousarray(secrets, dtype=as_int),
        candidates, by_set, set_start, grouped, grouped_bits,
        np.ascontiguousarray(consistent, dtype=as_int),
        game.pegs, RULES[rule], nlogn_weights(game, len(secrets)), scratch.mark,
        _set_colours(game), np.int64(skip),
    )  # fmt: skip
    return int(at)


def _set_colours(game: Game) -> np.ndarray:
    """The colours of each set of :func:`_guess_bit_numbers` as bits, int64 (made once)."""

    def make() -> np.ndarray:
        _, gset, set_bits = _guess_bit_numbers(game)
        first = np.full(len(set_bits), -1, dtype=np.int64)
        first[gset[::-1]] = np.arange(len(gset))[::-1]  # the first guess of each set
        masks = np.zeros(len(set_bits), dtype=np.int64)
        for p in range(game.pegs):
            masks |= np.left_shift(np.int64(1), game.guesses[first, p].astype(np.int64))
        return masks

    return game.memo("_set_colours", make)


class ChoiceScratch:
    """What :func:`best_guess` keeps from one call to the next for one caller
    (a :class:`strategytree.builders.GreedyChooser`): one per thread, never shared.

    The builders ask again and again with the same arrays of candidates, so the
    grouping of the last ones seen (by identity, up to :attr:`KEPT` of them and
    :attr:`KEPT_ENTRIES` candidates in all) is kept.
    """

    KEPT = 128
    """how many groupings of candidates are kept (oldest out)"""
    KEPT_ENTRIES = 1 << 22
    """how many candidates they may hold in all (oldest out): a grouping of the
    823,543 guesses of MM(7,7), and the array it groups, take 31 MB"""

    def __init__(self, game: Game) -> None:
        self.game = game
        """the game it serves"""
        self.mark = np.zeros(len(game.guesses), dtype=np.uint8)
        """one zeroed entry per guess, zeroed again after each call"""
        self._grouped: dict[int, tuple[np.ndarray, ...]] = {}
        self._entries = 0  # candidates in the groupings kept

    def by_set(self, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The places of ``candidates`` grouped by set of colours (in order
        within each), and where each set's group starts."""
        return self.grouping(candidates)[:2]

    def grouping(
        self, candidates: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`by_set`, with the candidates in that order and their position
        bit numbers (what the kernel reads for each guess it scores)."""
        kept = self._grouped.get(id(candidates))
        if kept is not None and kept[0] is candidates:
            return kept[1:]
        gbit_pos, gset, set_bits = _guess_bit_numbers(self.game)
        sets = len(set_bits)
        which = gset[candidates]
        if sets <= 1 << 15:
            which = which.astype(np.int16)  # a stable sort of 16-bit keys is a radix sort
        by_set = np.argsort(which, kind="stable")
        set_start = np.zeros(sets + 1, dtype=np.int64)
        np.cumsum(np.bincount(which, minlength=sets), out=set_start[1:])
        while self._grouped and (
            len(self._grouped) >= self.KEPT or self._entries + len(candidates) > self.KEPT_ENTRIES
        ):
            self._entries -= len(self._grouped.pop(next(iter(self._grouped)))[0])
        grouped = candidates[by_set]
        kept = (candidates, by_set, set_start, grouped, gbit_pos[grouped])
        self._grouped[id(candidates)] = kept
        self._entries += len(candidates)
        return kept[1:]
