"""Start-up: the warm-up skipped once numba's cache holds every kernel it loads, and
cached kernels loaded without numba's compiler set-up (issue 38)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import strategytree as st
from strategytree import launch, progress
from strategytree.jit import njit
from strategytree.kernelcache import quick_loads


def _warm_with(calls: list[str], setting: str):
    return lambda small: calls.append(f"{small.name} {setting}")


def test_a_warm_up_that_compiled_nothing_is_not_run_again(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(progress, "warm_stamp", lambda warm, small: tmp_path / "stamp")
    calls: list[str] = []
    said: list[str] = []
    game = st.mastermind(4, 6)
    progress.compiled_first(game, _warm_with(calls, "a"), said.append)
    assert calls == ["MM(3,4) a"] and (tmp_path / "stamp").exists()
    progress.compiled_first(game, _warm_with(calls, "a"), said.append)
    assert calls == ["MM(3,4) a"] and said == []


def test_a_warm_up_that_compiled_leaves_no_stamp(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(progress, "warm_stamp", lambda warm, small: tmp_path / "stamp")
    fresh = njit(lambda x: x + 1)  # not cached: compiled on its first call

    def warm(small: st.Game) -> None:
        assert fresh(len(small.secrets)) == 65

    progress.compiled_first(st.mastermind(4, 6), warm, print)
    assert not (tmp_path / "stamp").exists()


def test_a_warm_up_runs_in_a_thread_of_its_own_and_its_errors_reach_the_caller(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import threading

    monkeypatch.setattr(progress, "warm_stamp", lambda warm, small: tmp_path / "stamp")
    where: list[str] = []

    def warm(small: st.Game) -> None:
        where.append(threading.current_thread().name)
        raise ValueError("a bug in a kernel")

    with pytest.raises(ValueError, match="a bug in a kernel"):
        progress.compiled_first(st.mastermind(4, 6), warm, print)
    assert where == ["strategytree-warm-up"] and not (tmp_path / "stamp").exists()


def test_the_stamp_is_named_by_the_warm_up_and_its_settings() -> None:
    small = st.mastermind(3, 4)
    one = progress.warm_stamp(_warm_with([], "a"), small)
    assert one is not None and one == progress.warm_stamp(_warm_with([], "a"), small)
    assert one != progress.warm_stamp(_warm_with([], "b"), small)
    assert one != progress.warm_stamp(_warm_with([], "a"), st.distinct(3, 4))
    unknown = object()
    assert progress.warm_stamp(lambda small: unknown, small) is None  # no stable text: warm up


def test_small_games_have_no_warm_up() -> None:
    calls: list[str] = []
    progress.compiled_first(st.mastermind(3, 4), _warm_with(calls, "a"), print)
    assert calls == []


_LOADER = textwrap.dedent("""
    import sys
    import numpy as np
    from numba import njit
    from strategytree.kernelcache import quick_loads
    assert quick_loads()

    @njit(cache=True)
    def total(values):
        out = np.zeros(3, np.int64)
        for value in values:
            out[value % 3] += value
        return out

    print(total(np.arange(10, dtype=np.int64)).tolist(), total.stats.cache_hits.get(
        total.signatures[0], 0), "numba.np.linalg" in sys.modules)
""")


@pytest.mark.subprocess
def test_a_cached_kernel_loads_without_numbas_compiler_set_up(tmp_path: Path) -> None:
    script = tmp_path / "loader.py"
    script.write_text(_LOADER)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> str:
        return subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                              text=True, check=True).stdout.split("\n")[0]

    assert run() == "[18, 12, 15] 0 True"  # compiled: numba's registries loaded
    assert run() == "[18, 12, 15] 1 False"  # loaded from the cache, registries not needed


def test_the_console_script_pauses_the_collector_for_the_start_up_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``strategytree.launch.main`` runs the command line with the cycle collector
    off, and switches it back on START_UP seconds later (importing the CLI alone
    leaves it alone)."""
    import strategytree.cli

    assert gc.isenabled()
    during: list[bool] = []
    monkeypatch.setattr(strategytree.cli, "main", lambda: during.append(gc.isenabled()))
    monkeypatch.setattr(launch, "START_UP", 0.3)
    try:
        launch.main()
        deadline = time.monotonic() + 10
        while not gc.isenabled() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert during == [False] and gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_quick_loads_keep_compiling_what_is_not_cached() -> None:
    assert quick_loads()

    @njit
    def doubled(values):
        return values * 2

    assert doubled(np.arange(3)).tolist() == [0, 2, 4]



_COMPILES = textwrap.dedent("""
    import strategytree as st
    from strategytree import greedy_choice
    from strategytree.builders import build_greedy

    build_greedy(st.mastermind(3, 4), rule="minimax")
    for name in ("_first_within", "_within"):
        signatures = [str(s) for s in getattr(greedy_choice, name).signatures]
        print(name, len(signatures), any("Literal" in s for s in signatures))
""")


@pytest.mark.slow
@pytest.mark.subprocess
def test_the_greedy_scans_steps_are_compiled_once(tmp_path: Path) -> None:
    """A literal argument (``0``, ``1``, ``-1``) made numba compile a step once per
    value: about a second more of the first run after an install (an empty cache)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    lines = subprocess.run([sys.executable, "-c", _COMPILES], env=env, capture_output=True,
                           text=True, check=True).stdout.splitlines()
    assert lines == ["_first_within 1 False", "_within 1 False"]
