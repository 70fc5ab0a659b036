"""Our own results (literature.RESULTS) are what the verifier scores of the shipped files,
and verify's gap reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

import strategytree as st
from strategytree.literature import RESULTS, Result, gap, optimum, published

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: r.game)
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


def test_a_best_known_result_is_no_optimum() -> None:
    assert optimum(st.mastermind(5, 8)) is None
