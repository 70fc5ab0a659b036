"""A stable sort of indices by keys, for compiled code.

numba compiles ``np.argsort`` from its generic quicksort (several functions,
some seconds of compiling once per install); the merge sort here compiles in
a fraction of that, and is stable: indices of equal keys keep their order.

>>> import numpy as np
>>> keys = np.array([5, 1, 5, 0, 1])
>>> a, b = np.arange(5), np.empty(5, dtype=np.int64)
>>> merge_order(keys, a, b, 5).tolist()
[3, 1, 4, 0, 2]
"""

from __future__ import annotations

from .jit import njit

__all__ = ["merge_order", "merge_passes"]


# called by compiled code only: no Python wrapper to compile
@njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def merge_passes(keys, a, b, n):
    """Sort ``a[:n]`` (indices into ``keys``) by ``keys[a[i]]``, equal keys in
    their order, merging back and forth between ``a`` and ``b`` (scratch as
    long): True when the result ends in ``b``.  (No array returned: a caller
    compiled without reference counts may call it.)"""
    in_b = False
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            for t in range(lo, hi):
                if j >= hi or (i < mid and keys[a[i]] <= keys[a[j]]):
                    b[t] = a[i]
                    i += 1
                else:
                    b[t] = a[j]
                    j += 1
        a, b = b, a
        in_b = not in_b
        width *= 2
    return in_b


@njit(cache=True, nogil=True, inline="always")
def merge_order(keys, a, b, n):
    """``a[:n]`` (indices into ``keys``) sorted by ``keys[a[i]]``, equal keys in
    their order; ``b``: scratch as long.  Returns the array that holds the
    result (``a`` or ``b``)."""
    return b if merge_passes(keys, a, b, n) else a
