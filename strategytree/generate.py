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
from .errors import ArgumentError, check_whole
from .game import Game, check_memory
from .literature import searched_gap
from .lookahead import build_lookahead
from .nodesearch import COMPLETE_ABOVE
from .progress import QUIET, ProgressCallback, Watch
from .runner import Interrupted, stops_held
from .tree import Strategy

if TYPE_CHECKING:
    from .outcome import CommandOutcome
    from .verify import Report

__all__ = ["DEFAULTS", "METHODS", "TAKES", "Built", "check_method", "generate", "generate_file",
           "generate_outcome", "stopped_text", "symmetry_cost"]

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
    if seed is not None:
        check_whole(seed, 0, seed=seed)
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
    check_memory(game, "build")  # before the tables of its secrets are made
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
        game, rule=rule, pool=DEFAULTS["pool"] if pool is None else pool, seed=seed or 0,
        first=first,
        symmetry=symmetry, progress=progress,
    )


def _kept(stopped: Interrupted, game: Game, output: str | os.PathLike[str],
          indent: int | None, force: bool, checkpoint: object) -> Interrupted:
    """What a stopped run leaves (:func:`generate_file`): the best strategy so far
    written to ``output``, unless a checkpoint keeps the work; the verifier's report on it."""
    from .formats.writing import write
    from .verify import verify

    best = stopped.result
    if checkpoint is not None or not isinstance(best, Strategy):
        return Interrupted(None)
    write(best, output, indent=indent, force=force, game=game)
    report = verify(best, game)
    report.source = str(output)
    return Interrupted(report)


class Built(NamedTuple):
    """What :func:`generate_file` made."""

    strategy: Strategy
    """the strategy built"""
    report: Report
    """the verifier's report on it (its source the file written)"""
    seconds: float
    """the time the build took (writing and verifying not counted)"""

    def to_dict(self) -> dict[str, Any]:
        """The ``generate --json`` shape: the ``verify`` object of the file
        written (:meth:`~strategytree.verify.Report.to_dict`, its ``source`` the
        output) and ``seconds``, the build time."""
        return {**self.report.to_dict(), "seconds": round(self.seconds, 3)}


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
    only with ``force``; ``indent``: nested guesses indented; a ``.json`` output is
    a JSON tree that records the game, anything else the brace grammar) and verified
    (the optimal method's report measures its gap from the optimum it proved,
    :func:`~strategytree.literature.searched_gap`).

    Stopped (Ctrl-C), the optimal method without a ``checkpoint`` writes the best
    whole strategy it had to ``output`` (as ``improve`` does: the greedy one a big
    search starts from, or a better one it found) and raises
    :class:`~strategytree.runner.Interrupted` whose ``result`` is the verifier's
    report on it (None when there was none, or with a checkpoint, which keeps the
    work: a later run resumes it, and writes the optimum)."""
    from .formats.writing import write
    from .verify import verify

    started = time.perf_counter()
    try:
        strategy = generate(game, method, **settings)
    except Interrupted as stopped:
        with stops_held(stopping=True):  # the best so far is written whole
            kept = _kept(stopped, game, output, indent, force, settings.get("checkpoint"))
        raise kept from None
    seconds = time.perf_counter() - started
    with stops_held():  # built: a stop now waits for the file
        write(strategy, output, indent=indent, force=force, game=game)
    report = verify(strategy, game)
    report.source = str(output)
    if method == "optimal" and report.valid:  # the search proved it: the gap is exact
        report.gap = searched_gap(game, report.total, settings.get("max_guesses"))
    return Built(strategy, report, seconds)


def stopped_text(kept: Report | None, output: object, checkpoint: object = None) -> str:
    """What ``strategytree generate`` says of its output when stopped (``kept``:
    the report on what :func:`generate_file` wrote there, or None)."""
    from .files import to_stdout

    if to_stdout(output):  # type: ignore[arg-type]
        output = "the standard output"
    if kept is not None:
        return (f"the best strategy so far ({kept.total:,} guesses in total, max "
                f"{kept.max_guesses}; not proven optimal) is written to {output}")
    if checkpoint is not None:
        return (f"{output} is not written: run the same command again (same --checkpoint) to "
                "resume the search")
    return f"nothing is written to {output}: the search had no whole strategy yet"


def generate_outcome(
    output: str | os.PathLike[str], method: str = "greedy", *,
    game_options: dict[str, Any] | None = None, first: str | None = None, symmetry: bool = True,
    max_guesses: int | None = None, checkpoint: str | os.PathLike[str] | None = None,
    indent: int | None = None, force: bool = False, as_json: bool = False,
    workers: int | str | None = None, scheduler: str | None = None, watch: Watch = QUIET,
    **settings: Any,
) -> CommandOutcome:
    """What ``strategytree generate`` does: its arguments checked (:func:`check_method`,
    ``settings`` the rest of :func:`generate`'s; the output), the game of
    ``game_options`` (:func:`~strategytree.presets.resolve_game`'s keywords) warmed up,
    then :func:`generate_file` (on the cluster of ``workers`` or ``scheduler``,
    told on ``watch``); the report on the file written and how long the build took,
    or its JSON (:meth:`Built.to_dict`), the report on stderr when the strategy went
    to the standard output.  Stopped (Ctrl-C), what the output holds
    (:func:`stopped_text`) and the stop (:func:`~strategytree.runner.stopped_outcome`)."""
    from rich.markup import escape

    from .files import check_json_output, check_outputs, to_stdout
    from .presets import resolve_game
    from .runner import stopped_outcome
    from .spelling import guess_index
    from .verify import report_outcome

    check_method(method, **settings, first=first, max_guesses=max_guesses,
                 checkpoint=checkpoint, client=workers or scheduler)
    check_outputs([output], force=force, checkpoint=checkpoint, stdout=True)
    check_json_output(as_json, output)
    settings.update(symmetry=symmetry, max_guesses=max_guesses)
    game = resolve_game(**(game_options or {}))[0]
    if first is not None:
        guess_index(game, first)
    watch.warm(game, lambda small: generate(small, method, **settings))
    watch.warn(symmetry_cost(game, method, symmetry))
    verb = "building" if method == "greedy" else "searching"
    with watch.running(verb, game, workers, scheduler, cluster=method != "greedy") as (
            client, progress):
        try:
            built = generate_file(game, output, method, indent=indent, force=force, **settings,
                                  first=first, checkpoint=checkpoint, progress=progress,
                                  client=client)
        except Interrupted as stopped:
            return stopped_outcome(stopped_text(stopped.result, output, checkpoint),
                                   checkpoint=checkpoint)
    where = "the standard output" if to_stdout(output) else escape(str(output))
    return report_outcome(built.report, f"built in {built.seconds:.2f} s, written to {where}",
                          built.to_dict() if as_json else None, aside=to_stdout(output))


#: from this many secrets, ``symmetry_cost`` warns of an exact search without symmetry
NO_SYMMETRY_WARN = 500


def symmetry_cost(game: Game, method: str, symmetry: bool) -> str | None:
    """A warning for an exact search without symmetry (``symmetry`` False) on a game
    where it costs much: the first guesses it tries against the classes symmetry
    would leave (the least of the slowdown: it compounds at every level below);
    None when there is nothing to fear (another method, a small game, no gain).

    >>> from strategytree.game import mastermind
    >>> print(symmetry_cost(mastermind(4, 6), "optimal", False))  # doctest: +NORMALIZE_WHITESPACE
    without symmetry the exact search tries 1,296 first guesses where symmetry leaves 5
    (259 times as many, and the gap grows at every level below): expect a run far longer,
    for the same total (Ctrl-C keeps the best strategy found)
    >>> symmetry_cost(mastermind(3, 3), "optimal", False) is None
    True
    """
    if method != "optimal" or symmetry or len(game.secrets) < NO_SYMMETRY_WARN:
        return None
    from .symmetry import Symmetry

    every = len(game.guesses)
    classes = len(Symmetry.of(game).classes())
    if every < 10 * classes:
        return None
    return (f"without symmetry the exact search tries {every:,} first guesses where symmetry "
            f"leaves {classes:,} ({every // classes:,} times as many, and the gap grows at "
            "every level below): expect a run far longer, for the same total (Ctrl-C keeps "
            "the best strategy found)")
