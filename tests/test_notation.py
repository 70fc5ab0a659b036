"""Reading and writing the brace grammar: round trips, the two grammars,
error messages with positions, odd files, deep files, atomic writes."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from lark.exceptions import UnexpectedInput

import strategytree as st
from strategytree import Node, Reply, Strategy, StrategyFileError, StrategyTreeError
from strategytree.formats.brace import _parser, preorder
from strategytree.tree import iter_nodes

from trees import any_trees, damaged, spaced

EXAMPLE = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"
HYP = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def compact(node: Node) -> str:
    """An independent writer (recursive; for the small trees of these tests)."""
    if not node.branches:
        return node.guess
    inner = ",".join(f"{r.black}{r.white}:{compact(child)}" for r, child in node.branches)
    return "{" + node.guess + ":{" + inner + "}}"


# -- round trips -------------------------------------------------------------
def test_example_reads_into_the_tree_it_shows() -> None:
    tree = st.loads(EXAMPLE)
    want = Node(
        "AB",
        (
            (Reply(1, 0), Node("AC", ((Reply(1, 0), Node("AA")), (Reply(0, 1), Node("CB")),
                                      (Reply(0, 0), Node("BB"))))),
            (Reply(0, 2), Node("BA")),
            (Reply(0, 1), Node("BC", ((Reply(0, 1), Node("CA")),))),
            (Reply(0, 0), Node("CC")),
        ),
    )
    assert tree.root == want
    assert tree == Strategy(want)
    assert st.dumps(tree) == EXAMPLE


def test_node_equality_sees_every_difference() -> None:
    base = st.loads(EXAMPLE).root
    for other in [
        "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CA}}",  # a leaf
        "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{10:CA}},00:CC}}",  # a reply
        "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}}}}",  # a branch fewer
        "{AB:{02:BA,10:{AC:{10:AA,01:CB,00:BB}},01:{BC:{01:CA}},00:CC}}",  # order
        "AB",
    ]:
        assert base != st.loads(other).root
    assert base == st.loads(EXAMPLE).root


@given(any_trees())
@HYP
def test_round_trip_compact(tree: Node) -> None:
    text = st.dumps(tree)
    assert text == compact(tree)  # the writer agrees with an independent one
    again = st.loads(text)
    assert again.root == tree
    assert st.dumps(again) == text


@given(any_trees())
@HYP
def test_round_trip_indented(tree: Node) -> None:
    text = st.dumps(tree, indent=2)
    assert st.loads(text).root == tree
    assert st.dumps(st.loads(text)) == compact(tree)
    # one line per branch and per closing "}}", indented two spaces a level
    every = list(iter_nodes(tree))
    assert text.count("\n") == len(every) - 1 + sum(1 for n, _, _ in every if n.branches)
    branch_lines = [line for line in text.split("\n") if re.match(r" *[0-9][0-9]:", line)]
    depths = [d for _, r, d in every if r is not None]
    assert [len(line) - len(line.lstrip(" ")) for line in branch_lines] == [2 * d for d in depths]


@given(hs.data())
@HYP
def test_whitespace_between_tokens_is_ignored(data) -> None:
    tree = data.draw(any_trees())
    text = data.draw(spaced(st.dumps(tree)))
    assert st.loads(text).root == tree
    assert _parser("strategy").parse(text) == tree


# -- both grammars accept the same texts ---------------------------------------
def _parse(name: str, text: str) -> Node | UnexpectedInput:
    try:
        if name == "strategy_fast":  # accepts the text; the arrays are laid out after
            _parser(name).parse(text)
            return preorder(text).build()
        return _parser(name).parse(text)
    except UnexpectedInput as err:
        return err


def _check_error(text: str, err: StrategyFileError) -> None:
    """The message is ``source:line:column: expected ..., found ...`` and the
    position is where the thing found is."""
    message = str(err)
    m = re.fullmatch(r"d\.txt:(\d+):(\d+): expected (.+) found (.+)", message, re.S)
    assert m, message
    line, column = int(m.group(1)), int(m.group(2))
    assert (err.source, err.line, err.column) == ("d.txt", line, column)
    assert ", found " in message
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    assert 1 <= line <= len(lines), message
    assert 1 <= column <= len(lines[line - 1]) + 1, message
    rest = "\n".join(lines[line - 1 :])[column - 1 :]
    found = m.group(4)
    if found == "the end of the file":
        assert rest.strip(" \t\r\n\f") == "", message
        return
    try:
        value = ast.literal_eval(found)
    except (ValueError, SyntaxError):  # a quote character: not worth unquoting
        return
    if len(value) == 23 and value.endswith("..."):  # a long token, shortened
        value = value[:20]
    assert rest.startswith(value), message


@given(hs.data())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_damaged_files_fast_and_fine_grammars_agree(data) -> None:
    tree = data.draw(any_trees(max_depth=3, max_branches=3))
    text = st.dumps(tree, indent=data.draw(hs.sampled_from([None, None, 2])))
    text = data.draw(damaged(text))
    fast, fine = _parse("strategy_fast", text), _parse("strategy", text)
    if isinstance(fast, Node) or isinstance(fine, Node):
        assert fast == fine, (text, fast, fine)
    else:
        assert isinstance(fast, UnexpectedInput) and isinstance(fine, UnexpectedInput)
    # loads raises nothing but StrategyFileError, with a position and what was expected
    plain = text[1:] if text.startswith("\ufeff") else text
    expected = fine if plain is text else _parse("strategy", plain)
    try:
        result = st.loads(text, source="d.txt")
    except StrategyFileError as err:
        assert isinstance(expected, UnexpectedInput)
        _check_error(text, err)
    else:
        assert result.root == expected


@pytest.mark.parametrize(
    "text",
    [
        EXAMPLE,
        "A",
        "  {AB :\n{ 10 : AA ,\t01:BB } }\n",
        "{AB:{10:{AC:{10:AA}} , 01:{BC:{01:CA,00:CC}}}}",
        "{AB:{10:AA}}}",
        "{AB:{10:AA}",
        "{AB:{10:AA,01:BB,}}",
        "{AB:{10:AA,,01:BB}}",
        "{AB:{10:AA 01:BB}}",
        "{AB:{10:{AC:{10:AA}},01}}",
        "{AB:{10:{AC:{10:AA}}01:BB}}",
        "{AB:{10::AA}}",
        "{AB:{10:AA}} }",
        "{AB:{10:AA} }",
        "{AB:{10:AA}}{",
        "{AB:{10:AA}}AB",
        "{{AB:{10:AA}}}",
        "{AB:{10:{}}}",
        "{AB:{1 0:AA}}",
        "{AB:{100:AA}}",
        "{AB:{10:A A}}",
        "",
        " ",
        "}",
        "{",
        "10:AA",
        "AB:{10:AA}}",
    ],
)
def test_grammars_agree_on_hand_picked_texts(text: str) -> None:
    fast, fine = _parse("strategy_fast", text), _parse("strategy", text)
    if isinstance(fast, Node) or isinstance(fine, Node):
        assert fast == fine
    else:
        assert isinstance(fast, UnexpectedInput) and isinstance(fine, UnexpectedInput)


# -- error messages ------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, message",
    [
        ("{AB:{10:AA:BB}}", "x.txt:1:11: expected ',' or '}' after a branch, found ':'"),
        ("", "x.txt:1:1: expected '{' or a guess (letters A-Z) at the start of the file, "
         "found the end of the file"),
        ("{AB:{10:AA}", "x.txt:1:12: expected '}' after '}', found the end of the file"),
        ("{AB:{1:AA}}", "x.txt:1:6: expected a reply (two digits) after '{', found '1'"),
        ("{ab:{10:AA}}", "x.txt:1:2: expected a guess (letters A-Z) after '{', found 'a' "
         "(a lenient reading, lenient=True, would read it: "
         "x.txt:1:2: lower-case guess 'ab' read as 'AB')"),
        ("AB CD", "x.txt:1:4: expected the end of the file after guess 'AB', found 'CD'"),
        ("{AB:{10:AA}}}",
         "x.txt:1:13: expected the end of the file after the end of the strategy, found '}'"),
        ("{AB:{10:AA,}}", "x.txt:1:12: expected a reply (two digits) after ',', found '}'"),
        ("{AB{", "x.txt:1:4: expected ':' after guess 'AB', found '{'"),
        ("{AB:{100:AA}}", "x.txt:1:8: expected ':' after reply '10', found '0'"),
        ("{AB:{10:AA,01:\x00}}",
         "x.txt:1:15: expected '{' or a guess (letters A-Z) after ':', found '\\x00'"),
        ("{AB:{10:é}}", "x.txt:1:9: expected '{' or a guess (letters A-Z) after ':', found 'é'"),
        # several lines: the line and column of the offending token
        ("{AB:\n{10:AA,\n  01::BB}}",
         "x.txt:3:6: expected '{' or a guess (letters A-Z) after ':', found ':'"),
        ("{AB:{10:AA\r\n,01:BB;}}", "x.txt:2:7: expected ',' or '}' after a branch, found ';'"),
        ("{AB:{10:AA}}\n\n  x",
         "x.txt:3:3: expected the end of the file after the end of the strategy, found 'x'"),
        ("{AB:{\n  10:AA,\n  01:BB\n}",
         "x.txt:4:2: expected '}' after '}', found the end of the file"),
    ],
)
def test_error_messages(text: str, message: str) -> None:
    with pytest.raises(StrategyFileError) as info:
        st.loads(text, source="x.txt")
    assert str(info.value) == message
    line, column = (int(x) for x in message.split(":")[1:3])
    assert (info.value.line, info.value.column) == (line, column)


def test_reading_leaves_the_garbage_collector_as_it_was() -> None:
    import gc

    assert gc.isenabled()
    st.loads(EXAMPLE)
    assert gc.isenabled()
    with pytest.raises(StrategyFileError):
        st.loads("{AB:{10:AA:BB}}")
    assert gc.isenabled()
    gc.disable()
    try:
        st.loads(EXAMPLE)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_long_token_is_shortened_in_the_message() -> None:
    with pytest.raises(StrategyFileError) as info:
        st.loads("{AB:{10:AA}} " + "C" * 40, source="x.txt")
    assert str(info.value).endswith("found '" + "C" * 20 + "...'")


def test_error_at_the_end_of_a_deep_file() -> None:
    n = 5000  # far beyond Python's recursion limit
    text = "{AA:{00:" * n + "BB" + "}}" * (n - 1) + "}"
    with pytest.raises(StrategyFileError) as info:
        st.loads(text, source="deep.txt")
    assert str(info.value) == (f"deep.txt:1:{len(text) + 1}: expected '}}' after '}}', "
                               "found the end of the file")


# -- odd but valid files -----------------------------------------------------------------
def test_bom_and_crlf_are_accepted(tmp_path: Path) -> None:
    text = "\ufeff{AB:{10:{AC:{10:AA,01:CB,00:BB}},\r\n02:BA,\r\n01:{BC:{01:CA}},\r\n00:CC}}\r\n"
    assert st.loads(text) == st.loads(EXAMPLE)
    path = tmp_path / "bom.txt"
    path.write_bytes(text.encode("utf-8"))
    tree = st.load(path)
    assert tree == st.loads(EXAMPLE) and tree.source == str(path)
    # positions on later lines are unaffected by the BOM and by the \r before each \n
    cc = next(n for n, _, _ in iter_nodes(tree.root) if n.guess == "CC")
    assert tree.locate(cc) == (4, 4)


# -- positions ---------------------------------------------------------------------
def _letter_runs(text: str) -> list[tuple[int, int]]:
    """(line, column) of each run of capital letters: the guesses, in written order."""
    out = []
    for m in re.finditer(r"[A-Z]+", text):
        line = text.count("\n", 0, m.start()) + 1
        column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        out.append((line, column))
    return out


@given(hs.data())
@HYP
def test_locate_gives_the_line_and_column_of_each_guess(data) -> None:
    tree = data.draw(any_trees())
    text = data.draw(hs.one_of(hs.just(st.dumps(tree, indent=2)), spaced(st.dumps(tree))))
    strategy = st.loads(text, source="p.txt")
    where = [strategy.locate(node) for node, _, _ in iter_nodes(strategy.root)]
    assert where == _letter_runs(text)
    line, column = where[-1]
    last = list(iter_nodes(strategy.root))[-1][0]
    assert strategy.where(last) == f"p.txt:{line}:{column}"


def test_locate_without_a_position() -> None:
    strategy = Strategy(Node("AB"), source="made.txt")
    assert strategy.locate(strategy.root) is None
    assert strategy.where(strategy.root) == "made.txt"


# -- reading files ---------------------------------------------------------------------
def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StrategyFileError) as info:
        st.load(tmp_path / "nope.txt")
    assert str(tmp_path / "nope.txt") in str(info.value)
    assert isinstance(info.value, StrategyTreeError)


def test_load_folder(tmp_path: Path) -> None:
    with pytest.raises(StrategyFileError) as info:
        st.load(tmp_path)
    assert str(info.value).startswith(str(tmp_path))


def test_load_invalid_utf8(tmp_path: Path) -> None:
    before = b"{AB:{10:AA,\n  01:B"
    path = tmp_path / "latin1.txt"
    path.write_bytes(before + b"\xff}}")
    with pytest.raises(StrategyFileError) as info:
        st.load(path)
    err = info.value
    assert (err.line, err.column) == (2, len(b"  01:B") + 1)
    assert str(err).startswith(f"{path}:2:7: ") and "0xff" in str(err)


def test_load_reads_the_same_as_loads(tmp_path: Path) -> None:
    path = tmp_path / "ex.txt"
    path.write_text(EXAMPLE + "\n", encoding="utf-8")
    assert st.load(path) == st.loads(EXAMPLE)
    assert st.load(str(path)).source == str(path)


# -- a very deep file ---------------------------------------------------------------------
DEEP = textwrap.dedent(
    """
    import strategytree as st
    n = 200_000
    text = "{AA:{00:" * n + "BB" + "}}" * n
    tree = st.loads(text)
    assert tree.depth() == n + 1, tree.depth()
    assert tree.count_nodes() == n + 1
    assert st.dumps(tree) == text
    print("depth", tree.depth())
    """
)


def test_a_file_200000_levels_deep_is_read_and_written() -> None:
    run = subprocess.run(
        [sys.executable, "-c", DEEP], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["depth", str(200_001)]


# -- writing files ------------------------------------------------------------------------
def test_dump_writes_a_file_that_reads_back(tmp_path: Path) -> None:
    tree = st.loads(EXAMPLE)
    path = st.dump(tree, tmp_path / "out.txt")
    assert path == tmp_path / "out.txt"
    assert path.read_text(encoding="utf-8") == EXAMPLE + "\n"
    assert st.load(path) == tree
    st.dump(tree.root, tmp_path / "indented.txt", indent=2)
    assert st.load(tmp_path / "indented.txt") == tree
    assert sorted(os.listdir(tmp_path)) == ["indented.txt", "out.txt"]  # no temporary files left


def test_dump_replaces_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old content that is longer than the new one " * 10, encoding="utf-8")
    st.dump(st.loads("{AB:{10:AA}}"), path)
    assert path.read_text(encoding="utf-8") == "{AB:{10:AA}}\n"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_dump_without_force_refuses_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("keep me", encoding="utf-8")
    with pytest.raises(StrategyTreeError):
        st.dump(st.loads(EXAMPLE), path, force=False)
    assert path.read_text(encoding="utf-8") == "keep me"
    assert os.listdir(tmp_path) == ["out.txt"]
    st.dump(st.loads(EXAMPLE), tmp_path / "new.txt", force=False)  # a new file is fine
    assert st.load(tmp_path / "new.txt") == st.loads(EXAMPLE)


def test_dump_that_fails_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old", encoding="utf-8")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(StrategyTreeError) as info:
        st.dump(st.loads(EXAMPLE), path)
    assert "No space left on device" in str(info.value)
    assert path.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_dump_into_a_missing_folder_is_a_clean_error(tmp_path: Path) -> None:
    with pytest.raises(StrategyTreeError):
        st.dump(st.loads(EXAMPLE), tmp_path / "no" / "such" / "out.txt")


# -- lenient reading -----------------------------------------------------------------
@pytest.mark.parametrize(
    "text, strict_text, repairs",
    [
        # the 2014 contest answer that printed subtrees without their braces (MM(2,3), total 21)
        (
            "{BC:{00:AA,01:AB:{01:CA},02:CB,10:AC:{00:BB,01:BA,10:CC}}}",
            "{BC:{00:AA,01:{AB:{01:CA}},02:CB,10:{AC:{00:BB,01:BA,10:CC}}}}",
            ["x.txt:1:12: branch 01:AB:{...}", "x.txt:1:32: branch 10:AC:{...}"],
        ),
        ("{{AB:{10:AA}}}", "{AB:{10:AA}}", ["x.txt:1:1: extra braces"]),
        ("{ab:{10:Aa}}", "{AB:{10:AA}}",
         ["x.txt:1:2: lower-case guess 'ab'", "x.txt:1:9: lower-case guess 'Aa'"]),
    ],
)
def test_lenient_reading_repairs_and_reports(text: str, strict_text: str,
                                             repairs: list[str]) -> None:
    with pytest.raises(StrategyFileError, match="lenient=True, would read it"):
        st.loads(text, source="x.txt")
    tree = st.loads(text, source="x.txt", lenient=True)
    assert tree == st.loads(strict_text)
    assert len(tree.repairs) == len(repairs)
    for got, want in zip(tree.repairs, repairs):
        assert got.startswith(want)


def test_lenient_reading_does_not_hide_real_errors() -> None:
    for text in ["{AB:{10:AA:BB}}", "{AB:{10:AA,}}", "{AB"]:
        with pytest.raises(StrategyFileError) as strict:
            st.loads(text, source="x.txt")
        assert "--lenient" not in str(strict.value)
        with pytest.raises(StrategyFileError):
            st.loads(text, source="x.txt", lenient=True)


def test_a_strict_file_reads_the_same_leniently() -> None:
    text = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"
    tree = st.loads(text, lenient=True)
    assert tree == st.loads(text) and tree.repairs == []
