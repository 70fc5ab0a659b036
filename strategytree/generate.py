"""Building a strategy by one of three methods, with the arguments each takes.

==========  ================================================  ==========================
method      what it builds                                    its own arguments
==========  ================================================  ==========================
greedy      a one-step rule at every node (:mod:`.builders`)  ``pool``, ``seed``, ``first``
lookahead   the rule's best guesses searched level by level   ``widths``, ``also``,
            (:mod:`.lookahead`)                               ``checkpoint``
optimal     the exact search (:mod:`.search`)                 ``max_guesses``, ``checkpoint``
==========  ================================================  ==========================

``first``, ``max_guesses`` and ``checkpoint`` given to a method that does not
take them are refused with :class:`~strategytree.errors.ArgumentError`
(rather than ignored), so that a run never silently means something else than
what was asked; ``widths`` and ``also`` have defaults, and only the lookahead
reads them.

>>> from strategytree.game import mastermind
>>> generate(mastermind(2, 3), "greedy", rule="minimax").root.guess
'AA'
>>> generate(mastermind(2, 3), "greedy", max_guesses=3)
Traceback (most recent call last):
...
strategytree.errors.ArgumentError: max_guesses=3 needs method='optimal'
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .builders import build_greedy
from .errors import ArgumentError
from .game import Game
from .lookahead import build_lookahead
from .progress import ProgressCallback
from .tree import Strategy

__all__ = ["METHODS", "check_method", "generate"]

#: the methods of :func:`generate`
METHODS = ("greedy", "lookahead", "optimal")


def check_method(
    method: str,
    *,
    first: str | None = None,
    max_guesses: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    client: object | None = None,
) -> None:
    """Raise :class:`~strategytree.errors.ArgumentError` unless ``method`` is one
    of :data:`METHODS` and takes each of the arguments given (not None)."""
    if method not in METHODS:
        raise ArgumentError(f"unknown method {method!r}; choose greedy, lookahead or optimal")
    if method != "optimal" and max_guesses is not None:
        raise ArgumentError("{max_guesses} needs {method}", max_guesses=max_guesses, method="optimal")
    if method == "greedy" and checkpoint is not None:
        raise ArgumentError(
            "{checkpoint} is for the lookahead and optimal methods, not {method}",
            checkpoint=checkpoint, method=method,
        )
    if method != "optimal" and client is not None:
        raise ArgumentError("{client} is for {method}", client=client, method="optimal")
    if method != "greedy" and first is not None:
        raise ArgumentError("{first} is for {method}", first=first, method="greedy")


def generate(
    game: Game,
    method: str = "greedy",
    *,
    rule: str = "entropy",
    pool: str = "all",
    seed: int = 0,
    first: str | None = None,
    symmetry: bool = True,
    widths: Sequence[int] | str = (8, 4),
    also: Sequence[str] | str = (),
    max_guesses: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    client: object | None = None,
) -> Strategy:
    """A strategy for ``game`` built by ``method`` (see the module doc); the
    arguments are those of :func:`~strategytree.builders.build_greedy`,
    :func:`~strategytree.lookahead.build_lookahead` (``widths`` and ``also``
    may be written as text, ``8,8,4`` and ``parts,expected``) and
    :func:`~strategytree.search.build_optimal`.  Ctrl-C raises
    KeyboardInterrupt; a lookahead or optimal run keeps its work in
    ``checkpoint`` first.  ``client`` (a ``distributed.Client``): the optimal
    search runs on its Dask cluster.
    """
    check_method(method, first=first, max_guesses=max_guesses, checkpoint=checkpoint,
                 client=client)
    if method == "lookahead":
        return build_lookahead(
            game, rule, widths, symmetry=symmetry, checkpoint=checkpoint, also=also,
            progress=progress,
        )
    if method == "optimal":
        from . import search  # numba compiles its kernels: imported only when used

        return search.build_optimal(
            game, max_guesses=max_guesses, checkpoint=checkpoint, symmetry=symmetry,
            progress=progress, client=client,
        )
    return build_greedy(
        game, rule=rule, pool=pool, seed=seed, first=first, symmetry=symmetry, progress=progress
    )
