"""`improve`: never worse, always valid, exact where asked; the command line around it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from strategytree.builders import GreedyChooser, build_greedy
from strategytree.errors import ArgumentError
from strategytree.formats.brace import dumps, loads
from strategytree.game import Game, black_only, distinct, mastermind
from strategytree.improve import (
    RULES,
    ImproveError,
    Improver,
    improve,
    parse_budget,
)
from strategytree.literature import published
from strategytree.nodesearch import ALL, NodeSearch, SearchSettings, parse_counts
from strategytree.search import build_optimal
from strategytree.symmetry import Symmetry
from strategytree.tree import Node, Strategy
from strategytree.verify import verify

from cli_runner import invoke

GAMES = {
    "MM(2,3)": mastermind(2, 3),
    "MM(3,3)": mastermind(3, 3),
    "MM(2,4)": mastermind(2, 4),
    "MM(3,4)": mastermind(3, 4),
    "black-only(3,3)": black_only(3, 3),
    "distinct(3,5)": distinct(3, 5),
}


def random_tree(game: Game, seed: int, consistent_share: float) -> Strategy:
    """A valid strategy whose guesses are drawn at random: a possible secret with
    probability ``consistent_share``, else any guess that splits the set (so it
    need not use the game's best guesses, nor possible secrets)."""
    rng = np.random.default_rng(seed)
    text = [game.code_text(code) for code in game.guesses]
    as_guess = game.guess_index(game.secrets)

    def grow(S: np.ndarray) -> Node:
        while True:
            if rng.random() < consistent_share or len(S) == 1:
                g = int(as_guess[S[rng.integers(len(S))]])
            else:
                g = int(rng.integers(len(game.guesses)))
            replies = game.pair_replies(np.full(len(S), g), S)
            parts = {int(r): S[replies == r] for r in np.unique(replies) if r != game.win}
            if all(len(part) < len(S) for part in parts.values()):
                break
        branches = tuple((game.reply(r), grow(part)) for r, part in sorted(parts.items()))
        return Node(text[g], branches)

    return Strategy(grow(np.arange(len(game.secrets))))


def score(strategy: Strategy, game: Game) -> tuple[int, int]:
    report = verify(strategy, game)
    assert report.valid
    return report.total, report.max_guesses


@settings(max_examples=30, deadline=None)
@given(
    name=hs.sampled_from(sorted(GAMES)),
    seed=hs.integers(0, 2**32 - 1),
    share=hs.sampled_from([0.0, 0.5, 1.0]),
    exact_below=hs.sampled_from([0, 3, 8, 30]),
    widths=hs.sampled_from(["", "1", "2,1"]),
    deepen=hs.sampled_from(["", "1,1", "2,1"]),
)
def test_improve_never_returns_a_worse_strategy(name, seed, share, exact_below, widths,
                                                deepen) -> None:
    game = GAMES[name]
    strategy = random_tree(game, seed, share)
    before = score(strategy, game)
    text = dumps(strategy)
    better = improve(strategy, game, exact_below=exact_below, widths=widths, deepen=deepen)
    after = score(better, game)
    assert (after[0] < before[0] or after == before
            or (after[0] == before[0] and after[1] <= before[1]))
    assert dumps(strategy) == text  # the input is left as it was


def small_subtrees(game: Game, node: Node, S: np.ndarray, most: int) -> list[tuple[int, int]]:
    """(secrets, total) of each subtree of at most ``most`` secrets whose parent has more."""
    code = {game.reply(r): r for r in range(game.n_replies)}

    def total(node: Node, S: np.ndarray) -> int:
        replies = game.pair_replies(np.full(len(S), guess(node)), S)
        return len(S) + sum(
            total(child, S[replies == code[reply]]) for reply, child in node.branches
        )

    def guess(node: Node) -> int:
        return int(game.guess_index(game.parse_code(node.guess)[None])[0])

    if len(S) <= most:
        return [(len(S), total(node, S))]
    replies = game.pair_replies(np.full(len(S), guess(node)), S)
    return [found for reply, child in node.branches
            for found in small_subtrees(game, child, S[replies == code[reply]], most)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_smallest_subtrees_are_solved_too(name: str) -> None:
    # one or two secrets: a wasted guess there is found like any other
    game = GAMES[name]
    strategy = random_tree(game, 11, 0.0)
    everything = np.arange(len(game.secrets))
    before = small_subtrees(game, strategy.root, everything, 2)
    assert any(total > 2 * size - 1 for size, total in before)  # the random tree wastes guesses
    improved = improve(strategy, game, exact_below=2, widths="")
    after = small_subtrees(game, improved.root, everything, 2)
    assert sorted(size for size, _ in after) == sorted(size for size, _ in before)
    assert all(total == 2 * size - 1 for size, total in after)  # a secret first, then the other


@pytest.mark.parametrize("name", sorted(GAMES))
def test_exact_below_the_whole_game_gives_the_optimum(name: str) -> None:
    game = GAMES[name]
    optimum = verify(build_optimal(game), game).total
    strategy = random_tree(game, 7, 0.5)
    improved = improve(strategy, game, exact_below=len(game.secrets), widths="")
    assert score(improved, game)[0] == optimum


@pytest.mark.parametrize("name", ["MM(3,4)", "black-only(3,3)", "distinct(3,5)"])
def test_every_guess_over_exact_parts_gives_the_optimum(name: str) -> None:
    # the root alone is searched again (its parts are small enough to solve exactly): with
    # every class of guess tried there, the best of them is the game's optimum
    game = GAMES[name]
    optimum = verify(build_optimal(game), game).total
    strategy = random_tree(game, 5, 0.0)
    found = improve(
        strategy, game, exact_below=len(game.secrets) - 1, widths="all,0", finalists="all"
    )
    assert score(found, game)[0] == optimum


def test_max_guesses_is_kept() -> None:
    game = mastermind(3, 4)
    strategy = build_greedy(game, rule="minimax")
    limit = verify(strategy, game).max_guesses
    optimum = verify(build_optimal(game, max_guesses=limit), game).total
    better = improve(strategy, game, exact_below=64, max_guesses=limit)
    assert score(better, game) == (optimum, limit)


def test_each_part_solved_by_itself_gives_what_the_whole_game_search_gives(monkeypatch) -> None:
    """The search of a set on its own (large games) and the whole game's agree."""
    import strategytree.search.subsets as module

    game = mastermind(4, 4)
    strategy = random_tree(game, 3, 0.3)
    whole = score(improve(strategy, game, exact_below=60, widths=""), game)
    monkeypatch.setattr(module, "WHOLE_TABLE", 0)
    alone = score(improve(strategy, game, exact_below=60, widths=""), game)
    assert whole == alone


@pytest.mark.slow
def test_mm47_greedy_reaches_the_optimum() -> None:
    game = mastermind(4, 7)
    greedy = build_greedy(game, rule="entropy")
    best = improve(greedy, game, exact_below=len(game.secrets))
    assert score(best, game)[0] == published("MM(4,7)", "optimal").low


def test_an_invalid_strategy_is_refused_with_the_report() -> None:
    game = mastermind(2, 3)
    with pytest.raises(ImproveError) as refused:
        improve(loads("{AB:{10:AA}}"), game)
    assert not refused.value.report.valid
    assert refused.value.report.unsolved == 7


def test_better_strategies_are_handed_over_and_a_checkpoint_resumes(tmp_path: Path) -> None:
    game = mastermind(3, 4)
    strategy = random_tree(game, 11, 0.0)
    seen: list[int] = []
    saved = tmp_path / "run.ckpt"
    first = improve(strategy, game, exact_below=10, widths="2", checkpoint=saved,
                    on_better=lambda s: seen.append(score(s, game)[0]))
    assert seen and seen[-1] == score(first, game)[0] <= score(strategy, game)[0]
    again = improve(strategy, game, exact_below=10, widths="2", checkpoint=saved)
    assert score(again, game) == score(first, game)


def test_budget_and_arguments() -> None:
    assert parse_budget("30m") == 1800 and parse_budget("2h") == 7200 and parse_budget(None) is None
    with pytest.raises(ArgumentError):
        parse_budget("soon")
    game = mastermind(3, 4)
    strategy = random_tree(game, 5, 0.5)
    assert score(improve(strategy, game, budget_seconds=0.001), game) <= score(strategy, game)


def test_a_zero_width_leaves_its_level_alone(monkeypatch) -> None:
    game = mastermind(3, 4)
    strategy = random_tree(game, 3, 0.5)
    searched: list[int] = []
    research = Improver.research

    def spy(self, S, level, sym, played, limit, skip, width, exact=True, finalists=None):
        searched.append(int(level))
        return research(self, S, level, sym, played, limit, skip, width, exact, finalists)

    monkeypatch.setattr(Improver, "research", spy)
    better = improve(strategy, game, exact_below=3, widths="0,2")
    assert score(better, game) <= score(strategy, game)
    assert searched and 0 not in searched  # the root never searched again, the levels below were
    searched.clear()
    improve(strategy, game, exact_below=3, widths="0,0")  # all 0: no lookahead at all
    assert not searched
    with pytest.raises(ArgumentError, match="at least 0"):
        improve(strategy, game, widths="2,-1")
    assert parse_counts("0, all,3", "widths") == (0, ALL, 3)
    with pytest.raises(ArgumentError, match="8,8,4, or all"):
        parse_counts("0,every", "widths")


def greedy_total(chooser: GreedyChooser, S: np.ndarray, sym: Symmetry) -> int:
    """The total of ``chooser``'s greedy subtree for ``S``, one choice at a time."""
    game = chooser.game
    if len(S) == 1:
        return 1
    g = chooser.choose(S, sym)
    replies = game.pair_replies(np.full(len(S), g), S)
    after = sym.after(game.guesses[g])
    return len(S) + sum(greedy_total(chooser, S[replies == r], after)
                        for r in np.unique(replies) if r != game.win)


def test_finalists_are_the_candidates_whose_greedy_completions_rank_first(monkeypatch) -> None:
    game = mastermind(3, 4)
    strategy = random_tree(game, 4, 0.3)
    seen: list[tuple[int, list[int], list[int]]] = []
    shortlist = Improver.shortlist

    def spy(self, S, sym, level, width, skip, exact, finalists=None):
        tried = shortlist(self, S, sym, level, width, skip, exact, finalists)
        if exact:
            candidates = self.candidates(S, sym, width, skip)
            totals = {}
            for g in candidates:
                replies = game.pair_replies(np.full(len(S), g), S)
                if (replies != game.win).sum() == len(S) and len(np.unique(replies)) == 1:
                    continue  # it does not split S
                after = sym.after(game.guesses[g])
                totals[g] = len(S) + sum(
                    min(greedy_total(c, S[replies == r], after) for c in self.completers)
                    for r in np.unique(replies) if r != game.win)
            ranked = sorted(totals, key=lambda g: (totals[g], candidates.index(g)))
            seen.append((int(level), tried, ranked))
        return tried

    monkeypatch.setattr(Improver, "shortlist", spy)
    better = improve(strategy, game, exact_below=3, widths="6", finalists="2,3,0")
    assert score(better, game) <= score(strategy, game)
    many = {0: 2, 1: 3}
    assert {level for level, _, _ in seen} >= {0, 1, 2}
    for level, tried, ranked in seen:
        if level in many and len(ranked) > many[level]:
            assert tried == ranked[: many[level]]
        else:  # 0: every candidate
            assert len(tried) >= len(ranked)
    with pytest.raises(ArgumentError, match="finalists"):
        improve(strategy, game, finalists="2,-1")


def test_deepened_large_parts_judge_a_candidate_by_what_they_can_become() -> None:
    game = mastermind(4, 5)
    S, sym = np.arange(len(game.secrets)), Symmetry.of(game)
    totals = {}
    for deepen in [(), (3, 2)]:
        searcher = NodeSearch(game, SearchSettings(RULES, exact_below=10, deepen=deepen))
        candidates = searcher.candidates(S, sym, 3, -1)
        totals[deepen] = [searcher.with_guess(S, 0, sym, 0, g, 10**9) for g in candidates]
        for found in totals[deepen]:
            assert score(Strategy(found[0]), game) == (found[1], found[2])
    pairs = [(plain[1], deep[1]) for plain, deep in zip(totals[()], totals[(3, 2)])]
    assert all(deep <= plain for plain, deep in pairs)
    assert any(deep < plain for plain, deep in pairs)  # a large part searched again won


def test_deepen_takes_a_width_and_a_count() -> None:
    game = mastermind(4, 5)
    greedy = build_greedy(game, rule="entropy")
    deep = improve(greedy, game, exact_below=10, widths="3", finalists="2", deepen="3,2")
    assert score(deep, game) < score(greedy, game)
    for odd in ["3", "3,0", "3,2,1"]:
        with pytest.raises(ArgumentError, match="deepen"):
            improve(greedy, game, deepen=odd)


# -- the command line ------------------------------------------------------------------------
def test_cli_improves_and_needs_force_to_overwrite(tmp_path: Path) -> None:
    game = mastermind(3, 4)
    source = tmp_path / "in.txt"
    source.write_text(dumps(random_tree(game, 2, 0.0)) + "\n")
    target = tmp_path / "out.txt"
    done = invoke(["improve", str(source), "-o", str(target), "-p", "3", "-c", "4",
                   "--exact-below", "64"])
    assert done.exit_code == 0, done.output
    assert score(loads(target.read_text()), game)[0] == 206  # MM(3,4)'s optimum
    odd = invoke(["improve", str(source), "-o", str(tmp_path / "odd.txt"), "-p", "3", "-c", "4",
                  "--finalists", "2,x"])
    assert odd.exit_code == 2 and "--finalists" in odd.output and "Traceback" not in odd.output
    assert not (tmp_path / "odd.txt").exists()
    odd = invoke(["improve", str(source), "-o", str(tmp_path / "odd.txt"), "-p", "3", "-c", "4",
                  "--deepen", "5"])
    assert odd.exit_code == 2 and "--deepen" in odd.output and "Traceback" not in odd.output
    assert not (tmp_path / "odd.txt").exists()
    again = invoke(["improve", str(source), "-o", str(target), "-p", "3", "-c", "4"])
    assert again.exit_code == 2 and "--force" in again.output
    over = invoke(["improve", str(source), "-o", str(source), "--force"])
    assert over.exit_code == 2 and "same file" in over.output


def test_console_script_refuses_an_invalid_strategy(tmp_path: Path, console_script) -> None:
    source = tmp_path / "bad.txt"
    source.write_text("{AB:{10:AA}}\n")
    target = tmp_path / "out.txt"
    run = subprocess.run(
        [*console_script, "improve", str(source), "-p", "2", "-c", "3", "-o", str(target)],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 1
    assert "invalid" in run.stdout and "not solved" in run.stdout
    assert not target.exists()


def test_console_script_stopped_by_sigterm_writes_the_best_so_far(tmp_path: Path,
                                                                  console_script) -> None:
    import os
    import signal

    from strategytree.presets import bulls_and_cows

    game = bulls_and_cows()
    source = tmp_path / "in.txt"
    source.write_text(dumps(build_greedy(game, rule="minimax")) + "\n")
    target = tmp_path / "out.txt"
    run = subprocess.Popen(
        [*console_script, "improve", str(source), "--game", "bulls-and-cows",
         "--exact-below", "5040",
         "-o", str(target)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "STRATEGYTREE_PROGRESS_SECONDS": "0"},
    )
    try:
        assert "improving" in run.stderr.readline()  # the search is under way
        run.send_signal(signal.SIGTERM)
        _, said = run.communicate(timeout=120)
    finally:
        run.kill()
    assert run.returncode == 143
    saved = score(loads(target.read_text()), game)
    assert saved <= score(loads(source.read_text()), game)
    # it says what the file holds: the total saved in it, and where
    lines = said.strip().splitlines()
    assert f"-> {saved[0]:,}, max" in lines[-2] and f"written to {target}" in lines[-2], said
    assert lines[-1] == "stopped by SIGTERM", said
