"""What a hostile guest on the club's Wi-Fi sends, from loopback only, bounded in time: slow
connections from many addresses, pollers of the wall, a flood of table addresses that do
not exist. Each runs in a thread, in a process of their own, until its seconds are over (or
``stop`` is set) and stops by itself. The addresses are 127.0.0.x: on Linux every one of
them is this computer, so a client socket bound to 127.0.0.2 looks to the server like
another laptop.

Used by tests/web/test_hostile.py and benchmarks/serve_load.py (``--slow``, ``--pollers``,
``--flood``).
"""

from __future__ import annotations

import multiprocessing
import selectors
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


def loopback(n: int, first: int = 2) -> list[str]:
    """``n`` loopback addresses that look like ``n`` other computers: 127.0.0.2, ..."""
    return [f"127.0.0.{first + i}" for i in range(n)]


#: every tally made in this process, so that a hostile process can send back what it counted
_TALLIES: list[Tally] = []


@dataclass
class Tally:
    """What a hostile client counted."""

    sent: int = 0
    cut: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        _TALLIES.append(self)

    def status(self, code: int) -> None:
        with self.lock:
            self.statuses[code] = self.statuses.get(code, 0) + 1


def _open_slow(port: int, source: str) -> socket.socket | None:
    """A connection from ``source`` that has sent the start of a request and no more."""
    conn = socket.socket()
    conn.setblocking(False)
    try:
        conn.bind((source, 0))
        conn.connect_ex(("127.0.0.1", port))
    except OSError:
        conn.close()
        return None
    return conn


def slow_connections(
    port: int, sources: list[str], each: int, seconds: float, stop: threading.Event, tally: Tally
) -> None:
    """Hold ``each`` connections from every address of ``sources`` for ``seconds``: each
    sends a request line and then a byte of a header a second, never finishing; a
    connection the server closes is opened again a second later."""
    sel = selectors.DefaultSelector()
    due: list[tuple[float, str]] = [(0.0, s) for s in sources for _ in range(each)]
    live: dict[socket.socket, str] = {}
    fresh: set[socket.socket] = set()
    end = time.monotonic() + seconds
    last_drip = 0.0
    while time.monotonic() < end and not stop.is_set():
        now = time.monotonic()
        for when, source in [d for d in due if d[0] <= now]:
            due.remove((when, source))
            conn = _open_slow(port, source)
            if conn is None:
                due.append((now + 1.0, source))
                continue
            live[conn] = source
            fresh.add(conn)
            sel.register(conn, selectors.EVENT_READ)
        if now - last_drip >= 1.0:
            last_drip = now
            for conn in list(live):
                if _drip(conn, conn in fresh, tally):
                    fresh.discard(conn)
        for key, _ in sel.select(timeout=0.25):
            conn = key.fileobj  # type: ignore[assignment]
            try:
                data = conn.recv(4096)  # type: ignore[union-attr]
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            if not data:
                tally.cut += 1
                sel.unregister(conn)
                fresh.discard(conn)  # type: ignore[arg-type]
                due.append((time.monotonic() + 1.0, live.pop(conn)))  # type: ignore[arg-type]
                conn.close()  # type: ignore[union-attr]
    for conn in live:
        conn.close()
    sel.close()


def _drip(conn: socket.socket, fresh: bool, tally: Tally) -> bool:
    """The request line on a fresh connection, then a byte of a header that never ends;
    False when nothing could be sent (still connecting, or closed)."""
    try:
        if fresh:
            conn.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        conn.send(b"x")
    except OSError:
        return False
    tally.sent += 1
    return True


def requests_at(
    base: str,
    paths: Callable[[int], str],
    per_second: float,
    seconds: float,
    source: str,
    stop: threading.Event,
    tally: Tally,
) -> None:
    """GET ``paths(n)`` from ``source`` ``per_second`` times a second for ``seconds`` (the
    n-th request's path), without waiting for an answer longer than a second."""
    import httpx

    transport = httpx.HTTPTransport(local_address=source, retries=0)
    with httpx.Client(base_url=base, transport=transport, timeout=1.0) as client:
        start = time.monotonic()
        n = 0
        while time.monotonic() - start < seconds and not stop.is_set():
            time.sleep(max(0.0, start + n / per_second - time.monotonic()))
            try:
                tally.status(client.get(paths(n)).status_code)
            except httpx.HTTPError:
                tally.status(0)
            n += 1


@contextmanager
def hostile(*jobs: Callable[[threading.Event], None]) -> Iterator[None]:
    """Run ``jobs`` (each given a stop event) for the block, in threads of a process of their
    own: the hostile guest's own work is never counted against the taps measured in this
    one. At the block's end they are stopped and joined, and what each :class:`Tally`
    counted over there is added to it here."""
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe()
    guest = context.Process(target=_guest, args=(jobs, there, len(_TALLIES)), daemon=True)
    guest.start()
    there.close()
    try:
        yield
    finally:
        here.send("stop")
        counted = here.recv() if here.poll(30) else []
        guest.join(timeout=10)
        if guest.is_alive():
            guest.kill()
        here.close()
        for tally, (sent, cut, statuses) in zip(_TALLIES, counted, strict=False):
            tally.sent += sent
            tally.cut += cut
            for code, n in statuses.items():
                tally.statuses[code] = tally.statuses.get(code, 0) + n


def _guest(jobs: tuple[Callable[[threading.Event], None], ...], pipe: Any, known: int) -> None:
    """The hostile process: ``jobs`` in threads until told to stop (or this test's end), then
    what the first ``known`` tallies counted, sent back."""
    for tally in _TALLIES[:known]:
        tally.sent, tally.cut, tally.statuses = 0, 0, {}
    stop = threading.Event()
    threads = [threading.Thread(target=job, args=(stop,), daemon=True) for job in jobs]
    for t in threads:
        t.start()
    try:
        pipe.recv()
    except EOFError:
        pass
    stop.set()
    for t in threads:
        t.join(timeout=10)
    pipe.send([(t.sent, t.cut, dict(t.statuses)) for t in _TALLIES[:known]])
