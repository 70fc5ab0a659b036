"""Machine-readable reports (``--json`` on every command that reports, driven through
the installed console script), the ranking of several files per game, and the
optimality gap beside a strategy's total (published optima, proven lower bounds)."""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import strategytree as st
from strategytree.counting import counting_bound, counting_total, parts_by_scoring
from strategytree.game import black_only, mastermind
from strategytree.guide import play_secret
from strategytree.literature import (
    BOUNDS,
    ONE_LEVEL,
    best_known_lower_bound,
    game_key,
    gap,
    optimum,
    published,
)
from strategytree.presets import bagel, bulls_and_cows, resolve_game
from strategytree.stats import guess_stats
from strategytree.verify import Report, rank

import naive
from cli_runner import DATA, EXAMPLE, invoke

CORPUS = {  # file: (game, total, max) from tests/data/CORPUS.md, read below
    row.split("|")[1].strip(): (row.split("|")[2].strip(), int(row.split("|")[4]),
                                int(row.split("|")[5]))
    for row in (DATA / "CORPUS.md").read_text(encoding="utf-8").splitlines()
    if row.startswith("| arfst") or row.startswith("| mikemag")
}


def run(console_script: list[str], *args: str, cwd: Path) -> tuple[int, object, str]:
    """The console script run as a real process: exit code, stdout parsed as JSON
    (all of it: nothing else may be there), stderr."""
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    done = subprocess.run([*console_script, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


# -- the counting bound and the stored bounds ------------------------------------------
def twin_counting_total(n: int, parts: int) -> int:
    """The least sum of depths of n nodes in a tree whose nodes have at most
    ``parts`` children (the root at depth 1): the n shallowest of the complete tree."""
    depths, level = [1], [1]
    while len(depths) < n:
        level = [d + 1 for d in level for _ in range(parts)]
        depths += level
    return sum(sorted(depths)[:n])


@pytest.mark.parametrize("n, parts", [(1, 3), (9, 3), (40, 2), (200, 5), (1296, 13)])
def test_counting_total_against_the_complete_tree(n: int, parts: int) -> None:
    assert counting_total(n, parts) == twin_counting_total(n, parts)


def test_counting_bound_figures_of_the_issue() -> None:
    # the issue's figures: 4,986 for MM(4,6), 156,198 for MM(5,8)
    assert counting_bound(mastermind(4, 6)) == 4986
    assert counting_bound(mastermind(5, 8)) == 156198


@pytest.mark.parametrize("game", [mastermind(2, 3), mastermind(3, 2), mastermind(3, 4),
                                  st.distinct(3, 5, distinct_guesses=True)],
                         ids=lambda g: g.name)
def test_branching_is_at_least_the_parts_any_guess_makes(game: st.Game) -> None:
    codes = [naive.text(row) for row in game.secrets.tolist()]
    guesses = [naive.text(row) for row in game.guesses.tolist()]
    seen = naive.possible_replies(guesses, codes, game.pegs)
    assert parts_by_scoring(game) >= len(seen - {game.win})


def test_branching_of_mastermind_is_exact() -> None:
    game = mastermind(4, 6)
    codes = [naive.text(row) for row in game.secrets.tolist()]
    patterns = ["AAAA", "AAAB", "AABB", "AABC", "ABCD"]  # every guess, up to renaming colours
    seen = naive.possible_replies(patterns, codes, game.pegs)
    assert parts_by_scoring(game) == len(seen) - 1


def one_level_twin(game: st.Game) -> int:
    """The counting bound after the exact split of the best first guess, one guess
    per colour pattern (Mastermind is closed under renaming colours)."""
    b, best, seen = parts_by_scoring(game), math.inf, set()
    for guess in game.guesses:
        names: dict[int, int] = {}
        pattern = tuple(names.setdefault(int(x), len(names)) for x in guess)
        if pattern in seen:
            continue
        seen.add(pattern)
        counts = np.bincount(game.feedback(guess, game.secrets), minlength=game.n_replies)
        cost = sum(1 if r == game.win else int(n) + counting_total(int(n), b)
                   for r, n in enumerate(counts) if n)
        best = min(best, cost)
    return int(best)


def test_the_stored_one_level_bounds_are_recomputed() -> None:
    games = {"MM(4,6)": mastermind(4, 6), "MM(5,8)": mastermind(5, 8)}
    stored = {b.game: b.total for b in BOUNDS if b.method == ONE_LEVEL}
    assert stored == {key: one_level_twin(game) for key, game in games.items()}
    assert stored == {"MM(4,6)": 5196, "MM(5,8)": 158315}  # the issue's figures


@pytest.mark.parametrize("game", [mastermind(4, 6), mastermind(4, 7), mastermind(4, 8),
                                  bulls_and_cows(), st.distinct(4, 8, distinct_guesses=True)],
                         ids=lambda g: g.name)
def test_a_lower_bound_never_exceeds_the_optimum(game: st.Game) -> None:
    best = optimum(game)
    assert best is not None
    assert counting_bound(game) <= best_known_lower_bound(game).total <= best.low


def test_game_keys() -> None:
    assert game_key(mastermind(4, 6)) == "MM(4,6)"
    assert game_key(bulls_and_cows()) == "bulls-and-cows"
    same = resolve_game("distinct", 4, 10, distinct=True, distinct_guesses=True)[0]
    assert game_key(same) == "bulls-and-cows"
    assert game_key(st.distinct(4, 8, distinct_guesses=True)) == "4-distinct-of-8"
    assert game_key(st.distinct(4, 6)) is None  # any guess: the tables do not speak of it
    assert game_key(black_only(4, 6)) is None
    assert published("MM(4,8)", "optimal").low == 20471
    assert published("MM(4,8)", "optimal-max-6").low == 20473


# -- the gap -------------------------------------------------------------------------------
def test_gap_to_a_published_optimum() -> None:
    g = gap(mastermind(4, 6), 5722)
    assert (g.exact, g.reference, g.excess) == (True, 5625, 97)
    assert str(g) == "optimum 5,625 (Koyama & Lai 1993) → +97 (1.7%)"
    assert g.to_dict()["optimum"] == 5625 and g.to_dict()["exact"] is True
    assert g.to_dict()["lower_bound"] == best_known_lower_bound(mastermind(4, 6)).total == 5196


def test_gap_to_a_lower_bound() -> None:
    game = mastermind(5, 8)
    g = gap(game, 179863)
    bound = best_known_lower_bound(game).total
    assert (g.exact, g.reference) == (False, bound)
    assert g.percent == pytest.approx(100 * (179863 - bound) / bound)
    assert str(g).startswith(f"lower bound ≥ {bound:,} (")
    assert str(g).endswith(f"at most {g.percent:.1f}% above the optimum")
    assert g.to_dict()["lower_bound"] == bound and g.to_dict()["optimum"] is None
    assert g.to_dict()["exact"] is False
    assert g.to_dict()["lower_bound_method"] == best_known_lower_bound(game).method
    on_the_fly = gap(mastermind(6, 9), 10**6)
    assert on_the_fly.reference == counting_bound(mastermind(6, 9))


def test_the_corpus_against_the_literature() -> None:
    # arfst23's MM(4,8) trees are the figures added to the literature table
    for name, within in (("arfst-4-8-7.txt", None), ("arfst-4-8-6.txt", (6, 20473))):
        report = st.verify(st.load(DATA / name), mastermind(4, 8))
        _, total, most = CORPUS[name]
        assert (report.total, report.max_guesses) == (total, most)
        assert report.gap is not None and report.gap.within == within
        assert report.gap.excess == total - 20471


def test_gap_is_cheap() -> None:
    # a figure looked up or counted, never a search: far below verifying MM(5,8)
    import time

    game = mastermind(5, 8)
    started = time.perf_counter()
    for _ in range(1000):
        gap(game, 179863, 7)
    assert (time.perf_counter() - started) / 1000 < 1e-3


# -- ranking several files, per game -----------------------------------------------------
def _report(text: str, game: st.Game) -> Report:
    return st.verify(st.loads(text), game)


CHAIN = "{A:{00:{B:{00:{C:{00:{D:{00:{E:{00:F}}}}}}}}}}"  # MM(1,6): total 21, max 6


def test_rank_per_game_with_ties_and_reasons() -> None:
    mm23, mm16 = mastermind(2, 3), mastermind(1, 6)
    good = _report(EXAMPLE, mm23)
    bad = _report(EXAMPLE.replace(",00:CC", ""), mm23)
    chain = _report(CHAIN, mm16)
    assert good.total == chain.total  # the same total, but other games: both first
    ranked = rank([("a", good), ("c", chain), ("b", bad), ("a2", good), ("x", "cannot read")])
    rows = [(r.source, r.game, r.rank) for r in ranked]
    assert rows == [("a", "MM(2,3)", 1), ("a2", "MM(2,3)", 1), ("b", "MM(2,3)", None),
                    ("c", "MM(1,6)", 1), ("x", None, None)]
    assert ranked[2].reason == bad.reason and "not solved" in bad.reason
    assert ranked[4].reason == "cannot read"
    assert all(r.reason is None for r in ranked if r.rank is not None)


def test_tied_totals_with_different_maxima_do_not_share_a_rank() -> None:
    game = mastermind(4, 6)
    a5 = st.verify(st.load(DATA / "arfst-4-6-5.txt"), game)
    a6 = st.verify(st.load(DATA / "arfst-4-6-6.txt"), game)
    k = st.verify(st.load(DATA / "mikemag-knuth-4-6.txt"), game)
    ranked = rank([("k", k), ("a5", a5), ("a6", a6), ("a6b", a6)])
    assert [(r.source, r.rank) for r in ranked] == [("a6", 1), ("a6b", 1), ("a5", 3), ("k", 4)]


def test_verify_text_ranks_per_game_and_gives_reasons(here: Path) -> None:
    (here / "a.txt").write_text(EXAMPLE, encoding="utf-8")
    (here / "b.txt").write_text(EXAMPLE, encoding="utf-8")
    (here / "bad.txt").write_text(EXAMPLE.replace(",00:CC", ""), encoding="utf-8")
    (here / "chain.txt").write_text(CHAIN, encoding="utf-8")
    result = invoke(["verify", "a.txt", "chain.txt", "bad.txt", "b.txt"])
    assert result.exit_code == 1
    assert "MM(2,3): ranked by" in result.stdout and "MM(1,6): ranked by" in result.stdout
    bad = _report(EXAMPLE.replace(",00:CC", ""), mastermind(2, 3))
    assert f"bad.txt: invalid: {bad.reason}" in result.stdout.splitlines()  # one line


# -- every command's JSON, from the console script ----------------------------------------
def test_verify_json_of_one_file(tmp_path: Path, console_script: list[str]) -> None:
    path = (DATA / "arfst-4-6-6.txt").resolve()
    code, ranking, _ = run(console_script, "verify", "--json", str(path), cwd=tmp_path)
    want = st.verify(st.load(path), mastermind(4, 6))
    assert code == 0 and isinstance(ranking, list)  # one shape, whatever the number of files
    (data,) = ranking
    assert (data["total"], data["max_guesses"], data["valid"]) == (
        want.total, want.max_guesses, True)
    assert data["reason"] is None and data["rank"] == 1 and data["unreadable"] is None
    assert data["gap"]["optimum"] == published("MM(4,6)", "optimal").low
    assert data["gap"]["excess"] == want.total - 5625 == 0


def test_verify_json_of_several_files(tmp_path: Path, console_script: list[str]) -> None:
    files = ["arfst-4-6-5.txt", "arfst-4-6-6.txt", "mikemag-knuth-4-6.txt", "arfst-4-7-6.txt"]
    for name in files:
        (tmp_path / name).write_text((DATA / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "copy.txt").write_text((DATA / files[1]).read_text(encoding="utf-8"),
                                       encoding="utf-8")
    (tmp_path / "bad.txt").write_text(EXAMPLE.replace(",00:CC", ""), encoding="utf-8")
    (tmp_path / "broken.txt").write_text("{AB:{10:AA:BB}}", encoding="utf-8")
    args = [*files, "copy.txt", "bad.txt", "broken.txt"]
    code, data, stderr = run(console_script, "verify", "--json", *args, cwd=tmp_path)
    assert code == 2 and "broken.txt:1:11:" in stderr  # an unreadable file wins over invalid
    assert isinstance(data, list)
    reports = {name: st.verify(st.load(tmp_path / name)) for name in args[:-1]}
    got = [(item["source"], item["game"], item["rank"]) for item in data]
    assert got == [  # games in the order of their first file; ties share a rank
        ("arfst-4-6-6.txt", "MM(4,6)", 1), ("copy.txt", "MM(4,6)", 1),
        ("arfst-4-6-5.txt", "MM(4,6)", 3), ("mikemag-knuth-4-6.txt", "MM(4,6)", 4),
        ("arfst-4-7-6.txt", "MM(4,7)", 1), ("bad.txt", "MM(2,3)", None), ("broken.txt", None, None),
    ]
    for item in data[:-1]:
        assert item["total"] == reports[item["source"]].total
        assert item["reason"] == reports[item["source"]].reason
    assert data[4]["gap"]["optimum"] == 11228 and data[4]["gap"]["excess"] == 0
    assert data[5]["valid"] is False and "not solved" in data[5]["reason"]
    assert data[5]["gap"] is None
    assert "broken.txt:1:11:" in data[6]["reason"]


def test_stats_json(tmp_path: Path, console_script: list[str]) -> None:
    path = (DATA / "mikemag-knuth-4-6.txt").resolve()
    code, data, _ = run(console_script, "stats", "--json", str(path), cwd=tmp_path)
    want = guess_stats(st.load(path), mastermind(4, 6))
    assert code == 0 and isinstance(data, dict)
    assert (data["total"], data["max_guesses"], data["first_guess"]) == (5801, 5, "AABB")
    assert data["histogram"] == {str(k): v for k, v in want.histogram.items()}
    assert [(b["reply"], b["secrets"], b["total"]) for b in data["branches"]] == [
        (b.reply, b.secrets, b.total) for b in want.branches]
    assert data["gap"]["text"] == (  # Knuth's tree needs at most 5 guesses
        "optimum 5,625 (Koyama & Lai 1993) → +176 (3.1%); within 5 guesses: optimum 5,626 → +175")
    assert data["gap"]["within"] == {"max_guesses": 5, "optimum": 5626, "excess": 175}


def test_simulate_json(tmp_path: Path, console_script: list[str]) -> None:
    path = str((DATA / "arfst-4-6-5.txt").resolve())
    code, data, stderr = run(console_script, "simulate", "--strategy", path, "--json",
                             "--games", "300", "--seed", "3", "--runs", "2", "--csv", "games.csv",
                             cwd=tmp_path)
    assert code == 0 and isinstance(data, dict)
    assert "games written to games.csv" in stderr  # a note: never on stdout with --json
    assert len((tmp_path / "games.csv").read_text(encoding="utf-8").splitlines()) == 601
    assert data["runs"] == 2 and data["games"] == 600 == data["solved"]
    assert sum(data["histogram"].values()) == 600 and data["max_guesses"] <= 5
    assert [r["seed"] for r in data["per_run"]] == [3, 4]
    assert data["total"] == sum(r["total"] for r in data["per_run"])
    assert data["unsolved"] == [] and data["spread"]["runs"] == 2


def test_simulate_adversary_json(tmp_path: Path, console_script: list[str]) -> None:
    path = str((DATA / "mikemag-knuth-4-6.txt").resolve())
    code, data, _ = run(console_script, "simulate", "--strategy", path, "--adversary", "--json",
                        cwd=tmp_path)
    assert code == 0 and isinstance(data, dict) and data["adversary"] is True
    assert data["guesses"] == len(data["moves"]) <= 5  # Knuth's tree: never more than 5
    assert data["moves"][0]["guess"] == "AABB" and data["moves"][-1]["reply"] == "40"


def test_generate_show_secret_and_bound_json_in_digits(tmp_path: Path,
                                                       console_script: list[str]) -> None:
    # Bagel shows its codes as digits: the JSON spells them so (strategy files stay letters)
    code, data, _ = run(console_script, "generate", "--game", "bagel", "-o", "bagel.txt",
                        "--json", cwd=tmp_path)
    game = bagel()
    want = st.verify(st.load(tmp_path / "bagel.txt"), game)
    assert code == 0 and isinstance(data, dict)
    assert (data["total"], data["valid"], data["source"]) == (want.total, True, "bagel.txt")
    assert data["gap"]["lower_bound"] == counting_bound(game) and data["seconds"] >= 0
    code, data, _ = run(console_script, "show", "bagel.txt", "--game", "bagel", "--secret",
                        "CDE", "--json", cwd=tmp_path)
    moves, problem = play_secret(st.load(tmp_path / "bagel.txt"), game, "CDE")
    assert code == 0 and isinstance(data, dict)
    assert data["secret"] == "234" and data["solved"] is True and problem is None
    assert [(m["guess"], m["reply"]) for m in data["moves"]] == [
        (g, str(r)) for g, r in moves]
    assert all(m["guess"].isdigit() for m in data["moves"])
    code, data, _ = run(console_script, "bound", "-p", "2", "-c", "3", "--json", cwd=tmp_path)
    assert code == 0 and data == {
        "game": "MM(2,3)", "pegs": 2, "colors": 3, "measure": "max_guesses", "bound": 3,
        "optimum": 3, "exact": True, "method": "exhaustive search", "complete": True,
        "seconds": data["seconds"], "max_guesses": 3, "none_within": 2}


def test_show_json_needs_a_secret(here: Path) -> None:
    (here / "mm23.txt").write_text(EXAMPLE, encoding="utf-8")
    result = invoke(["show", "mm23.txt", "--json"])
    assert result.exit_code == 2 and "--secret" in result.stderr and result.stdout == ""


def test_the_gap_in_text_reports(here: Path) -> None:
    (here / "k.txt").write_text((DATA / "mikemag-knuth-4-6.txt").read_text(encoding="utf-8"),
                                encoding="utf-8")
    for command in (["verify", "k.txt"], ["stats", "k.txt"]):
        result = invoke(command)
        assert result.exit_code == 0, result.output
        assert "optimum 5,625 (Koyama & Lai 1993) → +176 (3.1%)" in " ".join(result.stdout.split())
