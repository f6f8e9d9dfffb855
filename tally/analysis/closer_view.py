"""A close judged by what the closer knew when closing, not by hindsight.

At the close the closer saw their own hand, the cards played, the card lying face up and
what the opponent showed (the partners of their marriages, the turn-up they took by exchange:
:func:`tally.engine.evidence.shown_before`). Every deal consistent with that is equally likely to
them: the opponent's other cards are any of the unseen ones, the rest lies in the stock in any
order. :func:`closer_view` samples such deals (seeded), solves the close exactly in each
(:func:`tally.analysis.closing.close_value`) and values not closing at that moment in the same deals
(:func:`tally.analysis.closing.playing_on`: the exact value of the closer not closing now, free to
close later, with both hands and the stock's order of the deal known, where few enough cards are
left, :data:`tally.analysis.closing.EXACT_PLAY_ON_CARDS`: Schnapsen at every lead, Sixty-Six and
pagat-66 from the fourth; else estimated by the rollout policy, not a bound), so both figures
are compared on the same deals.

The figures are means over ``samples`` deals; ``margin`` is twice the standard error of the
mean value of closing (about 95%): another seed gives a mean within about that distance.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations, permutations

from tally.analysis.closing import Opening, close_and_play_on, exact_play_on
from tally.analysis.stack import own_stack
from tally.engine.kernel import cards_in
from tally.engine.rules import RuleSet

#: Deals sampled for the closer's view (each needs a solve of the close and one of playing on).
CLOSER_SAMPLES = 40


@dataclass(frozen=True)
class CloserView:
    """The close as the closer saw it: over ``samples`` deals consistent with what they had
    seen, the share the close wins with best play, the mean game points of closing and of
    playing on (for the closer; negative: the opponent's)."""

    player: str
    trick: int
    samples: int
    seed: int
    exact: bool
    success: float
    close_value: float
    play_on: float
    margin: float
    #: whether playing on was solved exactly in each deal (else estimated by the rollout)
    play_on_exact: bool = True

    @property
    def sound(self) -> bool:
        """Sound by what the closer knew: closing was worth at least playing on, and won in
        most of the deals the closer had to reckon with."""
        return self.success > 0.5 and self.close_value >= self.play_on


@dataclass(frozen=True)
class Seen:
    """The close's moment as the closer saw it; players 0 and 1, ``closer`` leading."""

    closer: int
    trump: int
    own: int
    shown: int
    unseen: int
    lying: int
    points: tuple[int, int]
    marriages: tuple[int, int]
    tricks: tuple[int, int]


def _opening(seen: Seen, opp_hand: int, stock: list[int]) -> Opening:
    hands = [0, 0]
    hands[seen.closer], hands[1 - seen.closer] = seen.own, opp_hand
    return Opening(
        seen.closer,
        seen.trump,
        (hands[0], hands[1]),
        (*stock, *([seen.lying] if seen.lying >= 0 else [])),
        seen.points,
        seen.marriages,
        seen.tricks,
    )


def deals(
    seen: Seen, samples: int, seed: int, orders: bool = True
) -> tuple[list[tuple[int, list[int]]], bool]:
    """The opponent's hand and the stock's order in ``samples`` deals consistent with
    ``seen``, and whether they are all of them (few enough: each opponent hand once, with
    each order of the face-down stock when ``orders``, else the stock in one order)."""
    pool = cards_in(seen.unseen)
    need = seen.own.bit_count() - seen.shown.bit_count()
    ways = math.factorial(len(pool) - need) if orders else 1
    if math.comb(len(pool), need) * ways <= samples:
        out = []
        for picked in combinations(pool, need):
            rest = [c for c in pool if c not in picked]
            hand = seen.shown | sum(1 << c for c in picked)
            for stock in permutations(rest) if orders else (rest,):
                out.append((hand, list(stock)))
        return out, True
    rng = random.Random(seed)
    out = []
    for _ in range(samples):
        rng.shuffle(pool)
        out.append((seen.shown | sum(1 << c for c in pool[:need]), pool[need:]))
    return out, False


@own_stack
def closer_view(
    seen: Seen,
    rules: RuleSet,
    player: str,
    trick: int,
    *,
    samples: int = CLOSER_SAMPLES,
    seed: int = 0,
) -> CloserView | None:
    """The closer's view of the close described by ``seen`` (see the module); None when no
    deal fits (the opponent shown holding more cards than a hand)."""
    need = seen.own.bit_count() - seen.shown.bit_count()
    if not 0 <= need <= seen.unseen.bit_count():
        return None
    pool = cards_in(seen.unseen)
    first = _opening(seen, seen.shown | sum(1 << c for c in pool[:need]), pool[need:])
    on_exact = exact_play_on(first, rules)
    # the stock's order matters only to playing on solved exactly
    found, exact = deals(seen, samples, seed, orders=on_exact)
    closes, ons = [], []
    for opp_hand, stock in found:
        close, on = close_and_play_on(_opening(seen, opp_hand, stock), rules)
        closes.append(close)
        ons.append(on)
    n = len(found)
    return CloserView(
        player,
        trick,
        n,
        seed,
        exact,
        sum(v > 0 for v in closes) / n,
        sum(closes) / n,
        sum(ons) / n,
        0.0 if exact else margin(closes),
        on_exact,
    )


def margin(values: list[int]) -> float:
    """Twice the standard error of the mean of sampled ``values`` (about 95%: another seed
    gives a mean within about that distance).

    >>> margin([1, 1, 1, 1]), round(margin([3, -3, 3, -3]), 2)
    (0.0, 3.46)
    """
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, n - 1))
    return 2 * spread / math.sqrt(n)
