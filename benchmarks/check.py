"""``tally check`` over 3,000 varied records as a whole process: records a second.

    python benchmarks/check.py [--records 3000] [--runs 5] [--seed 3]

The records are made here, as a scorer's editor or a script would hand them over: random legal
Sixty-Six deals (played out by :meth:`Deal.play_out_randomly`, so with exchanges, marriages,
closes and claims), and, of every ten, one with two cards of different tricks swapped (many
become a revoke proved later, some an impossible record), one with a claim made too early (a
false claim), one with a card that is no card or a card played twice (a record that cannot be
read or cannot have happened) and one cut short (a deal not over). The mix found is printed
from ``tally check --json``'s own answer.

Timed, interleaved run by run: ``tally check --json`` over all the records, ``tally check``
(the words) over all of them, and ``tally check`` on one record (its start-up). Printed: the
median of each, records a second for the whole process (start-up included) and without the
start-up, by the clock and in processor time (user and system: on a machine other work loads,
the clock's figure falls with the load, the processor time's much less). Target
(docs/performance.md): at least 3,000 records a second, whole process. Every process runs as
on a user's machine (compiled ``.pyc`` files written and used).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tally.engine.deal import Deal
from tally.engine.notation import write_deal
from tally.engine.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]
CARD = re.compile(r"^(?:9|10|[JQKA])[CDHS]$")
TARGET = 3000.0


def legal_record(rng: random.Random) -> str:
    """A random legal Sixty-Six deal, as ``.deal`` text."""
    deal = Deal.random(RuleSet.parse("sixty-six"), rng)
    deal.play_out_randomly(rng)
    return write_deal(deal.record())


def varied(text: str, kind: int, rng: random.Random) -> str:
    """``text`` as is (kind 0-5); with the last cards of two of the last tricks swapped,
    where suit must be followed (6); with a claim after an early trick (7); with a card that
    is no card or was played already (8); cut short (9)."""
    head, _, body = text.partition("\n\n")
    lines = [line for line in body.splitlines() if line.strip()]
    moves = [line.split() for line in lines]
    if kind <= 5 or len(moves) < 4:
        return text
    if kind == 6:  # the second card of two of the last tricks, where suit must be followed
        i, j = sorted(rng.sample(range(max(0, len(moves) - 6), len(moves)), 2))
        ci = [k for k, tok in enumerate(moves[i]) if CARD.match(tok)]
        cj = [k for k, tok in enumerate(moves[j]) if CARD.match(tok)]
        if ci and cj:
            a, b = ci[-1], cj[-1]
            moves[i][a], moves[j][b] = moves[j][b], moves[i][a]
    elif kind == 7:
        cut = rng.randrange(1, 4)
        moves = moves[:cut]
        moves[-1] = [tok for tok in moves[-1] if tok != "66"] + ["66"]
    elif kind == 8:
        i = rng.randrange(1, len(moves))
        cards = [k for k, tok in enumerate(moves[i]) if CARD.match(tok)]
        if cards:
            moves[i][cards[0]] = rng.choice(
                ["1X", "ZZ", moves[0][-1] if CARD.match(moves[0][-1]) else "QQ"]
            )
    else:
        moves = moves[: rng.randrange(2, len(moves))]
        moves[-1] = [tok for tok in moves[-1] if tok != "66"]
    return head + "\n\n" + "\n".join(" ".join(m) for m in moves) + "\n"


def make_records(folder: Path, count: int, seed: int) -> list[str]:
    """Write ``count`` varied records into ``folder``; their paths."""
    rng = random.Random(seed)
    paths = []
    for i in range(count):
        path = folder / f"r{i:05}.deal"
        path.write_text(varied(legal_record(rng), i % 10, rng), encoding="utf-8")
        paths.append(str(path))
    return paths


def mix(paths: list[str], env: dict[str, str]) -> Counter[str]:
    """What ``tally check --json`` found in the records: errors, violations (a revoke and
    the like), false claims, deals not over, and the marriages and closes they hold."""
    done = subprocess.run(
        [*tally(), "check", "--json", *paths], env=env, capture_output=True, text=True
    )
    found: Counter[str] = Counter()
    for line, path in zip(done.stdout.splitlines(), paths, strict=True):
        report = json.loads(line)
        text = Path(path).read_text(encoding="utf-8")
        found["with an error"] += bool(report.get("errors"))
        found["with a violation"] += bool(report.get("violations"))
        found["with a marriage"] += bool(re.search(r"(^|\s)(20|40)\s", text, re.M))
        found["with a close"] += " close " in f" {text} "
        reason = (report.get("outcome") or {}).get("reason")
        found["with a false claim"] += reason == "false-claim"
        found["not over"] += reason == "incomplete"
    return found


def tally() -> list[str]:
    return [sys.executable, "-c", "from tally.cli import main; main()"]


def children_cpu() -> float:
    """User and system seconds used so far by the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall time and the processor time of ``tally ARGS``."""
    cpu = children_cpu()
    start = time.perf_counter()
    subprocess.run([*tally(), *args], env=env, capture_output=True, cwd=tempfile.gettempdir())
    return time.perf_counter() - start, children_cpu() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
    }
    env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        paths = make_records(Path(tmp), args.records, args.seed)
        found = mix(paths, env)
        print(f"{len(paths):,} records: " + ", ".join(f"{n:,} {what}" for what, n in found.items()))
        times: dict[str, list[tuple[float, float]]] = {"json": [], "words": [], "one": []}
        for _ in range(args.runs):
            times["json"].append(timed(["check", "--json", *paths], env))
            times["words"].append(timed(["check", *paths], env))
            times["one"].append(timed(["check", paths[0]], env))
    for k, clock in ((0, "by the clock"), (1, "in processor time")):
        one = statistics.median(t[k] for t in times["one"])
        print(f"{clock}: tally check ONE.deal (start-up) median {one:.3f} s")
        for name, label in (("json", "tally check --json ALL"), ("words", "tally check ALL")):
            median = statistics.median(t[k] for t in times[name])
            rest = (len(paths) - 1) / max(median - one, 1e-9)
            print(
                f"  {label:24s} median {median:.3f} s: {len(paths) / median:,.0f} records/s "
                f"whole process (target >= {TARGET:,.0f}), {rest:,.0f} without the start-up"
            )


if __name__ == "__main__":
    main()
