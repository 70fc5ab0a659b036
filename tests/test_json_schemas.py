"""Every ``--json`` output has one documented shape per command, shipped as a JSON
Schema (draft 2020-12) in ``strategytree/schemas/`` (issue 37, bug 8): the schemas
are valid, the library's shapes and the installed program's real output fit them,
``bound`` and ``bound --total`` agree on their common fields, and
``docs/reference/json.md`` shows each schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

import strategytree as st
from strategytree.bounds.max_guesses import bound_json
from strategytree.bounds.total import total_answer, total_lower_bound
from strategytree.formats.reading import read_file, reads_all
from strategytree.formats.writing import writes, written_json
from strategytree.game import mastermind
from strategytree.generate import Built, generate
from strategytree.guide import play_secret, played_json
from strategytree.improve import improved_json
from strategytree.presets import bagel
from strategytree.schemas import SCHEMAS, schema, schema_text
from strategytree.search.driver import prove_bound
from strategytree.simulate import adversary_json, against_adversary, play_games, simulation_json
from strategytree.stats import guess_stats
from strategytree.verify import rank, ranking_json

from cli_runner import EXAMPLE, run

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "strategytree" / "schemas"
DOCS = ROOT / "docs" / "reference" / "json.md"
#: an MM(2,3) strategy with an invalid reply and unsolved secrets
BAD = "{AB:{10:AA,01:{BC:{01:CA}},33:AB}}"


def fits(name: str, data: object) -> None:
    """``data`` fits the schema ``name`` (round-tripped through JSON text first, as a
    reader of the output gets it)."""
    Draft202012Validator(schema(name)).validate(json.loads(json.dumps(data)))


# -- the schemas themselves -------------------------------------------------------------
def test_one_schema_file_per_name_and_every_one_valid() -> None:
    assert {p.name for p in FOLDER.glob("*.json")} == {f"{n}.schema.json" for n in SCHEMAS}
    for name in SCHEMAS:
        found = schema(name)
        assert found["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(found)
        assert found["title"] and found["description"]


def test_the_wheel_ships_the_schemas() -> None:
    import tomllib
    from fnmatch import fnmatch

    setup = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert "strategytree.schemas" in setup["packages"]
    patterns = setup["package-data"]["strategytree.schemas"]
    assert all(any(fnmatch(p.name, pattern) for pattern in patterns)
               for p in FOLDER.glob("*.json"))


def test_definitions_shared_by_several_schemas_are_the_same_everywhere() -> None:
    seen: dict[str, tuple[str, object]] = {}
    for name in SCHEMAS:
        for key, value in schema(name).get("$defs", {}).items():
            first = seen.setdefault(key, (name, value))
            assert first[1] == value, f"$defs/{key} differs in {first[0]} and {name}"


def test_every_object_is_closed() -> None:
    """A field the code adds without its schema fails the tests below."""
    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            if "properties" in node:
                closed = "additionalProperties" in node or "unevaluatedProperties" in node
                # the three open definitions are closed where they are used
                assert closed or where.endswith(("$defs/report", "$defs/bound", "$defs/node")), \
                    where
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for k, value in enumerate(node):
                walk(value, f"{where}/{k}")

    for name in SCHEMAS:
        walk(schema(name), name)


def test_a_shape_with_a_field_more_or_less_does_not_fit() -> None:
    shape = bound_json(mastermind(2, 3), 3, 0.1)
    fits("bound", shape)
    for broken in ({**shape, "extra": 1}, {k: v for k, v in shape.items() if k != "bound"},
                   {**shape, "measure": "total"}, {**shape, "seconds": "fast"}):
        with pytest.raises(ValidationError):
            fits("bound", broken)
    with pytest.raises(ValidationError):
        fits("bound-total", shape)


def test_the_reference_page_shows_every_schema() -> None:
    page = DOCS.read_text("utf-8")
    for name in SCHEMAS:
        # embedded whole at build time (pymdownx.snippets), with a heading of its own
        assert f'--8<-- "strategytree/schemas/{name}.schema.json"' in page, name
        assert f"`{name}.schema.json`" in page, name
    assert schema_text("verify").startswith("{")


# -- the library's shapes (in-process, fast) --------------------------------------------
def _reports() -> list:
    good = st.verify(st.loads(EXAMPLE))
    good.source = "good.txt"
    bad = st.verify(st.loads(BAD), mastermind(2, 3))
    bad.source = "bad.txt"
    strict = st.verify(st.loads(EXAMPLE.replace("00:CC", "00:CC,20:AB")), strict=True)
    strict.source = "strict.txt"
    return [("good.txt", good), ("bad.txt", bad), ("strict.txt", strict),
            ("broken.txt", "broken.txt:1:2: expected a guess")]


def test_verify_shapes_of_one_file_and_of_several_fit() -> None:
    reports = _reports()
    everything = ranking_json(rank(reports))
    fits("verify", everything)
    assert [item["valid"] for item in everything] == [True, False, False, False]
    assert everything[1]["errors"] and everything[1]["unsolved_examples"]
    for one in reports:
        fits("verify", ranking_json(rank([one])))


def test_generate_and_improve_shapes_fit() -> None:
    game = mastermind(3, 3)
    strategy = generate(game)
    report = st.verify(strategy, game)
    fits("generate", Built(strategy, report, 0.25).to_dict())
    better = st.verify(strategy, game)
    fits("improve", improved_json(report, better, 1.5))


def test_stats_and_show_secret_shapes_fit() -> None:
    for strategy, game in ((st.loads(EXAMPLE), mastermind(2, 3)),
                           (st.loads(BAD), mastermind(2, 3)),
                           (generate(bagel()), bagel())):
        fits("stats", guess_stats(strategy, game).to_dict())
    game = mastermind(2, 3)
    for secret in ("CA", "CC"):  # solved, and not (reply 00 has no branch in BAD)
        fits("show-secret", played_json(game, secret, *play_secret(st.loads(BAD), game, secret)))


def test_simulate_shapes_fit() -> None:
    game = mastermind(2, 3)
    fits("simulate", simulation_json(play_games(game, st.loads(BAD), games=6, runs=2), 0.5))
    fits("simulate", simulation_json(play_games(game, rule="random", fraction=0.5, runs=3)))
    outcome, player = against_adversary(game, st.loads(EXAMPLE), "good.txt")
    fits("simulate-adversary", adversary_json(game, outcome, player, 0.1))
    outcome, player = against_adversary(game, None, "")
    fits("simulate-adversary", adversary_json(game, outcome, player))


def test_bound_shapes_fit_and_agree_on_their_common_fields() -> None:
    game = mastermind(2, 3)
    worst = bound_json(game, prove_bound(game), 0.5)
    total, _ = total_answer(total_lower_bound(game, 1), game, 1)
    fits("bound", worst)
    fits("bound-total", total)
    common = schema("bound")["$defs"]["bound"]["required"]
    assert common == schema("bound-total")["$defs"]["bound"]["required"]
    assert list(worst)[:len(common)] == list(total)[:len(common)] == common
    assert (worst["measure"], total["measure"]) == ("max_guesses", "total")
    assert worst["game"] == total["game"] == "MM(2,3)"
    assert worst["bound"] == worst["optimum"] == worst["max_guesses"] == 3 and worst["exact"]
    assert total["bound"] <= st.verify(st.loads(EXAMPLE)).total  # a lower bound: 21 is reached


def test_convert_and_format_shapes_fit(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text(EXAMPLE)
    read = read_file(tmp_path / "t.txt")
    fits("convert", written_json(read, "t.txt", "t.json", "json"))
    fits("format", written_json(read, "t.txt", "f.txt", "brace"))
    mmstrat = ROOT / "tests" / "data" / "formats" / "fancidev-mmstrat-p3c4r-optimal.txt"
    shape = written_json(read_file(mmstrat), mmstrat, "t.json", "json")
    fits("convert", shape)
    assert shape["game"] == {"preset": "mastermind", "pegs": 3, "colors": 4, "distinct": False,
                             "distinct_guesses": False}
    (tmp_path / "b.json").write_text(writes(generate(bagel()), "json", game=bagel()))
    shape = written_json(read_file(tmp_path / "b.json"), "b.json", "b.txt", "brace")
    fits("format", shape)
    assert shape["game"]["preset"] == "bagel"


@pytest.mark.parametrize("game", [mastermind(2, 3), bagel(), None], ids=str)
def test_json_trees_fit_the_tree_schema(game: st.Game | None) -> None:
    strategy = generate(game or mastermind(2, 3))
    text = writes(strategy, "json", game=game, indent=None if game else 2)
    fits("tree", json.loads(text))
    assert reads_all(text).strategy == strategy
    for broken in ('{"guess": "AB", "branches": {"10": {"guess": "ab"}}}',
                   '{"guess": "AB", "branches": {"1": {"guess": "AA"}}}',
                   '{"guess": "AB", "branches": {"10": {"game": {}, "guess": "AA"}}}',
                   '{"game": {"preset": "chess", "pegs": 2, "colors": 3}, "guess": "AB"}'):
        with pytest.raises(ValidationError):
            fits("tree", json.loads(broken))


# -- the installed program's real output ----------------------------------------------
#: (schema, arguments): every command that reports, run in a folder holding good.txt,
#: bad.txt and broken.txt (the exit code is the one without --json)
RUNS = [
    ("verify", ["verify", "good.txt"], 0),
    ("verify", ["verify", "good.txt", "bad.txt", "broken.txt"], 2),
    ("verify", ["verify", "bad.txt", "--strict"], 1),
    ("show-secret", ["show", "good.txt", "--secret", "CA"], 0),
    ("show-secret", ["show", "bad.txt", "--secret", "CC"], 1),
    ("stats", ["stats", "good.txt"], 0),
    ("stats", ["stats", "bad.txt"], 1),
    ("generate", ["generate", "--game", "bagel", "-o", "b.json"], 0),
    ("bound", ["bound", "-p", "2", "-c", "3"], 0),
    ("bound-total", ["bound", "--total", "-p", "2", "-c", "3", "--depth", "1"], 0),
    ("simulate", ["simulate", "--strategy", "bad.txt", "--runs", "2", "--games", "4"], 1),
    ("simulate", ["simulate", "-p", "2", "-c", "3", "--rule", "random"], 0),
    ("simulate-adversary", ["simulate", "--adversary", "--strategy", "good.txt"], 0),
    ("improve", ["improve", "good.txt", "-o", "better.txt"], 0),
    ("improve", ["improve", "bad.txt", "-o", "better.txt"], 1),
    ("convert", ["convert", "good.txt", "-o", "good.json"], 0),
    ("format", ["format", "good.txt", "-o", "normal.txt"], 0),
]


@pytest.mark.parametrize(("name", "args", "code"), RUNS, ids=[" ".join(a) for _, a, _ in RUNS])
def test_every_command_prints_what_its_schema_says(
    name: str, args: list[str], code: int, console_script: list[str], tmp_path: Path
) -> None:
    (tmp_path / "good.txt").write_text(EXAMPLE)
    (tmp_path / "bad.txt").write_text(BAD)
    (tmp_path / "broken.txt").write_text("{AB")
    done = run(console_script, *args, "--json", cwd=tmp_path)
    assert done.returncode == code, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    Draft202012Validator(schema(name)).validate(json.loads(done.stdout))
    for written in ("b.json", "good.json"):
        if (tmp_path / written).exists():  # a JSON tree written fits its schema too
            Draft202012Validator(schema("tree")).validate(
                json.loads((tmp_path / written).read_text()))


def test_every_command_that_reports_is_run_above() -> None:
    names = {name for name, _, _ in RUNS}
    assert names == set(SCHEMAS) - {"tree"}
    # play talks to a person on stdout, game by game: it has no report to print
    import typer.main

    from strategytree.cli import app

    group = typer.main.get_command(app)
    with_json = {command for command, value in group.commands.items()  # type: ignore[attr-defined]
                 if any("--json" in p.opts for p in value.params)}
    assert with_json == {re.split(r"-", name)[0] for name in names} | {"convert", "format"}
    assert "play" not in with_json
