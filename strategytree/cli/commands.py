"""The commands of ``strategytree``: each gathers its options (declared in
:mod:`.options`), reads its input, calls the library and prints what the library
composed; :func:`.group.command` words the library's errors."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from ..errors import StrategyTreeError, refuse_inert
from ..files import check_outputs
from ..runner import stop_status
from ..words import plural
from . import options as o
from . import terminal as t
from .group import command
from .options import GameOptions
from .terminal import EXIT_INVALID, err, show

if TYPE_CHECKING:
    from ..game import Game
    from ..tree import Strategy

# The library (numpy, lark, numba) is imported inside each command, when it
# runs: ``strategytree --help`` and a mistyped option never wait for it.


def _warm_game(options: GameOptions, warm: Callable[[Game], object],
               first: str | None = None) -> Game:
    """The game of ``options``, its kernels compiled first
    (:func:`~strategytree.progress.compiled_first`: not counted in the times reported);
    an opening guess ``first`` that is not one of its guesses is refused before."""
    from ..progress import compiled_first
    from ..spelling import guess_index

    game, _ = options.game()
    if first is not None:
        guess_index(game, first)
    compiled_first(game, warm, t.say)
    return game


def _game_and_strategy(
    ctx: typer.Context, strategy_file: Path | None, reading: o.Reading, options: GameOptions
) -> tuple[Game, Strategy | None]:
    """The strategy file read (if any), and the game of the options and the file.
    Without a file, the options of reading one are refused (exit 2)."""
    if strategy_file is None:
        asked = t.given(ctx, **reading._asdict())
        asked["fmt"] = asked.pop("source_format")
        refuse_inert(asked, (), "without {strategy}", strategy="FILE")
        return options.game()[0], None
    strategy, game, _ = reading.read(strategy_file, options)
    return game, strategy


def _reported(report: object, line: str, shape: dict | None = None, *,
              aside: bool = False) -> None:
    """A report (:func:`strategytree.verify.report_view`) and ``line`` (on stderr when
    ``aside``: stdout holds the tree), or its JSON ``shape`` when given; exit 1 when
    the strategy is invalid."""
    from ..verify import report_view

    if shape is not None:
        t.print_json(shape)
    else:
        console = err if aside else t.out
        show(report_view(report), console)  # type: ignore[arg-type]
        console.print(line, soft_wrap=True)
    if not report.valid:  # type: ignore[attr-defined]
        raise typer.Exit(EXIT_INVALID)


@command("verify")
def verify_command(
    *, files: o.Files, options: o.FileGame, strict: o.Strict = False,
    as_json: o.JsonOption = False, examples: o.Examples = 5, reading: o.ReadOptions,
) -> None:
    """Replay every secret through each strategy file and score it.

    The score is the code-golf N: guesses summed over all secrets (ties: the
    lowest maximum), beside the optimum or a lower bound on it.  Several files
    are ranked each game apart.  Exit 1 if a file is invalid, 2 if one cannot be read.
    """
    from ..verify import ranking_json, ranking_view, report_view, verify_files

    ranked, unreadable = verify_files(files, lambda path: reading.read(path, options),
                                      strict=strict, examples=examples, word=t.words)
    if as_json:
        t.print_json(ranking_json(ranked))
        for problem in unreadable:
            err.print(f"error: {t.words(problem)}", markup=False, soft_wrap=True)
    elif len(files) == 1 and unreadable:
        raise unreadable[0]
    else:
        show(report_view(ranked[0].report) if len(files) == 1 else ranking_view(ranked))
    if unreadable:
        raise typer.Exit(t.EXIT_UNREADABLE)
    if not all(item.report.valid for item in ranked if item.report is not None):
        raise typer.Exit(EXIT_INVALID)


@command("show")
def show_command(
    *, file: o.StrategyFile, secret: o.Secret = None, depth: o.Depth = None,
    path: o.HistoryPath = None, fmt: o.GuideFormat = None, output: o.GuideOutput = None,
    force: o.Force = False, options: o.FileGame, reading: o.ReadOptions,
    as_json: o.SecretJson = False,
) -> None:
    """Print a strategy as a guide a person can follow, or the game of one secret.

    An indented text guide; a lookup table, one row per game (markdown, csv); a
    GraphViz graph (dot; -o FILE.svg draws it: at most 500 nodes, see --depth,
    --path); a page to play the strategy by clicking (html).  Exit 1 when some
    secret is not solved.
    """
    from ..export import check_guide, guide_format, render, write_guide

    check_outputs([output], force=force, inputs={"the input": file}, stdout=True)
    kind, drawing = guide_format(fmt, output)
    check_guide(kind, secret=secret, depth=depth, path=path)
    if as_json and (secret is None or output is not None):
        raise StrategyTreeError("--json prints the game of one --secret on stdout; add --secret"
                                if secret is None else "--json prints to stdout; drop -o")
    strategy, game, _ = reading.read(file, options)
    if as_json:
        return _show_secret(strategy, game, secret)
    guide = render(strategy, game, kind, depth=depth, path=path, secret=secret, title=file.name,
                   styled=output is None and t.out.is_terminal, drawing=drawing)
    if guide.warning:
        err.print(f"[yellow]warning:[/] {guide.warning}")
    if guide.styled is not None:
        t.out.print(guide.styled, soft_wrap=True)
    elif (done := write_guide(guide, output, drawing=drawing, force=force)) is not None:
        err.print(f"{done} {output}")
    if guide.unsolved:
        raise typer.Exit(EXIT_INVALID)


def _show_secret(strategy: Strategy, game: Game, secret: str | None) -> None:
    """``show --secret S --json``: the game played against ``secret``, exit 1 unless solved."""
    from ..guide import play_secret, played_json

    played = played_json(game, secret, *play_secret(strategy, game, secret))
    t.print_json(played)
    if not played["solved"]:
        raise typer.Exit(EXIT_INVALID)


@command("stats")
def stats_command(
    *, file: o.StrategyFile, plot: o.Plot = None, force: o.Force = False,
    options: o.FileGame, reading: o.ReadOptions, as_json: o.JsonOption = False,
) -> None:
    """Guesses per secret: the histogram, and average and max by reply to the first guess.

    Beside the total, its distance from the optimum (or a bound on it).  Exit 1
    when some secret is not solved.
    """
    from ..stats import file_stats, stats_report

    check_outputs([plot], force=force, inputs={"the input": file})
    strategy, game, _ = reading.read(file, options)
    stats = file_stats(strategy, game, plot, title=file.name)
    if as_json:
        t.print_json(stats.to_dict())
        if plot is not None:
            err.print(f"plot written to {escape(str(plot))}", soft_wrap=True)
    else:
        show(stats_report(stats, str(file), plot))
    if stats.unsolved:
        raise typer.Exit(EXIT_INVALID)


@command("generate", stops=True)
def generate_command(
    ctx: typer.Context, *, output: o.NewOutput, options: o.NewGame, guesser: o.RuleOptions,
    seed: o.Seed = 0, no_symmetry: o.NoSymmetry = False, indent: o.Indent = None,
    force: o.Force = False, method: o.Method = "greedy", lookahead: o.LookaheadOptions,
    max_guesses: o.MaxGuesses = None, checkpoint: o.Checkpoint = None,
    as_json: o.JsonOption = False, where: o.ClusterOptions,
) -> None:
    """Build a strategy (one-step rule, lookahead search or exact search), write it, score it.

    Lookahead tries, at each level, the --widths best guesses of the rule and
    keeps the cheapest (never worse than greedy); optimal finds the fewest
    guesses in total (with --max-guesses K: within K).  Ctrl-C, SIGTERM or
    SIGHUP stop a search (exit 130, 143, 129), kept with --checkpoint.
    """
    from ..files import to_stdout
    from ..generate import check_method, generate, generate_file, stopped_text, symmetry_cost
    from ..runner import Interrupted

    asked = t.given(ctx, rule=guesser.rule, pool=guesser.pool, seed=seed, **lookahead._asdict())
    check_method(method, **asked, first=guesser.first, max_guesses=max_guesses,
                 checkpoint=checkpoint, client=where.workers or where.scheduler)
    check_outputs([output], force=force, checkpoint=checkpoint, stdout=True)
    _json_needs_a_file(as_json, output)
    settings = {**asked, "symmetry": not no_symmetry, "max_guesses": max_guesses}
    game = _warm_game(options, lambda small: generate(small, method, **settings), guesser.first)
    verb = "building" if method == "greedy" else "searching"
    if (cost := symmetry_cost(game, method, not no_symmetry)) is not None:
        err.print(f"[yellow]warning:[/] {escape(cost)}", soft_wrap=True)
    try:
        with t.running(verb, game, where, method != "greedy") as (client, status):
            built = generate_file(game, output, method, indent=indent, force=force, **settings,
                                  first=guesser.first, checkpoint=checkpoint, progress=status,
                                  client=client)
    except Interrupted as stopped:  # say what the output holds
        t.say(stopped_text(stopped.result, output, checkpoint))
        raise
    where_to = "the standard output" if to_stdout(output) else escape(str(output))
    _reported(built.report, f"built in {built.seconds:.2f} s, written to {where_to}",
              built.to_dict() if as_json else None, aside=to_stdout(output))


@command("bound", stops=True)
def bound_command(
    ctx: typer.Context, *, options: o.NewGame, no_symmetry: o.NoSymmetry = False,
    total: o.Total = False, depth: o.TotalDepth = 3, seconds: o.Seconds = None,
    checkpoint: o.Checkpoint = None, as_json: o.JsonOption = False, where: o.ClusterOptions,
) -> None:
    """The fewest guesses that solve every secret, proved by exhaustion.

    With --total: a proven lower bound on the least total of any strategy
    (--depth levels worked out exactly, counting below); Ctrl-C, SIGTERM or
    --seconds stop it with the bound proved so far (kept with --checkpoint).
    """
    from ..search import prove_bound
    from ..search.driver import bound_json, bound_text

    if total:
        check_outputs([], force=False, checkpoint=checkpoint)
        return _bound_total(options, depth, seconds, not no_symmetry, as_json, checkpoint, where)
    refuse_inert(t.given(ctx, depth=depth, seconds=seconds, checkpoint=checkpoint), (),
                 "without {total}", total=True)
    game = _warm_game(options, lambda small: prove_bound(small, symmetry=not no_symmetry))
    with t.running("proving", game, where) as (client, status):
        started = time.perf_counter()  # (a cluster's start-up not counted)
        answer = prove_bound(game, symmetry=not no_symmetry, progress=status, client=client)
    elapsed = time.perf_counter() - started
    if as_json:
        return t.print_json(bound_json(game, answer, elapsed))
    t.out.print(bound_text(game, answer, elapsed), soft_wrap=True)


def _bound_total(options: GameOptions, depth: int, seconds: float | None, symmetry: bool,
                 as_json: bool, checkpoint: Path | None, where: o.Cluster) -> None:
    """``bound --total``: prove a lower bound on the least total, print it (also when stopped)."""
    from ..bounds.total import bound_total, total_lower_bound

    game = _warm_game(options, lambda small: total_lower_bound(small, min(depth, 2),
                                                               symmetry=symmetry))
    with t.running("bounding", game, where) as (client, status):
        answer, text, stopped = bound_total(game, depth, progress=status, seconds=seconds,
                                            symmetry=symmetry, checkpoint=checkpoint,
                                            client=client)
    if as_json:
        t.print_json(answer)
    else:
        t.out.print(text, soft_wrap=True)
    if stopped:
        raise t.interrupted(checkpoint)


@command("play")
def play_command(
    ctx: typer.Context, *, strategy_file: o.StrategyOption = None, guesser: o.RuleOptions,
    seed: o.Seed = None, breaker: o.Breaker = "computer", adversary: o.Adversary = False,
    hints: o.Hints = False, options: o.NewGame, alphabet: o.AlphabetOption = "auto",
    reading: o.ReadOptions,
) -> None:
    """Play a game: the computer breaks your code, or you break the computer's.

    You think of a secret and reply to each guess (1 2, 12 or b1 w2), or, with
    --breaker you, guess the computer's.  Exit 0 when the secret is found, 1
    when the game is stopped (quit, end of input).
    """
    from ..play import check_play, play

    check_play(breaker, strategy=strategy_file, adversary=adversary, first=guesser.first,
               **t.given(ctx, rule=guesser.rule, pool=guesser.pool, seed=seed), hints=hints)
    terminal = t.PlayConsole()
    try:
        game, strategy = _game_and_strategy(ctx, strategy_file, reading, options)
        outcome = play(game, terminal, strategy, breaker=breaker, adversary=adversary,
                       **guesser._asdict(), seed=seed, hints=hints, alphabet=alphabet)
    except (EOFError, KeyboardInterrupt) as stop:
        t.out.print()
        t.out.print("game stopped", markup=False)
        code = stop_status() if isinstance(stop, KeyboardInterrupt) else EXIT_INVALID
        raise typer.Exit(code) from None
    if not outcome.solved:
        t.out.print(f"game stopped after {plural(outcome.guesses, 'guess')}")
        raise typer.Exit(EXIT_INVALID)


@command("simulate")
def simulate_command(
    ctx: typer.Context, *, strategy_file: o.StrategyOption = None, guesser: o.RuleOptions,
    seed: o.Seed = 0, fraction: o.Fraction = None, games: o.GamesDrawn = None,
    runs: o.Runs = 1, csv_file: o.GamesCsv = None, plot: o.Plot = None,
    force: o.Force = False, adversary: o.AgainstAdversary = False, options: o.NewGame,
    alphabet: o.AlphabetOption = "auto", reading: o.ReadOptions, as_json: o.JsonOption = False,
) -> None:
    """Play many games with a rule or a strategy file: average, max and histogram.

    All secrets by default, --fraction F of them, or --games N drawn at random;
    --runs K repeats with K seeds and reports the spread.  Exit 1 when some
    game is not solved.
    """
    from ..play import alphabet_for
    from ..progress import compiled_first
    from ..simulate import check_simulate, play_games, simulation_json, simulation_view
    from ..stats import plot_format

    check_simulate(strategy=strategy_file, adversary=adversary, first=guesser.first,
                   **t.given(ctx, rule=guesser.rule, pool=guesser.pool, seed=seed),
                   fraction=fraction, games=games, runs=runs, csv=csv_file, plot=plot)
    check_outputs([csv_file, plot], force=force, inputs={"the input": strategy_file})
    if plot is not None:
        plot_format(plot)  # before the games are played
    started = time.perf_counter()
    game, strategy = _game_and_strategy(ctx, strategy_file, reading, options)
    alphabet_for(game, alphabet)  # refused before any game is played
    played = {**guesser._asdict(), "seed": seed, "alphabet": alphabet}
    if adversary:
        return _against_adversary(game, strategy, str(strategy_file), as_json, played, started)
    if strategy is None:
        compiled_first(game, lambda small: play_games(small, rule=guesser.rule,
                                                      pool=guesser.pool, seed=seed), t.say)
        started = time.perf_counter()
    with t.running("playing", game) as (_, status):
        results = play_games(game, strategy, **played, fraction=fraction, games=games, runs=runs,
                             csv=csv_file, plot=plot, force=force, progress=status)
    elapsed = time.perf_counter() - started
    if as_json:
        t.print_json(simulation_json(results, elapsed))
    else:
        show([*simulation_view(results, alphabet), f"played in {elapsed:.2f} s"])
    notes = err if as_json else t.out  # with --json, stdout holds the JSON alone
    for what, written in (("games written to", csv_file), ("histogram drawn to", plot)):
        if written is not None:
            notes.print(f"{what} {escape(str(written))}")
    if any(r.unsolved for r in results):
        raise typer.Exit(EXIT_INVALID)


def _against_adversary(game: Game, strategy: Strategy | None, name: str, as_json: bool,
                       played: dict, started: float) -> None:
    """``simulate --adversary``: one game against the adversary, printed or as JSON."""
    from ..simulate import adversary_json, adversary_view, against_adversary

    alphabet = played.pop("alphabet")
    outcome, what = against_adversary(game, strategy, name, **played)
    seconds = time.perf_counter() - started
    if as_json:
        return t.print_json(adversary_json(game, outcome, what, seconds))
    show(adversary_view(game, outcome, what, seconds, alphabet))


@command("convert")
def convert_command(
    *, file: o.StrategyFile, output: o.Output = None, reading: o.ReadOptions,
    target_format: o.TargetFormat = None, indent: o.Indent = None, force: o.Force = False,
    options: o.FileGame, as_json: o.JsonOption = False,
) -> None:
    """Convert a strategy tree written by another solver into the brace grammar (or JSON).

    Reads fancidev's mmstrat text, arfst23's tables and YAML, mikemag's GraphViz
    trees, our JSON trees, lookup tables and DOT guides.
    """
    from ..formats.writing import convert_file, written_json

    check_outputs([output], force=force, inputs={"the input": file}, stdout=True)
    _json_needs_a_file(as_json, output)
    if options.given:
        options.game()  # options that mean no game end the command before reading
    read, target = convert_file(
        file, output, reading.source_format, target_format,
        game_options=options._asdict() if options.given else None,
        lenient=reading.lenient, indent=indent, force=force,
        max_bytes=reading.max_input_mb * 2**20, on_read=lambda read: t.say_repairs(read.strategy),
    )
    if as_json:
        t.print_json(written_json(read, file, output, target))
    elif target is not None:
        err.print(f"wrote {escape(str(output))} ({target}) from {escape(str(file))} ({read.fmt}): "
                  f"{plural(read.strategy.count_nodes(), 'guess')} in the tree", soft_wrap=True)


def _json_needs_a_file(as_json: bool, output: Path | None) -> None:
    """Refuse ``--json`` when the tree itself goes to stdout, where the report would."""
    from ..files import to_stdout

    if as_json and (output is None or to_stdout(output)):
        where = "the tree goes" if output is None else f"-o {output} is"
        raise StrategyTreeError(f"{where} the standard output, where --json prints the report: "
                                "name a file (-o FILE), or drop --json")


@command("format")
def format_command(
    *, file: o.StrategyFile, output: o.Output = None, in_place: o.InPlace = False,
    reading: o.ReadOptions, indent: o.Indent = None, force: o.Force = False,
    as_json: o.JsonOption = False,
) -> None:
    """Write a strategy file back in the brace grammar, normalised (and repaired, with --lenient).

    No spaces, upper-case codes, two-digit replies, on one line or --indent'ed;
    the branches keep their order.  Each repair is reported on stderr.
    --in-place rewrites a brace file itself (atomically; a link is kept).
    """
    from ..files import is_stdout
    from ..formats.writing import normalise, written_json

    check_outputs([output], force=force, inputs={"the input": file}, stdout=True)
    _json_needs_a_file(as_json, file if in_place else output)
    read = normalise(file, output, reading.source_format, lenient=reading.lenient, indent=indent,
                     force=force, max_bytes=reading.max_input_mb * 2**20, in_place=in_place)
    t.say_repairs(read.strategy)
    repairs = plural(len(read.strategy.repairs), "repair")
    if as_json:
        t.print_json(written_json(read, file, file if in_place else output, "brace"))
    elif in_place:
        t.say(f"rewrote {file} in place ({repairs})")
    elif not is_stdout(output):  # type: ignore[arg-type]
        t.say(f"wrote {output} ({repairs}) from {file} ({read.fmt})")


@command("improve", stops=True)
def improve_command(
    *, file: o.StrategyFile, output: o.NewOutput, exact_below: o.ExactBelow = 200,
    widths: o.Widths = "4,3,2", finalists: o.Finalists = "", deepen: o.Deepen = "",
    budget: o.Budget = None, max_guesses: o.MaxGuesses = None, checkpoint: o.Checkpoint = None,
    options: o.FileGame, reading: o.ReadOptions, force: o.Force = False,
    where: o.ClusterOptions, as_json: o.JsonOption = False,
) -> None:
    """Make a strategy better (never worse) by searching its subtrees again.

    Subtrees of at most --exact-below secrets are solved exactly, larger ones
    searched as lookahead does.  The best so far is written to -o as it
    improves and when the --budget ends or the run is stopped (exit 130, 143,
    129); with --checkpoint, a later run resumes.  An invalid input: exit 1.
    """
    from ..improve import improvable, improve_file, improved_json, improved_text, parse_budget
    from ..runner import Interrupted

    check_outputs([output], force=force, inputs={"the input": file}, checkpoint=checkpoint)
    seconds = parse_budget(budget)
    strategy, game, notes = reading.read(file, options)
    before = improvable(strategy, game, notes)
    try:
        with t.running("improving", game, where) as (client, status):
            report, took = improve_file(
                strategy, game, output, exact_below=exact_below, widths=widths,
                finalists=finalists, deepen=deepen, budget_seconds=seconds,
                max_guesses=max_guesses, checkpoint=checkpoint, progress=status, client=client,
            )
    except Interrupted as stopped:  # the best so far is in the output: say what it holds
        with contextlib.suppress(OSError, ValueError):  # (stderr gone after a hang-up)
            err.print(improved_text(before, *stopped.result, output), soft_wrap=True)  # type: ignore[misc]
        raise
    _reported(report, improved_text(before, report, took, output),
              improved_json(before, report, took) if as_json else None)
