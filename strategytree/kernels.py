"""Numba kernels: feedback of guesses against secrets, and partition counts.

The jitted functions (names starting with ``_``) take plain contiguous arrays
in the bit encoding of :func:`strategytree.game.encode` and read no globals,
so ``cache=True`` is safe.  The public wrappers check and convert their input.

Importing this module imports numba (about half a second) but compiles
nothing; each kernel compiles on its first call and is cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic

from .errors import StrategyTreeError
from .game import Game


@intrinsic
def _popcount(typingctx, x):  # pragma: no cover - compiled by numba
    """Population count of a uint64 (one ``popcnt`` instruction)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True)
def _feedback_one(gpos, gcnt, spos, scnt, pegs, out):
    """out[j] = reply code of the guess (gpos, gcnt) against secret j."""
    n, words = spos.shape
    for j in range(n):
        black = 0
        both = 0
        for w in range(words):
            black += _popcount(gpos[w] & spos[j, w])
            both += _popcount(gcnt[w] & scnt[j, w])
        out[j] = black * (pegs + 1) + (both - black)


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
                b = _popcount(gp & spos[j + k])
                t = _popcount(gc & scnt[j + k])
                hist[k, b * stride + t - b] += 1
            j += 4
        while j < n:
            b = _popcount(gp & spos[j])
            t = _popcount(gc & scnt[j])
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
                b += _popcount(gpos[i, w] & spos[j, w])
                t += _popcount(gcnt[i, w] & scnt[j, w])
            hist[b * stride + t - b] += 1
        for r in range(n_replies):
            out[i, r] = hist[r]


def _rows(game: Game, which: str, index: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    pos, cnt = game.secret_bits if which == "secrets" else game.guess_bits
    if index is None:
        return pos, cnt
    index = np.asarray(index)
    if index.ndim != 1 or (len(index) and (index.min() < 0 or index.max() >= len(pos))):
        raise StrategyTreeError(f"{which} index must be a 1-d array of indices into game.{which}")
    return pos[index], cnt[index]


def feedback(game: Game, guess: int, secrets: np.ndarray | None = None) -> np.ndarray:
    """Reply codes of allowed guess number ``guess`` against the given secrets.

    ``secrets`` is an array of indices into ``game.secrets`` (default: all).
    Returns an int8 array, one reply code per secret.
    """
    gpos, gcnt = _rows(game, "guesses", np.array([guess]))
    spos, scnt = _rows(game, "secrets", secrets)
    out = np.empty(len(spos), dtype=np.int8)
    _feedback_one(gpos[0], gcnt[0], spos, scnt, game.pegs, out)
    return out


def partition_counts(
    game: Game, guesses: np.ndarray | None = None, secrets: np.ndarray | None = None
) -> np.ndarray:
    """How each guess splits the secrets: an ``(m, n_replies)`` int32 array.

    ``out[i, r]`` is the number of the given secrets that give reply code ``r``
    to guess ``guesses[i]``.  Both are index arrays into the game's tables
    (default: all).  Runs in parallel over the guesses.
    """
    gpos, gcnt = _rows(game, "guesses", guesses)
    spos, scnt = _rows(game, "secrets", secrets)
    out = np.empty((len(gpos), game.n_replies), dtype=np.int32)
    if gpos.shape[1] == 1:
        _partition_counts_1(
            np.ascontiguousarray(gpos[:, 0]),
            np.ascontiguousarray(gcnt[:, 0]),
            np.ascontiguousarray(spos[:, 0]),
            np.ascontiguousarray(scnt[:, 0]),
            game.pegs,
            game.n_replies,
            out,
        )
    else:
        _partition_counts_w(gpos, gcnt, spos, scnt, game.pegs, game.n_replies, out)
    return out
