"""fancidev/mastermind's ``mmstrat`` text (Irving's notation), read into a strategy.

The file gives, for each part of the secrets, its size and the guess made
there; replies are implied by their place in a list grouped by blacks.  A part
of one secret, and the replies after a guess that tells every secret apart,
name no code: the secrets are recomputed from the game by replaying the
guesses before them.  Colours are digits from 1; in games of 10 colours
(``mmstrat -r p4c10n``) the tenth is written ``0`` (:data:`TENTH`).

>>> from strategytree.formats.brace import dumps
>>> dumps(read(Source("9 (12: 1, 2 (23), 1; 4 (32); 1)")))
'{AB:{02:BA,01:{BC:{01:CA}},00:CC,10:{CB:{01:AC,00:AA,10:BB}}}}'
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CodeError, GameError
from ..game import MAX_COLORS, MAX_PEGS, Game, Reply, distinct, mastermind
from ..tree import Node, Strategy
from ..words import plural
from .grammar import grammar_text, letters, number, parse, quoted
from .source import Source

if TYPE_CHECKING:
    from lark import Lark, Token

__all__ = ["game_of", "read", "read_with_game", "reply_layout", "told_game"]

#: the colour mmstrat writes as the digit 0: the tenth (colours 1..9, then 0, in
#: ``-r p4c10n`` games)
TENTH = 9

_NAMES = {
    "NUMBER": "a number",
    "NAME": "a subtree letter (A-Z)",
    "FLAG": "'*'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COLON": "':'",
    "SEMICOLON": "';'",
    "COMMA": "','",
    "EQUAL": "'='",
    "$END": "the end of the file",
}


@cache
def _parser() -> Lark:
    from lark import Lark, Transformer

    class _Parts(Transformer):
        """Turns the parse into tuples: ``(kind, count token, body)`` per part."""

        def bare(self, c: list[Any]) -> tuple:
            return ("bare", c[0], None)

        def inline(self, c: list[Any]) -> tuple:
            return ("inline", c[0], c[1])

        def named(self, c: list[Any]) -> tuple:
            return ("named", c[0], c[1])

        def telling(self, c: list[Any]) -> tuple:
            return (c[1], None)

        def full(self, c: list[Any]) -> tuple:
            return (c[1], c[-2])

        def groups(self, c: list[Any]) -> list:
            return c

        def group(self, c: list[Any]) -> list:
            return c

        def definition(self, c: list[Any]) -> tuple:
            return (c[0], c[1])

        def start(self, c: list[Any]) -> tuple:
            return (c[0], c[1], c[2:])

    return Lark(grammar_text("mmstrat"), parser="lalr", transformer=_Parts(visit_tokens=False))


def reply_layout(pegs: int) -> list[list[Reply]]:
    """The replies in the order mmstrat writes their parts, one list per number of blacks.

    >>> [[str(r) for r in group] for group in reply_layout(2)]
    [['02', '01', '00'], ['10'], ['20']]
    """
    return [
        [Reply(b, w) for w in range(pegs - b, -1, -1) if not (b == pegs - 1 and w == 1)]
        for b in range(pegs + 1)
    ]


def game_of(source: Source, count: Token, guess: Token) -> Game:
    """The game a file is for: its pegs from the first guess, its colours from the
    number of secrets (``c ** pegs`` for Mastermind, else codes of distinct colours)."""
    pegs, n = len(guess), number(count, source, "count")
    for colors in range(1, MAX_COLORS + 1):
        try:
            if pegs <= MAX_PEGS and colors**pegs == n:
                return mastermind(pegs, colors)
            if pegs <= min(colors, MAX_PEGS) and math.perm(colors, pegs) == n:
                return distinct(pegs, colors, distinct_guesses=True)
        except GameError as err:
            raise source.error(count.start_pos, f"the game of {n} secrets: {err}") from None
    raise source.error(
        count.start_pos,
        f"cannot tell the game: {n} secrets of {pegs} pegs is no number of colours to "
        f"the power {pegs}, nor a number of codes of distinct colours; give the game",
    )


class _Builder:
    """Builds nodes from the parts, replaying the secrets of the game as it goes,
    with a stack of the parts still to build (no recursion: a file nested
    hundreds of thousands of levels deep is read as any other)."""

    def __init__(self, source: Source, game: Game, named: dict[str, tuple[Token, Any]]) -> None:
        self.source, self.game, self.named = source, game, named
        self.used: set[str] = set()

    def build(self, body: tuple, secrets: np.ndarray) -> Node:
        """The node of the ``(GUESS...)`` ``body`` played on ``secrets``, and everything below."""
        root = Node("")
        todo: list[tuple[Node, tuple, np.ndarray]] = [(root, body, secrets)]
        while todo:
            node, body, secrets = todo.pop()
            todo.extend(reversed(self.guessed(node, body, secrets)))
        return root

    def part(self, part: tuple, secrets: np.ndarray) -> tuple[Node | None, tuple | None]:
        """The node of one part (None for an empty part), and the ``(GUESS...)``
        to build into it (None when it is built)."""
        kind, count, body = part
        self.check_count(count, secrets)
        if kind == "inline":
            return Node(""), body
        if kind == "named":
            return Node(""), self.subtree(body)
        if len(secrets) >= 2:
            raise self.source.error(
                count.start_pos, f"a part of {len(secrets)} secrets needs a guess: '(GUESS...)'"
            )
        if not len(secrets):
            return None, None
        return Node(self.game.code_text(self.game.secrets[secrets[0]]), (), count.start_pos), None

    def check_count(self, count: Token, secrets: np.ndarray) -> None:
        counted = number(count, self.source, "count")
        if counted != len(secrets):
            raise self.source.error(
                count.start_pos,
                f"the file counts {counted} secrets here, but {len(secrets)} of "
                f"{self.game.name} remain after the guesses and replies before "
                "(is it the right game?)",
            )

    def subtree(self, name: Token) -> tuple:
        """The ``(GUESS...)`` of the subtree ``name`` (used once only)."""
        key = str(name)
        if key not in self.named:
            raise self.source.error(
                name.start_pos, f"subtree {key} is never written ('{key} = (...)')"
            )
        if key in self.used:
            raise self.source.error(name.start_pos, f"subtree {key} is used twice")
        self.used.add(key)
        return self.named[key][1]

    def guessed(
        self, node: Node, body: tuple, secrets: np.ndarray
    ) -> list[tuple[Node, tuple, np.ndarray]]:
        """Fill ``node`` from a ``(GUESS...)``: its guess, and a branch per reply that a
        secret gives; the nodes below still to build, with their ``(GUESS...)`` and secrets."""
        code, groups = body
        game, source = self.game, self.source
        guess = letters(str(code), 1, source, code.start_pos, zero=TENTH)
        try:
            row = game.parse_code(guess)
        except CodeError as err:
            raise source.error(code.start_pos, f"guess {quoted(str(code))[1:-1]}: {err}") from None
        if game.guess_index(row)[0] < 0:
            raise source.error(code.start_pos, f"guess {code} is not allowed in {game.name}")
        node.guess, node.pos = guess, code.start_pos
        replies = np.asarray(game.feedback(row, game.secrets[secrets]))
        layout = reply_layout(game.pegs)
        branches: list[tuple[Reply, Node]] = []
        if groups is None:  # the guess tells every secret apart
            for reply in (r for group in layout[:-1] for r in group):
                part = secrets[replies == game.reply_code(reply)]
                if len(part) > 1:
                    raise source.error(
                        code.start_pos,
                        f"guess {code} does not tell the {len(secrets)} secrets apart: "
                        f"{len(part)} give reply {reply}",
                    )
                if len(part):
                    branches.append(
                        (reply, Node(game.code_text(game.secrets[part[0]]), (), code.start_pos))
                    )
            node.branches = tuple(branches)
            return []
        todo = []
        for reply, part in self.placed(code, groups, layout):
            sub = secrets[replies == game.reply_code(reply)]
            if reply.black == game.pegs:
                self.check_count(part[1], sub)
                if part[0] != "bare":
                    raise source.error(part[1].start_pos, "nothing is guessed after the win")
                continue
            child, below = self.part(part, sub)
            if child is not None:
                branches.append((reply, child))
            if below is not None:
                todo.append((child, below, sub))
        node.branches = tuple(branches)
        return todo

    def placed(self, code: Token, groups: list[list[tuple]], layout: list[list[Reply]]) -> list:
        """``(reply, part)`` for each part written after guess ``code``."""
        pegs = self.game.pegs
        if len(groups) != len(layout):
            raise self.source.error(
                groups[0][0][1].start_pos,
                f"after guess {code} the file gives {plural(len(groups), 'group')} of parts, "
                f"where {len(layout)} are expected (one per number of blacks, 0 to {pegs}, "
                "separated by ';')",
            )
        out = []
        for blacks, (group, replies) in enumerate(zip(groups, layout)):
            if blacks == pegs - 1 and len(group) == 2 and str(group[0][1]).lstrip("0") == "":
                group = group[1:]  # Knuth's tables also write the impossible reply (pegs - 1, 1)
            if len(group) != len(replies):
                raise self.source.error(
                    group[0][1].start_pos,
                    f"after guess {code} the group of {plural(blacks, 'black')} gives "
                    f"{plural(len(group), 'part')}, where {len(replies)} "
                    f"{'is' if len(replies) == 1 else 'are'} expected (one per reply: "
                    f"{', '.join(str(reply) for reply in replies)})",
                )
            out.extend(zip(replies, group))
        return out


def told_game(source: Source) -> Game:
    """The game the file's first count tells (see :func:`game_of`)."""
    count, body, _ = parse(_parser(), source, _NAMES)
    return game_of(source, count, body[0])


def read(source: Source, game: Game | None = None) -> Strategy:
    """The strategy of an mmstrat text; ``game`` defaults to the one its first count tells."""
    return read_with_game(source, game)[0]


def read_with_game(source: Source, game: Game | None = None) -> tuple[Strategy, Game]:
    """The strategy of an mmstrat text and the game its secrets were recomputed in:
    ``game``, or by default the one its first count tells."""
    count, body, definitions = parse(_parser(), source, _NAMES)
    if game is None:
        game = game_of(source, count, body[0])
    named: dict[str, tuple[Token, Any]] = {}
    for name, guessed in definitions:
        if str(name) in named:
            raise source.error(name.start_pos, f"subtree {name} is written twice")
        named[str(name)] = (name, guessed)
    builder = _Builder(source, game, named)
    everything = np.arange(len(game.secrets))
    builder.check_count(count, everything)
    root = builder.build(body, everything)
    for key, (name, _) in named.items():
        if key not in builder.used:
            raise source.error(name.start_pos, f"subtree {key} is written but never used")
    return source.strategy(root), game
