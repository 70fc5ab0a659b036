"""The exact search's cache of solved sets: a hash table in plain arrays.

Each set searched has a row of five numbers: its two 40-bit hashes
(:func:`cache_key`), its cost (exact, or a lower bound from a failed search),
its best guess (-1: none under the limit) and its flags (2 * size + exact).
The rows stay in the order the sets were first stored — what a checkpoint
saves — and a set is found by its first hash through an index (open
addressing, linear probing, at most half full).  A set whose first hash is
another's takes its row: the second hash, checked at every look, keeps two
sets from ever being taken one for the other (a miss, at worst).

Plain arrays rather than numba's typed dict, whose methods and hashing took
about a second of the first run's compiling; the look and the store here are
a few lines pasted into the compiled search (:func:`find`, :func:`store`).
Each row also has a flag, set when the row is stored, that says it is not
in the checkpoint yet (:meth:`Cache.unsaved`): a checkpoint saves only the
rows new or changed since the last save without keeping a copy of the rows
to compare with (a copy as big as the cache).
The compiled search cannot make the arrays bigger: when fewer rows are free
than it may store before it looks again, it pauses (``meta[PAUSED]``: the
level to go on at, plus one), and the caller gives it a bigger cache
(:meth:`Cache.grow`) and calls it again.

>>> import numpy as np
>>> c = Cache(capacity=2)
>>> c.put(7, 70, 5, 2, 2 * 3 + 1)
>>> c.put(9, 90, 11, -1, 2 * 4)
>>> c.get(7, 70), c.get(7, 71), c.get(8, 80)
((5, 2, 7), None, None)
>>> c.put(7, 70, 4, 1, 7)  # the same set again: its row is overwritten
>>> c.grow()
>>> len(c), c.capacity, c.get(7, 70), c.rows(0).tolist()
(2, 4, (4, 1, 7), [[7, 70, 4, 1, 7], [9, 90, 11, -1, 8]])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import njit

__all__ = ["PAUSED", "USED", "Cache", "CacheArrays", "find", "load_rows", "cache_key", "store"]

#: slots of :attr:`CacheArrays.meta`: the rows used; the level a paused search
#: goes on at, plus one (0: not paused)
USED, PAUSED = 0, 1
#: the rows of a new cache (it doubles when full)
CAPACITY = 1 << 15


class CacheArrays(NamedTuple):
    """A cache as the compiled code reads and writes it."""

    index: np.ndarray
    """(2 * capacity,) int64: 1 + the row of the set in each slot (0: an empty slot)"""
    rows: np.ndarray
    """(capacity, 5) int64: the first hash, the second, the cost, the best guess, the flags"""
    meta: np.ndarray
    """(2,) int64: see :data:`USED`, :data:`PAUSED`"""
    unsaved: np.ndarray
    """(capacity,) bool: the row was stored since the last checkpoint"""


@njit(cache=True, nogil=True)
def cache_key(S, dkey, ids):
    """Two 40-bit hashes of a sorted set of secret indices (and the guesses left),
    each index read as its number in ``ids`` (increasing: a part of a game keys its
    sets by their secrets' indices in the whole game, and its searches share a cache)."""
    h1 = (S.shape[0] * 7919 + dkey) % 1099511627689
    h2 = (dkey * 104729 + S.shape[0]) % 1099511627719
    for i in range(S.shape[0]):
        x = np.int64(ids[S[i]]) + 1
        h1 = (h1 * 1000003 + x) % 1099511627689
        h2 = (h2 * 999983 + x * 31) % 1099511627719
    return (h1, h2)


@njit(cache=True, nogil=True, inline="always")
def find(c, key1):
    """The slot of the index that holds ``key1``, or the empty one where it would go."""
    mask = c.index.shape[0] - 1
    i = key1 & mask
    while True:
        e = c.index[i]
        if e == 0 or c.rows[e - 1, 0] == key1:
            return i
        i = (i + 1) & mask


@njit(cache=True, nogil=True, inline="always")
def store(c, key1, key2, cost, guess, flags):
    """Store a set's row (a new row, or over the row of the same first hash);
    a row new or changed is flagged unsaved."""
    i = find(c, key1)
    e = c.index[i] - 1
    if e < 0:
        e = c.meta[USED]
        c.meta[USED] = e + 1
        c.index[i] = e + 1
        c.rows[e, 0] = key1
        c.unsaved[e] = True
    elif (c.rows[e, 1] != key2 or c.rows[e, 2] != cost or c.rows[e, 3] != guess
          or c.rows[e, 4] != flags):
        c.unsaved[e] = True
    c.rows[e, 1] = key2
    c.rows[e, 2] = cost
    c.rows[e, 3] = guess
    c.rows[e, 4] = flags


@njit(cache=True, nogil=True)
def load_rows(c, rows):
    """Store ``rows`` one after another (later rows win); room for them all."""
    for r in range(rows.shape[0]):
        store(c, rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3], rows[r, 4])


class Cache:
    """Solved sets (see the module doc): :attr:`arrays` for the compiled search;
    looks, stores and rows for Python."""

    def __init__(self, capacity: int | None = None) -> None:
        rows = CAPACITY if capacity is None else int(capacity)
        size = 1 << max(rows - 1, 1).bit_length()
        self.arrays = CacheArrays(
            index=np.zeros(2 * size, dtype=np.int64),
            rows=np.empty((size, 5), dtype=np.int64),
            meta=np.zeros(2, dtype=np.int64),
            unsaved=np.zeros(size, dtype=np.bool_),
        )

    def __len__(self) -> int:
        return int(self.arrays.meta[USED])

    @property
    def capacity(self) -> int:
        """The rows the arrays hold."""
        return len(self.arrays.rows)

    @property
    def paused(self) -> bool:
        """The compiled search paused for want of room (grow, then call it again)."""
        return bool(self.arrays.meta[PAUSED])

    def grow(self, room: int = 1) -> None:
        """Bigger arrays (twice as big, or more: at least ``room`` rows free), the
        rows in the same order; a pause is kept."""
        capacity = 2 * self.capacity
        while capacity - len(self) < room:
            capacity *= 2
        bigger = Cache(capacity)
        load_rows(bigger.arrays, self.arrays.rows[: len(self)])
        bigger.arrays.unsaved[: len(self)] = self.arrays.unsaved[: len(self)]
        bigger.arrays.meta[PAUSED] = self.arrays.meta[PAUSED]
        self.arrays = bigger.arrays

    def _slot(self, key1: int) -> int:
        index, rows = self.arrays.index, self.arrays.rows
        mask = len(index) - 1
        i = key1 & mask
        while index[i] != 0 and rows[index[i] - 1, 0] != key1:
            i = (i + 1) & mask
        return i

    def get(self, key1: int, key2: int) -> tuple[int, int, int] | None:
        """(cost, best guess or -1, flags) stored for the set of these hashes, or None."""
        e = int(self.arrays.index[self._slot(key1)]) - 1
        if e < 0 or self.arrays.rows[e, 1] != key2:
            return None
        cost, guess, flags = self.arrays.rows[e, 2:]
        return int(cost), int(guess), int(flags)

    def put(self, key1: int, key2: int, cost: int, guess: int, flags: int) -> None:
        """Store a set's row (over the row of the same first hash, if any)."""
        i = self._slot(key1)
        if self.arrays.index[i] == 0 and len(self) == self.capacity:
            self.grow()
            i = self._slot(key1)
        a = self.arrays
        e = int(a.index[i]) - 1
        row = (key1, key2, cost, guess, flags)
        if e < 0:
            e = len(self)
            a.meta[USED] = e + 1
            a.index[i] = e + 1
        elif tuple(a.rows[e]) == row:
            return  # the same row: nothing new to save
        a.rows[e] = row
        a.unsaved[e] = True

    def load(self, rows: np.ndarray) -> None:
        """Store the rows of :meth:`rows` (later rows win)."""
        if len(self) + len(rows) > self.capacity:
            self.grow(len(rows))
        if len(rows):
            load_rows(self.arrays, np.ascontiguousarray(rows, dtype=np.int64))

    def mark_saved(self) -> None:
        """Count every row as saved (the rows read from a checkpoint)."""
        self.arrays.unsaved[: len(self)] = False

    def rows(self, min_size: int) -> np.ndarray:
        """The rows of the sets of at least ``min_size`` secrets, as (k, 5) rows
        (key, key, cost, guess, flags), in the order they were first stored."""
        rows = self.arrays.rows[: len(self)]
        return rows[(rows[:, 4] >> 1) >= min_size]

    def unsaved(self, min_size: int) -> np.ndarray:
        """:meth:`rows` of the rows stored since the last call (or since the
        rows read from the checkpoint); from now on they count as saved."""
        used = len(self)
        rows = self.arrays.rows[:used]
        flags = self.arrays.unsaved[:used]
        new = rows[flags & ((rows[:, 4] >> 1) >= min_size)]
        flags[:] = False
        return new
