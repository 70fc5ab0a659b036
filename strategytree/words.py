"""Counts in words: ``1 guess``, ``2 guesses``, ``1,296 secrets`` — the one place
every message that counts something gets its number and its noun to agree."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is 1
    (``many`` when given, else the noun with ``es`` after s, x, z, ch or sh,
    and ``s`` after anything else); thousands are separated by commas.

    >>> plural(1, "guess"), plural(2, "guess"), plural(1296, "secret"), plural(0, "black")
    ('1 guess', '2 guesses', '1,296 secrets', '0 blacks')
    >>> plural(1, "run"), plural(3, "part", "parts"), plural(1, "branch"), plural(2, "branch")
    ('1 run', '3 parts', '1 branch', '2 branches')
    """
    if count == 1:
        return f"1 {noun}"
    if many is None:
        many = noun + ("es" if noun.endswith(("s", "x", "z", "ch", "sh")) else "s")
    return f"{count:,} {many}"
