"""The verifier: published totals, a naive replay twin, and every kind of problem
found at its place."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import strategytree as st
from strategytree import Game, Node, Strategy, StrategyTreeError
from strategytree.tree import iter_nodes
from strategytree.verify import node_visits

import naive
from trees import ANY_REPLY, LETTERS, nodes, valid_replies

DATA = Path(__file__).parent / "data"
EXAMPLE = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"


def codes_of(rows) -> list[str]:
    return [naive.text(row) for row in rows.tolist()]


def twin(strategy: Strategy, game: Game) -> naive.Replay:
    return naive.replay(strategy.root, codes_of(game.secrets), codes_of(game.guesses), game.pegs)


def position(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, column) of the ``nth`` occurrence of ``needle`` in ``text``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


# -- the example of the README ------------------------------------------------------
def test_example_scores_21_with_at_most_3() -> None:
    report = st.verify(st.loads(EXAMPLE), st.mastermind(2, 3))
    assert (report.total, report.max_guesses) == (21, 3)  # the code-golf challenge's figure
    assert report.valid and report.solved == report.secrets == 9 and report.unsolved == 0
    assert report.average == pytest.approx(21 / 9)
    rep = twin(st.loads(EXAMPLE), st.mastermind(2, 3))
    assert (rep.total, rep.max_guesses, rep.histogram) == (21, 3, report.histogram)


# -- the corpus of published trees -------------------------------------------------------
def corpus() -> list[dict[str, str]]:
    """The rows of the Markdown table of tests/data/CORPUS.md, by column name."""
    lines = [line.strip() for line in (DATA / "CORPUS.md").read_text(encoding="utf-8").splitlines()]
    table = [line for line in lines if line.startswith("|") and line.endswith("|")]
    cells = [[cell.strip() for cell in line[1:-1].split("|")] for line in table]
    header, rows = cells[0], [row for row in cells[2:]]
    assert re.fullmatch(r"-+", cells[1][0].replace(":", ""))  # the separator row
    return [dict(zip(header, row)) for row in rows]


def corpus_game(description: str) -> Game:
    if m := re.fullmatch(r"MM\((\d+),(\d+)\)", description):
        return st.mastermind(int(m[1]), int(m[2]))
    if m := re.fullmatch(r"(\d+) distinct of (\d+), guesses distinct too", description):
        return st.distinct(int(m[1]), int(m[2]), distinct_guesses=True)
    raise AssertionError(f"unknown game in CORPUS.md: {description}")


CORPUS = corpus()


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def test_corpus_table_lists_every_data_file() -> None:
    assert len(CORPUS) >= 9
    assert sorted(row["file"] for row in CORPUS) == sorted(p.name for p in DATA.glob("*.txt"))
    # the literature's figures are among them
    totals = {_number(row["total guesses"]) for row in CORPUS}
    assert {5801, 5625, 11228} <= totals


@pytest.mark.parametrize("row", CORPUS, ids=[row["file"] for row in CORPUS])
def test_corpus_totals(row: dict[str, str]) -> None:
    game = corpus_game(row["game"])
    strategy = st.load(DATA / row["file"])
    report = st.verify(strategy, game, strict=True)
    assert report.secrets == _number(row["secrets"]) == len(game.secrets)
    assert report.total == _number(row["total guesses"])
    assert report.max_guesses == _number(row["max guesses"])
    assert report.valid, [str(p) for p in report.errors]
    assert report.unsolved == 0 and not report.unreachable_branches
    assert sum(report.histogram.values()) == report.secrets
    assert sum(k * v for k, v in report.histogram.items()) == report.total
    # and a plain replay, one secret at a time, agrees
    rep = twin(strategy, game)
    assert not rep.unsolved
    assert (rep.total, rep.max_guesses, rep.histogram) == (
        report.total,
        report.max_guesses,
        report.histogram,
    )


def test_corpus_under_an_inferred_game() -> None:
    # the MM files need no game: pegs and colours are inferred from the file
    row = next(row for row in CORPUS if row["file"] == "mikemag-knuth-4-6.txt")
    report = st.verify(st.load(DATA / row["file"]))
    assert report.game == "MM(4,6)" and report.total == _number(row["total guesses"])


def test_node_visits_against_twin() -> None:
    strategy = st.load(DATA / "arfst-4-6-5.txt")
    game = st.mastermind(4, 6)
    rep = twin(strategy, game)
    want = [rep.visits[id(node)] for node, _, _ in iter_nodes(strategy.root)]
    assert node_visits(strategy, game) == want


# -- random trees against the twin ---------------------------------------------------------
@cache
def small_games() -> list[Game]:
    return [
        st.mastermind(1, 1),
        st.mastermind(1, 3),
        st.mastermind(2, 2),
        st.mastermind(2, 3),
        st.mastermind(3, 2),
        st.mastermind(3, 3),
        st.mastermind(4, 2),
        st.distinct(2, 3),
        st.distinct(2, 3, distinct_guesses=True),
        st.distinct(3, 4, distinct_guesses=True),
        st.distinct(3, 3),
    ]


@hs.composite
def game_and_tree(draw) -> tuple[Game, Node]:
    game = draw(hs.sampled_from(small_games()))
    p, c = game.pegs, game.colors
    secrets = codes_of(game.secrets)
    good = hs.text(alphabet=LETTERS[:c], min_size=p, max_size=p)
    odd = hs.one_of(
        hs.text(alphabet=LETTERS[: c + 1], min_size=p, max_size=p),  # maybe beyond the palette
        hs.text(alphabet=LETTERS[:c], min_size=max(1, p - 1), max_size=p + 1),  # maybe mis-sized
    )
    guesses = hs.one_of(hs.sampled_from(secrets), hs.sampled_from(secrets), good, odd)
    replies = hs.one_of(*[hs.sampled_from(valid_replies(p))] * 4, ANY_REPLY)
    if draw(hs.booleans()):  # any shape at all
        unique = draw(hs.booleans())
        depth = draw(hs.integers(1, 5))
        return game, draw(nodes(guesses, replies, max_depth=depth, max_branches=5,
                                unique_replies=unique))

    # a tree that plays the game: branches follow the replies the remaining
    # secrets really give, with a few branches left out, wrong leaves and extra branches
    def grow(remaining: list[str], depth: int) -> Node:
        if len(remaining) == 1 or depth >= 5:
            return Node(draw(hs.one_of(hs.sampled_from(remaining), guesses)))
        guess = draw(guesses)
        if len(guess) != p or any(LETTERS.index(ch) >= c for ch in guess):
            return Node(guess)
        parts: dict[tuple[int, int], list[str]] = {}
        for secret in remaining:
            parts.setdefault(naive.feedback(guess, secret), []).append(secret)
        parts.pop((p, 0), None)
        branches = []
        for reply, part in parts.items():
            if draw(hs.integers(0, 9)) > 0:  # mostly kept
                branches.append((st.Reply(*reply), grow(part, depth + 1)))
        if draw(hs.integers(0, 4)) == 0:
            branches.append((st.Reply(*draw(replies)), Node(draw(guesses))))
        return Node(guess, tuple(branches))

    return game, grow(secrets, 0)


def _expected_problems(strategy: Strategy, game: Game) -> Counter:
    """(kind, line, column) of every error a careful reader finds in the tree."""
    p, c = game.pegs, game.colors
    allowed = set(codes_of(game.guesses))
    out: Counter = Counter()
    for node, _, _ in iter_nodes(strategy.root):
        if len(node.guess) != p or any(LETTERS.index(ch) >= c for ch in node.guess):
            out["malformed-guess", *strategy.locate(node)] += 1
        elif node.guess not in allowed:
            out["illegal-guess", *strategy.locate(node)] += 1
        replies = [tuple(r) for r, _ in node.branches]
        for reply, child in node.branches:
            if naive.impossible(tuple(reply), p):
                out["invalid-reply", *strategy.locate(child)] += 1
        out["duplicate-reply", *strategy.locate(node)] += len(replies) - len(set(replies))
    return +out


@given(game_and_tree())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_trees_against_twin(case) -> None:
    game, tree = case
    strategy = st.loads(st.dumps(tree), source="t.txt")  # read back, so that nodes have positions
    report = st.verify(strategy, game, examples=4)
    rep = twin(strategy, game)
    assert report.secrets == len(game.secrets)
    assert report.solved == len(rep.guesses)
    assert report.unsolved == len(rep.unsolved) == report.secrets - report.solved
    assert (report.total, report.max_guesses, report.histogram) == (
        rep.total,
        rep.max_guesses,
        rep.histogram,
    )
    # the first unsolved secrets, with the path that failed and why
    first = list(rep.unsolved.items())[:4]
    assert ([(u.secret, u.path) for u in report.unsolved_examples]
            == [(s, path) for s, (path, _) in first])
    for case_, (_, (_, why)) in zip(report.unsolved_examples, first):
        if why.endswith("cannot be played"):
            assert case_.reason.startswith(why + " in ")
        else:
            assert case_.reason == why
    # every error at its place
    found = Counter((e.kind, e.line, e.column) for e in report.errors)
    assert found == _expected_problems(strategy, game)
    assert report.valid == (not rep.unsolved and not found)
    # unreachable branches
    want = {strategy.locate(n) for n in naive.unreachable_branches(
        strategy.root, rep, codes_of(game.guesses), game.pegs)}
    got = [(u.line, u.column) for u in report.unreachable_branches]
    assert len(got) == len(set(got)) and set(got) == want
    assert all(u.kind == "unreachable-branch" for u in report.unreachable_branches)
    # node visits
    assert node_visits(strategy, game) == [rep.visits[id(n)]
                                           for n, _, _ in iter_nodes(strategy.root)]


# -- problems, one kind at a time -----------------------------------------------------
def _verify(text: str, game: Game | None = None, **options) -> st.Report:
    return st.verify(st.loads(text, source="s.txt"), game or st.mastermind(2, 3), **options)


@pytest.mark.parametrize("reply", ["30", "21", "03", "99", "11", "20"])
def test_invalid_replies(reply: str) -> None:
    # 30, 21, 03, 99: more key pegs than pegs; 11: the last peg misplaced alone; 20: the win
    text = EXAMPLE.replace("02:BA", f"02:BA,{reply}:AC")
    report = _verify(text)
    assert len(report.invalid_replies) == 1 and report.invalid_replies == report.errors
    problem = report.invalid_replies[0]
    assert problem.kind == "invalid-reply"
    line, column = position(text, f"{reply}:AC")
    assert (problem.line, problem.column) == (line, column + 3)  # where the guess under it is
    assert problem.path == f"AB {reply}"
    assert f"reply {reply}" in problem.message and "AB" in problem.message
    assert not report.valid
    assert report.total == 21 and report.unsolved == 0  # the replay is not disturbed


def test_invalid_reply_position_on_a_later_line() -> None:
    text = ("{AB:{\n  10:{AC:{10:AA,01:CB,00:BB}},\n  02:BA,\n  11:CC,\n  01:{BC:{01:CA}},\n"
            "  00:CC\n}}")
    report = _verify(text)
    (problem,) = report.invalid_replies
    assert (problem.line, problem.column) == (4, 6)
    assert str(problem).startswith("line 4, column 6: reply 11 under guess AB")


def test_unreachable_branches_are_warnings_or_errors_when_strict() -> None:
    # after AB 01 only BC and CA remain; BC gives CA the reply 01, never 10
    text = EXAMPLE.replace("{BC:{01:CA}}", "{BC:{01:CA,10:BB}}")
    report = _verify(text)
    assert report.valid and not report.errors
    (problem,) = report.unreachable_branches
    assert problem.kind == "unreachable-branch"
    assert (problem.line, problem.column) == position(text, "BB", 1)
    assert problem.path == "AB 01, BC 10"
    strict = _verify(text, strict=True)
    assert not strict.valid and strict.errors == strict.unreachable_branches == [problem]
    assert strict.total == report.total == 21


def test_branches_under_a_guess_no_secret_reaches_are_not_reported() -> None:
    # the whole subtree under an unreachable branch is silent: only its top is reported
    text = EXAMPLE.replace("{BC:{01:CA}}", "{BC:{01:CA,10:{BB:{00:AA,01:CC}}}}")
    report = _verify(text)
    assert [(p.line, p.column) for p in report.unreachable_branches] == [position(text, "BB", 1)]


def test_an_impossible_reply_does_not_hide_an_unreachable_branch() -> None:
    # node 0 is AB; '99' (code 36 = 4 * 9) collides with node 4 (BC), reply 00
    plain = "{AB:{02:BA,00:CC,01:{BC:{01:CA,00:AA}},10:{AC:{10:AA,01:CB,00:BB}}}}"
    assert [str(p.path) for p in _verify(plain).unreachable_branches] == ["AB 01, BC 00"]
    text = plain.replace("{AB:{", "{AB:{99:AA,")
    report = _verify(text)
    assert len(report.invalid_replies) == 1
    assert [p.path for p in report.unreachable_branches] == ["AB 01, BC 00"]


@pytest.mark.parametrize(
    "bad, message",
    [
        ("ABC", "guess ABC has 3 pegs, expected 2"),
        ("A", "guess A has 1 pegs, expected 2"),
        ("AD", "guess AD uses colour D, beyond the 3 colours A..C"),
        ("ZA", "guess ZA uses colour Z, beyond the 3 colours A..C"),
    ],
)
def test_malformed_guesses(bad: str, message: str) -> None:
    text = EXAMPLE.replace("{AC:{", "{" + bad + ":{")
    report = _verify(text)
    (problem,) = report.errors
    assert problem.kind == "malformed-guess" and problem.message == message
    line, column = position(text, "{" + bad + ":")
    assert (problem.line, problem.column) == (line, column + 1)
    assert problem.path == "AB 10"
    # the four secrets that reach it are not solved there
    assert report.unsolved == 4 and report.solved == 5


def test_malformed_leaf() -> None:
    text = EXAMPLE.replace("00:CC", "00:CCC")
    report = _verify(text)
    (problem,) = report.errors
    assert problem.kind == "malformed-guess"
    assert (problem.line, problem.column) == position(text, "CCC")
    (unsolved,) = report.unsolved_examples
    assert (unsolved.secret, unsolved.path) == ("CC", "AB 00")
    assert unsolved.reason.startswith("guess CCC cannot be played")


def test_duplicate_replies() -> None:
    text = EXAMPLE.replace("02:BA", "02:BA,02:CC")
    report = _verify(text)
    (problem,) = report.errors
    assert problem.kind == "duplicate-reply"
    assert problem.message == "reply 02 is written twice under guess AB"
    assert (problem.line, problem.column) == (1, 2)
    assert problem.path == ""
    assert report.total == 21  # the first branch is the one taken
    assert not report.unreachable_branches  # a repeated reply is reported once, as a duplicate


def test_illegal_guesses_when_guesses_must_be_distinct() -> None:
    game = st.distinct(2, 3, distinct_guesses=True)
    text = "{AB:{02:BA,01:{BC:{01:CA,10:AC,02:CB}},10:{AA:{10:AC,00:CB}}}}"
    report = _verify(text, game)
    (problem,) = report.errors
    assert problem.kind == "illegal-guess"
    assert problem.message == f"guess AA is not allowed in {game.name}"
    assert (problem.line, problem.column) == position(text, "AA")
    assert problem.path == "AB 10"
    # the secrets that reach AA stop there
    rep = twin(st.loads(text), game)
    assert report.unsolved == len(rep.unsolved) > 0
    # the same file is fine when any guess is allowed
    assert _verify(text, st.distinct(2, 3)).valid


def test_unsolved_secret_with_a_missing_branch() -> None:
    text = EXAMPLE.replace(",00:CC", "")
    report = _verify(text)
    assert (report.solved, report.unsolved) == (8, 1)
    (case,) = report.unsolved_examples
    reply = "".join(map(str, naive.feedback("AB", "CC")))
    assert case.secret == "CC"
    assert case.path == f"AB {reply}"
    assert case.reason == f"reply {reply} to guess AB has no branch"
    assert not report.valid and not report.errors


def test_unsolved_secret_at_a_wrong_known_solution() -> None:
    text = EXAMPLE.replace("{BC:{01:CA}}", "{BC:{01:AA}}")
    report = _verify(text)
    (case,) = report.unsolved_examples
    steps = [("AB", "CA"), ("BC", "CA"), ("AA", "CA")]
    want = ", ".join(f"{g} {''.join(map(str, naive.feedback(g, s)))}" for g, s in steps)
    assert (case.secret, case.path) == ("CA", want)
    assert case.reason == "known solution AA is not the secret"
    assert report.unsolved == 1 and not report.valid


def test_unsolved_examples_are_limited() -> None:
    report = _verify("{AB:{00:CC}}", examples=2)
    rep = twin(st.loads("{AB:{00:CC}}"), st.mastermind(2, 3))
    assert report.unsolved == len(rep.unsolved) == 7
    assert [u.secret for u in report.unsolved_examples] == list(rep.unsolved)[:2]
    assert _verify("{AB:{00:CC}}", examples=0).unsolved_examples == []


def test_a_strategy_that_solves_nothing() -> None:
    report = _verify("AA", st.distinct(2, 3))
    assert (report.solved, report.total, report.max_guesses, report.histogram) == (0, 0, 0, {})
    assert report.average == 0.0 and not report.valid


@pytest.mark.parametrize("guess", ["cc", "C1", "ÄB"])
def test_a_guess_that_is_not_letters_is_reported_not_raised(guess: str) -> None:
    strategy = Strategy(Node("AB", ((st.Reply(0, 0), Node(guess)),)))
    report = st.verify(strategy, st.mastermind(2, 3))
    assert [e.kind for e in report.errors] == ["malformed-guess"]


# -- the game, inferred ---------------------------------------------------------------
def test_infer_game_notes() -> None:
    strategy = st.loads(EXAMPLE)
    game, notes = st.infer_game(strategy)
    assert (game.pegs, game.colors, len(game.secrets)) == (2, 3, 9)
    assert notes == ["pegs 2 (from the first guess)",
                     "colors 3 (from the highest colour letter, C)"]
    game, notes = st.infer_game(strategy, pegs=2)
    assert notes == ["colors 3 (from the highest colour letter, C)"]
    game, notes = st.infer_game(strategy, colors=5)
    assert game.colors == 5 and notes == ["pegs 2 (from the first guess)"]
    game, notes = st.infer_game(strategy, 2, 4, distinct_secrets=True, distinct_guesses=True)
    assert notes == [] and len(game.secrets) == len(game.guesses) == 12
    game, _ = st.infer_game(strategy, distinct_secrets=True)
    assert (len(game.secrets), len(game.guesses)) == (6, 9)
    with pytest.raises(StrategyTreeError):
        st.infer_game(strategy, distinct_guesses=True)
    # the highest letter anywhere in the file counts, not only the first guess
    _, notes = st.infer_game(st.loads("{AB:{00:{CD:{00:FF}}}}"))
    assert notes[1] == "colors 6 (from the highest colour letter, F)"


def test_a_file_of_far_fewer_guesses_than_any_nearby_game_has_secrets_gets_no_hint(
    tmp_path: Path,
) -> None:
    from strategytree.builders import build_greedy
    from strategytree.formats.reading import read_strategy

    path = tmp_path / "one.txt"
    path.write_text("ABCD\n")  # no whites, distinct colours: black-only? distinct?
    loaded = read_strategy(path)
    assert loaded.game.name == "MM(4,4)"
    assert not any("did you mean" in note for note in loaded.notes), loaded.notes
    # one guess short of solving 4 distinct of 4 whole: that one is named
    tree = build_greedy(st.distinct(4, 4), rule="minimax")
    tree.root.branches = tree.root.branches[:-1]
    st.dump(tree, tmp_path / "cut.txt")
    loaded = read_strategy(tmp_path / "cut.txt")
    assert any("did you mean" in note for note in loaded.notes), loaded.notes


def test_verify_without_a_game_infers_it() -> None:
    report = st.verify(st.loads(EXAMPLE))
    assert report.game == "MM(2,3)" and (report.pegs, report.colors) == (2, 3)
    assert report.game_notes == st.infer_game(st.loads(EXAMPLE))[1]


# -- the report as JSON ---------------------------------------------------------------
def test_report_to_dict_is_json() -> None:
    text = EXAMPLE.replace(",00:CC", ",11:CC").replace("{BC:{01:CA}}", "{BC:{01:CA,10:BB}}")
    report = _verify(text)
    data = json.loads(json.dumps(report.to_dict()))
    for key in ("secrets", "solved", "total", "average", "max_guesses", "histogram",
                "unsolved", "invalid_replies", "unreachable_branches", "errors"):
        assert key in data, key
    assert data["secrets"] == 9 and data["solved"] == report.solved and data["unsolved"] == 1
    assert data["total"] == report.total and data["average"] == pytest.approx(report.average)
    assert data["histogram"] == {str(k): v for k, v in report.histogram.items()}
    assert data["valid"] is False
    assert data["invalid_replies"][0]["kind"] == "invalid-reply"
    assert data["invalid_replies"][0]["line"] == 1
    assert data["unreachable_branches"][0]["path"] == "AB 01, BC 10"
    assert data["unsolved_examples"][0]["secret"] == "CC"


# -- the library's own arguments -----------------------------------------------------
_ROOT = st.loads(EXAMPLE)


@pytest.mark.parametrize("call", [
    lambda: st.verify(None),
    lambda: st.verify("{AB:{10:AA}}"),
    lambda: st.verify(_ROOT, "MM(2,3)"),
    lambda: st.verify(Strategy(Node("AB", (("10", Node("AA")),))), st.mastermind(2, 3)),
    lambda: st.verify(Strategy(Node("AB", ((st.Reply(10**20, 0), Node("AA")),))),
                      st.mastermind(2, 3)),
    lambda: st.verify(Strategy(Node("AB", ((st.Reply(-1, 0), Node("AA")),))),
                      st.mastermind(2, 3)),
    lambda: st.verify(Strategy(Node("AB", ((st.Reply(1, 0), None),))), st.mastermind(2, 3)),
    lambda: st.loads(None),
    lambda: st.loads(b"{AB}"),
    lambda: st.load(None),
    lambda: st.load(5),
    lambda: st.infer_game(None),
], ids=["None", "a str", "a game's name", "a reply in a str", "a huge reply",
        "a negative reply", "a child None", "loads None", "loads bytes", "load None", "load 5",
        "infer_game None"])
def test_what_is_no_strategy_is_refused_in_the_library_s_own_words(call) -> None:
    with pytest.raises(StrategyTreeError):
        call()


def test_verify_takes_the_root_node_as_dump_does() -> None:
    assert st.verify(_ROOT.root, st.mastermind(2, 3)).total == 21
