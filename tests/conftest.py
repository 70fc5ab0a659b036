"""Fixtures shared by several test files."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest


@pytest.fixture
def here(tmp_path: Path, monkeypatch) -> Path:
    """A temporary working folder (short relative names keep the tables narrow)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def console_script() -> list[str]:
    """How to run the installed ``strategytree`` command as a real process."""
    beside = Path(sys.executable).with_name("strategytree")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("strategytree")
    return [found] if found else [sys.executable, "-m", "strategytree"]
