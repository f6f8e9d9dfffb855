"""The exact solver's speed on full phase-2 positions: 6 against 6 in Sixty-Six, 5 against 5
in Schnapsen (the largest positions it meets: a close at the first lead, or the stock just
exhausted).

    python benchmarks/solver.py [--positions 500] [--seed 1]

Deals random hands from the deck, with a random trump, leader and, for half of them, a close
at the first lead (no points yet), for the rest points and tricks as after six (five) rounds of
drawing. Prints the median and worst time of one :func:`tally.analysis.solver.solve` (value and
principal line) per preset. The goal (issue 10): median at most 5 ms, worst at most 50 ms.

Then analyses ``--deals`` random legal deals per preset, recorded without ``Hands`` (so every
unproven card is sampled: the slowest case), with the default samples: median and worst
seconds of :func:`tally.analysis.findings.analyse` on one record. The goal: under 2 s a deal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tally.analysis.findings import analyse
from tally.analysis.solver import Position, solve
from tally.engine.deal import Deal
from tally.engine.kernel import DECK_MASKS, cards_in
from tally.engine.notation import read_deal, write_deal
from tally.engine.rules import RuleSet


def random_position(rng: random.Random, rules: RuleSet, closed: bool) -> Position:
    """Two full hands from a shuffled deck; closed at the first lead, or after the draws."""
    deck = cards_in(DECK_MASKS[rules.deck])
    rng.shuffle(deck)
    n = rules.hand
    hands = (sum(1 << c for c in deck[:n]), sum(1 << c for c in deck[n : 2 * n]))
    if closed:
        closer = rng.randrange(2)
        return Position(hands, closer, rng.randrange(4), closer=closer, at_close=((0, 0), (0, 0)))
    split = rng.randrange(0, 60)
    return Position(
        hands, rng.randrange(2), rng.randrange(4), points=(split, 60 - split), tricks=(3, 3)
    )


def measure(preset: str, count: int, seed: int) -> tuple[float, float]:
    """Median and worst seconds of one solve over ``count`` random positions."""
    rules = RuleSet.preset(preset)
    rng = random.Random(seed)
    times = []
    for i in range(count):
        pos = random_position(rng, rules, closed=i % 2 == 0)
        start = time.perf_counter()
        solve(pos, rules)
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def measure_analysis(preset: str, count: int, seed: int) -> tuple[float, float]:
    """Median and worst seconds of analysing one random legal deal of ``preset``."""
    rules = RuleSet.preset(preset)
    rng = random.Random(seed)
    times = []
    for _ in range(count):
        deal = Deal.random(rules, rng)
        deal.play_out_randomly(rng)
        record = read_deal(write_deal(deal.record()))
        start = time.perf_counter()
        analyse(record)
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=40)
    args = ap.parse_args()
    for preset in ("sixty-six", "schnapsen"):
        median, worst = measure(preset, args.positions, args.seed)
        print(
            f"{preset:10} solve: median {median * 1000:6.2f} ms, worst {worst * 1000:6.2f} ms "
            f"({args.positions} positions)"
        )
    for preset in ("sixty-six", "schnapsen", "pagat-66"):
        median, worst = measure_analysis(preset, args.deals, args.seed)
        print(
            f"{preset:10} analyse: median {median:6.3f} s, worst {worst:6.3f} s "
            f"({args.deals} random deals, no Hands)"
        )


if __name__ == "__main__":
    main()
