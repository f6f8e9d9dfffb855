"""Load test of ``tally serve``: 16 tables, each recording one action a second, against one
server process (or several over one database: ``--processes N``, the phones spread over them
as a reverse proxy would).

    python benchmarks/serve_load.py [--tables 16] [--rate 1] [--processes 1] [--seconds 60 | --long]
        [--db URL] [--pin 0:1] [--wall] [--slow 16x64] [--pollers 20] [--flood 200]

``--rate`` is each table's taps a second (0.5: one every two seconds). ``--pin 0:1`` runs the
servers on processor 0 and this load generator on processor 1 (``taskset``), so that the
phones' own work does not count against the server. Printed beside the clock's figures: the
servers' processor time per acknowledged tap (read from ``/proc``), the steadier figure on a
shared machine.

Each table is a phone (its own HTTP client, cookies and CSRF token): on the table page its
last tap was sent back to (as ``static/taps.js`` shows it; read afresh only at the start of
a match or after a refusal) it taps a card the page offers (a random one), the turn-up of
the next deal when a deal is over, or moves on to its next match when a match is over, once
a second. The latency of a tap is the POST and the page it redirects to, as a phone waits for
it. At the end every acknowledged tap (a 303) must be in the audit log (one entry each):
"lost" counts those missing.

The server is ``tally serve`` started as a process on a loopback port. The database is a fresh
SQLite file unless ``--db`` names a PostgreSQL server, in which case a schema of its own is
made there and dropped afterwards. Default 60 s; ``--long`` runs 5 minutes. Target: p95 under
100 ms, no error, nothing lost. Only 127.0.0.1 is ever contacted.

A hostile guest on the Wi-Fi meanwhile (tests/hostile_support.py, from other loopback
addresses, 127.0.0.2 and up): ``--slow 16x64`` holds 64 slow connections from each of 16
addresses, ``--pollers 20`` asks for the wall's live part once a second from each of 20
addresses (never saying which version it has), ``--flood 200`` asks for table addresses that
do not exist, 200 a second from one address; ``--wall`` is the evening's own projector (one
poller). Compare the p95 with and without (docs/serve.md, "Safety on a shared Wi-Fi").
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import tally_cmd  # noqa: E402

HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
MATCHES_PER_TABLE = 12


@dataclass
class Table:
    """One phone: the addresses of its matches, in order, and what it measured."""

    urls: list[str]
    latencies: list[float] = field(default_factory=list)
    acknowledged: int = 0
    errors: dict[str, int] = field(default_factory=dict)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare(url: str, tables: int) -> list[Table]:
    """Players, a club evening and the matches of every table; the tables' addresses."""
    from tally.store import open_store
    from tally.web.access import server_keys

    store = open_store(url, scorer="load")
    try:
        names = [f"Player {i:02d}" for i in range(2 * tables)]
        for name in names:
            store.players.add(name)
        ev = store.events.create("Load test", players=names)
        keys = server_keys(store)
        out = []
        for t in range(tables):
            a, b = names[2 * t], names[2 * t + 1]
            mids = [
                store.matches.start(a, b, first_dealer=a if k % 2 == 0 else b, event=ev.id).id
                for k in range(MATCHES_PER_TABLE)
            ]
            out.append(Table([f"/t/{m}/{keys.table_secret(m)}" for m in mids]))
        return out
    finally:
        store.close()


def tap(client: Any, table: Table, path: str, rng: random.Random, html: str | None) -> str | None:
    """Tap something on the table page the phone shows (``html``: the page its last tap was
    sent back to, as ``static/taps.js`` shows it; None: read it first); the page it is sent
    back to now (None: read it again), or ``""`` when the match is over."""
    if html is None:
        html = client.get(path).text
    fields = dict(HIDDEN.findall(html))
    cards = re.findall(r'name="token" value="([^"]+)"', html.split("<details", 1)[0])
    turn_ups = re.findall(r'name="turn_up" value="([^"]+)"', html)
    if cards:
        plain = [  # (a claim of 66 is asked again when it is false: a phone taps cards)
            c
            for c in cards
            if " " not in c and c not in ("swap", "close", "close-before-draw", "66")
        ]
        choice, action, name = rng.choice(plain or cards), "/play", "token"
    elif turn_ups:
        choice, action, name = rng.choice(turn_ups), "/start", "turn_up"
    else:
        return ""
    data = {
        "csrf": fields.get("csrf", ""),
        "at": fields.get("at", ""),
        "last": fields.get("last", ""),
        name: choice,
    }
    start = time.perf_counter()
    res = client.post(path + action, data=data, follow_redirects=False)
    if res.status_code == 303:
        page = client.get(res.headers["location"])
        table.latencies.append(time.perf_counter() - start)
        table.acknowledged += 1
        return str(page.text)
    key = f"{res.status_code} {action}"
    table.errors[key] = table.errors.get(key, 0) + 1
    return None


def phone(
    base: str, table: Table, seconds: float, offset: float, seed: int, rate: float = 1.0
) -> None:
    """One table for ``seconds``: ``rate`` taps a second, starting ``offset`` seconds in."""
    import httpx

    rng = random.Random(seed)
    matches = list(table.urls)
    # each phone from an address of its own, as on the club's Wi-Fi (127.0.1.1 and up)
    own = httpx.HTTPTransport(local_address=f"127.0.{1 + seed // 250}.{1 + seed % 250}")
    with httpx.Client(base_url=base, timeout=30, transport=own) as client:
        start = time.monotonic() + offset
        n = 0
        html: str | None = None  # the page the phone shows
        while matches:
            due = start + n / rate
            if due - (start - offset) >= seconds:
                break
            time.sleep(max(0.0, due - time.monotonic()))
            n += 1
            try:
                html = tap(client, table, matches[0], rng, html)
                if html == "":
                    matches.pop(0)
                    html = None
            except httpx.HTTPError as exc:
                html = None
                key = type(exc).__name__
                table.errors[key] = table.errors.get(key, 0) + 1


def audited(url: str) -> int:
    """The audit entries written by the table pages."""
    from tally.store import open_store

    store = open_store(url, scorer="load")
    try:
        return sum(1 for a in store.audit.log() if a.scorer.startswith("web: table"))
    finally:
        store.close()


def cpu_seconds(pid: int) -> float:
    """The processor time (user and system) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(url: str, port: int, core: int | None = None) -> subprocess.Popen[bytes]:
    pinned = ["taskset", "-c", str(core)] if core is not None else []
    proc = subprocess.Popen(
        [
            *pinned,
            *tally_cmd(),
            "serve",
            "--db",
            url,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--pin",
            "123456",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    said = proc.stderr.read().decode() if proc.stderr else ""
    raise SystemExit(f"the server did not start: {said}")


def guests(args: argparse.Namespace, port: int, seconds: float) -> tuple[list[Any], Any]:
    """The hostile guests ``args`` asks for (jobs of tests/hostile_support.py) and what they
    counted."""
    from tests.hostile_support import Tally, loopback, requests_at, slow_connections

    base = f"http://127.0.0.1:{port}"
    counted = {"slow": Tally(), "wall": Tally(), "flood": Tally()}
    jobs: list[Any] = []
    if args.slow:
        addresses, each = (int(n) for n in args.slow.split("x"))
        slow = counted["slow"]
        jobs.append(
            lambda stop: slow_connections(port, loopback(addresses), each, seconds, stop, slow)
        )
    walls = loopback(args.pollers) + (["127.0.0.40"] if args.wall else [])
    for source in walls:
        jobs.append(
            lambda stop, s=source: requests_at(
                base, lambda n: "/standings/1/live", 1, seconds, s, stop, counted["wall"]
            )
        )
    for _ in range(4 if args.flood else 0):
        jobs.append(
            lambda stop: requests_at(
                base,
                lambda n: f"/t/{9000 + n}/x{n}",
                args.flood / 4,
                seconds,
                "127.0.0.30",
                stop,
                counted["flood"],
            )
        )
    return jobs, counted


def run(
    url: str, tables: int, seconds: float, processes: int = 1, args: Any = None
) -> dict[str, Any]:
    from tests.hostile_support import hostile

    setup = prepare(url, tables)
    ports = [free_port() for _ in range(processes)]
    server_core, phone_core = _cores(args)
    servers = [start_server(url, port, server_core) for port in ports]
    if phone_core is not None:
        os.sched_setaffinity(0, {phone_core})
    jobs, counted = guests(args, ports[0], seconds + 5) if args is not None else ([], {})
    rate = getattr(args, "rate", 1.0) or 1.0
    try:
        with hostile(*jobs):
            time.sleep(2.0 if jobs else 0.0)
            before = sum(cpu_seconds(s.pid) for s in servers)
            _phones(setup, ports, seconds, processes, rate)
            used = sum(cpu_seconds(s.pid) for s in servers) - before
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
    return {**_results(url, setup, counted), "server_cpu_s": used}


def _cores(args: Any) -> tuple[int | None, int | None]:
    """The processors ``--pin SERVER:PHONES`` names (None, None: not pinned)."""
    pin = getattr(args, "pin", None)
    if not pin:
        return None, None
    server, phones = pin.split(":")
    return int(server), int(phones)


def _phones(
    setup: list[Table], ports: list[int], seconds: float, processes: int, rate: float = 1.0
) -> None:
    """Every table tapping for ``seconds``, spread over the processes' ports."""
    tables = len(setup)
    threads = [
        threading.Thread(
            target=phone,
            args=(
                f"http://127.0.0.1:{ports[i % processes]}",
                t,
                seconds,
                i / tables / rate,
                i,
                rate,
            ),
        )
        for i, t in enumerate(setup)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def _results(url: str, setup: list[Table], counted: dict[str, Any]) -> dict[str, Any]:
    latencies = sorted(x for t in setup for x in t.latencies)
    acknowledged = sum(t.acknowledged for t in setup)
    errors: dict[str, int] = {}
    for t in setup:
        for k, v in t.errors.items():
            errors[k] = errors.get(k, 0) + v
    stored = audited(url)
    return {
        "taps": acknowledged,
        "stored": stored,
        "lost": max(0, acknowledged - stored),
        "errors": errors,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan"),
        "max_ms": 1000 * latencies[-1] if latencies else float("nan"),
        "guests": {k: dict(v.statuses) or {"cut": v.cut} for k, v in counted.items()},
    }


def pg_schema(base: str) -> tuple[str, Any]:
    """A fresh schema on the PostgreSQL server ``base`` and a function that drops it."""
    from sqlalchemy import create_engine

    from tests.store_support import pg_schema_url

    schema = "tally_load_" + uuid.uuid4().hex[:10]
    engine = create_engine(base)
    with engine.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')

    def drop() -> None:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        engine.dispose()

    return pg_schema_url(base, schema), drop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--rate", type=float, default=1.0, help="taps a second per table")
    ap.add_argument("--pin", metavar="SERVER:PHONES", help="processors, e.g. 0:1 (taskset)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--long", action="store_true", help="5 minutes")
    ap.add_argument("--db", help="a PostgreSQL URL (default: a fresh SQLite file)")
    ap.add_argument("--processes", type=int, default=1, help="tally serve processes")
    ap.add_argument("--wall", action="store_true", help="the evening's wall polls meanwhile")
    ap.add_argument("--slow", metavar="ADDRESSESxN", help="slow connections, e.g. 16x64")
    ap.add_argument("--pollers", type=int, default=0, help="hostile pollers of the wall")
    ap.add_argument("--flood", type=float, default=0, help="404 requests a second")
    args = ap.parse_args()
    seconds = 300.0 if args.long else args.seconds
    drop = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.db and args.db.startswith("postgresql"):
            url, drop = pg_schema(args.db)
        else:
            url = args.db or f"sqlite:///{Path(tmp) / 'load.db'}"
        env_note = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
        try:
            r = run(url, args.tables, seconds, args.processes, args)
        finally:
            if drop is not None:
                drop()
    taps = max(r["taps"], 1)
    print(
        f"tally serve x {args.processes}, {env_note}: {args.tables} tables x {args.rate:g} "
        f"taps/s for {seconds:.0f} s, pinned {args.pin or 'no'} (pid {os.getpid()}); "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"  taps acknowledged {r['taps']}, stored {r['stored']}, lost {r['lost']}, "
        f"errors {sum(r['errors'].values())} {r['errors'] or ''}"
    )
    print(
        f"  latency of a tap (POST + page): p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, "
        f"max {r['max_ms']:.1f} ms  (targets: p95 < 150 ms at 64 tables x 1/s, "
        "< 300 ms at 128 x 0.5/s; 0 errors, 0 lost)"
    )
    print(
        f"  server processor time per tap (POST + page): "
        f"{1000 * r['server_cpu_s'] / taps:.2f} ms  "
        f"({r['server_cpu_s']:.1f} s over {r['taps']} taps)"
    )
    print(f"  guests: {r['guests']}")


if __name__ == "__main__":
    main()
