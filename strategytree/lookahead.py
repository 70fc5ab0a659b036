"""Building a tree by searching beyond one step, for games too large for exact
search (MM(5,8)): the node search (:mod:`strategytree.nodesearch`) applied top-down.

At a node, the builder takes the ``width`` best guesses of a one-step rule
(its shortlist), completes the subtree under each greedily, and keeps the
guess whose completed subtree needs the fewest guesses in total (ties: the
fewest in the worst case, then the rule's order).  It then does the same in
every part below the kept guess, with the width of the next level.  Where the
widths run out, the greedy completion is kept as it is.

Since the shortlist always holds the rule's own choice, whose completion is
the greedy subtree, no node ever gets worse than greedy: the total only goes
down as the widths grow.  The cost is about ``width`` greedy builds of the
whole game per level searched, so the widths trade time for quality:

===================  ==============================================
``widths``           what it means
===================  ==============================================
``(8,)``             best of 8 openings, greedy after
``(8, 8, 4)``        8 at the first two levels, 4 at the third
``(16, 8, 8, 4, 2)`` a long run
===================  ==============================================

The completions need not be greedy: with ``complete`` (widths, e.g. ``(3,)``),
every part of more than ``complete_above`` secrets below a shortlisted guess is
completed by a lookahead of those widths (itself completing greedily), so the
guesses near the root are judged by better subtrees than greedy ones, at a
price of about the inner width per such part.

With ``finalists`` (numbers by level; 0: all), the cheapest few guesses of a
shortlist are each searched in full below and the best searched subtree is
kept, so that the guesses near the root are judged by the subtrees the search
makes of them, not by their completions alone.  With ``max_guesses``, subtrees
that keep every secret within that many guesses are preferred to any that do
not, in every choice.  With ``exact_below``, the small sets below the guesses
kept get optimal subtrees from the exact search
(:class:`~strategytree.search.subsets.Exact`) instead of searched ones.

Given a ``distributed.Client``, the same search runs on a Dask cluster: the
completions of the shortlists and the searches of the smaller parts below a
kept guess are tasks (:class:`~strategytree.nodesearch.cluster.TreeOnCluster`),
and the tree is the in-process one.

>>> from strategytree.game import mastermind
>>> from strategytree.verify import verify
>>> game = mastermind(3, 4)
>>> greedy = verify(build_lookahead(game, widths=()), game).total
>>> deeper = verify(build_lookahead(game, widths=(4, 4)), game).total
>>> deeper <= greedy
True
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

import numpy as np

from .builders import GreedyChooser, parse_rules
from .errors import ArgumentError
from .game import Game
from .nodesearch import COMPLETE_ABOVE, Decisions, NodeSearch, SearchSettings, Tally
from .progress import ProgressCallback
from .runner import Interrupted, Stop, run_in_thread
from .tree import Node, Strategy

__all__ = ["LOOKAHEAD_FINALISTS", "build_lookahead", "grow_lookahead"]

#: a lookahead's finalists when none are given: the cheapest guess alone, at every level
LOOKAHEAD_FINALISTS = (1,)


def build_lookahead(
    game: Game,
    rule: str = "entropy",
    widths: Sequence[int] | str = (8, 4),
    *,
    symmetry: bool = True,
    progress: ProgressCallback | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    also: Sequence[str] | str = (),
    client: object | None = None,
    complete: Sequence[int] | str = (),
    complete_above: int = COMPLETE_ABOVE,
    max_guesses: int | None = None,
    finalists: Sequence[int] | str = (),
    exact_below: int = 0,
) -> Strategy:
    """A strategy for ``game`` found by searching the ``widths[d]`` best guesses
    of ``rule`` at depth ``d`` (see the module doc; the counts may be written
    as text, ``8,8,4``, ``all`` for every guess; a level beyond ``widths`` is
    not searched).  The settings are those of
    :class:`~strategytree.nodesearch.SearchSettings` (no ``finalists``: one at
    every level, :data:`LOOKAHEAD_FINALISTS`); ``also`` names more rules (or
    lists them as text, ``parts,expected``): their best guesses join the
    shortlist, and each part below a guess is completed by every rule, keeping
    the cheapest completion.  :func:`grow_lookahead` tells the rest.
    """
    if isinstance(also, str):
        also = parse_rules(also, argument="also")
    choosers = [GreedyChooser(game, name, symmetry=symmetry) for name in (rule, *also)]
    names = [chooser.rule for chooser in choosers]
    for i, name in enumerate(names[1:], 1):
        if name in names[:i]:
            said = ",".join(also)
            if name == names[0]:
                raise ArgumentError(f"{{also}} repeats {{rule}} ({name} is searched once "
                                    "already): drop it", also=said, rule=rule)
            raise ArgumentError(f"{{also}} names {name} twice", also=said)
    if any(chooser.randomised for chooser in choosers):
        if choosers[0].randomised:
            raise ArgumentError(
                "the search needs a rule that scores guesses, not {rule}", rule=rule
            )
        raise ArgumentError(
            "the search needs rules that score guesses, not {also}", also=",".join(also)
        )
    settings = SearchSettings.of(
        rules=tuple(chooser.rule for chooser in choosers), widths=widths,
        finalists=finalists or LOOKAHEAD_FINALISTS, exact_below=exact_below,
        max_guesses=max_guesses, complete=complete, complete_above=complete_above,
    )
    return grow_lookahead(game, settings, choosers, symmetry=symmetry, progress=progress,
                          checkpoint=checkpoint, client=client)


def grow_lookahead(
    game: Game, settings: SearchSettings, choosers: Sequence[GreedyChooser] | None = None, *,
    symmetry: bool = True, progress: ProgressCallback | None = None,
    checkpoint: str | os.PathLike[str] | None = None, client: object | None = None,
) -> Strategy:
    """The lookahead of ``settings`` for ``game`` (``choosers``: its rules'
    choosers, if already made), searched as the unit of work of
    :func:`~strategytree.runner.run_in_thread`: Ctrl-C stops it, and raises
    :class:`~strategytree.runner.Interrupted` once the checkpoint is saved.

    With ``checkpoint``, every decision is saved to that file (when due,
    :class:`~strategytree.runner.Cadence`, and at the end) and a run with the same file, game and
    settings takes the decisions already made instead of searching again.

    ``progress`` is called after each node decided by search, with the nodes
    decided so far (its detail: completions built, guesses saved) (called in the
    search's thread: an exception it raises ends the run and is raised here).

    ``client`` (a ``distributed.Client``): the completions of the shortlists
    near the root, and the searches of the smaller parts below the guesses
    kept, run as tasks on its Dask cluster
    (:class:`~strategytree.nodesearch.cluster.TreeOnCluster`); the tree is the
    in-process run's, and progress also counts the tasks done, running and
    queued.
    """
    tally = Tally(started=time.perf_counter())
    saved = Decisions(checkpoint, game, settings) if checkpoint else None
    stop = Stop()
    search = NodeSearch(game, settings, symmetry=symmetry, tally=tally, stop=stop,
                        progress=progress, checkpoint=saved, choosers=choosers)
    secrets = np.arange(len(game.secrets))
    sym = search.choosers[0].root_symmetry()
    if client is not None:
        from .nodesearch.cluster import TreeOnCluster

        def work() -> Node:
            return TreeOnCluster(client, search).run(secrets, sym).node
    else:
        def work() -> Node:
            return search.subtree(secrets, sym, 0).node

    ended = run_in_thread(work, "strategytree-lookahead", stop)
    if saved is not None:  # the decisions noted since the last save (none is due meanwhile)
        saved.save()
    if ended.interrupted:
        raise Interrupted(None)
    if ended.error is not None:
        raise ended.error
    root = ended.value
    rules = "+".join(settings.rules)
    return Strategy(root, source=f"<lookahead {rules} {settings.text()} {game.name}>")
