"""arfst23/Mastermind's solution files, read into a strategy: the table form and the YAML form.

Both write replies with a letter per key peg (``X`` black, ``O`` white, ``-``
none) and colours as digits from 0, and both name the secret where it becomes
known; the winning reply (``XXXX``, the guess itself) is implied in our trees.
The published tables end with a line such as ``cpu=33261.9s``: ``name=value``
lines after the rows, ``#`` comments and blank lines are read and ignored.

>>> from strategytree.formats.brace import dumps
>>> table = '''     -- O- OO X- XX
... 000 1 01 >001 ---- 10 ---- 01
... 001 2 22 ---- ---- ---- 20 22
... '''
>>> dumps(read_table(Source(table)))
'{AB:{00:{CC:{10:CA}},02:BA}}'
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ..game import Reply
from ..tree import Node, Strategy
from .grammar import grammar_text, letters, number, parse
from .source import Source

if TYPE_CHECKING:
    from collections.abc import Iterator

    from lark import Lark, Token

__all__ = ["read_table", "read_yaml", "reply_of"]

_TABLE_NAMES = {
    "PATTERN": "a reply such as XO--",
    "NEXT": "'>' and a row number",
    "NUMBER": "a number",
    "NONE": "'----'",
    "_NL": "a new line",
    "$END": "the end of the file",
}
_YAML_NAMES = {
    "KEY": "a reply such as 'XO--:'",
    "CODE": "a code",
    "_DASH": "'- '",
    "_INDENT": "an indented line",
    "_DEDENT": "a line indented less",
    "$END": "the end of the file",
}


def reply_of(pattern: str) -> Reply:
    """The reply a pattern of key pegs stands for.

    >>> reply_of("XXO-")
    Reply(black=2, white=1)
    """
    return Reply(pattern.count("X"), pattern.count("O"))


# -- the table ------------------------------------------------------------------------
@cache
def _table_parser() -> Lark:
    from lark import Lark

    return Lark(grammar_text("arfst_table"), parser="lalr", lexer="contextual")


def read_table(source: Source) -> Strategy:
    """The strategy of an arfst23 solution table."""
    tree = parse(_table_parser(), source, _TABLE_NAMES)
    header, *rows = tree.children
    patterns: list[Token] = header.children
    pegs = len(patterns[0])
    for p in patterns:
        if len(p) != pegs or p.count("X") + p.count("O") + p.count("-") != pegs:
            raise source.error(
                p.start_pos, f"reply {p} has not the {pegs} key pegs of {patterns[0]}"
            )
    if not rows:
        raise source.error(len(source.text), "the table has no rows")
    rows_by: dict[int, tuple[Node, Any]] = {}
    for row in rows:
        ident, depth, guess, *cells = row.children
        if number(ident, source, "row number") in rows_by:
            raise source.error(ident.start_pos, f"row {ident} is written twice")
        if len(cells) != len(patterns):
            raise source.error(
                ident.start_pos,
                f"row {ident} has {len(cells)} replies; the header names {len(patterns)}",
            )
        node = Node(letters(str(guess), 0, source, guess.start_pos), (), guess.start_pos)
        number(depth, source, "depth")
        rows_by[int(ident)] = (node, row)
    root_id = int(rows[0].children[0])
    used = {root_id}
    for node, row in (rows_by[int(r.children[0])] for r in rows):
        ident, depth, guess, *cells = row.children
        branches = []
        for pattern, cell in zip(patterns, cells):
            reply = reply_of(pattern)
            if cell.type == "NONE":
                continue
            if cell.type == "NUMBER":
                code = letters(str(cell), 0, source, cell.start_pos)
                if reply.black == pegs:
                    if code != node.guess:
                        raise source.error(
                            cell.start_pos,
                            f"row {ident}: the win {pattern} names {cell}, not the guess {guess}",
                        )
                    continue
                branches.append((reply, Node(code, (), cell.start_pos)))
                continue
            target = number(cell, source, "row number", skip=1)
            if target not in rows_by:
                raise source.error(cell.start_pos, f"row {ident}: there is no row {cell[1:]}")
            if target in used:
                raise source.error(
                    cell.start_pos, f"row {ident}: row {cell[1:]} is already used elsewhere"
                )
            child, child_row = rows_by[target]
            if int(child_row.children[1]) != int(depth) + 1:
                raise source.error(
                    cell.start_pos,
                    f"row {ident} at depth {int(depth)} leads to row {cell[1:]} at depth "
                    f"{int(child_row.children[1])}",
                )
            used.add(target)
            branches.append((reply, child))
        node.branches = tuple(branches)
    for ident, (_, row) in rows_by.items():
        if ident not in used:
            raise source.error(row.children[0].start_pos, f"row {row.children[0]} is never reached")
    return source.strategy(rows_by[root_id][0])


# -- YAML -----------------------------------------------------------------------------
class _Misindented(Exception):
    """A line indented less than the one before, but to no column of the blocks around it."""

    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


class _Blocks:
    """Turns YAML indentation into ``_INDENT``/``_DEDENT`` tokens: a ``-`` or a reply
    further right than the one before opens a block, one further left closes blocks."""

    always_accept = ()

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        from lark import Token

        columns: list[int] = []
        last = None
        for token in stream:
            last = token
            if token.type in ("_DASH", "KEY"):
                closed = False
                while columns and columns[-1] > token.column:
                    columns.pop()
                    closed = True
                    yield Token.new_borrow_pos("_DEDENT", "", token)
                if closed and columns and token.column > columns[-1]:
                    raise _Misindented(token.start_pos)
                if not columns or token.column > columns[-1]:
                    columns.append(token.column)
                    yield Token.new_borrow_pos("_INDENT", "", token)
            yield token
        for _ in columns:
            yield Token.new_borrow_pos("_DEDENT", "", last) if last else Token("_DEDENT", "")


@cache
def _yaml_parser() -> Lark:
    from lark import Lark

    return Lark(grammar_text("arfst_yaml"), parser="lalr", lexer="basic", postlex=_Blocks())


def read_yaml(source: Source) -> Strategy:
    """The strategy of an arfst23 solution in YAML."""
    try:
        tree = parse(_yaml_parser(), source, _YAML_NAMES)
    except _Misindented as err:
        raise source.error(
            err.offset,
            "this line is indented less than the one before, but not as far "
            "back as any line above it",
        ) from None
    top = tree.children[0]
    root = Node("", ())
    todo: list[tuple[Node, Any]] = [(root, top)]
    pegs = None
    while todo:
        node, parsed = todo.pop()
        guess, mapping = parsed.children
        node.guess = letters(str(guess), 0, source, guess.start_pos)
        node.pos = guess.start_pos
        pegs = pegs or len(node.guess)
        branches = []
        for entry in mapping.children:
            key, value = entry.children
            pattern = str(key)[:-1]
            if len(pattern) != pegs:
                raise source.error(
                    key.start_pos, f"reply {pattern} has not the {pegs} key pegs of the guesses"
                )
            reply = reply_of(pattern)
            if getattr(value, "type", None) == "CODE":
                code = letters(str(value), 0, source, value.start_pos)
                if reply.black == pegs:
                    if code != node.guess:
                        raise source.error(
                            value.start_pos,
                            f"the win {pattern} names {value}, not the guess {guess}",
                        )
                    continue
                branches.append((reply, Node(code, (), value.start_pos)))
            else:
                child = Node("", ())
                branches.append((reply, child))
                todo.append((child, value))
        node.branches = tuple(branches)
    return source.strategy(root)
