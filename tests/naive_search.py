"""Slow, obviously-correct twins of the exact search (:mod:`strategytree.search`).

Plain Python straight from the definitions: the cost of a set of secrets is the
least, over every allowed guess that makes progress, of one guess for each
secret plus the cost of each part it leaves; memoised on the set, nothing else.
"""

from __future__ import annotations

import itertools
from functools import cache

from strategytree.game import Game

import naive


def _tables(game: Game):
    secrets = [tuple(int(x) for x in row) for row in game.secrets]
    guesses = [tuple(int(x) for x in row) for row in game.guesses]
    replies = [[naive.feedback(g, s) for s in secrets] for g in guesses]
    return secrets, guesses, replies


def _split(replies, g: int, secrets: frozenset[int], pegs: int) -> list[frozenset[int]] | None:
    """The parts ``g`` leaves besides the win, or None when it makes no progress."""
    parts: dict = {}
    for s in secrets:
        parts.setdefault(replies[g][s], set()).add(s)
    win = (pegs, 0)
    if len(parts) == 1 and win not in parts:
        return None
    return [frozenset(p) for r, p in parts.items() if r != win]


def optimal_total(game: Game, max_guesses: int | None = None) -> int | None:
    """The least total number of guesses over all secrets (None: impossible)."""
    secrets, guesses, replies = _tables(game)
    INF = float("inf")

    @cache
    def cost(S: frozenset[int], left: int) -> float:
        if left == 0:
            return INF
        best = INF
        for g in range(len(guesses)):
            parts = _split(replies, g, S, game.pegs)
            if parts is None:
                continue
            total = len(S) + sum(cost(p, left - 1) for p in parts)
            best = min(best, total)
        return best

    limit = max_guesses if max_guesses is not None else len(secrets) + 1
    result = cost(frozenset(range(len(secrets))), limit)
    return None if result == INF else int(result)


def worst_case_bound(game: Game) -> int:
    """The fewest guesses that solve every secret in the worst case."""
    secrets, guesses, replies = _tables(game)

    @cache
    def within(S: frozenset[int], left: int) -> bool:
        if left == 0:
            return False
        for g in range(len(guesses)):
            parts = _split(replies, g, S, game.pegs)
            if parts is not None and all(within(p, left - 1) for p in parts):
                return True
        return False

    everything = frozenset(range(len(secrets)))
    k = 1
    while not within(everything, k):
        k += 1
    return k


def lower_bound(n: int, branching: int) -> int:
    """Least sum of depths of n nodes in a tree where each node has at most
    ``branching`` children (each node: one secret solved)."""
    depths = []
    level, width = 1, 1
    while len(depths) < n:
        depths.extend([level] * width)
        level, width = level + 1, width * branching
    return sum(depths[:n])


def least_in_class(code, history, colors: int) -> bool:
    """True when ``code`` is the smallest (as a tuple) of its images under every
    permutation of positions and of colours that maps each guess of ``history``
    to itself (all of them tried, one by one)."""
    pegs = len(code)
    for sigma in itertools.permutations(range(pegs)):
        for pi in itertools.permutations(range(colors)):
            fixes = all(tuple(pi[h[sigma[i]]] for i in range(pegs)) == tuple(h) for h in history)
            if fixes and tuple(pi[code[sigma[i]]] for i in range(pegs)) < tuple(code):
                return False
    return True


# -- games given by a table of replies ------------------------------------------------
def two_d_table() -> tuple[list[tuple[int, int]], list[list[int]], int]:
    """The seed's "twoD" game: a pair in 0..4 x 0..4; the reply to a guess tells
    whether it is <= the secret componentwise, >= it, and equal.  Codes, the
    reply table (guess x secret, as 4 * le + 2 * ge + eq) and the winning reply."""
    codes = [(x, y) for x in range(5) for y in range(5)]

    def reply(g, s) -> int:
        le = all(a <= b for a, b in zip(g, s))
        ge = all(a >= b for a, b in zip(g, s))
        return 4 * le + 2 * ge + (g == s)

    return codes, [[reply(g, s) for s in codes] for g in codes], 7


def table_bound(replies: list[list[int]], win: int) -> int:
    """:func:`worst_case_bound` for a game given by its reply table."""

    @cache
    def within(S: frozenset[int], left: int) -> bool:
        if left == 0:
            return False
        for g in range(len(replies)):
            parts: dict = {}
            for s in S:
                parts.setdefault(replies[g][s], set()).add(s)
            if len(parts) == 1 and win not in parts:
                continue
            if all(within(frozenset(p), left - 1) for r, p in parts.items() if r != win):
                return True
        return False

    everything = frozenset(range(len(replies[0])))
    k = 1
    while not within(everything, k):
        k += 1
    return k


def greedy_entropy_worst(replies: list[list[int]], win: int) -> int:
    """The worst case of the seed's greedy entropy player (ties: the larger
    ``(could be the secret, guess)``, as its ``max`` over tuples does)."""
    import math

    def entropy(sizes) -> float:
        total = sum(sizes)
        return -sum(k / total * math.log2(k / total) for k in sizes)

    def worst(S: frozenset[int]) -> int:
        best = None
        for g in range(len(replies)):
            parts: dict = {}
            for s in S:
                parts.setdefault(replies[g][s], set()).add(s)
            key = (entropy([len(p) for p in parts.values()]), g in S, g)
            if best is None or key > best[0]:
                best = (key, parts)
        parts = best[1]
        return 1 + max((worst(frozenset(p)) for r, p in parts.items() if r != win), default=0)

    return worst(frozenset(range(len(replies[0]))))
