"""What the ``strategytree`` command says, and how it ends: its two consoles, the
exit codes, library errors worded in flags, the signals that stop a long run,
its progress display and its Dask cluster."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..errors import (
    ArgumentError,
    InputTooLargeError,
    OutputExistsError,
    StrategyFileError,
    StrategyTreeError,
    refuse_inert,
)

if TYPE_CHECKING:
    from ..game import Game

out = Console(highlight=False, emoji=False)
err = Console(stderr=True, highlight=False, emoji=False)

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
#: the exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130
#: the exit code of a run stopped by SIGTERM (128 + 15): ``kill``, ``timeout``, batch schedulers
EXIT_TERMINATED = 143
#: the exit code of a run stopped by SIGHUP (128 + 1): its terminal closed
EXIT_HANGUP = 129
#: the signals that stop a run as Ctrl-C does, with the exit code of each
STOP_SIGNALS = {signal.SIGTERM: EXIT_TERMINATED, signal.SIGHUP: EXIT_HANGUP}
#: seconds between two progress lines when stderr is not a terminal (a log);
#: the environment variable STRATEGYTREE_PROGRESS_SECONDS changes it
PROGRESS_SECONDS = 10.0

#: the flag of each library argument whose flag is not its name
FLAGS = {"preset": "--game", "fmt": "--from", "client": "--workers/--scheduler"}


def flag(name: str, value: object) -> str:
    """A library argument as the flag that gives it: ``--pegs 5``, ``--distinct``."""
    given = FLAGS.get(name, "--" + name.replace("_", "-"))
    return given if value is True or name == "client" else f"{given} {value}"


def words(problem: StrategyTreeError | str) -> str:
    """What to say of an error: the library's message, its arguments as flags."""
    if isinstance(problem, ArgumentError):
        return problem.worded(flag)
    if isinstance(problem, OutputExistsError):
        return f"{problem.path} exists; use --force to overwrite it"
    if isinstance(problem, InputTooLargeError):
        return problem.limit_worded("a larger --max-input-mb")
    if isinstance(problem, StrategyFileError):
        return problem.worded("--lenient")
    export = sys.modules.get("strategytree.export")  # loaded if it raised
    if export is not None and isinstance(problem, export.DrawingTooBig):
        return f"{problem} (--depth, --path)"
    return str(problem)


def failed(problem: StrategyTreeError | str) -> typer.Exit:
    """Say what went wrong, in one ``error:`` line on stderr: exit 2.  A strategy
    refused for what the verifier found (the error has its ``report``) is shown
    with that report instead: exit 1."""
    report = getattr(problem, "report", None)
    if report is not None:
        from ..verify import report_view

        show(report_view(report))
        return typer.Exit(EXIT_INVALID)
    err.print(f"[bold red]error:[/] {escape(words(problem))}", soft_wrap=True)
    return typer.Exit(EXIT_UNREADABLE)


def say(text: str) -> None:
    """One plain line on stderr (nothing if stderr is gone, as after a hang-up)."""
    try:
        err.print(text, markup=False, soft_wrap=True, highlight=False)
    except (OSError, ValueError):
        pass


def show(parts: list[Any], console: Console | None = None) -> None:
    """Print what the library made for the terminal: lines (rich markup, or rich
    Text) as they are, tables laid out to the width."""
    for part in parts:
        (console or out).print(part, soft_wrap=not isinstance(part, Table))


def print_json(data: object) -> None:
    """A report built by the library, as JSON: the only thing on stdout."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")  # ASCII: safe in any locale


def given(ctx: typer.Context, **values: object) -> dict[str, object]:
    """``values`` (options by parameter name) with None for each one left at its
    default, not given on the command line: what the library's checks of
    options without effect read."""
    return {
        name: None if (source := ctx.get_parameter_source(name)) is None
        or source.name in ("DEFAULT", "DEFAULT_MAP") else value
        for name, value in values.items()
    }


def check_outputs(
    outputs: list[Path | None],
    *,
    force: bool,
    inputs: dict[str, Path | None] | None = None,
    checkpoint: Path | None = None,
    stdout: bool = False,
) -> None:
    """Before any work: each output is not a file the command reads (nor the
    checkpoint, nor another output), its folder is writable, and an existing
    file is overwritten only with --force (a device, FIFO or ``-`` is streamed
    into, never replaced; ``-`` only where ``stdout`` allows it, for commands
    that write text); the checkpoint's folder is writable."""
    from ..files import check_not_same, check_writable, is_stdout

    read = {**(inputs or {}), "the checkpoint": checkpoint}
    if force and all(output is None for output in outputs):
        refuse_inert({"force": True}, (), "without an output file to overwrite")
    for k, output in enumerate(outputs):
        if output is not None and is_stdout(output) and not stdout:
            raise StrategyTreeError(
                "- (the standard output) is taken by show, convert and format -o only; name a file"
            )
        check_not_same(output, read)
        for other in outputs[:k]:
            check_not_same(output, {"another output": other})
        check_writable(output, force=force)
    check_not_same(checkpoint, inputs or {})
    check_writable(checkpoint, force=True, stream=False)


@contextmanager
def progress(verb: str, game: Game) -> Iterator[Callable[[object], None]]:
    """The one status display of long runs: yields the callback a run calls with
    its progress (anything that prints itself, and may count ``done`` of ``total``).

    On a terminal, one status line; otherwise (a log, a batch job) a plain line
    every :data:`PROGRESS_SECONDS` (or ``$STRATEGYTREE_PROGRESS_SECONDS``).
    """
    if not err.is_terminal:
        every = progress_seconds()
        last = [time.perf_counter()]

        def log(progress: object) -> None:
            now = time.perf_counter()
            if now - last[0] >= every:
                last[0] = now
                say(f"{verb} {game.name}: {progress}")

        yield log
        return
    from rich.progress import BarColumn, Progress, TextColumn

    with Progress(
        TextColumn(f"{verb} {{task.description}}: {{task.fields[status]}}"),
        BarColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task(game.name, total=None, status="starting")

        def status(progress: object) -> None:
            done = getattr(progress, "done", 0)
            bar.update(task, status=str(progress), completed=done, total=getattr(progress, "total", None))

        yield status


def progress_seconds() -> float:
    """Seconds between two progress lines in a log (:data:`PROGRESS_SECONDS`)."""
    try:
        return max(0.0, float(os.environ.get("STRATEGYTREE_PROGRESS_SECONDS", PROGRESS_SECONDS)))
    except ValueError:
        return PROGRESS_SECONDS


@contextmanager
def cluster(workers: str | None, scheduler: str | None, used: bool = True) -> Iterator[object]:
    """The Dask client of --workers / --scheduler / $STRATEGYTREE_SCHEDULER (None:
    in this process, and always when not ``used``); the dashboard's address is
    printed when one is up."""
    if not used:
        yield None
        return
    from ..cluster import connect

    with connect(workers, scheduler, say=say) as client:
        yield client


# -- stopping ------------------------------------------------------------------------------
#: the signal that stopped the run, if any (set by the handler of :data:`STOP_SIGNALS`)
stopped_by: list[int] = []


def stop_like_ctrl_c() -> None:
    """Make SIGTERM and SIGHUP stop a run as Ctrl-C does (KeyboardInterrupt: a
    search saves its checkpoint, an output being written is left as it was);
    the exit code then tells which signal it was (:data:`STOP_SIGNALS`)."""

    def stop(signum: int, frame: object) -> None:
        for other in STOP_SIGNALS:  # let the run save its work in peace
            signal.signal(other, signal.SIG_IGN)
        stopped_by.append(signum)
        raise KeyboardInterrupt

    for signum in STOP_SIGNALS:
        try:
            signal.signal(signum, stop)
        except (ValueError, OSError):  # not the main thread, or no such signal here
            pass


def stop_code() -> int:
    """The exit code of a run stopped by Ctrl-C or by one of :data:`STOP_SIGNALS`."""
    return STOP_SIGNALS.get(stopped_by[0], EXIT_INTERRUPTED) if stopped_by else EXIT_INTERRUPTED


def stop_words() -> str:
    """``interrupted``, or ``stopped by SIGTERM`` (SIGHUP)."""
    return f"stopped by {signal.Signals(stopped_by[0]).name}" if stopped_by else "interrupted"


def interrupted(checkpoint: Path | None = None) -> typer.Exit:
    """Say that a long run was stopped (and where its work is kept); exit 130
    (143 for SIGTERM, 129 for SIGHUP)."""
    kept = f"; the search is saved in {checkpoint}" if checkpoint is not None else ""
    say(f"{stop_words()}{kept}")
    return typer.Exit(stop_code())
