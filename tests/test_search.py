"""Exact search: optimal totals against brute force and the literature, bounds, CLI."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import strategytree as st
from strategytree import search
from strategytree.checkpoint import CheckpointError
from strategytree.cli import app
from strategytree.feedback import table as reply_table
from strategytree.jit import njit
from strategytree.literature import published
from strategytree.search import cache, compiled, driver, problem
from strategytree.search.bounds import INF
from strategytree.symmetry import compiled as symmetry_loops

import naive
import naive_search

TINY = {
    "MM(2,3)": lambda: st.mastermind(2, 3),
    "MM(2,4)": lambda: st.mastermind(2, 4),
    "MM(3,2)": lambda: st.mastermind(3, 2),
    "MM(3,3)": lambda: st.mastermind(3, 3),
    "3 distinct of 4": lambda: st.distinct(3, 4),
    "3 distinct of 4, distinct guesses": lambda: st.distinct(3, 4, distinct_guesses=True),
}

runner = CliRunner()


def checked(tree: st.Strategy, game: st.Game) -> st.Report:
    report = st.verify(tree, game)
    assert report.valid, report
    return report


# -- the small kernels against their twins ---------------------------------------------
@pytest.mark.parametrize("branching", [1, 2, 3, 13])
def test_lower_bounds_match_the_naive_tree(branching: int) -> None:
    L, cap = search.lower_bounds(200, branching, 6)
    assert [int(x) for x in L] == [naive_search.lower_bound(n, branching) for n in range(201)]
    for d in range(1, 7):
        assert cap[d] == sum(branching**k for k in range(d))


@pytest.mark.parametrize(
    "history", [(), ((0, 0, 1),), ((0, 1, 2),), ((0, 1, 2), (1, 0, 3)), ((0, 0, 1), (2, 1, 1)),
                ((0, 1, 1), (2, 3, 4))]
)
def test_symmetry_kernels_match_every_permutation(history) -> None:
    """stabilizer and least_in_class (the compiled search's symmetry) against a
    brute force over all 3! x 5! permutations of positions and colours."""
    pegs, colors = 3, 5
    perms = np.array(list(itertools.permutations(range(pegs))), dtype=np.int64)
    taus = np.full((len(perms), colors), -1, dtype=np.int64)
    k = len(perms)
    played = set()
    for h in history:
        out_p, out_t = np.zeros_like(perms), np.full_like(taus, -1)
        k = symmetry_loops().stabilizer(perms, taus, k, np.array(h, dtype=np.int64), out_p, out_t)
        perms, taus = out_p, out_t
        played |= set(h)
    freec = np.array([c for c in range(colors) if c not in played] + [0] * len(played),
                     dtype=np.int64)
    label = np.full(colors, -1, dtype=np.int64)
    for code in naive.mm_codes(pegs, colors):
        row = np.array(code, dtype=np.int64)
        got = symmetry_loops().least_in_class(row, perms, taus, k, freec, label)
        assert got == naive_search.least_in_class(code, history, colors), (code, history)
        assert (label == -1).all()


def test_set_keys_tell_sets_apart() -> None:
    rng = np.random.default_rng(1)
    ids = np.arange(300, dtype=np.int64)
    seen = {}
    for _ in range(3000):
        S = np.unique(rng.integers(0, 300, size=rng.integers(1, 12))).astype(np.int32)
        key = compiled.cache_key(S, 0, ids)
        assert seen.setdefault(key, tuple(S)) == tuple(S)
    S = np.arange(5, dtype=np.int32)
    assert compiled.cache_key(S, 0, ids) != compiled.cache_key(S, 3, ids)


def test_a_part_keys_its_sets_by_the_whole_games_secrets() -> None:
    """The search of a part (secrets ``P`` of a game) keys a set of its own secrets
    as the whole game's search keys those secrets: their searches can share a cache."""
    game = st.mastermind(3, 4)
    whole = problem.Problem.of(game, None)
    P = np.flatnonzero(reply_table(game)[5] == 2).astype(np.int32)
    part = problem.Problem.of(game.part(P, "part"), None, whole=game, ids=P)
    rng = np.random.default_rng(3)
    for _ in range(50):
        local = np.unique(rng.integers(0, len(P), size=rng.integers(3, len(P)))).astype(np.int32)
        assert part.key(local, 4) == whole.key(P[local], 4)
    assert part.key(np.arange(3, dtype=np.int32), 4) != whole.key(np.arange(3, dtype=np.int32), 4)


@pytest.mark.parametrize("route", ["parts", "given", "given, cold rows, small cache"])
def test_the_searches_of_sets_share_a_cache_and_agree_with_fresh_ones(route: str,
                                                                     monkeypatch) -> None:
    """The exact searches of sets of a game too big for its own table share one
    cache: each set searched on its own (``parts``), or, the whole table given, each
    from the whole game's search (``given``; with its guesses' rows read from the
    table by secret, and its cache replaced when full). Each cost, under a limit or
    not, is the one a fresh search (its own table and cache) gives, also for a set
    asked again after others, answered from what they stored."""
    import threading

    from strategytree.search import subsets
    from strategytree.symmetry import Symmetry

    monkeypatch.setattr(subsets, "WHOLE_TABLE", 0)  # MM(4,4) as if too big for its table
    game = st.mastermind(4, 4)
    fb = reply_table(game)
    root = Symmetry.of(game, True)
    asked = []  # the parts after two guesses (ABCD or AABB, then AABC), as sets of
    for first in ("ABCD", "AABB"):  # the whole game
        g1, g2 = game.guess_index(np.array([game.parse_code(first), game.parse_code("AABC")]))
        sym = root.after(game.guesses[g1]).after(game.guesses[g2])
        played = sum(1 << c for c in np.flatnonzero(sym.played).tolist())
        for r1 in np.unique(fb[g1]):
            for r2 in np.unique(fb[g2]):
                S = np.flatnonzero((fb[g1] == r1) & (fb[g2] == r2)).astype(np.int32)
                if len(S) >= 3:
                    asked.append((S, sym, played))
    assert len(asked) > 20
    fresh = {}
    for S, sym, played in asked:
        fresh[S.tobytes()] = subsets.Exact(game, None, threading.Event()).cost(
            S, 0, sym, played, search.bounds.INF)
    if "cold" in route:
        monkeypatch.setattr(problem, "MAX_TRANSPOSED", 0)
        monkeypatch.setattr(subsets, "SHARED_ROWS", 20)
    shared = subsets.Exact(game, None, threading.Event(),
                           None if route == "parts" else (fb, np.ascontiguousarray(fb.T)))
    assert (shared.whole is None) == (route == "parts")
    caches = []  # (held: a cache let go may leave its id to the next)
    for S, sym, played in asked + asked[::-1]:
        best = fresh[S.tobytes()]
        for limit in (best - 1, best, search.bounds.INF):
            got = shared.cost(S, 0, sym, played, limit)
            assert got == best if best < limit else limit <= got <= best, (len(S), limit, got)
        cache = (shared.last or shared.whole.p).cache
        if not any(cache is seen for seen in caches):
            caches.append(cache)
    p = shared.last or shared.whole.p
    assert p.tables.cold_rows == ("cold" in route)
    if "cache" in route:
        assert len(caches) > 1  # replaced when it held more than SHARED_ROWS
    else:
        assert len(caches) == 1 and len(p.cache) > max(len(S) for S, _, _ in asked)


@pytest.mark.parametrize("mode", [0, 1])
def test_the_python_levels_split_sets_as_the_compiled_ones(mode: int) -> None:
    """split_table and Problem.parts (numpy) against candidate_bounds and
    lay_out_parts (compiled): the same bounds, parts and layout."""
    from strategytree.search.bounds import candidate_bounds, lay_out_parts, split_table

    rng = np.random.default_rng(5)
    for game in (st.mastermind(4, 4), st.distinct(3, 5)):
        p = problem.Problem.of(game, None, mode=mode)
        t = p.tables
        for size, d in ((len(game.secrets), 60), (40, 4), (7, 2), (3, 3)):
            S = np.sort(rng.choice(len(game.secrets), size, replace=False)).astype(np.int32)
            cands = np.arange(len(game.guesses), dtype=np.int64)
            want = np.empty((5, len(cands)), dtype=np.int64)
            candidate_bounds(S, cands, d, t.mode, t.fb, p.lbt, p.cap, t.win, t.n_replies, *want)
            got = split_table(S, cands, d, t.mode, t.fb, p.lbt, p.cap, t.win, t.n_replies)
            assert (got == want).all()
            for g in rng.choice(len(cands), 5):
                sizes = np.zeros(t.n_replies, dtype=np.int64)
                start, fill = np.empty((2, t.n_replies), dtype=np.int64)
                out = np.empty_like(S)
                lay_out_parts(t.fb[g], S, t.n_replies, sizes, start, fill, out)
                parts = p.parts(S, int(g))
                assert [r for r, _ in parts] == [
                    r for r in range(t.n_replies - 1, -1, -1) if sizes[r] and r != t.win]
                for r, part in parts:
                    assert part.dtype == S.dtype
                    assert part.tolist() == out[start[r] : start[r] + sizes[r]].tolist()


def test_feedback_table_matches_the_game() -> None:
    game = st.mastermind(3, 4)
    table = reply_table(game)
    for g in (0, 7, 33, 63):
        assert list(table[g]) == list(game.feedback(game.guesses[g], game.secrets))


# -- exact search against brute force ----------------------------------------------------
@pytest.mark.parametrize("name", list(TINY))
def test_optimal_total_matches_brute_force(name: str) -> None:
    game = TINY[name]()
    report = checked(search.build_optimal(game), game)
    assert report.total == naive_search.optimal_total(game)


@pytest.mark.parametrize("name", ["MM(2,4)", "MM(3,3)", "3 distinct of 4, distinct guesses"])
def test_optimal_within_a_maximum_matches_brute_force(name: str) -> None:
    game = TINY[name]()
    bound = naive_search.worst_case_bound(game)
    for k in (bound, bound + 1):
        report = checked(search.build_optimal(game, max_guesses=k), game)
        assert report.max_guesses <= k
        assert report.total == naive_search.optimal_total(game, k)
    with pytest.raises(search.SearchError, match="within"):
        search.build_optimal(game, max_guesses=bound - 1)


@pytest.mark.parametrize("name", list(TINY))
def test_the_all_guesses_scan_changes_nothing(name: str, monkeypatch) -> None:
    """The kernel scores the guesses from a transposed table when it has one;
    without it (a table too big to copy), guess by guess: the same strategy."""
    game = TINY[name]()
    fb = reply_table(game)
    assert (problem.transposed(fb, 0) == fb.T).all()
    assert problem.transposed(fb, 1).size == 0  # the feasibility search does not use it
    wide = search.build_optimal(game)
    monkeypatch.setattr(problem, "MAX_TRANSPOSED", 0)
    narrow = search.build_optimal(game)
    assert checked(wide, game).total == checked(narrow, game).total
    assert st.verify(wide, game).histogram == st.verify(narrow, game).histogram


@njit
def _scan(fbT, S, out):  # the kernel has no Python wrapper: called from compiled code
    compiled.scan(fbT, S, out)


@njit
def _unpruned(met, n, win, lim, keep_to, flags, kept):
    return compiled.unpruned(met, n, win, lim, keep_to, flags, kept)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 13])  # the scan takes four secrets at a time
def test_the_replies_scan_against_twin(n: int) -> None:
    rng = np.random.default_rng(n)
    fbT = rng.integers(0, 64, size=(20, 300)).astype(np.int8)
    S = rng.choice(20, n, replace=False).astype(np.int32)
    out = np.full(300, 7, dtype=np.uint64)
    _scan(fbT, S, out)
    twin = [sum({1 << int(fbT[s, g]) for s in S}) for g in range(300)]
    assert out.tolist() == twin


@pytest.mark.parametrize("seed", range(4))
def test_the_guesses_kept_by_their_replies_against_twin(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, win, m = 12, 9, 500
    met = rng.integers(0, 1 << 16, size=m, dtype=np.uint64) & rng.integers(0, 1 << 16, size=m,
                                                                               dtype=np.uint64)
    for lim, keep_to in [(30, -1), (25, 28), (33, 20), (40, -1), (0, -1)]:
        flags, kept = np.zeros(m + 4, np.uint8), np.full(m, -1, np.int64)
        count, fmin = _unpruned(met, n, win, lim, keep_to, flags, kept)
        bounds = [3 * n - bin(int(b)).count("1") - (int(b) >> win & 1) for b in met]
        keep = [g for g in range(m) if bounds[g] < lim or bounds[g] <= keep_to]
        assert kept[:count].tolist() == keep
        assert fmin == min([b for g, b in enumerate(bounds) if g not in keep], default=INF)
        assert 0 < len(keep) < m or lim in (0, 40)


@pytest.mark.parametrize("name", list(TINY))
def test_symmetry_changes_nothing_but_speed(name: str) -> None:
    game = TINY[name]()
    with_sym = checked(search.build_optimal(game), game).total
    without = checked(search.build_optimal(game, symmetry=False), game).total
    assert with_sym == without


@pytest.mark.parametrize("name", list(TINY))
def test_prove_bound_matches_brute_force(name: str) -> None:
    game = TINY[name]()
    assert search.prove_bound(game) == naive_search.worst_case_bound(game)


def test_a_game_of_one_secret() -> None:
    game = st.mastermind(1, 1)
    assert checked(search.build_optimal(game), game).total == 1
    assert search.prove_bound(game) == 1


def test_secrets_must_be_guesses() -> None:
    codes = st.game.all_codes(2, 3)
    game = st.Game(2, 3, codes, codes[:4])
    with pytest.raises(search.SearchError, match="allowed guess"):
        search.build_optimal(game)


# -- the literature ----------------------------------------------------------------------
def test_mm46_optimal_is_koyama_lai() -> None:
    game = st.mastermind(4, 6)
    report = checked(search.build_optimal(game), game)
    assert report.total == published("MM(4,6)", "optimal").low == 5625
    assert report.max_guesses == 6


def test_mm46_optimal_within_five() -> None:
    game = st.mastermind(4, 6)
    report = checked(search.build_optimal(game, max_guesses=5), game)
    assert report.total == published("MM(4,6)", "optimal-max-5").low == 5626
    assert report.max_guesses == 5


def test_four_distinct_of_six_optimal() -> None:
    game = st.distinct(4, 6, distinct_guesses=True)
    report = checked(search.build_optimal(game), game)
    assert report.total == published("4-distinct-of-6", "optimal").low == 1446


def test_mm46_bound_is_five() -> None:
    assert search.prove_bound(st.mastermind(4, 6)) == 5


def test_four_distinct_of_eight_optimal() -> None:
    game = st.distinct(4, 8, distinct_guesses=True)
    report = checked(search.build_optimal(game), game)
    assert report.total == published("4-distinct-of-8", "optimal").low == 7817


def test_mm47_optimal_is_ville() -> None:
    game = st.mastermind(4, 7)
    report = checked(search.build_optimal(game), game)
    assert report.total == published("MM(4,7)", "optimal").low == 11228


def test_bulls_and_cows_bound_is_seven() -> None:
    assert search.prove_bound(st.distinct(4, 10, distinct_guesses=True)) == 7


@pytest.mark.slow
def test_bulls_and_cows_optimal() -> None:
    """About a minute and a half here (two threads)."""
    game = st.distinct(4, 10, distinct_guesses=True)
    report = checked(search.build_optimal(game), game)
    assert report.total == published("bulls-and-cows", "optimal").low == 26274
    assert report.max_guesses == 7


# -- progress, interruption, checkpoints -----------------------------------------------
def test_progress_is_reported() -> None:
    seen: list[search.SearchProgress] = []
    search.build_optimal(st.mastermind(3, 3), progress=seen.append)
    assert seen and seen[-1].best == 73 and seen[-1].done > 0
    assert seen[-1].unit == "sets searched" and seen[-1].total is None
    assert "73" in str(seen[-1])


def test_a_big_search_shows_a_greedy_total_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the search finds its first whole strategy, a one-step one is shown."""
    from strategytree.builders import build_greedy

    game = st.mastermind(4, 6)
    greedy = st.verify(build_greedy(game, rule="expected"), game).total
    monkeypatch.setattr(driver, "GREEDY_FIRST", 1)
    shown = []
    real = driver.Search.node

    def node(self, S, d, limit, sym, played, level):
        if level == 0:
            shown.append(self.best)
        return real(self, S, d, limit, sym, played, level)

    monkeypatch.setattr(driver.Search, "node", node)
    seen: list[search.SearchProgress] = []
    search.build_optimal(game, progress=seen.append)
    assert shown == [greedy] and greedy > 5625
    assert seen[-1].best == 5625


def test_side_by_side_search_finds_the_same_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    """Big games solve the root's parts on two threads (own caches, merged)."""
    monkeypatch.setattr(driver, "PARALLEL_FIRST", 1)
    monkeypatch.setattr(driver, "THREADS", 2)
    monkeypatch.setattr(driver.os, "cpu_count", lambda: 2)
    used = []
    real = driver.Search.side_by_side

    def side_by_side(self, parts, d, sym, played):
        used.append(len(parts))
        return real(self, parts, d, sym, played)

    monkeypatch.setattr(driver.Search, "side_by_side", side_by_side)
    for game, best in ((st.mastermind(4, 6), 5625),
                       (st.distinct(4, 6, distinct_guesses=True), 1446)):
        assert checked(search.build_optimal(game), game).total == best
    assert len(used) == 2 and min(used) > 1


def test_a_side_by_side_search_stops_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(driver, "PARALLEL_FIRST", 1)
    monkeypatch.setattr(driver.os, "cpu_count", lambda: 2)

    def stop(_: search.SearchProgress) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search.build_optimal(st.mastermind(4, 6), progress=stop)
    # and the next search is not disturbed
    assert checked(search.build_optimal(st.mastermind(3, 3)), st.mastermind(3, 3)).total == 73


def test_interrupt_saves_a_checkpoint_that_resumes(tmp_path: Path) -> None:
    game = st.mastermind(3, 4)
    saved = tmp_path / "search.ckpt"

    def stop(_: search.SearchProgress) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search.build_optimal(game, progress=stop, checkpoint=saved)
    assert saved.exists()
    with open(saved, "rb") as head:  # a line of JSON (what was searched), then records
        header = json.loads(head.readline())
    assert header["format"] == "strategytree-checkpoint" and header["search"] == "optimal"
    assert not list(tmp_path.glob(".*.tmp"))  # written atomically
    resumed = checked(search.build_optimal(game, checkpoint=saved), game)
    fresh = checked(search.build_optimal(game), game)
    assert resumed.total == fresh.total


def test_a_checkpoint_of_another_game_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "search.ckpt"
    search.build_optimal(st.mastermind(3, 3), checkpoint=saved)
    with pytest.raises(CheckpointError, match="another search"):
        search.build_optimal(st.mastermind(3, 4), checkpoint=saved)
    whole = saved.read_bytes()
    for damaged, why in (
        (b"not json", "not a usable checkpoint"),
        (whole.replace(b'"little"', b'"big"', 1), "another search"),
    ):
        saved.write_bytes(damaged)
        with pytest.raises(st.StrategyTreeError, match=why):
            search.build_optimal(st.mastermind(3, 3), checkpoint=saved)
    # a record cut short (a run killed while saving) is left out: the search
    # resumes from the records before it
    saved.write_bytes(whole[:-8])
    assert checked(search.build_optimal(st.mastermind(3, 3), checkpoint=saved),
                   st.mastermind(3, 3)).total == 73


@pytest.mark.parametrize(("column", "value", "words"), [
    (3, 27, "has a guess not of 0 to 26"),
    (3, -5, "has a guess not of 0 to 26"),
    (3, -1, "is solved but has no guess"),
    (2, 1 << 50, "has a cost out of range"),
    (2, 1, "is solved for less than any set of its size costs"),
    (4, 2 * 28 + 1, "is of a set not of 1 to 27 secrets"),
    (0, -1, "has a key out of range"),
])
def test_a_checkpoint_row_out_of_range_is_refused_before_the_search(
        tmp_path: Path, column: int, value: int, words: str) -> None:
    """A row of the cache that no search writes (a guess, a cost, a size or a key
    out of range; a set solved with no guess, or for less than ``2n - 1``) is
    refused in one error, before the search starts, not met as a crash or a long
    search."""
    game = st.mastermind(3, 3)
    p = problem.Problem.of(game, None)
    p.solve(np.arange(len(game.secrets), dtype=np.int32), 60, INF, 0)
    rows = p.cache.rows(0)
    root = int(np.argmax(rows[:, 4]))  # the whole game's row: solved, with a guess
    rows[root, column] = value
    bad = problem.Problem.of(game, None)
    bad.cache.load(rows)
    header = driver.checkpoint_header(game, None, "optimal")
    driver.Saver(tmp_path / "c.ckpt", header).save(bad, whole=True)
    with pytest.raises(CheckpointError, match=f"damaged: a row of its cache .* {words}"):
        search.build_optimal(game, checkpoint=tmp_path / "c.ckpt")


def test_a_checkpoint_appends_only_new_rows(tmp_path: Path) -> None:
    """The first save writes the whole cache; later ones add a record of the rows
    new or changed since; loading joins them into the same cache."""
    from strategytree.checkpoint import load

    game = st.mastermind(3, 4)
    p = problem.Problem.of(game, None)
    header = driver.checkpoint_header(game, None, "optimal")
    saver = driver.Saver(tmp_path / "c.ckpt", header)
    S = np.arange(len(game.secrets), dtype=np.int32)
    p.solve(S[:40], 60, 1 << 40, 0)
    saver.save(p)
    first = len(load(tmp_path / "c.ckpt", header)["rows"])
    p.solve(S, 60, 1 << 40, 0)
    saver.save(p)
    saver.save(p)  # nothing new: nothing written
    rows = load(tmp_path / "c.ckpt", header)["rows"]
    whole = p.cache.rows(driver.CHECKPOINT_MIN_SET)
    assert 0 < first < len(whole) < first + len(whole)
    again = problem.Problem.of(game, None)
    again.cache.load(rows)
    assert sorted(map(tuple, again.cache.rows(0))) == sorted(map(tuple, whole))


def test_a_resumed_search_adds_to_its_checkpoint(tmp_path: Path) -> None:
    """A resumed run keeps the file it read and adds records after its complete
    ones (a record cut short is dropped first); what it then holds is a cache from
    which a third run writes the same tree."""
    game = st.mastermind(3, 4)
    saved = tmp_path / "search.ckpt"
    calls = [0]

    def stop_later(_: search.SearchProgress) -> None:
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search.build_optimal(game, progress=stop_later, checkpoint=saved)
    first = saved.read_bytes()
    saved.write_bytes(first + b'{"arrays": [{"name": "rows", "dtype": "<i8", "shape": [9, 5]}]}\n')
    resumed = search.build_optimal(game, checkpoint=saved)
    after = saved.read_bytes()
    assert after.startswith(first) and len(after) > len(first)  # added to, not rewritten
    again = search.build_optimal(game, checkpoint=saved)
    fresh = search.build_optimal(game)
    assert checked(resumed, game).total == checked(fresh, game).total
    assert again == fresh


def test_the_cache_says_which_rows_are_not_saved_yet() -> None:
    """Rows read from a checkpoint are saved; rows stored since, new or
    changed, and only they, are returned once, through a grow."""
    c = cache.Cache(capacity=2)
    c.load(np.array([[7, 70, 5, 2, 2 * 40 + 1], [9, 90, 11, -1, 2 * 3]]))
    c.mark_saved()
    assert c.unsaved(0).tolist() == []
    c.put(9, 90, 12, -1, 2 * 3)  # changed
    c.put(11, 110, 3, 1, 2 * 50 + 1)  # new: the cache grows
    assert c.capacity > 2
    assert c.unsaved(0).tolist() == [[9, 90, 12, -1, 6], [11, 110, 3, 1, 101]]
    assert c.unsaved(0).tolist() == []
    c.put(7, 70, 4, 2, 2 * 40 + 1)
    c.put(9, 90, 13, -1, 2 * 3)
    c.put(11, 110, 3, 1, 2 * 50 + 1)  # the same row again: nothing new
    assert c.unsaved(10).tolist() == [[7, 70, 4, 2, 81]]  # the small set is left out


def test_a_cache_too_small_grows_and_the_search_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled search pauses when its cache is nearly full and goes on, once
    it has grown, where it was: the same cost, sets searched and rows."""
    game = st.mastermind(3, 4)
    S = np.arange(len(game.secrets), dtype=np.int32)
    roomy = problem.Problem.of(game, None)
    cost = roomy.solve(S, 60, 1 << 40, 0)
    monkeypatch.setattr(cache, "CAPACITY", 2)
    small = problem.Problem.of(game, None)
    assert small.solve(S, 60, 1 << 40, 0) == cost
    assert small.stats[compiled.NODES] == roomy.stats[compiled.NODES]
    assert small.cache.capacity < roomy.cache.capacity
    assert (small.cache.rows(0) == roomy.cache.rows(0)).all()
    game = st.mastermind(4, 5)
    seen: list[search.SearchProgress] = []
    total = checked(search.build_optimal(game, progress=seen.append), game).total
    monkeypatch.undo()
    again: list[search.SearchProgress] = []
    assert checked(search.build_optimal(game, progress=again.append), game).total == total
    assert seen[-1].done == again[-1].done


# -- the compiled search as plain Python ---------------------------------------------------
#: small games: (name, the expression that makes it)
JIT_OFF_GAMES = {
    "MM(2,3)": "st.mastermind(2, 3)",
    "MM(3,2)": "st.mastermind(3, 2)",
    "MM(3,3)": "st.mastermind(3, 3)",
    "MM(4,3)": "st.mastermind(4, 3)",
    "MM(3,4)": "st.mastermind(3, 4)",
    "3 distinct of 4": "st.distinct(3, 4)",
}
JIT_OFF = textwrap.dedent(
    """
    import json
    import strategytree as st
    from strategytree.search import build_optimal, compiled, driver, prove_bound

    assert not hasattr(compiled.solve, "py_func")  # plain Python, not compiled
    out = {}
    for levels in (driver.PY_LEVELS, 0):  # 0: every level in the compiled search
        driver.PY_LEVELS = levels
        for name, game in GAMES.items():
            seen = []
            tree = build_optimal(game, progress=seen.append)
            out[f"{name} {levels}"] = [st.dumps(tree), seen[-1].done, prove_bound(game)]
    print(json.dumps(out))
    """
)


def test_the_search_runs_as_plain_python_with_jit_disabled(monkeypatch) -> None:
    """With NUMBA_DISABLE_JIT=1 the compiled search runs as Python (so a newcomer
    can step through it): the same trees, the same sets searched, the same bounds,
    with the first levels in Python and with every level in the compiled search."""
    games = "GAMES = {" + ", ".join(f"{k!r}: {v}" for k, v in JIT_OFF_GAMES.items()) + "}"
    script = JIT_OFF.replace("out = {}", games + "\nout = {}")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads(run.stdout)
    assert len(got) == 2 * len(JIT_OFF_GAMES)
    for levels in (driver.PY_LEVELS, 0):
        monkeypatch.setattr(driver, "PY_LEVELS", levels)
        for name, make in JIT_OFF_GAMES.items():
            game = eval(make, {"st": st})  # our own expressions, above
            seen: list[search.SearchProgress] = []
            tree = search.build_optimal(game, progress=seen.append)
            want = [st.dumps(tree), seen[-1].done, search.prove_bound(game)]
            assert got[f"{name} {levels}"] == want, (name, levels)


# -- the command line ----------------------------------------------------------------------
def invoke(args: list[str]):
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def test_cli_generate_optimal(tmp_path: Path) -> None:
    out = tmp_path / "mm33.txt"
    result = invoke(["generate", "-p", "3", "-c", "3", "--method", "optimal", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "73" in result.output
    assert st.verify(st.load(out), st.mastermind(3, 3)).total == 73


def test_cli_generate_optimal_within_k(tmp_path: Path) -> None:
    out = tmp_path / "mm24.txt"
    args = ["generate", "-p", "2", "-c", "4", "--method", "optimal", "-o", str(out)]
    result = invoke([*args, "--max-guesses", "3"])
    assert result.exit_code == 2 and not out.exists()
    assert "within 3 guesses" in result.output
    result = invoke([*args, "--max-guesses", "4", "--checkpoint", str(tmp_path / "ck")])
    assert result.exit_code == 0, result.output
    assert st.verify(st.load(out), st.mastermind(2, 4)).max_guesses <= 4
    assert (tmp_path / "ck").exists()


def test_cli_greedy_refuses_search_options(tmp_path: Path) -> None:
    out = tmp_path / "x.txt"
    result = invoke(["generate", "-p", "2", "-c", "3", "--max-guesses", "3", "-o", str(out)])
    assert result.exit_code == 2 and "lookahead and optimal methods" in result.output
    result = invoke(["generate", "-p", "2", "-c", "3", "--method", "best", "-o", str(out)])
    assert result.exit_code == 2 and "is not one of 'greedy'" in result.output


def test_cli_interrupt_exits_130_and_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(search, "build_optimal", interrupted)
    out = tmp_path / "x.txt"
    result = invoke(["generate", "-p", "2", "-c", "3", "--method", "optimal", "-o", str(out)])
    assert result.exit_code == 130
    assert "interrupted" in result.output
    assert not out.exists()


def test_cli_bound() -> None:
    result = invoke(["bound", "--pegs", "3", "--colors", "3"])
    assert result.exit_code == 0, result.output
    assert "MM(3,3): 4 guesses" in result.output and "none within 3" in result.output
    result = invoke(["bound", "--pegs", "3", "--colors", "4", "--distinct-guesses"])
    assert result.exit_code == 0, result.output
    bound = naive_search.worst_case_bound(st.distinct(3, 4, distinct_guesses=True))
    assert f": {bound} guesses" in result.output


# -- games given by a table of replies ---------------------------------------------------------
def test_two_d_needs_four_where_greedy_entropy_needs_five() -> None:
    _, replies, win = naive_search.two_d_table()
    assert naive_search.greedy_entropy_worst(replies, win) == 5
    assert search.prove_bound_table(np.array(replies), win) == 4
    assert naive_search.table_bound(replies, win) == 4


def test_table_bound_matches_the_game_bound() -> None:
    game = st.mastermind(3, 3)
    table = reply_table(game)
    assert search.prove_bound_table(table, game.win) == search.prove_bound(game) == 4


def test_table_bound_checks_its_input() -> None:
    with pytest.raises(search.SearchError, match="exactly one guess"):
        search.prove_bound_table(np.zeros((3, 3), dtype=np.int64), 1)
    with pytest.raises(search.SearchError, match="array"):
        search.prove_bound_table(np.zeros(3, dtype=np.int64), 1)
