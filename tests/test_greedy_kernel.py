"""The greedy builders' one-call choice (greedy_choice.best_guess) and the compiled
symmetry keys (symmetry.canonical_keys), each against a slow, obviously
correct twin; and the builders give the same trees with and without them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import strategytree as st
from strategytree import greedy_choice, scoring, symmetry
from strategytree.builders import build_greedy, colour_masks
from strategytree.errors import StrategyTreeError
from strategytree.game import black_only
from strategytree.symmetry import Symmetry

import naive


def _naive_choice(game: st.Game, rule: str, candidates, secrets, consistent) -> int:
    """The twin's choice, with the entropy from the kernels' own exact table."""
    nlogn = scoring.nlogn_table(len(secrets))
    return naive.greedy_choice(game, rule, candidates, secrets, consistent, nlogn)


def _case(game: st.Game, rng: np.random.Generator, n_secrets: int, n_guesses: int):
    secrets = np.sort(rng.choice(len(game.secrets), size=min(n_secrets, len(game.secrets)),
                                 replace=False))
    candidates = np.sort(rng.choice(len(game.guesses), size=min(n_guesses, len(game.guesses)),
                                    replace=False))
    as_guess = game.guess_index(game.secrets[secrets])
    consistent = as_guess[as_guess >= 0]
    if rng.random() < 0.5 and len(consistent):  # some of them among the candidates
        candidates = np.union1d(candidates, consistent[:: max(1, len(consistent) // 3)])
    return secrets, candidates.astype(np.int64), consistent.astype(np.int64)


GAMES = {
    "MM(3,4)": lambda rng: st.mastermind(3, 4),
    "MM(4,6)": lambda rng: st.mastermind(4, 6),
    "MM(5,8)": lambda rng: st.mastermind(5, 8),
    "distinct(4,6)": lambda rng: st.distinct(4, 6),
    "black-only(4,4)": lambda rng: black_only(4, 4),
    "two words": lambda rng: naive.subset_game(rng, 4, 20, 400),  # 80 bits a code
    "seven pegs": lambda rng: naive.subset_game(rng, 7, 9, 400),
}


@pytest.mark.parametrize("rule", ["minimax", "expected", "entropy", "parts"])
@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("n_secrets", [1, 2, 7, 30, 64, 65, 150])
def test_best_guess_matches_the_twin(rule: str, name: str, n_secrets: int) -> None:
    rng = np.random.default_rng(zlib.crc32(f"{rule} {name} {n_secrets}".encode()))
    game = GAMES[name](rng)
    scratch = greedy_choice.ChoiceScratch(game)  # kept from one call to the next, as a builder does
    for _ in range(3):
        secrets, candidates, consistent = _case(game, rng, n_secrets, 40)
        want = _naive_choice(game, rule, candidates, secrets, consistent)
        assert greedy_choice.best_guess(game, rule, candidates, secrets, consistent) == want
        assert greedy_choice.best_guess(
            game, rule, candidates, secrets, consistent, scratch) == want


@pytest.mark.parametrize("rule", ["minimax", "expected", "entropy", "parts"])
def test_best_guess_on_sets_a_few_guesses_tell_apart(rule: str) -> None:
    """Small sets where a perfect or a one-pair guess exists (the early stops)."""
    game = st.mastermind(4, 6)
    rng = np.random.default_rng(7)
    every = np.arange(len(game.guesses))
    for n in (3, 4, 6, 9, 12):
        for _ in range(4):
            secrets = np.sort(rng.choice(len(game.secrets), size=n, replace=False))
            as_guess = game.guess_index(game.secrets[secrets])
            consistent = as_guess[as_guess >= 0]
            got = greedy_choice.best_guess(game, rule, every, secrets, consistent)
            assert got == _naive_choice(game, rule, every, secrets, consistent)


@pytest.mark.parametrize("rule", ["minimax", "expected", "entropy", "parts"])
def test_skipping_dead_colours_is_merging_them(rule: str) -> None:
    """Colours left out by ``skip`` choose what the merged candidates choose."""
    game = st.mastermind(4, 8)
    rng = np.random.default_rng(11)
    every = np.arange(len(game.guesses))
    guess_masks, secret_masks = colour_masks(game.guesses), colour_masks(game.secrets)
    for n in (3, 9, 40, 100):
        for _ in range(3):
            few = rng.choice(8, size=5, replace=False)  # secrets of 5 colours: 2 dead
            pool = np.flatnonzero(np.isin(game.secrets, few).all(axis=1))
            secrets = np.sort(rng.choice(pool, size=n, replace=False))
            consistent = game.guess_index(game.secrets[secrets])
            skip = symmetry.dead_colours(secret_masks, secrets)
            merged = symmetry.merge_dead_colours(guess_masks, secret_masks, every, secrets)
            want = merged[greedy_choice.best_guess(game, rule, merged, secrets, consistent)]
            assert every[greedy_choice.best_guess(
                game, rule, every, secrets, consistent, skip=skip)] == want
            assert want == merged[_naive_choice(game, rule, merged, secrets, consistent)]


def test_best_guess_leaves_its_scratch_array_zeroed() -> None:
    game = st.mastermind(4, 6)
    secrets = np.arange(0, 1296, 7)
    scratch = greedy_choice.ChoiceScratch(game)
    greedy_choice.best_guess(game, "entropy", np.arange(1296), secrets, secrets, scratch)
    assert not scratch.mark.any()


def test_a_scratch_serves_one_game() -> None:
    scratch = greedy_choice.ChoiceScratch(st.mastermind(3, 4))
    every = np.arange(64)
    with pytest.raises(StrategyTreeError, match="another game"):
        greedy_choice.best_guess(st.mastermind(3, 4), "entropy", every, every, every, scratch)


def test_a_scratch_keeps_the_grouping_of_the_same_candidates() -> None:
    scratch = greedy_choice.ChoiceScratch(st.mastermind(4, 6))
    candidates = np.arange(1296)
    by_set, set_start = scratch.by_set(candidates)
    assert scratch.by_set(candidates)[0] is by_set
    again, starts = scratch.by_set(candidates.copy())  # equal, not the same: made anew
    assert again is not by_set and np.array_equal(again, by_set)
    assert np.array_equal(starts, set_start)


def test_builders_in_two_threads_build_what_one_thread_builds() -> None:
    """Nothing mutable is shared between choosers: the exact search runs two threads."""
    game = st.mastermind(4, 6)
    rules = ["minimax", "entropy", "expected", "parts"]
    want = [build_greedy(game, rule) for rule in rules]
    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(lambda rule: build_greedy(game, rule), rules)) == want


@pytest.mark.parametrize("game", [st.mastermind(4, 6), st.mastermind(5, 5)], ids=lambda g: g.name)
@pytest.mark.parametrize("rule", ["minimax", "expected", "entropy", "parts"])
def test_a_tree_built_on_two_threads_is_the_tree_built_on_one(game: st.Game, rule: str) -> None:
    assert build_greedy(game, rule, threads=2) == build_greedy(game, rule, threads=1)


def test_best_guess_declines_games_it_has_no_kernel_for() -> None:
    codes = st.mastermind(2, 3).secrets
    table = (codes[:, None, 0] == codes[None, :, 0]).astype(np.uint8)  # a made-up reply
    table_game = st.Game(2, 3, codes, codes, scoring="table", table=table, labels=(0, 1))
    some = np.arange(5)
    assert greedy_choice.best_guess(table_game, "entropy", some, some, some) is None
    many_pegs = naive.subset_game(np.random.default_rng(1), 8, 3, 50)
    assert greedy_choice.best_guess(many_pegs, "entropy", some, some, some) is None
    assert greedy_choice.best_guess(st.mastermind(4, 6), "entropy", some[:0], some, some) is None


# -- the compiled symmetry keys ---------------------------------------------------------
def _numpy_keys(sym: Symmetry, rows: np.ndarray) -> np.ndarray:
    kept = symmetry._COMPILED_FROM
    symmetry._COMPILED_FROM = 10**12
    try:
        return sym.canonical_keys(rows)
    finally:
        symmetry._COMPILED_FROM = kept


def _brute_keys(sym: Symmetry, rows: np.ndarray) -> list[int]:
    """Straight from the definition: the smallest base-``colors`` number of an image."""
    game = sym.game
    free = [c for c in range(game.colors) if not sym.played[c]]
    out = []
    for row in rows.tolist():
        best = None
        for perm, tau in sym.maps:
            moved = [row[p] for p in perm]
            names: dict = {}
            image = []
            for colour in moved:
                if tau[colour] >= 0:
                    image.append(int(tau[colour]))
                else:
                    if colour not in names:
                        names[colour] = free[len(names)]
                    image.append(names[colour])
            key = 0
            for colour in image:
                key = key * game.colors + colour
            best = key if best is None else min(best, key)
        out.append(best)
    return out


@pytest.mark.parametrize(
    "game, history",
    [
        (st.mastermind(5, 8), ["AABBC"]),
        (st.mastermind(5, 8), ["ABCDE"]),
        (st.mastermind(5, 8), ["AAAAA"]),
        (st.mastermind(5, 8), ["AABCD", "BBAAC"]),
        (st.mastermind(4, 6), ["AABB", "ABCD"]),
        (st.distinct(4, 6), ["ABCD"]),
    ],
    ids=lambda x: x.name if isinstance(x, st.Game) else ",".join(x),
)
def test_compiled_symmetry_keys_match_numpy_and_the_definition(game: st.Game,
                                                               history: list[str]) -> None:
    sym = Symmetry.of(game)
    for code in history:
        sym = sym.after(np.asarray(naive.code(code)))
    rows = game.guesses
    compiled = sym.canonical_keys(rows)
    assert np.array_equal(compiled, _numpy_keys(sym, rows))
    sample = np.random.default_rng(3).choice(len(rows), size=300, replace=False)
    assert compiled[sample].tolist() == _brute_keys(sym, rows[sample])


# -- the builders: the same trees with and without the one-call choice ------------------
@pytest.mark.parametrize(
    "game",
    [st.mastermind(4, 6), st.distinct(4, 6, distinct_guesses=True), black_only(4, 4),
     st.mastermind(3, 5)],
    ids=lambda g: g.name,
)
@pytest.mark.parametrize("rule", ["minimax", "expected", "entropy", "parts"])
def test_builders_give_the_same_tree_without_the_kernel(monkeypatch, game: st.Game,
                                                        rule: str) -> None:
    fast = build_greedy(game, rule=rule)
    monkeypatch.setattr(greedy_choice, "best_guess", lambda *args, **kwargs: None)
    assert build_greedy(game, rule=rule) == fast


# -- as plain Python ----------------------------------------------------------------------
PURE_PYTHON = textwrap.dedent(
    """
    import json
    import numpy as np
    import strategytree as st
    from strategytree import greedy_choice, symmetry
    from strategytree.symmetry import Symmetry

    game = st.mastermind(3, 4)
    out = {}
    for rule in ("minimax", "expected", "entropy", "parts"):
        for secrets in (np.arange(0, 64, 9), np.arange(0, 64, 2), np.arange(64)):
            out[f"{rule} {len(secrets)}"] = greedy_choice.best_guess(
                game, rule, np.arange(64), secrets, secrets)
    sym = Symmetry.of(game).after(np.array([0, 0, 1]))
    out["keys"] = symmetry.canonical_keys(
        game.guesses, sym.maps, np.flatnonzero(~sym.played), 4).tolist()
    print(json.dumps(out))
    """
)


def test_kernels_run_as_plain_python_with_jit_disabled() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", PURE_PYTHON], env=env, capture_output=True,
                         text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr[-1500:]
    got = json.loads(run.stdout)
    game = st.mastermind(3, 4)
    every = np.arange(64)
    for rule in ("minimax", "expected", "entropy", "parts"):
        for secrets in (np.arange(0, 64, 9), np.arange(0, 64, 2), np.arange(64)):
            assert got[f"{rule} {len(secrets)}"] == _naive_choice(
                game, rule, every, secrets, secrets)
    sym = Symmetry.of(game).after(np.array([0, 0, 1]))
    assert got["keys"] == _brute_keys(sym, game.guesses)
