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

from .errors import ArgumentError, StrategyTreeError

__all__ = ["CONNECT_SECONDS", "SCHEDULER_VARIABLE", "SchedulerError", "connect",
           "connect_seconds", "probe_scheduler", "worker_count"]

#: the environment variable naming a scheduler's address (as ``scheduler``)
SCHEDULER_VARIABLE = "STRATEGYTREE_SCHEDULER"
#: seconds to wait for a scheduler to accept a connection and to greet it as Dask does
CONNECT_SECONDS = 15.0
#: the environment variable that changes :data:`CONNECT_SECONDS`
CONNECT_VARIABLE = "STRATEGYTREE_CONNECT_SECONDS"
#: Dask's port when an address names none
DASK_PORT = 8786
#: the most bytes of a greeting read (a Dask scheduler's is about a hundred)
GREETING_MOST = 1 << 16


class SchedulerError(StrategyTreeError):
    """A scheduler's address where no Dask scheduler answers: nothing listens, it
    accepts and says nothing, or what answers is not Dask."""


def connect_seconds() -> float:
    """Seconds to wait for a scheduler (:data:`CONNECT_SECONDS`, or
    ``$STRATEGYTREE_CONNECT_SECONDS``).

    >>> connect_seconds() == CONNECT_SECONDS or CONNECT_VARIABLE in os.environ
    True
    """
    try:
        seconds = float(os.environ.get(CONNECT_VARIABLE, CONNECT_SECONDS))
    except ValueError:
        return CONNECT_SECONDS
    return seconds if 0 < seconds < float("inf") else CONNECT_SECONDS


def probe_scheduler(address: str, seconds: float | None = None) -> None:
    """Check that a Dask scheduler answers at ``address`` (``tcp://host:port``,
    ``host:port`` or ``host``) before Dask's client is asked to connect, within
    ``seconds`` (default :func:`connect_seconds`): a refused connection fails at
    once, a server that accepts and says nothing after ``seconds``, and one that
    answers but not with a Dask greeting (a scheduler speaks first, its
    handshake) at once.  Other protocols (``tls://``, ``ucx://``) are left to Dask.
    Raises :class:`SchedulerError` saying what was found.

    >>> probe_scheduler("ucx://host:1")  # not probed: Dask's own affair
    """
    import socket
    import struct

    place = _host_port(address)
    if place is None:
        return
    seconds = connect_seconds() if seconds is None else seconds
    try:
        with socket.create_connection(place, timeout=seconds) as sock:
            greeting = _greeting(sock, seconds)
    except ConnectionRefusedError:
        raise SchedulerError("nothing listens there (connection refused)") from None
    except TimeoutError:
        raise SchedulerError(f"no answer within {seconds:g} s: a server accepts connections "
                             f"there but does not greet as a Dask scheduler does (wait longer "
                             f"with ${CONNECT_VARIABLE})") from None
    except socket.gaierror as err:
        raise SchedulerError(f"unknown host {place[0]} ({err.strerror or err})") from None
    except OSError as err:
        raise SchedulerError(f"cannot connect ({err.strerror or err})") from None
    if len(greeting) >= 8:
        (length,) = struct.unpack("Q", greeting[:8])
        if 8 < length <= GREETING_MOST and b"pickle-protocol" in greeting:
            return
    shown = greeting[:40].decode("ascii", "backslashreplace").replace("\r", "").strip()
    said = f"it sent {shown!r}" if shown else "it closed the connection at once"
    raise SchedulerError(f"what answers there is not a Dask scheduler ({said})")


def _greeting(sock: object, seconds: float) -> bytes:
    """What a server sends first on ``sock``: a Dask scheduler's handshake (its
    length in 8 bytes, then the frames), or whatever else it says at once."""
    import struct
    import time

    def length() -> int:  # the frames' length, in the sender's byte order as Dask writes it
        return struct.unpack("Q", data[:8])[0]

    data = b""
    deadline = time.monotonic() + seconds
    while len(data) < 8 or len(data) < 8 + min(length(), GREETING_MOST):
        sock.settimeout(max(0.001, deadline - time.monotonic()))  # type: ignore[attr-defined]
        chunk = sock.recv(GREETING_MOST)  # type: ignore[attr-defined]
        if not chunk:
            break
        data += chunk
        if len(data) >= 8 and length() > GREETING_MOST:
            break  # no Dask greeting is this long: not Dask
    return data


def _host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a TCP address (None for another protocol).

    >>> _host_port("tcp://10.0.0.1:8786"), _host_port("[::1]:9000"), _host_port("host")
    (('10.0.0.1', 8786), ('::1', 9000), ('host', 8786))
    """
    scheme, _, rest = address.strip().rpartition("://")
    if scheme not in ("", "tcp"):
        return None
    if rest.startswith("["):  # [v6]:port
        host, _, port = rest[1:].partition("]")
        port = port.lstrip(":")
    elif rest.count(":") == 1:
        host, _, port = rest.partition(":")
    else:
        host, port = rest, ""
    try:
        return host, int(port) if port else DASK_PORT
    except ValueError:
        return None  # Dask says what is wrong with it


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
    most = WORKERS_PER_CORE * (os.cpu_count() or 1)
    if count > most:  # (each a process of its own: thousands would bring the machine down)
        raise ArgumentError(f"{{workers}}: at most {most} here ({WORKERS_PER_CORE} a core; "
                            "a larger cluster: --scheduler)", workers=workers)
    return count


#: the most local worker processes a core may have (``--workers``)
WORKERS_PER_CORE = 4


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
    dask.distributed is not installed, or when no scheduler answers at the
    ``scheduler`` address within :func:`connect_seconds` (:func:`probe_scheduler`:
    what was found there); :class:`SchedulerError` for an address of
    ``$STRATEGYTREE_SCHEDULER`` (the error names the variable).
    """
    from_variable = scheduler is None and workers is None
    if from_variable:
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
        seconds = connect_seconds()
        try:
            probe_scheduler(scheduler, seconds)
            client = Client(scheduler, timeout=seconds)
        except (OSError, TimeoutError, ValueError, SchedulerError) as err:
            if from_variable:  # said as where the address came from
                raise SchedulerError(f"no Dask scheduler at ${SCHEDULER_VARIABLE}={scheduler}: "
                                     f"{err}") from None
            why = str(err).replace("{", "{{").replace("}", "}}")
            raise ArgumentError("no Dask scheduler at {scheduler}: " + why,
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
