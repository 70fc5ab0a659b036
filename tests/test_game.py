"""Games: the presets against itertools, codes as text, sizes, and feedback
(the numpy path) against the naive twin."""

from __future__ import annotations

import math

import numpy as np
import pytest

import strategytree as st
from strategytree.errors import CodeError, GameError, StrategyTreeError
from strategytree.feedback import encode, n_words, replies_numpy
from strategytree.game import Game, all_codes, check_size

import naive

random_codes, subset_game = naive.random_codes, naive.subset_game

SMALL_SIZES = [(1, 1), (1, 4), (2, 1), (2, 3), (3, 2), (3, 4), (4, 3), (4, 6), (2, 10)]


# -- presets ---------------------------------------------------------------------
@pytest.mark.parametrize("pegs, colors", SMALL_SIZES + [(5, 5), (6, 2)])
def test_mastermind_is_every_code_in_code_order(pegs: int, colors: int) -> None:
    game = st.mastermind(pegs, colors)
    expected = naive.mm_codes(pegs, colors)
    assert [tuple(row) for row in game.secrets.tolist()] == expected
    assert [tuple(row) for row in game.guesses.tolist()] == expected
    assert game.secrets.dtype == np.uint8 and game.secrets.shape == (len(expected), pegs)
    # code order is the order of the written codes
    texts = [game.code_text(row) for row in game.secrets]
    assert texts == sorted(texts)


@pytest.mark.parametrize("pegs, colors",
                         [(1, 1), (1, 5), (2, 2), (2, 5), (3, 3), (4, 6), (4, 8), (5, 7)])
@pytest.mark.parametrize("distinct_guesses", [False, True])
def test_distinct_against_permutations(pegs: int, colors: int, distinct_guesses: bool) -> None:
    game = st.distinct(pegs, colors, distinct_guesses=distinct_guesses)
    expected = naive.distinct_codes(pegs, colors)
    assert len(expected) == math.perm(colors, pegs)
    assert [tuple(row) for row in game.secrets.tolist()] == expected
    guesses = expected if distinct_guesses else naive.mm_codes(pegs, colors)
    assert [tuple(row) for row in game.guesses.tolist()] == guesses


def test_presets_defaults_are_classic_mastermind() -> None:
    game = st.mastermind()
    assert (game.pegs, game.colors, len(game.secrets)) == (4, 6, 6**4)
    game = st.distinct()
    assert (game.pegs, game.colors, len(game.secrets), len(game.guesses)) == (4, 6, 360, 1296)


def test_a_game_says_how_it_is_shown_not_by_its_name() -> None:
    bulls = st.presets.bulls_and_cows()
    assert (bulls.symbols, bulls.reply_words) == ("digits", st.game.BULLS_AND_COWS)
    assert (st.mastermind().symbols, st.mastermind().reply_words) == (
        "letters", st.game.BLACK_AND_WHITE)
    assert st.presets.bagel().symbols == "digits" and st.game.black_only().scoring == "black-only"
    codes = all_codes(2, 3)
    renamed = Game(2, 3, codes, codes, name="bulls-and-cows")  # a name alone changes nothing
    assert (renamed.symbols, renamed.reply_words) == ("letters", st.game.BLACK_AND_WHITE)
    with pytest.raises(GameError, match="digits"):
        Game(2, 11, all_codes(2, 11), all_codes(2, 11), symbols="digits")
    with pytest.raises(GameError, match="symbols"):
        Game(2, 3, codes, codes, symbols="runes")


# -- sizes -------------------------------------------------------------------------
@pytest.mark.parametrize("pegs, colors",
                         [(0, 6), (10, 6), (-1, 6), (4, 0), (4, 27), (4, -3), (4.0, 6), (4, "6")])
def test_check_size_rejects(pegs, colors) -> None:
    with pytest.raises(GameError):
        check_size(pegs, colors)
    with pytest.raises(GameError):
        st.mastermind(pegs, colors)


@pytest.mark.parametrize("pegs, colors",
                         [(1, 1), (9, 1), (1, 26), (9, 26), (np.int64(4), np.int8(6))])
def test_check_size_accepts(pegs, colors) -> None:
    check_size(pegs, colors)


@pytest.mark.parametrize(
    "make",
    [
        lambda: st.mastermind(9, 26),
        lambda: st.mastermind(6, 18),  # 18**6 is just over 2**25
        lambda: st.distinct(9, 26),
        lambda: st.distinct(8, 20),
        lambda: st.distinct(5, 4),  # more pegs than colours
        lambda: all_codes(7, 13),
    ],
)
def test_too_many_codes_is_a_game_error(make) -> None:
    with pytest.raises(GameError) as info:
        make()
    assert isinstance(info.value, StrategyTreeError)
    assert isinstance(info.value, ValueError)


# -- the Game constructor -------------------------------------------------------------
@pytest.mark.parametrize(
    "secrets",
    [
        [[0, 1], [0, 0]],  # not in code order
        [[0, 1], [0, 1]],  # repeated
        [[0, 3]],  # colour beyond the palette
        [[0, 1, 2]],  # wrong number of pegs
        np.zeros((0, 2), dtype=np.uint8),  # empty
        [0, 1],  # not 2-d
    ],
)
def test_game_rejects_bad_tables(secrets) -> None:
    with pytest.raises(GameError):
        Game(2, 3, np.array(secrets), np.array([[0, 0]]))
    with pytest.raises(GameError):
        Game(2, 3, np.array([[0, 0]]), np.array(secrets))


def test_game_tables_are_read_only() -> None:
    game = st.mastermind(2, 3)
    with pytest.raises(ValueError):
        game.secrets[0, 0] = 1


# -- codes as text -----------------------------------------------------------------
@pytest.mark.parametrize("pegs, colors", SMALL_SIZES + [(3, 26)])
def test_parse_code_and_code_text_round_trip(pegs: int, colors: int) -> None:
    game = st.mastermind(pegs, colors)
    for row in naive.mm_codes(pegs, colors):
        letters = naive.text(row)
        assert game.code_text(np.array(row, dtype=np.uint8)) == letters
        assert tuple(game.parse_code(letters).tolist()) == row
        assert tuple(game.parse_code(letters.lower()).tolist()) == row
    codes = [naive.text(row) for row in naive.mm_codes(pegs, colors)][:50]
    assert game.parse_codes(codes).tolist() == [list(naive.code(c)) for c in codes]


@pytest.mark.parametrize("text", ["", "A", "ABC", "AD", "A1", "A-", "ZZ", "A\x00", "AÄ", "A B"])
def test_parse_code_errors(text: str) -> None:
    game = st.mastermind(2, 3)
    with pytest.raises(CodeError) as info:
        game.parse_code(text)
    assert isinstance(info.value, StrategyTreeError)


def test_parse_code_rejects_non_ascii_letters_that_upper_case_to_two() -> None:
    game = st.mastermind(2, 19)
    with pytest.raises(CodeError):
        game.parse_code("ß")


def test_reply_and_reply_code() -> None:
    for pegs in range(1, 10):
        game = st.Game(pegs, 1, np.zeros((1, pegs), np.uint8), np.zeros((1, pegs), np.uint8))
        assert game.n_replies == (pegs + 1) ** 2
        assert game.win == naive.reply_code((pegs, 0), pegs)
        for b in range(pegs + 1):
            for w in range(pegs + 1 - b):
                code = game.reply_code((b, w))
                assert code == naive.reply_code((b, w), pegs)
                assert game.reply(code) == (b, w) and str(game.reply(code)) == f"{b}{w}"
        with pytest.raises(CodeError):
            game.reply_code((pegs + 1, 0))


# -- feedback --------------------------------------------------------------------------
FEEDBACK_SIZES = [
    (1, 1), (1, 2), (1, 26), (2, 1), (5, 1), (9, 1), (2, 3), (4, 6), (5, 8),
    (4, 16),  # 64 bits: exactly one word
    (5, 13),  # 65 bits: two words
    (6, 11), (7, 10), (8, 9), (9, 9), (3, 26), (9, 26),  # 234 bits: four words
]


@pytest.mark.parametrize("pegs, colors", FEEDBACK_SIZES)
def test_feedback_against_twin(pegs: int, colors: int) -> None:
    rng = np.random.default_rng(pegs * 100 + colors)
    game = subset_game(rng, pegs, colors, 120)
    secrets = random_codes(rng, 150, pegs, colors)
    for guess in random_codes(rng, 25, pegs, colors):
        got = game.feedback(guess, secrets)
        want = [naive.reply_code(naive.feedback(guess, s), pegs) for s in secrets]
        assert got.tolist() == want
        # one secret as a 1-d row gives a plain int
        one = game.feedback(guess, secrets[0])
        assert isinstance(one, int) and one == want[0]
        assert game.feedback(guess, guess) == game.win


@pytest.mark.parametrize("pegs, colors", FEEDBACK_SIZES)
def test_bit_encoding_against_twin(pegs: int, colors: int) -> None:
    rng = np.random.default_rng(pegs * 1000 + colors)
    guesses = random_codes(rng, 30, pegs, colors)
    secrets = random_codes(rng, 30, pegs, colors)
    gpos, gcnt = encode(guesses, colors)
    spos, scnt = encode(secrets, colors)
    assert gpos.shape == (30, n_words(pegs, colors)) and gpos.dtype == np.uint64
    got = replies_numpy(gpos[:, None, :], gcnt[:, None, :], spos[None], scnt[None], pegs)
    want = [[naive.reply_code(naive.feedback(g, s), pegs) for s in secrets] for g in guesses]
    assert got.tolist() == want


def test_many_codes_are_encoded_block_by_block_as_one_by_one() -> None:
    codes = all_codes(6, 6)  # 46,656 codes: blocks of encoding end inside them
    pos, cnt = encode(codes, 6)
    rng = np.random.default_rng(7)
    rows = np.concatenate([np.arange(16_380, 16_390), rng.integers(0, len(codes), 40)])
    for k in rows.tolist():
        want_pos, want_cnt = naive.bit_numbers(codes[k].tolist(), 6)
        bits = np.flatnonzero(np.unpackbits(pos[k].view(np.uint8), bitorder="little"))
        assert bits.tolist() == sorted(want_pos), k
        bits = np.flatnonzero(np.unpackbits(cnt[k].view(np.uint8), bitorder="little"))
        assert bits.tolist() == sorted(want_cnt), k


@pytest.mark.parametrize("pegs, colors", [(3, 4), (6, 6)])  # 64 guesses; 46,656 (some encoded)
def test_pair_replies_against_twin(pegs: int, colors: int) -> None:
    game = st.mastermind(pegs, colors)
    rng = np.random.default_rng(pegs)
    guesses = rng.integers(0, len(game.guesses), 5).repeat(20)
    secrets = rng.integers(0, len(game.secrets), 100)
    got = game.pair_replies(guesses, secrets)
    want = [naive.reply_code(naive.feedback(game.guesses[g].tolist(), game.secrets[s].tolist()),
                             pegs) for g, s in zip(guesses.tolist(), secrets.tolist())]
    assert got.tolist() == want


def test_feedback_knuth_examples() -> None:
    game = st.mastermind(4, 6)
    pairs = [("AABB", "ABBA", (2, 2)), ("AAAA", "ABCD", (1, 0)), ("ABCD", "DCBA", (0, 4)),
             ("AABC", "CCAA", (0, 3)), ("FFFF", "ABCD", (0, 0))]
    for guess, secret, reply in pairs:
        assert naive.feedback(guess, secret) == reply
        got = game.feedback(game.parse_code(guess), game.parse_code(secret))
        assert game.reply(got) == reply


@pytest.mark.parametrize("pegs, colors",
                         [(1, 1), (1, 3), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3), (4, 3), (3, 5)])
def test_possible_replies_mastermind(pegs: int, colors: int) -> None:
    game = st.mastermind(pegs, colors)
    codes = naive.mm_codes(pegs, colors)
    assert game.possible_replies == naive.possible_replies(codes, codes, pegs)


@pytest.mark.parametrize("pegs, colors", [(1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5)])
@pytest.mark.parametrize("distinct_guesses", [False, True])
def test_possible_replies_distinct(pegs: int, colors: int, distinct_guesses: bool) -> None:
    game = st.distinct(pegs, colors, distinct_guesses=distinct_guesses)
    secrets = naive.distinct_codes(pegs, colors)
    guesses = secrets if distinct_guesses else naive.mm_codes(pegs, colors)
    assert game.possible_replies == naive.possible_replies(guesses, secrets, pegs)


@pytest.mark.parametrize("seed", range(4))
def test_possible_replies_custom_game(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pegs, colors = int(rng.integers(1, 6)), int(rng.integers(1, 8))
    game = subset_game(rng, pegs, colors, 12)
    assert game.possible_replies == naive.possible_replies(
        game.guesses.tolist(), game.secrets.tolist(), pegs
    )


def _replies_by_columns(guesses: np.ndarray, secrets: np.ndarray, colors: int) -> set[int]:
    """The naive definition evaluated for all pairs with numpy, a block of
    guesses at a time (the pure-Python twin is too slow for thousands of guesses)."""
    pegs = secrets.shape[1]
    count_s = (secrets[:, :, None] == np.arange(colors)).sum(axis=1).astype(np.int8)
    count_g = (guesses[:, :, None] == np.arange(colors)).sum(axis=1).astype(np.int8)
    block = max(1, 2_000_000 // (len(secrets) * colors))
    seen: set[int] = set()
    for start in range(0, len(guesses), block):
        g = guesses[start : start + block]
        black = (g[:, None, :] == secrets[None, :, :]).sum(axis=-1)
        both = np.minimum(count_g[start : start + block, None, :], count_s[None]).sum(axis=-1)
        seen.update(np.unique(black * (pegs + 1) + both - black).tolist())
    return seen


@pytest.mark.parametrize(
    "make",
    [
        lambda: st.distinct(5, 6),  # 7,776 guesses, closed under renaming colours: the shortcut
        # more than 4,096 guesses but not closed under renaming: every guess counts
        lambda: Game(3, 17, all_codes(3, 17)[::50], all_codes(3, 17)[1:]),
    ],
)
def test_possible_replies_large_games(make) -> None:
    game = make()
    assert len(game.guesses) > 4096
    want = _replies_by_columns(game.guesses, game.secrets, game.colors)
    assert game.possible_replies == want


# -- lookups ------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [lambda: st.distinct(3, 4), lambda: st.mastermind(3, 3),
                                  lambda: st.distinct(2, 5)])
def test_secret_and_guess_index(make) -> None:
    game = make()
    everything = all_codes(game.pegs, game.colors)
    secrets = {tuple(row): i for i, row in enumerate(game.secrets.tolist())}
    guesses = {tuple(row): i for i, row in enumerate(game.guesses.tolist())}
    want_s = [secrets.get(tuple(row), -1) for row in everything.tolist()]
    want_g = [guesses.get(tuple(row), -1) for row in everything.tolist()]
    assert game.secret_index(everything).tolist() == want_s
    assert game.guess_index(everything).tolist() == want_g
    # one code as a 1-d row
    row = everything[-1]
    assert game.secret_index(row).tolist() == [want_s[-1]]


def test_secret_index_of_custom_game() -> None:
    rng = np.random.default_rng(7)
    game = subset_game(rng, 9, 9, 300)
    probe = np.concatenate([game.secrets[::3], random_codes(rng, 100, 9, 9)])
    table = {tuple(row): i for i, row in enumerate(game.secrets.tolist())}
    assert game.secret_index(probe).tolist() == [table.get(tuple(r), -1) for r in probe.tolist()]


@pytest.mark.parametrize("colors, row", [(6, [0, 6]), (3, [0, 0, 1]), (3, [2])])
def test_secret_index_of_a_code_outside_the_game_is_minus_one(colors: int, row: list[int]) -> None:
    game = st.mastermind(2, colors)
    code = np.array(row, dtype=np.uint8)
    assert game.secret_index(code).tolist() == [-1]
    assert game.guess_index(code).tolist() == [-1]


# -- a part of a game's secrets --------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda: st.mastermind(3, 4),
    lambda: st.distinct(3, 5, distinct_guesses=False),
    lambda: st.game.custom(2, 3, lambda g, s: (sum(g) > sum(s)) - (sum(g) < sum(s))),
], ids=["mastermind", "distinct", "custom"])
def test_a_part_is_the_game_over_those_secrets(make) -> None:
    """:meth:`Game.part` against the game made again with those secrets (checked)."""
    from dataclasses import replace

    from strategytree.feedback import table

    game = make()
    worked_out = (game.guess_bits, game.secret_bits, game.possible_replies, game.symmetric)
    assert worked_out[3] is (game.table is None)  # (the custom game alone is not symmetric)
    S = np.flatnonzero(np.random.default_rng(7).random(len(game.secrets)) < 0.3)
    part = game.part(S, "a part")
    twin = replace(game, secrets=game.secrets[S], name="a part",
                   table=None if game.table is None else game.table[:, S])
    assert np.array_equal(part.secrets, twin.secrets) and not part.secrets.flags.writeable
    assert part.guess_bits is game.guess_bits  # (shared, not worked out again)
    assert np.array_equal(table(part), table(twin))
    assert part.symmetric == twin.symmetric is False
    assert part.possible_replies == twin.possible_replies
    assert part.digest == twin.digest != game.digest
    assert np.array_equal(part.guess_index(part.secrets), twin.guess_index(twin.secrets))
    assert len(game.secrets) > len(part.secrets)  # (the game itself is untouched)
