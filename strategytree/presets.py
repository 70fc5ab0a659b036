"""Which game a set of arguments means: the named games (:data:`GAMES`) and the one
resolver of options (:func:`resolve_game`), which every command asks; and the way
back, the arguments that make a game again (:func:`game_record`).

>>> game, notes = resolve_game("bagel")
>>> game.name, len(game.secrets), notes
('bagel', 720, [])
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import GameArgumentError, GameError
from .game import (
    BLACK_AND_WHITE,
    BULLS_AND_COWS,
    LETTERS,
    MAX_PEGS,
    Game,
    ReplyWords,
    black_only,
    check_count,
    check_distinct_count,
    check_size,
    mastermind,
)
from .game import distinct as distinct_game  # (resolve_game's argument hides the name)

__all__ = ["GAMES", "PRESETS", "Preset", "bagel", "bulls_and_cows", "check_game_arguments",
           "game_record", "preset", "resolve_game", "similar_game"]


@dataclass(frozen=True)
class Preset:
    """A named game: what it fixes, and what the other arguments may still choose."""

    name: str
    pegs: int | None = None
    """the pegs it always has (None: chosen by ``pegs``, default 4)"""
    colors: int | None = None
    """the colours it always has (None: chosen by ``colors``, default 6)"""
    distinct: bool | None = None
    """True: secrets never repeat a colour; False: it has no such variant;
    None: ``distinct`` chooses"""
    distinct_guesses: bool | None = None
    """the same for guesses (None: ``distinct_guesses`` chooses)"""
    scoring: str = "black-white"
    """how replies are scored (:attr:`Game.scoring`)"""
    symbols: str = "letters"
    """how codes are shown (:attr:`Game.symbols`)"""
    reply_words: ReplyWords = BLACK_AND_WHITE
    """what replies are called (:attr:`Game.reply_words`)"""
    named: bool = False
    """True: the game is called by the preset's name (else by its size)"""


#: the named games, by the names ``--game`` accepts
GAMES: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("mastermind"),
        Preset("distinct", distinct=True),
        Preset(
            "bulls-and-cows", 4, 10, True, True,
            symbols="digits", reply_words=BULLS_AND_COWS, named=True,
        ),
        Preset("bagel", 3, 10, True, True, symbols="digits", reply_words=BULLS_AND_COWS,
               named=True),
        Preset("black-only", distinct=False, distinct_guesses=False, scoring="black-only"),
    )
}
#: the names of the named games
PRESETS = tuple(GAMES)


def bulls_and_cows() -> Game:
    """Bulls and Cows: 4 distinct of 10, guesses distinct too, shown as digits
    (colours A..J stand for 0..9)."""
    return resolve_game("bulls-and-cows")[0]


def bagel() -> Game:
    """Bagel: 3 distinct of 10, guesses distinct too, shown as digits
    (colours A..J stand for 0..9)."""
    return resolve_game("bagel")[0]


def resolve_game(
    preset: str | None = None,
    pegs: int | None = None,
    colors: int | None = None,
    *,
    distinct: bool = False,
    distinct_guesses: bool = False,
    strategy: object | None = None,
) -> tuple[Game, list[str]]:
    """The game that a preset, sizes and distinct flags mean, and notes on what
    was inferred: the one place where arguments become a game.

    ``preset`` names one of :data:`GAMES` (default ``mastermind``).  Arguments
    the preset already implies are accepted (``bulls-and-cows`` with
    ``distinct_guesses=True``, or ``pegs=4``); arguments that would change it
    raise :class:`~strategytree.errors.GameArgumentError` naming both
    (``black-only`` has no distinct variant; ``bulls-and-cows`` has 4 pegs).
    ``distinct_guesses`` implies ``distinct``.  Where the preset leaves the
    pegs or colours open and they are not given, they are inferred from
    ``strategy`` (a :class:`~strategytree.tree.Strategy`: the length of its
    first guess, its highest colour letter), each with a note; without a
    strategy they default to 4 pegs and 6 colours.

    >>> game, notes = resolve_game("bulls-and-cows", distinct_guesses=True)
    >>> game.name, len(game.secrets), game.symbols, notes
    ('bulls-and-cows', 5040, 'digits', [])
    >>> resolve_game("black-only", distinct=True)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    strategytree.errors.GameArgumentError: preset='black-only' has no distinct variant
    (distinct=True)
    """
    chosen, pegs, colors = _chosen(preset, pegs, colors, distinct, distinct_guesses)
    notes: list[str] = []
    secrets_distinct = bool(chosen.distinct or distinct or distinct_guesses)
    guesses_distinct = bool(chosen.distinct_guesses or distinct_guesses)
    if strategy is not None and pegs is None:
        pegs = len(strategy.root_guess)  # type: ignore[attr-defined]
        notes.append(f"pegs {pegs} (from the first guess)")
        if not 1 <= pegs <= MAX_PEGS:
            source = getattr(strategy, "source", "the strategy")
            raise GameError(f"{source}: its first guess has {pegs:,} pegs, where a game has 1 "
                            f"to {MAX_PEGS}")
    if strategy is not None and colors is None:
        letters = strategy.guess_letters() & set(LETTERS)  # type: ignore[attr-defined]
        if not letters:
            raise GameError("cannot infer the colours: no guess uses a letter A..Z")
        highest = max(letters)
        colors = LETTERS.index(highest) + 1
        notes.append(f"colors {colors} (from the highest colour letter, {highest})")
    pegs = 4 if pegs is None else pegs
    colors = 6 if colors is None else colors
    if secrets_distinct:
        game = distinct_game(pegs, colors, distinct_guesses=guesses_distinct)
    elif chosen.scoring == "black-only":
        game = black_only(pegs, colors)
    else:
        game = mastermind(pegs, colors)
    if chosen.named or chosen.symbols != game.symbols or chosen.reply_words != game.reply_words:
        game = Game(
            game.pegs, game.colors, game.secrets, game.guesses,
            name=chosen.name if chosen.named else game.name, scoring=game.scoring,
            symbols=chosen.symbols, reply_words=chosen.reply_words,
        )
    return game, notes


def similar_game(game: Game, pegs: int | None = None, colors: int | None = None) -> Game:
    """A game of ``game``'s kind (its scoring; secrets, and guesses, of distinct
    colours or not) with ``pegs`` pegs and ``colors`` colours (by default its
    own), as :func:`resolve_game` makes it from those options.

    >>> similar_game(distinct_game(4, 6, distinct_guesses=True), 3, 4).name
    '3 distinct of 4, distinct guesses'
    """
    apart = len(game.secrets) < game.colors**game.pegs
    both = apart and len(game.guesses) == len(game.secrets)
    preset = "black-only" if game.scoring == "black-only" else "mastermind"
    return resolve_game(
        preset, game.pegs if pegs is None else pegs, game.colors if colors is None else colors,
        distinct=apart, distinct_guesses=both,
    )[0]


def game_record(game: Game) -> dict[str, object] | None:
    """The arguments of :func:`resolve_game` that make ``game`` again (``preset``,
    ``pegs``, ``colors``, ``distinct``, ``distinct_guesses``): what a file records
    of the game its tree was built for; None for a game no preset makes (a custom
    feedback, a subset of codes, display other than the preset's).

    >>> game_record(bagel())
    {'preset': 'bagel', 'pegs': 3, 'colors': 10, 'distinct': True, 'distinct_guesses': True}
    >>> game = resolve_game(**game_record(black_only(3, 5)))[0]
    >>> game.name, game.scoring
    ('black-only MM(3,5)', 'black-only')
    """
    if game.scoring == "table" or not game.symmetric:
        return None
    apart = len(game.secrets) < game.colors**game.pegs
    both = len(game.guesses) < game.colors**game.pegs
    if both and not apart:
        return None  # guesses of distinct colours, secrets not: no preset plays that
    if game.scoring == "black-only":
        name = "black-only"
    elif (chosen := GAMES.get(game.name)) is not None and chosen.named:
        name = game.name
    else:
        name = "distinct" if apart else "mastermind"
    chosen = GAMES[name]
    if (chosen.distinct is not None and chosen.distinct != apart
            or chosen.distinct_guesses is not None and chosen.distinct_guesses != both
            or any(getattr(chosen, size) not in (None, getattr(game, size))
                   for size in ("pegs", "colors"))
            or (chosen.symbols, chosen.reply_words) != (game.symbols, game.reply_words)):
        return None
    return {"preset": name, "pegs": game.pegs, "colors": game.colors, "distinct": apart,
            "distinct_guesses": both}


def _chosen(preset: str | None, pegs: int | None, colors: int | None, distinct: bool,
            distinct_guesses: bool) -> tuple[Preset, int | None, int | None]:
    """The preset the arguments name and the sizes it fixes or they give, or the
    :class:`~strategytree.errors.GameArgumentError` of arguments that contradict it."""
    name = "mastermind" if preset is None else preset
    chosen = GAMES.get(name.strip().lower())  # --game Mastermind, Bulls-And-Cows
    if chosen is None:
        raise GameArgumentError(f"{{preset}} is not a game; choose from {', '.join(PRESETS)}",
                                preset=name)
    pegs = _size(chosen, "pegs", pegs)
    colors = _size(chosen, "colors", colors)
    if chosen.distinct is False and (distinct or distinct_guesses):
        given = "distinct_guesses" if distinct_guesses else "distinct"
        raise GameArgumentError(
            f"{{preset}} has no distinct variant ({{{given}}})", preset=name, **{given: True}
        )
    return chosen, pegs, colors


def check_game_arguments(
    preset: str | None = None,
    pegs: int | None = None,
    colors: int | None = None,
    *,
    distinct: bool = False,
    distinct_guesses: bool = False,
) -> None:
    """Raise what :func:`resolve_game` would raise for these arguments (no strategy
    to infer from), without making the game's tables: cheap for any size.

    >>> check_game_arguments("mastermind", 9, 26)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategytree.errors.GameError: 26^9 = 5,429,503,678,976 codes is more than ...
    """
    chosen, pegs, colors = _chosen(preset, pegs, colors, distinct, distinct_guesses)
    pegs = 4 if pegs is None else pegs
    colors = 6 if colors is None else colors
    check_size(pegs, colors)
    if chosen.distinct or distinct or distinct_guesses:
        check_distinct_count(pegs, colors)
    if not (chosen.distinct_guesses or distinct_guesses):  # every code is a guess
        check_count(colors**pegs, pegs, colors, f"{colors}^{pegs} = {colors**pegs:,} codes")


def _size(chosen: Preset, what: str, given: int | None) -> int | None:
    """``given`` pegs or colours, checked against what the preset fixes."""
    fixed = getattr(chosen, what)
    if fixed is not None and given is not None and given != fixed:
        words = "pegs" if what == "pegs" else "colours"
        raise GameArgumentError(
            f"{{preset}} has {fixed} {words}, not {{{what}}}", preset=chosen.name, **{what: given}
        )
    return fixed if fixed is not None else given


def preset(
    name: str,
    pegs: int | None = None,
    colors: int | None = None,
    *,
    distinct_guesses: bool = False,
) -> Game:
    """A named game (see :func:`resolve_game`): ``mastermind`` (default 4 pegs,
    6 colours), ``distinct`` (secrets without repeated colours;
    ``distinct_guesses`` for guesses too), ``bulls-and-cows`` (4 distinct of
    10), ``bagel`` (3 distinct of 10), ``black-only`` (Mastermind where only
    blacks are told).

    >>> preset("bulls-and-cows").name, len(preset("bagel").secrets)
    ('bulls-and-cows', 720)
    """
    return resolve_game(name, pegs, colors, distinct_guesses=distinct_guesses)[0]
