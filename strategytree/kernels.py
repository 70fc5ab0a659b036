"""Numba kernels that score many guesses at once: partition counts, the rules'
scores, the greedy builders' whole choice at a node, and symmetry keys.

A single reply is defined in :mod:`strategytree.feedback`; these kernels count
the replies of many guesses against many secrets.  The jitted functions (names
starting with ``_``) take plain contiguous arrays in the bit encoding of
:func:`strategytree.feedback.encode` and read no globals,
so ``cache=True`` is safe.  The public wrappers check and convert their input.

Nothing here is kept between calls in the module: tables derived once per game
are kept on the game (:meth:`strategytree.game.Game.memo`), and what the greedy
choice reuses from one call to the next is the caller's own
(:class:`ChoiceScratch`), so that threads share nothing that changes.

Importing this module imports numba (about half a second) but compiles
nothing; each kernel compiles on its first call and is cached on disk.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic, overload

from .errors import StrategyTreeError
from .feedback import compiled as _feedback_loops
from .feedback import popcount
from .game import Game
from .sorting import merge_order

_feedback_loops()  # numba learns popcount as an instruction before any kernel compiles


def _lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64 (``tzcnt`` when compiled)."""
    x = int(x)
    return (x & -x).bit_length() - 1


@intrinsic
def _cttz(typingctx, x):  # pragma: no cover - compiled by numba
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


@overload(_lowest_bit)
def _lowest_bit_compiled(x):  # pragma: no cover - compiled by numba
    if isinstance(x, types.Integer):
        return lambda x: _cttz(x)
    return None


@njit(cache=True, parallel=True)
def _partition_counts_1(gpos, gcnt, spos, scnt, pegs, n_replies, out):
    """Partition counts when a code fits in one word (``pegs * colors <= 64``).

    ``gpos``, ``gcnt``: (m,) uint64; ``spos``, ``scnt``: (n,) uint64;
    ``out``: (m, n_replies) int32, overwritten.
    """
    m = gpos.shape[0]
    n = spos.shape[0]
    stride = pegs + 1
    for i in prange(m):
        gp = gpos[i]
        gc = gcnt[i]
        # four interleaved histograms break the store-to-load chain
        hist = np.zeros((4, n_replies), dtype=np.int32)
        j = 0
        while j + 4 <= n:
            for k in range(4):
                b = popcount(gp & spos[j + k])
                t = popcount(gc & scnt[j + k])
                hist[k, b * stride + t - b] += 1
            j += 4
        while j < n:
            b = popcount(gp & spos[j])
            t = popcount(gc & scnt[j])
            hist[0, b * stride + t - b] += 1
            j += 1
        for r in range(n_replies):
            out[i, r] = hist[0, r] + hist[1, r] + hist[2, r] + hist[3, r]


@njit(cache=True, parallel=True)
def _partition_counts_w(gpos, gcnt, spos, scnt, pegs, n_replies, out):
    """Partition counts for codes of several words: (m, W) and (n, W) arrays."""
    m, words = gpos.shape
    n = spos.shape[0]
    stride = pegs + 1
    for i in prange(m):
        hist = np.zeros(n_replies, dtype=np.int32)
        for j in range(n):
            b = 0
            t = 0
            for w in range(words):
                b += popcount(gpos[i, w] & spos[j, w])
                t += popcount(gcnt[i, w] & scnt[j, w])
            hist[b * stride + t - b] += 1
        for r in range(n_replies):
            out[i, r] = hist[r]


#: the rules a kernel can score with (higher score = better guess)
RULES = {"minimax": 0, "expected": 1, "entropy": 2, "parts": 3}


@njit(cache=True)
def _score_bins(hist, bins, k, rule, nlogn):
    """Score of a partition (higher is better) and reset of its bins.

    ``hist[bins[:k]]`` are the non-empty parts.  minimax: -largest part;
    expected: -sum n^2; entropy: -sum n log2 n (scaled, from ``nlogn``);
    parts: number of parts.  Exact integers, so ties never depend on rounding.
    """
    total = 0
    for t in range(k):
        r = bins[t]
        n = hist[r]
        hist[r] = 0
        if rule == 0:
            if n > total:
                total = n
        elif rule == 1:
            total += n * n
        elif rule == 2:
            total += nlogn[n]
        else:
            total += 1
    return total if rule == 3 else -total


def _scores_1_py(gpos, gcnt, spos, scnt, pegs, n_replies, rule, nlogn, chunks, out):
    """out[i] = score of guess i on the secrets, one-word codes.

    The guesses are cut into ``chunks`` blocks, one histogram per block, and
    only the bins a guess touched are read and cleared.
    """
    m = gpos.shape[0]
    n = spos.shape[0]
    stride = pegs + 1
    for ch in prange(chunks):
        lo = ch * m // chunks
        hi = (ch + 1) * m // chunks
        hist = np.zeros(n_replies, dtype=np.int64)
        bins = np.empty(n_replies, dtype=np.int64)
        for i in range(lo, hi):
            gp = gpos[i]
            gc = gcnt[i]
            k = 0
            if n <= n_replies:  # few secrets: note the bins as they fill
                for j in range(n):
                    b = popcount(gp & spos[j])
                    t = popcount(gc & scnt[j])
                    r = b * stride + t - b
                    if hist[r] == 0:
                        bins[k] = r
                        k += 1
                    hist[r] += 1
            else:  # many secrets: count without branching, then find the bins
                for j in range(n):
                    b = popcount(gp & spos[j])
                    t = popcount(gc & scnt[j])
                    hist[b * stride + t - b] += 1
                for r in range(n_replies):
                    if hist[r] != 0:
                        bins[k] = r
                        k += 1
            out[i] = _score_bins(hist, bins, k, rule, nlogn)


def _scores_masked_py(gpos, gcnt, spos, scnt, pegs, n_replies, rule, nlogn, chunks, out):
    """``_scores_1`` for few secrets and at most 64 replies: the parts a guess
    makes are noted as bits of one word, then read back lowest first, so no
    branch depends on the data while counting."""
    m = gpos.shape[0]
    n = spos.shape[0]
    stride = pegs + 1
    one = np.uint64(1)
    for ch in prange(chunks):
        lo = ch * m // chunks
        hi = (ch + 1) * m // chunks
        hist = np.zeros(64, dtype=np.int64)
        for i in range(lo, hi):
            gp = gpos[i]
            gc = gcnt[i]
            mask = np.uint64(0)
            for j in range(n):
                b = popcount(gp & spos[j])
                t = popcount(gc & scnt[j])
                r = b * stride + t - b
                hist[r] += 1
                mask |= one << np.uint64(r)
            total = 0
            parts = 0
            while mask:
                r = _lowest_bit(mask)
                mask &= mask - one
                size = hist[r]
                hist[r] = 0
                parts += 1
                if rule == 0:
                    if size > total:
                        total = size
                elif rule == 1:
                    total += size * size
                elif rule == 2:
                    total += nlogn[size]
            out[i] = parts if rule == 3 else -total


def _scores_w_py(gpos, gcnt, spos, scnt, pegs, n_replies, rule, nlogn, chunks, out):
    """out[i] = score of guess i on the secrets, codes of several words."""
    m, words = gpos.shape
    n = spos.shape[0]
    stride = pegs + 1
    for ch in prange(chunks):
        lo = ch * m // chunks
        hi = (ch + 1) * m // chunks
        hist = np.zeros(n_replies, dtype=np.int64)
        bins = np.empty(n_replies, dtype=np.int64)
        for i in range(lo, hi):
            k = 0
            for j in range(n):
                b = 0
                t = 0
                for w in range(words):
                    b += popcount(gpos[i, w] & spos[j, w])
                    t += popcount(gcnt[i, w] & scnt[j, w])
                r = b * stride + t - b
                if hist[r] == 0:
                    bins[k] = r
                    k += 1
                hist[r] += 1
            out[i] = _score_bins(hist, bins, k, rule, nlogn)


@njit(cache=True)
def _first_perfect_1(gpos, gcnt, spos, scnt, pegs, n_replies):
    """Index of the first guess that tells every secret apart, or -1 (one-word codes)."""
    stride = pegs + 1
    seen = np.zeros(n_replies, dtype=np.int64)
    for i in range(gpos.shape[0]):
        gp = gpos[i]
        gc = gcnt[i]
        mark = i + 1
        ok = True
        for j in range(spos.shape[0]):
            b = popcount(gp & spos[j])
            t = popcount(gc & scnt[j])
            r = b * stride + t - b
            if seen[r] == mark:
                ok = False
                break
            seen[r] = mark
        if ok:
            return i
    return -1


@njit(cache=True)
def _first_perfect_w(gpos, gcnt, spos, scnt, pegs, n_replies):
    """Index of the first guess that tells every secret apart, or -1 (several words)."""
    stride = pegs + 1
    seen = np.zeros(n_replies, dtype=np.int64)
    for i in range(gpos.shape[0]):
        mark = i + 1
        ok = True
        for j in range(spos.shape[0]):
            b = 0
            t = 0
            for w in range(gpos.shape[1]):
                b += popcount(gpos[i, w] & spos[j, w])
                t += popcount(gcnt[i, w] & scnt[j, w])
            r = b * stride + t - b
            if seen[r] == mark:
                ok = False
                break
            seen[r] = mark
        if ok:
            return i
    return -1


def _scores_table_py(table, guesses, secrets, n_replies, rule, nlogn, chunks, out):
    """out[i] = score of guess ``guesses[i]`` on the secrets, replies from a table."""
    m = guesses.shape[0]
    n = secrets.shape[0]
    for ch in prange(chunks):
        lo = ch * m // chunks
        hi = (ch + 1) * m // chunks
        hist = np.zeros(n_replies, dtype=np.int64)
        bins = np.empty(n_replies, dtype=np.int64)
        for i in range(lo, hi):
            row = guesses[i]
            k = 0
            for j in range(n):
                r = table[row, secrets[j]]
                if hist[r] == 0:
                    bins[k] = r
                    k += 1
                hist[r] += 1
            out[i] = _score_bins(hist, bins, k, rule, nlogn)


_scores_table = njit(cache=True, parallel=True)(_scores_table_py)
_scores_table_serial = njit(cache=True)(_scores_table_py)


@njit(cache=True)
def _first_perfect_table(table, guesses, secrets, n_replies):
    """Position of the first guess that tells the secrets apart (table replies), or -1."""
    seen = np.zeros(n_replies, dtype=np.int64)
    for i in range(guesses.shape[0]):
        mark = i + 1
        ok = True
        for j in range(secrets.shape[0]):
            r = table[guesses[i], secrets[j]]
            if seen[r] == mark:
                ok = False
                break
            seen[r] = mark
        if ok:
            return i
    return -1


@njit(cache=True)
def _group(replies, n_replies, order, counts):
    """Counting sort: ``order`` lists positions by reply, highest reply first,
    keeping their order within a reply; ``counts[r]`` secrets got reply ``r``."""
    for r in range(n_replies):
        counts[r] = 0
    for j in range(replies.shape[0]):
        counts[replies[j]] += 1
    starts = np.empty(n_replies, dtype=np.int64)
    at = 0
    for r in range(n_replies - 1, -1, -1):
        starts[r] = at
        at += counts[r]
    for j in range(replies.shape[0]):
        r = replies[j]
        order[starts[r]] = j
        starts[r] += 1


def group_by_reply(replies: np.ndarray, n_replies: int) -> list[tuple[int, np.ndarray]]:
    """``(reply code, positions)`` for each reply that occurs, highest reply first;
    positions in increasing order (so the parts of sorted secrets stay sorted)."""
    order = np.empty(len(replies), dtype=np.int64)
    counts = np.empty(n_replies, dtype=np.int64)
    _group(replies, n_replies, order, counts)
    groups = []
    at = 0
    for r in range(n_replies - 1, -1, -1):
        c = int(counts[r])
        if c:
            groups.append((r, order[at : at + c]))
            at += c
    return groups


def reply_groups(replies: np.ndarray, n_replies: int) -> tuple[list[int], list[int], np.ndarray]:
    """:func:`group_by_reply` in one piece: the replies that occur (highest
    first) and how many got each, as lists, and the positions grouped so
    (increasing within a reply)."""
    order = np.empty(len(replies), dtype=np.int64)
    counts = np.empty(n_replies, dtype=np.int64)
    _group(replies, n_replies, order, counts)
    codes = np.flatnonzero(counts)[::-1]
    return codes.tolist(), counts[codes].tolist(), order


def _index(game: Game, which: str, index: np.ndarray | None, check: bool) -> np.ndarray:
    """An index array into the game's table of ``which`` (all when None)."""
    size = len(game.secrets) if which == "secrets" else len(game.guesses)
    if index is None:
        return np.arange(size)
    _rows(game, which, index, check)  # the same checks
    return np.ascontiguousarray(index, dtype=np.int64)


def first_perfect(
    game: Game,
    guesses: np.ndarray | None = None,
    secrets: np.ndarray | None = None,
    *,
    check: bool = True,
) -> int:
    """Position in ``guesses`` of the first guess that gives every secret its own reply, or -1.

    Stops at the first one found, so it is cheap when one comes early.
    ``check=False`` skips checking the index arrays (for the builders' inner loops).
    """
    if game.scoring == "table":
        g = _index(game, "guesses", guesses, check)
        s = _index(game, "secrets", secrets, check)
        if len(s) > game.n_replies:
            return -1
        return int(_first_perfect_table(game.table, g, s, game.n_replies))
    gpos, gcnt = _rows(game, "guesses", guesses, check)
    spos, scnt = _rows(game, "secrets", secrets, check)
    if len(spos) > game.n_replies:
        return -1
    kernel = _first_perfect_1 if gpos.ndim == 1 else _first_perfect_w
    return int(kernel(gpos, gcnt, spos, scnt, game.pegs, game.n_replies))


# each scoring kernel twice: threads for big jobs, one thread for small ones
# (starting the threads costs more than a small job)
_scores_1 = njit(cache=True, parallel=True)(_scores_1_py)
_scores_1_serial = njit(cache=True)(_scores_1_py)
_scores_masked = njit(cache=True, parallel=True)(_scores_masked_py)
_scores_masked_serial = njit(cache=True)(_scores_masked_py)
_scores_w = njit(cache=True, parallel=True)(_scores_w_py)
_scores_w_serial = njit(cache=True)(_scores_w_py)

#: up to this many secrets (and at most 64 replies), parts are noted as bits
MASKED_SECRETS = 256

#: below this many (guess, secret) pairs a job runs on one thread
SERIAL_PAIRS = 200_000

def nlogn_table(n: int) -> np.ndarray:
    """``round(k * log2(k) * 2**32)`` for k = 0..m, as exact int64 weights, where
    ``m`` is the least power of two above ``n``."""
    size = 1 << max(n, 1).bit_length()
    k = np.arange(size + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        weights = np.where(k > 1, k * np.log2(np.maximum(k, 1)), 0.0)
    return np.round(weights * 2.0**32).astype(np.int64)


def _nlogn(game: Game, n: int) -> np.ndarray:
    """:func:`nlogn_table` for ``n`` secrets, kept on the game (made once per size)."""
    size = 1 << max(n, 1).bit_length()
    return game.memo(f"nlogn table {size}", lambda: nlogn_table(n))


def scores(
    game: Game,
    rule: str,
    guesses: np.ndarray | None = None,
    secrets: np.ndarray | None = None,
    *,
    check: bool = True,
) -> np.ndarray:
    """Score each guess by how it splits the secrets (int64, higher is better).

    ``rule`` is one of :data:`RULES`; both arrays are index arrays into the
    game's tables (default: all).  Runs in parallel over the guesses.
    ``check=False`` skips checking the index arrays (for the builders' inner loops).
    """
    if rule not in RULES:
        raise StrategyTreeError(f"unknown rule {rule!r}; choose from {', '.join(RULES)}")
    if game.scoring == "table":
        g = _index(game, "guesses", guesses, check)
        s = _index(game, "secrets", secrets, check)
        out = np.empty(len(g), dtype=np.int64)
        serial = len(g) * len(s) < SERIAL_PAIRS
        kernel = _scores_table_serial if serial else _scores_table
        chunks = 1 if serial else max(1, min(len(g), 64))
        kernel(game.table, g, s, game.n_replies, RULES[rule], _nlogn(game, len(s)), chunks, out)
        return out
    gpos, gcnt = _rows(game, "guesses", guesses, check)
    spos, scnt = _rows(game, "secrets", secrets, check)
    out = np.empty(len(gpos), dtype=np.int64)
    pairs = len(gpos) * len(spos)
    serial = pairs < SERIAL_PAIRS
    chunks = 1 if serial else max(1, min(len(gpos), 64))
    args = (game.pegs, game.n_replies, RULES[rule], _nlogn(game, len(spos)), chunks, out)
    if gpos.ndim == 1 and game.n_replies <= 64 and len(spos) <= MASKED_SECRETS:
        kernel = _scores_masked_serial if serial else _scores_masked
        kernel(gpos, gcnt, spos, scnt, *args)
    elif gpos.ndim == 1:
        kernel = _scores_1_serial if serial else _scores_1
        kernel(gpos, gcnt, spos, scnt, *args)
    else:
        kernel = _scores_w_serial if serial else _scores_w
        kernel(gpos, gcnt, spos, scnt, *args)
    return out


def _rows(
    game: Game, which: str, index: np.ndarray | None, check: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """The kernel form of the game's secrets or guesses (all, or those indexed)."""
    pos, cnt = game.secret_words if which == "secrets" else game.guess_words
    if index is None:
        return pos, cnt
    if not check:
        return pos[index], cnt[index]
    index = np.asarray(index)
    if (
        index.ndim != 1
        or not np.issubdtype(index.dtype, np.integer)
        or (len(index) and (index.min() < 0 or index.max() >= len(pos)))
    ):
        raise StrategyTreeError(f"{which} must be a 1-d array of indices into game.{which}")
    return pos[index], cnt[index]


def partition_counts(
    game: Game, guesses: np.ndarray | None = None, secrets: np.ndarray | None = None
) -> np.ndarray:
    """How each guess splits the secrets: an ``(m, n_replies)`` int32 array.

    ``out[i, r]`` is the number of the given secrets that give reply code ``r``
    to guess ``guesses[i]``.  Both are index arrays into the game's tables
    (default: all).  Runs in parallel over the guesses.
    """
    if game.scoring == "table":
        g = _index(game, "guesses", guesses, True)
        s = _index(game, "secrets", secrets, True)
        out = np.zeros((len(g), game.n_replies), dtype=np.int32)
        for i, row in enumerate(g):
            out[i] = np.bincount(game.table[row, s], minlength=game.n_replies)
        return out
    gpos, gcnt = _rows(game, "guesses", guesses)
    spos, scnt = _rows(game, "secrets", secrets)
    out = np.empty((len(gpos), game.n_replies), dtype=np.int32)
    if gpos.ndim == 1:
        _partition_counts_1(gpos, gcnt, spos, scnt, game.pegs, game.n_replies, out)
    else:
        _partition_counts_w(gpos, gcnt, spos, scnt, game.pegs, game.n_replies, out)
    return out


# -- the greedy builders' choice: score, break ties and stop early in one call -------------
#
# ``_best_guess_sliced`` is a short driver over the steps below.  The steps run
# once per call (set-up, the scan) are functions of their own, compiled once each
# (one signature: nothing reaches them as a literal); the small ones in the scan's
# inner loops are ``inline="always"`` functions that numba pastes in, and the
# scan calls its scoring step from one place only.  What pasting in costs is
# paid at every call site, once per install: the first compile took 8.3 s of CPU
# with everything pasted in, two copies of the scoring step and numba's
# ``np.argsort`` (1.1 s alone), and 5.3 s now; the run time is the same.  The
# steps pass named tuples of arrays, unpacked once per call: read in the inner
# loops, or passed there to an inlined function, an array costs a reference
# count each time.


class _Sliced(NamedTuple):
    """The secrets, and bit-sliced: 64 at a time (a block), one bit each."""

    secrets: np.ndarray
    """the secrets (indices into ``spos`` and ``scnt``)"""
    spos: np.ndarray
    """``(secrets of the game, words)`` uint64: the position bits"""
    scnt: np.ndarray
    """the colour-count bits"""
    has_pos: np.ndarray
    """``(blocks, bits)`` uint64: which secrets of a block have each position bit"""
    has_cnt: np.ndarray
    """the same for the colour-count bits"""
    valid: np.uint64
    """the bits of the last block that stand for a secret"""
    n: int
    """how many secrets"""


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


@njit(inline="always")
def _equal_masks(x0, x1, x2, out):
    """``out[v]``: the bits whose 3-bit number (bit-sliced in ``x0``, ``x1``,
    ``x2``) is ``v``, for v = 0..7."""
    n0 = ~x0
    n1 = ~x1
    n2 = ~x2
    l0 = n0 & n1
    l1 = x0 & n1
    l2 = n0 & x1
    l3 = x0 & x1
    out[0] = l0 & n2
    out[1] = l1 & n2
    out[2] = l2 & n2
    out[3] = l3 & n2
    out[4] = l0 & x2
    out[5] = l1 & x2
    out[6] = l2 & x2
    out[7] = l3 & x2


@njit(inline="always")
def _count_equal(has, blk, bits, pegs, zero, out):
    """``out[v]``: the secrets (bits of block ``blk``) that have exactly ``v`` of the
    ``pegs`` features ``has[blk, bits[p]]``: a bit-sliced 3-bit counter, then
    :func:`_equal_masks`."""
    x0 = zero
    x1 = zero
    x2 = zero
    for p in range(pegs):
        y = has[blk, bits[p]]
        c = x0 & y
        x0 ^= y
        d = x1 & c
        x1 ^= c
        x2 |= d
    _equal_masks(x0, x1, x2, out)


@njit(cache=True, nogil=True)
def _slice_secrets(spos, scnt, secrets):
    """The secrets ``spos[secrets]``, ``scnt[secrets]`` bit-sliced (:class:`_Sliced`)."""
    n = secrets.shape[0]
    words = spos.shape[1]
    blocks = (n + 63) // 64
    one = np.uint64(1)
    has_pos = np.zeros((blocks, words * 64), dtype=np.uint64)
    has_cnt = np.zeros((blocks, words * 64), dtype=np.uint64)
    for j in range(n):
        s = secrets[j]
        blk = j >> 6
        bit = one << np.uint64(j & 63)
        for w in range(words):
            x = spos[s, w]
            while x:
                has_pos[blk, w * 64 + _lowest_bit(x)] |= bit
                x &= x - one
            x = scnt[s, w]
            while x:
                has_cnt[blk, w * 64 + _lowest_bit(x)] |= bit
                x &= x - one
    valid = ~np.uint64(0) if n % 64 == 0 else (one << np.uint64(n % 64)) - one
    return _Sliced(secrets, spos, scnt, has_pos, has_cnt, valid, n)


@njit(cache=True, nogil=True)
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
    return _Costs(rule, weight, split, perfect, pair)


@njit(inline="always")
def _set_sums(has_cnt, valid, blk, bits, pegs, out):
    """``out[t]``: the secrets of block ``blk`` whose blacks + whites are ``t``
    against a guess whose colour-count bits are ``bits``."""
    _count_equal(has_cnt, blk, bits, pegs, np.uint64(0), out)
    out[0] &= valid if blk == has_cnt.shape[0] - 1 else ~np.uint64(0)


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


@njit(cache=True, nogil=True)
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
            _set_sums(has_cnt, valid, blk, set_bits[k], pegs, eq)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _by_floor(floor, below):
    """The sets ``u`` with ``floor[u] < below``, lowest bound first (ties in
    order; :func:`~strategytree.sorting.merge_order`, which compiles in a
    fraction of the time numba's ``np.argsort`` takes)."""
    a = np.empty(floor.shape[0], dtype=np.int64)
    n = np.int64(0)  # not 0: merge_order would also be compiled for the literal
    for u in range(floor.shape[0]):
        if floor[u] < below:
            a[n] = u
            n += 1
    return merge_order(floor, a, np.empty(n, dtype=np.int64), n)[:n]


@njit(cache=True, nogil=True)
def _scan(mine, cands, gs, sliced, costs, sets):
    """The place in ``candidates`` of the best guess: the scan of
    :func:`_best_guess_sliced_py` with its early stops.

    Scoring a guess is written as inner functions over the arrays unpacked here,
    which numba pastes in where they are called: as module-level functions taking
    those arrays as arguments, they made the scan twice as slow (measured).
    A long kernel for that reason: the scoring step is pasted in once, from the
    one loop over the guesses, and needs the arrays unpacked here."""
    candidates, by_set, set_start, mark, grouped, grouped_bits = cands
    gpos, gcnt, gbit_pos, gset, set_bits = gs
    secrets, spos, scnt, has_pos, has_cnt, valid, n = sliced
    rule, weight, _, perfect, pair = costs
    slot, in_use, tabled, sums, floor, rest, tail = sets
    pegs = gbit_pos.shape[1]
    blocks = has_pos.shape[0]
    none = 1 << 62
    eq_b = np.empty(8, dtype=np.uint64)  # the secrets of a block with b blacks
    eq_t = np.empty(8, dtype=np.uint64)  # ... with t blacks + whites
    hist = np.zeros(36, dtype=np.int64)  # the size of part (b, t) over the blocks so far
    seen = np.zeros((pegs + 1) * (pegs + 1) + 1, dtype=np.int64)  # by reply: the last test
    twice = np.zeros_like(seen)  # by reply: the last test where two secrets got it

    def within(g, level):
        """True when guess ``g``'s parts cost no more than all singletons
        (``level`` 0: it tells every secret apart) or than one pair and
        singletons (1; minimax: pairs): the secrets one after another until
        that fails."""
        seen[-1] += 1  # the number of this test
        ok = True
        extra = 0
        for j in range(secrets.shape[0]):
            b = 0
            t = 0
            for w in range(spos.shape[1]):
                b += popcount(gpos[g, w] & spos[secrets[j], w])
                t += popcount(gcnt[g, w] & scnt[secrets[j], w])
            r = b * (pegs + 1) + t - b
            if seen[r] == seen[-1]:
                if rule == 0 and level == 1:  # minimax: any pairs, no three
                    if twice[r] == seen[-1]:
                        ok = False
                        break
                    twice[r] = seen[-1]
                else:
                    extra += 1
                    if extra > level:
                        ok = False
                        break
            seen[r] = seen[-1]
        return ok

    def blacks_and_sums(g, u, blk, bits):
        """``eq_b``, ``eq_t`` for guess ``g`` (colour set ``u``, position bits
        ``bits``) and block ``blk``."""
        _count_equal(has_pos, blk, bits, pegs, np.uint64(0), eq_b)
        if tabled:
            for v in range(8):
                eq_t[v] = sums[blk, u, v]
        else:
            _set_sums(has_cnt, valid, blk, set_bits[gset[g]], pegs, eq_t)

    def cost_below(g, u, limit, bits):
        """(True, cost) when guess ``g`` (colour set ``u``, position bits ``bits``) costs less than
        ``limit``, else (False, _).  Below ``pair`` only a guess that tells the
        secrets apart would do.  With several blocks, a guess is dropped once the
        blocks so far cost ``limit`` (the cost only grows as secrets are added;
        with parts, each secret still to come adds a part at most)."""
        if limit <= pair:
            return within(g, 0), perfect
        cost = 0
        dropped = False
        for blk in range(blocks):
            blacks_and_sums(g, u, blk, bits)
            if blocks == 1:  # by blacks + whites, with the bound of those still to come
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
                    if limit < none and t < pegs:
                        if (max(cost, tail[u, t + 1]) if rule == 0 else cost + tail[u, t + 1]) >= limit:
                            dropped = True
                            break
                break
            h = 0
            for b in range(8):
                if b > pegs:
                    break
                for t in range(b, 8):
                    if t > pegs:
                        break
                    hist[h] += np.int64(popcount(eq_b[b] & eq_t[t]))
                    h += 1
            if blocks > 1 and limit < none and blk < blocks - 1:
                bound = _hist_cost(hist, rule, weight, False)
                if rule == 3:  # each secret still to come adds a part at most
                    bound -= n - (blk + 1) * 64
                elif rest.shape[0] == 0:
                    pass
                elif rule == 0:
                    bound = max(bound, rest[blk, u])
                else:
                    bound += rest[blk, u]
                if bound >= limit:
                    dropped = True
                    break
        if blocks > 1:
            cost = _hist_cost(hist, rule, weight, True)
        return not dropped and cost < limit, cost

    def first_within(level, level_cost):
        """The place of the first candidate, in order, whose parts cost no more
        than ``level_cost`` (:func:`within` ``level``), or -1.  The candidates
        one after another when the sets whose bound allows it hold many of them;
        else those sets one after another, each up to the first found so far."""
        eligible = 0
        for w in range(floor.shape[0]):
            if floor[w] <= level_cost:
                eligible += set_start[in_use[w] + 1] - set_start[in_use[w]]
        dense = 4 * eligible > candidates.shape[0]
        found = -1
        i = -1
        w = -1  # the set at hand (sparse)
        a = 0  # the next place in ``by_set`` (sparse)
        end = 0
        while True:
            if dense:
                i += 1
                if i == candidates.shape[0]:
                    break
                g = candidates[i]
                v = slot[gset[g]]
                if v < 0 or floor[v] > level_cost:
                    continue
            else:
                if a == end:
                    w += 1
                    while w < floor.shape[0] and floor[w] > level_cost:
                        w += 1
                    if w == floor.shape[0]:
                        break
                    a = set_start[in_use[w]]
                    end = set_start[in_use[w] + 1]
                    continue
                i = by_set[a]
                g = grouped[a]
                a += 1
                if found >= 0 and i > found:
                    a = end  # the rest of the set comes later in order
                    continue
            if within(g, level):
                found = i
                if dense:
                    break
                a = end
        return found

    # One loop, so that ``cost_below`` is pasted in once (each copy is a second
    # of compiling): first the guesses that could be the secret, in order (a
    # later one must do strictly better); then the others, a set of colours at
    # a time, lowest bound first, while a set can still do better (or as well,
    # earlier in order).
    mine_best = -1
    mine_cost = none
    best = -1
    best_cost = none
    k = 0  # the next of ``mine``; past its end, the others
    order = mine[:0]  # the sets worth trying, lowest bound first
    o = 0  # the next of them
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
                if mine_cost == perfect:
                    return mine_best  # nothing does better
                # Few secrets: the first guess, in order, that tells them apart
                # wins, if there is one; else the first that makes one pair
                # (no cost lies between), unless a possible secret does.
                for level in range(2 if n < seen.shape[0] else 0):
                    if level == 1 and mine_cost <= pair:
                        return mine_best
                    found = first_within(level, perfect if level == 0 else pair)
                    if found >= 0:
                        return found
                order = _by_floor(floor, np.int64(mine_cost))  # not a literal: one compile
            if at == end:  # the next set
                if o == order.shape[0]:
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
            better, cost = cost_below(g, u, limit, bits)
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
    sliced = _slice_secrets(spos, scnt, secrets)
    costs = _rule_costs(rule, secrets.shape[0], pegs, nlogn)
    sets = _colour_sets(sliced, set_bits, set_start, pegs, costs, set_colours, skip)
    gs = _Guesses(gpos, gcnt, gbit_pos, gset, set_bits)
    cands = _Candidates(candidates, by_set, set_start, mark, grouped, grouped_bits)
    mine = _places_of(candidates, consistent, mark)  # and marks them
    best = _scan(mine, cands, gs, sliced, costs, sets)
    for i in range(consistent.shape[0]):
        mark[consistent[i]] = 0
    return best


_best_guess_sliced = njit(cache=True, nogil=True)(_best_guess_sliced_py)

#: the bit-sliced sums hold up to 7
SLICED_PEGS = 7


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
        game.pegs, RULES[rule], _nlogn(game, len(secrets)), scratch.mark,
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
