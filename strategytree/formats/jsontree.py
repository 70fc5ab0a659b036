"""Strategy trees as JSON, both ways.

A node is an object with its ``"guess"`` (letters) and, unless the guess is a
known solution, its ``"branches"``: an object from each reply (two digits
``"bw"``, blacks then whites) to the next node, in the strategy's order.  The
winning reply is implied, as in the brace grammar.  Nothing else is written;
other keys are refused, so that a misspelt key is not silently ignored.

>>> from strategytree.formats.brace import loads
>>> text = dumps(loads("{AB:{10:AA,01:{BC:{01:CA}}}}"))
>>> text
'{"guess": "AB", "branches": {"10": {"guess": "AA"}, "01": {"guess": "BC", \
"branches": {"01": {"guess": "CA"}}}}}'
>>> read(Source(text)) == loads("{AB:{10:AA,01:{BC:{01:CA}}}}")
True
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import TYPE_CHECKING, Any

from ..game import Reply
from ..tree import Node, Strategy, Visitor, walk
from .grammar import grammar_text, parse, quoted
from .source import Source

if TYPE_CHECKING:
    from lark import Lark, Token

__all__ = ["dumps", "read"]

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


def read(source: Source) -> Strategy:
    """The strategy of a JSON tree."""
    top = parse(_parser(), source, _NAMES)
    root = Node("", ())
    todo: list[tuple[Node, Any]] = [(root, top)]
    while todo:
        node, value = todo.pop()
        if not isinstance(value, _Object):
            raise source.error(_where(value), 'expected a node: an object with a "guess"')
        fields: dict[str, tuple[Token, Any]] = {}
        for key, item in value.pairs:
            name = _string(key)
            if name not in ("guess", "branches"):
                raise source.error(
                    key.start_pos, f'unknown key {quoted(name)}: a node has "guess" and "branches"'
                )
            if name in fields:
                raise source.error(key.start_pos, f"key {quoted(name)} is written twice")
            fields[name] = (key, item)
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
        for key, item in branches_value.pairs:
            m = _REPLY.fullmatch(_string(key))
            if m is None:
                raise source.error(
                    key.start_pos, f"{quoted(_string(key))} is not a reply (two digits bw)"
                )
            child = Node("", ())
            branches.append((Reply(int(m.group(1)), int(m.group(2))), child))
            todo.append((child, item))
        node.branches = tuple(branches)
    return source.strategy(root)


class _Writer(Visitor):
    """Writes the JSON tree as the strategy is walked."""

    def __init__(self, indent: int | None) -> None:
        self.parts: list[str] = []
        self.indent = indent
        self.first: list[bool] = []

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
        out.append(f'{{"guess": "{node.guess}"')
        if node.branches:
            out.append(', "branches": {')
            self.first.append(True)
        return True

    def leave(self, node: Node, reply: Reply | None, depth: int) -> None:
        if node.branches:
            self.first.pop()
            self.parts.append(self._break(depth) + "}")
        self.parts.append("}")


def dumps(strategy: Strategy | Node, indent: int | None = None) -> str:
    """The strategy as a JSON tree: one line, or indented by ``indent`` spaces."""
    root = strategy.root if isinstance(strategy, Strategy) else strategy
    if indent is not None:
        from .brace import check_indent

        check_indent(root, indent)  # the same lines as the brace grammar's, near enough
    return "".join(walk(root, _Writer(indent)).parts)
