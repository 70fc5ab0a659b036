"""How strategytree's objects show themselves in a notebook: a registry of HTML views.

A class Jupyter should draw defines ``_repr_html_`` as ``display.html(self)``;
the view itself is registered by :mod:`strategytree.notebook` (imported with
the package), which may use every module of the library.  The classes stay
below their views in the imports: this module imports nothing.

>>> class Thing: ...
>>> register(Thing, lambda thing: "<b>a thing</b>")
>>> html(Thing())
'<b>a thing</b>'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: the HTML view of each class, by its qualified name
VIEWS: dict[str, Callable[[Any], str]] = {}


def _name(kind: type) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def register(kind: type | str, view: Callable[[Any], str]) -> None:
    """Show the objects of ``kind`` (a class, or its ``module.qualname``) with ``view``."""
    VIEWS[kind if isinstance(kind, str) else _name(kind)] = view


def html(obj: object) -> str:
    """``obj`` as HTML by the view registered for its class (its ``repr``, escaped,
    when there is none)."""
    from html import escape

    view = VIEWS.get(_name(type(obj)))
    return view(obj) if view is not None else f"<pre>{escape(repr(obj))}</pre>"
