"""What the command-line tests share: the app run in-process, never raising."""

from __future__ import annotations

import subprocess
from pathlib import Path

from typer.testing import CliRunner

from strategytree.cli import app

DATA = Path(__file__).parent / "data"
#: the MM(2,3) strategy of the code-golf challenge (total 21, max 3)
EXAMPLE = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"

runner = CliRunner()


def invoke(args: list[str]):
    """Run the app; it may exit with a code, but must never raise anything else."""
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def run(console_script: list[str], *args: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    """Run the installed ``strategytree`` with ``args`` in ``cwd``."""
    return subprocess.run(
        [*console_script, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def one_error(done: subprocess.CompletedProcess, *words: str) -> None:
    """The run was refused with exit 2 and one ``error:`` line holding ``words``."""
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in lines[0], lines[0]
