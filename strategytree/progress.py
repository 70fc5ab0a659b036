"""Progress of long runs: one shape that every builder, search and simulation reports.

A long run takes ``progress``, a function of one :class:`Progress`, and calls
it now and then; the command line shows it as one status line, and a Python
user can log it, draw it, or stop the run from it (by raising).

>>> str(Progress(done=1200, total=1296, unit="secrets", elapsed=0.5))
'1,200/1,296 secrets, 0.5 s'
>>> str(Progress(done=9706, total=None, unit="sets searched", elapsed=2.0, best=5625))
'9,706 sets searched, best total 5,625, 2.0 s'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Progress", "ProgressCallback"]


@dataclass(frozen=True)
class Progress:
    """How far a long run has got."""

    done: int
    """units of work done so far (secrets settled, games played, sets searched, ...)"""
    total: int | None
    """units in all, when known in advance (None for a search)"""
    unit: str
    """what is counted, in words: ``"secrets"``, ``"games"``, ``"sets searched"``"""
    elapsed: float
    """seconds since the run started"""
    best: int | None = None
    """the smallest total of a whole strategy found so far (searches), if any"""
    detail: str = ""
    """more words about the run (``"120 guesses saved"``), shown after the rest"""

    @property
    def fraction(self) -> float | None:
        """``done / total`` when the total is known."""
        return self.done / self.total if self.total else None

    def __str__(self) -> str:
        count = f"{self.done:,}" if self.total is None else f"{self.done:,}/{self.total:,}"
        words = [f"{count} {self.unit}"]
        if self.total is None and self.unit == "sets searched":
            words.append("best total " + ("none yet" if self.best is None else f"{self.best:,}"))
        elif self.best is not None:
            words.append(f"best total {self.best:,}")
        if self.detail:
            words.append(self.detail)
        words.append(f"{self.elapsed:.1f} s")
        return ", ".join(words)


#: what a long run calls with its progress
ProgressCallback = Callable[[Progress], None]
