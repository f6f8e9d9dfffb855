"""Closes judged by what the closer knew (tally.analysis.closer_view), on the issue's records."""

from __future__ import annotations

from tally.analysis.closer_view import Seen, closer_view
from tally.engine.rules import RuleSet
from tests.analysis.test_cases import case, said


def test_close_with_a_marriage_to_claim_is_sound_by_what_the_closer_knew() -> None:
    # D2a: Anna closes holding KC QC and a trick: 20 and a claim win it whatever Bert holds.
    # Few cards unseen: every deal consistent with what she saw is solved, none sampled.
    a = case("D2a-marriage-claim-skipped.deal")
    v = a.closer_view
    assert v is not None and v.exact and v.player == "Anna"
    assert (v.success, v.close_value, v.margin) == (1.0, 3.0, 0.0)
    assert v.sound


def test_unsound_close_by_what_the_closer_knew_and_in_hindsight() -> None:
    a = case("O1-false-claim-cheaper.deal")
    v = a.closer_view
    assert v is not None and not v.exact and v.samples == 40
    assert v.close_value < v.play_on and not v.sound
    text = said("O1-false-claim-cheaper.deal")
    assert "Unsound by what Anna knew" in text
    assert "in hindsight (both hands known) best play loses it" in text


def test_closer_view_is_stable_across_seeds_within_its_margin() -> None:
    views = [case("O1-false-claim-cheaper.deal", seed=s).closer_view for s in range(4)]
    assert all(v is not None for v in views)
    for v in views:
        for w in views:
            assert v is not None and w is not None
            assert abs(v.close_value - w.close_value) <= v.margin + w.margin


def test_sampled_view_agrees_with_every_deal_counted() -> None:
    # Schnapsen, hearts trumps, Anna (0) closes at the first lead holding AH 10H KD QD JC, the
    # AD face up: Bert holds any five of the 14 cards she has not seen, 2002 deals: counted
    # all once, and sampled 40 at a time within the stated margin.
    rules = RuleSet.preset("schnapsen")
    own = sum(1 << c for c in (17, 16, 9, 8, 1))  # AH 10H KD QD JC
    deck = sum(1 << (s * 6 + r) for s in range(4) for r in range(1, 6))
    lying = 1 * 6 + 5  # AD face up
    seen = Seen(0, 2, own, 0, deck & ~own & ~(1 << lying), lying, (0, 0), (0, 0), (0, 0))
    every = closer_view(seen, rules, "Anna", 1, samples=5000)
    assert every is not None and every.exact and every.samples == 2002 and 0 < every.success < 1
    for seed in range(3):
        some = closer_view(seen, rules, "Anna", 1, samples=40, seed=seed)
        assert some is not None and abs(some.close_value - every.close_value) <= some.margin + 0.05
