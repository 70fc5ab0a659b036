"""The exact search of one set of secrets after a history, as a subtree.

:class:`Exact` is what :mod:`strategytree.improve` re-solves its small subtrees
with, and what :mod:`strategytree.lookahead` gives its small sets to
(``exact_below``): every allowed guess, the history's symmetry group, the
search's bounds, within a limit on guesses when one is given.
"""

from __future__ import annotations

import threading

import numpy as np

from ..builders import colour_masks
from ..game import Game
from ..runner import Stopped
from ..symmetry import Symmetry

__all__ = ["WHOLE_TABLE", "Exact"]

#: from this many table entries (guesses x secrets), each exact solve builds the
#: tables of its own set instead of the whole game's
WHOLE_TABLE = 60_000_000
#: the searches of sets on their own share one cache until it holds this many rows
#: (then a new one): under 1 GiB
SHARED_ROWS = 1 << 23


class Exact:
    """The exact search of sets of secrets after a history, as subtrees.

    A game whose feedback table is small (at most :data:`WHOLE_TABLE` entries),
    or whose table the caller has (``replies``: as (guesses, secrets) and
    (secrets, guesses), as :class:`~strategytree.bounds.sets.SetBounder` has
    MM(5,8)'s), gets one search of the whole game, each set searched from it
    with the history's symmetry group, all sharing its cache (a set met again,
    after the same guesses in another order most often, is not searched again).
    A larger game without its table gets a search of each set on its own
    (every guess against that set's secrets, its table worked out); those
    searches share one cache and state (:attr:`last`), each set in the cache
    keyed by its secrets' indices in the whole game.  Given MM(5,8)'s table, the
    exact searches of AABCD's part of 429 secrets at depth 3 take 0.77x the CPU
    they took each on its own table, gathered from the whole one: gathering and
    transposing the tables had cost more than the larger table's reads
    (``benchmarks/README.md``)."""

    def __init__(self, game: Game, max_guesses: int | None, stop: threading.Event,
                 replies: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        from .bounds import UNLIMITED
        from .problem import Problem

        self.game = game
        self.max_guesses = max_guesses
        self.unlimited = UNLIMITED
        self.stop = stop
        self.current = None  # the problem being searched (to stop it)
        self.usable = bool((game.guess_index(game.secrets) >= 0).all())
        self.masks = colour_masks(game.guesses)
        self.whole = None
        self.last = None
        """the last search of a set on its own: the next takes over its cache and state"""
        if self.usable and (replies is not None
                            or len(game.secrets) * len(game.guesses) <= WHOLE_TABLE):
            self.whole = self.search_of(Problem.of(game, max_guesses, replies=replies))

    def halt(self) -> None:
        """Stop the search under way, if any (it raises :class:`~strategytree.runner.Stopped`)."""
        from .compiled import STOP

        current = self.current
        if current is not None:
            current.stats[STOP] = 1

    @staticmethod
    def search_of(problem):
        """A :class:`~strategytree.search.driver.Search` of ``problem``, searched
        by the compiled levels from its root on, with the history's symmetry
        group: below a history little symmetry is left for Python's levels to
        use, and the compiled ones score a hundred times faster than numpy's
        (0.8 s, not 75 s, for a set of 173 secrets after three guesses of
        MM(5,8)). A root in Python as well cost twice the CPU on the many
        small sets of a total bound (``benchmarks/exact_sets.py``)."""
        from .driver import Search

        search = Search(problem)
        search.py_levels = 0
        return search

    def problem_of(self, S: np.ndarray, sym: Symmetry):
        """The search of the secrets ``S`` alone (every guess allowed), with the game's symmetry."""
        from .problem import Problem

        sub = self.game.part(S, f"{self.game.name} part")
        if self.last is not None and len(self.last.cache) > SHARED_ROWS:
            self.last = None
        self.last = Problem.of(sub, self.max_guesses, sym.enabled, whole=self.game, ids=S,
                               previous=self.last)
        return self.last

    def solve(self, S: np.ndarray, level: int, sym: Symmetry, played: int, limit: int):
        """``(total, node)`` of an optimal subtree for ``S`` after ``level`` guesses,
        when its total is below ``limit``; else None."""
        searched = self.searched(S, level, sym, played, limit)
        if searched is None or searched[0] >= limit:
            return None
        cost, search, rows, d = searched
        return cost, search.tree(rows, d)

    def cost(self, S: np.ndarray, level: int, sym: Symmetry, played: int, limit: int
             ) -> int | None:
        """The least total of ``S`` after ``level`` guesses when below ``limit``, else a
        lower bound of at least ``limit`` (no tree built); None when the exact search
        cannot be used (a secret is no guess, no guess left)."""
        searched = self.searched(S, level, sym, played, limit)
        return None if searched is None else searched[0]

    def searched(self, S: np.ndarray, level: int, sym: Symmetry, played: int, limit: int):
        """``(cost, search, rows, guesses left)`` of the exact search of ``S`` (the
        cost exact when below ``limit``), or None when it cannot be used."""
        from .compiled import STOP

        if not self.usable:
            return None
        d = self.unlimited if self.max_guesses is None else self.max_guesses - level
        if d < 1:
            return None
        if self.whole is not None:
            search, rows = self.whole, np.ascontiguousarray(S, dtype=np.int32)
            if len(search.p.cache) > SHARED_ROWS:
                from .cache import Cache

                search.p.cache = Cache()
        else:
            search, rows = (self.search_of(self.problem_of(S, sym)),
                            np.arange(len(S), dtype=np.int32))
        p = search.p
        self.current = p
        p.stats[STOP] = 0
        if self.stop.is_set():  # (after the reset: a halt from now on is seen)
            self.current = None
            raise Stopped
        try:
            return search.node(rows, d, limit, sym, played, 0), search, rows, d
        finally:
            self.current = None
