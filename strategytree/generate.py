"""Building a strategy by one of three methods, with the arguments each takes.

==========  ================================================  =================================
method      what it builds                                    the arguments it takes
==========  ================================================  =================================
greedy      a one-step rule at every node (:mod:`.builders`)  ``rule``, ``pool``, ``seed``,
                                                              ``first``
lookahead   the rule's best guesses searched level by level   ``rule``, ``widths``, ``also``,
            (:mod:`.lookahead`)                               ``complete``,
                                                              ``complete_above``,
                                                              ``finalists``, ``exact_below``,
                                                              ``max_guesses``,
                                                              ``checkpoint``, ``client``
optimal     the exact search (:mod:`.search`)                 ``max_guesses``, ``checkpoint``,
                                                              ``client``
==========  ================================================  =================================

An argument given to a method that does not take it is refused with
:class:`~strategytree.errors.ArgumentError` (rather than ignored), so that a
run never silently means something else than what was asked; so is a
``seed`` where nothing is drawn at random (a rule other than ``random`` with
a pool other than ``sample:N``).  ``rule`` is the greedy and lookahead
methods' (default ``entropy``); ``symmetry`` is every method's.  Left as None,
an argument takes its method's default (:data:`DEFAULTS`).

>>> from strategytree.game import mastermind
>>> generate(mastermind(2, 3), "greedy", rule="minimax").root.guess
'AA'
>>> generate(mastermind(2, 3), "greedy", max_guesses=3)  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
strategytree.errors.ArgumentError: max_guesses=3 has no effect with method='greedy'
(it is for the lookahead and optimal methods)
>>> generate(mastermind(2, 3), "optimal", pool="consistent")
Traceback (most recent call last):
...
strategytree.errors.ArgumentError: pool='consistent' needs method='greedy'
>>> generate(mastermind(2, 3), "optimal", rule="minimax")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
strategytree.errors.ArgumentError: rule='minimax' has no effect with method='optimal'
(it is for the greedy and lookahead methods)
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .builders import build_greedy, draws_at_random
from .errors import ArgumentError
from .game import Game
from .literature import searched_gap
from .lookahead import build_lookahead
from .nodesearch import COMPLETE_ABOVE
from .progress import ProgressCallback
from .tree import Strategy

if TYPE_CHECKING:
    from .verify import Report

__all__ = ["DEFAULTS", "METHODS", "TAKES", "Built", "check_method", "generate", "generate_file"]

#: the methods of :func:`generate`
METHODS = ("greedy", "lookahead", "optimal")


#: the arguments each method takes (besides the game and ``symmetry``)
TAKES = {
    "greedy": ("rule", "pool", "seed", "first"),
    "lookahead": ("rule", "widths", "also", "complete", "complete_above", "finalists",
                  "exact_below", "max_guesses", "checkpoint", "client"),
    "optimal": ("max_guesses", "checkpoint", "client"),
}

#: what an argument left as None means
DEFAULTS = {"rule": "entropy", "pool": "all", "seed": 0, "widths": (8, 4), "also": ()}


def check_method(
    method: str,
    *,
    rule: str | None = None,
    pool: str | None = None,
    seed: int | None = None,
    first: str | None = None,
    widths: Sequence[int] | str | None = None,
    also: Sequence[str] | str | None = None,
    complete: Sequence[int] | str | None = None,
    complete_above: int | None = None,
    finalists: Sequence[int] | str | None = None,
    exact_below: int | None = None,
    max_guesses: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    client: object | None = None,
) -> None:
    """Raise :class:`~strategytree.errors.ArgumentError` unless ``method`` is one
    of :data:`METHODS` and each of the arguments given (not None) has an effect
    in it (:data:`TAKES`; a ``seed`` only where something is drawn at random)."""
    if method not in METHODS:
        raise ArgumentError(f"unknown method {method!r}; choose greedy, lookahead or optimal")
    given = {
        "rule": rule, "pool": pool, "seed": seed, "first": first, "widths": widths,
        "also": also, "complete": complete, "complete_above": complete_above,
        "finalists": finalists, "exact_below": exact_below, "max_guesses": max_guesses,
        "checkpoint": checkpoint, "client": client,
    }
    for name, value in given.items():
        if value is not None and name not in TAKES[method]:
            takers = [m for m in METHODS if name in TAKES[m]]
            if len(takers) == 1:
                raise ArgumentError(f"{{{name}}} needs {{method}}", **{name: value},
                                    method=takers[0])
            raise ArgumentError(
                f"{{{name}}} has no effect with {{method}} (it is for the {' and '.join(takers)} "
                "methods)", **{name: value}, method=method,
            )
    if complete_above is not None and not complete:
        raise ArgumentError("{complete_above} has no effect without {complete}",
                            complete_above=complete_above, complete=True)
    if seed is not None and not draws_at_random(rule or DEFAULTS["rule"], pool or DEFAULTS["pool"]):
        raise ArgumentError(
            "{seed} has no effect: nothing is drawn at random (the random rule, "
            "a sample:N pool)", seed=seed,
        )


def generate(
    game: Game,
    method: str = "greedy",
    *,
    rule: str | None = None,
    pool: str | None = None,
    seed: int | None = None,
    first: str | None = None,
    symmetry: bool = True,
    widths: Sequence[int] | str | None = None,
    also: Sequence[str] | str | None = None,
    complete: Sequence[int] | str | None = None,
    complete_above: int | None = None,
    finalists: Sequence[int] | str | None = None,
    exact_below: int | None = None,
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
    ``checkpoint`` first.  ``client`` (a ``distributed.Client``): the lookahead
    or optimal search runs on its Dask cluster.
    """
    check_method(
        method, rule=rule, pool=pool, seed=seed, first=first, widths=widths, also=also,
        complete=complete, complete_above=complete_above, finalists=finalists,
        exact_below=exact_below, max_guesses=max_guesses, checkpoint=checkpoint, client=client,
    )
    rule = rule or DEFAULTS["rule"]
    if method == "lookahead":
        return build_lookahead(
            game, rule, DEFAULTS["widths"] if widths is None else widths, symmetry=symmetry,
            checkpoint=checkpoint, also=DEFAULTS["also"] if also is None else also,
            progress=progress, client=client, complete=complete or (),
            complete_above=COMPLETE_ABOVE if complete_above is None else complete_above,
            finalists=finalists or (), exact_below=exact_below or 0, max_guesses=max_guesses,
        )
    if method == "optimal":
        from . import search  # numba compiles its kernels: imported only when used

        return search.build_optimal(
            game, max_guesses=max_guesses, checkpoint=checkpoint, symmetry=symmetry,
            progress=progress, client=client,
        )
    return build_greedy(
        game, rule=rule, pool=pool or DEFAULTS["pool"], seed=seed or 0, first=first,
        symmetry=symmetry, progress=progress,
    )


class Built(NamedTuple):
    """What :func:`generate_file` made."""

    strategy: Strategy
    """the strategy built"""
    report: Report
    """the verifier's report on it (its source the file written)"""
    seconds: float
    """the time the build took (writing and verifying not counted)"""


def generate_file(
    game: Game,
    output: str | os.PathLike[str],
    method: str = "greedy",
    *,
    indent: int | None = None,
    force: bool = False,
    **settings: Any,
) -> Built:
    """What ``strategytree generate`` does: :func:`generate` (``settings`` are its
    keyword arguments), timed, written to ``output`` atomically (an existing file
    only with ``force``; ``indent``: nested guesses indented) and verified (the
    optimal method's report measures its gap from the optimum it proved,
    :func:`~strategytree.literature.searched_gap`)."""
    from .formats.brace import dump
    from .verify import verify

    started = time.perf_counter()
    strategy = generate(game, method, **settings)
    seconds = time.perf_counter() - started
    dump(strategy, output, indent=indent, force=force)
    report = verify(strategy, game)
    report.source = str(output)
    if method == "optimal" and report.valid:  # the search proved it: the gap is exact
        report.gap = searched_gap(game, report.total, settings.get("max_guesses"))
    return Built(strategy, report, seconds)
