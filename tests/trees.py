"""Hypothesis strategies for strategy trees and their texts."""

from __future__ import annotations

import re

from hypothesis import strategies as hs

from strategytree import Node, Reply

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

ANY_REPLY = hs.tuples(hs.integers(0, 9), hs.integers(0, 9))


def valid_replies(pegs: int) -> list[tuple[int, int]]:
    """Every reply some guess can get in a game of ``pegs`` pegs, less the win."""
    return [
        (b, w)
        for b in range(pegs)
        for w in range(pegs + 1 - b)
        if not (b == pegs - 1 and w == 1)
    ]


@hs.composite
def nodes(
    draw,
    guesses: hs.SearchStrategy[str],
    replies: hs.SearchStrategy[tuple[int, int]],
    max_depth: int = 4,
    max_branches: int = 4,
    unique_replies: bool = True,
) -> Node:
    """A random tree: each node a guess drawn from ``guesses``, each branch a
    reply drawn from ``replies`` (distinct under one node when ``unique_replies``)."""

    def grow(depth: int) -> Node:
        guess = draw(guesses)
        if depth >= max_depth or not draw(hs.booleans()):
            return Node(guess)
        chosen = draw(
            hs.lists(
                replies,
                min_size=1,
                max_size=max_branches,
                unique=unique_replies,
            )
        )
        return Node(guess, tuple((Reply(*r), grow(depth + 1)) for r in chosen))

    return grow(0)


@hs.composite
def any_trees(draw, max_depth: int = 4, max_branches: int = 4) -> Node:
    """Trees the grammar accepts: guesses of one random length and palette,
    any two-digit replies."""
    pegs = draw(hs.integers(1, 5))
    colors = draw(hs.integers(1, 26))
    guess = hs.text(alphabet=LETTERS[:colors], min_size=pegs, max_size=pegs)
    return draw(nodes(guess, ANY_REPLY, max_depth, max_branches))


TOKEN = re.compile(r"[A-Z]+|[0-9][0-9]|[{}:,]")
SPACE = hs.sampled_from(["", "", "", " ", "\n", "\r\n", "\t", "  ", "\f", " \n  "])


@hs.composite
def spaced(draw, text: str) -> str:
    """``text`` with random whitespace between its tokens (still a valid file)."""
    tokens = TOKEN.findall(text)
    gaps = draw(hs.lists(SPACE, min_size=len(tokens) + 1, max_size=len(tokens) + 1))
    return gaps[0] + "".join(tok + gap for tok, gap in zip(tokens, gaps[1:]))


#: characters a damaged file may gain: the grammar's own, near misses, and oddities
NOISE = hs.one_of(
    hs.sampled_from(list("{}:,0123456789ABCZ az\n\r\t\x00\x0béÄ€\u00a0\u2028\ufeff😀;'\"")),
    hs.characters(),
)


@hs.composite
def damaged(draw, text: str) -> str:
    """``text`` after a few random deletions, duplications, swaps and insertions."""
    for _ in range(draw(hs.integers(1, 4))):
        op = draw(hs.sampled_from(["delete", "duplicate", "swap", "insert", "insert"]))
        i = draw(hs.integers(0, max(len(text) - 1, 0)))
        if op == "delete" and text:
            text = text[:i] + text[i + 1 :]
        elif op == "duplicate" and text:
            text = text[: i + 1] + text[i:]
        elif op == "swap" and len(text) > 1:
            j = min(i + 1, len(text) - 1)
            i = j - 1
            text = text[:i] + text[j] + text[i] + text[j + 1 :]
        else:
            text = text[:i] + draw(NOISE) + text[i:]
    return text
