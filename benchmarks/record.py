"""How fast a scorer can record: one action through the CLI, and a stream of actions through
one interactive ``tally deal record`` process.

    python benchmarks/record.py [--runs 15] [--actions 600] [--target 21] [--db URL]

- ``tally deal play MATCH CARD`` as a whole process (start-up, imports, database, engine,
  commit), median and best of ``--runs``, and its ratio to ``python -c pass`` timed
  interleaved; target under 0.5 s and at most 6 times ``python -c pass`` (issue 9).
- actions per second through ``tally deal record MATCH`` with its input piped: whole random
  legal deals (``Deal.random`` + ``legal_actions``), one action per line, deal after deal
  until the match is over, then new matches until ``--actions`` actions were sent; target over
  200 per second.

The database is a fresh SQLite file in a temporary folder unless ``--db`` names another one
(for PostgreSQL: an empty database or schema).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import tally_cmd  # noqa: E402

from tests.store_support import random_match_deals  # noqa: E402  (random legal deals, typed)


def run(args: list[str], env: dict[str, str], stdin: str | None = None) -> str:
    done = subprocess.run(
        [*tally_cmd(), *args], input=stdin, capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"tally {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--actions", type=int, default=600)
    ap.add_argument(
        "--target",
        type=int,
        default=21,
        help="match target of the interactive matches (longer matches: more "
        "actions through one process)",
    )
    ap.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tally-bench-"))
    env = dict(
        os.environ, TALLY_DB=args.db or f"sqlite:///{tmp / 'bench.db'}", TALLY_SCORER="bench"
    )
    try:
        run(["init"], env)
        run(["player", "add", "Anna", "Bert"], env)

        # 1. One action through the CLI as a whole process: a card, then its undo (not timed).
        run(["match", "start", "Anna", "Bert", "--dealer", "Anna"], env)
        run(["deal", "start", "1", "QH"], env)
        times = []
        bare = []  # python -c pass, interleaved: the ratio is what compares across machines
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            bare.append(time.perf_counter() - start)
            start = time.perf_counter()
            run(["deal", "play", "1", "KS"], env)
            times.append(time.perf_counter() - start)
            run(["deal", "undo", "1"], env)
        ratio = statistics.median(times) / statistics.median(bare)
        print(
            f"one action, whole process (tally deal play): median "
            f"{statistics.median(times):.3f} s = {ratio:.1f} x python -c pass, best "
            f"{min(times):.3f} s over {args.runs} runs (target < 0.5 s and <= 6 x)"
        )

        # 2. Actions per second through one interactive process per match (a long one:
        # match_target=21 by default): random legal deals, fed until the match is over (the
        # command stops there; the lines left are not read).
        recorded = 0
        elapsed = 0.0
        match = 1
        while recorded < args.actions:
            match += 1
            run(
                [
                    "match",
                    "start",
                    "Anna",
                    "Bert",
                    "--dealer",
                    "Anna",
                    "--rules",
                    f"sixty-six match_target={args.target}",
                ],
                env,
            )
            deals = random_match_deals(seed=match, actions=100 * args.target)
            feed = [line for deal in deals for line in deal]
            start = time.perf_counter()
            out = run(["deal", "record", str(match)], env, stdin="\n".join(feed) + "\n")
            elapsed += time.perf_counter() - start
            if "Refused" in out:
                i = out.index("Refused")
                raise SystemExit("a generated action was refused:\n" + out[i - 1500 : i + 300])
            recorded += out.count("Recorded ")
        print(
            f"interactive (tally deal record, input piped): {recorded} actions in "
            f"{elapsed:.2f} s = {recorded / elapsed:.0f} actions/s, whole processes "
            f"(target > 200)"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
