# ruff: noqa: F811  (the web fixture is imported, then taken by each test)
"""tally serve against a hostile guest on the club's Wi-Fi (issue 36): slow connections from
many addresses, pollers of the wall, floods of table addresses that do not exist, the
server's own errors. Loopback only; every hostile client stops by itself within seconds.

The process tests (marked slow) measure table taps against a real ``tally serve`` as
docs/serve.md reports them; each has a quick test of the same behaviour in process beside
it."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.hostile_support import Tally, hostile, loopback, slow_connections
from tests.web.test_routes import Web, _start, web  # noqa: F401
from tests.web_support import free_port, running

# --- the connections a server keeps --------------------------------------------------------


class Phone:
    """A connection as :class:`tally.web.serving.Connections` sees it."""

    def __init__(self, busy: bool = False) -> None:
        self.busy = busy
        self.closed = False

    def cut(self) -> None:
        self.closed = True


def test_a_flood_from_sixteen_addresses_keeps_its_own_share_and_a_new_phone_gets_in() -> None:
    from tally.web import serving

    pool = serving.Connections()
    flood = [(a, Phone()) for _ in range(64) for a in loopback(16)]
    verdicts = [pool.admit(conn, a) for a, conn in flood]
    assert set(verdicts) == {"in"}  # each let in, the longest waiting closed to make room
    assert pool.waiting == serving.ANONYMOUS_CONNECTIONS
    assert sum(not conn.closed for _, conn in flood) == serving.ANONYMOUS_CONNECTIONS
    one = [Phone() for _ in range(2 * serving.ANONYMOUS_PER_ADDRESS)]
    verdicts = [serving.Connections().admit(conn, "127.0.0.99") for conn in one[:1]]
    fresh = serving.Connections()
    verdicts = [fresh.admit(conn, "127.0.0.99") for conn in one]
    assert verdicts.count("refused") == serving.ANONYMOUS_PER_ADDRESS  # the cap per address
    phone = Phone()
    assert pool.admit(phone, "192.168.1.31") == "in"
    for a, conn in flood:  # the flood goes on: its own connections make room, not the phone
        if not conn.closed:
            conn.closed = True
            pool.drop(conn, a)
        assert pool.admit(Phone(), a) == "in"
    assert not phone.closed


def test_a_table_s_connection_is_kept_apart_from_the_anonymous_ones() -> None:
    from tally.web import serving

    pool = serving.Connections()
    table = Phone()
    assert pool.admit(table, "192.168.1.31") == "in"
    pool.prove(table, "192.168.1.31")
    for i in range(4 * serving.ANONYMOUS_CONNECTIONS):
        pool.admit(Phone(), f"10.0.{i // 200}.{i % 200}")
    assert not table.closed and pool.waiting == serving.ANONYMOUS_CONNECTIONS
    busy = [Phone(busy=True) for _ in range(serving.ANONYMOUS_CONNECTIONS)]
    fresh = serving.Connections()
    for i, conn in enumerate(busy):
        fresh.admit(conn, f"10.1.0.{i}")
    assert fresh.admit(Phone(), "10.2.0.1") == "full"  # requests being answered stay


# --- a real server in this process ---------------------------------------------------------


@pytest.fixture
def served(web: Web, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The web fixture's app under tally serve's own uvicorn configuration on a loopback
    port, a request's headers due within 0.5 s and its body within 0.5 s more."""
    from tally.web import serving

    serving.more_open_files()
    monkeypatch.setattr(serving, "HEADER_SECONDS", 0.5)
    monkeypatch.setattr(serving, "BODY_SECONDS", 0.5)
    port = free_port()
    with running(None, serving.server_config(web.app, "127.0.0.1", port)):
        yield port


def _table_read(port: int, path: str) -> float:
    """How long a table's page takes to come from 127.0.0.1 (it must come, 200)."""
    start = time.perf_counter()
    res = httpx.get(f"http://127.0.0.1:{port}{path}", timeout=5)
    assert res.status_code == 200, res.status_code
    return time.perf_counter() - start


def test_slow_connections_from_sixteen_addresses_never_keep_a_table_out(
    web: Web, served: int
) -> None:
    flood = Tally()
    job = lambda stop: slow_connections(served, loopback(16), 64, 3.0, stop, flood)  # noqa: E731
    with hostile(job):
        time.sleep(1.0)  # (every one of the 1,024 connections tried)
        waits = [_table_read(served, web.table()) for _ in range(5)]
    assert max(waits) < 1.0
    assert flood.cut > 16 * 64 / 2  # refused over the caps, or cut at the deadline


def test_headers_and_a_body_that_do_not_arrive_in_time_are_cut_off(served: int) -> None:
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", served), timeout=3) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for _ in range(20):  # a byte every 0.1 s: never the end of the headers
            try:
                slow.sendall(b"X")
            except OSError:
                break
            time.sleep(0.1)
        assert slow.recv(100) == b""
    assert time.perf_counter() - started < 1.5
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", served), timeout=3) as slow:
        slow.sendall(b"POST /director/login HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n")
        slow.sendall(b"Content-Type: application/x-www-form-urlencoded\r\n\r\npin=")
        assert slow.recv(100) == b""  # the body never came: cut off, nothing answered
    assert 0.4 < time.perf_counter() - started < 1.5


# --- the security headers on every answer, the server's own included -----------------------

HEADERS = ("x-content-type-options", "content-security-policy", "x-frame-options")


def _secured(headers: Any) -> bool:
    return headers.get("x-content-type-options") == "nosniff" and "default-src 'self'" in (
        headers.get("content-security-policy", "")
    )


def _broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wall's page fails as a bug would."""

    def fails(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr("tally.web.standings._content", fails)


def test_every_answer_carries_nosniff_and_the_csp_a_failed_page_s_500_too(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    from starlette.testclient import TestClient

    for path in ("/static/tally.css", f"/standings/{web.event}/live", "/nowhere", "/t/1/x"):
        assert _secured(web.client.get(path).headers), path
    _broken(monkeypatch)
    res = TestClient(web.app, raise_server_exceptions=False).get(f"/standings/{web.event}")
    assert res.status_code == 500 and _secured(res.headers)


def _raw(port: int, request: bytes) -> tuple[int, str]:
    """The status and the headers of the answer to ``request`` sent as it is."""
    with socket.create_connection(("127.0.0.1", port), timeout=3) as conn:
        conn.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = conn.recv(4096)
            if not chunk:
                break
            answer += chunk
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    return int(head.split(" ", 2)[1]), head.lower()


def test_the_server_s_own_400_503_and_500_carry_nosniff_and_the_csp(
    web: Web, served: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tally.web import serving

    status, head = _raw(served, b"NOT HTTP AT ALL\r\n\r\n")
    assert status == 400 and "x-content-type-options: nosniff" in head
    assert "content-security-policy: default-src 'self'" in head
    _broken(monkeypatch)
    status, head = _raw(served, f"GET /standings/{web.event} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 500 and "x-content-type-options: nosniff" in head
    monkeypatch.setattr(serving, "MAX_CONNECTIONS", 2)
    with (
        socket.create_connection(("127.0.0.1", served)),
        socket.create_connection(("127.0.0.1", served)),
    ):
        time.sleep(0.1)
        status, head = _raw(served, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 503 and "x-content-type-options: nosniff" in head
    assert "content-security-policy: default-src 'self'" in head


# --- the wall: one render per change, 304, a budget per client -----------------------------


def test_twenty_viewers_at_once_cost_one_render_of_the_wall(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tally.web import standings

    made = []
    real = standings._content

    def counted(*args: Any) -> Any:
        made.append(1)
        time.sleep(0.05)  # (a field of 64 players takes longer)
        return real(*args)

    monkeypatch.setattr(standings, "_content", counted)

    async def viewer(path: str, n: int) -> int:
        transport = httpx.ASGITransport(app=web.app, client=(f"10.0.0.{n}", 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return (await client.get(path)).status_code

    async def viewers(path: str) -> list[int]:
        return list(await asyncio.gather(*(viewer(path, n) for n in range(20))))

    for path in (f"/standings/{web.event}/live?lang=de", f"/standings/{web.event}?lang=de"):
        made.clear()
        assert asyncio.run(viewers(path)) == [200] * 20
        assert len(made) == 1, path
    _start(web)  # a change: the next viewers get one new render
    made.clear()
    assert asyncio.run(viewers(f"/standings/{web.event}/live?lang=de")) == [200] * 20
    assert len(made) == 1


def test_a_wall_that_has_the_page_is_answered_not_modified(web: Web) -> None:
    for path in (f"/standings/{web.event}/live", f"/standings/{web.event}", "/"):
        first = web.client.get(path)
        tag = first.headers["etag"]
        again = web.client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"", path
    _start(web)
    changed = web.client.get(path, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag


def test_a_flood_of_unknown_table_addresses_runs_out_of_budget_a_table_does_not(web: Web) -> None:
    from tally.web.limits import REQUESTS_AT_ONCE, ClientBudget
    from tally.web.server import create_app

    app = create_app(web.store, budget=ClientBudget(per_second=0.1))  # (a slow machine's)

    async def asks(client: str, paths: list[str]) -> list[int]:
        transport = httpx.ASGITransport(app=app, client=(client, 1))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as ask:
            return [(await ask.get(path)).status_code for path in paths]

    flood = [f"/t/{9000 + n}/guess{n}" for n in range(60)]
    statuses = asyncio.run(asks("10.0.0.6", [*flood, web.table()]))
    assert statuses[:REQUESTS_AT_ONCE] == [404] * REQUESTS_AT_ONCE
    assert set(statuses[REQUESTS_AT_ONCE:]) == {429}  # the table's address too: it flooded
    table = asyncio.run(asks("10.0.0.7", [web.table()] * 100))
    assert table == [200] * 100  # a table's own requests are given back
