"""Replaying secrets through a strategy: the one flattened form of a tree, and the one replay.

A strategy is walked once (:func:`strategytree.tree.walk`) into a
:class:`FlatTree`: its nodes in written (preorder) order as flat lists and
arrays, each guess looked up among a game's allowed guesses.  :func:`replay`
then sends secrets of the game down it all at once, one level of the tree per
step, asking :mod:`strategytree.feedback` (through the game) for the replies of
a whole level in one call.  The verifier, the guides, the statistics, the
simulations and the computer player all read a :class:`FlatTree` and a
:class:`Replay`; nothing else walks secrets through a tree.

Only numpy is used: reading and checking a file never imports numba.

>>> from strategytree.formats.brace import loads
>>> from strategytree.game import mastermind
>>> game = mastermind(2, 3)
>>> flat = FlatTree(loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"), game)
>>> flat.guess[:3], flat.end[:3], flat.child(0, game.reply_code((0, 1)))
(['AB', 'AC', 'AA'], [9, 5, 3], 6)
>>> played = replay(flat)  # every secret, in code order: AA, AB, AC, BA, ...
>>> played.guesses.tolist(), played.visits.tolist()
([3, 1, 2, 2, 3, 2, 3, 3, 2], [9, 4, 1, 1, 1, 1, 2, 1, 1])
>>> [(flat.guess_text(g), str(game.reply(r))) for g, r in played.moves(3)]  # BA
[('AB', '02'), ('BA', '20')]
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .errors import StrategyError
from .feedback import pair_replier
from .game import CodeIndex, Game, Reply, ReplyCode, check_memory
from .tree import Node, Preorder, Strategy, Visitor, walk

__all__ = ["FlatTree", "Replay", "replay", "reply_codes"]

class _Flatten(Visitor):
    """Numbers the nodes in written order: node, reply, parent, depth, subtree end."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.reply: list[Reply | None] = []
        self.parent: list[int] = []
        self.depth: list[int] = []
        self.end: list[int] = []
        self._open: list[int] = [-1]

    def enter(self, node: Node, reply: Reply | None, depth: int) -> bool:
        if not isinstance(node, Node) or not isinstance(node.guess, str):
            raise StrategyError(f"a node of the tree is {node!r}: a Node with a guess in letters")
        if reply is not None and not _whole_reply(reply):
            above = self.nodes[self._open[-1]].guess
            raise StrategyError(f"the branch {reply!r} under guess {above} is not a reply: "
                                "Reply(black, white), each a whole number 0 to 9")
        self.parent.append(self._open[-1])
        self._open.append(len(self.nodes))
        self.nodes.append(node)
        self.reply.append(reply)
        self.depth.append(depth)
        self.end.append(0)
        return True

    def leave(self, node: Node, reply: Reply | None, depth: int) -> None:
        self.end[self._open.pop()] = len(self.nodes)


def _whole_reply(reply: object) -> bool:
    """Whether a hand-made tree's branch is a reply (two whole numbers 0 to 9)."""
    return (isinstance(reply, tuple) and len(reply) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 9
                    for x in reply))


def reply_codes(game: Game) -> np.ndarray:
    """The reply code of each reply written ``bw`` (index ``10 b + w``), or -1
    for a reply the game never gives (see :meth:`Game.reply_problem`)."""

    def make() -> np.ndarray:
        codes = np.full(100, -1, dtype=np.int64)
        for bw in range(100):
            reply = Reply(*divmod(bw, 10))
            if game.reply_problem(reply) is None:
                codes[bw] = game.reply_code(reply)
        return codes

    return game.memo("reply codes of written replies", make)


class FlatTree:
    """A strategy in written (preorder) order, its guesses looked up in a game.

    Node ``i``'s subtree is the range ``i .. end[i] - 1``; its children are
    ``i + 1``, then ``end`` of each child in turn (see :meth:`children`).
    """

    def __init__(self, strategy: Strategy | Node, game: Game) -> None:
        check_memory(game, "check")  # before the tables of its secrets are made
        self.game = game
        """the game whose guesses the tree's guesses were looked up in"""
        pre = strategy.preorder if isinstance(strategy, Strategy) else None
        self._strategy = strategy
        if pre is not None:  # read from a file: already flat, no node objects
            self.parents: np.ndarray = pre.parent
            """:attr:`parent` as an array"""
            self.ends: np.ndarray = pre.end
            """:attr:`end` as an array"""
            self.depths: np.ndarray = pre.depth
            """:attr:`depth` as an array"""
            self.written: np.ndarray = np.maximum(pre.written, 0)
            """each incoming reply as written, ``10 * black + white`` (0 at the root)"""
            self.positions: np.ndarray = pre.pos
            """the offset of each guess in the text it was read from (-1 when unknown)"""
            self._size = len(pre.pos)
            self.formed, self.rows = _rows_of_text(pre, game.pegs, game.colors)
        else:
            self._walk(strategy.root if isinstance(strategy, Strategy) else strategy)
        self.is_leaf = self.ends == np.arange(1, self._size + 1)
        """whether each node is a known solution (no branches)"""
        self.code = np.where(self.parents >= 0, reply_codes(game)[self.written], -1)
        """the reply code of each incoming reply (-1 at the root, and for a reply
        the game never gives)"""
        # self.formed, self.rows: whether each guess is a code of the game's size
        # and colours, and the guesses as an ``(n, pegs)`` array of colours
        # (zeros where not formed)
        self.guess_index = np.where(self.formed, game.guess_index(self.rows), -1)
        """each node's guess as an index into ``game.guesses`` (-1 when it cannot be played)"""

    @property
    def strategy(self) -> Strategy:
        """The strategy flattened (a root node given alone, as a :class:`Strategy`)."""
        given = self._strategy
        return given if isinstance(given, Strategy) else Strategy(given)

    def _walk(self, root: Node) -> None:
        """Flatten a tree of nodes with one walk."""
        collecting = gc.isenabled()
        gc.disable()  # many small objects, no garbage
        try:
            flat = walk(root, _Flatten())
        finally:
            if collecting:
                gc.enable()
        assert isinstance(flat, _Flatten)
        n = self._size = len(flat.nodes)
        self.nodes = flat.nodes
        self.guess = [node.guess for node in flat.nodes]
        self.reply = flat.reply
        self.parent, self.depth, self.end = flat.parent, flat.depth, flat.end
        self.parents = np.array(flat.parent, dtype=np.int64)
        self.ends = np.array(flat.end, dtype=np.int64)
        self.depths = np.array(flat.depth, dtype=np.int64)
        self.written = np.fromiter(
            (0 if r is None else 10 * r[0] + r[1] for r in self.reply), np.int64, n
        )
        self.positions = np.fromiter(
            (-1 if node.pos is None else node.pos for node in flat.nodes), np.int64, n
        )
        self.formed, self.rows = self._rows()

    @cached_property
    def nodes(self) -> list[Node]:
        """The nodes themselves, in written order (made from the text when it was read)."""
        root = self._strategy.root if isinstance(self._strategy, Strategy) else self._strategy
        return walk(root, _Flatten()).nodes  # type: ignore[attr-defined]

    @cached_property
    def guess(self) -> list[str]:
        """The guess of each node, in letters."""
        assert isinstance(self._strategy, Strategy) and self._strategy.preorder is not None
        return self._strategy.preorder.guesses()

    @cached_property
    def reply(self) -> list[Reply | None]:
        """The reply on the branch that leads to each node (None at the root)."""
        replies = [Reply(*divmod(bw, 10)) for bw in range(100)]
        out: list[Reply | None] = [replies[bw] for bw in self.written.tolist()]
        out[0] = None
        return out

    @cached_property
    def parent(self) -> list[int]:
        """Index of each node's parent (-1 at the root)."""
        return self.parents.tolist()

    @cached_property
    def depth(self) -> list[int]:
        """Guesses made before each node (0 at the root)."""
        return self.depths.tolist()

    @cached_property
    def end(self) -> list[int]:
        """One past the last index of each node's subtree."""
        return self.ends.tolist()

    @cached_property
    def leaf(self) -> list[bool]:
        """:attr:`is_leaf` as a list."""
        return self.is_leaf.tolist()

    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Whether each guess is a code of the game, and each guess as a row of colours."""
        p, c, n = self.game.pegs, self.game.colors, len(self.guess)
        lengths = np.fromiter(map(len, self.guess), np.int64, n)
        # every character, one byte each (anything not ASCII becomes '?')
        chars = np.frombuffer("".join(self.guess).encode("ascii", "replace"), np.uint8)
        outside = np.concatenate(([0], np.cumsum((chars < 65) | (chars >= 65 + c))))
        starts = np.cumsum(lengths) - lengths
        formed = (lengths == p) & (outside[starts + lengths] == outside[starts])
        rows = np.zeros((n, p), dtype=np.uint8)
        rows[formed] = chars[starts[formed, None] + np.arange(p)] - 65
        return formed, rows

    def __len__(self) -> int:
        return self._size

    def guess_text(self, guess: CodeIndex) -> str:
        """An allowed guess of the game (an index) in letters."""
        return self.game.code_text(self.game.guesses[guess])

    def children(self, i: int) -> list[int]:
        """Indices of the children of node ``i``, in written order."""
        out, c = [], i + 1
        while c < self.end[i]:
            out.append(c)
            c = self.end[c]
        return out

    @cached_property
    def branch_keys(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted keys ``node * n_replies + reply code`` of the branches a secret
        can take, and the child each leads to (a reply written twice: the first)."""
        R = self.game.n_replies
        candidates = np.flatnonzero(self.code >= 0)
        keys, first = np.unique(self.parents[candidates] * R + self.code[candidates],
                                return_index=True)
        return keys, candidates[first]

    @cached_property
    def child_table(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Each node's row among the nodes with branches (-1 for a known solution),
        and the table ``row * n_replies + reply code -> child`` (-1: no branch);
        None when the table would be too large (:attr:`branch_keys` serves then)."""
        R = self.game.n_replies
        inner = ~self.is_leaf
        rows = int(inner.sum())
        if rows * R > max(4 * len(self), 1 << 22):
            return None
        rank = np.cumsum(inner) - 1
        rank[~inner] = -1
        keys, kids = self.branch_keys
        table = np.full(rows * R, -1, dtype=np.int64)
        table[rank[keys // R] * R + keys % R] = kids
        return rank, table

    @cached_property
    def _child_of(self) -> dict[int, int]:
        keys, kids = self.branch_keys
        return dict(zip(keys.tolist(), kids.tolist()))

    def child(self, i: int, reply: ReplyCode) -> int:
        """The node after reply code ``reply`` to node ``i``'s guess, or -1."""
        return self._child_of.get(i * self.game.n_replies + int(reply), -1)

    def follow(self, replies: Iterable[ReplyCode], start: int = 0) -> tuple[int, ReplyCode | None]:
        """Follow reply codes from node ``start``: the node they lead to and None,
        or the node where a reply has no branch and that reply."""
        at = start
        for reply in replies:
            nxt = self.child(at, reply)
            if nxt < 0:
                return at, int(reply)
            at = nxt
        return at, None

    def history(self, i: int) -> list[tuple[str, Reply]]:
        """The ``(guess, reply)`` steps, as written, that lead from the root to node ``i``."""
        steps = []
        while self.parent[i] >= 0:
            reply = self.reply[i]
            assert reply is not None
            steps.append((self.guess[self.parent[i]], reply))
            i = self.parent[i]
        return steps[::-1]


@dataclass(eq=False)
class Replay:
    """How secrets went through a :class:`FlatTree`: per game (one secret each,
    in the order given to :func:`replay`) and per node."""

    tree: FlatTree
    """the tree replayed"""
    secrets: np.ndarray
    """the secret of each game, an index into ``game.secrets``"""
    guesses: np.ndarray
    """guesses each game needed, 0 when the strategy does not solve it"""
    node: np.ndarray
    """the node where each game stopped (won, or stuck)"""
    reply: np.ndarray
    """the reply code each game got at that node (the win when solved), -1
    where the node's guess cannot be played"""
    visits: np.ndarray
    """how many games reach each node"""
    won: np.ndarray
    """the secret (index) each node's guess wins, or -1"""
    stuck: np.ndarray
    """how many games reach each node and stop there without a win"""

    @property
    def solved(self) -> np.ndarray:
        """Whether each game was solved."""
        return self.guesses > 0

    @property
    def taken(self) -> np.ndarray:
        """Nodes some game reached through their own branch (not the root)."""
        taken = self.visits > 0
        taken[:1] = False
        return taken

    def moves(self, k: int) -> list[tuple[CodeIndex, ReplyCode]]:
        """The guesses (indices into ``game.guesses``) of game ``k`` and their replies."""
        tree = self.tree
        gix, code, parent = tree.guess_index, tree.code, tree.parent
        i = int(self.node[k])
        last = int(self.reply[k])
        out = [(int(gix[i]), last)] if last >= 0 else []
        while parent[i] >= 0:
            out.append((int(gix[parent[i]]), int(code[i])))
            i = parent[i]
        return out[::-1]

    def reason(self, k: int) -> str | None:
        """Why the strategy stops without solving game ``k`` (None when it solves it)."""
        if self.guesses[k]:
            return None
        tree, game = self.tree, self.tree.game
        i, reply = int(self.node[k]), int(self.reply[k])
        guess = tree.guess[i]
        if reply < 0:
            return f"{guess} is not an allowed guess of {game.name}"
        if tree.leaf[i]:
            secret = game.code_text(game.secrets[self.secrets[k]])
            return f"the strategy expected {guess}, but the secret is {secret}"
        return f"the strategy has no branch for reply {game.reply(reply)} to {guess}"


def _rows_of_text(pre: Preorder, pegs: int, colors: int) -> tuple[np.ndarray, np.ndarray]:
    """Whether each guess of a tree read from text is a code of ``pegs`` and
    ``colors``, and the guesses as an ``(n, pegs)`` array of colours."""
    n = len(pre.pos)
    rows = np.zeros((n, pegs), dtype=np.uint8)
    sized = np.flatnonzero(pre.length == pegs)
    data = np.frombuffer(pre.text.encode("ascii"), np.uint8)
    letters = data[pre.pos[sized, None] + np.arange(pegs)] - 65  # the grammar's guesses: A..Z
    inside = (letters < colors).all(axis=1)
    formed = np.zeros(n, dtype=bool)
    formed[sized[inside]] = True
    rows[sized[inside]] = letters[inside]
    return formed, rows


#: a level with at most this many games, this deep, is followed one game at a time
_THIN, _DEEP = 4, 8


def replay(tree: FlatTree, secrets: np.ndarray | None = None) -> Replay:
    """Send ``secrets`` (indices into ``game.secrets``, repeats allowed; default
    all of them) down the tree at once, one level per step.

    Long thin paths (a few games left, deep down) are followed one game at a
    time with Python ints, where numpy's overhead per level would dominate.
    """
    game = tree.game
    n_nodes = len(tree)
    everything = secrets is None
    secrets = np.arange(len(game.secrets)) if everything else np.asarray(secrets, dtype=np.int64)
    n = len(secrets)
    dense = tree.child_table
    keys, kids = tree.branch_keys
    R, win = game.n_replies, game.win
    gix, is_leaf = tree.guess_index, tree.is_leaf
    usable = gix >= 0
    guess_of = np.where(usable, gix, 0)

    guesses = np.zeros(n, dtype=np.int64)
    stop = np.zeros(n, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)
    visits = np.zeros(n_nodes, dtype=np.int64)
    won = np.full(n_nodes, -1, dtype=np.int64)

    active = np.arange(n)  # games still going
    where = np.zeros(n, dtype=np.int64)  # the node each game is at
    depth = 1
    while active.size and n_nodes:
        if active.size <= _THIN and depth > _DEEP:
            for k in active.tolist():
                _one(tree, k, int(secrets[k]), int(where[k]), depth, guesses, stop, last,
                     visits, won)
            break
        nodes = where[active]
        if everything and depth == 1:
            visits[0] = n
        elif len(nodes) * 8 > n_nodes:
            visits += np.bincount(nodes, minlength=n_nodes)
        else:
            np.add.at(visits, nodes, 1)
        stop[active] = nodes
        ok = usable[nodes]
        if not ok.all():  # a guess that cannot be played: these games stop here
            last[active[~ok]] = -1
            active, nodes = active[ok], nodes[ok]
        reply = game.pair_replies(guess_of[nodes], secrets[active])
        last[active] = reply
        win_here = reply == win
        guesses[active[win_here]] = depth
        won[nodes[win_here]] = secrets[active[win_here]]
        going = ~win_here & ~is_leaf[nodes]
        active, nodes = active[going], nodes[going]
        if dense is not None:
            child = dense[1][dense[0][nodes] * R + reply[going]]
            found = child >= 0
            active = active[found]
            where[active] = child[found]
        else:
            key = nodes * R + reply[going]
            at = np.minimum(np.searchsorted(keys, key), max(len(keys) - 1, 0))
            found = keys[at] == key if len(keys) else np.zeros(len(key), dtype=bool)
            active = active[found]
            where[active] = kids[at[found]]
        depth += 1

    unsolved = guesses == 0
    stuck = np.bincount(stop[unsolved], minlength=n_nodes)
    return Replay(tree, secrets, guesses, stop, last, visits, won, stuck)


def _one(
    tree: FlatTree,
    k: int,
    secret: int,
    node: int,
    depth: int,
    guesses: np.ndarray,
    stop: np.ndarray,
    last: np.ndarray,
    visits: np.ndarray,
    won: np.ndarray,
) -> None:
    """Send game ``k`` down the tree from ``node``, one node at a time."""
    reply_of = pair_replier(tree.game)
    gix, leaf, child, win = tree.guess_index, tree.leaf, tree.child, tree.game.win
    while True:
        visits[node] += 1
        stop[k] = node
        g = int(gix[node])
        if g < 0:
            last[k] = -1
            return
        reply = reply_of(g, secret)
        last[k] = reply
        if reply == win:
            guesses[k] = depth
            won[node] = secret
            return
        nxt = -1 if leaf[node] else child(node, reply)
        if nxt < 0:
            return
        node = nxt
        depth += 1
