"""The numba kernels against the naive twins, on one-word and several-word codes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import strategytree as st
from strategytree import bitsliced, feedback, grouping, scoring
from strategytree.errors import StrategyTreeError
from strategytree.feedback import n_words
from strategytree.game import Game

import naive


def _presets():
    return [
        ("MM(1,1)", lambda rng: st.mastermind(1, 1)),
        ("MM(1,5)", lambda rng: st.mastermind(1, 5)),
        ("MM(3,1)", lambda rng: st.mastermind(3, 1)),
        ("MM(2,3)", lambda rng: st.mastermind(2, 3)),
        ("MM(3,4)", lambda rng: st.mastermind(3, 4)),
        ("MM(4,3)", lambda rng: st.mastermind(4, 3)),
        ("MM(5,2)", lambda rng: st.mastermind(5, 2)),
        ("4 distinct of 5", lambda rng: st.distinct(4, 5)),
        ("3 distinct of 4, distinct guesses", lambda rng: st.distinct(3, 4, distinct_guesses=True)),
        # one word exactly (64 bits), and just over it
        ("subset (4,16)", lambda rng: naive.subset_game(rng, 4, 16, 90)),
        ("subset (5,13)", lambda rng: naive.subset_game(rng, 5, 13, 90)),
        # several words
        ("subset (8,9)", lambda rng: naive.subset_game(rng, 8, 9, 90)),
        ("subset (9,9)", lambda rng: naive.subset_game(rng, 9, 9, 90)),
        ("subset (9,26)", lambda rng: naive.subset_game(rng, 9, 26, 90)),
        ("subset (1,26)", lambda rng: naive.subset_game(rng, 1, 26, 40)),
    ]


GAMES = _presets()


def _game(i: int) -> Game:
    return GAMES[i][1](np.random.default_rng(1000 + i))


@pytest.mark.parametrize("i", range(len(GAMES)), ids=[name for name, _ in GAMES])
def test_feedback_against_twin(i: int) -> None:
    game = _game(i)
    rng = np.random.default_rng(i)
    guesses = rng.choice(len(game.guesses), size=min(12, len(game.guesses)), replace=False)
    for g in guesses:
        guess = game.guesses[g]
        got = feedback.replies(game, int(g))
        want = [naive.reply_code(naive.feedback(guess, s), game.pegs) for s in game.secrets]
        assert got.tolist() == want
        subset = rng.integers(0, len(game.secrets), size=7)
        got = feedback.replies(game, int(g), subset)
        assert got.tolist() == [want[j] for j in subset]


@pytest.mark.parametrize("i", range(len(GAMES)), ids=[name for name, _ in GAMES])
def test_the_reply_table_against_twin(i: int) -> None:
    """feedback.table (one word: a loop of its own; several words), every pair."""
    game = _game(i)
    want = [[naive.reply_code(naive.feedback(guess, s), game.pegs) for s in game.secrets]
            for guess in game.guesses]
    assert feedback.table(game).tolist() == want


@pytest.mark.parametrize("i", range(len(GAMES)), ids=[name for name, _ in GAMES])
def test_the_reply_step_against_twin(i: int) -> None:
    """feedback.reply (one word) and reply_of_rows (any), as Python and compiled."""
    from strategytree.jit import njit

    feedback.compiled()
    one_word = njit(lambda gp, gc, sp, sc, stride: feedback.reply(gp, gc, sp, sc, stride))
    rows = njit(lambda *args: feedback.reply_of_rows(*args))
    game = _game(i)
    rng = np.random.default_rng(i)
    (gpos, gcnt), (spos, scnt) = game.guess_bits, game.secret_bits
    stride = game.pegs + 1
    for g in rng.choice(len(game.guesses), size=min(6, len(game.guesses)), replace=False):
        for s in rng.choice(len(game.secrets), size=min(6, len(game.secrets)), replace=False):
            want = naive.reply_code(naive.feedback(game.guesses[g], game.secrets[s]), game.pegs)
            assert feedback.reply_of_rows(gpos, gcnt, g, spos, scnt, s, stride) == want
            assert rows(gpos, gcnt, g, spos, scnt, s, stride) == want
            if gpos.shape[1] == 1:
                args = gpos[g, 0], gcnt[g, 0], spos[s, 0], scnt[s, 0], stride
                assert feedback.reply(*args) == one_word(*args) == want


def test_lowest_bit_against_twin() -> None:
    from strategytree.jit import njit

    feedback.compiled()
    compiled = njit(lambda x: feedback.lowest_bit(x))
    for x in [1, 2, 3, 12, 1 << 40, (1 << 63) | (1 << 62), (1 << 64) - 1]:
        assert feedback.lowest_bit(x) == compiled(np.uint64(x)) == naive.lowest_bit(x)


@pytest.mark.parametrize(
    "game",
    [st.mastermind(4, 6), naive.subset_game(np.random.default_rng(5), 4, 20, 400),
     naive.subset_game(np.random.default_rng(7), 7, 9, 400)],
    ids=["MM(4,6)", "two words", "seven pegs"],
)  # fmt: skip
def test_bit_sliced_counts_against_twin(game: Game) -> None:
    """Block by block, the secrets with ``v`` blacks (count_equal) and with ``v``
    blacks + whites (set_sums) are those the definition gives."""
    rng = np.random.default_rng(len(game.secrets))
    secrets = np.sort(rng.choice(len(game.secrets), size=min(150, len(game.secrets)),
                                 replace=False))
    sliced = bitsliced.slice_secrets(*game.secret_bits, secrets)
    assert sliced.n == len(secrets) and sliced.has_pos.shape[0] == (len(secrets) + 63) // 64
    eq = np.empty(8, dtype=np.uint64)
    for g in rng.choice(len(game.guesses), size=5, replace=False):
        pos_bits, cnt_bits = (np.array(b, dtype=np.int64)
                              for b in naive.bit_numbers(game.guesses[g].tolist(), game.colors))
        replies = [naive.feedback(game.guesses[g], game.secrets[s]) for s in secrets]
        for blk in range(sliced.has_pos.shape[0]):
            in_block = range(64 * blk, min(64 * blk + 64, len(secrets)))
            bitsliced.count_equal(sliced.has_pos, blk, pos_bits, game.pegs, np.uint64(0), eq)
            for v in range(8):
                assert ([int(eq[v]) >> (j % 64) & 1 for j in in_block]
                        == [replies[j][0] == v for j in in_block])
            bitsliced.set_sums(sliced.has_cnt, np.uint64(sliced.valid), blk, cnt_bits, game.pegs,
                               eq)
            for v in range(8):
                got = [j for j in range(64 * blk, 64 * blk + 64) if int(eq[v]) >> (j % 64) & 1]
                assert got == [j for j in in_block if sum(replies[j]) == v]


@pytest.mark.parametrize("i", range(len(GAMES)), ids=[name for name, _ in GAMES])
def test_partition_counts_against_twin(i: int) -> None:
    game = _game(i)
    guesses = [tuple(row) for row in game.guesses.tolist()]
    secrets = [tuple(row) for row in game.secrets.tolist()]
    got = scoring.partition_counts(game)
    assert got.shape == (len(guesses), game.n_replies) and got.dtype == np.int32
    assert np.array_equal(got, naive.partition_counts(guesses, secrets, game.pegs))
    assert (got.sum(axis=1) == len(secrets)).all()


@pytest.mark.parametrize("i", range(len(GAMES)), ids=[name for name, _ in GAMES])
@pytest.mark.parametrize("n_secrets", [0, 1, 3, 4, 5, 9])  # the one-word kernel works in fours
def test_partition_counts_of_index_subsets(i: int, n_secrets: int) -> None:
    game = _game(i)
    rng = np.random.default_rng(i * 10 + n_secrets)
    g_ix = rng.integers(0, len(game.guesses), size=5)  # repeats allowed
    s_ix = rng.integers(0, len(game.secrets), size=n_secrets)
    got = scoring.partition_counts(game, g_ix, s_ix)
    want = naive.partition_counts(
        [tuple(game.guesses[g]) for g in g_ix], [tuple(game.secrets[s]) for s in s_ix], game.pegs
    )
    assert np.array_equal(got, want)


def test_partition_counts_of_a_game_with_few_guesses() -> None:
    game = Game(3, 4, st.mastermind(3, 4).secrets, np.array([[0, 1, 2]], dtype=np.uint8))
    got = scoring.partition_counts(game, secrets=np.arange(len(game.secrets))[::-1].copy())
    want = naive.partition_counts([(0, 1, 2)], naive.mm_codes(3, 4), 3)
    assert np.array_equal(got, want)


def test_several_word_games_are_really_several_words() -> None:
    words = {name: n_words(_game(i).pegs, _game(i).colors) for i, (name, _) in enumerate(GAMES)}
    assert words["subset (4,16)"] == 1
    assert words["subset (5,13)"] == 2
    assert words["subset (9,26)"] == 4


@pytest.mark.parametrize(
    "call",
    [
        lambda g: feedback.replies(g, -1),
        lambda g: feedback.replies(g, 9),
        lambda g: feedback.replies(g, 0, np.array([0, 9])),
        lambda g: feedback.replies(g, 0, np.array([[0, 1]])),
        lambda g: scoring.partition_counts(g, np.array([-1])),
        lambda g: scoring.partition_counts(g, np.array([9])),
        lambda g: scoring.partition_counts(g, None, np.array([3, 100])),
        lambda g: scoring.partition_counts(g, np.array([[0, 1], [2, 3]])),
        lambda g: scoring.partition_counts(g, np.int64(3)),  # not 1-d
    ],
)
def test_bad_indices_raise_strategytree_error(call) -> None:
    with pytest.raises(StrategyTreeError):
        call(st.mastermind(2, 3))


@pytest.mark.parametrize(
    "call",
    [
        lambda g: scoring.partition_counts(g, np.array([0.5, 1.0])),
        lambda g: scoring.partition_counts(g, None, np.array([0.0, 2.0])),
        lambda g: scoring.partition_counts(g, ["a"]),
    ],
)
def test_non_integer_indices_raise_strategytree_error(call) -> None:
    with pytest.raises(StrategyTreeError):
        call(st.mastermind(2, 3))


def test_a_fractional_guess_index_raises_strategytree_error() -> None:
    with pytest.raises(StrategyTreeError):
        feedback.replies(st.mastermind(2, 3), 1.5)


def test_an_empty_list_of_secrets_is_zero_counts_or_a_clean_error() -> None:
    game = st.mastermind(2, 3)
    try:
        counts = scoring.partition_counts(game, secrets=[])
    except StrategyTreeError:
        return
    assert counts.shape == (9, game.n_replies) and not counts.any()


def test_lists_of_indices_are_accepted() -> None:
    game = st.mastermind(2, 3)
    got = scoring.partition_counts(game, [0, 4], [1, 2, 3])
    want = naive.partition_counts([(0, 0), (1, 1)], [(0, 1), (0, 2), (1, 0)], 2)
    assert np.array_equal(got, want)


PURE_PYTHON = textwrap.dedent(
    """
    import numpy as np
    import naive
    import strategytree as st
    from strategytree import feedback, scoring

    game = st.mastermind(2, 3)
    codes = naive.mm_codes(2, 3)
    assert feedback.replies(game, 5).tolist() == [
        naive.reply_code(naive.feedback(codes[5], s), 2) for s in codes
    ]
    assert np.array_equal(scoring.partition_counts(game), naive.partition_counts(codes, codes, 2))
    """
)


def test_kernels_run_as_plain_python_with_jit_disabled() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-c", PURE_PYTHON],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-1500:]


# -- scores and first_perfect: every kernel path against the twin -------------------------
@pytest.mark.parametrize("rule", ["minimax", "expected", "entropy", "parts"])
@pytest.mark.parametrize(
    "pegs, colors, n_secrets",
    [(1, 1, 1), (1, 5, 3), (3, 4, 10), (4, 6, 30), (4, 6, 300), (5, 8, 5), (5, 8, 200), (5, 8, 600),
     (9, 8, 40)],
)
def test_scores_match_the_twin(rule: str, pegs: int, colors: int, n_secrets: int) -> None:
    rng = np.random.default_rng(pegs * 100 + colors + n_secrets)
    if pegs * colors > 64:  # several words: a game built from random codes
        game = naive.subset_game(rng, pegs, colors, 300)
    else:
        game = st.mastermind(pegs, colors)
    secrets = np.sort(rng.choice(len(game.secrets), size=min(n_secrets, len(game.secrets)),
                                 replace=False))
    guesses = np.sort(rng.choice(len(game.guesses), size=min(60, len(game.guesses)), replace=False))
    got = scoring.scores(game, rule, guesses, secrets)
    assert got.tolist() == naive.scores(game, rule, guesses, secrets,
                                        scoring.nlogn_table(len(secrets)))
    # the many-guesses (threaded) path gives the same
    many = np.resize(guesses, 5000)
    assert scoring.scores(game, rule, many, secrets).tolist() == np.resize(got, 5000).tolist()


@pytest.mark.parametrize("pegs, colors, n_secrets", [(3, 4, 5), (4, 6, 8), (5, 8, 12), (2, 2, 3)])
def test_first_perfect_matches_the_twin(pegs: int, colors: int, n_secrets: int) -> None:
    game = st.mastermind(pegs, colors)
    rng = np.random.default_rng(n_secrets)
    secrets = np.sort(rng.choice(len(game.secrets), size=n_secrets, replace=False))
    assert scoring.first_perfect(game, None, secrets) == naive.first_perfect(game, secrets)


SCORES_PURE_PYTHON = textwrap.dedent(
    """
    import numpy as np
    import strategytree as st
    from strategytree import scoring

    game = st.mastermind(3, 3)
    secrets = np.arange(0, 27, 2)
    for rule in ("minimax", "expected", "entropy", "parts"):
        a = scoring.scores(game, rule, None, secrets)
        b = scoring.scores(game, rule, None, np.arange(27))
        assert len(a) == 27 and len(b) == 27
    assert scoring.first_perfect(game, None, np.array([0, 5, 13])) >= 0
    print("ok")
    """
)


def test_scoring_kernels_run_as_plain_python_with_jit_disabled() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run(
        [sys.executable, "-c", SCORES_PURE_PYTHON],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-1500:]


@pytest.mark.parametrize("n, n_replies", [(0, 4), (1, 4), (50, 9), (1000, 36)])
def test_group_by_reply_matches_a_sort(n: int, n_replies: int) -> None:
    rng = np.random.default_rng(n)
    replies = rng.integers(0, n_replies, size=n).astype(np.int8)
    groups = grouping.group_by_reply(replies, n_replies)
    want = [(r, [j for j in range(n) if replies[j] == r]) for r in range(n_replies - 1, -1, -1)]
    assert [(r, g.tolist()) for r, g in groups] == [(r, g) for r, g in want if g]


@pytest.mark.parametrize("seed", range(6))
def test_replies_met_matches_a_count(seed: int) -> None:
    """The different replies of a table, counted no further than a limit, against
    numpy's count; and a part of MM(4,5)'s secrets against the whole game's replies."""
    from strategytree.search.bounds import replies_met

    rng = np.random.default_rng(seed)
    codes = rng.choice(128, size=int(rng.integers(1, 40)), replace=False)
    fb = rng.choice(codes, size=(int(rng.integers(1, 30)), int(rng.integers(1, 30))))
    fb = fb.astype(np.int8)
    count = int(np.count_nonzero(np.bincount(fb.ravel(), minlength=128)))
    for most in (1, 2, 5, count, count + 1, 128):
        assert replies_met(fb, most) == min(count, most)
    game = st.mastermind(4, 5)
    part = np.sort(rng.choice(len(game.secrets), size=int(rng.integers(1, 40)), replace=False))
    table = feedback.table(game)[:, part]
    whole = len(game.possible_replies)
    assert replies_met(np.ascontiguousarray(table), whole) == len(np.unique(table))
