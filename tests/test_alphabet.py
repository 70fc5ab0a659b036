"""One alphabet, one reply syntax (issue 13, point 4): the installed command on real files.

A game's alphabet (digits for Bulls and Cows and Bagel, letters otherwise) is
used for every code in and out: ``--first``, ``--secret``, ``--path``, the CSV
and HTML guides, ``simulate --csv`` and ``play``.  A digits game reads codes in
letters too (``ABC`` is ``012``); a code mixing both is refused in one line.
Replies are read as ``12``, ``1 2`` and ``b1 w2`` everywhere.  Strategy files
keep letters.  The expectations are spelled here independently (colour ``k``
is the digit ``k`` and the letter ``chr(65 + k)``), never by the code under test.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import subprocess
from pathlib import Path

import pytest

MM23 = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}\n"
BAGEL = ["--game", "bagel"]


def run(console_script: list[str], *args: str | Path, cwd: Path, stdin: str | None = None):
    """Run the installed ``strategytree`` with ``args`` in ``cwd``."""
    return subprocess.run(
        [*console_script, *map(str, args)], capture_output=True, text=True, cwd=cwd,
        input=stdin, timeout=300,
    )


def one_error(done: subprocess.CompletedProcess, *words: str) -> None:
    """The run was refused with exit 2 and one ``error:`` line holding ``words``."""
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    assert "Traceback" not in done.stderr and "None" not in lines[0]
    for word in words:
        assert word in lines[0], lines[0]


def as_letters(digits: str) -> str:
    """The twin of the spelling: colour k as the letter chr(65 + k)."""
    return "".join(chr(65 + int(d)) for d in digits)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory, console_script: list[str]) -> Path:
    """A folder with ``bagel.txt`` (a Bagel strategy opening with 345) and ``mm23.txt``."""
    here = tmp_path_factory.mktemp("alphabet")
    (here / "mm23.txt").write_text(MM23)
    done = run(console_script, "generate", *BAGEL, "--first", "345", "-o", "bagel.txt", cwd=here)
    assert done.returncode == 0, done.stderr
    return here


# -- --first: in the game's alphabet, letters accepted too; files keep letters ------------
def test_first_in_digits_or_letters_builds_the_same_file(folder: Path, console_script) -> None:
    text = (folder / "bagel.txt").read_text()
    assert text.startswith("{" + as_letters("345") + ":")  # the file is in letters
    done = run(console_script, "generate", *BAGEL, "--first", "def", "-o", "letters.txt",
               cwd=folder)
    assert done.returncode == 0, done.stderr
    assert (folder / "letters.txt").read_text() == text


@pytest.mark.parametrize(
    "args, words",
    [
        ([*BAGEL, "--first", "3D5"], ["'3D5'", "mixes digits and letters"]),
        ([*BAGEL, "--first", "335"], ["335 repeats a colour: it is not an allowed guess of bagel"]),
        (["-p", "2", "-c", "3", "--first", "01"], ["'01'", "letters A..C"]),
    ],
)
def test_first_refused_in_one_line(folder: Path, console_script, args, words) -> None:
    one_error(run(console_script, "generate", *args, "-o", "no.txt", cwd=folder), *words)
    assert not (folder / "no.txt").exists()


# -- show --secret and --path ----------------------------------------------------------
def test_secret_in_digits_or_letters(folder: Path, console_script) -> None:
    digits = run(console_script, "show", "bagel.txt", *BAGEL, "--secret", "789", cwd=folder)
    letters = run(console_script, "show", "bagel.txt", *BAGEL, "--secret", "HIJ", cwd=folder)
    assert digits.returncode == 0, digits.stderr
    assert digits.stdout == letters.stdout
    lines = digits.stdout.splitlines()
    assert lines[0].split()[1] == "345"
    assert re.fullmatch(r"\d+\. 789  30  solved in \d guess(es)?", lines[-1]), lines[-1]
    assert all(re.fullmatch(r"\d+\. \d{3}  \d\d.*", line) for line in lines)
    one_error(run(console_script, "show", "bagel.txt", *BAGEL, "--secret", "7I9", cwd=folder),
              "mixes digits and letters")
    one_error(run(console_script, "show", "mm23.txt", "--secret", "12", cwd=folder),
              "colours are the letters")


@pytest.mark.parametrize(
    "guess, reply",
    [("345", "20"), ("def", "2 0"), ("345", "b2 w0"), ("DEF", "2b 0w"), ("345", "2 bulls 0 cows")],
)
def test_path_reads_every_reply_syntax_in_a_digits_game(
    folder: Path, console_script, guess: str, reply: str
) -> None:
    expected = run(console_script, "show", "bagel.txt", *BAGEL, "--path", "345 20", "-d", "1",
                   cwd=folder)
    done = run(console_script, "show", "bagel.txt", *BAGEL, "--path", f"{guess} {reply}", "-d", "1",
               cwd=folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.stdout
    assert done.stdout.startswith("replies: 11 = 1 bull (right digit, right place), 1 cow "
                                  "(right digit, wrong place)\nafter 345 20\nguess ")
    assert not re.search(r"[A-J]{3}", done.stdout)  # every code in digits


def test_path_in_a_letters_game(folder: Path, console_script) -> None:
    outputs = {
        path: run(console_script, "show", "mm23.txt", "--path", path, cwd=folder)
        for path in ("AB 10, AC 01", "ab 1 0, ac 0 1", "AB b1 w0, AC w1", "10, 01", "AB:10, 01")
    }
    for path, done in outputs.items():
        assert done.returncode == 0, (path, done.stderr)
        assert done.stdout == ("replies: 02 = 0 black (right colour, right place), 2 white "
                               "(right colour, wrong place)\nafter AB 10, AC 01\nit is CB\n"), (
            path, done.stdout)


@pytest.mark.parametrize(
    "file, args, path, words",
    [
        ("mm23.txt", [], "garbage", ["step 1 of the path", "GARBAGE", "AB"]),
        ("mm23.txt", [], "AB 1 0 1", ["step 1 of the path", "'AB 1 0 1'", "b1 w0"]),
        ("mm23.txt", [], "AB, 10", ["step 1 of the path", "needs a reply"]),
        ("mm23.txt", [], "AB 33", ["no guess of MM(2,3) gets reply 33"]),
        ("bagel.txt", BAGEL, "garbage", ["GARBAGE", "345"]),
        ("bagel.txt", BAGEL, "3E5 10", ["'3E5'", "mixes digits and letters"]),
        ("bagel.txt", BAGEL, "012 10", ["guesses 345 here, not 012"]),
    ],
)
def test_a_bad_path_is_one_line(folder: Path, console_script, file, args, path, words) -> None:
    one_error(run(console_script, "show", file, *args, "--path", path, cwd=folder), *words)


# -- the guides: CSV and HTML -------------------------------------------------------------
def test_csv_guide_in_digits(folder: Path, console_script) -> None:
    done = run(console_script, "show", "bagel.txt", *BAGEL, "-f", "csv", cwd=folder)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    every = {"".join(map(str, p)) for p in itertools.permutations(range(10), 3)}
    assert {row["secret"] for row in rows} == every  # Bagel: 3 distinct of 10
    for row in rows[:50]:
        moves = row["game"].split(", ")
        assert moves[0].startswith("345 ") and moves[-1] == f"{row['secret']} 30"
        assert all(re.fullmatch(r"\d{3} \d\d", m) for m in moves)
        assert int(row["guesses"]) == len(moves)


def test_html_guide_in_digits(folder: Path, console_script) -> None:
    done = run(console_script, "show", "bagel.txt", *BAGEL, "--path", "DEF 10", "-f", "html",
               cwd=folder)
    assert done.returncode == 0, done.stderr
    match = re.search(r'<script id="data" type="application/json">(.*?)</script>', done.stdout,
                      re.S)
    data = json.loads(match.group(1))
    assert data["prefix"] == [["345", "10"]]
    assert data["codes"] and all(re.fullmatch(r"\d{3}", c) for c in data["codes"])
    # the page colours a digit k as colour k (not as a letter's code minus 65)
    assert "charCodeAt(0) - 48" in done.stdout


def test_simulate_csv_in_the_games_alphabet(folder: Path, console_script) -> None:
    done = run(console_script, "simulate", "--strategy", "bagel.txt", *BAGEL, "--csv", "games.csv",
               cwd=folder)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO((folder / "games.csv").read_text())))
    assert len(rows) == 720 and all(re.fullmatch(r"\d{3}", r["secret"]) for r in rows)
    assert all(r["path"].startswith("345 ") for r in rows)


# -- play: codes typed in digits or letters, replies in every syntax ------------------------
def test_you_break_in_digits_or_letters(folder: Path, console_script) -> None:
    typed = "0123\nABCD\n0 1 2 3\nA1C2\n0012\nquit\n"
    done = run(console_script, "play", "--breaker", "you", "--game", "bulls-and-cows",
               "--seed", "3",
               cwd=folder, stdin=typed)
    assert done.returncode == 1, done.stdout + done.stderr  # stopped by quit
    replies = re.findall(r"(\d{4}): (\d\d)  \(", done.stdout)
    assert len(replies) == 3 and len(set(replies)) == 1 and replies[0][0] == "0123"
    assert "code 'A1C2' mixes digits and letters" in done.stdout
    assert "0012 repeats a colour: it is not an allowed guess of bulls-and-cows" in done.stdout
    secret = re.search(r"The secret was (\d{4})\.", done.stdout).group(1)
    bulls = sum(a == b for a, b in zip("0123", secret))
    cows = len(set("0123") & set(secret)) - bulls
    assert replies[0][1] == f"{bulls}{cows}"


def test_you_break_a_letters_game_refuses_digits(folder: Path, console_script) -> None:
    done = run(console_script, "play", "--breaker", "you", "-p", "2", "-c", "3", "--seed", "1",
               cwd=folder, stdin="12\nab\nquit\n")
    assert "colours are the letters A..C" in done.stdout
    assert re.search(r"AB: \d\d  \(", done.stdout)


@pytest.mark.parametrize("reply", ["0 0", "00", "b0 w0"])
def test_computer_breaks_reads_every_reply_syntax(folder: Path, console_script, reply: str) -> None:
    done = run(console_script, "play", *BAGEL, "--first", "DEF", cwd=folder,
               stdin=f"{reply}\nquit\n")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "guess 1: 345" in done.stdout and "guess 2: " in done.stdout
    second = re.search(r"guess 2: (\S+)", done.stdout).group(1)
    assert re.fullmatch(r"\d{3}", second) and not set(second) & set("345")


# -- the one reading, as a library: every syntax of a step against a twin ------------------
def test_parse_path_reads_every_syntax_alike() -> None:
    import numpy as np

    from strategytree.game import Reply, mastermind
    from strategytree.presets import preset
    from strategytree.spelling import Alphabet, parse_path

    rng = np.random.default_rng(13)
    for game in (mastermind(4, 6), preset("bagel"), preset("bulls-and-cows")):
        digits = game.symbols == "digits"
        for _ in range(40):
            row = game.guesses[rng.integers(len(game.guesses))].tolist()
            black = int(rng.integers(game.pegs))
            white = int(rng.integers(game.pegs - black + 1))
            letters = "".join(chr(65 + k) for k in row)  # the twins of the two spellings
            spellings = [letters, letters.lower()] + (["".join(map(str, row))] if digits else [])
            replies = [f"{black}{white}", f"{black} {white}", f"b{black} w{white}",
                       f"w{white} b{black}", f"{black}b {white}w"]
            expected = [(letters, Reply(black, white)), (None, Reply(white, black)),
                        (letters, None)]
            for code in spellings:
                for reply in replies:
                    text = f"{code} {reply}, {white}{black}, {code}"
                    assert parse_path(text, game) == expected, text
            assert parse_path(f"{letters} {black}{white}", game, Alphabet(False)) == expected[:1]
