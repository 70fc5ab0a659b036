"""The record MM(5,8) strategy: the one command that makes examples/mm58.txt.

    strategytree generate -p 5 -c 8 --method lookahead --widths 12,12,12 \\
        --also parts,expected,minimax --finalists 1,3,5 --complete 3 --complete-above 150 \\
        --max-guesses 7 --exact-below 400 --workers 2 \\
        --checkpoint mm58.ckpt -o mm58.txt

This script runs that command (as a fresh process, warm numba cache), prints
its wall time, CPU time (the driver's and its workers') and peak RSS, verifies
the file it wrote, and says whether it is examples/mm58.txt byte for byte.
Other lookahead options replace the record's, e.g. a quick run:

    python benchmarks/record.py --widths 8,4 --workers 1
    python benchmarks/record.py --widths 12,12,12,8,6,4,2 --also parts   # the record of 2026-11-22
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import strategytree as st

from _common import ROOT, measured

RECORD = ["--widths", "12,12,12", "--also", "parts,expected,minimax",
          "--finalists", "1,3,5", "--complete", "3", "--complete-above", "150", "--max-guesses", "7",
          "--exact-below", "400", "--workers", "2"]

if {"-h", "--help"} & set(sys.argv[1:]):
    print(__doc__)
    sys.exit(0)
options = sys.argv[1:] or RECORD
game = st.mastermind(5, 8)
with tempfile.TemporaryDirectory() as folder:
    out = Path(folder) / "mm58.txt"
    args = ["generate", "-p", "5", "-c", "8", "--method", "lookahead", *options, "-o", str(out)]
    seconds, cpu, peak = measured(args)
    report = st.verify(st.load(out), game)
    same = out.read_text() == (ROOT / "examples" / "mm58.txt").read_text()
print(f"lookahead {' '.join(options)}: total {report.total:,}, max {report.max_guesses}, "
      f"{seconds / 60:.1f} min ({cpu / 60:.1f} min of CPU), peak RSS {peak} MiB, "
      f"same as examples/mm58.txt: {same}")
print("histogram:", report.histogram)
