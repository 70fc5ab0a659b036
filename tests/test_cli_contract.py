"""The command line's contract, driven through the installed console script:
every argument error (an option without effect in the mode asked for, a bad
value, the command line's own usage errors, a checkpoint that cannot be used)
is ONE ``error:`` line on stderr and exit 2; the same options where they do
apply are accepted; shell completion is on; ``format`` writes the normalised
file; counts agree with their nouns."""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import strategytree as st
from strategytree.builders import build_greedy, draws_at_random
from strategytree.checkpoint import FORMAT
from strategytree.errors import ArgumentError
from strategytree.generate import generate
from strategytree.play import check_play
from strategytree.simulate import check_simulate
from strategytree.words import plural

from cli_runner import EXAMPLE, invoke, runner

#: a small game, so that the runs accepted end at once
GAME = ["-p", "2", "-c", "3"]

#: argument errors: the arguments, and words the one error line must hold
ERRORS: dict[str, tuple[list[str], list[str]]] = {
    # generate: an option of another method
    "optimal --pool": (["generate", *GAME, "-m", "optimal", "--pool", "consistent", "-o", "o.txt"],
                       ["--pool consistent", "--method greedy"]),
    "optimal --rule": (["generate", *GAME, "-m", "optimal", "--rule", "minimax", "-o", "o.txt"],
                       ["--rule minimax", "--method optimal"]),
    "optimal --widths": (["generate", *GAME, "-m", "optimal", "-w", "4", "-o", "o.txt"],
                         ["--widths 4", "--method lookahead"]),
    "lookahead --pool": (["generate", *GAME, "-m", "lookahead", "--pool", "consistent", "-o",
                          "o.txt"],
                         ["--pool consistent"]),
    "lookahead --seed": (["generate", *GAME, "-m", "lookahead", "--seed", "3", "-o", "o.txt"],
                         ["--seed 3"]),
    "lookahead --first": (["generate", *GAME, "-m", "lookahead", "--first", "AB", "-o", "o.txt"],
                          ["--first AB", "--method greedy"]),
    "lookahead --rule random": (["generate", *GAME, "-m", "lookahead", "-r", "random", "-o",
                                 "o.txt"],
                                ["--rule random"]),
    "lookahead --also random": (["generate", *GAME, "-m", "lookahead", "--also", "random", "-o",
                                 "o.txt"],
                                ["--also random"]),
    "empty width": (["generate", *GAME, "-m", "lookahead", "-w", "8,,4", "-o", "o.txt"],
                    ["--widths 8,,4"]),
    "empty rule": (["generate", *GAME, "-m", "lookahead", "--also", "parts,,expected", "-o",
                    "o.txt"],
                   ["--also parts,,expected"]),
    "greedy --widths": (["generate", *GAME, "-w", "8", "-o", "o.txt"], ["--widths 8"]),
    "greedy --also": (["generate", *GAME, "--also", "parts", "-o", "o.txt"], ["--also parts"]),
    "greedy --max-guesses": (["generate", *GAME, "-k", "3", "-o", "o.txt"],
                             ["--max-guesses 3", "lookahead and optimal methods"]),
    "greedy --checkpoint": (["generate", *GAME, "--checkpoint", "c.ckpt", "-o", "o.txt"],
                            ["--checkpoint c.ckpt"]),
    "greedy --seed": (["generate", *GAME, "--seed", "4", "-o", "o.txt"], ["--seed 4", "random"]),
    "unknown method": (["generate", *GAME, "-m", "best", "-o", "o.txt"], ["'best' is not one of"]),
    # checkpoints that cannot be used
    "foreign checkpoint": (["generate", *GAME, "-m", "optimal", "--checkpoint", "foreign.ckpt",
                            "-o", "o.txt"], ["foreign.ckpt", "not a usable checkpoint"]),
    "binary checkpoint": (["generate", *GAME, "-m", "lookahead", "--checkpoint", "binary.ckpt",
                           "-o", "o.txt"], ["binary.ckpt", "not a usable checkpoint"]),
    "old checkpoint": (["generate", *GAME, "-m", "optimal", "--checkpoint", "old.ckpt", "-o",
                        "o.txt"],
                       ["old.ckpt", "another version"]),
    "other search's checkpoint": (["generate", *GAME, "-m", "optimal", "--checkpoint",
                                   "lookahead.ckpt", "-o", "o.txt"],
                                  ["lookahead.ckpt", "lookahead search", "optimal search"]),
    # play
    "play --hints": (["play", *GAME, "--hints"], ["--hints", "computer guesses"]),
    "you --rule": (["play", *GAME, "-b", "you", "--rule", "minimax"],
                   ["--rule minimax", "you guess"]),
    "you --strategy": (["play", "-b", "you", "--strategy", "s.txt"], ["--strategy s.txt"]),
    "you --adversary --seed": (["play", *GAME, "-b", "you", "--adversary", "--seed", "3"],
                               ["--seed 3", "--adversary"]),
    "unknown breaker": (["play", "-b", "nobody"], ["'nobody' is not one of 'computer'"]),
    "play --seed": (["play", *GAME, "--seed", "3"], ["--seed 3"]),
    "play --strategy --first": (["play", "--strategy", "s.txt", "--first", "AB"],
                                ["--first AB", "--strategy s.txt"]),
    "play --lenient": (["play", *GAME, "--lenient"], ["--lenient", "--strategy"]),
    # simulate
    "simulate --strategy --rule": (["simulate", "--strategy", "s.txt", "--rule", "minimax"],
                                   ["--rule minimax", "--strategy s.txt"]),
    "simulate --strategy --runs": (["simulate", "--strategy", "s.txt", "--runs", "3"],
                                   ["--runs 3"]),
    "simulate --seed": (["simulate", *GAME, "--seed", "3"], ["--seed 3"]),
    "adversary --games": (["simulate", *GAME, "--adversary", "--games", "5"],
                          ["--games 5", "--adversary"]),
    "adversary --csv": (["simulate", *GAME, "--adversary", "--csv", "a.csv"], ["--csv a.csv"]),
    "simulate --from": (["simulate", *GAME, "--from", "brace"], ["--from brace"]),
    "fraction and games": (["simulate", *GAME, "--fraction", "0.5", "--games", "3"], ["fraction"]),
    # outputs, formats
    "show --force": (["show", "s.txt", "--force"], ["--force"]),
    "stats --force": (["stats", "s.txt", "--force"], ["--force"]),
    "simulate --force": (["simulate", *GAME, "--force"], ["--force"]),
    "convert --force": (["convert", "s.txt", "--force"], ["--force"]),
    "bound --total --depth 1 --workers": (["bound", "--total", *GAME, "--depth", "1",
                                           "--workers", "2"],
                                          ["--workers 2 has no effect at --depth 1"]),
    "an empty pool": (["generate", *GAME, "--pool", "", "-o", "o.txt"], ["unknown pool ''"]),
    "convert -o - --force": (["convert", "s.txt", "-o", "-", "--force"],
                             ["--force", "a stream is written into"]),
    "convert --pegs": (["convert", "s.txt", "-p", "4"], ["--pegs 4", "brace"]),
    "format --lenient --from json": (["format", "s.txt", "--lenient", "--from", "json", "-o",
                                      "f.txt"],
                                     ["--lenient", "json"]),
    "format over its input": (["format", "s.txt", "-o", "s.txt", "--force"], ["same file"]),
    "format strict": (["format", "messy.txt", "-o", "f.txt"], ["messy.txt:1:", "--lenient"]),
    "show --secret --depth": (["show", "s.txt", "--secret", "AB", "--depth", "1"], ["--secret"]),
    "unknown game": (["verify", "s.txt", "--game", "chess"], ["'chess' is not one of"]),
    "missing file": (["verify", "missing.txt"], ["missing.txt"]),
    "--secret into a drawing": (["show", "s.txt", "--secret", "CA", "-o", "s.svg"],
                                ["--secret CA", "--output s.svg asks for a drawing"]),
    "a reply no game gives": (["show", "s.txt", "--path", "AB 11"],
                              ["no guess of MM(2,3) gets reply 11"]),
    "--adversary --seed": (["simulate", *GAME, "--adversary", "--seed", "3"],
                           ["--seed 3", "a sample:N pool)"]),
    "the standard input twice": (["verify", "-", "-"], ["given twice"]),
    "--workers beyond the cores": (["bound", *GAME, "--workers", "10000"],
                                   ["--workers 10000", "at most", "a core"]),
    "--games beyond the memory": (["simulate", *GAME, "--games", "10" * 10, "--seed", "1"],
                                  ["games take about", "GiB of memory"]),
    "play --strategy -": (["play", "--strategy", "-"], ["--strategy -", "your replies"]),
    "guesses of two lengths": (["format", "mixed.txt", "-o", "f2.txt"],
                               ["mixed.txt:1:9:", "guess CCC has 3 pegs"]),
    "a JSON reply twice": (["convert", "twice.json"], ["twice.json:1:47:", "written twice"]),
    "a first guess of 10 pegs": (["verify", "ten.txt"],
                                 ["ten.txt: its first guess has 10 pegs", "1 to 9"]),
    # a second output into the standard output, where the report goes
    "csv to /dev/stdout": (["simulate", *GAME, "--csv", "/dev/stdout", "--json"],
                           ["/dev/stdout is the standard output"]),
    "plot to /dev/stdout": (["stats", "s.txt", "--plot", "/dev/stdout"],
                            ["/dev/stdout is the standard output"]),
    "improve to /dev/stdout": (["improve", "s.txt", "-o", "/dev/stdout"],
                               ["/dev/stdout is the standard output"]),
    # an empty path names no file (not the current folder)
    "empty file": (["verify", ""], ["'files'", "is empty"]),
    "empty output": (["generate", *GAME, "-o", ""], ["--output", "is empty"]),
    "empty plot": (["stats", "s.txt", "--plot", ""], ["--plot", "is empty"]),
    "empty checkpoint": (["generate", *GAME, "-m", "optimal", "-o", "o.txt", "--checkpoint", ""],
                         ["--checkpoint", "is empty"]),
    "empty strategy": (["simulate", "--strategy", ""], ["--strategy", "is empty"]),
    # the command line's own usage errors
    "missing option": (["generate", *GAME], ["missing option", "--output", "--help"]),
    "missing argument": (["verify"], ["missing argument"]),
    "bad number": (["generate", "--pegs", "x", "-o", "o.txt"], ["--pegs", "'x'"]),
    "out of range": (["generate", "--pegs", "0", "-o", "o.txt"], ["--pegs", "0"]),
    "unknown option": (["generate", "--nope", "-o", "o.txt"], ["no such option", "--nope"]),
    "unknown command": (["frobnicate"], ["no such command", "frobnicate"]),
}

#: the same kinds of options where they apply: accepted (exit 0)
ACCEPTED: dict[str, list[str]] = {
    "greedy --pool --first": ["generate", *GAME, "--pool", "consistent", "--first", "AB", "-o",
                              "g.txt"],
    "greedy --seed with random": ["generate", *GAME, "-r", "random", "--seed", "3", "-o", "r.txt"],
    "lookahead --widths --also": ["generate", *GAME, "-m", "lookahead", "-w", "2,2", "--also",
                                  "parts", "-o", "l.txt"],
    "optimal --max-guesses": ["generate", *GAME, "-m", "optimal", "-k", "3", "-o", "x.txt"],
    "optimal --max-guesses beyond any depth": ["generate", *GAME, "-m", "optimal", "-k",
                                               "1" + "0" * 20, "-o", "k.txt"],
    "improve --max-guesses beyond any depth": ["improve", "s.txt", "-k", "1" + "0" * 20,
                                               "-o", "i.txt"],
    "simulate --strategy --games --seed": ["simulate", "--strategy", "s.txt", "--games", "5",
                                           "--seed", "2"],
    "simulate --runs with random": ["simulate", *GAME, "-r", "random", "--runs", "2"],
    "simulate --adversary --rule": ["simulate", *GAME, "--adversary", "--rule", "minimax"],
    "convert --lenient": ["convert", "messy.txt", "--lenient"],
}


def _files(folder: Path) -> None:
    (folder / "s.txt").write_text(EXAMPLE + "\n")
    (folder / "messy.txt").write_text(
        "{ AB:{10:{ac:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}\n")
    (folder / "foreign.ckpt").write_text('{"decisions": {}}\n')
    (folder / "ten.txt").write_text("ABCDEFGHIJ\n")
    (folder / "mixed.txt").write_text("{AB:{00:CCC}}\n")
    (folder / "twice.json").write_text(
        '{"guess":"AB","branches":{"10":{"guess":"AC"},"10":{"guess":"BB"}}}\n')
    (folder / "binary.ckpt").write_bytes(bytes(range(256)))
    (folder / "old.ckpt").write_text(json.dumps({"format": FORMAT, "version": 0}) + "\n")
    header = {"format": FORMAT, "version": 3, "search": "lookahead"}
    (folder / "lookahead.ckpt").write_text(json.dumps(header) + "\n")


@pytest.fixture(scope="module")
def runs(tmp_path_factory, console_script) -> dict[str, subprocess.CompletedProcess]:
    """Every case of :data:`ERRORS` run once, a few side by side (each a whole
    process, refused before any work: most of the time is Python starting)."""
    folder = tmp_path_factory.mktemp("contract")
    _files(folder)

    def run(args: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run([*console_script, *args], capture_output=True, text=True,
                              cwd=folder, stdin=subprocess.DEVNULL, timeout=300)

    with ThreadPoolExecutor(4) as pool:
        return dict(zip(ERRORS, pool.map(run, (args for args, _ in ERRORS.values()))))


@pytest.mark.parametrize("case", ERRORS, ids=str)
def test_an_argument_error_is_one_line_and_exit_2(runs, case: str) -> None:
    done = runs[case]
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    for word in ERRORS[case][1]:
        assert word in lines[0], lines[0]
    assert "╭" not in done.stderr and "Usage:" not in done.stderr


@pytest.mark.parametrize("case", ACCEPTED, ids=str)
def test_the_same_options_where_they_apply_are_accepted(tmp_path, monkeypatch, case: str) -> None:
    _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = invoke(ACCEPTED[case])
    assert result.exit_code == 0, result.output
    assert "error" not in result.output


def test_completion_is_on(console_script, tmp_path) -> None:
    shown = subprocess.run([*console_script, "--help"], capture_output=True, text=True, timeout=120)
    assert "--install-completion" in shown.stdout and "--show-completion" in shown.stdout
    # the shell named, not detected from the parent process (which need not be a shell):
    # typer's own switch for that
    named = dict(os.environ, _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    script = subprocess.run([*console_script, "--show-completion", "bash"], capture_output=True,
                            text=True, timeout=120, env=named)
    assert script.returncode == 0 and "_strategytree_completion" in script.stdout
    completed = subprocess.run(
        console_script, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "_STRATEGYTREE_COMPLETE": "complete_bash",
             "COMP_WORDS": "strategytree form", "COMP_CWORD": "1"},
    )
    assert completed.stdout.split() == ["format"]


def test_format_writes_the_normalised_file(tmp_path) -> None:
    _files(tmp_path)
    out = tmp_path / "fixed.txt"
    result = invoke(["format", str(tmp_path / "messy.txt"), "--lenient", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == EXAMPLE + "\n"
    assert "lower-case guess 'ac' read as 'AC'" in result.output and "1 repair)" in result.output
    again = invoke(["format", str(out), "--indent", "2", "-o", "-"])
    assert again.exit_code == 0 and again.output.startswith("{AB:{\n  10:{AC:{\n")
    assert "".join(again.output.split()) == EXAMPLE


def test_counts_agree_with_their_nouns(tmp_path) -> None:
    (tmp_path / "s.txt").write_text(EXAMPLE + "\n")
    one = invoke(["show", str(tmp_path / "s.txt"), "--secret", "AB"])
    assert "solved in 1 guess" in one.output and "1 guesses" not in one.output
    two = invoke(["show", str(tmp_path / "s.txt"), "--secret", "BA"])
    assert "solved in 2 guesses" in two.output
    bound = invoke(["bound", "-p", "1", "-c", "1"])
    assert "1 guess solves every secret" in bound.output
    total = invoke(["bound", "--total", "-p", "1", "-c", "1"])
    assert "at least 1 guess in total" in total.output and "1 guesses" not in total.output
    total = invoke(["bound", "--total", "-p", "2", "-c", "3"])
    assert "after 1 set bounded" in total.output and "1 sets" not in total.output
    within = invoke(["generate", "-p", "2", "-c", "3", "-m", "optimal", "-k", "1", "-o",
                     str(tmp_path / "o.txt")])
    assert "within 1 guess" in within.stderr and "1 guesses" not in within.stderr
    dot = invoke(["show", str(tmp_path / "s.txt"), "--format", "dot", "--depth", "1"])
    assert '"... 1 more node"' in dot.output and "1 more nodes" not in dot.output
    assert [plural(n, "guess") for n in (0, 1, 2)] == ["0 guesses", "1 guess", "2 guesses"]


@pytest.mark.parametrize(
    "rule, pool",
    [("entropy", "all"), ("minimax", "consistent"), ("random", "all"), ("entropy", "sample:5")]
)
def test_a_seed_matters_exactly_where_something_is_drawn_at_random(rule: str, pool: str) -> None:
    """What makes ``--seed`` refused is true: trees built with other seeds differ
    exactly when :func:`draws_at_random` says so."""
    game = st.mastermind(3, 4)
    trees = {st.dumps(build_greedy(game, rule=rule, pool=pool, seed=seed)) for seed in range(4)}
    assert (len(trees) > 1) == draws_at_random(rule, pool)


def test_the_library_refuses_what_the_command_line_refuses() -> None:
    with pytest.raises(ArgumentError, match="pool='all' needs method='greedy'"):
        generate(st.mastermind(2, 3), "lookahead", pool="all")
    with pytest.raises(ArgumentError, match="seed=1 has no effect"):
        generate(st.mastermind(2, 3), "greedy", rule="minimax", seed=1)
    assert generate(st.mastermind(2, 3), "greedy", rule="random", seed=1).count_nodes() > 0
    with pytest.raises(ArgumentError, match="hints=True has no effect when the computer guesses"):
        check_play(hints=True)
    with pytest.raises(ArgumentError, match="games=5 has no effect against adversary=True"):
        check_simulate(adversary=True, games=5)
    check_simulate(strategy="s.txt", games=5, seed=2, runs=3)  # the secrets are drawn: all apply


def _option_helps() -> list[tuple[str, str]]:
    """Every (command, option help) of the app whose text holds square brackets."""
    import typer.main

    group = typer.main.get_command(st.cli.app)
    return [(name, param.help) for name, command in group.commands.items()
            for param in command.params if "[" in (getattr(param, "help", None) or "")]


@pytest.mark.parametrize("command, text", _option_helps())
def test_bracketed_help_text_is_shown_not_swallowed_as_markup(command: str, text: str) -> None:
    wide = runner.invoke(st.cli.app, [command, "--help"], env={"COLUMNS": "400"})
    squeezed = "".join(wide.output.replace("│", "").split())
    bracketed = "".join(text.replace("\\[", "[").split())
    assert bracketed[bracketed.index("["):] in squeezed
