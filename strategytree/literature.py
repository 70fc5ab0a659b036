"""Published figures that strategytree is checked against (one table for all).

Each :class:`Figure` is a total number of guesses over all secrets (and the
worst case, where published) for one game and one method.  The tests read
this table, and ``benchmarks/greedy_table.py`` prints the README's table
from it beside our own figures.
"""

from __future__ import annotations

from typing import NamedTuple


class Figure(NamedTuple):
    """A published total for a game and a method."""

    game: str
    """``MM(4,6)``, ``MM(5,8)``, ``bulls-and-cows`` (4 distinct of 10, distinct guesses), ..."""
    method: str
    """a greedy rule (``minimax``, ``expected``, ``entropy``, ``parts``) or ``optimal``"""
    low: int
    """the published total (the lowest, when several were published)"""
    high: int
    """the highest published total for the same method (= low when one)"""
    max_guesses: int | None
    """the worst case, when published with the total"""
    source: str
    """who published it"""


FIGURES: tuple[Figure, ...] = (
    Figure("MM(4,6)", "minimax", 5801, 5801, 5, "Knuth 1976"),
    Figure("MM(4,6)", "expected", 5696, 5696, 6, "Irving 1979"),
    Figure("MM(4,6)", "parts", 5668, 5668, 6, "Kooi 2005"),
    Figure("MM(4,6)", "entropy", 5681, 5733, None, "Neuwirth 1982; depends on tie-breaks"),
    Figure("MM(4,6)", "optimal", 5625, 5625, 6, "Koyama & Lai 1993"),
    Figure("MM(4,7)", "optimal", 11228, 11228, 6, "Ville 2013"),
    Figure("MM(5,8)", "entropy", 179747, 179797, 7, "published one-step entropy trees"),
    Figure("MM(5,8)", "expected", 180214, 180287, None, "published expected-size trees"),
    Figure("MM(5,8)", "parts", 181834, 181834, None, "published most-parts tree"),
    Figure("MM(5,8)", "minimax", 182409, 183775, None, "published minimax trees"),
    Figure("bulls-and-cows", "entropy", 26536, 26536, None, "published"),
    Figure("bulls-and-cows", "expected", 26551, 26551, None, "published"),
    Figure("bulls-and-cows", "parts", 26751, 26751, None, "published"),
    Figure("bulls-and-cows", "minimax", 27139, 27139, None, "published"),
    Figure("bulls-and-cows", "optimal", 26274, 26274, 7, "published optimum"),
    Figure("MM(4,6)", "optimal-max-5", 5626, 5626, 5, "Koyama & Lai 1993"),
    Figure("4-distinct-of-6", "optimal", 1446, 1446, None, "published optimum (distinct guesses)"),
    Figure("4-distinct-of-8", "optimal", 7817, 7817, None, "published optimum (distinct guesses)"),
)


def published(game: str, method: str) -> Figure | None:
    """The published figure for a game and method, if there is one.

    >>> published("MM(4,6)", "minimax").low
    5801
    """
    for figure in FIGURES:
        if figure.game == game and figure.method == method:
            return figure
    return None


# -- proven lower bounds on the least total (issue 14, `strategytree bound --total`) ----------
# A separate small table, to be merged with the table of proven bounds when there is one.
class TotalLowerBound(NamedTuple):
    """A proven lower bound on the least total of any strategy for a game."""

    game: str
    """``MM(5,8)``, ..."""
    bound: int
    """no strategy solves every secret in fewer guesses in total"""
    how: str
    """how it was proved (the command, its depth and time)"""


TOTAL_LOWER_BOUNDS: tuple[TotalLowerBound, ...] = (
    TotalLowerBound("MM(5,8)", 173074, "strategytree bound --total -p 5 -c 8 --depth 3: three levels "
                    "exact, counting below (1,562 s, 115,166 sets bounded, 2026-11-23)"),
)
