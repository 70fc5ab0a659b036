"""Making any valid strategy better by searching its subtrees again.

:func:`improve` takes a strategy and returns one that is never worse (a lower
total; or the same total and a worst case no higher), by two kinds of work:

- **exact.**  Every subtree whose set of secrets has at most ``exact_below``
  secrets is solved again by the exact search (:mod:`strategytree.search`:
  every allowed guess, the history's symmetry group, the search's bounds),
  with the subtree's own total as the limit, so only a better subtree comes back;
  with ``max_guesses``, it keeps within that many guesses.
- **lookahead.**  At a larger node (the deepest first), the ``widths[level]``
  best guesses of each of several one-step rules are tried (entropy, expected,
  minimax, parts: :meth:`~strategytree.builders.GreedyChooser.shortlist`);
  each candidate's parts are completed by the exact search when small, else
  by the cheapest greedy subtree of the rules whose small subtrees are then
  solved exactly.  A candidate is dropped as soon as the lower bounds of its
  parts (:func:`~strategytree.search.lower_bounds`) show it cannot beat the
  subtree in place.  With ``finalists``, the candidates are first ranked by
  their parts' greedy subtrees (cheap), and only the best few are completed so:
  wide shortlists, where the best guess of a large set often ranks far down
  every rule's list (100th to 200th for the sets of 1,000 secrets of MM(5,8))
  but near the top of that ranking.  With ``deepen``, the large parts of the
  candidates so completed are searched again themselves (a lookahead of their
  own, whose large parts stay greedy): a candidate is judged by what its
  large parts can become, as the guess in place already was.

Passes repeat until one finds nothing or the budget is spent.  The run is
anytime: ``on_better`` receives the best strategy so far after improvements
(at most once a second, and at the end, also when stopped), and a checkpoint
keeps the best tree and the subtrees already tried, so a run resumes where it
stopped.  Ctrl-C raises KeyboardInterrupt once the best so far was handed over.

>>> from strategytree.builders import build_greedy
>>> from strategytree.game import mastermind
>>> from strategytree.verify import verify
>>> game = mastermind(3, 4)
>>> greedy = build_greedy(game, rule="minimax")
>>> better = improve(greedy, game, exact_below=20)
>>> verify(greedy, game).total, verify(better, game).total
(216, 206)
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from . import checkpoint as saved_runs
from .builders import GreedyChooser, grow_greedy
from .errors import ArgumentError, StrategyTreeError
from .game import Game
from .progress import Progress, ProgressCallback
from .runner import Stopped as Stop
from .search.subsets import Exact
from .symmetry import Symmetry
from .tree import Node, Strategy
from .verify import Report, verify

__all__ = [
    "DEFAULT_WIDTHS", "RULES", "ImproveError", "improvable", "improve", "improve_file",
    "improved_text", "parse_budget",
]

#: the rules whose best guesses are tried at a large node
RULES = ("entropy", "expected", "minimax", "parts")
#: the rules whose greedy subtrees complete a candidate's parts in the greedy pass
COMPLETERS = ("entropy", "parts")
#: candidates per rule at each level (a level beyond the list: its last width)
DEFAULT_WIDTHS = (4, 3, 2)
#: the default largest set solved exactly
DEFAULT_EXACT_BELOW = 200
#: at least this many seconds between two calls of ``on_better``
BETTER_EVERY = 1.0
#: seconds between two saves of a checkpoint
CHECKPOINT_EVERY = 10.0
#: what the progress counts
UNIT = "subtrees searched"


class ImproveError(StrategyTreeError):
    """A strategy that cannot be improved: it is not valid for the game."""

    def __init__(self, report: Report) -> None:
        super().__init__(f"{report.source}: not a valid strategy for {report.game}")
        self.report = report


def parse_budget(text: str | float | None) -> float | None:
    """A time budget as seconds: ``90``, ``90s``, ``30m``, ``2h`` (None: no limit).

    >>> parse_budget("30m"), parse_budget("1.5h"), parse_budget("45")
    (1800.0, 5400.0, 45.0)
    """
    if text is None or isinstance(text, (int, float)):
        return None if text is None else float(text)
    words = text.strip().lower()
    scale = {"s": 1, "m": 60, "h": 3600}.get(words[-1:], None)
    number = words[:-1] if scale else words
    try:
        seconds = float(number) * (scale or 1)
    except ValueError:
        raise ArgumentError("{budget}: expected a time such as 90s, 30m or 2h", budget=text) from None
    if not seconds > 0 or math.isinf(seconds):
        raise ArgumentError("{budget}: expected a time such as 90s, 30m or 2h", budget=text)
    return seconds


@dataclass
class Tally:
    """How far a run has got."""

    searched: int = 0
    """subtrees searched again so far"""
    saved: int = 0
    """guesses saved so far against the input"""
    best: int = 0
    """the best total so far"""
    where: str = ""
    """the node being worked on"""
    started: float = field(default_factory=time.perf_counter)

    def progress(self) -> Progress:
        """The tally as a :class:`~strategytree.progress.Progress`."""
        return Progress(
            self.searched, None, UNIT, time.perf_counter() - self.started, best=self.best,
            detail=f"{self.saved:,} guesses saved" + (f", at {self.where}" if self.where else ""),
        )


# -- the tree being improved ----------------------------------------------------------
class Index:
    """A subtree laid out for the search: per node its secrets, level, total and
    worst case, parent and children (indices), built top-down from ``root``."""

    def __init__(self, game: Game, root: Node, S: np.ndarray, level: int, sym: Symmetry,
                 played: int, masks: np.ndarray) -> None:
        self.game = game
        self.node: list[Node] = []
        self.sets: list[np.ndarray] = []
        self.level: list[int] = []
        self.parent: list[int] = []
        self.reply: list[int] = []
        self.guess: list[int] = []
        self.kids: list[list[int]] = []
        self.syms: dict[int, tuple[Symmetry, int]] = {0: (sym, played)}
        self.masks = masks
        todo = [(root, S, level, -1, -1)]
        while todo:
            node, S, level, parent, reply = todo.pop()
            i = len(self.node)
            g = int(game.guess_index(game.parse_code(node.guess))[0])
            self.node.append(node)
            self.sets.append(S)
            self.level.append(level)
            self.parent.append(parent)
            self.reply.append(reply)
            self.guess.append(g)
            self.kids.append([])
            if parent >= 0:
                self.kids[parent].append(i)
            for code, part in split(game, S, g):
                child = node.child(game.reply(code))
                if child is None:
                    raise StrategyTreeError(f"no branch for reply {game.reply(code)} to {node.guess}")
                todo.append((child, part, level + 1, i, code))
        n = len(self.node)
        self.total = [0] * n
        self.depth = [0] * n
        for i in range(n - 1, -1, -1):
            self.refresh(i)

    def refresh(self, i: int) -> None:
        """Work out node ``i``'s total and worst case from its children's."""
        kids = self.kids[i]
        self.total[i] = len(self.sets[i]) + sum(self.total[k] for k in kids)
        self.depth[i] = 1 + max((self.depth[k] for k in kids), default=0)

    def symmetry(self, i: int) -> tuple[Symmetry, int]:
        """The symmetry group of node ``i``'s history, and the colours it played (a mask)."""
        if i not in self.syms:
            sym, played = self.symmetry(self.parent[i])
            g = self.guess[self.parent[i]]
            self.syms[i] = (sym.after(self.game.guesses[g]), played | int(self.masks[g]))
        return self.syms[i]

    def history(self, i: int) -> tuple[int, ...]:
        """The guesses (indices) played before node ``i``, from this index's root."""
        played = []
        while self.parent[i] >= 0:
            i = self.parent[i]
            played.append(self.guess[i])
        return tuple(reversed(played))

    def replace(self, i: int, node: Node, total: int, depth: int) -> None:
        """Put ``node`` in the place of node ``i`` (its old subtree is forgotten)."""
        parent = self.parent[i]
        if parent >= 0:
            above = self.node[parent]
            above.branches = tuple(
                (r, node if child is self.node[i] else child) for r, child in above.branches
            )
        self.node[i] = node
        self.kids[i] = []
        self.total[i], self.depth[i] = total, depth
        while parent >= 0:
            self.refresh(parent)
            parent = self.parent[parent]

    def where(self, i: int) -> str:
        """Node ``i`` in words: its path of guesses and replies."""
        path = []
        while self.parent[i] >= 0:
            p = self.parent[i]
            path.append(f"{self.node[p].guess} {self.game.reply(self.reply[i])}")
            i = p
        return " / ".join(reversed(path)) or "the root"


def copy_tree(root: Node) -> Node:
    """A copy of the tree under ``root`` (the run changes its own copy only)."""
    top = Node(root.guess)
    todo = [(root, top)]
    while todo:
        old, new = todo.pop()
        branches = []
        for reply, child in old.branches:
            copy = Node(child.guess)
            branches.append((reply, copy))
            todo.append((child, copy))
        new.branches = tuple(branches)
    return top


ALL = 1 << 40
"""a level's count that takes every candidate (``all`` in the text of widths and finalists)"""


def per_level(counts: Sequence[int] | str, argument: str) -> tuple[int, ...]:
    """Counts given level by level (``4,3,2`` as text, or numbers), each at least 0;
    ``all`` in the text: every candidate (:data:`ALL`); none, or all 0: the empty tuple."""
    from .lookahead import parse_widths

    if isinstance(counts, str):
        counts = parse_widths(counts, argument=argument, least=0, every=ALL)
    counts = tuple(int(k) for k in counts)
    if any(k < 0 for k in counts):
        raise ArgumentError(f"{{{argument}}}: every count must be at least 0", **{argument: counts})
    return counts if any(counts) else ()


def deepening(counts: Sequence[int] | str) -> tuple[int, ...]:
    """``deepen`` as (width, finalists), each at least 1 (``50,5``); none: ()."""
    counts = per_level(counts, "deepen")
    if counts and (len(counts) != 2 or not all(counts)):
        raise ArgumentError("{deepen} must be a width and a count of finalists, each at least 1 "
                            "(e.g. 50,5)", deepen=counts)
    return counts


def at_level(counts: tuple[int, ...], level: int) -> int:
    """The count of ``level`` (a level beyond the list: its last; none: 0)."""
    return counts[min(level, len(counts) - 1)] if counts else 0


def split(game: Game, S: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
    """The secrets ``S`` split by their reply to ``guess``, without the win (reply order)."""
    replies = game.pair_replies(np.full(len(S), guess, dtype=np.int64), S)
    order = np.argsort(replies, kind="stable")
    replies, ordered = replies[order], S[order]
    starts = np.flatnonzero(np.r_[True, replies[1:] != replies[:-1]])
    ends = np.r_[starts[1:], len(S)]
    return [
        (int(replies[a]), ordered[a:b]) for a, b in zip(starts, ends)
        if int(replies[a]) != game.win
    ]


def set_key(S: np.ndarray, level: int, total: int, kind: int = 0) -> bytes:
    """What names a subtree already tried (18 bytes): the kind of search (0 exact
    or lookahead, 1 greedy), its level, its total, a digest of its secrets."""
    digest = hashlib.blake2b(np.ascontiguousarray(S, dtype=np.int64).tobytes(), digest_size=12)
    return bytes((kind, level)) + total.to_bytes(4, "little") + digest.digest()


def best_grown(choosers, S: np.ndarray, sym: Symmetry):
    """The greedy subtree of ``S`` with the least (total, depth) over ``choosers``
    (:func:`grow_greedy` with each; the first wins a tie)."""
    grown = [grow_greedy(chooser, S, sym) for chooser in choosers]
    return min(grown, key=lambda tree: (tree.total, tree.depth))


# -- the search ------------------------------------------------------------------------
class Searcher:
    """The searches of one run of :func:`improve` on a set of secrets: exact
    solving of the small subtrees of a layout, and the lookahead of one node
    (:meth:`research`).  :class:`Improver` uses it on the tree being improved;
    on a Dask cluster, each worker thread has one for the nodes it is sent."""

    index: Index | None = None
    """the whole tree being improved (:class:`Improver`; none on a worker)"""

    def __init__(self, game: Game, *, exact_below: int, rules: Sequence[str],
                 max_guesses: int | None, finalists: tuple[int, ...],
                 stop: threading.Event, tally: Tally, deepen: tuple[int, ...] = ()) -> None:
        from .bounds.counting import lower_bounds

        self.game = game
        self.exact_below = exact_below
        self.finalists = finalists
        self.deepen = deepen
        """(width, finalists) of the search of a candidate's large parts; () none"""
        self.deep = False
        """whether a large part is being searched (its own large parts are not)"""
        self.max_guesses = max_guesses
        self.stop = stop
        self.tally = tally
        self.exact = Exact(game, max_guesses, stop)
        self.choosers = [GreedyChooser(game, rule) for rule in rules]
        self.completers = [c for c in self.choosers if c.rule in COMPLETERS] or self.choosers[:1]
        self.done: set[bytes] = set()
        """the subtrees tried (:func:`set_key`): not searched again"""
        self.lock = threading.Lock()
        self.lbt = lower_bounds(len(game.secrets), max(game.n_replies - 1, 1))[0]

    def settings(self) -> dict:
        """The keyword settings this searcher was made with (for :meth:`sibling`
        and :class:`Spec`)."""
        return {"exact_below": self.exact_below,
                "rules": tuple(chooser.rule for chooser in self.choosers),
                "max_guesses": self.max_guesses, "finalists": self.finalists,
                "deepen": self.deepen}

    def sibling(self) -> Searcher:
        """A searcher with the same settings and tables of its own (for another thread)."""
        return Searcher(self.game, **self.settings(), stop=threading.Event(), tally=Tally())

    def index_of(self, root: Node, S: np.ndarray, level: int, sym: Symmetry, played: int) -> Index:
        """The subtree under ``root`` for the secrets ``S``, laid out (:class:`Index`)."""
        return Index(self.game, root, S, level, sym, played, self.exact.masks)

    def fits(self, level: int, depth: int) -> bool:
        """Whether a subtree ``depth`` deep after ``level`` guesses keeps within the limit."""
        return self.max_guesses is None or level + depth <= self.max_guesses

    def check(self) -> None:
        """Stop when asked."""
        if self.stop.is_set():
            raise Stop

    def small_tops(self, index: Index) -> list[int]:
        """The nodes with at most ``exact_below`` secrets whose parent has more, largest first."""
        tops = [
            i for i in range(len(index.node))
            if len(index.sets[i]) <= self.exact_below
            and (index.parent[i] < 0 or len(index.sets[index.parent[i]]) > self.exact_below)
        ]
        return sorted(tops, key=lambda i: -len(index.sets[i]))

    def solve_small(self, index: Index, limit: int | None = None) -> int:
        """Solve every small top of ``index`` exactly, here; the guesses saved.
        With ``limit``, give up once the lower bounds of the tops left show that
        the whole cannot get below it."""
        saved = 0
        tops = self.small_tops(index)
        slack = sum(index.total[i] - int(self.lbt[len(index.sets[i])]) for i in tops)
        for i in tops:
            self.check()
            if limit is not None and index.total[0] - slack >= limit:
                break
            slack -= index.total[i] - int(self.lbt[len(index.sets[i])])
            S, level, total = index.sets[i], index.level[i], index.total[i]
            if set_key(S, level, total) in self.done:
                continue
            if index is self.index:
                self.tally.where = f"{index.where(i)} ({len(S)} secrets)"
            sym, played = index.symmetry(i)
            saved += self.take(index, i, self.exact.solve(S, level, sym, played, total))
        return saved

    def take(self, index: Index, i: int, found: tuple[int, Node] | None) -> int:
        """Put the exact search's answer for node ``i`` (``(total, subtree)``, or
        None: nothing better) in place when it keeps within the guesses allowed;
        the guesses saved.  The node is noted as tried."""
        S, level, total = index.sets[i], index.level[i], index.total[i]
        self.tally.searched += 1
        key = set_key(S, level, total)
        saved = 0
        if found is not None:
            cost, node = found
            sym, played = index.symmetry(i)
            depth = Index(self.game, node, S, level, sym, played, self.exact.masks).depth[0]
            if self.fits(level, depth):
                with self.lock:
                    index.replace(i, node, cost, depth)
                saved = total - cost
                self.better(index)
                key = set_key(S, level, cost)
        self.done.add(key)
        return saved

    def better(self, index: Index) -> None:
        """Note an improvement of ``index`` (nothing to tell here)."""

    def candidates(self, S: np.ndarray, sym: Symmetry, width: int, skip: int) -> list[int]:
        """The ``width`` best guesses of each rule for ``S`` (each once, ``skip`` left out)."""
        found: list[int] = []
        for chooser in self.choosers:
            for g in chooser.shortlist(S, sym, width).tolist():
                if g != skip and g not in found:
                    found.append(g)
        return found

    def research(self, S: np.ndarray, level: int, sym: Symmetry, played: int, limit: int,
                 skip: int, width: int, exact: bool = True,
                 finalists: int | None = None) -> tuple[Node, int, int] | None:
        """A subtree for the secrets ``S`` after ``level`` guesses (``sym``, ``played``:
        their symmetry group and colours) whose total is below ``limit``: the best
        candidate of the rules other than ``skip`` (the guess in place), its parts
        completed (:meth:`complete`, greedily only unless ``exact``), as (subtree,
        total, worst case); None if none is below.  ``finalists``: the level's
        count of :meth:`shortlist` replaced."""
        best = None
        for g in self.shortlist(S, sym, level, width, skip, exact, finalists):
            found = self.with_guess(S, level, sym, played, g, limit, exact)
            if found is not None:
                best, limit = found, found[1]
        return best

    def with_guess(self, S: np.ndarray, level: int, sym: Symmetry, played: int, g: int,
                   limit: int, exact: bool = True) -> tuple[Node, int, int] | None:
        """The guess ``g`` at that node, its parts completed (:meth:`complete`, the
        smallest first, each under what the others' lower bounds leave of ``limit``),
        as (subtree, total, worst case) if its total is below ``limit`` (and it keeps
        within the guesses allowed); else None, as soon as that is certain.  The small
        parts' exact totals replace their loose bounds first, so the large ones are
        searched under tight limits and a losing guess is refuted sooner (figures in
        the README's record section)."""
        self.check()
        game = self.game
        parts = split(game, S, g)
        if any(len(part) == len(S) for _, part in parts):
            return None
        parts.sort(key=lambda item: len(item[1]))
        bound = len(S) + sum(int(self.lbt[len(part)]) for _, part in parts)
        if bound >= limit:
            return None
        child_sym = sym.after(game.guesses[g])
        child_played = played | int(self.exact.masks[g])
        branches, depth = [], 1
        for code, part in parts:
            least = int(self.lbt[len(part)])
            done = self.complete(part, level + 1, child_sym, child_played,
                                 limit - (bound - least), exact)
            if done is None:
                return None
            node, cost, part_depth = done
            bound += cost - least
            depth = max(depth, part_depth + 1)
            branches.append((code, node))
        if bound >= limit or not self.fits(level, depth):
            return None
        branches.sort(key=lambda item: -item[0])
        node = Node(game.code_text(game.guesses[g]),
                    tuple((game.reply(code), child) for code, child in branches))
        return node, bound, depth

    def shortlist(self, S: np.ndarray, sym: Symmetry, level: int, width: int, skip: int,
                  exact: bool, finalists: int | None = None) -> list[int]:
        """The guesses :meth:`research` tries at a node of ``level``: the rules'
        :meth:`candidates`; when completed exactly and ``finalists`` names a count
        for the level, the first that many :meth:`ranked` (all of them ranked when
        that is every one: the best first, the bound prunes the rest sooner)."""
        candidates = self.candidates(S, sym, width, skip)
        if finalists is None:
            finalists = at_level(self.finalists, level)
        many = finalists if exact else 0
        if many > 0 and len(candidates) > 1:
            candidates = self.ranked(S, sym, candidates)[:many]
        return candidates

    def ranked(self, S: np.ndarray, sym: Symmetry, candidates: list[int]) -> list[int]:
        """``candidates`` by their :meth:`greedy_footing`, least first (ties: in the
        order given); a guess that does not split ``S`` is left out."""
        return [g for _, g in self.scored(S, sym, candidates)]

    def scored(self, S: np.ndarray, sym: Symmetry,
               candidates: list[int]) -> list[tuple[int, int]]:
        """(greedy footing, guess) of each of :meth:`ranked`, in its order."""
        scored = []
        for at, g in enumerate(candidates):
            self.check()
            total = self.greedy_footing(S, sym, g)
            if total is not None:
                scored.append((total, at, g))
        return [(total, g) for total, _, g in sorted(scored)]

    def greedy_footing(self, S: np.ndarray, sym: Symmetry, g: int) -> int | None:
        """The total of the guess ``g`` for ``S`` with its parts' greedy subtrees (the
        cheapest of the completing rules'); None if ``g`` does not split ``S``."""
        parts = split(self.game, S, g)
        if any(len(part) == len(S) for _, part in parts):
            return None
        after = sym.after(self.game.guesses[g])
        return len(S) + sum(len(part) if len(part) == 1 else
                            best_grown(self.completers, part, after).total
                            for _, part in parts)

    def complete(self, S: np.ndarray, level: int, sym: Symmetry, played: int,
                 limit: int, exact: bool = True) -> tuple[Node, int, int] | None:
        """A subtree for ``S`` after ``level`` guesses whose total is below ``limit``
        (exact when small, else greedy with its small subtrees solved exactly, then,
        with ``deepen``, searched again below that (:meth:`deepened`); greedy only
        unless ``exact``), or None."""
        game = self.game
        if len(S) == 1:
            return (Node(game.code_text(game.secrets[S[0]])), 1, 1) if limit > 1 else None
        if not exact:
            best = best_grown(self.completers, S, sym)
            return (best.node, best.total, best.depth) if best.total < limit else None
        if len(S) <= self.exact_below and self.exact.usable:
            found = self.exact.solve(S, level, sym, played, limit)
            if found is None:
                return None
            cost, node = found
            self.done.add(set_key(S, level, cost))  # optimal: the exact pass need not try it
            return node, cost, Index(game, node, S, level, sym, played, self.exact.masks).depth[0]
        best = best_grown(self.choosers, S, sym)
        part = self.index_of(best.node, S, level, sym, played)
        if self.deepen and not self.deep:  # the greedy subtree whole: the search's limit
            self.solve_small(part)
            found = self.deepened(S, level, sym, played, min(limit, part.total[0]))
            if found is not None:
                return found
        else:
            self.solve_small(part, limit)
        if part.total[0] >= limit:
            return None
        return part.node[0], part.total[0], part.depth[0]

    def deepened(self, S: np.ndarray, level: int, sym: Symmetry, played: int,
                 limit: int) -> tuple[Node, int, int] | None:
        """A large part searched again (:meth:`research`, ``deepen``'s width and
        finalists; its own large parts greedy), as (subtree, total, worst case)
        if below ``limit``, else None."""
        width, finalists = self.deepen
        self.deep = True
        try:
            return self.research(S, level, sym, played, limit, skip=-1, width=width,
                                 finalists=finalists)
        finally:
            self.deep = False


class Improver(Searcher):
    """One run of :func:`improve`: the tree being improved, and its passes."""

    def __init__(self, strategy: Strategy, game: Game, *, exact_below: int,
                 widths: tuple[int, ...], rules: Sequence[str], max_guesses: int | None,
                 stop: threading.Event, tally: Tally, client: object | None = None,
                 finalists: tuple[int, ...] = (), deepen: tuple[int, ...] = ()) -> None:
        super().__init__(game, exact_below=exact_below, rules=rules, max_guesses=max_guesses,
                         finalists=finalists, stop=stop, tally=tally, deepen=deepen)
        self.widths = widths
        self.sym = Symmetry.of(game)
        self.index = self.index_of(copy_tree(strategy.root), np.arange(len(game.secrets)), 0, self.sym, 0)
        self.tally.best = self.index.total[0]
        self.changed = threading.Event()
        self.cluster = None if client is None else OnCluster(client, self)

    @property
    def total(self) -> int:
        """The whole tree's total now."""
        return self.index.total[0]

    @property
    def depth(self) -> int:
        """The whole tree's worst case now."""
        return self.index.depth[0]

    # -- one pass
    def run(self) -> None:
        """Passes over the tree until one saves nothing (or the run is stopped)."""
        while True:
            before = self.total
            self.greedy_pass()
            self.exact_pass()
            self.lookahead_pass()
            if self.total >= before:
                return

    def greedy_pass(self) -> None:
        """Top-down, level by level while ``widths`` last: each node's candidates
        completed greedily (cheap), kept when better than the subtree in place.
        A level with finalists is left to the lookahead pass, whose ranking of
        the candidates is this pass's search and more."""
        for level in range(len(self.widths)):
            index = self.index
            width = self.width(level)
            if width < 1 or at_level(self.finalists, level) > 0:
                continue
            nodes = [i for i in range(len(index.node))  # the exact pass solves the rest
                     if index.level[i] == level and len(index.sets[i]) > max(2, self.exact_below)]
            for i in nodes:
                self.check()
                if self.stale(index, i):
                    continue
                self.attempt(index, i, width, exact=False)
            self.index_of_tree()

    def index_of_tree(self) -> None:
        """Lay the whole tree out again (after a pass changed it)."""
        with self.lock:
            self.index = self.index_of(self.index.node[0], self.index.sets[0], 0, self.sym, 0)

    def exact_pass(self) -> None:
        """Solve every small top of the tree exactly (on the cluster when there is one)."""
        if self.cluster is not None:
            saved = self.cluster.exact_pass(self)
        else:
            saved = self.solve_small(self.index)
        if saved:
            self.index_of_tree()

    def better(self, index: Index) -> None:
        """Note an improvement (of the whole tree, when ``index`` is it)."""
        if index is self.index:
            self.tally.best = self.total
            self.changed.set()

    def lookahead_pass(self) -> None:
        """Search every large node again, the deepest first (on the cluster, the
        nodes of a level side by side: they are disjoint)."""
        index = self.index
        large = [i for i in range(len(index.node))
                 if len(index.sets[i]) > self.exact_below and self.width(index.level[i]) > 0]
        large.sort(key=lambda i: (-index.level[i], -len(index.sets[i])))
        if self.cluster is not None:
            for level in sorted({index.level[i] for i in large}, reverse=True):
                self.cluster.lookahead_pass(self, [i for i in large if index.level[i] == level])
        else:
            for i in large:
                self.check()
                if not self.stale(index, i):  # else under a subtree replaced in this pass
                    self.attempt(index, i, self.width(index.level[i]))
        self.index_of_tree()

    def attempt(self, index: Index, i: int, width: int, exact: bool = True) -> None:
        """Search node ``i`` again (greedy completions only unless ``exact``), keep
        what is better, and remember the subtree as tried (unless it was)."""
        key = set_key(index.sets[i], index.level[i], index.total[i], int(not exact))
        if key in self.done:
            return
        how = "" if exact else ", greedy"
        self.tally.where = f"{index.where(i)} ({len(index.sets[i])} secrets{how})"
        sym, played = index.symmetry(i)
        found = self.research(index.sets[i], index.level[i], sym, played, index.total[i],
                              index.guess[i], width, exact)
        self.keep(index, i, found, exact)

    def keep(self, index: Index, i: int, found: tuple[Node, int, int] | None,
             exact: bool = True) -> None:
        """Put :meth:`research`'s answer for node ``i`` in place (when one came);
        note the subtree as tried."""
        self.tally.searched += 1
        total = index.total[i]
        if found is not None:
            node, total, depth = found
            with self.lock:
                index.replace(i, node, total, depth)
            self.better(index)
        self.done.add(set_key(index.sets[i], index.level[i], total, int(not exact)))

    @staticmethod
    def stale(index: Index, i: int) -> bool:
        """Whether node ``i`` hangs below a node replaced since the layout."""
        while index.parent[i] >= 0:
            p = index.parent[i]
            if i not in index.kids[p]:
                return True
            i = p
        return False

    def width(self, level: int) -> int:
        """Candidates per rule at ``level``."""
        return at_level(self.widths, level)


# -- checkpoints -------------------------------------------------------------------------
class Saved:
    """A run's checkpoint (:mod:`strategytree.checkpoint`): a header naming the
    input and the settings, then one record of the best tree so far (its text,
    ``tree``) and the subtrees already tried (``done``, 18 bytes a row), rewritten
    at each save."""

    def __init__(self, path: str | os.PathLike[str], strategy: Strategy, game: Game,
                 exact_below: int, widths: tuple[int, ...], max_guesses: int | None,
                 finalists: tuple[int, ...] = (), deepen: tuple[int, ...] = ()) -> None:
        from .formats.brace import dumps

        digest = hashlib.blake2b(dumps(strategy).encode("ascii"), digest_size=12)
        self.header = {
            "search": "improve",
            "game": game.name,
            "scoring": game.scoring,
            "codes": game.digest,
            "input": digest.hexdigest(),
            "exact_below": exact_below,
            "widths": list(widths),
            "max_guesses": max_guesses,
        }
        if finalists:
            self.header["finalists"] = list(finalists)
        if deepen:
            self.header["deepen"] = list(deepen)
        self.path = path
        self.file = saved_runs.Checkpoint(path, self.header)
        self.last = time.perf_counter()

    def load(self) -> tuple[Strategy, set[bytes]] | None:
        """The best tree and the subtrees tried, as saved; None without a file."""
        from .formats.brace import loads

        arrays = saved_runs.load(self.path, self.header)
        if arrays is None:
            return None
        tree, done = arrays.get("tree"), arrays.get("done")
        if tree is None or done is None or tree.dtype != np.uint8 or done.ndim != 2:
            raise saved_runs.CheckpointError(f"{self.path}: not a checkpoint of improve")
        strategy = loads(tree.tobytes().decode("ascii"), source=str(self.path))
        return strategy, {bytes(row) for row in done}

    def save(self, root: Node, done: set[bytes]) -> None:
        """Write the best tree and the subtrees tried (atomically)."""
        from .formats.brace import dumps

        tree = np.frombuffer(dumps(root).encode("ascii"), dtype=np.uint8)
        rows = np.frombuffer(b"".join(sorted(done)), dtype=np.uint8).reshape(len(done), 18)
        self.file.rewrite({"tree": tree, "done": rows})
        self.last = time.perf_counter()


# -- the public function -------------------------------------------------------------------
def improve(
    strategy: Strategy,
    game: Game,
    *,
    exact_below: int = DEFAULT_EXACT_BELOW,
    widths: Sequence[int] | str = DEFAULT_WIDTHS,
    rules: Sequence[str] = RULES,
    budget_seconds: float | None = None,
    max_guesses: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    on_better: Callable[[Strategy], None] | None = None,
    client: object | None = None,
    finalists: Sequence[int] | str = (),
    deepen: Sequence[int] | str = (),
) -> Strategy:
    """A strategy for ``game`` never worse than ``strategy`` (see the module doc).

    ``exact_below``: the most secrets of a subtree solved exactly; ``widths``:
    candidates per rule at each level of the larger nodes (``4,3,2``; a level
    beyond the list: its last width; 0 at a level: none there, so ``0,0,12``
    searches the third level and below; none, or all 0: no lookahead); ``budget_seconds``: stop then with the best so far;
    ``max_guesses``: subtrees found keep every secret within that many guesses;
    ``checkpoint``: keep the run there and resume from it; ``progress``: called
    about four times a second (:class:`~strategytree.progress.Progress`: subtrees
    searched, the best total, guesses saved, where the run works); ``on_better``:
    called with the best strategy so far after improvements (at most once every
    :data:`BETTER_EVERY` seconds) and at the end; ``client`` (a
    ``distributed.Client``): the subtrees of the exact pass, and the large
    nodes of a level in the lookahead pass, are searched by tasks on its
    workers, side by side (:class:`OnCluster`); ``finalists``: at each
    level of the larger nodes (as ``widths``), how many candidates, ranked by their
    greedy completions, are completed exactly (none given, or 0: all of them);
    ``deepen`` (``W,F``): the large parts of a candidate completed exactly are
    then searched again, ``W`` candidates a rule, the ``F`` best by their greedy
    completions completed (their own large parts greedily), instead of being
    left greedy (none given: left greedy).

    Raises :class:`ImproveError` (with the verifier's report) for an invalid
    strategy; KeyboardInterrupt (Ctrl-C) once the run has stopped and handed
    its best over to ``on_better`` and the checkpoint.
    """
    widths = per_level(widths, "widths")
    finalists = per_level(finalists, "finalists")
    deepen = deepening(deepen)
    if exact_below < 0:
        raise ArgumentError("{exact_below} must be at least 0", exact_below=exact_below)
    if max_guesses is not None and max_guesses < 1:
        raise ArgumentError("{max_guesses} must be at least 1", max_guesses=max_guesses)
    report = verify(strategy, game)
    if not report.valid:
        raise ImproveError(report)
    saved = None
    if checkpoint is not None:
        saved = Saved(checkpoint, strategy, game, exact_below, widths, max_guesses, finalists,
                      deepen)
        resumed = saved.load()
        if resumed is not None:
            again = verify(resumed[0], game)
            if again.valid and (again.total, again.max_guesses) <= (report.total, report.max_guesses):
                strategy = resumed[0]
    stop = threading.Event()
    tally = Tally()
    run = Improver(strategy, game, exact_below=exact_below, widths=widths, rules=rules,
                   max_guesses=max_guesses, stop=stop, tally=tally, client=client,
                   finalists=finalists, deepen=deepen)
    tally.saved = report.total - run.total
    if saved is not None and checkpoint is not None and resumed is not None:
        run.done = resumed[1]
    return drive(run, report, budget_seconds, saved, progress, on_better)


def drive(run: Improver, report: Report, budget: float | None, saved: Saved | None,
          progress: ProgressCallback | None,
          on_better: Callable[[Strategy], None] | None) -> Strategy:
    """Run ``run`` in a worker thread (the exact search releases the GIL, so
    Ctrl-C is heard at once); report progress; end it when the budget is spent;
    hand the best over as it improves and at the end."""
    from . import runner

    source = f"<improved {report.source}>"
    last = [time.perf_counter()]

    def snapshot() -> Strategy:
        with run.lock:
            return Strategy(run.index.node[0], source=source)

    def hand_over(now: bool) -> None:
        """Give the best so far to ``on_better`` and the checkpoint (when due, or ``now``)."""
        if run.changed.is_set() and (now or time.perf_counter() - last[0] >= BETTER_EVERY):
            run.changed.clear()
            last[0] = time.perf_counter()
            if on_better is not None:
                on_better(snapshot())
            if saved is not None:
                saved.save(run.index.node[0], run.done)
        elif saved is not None and (now or time.perf_counter() - saved.last >= CHECKPOINT_EVERY):
            saved.save(run.index.node[0], run.done)

    checked = run.check

    def check() -> None:  # the worker's own pauses: hand the best over when due
        checked()
        hand_over(False)

    run.check = check  # type: ignore[method-assign]
    started = time.perf_counter()

    def halt() -> None:
        run.stop.set()
        run.exact.halt()

    def report_progress() -> None:
        run.tally.saved = report.total - run.total
        if progress is not None:
            progress(run.tally.progress())

    def tick() -> None:
        if budget is not None and time.perf_counter() - started >= budget:
            halt()
        report_progress()

    ended = runner.run_in_thread(run.run, "strategytree-improve", runner.Stop().also(halt),
                                 report=tick)
    if ended.error is not None and not isinstance(ended.error, Stop):
        raise ended.error
    run.changed.set()
    hand_over(True)
    report_progress()
    if ended.interrupted:
        raise KeyboardInterrupt
    return Strategy(run.index.node[0], source=source)


# -- on a Dask cluster ----------------------------------------------------------------
#: tasks in flight per worker thread (the subtrees of a pass are independent)
PER_THREAD = 2


@dataclass(frozen=True)
class Spec:
    """What a worker needs to build a run's :class:`Searcher` (see
    :mod:`strategytree.workers`): the game and the settings of the search."""

    game: Game
    settings: dict
    """:meth:`Searcher.settings`"""
    key: str
    symmetry: bool = True

    @classmethod
    def of(cls, run: Searcher) -> Spec:
        """The spec of ``run`` (its game without the tables: it travels)."""
        settings = run.settings()
        key = run.game.run_key("improve", *sorted(settings.items()))
        return cls(replace(run.game), settings, key)


class OnCluster:
    """The passes of :class:`Improver` on a Dask cluster.  Exact: every small top
    not tried yet is a task (:func:`exact_task`: the set, the guesses played
    before it, the limit: its total now).  Lookahead: every large node of a
    level is a task (:func:`research_task`: :meth:`Searcher.research` of it,
    the subtrees it solved exactly sent back as tried).  :data:`PER_THREAD` per
    worker thread in flight, the largest first; each answer is put in place as
    it comes (the nodes are disjoint, so the order does not matter, and the
    tree is the one the run would make in-process).  Each worker thread builds
    a :class:`Searcher` of the run once (:mod:`strategytree.workers`)."""

    def __init__(self, client, run: Searcher) -> None:
        from . import workers

        self.cluster = workers.Run(client, Spec.of(run))

    def exact_pass(self, run: Improver) -> int:
        """Solve the tops of the whole tree on the workers; the guesses saved."""
        index = run.index
        todo = [i for i in run.small_tops(index)
                if set_key(index.sets[i], index.level[i], index.total[i]) not in run.done]

        async def one(i: int) -> int:
            found = await self.cluster.result(exact_task, index.sets[i], index.level[i],
                                              index.history(i), index.symmetry(i)[1],
                                              index.total[i])
            return run.take(index, i, found)

        return self.each(run, todo, one)

    def lookahead_pass(self, run: Improver, nodes: list[int]) -> int:
        """Search the large ``nodes`` of the whole tree (all of one level) again on
        the workers; the guesses saved."""
        index = run.index
        todo = [i for i in nodes if set_key(index.sets[i], index.level[i], index.total[i])
                not in run.done]

        async def one(i: int) -> int:
            before = index.total[i]
            found, tried = await self.cluster.result(
                research_task, index.sets[i], index.level[i], index.history(i),
                index.symmetry(i)[1], before, index.guess[i], run.width(index.level[i]))
            run.done.update(tried)
            run.keep(index, i, found)
            return before - index.total[i]

        return self.each(run, todo, one)

    def each(self, run: Improver, todo: list[int], one: Callable) -> int:
        """``one(i)`` (a coroutine: a task, its answer put in place; the guesses
        saved) for every node of ``todo``; the guesses saved in all."""
        import asyncio

        if not todo:
            return 0
        with self.cluster.installed(passing=(Stop,)):
            return asyncio.run(self.all(run, todo, one))

    async def all(self, run: Improver, todo: list[int], one: Callable) -> int:
        import asyncio

        from . import workers

        slots = asyncio.Semaphore(PER_THREAD * self.cluster.count.threads)
        saved = [0]

        async def each(i: int) -> None:
            async with slots:
                if run.stop.is_set():
                    return
                run.tally.where = f"{self.cluster.count.detail()} ({len(todo)} subtrees)"
                saved[0] += await one(i)
            run.tally.where = f"{self.cluster.count.detail()} ({len(todo)} subtrees)"
            run.check()

        running = [asyncio.ensure_future(each(i)) for i in todo]
        try:
            while running:
                done, _ = await asyncio.wait(running, timeout=0.25,
                                             return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    running.remove(future)
                    future.result()  # (raises Stop, or a failure of the cluster)
                if run.stop.is_set():
                    raise Stop
        finally:
            await workers.drop(running)
        return saved[0]


def worker_searcher(key: str) -> tuple[Searcher, dict]:
    """This worker thread's :class:`Searcher` of the run ``key`` (built on its
    first task of the run), and its memo of symmetry groups."""
    from . import workers

    def build(spec: Spec) -> Searcher:
        return Searcher(spec.game, **spec.settings, stop=threading.Event(), tally=Tally())

    return workers.on_this_thread(key, build, lambda home, first: home if first else home.sibling())


def exact_task(key: str, S: np.ndarray, level: int, history: tuple[int, ...], played: int,
               limit: int) -> tuple[int, Node] | None:
    """Run on a worker: :meth:`Exact.solve` of the secrets ``S`` after the
    guesses ``history`` (``played``: their colours), under ``limit``."""
    from . import workers

    started = time.thread_time()
    search, groups = worker_searcher(key)
    sym = workers.history_group(key, groups, history)
    try:
        return search.exact.solve(S, level, sym, played, limit)
    finally:
        workers.SPENT[0] += time.thread_time() - started


def research_task(key: str, S: np.ndarray, level: int, history: tuple[int, ...], played: int,
                  limit: int, skip: int, width: int
                  ) -> tuple[tuple[Node, int, int] | None, list[bytes]]:
    """Run on a worker: :meth:`Searcher.research` of the secrets ``S`` after the
    guesses ``history`` (``played``: their colours) under ``limit``, and the
    subtrees it solved exactly (:func:`set_key`: the exact pass need not)."""
    from . import workers

    started = time.thread_time()
    search, groups = worker_searcher(key)
    sym = workers.history_group(key, groups, history)
    known = set(search.done)
    try:
        found = search.research(S, level, sym, played, limit, skip, width)
        return found, [k for k in search.done if k not in known]
    finally:
        workers.SPENT[0] += time.thread_time() - started


# -- what ``strategytree improve`` does ----------------------------------------------------
def improvable(strategy: Strategy, game: Game, notes: Sequence[str] = ()) -> Report:
    """The verifier's report on ``strategy`` (``notes``: how its game was told);
    raises :class:`ImproveError` with it unless the strategy is valid."""
    report = verify(strategy, game)
    report.game_notes = list(notes)
    if not report.valid:
        raise ImproveError(report)
    return report


def improve_file(
    strategy: Strategy, game: Game, output: str | os.PathLike[str], **settings: object
) -> tuple[Report, float]:
    """:func:`improve` (``settings`` are its keyword arguments), each better strategy
    written to ``output`` atomically as it is found: the verifier's report on the
    best (its source ``output``), and the seconds the run took."""
    from .formats.brace import dump

    started = time.perf_counter()
    best = improve(strategy, game, on_better=lambda better: dump(better, output, force=True),
                   **settings)  # type: ignore[arg-type]
    took = time.perf_counter() - started
    report = verify(best, game)
    report.source = str(output)
    return report, took


def improved_text(before: Report, after: Report, seconds: float, output: object) -> str:
    """The line ``strategytree improve`` ends with (rich markup): guesses saved."""
    from rich.markup import escape

    return (f"{before.total - after.total:,} guesses saved ({before.total:,} -> {after.total:,}, "
            f"max {before.max_guesses} -> {after.max_guesses}) in {seconds:.1f} s, "
            f"written to {escape(str(output))}")
