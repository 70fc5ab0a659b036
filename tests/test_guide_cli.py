"""``strategytree show`` in every format and ``strategytree stats``, through CliRunner."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from rich.console import Console

import strategytree as st
from strategytree.cli import terminal
from strategytree.guide import GuideTree, guide_text

from cli_runner import DATA, EXAMPLE, invoke


@pytest.fixture
def here(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mm23.txt").write_text(EXAMPLE, encoding="utf-8")
    return tmp_path


def no_leftovers(folder: Path) -> None:
    """Atomic writes leave no temporary files behind."""
    assert not [name for name in os.listdir(folder) if name.endswith(".tmp")]


# -- text -----------------------------------------------------------------------------------
#: the first line of a text guide of MM(2,3): how its replies read
LEGEND = "replies: 02 = 0 black (right colour, right place), 2 white (right colour, wrong place)"


def test_show_text_is_plain_when_piped(here: Path) -> None:
    result = invoke(["show", "mm23.txt", "--path", "AB 10"])
    assert result.exit_code == 0
    assert "\x1b[" not in result.stdout
    assert result.stdout.rstrip("\n") == LEGEND + "\n" + guide_text(
        GuideTree.build(st.loads(EXAMPLE), st.mastermind(2, 3)), path="AB 10"
    )


def test_show_text_is_in_colour_on_a_terminal(here: Path, monkeypatch) -> None:
    monkeypatch.setattr(terminal, "out",
                        Console(force_terminal=True, color_system="standard", width=80))
    result = invoke(["show", "mm23.txt", "--depth", "1"])
    assert result.exit_code == 0
    assert "\x1b[" in result.stdout
    plain = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout)
    assert [line.rstrip() for line in plain.rstrip("\n").split("\n")] == [LEGEND, *guide_text(
        GuideTree.build(st.loads(EXAMPLE), st.mastermind(2, 3)), depth=1
    ).split("\n")]


def test_show_text_to_a_file(here: Path) -> None:
    result = invoke(["show", "mm23.txt", "-o", "guide.txt"])
    assert result.exit_code == 0
    assert (here / "guide.txt").read_text().startswith(LEGEND + "\nguess AB")
    no_leftovers(here)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--path", "AB 10, AD 10"], "step 2 of the path (AD 10): the strategy guesses AC here"),
        (["--path", "AB 33"], "no guess of MM(2,3) gets reply 33"),
        (["--path", "AB 10, AC 02"], "no branch for reply 02"),
        (["--secret", "CA", "--format", "csv"], "--secret CA shows one game as text; drop"),
        (["--secret", "CA", "--path", "AB 01"], "--secret CA shows one game as text; drop"),
        (["--depth", "1", "--format", "csv"], "--depth 1 applies to the text and dot formats"),
        (["--format", "pdf"], "'pdf' is not one of 'text'"),
        (["--format", "csv", "-o", "x.png"], "only the dot format can be drawn"),
        (["-o", "x.svg", "--depth", "0", "--format", "text"], "only the dot format can be drawn"),
        (["--format", "dot", "-o", "x.jpg", "--depth", "0"], None),  # any other suffix: DOT text
    ],
)
def test_show_argument_errors(here: Path, args: list[str], message: str | None) -> None:
    result = invoke(["show", "mm23.txt", *args])
    if message is None:
        assert result.exit_code == 0
        return
    assert result.exit_code == 2, result.output
    assert message in result.stderr.replace("\n", " ")


# -- lookup tables ----------------------------------------------------------------------------
def test_show_markdown_and_csv(here: Path) -> None:
    result = invoke(["show", "mm23.txt", "--format", "markdown"])
    assert result.exit_code == 0
    assert result.stdout.split("\n")[2] == "| AB 20 | 1 | AB |"
    assert result.stdout.count("\n| AB") == 9
    result = invoke(["show", "mm23.txt", "-f", "csv", "--path", "AB 01"])
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["game"] for r in rows] == ["AB 01, BC 20", "AB 01, BC 01, CA 20"]


def test_show_table_format_from_the_suffix(here: Path) -> None:
    assert invoke(["show", "mm23.txt", "-o", "games.md"]).exit_code == 0
    assert invoke(["show", "mm23.txt", "-o", "games.csv"]).exit_code == 0
    assert (here / "games.md").read_text().startswith("| game | guesses | secret |")
    assert (here / "games.csv").read_text().startswith("game,guesses,secret\n")
    no_leftovers(here)


def test_show_table_warns_about_unsolved_secrets(here: Path) -> None:
    (here / "bad.txt").write_text(EXAMPLE.replace(",00:CC", ""))
    result = invoke(["show", "bad.txt", "-f", "csv"])
    assert result.exit_code == 1  # an invalid strategy shown is said in the exit code (issue 37)
    assert "1 secret behind this guide is not solved" in result.stderr
    assert result.stdout.count("\n") == 9  # header and 8 games


@pytest.mark.parametrize("fmt, lead", [("text", "warning: "), ("markdown", "> **warning:** "),
                                       ("dot", "// warning: "), ("html", "<!DOCTYPE html>")])
def test_show_of_an_invalid_strategy_warns_in_the_page_and_exits_1(
    here: Path, fmt: str, lead: str
) -> None:
    (here / "bad.txt").write_text(EXAMPLE.replace(",00:CC", ""))
    result = invoke(["show", "bad.txt", "-f", fmt])
    assert result.exit_code == 1
    assert "1 secret behind this guide is not solved" in result.stderr
    assert result.stdout.startswith(lead)
    assert "1 secret behind this guide is not solved" in result.stdout
    assert invoke(["show", "mm23.txt", "-f", fmt]).exit_code == 0


# -- DOT and drawings -----------------------------------------------------------------------
def test_show_dot(here: Path) -> None:
    result = invoke(["show", "mm23.txt", "-f", "dot"])
    assert result.exit_code == 0 and result.stdout.startswith("digraph strategy {")
    assert result.stdout.count(" -> ") == 8
    assert invoke(["show", "mm23.txt", "-o", "tree.gv"]).exit_code == 0
    assert (here / "tree.gv").read_text().count(" -> ") == 8


def test_show_dot_writes_a_big_tree_and_refuses_to_draw_it(here: Path) -> None:
    shutil.copy(DATA / "arfst-4-6-6.txt", here / "k.txt")
    result = invoke(["show", "k.txt", "-f", "dot"])
    assert result.exit_code == 0
    assert result.stdout.count(" -> ") > 500
    result = invoke(["show", "k.txt", "-o", "k.svg"])
    assert result.exit_code == 2
    assert "more than the 500" in result.stderr and "--depth" in result.stderr
    assert not (here / "k.svg").exists()
    result = invoke(["show", "k.txt", "-f", "dot", "--depth", "1"])
    assert result.exit_code == 0


def test_show_drawing_without_graphviz(here: Path, monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    result = invoke(["show", "mm23.txt", "-o", "tree.svg"])
    assert result.exit_code == 2
    assert "GraphViz's dot program, which is not installed" in result.stderr
    assert not (here / "tree.svg").exists()
    no_leftovers(here)


@pytest.mark.skipif(shutil.which("dot") is None, reason="GraphViz's dot is not installed")
def test_show_draws_svg_and_png(here: Path) -> None:
    assert invoke(["show", "mm23.txt", "-o", "tree.svg"]).exit_code == 0
    assert "<svg" in (here / "tree.svg").read_text()
    assert invoke(["show", "mm23.txt", "-o", "tree.png", "--path", "AB 10"]).exit_code == 0
    assert (here / "tree.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    no_leftovers(here)


# -- HTML --------------------------------------------------------------------------------------
def test_show_html(here: Path) -> None:
    result = invoke(["show", "mm23.txt", "-o", "guide.html"])
    assert result.exit_code == 0
    page = (here / "guide.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and '"codes":["AB","AC"' in page
    assert not re.search(r"https?:", page)
    no_leftovers(here)


# -- stats ---------------------------------------------------------------------------------------
def test_stats(here: Path) -> None:
    result = invoke(["stats", "mm23.txt"])
    assert result.exit_code == 0
    text = result.stdout
    assert "9 of 9 secrets solved, 21 guesses, average 2.3333, max 3" in text
    histogram = re.findall(r"^ (\d)\s+(\d+)\s+#+\s*$", text, re.MULTILINE)
    assert histogram == [("1", "1"), ("2", "4"), ("3", "4")]
    by_reply = re.findall(r"^ (\d\d)\s+(\d+)\s+([\d.]+)\s+(\d)\s*$", text, re.MULTILINE)
    assert by_reply == [
        ("20", "1", "1.0000", "1"),
        ("10", "4", "2.7500", "3"),
        ("02", "1", "2.0000", "2"),
        ("01", "2", "2.5000", "3"),
        ("00", "1", "2.0000", "2"),
    ]


def test_stats_of_an_invalid_strategy_exits_1(here: Path) -> None:
    (here / "bad.txt").write_text(EXAMPLE.replace(",00:CC", ""))
    result = invoke(["stats", "bad.txt"])
    assert result.exit_code == 1 and "1 secret not solved" in result.stdout


def test_stats_of_a_tree_that_solves_all_but_is_invalid_exits_1(here: Path) -> None:
    (here / "bad.txt").write_text(EXAMPLE.replace("{AB:{", "{AB:{20:BB,"))  # the win, written
    assert invoke(["verify", "bad.txt"]).exit_code == 1
    result = invoke(["stats", "bad.txt"])
    assert result.exit_code == 1 and "9 of 9 secrets solved" in result.stdout
    assert "1 error (strategytree verify says where)" in result.stdout
    result = invoke(["stats", "bad.txt", "--json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["errors"] == 1
    result = invoke(["stats", "mm23.txt", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["errors"] == 0


def test_stats_of_a_missing_file_exits_2(here: Path) -> None:
    result = invoke(["stats", "missing.txt"])
    assert result.exit_code == 2 and "error:" in result.stderr


def test_stats_plot_without_matplotlib(here: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    result = invoke(["stats", "mm23.txt", "--plot", "p.png"])
    assert result.exit_code == 2
    assert 'pip install "strategytree[plot]"' in result.stderr
    assert not (here / "p.png").exists()


def test_stats_plot(here: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib (the plot extra) is not installed")
    result = invoke(["stats", "mm23.txt", "--plot", "p.png"])
    assert result.exit_code == 0
    assert (here / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    no_leftovers(here)
