"""Waiting for a Dask cluster to replace a worker process the test killed."""

from __future__ import annotations

import time


def wait_replaced(client, pid: int, workers: int = 2, timeout: float = 60) -> None:
    """Return once the scheduler lists ``workers`` workers, none of them the
    process ``pid`` (a killed worker stays listed until the scheduler notices,
    and a broadcast to it then fails)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        listed = client.scheduler_info()["workers"].values()
        if len(listed) >= workers and all(w.get("pid") != pid for w in listed):
            return
        time.sleep(0.1)
    raise TimeoutError(f"worker {pid} not replaced within {timeout} s")
