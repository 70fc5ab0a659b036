"""What the ``strategytree`` command says, and how it ends: its two consoles, the
exit codes, library errors worded in flags, how a long run is watched and stopped."""

from __future__ import annotations

import contextlib
import errno
import json
import sys
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..errors import StrategyTreeError
from ..outcome import INVALID, OK, UNREADABLE
from ..runner import CTRL_C_STATUS

if TYPE_CHECKING:
    from ..outcome import CommandOutcome
    from ..progress import Watch

#: the width of what goes to a pipe or a file: no line is wrapped for a terminal nobody
#: looks at ($COLUMNS still sets it)
UNWRAPPED = 100_000


def _width(stream: object) -> int | None:
    """None (rich asks the terminal) on a terminal or with $COLUMNS set, else :data:`UNWRAPPED`."""
    import os

    isatty = getattr(stream, "isatty", None)
    return None if os.environ.get("COLUMNS") or (isatty and isatty()) else UNWRAPPED


class _Console(Console):
    """rich's console, but a pipe whose reader has gone (``| head``) is the command's
    to end (quietly, exit 2: :func:`strategytree.cli.group.main`), not rich's (exit 1,
    the code of an invalid strategy)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


out = _Console(highlight=False, emoji=False, width=_width(sys.stdout))
err = _Console(stderr=True, highlight=False, emoji=False, width=_width(sys.stderr))

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = OK, INVALID, UNREADABLE
#: a run stopped by Ctrl-C (SIGTERM, SIGHUP: :data:`strategytree.runner.STOP_SIGNALS`)
EXIT_INTERRUPTED = CTRL_C_STATUS
#: the flag of each library argument whose flag is not its name
FLAGS = {"preset": "--game", "fmt": "--from", "client": "--workers/--scheduler"}


def flag(name: str, value: object) -> str:
    """A library argument as the flag that gives it: ``--pegs 5``, ``--distinct``."""
    given = FLAGS.get(name, "--" + name.replace("_", "-"))
    return given if value is True or name == "client" else f"{given} {value}"


def words(problem: StrategyTreeError | str) -> str:
    """What to say of an error: the library's message, its arguments as flags."""
    return problem.worded(flag) if isinstance(problem, StrategyTreeError) else str(problem)


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


class PlayConsole:
    """The console a game of ``play`` talks to (plain text, no markup)."""

    def ask(self, prompt: str) -> str:
        return out.input(prompt, markup=False, emoji=False)

    def say(self, text: str) -> None:
        out.print(text, markup=False, soft_wrap=True)


def say(text: str) -> None:
    """One plain line on stderr (nothing if stderr is gone, as after a hang-up)."""
    with contextlib.suppress(OSError, ValueError):
        err.print(text, markup=False, soft_wrap=True, highlight=False)


def watch() -> Watch:
    """How a long run tells how it goes on the command line: lines and progress on stderr."""
    from ..progress import Watch

    return Watch(say, err)


def show(parts: list[Any], console: Console | None = None) -> None:
    """Print what the library composed: lines (rich markup or Text) as they are,
    tables laid out to the width (on ``console``, by default stdout's)."""
    for part in parts:
        (console or out).print(part, soft_wrap=not isinstance(part, Table))


def end(outcome: CommandOutcome) -> None:
    """Print what the library composed (:class:`~strategytree.outcome.CommandOutcome`:
    JSON alone on stdout, or its lines; then its notes on stderr); exit with its status."""
    if outcome.data is not None:
        sys.stdout.write(json.dumps(outcome.data, indent=2) + "\n")  # ASCII: safe in any locale
    show(outcome.shown, err if outcome.aside else out)
    with contextlib.suppress(OSError, ValueError):  # (stderr gone after a hang-up)
        show(outcome.notes, err)
    if outcome.status != EXIT_OK:
        raise typer.Exit(outcome.status)
