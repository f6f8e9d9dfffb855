"""How fast standings are for a big season: a year of club evenings holding ``--deals`` deals.

    python benchmarks/standings.py [--deals 100000] [--players 40] [--evenings 50]
                                   [--recorded 0.02] [--runs 5] [--db URL]

The database is built fast, with bulk inserts straight into the tables: weekly club evenings,
random pairings of the members, matches played out to the match target. Most deals are
quick results (a random winner and 1-3 game points, some draws); a fraction ``--recorded`` of
the matches are whole random legal matches from :func:`tally.engine.match.simulate_match`, stored
action by action as the scorer would have typed them. Then:

1. the result cache is rebuilt from the deals through the store's own code
   (``store.results.rebuild``: every recorded deal replayed by the engine), timed;
2. ``store.events.season_standings`` (the library call), best and median of
   ``--runs``;
3. ``tally standings --season`` as a whole process (start-up, imports, the query, the rich
   table), best and median of ``--runs``, and the CPU time the process itself used (user +
   system; on a machine other work loads, the wall-clock time can be several times that);
   target under 2 s for a million deals, on SQLite and on PostgreSQL (where the database
   server's own time is in the wall-clock figure, not in the process's CPU time).

The database is a fresh SQLite file in a temporary folder unless ``--db`` names another one
(for PostgreSQL: an empty database or schema).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import tally_cmd  # noqa: E402


def quick_match(
    rng: random.Random, a: int, b: int, target: int
) -> list[tuple[int | None, int, str]]:
    """A match of quick results: (winner, game points before the carry, reason) per deal,
    until one player reaches ``target`` with the carry of sixty-six (a draw adds 1)."""
    score = {a: 0, b: 0}
    carry = 0
    deals: list[tuple[int | None, int, str]] = []
    while max(score.values()) < target:
        if rng.random() < 0.05:
            deals.append((None, 0, "draw"))
            carry += 1
            continue
        winner = a if rng.random() < 0.5 else b
        points = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]
        deals.append((winner, points, "claim"))
        score[winner] += points + carry
        carry = 0
    return deals


def build(store: Any, args: argparse.Namespace) -> tuple[int, int, int]:
    """Fill the database; returns (matches, deals, recorded deals)."""
    from sqlalchemy import insert

    from tally.engine.match import simulate_match
    from tally.engine.rules import RuleSet
    from tally.store import tables as t
    from tally.store.derivation import stored_form

    rng = random.Random(args.seed)
    rules = RuleSet.preset("sixty-six")
    now = datetime.now(UTC)
    names = [f"Member {i:02d}" for i in range(1, args.players + 1)]
    players = [
        {"id": i, "name": n, "name_key": n.casefold(), "created_at": now}
        for i, n in enumerate(names, start=1)
    ]
    first_day = date(2026, 1, 8)
    events = [
        {
            "id": e,
            "name": f"Thursday club {e}",
            "kind": "club",
            "held_on": first_day + timedelta(weeks=e - 1),
            "rules": rules.spec,
            "double_round": False,
            "matches_per_pairing": 1,
            "match_points_per_win": 1.0,
            "bye": "none",
            "withdrawal": "forfeit",
            "rank_by": "percentage",
            "tiebreaks": "head-to-head,game-point-difference,game-points-won,sonneborn-berger,wins",
            "created_at": now,
        }
        for e in range(1, args.evenings + 1)
    ]
    event_players = [
        {"event_id": e["id"], "player_id": p["id"], "seed": p["id"], "withdrawn_at": None}
        for e in events
        for p in players
    ]
    matches: list[dict[str, Any]] = []
    deals: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    recorded = 0
    while len(deals) < args.deals:
        mid = len(matches) + 1
        a, b = rng.sample(range(1, args.players + 1), 2)
        matches.append(
            {
                "id": mid,
                "player_a_id": a,
                "player_b_id": b,
                "rules": rules.spec,
                "first_dealer_id": a,
                "created_at": now,
                "event_id": 1 + (mid - 1) % args.evenings,
                "round_number": None,
                "table_number": None,
            }
        )
        if rng.random() < args.recorded:
            for number, record in enumerate(
                simulate_match(rules, (names[a - 1], names[b - 1]), names[a - 1], rng), start=1
            ):
                turn_up, tags, items = stored_form(record)
                did = len(deals) + 1
                deals.append(
                    {
                        "id": did,
                        "match_id": mid,
                        "number": number,
                        "kind": "recorded",
                        "turn_up": turn_up,
                        "quick_winner_id": None,
                        "quick_points": None,
                        "quick_reason": None,
                        "tags": json.dumps(tags),
                        "created_at": now,
                    }
                )
                actions.extend(
                    {"deal_id": did, "seq": s, "trick": tr, "token": tok} for s, tr, tok in items
                )
                recorded += 1
            continue
        for number, (winner, points, reason) in enumerate(
            quick_match(rng, a, b, rules.match_target), start=1
        ):
            deals.append(
                {
                    "id": len(deals) + 1,
                    "match_id": mid,
                    "number": number,
                    "kind": "quick",
                    "turn_up": None,
                    "quick_winner_id": winner,
                    "quick_points": points,
                    "quick_reason": reason,
                    "tags": "{}",
                    "created_at": now,
                }
            )
    with store.engine.begin() as conn:
        for table, rows in (
            (t.players, players),
            (t.events, events),
            (t.event_players, event_players),
            (t.matches, matches),
            (t.deals, deals),
            (t.actions, actions),
        ):
            for start in range(0, len(rows), 20000):
                conn.execute(insert(table), rows[start : start + 20000])
        if conn.dialect.name == "postgresql":
            for table in ("players", "events", "matches", "deals", "actions"):
                conn.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT MAX(id) FROM {table}))"
                )
    return len(matches), len(deals), recorded


def analyze(store: Any) -> None:
    """Leave PostgreSQL as autovacuum would have by the end of a season (a bulk load leaves
    neither): the planner's statistics, and the visibility map that lets the standings read
    the result cache from its index alone (without it every index entry costs a heap fetch)."""
    if store.engine.dialect.name == "postgresql":
        with store.engine.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("VACUUM ANALYZE")


def timed(fn: Any, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def children_cpu() -> float:
    """User and system CPU seconds used so far by the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--evenings", type=int, default=50)
    ap.add_argument(
        "--recorded",
        type=float,
        default=0.02,
        help="fraction of matches stored action by action (default 0.02)",
    )
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=66)
    ap.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    args = ap.parse_args()

    from tally.store import open_store

    tmp = Path(tempfile.mkdtemp(prefix="tally-bench-"))
    url = args.db or f"sqlite:///{tmp / 'season.db'}"
    try:
        store = open_store(url, scorer="bench")
        t0 = time.perf_counter()
        n_matches, n_deals, n_recorded = build(store, args)
        print(
            f"built {n_deals:,} deals ({n_recorded:,} recorded action by action) in "
            f"{n_matches:,} matches of {args.evenings} club evenings, {args.players} "
            f"players: {time.perf_counter() - t0:.1f} s"
        )
        t0 = time.perf_counter()
        cached = store.results.rebuild()
        print(
            f"result cache rebuilt from the deals (store.results.rebuild): {cached:,} deals "
            f"in {time.perf_counter() - t0:.1f} s"
        )
        analyze(store)
        view = store.events.season_standings()
        assert sum(r.played for r in view.rows) == 2 * n_matches
        best, median = timed(lambda: store.events.season_standings(), args.runs)
        print(
            f"season_standings (library call): best {best * 1000:.0f} ms, median "
            f"{median * 1000:.0f} ms"
        )
        store.close()
        # as on a user's machine: compiled .pyc files written and used, output buffered
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
        }
        env["TALLY_DB"] = url
        baseline_run = subprocess.run(
            [*tally_cmd(), "player", "list"], env=env, capture_output=True, check=True
        )  # writes the .pyc
        del baseline_run

        def cli() -> None:
            done = subprocess.run(
                [*tally_cmd(), "standings", "--season"],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise SystemExit(f"tally standings --season failed: {done.stderr.strip()}")

        def baseline() -> None:
            subprocess.run(
                [*tally_cmd(), "player", "list"], env=env, capture_output=True, check=True
            )

        cpu = children_cpu()
        best, median = timed(cli, args.runs)
        cpu = (children_cpu() - cpu) / args.runs
        print(
            f"`tally standings --season` (whole process): best {best:.2f} s, median "
            f"{median:.2f} s, CPU {cpu:.2f} s a run (target under 2 s)"
        )
        best, median = timed(baseline, args.runs)
        print(
            f"  for comparison, `tally player list` on the same database: best {best:.2f} s, "
            f"median {median:.2f} s (start-up, imports, connecting)"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
