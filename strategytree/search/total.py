"""A proven lower bound on the least total any strategy can reach, for games too big to solve.

Three ways, loosest first (``depth`` 0, 1, 2 ...):

- **counting** (depth 0): a guess splits a set into at most ``b`` parts besides
  the win, so ``n`` secrets cost at least ``L(n)``, the sum of depths of the first
  ``n`` nodes of a complete ``b``-ary tree (:func:`~strategytree.search.bounds.lower_bounds`);
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

>>> from strategytree.game import mastermind
>>> [total_lower_bound(mastermind(3, 3), depth=d).bound for d in (0, 1, 2)]
[71, 72, 73]
"""

from __future__ import annotations

import copy
import heapq
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import njit

from ..builders import colour_masks
from ..errors import ArgumentError
from ..feedback import replies as reply_row
from ..feedback import table as reply_table
from ..game import Game
from ..literature import counting_bound as counted
from ..progress import Progress, ProgressCallback
from ..symmetry import Symmetry, merge_dead_colours
from .bounds import (
    INF,
    UNLIMITED,
    bound_tables,
    candidate_bounds,
    lower_bounds,
    split_bound,
    split_sizes,
)

__all__ = [
    "BoundInterrupted",
    "SetBounder",
    "TotalBound",
    "counting_bound",
    "set_lower_bound",
    "total_lower_bound",
]

#: what the progress of a bound counts
UNIT = "sets bounded"
#: the deepest bound asked for (far deeper than any run can finish)
MAX_DEPTH = 12
#: "bounded at every depth" (a set whose cost is known exactly)
EXACT = 1 << 20
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

    def as_dict(self) -> dict:
        """The bound as a small JSON-ready dict."""
        return self._asdict()


class BoundInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`total_lower_bound`; ``result`` is the bound proved so far."""

    def __init__(self, result: TotalBound) -> None:
        super().__init__(f"stopped: {result.game} total >= {result.bound}")
        self.result = result


def method_name(depth: int) -> str:
    """``counting``, ``one level``, ``2 levels``, ..."""
    return METHODS.get(depth, f"{depth} levels")


def branching(game: Game) -> int:
    """The most parts besides the win a guess can make: the replies that occur, less
    the win (exact, where :func:`strategytree.literature.branching` reads the
    scoring alone; the search has the reply table anyway)."""
    replies = game.possible_replies
    return max(len(replies) - (1 if game.win in replies else 0), 1)


def counting_bound(game: Game) -> int:
    """The counting bound (:func:`strategytree.literature.counting_bound`) with the
    replies that occur (:func:`branching`).

    >>> from strategytree.game import mastermind
    >>> counting_bound(mastermind(4, 6)), counting_bound(mastermind(5, 8))
    (4986, 156198)
    """
    return counted(game, branching(game))


@njit(cache=True, nogil=True)
def least_split_bound(S, first, cands, fb, lbt, win, n_replies, floor):
    """The least, over the guesses ``first`` then ``cands``, of the bound of the
    split they make of ``S`` (``n + sum L(k)``); stops at ``floor`` (no less can be)."""
    sizes = np.zeros(n_replies, dtype=np.int64)
    replies = np.empty(n_replies, dtype=np.int64)
    n = S.shape[0]
    best = INF
    for guesses in (first, cands):
        for t in range(guesses.shape[0]):
            met = split_sizes(fb[guesses[t]], S, sizes, replies, n_replies)
            bound = split_bound(sizes, replies, met, n, lbt, INF, win)[0]
            if bound < best:
                best = bound
                if best <= floor:
                    return best
    return best


@njit(cache=True, nogil=True)
def scan_bounds(fbT, S, cands, lbtab, most, win, n_replies, counts, out_lb, out_parts, out_sq,
                out_wins):
    """For each guess of ``cands``: the bound of its split of ``S`` (``n + sum L(k)``),
    its parts besides the win, their sum of squares, and 1 when it can win; returns
    the most parts a guess makes (at most ``most``), whose row of ``lbtab`` gives ``L``:
    no guess makes more parts of a subset of ``S``.

    The parts of every guess are counted at once, secret by secret, from the
    transposed table ``fbT`` (secret x guess): a secret's row is small enough to
    stay in the cache, where a big table's rows read at ``S`` would cost a cache
    miss a secret.  ``counts``: scratch, replies x guesses (each reply's row is
    written in order)."""
    n = S.shape[0]
    k = cands.shape[0]
    counts[:, :k] = 0
    for j in range(n):
        col = fbT[S[j]]
        for t in range(k):
            counts[col[cands[t]], t] += 1
    b = 1
    for t in range(k):
        parts = 0
        squares = 0
        for r in range(n_replies):
            size = counts[r, t]
            if size != 0 and r != win:
                parts += 1
                squares += size * size
        out_parts[t] = parts
        out_sq[t] = squares
        out_wins[t] = 1 if counts[win, t] != 0 else 0
        b = max(b, parts)
    b = min(b, most)
    lbt = lbtab[b]
    for t in range(k):
        bound = n
        for r in range(n_replies):
            size = counts[r, t]
            if size != 0 and r != win:
                bound += lbt[size]
        out_lb[t] = bound
    return b


#: from this many secrets on, splits are counted from the transposed table
SCAN_FROM = 12


def parts_of(row: np.ndarray, S: np.ndarray, win: int) -> list[np.ndarray]:
    """The parts of ``S`` by the replies ``row`` (one per secret of ``S``), the
    win left out, largest first (in reply order between equals).

    >>> parts_of(np.array([3, 0, 3, 1, 0, 3]), np.arange(6), win=1)
    [array([0, 2, 5]), array([1, 4])]
    """
    order = np.argsort(row, kind="stable")
    cuts = np.flatnonzero(np.diff(row[order])) + 1
    pieces = [S[idx] for idx in np.split(order, cuts) if row[idx[0]] != win]
    return sorted(pieces, key=len, reverse=True)


@dataclass
class SetBounder:
    """Lower bounds on the cost of sets of secrets of one game, at any depth.

    A function of (set, depth) and of the best bounds kept so far (``known``):
    several bounders may work on different sets of one game, side by side or on
    other machines, and pool what they proved (:meth:`learn`)."""

    game: Game
    symmetry: bool = True
    stop: threading.Event = field(default_factory=threading.Event)
    known: dict = field(default_factory=dict)
    """set (bytes of its sorted indices) -> (bound, depth it is complete for)"""
    sets: int = 0
    """sets bounded (one depth-1 scan, or one deeper node), for progress"""

    def __post_init__(self) -> None:
        game = self.game
        n = len(game.secrets)
        self.fb = reply_table(game)
        if game.symmetric and np.array_equal(game.guesses, game.secrets):
            self.fbT = self.fb  # Mastermind's replies are symmetric: the table is its transpose
        else:
            self.fbT = np.ascontiguousarray(self.fb.T)
        self.counts = np.empty((game.n_replies, len(game.guesses)), dtype=np.int32)
        self.most = branching(game)
        self.lbtab = bound_tables(n, self.most, UNLIMITED, 0)[0]
        self.win = int(game.win)
        self.n_replies = int(game.n_replies)
        self.as_guess = game.guess_index(game.secrets).astype(np.int64)
        self.every_guess = np.arange(len(game.guesses))
        self.merge = bool(self.symmetry and game.symmetric
                          and len(game.guesses) == game.colors**game.pegs)
        self.gmask = colour_masks(game.guesses)
        self.smask = colour_masks(game.secrets)
        self.merged: dict = {}

    # -- what a node needs ------------------------------------------------------
    def candidates(self, S: np.ndarray, sym: Symmetry | None) -> np.ndarray:
        """The guesses worth scoring on ``S``: one per class of ``sym``, less those
        merged with another (colours no secret of ``S`` has)."""
        if sym is None:
            return self.every_guess
        cands = sym.representatives(self.every_guess)
        if self.merge:
            cands = merge_dead_colours(self.gmask, self.smask, cands, S, self.merged)
        return np.ascontiguousarray(cands, dtype=np.int64)

    def parts(self, S: np.ndarray, guess: int) -> list[np.ndarray]:
        """The parts ``guess`` makes of ``S`` besides the win, largest first."""
        return parts_of(self.fb[guess, S], S, self.win)

    def split_bounds(self, S: np.ndarray, cands: np.ndarray, most: int) -> tuple[np.ndarray, int]:
        """Rows (bound, parts, sum of squares, can win) of each guess of ``cands`` on ``S``,
        and the most parts a guess makes of ``S`` (at most ``most``), whose bounds
        they use (:func:`scan_bounds`; small sets: :func:`~.bounds.candidate_bounds`)."""
        out = np.empty((5, len(cands)), dtype=np.int64)
        if len(S) >= SCAN_FROM:
            most = scan_bounds(self.fbT, S, cands, self.lbtab, most, self.win, self.n_replies,
                               self.counts, out[0], out[1], out[2], out[3])
        else:
            candidate_bounds(S, cands, 2, 0, self.fb, self.lbtab[most], np.full(3, INF),
                             self.win, self.n_replies, out[0], out[1], out[4], out[2], out[3])
        return out[:4], int(most)

    def sibling(self) -> SetBounder:
        """A bounder of the same game sharing this one's tables, with its own
        scratch and memo (for another thread)."""
        twin = copy.copy(self)
        twin.stop, twin.known, twin.merged = threading.Event(), {}, {}
        twin.counts = np.empty_like(self.counts)
        twin.sets = 0
        return twin

    def learn(self, S: np.ndarray, bound: int, depth: int) -> None:
        """Keep ``bound`` for ``S`` (complete for ``depth``) if it is better."""
        key = S.tobytes()
        old = self.known.get(key)
        if old is not None:
            bound, depth = max(bound, old[0]), max(depth, old[1])
        self.known[key] = (bound, depth)

    # -- the bound --------------------------------------------------------------
    def bound(self, S: np.ndarray, d: int, cap: int = INF, sym: Symmetry | None = None,
              most: int | None = None) -> tuple[int, int]:
        """``(bound, depth)``: a lower bound on the cost of the sorted set ``S`` at
        least its bound at depth ``d`` (``depth`` >= ``d``), or one at least ``cap``,
        or, when stopped, the best so far (``depth`` -1).  ``most``: the most parts
        a guess makes of ``S`` (or of a set it came from)."""
        n = len(S)
        if n <= 2:
            return 2 * n - 1 if n else 0, EXACT
        most = self.most if most is None else most
        lb = int(self.lbtab[most][n])
        entry = self.known.get(S.tobytes())
        if entry is not None:
            if entry[1] >= d or entry[0] >= cap:
                return entry
            lb = max(lb, entry[0])
        if d == 0:
            return lb, 0
        self.sets += 1
        cands = self.candidates(S, sym)
        if d == 1:
            if n >= SCAN_FROM:
                rows, most = self.split_bounds(S, cands, most)
                b = max(int(rows[0].min()), int(self.lbtab[most][n]))
            else:
                first = self.as_guess[S]
                first = first[first >= 0]
                b = int(least_split_bound(S, first, cands, self.fb, self.lbtab[most], self.win,
                                          self.n_replies, lb))
            b, depth = max(b, lb), EXACT if b == 2 * n - 1 else 1
            self.learn(S, b, depth)
            return b, depth
        return self.refine(S, d, cap, sym, cands, lb, most)

    def refine(self, S, d, cap, sym, cands, lb, most) -> tuple[int, int]:
        """:meth:`bound` at depth ``d`` >= 2: best first over the guesses ``cands``."""
        n = len(S)
        (lbg, nparts, sq, cons), most = self.split_bounds(S, cands, most)
        lbt = self.lbtab[most]
        lb = max(lb, int(lbt[n]))
        perfect = np.flatnonzero((nparts == n - 1) & (cons == 1))
        if len(perfect):
            self.learn(S, 2 * n - 1, EXACT)
            return 2 * n - 1, EXACT
        heap = [(int(lbg[i]), int(sq[i]), int(i)) for i in range(len(cands))]
        heapq.heapify(heap)
        state: dict[int, tuple[list, list, list, Symmetry | None]] = {}
        result, depth = None, -1
        while heap and not self.stop.is_set():
            b, order, i = heap[0]
            if b >= cap:
                break
            heapq.heappop(heap)
            if i not in state:
                g = int(cands[i])
                pieces = self.parts(S, g)
                child = sym.after(self.game.guesses[g]) if sym is not None else None
                state[i] = (pieces, [int(lbt[len(p)]) for p in pieces],
                            [EXACT if len(p) <= 2 else 0 for p in pieces], child)
            pieces, cur, done, child = state[i]
            if min(done) >= d - 1:
                result, depth = b, d
                break
            nxt = min(cap, heap[0][0] if heap else INF)
            for j in range(len(pieces) - 1, -1, -1):  # smallest first: the cheapest gains
                part = pieces[j]
                if done[j] >= d - 1:
                    continue
                # enough: a bound that puts this guess behind the next one
                v, dj = self.bound(part, d - 1, nxt + 1 - (b - cur[j]), child, most=most)
                b, cur[j], done[j] = b + v - cur[j], v, dj
                if b > nxt or self.stop.is_set():
                    break
            heapq.heappush(heap, (b, order, i))
        if result is None:
            result = heap[0][0] if heap else INF
        result = max(result, lb)
        self.learn(S, result, depth)
        return result, depth


def set_lower_bound(game: Game, secrets: np.ndarray, depth: int, *,
                    played: list[np.ndarray] | None = None, symmetry: bool = True) -> int:
    """A lower bound on the least total of a strategy for the secrets ``secrets``
    (indices into ``game.secrets``), at ``depth``: a function of the set alone,
    for farming the parts of a big game out.  ``played``: the guesses (rows of
    colours) that led to the set, whose symmetry group is used.

    >>> from strategytree.game import mastermind
    >>> set_lower_bound(mastermind(3, 3), np.arange(27), 2)
    73
    """
    S = np.unique(np.asarray(secrets, dtype=np.int32))
    sym = Symmetry.of(game, symmetry)
    for guess in played or []:
        sym = sym.after(guess)
    return SetBounder(game, symmetry).bound(S, check_depth(depth), INF, sym)[0]


def check_depth(depth: object) -> int:
    """``depth`` as a whole number 0..MAX_DEPTH (else :class:`ArgumentError`)."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or not (
        0 <= depth <= MAX_DEPTH
    ):
        raise ArgumentError(f"{{depth}} must be a whole number from 0 to {MAX_DEPTH}", depth=depth)
    return int(depth)


def total_lower_bound(
    game: Game,
    depth: int = 3,
    *,
    progress: ProgressCallback | None = None,
    seconds: float | None = None,
    symmetry: bool = True,
    every: float = 0.25,
    checkpoint: str | os.PathLike[str] | None = None,
    client: object | None = None,
) -> TotalBound:
    """A proven lower bound on the least total number of guesses any strategy for
    ``game`` needs over all secrets, at ``depth`` (0 counting, 1 one level, ...).

    The root deepens one level at a time (:class:`RootBound`); ``progress`` is
    called about four times a second with a :class:`~strategytree.progress.Progress`
    (sets bounded, the bound so far in ``detail``).  After ``seconds`` the run
    stops with the bound proved so far (``complete`` False).  Ctrl-C raises
    :class:`BoundInterrupted`, a KeyboardInterrupt that carries that bound.
    ``checkpoint``: a file that keeps the bound of every part of a first guess as
    it is proved, and from which a later run (of any depth, in-process or on a
    cluster) starts.  ``client`` (a ``distributed.Client``): the parts of the
    first guesses are bounded by tasks on its workers
    (:class:`~strategytree.search.total_tasks.OnCluster`).

    >>> from strategytree.game import mastermind
    >>> total_lower_bound(mastermind(4, 6), depth=1).bound
    5196
    """
    depth = check_depth(depth)
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
        raise ArgumentError("{seconds} must be a number of seconds above 0", seconds=seconds)
    started = time.perf_counter()
    runner: RootBound | None = None

    def answer(bound: int, reached: int, complete: bool) -> TotalBound:
        return TotalBound(game.name, int(bound), reached, method_name(reached),
                          round(time.perf_counter() - started, 3), complete,
                          runner.sets if runner is not None else 0)

    if depth <= 1:
        return answer(counting_bound(game) if depth == 0 else one_level(game, symmetry),
                      depth, True)
    saved = PartsKept(checkpoint, game, symmetry) if checkpoint is not None else None
    root = RootGuesses(game, symmetry)
    if client is None:
        runner = InProcess(game, symmetry, root)
    else:
        from .total_tasks import OnCluster  # dask.distributed: imported only when used

        runner = OnCluster(client, game, symmetry, root)
    if saved is not None:
        saved.restore(runner)
        runner.noted = saved.note
    reached = [1]
    failures: list[BaseException] = []

    def work() -> None:
        try:
            runner.deepen(depth, reached)
        except BaseException as failure:  # raised again in the caller's thread
            failures.append(failure)
            runner.stop.set()

    def report() -> None:
        if saved is not None and time.perf_counter() - saved.last >= SAVE_EVERY:
            saved.save()
        if progress is not None:
            detail = f"bound {runner.root:,} (depth {reached[0]} done)"
            if runner.detail() and reached[0] < depth:
                detail += "; " + runner.detail()
            if client is not None:
                detail += ", " + runner.count.detail()
            progress(Progress(runner.sets, None, UNIT, time.perf_counter() - started,
                              detail=detail))

    worker = threading.Thread(target=work, name="strategytree-bound", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(every)
            report()
            if seconds is not None and time.perf_counter() - started >= seconds:
                runner.stop.set()
    except KeyboardInterrupt:
        runner.stop.set()
        while worker.is_alive():
            try:
                worker.join(0.1)
            except KeyboardInterrupt:
                pass
        if saved is not None:
            saved.save()
        raise BoundInterrupted(answer(runner.root, reached[0], False)) from None
    if saved is not None:
        saved.save()
    if failures:
        raise failures[0]
    report()
    return answer(runner.root, reached[0], reached[0] == depth)


#: seconds between two saves of a checkpoint (and at the end, or a stop)
SAVE_EVERY = 1.0


class RootGuesses:
    """The first guesses of a game (one per class of its symmetry group), the
    sizes of the parts each makes of the secrets, and the parts themselves
    (:func:`parts_of`) when asked: worked out from the guesses' rows of replies
    (no reply table)."""

    def __init__(self, game: Game, symmetry: bool) -> None:
        self.game = game
        self.sym = Symmetry.of(game, symmetry)
        self.guesses = [int(g) for g in self.sym.representatives(np.arange(len(game.guesses)))]
        self.sizes, self.wins = [], []
        for g in self.guesses:
            counts = np.bincount(reply_row(game, g), minlength=game.n_replies)
            self.wins.append(bool(counts[game.win]))
            counts[game.win] = 0
            self.sizes.append(sorted((int(k) for k in counts if k), reverse=True))
        self.made: dict[int, list[np.ndarray]] = {}

    def parts(self, i: int) -> list[np.ndarray]:
        """The parts first guess ``i`` makes, largest first (as ``sizes[i]``)."""
        if i not in self.made:
            secrets = np.arange(len(self.game.secrets), dtype=np.int32)
            self.made[i] = parts_of(reply_row(self.game, self.guesses[i]), secrets,
                                    int(self.game.win))
        return self.made[i]

    def one_level(self) -> int:
        """The one-level bound: the least over the first guesses of ``n`` plus the
        counting bound of each part."""
        n = len(self.game.secrets)
        lbt = lower_bounds(n, branching(self.game))[0]
        return max(min(n + sum(int(lbt[k]) for k in sizes) for sizes in self.sizes),
                   int(lbt[n]))


def one_level(game: Game, symmetry: bool = True) -> int:
    """The one-level bound without the whole reply table: the first guesses' rows only."""
    return RootGuesses(game, symmetry).one_level()


class PartsKept:
    """The checkpoint of a total bound (:mod:`strategytree.checkpoint`): rows
    (first guess, its part, bound, depth it is complete for) of the parts of the
    first guesses bounded so far; a run starts from the best kept for each."""

    def __init__(self, path: str | os.PathLike[str], game: Game, symmetry: bool) -> None:
        from ..checkpoint import Checkpoint, load

        header = {"search": "total bound", "game": game.name, "scoring": game.scoring,
                  "codes": game.digest, "symmetry": bool(symmetry)}
        self.file = Checkpoint(path, header)
        found = load(path, header)
        self.rows = found["parts"] if found is not None else np.zeros((0, 4), dtype=np.int64)
        if found is None:
            self.file.rewrite({"parts": self.rows})
        self.new: list[tuple[int, int, int, int]] = []
        self.lock = threading.Lock()  # noted by the bounding thread, saved by the caller's
        self.last = time.perf_counter()

    def note(self, guess: int, part: int, bound: int, depth: int) -> None:
        """Keep a part's bound (saved at the next :meth:`save`)."""
        with self.lock:
            self.new.append((guess, part, bound, depth))

    def save(self) -> None:
        """Append the parts bounded since the last save."""
        with self.lock:
            new, self.new = self.new, []
        self.last = time.perf_counter()
        if new:
            self.file.append({"parts": np.array(new, dtype=np.int64).reshape(-1, 4)})

    def restore(self, runner: RootBound) -> None:
        """Tell ``runner`` the best bound kept for each part."""
        where = {g: i for i, g in enumerate(runner.guesses.guesses)}
        for guess, part, bound, depth in self.rows.tolist():
            i = where.get(guess)
            if i is None or not 0 <= part < len(runner.guesses.sizes[i]):
                from ..checkpoint import CheckpointError

                raise CheckpointError(f"{self.file.path}: a checkpoint of another bound "
                                      "(its first guesses differ); use another file")
            runner.learn_part(i, part, bound, depth)


#: a task takes a guess's parts, smallest first, until they hold this many secrets
PART_MIN = 256


def refine_parts(bounder: SetBounder, sym: Symmetry, parts: list[np.ndarray], d: int,
                 lead: int, nxt: int, cur: list[int], most: int) -> list[tuple[int, int]]:
    """Refine a first guess (bounded ``lead`` so far; the next guess ``nxt``) over
    its parts ``parts`` (sorted int32 indices, bounded ``cur`` so far), in turn, at
    depth ``d``: each part is held to the bound that would put the guess behind
    the next one, and the refinement stops as soon as it is.  Each part bounded's
    ``(bound, depth it is complete for)``."""
    found = []
    for part, known in zip(parts, cur):
        bound, reached = bounder.bound(part, d, nxt + 1 - (lead - known), sym, most=most)
        found.append((int(bound), int(reached)))
        lead += bound - known
        if lead > nxt or bounder.stop.is_set():
            break
    return found


class RootBound:
    """The root of :func:`total_lower_bound`: the first guesses (:class:`RootGuesses`)
    bounded deeper and deeper, their parts bounded by :class:`SetBounder` in this
    process (:class:`InProcess`) or in tasks on a Dask cluster
    (:class:`~strategytree.search.total_tasks.OnCluster`).

    At each depth ``d``, the guess of least bound has all its parts bounded at
    ``d - 1`` (smallest first, in runs of :data:`PART_MIN` secrets side by side),
    which makes its bound the best; every other guess is then raised, its parts
    in turn (smallest first: the cheapest gains) in one run, until its bound
    reaches the best, or bounded whole below it (then it is the best).  The
    runs of the other guesses go side by side, and start while the leading
    guess's last parts are still bounded (raised to its bound so far).  The
    least bound over the guesses is proved at every moment, so a run stopped
    (Ctrl-C, a time limit, a cluster that fails) still has one."""

    def __init__(self, game: Game, symmetry: bool, root: RootGuesses) -> None:
        self.game, self.guesses = game, root
        self.stop = threading.Event()
        self.counted = 0
        self.noted: Callable[[int, int, int, int], None] | None = None
        n = len(game.secrets)
        self.n = n
        self.most = max(1, min(branching(game), max(len(k) for k in root.sizes)))
        lbt = lower_bounds(n, self.most)[0]
        self.floor = int(lbt[n])
        self.cur = [[int(lbt[k]) for k in sizes] for sizes in root.sizes]
        self.done = [[EXACT if k <= 2 else 0 for k in sizes] for sizes in root.sizes]
        self.order = [sum(k * k for k in sizes) for sizes in root.sizes]
        self.perfect = any(len(sizes) == n - 1 and wins
                           for sizes, wins in zip(root.sizes, root.wins))
        self.best = INF  # the least bound of a guess bounded whole at the depth under way
        self.lead, self.depth = -1, 0  # the leading first guess, the depth its parts go to
        self.root = max(root.one_level(), self.floor)
        """the root's bound so far"""

    @property
    def sets(self) -> int:
        """Sets bounded so far."""
        return self.counted

    def detail(self) -> str:
        """Where the depth under way stands, in words: the leading first guess,
        its parts bounded, and the first guesses raised to the best."""
        if self.lead < 0:
            return ""
        b = self.bounds()
        guess = self.game.code_text(self.game.guesses[self.guesses.guesses[self.lead]])
        done = sum(1 for x in self.done[self.lead] if x >= self.depth)
        words = f"leading {guess}: {done}/{len(self.done[self.lead])} parts at depth {self.depth}"
        if self.best < INF:
            raised = sum(1 for i in range(len(b)) if b[i] >= self.best)
            words += f", {raised}/{len(b)} first guesses at {self.best:,}"
        return words

    def learn_part(self, i: int, j: int, bound: int, depth: int) -> None:
        """Start from ``bound`` (complete for ``depth``) for part ``j`` of first guess ``i``."""
        self.cur[i][j] = max(self.cur[i][j], bound)
        self.done[i][j] = max(self.done[i][j], depth)

    def bounds(self) -> list[int]:
        """Each first guess's bound so far."""
        return [self.n + sum(cur) for cur in self.cur]

    def pending(self, i: int, d: int) -> list[int]:
        """The parts of first guess ``i`` not yet bounded at depth ``d``, smallest first."""
        return [j for j in range(len(self.done[i]) - 1, -1, -1) if self.done[i][j] < d]

    def batches(self, i: int, d: int) -> list[list[int]]:
        """:meth:`pending` in runs of at least :data:`PART_MIN` secrets (a task each)."""
        batches: list[list[int]] = []
        for j in self.pending(i, d):
            if not batches or sum(self.guesses.sizes[i][k] for k in batches[-1]) >= PART_MIN:
                batches.append([])
            batches[-1].append(j)
        return batches

    def deepen(self, depth: int, reached: list[int]) -> None:
        """Bound the root at depths 2 .. ``depth`` in turn (``reached[0]``: the last
        complete); stops early when :attr:`stop` is set."""
        import asyncio

        if self.perfect:
            self.root, reached[0] = 2 * self.n - 1, depth
            return
        asyncio.run(self.levels(depth, reached))

    async def levels(self, depth: int, reached: list[int]) -> None:
        import asyncio

        self.slots = asyncio.Semaphore(self.threads())
        for d in range(2, depth + 1):
            level = asyncio.ensure_future(self.level(d))
            while not level.done():
                await asyncio.wait([level], timeout=0.1)
                if self.stop.is_set() and not level.done():
                    level.cancel()
            if level.cancelled() or self.stop.is_set():
                await asyncio.gather(level, return_exceptions=True)
                return
            level.result()
            reached[0] = d

    async def level(self, d: int) -> None:
        """Bound the root at depth ``d`` (see the class doc)."""
        import asyncio

        b = self.bounds()
        lead = min(range(len(b)), key=lambda i: (b[i], self.order[i], i))
        self.lead, self.depth = lead, d - 1
        self.best = INF
        others = sorted((i for i in range(len(b)) if i != lead), key=lambda i: b[i])
        first = [asyncio.ensure_future(self.refine(lead, batch, d - 1, lambda: INF))
                 for batch in self.batches(lead, d - 1)]
        early = [asyncio.ensure_future(self.challenge(i, d, lambda: min(self.bounds()[lead],
                                                                         self.best)))
                 for i in others]  # (behind the leading guess's runs for a worker)
        try:
            await asyncio.gather(*first)
            self.best = min(self.best, self.bounds()[lead])
            await asyncio.gather(*early)
        finally:
            for task in first + early:
                task.cancel()
            await asyncio.gather(*first, *early, return_exceptions=True)
        await asyncio.gather(*(self.challenge(i, d, lambda: self.best) for i in others))
        self.root = max(self.root, self.best)

    async def challenge(self, i: int, d: int, goal: Callable[[], int]) -> None:
        """Raise first guess ``i`` to ``goal()`` (the least bound of a guess bounded
        whole at depth ``d``, or before there is one the leading guess's bound so
        far), or bound it whole below the best (then it is the best)."""
        while True:
            parts = self.pending(i, d - 1)  # in turn, in one run: only as many as it takes
            if not parts:  # bounded whole
                self.best = min(self.best, self.bounds()[i])
                return
            if not await self.refine(i, parts, d - 1, lambda: goal() - 1):
                return

    async def refine(self, i: int, batch: list[int], d: int, goal: Callable[[], int]) -> bool:
        """Bound the parts ``batch`` of first guess ``i`` at depth ``d`` in turn, in
        one run (:func:`refine_parts`), until the guess's bound passes ``goal()``
        (read when a worker is free); False when nothing was left to do by then."""
        import asyncio

        await self.acquire()
        try:
            nxt = goal()
            if self.bounds()[i] > nxt:
                return False
            found, sets = await self.run(i, batch, d, self.bounds()[i], nxt)
        finally:
            self.slots.release()
        self.counted += sets
        for j, (bound, reached) in zip(batch, found):
            self.learn_part(i, j, bound, reached)
            if self.noted is not None:
                self.noted(self.guesses.guesses[i], j, bound, reached)
        self.root = max(self.root, min(min(self.bounds()), self.best))
        if self.stop.is_set():
            raise asyncio.CancelledError
        return True

    # -- where the runs go
    def threads(self) -> int:
        """How many runs go side by side."""
        return 1

    async def acquire(self) -> None:
        """Wait for a free worker."""
        await self.slots.acquire()

    async def run(self, i: int, batch: list[int], d: int, lead: int, nxt: int
                  ) -> tuple[list[tuple[int, int]], int]:
        """:func:`refine_parts` of the parts ``batch`` of first guess ``i``, and the
        sets bounded."""
        raise NotImplementedError


class InProcess(RootBound):
    """:class:`RootBound` with its parts bounded in this process, one run at a time."""

    def __init__(self, game: Game, symmetry: bool, root: RootGuesses) -> None:
        super().__init__(game, symmetry, root)
        self.bounder = SetBounder(game, symmetry, stop=self.stop)
        self.groups: dict[int, Symmetry] = {}

    @property
    def sets(self) -> int:
        return self.bounder.sets

    async def run(self, i, batch, d, lead, nxt):
        g = self.guesses.guesses[i]
        if g not in self.groups:
            self.groups[g] = self.guesses.sym.after(self.game.guesses[g])
        parts = self.guesses.parts(i)
        found = refine_parts(self.bounder, self.groups[g], [parts[j] for j in batch], d, lead,
                             nxt, [self.cur[i][j] for j in batch], self.most)
        return found, 0
