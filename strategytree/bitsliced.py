"""Secrets bit-sliced: 64 at a time (a block), one bit each, so that a guess's
blacks (and blacks + whites) against 64 secrets are a few word operations.

For every bit of the encoding (:func:`strategytree.feedback.encode`) a word
tells which secrets of a block have it (:func:`slice_secrets`).  A guess has
``pegs`` bits set in each of its two bit sets, so its blacks against a block
are the sum of ``pegs`` words, added bit-sliced into a 3-bit counter
(:func:`count_equal`, ``pegs <= 7``); the secrets with ``v`` blacks are then one
word (:func:`equal_masks`), and a part's size the popcount of an AND of two
such words.  The greedy choice (:mod:`strategytree.greedy_choice`) scores
guesses so.  Compiled on first use; the small steps are pasted into the
kernels that call them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .feedback import compiled as feedback_loops
from .feedback import lowest_bit
from .jit import njit

__all__ = ["SLICED_PEGS", "Sliced", "count_equal", "equal_masks", "set_sums", "slice_secrets"]

feedback_loops()  # numba learns the bit instructions before any kernel compiles

#: the bit-sliced counters hold up to 7
SLICED_PEGS = 7


class Sliced(NamedTuple):
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


@njit(inline="always")
def equal_masks(x0, x1, x2, out):
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
def count_equal(has, blk, bits, pegs, zero, out):
    """``out[v]``: the secrets (bits of block ``blk``) that have exactly ``v`` of the
    ``pegs`` features ``has[blk, bits[p]]``: a bit-sliced 3-bit counter, then
    :func:`equal_masks`."""
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
    equal_masks(x0, x1, x2, out)


@njit(cache=True, nogil=True)
def slice_secrets(spos, scnt, secrets):
    """The secrets ``spos[secrets]``, ``scnt[secrets]`` bit-sliced (:class:`Sliced`)."""
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
                has_pos[blk, w * 64 + lowest_bit(x)] |= bit
                x &= x - one
            x = scnt[s, w]
            while x:
                has_cnt[blk, w * 64 + lowest_bit(x)] |= bit
                x &= x - one
    valid = ~np.uint64(0) if n % 64 == 0 else (one << np.uint64(n % 64)) - one
    return Sliced(secrets, spos, scnt, has_pos, has_cnt, valid, n)


@njit(inline="always")
def set_sums(has_cnt, valid, blk, bits, pegs, out):
    """``out[t]``: the secrets of block ``blk`` whose blacks + whites are ``t``
    against a guess whose colour-count bits are ``bits``."""
    count_equal(has_cnt, blk, bits, pegs, np.uint64(0), out)
    out[0] &= valid if blk == has_cnt.shape[0] - 1 else ~np.uint64(0)

