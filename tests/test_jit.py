"""The target our kernels are compiled for: 512-bit vectors where the CPU has AVX-512
and its clock does not drop under them (strategytree.jit)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from strategytree.jit import THROTTLED, wide_features

AVX512 = {"avx2": True, "avx512f": True, "avx512bw": True, "sse4a": False}


def test_an_avx512_cpu_gets_512_bit_vectors_and_keeps_its_features() -> None:
    wide = wide_features("emeraldrapids", AVX512)
    assert wide is not None
    assert wide.split(",") == ["+avx2", "+avx512f", "+avx512bw", "-sse4a", "-prefer-256-bit"]
    assert wide_features("znver5", AVX512) == wide


@pytest.mark.parametrize("name, features, bits", [
    ("haswell", {"avx2": True, "avx512f": False}, ""),  # no AVX-512
    ("x86-64", {"sse2": True}, ""),  # not even a word of it
    ("emeraldrapids", AVX512, "256"),  # asked to keep LLVM's choice
    ("emeraldrapids", AVX512, " 256\n"),
    *[(name, AVX512, "") for name in sorted(THROTTLED)],  # slowed by 512-bit code
])
def test_llvms_choice_is_kept(name: str, features: dict[str, bool], bits: str) -> None:
    assert wide_features(name, features, bits) is None


_PROBE = textwrap.dedent("""
    import json, re, sys
    import numpy as np
    if sys.argv[1] == "numba first":  # a process that compiled numba code of its own
        from numba import njit as own
        own(lambda x: x + 1)(1)
    from llvmlite import binding
    from numba.core import config
    from strategytree.jit import WIDE, njit, wide_features
    from strategytree.search.compiled import scan

    @njit
    def call(fbT, S, out):
        scan(fbT, S, out)

    call(np.zeros((8, 64), np.int8), np.arange(5, dtype=np.int32), np.zeros(64, np.uint64))
    asm = next(iter(scan.overloads.values())).library.get_asm_str()
    host = wide_features(binding.get_host_cpu_name(), dict(binding.get_host_cpu_features()))
    print(json.dumps({"wide": WIDE, "host": host is not None, "features": config.CPU_FEATURES,
                      "zmm": bool(re.search(r"%zmm", asm))}))
""")


def _probe(tmp_path, how: str, **env: str) -> dict:
    script = tmp_path / "probe.py"
    script.write_text(_PROBE)
    environ = {k: v for k, v in os.environ.items()
               if k not in ("STRATEGYTREE_VECTOR_BITS", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")}
    cache = tmp_path / f"cache-{len(list(tmp_path.glob('cache-*')))}"  # (compiled: its code seen)
    environ.update(env, NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, str(script), how], env=environ, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


@pytest.mark.subprocess
def test_the_scan_is_compiled_as_the_target_says(tmp_path) -> None:
    """Where this CPU gets 512-bit vectors, the scan uses them (zmm registers), and
    not otherwise; asked for 256 bits, or after numba code of the process's own, or
    with a target of the user's, numba is left as it was (LLVM's 256 bits)."""
    got = _probe(tmp_path, "ours first")
    assert got["wide"] == got["host"] == got["zmm"]
    assert (got["features"] or "").endswith("-prefer-256-bit") == got["wide"]
    for how, env in [("ours first", {"STRATEGYTREE_VECTOR_BITS": "256"}), ("numba first", {})]:
        kept = _probe(tmp_path, how, **env)
        assert not kept["wide"] and not kept["zmm"] and kept["features"] is None, (how, env)
    # (numba's haswell takes the host's features: its code may still be 512 bits wide)
    users = _probe(tmp_path, "ours first", NUMBA_CPU_NAME="haswell")
    assert not users["wide"] and users["features"] is None
