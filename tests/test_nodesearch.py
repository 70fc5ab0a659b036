"""The node search behind both `generate --method lookahead` and `improve`:
one reading of the counts, one settings value, one machine."""

from __future__ import annotations

import numpy as np
import pytest

import strategytree as st
from strategytree.builders import build_greedy
from strategytree.errors import ArgumentError
from strategytree.improve import improve, improve_settings
from strategytree.lookahead import LOOKAHEAD_FINALISTS, build_lookahead
from strategytree.nodesearch import ALL, NodeSearch, SearchSettings, Tally, parse_counts, split
from strategytree.nodesearch.search import parts_by_reply
from strategytree.presets import bulls_and_cows

from cli_runner import invoke


def naive_split(game: st.Game, S: np.ndarray, guess: int) -> list[tuple[int, list[int]]]:
    """The secrets by their reply to ``guess``, one secret at a time (no win, lowest reply
    first)."""
    parts: dict[int, list[int]] = {}
    for s in S.tolist():
        code = int(game.pair_replies(np.array([guess]), np.array([s]))[0])
        parts.setdefault(code, []).append(s)
    return [(code, parts[code]) for code in sorted(parts) if code != game.win]


@pytest.mark.parametrize("game", [st.mastermind(3, 4), bulls_and_cows(), st.game.black_only(3, 4)],
                         ids=lambda g: g.name)
def test_split_is_its_naive_twin(game: st.Game) -> None:
    rng = np.random.default_rng(7)
    n = len(game.secrets)
    for _ in range(20):
        S = np.sort(rng.choice(n, size=int(rng.integers(1, min(n, 300))), replace=False))
        guess = int(rng.integers(len(game.guesses)))
        assert [(code, part.tolist()) for code, part in split(game, S, guess)] \
            == naive_split(game, S, guess)
        whole = parts_by_reply(game, S, guess)
        assert [code for code, _ in whole] == sorted((code for code, _ in whole), reverse=True)


def test_one_reading_of_the_counts() -> None:
    assert parse_counts("8, all,0", "widths") == (8, ALL, 0)
    assert parse_counts((3, 2), "finalists") == (3, 2)
    for text, words in [("8,,4", "missing"), ("8;4", "8,8,4, or all"), ("2,-1", "at least 0")]:
        with pytest.raises(ArgumentError, match=words):
            parse_counts(text, "widths")
    with pytest.raises(ArgumentError, match="complete='0'"):
        SearchSettings.of(complete="0")
    with pytest.raises(ArgumentError, match="deepen"):
        SearchSettings.of(deepen="3")


def test_a_level_beyond_the_lists() -> None:
    built = SearchSettings.of(widths="8,4", finalists="1,3")
    assert [built.width(d) for d in range(4)] == [8, 4, 0, 0]
    assert [built.finalists_at(d) for d in range(4)] == [1, 3, 3, 3]
    improving = improve_settings(widths="4,3,2", finalists="0,0")
    assert [improving.width(d) for d in range(5)] == [4, 3, 2, 2, 2]
    assert improving.finalists == () and improving.finalists_at(3) == 0


def test_the_lookahead_default_is_one_finalist_everywhere() -> None:
    game = st.mastermind(3, 5)
    plain = build_lookahead(game, widths=(6, 4, 2))
    assert st.dumps(build_lookahead(game, widths=(6, 4, 2), finalists=LOOKAHEAD_FINALISTS)) \
        == st.dumps(plain)
    total = st.verify(plain, game).total
    every = build_lookahead(game, widths="all,2", finalists="0,1")  # improve's values
    assert st.verify(every, game).valid and st.verify(every, game).total <= total
    # 0: the level is not searched (greedy below)
    assert build_lookahead(game, widths=(0, 4)) == build_greedy(game)


def test_one_search_makes_both_commands_results() -> None:
    """The machine of both commands: a node's subtree built by the lookahead,
    then searched again by improve's research, never worse."""
    game = st.mastermind(3, 4)
    search = NodeSearch(game, SearchSettings.of(rules=("entropy", "parts"), widths="4,2",
                                                finalists="1", exact_below=10))
    S = np.arange(len(game.secrets))
    built = search.subtree(S, search.choosers[0].root_symmetry(), 0)
    assert st.verify(st.Strategy(built.node), game).total == built.total
    from strategytree.symmetry import Symmetry

    again = search.research(S, 0, Symmetry.of(game), 0, built.total + 1, -1, 4)
    assert again is not None and again[1] <= built.total
    assert search.tally.searched > 0 and search.tally.completions > 0


def test_a_greedy_completion_hears_a_stop() -> None:
    """A budget's stop is heard inside a greedy subtree of a large set (seconds in
    MM(5,8)), not only once it is built."""
    import threading

    from strategytree.runner import Stopped
    from strategytree.symmetry import Symmetry

    game = st.mastermind(4, 6)
    stop = threading.Event()
    search = NodeSearch(game, SearchSettings.of(rules=("entropy",)), stop=stop)
    S = np.arange(len(game.secrets))
    grown = search.greedy(S, Symmetry.of(game))  # not stopped: built whole
    assert st.verify(st.Strategy(grown.node), game).total == grown.total
    stop.set()
    with pytest.raises(Stopped):
        search.greedy(S, Symmetry.of(game))


def test_the_tally_speaks_for_each_command() -> None:
    tally = Tally(searched=3, completions=1, saved=2)
    assert str(tally.progress()).startswith("3 nodes searched, 1 completion, 2 guesses saved")
    tally.best, tally.where = 206, "the root"
    assert "best total 206" in str(tally.progress()) and "at the root" in str(tally.progress())


def test_both_commands_take_the_same_values(tmp_path) -> None:
    out = tmp_path / "la.txt"
    made = invoke(["generate", "-p", "3", "-c", "4", "-m", "lookahead", "--widths", "all,2",
                   "--finalists", "0,1", "-o", str(out)])
    assert made.exit_code == 0, made.output
    better = invoke(["improve", str(out), "--widths", "all,2", "--finalists", "0,1",
                     "-p", "3", "-c", "4", "-o", str(tmp_path / "im.txt")])
    assert better.exit_code == 0, better.output
    assert st.verify(st.load(tmp_path / "im.txt"), st.mastermind(3, 4)).total \
        <= st.verify(st.load(out), st.mastermind(3, 4)).total
    assert improve(st.load(out), st.mastermind(3, 4), widths="all,2", finalists="0,1")
