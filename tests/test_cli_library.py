"""What each command does, called as the library (the functions the thin CLI calls),
and the shape of the CLI itself: options declared once, short commands."""

from __future__ import annotations

import ast
import inspect
import io
import json
import re
from pathlib import Path

import pytest
import typer
from rich.console import Console

import strategytree as st
from strategytree import export, files, generate, improve, play, progress, simulate, stats
from strategytree.bounds.max_guesses import bound_text
from strategytree.bounds.total import total_answer as total_words
from strategytree.bounds.total import total_lower_bound
from strategytree.cli import app, commands, options
from strategytree.cli.group import command
from strategytree.errors import ArgumentError, OutputExistsError, StrategyTreeError
from strategytree.formats import writing
from strategytree.verify import ranking_view, report_view, verify_files

from cli_runner import EXAMPLE

GAME = st.mastermind(2, 3)
CLI = Path(commands.__file__).parent


def rendered(parts: list) -> str:
    """What the CLI prints of a view, on an 80-column console without colour."""
    console = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    for part in parts:
        console.print(part, soft_wrap=isinstance(part, str))
    return console.file.getvalue()


# -- the library's command-level functions ------------------------------------------------
def test_verify_files_ranks_and_keeps_unreadable_apart(tmp_path: Path) -> None:
    def read(path: str):
        if path == "missing":
            raise StrategyTreeError("missing: no such file")
        return st.loads(EXAMPLE), GAME, ["note"]

    ranked, unreadable = verify_files(["a", "missing"], read, word=str)
    assert [item.source for item in ranked] == ["a", "missing"]
    assert ranked[0].rank == 1 and ranked[0].report.total == 21
    assert ranked[0].report.game_notes == ["note"]
    assert ranked[1].reason == "missing: no such file" and len(unreadable) == 1
    text = rendered(report_view(ranked[0].report))
    assert re.search(r"total guesses +21", text) and text.rstrip().endswith("valid")
    assert "missing: unreadable: missing: no such file" in rendered(ranking_view(ranked))


def test_generate_file_writes_and_verifies(tmp_path: Path) -> None:
    built = generate.generate_file(GAME, tmp_path / "g.txt")
    assert built.report.valid and built.report.source == str(tmp_path / "g.txt")
    assert st.verify(st.load(tmp_path / "g.txt"), GAME).total == built.report.total
    with pytest.raises(OutputExistsError):
        generate.generate_file(GAME, tmp_path / "g.txt")


def test_improve_file_and_its_refusal(tmp_path: Path) -> None:
    strategy = st.loads(EXAMPLE)
    before = improve.improvable(strategy, GAME, ["from the file"])
    report, seconds = improve.improve_file(strategy, GAME, tmp_path / "i.txt", exact_below=20)
    assert report.total <= before.total and (tmp_path / "i.txt").exists() and seconds >= 0
    assert "guesses saved (21 -> " in improve.improved_text(before, report, seconds, "i.txt")
    with pytest.raises(improve.ImproveError) as refused:
        improve.improvable(st.loads("{AB:{02:BA}}"), GAME)
    assert not refused.value.report.valid


def test_play_games_writes_rows(tmp_path: Path) -> None:
    results = simulate.play_games(GAME, st.loads(EXAMPLE), csv=tmp_path / "g.csv")
    assert results[0].total == 21
    assert len((tmp_path / "g.csv").read_text().splitlines()) == 1 + len(GAME.secrets)
    assert re.search(r"total guesses +21", rendered(simulate.simulation_view(results)))
    outcome, what = simulate.against_adversary(GAME, None, rule="minimax")
    assert outcome.solved and what == "the minimax rule"
    assert "against the adversary" in rendered(simulate.adversary_view(GAME, outcome, what, 0.0))


class Scripted:
    """A terminal that replies from a script and keeps what was said."""

    def __init__(self, replies: list[str]) -> None:
        self.replies, self.said = replies, []

    def ask(self, prompt: str) -> str:
        return self.replies.pop(0)

    def say(self, text: str) -> None:
        self.said.append(text)


def test_play_against_the_adversary_tells_its_moves() -> None:
    terminal = Scripted([])
    outcome = play.play(GAME, terminal, adversary=True, rule="minimax")
    assert outcome.solved
    assert terminal.said[-1].startswith(f"The adversary held out for {outcome.guesses} guess")


def test_convert_file_prints_or_writes(tmp_path: Path, capsys) -> None:
    (tmp_path / "t.txt").write_text(EXAMPLE)
    read, target = writing.convert_file(tmp_path / "t.txt")
    assert target is None and capsys.readouterr().out == EXAMPLE + "\n"
    seen = []
    read, target = writing.convert_file(tmp_path / "t.txt", tmp_path / "t.json",
                                        on_read=seen.append)
    assert target == "json" and seen == [read] and read.fmt == "brace"
    with pytest.raises(ArgumentError, match="pegs=2 has no effect on a brace file"):
        writing.convert_file(tmp_path / "t.txt", game_options={"pegs": 2})


def test_write_guide_and_file_stats(tmp_path: Path) -> None:
    guide = export.render(st.loads(EXAMPLE), GAME, "csv")
    assert export.write_guide(guide, tmp_path / "g.csv") == "wrote"
    assert (tmp_path / "g.csv").read_text() == guide.text
    assert stats.file_stats(st.loads(EXAMPLE), GAME).total == 21


def test_bound_words() -> None:
    assert bound_text(GAME, 3, 0.5) == "MM(2,3): 3 guesses solve every secret; none within 2 " \
        "(proved in 0.50 s)"
    answer, lines = total_words(total_lower_bound(GAME, 1), GAME, 1)
    assert answer["bound"] <= 21 and f"at least {answer['bound']:,} guesses" in lines[0]
    assert answer["levels"] == [] and len(lines) == 1  # (no depth from 2 done)


def test_check_outputs(tmp_path: Path) -> None:
    (tmp_path / "out.txt").write_text("x")
    with pytest.raises(OutputExistsError):
        files.check_outputs([tmp_path / "out.txt"], force=False)
    files.check_outputs([tmp_path / "out.txt"], force=True)
    with pytest.raises(ArgumentError, match="force=True has no effect"):
        files.check_outputs([None], force=True)
    with pytest.raises(StrategyTreeError, match="standard output"):
        files.check_outputs([Path("-")], force=False)


def test_progress_is_logged_every_so_often(monkeypatch) -> None:
    monkeypatch.setenv("STRATEGYTREE_PROGRESS_SECONDS", "0")
    said: list[str] = []
    console = Console(file=io.StringIO(), force_terminal=False)
    with progress.displayed("playing", "MM(2,3)", console, said.append) as show:
        show("1/9 games")
    assert said == ["playing MM(2,3): 1/9 games"]
    monkeypatch.setenv("STRATEGYTREE_PROGRESS_SECONDS", "soon")
    assert progress.progress_seconds() == progress.PROGRESS_SECONDS


# -- the CLI's shape ----------------------------------------------------------------------
def test_a_bundle_is_one_parameter_and_several_options() -> None:
    got = []

    @command("bundled-example")
    def bundled(*, game: options.NewGame, reading: options.ReadOptions) -> None:
        got.append((game, reading))

    parameters = inspect.signature(bundled).parameters
    assert list(parameters)[:5] == ["pegs", "colors", "distinct", "distinct_guesses", "preset"]
    group = typer.main.get_command(app)
    try:
        assert group.main(["bundled-example", "-p", "3", "--lenient"], standalone_mode=False) == 0
    finally:
        app.registered_commands.pop()
    assert got == [(options.GameOptions("mastermind", 3, None, False, False),
                    options.Reading(None, True, options.MAX_INPUT_MB))]


def test_every_command_is_short_and_declares_no_option_itself() -> None:
    tree = ast.parse((CLI / "commands.py").read_text())
    commands_ = [node for node in tree.body if isinstance(node, ast.FunctionDef)
                 and any(getattr(d, "func", None) is not None for d in node.decorator_list)]
    assert len(commands_) == 10
    for node in commands_:
        assert node.end_lineno - node.lineno < 50, node.name
        assert "typer.Option" not in ast.unparse(node.args), node.name


def test_every_command_output_of_json_is_json(tmp_path: Path, monkeypatch) -> None:
    from cli_runner import invoke

    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.txt").write_text(EXAMPLE)
    for args in (["verify", "t.txt"], ["stats", "t.txt"], ["simulate", "--strategy", "t.txt"]):
        assert json.loads(invoke([*args, "--json"]).stdout)


def test_the_choices_of_options_are_the_librarys() -> None:
    from strategytree import builders, export, generate, presets
    from strategytree.formats import reading
    from strategytree.play import BREAKERS
    from strategytree.spelling import ALPHABETS

    assert options.CHOICES["game"] == presets.PRESETS
    assert options.CHOICES["rule"] == builders.GREEDY_RULES
    assert options.CHOICES["method"] == generate.METHODS
    assert options.CHOICES["from"] == tuple(reading.FORMATS)
    assert options.CHOICES["guide"] == export.FORMATS
    assert options.CHOICES["alphabet"] == ALPHABETS
    assert options.CHOICES["breaker"] == BREAKERS


def test_a_short_option_means_one_thing_in_every_command() -> None:
    group = typer.main.get_command(app)
    meaning: dict[str, set[str]] = {}
    for command_ in group.commands.values():
        for param in command_.params:
            longs = tuple(sorted(o for o in param.opts if o.startswith("--")))
            for short in (o for o in param.opts if not o.startswith("--")):
                meaning.setdefault(short, set()).add(longs[0] if longs else param.name)
    assert meaning["-s"] == {"--strategy"} and meaning["-n"] == {"--games"}
    assert all(len(longs) == 1 for short, longs in meaning.items() if short != "-d"), meaning
    # -d is --depth everywhere: levels shown (show) or worked out exactly (bound --total)


# -- each command's outcome, as the library composes it -------------------------------------
def test_outcomes_say_what_to_print_and_the_exit_status(tmp_path: Path) -> None:
    from strategytree.formats.reading import strategy_or_game, strategy_reader
    from strategytree.outcome import INVALID, OK, UNREADABLE
    from strategytree.verify import verify_outcome

    (tmp_path / "t.txt").write_text(EXAMPLE)
    (tmp_path / "bad.txt").write_text("{AB:{02:BA}}")
    good, bad, gone = (str(tmp_path / name) for name in ("t.txt", "bad.txt", "gone.txt"))
    read = strategy_reader(pegs=2, colors=3)
    done = verify_outcome([good], read)
    assert done.status == OK and rendered(list(done.shown)).rstrip().endswith("valid")
    assert verify_outcome([bad], read).status == INVALID
    ranked = verify_outcome([good, gone], read, as_json=True)
    assert ranked.status == UNREADABLE and len(ranked.data) == 2 and len(ranked.notes) == 1
    assert ranked.notes[0].startswith("error: ") and not ranked.shown
    with pytest.raises(StrategyTreeError):
        verify_outcome([gone], read)
    counted = stats.stats_outcome(good, as_json=True)
    assert counted.data["total"] == 21 and counted.status == OK and not counted.notes
    game, strategy = strategy_or_game(None, pegs=2, colors=3)
    assert game.name == "MM(2,3)" and strategy is None
    game, strategy = strategy_or_game(good)
    assert game.name == "MM(2,3)" and strategy.count_nodes() == st.loads(EXAMPLE).count_nodes()


def test_generate_improve_and_bound_outcomes(tmp_path: Path) -> None:
    from strategytree.bounds.max_guesses import bound_outcome
    from strategytree.progress import Watch

    said: list = []
    built = generate.generate_outcome(tmp_path / "g.txt", game_options={"pegs": 2, "colors": 3},
                                      watch=Watch(said.append))
    assert built.status == 0 and built.shown[-1].startswith("built in ") and not built.aside
    assert st.verify(st.load(tmp_path / "g.txt"), GAME).valid and said == []
    with pytest.raises(StrategyTreeError, match="where --json prints the report"):
        generate.generate_outcome("-", as_json=True)
    improved = improve.improve_outcome(tmp_path / "g.txt", tmp_path / "i.txt", as_json=True,
                                       read={"pegs": 2, "colors": 3}, exact_below=20)
    assert improved.data["before"]["total"] >= improved.data["total"] == 21
    proved = bound_outcome({"pegs": 2, "colors": 3})
    assert proved.shown[0].startswith("MM(2,3): 3 guesses solve every secret; none within 2")


def test_improve_warns_when_the_strategy_stays_beyond_max_guesses(tmp_path: Path) -> None:
    worse = tmp_path / "worse.txt"  # MM(2,3) in 24 guesses, max 4 (the optimum: 21, max 3)
    worse.write_text("{AA:{10:{AB:{10:AC,02:BA,01:CA}},00:{BB:{10:{BC:{02:CB}},00:CC}}}}\n")
    for limit, total in ((2, 24), (3, 21)):  # no strategy of MM(2,3) within 2
        done = improve.improve_outcome(worse, tmp_path / f"i{limit}.txt", max_guesses=limit)
        assert done.status == 0 and st.verify(st.load(tmp_path / f"i{limit}.txt")).total == total
        warned = [str(note) for note in done.notes if "--max-guesses" in str(note)]
        assert warned == ([] if limit == 3 else [
            "warning: the strategy still needs 4 guesses for some secret: no subtree found "
            "brings it within --max-guesses 2"])


def test_a_watch_warns_and_runs_without_a_console() -> None:
    from strategytree.progress import Watch

    said: list = []
    watch = Watch(said.append)
    watch.warn(None)
    watch.warn("a long run")
    assert [str(line) for line in said] == ["warning: a long run"]
    with watch.running("playing", GAME, cluster=False) as (client, progress):
        assert client is None and progress is None


def test_a_stopped_run_says_what_is_kept(monkeypatch, tmp_path) -> None:
    from strategytree import runner

    monkeypatch.setattr(runner, "stopped_by", [])
    monkeypatch.chdir(tmp_path)
    # stopped before the first save (a run's first second): nothing is claimed
    assert runner.stop_words("run.ckpt") == (
        "interrupted; stopped before the first save: nothing is in run.ckpt yet")
    (tmp_path / "run.ckpt").write_bytes(b"kept")
    stopped = runner.stopped_outcome("the best so far is in out.txt", checkpoint="run.ckpt")
    assert [str(line) for line in stopped.notes] == [
        "the best so far is in out.txt", "interrupted; the search is saved in run.ckpt"]
    assert stopped.status == runner.CTRL_C_STATUS
    assert runner.stop_words() == "interrupted"


def test_a_failed_standard_output_is_worded(monkeypatch) -> None:
    import errno
    import sys

    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert files.stdout_failed(OSError(errno.EPIPE, "Broken pipe")) is None
    full = files.stdout_failed(OSError(errno.ENOSPC, "No space left on device"))
    assert full == "error: cannot write the standard output: No space left on device"


def test_format_convert_and_show_outcomes(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text(EXAMPLE.replace(",", ", "))
    done = writing.format_outcome(tmp_path / "t.txt", tmp_path / "n.txt")
    assert [str(line) for line in done.notes] == [
        f"wrote {tmp_path / 'n.txt'} (0 repairs) from {tmp_path / 't.txt'} (brace)"]
    assert (tmp_path / "n.txt").read_text() == EXAMPLE + "\n"
    converted = writing.convert_outcome(tmp_path / "n.txt", tmp_path / "n.json", as_json=True)
    assert converted.data["to"] == "json" and converted.status == 0
    shown = export.show_outcome(tmp_path / "n.txt", "csv", tmp_path / "g.csv")
    assert shown.notes == [f"wrote {tmp_path / 'g.csv'}"] and (tmp_path / "g.csv").exists()
    with pytest.raises(StrategyTreeError, match="add --secret"):
        export.show_outcome(tmp_path / "n.txt", as_json=True)


def test_play_and_simulate_outcomes(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text(EXAMPLE)

    class Gone(Scripted):
        def ask(self, prompt: str) -> str:
            raise EOFError

    stopped = play.play_outcome(None, Gone([]), read={"pegs": 2, "colors": 3})
    assert stopped.status == 1 and [str(line) for line in stopped.shown] == ["", "game stopped"]
    played = simulate.simulate_outcome(tmp_path / "t.txt", csv=tmp_path / "g.csv")
    assert played.status == 0 and played.shown[-1] == f"games written to {tmp_path / 'g.csv'}"
    assert str(played.shown[-2]).startswith("played in ")


@pytest.mark.parametrize("call", [
    lambda tmp: generate.generate_outcome(tmp / "g.txt", game_options={"pegs": 2, "colors": 3},
                                          rule="random", seed=-1),
    lambda tmp: generate.generate_outcome(tmp / "g.txt", game_options={"pegs": 2, "colors": 3},
                                          rule="random", seed="x"),
    lambda tmp: simulate.simulate_outcome(None, read={"pegs": 2, "colors": 3}, games=2.5),
    lambda tmp: simulate.simulate_outcome(None, read={"pegs": 2, "colors": 3}, fraction="0.5"),
    lambda tmp: simulate.simulate_outcome(None, read={"pegs": 2, "colors": 3}, rule="random",
                                          seed=-1),
], ids=["negative seed", "a seed in a str", "a fraction of a game", "a fraction in a str",
        "a negative seed drawing"])
def test_the_outcome_functions_refuse_numbers_of_another_kind(tmp_path: Path, call) -> None:
    with pytest.raises(StrategyTreeError):
        call(tmp_path)
