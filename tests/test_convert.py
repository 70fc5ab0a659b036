"""Reading other solvers' trees (and our own outputs) into strategies: strategytree.formats."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from strategytree.errors import StrategyFileError, StrategyTreeError
from strategytree.export import render
from strategytree.formats import reading, writing
from strategytree.formats.brace import dumps, load, loads
from strategytree.game import mastermind
from strategytree.tree import Node, Strategy
from strategytree.verify import verify

from cli_runner import DATA, EXAMPLE, invoke
from trees import any_trees, damaged

FORMATS_DATA = DATA / "formats"
#: the strategy every small hand-written file holds, MM(2,3), total 21, max 3
SMALL = "{AB:{02:BA,01:{CA:{01:BC}},00:CC,10:{AC:{01:CB,00:BB,10:AA}}}}"


def shared_files() -> list[tuple[str, int, int]]:
    """``(file, total, max)`` for each file of the README's table (as the programs reported)."""
    rows = []
    for line in (FORMATS_DATA / "README.md").read_text().splitlines():
        m = re.match(r"\|\s*([\w.-]+\.(?:txt|yml|gv))\s*\|.*\|\s*([\d,]+)\s*:\s*(\d+)\s*\|$", line)
        if m:
            rows.append((m.group(1), int(m.group(2).replace(",", "")), int(m.group(3))))
    return rows


def sorted_tree(strategy: Strategy | Node) -> str:
    """The tree in the brace grammar with every node's branches in reply order."""
    root = strategy.root if isinstance(strategy, Strategy) else strategy

    def rebuilt(node: Node) -> Node:
        return Node(node.guess, tuple(sorted((r, rebuilt(n)) for r, n in node.branches)))

    return dumps(rebuilt(root))


def test_the_readme_lists_every_shared_file() -> None:
    listed = {name for name, _, _ in shared_files()}
    assert len(listed) == 5
    assert listed == {
        p.name for p in FORMATS_DATA.iterdir() if not p.name.startswith(("small", "README"))
    }


@pytest.mark.parametrize(("name", "total", "most"), shared_files())
def test_shared_files_verify_to_the_totals_their_programs_report(
    name: str, total: int, most: int
) -> None:
    strategy = reading.read(FORMATS_DATA / name)
    report = verify(strategy)
    assert (report.total, report.max_guesses, report.valid) == (total, most, True)


DETECTED = {
    "fancidev-mmstrat-p2c3r-minmax.txt": "mmstrat",
    "fancidev-mmstrat-p3c4r-optimal.txt": "mmstrat",
    "arfst23-solution-4-6-6.txt": "arfst-table",
    "arfst23-solution-4-6-6.yml": "arfst-yaml",
    "mikemag-knuth-4p6c.gv": "mikemag",
    "small-mmstrat.txt": "mmstrat",
    "small-mmstrat-knuth.txt": "mmstrat",
    "small-arfst.txt": "arfst-table",
    "small-arfst.yml": "arfst-yaml",
    "small-mikemag.gv": "mikemag",
    "small.json": "json",
    "small.csv": "csv",
    "small.dot": "dot",
    "small.txt": "brace",
}


@pytest.mark.parametrize(("name", "fmt"), sorted(DETECTED.items()))
def test_detection_picks_the_format_of_each_file(name: str, fmt: str) -> None:
    text = (FORMATS_DATA / name).read_text()
    assert reading.detect(text) == fmt
    assert reading.read(FORMATS_DATA / name) == reading.read(FORMATS_DATA / name, fmt)


@pytest.mark.parametrize("name", sorted(n for n in DETECTED if n.startswith("small")))
def test_each_small_file_holds_the_same_strategy(name: str) -> None:
    strategy = reading.read(FORMATS_DATA / name)
    assert sorted_tree(strategy) == sorted_tree(loads(SMALL))
    assert strategy.source.endswith(name)
    report = verify(strategy, mastermind(2, 3))
    assert (report.total, report.max_guesses, report.valid) == (21, 3, True)


def test_formats_that_keep_the_order_of_branches_keep_it() -> None:
    for name in ("small-mmstrat.txt", "small-mikemag.gv", "small.json", "small.csv", "small.dot"):
        assert dumps(reading.read(FORMATS_DATA / name)) == SMALL, name


@pytest.mark.parametrize(
    ("shared", "corpus"),
    [
        ("arfst23-solution-4-6-6.txt", "arfst-4-6-6.txt"),
        ("arfst23-solution-4-6-6.yml", "arfst-4-6-6.txt"),
        ("mikemag-knuth-4p6c.gv", "mikemag-knuth-4-6.txt"),
    ],
)
def test_the_trees_converted_by_hand_in_the_corpus_are_the_same(shared: str, corpus: str) -> None:
    assert sorted_tree(reading.read(FORMATS_DATA / shared)) == sorted_tree(load(DATA / corpus))


def test_positions_point_into_the_file_read() -> None:
    strategy = reading.read(FORMATS_DATA / "small-arfst.yml")
    assert strategy.locate(strategy.root) == (2, 3)
    child = strategy.root.branches[1][1]  # O-: its guess 20 on line 5
    assert (child.guess, strategy.locate(child)) == ("CA", (5, 7))


# -- mmstrat: secrets recomputed from the game ---------------------------------------------
def test_mmstrat_reads_hints_and_the_game_given() -> None:
    starred = "9 (12: 1, 2 (11*), 1; 4 (13x: 0, 1, 1; 1; 1); 1)"
    strategy = reading.reads(starred, game=mastermind(2, 3))
    assert dumps(strategy) == "{AB:{02:BA,01:{AA:{00:BC,10:CA}},00:CC,10:{AC:{01:CB,00:BB,10:AA}}}}"
    assert verify(strategy).total == 22  # AA is no secret: one guess more for BC and CA


def test_mmstrat_counts_must_fit_the_game() -> None:
    with pytest.raises(StrategyFileError) as caught:
        reading.reads("9 (12: 1, 2 (31), 1; 4A; 1)\nA = (13: 0, 1, 1; 1; 1)", game=mastermind(2, 4))
    assert (caught.value.line, caught.value.column) == (1, 1)
    assert "16 of MM(2,4)" in caught.value.message


def test_mmstrat_tells_the_game_from_the_first_count() -> None:
    # 4 distinct of 5: 120 secrets; the counts below the first guess are never checked here
    with pytest.raises(StrategyFileError) as caught:
        reading.reads("120 (1234: 1, 2, 3; 4)")
    assert "groups" in caught.value.message  # read as 4 distinct of 5: 5 groups were expected
    with pytest.raises(StrategyFileError, match="cannot tell the game"):
        reading.reads("10 (12: 1; 1; 1)")


# -- round trips ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name", ["arfst-4-6-6.txt", "mikemag-knuth-4-6.txt", "arfst-4-6-unique.txt"]
)
def test_json_and_brace_round_trip_the_corpus(name: str) -> None:
    tree = load(DATA / name)
    for indent in (None, 2):
        text = writing.writes(tree, "json", indent=indent)
        back = reading.reads(text)
        assert back == tree
        assert writing.writes(back, "brace") == dumps(tree)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_trees())
def test_json_round_trips_any_tree(root: Node) -> None:
    text = writing.writes(Strategy(root), "json")
    assert reading.reads(text, "json").root == root
    assert reading.reads(writing.writes(Strategy(root), "json", indent=1)).root == root


@pytest.mark.parametrize(
    ("text", "pegs", "colors"),
    [
        (EXAMPLE, 2, 3),
        ((FORMATS_DATA / "small.txt").read_text(), 2, 3),
        (None, 3, 4),  # the optimal MM(3,4) tree of mmstrat
    ],
)
def test_our_csv_and_dot_outputs_read_back_into_the_same_tree(
    text: str | None, pegs: int, colors: int
) -> None:
    tree = (
        loads(text) if text else reading.read(FORMATS_DATA / "fancidev-mmstrat-p3c4r-optimal.txt")
    )
    game = mastermind(pegs, colors)
    for fmt in ("csv", "dot"):
        out = render(tree, game, fmt).text
        assert reading.detect(out) == fmt
        assert reading.reads(out) == tree, fmt


def test_a_lookup_table_with_every_field_quoted_reads() -> None:
    quoted = '"game","guesses","secret"\r\n"AB 20","1","AB"\r\n"AB 10, AA 20","2","AA"\r\n'
    assert reading.detect(quoted) == "csv"
    assert dumps(reading.reads(quoted)) == "{AB:{10:AA}}"


def test_a_lookup_table_of_a_big_strategy_reads_back() -> None:
    tree = load(DATA / "arfst-4-6-6.txt")
    assert reading.reads(render(tree, mastermind(4, 6), "csv").text, "csv") == tree


def test_a_drawing_cut_at_a_depth_is_refused() -> None:
    out = render(loads(EXAMPLE), mastermind(2, 3), "dot", depth=0).text
    with pytest.raises(StrategyFileError, match="does not hold the whole strategy") as caught:
        reading.reads(out)
    assert caught.value.line is not None


# -- damaged files ----------------------------------------------------------------------------
DAMAGED = [
    ("mmstrat", "9 (12: 1, 2 (31), 1; 4A; 1)", 1, 23, "subtree A is never written"),
    (
        "mmstrat",
        "9 (12: 1, 2 (31), 1; 4A; 1)\nA = (13: 0, 1, 1; 1; 1)\nB = (11)",
        3,
        1,
        "subtree B is written but never used",
    ),
    ("mmstrat", "9 (12: 1, 2 (31), 1; 4 (22); 1)", 1, 25, "does not tell the 4 secrets apart"),
    ("mmstrat", "9 (12: 1, 2, 1; 4A; 1)", 1, 11, "a part of 2 secrets needs a guess"),
    ("mmstrat", "9 (12: 1, 2 (31), 1; 4A; 1", 1, 27, "expected '(', ')', ','"),
    ("mmstrat", "9 (12: 1, 2 (31), 1; 4A 1)", 1, 25, "expected"),
    ("mmstrat", "9 (14: 1; 1; 1)", 1, 4, "guess 14"),
    ("arfst-table", "     -- O- OO X- XX\n000 1 01 22 >009 10 >002 01\n", 2, 13, "no row 009"),
    ("arfst-table", "     -- O- OO X- XX\n000 1 01 22 10\n", 2, 1, "has 2 replies"),
    ("arfst-table", "     -- O- OO X- XX\n000 1 01 22 ---- 10 ---- 11\n", 2, 26, "not the guess"),
    (
        "arfst-table",
        "     -- O- OO X- XX\n000 1 01 22 >001 10 ---- 01\n001 3 20 - - - - -\n",
        2,
        13,
        "depth",
    ),
    (
        "arfst-table",
        "     -- O- OO X- XX\n000 1 01 22 ---- 10 ---- 01\n001 2 20 - - - - -\n",
        3,
        1,
        "never reached",
    ),
    ("arfst-table", "     -- O- OO X- XX\n000 1 01 22 ? 10\n", 2, 13, "expected"),
    ("arfst-yaml", "---\n- 01\n- --: 22\n    O-: 12\n", 4, 5, "expected"),
    (
        "arfst-yaml",
        "---\n- 01\n- --: 22\n  O-:\n    - 20\n    - O-: 12\n     XX: 20\n",
        7,
        6,
        "indented less",
    ),
    ("arfst-yaml", "---\n- 01\n- ---: 22\n", 3, 3, "key pegs"),
    (
        "json",
        '{"guess": "AB", "branches": {"10": {"guess": "AA"} "01": {"guess": "BA"}}}',
        1,
        52,
        "expected ',' or '}'",
    ),
    ("json", '{"guess": "AB", "branch": {}}', 1, 17, "unknown key 'branch'"),
    ("json", '{"guess": "AB", "branches": {"1": {"guess": "AA"}}}', 1, 30, "not a reply"),
    ("json", '{"guess": "ab"}', 1, 11, "capital letters"),
    ("json", '{"branches": {}}', 1, 1, 'no "guess"'),
    ("json", '{"guess": "AB", "branches": {"10": ["AA"]}}', 1, 36, "expected a node"),
    (
        "csv",
        'game,guesses,secret\n"AB 10, AA 20",2,AA\n"AC 01, BA 20",2,BA\n',
        3,
        2,
        "play AB at this point, not AC",
    ),
    ("csv", 'game,guesses,secret\n"AB 10, AA 20",3,AA\n', 2, 16, "not 3"),
    ("csv", 'game,guesses,secret\n"AB 10, AA 10",2,AA\n', 2, 9, "not with the win"),
    ("csv", 'game,guesses,secret\n"AB 10, AA 20,2,AA\n', 2, 15, "expected a code"),
    ("csv", "game,guesses,secret\n", 2, 1, "no games"),
    (
        "mikemag",
        'digraph { 1 [label="12"]; 2 [label="21"]; 1 -> 2 [label="2"] }',
        1,
        57,
        "not a reply",
    ),
    ("mikemag", 'digraph { 1 [label="12"]; 2 [label="21"]; 1 -> 2 }', 1, 43, "no reply label"),
    (
        "mikemag",
        'digraph { 1 [label="12"]; 2 [label="21"]; 3 [label="22"]; 1 -> 2 [label="02"] }',
        1,
        43,
        "one first guess",
    ),
    ("mikemag", 'digraph { 1 [label="AB"] }', 1, 20, "digits from 1"),
    ("mikemag", 'digraph { 1 [label="12"]; 2 [label="21"] 1 -> 2 [label="02"]', 1, 61, "expected"),
    (
        "dot",
        (
            'digraph { n0 [label="AB"]; n1 [label="BA"]; '
            'n0 -> n1 [label="02"]; n1 -> n0 [label="20"] }'
        ),
        1,
        1,
        "cycle",
    ),
    ("dot", 'digraph { n0 [label="AB"]; n0 -> n1 [label="02"] }', 1, 34, "no label"),
    ("dot", "digraph strategy {\n}\n", 1, 1, "an empty drawing"),
    (
        "mikemag",
        (
            'digraph { 1 [label="12"]; 2 [label="21"]; 3 [label="22"]; '
            '1 -> 2 [label="02"]; 3 -> 2 [label="01"] }'
        ),
        1,
        85,
        "second edge into it",
    ),
    (
        "dot",
        (
            'digraph { n0 [label="AB"]; n1 [label="BA"]; n2 [label="AA"]; '
            'n1 -> n2 [label="10"]; n2 -> n1 [label="10"] }'
        ),
        1,
        28,
        "not reached from the first guess",
    ),
    (
        "dot",
        (
            'digraph { n0 [label="AB"]; n1 [label="AB"]; n2 [label="BA"]; '
            'n0 -> n1 [label="20"]; n1 -> n2 [label="02"] }'
        ),
        1,
        78,
        "nothing is guessed after the win",
    ),
    ("brace", "{AB:{10:AA:BB}}", 1, 11, "expected ',' or '}'"),
]


@pytest.mark.parametrize(("fmt", "text", "line", "column", "words"), DAMAGED)
def test_damaged_files_name_the_place(
    fmt: str, text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(StrategyFileError) as caught:
        reading.reads(text, fmt, source="bad.file")
    problem = caught.value
    assert words in problem.message
    assert (problem.source, problem.line, problem.column) == ("bad.file", line, column), (
        problem.message
    )
    assert str(problem).startswith(f"bad.file:{line}:{column}: ")


SMALL_FILES = sorted(n for n in DETECTED if n.startswith("small"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.sampled_from(SMALL_FILES), hs.data())
def test_randomly_damaged_files_read_or_fail_with_a_position(
    name: str, data: hs.DataObject
) -> None:
    text = data.draw(damaged((FORMATS_DATA / name).read_text()))
    for fmt in (DETECTED[name], None):
        try:
            reading.reads(text, fmt, game=mastermind(2, 3) if "mmstrat" in name else None)
        except StrategyFileError as problem:
            assert problem.line is not None and problem.column is not None, str(problem)


def test_text_of_no_known_format_is_read_as_the_brace_grammar() -> None:
    assert reading.detect("\n  %%% not a tree") == "brace"
    with pytest.raises(StrategyFileError, match="expected '{' or a guess") as caught:
        reading.reads("\n  %%% not a tree", source="odd.txt")
    assert (caught.value.source, caught.value.line, caught.value.column) == ("odd.txt", 2, 3)


@pytest.mark.parametrize("path", sorted((DATA / "fuzz").glob("*.txt")) + sorted(DATA.glob("*.txt")))
def test_brace_files_read_as_the_brace_reader_reads_them(path: Path) -> None:
    def outcome(read) -> str:
        try:
            return dumps(read(path))
        except StrategyTreeError as problem:
            return str(problem)

    assert outcome(reading.read) == outcome(load)


def test_unknown_formats_are_refused() -> None:
    with pytest.raises(StrategyTreeError, match="unknown format 'xml'"):
        reading.reads(EXAMPLE, "xml")
    with pytest.raises(StrategyTreeError, match="choose one of brace, json"):
        writing.writes(loads(EXAMPLE), "mmstrat")


def test_write_picks_the_format_from_the_suffix_and_keeps_files(tmp_path: Path) -> None:
    tree = loads(EXAMPLE)
    writing.write(tree, tmp_path / "t.json")
    assert (tmp_path / "t.json").read_text().startswith('{"guess": "AB"')
    writing.write(tree, tmp_path / "t.txt")
    assert (tmp_path / "t.txt").read_text() == EXAMPLE + "\n"
    with pytest.raises(StrategyTreeError, match="exists"):
        writing.write(tree, tmp_path / "t.txt", "json")
    assert (tmp_path / "t.txt").read_text() == EXAMPLE + "\n"


# -- the command ----------------------------------------------------------------------------
def test_convert_prints_the_brace_grammar() -> None:
    result = invoke(["convert", str(FORMATS_DATA / "fancidev-mmstrat-p2c3r-minmax.txt")])
    assert result.exit_code == 0
    assert result.stdout == "{AB:{02:BA,01:{BC:{01:CA}},00:CC,10:{CB:{01:AC,00:AA,10:BB}}}}\n"


def test_convert_writes_a_file_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "knuth.json"
    result = invoke(["convert", str(FORMATS_DATA / "mikemag-knuth-4p6c.gv"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "mikemag" in result.stderr and "json" in result.stderr
    assert verify(reading.read(out)).total == 5801
    again = invoke(["convert", str(FORMATS_DATA / "small.txt"), "-o", str(out)])
    assert again.exit_code == 2 and "exists" in again.stderr
    forced = invoke(["convert", str(FORMATS_DATA / "small.txt"), "-o", str(out), "--force"])
    assert forced.exit_code == 0
    assert sorted_tree(reading.read(out)) == sorted_tree(loads(SMALL))
    same = invoke(["convert", str(out), "-o", str(out), "--force", "--to", "brace"])
    assert same.exit_code == 2 and "same file as the input" in same.stderr


def test_convert_takes_the_format_and_the_game(tmp_path: Path) -> None:
    source = tmp_path / "strategy.data"
    source.write_text((FORMATS_DATA / "small-mmstrat.txt").read_text())
    result = invoke(
        ["convert", str(source), "--from", "mmstrat", "-p", "2", "-c", "3", "--to", "json"]
    )
    assert result.exit_code == 0, result.output
    assert reading.reads(result.stdout) == loads(SMALL)
    wrong = invoke(["convert", str(source), "-p", "2", "-c", "4"])
    assert wrong.exit_code == 2 and "MM(2,4)" in wrong.stderr


def test_convert_reports_a_damaged_file_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"guess": "AB", "branches": {"10": {"guess": "AA"} "01": {}}}')
    result = invoke(["convert", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:1:52: expected ',' or '}}'" in result.stderr


def test_the_installed_command_converts(tmp_path: Path) -> None:
    out = tmp_path / "small.txt"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "strategytree",
            "convert",
            str(FORMATS_DATA / "small-arfst.yml"),
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert sorted_tree(load(out)) == sorted_tree(loads(SMALL))


# -- mmstrat on big trees: a plain writer of Irving's notation, read back ----------------
def irving(strategy: Strategy, game, tenth: str = "10") -> str:
    """The strategy in mmstrat's text, written the plain way (a twin of mmstrat's writer):
    parts of the first guess with many secrets are named and written below
    (the tenth colour written ``tenth``: ``0`` as mmstrat writes it)."""
    pegs = game.pegs
    named: list[str] = []
    layout = [
        [(b, w) for w in range(pegs - b, -1, -1) if not (b == pegs - 1 and w == 1)]
        for b in range(pegs + 1)
    ]

    def digits(guess: str) -> str:
        return "".join(tenth if ch == "J" else str(ord(ch) - 64) for ch in guess)

    def part(node: Node | None, secrets: list[int], level: int) -> str:
        if len(secrets) <= 1:
            return str(len(secrets))
        guess = game.parse_code(node.guess)
        parts: dict[tuple[int, int], list[int]] = {}
        for s in secrets:
            reply = game.reply(game.feedback(guess, game.secrets[s]))
            parts.setdefault(tuple(reply), []).append(s)
        children = {tuple(r): n for r, n in node.branches}
        if all(len(p) <= 1 for r, p in parts.items() if r[0] < pegs) and all(
            n.is_leaf for n in children.values()
        ):
            return f"{len(secrets)} ({digits(node.guess)})"
        body = f"({digits(node.guess)}:"
        for group in layout:
            for b, w in group:
                inside = parts.get((b, w), [])
                written = (
                    str(len(inside)) if b == pegs else part(children.get((b, w)), inside, level + 1)
                )
                body += " " + written + ("," if w else ")" if b == pegs else ";")
        if level == 1 and len(secrets) >= pegs * (pegs + 3) // 2:
            named.append(body)
            return f"{len(secrets)}{chr(64 + len(named))}"
        return f"{len(secrets)} {body}"

    top = part(strategy.root, list(range(len(game.secrets))), 0)
    return "\n\n".join([top] + [f"{chr(65 + i)} = {body}" for i, body in enumerate(named)]) + "\n"


@pytest.mark.parametrize(
    ("name", "game", "total"),
    [
        ("arfst-4-6-6.txt", mastermind(4, 6), 5625),
        ("mikemag-knuth-4-6.txt", mastermind(4, 6), 5801),
        ("arfst-4-6-unique.txt", None, 1446),  # 360 secrets: told to be 4 distinct of 6
    ],
)
def test_mmstrat_reads_big_trees_back(name: str, game, total: int) -> None:
    from strategytree.game import distinct

    tree = load(DATA / name)
    game_of_file = game or distinct(4, 6, distinct_guesses=True)
    text = irving(tree, game_of_file)
    assert re.search(r"\n[A-Z] = \(", text)  # named parts, as mmstrat writes them
    back = reading.reads(text, game=game)
    assert reading.detect(text) == "mmstrat"
    assert sorted_tree(back) == sorted_tree(tree)
    assert verify(back, game_of_file).total == total
