"""The console script's entry point: :func:`strategytree.cli.main` started with
Python's cycle collector paused until the start-up is over.

Starting a command allocates objects that live until the process ends (typer,
rich, numpy, numba and our modules; numba's typing and lowering tables), and
each automatic collection in that time walks all of them for nothing: about
0.05 s of MM(4,6)'s 0.4 s ``generate -m optimal``.  The collector is switched
back on :data:`START_UP` seconds after the start, after one collection (the
start-up's garbage, a first compile's included) and with what lives on moved
out of its sight (:func:`gc.freeze`), so that a long run collects its own
garbage as usual and never walks the start-up's objects again.
Importing :mod:`strategytree.cli` (tests, notebooks) changes nothing.
"""

from __future__ import annotations

import gc
import threading

#: seconds after the start at which the cycle collector is switched back on
START_UP = 1.0


def _collect_again() -> None:
    """Switch the cycle collector back on: the start-up's garbage collected, what
    lives on set aside."""
    gc.collect()
    gc.freeze()
    gc.enable()


def main() -> None:
    """Run the command line (see the module doc)."""
    gc.disable()
    timer = threading.Timer(START_UP, _collect_again)
    timer.daemon = True
    timer.start()
    from .cli import main as run

    run()
