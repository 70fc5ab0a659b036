"""Search beyond one step, for games too large for exact search (MM(5,8)).

At a node, the builder takes the ``width`` best guesses of a one-step rule
(its shortlist), completes the subtree under each greedily, and keeps the
guess whose completed subtree needs the fewest guesses in total (ties: the
fewest in the worst case, then the rule's order).  It then does the same in
every part below the kept guess, with the width of the next level.  Where the
widths run out, the greedy completion is kept as it is.

Since the shortlist always holds the rule's own choice, whose completion is
the greedy subtree, no node ever gets worse than greedy: the total only goes
down as the widths grow.  The cost is about ``width`` greedy builds of the
whole game per level searched, so the widths trade time for quality:

===================  ==============================================
``widths``           what it means
===================  ==============================================
``(8,)``             best of 8 openings, greedy after
``(8, 8, 4)``        8 at the first two levels, 4 at the third
``(16, 8, 8, 4, 2)`` a long run
===================  ==============================================

The completions need not be greedy: with ``complete`` (widths, e.g. ``(3,)``),
every part of more than ``complete_above`` secrets below a shortlisted guess is
completed by a lookahead of those widths (itself completing greedily), so the
guesses near the root are judged by better subtrees than greedy ones, at a
price of about the inner width per such part.

With ``finalists`` (numbers by level), the cheapest few guesses of a
shortlist are each searched in full below and the best searched subtree is
kept, so that the guesses near the root are judged by the subtrees the search
makes of them, not by their completions alone.  With ``max_guesses``, subtrees
that keep every secret within that many guesses are preferred to any that do
not, in every choice.  With ``exact_below``, the small sets below the guesses
kept get optimal subtrees from the exact search
(:class:`~strategytree.search.subsets.Exact`) instead of searched ones.

Given a ``distributed.Client``, the same search runs on a Dask cluster: the
completions of the shortlists and the searches of the smaller parts below a
kept guess are tasks (:class:`_OnCluster`), and the tree is the in-process one.

>>> from strategytree.game import mastermind
>>> from strategytree.verify import verify
>>> game = mastermind(3, 4)
>>> greedy = verify(build_lookahead(game, widths=()), game).total
>>> deeper = verify(build_lookahead(game, widths=(4, 4)), game).total
>>> deeper <= greedy
True
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from . import checkpoint as saved_runs
from . import feedback
from .builders import GreedyChooser, Grown, grow_greedy, parse_rules
from .errors import ArgumentError, StrategyTreeError
from .game import Game, Reply
from .progress import Progress, ProgressCallback
from .symmetry import Symmetry
from .tree import Node, Strategy
from .words import plural

__all__ = ["build_lookahead", "parse_widths"]


def parse_widths(text: str, *, argument: str = "widths", least: int = 1,
                 every: int | None = None) -> tuple[int, ...]:
    """Widths written as text, ``8,8,4``, as numbers (each at least ``least``;
    with ``every``, ``all`` stands for it); an error names the text as ``argument``.

    >>> parse_widths("8, 8,4")
    (8, 8, 4)
    """
    items = text.split(",")
    named = {argument: text}
    if text.strip() and not all(w.strip() for w in items):
        raise ArgumentError(f"{{{argument}}}: a width is missing between two commas", **named)
    try:
        widths = tuple(every if every is not None and w.strip() == "all" else int(w)
                       for w in items if w.strip())
    except ValueError:
        other = "" if every is None else ", or all"
        raise ArgumentError(f"{{{argument}}}: expected numbers such as 8,8,4{other}", **named) from None
    if any(w < least for w in widths):
        raise ArgumentError(f"{{{argument}}}: every width must be at least {least}", **named)
    return widths


@dataclass
class _Count:
    """How far a lookahead build has got."""

    nodes: int = 0
    """nodes decided by search so far"""
    completions: int = 0
    """greedy completions built so far"""
    saved: int = 0
    """guesses saved so far against the greedy subtrees they replaced"""
    started: float = 0.0
    """``time.perf_counter()`` at the start"""
    tasks: Callable[[], str] | None = None
    """the tasks of a run on a cluster, in words (None: in-process)"""

    def progress(self) -> Progress:
        """The count as a :class:`~strategytree.progress.Progress`."""
        tasks = "" if self.tasks is None else f", {self.tasks()}"
        return Progress(
            self.nodes, None, "nodes searched", time.perf_counter() - self.started,
            detail=f"{plural(self.completions, 'completion')}, "
            f"{plural(self.saved, 'guess')} saved{tasks}",
        )


#: seconds between two saves of a checkpoint
CHECKPOINT_EVERY = 5.0
#: with ``complete``: the parts of more than this many secrets get the inner search
COMPLETE_ABOVE = 400


def build_lookahead(
    game: Game,
    rule: str = "entropy",
    widths: Sequence[int] = (8, 4),
    *,
    symmetry: bool = True,
    progress: ProgressCallback | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    also: Sequence[str] | str = (),
    client: object | None = None,
    complete: Sequence[int] | str = (),
    complete_above: int = COMPLETE_ABOVE,
    max_guesses: int | None = None,
    finalists: Sequence[int] | str = (),
    exact_below: int = 0,
) -> Strategy:
    """A strategy for ``game`` found by searching the ``widths[d]`` best guesses
    of ``rule`` at depth ``d`` (see the module doc).

    With ``checkpoint``, every decision is saved to that file (atomically, every
    few seconds and when interrupted) and a run with the same file, game, rule
    and widths takes the decisions already made instead of searching again.

    ``also`` names more rules (or lists them as text, ``parts,expected``):
    their best guesses join the shortlist, and each part below a guess is
    completed by every rule, keeping the cheapest completion (slower by about
    the number of rules, never worse).

    ``progress`` is called after each node decided by search, with the nodes
    decided so far (its detail: completions built, guesses saved).

    ``complete`` (widths, or text ``3`` / ``4,2``): the parts of more than
    ``complete_above`` secrets are completed by a lookahead of those widths
    instead of greedily (slower, judges the guesses near the root better).

    ``max_guesses`` (K): subtrees that keep every secret within K guesses are
    preferred to any that do not, whatever their totals (a subtree needing more
    is kept only where no candidate fits: a soft limit; the verifier tells the
    worst case of the tree built).

    ``finalists`` (numbers by level, or text ``3,2``): at level ``d`` the
    ``finalists[d]`` cheapest guesses of the shortlist (by their completions)
    are each searched in full below, and the best searched subtree is kept,
    where otherwise only the cheapest is searched (1 beyond the list): the
    guesses near the root judged by the subtrees the search makes of them, at
    the price of a full search below each finalist.

    ``exact_below`` (N): every set of at most N secrets that the search
    reaches below a guess kept, at any level, gets an optimal subtree from the
    exact search (:class:`~strategytree.search.subsets.Exact`: every allowed guess,
    the history's symmetry group, within ``max_guesses``) instead of a searched
    or greedy one (never worse; the completions that judge the guesses stay
    greedy).  Sets of a few hundred secrets of MM(5,8) take about a second each.

    ``client`` (a ``distributed.Client``): the completions of the shortlists
    near the root, and the searches of the smaller parts below the guesses
    kept, run as tasks on its Dask cluster (:class:`_OnCluster`); the tree is
    the in-process run's, and progress also counts the tasks done, running
    and queued.
    """
    settings = _Settings.of(widths, complete, complete_above, max_guesses, finalists,
                            exact_below)
    if isinstance(also, str):
        also = parse_rules(also, argument="also")
    chooser = GreedyChooser(game, rule, symmetry=symmetry)
    others = [GreedyChooser(game, other, symmetry=symmetry) for other in also]
    if chooser.randomised or any(other.randomised for other in others):
        if chooser.randomised:
            raise ArgumentError("the search needs a rule that scores guesses, not {rule}", rule=rule)
        raise ArgumentError(
            "the search needs rules that score guesses, not {also}", also=",".join(also)
        )
    state = _Count(started=time.perf_counter())
    rules = "+".join([chooser.rule, *(other.rule for other in others)])
    saved = _Decisions(checkpoint, game, rules, settings) if checkpoint else None
    search = _Search(chooser, settings, state, progress, saved, others)
    secrets = np.arange(len(game.secrets))
    try:
        if client is not None:
            root = _OnCluster(client, search, symmetry).run(secrets, chooser.root_symmetry()).node
        else:
            root = search.subtree(secrets, chooser.root_symmetry(), 0).node
    finally:
        if saved is not None:
            saved.save()
    return Strategy(root, source=f"<lookahead {rules} {settings.text()} {game.name}>")


@dataclass(frozen=True)
class _Settings:
    """What a lookahead searches (beyond its rules): the same for the driver,
    its checkpoint and its workers."""

    widths: tuple[int, ...]
    """the shortlist's width at each level"""
    inner: tuple[tuple[int, ...], int] | None = None
    """``complete``'s widths and ``complete_above`` (None: greedy completions)"""
    max_guesses: int | None = None
    """the soft limit on guesses (None: none): see :meth:`_Search.rank`"""
    finalists: tuple[int, ...] = ()
    """how many of a shortlist's cheapest guesses are searched in full, by level"""
    exact_below: int = 0
    """the sets of at most this many secrets below a guess kept are solved exactly (0: none)"""

    @classmethod
    def of(cls, widths: Sequence[int] | str, complete: Sequence[int] | str = (),
           complete_above: int = COMPLETE_ABOVE, max_guesses: int | None = None,
           finalists: Sequence[int] | str = (), exact_below: int = 0) -> _Settings:
        """:func:`build_lookahead`'s arguments read (text too) and checked."""
        widths, complete, finalists = (
            parse_widths(value, argument=name) if isinstance(value, str) else value
            for name, value in (("widths", widths), ("complete", complete),
                                ("finalists", finalists)))
        if any(int(w) < 1 for w in (*widths, *complete, *finalists)):
            raise StrategyTreeError("every width must be at least 1")
        _check_whole(complete_above, 2, complete_above=complete_above)
        if max_guesses is not None:
            _check_whole(max_guesses, 1, max_guesses=max_guesses)
        _check_whole(exact_below, 0, exact_below=exact_below)
        inner = (tuple(int(w) for w in complete), int(complete_above)) if complete else None
        return cls(tuple(int(w) for w in widths), inner, max_guesses,
                   tuple(int(k) for k in finalists), exact_below)

    @property
    def searched(self) -> bool:
        """Whether more than the cheapest guess is searched at some level."""
        return any(k > 1 for k in self.finalists)

    def header(self) -> dict[str, object]:
        """The settings in a checkpoint's header (the options left out where
        not used: the checkpoints of earlier runs stay usable)."""
        header: dict[str, object] = {"widths": list(self.widths)}
        if self.inner is not None:
            header["complete"] = [list(self.inner[0]), self.inner[1]]
        if self.max_guesses is not None:
            header["max_guesses"] = self.max_guesses
        if self.searched:
            header["finalists"] = list(self.finalists)
        if self.exact_below:
            header["exact_below"] = self.exact_below
        return header

    def text(self) -> str:
        """The settings in words, for a strategy's source."""
        text = ",".join(str(w) for w in self.widths) or "greedy"
        if self.inner is not None:
            text += f" completed by {','.join(map(str, self.inner[0]))} above {self.inner[1]}"
        if self.searched:
            text += f" finalists {','.join(map(str, self.finalists))}"
        if self.exact_below:
            text += f" exact below {self.exact_below}"
        if self.max_guesses is not None:
            text += f" within {self.max_guesses}"
        return text

    def completing(self) -> _Settings | None:
        """The settings of the search that completes the big parts (None: none)."""
        return None if self.inner is None else _Settings(self.inner[0], max_guesses=self.max_guesses)


def _check_whole(value: object, least: int, **named: object) -> None:
    """:class:`ArgumentError` unless ``value`` is a whole number of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        name = next(iter(named))
        raise ArgumentError(f"{{{name}}} must be a whole number of at least {least}", **named)


class _Decisions:
    """The decisions of a lookahead run, kept in a checkpoint between runs
    (:mod:`strategytree.checkpoint`: a header naming the run, then records of
    ``keys`` (the level and a digest of the secrets, 14 bytes a row) and
    ``decisions`` (the guess kept); each save appends the new decisions)."""

    def __init__(self, path: str | os.PathLike[str], game: Game, rule: str,
                 settings: _Settings) -> None:
        self.header = {
            "search": "lookahead",
            "pegs": game.pegs,
            "colors": game.colors,
            "scoring": game.scoring,
            # the game's codes and replies, not its name, say which game it is
            "codes": game.digest,
            "rule": rule,
            **settings.header(),
        }
        self.file = saved_runs.Checkpoint(path, self.header)
        self.decisions: dict[bytes, int] = {}
        self.new: list[tuple[bytes, int]] = []
        self.last = time.perf_counter()
        arrays = saved_runs.load(path, self.header)
        self.started = arrays is not None
        """True once the file holds the header (the first save writes it)"""
        if arrays:
            keys, decisions = arrays.get("keys"), arrays.get("decisions")
            if keys is None or decisions is None or len(keys) != len(decisions):
                raise saved_runs.CheckpointError(
                    f"{path}: a damaged lookahead checkpoint (its keys and decisions differ); "
                    "use another file"
                )
            self.decisions = {bytes(k): int(g) for k, g in zip(keys, decisions.tolist())}

    @staticmethod
    def key(secrets: np.ndarray, level: int) -> bytes:
        return level.to_bytes(2, "little") + hashlib.blake2b(secrets.tobytes(), digest_size=12).digest()

    def note(self, key: bytes, guess: int) -> None:
        self.decisions[key] = guess
        self.new.append((key, guess))
        if time.perf_counter() - self.last > CHECKPOINT_EVERY:
            self.save()

    def save(self) -> None:
        if self.new:
            if self.started:
                self.file.append(self._arrays(self.new))
            else:
                self.file.rewrite(self._arrays(self.new))
                self.started = True
            self.new = []
        self.last = time.perf_counter()

    @staticmethod
    def _arrays(items: list[tuple[bytes, int]]) -> dict[str, np.ndarray]:
        keys = np.frombuffer(b"".join(k for k, _ in items), dtype=np.uint8).reshape(len(items), 14)
        return {"keys": keys, "decisions": np.array([g for _, g in items], dtype=np.int64)}


class _Search:
    def __init__(
        self,
        chooser: GreedyChooser,
        settings: _Settings,
        state: _Count,
        progress: ProgressCallback | None,
        checkpoint: _Decisions | None = None,
        others: Sequence[GreedyChooser] = (),
    ) -> None:
        self.checkpoint = checkpoint
        self.settings = settings
        completing = settings.completing()
        self.inner = None if completing is None else _Search(chooser, completing, _Count(), None,
                                                             None, others)
        """the search that completes the parts of more than ``above`` secrets"""
        self.above = settings.inner[1] if settings.inner is not None else 0
        self.chooser = chooser
        self.choosers = [chooser, *others]
        self.game = chooser.game
        self.state = state
        self.progress = progress
        self.replies = [self.game.reply(code) for code in range(self.game.n_replies)]
        self.exact = None
        """the exact search of the small sets (with ``exact_below``)"""
        if settings.exact_below:
            from .search.subsets import Exact

            self.exact = Exact(self.game, settings.max_guesses, threading.Event())

    def parts(self, secrets: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """The secrets split by their reply to ``guess``, highest reply first."""
        from . import grouping

        out = np.empty(len(secrets), dtype=np.int8)
        replies = feedback.replies_into(self.game, guess, secrets, out)
        return [(code, secrets[group]) for code, group in grouping.group_by_reply(replies, self.game.n_replies)]

    def complete(self, secrets: np.ndarray, sym: Symmetry, guess: int, played: int
                 ) -> list[tuple[int, Grown | None]]:
        """Each part below ``guess`` (played after ``played`` guesses), with its
        completion (None for the win)."""
        after = sym.after(self.game.guesses[guess])
        done = []
        for code, part in self.parts(secrets, guess):
            if code == self.game.win:
                done.append((code, None))
            elif len(part) == len(secrets):
                return []  # the guess does not split: never the best
            else:
                done.append((code, self.completion(part, after, played + 1)))
        return done

    def completion(self, secrets: np.ndarray, sym: Symmetry, played: int) -> Grown:
        """The subtree that completes a part (after ``played`` guesses): the inner
        search's for a big part (with ``complete``), else the cheapest greedy subtree."""
        if self.inner is None or len(secrets) <= self.above:
            return self.greedy(secrets, sym, played)
        inner = self.inner.state
        before = inner.completions
        grown = self.inner.subtree(secrets, sym, 0, played)
        self.state.completions += inner.completions - before
        return grown

    def greedy(self, secrets: np.ndarray, sym: Symmetry, played: int) -> Grown:
        """The cheapest greedy subtree of the rules for these secrets (after
        ``played`` guesses; see :meth:`rank`)."""
        best = None
        for chooser in self.choosers:
            grown = grow_greedy(chooser, secrets, sym)
            self.state.completions += 1
            if best is None or self.rank(grown.total, grown.depth, played) \
                    < self.rank(best.total, best.depth, played):
                best = grown
        assert best is not None
        return best

    def rank(self, total: int, depth: int, played: int) -> tuple[bool, int, int]:
        """What a subtree of ``total`` and ``depth`` guesses after ``played``
        is judged by, least first: beyond the settings' ``max_guesses`` or not, its total,
        its depth."""
        over = self.settings.max_guesses is not None and played + depth > self.settings.max_guesses
        return over, total, depth

    @staticmethod
    def cost(secrets: np.ndarray, below: list[tuple[int, Grown | None]]) -> tuple[int, int]:
        """(total, worst case) of the subtree: this guess, then the parts."""
        total = len(secrets)
        depth = 1
        for _, grown in below:
            if grown is not None:
                total += grown.total
                depth = max(depth, grown.depth + 1)
        return total, depth

    def width(self, level: int) -> int:
        """The shortlist's width at ``level`` (1 below the widths: greedy)."""
        widths = self.settings.widths
        return widths[level] if level < len(widths) else 1

    def deeper(self, part: np.ndarray, level: int) -> bool:
        """Whether a part below a node of ``level`` is searched at ``level + 1``
        (or solved exactly)."""
        return (self.width(level + 1) > 1 or self.solvable(part)) and len(part) > 2

    def solvable(self, secrets: np.ndarray) -> bool:
        """Whether the exact search solves this set (``exact_below``)."""
        return self.exact is not None and 2 < len(secrets) <= self.settings.exact_below

    def solved(self, secrets: np.ndarray, sym: Symmetry, played: int) -> Grown | None:
        """An optimal subtree for a :meth:`solvable` set after ``played``
        guesses (None: none within ``max_guesses``, or an unusable game)."""
        from .search.bounds import INF

        colours = sum(1 << int(c) for c in np.flatnonzero(sym.played))
        found = self.exact.solve(secrets, played, sym, colours, INF)
        if found is None:
            return None
        total, node = found
        return Grown(node, int(total), Strategy(node).depth())

    def subtree(self, secrets: np.ndarray, sym: Symmetry, level: int, played: int | None = None
                ) -> Grown:
        """The searched subtree for ``secrets`` at ``level`` (0 at the root of
        the search) after ``played`` guesses (the level, unless a completion)."""
        played = level if played is None else played
        if self.solvable(secrets):
            solved = self.solved(secrets, sym, played)
            if solved is not None:
                return solved
        if self.width(level) <= 1 or len(secrets) <= 2:
            return self.completion(secrets, sym, played)
        key, known, shortlist = self.shortlist(secrets, sym, level)
        completed = [(guess, self.complete(secrets, sym, guess, played)) for guess in shortlist]
        built = []
        for guess, below in self.decide(secrets, key, known, completed, played, level):
            # search again below the guess, one level deeper
            after = sym.after(self.game.guesses[guess])
            searched = [
                self.subtree(part, after, level + 1, played + 1)
                if grown is not None and self.deeper(part, level) else None
                for (_, grown), (_, part) in zip(below, self.parts(secrets, guess))
            ]
            built.append((guess, self.assemble(secrets, guess, below, searched, played)))
        return self.keep(key, built, played)

    def shortlist(self, secrets: np.ndarray, sym: Symmetry, level: int
                  ) -> tuple[bytes, int | None, list[int]]:
        """The node's checkpoint key, its decision already known (None: not
        known), and the guesses to complete (the known one alone; else the first
        rule's choice first, whose completion is the greedy tree)."""
        key = _Decisions.key(secrets, level) if self.checkpoint is not None else b""
        known = self.checkpoint.decisions.get(key) if self.checkpoint is not None else None
        if known is not None:
            return key, known, [known]
        shortlist: list[int] = []
        for chooser in self.choosers:
            for guess in chooser.shortlist(secrets, sym, self.width(level)).tolist():
                if guess not in shortlist:
                    shortlist.append(guess)
        return key, known, shortlist

    def decide(
        self, secrets: np.ndarray, key: bytes, known: int | None,
        completed: list[tuple[int, list[tuple[int, Grown | None]]]], played: int, level: int,
    ) -> list[tuple[int, list[tuple[int, Grown | None]]]]:
        """The finalists of the shortlist's ``completed`` guesses: the
        ``finalists[level]`` (1 beyond the list) of least cost (:meth:`rank`; the
        first of equal cost first; an empty completion: a guess that does not
        split), cheapest first, each with its completion; counted, and a lone
        finalist noted in the checkpoint at once (the others: :meth:`keep`)."""
        ranked = sorted(
            ((self.rank(*self.cost(secrets, below), played), at, guess, below)
             for at, (guess, below) in enumerate(completed) if below),
            key=lambda item: item[:2],
        )
        assert ranked
        self.state.nodes += 1
        if known is None:  # against the first guess's completion: the greedy subtree
            greedy_total = min(ranked, key=lambda item: item[1])[0][1]
            self.state.saved += greedy_total - ranked[0][0][1]
        if self.progress is not None:
            self.progress(self.state.progress())
        finalists = self.settings.finalists
        many = finalists[level] if level < len(finalists) and known is None else 1
        if len(ranked) == 1 or many == 1:
            if self.checkpoint is not None:
                self.checkpoint.note(key, ranked[0][2])
        return [(guess, below) for _, _, guess, below in ranked[:many]]

    def keep(self, key: bytes, built: list[tuple[int, Grown]], played: int) -> Grown:
        """The best of the finalists' searched subtrees (``built``: each guess and
        its subtree; the first of least :meth:`rank`), noted in the checkpoint."""
        guess, grown = min(built, key=lambda item: self.rank(item[1].total, item[1].depth, played))
        if self.checkpoint is not None and len(built) > 1:
            self.checkpoint.note(key, guess)
        return grown

    def assemble(
        self, secrets: np.ndarray, guess: int, below: list[tuple[int, Grown | None]],
        searched: list[Grown | None], played: int,
    ) -> Grown:
        """The node of ``guess`` (after ``played`` guesses): below it each part's
        completion, or its ``searched`` subtree (None: not searched) where that
        ranks first (:meth:`rank`)."""
        branches: list[tuple[Reply, Node]] = []
        total, depth = len(secrets), 1
        for (code, grown), deeper in zip(below, searched):
            if grown is None:
                continue
            if deeper is not None and self.rank(deeper.total, deeper.depth, played + 1) \
                    < self.rank(grown.total, grown.depth, played + 1):
                self.state.saved += grown.total - deeper.total
                grown = deeper
            branches.append((self.replies[code], grown.node))
            total += grown.total
            depth = max(depth, grown.depth + 1)
        node = Node(_guess_text(self.game, guess), tuple(branches))
        return Grown(node, total, depth)


def _guess_text(game: Game, guess: int) -> str:
    return game.code_text(game.guesses[guess])


# -- on a Dask cluster ---------------------------------------------------------------------
#: a set of at least this many secrets is a node of the driver (its shortlist's
#: completions as tasks); a smaller one below the root is one task (its whole search)
SPLIT_MIN = 1000
#: the parts below a guess go to tasks in turn, a task taking parts until they hold
#: this many secrets (a bigger part: a task of its own)
PART_MIN = 2000


@dataclass(frozen=True)
class _Spec:
    """What a worker needs to build a lookahead's tables (see :mod:`strategytree.workers`)."""

    game: Game
    rules: tuple[str, ...]
    symmetry: bool
    settings: _Settings
    key: str


class _OnCluster:
    """Runs a lookahead on a Dask cluster: the nodes of at least :data:`SPLIT_MIN`
    secrets in the driver, the completions of their shortlists as tasks (a
    task taking a guess's parts in turn until they hold :data:`PART_MIN`
    secrets; the subtrees come back flat, and only those of the guess kept are
    rebuilt), and each smaller part below a guess kept as one task
    (:func:`subtree_task`: the in-process search of that part, the decisions it
    made sent back for the checkpoint).  Every node decides as the in-process
    search does, from the same completions: the same tree.  Each worker builds
    the game's tables and the rules' choosers once (:mod:`strategytree.workers`);
    a task carries its sets of secrets and the guesses played before them."""

    def __init__(self, client, search: _Search, symmetry: bool) -> None:
        from . import workers

        self.client = client
        self.search = search
        game = search.game
        rules = tuple(chooser.rule for chooser in search.choosers)
        key = game.run_key(rules, bool(symmetry), search.settings)
        self.cluster = workers.Run(client, _Spec(replace(game), rules, bool(symmetry),
                                                 search.settings, key))
        self.count = self.cluster.count
        self.known: object | None = None

    def run(self, secrets: np.ndarray, sym: Symmetry) -> Grown:
        """The searched tree of ``secrets`` (the root); a cluster that fails (its
        workers gone) raises :class:`~strategytree.errors.StrategyTreeError`."""
        import asyncio

        self.search.state.tasks = self.count.detail
        with self.cluster.installed():
            saved = self.search.checkpoint
            if saved is not None:  # the decisions known, once to every worker
                self.known = self.client.scatter([saved.decisions], broadcast=True)[0] \
                    if saved.decisions else {}
            grown = asyncio.run(self.subtree(secrets, sym, (), 0))
            if self.search.progress is not None:  # the last completions counted
                self.search.progress(self.search.state.progress())
            return grown

    async def subtree(self, secrets: np.ndarray, sym: Symmetry, history: tuple[int, ...],
                      level: int) -> Grown:
        """:meth:`_Search.subtree`, its completions and the searches below as tasks."""
        import asyncio

        s = self.search
        if s.solvable(secrets):  # on a worker, as the in-process search does
            if level == 0:
                return s.subtree(secrets, sym, level)
            return await self.subtree_task(secrets, history, level)
        if s.width(level) <= 1 or len(secrets) <= 2:
            return s.completion(secrets, sym, level)
        if level > 0 and len(secrets) < SPLIT_MIN:
            return await self.subtree_task(secrets, history, level)
        key, known, shortlist = s.shortlist(secrets, sym, level)
        completed = await asyncio.gather(*(self.complete(secrets, history, g) for g in shortlist))
        finalists = s.decide(secrets, key, known, list(zip(shortlist, completed)), level, level)
        built = await asyncio.gather(*(self.searched(secrets, sym, history, level, guess, below)
                                       for guess, below in finalists))
        return s.keep(key, list(built), level)

    async def searched(self, secrets: np.ndarray, sym: Symmetry, history: tuple[int, ...],
                       level: int, guess: int, below: list) -> tuple[int, Grown]:
        """A finalist ``guess`` and its subtree: the parts ``below`` it (packed
        completions) searched again one level deeper, side by side."""
        import asyncio

        s = self.search
        below = [(code, None if packed is None else _unpack(packed)) for code, packed in below]
        after = sym.after(s.game.guesses[guess])
        then = (*history, guess)
        parts = await asyncio.gather(*(
            self.subtree(part, after, then, level + 1) if grown is not None and s.deeper(part, level)
            else _none()
            for (_, grown), (_, part) in zip(below, s.parts(secrets, guess))
        ))
        return guess, s.assemble(secrets, guess, below, list(parts), level)

    async def complete(self, secrets: np.ndarray, history: tuple[int, ...], guess: int
                       ) -> list[tuple[int, Grown | None]]:
        """:meth:`_Search.complete`, the parts' greedy subtrees built by tasks."""
        import asyncio

        s = self.search
        parts = s.parts(secrets, guess)
        win = s.game.win
        if any(code != win and len(part) == len(secrets) for code, part in parts):
            return []  # the guess does not split: never the best
        batches: list[list[np.ndarray]] = [[]]
        for code, part in parts:
            if code != win:
                if sum(map(len, batches[-1])) >= PART_MIN:
                    batches.append([])
                batches[-1].append(part)
        then = (*history, guess)
        answers = await asyncio.gather(*(self.task(complete_task, batch, then)
                                         for batch in batches if batch))
        trees = iter([tree for packed, _ in answers for tree in packed])
        s.state.completions += sum(count for _, count in answers)
        return [(code, None if code == win else _Packed(*next(trees))) for code, part in parts]

    async def subtree_task(self, secrets: np.ndarray, history: tuple[int, ...], level: int
                           ) -> Grown:
        """The search of a small set, as one task; its decisions noted here."""
        packed, decisions, nodes, completions, saved = await self.task(
            subtree_task, secrets, history, level, self.known)
        grown = _unpack(packed)
        state = self.search.state
        state.nodes += nodes
        state.completions += completions
        state.saved += saved
        if self.search.checkpoint is not None:
            for key, guess in decisions:
                self.search.checkpoint.note(key, guess)
        return grown

    async def task(self, function: Callable, *args: object):
        """The answer of ``function(key, *args)`` run as a task (progress told when done)."""
        answer = await self.cluster.result(function, *args)
        if self.search.progress is not None:
            self.search.progress(self.search.state.progress())
        return answer


async def _none() -> None:
    """Nothing, as an awaitable (a part not searched again)."""
    return None


class _Noted:
    """A worker's view of the checkpoint: the decisions known, and those made."""

    def __init__(self, decisions: dict[bytes, int]) -> None:
        self.decisions = decisions
        self.new: list[tuple[bytes, int]] = []

    def note(self, key: bytes, guess: int) -> None:
        self.new.append((key, guess))


def _worker_search(key: str) -> tuple[_Search, dict]:
    """This worker thread's search of the run ``key`` (the game's tables built
    once per worker, the rules' choosers once per thread), and its memo of
    symmetry groups."""
    from . import workers

    def own(spec: _Spec, first: bool) -> _Search:
        choosers = [GreedyChooser(spec.game, rule, symmetry=spec.symmetry) for rule in spec.rules]
        return _Search(choosers[0], spec.settings, _Count(), None, None, choosers[1:])

    return workers.on_this_thread(key, lambda spec: spec, own)


def complete_task(key: str, parts: list[np.ndarray], history: tuple[int, ...]
                  ) -> tuple[list[tuple], int]:
    """Run on a worker: the greedy subtree (the cheapest of the rules') of each
    of ``parts`` after the guesses ``history`` (packed: :func:`_pack`), and the
    completions built."""
    from . import workers

    started = time.thread_time()
    search, groups = _worker_search(key)
    sym = workers.history_group(key, groups, history)
    search.state = _Count()
    trees = [_pack(search.completion(part, sym, len(history))) for part in parts]
    workers.SPENT[0] += time.thread_time() - started
    return trees, search.state.completions


def subtree_task(
    key: str, secrets: np.ndarray, history: tuple[int, ...], level: int,
    known: dict[bytes, int] | None,
) -> tuple[tuple, list[tuple[bytes, int]], int, int, int]:
    """Run on a worker: the searched subtree of ``secrets`` at ``level`` after
    the guesses ``history`` (packed: :func:`_pack`) (``known``: the checkpoint's decisions, None: no
    checkpoint); with the decisions made, the nodes searched, the completions
    built and the guesses saved."""
    from . import workers

    started = time.thread_time()
    search, groups = _worker_search(key)
    sym = workers.history_group(key, groups, history)
    search.state = _Count()
    noted = _Noted(known) if known is not None else None
    search.checkpoint = noted  # type: ignore[assignment]
    try:
        grown = search.subtree(secrets, sym, level)
    finally:
        search.checkpoint = None
    workers.SPENT[0] += time.thread_time() - started
    state = search.state
    return _pack(grown), noted.new if noted is not None else [], state.nodes, state.completions, state.saved


class _Packed(NamedTuple):
    """A subtree as flat lists (:func:`_pack`), faster to ship than its nodes."""

    guesses: list[str]
    """the guesses, in preorder"""
    numbers: list[int]
    """after each guess, its branch count and each branch's reply (two numbers)"""
    total: int
    """as :attr:`Grown.total`"""
    depth: int
    """as :attr:`Grown.depth`"""


def _pack(grown: Grown) -> tuple[list[str], list[int], int, int]:
    """A subtree as flat lists, faster to ship than its nodes: the guesses in
    preorder, and after each its branch count and each branch's reply (two numbers)."""
    guesses: list[str] = []
    numbers: list[int] = []
    todo = [grown.node]
    while todo:
        node = todo.pop()
        guesses.append(node.guess)
        numbers.append(len(node.branches))
        for reply, _ in node.branches:
            numbers.extend(reply)
        todo.extend(child for _, child in reversed(node.branches))
    return guesses, numbers, grown.total, grown.depth


def _unpack(packed: tuple[list[str], list[int], int, int] | _Packed) -> Grown:
    """The subtree :func:`_pack` flattened."""
    guesses, numbers, total, depth = packed
    replies: dict[tuple[int, int], Reply] = {}
    at = iter(numbers)
    texts = iter(guesses)

    def node() -> Node:
        guess = next(texts)
        branches = []
        for _ in range(next(at)):
            pair = next(at), next(at)
            reply = replies.get(pair)
            if reply is None:
                reply = replies[pair] = Reply(*pair)
            branches.append(reply)
        return Node(guess, tuple((reply, node()) for reply in branches))

    return Grown(node(), total, depth)
