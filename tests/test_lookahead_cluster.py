"""The lookahead on a Dask cluster: a real LocalCluster of worker processes.

The lookahead is deterministic, so a run on workers must write the very file
the in-process run writes, and leave the same decisions in its checkpoint.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import strategytree as st
from strategytree.checkpoint import load
from strategytree.errors import ArgumentError
from strategytree.generate import generate
from strategytree.lookahead import build_lookahead
from strategytree.nodesearch import cluster as lookahead

pytestmark = pytest.mark.cluster

distributed = pytest.importorskip("distributed")


CASES = [
    (lambda: st.mastermind(3, 5), (3, 3, 2), ("minimax",)),
    (lambda: st.mastermind(4, 6), (4, 2), ()),
    (lambda: st.distinct(4, 6, distinct_guesses=True), (3, 2), ()),
]


@pytest.mark.parametrize("make, widths, also", CASES, ids=["MM(3,5)", "MM(4,6)", "distinct(4,6)"])
def test_a_cluster_writes_the_in_process_file(client, make, widths, also) -> None:
    game = make()
    here = st.dumps(build_lookahead(game, widths=widths, also=also))
    seen = []
    there = build_lookahead(game, widths=widths, also=also, client=client, progress=seen.append)
    assert st.dumps(there) == here
    assert "tasks" in seen[-1].detail and "2 workers" in seen[-1].detail
    done = int(seen[-1].detail.split("tasks ")[1].split()[0].replace(",", ""))
    assert done >= len(widths)  # completions and searches did go out as tasks


def test_completed_by_a_lookahead_on_workers_as_in_process(client, monkeypatch) -> None:
    """``complete``: the completions the workers build are the inner search's too."""
    game = st.mastermind(4, 6)
    monkeypatch.setattr(lookahead, "SPLIT_MIN", 100)
    here = st.dumps(build_lookahead(game, widths=(4, 2), complete=(3,), complete_above=20))
    there = build_lookahead(game, widths=(4, 2), complete=(3,), complete_above=20, client=client)
    assert st.dumps(there) == here


def test_a_limit_on_guesses_on_workers_as_in_process(client, monkeypatch) -> None:
    """``max_guesses``: the workers' completions and searches keep it as the driver does."""
    game = st.mastermind(4, 6)
    monkeypatch.setattr(lookahead, "SPLIT_MIN", 100)
    here = build_lookahead(game, widths=(4, 2), complete=(2,), complete_above=100, max_guesses=5)
    there = build_lookahead(game, widths=(4, 2), complete=(2,), complete_above=100, max_guesses=5,
                            client=client)
    assert st.dumps(there) == st.dumps(here)
    assert st.verify(there, game).max_guesses == 5


def test_finalists_on_workers_as_in_process(client, monkeypatch) -> None:
    """``finalists``: the searches below each finalist go out as tasks side by side,
    and the best is kept as in-process."""
    game = st.mastermind(4, 6)
    monkeypatch.setattr(lookahead, "SPLIT_MIN", 100)
    here = build_lookahead(game, widths=(4, 3, 2), finalists=(2, 3))
    assert st.dumps(here) != st.dumps(build_lookahead(game, widths=(4, 3, 2)))
    there = build_lookahead(game, widths=(4, 3, 2), finalists=(2, 3), client=client)
    assert st.dumps(there) == st.dumps(here)


def test_small_thresholds_send_every_node_out_alike(client, monkeypatch) -> None:
    """Every node of MM(3,5) a node of the driver (its parts one task each), and
    then none (every part below the root one task): the same file."""
    game = st.mastermind(3, 5)
    here = st.dumps(build_lookahead(game, widths=(3, 3, 2)))
    for split, part in ((3, 1), (10_000, 10_000)):
        monkeypatch.setattr(lookahead, "SPLIT_MIN", split)
        monkeypatch.setattr(lookahead, "PART_MIN", part)
        assert st.dumps(build_lookahead(game, widths=(3, 3, 2), client=client)) == here


def decisions(path: Path) -> dict[bytes, int]:
    """The decisions saved in a lookahead checkpoint (read under its own header)."""
    with open(path, "rb") as file:
        header = {k: v for k, v in json.loads(file.readline()).items()
                  if k not in ("format", "version", "byteorder")}
    assert header["search"] == "lookahead"
    arrays = load(path, header)
    return {bytes(k): int(g) for k, g in zip(arrays["keys"], arrays["decisions"])}


def test_the_checkpoint_holds_the_in_process_decisions_and_resumes(client, tmp_path) -> None:
    """A run on workers records every decision, those made inside tasks too; one
    stopped after a few tasks resumes on the cluster or in-process to the same file."""
    game, widths = st.mastermind(4, 6), (4, 3)
    plain = st.dumps(build_lookahead(game, widths=widths, checkpoint=tmp_path / "here.ckpt"))
    there = build_lookahead(game, widths=widths, client=client, checkpoint=tmp_path / "there.ckpt")
    assert st.dumps(there) == plain
    assert (decisions(tmp_path / "there.ckpt")
            == decisions(tmp_path / "here.ckpt"))

    stopped = tmp_path / "stopped.ckpt"

    def stop(seen) -> None:
        if seen.done >= 3:  # nodes decided (some of them in tasks)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_lookahead(game, widths=widths, client=client, checkpoint=stopped, progress=stop)
    kept = decisions(stopped)
    assert 0 < len(kept) < len(decisions(tmp_path / "here.ckpt"))
    copy = tmp_path / "copy.ckpt"
    copy.write_bytes(stopped.read_bytes())
    resumed = build_lookahead(game, widths=widths, client=client, checkpoint=stopped)
    assert st.dumps(resumed) == plain
    assert st.dumps(build_lookahead(game, widths=widths, checkpoint=copy)) == plain


def test_a_worker_killed_mid_run_changes_nothing(client) -> None:
    """A worker process dies after a few tasks: Dask starts another and reruns
    its tasks, and the file is the same."""
    game, widths = st.mastermind(4, 6), (4, 3)
    plain = st.dumps(build_lookahead(game, widths=widths))
    pids = sorted(client.run(os.getpid).values())
    killed = []

    def progress(seen) -> None:
        if not killed and int(seen.detail.split("tasks ")[1].split()[0]) >= 3:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    assert st.dumps(build_lookahead(game, widths=widths, client=client, progress=progress)) == plain
    assert killed
    client.wait_for_workers(2, timeout=60)


def test_generate_passes_the_client_to_the_lookahead_only(client) -> None:
    game = st.mastermind(3, 4)
    assert (st.dumps(generate(game, "lookahead", widths="3,2", client=client))
            == st.dumps(generate(game, "lookahead", widths="3,2")))
    with pytest.raises(ArgumentError, match="client=.* has no effect with method='greedy'"):
        generate(game, "greedy", client=client)


def test_the_command_line_runs_the_lookahead_on_workers(tmp_path: Path) -> None:
    """--workers 2 writes the very file the in-process command writes."""
    env = dict(os.environ, STRATEGYTREE_PROGRESS_SECONDS="0")
    env.pop("STRATEGYTREE_SCHEDULER", None)
    args = [sys.executable, "-m", "strategytree", "generate", "-m", "lookahead", "--widths", "3,2",
            "-p", "3", "-c", "5", "-o"]
    here = subprocess.run([*args, str(tmp_path / "here.txt")], env=env, capture_output=True,
                          text=True, timeout=180)
    there = subprocess.run([*args, str(tmp_path / "there.txt"), "--workers", "2"], env=env,
                           capture_output=True, text=True, timeout=180)
    assert here.returncode == 0 and there.returncode == 0, there.stderr
    assert "tasks" in there.stderr and "tasks" not in here.stderr  # progress names the tasks
    assert (tmp_path / "there.txt").read_bytes() == (tmp_path / "here.txt").read_bytes()


def test_sets_solved_exactly_on_workers_as_in_process(client, monkeypatch) -> None:
    """``exact_below``: the small sets are solved by tasks, the same subtrees."""
    game = st.mastermind(4, 6)
    monkeypatch.setattr(lookahead, "SPLIT_MIN", 100)
    here = build_lookahead(game, widths=(4, 2), finalists=(2,), exact_below=60)
    assert st.dumps(here) != st.dumps(build_lookahead(game, widths=(4, 2), finalists=(2,)))
    there = build_lookahead(game, widths=(4, 2), finalists=(2,), exact_below=60, client=client)
    assert st.dumps(there) == st.dumps(here)
