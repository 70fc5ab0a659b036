"""The record MM(5,8) strategy: the two commands that make examples/mm58.txt
(those of the README's record section; ``--help`` prints them as this script
runs them, from ``RECORD`` and ``IMPROVE`` below).

This script runs them (each as a fresh process, warm numba cache), prints
each one's wall time, CPU time (the driver's and its workers') and peak RSS,
verifies the files they wrote, and says whether the second is
examples/mm58.txt byte for byte (``--save FILE`` keeps a copy of it).  Other lookahead
options replace the record's (the improve step is then left out), e.g. a quick run:

    python benchmarks/record.py --widths 8,4 --workers 1
    python benchmarks/record.py --widths 12,12,12,8,6,4,2 --also parts   # the record of 2026-11-22
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import strategytree as st

from _common import ROOT, measured, print_machine

print_machine()

RECORD = ["--widths", "12,12,12", "--also", "parts,expected,minimax",
          "--finalists", "1,3,5", "--complete", "3", "--complete-above", "150",
          "--max-guesses", "7", "--exact-below", "400", "--workers", "2"]
#: the second step of the record: the sets of up to 700 secrets solved exactly, under their
#: totals; the third guesses of the larger sets searched again (200 candidates a rule, the 30
#: whose greedy completions rank first completed exactly), then the second guesses (30 a
#: rule, the first by that ranking completed exactly)
IMPROVE = ["--exact-below", "700", "--widths", "0,30,200", "--finalists", "0,1,30",
           "--max-guesses", "7", "--workers", "2"]



def lookahead(options: list[str]) -> list[str]:
    """The first step's command (without ``-o``)."""
    return ["generate", "-p", "5", "-c", "8", "--method", "lookahead", *options]


def improved(made: str) -> list[str]:
    """The second step's command on the file ``made`` (without ``-o``)."""
    return ["improve", made, "-p", "5", "-c", "8", *IMPROVE]


if {"-h", "--help"} & set(sys.argv[1:]):
    print(__doc__)
    print("The record's commands:")
    print("    strategytree", *lookahead(RECORD), "-o lookahead.txt")
    print("    strategytree", *improved("lookahead.txt"), "-o mm58.txt")
    sys.exit(0)
arguments = sys.argv[1:]
save = None
if "--save" in arguments:
    at = arguments.index("--save")
    save = Path(arguments[at + 1])
    del arguments[at : at + 2]
options = arguments or RECORD
game = st.mastermind(5, 8)


def step(name: str, args: list[str], out: Path) -> st.Report:
    """Run one command writing ``out``; print its figures; its file's report."""
    seconds, cpu, peak = measured([*args, "-o", str(out)])
    report = st.verify(st.load(out), game)
    print(f"{name}: total {report.total:,}, max {report.max_guesses}, {seconds / 60:.1f} min "
          f"({cpu / 60:.1f} min of CPU), peak RSS {peak} MiB", flush=True)
    return report


with tempfile.TemporaryDirectory() as folder:
    made = Path(folder) / "lookahead.txt"
    report = step(f"lookahead {' '.join(options)}", lookahead(options), made)
    if options == RECORD:
        better = Path(folder) / "mm58.txt"
        report = step(f"then improve {' '.join(IMPROVE)}", improved(str(made)), better)
        made = better
    same = made.read_text() == (ROOT / "examples" / "mm58.txt").read_text()
    if save is not None:
        save.write_text(made.read_text())
print(f"same as examples/mm58.txt: {same}")
print("histogram:", report.histogram)
