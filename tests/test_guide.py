"""Lookup guides: the text guide, the lookup table, DOT, HTML and statistics,
checked against the seed's MM(2,3) example and against the naive replay."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from pathlib import Path

import pytest

import strategytree as st
from strategytree.errors import DrawingTooBig, ExportError, StrategyTreeError
from strategytree.export import html_data, render, to_html
from strategytree.formats.graphviz import MAX_DOT_NODES, to_dot
from strategytree.formats.lookup import lookup_csv, lookup_markdown, lookup_rows
from strategytree.guide import (
    GuideTree,
    guide_lines,
    guide_rich,
    guide_text,
    parse_path,
    reply_legend,
)
from strategytree.stats import guess_stats
from strategytree.verify import node_visits

import naive

DATA = Path(__file__).parent / "data"
EXAMPLE = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"
MM23 = st.mastermind(2, 3)

#: the 9 games of the MM(2,3) example, as the code-golf question lists them
SEED_GAMES = [
    "AB 20",
    "AB 10, AC 20",
    "AB 10, AC 10, AA 20",
    "AB 10, AC 01, CB 20",
    "AB 10, AC 00, BB 20",
    "AB 02, BA 20",
    "AB 01, BC 20",
    "AB 01, BC 01, CA 20",
    "AB 00, CC 20",
]

CORPUS = [
    ("arfst-4-6-6.txt", st.mastermind(4, 6)),
    ("arfst-4-6-5.txt", st.mastermind(4, 6)),
    ("arfst-4-7-6.txt", st.mastermind(4, 7)),
    ("arfst-4-8-7.txt", st.mastermind(4, 8)),
    ("arfst-4-6-unique.txt", st.distinct(4, 6, distinct_guesses=True)),
    ("arfst-4-8-unique.txt", st.distinct(4, 8, distinct_guesses=True)),
    ("mikemag-knuth-4-6.txt", st.mastermind(4, 6)),
]


def example() -> GuideTree:
    return GuideTree.build(st.loads(EXAMPLE), MM23)


def naive_games(root: st.Node, game: st.Game) -> dict[str, str]:
    """secret -> its game written ``"AB 10, AC 20"``, by replaying each secret alone."""
    out = {}
    for row in game.secrets.tolist():
        secret, node, moves = naive.text(row), root, []
        while node is not None:
            b, w = naive.feedback(node.guess, secret)
            moves.append(f"{node.guess} {b}{w}")
            if b == game.pegs:
                out[secret] = ", ".join(moves)
                break
            node = next((c for r, c in node.branches if tuple(r) == (b, w)), None)
    return out


# -- the text guide ----------------------------------------------------------------------
def test_text_guide_of_the_example() -> None:
    assert guide_text(example()).split("\n") == [
        "guess AB        9 secrets",
        "  10: guess AC  4 secrets",
        "    10: it is AA",
        "    01: it is CB",
        "    00: it is BB",
        "  02: it is BA",
        "  01: guess BC  2 secrets",
        "    01: it is CA",
        "  00: it is CC",
    ]


def test_depth_and_path() -> None:
    tree = example()
    assert guide_text(tree, depth=0).split("\n") == ["guess AB  9 secrets", "  ..."]
    assert guide_text(tree, depth=1).split("\n") == [
        "guess AB        9 secrets",
        "  10: guess AC  4 secrets",
        "    ...",
        "  02: it is BA",
        "  01: guess BC  2 secrets",
        "    ...",
        "  00: it is CC",
    ]
    assert guide_text(tree, path="AB 01").split("\n") == [
        "after AB 01",
        "guess BC  2 secrets",
        "  01: it is CA",
    ]
    # lower case, a reply alone, and a guess alone at the end all name the same node
    assert tree.locate("ab 10, ac 01") == tree.locate("10, 01") == tree.locate("AB 10, AC 01, CB")
    assert tree.guess[tree.locate("AB 10, AC 01")] == "CB"
    assert tree.locate("") == tree.locate(None) == 0


@pytest.mark.parametrize(
    "path, message",
    [
        ("AC 10", "step 1 of the path (AC 10): the strategy guesses AB here, not AC"),
        ("AB 10, AC 02", ("step 2 of the path (AC 02): the strategy has no branch for reply 02 "
                          "to AC (it has 10, 01, 00)")),
        ("AB 10, AC 11", ("step 2 of the path (AC 11): no guess of MM(2,3) gets reply 11 (1 "
                          "black and 1 white is impossible")),
        ("AB 02, BA 10", "step 2 of the path (BA 10): the strategy expects BA to be the secret"),
        ("AB 20", "step 1 of the path (AB 20): 20 is the win"),
        ("AB, 10", "step 1 of the path ('AB') needs a reply"),
        ("AB 10,, AC 01", "step 2 of the path ('') is not a guess and a reply"),
        ("AB 1", "step 1 of the path ('AB 1') is not a guess and a reply"),
    ],
)
def test_a_path_that_does_not_exist_names_its_step(path: str, message: str) -> None:
    with pytest.raises(StrategyTreeError) as info:
        example().locate(path)
    assert str(info.value).startswith(message), str(info.value)


def test_parse_path() -> None:
    assert parse_path("AABBC 10, abcde 21") == [
        ("AABBC", st.Reply(1, 0)),
        ("ABCDE", st.Reply(2, 1)),
    ]
    assert parse_path("AABBC:10") == [("AABBC", st.Reply(1, 0))]


def test_rich_guide_has_the_same_text_in_colour() -> None:
    tree = example()
    rich = guide_rich(tree, path="AB 10")
    assert ([line.rstrip() for line in rich.plain.split("\n")]
            == guide_text(tree, path="AB 10").split("\n"))
    assert any(span.style for span in rich.spans)


def test_guide_fits_80_columns_on_a_deep_corpus_tree() -> None:
    tree = GuideTree.build(st.load(DATA / "arfst-4-8-7.txt"), st.mastermind(4, 8))
    assert max(len(line) for line in guide_text(tree).split("\n")) <= 80


def test_guide_marks_leaves_that_do_not_solve() -> None:
    tree = GuideTree.build(st.loads("{AB:{10:AA,01:BA}}"), st.mastermind(2, 3))
    text = guide_text(tree)
    assert "10: it is AA  (4 secrets come here, 3 not solved)" in text
    assert "01: it is BA  (2 secrets come here, 2 not solved)" in text


# -- the lookup table ----------------------------------------------------------------------
def test_lookup_rows_are_the_nine_games_of_the_seed() -> None:
    rows = lookup_rows(example())
    assert [r.game for r in rows] == SEED_GAMES
    assert [r.guesses for r in rows] == [g.count(",") + 1 for g in SEED_GAMES]
    assert [r.secret for r in rows] == [g[-5:-3] for g in SEED_GAMES]


def test_lookup_rows_after_a_path_are_complete_games() -> None:
    tree = example()
    rows = lookup_rows(tree, tree.locate("AB 10"))
    assert [r.game for r in rows] == [g for g in SEED_GAMES if g.startswith("AB 10,")]


def test_markdown_and_csv() -> None:
    rows = lookup_rows(example())
    md = lookup_markdown(rows).split("\n")
    assert md[:3] == ["| game | guesses | secret |", "|---|---:|---|", "| AB 20 | 1 | AB |"]
    assert len([line for line in md if line.startswith("| AB")]) == 9
    table = list(csv.DictReader(io.StringIO(lookup_csv(rows))))
    assert [r["game"] for r in table] == SEED_GAMES
    assert sum(int(r["guesses"]) for r in table) == 21


@pytest.mark.parametrize("name, game", CORPUS, ids=[name for name, _ in CORPUS])
def test_rows_cover_every_secret_once(name: str, game: st.Game) -> None:
    strategy = st.load(DATA / name)
    tree = GuideTree.build(strategy, game)
    rows = lookup_rows(tree)
    assert Counter(r.secret for r in rows) == Counter(
        {s: 1 for s in naive_games(strategy.root, game)})
    assert {r.secret: r.game for r in rows} == naive_games(strategy.root, game)
    # the counts of the guide are the counts of the naive replay
    codes = [naive.text(row) for row in game.secrets.tolist()]
    allowed = [naive.text(row) for row in game.guesses.tolist()]
    rep = naive.replay(strategy.root, codes, allowed, game.pegs)
    nodes = [node for node, _, _ in st.tree.iter_nodes(strategy.root)]
    assert tree.visits.tolist() == [rep.visits[id(node)] for node in nodes]
    # statistics agree with the verifier
    stats, report = guess_stats(tree), st.verify(strategy, game)
    assert (stats.histogram, stats.total, stats.max_guesses) == (
        report.histogram, report.total, report.max_guesses)
    assert sum(b.secrets for b in stats.branches) == len(game.secrets)
    assert sum(b.total for b in stats.branches) == report.total


def test_rows_of_a_strategy_that_misses_secrets() -> None:
    strategy = st.loads(EXAMPLE.replace(",00:CC", ""))
    tree = GuideTree.build(strategy, MM23)
    assert [r.game for r in lookup_rows(tree)] == SEED_GAMES[:-1]
    stats = guess_stats(tree)
    assert stats.unsolved == 1 and stats.solved == 8


# -- statistics ------------------------------------------------------------------------------
def test_stats_of_the_example() -> None:
    stats = guess_stats(example())
    assert stats.histogram == {1: 1, 2: 4, 3: 4}
    assert [(b.reply, b.secrets, b.max_guesses) for b in stats.branches] == [
        ("20", 1, 1), ("10", 4, 3), ("02", 1, 2), ("01", 2, 3), ("00", 1, 2)]
    assert stats.branches[1].average == pytest.approx(11 / 4)


# -- DOT ------------------------------------------------------------------------------------
def _dot_graph(text: str) -> tuple[set[str], list[tuple[str, str]]]:
    """Nodes and edges of a DOT text, read by a small parser of the subset we write."""
    assert text.startswith("digraph strategy {\n") and text.rstrip().endswith("}")
    assert text.count("{") == text.count("}") == 1
    nodes, edges = set(), []
    for line in text.split("\n")[2:-2]:
        edge = re.fullmatch(r'  (\w+) -> (\w+) \[(?:label="\d\d"|style=dashed)\];', line)
        node = re.fullmatch(r'  (\w+) \[label="[^"]*", .*\];', line)
        assert edge or node, line
        if edge:
            edges.append((edge.group(1), edge.group(2)))
        else:
            assert node is not None
            nodes.add(node.group(1))
    return nodes, edges


def test_dot_of_the_example_is_the_tree() -> None:
    nodes, edges = _dot_graph(to_dot(example()))
    assert len(nodes) == 9 and len(edges) == 8
    assert {b for _, b in edges} | {"n0"} == nodes  # a tree: every node but the root has a parent
    assert len({b for _, b in edges}) == 8


def test_dot_with_depth_and_path() -> None:
    tree = example()
    nodes, edges = _dot_graph(to_dot(tree, depth=1))
    # AB, AC, BA, BC, CC and one note for each of the two hidden subtrees
    assert len(nodes) == 7 and len(edges) == 6
    nodes, edges = _dot_graph(to_dot(tree, tree.locate("AB 10")))
    assert len(nodes) == 5 and len(edges) == 4  # AB, then AC and its three leaves


def test_dot_refuses_a_tree_too_big_to_draw() -> None:
    tree = GuideTree.build(st.load(DATA / "arfst-4-6-6.txt"), st.mastermind(4, 6))
    assert len(tree) > MAX_DOT_NODES
    with pytest.raises(DrawingTooBig, match="to a depth"):
        to_dot(tree, limit=MAX_DOT_NODES)
    nodes, edges = _dot_graph(to_dot(tree, depth=1, limit=MAX_DOT_NODES))
    assert len(edges) == len(nodes) - 1
    # the text alone has no limit: every node of the tree
    nodes, edges = _dot_graph(to_dot(tree))
    assert len(nodes) == len(tree) and len(edges) == len(nodes) - 1


# -- HTML ---------------------------------------------------------------------------------
def test_html_is_self_contained() -> None:
    page = to_html(example(), title="mm23 <test>")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"https?:", page)
    assert not re.search(r"""\b(src|href)\s*=""", page, re.IGNORECASE)
    assert not re.search(r"@import|url\(", page)
    assert "mm23 &lt;test&gt;" in page
    assert page.count("<script") == 2  # the data and the code, both inline


def test_html_data_is_flat() -> None:
    tree = example()
    data = html_data(tree)
    assert len(data["guess"]) == len(data["reply"]) == len(data["count"]) == 9
    assert data["count"][0] == 9 and sum(data["win"]) == 9
    sub = html_data(tree, tree.locate("AB 01"))
    assert sub["prefix"] == [["AB", "01"]]
    assert [sub["codes"][g] for g in sub["guess"]] == ["BC", "CA"]
    assert sub["end"] == [2, 2]


# -- a very deep tree ----------------------------------------------------------------------
def test_a_tree_200000_levels_deep() -> None:
    n = 200_000
    node = st.Node("BB")
    for _ in range(n):
        node = st.Node("AA", ((st.Reply(0, 0), node),))
    tree = GuideTree.build(node, st.mastermind(2, 2))
    assert tree.visits[:2].tolist() == [4, 1] and tree.won[-1] >= 0
    rows = lookup_rows(tree)
    assert [r.guesses for r in rows] == [1, n + 1]
    lines = guide_lines(tree, depth=40)
    assert len(lines) == 42 and sum(len(t) for t, _ in lines[-2]) <= 80
    assert guess_stats(tree).histogram == {1: 1, n + 1: 1}
    assert len(html_data(tree)["end"]) == n + 1
    assert to_dot(tree, depth=2).count("->") == 3


# -- other games ----------------------------------------------------------------------------
@pytest.mark.parametrize("name, pegs, colors", [("black-only", 3, 4), ("bagel", None, None)])
def test_guides_of_other_games(name: str, pegs: int | None, colors: int | None) -> None:
    preset = getattr(st.game, "preset", None)
    if preset is None:
        pytest.skip("this strategytree has no game presets")
    from strategytree.builders import build_greedy

    game = preset(name, pegs, colors)
    strategy = build_greedy(game, rule="minimax")
    tree = GuideTree.build(strategy, game)
    report = st.verify(strategy, game)
    rows = lookup_rows(tree)
    # the table spells codes in the game's alphabet: digits for bagel
    spell = (lambda s: "".join(map(str, s))) if game.symbols == "digits" else naive.text
    assert sorted(r.secret for r in rows) == sorted(spell(s) for s in game.secrets.tolist())
    assert sum(r.guesses for r in rows) == report.total == guess_stats(tree).total
    assert tree.visits.tolist() == node_visits(strategy, game)


# -- every format through one call ------------------------------------------------------
def test_render_every_format() -> None:
    strategy = st.loads(EXAMPLE)
    tree = example()
    legend = ("replies: 02 = 0 black (right colour, right place), "
              "2 white (right colour, wrong place)")
    assert render(strategy, MM23).text == legend + "\n" + guide_text(tree) + "\n"
    assert render(strategy, MM23, "text", depth=1, path="AB 10").text == (
        legend + "\n" + guide_text(tree, depth=1, path="AB 10") + "\n")
    assert render(strategy, MM23, "markdown").text == lookup_markdown(lookup_rows(tree))
    assert render(strategy, MM23, "csv", path="AB 01").text == lookup_csv(
        lookup_rows(tree, tree.locate("AB 01")))
    assert render(strategy, MM23, "dot", depth=1).text == to_dot(tree, 0, 1)
    assert render(strategy, MM23, "html", title="t").text == to_html(tree, title="t")
    styled = render(strategy, MM23, styled=True)
    assert styled.text == "" and styled.styled is not None
    assert styled.styled.plain.splitlines()[0] == legend
    assert styled.styled.plain.rstrip() == legend + "\n" + guide_text(tree)
    one = render(strategy, MM23, secret="CA")
    assert one.text.endswith("solved in 3 guesses\n") and not one.unsolved


def test_render_says_what_is_missing_in_words_of_arguments() -> None:
    short = st.loads(EXAMPLE.replace(",00:CC", ""))
    table = render(short, MM23, "csv")
    assert table.warning is not None and table.warning.startswith("1 secret behind this guide is")
    assert render(short, MM23, secret="CC").unsolved
    for options in ({"fmt": "csv", "secret": "CA"}, {"path": "AB 10", "secret": "CA"},
                    {"fmt": "html", "depth": 1}, {"fmt": "pdf"}):
        with pytest.raises(ExportError) as info:
            render(short, MM23, **options)
        assert "--" not in str(info.value)


@pytest.mark.parametrize("pegs", [1, 2, 3, 4, 5])
def test_the_legend_s_example_is_a_reply_the_game_gives(pegs: int) -> None:
    game = st.mastermind(pegs, 3)
    shown = reply_legend(game).split()[1]  # "replies: 21 = ..."
    given = {str(game.reply(int(r))) for g in game.guesses for r in game.feedback(g, game.secrets)}
    assert shown in given, (shown, sorted(given))
