"""Scoring guesses: how each guess splits a set of secrets, and the rules'
score of that split (compiled, many guesses at once).

- :func:`partition_counts`: how many secrets give each reply, for every guess;
- :func:`scores`: each guess's score under a rule of :data:`RULES` (higher is
  better), from exact integers (:func:`nlogn_table` for entropy), so that ties
  never depend on rounding;
- :func:`first_perfect`: the first guess that gives every secret its own reply.

A reply is worked out by :func:`strategytree.feedback.reply` (one definition,
pasted into each loop here); a custom game's replies are read from its table.
The compiled kernels (names starting with ``_``) take plain contiguous arrays in
the bit encoding of :func:`strategytree.feedback.encode` and read no globals,
so ``cache=True`` is safe; the public functions check and convert their input.
Importing this module imports numba but compiles nothing: each kernel compiles
on its first call and is cached on disk.
"""

from __future__ import annotations

import numpy as np

from .errors import StrategyTreeError
from .feedback import compiled as feedback_loops
from .feedback import lowest_bit, reply, reply_of_rows
from .game import Game
from .jit import njit, prange

__all__ = [
    "MASKED_SECRETS",
    "RULES",
    "SERIAL_PAIRS",
    "first_perfect",
    "nlogn_table",
    "nlogn_weights",
    "partition_counts",
    "scores",
]

feedback_loops()  # numba learns the bit instructions and the reply step before any kernel compiles

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
                hist[k, reply(gp, gc, spos[j + k], scnt[j + k], stride)] += 1
            j += 4
        while j < n:
            hist[0, reply(gp, gc, spos[j], scnt[j], stride)] += 1
            j += 1
        for r in range(n_replies):
            out[i, r] = hist[0, r] + hist[1, r] + hist[2, r] + hist[3, r]


@njit(cache=True, parallel=True)
def _partition_counts_w(gpos, gcnt, spos, scnt, pegs, n_replies, out):
    """Partition counts for codes of several words: (m, W) and (n, W) arrays."""
    m = gpos.shape[0]
    n = spos.shape[0]
    stride = pegs + 1
    for i in prange(m):
        hist = np.zeros(n_replies, dtype=np.int32)
        for j in range(n):
            hist[reply_of_rows(gpos, gcnt, i, spos, scnt, j, stride)] += 1
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
                    r = reply(gp, gc, spos[j], scnt[j], stride)
                    if hist[r] == 0:
                        bins[k] = r
                        k += 1
                    hist[r] += 1
            else:  # many secrets: count without branching, then find the bins
                for j in range(n):
                    hist[reply(gp, gc, spos[j], scnt[j], stride)] += 1
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
                r = reply(gp, gc, spos[j], scnt[j], stride)
                hist[r] += 1
                mask |= one << np.uint64(r)
            total = 0
            parts = 0
            while mask:
                r = lowest_bit(mask)
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
    m = gpos.shape[0]
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
                r = reply_of_rows(gpos, gcnt, i, spos, scnt, j, stride)
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
            r = reply(gp, gc, spos[j], scnt[j], stride)
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
            r = reply_of_rows(gpos, gcnt, i, spos, scnt, j, stride)
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


def nlogn_weights(game: Game, n: int) -> np.ndarray:
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
        kernel(game.table, g, s, game.n_replies, RULES[rule], nlogn_weights(game, len(s)), chunks,
               out)
        return out
    gpos, gcnt = _rows(game, "guesses", guesses, check)
    spos, scnt = _rows(game, "secrets", secrets, check)
    out = np.empty(len(gpos), dtype=np.int64)
    pairs = len(gpos) * len(spos)
    serial = pairs < SERIAL_PAIRS
    chunks = 1 if serial else max(1, min(len(gpos), 64))
    args = (game.pegs, game.n_replies, RULES[rule], nlogn_weights(game, len(spos)), chunks, out)
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

