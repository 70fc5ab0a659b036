"""The verifier: replay every secret of a game through a strategy, and score it.

>>> from strategytree.notation import loads
>>> report = verify(loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"))
>>> report.total, report.max_guesses, report.histogram, report.valid
(21, 3, {1: 1, 2: 4, 3: 4}, True)
>>> report.game_notes
['pegs 2 (from the first guess)', 'colors 3 (from the highest colour letter, C)']
"""

from __future__ import annotations

import gc
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .errors import StrategyTreeError
from .game import LETTERS, Game, Reply, resolve_game
from .tree import Node, Strategy, Visitor

__all__ = ["Problem", "Report", "Unsolved", "infer_game", "node_visits", "verify"]


@dataclass(frozen=True)
class Problem:
    """Something wrong (or suspicious) at one place of a strategy."""

    kind: str
    """``malformed-guess``, ``illegal-guess``, ``invalid-reply``, ``duplicate-reply``
    or ``unreachable-branch``"""
    message: str
    """what is wrong, in words"""
    path: str
    """the guesses and replies that lead to the place (``"AB 10, AC 01"``)"""
    line: int | None = None
    """1-based line of the guess concerned, when read from a file"""
    column: int | None = None
    """1-based column of the guess concerned, when read from a file"""

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.line else ""
        after = f" (after {self.path})" if self.path else ""
        return f"{where}{self.message}{after}"


@dataclass(frozen=True)
class Unsolved:
    """A secret the strategy does not solve, and where it went wrong."""

    secret: str
    """the secret, in letters"""
    path: str
    """the guesses and replies it was given, ending where it failed"""
    reason: str
    """why the strategy stops there"""


@dataclass
class Report:
    """What :func:`verify` found.  ``to_dict()`` is the ``--json`` output."""

    source: str
    """the file (or ``<string>``)"""
    game: str
    """the game the strategy was checked against"""
    pegs: int
    colors: int
    game_notes: list[str]
    """which of pegs and colours were inferred from the file, and how"""
    secrets: int
    """number of secrets of the game"""
    solved: int
    """secrets the strategy solves"""
    total: int
    """guesses summed over the solved secrets (the code-golf score N)"""
    max_guesses: int
    """the most guesses any solved secret needs"""
    histogram: dict[int, int]
    """guesses -> number of secrets solved with that many"""
    unsolved: int
    """secrets the strategy does not solve"""
    unsolved_examples: list[Unsolved] = field(default_factory=list)
    """a few unsolved secrets with the path that failed each"""
    invalid_replies: list[Problem] = field(default_factory=list)
    """branches whose reply can never be given (errors)"""
    unreachable_branches: list[Problem] = field(default_factory=list)
    """branches that no remaining secret reaches (warnings; errors when strict)"""
    errors: list[Problem] = field(default_factory=list)
    """every error: malformed or illegal guesses, invalid and duplicate replies"""
    strict: bool = False
    """whether unreachable branches count as errors"""
    repairs: list[str] = field(default_factory=list)
    """what lenient reading changed in the file (``source:line:column: what``)"""

    @property
    def average(self) -> float:
        """Guesses per secret, over the solved secrets."""
        return self.total / self.solved if self.solved else 0.0

    @property
    def valid(self) -> bool:
        """True when every secret is solved and nothing is wrong with the file."""
        return (
            self.unsolved == 0
            and not self.errors
            and not (self.strict and self.unreachable_branches)
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (histogram keys become strings)."""
        out = asdict(self)
        out["average"] = self.average
        out["valid"] = self.valid
        out["histogram"] = {str(k): v for k, v in self.histogram.items()}
        return out


# -- inferring the game ----------------------------------------------------------
def infer_game(
    strategy: Strategy,
    pegs: int | None = None,
    colors: int | None = None,
    *,
    distinct_secrets: bool = False,
    distinct_guesses: bool = False,
    game: str = "mastermind",
) -> tuple[Game, list[str]]:
    """The game a strategy file is meant for, and notes on what was inferred:
    :func:`strategytree.game.resolve_game` with ``strategy`` to infer from
    (distinct guesses must be asked with distinct secrets here)."""
    if distinct_guesses and not distinct_secrets:
        raise StrategyTreeError("distinct guesses need distinct secrets (distinct_secrets=True)")
    return resolve_game(
        game, pegs, colors,
        distinct=distinct_secrets, distinct_guesses=distinct_guesses, strategy=strategy,
    )


# -- flattening the tree -----------------------------------------------------------
class _Flatten(Visitor):
    """Numbers the nodes in written order and records parent and reply of each."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.parent: list[int] = []
        self.reply: list[Reply | None] = []
        self.black: list[int] = []
        self.white: list[int] = []
        self._stack: list[int] = [-1]

    def enter(self, node: Node, reply: Reply | None, depth: int) -> bool:
        self.parent.append(self._stack[-1])
        self._stack.append(len(self.nodes))
        self.nodes.append(node)
        self.reply.append(reply)
        if reply is None:
            self.black.append(0)
            self.white.append(0)
        else:
            self.black.append(reply[0])
            self.white.append(reply[1])
        return True

    def leave(self, node: Node, reply: Reply | None, depth: int) -> None:
        self._stack.pop()


class _Tree:
    """A strategy flattened into arrays for the replay."""

    def __init__(self, strategy: Strategy) -> None:
        collecting = gc.isenabled()
        gc.disable()  # many small objects, no garbage
        try:
            flat = strategy.walk(_Flatten())
        finally:
            if collecting:
                gc.enable()
        assert isinstance(flat, _Flatten)
        self.strategy = strategy
        self.nodes = flat.nodes
        self.parent = flat.parent
        self.reply = flat.reply
        self.parents = np.array(flat.parent, dtype=np.int64)
        self.black = np.array(flat.black, dtype=np.int64)
        self.white = np.array(flat.white, dtype=np.int64)
        self.is_leaf = np.array([not node.branches for node in flat.nodes], dtype=bool)

    def path(self, index: int, last_reply: Reply | None = None) -> str:
        """``"AB 10, AC 01"``: the guesses and replies that lead to node ``index``.

        With ``last_reply``, the node's own guess and that reply end the path.
        """
        steps: list[str] = []
        if last_reply is not None:
            steps.append(f"{self.nodes[index].guess} {last_reply}")
        while self.parent[index] >= 0:
            parent = self.parent[index]
            steps.append(f"{self.nodes[parent].guess} {self.reply[index]}")
            index = parent
        return ", ".join(reversed(steps))

    def problem(self, kind: str, message: str, index: int, path_node: int) -> Problem:
        at = self.strategy.locate(self.nodes[index])
        line, column = at if at else (None, None)
        return Problem(kind, message, self.path(path_node), line, column)


# -- the verifier --------------------------------------------------------------------
def verify(
    strategy: Strategy,
    game: Game | None = None,
    *,
    strict: bool = False,
    examples: int = 5,
) -> Report:
    """Replay every secret of ``game`` through ``strategy`` and report.

    Without a game, the game is inferred as by :func:`infer_game` (classic
    Mastermind).  Never raises for a bad strategy: everything wrong with it is
    in the report.
    """
    notes: list[str] = []
    if game is None:
        game, notes = infer_game(strategy)
    tree = _Tree(strategy)
    p, c = game.pegs, game.colors
    n_nodes = len(tree.nodes)
    errors: list[Problem] = []
    invalid: list[Problem] = []

    # static checks: each guess, and the replies under it
    rows, usable, formed = _guess_rows(tree, game)
    for i in np.flatnonzero(~formed):
        guess = tree.nodes[i].guess
        palette = LETTERS[:c]
        strange = next((ch for ch in guess if ch not in LETTERS), None)
        if strange is not None:
            message = f"guess {guess!r} uses {strange!r}, which is not a colour letter A..Z"
        elif len(guess) != p:
            message = f"guess {guess} has {len(guess)} pegs, expected {p}"
        else:
            bad = next(ch for ch in guess if ch not in palette)
            message = f"guess {guess} uses colour {bad}, beyond the {c} colours A..{palette[-1]}"
        errors.append(tree.problem("malformed-guess", message, i, i))
    # replies that can never be given (b + w > p, b = p - 1 and w = 1, the win, ...)
    problem_of, _ = _reply_maps(game)
    bw = tree.black * 10 + tree.white
    wrong = np.array([problem_of[x] is not None for x in range(100)])[bw]
    wrong[0] = False  # the root has no reply
    for i in np.flatnonzero(wrong):
        reply, parent = tree.reply[i], tree.parent[i]
        why = problem_of[int(bw[i])]
        problem = tree.problem(
            "invalid-reply",
            f"reply {reply} under guess {tree.nodes[parent].guess}: {why}",
            i,
            i,
        )
        invalid.append(problem)
        errors.append(problem)
    for i, node in enumerate(tree.nodes):
        if len(node.branches) > 1 and len({r for r, _ in node.branches}) < len(node.branches):
            seen: set[Reply] = set()
            for reply, _ in node.branches:
                if reply in seen:
                    message = f"reply {reply} is written twice under guess {node.guess}"
                    errors.append(tree.problem("duplicate-reply", message, i, i))
                seen.add(reply)
    for i in np.flatnonzero(formed & ~usable):
        node = tree.nodes[i]
        errors.append(
            tree.problem("illegal-guess", f"guess {node.guess} is not allowed in {game.name}", i, i)
        )

    replay = _replay(game, tree, rows, usable)
    solved_at, fail_node, fail_reply = replay.solved_at, replay.fail_node, replay.fail_reply

    # branches under a reached, playable guess that no secret took
    unreachable: list[Problem] = []
    parents = tree.parents
    edge = np.flatnonzero(~wrong & (parents >= 0))
    edge = edge[replay.reached[parents[edge]] & usable[parents[edge]] & ~replay.taken[edge]]
    if len(edge):  # a reply written twice is reported once, as a duplicate
        key = parents * 100 + tree.black * 10 + tree.white  # digits: no two replies collide
        first = np.zeros(n_nodes, dtype=bool)
        first[np.unique(key[1:], return_index=True)[1] + 1] = True
        edge = edge[first[edge]]
    for i in edge:
        parent = tree.parent[i]
        message = f"no remaining secret gives reply {tree.reply[i]} to guess {tree.nodes[parent].guess}"
        unreachable.append(tree.problem("unreachable-branch", message, i, i))
    if strict:
        errors.extend(unreachable)

    solved = solved_at > 0
    counts = np.bincount(solved_at[solved]) if solved.any() else np.zeros(1, dtype=np.int64)
    histogram = {int(k): int(v) for k, v in enumerate(counts) if v}
    unsolved_ix = np.flatnonzero(~solved)
    cases = []
    for s in unsolved_ix[:examples]:
        node = int(fail_node[s])
        reply = int(fail_reply[s])
        guess = tree.nodes[node].guess
        if not usable[node]:
            reason = f"guess {guess} cannot be played in {game.name}"
            path = tree.path(node)
        elif reply < 0:
            reason = f"known solution {guess} is not the secret"
            path = tree.path(node, game.reply(game.pair_replies(game.guess_index(rows[node]), [s])[0]))
        else:
            reason = f"reply {game.reply(reply)} to guess {guess} has no branch"
            path = tree.path(node, game.reply(reply))
        cases.append(Unsolved(game.code_text(game.secrets[s]), path, reason))

    return Report(
        source=strategy.source,
        game=game.name,
        pegs=p,
        colors=c,
        game_notes=notes,
        secrets=len(game.secrets),
        solved=int(solved.sum()),
        total=int(solved_at.sum()),
        max_guesses=int(solved_at.max()) if len(solved_at) else 0,
        histogram=histogram,
        unsolved=len(unsolved_ix),
        unsolved_examples=cases,
        invalid_replies=invalid,
        unreachable_branches=unreachable,
        errors=errors,
        strict=strict,
        repairs=list(strategy.repairs),
    )


def node_visits(strategy: Strategy, game: Game) -> list[int]:
    """How many secrets of ``game`` reach each node, in written (preorder) order.

    The order is the order in which :func:`strategytree.tree.walk` enters the nodes.
    """
    tree = _Tree(strategy)
    rows, usable, _ = _guess_rows(tree, game)
    return _replay(game, tree, rows, usable).visits.tolist()


_CAPITALS = frozenset(LETTERS)


def _reply_maps(game: Game) -> tuple[list[str | None], np.ndarray]:
    """For each reply written ``bw`` (index ``10 b + w``): why it can never be
    given in the game (or None), and its reply code (-1 when never given)."""
    problems: list[str | None] = []
    codes = np.full(100, -1, dtype=np.int64)
    for bw in range(100):
        reply = Reply(*divmod(bw, 10))
        why = game.reply_problem(reply)
        problems.append(why)
        if why is None:
            codes[bw] = game.reply_code(reply)
    return problems, codes


def _guess_rows(tree: _Tree, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each node's guess as a row, whether it can be played, and whether it is well formed."""
    p, c = game.pegs, game.colors
    n_nodes = len(tree.nodes)
    rows = np.zeros((n_nodes, p), dtype=np.uint8)
    formed = np.fromiter(
        (len(node.guess) == p and _CAPITALS.issuperset(node.guess) for node in tree.nodes),
        bool,
        n_nodes,
    )
    text = "".join(node.guess for node, ok in zip(tree.nodes, formed) if ok)
    rows[formed] = (np.frombuffer(text.encode("ascii"), np.uint8) - 65).reshape(-1, p)
    formed &= rows.max(axis=1, initial=0) < c
    return rows, formed & (game.guess_index(rows) >= 0), formed


def _follow(
    game: Game,
    secret: int,
    node: int,
    depth: int,
    child_of: dict[int, int],
    usable: np.ndarray,
    is_leaf: np.ndarray,
    guess_of: np.ndarray,
    solved_at: np.ndarray,
    fail_node: np.ndarray,
    fail_reply: np.ndarray,
    visits: np.ndarray,
) -> None:
    """Send one secret down the tree, one node at a time (for long thin paths)."""
    R = game.n_replies
    one = np.array([secret])
    while True:
        visits[node] += 1
        if not usable[node]:
            fail_node[secret] = node
            return
        reply = int(game.pair_replies(guess_of[node : node + 1], one)[0])
        if reply == game.win:
            solved_at[secret] = depth
            return
        child = None if is_leaf[node] else child_of.get(node * R + reply)
        if child is None:
            fail_node[secret] = node
            if not is_leaf[node]:
                fail_reply[secret] = reply
            return
        node = child
        depth += 1


@dataclass
class _Replay:
    solved_at: np.ndarray  # guesses needed per secret, 0 if unsolved
    fail_node: np.ndarray  # where an unsolved secret stopped
    fail_reply: np.ndarray  # its reply there, or -1 at a known solution
    reached: np.ndarray  # nodes some secret reached
    visits: np.ndarray  # how many secrets reach each node
    taken: np.ndarray  # nodes some secret reached through their own branch


def _replay(game: Game, tree: _Tree, rows: np.ndarray, usable: np.ndarray) -> _Replay:
    """Send every secret down the tree at once, one level per step."""
    n_nodes = len(tree.nodes)
    R = game.n_replies
    # first branch of each (node, reply); later duplicates are never taken
    _, code_of = _reply_maps(game)
    code = code_of[tree.black * 10 + tree.white]
    candidates = np.flatnonzero((tree.parents >= 0) & (code >= 0))
    keys, first = np.unique(tree.parents[candidates] * R + code[candidates], return_index=True)
    kids = candidates[first]
    is_leaf = tree.is_leaf
    guess_of = np.where(usable, game.guess_index(rows), 0)  # each node's guess, by index

    n = len(game.secrets)
    solved_at = np.zeros(n, dtype=np.int64)
    fail_node = np.zeros(n, dtype=np.int64)
    fail_reply = np.full(n, -1, dtype=np.int64)
    visits = np.zeros(n_nodes, dtype=np.int64)

    active = np.arange(n)
    where = np.zeros(n, dtype=np.int64)  # current node of each secret
    depth = 1
    while active.size:
        if active.size <= 4 and depth > 8:  # a long thin path: one secret at a time
            child_of = dict(zip(keys.tolist(), kids.tolist()))
            for secret in active.tolist():
                _follow(game, secret, int(where[secret]), depth, child_of, usable, is_leaf,
                        guess_of, solved_at, fail_node, fail_reply, visits)
            break
        nodes = where[active]
        np.add.at(visits, nodes, 1)
        ok = usable[nodes]
        if not ok.all():  # a guess that cannot be played: these secrets stop here
            fail_node[active[~ok]] = nodes[~ok]
            active, nodes = active[ok], nodes[ok]
        reply = game.pair_replies(guess_of[nodes], active)
        win = reply == game.win
        solved_at[active[win]] = depth
        going = ~win & ~is_leaf[nodes]
        stuck = ~win & is_leaf[nodes]
        fail_node[active[stuck]] = nodes[stuck]
        active, nodes, reply = active[going], nodes[going], reply[going]
        key = nodes * R + reply
        at = np.minimum(np.searchsorted(keys, key), max(len(keys) - 1, 0))
        found = keys[at] == key if len(keys) else np.zeros(len(key), dtype=bool)
        fail_node[active[~found]] = nodes[~found]
        fail_reply[active[~found]] = reply[~found]
        active = active[found]
        where[active] = kids[at[found]]
        depth += 1

    reached = visits > 0
    taken = reached.copy()
    taken[0] = False
    return _Replay(solved_at, fail_node, fail_reply, reached, visits, taken)

