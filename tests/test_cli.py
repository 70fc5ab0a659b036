"""The command line, through typer's CliRunner, and once as a real process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import strategytree as st
from strategytree.cli import app

import naive
from cli_runner import DATA, EXAMPLE, invoke, runner

# MM(1,6) tried colour by colour: the same total as EXAMPLE (1+2+...+6 = 21), but 6 at most
CHAIN = "{A:{00:{B:{00:{C:{00:{D:{00:{E:{00:F}}}}}}}}}}"



def write(folder: Path, name: str, text: str) -> str:
    (folder / name).write_text(text, encoding="utf-8")
    return name


def twin_score(text: str, game: st.Game) -> tuple[int, int, int]:
    """(total, max guesses, unsolved) by the naive replay."""
    codes = [naive.text(row) for row in game.secrets.tolist()]
    allowed = [naive.text(row) for row in game.guesses.tolist()]
    rep = naive.replay(st.loads(text).root, codes, allowed, game.pegs)
    return rep.total, rep.max_guesses, len(rep.unsolved)


# -- verify ---------------------------------------------------------------------
def test_verify_one_valid_file(here: Path) -> None:
    name = write(here, "mm23.txt", EXAMPLE)
    result = invoke(["verify", name])
    assert result.exit_code == 0, result.output
    total, most, _ = twin_score(EXAMPLE, st.mastermind(2, 3))
    assert re.search(rf"total guesses\s+{total}\b", result.stdout)
    assert re.search(rf"max guesses\s+{most}\b", result.stdout)
    assert "MM(2,3)" in result.stdout and "valid" in result.stdout


def test_verify_an_invalid_strategy_exits_1(here: Path) -> None:
    name = write(here, "bad.txt", EXAMPLE.replace(",00:CC", ""))
    result = invoke(["verify", name])
    assert result.exit_code == 1
    assert "invalid" in result.stdout
    assert "CC: AB 00: reply 00 to guess AB has no branch" in result.stdout


def test_verify_strict_turns_unreachable_branches_into_errors(here: Path) -> None:
    name = write(here, "extra.txt", EXAMPLE.replace("{BC:{01:CA}}", "{BC:{01:CA,10:BB}}"))
    loose = invoke(["verify", name])
    assert loose.exit_code == 0 and "warning:" in loose.stdout
    strict = invoke(["verify", "--strict", name])
    assert strict.exit_code == 1 and "no remaining secret gives reply 10" in strict.stdout


def test_verify_with_game_options(here: Path) -> None:
    name = write(here, "mm23.txt", EXAMPLE)
    # with colours and guesses given, AA, BB and CC are no longer allowed
    result = invoke(["verify", "--distinct-guesses", name])
    assert result.exit_code == 1 and "guess AA is not allowed" in result.stdout
    result = invoke(["verify", "--pegs", "2", "--colors", "4", name])
    assert result.exit_code == 1  # DD and friends are never found
    assert re.search(r"secrets\s+16\b", result.stdout)


@pytest.mark.parametrize(
    "text, where",
    [
        ("{AB:{10:AA:BB}}", "1:11"),
        ("{AB:{10:AA,\n01:BB}", "2:7"),
    ],
)
def test_verify_a_file_that_does_not_parse_exits_2(here: Path, text: str, where: str) -> None:
    name = write(here, "broken.txt", text)
    result = invoke(["verify", name])
    assert result.exit_code == 2
    assert f"broken.txt:{where}: expected" in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_verify_unreadable_files_exit_2(here: Path) -> None:
    for args in (["verify", "missing.txt"], ["verify", "."]):
        result = invoke(args)
        assert result.exit_code == 2, args
        assert "error:" in result.stderr and "Traceback" not in result.output
    (here / "latin1.txt").write_bytes(b"{AB:{10:\xc4A}}")
    result = invoke(["verify", "latin1.txt"])
    assert result.exit_code == 2 and "latin1.txt:1:9:" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["verify"],  # no file
        ["verify", "--pegs", "0", "x.txt"],
        ["verify", "--pegs", "10", "x.txt"],
        ["verify", "--colors", "27", "x.txt"],
        ["verify", "--colors", "many", "x.txt"],
        ["verify", "--bogus", "x.txt"],
        ["show"],
        ["show", "x.txt", "--depth", "-1"],
        ["frobnicate"],
    ],
)
def test_bad_arguments_exit_2(here: Path, args: list[str]) -> None:
    write(here, "x.txt", EXAMPLE)
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_a_game_too_large_is_a_clean_error(here: Path) -> None:
    name = write(here, "big.txt", "{ABCDEFGHI:{00:ZZZZZZZZZ}}")
    result = invoke(["verify", name])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "error:" in result.stderr


def test_verify_json(here: Path) -> None:
    name = write(here, "mm23.txt", EXAMPLE)
    result = invoke(["verify", "--json", name])
    assert result.exit_code == 0
    (data,) = json.loads(result.stdout)  # a list, of one file here
    for key in ("secrets", "solved", "total", "average", "max_guesses", "histogram",
                "unsolved", "invalid_replies", "unreachable_branches", "errors"):
        assert key in data, key
    total, most, unsolved = twin_score(EXAMPLE, st.mastermind(2, 3))
    assert (data["total"], data["max_guesses"], data["unsolved"]) == (total, most, unsolved)
    assert data["secrets"] == data["solved"] == 9 and data["valid"] is True


def test_verify_json_of_several_files(here: Path) -> None:
    a = write(here, "a.txt", EXAMPLE)
    b = write(here, "b.txt", "{AB:{10:AA:BB}}")
    result = invoke(["verify", "--json", a, b])
    assert result.exit_code == 2  # one file cannot be read
    data = json.loads(result.stdout)
    assert [item["source"] for item in data] == [a, b]
    assert data[0]["total"] == 21 and "b.txt:1:11:" in data[1]["unreadable"]
    assert "b.txt:1:11:" in result.stderr


def _ranking(stdout: str) -> list[tuple[str, str]]:
    """(rank, file) of each row of the ranking table."""
    rows = []
    for line in stdout.splitlines():
        cells = [cell.strip() for cell in re.split(r"[│┃|]", line)[1:-1]]
        if len(cells) == 7 and re.fullmatch(r"\d+|-", cells[0]):
            rows.append((cells[0], cells[1]))
    return rows


def test_several_files_are_ranked(here: Path) -> None:
    mm46 = st.mastermind(4, 6)
    files = {  # name: (text, game)
        "k.txt": ((DATA / "mikemag-knuth-4-6.txt").read_text(encoding="utf-8"), mm46),
        "chain.txt": (CHAIN, st.mastermind(1, 6)),  # total 21, max 6
        "a5.txt": ((DATA / "arfst-4-6-5.txt").read_text(encoding="utf-8"), mm46),
        "bad.txt": (EXAMPLE.replace(",00:CC", ""), st.mastermind(2, 3)),  # invalid
        "mm23.txt": (EXAMPLE, st.mastermind(2, 3)),  # total 21, max 3
        "a6.txt": ((DATA / "arfst-4-6-6.txt").read_text(encoding="utf-8"), mm46),
    }
    for name, (text, _) in files.items():
        write(here, name, text)
    result = invoke(["verify", *files])
    assert result.exit_code == 1, result.output  # one file is invalid
    # the expected order, from the naive replay: each game apart (in the order of its first
    # file), lowest total first, then lowest max, then the invalid files
    scores = {name: twin_score(text, game) for name, (text, game) in files.items()}
    assert scores["bad.txt"][2] > 0
    assert scores["mm23.txt"][0] == scores["chain.txt"][0]  # the same total, in two games
    assert scores["a6.txt"][0] < scores["a5.txt"][0] and scores["a6.txt"][1] > scores["a5.txt"][1]
    want = []
    for game in dict.fromkeys(game.name for _, game in files.values()):
        names = [n for n, (_, g) in files.items() if g.name == game]
        valid = sorted((n for n in names if scores[n][2] == 0), key=lambda n: scores[n][:2])
        want += [(str(i), n) for i, n in enumerate(valid, 1)]
        want += [("-", n) for n in names if scores[n][2]]
    assert _ranking(result.stdout) == want
    assert "MM(2,3): ranked by" in result.stdout and "MM(4,6): ranked by" in result.stdout


def test_ranking_lists_unreadable_files(here: Path) -> None:
    write(here, "a.txt", EXAMPLE)
    write(here, "b.txt", "{AB:{10:AA:BB}}")
    result = invoke(["verify", "a.txt", "b.txt"])
    assert result.exit_code == 2
    assert _ranking(result.stdout) == [("1", "a.txt"), ("-", "b.txt")]
    assert "unreadable" in result.stdout


# -- show ---------------------------------------------------------------------------
def expected_guide(tree: st.Strategy, game: st.Game, depth: int | None) -> list[tuple[str, str]]:
    """(start, end) of each line of the guide, from the naive replay's counts."""
    codes = [naive.text(row) for row in game.secrets.tolist()]
    allowed = [naive.text(row) for row in game.guesses.tolist()]
    rep = naive.replay(tree.root, codes, allowed, game.pegs)
    want = []
    todo = [(tree.root, None, 0)]
    while todo:
        node, reply, level = todo.pop()
        lead = "  " * level + ("" if reply is None else f"{reply}: ")
        if not node.branches:
            want.append((f"{lead}it is {node.guess}", ""))
            continue
        count = rep.visits[id(node)]
        want.append((f"{lead}guess {node.guess} ",
                     f" {count:,} secret" + ("" if count == 1 else "s")))
        if depth is not None and level >= depth:
            want.append(("  " * (level + 1) + "...", "..."))
            continue
        todo.extend((child, r, level + 1) for r, child in reversed(node.branches))
    return want


@pytest.mark.parametrize(
    "source, game, depth",
    [
        (EXAMPLE, st.mastermind(2, 3), None),
        (EXAMPLE, st.mastermind(2, 3), 0),
        (EXAMPLE, st.mastermind(2, 3), 1),
        (DATA / "arfst-4-6-6.txt", st.mastermind(4, 6), 1),
        (DATA / "arfst-4-6-6.txt", st.mastermind(4, 6), 3),
        (DATA / "arfst-4-7-unique.txt", st.distinct(4, 7, distinct_guesses=True), 2),
    ],
)
def test_show_guide(here: Path, source, game: st.Game, depth: int | None) -> None:
    text = source if isinstance(source, str) else source.read_text(encoding="utf-8")
    name = write(here, "s.txt", text)
    args = ["show", name] + ([] if depth is None else ["--depth", str(depth)])
    if len(game.guesses) < game.colors**game.pegs:
        args.append("--distinct-guesses")
    result = invoke(args)
    assert result.exit_code == 0
    legend, *lines = result.stdout.rstrip("\n").split("\n")
    assert legend.startswith("replies: ") and "black (right colour, right place)" in legend
    want = expected_guide(st.loads(text), game, depth)
    assert len(lines) == len(want)
    for line, (start, end) in zip(lines, want):
        assert line.startswith(start) and line.endswith(end), (line, start, end)


def test_show_secret(here: Path) -> None:
    name = write(here, "mm23.txt", EXAMPLE)
    tree = st.loads(EXAMPLE)
    for secret in ("CA", "ba", "AB"):
        result = invoke(["show", name, "--secret", secret])
        assert result.exit_code == 0
        lines = result.stdout.rstrip("\n").split("\n")
        # the moves, from the naive feedback
        node, moves = tree.root, []
        while True:
            reply = naive.feedback(node.guess, secret.upper())
            moves.append(f"{node.guess}  {reply[0]}{reply[1]}")
            if reply == (2, 0):
                break
            node = node.child(st.Reply(*reply))
        assert [re.sub(r"^\d+\. ", "", line) for line in lines][:-1] == moves[:-1]
        n = len(moves)
        assert lines[-1] == f"{n}. {moves[-1]}  solved in {n} guess{'es' * (n != 1)}"


def test_show_secret_not_solved_exits_1(here: Path) -> None:
    name = write(here, "bad.txt", EXAMPLE.replace(",00:CC", ""))
    result = invoke(["show", name, "--secret", "CC"])
    assert result.exit_code == 1
    assert "not solved" in result.stdout and "reply 00" in result.stdout


@pytest.mark.parametrize("secret", ["ZZ", "ABC", "A"])
def test_show_a_bad_secret_exits_2(here: Path, secret: str) -> None:
    name = write(here, "mm23.txt", EXAMPLE)
    result = invoke(["show", name, "--secret", secret])
    assert result.exit_code == 2 and "error:" in result.stderr
    assert "Traceback" not in result.output


def test_show_a_secret_that_cannot_be_a_secret_exits_2(here: Path) -> None:
    name = write(here, "mm23.txt", EXAMPLE)
    result = invoke(["show", "--distinct", name, "--secret", "AA"])
    assert result.exit_code == 2 and "not a possible secret" in result.stderr


def test_version() -> None:
    result = invoke(["--version"])
    assert result.exit_code == 0 and st.__version__ in result.stdout


# -- the installed console script, as a real process ---------------------------------------
def test_console_script_verifies_a_corpus_file(tmp_path: Path, console_script: list[str]) -> None:
    target = (DATA / "arfst-4-6-6.txt").resolve()
    row = next(line for line in (DATA / "CORPUS.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| arfst-4-6-6.txt"))
    total = int(row.split("|")[4].strip().replace(",", ""))
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    run = subprocess.run(
        [*console_script, "verify", "--json", str(target)],
        cwd=tmp_path,  # reading does not depend on the current folder
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    (data,) = json.loads(run.stdout)
    assert data["total"] == total and data["valid"] is True
    assert "Traceback" not in run.stderr


# -- generate ----------------------------------------------------------------------------
def test_generate_writes_a_valid_strategy_and_reports_it(tmp_path: Path) -> None:
    out = tmp_path / "mm33.txt"
    result = runner.invoke(app,
                           ["generate", "-p", "3", "-c", "3", "--rule", "minimax", "-o", str(out)])
    assert result.exit_code == 0, result.output
    report = st.verify(st.load(out), st.mastermind(3, 3))
    assert report.valid
    assert f"{report.total:,}" in result.output
    assert "Traceback" not in result.output


def test_generate_does_not_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "old.txt"
    out.write_text("precious")
    result = runner.invoke(app, ["generate", "-p", "2", "-c", "3", "-o", str(out)])
    assert result.exit_code == 2
    assert "--force" in result.output
    assert out.read_text() == "precious"
    result = runner.invoke(app, ["generate", "-p", "2", "-c", "3", "-o", str(out), "--force"])
    assert result.exit_code == 0, result.output
    assert st.verify(st.load(out), st.mastermind(2, 3)).valid
    assert [p.name for p in tmp_path.iterdir()] == ["old.txt"]  # no temporary file left


@pytest.mark.parametrize(
    "args",
    [["--rule", "nonsense"], ["--pool", "sample:x"], ["--first", "ZZ"], ["--pegs", "0"]],
)
def test_generate_bad_arguments_exit_2(tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(app,
                           ["generate", "-p", "2", "-c", "3", "-o", str(tmp_path / "x.txt"), *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.txt").exists()


def test_verify_lenient_reads_dialects_and_reports_repairs(tmp_path: Path) -> None:
    path = tmp_path / "java.txt"
    path.write_text("{BC:{00:AA,01:AB:{01:CA},02:CB,10:AC:{00:BB,01:BA,10:CC}}}")
    strict = runner.invoke(app, ["verify", str(path)])
    assert strict.exit_code == 2 and "--lenient would read it" in strict.output
    lenient = runner.invoke(app, ["verify", "--lenient", str(path)])
    assert lenient.exit_code == 0, lenient.output
    assert "repaired" in lenient.output and "21" in lenient.output
    (tmp_path / "strict.txt").write_text(EXAMPLE)  # several files: each one's repairs
    several = runner.invoke(app, ["verify", "--lenient", str(tmp_path / "strict.txt"), str(path)])
    assert several.exit_code == 0, several.output
    assert f"java.txt: repaired: {path}:1:" in several.output.replace("\n", "")


def test_python_dash_m_runs_the_command_line(tmp_path: Path) -> None:
    data = Path(__file__).parent / "data" / "arfst-4-6-5.txt"
    done = subprocess.run(
        [sys.executable, "-m", "strategytree", "verify", "--json", str(data)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["total"] == st.verify(st.load(data)).total
