"""Every option of the ``strategytree`` command, declared once: one ``Annotated``
alias made by :func:`opt`, or a :class:`Bundle` of options that go together (a game,
how a file is read, a rule, a cluster, a lookahead), one parameter of a command that
:func:`strategytree.cli.group.command` spreads into its options and gathers back into
one NamedTuple.  A short option means one thing in every command; the values of an
option with a fixed set of them are the library's (``tests/test_cli_library.py``).
"""
from __future__ import annotations

import inspect
from collections import namedtuple
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, Optional

import typer

from ..formats.source import MAX_INPUT_BYTES

#: the default of --max-input-mb
MAX_INPUT_MB = MAX_INPUT_BYTES // 2**20
#: the values of the options with a fixed set of them (the library's names: imported
#: here, the library would slow ``--help`` down)
CHOICES = {
    "game": ("mastermind", "distinct", "bulls-and-cows", "bagel", "black-only"),
    "rule": ("entropy", "expected", "minimax", "parts", "first", "random"),
    "method": ("greedy", "lookahead", "optimal"),
    "from": ("brace", "json", "mmstrat", "arfst-table", "arfst-yaml", "mikemag", "dot", "csv"),
    "guide": ("text", "markdown", "csv", "dot", "html"),
    "to": ("brace", "json"),
    "alphabet": ("auto", "letters", "digits"),
    "breaker": ("computer", "you"),
}


def opt(kind: Any, *flags: str, choices: str | None = None, **more: Any) -> Any:
    """An option of type ``kind`` (``Annotated``) named ``flags``; with ``choices``,
    one of :data:`CHOICES`\\ [choices], in any case; a path never empty (:func:`path`)."""
    if choices is not None:
        kind = Literal[CHOICES[choices]]  # type: ignore[valid-type]
        more["case_sensitive"] = False
    if kind in (Path, Optional[Path]):
        more["parser"] = path
    return Annotated[kind, typer.Option(*flags, **more)]


def path(text: str) -> Path:
    """A path as given on the command line, refused when empty (it would name the
    current folder, and be refused as that)."""
    if not text:
        raise typer.BadParameter("is empty: name a file")
    return Path(text)


def given(ctx: typer.Context, **values: object) -> dict[str, object]:
    """``values`` (options by parameter name) with None for each one left at its
    default: what the library's checks of options without effect read."""
    return {
        name: None if (source := ctx.get_parameter_source(name)) is None
        or source.name in ("DEFAULT", "DEFAULT_MAP") else value
        for name, value in values.items()
    }


class Bundle:
    """Options that go together: the ``Annotated`` metadata of a command's parameter,
    spread into ``options`` (name -> (annotation, default)) and gathered into
    ``gather(**options)`` (``gather``: a NamedTuple, or the name of one to make)."""

    def __init__(self, gather: Any, **options: tuple[Any, Any]) -> None:
        self.gather = namedtuple(gather, options) if isinstance(gather, str) else gather
        self.parameters = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind,
                              default=default)
            for name, (kind, default) in options.items()
        ]


# -- the game ----------------------------------------------------------------------------
class GameOptions(NamedTuple):
    """A command's game options as given (``--game``, ``-p``, ``-c``,
    ``--distinct``, ``--distinct-guesses``): one value to pass around."""

    preset: str
    pegs: int | None
    colors: int | None
    distinct: bool
    distinct_guesses: bool


def _game(pegs: str, colors: str) -> Any:
    """The game options, with the help of ``--pegs`` and ``--colors`` saying their defaults."""
    return Annotated[GameOptions, Bundle(
        GameOptions,
        pegs=(opt(Optional[int], "--pegs", "-p", min=1, max=9,
                  help=f"Pegs per code \\[default: {pegs}]."), None),
        colors=(opt(Optional[int], "--colors", "-c", min=1, max=26,
                    help=f"Number of colours \\[default: {colors}]."), None),
        distinct=(opt(bool, "--distinct", help="Secrets have no repeated colour."), False),
        distinct_guesses=(opt(bool, "--distinct-guesses", help="Guesses may not repeat a "
                              "colour either (implies --distinct)."), False),
        preset=(opt(str, "--game", "-g", choices="game", help="The game."), "mastermind"),
    )]


#: the game of a strategy file: what is not given is told by the file
FileGame = _game("the first guess's length", "the highest letter used")
#: the game of a new strategy or game: MM(4,6) unless told otherwise
NewGame = _game("4, or the game's", "6, or the game's")


# -- reading a strategy file ---------------------------------------------------------------
class Reading(NamedTuple):
    """How a strategy file is read: ``--from``, ``--lenient``, ``--max-input-mb``."""

    source_format: str | None
    lenient: bool
    max_input_mb: int

    def of(self, options: GameOptions | None = None) -> dict[str, Any]:
        """The keywords of the library's readers (``fmt``, ``lenient``, ``max_bytes``;
        with ``options``, the game's: :func:`~strategytree.formats.reading.read_strategy`'s)."""
        game = options._asdict() if options is not None else {}
        return {"fmt": self.source_format, "lenient": self.lenient,
                "max_bytes": self.max_input_mb * 2**20, **game}


ReadOptions = Annotated[Reading, Bundle(
    Reading,
    source_format=(opt(Optional[str], "--from", choices="from", help="The strategy file's "
                       "format \\[default: told from the content]."), None),
    lenient=(opt(bool, "--lenient", help="Brace grammar only: also read dialects seen in the "
                 "wild (subtrees without braces, extra braces, lower case), reporting each "
                 "repair."), False),
    max_input_mb=(opt(int, "--max-input-mb", min=1, help="Read at most this many MiB of a "
                      "strategy file, pipe, device or - (stdin)."), MAX_INPUT_MB),
)]
StrategyFile = Annotated[Path, typer.Argument(help="A strategy file (any format, see --from).",
                                              parser=path)]
Files = Annotated[list[Path], typer.Argument(help="Strategy files (any format, see --from).",
                                             parser=path)]


# -- outputs -------------------------------------------------------------------------------
Force = opt(bool, "--force", help="Overwrite an existing output file (a device, a FIFO or - "
            "is written into, never replaced).")
JsonOption = opt(bool, "--json", help="Print the report as JSON on stdout, and nothing else "
                 "there (its JSON Schema: docs/reference/json.md).")
Indent = opt(Optional[int], "--indent", min=0, help="Indent nested guesses by this many spaces.")
Output = opt(Optional[Path], "--output", "-o", help="Write to this file (atomically); - for "
             "stdout.")
NewOutput = opt(Path, "--output", "-o", help="Write the strategy to this file (atomically; "
                "a .json file is a JSON tree that records the game); - for stdout (the report "
                "then goes to stderr).")
ImprovedOutput = opt(Path, "--output", "-o", help="Write the strategy to this file, each time "
                     "it improves (atomically; a .json file is a JSON tree that records the "
                     "game).")
Plot = opt(Optional[Path], "--plot", help="Also draw the figures into this PNG (needs "
           "matplotlib).")


# -- a one-step rule (generate, play, simulate) -------------------------------------------
RuleOptions = Annotated[Any, Bundle(  # the one-step rule that guesses
    "Rule",
    rule=(opt(str, "--rule", "-r", choices="rule", help="The one-step rule."), "entropy"),
    pool=(opt(str, "--pool", help="Candidate guesses of the rule: all, consistent or "
              "sample:N."), "all"),
    first=(opt(Optional[str], "--first", help="Force the rule's opening guess, e.g. AABB."),
           None),
)]
StrategyOption = opt(Optional[Path], "--strategy", "-s", help="Follow this strategy file "
                     "instead of a --rule.")
AlphabetOption = opt(str, "--alphabet", choices="alphabet", help="Show colours as letters or "
                     "digits \\[default: as the game shows them].")
Seed = opt(Optional[int], "--seed", min=0, help="Seed of what is drawn at random (secrets, random "
           "rules, sampled pools).")


# -- long runs: a Dask cluster, a checkpoint ------------------------------------------------
ClusterOptions = Annotated[Any, Bundle(  # where a long run searches
    "Cluster",
    workers=(opt(Optional[str], "--workers", help="Search on a local Dask cluster of N worker "
                 "processes (auto: one per core), started and stopped with the command."), None),
    scheduler=(opt(Optional[str], "--scheduler", help="Search on the Dask cluster of this "
                   "scheduler, e.g. tcp://host:8786 \\[default: $STRATEGYTREE_SCHEDULER]."),
               None),
)]
Checkpoint = opt(Optional[Path], "--checkpoint", help="Keep the run's work in this file, and "
                 "resume from it.")
MaxGuesses = opt(Optional[int], "--max-guesses", "-k", min=1, help="Never more than K guesses "
                 "for a secret (lookahead: prefer subtrees within K).")


# -- the node search: generate --method lookahead, and improve ------------------------------
_LEVELS = ("at each level, e.g. 8,4 (all: every guess, one per class of equivalent guesses; "
           "0: the level not searched; beyond the list: as its last)")
Widths = opt(str, "--widths", "-w", help=f"Candidates per rule {_LEVELS}.")
Finalists = opt(str, "--finalists", help="How many candidates, ranked by their greedy "
                "completions, are searched in full at each level, e.g. 0,0,30 (0: all, in the "
                "rules' order; all: all, in the ranking's order; beyond the list: as its last).")
ExactBelow = opt(Optional[int], "--exact-below", min=0, help="Solve every subtree of at most "
                 "this many secrets exactly.")


LookaheadOptions = Annotated[Any, Bundle(  # generate --method lookahead (None, "": not given)
    "Lookahead",
    widths=(Widths, "8,4"),
    also=(opt(str, "--also", help="lookahead: more rules whose best guesses join the shortlist, "
              "e.g. parts,expected."), ""),
    complete=(opt(Optional[str], "--complete", help="lookahead: complete the big parts below "
                  "each guess tried by a lookahead of these widths (e.g. 3), not greedily."),
              None),
    complete_above=(opt(Optional[int], "--complete-above", help="lookahead, with --complete: "
                        "the parts above this many secrets get it \\[default: 400]."), None),
    finalists=(Finalists, None),
    exact_below=(ExactBelow, None),
)]
Method = opt(str, "--method", "-m", choices="method", help="greedy: a one-step --rule; "
             "lookahead: search the rule's best guesses level by level; optimal: exact search.")
Deepen = opt(str, "--deepen", help="Search the larger parts of a candidate completed exactly "
             "again: W candidates a rule, the F best completed (W,F, e.g. 50,5).")
Budget = opt(Optional[str], "--budget", help="Stop with the best so far after this long, e.g. "
             "90s, 30m, 1h30m.")


# -- options of one command ----------------------------------------------------------------
Strict = opt(bool, "--strict", help="Treat unreachable branches as errors.")
Examples = opt(int, "--examples", min=0, help="How many unsolved secrets to show.")
Secret = opt(Optional[str], "--secret", help="Show only the game played against this secret.")
Depth = opt(Optional[int], "--depth", "-d", min=0, help="Show only this many levels of replies "
            "(text, dot).")
HistoryPath = opt(Optional[str], "--path", help='Show only what follows a history, e.g. "AABBC '
                  '10, ADEFE 40".')
GuideFormat = opt(Optional[str], "--format", "-f", "--to", choices="guide", help="The "
                  "guide's format \\[default: from the -o suffix, else text].")
GuideOutput = opt(Optional[Path], "--output", "-o", help="Write to this file (atomically; - for "
                  "stdout); .svg/.png/.pdf draw with GraphViz.")
SecretJson = opt(bool, "--json", help="With --secret: print the game as JSON.")
InPlace = opt(bool, "--in-place", help="Rewrite the file itself (atomically; a link is kept), "
              "instead of -o.")
NoSymmetry = opt(bool, "--no-symmetry", help="Score every candidate, not one per class of "
                 "equivalent guesses (slower).")
Total = opt(bool, "--total", help="Prove a lower bound on the least total of any strategy.")
TotalDepth = opt(int, "--depth", "-d", min=0, help="--total: levels of guesses worked out "
                 "exactly (0 counting, 1 the first guess, ...).")
TotalExactBelow = opt(int, "--exact-below", min=0, help="--total: bound each set of at most "
                      "this many secrets met at depth 2 or more by its exact optimum (0: none).")
TotalExactParts = opt(int, "--exact-parts", min=0, help="--total: bound each part after the first "
                      "guess of at most this many secrets by its exact optimum (0: none).")
Seconds = opt(Optional[float], "--seconds", min=0.001, help="--total: stop after this long "
              "(building the table of replies counted) with the bound proved so far.")
Breaker = opt(str, "--breaker", "-b", choices="breaker", help="Who guesses: the computer (you "
              "reply) or you (the computer keeps a secret).")
Adversary = opt(bool, "--adversary", help="The computer replies so as to keep the most secrets "
                "possible (the worst case).")
AgainstAdversary = opt(bool, "--adversary", help="Play one game against the adversary instead "
                       "(the worst case it finds).")
Hints = opt(bool, "--hints", help="You guessing: show how many secrets still fit.")
Fraction = opt(Optional[float], "--fraction", help="Play this fraction of the secrets, drawn at "
               "random.")
GamesDrawn = opt(Optional[int], "--games", "-n", min=1, help="Play this many secrets drawn at "
                 "random (with repeats).")
Runs = opt(int, "--runs", min=1, help="Repeat with seeds seed, seed + 1, ... and report the "
           "spread.")
GamesCsv = opt(Optional[Path], "--csv", help="Write one row per game to this file "
               "(atomically).")
TargetFormat = opt(Optional[str], "--format", "-f", "--to", choices="to", help="The "
                   "output's format \\[default: json for a .json output, else brace].")
