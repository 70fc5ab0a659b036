"""Games: pegs, colours, the possible secrets, the allowed guesses, and feedback.

A code is a row of small integers (colour 0 is written ``A``, 1 is ``B``, ...).
A game keeps its secrets and its allowed guesses as ``(n, pegs)`` arrays of
``uint8`` in code order (the order of the written codes: ``AA < AB < BA``).

Feedback is (black, white) as Knuth defined it: black counts pegs of the same
colour in the same place, white is the sum over colours of the smaller of the
two counts, less black.  For the kernels a reply is one small integer,
``black * (pegs + 1) + white``; in files it is the two digits ``"bw"``.

Which game a set of arguments means (a named game, sizes, distinct flags, a
strategy to infer the sizes from) is decided in one place,
:func:`~strategytree.presets.resolve_game`, which every command asks.  A game
carries what it is as fields: how it scores (:attr:`Game.scoring`) and how it
is shown to a person (:attr:`Game.symbols`, :attr:`Game.reply_words`); its name
is only a label.

>>> game = mastermind(4, 6)
>>> len(game.secrets), game.code_text(game.secrets[7])
(1296, 'AABB')
>>> game.reply(game.feedback(game.parse_code("AABB"), game.parse_code("ABBA")))
Reply(black=2, white=2)
>>> str(game.reply(game.win))
'40'
"""

from __future__ import annotations

import copy
import hashlib
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import NamedTuple, TypeVar

import numpy as np

from .errors import CodeError, GameError
from .feedback import encode, kernel_form, n_words, replies_numpy
from .memory import too_much
from .words import plural

T = TypeVar("T")

#: the index of a code in a game's table of secrets or guesses
CodeIndex = int
#: a reply as one small integer: ``black * (pegs + 1) + white``
ReplyCode = int

MAX_PEGS = 9
MAX_COLORS = 26
#: the most codes a game may enumerate (secrets or guesses)
MAX_CODES = 1 << 25
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: up to this many allowed guesses, :meth:`Game.pair_replies` encodes them all once
_ENCODED_WHOLE = 1 << 15


#: how a game's codes can be shown to a person: colour ``k`` as a letter, or as the digit ``k``
SYMBOLS = ("letters", "digits")


class ReplyWords(NamedTuple):
    """What a game calls the two numbers of a reply, when it speaks to a person."""

    black: str = "black"
    """a peg of the right colour in the right place (``black``, ``bull``)"""
    white: str = "white"
    """a peg of a right colour in a wrong place (``white``, ``cow``)"""
    plural: bool = False
    """True to write ``2 bulls`` rather than ``2 black``"""

    def count(self, black: int, white: int | None = None) -> str:
        """A reply in these words: ``1 black, 2 white`` or ``1 bull, 2 cows``
        (only the blacks when ``white`` is None).

        >>> BULLS_AND_COWS.count(1, 2), ReplyWords().count(1, 2), ReplyWords().count(3)
        ('1 bull, 2 cows', '1 black, 2 white', '3 black')
        """
        b = f"{black} {self.black}" + "s" * (self.plural and black != 1)
        if white is None:
            return b
        return f"{b}, {white} {self.white}" + "s" * (self.plural and white != 1)


#: the words of Mastermind: blacks and whites
BLACK_AND_WHITE = ReplyWords()
#: the words of Bulls and Cows (and Bagel)
BULLS_AND_COWS = ReplyWords("bull", "cow", plural=True)


class Reply(NamedTuple):
    """A reply to a guess, written ``"bw"`` in strategy files."""

    black: int
    """pegs of the right colour in the right place"""
    white: int
    """further pegs of a right colour in a wrong place"""

    def __str__(self) -> str:
        return f"{self.black}{self.white}"


def reply_problem(reply: Reply, pegs: int) -> str | None:
    """Why ``reply`` can never be given in a game of ``pegs`` pegs, or None.

    >>> reply_problem(Reply(3, 1), 4)
    '3 blacks and 1 white is impossible: the last peg cannot be misplaced alone'
    >>> reply_problem(Reply(1, 2), 4) is None
    True
    """
    b, w = reply
    if b + w > pegs:
        return f"{b} + {w} key pegs is more than the {plural(pegs, 'peg')} of the game"
    if b == pegs:
        return f"{b}{w} is the winning reply, which is implied and never written"
    if b == pegs - 1 and w == 1:
        return (f"{plural(b, 'black')} and 1 white is impossible: the last peg cannot be "
                "misplaced alone")
    return None


@dataclass(frozen=True, eq=False)
class Game:
    """A code-breaking game of the Mastermind family.

    Build one with :func:`mastermind` or :func:`distinct`, or give the tables
    directly (any subsets of the ``colors ** pegs`` codes, in code order).
    """

    pegs: int
    """number of pegs in a code (1..9)"""
    colors: int
    """number of colours (1..26), written A, B, C, ..."""
    secrets: np.ndarray = field(repr=False)
    """the possible secrets, an ``(n, pegs)`` uint8 array in code order"""
    guesses: np.ndarray = field(repr=False)
    """the allowed guesses, an ``(m, pegs)`` uint8 array in code order"""
    name: str = ""
    """a short description, e.g. ``MM(4,6)``"""
    scoring: str = "black-white"
    """``black-white`` (Mastermind), ``black-only`` (only blacks are told) or
    ``table`` (a custom game: replies looked up in :attr:`table`)"""
    table: np.ndarray | None = field(default=None, repr=False)
    """for ``table`` games: the reply code of every (guess, secret) pair, uint8"""
    labels: tuple = ()
    """for ``table`` games: what each reply code stands for (the user's values)"""
    symbols: str = "letters"
    """how codes are shown to a person: ``letters`` (``ABCD``) or ``digits``
    (``0123``, colour ``k`` as the digit ``k``; at most 10 colours).  Strategy
    files always use letters."""
    reply_words: ReplyWords = BLACK_AND_WHITE
    """what replies are called when the game speaks to a person"""

    def __post_init__(self) -> None:
        check_size(self.pegs, self.colors)
        same = self.guesses is self.secrets  # (most games: checked once)
        for what in ("secrets", "guesses"):
            if what == "guesses" and same:
                object.__setattr__(self, what, self.secrets)
                continue
            rows = np.ascontiguousarray(getattr(self, what), dtype=np.uint8)
            if rows.ndim != 2 or rows.shape[1] != self.pegs:
                raise GameError(f"{what} must be an (n, {self.pegs}) array of colours")
            if len(rows) == 0:
                raise GameError(f"a game needs at least one code among its {what}")
            if int(rows.max()) >= self.colors:
                raise GameError(f"{what} use a colour beyond the {self.colors} of the game")
            keys = _keys(rows, self.colors)
            if np.any(keys[1:] <= keys[:-1]):
                raise GameError(f"{what} must be distinct codes in code order")
            rows.setflags(write=False)
            object.__setattr__(self, what, rows)
        if not self.name:
            object.__setattr__(self, "name", f"game({self.pegs},{self.colors})")
        if self.scoring not in ("black-white", "black-only", "table"):
            raise GameError(f"unknown scoring {self.scoring!r}")
        if self.symbols not in SYMBOLS:
            raise GameError(f"unknown symbols {self.symbols!r}; choose from {', '.join(SYMBOLS)}")
        if self.symbols == "digits" and self.colors > 10:
            raise GameError(f"{self.colors} colours cannot be written as digits 0..9")
        if self.scoring == "table":
            table = np.ascontiguousarray(self.table, dtype=np.uint8)
            if table.shape != (len(self.guesses), len(self.secrets)):
                raise GameError("a table game needs one reply per (guess, secret) pair")
            if not (0 < len(self.labels) <= 100) or int(table.max()) >= len(self.labels):
                raise GameError("a table game has 1 to 100 replies, one label each")
            table.setflags(write=False)
            object.__setattr__(self, "table", table)

    #: what is worked out of the guesses alone (shared by :meth:`part`)
    _OF_GUESSES = frozenset({"_guess_keys", "guess_bits", "guess_words"})

    def part(self, S: np.ndarray, name: str) -> Game:
        """This game with the secrets ``S`` alone (indices into :attr:`secrets`,
        increasing), named ``name``: what was worked out of the guesses alone is
        shared, nothing is checked again (the exact search of a part of MM(5,8)
        starts milliseconds sooner: 32,768 guesses neither checked nor encoded).

        >>> game = mastermind(2, 3)
        >>> part = game.part(np.array([1, 4]), "two")
        >>> [part.code_text(code) for code in part.secrets], len(part.guesses)
        (['AB', 'BB'], 9)
        """
        part = copy.copy(self)
        keep = {f.name for f in fields(self)} | self._OF_GUESSES
        for key in [key for key in part.__dict__ if key not in keep]:
            del part.__dict__[key]  # (worked out of the secrets: again, for these)
        secrets = self.secrets[S]
        secrets.setflags(write=False)
        object.__setattr__(part, "secrets", secrets)
        if self.table is not None:
            table = np.ascontiguousarray(self.table[:, S])
            table.setflags(write=False)
            object.__setattr__(part, "table", table)
        object.__setattr__(part, "name", name)
        return part

    # -- data derived once per game ----------------------------------------------
    def memo(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, made once per game and kept on it under ``name``: the one
        place where tables derived from a game (bit encodings as Python ints,
        guess texts, groupings for the kernels) are kept.

        >>> game = mastermind(2, 3)
        >>> game.memo("answer", lambda: 42), game.memo("answer", lambda: 0)
        (42, 42)
        """
        kept = self.__dict__.setdefault("_memo", {})
        value = kept.get(name)
        if value is None:
            value = kept[name] = make()
        return value

    @cached_property
    def digest(self) -> str:
        """A short digest of the game's codes (secrets, guesses, table): what names
        the game in checkpoints and in runs on workers (with the rest of the
        settings beside it).

        >>> mastermind(4, 6).digest == mastermind(4, 6).digest != mastermind(4, 7).digest
        True
        """
        made = hashlib.blake2b(digest_size=12)
        for array in (self.secrets, self.guesses, self.table):
            made.update(b"-" if array is None else np.ascontiguousarray(array).tobytes() + b"|")
        return made.hexdigest()

    def run_key(self, *settings: object) -> str:
        """The name of a run's tables on workers: the game's :attr:`digest` and a
        short digest of its size, scoring and the run's ``settings``.

        >>> game = mastermind(3, 4)
        >>> (game.run_key(True, "bound") == game.run_key(True, "bound")
        ...  != game.run_key(False, "bound"))
        True
        """
        settings = (self.pegs, self.colors, self.scoring, *settings)
        return self.digest + hashlib.blake2b(repr(settings).encode(), digest_size=6).hexdigest()

    @cached_property
    def symmetric(self) -> bool:
        """True when renaming colours and permuting positions maps the game to
        itself: secrets and guesses are each all codes or all codes of distinct
        colours, and the feedback is Mastermind's (black and white, or black only).
        """
        c, p = self.colors, self.pegs
        if self.scoring == "table":
            return False

        def whole(rows: np.ndarray) -> bool:
            if len(rows) == c**p:
                return True
            if len(rows) != math.perm(c, p):
                return False
            same = rows[:, :, None] == rows[:, None, :]
            return int(same.sum()) == len(rows) * p

        return whole(self.secrets) and whole(self.guesses)

    # -- replies -----------------------------------------------------------
    @property
    def n_replies(self) -> int:
        """Size of the reply-code range: ``(pegs + 1) ** 2`` (table games: the labels)."""
        if self.scoring == "table":
            return len(self.labels)
        return (self.pegs + 1) ** 2

    @cached_property
    def win(self) -> ReplyCode:
        """The reply code of a guess that is the secret (``pegs`` blacks)."""
        if self.scoring != "table":
            return self.pegs * (self.pegs + 1)
        both = np.flatnonzero(self.guess_index(self.secrets) >= 0)
        if not len(both):
            raise GameError(f"no secret of {self.name} can be guessed")
        wins = self.table[self.guess_index(self.secrets[both]), both]
        if (wins != wins[0]).any():
            raise GameError(
                f"guessing the secret does not always get the same reply in {self.name}")
        return int(wins[0])

    def reply(self, code: ReplyCode) -> Reply:
        """The two digits a reply code is written with (black, white)."""
        if self.scoring == "table":
            return Reply(*divmod(int(code), 10))
        b, w = divmod(int(code), self.pegs + 1)
        return Reply(b, w)

    def reply_code(self, reply: Reply | tuple[int, int]) -> ReplyCode:
        """The reply code of a (black, white) pair (table games: of two digits)."""
        b, w = reply
        if self.scoring == "table":
            if not (0 <= 10 * b + w < self.n_replies):
                raise CodeError(
                    f"reply {b}{w} is not one of the {self.n_replies} replies of {self.name}")
            return 10 * b + w
        if not (0 <= b <= self.pegs and 0 <= w <= self.pegs):
            raise CodeError(f"reply {b}{w} has more key pegs than the {self.pegs} of the game")
        return b * (self.pegs + 1) + w

    def reply_problem(self, reply: Reply) -> str | None:
        """Why ``reply`` can never be written in a strategy for this game, or None."""
        b, w = reply
        if self.scoring == "black-white":
            return reply_problem(reply, self.pegs)
        if self.scoring == "black-only":
            if w:
                return f"{b}{w} has whites, but only blacks are told in {self.name}"
            if b == self.pegs:
                return f"{b}{w} is the winning reply, which is implied and never written"
            if b > self.pegs:
                return (f"{plural(b, 'black')} is more than the {plural(self.pegs, 'peg')} "
                        "of the game")
            return None
        code = 10 * b + w
        if code >= self.n_replies or code not in self.possible_replies:
            return f"{b}{w} is not a reply of {self.name}"
        if code == self.win:
            return f"{b}{w} is the winning reply, which is implied and never written"
        return None

    def label(self, code: ReplyCode) -> str:
        """How a reply reads to a person: ``12`` (table games: the user's value)."""
        if self.scoring == "table":
            return f"{self.reply(code)} ({self.labels[code]!r})"
        return str(self.reply(code))

    @cached_property
    def possible_replies(self) -> frozenset[ReplyCode]:
        """Every reply some allowed guess can get from some secret."""
        seen = np.zeros(self.n_replies, dtype=bool)
        if self.scoring == "table":
            seen[np.unique(self.table)] = True
        else:
            for guess in _pattern_representatives(self):
                seen[self.feedback(guess, self.secrets)] = True
        return frozenset(int(r) for r in np.flatnonzero(seen))

    # -- codes as text -----------------------------------------------------
    def code_text(self, code: np.ndarray) -> str:
        """A code written in letters: ``[0, 0, 1] -> 'AAB'``."""
        return "".join(LETTERS[int(x)] for x in code)

    def parse_code(self, text: str) -> np.ndarray:
        """A code written in letters, checked against the game's size.

        Upper and lower case are accepted; raises :class:`CodeError`.
        """
        text = text.strip()
        if not (text.isascii() and text.isalpha()):
            bad = next((ch for ch in text if not (ch.isascii() and ch.isalpha())), text[:1])
            raise CodeError(f"code {text!r}: {bad!r} is not a colour letter (A..Z)")
        text = text.upper()
        if len(text) != self.pegs:
            raise CodeError(f"code {text!r} has {len(text)} pegs, expected {self.pegs}")
        row = np.empty(self.pegs, dtype=np.uint8)
        for i, ch in enumerate(text):
            k = LETTERS.find(ch)
            if k < 0 or k >= self.colors:
                raise CodeError(
                    f"code {text!r}: {ch!r} is not a colour of the game "
                    f"(A..{LETTERS[self.colors - 1]})"
                )
            row[i] = k
        return row

    def parse_codes(self, texts: list[str]) -> np.ndarray:
        """Several codes as an ``(n, pegs)`` array."""
        rows = np.empty((len(texts), self.pegs), dtype=np.uint8)
        for i, text in enumerate(texts):
            rows[i] = self.parse_code(text)
        return rows

    # -- lookups -----------------------------------------------------------
    @cached_property
    def _secret_keys(self) -> np.ndarray:
        return _keys(self.secrets, self.colors)

    @cached_property
    def _guess_keys(self) -> np.ndarray:
        return _keys(self.guesses, self.colors)

    def secret_index(self, codes: np.ndarray) -> np.ndarray:
        """Index of each code in :attr:`secrets`, or -1 where it is not a secret."""
        return self._index(self._secret_keys, codes)

    def guess_index(self, codes: np.ndarray) -> np.ndarray:
        """Index of each code in :attr:`guesses`, or -1 where it is not allowed."""
        return self._index(self._guess_keys, codes)

    def _index(self, table: np.ndarray, codes: np.ndarray) -> np.ndarray:
        rows = np.atleast_2d(np.asarray(codes))
        if rows.ndim != 2 or rows.shape[1] != self.pegs:
            return np.full(len(rows), -1, dtype=np.int64)
        fits = ((rows >= 0) & (rows < self.colors)).all(axis=1)
        found = _lookup(table, _keys(np.where(fits[:, None], rows, 0), self.colors))
        return np.where(fits, found, -1)

    # -- feedback (numpy; the numba kernels are in strategytree.feedback and .scoring) --
    @cached_property
    def secret_bits(self) -> tuple[np.ndarray, np.ndarray]:
        """The secrets in the bit encoding of :func:`encode`."""
        return self.encode(self.secrets)

    @cached_property
    def guess_bits(self) -> tuple[np.ndarray, np.ndarray]:
        """The allowed guesses in the bit encoding of :func:`encode`."""
        return self.encode(self.guesses)

    def encode(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Codes in the bit encoding of :func:`encode`; in a black-only game the
        second set repeats the first, so that whites always come out 0."""
        pos, cnt = encode(codes, self.colors)
        return (pos, pos.copy()) if self.scoring == "black-only" else (pos, cnt)

    @cached_property
    def secret_words(self) -> tuple[np.ndarray, np.ndarray]:
        """:attr:`secret_bits` as the kernels take them: 1-d when one word is enough."""
        return kernel_form(*self.secret_bits)

    @cached_property
    def guess_words(self) -> tuple[np.ndarray, np.ndarray]:
        """:attr:`guess_bits` as the kernels take them: 1-d when one word is enough."""
        return kernel_form(*self.guess_bits)

    def feedback(self, guess: np.ndarray, secrets: np.ndarray) -> np.ndarray | int:
        """Reply codes of one guess against one code or an ``(n, pegs)`` array.

        With numpy only (no compilation), fast enough for replaying a strategy;
        the builders use the numba kernels of :mod:`strategytree.scoring`.
        """
        if self.scoring == "table":
            g = self.guess_index(guess)
            s = self.secret_index(secrets)
            if (g < 0).any() or (s < 0).any():
                raise CodeError(f"only the codes of {self.name} have replies")
            out = self.table[g[0], s].astype(np.int64)
        else:
            gp, gc = self.encode(np.atleast_2d(guess))
            sp, sc = self.encode(np.atleast_2d(secrets))
            out = replies_numpy(gp, gc, sp, sc, self.pegs)
        return int(out[0]) if np.ndim(secrets) == 1 else out

    def pair_replies(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        """Reply codes of ``guesses[k]`` against ``secrets[k]`` (index arrays), elementwise."""
        if self.scoring == "table":
            return self.table[guesses, secrets].astype(np.int64)
        if "guess_bits" in self.__dict__ or len(self.guesses) <= _ENCODED_WHOLE:
            gp, gc = self.guess_bits
            gp, gc = gp[guesses], gc[guesses]
        else:  # the few guesses a strategy plays, not every allowed one
            used, at = np.unique(guesses, return_inverse=True)
            gp, gc = self.encode(self.guesses[used])
            gp, gc = gp[at], gc[at]
        sp, sc = self.secret_bits
        return replies_numpy(gp, gc, sp[secrets], sc[secrets], self.pegs)


def check_size(pegs: int, colors: int) -> None:
    """Raise :class:`GameError` unless 1 <= pegs <= 9 and 1 <= colors <= 26."""
    def whole(x: object) -> bool:
        return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))

    if not (whole(pegs) and 1 <= pegs <= MAX_PEGS):
        raise GameError(f"pegs must be a whole number between 1 and {MAX_PEGS}, got {pegs!r}")
    if not (whole(colors) and 1 <= colors <= MAX_COLORS):
        raise GameError(f"colors must be a whole number between 1 and {MAX_COLORS}, "
                        f"got {colors!r}")


def all_codes(pegs: int, colors: int) -> np.ndarray:
    """Every code of ``pegs`` pegs over ``colors`` colours, in code order."""
    check_size(pegs, colors)
    n = colors**pegs
    check_count(n, pegs, colors, f"{colors}^{pegs} = {n:,} codes")
    index = np.arange(n, dtype=np.int64)
    rows = np.empty((n, pegs), dtype=np.uint8)
    for i in range(pegs - 1, -1, -1):
        rows[:, i] = index % colors
        index //= colors
    return rows


def distinct_codes(pegs: int, colors: int) -> np.ndarray:
    """Every code whose pegs all differ in colour, in code order."""
    check_size(pegs, colors)
    check_distinct_count(pegs, colors)
    rows = np.zeros((1, 0), dtype=np.uint8)
    for _ in range(pegs):
        used = np.zeros((len(rows), colors), dtype=bool)
        if rows.shape[1]:
            np.put_along_axis(used, rows.astype(np.intp), True, axis=1)
        parent, colour = np.nonzero(~used)
        rows = np.concatenate([rows[parent], colour[:, None].astype(np.uint8)], axis=1)
    return rows


def mastermind(pegs: int = 4, colors: int = 6) -> Game:
    """Classic Mastermind MM(pegs, colors): repeats allowed in secrets and guesses."""
    codes = all_codes(pegs, colors)
    return Game(pegs, colors, codes, codes, name=f"MM({pegs},{colors})")


def black_only(pegs: int = 4, colors: int = 6) -> Game:
    """Mastermind where only blacks are told (no whites)."""
    codes = all_codes(pegs, colors)
    return Game(pegs, colors, codes, codes, name=f"black-only MM({pegs},{colors})",
                scoring="black-only")


def check_count(n: int, pegs: int, colors: int, what: str) -> None:
    """Refuse a game of ``n`` codes (``what``, in words) beyond :data:`MAX_CODES`."""
    if n > MAX_CODES:
        raise GameError(
            f"{what} is more than the {MAX_CODES:,} a game may enumerate (its tables alone "
            f"would take about {_table_bytes(n, pegs, colors) / 2**30:,.0f} GiB)"
        )


def check_distinct_count(pegs: int, colors: int) -> int:
    """The number of codes of ``pegs`` distinct colours of ``colors``, refused when
    there are none or too many."""
    if pegs > colors:
        raise GameError(f"{pegs} distinct colours cannot be drawn from {colors}")
    n = math.perm(colors, pegs)
    check_count(n, pegs, colors, f"{n:,} codes of {pegs} distinct colours")
    return n


def custom(
    pegs: int,
    colors: int,
    feedback: Callable[[tuple[int, ...], tuple[int, ...]], Hashable],
    *,
    secrets: np.ndarray | None = None,
    guesses: np.ndarray | None = None,
    name: str = "custom game",
) -> Game:
    """A game with a feedback function written in plain Python.

    ``feedback(guess, secret)`` takes two tuples of colour numbers and returns
    any hashable reply; it is called once per (guess, secret) pair and the
    replies are kept in a table for the kernels.  Replies are numbered in the
    order of their first appearance and written ``00``, ``01``, ... in
    strategy files (at most 100 of them).  Secrets and guesses default to
    every code.

    >>> game = custom(1, 3, lambda g, s: (g > s) - (g < s))  # higher or lower
    >>> game.labels, game.win, game.n_replies
    ((0, -1, 1), 0, 3)
    """
    everything = all_codes(pegs, colors)
    m = len(everything) if guesses is None else len(guesses)
    n = len(everything) if secrets is None else len(secrets)
    if m * n > 2**31:
        raise GameError(
            f"a custom game of {m:,} guesses and {n:,} secrets needs a reply table of "
            f"{m * n / 2**30:,.1f} GiB; at most 2 GiB is allowed"
        )
    secrets = everything if secrets is None else np.asarray(secrets, dtype=np.uint8)
    guesses = everything if guesses is None else np.asarray(guesses, dtype=np.uint8)
    secret_rows = [tuple(int(x) for x in row) for row in secrets]
    codes: dict[Hashable, int] = {}
    table = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    for i, row in enumerate(guesses):
        guess = tuple(int(x) for x in row)
        for j, secret in enumerate(secret_rows):
            value = feedback(guess, secret)
            code = codes.get(value)
            if code is None:
                if len(codes) == 100:
                    raise GameError("a custom game may have at most 100 different replies")
                code = codes[value] = len(codes)
            table[i, j] = code
    return Game(
        pegs, colors, secrets, guesses, name=name, scoring="table", table=table,
        labels=tuple(codes),
    )


def distinct(pegs: int = 4, colors: int = 6, *, distinct_guesses: bool = False) -> Game:
    """Secrets of distinct colours; guesses too when ``distinct_guesses``."""
    secrets = distinct_codes(pegs, colors)
    guesses = secrets if distinct_guesses else all_codes(pegs, colors)
    which = "distinct guesses" if distinct_guesses else "any guess"
    return Game(pegs, colors, secrets, guesses, name=f"{pegs} distinct of {colors}, {which}")


# -- sizes -------------------------------------------------------------------
#: the memory a run takes per secret of its game, at most, by what it does
#: (measured as the peak of the process on MM(6,8) and MM(6,10), one core:
#: replaying a strategy, ``check``, about 340 bytes a secret; building one,
#: ``build``, a lookahead about 490 in its first minute)
MEMORY_PER_SECRET = {"check": 400, "build": 600}
def check_memory(game: Game, use: str = "check") -> None:
    """Refuse (:class:`GameError`) a game whose secrets would take more memory than
    the system has left for ``use`` (``"check"``: replaying a strategy, as
    ``verify``, ``stats``, ``show`` and ``simulate`` do; ``"build"``: building one),
    before anything is allocated: the estimate is :data:`MEMORY_PER_SECRET` bytes
    a secret, and a run may plan to take :data:`strategytree.memory.MEMORY_SHARE` of what is free.

    >>> check_memory(mastermind(4, 6))  # a few megabytes: nothing to say
    """
    need = len(game.secrets) * MEMORY_PER_SECRET[use]
    free = too_much(need)
    if free is not None:
        doing = "checking a strategy of" if use == "check" else "building a strategy for"
        raise GameError(
            f"{doing} {game.name} ({len(game.secrets):,} secrets) takes about "
            f"{need / 2**30:,.1f} GiB of memory, more than the {free / 2**30:,.1f} GiB "
            "available: a smaller game, or a machine with more memory"
        )


def _table_bytes(n: int, pegs: int, colors: int) -> int:
    """About how many bytes a game of ``n`` codes keeps per table of codes:
    the codes, their keys, and two bit encodings (twice, for the kernels)."""
    return n * (pegs + 8 + 4 * 8 * n_words(pegs, colors))


# -- helpers -----------------------------------------------------------------
def _keys(rows: np.ndarray, colors: int) -> np.ndarray:
    """Each code as one integer, increasing in code order."""
    keys = np.zeros(len(rows), dtype=np.int64)
    for i in range(rows.shape[1]):
        keys = keys * colors + rows[:, i].astype(np.int64)
    return keys


def _lookup(table: np.ndarray, keys: np.ndarray) -> np.ndarray:
    at = np.searchsorted(table, keys)
    at = np.minimum(at, len(table) - 1)
    return np.where(table[at] == keys, at, -1)


def _pattern_representatives(game: Game) -> np.ndarray:
    """Allowed guesses that stand for every guess up to a renaming of colours.

    Both presets are closed under renaming colours, so these guesses make
    every reply any guess can make.  For other games every guess is kept.
    """
    g = game.guesses
    if len(g) <= 4096:
        return g
    # first appearance order of colours: AABCA -> 0,0,1,2,0
    labels = np.full((len(g), game.colors), -1, dtype=np.int64)
    pattern = np.zeros_like(g, dtype=np.int64)
    nxt = np.zeros(len(g), dtype=np.int64)
    rows = np.arange(len(g))
    for i in range(game.pegs):
        col = g[:, i].astype(np.int64)
        new = labels[rows, col] < 0
        labels[rows[new], col[new]] = nxt[new]
        nxt += new
        pattern[:, i] = labels[rows, col]
    _, first = np.unique(_keys(pattern.astype(np.uint8), game.pegs), return_index=True)
    reps = g[np.sort(first)]
    if game.symmetric:
        return reps
    return g
