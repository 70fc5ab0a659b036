"""Variants: black-only Mastermind, Bulls and Cows, Bagel, and custom games
defined in Python — every builder and the verifier work on each."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import strategytree as st
from strategytree import feedback, scoring
from strategytree.builders import build_greedy
from strategytree.cli import app
from strategytree.game import black_only, custom
from strategytree.presets import bagel, bulls_and_cows, preset

import naive


def _black_only(guess, secret) -> tuple[int, int]:
    return naive.feedback(guess, secret)[0], 0


def _two_d(guess, secret) -> tuple[bool, bool, bool]:
    """The seed's "twoD" game: is the guess <= the secret in both coordinates,
    >= in both, equal."""
    return (
        all(g <= s for g, s in zip(guess, secret)),
        all(g >= s for g, s in zip(guess, secret)),
        tuple(guess) == tuple(secret),
    )


def _naive_total(game: st.Game, rule: str, feedback) -> int:
    """A plain-Python one-step builder on any feedback function; its total."""
    guesses = [tuple(int(x) for x in g) for g in game.guesses]
    win = feedback(guesses[0], guesses[0]) if game.scoring == "table" else None

    def score(g, secrets):
        parts: dict = {}
        for s in secrets:
            parts[feedback(g, s)] = parts.get(feedback(g, s), 0) + 1
        sizes = list(parts.values())
        return {
            "minimax": -max(sizes),
            "expected": -sum(n * n for n in sizes),
            "parts": len(sizes),
            "entropy": round(-sum(n * np.log2(n) for n in sizes if n > 1), 9),
        }[rule]

    def solve(secrets: list, depth: int) -> int:
        if len(secrets) == 1:
            return depth
        consistent = set(secrets)
        best = max(range(len(guesses)),
                   key=lambda i: (score(guesses[i], secrets), guesses[i] in consistent, -i))
        g = guesses[best]
        parts: dict = {}
        for s in secrets:
            parts.setdefault(feedback(g, s), []).append(s)
        total = 0
        for reply, group in parts.items():
            solved = (reply == win) if win is not None else (reply[0] == game.pegs)
            total += depth if solved else solve(group, depth + 1)
        return total

    return solve([tuple(int(x) for x in s) for s in game.secrets], 1)


def test_presets() -> None:
    assert (len(bulls_and_cows().secrets), len(bulls_and_cows().guesses)) == (5040, 5040)
    assert (len(bagel().secrets), bagel().pegs, bagel().colors) == (720, 3, 10)
    assert preset("black-only", 3, 4).scoring == "black-only"
    assert (preset("distinct", 3, 5, distinct_guesses=True).name
            == "3 distinct of 5, distinct guesses")
    with pytest.raises(st.StrategyTreeError):
        preset("chess")
    with pytest.raises(st.StrategyTreeError):
        preset("bagel", 4, 10)


@pytest.mark.parametrize("pegs, colors", [(1, 3), (2, 3), (3, 4), (4, 3)])
def test_black_only_feedback_matches_the_twin(pegs: int, colors: int) -> None:
    game = black_only(pegs, colors)
    codes = [tuple(int(x) for x in c) for c in game.secrets]
    for i, guess in enumerate(codes):
        got = feedback.replies(game, i)
        want = [game.reply_code(_black_only(guess, s)) for s in codes]
        assert got.tolist() == want
    assert game.possible_replies == {b * (pegs + 1) for b in range(pegs + 1)}


@pytest.mark.parametrize("rule", ["minimax", "entropy", "expected", "parts"])
def test_black_only_builder_matches_the_twin(rule: str) -> None:
    game = black_only(3, 4)
    tree = build_greedy(game, rule=rule)
    report = st.verify(tree, game)
    assert report.valid
    assert report.total == _naive_total(game, rule, _black_only)


def test_black_only_verifier_refuses_whites() -> None:
    report = st.verify(st.loads("{AB:{01:BA,10:AA,00:CC}}"), black_only(2, 3))
    assert [p.kind for p in report.invalid_replies] == ["invalid-reply"]
    assert "only blacks" in report.invalid_replies[0].message


def two_d() -> st.Game:
    return custom(2, 5, _two_d, name="twoD")


def test_custom_game_table_is_the_function() -> None:
    game = two_d()
    codes = [tuple(int(x) for x in c) for c in game.secrets]
    for i, g in enumerate(codes):
        for j, s in enumerate(codes):
            assert game.labels[game.table[i, j]] == _two_d(g, s)
    assert game.labels[game.win] == (True, True, True)
    scores = scoring.scores(game, "minimax")
    for i, g in enumerate(codes):
        parts: dict = {}
        for s in codes:
            parts[_two_d(g, s)] = parts.get(_two_d(g, s), 0) + 1
        assert scores[i] == -max(parts.values())


@pytest.mark.parametrize("rule", ["minimax", "entropy", "expected", "parts", "first"])
def test_custom_game_builders_and_verifier(rule: str) -> None:
    game = two_d()
    tree = build_greedy(game, rule=rule)
    report = st.verify(tree, game)
    assert report.valid, report.errors
    if rule != "first":
        assert report.total == _naive_total(game, rule, _two_d)
    # written and read back, the file verifies the same
    again = st.verify(st.loads(st.dumps(tree)), game)
    assert (again.total, again.max_guesses, again.valid) == (report.total, report.max_guesses, True)


def test_custom_game_replies_outside_the_game_are_invalid() -> None:
    game = two_d()
    text = "{CC:{01:AA,02:EE,77:BB,00:{AA:{00:BB}}}}"
    report = st.verify(st.loads(text), game)
    assert any("77" in p.message for p in report.invalid_replies)
    assert not report.valid


def test_custom_game_limits() -> None:
    with pytest.raises(st.StrategyTreeError):
        custom(2, 12, lambda g, s: (g, s))  # more than 100 different replies


def test_cli_game_option(tmp_path) -> None:
    runner = CliRunner()
    out = tmp_path / "bagel.txt"
    result = runner.invoke(app,
                           ["generate", "--game", "bagel", "--rule", "minimax", "-o", str(out)])
    assert result.exit_code == 0, result.output
    report = st.verify(st.load(out), bagel())
    assert report.valid
    result = runner.invoke(app, ["verify", "--game", "bagel", str(out)])
    assert result.exit_code == 0 and f"{report.total:,}" in result.output
    result = runner.invoke(app, ["verify", "--game", "chess", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output
