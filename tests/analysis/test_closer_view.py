"""Closes judged by what the closer knew (tally.analysis.closer_view), on the issue's records."""

from __future__ import annotations

from tally.analysis.closer_view import Seen, closer_view
from tally.engine.rules import RuleSet
from tests.analysis.test_cases import case, told


def test_close_with_a_marriage_to_claim_is_sound_by_what_the_closer_knew() -> None:
    # D2a: Anna closes holding KC QC and a trick: 20 and a claim win it whatever Bert holds.
    # Few cards unseen: every deal consistent with what she saw (6) is solved, none sampled.
    a = case("D2a-marriage-claim-skipped.deal", samples=6)
    v = a.closer_view
    assert v is not None and v.exact and v.player == "Anna" and v.samples == 6
    assert (v.success, v.close_value, v.margin) == (1.0, 3.0, 0.0)
    assert v.sound


def test_unsound_close_by_what_the_closer_knew_and_in_hindsight() -> None:
    a = case("O1-false-claim-cheaper.deal")
    v = a.closer_view
    assert v is not None and not v.exact and v.samples == 40
    assert v.close_value < v.play_on and not v.sound
    text = told("O1-false-claim-cheaper.deal")
    assert "Unsound by what Anna knew" in text
    # playing on is estimated by the rollout at the first lead: the verdict says so
    assert "so the verdict rests on that estimate" in text
    assert "in hindsight (both hands known) best play loses it" in text


def test_closer_view_is_stable_across_seeds_within_its_margin() -> None:
    views = [case("O1-false-claim-cheaper.deal", seed=s).closer_view for s in range(4)]
    assert all(v is not None for v in views)
    for v in views:
        for w in views:
            assert v is not None and w is not None
            assert abs(v.close_value - w.close_value) <= v.margin + w.margin


def test_sampled_view_agrees_with_every_deal_counted() -> None:
    # Schnapsen, hearts trumps, the 10H face up. Anna (0) has won JC QS and QC JS (10
    # points), Bert QD JH (5); Anna closes at the fourth lead holding QH JD KS AS AD. Bert
    # holds any five of the 8 cards she has not seen, the other three lie in the stock in any
    # order: 56 x 6 = 336 deals, each solved exactly (closing and playing on), counted all
    # once, and sampled 40 at a time within the stated margin.
    rules = RuleSet.preset("schnapsen")
    own = sum(1 << c for c in (14, 7, 21, 23, 11))  # QH JD KS AS AD
    played = sum(1 << c for c in (1, 20, 2, 19, 8, 13))  # JC QS QC JS QD JH
    deck = sum(1 << (s * 6 + r) for s in range(4) for r in range(1, 6))
    lying = 16  # 10H face up
    unseen = deck & ~own & ~played & ~(1 << lying)
    seen = Seen(0, 2, own, 0, unseen, lying, (10, 5), (0, 0), (2, 1))
    every = closer_view(seen, rules, "Anna", 4, samples=5000)
    assert every is not None and every.exact and every.play_on_exact
    assert every.samples == 336 and 0 < every.success < 1
    for seed in range(3):
        some = closer_view(seen, rules, "Anna", 4, samples=40, seed=seed)
        assert some is not None and abs(some.close_value - every.close_value) <= some.margin + 0.05
