"""What start-up costs: commands that need no kernel, a small exact search, and
the first run after a fresh install (numba compiles the kernels).

Each command runs in a fresh process (``python -m strategytree``, the console
script's own code path); whole-process wall times, medians of ``--repeat``
runs.  With ``--baseline DIR`` (another checkout of strategytree) each command
is run by both, alternately, and the ratio of the medians is printed: a
figure the machine's load changes less than the times themselves.

The cold runs point ``NUMBA_CACHE_DIR`` at an empty folder (compiling), then
run again with the cache it left (warm); the difference of their CPU times is
what compiling cost.

    python benchmarks/cold_start.py                          # start-up table, then cold/warm
    python benchmarks/cold_start.py --baseline /path/to/main --repeat 7
    python benchmarks/cold_start.py --no-cold
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile

from _common import ROOT, command, measured, print_machine

EXAMPLES = ROOT / "examples"


def startup(baseline: str | None, repeat: int, out: str) -> None:
    """The start-up table: each command's median whole-process time (and the ratio)."""
    jobs = {
        "--help": ["--help"],
        "--version": ["--version"],
        "verify mm23.txt": ["verify", str(EXAMPLES / "mm23.txt")],
        "show mm23.txt": ["show", str(EXAMPLES / "mm23.txt")],
        "verify mm58.txt (350 kB)": ["verify", str(EXAMPLES / "mm58.txt")],
        "generate MM(4,6) optimal": ["generate", "-p", "4", "-c", "6", "--method", "optimal",
                                     "-o", f"{out}/opt46.txt", "--force"],
        "generate MM(4,6) entropy": ["generate", "-p", "4", "-c", "6", "--rule", "entropy",
                                     "-o", f"{out}/mm46.txt", "--force"],
    }
    sides: list[str | None] = [None] if baseline is None else [None, baseline]
    head = "| command | this checkout (wall, CPU) |" + (
        " baseline (wall, CPU) | ratio wall | ratio CPU |" if baseline else "")
    print(head)
    print("|---" + "|---:" * (len(head.split("|")) - 3) + "|")
    for name, args in jobs.items():
        for side in sides:  # one warm-up run each (caches, page cache)
            command(args, env=None if side is None else {"PYTHONPATH": side})
        runs: dict[str | None, list[tuple[float, float, int]]] = {side: [] for side in sides}
        for _ in range(repeat):
            for side in sides:  # alternately: the same load for both
                env = None if side is None else {"PYTHONPATH": side}
                runs[side].append(measured(args, env=env))
        wall = {side: statistics.median(r[0] for r in runs[side]) for side in sides}
        cpu = {side: statistics.median(r[1] for r in runs[side]) for side in sides}
        row = f"| `{name}` | {wall[None]:.3f} s, {cpu[None]:.3f} s |"
        if baseline is not None:
            row += (f" {wall[baseline]:.3f} s, {cpu[baseline]:.3f} s |"
                    f" {wall[None] / wall[baseline]:.2f} | {cpu[None] / cpu[baseline]:.2f} |")
        print(row, flush=True)


COLD_JOBS = {
    "MM(4,6) entropy": ["generate", "-p", "4", "-c", "6", "--rule", "entropy"],
    "MM(5,8) entropy": ["generate", "-p", "5", "-c", "8", "--rule", "entropy"],
    "MM(4,6) optimal": ["generate", "-p", "4", "-c", "6", "--method", "optimal"],
}


def cold(out: str, baseline: str | None) -> None:
    """Each of :data:`COLD_JOBS` with an empty numba cache (a fresh folder per
    run: compiling), then warm with the cache it left; wall and CPU time of the
    whole process (on a loaded machine the CPU time is the steadier figure).
    With a baseline, its runs alternate with this checkout's."""
    sides: list[str | None] = [None] if baseline is None else [None, baseline]
    print("| command | checkout | cold (wall, CPU) | warm (wall, CPU) | compiling (CPU) |")
    print("|---|---|---:|---:|---:|")
    for name, args in COLD_JOBS.items():
        args = [*args, "-o", f"{out}/cold.txt", "--force"]
        for side in sides:
            with tempfile.TemporaryDirectory() as cache:
                env = {"NUMBA_CACHE_DIR": cache}
                if side is not None:
                    env["PYTHONPATH"] = side
                first, first_cpu, _ = measured(args, env=env)
                warm, warm_cpu, _ = measured(args, env=env)
            print(f"| `{name}` | {side or 'this'} | {first:.2f} s, {first_cpu:.2f} s |"
                  f" {warm:.2f} s, {warm_cpu:.2f} s | {first_cpu - warm_cpu:.2f} s |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="another checkout to compare with, side by side")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command (medians)")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-compile runs")
    parser.add_argument("--no-startup", action="store_true", help="only the cold-compile runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        # not from the checkout's root: ``python -m`` puts the working folder
        # first on the path, ahead of a baseline's PYTHONPATH
        os.chdir(out)
        if not args.no_startup:
            startup(args.baseline, args.repeat, out)
        if not args.no_cold:
            cold(out, args.baseline)


if __name__ == "__main__":
    print_machine()
    main()
