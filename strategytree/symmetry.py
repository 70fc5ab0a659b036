"""Symmetry: guesses that are images of each other need scoring only once.

A permutation of positions and colours that maps every guess played so far
to itself maps the set of secrets still possible to itself, and maps any
candidate guess to one that splits that set into parts of the same sizes.
So candidates fall into classes of equal score, and it is enough to score one
per class.  The one kept is the first of its class in code order, so a
builder that breaks ties by code order builds the same tree with or without
symmetry (only faster).

>>> from strategytree.game import mastermind
>>> game = mastermind(5, 8)
>>> root = Symmetry.of(game)
>>> [game.code_text(game.guesses[i]) for i in root.representatives(np.arange(len(game.guesses)))]
['AAAAA', 'AAAAB', 'AAABB', 'AAABC', 'AABBC', 'AABCD', 'ABCDE']

The group is kept as maps ``(perm, tau)`` (:class:`Symmetry`); the loops over
maps — :func:`stabilizer` (the maps that also fix a guess), :func:`image_key`,
:func:`least_in_class` and :func:`canonical_keys` — are plain Python here,
compiled by numba on first use (:func:`compiled`), so that the builders and the
compiled search narrow and test the group with the same code.
"""

from __future__ import annotations

import itertools
import math
import threading
import weakref
from functools import cache
from types import SimpleNamespace

import numpy as np

from .game import Game

#: beyond this many position permutations only colours are permuted
MAX_PERMUTATIONS = 50_000

#: from this many codes on, the keys are worked out by a compiled kernel
_COMPILED_FROM = 256

#: the most groups of a game whose classes are kept (:meth:`Symmetry.classes`; oldest out)
CLASSES_KEPT = 256

#: per game, the first guess of each class by group (:meth:`Symmetry.classes`)
_KEPT: weakref.WeakKeyDictionary[Game, dict[bytes, np.ndarray]] = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


class Symmetry:
    """The group of (position, colour) permutations that fix the guesses played.

    It is kept as a list of maps ``(perm, tau)``: the code ``g`` goes to
    ``tau[g[perm]]``, where ``tau`` renames the colours played so far (-1 for
    colours never played) — times every renaming of the colours never played.
    """

    def __init__(
        self,
        game: Game,
        maps: list[tuple[np.ndarray, np.ndarray]] | None,
        played: np.ndarray,
        enabled: bool = True,
    ) -> None:
        self.game = game
        self.maps = maps  # None: nothing played yet, every permutation
        self.played = played  # bool per colour
        self.enabled = enabled
        self._cache: tuple[np.ndarray, np.ndarray] | None = None
        self._trivial: bool | None = None

    @classmethod
    def of(cls, game: Game, enabled: bool = True) -> Symmetry:
        """The whole symmetry group of a game before any guess (identity only
        for games not closed under renaming colours and positions)."""
        enabled = enabled and game.symmetric
        return cls(game, None, np.zeros(game.colors, dtype=bool), enabled)

    def after(self, guess: np.ndarray) -> Symmetry:
        """The subgroup that also fixes ``guess`` (a row of colours)."""
        if not self.enabled:
            return self
        p, c = self.game.pegs, self.game.colors
        guess = np.asarray(guess, dtype=np.int64)
        if self.maps is None:
            if math.factorial(p) > MAX_PERMUTATIONS:
                start = [(np.arange(p), np.full(c, -1, dtype=np.int64))]
            else:
                start = [
                    (np.array(perm), np.full(c, -1, dtype=np.int64))
                    for perm in itertools.permutations(range(p))
                ]
        else:
            start = self.maps
        perms = np.array([perm for perm, _ in start], dtype=np.int64)
        taus = np.array([tau for _, tau in start], dtype=np.int64)
        out_perms, out_taus = np.empty_like(perms), np.empty_like(taus)
        # a fresh uint8 row: the type the compiled search gives it (one compile)
        code = np.array(guess, dtype=np.uint8)
        kept = compiled().stabilizer(perms, taus, len(start), code, out_perms, out_taus)
        maps = list(zip(out_perms[:kept], out_taus[:kept]))
        played = self.played.copy()
        played[guess] = True
        return Symmetry(self.game, maps, played, True)

    @property
    def trivial(self) -> bool:
        """True when every candidate is alone in its class."""
        if not self.enabled:
            return True
        if self.maps is None:
            return False
        if self._trivial is None:  # asked at every node: worked out once
            free = int((~self.played).sum())
            identity_only = len(self.maps) == 1
            self._trivial = identity_only and free <= 1
        return self._trivial

    def canonical_keys(self, rows: np.ndarray, compiled: bool = True) -> np.ndarray:
        """One integer per code, equal exactly for codes in the same class
        (``compiled``: by the compiled loop when there are many; else numpy's,
        slower, and nothing to compile)."""
        p, c = self.game.pegs, self.game.colors
        rows = np.asarray(rows)
        if self.maps is None:  # only the multiset of colour counts matters
            counts = np.zeros((len(rows), c), dtype=np.int64)
            for i in range(p):
                counts[np.arange(len(rows)), rows[:, i]] += 1
            counts = -np.sort(-counts, axis=1)
            return _as_key(counts, p + 1)
        free_colours = np.flatnonzero(~self.played)
        if compiled and self.maps and len(rows) >= _COMPILED_FROM:
            return canonical_keys(rows, self.maps, free_colours, c)
        best = None
        for perm, tau in self.maps:
            moved = rows[:, perm].astype(np.int64)
            key = _as_key(_rename_free(moved, tau, free_colours, c), c)
            best = key if best is None else np.minimum(best, key)
        assert best is not None
        return best

    def key(self) -> bytes:
        """Equal for groups of equal maps (in the same order) and colours played:
        many histories leave the same group (:meth:`classes` keeps its answer by it)."""
        if self.maps is None:
            return b"whole" + self.played.tobytes()
        return b"".join(perm.tobytes() + tau.tobytes() for perm, tau in self.maps) \
            + self.played.tobytes()

    def copy(self) -> Symmetry:
        """The same group, with its own remembered answers (one per thread)."""
        return Symmetry(self.game, self.maps, self.played, self.enabled)

    def classes(self, compiled: bool = True) -> np.ndarray:
        """The first guess of each class, over every guess of the game (indices,
        increasing; ``compiled`` as for :meth:`canonical_keys`).

        Kept per game by :meth:`key`, for every caller and thread: the sets left
        by many histories share one group.

        >>> from strategytree.game import mastermind
        >>> game = mastermind(4, 6)
        >>> sym = Symmetry.of(game).after(game.parse_code("AABB"))
        >>> reps = [game.code_text(game.guesses[i]) for i in sym.classes()]
        >>> len(reps), reps[:5]
        (39, ['AAAA', 'AAAB', 'AAAC', 'AABB', 'AABC'])
        """
        key = b"" if self.trivial else self.key()  # every guess: one array for all
        with _KEPT_LOCK:
            kept = _KEPT.setdefault(self.game, {})
            reps = kept.get(key)
        if reps is None:  # worked out unlocked: two threads may both, to the same answer
            reps = self.representatives(np.arange(len(self.game.guesses)), compiled)
            with _KEPT_LOCK:
                if len(kept) >= CLASSES_KEPT:
                    del kept[next(iter(kept))]
                kept[key] = reps
        return reps

    def representatives(self, candidates: np.ndarray, compiled: bool = True) -> np.ndarray:
        """The first candidate (in the order given) of each class.

        ``candidates`` are indices into ``game.guesses`` in increasing order;
        ``compiled``: as for :meth:`canonical_keys`.
        """
        if self.trivial or len(candidates) <= 1:
            return candidates
        if self._cache is not None and self._cache[0] is candidates:
            return self._cache[1]  # siblings share one history, hence one answer
        keys = self.canonical_keys(self.game.guesses[candidates], compiled)
        _, first = np.unique(keys, return_index=True)
        reps = candidates[np.sort(first)]
        self._cache = (candidates, reps)
        return reps


def merge_dead_colours(
    guess_masks: np.ndarray,
    secret_masks: np.ndarray,
    candidates: np.ndarray,
    secrets: np.ndarray,
    memo: dict | None = None,
) -> np.ndarray:
    """Drop guesses that use a colour no remaining secret has, other than the first such.

    A colour absent from every remaining secret scores nothing wherever it is
    played, so putting the first absent colour in its place changes no reply
    and gives a guess earlier in code order: that guess stands for both.
    (Only when every code is an allowed guess.)  ``guess_masks`` and
    ``secret_masks`` hold the colours of each code as bits
    (:func:`strategytree.builders.colour_masks`).

    The same candidates and absent colours come back often: a caller may keep
    the answers in ``memo``, a dict of its own (one per thread), so that it gets
    the same array back for them (and what it keeps about that array holds).
    """
    absent = dead_colours(secret_masks, secrets)
    if absent == 0:
        return candidates
    key = (id(candidates), absent)
    kept = memo.get(key) if memo is not None else None
    if kept is not None and kept[0] is candidates:
        return kept[1]
    merged = candidates[(guess_masks[candidates] & absent) == 0]
    if memo is not None:
        if len(memo) >= MERGED_KEPT:
            del memo[next(iter(memo))]
        memo[key] = (candidates, merged)
    return merged


def dead_colours(secret_masks: np.ndarray, secrets: np.ndarray) -> int:
    """The colours that :func:`merge_dead_colours` leaves out, as bits: those no
    secret has, but the first.

    >>> from strategytree.builders import colour_masks
    >>> bin(dead_colours(colour_masks(np.array([[0, 2], [2, 0]])), np.arange(2)) & 0xFF)
    '0b11111000'
    """
    present = int(np.bitwise_or.reduce(secret_masks[secrets]))
    absent = ~present & ((1 << 62) - 1)
    return absent & (absent - 1)  # all absent colours but the first


#: the most answers of :func:`merge_dead_colours` a memo keeps (oldest out)
MERGED_KEPT = 128


def _rename_free(moved: np.ndarray, tau: np.ndarray, free: np.ndarray, colors: int) -> np.ndarray:
    """Rename played colours by ``tau`` and never-played ones by first appearance."""
    out = tau[moved]
    fresh = out < 0
    if not fresh.any():
        return out
    m, p = moved.shape
    label = np.full((m, colors), -1, dtype=np.int64)
    used = np.zeros(m, dtype=np.int64)
    rows = np.arange(m)
    for i in range(p):
        need = fresh[:, i]
        if not need.any():
            continue
        r = rows[need]
        col = moved[need, i]
        have = label[r, col]
        new = have < 0
        label[r[new], col[new]] = free[used[r[new]]]
        used[r[new]] += 1
        out[r, i] = label[r, col]
    return out


def _as_key(rows: np.ndarray, base: int) -> np.ndarray:
    key = np.zeros(len(rows), dtype=np.int64)
    for i in range(rows.shape[1]):
        key = key * base + rows[:, i]
    return key


# -- the loops over maps, compiled on first use --------------------------------------------
def stabilizer(perms, taus, k, code, out_perms, out_taus):
    """The maps of (``perms``, ``taus``)[:k] that can be extended to fix ``code``
    (renaming never-played colours of it to never-played ones), written to
    ``out_perms``, ``out_taus``; their number."""
    p = code.shape[0]
    c = taus.shape[1]
    kk = 0
    for t in range(k):
        for x in range(c):
            out_taus[kk, x] = taus[t, x]
        ok = True
        for i in range(p):
            a = code[perms[t, i]]
            b = code[i]
            if out_taus[kk, a] < 0:
                for x in range(c):
                    if out_taus[kk, x] == b:
                        ok = False
                        break
                if not ok:
                    break
                out_taus[kk, a] = b
            elif out_taus[kk, a] != b:
                ok = False
                break
        if ok:
            for i in range(p):
                out_perms[kk, i] = perms[t, i]
            kk += 1
    return kk


def image_key(row, perm, tau, free, label, colors):
    """The key (a number in base ``colors``) of the least image of the code ``row``
    under the map (``perm``, ``tau``): positions permuted, played colours renamed
    by ``tau``, the others (-1 there) by first appearance to ``free[0]``,
    ``free[1]``, ...  ``label`` is scratch, all -1 (and left so)."""
    used = 0
    key = 0
    for j in range(row.shape[0]):
        col = row[perm[j]]
        v = tau[col]
        if v < 0:
            v = label[col]
            if v < 0:
                v = free[used]
                used += 1
                label[col] = v
        key = key * colors + v
    for j in range(row.shape[0]):
        label[row[j]] = -1
    return key


def least_in_class(code, perms, taus, k, free, label):
    """True when ``code`` is the first (in code order) of its class: no map of the
    group (``perms[t]``, ``taus[t]`` for ``t < k``; code ``g`` goes to
    ``taus[t][g[perms[t]]]``), times the renamings of the colours never played
    (``taus[t][c] < 0``; ``free`` lists them in increasing order), sends it to a
    smaller code.  ``label`` is scratch, all -1 (and left so)."""
    colors = taus.shape[1]
    own = 0
    for i in range(code.shape[0]):
        own = own * colors + code[i]
    for t in range(k):
        if image_key(code, perms[t], taus[t], free, label, colors) < own:
            return False
    return True


def canonical_keys_into(rows, perms, taus, free, colors, out):
    """``out[i]``: the smallest key of the images of ``rows[i]`` under the maps
    ``(perms[k], taus[k])`` (see :meth:`Symmetry.canonical_keys`): positions
    permuted, played colours renamed by ``taus[k]``, the others (-1 there) by
    first appearance to ``free[0]``, ``free[1]``, ...; the key reads the image as
    a number in base ``colors``."""
    label = np.full(colors, -1, dtype=np.int64)
    for i in range(rows.shape[0]):
        best = -1
        for k in range(perms.shape[0]):
            key = image_key(rows[i], perms[k], taus[k], free, label, colors)
            if best < 0 or key < best:
                best = key
        out[i] = best


def canonical_keys(
    rows: np.ndarray, maps: list[tuple[np.ndarray, np.ndarray]], free: np.ndarray, colors: int
) -> np.ndarray:
    """The smallest key of each code's images under ``maps`` (``(perm, tau)``
    pairs; colours with ``tau == -1`` renamed by first appearance to ``free``),
    by the compiled :func:`canonical_keys_into`."""
    perms = np.ascontiguousarray([perm for perm, _ in maps], dtype=np.int64)
    taus = np.ascontiguousarray([tau for _, tau in maps], dtype=np.int64)
    out = np.empty(len(rows), dtype=np.int64)
    compiled().canonical_keys_into(
        np.ascontiguousarray(rows, dtype=np.int64).reshape(len(rows), -1),
        perms.reshape(len(maps), -1),
        taus.reshape(len(maps), -1),
        np.ascontiguousarray(free, dtype=np.int64),
        int(colors),
        out,
    )
    return out


@cache
def compiled() -> SimpleNamespace:
    """The loops over maps, compiled (numba is imported on first use; compiled
    code is cached on disk).  Compiled kernels may call :func:`image_key` and
    :func:`least_in_class` once this has run, and this namespace's
    ``stabilizer`` (the dispatcher Python calls: compiled once per install,
    where an overload of it would be a second function to compile)."""
    from numba.extending import overload

    from .jit import njit

    @overload(image_key, inline="always")
    def image_key_compiled(row, perm, tau, free, label, colors):  # pragma: no cover - numba
        return image_key

    @overload(least_in_class)
    def least_in_class_compiled(code, perms, taus, k, free, label):  # pragma: no cover - numba
        return least_in_class

    return SimpleNamespace(
        stabilizer=njit(cache=True, nogil=True)(stabilizer),
        least_in_class=njit(cache=True, nogil=True)(least_in_class),
        canonical_keys_into=njit(cache=True, nogil=True)(canonical_keys_into),
    )
