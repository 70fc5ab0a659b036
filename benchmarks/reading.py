"""How reading grows with the file: time and peak memory for 1, 10 and 100 MB.

The files are made of copies of the shipped MM(5,8) strategy hung under one
root guess (a realistic mix of tokens).  Each size is read in a fresh process
that prints its time and peak RSS.

    python benchmarks/reading.py            # 1, 10 and 30 MB
    python benchmarks/reading.py --full     # 1, 10 and 100 MB
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ROOT

sizes = [1, 10, 100] if "--full" in sys.argv else [1, 10, 30]
tree = (ROOT / "examples" / "mm58.txt").read_text().strip()
replies = [f"{b}{w}" for b in range(10) for w in range(10)]
READ = """
import resource, sys, time
import strategytree as st
start = time.perf_counter()
st.load(sys.argv[1])
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""
print("| file | read time | s per MB | peak RSS | RSS / file size |")
print("|---:|---:|---:|---:|---:|")
with tempfile.TemporaryDirectory() as folder:
    for megabytes in sizes:
        copies = max(1, megabytes * 2**20 // len(tree))
        chunks, total = [], 0
        for k in range(copies):  # replies repeat past 100 branches: still a valid read
            chunks.append(f"{replies[k % 100]}:{tree}")
        text = "{AAAAA:{" + ",".join(chunks) + "}}"
        path = Path(folder) / f"{megabytes}mb.txt"
        path.write_text(text)
        done = subprocess.run([sys.executable, "-c", READ, str(path)], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"| {megabytes} MB | failed: {done.stderr.strip().splitlines()[-1]} | | | |")
            continue
        seconds, peak = done.stdout.split()
        size = path.stat().st_size / 2**20
        print(f"| {size:.0f} MB | {float(seconds):.1f} s | {float(seconds) / size:.2f} | "
              f"{int(peak):,} MiB | {int(peak) / size:.0f}x |")
