"""Greedy builders: published figures, symmetry changes nothing, every tree verifies."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import strategytree as st
from strategytree.builders import build_greedy, parse_pool
from strategytree.literature import published
from strategytree.symmetry import Symmetry

import naive


@pytest.mark.parametrize("rule", ["minimax", "expected", "parts"])
def test_mm46_reproduces_published_totals(rule: str) -> None:
    game = st.mastermind(4, 6)
    report = st.verify(build_greedy(game, rule=rule), game)
    figure = published("MM(4,6)", rule)
    assert report.valid
    assert report.total == figure.low
    assert report.max_guesses == figure.max_guesses


def test_mm46_entropy_within_published_range() -> None:
    game = st.mastermind(4, 6)
    report = st.verify(build_greedy(game, rule="entropy"), game)
    figure = published("MM(4,6)", "entropy")
    assert report.valid and figure.low <= report.total <= figure.high


@pytest.mark.parametrize(
    "game",
    [st.mastermind(2, 3), st.mastermind(3, 3), st.mastermind(3, 4), st.distinct(3, 5)],
    ids=lambda g: g.name,
)
@pytest.mark.parametrize("rule", ["minimax", "expected", "entropy", "parts"])
def test_builder_matches_plain_python_twin(game: st.Game, rule: str) -> None:
    report = st.verify(build_greedy(game, rule=rule), game)
    assert report.valid
    assert report.total == naive.greedy_total(game, rule)


@pytest.mark.parametrize(
    "game",
    [st.mastermind(4, 6), st.mastermind(3, 5), st.distinct(4, 6, distinct_guesses=True)],
    ids=lambda g: g.name,
)
@pytest.mark.parametrize("rule", ["minimax", "expected", "entropy", "parts"])
def test_symmetry_changes_speed_not_the_tree(game: st.Game, rule: str) -> None:
    assert build_greedy(game, rule=rule) == build_greedy(game, rule=rule, symmetry=False)


def _orbit_classes(game: st.Game, history: list[np.ndarray]) -> dict:
    """Brute force: group guesses by orbit under every (position, colour)
    permutation that fixes each guess of the history."""
    p, c = game.pegs, game.colors
    group = []
    for perm in itertools.permutations(range(p)):
        for tau in itertools.permutations(range(c)):
            tau = np.array(tau)
            if all((tau[h[list(perm)]] == h).all() for h in history):
                group.append((list(perm), tau))
    keys = {tuple(g) for g in game.guesses.tolist()}
    label: dict = {}
    for g in sorted(keys):
        if g in label:
            continue
        for perm, tau in group:
            image = tuple(int(x) for x in tau[np.array(g)[perm]])
            label.setdefault(image, g)
    return label


@pytest.mark.parametrize("history", [[], ["AAB"], ["ABC"], ["AAB", "ABD"], ["ABC", "BCA"]])
def test_symmetry_classes_are_the_orbits(history: list[str]) -> None:
    game = st.mastermind(3, 4)
    sym = Symmetry.of(game)
    rows = [game.parse_code(h) for h in history]
    for row in rows:
        sym = sym.after(row)
    orbit_of = _orbit_classes(game, rows)
    keys = sym.canonical_keys(game.guesses)
    for i, g in enumerate(game.guesses.tolist()):
        for j, h in enumerate(game.guesses.tolist()):
            same_orbit = orbit_of[tuple(g)] == orbit_of[tuple(h)]
            assert (keys[i] == keys[j]) == same_orbit, (g, h)


@pytest.mark.parametrize("history", [[], ["AAB"], ["ABC"], ["AAB", "ABD"], ["ABC", "BCA"]])
def test_the_classes_of_every_guess_are_each_orbits_first_code(history: list[str]) -> None:
    game = st.mastermind(3, 4)
    rows = [game.parse_code(h) for h in history]
    sym = twin = Symmetry.of(game)
    for row in rows:
        sym, twin = sym.after(row), twin.after(row)
    firsts = sorted(set(_orbit_classes(game, rows).values()))
    assert [tuple(game.guesses[i]) for i in sym.classes(compiled=False)] == firsts
    assert twin.classes() is sym.classes()  # kept by the group, not by the object


def test_root_classes_of_mm58() -> None:
    game = st.mastermind(5, 8)
    reps = Symmetry.of(game).classes()
    assert [game.code_text(game.guesses[i]) for i in reps] == [
        "AAAAA", "AAAAB", "AAABB", "AAABC", "AABBC", "AABCD", "ABCDE",
    ]


def test_first_guess_is_forced() -> None:
    game = st.mastermind(4, 6)
    tree = build_greedy(game, rule="minimax", first="ABCD")
    assert tree.root.guess == "ABCD"
    assert st.verify(tree, game).valid


@pytest.mark.parametrize("pool", ["consistent", "sample:50"])
def test_pools_are_reproducible_and_valid(pool: str) -> None:
    game = st.mastermind(4, 5)
    a = build_greedy(game, rule="entropy", pool=pool, seed=3)
    b = build_greedy(game, rule="entropy", pool=pool, seed=3)
    assert a == b
    assert st.verify(a, game).valid


def test_consistent_pool_only_guesses_possible_secrets() -> None:
    game = st.mastermind(3, 4)
    tree = build_greedy(game, rule="entropy", pool="consistent")
    report = st.verify(tree, game)
    assert report.valid
    # every guess played is consistent: replay and check each node's guess is possible
    secrets = {game.code_text(s) for s in game.secrets}
    todo = [(tree.root, secrets)]
    while todo:
        node, possible = todo.pop()
        assert node.guess in possible
        for reply, child in node.branches:
            rest = {s for s in possible if naive.feedback(node.guess, s) == tuple(reply)}
            todo.append((child, rest))


@pytest.mark.parametrize("rule", ["first", "random"])
def test_baselines_are_valid(rule: str) -> None:
    game = st.mastermind(4, 6)
    report = st.verify(build_greedy(game, rule=rule, seed=1), game)
    assert report.valid


def test_bad_arguments_raise_our_errors() -> None:
    game = st.mastermind(3, 3)
    with pytest.raises(st.StrategyTreeError):
        build_greedy(game, rule="nonsense")
    with pytest.raises(st.StrategyTreeError):
        build_greedy(game, first="ZZZ")
    for bad in ["some", "sample:", "sample:0", "sample:x"]:
        with pytest.raises(st.StrategyTreeError):
            parse_pool(bad)
