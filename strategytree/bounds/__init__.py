"""Bounds: proven lower bounds on the least total any strategy can reach.

- the counting bound (a guess wins one secret and splits the rest into at
  most ``b`` parts), the one bound every other starts from, is
  :mod:`strategytree.counting`'s, below this package: the exact search
  (:mod:`strategytree.search`) and the published figures prune and compare with it too;
- :mod:`~strategytree.bounds.total`: ``bound --total``, the bound of a whole
  game at any depth (:func:`~strategytree.bounds.total.total_lower_bound`), and
  of one set (:func:`~strategytree.bounds.total.set_lower_bound`);
- :mod:`~strategytree.bounds.sets`: a set's bound at any depth;
- :mod:`~strategytree.bounds.root`: the root, its first guesses bounded deeper
  and deeper;
- :mod:`~strategytree.bounds.tasks`: that root on a Dask cluster;
- :mod:`~strategytree.bounds.max_guesses`: ``bound``, the fewest guesses that
  solve every secret (the exact search's proof, reported).

The total bound's names below are imported on first use (it compiles kernels).

>>> from strategytree.bounds import counting_bound
>>> from strategytree.game import mastermind
>>> counting_bound(mastermind(4, 6))
4986
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from ..counting import counting_bound

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["TotalBound", "bound_json", "counting_bound", "set_lower_bound", "total_lower_bound"]

_HOMES = {"TotalBound": "total", "set_lower_bound": "total", "total_lower_bound": "total"}


def bound_json(game: Game, measure: str, bound: int, *, optimum: int | None, method: str,
               complete: bool, seconds: float | None, **more: object) -> dict[str, object]:
    """The ``--json`` shape of a proven bound, the fields ``bound`` and ``bound
    --total`` share: ``game`` (its name), ``pegs``, ``colors``, ``measure``
    (``max_guesses`` or ``total``: what is bounded), ``bound`` (no strategy does
    better), ``optimum`` (the least there is, when proved or published, else
    None), ``exact`` (the bound is the optimum), ``method``, ``complete`` (False
    when stopped early: the bound still holds) and ``seconds`` (to the
    millisecond); then ``more``.

    >>> from strategytree.game import mastermind
    >>> bound_json(mastermind(2, 3), "total", 19, optimum=21, method="counting",
    ...            complete=True, seconds=0.5)["exact"]
    False
    """
    return {"game": game.name, "pegs": game.pegs, "colors": game.colors,
            "measure": measure, "bound": bound, "optimum": optimum, "exact": bound == optimum,
            "method": method, "complete": complete,
            "seconds": None if seconds is None else round(seconds, 3), **more}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{home}", __name__), name)
