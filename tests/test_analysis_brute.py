"""tally analyse against an independent brute force (tests/brute_force.py, written from
RULES.md without tally's solver or kernel): on random deals of each preset with closes on
either side before and after the draws and claims on time, late, at a line's start and right
after a marriage, every phase-2 value, close verdict, claim moment and claim cost agree."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from tally.analysis import UNANALYSABLE, analyse
from tally.cards import Card
from tally.closer_view import Seen, closer_view
from tally.notation import read_deal
from tally.rules import RuleSet
from tests.brute_force import PRESETS, Played, Pos, game_points, play_deal, value


def check(preset: str, played: Played) -> Counter[str]:
    """Assert the analysis of ``played`` agrees with the brute force; the situations seen."""
    r = PRESETS[preset]
    a = analyse(read_deal(played.record), samples=5)
    assert not a.note.startswith(UNANALYSABLE), played.record
    seen: Counter[str] = Counter(played.situations)
    if played.claim is not None:
        done, on_marriage, p = played.claim
        assert a.claim is not None and a.claim.claimer == played.names[p], played.record
        assert (a.claim.trick, a.claim.on_marriage) == (done, on_marriage), played.record
        mine = [m for m in played.moments if m[2] == p]
        first = min(mine, key=lambda m: (m[0], m[1]))
        made = next(m for m in mine if (m[0], m[1]) == (done, on_marriage))
        late = (first[0], first[1]) != (done, on_marriage)
        assert (a.claim.earliest, a.claim.earliest_on_marriage) == (
            (first[0], first[1]) if late else (None, False)), played.record
        cost = 0
        if late and not (played.closer >= 0 and (r.close_scored_at == "close"
                                                 or played.closer != p)):
            cost = max(0, game_points(first[3], first[4]) - game_points(made[3], made[4]))
        assert a.claim_cost == cost, played.record
        seen["claim late" if late else "claim on time"] += 1
    pos = played.first_phase2
    if pos is not None:
        assert a.phase2 is not None and a.phase2.exact, played.record
        exact = value(r, pos)
        side = played.closer if played.closer >= 0 else 0
        assert a.phase2.best == (exact if side == 0 else -exact), played.record
        if played.closer >= 0:
            assert a.close is not None and a.close.sound == (a.phase2.best > 0), played.record
        seen["phase 2 solved"] += 1
    return seen


def run(preset: str, deals: int, seed: int) -> Counter[str]:
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(deals):
        seen += check(preset, play_deal(PRESETS[preset], rng))
    return seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_analysis_agrees_with_the_brute_force_on_random_deals(preset: str) -> None:
    seen = run(preset, 40, 24)
    assert seen["phase 2 solved"] >= 20 and seen["claim on time"] and seen["claim late"]


@pytest.mark.slow
@pytest.mark.timeout(1800)  # 1,000 deals, each analysed and brute-forced: minutes on 2 cores
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_analysis_agrees_with_the_brute_force_on_a_thousand_deals(preset: str) -> None:
    seen = run(preset, 1000, 2024)
    for situation in ("close before the lead, forehand", "close before the lead, dealer",
                      "claim at a line's start", "claim right after a marriage",
                      "claim on time", "claim late"):
        assert seen[situation], (situation, seen)
    if PRESETS[preset].close_before_draw:
        assert seen["close before the draws, forehand"] and seen["close before the draws, dealer"]


def _small_close(rng: random.Random) -> tuple[Seen, Pos, list[str]]:
    """A Schnapsen close after four tricks (two cards left in the stock): Anna's hand, the
    cards played, the turn-up; what Bert holds is any five of the six unseen cards."""
    r = PRESETS["schnapsen"]
    deck = [rk + s for s in "CDHS" for rk in r.ranks]
    rng.shuffle(deck)
    own, lying, unseen = deck[:5], deck[13], deck[14:]  # deck[5:13] played
    split = rng.randrange(0, 60)
    card = {str(c): int(c) for c in (Card.parse(x) for x in deck)}
    mask = sum(1 << card[c] for c in own)
    seen = Seen(0, "CDHS".index(lying[-1]), mask, 0, sum(1 << card[c] for c in unseen),
                card[lying], (split, 60 - split), (0, 0), (2, 2))
    pos = Pos((frozenset(own), frozenset()), 0, lying[-1], (split, 60 - split), (0, 0),
              (2, 2), 0, (60 - split, 2), (2, 2))
    return seen, pos, unseen


def test_closers_view_agrees_with_every_deal_counted_by_the_brute_force() -> None:
    rng = random.Random(7)
    rules = RuleSet.preset("schnapsen")
    for _ in range(8):
        seen, pos, unseen = _small_close(rng)
        view = closer_view(seen, rules, "Anna", 5, samples=40)
        values = [value(PRESETS["schnapsen"], Pos((pos.hands[0], frozenset(opp)), *vars_of(pos)))
                  for opp in combinations(unseen, 5)]
        assert view is not None and view.exact and view.samples == len(values) == 6
        assert view.close_value == pytest.approx(sum(values) / len(values))
        assert view.success == pytest.approx(sum(v > 0 for v in values) / len(values))


def vars_of(pos: Pos) -> tuple[object, ...]:
    """A position's fields after its hands."""
    return (pos.leader, pos.trump, pos.points, pos.marriages, pos.tricks, pos.closer,
            pos.at_close, pos.closer_opp_tricks_at_close)
