"""Loading our compiled kernels from numba's cache without the compiler's set-up.

numba's cache load (``numba.core.caching.Cache.load_overload``) first refreshes the
CPU target: it imports and registers every typing and lowering registry numba has
(``numba.np.*``, ``numba.cpython.*``, ``numba.typed``, ...), which only a compile
needs, and takes about 0.1 s of CPU on the first load of a process, a fifth of
``generate -m optimal -p 4 -c 6``'s whole run.  A cached kernel is machine code that
needs numba's runtime (NRT) linked in and nothing else, so :func:`quick_loads`
makes the load initialise the runtime and skip the refresh; a kernel that is not in
the cache is compiled as before, and numba's compiler refreshes the target itself
(``numba.core.compiler.CompilerBase``).  With a numba whose cache is built otherwise
(the attributes below missing) nothing is changed.
"""

from __future__ import annotations

__all__ = ["quick_loads"]

_installed = False


def quick_loads() -> bool:
    """Make numba's cache loads skip the target refresh (once per process; True when
    numba's cache is as expected and the loads are now quick)."""
    global _installed
    if _installed:
        return True
    from numba.core import caching
    from numba.core.runtime import nrt

    cache = caching.Cache
    runtime = getattr(nrt, "rtsys", None)
    if not (hasattr(cache, "_load_overload") and hasattr(cache, "_guard_against_spurious_io_errors")
            and callable(getattr(runtime, "initialize", None))):
        return False

    def load_overload(self, sig, target_context):  # type: ignore[no-untyped-def]
        runtime.initialize(target_context)  # the runtime the cached code calls
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        return None  # (the guard swallowed an error of the cache files: compiled instead)

    cache.load_overload = load_overload
    _installed = True
    return True
