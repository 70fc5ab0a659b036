"""``bound --total`` on a Dask cluster (:class:`strategytree.bounds.tasks.OnCluster`):
the parts of the first guesses bounded by tasks on a 2-worker ``LocalCluster``.

The same bound as the in-process run where the bound is a function of the game
(two levels; the full depth, where it is the optimum), never more than the
optimum otherwise; a worker killed mid-run changes nothing; the checkpoint is
the in-process run's; the command line takes --workers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from replaced import wait_replaced

import strategytree as st
from strategytree.bounds.total import total_lower_bound
from strategytree.game import black_only

pytestmark = pytest.mark.cluster

distributed = pytest.importorskip("distributed")

SMALL = [st.mastermind(3, 3), st.mastermind(3, 4), black_only(3, 3), st.distinct(3, 5),
         st.distinct(4, 6, distinct_guesses=True)]


@pytest.mark.parametrize("game", SMALL, ids=lambda g: g.name)
def test_two_levels_as_in_process(client, game) -> None:
    assert total_lower_bound(game, 2, client=client).bound == total_lower_bound(game, 2).bound


def test_deeper_between_the_levels_and_the_optimum(client) -> None:
    game = st.mastermind(4, 6)
    three = total_lower_bound(game, 3, client=client)
    assert three.complete and total_lower_bound(game, 2).bound <= three.bound <= 5625
    assert three.sets > 0 and "tasks" not in str(three)
    here = total_lower_bound(game, 3)
    assert [level[:2] for level in three.levels] == [level[:2] for level in here.levels]
    assert three.levels[-1].cpu_seconds > 0
    assert total_lower_bound(game, 4, client=client).bound == 5625  # full depth: the optimum


def test_exact_below_as_in_process(client) -> None:
    game = st.mastermind(4, 5)
    here = total_lower_bound(game, 3, exact_below=100)
    there = total_lower_bound(game, 3, client=client, exact_below=100)
    assert there.complete and there.bound == here.bound
    from strategytree.search import build_optimal

    best = st.verify(build_optimal(game), game).total
    assert total_lower_bound(game, 8, client=client, exact_below=700).bound == best


def test_exact_parts_as_in_process(client) -> None:
    game = st.mastermind(4, 5)
    here = total_lower_bound(game, 2, exact_parts=100)
    there = total_lower_bound(game, 2, client=client, exact_parts=100)
    assert there.complete and there.bound == here.bound
    whole = total_lower_bound(game, 2, client=client, exact_parts=len(game.secrets))
    assert whole.bound == total_lower_bound(game, 2, exact_parts=len(game.secrets)).bound


def test_progress_names_the_tasks(client) -> None:
    seen = []
    total_lower_bound(st.mastermind(3, 4), 3, client=client, progress=seen.append)
    assert seen and "tasks" in seen[-1].detail and "2 workers" in seen[-1].detail


def test_a_worker_killed_mid_run_changes_nothing(client) -> None:
    """A worker process dies once tasks are done: Dask starts another and
    reruns its task; the bound at full depth is still the optimum."""
    game = st.mastermind(4, 6)
    pids = sorted(client.run(os.getpid).values())
    killed = []

    def progress(seen) -> None:
        done = int(seen.detail.split("tasks ")[1].split()[0].replace(",", ""))
        if not killed and done >= 2:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    result = total_lower_bound(game, 4, client=client, progress=progress, every=0.05)
    assert killed and result.bound == 5625 and result.complete
    wait_replaced(client, pids[0])
    assert pids[0] not in client.run(os.getpid).values()


def test_tasks_stopped_on_time_go_on_from_what_they_learned(client, monkeypatch) -> None:
    """Every task stops after a fifth of a second with what it proved; the parts
    left incomplete are run again from the sets learned (sent to the workers on
    their own, scattered): the optimum at full depth."""
    from strategytree.bounds import root, tasks

    monkeypatch.setattr(root, "TASK_SECONDS", 0.2)
    monkeypatch.setattr(tasks, "SCATTER_FROM", 0)  # every task's sets scattered
    seen = []
    result = total_lower_bound(st.mastermind(4, 6), 4, client=client, progress=seen.append,
                               every=0.05)
    assert result.bound == 5625 and result.complete
    exact = total_lower_bound(st.mastermind(4, 6), 6, client=client, exact_below=100)
    assert exact.bound == 5625 and exact.complete  # sets searched exactly on the way


def test_a_large_part_is_shared_by_the_workers(client, monkeypatch) -> None:
    """The leading guess's parts of 50 secrets or more bounded by both workers side
    by side, each over a share of the guesses that follow (every task stopped after
    a fifth of a second): the in-process bound at depth 3 (a game no other test
    runs here: the workers' memos are kept from run to run), the optimum at full depth."""
    from strategytree.bounds import root

    monkeypatch.setattr(root, "SPLIT_FROM", 50)
    monkeypatch.setattr(root, "TASK_SECONDS", 0.2)
    game = st.mastermind(3, 7)
    three = total_lower_bound(game, 3, client=client)
    assert three.complete and three.bound == total_lower_bound(game, 3).bound
    deep = total_lower_bound(st.mastermind(4, 6), 6, client=client, exact_below=60)
    assert deep.complete and deep.bound == 5625


def test_the_checkpoint_is_the_in_process_one(client, tmp_path) -> None:
    """Stopped on the cluster, resumed in-process and the other way round."""
    game, saved = st.mastermind(4, 6), tmp_path / "bound.ckpt"
    first = total_lower_bound(game, 3, client=client, checkpoint=saved)
    assert first.complete
    here = total_lower_bound(game, 4, checkpoint=saved)
    there = total_lower_bound(game, 4, client=client, checkpoint=saved)
    assert here.bound == there.bound == 5625 and there.sets == 0


def test_a_cluster_gone_is_an_error() -> None:
    import logging

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as cluster:
        client = distributed.Client(cluster)
    client.close()
    with pytest.raises(st.StrategyTreeError, match="cluster"):
        total_lower_bound(st.mastermind(3, 4), 3, client=client)


def test_the_command_line_runs_on_workers(tmp_path) -> None:
    env = dict(os.environ, STRATEGYTREE_PROGRESS_SECONDS="0")
    env.pop("STRATEGYTREE_SCHEDULER", None)
    run = subprocess.run([sys.executable, "-m", "strategytree", "bound", "--total", "-p", "3",
                          "-c", "4", "--depth", "3", "--workers", "2", "--checkpoint",
                          str(tmp_path / "b.ckpt")], env=env, capture_output=True, text=True,
                         timeout=180)
    assert run.returncode == 0, run.stderr
    here = total_lower_bound(st.mastermind(3, 4), 3).bound
    assert f"at least {here:,} guesses" in run.stdout and "tasks" in run.stderr
    assert (tmp_path / "b.ckpt").exists()
