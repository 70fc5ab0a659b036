"""One meaning per option: every command turns the same options into the same game,
and refuses the same contradictions the same way (exit 2, one line naming both)."""

from __future__ import annotations

from pathlib import Path

import pytest

import strategytree as st
from strategytree import cli, guide, presets, verify  # noqa: F401  (they bind resolve_game by name: loaded before a test patches it)
from strategytree.errors import GameArgumentError
from strategytree.presets import bagel, bulls_and_cows, resolve_game

from cli_runner import invoke, runner

#: a strategy whose inferred game is the default one (4 pegs, highest colour F)
FILE = "{ABCF:{00:DEDE}}"

#: every command that decides a game, with what it needs besides the game options
COMMANDS = {
    "generate": ["generate", "-o", "out.txt"],
    "bound": ["bound"],
    "play": ["play"],
    "play --strategy": ["play", "--strategy", "s.txt"],
    "simulate": ["simulate"],
    "simulate --strategy": ["simulate", "--strategy", "s.txt"],
    "verify": ["verify", "s.txt"],
    "show": ["show", "s.txt"],
    "stats": ["stats", "s.txt"],
}

#: option sets, and the resolver's arguments they mean
OPTION_SETS = {
    "none": ([], {}),
    "bulls-and-cows --distinct-guesses": (
        ["--game", "bulls-and-cows", "--distinct-guesses"],
        {"preset": "bulls-and-cows", "distinct_guesses": True},
    ),
    "bulls-and-cows --distinct -p 4": (
        ["--game", "bulls-and-cows", "--distinct", "-p", "4"],
        {"preset": "bulls-and-cows", "distinct": True, "pegs": 4},
    ),
    "bagel --distinct": (["--game", "bagel", "--distinct"], {"preset": "bagel", "distinct": True}),
    "distinct -p 3 -c 5": (["--game", "distinct", "-p", "3", "-c", "5"],
                           {"preset": "distinct", "pegs": 3, "colors": 5}),
    "--distinct -p 3 -c 5": (["--distinct", "-p", "3", "-c", "5"],
                             {"distinct": True, "pegs": 3, "colors": 5}),
    "--distinct-guesses -p 3 -c 5": (
        ["--distinct-guesses", "-p", "3", "-c", "5"],
        {"distinct_guesses": True, "pegs": 3, "colors": 5},
    ),
    "black-only": (["--game", "black-only"], {"preset": "black-only"}),
    "black-only -p 3 -c 4": (["--game", "black-only", "-p", "3", "-c", "4"],
                             {"preset": "black-only", "pegs": 3, "colors": 4}),
    "mastermind -p 2 -c 3": (["--game", "mastermind", "-p", "2", "-c", "3"],
                             {"pegs": 2, "colors": 3}),
}

#: options that contradict each other, and the flags the refusal must name
CONTRADICTIONS = {
    "black-only --distinct": (["--game", "black-only", "--distinct"],
                              ["--game black-only", "--distinct"]),
    "black-only --distinct-guesses": (
        ["--game", "black-only", "--distinct-guesses"], ["--game black-only", "--distinct-guesses"],
    ),
    "bulls-and-cows -p 5": (["--game", "bulls-and-cows", "-p", "5"],
                            ["--game bulls-and-cows", "--pegs 5"]),
    "bagel -c 6": (["--game", "bagel", "-c", "6"], ["--game bagel", "--colors 6"]),
    "chess": (["--game", "chess"], ["'chess' is not one of"]),
}


class Decided(Exception):
    """Raised once a command has decided its game: the test needs no more."""


def fingerprint(game: st.Game) -> tuple:
    """What makes a game the game it is."""
    return (
        game.name, game.pegs, game.colors, game.scoring, game.symbols, game.reply_words,
        game.secrets.tobytes(), game.guesses.tobytes(),
    )


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_every_command_means_the_same_game(here: Path, monkeypatch, command: str,
                                           options: str) -> None:
    (here / "s.txt").write_text(FILE)
    flags, arguments = OPTION_SETS[options]
    decided: list[st.Game] = []

    def recording(*args, **kwargs):
        game, _ = resolve_game(*args, **kwargs)
        decided.append(game)
        raise Decided

    monkeypatch.setattr(presets, "resolve_game", recording)
    result = runner.invoke(cli.app, [*COMMANDS[command], *flags])  # Decided: no SystemExit
    assert isinstance(result.exception, Decided), result.output
    assert len(decided) == 1
    expected, _ = resolve_game(**arguments)
    assert fingerprint(decided[0]) == fingerprint(expected)


@pytest.mark.parametrize("options", CONTRADICTIONS, ids=str)
@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_contradictions_are_refused_by_every_command(here: Path, command: str,
                                                     options: str) -> None:
    (here / "s.txt").write_text(FILE)
    flags, named = CONTRADICTIONS[options]
    result = invoke([*COMMANDS[command], *flags])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for flag in named:
        assert flag in lines[0], lines[0]
    assert "=" not in lines[0]  # the command line speaks of flags, not of arguments
    assert not (here / "out.txt").exists()


def test_the_library_speaks_of_arguments() -> None:
    with pytest.raises(GameArgumentError) as refused:
        resolve_game("black-only", distinct=True)
    assert str(refused.value) == "preset='black-only' has no distinct variant (distinct=True)"
    with pytest.raises(GameArgumentError, match=r"preset='bulls-and-cows' has 4 pegs, not pegs=5"):
        resolve_game("bulls-and-cows", 5)
    # what a preset already implies is accepted
    for flags in ({"distinct": True}, {"distinct_guesses": True}, {"pegs": 4, "colors": 10}):
        assert (fingerprint(resolve_game("bulls-and-cows", **flags)[0])
                == fingerprint(bulls_and_cows()))
    assert fingerprint(resolve_game("bagel", distinct=True)[0]) == fingerprint(bagel())
    assert fingerprint(resolve_game("distinct", distinct=True)[0]) == fingerprint(st.distinct(4, 6))


def test_inferred_only_when_not_given() -> None:
    strategy = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
    game, notes = resolve_game(strategy=strategy)
    assert (game.pegs, game.colors) == (2, 3) and len(notes) == 2
    game, notes = resolve_game(pegs=2, colors=5, strategy=strategy)
    assert (game.pegs, game.colors, notes) == (2, 5, [])
    game, notes = resolve_game("bagel", strategy=strategy)  # a preset's sizes are never inferred
    assert (game.pegs, game.colors, notes) == (3, 10, [])


@pytest.mark.parametrize("preset, flags",
                         [("bagel", ["--distinct"]), ("bulls-and-cows", ["--distinct-guesses"])])
def test_a_generated_strategy_is_valid_for_every_command(here: Path, preset: str,
                                                         flags: list[str]) -> None:
    """The bug of issue 12: generate and verify read the same options as two games."""
    options = ["--game", preset, *flags]
    game = resolve_game(preset)[0]
    result = invoke(["generate", "-o", "s.txt", "--rule", "first", *options])
    assert result.exit_code == 0, result.output
    assert f"{len(game.secrets):,}" in result.stdout and preset in result.stdout
    assert st.verify(st.load(here / "s.txt"), game).valid
    for command in (["verify", "s.txt"], ["stats", "s.txt"], ["simulate", "--strategy", "s.txt"]):
        result = invoke([*command, *options])
        assert result.exit_code == 0, (command, result.output)
        assert preset in result.stdout
