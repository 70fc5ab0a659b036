"""Lower bounds on the cost of sets of secrets of one game, at any depth
(:class:`SetBounder`): the nodes of the total bound, whose method
:mod:`strategytree.bounds.total` tells.

A set's one-level bound reads the replies every guess meets at once, as the bits
of a word, secret by secret (:func:`least_bound_scanned`), or, on a large set,
counts every guess's split at once (:func:`scan_bounds`); a node at depth ``d >= 2``
is a best-first branch and bound over its guesses (:meth:`SetBounder.refine`).
With ``exact.below`` N (:class:`ExactSets`), a set of at most N secrets asked at
depth 2 or more is bounded by its exact optimum instead (:meth:`SetBounder.solved`:
the exact search, :class:`~strategytree.search.subsets.Exact`, with the bound asked
for as its limit), kept like any bound, by the set: on MM(5,8) the exact search of
a part of 35 to 161 secrets after the first guess takes a tenth of the time of its
depth-3 bound and gives at least as much (``docs/explanation/frontier.md``).
Used by :func:`~strategytree.bounds.total.set_lower_bound` and by the root of
the total bound (:mod:`~strategytree.bounds.root`), in this process and
on the workers of a Dask cluster (:mod:`~strategytree.bounds.tasks`).
"""

from __future__ import annotations

import copy
import heapq
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..builders import colour_masks
from ..counting import parts_by_replies
from ..feedback import popcount
from ..feedback import table as reply_table
from ..game import Game
from ..jit import njit
from ..search.bounds import (
    INF,
    UNLIMITED,
    bound_tables,
    candidate_bounds,
    lay_out_parts,
    split_bound,
    split_sizes,
)
from ..search.compiled import scan
from ..symmetry import Symmetry, merge_dead_colours

__all__ = ["EXACT", "KEEP_FROM", "SCAN_FROM", "ExactSets", "Learned", "SetBounder", "parts_of"]

#: "bounded at every depth" (a set whose cost is known exactly)
EXACT = 1 << 20
#: a set searched exactly under a limit and asked again is searched without one:
#: MM(4,7)'s full-depth bound with ``--exact-below 300`` took 9.0 s of CPU, not 19.3
#: (7,731 sets bounded, not 19,400; ``benchmarks/total_bound.py --again``)
AGAIN_UNLIMITED = True
#: sets of at least this many secrets bounded in a run are written down for its
#: checkpoint (:attr:`SetBounder.journal`): a run resumed, or a part's run handed
#: to another worker, starts from them instead of bounding them again
KEEP_FROM = 40


class ExactSets(NamedTuple):
    """Which sets are bounded by their exact optimum (the exact search's, sharper
    than any counting below), by their number of secrets; 0: none.

    >>> ExactSets(400, 1400), max(ExactSets(400, 1400))
    (ExactSets(below=400, parts=1400), 1400)
    """

    below: int = 0
    """sets of at most this many secrets asked at depth 2 or more"""
    parts: int = 0
    """the parts after the first guess alone, asked at depth 1 or more
    (:meth:`SetBounder.bound`'s ``part``; the sets below them as :attr:`below` says)"""


#: no set bounded by its exact optimum
NO_EXACT = ExactSets()


class Learned(NamedTuple):
    """Bounds of sets, packed for a task's answer and a checkpoint: a row
    (secrets, bound, depth it is complete for) per set, and the sets' secrets
    one after another (sorted int32 indices)."""

    rows: np.ndarray
    """(k, 3) int64: each set's size, bound and depth"""
    members: np.ndarray
    """int32: the sets' secrets, in the order of ``rows``"""

    @staticmethod
    def of(entries: list[tuple[np.ndarray, int, int]]) -> Learned:
        """``entries`` (set, bound, depth) packed."""
        rows = np.array([(len(S), b, d) for S, b, d in entries], dtype=np.int64).reshape(-1, 3)
        members = (np.concatenate([S for S, _, _ in entries]) if entries
                   else np.zeros(0, dtype=np.int32))
        return Learned(rows, members.astype(np.int32, copy=False))

    @staticmethod
    def join(pieces: list[Learned]) -> Learned:
        """Several packs as one."""
        if not pieces:
            return Learned.of([])
        return Learned(np.concatenate([p.rows for p in pieces]),
                       np.concatenate([p.members for p in pieces]))

    def sets(self) -> list[tuple[np.ndarray, int, int]]:
        """The entries (set, bound, depth), unpacked."""
        cuts = np.cumsum(self.rows[:, 0])[:-1] if len(self.rows) else []
        return [(S, int(b), int(d)) for S, (_, b, d)
                in zip(np.split(self.members, cuts), self.rows.tolist())]


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


@njit(cache=True, nogil=True)
def least_bound_scanned(fbT, S, cands, lbtab, most, narrow, win, met, sizes):
    """``(least bound, most parts)``: the least, over the guesses ``cands``, of the
    bound of the split they make of ``S`` (``n + sum L(k)``, ``L`` the row of
    ``lbtab`` for ``most`` parts, or, when ``narrow``, for the most any guess makes
    of ``S`` if fewer); the minimum of :func:`scan_bounds`' bounds, at a fraction
    of the cost on sets of a few secrets a part (:data:`BITS_PER_PART`).

    The replies each guess meets are scanned as bits (:func:`~strategytree.search.compiled.scan`,
    every guess at once; ``met``: scratch, one word a guess).  While ``L(k)`` is
    ``2k - 1`` (a part small enough to be told apart by one guess), a guess's
    bound is ``3n - 2 (can win) - parts``: its replies alone.  Only a guess that
    could have a larger part and is not already worse than the best has its parts
    counted (``sizes``: scratch, one per reply)."""
    n = S.shape[0]
    scan(fbT, S, met)
    wins = np.uint64(win)
    nowin = ~(np.uint64(1) << wins)
    k = cands.shape[0]
    b = np.int64(1)
    if narrow:
        for t in range(k):
            b = max(b, np.int64(popcount(met[cands[t]] & nowin)))
        b = min(b, most)
    else:
        b = most
    lbt = lbtab[b]
    linear = 0  # L(k) = 2k - 1 up to here
    while linear < n and lbt[linear + 1] == 2 * linear + 1:
        linear += 1
    best = np.int64(INF)
    for counted in range(2):  # first the guesses whose parts need no counting
        for t in range(k):
            bits = met[cands[t]]
            can_win = np.int64((bits >> wins) & np.uint64(1))
            parts = np.int64(popcount(bits & nowin))
            bound = 3 * n - 2 * can_win - parts
            if bound >= best:
                continue
            largest = n - can_win - (parts - 1)  # the largest part can be no larger
            if (largest > linear) != (counted == 1):
                continue
            if largest > linear:
                g = cands[t]
                sizes[:] = 0
                for j in range(n):
                    sizes[fbT[S[j], g]] += 1
                bound = n
                for r in range(sizes.shape[0]):
                    if sizes[r] != 0 and r != win:
                        bound += lbt[sizes[r]]
            best = min(best, bound)
    return best, b


#: a set's one-level bound is read off the replies its guesses meet (bits,
#: :func:`least_bound_scanned`) up to this many secrets a part (``most + 1``: the
#: largest part whose ``L(k)`` is ``2k - 1``), above it counted (:func:`scan_bounds`):
#: on MM(5,8) after AABCD (parts of 20 at most), 0.3 against 2.3 ms a set of 49 to 96
#: secrets, 1.7 against 3.4 ms from 129 to 160, 4.3 against 4.0 ms from 161 to 200
BITS_PER_PART = 8

#: from this many secrets on, splits are counted from the transposed table
SCAN_FROM = 12


def parts_of(row: np.ndarray, S: np.ndarray, win: int) -> list[np.ndarray]:
    """The parts of ``S`` by the replies ``row`` (one per secret of ``S``), the
    win left out, largest first (in reply order between equals).

    >>> parts_of(np.array([3, 0, 3, 1, 0, 3]), np.arange(6), win=1)
    [array([0, 2, 5]), array([1, 4])]
    """
    n_replies = int(row.max()) + 1 if len(row) else 1
    return [S[p] for p in parts_by(row, np.arange(len(S)), win, n_replies)]


def parts_by(row: np.ndarray, S: np.ndarray, win: int, n_replies: int) -> list[np.ndarray]:
    """:func:`parts_of` with ``row`` a guess's whole row of the reply table (read
    at ``S``): the parts are slices of one array laid out by a compiled loop
    (:func:`lay_out_by_reply`)."""
    out, lo, hi = lay_out_by_reply(row, S, win, n_replies)
    return [out[a:b] for a, b in zip(lo.tolist(), hi.tolist())]


@njit(cache=True, nogil=True)
def lay_out_by_reply(row, S, win, n_replies):
    """``S`` laid out part after part by the reply ``row[s]`` (below ``n_replies``;
    each part in the order of ``S``), and where the parts besides the win begin
    and end, largest first (ties: lower reply first)."""
    sizes = np.zeros(n_replies, dtype=np.int64)
    start = np.empty(n_replies, dtype=np.int64)
    fill = np.empty(n_replies, dtype=np.int64)
    out = np.empty_like(S)
    lay_out_parts(row, S, n_replies, sizes, start, fill, out)
    order = np.empty(n_replies, dtype=np.int64)
    k = 0
    for r in range(n_replies):
        if sizes[r] != 0 and r != win:
            j = k  # insertion: larger first, the earlier reply first between equals
            while j > 0 and sizes[order[j - 1]] < sizes[r]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = r
            k += 1
    lo = np.empty(k, dtype=np.int64)
    hi = np.empty(k, dtype=np.int64)
    for i in range(k):
        lo[i] = start[order[i]]
        hi[i] = start[order[i]] + sizes[order[i]]
    return out, lo, hi


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
    exact: ExactSets = NO_EXACT
    """the sets bounded by their exact optimum (:meth:`solved`): those of at most
    ``exact.below`` secrets asked at depth 2 or more, and the parts after the first
    guess of at most ``exact.parts`` (asked with :meth:`bound`'s ``part``)"""
    solved_sets: int = 0
    """sets bounded by their exact optimum (or found to cost at least the bound asked for)"""
    journal: list | None = None
    """when a list: each bound learned of a set of at least :data:`KEEP_FROM`
    secrets is added to it, (set, bound, depth), for a checkpoint (:meth:`learned`)"""

    def __post_init__(self) -> None:
        game = self.game
        n = len(game.secrets)
        self.fb = reply_table(game, self.stop.is_set)  # (a big game's takes seconds)
        if game.symmetric and np.array_equal(game.guesses, game.secrets):
            self.fbT = self.fb  # Mastermind's replies are symmetric: the table is its transpose
        else:
            self.fbT = np.ascontiguousarray(self.fb.T)
        self.counts = np.empty((game.n_replies, len(game.guesses)), dtype=np.int32)
        # scratch of :func:`least_bound_scanned` (replies as the bits of a word)
        self.met = (np.empty(len(game.guesses), dtype=np.uint64) if game.n_replies <= 64
                    else None)
        self.sizes = np.empty(game.n_replies, dtype=np.int64)
        self.most = parts_by_replies(game)
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
        self.searcher = None  # the exact search of small sets (made on first use)
        self.colour_bits = (1 << game.colors) - 1

    # -- what a node needs ------------------------------------------------------
    def candidates(self, S: np.ndarray, sym: Symmetry | None) -> np.ndarray:
        """The guesses worth scoring on ``S``: one per class of ``sym``, less those
        merged with another (colours no secret of ``S`` has)."""
        if sym is None:
            return self.every_guess
        cands = sym.classes()
        if self.merge:
            cands = merge_dead_colours(self.gmask, self.smask, cands, S, self.merged)
        return np.ascontiguousarray(cands, dtype=np.int64)

    def parts(self, S: np.ndarray, guess: int) -> list[np.ndarray]:
        """The parts ``guess`` makes of ``S`` besides the win, largest first."""
        return parts_by(self.fb[guess], S, self.win, self.n_replies)

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
        twin.met = None if self.met is None else np.empty_like(self.met)
        twin.sizes = np.empty_like(self.sizes)
        twin.sets = twin.solved_sets = 0
        twin.searcher = twin.journal = None
        return twin

    def learn(self, S: np.ndarray, bound: int, depth: int) -> None:
        """Keep ``bound`` for ``S`` (complete for ``depth``) if it is better."""
        key = S.tobytes()
        old = self.known.get(key)
        if old is not None:
            if old[0] >= bound and old[1] >= depth:
                return
            bound, depth = max(bound, old[0]), max(depth, old[1])
        self.known[key] = (bound, depth)
        if self.journal is not None and len(S) >= KEEP_FROM:
            self.journal.append((S, bound, depth))

    def learned(self, since: int = 0) -> Learned:
        """The journal's entries from ``since`` on, packed."""
        return Learned.of(self.journal[since:] if self.journal is not None else [])

    def learn_all(self, learned: Learned) -> None:
        """Keep the bounds of ``learned`` (from a checkpoint, or another bounder;
        not written down again)."""
        journal, self.journal = self.journal, None
        try:
            for S, bound, depth in learned.sets():
                self.learn(S, bound, depth)
        finally:
            self.journal = journal

    # -- the bound --------------------------------------------------------------
    def bound(self, S: np.ndarray, d: int, cap: int = INF, sym: Symmetry | None = None,
              most: int | None = None, part: bool = False) -> tuple[int, int]:
        """``(bound, depth)``: a lower bound on the cost of the sorted set ``S`` at
        least its bound at depth ``d`` (``depth`` >= ``d``), or one at least ``cap``,
        or, when stopped, the best so far (``depth`` -1).  ``most``: the most parts
        a guess makes of ``S`` (or of a set it came from).  ``part``: ``S`` is a part
        after the first guess, which gets its exact optimum at depth 1 or more when it
        has at most ``exact.parts`` secrets (as every set of at most ``exact.below`` at
        depth 2 or more)."""
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
        if d >= 2 and n <= self.exact.below or d >= 1 and part and n <= self.exact.parts:
            return self.solved(S, d, cap, sym, lb, most)
        cands = self.candidates(S, sym)
        if d == 1:
            b = max(self.one_level(S, cands, most, lb), lb)
            depth = EXACT if b == 2 * n - 1 else 1
            self.learn(S, b, depth)
            return b, depth
        return self.refine(S, d, cap, sym, cands, lb, most)

    def one_level(self, S: np.ndarray, cands: np.ndarray, most: int, floor: int) -> int:
        """The least bound of a split of ``S`` by one of the guesses ``cands`` (or at
        most ``floor``, no less can be): :meth:`bound` at depth 1.  A small set tries
        its own secrets first: one of them often splits it to the floor."""
        n = len(S)
        if n < SCAN_FROM:
            first = self.as_guess[S]
            first = first[first >= 0]
            rest = cands if self.met is None else cands[:0]
            b = int(least_split_bound(S, first, rest, self.fb, self.lbtab[most], self.win,
                                      self.n_replies, floor))
            if b <= floor or self.met is None:
                return b
            return min(b, int(least_bound_scanned(self.fbT, S, cands, self.lbtab, most, False,
                                                  self.win, self.met, self.sizes)[0]))
        if self.met is None or n > BITS_PER_PART * (most + 1):
            rows, most = self.split_bounds(S, cands, most)
            return max(int(rows[0].min()), int(self.lbtab[most][n]))
        b, most = least_bound_scanned(self.fbT, S, cands, self.lbtab, most, True, self.win,
                                      self.met, self.sizes)
        return max(int(b), int(self.lbtab[most][n]))

    def solved(self, S: np.ndarray, d: int, cap: int, sym: Symmetry | None, lb: int,
               most: int) -> tuple[int, int]:
        """``(bound, depth)`` of ``S`` (asked at depth ``d``, by a set of at most ``most``
        parts) by the exact search under the limit ``cap``: its
        optimum (complete at every depth), or a bound of at least ``cap`` (complete
        for depth 0 alone); when stopped, ``lb`` (depth -1).  A set bounded before
        (most often: its search under a lower cap fell short) is searched without a
        limit: a set that comes back once comes back again, and each search starts
        afresh (:data:`AGAIN_UNLIMITED`).  The symmetry group ``sym`` of the history and the
        colours it played go to the search (None: no symmetry, every colour played)."""
        from ..runner import Stopped

        if self.searcher is None:
            from ..search.subsets import Exact

            self.searcher = Exact(self.game, None, self.stop, (self.fb, self.fbT))
            if hasattr(self.stop, "also"):  # a run's stop halts the search under way
                self.stop.also(self.searcher.halt)
        if sym is None or not sym.enabled:
            group, played = Symmetry.of(self.game, False), self.colour_bits
        else:
            group, played = sym, sum(1 << c for c in np.flatnonzero(sym.played).tolist())
        if AGAIN_UNLIMITED and S.tobytes() in self.known:
            cap = INF
        try:
            found = self.searcher.cost(S, 0, group, played, cap)
        except Stopped:
            return lb, -1
        if found is None:  # (a secret that is no guess: no exact search)
            return self.refine(S, d, cap, sym, self.candidates(S, sym), lb, most)
        self.solved_sets += 1
        cost = max(int(found), lb)
        if cost >= cap:  # it costs at least cap: enough for the caller
            self.learn(S, cost, 0)
            return cost, 0
        self.learn(S, cost, EXACT)
        return cost, EXACT

    def share(self, S: np.ndarray, d: int, cap: int, sym: Symmetry | None, share: int,
              shares: int, most: int | None = None) -> tuple[int, int]:
        """``(bound, depth)`` of ``S`` at depth ``d`` >= 2 over share ``share`` of
        ``shares`` of its guesses alone (every ``shares``-th, in the order of their
        one-level bounds): as :meth:`bound`, but a bound of the guesses of the share,
        not of ``S`` (not kept).  The least over the shares is the bound of ``S``:
        several workers bound one large set side by side."""
        cands = self.candidates(S, sym)
        rows, most = self.split_bounds(S, cands, self.most if most is None else most)
        ours = np.sort(np.lexsort((rows[2], rows[0]))[share::shares])
        self.sets += 1
        return self.refine(S, d, cap, sym, cands[ours], int(self.lbtab[most][len(S)]), most,
                           rows[:, ours])

    def refine(self, S, d, cap, sym, cands, lb, most, share=None) -> tuple[int, int]:
        """:meth:`bound` at depth ``d`` >= 2: best first over the guesses ``cands``;
        for a :meth:`share` of them, ``share`` holds their rows of :meth:`split_bounds`
        (``most`` counted over all guesses), and the bound is not kept for ``S``."""
        n = len(S)
        if share is None:
            (lbg, nparts, sq, cons), most = self.split_bounds(S, cands, most)
        else:
            lbg, nparts, sq, cons = share
        lbt = self.lbtab[most]
        lb = max(lb, int(lbt[n]))
        perfect = np.flatnonzero((nparts == n - 1) & (cons == 1))
        if len(perfect):  # (the least any set of n costs: a bound of S itself)
            self.learn(S, 2 * n - 1, EXACT)
            return 2 * n - 1, EXACT
        under = np.flatnonzero(lbg < cap)  # the guesses worth a look
        heap = list(zip(lbg[under].tolist(), sq[under].tolist(), under.tolist()))
        if len(under) < len(cands):  # the least bound of the others (never taken)
            heap.append((int(lbg[lbg >= cap].min()), INF, -1))
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
        if share is None:
            self.learn(S, result, depth)
        return result, depth

