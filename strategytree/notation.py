"""The notation: strategy files in the brace grammar (read with lark, LALR, and
written), and codes, replies and paths as a person types and reads them.

Strategy files always spell colours as letters.  For a person, a game's codes
are spelled in its alphabet (:class:`Alphabet`: digits for Bulls and Cows and
Bagel, letters otherwise) and a reply is typed as ``12``, ``1 2`` or ``b1 w2``
(:func:`parse_reply`, :func:`parse_path`): every command reads and writes them
through this one place.

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
import stat
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from .errors import ArgumentError, CodeError, InputTooLargeError, StrategyFileError
from .files import write_text_atomic
from .game import LETTERS, CodeIndex, Game, Reply, ReplyCode
from .tree import Node, Strategy, Visitor, walk

if TYPE_CHECKING:
    from lark import Lark

__all__ = [
    "ALPHABETS", "LETTERS_ONLY", "MAX_INPUT_BYTES", "Alphabet", "alphabet_for", "dump", "dumps",
    "grammar_text", "guess_index", "load", "loads", "parse_path", "parse_reply", "read_text",
    "reply_usage", "secret_index", "source_name", "Step",
]

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


def grammar_text(name: str = "strategy") -> str:
    """The text of ``grammars/<name>.lark``, shipped inside the package."""
    try:
        shipped = resources.files("strategytree.grammars").joinpath(f"{name}.lark")
        if shipped.is_file():
            return shipped.read_text(encoding="utf-8")
    except ModuleNotFoundError:
        pass
    # running from a source checkout: the grammars sit beside the package
    beside = Path(__file__).resolve().parent.parent / "grammars" / f"{name}.lark"
    return beside.read_text(encoding="utf-8")


_LEAF = re.compile(r"([0-9])([0-9])[ \t\r\n\f]*:[ \t\r\n\f]*([A-Z]+)")
_GUESS = re.compile(r"[A-Z]+")
_REPLY = re.compile(r"([0-9])([0-9])")


def _reply(token: str) -> Reply:
    """The first reply written in a token (after any comma)."""
    m = _REPLY.search(token)
    return Reply(ord(m.group(1)) - 48, ord(m.group(2)) - 48)


def _open(token: Any) -> Node:
    """An empty node for the guess in an ``OPEN`` or ``*OPEN_BRANCH`` token."""
    m = _GUESS.search(token)
    return Node(m.group(), (), token.start_pos + m.start())


def _leaves(text: str, at: int) -> tuple[tuple[Reply, Node], ...]:
    """The branches of a run of known solutions: ``"10:ABC,01:ABD"`` at offset ``at``."""
    return tuple(
        (Reply(ord(m.group(1)) - 48, ord(m.group(2)) - 48), Node(m.group(3), (), at + m.start(3)))
        for m in _LEAF.finditer(text)
    )


def _small(token: Any) -> tuple[Reply, Node]:
    """A ``SMALL`` token: ``"10:{ABC:{01:ABD,00:CCC}}"``, a branch to a node of leaves."""
    inside = token.index("{", token.index("{") + 1) + 1
    node = _open(token)
    node.branches = _leaves(token[inside:], token.start_pos + inside)
    return _reply(token), node


_ITEM = re.compile(
    r"([0-9])([0-9])[ \t\r\n\f]*:[ \t\r\n\f]*(?:([A-Z]+)|\{[ \t\r\n\f]*([A-Z]+)"
    r"[ \t\r\n\f]*:[ \t\r\n\f]*\{([^{}]*)\})"
)


def _medium(token: Any) -> tuple[Reply, Node]:
    """A ``MEDIUM`` token: a branch to a node whose branches are leaves or SMALL."""
    inside = token.index("{", token.index("{") + 1) + 1
    node = _open(token)
    base = token.start_pos
    branches = []
    for m in _ITEM.finditer(token, inside):
        black, white, leaf, guess, leaves = m.groups()
        reply = Reply(ord(black) - 48, ord(white) - 48)
        if leaf is not None:
            branches.append((reply, Node(leaf, (), base + m.start(3))))
        else:
            child = Node(guess, _leaves(leaves, base + m.start(5)), base + m.start(4))
            branches.append((reply, child))
    node.branches = tuple(branches)
    return _reply(token), node


def _branches(children: list[Any]) -> tuple[tuple[Reply, Node], ...]:
    out: list[tuple[Reply, Node]] = []
    for item in children:
        if isinstance(item, tuple):
            out.append(item)
        elif item.type in ("SMALL", "NEXT_SMALL"):
            out.append(_small(item))
        elif item.type in ("MEDIUM", "NEXT_MEDIUM"):
            out.append(_medium(item))
        else:  # a run of leaves: "10:ABC,01:ABD"
            out.extend(_leaves(item, item.start_pos))
    return tuple(out)


@cache
def _parser(name: str = "strategy_fast") -> Lark:
    """The LALR parser of a grammar, with a transformer that builds our nodes."""
    from lark import Lark, Transformer, v_args

    class _Fine(Transformer):
        """Builds nodes from the fine tokens of ``strategy.lark``."""

        @v_args(inline=True)
        def known(self, guess: Any) -> Node:
            return Node(str(guess), (), guess.start_pos)

        def guessing(self, children: list[Any]) -> Node:
            guess = children[0]
            return Node(str(guess), tuple(children[1:]), guess.start_pos)

        @v_args(inline=True)
        def branch(self, reply: Any, node: Node) -> tuple[Reply, Node]:
            return Reply(ord(reply[0]) - 48, ord(reply[1]) - 48), node

        @v_args(inline=True)
        def start(self, node: Node) -> Node:
            return node

    class _Fast(_Fine):
        """Builds nodes from the coarse tokens of ``strategy_fast.lark``."""

        def guessing(self, children: list[Any]) -> Node:
            node = _open(children[0])
            node.branches = _branches(children[1:])
            return node

        def inner(self, children: list[Any]) -> tuple[Reply, Node]:
            node = _open(children[0])
            node.branches = _branches(children[1:])
            return _reply(children[0]), node

        next_inner = inner

    class _Lenient(_Fine):
        """Builds nodes from ``strategy_lenient.lark``, noting each repair."""

        def __init__(self) -> None:
            super().__init__(visit_tokens=False)
            self.repairs: list[tuple[int, str]] = []

        def _guess(self, token: Any) -> str:
            text = str(token)
            if not text.isupper():
                self.repairs.append(
                    (token.start_pos, f"lower-case guess {text!r} read as {text.upper()!r}")
                )
            return text.upper()

        @v_args(inline=True)
        def known(self, guess: Any) -> Node:
            return Node(self._guess(guess), (), guess.start_pos)

        def guessing(self, children: list[Any]) -> Node:
            guess = children[0]
            return Node(self._guess(guess), tuple(children[1:]), guess.start_pos)

        def bare_branch(self, children: list[Any]) -> tuple[Reply, Node]:
            reply, guess = children[0], children[1]
            node = Node(self._guess(guess), tuple(children[2:]), guess.start_pos)
            self.repairs.append(
                (
                    reply.start_pos,
                    f"branch {reply}:{guess}:{{...}} has no braces around its subtree; "
                    f"read as {reply}:{{{guess}:{{...}}}}",
                )
            )
            return Reply(ord(reply[0]) - 48, ord(reply[1]) - 48), node

        def extra_braces(self, children: list[Any]) -> Node:
            self.repairs.append((0, "extra braces around the whole strategy removed"))
            return children[0]

    builders = {"strategy_fast": _Fast, "strategy": _Fine, "strategy_lenient": _Lenient}
    builder = builders[name]
    return Lark(
        grammar_text(name),
        parser="lalr",
        lexer="basic",
        transformer=builder() if builder is _Lenient else builder(visit_tokens=False),
        maybe_placeholders=False,
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

    if text.startswith("\ufeff"):
        text = text[1:]
    newlines = [m.start() for m in re.finditer("\n", text)] if "\n" in text else []
    repairs: list[str] = []
    collecting = gc.isenabled()
    gc.disable()  # a large file makes many objects, none of them garbage
    try:
        root = _parser("strategy_fast").parse(text)
    except UnexpectedInput:
        try:
            root = _parse_fine(text, source)
        except StrategyFileError as strict_error:
            found = _parse_lenient(text, source, newlines)
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
    return Strategy(root, source=source, newlines=newlines, repairs=repairs)


def _parse_lenient(
    text: str, source: str, newlines: list[int]
) -> tuple[Node, list[str]] | None:
    """The tree and the repairs made, if the lenient grammar reads the text."""
    import bisect

    from lark.exceptions import UnexpectedInput

    parser = _parser("strategy_lenient")
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


#: the most bytes of a strategy file read unless asked for more (a whole MM(5,8)
#: strategy, 32,768 secrets, takes about 350 KB)
MAX_INPUT_BYTES = 256 * 2**20
#: what ``path`` :func:`read_text` takes for the standard input
STDIN = "-"
#: bytes read at a time from a file, pipe or device
CHUNK = 1 << 20
#: the most memory reading takes per byte of file (a file of one-letter known
#: solutions; typical strategies take about 35)
MEMORY_PER_BYTE = 120


def available_memory() -> int | None:
    """Bytes of memory the system can still give (Linux), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None


def load(
    path: str | os.PathLike[str], *, lenient: bool = False, max_bytes: int = MAX_INPUT_BYTES
) -> Strategy:
    """Read a strategy file (see :func:`loads`; ``path`` and ``max_bytes`` as in
    :func:`read_text`)."""
    return loads(read_text(path, max_bytes), source=source_name(path), lenient=lenient)


def source_name(path: str | os.PathLike[str]) -> str:
    """What a file read is called in messages: its path, ``<stdin>`` for ``-``."""
    return "<stdin>" if str(path) == STDIN else str(path)


def read_text(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The text of a strategy file (in any format), checked to be UTF-8 and to fit in memory:
    the one reading of every strategy file.

    ``path`` may be a regular file, a pipe, a device, or ``-`` for the standard
    input; at most ``max_bytes`` are read (in chunks, so an endless stream
    costs no more), and a longer input raises :class:`InputTooLargeError`.
    Raises :class:`StrategyFileError` naming the file (and, for a byte that is
    not UTF-8, its line and column).

    >>> import io, sys
    >>> stdin, sys.stdin = sys.stdin, io.TextIOWrapper(io.BytesIO(b"A" * 11))
    >>> try:
    ...     read_text("-", max_bytes=10)
    ... except InputTooLargeError as err:
    ...     print(err)
    ... finally:
    ...     sys.stdin = stdin
    <stdin>: more than 10 bytes, the most read (a larger max_bytes would read it)
    """
    name = source_name(path)
    try:
        if str(path) == STDIN:
            data = _read_capped(sys.stdin.buffer, name, max_bytes)
        else:
            size = _regular_size(Path(path))
            if size > max_bytes:
                raise InputTooLargeError(name, max_bytes)
            _check_memory(size, name)
            with open(path, "rb") as source:
                data = _read_capped(source, name, max_bytes)
    except FileNotFoundError:
        raise StrategyFileError("no such file", source=name) from None
    except IsADirectoryError:
        raise StrategyFileError("is a folder, not a strategy file", source=name) from None
    except OSError as err:
        raise StrategyFileError(f"cannot read: {err.strerror or err}", source=name) from None
    _check_memory(len(data), name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise StrategyFileError(
            f"byte 0x{data[err.start]:02x} is not UTF-8 text", source=name, line=line, column=column
        ) from None
    return text


def _regular_size(path: Path) -> int:
    """The size of a regular file (0 for a pipe or device, whose size is known only once read)."""
    info = path.stat()
    return info.st_size if stat.S_ISREG(info.st_mode) else 0


def _read_capped(source: BinaryIO, name: str, max_bytes: int) -> bytearray:
    """All of ``source``, read in chunks; :class:`InputTooLargeError` past ``max_bytes``."""
    data = bytearray()
    while chunk := source.read(min(CHUNK, max_bytes + 1 - len(data))):
        data += chunk
        if len(data) > max_bytes:
            raise InputTooLargeError(name, max_bytes)
    return data


def _check_memory(size: int, name: str) -> None:
    """Refuse a file whose reading could take more memory than the system has left."""
    need = size * MEMORY_PER_BYTE
    free = available_memory()
    if free is not None and need > free * 0.8:
        raise StrategyFileError(
            f"the file is {size / 2**20:,.0f} MiB; reading it could take up to "
            f"{need / 2**30:,.1f} GiB of memory, more than the {free / 2**30:,.1f} GiB available",
            source=name,
        )


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
    """The strategy in the brace grammar: one line, or indented by ``indent`` spaces."""
    root = strategy.root if isinstance(strategy, Strategy) else strategy
    return "".join(walk(root, _Writer(indent)).parts)


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


# -- codes and replies as a person writes them -----------------------------------------
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

    >>> from strategytree.game import preset
    >>> bagel, digits = preset("bagel"), Alphabet(True)
    >>> digits.text(bagel, digits.parse(bagel, "012")), digits.letters(bagel, "ABC")
    ('012', 'ABC')
    >>> digits.word("BCA"), Alphabet().word("BCA")
    ('120', 'BCA')
    >>> digits.parse(bagel, "0B2")
    Traceback (most recent call last):
    ...
    strategytree.errors.CodeError: code '0B2' mixes digits and letters; write it in digits 0..9 (or in letters A..J)
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

    >>> from strategytree.game import preset
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

    >>> from strategytree.game import preset
    >>> guess_index(preset("bulls-and-cows"), "0012")
    Traceback (most recent call last):
    ...
    strategytree.errors.CodeError: 0012 repeats a colour: it is not an allowed guess of bulls-and-cows
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
        if len(set(row.tolist())) < len(row) and _all_distinct(game.secrets if secret else game.guesses):
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
    >>> parse_reply(game, "3 1")
    Traceback (most recent call last):
    ...
    strategytree.errors.CodeError: 3 blacks and 1 white is impossible: the last peg cannot be misplaced alone
    """
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
        if re.search(r"[a-z0-9]", re.sub(r"\b(and|&)\b", " ", rest)) or (black is None and white is None):
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
    >>> from strategytree.game import preset
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


# -- error messages ----------------------------------------------------------
def _show(value: str) -> str:
    if len(value) > 24:
        value = value[:20] + "..."
    return repr(value).replace('"', "'") if value.isprintable() else repr(value)


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
        interactive = _parser("strategy").parse_interactive(text[:pos])
        interactive.exhaust_lexer()
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
