"""The frontier: for Mastermind MM(p,c) (p <= 6, c <= 10, as far as reach allows) and Bulls
and Cows, the best strategy known, the best proven lower bound, and whether the optimum is
known (the table of ``docs/explanation/frontier.md``).

What it computes, each game in turn (largest last):

- **the optimum** of every game of at most ``--exact`` secrets (default 4,096: MM(2,c),
  MM(3,c), MM(4,c <= 8), MM(5,c <= 5), MM(6,c <= 4)), by the exact search, verified;
  checked against the published optimum (``strategytree.literature``) where there is one;
- for the other games: the published figures and our own results (``literature.RESULTS``:
  each shipped file is verified here), the four greedy rules and, up to
  ``--lookahead`` secrets, the default lookahead (widths 8,4); the best of them is the
  best strategy known;
- **the proven lower bound** of a game whose optimum is unknown: ``strategytree bound
  --total`` at depth 3 (up to 20,000 secrets), 2 (up to 110,000) or 1, each stopped after
  ``--seconds`` (the bound so far holds), or the stored bound (``literature.BOUNDS``) when it
  is better.

It prints the CPU first, a line per game as it goes, then the Markdown table.

    python benchmarks/frontier.py            # p <= 5 and MM(6,c <= 6): ~10 minutes
    python benchmarks/frontier.py --quick    # games of at most 5,000 secrets: ~1 minute
    python benchmarks/frontier.py --big      # also MM(6,7..10) (greedy and depth 1; minutes more)
    python benchmarks/frontier.py --bulls    # also Bulls and Cows' optimum by the exact search
    python benchmarks/frontier.py --seconds 600 --exact 4096 --lookahead 33000
"""

from __future__ import annotations

import argparse
import time
from typing import NamedTuple

import strategytree as st
from strategytree.bounds.total import total_lower_bound
from strategytree.builders import build_greedy
from strategytree.literature import FIGURES, best_known_lower_bound, game_key, optimum, ours
from strategytree.lookahead import build_lookahead
from strategytree.presets import bulls_and_cows
from strategytree.search import build_optimal

from _common import ROOT, print_machine

RULES = ("entropy", "expected", "parts", "minimax")


class Known(NamedTuple):
    """A strategy's total, worst case and where it comes from."""

    total: int
    max_guesses: int | None
    source: str


class Row(NamedTuple):
    """One game of the table."""

    game: str
    secrets: int
    best: Known
    bound: int
    bound_how: str
    optimal: bool
    seconds: float


def games(big: bool, quick: bool) -> list[st.Game]:
    """MM(p,c) for p = 2..6, c = 2..10, by size (the largest ones only when asked)."""
    limit = 5_000 if quick else (1_000_000 if big else 110_000)
    found = [st.mastermind(p, c) for p in range(2, 7) for c in range(2, 11)
             if c**p <= limit and (big or p < 6 or c <= 6)]
    return sorted(found, key=lambda game: (len(game.secrets), game.pegs))


def scored(strategy: st.Strategy, game: st.Game, source: str) -> Known:
    """The verified total and worst case of ``strategy``."""
    report = st.verify(strategy, game)
    assert report.valid, (game.name, source)
    return Known(report.total, report.max_guesses, source)


def published_and_ours(game: st.Game) -> list[Known]:
    """Every published figure of ``game`` and our shipped result (its file verified)."""
    key = game_key(game)
    known = [Known(f.low, f.max_guesses, f"{f.method}, {f.source}") for f in FIGURES
             if f.game == key and not f.method.startswith("optimal-max")]
    result = ours(key) if key else None
    if result is not None and result.file:
        report = st.verify(st.load(ROOT / result.file), game)
        assert (report.total, report.max_guesses) == (result.total, result.max_guesses)
        known.append(Known(result.total, result.max_guesses,
                           f"strategytree {result.date}, {result.file} ({result.proven})"))
    return known


def exact_row(game: st.Game, started: float) -> Row:
    """A game solved here by the exact search (checked against any published optimum)."""
    best = scored(build_optimal(game), game, "exact search")
    figure = optimum(game)
    if figure is not None:
        assert figure.low == best.total, (game.name, figure.low, best.total)
        best = best._replace(source=f"exact search; as {figure.source}")
    return Row(game.name, len(game.secrets), best, best.total, "optimum", True,
               time.perf_counter() - started)


def bound_of(game: st.Game, seconds: float) -> tuple[int, str]:
    """The best proven lower bound: ``bound --total`` at the depth the game's size allows
    (stopped after ``seconds``), or the stored one when better."""
    n = len(game.secrets)
    depth = 3 if n <= 20_000 else 2 if n <= 110_000 else 1
    result = total_lower_bound(game, depth, seconds=seconds)
    stored = best_known_lower_bound(game)
    if stored.total > result.bound:
        return stored.total, f"{stored.method} (stored)"
    done = "" if result.complete else f", stopped after {seconds:.0f} s"
    return result.bound, f"depth {result.depth}{done}"


def frontier_row(game: st.Game, args: argparse.Namespace) -> Row:
    """A game: solved here, or its best strategy known and its best proven bound."""
    started = time.perf_counter()
    n = len(game.secrets)
    if n <= args.exact:
        return exact_row(game, started)
    known = published_and_ours(game)
    for rule in RULES:
        known.append(scored(build_greedy(game, rule=rule), game, f"greedy {rule} (strategytree)"))
    if n <= args.lookahead:
        known.append(scored(build_lookahead(game), game, "lookahead 8,4 (strategytree)"))
    best = min(known, key=lambda k: (k.total, k.max_guesses or 99))
    figure = optimum(game)
    if figure is not None:
        return Row(game.name, n, best, figure.low, "optimum", True, time.perf_counter() - started)
    bound, how = bound_of(game, args.seconds)
    return Row(game.name, n, best, bound, how, False, time.perf_counter() - started)


def bulls_row(solve: bool) -> Row:
    """Bulls and Cows: its published optimum (solved here too with ``--bulls``)."""
    started = time.perf_counter()
    game = bulls_and_cows()
    if solve:
        return exact_row(game, started)._replace(game="Bulls and Cows")
    figure = optimum(game)
    best = Known(figure.low, figure.max_guesses, f"{figure.source} (benchmarks/optimal.py "
                 "--bulls reproduces it)")
    return Row("Bulls and Cows", len(game.secrets), best, figure.low, "optimum", True,
               time.perf_counter() - started)


def table(rows: list[Row]) -> str:
    """The rows as the docs' Markdown table."""
    lines = ["| game | secrets | best known | max | from | proven lower bound | how | optimum |",
             "|---|---:|---:|---:|---|---:|---|---|"]
    for row in rows:
        best = row.best
        if row.optimal:
            state = "known"
        else:
            state = f"unknown: within {100 * (best.total - row.bound) / row.bound:.1f}%"
        worst = "" if best.max_guesses is None else str(best.max_guesses)
        lines.append(f"| {row.game} | {row.secrets:,} | {best.total:,} | {worst} | {best.source} "
                     f"| {row.bound:,} | {row.bound_how} | {state} |")
    return "\n".join(lines)


def main() -> None:
    """Compute the rows, one line each as it goes, then print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="games of at most 5,000 secrets")
    parser.add_argument("--big", action="store_true", help="also MM(6,7..10)")
    parser.add_argument("--bulls", action="store_true", help="solve Bulls and Cows here too")
    parser.add_argument("--exact", type=int, default=4_096,
                        help="solve games of at most this many secrets exactly")
    parser.add_argument("--lookahead", type=int, default=33_000,
                        help="the lookahead for games of at most this many secrets")
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="stop each bound --total after this long")
    args = parser.parse_args()
    print_machine()
    rows = []
    for game in games(args.big, args.quick):
        row = frontier_row(game, args)
        rows.append(row)
        print(f"# {row.game}: best {row.best.total:,} ({row.best.source}), bound {row.bound:,} "
              f"({row.bound_how}), {row.seconds:.1f} s", flush=True)
    rows.append(bulls_row(args.bulls))
    print(table(rows))


if __name__ == "__main__":
    main()
