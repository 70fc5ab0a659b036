"""Lookup tables: one complete game per secret, written as CSV (``strategytree
show --format csv``, :func:`lookup_csv`) or Markdown (:func:`lookup_markdown`),
and the CSV read back into strategies (:func:`read`).

Each row is the game the strategy plays against one secret; the games share
their beginnings, and the tree is rebuilt by following them.  Codes are in the
guide's alphabet: letters, or digits from 0 for a digits game (Bulls and Cows,
Bagel).  A branch after
which no secret is solved leaves no row, so it cannot come back.

>>> from strategytree.formats.brace import dumps
>>> table = 'game,guesses,secret\\nAB 20,1,AB\\n"AB 10, AA 20",2,AA\\n"AB 01, BA 20",2,BA\\n'
>>> dumps(read(Source(table)))
'{AB:{10:AA,01:BA}}'
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING

from ..game import Reply
from ..tree import Node, Strategy
from .grammar import grammar_text, letters, number, parse
from .source import Source

if TYPE_CHECKING:
    from lark import Lark, Token

    from ..guide import GuideTree

__all__ = ["GameRow", "lookup_csv", "lookup_markdown", "lookup_rows", "read"]

_NAMES = {
    "HEADER": "the header 'game,guesses,secret'",
    "CODE": "a code (in letters, or in digits from 0)",
    "REPLY": "a reply (two digits)",
    "COUNT": "a number of guesses",
    "QUOTE": "'\"'",
    "COMMA": "','",
    "_NL": "a new line",
    "$END": "the end of the file",
}


@cache
def _parser() -> Lark:
    from lark import Lark

    return Lark(grammar_text("lookup_csv"), parser="lalr", lexer="contextual")


def _spelled(code: Token, source: Source) -> Token:
    """A code of the table in letters: a digits game's guide writes colour ``k`` as
    the digit ``k`` (:class:`~strategytree.spelling.Alphabet`)."""
    if code.isalpha():
        return code
    from lark import Token

    return Token.new_borrow_pos(code.type, letters(str(code), 0, source, code.start_pos), code)


def read(source: Source) -> Strategy:
    """The strategy that plays the games of a lookup table."""
    tree = parse(_parser(), source, _NAMES)
    rows = tree.children[1:]
    if not rows:
        raise source.error(len(source.text), "the table has no games")
    root: Node | None = None
    branches: dict[int, tuple[Node, dict[Reply, Node]]] = {}
    for row in rows:
        moves: list[tuple[Token, Reply]] = []
        for step in row.children:
            if hasattr(step, "children"):
                code, reply = step.children
                moves.append((_spelled(code, source), Reply(int(reply[0]), int(reply[1]))))
        count = next(t for t in row.children if getattr(t, "type", None) == "COUNT")
        secret = row.children[-2] if row.children[-1].type == "QUOTE" else row.children[-1]
        secret = _spelled(secret, source)
        last, won = moves[-1]
        if won != Reply(len(last), 0):
            raise source.error(last.start_pos, f"the game ends with {last} {won}, not with the win")
        if number(count, source, "number of guesses") != len(moves):
            raise source.error(count.start_pos, f"the game has {len(moves)} guesses, not {count}")
        if str(secret) != str(last):
            raise source.error(secret.start_pos, f"the game wins with {last}, not {secret}")
        if root is None:
            root = Node(str(moves[0][0]), (), moves[0][0].start_pos)
        node = root
        for (code, reply), (following, _) in pairwise(moves):
            if str(code) != node.guess:
                raise source.error(
                    code.start_pos, f"the rows above play {node.guess} at this point, not {code}"
                )
            if reply.black == len(node.guess):
                raise source.error(code.start_pos, f"the game goes on after the win {code} {reply}")
            _, children = branches.setdefault(id(node), (node, {}))
            child = children.get(reply)
            if child is None:
                child = children[reply] = Node(str(following), (), following.start_pos)
            node = child
        if node.guess != str(last):
            raise source.error(
                last.start_pos, f"the rows above play {node.guess} at this point, not {last}"
            )
    for node, children in branches.values():
        node.branches = tuple(children.items())
    assert root is not None
    return source.strategy(root)


# -- writing the lookup table (and its Markdown form) -------------------------------------------
@dataclass(frozen=True)
class GameRow:
    """One complete game of a lookup table."""

    secret: str
    """the secret, in the guide's alphabet"""
    guesses: int
    """how many guesses the strategy needs for it"""
    game: str
    """every guess and its reply, ``"AB 10, AC 20"`` (the win last)"""


def lookup_rows(tree: GuideTree, start: int = 0) -> list[GameRow]:
    """One row per secret the subtree at ``start`` wins, in the strategy's order.

    The games are complete: they begin at the first guess of the strategy.
    """
    game = tree.game
    winning = str(game.reply(game.win))
    prefix = tree.steps(start)
    base = tree.depth[start]
    steps: list[str] = []  # the steps from ``start`` to the current node
    rows: list[GameRow] = []
    for i in range(start, tree.end[start]):
        level = tree.depth[i] - base
        del steps[max(level - 1, 0):]
        if level:
            steps.append(f"{tree.shown[tree.parent[i]]} {tree.reply[i]}")
        if tree.won[i] >= 0:
            moves = prefix + steps + [f"{tree.shown[i]} {winning}"]
            rows.append(GameRow(tree.shown[i], len(moves), ", ".join(moves)))
    return rows


def lookup_markdown(rows: list[GameRow]) -> str:
    """The rows as a Markdown table: game, guesses, secret."""
    out = ["| game | guesses | secret |", "|---|---:|---|"]
    out += [f"| {r.game} | {r.guesses} | {r.secret} |" for r in rows]
    return "\n".join(out) + "\n"


def lookup_csv(rows: list[GameRow]) -> str:
    """The rows as CSV with a header: game, guesses, secret."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["game", "guesses", "secret"])
    writer.writerows((r.game, r.guesses, r.secret) for r in rows)
    return buffer.getvalue()
