"""Playing one game with a person: replies and guesses typed as text, the
secrets that still fit, contradictions, and an adversary that answers so as to
keep the most secrets alive.

Codes and replies are read and spelled by :mod:`strategytree.spelling`
(:class:`~strategytree.spelling.Alphabet`, :func:`~strategytree.spelling.parse_reply`;
their names are kept here too), by default in the game's own alphabet.  The
pieces are library calls; :func:`computer_breaks` and :func:`you_break` are
the two interactive games of ``strategytree play``, written against a
two-method :class:`Terminal` so that tests can drive them with a script.

>>> from strategytree.game import mastermind
>>> game = mastermind(4, 6)
>>> [str(game.reply(parse_reply(game, text))) for text in ("1 2", "12", "b1 w2", "w2 b1")]
['12', '12', '12', '12']
>>> known = Knowledge(game)
>>> known.add(guess_index(game, "AABB"), parse_reply(game, "1 1"))
>>> len(known.candidates)
208
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from . import feedback
from .builders import GreedyChooser, draws_at_random
from .errors import (
    ArgumentError,
    CodeError,
    StrategyError,
    StrategyTreeError,
    check_whole,
    refuse_inert,
)
from .game import CodeIndex, Game, ReplyCode
from .outcome import INVALID, CommandOutcome
from .replay import FlatTree
from .spelling import (
    ALPHABETS,
    LETTERS_ONLY,
    Alphabet,
    alphabet_for,
    guess_index,
    parse_reply,
)
from .tree import Strategy
from .words import plural

__all__ = [
    "play",
    "play_outcome",
    "ALPHABETS",
    "LETTERS_ONLY",
    "Alphabet",
    "Contradiction",
    "Knowledge",
    "Outcome",
    "RuleBreaker",
    "StrategyBreaker",
    "Suspect",
    "Terminal",
    "adversary_game",
    "adversary_reply",
    "alphabet_for",
    "breaker_for",
    "check_play",
    "computer_breaks",
    "draw_secret",
    "guess_index",
    "parse_reply",
    "you_break",
]

#: lists of secrets are printed only when at most this many are left
SHOWN_CANDIDATES = 10


# -- replies as text ---------------------------------------------------------------
def _reply_hint(game: Game) -> str:
    if game.scoring == "black-only":
        return "the number of blacks (e.g. 2)"
    if game.scoring == "table":
        return "the reply's two digits"
    words = game.reply_words
    example = (f"1 {words.black} 2 {words.white}s" if words.plural
               else f"{words.black[0]}1 {words.white[0]}2")
    return f"{words.black}s and {words.white}s (1 2, 12 or {example})"


def reply_words(game: Game, code: ReplyCode) -> str:
    """A reply as a person reads it, in the game's words
    (:attr:`Game.reply_words <strategytree.game.Game.reply_words>`):
    ``1 black, 2 white`` (``1 bull, 2 cows``)."""
    if game.scoring == "table":
        return game.label(code)
    b, w = game.reply(code)
    if game.scoring == "black-only":
        return game.reply_words.count(b)
    return game.reply_words.count(b, w)


# -- what the replies so far leave -------------------------------------------------
@dataclass(frozen=True)
class Suspect:
    """A reply that may be the wrong one: without it, some secrets fit the others."""

    turn: int
    """which guess (1 for the first)"""
    guess: CodeIndex
    reply: ReplyCode
    """the reply that was given"""
    alternatives: dict[ReplyCode, int]
    """replies that would fit, and how many secrets each would leave"""


class Contradiction(StrategyTreeError):
    """No secret fits all the replies.  ``suspects`` are the replies that, if
    wrong, would explain it; ``fitting_turns`` is how many replies, from the
    first, still leave secrets."""

    def __init__(self, message: str, suspects: list[Suspect], fitting_turns: int) -> None:
        super().__init__(message)
        self.suspects = suspects
        self.fitting_turns = fitting_turns


class Knowledge:
    """The guesses played, the replies they got, and the secrets that fit them."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[tuple[CodeIndex, ReplyCode]] = []
        """(guess, reply) pairs, in order"""
        self._rows: list[np.ndarray] = []  # the replies of each guess against every secret
        self.candidates = np.arange(len(game.secrets))
        """the secrets (indices into ``game.secrets``) that fit every reply"""

    @property
    def guesses(self) -> list[CodeIndex]:
        return [g for g, _ in self.history]

    def replies(self, guess: CodeIndex) -> np.ndarray:
        """The reply of ``guess`` to every secret of the game (int64)."""
        return feedback.replies(self.game, int(guess)).astype(np.int64)

    def problem(
        self, guess: CodeIndex, reply: ReplyCode, alphabet: Alphabet | None = None
    ) -> str | None:
        """Why no secret of the game at all could give ``reply`` to ``guess``, or None
        (codes spelled in ``alphabet``, by default the game's)."""
        alphabet = alphabet or alphabet_for(self.game)
        row = self.replies(guess)
        if (row == reply).any():
            return None
        possible = sorted({int(r) for r in np.unique(row)})
        return (
            f"no secret can reply {self.game.reply(reply)} to {alphabet.text(self.game, guess)}; "
            f"it can get only {', '.join(str(self.game.reply(r)) for r in possible)}"
        )

    def add(self, guess: CodeIndex, reply: ReplyCode, alphabet: Alphabet | None = None) -> None:
        """Record a reply.  Raises :class:`CodeError` when no secret could give it
        to this guess, :class:`Contradiction` when no secret fits every reply
        (nothing is recorded then)."""
        row = self.replies(guess)
        if not (row == reply).any():
            raise CodeError(self.problem(guess, reply, alphabet) or "")
        left = self.candidates[row[self.candidates] == reply]
        if not len(left):
            raise self._contradiction(guess, reply, row, alphabet or alphabet_for(self.game))
        self.history.append((int(guess), int(reply)))
        self._rows.append(row)
        self.candidates = left

    def undo(self) -> bool:
        """Take back the last reply (and its guess); False when there is none."""
        if not self.history:
            return False
        self.history.pop()
        self._rows.pop()
        fits = np.ones(len(self.game.secrets), dtype=bool)
        for (_, r), row in zip(self.history, self._rows):
            fits &= row == r
        self.candidates = np.flatnonzero(fits)
        return True

    def suspects(self, extra: tuple[CodeIndex, ReplyCode] | None = None) -> list[Suspect]:
        """The replies (with ``extra`` as the last) whose change alone makes some secret fit."""
        history = self.history + ([extra] if extra else [])
        rows = self._rows + ([self.replies(extra[0])] if extra else [])
        fits = np.array([row == r for (_, r), row in zip(history, rows)])
        out = []
        for i, ((g, r), row) in enumerate(zip(history, rows)):
            others = (np.delete(fits, i, axis=0).all(axis=0) if len(history) > 1
                      else np.ones(fits.shape[1], bool))
            if not others.any():
                continue
            values, counts = np.unique(row[others], return_counts=True)
            alternatives = {int(v): int(c) for v, c in zip(values, counts) if v != r}
            out.append(Suspect(i + 1, g, r, alternatives))
        return out

    def _contradiction(
        self, guess: CodeIndex, reply: ReplyCode, row: np.ndarray, alphabet: Alphabet
    ) -> Contradiction:
        game = self.game
        suspects = self.suspects((guess, reply))
        turn = len(self.history) + 1
        left = len(self.candidates)
        said = "reply leaves" if turn == 2 else f"{turn - 1} replies leave"
        first = (
            f"no secret fits all your replies: your first {said} {plural(left, 'secret')}, "
            f"and {'it does not give' if left == 1 else 'none of them gives'} "
            f"{game.reply(reply)} to {alphabet.text(game, guess)}."
        )
        lines = [first]
        if turn == 1:
            lines[0] = f"no secret gives {game.reply(reply)} to {alphabet.text(game, guess)}."
        if suspects:
            lines.append("One of these replies must be wrong:")
            for s in suspects:
                fixes = ", ".join(
                    f"{game.reply(r)} ({n:,} secret{'s' * (n != 1)})"
                    for r, n in sorted(s.alternatives.items(), key=lambda kv: -kv[1])[:4]
                )
                which = "this reply" if s.turn == turn else f"reply {s.turn}"
                lines.append(
                    f"  {which}: {alphabet.text(game, s.guess)} got {game.reply(s.reply)}; "
                    f"would fit as {fixes}"
                )
        else:
            lines.append(
                f"More than one reply must be wrong; replies 1 to {turn - 1} are the last that fit."
            )
        return Contradiction("\n".join(lines), suspects, turn - 1)


def adversary_reply(game: Game, guess: CodeIndex, candidates: np.ndarray) -> ReplyCode:
    """The reply that keeps the most candidates alive (the "best evaluation"):
    the largest part of the split ``guess`` makes; ties go to a reply that is
    not the win, then to the lowest reply code.

    >>> from strategytree.game import mastermind
    >>> game = mastermind(4, 6)
    >>> str(game.reply(adversary_reply(game, 7, np.arange(1296))))  # AABB
    '00'
    """
    row = feedback.replies(game, int(guess), np.asarray(candidates, dtype=np.int64))
    counts = np.bincount(row.astype(np.int64), minlength=game.n_replies)
    key = counts * 2
    if counts[game.win]:
        key[game.win] -= 1  # the win (a part of one) loses ties
    return int(np.argmax(key))  # the first of the best: the lowest reply code


def draw_secret(game: Game, seed: int | None = None) -> CodeIndex:
    """A secret drawn at random (``seed`` makes it reproducible)."""
    return int(np.random.default_rng(seed).integers(len(game.secrets)))


# -- the computer's guesses ---------------------------------------------------------
class RuleBreaker:
    """Guesses with a one-step rule, built as the game goes (:class:`GreedyChooser`)."""

    def __init__(self, chooser: GreedyChooser) -> None:
        self.chooser = chooser
        self.note: str | None = None

    def next_guess(self, known: Knowledge) -> CodeIndex:
        self.note = None
        return self.chooser.next_guess(known.candidates, known.guesses)


class StrategyBreaker:
    """Follows a strategy file; where it has no branch for a reply (or its guess
    does not fit the game), goes on with ``fallback`` and says so in :attr:`note`."""

    def __init__(self, strategy: Strategy, game: Game, fallback: GreedyChooser) -> None:
        self.strategy = strategy
        self.game = game
        self.fallback = fallback
        self.note: str | None = None
        self._warned = False
        self._tree: FlatTree | None = None

    def next_guess(self, known: Knowledge) -> CodeIndex:
        self.note = None
        if self._tree is None:
            self._tree = FlatTree(self.strategy, self.game)
        tree, win = self._tree, self.game.win
        replies = []
        for _, r in known.history:
            if r == win:
                break
            replies.append(r)
        node, missing = tree.follow(replies)
        if missing is not None:
            reply = self.game.reply(missing)
            problem = f"the strategy has no branch for reply {reply} to {tree.guess[node]}"
        else:
            index = int(tree.guess_index[node])
            if index >= 0:
                return index
            problem = (f"the strategy's guess {tree.guess[node]} is not an allowed guess "
                       f"of {self.game.name}")
        if not self._warned:
            self.note = f"{problem}; going on with the {self.fallback.rule} rule"
            self._warned = True
        return self.fallback.next_guess(known.candidates, known.guesses)


# -- the interactive games ----------------------------------------------------------
class Terminal(Protocol):
    """Where a game talks to a person."""

    def ask(self, prompt: str) -> str:
        """A line typed by the person (raises EOFError at the end of input)."""

    def say(self, text: str) -> None:
        """Show a line (or several)."""


@dataclass
class Outcome:
    """How a game ended."""

    moves: list[tuple[CodeIndex, ReplyCode]] = field(default_factory=list)
    """the guesses and their replies"""
    secret: str | None = None
    """the secret as shown to the person, when the game was won"""
    solved: bool = False
    """False when the person stopped the game"""
    note: str | None = None
    """what the computer's guesser said at its last guess (a strategy without a
    branch for a reply, going on with its rule), in games without a person"""

    @property
    def guesses(self) -> int:
        return len(self.moves)


QUIT = ("q", "quit", "exit", "bye")


def computer_breaks(
    game: Game,
    breaker: RuleBreaker | StrategyBreaker,
    terminal: Terminal,
    alphabet: Alphabet | None = None,
) -> Outcome:
    """The computer guesses, the person replies to each guess (codes spelled in
    ``alphabet``, by default the game's).

    Replies no secret could give are refused with the reason; when no secret
    fits every reply the game says which replies may be wrong, and the person
    retypes the reply or types ``undo`` to take back the last one.
    """
    known = Knowledge(game)
    alphabet = alphabet or alphabet_for(game)
    terminal.say(
        f"Think of a secret of {game.name}: {plural(game.pegs, 'peg')}, colours "
        f"{alphabet.colours(game)}. "
        f"Reply to each guess with {_reply_hint(game)}; 'undo' takes back a reply, 'quit' stops."
    )
    while True:
        guess = breaker.next_guess(known)
        if breaker.note:
            terminal.say(breaker.note)
        turn = len(known.history) + 1
        shown = alphabet.text(game, guess)
        terminal.say(f"guess {turn}: {shown}")
        while True:
            line = terminal.ask(f"reply to {shown}> ").strip()
            if line.lower() in QUIT:
                return Outcome(list(known.history))
            if line.lower() == "undo":
                if known.undo():
                    terminal.say(f"took back the reply to guess {turn - 1}")
                    break
                terminal.say("nothing to take back")
                continue
            try:
                reply = parse_reply(game, line)
                known.add(guess, reply, alphabet)
            except StrategyTreeError as problem:
                terminal.say(str(problem))
                continue
            break
        if len(known.history) < turn:  # undone
            continue
        if reply == game.win:
            terminal.say(f"Solved: your secret is {shown}, "
                         f"found in {turn} guess{'es' * (turn != 1)}.")
            return Outcome(list(known.history), shown, True)
        left = len(known.candidates)
        if left <= 3:
            listed = ", ".join(alphabet.text(game, game.secrets[s]) for s in known.candidates)
            terminal.say(f"{left} secret{'s' * (left != 1)} fit{'s' * (left == 1)}: {listed}")


def you_break(
    game: Game,
    terminal: Terminal,
    alphabet: Alphabet | None = None,
    *,
    secret: CodeIndex | None = None,
    hints: bool = False,
) -> Outcome:
    """The person guesses; the computer replies for ``secret`` (an index into
    ``game.secrets``), or, when it is None, as the adversary that keeps the
    most secrets alive.  ``hints`` shows how many secrets still fit (and which,
    when few).  Codes are spelled and read in ``alphabet``, by default the game's
    (a digits game reads letters too: :class:`~strategytree.spelling.Alphabet`)."""
    known = Knowledge(game)
    alphabet = alphabet or alphabet_for(game)
    who = ("I have chosen a secret" if secret is not None
           else "I will answer so as to keep the most secrets possible")
    terminal.say(
        f"{who} of {game.name}: {plural(game.pegs, 'peg')}, colours {alphabet.colours(game)}. "
        "Type your guesses; 'quit' stops."
    )
    while True:
        turn = len(known.history) + 1
        line = terminal.ask(f"guess {turn}> ").strip()
        if line.lower() in QUIT:
            if secret is not None:
                terminal.say(f"The secret was {alphabet.text(game, secret, secret=True)}.")
            return Outcome(list(known.history))
        try:
            guess = guess_index(game, line, alphabet)
        except CodeError as problem:
            terminal.say(str(problem))
            continue
        if secret is not None:
            reply = int(game.feedback(game.guesses[guess], game.secrets[secret]))
        else:
            reply = adversary_reply(game, guess, known.candidates)
        known.add(guess, reply)
        shown = alphabet.text(game, guess)
        if reply == game.win:
            terminal.say(
                f"{shown}: solved! The secret is {shown}; "
                f"you found it in {turn} guess{'es' * (turn != 1)}."
            )
            return Outcome(list(known.history), shown, True)
        terminal.say(f"{shown}: {game.reply(reply)}  ({reply_words(game, reply)})")
        if hints:
            left = known.candidates
            text = f"{len(left):,} secret{'s' * (len(left) != 1)} fit{'s' * (len(left) == 1)}"
            if len(left) <= SHOWN_CANDIDATES:
                text += ": " + ", ".join(alphabet.text(game, game.secrets[s]) for s in left)
            terminal.say(text)


def breaker_for(
    game: Game,
    strategy: Strategy | None = None,
    rule: str = "entropy",
    pool: str = "all",
    *,
    seed: int = 0,
    first: str | None = None,
) -> RuleBreaker | StrategyBreaker:
    """The computer's guesser: ``strategy`` when given (the rule takes over
    where it has no branch), else the rule (:class:`GreedyChooser`'s
    ``rule``, ``pool``, ``seed`` and ``first``)."""
    chooser = GreedyChooser(game, rule, pool, seed=seed, first=first)
    return RuleBreaker(chooser) if strategy is None else StrategyBreaker(strategy, game, chooser)


def adversary_game(
    game: Game, breaker: RuleBreaker | StrategyBreaker, max_guesses: int = 100
) -> Outcome:
    """The computer guesses and the adversary replies: the worst case the
    adversary finds for the breaker (no person involved)."""
    known = Knowledge(game)
    while len(known.history) < max_guesses:
        guess = breaker.next_guess(known)
        reply = adversary_reply(game, guess, known.candidates)
        known.add(guess, reply)
        if reply == game.win:
            secret = alphabet_for(game).text(game, guess)
            return Outcome(list(known.history), secret, True, breaker.note)
    return Outcome(list(known.history), note=breaker.note)


def moves_text(
    game: Game, moves: Sequence[tuple[CodeIndex, ReplyCode]], alphabet: Alphabet | None = None
) -> str:
    """``AABB 11, ABCD 40``: the path of a game, as :mod:`strategytree.guide` writes it
    (codes in ``alphabet``, by default the game's)."""
    alphabet = alphabet or alphabet_for(game)
    return ", ".join(f"{alphabet.text(game, g)} {game.reply(r)}" for g, r in moves)


#: who may guess in a game of :func:`check_play`: the computer (a person replies) or you
BREAKERS = ("computer", "you")


def check_play(
    breaker: str = "computer",
    *,
    strategy: object = None,
    adversary: bool = False,
    rule: str | None = None,
    pool: str | None = None,
    seed: int | None = None,
    first: str | None = None,
    hints: bool = False,
) -> None:
    """Raise :class:`~strategytree.errors.ArgumentError` unless ``breaker`` is one of
    :data:`BREAKERS` and each argument given (not None nor False) has an effect
    in that game.

    When you guess, ``hints`` does, and ``seed`` (the secret drawn) unless the
    adversary replies (it keeps no secret).  When the computer guesses, the
    ``strategy`` or the one-step ``rule`` with its ``pool`` and ``first``
    guess do (with a strategy, which opens the game, the rule takes over where
    it has no branch: ``first`` has no effect), and ``seed`` where the rule
    draws at random (:func:`~strategytree.builders.draws_at_random`).

    >>> check_play("you", rule="minimax")
    Traceback (most recent call last):
    ...
    strategytree.errors.ArgumentError: rule='minimax' has no effect when you guess
    """
    if breaker not in BREAKERS:
        raise ArgumentError("{breaker}: choose computer or you", breaker=breaker)
    if seed is not None:
        check_whole(seed, 0, seed=seed)
    given = {
        "strategy": strategy, "rule": rule, "pool": pool, "first": first, "seed": seed,
        "hints": hints,
    }
    if breaker == "you":
        if adversary:
            refuse_inert(given, ("hints",), "when you guess against {adversary}", adversary=True)
        refuse_inert(given, ("hints", "seed"), "when you guess")
        return
    refuse_inert(given, ("strategy", "rule", "pool", "first", "seed"), "when the computer guesses")
    if strategy is not None and str(strategy) == "-":
        raise ArgumentError("{strategy} reads the standard input, where your replies come from: "
                            "name a file", strategy=strategy)
    if strategy is not None and first is not None:
        raise ArgumentError(
            "{first} has no effect with {strategy}: the strategy opens the game",
            first=first, strategy=strategy,
        )
    if seed is not None and not draws_at_random(rule or "entropy", pool or "all"):
        raise ArgumentError(
            "{seed} has no effect: nothing is drawn at random (the random rule, a sample:N "
            "pool, or a secret when you guess)", seed=seed,
        )


# -- what ``strategytree play`` does -------------------------------------------------------
def play(
    game: Game,
    terminal: Terminal,
    strategy: Strategy | None = None,
    *,
    breaker: str = "computer",
    adversary: bool = False,
    rule: str = "entropy",
    pool: str = "all",
    seed: int | None = None,
    first: str | None = None,
    hints: bool = False,
    alphabet: str = "auto",
) -> Outcome:
    """One game on ``terminal``, codes in ``alphabet``: with ``breaker="you"`` the
    person guesses (:func:`you_break`, the secret drawn with ``seed`` unless the
    ``adversary`` replies); else the computer guesses with ``strategy`` or the
    ``rule`` (:func:`breaker_for`), the person replying (:func:`computer_breaks`)
    or the adversary (:func:`adversary_game`, its moves told on ``terminal``).  A
    ``strategy`` whose opening guess is no guess of ``game`` (a file of another game)
    raises :class:`~strategytree.errors.StrategyError`; one that only lacks branches
    is followed, the rule taking over where it has none."""
    from .words import plural

    if strategy is not None and breaker != "you":
        opening = FlatTree(strategy, game)
        if int(opening.guess_index[0]) < 0:
            raise StrategyError(
                f"{strategy.source}: its first guess {opening.guess[0]} is not a guess of "
                f"{game.name}: the strategy was built for another game"
            )
    shown = alphabet_for(game, alphabet)
    guesser = breaker_for(game, strategy, rule, pool, seed=seed or 0, first=first)
    if breaker == "you":
        secret = None if adversary else draw_secret(game, seed)
        return you_break(game, terminal, shown, secret=secret, hints=hints)
    if not adversary:
        return computer_breaks(game, guesser, terminal, shown)
    outcome = adversary_game(game, guesser)
    for turn, (g, r) in enumerate(outcome.moves, 1):
        terminal.say(f"guess {turn}: {shown.text(game, g)}  reply {game.reply(r)}")
    if outcome.note:
        terminal.say(outcome.note)
    terminal.say(
        f"The adversary held out for {plural(outcome.guesses, 'guess')}: "
        f"{moves_text(game, outcome.moves, shown)}"
    )
    return outcome


def play_outcome(path: str | os.PathLike[str] | None, terminal: Terminal, *,
                 read: dict[str, Any] | None = None, **settings: Any) -> CommandOutcome:
    """What ``strategytree play`` does: the strategy at ``path`` read with its game,
    or the game alone (:func:`~strategytree.formats.reading.strategy_or_game`,
    ``read`` its keywords), then :func:`play` (``settings`` are its keywords); a
    game stopped (quit, end of input: exit 1; Ctrl-C: its status,
    :func:`~strategytree.runner.stop_status`) or not solved says so."""
    from rich.text import Text

    from .formats.reading import strategy_or_game
    from .runner import stop_status
    from .words import plural

    try:
        game, strategy = strategy_or_game(path, **(read or {}))
        outcome = play(game, terminal, strategy, **settings)
    except (EOFError, KeyboardInterrupt) as stop:
        status = stop_status() if isinstance(stop, KeyboardInterrupt) else INVALID
        return CommandOutcome(["", Text("game stopped")], status=status)
    if not outcome.solved:
        return CommandOutcome([f"game stopped after {plural(outcome.guesses, 'guess')}"],
                              status=INVALID)
    return CommandOutcome()
