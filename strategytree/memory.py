"""How much memory the system can still give, and whether a plan fits in it.

Long runs and large inputs are refused before anything is allocated
(:func:`strategytree.game.check_memory`, the reading of a file): they ask
:func:`too_much` with their estimate.

>>> too_much(1) is None  # one byte always fits
True
"""

from __future__ import annotations

#: the share of the memory available that a run may plan to take
MEMORY_SHARE = 0.8


def available_memory() -> int | None:
    """Bytes of memory the system can still give (Linux), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None


def too_much(need: float) -> int | None:
    """The bytes available when ``need`` bytes is more than a run may plan to take
    (:data:`MEMORY_SHARE` of them); None when it fits or nobody knows."""
    free = available_memory()
    if free is not None and need > MEMORY_SHARE * free:
        return free
    return None
