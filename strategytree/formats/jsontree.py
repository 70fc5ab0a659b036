"""Strategy trees as JSON, both ways.

A node is an object with its ``"guess"`` (letters) and, unless the guess is a
known solution, its ``"branches"``: an object from each reply (two digits
``"bw"``, blacks then whites) to the next node, in the strategy's order.  The
winning reply is implied, as in the brace grammar.  The root may also record
the ``"game"`` the tree was built for, written first: the arguments of
:func:`~strategytree.presets.resolve_game` (``preset``, ``pegs``, ``colors``,
``distinct``, ``distinct_guesses``), so that a reader need not be told the game
(trees written before this have no game, and are read as before).  Nothing
else is written; other keys are refused, so that a misspelt key is not
silently ignored.

>>> from strategytree.formats.brace import loads
>>> text = dumps(loads("{AB:{10:AA,01:{BC:{01:CA}}}}"))
>>> text
'{"guess": "AB", "branches": {"10": {"guess": "AA"}, "01": {"guess": "BC", \
"branches": {"01": {"guess": "CA"}}}}}'
>>> read(Source(text)) == loads("{AB:{10:AA,01:{BC:{01:CA}}}}")
True
>>> from strategytree.presets import bagel
>>> text = dumps(loads("ABC"), game=bagel())
>>> text[:52], text[-17:]
('{"game": {"preset": "bagel", "pegs": 3, "colors": 10', ', "guess": "ABC"}')
>>> read_with_record(Source(text))[1]["preset"]
'bagel'
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import TYPE_CHECKING, Any

from ..errors import ArgumentError, StrategyTreeError
from ..game import Game, Reply
from ..presets import check_game_arguments, game_record
from ..tree import Node, Strategy, Visitor, walk
from .grammar import grammar_text, parse, quoted
from .source import Source

if TYPE_CHECKING:
    from lark import Lark, Token

__all__ = ["GAME_KEYS", "GameRecord", "dumps", "read", "read_with_record"]

#: a game as a file records it: the arguments of :func:`~strategytree.presets.resolve_game`
GameRecord = dict[str, object]

_NAMES = {
    "STRING": "a string",
    "NUMBER": "a number",
    "TRUE": "true",
    "FALSE": "false",
    "NULL": "null",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "$END": "the end of the file",
}
_GUESS = re.compile(r"[A-Z]+")
_REPLY = re.compile(r"([0-9])([0-9])")


class _Object:
    """A JSON object as read: its pairs in written order, and where it starts."""

    __slots__ = ("pairs", "pos")

    def __init__(self, pairs: list[tuple[Token, Any]], pos: int) -> None:
        self.pairs = pairs
        self.pos = pos


@cache
def _parser() -> Lark:
    from lark import Lark, Transformer

    class _Values(Transformer):
        """Keeps objects as :class:`_Object` and every other value as its token."""

        def object(self, c: list[Any]) -> _Object:
            return _Object([p for p in c if isinstance(p, tuple)], c[0].start_pos)

        def pair(self, c: list[Any]) -> tuple[Token, Any]:
            return (c[0], c[2])

        def array(self, c: list[Any]) -> Any:
            return c[0]  # an array is never part of a tree: its first token says where

        def start(self, c: list[Any]) -> Any:
            return c[0]

    return Lark(
        grammar_text("json_tree"),
        parser="lalr",
        lexer="basic",
        transformer=_Values(visit_tokens=False),
    )


def _string(token: Token) -> str:
    return json.loads(str(token))


def _where(value: Any) -> int:
    return value.pos if isinstance(value, _Object) else value.start_pos


#: the keys of a recorded game, and the JSON type of each (all but the flags required)
GAME_KEYS = {"preset": "STRING", "pegs": "NUMBER", "colors": "NUMBER",
             "distinct": "TRUE FALSE", "distinct_guesses": "TRUE FALSE"}


def read(source: Source) -> Strategy:
    """The strategy of a JSON tree (the game it records, if any, is checked and
    left out: :func:`read_with_record` gives it)."""
    return read_with_record(source)[0]


def read_with_record(source: Source) -> tuple[Strategy, GameRecord | None]:
    """The strategy of a JSON tree and the game its root records, checked (a
    game :func:`~strategytree.presets.resolve_game` can make, whose tables are not
    made here) and with both flags; None for a tree that records none, as
    written before games were recorded."""
    top = parse(_parser(), source, _NAMES)
    root = Node("", ())
    recorded: GameRecord | None = None
    todo: list[tuple[Node, Any]] = [(root, top)]
    while todo:
        node, value = todo.pop()
        if not isinstance(value, _Object):
            raise source.error(_where(value), 'expected a node: an object with a "guess"')
        fields: dict[str, tuple[Token, Any]] = {}
        for key, item in value.pairs:
            name = _string(key)
            if name == "game" and node is not root:
                raise source.error(key.start_pos, 'only the root records the "game"')
            if name not in ("guess", "branches", "game"):
                raise source.error(
                    key.start_pos, f'unknown key {quoted(name)}: a node has "guess" and "branches"'
                )
            if name in fields:
                raise source.error(key.start_pos, f"key {quoted(name)} is written twice")
            fields[name] = (key, item)
        if "game" in fields:
            recorded = _game(source, fields["game"][1])
        if "guess" not in fields:
            raise source.error(value.pos, 'this node has no "guess"')
        guess = fields["guess"][1]
        if (
            isinstance(guess, _Object)
            or guess.type != "STRING"
            or not _GUESS.fullmatch(_string(guess))
        ):
            raise source.error(
                _where(guess), 'a guess is a string of capital letters, such as "AABB"'
            )
        node.guess, node.pos = _string(guess), guess.start_pos + 1
        if "branches" not in fields:
            continue
        branches_value = fields["branches"][1]
        if not isinstance(branches_value, _Object):
            raise source.error(
                _where(branches_value), '"branches" is an object from replies to nodes'
            )
        branches = []
        replies: set[str] = set()
        for key, item in branches_value.pairs:
            m = _REPLY.fullmatch(_string(key))
            if m is None:
                raise source.error(
                    key.start_pos, f"{quoted(_string(key))} is not a reply (two digits bw)"
                )
            if m.group(0) in replies:  # (a JSON reader keeps one of them: which?)
                raise source.error(key.start_pos, f"reply {m.group(0)} is written twice")
            replies.add(m.group(0))
            child = Node("", ())
            branches.append((Reply(int(m.group(1)), int(m.group(2))), child))
            todo.append((child, item))
        node.branches = tuple(branches)
    return source.strategy(root), recorded


def _quoted(value: object) -> str:
    """A recorded value as JSON, a few dozen characters at most."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:36] + '..."'


_GAME_SHAPE = ('"game" is an object such as {"preset": "mastermind", "pegs": 4, "colors": 6, '
               '"distinct": false, "distinct_guesses": false}')


def _game(source: Source, value: Any) -> GameRecord:
    """The game a root records (see :data:`GAME_KEYS`), checked, or an error where
    it is written."""
    if not isinstance(value, _Object):
        raise source.error(_where(value), _GAME_SHAPE)
    given: dict[str, object] = {}
    for key, item in value.pairs:
        name = _string(key)
        kinds = GAME_KEYS.get(name)
        if kinds is None:
            raise source.error(key.start_pos, f"unknown key {name!r} in the game: "
                               f"it has {', '.join(map(repr, GAME_KEYS))}")
        if name in given:
            raise source.error(key.start_pos, f"key {name!r} is written twice")
        if isinstance(item, _Object) or item.type not in kinds.split():
            kind = {"STRING": "a string", "NUMBER": "a whole number"}.get(kinds, "true or false")
            raise source.error(_where(item), f"the game's {name!r} is {kind}")
        if item.type == "STRING":
            given[name] = _string(item)
        elif item.type == "NUMBER":
            if not str(item).isdigit() or len(str(item)) > 3:
                raise source.error(item.start_pos, f"the game's {name!r} is a whole number")
            given[name] = int(str(item))
        else:
            given[name] = item.type == "TRUE"
    missing = [name for name in ("preset", "pegs", "colors") if name not in given]
    if missing:
        raise source.error(value.pos, f"the game records no {missing[0]!r}: {_GAME_SHAPE}")
    given = {"distinct": False, "distinct_guesses": False, **given}
    try:
        check_game_arguments(**given)  # type: ignore[arg-type]
    except ArgumentError as problem:
        raise source.error(value.pos, "the game recorded is no game: " + problem.worded(
            lambda name, v: f"{name} {_quoted(v)}")) from None
    except StrategyTreeError as problem:
        raise source.error(value.pos, f"the game recorded is no game: {problem}") from None
    return {name: given[name] for name in GAME_KEYS}


class _Writer(Visitor):
    """Writes the JSON tree as the strategy is walked."""

    def __init__(self, indent: int | None, game: str = "") -> None:
        self.parts: list[str] = []
        self.indent = indent
        self.first: list[bool] = []
        self.game = game

    def _break(self, depth: int) -> str:
        return "" if self.indent is None else "\n" + " " * (self.indent * depth)

    def enter(self, node: Node, reply: Reply | None, depth: int) -> bool:
        out = self.parts
        if reply is not None:
            if not self.first[-1]:
                out.append("," if self.indent is not None else ", ")
            self.first[-1] = False
            out.append(self._break(depth))
            out.append(f'"{reply.black}{reply.white}": ')
        out.append(f'{{{self.game if reply is None else ""}"guess": "{node.guess}"')
        if node.branches:
            out.append(', "branches": {')
            self.first.append(True)
        return True

    def leave(self, node: Node, reply: Reply | None, depth: int) -> None:
        if node.branches:
            self.first.pop()
            self.parts.append(self._break(depth) + "}")
        self.parts.append("}")


def dumps(strategy: Strategy | Node, indent: int | None = None, *,
          game: Game | GameRecord | None = None) -> str:
    """The strategy as a JSON tree: one line, or indented by ``indent`` spaces;
    its root records ``game`` (a game a preset makes, :func:`~strategytree.presets.game_record`,
    or a record as :func:`read_with_record` gives it)."""
    root = strategy.root if isinstance(strategy, Strategy) else strategy
    if indent is not None:
        from .brace import check_indent

        check_indent(root, indent)  # the same lines as the brace grammar's, near enough
    record = game_record(game) if isinstance(game, Game) else game
    head = "" if record is None else f'"game": {json.dumps(record)}, '
    return "".join(walk(root, _Writer(indent, head)).parts)
