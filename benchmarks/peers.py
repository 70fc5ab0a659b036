"""strategytree beside the C++ solvers, in the same run, whole process.

Each job runs our command and a peer's in turn (ours, theirs, ours, theirs, ...), so a
drift of the machine's speed touches both; the ratio ours/theirs is taken pair by pair and
its median printed beside each side's median wall and CPU time. Our commands run with a
warm numba cache (one untimed run first). The peers are built by
``../shared/peers/build.sh`` (fancidev's ``mmstrat`` and mikemag's MM(5,8) entropy solver):

    python benchmarks/peers.py --peers DIR [--runs N] [--big] [--only JOB,...] [--cpu-name NAME]

``--cpu-name haswell`` times our code compiled for an older target (numba's
``NUMBA_CPU_NAME``, with that CPU's own features: ``NUMBA_CPU_FEATURES`` empty, as the
name alone kept the host's, AVX-512 included, before 2026-11-29; with a numba cache of its
own, so the native kernels are neither used nor overwritten). Our commands run with
``PYTHONDONTWRITEBYTECODE`` removed from their environment: an installed package has its
bytecode, and compiling our modules from source on every run would add about 0.1 s of CPU
to each start-up.

Jobs: ``bulls`` (Bulls and Cows optimal), ``mm47`` and ``mm46`` (optimal), ``greedy58``
(MM(5,8) entropy), and with ``--big`` ``greedy68`` (MM(6,8) entropy; minutes each run).
mmstrat runs with one thread and with ``-mt 2``. A ratio below 1 means we are faster.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from _common import print_machine


class Job(NamedTuple):
    name: str
    ours: list[str]  # arguments of ``strategytree``; ``OUT`` is replaced by a temporary file
    peers: dict[str, tuple[list[str], str | None]]  # label -> (argv from the peers' bin/, cwd)


def jobs(big: bool) -> list[Job]:
    def mmstrat(rules: str, strategy: str) -> dict[str, tuple[list[str], str | None]]:
        argv = ["mmstrat", "-r", rules, "-s", strategy, "-S", "-q"]
        return {"mmstrat 1 thread": (argv, None), "mmstrat -mt 2": ([*argv, "-mt", "2"], None)}

    out = ["-o", "OUT", "--force"]
    found = [
        Job("bulls", ["generate", "-m", "optimal", "--game", "bulls-and-cows", *out],
            mmstrat("p4c10n", "optimal")),
        Job("mm47", ["generate", "-m", "optimal", "-p", "4", "-c", "7", *out],
            mmstrat("p4c7r", "optimal")),
        Job("mm46", ["generate", "-m", "optimal", "-p", "4", "-c", "6", *out],
            mmstrat("p4c6r", "optimal")),
        Job("greedy58", ["generate", "-p", "5", "-c", "8", "--rule", "entropy", *out],
            {**mmstrat("p5c8r", "entropy"),
             "mikemag": (["mikemag-mastermind-5p8c-entropy"], "mikemag/run")}),
    ]
    if big:
        found.append(Job("greedy68", ["generate", "-p", "6", "-c", "8", "--rule", "entropy", *out],
                         mmstrat("p6c8r", "entropy")))
    return found


def timed(argv: list[str], cwd: str | None = None,
          env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one whole process; fails loudly on an error."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited {code}: {child.stderr.read().decode()[-500:]}")
    child.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime


def our_env(cpu_name: str | None, folder: str) -> dict[str, str]:
    """The environment of our commands: bytecode written as an install has it; with
    ``cpu_name``, numba compiles for that CPU into a cache folder of its own."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if cpu_name:  # (its own features: the name alone keeps the host's, AVX-512 and all)
        env["NUMBA_CPU_NAME"], env["NUMBA_CPU_FEATURES"] = cpu_name, ""
        env["NUMBA_CACHE_DIR"] = str(Path(folder) / f"numba-{cpu_name}")
    return env


def compare(job: Job, peers: Path, runs: int, folder: str, env: dict[str, str]) -> None:
    ours = [sys.executable, "-m", "strategytree",
            *(f"{folder}/{job.name}.txt" if a == "OUT" else a for a in job.ours)]
    timed(ours, env=env)  # warm the numba cache: a user's second run
    for label, (argv, cwd) in job.peers.items():
        theirs = [str(peers / "bin" / argv[0]), *argv[1:]]
        pairs = [(timed(ours, env=env), timed(theirs, str(peers / cwd) if cwd else None))
                 for _ in range(runs)]
        ratio = statistics.median(a[0] / b[0] for a, b in pairs)
        wall_a = statistics.median(a[0] for a, _ in pairs)
        wall_b = statistics.median(b[0] for _, b in pairs)
        cpu_a = statistics.median(a[1] for a, _ in pairs)
        cpu_b = statistics.median(b[1] for _, b in pairs)
        print(f"| {job.name} | {label} | {wall_a:.2f} ({cpu_a:.2f}) | {wall_b:.2f} ({cpu_b:.2f}) "
              f"| **{ratio:.2f}×** |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers", default=os.environ.get("PEERS"),
                        help="the folder build.sh built into (or $PEERS)")
    parser.add_argument("--runs", type=int, default=3, help="pairs per job and peer (default 3)")
    parser.add_argument("--big", action="store_true", help="also MM(6,8) entropy (minutes a run)")
    parser.add_argument("--only", default="", help="comma-separated job names")
    parser.add_argument("--cpu-name", default=None,
                        help="compile ours for this LLVM CPU (e.g. haswell: AVX2, no AVX-512), "
                             "with a numba cache of its own")
    options = parser.parse_args()
    if not options.peers or not (Path(options.peers) / "bin" / "mmstrat").exists():
        parser.error("--peers DIR: the folder where ../shared/peers/build.sh put bin/mmstrat")
    if options.runs < 1:
        parser.error("--runs: at least 1")
    chosen = [j for j in jobs(options.big) if not options.only or j.name in options.only.split(",")]
    print_machine()
    target = options.cpu_name or "native"
    print(f"ours compiled for: {target}; {options.runs} pairs each, whole process, medians; "
          "wall seconds (CPU seconds)")
    print("| job | peer | ours | theirs | ours / theirs |")
    print("|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for job in chosen:
            compare(job, Path(options.peers), options.runs, folder,
                    our_env(options.cpu_name, folder))


if __name__ == "__main__":
    main()
