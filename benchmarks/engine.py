"""Engine speed on one core: records replayed and ruled per second, random deals per second.

    python benchmarks/engine.py [--seconds 3] [--baseline DIR ...]

``--baseline DIR`` measures the same figures, in the same run and interleaved, with the
``tally`` package found in DIR (a checkout of main: ``git archive main tally | tar -x -C DIR``)
and prints them side by side, with the ratio of this tally to it; given more than once (the
version before the redesign, and main before a change), every tally is measured in each
round and the columns are named after the folders. (``tally check`` as a whole process, over
3,000 varied records: ``benchmarks/check.py``.)

Replays a fixed set of random legal Sixty-Six deals, written as a scorer would write them
(``.deal`` text), and reports:
- records ruled per second, records already read (the engine's replay and ruling);
- records read and ruled per second (the whole ``tally check`` path, text to ruling:
  :func:`tally.engine.ruling.rule_text`);
- random legal deals played per second, for each preset (``Deal.play_out_randomly``).

Every process this starts runs as on a user's machine: without ``PYTHONDONTWRITEBYTECODE``
and ``PYTHONUNBUFFERED`` (a sandbox may set them), so compiled ``.pyc`` files are written
once and then used, as in a real install.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tally.engine.deal import Deal
from tally.engine.notation import read_deal, write_deal
from tally.engine.rules import RuleSet
from tally.engine.ruling import rule, rule_text


def _rate(fn: object, items: list[object], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for item in items:
            fn(item)  # type: ignore[operator]
        n += len(items)
    return n / (time.perf_counter() - start)


def sample_records(preset: str, count: int, seed: int = 66) -> list[str]:
    """``count`` random legal deals of ``preset`` as ``.deal`` texts."""
    rules = RuleSet.parse(preset)
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        deal = Deal.random(rules, rng)
        deal.play_out_randomly(rng)
        texts.append(write_deal(deal.record()))
    return texts


def random_deals_per_second(preset: str, seconds: float, seed: int = 1) -> float:
    """Random legal deals of ``preset`` played to the end per second (no history kept)."""
    rules = RuleSet.parse(preset)
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        Deal.random(rules, rng, keep_history=False).play_out_randomly(rng)
        n += 1
    return n / (time.perf_counter() - start)


def user_env(**extra: str) -> dict[str, str]:
    """This process's environment as a user's machine has it, plus ``extra``: without
    ``PYTHONDONTWRITEBYTECODE`` (so ``.pyc`` files are written and used) and
    ``PYTHONUNBUFFERED``, which a sandbox may set."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
    }
    env.update(extra)
    return env


def figures(seconds: float) -> dict[str, float]:
    """Every figure of this benchmark, with the tally importable here."""
    texts = sample_records("sixty-six", 500)
    records = [read_deal(t) for t in texts]
    out = {
        "records ruled per second (read already)": _rate(rule, records, seconds),  # type: ignore[arg-type]
        "records read and ruled per second": _rate(rule_text, texts, seconds),
    }  # type: ignore[arg-type]
    for preset in ("sixty-six", "schnapsen", "pagat-66"):
        out[f"{preset} random legal deals per second"] = random_deals_per_second(preset, seconds)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument(
        "--baseline",
        type=Path,
        action="append",
        default=[],
        help="a folder holding a tally to compare with (may be given again)",
    )
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(figures(args.seconds)))
        return
    if not args.baseline:
        for name, value in figures(args.seconds).items():
            print(f"{name}: {value:,.0f}")
        return
    # each tally by its folder's name, "this" last
    envs = {
        folder.resolve().name: user_env(PYTHONPATH=str(folder.resolve()))
        for folder in args.baseline
    }
    envs["this"] = user_env(PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    runs: dict[str, list[dict[str, float]]] = {which: [] for which in envs}
    for _ in range(args.rounds):  # interleaved, so that all see the same machine
        for which, env in envs.items():
            out = subprocess.run(
                [sys.executable, __file__, "--json", "--seconds", str(args.seconds)],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            runs[which].append(json.loads(out))
    others = [which for which in envs if which != "this"]
    print(
        f"{'median of ' + str(args.rounds) + ' interleaved rounds':56} "
        + "".join(f"{which[:10]:>11}" for which in envs)
        + "".join(f" {'/' + which[:9]:>10}" for which in others)
    )
    for name in runs["this"][0]:
        medians = {which: statistics.median(r[name] for r in runs[which]) for which in envs}
        print(
            f"{name:56} "
            + "".join(f"{value:11,.0f}" for value in medians.values())
            + "".join(f" {medians['this'] / medians[which]:10.2f}" for which in others)
        )


if __name__ == "__main__":
    main()
