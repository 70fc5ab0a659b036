"""The commands of ``strategytree``: each gathers its options (declared in
:mod:`.options`), calls the library's ``*_outcome`` function, and prints what it
composed (:func:`.terminal.end`); :func:`.group.command` words the library's errors."""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import refuse_inert
from . import options as o
from . import terminal as t
from .group import app as app  # handed on by the package, with these commands registered
from .group import command
from .options import given

# The library (numpy, lark, numba) is imported inside each command, when it
# runs: ``strategytree --help`` and a mistyped option never wait for it.


def _no_file_no_reading(ctx: typer.Context, strategy_file: Path | None,
                        reading: o.Reading) -> None:
    """Without a strategy file, the options of reading one are refused (exit 2)."""
    if strategy_file is None:
        asked = given(ctx, **reading._asdict())
        refuse_inert({"fmt": asked.pop("source_format"), **asked}, (), "without {strategy}",
                     strategy="FILE")


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
    from ..formats.reading import strategy_reader
    from ..verify import verify_outcome

    t.end(verify_outcome(files, strategy_reader(**reading.of(options)), strict=strict,
                         examples=examples, as_json=as_json, word=t.words))


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
    from ..export import show_outcome

    t.end(show_outcome(file, fmt, output, read=reading.of(options), as_json=as_json, force=force,
                       styled=t.out.is_terminal, secret=secret, depth=depth, path=path))


@command("stats")
def stats_command(
    *, file: o.StrategyFile, plot: o.Plot = None, force: o.Force = False,
    options: o.FileGame, reading: o.ReadOptions, as_json: o.JsonOption = False,
) -> None:
    """Guesses per secret: the histogram, and average and max by reply to the first guess.

    Beside the total, its distance from the optimum (or a bound on it).  Exit 1
    when the strategy is invalid (a secret not solved, or what verify calls an error).
    """
    from ..stats import stats_outcome

    t.end(stats_outcome(file, plot, read=reading.of(options), force=force, as_json=as_json))


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
    from ..generate import generate_outcome

    asked = given(ctx, **guesser._asdict(), seed=seed, **lookahead._asdict())
    t.end(generate_outcome(output, method, game_options=options._asdict(),
                           symmetry=not no_symmetry, max_guesses=max_guesses, indent=indent,
                           checkpoint=checkpoint, force=force, as_json=as_json,
                           **where._asdict(), watch=t.watch(), **asked))


@command("bound", stops=True)
def bound_command(
    ctx: typer.Context, *, options: o.NewGame, no_symmetry: o.NoSymmetry = False,
    total: o.Total = False, depth: o.TotalDepth = 3, seconds: o.Seconds = None,
    checkpoint: o.Checkpoint = None, as_json: o.JsonOption = False, where: o.ClusterOptions,
    exact_below: o.TotalExactBelow = 0, exact_parts: o.TotalExactParts = 0,
) -> None:
    """The fewest guesses that solve every secret, proved by exhaustion.

    With --total: a proven lower bound on the least total of any strategy
    (--depth levels worked out exactly, counting below); Ctrl-C, SIGTERM or
    --seconds stop it with the bound proved so far (kept with --checkpoint).
    """
    from ..bounds.max_guesses import bound_outcome
    from ..bounds.total import total_outcome

    run = {"symmetry": not no_symmetry, "as_json": as_json, **where._asdict(), "watch": t.watch()}
    if total:
        return t.end(total_outcome(options._asdict(), depth, seconds=seconds,
                                   checkpoint=checkpoint, exact_below=exact_below,
                                   exact_parts=exact_parts, **run))
    refuse_inert(given(ctx, depth=depth, seconds=seconds, checkpoint=checkpoint,
                       exact_below=exact_below, exact_parts=exact_parts), (), "without {total}",
                 total=True)
    t.end(bound_outcome(options._asdict(), **run))


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
    from ..play import check_play, play_outcome

    check_play(breaker, strategy=strategy_file, adversary=adversary,
               **given(ctx, **guesser._asdict(), seed=seed), hints=hints)
    _no_file_no_reading(ctx, strategy_file, reading)
    t.end(play_outcome(strategy_file, t.PlayConsole(), read=reading.of(options), breaker=breaker,
                       adversary=adversary, **guesser._asdict(), seed=seed, hints=hints,
                       alphabet=alphabet))


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
    from ..simulate import check_simulate, simulate_outcome

    check_simulate(strategy=strategy_file, adversary=adversary,
                   **given(ctx, **guesser._asdict(), seed=seed),
                   fraction=fraction, games=games, runs=runs, csv=csv_file, plot=plot)
    _no_file_no_reading(ctx, strategy_file, reading)
    t.end(simulate_outcome(strategy_file, read=reading.of(options), adversary=adversary,
                           as_json=as_json, alphabet=alphabet, watch=t.watch(), **guesser._asdict(),
                           seed=seed, fraction=fraction, games=games, runs=runs, csv=csv_file,
                           plot=plot, force=force))


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
    from ..formats.writing import convert_outcome

    t.end(convert_outcome(file, output, to=target_format, as_json=as_json, indent=indent,
                          force=force, game_options=options._asdict(), **reading.of()))


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
    from ..formats.writing import format_outcome

    t.end(format_outcome(file, output, as_json=as_json, in_place=in_place, indent=indent,
                         force=force, **reading.of()))


@command("improve", stops=True)
def improve_command(
    *, file: o.StrategyFile, output: o.ImprovedOutput, exact_below: o.ExactBelow = 200,
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
    from ..improve import improve_outcome

    t.end(improve_outcome(file, output, read=reading.of(options), budget=budget,
                          checkpoint=checkpoint, force=force, as_json=as_json, **where._asdict(),
                          watch=t.watch(), exact_below=exact_below, widths=widths,
                          finalists=finalists, deepen=deepen, max_guesses=max_guesses))