"""The root of the total bound (:func:`~strategytree.bounds.total.total_lower_bound`):
the first guesses of a game (:class:`RootGuesses`) bounded deeper and deeper
(:class:`RootBound`), their parts bounded in runs (:func:`refine_parts`) by a
:class:`~strategytree.bounds.sets.SetBounder` in this process
(:class:`RootInProcess`) or in tasks on a Dask cluster
(:class:`~strategytree.bounds.tasks.RootOnCluster`, which builds on this module).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..counting import lower_bounds, parts_by_replies
from ..feedback import replies as reply_row
from ..game import Game
from ..runner import Slots, Stop, Stopped, until_stopped
from ..search.bounds import INF
from ..symmetry import Symmetry
from .sets import EXACT, NO_EXACT, ExactSets, Learned, SetBounder, parts_of

if TYPE_CHECKING:
    import asyncio

__all__ = ["PART_MIN", "SPLIT_FROM", "TASK_SECONDS", "Level", "RootBound", "RootGuesses",
           "RootInProcess", "refine_parts"]


class RootGuesses:
    """The first guesses of a game (one per class of its symmetry group), the
    sizes of the parts each makes of the secrets, and the parts themselves
    (:func:`parts_of`) when asked: worked out from the guesses' rows of replies
    (no reply table)."""

    def __init__(self, game: Game, symmetry: bool) -> None:
        self.game = game
        self.sym = Symmetry.of(game, symmetry)
        self.guesses = [int(g) for g in self.sym.classes()]
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
        lbt = lower_bounds(n, parts_by_replies(self.game))[0]
        return max(min(n + sum(int(lbt[k]) for k in sizes) for sizes in self.sizes),
                   int(lbt[n]))


#: a task takes a guess's parts, smallest first, until they hold this many secrets
PART_MIN = 256


#: a task of a run on a cluster stops after this many seconds, with the bounds it
#: proved (a part left incomplete is run again, from the sets its task learned):
#: what a run stopped loses, at most, on each worker.  An exact search under way
#: (``--exact-below``) ends first: it keeps nothing when stopped, so one stopped on
#: time would start again from nothing in the next task
TASK_SECONDS = 600.0

#: a part of the leading first guess of at least this many secrets (and more than
#: ``--exact-below``) is bounded by runs side by side, one per worker, each over a
#: share of the guesses that follow (:meth:`~strategytree.bounds.sets.SetBounder.share`):
#: the last large part of a level no longer leaves all workers but one waiting
SPLIT_FROM = 1000


def refine_parts(bounder: SetBounder, sym: Symmetry, parts: list[np.ndarray], d: int,
                 lead: int, nxt: int, cur: list[int], most: int,
                 seconds: float | None = None, share: tuple[int, int] | None = None
                 ) -> list[tuple[int, int, Learned]]:
    """Refine a first guess (bounded ``lead`` so far; the next guess ``nxt``) over
    its parts ``parts`` (sorted int32 indices, bounded ``cur`` so far), in turn, at
    depth ``d``: each part is held to the bound that would put the guess behind
    the next one, and the refinement stops as soon as it is, or after ``seconds``
    and the exact search under way, if any (the part under way then incomplete:
    depth -1).  Each part bounded's
    ``(bound, depth it is complete for, the bounds of large sets learned on the
    way)`` (:class:`~strategytree.bounds.sets.Learned`, for the checkpoint).
    ``share`` (w, k): one part, over share w of k of the guesses that follow
    (:meth:`~strategytree.bounds.sets.SetBounder.share`: a bound of that share)."""
    found = []
    bounder.journal = []
    timer = None
    if seconds is not None:
        timer = threading.Timer(seconds, bounder.stop.set)
        timer.daemon = True
        timer.start()
    try:
        for part, known in zip(parts, cur):
            since = len(bounder.journal)
            cap = nxt + 1 - (lead - known)
            if share is None:
                bound, reached = bounder.bound(part, d, cap, sym, most=most, part=True)
            else:
                bound, reached = bounder.share(part, d, cap, sym, *share, most=most)
            found.append((int(bound), int(reached), bounder.learned(since)))
            lead += bound - known
            if lead > nxt or bounder.stop.is_set():
                break
    finally:
        bounder.journal = None
        if timer is not None:  # (a stop of its own: cleared for the next task)
            timer.cancel()
            timer.join()
            bounder.stop.clear()
    return found


class Level(NamedTuple):
    """A depth of the root done, as a long run reports it (:attr:`RootBound.record`)."""

    depth: int
    """the depth done"""
    bound: int
    """the root's bound then"""
    sets: int
    """sets bounded so far (a count the machine's load does not change)"""
    seconds: float
    """seconds since the run started"""
    cpu_seconds: float
    """CPU seconds since the run started: this process's, and on a cluster the
    workers' in the tasks that finished"""


class RootBound:
    """The root of :func:`~strategytree.bounds.total.total_lower_bound`: the first
    guesses (:class:`RootGuesses`) bounded deeper and deeper, their parts bounded
    by :class:`~strategytree.bounds.sets.SetBounder` in this
    process (:class:`RootInProcess`) or in tasks on a Dask cluster
    (:class:`~strategytree.bounds.tasks.RootOnCluster`).

    At each depth ``d``, the guess of least bound has all its parts bounded at
    ``d - 1`` (smallest first, in runs of :data:`PART_MIN` secrets side by side),
    which makes its bound the best; every other guess is then raised, its parts
    in turn (smallest first: the cheapest gains) in one run, until its bound
    reaches the best, or bounded whole below it (then it is the best).  The
    runs of the other guesses go side by side, and start while the leading
    guess's last parts are still bounded (raised to its bound so far).  A worker
    freed goes to a run of the guess of least bound at that moment, whichever it
    is (:meth:`bounded`).  The least bound over the guesses is proved at every
    moment, so a run stopped (Ctrl-C, a time limit, a cluster that fails) still
    has one."""

    #: how many runs side by side bound one large part of the leading guess
    #: (:data:`SPLIT_FROM`): 1, none (in this process: one run at a time)
    shares = 1

    def __init__(self, game: Game, symmetry: bool, root: RootGuesses,
                 exact: ExactSets = NO_EXACT) -> None:
        self.game, self.guesses, self.exact = game, root, exact
        self.stop = Stop()
        self.counted = 0
        self.noted: Callable[[int, int, int, int, Learned], None] | None = None
        self.kept: dict[tuple[int, int], list[Learned]] = {}
        """the bounds of large sets learned in each part (first guess, part) so far"""
        n = len(game.secrets)
        self.n = n
        self.most = max(1, min(parts_by_replies(game), max(len(k) for k in root.sizes)))
        lbt = lower_bounds(n, self.most)[0]
        self.floor = int(lbt[n])
        self.cur = [[int(lbt[k]) for k in sizes] for sizes in root.sizes]
        self.done = [[EXACT if k <= 2 else 0 for k in sizes] for sizes in root.sizes]
        self.order = [sum(k * k for k in sizes) for sizes in root.sizes]
        self.perfect = any(len(sizes) == n - 1 and wins
                           for sizes, wins in zip(root.sizes, root.wins))
        self.best = INF  # the least bound of a guess bounded whole at the depth under way
        self.lead, self.depth = -1, 0  # the leading first guess, the depth its parts go to
        self.shared: list[int] = []  # the sizes of the parts split into shares (:meth:`split`)
        self.rose: asyncio.Event | None = None  # the leading guess's bound rose (:meth:`follow`)
        self.settled = False  # the leading guess's parts are whole at the depth under way
        self.root = max(root.one_level(), self.floor)
        """the root's bound so far"""
        self.record: list[Level] = []
        """each depth done in this run"""
        self.clock = (time.perf_counter(), time.process_time())
        """when the run started, and this process's CPU seconds then"""
        self.spent = 0.0  # CPU seconds of the tasks finished elsewhere (on a cluster)

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
        if len(self.shared) == 1:
            words += f" (one of {self.shared[0]:,} secrets in {self.shares} shares)"
        elif self.shared:
            words += (f" ({len(self.shared)} of {min(self.shared):,} to {max(self.shared):,}"
                      f" secrets in {self.shares} shares each)")
        if self.best < INF:
            raised = sum(1 for i in range(len(b)) if b[i] >= self.best)
            words += f", {raised}/{len(b)} first guesses at {self.best:,}"
        return words

    def words(self, reached: int, depth: int) -> str:
        """The bound so far and the depth done (``reached``, of ``depth``), with
        :meth:`detail` while deepening, in words (the progress's detail)."""
        words = f"bound {self.root:,} (depth {reached} done)"
        if self.detail() and reached < depth:
            words += "; " + self.detail()
        return words

    def learn_part(self, i: int, j: int, bound: int, depth: int,
                   learned: Learned | None = None) -> None:
        """Start from ``bound`` (complete for ``depth``) for part ``j`` of first guess
        ``i``, and from the bounds of its sets ``learned``."""
        self.cur[i][j] = max(self.cur[i][j], bound)
        self.done[i][j] = max(self.done[i][j], depth)
        if learned is not None and len(learned.rows):
            self.kept.setdefault((i, j), []).append(learned)

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
        complete), after :meth:`prepare`; stops early when :attr:`stop` is set."""
        import asyncio

        if self.perfect:
            self.root, reached[0] = 2 * self.n - 1, depth
            return
        try:
            self.prepare()
        except Stopped:  # stopped while preparing: the one-level bound stands
            return
        asyncio.run(self.levels(depth, reached))

    def prepare(self) -> None:
        """Build what the runs need (in the run's own thread: the reply table of a big
        game takes seconds, counted in its time and stopped by its stop)."""

    async def levels(self, depth: int, reached: list[int]) -> None:
        self.open_slots()
        for d in range(2, depth + 1):
            finished, _ = await until_stopped(self.level(d), self.stop.is_set)
            if not finished:
                return
            reached[0] = d
            self.record.append(Level(d, self.root, self.sets,
                                     round(time.perf_counter() - self.clock[0], 3),
                                     round(time.process_time() - self.clock[1] + self.spent, 3)))

    async def level(self, d: int) -> None:
        """Bound the root at depth ``d`` (see the class doc)."""
        import asyncio

        b = self.bounds()
        lead = min(range(len(b)), key=lambda i: (b[i], self.order[i], i))
        self.lead, self.depth = lead, d - 1
        self.best = INF
        others = sorted((i for i in range(len(b)) if i != lead), key=lambda i: b[i])
        first = [asyncio.ensure_future(self.settle(lead, batch, d - 1))
                 for batch in self.batches(lead, d - 1)]
        self.rose, self.settled = asyncio.Event(), False
        early = [asyncio.ensure_future(self.follow(i, d, lead))
                 for i in others]  # (behind the leading guess's runs for a worker)
        try:
            await asyncio.gather(*first)
            self.best = min(self.best, self.bounds()[lead])
            self.settled = True
            self.rose.set()
            await asyncio.gather(*early)
        finally:
            for task in first + early:
                task.cancel()
            await asyncio.gather(*first, *early, return_exceptions=True)
        await asyncio.gather(*(self.challenge(i, d, lambda: self.best) for i in others))
        self.root = max(self.root, self.best)

    async def follow(self, i: int, d: int, lead: int) -> None:
        """Raise first guess ``i`` to the leading guess's bound so far (:meth:`challenge`),
        and again each time it rises, until the leading guess's parts are whole: a
        level that ends on one large part keeps raising the root meanwhile."""
        while True:
            await self.challenge(i, d, lambda: min(self.bounds()[lead], self.best))
            if self.settled or not self.pending(i, d - 1):
                return
            self.rose.clear()
            await self.rose.wait()

    async def settle(self, i: int, batch: list[int], d: int) -> None:
        """Bound the parts ``batch`` of first guess ``i`` at depth ``d``, whole (a run
        that stopped on time is followed by another; a large part alone, by
        :meth:`split`)."""
        while todo := [j for j in batch if self.done[i][j] < d]:
            size = self.guesses.sizes[i][todo[0]]
            if (len(todo) == 1 and self.shares > 1 and d >= 2
                    and size >= SPLIT_FROM and size > max(self.exact)):
                await self.split(i, todo[0], d)
            else:
                await self.refine(i, todo, d, lambda: INF)

    async def split(self, i: int, j: int, d: int) -> None:
        """Bound part ``j`` of first guess ``i`` at depth ``d``, whole, by
        :attr:`shares` runs side by side, each over a share of the guesses that
        follow: the part's bound is the least over the shares, complete when a
        share bounded whole has it (the others are held to that, and stop there)."""
        import asyncio

        k = self.shares
        bound, whole = [self.cur[i][j]] * k, [False] * k
        self.shared.append(self.guesses.sizes[i][j])
        try:
            while (best := min((b for b, w in zip(bound, whole) if w), default=INF)) > min(bound):
                runs = [w for w in range(k) if not whole[w] and bound[w] < best]
                found = await asyncio.gather(*(self.share(i, j, d, (w, k), best) for w in runs))
                for w, (b, reached, _) in zip(runs, found):
                    bound[w], whole[w] = max(bound[w], b), reached >= d
                self.took(i, [j] * len(runs),
                          [(min(bound), -1, learned) for _, _, learned in found])
        finally:
            self.shared.remove(self.guesses.sizes[i][j])
        self.took(i, [j], [(best, d, None)])

    async def share(self, i: int, j: int, d: int, share: tuple[int, int], cap: int
                    ) -> tuple[int, int, Learned]:
        """One run of :meth:`split`: part ``j`` of first guess ``i`` over ``share``
        (w, k) of the guesses that follow, held to ``cap``."""
        found = await self.bounded(i, [j], d, lambda: (self.cur[i][j], cap - 1), share)
        assert found is not None  # (the shares run below the part's cap)
        return found[0]

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
        found = await self.bounded(i, batch, d, lambda: (self.bounds()[i], goal()))
        if found is None:
            return False
        self.took(i, batch, found)
        return True

    async def bounded(self, i: int, batch: list[int], d: int,
                      limits: Callable[[], tuple[int, int]],
                      share: tuple[int, int] | None = None
                      ) -> list[tuple[int, int, Learned]] | None:
        """One :meth:`run` on a free worker, its sets counted: ``limits()`` (the bound
        so far, the bound that stops the run), read once the worker is free; None when
        the first already passes the second (nothing to do).  A worker freed goes to
        the run of the first guess of least bound at that moment: the root's bound is
        that guess's, so it rises first (the guesses that follow the leading one wait
        behind its runs only while they are above it)."""
        await self.acquire(lambda: self.bounds()[i])
        try:
            lead, nxt = limits()
            if lead > nxt:
                return None
            found, sets = await self.run(i, batch, d, lead, nxt, share)
        finally:
            self.release()
        self.counted += sets
        return found

    def took(self, i: int, batch: list[int], found: list[tuple[int, int, Learned | None]]
             ) -> None:
        """Keep what a run found for the parts ``batch`` of first guess ``i`` (and note
        it for the checkpoint); a run stopped ends here."""
        import asyncio

        for j, (bound, reached, learned) in zip(batch, found):
            self.learn_part(i, j, bound, reached, learned)
            if self.noted is not None:
                self.noted(self.guesses.guesses[i], j, bound, reached, learned)
        if i == self.lead and self.rose is not None:
            self.rose.set()  # (the guesses that follow it go on)
        self.root = max(self.root, min(min(self.bounds()), self.best))
        if self.stop.is_set():
            raise asyncio.CancelledError

    # -- where the runs go (here: one at a time, in this process)
    #: runs side by side in this process: one (it has one thread for them; a cluster's
    #: runs are throttled by :data:`strategytree.workers.IN_FLIGHT` instead)
    IN_PROCESS = 1

    def open_slots(self) -> None:
        """Open the slots of the runs side by side, in the event loop under way."""
        self.slots = Slots(self.IN_PROCESS)

    async def acquire(self, priority: Callable[[], int]) -> None:
        """Wait for a free worker, the waiter of least ``priority()`` first."""
        await self.slots.acquire(priority)

    def release(self) -> None:
        """Free the worker taken by :meth:`acquire`."""
        self.slots.release()

    async def run(self, i: int, batch: list[int], d: int, lead: int, nxt: int,
                  share: tuple[int, int] | None = None
                  ) -> tuple[list[tuple[int, int, Learned]], int]:
        """:func:`refine_parts` of the parts ``batch`` of first guess ``i`` (over
        ``share`` of the guesses that follow, when given), and the sets bounded."""
        raise NotImplementedError


class RootInProcess(RootBound):
    """:class:`RootBound` with its parts bounded in this process, one run at a time."""

    def __init__(self, game: Game, symmetry: bool, root: RootGuesses,
                 exact: ExactSets = NO_EXACT) -> None:
        super().__init__(game, symmetry, root, exact)
        self.symmetry = symmetry
        self.bounder: SetBounder | None = None  # built by prepare, in the run's thread
        self.groups: dict[int, Symmetry] = {}

    def prepare(self) -> None:
        """The bounder, with the game's reply table (stopped by :attr:`stop`)."""
        if self.bounder is None:
            self.bounder = SetBounder(self.game, self.symmetry, stop=self.stop,
                                      exact=self.exact)
            for learned in self.kept.values():
                self.bounder.learn_all(Learned.join(learned))
            self.kept.clear()  # from now on the bounder learns them itself

    def learn_part(self, i: int, j: int, bound: int, depth: int,
                   learned: Learned | None = None) -> None:
        # the sets are kept (for the bounder) only until it exists: it has them all after
        super().learn_part(i, j, bound, depth, learned if self.bounder is None else None)

    @property
    def sets(self) -> int:
        return self.bounder.sets if self.bounder is not None else 0

    def detail(self) -> str:
        if self.bounder is None:
            return "building the table of replies"
        words = super().detail()
        if self.bounder.solved_sets:
            words += f", {self.bounder.solved_sets:,} sets searched exactly"
        return words

    async def run(self, i, batch, d, lead, nxt, share=None):
        g = self.guesses.guesses[i]
        if g not in self.groups:
            self.groups[g] = self.guesses.sym.after(self.game.guesses[g])
        parts = self.guesses.parts(i)
        found = refine_parts(self.bounder, self.groups[g], [parts[j] for j in batch], d, lead,
                             nxt, [self.cur[i][j] for j in batch], self.most, share=share)
        return found, 0
