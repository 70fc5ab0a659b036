"""Our own results (literature.RESULTS) are what the verifier scores of the shipped files,
and verify's gap reads them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import strategytree as st
from strategytree.bounds.total import total_lower_bound
from strategytree.literature import (
    BEST_KNOWN,
    BOUNDS,
    DEEPER,
    EXACT_SEARCH,
    FULL_DEPTH,
    RESULTS,
    THREE_LEVELS,
    Result,
    best_known_lower_bound,
    gap,
    optimum,
    published,
)
from strategytree.search import build_optimal

ROOT = Path(__file__).resolve().parent.parent


SHIPPED = [result for result in RESULTS if result.file]
SOLVED = [result for result in RESULTS if not result.file]


def pegs_and_colors(key: str) -> tuple[int, int]:
    """``MM(5,6)`` -> (5, 6)."""
    match = re.fullmatch(r"MM\((\d+),(\d+)\)", key)
    assert match, key
    return int(match[1]), int(match[2])


#: the small optima as parameters: those of more than 4,000 secrets (seconds each) slow
SOLVED_PARAMS = [pytest.param(r, marks=pytest.mark.slow)
                 if pegs_and_colors(r.game)[1] ** pegs_and_colors(r.game)[0] > 4000 else r
                 for r in SOLVED]


@pytest.mark.parametrize("result", SHIPPED, ids=lambda r: r.game)
def test_each_result_is_what_its_file_scores(result: Result) -> None:
    strategy = st.load(ROOT / result.file)
    report = st.verify(strategy)
    assert report.valid
    assert report.game == result.game
    assert (report.total, report.max_guesses) == (result.total, result.max_guesses)


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: r.game)
def test_a_result_never_beats_a_published_optimum(result: Result) -> None:
    figure = published(result.game, "optimal")
    if figure is not None:
        assert result.total >= figure.low


def test_the_gap_of_our_optimum_is_exact() -> None:
    mm49 = next(r for r in RESULTS if r.game == "MM(4,9)")
    game = st.mastermind(4, 9)
    assert optimum(game).low == mm49.total
    measured = gap(game, mm49.total + 10)
    assert measured.exact and measured.excess == 10
    assert mm49.file in measured.source


def test_an_optimum_proved_by_the_bound_says_so() -> None:
    mm410 = next(r for r in RESULTS if r.game == "MM(4,10)")
    figure = optimum(st.mastermind(4, 10))
    assert figure is not None and figure.low == mm410.total
    assert "full-depth bound" in figure.source and mm410.file in figure.source
    assert "exact search" in optimum(st.mastermind(4, 9)).source


def test_a_best_known_result_is_no_optimum() -> None:
    assert optimum(st.mastermind(5, 8)) is None


def test_every_result_is_shipped_or_found_again() -> None:
    assert len(SHIPPED) + len(SOLVED) == len(RESULTS) and len(SOLVED) >= 20
    assert all(r.proven == EXACT_SEARCH for r in SOLVED)
    # how each was proved agrees with its commands
    for r in RESULTS:
        assert r.proven in (EXACT_SEARCH, FULL_DEPTH, BEST_KNOWN), r
        assert ("--method optimal" in r.command) == (r.proven == EXACT_SEARCH), r
        assert r.optimal == (r.bound is not None or r.proven == EXACT_SEARCH), r
        if r.proven == FULL_DEPTH:
            assert any(b.game == r.game and b.method == FULL_DEPTH and b.total == r.total
                       for b in BOUNDS), r
    assert len({r.game for r in RESULTS}) == len(RESULTS)  # one result a game


@pytest.mark.parametrize("result", SOLVED_PARAMS, ids=lambda r: r.game)
def test_each_small_optimum_is_what_the_exact_search_finds(result: Result) -> None:
    pegs, colors = pegs_and_colors(result.game)
    assert f"-p {pegs} -c {colors}" in result.command
    game = st.mastermind(pegs, colors)
    report = st.verify(build_optimal(game), game)
    assert report.valid
    assert (report.total, report.max_guesses) == (result.total, result.max_guesses)
    # and verify's gap reads it
    assert optimum(game).low == result.total
    assert gap(game, result.total + 1).exact


@pytest.mark.parametrize("result", SOLVED_PARAMS, ids=lambda r: r.game)
def test_the_bound_at_full_depth_meets_each_small_optimum(result: Result) -> None:
    """``bound --total`` at full depth proves each small optimum again: plain where
    that takes a second or two, with every part after a first guess searched
    exactly (``--exact-below``) everywhere."""
    pegs, colors = pegs_and_colors(result.game)
    game = st.mastermind(pegs, colors)
    if result.total < 2500:
        assert total_lower_bound(game, depth=8).bound == result.total
    assert result.bound == (f"strategytree bound --total -p {pegs} -c {colors} --depth 8 "
                            f"--exact-below {len(game.secrets)}")
    exact = total_lower_bound(game, depth=8, exact_below=len(game.secrets))
    assert exact.complete and exact.bound == result.total


def test_a_full_depth_bound_meets_its_result() -> None:
    """A stored full-depth bound is the optimum of its game's result, proved again
    by the command the result names (run by hand: minutes; MM(4,10), hours)."""
    full = [b for b in BOUNDS if b.method == FULL_DEPTH]
    assert full
    for bound in full:
        (result,) = [r for r in RESULTS if r.game == bound.game]
        assert result.proven in (EXACT_SEARCH, FULL_DEPTH) and bound.total == result.total
        assert result.bound and result.bound.split(" (")[0] in bound.source
        pegs, colors = pegs_and_colors(bound.game)
        assert best_known_lower_bound(st.mastermind(pegs, colors)) == bound


def test_the_stored_mm58_bound_is_what_the_shipped_checkpoint_proves(tmp_path) -> None:
    """The deeper bound of MM(5,8) is what its shipped checkpoint, resumed, proves
    (a copy: a run adds to its checkpoint); verify's gap reads it."""
    import shutil

    (stored,) = [b for b in BOUNDS if b.game == "MM(5,8)" and b.method == DEEPER]
    (shipped,) = re.findall(r"benchmarks/checkpoints/\S+\.ckpt", stored.source)
    shutil.copy(ROOT / shipped, tmp_path / "resumed.ckpt")
    result = total_lower_bound(st.mastermind(5, 8), 3, exact_below=400,
                               checkpoint=tmp_path / "resumed.ckpt")
    assert result.complete and result.bound == stored.total
    assert best_known_lower_bound(st.mastermind(5, 8)) == stored
    assert gap(st.mastermind(5, 8), 178308).reference == stored.total


#: the stored three-level bounds a slow test proves again (MM(5,8)'s takes minutes)
THREE = [b for b in BOUNDS if b.method == THREE_LEVELS and b.game != "MM(5,8)"]


@pytest.mark.slow
@pytest.mark.parametrize("stored", THREE, ids=lambda b: b.game)
def test_each_stored_three_level_bound_is_what_bound_total_proves(stored) -> None:
    pegs, colors = pegs_and_colors(stored.game)
    assert f"bound --total -p {pegs} -c {colors} --depth 3" in stored.source
    below = re.search(r"--exact-below (\d+)", stored.source)
    game = st.mastermind(pegs, colors)
    result = total_lower_bound(game, depth=3, exact_below=int(below[1]) if below else 0)
    assert result.complete and result.bound == stored.total
    if below:  # (the exact searches raise it)
        assert total_lower_bound(game, depth=3).bound < result.bound
