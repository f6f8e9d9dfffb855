"""One tap on a table page, measured in this process: the statements it sends to the database,
its processor time, and (``--profile``) where that time goes.

    python benchmarks/tap_profile.py [--taps 200] [--db URL] [--profile]

A tap is what a phone does: the POST of a card (or of the next deal's turn-up) and the table
page it is sent back to. Several matches are played at random through the web application (the
test client, no network), each tap timed with the processor clock; the statements are counted
with SQLAlchemy's ``before_cursor_execute`` event. Printed: the median processor time of a tap
mid-deal (target under 5 ms), the statements of a tap (POST and page) and, with ``--profile``,
the functions that take the most of it (cProfile, cumulative).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
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


def table(url: str, matches: int) -> tuple[Any, Any, list[str]]:
    """A store with ``matches`` matches, the web application and the matches' table pages."""
    from tally.store import open_store
    from tally.web.server import create_app

    store = open_store(url, scorer="profile")
    for name in ("Anna", "Bert"):
        store.players.add(name)
    ev = store.events.create("Club night", players=["Anna", "Bert"])
    mids = [
        store.matches.start("Anna", "Bert", first_dealer="Anna", event=ev.id).id
        for _ in range(matches)
    ]
    app = create_app(store)
    keys = app.state.site.keys
    return store, app, [f"/t/{m}/{keys.table_secret(m)}" for m in mids]


def next_tap(html: str, rng: random.Random) -> tuple[str, dict[str, str]] | None:
    """What a phone taps on the page ``html``: a card (an action when no card is offered), the
    next turn-up; None when the match is over."""
    fields = dict(HIDDEN.findall(html))
    cards = re.findall(r'name="token" value="([^"]+)"', html.split("<details", 1)[0])
    plain = [c for c in cards if " " not in c and c not in ("swap", "close", "close-before-draw")]
    base = {k: fields.get(k, "") for k in ("csrf", "at", "last")}
    if cards:
        return "/play", {**base, "token": rng.choice(plain or cards)}
    turn_ups = re.findall(r'name="turn_up" value="([^"]+)"', html)
    if turn_ups:
        return "/start", {**base, "turn_up": rng.choice(turn_ups)}
    return None


def measure(url: str, taps: int, profile: bool) -> dict[str, Any]:
    """Tap ``taps`` times mid-deal; the processor time and the statements of each tap."""
    return asyncio.run(_measure(url, taps, profile))


async def _inline(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """A store call run in the profiled thread (cProfile sees one thread only)."""
    return fn(*args, **kwargs)


async def _measure(url: str, taps: int, profile: bool) -> dict[str, Any]:
    import httpx
    import starlette.concurrency
    from sqlalchemy import event

    store, app, pages = table(url, max(1, taps // 20))
    if profile:
        starlette.concurrency.run_in_threadpool = _inline  # type: ignore[assignment]
    transport = httpx.ASGITransport(app=app)
    client = httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")
    counted = [0]

    def count(*_: Any) -> None:
        counted[0] += 1

    event.listen(store.engine, "before_cursor_execute", count)
    rng = random.Random(7)
    times: list[float] = []
    statements: list[int] = []
    page_kb: list[float] = []
    prof = cProfile.Profile() if profile else None
    html = (await client.get(pages[0])).text
    try:
        while pages and len(times) < taps:
            chosen = next_tap(html, rng)
            if chosen is None:
                pages.pop(0)
                html = (await client.get(pages[0])).text if pages else ""
                continue
            action, data = chosen
            counted[0] = 0
            start = time.process_time()
            if prof is not None and action == "/play":
                prof.enable()
            res = await client.post(pages[0] + action, data=data)
            if res.status_code == 303:
                res = await client.get(res.headers["location"])
            html = res.text
            if prof is not None:
                prof.disable()
            if action == "/play":  # mid-deal: a card, not the turn-up of a new deal
                times.append(time.process_time() - start)
                statements.append(counted[0])
                page_kb.append(len(html.encode()) / 1024)
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
        await client.aclose()
        store.close()
    return {"times": times, "statements": statements, "kb": page_kb, "profile": prof}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--taps", type=int, default=200)
    ap.add_argument("--db", help="a PostgreSQL URL (default: a fresh SQLite file)")
    ap.add_argument("--profile", action="store_true", help="where a tap's time goes (cProfile)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'tap.db'}"
        r = measure(url, args.taps, args.profile)
    ms = [1000 * x for x in r["times"]]
    print(f"{len(ms)} taps mid-deal (a card's POST and the table page it leads to):")
    print(
        f"  processor time of a tap: median {statistics.median(ms):.2f} ms, "
        f"p95 {sorted(ms)[int(0.95 * (len(ms) - 1))]:.2f} ms  (target: median under 5 ms)"
    )
    print(
        f"  statements of a tap: median {statistics.median(r['statements']):.0f}, "
        f"max {max(r['statements'])}"
    )
    print(f"  table page: max {max(r['kb']):.1f} KB  (target under 30 KB)")
    if r["profile"] is not None:
        pstats.Stats(r["profile"]).sort_stats("cumulative").print_stats(35)


if __name__ == "__main__":
    main()
