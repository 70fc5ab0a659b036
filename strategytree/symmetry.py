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
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .game import Game

#: beyond this many position permutations only colours are permuted
MAX_PERMUTATIONS = 50_000

#: from this many codes on, the keys are worked out by a compiled kernel
_COMPILED_FROM = 256


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
        from .kernels import _stabilizer  # the compiled search narrows its group alike

        perms = np.array([perm for perm, _ in start], dtype=np.int64)
        taus = np.array([tau for _, tau in start], dtype=np.int64)
        out_perms, out_taus = np.empty_like(perms), np.empty_like(taus)
        kept = _stabilizer(perms, taus, len(start), guess, out_perms, out_taus)
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

    def canonical_keys(self, rows: np.ndarray) -> np.ndarray:
        """One integer per code, equal exactly for codes in the same class."""
        p, c = self.game.pegs, self.game.colors
        rows = np.asarray(rows)
        if self.maps is None:  # only the multiset of colour counts matters
            counts = np.zeros((len(rows), c), dtype=np.int64)
            for i in range(p):
                counts[np.arange(len(rows)), rows[:, i]] += 1
            counts = -np.sort(-counts, axis=1)
            return _as_key(counts, p + 1)
        free_colours = np.flatnonzero(~self.played)
        if self.maps and len(rows) >= _COMPILED_FROM:
            from .kernels import canonical_keys  # the same keys, compiled

            return canonical_keys(rows, self.maps, free_colours, c)
        best = None
        for perm, tau in self.maps:
            moved = rows[:, perm].astype(np.int64)
            key = _as_key(_rename_free(moved, tau, free_colours, c), c)
            best = key if best is None else np.minimum(best, key)
        assert best is not None
        return best

    def representatives(self, candidates: np.ndarray) -> np.ndarray:
        """The first candidate (in the order given) of each class.

        ``candidates`` are indices into ``game.guesses`` in increasing order.
        """
        if self.trivial or len(candidates) <= 1:
            return candidates
        if self._cache is not None and self._cache[0] is candidates:
            return self._cache[1]  # siblings share one history, hence one answer
        keys = self.canonical_keys(self.game.guesses[candidates])
        _, first = np.unique(keys, return_index=True)
        reps = candidates[np.sort(first)]
        self._cache = (candidates, reps)
        return reps


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
