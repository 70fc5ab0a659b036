r"""Where the first run's compiling goes: the CLI run in this process with an
empty numba cache, numba's compile events timed per function.

Each function's own CPU time (its thread's, less the functions compiled while
it was: exclusive), the time with them (inclusive) and how many times it was
compiled (more than once: another signature, e.g. a literal argument, or an
overload compiled apart from its dispatcher).  ``--signatures`` splits the rows
by argument types.

    python benchmarks/compile_events.py generate -p 4 -c 6 --method optimal -o x.txt --force
    python benchmarks/compile_events.py --signatures generate -p 5 -c 8 --rule entropy \
        -o y.txt --force
"""

from __future__ import annotations

import collections
import os
import sys
import tempfile
import threading
import time

from _common import print_machine


def main() -> None:
    args = sys.argv[1:]
    signatures = "--signatures" in args
    args = [a for a in args if a != "--signatures"]
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="strategytree-numba-")
    from numba.core import event

    stacks: dict[int, list[list[float]]] = collections.defaultdict(list)
    own: collections.Counter[str] = collections.Counter()
    whole: collections.Counter[str] = collections.Counter()
    times: collections.Counter[str] = collections.Counter()

    class Timer(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            stacks[threading.get_ident()].append([time.thread_time(), 0.0])

        def on_end(self, ev: event.Event) -> None:
            stack = stacks[threading.get_ident()]
            start, inner = stack.pop()
            spent = time.thread_time() - start
            func = getattr(ev.data["dispatcher"], "py_func", None)
            name = f"{func.__module__}.{func.__qualname__}" if func else str(ev.data["dispatcher"])
            if signatures:
                name += "(" + ", ".join(str(a) for a in ev.data["args"]) + ")"
            own[name] += spent - inner
            whole[name] += spent
            times[name] += 1
            if stack:
                stack[-1][1] += spent

    event.register("numba:compile", Timer())
    from strategytree.cli import app

    started = time.process_time()
    try:
        app(args)
    except SystemExit:
        pass
    total = time.process_time() - started
    print(f"process CPU {total:.2f} s, compiling {sum(own.values()):.2f} s", file=sys.stderr)
    print("| own (s) | with callees (s) | compiles | function |", file=sys.stderr)
    print("|---:|---:|---:|---|", file=sys.stderr)
    for name, spent in own.most_common(30):
        print(f"| {spent:.2f} | {whole[name]:.2f} | {times[name]} | `{name[:160]}` |",
              file=sys.stderr)


if __name__ == "__main__":
    print_machine()
    main()
