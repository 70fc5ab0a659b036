"""The reliability probe of issue 37: each input it found to break a reader, a
checkpoint or an output becomes one error line with its exit code, in time and
memory in proportion to the input.  The hostile inputs are made here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import strategytree as st
from strategytree import checkpoint, memory
from strategytree.errors import ArgumentError
from strategytree.formats.grammar import MAX_DIGITS
from strategytree.formats.reading import reads

from cli_runner import EXAMPLE, one_error, run

#: a number Python refuses to convert (more than 4,300 digits)
HUGE = "1" + "0" * 5000


# -- numbers of thousands of digits ---------------------------------------------------------
@pytest.mark.parametrize("fmt, text, what", [
    ("mmstrat", f"{HUGE} (12: 1, 2 (23), 1; 4 (32); 1)\n", "count"),
    ("mmstrat", f"9 (12: 1, {HUGE} (23), 1; 4 (32); 1)\n", "count"),
    ("csv", f"game,guesses,secret\nAB 20,{HUGE},AB\n", "number of guesses"),
    ("arfst-table", f"     -- O- OO X- XX\n{HUGE} 1 01 >001 ---- 10 ---- 01\n"
              "001 2 22 ---- ---- ---- 20 22\n", "row number"),
    ("arfst-table", f"     -- O- OO X- XX\n000 1 01 >{HUGE} ---- 10 ---- 01\n"
              "001 2 22 ---- ---- ---- 20 22\n", "row number"),
])
def test_a_number_of_thousands_of_digits_is_refused_where_it_stands(fmt, text, what) -> None:
    with pytest.raises(st.StrategyFileError) as refused:
        reads(text, fmt)
    message = str(refused.value)
    assert f"the {what}" in message and "5,001 digits" in message
    assert f"at most {MAX_DIGITS}" in message
    assert len(message) < 200 and refused.value.line is not None


def test_numbers_of_many_digits_still_read_when_short_enough() -> None:
    # leading zeros are digits too: a count of 18 digits is read
    text = "0" * (MAX_DIGITS - 1) + "9 (12: 1, 2 (23), 1; 4 (32); 1)"
    assert reads(text, "mmstrat").count_nodes() == 9


# -- deep nesting ------------------------------------------------------------------------------
def _mmstrat_nested(levels: int) -> str:
    """An MM(2,3) mmstrat file whose second part is an empty part nested ``levels`` deep."""
    inner = "0"
    for _ in range(levels):
        inner = f"0 (12: {inner}, 0, 0; 0; 0)"
    return f"9 (12: 1, 2 (23: {inner}, 0, 1; 0; 1), 1; 4 (32); 1)\n"


@pytest.mark.parametrize("levels", [500, 20_000])
def test_mmstrat_nested_deep_is_read_without_recursion(levels: int) -> None:
    with pytest.raises(st.StrategyFileError) as refused:
        reads(_mmstrat_nested(levels), "mmstrat")
    # read down to the innermost part, whose count is wrong: an error there, not a RecursionError
    assert "counts 0 secrets here, but 1" in str(refused.value)
    assert refused.value.column > 10 * levels


def test_mmstrat_deep_subtrees_are_built_as_written() -> None:
    # the builder's stack keeps the written order: the same tree as the brace text
    text = "9 (12: 1, 2 A, 1; 4 B; 1)\nA = (23)\nB = (32)"
    strategy = reads(text, "mmstrat")
    assert st.dumps(strategy) == "{AB:{02:BA,01:{BC:{01:CA}},00:CC,10:{CB:{01:AC,00:AA,10:BB}}}}"


# -- checkpoints that lie -------------------------------------------------------------------
def test_a_record_claiming_more_than_the_file_holds_reads_nothing(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    head = {"search": "example", "game": "MM(2,3)"}
    saved = checkpoint.Checkpoint(path, head)
    saved.rewrite({"rows": np.arange(10).reshape(2, 5)})
    with open(path, "ab") as out:  # a record claiming 2**62 rows of 5
        out.write(json.dumps({"arrays": [{"name": "rows", "dtype": "<i8",
                                          "shape": [2**62, 5]}]}).encode() + b"\n")
        out.write(b"\0" * 80)
    assert checkpoint.load(path, head)["rows"].tolist() == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    with open(path, "ab") as out:  # and negative or object shapes
        out.write(json.dumps({"arrays": [{"name": "rows", "dtype": "|O",
                                          "shape": [-1]}]}).encode() + b"\n")
    assert len(checkpoint.load(path, head)["rows"]) == 2


def test_an_improve_checkpoint_of_garbage_bytes_is_a_checkpoint_error(tmp_path: Path) -> None:
    from strategytree.improve import improve

    game = st.mastermind(2, 3)
    path = tmp_path / "improve.ckpt"
    strategy = st.loads(EXAMPLE)
    improve(strategy, game, exact_below=4, widths="1", checkpoint=path)
    data = bytearray(path.read_bytes())
    tree = data.index(b"{A")  # the saved tree's bytes: made not text
    data[tree:tree + 4] = b"\xff\xfe\x80\x81"
    path.write_bytes(bytes(data))
    with pytest.raises(checkpoint.CheckpointError, match="damaged"):
        improve(strategy, game, exact_below=4, widths="1", checkpoint=path)


# -- the standard output on a full disk -----------------------------------------------------
@pytest.mark.parametrize("command", [["convert"], ["verify", "--json"], ["verify"], ["show"]])
def test_a_full_standard_output_is_one_error_line(tmp_path: Path, console_script, command) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    strategy = tmp_path / "mm23.txt"
    strategy.write_text(EXAMPLE + "\n")
    with open("/dev/full", "w") as full:
        done = subprocess.run([*console_script, *command, str(strategy)], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120, cwd=tmp_path)
    one_error(subprocess.CompletedProcess(done.args, done.returncode, "", done.stderr),
              "standard output", "No space left on device")


@pytest.mark.parametrize("command", [["verify"], ["stats"], ["show"]])
def test_a_pipe_whose_reader_has_gone_ends_with_exit_2(console_script, command) -> None:
    """``| head``: the reader closes the pipe at once; the command ends quietly with
    exit 2 (not rich's or typer's exit 1, an invalid strategy's code)."""
    mm56 = Path(__file__).parents[1] / "examples" / "mm56.txt"
    read, write = os.pipe()
    os.close(read)  # a reader already gone: every write fails
    try:
        done = subprocess.run([*console_script, *command, str(mm56)], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["convert", "-o", "-"], ["show"], ["format", "-o", "-"]])
def test_a_reader_gone_in_the_middle_of_a_long_write_ends_with_exit_2(console_script,
                                                                     command) -> None:
    """The reader goes while the command's one long write waits on the full pipe:
    the system cuts the write short, and the rest may not be dropped with exit 0."""
    mm58 = Path(__file__).parents[1] / "examples" / "mm58.txt"  # 338 KB: more than a pipe holds
    child = subprocess.Popen([*console_script, command[0], str(mm58), *command[1:]],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.read(10)
        time.sleep(0.5)  # (the writer blocks on the full pipe)
        child.stdout.close()
        _, errors = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 2, errors
    assert b"Traceback" not in errors and b"error" not in errors  # quiet, as | head wants


@pytest.mark.parametrize("closed", ["stdout", "stderr"])
def test_a_closed_standard_stream_is_no_traceback(tmp_path: Path, console_script,
                                                 closed: str) -> None:
    strategy = tmp_path / "mm23.txt"
    strategy.write_text(EXAMPLE + "\n")
    kept = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    for name, code in [(str(strategy), 0), ("missing.txt", 2)]:
        done = subprocess.run(
            [*console_script, "verify", name], **kept, text=True, timeout=120, cwd=tmp_path,
            preexec_fn=lambda: os.close(1 if closed == "stdout" else 2))
        assert done.returncode == code, (name, done.stdout, done.stderr)
        assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize("command", [["simulate", "--games", "3"], ["generate", "-o", "-",
                                                                     "--rule", "random"]])
def test_a_negative_seed_is_one_error_line(tmp_path: Path, console_script, command) -> None:
    done = run(console_script, *command, "-p", "3", "-c", "4", "--seed", "-1", cwd=tmp_path)
    one_error(done, "--seed", "-1")


def test_a_long_key_is_quoted_short() -> None:
    key = "K" * (10 * 2**20)
    with pytest.raises(st.StrategyFileError) as refused:
        reads('{"guess": "AB", "' + key + '": 1}', "json")
    assert len(str(refused.value)) < 200 and "10,485,760 characters" in str(refused.value)


def test_cli_runner_helpers_are_used(tmp_path: Path, console_script) -> None:
    done = run(console_script, "verify", "missing.txt", cwd=tmp_path)
    one_error(done, "missing.txt")


# -- strings of megabytes, graphs of many nodes -------------------------------------------
@pytest.mark.parametrize("fmt, text", [
    ("json", '{"guess": "AB", "branches": {"10": {"guess": "%s"}}}'),
    ("dot", 'digraph strategy {\n n0 [label="AB"];\n n1 [label="%s"];\n n0 -> n1 [label="10"];\n}'),
    ("dot", 'digraph strategy {\n n0 [label="AB"];\n n1 [label="%s"];\n n0 -> n1 [label="10"];\n'
            '// a comment: read by the grammar\n}'),
])
def test_a_string_of_megabytes_takes_memory_in_proportion(fmt: str, text: str) -> None:
    import tracemalloc

    size = 4 * 2**20
    text = text % ("A" * size)
    tracemalloc.start()
    try:
        strategy = reads(text, fmt)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(strategy.root.branches[0][1].guess) == size
    assert peak < 12 * len(text)  # was over 100 times: a repeat per character of the string


def _chain(nodes: int) -> str:
    lines = ["digraph strategy {", '  node [fontname="Helvetica"]; edge [fontname="Helvetica"];']
    for i in range(nodes):
        lines.append(f'  n{i} [label="AB\\n9 secrets", shape=ellipse];')
        if i:
            lines.append(f'  n{i - 1} -> n{i} [label="01"];')
    return "\n".join(lines + ["}"]) + "\n"


DOT_TEXTS = [
    'digraph { 1 [label="12 - 0"]; 2 [label="21"]; 1 -> 2 [label="02"] }',
    'strict DiGraph "x y" {\n node [shape=box]\n a -> b -> c [label="01", color=red][x=1];\n'
    ' b [label="AB\\n3"; shape=x] root = a\n}\n',
    _chain(5),
    *[(Path(__file__).parent / "data" / "formats" / name).read_text()
      for name in ("small.dot", "small-mikemag.gv", "mikemag-knuth-4p6c.gv")],
]


@pytest.mark.parametrize("text", DOT_TEXTS)
def test_the_fast_dot_statements_are_the_grammars(text: str) -> None:
    from strategytree.formats import graphviz

    def plain(statements: list) -> list:
        out = []
        for kind, *parts in statements:
            row = [kind]
            for part in parts:
                if isinstance(part, dict):  # the reader uses the label alone
                    part = part.get("label")
                row.append(None if part is None else (part.type, str(part), part.start_pos))
            out.append(row)
        return out

    fast = graphviz._fast_statements(text)
    assert fast is not None
    assert plain(fast) == plain(graphviz._parser().parse(text))


@pytest.mark.parametrize("text", [
    "digraph { // a comment\n a }", "digraph { subgraph { a } }", "digraph { a [label=] }",
    "digraph { a ", "graph", "digraph { node }",
])
def test_what_the_fast_dot_reading_does_not_know_goes_to_the_grammar(text: str) -> None:
    from strategytree.formats import graphviz

    assert graphviz._fast_statements(text) is None


def test_a_chain_of_many_dot_nodes_is_read_without_the_grammar(monkeypatch) -> None:
    from strategytree.formats import graphviz

    def refused() -> None:
        raise AssertionError("the grammar was used")

    monkeypatch.setattr(graphviz, "_parser", refused)
    strategy = reads(_chain(20_000), "dot")
    assert strategy.depth() == 20_000


@pytest.mark.slow
def test_a_chain_of_100k_dot_nodes_is_read_in_seconds(tmp_path: Path) -> None:
    import time

    started = time.process_time()
    strategy = reads(_chain(100_000), "dot")
    assert strategy.depth() == 100_000
    assert time.process_time() - started < 20  # was 34 s (quadratic); about 3 s idle


# -- indenting ------------------------------------------------------------------------------
def test_indented_size_is_what_the_writer_writes() -> None:
    from strategytree.formats.brace import indented_size

    for text in [EXAMPLE, "{AB:{10:AA}}", "AB", "{AB:{01:{BA:{02:{CC:{00:AA}}}}}}"]:
        strategy = st.loads(text)
        for indent in (0, 1, 2, 7):
            flat, indented, depth = indented_size(strategy.root, indent)
            assert (flat, indented, depth) == (
                len(st.dumps(strategy)), len(st.dumps(strategy, indent=indent)), strategy.depth())


def test_indenting_a_deep_tree_is_refused_with_the_size() -> None:
    from strategytree.formats.writing import writes

    deep = st.loads("{A:{01:" * 20_000 + "{A:{01:B}}" + "}}" * 20_000)
    for fmt in ("brace", "json"):
        with pytest.raises(ArgumentError) as refused:
            writes(deep, fmt, indent=2)
        assert re.search(r"would write [0-9.]+ MB for a tree of [0-9.]+ kB", str(refused.value))
        assert f"{deep.depth():,} guesses deep" in str(refused.value)
    assert writes(deep, "brace").startswith("{A:{01:")  # on one line it is written
    indented = writes(st.loads(EXAMPLE), "brace", indent=8)
    assert "\n        10:{AC:{\n                10:AA," in indented


# -- checkpoints ------------------------------------------------------------------------------
def test_a_run_resumed_from_a_finished_checkpoint_writes_the_same_tree(tmp_path: Path) -> None:
    from strategytree.search.driver import build_optimal

    game = st.mastermind(3, 5)
    saved = tmp_path / "run.ckpt"
    first = st.dumps(build_optimal(game, checkpoint=saved))
    again = st.dumps(build_optimal(game, checkpoint=saved))
    assert again == first
    assert st.dumps(build_optimal(game, checkpoint=saved)) == first  # and once more
    assert st.dumps(build_optimal(game)) == first  # as a run without a checkpoint


def test_the_first_save_comes_right_after_the_setup(tmp_path: Path, monkeypatch) -> None:
    from strategytree.search import driver

    saved = tmp_path / "run.ckpt"
    seen: list[bool] = []
    root = driver.Search.root

    def looked(search, *args):
        seen.append(saved.exists())  # when the search starts, the checkpoint is there
        return root(search, *args)

    monkeypatch.setattr(driver.Search, "root", looked)
    driver.build_optimal(st.mastermind(2, 3), checkpoint=saved)
    assert seen == [True]


def test_temporary_files_of_killed_writers_are_removed(tmp_path: Path) -> None:
    from strategytree.files import write_text_atomic

    gone = subprocess.Popen(["true"])  # a process that has ended: its id is free
    gone.wait()
    out = tmp_path / "out.txt"
    stale = tmp_path / f".out.txt.{gone.pid}.k1ll3d00.tmp"
    alive = tmp_path / f".out.txt.{os.getpid()}.wr1t1ng0.tmp"
    other = tmp_path / ".out.txt.notours.tmp"
    for path in (stale, alive, other):
        path.write_text("half written")
    write_text_atomic(out, "new\n")
    assert out.read_text() == "new\n"
    assert not stale.exists() and alive.exists() and other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, alive.name, other.name])


@pytest.mark.parametrize("how", ["generate", "improve"])
def test_a_killed_save_leaves_nothing_a_later_run_keeps(tmp_path: Path, console_script,
                                                         how: str) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()
    saved = tmp_path / "run.ckpt"
    stale = tmp_path / f".run.ckpt.{gone.pid}.abcdefgh.tmp"
    stale.write_bytes(b'{"format": "strategytree-checkpoint"')  # a save cut short by SIGKILL
    strategy = tmp_path / "mm23.txt"
    strategy.write_text(EXAMPLE + "\n")
    if how == "generate":
        args = ["generate", "-m", "optimal", "-p", "2", "-c", "3", "-o", "out.txt"]
    else:
        args = ["improve", "mm23.txt", "-o", "out.txt"]
    done = run(console_script, *args, "--checkpoint", saved, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert saved.exists() and not stale.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


# -- memory estimated before it is taken ---------------------------------------------------
class _Endless:
    """A pipe that never ends, counting what was read of it."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def read(self, size: int = -1) -> bytes:
        self.read_bytes += size
        return b" " * size


def test_a_pipe_is_refused_for_memory_as_it_comes_in(monkeypatch) -> None:
    from strategytree.formats import source

    monkeypatch.setattr(memory, "available_memory", lambda: 1000 * 2**20)
    monkeypatch.setattr(source, "MAX_INPUT_BYTES", 2 * 2**20)  # the default cap, made small
    pipe = _Endless()
    with pytest.raises(st.StrategyFileError, match="at least 7 MiB; reading it could take"):
        source.read_text(pipe, max_bytes=2500 * 2**20)  # type: ignore[arg-type]
    # 1000 MiB free allows 0.8 * 1000 / 120 = 6.7 MiB of text: refused at 7, not at 2,500
    assert pipe.read_bytes <= 7 * source.CHUNK


@pytest.mark.parametrize("use, words", [("check", "checking a strategy of MM(6,17)"),
                                        ("build", "building a strategy for MM(6,17)")])
def test_a_game_too_big_for_the_memory_left_is_refused_with_the_figure(monkeypatch, use,
                                                                        words) -> None:
    from strategytree import game as games

    monkeypatch.setattr(memory, "available_memory", lambda: 4 * 2**30)
    big = SimpleNamespace(name="MM(6,17)", secrets=range(17**6))  # what the estimate reads
    with pytest.raises(st.GameError) as refused:
        games.check_memory(big, use)
    need = 17**6 * games.MEMORY_PER_SECRET[use] / 2**30
    assert f"{words} (24,137,569 secrets) takes about {need:,.1f} GiB" in str(refused.value)
    assert "4.0 GiB available" in str(refused.value)
    games.check_memory(games.mastermind(4, 6), use)  # a small game is never refused


def test_verify_and_generate_ask_before_they_allocate(tmp_path: Path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from strategytree.cli import app

    monkeypatch.setattr(memory, "available_memory", lambda: 2**20)  # 1 MiB: nothing fits
    six = tmp_path / "six.txt"
    six.write_text("{ABCDEF:{10:AAAAAA}}\n")
    runner = CliRunner()
    for args in (["verify", str(six), "-c", "17"],
                 ["generate", "-m", "lookahead", "-p", "7", "-c", "11", "-o",
                  str(tmp_path / "x.txt")]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "GiB of memory" in result.output and "Traceback" not in result.output


def test_a_guess_of_megabytes_and_a_path_of_a_million_steps_are_shown_short() -> None:
    game = st.mastermind(2, 3)
    long_guess = st.loads('{AB:{10:' + "A" * 2**20 + '}}')
    report = st.verify(long_guess, game)
    said = json.dumps(report.to_dict())
    assert "1,048,576 letters" in said and len(said) < 4000
    deep = st.loads("{AB:{01:" * 30_000 + "{AB:{01:BA}}" + "}}" * 30_000)
    report = st.verify(deep, game)
    paths = [case.path for case in report.unsolved_examples]
    cut = re.compile(r"AB 01, \.\.\. \([0-9]{2},[0-9]{3} more\) \.\.\., AB 01")
    assert any(cut.search(path) for path in paths)
    assert max(map(len, paths)) < 400
