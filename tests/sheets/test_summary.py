"""The trick-by-trick summary a referee's ruling sheet is printed from."""

from __future__ import annotations

from pathlib import Path

from tally.engine.cards import Card
from tally.engine.notation import read_deal
from tally.engine.rulebook import REASON_TEXT, VIOLATION_TEXT, reason_text
from tally.engine.rules import RuleSet
from tally.engine.ruling import REASONS, summarize

ROOT = Path(__file__).resolve().parents[2]

RECORD = """[Rules "sixty-six"]
[Dealer "Anna"]
[Forehand "Bert"]
[Trump "QH"]

1. KS AS
2. 10C 9C
3. 20 KD 10D
4. 66
"""


def test_each_trick_line_says_who_led_what_who_won_and_the_points_after_it() -> None:
    ruling, tricks = summarize(read_deal(RECORD))
    assert [t.number for t in tricks] == [1, 2, 3, 4]
    first = tricks[0]
    assert (first.leader, first.lead, first.follow, first.winner) == (
        "Bert",
        Card.parse("KS"),
        Card.parse("AS"),
        "Anna",
    )
    assert first.points == {"Bert": 0, "Anna": 15}
    # Anna leads 10C and wins with it against 9C.
    assert tricks[1].winner == "Anna" and tricks[1].points["Anna"] == 25
    # Anna declares the diamond marriage (20) leading KD; Bert wins with 10D.
    third = tricks[2]
    assert third.declarations == (("Anna", "declares 20 in diamonds with KD"),)
    assert third.winner == "Bert"
    assert third.points == {"Bert": 14, "Anna": 45}
    # Bert, on lead, claims with 14: a false claim.
    assert tricks[3].declarations == (("Bert", "claims 66"),)
    assert tricks[3].lead is None
    assert ruling.outcome is not None and ruling.outcome.reason == "false-claim"


def test_a_marriage_proved_false_later_is_taken_out_of_the_points_after_it() -> None:
    text = RECORD.replace("4. 66", "4. QD 9D")  # Bert plays the queen Anna showed
    ruling, tricks = summarize(read_deal(text))
    assert [v.rule for v in ruling.violations] == ["false-marriage"]
    assert tricks[2].points["Anna"] == 25
    assert ruling.points["Anna"] == tricks[-1].points["Anna"]


def test_every_violation_and_reason_has_its_rule_text() -> None:
    assert set(REASON_TEXT) == set(REASONS)
    assert set(VIOLATION_TEXT) == {
        "follow-suit",
        "must-head",
        "must-trump",
        "marriage-not-allowed",
        "false-marriage",
        "exchange-not-allowed",
        "false-exchange",
        "close-not-allowed",
    }
    assert "Under pagat-66: 2." in reason_text("false-claim", RuleSet.parse("pagat-66"))
    assert "else 2" in reason_text("false-claim", RuleSet.parse("sixty-six"))


def test_remaining_after_a_finished_trick_counts_the_cards_both_players_drew() -> None:
    import random

    from tally.engine.deal import Deal
    from tally.engine.notation import write_deal
    from tally.engine.ruling import rule_text

    rules = RuleSet.parse("sixty-six")
    rng = random.Random(7)
    deal = Deal.random(rules, rng)
    for _ in range(6):  # three tricks of two cards, no claims, no closing
        deal.draw()
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Card)))
    deal.draw()
    hands = "; ".join(
        f"{name}: " + " ".join(str(c) for c in deal.hand(name) or []) for name in deal.names
    )
    text = write_deal(deal.record()).replace("[Trump", f'[Remaining "{hands}"]\n[Trump')
    ruling = rule_text(text)
    assert ruling.errors == ()
    assert all(len(deal.hand(n) or []) == 6 for n in deal.names)


def test_a_simulated_match_is_a_real_match_every_record_agreeing_with_its_result() -> None:
    import random

    from tally.engine.match import DealResult, score_match, simulate_match
    from tally.engine.ruling import rule

    for preset in ("sixty-six", "schnapsen", "pagat-66"):
        rules = RuleSet.parse(preset)
        records = simulate_match(rules, ("Anna", "Bert"), "Bert", random.Random(11))
        results = []
        for record in records:
            ruling = rule(record)
            assert ruling.agreed is True and not ruling.errors
            assert ruling.outcome is not None
            results.append(
                DealResult(ruling.outcome.winner, ruling.deal_points, ruling.outcome.reason)
            )
            state = score_match(rules, ("Anna", "Bert"), "Bert", results[:-1])
            assert record.tags["Dealer"] == state.next_dealer
            assert int(record.tags.get("Carry", "0")) == state.carry
        final = score_match(rules, ("Anna", "Bert"), "Bert", results)
        assert final.over and max(final.score.values()) >= rules.match_target


def test_a_claim_after_the_trick_is_its_winners_and_a_follower_may_exchange() -> None:
    text = (ROOT / "examples/deals/revoke-proved-later.deal").read_text()
    _, tricks = summarize(read_deal(text))
    last = tricks[-1]  # 11. AD QS 66: Greta leads, Franz trumps with QS and claims
    assert (last.leader, last.winner) == ("Greta Huber", "Franz Leitner")
    assert last.declarations == (("Franz Leitner", "claims 66"),)
    text = (ROOT / "examples/deals/pagat-exchange-before-following.deal").read_text()
    _, tricks = summarize(read_deal(text))
    assert tricks[4].leader == "Carla"  # 5. QD swap AH: Dieter exchanges before following
    assert tricks[4].declarations == (("Dieter", "exchanges 9H for the turn-up JH"),)


def test_a_close_after_the_trick_is_its_winners() -> None:
    text = RECORD.replace("4. 66", "4. JC AC close")  # Anna takes Bert's JC, then closes
    _, tricks = summarize(read_deal(text))
    assert (tricks[3].leader, tricks[3].winner) == ("Bert", "Anna")
    assert tricks[3].declarations == (("Anna", "closes the stock"),)
