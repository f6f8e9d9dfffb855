"""Two real ``tally serve`` processes on one database (a SQLite file, and a PostgreSQL schema
when ``TALLY_TEST_DATABASE_URL`` is set): two phones at one table, each talking to its own
process, record a whole deal, first taking turns and then tapping the same card at the same
moment. Nothing interleaves, every refusal says the deal moved, every acknowledged action is
stored; the director's session and the standings' version are shared by both processes."""

from __future__ import annotations

import re
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("multipart")
pytest.importorskip("httpx")

import httpx

from tests.store_support import DRAW_DEAL, lines, tally_process
from tests.web_support import free_port

pytestmark = pytest.mark.slow

PIN = "135790"
#: a whole deal (conformance case sixty-six 0036, drawn), one card per tap
CARDS = [card.upper() for line in lines(DRAW_DEAL) for card in line.split()]
ALTERNATE = 8  # cards recorded by the phones in turn; the rest both tap at once


@dataclass
class Server:
    process: subprocess.Popen[str]
    base: str


@dataclass
class Phone:
    """A phone's browser: its own cookies (the CSRF token), one server process."""

    client: Any
    table: str

    def look(self) -> tuple[dict[str, str], list[str]]:
        """The play form's hidden fields and the tokens its buttons offer (the legal ones,
        not the hidden "another card was played" list); no fields once the deal is over."""
        res = self.client.get(self.table)
        assert res.status_code == 200, res.text
        form = re.search(
            r'<form method="post" action="[^"]*/play" class="play"[^>]*>(.*?)'
            r"(?:<details|</form>)",
            res.text,
            re.S,
        )
        if form is None:
            return {}, []
        fields = dict(
            re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form.group(1))
        )
        return fields, re.findall(r'name="token" value="([^"]+)"', form.group(1))

    def tap(self, token: str, fields: dict[str, str]) -> Any:
        return self.client.post(
            self.table + "/play",
            follow_redirects=False,
            data={
                "csrf": fields["csrf"],
                "token": token,
                "at": fields["at"],
                "last": fields["last"],
            },
        )


def _serve(url: str) -> Server:
    """Start ``tally serve`` on a free loopback port; returns once it answers."""
    port = free_port()
    proc = tally_process(
        url,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(
                f"tally serve exited {proc.returncode}: {proc.stderr.read() if proc.stderr else ''}"
            )
        try:
            if httpx.get(base + "/", timeout=1).status_code == 200:
                return Server(proc, base)
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("tally serve did not answer within 30 s")


@pytest.fixture
def evening(db_url: str) -> Iterator[tuple[str, int, int, list[Server]]]:
    """A round robin with round 1 started, the director's PIN set, and two server processes
    on its database: the URL, the event, a match of round 1, the servers."""
    from tally.store import open_store
    from tally.web.access import set_pin

    store = open_store(db_url, scorer="tester")
    try:
        for name in ("Anna", "Bert", "Cleo", "Dora"):
            store.players.add(name)
        ev = store.events.create(
            "Cup", kind="round-robin", players=["Anna", "Bert", "Cleo", "Dora"]
        )
        match = store.events.start_round(ev.id, 1).pairings[0].matches[0].match_id
        set_pin(store, PIN)
    finally:
        store.close()
    servers: list[Server] = []
    try:
        servers.append(_serve(db_url))
        servers.append(_serve(db_url))
        yield db_url, ev.id, match, servers
    finally:
        for server in servers:
            server.process.terminate()
            try:
                server.process.wait(10)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()


def _version(client: Any, event: int) -> int:
    res = client.get(f"/standings/{event}/live?lang=en&v=x")
    assert res.status_code == 200
    return int(res.json()["version"])


def _stored(url: str, match: int) -> Any:
    """The match's last deal as the database holds it, read by a store of its own."""
    from tally.store import open_store

    store = open_store(url, scorer="tester")
    try:
        return store.matches.state(match).deals[-1]
    finally:
        store.close()


def _both_tap(phones: list[Phone], card: str) -> list[Any]:
    """Both phones look at the deal, then tap ``card`` at the same moment."""
    barrier = threading.Barrier(len(phones), timeout=20)

    def go(phone: Phone) -> Any:
        fields, offered = phone.look()
        assert card in offered, (card, offered)
        barrier.wait()
        return phone.tap(card, fields)

    with ThreadPoolExecutor(len(phones)) as pool:
        return list(pool.map(go, phones))


def _check_refusal(res: Any) -> None:
    assert res.status_code == 409, res.text
    assert "Someone else recorded at this table meanwhile" in res.text


def test_two_processes_two_phones_one_table(evening: tuple[str, int, int, list[Server]]) -> None:
    from tally.store import open_store
    from tally.web.access import server_keys

    url, event, match, servers = evening
    store = open_store(url, scorer="tester")
    try:
        table = f"/t/{match}/{server_keys(store).table_secret(match)}"
    finally:
        store.close()
    clients = [httpx.Client(base_url=s.base, timeout=20) for s in servers]
    watchers = [httpx.Client(base_url=s.base, timeout=20) for s in servers]
    try:
        phones = [Phone(c, table) for c in clients]
        before = [_version(w, event) for w in watchers]
        assert before[0] == before[1]
        # the deal starts on one process and shows on the other
        start = re.findall(
            r'<input type="hidden" name="(\w+)" value="([^"]*)">', clients[0].get(table).text
        )
        fields = dict(start)
        res = clients[0].post(
            table + "/start",
            follow_redirects=False,
            data={
                "csrf": fields["csrf"],
                "turn_up": DRAW_DEAL[0],
                "at": fields["at"],
                "last": fields["last"],
            },
        )
        assert res.status_code == 303, res.text
        # in turn: each phone records one card on its own process; a tap from the page it
        # saw before the other phone's card came in is refused, never stored
        seen = [phone.look()[0] for phone in phones]
        for n, card in enumerate(CARDS[:ALTERNATE]):
            phone = phones[n % 2]
            if n > 0:
                _check_refusal(phone.tap(card, seen[n % 2]))
            fields, offered = phone.look()
            assert fields["at"].endswith(f":{n}") and card in offered
            res = phone.tap(card, fields)
            assert res.status_code == 303, res.text
            seen[n % 2] = fields
            deal = _stored(url, match)
            assert (deal.actions, deal.last_action) == (n + 1, card)
        # at once: both tap the same card; exactly one is stored, the other told it moved
        for n, card in enumerate(CARDS[ALTERNATE:], start=ALTERNATE):
            results = sorted(_both_tap(phones, card), key=lambda r: r.status_code)
            assert results[0].status_code == 303, results[0].text
            _check_refusal(results[1])
            deal = _stored(url, match)
            assert (deal.actions, deal.last_action) == (n + 1, card)
        deal = _stored(url, match)
        assert deal.finished and deal.winner is None and deal.actions == len(CARDS)
        for phone in phones:  # both pages: every trick played, only a claim could follow
            fields, offered = phone.look()
            assert fields["at"].endswith(f":{len(CARDS)}") and offered == ["66"]
        # the director's session, made on one process, works on the other
        for first, other in ((clients[0], clients[1]), (clients[1], clients[0])):
            assert other.get(f"/director/event/{event}").status_code == 403
            login = first.get("/director").text
            token = re.search(r'name="csrf" value="([^"]*)"', login)
            assert token is not None, login
            res = first.post(
                "/director/login", follow_redirects=False, data={"csrf": token.group(1), "pin": PIN}
            )
            assert res.status_code == 303, res.text
            session = {k: v for k, v in first.cookies.items() if k != "tally_csrf"}
            other.cookies.update(session)
            assert other.get(f"/director/event/{event}").status_code == 200
            for name in session:
                other.cookies.delete(name)
                first.cookies.delete(name)
        after = [_version(w, event) for w in watchers]
        assert after[0] == after[1] and after[0] > before[0]
    finally:
        for c in clients + watchers:
            c.close()
