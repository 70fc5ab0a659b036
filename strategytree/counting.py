"""The counting bound: the least total any strategy can reach when a guess wins at
most one secret and splits the rest into at most ``b`` parts.

The ``k``-th secret cannot be solved before the first level of a complete
``b``-ary tree that holds ``k`` nodes: one secret at guess 1, ``b`` at guess 2,
``b**2`` at guess 3, ...  (:func:`solved_by_guess`).  Summed, that is the
counting bound of ``n`` secrets (:func:`counting_total`); as a table over
``n`` (:func:`lower_bounds`) it is the bound the exact search prunes with and
the total bound uses below its exact levels.  ``b`` is the most parts besides
the win: :func:`parts_by_scoring` reads it from the scoring alone (no reply
computed), :func:`parts_by_replies` counts the replies that occur.

>>> counting_total(1296, 13)
4986
>>> L, cap = lower_bounds(20, 13, 3)
>>> [int(x) for x in L[:5]], int(L[15]), [int(x) for x in cap]
([0, 1, 3, 5, 7], 30, [0, 1, 14, 183])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "INF",
    "UNLIMITED",
    "counting_bound",
    "counting_total",
    "lower_bounds",
    "parts_by_replies",
    "parts_by_scoring",
    "solved_by_guess",
]

#: "no strategy within the limits" (any cost at least this is infinite)
INF = 1 << 40
#: guesses left when no maximum is asked for (deeper than any real strategy)
UNLIMITED = 60


def solved_by_guess(secrets: int, parts: int) -> list[int]:
    """How many of ``secrets`` secrets the counting tree solves at guess 1, 2, ...:
    one, then ``parts`` times as many as the level before, until all are placed.

    >>> solved_by_guess(20, 3)
    [1, 3, 9, 7]
    """
    b = max(int(parts), 1)
    counts, room, left = [], 1, int(secrets)
    while left > 0:
        here = min(left, room)
        counts.append(here)
        left -= here
        room *= b
    return counts


def counting_total(secrets: int, parts: int) -> int:
    """The least total for ``secrets`` secrets when a guess wins at most one and
    splits the rest into at most ``parts`` parts (:func:`solved_by_guess`).

    >>> counting_total(1296, 13)
    4986
    """
    return sum(guess * count for guess, count in enumerate(solved_by_guess(secrets, parts), 1))


def lower_bounds(n: int, branching: int, depth: int = UNLIMITED) -> tuple[np.ndarray, np.ndarray]:
    """``(L, cap)``: ``L[k]`` the least total cost of ``k`` secrets
    (:func:`counting_total` for every ``k`` up to ``n``), ``cap[d]`` the most
    secrets ``d`` guesses can solve, when a guess makes at most ``branching``
    parts besides the win.

    >>> L, cap = lower_bounds(5, 2, 3)
    >>> [int(x) for x in L], [int(x) for x in cap]
    ([0, 1, 3, 5, 8, 11], [0, 1, 3, 7])
    """
    b = max(int(branching), 1)
    counts = solved_by_guess(n, b)
    levels = np.repeat(np.arange(1, len(counts) + 1, dtype=np.int64), counts)
    L = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(levels, out=L[1:])
    cap = np.zeros(depth + 1, dtype=np.int64)
    for d in range(1, depth + 1):
        cap[d] = min(1 + b * cap[d - 1], INF)
    return L, cap


def parts_by_scoring(game: Game) -> int:
    """How many parts besides the win a guess can split a set of secrets into, at
    most: the replies other than the win (an upper bound, from the scoring alone,
    for black-white and black-only games; counted from the table for custom games).

    >>> from strategytree.game import black_only, mastermind
    >>> [parts_by_scoring(g) for g in (mastermind(4, 6), mastermind(5, 8), black_only(4, 6))]
    [13, 19, 4]
    """
    p = game.pegs
    if game.scoring == "black-only":
        return p  # 0 .. p - 1 blacks
    if game.scoring == "black-white":
        pairs = (p + 1) * (p + 2) // 2  # b + w <= p
        return pairs - 1 - 1  # never p - 1 blacks and one white; the win
    return max(1, len(game.possible_replies) - 1)


def parts_by_replies(game: Game) -> int:
    """The most parts besides the win a guess can make: the replies that occur, less
    the win (exact, where :func:`parts_by_scoring` reads the scoring alone).

    >>> from strategytree.game import mastermind
    >>> parts_by_replies(mastermind(4, 6))
    13
    """
    replies = game.possible_replies
    return max(len(replies) - (1 if game.win in replies else 0), 1)


def counting_bound(game: Game, parts: int | None = None) -> int:
    """The counting bound on the least total of ``game``: :func:`counting_total`
    with ``parts`` parts besides the win (default :func:`parts_by_scoring`, which
    needs no reply computed; ``bound --total --depth 0`` gives
    :func:`parts_by_replies`).

    >>> from strategytree.game import mastermind
    >>> counting_bound(mastermind(4, 6)), counting_bound(mastermind(5, 8))
    (4986, 156198)
    """
    return counting_total(len(game.secrets), parts_by_scoring(game) if parts is None else parts)
