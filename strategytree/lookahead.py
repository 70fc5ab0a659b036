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
import time
from collections.abc import Sequence
from dataclasses import dataclass

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


def parse_widths(text: str) -> tuple[int, ...]:
    """Widths written as text, ``8,8,4``, as numbers (each at least 1).

    >>> parse_widths("8, 8,4")
    (8, 8, 4)
    """
    items = text.split(",")
    if text.strip() and not all(w.strip() for w in items):
        raise ArgumentError("{widths}: a width is missing between two commas", widths=text)
    try:
        widths = tuple(int(w) for w in items if w.strip())
    except ValueError:
        raise ArgumentError("{widths}: expected numbers such as 8,8,4", widths=text) from None
    if any(w < 1 for w in widths):
        raise ArgumentError("{widths}: every width must be at least 1", widths=text)
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

    def progress(self) -> Progress:
        """The count as a :class:`~strategytree.progress.Progress`."""
        return Progress(
            self.nodes, None, "nodes searched", time.perf_counter() - self.started,
            detail=f"{plural(self.completions, 'completion')}, "
            f"{plural(self.saved, 'guess')} saved",
        )


#: seconds between two saves of a checkpoint
CHECKPOINT_EVERY = 5.0


def build_lookahead(
    game: Game,
    rule: str = "entropy",
    widths: Sequence[int] = (8, 4),
    *,
    symmetry: bool = True,
    progress: ProgressCallback | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    also: Sequence[str] | str = (),
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
    """
    if isinstance(widths, str):
        widths = parse_widths(widths)
    if any(int(w) < 1 for w in widths):
        raise StrategyTreeError("every width must be at least 1")
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
    levels = tuple(int(w) for w in widths)
    rules = "+".join([chooser.rule, *(other.rule for other in others)])
    saved = _Decisions(checkpoint, game, rules, levels) if checkpoint else None
    search = _Search(chooser, levels, state, progress, saved, others)
    secrets = np.arange(len(game.secrets))
    try:
        root = search.subtree(secrets, chooser.root_symmetry(), 0).node
    finally:
        if saved is not None:
            saved.save()
    widths_text = ",".join(str(w) for w in widths) or "greedy"
    return Strategy(root, source=f"<lookahead {rules} {widths_text} {game.name}>")


class _Decisions:
    """The decisions of a lookahead run, kept in a checkpoint between runs
    (:mod:`strategytree.checkpoint`: a header naming the run, then records of
    ``keys`` (the level and a digest of the secrets, 14 bytes a row) and
    ``decisions`` (the guess kept); each save appends the new decisions)."""

    def __init__(self, path: str | os.PathLike[str], game: Game, rule: str, widths: tuple) -> None:
        self.header = {
            "search": "lookahead",
            "pegs": game.pegs,
            "colors": game.colors,
            "scoring": game.scoring,
            # the game's codes and replies, not its name, say which game it is
            "codes": _digest(game.secrets, game.guesses, game.table),
            "rule": rule,
            "widths": list(widths),
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


def _digest(*arrays: np.ndarray | None) -> str:
    """A short digest of some arrays (None for a missing one)."""
    digest = hashlib.blake2b(digest_size=12)
    for array in arrays:
        digest.update(b"-" if array is None else np.ascontiguousarray(array).tobytes() + b"|")
    return digest.hexdigest()


class _Search:
    def __init__(
        self,
        chooser: GreedyChooser,
        widths: tuple[int, ...],
        state: _Count,
        progress: ProgressCallback | None,
        checkpoint: _Decisions | None = None,
        others: Sequence[GreedyChooser] = (),
    ) -> None:
        self.checkpoint = checkpoint
        self.chooser = chooser
        self.choosers = [chooser, *others]
        self.game = chooser.game
        self.widths = widths
        self.state = state
        self.progress = progress
        self.replies = [self.game.reply(code) for code in range(self.game.n_replies)]

    def parts(self, secrets: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """The secrets split by their reply to ``guess``, highest reply first."""
        from . import kernels

        out = np.empty(len(secrets), dtype=np.int8)
        replies = feedback.replies_into(self.game, guess, secrets, out)
        return [(code, secrets[group]) for code, group in kernels.group_by_reply(replies, self.game.n_replies)]

    def complete(self, secrets: np.ndarray, sym: Symmetry, guess: int) -> list[tuple[int, Grown | None]]:
        """Each part below ``guess``, with its greedy subtree (None for the win)."""
        after = sym.after(self.game.guesses[guess])
        done = []
        for code, part in self.parts(secrets, guess):
            if code == self.game.win:
                done.append((code, None))
            elif len(part) == len(secrets):
                return []  # the guess does not split: never the best
            else:
                done.append((code, self.greedy(part, after)))
        return done

    def greedy(self, secrets: np.ndarray, sym: Symmetry) -> Grown:
        """The cheapest greedy subtree of the rules for these secrets."""
        best = None
        for chooser in self.choosers:
            grown = grow_greedy(chooser, secrets, sym)
            self.state.completions += 1
            if best is None or (grown.total, grown.depth) < (best.total, best.depth):
                best = grown
        assert best is not None
        return best

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

    def subtree(self, secrets: np.ndarray, sym: Symmetry, level: int) -> Grown:
        """The searched subtree for ``secrets`` at ``level`` (0 at the root)."""
        width = self.widths[level] if level < len(self.widths) else 1
        if width <= 1 or len(secrets) <= 2:
            return self.greedy(secrets, sym)
        best: tuple[tuple[int, int], int, list] | None = None
        greedy_cost = None
        key = _Decisions.key(secrets, level) if self.checkpoint is not None else b""
        known = self.checkpoint.decisions.get(key) if self.checkpoint is not None else None
        if known is not None:
            shortlist = [known]
        else:  # the first rule's choice first: its completion is the greedy tree
            shortlist = []
            for chooser in self.choosers:
                for guess in chooser.shortlist(secrets, sym, width).tolist():
                    if guess not in shortlist:
                        shortlist.append(guess)
        for guess in shortlist:
            below = self.complete(secrets, sym, guess)
            if not below:
                continue
            cost = self.cost(secrets, below)
            if greedy_cost is None:
                greedy_cost = cost
            if best is None or cost < best[0]:
                best = (cost, guess, below)
        assert best is not None and greedy_cost is not None
        (total, depth), guess, below = best
        self.state.nodes += 1
        if known is None:
            self.state.saved += greedy_cost[0] - total
        if self.checkpoint is not None:
            self.checkpoint.note(key, guess)
        if self.progress is not None:
            self.progress(self.state.progress())
        # search again below the kept guess, one level deeper
        after = sym.after(self.game.guesses[guess])
        branches: list[tuple[Reply, Node]] = []
        total, depth = len(secrets), 1
        for (code, grown), (_, part) in zip(below, self.parts(secrets, guess)):
            if grown is None:
                continue
            if level + 1 < len(self.widths) and self.widths[level + 1] > 1 and len(part) > 2:
                searched = self.subtree(part, after, level + 1)
                if (searched.total, searched.depth) < (grown.total, grown.depth):
                    self.state.saved += grown.total - searched.total
                    grown = searched
            branches.append((self.replies[code], grown.node))
            total += grown.total
            depth = max(depth, grown.depth + 1)
        node = Node(_guess_text(self.game, guess), tuple(branches))
        return Grown(node, total, depth)


def _guess_text(game: Game, guess: int) -> str:
    return game.code_text(game.guesses[guess])
