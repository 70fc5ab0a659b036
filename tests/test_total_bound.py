"""The proven lower bound on the least total (:mod:`strategytree.bounds.total`, ``bound --total``).

Checked against the published figures of the issue (counting and one-level
bounds of MM(4,6) and MM(5,8)), the published optima (never exceeded), a plain
Python twin of the depth-``d`` bound (never above ours), and the exact optimum
of a slow twin (reached when the depth is unlimited).
"""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest

from strategytree.bounds.sets import SCAN_FROM, SetBounder, parts_of
from strategytree.bounds.total import set_lower_bound, total_lower_bound
from strategytree.counting import counting_bound
from strategytree.game import black_only, distinct, mastermind
from strategytree.literature import published
from strategytree.presets import bulls_and_cows
from strategytree.progress import Progress
from strategytree.runner import Interrupted

import naive
import naive_search
from cli_runner import invoke

SMALL = [mastermind(2, 3), mastermind(2, 4), mastermind(3, 3), black_only(3, 3),
         distinct(3, 4), distinct(3, 5, distinct_guesses=True)]


def twin_bound(game, depth: int, exact_below: int = 0) -> int:
    """The depth-``depth`` bound straight from its definition: every guess, no
    symmetry, the counting bound (of the game's most parts) below; a set of at
    most ``exact_below`` secrets met below the root at depth 2 or more costs its
    optimum (every guess that makes progress, tried in turn)."""
    replies = [[int(r) for r in game.feedback(g, game.secrets)] for g in game.guesses]
    win = int(game.win)
    b = len(game.possible_replies) - (win in game.possible_replies)

    def split(row, S):
        parts: dict = {}
        for s in S:
            parts.setdefault(row[s], set()).add(s)
        return [frozenset(p) for r, p in parts.items() if r != win]

    @cache
    def optimum(S: frozenset[int]) -> int:
        n = len(S)
        if n <= 1:
            return n
        costs = [n + sum(optimum(p) for p in parts) for row in replies
                 if len(parts := split(row, S)) != 1 or len(parts[0]) < n]
        return min(costs)

    @cache
    def bound(S: frozenset[int], d: int) -> int:
        n = len(S)
        if n <= 2 or d == 0:
            return naive_search.lower_bound(n, b) if n else 0
        if d >= 2 and n <= exact_below and n < len(replies[0]):
            return optimum(S)
        best = None
        for row in replies:
            parts: dict = {}
            for s in S:
                parts.setdefault(row[s], set()).add(s)
            total = n + sum(bound(frozenset(p), d - 1) for r, p in parts.items() if r != win)
            best = total if best is None else min(best, total)
        return best

    return bound(frozenset(range(len(game.secrets))), depth)


def optimum(game) -> int | None:
    """The least total, by the exact search (itself checked against a plain twin)."""
    from strategytree.search import SearchError, build_optimal
    from strategytree.verify import verify

    try:
        return verify(build_optimal(game), game).total
    except SearchError:
        return None


# -- published figures -----------------------------------------------------------------------
def test_counting_bound_figures() -> None:
    assert counting_bound(mastermind(4, 6)) == 4986
    assert counting_bound(mastermind(5, 8)) == 156198
    assert total_lower_bound(mastermind(5, 8), depth=0).bound == 156198


def test_one_level_figures() -> None:
    assert total_lower_bound(mastermind(4, 6), depth=1).bound == 5196
    result = total_lower_bound(mastermind(5, 8), depth=1)
    assert (result.bound, result.depth, result.method, result.complete) == (
        158315, 1, "one level", True)


# -- against twins ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", SMALL, ids=[g.name for g in SMALL])
def test_between_the_twin_and_the_optimum(game) -> None:
    best = optimum(game)
    ours = [total_lower_bound(game, depth=d).bound for d in range(4)]
    assert ours == sorted(ours) and ours[-1] <= best
    for d in range(3):
        twin = twin_bound(game, d)
        assert twin <= ours[d] <= best, (d, twin, ours[d])
        if d <= 1:
            assert ours[d] == twin  # no refinement of the branching at depths 0 and 1
    # deep enough, the bound is the optimum itself, with or without symmetry
    assert total_lower_bound(game, depth=8).bound == best
    assert total_lower_bound(game, depth=8, symmetry=False).bound == best


@pytest.mark.parametrize("seed", range(3))
def test_games_without_symmetry(seed: int) -> None:
    game = naive.subset_game(np.random.default_rng(seed), 3, 4, 30)
    best = naive_search.optimal_total(game)
    for d in (1, 2, 6):
        ours = total_lower_bound(game, depth=d).bound
        if d <= 2:
            assert twin_bound(game, d) <= ours
        if best is not None:
            assert ours <= best


def test_a_set_alone() -> None:
    game = mastermind(3, 3)
    everything = np.arange(len(game.secrets))
    assert set_lower_bound(game, everything, 2) == total_lower_bound(game, depth=2).bound
    # a part after a first guess: at most its cost in the optimal strategy's total
    first = game.parse_code("AAB")
    part = np.flatnonzero(game.feedback(first, game.secrets) == game.reply_code((0, 0)))
    assert set_lower_bound(game, part, 4, played=[first]) == set_lower_bound(
        game, part, 4, symmetry=False)


@pytest.mark.parametrize("game", [mastermind(4, 6), distinct(4, 7), black_only(4, 5)],
                         ids=["mm46", "distinct47", "black-only45"])
def test_the_one_level_bound_of_a_set_against_its_twin(game) -> None:
    """:meth:`SetBounder.one_level` (the replies scanned as bits; a guess's parts
    counted only where ``L`` is not ``2k - 1``) against the definition: the least
    over every guess of ``n + sum L(k)``, ``L`` for the most parts any guess makes
    (sets of 12 or more) or for the parent's most parts (smaller sets, as before)."""
    bounder = SetBounder(game, symmetry=False)
    fb = bounder.fb
    rng = np.random.default_rng(7)
    for n in [3, 5, 8, 11, 12, 17, 30, 60, 200]:
        for _ in range(4):
            S = np.sort(rng.choice(len(game.secrets), n, replace=False)).astype(np.int32)
            sizes = [np.bincount(fb[g, S], minlength=game.n_replies) for g in range(len(fb))]
            most = bounder.most
            if n >= SCAN_FROM:
                most = min(most, max(int(np.count_nonzero(np.delete(k, game.win))) for k in sizes))
            lbt = bounder.lbtab[most]
            twin = min(n + sum(int(lbt[k]) for r, k in enumerate(row) if k and r != game.win)
                       for row in sizes)
            twin = max(twin, int(lbt[n]))
            assert max(bounder.one_level(S, bounder.every_guess, bounder.most, 0),
                       int(lbt[n])) == twin, (n, S)


def test_parts_against_their_definition() -> None:
    """:func:`parts_of` (a compiled lay-out) against grouping by reply in Python:
    the win left out, largest first, the lower reply first between equals, each
    part in the order of the set."""
    rng = np.random.default_rng(3)
    for n in [0, 1, 5, 40, 300]:
        for _ in range(5):
            row = rng.integers(0, 7, n)
            S = np.sort(rng.choice(1000, n, replace=False)).astype(np.int32)
            win = int(rng.integers(0, 7))
            groups: dict = {}
            for r, s in zip(row.tolist(), S.tolist()):
                groups.setdefault(r, []).append(s)
            twin = sorted((r, g) for r, g in groups.items() if r != win)
            twin = [g for _, g in sorted(twin, key=lambda rg: -len(rg[1]))]
            ours = parts_of(row, S, win)
            assert [p.tolist() for p in ours] == twin
            assert all(p.dtype == S.dtype for p in ours)


@pytest.mark.parametrize("game", SMALL, ids=[g.name for g in SMALL])
@pytest.mark.parametrize("exact_below", [4, 30])
def test_exact_below_between_the_twin_and_the_optimum(game, exact_below: int) -> None:
    """Sets of at most ``exact_below`` secrets bounded by their exact optimum: at
    least the twin of that definition and the plain bound, never above the optimum."""
    best = optimum(game)
    for d in (2, 3):
        ours = total_lower_bound(game, depth=d, exact_below=exact_below).bound
        plain = total_lower_bound(game, depth=d).bound
        twin = twin_bound(game, d, exact_below)
        assert plain <= ours <= best and twin <= ours, (d, plain, twin, ours, best)
        if d == 2:  # below the root, every part is bounded at depth 1: no exact search
            assert ours == plain
    assert total_lower_bound(game, depth=8, exact_below=exact_below).bound == best
    some = np.arange(0, len(game.secrets), 3)  # a set no symmetry keeps: none used
    ours = set_lower_bound(game, some, 3, symmetry=False, exact_below=exact_below)
    assert set_lower_bound(game, some, 3, symmetry=False) <= ours
    whole = set_lower_bound(game, some, 2, symmetry=False, exact_below=len(some))  # its optimum
    assert ours <= whole == set_lower_bound(game, some, 8, symmetry=False)


@pytest.mark.parametrize("game", SMALL, ids=[g.name for g in SMALL])
def test_exact_parts_bound_the_first_guess_s_parts_by_their_optimum(game) -> None:
    """``exact_parts`` above every part: each first guess is bounded by its parts'
    optima at depth 2 already, and the least over them is the optimum; a smaller one
    lies between the plain bound and the optimum, at depths 2 and 3."""
    best, n = optimum(game), len(game.secrets)
    whole = total_lower_bound(game, depth=2, exact_parts=n)
    assert whole.complete and whole.bound == best
    assert total_lower_bound(game, depth=2).bound <= best
    for d in (2, 3):
        plain = total_lower_bound(game, depth=d).bound
        ours = total_lower_bound(game, depth=d, exact_parts=30).bound
        assert plain <= ours <= best, (d, plain, ours, best)
    from strategytree.errors import ArgumentError

    with pytest.raises(ArgumentError, match="exact_parts"):
        total_lower_bound(game, depth=2, exact_parts=-1)


def test_a_set_asked_again_is_searched_without_a_limit() -> None:
    """A set whose exact search fell short of its limit, asked again with a limit
    just above what it proved, gets its optimum (complete at every depth) rather
    than a second search that falls short again (``sets.AGAIN_UNLIMITED``)."""
    from strategytree.bounds.sets import EXACT, ExactSets, SetBounder
    from strategytree.symmetry import Symmetry

    game = mastermind(3, 4)
    S = np.arange(len(game.secrets), dtype=np.int32)
    best = optimum(game)
    bounder = SetBounder(game, exact=ExactSets(len(S)))
    sym = Symmetry.of(game, True)
    first = bounder.bound(S, 2, best - 10, sym)
    assert best - 10 <= first[0] < best and first[1] == 0
    assert bounder.bound(S, 2, first[0] + 1, sym) == (best, EXACT)
    assert bounder.solved_sets == 2


def test_a_freed_worker_goes_to_the_first_guess_of_least_bound(monkeypatch) -> None:
    """Runs wait for a worker ranked by their first guess's bound at that moment (so
    the guesses that follow the leading one wait behind it only while above it):
    with runs that yield to the event loop two side by side, as a cluster's do, each
    run's rank is its guess's bound, and the bound is the plain root's."""
    import asyncio

    from strategytree.bounds import root as roots

    monkeypatch.setattr(roots, "PART_MIN", 1)  # (many runs of the leading guess queued)
    game = mastermind(4, 6)
    guesses = roots.RootGuesses(game, True)

    class SideBySide(roots.RootInProcess):
        IN_PROCESS = 2
        ranked: dict = {}
        waited = 0

        async def acquire(self, priority):
            self.ranked[asyncio.current_task()] = priority
            await super().acquire(priority)

        async def run(self, i, batch, d, lead, nxt, share=None):
            assert self.ranked[asyncio.current_task()]() == self.bounds()[i]
            self.waited = max(self.waited, len(self.slots.waiting))
            await asyncio.sleep(0)
            return await super().run(i, batch, d, lead, nxt, share)

    plain, ranked = roots.RootInProcess(game, True, guesses), SideBySide(game, True, guesses)
    for root in (plain, ranked):
        root.deepen(3, [1])
    assert ranked.root == plain.root == total_lower_bound(game, depth=3).bound
    assert ranked.waited > 1


FULL = [mastermind(3, c) for c in range(3, 9)] + [mastermind(4, c) for c in (4, 5, 6)]


@pytest.mark.parametrize("game", FULL, ids=[g.name for g in FULL])
def test_the_full_depth_bound_is_the_optimum(game) -> None:
    """Deep enough (as deep as the optimal strategy), the bound is the least
    total the exact search finds, with or without sets searched exactly."""
    best = optimum(game)
    plain = total_lower_bound(game, depth=8)
    assert plain.complete and plain.bound == best
    exact = total_lower_bound(game, depth=8, exact_below=len(game.secrets))
    assert exact.complete and exact.bound == best and exact.sets < plain.sets
    assert total_lower_bound(game, depth=3, exact_below=200).bound <= best


def test_bad_exact_below() -> None:
    from strategytree.errors import ArgumentError

    for bad in (-1, 1.5, True):
        with pytest.raises(ArgumentError, match="exact_below"):
            total_lower_bound(mastermind(2, 3), depth=3, exact_below=bad)


# -- published optima are never exceeded -----------------------------------------------------
def test_mm46_below_the_optimum() -> None:
    result = total_lower_bound(mastermind(4, 6), depth=3)
    assert result.complete and 5400 < result.bound <= published("MM(4,6)", "optimal").low


def test_bulls_and_cows_below_the_optimum() -> None:
    result = total_lower_bound(bulls_and_cows(), depth=2)
    assert result.complete and result.bound <= published("bulls-and-cows", "optimal").low


@pytest.mark.slow
@pytest.mark.parametrize("name, game, depth", [
    ("MM(4,6)", mastermind(4, 6), 4),
    ("MM(4,7)", mastermind(4, 7), 3),
    ("bulls-and-cows", bulls_and_cows(), 3),
])
def test_deeper_below_the_optimum(name, game, depth) -> None:
    result = total_lower_bound(game, depth=depth, seconds=600)
    assert result.bound <= published(name, "optimal").low


# -- stopping --------------------------------------------------------------------------------
def test_a_time_limit_leaves_a_valid_bound() -> None:
    game = mastermind(4, 6)
    result = total_lower_bound(game, depth=6, seconds=0.5)
    assert not result.complete and result.depth < 6
    assert 5196 <= result.bound <= 5625


def test_ctrl_c_leaves_a_valid_bound() -> None:
    seen: list[Progress] = []

    def interrupt(progress: Progress) -> None:
        seen.append(progress)
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stopped:
        total_lower_bound(mastermind(4, 6), depth=6, progress=interrupt)
    result = stopped.value.result
    assert isinstance(stopped.value, KeyboardInterrupt)
    assert not result.complete and 5196 <= result.bound <= 5625
    assert seen and seen[0].unit == "sets bounded"


def test_bad_depth() -> None:
    from strategytree.errors import ArgumentError

    with pytest.raises(ArgumentError, match="depth"):
        total_lower_bound(mastermind(2, 3), depth=-1)


# -- the command -----------------------------------------------------------------------------
def test_command_json() -> None:
    result = invoke(["bound", "--total", "--depth", "2", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert {"game", "bound", "depth", "method", "seconds", "complete"} <= set(answer)
    assert answer["game"] == "MM(4,6)" and answer["depth"] == 2 and answer["complete"]
    assert 5196 < answer["bound"] <= answer["optimum"] == 5625
    (level,) = answer["levels"]
    assert (level["depth"], level["bound"], level["sets"]) == (2, answer["bound"], answer["sets"])


def test_each_depth_done_is_reported() -> None:
    """A run reports each depth from 2 it finished: the bound then (rising to the
    run's), sets bounded and seconds so far (rising), CPU seconds; and prints a line
    for each."""
    game = mastermind(4, 6)
    result = total_lower_bound(game, depth=4)
    assert [level.depth for level in result.levels] == [2, 3, 4]
    for d, level in enumerate(result.levels, start=2):
        assert level.bound == total_lower_bound(game, depth=d).bound
    assert result.levels[-1].bound == result.bound == 5625
    for before, after in zip(result.levels, result.levels[1:]):
        assert before.sets <= after.sets and before.seconds <= after.seconds
        assert before.cpu_seconds <= after.cpu_seconds
    assert result.levels[-1].sets == result.sets and result.levels[-1].seconds <= result.seconds
    assert result.levels[-1].cpu_seconds > 0
    output = invoke(["bound", "--total", "--depth", "3"]).stdout
    assert "depth 2: 5,442 after" in output and "depth 3: 5,612 after" in output
    stopped = total_lower_bound(game, depth=6, seconds=0.5)
    assert [level.depth for level in stopped.levels] == list(range(2, stopped.depth + 1))


def test_command_text_names_the_optimum() -> None:
    result = invoke(["bound", "--total", "-d", "1", "-g", "bulls-and-cows"])
    assert result.exit_code == 0, result.output
    assert "at least" in result.stdout and "optimum 26,274" in result.stdout


def test_command_exact_below() -> None:
    """``--exact-below``: the bound at depth 3 with sets searched exactly, tight on MM(4,6)."""
    result = invoke(["bound", "--total", "--depth", "4", "--exact-below", "300", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["bound"] == answer["optimum"] == 5625 and answer["exact"]
    result = invoke(["bound", "--total", "--exact-below", "-3"])
    assert result.exit_code == 2 and "--exact-below" in result.output


def test_command_exact_parts() -> None:
    """``--exact-parts``: every part after the first guess at its optimum, MM(4,6)'s
    optimum at depth 2."""
    result = invoke(["bound", "--total", "--depth", "2", "--exact-parts", "1296", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["bound"] == 5625
    result = invoke(["bound", "--total", "--exact-parts", "-3"])
    assert result.exit_code == 2 and "--exact-parts" in result.output
    result = invoke(["bound", "--exact-parts", "30"])
    assert result.exit_code == 2 and "--total" in result.output


def test_command_bad_depth() -> None:
    result = invoke(["bound", "--total", "--depth", "99"])
    assert result.exit_code == 2 and "--depth 99" in result.output


# -- the figure kept in the literature table -------------------------------------------------
def test_the_proven_mm58_figure_is_plausible() -> None:
    from strategytree.literature import BOUNDS, THREE_LEVELS, best_known_lower_bound

    (mm58,) = [b for b in BOUNDS if b.game == "MM(5,8)" and b.method == THREE_LEVELS]
    # above the one-level bound, below every strategy known (the best greedy tree)
    assert 158315 < mm58.total < published("MM(5,8)", "entropy").low
    assert "bound --total" in mm58.source
    assert best_known_lower_bound(mastermind(5, 8)).total >= mm58.total  # (or a deeper one)


@pytest.mark.slow
def test_mm58_two_levels() -> None:
    result = total_lower_bound(mastermind(5, 8), depth=2)
    assert result.complete and 158315 < result.bound < published("MM(5,8)", "entropy").low


def test_sigterm_prints_the_bound_so_far(console_script: list[str]) -> None:
    import os
    import signal
    import subprocess

    env = dict(os.environ, STRATEGYTREE_PROGRESS_SECONDS="0", COLUMNS="200", NO_COLOR="1")
    run = subprocess.Popen([*console_script, "bound", "--total", "--depth", "8"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert "bounding" in run.stderr.readline() + run.stderr.readline()  # it is under way
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 143, err
    bound = int(out.split("at least ")[1].split()[0].replace(",", ""))
    assert 5196 <= bound <= 5625 and "stopped before depth 8" in out


def test_options_of_the_total_bound_are_refused_without_it() -> None:
    for extra in (["--depth", "2"], ["--seconds", "1"], ["--checkpoint", "x.ckpt"],
                  ["--exact-below", "50"]):
        result = invoke(["bound", "-p", "2", "-c", "3", *extra])
        assert result.exit_code == 2 and f"{extra[0]} " in result.output
        assert "no effect without --total" in result.output


# -- the checkpoint --------------------------------------------------------------------------
def test_a_checkpoint_keeps_the_first_guesses_parts(tmp_path) -> None:
    """A run stopped early keeps what it proved; a deeper run starts from it and
    bounds fewer sets than a fresh one, to the same bound."""
    game, saved = mastermind(4, 6), tmp_path / "bound.ckpt"
    first = total_lower_bound(game, depth=3, checkpoint=saved)
    fresh = total_lower_bound(game, depth=4)
    resumed = total_lower_bound(game, depth=4, checkpoint=saved)
    assert first.bound == total_lower_bound(game, depth=3).bound
    assert resumed.bound == fresh.bound == 5625 and resumed.complete
    assert resumed.sets < fresh.sets
    again = total_lower_bound(game, depth=4, checkpoint=saved)  # all kept: nothing to bound
    assert again.bound == 5625 and again.sets < resumed.sets


def test_the_sets_kept_inside_the_parts_resume_a_run(tmp_path) -> None:
    """The checkpoint keeps the large sets bounded inside the parts: each kept
    bound holds (never above the set's optimum, equal when marked exact), and a
    run that has only those sets (as one stopped in the middle of its parts) ends
    at the same bound as a fresh run, bounding fewer sets."""
    from strategytree.bounds.sets import EXACT, KEEP_FROM
    from strategytree.checkpoint import Checkpoint, CheckpointError, header, load

    game, saved, partial = mastermind(4, 6), tmp_path / "bound.ckpt", tmp_path / "sets.ckpt"
    named = header("total bound", game, symmetry=True)
    fresh = total_lower_bound(game, depth=4, checkpoint=saved)
    found = load(saved, named)
    sets, members = found["sets"], found["members"]
    assert len(sets) and (sets[:, 2] >= KEEP_FROM).all() and sets[:, 2].sum() == len(members)
    starts = np.concatenate([[0], np.cumsum(sets[:, 2])])
    for k in np.linspace(0, len(sets) - 1, 6).astype(int):
        S = members[starts[k]:starts[k + 1]]
        best = set_lower_bound(game, S, 2, symmetry=False, exact_below=len(S))  # its optimum
        assert sets[k, 3] <= best and (sets[k, 4] != EXACT or sets[k, 3] == best)
    Checkpoint(partial, named).rewrite({"parts": np.zeros((0, 4), dtype=np.int64),
                                        "sets": sets, "members": members})
    resumed = total_lower_bound(game, depth=4, checkpoint=partial)
    assert resumed.bound == fresh.bound == 5625 and resumed.complete
    assert resumed.sets < fresh.sets
    Checkpoint(partial, named).rewrite({"parts": np.zeros((0, 4), dtype=np.int64),
                                        "sets": sets, "members": members[1:]})
    with pytest.raises(CheckpointError, match="sets do not match"):
        total_lower_bound(game, depth=4, checkpoint=partial)


def test_a_resumed_checkpoint_keeps_each_set_once_with_its_best_bound(tmp_path) -> None:
    """A set learned again as its bound rises is appended again; a run resumed
    rewrites the file with each set once, its best bound and depth, and proves
    what the file with every row proves."""
    from strategytree.checkpoint import Checkpoint, header, load

    game, saved, doubled = mastermind(4, 6), tmp_path / "bound.ckpt", tmp_path / "twice.ckpt"
    named = header("total bound", game, symmetry=True)
    total_lower_bound(game, depth=3, checkpoint=saved)
    found = load(saved, named)
    sets, members = found["sets"], found["members"]
    assert len(sets) > 3
    lower = sets.copy()
    lower[:, 3] -= 1  # the same sets, learned before at a lower bound, and one deeper
    lower[0, 3], lower[0, 4] = sets[0, 3] - 5, sets[0, 4] + 1
    Checkpoint(doubled, named).rewrite({"parts": found["parts"],
                                        "sets": np.concatenate([lower, sets]),
                                        "members": np.concatenate([members, members])})
    best: dict = {}  # each set's best bound and depth, in the order first met
    starts = np.concatenate([[0], np.cumsum(sets[:, 2])])
    for k, row in enumerate(np.concatenate([lower, sets]).tolist()):
        S = tuple(members[starts[k % len(sets)]:starts[k % len(sets) + 1]].tolist())
        b, d = best.get((row[0], row[1], S), (0, -1))
        best[row[0], row[1], S] = (max(b, row[3]), max(d, row[4]))
    before = doubled.stat().st_size
    resumed = total_lower_bound(game, depth=3, checkpoint=doubled)
    kept = load(doubled, named)
    assert doubled.stat().st_size < before and len(best) < len(sets)
    rows, starts = kept["sets"], np.concatenate([[0], np.cumsum(kept["sets"][:, 2])])
    assert [(g, j, tuple(kept["members"][starts[k]:starts[k + 1]].tolist()))
            for k, (g, j) in enumerate(rows[:len(best), :2].tolist())] == list(best)
    assert [tuple(row) for row in rows[:len(best), 3:].tolist()] == list(best.values())
    assert resumed.bound == total_lower_bound(game, depth=3).bound


def test_a_run_stopped_on_time_goes_on_from_what_it_learned() -> None:
    """A run of a part's bound (a task on a cluster) stopped after its time gives
    the part incomplete, with the large sets it bounded; its bounder is ready for
    the next run (its stop cleared), and runs in turn reach the bound of one run."""
    from strategytree.bounds.root import RootGuesses, refine_parts
    from strategytree.bounds.sets import SetBounder
    from strategytree.search.bounds import INF

    game = mastermind(4, 6)
    guesses = RootGuesses(game, True)
    i = min(range(len(guesses.guesses)), key=lambda k: sum(s * s for s in guesses.sizes[k]))
    part = guesses.parts(i)[0]
    sym = guesses.sym.after(game.guesses[guesses.guesses[i]])
    bounder = SetBounder(game)
    most = bounder.most
    whole = refine_parts(SetBounder(game), sym, [part], 3, 0, INF, [0], most)[0]
    assert whole[1] >= 3
    stopped = refine_parts(bounder, sym, [part], 3, 0, INF, [0], most, seconds=0.0)[0]
    assert stopped[1] == -1 and stopped[0] < whole[0] and not bounder.stop.is_set()
    for _ in range(1000):
        found = refine_parts(bounder, sym, [part], 3, 0, INF, [0], most, seconds=0.01)[0]
        if found[1] >= 3:
            break
    assert found[:2] == whole[:2]
    assert len(whole[2].rows) and all(len(S) >= 40 for S, _, _ in whole[2].sets())


def test_an_exact_search_under_way_is_not_stopped_on_time() -> None:
    """A run's time runs out while the exact search of a set is under way: the
    search ends first (stopped, it would keep nothing for the next run)."""
    from strategytree.bounds.root import RootGuesses, refine_parts
    from strategytree.bounds.sets import EXACT, ExactSets, SetBounder
    from strategytree.search.bounds import INF

    game = mastermind(4, 7)
    guesses = RootGuesses(game, True)
    i = min(range(len(guesses.guesses)), key=lambda k: sum(s * s for s in guesses.sizes[k]))
    part = guesses.parts(i)[0]  # 582 secrets: searched exactly in about 2 s
    sym = guesses.sym.after(game.guesses[guesses.guesses[i]])
    bounder = SetBounder(game, exact=ExactSets(len(part)))
    found = refine_parts(bounder, sym, [part], 3, 0, INF, [0], bounder.most, seconds=0.5)[0]
    assert found[1] == EXACT and bounder.solved_sets == 1 and not bounder.stop.is_set()
    untimed = SetBounder(game, exact=ExactSets(len(part)))
    assert refine_parts(untimed, sym, [part], 3, 0, INF, [0], untimed.most)[0][:2] == found[:2]


def test_a_checkpoint_of_another_game_is_refused(tmp_path) -> None:
    from strategytree.checkpoint import CheckpointError

    saved = tmp_path / "bound.ckpt"
    total_lower_bound(mastermind(3, 3), depth=2, checkpoint=saved)
    with pytest.raises(CheckpointError, match="another search"):
        total_lower_bound(mastermind(3, 4), depth=2, checkpoint=saved)
    result = invoke(["bound", "--total", "-p", "3", "-c", "4", "--checkpoint", str(saved)])
    assert result.exit_code == 2 and "another search" in result.output


def test_sigterm_keeps_the_checkpoint(console_script: list[str], tmp_path) -> None:
    """Stopped by SIGTERM, the run saves what it proved and says where; a later
    run starts from it."""
    import os
    import signal
    import subprocess
    import time

    from strategytree.checkpoint import load

    saved = tmp_path / "bound.ckpt"
    env = dict(os.environ, STRATEGYTREE_PROGRESS_SECONDS="0", COLUMNS="200", NO_COLOR="1")
    args = [*console_script, "bound", "--total", "-p", "4", "-c", "7", "--depth", "8",
            "--checkpoint", str(saved)]
    run = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    header = {"search": "total bound", "game": "MM(4,7)", "scoring": "black-white",
              "codes": mastermind(4, 7).digest, "symmetry": True}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(0.2)
        found = load(saved, header) if saved.exists() else None
        if found is not None and len(found["parts"]) >= 10:
            break
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 143, err
    assert f"saved in {saved}" in err and "at least" in out
    kept = load(saved, header)["parts"]
    assert len(kept) >= 10
    again = total_lower_bound(mastermind(4, 7), depth=2, checkpoint=saved)  # deeper parts kept
    assert total_lower_bound(mastermind(4, 7), depth=2).bound <= again.bound <= 11228


@pytest.mark.parametrize("game", [mastermind(4, 6), mastermind(4, 7), bulls_and_cows()],
                         ids=lambda g: g.name)
def test_two_levels_is_the_least_over_the_first_guesses(game) -> None:
    """The root's answer at depth 2 is, by definition, the least over the first
    guesses of ``n`` plus each part's depth-1 bound, worked out here guess by
    guess with the same bounder."""
    from strategytree.bounds.root import RootGuesses
    from strategytree.bounds.sets import SetBounder
    from strategytree.counting import parts_by_replies
    from strategytree.search.bounds import INF

    root, bounder = RootGuesses(game, True), SetBounder(game, True)
    most = max(1, min(parts_by_replies(game), max(len(k) for k in root.sizes)))
    n = len(game.secrets)
    sums = []
    for i, g in enumerate(root.guesses):
        sym = root.sym.after(game.guesses[g])
        sums.append(n + sum(bounder.bound(p, 1, INF, sym, most=most)[0] for p in root.parts(i)))
    assert total_lower_bound(game, depth=2).bound == max(min(sums), root.one_level())


@pytest.mark.parametrize("game", [mastermind(4, 5), distinct(4, 6), black_only(4, 4)],
                         ids=lambda g: g.name)
def test_the_least_over_the_shares_of_a_set_is_its_bound(game) -> None:
    """A set bounded over shares of its guesses (by several workers): each share's
    bound at least the set's, the least of them the set's bound at that depth
    (complete), and no share's bound kept as the set's."""
    from strategytree.bounds.root import RootGuesses
    from strategytree.bounds.sets import SetBounder

    guesses = RootGuesses(game, True)
    i = min(range(len(guesses.guesses)), key=lambda k: sum(s * s for s in guesses.sizes[k]))
    sym = guesses.sym.after(game.guesses[guesses.guesses[i]])
    for part in guesses.parts(i)[:2]:
        for d in (2, 3):
            whole = SetBounder(game).bound(part, d, sym=sym)
            for k in (1, 2, 3):
                bounder = SetBounder(game)
                shares = [bounder.share(part, d, 1 << 40, sym, w, k) for w in range(k)]
                assert all(b >= whole[0] and reached == d for b, reached in shares)
                assert min(b for b, _ in shares) == whole[0]
                assert part.tobytes() not in bounder.known


def test_a_large_part_split_among_runs_gives_the_same_bound(monkeypatch) -> None:
    """The leading guess's large parts bounded by runs side by side over shares of
    the guesses (here two runs at a time, in turn in this process, each letting the
    others go first once, as tasks on a cluster; each run of a share stopped after
    a hundredth of a second, as a task on time): the bound of one run, at each
    depth.  Meanwhile the other first guesses follow the leading one: raised to
    its bound so far, again each time it rises."""
    import asyncio

    from strategytree.bounds import root
    from strategytree.bounds.sets import ExactSets, SetBounder
    from strategytree.bounds.total import root_bound

    monkeypatch.setattr(root, "SPLIT_FROM", 50)
    shared, challenged = [], []
    share, refine_parts = SetBounder.share, root.refine_parts
    challenge, run = root.RootBound.challenge, root.RootInProcess.run
    monkeypatch.setattr(SetBounder, "share",
                        lambda self, *a, **k: shared.append(a[4:6]) or share(self, *a, **k))
    monkeypatch.setattr(root, "refine_parts", lambda *a, share=None, **k: refine_parts(
        *a, share=share, **k) if share is None else refine_parts(*a, 0.01, share))
    monkeypatch.setattr(root.RootBound, "challenge", lambda self, i, d, goal: (
        challenged.append((id(self), d, i, self.settled)), challenge(self, i, d, goal))[1])

    async def later(self, *args, **kwargs):
        await asyncio.sleep(0)
        return await run(self, *args, **kwargs)

    monkeypatch.setattr(root.RootInProcess, "run", later)
    monkeypatch.setattr(root.RootBound, "IN_PROCESS", 2)
    game = mastermind(4, 6)
    said = []
    for depth, exact_below in [(3, 0), (8, 60)]:
        answers = []
        for shares in (1, 2, 3):
            runner = root_bound(game, True, None, ExactSets(exact_below))
            runner.shares, reached = shares, [1]
            runner.noted = lambda *_, runner=runner: said.append(runner.detail())
            runner.deepen(depth, reached)
            answers.append((runner.root, reached[0]))
            assert not runner.shared  # (every part split is whole again)
        assert answers == [answers[0]] * 3, answers
    assert answers[0][0] == 5625 and {(0, 2), (1, 2), (2, 3)} <= set(shared)
    assert any("secrets in 3 shares" in words for words in said)
    runner.shared = [1200, 7051]  # (two parts split at once: on a cluster of many workers)
    assert "(2 of 1,200 to 7,051 secrets in 3 shares each)" in runner.detail()
    early = [call[:3] for call in challenged if not call[3]]
    assert max(early.count(call) for call in early) >= 2


