"""What a node search searches: its settings, the text of counts given level by
level, a set's key, and the tally of a run.

Both commands that search nodes, ``generate --method lookahead`` and
``improve``, read their options with :func:`parse_counts` and build one
:class:`SearchSettings` before any work; the search, its checkpoint and its
workers all read that value.

>>> parse_counts("8, all,0", "widths") == (8, ALL, 0)
True
>>> at_level((4, 3, 2), 5), at_level((), 5)
(2, 0)
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..counting import UNLIMITED
from ..errors import ArgumentError, check_whole
from ..progress import Progress
from ..words import plural

__all__ = ["ALL", "COMPLETE_ABOVE", "SearchSettings", "Tally", "at_level", "digest",
           "parse_counts"]

ALL = 1 << 40
"""a level's count that takes every candidate (``all`` in the text of counts)"""
#: with ``complete``: the parts of more than this many secrets get the inner search
COMPLETE_ABOVE = 400


def parse_counts(counts: Sequence[int] | str, argument: str, *, least: int = 0) -> tuple[int, ...]:
    """Counts given level by level, as text (``8,8,4``; ``all``: every
    candidate, :data:`ALL`) or numbers, each at least ``least``; an error names
    the value as ``argument``.  The one reader of ``widths``, ``finalists``,
    ``complete`` and ``deepen`` for both commands.

    >>> parse_counts("8, 8,4", "widths"), parse_counts("", "widths")
    ((8, 8, 4), ())
    """
    named = {argument: counts}
    if isinstance(counts, str):
        items = counts.split(",")
        if counts.strip() and not all(w.strip() for w in items):
            raise ArgumentError(f"{{{argument}}}: a width is missing between two commas", **named)
        try:
            counts = tuple(ALL if w.strip() == "all" else int(w) for w in items if w.strip())
        except ValueError:
            raise ArgumentError(f"{{{argument}}}: expected numbers such as 8,8,4, or all",
                                **named) from None
    counts = tuple(int(k) for k in counts)
    if any(k < least for k in counts):
        raise ArgumentError(f"{{{argument}}}: every count must be at least {least}", **named)
    return counts


def at_level(counts: tuple[int, ...], level: int) -> int:
    """The count of ``level`` (a level beyond the list: its last; none: 0)."""
    return counts[min(level, len(counts) - 1)] if counts else 0


def digest(S: np.ndarray) -> bytes:
    """A set of secrets (indices) named in 12 bytes: the digest of its indices."""
    data = np.ascontiguousarray(S, dtype=np.int64).tobytes()
    return hashlib.blake2b(data, digest_size=12).digest()


def counts_text(counts: Sequence[int]) -> str:
    """Counts as written (``8,all,2``)."""
    return ",".join("all" if k == ALL else str(k) for k in counts)


@dataclass(frozen=True)
class SearchSettings:
    """What a node search searches, the same for its driver, its checkpoint and
    its workers; built once by the caller (:meth:`of` checks it).

    The counts are given level by level (a node's level: the guesses played
    before it).  At a node of level ``d``, each rule's ``widths[d]`` best guesses
    are the candidates; ranked by their completions, the ``finalists[d]``
    cheapest are searched in full below (0: all of them), and the best
    searched subtree is kept."""

    rules: tuple[str, ...] = ("entropy",)
    """the one-step rules whose best guesses are the candidates (a lookahead:
    the first is its own, whose completion is the greedy subtree)"""
    widths: tuple[int, ...] = ()
    """candidates per rule at each level (:data:`ALL`: every guess; 0: the
    level is not searched)"""
    widths_go_on: bool = False
    """a level beyond ``widths``: as the last (``improve``) or not searched (a
    lookahead, which completes it greedily)"""
    finalists: tuple[int, ...] = ()
    """at each level, how many candidates, ranked by their completions, are
    searched in full (0: all; a level beyond the list: as its last; none: 0)"""
    exact_below: int = 0
    """the sets of at most this many secrets are solved exactly (0: none)"""
    max_guesses: int | None = None
    """subtrees within this many guesses are preferred to any that are not
    (None: no limit)"""
    complete: tuple[int, ...] = ()
    """a lookahead: the widths of the inner lookahead that completes the parts
    of more than ``complete_above`` secrets (none: greedy completions)"""
    complete_above: int = COMPLETE_ABOVE
    """with ``complete``: the parts of more than this many secrets get it"""
    deepen: tuple[int, ...] = ()
    """``improve``: (width, finalists) of the search again of a candidate's
    large parts (none: left greedy)"""

    @classmethod
    def of(cls, *, rules: Sequence[str] = ("entropy",), widths: Sequence[int] | str = (),
           widths_go_on: bool = False, finalists: Sequence[int] | str = (),
           exact_below: int = 0, max_guesses: int | None = None,
           complete: Sequence[int] | str = (), complete_above: int = COMPLETE_ABOVE,
           deepen: Sequence[int] | str = ()) -> SearchSettings:
        """The settings, read (counts as text too: :func:`parse_counts`) and checked."""
        widths = parse_counts(widths, "widths")
        finalists = parse_counts(finalists, "finalists")
        complete = parse_counts(complete, "complete", least=1)
        given = deepen if isinstance(deepen, str) else ",".join(map(str, deepen))
        deepen = parse_counts(deepen, "deepen")
        if deepen and (len(deepen) != 2 or not all(deepen)):
            raise ArgumentError("{deepen} must be a width and a count of finalists, each at "
                                "least 1 (e.g. 50,5)", deepen=given)
        check_whole(complete_above, 2, complete_above=complete_above)
        if max_guesses is not None:
            check_whole(max_guesses, 1, max_guesses=max_guesses)
            max_guesses = min(int(max_guesses), UNLIMITED)  # (more: no limit either)
        check_whole(exact_below, 0, exact_below=exact_below)
        return cls(tuple(rules), widths, widths_go_on, finalists, exact_below, max_guesses,
                   complete, complete_above, deepen)

    def width(self, level: int) -> int:
        """Candidates per rule at ``level`` (0: not searched)."""
        if self.widths_go_on:
            return at_level(self.widths, level)
        return self.widths[level] if level < len(self.widths) else 0

    def finalists_at(self, level: int) -> int:
        """How many candidates are searched in full at ``level`` (0: all)."""
        return at_level(self.finalists, level)

    @property
    def searched(self) -> bool:
        """Whether more than the cheapest candidate is searched at some level."""
        return any(k != 1 for k in self.finalists)

    def completing(self) -> SearchSettings | None:
        """The settings of the lookahead that completes the big parts (None: none)."""
        if not self.complete:
            return None
        return SearchSettings(self.rules, self.complete, finalists=(1,),
                              max_guesses=self.max_guesses)

    def text(self) -> str:
        """A lookahead's settings in words, for its strategy's source."""
        text = counts_text(self.widths) or "greedy"
        if self.complete:
            text += f" completed by {counts_text(self.complete)} above {self.complete_above}"
        if self.searched:
            text += f" finalists {counts_text(self.finalists)}"
        if self.exact_below:
            text += f" exact below {self.exact_below}"
        if self.max_guesses is not None:
            text += f" within {self.max_guesses}"
        return text


@dataclass
class Tally:
    """How far a node search has got (the driver's; each worker task keeps its own)."""

    searched: int = 0
    """nodes searched so far"""
    completions: int = 0
    """greedy completions built so far"""
    saved: int = 0
    """guesses saved so far (against the greedy subtrees replaced, or the input)"""
    best: int | None = None
    """``improve``: the best total so far (None: a tree being built)"""
    where: str = ""
    """``improve``: the node being worked on"""
    started: float = field(default_factory=time.perf_counter)
    """``time.perf_counter()`` at the start"""
    tasks: Callable[[], str] | None = None
    """a lookahead on a cluster: its tasks, in words (None: in-process)"""

    @property
    def unit(self) -> str:
        """What the run counts: nodes of a tree being built, or subtrees searched again."""
        return "nodes searched" if self.best is None else "subtrees searched"

    def status(self) -> tuple[int, int | None, str]:
        """The nodes searched, the best total (None: a tree being built), and more
        words (a :class:`~strategytree.progress.Reporter`'s status)."""
        if self.best is None:  # a tree being built
            tasks = "" if self.tasks is None else f", {self.tasks()}"
            return (self.searched, None, f"{plural(self.completions, 'completion')}, "
                    f"{plural(self.saved, 'guess')} saved{tasks}")
        return (self.searched, self.best, f"{self.saved:,} guesses saved"
                + (f", at {self.where}" if self.where else ""))

    def progress(self) -> Progress:
        """The tally as a :class:`~strategytree.progress.Progress`."""
        elapsed = time.perf_counter() - self.started
        done, best, detail = self.status()
        return Progress(done, None, self.unit, elapsed, best=best, detail=detail)
