"""Progress of long runs: one shape that every builder, search and simulation reports.

A long run takes ``progress``, a function of one :class:`Progress`, and calls
it now and then; the command line shows it as one status line, and a Python
user can log it, draw it, or stop the run from it (by raising).  A run of
:mod:`strategytree.runner` makes its reports with a :class:`Reporter` (what
it counts, read when a report is due; the time since it started).

>>> str(Progress(done=1200, total=1296, unit="secrets", elapsed=0.5))
'1,200/1,296 secrets, 0.5 s'
>>> str(Progress(done=9706, total=None, unit="sets searched", elapsed=2.0, best=5625))
'9,706 sets searched, best total 5,625, 2.0 s'
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

__all__ = [
    "COMPILE_NOTICE", "PROGRESS_SECONDS", "WARM_BELOW", "Progress", "ProgressCallback", "Reporter",
    "QUIET", "Watch", "compiled_first", "compiles", "displayed", "progress_seconds", "warm_stamp",
]


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
            bar.update(task, status=str(progress), completed=done,
                       total=getattr(progress, "total", None))

        yield show


class Reporter:
    """Reports a run's progress to ``progress`` (None: nowhere): each call makes a
    :class:`Progress` of ``unit`` from ``status()`` (units done, the best total
    so far or None, more words) and the seconds since ``started`` (a
    ``time.perf_counter()``; default: when the reporter was made).

    >>> seen = []
    >>> report = Reporter(seen.append, "sets searched", lambda: (12, 5625, ""))
    >>> report(); seen[0].done, seen[0].best, seen[0].unit
    (12, 5625, 'sets searched')
    """

    def __init__(self, progress: ProgressCallback | None, unit: str,
                 status: Callable[[], tuple[int, int | None, str]],
                 total: int | None = None, started: float | None = None) -> None:
        self.progress, self.unit, self.status, self.total = progress, unit, status, total
        self.started = time.perf_counter() if started is None else started

    def __call__(self) -> None:
        if self.progress is not None:
            done, best, detail = self.status()
            self.progress(Progress(done, self.total, self.unit, time.perf_counter() - self.started,
                                   best=best, detail=detail))


#: games this small compile the kernels they need as fast as a warm-up would
WARM_BELOW = 200
#: seconds a warm-up may take before it is announced as compiling
COMPILE_NOTICE = 2.0


def compiled_first(game: Any, warm: Callable[[Any], object], say: Callable[[str], None]) -> None:
    """Run ``warm`` on a small game like ``game`` first (MM(3,4)'s size), so that
    compiling the kernels a run needs (once per install: they are cached) is not
    counted in the times it reports; a compile that takes a while is announced
    through ``say`` (once), and timed.  Errors of the small game are left to the run.

    A warm-up in which numba compiled nothing (every kernel came from its cache)
    leaves a stamp beside numba's cache (:func:`warm_stamp`); while the stamp is
    there, the same warm-up is skipped: it would only load what the run loads anyway."""
    import threading

    from .errors import StrategyTreeError
    from .presets import similar_game

    if len(game.secrets) < WARM_BELOW:
        return
    try:
        small = similar_game(game, 3, 4)
    except StrategyTreeError:
        return
    stamp = warm_stamp(warm, small)
    if stamp is not None and stamp.exists():
        return
    started = time.perf_counter()
    done = threading.Event()

    def announce() -> None:
        if not done.wait(COMPILE_NOTICE):
            say("compiling kernels, once per install ...")

    notice = threading.Thread(target=announce, daemon=True)
    notice.start()
    compiled: list[bool] = [False]
    failed: list[BaseException] = []

    def compile_all() -> None:
        try:
            with compiles() as count:
                warm(small)
            compiled[0] = count() > 0
        except StrategyTreeError:
            compiled[0] = True  # (not stamped: the run says what is wrong)
        except BaseException as problem:  # raised again in the caller's thread
            failed.append(problem)

    # in a thread of its own: CPython 3.11 maps and unmaps a 16 KiB chunk of its
    # frame stack on each call that crosses a chunk's edge, and numba's compiler
    # called at some depths of the caller's stack did so half a million times
    # (4 s of system time); a fresh thread starts its stack at the same place
    worker = threading.Thread(target=compile_all, name="strategytree-warm-up", daemon=True)
    try:
        worker.start()
        worker.join()
    finally:
        done.set()
        notice.join()
    if failed:
        raise failed[0]
    took = time.perf_counter() - started
    if took >= COMPILE_NOTICE:
        say(f"kernels ready in {took:.1f} s (not counted below)")
    if stamp is not None and not compiled[0]:
        with contextlib.suppress(OSError):  # a read-only cache: the warm-up just runs again
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.touch()


@contextmanager
def compiles() -> Iterator[Callable[[], int]]:
    """Count numba's compiles (``numba:compile`` events, from any thread) while in
    the block; a kernel loaded from numba's cache is not a compile."""
    from numba.core import event

    started = [0]

    class Counter(event.Listener):
        def on_start(self, event: object) -> None:
            started[0] += 1

        def on_end(self, event: object) -> None:
            pass

    with event.install_listener("numba:compile", Counter()):
        yield lambda: started[0]


def _described(value: object) -> str | None:
    """A stable text of a warm-up's setting (None for a value without one)."""
    if value is None or isinstance(value, str | int | float | bool):
        return repr(value)
    if isinstance(value, tuple | list):
        parts = [_described(item) for item in value]
        return None if None in parts else f"{type(value).__name__}({','.join(parts)})"  # type: ignore[arg-type]
    if isinstance(value, dict):
        parts = [_described(item) for pair in sorted(value.items(), key=repr) for item in pair]
        return None if None in parts else f"dict({','.join(parts)})"  # type: ignore[arg-type]
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{getattr(value, '__module__', '')}.{value.__qualname__}"
    return None


def warm_stamp(warm: Callable[[Any], object], small: Any) -> Path | None:
    """Where a warm-up of ``warm`` on ``small`` that compiled nothing is noted: a file
    beside numba's cache of our kernels, named by what decides which kernels the
    warm-up loads (the function and its settings, the game's kind, numba's version
    and target CPU, the modification times of our sources: an edit or a reinstall
    asks for a warm-up again).  None when that cannot be told (the warm-up runs)."""
    import hashlib
    import os

    code = getattr(warm, "__code__", None)
    if code is None:
        return None
    settings = [_described(cell.cell_contents) for cell in (warm.__closure__ or ())]
    if None in settings:
        return None
    import numba

    from .feedback import compiled

    try:
        where = Path(compiled().table_rows._cache._cache_path)  # numba's cache of feedback.py
    except AttributeError:  # another numba
        return None
    package = Path(__file__).parent
    sources = sorted((str(path.relative_to(package)), path.stat().st_mtime_ns)
                     for path in package.rglob("*.py"))
    key = repr((
        code.co_filename, code.co_firstlineno, settings, small.name, small.scoring,
        numba.__version__, numba.config.CPU_NAME, numba.config.CPU_FEATURES,  # (as .jit set them)
        os.environ.get("NUMBA_OPT"), sources,
    ))
    return where / f"strategytree-warm-{hashlib.sha1(key.encode()).hexdigest()[:20]}"


def _silent(text: object) -> None:
    """Say nothing (a :class:`Watch` nobody reads)."""


class Watch(NamedTuple):
    """How a run made for a person (a command's ``*_outcome`` function) tells how it
    goes; by default it says nothing.

    >>> Watch().warn("a long run ahead")
    """

    say: Callable[[object], None] = _silent
    """tells one line (a str, or rich Text): a warning, a compile, a cluster's dashboard"""
    console: Any = None
    """the rich console of the progress display (:func:`displayed`), None for none"""

    def warn(self, text: str | None) -> None:
        """A ``warning:`` line (its word in yellow), when there is one."""
        if text is not None:
            from rich.text import Text

            self.say(Text.assemble(("warning:", "yellow"), " ", text))

    def warm(self, game: Any, warm: Callable[[Any], object]) -> None:
        """:func:`compiled_first`: ``warm`` on a small game like ``game``, compiling first."""
        compiled_first(game, warm, self.say)

    @contextmanager
    def running(self, verb: str, game: Any, workers: int | str | None = None,
                scheduler: str | None = None, *,
                cluster: bool = True) -> Iterator[tuple[Any, ProgressCallback | None]]:
        """A long run's Dask client (:func:`strategytree.cluster.connect` of ``workers``,
        ``scheduler`` or $STRATEGYTREE_SCHEDULER; None: in this process, always when
        not ``cluster``) and its progress callback (``verb`` and the game's name
        :func:`displayed` on :attr:`console`; None without one)."""
        with ExitStack() as stack:
            client = None
            if cluster:
                from .cluster import connect

                client = stack.enter_context(connect(workers, scheduler, say=self.say))
            progress = None if self.console is None else stack.enter_context(
                displayed(verb, game.name, self.console, self.say))
            yield client, progress


#: a :class:`Watch` that says nothing and shows no progress
QUIET = Watch()
