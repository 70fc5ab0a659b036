"""`improve` on a Dask cluster: the exact pass's subtrees and the lookahead
pass's large nodes searched by tasks on a 2-worker ``LocalCluster`` give what
the in-process run gives (each node's search is its own, whoever runs it), also
with a worker killed mid-run; a checkpoint is shared; the command line takes
--workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from strategytree.builders import build_greedy
from strategytree.formats.brace import dump, dumps, loads
from strategytree.game import distinct, mastermind
from strategytree.improve import improve
from strategytree.verify import verify

pytestmark = pytest.mark.cluster

pytest.importorskip("distributed")


@pytest.mark.parametrize("game, exact_below", [(mastermind(3, 4), 20), (mastermind(4, 6), 100),
                                               (distinct(4, 6), 60)], ids=lambda x: str(x))
def test_the_exact_pass_on_workers_as_in_process(client, game, exact_below) -> None:
    greedy = build_greedy(game, rule="minimax")
    here = improve(greedy, game, exact_below=exact_below, widths=())
    there = improve(greedy, game, exact_below=exact_below, widths=(), client=client)
    assert verify(there, game).valid
    assert (verify(there, game).total, verify(there, game).max_guesses) == \
        (verify(here, game).total, verify(here, game).max_guesses)
    assert verify(there, game).total < verify(greedy, game).total


@pytest.mark.parametrize("widths, finalists, deepen",
                         [((0, 3), (0, 2), ()), ((0, 2, 2), (), ()), ((3,), (2,), (2, 1))])
def test_the_lookahead_pass_on_workers_as_in_process(client, widths, finalists, deepen) -> None:
    game = mastermind(4, 6)
    greedy = build_greedy(game, rule="minimax")
    exact = improve(greedy, game, exact_below=40, widths=())
    here = improve(greedy, game, exact_below=40, widths=widths, finalists=finalists, deepen=deepen)
    there = improve(greedy, game, exact_below=40, widths=widths, finalists=finalists,
                    deepen=deepen, client=client)
    assert dumps(there) == dumps(here)
    assert verify(here, game).total < verify(exact, game).total  # the lookahead found something


def test_a_worker_killed_mid_run_changes_nothing(client) -> None:
    """A worker process dies after the first tasks: Dask starts another and
    reruns its tasks, and the strategy is the same."""
    game, settings = mastermind(4, 6), dict(exact_below=40, widths=(0, 3), finalists=(0, 2))
    greedy = build_greedy(game, rule="minimax")
    here = improve(greedy, game, **settings)
    pids = sorted(client.run(os.getpid).values())
    killed = []

    def progress(seen) -> None:
        running = "tasks" in seen.detail and int(seen.detail.split("tasks ")[1].split()[0])
        if not killed and running >= 2:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    assert dumps(improve(greedy, game, client=client, progress=progress, **settings)) == dumps(here)
    assert killed
    client.wait_for_workers(2, timeout=60)


def test_with_the_other_passes_and_a_checkpoint(client, tmp_path) -> None:
    game, saved = mastermind(4, 6), tmp_path / "improve.ckpt"
    greedy = build_greedy(game, rule="minimax")
    first = improve(greedy, game, exact_below=40, widths=(2,), client=client, checkpoint=saved)
    again = improve(greedy, game, exact_below=40, widths=(2,), checkpoint=saved)
    assert verify(again, game).total <= verify(first, game).total < verify(greedy, game).total


def test_the_command_line_runs_on_workers(tmp_path) -> None:
    game = mastermind(3, 4)
    source, out = tmp_path / "in.txt", tmp_path / "out.txt"
    dump(build_greedy(game, rule="minimax"), source)
    env = dict(os.environ, STRATEGYTREE_PROGRESS_SECONDS="0")
    env.pop("STRATEGYTREE_SCHEDULER", None)
    run = subprocess.run([sys.executable, "-m", "strategytree", "improve", str(source), "-p", "3",
                          "-c", "4", "--exact-below", "20", "-o", str(out), "--workers", "2"],
                         env=env, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    assert verify(loads(out.read_text()), game).total == 206
