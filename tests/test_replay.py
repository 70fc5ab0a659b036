"""The one replay of secrets through a strategy (strategytree.replay), against a
plain walk of the tree one secret at a time, in every kind of game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import strategytree as st
from strategytree import replay as replay_module
from strategytree.game import Game, custom
from strategytree.replay import FlatTree, replay
from strategytree.tree import Node, Reply, iter_nodes

import naive
from trees import ANY_REPLY, LETTERS, nodes, valid_replies

ROOT = Path(__file__).parent.parent
EXAMPLE = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"


def games() -> list[Game]:
    return [
        st.mastermind(1, 3),
        st.mastermind(2, 3),
        st.mastermind(3, 2),
        st.distinct(2, 3, distinct_guesses=True),
        st.distinct(3, 3),
        st.presets.preset("black-only", 2, 3),
        custom(2, 3, lambda g, s: (sum(g) > sum(s)) - (sum(g) < sum(s)) if g != s else "win"),
    ]


def reply_of(game: Game, guess: int, secret: int) -> int:
    """The reply code of two indices, from the definitions (or the custom table)."""
    if game.scoring == "table":
        return int(game.table[guess, secret])
    b, w = naive.feedback(game.guesses[guess].tolist(), game.secrets[secret].tolist())
    return naive.reply_code((b, 0 if game.scoring == "black-only" else w), game.pegs)


def plain(root: Node, game: Game, secret: int) -> tuple[int, list[Node], int, list]:
    """One secret down the tree: guesses (0 unsolved), nodes visited, last reply
    (-1 at a guess that cannot be played), moves."""
    allowed = {naive.text(row): i for i, row in enumerate(game.guesses.tolist())}
    node, visited, moves = root, [], []
    while True:
        visited.append(node)
        g = allowed.get(node.guess, -1)
        if g < 0:
            return 0, visited, -1, moves
        reply = reply_of(game, g, secret)
        moves.append((g, reply))
        if reply == game.win:
            return len(moves), visited, reply, moves
        written = game.reply(reply)
        nxt = next((c for r, c in node.branches if r == written), None)
        if nxt is None:
            return 0, visited, reply, moves
        node = nxt


@hs.composite
def game_and_tree(draw) -> tuple[Game, Node]:
    game = draw(hs.sampled_from(games()))
    p, c = game.pegs, game.colors
    secrets = [naive.text(row) for row in game.secrets.tolist()]
    guesses = hs.one_of(
        hs.sampled_from(secrets),
        hs.text(alphabet=LETTERS[: c + 1], min_size=max(1, p - 1), max_size=p + 1),
    )
    replies = hs.one_of(*[hs.sampled_from(valid_replies(p))] * 3, ANY_REPLY)
    unique = draw(hs.booleans())
    return game, draw(nodes(guesses, replies, max_depth=4, max_branches=5, unique_replies=unique))


def check_against_plain(root: Node, game: Game, secrets: list[int]) -> None:
    flat = FlatTree(root, game)
    played = replay(flat, np.array(secrets, dtype=np.int64))
    index = {id(n): i for i, (n, _, _) in enumerate(iter_nodes(root))}
    visits = np.zeros(len(flat), dtype=np.int64)
    stuck = np.zeros(len(flat), dtype=np.int64)
    for k, secret in enumerate(secrets):
        guesses, visited, last, moves = plain(root, game, secret)
        for n in visited:
            visits[index[id(n)]] += 1
        stop = index[id(visited[-1])]
        stuck[stop] += guesses == 0
        assert played.guesses[k] == guesses
        assert played.node[k] == stop and played.reply[k] == last
        assert played.moves(k) == moves
        assert (played.reason(k) is None) == (guesses > 0)
        if guesses:
            assert played.won[stop] == secret
    assert played.visits.tolist() == visits.tolist()
    assert played.stuck.tolist() == stuck.tolist()
    assert played.secrets.tolist() == secrets


@given(game_and_tree(), hs.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_replay_against_a_plain_walk(case, data) -> None:
    game, root = case
    check_against_plain(root, game, list(range(len(game.secrets))))
    # a subset, with repeats, in any order
    some = data.draw(hs.lists(hs.integers(0, len(game.secrets) - 1), max_size=12))
    check_against_plain(root, game, some)


@given(game_and_tree())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_one_game_at_a_time_is_the_same_replay(case) -> None:
    """The path followed with Python ints (long thin paths) gives what the levels give."""
    game, root = case
    flat = FlatTree(root, game)
    levels = replay(flat)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(replay_module, "_THIN", 10**9)
        patch.setattr(replay_module, "_DEEP", 0)
        alone = replay(flat)
    for name in ("guesses", "node", "reply", "visits", "won", "stuck"):
        assert getattr(levels, name).tolist() == getattr(alone, name).tolist(), name


def test_a_long_thin_path() -> None:
    game = st.mastermind(2, 2)
    node = Node("BB")
    for _ in range(30):
        node = Node("AA", ((Reply(0, 0), node),))
    check_against_plain(node, game, list(range(len(game.secrets))) * 3)


def test_reasons_and_moves_of_the_example() -> None:
    game = st.mastermind(2, 4)
    tree = st.loads("{AB:{10:{AC:{10:AA,01:CB}},02:BA,01:{BCD:{01:AC}},00:CC}}")
    flat = FlatTree(tree, game)
    played = replay(flat)
    reasons = {game.code_text(game.secrets[s]): played.reason(k)
               for k, s in enumerate(played.secrets.tolist())}
    assert reasons["AA"] is None
    assert reasons["AD"] == "the strategy expected AA, but the secret is AD"
    assert reasons["BB"] == "the strategy has no branch for reply 00 to AC"
    assert reasons["BC"] == "BCD is not an allowed guess of MM(2,4)"
    k = played.secrets.tolist().index(int(game.secret_index(game.parse_code("CB"))[0]))
    assert [(flat.guess_text(g), str(game.reply(r))) for g, r in played.moves(k)] == [
        ("AB", "10"), ("AC", "01"), ("CB", "20")]


def test_flat_tree_children_follow_and_history() -> None:
    game = st.mastermind(2, 3)
    flat = FlatTree(st.loads(EXAMPLE), game)
    code = game.reply_code
    assert flat.children(0) == [1, 5, 6, 8]
    assert flat.follow([code((1, 0)), code((0, 1))]) == (3, None)
    assert flat.guess[3] == "CB"
    assert flat.follow([code((1, 0)), code((1, 1))]) == (1, code((1, 1)))
    assert flat.follow([code((0, 2)), code((0, 0))]) == (5, code((0, 0)))  # a leaf has no branch
    assert flat.history(3) == [("AB", Reply(1, 0)), ("AC", Reply(0, 1))]
    assert flat.guess_index.tolist() == [
        int(game.guess_index(game.parse_code(g))[0]) for g in flat.guess]
    # a reply written twice: the first is taken
    twice = FlatTree(st.loads("{AB:{10:AC,10:AA}}", lenient=False), game)
    assert twice.child(0, code((1, 0))) == 1


def test_replaying_needs_no_numba() -> None:
    code = (
        "import sys, strategytree as st;"
        "s = st.load('examples/mm58.txt'); st.verify(s);"
        "from strategytree.export import render; g = st.mastermind(5, 8);"
        "render(s, g, 'html'); render(s, g, 'text', secret='ABCDE');"
        "from strategytree.simulate import simulate; simulate(g, s, [0, 5, 7]);"
        "assert 'numba' not in sys.modules, 'numba was imported'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=120)
