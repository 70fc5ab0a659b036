"""The "twoD" game of the StackOverflow answer, as a custom game.

The secret is a point (x, y) with 0 <= x, y <= 4, written as two "pegs" of
five "colours" (A..E stand for 0..4).  A guess is told whether it is <= the
secret in both coordinates, >= in both, and whether it is the secret.

    python examples/twod.py
"""

from __future__ import annotations

import strategytree as st
from strategytree.builders import build_greedy
from strategytree.game import custom


def two_d(guess: tuple[int, ...], secret: tuple[int, ...]) -> tuple[bool, bool, bool]:
    """(guess <= secret in both coordinates, guess >= secret in both, equal)."""
    return (
        all(g <= s for g, s in zip(guess, secret)),
        all(g >= s for g, s in zip(guess, secret)),
        guess == secret,
    )


game = custom(2, 5, two_d, name="twoD")
print(f"{game.name}: {len(game.secrets)} secrets, {game.n_replies} replies: {game.labels}")
for rule in ("entropy", "minimax"):
    report = st.verify(build_greedy(game, rule=rule), game)
    print(f"greedy {rule:8s} total {report.total}, worst case {report.max_guesses} guesses")
try:
    from strategytree.search import prove_bound
except ImportError:  # the exact search is not in this version
    pass
else:
    print(f"proved: every secret can be found in {prove_bound(game)} guesses, and no fewer")
