"""Lookup guides: a strategy written so that a person can follow it.

A strategy is flattened once into a :class:`GuideTree` (the
:class:`~strategytree.replay.FlatTree` of :mod:`strategytree.replay`: its
nodes in written order, as flat lists) and every secret of a game replayed
through it: how many secrets reach each node and which secret each node wins.  Every
form of guide reads those lists: the indented text guide, the lookup table
of complete games (:mod:`strategytree.formats.lookup`), the DOT text
(:mod:`strategytree.formats.graphviz`), the HTML page of
:mod:`strategytree.export` and the statistics of :mod:`strategytree.stats`.

Codes are spelled in the game's alphabet (digits for Bulls and Cows and
Bagel, :class:`~strategytree.spelling.Alphabet`), in every form of guide and
in the paths and secrets given to it; strategy files keep letters.

>>> from strategytree.formats.brace import loads
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
>>> from strategytree.formats.lookup import lookup_rows
>>> for row in lookup_rows(GuideTree.build(tree, mastermind(2, 3)))[:3]:
...     print(row.game)
AB 20
AB 10, AC 20
AB 10, AC 10, AA 20
>>> print(game_text(tree, mastermind(2, 3), "CA"))
1. AB  01
2. BC  01
3. CA  20  solved in 3 guesses
>>> from strategytree.presets import preset
>>> print(guide_text(loads("{ABC:{20:ABD}}"), preset("bagel"), path="012 b2 w0"))
after 012 20
it is 013  (21 secrets come here, 20 not solved)
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from .errors import StrategyError
from .game import Game, Reply
from .presets import resolve_game
from .replay import FlatTree, Replay, replay, reply_codes
from .spelling import Alphabet, Step, alphabet_for, parse_path, secret_index
from .tree import Node, Strategy
from .words import plural

if TYPE_CHECKING:  # rich is imported only when colour is asked for
    from rich.text import Text

__all__ = [
    "GuideTree",
    "game_text",
    "guide_lines",
    "guide_text",
    "parse_path",
    "play_secret",
    "played_json",
    "played_text",
]

#: the widest line the text guide aims at
COLUMNS = 80
#: deeper levels than this are not indented further; their lines start with ``[level]``
MAX_INDENT = 16


# -- the tree, flattened and replayed ------------------------------------------------
class GuideTree(FlatTree):
    """A strategy in written (preorder) order (a :class:`~strategytree.replay.FlatTree`),
    and how every secret of a game goes through it (a :class:`~strategytree.replay.Replay`).

    Node ``i``'s subtree is the range ``i .. end[i] - 1``; its children are
    ``i + 1``, then ``end`` of each child in turn (see :meth:`children`).
    Build one with :meth:`build`.
    """

    def __init__(
        self, strategy: Strategy | Node, game: Game, alphabet: Alphabet | None = None
    ) -> None:
        super().__init__(strategy, game)
        self.played: Replay = replay(self)
        """every secret of the game, replayed"""
        self.alphabet: Alphabet = alphabet or alphabet_for(game)
        """how codes are spelled in the guide (by default the game's own alphabet)"""

    @classmethod
    def build(
        cls, strategy: Strategy | Node, game: Game, alphabet: Alphabet | None = None
    ) -> GuideTree:
        """Flatten ``strategy`` with one walk, then send every secret of ``game`` through it
        (codes spelled in ``alphabet``, by default the game's)."""
        return cls(strategy, game, alphabet)

    @cached_property
    def shown(self) -> list[str]:
        """The guess of each node as the guide spells it (:attr:`alphabet`)."""
        return [self.alphabet.word(g) for g in self.guess]

    def steps(self, i: int) -> list[str]:
        """The steps that lead from the root to node ``i``, spelled: ``["012 10", ...]``."""
        return [f"{self.alphabet.word(g)} {r}" for g, r in self.history(i)]

    @property
    def visits(self) -> np.ndarray:
        """How many secrets reach each node."""
        return self.played.visits

    @property
    def won(self) -> np.ndarray:
        """Index (in ``game.secrets``) of the secret each node's guess wins, or -1."""
        return self.played.won

    @property
    def stuck(self) -> np.ndarray:
        """How many secrets reach each node and go no further without a win."""
        return self.played.stuck

    def locate(self, path: str | list[Step] | None) -> int:
        """The node reached after a history such as ``"AABBC 10, ADEFE 40"``
        (read by :func:`~strategytree.spelling.parse_path`, codes in
        :attr:`alphabet`; steps already read have their guesses in letters).

        A step may also be a reply alone (``"10, 21"``): the strategy's own
        guess is meant.  Raises :class:`StrategyError` naming the first step
        that does not exist in the strategy.
        """
        if isinstance(path, str) or path is None:
            steps = parse_path(path, self.game, self.alphabet)
        else:
            steps = path
        at = 0
        codes = reply_codes(self.game)
        spell = self.alphabet.word
        for number, (guess, reply) in enumerate(steps, 1):
            said = spell(guess or self.guess[at])
            where = f"step {number} of the path ({said if reply is None else f'{said} {reply}'})"
            if guess is not None and guess != self.guess[at]:
                raise StrategyError(
                    f"{where}: the strategy guesses {self.shown[at]} here, not {said}"
                )
            if reply is None:  # a guess alone may end the path
                if number != len(steps):
                    raise StrategyError(f"{where}: a step needs a reply, e.g. {said} 10")
                break
            if reply.black == self.game.pegs:
                raise StrategyError(f"{where}: {reply} is the win; the game ends there")
            if self.leaf[at]:
                raise StrategyError(
                    f"{where}: the strategy expects {self.shown[at]} to be the secret; "
                    "it has no replies after it"
                )
            code = int(codes[10 * reply.black + reply.white])
            if code < 0 and (why := self.game.reply_problem(reply)) is not None:
                raise StrategyError(f"{where}: no guess of {self.game.name} gets reply {reply}"
                                    f" ({why})")
            match = self.child(at, code) if code >= 0 else -1
            if match < 0:
                have = ", ".join(str(self.reply[c]) for c in self.children(at))
                raise StrategyError(
                    f"{where}: the strategy has no branch for reply {reply} to "
                    f"{self.shown[at]} (it has {have})"
                )
            at = match
        return at


# -- the text guide -----------------------------------------------------------------
def _plural(count: int) -> str:
    return f"{count:,} secret" + ("" if count == 1 else "s")


def reply_legend(game: Game) -> str | None:
    """How the replies of ``game``'s guides read, in one line (None for a game
    whose replies are numbered, :func:`~strategytree.game.custom`).

    >>> from strategytree.game import mastermind
    >>> from strategytree.presets import preset
    >>> print(reply_legend(mastermind(4, 6)))
    replies: 21 = 2 black (right colour, right place), 1 white (right colour, wrong place)
    >>> print(reply_legend(preset("bulls-and-cows")))
    replies: 21 = 2 bulls (right digit, right place), 1 cow (right digit, wrong place)
    >>> print(reply_legend(preset("black-only")))
    replies: 20 = 2 black (right colour, right place); the second digit is always 0
    """
    scoring = getattr(game, "scoring", "black-white")
    if scoring == "table":
        return None
    words = game.reply_words
    thing = "digit" if game.symbols == "digits" else "colour"
    # a reply the game gives (never b = pegs - 1 with w = 1)
    b, w = {1: (1, 0), 2: (0, 2), 3: (1, 1)}.get(game.pegs, (2, 1))
    shown = f"{b}{0 if scoring == 'black-only' else w}"
    black = f"{shown} = {words.count(b)} (right {thing}, right place)"
    if scoring == "black-only":
        return f"replies: {black}; the second digit is always 0"
    if not w:
        return f"replies: {black}"
    white = words.count(b, w).split(", ")[1]
    return f"replies: {black}, {white} (right {thing}, wrong place)"


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
            pieces += [("it is ", ""), (tree.shown[i], "bold green")]
            note = None
            if count == 0:
                note = "  (no secret comes here)"
            elif tree.won[i] < 0 or count > 1:
                note = f"  ({_plural(count)} come here, {int(tree.stuck[i])} not solved)"
            if note:
                pieces.append((note, "red"))
            labels.append(None)
        else:
            pieces += [("guess ", ""), (tree.shown[i], "bold cyan")]
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
    return [("after ", "dim"), (", ".join(tree.steps(start)), "yellow")]


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
    (``"AABBC 10, ADEFE 40"``) shows only what follows that history.
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
        game = resolve_game(strategy=strategy)[0]
    return GuideTree.build(strategy, game)


# -- one game -------------------------------------------------------------------------
def play_secret(
    strategy: Strategy, game: Game, secret: str, alphabet: Alphabet | None = None
) -> tuple[list[tuple[str, Reply]], str | None]:
    """The guesses the strategy makes against ``secret`` and the replies it gets.

    ``secret`` and the guesses returned are spelled in ``alphabet`` (by
    default the game's; a digits game reads a secret in letters too).
    Returns the moves and None when the last reply is the win, or the moves so
    far and why the strategy stops there.
    """
    alphabet = alphabet or alphabet_for(game)
    index = secret_index(game, secret, alphabet)
    tree = FlatTree(strategy, game)
    played = replay(tree, np.array([index]))
    moves = [(alphabet.text(game, g), game.reply(r)) for g, r in played.moves(0)]
    return moves, played.reason(0)


def game_text(
    strategy: Strategy, game: Game, secret: str, alphabet: Alphabet | None = None
) -> str:
    """The game the strategy plays against ``secret``, one guess a line."""
    return played_text(*play_secret(strategy, game, secret, alphabet))


def played_text(moves: list[tuple[str, Reply]], problem: str | None) -> str:
    """A game as :func:`play_secret` returns it, one guess a line, then how it ended."""
    lines = [f"{i}. {guess}  {reply}" for i, (guess, reply) in enumerate(moves, 1)]
    end = (f"  solved in {plural(len(moves), 'guess')}" if problem is None
           else f"\nnot solved: {problem}")
    return "\n".join(lines) + end


def played_json(
    game: Game, secret: str, moves: list[tuple[str, Reply]], problem: str | None
) -> dict[str, object]:
    """The ``show --secret --json`` shape of a game as :func:`play_secret` returns it:
    ``game``, ``secret``, ``moves`` (``guess``, ``reply``), ``guesses``, ``solved``
    and ``reason`` (why the strategy stops, None when solved); codes in the game's
    alphabet."""
    alphabet = alphabet_for(game)
    return {
        "game": game.name,
        "secret": alphabet.text(game, secret_index(game, secret, alphabet), secret=True),
        "moves": [{"guess": g, "reply": str(r)} for g, r in moves],
        "guesses": len(moves),
        "solved": problem is None,
        "reason": problem,
    }
