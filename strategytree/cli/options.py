"""Every option of the ``strategytree`` command, declared once.

An option that several commands take is one ``Annotated`` alias here; options
that always go together (a game, how a file is read, a rule, a cluster, a
lookahead) are a :class:`Bundle`: one parameter of a command, spread into its
options on the command line by :func:`strategytree.cli.group.command` and
gathered back into one value (a NamedTuple) when the command runs.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, Optional

import typer

from ..formats.source import MAX_INPUT_BYTES

if TYPE_CHECKING:
    from ..game import Game
    from ..tree import Strategy

#: the default of --max-input-mb
MAX_INPUT_MB = MAX_INPUT_BYTES // 2**20


def resolve_game(*args: object, **kwargs: object) -> tuple[Game, list[str]]:
    """:func:`strategytree.game.resolve_game` (imported when first called): every
    command's options become a game through this one name."""
    from ..game import resolve_game as resolve

    return resolve(*args, **kwargs)  # type: ignore[arg-type]


class Bundle:
    """Options that go together, declared once: the ``Annotated`` metadata of a
    command's parameter, which :func:`~strategytree.cli.group.command` spreads
    into ``options`` (name -> (annotation, default)) and gathers into ``gather(**options)``."""

    def __init__(self, gather: Any, **options: tuple[Any, Any]) -> None:
        self.gather = gather
        self.parameters = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind,
                              default=default)
            for name, (kind, default) in options.items()
        ]


#: :func:`typer.Option`
option = typer.Option


# -- the game ----------------------------------------------------------------------------
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
        return resolve_game(
            self.preset, self.pegs, self.colors, distinct=self.distinct,
            distinct_guesses=self.distinct_guesses, strategy=strategy,
        )


Pegs = Annotated[Optional[int], option(
    "--pegs", "-p", min=1, max=9, help="Pegs per code \\[default: the first guess's length]."
)]
Colors = Annotated[Optional[int], option(
    "--colors", "-c", min=1, max=26, help="Number of colours \\[default: the highest letter used]."
)]
NewPegs = Annotated[Optional[int], option(
    "--pegs", "-p", min=1, max=9, help="Pegs per code \\[default: 4, or the game's]."
)]
NewColors = Annotated[Optional[int], option(
    "--colors", "-c", min=1, max=26, help="Number of colours \\[default: 6, or the game's]."
)]
Distinct = Annotated[bool, option("--distinct", help="Secrets have no repeated colour.")]
DistinctGuesses = Annotated[bool, option(
    "--distinct-guesses", help="Guesses may not repeat a colour either (implies --distinct)."
)]
GameName = Annotated[str, option(
    "--game", "-g", help="mastermind, distinct, bulls-and-cows, bagel or black-only."
)]
_RULES = {"distinct": (Distinct, False), "distinct_guesses": (DistinctGuesses, False),
          "preset": (GameName, "mastermind")}
#: the game of a strategy file: what is not given is told by the file
FileGame = Annotated[GameOptions, Bundle(
    GameOptions, pegs=(Pegs, None), colors=(Colors, None), **_RULES
)]
#: the game of a new strategy or game: MM(4,6) unless told otherwise
NewGame = Annotated[GameOptions, Bundle(
    GameOptions, pegs=(NewPegs, None), colors=(NewColors, None), **_RULES
)]


# -- reading a strategy file ---------------------------------------------------------------
class Reading(NamedTuple):
    """How a strategy file is read: ``--from``, ``--lenient``, ``--max-input-mb``."""

    source_format: str | None
    lenient: bool
    max_input_mb: int


SourceFormat = Annotated[Optional[str], option(
    "--from",
    help="The strategy file's format: brace, json, mmstrat, arfst-table, arfst-yaml, "
    "mikemag, dot or csv \\[default: told from the content].",
)]
Lenient = Annotated[bool, option(
    "--lenient",
    help="Brace grammar only: also read dialects seen in the wild (subtrees without "
    "braces, extra braces, lower-case colours), reporting each repair.",
)]
MaxInputMb = Annotated[int, option(
    "--max-input-mb", min=1,
    help="Read at most this many MiB of a strategy file, pipe, device or - (stdin); "
    "more is refused.",
)]
ReadOptions = Annotated[Reading, Bundle(
    Reading, source_format=(SourceFormat, None), lenient=(Lenient, False),
    max_input_mb=(MaxInputMb, MAX_INPUT_MB),
)]
#: a strategy file, in any format read
StrategyFile = Annotated[Path, typer.Argument(
    help="A strategy file (in any format read, see --from)."
)]


# -- outputs -------------------------------------------------------------------------------
Force = Annotated[bool, option(
    "--force",
    help="Overwrite an existing output file (a device, a FIFO or - is written "
    "into, never replaced).",
)]
JsonOption = Annotated[bool, option(
    "--json", help="Print the report as JSON on stdout, and nothing else there "
    "(the shapes, with JSON Schemas: docs/reference/json.md).",
)]
Indent = Annotated[Optional[int], option(
    "--indent", min=0, help="Indent nested guesses by this many spaces."
)]
TextOutput = Annotated[Optional[Path], option(
    "--output", "-o", help="Write to this file (atomically) instead of printing; - for stdout."
)]
Plot = Annotated[Optional[Path], option(
    "--plot", help="Also draw the figures into this PNG (needs matplotlib)."
)]


# -- a one-step rule (generate, play, simulate) -------------------------------------------
class Rule(NamedTuple):
    """The one-step rule that guesses: ``--rule``, ``--pool``, ``--first``."""

    rule: str
    pool: str
    first: str | None


RuleOption = Annotated[str, option(
    "--rule", "-r", help="entropy, expected, minimax, parts, first or random."
)]
PoolOption = Annotated[str, option(
    "--pool", help="Candidate guesses of the rule: all, consistent or sample:N."
)]
FirstOption = Annotated[Optional[str], option(
    "--first", help="Force the rule's opening guess, e.g. AABB."
)]
RuleOptions = Annotated[Rule, Bundle(
    Rule, rule=(RuleOption, "entropy"), pool=(PoolOption, "all"), first=(FirstOption, None)
)]
StrategyOption = Annotated[Optional[Path], option(
    "--strategy", "-s", help="Follow this strategy file instead of a --rule."
)]
AlphabetOption = Annotated[str, option(
    "--alphabet", help="Show colours as letters or digits \\[default: as the game shows them, "
    "digits for bulls-and-cows and bagel].",
)]


# -- long runs: a Dask cluster, a checkpoint ------------------------------------------------
class Cluster(NamedTuple):
    """Where a long run searches: ``--workers``, ``--scheduler``."""

    workers: str | None
    scheduler: str | None


Workers = Annotated[Optional[str], option(
    "--workers",
    help="lookahead, optimal, bound, improve: search on a local Dask cluster of N worker "
    "processes (auto: one per core), started and stopped with the command.",
)]
Scheduler = Annotated[Optional[str], option(
    "--scheduler",
    help="lookahead, optimal, bound, improve: search on the Dask cluster of this scheduler (e.g. "
    "tcp://host:8786; default $STRATEGYTREE_SCHEDULER).",
)]
ClusterOptions = Annotated[Cluster, Bundle(
    Cluster, workers=(Workers, None), scheduler=(Scheduler, None)
)]


# -- the node search: generate --method lookahead, and improve ------------------------------
class Lookahead(NamedTuple):
    """The settings of ``generate --method lookahead`` (None or empty: not given)."""

    widths: str
    also: str
    complete: str | None
    complete_above: int | None
    finalists: str | None
    exact_below: int | None


LookaheadOptions = Annotated[Lookahead, Bundle(
    Lookahead,
    widths=(Annotated[str, option(
        "--widths", "-w",
        help="lookahead: candidates per rule at each level, e.g. 8,8,4 (all: every guess, "
        "one per class of equivalent guesses; 0: the level not searched; a level beyond "
        "the list: not searched, greedy).",
    )], "8,4"),
    also=(Annotated[str, option(
        "--also", help="lookahead: more rules whose best guesses join the shortlist and whose "
        "completions compete, e.g. parts,expected.",
    )], ""),
    complete=(Annotated[Optional[str], option(
        "--complete", help="lookahead: complete the big parts below each guess tried by a "
        "lookahead of these widths (e.g. 3) instead of greedily.",
    )], None),
    complete_above=(Annotated[Optional[int], option(
        "--complete-above", help="lookahead, with --complete: the parts of more than this many "
        "secrets get it \\[default: 400].",
    )], None),
    finalists=(Annotated[Optional[str], option(
        "--finalists", help="lookahead: at each level, how many candidates, ranked by their "
        "completions, are searched in full below, the best kept (e.g. 1,3: three at the second "
        "level; 0: all; a level beyond the list: as its last) \\[default: 1].",
    )], None),
    exact_below=(Annotated[Optional[int], option(
        "--exact-below", min=0, help="lookahead: solve every set of at most this many secrets "
        "below a guess kept exactly (e.g. 400 on MM(5,8), about a second each) \\[default: none].",
    )], None),
)]
MaxGuesses = Annotated[Optional[int], option(
    "--max-guesses", "-k", min=1, help="optimal: never more than K guesses for a secret; "
    "lookahead: prefer subtrees within K guesses to any that are not.",
)]
SearchCheckpoint = Annotated[Optional[Path], option(
    "--checkpoint", help="lookahead, optimal: save the search here and resume from it."
)]
Method = Annotated[str, option(
    "--method", "-m",
    help="greedy (a one-step --rule), lookahead (search the best --widths guesses "
    "of the rule, level by level) or optimal (exact search).",
)]
ImproveExactBelow = Annotated[int, option(
    "--exact-below", "-n", min=0, help="Solve every subtree of at most this many secrets exactly."
)]
ImproveWidths = Annotated[str, option(
    "--widths", "-w",
    help="Larger subtrees: candidates per rule at each level, e.g. 4,3,2 (all: every guess, one "
    "per class of equivalent guesses; 0: the level not searched, so 0,0,12: the third level and "
    "below only; a level beyond the list: as its last).",
)]
ImproveFinalists = Annotated[str, option(
    "--finalists",
    help="Larger subtrees: at each level, how many candidates, ranked by their greedy "
    "completions, are searched in full, completed exactly (e.g. 0,0,30; 0: all, in the rules' "
    "order; all: all, in that ranking's order; a level beyond the list: as its last) "
    "\\[default: 0].",
)]
ImproveDeepen = Annotated[str, option(
    "--deepen",
    help="Larger parts of a candidate completed exactly: search them again, W candidates a "
    "rule, the F best by their greedy completions completed (W,F, e.g. 50,5) \\[default: left "
    "greedy].",
)]
Budget = Annotated[Optional[str], option(
    "--budget", help="Stop with the best so far after this long: 90s, 30m, 2h, 1h30m."
)]
ImproveMaxGuesses = Annotated[Optional[int], option(
    "--max-guesses", "-k", min=1, help="Subtrees found keep every secret within K guesses."
)]
ImproveCheckpoint = Annotated[Optional[Path], option(
    "--checkpoint", help="Keep the run here and resume from it."
)]


# -- options of one command ----------------------------------------------------------------
Files = Annotated[list[Path], typer.Argument(
    help="Strategy files (in any format read, see --from).")]
Strict = Annotated[bool, option("--strict", help="Treat unreachable branches as errors.")]
Examples = Annotated[int, option("--examples", min=0, help="How many unsolved secrets to show.")]
Secret = Annotated[Optional[str], option(
    "--secret", "-s", help="Show only the game played against this secret.")]
Depth = Annotated[Optional[int], option(
    "--depth", "-d", min=0, help="Show only this many levels of replies (text, dot).")]
HistoryPath = Annotated[Optional[str], option(
    "--path", help='Show only what follows a history, e.g. "AABBC 10, ABCDE 21".')]
GuideFormat = Annotated[Optional[str], option(
    "--format", "-f",
    help="text, markdown, csv, dot or html (default: from the -o suffix, else text).")]
GuideOutput = Annotated[Optional[Path], option(
    "--output", "-o",
    help="Write to this file (atomically; - for stdout); .svg/.png/.pdf draw with GraphViz.")]
SecretJson = Annotated[bool, option(
    "--json", help="With --secret: print the game as JSON (docs/reference/json.md).")]
NewOutput = Annotated[Path, option("--output", "-o", help=(
    "Where to write the strategy file (.json: a JSON tree that records the game); - for "
    "stdout (the report then goes to stderr)."))]
GenerateSeed = Annotated[int, option("--seed", help="Seed for random rules and sampled pools.")]
NoSymmetry = Annotated[bool, option(
    "--no-symmetry", help="Score every candidate (slower, same tree).")]
WriteIndent = Annotated[Optional[int], option("--indent", min=0, help="Write the file indented.")]
BoundNoSymmetry = Annotated[bool, option(
    "--no-symmetry", help="Try every guess near the root (slower).")]
Total = Annotated[bool, option(
    "--total", help="Prove a lower bound on the least total of any strategy.")]
TotalDepth = Annotated[int, option(
    "--depth", "-d", min=0,
    help="--total: levels of guesses worked out exactly (0 counting, 1 the first guess, ...).")]
Seconds = Annotated[Optional[float], option(
    "--seconds", min=0.001, help="--total: stop after this long (building the table of "
    "replies counted) with the bound proved so far.")]
TotalCheckpoint = Annotated[Optional[Path], option(
    "--checkpoint",
    help="--total: keep the bound of every part of a first guess here, and start from them.")]
PlaySeed = Annotated[Optional[int], option(
    "--seed", help="Seed for the secret drawn and for random rules.")]
Breaker = Annotated[str, option(
    "--breaker", "-b",
    help="Who guesses: computer (you reply) or you (the computer keeps a secret).")]
Adversary = Annotated[bool, option(
    "--adversary", help="Reply so as to keep the most secrets possible (the worst case).")]
Hints = Annotated[bool, option(
    "--hints", help="You guessing: show how many secrets still fit (which, when few).")]
SimulateSeed = Annotated[int, option(
    "--seed", help="Seed for the secrets drawn and for random rules (run k: seed + k).")]
Fraction = Annotated[Optional[float], option(
    "--fraction", help="Play this fraction of the secrets, drawn at random.")]
GamesDrawn = Annotated[Optional[int], option(
    "--games", "-n", min=1, help="Play this many secrets drawn at random (with repeats).")]
Runs = Annotated[int, option(
    "--runs", min=1, help="Repeat with this many seeds and report the spread.")]
GamesCsv = Annotated[Optional[Path], option(
    "--csv", help="Write one row per game to this file (atomically).")]
HistogramPlot = Annotated[Optional[Path], option(
    "--plot", help="Draw the histogram into this PNG (needs matplotlib).")]
AgainstAdversary = Annotated[bool, option(
    "--adversary", help="Play one game against the adversary instead (the worst case it finds).")]
Tree = Annotated[Path, typer.Argument(help="A strategy tree in any format read (see --from).")]
TargetFormat = Annotated[Optional[str], option(
    "--to", help="brace or json (default: json for a .json output, else brace).")]
FormatOutput = Annotated[Optional[Path], option(
    "--output", "-o", help="Write to this file (atomically); - for stdout.")]
InPlace = Annotated[bool, option(
    "--in-place", help="Rewrite the file itself (atomically; a link is kept), instead of -o.")]
ImproveInput = Annotated[Path, typer.Argument(
    help="A valid strategy file (in any format read, see --from).")]
ImproveOutput = Annotated[Path, option(
    "--output", "-o", help="Where to write the better strategy (.json: a JSON tree that "
    "records the game).")]
