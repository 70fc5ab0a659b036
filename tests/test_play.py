"""Playing one game: replies and guesses as typed, contradictions, the adversary,
and ``strategytree play`` through CliRunner."""

from __future__ import annotations

import re

import numpy as np
import pytest
from typer.testing import CliRunner

import strategytree as st
from strategytree.builders import GreedyChooser
from strategytree.cli import app
from strategytree.play import (
    Alphabet,
    Contradiction,
    Knowledge,
    RuleBreaker,
    StrategyBreaker,
    adversary_game,
    adversary_reply,
    alphabet_for,
    computer_breaks,
    draw_secret,
    guess_index,
    parse_reply,
    reply_words,
    you_break,
)
from strategytree.presets import preset
from strategytree.simulate import simulate

import naive

MM46 = st.mastermind(4, 6)
runner = CliRunner()


# -- replies and guesses as typed ---------------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["1 2", "12", "1,2", "1/2", "b1 w2", "w2 b1", "b1w2", "1b 2w", "1b2w", "B1 W2",
     "1 black 2 white", "1 bull 2 cows", "black 1, white 2", "\ufeff12"],  # (a BOM: piped)
)
def test_reply_forms(text: str) -> None:
    assert MM46.reply(parse_reply(MM46, text)) == (1, 2)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "type blacks and whites"),
        ("3", "type blacks and whites"),
        ("1 2 3", "type blacks and whites"),
        ("x1", "type blacks and whites"),
        ("b1 b2", "blacks twice"),
        ("3 1", "the last peg cannot be misplaced alone"),
        ("2 3", "more than the 4 pegs"),
        ("5 0", "more key pegs than the 4 pegs"),
    ],
)
def test_bad_replies_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(st.CodeError, match=reason):
        parse_reply(MM46, text)


def test_win_and_black_only_replies() -> None:
    assert parse_reply(MM46, "4 0") == parse_reply(MM46, "win") == MM46.win
    black_only = preset("black-only")
    assert black_only.reply(parse_reply(black_only, "2")) == (2, 0)
    with pytest.raises(st.CodeError, match="only blacks are told"):
        parse_reply(black_only, "1 2")


def test_reply_of_a_table_game() -> None:
    game = st.game.custom(1, 3, lambda g, s: (g > s) - (g < s))
    assert parse_reply(game, "02") == 2
    with pytest.raises(st.CodeError):
        parse_reply(game, "07")


def test_words_and_symbols_come_from_the_game() -> None:
    codes = st.game.all_codes(2, 3)
    shown_as_digits = st.Game(2, 3, codes, codes, name="two of three", symbols="digits",
                              reply_words=st.game.BULLS_AND_COWS)
    assert alphabet_for(shown_as_digits) == Alphabet(True)
    assert reply_words(shown_as_digits, shown_as_digits.reply_code((1, 0))) == "1 bull, 0 cows"
    assert reply_words(MM46, MM46.reply_code((1, 2))) == "1 black, 2 white"
    assert reply_words(preset("black-only"), 10) == "2 black"


def test_guesses_as_typed() -> None:
    bulls = preset("bulls-and-cows")
    digits = alphabet_for(bulls)
    assert digits == Alphabet(True) and alphabet_for(MM46) == Alphabet(False)
    assert digits.text(bulls, guess_index(bulls, "0123", digits)) == "0123"
    assert guess_index(bulls, "ABCD", digits) == guess_index(bulls, "0 1 2 3", digits)
    with pytest.raises(st.CodeError, match="repeats a colour"):
        guess_index(bulls, "0012", digits)
    with pytest.raises(st.CodeError, match="has 5 pegs"):
        guess_index(MM46, "ABCDE")
    with pytest.raises(st.CodeError, match="'G' is not a colour"):
        guess_index(MM46, "ABCG")
    with pytest.raises(st.CodeError, match="colours are the letters"):
        guess_index(MM46, "1234")
    with pytest.raises(st.StrategyTreeError, match="cannot be written as digits"):
        alphabet_for(st.mastermind(2, 12), "digits")


# -- what the replies leave ------------------------------------------------------------
def test_impossible_reply_for_the_guess_is_refused() -> None:
    known = Knowledge(MM46)
    with pytest.raises(st.CodeError,
                       match="no secret can reply 13 to AAAA; it can get only 00, 10, 20, 30"):
        known.add(guess_index(MM46, "AAAA"), MM46.reply_code((1, 3)))
    assert known.history == [] and len(known.candidates) == 1296


def test_candidates_are_the_secrets_that_fit() -> None:
    known = Knowledge(MM46)
    moves = [("AABB", (1, 1)), ("ABCD", (0, 2))]
    for guess, reply in moves:
        known.add(guess_index(MM46, guess), MM46.reply_code(reply))
    expected = [
        naive.text(s) for s in naive.mm_codes(4, 6)
        if all(naive.feedback(naive.code(g), s) == r for g, r in moves)
    ]
    assert [MM46.code_text(MM46.secrets[s]) for s in known.candidates] == expected
    assert known.undo() and len(known.history) == 1
    assert len(known.candidates) == sum(naive.feedback(naive.code("AABB"), s) == (1, 1)
                                        for s in naive.mm_codes(4, 6))


def _truthful(secret: str, guesses: list[str]) -> list[tuple[int, int]]:
    return [(guess_index(MM46, g),
             naive.reply_code(naive.feedback(naive.code(g), naive.code(secret)), 4))
            for g in guesses]


def test_a_wrong_reply_is_found() -> None:
    moves = _truthful("ABCD", ["AABB", "CCDE", "BFCD", "ACBD"])
    truth = moves[1][1]
    assert MM46.reply(truth) == (0, 2)
    moves[1] = (moves[1][0], MM46.reply_code((0, 1)))
    known = Knowledge(MM46)
    with pytest.raises(Contradiction) as caught:
        for guess, reply in moves:
            known.add(guess, reply)
    assert "no secret fits all your replies" in str(caught.value)
    assert len(known.history) == caught.value.fitting_turns  # nothing recorded past them
    suspects = {s.turn: s for s in caught.value.suspects}
    assert 2 in suspects
    # with the true reply to guess 2, ABCD fits
    assert truth in suspects[2].alternatives
    # each suspect: dropping it leaves secrets (the plain way)
    for s in caught.value.suspects:
        rest = [m for i, m in enumerate(moves[: caught.value.fitting_turns + 1]) if i != s.turn - 1]
        fits = [c for c in naive.mm_codes(4, 6)
                if all(naive.reply_code(naive.feedback(MM46.guesses[g].tolist(), c), 4) == r
                       for g, r in rest)]
        assert len(fits) == sum(s.alternatives.values())


def test_two_wrong_replies_name_the_last_that_fit() -> None:
    game = st.mastermind(2, 3)
    known = Knowledge(game)
    known.add(guess_index(game, "AA"), game.reply_code((1, 0)))
    known.add(guess_index(game, "AB"), game.reply_code((1, 0)))  # AC left
    with pytest.raises(Contradiction) as caught:
        known.add(guess_index(game, "BB"), game.reply_code((1, 0)))
    assert caught.value.fitting_turns == 2
    assert "must be wrong" in str(caught.value)


# -- the adversary ---------------------------------------------------------------------
def _plain_adversary(guess: tuple, candidates: list[tuple], pegs: int) -> tuple[int, int]:
    """Seed 003's "best evaluation": the reply keeping the most candidates;
    ties: not the win, then the lowest (black, white)."""
    parts: dict = {}
    for c in candidates:
        reply = naive.feedback(guess, c)
        parts[reply] = parts.get(reply, 0) + 1
    return max(parts, key=lambda r: (parts[r], r[0] != pegs, -naive.reply_code(r, pegs)))


def test_adversary_keeps_the_largest_part() -> None:
    rng = np.random.default_rng(6)
    codes = naive.mm_codes(4, 6)
    for size in (1, 2, 3, 5, 40, 1296):
        for _ in range(8):
            chosen = np.sort(rng.choice(1296, size=size, replace=False))
            guess = int(rng.integers(1296)) if size > 3 else int(chosen[0])
            got = adversary_reply(MM46, guess, chosen)
            want = _plain_adversary(codes[guess], [codes[c] for c in chosen], 4)
            assert MM46.reply(got) == want


def test_adversary_game_against_minimax_is_seed_003s_worst_case() -> None:
    outcome = adversary_game(MM46, RuleBreaker(GreedyChooser(MM46, "minimax")))
    assert outcome.solved and outcome.guesses == 5  # "always solvable in five (or fewer)"


# -- the interactive games with a script ---------------------------------------------
class Script:
    """A terminal that types the given lines and keeps what was said."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        self.said.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.said.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


def _moves_against(game: st.Game, chooser: GreedyChooser, secret: str) -> list[tuple[int, int]]:
    index = int(game.secret_index(game.parse_code(secret))[0])
    return simulate(game, chooser, np.array([index])).games[0].moves


def test_computer_breaks_with_typed_replies() -> None:
    moves = _moves_against(MM46, GreedyChooser(MM46, "minimax"), "ABCD")
    lines = ["3 1", "hello"] + [f"b{MM46.reply(r).black} w{MM46.reply(r).white}" for _, r in moves]
    script = Script(lines)
    outcome = computer_breaks(MM46, RuleBreaker(GreedyChooser(MM46, "minimax")), script)
    assert outcome.solved and outcome.secret == "ABCD" and outcome.guesses == len(moves)
    assert "the last peg cannot be misplaced alone" in script.text
    assert f"Solved: your secret is ABCD, found in {len(moves)} guesses." in script.text


def test_computer_breaks_then_undo_and_quit() -> None:
    script = Script(["1 1", "0 0", "undo", "1 1", "quit"])
    outcome = computer_breaks(MM46, RuleBreaker(GreedyChooser(MM46, "minimax")), script)
    assert not outcome.solved and outcome.guesses == 2
    assert "took back the reply to guess 2" in script.text


class Truthful(Script):
    """A code-maker who replies truly for ``secret`` to each guess asked about."""

    def __init__(self, secret: str) -> None:
        super().__init__([])
        self.secret = naive.code(secret)

    def ask(self, prompt: str) -> str:
        self.said.append(prompt)
        guess = re.fullmatch(r"reply to (\w+)> ", prompt).group(1)
        black, white = naive.feedback(naive.code(guess), self.secret)
        return f"{black} {white}"


def test_strategy_breaker_follows_the_file_and_falls_back() -> None:
    game = st.mastermind(2, 3)
    strategy = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,00:CC}}")
    chooser = GreedyChooser(game, "minimax")
    # secret CA: AB gets 01, which the file does not cover
    script = Truthful("CA")
    outcome = computer_breaks(game, StrategyBreaker(strategy, game, chooser), script)
    assert outcome.solved and outcome.secret == "CA"
    assert outcome.moves[0][0] == guess_index(game, "AB")
    assert "no branch for reply 01 to AB; going on with the minimax rule" in script.text
    # a secret the file covers is played as written
    script = Truthful("AA")
    outcome = computer_breaks(game, StrategyBreaker(strategy, game, chooser), script)
    assert [game.code_text(game.guesses[g]) for g, _ in outcome.moves] == ["AB", "AC", "AA"]


def test_every_secret_is_found_with_truthful_replies() -> None:
    game = st.mastermind(3, 3)
    chooser = GreedyChooser(game, "entropy")
    for secret in naive.mm_codes(3, 3):
        outcome = computer_breaks(game, RuleBreaker(chooser), Truthful(naive.text(secret)))
        assert outcome.solved and outcome.secret == naive.text(secret)


def test_you_break_a_drawn_secret() -> None:
    secret = draw_secret(MM46, 11)
    assert secret == draw_secret(MM46, 11)
    text = MM46.code_text(MM46.secrets[secret])
    wrong = "AAAA" if text != "AAAA" else "BBBB"
    script = Script([wrong, "ABC", "ABCG", text.lower()])
    outcome = you_break(MM46, script, secret=secret, hints=True)
    assert outcome.solved and outcome.guesses == 2
    assert "has 3 pegs" in script.text and "'G' is not a colour" in script.text
    assert "secrets fit" in script.text or "secret fits" in script.text
    assert f"The secret is {text}; you found it in 2 guesses." in script.text


def test_you_break_against_the_adversary() -> None:
    game = st.mastermind(2, 3)
    script = Script(["AB", "CC", "BA", "CA", "AC", "BC", "CB", "AA", "BB"])
    outcome = you_break(game, script, secret=None, hints=True)
    assert outcome.solved
    known = Knowledge(game)
    for g, r in outcome.moves[:-1]:
        assert r == adversary_reply(game, g, known.candidates)
        known.add(g, r)


# -- the command line ------------------------------------------------------------------
def test_cli_play_as_code_maker() -> None:
    moves = _moves_against(MM46, GreedyChooser(MM46, "minimax"), "CAFE")
    replies = "".join(f"{MM46.reply(r)}\n" for _, r in moves)
    result = runner.invoke(app, ["play", "--rule", "minimax"], input="2 3\n" + replies)
    assert result.exit_code == 0, result.output
    assert "more than the 4 pegs" in result.output
    assert f"Solved: your secret is CAFE, found in {len(moves)} guesses." in result.output


def test_cli_play_as_breaker_in_digits() -> None:
    game = preset("bulls-and-cows")
    secret = game.secrets[draw_secret(game, 4)]
    digits = "".join(str(int(x)) for x in secret)
    result = runner.invoke(
        app, ["play", "--breaker", "you", "--game", "bulls-and-cows", "--seed", "4", "--hints"],
        input=f"1123\n{digits}\n",
    )
    assert result.exit_code == 0, result.output
    assert "colours 0..9" in result.output
    assert "1123 repeats a colour" in result.output
    assert f"The secret is {digits}; you found it in 1 guess." in result.output


def test_cli_play_contradiction_and_end_of_input() -> None:
    result = runner.invoke(app, ["play", "--pegs", "2", "--colors", "3", "--rule", "minimax"],
                           input="1 0\n1 0\n1 0\n1 0\n")
    assert result.exit_code == 1, result.output
    assert "no secret fits all your replies" in result.output
    assert "game stopped" in result.output and "Traceback" not in result.output


def test_cli_play_adversary_and_errors(tmp_path) -> None:
    result = runner.invoke(app, ["play", "--adversary", "--rule", "minimax"])
    assert result.exit_code == 0 and "held out for 5 guesses" in result.output
    path = tmp_path / "s.txt"
    path.write_text("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
    result = runner.invoke(app, ["play", "--adversary", "--strategy", str(path)])
    assert result.exit_code == 0 and re.search(r"held out for 3 guesses", result.output)
    result = runner.invoke(app, ["play", "--rule", "nonsense"])
    assert result.exit_code == 2 and "'nonsense' is not one of 'entropy'" in result.output
    result = runner.invoke(app, ["play", "--breaker", "you", "--strategy", str(path)])
    assert result.exit_code == 2
