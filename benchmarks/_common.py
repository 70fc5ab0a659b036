"""Helpers shared by the benchmark scripts (timing, subprocesses, memory)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
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
    """Run ``python -m strategytree ARGS``; wall time in seconds and peak RSS in MiB."""
    full_env = dict(os.environ, **(env or {}))
    start = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-c", _PEAK, *args],
        env=full_env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if child.returncode not in (0, 1):
        raise RuntimeError(f"strategytree {' '.join(args)} failed:\n{child.stderr}")
    peak = int(child.stderr.strip().splitlines()[-1].rsplit(" ", 1)[-1])
    return elapsed, peak


# runs the command line, then prints its peak RSS (MiB) on stderr
_PEAK = """
import resource, sys
from strategytree.cli import app
try:
    app(sys.argv[1:], standalone_mode=False)
finally:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print('peak_rss_mib', peak, file=sys.stderr)
"""


def median_command(args: list[str], repeat: int = 3) -> tuple[float, int]:
    """Median wall time and the largest peak RSS of ``repeat`` runs."""
    runs = [command(args) for _ in range(repeat)]
    return statistics.median(t for t, _ in runs), max(m for _, m in runs)
