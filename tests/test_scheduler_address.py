"""A scheduler's address where no Dask scheduler answers (issue 37, the reliability
probe): small local servers stand for what users meet (a port nothing listens
on, a server that accepts and says nothing, a web server), each told apart in
one error line, in bounded time, through the library and the installed program.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest

from strategytree.cluster import SchedulerError, probe_scheduler

from cli_runner import one_error, run

distributed = pytest.importorskip("distributed")


@contextmanager
def server(greeting: bytes | None) -> Iterator[str]:
    """A local TCP server's address: it accepts every connection and sends
    ``greeting`` (None: nothing, ever), keeping the connection open."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    done = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not done.is_set():
            try:
                conn, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            held.append(conn)
            if greeting is not None:
                conn.sendall(greeting)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        done.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()


def free_port() -> str:
    """The address of a port nothing listens on."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


JUNK = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"


# -- the library ---------------------------------------------------------------------------
def test_a_refused_connection_fails_at_once() -> None:
    started = time.monotonic()
    with pytest.raises(SchedulerError, match="nothing listens there"):
        probe_scheduler(free_port(), 20)
    assert time.monotonic() - started < 2


def test_a_silent_server_times_out() -> None:
    with server(None) as address:
        started = time.monotonic()
        with pytest.raises(SchedulerError, match="no answer within 0.5 s"):
            probe_scheduler(address, 0.5)
        assert 0.4 < time.monotonic() - started < 3


def test_a_server_that_is_not_dask_is_named() -> None:
    with server(JUNK) as address, pytest.raises(SchedulerError,
                                                match="not a Dask scheduler .it sent 'HTTP/1.1"):
        probe_scheduler(address, 5)


def test_a_real_scheduler_passes() -> None:
    import logging

    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as cluster:
        probe_scheduler(cluster.scheduler_address, 5)


# -- the installed program ----------------------------------------------------------------
@pytest.mark.subprocess
@pytest.mark.parametrize("kind, words", [
    ("refused", ["nothing listens there (connection refused)"]),
    ("silent", ["no answer within 1 s", "$STRATEGYTREE_CONNECT_SECONDS"]),
    ("junk", ["not a Dask scheduler", "HTTP/1.1 400"]),
])
def test_the_command_says_what_is_at_the_address(tmp_path: Path, console_script, monkeypatch,
                                                 kind: str, words: list[str]) -> None:
    monkeypatch.setenv("STRATEGYTREE_CONNECT_SECONDS", "1")
    monkeypatch.delenv("STRATEGYTREE_SCHEDULER", raising=False)
    greeting = {"silent": None, "junk": JUNK}.get(kind)
    with (server(greeting) if kind != "refused" else nullcontext(free_port())) as address:
        started = time.monotonic()
        done = run(console_script, "bound", "-p", "2", "-c", "2", "--scheduler", address,
                   cwd=tmp_path)
        took = time.monotonic() - started
    one_error(done, f"no Dask scheduler at --scheduler {address}:", *words)
    assert "memory" not in done.stderr
    assert took < 20


@pytest.mark.subprocess
def test_an_address_from_the_variable_is_said_so(tmp_path: Path, console_script,
                                                 monkeypatch) -> None:
    address = free_port()
    monkeypatch.setenv("STRATEGYTREE_SCHEDULER", address)
    done = run(console_script, "bound", "-p", "2", "-c", "2", cwd=tmp_path)
    one_error(done, f"no Dask scheduler at $STRATEGYTREE_SCHEDULER={address}: nothing listens")
    assert "--scheduler" not in done.stderr
