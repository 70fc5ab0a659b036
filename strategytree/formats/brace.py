"""The brace grammar of strategy files (the 2014 code-golf notation
``{AB:{10:AA,...}}``): read with lark (LALR, ``grammars/strategy*.lark``) and
written.

A valid file is checked by the coarse grammar and laid out as arrays at once
(:func:`preorder`: no object per node); a file the coarse grammar refuses is
parsed again by the fine grammar, whose errors name line, column, what was
expected and what was found, and by the lenient grammar, which says whether
``lenient`` reading would repair it.  Strategy files always spell colours as
letters (a person's spelling is :mod:`strategytree.spelling`).

>>> tree = loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
>>> dumps(tree)
'{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}'
>>> print(dumps(loads("{AB:{02:BA,01:{BC:{01:CA}}}}"), indent=2))
{AB:{
  02:BA,
  01:{BC:{
    01:CA
  }}
}}
>>> loads("{AB:{10:AA:BB}}", source="x.txt")
Traceback (most recent call last):
...
strategytree.errors.StrategyFileError: x.txt:1:11: expected ',' or '}' after a branch, found ':'
"""

from __future__ import annotations

import gc
import os
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ArgumentError, StrategyFileError
from ..files import write_text_atomic
from ..game import Reply
from ..tree import Node, Preorder, Strategy, Visitor, walk
from .grammar import cache_file, grammar_text
from .source import MAX_INPUT_BYTES, Input, read_text, source_name

if TYPE_CHECKING:
    from lark import Lark

__all__ = ["check_indent", "dump", "dumps", "indented_size", "load", "loads", "preorder"]

#: how the grammar's terminals are named in messages
_TERMINALS = {
    "COMMA": "','",
    "RBRACE": "'}'",
    "LBRACE": "'{'",
    "COLON": "':'",
    "GUESS": "a guess (letters A-Z)",
    "REPLY": "a reply (two digits)",
    "$END": "the end of the file",
}


@cache
def _parser(name: str = "strategy_fast", build: bool = True) -> Lark:
    """The LALR parser of a grammar, with a transformer that builds our nodes
    (with ``build`` False, or for ``strategy_fast``, one that only accepts the
    text: :func:`strategytree.formats.brace_trees.builder`)."""
    from lark import Lark

    from .brace_trees import builder

    return Lark(
        grammar_text(name),
        parser="lalr",
        lexer="basic",
        transformer=builder(name, build),
        maybe_placeholders=False,
        cache=cache_file(name),
    )


def loads(text: str, source: str = "<string>", *, lenient: bool = False) -> Strategy:
    """Read a strategy written in the brace grammar.

    A UTF-8 byte-order mark, CRLF line ends and whitespace between tokens are
    accepted.  Raises :class:`StrategyFileError` naming line, column, what was
    found and what was expected (and whether ``lenient`` reading would work).

    With ``lenient``, the dialects of ``grammars/strategy_lenient.lark`` are
    read too, and each repair is listed in ``Strategy.repairs``.
    """
    from lark.exceptions import UnexpectedInput

    if not isinstance(text, str):
        raise StrategyFileError(f"loads reads a str (load reads a file), not "
                                f"{type(text).__name__}", source=source)
    if text.startswith("\ufeff"):
        text = text[1:]
    newlines = [m.start() for m in re.finditer("\n", text)] if "\n" in text else []
    repairs: list[str] = []
    collecting = gc.isenabled()
    gc.disable()  # a large file makes many objects, none of them garbage
    root = None
    try:
        _parser("strategy_fast").parse(text)
        flat = preorder(text)
    except UnexpectedInput:
        try:
            root = _parse_fine(text, source)
        except StrategyFileError as strict_error:
            found = _parse_lenient(text, source, newlines, build=lenient)
            if found is None:
                raise
            if not lenient:
                hint = found[1][0] if found[1] else "it reads in a known dialect"
                raise StrategyFileError(
                    strict_error.message,
                    source=source,
                    line=strict_error.line,
                    column=strict_error.column,
                    lenient_hint=hint,
                ) from None
            root, repairs = found
    finally:
        if collecting:
            gc.enable()
    if root is not None:
        return Strategy(root, source=source, newlines=newlines, repairs=repairs)
    return Strategy(source=source, newlines=newlines, preorder=flat)


def preorder(text: str) -> Preorder:
    """The arrays of a text in the brace grammar (already accepted by the parser).

    Every part is found at once over the whole text with numpy: in the brace
    grammar guesses appear in written (preorder) order, each branch's reply
    just before its node's guess, and a guess opens a subtree exactly when a
    ``{`` comes before it; the depth of a node is half the braces open at its
    guess.  No Python object is made per node, and no loop runs per level, so
    a file a million levels deep costs no more than a wide one.
    """
    data = np.frombuffer(text.encode("ascii"), np.uint8)
    at, stop = _events(data)
    kind = data[at]
    guess_event = np.flatnonzero((kind >= 65) & (kind <= 90))
    pos = at[guess_event]
    n = len(pos)
    first_digit = at[kind <= 57]  # one reply per node after the root, in node order
    del at
    written = np.full(n, -1, dtype=np.int16)
    written[1:] = (data[first_digit] - 48) * 10 + (data[first_digit + 1] - 48)
    del first_digit, data
    depth, inner, end = _shape(kind, guess_event)
    # a node's parent: the last node before it, one level up, that opens a subtree
    events = len(kind)
    keys = (depth[inner].astype(np.int64) + 1) * events + guess_event[inner]
    ranked = np.argsort(keys)
    keys, owner = keys[ranked], inner[ranked]
    parent = np.full(n, -1, dtype=np.int64)
    asked = depth[1:].astype(np.int64)
    asked *= events
    asked += guess_event[1:]
    del guess_event
    found = np.searchsorted(keys, asked)
    del asked
    found -= 1
    parent[1:] = owner[found]
    stop -= pos  # now each guess's length
    return Preorder(text, pos, stop, written, parent, depth, end)


def _events(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the events of a text are, in written order (each guess's first
    letter, each reply's first digit, each brace), and where each guess ends.

    Found in place, with two scratch masks: a few bytes of memory per byte of text.
    """
    event = np.equal(data, 123)
    scratch = np.equal(data, 125)
    event |= scratch
    mask = np.greater_equal(data, 48)
    mask &= np.less_equal(data, 57, out=scratch)  # digits
    np.invert(mask[:-1], out=scratch[1:])
    scratch[1:] &= mask[1:]  # the first digit of each reply
    event[1:] |= scratch[1:]
    np.greater_equal(data, 65, out=mask)
    mask &= np.less_equal(data, 90, out=scratch)  # letters
    np.invert(mask[:-1], out=scratch[1:])
    scratch[1:] &= mask[1:]
    scratch[:1] = mask[:1]  # the first letter of each guess
    event |= scratch
    np.invert(mask[1:], out=scratch[:-1])
    scratch[:-1] &= mask[:-1]
    scratch[-1:] = mask[-1:]  # the last letter of each guess
    stop = np.flatnonzero(scratch)
    stop += 1
    del mask, scratch
    return np.flatnonzero(event), stop


def _shape(kind: np.ndarray, guess_event: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each node's depth, the nodes that open a subtree (``inner``), and one past
    the last node of each node's subtree, from the kinds of the events.

    The braces open at each event are 2 depth + 1 at a guess that opens a
    subtree, else 2 depth; a subtree ends where the ``{`` just before its guess
    is closed.
    """
    level = np.cumsum((kind == 123).astype(np.int8) - (kind == 125), dtype=np.int32)
    open_at = level[guess_event]
    depth = open_at >> 1
    inner = np.flatnonzero(open_at & 1)
    del open_at
    # each '{' and its '}': at one level they alternate open, close, open, close
    braces = np.flatnonzero(kind > 90)
    opening = kind[braces] == 123
    at_level = level[braces]
    del level
    order = np.argsort(np.where(opening, at_level, at_level + 1), kind="stable")
    del opening, at_level
    closed_by = np.empty(len(braces), dtype=np.int64)
    closed_by[order[0::2]] = braces[order[1::2]]
    del order
    end = np.arange(1, len(guess_event) + 1, dtype=np.int64)
    outer = np.searchsorted(braces, guess_event[inner] - 1)
    end[inner] = np.searchsorted(guess_event, closed_by[outer])
    return depth, inner, end


def _parse_lenient(
    text: str, source: str, newlines: list[int], build: bool = True
) -> tuple[Node, list[str]] | None:
    """The tree and the repairs made, if the lenient grammar reads the text
    (without ``build``, the repairs alone: the tree is None)."""
    import bisect

    from lark.exceptions import UnexpectedInput

    parser = _parser("strategy_lenient", build)
    builder = parser.options.transformer
    builder.repairs = []
    try:
        root = parser.parse(text)
    except UnexpectedInput:
        return None
    repairs = []
    for pos, what in sorted(builder.repairs):
        line = bisect.bisect_left(newlines, pos)
        column = pos - (newlines[line - 1] + 1 if line else 0) + 1
        repairs.append(f"{source}:{line + 1}:{column}: {what}")
    return root, repairs


def _parse_fine(text: str, source: str) -> Node:
    """Parse with the fine grammar, whose errors say exactly what went wrong."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    try:
        # only the error is wanted (the fast grammar refused the text, and both
        # accept the same texts): no nodes are built on the way to it
        _parser("strategy", build=False).parse(text)
        return _parser("strategy").parse(text)
    except UnexpectedToken as err:
        if err.token.type == "$END":
            found, start = _TERMINALS["$END"], len(text)
            line, column = _end_position(text)
        else:
            found, start = _show(err.token.value), err.token.start_pos
            line, column = err.line, err.column
        raise _syntax_error(text, start, found, source, line, column) from None
    except UnexpectedCharacters as err:
        found = _show(text[err.pos_in_stream])
        raise _syntax_error(text, err.pos_in_stream, found, source, err.line, err.column) from None
    except UnexpectedEOF:
        line, column = _end_position(text)
        raise _syntax_error(text, len(text), _TERMINALS["$END"], source, line, column) from None


def load(path: Input, *, lenient: bool = False, max_bytes: int = MAX_INPUT_BYTES) -> Strategy:
    """Read a strategy file in the brace grammar (see :func:`loads`; ``path`` and
    ``max_bytes`` as in :func:`strategytree.formats.source.read_text`)."""
    return loads(read_text(path, max_bytes), source=source_name(path), lenient=lenient)


# -- writing -------------------------------------------------------------
class _Writer(Visitor):
    """Writes the brace grammar, compact or indented, as the tree is walked."""

    def __init__(self, indent: int | None) -> None:
        self.parts: list[str] = []
        self.indent = indent
        self.first: list[bool] = []  # per open node: no branch written yet

    def enter(self, node: Node, reply: Reply | None, depth: int) -> bool:
        out = self.parts
        if reply is not None:
            if not self.first[-1]:
                out.append(",")
            self.first[-1] = False
            if self.indent is not None:
                out.append("\n" + " " * (self.indent * depth))
            out.append(f"{reply.black}{reply.white}:")
        if node.branches:
            out.append("{" + node.guess + ":{")
            self.first.append(True)
        else:
            out.append(node.guess)
        return True

    def leave(self, node: Node, reply: Reply | None, depth: int) -> None:
        if node.branches:
            self.first.pop()
            if self.indent is not None:
                self.parts.append("\n" + " " * (self.indent * depth))
            self.parts.append("}}")


def dumps(strategy: Strategy | Node, indent: int | None = None) -> str:
    """The strategy in the brace grammar: one line, or indented by ``indent`` spaces
    (refused, :func:`check_indent`, when that would be out of proportion to the tree)."""
    root = strategy.root if isinstance(strategy, Strategy) else strategy
    if indent is not None:
        check_indent(root, indent)
    return "".join(walk(root, _Writer(indent)).parts)


#: indented text may be this many times the size of the one-line text (a tree of
#: a few levels takes 3 to 10 times as much indented) ...
MAX_INDENT_GROWTH = 32
#: ... or up to this size, whatever the one-line size
MAX_INDENTED_BYTES = 64 * 2**20


def indented_size(root: Node, indent: int) -> tuple[int, int, int]:
    """``(one line, indented, depth)``: the size of the tree under ``root`` written
    in the brace grammar on one line and indented by ``indent`` spaces (each
    branch and each closing on a line of its own, as deep as its node), and the
    guesses on its longest path.

    >>> indented_size(loads("{AB:{02:BA,01:{BC:{01:CA}}}}").root, 2)
    (28, 43, 3)
    >>> tree = loads("{AB:{02:BA,01:{BC:{01:CA}}}}")
    >>> len(dumps(tree)), len(dumps(tree, indent=2))
    (28, 43)
    """
    flat = extra = deepest = 0
    todo: list[tuple[Node, int, bool]] = [(root, 0, True)]
    while todo:
        node, depth, first = todo.pop()
        deepest = max(deepest, depth)
        flat += len(node.guess)
        lines = 0
        if depth:
            flat += 3 + (not first)  # "bw:" and "," before all but the first
            lines += 1
        if node.branches:
            flat += 5  # "{" ":{" "}}"
            lines += 1
            todo.extend((child, depth + 1, i == 0) for i, (_, child) in enumerate(node.branches))
        extra += lines * (1 + indent * depth)
    return flat, flat + extra, deepest + 1


def check_indent(root: Node, indent: int) -> None:
    """Refuse (:class:`~strategytree.errors.ArgumentError`) to indent a tree whose
    indented text would be out of proportion to it: more than
    :data:`MAX_INDENT_GROWTH` times its one-line size and more than
    :data:`MAX_INDENTED_BYTES` (a tree thousands of levels deep would take
    gigabytes, mostly spaces)."""
    flat, indented, depth = indented_size(root, indent)
    if indented > max(MAX_INDENT_GROWTH * flat, MAX_INDENTED_BYTES):
        raise ArgumentError(
            f"{{indent}} would write {_bytes(indented)} for a tree of {_bytes(flat)} on one "
            f"line (it is {depth:,} guesses deep); the most written indented is "
            f"{MAX_INDENT_GROWTH} times the one-line size or {MAX_INDENTED_BYTES // 2**20} MiB: "
            "write it on one line (no indent)",
            indent=indent,
        )


def _bytes(size: int) -> str:
    """A size in bytes, in the unit that reads best."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            return f"{size / scale:,.1f} {unit}"
    return f"{size:,} bytes"


def dump(
    strategy: Strategy | Node,
    path: str | os.PathLike[str],
    *,
    indent: int | None = None,
    force: bool = True,
) -> Path:
    """Write the strategy to ``path`` atomically (old file or new file, never half)."""
    text = dumps(strategy, indent=indent)
    return write_text_atomic(path, text + "\n", force=force)


# -- error messages ----------------------------------------------------------
def _show(value: str) -> str:
    """``value`` quoted for a message: in single quotes, in double ones when it holds a
    single quote; escaped when not printable.

    >>> print(_show("AB"), _show("'"), _show('"'))
    'AB' "'" '"'
    """
    if len(value) > 24:
        value = value[:20] + "..."
    if not value.isprintable():
        return repr(value)
    return f'"{value}"' if "'" in value else f"'{value}'"


def _end_position(text: str) -> tuple[int, int]:
    line = text.count("\n") + 1
    return line, len(text) - (text.rfind("\n") + 1) + 1


def _previous_token(text: str, pos: int) -> str | None:
    """The token that ends just before ``pos`` (skipping whitespace), as text."""
    i = pos
    while i > 0 and text[i - 1] in " \t\r\n\f":
        i -= 1
    if i == 0:
        return None
    j = i - 1
    if text[j].isascii() and text[j].isalpha():
        while j > 0 and text[j - 1].isascii() and text[j - 1].isalpha() and i - j < 24:
            j -= 1
    elif text[j].isdigit():
        while j > 0 and text[j - 1].isdigit() and i - j < 2:
            j -= 1
    return text[j:i]


def _expected_at(text: str, pos: int) -> set[str]:
    """The terminals the parser accepts after the text before ``pos``.

    Re-parses that prefix (only when there is an error to explain), so the
    answer is exact even where the LALR tables would reduce first.
    """
    from lark.exceptions import LarkError

    try:
        interactive = _parser("strategy", build=False).parse_interactive(text[:pos])
        for _ in interactive.iter_parse():  # (exhaust_lexer would keep every token)
            pass
        return set(interactive.accepts())
    except LarkError:  # pragma: no cover - the prefix always parses
        return set()


def _syntax_error(
    text: str,
    pos: int,
    found: str,
    source: str,
    line: int,
    column: int,
) -> StrategyFileError:
    expected = _expected_at(text, pos)
    names = [n for n in _TERMINALS if n in expected] or sorted(expected)
    wanted = [_TERMINALS.get(n, n) for n in names]
    what = wanted[0] if len(wanted) == 1 else ", ".join(wanted[:-1]) + " or " + wanted[-1]
    prev = _previous_token(text, pos)
    if set(names) == {"COMMA", "RBRACE"}:
        where = "after a branch"
    elif prev is None:
        where = "at the start of the file"
    elif prev[0].isalpha():
        where = f"after guess '{prev}'"
    elif prev[0].isdigit():
        where = f"after reply '{prev}'"
    elif names == ["$END"]:
        where = "after the end of the strategy"
    else:
        where = f"after '{prev}'"
    return StrategyFileError(
        f"expected {what} {where}, found {found}", source=source, line=line, column=column
    )
