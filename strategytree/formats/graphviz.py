"""Strategy trees as GraphViz graphs: our DOT guides written (:func:`to_dot`,
``show --format dot``), and both dialects read back into strategies.

Two dialects share the grammar ``grammars/dot.lark``: mikemag/Mastermind's
trees (labels are codes in digits from 1, the first guess labelled
``"1122 - 0"``) and this project's own guides (:func:`to_dot`, whose header
is ``digraph strategy {``: labels in the game's alphabet, letters or digits
from 0, the first line the guess).  Edges are labelled with the
reply, two digits ``bw``; the order of a node's edges is the order of its
branches; a node without edges out is a known solution.

>>> from strategytree.formats.brace import dumps
>>> text = 'digraph { 1 [label="12 - 0"]; 2 [label="21"]; 1 -> 2 [label="02"] }'
>>> dumps(read(Source(text), "mikemag"))
'{AB:{02:BA}}'
"""

from __future__ import annotations

import gc
import re
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..errors import DrawingTooBig
from ..game import Reply
from ..tree import Node, Strategy
from ..words import plural
from .grammar import grammar_text, letters, parse, quoted
from .source import Source

if TYPE_CHECKING:
    from lark import Lark, Token

    from ..guide import GuideTree

__all__ = ["DIALECTS", "MAX_DOT_NODES", "read", "to_dot"]

#: the dialects: how a node's label is written
DIALECTS = ("mikemag", "dot")

_NAMES = {
    "STRICT": "'strict'",
    "GRAPH": "'graph'",
    "DIGRAPH": "'digraph'",
    "NODE": "'node'",
    "EDGE": "'edge'",
    "SUBGRAPH": "'subgraph'",
    "ID": "a name",
    "NUMERAL": "a number",
    "QUOTED": "a quoted string",
    "EDGEOP": "'->'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LSQB": "'['",
    "RSQB": "']'",
    "EQUAL": "'='",
    "COMMA": "','",
    "SEMI": "';'",
    "$END": "the end of the file",
}
_MIKEMAG_LABEL = re.compile(r"\s*([0-9]+)(?:\s*-\s*[0-9]+)?\s*")
_OUR_LABEL = re.compile(r"\s*([A-Z]+|[0-9]+)\s*(?:\\n.*)?", re.DOTALL)
_REPLY = re.compile(r"\s*([0-9])([0-9])\s*")


@cache
def _parser() -> Lark:
    from lark import Lark, Transformer

    class _Statements(Transformer):
        """Turns the parse into a flat list of ``(kind, ...)`` statements."""

        def attrs(self, c: list[Any]) -> dict[str, Token]:
            return {str(_text(a.children[0])): a.children[2] for a in c if hasattr(a, "children")}

        def node_stmt(self, c: list[Any]) -> list:
            return [("node", c[0], c[1] if len(c) > 1 else {})]

        def edge_stmt(self, c: list[Any]) -> list:
            attrs = c[-1] if isinstance(c[-1], dict) else {}
            ends = [t for t in c if not isinstance(t, dict) and t.type != "EDGEOP"]
            return [("edge", a, b, attrs) for a, b in pairwise(ends)]

        def assign(self, c: list[Any]) -> list:
            return [("assign", c[0], c[2])]

        def attr_stmt(self, c: list[Any]) -> list:
            return []

        def subgraph(self, c: list[Any]) -> list:
            return [s for part in c if isinstance(part, list) for s in part]

        def start(self, c: list[Any]) -> list:
            return [s for part in c if isinstance(part, list) for s in part]

    return Lark(grammar_text("dot"), parser="lalr", transformer=_Statements(visit_tokens=False))


def _text(token: Token) -> str:
    """A DOT identifier's text (a quoted string without its quotes and escapes)."""
    value = str(token)
    if token.type == "QUOTED":
        return re.sub(
            r'\\(["\\\n])', lambda m: "" if m.group(1) == "\n" else m.group(1), value[1:-1]
        )
    return value


def _name(name: str) -> str:
    """A node's name in a message (a long one cut short)."""
    return name if len(name) <= 24 else quoted(name)


def _guess(source: Source, label: Token, dialect: str) -> str:
    text = _text(label)
    if dialect == "mikemag":
        m = _MIKEMAG_LABEL.fullmatch(text)
        if m:
            return letters(m.group(1), 1, source, label.start_pos + 1 + m.start(1))
        wanted = "a code in digits from 1, such as 1122"
    else:
        m = _OUR_LABEL.fullmatch(text)
        if m and m.group(1).isalpha():
            return m.group(1)
        if m:  # the guide of a digits game: colour k is the digit k
            return letters(m.group(1), 0, source, label.start_pos + 1 + m.start(1))
        if text.startswith("..."):
            raise source.error(
                label.start_pos,
                "the drawing stops here (it was drawn to a depth): it does not hold the "
                "whole strategy",
            )
        wanted = "a guess in letters (or digits from 0), such as AABB"
    raise source.error(label.start_pos, f"the label {quoted(text)} is not {wanted}")


# -- the fast reading of the statements that programs write ------------------------------
_WS = r"[ \t\r\n\f]*"
_ANY_ID = (r'(?:"[^"\\]*(?:\\.[^"\\]*)*"'  # a quoted string (runs between escapes)
           r"|[A-Za-z_\u0080-\uffff][A-Za-z_0-9\u0080-\uffff]*"  # a name
           r"|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))")  # a numeral
_ATTR = rf"{_ANY_ID}{_WS}={_WS}{_ANY_ID}"
_ATTRS = rf"\[{_WS}(?:{_ATTR}(?:{_WS}[,;]?{_WS}{_ATTR})*)?{_WS}\]"
_HEADER = re.compile(rf"{_WS}(?i:strict{_WS})?(?i:di)?(?i:graph)(?![A-Za-z_0-9\u0080-\uffff])"
                     rf"{_WS}(?:{_ANY_ID}{_WS})?\{{")
_STATEMENT = re.compile(
    rf"{_WS}(?P<first>{_ANY_ID})"
    rf"(?:(?P<edge>(?:{_WS}(?:->|--){_WS}{_ANY_ID})+)|{_WS}={_WS}(?P<value>{_ANY_ID}))?"
    rf"{_WS}(?P<attrs>(?:{_ATTRS}{_WS})*);?"
)
_END = re.compile(rf"{_WS}\}}{_WS}")
_ID = re.compile(_ANY_ID)
_PAIR = re.compile(rf"(?P<key>{_ANY_ID}){_WS}={_WS}(?P<value>{_ANY_ID})")
_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}


class _Id(str):
    """A DOT identifier read by :func:`_fast_statements`: what the reader uses of
    lark's ``Token`` (its text, ``type`` and ``start_pos``), made in a fraction of the time."""

    __slots__ = ("type", "start_pos")
    type: str
    start_pos: int


def _token(text: str, start: int, end: int) -> Token:
    value = _Id(text[start:end])
    first = value[0]
    value.type = "QUOTED" if first == '"' else "NUMERAL" if first in "-.0123456789" else "ID"
    value.start_pos = start
    return value  # type: ignore[return-value]


def _fast_statements(text: str) -> list | None:
    """The statements of a DOT graph as the grammar's transformer gives them, read
    with regular expressions (statement by statement, in linear time), or None when
    the text holds more than node, edge, attribute and assignment statements
    (comments, subgraphs, ...) or is not DOT: then the grammar reads it (and words
    its errors)."""
    m = _HEADER.match(text)
    if m is None:
        return None
    pos, n = m.end(), len(text)
    out: list = []
    while True:
        end = _END.fullmatch(text, pos)
        if end is not None:
            return out
        m = _STATEMENT.match(text, pos)
        if m is None or m.end() == pos:
            return None
        pos = m.end()
        first_end = m.end("first")
        first = text[m.start("first"):first_end]
        attrs: dict[str, Token] = {}
        if m.group("attrs"):
            for pair in _PAIR.finditer(text, m.start("attrs"), m.end("attrs")):
                key = pair.group("key")
                if key == "label" or key == '"label"':  # the only attribute read
                    attrs["label"] = _token(text, pair.start("value"), pair.end("value"))
        if first.lower() in _KEYWORDS:
            if first.lower() in ("node", "edge", "graph") and m.group("attrs") \
                    and m.group("edge") is None and m.group("value") is None:
                continue  # an attribute statement: nothing of the tree
            return None
        a = _token(text, m.start("first"), first_end)
        if m.group("value") is not None:
            if m.group("attrs"):
                return None
            out.append(("assign", a, _token(text, m.start("value"), m.end("value"))))
        elif m.group("edge") is not None:
            ends = [a] + [_token(text, e.start(), e.end())
                          for e in _ID.finditer(text, m.start("edge"), m.end("edge"))]
            out.extend(("edge", x, y, attrs) for x, y in pairwise(ends))
        else:
            out.append(("node", a, attrs))
        if pos >= n:
            return None


def read(source: Source, dialect: str = "dot") -> Strategy:
    """The strategy drawn in a DOT graph; ``dialect`` is one of :data:`DIALECTS`."""
    collecting = gc.isenabled()
    gc.disable()  # a large graph makes many objects, none of them garbage
    try:
        return _read(source, dialect)
    finally:
        if collecting:
            gc.enable()


def _read(source: Source, dialect: str) -> Strategy:
    statements = _fast_statements(source.text)
    if statements is None:
        statements = parse(_parser(), source, _NAMES)
    labels, seen, edges, root_name = _gather(statements)
    for name, at in seen.items():
        if name not in labels:
            raise source.error(at, f"node {_name(name)} has no label (its guess)")
    nodes = {
        name: Node(_guess(source, labels[name], dialect), (), labels[name].start_pos)
        for name in seen
    }
    parent, children = _link(source, edges)
    top = _top(source, seen, parent, root_name)
    reached = _grow(source, nodes, children, top)
    lost = [name for name in seen if name not in reached]
    if lost:
        raise source.error(
            seen[lost[0]], f"node {_name(lost[0])} is not reached from the first guess"
        )
    return source.strategy(nodes[top])


def _gather(statements: list) -> tuple[dict[str, Token], dict[str, int], list, str | None]:
    """The graph's statements sorted out: each node's label, where each node is
    first named (in the order named), the edges, and the name of the root if one
    is set (``root=...``)."""
    labels: dict[str, Token] = {}
    seen: dict[str, int] = {}
    edges: list[tuple[Token, Token, dict[str, Token]]] = []
    root_name = None
    for statement in statements:
        kind = statement[0]
        if kind == "node":
            _, name, attrs = statement
            seen.setdefault(_text(name), name.start_pos)
            if "label" in attrs:
                labels[_text(name)] = attrs["label"]
        elif kind == "edge":
            _, a, b, attrs = statement
            for end in (a, b):
                seen.setdefault(_text(end), end.start_pos)
            edges.append((a, b, attrs))
        elif _text(statement[1]) == "root":
            root_name = _text(statement[2])
    return labels, seen, edges, root_name


def _link(source: Source, edges: list) -> tuple[dict[str, str], dict[str, list]]:
    """Each node's parent, and its children with the labels of their edges, in
    the order drawn; a node with two edges into it, or an edge with no label, is
    an error."""
    parent: dict[str, str] = {}
    children: dict[str, list[tuple[Token, str]]] = {}
    for a, b, attrs in edges:
        if _text(b) in parent:
            raise source.error(
                b.start_pos, f"node {_name(_text(b))} has a second edge into it: a tree has one"
            )
        if "label" not in attrs:
            raise source.error(
                a.start_pos, f"the edge {_name(_text(a))} -> {_name(_text(b))} has no reply label"
            )
        parent[_text(b)] = _text(a)
        children.setdefault(_text(a), []).append((attrs["label"], _text(b)))
    return parent, children


def _top(source: Source, seen: dict[str, int], parent: dict[str, str],
         root_name: str | None) -> str:
    """The first guess's node: the root named, or else the one node with no edge
    into it."""
    tops = [name for name in seen if name not in parent]
    if root_name is not None and root_name in seen:
        tops = [root_name] if root_name not in parent else []
    if not seen:
        raise source.error(0, "the graph has no node with a guess: an empty drawing")
    if not tops:
        raise source.error(0, "every node has an edge into it: the edges go round in a cycle")
    if len(tops) > 1:
        raise source.error(
            seen[tops[1]],
            f"a strategy has one first guess, but {len(tops)} nodes have no edge into them: "
            + ", ".join(map(_name, tops[:3])),
        )
    return tops[0]


def _grow(source: Source, nodes: dict[str, Node], children: dict[str, list],
          top: str) -> set[str]:
    """Give each node reached from ``top`` its branches (an edge's label read as
    a reply; the win, drawn as an edge to the same guess, dropped): the names
    reached."""
    reached, todo = {top}, [top]
    while todo:
        name = todo.pop()
        node, branches = nodes[name], []
        for label, child in children.get(name, []):
            m = _REPLY.fullmatch(_text(label))
            if not m:
                raise source.error(
                    label.start_pos,
                    f"edge label {quoted(_text(label))} is not a reply (two digits bw)",
                )
            reply = Reply(int(m.group(1)), int(m.group(2)))
            if reply.black == len(node.guess) and nodes[child].guess == node.guess:
                if children.get(child):
                    raise source.error(label.start_pos, f"nothing is guessed after the win {reply}")
                continue  # the win, written out: implied in our trees
            branches.append((reply, nodes[child]))
            reached.add(child)
            todo.append(child)
        node.branches = tuple(branches)
    return reached


#: the most nodes drawn (svg, png, pdf): beyond this a drawing is a blur of labels
#: (use a depth limit or a path to draw part of the tree); the DOT text has no limit
MAX_DOT_NODES = 500


# -- writing our DOT guides ----------------------------------------------------------
def _drawn(tree: GuideTree, start: int, depth: int | None) -> list[tuple[int, bool]]:
    """``(node, cut)`` for each node drawn; ``cut`` nodes stand for a hidden subtree."""
    base, out = tree.depth[start], []
    i = start
    while i < tree.end[start]:
        cut = depth is not None and tree.depth[i] - base >= depth and not tree.leaf[i]
        out.append((i, cut))
        i = tree.end[i] if cut else i + 1
    return out


def to_dot(
    tree: GuideTree, start: int = 0, depth: int | None = None, *, limit: int | None = None
) -> str:
    """The subtree at ``start`` as a GraphViz digraph, ``depth`` levels of replies deep,
    below the guesses and replies that lead to it (read back: that branch alone).

    Each guess is an ellipse with how many secrets reach it, each known
    solution a green box, each reply an edge label; a subtree below ``depth``
    is one grey note.  Raises :class:`~strategytree.errors.DrawingTooBig`
    above ``limit`` nodes (for a drawing, :data:`MAX_DOT_NODES`; None: the text
    of any tree).

    >>> from strategytree.formats.brace import loads
    >>> from strategytree.game import mastermind
    >>> from strategytree.guide import GuideTree
    >>> tree = GuideTree.build(loads("{AB:{10:AA,01:BA}}"), mastermind(2, 2))
    >>> print(to_dot(tree))  # doctest: +NORMALIZE_WHITESPACE
    digraph strategy {
      node [fontname="Helvetica"]; edge [fontname="Helvetica"];
      n0 [label="AB\\n4 secrets", shape=ellipse];
      n1 [label="AA", shape=box, style=filled, fillcolor="#d8f5d0"];
      n0 -> n1 [label="10"];
      n2 [label="BA", shape=box, style=filled, fillcolor="#d8f5d0"];
      n0 -> n2 [label="01"];
    }
    """
    above = []  # the history that leads to ``start``: its guesses, one branch each
    at = int(tree.parent[start]) if start else -1
    while at >= 0:
        above.append((at, False))
        at = int(tree.parent[at])
    drawn = [*reversed(above), *_drawn(tree, start, depth)]
    count = sum(2 if cut else 1 for _, cut in drawn)
    if limit is not None and count > limit:
        raise DrawingTooBig(
            f"the tree has {count:,} nodes to draw, more than the {limit} that can be read "
            "in a drawing; draw the top to a depth (e.g. 1) or the subtree after a path"
        )
    lines = [
        "digraph strategy {",
        '  node [fontname="Helvetica"]; edge [fontname="Helvetica"];',
    ]
    for i, cut in drawn:
        count_i = int(tree.visits[i])
        if tree.leaf[i]:
            lines.append(f'  n{i} [label="{tree.shown[i]}", shape=box, style=filled, '
                         'fillcolor="#d8f5d0"];')
        else:
            lines.append(f'  n{i} [label="{tree.shown[i]}\\n{plural(count_i, "secret")}", '
                         "shape=ellipse];")
        if i:
            lines.append(f'  n{tree.parent[i]} -> n{i} [label="{tree.reply[i]}"];')
        if cut:
            size = tree.end[i] - i - 1
            lines.append(f'  more{i} [label="... {plural(size, "more node")}", shape=note, '
                         'style=filled, fillcolor="#eeeeee", fontcolor="#555555"];')
            lines.append(f"  n{i} -> more{i} [style=dashed];")
    lines.append("}")
    return "\n".join(lines) + "\n"
