"""The node search: one machine that judges the guesses at a node by what
follows them, for building a tree (``generate --method lookahead``) and for
improving one (``improve``).

At a node (a set of secrets after some guesses), :class:`NodeSearch`

- takes a **shortlist**: each rule's ``widths[level]`` best guesses
  (:meth:`NodeSearch.candidates`, each guess once);
- **completes** each candidate: below it, each part's subtree is the cheapest
  greedy subtree of the rules (:meth:`NodeSearch.greedy`), an inner
  lookahead's (``complete``), or an optimal one from the exact search when the
  part is small (``exact_below``: :meth:`NodeSearch.solved`);
- **ranks** the candidates by their completions (:meth:`NodeSearch.rank`:
  within ``max_guesses`` first, then the total, then the worst case) and
  searches the ``finalists[level]`` cheapest **in full** below, one level
  deeper (0: all of them); the best searched subtree is kept.

:meth:`NodeSearch.subtree` builds a tree top-down so (the lookahead builder,
:mod:`strategytree.lookahead`).  :meth:`NodeSearch.research` searches one node
of an existing tree again under the total of the subtree in place, dropping a
candidate as soon as lower bounds show it cannot win, its small parts solved
exactly and, with ``deepen``, its large parts searched again
(:mod:`strategytree.improve` applies it to every node of a tree).  What is
searched is one :class:`~strategytree.nodesearch.settings.SearchSettings`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from .. import feedback
from ..builders import GreedyChooser, Grown, grow_greedy
from ..errors import StrategyTreeError
from ..game import Game, Reply
from ..progress import ProgressCallback
from ..symmetry import Symmetry
from ..tree import Node, Strategy
from .settings import SearchSettings, Tally, digest

__all__ = ["COMPLETERS", "Index", "NodeSearch", "Replaced", "copy_tree", "node_key",
           "parts_by_reply", "set_key", "split"]

#: the rules whose greedy subtrees complete a candidate's parts when re-searching a node
COMPLETERS = ("entropy", "parts")

#: a candidate's parts and their completions (None: the win), highest reply first
Completed = list[tuple[int, Grown | None]]
#: a subtree found by :meth:`NodeSearch.research`: (subtree, total, worst case)
Replaced = tuple[Node, int, int]


def parts_by_reply(game: Game, secrets: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
    """The secrets split by their reply to ``guess``, highest reply first (the
    win included), each part in the order given."""
    from .. import grouping

    out = np.empty(len(secrets), dtype=np.int8)
    replies = feedback.replies_into(game, guess, secrets, out)
    groups = grouping.group_by_reply(replies, game.n_replies)
    return [(code, secrets[group]) for code, group in groups]


def split(game: Game, S: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
    """The secrets ``S`` split by their reply to ``guess``, without the win,
    lowest reply first."""
    return [(code, part) for code, part in reversed(parts_by_reply(game, S, guess))
            if code != game.win]


def set_key(S: np.ndarray, level: int, total: int, kind: int = 0) -> bytes:
    """What names a subtree already tried (18 bytes): the kind of search (0 exact
    or lookahead, 1 greedy), its level, its total, a digest of its secrets."""
    return bytes((kind, level)) + total.to_bytes(4, "little") + digest(S)


def node_key(S: np.ndarray, level: int) -> bytes:
    """What names a node decided by a lookahead (14 bytes): its level and a
    digest of its secrets."""
    return level.to_bytes(2, "little") + digest(S)


class NodeSearch:
    """The search of the nodes of one run (see the module doc): the rules'
    choosers, the exact search of small sets, and the run's settings.

    ``tally`` counts the work; ``stop`` ends :meth:`research` (it raises
    :class:`~strategytree.runner.Stopped`); ``checkpoint`` (a lookahead:
    :class:`~strategytree.nodesearch.saved.Decisions`) keeps the decisions of
    :meth:`subtree`; ``progress`` is told after each node it decides."""

    index: Index | None = None
    """the whole tree being improved (:class:`~strategytree.improve.Improver`; none
    on a worker)"""

    def __init__(self, game: Game, settings: SearchSettings, *, symmetry: bool = True,
                 tally: Tally | None = None, stop: threading.Event | None = None,
                 progress: ProgressCallback | None = None, checkpoint=None,
                 choosers: Sequence[GreedyChooser] | None = None) -> None:
        self.game = game
        self.settings = settings
        self.symmetry = symmetry
        self.tally = Tally() if tally is None else tally
        self.stop = threading.Event() if stop is None else stop
        self.progress = progress
        self.checkpoint = checkpoint
        self.choosers = list(choosers) if choosers is not None else \
            [GreedyChooser(game, rule, symmetry=symmetry) for rule in settings.rules]
        self.completers = [c for c in self.choosers if c.rule in COMPLETERS] or self.choosers[:1]
        self.replies = [game.reply(code) for code in range(game.n_replies)]
        completing = settings.completing()
        self.inner = None if completing is None else \
            NodeSearch(game, completing, symmetry=symmetry, stop=self.stop, choosers=self.choosers)
        """the lookahead that completes the parts of more than ``complete_above`` secrets"""
        self.done: set[bytes] = set()
        """``research``: the subtrees tried (:func:`set_key`), not searched again"""
        self.deep = False
        """``research``: whether a large part is being searched (its own large parts are not)"""
        self.lock = threading.Lock()

    def sibling(self) -> NodeSearch:
        """A search with the same settings and tables of its own (for another thread)."""
        return NodeSearch(self.game, self.settings, symmetry=self.symmetry)

    @cached_property
    def exact(self):
        """The exact search of the small sets
        (:class:`~strategytree.search.subsets.Exact`)."""
        from ..search.subsets import Exact

        return Exact(self.game, self.settings.max_guesses, self.stop)

    @cached_property
    def lbt(self) -> np.ndarray:
        """The least total of a set of each size (the research's bounds)."""
        from ..counting import lower_bounds

        return lower_bounds(len(self.game.secrets), max(self.game.n_replies - 1, 1))[0]

    # -- the machine: shortlist, completion, ranking -------------------------------------
    def candidates(self, S: np.ndarray, sym: Symmetry, width: int, skip: int = -1) -> list[int]:
        """The ``width`` best guesses of each rule for ``S`` (each once, ``skip`` left out)."""
        found: list[int] = []
        for chooser in self.choosers:
            for g in chooser.shortlist(S, sym, width).tolist():
                if g != skip and g not in found:
                    found.append(g)
        return found

    def greedy(self, S: np.ndarray, sym: Symmetry, played: int | None = None,
               choosers: Sequence[GreedyChooser] | None = None) -> Grown:
        """The cheapest greedy subtree of the rules (``choosers``: all) for ``S``,
        the first of equal cost: by :meth:`rank` after ``played`` guesses (None:
        by total and worst case alone); counted as completions.  Raises
        :class:`~strategytree.runner.Stopped` once ``stop`` is set."""
        best = None
        for chooser in self.choosers if choosers is None else choosers:
            # (a stop is heard every few nodes: a large set takes seconds)
            grown = grow_greedy(chooser, S, sym, progress=lambda _: self.check())
            self.tally.completions += 1
            if best is None or self.rank(grown.total, grown.depth, played) \
                    < self.rank(best.total, best.depth, played):
                best = grown
        assert best is not None
        return best

    def rank(self, total: int, depth: int, played: int | None) -> tuple[bool, int, int]:
        """What a subtree of ``total`` and ``depth`` guesses after ``played`` is
        judged by, least first: beyond ``max_guesses`` or not (None: not asked),
        its total, its depth."""
        limit = self.settings.max_guesses
        return played is not None and limit is not None and played + depth > limit, total, depth

    def width(self, level: int) -> int:
        """Candidates per rule at ``level`` (0: not searched)."""
        return self.settings.width(level)

    def parts(self, secrets: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """The secrets split by their reply to ``guess``, highest reply first."""
        return parts_by_reply(self.game, secrets, guess)

    def check(self) -> None:
        """Stop when asked (:class:`~strategytree.runner.Stopped`)."""
        if self.stop.is_set():
            from ..runner import Stopped

            raise Stopped

    # -- building a tree: a lookahead ------------------------------------------------------
    def subtree(self, secrets: np.ndarray, sym: Symmetry, level: int, played: int | None = None
                ) -> Grown:
        """The searched subtree for ``secrets`` at ``level`` (0 at the root of
        the search) after ``played`` guesses (the level, unless a completion);
        raises :class:`~strategytree.runner.Stopped` once ``stop`` is set."""
        self.check()
        played = level if played is None else played
        if self.solvable(secrets):
            solved = self.solved(secrets, sym, played)
            if solved is not None:
                return solved
        if self.width(level) <= 1 or len(secrets) <= 2:
            return self.completion(secrets, sym, played)
        key, known, shortlist = self.shortlist_of(secrets, sym, level)
        completed = [(guess, self.complete_parts(secrets, sym, guess, played))
                     for guess in shortlist]
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

    def complete_parts(self, secrets: np.ndarray, sym: Symmetry, guess: int, played: int
                       ) -> Completed:
        """Each part below ``guess`` (played after ``played`` guesses), with its
        completion (None for the win); none if the guess does not split."""
        after = sym.after(self.game.guesses[guess])
        done = []
        for code, part in self.parts(secrets, guess):
            if code == self.game.win:
                done.append((code, None))
            elif len(part) == len(secrets):
                return []  # the guess does not split: never the best
            else:
                self.check()
                done.append((code, self.completion(part, after, played + 1)))
        return done

    def completion(self, secrets: np.ndarray, sym: Symmetry, played: int) -> Grown:
        """The subtree that completes a part (after ``played`` guesses): the inner
        search's for a big part (with ``complete``), else the cheapest greedy subtree."""
        if self.inner is None or len(secrets) <= self.settings.complete_above:
            return self.greedy(secrets, sym, played)
        inner = self.inner.tally
        before = inner.completions
        grown = self.inner.subtree(secrets, sym, 0, played)
        self.tally.completions += inner.completions - before
        return grown

    @staticmethod
    def cost(secrets: np.ndarray, below: Completed) -> tuple[int, int]:
        """(total, worst case) of the subtree: this guess, then the parts."""
        total = len(secrets)
        depth = 1
        for _, grown in below:
            if grown is not None:
                total += grown.total
                depth = max(depth, grown.depth + 1)
        return total, depth

    def deeper(self, part: np.ndarray, level: int) -> bool:
        """Whether a part below a node of ``level`` is searched at ``level + 1``
        (or solved exactly)."""
        return (self.width(level + 1) > 1 or self.solvable(part)) and len(part) > 2

    def solvable(self, secrets: np.ndarray) -> bool:
        """Whether the exact search solves this set (``exact_below``)."""
        return 2 < len(secrets) <= self.settings.exact_below

    def solved(self, secrets: np.ndarray, sym: Symmetry, played: int) -> Grown | None:
        """An optimal subtree for a :meth:`solvable` set after ``played``
        guesses (None: none within ``max_guesses``, or an unusable game)."""
        from ..search.bounds import INF

        colours = sum(1 << int(c) for c in np.flatnonzero(sym.played))
        found = self.exact.solve(secrets, played, sym, colours, INF)
        if found is None:
            return None
        total, node = found
        return Grown(node, int(total), Strategy(node).depth())

    def shortlist_of(self, secrets: np.ndarray, sym: Symmetry, level: int
                     ) -> tuple[bytes, int | None, list[int]]:
        """The node's checkpoint key, its decision already known (None: not
        known), and the guesses to complete (the known one alone; else the
        :meth:`candidates`, the first rule's choice first, whose completion is
        the greedy tree)."""
        key = node_key(secrets, level) if self.checkpoint is not None else b""
        known = self.checkpoint.decisions.get(key) if self.checkpoint is not None else None
        if known is not None:
            return key, known, [known]
        return key, known, self.candidates(secrets, sym, self.width(level))

    def decide(self, secrets: np.ndarray, key: bytes, known: int | None,
               completed: list[tuple[int, Completed]], played: int, level: int
               ) -> list[tuple[int, Completed]]:
        """The finalists of the shortlist's ``completed`` guesses: the
        ``finalists[level]`` (0: all) of least cost (:meth:`rank`; the first of
        equal cost first; an empty completion: a guess that does not split),
        cheapest first, each with its completion; counted, and a lone finalist
        noted in the checkpoint at once (the others: :meth:`keep`)."""
        ranked = sorted(
            ((self.rank(*self.cost(secrets, below), played), at, guess, below)
             for at, (guess, below) in enumerate(completed) if below),
            key=lambda item: item[:2],
        )
        assert ranked
        self.tally.searched += 1
        if known is None:  # against the first guess's completion: the greedy subtree
            greedy_total = min(ranked, key=lambda item: item[1])[0][1]
            self.tally.saved += greedy_total - ranked[0][0][1]
        if self.progress is not None:
            self.progress(self.tally.progress())
        many = (self.settings.finalists_at(level) or len(ranked)) if known is None else 1
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

    def assemble(self, secrets: np.ndarray, guess: int, below: Completed,
                 searched: list[Grown | None], played: int) -> Grown:
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
                self.tally.saved += grown.total - deeper.total
                grown = deeper
            branches.append((self.replies[code], grown.node))
            total += grown.total
            depth = max(depth, grown.depth + 1)
        node = Node(self.game.code_text(self.game.guesses[guess]), tuple(branches))
        return Grown(node, total, depth)

    # -- searching a node of a tree again: improve ------------------------------------------
    def index_of(self, root: Node, S: np.ndarray, level: int, sym: Symmetry, played: int) -> Index:
        """The subtree under ``root`` for the secrets ``S``, laid out (:class:`Index`)."""
        return Index(self.game, root, S, level, sym, played, self.exact.masks)

    def fits(self, level: int, depth: int) -> bool:
        """Whether a subtree ``depth`` deep after ``level`` guesses keeps within the limit."""
        limit = self.settings.max_guesses
        return limit is None or level + depth <= limit

    def small_tops(self, index: Index) -> list[int]:
        """The nodes with at most ``exact_below`` secrets whose parent has more, largest first."""
        below = self.settings.exact_below
        tops = [
            i for i in range(len(index.node))
            if len(index.sets[i]) <= below
            and (index.parent[i] < 0 or len(index.sets[index.parent[i]]) > below)
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

    def research(self, S: np.ndarray, level: int, sym: Symmetry, played: int, limit: int,
                 skip: int, width: int, exact: bool = True,
                 finalists: int | None = None) -> Replaced | None:
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
                   limit: int, exact: bool = True) -> Replaced | None:
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
            finalists = self.settings.finalists_at(level)
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
                            self.greedy(part, after, choosers=self.completers).total
                            for _, part in parts)

    def complete(self, S: np.ndarray, level: int, sym: Symmetry, played: int,
                 limit: int, exact: bool = True) -> Replaced | None:
        """A subtree for ``S`` after ``level`` guesses whose total is below ``limit``
        (exact when small, else greedy with its small subtrees solved exactly, then,
        with ``deepen``, searched again below that (:meth:`deepened`); greedy only
        unless ``exact``), or None."""
        game = self.game
        if len(S) == 1:
            return (Node(game.code_text(game.secrets[S[0]])), 1, 1) if limit > 1 else None
        if not exact:
            best = self.greedy(S, sym, choosers=self.completers)
            return (best.node, best.total, best.depth) if best.total < limit else None
        if len(S) <= self.settings.exact_below and self.exact.usable:
            found = self.exact.solve(S, level, sym, played, limit)
            if found is None:
                return None
            cost, node = found
            self.done.add(set_key(S, level, cost))  # optimal: the exact pass need not try it
            return node, cost, Index(game, node, S, level, sym, played, self.exact.masks).depth[0]
        best = self.greedy(S, sym)
        part = self.index_of(best.node, S, level, sym, played)
        if self.settings.deepen and not self.deep:  # the greedy subtree whole: the limit
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
                 limit: int) -> Replaced | None:
        """A large part searched again (:meth:`research`, ``deepen``'s width and
        finalists; its own large parts greedy), as (subtree, total, worst case)
        if below ``limit``, else None."""
        width, finalists = self.settings.deepen
        self.deep = True
        try:
            return self.research(S, level, sym, played, limit, skip=-1, width=width,
                                 finalists=finalists)
        finally:
            self.deep = False


# -- a tree laid out by its sets of secrets ----------------------------------------------------
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
                    raise StrategyTreeError(
                        f"no branch for reply {game.reply(code)} to {node.guess}"
                    )
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
