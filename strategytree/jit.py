"""numba as our kernels use it: ``njit`` and ``prange``, from a target chosen first.

Every module with kernels imports ``njit`` from here, so this runs before numba
builds its target (at the first ``@njit`` of a process).  On a CPU with
AVX-512, LLVM's tuning for Intel's servers keeps its vectors at 256 bits; the
exact search's scan of every guess (``search.compiled.scan``) is a loop over
bytes widened to 64-bit lanes, which 512-bit vectors do twice as many at a time.
So numba is told to use them (:data:`WIDE`), except on the CPUs whose clock drops
under 512-bit code (:data:`THROTTLED`).  On an Intel Xeon (Emerald Rapids), the
exact search of a part of 510 secrets of MM(5,8) then took 0.80x the CPU, and the
greedy kernels did not move (``benchmarks/README.md``); other AVX-512 CPUs (later
Intel ones, AMD's Zen 4 and 5) are expected to gain alike, and were not measured.

``NUMBA_CPU_NAME`` or ``NUMBA_CPU_FEATURES``, when set, are kept as they are, and
``STRATEGYTREE_VECTOR_BITS=256`` keeps LLVM's choice.  A process that built
numba's target before importing ours (an ``@njit`` of its own) keeps it.
"""

from __future__ import annotations

import os

from numba import njit, prange
from numba.core import config

__all__ = ["WIDE", "njit", "prange", "wide_features"]

#: AVX-512 CPUs whose clock drops under 512-bit code (LLVM's names): left at 256
THROTTLED = frozenset({"skylake-avx512", "cascadelake", "cooperlake", "cannonlake",
                       "knl", "knm"})


def wide_features(name: str, features: dict[str, bool], bits: str = "") -> str | None:
    """The features numba is to compile for on the CPU ``name`` (LLVM's) with
    ``features`` (LLVM's, name: on) to use 512-bit vectors, or None to leave
    LLVM's choice (no AVX-512, a CPU whose clock it slows, or ``bits`` "256")."""
    if bits.strip() == "256" or name in THROTTLED or not features.get("avx512f"):
        return None
    return ",".join(f"{'+' if on else '-'}{f}" for f, on in features.items()) + ",-prefer-256-bit"


def wide_vectors() -> bool:
    """Let numba compile with 512-bit vectors where that pays (see the module's
    doc), unless its target is set already; True when it will."""
    from llvmlite import binding
    from numba.core.registry import cpu_target

    if (config.CPU_NAME is not None or config.CPU_FEATURES is not None
            or "_toplevel_target_context" in vars(cpu_target)):  # (built already)
        return False
    try:
        name, features = binding.get_host_cpu_name(), dict(binding.get_host_cpu_features())
    except RuntimeError:  # (LLVM cannot tell on this platform)
        return False
    wide = wide_features(name, features, os.environ.get("STRATEGYTREE_VECTOR_BITS", ""))
    if wide is None:
        return False
    config.CPU_FEATURES = wide
    return True


#: our kernels are compiled with 512-bit vectors
WIDE = wide_vectors()
