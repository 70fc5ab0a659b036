"""Every Python snippet of the README runs on its own, as a reader would paste it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_the_readme_has_snippets() -> None:
    assert len(SNIPPETS) >= 3


@pytest.mark.parametrize("code", SNIPPETS, ids=[f"snippet {i + 1}" for i in range(len(SNIPPETS))])
def test_readme_snippet_runs_on_its_own(code: str, tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # snippets read the shipped examples
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
