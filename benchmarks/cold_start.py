"""What the first run after a fresh install costs: numba compiles the kernels.

Runs ``strategytree generate`` for MM(4,6) twice in fresh processes, with an
empty numba cache folder (cold: compiling) and then with the cache it left
(warm), and prints both times.

    python benchmarks/cold_start.py
"""

from __future__ import annotations

import os
import tempfile

from _common import command

with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
    os.environ["NUMBA_CACHE_DIR"] = cache
    args = ["generate", "-p", "4", "-c", "6", "--rule", "entropy", "-o", f"{out}/mm46.txt", "--force"]
    cold, _ = command(args)
    warm, _ = command(args)
    print("strategytree generate -p 4 -c 6 (whole process)")
    print(f"  cold (empty numba cache, compiling): {cold:.2f} s")
    print(f"  warm (cached kernels):               {warm:.2f} s")
