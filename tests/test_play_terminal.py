"""``strategytree play`` end to end: the installed console program in a pseudo-terminal."""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

import pytest

from strategytree.game import mastermind
from strategytree.play import draw_secret

import naive

pexpect = pytest.importorskip("pexpect")

PROGRAM = Path(sys.executable).with_name("strategytree")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _spawn(*args: str):
    if not PROGRAM.exists():
        pytest.skip(f"the console program is not installed beside {sys.executable}")
    # Ctrl-C must reach the program even when this test runs in a background
    # job, whose children inherit SIGINT ignored
    child = pexpect.spawn(str(PROGRAM), list(args), encoding="utf-8", timeout=60,
                          dimensions=(40, 200), preexec_fn=_default_sigint)
    return child


def test_the_computer_breaks_a_known_secret() -> None:
    secret = naive.code("DCAF")
    child = _spawn("play", "--rule", "entropy")
    child.expect("Think of a secret")
    child.expect(r"reply to (\w+)> ")
    child.sendline("5 5")  # refused with a reason
    child.expect("more key pegs than the 4 pegs")
    turns = 0
    while True:
        child.expect([r"reply to (\w+)> ",
                      r"Solved: your secret is (\w+), found in (\d+) guesses?\."])
        if child.match.group(0).startswith("Solved"):
            break
        turns += 1
        black, white = naive.feedback(naive.code(child.match.group(1)), secret)
        child.sendline(f"b{black} w{white}")
    assert child.match.group(1) == "DCAF"
    assert int(child.match.group(2)) == turns
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_you_break_a_seeded_secret() -> None:
    game = mastermind(4, 6)
    secret = game.code_text(game.secrets[draw_secret(game, 7)])
    child = _spawn("play", "--breaker", "you", "--seed", "7", "--hints")
    child.expect(r"guess 1> ")
    child.sendline("ABCX")
    child.expect(r"'X' is not a colour of the game \(A\.\.F\)")
    child.expect(r"guess 1> ")
    child.sendline("ABCD" if secret != "ABCD" else "AAAA")
    child.expect(r"\d+ secrets? fits?")
    child.expect(r"guess 2> ")
    child.sendline(secret)
    child.expect(rf"solved! The secret is {secret}; you found it in 2 guesses\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("how", ["eof", "interrupt"])
def test_ending_early_is_clean(how: str) -> None:
    child = _spawn("play", "--breaker", "you", "--seed", "1")
    child.expect(r"guess 1> ")
    if how == "eof":
        child.sendeof()
    else:
        child.sendintr()
    child.expect(pexpect.EOF)
    output = child.before
    child.close()
    assert "Traceback" not in output
    assert re.search(r"game stopped|interrupted", output)
    assert child.exitstatus == (1 if how == "eof" else 130)
