"""The search-based builder: never worse than greedy, close to the optimum."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

import strategytree as st
from strategytree.builders import build_greedy
from strategytree.checkpoint import CheckpointError
from strategytree.cli import app
from strategytree.literature import published
from strategytree.lookahead import build_lookahead
from strategytree.nodesearch import parse_counts

from cli_runner import invoke


@pytest.mark.parametrize(
    "game",
    [st.mastermind(3, 4), st.mastermind(4, 4), st.distinct(4, 6, distinct_guesses=True),
     st.game.black_only(3, 4)],
    ids=lambda g: g.name,
)
@pytest.mark.parametrize("rule", ["entropy", "minimax"])
def test_never_worse_than_greedy_and_monotone(game: st.Game, rule: str) -> None:
    greedy = st.verify(build_greedy(game, rule=rule), game)
    previous = greedy.total
    for widths in [(), (2,), (4, 2), (8, 4, 2)]:
        report = st.verify(build_lookahead(game, rule, widths), game)
        assert report.valid
        assert report.total <= previous
        previous = report.total
    # no width at all is the greedy tree itself
    assert build_lookahead(game, rule, ()) == build_greedy(game, rule=rule)


def test_mm46_within_half_a_percent_of_the_optimum_in_seconds() -> None:
    game = st.mastermind(4, 6)
    report = st.verify(build_lookahead(game, "entropy", (8, 8)), game)
    optimum = published("MM(4,6)", "optimal").low
    assert report.valid and report.total <= optimum * 1.005


def test_mm47_within_half_a_percent_of_the_optimum_in_seconds() -> None:
    game = st.mastermind(4, 7)
    report = st.verify(build_lookahead(game, "entropy", (8, 8, 8)), game)
    optimum = published("MM(4,7)", "optimal").low
    assert report.valid and report.total <= optimum * 1.005


def test_widths_are_checked() -> None:
    with pytest.raises(st.StrategyTreeError):
        build_lookahead(st.mastermind(2, 3), "entropy", (-1,))
    # 0 (as improve takes it): the level is not searched
    game = st.mastermind(2, 3)
    assert build_lookahead(game, "entropy", (0,)) == build_greedy(game)
    assert parse_counts("8, 8,4", "widths") == (8, 8, 4) and parse_counts("", "widths") == ()
    for text in ("x", "8,-1", "8;4"):
        with pytest.raises(st.StrategyTreeError, match="widths="):
            parse_counts(text, "widths")
    with pytest.raises(st.StrategyTreeError):
        build_lookahead(st.mastermind(2, 3), "random", (2,))


def test_cli_lookahead(tmp_path) -> None:
    out = tmp_path / "la.txt"
    runner = CliRunner()
    result = runner.invoke(
        app, ["generate", "-m", "lookahead", "-w", "4,2", "-p", "3", "-c", "4", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert st.verify(st.load(out), st.mastermind(3, 4)).valid
    result = runner.invoke(
        app, ["generate", "-m", "lookahead", "-w", "x", "-o", str(tmp_path / "y.txt")]
    )
    assert result.exit_code == 2 and "--widths" in result.output


def test_checkpoint_resumes_an_interrupted_run(tmp_path) -> None:
    game = st.mastermind(4, 5)
    path = tmp_path / "run.json"
    whole = build_lookahead(game, "entropy", (4, 4, 2))

    def stop_after_three(state) -> None:
        if state.done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_lookahead(game, "entropy", (4, 4, 2), checkpoint=path, progress=stop_after_three)
    assert path.exists()
    seen = []
    resumed = build_lookahead(game, "entropy", (4, 4, 2), checkpoint=path, progress=seen.append)
    assert resumed == whole
    # the decisions already made were not searched again: fewer completions
    fresh = []
    build_lookahead(game, "entropy", (4, 4, 2), progress=fresh.append)
    assert completions(seen[-1]) < completions(fresh[-1])
    assert seen[-1].unit == "nodes searched" and seen[-1].total is None
    with pytest.raises(CheckpointError, match="another search"):
        build_lookahead(game, "minimax", (4, 4, 2), checkpoint=path)


def completions(progress) -> int:
    """The greedy completions built, from the detail of a lookahead's progress."""
    return int(re.search(r"([\d,]+) completions", progress.detail).group(1).replace(",", ""))


def test_damaged_checkpoints_are_refused(tmp_path) -> None:
    game = st.mastermind(3, 3)
    path = tmp_path / "run.ckpt"
    path.write_text('{"decisions": {}}\n')  # not a checkpoint at all
    with pytest.raises(CheckpointError, match="not a usable checkpoint"):
        build_lookahead(game, "entropy", (2,), checkpoint=path)
    path.unlink()
    build_lookahead(game, "entropy", (2, 2), checkpoint=path)
    text = path.read_bytes()
    path.write_bytes(text[:-3])  # the last record cut short: the decisions before it stand
    resumed = build_lookahead(game, "entropy", (2, 2), checkpoint=path)
    assert resumed == build_lookahead(game, "entropy", (2, 2))


def test_more_rules_only_help() -> None:
    game = st.mastermind(4, 5)
    alone = st.verify(build_lookahead(game, "entropy", (4, 2)), game)
    helped = st.verify(build_lookahead(game, "entropy", (4, 2), also=("parts", "expected")), game)
    assert helped.valid and helped.total <= alone.total
    with pytest.raises(st.StrategyTreeError):
        build_lookahead(game, "entropy", (2,), also=("random",))


# -- completions by a lookahead ---------------------------------------------------------------
def test_completed_by_a_lookahead_never_worse_than_greedy_and_its_checkpoint(tmp_path) -> None:
    game = st.mastermind(4, 6)
    greedy = st.verify(build_lookahead(game, widths=()), game).total
    plain = build_lookahead(game, widths=(8, 8))
    deeper = build_lookahead(game, widths=(8, 8), complete=(3,), complete_above=30)
    assert st.verify(deeper, game).total <= greedy
    assert st.verify(deeper, game).total == 5640 < st.verify(plain, game).total  # (measured)
    assert "completed by 3 above 30" in deeper.source
    # the same settings resume from a checkpoint; others are refused
    saved = tmp_path / "run.ckpt"
    build_lookahead(game, widths=(8, 8), complete=(3,), complete_above=30, checkpoint=saved)
    again = build_lookahead(game, widths=(8, 8), complete=(3,), complete_above=30, checkpoint=saved)
    assert st.dumps(again) == st.dumps(deeper)
    with pytest.raises(CheckpointError, match="complete"):
        build_lookahead(game, widths=(8, 8), checkpoint=saved)


def test_completion_arguments_are_checked() -> None:
    from strategytree.errors import ArgumentError

    game = st.mastermind(2, 3)
    with pytest.raises(ArgumentError, match="complete='0'"):
        build_lookahead(game, widths=(2,), complete="0")
    with pytest.raises(ArgumentError, match="complete_above=1"):
        build_lookahead(game, widths=(2,), complete=(2,), complete_above=1)
    for args in (["-m", "greedy", "--complete", "3"], ["-m", "lookahead", "--complete-above", "9"]):
        result = invoke(["generate", "-p", "2", "-c", "3", "-o", "x.txt", *args])
        assert result.exit_code == 2 and "--complete" in result.output


# -- a limit on the guesses ------------------------------------------------------------------
def test_a_limit_on_guesses_is_kept_where_it_can_be_and_changes_nothing_above_the_worst_case(
        tmp_path) -> None:
    game = st.mastermind(4, 6)
    free = build_lookahead(game, widths=(8, 8))
    free_report = st.verify(free, game)
    assert free_report.max_guesses == 6
    # a limit the free tree keeps: the same tree
    assert st.dumps(build_lookahead(game, widths=(8, 8), max_guesses=6)) == st.dumps(free)
    # within 5: every secret within 5, for a few guesses more (the optimum within 5 is 5,626)
    within = st.verify(build_lookahead(game, widths=(8, 8), max_guesses=5), game)
    assert within.valid and within.max_guesses == 5
    assert published("MM(4,6)", "optimal-max-5").low <= within.total
    assert within.total > free_report.total
    # a limit no strategy keeps (MM(4,6) needs 5): a preference, still a valid tree
    assert st.verify(build_lookahead(game, widths=(4, 2), max_guesses=3), game).valid
    # the limit is part of a checkpoint's settings
    saved = tmp_path / "run.ckpt"
    build_lookahead(game, widths=(4, 2), max_guesses=5, checkpoint=saved)
    with pytest.raises(CheckpointError, match="max_guesses"):
        build_lookahead(game, widths=(4, 2), checkpoint=saved)
    from strategytree.errors import ArgumentError

    with pytest.raises(ArgumentError, match="max_guesses=0"):
        build_lookahead(game, widths=(2,), max_guesses=0)


def test_cli_lookahead_within_k(tmp_path) -> None:
    out = tmp_path / "mm46.txt"
    result = invoke(["generate", "-p", "4", "-c", "6", "-m", "lookahead", "-w", "8,8", "-k", "5",
                     "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert st.verify(st.load(out), st.mastermind(4, 6)).max_guesses == 5


# -- finalists searched in full ---------------------------------------------------------------
@pytest.mark.parametrize(
    "game", [st.mastermind(3, 5), st.mastermind(4, 5), st.distinct(4, 6, distinct_guesses=True)],
    ids=lambda g: g.name,
)
def test_finalists_never_worse_than_the_cheapest_alone(game: st.Game) -> None:
    """The cheapest finalist's searched subtree is the plain search's, so keeping
    the best of several is never worse; one finalist is the plain search."""
    plain = build_lookahead(game, widths=(6, 4, 2))
    assert st.dumps(build_lookahead(game, widths=(6, 4, 2), finalists=(1, 1))) == st.dumps(plain)
    total = st.verify(plain, game).total
    for finalists in [(2,), (3, 2), (1, 4)]:
        report = st.verify(build_lookahead(game, widths=(6, 4, 2), finalists=finalists), game)
        assert report.valid and report.total <= total


def test_finalists_find_what_the_completions_miss_and_resume(tmp_path) -> None:
    game = st.mastermind(4, 7)
    plain = st.verify(build_lookahead(game, widths=(8, 8, 8)), game)
    both = build_lookahead(game, widths=(8, 8, 8), finalists=(2, 2))
    assert "finalists 2,2" in both.source
    assert st.verify(both, game).total == 11243 < plain.total  # (measured: 11,247 without)
    saved = tmp_path / "run.ckpt"
    assert st.dumps(build_lookahead(game, widths=(8, 8, 8), finalists=(2, 2), checkpoint=saved)) \
        == st.dumps(both)
    again = build_lookahead(game, widths=(8, 8, 8), finalists=(2, 2), checkpoint=saved)
    assert st.dumps(again) == st.dumps(both)
    with pytest.raises(CheckpointError, match="finalists"):
        build_lookahead(game, widths=(8, 8, 8), checkpoint=saved)
    from strategytree.errors import ArgumentError

    with pytest.raises(ArgumentError, match="finalists='2,-1'"):
        build_lookahead(game, widths=(2,), finalists="2,-1")


# -- small sets solved exactly --------------------------------------------------------------
@pytest.mark.parametrize(
    "game", [st.mastermind(3, 5), st.mastermind(4, 5), st.distinct(4, 6, distinct_guesses=True),
             st.game.black_only(3, 4)],
    ids=lambda g: g.name,
)
def test_sets_solved_exactly_never_worse_and_optimal_below(game: st.Game) -> None:
    """``exact_below``: the searched subtree of every set of at most N secrets
    replaced by an optimal one, so the total only goes down as N grows, and a
    set as large as the game gives its optimum (the exact search's)."""
    from strategytree.search import build_optimal

    previous = st.verify(build_lookahead(game, widths=(4, 2)), game).total
    for n in (10, 40, 200):
        report = st.verify(build_lookahead(game, widths=(4, 2), exact_below=n), game)
        assert report.valid and report.total <= previous
        previous = report.total
    whole = build_lookahead(game, widths=(4, 2), exact_below=len(game.secrets))
    assert st.verify(whole, game).total == st.verify(build_optimal(game), game).total


def test_sets_solved_exactly_reach_the_known_optimum_and_keep_the_limit(tmp_path) -> None:
    game = st.mastermind(4, 6)
    plain = st.verify(build_lookahead(game, widths=(4, 2)), game).total
    exact = build_lookahead(game, widths=(4, 2), exact_below=300)
    assert "exact below 300" in exact.source
    assert published("MM(4,6)", "optimal").low <= st.verify(exact, game).total < plain
    # every set solved exactly: Koyama and Lai's optimum
    assert st.verify(build_lookahead(game, widths=(2,), exact_below=1296), game).total \
        == published("MM(4,6)", "optimal").low
    within = st.verify(build_lookahead(game, widths=(4, 2), exact_below=300, max_guesses=5), game)
    assert within.max_guesses == 5 and published("MM(4,6)", "optimal-max-5").low <= within.total
    saved = tmp_path / "run.ckpt"
    build_lookahead(game, widths=(4, 2), exact_below=300, checkpoint=saved)
    with pytest.raises(CheckpointError, match="exact_below"):
        build_lookahead(game, widths=(4, 2), checkpoint=saved)
    from strategytree.errors import ArgumentError

    with pytest.raises(ArgumentError, match="exact_below=-1"):
        build_lookahead(game, widths=(2,), exact_below=-1)
    result = invoke(["generate", "-p", "2", "-c", "3", "-o", "x.txt", "--exact-below", "9"])
    assert result.exit_code == 2 and "--exact-below" in result.output
