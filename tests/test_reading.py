"""The one reading of a strategy with its game: strategytree.formats.reading.read_strategy."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import strategytree as st
from strategytree.formats.reading import GameOptionsError, read_strategy
from strategytree.formats.source import read_text
from strategytree.game import black_only, mastermind
from strategytree.presets import similar_game

FORMATS_DATA = Path(__file__).parent / "data" / "formats"
EXAMPLE = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"


def test_a_brace_file_gets_the_game_its_codes_tell(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text(EXAMPLE)
    loaded = read_strategy(path)
    assert loaded.fmt == "brace"
    assert (loaded.game.pegs, loaded.game.colors) == (2, 3)
    assert loaded.notes == st.infer_game(st.loads(EXAMPLE))[1]
    given = read_strategy(path, pegs=2, colors=4)
    assert (given.game.colors, given.notes) == (4, [])


def test_an_mmstrat_file_gets_the_game_its_counts_tell() -> None:
    loaded = read_strategy(FORMATS_DATA / "fancidev-mmstrat-p3c4r-optimal.txt")
    assert loaded.fmt == "mmstrat"
    assert loaded.game.name == mastermind(3, 4).name
    assert loaded.notes == ["pegs 3, colors 4 (from the counts)"]


def test_options_that_mean_no_game_are_refused_before_reading(tmp_path: Path) -> None:
    with pytest.raises(GameOptionsError, match="no distinct variant"):
        read_strategy(tmp_path / "missing.txt", preset="black-only", distinct=True)


def test_a_stream_is_read_as_a_file_is() -> None:
    assert read_text(io.BytesIO(EXAMPLE.encode())) == EXAMPLE
    assert read_text(io.StringIO(EXAMPLE)) == EXAMPLE
    loaded = read_strategy(io.BytesIO(EXAMPLE.encode()))
    assert (loaded.strategy.source, loaded.game.colors) == ("<stream>", 3)


def test_a_similar_game_keeps_the_kind() -> None:
    small = similar_game(black_only(4, 6), 3, 4)
    assert (small.scoring, small.pegs, small.colors) == ("black-only", 3, 4)
    assert similar_game(st.distinct(4, 6)).name == st.distinct(4, 6).name
