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
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import feedback
from .builders import GreedyChooser, Grown, grow_greedy
from .errors import StrategyTreeError
from .files import write_text_atomic
from .game import Game, Reply
from .symmetry import Symmetry
from .tree import Node, Strategy

__all__ = ["LookaheadProgress", "build_lookahead"]


@dataclass
class LookaheadProgress:
    """How far a lookahead build has got (passed to ``progress``)."""

    nodes: int = 0
    """nodes decided by search so far"""
    completions: int = 0
    """greedy completions built so far"""
    saved: int = 0
    """guesses saved so far against the greedy subtrees they replaced"""
    started: float = 0.0
    """``time.perf_counter()`` at the start"""

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started


#: seconds between two saves of a checkpoint
CHECKPOINT_EVERY = 5.0


def build_lookahead(
    game: Game,
    rule: str = "entropy",
    widths: Sequence[int] = (8, 4),
    *,
    symmetry: bool = True,
    progress: Callable[[LookaheadProgress], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    also: Sequence[str] = (),
) -> Strategy:
    """A strategy for ``game`` found by searching the ``widths[d]`` best guesses
    of ``rule`` at depth ``d`` (see the module doc).

    With ``checkpoint``, every decision is saved to that file (atomically, every
    few seconds and when interrupted) and a run with the same file, game, rule
    and widths takes the decisions already made instead of searching again.

    ``also`` names more rules: their best guesses join the shortlist, and each
    part below a guess is completed by every rule, keeping the cheapest
    completion (slower by about the number of rules, never worse).
    """
    if any(int(w) < 1 for w in widths):
        raise StrategyTreeError("every width must be at least 1")
    chooser = GreedyChooser(game, rule, symmetry=symmetry)
    others = [GreedyChooser(game, other, symmetry=symmetry) for other in also]
    if chooser.randomised or any(other.randomised for other in others):
        raise StrategyTreeError("search needs rules that score guesses, not first or random")
    state = LookaheadProgress(started=time.perf_counter())
    levels = tuple(int(w) for w in widths)
    rules = "+".join([chooser.rule, *(other.rule for other in others)])
    saved = _Checkpoint(checkpoint, game, rules, levels) if checkpoint else None
    search = _Search(chooser, levels, state, progress, saved, others)
    secrets = np.arange(len(game.secrets))
    try:
        root = search.subtree(secrets, chooser.root_symmetry(), 0).node
    finally:
        if saved is not None:
            saved.save()
    widths_text = ",".join(str(w) for w in widths) or "greedy"
    return Strategy(root, source=f"<lookahead {rules} {widths_text} {game.name}>")


class _Checkpoint:
    """The decisions of a lookahead run, kept in a JSON file between runs."""

    def __init__(self, path: str | os.PathLike[str], game: Game, rule: str, widths: tuple) -> None:
        self.path = Path(path)
        self.what = {"game": game.name, "rule": rule, "widths": list(widths)}
        self.decisions: dict[str, int] = {}
        self.last = time.perf_counter()
        if self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as err:
                raise StrategyTreeError(f"{self.path}: not a lookahead checkpoint ({err})") from None
            if not isinstance(data, dict) or data.get("run") != self.what:
                raise StrategyTreeError(
                    f"{self.path} is the checkpoint of another run ({data.get('run') if isinstance(data, dict) else '?'}); "
                    "use another file, or the same game, rule and widths"
                )
            self.decisions = {str(k): int(v) for k, v in data.get("decisions", {}).items()}

    @staticmethod
    def key(secrets: np.ndarray, level: int) -> str:
        return f"{level}:{hashlib.blake2b(secrets.tobytes(), digest_size=12).hexdigest()}"

    def note(self, key: str, guess: int) -> None:
        self.decisions[key] = guess
        if time.perf_counter() - self.last > CHECKPOINT_EVERY:
            self.save()

    def save(self) -> None:
        data = {"run": self.what, "decisions": self.decisions}
        write_text_atomic(self.path, json.dumps(data))
        self.last = time.perf_counter()


class _Search:
    def __init__(
        self,
        chooser: GreedyChooser,
        widths: tuple[int, ...],
        state: LookaheadProgress,
        progress: Callable[[LookaheadProgress], None] | None,
        checkpoint: _Checkpoint | None = None,
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
        key = _Checkpoint.key(secrets, level) if self.checkpoint is not None else ""
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
            self.progress(self.state)
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
