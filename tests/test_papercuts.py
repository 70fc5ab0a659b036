"""The papercuts of issue 37 that a user hits first, through the installed program.

Each test drives ``strategytree`` as a user would and checks what it says:
budgets written as people write them, errors that quote what was typed,
options that would do nothing refused, game names in any case, guides that
say how their replies read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from strategytree.improve import parse_budget

from cli_runner import EXAMPLE, one_error, run

pytestmark = pytest.mark.subprocess


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder holding ``s.txt``, a small MM(2,3) strategy (total 21)."""
    (tmp_path / "s.txt").write_text(EXAMPLE + "\n")
    return tmp_path


# -- h: options as people write them ----------------------------------------------------
@pytest.mark.parametrize("text, seconds", [("1h30m", 5400), ("1h", 3600), ("90m", 5400),
                                           ("45s", 45), ("1.5h", 5400), ("2m30s", 150),
                                           ("1h 30m", 5400), ("90", 90)])
def test_a_budget_is_read_as_people_write_it(text: str, seconds: float) -> None:
    assert parse_budget(text) == seconds


@pytest.mark.parametrize("text", ["1h30", "30m1h", "h", "0", "soon", "-5", "inf"])
def test_a_budget_that_is_no_time_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="1h30m"):
        parse_budget(text)


def test_improve_takes_a_budget_of_hours_and_minutes(folder: Path, console_script) -> None:
    done = run(console_script, "improve", "s.txt", "-o", "o.txt", "--budget", "1h30m",
               cwd=folder)
    assert done.returncode == 0, done.stderr
    one_error(run(console_script, "improve", "s.txt", "-o", "p.txt", "--budget", "1h30",
                  cwd=folder), "--budget 1h30", "1h30m")


def test_deepen_is_quoted_as_typed(folder: Path, console_script) -> None:
    done = run(console_script, "improve", "s.txt", "-o", "o.txt", "--deepen", "5", cwd=folder)
    one_error(done, "--deepen 5 must be a width and a count")
    assert "(" not in done.stderr.split("(e.g.")[0], done.stderr  # no Python tuple


@pytest.mark.parametrize("also, words", [
    ("entropy", ["--also entropy repeats --rule entropy", "drop it"]),
    ("parts,parts", ["--also parts,parts names parts twice"]),
])
def test_a_rule_named_twice_in_a_lookahead_is_refused(folder: Path, console_script, also: str,
                                                      words: list[str]) -> None:
    done = run(console_script, "generate", "-m", "lookahead", "--also", also, "-p", "2",
               "-c", "3", "-o", "o.txt", cwd=folder)
    one_error(done, *words)
    assert not (folder / "o.txt").exists()


@pytest.mark.parametrize("name", ["Mastermind", "BULLS-AND-COWS", "Bulls-And-Cows", "Bagel"])
def test_game_names_are_read_in_any_case(folder: Path, console_script, name: str) -> None:
    done = run(console_script, "generate", "--game", name, "-o", "g.txt", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert name.lower() in done.stdout or "MM(4,6)" in done.stdout


def test_the_text_guide_groups_thousands_and_says_how_replies_read(folder: Path,
                                                                   console_script) -> None:
    assert run(console_script, "generate", "-p", "5", "-c", "8", "-o", "g.txt",
               cwd=folder).returncode == 0
    done = run(console_script, "show", "g.txt", "--depth", "0", cwd=folder)
    assert done.returncode == 0, done.stderr
    legend, first, *_ = done.stdout.splitlines()
    assert legend == ("replies: 21 = 2 black (right colour, right place), "
                      "1 white (right colour, wrong place)")
    assert first.startswith("guess ") and first.endswith(" 32,768 secrets")
    digits = run(console_script, "generate", "--game", "bagel", "-o", "b.txt", cwd=folder)
    assert digits.returncode == 0, digits.stderr
    done = run(console_script, "show", "b.txt", "-d", "0", cwd=folder)
    assert done.stdout.splitlines()[0] == (
        "replies: 11 = 1 bull (right digit, right place), 1 cow (right digit, wrong place)")


# -- c: generate to the standard output --------------------------------------------------
@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_generate_writes_the_tree_alone_on_stdout(folder: Path, console_script, out: str) -> None:
    done = run(console_script, "generate", "-p", "2", "-c", "3", "-o", out, cwd=folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1 and done.stdout.startswith("{")  # the tree, whole
    assert "valid" in done.stderr and "written to the standard output" in done.stderr
    (folder / "t.txt").write_text(done.stdout)
    check = run(console_script, "verify", "t.txt", "-p", "2", "-c", "3", cwd=folder)
    assert check.returncode == 0 and "21" in check.stdout


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_generate_to_stdout_with_json_is_refused(folder: Path, console_script, out: str) -> None:
    done = run(console_script, "generate", "-p", "2", "-c", "3", "-o", out, "--json",
               cwd=folder)
    one_error(done, f"-o {out} is the standard output", "--json")
    assert done.stdout == ""


# -- d: format --in-place ----------------------------------------------------------------
def test_format_in_place_rewrites_the_file_atomically_through_a_link(folder: Path,
                                                                     console_script) -> None:
    messy = "{ AB:{ 10:{ac:{10:AA,01:CB,00:BB}}, 02:BA, 01:{BC:{01:CA}}, 00:CC }}\n"
    (folder / "m.txt").write_text(messy)
    (folder / "m.txt").chmod(0o640)
    (folder / "link.txt").symlink_to("m.txt")
    done = run(console_script, "format", "--in-place", "link.txt", "--lenient", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "rewrote link.txt in place (1 repair)" in done.stderr
    assert (folder / "link.txt").is_symlink()  # the link kept, its target rewritten
    assert (folder / "m.txt").read_text() == EXAMPLE + "\n"
    assert (folder / "m.txt").stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in folder.iterdir()) == ["link.txt", "m.txt", "s.txt"]


@pytest.mark.parametrize("args, words", [
    (["s.txt", "--in-place", "-o", "x.txt"], ["--in-place rewrites the input itself",
                                              "drop --output x.txt"]),
    (["s.txt", "--in-place", "-o", "t.json"], ["--in-place rewrites the input itself",
                                               "drop --output t.json"]),  # (it exists)
    (["-", "--in-place"], ["--in-place rewrites a regular file, not -"]),
    (["t.json", "--in-place"], ["--in-place rewrites brace files only", "t.json is json"]),
    (["s.txt"], ["--output FILE or --in-place is needed"]),
])
def test_format_in_place_refusals(folder: Path, console_script, args: list[str],
                                  words: list[str]) -> None:
    (folder / "t.json").write_text('{"guess": "AA"}\n')
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    one_error(run(console_script, "format", *args, cwd=folder), *words)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


# -- e: DOT text of any size; drawings of at most 500 nodes -------------------------------
def test_dot_text_has_no_node_limit_and_reads_back(folder: Path, console_script) -> None:
    assert run(console_script, "generate", "-o", "g.txt", cwd=folder).returncode == 0
    done = run(console_script, "show", "g.txt", "-o", "g.dot", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert (folder / "g.dot").read_text().count(" -> ") > 1000
    again = run(console_script, "verify", "g.dot", cwd=folder)
    assert again.returncode == 0, again.stdout + again.stderr
    one_error(run(console_script, "show", "g.txt", "-o", "g.svg", cwd=folder),
              "more than the 500", "--depth")


# -- f: optimality wording ---------------------------------------------------------------
def test_an_optimal_tree_is_called_optimal(folder: Path, console_script) -> None:
    import json

    done = run(console_script, "generate", "-m", "optimal", "-p", "3", "-c", "5", "-o", "o.txt",
               "--json", cwd=folder)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    gap = report["gap"]  # no optimum of MM(3,5) is published: the search proved its own
    assert gap["exact"] and gap["optimum"] == report["total"] and gap["excess"] == 0
    ours = "strategytree exact search, 2026-11-28; "  # our own figure (literature.RESULTS)
    assert gap["text"] == (f"optimum {report['total']:,} ({ours}found by this exact search) "
                           "→ optimal")
    again = run(console_script, "generate", "-m", "optimal", "-p", "3", "-c", "5", "-o", "p.txt",
                cwd=folder)
    assert "found by this exact search) → optimal" in " ".join(again.stdout.split())  # wrapped
    assert "above the optimum" not in again.stdout


def test_verify_and_stats_say_optimal_at_plus_zero(folder: Path, console_script) -> None:
    assert run(console_script, "generate", "-m", "optimal", "-o", "o.txt",
               cwd=folder).returncode == 0
    for command in ("verify", "stats"):
        done = run(console_script, command, "o.txt", cwd=folder)
        assert done.returncode == 0, done.stderr
        assert "(Koyama & Lai 1993) → optimal" in done.stdout, done.stdout
        assert "+0" not in done.stdout
    ranked = run(console_script, "verify", "o.txt", "o.txt", cwd=folder)
    assert "valid, optimal" in ranked.stdout and "above" not in ranked.stdout


def test_a_total_bound_that_meets_the_optimum_says_so(folder: Path, console_script) -> None:
    done = run(console_script, "bound", "--total", "--depth", "4", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "it is the optimum (Koyama & Lai 1993): the bound is tight" in done.stdout


# -- g: bound --total --seconds holds, the reply table's build included --------------------
def test_a_total_bound_keeps_its_time_limit_on_a_big_game(folder: Path, console_script) -> None:
    import json
    import time

    started = time.perf_counter()
    done = run(console_script, "bound", "--total", "-p", "5", "-c", "8", "--seconds", "1",
               "--json", cwd=folder)
    took = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    # MM(5,8)'s table of replies alone takes 11 s or more on one core: the limit counts it
    assert answer["seconds"] < 3 and not answer["complete"], answer
    assert answer["bound"] > 0
    assert took < 30  # (start-up and the kernels' compilation, once per install, besides)


def test_the_reply_table_is_built_in_runs_that_can_be_stopped(monkeypatch) -> None:
    from strategytree import feedback
    from strategytree.game import mastermind
    from strategytree.runner import Stopped

    game = mastermind(3, 4)
    whole = feedback.table(game)
    monkeypatch.setattr(feedback, "TABLE_CHUNK", 100)  # runs of a few rows
    asked = []
    assert (feedback.table(game, lambda: bool(asked.append(1))) == whole).all()
    assert len(asked) > 1
    with pytest.raises(Stopped):
        feedback.table(game, lambda: len(asked) > 3 or bool(asked.append(1)))


# -- a, b: the exact search stopped keeps its best; its cost without symmetry; its progress -----
def test_a_stopped_exact_search_hands_over_its_best_whole_strategy(monkeypatch) -> None:
    from strategytree.game import mastermind
    from strategytree.literature import published
    from strategytree.runner import Interrupted
    from strategytree.search import build_optimal, driver
    from strategytree.verify import verify

    game = mastermind(4, 7)
    monkeypatch.setattr(driver, "GREEDY_FIRST", 10**9)  # no greedy start: the search's own
    seen = []

    def progress(done) -> None:
        seen.append(done)
        if done.best is not None:
            raise KeyboardInterrupt  # as Ctrl-C does, once a whole strategy is known

    with pytest.raises(Interrupted) as stopped:
        build_optimal(game, progress=progress)
    best = stopped.value.result
    report = verify(best, game)
    assert report.valid and report.total == seen[-1].best
    assert report.total >= published("MM(4,7)", "optimal").low
    assert any("first guess " in p.detail and "% of its parts solved" in p.detail for p in seen)


def test_a_big_exact_search_stopped_at_once_hands_over_its_greedy_start(monkeypatch) -> None:
    from strategytree.builders import build_greedy
    from strategytree.game import mastermind
    from strategytree.runner import Interrupted
    from strategytree.search import build_optimal, driver
    from strategytree.verify import verify

    game = mastermind(4, 6)
    monkeypatch.setattr(driver, "GREEDY_FIRST", 1)

    def progress(done) -> None:
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stopped:
        build_optimal(game, progress=progress, symmetry=False)
    greedy = verify(build_greedy(game, rule="expected"), game).total
    report = verify(stopped.value.result, game)
    assert report.valid and report.total <= greedy


@pytest.mark.parametrize("checkpoint", [False, True])
def test_generate_optimal_stopped_writes_the_best_so_far(folder: Path, console_script,
                                                         checkpoint: bool) -> None:
    import os
    import signal
    import subprocess

    more = ["--checkpoint", "run.ckpt"] if checkpoint else []
    run_ = subprocess.Popen(
        [*console_script, "generate", "-m", "optimal", "--no-symmetry", "-o", "out.txt", *more],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder,
        env={**os.environ, "STRATEGYTREE_PROGRESS_SECONDS": "0.2"},
    )
    try:
        warning = run_.stderr.readline()
        assert warning.startswith("warning: without symmetry the exact search tries 1,296 first "
                                  "guesses where symmetry leaves"), warning
        while "sets searched" not in run_.stderr.readline():
            pass
        run_.send_signal(signal.SIGTERM)
        _, said = run_.communicate(timeout=120)
    finally:
        run_.kill()
    assert run_.returncode == 143, said
    lines = said.strip().splitlines()
    assert lines[-1] == "stopped by SIGTERM" + ("; the search is saved in run.ckpt" * checkpoint)
    if checkpoint:  # the checkpoint keeps the work; the output waits for the optimum
        assert not (folder / "out.txt").exists()
        assert "out.txt is not written: run the same command again" in lines[-2]
        return
    check = run(console_script, "verify", "out.txt", "--json", cwd=folder)
    import json

    total = json.loads(check.stdout)[0]["total"]
    assert check.returncode == 0
    assert f"the best strategy so far ({total:,} guesses in total" in lines[-2]
    assert "is written to out.txt" in lines[-2]


def test_no_warning_where_symmetry_costs_little(folder: Path, console_script) -> None:
    done = run(console_script, "generate", "-m", "optimal", "--no-symmetry", "-p", "3", "-c", "3",
               "-o", "o.txt", cwd=folder)
    assert done.returncode == 0 and "warning" not in done.stderr
