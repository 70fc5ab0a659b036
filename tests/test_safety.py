"""Hostile input and nothing lost: our errors only, exit codes, atomic output."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import strategytree as st
from strategytree import memory
from strategytree.cli import app

FUZZ = Path(__file__).parent / "data" / "fuzz"
runner = CliRunner()


@pytest.mark.parametrize("path", sorted(FUZZ.glob("*.txt")), ids=lambda p: p.name)
@pytest.mark.parametrize("command",
                         [["verify"], ["verify", "--json"], ["show"], ["verify", "--lenient"]])
def test_hostile_files_get_our_errors(path: Path, command: list[str]) -> None:
    result = runner.invoke(app, [*command, str(path)])
    # verify refuses (1: invalid strategy, 2: unreadable); show may show a readable one
    allowed = (0, 1, 2) if command == ["show"] else (1, 2)
    assert result.exit_code in allowed, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 2:
        assert path.name in result.output


@pytest.mark.parametrize("path", sorted(FUZZ.glob("*.txt")), ids=lambda p: p.name)
def test_hostile_files_raise_only_our_errors_in_the_library(path: Path) -> None:
    try:
        strategy = st.load(path)
    except st.StrategyTreeError:
        return
    try:
        st.verify(strategy)
    except st.StrategyTreeError:
        pass


def test_a_line_of_megabytes_is_an_error_with_a_position(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text("{AB:{10:" + "A" * 3_000_000 + "}}")
    strategy = st.load(path)  # one very long guess: read, then refused by the verifier
    report = st.verify(strategy, st.mastermind(2, 3))
    assert not report.valid
    assert any(p.kind == "malformed-guess" for p in report.errors)
    path.write_text("{AB:{10:AA," + "1" * 2_000_000 + "}}")
    with pytest.raises(st.StrategyFileError) as err:
        st.load(path)
    assert ":1:" in str(err.value) and len(str(err.value)) < 300


def test_a_file_too_big_for_memory_is_refused(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "big.txt"
    path.write_text("{AB:{10:AA}}" + " " * 100_000)
    monkeypatch.setattr(memory, "available_memory", lambda: 1_000_000)
    with pytest.raises(st.StrategyFileError, match="memory"):
        st.load(path)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2 and "memory" in result.output


@pytest.mark.parametrize("args", [["-p", "9", "-c", "26"], ["-p", "9", "-c", "8"]])
def test_games_too_big_are_refused_with_an_estimate(tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(app, ["generate", *args, "-o", str(tmp_path / "x.txt")])
    assert result.exit_code == 2
    assert "GiB" in result.output and "Traceback" not in result.output


def test_wide_node_is_handled() -> None:
    branches = ",".join(f"{i % 5}{(i // 5) % 5}:AA" for i in range(100_000))
    strategy = st.loads("{AB:{" + branches + "}}")
    assert len(strategy.root.branches) == 100_000
    report = st.verify(strategy, st.mastermind(2, 5))
    assert any(p.kind == "duplicate-reply" for p in report.errors)


@pytest.mark.slow
def test_a_million_levels_and_a_million_branches(tmp_path: Path, console_script: list[str]) -> None:
    deep = tmp_path / "deep.txt"
    deep.write_text("{AA:{00:" * 1_000_000 + "BB" + "}}" * 1_000_000)
    code = f"import strategytree as st; s = st.load({str(deep)!r}); print(s.depth()); st.verify(s)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1000001"]
    wide = tmp_path / "wide.txt"
    wide.write_text(
        "{AB:{" + ",".join(f"{i % 10}{(i // 10) % 10}:AA" for i in range(1_000_000)) + "}}")
    result = subprocess.run([*console_script, "verify", str(wide)], capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 1 and "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_interrupted_generate_leaves_the_old_file(
    tmp_path: Path, how: signal.Signals, console_script: list[str]
) -> None:
    out = tmp_path / "mm58.txt"
    out.write_text("the old strategy")
    child = subprocess.Popen(
        # a lookahead search of MM(5,8): minutes, so the signal lands while it works
        [*console_script, "generate", "-p", "5", "-c", "8", "--method", "lookahead",
         "--widths", "8,8,8", "-o", str(out), "--force"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # SIGINT must reach the program even when the tests run in a background
        # job, whose children inherit it ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        time.sleep(2.5)
        if child.poll() is not None:
            pytest.skip("generate finished before it could be interrupted")
        child.send_signal(how)
        stdout, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:  # never leave a search running behind a failed test
            child.kill()
            child.wait()
    assert child.returncode != 0
    if how == signal.SIGINT:
        assert child.returncode == 130
        assert "Traceback" not in stdout + stderr
    assert out.read_text() == "the old strategy"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mm58.txt"]  # no temporary file


def test_a_second_stop_while_the_best_so_far_is_written_loses_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    """``timeout`` sends its signal twice (the command, then its process group): the
    second lands as the best strategy so far is being written, and must not cut it."""
    from strategytree import generate as generating
    from strategytree.formats import writing
    from strategytree.runner import Interrupted

    best = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")

    def stopped(*args, **kwargs):
        raise Interrupted(best)

    def write_stopped_again(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        return write(*args, **kwargs)

    write = writing.write
    monkeypatch.setattr(generating, "generate", stopped)
    monkeypatch.setattr(writing, "write", write_stopped_again)
    out = tmp_path / "best.txt"
    with pytest.raises(Interrupted) as raised:
        generating.generate_file(st.mastermind(2, 3), out, "optimal")
    assert raised.value.result.total == 21 and st.verify(st.load(out)).total == 21


@pytest.mark.parametrize("existed", [False, True])
@pytest.mark.parametrize("written", [False, True])
def test_a_stop_outside_the_run_says_what_the_output_holds(
    tmp_path: Path, monkeypatch, existed: bool, written: bool
) -> None:
    """Stopped before the run began (compiling), or once it had written its file."""
    from strategytree import generate as generating

    from cli_runner import invoke

    out = tmp_path / "o.txt"
    if existed:
        out.write_text("the old strategy")

    def stopped(game, output, *args, **kwargs):
        if written:
            Path(output).write_text("new")
        raise KeyboardInterrupt

    monkeypatch.setattr(generating, "generate_file", stopped)
    result = invoke(["generate", "-p", "2", "-c", "3", "-o", str(out), "--force"])
    assert result.exit_code == 130
    said = result.stderr.splitlines()
    if written:
        assert said == [f"{out} is written (before the stop)", "interrupted"]
    else:
        kept = " (the file is as it was)" if existed else ""
        assert said == [f"nothing is written to {out}{kept}", "interrupted"]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_that_cannot_show_every_character_gets_a_stand_in(
    tmp_path: Path, console_script: list[str], encoding: str
) -> None:
    (tmp_path / "s.txt").write_text(
        "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
    for command in (["verify", "s.txt"], ["stats", "s.txt"]):
        done = subprocess.run([*console_script, *command], capture_output=True, cwd=tmp_path,
                              env={**os.environ, "PYTHONIOENCODING": encoding}, timeout=120)
        assert done.returncode == 0, done.stderr
        assert b"optimum 21 (strategytree exact search" in done.stdout  # its arrow a '?'
        assert b"Traceback" not in done.stderr


def test_completed_generate_replaces_the_file_whole(tmp_path: Path,
                                                    console_script: list[str]) -> None:
    out = tmp_path / "mm44.txt"
    out.write_text("old")
    done = subprocess.run(
        [*console_script, "generate", "-p", "4", "-c", "4", "-o", str(out), "--force"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = st.verify(st.load(out), st.mastermind(4, 4))
    assert report.valid
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mm44.txt"]


# -- fuzzing the whole command line ------------------------------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as hs  # noqa: E402

from trees import any_trees, damaged  # noqa: E402


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hs.data(),
       command=hs.sampled_from([["verify"], ["verify", "--json"], ["verify", "--strict"],
                                               ["verify", "--lenient"], ["show"], ["stats"]]))
def test_damaged_files_through_the_command_line(tmp_path: Path, data, command: list[str]) -> None:
    text = st.dumps(data.draw(any_trees()))
    text = data.draw(damaged(text))
    raw = text.encode("utf-8", errors="surrogatepass")
    if data.draw(hs.booleans()):  # sometimes raw bytes that are not UTF-8 at all
        at = data.draw(hs.integers(0, len(raw)))
        raw = raw[:at] + data.draw(hs.binary(min_size=1, max_size=4)) + raw[at:]
    path = tmp_path / "fuzz.txt"
    path.write_bytes(raw)
    result = runner.invoke(app, [*command, str(path)])
    assert result.exit_code in (0, 1, 2), result.output
    assert (result.exception is None
            or isinstance(result.exception, SystemExit)), repr(result.exception)
    assert "Traceback" not in result.output
