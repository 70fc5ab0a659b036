"""strategytree: build, check and explain decision-tree strategies for Mastermind.

>>> import strategytree as st
>>> tree = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
>>> report = st.verify(tree, st.mastermind(2, 3))
>>> report.total, report.max_guesses
(21, 3)

Importing the package is cheap: numba is imported, and kernels compiled, only
when a kernel is first used (``strategytree.scoring``, ``strategytree.greedy_choice``);
numpy and lark only when a name that needs them is first used.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

from .errors import (
    CodeError,
    GameError,
    StrategyError,
    StrategyFileError,
    StrategyTreeError,
)
from .notebook import show_in_notebooks

show_in_notebooks()  # how a strategy and a report show in Jupyter

if TYPE_CHECKING:
    from .formats.brace import dump, dumps, load, loads
    from .formats.reading import infer_game
    from .game import Game, Reply, distinct, mastermind
    from .presets import resolve_game
    from .tree import Node, Strategy, Visitor, walk
    from .verify import Report, verify

#: where each public name lives; imported on first use, so that a command
#: needing none of them (``strategytree --help``) never imports numpy or lark
_HOMES = {
    "Game": "game", "Reply": "game", "distinct": "game", "mastermind": "game",
    "resolve_game": "presets",
    "dump": "formats.brace", "dumps": "formats.brace", "load": "formats.brace",
    "loads": "formats.brace", "infer_game": "formats.reading",
    "Node": "tree", "Strategy": "tree", "Visitor": "tree", "walk": "tree",
    "Report": "verify", "verify": "verify",
}


class _Package(ModuleType):
    """The package module: the name ``verify`` stays the function even after the
    submodule of that name is first imported (which would bind the module there)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _HOMES and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> object:
    """The public names of :data:`_HOMES`, imported from their modules when first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'strategytree' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = [
    "CodeError",
    "Game",
    "GameError",
    "Node",
    "Reply",
    "Report",
    "Strategy",
    "StrategyError",
    "StrategyFileError",
    "StrategyTreeError",
    "Visitor",
    "distinct",
    "dump",
    "dumps",
    "infer_game",
    "load",
    "loads",
    "mastermind",
    "resolve_game",
    "verify",
    "walk",
]
