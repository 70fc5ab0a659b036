"""Greedy (one-step) builders: at each node, play the guess that splits best.

A candidate guess is scored by the partition it makes of the secrets still
possible (the win counts as a part of one):

========== ===================================================== =============
rule       best guess                                            after
========== ===================================================== =============
minimax    smallest largest part                                 Knuth 1976
expected   smallest expected part size, sum n_i^2 / n            Irving 1979
entropy    largest entropy, -sum p_i log p_i                     Neuwirth 1982
parts      most non-empty parts                                  Kooi 2005
first      the first secret still possible (no scoring)          baseline
random     a secret still possible, drawn at random (seeded)     baseline
========== ===================================================== =============

Ties go to a guess that could be the secret, then to the first in code order.
Scores are exact integers, so ties never depend on rounding.  With one or two
secrets left, or when a possible secret splits the rest into singletons, that
obvious guess is played without scoring everything (it is the one the rule
would choose).  Candidates that are images of each other under the
permutations fixing the history are scored once (:mod:`strategytree.symmetry`);
this changes the speed, never the tree.  Where the game allows it (no reply
table, at most 7 pegs), the choice at a node is one compiled call,
:func:`strategytree.greedy_choice.best_guess`, which skips the guesses that a
bound shows cannot beat the best so far: again the same guess, only sooner.

>>> from strategytree.game import mastermind
>>> from strategytree.verify import verify
>>> tree = build_greedy(mastermind(4, 6), rule="minimax")
>>> tree.root.guess, verify(tree, mastermind(4, 6)).total
('AABB', 5801)
"""

from __future__ import annotations

import copy
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import feedback
from .errors import ArgumentError, StrategyTreeError
from .game import Game, Reply
from .progress import Progress, ProgressCallback
from .runner import fewer_collections
from .spelling import guess_index
from .symmetry import Symmetry, dead_colours, merge_dead_colours
from .tree import Node, Strategy
from .words import plural

if TYPE_CHECKING:
    from . import greedy_choice

__all__ = [
    "GREEDY_RULES", "GreedyChooser", "Pool", "build_greedy", "draws_at_random", "parse_pool",
    "parse_rules",
]

#: rules of :func:`build_greedy`, with the names the command line accepts
GREEDY_RULES = ("entropy", "expected", "minimax", "parts", "first", "random")
_ALIASES = {
    "expected-size": "expected",
    "irving": "expected",
    "knuth": "minimax",
    "most-parts": "parts",
    "kooi": "parts",
    "neuwirth": "entropy",
    "first-consistent": "first",
    "random-consistent": "random",
}


@dataclass(frozen=True)
class Pool:
    """Which guesses are candidates at each node."""

    kind: str
    """``all`` (every allowed guess), ``consistent`` (secrets still possible)
    or ``sample`` (``size`` allowed guesses drawn at random at each node)"""
    size: int = 0
    """for ``sample``: how many guesses to draw"""


def parse_pool(text: str | Pool) -> Pool:
    """``all``, ``consistent`` or ``sample:N``."""
    if isinstance(text, Pool):
        return text
    if text in ("all", "consistent"):
        return Pool(text)
    if text.startswith("sample:"):
        try:
            size = int(text.split(":", 1)[1])
        except ValueError:
            size = 0
        if size > 0:
            return Pool("sample", size)
    raise StrategyTreeError(f"unknown pool {text!r}; expected all, consistent or sample:N (N > 0)")


def parse_rules(text: str, *, argument: str = "rules") -> tuple[str, ...]:
    """Rules listed as text, ``parts,expected``, each checked (aliases resolved);
    an error names the text as ``argument``.

    >>> parse_rules("parts, knuth")
    ('parts', 'minimax')
    """
    names = text.split(",")
    if text.strip() and not all(r.strip() for r in names):
        raise ArgumentError(
            f"{{{argument}}}: a rule is missing between two commas", **{argument: text}
        )
    return tuple(_rule_name(r.strip()) for r in names if r.strip())


def draws_at_random(rule: str, pool: str | Pool = "all") -> bool:
    """True when ``rule`` with ``pool`` depends on a seed (the ``random`` rule, a
    ``sample:N`` pool): only then does a seed change what is built or played.

    >>> draws_at_random("entropy"), draws_at_random("entropy", "sample:50")
    (False, True)
    """
    return _rule_name(rule) == "random" or parse_pool(pool).kind == "sample"


def _rule_name(rule: str) -> str:
    name = _ALIASES.get(rule, rule)
    if name not in GREEDY_RULES:
        raise StrategyTreeError(f"unknown rule {rule!r}; choose from {', '.join(GREEDY_RULES)}")
    return name


def colour_masks(codes: np.ndarray) -> np.ndarray:
    """Bit ``k`` set when colour ``k`` occurs in the code, one int64 per code."""
    masks = np.zeros(len(codes), dtype=np.int64)
    for i in range(codes.shape[1]):
        masks |= np.left_shift(np.int64(1), codes[:, i].astype(np.int64))
    return masks


class GreedyChooser:
    """The next guess of a one-step rule, for any set of secrets still possible.

    This is the choice :func:`build_greedy` makes at each node, on its own:
    :mod:`strategytree.play` asks it during a game and
    :mod:`strategytree.simulate` while playing many.  ``rule``, ``pool``,
    ``seed`` and ``symmetry`` are those of :func:`build_greedy`; ``first``
    forces the opening guess (as a person types it, in the game's alphabet:
    ``AABB``, or ``0123`` for Bulls and Cows).  The ``random`` rule and
    ``sample:N`` pools draw from one generator, seeded once, in the order of the calls.

    >>> from strategytree.game import mastermind
    >>> game = mastermind(4, 6)
    >>> chooser = GreedyChooser(game, "minimax")
    >>> game.code_text(game.guesses[chooser.next_guess(np.arange(1296))])
    'AABB'
    """

    def __init__(
        self,
        game: Game,
        rule: str = "entropy",
        pool: str | Pool = "all",
        *,
        seed: int = 0,
        symmetry: bool = True,
        first: str | None = None,
    ) -> None:
        self.game = game
        self.rule = _rule_name(rule)
        """the rule's canonical name (aliases resolved)"""
        self.pool = parse_pool(pool)
        self.symmetry = symmetry
        self.rng = np.random.default_rng(seed)
        self.as_guess = game.guess_index(game.secrets)
        """each secret's index among the guesses (-1 when it may not be guessed)"""
        self.opening: int | None = None
        """the forced opening guess (an index into ``game.guesses``), if any"""
        if first is not None:  # typed by a person: in the game's alphabet (or letters)
            self.opening = guess_index(game, first)
        self._all_guesses = np.arange(len(game.guesses))
        # a colour no secret has scores nothing: only true of Mastermind's feedback
        self._repeats_allowed = (
            game.scoring != "table" and len(game.guesses) == game.colors**game.pegs
        )
        self._guess_masks = colour_masks(game.guesses)
        self._secret_masks = colour_masks(game.secrets)
        self._merged: dict = {}  # merge_dead_colours's answers, this chooser's own

    def copy(self) -> GreedyChooser:
        """The same chooser with scratch space and remembered answers of its own
        (one per thread; the generator of random draws is shared)."""
        twin = copy.copy(self)
        twin.__dict__.pop("scratch", None)
        twin._merged = {}
        return twin

    @cached_property
    def guess_of(self) -> list[int]:
        """``as_guess`` as Python ints (read for every small part while building)."""
        return self.as_guess.tolist()

    @cached_property
    def scratch(self) -> greedy_choice.ChoiceScratch:
        """What the compiled choice keeps from one node to the next (this chooser's own)."""
        from . import greedy_choice

        return greedy_choice.ChoiceScratch(self.game)

    @property
    def randomised(self) -> bool:
        """True when the choices depend on the seed (``random``, ``sample:N``)."""
        return draws_at_random(self.rule, self.pool)

    def root_symmetry(self) -> Symmetry:
        """The symmetry before any guess (what :meth:`choose` takes at the root)."""
        return Symmetry.of(self.game, self.symmetry)

    def next_guess(self, secrets: np.ndarray, history: Sequence[int] = ()) -> int:
        """The guess (an index into ``game.guesses``) for the secrets still possible.

        ``secrets`` are indices into ``game.secrets`` in increasing order;
        ``history`` the guesses played so far (indices into ``game.guesses``),
        which only make the choice faster (symmetry), never different.
        The forced opening, if any, is played when ``history`` is empty.
        """
        if not history and self.opening is not None:
            return self.opening
        sym = self.root_symmetry()
        for guess in history:
            sym = sym.after(self.game.guesses[guess])
        return self.choose(np.asarray(secrets, dtype=np.int64), sym)

    def choose(self, secrets: np.ndarray, sym: Symmetry) -> int:
        """:meth:`next_guess` given the symmetry of the history (no opening)."""
        from . import greedy_choice
        from .scoring import RULES, first_perfect, scores

        game, rule, rng = self.game, self.rule, self.rng
        n = len(secrets)
        consistent = self.as_guess[secrets]
        consistent = consistent[consistent >= 0]
        if rule == "first" and len(consistent):
            return int(consistent[0])
        if rule == "random" and len(consistent):
            return int(consistent[rng.integers(len(consistent))])
        if len(consistent) == n and n <= 2:
            return int(consistent[0])
        perfect_possible = n <= game.n_replies and rule != "first"
        if perfect_possible and len(consistent):
            # a possible secret that tells the others apart is the best guess
            at = first_perfect(game, consistent, secrets, check=False)
            if at >= 0:
                return int(consistent[at])
        candidates = self.candidates(secrets, sym, consistent, merge=False)
        scoring = rule if rule in RULES else "entropy"
        # the whole choice in one kernel call, where the game has one; it leaves
        # out the guesses merge_dead_colours would (the same array at every node)
        skip = dead_colours(self._secret_masks, secrets) if self._merges else 0
        at = greedy_choice.best_guess(
            game, scoring, candidates, secrets, consistent, self.scratch, skip=skip
        )
        if at is not None:
            return int(candidates[at])
        if self._merges:
            candidates = self._merge(candidates, secrets)
        if perfect_possible:
            # no possible secret does it; the first guess that does is the best
            at = first_perfect(game, candidates, secrets, check=False)
            if at >= 0:
                return int(candidates[at])
        score = scores(game, scoring, candidates, secrets, check=False)
        best = np.flatnonzero(score == score.max())
        if len(best) > 1:
            is_secret = np.isin(candidates[best], consistent, assume_unique=True)
            if is_secret.any():
                best = best[is_secret]
        return int(candidates[best[0]])

    def candidates(
        self,
        secrets: np.ndarray,
        sym: Symmetry,
        consistent: np.ndarray | None = None,
        *,
        merge: bool = True,
    ) -> np.ndarray:
        """The guesses worth scoring for these secrets: the pool, one per class of
        equivalent guesses (increasing indices into ``game.guesses``); without
        ``merge``, the guesses with colours no secret has are all kept."""
        pool, rng = self.pool, self.rng
        if consistent is None:
            consistent = self.as_guess[secrets]
            consistent = consistent[consistent >= 0]
        if pool.kind == "consistent" and len(consistent):
            candidates = consistent
        elif pool.kind == "sample":
            size = min(pool.size, len(self._all_guesses))
            drawn = rng.choice(len(self._all_guesses), size=size, replace=False)
            candidates = np.union1d(drawn, consistent)
        else:
            candidates = self._all_guesses
        candidates = sym.representatives(candidates)
        if merge and self._merges:
            candidates = self._merge(candidates, secrets)
        return candidates

    @property
    def _merges(self) -> bool:
        """Whether guesses with colours no secret has are merged (every guess a candidate)."""
        return self.pool.kind == "all" and self._repeats_allowed

    def _merge(self, candidates: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        return merge_dead_colours(
            self._guess_masks, self._secret_masks, candidates, secrets, self._merged
        )

    def shortlist(self, secrets: np.ndarray, sym: Symmetry, size: int) -> np.ndarray:
        """The ``size`` best guesses by the rule's score, best first (ties: a
        possible secret first, then code order); the first is :meth:`choose`'s
        whenever the rule scores (not for ``first`` and ``random``)."""
        from .scoring import RULES, scores

        consistent = self.as_guess[secrets]
        consistent = consistent[consistent >= 0]
        candidates = self.candidates(secrets, sym, consistent)
        scoring = self.rule if self.rule in RULES else "entropy"
        score = scores(self.game, scoring, candidates, secrets, check=False)
        is_secret = np.isin(candidates, consistent, assume_unique=True)
        order = np.lexsort((np.arange(len(candidates)), ~is_secret, -score))
        return candidates[order[:size]]


def build_greedy(
    game: Game,
    rule: str = "entropy",
    pool: str | Pool = "all",
    *,
    seed: int = 0,
    first: str | None = None,
    symmetry: bool = True,
    progress: ProgressCallback | None = None,
    threads: int | None = None,
) -> Strategy:
    """Build a strategy for ``game`` with a one-step rule (see the module doc).

    ``first`` forces the opening guess (in the game's alphabet); ``seed`` makes
    the ``random`` rule and ``sample:N`` pools reproducible; ``progress`` is called with the
    secrets settled so far (a :class:`~strategytree.progress.Progress`), now
    and then.  Each node's guess is :meth:`GreedyChooser.choose`'s.
    ``threads`` build subtrees side by side (the same tree; default: every
    core for games of :data:`THREADS_FROM` secrets or more, else one).
    """
    chooser = GreedyChooser(game, rule, pool, seed=seed, symmetry=symmetry, first=first)
    settled = None
    if progress is not None:
        started, n = time.perf_counter(), len(game.secrets)

        def settled(done: int) -> None:
            progress(Progress(done, n, "secrets", time.perf_counter() - started))

    if threads is None:
        threads = _cores() if len(game.secrets) >= THREADS_FROM else 1
    grown = grow_greedy(
        chooser,
        np.arange(len(game.secrets)),
        chooser.root_symmetry(),
        opening=chooser.opening,
        progress=settled,
        threads=threads,
    )
    return Strategy(grown.node, source=f"<greedy {chooser.rule} {game.name}>")


#: from this many secrets on, :func:`build_greedy` uses every core by default
THREADS_FROM = 30_000


def _cores() -> int:
    """The cores this process may run on (all of them where that is not known)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class Grown(NamedTuple):
    """A subtree built for a set of secrets, and what it costs."""

    node: Node
    """its first guess and everything after"""
    total: int
    """guesses summed over its secrets, counting its first guess as guess 1"""
    depth: int
    """the most guesses any of its secrets needs, counting from 1"""


class _Task(NamedTuple):
    """A node still to build."""

    node: Node
    """the node, its guess and branches still empty"""
    secrets: np.ndarray
    """the secrets that reach it (indices, increasing)"""
    sym: Symmetry
    """the symmetry of the history that leads to it"""
    depth: int
    """its guess's number, counting from 1"""


@fewer_collections()  # the nodes are many objects that live on
def grow_greedy(
    chooser: GreedyChooser,
    secrets: np.ndarray,
    sym: Symmetry,
    *,
    opening: int | None = None,
    progress: Callable[[int], None] | None = None,
    threads: int = 1,
) -> Grown:
    """The greedy subtree for ``secrets`` (indices, increasing) after a history
    whose symmetry is ``sym``: what :func:`build_greedy` builds below a node.

    Depth first, the highest reply first: each node plays :meth:`GreedyChooser.choose`'s
    guess (or ``opening``), and its secrets are split by reply into parts built
    at once (one or two secrets, see :class:`_Splitter`) or later.

    With ``threads`` > 1 (and a rule that draws nothing at random), as many
    threads build at once, each depth first, and a thread with nothing to do
    takes the shallowest node another has waiting: each node's guess depends
    only on its secrets and history, so the tree is the same, and the compiled
    choice runs without Python's lock.  Python's cycle collector runs less often
    meanwhile (:func:`~strategytree.runner.fewer_collections`)."""
    root = Node("")
    first = _Task(root, secrets, sym, 1)
    if threads > 1 and not chooser.randomised:
        growers = _grow_shared(chooser, first, opening, progress, threads)
    else:
        growers = [_Grower(chooser, len(secrets))]
        todo = [first]
        nodes = 0
        while todo:
            todo.extend(growers[0].step(todo.pop(), opening))
            opening = None
            nodes += 1
            if progress is not None and nodes % 32 == 0:  # now and then: cheap nodes are many
                progress(growers[0].split.settled)
    if progress is not None:
        progress(sum(g.split.settled for g in growers))
    return Grown(
        root, sum(g.split.total for g in growers), max(g.split.deepest for g in growers)
    )


class _Grower:
    """One thread's building: a chooser and a splitter of its own."""

    def __init__(self, chooser: GreedyChooser, most: int) -> None:
        self.chooser = chooser
        self.split = _Splitter(chooser, most)

    def step(self, task: _Task, guess: int | None = None) -> list[_Task]:
        """Give ``task``'s node its guess (``guess``, or the chooser's) and
        branches; the children still to build, the lowest reply first."""
        node, secrets, sym, depth = task
        if guess is None:
            guess = self.chooser.choose(secrets, sym)
        node.guess = self.split.text[guess]
        pending = self.split(node, guess, secrets, depth)
        if not pending:
            return []
        child_sym = sym.after(self.chooser.game.guesses[guess])
        return [_Task(child, part, child_sym, depth + 1) for child, part in reversed(pending)]


def _grow_shared(
    chooser: GreedyChooser,
    first: _Task,
    opening: int | None,
    progress: Callable[[int], None] | None,
    threads: int,
) -> list[_Grower]:
    """Build ``first`` on ``threads`` threads (this one among them); the growers."""
    most = len(first.secrets)
    growers = [_Grower(chooser if k == 0 else chooser.copy(), most) for k in range(threads)]
    shared: list[_Task] = [first]  # nodes any thread may take
    lock = threading.Condition()
    state = {"waiting": 0, "done": False, "error": None}

    def take() -> _Task | None:
        with lock:
            state["waiting"] += 1
            while not shared and not state["done"]:
                if state["waiting"] == threads:  # nothing left anywhere
                    state["done"] = True
                    lock.notify_all()
                else:
                    lock.wait()
            state["waiting"] -= 1
            return None if state["done"] else shared.pop()

    def work(grower: _Grower, report: Callable[[int], None] | None, guess: int | None) -> None:
        mine: list[_Task] = []
        nodes = 0
        try:
            while not state["done"]:
                if not mine:
                    task = take()
                    if task is None:
                        return
                    mine.append(task)
                mine.extend(grower.step(mine.pop(), guess))
                guess = None
                if len(mine) > 1 and state["waiting"]:  # a thread is idle: the shallowest to it
                    node, secrets, sym, depth = mine.pop(0)
                    with lock:
                        shared.append(_Task(node, secrets, sym.copy(), depth))
                        lock.notify()
                nodes += 1
                if report is not None and nodes % 32 == 0:
                    report(sum(g.split.settled for g in growers))
        except BaseException as problem:  # stop every thread; raised again by this one
            with lock:
                state["error"] = state["error"] or problem
                state["done"] = True
                lock.notify_all()

    others = [
        threading.Thread(target=work, args=(g, None, None), daemon=True) for g in growers[1:]
    ]
    for thread in others:
        thread.start()
    try:
        work(growers[0], progress, opening)
    finally:
        with lock:
            if state["error"] is None and not state["done"]:
                state["error"] = KeyboardInterrupt()
            state["done"] = True
            lock.notify_all()
        for thread in others:
            thread.join()
    if state["error"] is not None:
        raise state["error"]
    return growers


class _Splitter:
    """Splits a node's secrets by the reply to its guess: the branches of the
    node, with the parts of one or two secrets built at once (every rule plays
    a possible secret there, the first), and a count of the secrets settled."""

    def __init__(self, chooser: GreedyChooser, most: int) -> None:
        from . import grouping

        game = chooser.game
        self.reply_groups = grouping.reply_groups
        self.game = game
        self.text = _guess_texts(game)
        """every allowed guess in letters"""
        self.at_once = chooser.rule != "random"
        """whether parts of one or two secrets are built at once"""
        # made once per game: the lookahead calls grow_greedy thousands of times
        self.replies_of = game.memo(
            "replies by code", lambda: [game.reply(code) for code in range(game.n_replies)]
        )
        self.pair_reply = feedback.pair_replier(game)  # the pairs settled without a kernel call
        self.guess_of = chooser.guess_of  # read for every small part
        self.reply_out = np.empty(most, dtype=np.int8)
        self.settled = 0
        """secrets whose guesses are all placed"""
        self.total = 0
        """their guesses, summed"""
        self.deepest = 0
        """the most guesses any of them needs"""

    def __call__(
        self, node: Node, guess: int, secrets: np.ndarray, depth: int
    ) -> list[tuple[Node, np.ndarray]]:
        """Give ``node`` (playing ``guess`` at ``depth``) its branches, highest
        reply first; the children still to build, with their secrets."""
        game, small, replies_of = self.game, self.small, self.replies_of
        replies = feedback.replies_into(game, guess, secrets, self.reply_out)
        codes, sizes, order = self.reply_groups(replies, game.n_replies)
        grouped = secrets[order]  # by reply, highest first, in order within a reply
        branches: list[tuple[Reply, Node]] = []
        pending: list[tuple[Node, np.ndarray]] = []
        settled = total = 0
        deepest = self.deepest
        end = 0
        for code, size in zip(codes, sizes):
            start, end = end, end + size
            if code == game.win:
                settled += 1
                total += depth
                deepest = max(deepest, depth)
                continue
            if size == len(secrets):
                raise StrategyTreeError(
                    f"no progress: guess {node.guess} does not split "
                    f"{plural(len(secrets), 'secret')}"
                )
            part = grouped[start:end]
            child = small(part.tolist()) if size <= 2 else None
            if child is not None:  # its first guess at depth + 1, a second one at depth + 2
                settled += size
                total += (depth + 1) + (depth + 2) * (size - 1)
                deepest = max(deepest, depth + size)
            else:
                child = Node("")
                pending.append((child, part))
            branches.append((replies_of[code], child))
        node.branches = tuple(branches)
        self.settled += settled
        self.total += total
        self.deepest = deepest
        return pending

    def small(self, secrets: list[int]) -> Node | None:
        """The node for one or two secrets, built at once (the rules agree), or
        None when it is not built so (the ``random`` rule, a secret that may not
        be guessed)."""
        guess_of, text = self.guess_of, self.text
        first_guess = guess_of[secrets[0]]
        if first_guess < 0 or not self.at_once:
            return None
        node = Node(text[first_guess])
        if len(secrets) == 2:
            second = guess_of[secrets[1]]
            if second < 0:
                return None
            reply = self.pair_reply(first_guess, secrets[1])
            node.branches = ((self.replies_of[reply], Node(text[second])),)
        return node


def _guess_texts(game: Game) -> list[str]:
    """Every allowed guess in letters, by index (kept on the game: made once)."""

    def make() -> list[str]:
        pegs = game.pegs
        letters = (game.guesses + ord("A")).tobytes().decode("ascii")
        return [letters[i * pegs : (i + 1) * pegs] for i in range(len(game.guesses))]

    return game.memo("guess texts", make)
