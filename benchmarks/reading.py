"""How reading grows with the file: time and peak memory for 1, 10 and 30 MB, and deep files.

The files are made of copies of the shipped MM(5,8) strategy hung under one
root guess (a realistic mix of tokens), plus a file nested 1,000,000 levels
deep (``{AA:{00:{AA:{00:...BB}}...}}``, 12 MB).  Each is read in a fresh
process that prints its read time and peak RSS; ``--verify`` also times
``st.verify`` after the read.  Any strategy file given is measured too (for
instance an MM(6,8) tree from ``strategytree generate -p 6 -c 8 --rule entropy``).

With ``--baseline DIR`` (another checkout of strategytree), every file is read
by both, alternately, ``--repeat`` times, and the medians and their ratio are
printed: a ratio measured side by side, which the machine's load changes less.

    python benchmarks/reading.py                       # 1, 10 and 30 MB, and the deep file
    python benchmarks/reading.py --full                # 1, 10 and 100 MB
    python benchmarks/reading.py --verify /tmp/mm68.txt --baseline /path/to/main --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ROOT, print_machine

READ = """
import resource, sys, time
import strategytree as st
# imported before the clock starts, as before
import strategytree.formats.brace, strategytree.verify
start, cpu = time.perf_counter(), time.process_time()
tree = st.load(sys.argv[1])
read, read_cpu = time.perf_counter() - start, time.process_time() - cpu
if sys.argv[2] == "verify":
    st.verify(tree)
total = time.perf_counter() - start
print(read, total, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, read_cpu)
"""


def make_files(folder: Path, sizes: list[int]) -> list[Path]:
    """Files of about ``sizes`` MB made of MM(5,8) trees, and the deep file
    (written piece by piece: this process stays small, and the children it
    forks report their own peak memory, not its)."""
    tree = (ROOT / "examples" / "mm58.txt").read_text().strip()
    replies = [f"{b}{w}" for b in range(10) for w in range(10)]
    paths = []
    for megabytes in sizes:
        copies = max(1, megabytes * 2**20 // len(tree))
        path = folder / f"{megabytes}mb.txt"
        with path.open("w") as out:
            out.write("{AAAAA:{")
            for k in range(copies):  # replies repeat past 100 branches: still a valid read
                out.write(f"{',' if k else ''}{replies[k % 100]}:{tree}")
            out.write("}}")
        paths.append(path)
    deep = folder / "deep.txt"
    with deep.open("w") as out:
        for _ in range(1000):
            out.write("{AA:{00:" * 1000)
        out.write("BB")
        for _ in range(1000):
            out.write("}}" * 1000)
    paths.append(deep)
    return paths


def run(path: Path, verify: bool, checkout: str | None) -> tuple[float, float, int, float] | str:
    """Read (and verify) ``path`` in a fresh process: read s, total s, peak MiB and
    the read's CPU s (or the error)."""
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = checkout
    done = subprocess.run(
        [sys.executable, "-c", READ, str(path), "verify" if verify else "read"],
        capture_output=True, text=True, env=env,
    )
    if done.returncode != 0:
        return done.stderr.strip().splitlines()[-1]
    read, total, peak, cpu = done.stdout.split()
    return float(read), float(total), int(peak), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="strategy files to measure too")
    parser.add_argument("--full", action="store_true", help="1, 10 and 100 MB")
    parser.add_argument("--verify", action="store_true", help="also verify after reading")
    parser.add_argument("--baseline", help="another checkout to compare with, side by side")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (medians)")
    parser.add_argument("--no-made", action="store_true", help="only the files given")
    args = parser.parse_args()
    sizes = [1, 10, 100] if args.full else [1, 10, 30]
    sides = [None] if args.baseline is None else [None, args.baseline]
    print("| file | read (wall, CPU) | MB/s (CPU) | peak RSS | RSS / file | "
          + ("read + verify | " if args.verify else "")
          + ("baseline read (wall, CPU) | ratio wall | ratio CPU | baseline RSS |"
             if args.baseline else ""))
    print("|---:" * (5 + args.verify + 4 * bool(args.baseline)) + "|")
    with tempfile.TemporaryDirectory() as folder:
        paths = list(args.files) + ([] if args.no_made else make_files(Path(folder), sizes))
        for path in paths:
            results: dict[str | None, list] = {side: [] for side in sides}
            for _ in range(args.repeat):
                for side in sides:  # alternately: the same load for both
                    results[side].append(run(path, args.verify, side))
            size = path.stat().st_size / 2**20
            cells = []
            for side in sides:
                good = [r for r in results[side] if not isinstance(r, str)]
                if not good:
                    cells.append(f"failed: {results[side][0]}")
                    continue
                read = statistics.median(r[0] for r in good)
                total = statistics.median(r[1] for r in good)
                peak = max(r[2] for r in good)
                cpu = statistics.median(r[3] for r in good)
                cells.append((read, total, peak, cpu))
            ours = cells[0]
            if isinstance(ours, str):
                print(f"| {path.name} ({size:.1f} MB) | {ours} |")
                continue
            row = (f"| {path.name} ({size:.1f} MB) | {ours[0]:.2f} s, {ours[3]:.2f} s | "
                   f"{size * 1.048576 / ours[3]:.1f} | {ours[2]:,} MiB | {ours[2] / size:.0f}x | ")
            if args.verify:
                row += f"{ours[1]:.2f} s | "
            if args.baseline:
                base = cells[1]
                if isinstance(base, str):
                    row += f"{base} | | | |"
                else:
                    row += (f"{base[0]:.2f} s, {base[3]:.2f} s | {ours[0] / base[0]:.2f} | "
                            f"{ours[3] / base[3]:.2f} | {base[2]:,} MiB |")
            print(row)


if __name__ == "__main__":
    print_machine()
    main()
