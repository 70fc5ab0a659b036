"""Nothing lost (issue 13, point 1): the installed command on real files.

No command writes over one of its own inputs, even through a link; an existing
output is overwritten only with --force; a symbolic link keeps being a link
(its target gets the new content); devices, FIFOs and ``-`` are streamed into,
never replaced; a missing or unwritable folder is refused before any work.
"""

from __future__ import annotations

import os
import stat
import subprocess
import threading
import time
from pathlib import Path

import pytest

from strategytree import files

from cli_runner import one_error, run

STRATEGY = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}\n"
GAME = ["-p", "2", "-c", "3"]



@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder holding ``s.txt``, a small MM(2,3) strategy, and ``link.txt`` to it."""
    (tmp_path / "s.txt").write_text(STRATEGY)
    (tmp_path / "link.txt").symlink_to("s.txt")
    return tmp_path


# -- no command writes over its input ------------------------------------------------------
READERS = {
    "show": lambda out: ["show", "s.txt", "-o", out],
    "convert": lambda out: ["convert", "s.txt", "-o", out],
    "stats": lambda out: ["stats", "s.txt", "--plot", out],
    "simulate-csv": lambda out: ["simulate", "--strategy", "s.txt", "--csv", out],
    "simulate-plot": lambda out: ["simulate", "--strategy", "s.txt", "--plot", out],
}


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
@pytest.mark.parametrize("out", ["s.txt", "link.txt", "./sub/../s.txt"])
@pytest.mark.parametrize("command", sorted(READERS))
def test_no_command_writes_over_its_input(
    folder: Path, console_script: list[str], command: str, out: str, force: bool
) -> None:
    (folder / "sub").mkdir()
    args = READERS[command](out) + (["--force"] if force else [])
    one_error(run(console_script, *args, cwd=folder), "same file", "input")
    assert (folder / "s.txt").read_text() == STRATEGY
    assert (folder / "link.txt").is_symlink()


def test_output_and_checkpoint_cannot_be_the_same_file(
    folder: Path, console_script: list[str]
) -> None:
    (folder / "ck").symlink_to("out.txt")
    for checkpoint in ("out.txt", "ck"):
        done = run(console_script, "generate", "-m", "optimal", *GAME, "-o", "out.txt",
                   "--checkpoint", checkpoint, cwd=folder)
        one_error(done, "same file", "checkpoint")
    assert not (folder / "out.txt").exists()
    done = run(console_script, "simulate", "--strategy", "s.txt", "--csv", "a.csv",
               "--plot", "a.csv", cwd=folder)
    one_error(done, "same file")


# -- an existing output: --force, alike in every command -----------------------------------
WRITERS = {
    "generate": lambda out: ["generate", *GAME, "-o", out],
    "show": lambda out: ["show", "s.txt", "-o", out],
    "convert": lambda out: ["convert", "s.txt", "-o", out],
    "simulate": lambda out: ["simulate", "--strategy", "s.txt", "--csv", out],
}


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_an_existing_output_needs_force(
    folder: Path, console_script: list[str], command: str
) -> None:
    out = folder / "out.txt"
    out.write_text("what the user had")
    one_error(run(console_script, *WRITERS[command]("out.txt"), cwd=folder),
              "out.txt exists; use --force to overwrite it")
    assert out.read_text() == "what the user had"
    done = run(console_script, *WRITERS[command]("out.txt"), "--force", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert out.read_text() != "what the user had"


def test_plots_need_force_too(folder: Path, console_script: list[str]) -> None:
    pytest.importorskip("matplotlib")
    for args in (["stats", "s.txt", "--plot", "p.png"],
                 ["simulate", "--strategy", "s.txt", "--plot", "p.png"]):
        (folder / "p.png").write_text("what the user had")
        one_error(run(console_script, *args, cwd=folder), "p.png exists", "--force")
        assert (folder / "p.png").read_text() == "what the user had"
        assert run(console_script, *args, "--force", cwd=folder).returncode == 0
        assert (folder / "p.png").read_bytes().startswith(b"\x89PNG")


# -- links, devices, FIFOs, stdout ---------------------------------------------------------
@pytest.mark.parametrize("command", ["show", "convert", "simulate"])
def test_a_link_is_kept_and_its_target_rewritten(
    folder: Path, console_script: list[str], command: str
) -> None:
    real = folder / "real.txt"
    real.write_text("old")
    (folder / "out.txt").symlink_to("real.txt")
    done = run(console_script, *WRITERS[command]("out.txt"), "--force", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert (folder / "out.txt").is_symlink() and os.readlink(folder / "out.txt") == "real.txt"
    assert real.read_text() not in ("old", "")
    assert sorted(p.name for p in folder.iterdir()) == ["link.txt", "out.txt", "real.txt", "s.txt"]


def test_a_dangling_link_gets_its_target_created(folder: Path, console_script: list[str]) -> None:
    (folder / "out.txt").symlink_to("new.txt")
    assert run(console_script, "convert", "s.txt", "-o", "out.txt", cwd=folder).returncode == 0
    assert (folder / "out.txt").is_symlink() and (folder / "new.txt").read_text() == STRATEGY


def test_a_fifo_is_streamed_into(folder: Path, console_script: list[str]) -> None:
    fifo = folder / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = run(console_script, "convert", "s.txt", "-o", "pipe", cwd=folder)
    reader.join(timeout=30)
    assert done.returncode == 0, done.stderr
    assert got == [STRATEGY.encode()]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
@pytest.mark.parametrize("command", ["show", "convert"])
def test_stdout_is_written_not_replaced(
    folder: Path, console_script: list[str], command: str, out: str
) -> None:
    done = run(console_script, *WRITERS[command](out), cwd=folder)
    assert done.returncode == 0, done.stderr
    assert ("AB" in done.stdout) and ("AC" in done.stdout)


@pytest.mark.parametrize("args", [
    ["stats", "s.txt", "--plot", "-"],
    ["simulate", "--strategy", "s.txt", "--csv", "-"],
])
def test_dash_is_stdout_only_where_a_command_writes_text(
    folder: Path, console_script: list[str], args: list[str]
) -> None:
    one_error(run(console_script, *args, cwd=folder), "standard output", "name a file")
    assert not (folder / "-").exists()


def test_stdout_redirected_to_a_file_is_written_once(
    folder: Path, console_script: list[str]
) -> None:
    with open(folder / "out.txt", "w") as sink:
        done = subprocess.run(
            [*console_script, "convert", "s.txt", "-o", "/dev/stdout"],
            stdout=sink, stderr=subprocess.PIPE, text=True, cwd=folder, timeout=300,
        )
    assert done.returncode == 0, done.stderr
    assert (folder / "out.txt").read_text() == STRATEGY


def test_dev_null_is_not_an_existing_output(folder: Path, console_script: list[str]) -> None:
    for args in (["convert", "s.txt", "-o", "/dev/null"], ["show", "s.txt", "-o", "/dev/null"],
                 ["simulate", "--strategy", "s.txt", "--csv", "/dev/null"]):
        done = run(console_script, *args, cwd=folder)
        assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_checkpoint_must_be_a_regular_file(folder: Path, console_script: list[str]) -> None:
    done = run(console_script, "generate", "-m", "optimal", *GAME, "-o", "out.txt",
               "--checkpoint", "/dev/null", cwd=folder)
    one_error(done, "/dev/null", "regular file")


# -- the folder is checked before any work -------------------------------------------------
def test_a_missing_folder_is_refused_before_the_search(
    folder: Path, console_script: list[str]
) -> None:
    started = time.perf_counter()
    done = run(console_script, "generate", "--method", "optimal", "-p", "4", "-c", "6",
               "-o", "missing/out.txt", cwd=folder)
    one_error(done, "missing", "does not exist")
    assert time.perf_counter() - started < 20  # the search of MM(4,6) takes minutes
    done = run(console_script, "generate", "--method", "optimal", "-p", "4", "-c", "6",
               "-o", "out.txt", "--checkpoint", "missing/ck", cwd=folder)
    one_error(done, "missing", "does not exist")
    for args in (["show", "s.txt", "-o", "missing/g.txt"],
                 ["simulate", "--strategy", "s.txt", "--csv", "missing/g.csv"],
                 ["stats", "s.txt", "--plot", "missing/g.png"],
                 ["convert", "s.txt", "-o", "missing/g.txt"]):
        one_error(run(console_script, *args, cwd=folder), "does not exist")
    assert not (folder / "missing").exists()


def test_a_read_only_folder_is_refused_before_the_search(
    folder: Path, console_script: list[str]
) -> None:
    locked = folder / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as root: a read-only folder is writable")
        started = time.perf_counter()
        done = run(console_script, "generate", "--method", "optimal", "-p", "4", "-c", "6",
                   "-o", "locked/out.txt", cwd=folder)
        one_error(done, "locked", "not writable")
        assert time.perf_counter() - started < 20
        done = run(console_script, "show", "s.txt", "-o", "locked/g.txt", cwd=folder)
        one_error(done, "not writable")
    finally:
        locked.chmod(0o755)


# -- the library ---------------------------------------------------------------------------
def test_library_checks(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text("x")
    (tmp_path / "l").symlink_to("a.txt")
    assert files.same_file(a, tmp_path / "l") and not files.same_file(a, "-")
    with pytest.raises(files.SameFileError, match="the input"):
        files.check_not_same(tmp_path / "l", {"the input": a})
    files.check_not_same("-", {"the input": a})
    with pytest.raises(files.OutputExistsError):
        files.check_writable(tmp_path / "l")
    files.check_writable(tmp_path / "l", force=True)
    files.check_writable("/dev/null")
    with pytest.raises(files.OutputError, match="regular"):
        files.check_writable("/dev/null", stream=False)
    with pytest.raises(files.OutputError, match="folder"):
        files.check_writable(tmp_path)
    with pytest.raises(files.OutputError, match="does not exist"):
        files.check_writable(tmp_path / "no" / "x.txt")
    assert files.target(tmp_path / "l") == a.resolve()


def test_a_failed_write_leaves_the_target_and_no_temporary(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    (tmp_path / "l").symlink_to("real.txt")
    with pytest.raises(RuntimeError):
        with files.atomic_path(tmp_path / "l") as tmp:
            tmp.write_text("half")
            raise RuntimeError
    assert real.read_text() == "old" and (tmp_path / "l").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["l", "real.txt"]


def test_an_unwritable_folder_is_refused_by_the_library(tmp_path: Path, monkeypatch) -> None:
    # as root every folder is writable: pretend it is not, to check the wording
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != tmp_path and real_access(p, mode))
    with pytest.raises(files.OutputError, match="not writable"):
        files.check_writable(tmp_path / "out.txt")


# -- formats by suffix (issue 13, point 8) -------------------------------------------
@pytest.mark.parametrize("command", [
    ["show", "s.txt", "-o", "out.jpg"],
    ["stats", "s.txt", "--plot", "out.jpg"],
    ["simulate", "--strategy", "s.txt", "--plot", "out.gif"],
])
def test_an_output_suffix_that_names_no_format_is_refused(
    folder: Path, console_script: list[str], command: list[str]
) -> None:
    one_error(run(console_script, *command, cwd=folder), "by the suffix")
    assert not any(p.name.startswith("out") for p in folder.iterdir())


def test_show_writes_any_suffix_when_the_format_is_named(
    folder: Path, console_script: list[str]
) -> None:
    done = run(console_script, "show", "s.txt", "--format", "text", "-o", "guide.out", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert (folder / "guide.out").read_text().splitlines()[1].startswith("guess AB")


@pytest.mark.parametrize("suffix, magic",
                         [(".svg", b"<?xml"), (".pdf", b"%PDF"), (".png", b"\x89PNG")])
def test_plots_are_written_in_the_format_of_their_suffix(
    folder: Path, console_script: list[str], suffix: str, magic: bytes
) -> None:
    pytest.importorskip("matplotlib")
    for command in (["stats", "s.txt", "--plot"], ["simulate", "--strategy", "s.txt", "--plot"]):
        out = folder / f"{command[0]}{suffix}"
        done = run(console_script, *command, out.name, cwd=folder)
        assert done.returncode == 0, done.stderr
        assert out.read_bytes().startswith(magic)
