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

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = ["PROGRESS_SECONDS", "Progress", "ProgressCallback", "displayed", "progress_seconds"]


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


#: seconds between two progress lines when the console is not a terminal (a log);
#: the environment variable STRATEGYTREE_PROGRESS_SECONDS changes it
PROGRESS_SECONDS = 10.0


def progress_seconds() -> float:
    """Seconds between two progress lines in a log (:data:`PROGRESS_SECONDS`)."""
    import os

    try:
        return max(0.0, float(os.environ.get("STRATEGYTREE_PROGRESS_SECONDS", PROGRESS_SECONDS)))
    except ValueError:
        return PROGRESS_SECONDS


@contextmanager
def displayed(
    verb: str, name: str, console: Any, say: Callable[[str], None]
) -> Iterator[Callable[[object], None]]:
    """The one status display of long runs on a rich ``console``: yields the
    callback a run calls with its progress (anything that prints itself, and may
    count ``done`` of ``total``), ``verb`` and ``name`` saying what runs.

    On a terminal, one status line; otherwise (a log, a batch job) a plain line
    (through ``say``) every :data:`PROGRESS_SECONDS` (or ``$STRATEGYTREE_PROGRESS_SECONDS``).
    """
    import time

    if not console.is_terminal:
        every = progress_seconds()
        last = [time.perf_counter()]

        def log(progress: object) -> None:
            now = time.perf_counter()
            if now - last[0] >= every:
                last[0] = now
                say(f"{verb} {name}: {progress}")

        yield log
        return
    from rich.progress import BarColumn, TextColumn
    from rich.progress import Progress as Bar

    with Bar(
        TextColumn(f"{verb} {{task.description}}: {{task.fields[status]}}"),
        BarColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(name, total=None, status="starting")

        def show(progress: object) -> None:
            done = getattr(progress, "done", 0)
            bar.update(task, status=str(progress), completed=done, total=getattr(progress, "total", None))

        yield show
