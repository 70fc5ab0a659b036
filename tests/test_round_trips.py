"""Every file round-trips (issue 37): files of our own commands and of other programs,
read by the installed ``strategytree`` program as a user runs it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from test_convert import irving

import strategytree as st

from cli_runner import one_error, run

FORMATS_DATA = Path(__file__).parent / "data" / "formats"


# -- 5: --lenient where it would do nothing ---------------------------------------------
def test_lenient_is_refused_on_a_file_told_to_be_in_another_format(
    console_script: list[str], tmp_path: Path
) -> None:
    for name, kind in (("small.json", "json"), ("small-mikemag.gv", "mikemag"),
                       ("fancidev-mmstrat-p2c3r-minmax.txt", "mmstrat")):
        for command in (["convert"], ["verify"], ["stats"]):
            done = run(console_script, *command, FORMATS_DATA / name, "--lenient", cwd=tmp_path)
            one_error(done, "--lenient has no effect", f"written in {kind}")
    done = run(console_script, "convert", FORMATS_DATA / "small.txt", "--lenient", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


# -- 2: other programs' files as they really are ------------------------------------------
def test_mmstrat_writes_the_tenth_colour_as_0(console_script: list[str], tmp_path: Path) -> None:
    done = run(console_script, "generate", "-p", "2", "-c", "10", "-o", "t.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    tree = st.load(tmp_path / "t.txt")
    text = irving(tree, st.mastermind(2, 10), tenth="0")
    assert "0" in text.replace("10 (", "")  # a code with the tenth colour
    (tmp_path / "p2c10.txt").write_text(text)
    done = run(console_script, "convert", "p2c10.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    read, game = st.verify(st.loads(done.stdout)), st.verify(tree)
    assert (read.valid, read.total, read.histogram) == (True, game.total, game.histogram)
    done = run(console_script, "verify", "p2c10.txt", cwd=tmp_path)
    assert done.returncode == 0 and "MM(2,10)" in done.stdout, done.stdout + done.stderr


def test_arfst23_tables_end_with_their_cpu_time(console_script: list[str], tmp_path: Path) -> None:
    table = (FORMATS_DATA / "arfst23-solution-4-6-6.txt").read_text()
    (tmp_path / "t.txt").write_text(table + "\n# solved by arfst23\ncpu=33261.9s\n\n")
    done = run(console_script, "verify", "t.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5,625" in done.stdout


# -- 4: game options on foreign files -----------------------------------------------------
def test_a_game_option_alone_takes_the_rest_from_an_mmstrat_file(
    console_script: list[str], tmp_path: Path
) -> None:
    path = FORMATS_DATA / "fancidev-mmstrat-p3c4r-optimal.txt"
    whole = run(console_script, "convert", path, cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    for option, note in ((["-c", "4"], "pegs 3 (from the counts)"),
                         (["-p", "3"], "colors 4 (from the counts)")):
        done = run(console_script, "verify", path, *option, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "MM(3,4)" in done.stdout and note in done.stdout
        done = run(console_script, "convert", path, *option, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (0, whole.stdout), done.stderr
    done = run(console_script, "verify", path, "-c", "5", cwd=tmp_path)
    assert done.returncode == 2 and "MM(3,5)" in done.stderr


# -- 3: our own guides of digit games read back -----------------------------------------
def test_the_guides_of_a_digits_game_read_back(console_script: list[str], tmp_path: Path) -> None:
    done = run(console_script, "generate", "--game", "bagel", "-o", "bagel.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    tree = st.load(tmp_path / "bagel.txt")
    done = run(console_script, "show", "bagel.txt", "--game", "bagel", "-o", "bagel.csv",
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "bagel.csv").read_text().splitlines()[1][0].isdigit()
    done = run(console_script, "verify", "bagel.csv", "--game", "bagel", cwd=tmp_path)
    assert done.returncode == 0 and "valid" in done.stdout, done.stdout + done.stderr
    done = run(console_script, "convert", "bagel.csv", cwd=tmp_path)
    assert done.returncode == 0 and st.loads(done.stdout) == tree, done.stderr
    reply, below = tree.root.branches[0]
    spelled = st.loads(done.stdout).root.guess.translate(str.maketrans("ABCDEFGHIJ", "0123456789"))
    done = run(console_script, "show", "bagel.txt", "--game", "bagel", "--path",
               f"{spelled} {reply}", "-o", "part.dot", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = run(console_script, "convert", "part.dot", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    part = st.loads(done.stdout)  # the first guess, and the one branch drawn
    assert part.root.guess == tree.root.guess and len(part.root.branches) == 1
    assert part.root.branches[0][0] == reply and part.root.branches[0][1] == below


def test_text_markdown_and_html_guides_say_what_they_are(
    console_script: list[str], tmp_path: Path
) -> None:
    (tmp_path / "s.txt").write_text(
        "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
    for options, what in (([], "text guide"), (["-f", "markdown"], "Markdown table"),
                          (["-f", "html"], "HTML guide"),
                          (["--path", "AB 10"], "text guide"), (["--secret", "CA"], "text guide")):
        done = run(console_script, "show", "s.txt", "-p", "2", "-c", "3", *options, "-o", "g.txt",
                   "--force", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        done = run(console_script, "verify", "g.txt", cwd=tmp_path)
        one_error(done, f"this is the {what} that show writes", "csv and dot guides are")


# -- 1: a file knows its game -----------------------------------------------------------
GAMES = {
    "bulls-and-cows": (["--game", "bulls-and-cows"], "bulls-and-cows"),
    "bagel": (["--game", "bagel"], "bagel"),
    "distinct": (["--game", "distinct", "-p", "3", "-c", "5"], "3 distinct of 5"),
    "black-only": (["--game", "black-only", "-p", "3", "-c", "4"], "black-only MM(3,4)"),
}


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_a_file_knows_its_game(console_script: list[str], tmp_path: Path, game: str) -> None:
    options, name = GAMES[game]
    done = run(console_script, "generate", *options, "-o", "s.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for command in (["verify", "s.txt"], ["stats", "s.txt"], ["show", "s.txt", "--depth", "0"]):
        done = run(console_script, *command, cwd=tmp_path)
        assert done.returncode == 0, (command, done.stdout + done.stderr)
        if command[0] != "show":
            assert f"s.txt: {name}" in done.stdout, done.stdout
    done = run(console_script, "simulate", "--strategy", "s.txt", "--games", "20",
               cwd=tmp_path)
    assert done.returncode == 0 and name in done.stdout + done.stderr, done.stdout + done.stderr


def test_a_file_that_fits_no_game_names_the_closest(
    console_script: list[str], tmp_path: Path
) -> None:
    done = run(console_script, "generate", "--game", "bagel", "-o", "s.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    tree = st.load(tmp_path / "s.txt")
    root = tree.root
    root.branches = root.branches[:-1]
    st.dump(root, tmp_path / "cut.txt")
    done = run(console_script, "verify", "cut.txt", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "every solved secret has distinct colours: did you mean --game bagel?" in done.stdout


# -- 7: play --strategy on a game the file does not fit ------------------------------------
def test_play_refuses_a_strategy_of_another_game(console_script: list[str], tmp_path: Path) -> None:
    from strategytree.builders import build_greedy

    (tmp_path / "mm46.txt").write_text(st.dumps(build_greedy(st.mastermind(4, 6))))
    done = subprocess.run(
        [*console_script, "play", "--strategy", "mm46.txt", "-p", "5"], input="", text=True,
        capture_output=True, cwd=tmp_path, timeout=300,
    )
    one_error(done, "mm46.txt", "MM(5,6)", "another game")


# -- 6: a file of 4-peg guesses read as a 5-peg game ----------------------------------------
@pytest.mark.parametrize("command", [["verify"], ["show"], ["stats"], ["simulate", "--strategy"]])
def test_a_file_of_another_peg_count_is_one_line(
    console_script: list[str], tmp_path: Path, command: list[str]
) -> None:
    from strategytree.builders import build_greedy

    (tmp_path / "mm46.txt").write_text(st.dumps(build_greedy(st.mastermind(4, 6))))
    done = run(console_script, *command, "mm46.txt", "-p", "5", cwd=tmp_path)
    one_error(done, "mm46.txt", "4 pegs", "--pegs 5", "another game")


# -- 8: improve --json -----------------------------------------------------------------------
def test_improve_reports_json(console_script: list[str], tmp_path: Path) -> None:
    import json

    from strategytree.builders import build_greedy

    game = st.mastermind(3, 4)
    greedy = build_greedy(game, rule="minimax")
    (tmp_path / "in.txt").write_text(st.dumps(greedy))
    done = run(console_script, "improve", "in.txt", "-o", "out.txt", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    written = st.verify(st.load(tmp_path / "out.txt"))
    assert answer["source"] == "out.txt" and answer["valid"]
    assert answer["total"] == written.total
    assert answer["before"]["total"] == st.verify(greedy, game).total
    assert answer["saved"] == answer["before"]["total"] - answer["total"] >= 0


# -- 8: no wrapping when the output is not a terminal ----------------------------------------
def test_piped_output_is_not_wrapped(console_script: list[str], tmp_path: Path) -> None:
    import os
    import shutil

    folder = tmp_path / ("a-long-folder-name-" * 4)
    folder.mkdir()
    shutil.copy(Path(__file__).parent.parent / "examples" / "mm23.txt", folder / "mm23.txt")
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    for args in (["verify", folder / "mm23.txt"],
                 ["improve", folder / "mm23.txt", "-o", folder / "out.txt"]):
        done = subprocess.run([*console_script, *map(str, args)], capture_output=True,
                              text=True, cwd=tmp_path, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert any(str(folder / "mm23.txt") in line and "MM(2,3)" in line for line in lines) or (
            any(str(folder / "out.txt") in line for line in lines)), done.stdout
        assert not any(line.strip() and line.strip() in str(folder) for line in lines[1:])
