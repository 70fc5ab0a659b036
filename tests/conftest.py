"""Fixtures shared by several test files, and the markers given by what a test uses.

A test that uses the ``client`` fixture is marked ``cluster``; one whose code
starts a process (``subprocess``, the ``console_script`` fixture) is marked
``subprocess``; one whose code runs the kernels with ``NUMBA_DISABLE_JIT`` is
marked ``jit_off`` (modules wholly of one kind say so with ``pytestmark``, as the
browser tests say ``browser``), so that the fast core runs alone:
``pytest -m "not slow and not cluster and not subprocess and not jit_off and not browser"``
(a ``-m`` given replaces the default ``-m "not slow"``).
"""

from __future__ import annotations

import inspect
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


#: words in a test's code that say it starts a process
STARTS_A_PROCESS = ("subprocess.", "Popen(", "console_script", "run_cli(")
#: words in a test's code that say it runs the kernels as plain Python
TURNS_THE_JIT_OFF = ("NUMBA_DISABLE_JIT",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``cluster`` the tests on a Dask cluster, ``subprocess`` those that start a process,
    ``jit_off`` those that run the kernels uncompiled."""
    for item in items:
        if "client" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.cluster)
        function = getattr(item, "function", None)
        try:
            code = inspect.getsource(function) if function is not None else ""
        except (OSError, TypeError):
            code = ""
        if any(word in code for word in STARTS_A_PROCESS):
            item.add_marker(pytest.mark.subprocess)
        if any(word in code for word in TURNS_THE_JIT_OFF):
            item.add_marker(pytest.mark.jit_off)
