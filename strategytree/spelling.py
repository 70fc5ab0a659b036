"""The spelling of codes, replies and paths for a person: the one place where
a code is written or read in a game's alphabet (:class:`Alphabet`: digits for
Bulls and Cows and Bagel, letters otherwise), a reply is typed (``12``,
``1 2``, ``b1 w2``: :func:`parse_reply`) and a history of guesses and replies
is read (:func:`parse_path`).  Strategy files always spell colours as letters
(:mod:`strategytree.formats`); every command shows and reads codes through
this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .errors import ArgumentError, CodeError
from .game import LETTERS, CodeIndex, Game, Reply, ReplyCode

__all__ = [
    "ALPHABETS", "DIGITS", "LETTERS_ONLY", "Alphabet", "Step", "alphabet_for", "guess_index",
    "parse_path", "parse_reply", "reply_usage", "secret_index",
]

#: the names of the alphabets (``auto``: the game's own, :attr:`Game.symbols`)
ALPHABETS = ("auto", "letters", "digits")
DIGITS = "0123456789"
#: a strategy file's letters as digits (colour ``k``: ``A + k`` -> ``0 + k``)
_CODE_WORD = re.compile(r"[A-Z]+")
_AS_DIGITS = str.maketrans(LETTERS[:10], DIGITS)
_AS_LETTERS = str.maketrans(DIGITS, LETTERS[:10])


@dataclass(frozen=True)


class Alphabet:
    """How the colours of codes are spelled for a person: letters ``A..`` or digits ``0..9``.

    This is the one place where a code is spelled (:meth:`text`, :meth:`word`)
    and read (:meth:`parse`) for a person; strategy files always use letters.
    In the digits alphabet a code may be typed in digits or in letters
    (``0123`` and ``ABCD`` are the same code: colours 0..9 are also A..J, so
    neither spelling is ambiguous), but not in a mix of both; in the letters
    alphabet only letters are read (a digit is refused, since some players
    number colours from 1).

    >>> from strategytree.presets import preset
    >>> bagel, digits = preset("bagel"), Alphabet(True)
    >>> digits.text(bagel, digits.parse(bagel, "012")), digits.letters(bagel, "ABC")
    ('012', 'ABC')
    >>> digits.word("BCA"), Alphabet().word("BCA")
    ('120', 'BCA')
    >>> digits.parse(bagel, "0B2")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    strategytree.errors.CodeError: code '0B2' mixes digits and letters; write it in digits 0..9
    (or in letters A..J)
    """

    digits: bool = False
    """True to show colour ``k`` as the digit ``k`` (at most 10 colours)"""

    def text(self, game: Game, code: np.ndarray | CodeIndex, *, secret: bool = False) -> str:
        """A code (a row, or an index into the guesses or, with ``secret``, the secrets)."""
        if not isinstance(code, np.ndarray):
            code = (game.secrets if secret else game.guesses)[int(code)]
        symbols = DIGITS if self.digits else LETTERS
        return "".join(symbols[int(x)] for x in code)

    def word(self, letters: str) -> str:
        """A code written in letters (as strategy files write it) in this alphabet
        (a word with a letter past ``J``, no code of a digits game, stays in letters)."""
        if self.digits and all("A" <= ch <= "J" for ch in letters):
            return letters.translate(_AS_DIGITS)
        return letters

    def words(self, text: str) -> str:
        """Every code of a text written in letters (a path ``"AB 10, AC 01"``) in this
        alphabet (:meth:`word` of each).

        >>> Alphabet(True).words("ABCD 10, BADC 04"), Alphabet().words("ABCD 10")
        ('0123 10, 1032 04', 'ABCD 10')
        """
        return _CODE_WORD.sub(lambda found: self.word(found.group()), text)

    def colours(self, game: Game) -> str:
        """The range of colours, e.g. ``A..F`` or ``0..9``."""
        last = game.colors - 1
        return f"0..{last}" if self.digits else f"A..{LETTERS[last]}"

    def parse(self, game: Game, text: str) -> np.ndarray:
        """A code typed by a person (spaces ignored, any case), checked against
        the game's size and colours.  Raises :class:`CodeError` with the reason.
        """
        typed = "".join(text.split()).upper()
        if not typed:
            raise CodeError(f"type a code of {game.pegs} colours ({self.colours(game)})")
        has_digit = any(ch in DIGITS for ch in typed)
        if has_digit and not self.digits:
            raise CodeError(
                f"code {typed!r}: colours are the letters {self.colours(game)} "
                "(digits are read when codes are shown as digits)"
            )
        if has_digit and any(ch in LETTERS for ch in typed):
            raise CodeError(
                f"code {typed!r} mixes digits and letters; write it in digits "
                f"{self.colours(game)} (or in letters {LETTERS_ONLY.colours(game)})"
            )
        row = np.empty(len(typed), dtype=np.int64)
        for i, ch in enumerate(typed):
            k = DIGITS.find(ch) if has_digit else LETTERS.find(ch)
            if k < 0 or k >= game.colors:
                raise CodeError(
                    f"code {typed!r}: {ch!r} is not a colour of the game ({self._both(game)})"
                )
            row[i] = k
        if len(row) != game.pegs:
            raise CodeError(
                f"code {typed!r} has {len(row)} peg{'s' * (len(row) != 1)}; "
                f"a code of {game.name} has {game.pegs}"
            )
        return row.astype(np.uint8)

    def letters(self, game: Game, text: str) -> str:
        """A code typed by a person (see :meth:`parse`), in letters as strategy files write it."""
        return game.code_text(self.parse(game, text))

    def _both(self, game: Game) -> str:
        """The spellings read: ``0..9 or A..J``, or ``A..F``."""
        if self.digits:
            return f"{self.colours(game)} or {LETTERS_ONLY.colours(game)}"
        return self.colours(game)

#: colours as letters
LETTERS_ONLY = Alphabet()


def alphabet_for(game: Game, name: str = "auto") -> Alphabet:
    """The alphabet ``name`` (``letters``, ``digits``, or ``auto``: as the game
    shows its codes, :attr:`Game.symbols <strategytree.game.Game.symbols>`;
    digits for Bulls and Cows and Bagel).

    >>> from strategytree.presets import preset
    >>> alphabet_for(preset("bulls-and-cows")), alphabet_for(preset("mastermind"))
    (Alphabet(digits=True), Alphabet(digits=False))
    """
    if name not in ALPHABETS:
        raise ArgumentError(
            "unknown {alphabet}; choose from " + ", ".join(ALPHABETS), alphabet=name
        )
    if name == "auto":
        return Alphabet(game.symbols == "digits")
    if name == "digits" and game.colors > 10:
        raise CodeError(f"{game.colors} colours cannot be written as digits 0..9")
    return Alphabet(name == "digits")


def guess_index(game: Game, text: str, alphabet: Alphabet | None = None) -> CodeIndex:
    """The index among the allowed guesses of a code typed by a person
    (in ``alphabet``, by default the game's own).

    >>> from strategytree.presets import preset
    >>> guess_index(preset("bulls-and-cows"), "0012")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    strategytree.errors.CodeError: 0012 repeats a colour:
    it is not an allowed guess of bulls-and-cows
    """
    return _index(game, text, alphabet, secret=False)


def secret_index(game: Game, text: str, alphabet: Alphabet | None = None) -> CodeIndex:
    """The index among the possible secrets of a code typed by a person
    (in ``alphabet``, by default the game's own)."""
    return _index(game, text, alphabet, secret=True)


def _index(game: Game, text: str, alphabet: Alphabet | None, *, secret: bool) -> CodeIndex:
    alphabet = alphabet or alphabet_for(game)
    row = alphabet.parse(game, text)
    index = int((game.secret_index if secret else game.guess_index)(row)[0])
    if index < 0:
        shown = alphabet.text(game, row)
        kind = "a possible secret" if secret else "an allowed guess"
        if (len(set(row.tolist())) < len(row)
                and _all_distinct(game.secrets if secret else game.guesses)):
            raise CodeError(f"{shown} repeats a colour: it is not {kind} of {game.name}")
        raise CodeError(f"{shown} is not {kind} of {game.name}")
    return index


def _all_distinct(rows: np.ndarray) -> bool:
    """True when no code of ``rows`` repeats a colour."""
    ordered = np.sort(rows, axis=1)
    return bool((ordered[:, 1:] != ordered[:, :-1]).all())

_BLACK = r"(?:b|bl|black|blacks|bull|bulls|red|reds)"
_WHITE = r"(?:w|wh|white|whites|c|cow|cows)"
_TAGGED = re.compile(
    rf"(?:(?P<k1>{_BLACK}|{_WHITE})\s*(?P<n1>\d+))|(?:(?P<n2>\d+)\s*(?P<k2>{_BLACK}|{_WHITE})(?![a-z]))"
)
_WIN_WORDS = ("win", "won", "yes", "y", "solved", "correct")


def parse_reply(game: Game, text: str) -> ReplyCode:
    """A reply typed by a person: ``1 2``, ``12``, ``1,2``, ``b1 w2``, ``1b 2w``,
    ``2 bulls 1 cow``; in a black-only game also one number.  ``win`` is the
    winning reply.  Raises :class:`CodeError` with the reason when the text is
    not a reply of the game.  The one reading of a reply, wherever one is typed.

    >>> from strategytree.game import mastermind
    >>> game = mastermind(4, 6)
    >>> [str(game.reply(parse_reply(game, text))) for text in ("1 2", "12", "b1 w2", "w2 b1")]
    ['12', '12', '12', '12']
    >>> parse_reply(game, "3 1")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    strategytree.errors.CodeError: 3 blacks and 1 white is impossible:
    the last peg cannot be misplaced alone
    """
    text = text.replace("\ufeff", "")  # (a byte order mark: piped from a Windows file)
    typed = text.strip().lower()
    if typed in _WIN_WORDS:
        return game.win
    if not typed:
        raise CodeError(reply_usage(game))
    black, white = _reply_numbers(typed, game.scoring)
    if black is None or white is None:
        raise CodeError(f"{text.strip()!r}: {reply_usage(game)}")
    if game.scoring == "table":
        return _checked(game, game.reply_code((black, white)))
    if black > game.pegs or white > game.pegs:
        raise CodeError(
            f"{black} black and {white} white: more key pegs than the {game.pegs} pegs of the game"
        )
    return _checked(game, game.reply_code((black, white)))


def _reply_numbers(typed: str, scoring: str) -> tuple[int | None, int | None]:
    """The blacks and whites of a typed reply (lower case), or Nones when it is not one."""
    if scoring == "table":
        digits = re.sub(r"[\s,;/:-]", "", typed)
        if not (digits.isdigit() and len(digits) == 2):
            return None, None
        return int(digits[0]), int(digits[1])
    if re.search(r"[a-z]", typed):
        black = white = None
        rest = typed
        for match in _TAGGED.finditer(typed):
            kind = match.group("k1") or match.group("k2")
            number = int(match.group("n1") or match.group("n2"))
            is_black = re.fullmatch(_BLACK, kind) is not None
            if (black if is_black else white) is not None:
                raise CodeError(f"{typed!r} gives the {'blacks' if is_black else 'whites'} twice")
            if is_black:
                black = number
            else:
                white = number
            rest = rest.replace(match.group(0), " ", 1)
        if (re.search(r"[a-z0-9]", re.sub(r"\b(and|&)\b", " ", rest))
                or (black is None and white is None)):
            return None, None
        return black or 0, white or 0
    numbers = re.findall(r"\d+", typed)
    if re.sub(r"[\d\s,;/:-]", "", typed):
        return None, None
    if len(numbers) == 1 and len(numbers[0]) == 2:
        return int(numbers[0][0]), int(numbers[0][1])
    if len(numbers) == 2:
        return int(numbers[0]), int(numbers[1])
    if len(numbers) == 1 and scoring == "black-only":
        return int(numbers[0]), 0
    return None, None


def _checked(game: Game, code: ReplyCode) -> ReplyCode:
    if code == game.win:
        return code
    problem = game.reply_problem(game.reply(code))
    if problem is not None:
        raise CodeError(problem)
    return code


def reply_usage(game: Game) -> str:
    """How to type a reply of ``game``, said in one line."""
    if game.scoring == "black-only":
        return "type the number of blacks, e.g. 2"
    if game.scoring == "table":
        return f"type the reply as its two digits 00..{game.n_replies - 1:02d}"
    return "type blacks and whites, e.g. 1 2 (or 12, or b1 w2)"

#: one step of a path: a guess, a reply, or a guess and its reply
Step = tuple[str | None, Reply | None]


def parse_path(
    text: str | None, game: Game | None = None, alphabet: Alphabet | None = None
) -> list[Step]:
    """A history of guesses and replies, ``"AABBC 10, abcde b2 w1"``, as
    ``(guess in letters, Reply)`` steps.

    Steps are separated by commas; each is a guess (in ``alphabet``, by default
    the game's own; letters when no game is given) and a reply in any way
    :func:`parse_reply` reads one with no comma (``10``, ``1 0``, ``b1 w0``).
    A step may be a reply alone (the strategy's own guess is meant), and the
    last one a guess alone.  Raises :class:`CodeError` naming the step.

    >>> parse_path("AB 10, 0 1")
    [('AB', Reply(black=1, white=0)), (None, Reply(black=0, white=1))]
    >>> from strategytree.presets import preset
    >>> parse_path("012 b1 w2, 345", preset("bagel"))
    [('ABC', Reply(black=1, white=2)), ('DEF', None)]
    """
    if text is None or not text.strip():
        return []
    steps: list[Step] = []
    pieces = text.split(",")
    example = "AABB 10" if game is None else (
        f"{(alphabet or alphabet_for(game)).text(game, game.guesses[0])} 10")
    for number, raw in enumerate(pieces, 1):
        step = _step(raw.strip(), game, alphabet)
        where = f"step {number} of the path ({raw.strip()!r})"
        if isinstance(step, str):
            raise CodeError(
                f"{where} is not a guess and a reply such as {example!r}, "
                f"{example[:-2] + '1 0'!r} or {example[:-2] + 'b1 w0'!r}" + step
            )
        if step[1] is None and number != len(pieces):
            raise CodeError(f"{where} needs a reply: only the last step may be a guess alone")
        steps.append(step)
    return steps


def _step(step: str, game: Game | None, alphabet: Alphabet | None) -> Step | str:
    """One step of a path (see :func:`parse_path`), or why it is none (``""`` or
    ``": reason"``)."""
    if not step:
        return ""
    glued = re.fullmatch(r"([A-Za-z]+)\s*:?\s*(\d[\d\s]*)", step)  # AB10, AB:10
    if glued is not None:
        head, rest = glued.group(1), glued.group(2)
    else:
        head, _, rest = step.replace(":", " ", 1).partition(" ")
    guess, why = _guess_of(head, game, alphabet)
    if guess is not None and rest.strip():
        reply = _path_reply(rest, game)
        if reply is not None:
            return guess, reply
    reply = _path_reply(step, game)
    if reply is not None:
        return None, reply
    if guess is not None and not rest.strip():
        return guess, None
    return why


def _guess_of(text: str, game: Game | None, alphabet: Alphabet | None) -> tuple[str | None, str]:
    """A guess typed in a path, in letters, or None and why ``text`` is not one.

    Only the spelling is checked here (letters, or digits in the digits
    alphabet): a guess the strategy does not make is for :meth:`GuideTree.locate
    <strategytree.guide.GuideTree.locate>` to name, with the one it makes.
    """
    spelled = alphabet or (LETTERS_ONLY if game is None else alphabet_for(game))
    if text.isascii() and text.isalpha():
        return text.upper(), ""
    if spelled.digits and text.isascii() and text.isdigit():
        return text.translate(_AS_LETTERS), ""
    if game is not None and text.isascii() and text.isalnum():
        try:
            spelled.parse(game, text)
        except CodeError as problem:
            return None, f": {problem}"
    return None, ""


def _path_reply(text: str, game: Game | None) -> Reply | None:
    """A reply typed in a path (any two numbers 0..9, in any way
    :func:`parse_reply` reads them), or None when it is none.  Whether the
    strategy has a branch for it is for :meth:`GuideTree.locate
    <strategytree.guide.GuideTree.locate>` to say."""
    typed = text.strip().lower()
    try:
        black, white = _reply_numbers(typed, "black-white" if game is None else game.scoring)
    except CodeError:  # the blacks or whites given twice
        return None
    if black is None or white is None or black > 9 or white > 9:
        return None
    return Reply(black, white)
