"""The checkpoints of node searches (:mod:`strategytree.checkpoint`: a header
naming the run, then records), saved on the one cadence of long runs
(:class:`strategytree.runner.Cadence`, every :data:`~strategytree.runner.SAVE_EVERY`
seconds):

- a lookahead keeps its **decisions** (:class:`Decisions`): records of
  ``keys`` (:func:`~strategytree.nodesearch.search.node_key`, 14 bytes a row)
  and ``decisions`` (the guess kept), each save appending the new ones;
- ``improve`` keeps its **best tree and the subtrees tried** (:class:`Saved`):
  one record of the tree's text and the keys tried
  (:func:`~strategytree.nodesearch.search.set_key`, 18 bytes a row),
  rewritten at each save.
"""

from __future__ import annotations

import hashlib
import os
import time

import numpy as np

from .. import checkpoint as saved_runs
from ..errors import StrategyTreeError
from ..game import Game
from ..runner import Cadence
from ..tree import Node, Strategy
from .settings import SearchSettings

__all__ = ["Decisions", "Noted", "Saved", "lookahead_header"]


def lookahead_header(settings: SearchSettings) -> dict[str, object]:
    """A lookahead's settings in its checkpoint's header (the options left out
    where not used: the checkpoints of earlier runs stay usable)."""
    header: dict[str, object] = {"widths": list(settings.widths)}
    if settings.complete:
        header["complete"] = [list(settings.complete), settings.complete_above]
    if settings.max_guesses is not None:
        header["max_guesses"] = settings.max_guesses
    if settings.searched:
        header["finalists"] = list(settings.finalists)
    if settings.exact_below:
        header["exact_below"] = settings.exact_below
    return header


class Decisions:
    """The decisions of a lookahead run, kept in a checkpoint between runs (see
    the module doc); :meth:`note` saves when due (:class:`~strategytree.runner.Cadence`)."""

    def __init__(self, path: str | os.PathLike[str], game: Game, settings: SearchSettings) -> None:
        self.header = saved_runs.header("lookahead", game, rule="+".join(settings.rules),
                                        **lookahead_header(settings))
        self.file = saved_runs.Checkpoint(path, self.header)
        self.decisions: dict[bytes, int] = {}
        self.new: list[tuple[bytes, int]] = []
        self.cadence = Cadence()
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

    def note(self, key: bytes, guess: int) -> None:
        """Keep the decision ``guess`` of the node ``key`` (saved when due)."""
        self.decisions[key] = guess
        self.new.append((key, guess))
        if self.cadence.due():
            self.save()

    def save(self) -> None:
        """Append the decisions new since the last save."""
        began = time.monotonic()
        if self.new:
            if self.started:
                self.file.append(self.arrays(self.new))
            else:
                self.file.rewrite(self.arrays(self.new))
                self.started = True
            self.new = []
        self.cadence.saved(began)

    @staticmethod
    def arrays(items: list[tuple[bytes, int]]) -> dict[str, np.ndarray]:
        """Decisions as a record's arrays."""
        keys = np.frombuffer(b"".join(k for k, _ in items), dtype=np.uint8).reshape(len(items), 14)
        return {"keys": keys, "decisions": np.array([g for _, g in items], dtype=np.int64)}


class Noted:
    """A worker's view of a lookahead's checkpoint: the decisions known, and those made."""

    def __init__(self, decisions: dict[bytes, int]) -> None:
        self.decisions = decisions
        self.new: list[tuple[bytes, int]] = []

    def note(self, key: bytes, guess: int) -> None:
        """Keep the decision (sent back with the task's answer)."""
        self.new.append((key, guess))


class Saved:
    """An ``improve`` run's checkpoint (see the module doc): a header naming the
    input and the settings, then one record of the best tree so far and the
    subtrees already tried."""

    def __init__(self, path: str | os.PathLike[str], strategy: Strategy, game: Game,
                 settings: SearchSettings) -> None:
        from ..formats.brace import dumps

        digest = hashlib.blake2b(dumps(strategy).encode("ascii"), digest_size=12)
        self.header = saved_runs.header(
            "improve", game, input=digest.hexdigest(), exact_below=settings.exact_below,
            widths=list(settings.widths), max_guesses=settings.max_guesses)
        if settings.finalists:
            self.header["finalists"] = list(settings.finalists)
        if settings.deepen:
            self.header["deepen"] = list(settings.deepen)
        self.path = path
        self.file = saved_runs.Checkpoint(path, self.header)
        self.cadence = Cadence()
        """when the next save is due (:meth:`save` keeps it)"""

    def load(self) -> tuple[Strategy, set[bytes]] | None:
        """The best tree and the subtrees tried, as saved; None without a file."""
        from ..formats.brace import loads

        arrays = saved_runs.load(self.path, self.header)
        if arrays is None:
            return None
        tree, done = arrays.get("tree"), arrays.get("done")
        if tree is None or done is None or tree.dtype != np.uint8 or done.ndim != 2:
            raise saved_runs.CheckpointError(f"{self.path}: not a checkpoint of improve")
        try:
            strategy = loads(tree.tobytes().decode("ascii"), source=str(self.path))
        except (UnicodeDecodeError, StrategyTreeError):
            raise saved_runs.CheckpointError(
                f"{self.path}: not a usable checkpoint: damaged (its tree is not a strategy); "
                "use another file"
            ) from None
        if done.shape[1] != 18:
            raise saved_runs.CheckpointError(f"{self.path}: not a checkpoint of improve")
        return strategy, {bytes(row) for row in done}

    def save(self, root: Node, done: set[bytes]) -> None:
        """Write the best tree and the subtrees tried (atomically)."""
        from ..formats.brace import dumps

        began = time.monotonic()
        tree = np.frombuffer(dumps(root).encode("ascii"), dtype=np.uint8)
        rows = np.frombuffer(b"".join(sorted(done)), dtype=np.uint8).reshape(len(done), 18)
        self.file.rewrite({"tree": tree, "done": rows})
        self.cadence.saved(began)
