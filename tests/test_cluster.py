"""The exact search on a Dask cluster: a real LocalCluster of worker processes.

Every answer is compared with the in-process search (and the published
figures): the same totals, the same proven bounds; a worker killed mid-run
changes nothing; a driver stopped by SIGTERM resumes from its checkpoint on
another number of workers and runs none of its finished tasks again.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from replaced import wait_replaced

import strategytree as st
from strategytree.checkpoint import load
from strategytree.cluster import connect, worker_count
from strategytree.errors import ArgumentError
from strategytree.generate import generate
from strategytree.literature import published
from strategytree.search import build_optimal, driver, prove_bound

pytestmark = pytest.mark.cluster

distributed = pytest.importorskip("distributed")


def total(tree: st.Strategy, game: st.Game) -> int:
    report = st.verify(tree, game)
    assert report.valid
    return report.total


@pytest.mark.parametrize("make", [
    lambda: st.mastermind(3, 4),
    lambda: st.mastermind(4, 4),
    lambda: st.distinct(4, 6, distinct_guesses=True),
])
def test_a_cluster_finds_the_in_process_optimum(client, make) -> None:
    game = make()
    here = build_optimal(game)
    seen = []
    there = build_optimal(game, client=client, progress=seen.append)
    assert total(there, game) == total(here, game)
    assert "done" in seen[-1].detail and "2 workers" in seen[-1].detail


def test_a_cluster_finds_the_published_mm46_optimum(client) -> None:
    """MM(4,6): the published 5,625.  (The file may differ from the in-process
    one where guesses tie: a worker's cache holds what its earlier tasks solved,
    which depends on where Dask ran them.)"""
    game = st.mastermind(4, 6)
    there = build_optimal(game, client=client)
    assert total(there, game) == published("MM(4,6)", "optimal").low == 5625
    assert st.verify(there, game).max_guesses == 6


def test_a_cluster_keeps_a_limit_and_proves_bounds(client) -> None:
    game = st.mastermind(3, 4)
    for k in (4, 5):
        assert (total(build_optimal(game, max_guesses=k, client=client), game)
                == total(build_optimal(game, max_guesses=k), game))
    with pytest.raises(st.StrategyTreeError, match="within 3 guesses"):
        build_optimal(game, max_guesses=3, client=client)
    for game in (st.mastermind(3, 4), st.mastermind(4, 4), st.distinct(4, 6)):
        assert prove_bound(game, client=client) == prove_bound(game)


def test_a_worker_killed_mid_run_changes_nothing(client) -> None:
    """A worker process dies after a few tasks: Dask starts another, reruns its
    task, and the answer is the same."""
    game = st.mastermind(4, 6)
    pids = sorted(client.run(os.getpid).values())
    killed = []

    def progress(seen) -> None:
        if not killed and seen.detail and int(seen.detail.split()[1].replace(",", "")) >= 5:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    tree = build_optimal(game, client=client, progress=progress)
    assert killed and total(tree, game) == 5625
    wait_replaced(client, pids[0])
    assert pids[0] not in client.run(os.getpid).values()


def test_a_cluster_gone_is_a_search_error() -> None:
    """A client whose cluster has closed: one line, not a traceback."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as cluster:
        client = distributed.Client(cluster)
    client.close()
    with pytest.raises(st.StrategyTreeError, match="cluster"):
        build_optimal(st.mastermind(3, 4), client=client)


def test_arguments_are_checked() -> None:
    with connect() as client:
        assert client is None
    assert worker_count("auto") == (os.cpu_count() or 1) and worker_count(" 3 ") == 3
    for bad in ("0", "-1", "many"):
        with pytest.raises(ArgumentError, match="at least 1"):
            worker_count(bad)
    with pytest.raises(ArgumentError, match="not both"), connect(2, "tcp://127.0.0.1:1"):
        pass
    with pytest.raises(ArgumentError, match="client=.* has no effect with method=.greedy. "
                                            ".it is for the lookahead and optimal"):
        generate(st.mastermind(2, 3), "greedy", client=object())


def test_dask_is_imported_only_when_used() -> None:
    script = "import sys, strategytree.cli; print([m for m in sys.modules if 'dask' in m or " \
             "'distributed' in m])"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def run_cli(args: list[str], **kwargs) -> subprocess.Popen:
    env = dict(os.environ, STRATEGYTREE_PROGRESS_SECONDS="0")
    env.pop("STRATEGYTREE_SCHEDULER", None)
    return subprocess.Popen([sys.executable, "-m", "strategytree", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


@pytest.mark.slow
def test_sigterm_then_resume_on_another_number_of_workers(tmp_path: Path) -> None:
    """The driver is stopped by SIGTERM once tasks are saved; the run resumes on
    one worker from the checkpoint, runs none of the saved tasks again, and
    finds the optimum."""
    saved = tmp_path / "run.ckpt"
    # MM(4,8): a run long enough to be stopped after a save with tasks (runner.SAVE_EVERY apart)
    args = ["generate", "-m", "optimal", "-p", "4", "-c", "8", "--checkpoint", str(saved)]
    first = run_cli([*args, "-o", str(tmp_path / "a.txt"), "--workers", "2"])
    header = driver.checkpoint_header(st.mastermind(4, 8), None, "optimal")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(0.2)
        arrays = load(saved, header) if saved.exists() else None
        if arrays and len(arrays.get("tasks", ())) >= 5:
            break
    first.send_signal(signal.SIGTERM)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 143, err
    assert "saved in" in err and not (tmp_path / "a.txt").exists()
    before = load(saved, header)["tasks"]
    second = run_cli([*args, "-o", str(tmp_path / "b.txt"), "--workers", "1"])
    out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err
    assert "20471" in out.replace(",", "")
    after = load(saved, header)["tasks"]
    assert len(after) > len(before)
    # a task of the same set and candidates ran again only with a limit the saved
    # result did not answer (it was under the old limit, and the new one is higher)
    saved_results = {tuple(row[:4]): row for row in before}
    for row in after[len(before):]:
        old = saved_results.get(tuple(row[:4]))
        assert old is None or (old[6] < 0 and old[5] < row[4]), (old, row)
    assert np.array_equal(after[: len(before)], before)


def test_a_stopped_distributed_run_resumes_in_process(client, tmp_path: Path) -> None:
    """Ctrl-C (a progress callback raising) saves the finished tasks; the
    checkpoint is the in-process search's too."""
    game = st.mastermind(4, 5)
    saved = tmp_path / "run.ckpt"
    calls = []

    def stop(seen) -> None:
        calls.append(seen)
        if seen.detail and int(seen.detail.split()[1].replace(",", "")) >= 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_optimal(game, client=client, progress=stop, checkpoint=saved)
    header = driver.checkpoint_header(game, None, "optimal")
    assert len(load(saved, header)["tasks"]) >= 3
    resumed = build_optimal(game, checkpoint=saved)
    assert total(resumed, game) == total(build_optimal(game), game)
    again = build_optimal(game, client=client, checkpoint=saved)
    assert total(again, game) == total(resumed, game)


def test_the_command_line_runs_on_workers(tmp_path: Path) -> None:
    """--workers on generate and bound (a cluster started and stopped)."""
    out = tmp_path / "t.txt"
    done = run_cli(["generate", "-m", "optimal", "-p", "3", "-c", "4", "-o", str(out),
                    "--workers", "2"])
    stdout, err = done.communicate(timeout=120)
    assert done.returncode == 0, err
    assert st.verify(st.load(out), st.mastermind(3, 4)).total == 206
    assert "tasks" in err  # progress lines name the tasks and workers
    bound = run_cli(["bound", "-p", "3", "-c", "4", "--workers", "1"])
    stdout, err = bound.communicate(timeout=120)
    assert bound.returncode == 0 and "4 guesses solve every secret" in stdout, err


