"""Published figures that strategytree is checked against (one table for all),
proven lower bounds on the optimum, and how far a strategy can be from the best.

Each :class:`Figure` is a total number of guesses over all secrets (and the
worst case, where published) for one game and one method.  The tests read
this table, and ``benchmarks/greedy_table.py`` prints the README's table
from it beside our own figures.  Each :class:`Bound` is a proven lower bound
on the least total of a game whose optimum is not known, with how it was
obtained; :func:`best_known_lower_bound` returns the best stored one, or the
counting bound computed on the spot.  :func:`gap` puts a strategy's total
beside the optimum (or the bound):

>>> from strategytree.game import mastermind
>>> print(gap(mastermind(4, 6), 5722))
optimum 5,625 (Koyama & Lai 1993) → +97 (1.7%)
>>> counting_bound(mastermind(5, 8))
156198
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import perm
from typing import TYPE_CHECKING, Any, NamedTuple

from .counting import counting_bound

if TYPE_CHECKING:
    from .game import Game


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
    Figure("MM(4,8)", "optimal", 20471, 20471, 7, "arfst23's exhaustive search"),
    Figure("MM(4,8)", "optimal-max-6", 20473, 20473, 6, "arfst23's exhaustive search"),
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


#: how a result of ours (:attr:`Result.proven`) is known to be optimal: found by the exact
#: search (``generate --method optimal``), or met by a full-depth bound (:data:`FULL_DEPTH`)
EXACT_SEARCH = "exact search"
#: the least over the first guesses of the optimum of each part (every part after a
#: first guess searched exactly: ``bound --total --exact-below N``, N above every part)
FULL_DEPTH = "full-depth bound"
#: a result of ours not known to be optimal: the best total we know
BEST_KNOWN = "best known"


class Result(NamedTuple):
    """A result of our own, beside the published figures: a strategy we ship (the
    verifier scores the file; ``tests/test_literature.py`` checks the two agree)."""

    game: str
    """the game's key (:func:`game_key`)"""
    total: int
    """the strategy's total number of guesses over all secrets"""
    max_guesses: int
    """its worst case"""
    proven: str
    """how it stands: optimal, found by the exact search (:data:`EXACT_SEARCH`) or met
    by a full-depth ``bound --total`` (:data:`FULL_DEPTH`); or :data:`BEST_KNOWN` (the
    best total we know, the optimum may be lower)"""
    command: str
    """the command that made it"""
    date: str
    """when (ISO date)"""
    file: str | None = None
    """the shipped strategy, relative to the project's root (None: a small game, whose
    optimum the tests find again)"""
    bound: str | None = None
    """the ``bound --total`` command whose proven lower bound meets ``total`` (the
    optimum proved a second way), when it was run"""

    @property
    def optimal(self) -> bool:
        """Whether no strategy does better (:attr:`proven`)."""
        return self.proven != BEST_KNOWN


def _solved(pegs: int, colors: int, total: int, max_guesses: int,
            date: str = "2026-11-28") -> Result:
    """The optimum of the small game MM(pegs,colors), found by the exact search in
    seconds (``benchmarks/frontier.py``; ``tests/test_literature.py`` finds it again)."""
    return Result(f"MM({pegs},{colors})", total, max_guesses, EXACT_SEARCH,
                  f"strategytree generate --method optimal -p {pegs} -c {colors}", date,
                  bound=f"strategytree bound --total -p {pegs} -c {colors} --depth 8 "
                  f"--exact-below {colors**pegs}")


#: our own results: each a file the verifier scores, or a small game's optimum that the
#: tests find again (tests/test_literature.py)
RESULTS: tuple[Result, ...] = (
    Result("MM(4,9)", 34666, 8, EXACT_SEARCH,
           "strategytree generate --method optimal -p 4 -c 9 --workers 2", "2026-11-23",
           "examples/mm49.txt",
           bound="strategytree bound --total -p 4 -c 9 --depth 9 --exact-below 7000 --workers 2 "
           "(338 s, 538 s of CPU, AMD EPYC, 2026-11-28)"),
    Result("MM(5,8)", 178308, 7, BEST_KNOWN, "python benchmarks/record.py", "2026-11-27",
           "examples/mm58.txt"),
    Result("MM(5,6)", 36721, 7, EXACT_SEARCH,
           "strategytree generate --method optimal -p 5 -c 6 --checkpoint mm56.ckpt -o mm56.txt "
           "(stopped after 15 min, resumed from its checkpoint)", "2026-11-28",
           "examples/mm56.txt",
           bound="strategytree bound --total -p 5 -c 6 --depth 8 --exact-below 8000 "
           "(36,721 at depth 3; 546 s of CPU on one thread, AMD EPYC, 2026-11-28)"),
    Result("MM(4,10)", 55632, 8, FULL_DEPTH,
           "strategytree generate --method lookahead -p 4 -c 10 -w 12,12,12,8,6,4,2 --also parts "
           "--exact-below 400 -o la.txt (55,656; 245 s), then strategytree improve la.txt "
           "--exact-below 500 --budget 15m -o im.txt (55,650, stopped by its budget), then "
           "strategytree improve im.txt --exact-below 1900 -w 0 -o mm410.txt (35 min)",
           "2026-11-28", "examples/mm410.txt",
           bound="strategytree bound --total -p 4 -c 10 --depth 10 --exact-below 400 "
           "--workers 2 --checkpoint FILE (55,632 at depth 5; resumed over six runs, "
           "13,769 s on 2 workers and 1.19 million sets bounded, after a depth-3 run of "
           "1,747 s in one process; AMD EPYC, 2026-11-28)"),
    # -- the small games without a published optimum in FIGURES (issue 39)
    _solved(2, 2, 8, 3), _solved(2, 3, 21, 3), _solved(2, 4, 45, 4), _solved(2, 5, 81, 4),
    _solved(2, 6, 132, 5), _solved(2, 7, 198, 5), _solved(2, 8, 284, 6),
    _solved(2, 9, 388, 6), _solved(2, 10, 517, 7),
    _solved(3, 2, 18, 3), _solved(3, 3, 73, 4), _solved(3, 4, 206, 4), _solved(3, 5, 451, 5),
    _solved(3, 6, 854, 5), _solved(3, 7, 1474, 6), _solved(3, 8, 2359, 6),
    _solved(3, 9, 3596, 7), _solved(3, 10, 5242, 7),
    _solved(4, 2, 44, 4), _solved(4, 3, 246, 4), _solved(4, 4, 905, 5), _solved(4, 5, 2463, 6),
    _solved(5, 2, 97, 4), _solved(5, 3, 816, 5), _solved(5, 4, 3954, 6),
    _solved(5, 5, 13496, 6),
    _solved(6, 2, 224, 5), _solved(6, 3, 2649, 5),
    _solved(6, 4, 17281, 6, "2026-11-29"),  # 8.9 s (Intel Xeon, Emerald Rapids)
)


def ours(game: str) -> Result | None:
    """Our own result for a game (by key), if we have one.

    >>> ours("MM(4,9)").total
    34666
    """
    return next((result for result in RESULTS if result.game == game), None)


def published(game: str, method: str) -> Figure | None:
    """The published figure for a game and method, if there is one.

    >>> published("MM(4,6)", "minimax").low
    5801
    """
    for figure in FIGURES:
        if figure.game == game and figure.method == method:
            return figure
    return None


# -- which game a figure is for ------------------------------------------------------------
def game_key(game: Game) -> str | None:
    """The key the tables use for ``game`` (``MM(4,6)``, ``bulls-and-cows``,
    ``4-distinct-of-8`` for distinct secrets and guesses), or None for a game
    the tables cannot speak of (black-only, custom tables, distinct secrets with
    any guess).  The one place a :class:`~strategytree.game.Game` meets a key.

    >>> from strategytree.game import distinct, mastermind

    >>> from strategytree.presets import bulls_and_cows
    >>> game_key(mastermind(4, 6)), game_key(bulls_and_cows()), game_key(distinct(4, 6))
    ('MM(4,6)', 'bulls-and-cows', None)
    """
    if game.scoring != "black-white":
        return None
    p, c = game.pegs, game.colors
    secrets, guesses = len(game.secrets), len(game.guesses)
    if secrets == guesses == c**p:
        return f"MM({p},{c})"
    if secrets == guesses == perm(c, p):
        return "bulls-and-cows" if (p, c) == (4, 10) else f"{p}-distinct-of-{c}"
    return None


def optimum(game: Game, max_guesses: int | None = None) -> Figure | None:
    """The published optimum of ``game`` (within ``max_guesses`` guesses when given:
    the figure for that limit, if one was published), else our own (:data:`RESULTS`,
    found by the exact search), or None.

    >>> from strategytree.game import mastermind
    >>> optimum(mastermind(4, 8)).low, optimum(mastermind(4, 8), 6).low
    (20471, 20473)
    >>> optimum(mastermind(4, 9)).low
    34666
    """
    key = game_key(game)
    if key is None:
        return None
    if max_guesses is not None:
        return published(key, f"optimal-max-{max_guesses}")
    found = published(key, "optimal")
    result = ours(key)
    if found is None and result is not None and result.optimal:
        source = f"strategytree {result.proven}, {result.date}"
        if result.file:
            source += f", {result.file}"
        return Figure(key, "optimal", result.total, result.total, result.max_guesses, source)
    return found


# -- proven lower bounds ------------------------------------------------------------------
class Bound(NamedTuple):
    """A proven lower bound on the least total of a game (over all secrets)."""

    game: str
    """the game's key (:func:`game_key`)"""
    total: int
    """no strategy solves every secret in fewer guesses in total"""
    method: str
    """how it was proved, in words"""
    source: str
    """who proved it (and with what)"""


#: the counting bound after the exact split of every first guess (the least over first
#: guesses of 1 for the win plus, for each part, its size and its counting bound)
ONE_LEVEL = "one-level bound"
#: a guess wins at most one secret and splits the rest into at most b parts
COUNTING = "counting bound"
#: the least over the guesses of the first three levels of their exact splits, the
#: counting bound below (``strategytree bound --total --depth 3``)
THREE_LEVELS = "three-level bound"

#: the three-level bound with parts bounded deeper, those of few secrets by their
#: optimum (``bound --total --depth 4 --exact-below N``, resumed from its checkpoint)
DEEPER = "deeper bound"

#: the stored bounds: proved once, read by :func:`best_known_lower_bound` (``strategytree
#: bound --total`` proves more; add its figures here with the command that gave them)
BOUNDS: tuple[Bound, ...] = (
    Bound("MM(4,6)", 5196, ONE_LEVEL, "strategytree (tests/test_json.py recomputes it)"),
    Bound("MM(5,8)", 158315, ONE_LEVEL, "strategytree (tests/test_json.py recomputes it)"),
    # -- added by `strategytree bound --total` (issue 14, part 2; README "How far from the
    #    optimum?"): three levels exact, counting below, 1,562 s, 115,166 sets bounded
    Bound("MM(5,8)", 173074, THREE_LEVELS,
          "strategytree bound --total -p 5 -c 8 --depth 3 (strategytree.bounds.total)"),
    # -- issue 39: MM(5,8)'s bound from the shipped checkpoint, which tests/test_literature.py
    #    resumes (seconds); the runs that made it: docs/explanation/frontier.md
    Bound("MM(5,8)", 176029, DEEPER,
          "strategytree bound --total -p 5 -c 8 --depth 4 --exact-below 400 --exact-parts 1400 "
          "--workers 2 --checkpoint COPY (strategytree.bounds.total; resumed over several "
          "runs; COPY: a copy of benchmarks/checkpoints/mm58-bound.ckpt, as a run adds to "
          "its checkpoint)"),
    # -- issue 39: about a minute (tests/test_literature.py recomputes it, marked slow)
    Bound("MM(5,6)", 36721, FULL_DEPTH,
          "strategytree bound --total -p 5 -c 6 --depth 8 --exact-below 8000 "
          "(strategytree.bounds.total; 546 s of CPU)"),
    Bound("MM(4,9)", 34666, FULL_DEPTH,
          "strategytree bound --total -p 4 -c 9 --depth 9 --exact-below 7000 --workers 2 "
          "(strategytree.bounds.total; 538 s of CPU on 2 workers)"),
    Bound("MM(5,6)", 36187, THREE_LEVELS,
          "strategytree bound --total -p 5 -c 6 --depth 3 (strategytree.bounds.total)"),
    # -- issue 39: MM(4,10)'s optimum, proved by one command resumed from its checkpoint
    #    over several runs (docs/explanation/frontier.md; the checkpoint, 200 MB, is not
    #    shipped: the command rebuilds it)
    Bound("MM(4,10)", 55632, FULL_DEPTH,
          "strategytree bound --total -p 4 -c 10 --depth 10 --exact-below 400 --workers 2 "
          "--checkpoint FILE (strategytree.bounds.total; about 4.3 hours on 2 workers)"),
    # -- issue 39: MM(4,10)'s bound from one short command (tests/test_literature.py
    #    recomputes it, marked slow: 16 s of CPU; without --exact-below, 53,443)
    Bound("MM(4,10)", 53734, THREE_LEVELS,
          "strategytree bound --total -p 4 -c 10 --depth 3 --exact-below 400 "
          "(strategytree.bounds.total)"),
    # -- issue 39: with one-level bounds read off the replies met (tests/test_literature.py
    #    recomputes them, marked slow: 81 s and 31 s on an Intel Xeon, Emerald Rapids)
    Bound("MM(5,7)", 83407, THREE_LEVELS,
          "strategytree bound --total -p 5 -c 7 --depth 3 (strategytree.bounds.total)"),
    Bound("MM(6,5)", 72392, THREE_LEVELS,
          "strategytree bound --total -p 6 -c 5 --depth 3 (strategytree.bounds.total)"),
)


def best_known_lower_bound(game: Game) -> Bound:
    """The best lower bound known for ``game``'s least total: the best stored in
    :data:`BOUNDS`, or the counting bound computed now when it is better (or
    none is stored).

    >>> from strategytree.game import mastermind
    >>> best_known_lower_bound(mastermind(5, 8)).total
    176029
    >>> best_known_lower_bound(mastermind(6, 9)).method
    'counting bound'
    """
    key = game_key(game)
    counted = Bound(key or game.name, counting_bound(game), COUNTING, "computed")
    stored = [bound for bound in BOUNDS if bound.game == key]
    return max([counted, *stored], key=lambda bound: bound.total)


# -- how far a strategy can be from the best ---------------------------------------------
@dataclass(frozen=True)
class Gap:
    """How far a strategy's total is, or can be, from the optimum of its game."""

    total: int
    """the strategy's total"""
    reference: int
    """the optimum (when :attr:`exact`) or a lower bound on it"""
    exact: bool
    """True when :attr:`reference` is the optimum"""
    source: str
    """where the optimum comes from, or how the bound was proved"""
    within: tuple[int, int] | None = None
    """``(K, optimum)``: the published optimum among strategies that never need more
    than K guesses, when the strategy's worst case is K and one was published"""
    bound: Bound | None = None
    """the best lower bound known (:func:`best_known_lower_bound`), beside the optimum
    or as the reference"""

    @property
    def excess(self) -> int:
        """Guesses above the optimum (exact), or at most above it (a bound)."""
        return self.total - self.reference

    @property
    def percent(self) -> float:
        """:attr:`excess` in percent of the reference."""
        return 100.0 * self.excess / self.reference if self.reference else 0.0

    def __str__(self) -> str:
        what = f"optimum {self.reference:,}" if self.exact else f"lower bound ≥ {self.reference:,}"
        text = f"{what} ({self.source}) → {self.short}"
        if self.within is not None:
            k, best = self.within
            excess = self.total - best
            text += f"; within {k} guesses: optimum {best:,} → {excess:+,}" if excess else (
                f"; within {k} guesses: optimum {best:,} → optimal")
        return text

    @property
    def short(self) -> str:
        """The gap alone: ``+97 (1.7%)``, ``optimal``, or ``at most 13.6% above the optimum``."""
        percent = f"{self.percent:.1f}" if self.percent >= 0.1 or not self.excess else (
            f"{self.percent:.2f}")
        if self.exact:
            return f"{self.excess:+,} ({percent}%)" if self.excess else "optimal"
        if not self.excess:
            return "optimal (it meets the bound)"
        return f"at most {percent}% above the optimum"

    def to_dict(self) -> dict[str, Any]:
        """The ``gap`` of the ``--json`` reports: ``optimum`` (None when not
        published), ``lower_bound`` and ``lower_bound_method`` (the best known, also
        beside an optimum), ``exact`` (True when measured from the optimum), the
        reference's ``source``, ``excess``, ``percent``, ``within`` (``max_guesses``,
        ``optimum``, ``excess``, or None) and ``text``."""
        return {
            "optimum": self.reference if self.exact else None,
            "lower_bound": self.bound.total if self.bound is not None else None,
            "lower_bound_method": self.bound.method if self.bound is not None else None,
            "exact": self.exact,
            "source": self.source,
            "excess": self.excess,
            "percent": round(self.percent, 3),
            "within": None if self.within is None else {
                "max_guesses": self.within[0], "optimum": self.within[1],
                "excess": self.total - self.within[1],
            },
            "text": str(self),
        }


def gap(game: Game, total: int, max_guesses: int | None = None) -> Gap:
    """How far ``total`` (a strategy that solves every secret of ``game``) is
    from the published optimum, or at most from it (:func:`best_known_lower_bound`);
    with ``max_guesses`` (the strategy's worst case K), also from the optimum
    within K guesses, when one was published.

    >>> from strategytree.game import mastermind
    >>> print(gap(mastermind(5, 8), 179863))
    lower bound ≥ 176,029 (deeper bound) → at most 2.2% above the optimum
    >>> print(gap(mastermind(4, 6), 5626, max_guesses=5))
    optimum 5,625 (Koyama & Lai 1993) → +1 (0.02%); within 5 guesses: optimum 5,626 → optimal
    """
    best, bound = optimum(game), best_known_lower_bound(game)
    if best is not None:
        limited = optimum(game, max_guesses) if max_guesses is not None else None
        within = (max_guesses, limited.low) if limited is not None and max_guesses else None
        return Gap(total, best.low, True, best.source, within, bound)
    return Gap(total, bound.total, False, bound.method, None, bound)


#: where the optimum comes from when the exact search of the run found it
THIS_SEARCH = "found by this exact search"


def searched_gap(game: Game, total: int, max_guesses: int | None = None) -> Gap:
    """:func:`gap` of a strategy the exact search just found (``generate --method
    optimal``): its total is the optimum (without ``max_guesses``), or the optimum
    among strategies that never need more than ``max_guesses`` guesses, so the gap
    is exact even where no optimum was published.

    >>> from strategytree.game import mastermind
    >>> print(searched_gap(mastermind(3, 5), 451))
    optimum 451 (strategytree exact search, 2026-11-28; found by this exact search) → optimal
    >>> print(searched_gap(mastermind(3, 11), 7441).source)
    found by this exact search
    >>> print(searched_gap(mastermind(4, 6), 5626, max_guesses=5))
    optimum 5,625 (Koyama & Lai 1993) → +1 (0.02%); within 5 guesses: optimum 5,626 → optimal
    """
    if max_guesses is None:
        published = optimum(game)
        source = THIS_SEARCH if published is None else f"{published.source}; {THIS_SEARCH}"
        return Gap(total, total, True, source, None, best_known_lower_bound(game))
    return replace(gap(game, total, max_guesses), within=(max_guesses, total))
