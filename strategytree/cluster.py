"""Where a search runs: in this process, on a local Dask cluster, or on one already up.

:func:`connect` is the one place a command's ``workers`` and ``scheduler``
arguments become a ``distributed.Client`` (or None: in-process, as without
them).  ``workers`` starts a ``LocalCluster`` of that many single-threaded
worker processes (``"auto"``: one per core) for the command and shuts it
down at its end; ``scheduler`` (or the ``STRATEGYTREE_SCHEDULER`` variable)
is the address of a cluster started with ``dask scheduler`` / ``dask worker``.
dask.distributed (the ``cluster`` extra) is imported only here, and only when
one of them is given.

>>> with connect() as client:
...     print(client)
None
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.util import find_spec

from .errors import ArgumentError

__all__ = ["SCHEDULER_VARIABLE", "connect", "worker_count"]

#: the environment variable naming a scheduler's address (as ``scheduler``)
SCHEDULER_VARIABLE = "STRATEGYTREE_SCHEDULER"
#: seconds to wait for a scheduler and its first worker
CONNECT_SECONDS = 30


def worker_count(workers: int | str) -> int:
    """``workers`` as a number of worker processes (``"auto"``: the cores here).

    >>> worker_count("3"), worker_count("auto") == (os.cpu_count() or 1)
    (3, True)
    """
    if str(workers).strip().lower() == "auto":
        return os.cpu_count() or 1
    try:
        count = int(str(workers).strip())
    except ValueError:
        count = 0
    if count < 1:
        raise ArgumentError("{workers} must be a whole number of at least 1, or auto",
                            workers=workers)
    return count


@contextmanager
def connect(
    workers: int | str | None = None,
    scheduler: str | None = None,
    say: Callable[[str], None] | None = None,
) -> Iterator[object | None]:
    """A ``distributed.Client`` for the run (None: run in this process).

    ``workers``: start a local cluster of that many single-threaded worker
    processes, closed at the end; ``scheduler``: connect to that address
    (default: ``$STRATEGYTREE_SCHEDULER``).  ``say`` is told the dashboard's
    address when one is up.  Raises :class:`~strategytree.errors.ArgumentError`
    when both are given, when the count is not a number, when
    dask.distributed is not installed, or when the scheduler cannot be reached.
    """
    if scheduler is None and workers is None:
        scheduler = os.environ.get(SCHEDULER_VARIABLE) or None
    if workers is None and scheduler is None:
        yield None
        return
    if workers is not None and scheduler is not None:
        raise ArgumentError("give {workers} or {scheduler}, not both",
                            workers=workers, scheduler=scheduler)
    count = worker_count(workers) if workers is not None else 0
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ArgumentError(
            "a search on workers needs dask.distributed: pip install 'strategytree[cluster]'"
        ) from None
    dashboard = find_spec("bokeh") is not None
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as err:
            why = str(err).replace("{", "{{").replace("}", "}}")
            raise ArgumentError("cannot reach the scheduler at {scheduler}: " + why,
                                scheduler=scheduler) from None
        cluster = None
    else:
        cluster = LocalCluster(
            n_workers=count, threads_per_worker=1, processes=True,
            dashboard_address=":0", silence_logs=logging.ERROR,
        )
        client = Client(cluster)
    try:
        if dashboard and say is not None and client.dashboard_link:
            say(f"dashboard: {client.dashboard_link}")
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
