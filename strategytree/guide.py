"""Lookup guides: a strategy written so that a person can follow it.

>>> from strategytree.notation import loads
>>> from strategytree.game import mastermind
>>> tree = loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
>>> print(guide_text(tree, mastermind(2, 3)))
guess AB                     9 secrets
  10: guess AC               4 secrets
    10: it is AA
    01: it is CB
    00: it is BB
  02: it is BA
  01: guess BC               2 secrets
    01: it is CA
  00: it is CC
>>> print(game_text(tree, mastermind(2, 3), "CA"))
1. AB  01
2. BC  01
3. CA  20  solved in 3 guesses
"""

from __future__ import annotations

from .errors import StrategyError
from .game import Game, Reply
from .tree import Node, Strategy, Visitor
from .verify import node_visits

__all__ = ["game_text", "guide_text", "play_secret"]


class _Guide(Visitor):
    """One line per node: the reply that leads there, then what to do."""

    def __init__(self, visits: list[int], max_depth: int | None, width: int) -> None:
        self.visits = visits
        self.max_depth = max_depth
        self.width = width
        self.lines: list[str] = []
        self.index = 0

    def enter(self, node: Node, reply: Reply | None, depth: int) -> bool:
        count = self.visits[self.index]
        self.index += 1
        lead = "  " * depth + ("" if reply is None else f"{reply}: ")
        if node.branches:
            text = f"{lead}guess {node.guess}"
            label = f"{count} secret" + ("" if count == 1 else "s")
            self.lines.append(f"{text:<{self.width}} {label}".rstrip())
        else:
            self.lines.append(f"{lead}it is {node.guess}")
        if self.max_depth is not None and depth >= self.max_depth and node.branches:
            self.lines.append("  " * (depth + 1) + "...")
            self.index += _size(node) - 1
            return False
        return True


def _size(node: Node) -> int:
    count, todo = 0, [node]
    while todo:
        current = todo.pop()
        count += 1
        todo.extend(child for _, child in current.branches)
    return count


def guide_text(
    strategy: Strategy, game: Game, *, depth: int | None = None, width: int = 28
) -> str:
    """The strategy as an indented guide: each guess, each reply, what next.

    Each guess shows how many secrets of ``game`` are still possible when it is
    played; ``depth`` shows only that many levels of replies.
    """
    guide = _Guide(node_visits(strategy, game), depth, width)
    strategy.walk(guide)
    return "\n".join(guide.lines)


def play_secret(
    strategy: Strategy, game: Game, secret: str
) -> tuple[list[tuple[str, Reply]], str | None]:
    """The guesses the strategy makes against ``secret`` and the replies it gets.

    Returns the moves and None when the last reply is the win, or the moves so
    far and why the strategy stops there.
    """
    code = game.parse_code(secret)
    if game.secret_index(code)[0] < 0:
        raise StrategyError(f"{secret} is not a possible secret of {game.name}")
    moves: list[tuple[str, Reply]] = []
    node: Node | None = strategy.root
    while node is not None:
        reply = game.reply(game.feedback(game.parse_code(node.guess), code))
        moves.append((node.guess, reply))
        if reply.black == game.pegs:
            return moves, None
        if node.is_leaf:
            return moves, f"the strategy expected {node.guess}, but the secret is {secret.upper()}"
        if node.child(reply) is None:
            return moves, f"the strategy has no branch for reply {reply} to {node.guess}"
        node = node.child(reply)
    raise AssertionError("unreachable")  # pragma: no cover


def game_text(strategy: Strategy, game: Game, secret: str) -> str:
    """The game the strategy plays against ``secret``, one guess a line."""
    moves, problem = play_secret(strategy, game, secret)
    lines = [f"{i}. {guess}  {reply}" for i, (guess, reply) in enumerate(moves, 1)]
    end = f"  solved in {len(moves)} guesses" if problem is None else f"\nnot solved: {problem}"
    return "\n".join(lines) + end
