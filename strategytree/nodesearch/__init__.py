"""The node search: one machine that judges the guesses at a node by what
follows them, behind ``generate --method lookahead`` (a tree built top-down,
:mod:`strategytree.lookahead`) and ``improve`` (a tree searched again,
:mod:`strategytree.improve`).

============================  ==========================================================
module                        what it holds
============================  ==========================================================
:mod:`.settings`              :class:`SearchSettings` (what is searched, built once by the
                              caller), :func:`parse_counts` (the one reader of widths and
                              finalists), :class:`Tally` (how far a run has got)
:mod:`.search`                :class:`NodeSearch`: shortlist, completion, ranking,
                              finalists, exact solving below N, deepening
:mod:`.saved`                 the checkpoints of both commands
:mod:`.cluster`               the same search on a Dask cluster (imported only then)
============================  ==========================================================
"""

from __future__ import annotations

from .saved import Decisions, Saved
from .search import COMPLETERS, Index, NodeSearch, copy_tree, set_key, split
from .settings import ALL, COMPLETE_ABOVE, SearchSettings, Tally, at_level, parse_counts

__all__ = ["ALL", "COMPLETERS", "COMPLETE_ABOVE", "Decisions", "Index",
           "NodeSearch", "Saved", "SearchSettings", "Tally", "at_level", "copy_tree",
           "parse_counts", "set_key", "split"]
