"""The director's pages in the room, against a table's tap, in one run (issue 35, item 7).

    python benchmarks/director_load.py [--players 32] [--rounds 12] [--db URL]

A knockout of ``--players`` players with three lives (the bundled 16-player Preisschnapsen,
grown), its rounds started and their results entered on paper through the director's pages
(the web application in this process, no network), up to ``--rounds`` rounds or the
champion. Then, timed by the clock in the same run (medians): a table's tap (a card's POST
and its page) in an open match, the director's event page, a paper result, starting a round,
a match page's first view and the standings sheet. Printed as ratios to the tap (targets:
the event page, a paper result and starting a round within 3x a tap; the sheet under 2 s).
The printing layer is warmed up first, as ``tally serve`` does while it starts; the sheet is
timed twice, by the clock and by the process' CPU time (which the machine's other load
disturbs less), with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
PIN = "482915"


def _event(store: Any, players: int) -> int:
    """A knockout of ``players`` players, three lives, the last four a straight knockout."""
    names = [f"Spielerin {i:02d}" for i in range(players)]
    for name in names:
        store.players.add(name)
    ev = store.events.create(
        "Preisschnapsen",
        kind="knockout",
        players=names,
        rules="schnapsen",
        lives=3,
        draw_seed="2026",
        final_size=4,
    )
    return int(ev.id)


class Director:
    """The director's browser (logged in) and a table's phone, timed."""

    def __init__(self, app: Any) -> None:
        import httpx

        self.client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
        )
        self.app = app
        self.csrf = ""
        self.times: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}  # the process' CPU time (all its threads)

    async def get(self, path: str, what: str | None = None) -> str:
        start = time.perf_counter(), time.process_time()
        res = await self.client.get(path)
        self._took(what, start)
        found = dict(HIDDEN.findall(res.text)).get("csrf")
        self.csrf = found or self.csrf
        return str(res.text)

    async def post(self, path: str, what: str | None = None, **data: str) -> Any:
        start = time.perf_counter(), time.process_time()
        res = await self.client.post(path, data={"csrf": self.csrf, **data})
        if res.status_code == 303:
            page = await self.client.get(res.headers["location"])
            self.csrf = dict(HIDDEN.findall(page.text)).get("csrf") or self.csrf
        self._took(what, start)
        return res

    def _took(self, what: str | None, start: tuple[float, float]) -> None:
        if what is not None:
            self.times.setdefault(what, []).append(time.perf_counter() - start[0])
            self.cpu.setdefault(what, []).append(time.process_time() - start[1])


async def _play(director: Director, store: Any, eid: int, rounds: int) -> None:
    """Start rounds and enter their results on paper (7:3 to the first player)."""
    for number in range(1, rounds + 1):
        res = await director.post(
            f"/director/event/{eid}/round", "start a round", round=str(number)
        )
        if res.status_code != 303:
            break
        await director.get(f"/director/event/{eid}", "the event page")
        for rnd in store.events.rounds(eid):
            if rnd.number != number:
                continue
            for pairing in rnd.pairings:
                for m in pairing.matches:
                    await director.post(
                        f"/director/match/{m.match_id}/result", "a paper result", score="7:3"
                    )


async def _taps(director: Director, store: Any, eid: int) -> int | None:
    """Ten taps at a table of an open match (a match of the event's last round, started anew
    when none is open); the match tapped."""
    open_ids = [m.id for m in store.matches.all(eid) if not m.over and m.deals == 0]
    if not open_ids:
        return None
    mid = open_ids[0]
    keys = director.app.state.site.keys
    page = f"/t/{mid}/{keys.table_secret(mid)}"
    html = await director.get(page)
    fields = dict(HIDDEN.findall(html))
    await director.post(page + "/start", at=fields["at"], turn_up="QH")
    for _ in range(10):
        html = await director.get(page)
        fields = dict(HIDDEN.findall(html))
        cards = re.findall(r'name="token" value="([^"]+)"', html.split("<details", 1)[0])
        plain = [
            c for c in cards if " " not in c and c not in ("swap", "close", "close-before-draw")
        ]
        if not plain:
            break
        await director.post(
            page + "/play", "a table's tap", at=fields["at"], last=fields["last"], token=plain[0]
        )
    return mid


async def measure(url: str, players: int, rounds: int) -> dict[str, Any]:
    from tally.sheets.render import warm_up
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    warm_up()  # as `tally serve` does while it starts
    store = open_store(url, scorer="director benchmark")
    eid = _event(store, players)
    set_pin(store, PIN)
    director = Director(create_app(store))
    try:
        await director.get("/director")
        await director.post("/director/login", pin=PIN)
        await _play(director, store, eid, rounds - 1)
        await director.post(f"/director/event/{eid}/round", "start a round", round=str(rounds))
        mid = await _taps(director, store, eid)
        for _ in range(5):
            html = await director.get(f"/director/event/{eid}", "the event page")
        size = len(html.encode())
        sheets = []  # (wall, CPU) of the standings sheet, twice
        for _ in range(2):
            start, cpu = time.perf_counter(), time.process_time()
            await director.client.get(f"/director/print/standings/{eid}.pdf")
            sheets.append((time.perf_counter() - start, time.process_time() - cpu))
        if mid is not None:  # (its analysis goes on in the background: timed last)
            await director.get(f"/director/match/{mid}", "a match page's first view")
        played = len(store.events.rounds(eid))
    finally:
        await director.client.aclose()
        store.close()
    return {
        "times": director.times,
        "cpu": director.cpu,
        "event_kb": size / 1024,
        "sheets": sheets,
        "rounds": played,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--db", help="a PostgreSQL URL (default: a fresh SQLite file)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'director.db'}"
        r = asyncio.run(measure(url, args.players, args.rounds))
    times = {k: 1000 * statistics.median(v) for k, v in r["times"].items()}
    cpu = {k: 1000 * statistics.median(v) for k, v in r["cpu"].items()}
    tap, tap_cpu = times.get("a table's tap", float("nan")), cpu.get("a table's tap", float("nan"))
    print(f"knockout of {args.players} players, {r['rounds']} rounds (medians, one run):")
    for what, ms in times.items():
        print(
            f"  {what}: {ms:.1f} ms = {ms / tap:.1f} x a tap; CPU {cpu[what]:.1f} ms = "
            f"{cpu[what] / tap_cpu:.1f} x a tap's  ({len(r['times'][what])} timed)"
        )
    print(f"  the event page: {r['event_kb']:.0f} KB")
    for n, (wall, cpu) in enumerate(r["sheets"], start=1):
        print(f"  the standings sheet, {n}: {wall:.2f} s by the clock, {cpu:.2f} s of CPU")
    print(f"  load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("  targets: event page, paper result, starting a round within 3x a tap; sheet < 2 s")


if __name__ == "__main__":
    main()
