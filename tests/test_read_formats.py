"""Every command that takes a strategy file reads every format: ``--from``, or detection.

verify, show, stats, simulate --strategy and play --strategy all read through
:func:`strategytree.formats.reading.read_file`; the brace grammar is read exactly as before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_convert import DETECTED, FORMATS_DATA, irving, shared_files

from strategytree.cli import app
from strategytree.formats import reading
from strategytree.formats.brace import load
from strategytree.game import distinct

from cli_runner import DATA, invoke, runner

#: (file, format, total, max) for every file in tests/data/formats: the README's figures
#: for the shared files, MM(2,3) in 21 guesses (at most 3) for the small hand-written ones
EVERY_FILE = [(name, DETECTED[name], total, most) for name, total, most in shared_files()] + [
    (name, fmt, 21, 3) for name, fmt in DETECTED.items() if name.startswith("small")
]


def test_every_file_in_the_folder_is_checked() -> None:
    assert {name for name, *_ in EVERY_FILE} == {
        p.name for p in FORMATS_DATA.iterdir() if p.name != "README.md"
    }


def verified(args: list[str]) -> list[dict]:
    """The JSON reports of ``verify`` run with ``args`` (which must succeed)."""
    result = invoke(["verify", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(("name", "fmt", "total", "most"), EVERY_FILE)
def test_verify_reads_each_format_detected_and_named(
    name: str, fmt: str, total: int, most: int
) -> None:
    path = str(FORMATS_DATA / name)
    for args in ([path], ["--from", fmt, path]):
        (report,) = verified(args)
        assert (report["total"], report["max_guesses"], report["valid"]) == (total, most, True)


def test_verify_ranks_files_of_different_formats() -> None:
    names = ["small.txt", "small.json", "small-arfst.yml", "fancidev-mmstrat-p3c4r-optimal.txt"]
    reports = verified([str(FORMATS_DATA / n) for n in names])
    assert [r["total"] for r in reports] == [21, 21, 21, 206]


def test_show_stats_and_simulate_read_another_format() -> None:
    path = str(FORMATS_DATA / "fancidev-mmstrat-p3c4r-optimal.txt")
    shown = invoke(["show", path, "--format", "csv"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith("game,guesses,secret") and len(shown.stdout.splitlines()) == 65
    stats = invoke(["stats", "--from", "mmstrat", path])
    assert stats.exit_code == 0, stats.output
    assert "64 of 64 secrets solved, 206 guesses" in stats.stdout
    played = invoke(["simulate", "--strategy", str(FORMATS_DATA / "arfst23-solution-4-6-6.yml")])
    assert played.exit_code == 0, played.output
    assert "MM(4,6)" in played.stdout and "5,625" in played.stdout


def test_play_follows_a_strategy_in_another_format() -> None:
    # the small strategy opens with AB; the secret thought of is BA (two whites, then the win)
    args = ["play", "--strategy", str(FORMATS_DATA / "small.json")]
    result = runner.invoke(app, args, input="0 2\n2 0\n")
    assert result.exit_code == 0, result.output
    assert "guess 1: AB" in result.stdout and "guess 2: BA" in result.stdout


def test_lenient_with_another_format_is_refused_in_one_line() -> None:
    result = invoke(["verify", "--lenient", "--from", "json", str(FORMATS_DATA / "small.json")])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: --lenient reads the brace grammar, not --from json"
    ]
    assert result.stdout == ""


def test_lenient_still_reads_brace_dialects(tmp_path: Path) -> None:
    loose = tmp_path / "loose.txt"
    loose.write_text("{ab:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:BC:{01:CA},00:CC}}")
    assert invoke(["verify", str(loose)]).exit_code == 2
    for args in (["--lenient"], ["--lenient", "--from", "brace"]):
        result = invoke(["verify", *args, str(loose)])
        assert result.exit_code == 0, result.output
        assert "repaired" in result.stdout


def test_an_unknown_format_is_refused() -> None:
    result = invoke(["stats", "--from", "yaml", str(FORMATS_DATA / "small.json")])
    assert result.exit_code == 2
    assert "'yaml' is not one of 'brace'" in result.stderr


def test_a_brace_file_fails_with_the_brace_readers_own_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("{AB:{10:AA:BB}}")
    for command in (["verify"], ["show"], ["stats"], ["simulate", "--strategy"]):
        result = invoke([*command, str(bad)])
        assert result.exit_code == 2
        assert result.stderr.strip() == (
            f"error: {bad}:1:11: expected ',' or '}}' after a branch, found ':'"
        )


def test_a_brace_file_reads_as_the_brace_reader_reads_it() -> None:
    path = DATA / "arfst-4-6-6.txt"
    read = reading.read_file(path)
    assert (read.fmt, read.game) == ("brace", None)
    assert read.strategy == load(path)
    assert read.strategy.newlines == load(path).newlines


def test_reading_a_brace_file_imports_no_other_reader_nor_numba() -> None:
    code = (
        "import sys\n"
        "from strategytree.formats import reading\n"
        f"reading.read_file({str(DATA / 'arfst-4-6-6.txt')!r})\n"
        "readers = ('mmstrat', 'arfst', 'graphviz', 'jsontree', 'lookup')\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.rpartition('.')[2] in readers))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# -- the game of an mmstrat file: from its counts, or from the options ---------------------
@pytest.fixture(scope="module")
def distinct_mmstrat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """arfst23's best strategy for 4 distinct of 6 (1,446 guesses) in mmstrat's text."""
    path = tmp_path_factory.mktemp("mmstrat") / "unique.txt"
    game = distinct(4, 6, distinct_guesses=True)
    path.write_text(irving(load(DATA / "arfst-4-6-unique.txt"), game))
    return path


def test_the_game_of_an_mmstrat_file_is_the_one_its_counts_tell(distinct_mmstrat: Path) -> None:
    (report,) = verified([str(distinct_mmstrat)])
    assert (report["total"], report["secrets"], report["valid"]) == (1446, 360, True)
    assert report["game_notes"] == ["pegs 4, colors 6, distinct colours (from the counts)"]
    stats = invoke(["stats", str(distinct_mmstrat)])
    assert stats.exit_code == 0 and "360 of 360 secrets solved, 1,446 guesses" in stats.stdout


def test_the_game_the_options_give_is_the_one_an_mmstrat_file_is_read_in(
    distinct_mmstrat: Path,
) -> None:
    (report,) = verified(["--distinct-guesses", "-p", "4", "-c", "6", str(distinct_mmstrat)])
    assert (report["total"], report["secrets"], report["game_notes"]) == (1446, 360, [])
    wrong = invoke(["verify", "-p", "4", "-c", "6", str(distinct_mmstrat)])
    assert wrong.exit_code == 2
    assert "1,296 of MM(4,6)" in wrong.stderr or "1296 of MM(4,6)" in wrong.stderr


def test_the_library_says_which_format_and_game_a_file_was_read_in() -> None:
    from strategytree.errors import ArgumentError

    read = reading.read_file(FORMATS_DATA / "fancidev-mmstrat-p3c4r-optimal.txt")
    assert (read.fmt, read.game.pegs, read.game.colors) == ("mmstrat", 3, 4)
    assert reading.read_file(FORMATS_DATA / "small.json").game is None
    with pytest.raises(ArgumentError, match="lenient=True reads the brace grammar, not fmt='json'"):
        reading.read(FORMATS_DATA / "small.json", "json", lenient=True)
    with pytest.raises(ArgumentError, match="lenient=True has no effect on .*small.json: it is "
                       "written in json"):
        reading.read(FORMATS_DATA / "small.json", lenient=True)  # told from the content
