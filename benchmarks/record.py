"""The record MM(5,8) strategy: the one command that makes examples/mm58.txt.

    strategytree generate -p 5 -c 8 --method lookahead --widths 12,12,12,8,6,4,2 --also parts \\
        --checkpoint mm58.ckpt -o mm58.txt

This script runs that command (as a fresh process, warm numba cache), prints
its wall time, and verifies the file it wrote against examples/mm58.txt.
Pass other widths (and rules) to try other settings, e.g.

    python benchmarks/record.py 8,4 ""
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import strategytree as st

from _common import ROOT, command

widths = sys.argv[1] if len(sys.argv) > 1 else "12,12,12,8,6,4,2"
also = sys.argv[2] if len(sys.argv) > 2 else "parts"
game = st.mastermind(5, 8)
with tempfile.TemporaryDirectory() as folder:
    out = Path(folder) / "mm58.txt"
    args = ["generate", "-p", "5", "-c", "8", "--method", "lookahead", "--widths", widths,
            "--also", also, "-o", str(out)]
    seconds, peak = command(args)
    report = st.verify(st.load(out), game)
    same = out.read_text() == (ROOT / "examples" / "mm58.txt").read_text()
print(f"lookahead --widths {widths} --also {also or '(none)'}: total {report.total:,}, max {report.max_guesses}, "
      f"{seconds / 60:.1f} min, peak RSS {peak} MiB, same as examples/mm58.txt: {same}")
print("histogram:", report.histogram)
