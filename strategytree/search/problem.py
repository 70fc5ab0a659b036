"""A game as the search sees it: plain arrays, a cache, and the compiled search's state.

:class:`Problem` is built once per search (:meth:`Problem.of` for a game,
:meth:`Problem.of_table` for a bare table of replies); each thread of a search
gets its own (:meth:`Problem.sibling`: the same tables, its own cache and state).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ..builders import colour_masks
from ..errors import StrategyTreeError
from ..feedback import table as reply_table
from ..game import Game
from ..symmetry import Symmetry, merge_dead_colours
from .bounds import INF, UNLIMITED, bound_tables, replies_met
from .cache import Cache, cache_key
from .compiled import Levels, Scratch, Tables, workspace
from .compiled import solve as compiled_solve

__all__ = ["MAX_MAPS", "MAX_TABLE", "MAX_TRANSPOSED", "Problem", "SearchError"]

#: most feedback-table entries (guesses x secrets, one byte each) the search builds
MAX_TABLE = 400_000_000
#: most entries of the transposed feedback table (a second copy) the search builds
MAX_TRANSPOSED = 100_000_000
#: most maps of a symmetry group the compiled search takes (more: no symmetry below)
MAX_MAPS = 5040


class SearchError(StrategyTreeError):
    """The search cannot be run as asked (a game too big, no strategy within the limit, ...)."""


def transposed(fb: np.ndarray, mode: int, given: np.ndarray | None = None) -> np.ndarray:
    """``fb`` as (secret, guess), for the kernel's all-guesses-at-once scan (only the
    least-total search uses it; an empty table when it is not used, or too big to
    copy); ``given``: that table, when the caller has it."""
    if mode != 0 or (given is None and fb.size > MAX_TRANSPOSED):
        return np.zeros((0, 0), dtype=np.int8)
    return np.ascontiguousarray(fb.T if given is None else given)


def branching_of(fb: np.ndarray, replies: int = 128) -> int:
    """The replies some guess gets from some secret, less the win (at least 1), of
    at most ``replies`` (the whole game's, for a part of it: counting stops there)."""
    return max(int(replies_met(fb, replies)) - 1, 1)


@dataclass
class Problem:
    """A game as plain arrays (:class:`~strategytree.search.compiled.Tables`), and
    one thread's cache and compiled-search state."""

    game: Game | None
    tables: Tables
    cache: Cache
    """solved sets (:class:`~strategytree.search.cache.Cache`)"""
    stats: np.ndarray
    """sets searched, and "stop" (shared by the threads of a search)"""
    levels: Levels
    scratch: Scratch
    merged: dict = field(default_factory=dict)
    """this thread's answers of :func:`~strategytree.symmetry.merge_dead_colours`"""
    _group_of: Symmetry | None = None  # the group the state's first level holds
    _group_size: int = 0

    @classmethod
    def of(
        cls, game: Game, max_guesses: int | None, symmetry: bool = True, mode: int = 0,
        whole: Game | None = None, ids: np.ndarray | None = None,
        replies: tuple[np.ndarray, np.ndarray] | None = None, previous: Problem | None = None,
    ) -> Problem:
        """The search of ``game`` (least total when ``mode`` is 0; whether a strategy
        within the guesses exists when 1); ``whole``: the game that ``game`` is a part
        of (:meth:`~strategytree.game.Game.part`), whose replies and symmetry it has,
        and ``ids`` the part's secrets there (the indices its sets are cached by).

        ``replies``: its table as (guesses, secrets) and (secrets, guesses), when the
        caller has them (MM(5,8)'s, 1 GiB each way, or one array for both: too big to
        build here, and read as they are).
        ``previous``: the search of another part of ``whole``, done with: this one
        takes over its cache (their sets are keyed alike) and its state's arrays when
        they are big enough."""
        n, m = len(game.secrets), len(game.guesses)
        if replies is None and n * m > MAX_TABLE:  # (a table given is there already)
            raise SearchError(
                f"{game.name}: {m:,} guesses x {n:,} secrets is too big for an exact search"
            )
        as_guess = game.guess_index(game.secrets).astype(np.int64)
        if (as_guess < 0).any():
            raise SearchError(f"{game.name}: every secret must be an allowed guess")
        if max_guesses is not None and not (isinstance(max_guesses, int) and max_guesses >= 1):
            raise SearchError(
                f"max_guesses must be a whole number of at least 1, got {max_guesses!r}"
            )
        fb, by_secret = (reply_table(game), None) if replies is None else replies
        branching = branching_of(fb, 128 if whole is None else len(whole.possible_replies))
        depth = UNLIMITED if max_guesses is None else min(int(max_guesses), UNLIMITED)
        lbtab, captab = bound_tables(n, branching, depth, mode)
        closed = bool(symmetry and (whole or game).symmetric)
        fbT = transposed(fb, mode, by_secret)
        if previous is not None and previous.game.guesses is game.guesses:
            codes, gmask = previous.tables.codes, previous.tables.gmask  # (never written)
        else:
            # a writable copy: the type Symmetry.after gives stabilizer too (one
            # compile of it, not one for the search and one for Symmetry)
            codes, gmask = np.array(game.guesses, dtype=np.uint8), colour_masks(game.guesses)
        tables = Tables(
            fb=fb,
            fbT=fbT,
            cold_rows=fbT.size > MAX_TRANSPOSED,  # (a table given, then)
            codes=codes,
            gmask=gmask,
            smask=colour_masks(game.secrets),
            as_guess=as_guess,
            ids=np.arange(n, dtype=np.int64) if ids is None else np.asarray(ids, dtype=np.int64),
            lbtab=lbtab,
            captab=captab,
            win=int(game.win),
            n_replies=int(game.n_replies),
            nsmall=branching + 1,
            full=(1 << game.colors) - 1,
            symm=closed,
            merge=bool(closed and m == game.colors**game.pegs),
            dkeyed=bool(max_guesses is not None or mode == 1),
            mode=int(mode),
        )
        maps = min(math.factorial(game.pegs), MAX_MAPS) if closed else 1
        return cls.with_state(game, tables, (game.pegs, game.colors, maps), previous=previous)

    @classmethod
    def of_table(cls, replies: np.ndarray, win: int, mode: int) -> Problem:
        """A game given only by its table of replies (no symmetry is assumed)."""
        fb = np.asarray(replies)
        if fb.ndim != 2 or fb.size == 0 or not np.issubdtype(fb.dtype, np.integer):
            raise SearchError("replies must be a non-empty (guesses, secrets) array of reply codes")
        if fb.min() < 0 or fb.max() > 127 or not 0 <= win <= 127:
            raise SearchError("reply codes must be between 0 and 127")
        m, n = fb.shape
        wins = fb == win
        if not (wins.sum(axis=0) == 1).all():
            raise SearchError("each secret must be won by exactly one guess (the reply win)")
        fb = np.ascontiguousarray(fb, dtype=np.int8)
        n_replies = max(int(fb.max()), win) + 1
        branching = branching_of(fb)
        lbtab, captab = bound_tables(n, branching, UNLIMITED, mode)
        tables = Tables(
            fb=fb,
            fbT=transposed(fb, mode),
            cold_rows=False,
            codes=np.zeros((m, 1), dtype=np.uint8),
            gmask=np.zeros(m, dtype=np.int64),
            smask=np.zeros(n, dtype=np.int64),
            as_guess=np.argmax(wins, axis=0).astype(np.int64),
            ids=np.arange(n, dtype=np.int64),
            lbtab=lbtab,
            captab=captab,
            win=int(win),
            n_replies=n_replies,
            nsmall=branching + 1,
            full=0,
            symm=False,
            merge=False,
            dkeyed=mode == 1,
            mode=int(mode),
        )
        return cls.with_state(None, tables, (1, 1, 1))

    @classmethod
    def with_state(cls, game: Game | None, tables: Tables, group: tuple[int, int, int],
                   stats: np.ndarray | None = None, previous: Problem | None = None) -> Problem:
        """A problem of ``tables`` with a fresh cache and state (``group``: pegs,
        colours and the most maps of a symmetry group), or ``previous``'s cache, and
        its state when big enough for ``tables``."""
        m, n = tables.fb.shape
        pegs, colors, maps = group
        old = None if previous is None else previous.levels
        if (old is not None and old.sets.shape[1] >= n and old.cand.shape[1] == m
                and old.group_perm.shape[1:] == (maps, pegs)
                and old.group_tau.shape[2] == colors):
            levels, scratch = old, previous.scratch
            scratch.seen[:] = -1  # (its marks count the previous search's sets)
        else:
            levels, scratch = workspace(n, m, tables.n_replies, UNLIMITED, *group)
        return cls(
            game=game,
            tables=tables,
            cache=Cache() if previous is None else previous.cache,
            stats=np.zeros(4, dtype=np.int64) if stats is None else stats,
            levels=levels,
            scratch=scratch,
        )

    def sibling(self, own_stats: bool = False) -> Problem:
        """The same problem for another thread: the same tables and statistics
        (``own_stats``: its own), its own cache and state."""
        _, maps, pegs = self.levels.group_perm.shape
        group = (pegs, self.levels.group_tau.shape[2], maps)
        return Problem.with_state(self.game, self.tables, group,
                                  None if own_stats else self.stats)

    # -- thin calls of the compiled search
    @property
    def mode(self) -> int:
        """0: least total; 1: whether a strategy within the guesses exists."""
        return self.tables.mode

    @property
    def lbt(self) -> np.ndarray:
        """The lower bounds for the game's most parts (the last row of ``lbtab``)."""
        return self.tables.lbtab[-1]

    @property
    def cap(self) -> np.ndarray:
        """The most secrets ``d`` guesses solve, for the game's most parts."""
        return self.tables.captab[-1]

    def solve(
        self, S: np.ndarray, d: int, limit: int, played: int, force: int = -1,
        sym: Symmetry | None = None,
    ) -> int:
        """:func:`~strategytree.search.compiled.solve`; ``sym`` the symmetry group of
        the history (None: none used)."""
        self._set_group(sym)
        while True:
            cost = compiled_solve(S, d, limit, played, force, self.tables, self.levels,
                                  self.scratch, self.cache.arrays, self.stats)
            if not self.cache.paused:
                return int(cost)
            self.cache.grow()  # it paused for want of room: it goes on where it was

    def _set_group(self, sym: Symmetry | None) -> None:
        """Give ``sym`` to the compiled search as arrays (its first level's group)."""
        gperm, gtau = self.levels.group_perm, self.levels.group_tau
        gk = self.levels.frames.group_size
        if sym is not None and sym is self._group_of:
            gk[0] = self._group_size  # the arrays hold it already
            return
        self._group_of, self._group_size = sym, 0
        gk[0] = 0
        if sym is None or not self.tables.symm or not sym.enabled:
            return
        if sym.maps is None:  # nothing played: every permutation, every renaming
            if math.factorial(self.game.pegs) > gperm.shape[1]:
                return
            pegs = range(self.game.pegs)
            maps = [(np.array(perm), None) for perm in itertools.permutations(pegs)]
        else:
            maps = sym.maps
        if len(maps) > gperm.shape[1]:
            return
        for t, (perm, tau) in enumerate(maps):
            gperm[0, t] = perm
            gtau[0, t] = -1 if tau is None else tau
        gk[0] = self._group_size = len(maps)

    def key_left(self, d: int) -> int:
        """The guesses left as the cache's keys hold them."""
        return d if self.tables.dkeyed else 0

    def key(self, S: np.ndarray, d: int) -> tuple[int, int]:
        """The cache's key of ``S`` with ``d`` guesses left."""
        return cache_key(S, self.key_left(d), self.tables.ids)

    def get(self, S: np.ndarray, d: int) -> tuple[int, int, int] | None:
        """(cost, guess, 2 * size + exact) cached for ``S``, or None."""
        return self.cache.get(*self.key(S, d))

    def put(self, S: np.ndarray, d: int, cost: int, guess: int, exact: bool) -> None:
        """Cache ``cost`` (exact, or a lower bound) and the best guess for ``S``."""
        key1, key2 = self.key(S, d)
        self.cache.put(key1, key2, cost, guess, 2 * len(S) + int(exact))

    def best_entry(self, S: np.ndarray, d: int) -> tuple[int, int, int]:
        """(cost, best guess, flags) of ``S`` from the cache, solving it again
        (exactly, with no symmetry) when the cache has no best guess for it."""
        entry = self.get(S, d)
        if entry is None or not entry[2] & 1 or entry[1] < 0:
            self.solve(S, d, INF, 0)
            entry = self.get(S, d)
        assert entry is not None
        return entry

    def parts(self, S: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """(reply, sorted part) for each reply but the win, highest reply first
        (laid out as the compiled levels do, :func:`~.bounds.lay_out_parts`: part
        after part, each in the order of ``S``; here with numpy, which the Python
        levels' few calls do not notice and which compiles nothing)."""
        t = self.tables
        replies = t.fb[guess][S]
        out = S[np.argsort(replies, kind="stable")]
        sizes = np.bincount(replies, minlength=t.n_replies)
        start = np.cumsum(sizes) - sizes
        return [
            (r, out[start[r] : start[r] + sizes[r]])
            for r in range(t.n_replies - 1, -1, -1)
            if sizes[r] and r != t.win
        ]

    def candidates(self, S: np.ndarray, sym: Symmetry | None) -> np.ndarray:
        """The guesses to score on ``S``: one per class of ``sym`` (every guess
        when None), less those merged with another (colours no secret has)."""
        if sym is None:
            return np.arange(len(self.tables.fb), dtype=np.int64)
        # with numpy (a few ms a group, for the few histories of the Python
        # levels), where the compiled loop would be compiled for them alone
        cands = sym.classes(compiled=False)
        if self.tables.merge:
            t = self.tables
            cands = merge_dead_colours(t.gmask, t.smask, cands, S, self.merged)
        return np.ascontiguousarray(cands, dtype=np.int64)
