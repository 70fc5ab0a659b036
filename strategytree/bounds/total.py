"""A proven lower bound on the least total any strategy can reach, for games too big to solve.

Three ways, loosest first (``depth`` 0, 1, 2 ...):

- **counting** (depth 0): a guess splits a set into at most ``b`` parts besides
  the win, so ``n`` secrets cost at least ``L(n)``, the sum of depths of the first
  ``n`` nodes of a complete ``b``-ary tree (:func:`~strategytree.counting.lower_bounds`);
- **one level** (depth 1): the least, over the first guesses (one per class of
  :mod:`strategytree.symmetry`), of ``n + sum L(k)`` over the parts it makes
  (:func:`~strategytree.search.bounds.split_bound`);
- **deeper** (depth ``d``): the least over the guesses of ``n + sum`` of each part's
  bound at depth ``d - 1``.

Every number here is a lower bound on the cost of its set (the least total of
a strategy for it), so bounds of any depth may be mixed: a set's best bound so
far is kept (keyed by the set) and used wherever the set comes back.

A node at depth ``d >= 2`` is a best-first branch and bound over its guesses:
each guess starts at its one-level bound, and the guess with the least bound is
refined, part after part (smallest first: the cheapest gains), until its bound
passes the next one's;
a guess whose every part is bounded at depth ``d - 1`` while it is still the
least gives the node's bound.  Refining only raises bounds, so the least bound
over the guesses is a valid bound of the set at every moment: a run stopped
(Ctrl-C, a time limit) still has one.  The root deepens one level at a time.

The bound in parts: a set's bound at any depth in
:mod:`~strategytree.bounds.sets`, the root (the first guesses, deeper and
deeper) in :mod:`~strategytree.bounds.root`, the root's runs as tasks on a
Dask cluster in :mod:`~strategytree.bounds.tasks`, the counting bound in
:mod:`~strategytree.counting`; here the public functions and the run's
checkpoint (the run itself, its thread, progress, time limit and Ctrl-C, is
:mod:`strategytree.runner`'s).

>>> from strategytree.game import mastermind
>>> [total_lower_bound(mastermind(3, 3), depth=d).bound for d in (0, 1, 2)]
[71, 72, 73]
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, NamedTuple

import numpy as np

from ..counting import counting_bound, parts_by_replies
from ..errors import ArgumentError, check_whole, refuse_inert
from ..game import Game
from ..outcome import CommandOutcome
from ..progress import QUIET, ProgressCallback, Reporter, Watch
from ..runner import PROGRESS_EVERY, Interrupted, run_in_thread
from ..search.bounds import INF
from ..symmetry import Symmetry
from ..words import plural
from .root import Level, RootBound, RootGuesses, RootInProcess
from .sets import NO_EXACT, ExactSets, Learned, SetBounder

__all__ = ["SetBounder", "TotalBound", "set_lower_bound", "total_answer", "total_lower_bound",
           "total_outcome"]

#: what the progress of a bound counts
UNIT = "sets bounded"
#: the deepest bound asked for (far deeper than any run can finish)
MAX_DEPTH = 12
#: method names, by depth
METHODS = {0: "counting", 1: "one level"}


class TotalBound(NamedTuple):
    """A proven lower bound on the least total of any strategy for a game."""

    game: str
    """the game's name, e.g. ``MM(5,8)``"""
    bound: int
    """no strategy solves every secret in fewer guesses in total"""
    depth: int
    """the levels of guesses whose splits were worked out exactly (0: counting)"""
    method: str
    """``counting``, ``one level`` or ``N levels``"""
    seconds: float
    """how long it took"""
    complete: bool
    """False when the run was stopped before ``depth`` was reached (the bound holds)"""
    sets: int = 0
    """sets of secrets bounded (a count the machine's load does not change)"""
    levels: tuple[Level, ...] = ()
    """each depth from 2 done in this run: the bound, sets, seconds and CPU then"""

    def as_dict(self) -> dict:
        """The bound as a small JSON-ready dict."""
        return {**self._asdict(), "levels": [level._asdict() for level in self.levels]}


def method_name(depth: int) -> str:
    """``counting``, ``one level``, ``2 levels``, ..."""
    return METHODS.get(depth, f"{depth} levels")


def set_lower_bound(game: Game, secrets: np.ndarray, depth: int, *,
                    played: list[np.ndarray] | None = None, symmetry: bool = True,
                    exact_below: int = 0) -> int:
    """A lower bound on the least total of a strategy for the secrets ``secrets``
    (indices into ``game.secrets``), at ``depth``: a function of the set alone,
    for farming the parts of a big game out.  ``played``: the guesses (rows of
    colours) that led to the set, whose symmetry group is used.  ``exact_below``:
    sets of at most this many secrets asked at depth 2 or more are bounded by
    their exact optimum (:class:`~strategytree.bounds.sets.SetBounder`).

    >>> from strategytree.game import mastermind
    >>> set_lower_bound(mastermind(3, 3), np.arange(27), 2)
    73
    """
    S = np.unique(np.asarray(secrets, dtype=np.int32))
    sym = Symmetry.of(game, symmetry)
    for guess in played or []:
        sym = sym.after(guess)
    bounder = SetBounder(game, symmetry, exact=ExactSets(check_exact_below(exact_below)))
    return bounder.bound(S, check_depth(depth), INF, sym)[0]


def check_depth(depth: object) -> int:
    """``depth`` as a whole number 0..MAX_DEPTH (else :class:`ArgumentError`)."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or not (
        0 <= depth <= MAX_DEPTH
    ):
        raise ArgumentError(f"{{depth}} must be a whole number from 0 to {MAX_DEPTH}", depth=depth)
    return int(depth)


def check_exact_below(exact_below: object) -> int:
    """``exact_below`` as a whole number of at least 0 (else :class:`ArgumentError`)."""
    check_whole(exact_below, 0, exact_below=exact_below)
    return int(exact_below)


def total_lower_bound(
    game: Game,
    depth: int = 3,
    *,
    progress: ProgressCallback | None = None,
    seconds: float | None = None,
    symmetry: bool = True,
    every: float = PROGRESS_EVERY,
    checkpoint: str | os.PathLike[str] | None = None,
    client: object | None = None,
    exact_below: int = 0,
    exact_parts: int = 0,
) -> TotalBound:
    """A proven lower bound on the least total number of guesses any strategy for
    ``game`` needs over all secrets, at ``depth`` (0 counting, 1 one level, ...).

    The root deepens one level at a time
    (:class:`~strategytree.bounds.root.RootBound`), run by
    :func:`~strategytree.runner.run_in_thread`; ``progress`` is called every
    ``every`` seconds with a :class:`~strategytree.progress.Progress` (sets
    bounded, the bound so far in ``detail``).  After ``seconds`` (counted from the
    call: building the game's reply table, seconds for a big game, is part of
    them) the run stops with the bound proved so far (``complete`` False).  Ctrl-C raises
    :class:`~strategytree.runner.Interrupted`, a KeyboardInterrupt whose
    ``result`` is that bound.  ``checkpoint``: a file that keeps the bound of
    every part of a first guess as it is proved, and from which a later run (of
    any depth, in-process or on a cluster) starts.  ``client`` (a Dask client,
    :func:`strategytree.cluster.connect`): the parts of the first guesses are
    bounded by tasks on its workers (:class:`~strategytree.bounds.tasks.RootOnCluster`).
    ``exact_below``: sets of at most this many secrets asked at depth 2 or more are
    bounded by their exact optimum, the exact search's (a sharper bound; at depth
    1 and below nothing changes); ``exact_parts``: the same for the parts after
    the first guess alone (the sets below them as ``exact_below`` says).

    >>> from strategytree.game import mastermind
    >>> total_lower_bound(mastermind(4, 6), depth=1).bound
    5196
    """
    depth = check_depth(depth)
    check_whole(exact_parts, 0, exact_parts=exact_parts)
    exact = ExactSets(check_exact_below(exact_below), int(exact_parts))
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
        raise ArgumentError("{seconds} must be a number of seconds above 0", seconds=seconds)
    started, cpu = time.perf_counter(), time.process_time()
    if depth <= 1:
        bound = (counting_bound(game, parts_by_replies(game)) if depth == 0
                 else one_level(game, symmetry))
        return TotalBound(game.name, int(bound), depth, method_name(depth),
                          round(time.perf_counter() - started, 3), True)
    root = root_bound(game, symmetry, client, exact)
    root.clock = (started, cpu)  # (the levels' times count from the call)
    saved = PartsKept(checkpoint, game, symmetry) if checkpoint is not None else None
    if saved is not None:
        saved.restore(root)
        root.noted = saved.note
    reached = [1]

    def answer(complete: bool) -> TotalBound:
        return TotalBound(game.name, int(root.root), reached[0], method_name(reached[0]),
                          round(time.perf_counter() - started, 3), complete, root.sets,
                          tuple(root.record))

    report = Reporter(progress, UNIT, lambda: (root.sets, None, root.words(reached[0], depth)),
                      started=started)
    if seconds is not None:  # the time spent so far counts (the reply table is built
        seconds = max(0.001, seconds - (time.perf_counter() - started))  # in the run's own)
    ended = run_in_thread(lambda: root.deepen(depth, reached), "strategytree-bound", root.stop,
                          report=report, save=saved.save if saved is not None else None,
                          seconds=seconds, every=every)
    if ended.interrupted:
        stopped = answer(False)
        raise Interrupted(stopped, f"stopped: {stopped.game} total >= {stopped.bound}")
    if ended.error is not None:
        raise ended.error
    return answer(reached[0] == depth)


def root_bound(game: Game, symmetry: bool, client: object | None,
               exact: ExactSets = NO_EXACT) -> RootBound:
    """The root of the bound: in this process, or on the cluster of ``client``."""
    guesses = RootGuesses(game, symmetry)
    if client is None:
        return RootInProcess(game, symmetry, guesses, exact)
    from .tasks import RootOnCluster  # the Dask layer: imported only when used

    return RootOnCluster(client, game, symmetry, guesses, exact)


def one_level(game: Game, symmetry: bool = True) -> int:
    """The one-level bound without the whole reply table: the first guesses' rows only."""
    return RootGuesses(game, symmetry).one_level()


class PartsKept:
    """The checkpoint of a total bound (:mod:`strategytree.checkpoint`): rows
    (first guess, its part, bound, depth it is complete for) of the parts of the
    first guesses bounded so far, and rows (first guess, part, secrets, bound,
    depth) of the large sets bounded inside those parts, with their secrets
    (:class:`~strategytree.bounds.sets.Learned`); a run starts from the best kept
    for each, so a run stopped in the middle of a part loses little of it.  A run
    resumed first rewrites the file with each set once (:func:`compacted`)."""

    def __init__(self, path: str | os.PathLike[str], game: Game, symmetry: bool) -> None:
        from ..checkpoint import Checkpoint, header, load

        named = header("total bound", game, symmetry=bool(symmetry))
        self.file = Checkpoint(path, named)
        found = load(path, named)
        if found is None:
            self.file.rewrite({"parts": np.zeros((0, 4), dtype=np.int64)})
        elif "sets" in found:
            kept = compacted(self.checked(found))
            if len(kept["sets"]) < len(found["sets"]):  # (the file, once, at the start of a run)
                self.file.rewrite(kept)
                found = kept
        self.found = found if found is not None else {}
        """what the file held (read by :meth:`restore`, then let go)"""
        self.new: list[tuple[int, int, int, int]] = []
        self.sets: list[tuple[int, int, Learned]] = []
        self.lock = threading.Lock()  # noted by the bounding thread, saved by the caller's

    def note(self, guess: int, part: int, bound: int, depth: int,
             learned: Learned | None = None) -> None:
        """Keep a part's bound, and the bounds of its sets ``learned`` (saved at the
        next :meth:`save`)."""
        with self.lock:
            self.new.append((guess, part, bound, depth))
            if learned is not None and len(learned.rows):
                self.sets.append((guess, part, learned))

    def save(self) -> None:
        """Append the parts and sets bounded since the last save."""
        with self.lock:
            new, self.new = self.new, []
            sets, self.sets = self.sets, []
        if not new and not sets:
            return
        arrays = {"parts": np.array(new, dtype=np.int64).reshape(-1, 4)}
        if sets:
            arrays["sets"] = np.concatenate([
                np.column_stack([np.full((len(k.rows), 2), (g, j), dtype=np.int64), k.rows])
                for g, j, k in sets])
            arrays["members"] = np.concatenate([k.members for _, _, k in sets])
        self.file.append(arrays)

    def checked(self, found: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """``found``, the file's arrays, when its sets match their secrets."""
        from ..checkpoint import CheckpointError

        sets, members = found["sets"], found.get("members", np.zeros(0, dtype=np.int32))
        if sets.ndim != 2 or sets.shape[1] != 5 or int(sets[:, 2].sum()) != len(members):
            raise CheckpointError(f"{self.file.path}: not a usable checkpoint (its sets do not "
                                  "match their secrets)")
        return found

    def restore(self, runner: RootBound) -> None:
        """Tell ``runner`` the best bound kept for each part, and the sets kept."""
        from ..checkpoint import CheckpointError

        where = {g: i for i, g in enumerate(runner.guesses.guesses)}
        other = CheckpointError(f"{self.file.path}: a checkpoint of another bound "
                                "(its first guesses differ); use another file")

        def first(guess: int, part: int) -> int:
            i = where.get(guess)
            if i is None or not 0 <= part < len(runner.guesses.sizes[i]):
                raise other
            return i

        found, self.found = self.found, {}
        for guess, part, bound, depth in found.get("parts", np.zeros((0, 4), np.int64)).tolist():
            runner.learn_part(first(guess, part), part, bound, depth)
        sets = found.get("sets", np.zeros((0, 5), dtype=np.int64))
        members = found.get("members", np.zeros(0, dtype=np.int32))
        starts = np.concatenate([[0], np.cumsum(sets[:, 2])])
        for (guess, part), rows in _runs(sets[:, :2]):
            secrets = members[starts[rows.start]:starts[rows.stop]]
            runner.learn_part(first(guess, part), part, 0, -1, Learned(sets[rows, 2:], secrets))


def compacted(found: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A checkpoint's arrays (:class:`PartsKept`) with each set inside a part once:
    the best bound and depth its rows give (a run learns a set's bound again as it
    rises, and appends each; MM(5,8)'s file held 69,540 rows of 35,881 sets)."""
    sets = found.get("sets", np.zeros((0, 5), dtype=np.int64))
    entries = Learned(sets[:, 2:], found.get("members", np.zeros(0, dtype=np.int32))).sets()
    best: dict[tuple[int, int, bytes], list] = {}  # (guess, part, set): [row, set, bound, depth]
    for k, ((guess, part), (S, bound, depth)) in enumerate(zip(sets[:, :2].tolist(), entries)):
        kept = best.setdefault((guess, part, S.tobytes()), [k, S, bound, depth])
        kept[2], kept[3] = max(kept[2], bound), max(kept[3], depth)
    order = sorted(best.values(), key=lambda kept: kept[0])
    packed = Learned.of([(S, bound, depth) for _, S, bound, depth in order])
    return {**found, "sets": np.column_stack([sets[[k for k, *_ in order], :2].reshape(-1, 2),
                                              packed.rows]),
            "members": packed.members}


def _runs(keys: np.ndarray) -> list[tuple[tuple[int, int], slice]]:
    """The runs of equal rows of ``keys`` (k, 2), as (row, slice of the rows)."""
    if not len(keys):
        return []
    cuts = np.flatnonzero((np.diff(keys, axis=0) != 0).any(axis=1)) + 1
    starts, stops = [0, *cuts.tolist()], [*cuts.tolist(), len(keys)]
    return [((int(keys[a, 0]), int(keys[a, 1])), slice(a, b)) for a, b in zip(starts, stops)]


def total_answer(result: TotalBound, game: Game, depth: int) -> tuple[dict, list[str]]:
    """What ``strategytree bound --total`` prints of ``result`` (asked for ``depth``
    levels): its ``--json`` shape (the fields every bound has,
    :func:`strategytree.bounds.bound_json`, with ``measure`` ``total`` and the
    published ``optimum`` or None; then ``depth``, the depth reached, ``sets``, the
    sets bounded, and ``levels``, each depth done: :class:`~strategytree.bounds.root.Level`)
    and its lines of text (rich markup): the bound, then a line per depth done."""
    from rich.markup import escape

    from ..literature import optimum as published_optimum
    from . import bound_json

    optimum = published_optimum(game)
    answer = bound_json(game, "total", result.bound, optimum=None if optimum is None
                        else optimum.low, method=result.method, complete=result.complete,
                        seconds=result.seconds, depth=result.depth, sets=result.sets,
                        levels=result.as_dict()["levels"])
    done = "" if result.complete else f", stopped before depth {depth}"
    known = "" if optimum is None else f"; optimum {optimum.low:,} ({optimum.source})"
    if optimum is not None and result.bound == optimum.low:
        known = f"; it is the optimum ({optimum.source}): the bound is tight"
    text = (f"{escape(result.game)}: every strategy takes at least "
            f"{plural(result.bound, 'guess')} in total ({result.method}{done}, proved in "
            f"{result.seconds:.2f} s){escape(known)}")
    return answer, [text, *(f"  depth {level.depth}: {level.bound:,} after "
                            f"{plural(level.sets, 'set')} bounded, {level.seconds:.2f} s, "
                            f"{level.cpu_seconds:.2f} s of CPU" for level in result.levels)]


def total_outcome(game_options: dict[str, Any] | None = None, depth: int = 3, *,
                  checkpoint: str | os.PathLike[str] | None = None, as_json: bool = False,
                  workers: int | str | None = None, scheduler: str | None = None,
                  watch: Watch = QUIET, **run: Any) -> CommandOutcome:
    """What ``strategytree bound --total`` does: :func:`total_lower_bound` (``run``
    its keywords) in the game of ``game_options`` (:func:`~strategytree.presets.resolve_game`'s
    keywords), warmed up, on the cluster of ``workers`` or ``scheduler``, told on
    ``watch``, finished or stopped by Ctrl-C with the bound proved so far;
    :func:`total_answer`'s text or JSON, and when stopped the stop
    (:func:`~strategytree.runner.stopped_outcome`: its notes and exit status)."""
    from ..files import check_outputs
    from ..presets import resolve_game
    from ..runner import stopped_outcome

    check_outputs([], force=False, checkpoint=checkpoint)
    if isinstance(depth, int) and 0 <= depth <= 1:  # worked out at once, in this process
        exact = {"exact_below": run.get("exact_below") or None,
                 "exact_parts": run.get("exact_parts") or None}
        refuse_inert({"checkpoint": checkpoint, "workers": workers, "scheduler": scheduler,
                      **exact}, (), "at {depth} (from depth 2 on)", depth=depth)
    game = resolve_game(**(game_options or {}))[0]
    symmetry = run.get("symmetry", True)
    watch.warm(game, lambda small: total_lower_bound(small, min(depth, 2), symmetry=symmetry))
    with watch.running("bounding", game, workers, scheduler) as (client, progress):
        try:
            result, stopped = total_lower_bound(game, depth, checkpoint=checkpoint,
                                                progress=progress, client=client, **run), None
        except Interrupted as interrupted:
            result, stopped = interrupted.result, stopped_outcome(checkpoint=checkpoint)
    answer, lines = total_answer(result, game, depth)
    ended = stopped or CommandOutcome()
    return CommandOutcome.either(as_json, answer, lines, notes=ended.notes, status=ended.status)
