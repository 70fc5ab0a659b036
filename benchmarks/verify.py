"""Reading and verifying a 32,768-secret MM(5,8) strategy.

Builds an MM(5,8) strategy with the entropy rule (once), then prints the
median time to read it, to verify it in-process, and of the whole
``strategytree verify FILE`` process, beside the time of a bare
``python -c "import strategytree.cli"`` (the start-up all of it pays).

    python benchmarks/verify.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import strategytree as st
from strategytree.builders import build_greedy

from _common import median_command, median_time, print_machine

print_machine()

game = st.mastermind(5, 8)
with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "mm58.txt"
    st.dump(build_greedy(game, rule="entropy"), path)
    size = path.stat().st_size
    tree = st.load(path)
    read = median_time(lambda: st.load(path), repeat=5)
    check = median_time(lambda: st.verify(tree, game), repeat=5)
    whole, peak = median_command(["verify", str(path)], repeat=5)

    def bare() -> None:
        subprocess.run([sys.executable, "-c", "import strategytree.cli"], check=True)

    start_up = median_time(bare, repeat=5)
print(f"MM(5,8) entropy strategy, {size:,} bytes, {tree.count_nodes():,} nodes")
print(f"  read (lark)                 {read:.3f} s")
print(f"  verify in-process           {check:.3f} s")
print(f"  strategytree verify, whole  {whole:.3f} s  (peak RSS {peak} MiB)")
print(f"  python start-up + imports   {start_up:.3f} s")
