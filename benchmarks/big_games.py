"""Time against size of the entropy builder, up to the big games.

For each game, ``strategytree generate -p P -c C --rule entropy -o FILE``
and then ``strategytree verify FILE``, each as a whole process with a warm
numba cache: wall seconds, CPU seconds (user + system, every thread), peak
RSS, and the total and most guesses of the tree.  The load average is printed
first and last: the wall times are only as quiet as the machine was (the CPU
times much less so).  Each run is stopped after ``--limit`` seconds (900).

    python benchmarks/big_games.py [--quick] [--games 6x9,7x7] [--limit S] [--keep DIR]

``--quick``: MM(5,8) and MM(6,6) only; default: those, MM(6,8), MM(6,9) and
MM(7,7) (about ten minutes on the idle 2-core machine).  ``--keep DIR``: the
trees are written there (``mmPC.txt``) and kept, to compare them byte for byte.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import print_machine

GAMES = [(5, 8), (6, 6), (6, 8), (6, 9), (7, 7)]


def arg(name: str, default: str) -> str:
    """The word after ``name`` on the command line, or ``default``."""
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def run(args: list[str], limit: float) -> tuple[float, float, int, dict | None]:
    """``python -m strategytree ARGS --json``: wall s, CPU s, peak RSS MiB, the JSON
    printed (None when stopped at ``limit`` seconds)."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "strategytree", *args, "--json"],
            stdout=out, stderr=subprocess.DEVNULL,
        )
        stopped = False
        while True:  # os.wait4 gives the child's CPU time and peak RSS
            pid, _, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > limit and not stopped:
                child.kill()
                stopped = True
            time.sleep(0.05)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode()
    found = None if stopped else json.loads(text)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, found


def main() -> None:
    quick = "--quick" in sys.argv
    limit = float(arg("--limit", "900"))
    games = GAMES[:2] if quick else GAMES
    if "--games" in sys.argv:
        games = [tuple(map(int, g.split("x"))) for g in arg("--games", "").split(",")]
    print(f"load average {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    print("| game | secrets | generate wall (s) | CPU (s) | peak RSS (MiB) "
          "| verify wall (s) | CPU (s) | peak RSS (MiB) | total | max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = arg("--keep", scratch)
        Path(folder).mkdir(parents=True, exist_ok=True)
        for pegs, colors in games:
            path = str(Path(folder) / f"mm{pegs}{colors}.txt")
            made = run(["generate", "-p", str(pegs), "-c", str(colors), "--rule", "entropy",
                        "-o", path, "--force"], limit)
            if made[3] is None:
                print(f"| MM({pegs},{colors}) | {colors**pegs:,} | stopped at {limit:.0f} s | "
                      f"{made[1]:.0f} | {made[2]:,} | | | | | |")
                continue
            checked = run(["verify", path], limit)
            report = (checked[3] or [made[3]])[0]  # verify --json: a list, one item per file
            print(f"| MM({pegs},{colors}) | {colors**pegs:,} | {made[0]:.1f} | {made[1]:.1f} | "
                  f"{made[2]:,} | {checked[0]:.1f} | {checked[1]:.1f} | {checked[2]:,} | "
                  f"{report['total']:,} | {report['max_guesses']} |", flush=True)
            if folder == scratch:
                Path(path).unlink()
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    print_machine()
    main()
