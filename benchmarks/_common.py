"""Helpers shared by the benchmark scripts (timing, subprocesses, memory)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def median_time(run: Callable[[], object], repeat: int = 5) -> float:
    """Median wall time of ``run()`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def command(args: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """Run ``python -m strategytree ARGS`` (the console script's own code path);
    wall time in seconds and peak RSS in MiB (from the child's resource usage)."""
    elapsed, _, peak = measured(args, env)
    return elapsed, peak


def measured(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """As :func:`command`, with the child's CPU time (user + system) between: on
    a loaded machine the wall time grows with the load, the CPU time much less."""
    full_env = dict(os.environ, **(env or {}))
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "strategytree", *args], env=full_env, stdout=out, stderr=out
        )
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode not in (0, 1):
            out.seek(0)
            text = out.read().decode(errors="replace")
            raise RuntimeError(f"strategytree {' '.join(args)} failed ({child.returncode}):\n{text}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def median_command(args: list[str], repeat: int = 3) -> tuple[float, int]:
    """Median wall time and the largest peak RSS of ``repeat`` runs."""
    runs = [command(args) for _ in range(repeat)]
    return statistics.median(t for t, _ in runs), max(m for _, m in runs)
