"""Feedback: the reply a guess gets from a secret, defined here and nowhere else.

Knuth's definition: black counts pegs of the same colour in the same place;
black + white is the sum over colours of the smaller of the two counts.
A reply is one small integer, its *reply code*, ``black * (pegs + 1) + white``
(in strategy files the two digits ``"bw"``).

Codes are worked on in a bit encoding (:func:`encode`) that makes a reply two
popcounts.  The reply code of those two counts is :func:`reply_code`, and the
step from two encoded codes to their reply is :func:`reply` (codes of one word)
or :func:`reply_of_rows` (several words): every compiled kernel of the package
that works out replies calls these (compiled once, inlined where called), so
the formula is written once.  Replies are worked out three ways that must agree (the tests
hold each against a plain-Python twin in ``tests/naive.py``):

- :func:`replies_numpy`: numpy, no compilation; what the verifier and the
  guides use, so that reading and checking a file never imports numba;
- :func:`pair_replier`: plain Python ints, for the many tiny sets of a build
  (one or two secrets), where numpy's overhead would dominate;
- the loops :func:`row_one_word`, :func:`row_words` and :func:`table_rows`,
  compiled with numba on first use (:func:`replies_into`, :func:`table`).

:func:`popcount` and :func:`lowest_bit`, the two bit instructions the kernels
use, are here too (numba learns them in :func:`compiled`).

A custom game (``scoring == "table"``) has no formula: its replies are read
from its table, by every one of these.

>>> from strategytree.game import mastermind
>>> game = mastermind(4, 6)
>>> g, s = game.parse_code("AABB"), game.parse_code("ABBA")
>>> int(replies_numpy(*encode(g[None], 6), *encode(s[None], 6), 4)[0])  # 2 black, 2 white
12
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from types import SimpleNamespace
from typing import Any, Protocol, TypeVar

import numpy as np

T = TypeVar("T")

__all__ = [
    "encode",
    "lowest_bit",
    "n_words",
    "pair_replier",
    "popcount",
    "replies",
    "replies_into",
    "replies_numpy",
    "reply",
    "reply_code",
    "reply_of_rows",
    "table",
]


class Game(Protocol):
    """What feedback reads of a game (:class:`strategytree.game.Game` has it all;
    named here so that this module needs nothing of the game module)."""

    pegs: int
    scoring: str
    """``black-white``, ``black-only`` or ``table`` (replies read from :attr:`table`)"""
    table: Any
    guesses: np.ndarray
    secrets: np.ndarray
    guess_bits: tuple[np.ndarray, np.ndarray]
    secret_bits: tuple[np.ndarray, np.ndarray]
    guess_words: tuple[np.ndarray, np.ndarray]
    secret_words: tuple[np.ndarray, np.ndarray]

    def memo(self, name: str, make: Callable[[], T]) -> T: ...


# -- the bit encoding ----------------------------------------------------------------
def n_words(pegs: int, colors: int) -> int:
    """How many 64-bit words hold ``pegs * colors`` bits."""
    return (pegs * colors + 63) // 64


def encode(codes: np.ndarray, colors: int) -> tuple[np.ndarray, np.ndarray]:
    """Two bit sets per code, so that feedback is two popcounts.

    ``pos`` has bit ``i * colors + k`` set when peg ``i`` has colour ``k``, so
    ``popcount(pos_g & pos_s)`` is the number of blacks.  ``cnt`` has bit
    ``k * pegs + j`` set when colour ``k`` occurs more than ``j`` times, so
    ``popcount(cnt_g & cnt_s)`` is the sum over colours of the smaller count,
    i.e. blacks + whites.  Each is an ``(n, words)`` uint64 array.
    """
    codes = np.atleast_2d(np.asarray(codes, dtype=np.uint8))
    n, pegs = codes.shape
    words = n_words(pegs, colors)
    pos = np.zeros((n, words), dtype=np.uint64)
    cnt = np.zeros((n, words), dtype=np.uint64)
    for lo in range(0, n, _ENCODED_AT_ONCE):  # temporaries of a block, not of every code
        hi = lo + _ENCODED_AT_ONCE
        _encode_into(codes[lo:hi], colors, pos[lo:hi], cnt[lo:hi])
    return pos, cnt


#: codes encoded at once by :func:`encode` (its temporaries: some 100 bytes a code a peg)
_ENCODED_AT_ONCE = 1 << 14


def _encode_into(codes: np.ndarray, colors: int, pos: np.ndarray, cnt: np.ndarray) -> None:
    """:func:`encode` of ``codes`` into ``pos`` and ``cnt`` (zeros)."""
    pegs, words = codes.shape[1], pos.shape[1]
    colour = codes.astype(np.int16)
    # the bits of each peg: one per peg in each set, all different, so a sum is an OR
    at_pos = np.arange(pegs, dtype=np.int16) * colors + colour
    at_cnt = colour * pegs  # plus how many earlier pegs have the same colour
    for i in range(pegs):
        for j in range(i):
            at_cnt[:, i] += colour[:, j] == colour[:, i]
    for bits, out in ((at_pos, pos), (at_cnt, cnt)):
        value = np.left_shift(np.uint64(1), (bits & 63).astype(np.uint64))
        word = bits >> 6
        for w in range(words):
            part = np.where(word == w, value, np.uint64(0))
            for i in range(pegs):  # column by column: a sum along a short axis is slow
                out[:, w] += part[:, i]


def kernel_form(pos: np.ndarray, cnt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An encoding as the compiled loops take it: 1-d when one word is enough,
    and owning its data (numba calls with a view of a larger array are slow)."""
    if pos.shape[1] == 1:
        return pos[:, 0].copy(), cnt[:, 0].copy()
    return pos.copy(), cnt.copy()


def popcount(x: int) -> int:
    """Population count of a uint64: one ``popcnt`` instruction when compiled
    (numba is taught so in :func:`compiled`); as plain Python, ``int.bit_count``."""
    return int(x).bit_count()


def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero uint64: one ``tzcnt``
    instruction when compiled (:func:`compiled`)."""
    x = int(x)
    return (x & -x).bit_length() - 1


# -- one reply: the formula, and the step every kernel takes --------------------------------
def reply_code(black, both, stride):
    """The reply code of ``black`` blacks and ``both`` blacks + whites, where
    ``stride`` is ``pegs + 1``: ``black * stride + white``.  Integers or numpy
    arrays alike; pasted into compiled code.

    >>> reply_code(2, 4, 5)   # 2 black, 2 white in a game of 4 pegs
    12
    """
    return black * stride + (both - black)


def reply(gp, gc, sp, sc, stride):
    """The reply code of a guess ``(gp, gc)`` to a secret ``(sp, sc)``: codes
    of one word (:func:`encode`), ``stride = pegs + 1``.  Pasted into compiled code."""
    return reply_code(popcount(gp & sp), popcount(gc & sc), stride)


def reply_of_rows(gpos, gcnt, g, spos, scnt, s, stride):
    """The reply code of guess row ``g`` of ``(gpos, gcnt)`` to secret row
    ``s`` of ``(spos, scnt)``: codes of several words, ``(n, words)`` arrays.
    Pasted into compiled code."""
    black = 0
    both = 0
    for w in range(spos.shape[1]):
        black += popcount(gpos[g, w] & spos[s, w])
        both += popcount(gcnt[g, w] & scnt[s, w])
    return reply_code(black, both, stride)


# -- numpy and plain Python ------------------------------------------------------------
def replies_numpy(
    guess_pos: np.ndarray,
    guess_cnt: np.ndarray,
    secret_pos: np.ndarray,
    secret_cnt: np.ndarray,
    pegs: int,
) -> np.ndarray:
    """Reply codes from bit encodings (rows broadcast against each other)."""
    black = np.bitwise_count(guess_pos & secret_pos).sum(axis=-1, dtype=np.int64)
    both = np.bitwise_count(guess_cnt & secret_cnt).sum(axis=-1, dtype=np.int64)
    return reply_code(black, both, pegs + 1)


def pair_replier(game: Game) -> Callable[[int, int], int]:
    """A function ``reply(guess, secret)`` of two indices into the game's tables
    that gives their reply code with Python ints: for the many tiny sets of a
    build, where a numpy or compiled call costs more than the work.

    >>> from strategytree.game import mastermind
    >>> game = mastermind(4, 6)
    >>> reply = pair_replier(game)
    >>> reply(7, 7) == game.win   # AABB against itself
    True
    """
    if game.scoring == "table":
        rows = game.memo("feedback table rows", lambda: game.table.tolist())
        return lambda guess, secret: rows[guess][secret]

    def as_ints(bits: tuple[np.ndarray, np.ndarray]) -> tuple[list[int], list[int]]:
        # each code's words as one Python int: one & and one bit_count, any size
        def join(words: np.ndarray) -> list[int]:
            return [
                sum(int(w) << (64 * k) for k, w in enumerate(row)) for row in words
            ] if words.shape[1] > 1 else words[:, 0].tolist()

        return join(bits[0]), join(bits[1])

    (pos_g, cnt_g), (pos_s, cnt_s) = game.memo(
        "feedback ints", lambda: (as_ints(game.guess_bits), as_ints(game.secret_bits))
    )
    stride = game.pegs + 1

    def reply_of(guess: int, secret: int) -> int:
        return reply_code(
            (pos_g[guess] & pos_s[secret]).bit_count(), (cnt_g[guess] & cnt_s[secret]).bit_count(),
            stride
        )

    return reply_of


# -- the loops numba compiles ----------------------------------------------------------
def row_one_word(gp, gc, spos, scnt, pegs, out):
    """``out[j]``: the reply code of the guess ``(gp, gc)`` against secret ``j``,
    codes of one word."""
    stride = pegs + 1
    for j in range(spos.shape[0]):
        out[j] = reply(gp, gc, spos[j], scnt[j], stride)


def row_words(gpos, gcnt, guess, spos, scnt, pegs, out):
    """``out[j]``: the reply code of guess row ``guess`` of ``(gpos, gcnt)``
    against secret ``j``, codes of several words."""
    stride = pegs + 1
    for j in range(spos.shape[0]):
        out[j] = reply_of_rows(gpos, gcnt, guess, spos, scnt, j, stride)


def table_rows(gpos, gcnt, spos, scnt, pegs, out):
    """``out[g, j]``: the reply code of guess ``g`` against secret ``j`` (codes
    of one word or several).  Codes of one word take a loop of their own, which
    LLVM vectorises: 14 times faster (MM(5,8)'s table in 0.55 s, not 8 s)."""
    if spos.shape[1] == 1:
        sp, sc = spos[:, 0], scnt[:, 0]
        for g in range(gpos.shape[0]):
            row_one_word(gpos[g, 0], gcnt[g, 0], sp, sc, pegs, out[g])
        return
    for g in range(gpos.shape[0]):
        row_words(gpos, gcnt, g, spos, scnt, pegs, out[g])


@cache
def compiled() -> SimpleNamespace:
    """The compiled loops (numba is imported, and each loop compiled, on first
    use; compiled code is cached on disk).  Other kernels that count bits or
    work out replies call this first, so that numba knows :func:`popcount` and
    :func:`lowest_bit` as instructions, and compiles :func:`reply_code`,
    :func:`reply` and :func:`reply_of_rows` where they are called.  Kernels are then
    loaded from numba's cache without the compiler's set-up (:mod:`.kernelcache`)."""
    from numba import types
    from numba.extending import intrinsic, overload, register_jitable

    from .jit import njit
    from .kernelcache import quick_loads

    quick_loads()

    @intrinsic
    def ctpop(typingctx, x):  # pragma: no cover - compiled by numba
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return types.uint64(types.uint64), codegen

    @intrinsic
    def cttz(typingctx, x):  # pragma: no cover - compiled by numba
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], context.get_constant(types.boolean, True))

        return types.uint64(types.uint64), codegen

    @overload(popcount)
    def popcount_compiled(x):  # pragma: no cover - compiled by numba
        if isinstance(x, types.Integer):
            return lambda x: ctpop(x)
        return None

    @overload(lowest_bit)
    def lowest_bit_compiled(x):  # pragma: no cover - compiled by numba
        if isinstance(x, types.Integer):
            return lambda x: cttz(x)
        return None

    # the Python functions are the compiled ones.  reply_code is pasted into
    # the two steps by numba; the steps are compiled once and LLVM inlines them
    # where called: pasted in by numba instead, MM(5,8)'s partition counts took
    # 9% longer, the entropy scores 30% longer and their first compile 5.4 s,
    # not 3.1 s (python benchmarks/kernel.py with an empty NUMBA_CACHE_DIR).
    register_jitable(inline="always")(reply_code)
    register_jitable(reply)
    register_jitable(reply_of_rows)
    register_jitable(row_one_word)  # (table_rows calls the rows' loops)
    register_jitable(row_words)

    return SimpleNamespace(
        row_one_word=njit(cache=True, nogil=True)(row_one_word),
        row_words=njit(cache=True, nogil=True)(row_words),
        table_rows=njit(cache=True, nogil=True)(table_rows),
    )


# -- a game's replies, compiled ----------------------------------------------------------
def replies_into(game: Game, guess: int, secrets: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Reply codes of allowed guess ``guess`` against ``secrets`` (indices), into ``out``.

    No checks: for the builders' inner loops.  ``out`` is int8, at least as long.
    """
    out = out[: len(secrets)]
    if game.scoring == "table":
        out[:] = game.table[guess, secrets]
        return out
    gpos, gcnt = game.guess_words
    spos, scnt = game.secret_words
    loops = compiled()
    if gpos.ndim == 1:
        loops.row_one_word(gpos[guess], gcnt[guess], spos[secrets], scnt[secrets], game.pegs, out)
    else:
        loops.row_words(gpos, gcnt, guess, spos[secrets], scnt[secrets], game.pegs, out)
    return out


def replies(game: Game, guess: int, secrets: np.ndarray | None = None) -> np.ndarray:
    """Reply codes of allowed guess number ``guess`` against the given secrets.

    ``secrets`` is an array of indices into ``game.secrets`` (default: all).
    Returns an int8 array, one reply code per secret.  Raises
    :class:`~strategytree.errors.CodeError` for indices out of range.
    """
    from .errors import CodeError

    if not (
        isinstance(guess, (int, np.integer))
        and not isinstance(guess, bool)
        and 0 <= guess < len(game.guesses)
    ):
        raise CodeError(f"guess must be an index into game.guesses, got {guess!r}")
    if secrets is None:
        secrets = np.arange(len(game.secrets))
    secrets = np.asarray(secrets)
    if (
        secrets.ndim != 1
        or not np.issubdtype(secrets.dtype, np.integer)
        or (len(secrets) and (secrets.min() < 0 or secrets.max() >= len(game.secrets)))
    ):
        raise CodeError("secrets must be a 1-d array of indices into game.secrets")
    out = np.empty(len(secrets), dtype=np.int8)
    return replies_into(game, int(guess), secrets, out)


#: the replies worked out between two looks at a table's ``stopped`` (a few tens of ms)
TABLE_CHUNK = 1 << 22


def table(game: Game, stopped: Callable[[], bool] | None = None) -> np.ndarray:
    """The reply code of every allowed guess against every secret, an
    ``(guesses, secrets)`` int8 array (compiled: ten times numpy's speed).

    ``stopped`` is asked between runs of rows (about :data:`TABLE_CHUNK` replies):
    when it says True, the build ends with :class:`~strategytree.runner.Stopped`
    (the table of a big game takes seconds: MM(5,8)'s is 1 GiB)."""
    if game.scoring == "table":
        return np.ascontiguousarray(game.table, dtype=np.int8)
    out = np.empty((len(game.guesses), len(game.secrets)), dtype=np.int8)
    gpos, gcnt = game.guess_bits
    spos, scnt = game.secret_bits
    rows = len(game.guesses) if stopped is None else max(1, TABLE_CHUNK // max(1, out.shape[1]))
    for start in range(0, len(game.guesses), rows):
        if stopped is not None and stopped():
            from .runner import Stopped

            raise Stopped
        end = start + rows
        compiled().table_rows(gpos[start:end], gcnt[start:end], spos, scnt, game.pegs,
                              out[start:end])
    return out
