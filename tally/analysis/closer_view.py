"""A close judged by what the closer knew when closing, not by hindsight.

At the close the closer saw their own hand, the cards played, the card lying face up and
what the opponent showed (the partners of their marriages, the turn-up they took by exchange:
:func:`tally.engine.evidence.shown_before`). Every deal consistent with that is equally likely to
them: the opponent's other cards are any of the unseen ones, the rest lies in the stock in any
order. :func:`closer_view` samples such deals (seeded), solves the close exactly in each
(:func:`tally.analysis.closing.close_value`) and values not closing at that moment in the same deals
(:func:`tally.analysis.closing.playing_on`: the exact value of the closer not closing now, free to
close later, with both hands and the stock's order of the deal known, where few enough cards are
left, :data:`tally.analysis.closing.EXACT_PLAY_ON_CARDS`: Schnapsen from the second lead,
Sixty-Six and pagat-66 from the fourth; else estimated by the rollout policy, not a bound), so
both figures are compared on the same deals.

The figures are means over ``samples`` deals; ``margin`` is twice the standard error of the
mean value of closing (about 95%): another seed gives a mean within about that distance.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
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
    playing on (for the closer; negative: the opponent's), and the 95% interval of closing
    less playing on (:func:`interval`), the difference the verdict and the mark rest on."""

    player: str
    trick: int
    samples: int
    seed: int
    exact: bool
    success: float
    close_value: float
    play_on: float
    #: the 95% interval of the mean of closing less playing on (both ends the mean when exact)
    low: float
    high: float
    #: whether playing on was solved exactly in each deal (else estimated by the rollout)
    play_on_exact: bool = True
    #: whether the closer's own hand is the one the record proves (else sampled too)
    own_known: bool = True

    @property
    def margin(self) -> float:
        """The farthest end of the interval from the mean difference (0 when exact)."""
        gap = self.close_value - self.play_on
        return round(max(gap - self.low, self.high - gap), 6)

    @property
    def sound(self) -> bool:
        """Sound by what the closer knew: closing was worth at least playing on, and won in
        most of the deals the closer had to reckon with."""
        return self.success > 0.5 and self.close_value >= self.play_on

    @property
    def sure(self) -> bool:
        """Whether the verdict stands whatever the sampling: the interval of closing less
        playing on lies on the verdict's side of 0, and so does the share's (``success``,
        its Wilson interval) of one half, where that share decides."""
        if self.close_value < self.play_on:
            return self.high < 0
        share_low, share_high = wilson(self.success, 0 if self.exact else self.samples)
        if self.sound:
            return self.low >= 0 and share_low > 0.5
        return share_high <= 0.5


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


def _deals_of(
    seens: list[Seen], samples: int, seed: int, on_exact: bool
) -> tuple[list[tuple[Seen, int, list[int]]], bool]:
    """The deals the closer's view is judged on, each as the closer's :class:`Seen`, the
    opponent's hand and the stock; and whether they are every deal that fits (one
    :class:`Seen` only). Over several, ``samples`` deals are spread over them in turn."""
    if len(seens) == 1:
        # the stock's order matters only to playing on solved exactly
        dealt, exact = deals(seens[0], samples, seed, orders=on_exact)
        return [(seens[0], hand, stock) for hand, stock in dealt], exact
    found: list[tuple[Seen, int, list[int]]] = []
    rng = random.Random(seed)
    for k in range(samples):
        one = seens[k % len(seens)]
        ((hand, stock),) = deals(one, 1, rng.randrange(2**31), orders=on_exact)[0]
        found.append((one, hand, stock))
    return found, False


@own_stack
def closer_view(
    seen: Seen | Sequence[Seen],
    rules: RuleSet,
    player: str,
    trick: int,
    *,
    samples: int = CLOSER_SAMPLES,
    seed: int = 0,
    settle: int = 0,
) -> CloserView | None:
    """The closer's view of the close described by ``seen`` (see the module); None when no
    deal fits (the opponent shown holding more cards than a hand).

    ``seen`` may be several: the closer's own hand where the record does not prove it, one
    :class:`Seen` per hand it may have been. The deals are then spread over them (the closer's
    hand sampled too), never all of them, and the view says its own hand was not known.

    ``settle`` (0: never): after that many sampled deals, stop where the interval of closing
    less playing on already lies below 0 (closing was worse: a chance to close not taken lost
    nothing, whatever the other deals say); the view then counts the deals solved."""
    seens = [seen] if isinstance(seen, Seen) else list(seen)
    seens = [
        v for v in seens if 0 <= v.own.bit_count() - v.shown.bit_count() <= v.unseen.bit_count()
    ]
    if not seens:
        return None
    first = seens[0]
    pool = cards_in(first.unseen)
    need = first.own.bit_count() - first.shown.bit_count()
    on_exact = exact_play_on(
        _opening(first, first.shown | sum(1 << c for c in pool[:need]), pool[need:]), rules
    )
    found, exact = _deals_of(seens, samples, seed, on_exact)
    closes, gaps = [], []
    for one, opp_hand, stock in found:
        close, on = close_and_play_on(_opening(one, opp_hand, stock), rules)
        closes.append(close)
        gaps.append(close - on)
        if len(gaps) == settle and not exact and interval(gaps)[1] < 0:
            break  # closing is worse whatever the rest of the sample says: settled
    n = len(closes)
    low, high = interval(gaps, exact)
    return CloserView(
        player,
        trick,
        n,
        seed,
        exact,
        sum(v > 0 for v in closes) / n,
        sum(closes) / n,
        (sum(closes) - sum(gaps)) / n,
        low,
        high,
        on_exact,
        len(seens) == 1,
    )


#: z of a two-sided 95% interval
_Z = 1.96


def wilson(share: float, n: int) -> tuple[float, float]:
    """The Wilson score interval (95%) of a share seen in ``n`` samples (``n`` 0: exact, the
    share itself). Never of width 0 for a sample: 0 of 40 is 0% to 8.8%.

    >>> [round(x, 3) for x in wilson(0.0, 40)], wilson(0.5, 0)
    ([0.0, 0.088], (0.5, 0.5))
    """
    if n <= 0:
        return share, share
    z2 = _Z * _Z
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z / (1 + z2 / n) * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def interval(values: list[int], exact: bool = False) -> tuple[float, float]:
    """The 95% interval of the mean of sampled ``values`` (game points, whole numbers): the
    Wilson score interval of the mean as a share of the span from one game point below the
    least value seen to one above the greatest (a value never sampled is at least a step
    away), so a sample of equal values is not taken for certainty. ``exact``: the values are
    every deal there is, and the interval is the mean itself.

    >>> interval([-2, -2, -2, -2], exact=True), [round(x, 2) for x in interval([-2] * 40)]
    ((-2.0, -2.0), [-2.3, -1.7])
    """
    n = len(values)
    mean = sum(values) / n
    if exact:
        return mean, mean
    bottom, top = max(-6, min(values) - 1), min(6, max(values) + 1)
    span = top - bottom
    low, high = wilson((mean - bottom) / span, n)
    return bottom + low * span, bottom + high * span
