"""Griffe extension: the ``>>>`` examples of docstrings shown as code, not quotes.

Markdown reads ``>>>`` as three nested quotes; each example (from its first
``>>>`` to the next blank line) is fenced as ``pycon`` before mkdocstrings
renders the docstring.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence(text: str) -> str:
    """``text`` with every doctest example between ```` ```pycon ```` fences."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not line.strip():
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctest examples of every docstring loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence(obj.docstring.value)
