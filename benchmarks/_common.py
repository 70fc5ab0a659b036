"""Helpers shared by the benchmark scripts (the machine, timing, subprocesses, memory).

Every script prints :func:`machine` first: figures belong to the CPU they came
from, and the exact search's speed per set differs several-fold between CPUs.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# LLVM features worth naming: the vector units and bit instructions the kernels lean on
_FEATURES = ("sse4.2", "popcnt", "avx", "avx2", "fma", "bmi2", "avx512f", "avx512bw", "avx512vl",
             "avx512vpopcntdq", "neon", "sve")


def _cpuinfo() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo (empty where there is none)."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as text:
            for line in text:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    return fields


def _caches() -> str:
    """L2 and L3 sizes of the first CPU, from sysfs (``?`` where unknown)."""
    sizes = {}
    base = Path("/sys/devices/system/cpu/cpu0/cache")
    for index in sorted(base.glob("index*")):
        try:
            level = (index / "level").read_text().strip()
            sizes.setdefault(f"L{level}", (index / "size").read_text().strip())
        except OSError:
            continue
    return f"L2 {sizes.get('L2', '?')} per core, L3 {sizes.get('L3', '?')}"


def machine() -> str:
    """The CPU these figures come from: model, family/model, clock, caches, cores, and the
    target numba compiles for (LLVM's host CPU name and the vector features it uses;
    ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` when set, as they change that target;
    whether our kernels use 512-bit vectors)."""
    info = _cpuinfo()
    model = info.get("model name") or platform.processor() or platform.machine()
    family = f"family {info.get('cpu family', '?')} model {info.get('model', '?')}"
    clock = f"{float(info['cpu MHz']) / 1000:.2f} GHz" if "cpu MHz" in info else "clock ?"
    from llvmlite import binding

    host = binding.get_host_cpu_name()
    enabled = {f[1:] for f in binding.get_host_cpu_features().flatten().split(",") if f[:1] == "+"}
    vector = " ".join(f for f in _FEATURES if f in enabled) or "none of " + " ".join(_FEATURES)
    target = os.environ.get("NUMBA_CPU_NAME")
    compiled = (f"numba target {target!r} (NUMBA_CPU_NAME)" if target
                else f"numba target host ({host})")
    if os.environ.get("NUMBA_CPU_FEATURES"):
        compiled += f" features {os.environ['NUMBA_CPU_FEATURES']!r}"
    from strategytree.jit import WIDE

    compiled += ", 512-bit vectors (strategytree.jit)" if WIDE else ""
    return (f"# CPU: {model}, {family}, {clock}, {_caches()}, {os.cpu_count()} CPUs; "
            f"LLVM host {host} [{vector}]; {compiled}; {platform.python_implementation()} "
            f"{platform.python_version()}")


def print_machine() -> None:
    """Print :func:`machine` as the first line of a benchmark's output."""
    print(machine(), flush=True)


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
            raise RuntimeError(f"strategytree {' '.join(args)} failed ({child.returncode}):"
                               f"\n{text}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def median_command(args: list[str], repeat: int = 3) -> tuple[float, int]:
    """Median wall time and the largest peak RSS of ``repeat`` runs."""
    runs = [command(args) for _ in range(repeat)]
    return statistics.median(t for t, _ in runs), max(m for _, m in runs)
