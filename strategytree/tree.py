"""The strategy tree model, and the one way to walk it.

A :class:`Node` holds a guess (written in letters) and its branches, a tuple
of ``(Reply, Node)`` pairs in the order they were written.  A node without
branches is a *known solution*: the strategy expects its guess to be the
secret.  The winning reply is implied and never stored.

Every pass over a tree (the writer, the verifier, the guide, statistics) goes
through :func:`walk`, which drives a :class:`Visitor` with an explicit stack:
trees nested hundreds of thousands of levels deep never meet Python's
recursion limit.

The strategy ``{AB:{10:AA,02:BA,01:{BC:{01:CA}}}}``, built by hand (the
reader, :func:`strategytree.formats.brace.loads`, builds the same from the text):

>>> bc = Node("BC", ((Reply(0, 1), Node("CA")),))
>>> tree = Strategy(Node("AB", ((Reply(1, 0), Node("AA")), (Reply(0, 2), Node("BA")),
...                             (Reply(0, 1), bc))))
>>> tree.root.guess, [str(r) for r, _ in tree.root.branches]
('AB', ['10', '02', '01'])
>>> tree.root.child(Reply(0, 2)).guess
'BA'
>>> tree.count_nodes(), tree.depth()
(5, 3)
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from .display import html
from .game import Reply

__all__ = ["Node", "Preorder", "Reply", "Strategy", "Visitor", "walk"]


class Node:
    """One guess of a strategy and what to do after each reply.

    ``pos`` is the offset of the guess in the text it was read from (see
    :meth:`Strategy.locate`); it takes no part in equality.
    """

    __slots__ = ("guess", "branches", "pos")

    def __init__(
        self,
        guess: str,
        branches: tuple[tuple[Reply, Node], ...] = (),
        pos: int | None = None,
    ) -> None:
        self.guess = guess
        """the guess, in letters (``"AABBC"``)"""
        self.branches = tuple(branches)
        """``(reply, next node)`` pairs, in written order"""
        self.pos = pos

    @property
    def is_leaf(self) -> bool:
        """True for a known solution (a guess with no branches)."""
        return not self.branches

    def child(self, reply: Reply) -> Node | None:
        """The node after ``reply`` (the first, if a reply is written twice)."""
        for r, node in self.branches:
            if r == reply:
                return node
        return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        stack = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a.guess != b.guess or len(a.branches) != len(b.branches):
                return False
            for (ra, na), (rb, nb) in zip(a.branches, b.branches):
                if ra != rb:
                    return False
                stack.append((na, nb))
        return True

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self.is_leaf:
            return f"Node({self.guess!r})"
        return f"Node({self.guess!r}, <{len(self.branches)} branches>)"


class Visitor:
    """Receives the nodes of a tree from :func:`walk`, in written order.

    ``reply`` is the reply on the branch that led to the node (None at the
    root) and ``depth`` the number of guesses made before it (0 at the root).
    """

    def enter(self, node: Node, reply: Reply | None, depth: int) -> bool:
        """Called before the node's branches; return False to skip them."""
        return True

    def leave(self, node: Node, reply: Reply | None, depth: int) -> None:
        """Called after the node's branches (also when they were skipped)."""


def walk(root: Node, visitor: Visitor) -> Visitor:
    """Visit every node of the tree under ``root``, depth first, without recursion."""
    enter, leave = visitor.enter, visitor.leave
    todo: list[tuple[bool, Node, Reply | None, int]] = [(False, root, None, 0)]
    while todo:
        leaving, node, reply, depth = todo.pop()
        if leaving:
            leave(node, reply, depth)
            continue
        descend = enter(node, reply, depth)
        if descend is False or not node.branches:
            leave(node, reply, depth)
            continue
        todo.append((True, node, reply, depth))
        todo.extend((False, child, r, depth + 1) for r, child in reversed(node.branches))
    return visitor


def iter_nodes(root: Node) -> Iterator[tuple[Node, Reply | None, int]]:
    """Every ``(node, reply, depth)`` in written order (preorder)."""
    todo: list[tuple[Node, Reply | None, int]] = [(root, None, 0)]
    while todo:
        node, reply, depth = todo.pop()
        yield node, reply, depth
        for r, child in reversed(node.branches):
            todo.append((child, r, depth + 1))


class Preorder(NamedTuple):
    """A tree as flat arrays in written (preorder) order: the compact form the
    reader builds (:func:`strategytree.formats.brace.loads`), far smaller and faster
    to make than :class:`Node` objects.  Node ``i``'s subtree is ``i .. end[i] - 1``.
    """

    text: str
    """the text the tree was read from (each guess is a slice of it)"""
    pos: np.ndarray
    """offset of each node's guess in :attr:`text`"""
    length: np.ndarray
    """length of each node's guess"""
    written: np.ndarray
    """the reply on the branch into each node as written, ``10 * black + white`` (-1 at the root)"""
    parent: np.ndarray
    """index of each node's parent (-1 at the root)"""
    depth: np.ndarray
    """guesses made before each node (0 at the root)"""
    end: np.ndarray
    """one past the last index of each node's subtree"""

    def guesses(self) -> list[str]:
        """Every node's guess, in letters."""
        text = self.text
        return [text[a:b] for a, b in zip(self.pos.tolist(), (self.pos + self.length).tolist())]

    def build(self) -> Node:
        """The same tree as :class:`Node` objects (bottom up, without recursion)."""
        replies = [Reply(*divmod(bw, 10)) for bw in range(100)]
        guesses = self.guesses()
        positions = self.pos.tolist()
        written = self.written.tolist()
        kids = np.bincount(self.parent[1:], minlength=len(guesses)).tolist()
        done: list[tuple[Reply, Node]] = []  # finished subtrees, first child on top
        node = Node("")
        for i in range(len(guesses) - 1, -1, -1):
            k = kids[i]
            if k:
                branches = done[-k:]
                del done[-k:]
                branches.reverse()
                node = Node(guesses[i], tuple(branches), positions[i])
            else:
                node = Node(guesses[i], (), positions[i])
            if i:
                done.append((replies[written[i]], node))
        return node


class Strategy:
    """A whole strategy: the root node and where it came from.

    The reader returns one, the builders return one, and the writer,
    verifier and guide take one.  A strategy read from a file holds its
    :class:`Preorder` form and makes its :class:`Node` objects only when
    :attr:`root` is first asked for.
    """

    __slots__ = ("_root", "preorder", "source", "newlines", "repairs")

    def __init__(
        self,
        root: Node | None = None,
        source: str = "<string>",
        newlines: list[int] | None = None,
        repairs: list[str] | None = None,
        *,
        preorder: Preorder | None = None,
    ) -> None:
        if root is None and preorder is None:
            raise TypeError("a Strategy needs a root node or a preorder form")
        self._root = root
        self.preorder = preorder
        """the flat form the reader built (None for a tree built from nodes)"""
        self.source = source
        """the file it was read from, for messages"""
        self.newlines = newlines
        """offsets of the line ends of the text it was read from"""
        self.repairs: list[str] = [] if repairs is None else repairs
        """what lenient reading changed, each as ``source:line:column: what``"""

    @property
    def root(self) -> Node:
        """The first guess and everything after it."""
        if self._root is None:
            assert self.preorder is not None
            self._root = self.preorder.build()
        return self._root

    @property
    def root_guess(self) -> str:
        """The first guess, in letters."""
        if self._root is None and self.preorder is not None:
            start = int(self.preorder.pos[0])
            return self.preorder.text[start:start + int(self.preorder.length[0])]
        return self.root.guess

    def guess_letters(self) -> set[str]:
        """Every character used in a guess."""
        if self._root is None and self.preorder is not None:
            pre = self.preorder
            if len(pre.text) < 2**20:
                return set("".join(pre.guesses()))
            data = np.frombuffer(pre.text.encode("ascii"), np.uint8)
            letters = (data >= 65) & (data <= 90)  # the brace grammar's guesses: A..Z
            return {chr(c) for c in np.unique(data[letters]).tolist()}
        return set("".join(node.guess for node, _, _ in iter_nodes(self.root)))

    def __repr__(self) -> str:
        return f"Strategy({self.root_guess!r}, source={self.source!r})"

    def _repr_html_(self) -> str:
        """How Jupyter shows a strategy: :func:`strategytree.notebook.strategy_html`
        (registered in :mod:`strategytree.display`)."""
        return html(self)

    def locate(self, node: Node | int) -> tuple[int, int] | None:
        """The 1-based (line, column) where ``node``'s guess was written (or the
        offset ``node``), if known."""
        pos = node if isinstance(node, int) else node.pos
        if pos is None or pos < 0:
            return None
        ends = self.newlines or []
        line = bisect.bisect_left(ends, pos)
        start = ends[line - 1] + 1 if line else 0
        return line + 1, pos - start + 1

    def where(self, node: Node | int) -> str:
        """``source:line:column`` of the node, for messages (just ``source`` if unknown)."""
        at = self.locate(node)
        return self.source if at is None else f"{self.source}:{at[0]}:{at[1]}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Strategy):
            return NotImplemented
        return self.root == other.root

    __hash__ = None  # type: ignore[assignment]

    def walk(self, visitor: Visitor) -> Visitor:
        """Drive ``visitor`` over the tree (see :func:`walk`)."""
        return walk(self.root, visitor)

    def count_nodes(self) -> int:
        """How many guesses are written in the tree."""
        if self._root is None and self.preorder is not None:
            return len(self.preorder.pos)
        return sum(1 for _ in iter_nodes(self.root))

    def depth(self) -> int:
        """The most guesses on any written path."""
        if self._root is None and self.preorder is not None:
            return int(self.preorder.depth.max()) + 1
        return max(d for _, _, d in iter_nodes(self.root)) + 1
