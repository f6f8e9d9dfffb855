"""How fast ratings are recomputed for a big season: the season of ``benchmarks/standings.py``.

    python benchmarks/ratings.py [--deals 100000] [--players 40] [--evenings 50]
                                 [--recorded 0.02] [--runs 5] [--db URL]

The database is built as ``benchmarks/standings.py`` builds it (weekly club evenings, random
pairings, matches played out to the target, most deals quick results), the result cache is
rebuilt through the store, and then:

1. ``store.ratings.table`` (the library call: the query of the finished matches
   and every match rated again by OpenSkill, in match order), best and median of ``--runs``;
   target under 2 s for 100,000 deals;
   with the CPU time of the process beside it (on a machine shared with other work the wall
   time is mostly waiting for a core);
2. the same split: the query alone (``store.ratings.rated_matches``) and the
   rating alone (:func:`tally.events.ratings.rate`);
3. ``tally ratings`` as a whole process, best and median of ``--runs``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import tally_cmd  # noqa: E402
from standings import analyze, build, timed  # noqa: E402


def cpu_time(fn: Any, runs: int) -> float:
    """The least CPU time of this process over ``runs`` calls: on a machine shared with other
    work, the part of the wall time that is this program's own."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


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

    from tally.events.ratings import rate
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
        store.results.rebuild()
        analyze(store)
        view = store.ratings.table()
        assert view.matches_rated == n_matches, (view.matches_rated, n_matches)
        assert sum(r.matches for r in view.rows) == 2 * n_matches
        best, median = timed(lambda: store.ratings.table(), args.runs)
        cpu = cpu_time(lambda: store.ratings.table(), args.runs)
        print(
            f"ratings (library call: query + {n_matches:,} matches rated): best "
            f"{best:.2f} s, median {median:.2f} s (target under 2 s); CPU time of this "
            f"process, best {cpu:.2f} s"
        )
        best, median = timed(lambda: store.ratings.rated_matches(), args.runs)
        print(f"  the query alone: best {best:.2f} s, median {median:.2f} s")
        found, names = store.ratings.rated_matches()
        best, median = timed(lambda: rate(found, name=names.__getitem__, history=False), args.runs)
        print(f"  the rating alone (OpenSkill): best {best:.2f} s, median {median:.2f} s")
        store.close()
        env = dict(os.environ, TALLY_DB=url)

        def cli() -> None:
            done = subprocess.run(
                [*tally_cmd(), "ratings"], env=env, capture_output=True, text=True, check=False
            )
            if done.returncode != 0:
                raise SystemExit(f"tally ratings failed: {done.stderr.strip()}")

        best, median = timed(cli, args.runs)
        print(f"`tally ratings` (whole process): best {best:.2f} s, median {median:.2f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
