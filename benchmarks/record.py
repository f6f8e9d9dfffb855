"""How fast a scorer can record: one action through the CLI, and a stream of actions through
one interactive ``tally deal record`` process.

    python benchmarks/record.py [--runs 15] [--actions 600] [--db URL]

- ``tally deal play MATCH CARD`` as a whole process (start-up, imports, database, engine,
  commit), median and best of ``--runs``; target under 0.5 s.
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
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tally.cards import CARDS, Card
from tally.deal import Action, Claim, Close, Deal, Draw, Exchange, Marriage
from tally.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]


def tally_cmd() -> list[str]:
    exe = shutil.which("tally", path=str(Path(sys.executable).parent)) or shutil.which("tally")
    return [exe] if exe else [sys.executable, "-m", "tally"]


def run(args: list[str], env: dict[str, str], stdin: str | None = None) -> str:
    done = subprocess.run([*tally_cmd(), *args], input=stdin, capture_output=True, text=True,
                          env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"tally {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def deal_lines(rules: RuleSet, rng: random.Random, dealer: str, forehand: str) -> list[str]:
    """A random legal deal as a scorer types it into ``tally deal record``: the turn-up, then
    one item per line, and an empty line when the deal ends without a claim (the prompt that
    offers a claim after the last trick)."""
    deal = Deal.random(rules, rng, names=(forehand, dealer))
    lines = [str(CARDS[deal.turn_up])]
    while not deal.is_over:
        actions = deal.legal_actions()
        claims = [a for a in actions if isinstance(a, Claim)]
        closes = [a for a in actions if isinstance(a, Close)]
        action: Action | Card
        if claims and rng.random() < 0.8:
            action = claims[0]
        elif closes and rng.random() < 0.03:
            action = closes[0]
        elif any(isinstance(a, Draw) for a in actions):
            deal.draw()  # nothing to type: the draws happen when the next card is played
            continue
        else:
            action = rng.choice([a for a in actions if not isinstance(a, Claim | Close)])
        if isinstance(action, Claim):
            lines.append("66")
        elif isinstance(action, Marriage):
            lines.append(f"{action.points} {action.card}")
        elif isinstance(action, Exchange):
            lines.append("swap")
        elif isinstance(action, Close):
            # A close after the draws is typed with the card led: "close 10D".
            lines.append("close" if action.before_draws or deal.trick == 1 else "close ")
        else:
            lines.append(str(action))
        if len(lines) > 1 and lines[-2] == "close ":
            lines[-2:] = ["close " + lines[-1]]
        deal.apply(action)
    if not deal.claimed:
        lines.append("")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--actions", type=int, default=600)
    ap.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tally-bench-"))
    env = dict(os.environ, TALLY_DB=args.db or f"sqlite:///{tmp / 'bench.db'}",
               TALLY_SCORER="bench")
    try:
        run(["init"], env)
        run(["player", "add", "Anna", "Bert"], env)

        # 1. One action through the CLI as a whole process: a card, then its undo (not timed).
        run(["match", "start", "Anna", "Bert", "--dealer", "Anna"], env)
        run(["deal", "start", "1", "QH"], env)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            run(["deal", "play", "1", "KS"], env)
            times.append(time.perf_counter() - start)
            run(["deal", "undo", "1"], env)
        print(f"one action, whole process (tally deal play): median "
              f"{statistics.median(times):.3f} s, best {min(times):.3f} s "
              f"over {args.runs} runs (target < 0.5 s)")

        # 2. Actions per second through one interactive process per match: random legal
        # deals, fed until the match is over (the command stops there; extra lines are unread).
        rng = random.Random(66)
        rules = RuleSet.preset("sixty-six")
        recorded = 0
        elapsed = 0.0
        match = 1
        while recorded < args.actions:
            match += 1
            run(["match", "start", "Anna", "Bert", "--dealer", "Anna"], env)
            feed: list[str] = []
            dealer, forehand = "Anna", "Bert"
            for _ in range(30):
                feed += deal_lines(rules, rng, dealer, forehand)
                dealer, forehand = forehand, dealer
            start = time.perf_counter()
            out = run(["deal", "record", str(match)], env, stdin="\n".join(feed) + "\n")
            elapsed += time.perf_counter() - start
            if "Refused" in out:
                i = out.index("Refused")
                raise SystemExit("a generated action was refused:\n" + out[i - 1500:i + 300])
            recorded += out.count("\nRecorded ")
        print(f"interactive (tally deal record, input piped): {recorded} actions in "
              f"{elapsed:.2f} s = {recorded / elapsed:.0f} actions/s, whole processes "
              f"(target > 200)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
