"""Playing many games: the same figures as the verifier, reproducible draws, CSV rows,
and ``strategytree simulate`` through CliRunner."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import strategytree as st
from strategytree.builders import GreedyChooser, build_greedy
from strategytree.cli import app
from strategytree.game import custom
from strategytree.presets import preset
from strategytree.progress import Progress
from strategytree.simulate import (
    choose_secrets,
    games_csv,
    simulate,
    simulate_runs,
    spread,
    summary,
)

import naive

MM46 = st.mastermind(4, 6)
DATA = Path(__file__).parent / "data"
runner = CliRunner()


def _same_as_verify(sim, report) -> None:
    assert (sim.total, sim.solved, sim.unsolved) == (report.total, report.solved, report.unsolved)
    assert sim.histogram == report.histogram
    assert sim.max_guesses == report.max_guesses


@pytest.mark.parametrize(
    ("game", "rule", "pool"),
    [
        (MM46, "minimax", "all"),
        (MM46, "entropy", "all"),
        (MM46, "parts", "consistent"),
        (preset("bagel"), "expected", "all"),
        (preset("black-only", 3, 4), "entropy", "all"),
        (st.distinct(4, 6, distinct_guesses=True), "minimax", "all"),
        (custom(2, 5, lambda g, s: (g[0] <= s[0] and g[1] <= s[1], g == s)), "entropy", "all"),
    ],
    ids=lambda x: getattr(x, "name", x),
)
def test_a_rule_over_all_secrets_plays_the_tree_build_greedy_builds(game, rule, pool) -> None:
    tree = build_greedy(game, rule, pool)
    report = st.verify(tree, game)
    _same_as_verify(simulate(game, GreedyChooser(game, rule, pool)), report)
    _same_as_verify(simulate(game, tree), report)


def test_a_forced_opening_is_played() -> None:
    tree = build_greedy(MM46, "entropy", first="ABCD")
    sim = simulate(MM46, GreedyChooser(MM46, "entropy", first="ABCD"))
    _same_as_verify(sim, st.verify(tree, MM46))
    assert all(MM46.code_text(MM46.guesses[g.moves[0][0]]) == "ABCD" for g in sim.games)


def test_a_published_tree_and_an_invalid_one() -> None:
    game = MM46
    tree = build_greedy(game, "minimax")
    _same_as_verify(simulate(game, tree), st.verify(tree, game))
    # cut one branch and one leaf off: the same unsolved secrets as the verifier
    root = tree.root
    broken = st.Strategy(st.Node(root.guess, root.branches[1:]))
    sim = simulate(game, broken)
    report = st.verify(broken, game)
    _same_as_verify(sim, report)
    failing = [g for g in sim.games if not g.solved]
    assert len(failing) == report.unsolved
    assert all("no branch for reply" in g.reason for g in failing)
    wrong_leaf = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:AC}},00:CC}}")
    game23 = st.mastermind(2, 3)
    sim = simulate(game23, wrong_leaf)
    _same_as_verify(sim, st.verify(wrong_leaf, game23))
    assert any("expected AC, but the secret is CA" in (g.reason or "") for g in sim.games)


def test_each_path_is_the_plain_replay() -> None:
    game = st.mastermind(3, 3)
    sim = simulate(game, GreedyChooser(game, "entropy"))
    for g in sim.games:
        secret = game.secrets[g.secret].tolist()
        for guess, reply in g.moves:
            assert naive.reply_code(
                naive.feedback(game.guesses[guess].tolist(), secret), 3) == reply
        assert game.guesses[g.moves[-1][0]].tolist() == secret


def test_fraction_and_games_are_reproducible() -> None:
    a = choose_secrets(MM46, fraction=0.1, seed=5)
    assert len(a) == 130 and (np.diff(a) > 0).all()
    assert (a == choose_secrets(MM46, fraction=0.1, seed=5)).all()
    assert not np.array_equal(a, choose_secrets(MM46, fraction=0.1, seed=6))
    b = choose_secrets(MM46, games=500, seed=1)
    assert len(b) == 500 and (b == choose_secrets(MM46, games=500, seed=1)).all()
    runs = simulate_runs(MM46, lambda s: GreedyChooser(MM46, "random", seed=s), runs=3, seed=2,
                         games=300)
    again = simulate_runs(MM46, lambda s: GreedyChooser(MM46, "random", seed=s), runs=3, seed=2,
                          games=300)
    assert [r.average for r in runs] == [r.average for r in again]
    assert [r.seed for r in runs] == [2, 3, 4]
    assert len({r.average for r in runs}) > 1
    s = spread(runs)
    assert s.low <= s.mean <= s.high and s.stdev > 0 and s.runs == 3
    with pytest.raises(st.StrategyTreeError):
        choose_secrets(MM46, fraction=0.1, games=3)
    with pytest.raises(st.StrategyTreeError):
        choose_secrets(MM46, fraction=1.5)


def test_a_sampled_pool_solves_every_secret_in_any_order() -> None:
    game = preset("bagel")
    sim = simulate(game, GreedyChooser(game, "entropy", "sample:20", seed=3))
    assert sim.solved == len(game.secrets)
    # the draws follow the order of the games, so another order is another strategy
    order = np.random.default_rng(0).permutation(len(game.secrets))
    shuffled = simulate(game, GreedyChooser(game, "entropy", "sample:20", seed=3), order)
    assert shuffled.solved == len(game.secrets)


def test_summary_of_runs_and_their_progress() -> None:
    seen: list[Progress] = []
    runs = simulate_runs(
        MM46, lambda seed: GreedyChooser(MM46, "random", seed=seed), runs=3, games=300,
        progress=seen.append,
    )
    s = summary(runs)
    assert (s.games, s.solved, s.unsolved) == (900, 900, [])
    assert s.total == sum(r.total for r in runs) and sum(s.histogram.values()) == 900
    assert s.max_guesses == max(r.max_guesses for r in runs) and s.spread == spread(runs)
    assert [p.done for p in seen] == sorted(p.done for p in seen) and seen[-1].done == 900
    assert {(p.total, p.unit) for p in seen} == {(900, "games")}
    # one strategy plays every run
    strategy = build_greedy(MM46, "minimax")
    assert summary(simulate_runs(MM46, strategy, runs=2)).total == 2 * 5801


def test_build_greedy_reports_progress() -> None:
    seen: list[Progress] = []
    build_greedy(MM46, "entropy", progress=seen.append)
    assert seen and seen[-1].done == seen[-1].total == 1296 and seen[-1].unit == "secrets"


def test_csv_rows() -> None:
    game = st.mastermind(2, 3)
    runs = simulate_runs(game, lambda s: GreedyChooser(game, "minimax"), runs=2, games=4, seed=0)
    rows = list(csv.reader(io.StringIO(games_csv(runs))))
    assert rows[0] == ["run", "seed", "secret", "guesses", "solved", "path"]
    assert len(rows) == 1 + 8
    for row in rows[1:]:
        steps = row[5].split(", ")
        assert int(row[3]) == len(steps) and row[4] == "yes"
        assert steps[-1] == f"{row[2]} 20"
    assert {row[0] for row in rows[1:]} == {"1", "2"}


# -- the command line ------------------------------------------------------------------
def test_cli_simulate_all_secrets(tmp_path) -> None:
    out_csv = tmp_path / "games.csv"
    result = runner.invoke(app, ["simulate", "--rule", "minimax", "--csv", str(out_csv)])
    assert result.exit_code == 0, result.output
    assert "5,801" in result.output and "4.4761" in result.output
    rows = out_csv.read_text().splitlines()
    assert len(rows) == 1297 and rows[1].startswith("1,0,AAAA,")


def test_cli_simulate_strategy_file_runs_and_digits(tmp_path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
    result = runner.invoke(app,
                           ["simulate", "--strategy", str(path), "--games", "50", "--runs", "3"])
    assert result.exit_code == 0, result.output
    assert "average over 3 runs" in result.output
    out_csv = tmp_path / "b.csv"
    result = runner.invoke(app,
                           ["simulate", "--game", "bagel", "--rule", "first", "--fraction", "0.05",
                                 "--alphabet", "digits", "--csv", str(out_csv)])
    assert result.exit_code == 0, result.output
    row = out_csv.read_text().splitlines()[1].split(",")
    assert row[2].isdigit()


def test_cli_simulate_unsolved_and_bad_arguments(tmp_path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,00:CC}}")
    result = runner.invoke(app, ["simulate", "--strategy", str(path)])
    assert result.exit_code == 1 and "games not solved" in result.output
    result = runner.invoke(app, ["simulate", "--fraction", "2"])
    assert result.exit_code == 2 and "fraction" in result.output
    result = runner.invoke(app, ["simulate", "--pool", "sample:x"])
    assert result.exit_code == 2 and "unknown pool" in result.output


def test_cli_simulate_adversary() -> None:
    result = runner.invoke(app, ["simulate", "--rule", "minimax", "--adversary"])
    assert result.exit_code == 0 and "5 guesses" in result.output


def test_cli_simulate_plot(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "h.png"
    result = runner.invoke(app, ["simulate", "-p", "3", "-c", "3", "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:4] == b"\x89PNG"
