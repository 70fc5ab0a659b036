"""Fixtures shared by several test files."""

from __future__ import annotations

import logging
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


@pytest.fixture(scope="module")
def client():
    """A Dask client of two single-threaded worker processes, as ``--workers 2``
    starts them (one cluster per test module; skipped without dask.distributed)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster) as client:
        yield client
