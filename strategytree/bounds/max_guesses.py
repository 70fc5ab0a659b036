"""``strategytree bound``: the fewest guesses that solve every secret, proved by
the exact search (:func:`~strategytree.search.driver.prove_bound`), reported as
text or JSON.

>>> from strategytree.game import mastermind
>>> bound_text(mastermind(2, 3), 3, 0.5)
'MM(2,3): 3 guesses solve every secret; none within 2 (proved in 0.50 s)'
"""

from __future__ import annotations

import time
from typing import Any

from ..game import Game
from ..outcome import CommandOutcome
from ..progress import QUIET, Watch
from ..search.driver import prove_bound
from . import bound_json as shape

__all__ = ["bound_json", "bound_outcome", "bound_text"]


def bound_json(game: Game, guesses: int, seconds: float | None = None) -> dict[str, object]:
    """The ``bound --json`` shape of :func:`prove_bound`'s answer: the fields every
    bound has (:func:`strategytree.bounds.bound_json`: ``measure`` is
    ``max_guesses``, ``bound`` and ``optimum`` are both the fewest guesses that
    solve every secret, proved), then ``max_guesses`` (the same figure) and
    ``none_within`` (``max_guesses - 1``: no strategy solves every secret within it)."""
    return shape(game, "max_guesses", guesses, optimum=guesses, method="exhaustive search",
                 complete=True, seconds=seconds, max_guesses=guesses, none_within=guesses - 1)


def bound_text(game: Game, guesses: int, seconds: float) -> str:
    """What ``strategytree bound`` prints of :func:`prove_bound`'s answer (rich markup)."""
    from rich.markup import escape

    from ..words import plural

    below = f"; none within {guesses - 1}" if guesses > 1 else ""
    return (f"{escape(game.name)}: {plural(guesses, 'guess')} solve{'s' * (guesses == 1)} every "
            f"secret{below} (proved in {seconds:.2f} s)")


def bound_outcome(game_options: dict[str, Any] | None = None, *, symmetry: bool = True,
                  as_json: bool = False, workers: int | str | None = None,
                  scheduler: str | None = None, watch: Watch = QUIET) -> CommandOutcome:
    """What ``strategytree bound`` does: :func:`prove_bound` in the game of
    ``game_options`` (:func:`~strategytree.presets.resolve_game`'s keywords), warmed
    up, on the cluster of ``workers`` or ``scheduler``, told on ``watch``, timed
    (the cluster's start-up not counted); :func:`bound_text` or :func:`bound_json`."""
    from ..presets import resolve_game

    game = resolve_game(**(game_options or {}))[0]
    watch.warm(game, lambda small: prove_bound(small, symmetry=symmetry))
    with watch.running("proving", game, workers, scheduler) as (client, progress):
        started = time.perf_counter()
        guesses = prove_bound(game, symmetry=symmetry, progress=progress, client=client)
    elapsed = time.perf_counter() - started
    return CommandOutcome.either(as_json, bound_json(game, guesses, elapsed),
                                 [bound_text(game, guesses, elapsed)])
