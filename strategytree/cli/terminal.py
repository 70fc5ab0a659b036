"""What the ``strategytree`` command says, and how it ends: its two consoles, the
exit codes, library errors worded in flags, the signals that stop a long run."""

from __future__ import annotations

import json
import signal
import sys
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
    DrawingTooBig,
    InputTooLargeError,
    OutputExistsError,
    StrategyFileError,
    StrategyTreeError,
)

if TYPE_CHECKING:
    from ..game import Game
    from .options import Cluster

#: the width of what goes to a pipe or a file: no line is wrapped for a terminal nobody
#: looks at ($COLUMNS still sets it)
UNWRAPPED = 100_000


def _width(stream: object) -> int | None:
    """None (rich asks the terminal) on a terminal or with $COLUMNS set, else :data:`UNWRAPPED`."""
    import os

    isatty = getattr(stream, "isatty", None)
    return None if os.environ.get("COLUMNS") or (isatty and isatty()) else UNWRAPPED


out = Console(highlight=False, emoji=False, width=_width(sys.stdout))
err = Console(stderr=True, highlight=False, emoji=False, width=_width(sys.stderr))

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
#: the exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130
#: the exit code of a run stopped by SIGTERM (128 + 15): ``kill``, ``timeout``, batch schedulers
EXIT_TERMINATED = 143
#: the exit code of a run stopped by SIGHUP (128 + 1): its terminal closed
EXIT_HANGUP = 129
#: the signals that stop a run as Ctrl-C does, with the exit code of each
STOP_SIGNALS = {signal.SIGTERM: EXIT_TERMINATED, signal.SIGHUP: EXIT_HANGUP}
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
    if isinstance(problem, DrawingTooBig):
        return f"{problem} (--depth, --path)"
    return str(problem)


def failed(problem: StrategyTreeError | str) -> typer.Exit:
    """One ``error:`` line on stderr, exit 2; a strategy refused for what the
    verifier found (the error has its ``report``) is shown with it, exit 1."""
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
    """Print what the library composed: lines (rich markup or Text) as they are,
    tables laid out to the width (on ``console``, by default stdout's)."""
    for part in parts:
        (console or out).print(part, soft_wrap=not isinstance(part, Table))


def print_json(data: object) -> None:
    """A report built by the library, as JSON: the only thing on stdout."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")  # ASCII: safe in any locale


def given(ctx: typer.Context, **values: object) -> dict[str, object]:
    """``values`` (options by parameter name) with None for each one left at its
    default: what the library's checks of options without effect read."""
    return {
        name: None if (source := ctx.get_parameter_source(name)) is None
        or source.name in ("DEFAULT", "DEFAULT_MAP") else value
        for name, value in values.items()
    }


@contextmanager
def running(verb: str, game: Game, where: Cluster | None = None,
            used: bool = True) -> Iterator[tuple[object, Callable[[object], None]]]:
    """A long run's Dask client (of --workers / --scheduler / $STRATEGYTREE_SCHEDULER;
    None: in this process, and always without ``where`` or when not ``used``; the
    dashboard's address is printed when one is up) and its progress display
    (:func:`strategytree.progress.displayed`)."""
    from ..progress import displayed

    if where is None or not used:
        with displayed(verb, game.name, err, say) as status:
            yield None, status
        return
    from ..cluster import connect

    with connect(where.workers, where.scheduler, say=say) as client, \
            displayed(verb, game.name, err, say) as status:
        yield client, status


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
