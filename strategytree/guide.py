"""Lookup guides: a strategy written so that a person can follow it.

A strategy is walked once (:func:`strategytree.tree.walk`) into a
:class:`GuideTree`: its nodes in written order, as flat lists, with how many
secrets of a game reach each node and which secret each node wins.  Every
form of guide reads those lists: the indented text guide, the lookup table
of complete games (Markdown or CSV), the GraphViz and HTML exports of
:mod:`strategytree.export` and the statistics of :mod:`strategytree.stats`.

>>> from strategytree.notation import loads
>>> from strategytree.game import mastermind
>>> tree = loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
>>> print(guide_text(tree, mastermind(2, 3)))
guess AB        9 secrets
  10: guess AC  4 secrets
    10: it is AA
    01: it is CB
    00: it is BB
  02: it is BA
  01: guess BC  2 secrets
    01: it is CA
  00: it is CC
>>> print(guide_text(tree, mastermind(2, 3), path="AB 10", depth=0))
after AB 10
guess AC  4 secrets
  ...
>>> for row in lookup_rows(GuideTree.build(tree, mastermind(2, 3)))[:3]:
...     print(row.game)
AB 20
AB 10, AC 20
AB 10, AC 10, AA 20
>>> print(game_text(tree, mastermind(2, 3), "CA"))
1. AB  01
2. BC  01
3. CA  20  solved in 3 guesses
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .errors import CodeError, StrategyError
from .game import LETTERS, Game, Reply
from .tree import Node, Strategy, Visitor, walk

if TYPE_CHECKING:  # rich is imported only when colour is asked for
    from rich.text import Text

__all__ = [
    "GameRow",
    "GuideTree",
    "game_text",
    "guide_lines",
    "guide_text",
    "lookup_csv",
    "lookup_markdown",
    "lookup_rows",
    "parse_path",
    "play_secret",
]

#: the widest line the text guide aims at
COLUMNS = 80
#: deeper levels than this are not indented further; their lines start with ``[level]``
MAX_INDENT = 16


# -- the tree, flattened and replayed ------------------------------------------------
class _Flatten(Visitor):
    """Numbers the nodes in written order: guess, reply, parent, depth, subtree end."""

    def __init__(self) -> None:
        self.guess: list[str] = []
        self.reply: list[Reply | None] = []
        self.parent: list[int] = []
        self.depth: list[int] = []
        self.end: list[int] = []
        self.leaf: list[bool] = []
        self._open: list[int] = []

    def enter(self, node: Node, reply: Reply | None, depth: int) -> bool:
        self.parent.append(self._open[-1] if self._open else -1)
        self._open.append(len(self.guess))
        self.guess.append(node.guess)
        self.reply.append(reply)
        self.depth.append(depth)
        self.end.append(-1)
        self.leaf.append(not node.branches)
        return True

    def leave(self, node: Node, reply: Reply | None, depth: int) -> None:
        self.end[self._open.pop()] = len(self.guess)


@dataclass(eq=False)
class GuideTree:
    """A strategy in written (preorder) order, and how a game's secrets go through it.

    Node ``i``'s subtree is the range ``i .. end[i] - 1``; its children are
    ``i + 1``, then ``end`` of each child in turn (see :meth:`children`).
    Build one with :meth:`build`.
    """

    game: Game
    """the game whose secrets were replayed"""
    guess: list[str]
    """the guess of each node, in letters"""
    reply: list[Reply | None]
    """the reply on the branch that leads to each node (None at the root)"""
    parent: list[int]
    """index of each node's parent (-1 at the root)"""
    depth: list[int]
    """guesses made before each node (0 at the root)"""
    end: list[int]
    """one past the last index of each node's subtree"""
    leaf: list[bool]
    """whether the node is a known solution (no branches)"""
    visits: np.ndarray
    """how many secrets reach each node"""
    won: np.ndarray
    """index (in ``game.secrets``) of the secret each node's guess wins, or -1"""
    stuck: np.ndarray
    """how many secrets reach each node and go no further without a win"""

    @classmethod
    def build(cls, strategy: Strategy | Node, game: Game) -> GuideTree:
        """Flatten ``strategy`` with one walk, then send every secret of ``game`` through it."""
        root = strategy.root if isinstance(strategy, Strategy) else strategy
        flat = walk(root, _Flatten())
        assert isinstance(flat, _Flatten)
        visits, won, stuck = _replay(flat, game)
        return cls(game, flat.guess, flat.reply, flat.parent, flat.depth, flat.end,
                   flat.leaf, visits, won, stuck)

    def __len__(self) -> int:
        return len(self.guess)

    def children(self, i: int) -> list[int]:
        """Indices of the children of node ``i``, in written order."""
        out, c = [], i + 1
        while c < self.end[i]:
            out.append(c)
            c = self.end[c]
        return out

    def history(self, i: int) -> list[tuple[str, Reply]]:
        """The ``(guess, reply)`` steps that lead from the root to node ``i``."""
        steps = []
        while self.parent[i] >= 0:
            reply = self.reply[i]
            assert reply is not None
            steps.append((self.guess[self.parent[i]], reply))
            i = self.parent[i]
        return steps[::-1]

    def locate(self, path: str | list[tuple[str, Reply | None]] | None) -> int:
        """The node reached after a history such as ``"AABBC 10, ABCDE 21"``.

        A step may also be a reply alone (``"10, 21"``): the strategy's own
        guess is meant.  Raises :class:`StrategyError` naming the first step
        that does not exist in the strategy.
        """
        steps = parse_path(path) if isinstance(path, str) or path is None else path
        at = 0
        for number, (guess, reply) in enumerate(steps, 1):
            shown = f"{guess or self.guess[at]} {reply}"
            where = f"step {number} of the path ({shown})"
            if guess is not None and guess != self.guess[at]:
                raise StrategyError(
                    f"{where}: the strategy guesses {self.guess[at]} here, not {guess}"
                )
            if reply is None:  # a guess alone may end the path
                if number != len(steps):
                    raise StrategyError(f"{where}: a step needs a reply, e.g. {guess} 10")
                break
            if reply.black == self.game.pegs:
                raise StrategyError(f"{where}: {reply} is the win; the game ends there")
            if self.leaf[at]:
                raise StrategyError(
                    f"{where}: the strategy expects {self.guess[at]} to be the secret; "
                    "it has no replies after it"
                )
            kids = self.children(at)
            match = next((c for c in kids if self.reply[c] == reply), None)
            if match is None:
                have = ", ".join(str(self.reply[c]) for c in kids)
                raise StrategyError(
                    f"{where}: the strategy has no branch for reply {reply} to "
                    f"{self.guess[at]} (it has {have})"
                )
            at = match
        return at


def parse_path(text: str | None) -> list[tuple[str | None, Reply | None]]:
    """``"AABBC 10, abcde 21"`` -> ``[("AABBC", Reply(1, 0)), ("ABCDE", Reply(2, 1))]``.

    A step may be a reply alone (``"10"``), and the last one a guess alone.

    >>> parse_path("AB 10, 01")
    [('AB', Reply(black=1, white=0)), (None, Reply(black=0, white=1))]
    """
    if text is None or not text.strip():
        return []
    steps: list[tuple[str | None, Reply | None]] = []
    for number, raw in enumerate(text.split(","), 1):
        step = raw.strip()
        m = re.fullmatch(r"(?:([A-Za-z]+)\s*[: ]?\s*)?(?:(\d)(\d))?", step)
        if not step or m is None or (m.group(1) is None and m.group(2) is None):
            raise CodeError(
                f"step {number} of the path ({step!r}) is not a guess and a reply "
                "such as 'AABBC 10'"
            )
        guess = m.group(1).upper() if m.group(1) else None
        reply = Reply(int(m.group(2)), int(m.group(3))) if m.group(2) else None
        steps.append((guess, reply))
    return steps


def _replay(flat: _Flatten, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Send every secret down the flattened tree, node by node in written order.

    Parents come before their children in written order, so each node finds
    the secrets its parent sent it waiting; no recursion, one pass.  Large
    groups of secrets get their replies from the game in one call; small ones
    (most nodes), when the game's replies are bit counts, with plain integers,
    where numpy's overhead would dominate.
    """
    n, p = len(flat.guess), game.pegs
    # each guess as a row, whether it can be played, and the secret it is
    palette = frozenset(LETTERS[: game.colors])
    formed = np.fromiter(
        (len(g) == p and palette.issuperset(g) for g in flat.guess), bool, n
    )
    rows = np.zeros((n, p), dtype=np.uint8)
    if formed.any():
        text = "".join(g for g, ok in zip(flat.guess, formed) if ok)
        rows[formed] = (np.frombuffer(text.encode("ascii"), np.uint8) - 65).reshape(-1, p)
    gix = np.where(formed, game.guess_index(rows), -1).tolist()
    as_secret = np.where(formed, game.secret_index(rows), -1).tolist()
    # the reply code of each reply written bw, or -1 for a reply the game never gives
    code_of = [
        -1 if game.reply_problem(Reply(*divmod(bw, 10))) else game.reply_code(Reply(*divmod(bw, 10)))
        for bw in range(100)
    ]
    bitwise = getattr(game, "scoring", "black-white") != "table"
    gpos, gcnt = game.guess_bits if bitwise else (None, None)
    spos, scnt = game.secret_bits if bitwise else (None, None)
    leaf, end, replies = flat.leaf, flat.end, flat.reply

    visits = [0] * n
    won = [-1] * n
    stuck = [0] * n
    waiting: dict[int, np.ndarray | list[int]] = {0: np.arange(len(game.secrets))} if n else {}
    stride, win = p + 1, game.win
    cache: dict[int, tuple[list[int], list[int]]] = {}

    def bits(k: int) -> tuple[list[int], list[int]]:
        if k not in cache:
            cache[k] = (spos[k].tolist(), scnt[k].tolist())
        return cache[k]

    for i in range(n):
        here = waiting.pop(i, None)
        if here is None:
            continue
        count = len(here)
        visits[i] = count
        g = gix[i]
        if g < 0:  # a guess the game does not allow (or not a code): everyone stops here
            stuck[i] = count
            continue
        s = as_secret[i]
        if count <= _FEW and not isinstance(here, list):
            here = here.tolist()
        if leaf[i]:
            hit = s >= 0 and (s in here if isinstance(here, list) else bool((here == s).any()))
            won[i] = s if hit else -1
            stuck[i] = count - hit
            continue
        if isinstance(here, list) and bitwise:
            mine = (gpos[g].tolist(), gcnt[g].tolist())
            reply: np.ndarray | list[int] = [_reply_code(mine, bits(k), stride) for k in here]
            wins = win in reply
        else:
            secrets = np.asarray(here)
            reply = game.pair_replies(np.full(len(secrets), g), secrets)
            wins = bool((reply == win).any())
            if isinstance(here, list):
                reply = reply.tolist()
        if s >= 0 and wins:
            won[i] = s
        left = count - (won[i] >= 0)
        c, taken = i + 1, set()
        while c < end[i]:
            r = replies[c]
            assert r is not None
            code = code_of[10 * r.black + r.white] if r.black < 10 and r.white < 10 else -1
            if code >= 0 and code != win and code not in taken:
                taken.add(code)
                if isinstance(here, list):
                    part: np.ndarray | list[int] = [k for k, x in zip(here, reply) if x == code]
                else:
                    part = here[reply == code]
                if len(part):
                    waiting[c] = part
                    left -= len(part)
            c = end[c]
        stuck[i] = left
    return np.array(visits, dtype=np.int64), np.array(won, dtype=np.int64), np.array(
        stuck, dtype=np.int64
    )


#: below this many secrets at a node, the replay computes replies with plain integers
_FEW = 8


def _reply_code(guess: tuple[list[int], list[int]], secret: tuple[list[int], list[int]],
                stride: int) -> int:
    black = sum((a & b).bit_count() for a, b in zip(guess[0], secret[0]))
    both = sum((a & b).bit_count() for a, b in zip(guess[1], secret[1]))
    return black * stride + both - black


# -- the text guide -----------------------------------------------------------------
def _plural(count: int) -> str:
    return f"{count} secret" + ("" if count == 1 else "s")


def guide_lines(
    tree: GuideTree, start: int = 0, depth: int | None = None
) -> list[list[tuple[str, str]]]:
    """The text guide of the subtree at ``start``, as lines of ``(text, style)`` pieces.

    Each line is a node: the reply that leads to it, then its guess and how
    many secrets are still possible there (a leaf: the secret it names).
    Below ``depth`` levels of replies a subtree is shown as ``...``.
    """
    base = tree.depth[start]
    lines: list[list[tuple[str, str]]] = []
    labels: list[str | None] = []
    i, stop = start, tree.end[start]
    while i < stop:
        level = tree.depth[i] - base
        indent = "  " * min(level, MAX_INDENT)
        pieces: list[tuple[str, str]] = []
        if level > MAX_INDENT:
            pieces.append((f"[{level}] ", "dim"))
        pieces.append((indent, ""))
        if i != start:
            pieces.append((f"{tree.reply[i]}: ", "yellow"))
        count = int(tree.visits[i])
        if tree.leaf[i]:
            pieces += [("it is ", ""), (tree.guess[i], "bold green")]
            note = None
            if count == 0:
                note = "  (no secret comes here)"
            elif tree.won[i] < 0 or count > 1:
                note = f"  ({_plural(count)} come here, {int(tree.stuck[i])} not solved)"
            if note:
                pieces.append((note, "red"))
            labels.append(None)
        else:
            pieces += [("guess ", ""), (tree.guess[i], "bold cyan")]
            labels.append(_plural(count))
        lines.append(pieces)
        if not tree.leaf[i] and depth is not None and level >= depth:
            more = "  " * min(level + 1, MAX_INDENT)
            lines.append([(more, ""), ("...", "dim")])
            labels.append(None)
            i = tree.end[i]
        else:
            i += 1
    # counts in one column, as far left as the lines allow, within COLUMNS
    widths = [sum(len(t) for t, _ in line) for line, label in zip(lines, labels) if label]
    if widths:
        widest = max(len(label) for label in labels if label)
        column = min(max(widths) + 2, max(COLUMNS - widest - 1, 0))
        for line, label in zip(lines, labels):
            if label:
                used = sum(len(t) for t, _ in line)
                line.append((" " * max(column - used, 1) + label, "dim"))
    return lines


def _header(tree: GuideTree, start: int) -> list[tuple[str, str]]:
    steps = ", ".join(f"{g} {r}" for g, r in tree.history(start))
    return [("after ", "dim"), (steps, "yellow")]


def guide_text(
    strategy: Strategy | GuideTree,
    game: Game | None = None,
    *,
    depth: int | None = None,
    path: str | None = None,
) -> str:
    """The strategy as an indented guide: each guess, each reply, what next.

    Each guess shows how many secrets of ``game`` are still possible when it
    is played; ``depth`` shows only that many levels of replies; ``path``
    (``"AABBC 10, ABCDE 21"``) shows only what follows that history.
    """
    tree = _tree(strategy, game)
    start = tree.locate(path)
    lines = guide_lines(tree, start, depth)
    if start:
        lines.insert(0, _header(tree, start))
    return "\n".join("".join(t for t, _ in line).rstrip() for line in lines)


def guide_rich(
    strategy: Strategy | GuideTree,
    game: Game | None = None,
    *,
    depth: int | None = None,
    path: str | None = None,
) -> Text:
    """:func:`guide_text` as a rich :class:`~rich.text.Text`, in colour."""
    from rich.text import Text

    tree = _tree(strategy, game)
    start = tree.locate(path)
    lines = guide_lines(tree, start, depth)
    if start:
        lines.insert(0, _header(tree, start))
    out = Text()
    for n, line in enumerate(lines):
        if n:
            out.append("\n")
        for text, style in line:
            out.append(text, style or None)
    return out


def _tree(strategy: Strategy | GuideTree, game: Game | None) -> GuideTree:
    if isinstance(strategy, GuideTree):
        return strategy
    if game is None:
        from .verify import infer_game

        game = infer_game(strategy)[0]
    return GuideTree.build(strategy, game)


# -- the lookup table ----------------------------------------------------------------
@dataclass(frozen=True)
class GameRow:
    """One complete game of a lookup table."""

    secret: str
    """the secret, in letters"""
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
    prefix = [f"{g} {r}" for g, r in tree.history(start)]
    base = tree.depth[start]
    steps: list[str] = []  # the steps from ``start`` to the current node
    rows: list[GameRow] = []
    for i in range(start, tree.end[start]):
        level = tree.depth[i] - base
        del steps[max(level - 1, 0):]
        if level:
            steps.append(f"{tree.guess[tree.parent[i]]} {tree.reply[i]}")
        if tree.won[i] >= 0:
            moves = prefix + steps + [f"{tree.guess[i]} {winning}"]
            rows.append(GameRow(tree.guess[i], len(moves), ", ".join(moves)))
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


# -- one game -------------------------------------------------------------------------
def play_secret(
    strategy: Strategy, game: Game, secret: str
) -> tuple[list[tuple[str, Reply]], str | None]:
    """The guesses the strategy makes against ``secret`` and the replies it gets.

    Returns the moves and None when the last reply is the win, or the moves so
    far and why the strategy stops there.
    """
    code = game.parse_code(secret)
    if game.secret_index(code)[0] < 0:
        raise StrategyError(f"{secret} is not a possible secret of {game.name}")
    moves: list[tuple[str, Reply]] = []
    node: Node | None = strategy.root
    while node is not None:
        reply = game.reply(game.feedback(game.parse_code(node.guess), code))
        moves.append((node.guess, reply))
        if reply.black == game.pegs:
            return moves, None
        if node.is_leaf:
            return moves, f"the strategy expected {node.guess}, but the secret is {secret.upper()}"
        if node.child(reply) is None:
            return moves, f"the strategy has no branch for reply {reply} to {node.guess}"
        node = node.child(reply)
    raise AssertionError("unreachable")  # pragma: no cover


def game_text(strategy: Strategy, game: Game, secret: str) -> str:
    """The game the strategy plays against ``secret``, one guess a line."""
    moves, problem = play_secret(strategy, game, secret)
    lines = [f"{i}. {guess}  {reply}" for i, (guess, reply) in enumerate(moves, 1)]
    end = f"  solved in {len(moves)} guesses" if problem is None else f"\nnot solved: {problem}"
    return "\n".join(lines) + end
