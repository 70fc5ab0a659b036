"""strategytree: build, check and explain decision-tree strategies for Mastermind.

>>> import strategytree as st
>>> tree = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
>>> report = st.verify(tree, st.mastermind(2, 3))
>>> report.total, report.max_guesses
(21, 3)

Importing the package is cheap: numba is imported, and kernels compiled, only
when a kernel is first used (``strategytree.kernels``).
"""

from __future__ import annotations

from .errors import (
    CodeError,
    GameError,
    StrategyError,
    StrategyFileError,
    StrategyTreeError,
)
from .game import Game, Reply, distinct, mastermind, resolve_game
from .notation import dump, dumps, load, loads
from .tree import Node, Strategy, Visitor, walk
from .verify import Report, infer_game, verify

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
