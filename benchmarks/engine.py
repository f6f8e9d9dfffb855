"""Engine speed on one core: records replayed and ruled per second, random deals per second.

    python benchmarks/engine.py [--seconds 3]

Replays a fixed set of random legal Sixty-Six deals, written as a scorer would write them
(``.deal`` text), and reports:
- records ruled per second, records already read (the engine's replay and ruling);
- records read and ruled per second (the whole ``tally check`` path, text to ruling);
- random legal deals played per second, for each preset.
"""

from __future__ import annotations

import argparse
import random
import time

from tally.deal import Deal
from tally.notation import read_deal, write_deal
from tally.rules import RuleSet
from tally.ruling import rule


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    texts = sample_records("sixty-six", 500)
    records = [read_deal(t) for t in texts]
    print(f"sixty-six records ruled per second (read already): "
          f"{_rate(rule, records, args.seconds):,.0f}")  # type: ignore[arg-type]
    print(f"sixty-six records read and ruled per second:       "
          f"{_rate(lambda t: rule(read_deal(t)), texts, args.seconds):,.0f}")  # type: ignore[arg-type]
    for preset in ("sixty-six", "schnapsen", "pagat-66"):
        print(f"{preset} random legal deals played per second: "
              f"{random_deals_per_second(preset, args.seconds):,.0f}")


if __name__ == "__main__":
    main()
