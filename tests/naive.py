"""Slow, obviously-correct twins of what strategytree computes fast.

Everything here is plain Python written straight from the definitions, so
that the tests can compare the package against it (as stumpy's
``tests/naive.py`` does for its kernels).  Codes are tuples of colour
numbers (``0`` is ``A``) or strings of letters; a reply is ``(black, white)``.
"""

from __future__ import annotations

import itertools
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from strategytree.game import Game

LETTERS = string.ascii_uppercase


# -- codes -------------------------------------------------------------------
def mm_codes(pegs: int, colors: int) -> list[tuple[int, ...]]:
    """Every code of classic Mastermind, in code order (AA, AB, ..., BA, ...)."""
    return list(itertools.product(range(colors), repeat=pegs))


def distinct_codes(pegs: int, colors: int) -> list[tuple[int, ...]]:
    """Every code without a repeated colour, in code order."""
    return list(itertools.permutations(range(colors), pegs))


def text(code: Iterable[int]) -> str:
    """A code in letters: (0, 0, 1) -> 'AAB'."""
    return "".join(LETTERS[int(x)] for x in code)


def code(letters: str) -> tuple[int, ...]:
    """A code from letters: 'AAB' -> (0, 0, 1)."""
    return tuple(LETTERS.index(ch) for ch in letters)


# -- feedback ----------------------------------------------------------------
def feedback(guess: Sequence, secret: Sequence) -> tuple[int, int]:
    """Knuth's (black, white): black = same colour in the same place;
    white = sum over colours of min(count in guess, count in secret) - black."""
    guess, secret = list(guess), list(secret)
    assert len(guess) == len(secret)
    black = sum(1 for g, s in zip(guess, secret) if g == s)
    in_guess, in_secret = Counter(guess), Counter(secret)
    both = sum(min(in_guess[colour], in_secret[colour]) for colour in in_guess)
    return black, both - black


def reply_code(reply: tuple[int, int], pegs: int) -> int:
    """The reply as one small integer: black * (pegs + 1) + white."""
    black, white = reply
    return black * (pegs + 1) + white


def lowest_bit(x: int) -> int:
    """The index of the lowest set bit of ``x > 0``: the first 1 from the right."""
    return next(i for i in range(64) if x >> i & 1)


def bit_numbers(code: Sequence[int], colors: int) -> tuple[list[int], list[int]]:
    """The bits ``encode`` sets for a code: peg ``i`` of colour ``k`` is position
    bit ``i * colors + k``; the ``j``-th peg (from 0) of colour ``k`` is
    colour-count bit ``k * pegs + j``."""
    pegs = len(code)
    pos = [i * colors + k for i, k in enumerate(code)]
    cnt = [k * pegs + list(code[:i]).count(k) for i, k in enumerate(code)]
    return pos, cnt


def partition_counts(guesses: Sequence, secrets: Sequence, pegs: int) -> np.ndarray:
    """out[i, r] = how many of ``secrets`` give reply code r to ``guesses[i]``."""
    out = np.zeros((len(guesses), (pegs + 1) ** 2), dtype=np.int64)
    for i, guess in enumerate(guesses):
        for secret in secrets:
            out[i, reply_code(feedback(guess, secret), pegs)] += 1
    return out


def possible_replies(guesses: Sequence, secrets: Sequence, pegs: int) -> set[int]:
    """Every reply code some guess gets from some secret."""
    return {reply_code(feedback(g, s), pegs) for g in guesses for s in secrets}


def impossible(reply: tuple[int, int], pegs: int) -> bool:
    """A reply no guess can ever get (or the implied winning reply)."""
    black, white = reply
    return black + white > pegs or black == pegs or (black == pegs - 1 and white == 1)


# -- replaying a strategy ------------------------------------------------------
@dataclass
class Replay:
    """What replaying every secret through a tree found."""

    guesses: dict[str, int]
    """secret -> guesses needed (only the solved secrets)"""
    unsolved: dict[str, tuple[str, str]]
    """secret -> (path, why) for the unsolved ones"""
    visits: Counter = field(default_factory=Counter)
    """id of a node -> how many secrets reached it"""

    @property
    def reached(self) -> set[int]:
        """ids of the nodes some secret reached"""
        return set(self.visits)

    @property
    def total(self) -> int:
        return sum(self.guesses.values())

    @property
    def max_guesses(self) -> int:
        return max(self.guesses.values(), default=0)

    @property
    def histogram(self) -> dict[int, int]:
        return dict(sorted(Counter(self.guesses.values()).items()))


def replay(root, secrets: Iterable[str], allowed: Iterable[str], pegs: int) -> Replay:
    """Walk the tree once per secret, one guess at a time."""
    allowed = set(allowed)
    win = (pegs, 0)
    out = Replay({}, {})
    for secret in secrets:
        node, depth, path = root, 1, []
        while True:
            out.visits[id(node)] += 1
            if node.guess not in allowed:
                out.unsolved[secret] = (", ".join(path), f"guess {node.guess} cannot be played")
                break
            reply = feedback(node.guess, secret)
            if reply == win:
                out.guesses[secret] = depth
                break
            path.append(f"{node.guess} {reply[0]}{reply[1]}")
            if not node.branches:
                out.unsolved[secret] = (", ".join(path),
                                        f"known solution {node.guess} is not the secret")
                break
            following = [child for r, child in node.branches if tuple(r) == reply]
            if not following:
                out.unsolved[secret] = (
                    ", ".join(path),
                    f"reply {reply[0]}{reply[1]} to guess {node.guess} has no branch",
                )
                break
            node, depth = following[0], depth + 1
    return out


def unreachable_branches(root, rep: Replay, allowed: Iterable[str], pegs: int) -> list:
    """Child nodes whose branch no secret takes although its parent is reached
    and playable (the first of a repeated reply only; impossible replies are not
    branches that can be taken, so they are left out)."""
    allowed = set(allowed)
    out = []
    todo = [root]
    while todo:
        node = todo.pop()
        seen = set()
        for reply, child in node.branches:
            todo.append(child)
            reply = tuple(reply)
            first = reply not in seen
            seen.add(reply)
            if (
                first
                and not impossible(reply, pegs)
                and rep.visits[id(node)] > 0
                and node.guess in allowed
                and rep.visits[id(child)] == 0
            ):
                out.append(child)
    return out


# -- the greedy rules -----------------------------------------------------------
def game_reply(game: Game, guess: Sequence, secret: Sequence) -> tuple:
    """The game's reply: ``(black, white)``, or ``(black,)`` in a black-only game."""
    black, white = feedback(guess, secret)
    return (black,) if game.scoring == "black-only" else (black, white)


def rule_score(rule: str, sizes: Sequence[int], nlogn: Sequence[int] | None = None) -> float:
    """The score of a partition with parts of these sizes (higher is better):
    -largest part; -sum n^2; -sum n log2 n (from the kernels' exact table
    ``nlogn`` when given); the number of parts."""
    if rule == "minimax":
        return -max(sizes)
    if rule == "expected":
        return -sum(n * n for n in sizes)
    if rule == "parts":
        return len(sizes)
    if nlogn is not None:
        return -sum(int(nlogn[n]) for n in sizes)
    return -sum(n * np.log2(n) for n in sizes if n > 1)


def part_sizes(game: Game, guess: Sequence, secrets: Iterable[Sequence]) -> list[int]:
    """The sizes of the parts ``guess`` makes of ``secrets``."""
    return list(Counter(game_reply(game, guess, s) for s in secrets).values())


def scores(game: Game, rule: str, guesses, secrets, nlogn: Sequence[int]) -> list:
    """The kernels' score of each guess (indices) on the secrets (indices)."""
    codes_s = [tuple(int(x) for x in game.secrets[j]) for j in secrets]
    return [
        rule_score(rule, part_sizes(game, tuple(int(x) for x in game.guesses[i]), codes_s), nlogn)
        for i in guesses
    ]


def greedy_choice(game: Game, rule: str, candidates, secrets, consistent, nlogn) -> int:
    """Position in ``candidates`` of the best guess: the highest score, then a
    guess in ``consistent``, then the first."""
    is_secret = {int(c) for c in consistent}
    best_key, best_at = None, -1
    for at, score in enumerate(scores(game, rule, candidates, secrets, nlogn)):
        key = (score, int(candidates[at]) in is_secret, -at)
        if best_key is None or key > best_key:
            best_key, best_at = key, at
    return best_at


def first_perfect(game: Game, secrets) -> int:
    """The first guess (an index) that gives each secret (indices) its own reply, or -1."""
    codes_s = [tuple(int(x) for x in game.secrets[j]) for j in secrets]
    for i, guess in enumerate(game.guesses):
        if max(part_sizes(game, tuple(int(x) for x in guess), codes_s)) == 1:
            return i
    return -1


def greedy_total(game: Game, rule: str) -> int:
    """A plain-Python one-step builder (no symmetry, no shortcuts); its total."""
    guesses = [tuple(int(x) for x in g) for g in game.guesses]
    all_secrets = [tuple(int(x) for x in s) for s in game.secrets]

    def solve(secrets: list, depth: int) -> int:
        if len(secrets) == 1:
            return depth
        consistent = set(secrets)
        best, best_key = None, None
        for index, g in enumerate(guesses):
            score = rule_score(rule, part_sizes(game, g, secrets))
            key = (round(score, 9), g in consistent, -index)
            if best_key is None or key > best_key:
                best, best_key = g, key
        parts: dict = {}
        for s in secrets:
            parts.setdefault(game_reply(game, best, s), []).append(s)
        total = 0
        for reply, group in parts.items():
            if reply[0] == game.pegs:
                total += depth
            else:
                total += solve(group, depth + 1)
        return total

    return solve(all_secrets, 1)


# -- random inputs -------------------------------------------------------------
def random_codes(rng: np.random.Generator, n: int, pegs: int, colors: int) -> np.ndarray:
    """``n`` random codes; half of them drawn from a small palette, so that
    repeated colours, blacks and whites are common even with 26 colours."""
    rows = rng.integers(0, colors, size=(n, pegs))
    for i in range(0, n, 2):
        palette = rng.choice(colors, size=min(colors, rng.integers(1, 4)), replace=False)
        rows[i] = rng.choice(palette, size=pegs)
    return rows.astype(np.uint8)


def subset_game(rng: np.random.Generator, pegs: int, colors: int, n: int) -> Game:
    """A custom game whose secrets and guesses are random sets of codes."""
    secrets = np.unique(random_codes(rng, n, pegs, colors), axis=0)  # rows sorted = code order
    guesses = np.unique(random_codes(rng, n, pegs, colors), axis=0)
    return Game(pegs, colors, secrets, guesses)
