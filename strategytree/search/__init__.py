"""Exact search: strategies with the fewest guesses in total, and proven worst cases.

:func:`build_optimal` finds a strategy that minimises the total number of
guesses over all secrets (optionally among those that never need more than
``max_guesses``); :func:`prove_bound` finds the fewest guesses that solve
every secret, with a proof by exhaustion.

Both are depth-first branch and bound over the sets of secrets still possible:

- **lower bound.**  A guess splits a set into at most ``b`` parts besides the
  win (``b + 1`` = the replies the game can give), and solves at most one
  secret itself.  So ``n`` secrets cost at least the sum of depths of the
  first ``n`` nodes of a complete ``b``-ary tree (:func:`lower_bounds`), and
  a guess that splits them into parts of sizes ``k_i`` costs at least
  ``n + sum L(k_i)``.  Candidates are pruned with it, and a node stops as soon
  as a strategy meets its bound.  ``b`` shrinks going down: no guess makes more
  parts of a set than the most any guess makes of the set it came from (one
  scan of every guess tells), and a set costs at least its least guess bound.
- **order.**  Candidates are tried by that bound, then by the expected part
  size (Irving), so the first complete strategy is already good.
- **symmetry.**  One guess per class of :mod:`strategytree.symmetry`
  (permutations of colours and positions that fix the history, times any
  renaming of colours never played), at every depth: the compiled search keeps
  the group as arrays of maps, narrows it after each guess
  (:func:`strategytree.symmetry.stabilizer`, as :class:`~strategytree.symmetry.Symmetry`
  does) and plays a candidate only when it is the first of its class
  (:func:`strategytree.symmetry.least_in_class`).  When every code is a guess, colours no
  remaining secret has are merged.
- **shortcuts.**  One or two secrets; a possible secret that splits the rest
  into singletons is optimal (``2n - 1``).
- **cache.**  Solved sets (exact costs, and lower bounds from failed searches)
  are kept in a hash table keyed by the set; it also rebuilds the tree and is
  what a checkpoint saves.
- **both cores.**  In big games without a checkpoint, the root's parts are
  solved by two threads side by side, each with its own cache
  (merged at the end): :meth:`driver.Search.side_by_side`.
- **many machines.**  Given a Dask client (``client=``,
  :func:`strategytree.cluster.connect`), the levels near the root run in the
  driver and the sets below them as tasks on the Dask cluster:
  :mod:`~strategytree.search.tasks`.

The hot loops are numba kernels over a precomputed feedback table (guess x
secret -> reply code), so any game whose table fits in memory can be searched.
Most of a node's time goes into scoring every guess by the replies it meets; a
transposed copy of the table (secret x guess) lets the kernel do that for all
guesses at once, secret by secret, in a loop the compiler vectorises.
The search runs in a worker thread (the kernels release the GIL) of
:mod:`strategytree.runner`: the caller's thread reports progress, and Ctrl-C
stops the search cleanly, saving a checkpoint first when one was asked for.
The counting bound it prunes with is :mod:`strategytree.counting`'s; the
total lower bound of games too big to solve is :mod:`strategytree.bounds`.

The package, read top to bottom:

- :mod:`~strategytree.search.bounds`: the lower bounds, and the bound of a guess's split;
- :mod:`~strategytree.search.cache`: the solved sets, a hash table in plain arrays;
- :mod:`~strategytree.search.compiled`: the compiled branch and bound, one step a function;
- :mod:`~strategytree.search.problem`: a game as the search's arrays, one per thread;
- :mod:`~strategytree.search.driver`: the Python levels near the root, threads,
  progress, checkpoints, and the public functions;
- :mod:`~strategytree.search.tasks`: the same levels on a Dask cluster, the sets
  below them as tasks (imported only when a client is given; the Dask layer
  is :mod:`strategytree.workers`);
- :mod:`~strategytree.search.subsets`: one set of secrets after a history solved
  exactly (for the node search's ``exact_below``).

>>> from strategytree.game import mastermind
>>> from strategytree.verify import verify
>>> tree = build_optimal(mastermind(2, 3))
>>> verify(tree, mastermind(2, 3)).total
21
>>> prove_bound(mastermind(2, 3))
3
"""

from __future__ import annotations

from ..counting import lower_bounds
from ..progress import Progress
from .driver import build_optimal, prove_bound, prove_bound_table
from .problem import SearchError

__all__ = [
    "SearchError",
    "SearchProgress",
    "build_optimal",
    "lower_bounds",
    "prove_bound",
    "prove_bound_table",
]

#: what a search reports (``unit`` "sets searched", ``best`` the best total so far)
SearchProgress = Progress
