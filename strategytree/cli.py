"""The ``strategytree`` command: a thin layer over the library.

Each command gathers its options, calls the library, and prints the result;
the library's errors speak of arguments, and are worded here in flags.

Exit codes: 0 success (a valid strategy), 1 an invalid strategy,
2 an unreadable file or bad arguments, 130 interrupted (Ctrl-C),
143 stopped by SIGTERM, 129 stopped by SIGHUP (both stop as Ctrl-C does:
a search's checkpoint is saved, no output is left half-written).
Errors are printed, never tracebacks.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperGroup

from . import __version__
from .errors import (
    ArgumentError,
    InputTooLargeError,
    OutputExistsError,
    StrategyFileError,
    StrategyTreeError,
    refuse_inert,
)
from .files import MAX_INPUT_BYTES
from .words import plural

if TYPE_CHECKING:
    from .game import Game
    from .tree import Strategy
    from .verify import Ranked, Report

# The library (numpy, lark, numba) is imported inside each command, when it
# runs: ``strategytree --help`` and a mistyped option never wait for it.


def resolve_game(*args: object, **kwargs: object) -> tuple[Game, list[str]]:
    """:func:`strategytree.game.resolve_game` (imported when first called): every
    command's options become a game through this one name."""
    from .game import resolve_game as resolve

    return resolve(*args, **kwargs)  # type: ignore[arg-type]

#: click's usage error (a missing option, a bad value, an unknown option) and the
#: base of all its errors, as the installed typer has them (its own copy of click, or click)
_UsageError: type[Exception] = typer.BadParameter.__mro__[1]
_ClickError: type[Exception] = typer.BadParameter.__mro__[2]


class _Commands(TyperGroup):
    """The command group, whose usage errors (a missing option, a bad number, an
    unknown option) are one ``error:`` line and exit 2, as every argument error is,
    instead of click's usage text and typer's framed box."""

    def main(self, *args: Any, standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            code = super().main(*args, standalone_mode=False, **extra)
        except _ClickError as problem:
            if type(problem).__name__ != "NoArgsIsHelpError":  # (that one has shown the help)
                err.print(f"[bold red]error:[/] {escape(_usage_words(problem))}", soft_wrap=True)
            usage = isinstance(problem, _UsageError)
            code = EXIT_UNREADABLE if usage else getattr(problem, "exit_code", EXIT_UNREADABLE)
        except typer.Abort:
            _say("aborted")
            code = EXIT_INVALID
        if not isinstance(code, int):
            code = EXIT_OK  # a command's return value, not an exit code
        if code == EXIT_INTERRUPTED:
            code = _stop_code()  # typer turns every KeyboardInterrupt into 130
        if not standalone_mode:
            return code
        sys.exit(code)


def _usage_words(problem: Exception) -> str:
    """A usage error in one line: click's message, and where to read more."""
    message = " ".join(problem.format_message().split())  # type: ignore[attr-defined]
    message = message[:1].lower() + message[1:].rstrip(".")
    context = getattr(problem, "ctx", None)
    if context is None:
        return message
    return f"{message} (see {context.command_path} --help)"


app = typer.Typer(
    name="strategytree",
    cls=_Commands,
    help="Build, check and explain decision-tree strategies for Mastermind.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (bash, zsh, fish, powershell)
    pretty_exceptions_enable=False,
    epilog="Exit codes: 0 success, 1 invalid strategy, 2 unreadable input or bad arguments, "
    "130 Ctrl-C, 143 SIGTERM, 129 SIGHUP.  Strategy files, pipes and - (stdin) are read up "
    f"to {MAX_INPUT_BYTES // 2**20} MiB (--max-input-mb).",
)

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

Pegs = Annotated[
    Optional[int],
    typer.Option("--pegs", "-p", min=1, max=9, help="Pegs per code \\[default: the first guess's length]."),
]
Colors = Annotated[
    Optional[int],
    typer.Option(
        "--colors", "-c", min=1, max=26, help="Number of colours \\[default: the highest letter used]."
    ),
]
NewPegs = Annotated[
    Optional[int],
    typer.Option("--pegs", "-p", min=1, max=9, help="Pegs per code \\[default: 4, or the game's]."),
]
NewColors = Annotated[
    Optional[int],
    typer.Option("--colors", "-c", min=1, max=26, help="Number of colours \\[default: 6, or the game's]."),
]
Distinct = Annotated[
    bool, typer.Option("--distinct", help="Secrets have no repeated colour.")
]
DistinctGuesses = Annotated[
    bool,
    typer.Option("--distinct-guesses", help="Guesses may not repeat a colour either (implies --distinct)."),
]
GameName = Annotated[
    str,
    typer.Option(
        "--game", "-g",
        help="mastermind, distinct, bulls-and-cows, bagel or black-only.",
    ),
]

SourceFormat = Annotated[
    Optional[str],
    typer.Option(
        "--from",
        help="The strategy file's format: brace, json, mmstrat, arfst-table, arfst-yaml, "
        "mikemag, dot or csv \\[default: told from the content].",
    ),
]
Lenient = Annotated[
    bool,
    typer.Option(
        "--lenient",
        help="Brace grammar only: also read dialects seen in the wild (subtrees without "
        "braces, extra braces, lower-case colours), reporting each repair.",
    ),
]

MaxInputMb = Annotated[
    int,
    typer.Option(
        "--max-input-mb", min=1,
        help="Read at most this many MiB of a strategy file, pipe, device or - (stdin); "
        "more is refused.",
    ),
]
#: the default of --max-input-mb
MAX_INPUT_MB = MAX_INPUT_BYTES // 2**20

Workers = Annotated[
    Optional[str],
    typer.Option(
        "--workers",
        help="lookahead, optimal, bound, improve: search on a local Dask cluster of N worker processes "
        "(auto: one per core), started and stopped with the command.",
    ),
]
Scheduler = Annotated[
    Optional[str],
    typer.Option(
        "--scheduler",
        help="lookahead, optimal, bound, improve: search on the Dask cluster of this scheduler (e.g. "
        "tcp://host:8786; default $STRATEGYTREE_SCHEDULER).",
    ),
]
Force = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Overwrite an existing output file (a device, a FIFO or - is written "
        "into, never replaced).",
    ),
]

JsonOption = Annotated[
    bool,
    typer.Option("--json", help="Print the report as JSON on stdout, and nothing else there "
                 "(the shapes are in the README)."),
]

AlphabetOption = Annotated[
    str,
    typer.Option(
        "--alphabet", help="Show colours as letters or digits \\[default: as the game shows them, "
        "digits for bulls-and-cows and bagel]."
    ),
]
StrategyOption = Annotated[
    Optional[Path],
    typer.Option("--strategy", "-s", help="Follow this strategy file instead of a --rule."),
]
RuleOption = Annotated[
    str, typer.Option("--rule", "-r", help="entropy, expected, minimax, parts, first or random.")
]
PoolOption = Annotated[
    str, typer.Option("--pool", help="Candidate guesses of the rule: all, consistent or sample:N.")
]
FirstOption = Annotated[
    Optional[str], typer.Option("--first", help="Force the rule's opening guess, e.g. AABB.")
]

# the options of generate (and of the commands that share them)
NewOutput = Annotated[Path, typer.Option("--output", "-o", help="Where to write the strategy file.")]
Indent = Annotated[Optional[int], typer.Option("--indent", min=0, help="Write the file indented.")]
Method = Annotated[
    str,
    typer.Option(
        "--method", "-m",
        help="greedy (a one-step --rule), lookahead (search the best --widths guesses "
        "of the rule, level by level) or optimal (exact search).",
    ),
]
LookaheadWidths = Annotated[
    str,
    typer.Option(
        "--widths", "-w",
        help="lookahead: candidates per rule at each level, e.g. 8,8,4 (all: every guess, "
        "one per class of equivalent guesses; 0: the level not searched; a level beyond "
        "the list: not searched, greedy).",
    ),
]
Also = Annotated[
    str,
    typer.Option(
        "--also",
        help="lookahead: more rules whose best guesses join the shortlist and whose "
        "completions compete, e.g. parts,expected.",
    ),
]
Complete = Annotated[
    Optional[str],
    typer.Option(
        "--complete",
        help="lookahead: complete the big parts below each guess tried by a lookahead of "
        "these widths (e.g. 3) instead of greedily.",
    ),
]
CompleteAbove = Annotated[
    Optional[int],
    typer.Option(
        "--complete-above",
        help="lookahead, with --complete: the parts of more than this many secrets get it "
        "\\[default: 400].",
    ),
]
Finalists = Annotated[
    Optional[str],
    typer.Option(
        "--finalists",
        help="lookahead: at each level, how many candidates, ranked by their completions, "
        "are searched in full below, the best kept (e.g. 1,3: three at the second level; "
        "0: all; a level beyond the list: as its last) \\[default: 1].",
    ),
]
ExactBelowOption = Annotated[
    Optional[int],
    typer.Option(
        "--exact-below",
        min=0,
        help="lookahead: solve every set of at most this many secrets below a guess kept "
        "exactly (e.g. 400 on MM(5,8), about a second each) \\[default: none].",
    ),
]
MaxGuesses = Annotated[
    Optional[int],
    typer.Option("--max-guesses", "-k", min=1, help="optimal: never more than K guesses for a secret; lookahead: prefer "
                  "subtrees within K guesses to any that are not."),
]
SearchCheckpoint = Annotated[
    Optional[Path],
    typer.Option("--checkpoint", help="lookahead, optimal: save the search here and resume from it."),
]

#: the flag of each library argument whose flag is not its name
FLAGS = {"preset": "--game", "fmt": "--from", "client": "--workers/--scheduler"}


def _flag(name: str, value: object) -> str:
    """A library argument as the flag that gives it: ``--pegs 5``, ``--distinct``."""
    flag = FLAGS.get(name, "--" + name.replace("_", "-"))
    return flag if value is True or name == "client" else f"{flag} {value}"


def _words(problem: StrategyTreeError | str) -> str:
    """What to say of an error: the library's message, its arguments as flags."""
    if isinstance(problem, ArgumentError):
        return problem.worded(_flag)
    if isinstance(problem, OutputExistsError):
        return f"{problem.path} exists; use --force to overwrite it"
    if isinstance(problem, InputTooLargeError):
        return problem.limit_worded("a larger --max-input-mb")
    if isinstance(problem, StrategyFileError):
        return problem.worded("--lenient")
    return str(problem)


def _fail(problem: StrategyTreeError | str, code: int = EXIT_UNREADABLE) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(_words(problem))}", soft_wrap=True)
    return typer.Exit(code)


def _given(ctx: typer.Context, **values: object) -> dict[str, object]:
    """``values`` (options by parameter name) with None for each one left at its
    default, not given on the command line: what the library's checks of
    options without effect read."""
    return {
        name: None if (source := ctx.get_parameter_source(name)) is None
        or source.name in ("DEFAULT", "DEFAULT_MAP") else value
        for name, value in values.items()
    }


def _refuse_inert(
    given: dict[str, object], takes: tuple[str, ...], where: str, **context: object
) -> None:
    """:func:`~strategytree.errors.refuse_inert`, worded in flags (exit 2)."""
    try:
        refuse_inert(given, takes, where, **context)
    except ArgumentError as problem:
        raise _fail(problem) from None


def _check_outputs(
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
    that write text); the checkpoint's folder is writable.  Else exit 2."""
    from .files import check_not_same, check_writable, is_stdout

    read = {**(inputs or {}), "the checkpoint": checkpoint}
    if force and all(output is None for output in outputs):
        _refuse_inert({"force": True}, (), "without an output file to overwrite")
    try:
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
    except StrategyTreeError as problem:
        raise _fail(problem) from None


class GameOptions(NamedTuple):
    """A command's game options as given (``--game``, ``-p``, ``-c``,
    ``--distinct``, ``--distinct-guesses``): one value to pass around."""

    preset: str
    pegs: int | None
    colors: int | None
    distinct: bool
    distinct_guesses: bool

    @property
    def given(self) -> bool:
        """True when some option differs from its default."""
        return bool(
            self.pegs or self.colors or self.distinct or self.distinct_guesses
            or self.preset != "mastermind"
        )

    def game(self, strategy: Strategy | None = None) -> tuple[Game, list[str]]:
        """The game the options mean (:func:`~strategytree.game.resolve_game`, with
        ``strategy`` to infer the rest from); options that contradict each other
        end the command (exit 2)."""
        try:
            return resolve_game(
                self.preset, self.pegs, self.colors, distinct=self.distinct,
                distinct_guesses=self.distinct_guesses, strategy=strategy,
            )
        except ArgumentError as problem:
            raise _fail(problem) from None


def _read(
    path: Path,
    source_format: str | None,
    lenient: bool,
    options: GameOptions,
    max_mb: int = MAX_INPUT_MB,
) -> tuple[Strategy, Game, list[str]]:
    """The strategy file read (:func:`~strategytree.convert.read_file`, in any format),
    and the game it is played in, with notes on what was inferred.

    A format whose reader needs the game (mmstrat) is read in the game the
    options give when they give one, else in the game the file tells; the
    game returned is then that same game.  Otherwise the game is resolved from
    the options and the strategy (:meth:`GameOptions.game`).  At most ``max_mb`` MiB are read.
    """
    from .convert import GAME_FORMATS, read_file

    needs_game = source_format is None or source_format.strip().lower() in GAME_FORMATS
    game = None
    if options.given and needs_game:
        game, _ = options.game()
    read = read_file(path, source_format, game, lenient=lenient, max_bytes=max_mb * 2**20)
    if read.game is None:
        game, notes = options.game(read.strategy)
        return read.strategy, game, notes
    if game is not None:
        return read.strategy, game, []
    told = read.game
    apart = len(told.secrets) < told.colors**told.pegs
    both = apart and len(told.guesses) == len(told.secrets)
    game, _ = GameOptions("mastermind", told.pegs, told.colors, apart, both).game()
    kind = ", distinct colours" if apart else ""
    return read.strategy, game, [f"pegs {told.pegs}, colors {told.colors}{kind} (from the counts)"]


@contextmanager
def _progress(verb: str, game: Game) -> Iterator[Callable[[object], None]]:
    """The one status display of long runs: yields the callback a run calls with
    its progress (anything that prints itself, and may count ``done`` of ``total``).

    On a terminal, one status line; otherwise (a log, a batch job) a plain line
    every :data:`PROGRESS_SECONDS` (or ``$STRATEGYTREE_PROGRESS_SECONDS``).
    """
    if not err.is_terminal:
        every = _progress_seconds()
        last = [time.perf_counter()]

        def log(progress: object) -> None:
            now = time.perf_counter()
            if now - last[0] >= every:
                last[0] = now
                _say(f"{verb} {game.name}: {progress}")

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

        def show(progress: object) -> None:
            done = getattr(progress, "done", 0)
            bar.update(task, status=str(progress), completed=done, total=getattr(progress, "total", None))

        yield show


def _progress_seconds() -> float:
    """Seconds between two progress lines in a log (:data:`PROGRESS_SECONDS`)."""
    try:
        return max(0.0, float(os.environ.get("STRATEGYTREE_PROGRESS_SECONDS", PROGRESS_SECONDS)))
    except ValueError:
        return PROGRESS_SECONDS


def _say(text: str) -> None:
    """One plain line on stderr (nothing if stderr is gone, as after a hang-up)."""
    try:
        err.print(text, markup=False, soft_wrap=True, highlight=False)
    except (OSError, ValueError):
        pass


#: games this small compile the kernels they need as fast as a warm-up would
WARM_BELOW = 200


def _warmed(game: Game, warm: Callable[[Game], object]) -> None:
    """Run ``warm`` on a small game like ``game`` first, so that compiling the
    kernels (once per install: they are cached) is not counted in the times
    reported; a compile that takes a while is announced (once), and timed."""
    if len(game.secrets) < WARM_BELOW:
        return
    apart = len(game.secrets) < game.colors**game.pegs
    both = apart and len(game.guesses) == len(game.secrets)
    preset = "black-only" if game.scoring == "black-only" else "distinct" if apart else "mastermind"
    try:
        small = resolve_game(preset, 3, 4, distinct=apart, distinct_guesses=both)[0]
    except StrategyTreeError:
        return
    started = time.perf_counter()
    done = threading.Event()

    def announce() -> None:
        if not done.wait(COMPILE_NOTICE):
            _say("compiling kernels, once per install ...")

    notice = threading.Thread(target=announce, daemon=True)
    notice.start()
    try:
        warm(small)
    except StrategyTreeError:
        pass  # the run itself says what is wrong
    finally:
        done.set()
        notice.join()
    took = time.perf_counter() - started
    if took >= COMPILE_NOTICE:
        _say(f"kernels ready in {took:.1f} s (not counted below)")


#: seconds a warm-up may take before it is announced as compiling
COMPILE_NOTICE = 2.0

#: the signal that stopped the run, if any (set by the handler of :data:`STOP_SIGNALS`)
_stopped_by: list[int] = []


def _stop_like_ctrl_c() -> None:
    """Make SIGTERM and SIGHUP stop a run as Ctrl-C does (KeyboardInterrupt: a
    search saves its checkpoint, an output being written is left as it was);
    the exit code then tells which signal it was (:data:`STOP_SIGNALS`)."""

    def stop(signum: int, frame: object) -> None:
        for other in STOP_SIGNALS:  # let the run save its work in peace
            signal.signal(other, signal.SIG_IGN)
        _stopped_by.append(signum)
        raise KeyboardInterrupt

    for signum in STOP_SIGNALS:
        try:
            signal.signal(signum, stop)
        except (ValueError, OSError):  # not the main thread, or no such signal here
            pass


def _stop_code() -> int:
    """The exit code of a run stopped by Ctrl-C or by one of :data:`STOP_SIGNALS`."""
    return STOP_SIGNALS.get(_stopped_by[0], EXIT_INTERRUPTED) if _stopped_by else EXIT_INTERRUPTED


def _stop_words() -> str:
    """``interrupted``, or ``stopped by SIGTERM`` (SIGHUP)."""
    return f"stopped by {signal.Signals(_stopped_by[0]).name}" if _stopped_by else "interrupted"


def _interrupted(checkpoint: Path | None = None) -> typer.Exit:
    """Say that a long run was stopped (and where its work is kept); exit 130
    (143 for SIGTERM, 129 for SIGHUP)."""
    kept = f"; the search is saved in {checkpoint}" if checkpoint is not None else ""
    _say(f"{_stop_words()}{kept}")
    return typer.Exit(_stop_code())


@contextmanager
def _cluster(workers: Optional[str], scheduler: Optional[str], used: bool = True
             ) -> Iterator[object]:
    """The Dask client of --workers / --scheduler / $STRATEGYTREE_SCHEDULER (None:
    in this process, and always when not ``used``); the dashboard's address is
    printed when one is up."""
    if not used:
        yield None
        return
    from .cluster import connect

    with connect(workers, scheduler, say=_say) as client:
        yield client


def _histogram(counts: dict[int, int], what: str) -> Table:
    """Guesses -> how many ``what`` (secrets, games), as one row of a table."""
    histogram = Table(box=None, padding=(0, 1), show_edge=False)
    histogram.add_column("guesses", justify="left")
    for guesses in counts:
        histogram.add_column(str(guesses), justify="right", no_wrap=True)
    histogram.add_row(what, *(f"{n:,}" for n in counts.values()))
    return histogram


@app.callback(invoke_without_command=True)
def _main(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.")
    ] = False,
) -> None:
    if version:
        out.print(f"strategytree {__version__}")
        raise typer.Exit(EXIT_OK)


@app.command("verify")
def verify_command(
    files: Annotated[
        list[Path], typer.Argument(help="Strategy files (in any format read, see --from).")
    ],
    pegs: Pegs = None,
    colors: Colors = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Treat unreachable branches as errors.")
    ] = False,
    as_json: JsonOption = False,
    examples: Annotated[
        int, typer.Option("--examples", min=0, help="How many unsolved secrets to show.")
    ] = 5,
    lenient: Lenient = False,
    source_format: SourceFormat = None,
    max_input_mb: MaxInputMb = MAX_INPUT_MB,
    game_name: GameName = "mastermind",
) -> None:
    """Replay every secret through each strategy file and score it.

    The score is the code-golf N: guesses summed over all secrets (ties: the
    lowest maximum), shown beside the optimum (or a lower bound on it).  Several
    files are ranked each game apart; the same total and maximum share a rank,
    and each file not ranked gets one line saying why.  Exit 0 if every file is
    valid, 1 if one is not, 2 if one cannot be read.
    """
    from .verify import Report, rank, ranking_json, verify

    reports: list[tuple[str, Report | str]] = []
    unreadable: list[StrategyTreeError] = []
    options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
    for path in files:
        try:
            strategy, game, notes = _read(path, source_format, lenient, options, max_input_mb)
            report = verify(strategy, game, strict=strict, examples=examples)
            report.game_notes = notes
            report.repairs = strategy.repairs
            reports.append((str(path), report))
        except StrategyTreeError as problem:
            reports.append((str(path), _words(problem)))
            unreadable.append(problem)
    ranked = rank(reports)
    if as_json:
        _print_json(ranked[0].to_dict() if len(files) == 1 else ranking_json(ranked))
        for problem in unreadable:
            err.print(f"error: {_words(problem)}", markup=False, soft_wrap=True)
    elif len(reports) == 1:
        if unreadable:
            raise _fail(unreadable[0])
        assert ranked[0].report is not None
        _print_report(ranked[0].report)
    else:
        _print_ranking(ranked)
    if unreadable:
        raise typer.Exit(EXIT_UNREADABLE)
    if not all(r.valid for _, r in reports if isinstance(r, Report)):
        raise typer.Exit(EXIT_INVALID)


def _print_json(data: object) -> None:
    """A report built by the library, as JSON: the only thing on stdout."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")  # ASCII: safe in any locale


def _print_report(report: Report) -> None:
    notes = f" ({'; '.join(report.game_notes)})" if report.game_notes else ""
    out.print(f"[bold]{escape(report.source)}[/]: {escape(report.game + notes)}", soft_wrap=True)
    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_row("secrets", f"{report.secrets:,}")
    table.add_row("solved", f"{report.solved:,}")
    table.add_row("total guesses", f"{report.total:,}")
    table.add_row("average", f"{report.average:.4f}")
    table.add_row("max guesses", str(report.max_guesses))
    if report.gap is not None:
        table.add_row("gap", escape(str(report.gap)))
    out.print(table)
    if report.histogram:
        out.print(_histogram(report.histogram, "secrets"))
    _print_problems("[cyan]repaired:[/]", report.repairs)
    if report.unsolved:
        out.print(f"[red]{plural(report.unsolved, 'secret')} not solved[/], e.g.:")
        for case in report.unsolved_examples:
            out.print(f"  {case.secret}: {case.path}: {case.reason}", soft_wrap=True, markup=False)
    _print_problems("[red]error:[/]", report.errors)
    if not report.strict:
        _print_problems("[yellow]warning:[/]", report.unreachable_branches)
    if report.valid:
        out.print("[green]valid[/]")
    else:
        out.print("[bold red]invalid[/]")


#: how many errors (and warnings) a report prints; --json has them all
SHOWN_PROBLEMS = 20


def _print_problems(label: str, problems: list) -> None:
    for problem in problems[:SHOWN_PROBLEMS]:
        out.print(f"{label} ", end="", soft_wrap=True)
        out.print(str(problem), soft_wrap=True, markup=False)
    if len(problems) > SHOWN_PROBLEMS:
        out.print(f"{label} ... and {len(problems) - SHOWN_PROBLEMS:,} more (--json lists them all)")


def _print_ranking(ranked: list[Ranked]) -> None:
    """One table per game (:func:`strategytree.verify.rank`): rank, file, total,
    average, max, and the gap to the optimum; then one line per file not ranked,
    saying why."""
    games: dict[str | None, list[Ranked]] = {}
    for item in ranked:
        games.setdefault(item.game, []).append(item)
    for game, items in games.items():
        title = (f"{game}: ranked by total guesses, then max guesses" if game is not None
                 else "not read")
        table = Table(title=escape(title))
        for column in ("rank", "file", "game", "total", "average", "max", "status"):
            right = column in ("rank", "total", "average", "max")
            table.add_column(
                column, justify="right" if right else "left", no_wrap=right, overflow="fold"
            )
        for item in items:
            r = item.report
            if r is None:
                table.add_row("-", escape(item.source), "", "", "", "", "unreadable")
                continue
            status = "valid" if r.valid else "invalid"
            if r.valid and r.gap is not None:
                status += f", {r.gap.short}" + (" above the optimum" if r.gap.exact else "")
            table.add_row(
                "-" if item.rank is None else str(item.rank), escape(item.source), escape(r.game),
                f"{r.total:,}", f"{r.average:.4f}", str(r.max_guesses), escape(status),
            )
        out.print(table)
        for item in items:
            if item.reason is not None:
                why = "unreadable" if item.report is None else "invalid"
                out.print(f"{item.source}: {why}: {item.reason}", markup=False, soft_wrap=True)


@app.command("show")
def show_command(
    file: Annotated[Path, typer.Argument(help="A strategy file (in any format read, see --from).")],
    secret: Annotated[
        Optional[str], typer.Option("--secret", "-s", help="Show only the game played against this secret.")
    ] = None,
    depth: Annotated[
        Optional[int],
        typer.Option("--depth", "-d", min=0, help="Show only this many levels of replies (text, dot)."),
    ] = None,
    path: Annotated[
        Optional[str],
        typer.Option("--path", help='Show only what follows a history, e.g. "AABBC 10, ABCDE 21".'),
    ] = None,
    fmt: Annotated[
        Optional[str],
        typer.Option(
            "--format", "-f",
            help="text, markdown, csv, dot or html (default: from the -o suffix, else text).",
        ),
    ] = None,
    output: Annotated[
        Optional[Path],
        typer.Option(
            "--output", "-o",
            help="Write to this file (atomically; - for stdout); "
            ".svg/.png/.pdf draw with GraphViz.",
        ),
    ] = None,
    force: Force = False,
    pegs: Pegs = None,
    colors: Colors = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    game_name: GameName = "mastermind",
    source_format: SourceFormat = None,
    max_input_mb: MaxInputMb = MAX_INPUT_MB,
    lenient: Lenient = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --secret: print the game as JSON (see the README).")
    ] = False,
) -> None:
    """Print a strategy as a guide a person can follow, or the game of one secret.

    Formats: an indented text guide; a lookup table with one row per complete
    game (markdown, csv); a GraphViz graph (dot; -o FILE.svg or .png draws it
    when GraphViz is installed; at most 500 nodes, use --depth or --path for
    more); an interactive page to play the strategy by clicking (html).
    """
    from .export import DrawingTooBig, guide_format, render, render_dot
    from .files import is_stdout, write_text_atomic

    _check_outputs([output], force=force, inputs={"the input": file}, stdout=True)
    options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
    try:
        kind, drawing = guide_format(fmt, output)
        if secret is not None and (kind != "text" or path is not None or depth is not None):
            raise StrategyTreeError("--secret shows one game as text; drop --format, --path and --depth")
        if depth is not None and kind in ("markdown", "csv", "html"):
            raise StrategyTreeError(f"--depth applies to the text and dot formats, not {kind}")
        if as_json and secret is None:
            raise StrategyTreeError("--json prints the game of one --secret; add --secret")
        if as_json and output is not None:
            raise StrategyTreeError("--json prints to stdout; drop -o")
        strategy, game, _ = _read(file, source_format, lenient, options, max_input_mb)
        if as_json:
            from .guide import play_secret, played_json

            played = played_json(game, secret, *play_secret(strategy, game, secret))
            _print_json(played)
            if not played["solved"]:
                raise typer.Exit(EXIT_INVALID)
            return
        guide = render(strategy, game, kind, depth=depth, path=path, secret=secret, title=file.name,
                       styled=output is None and out.is_terminal)
        if guide.styled is not None:
            out.print(guide.styled, soft_wrap=True)
            return
        if guide.warning:
            err.print(f"[yellow]warning:[/] {guide.warning}")
        if output is None or is_stdout(output):
            sys.stdout.write(guide.text)
        elif drawing:
            render_dot(guide.text, output)
            err.print(f"drew {output}")
        else:
            write_text_atomic(output, guide.text, force=force)
            err.print(f"wrote {output}")
    except DrawingTooBig as problem:
        raise _fail(f"{problem} (--depth, --path)") from None
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    if guide.unsolved:
        raise typer.Exit(EXIT_INVALID)


@app.command("stats")
def stats_command(
    file: Annotated[Path, typer.Argument(help="A strategy file (in any format read, see --from).")],
    plot: Annotated[
        Optional[Path], typer.Option("--plot", help="Also draw the figures into this PNG (needs matplotlib).")
    ] = None,
    force: Force = False,
    pegs: Pegs = None,
    colors: Colors = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    game_name: GameName = "mastermind",
    source_format: SourceFormat = None,
    max_input_mb: MaxInputMb = MAX_INPUT_MB,
    lenient: Lenient = False,
    as_json: JsonOption = False,
) -> None:
    """Guesses per secret: the histogram, and average and max by reply to the first guess.

    Beside the total, how far it is from the optimum (or at most from it, by a
    lower bound).  Exit 1 when some secret is not solved.
    """
    from .stats import guess_stats, plot_stats, stats_report

    _check_outputs([plot], force=force, inputs={"the input": file})
    options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
    try:
        strategy, game, _ = _read(file, source_format, lenient, options, max_input_mb)
        stats = guess_stats(strategy, game)
        if plot is not None:
            plot_stats(stats, plot, title=file.name)
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    if as_json:
        _print_json(stats.to_dict())
        if plot is not None:
            err.print(f"plot written to {escape(str(plot))}", soft_wrap=True)
    else:
        for part in stats_report(stats, str(file), plot):
            out.print(part, soft_wrap=isinstance(part, str))
    if stats.unsolved:
        raise typer.Exit(EXIT_INVALID)


@app.command("generate")
def generate_command(
    ctx: typer.Context,
    output: NewOutput,
    pegs: NewPegs = None,
    colors: NewColors = None,
    rule: RuleOption = "entropy",
    pool: PoolOption = "all",
    seed: Annotated[int, typer.Option("--seed", help="Seed for random rules and sampled pools.")] = 0,
    first: FirstOption = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    no_symmetry: Annotated[
        bool, typer.Option("--no-symmetry", help="Score every candidate (slower, same tree).")
    ] = False,
    game_name: GameName = "mastermind",
    indent: Indent = None,
    force: Force = False,
    method: Method = "greedy",
    widths: LookaheadWidths = "8,4",
    also: Also = "",
    complete: Complete = None,
    complete_above: CompleteAbove = None,
    finalists: Finalists = None,
    exact_below: ExactBelowOption = None,
    max_guesses: MaxGuesses = None,
    checkpoint: SearchCheckpoint = None,
    as_json: JsonOption = False,
    workers: Workers = None,
    scheduler: Scheduler = None,
) -> None:
    """Build a strategy (one-step rule, lookahead search or exact search), write it atomically, score it.

    --method lookahead tries, at each level, the --widths best guesses of the
    rule with greedy completions and keeps the cheapest (never worse than greedy).

    --method optimal finds the fewest guesses in total (with --max-guesses K: the
    fewest among strategies that never need more than K).  It shows its progress,
    stops cleanly on Ctrl-C, SIGTERM or SIGHUP (exit 130, 143, 129; with
    --checkpoint the work is kept, and a later run with the same --checkpoint
    resumes it; the output is written whole or not at all).

    Without a terminal, progress is printed as a plain line about every 10 s
    ($STRATEGYTREE_PROGRESS_SECONDS).  Kernels are compiled on first use, once
    per install (announced), and not counted in the time reported.
    """
    from .generate import check_method, generate
    from .notation import dump
    from .verify import verify

    asked = _given(ctx, rule=rule, pool=pool, seed=seed, widths=widths, also=also,
                   complete=complete, complete_above=complete_above, finalists=finalists,
                   exact_below=exact_below)
    try:  # an option without effect in the method asked for: before any work
        check_method(method, **asked, first=first, max_guesses=max_guesses, checkpoint=checkpoint,
                     client=workers or scheduler)
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    _check_outputs([output], force=force, checkpoint=checkpoint)
    options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
    try:
        game, _ = options.game()
        _warmed(game, lambda small: generate(
            small, method, **asked, symmetry=not no_symmetry, max_guesses=max_guesses,
        ))
        with _cluster(workers, scheduler, method != "greedy") as client, \
                _progress("building" if method == "greedy" else "searching", game) as show:
            started = time.perf_counter()  # (a cluster's start-up not counted)
            strategy = generate(
                game, method, **asked, first=first, symmetry=not no_symmetry,
                max_guesses=max_guesses, checkpoint=checkpoint, progress=show, client=client,
            )
        built = time.perf_counter() - started
        dump(strategy, output, indent=indent, force=force)
        report = verify(strategy, game)
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    except KeyboardInterrupt:
        raise _interrupted(checkpoint) from None
    report.source = str(output)
    if as_json:
        _print_json({**report.to_dict(), "seconds": built})
    else:
        _print_report(report)
        out.print(f"built in {built:.2f} s, written to {escape(str(output))}")
    if not report.valid:
        raise typer.Exit(EXIT_INVALID)


@app.command("bound")
def bound_command(
    ctx: typer.Context,
    pegs: NewPegs = None,
    colors: NewColors = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    game_name: GameName = "mastermind",
    no_symmetry: Annotated[
        bool, typer.Option("--no-symmetry", help="Try every guess near the root (slower).")
    ] = False,
    total: Annotated[
        bool,
        typer.Option("--total", help="Prove a lower bound on the least total of any strategy."),
    ] = False,
    depth: Annotated[
        int,
        typer.Option("--depth", "-d", min=0, help="--total: levels of guesses worked out exactly "
                     "(0 counting, 1 the first guess, ...)."),
    ] = 3,
    seconds: Annotated[
        Optional[float],
        typer.Option("--seconds", min=0.001, help="--total: stop after this long with the bound "
                     "proved so far."),
    ] = None,
    checkpoint: Annotated[
        Optional[Path],
        typer.Option("--checkpoint", help="--total: keep the bound of every part of a first "
                     "guess here, and start from them."),
    ] = None,
    as_json: JsonOption = False,
    workers: Workers = None,
    scheduler: Scheduler = None,
) -> None:
    """The fewest guesses that solve every secret, proved by exhaustion.

    A strategy within K guesses is found and the search shows that none
    exists within K - 1.  Prints K and the time (compiling the kernels, once
    per install, is not counted); Ctrl-C stops (exit 130; SIGTERM 143, SIGHUP 129).

    With --total: a proven lower bound on the least total number of guesses of
    any strategy (--depth levels worked out exactly, counting below), next to
    the published optimum when there is one; Ctrl-C, SIGTERM or --seconds stop
    it with the bound proved so far, printed (and kept with --checkpoint, from
    which a later run of any depth starts).
    """
    from .search import prove_bound

    options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
    if total:
        _check_outputs([], force=False, checkpoint=checkpoint)
        _bound_total(options, depth, seconds, not no_symmetry, as_json, checkpoint,
                     workers, scheduler)
        return
    _refuse_inert(_given(ctx, depth=depth, seconds=seconds, checkpoint=checkpoint), (),
                  "without {total}", total=True)
    try:
        game, _ = options.game()
        _warmed(game, lambda small: prove_bound(small, symmetry=not no_symmetry))
        with _cluster(workers, scheduler) as client, _progress("proving", game) as show:
            started = time.perf_counter()  # (a cluster's start-up not counted)
            answer = prove_bound(game, symmetry=not no_symmetry, progress=show, client=client)
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    except KeyboardInterrupt:
        raise _interrupted() from None
    elapsed = time.perf_counter() - started
    if as_json:
        from .search.driver import bound_json

        _print_json(bound_json(game, answer, elapsed))
        return
    below = f"; none within {answer - 1}" if answer > 1 else ""
    out.print(
        f"{escape(game.name)}: {plural(answer, 'guess')} solve{'s' * (answer == 1)} every "
        f"secret{below} "
        f"(proved in {elapsed:.2f} s)",
        soft_wrap=True,
    )


def _bound_total(options: GameOptions, depth: int, seconds: float | None, symmetry: bool,
                 as_json: bool, checkpoint: Path | None, workers: str | None,
                 scheduler: str | None) -> None:
    """``bound --total``: prove a lower bound on the least total, print it (also when stopped)."""
    from .literature import optimum as published_optimum
    from .search.total import BoundInterrupted, total_lower_bound

    stopped = None
    try:
        game, _ = options.game()
        _warmed(game, lambda small: total_lower_bound(small, min(depth, 2), symmetry=symmetry))
        with _cluster(workers, scheduler) as client, _progress("bounding", game) as show:
            result = total_lower_bound(game, depth, progress=show, seconds=seconds,
                                       symmetry=symmetry, checkpoint=checkpoint, client=client)
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    except BoundInterrupted as interrupted:
        result, stopped = interrupted.result, True
    except KeyboardInterrupt:
        raise _interrupted(checkpoint) from None
    optimum = published_optimum(game)
    if as_json:
        answer = result.as_dict()
        if optimum is not None:
            answer["optimum"] = optimum.low
        _print_json(answer)
    else:
        done = "" if result.complete else f", stopped before depth {depth}"
        known = "" if optimum is None else f"; optimum {optimum.low:,} ({optimum.source})"
        out.print(
            f"{escape(result.game)}: every strategy takes at least {result.bound:,} guesses in "
            f"total ({result.method}{done}, proved in {result.seconds:.2f} s){escape(known)}",
            soft_wrap=True,
        )
    if stopped:
        raise _interrupted(checkpoint)


class _Terminal:
    """The console a game of ``play`` talks to (plain text, no markup)."""

    def ask(self, prompt: str) -> str:
        return out.input(prompt, markup=False, emoji=False)

    def say(self, text: str) -> None:
        out.print(text, markup=False, soft_wrap=True)


BreakerOption = Annotated[
    str,
    typer.Option("--breaker", "-b", help="Who guesses: computer (you reply) or you (the computer keeps a secret)."),
]
AdversaryOption = Annotated[
    bool,
    typer.Option("--adversary", help="Reply so as to keep the most secrets possible (the worst case)."),
]


def _game_and_strategy(
    ctx: typer.Context,
    strategy_file: Path | None,
    source_format: str | None,
    lenient: bool,
    options: GameOptions,
    max_mb: int = MAX_INPUT_MB,
) -> tuple[Game, Strategy | None]:
    """The strategy file read (if any, see :func:`_read`), and the game of the options
    and the file.  Without a file, the options of reading one are refused (exit 2)."""
    if strategy_file is None:
        reading = _given(ctx, source_format=source_format, lenient=lenient, max_input_mb=max_mb)
        reading["fmt"] = reading.pop("source_format")
        _refuse_inert(reading, (), "without {strategy}", strategy="FILE")
        return options.game()[0], None
    strategy, game, _ = _read(strategy_file, source_format, lenient, options, max_mb)
    return game, strategy


@app.command("play")
def play_command(
    ctx: typer.Context,
    strategy_file: StrategyOption = None,
    rule: RuleOption = "entropy",
    pool: PoolOption = "all",
    seed: Annotated[
        Optional[int], typer.Option("--seed", help="Seed for the secret drawn and for random rules.")
    ] = None,
    first: FirstOption = None,
    breaker: BreakerOption = "computer",
    adversary: AdversaryOption = False,
    hints: Annotated[
        bool, typer.Option("--hints", help="You guessing: show how many secrets still fit (which, when few).")
    ] = False,
    game_name: GameName = "mastermind",
    pegs: NewPegs = None,
    colors: NewColors = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    alphabet: AlphabetOption = "auto",
    source_format: SourceFormat = None,
    max_input_mb: MaxInputMb = MAX_INPUT_MB,
    lenient: Lenient = False,
) -> None:
    """Play a game: the computer breaks your code, or you break the computer's.

    By default you think of a secret and reply to each guess (1 2, 12 or b1 w2);
    impossible replies are refused with the reason, and when no secret fits your
    replies the game says which may be wrong.  --breaker you: the computer draws
    a secret (--seed) and scores your guesses.  --adversary: the computer replies
    so as to keep the most secrets alive, against you or against its own rule.
    Exit 0 when the secret is found, 1 when the game is stopped (quit, end of input).
    """
    from .play import (
        adversary_game,
        alphabet_for,
        breaker_for,
        check_play,
        computer_breaks,
        draw_secret,
        moves_text,
        you_break,
    )

    try:  # an option without effect in the game asked for
        check_play(
            breaker, strategy=strategy_file, adversary=adversary,
            **_given(ctx, rule=rule, pool=pool, seed=seed), first=first, hints=hints,
        )
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    terminal = _Terminal()
    options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
    try:
        game, strategy = _game_and_strategy(
            ctx, strategy_file, source_format, lenient, options, max_input_mb
        )
        shown = alphabet_for(game, alphabet)
        guesser = breaker_for(game, strategy, rule, pool, seed=seed or 0, first=first)
        if breaker == "you":
            secret = None if adversary else draw_secret(game, seed)
            outcome = you_break(game, terminal, shown, secret=secret, hints=hints)
        elif adversary:
            outcome = adversary_game(game, guesser)
            for turn, (g, r) in enumerate(outcome.moves, 1):
                terminal.say(f"guess {turn}: {shown.text(game, g)}  reply {game.reply(r)}")
            if outcome.note:
                terminal.say(outcome.note)
            terminal.say(
                f"The adversary held out for {plural(outcome.guesses, 'guess')}: "
                f"{moves_text(game, outcome.moves, shown)}"
            )
        else:
            outcome = computer_breaks(game, guesser, terminal, shown)
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    except (EOFError, KeyboardInterrupt) as stop:
        out.print()
        out.print("game stopped", markup=False)
        code = _stop_code() if isinstance(stop, KeyboardInterrupt) else EXIT_INVALID
        raise typer.Exit(code) from None
    if not outcome.solved:
        out.print(f"game stopped after {plural(outcome.guesses, 'guess')}")
        raise typer.Exit(EXIT_INVALID)


# the options of simulate
SimulateSeed = Annotated[
    int,
    typer.Option("--seed", help="Seed for the secrets drawn and for random rules (run k: seed + k)."),
]
Fraction = Annotated[
    Optional[float],
    typer.Option("--fraction", help="Play this fraction of the secrets, drawn at random."),
]
GamesDrawn = Annotated[
    Optional[int],
    typer.Option("--games", "-n", min=1, help="Play this many secrets drawn at random (with repeats)."),
]
Runs = Annotated[
    int, typer.Option("--runs", min=1, help="Repeat with this many seeds and report the spread.")
]
GamesCsv = Annotated[
    Optional[Path], typer.Option("--csv", help="Write one row per game to this file (atomically).")
]
HistogramPlot = Annotated[
    Optional[Path],
    typer.Option("--plot", help="Draw the histogram into this PNG (needs matplotlib)."),
]
AgainstAdversary = Annotated[
    bool,
    typer.Option("--adversary",
                 help="Play one game against the adversary instead (the worst case it finds)."),
]


@app.command("simulate")
def simulate_command(
    ctx: typer.Context,
    strategy_file: StrategyOption = None,
    rule: RuleOption = "entropy",
    pool: PoolOption = "all",
    seed: SimulateSeed = 0,
    first: FirstOption = None,
    fraction: Fraction = None,
    games: GamesDrawn = None,
    runs: Runs = 1,
    csv_file: GamesCsv = None,
    plot: HistogramPlot = None,
    force: Force = False,
    adversary: AgainstAdversary = False,
    game_name: GameName = "mastermind",
    pegs: NewPegs = None,
    colors: NewColors = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    alphabet: AlphabetOption = "auto",
    source_format: SourceFormat = None,
    max_input_mb: MaxInputMb = MAX_INPUT_MB,
    lenient: Lenient = False,
    as_json: JsonOption = False,
) -> None:
    """Play many games with a rule or a strategy file: average, max and histogram.

    All secrets by default, --fraction F of them, or --games N drawn at random
    (--seed makes it reproducible).  --runs K repeats with seeds seed..seed+K-1
    (for random rules and sampled pools, and random secrets) and reports the
    spread of the average.  Exit 1 when some game is not solved.
    """
    from .builders import GreedyChooser
    from .files import write_text_atomic
    from .play import alphabet_for, breaker_for
    from .simulate import (
        check_simulate,
        games_csv,
        plot_histogram,
        simulate_runs,
        simulation_json,
    )
    from .stats import plot_format

    try:  # an option without effect in the simulation asked for
        check_simulate(
            strategy=strategy_file, adversary=adversary, **_given(ctx, rule=rule, pool=pool, seed=seed),
            first=first, fraction=fraction, games=games, runs=runs, csv=csv_file, plot=plot,
        )
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    _check_outputs([csv_file, plot], force=force, inputs={"the input": strategy_file})
    if plot is not None:
        try:
            plot_format(plot)  # before the games are played
        except StrategyTreeError as problem:
            raise _fail(problem) from None
    started = time.perf_counter()
    options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
    try:
        game, strategy = _game_and_strategy(
            ctx, strategy_file, source_format, lenient, options, max_input_mb
        )
        shown = alphabet_for(game, alphabet)
        if adversary:
            guesser = breaker_for(game, strategy, rule, pool, seed=seed, first=first)
            what = str(strategy_file) if strategy is not None else f"the {guesser.chooser.rule} rule"
            _against_adversary(game, guesser, what, shown, as_json, started)
            return
        if strategy is None:
            _warmed(game, lambda small: simulate_runs(
                small, lambda run_seed: GreedyChooser(small, rule, pool, seed=run_seed), seed=seed
            ))
            started = time.perf_counter()
        player = strategy if strategy is not None else (
            lambda run_seed: GreedyChooser(game, rule, pool, seed=run_seed, first=first)
        )
        with _progress("playing", game) as show:
            results = simulate_runs(
                game, player, runs=runs, seed=seed, fraction=fraction, games=games, progress=show
            )
        elapsed = time.perf_counter() - started
        if csv_file is not None:
            rows = games_csv(results, shown)
            write_text_atomic(csv_file, rows, force=force)
        if plot is not None:
            plot_histogram(results, plot)
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    if as_json:
        _print_json(simulation_json(results, elapsed))
    else:
        _print_simulation(results, shown)
        out.print(f"played in {elapsed:.2f} s")
    notes = err if as_json else out  # with --json, stdout holds the JSON alone
    if csv_file is not None:
        notes.print(f"games written to {escape(str(csv_file))}")
    if plot is not None:
        notes.print(f"histogram drawn to {escape(str(plot))}")
    if any(r.unsolved for r in results):
        raise typer.Exit(EXIT_INVALID)


def _against_adversary(game: Game, guesser, what: str, shown, as_json: bool,
                       started: float) -> None:
    """``simulate --adversary``: one game against the adversary, printed or as JSON."""
    from .play import adversary_game, moves_text
    from .simulate import adversary_json

    outcome = adversary_game(game, guesser)
    if as_json:
        _print_json(adversary_json(game, outcome, what, time.perf_counter() - started))
        return
    out.print(f"{escape(game.name)}: {escape(what)} against the adversary", soft_wrap=True)
    out.print(moves_text(game, outcome.moves, shown), markup=False, soft_wrap=True)
    if outcome.note:
        out.print(outcome.note, markup=False, soft_wrap=True)
    out.print(f"{plural(outcome.guesses, 'guess')} ({time.perf_counter() - started:.2f} s)")


def _print_simulation(results: list, shown) -> None:
    """The summary of ``simulate``'s runs (:func:`strategytree.simulate.summary`)."""
    from .play import moves_text
    from .simulate import summary

    s = summary(results)
    first_run, game = results[0], results[0].game
    out.print(
        f"[bold]{escape(game.name)}[/]: {escape(first_run.player)}; secrets: {escape(first_run.secrets)}"
        + (f", {len(results)} runs" if len(results) > 1 else ""),
        soft_wrap=True,
    )
    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_row("games", f"{s.games:,}")
    table.add_row("solved", f"{s.solved:,}")
    table.add_row("total guesses", f"{s.total:,}")
    table.add_row("average", "-" if s.average is None else f"{s.average:.4f}")
    table.add_row("max guesses", str(s.max_guesses))
    out.print(table)
    if s.histogram:
        out.print(_histogram(s.histogram, "games"))
    if len(results) > 1:
        per_run = Table(box=None, padding=(0, 1), show_edge=False)
        for name in ("run", "seed", "average", "max"):
            per_run.add_column(name, justify="right")
        for k, r in enumerate(results, 1):
            per_run.add_row(str(k), str(r.seed), f"{r.average:.4f}", str(r.max_guesses))
        out.print(per_run)
        spread = s.spread
        out.print(
            f"average over {spread.runs} runs: {spread.mean:.4f} ± {spread.stdev:.4f} (sd), "
            f"from {spread.low:.4f} to {spread.high:.4f}; worst game {plural(spread.worst, 'guess')}",
            soft_wrap=True,
        )
    if s.unsolved:
        out.print(f"[red]{plural(len(s.unsolved), 'game')} not solved[/], e.g.:")
        for _, g in s.unsolved[:5]:
            out.print(
                f"  {shown.text(game, g.secret, secret=True)}: {moves_text(game, g.moves, shown)}: {g.reason}",
                markup=False, soft_wrap=True,
            )


@app.command("convert")
def convert_command(
    file: Annotated[Path, typer.Argument(help="A strategy tree in any format read (see --from).")],
    output: Annotated[
        Optional[Path],
        typer.Option(
            "--output", "-o", help="Write to this file (atomically) instead of printing; - for stdout."
        ),
    ] = None,
    source_format: SourceFormat = None,
    max_input_mb: MaxInputMb = MAX_INPUT_MB,
    target_format: Annotated[
        Optional[str],
        typer.Option("--to", help="brace or json (default: json for a .json output, else brace)."),
    ] = None,
    indent: Annotated[
        Optional[int], typer.Option("--indent", min=0, help="Indent nested guesses by this many spaces.")
    ] = None,
    force: Force = False,
    pegs: Pegs = None,
    colors: Colors = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    game_name: GameName = "mastermind",
    lenient: Lenient = False,
) -> None:
    """Convert a strategy tree written by another solver into the brace grammar (or JSON).

    Reads fancidev's mmstrat text, arfst23's tables and YAML, mikemag's GraphViz
    trees, our JSON trees, lookup tables (show --format csv) and DOT guides.  The
    game matters only for mmstrat files, whose counts tell it by default.
    """
    from .convert import GAME_FORMATS, SUFFIXES, read_file, write, writes
    from .files import is_stdout

    _check_outputs([output], force=force, inputs={"the input": file}, stdout=True)
    try:
        options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
        game = options.game()[0] if options.given else None
        strategy, kind, _ = read_file(
            file, source_format, game, lenient=lenient, max_bytes=max_input_mb * 2**20
        )
        if kind not in GAME_FORMATS:
            given = options._asdict()
            given["preset"] = None if options.preset == "mastermind" else options.preset
            refuse_inert(given, (), f"on a {kind} file (only mmstrat files are read in a game)")
        _say_repairs(strategy)
        if output is None or is_stdout(output):
            sys.stdout.write(writes(strategy, target_format or "brace", indent=indent) + "\n")
            return
        target = target_format or SUFFIXES.get(output.suffix.lower(), "brace")
        write(strategy, output, target, indent=indent, force=force)
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    err.print(f"wrote {escape(str(output))} ({target}) from {escape(str(file))} ({kind}): "
              f"{plural(strategy.count_nodes(), 'guess')} in the tree", soft_wrap=True)


def _say_repairs(strategy: Strategy) -> None:
    """The repairs a lenient reading made, one ``repaired:`` line each on stderr."""
    for repair in strategy.repairs[:SHOWN_PROBLEMS]:
        _say(f"repaired: {repair}")
    if len(strategy.repairs) > SHOWN_PROBLEMS:
        _say(f"repaired: ... and {len(strategy.repairs) - SHOWN_PROBLEMS:,} more")


@app.command("format")
def format_command(
    file: Annotated[Path, typer.Argument(help="A strategy file (in any format read, see --from).")],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", help="Write to this file (atomically); - for stdout."),
    ],
    source_format: SourceFormat = None,
    lenient: Lenient = False,
    indent: Annotated[
        Optional[int], typer.Option("--indent", min=0, help="Indent nested guesses by this many spaces.")
    ] = None,
    force: Force = False,
    max_input_mb: MaxInputMb = MAX_INPUT_MB,
) -> None:
    """Write a strategy file back in the brace grammar, normalised (and repaired, with --lenient).

    No spaces, upper-case codes, two-digit replies, on one line or indented
    (--indent); the branches keep their order.  With --lenient the dialects seen
    in the wild are read and each repair is reported on stderr.  Any format read
    is accepted (--from), as by convert.
    """
    from .convert import normalise
    from .files import is_stdout

    _check_outputs([output], force=force, inputs={"the input": file}, stdout=True)
    try:
        read = normalise(
            file, output, source_format, lenient=lenient, indent=indent, force=force,
            max_bytes=max_input_mb * 2**20,
        )
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    _say_repairs(read.strategy)
    if not is_stdout(output):
        repaired = plural(len(read.strategy.repairs), "repair")
        _say(f"wrote {output} ({repaired}) from {file} ({read.fmt})")


def main() -> None:
    """Entry point of the console script.

    Once a command has finished (its files written and closed, its output
    flushed), the process ends at once: tearing down numba and LLVM would
    otherwise add about a third of a second to every command.  SIGTERM and
    SIGHUP stop a command as Ctrl-C does (:func:`_stop_like_ctrl_c`).
    """
    _stop_like_ctrl_c()
    try:
        app()
    except KeyboardInterrupt:
        _say(_stop_words())
        code: int = _stop_code()
    except MemoryError:  # inputs are capped and estimated; this is the last guard
        _say("error: out of memory (a smaller game, or a machine with more memory)")
        code = EXIT_UNREADABLE
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            code = stop.code or 0
        else:
            raise  # a message to print: let Python do it
    else:
        code = 0
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(code)


ImproveInput = Annotated[Path, typer.Argument(help="A valid strategy file (in any format read, see --from).")]
ImproveOutput = Annotated[Path, typer.Option("--output", "-o", help="Where to write the better strategy.")]
ImproveExactBelow = Annotated[
    int,
    typer.Option("--exact-below", "-n", min=0,
                 help="Solve every subtree of at most this many secrets exactly."),
]
ImproveWidths = Annotated[
    str,
    typer.Option("--widths", "-w",
                 help="Larger subtrees: candidates per rule at each level, e.g. 4,3,2 (all: every guess, one per class of equivalent guesses; 0: the level not searched, so 0,0,12: the third level and below only; a level beyond the list: as its last)."),
]
ImproveFinalists = Annotated[
    str,
    typer.Option("--finalists",
                 help="Larger subtrees: at each level, how many candidates, ranked by their greedy completions, are searched in full, completed exactly (e.g. 0,0,30; 0: all, in the rules' order; all: all, in that ranking's order; a level beyond the list: as its last) \\[default: 0]."),
]
ImproveDeepen = Annotated[
    str,
    typer.Option("--deepen",
                 help="Larger parts of a candidate completed exactly: search them again, W candidates a rule, the F best by their greedy completions completed (W,F, e.g. 50,5) \\[default: left greedy]."),
]
Budget = Annotated[
    Optional[str],
    typer.Option("--budget", help="Stop with the best so far after this long: 90s, 30m, 2h."),
]
ImproveMaxGuesses = Annotated[
    Optional[int],
    typer.Option("--max-guesses", "-k", min=1, help="Subtrees found keep every secret within K guesses."),
]
ImproveCheckpoint = Annotated[
    Optional[Path], typer.Option("--checkpoint", help="Keep the run here and resume from it.")
]


@app.command("improve")
def improve_command(
    file: ImproveInput,
    output: ImproveOutput,
    exact_below: ImproveExactBelow = 200,
    widths: ImproveWidths = "4,3,2",
    finalists: ImproveFinalists = "",
    deepen: ImproveDeepen = "",
    budget: Budget = None,
    max_guesses: ImproveMaxGuesses = None,
    checkpoint: ImproveCheckpoint = None,
    pegs: Pegs = None,
    colors: Colors = None,
    distinct: Distinct = False,
    distinct_guesses: DistinctGuesses = False,
    game_name: GameName = "mastermind",
    lenient: Lenient = False,
    source_format: SourceFormat = None,
    max_input_mb: MaxInputMb = MAX_INPUT_MB,
    force: Force = False,
    workers: Workers = None,
    scheduler: Scheduler = None,
) -> None:
    """Make a strategy better (never worse) by searching its subtrees again.

    Subtrees of at most --exact-below secrets are solved exactly; larger ones
    try the --widths best guesses of several rules, their parts completed by
    exact search or greedily (with --finalists, only the candidates whose
    greedy completions rank best; with --deepen, their large parts searched
    again).  The best so far is written to -o (atomically) as
    it improves and when the --budget ends or the run is stopped (Ctrl-C,
    SIGTERM, SIGHUP: exit 130, 143, 129); with --checkpoint, a later run resumes.
    With --workers or --scheduler, the subtrees a pass searches (disjoint) are
    searched side by side on a Dask cluster.  An invalid input is refused with
    the verifier's report (exit 1).
    """
    from .improve import ImproveError, improve, parse_budget
    from .notation import dump
    from .verify import verify

    _check_outputs([output], force=force, inputs={"the input": file}, checkpoint=checkpoint)
    options = GameOptions(game_name, pegs, colors, distinct, distinct_guesses)
    try:
        seconds = parse_budget(budget)
        strategy, game, notes = _read(file, source_format, lenient, options, max_input_mb)
        before = verify(strategy, game)
        before.game_notes = notes
        if not before.valid:
            _print_report(before)
            raise typer.Exit(EXIT_INVALID)
        started = time.perf_counter()
        with _cluster(workers, scheduler) as client, _progress("improving", game) as show:
            best = improve(
                strategy, game, exact_below=exact_below, widths=widths, finalists=finalists,
                deepen=deepen,
                budget_seconds=seconds, max_guesses=max_guesses, checkpoint=checkpoint, progress=show,
                on_better=lambda better: dump(better, output, force=True), client=client,
            )
        took = time.perf_counter() - started
        report = verify(best, game)
    except ImproveError as problem:
        _print_report(problem.report)
        raise typer.Exit(EXIT_INVALID) from None
    except StrategyTreeError as problem:
        raise _fail(problem) from None
    except KeyboardInterrupt:
        raise _interrupted(checkpoint) from None
    report.source = str(output)
    _print_report(report)
    out.print(
        f"{before.total - report.total:,} guesses saved ({before.total:,} -> {report.total:,}, "
        f"max {before.max_guesses} -> {report.max_guesses}) in {took:.1f} s, "
        f"written to {escape(str(output))}"
    )
    if not report.valid:
        raise typer.Exit(EXIT_INVALID)
