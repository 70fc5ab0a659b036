"""A JSON tree records the game it was built for (issue 37, bug 1): the writer puts
the game at the root, every reader of a strategy plays it without game options,
an option that asks for another game is one line (exit 2), and trees written
before games were recorded read as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as hs

import strategytree as st
from strategytree.errors import GameArgumentError, StrategyFileError
from strategytree.formats import jsontree
from strategytree.formats.reading import read, read_strategy, reads_all
from strategytree.formats.source import Source
from strategytree.formats.writing import writes
from strategytree.game import custom
from strategytree.generate import generate
from strategytree.presets import PRESETS, game_record, resolve_game

from cli_runner import one_error, run
from trees import any_trees

#: every preset game, small where the preset leaves the size open
GAMES = {name: resolve_game(name, *(() if name in ("bulls-and-cows", "bagel") else (3, 4)))[0]
         for name in PRESETS}


def _same_game(a: st.Game, b: st.Game) -> bool:
    """The same codes, scoring and display: a game played and shown alike."""
    return ((a.name, a.pegs, a.colors, a.scoring, a.symbols, a.reply_words, a.digest)
            == (b.name, b.pegs, b.colors, b.scoring, b.symbols, b.reply_words, b.digest))


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_game_is_recorded_and_read_back(name: str) -> None:
    game = GAMES[name]
    strategy = generate(game)
    text = writes(strategy, "json", game=game)
    assert json.loads(text)["game"] == game_record(game)
    read = reads_all(text)
    assert read.fmt == "json" and read.record == game_record(game)
    assert _same_game(resolve_game(**read.record)[0], game)
    assert writes(read.strategy, "json", game=read.record) == text  # byte for byte
    assert writes(read.strategy) == writes(strategy)  # the tree itself unchanged


@given(tree=any_trees(), name=hs.sampled_from(PRESETS), indent=hs.sampled_from([None, 0, 2]))
def test_any_tree_and_any_record_round_trip(tree: st.Node, name: str, indent: int | None) -> None:
    record = game_record(GAMES[name])
    text = jsontree.dumps(tree, indent, game=record)
    read, again = jsontree.read_with_record(Source(text))
    assert read.root == tree and again == record
    assert jsontree.dumps(read, indent, game=again) == text


@pytest.mark.parametrize("name", PRESETS)
def test_the_record_is_the_preset_and_its_options(name: str) -> None:
    game = GAMES[name]
    record = game_record(game)
    assert record is not None and record["preset"] == name
    # the slow twin: the options written out by hand for each preset
    apart = name in ("distinct", "bulls-and-cows", "bagel")
    assert record == {"preset": name, "pegs": game.pegs, "colors": game.colors,
                      "distinct": apart, "distinct_guesses": name in ("bulls-and-cows", "bagel")}


def test_games_no_preset_makes_are_not_recorded() -> None:
    table = custom(1, 3, lambda g, s: (g > s) - (g < s))
    mm = st.mastermind(2, 3)
    subset = st.Game(2, 3, mm.secrets[:4], mm.guesses)
    apart_guesses = st.Game(2, 3, mm.secrets, st.distinct(2, 3).secrets)
    for game in (table, subset, apart_guesses):
        assert game_record(game) is None
    tree = st.loads("{AB:{10:AA,01:{BC:{01:CA}}}}")
    assert "game" not in json.loads(writes(tree, "json", game=subset))


def test_a_tree_without_a_game_reads_as_before() -> None:
    text = '{"guess": "AB", "branches": {"02": {"guess": "BA"}}}'
    read = reads_all(text)
    assert read.record is None and read.game is None
    assert writes(read.strategy) == "{AB:{02:BA}}"


@pytest.mark.parametrize("record, words", [
    ('[1]', '"game" is an object'),
    ('{"preset": "bagel", "pegs": 3}', "no 'colors'"),
    ('{"preset": "bagel", "pegs": 3, "colors": 10, "rules": 1}', "unknown key 'rules'"),
    ('{"preset": "bagel", "pegs": "3", "colors": 10}', "'pegs' is a whole number"),
    ('{"preset": "bagel", "pegs": 3.5, "colors": 10}', "'pegs' is a whole number"),
    ('{"preset": "bagel", "pegs": 3, "colors": 10, "distinct": 1}', "true or false"),
    ('{"preset": "bagel", "pegs": 4, "colors": 10}', "no game: preset \"bagel\" has 3 pegs"),
    ('{"preset": "chess", "pegs": 4, "colors": 10}', "no game: preset \"chess\" is not a game"),
    ('{"preset": "black-only", "pegs": 4, "colors": 6, "distinct": true}',
     "no distinct variant"),
])
def test_a_bad_record_is_an_error_where_it_is_written(record: str, words: str) -> None:
    text = '{"game": ' + record + ', "guess": "ABC"}'
    with pytest.raises(StrategyFileError, match="^t.json:1:") as caught:
        jsontree.read_with_record(Source(text, "t.json"))
    assert words in str(caught.value)


def test_a_record_of_a_huge_game_is_refused_without_making_it() -> None:
    text = '{"game": {"preset": "mastermind", "pegs": 9, "colors": 26}, "guess": "AAAAAAAAA"}'
    with pytest.raises(StrategyFileError, match="more than the 33,554,432 a game may"):
        jsontree.read(Source(text))
    # a game too big for a lifetime of searching, but a legal one, is read without its tables
    text = '{"game": {"preset": "mastermind", "pegs": 7, "colors": 11}, "guess": "AAAAAAA"}'
    read = reads_all(text)
    assert read.record == {"preset": "mastermind", "pegs": 7, "colors": 11, "distinct": False,
                           "distinct_guesses": False}
    assert json.loads(writes(read.strategy, "json", game=read.record))["game"] == read.record


def test_an_error_quotes_a_few_dozen_characters_of_a_long_value() -> None:
    text = '{"game": {"preset": "' + "x" * 1_000_000 + '", "pegs": 2, "colors": 3}, "guess": "AB"}'
    with pytest.raises(StrategyFileError, match="is not a game") as caught:
        jsontree.read(Source(text))
    assert len(str(caught.value)) < 200


def test_only_the_root_records_the_game() -> None:
    text = ('{"guess": "AB", "branches": {"02": {"game": {"preset": "mastermind", '
            '"pegs": 2, "colors": 3}, "guess": "BA"}}}')
    with pytest.raises(StrategyFileError, match="only the root"):
        jsontree.read(Source(text))


def test_options_that_agree_are_taken_and_options_that_do_not_are_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "b.json"
    path.write_text(writes(generate(GAMES["bagel"]), "json", game=GAMES["bagel"]))
    loaded = read_strategy(path)
    assert _same_game(loaded.game, GAMES["bagel"]) and loaded.notes
    for agree in (dict(preset="bagel", pegs=3), dict(pegs=3), dict(colors=10, distinct=True)):
        assert _same_game(read_strategy(path, **agree).game, GAMES["bagel"]), agree
    for options, named in ((dict(colors=8), "colors"), (dict(preset="bulls-and-cows"), "preset"),
                           (dict(preset="black-only"), "preset"), (dict(pegs=4), "pegs")):
        with pytest.raises(GameArgumentError) as caught:
            read_strategy(path, **options)
        assert set(caught.value.arguments) == {named}, caught.value


# -- the installed program ------------------------------------------------------------
@pytest.mark.parametrize("name", PRESETS)
def test_generate_then_every_reader_needs_no_game_option(
    name: str, console_script: list[str], tmp_path: Path
) -> None:
    sizes = [] if name in ("bulls-and-cows", "bagel") else ["-p", "3", "-c", "4"]
    done = run(console_script, "generate", "--game", name, *sizes, "-o", "t.json",
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    recorded = json.loads((tmp_path / "t.json").read_text())["game"]
    assert recorded == game_record(GAMES[name])
    report = st.verify(read(tmp_path / "t.json"), GAMES[name])
    assert report.valid
    done = run(console_script, "verify", "t.json", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    (item,) = json.loads(done.stdout)
    assert (item["game"], item["total"], item["valid"]) == (GAMES[name].name, report.total, True)
    assert item["game_notes"] == ["the game recorded in the file"]
    for command in (["stats", "t.json"], ["show", "t.json"],
                    ["simulate", "--strategy", "t.json"],
                    ["improve", "t.json", "-o", "better.json", "--exact-below", "0", "-w", "0"]):
        done = run(console_script, *command, cwd=tmp_path)
        assert done.returncode == 0, (command, done.stdout + done.stderr)
    better = json.loads((tmp_path / "better.json").read_text())
    assert better["game"] == recorded  # improve keeps the game in a .json output


def test_an_option_that_contradicts_the_recorded_game_is_one_line(
    console_script: list[str], tmp_path: Path
) -> None:
    done = run(console_script, "generate", "--game", "bagel", "-o", "t.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for command in ("verify", "stats", "show"):
        done = run(console_script, command, "t.json", "--game", "bulls-and-cows", cwd=tmp_path)
        one_error(done, "t.json records the game bagel", "--game bulls-and-cows")
    done = run(console_script, "simulate", "--strategy", "t.json", "-c", "8", cwd=tmp_path)
    one_error(done, "records the game bagel", "--colors 8", "asks for another game")
    done = run(console_script, "generate", "-p", "3", "-c", "4", "-o", "m.json", cwd=tmp_path)
    done = run(console_script, "verify", "m.json", "--distinct", cwd=tmp_path)
    one_error(done, "m.json records the game MM(3,4)", "--distinct asks for 3 distinct of 4")
    done = run(console_script, "verify", "t.json", "--game", "bagel", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_convert_keeps_the_game_an_mmstrat_file_tells(
    console_script: list[str], tmp_path: Path
) -> None:
    source = Path(__file__).parent / "data" / "formats" / "fancidev-mmstrat-p3c4r-optimal.txt"
    done = run(console_script, "convert", source, "-o", "t.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "t.json").read_text())["game"] == game_record(
        st.mastermind(3, 4))
    done = run(console_script, "convert", "t.json", "-o", "again.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "again.json").read_text() == (tmp_path / "t.json").read_text()
