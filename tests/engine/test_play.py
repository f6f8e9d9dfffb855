"""Play of a deal: RULES.md sections 2 to 7 (tricks, drawing, phase 2, exchange, marriages,
closing), through records a scorer types and through the :class:`Deal` API on fully known deals.

Expected counts are worked out by hand in the comments (A 11, 10 10, K 4, Q 3, J 2, 9 0).
"""

from __future__ import annotations

import random

import pytest

from tally.engine.cards import Card
from tally.engine.deal import Deal, Draw
from tally.engine.rules import RuleSet
from tally.engine.ruling import Ruling, rule_text
from tally.errors import IllegalAction

PRESETS = ("sixty-six", "schnapsen", "pagat-66")
SIXTY_SIX_LIKE = ("sixty-six", "pagat-66")


def C(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def deal(body: str, rules: str = "sixty-six", trump: str = "QH", **tags: str) -> Ruling:
    """Rule on a record of Bert (forehand) against Anna (dealer); tags go after Trump."""
    head = f'[Rules "{rules}"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "{trump}"]\n'
    head += "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return rule_text(head + "\n" + body.strip() + "\n")


def rules_broken(ruling: Ruling) -> list[tuple[int, str, str]]:
    assert ruling.errors == (), ruling.errors
    return [(v.trick, v.player, v.rule) for v in ruling.violations]


# A fully known Sixty-Six deal: Bert (forehand) and Anna (dealer), QH turned up.
D66_HANDS = {"Bert": "AS 10S KC QC 9H JD", "Anna": "AC 10C KS QS JS 9S"}
D66_STOCK = "AD 10D KD QD 9D JC 9C AH KH JH 10H"  # face down, top first


def d66(rules: str = "sixty-six") -> Deal:
    return Deal.start(
        RuleSet.parse(rules),
        dealer="Anna",
        forehand="Bert",
        trump=C("QH"),
        hands={n: cards(h) for n, h in D66_HANDS.items()},
        stock=cards(D66_STOCK),
    )


def hand(d: Deal, name: str) -> set[str]:
    held = d.hand(name)
    assert held is not None
    return {str(c) for c in held}


# --- section 2: the deal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "stock"), [("sixty-six", 11), ("pagat-66", 11), ("schnapsen", 9)]
)
def test_the_stock_starts_with_its_face_down_cards(preset: str, stock: int) -> None:
    d = Deal.start(RuleSet.parse(preset), dealer="Anna", forehand="Bert", trump=C("AH"))
    assert d.stock_left == stock
    assert d.leader == "Bert" and d.forehand == "Bert" and d.dealer == "Anna"
    assert d.phase == 1


def test_a_fully_known_deal_needs_a_stock_of_the_right_size() -> None:
    from tally.errors import RecordError

    with pytest.raises(RecordError):
        Deal.start(
            RuleSet.parse("sixty-six"),
            dealer="Anna",
            forehand="Bert",
            trump=C("QH"),
            hands={n: cards(h) for n, h in D66_HANDS.items()},
            stock=cards(D66_STOCK)[:-1],
        )


# --- section 3: tricks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "follow", "winner", "points"),
    [
        ("KS", "AS", "Anna", 15),  # higher card of the suit led
        ("AS", "KS", "Bert", 15),
        ("KS", "10S", "Anna", 14),  # the ten ranks above the king
        ("10S", "KS", "Bert", 14),
        ("QS", "KS", "Anna", 7),
        ("JS", "QS", "Anna", 5),
        ("9S", "JS", "Anna", 2),
        ("JS", "9S", "Bert", 2),
        ("10S", "AS", "Anna", 21),
        ("AS", "9H", "Anna", 11),  # a trump to a non-trump lead wins
        ("9H", "AS", "Bert", 11),  # a plain ace cannot beat a trump lead
        ("AS", "AD", "Bert", 22),  # a discard of another plain suit loses
        ("KH", "AH", "Anna", 15),  # trump against trump: the higher
        ("10D", "9C", "Bert", 10),
    ],
)
@pytest.mark.parametrize("preset", SIXTY_SIX_LIKE)
def test_trick_winner(preset: str, lead: str, follow: str, winner: str, points: int) -> None:
    ruling = deal(f"1. {lead} {follow}", rules=preset)
    loser = "Anna" if winner == "Bert" else "Bert"
    assert ruling.tricks == {winner: 1, loser: 0}
    assert ruling.points == {winner: points, loser: 0}


@pytest.mark.parametrize(
    ("lead", "follow", "winner"),
    [("KS", "AS", "Anna"), ("AS", "10S", "Bert"), ("QS", "JH", "Anna"), ("JH", "AS", "Bert")],
)
def test_trick_winner_in_schnapsen(lead: str, follow: str, winner: str) -> None:
    ruling = deal(f"1. {lead} {follow}", rules="schnapsen", trump="QH")
    assert ruling.tricks[winner] == 1


def test_the_trick_winner_leads_next() -> None:
    # Anna wins trick 1 and leads KC to trick 2; Bert's AC wins it (11 + 4).
    ruling = deal("1. KS AS\n2. KC AC")
    assert ruling.tricks == {"Bert": 1, "Anna": 1}
    assert ruling.points == {"Bert": 15, "Anna": 15}
    d = d66()
    d.play(C("KC"))
    d.play(C("AC"))
    assert d.leader == "Anna" and d.to_move == "Anna"


@pytest.mark.parametrize("preset", PRESETS)
def test_free_play_in_phase_one_no_duty_to_follow_head_or_trump(preset: str) -> None:
    # Anna holds AC and 10C (Hands) but throws 9S... or JS in Schnapsen; nothing is broken.
    low = "JS" if preset == "schnapsen" else "9S"
    anna = "AC 10C KS QS JS 9S" if preset != "schnapsen" else "AC 10C KS QS JS"
    ruling = deal(f"1. KC {low}", rules=preset, Hands=f"Anna: {anna}")
    assert rules_broken(ruling) == []
    assert ruling.tricks == {"Bert": 1, "Anna": 0}


def test_free_play_through_the_api() -> None:
    d = d66()
    d.play(C("KC"))
    anna = [c for c in d.legal_actions() if isinstance(c, Card)]
    assert {str(c) for c in anna} == set(D66_HANDS["Anna"].split())
    assert d.can_play(C("9S"))


# --- section 3: drawing --------------------------------------------------------------------------


def test_the_trick_winner_draws_first_then_the_loser() -> None:
    d = d66()
    d.play(C("KC"))
    d.play(C("AC"))  # Anna wins
    drawn = d.draw()
    assert drawn == Draw("Anna", C("AD"), "Bert", C("10D"), 1)
    assert "AD" in hand(d, "Anna") and "10D" in hand(d, "Bert")
    assert d.stock_left == 9


def play_d66_to_the_last_draw(exchange: bool) -> Deal:
    """Six tricks of the known deal; Bert exchanges 9H for QH before trick 3 if asked."""
    d = d66()
    for card in ("KC", "AC", "9S", "10S"):  # Anna wins 1, Bert wins 2
        d.play(C(card))
    if exchange:
        d.exchange()
    for card in ("JD", "AD"):  # Anna wins 3
        d.play(C(card))
    d.declare(C("KS"))  # 20 in spades, KS led
    for card in ("AS", "9C", "10C", "9D", "10D"):  # Bert wins 4, Anna 5, Bert 6
        d.play(C(card))
    return d


def test_the_last_draw_gives_the_loser_the_turn_up() -> None:
    d = play_d66_to_the_last_draw(exchange=False)
    drawn = d.draw()
    # Bert won trick 6: he takes the last face-down card (10H), Anna the turn-up QH.
    assert drawn == Draw("Bert", C("10H"), "Anna", C("QH"), 6)
    assert d.stock_left == 0 and d.phase == 2
    assert "QH" in hand(d, "Anna")


def test_the_last_draw_gives_the_loser_the_exchange_card_after_an_exchange() -> None:
    d = play_d66_to_the_last_draw(exchange=True)
    assert "QH" in hand(d, "Bert")
    drawn = d.draw()
    assert drawn == Draw("Bert", C("10H"), "Anna", C("9H"), 6)
    assert "9H" in hand(d, "Anna")


def test_the_loser_of_the_last_draw_may_play_the_turn_up_in_a_record() -> None:
    six = "1. KS AS\n2. 9S 10S\n3. JC AC\n4. 9C 10C\n5. JD AD\n6. 9D 10D\n"
    # Bert wins trick 6 (10D); Anna draws the turn-up QH and trumps KC with it.
    ruling = deal(six + "7. KC QH")
    assert rules_broken(ruling) == []
    # 15 + 0 + 13 + 0 + 13 + 0 + 7 for Anna; 0 + 10 + 0 + 10 + 0 + 10 for Bert
    assert ruling.points == {"Bert": 30, "Anna": 48}


@pytest.mark.parametrize(
    ("preset", "tricks"), [("sixty-six", 12), ("pagat-66", 12), ("schnapsen", 10)]
)
def test_an_unclosed_deal_has_twelve_tricks_or_ten_in_schnapsen(preset: str, tricks: int) -> None:
    import random

    d = Deal.random(RuleSet.parse(preset), random.Random(7))
    count = 0
    while not d.is_over:
        if d.draw_pending:
            d.draw()
            continue
        playable = [a for a in d.legal_actions() if isinstance(a, Card)]
        d.play(playable[0])
        count += d.lead is None
    assert count == tricks == RuleSet.parse(preset).tricks_in_deal


# --- section 4: phase 2 --------------------------------------------------------------------------

# Bert closes at the first lead; both hands are known.
P2_HANDS = {"Bert": "QS KC QC 9H JD 10D", "Anna": "AS JS 9S AC 10C KD"}
P2_STOCK = "AD KS QD 9D JC 9C AH KH JH 10H 10S"


def closed_deal() -> Deal:
    d = Deal.start(
        RuleSet.parse("sixty-six"),
        dealer="Anna",
        forehand="Bert",
        trump=C("QH"),
        hands={n: cards(h) for n, h in P2_HANDS.items()},
        stock=cards(P2_STOCK),
    )
    d.close()
    return d


def refused(d: Deal, card: str) -> str:
    with pytest.raises(IllegalAction) as info:
        d.verify_play(C(card))
    assert not d.can_play(C(card))
    return info.value.rule


def test_phase_two_must_follow_suit_and_head() -> None:
    d = closed_deal()
    d.play(C("QS"))
    assert d.legal_actions() == [C("AS")]  # only the ace of spades beats the queen
    assert refused(d, "JS") == "must-head"
    assert refused(d, "9S") == "must-head"
    assert refused(d, "AC") == "follow-suit"
    assert refused(d, "KD") == "follow-suit"


def test_phase_two_follow_suit_low_when_nothing_heads() -> None:
    d = closed_deal()
    d.play(C("QS"))
    d.play(C("AS"))
    d.play(C("JS"))  # Anna leads JS; Bert has no spade left
    # Bert: no spade, so a trump (9H) is his only card
    assert d.legal_actions() == [C("9H")]
    assert refused(d, "KC") == "must-trump"


def test_phase_two_heading_is_owed_only_in_the_suit_led() -> None:
    d = closed_deal()
    d.play(C("KC"))
    # Anna holds AC and 10C: both beat the king, either will do
    assert set(d.legal_actions()) == {C("AC"), C("10C")}


def test_phase_two_any_trump_will_do() -> None:
    d = Deal.start(
        RuleSet.parse("sixty-six"),
        dealer="Anna",
        forehand="Bert",
        trump=C("QH"),
        hands={"Bert": cards("AS 10S KS KC QC JD"), "Anna": cards("AH 9H AC 10C 9D 10D")},
        stock=cards("QS JS 9S JC 9C AD KD QD KH JH 10H"),
    )
    d.close()
    d.play(C("AS"))
    # Anna has no spade: she must trump, with the ace or the nine, no need to beat anything
    assert set(d.legal_actions()) == {C("AH"), C("9H")}
    assert refused(d, "AC") == "must-trump"


def test_phase_two_no_suit_and_no_trump_allows_any_card() -> None:
    d = Deal.start(
        RuleSet.parse("sixty-six"),
        dealer="Anna",
        forehand="Bert",
        trump=C("QH"),
        hands={"Bert": cards("AS 10S KS KC QC JD"), "Anna": cards("AC 10C 9C AD 10D 9D")},
        stock=cards("QS JS 9S JC AH KD QD KH JH 10H 9H"),
    )
    d.close()
    d.play(C("AS"))
    assert set(d.legal_actions()) == set(cards("AC 10C 9C AD 10D 9D"))


def test_phase_two_begins_once_the_stock_is_exhausted() -> None:
    d = play_d66_to_the_last_draw(exchange=True)
    d.draw()
    assert d.phase == 2
    d.play(C("KD"))  # Bert leads; Anna holds QD and must follow with it
    assert d.legal_actions() == [C("QD")]
    assert refused(d, "AH") == "follow-suit"


# --- section 5: exchanging the turn-up -----------------------------------------------------------


def test_sixty_six_exchange_before_leading_after_winning_a_trick() -> None:
    d = d66()
    for card in ("KC", "AC", "9S", "10S"):
        d.play(C(card))
    d.draw()
    assert d.can_exchange()
    done = d.exchange()
    assert (done.player, str(done.given), str(done.taken)) == ("Bert", "9H", "QH")
    assert "QH" in hand(d, "Bert") and "9H" not in hand(d, "Bert")


def test_sixty_six_allows_the_exchange_before_following() -> None:
    # Bert wins trick 2 (10S), so he may exchange before following to trick 4.
    ruling = deal("1. KS AS\n2. JS 10S\n3. 9C AC\n4. 10C swap JC\n5. AD QH")
    assert rules_broken(ruling) == []  # and the QH he took is his to play


@pytest.mark.parametrize("rules", ["pagat-66", "sixty-six exchange_when=lead"])
def test_exchange_before_following_is_not_allowed_where_only_the_leader_may(rules: str) -> None:
    ruling = deal("1. KS AS\n2. JS 10S\n3. 9C AC\n4. 10C swap JC", rules=rules)
    assert rules_broken(ruling) == [(4, "Bert", "exchange-not-allowed")]


def test_schnapsen_exchange_before_following_is_not_allowed() -> None:
    ruling = deal("1. KS AS\n2. QS swap JS", rules="schnapsen", trump="AH")
    assert rules_broken(ruling) == [(2, "Bert", "exchange-not-allowed")]


@pytest.mark.parametrize("rules", ["sixty-six", "pagat-66"])
def test_the_exchanger_must_already_have_won_a_trick(rules: str) -> None:
    ruling = deal("1. swap KS AS", rules=rules)
    assert rules_broken(ruling) == [(1, "Bert", "exchange-not-allowed")]


@pytest.mark.parametrize(
    "rules", ["schnapsen", "sixty-six exchange_needs_trick=no", "pagat-66 exchange_needs_trick=no"]
)
def test_no_trick_is_needed_to_exchange_where_the_option_says_so(rules: str) -> None:
    ruling = deal("1. swap KS AS\n2. JC QH", rules=rules)
    assert rules_broken(ruling) == []


def test_the_exchange_card_is_the_trump_jack_in_schnapsen() -> None:
    d = Deal.start(
        RuleSet.parse("schnapsen"),
        dealer="Anna",
        forehand="Bert",
        trump=C("10D"),
        hands={"Bert": cards("AC 10C KS QS JD"), "Anna": cards("AS 10S KC QC JS")},
        stock=cards("AD KD QD AH 10H KH QH JH JC"),
    )
    assert d.can_exchange()
    done = d.exchange()
    assert (str(done.given), str(done.taken)) == ("JD", "10D")


@pytest.mark.parametrize(
    ("preset", "tricks", "exchange_card"),
    [("sixty-six", 5, "9H"), ("pagat-66", 5, "9H"), ("schnapsen", 4, "JH")],
)
def test_exchange_allowed_with_one_face_down_card_left(
    preset: str, tricks: int, exchange_card: str
) -> None:
    # Anna wins every trick; after the draws of trick 5 (4 in Schnapsen) one face-down card
    # lies on the turn-up AH, and Anna exchanges before leading. She wins that trick too, so
    # Bert draws the exchange card last and follows her AH with it.
    plays = ["KS AS", "AC JC", "10C QC", "AD JD", "10D QD"][:tricks]
    body = "\n".join(f"{n}. {p}" for n, p in enumerate(plays, start=1))
    body += f"\n{tricks + 1}. swap 10S JS\n{tricks + 2}. AH {exchange_card}"
    ruling = deal(body, rules=preset, trump="AH")
    assert rules_broken(ruling) == []
    d = ruling.state
    assert d is not None and d.exchanges == 1 and d.phase == 2


def test_exchange_not_allowed_once_the_stock_is_closed() -> None:
    # Anna closes, then exchanges: a violation, but the cards still move: QH is hers to play.
    ruling = deal("1. KS AS\n2. close swap AC 9C\n3. QH JH")
    assert rules_broken(ruling) == [(2, "Anna", "exchange-not-allowed")]


def test_exchange_not_allowed_once_the_stock_is_exhausted_and_nothing_moves() -> None:
    six = "1. KS AS\n2. 9S 10S\n3. JC AC\n4. 9C 10C\n5. JD AD\n6. 9D 10D\n"
    ruling = deal(six + "7. swap KC QH")  # Anna drew QH last; Bert's swap takes nothing
    assert rules_broken(ruling) == [(7, "Bert", "exchange-not-allowed")]
    after = deal(six + "7. swap QH KC")  # so Bert cannot have QH
    assert after.outcome is None and after.errors


def test_exchange_not_allowed_through_the_api_names_the_rule() -> None:
    d = d66()
    with pytest.raises(IllegalAction) as info:
        d.verify_exchange()  # Bert holds 9H but has won no trick
    assert info.value.rule == "exchange-not-allowed"
    assert not d.can_exchange()


# --- section 6: marriages ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_marriage_in_trumps_is_forty_and_in_a_plain_suit_twenty(preset: str) -> None:
    # Anna wins trick 1 (15), declares 40 in hearts and leads KH: Bert's JC loses (4 + 2).
    ruling = deal("1. KS AS\n2. 40 KH JC", rules=preset, trump="AH")
    assert ruling.points == {"Bert": 0, "Anna": 15 + 6 + 40}
    plain = deal("1. KS AS\n2. 20 QD JC", rules=preset, trump="AH")
    assert plain.points == {"Bert": 0, "Anna": 15 + 5 + 20}


@pytest.mark.parametrize("preset", PRESETS)
def test_marriage_counts_only_once_the_declarer_wins_a_trick(preset: str) -> None:
    # Bert declares at the first lead and loses trick 1: nothing yet.
    first = deal("1. 20 KD AD", rules=preset)
    assert first.points == {"Bert": 0, "Anna": 15}
    # Then Anna leads JC to trick 2 and Bert's AC wins it: 13, and now his 20 counts.
    later = deal("1. 20 KD AD\n2. JC AC", rules=preset)
    assert later.points == {"Bert": 33, "Anna": 15}


def test_a_declarer_who_never_wins_a_trick_never_scores_the_marriage() -> None:
    ruling = deal("1. 20 KD AD\n2. AC JC\n3. 10C QC 66")
    # Anna: 15 + 13 + 13 = 41, a false claim: Bert had no trick, so 3
    assert ruling.points == {"Bert": 0, "Anna": 41}
    assert ruling.outcome is not None
    assert (ruling.outcome.winner, ruling.outcome.game_points) == ("Bert", 3)


def test_schnapsen_allows_a_marriage_in_phase_two() -> None:
    ruling = deal("1. KS AS\n2. close 20 KD JD", rules="schnapsen", trump="AH")
    assert rules_broken(ruling) == []
    assert ruling.points == {"Bert": 0, "Anna": 15 + 6 + 20}


@pytest.mark.parametrize("rules", ["sixty-six", "pagat-66"])
def test_sixty_six_forbids_a_marriage_in_phase_two_and_it_never_scores(rules: str) -> None:
    ruling = deal("1. KS AS\n2. close 20 KD 9D", rules=rules)
    assert rules_broken(ruling) == [(2, "Anna", "marriage-not-allowed")]
    assert ruling.points == {"Bert": 0, "Anna": 15 + 4}


def test_marriage_in_phase_two_allowed_by_override() -> None:
    ruling = deal("1. KS AS\n2. close 20 KD 9D", rules="sixty-six marriage_in_phase2=yes")
    assert rules_broken(ruling) == []
    assert ruling.points == {"Bert": 0, "Anna": 39}


def test_a_declarer_who_reaches_66_may_claim_at_once_instead_of_leading() -> None:
    # Anna: 15 + 13 + 14 + 12 = 54; with 20 in diamonds, 74: she claims, KD is not led.
    ruling = deal("1. KS AS\n2. AC JC\n3. AH QC\n4. 10C JS\n5. 20 KD 66")
    assert ruling.tricks == {"Bert": 0, "Anna": 4}
    assert ruling.points == {"Bert": 0, "Anna": 74}
    assert ruling.outcome is not None
    assert (ruling.outcome.winner, ruling.outcome.game_points, ruling.outcome.reason) == (
        "Anna",
        3,
        "claim",
    )


def test_one_marriage_per_lead() -> None:
    ruling = deal("1. KS AS\n2. 20 KD 20 KC JS")
    assert ruling.outcome is None and ruling.errors


def test_marriage_through_the_api() -> None:
    d = d66()
    for card in ("KC", "AC"):
        d.play(C(card))
    d.draw()  # Anna: 10C KS QS JS 9S AD
    assert d.can_declare(C("QS")) and d.can_declare(C("KS"))
    assert not d.can_declare(C("AD"))  # not a king or queen
    assert not d.can_declare(C("QC"))  # Anna does not hold the clubs
    m = d.declare(C("QS"))
    assert (m.player, m.points, str(m.card)) == ("Anna", 20, "QS")
    assert d.lead == C("QS")


# --- section 7: closing --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_closing_at_the_first_lead_of_the_deal(preset: str) -> None:
    d = Deal.start(RuleSet.parse(preset), dealer="Anna", forehand="Bert", trump=C("AH"))
    assert d.can_close()
    d.close()
    assert d.phase == 2 and d.closed and d.stock_left == d.rules.stock_size


@pytest.mark.parametrize("preset", PRESETS)
def test_closing_before_leading_after_the_draws(preset: str) -> None:
    ruling = deal("1. KS AS\n2. close AC JC", rules=preset, trump="AH")
    assert rules_broken(ruling) == []
    assert ruling.state is not None and ruling.state.closed


@pytest.mark.parametrize("rules", ["sixty-six", "pagat-66"])
def test_the_trick_winner_may_close_before_the_draws(rules: str) -> None:
    ruling = deal("1. KS AS close\n2. AC JC", rules=rules)
    assert rules_broken(ruling) == []
    d = ruling.state
    assert d is not None and d.closed and d.stock_left == 11  # nobody drew


@pytest.mark.parametrize("rules", ["schnapsen", "sixty-six close_before_draw=no"])
def test_schnapsen_forbids_closing_before_the_draws(rules: str) -> None:
    trump = "AH"
    ruling = deal("1. KS AS\n2. QS JS close", rules=rules, trump=trump)
    # the violation belongs to the trick just played, trick 2
    assert rules_broken(ruling) == [(2, "Anna", "close-not-allowed")]


def test_a_close_that_is_a_violation_still_closes_the_stock() -> None:
    # Schnapsen: Anna closes before the draws of trick 1, so nobody draws: each player keeps
    # 4 cards, the deal has 1 + 4 tricks, and a sixth trick cannot be.
    five = "1. KS AS close\n2. AC JC\n3. 10C QC\n4. AD JD\n5. 10D QD"
    ruling = deal(five, rules="schnapsen", trump="AH")
    assert rules_broken(ruling) == [(1, "Anna", "close-not-allowed")]
    assert ruling.state is not None and ruling.state.all_tricks_played
    sixth = deal(five + "\n6. KD JS", rules="schnapsen", trump="AH")
    assert sixth.outcome is None and sixth.errors


def test_closing_an_exhausted_stock_is_not_allowed_and_changes_nothing() -> None:
    six = "1. KS AS\n2. 9S 10S\n3. JC AC\n4. 9C 10C\n5. JD AD\n6. 9D 10D\n"
    rest = "7. close KC QH\n8. QS JS\n9. QD KD\n10. QC JH\n11. AH 10H\n12. KH 9H"
    ruling = deal(six + rest)
    assert rules_broken(ruling) == [(7, "Bert", "close-not-allowed")]
    d = ruling.state
    assert d is not None and not d.closed
    # the last-trick bonus still counts: the stock was exhausted, never closed
    # Bert: 10 + 10 + 10 (tricks 2, 4, 6) + 7 (QD KD) = 37
    # Anna: 15 + 13 + 13 (tricks 1, 3, 5) + 7 + 5 + 5 + 21 + 4 (tricks 7 to 12) + 10 = 93
    assert ruling.points == {"Bert": 37, "Anna": 93}


def test_closing_a_closed_stock_is_not_allowed() -> None:
    ruling = deal("1. KS AS close\n2. close AC JC")
    assert rules_broken(ruling) == [(2, "Anna", "close-not-allowed")]


def test_no_drawing_and_no_exchange_after_a_close_through_the_api() -> None:
    d = d66()
    d.play(C("KC"))
    d.play(C("AC"))
    d.close()  # Anna, before the draws
    assert d.draw() is None
    assert d.stock_left == 11 and d.phase == 2
    with pytest.raises(IllegalAction) as info:
        d.verify_close()
    assert info.value.rule == "close-not-allowed"


def test_schnapsen_close_before_draws_refused_through_the_api() -> None:
    d = Deal.start(
        RuleSet.parse("schnapsen"),
        dealer="Anna",
        forehand="Bert",
        trump=C("10D"),
        hands={"Bert": cards("AC 10C KS QS JD"), "Anna": cards("AS 10S KC QC JS")},
        stock=cards("AD KD QD AH 10H KH QH JH JC"),
    )
    d.play(C("QS"))
    d.play(C("AS"))
    assert not d.can_close()
    d.draw()
    assert d.can_close()


def test_no_last_trick_bonus_after_a_close() -> None:
    # Anna closes after trick 1 and wins all six later tricks but never claims.
    body = "1. KS AS\n2. close AC 9C\n3. 10C JC\n4. KC QC\n5. AD 9D\n6. 10D JD\n7. KD QD"
    ruling = deal(body, rules="pagat-66", trump="AH")
    # Anna: 15 + 11 + 12 + 7 + 11 + 12 + 7 = 75, and no bonus
    assert ruling.points == {"Bert": 0, "Anna": 75}


# --- random play ------------------------------------------------------------------------------

RANDOM_RULES = (
    "sixty-six",
    "schnapsen",
    "pagat-66",
    "sixty-six exchange_when=lead",
    "sixty-six close_before_draw=no",
    "schnapsen marriage_in_phase2=yes",
    "pagat-66 exchange_needs_trick=no",
    "sixty-six hand=5",
)


@pytest.mark.parametrize("spec", RANDOM_RULES)
def test_random_play_is_legal_and_takes_every_kind_of_action(spec: str) -> None:
    """:meth:`Deal.play_out_randomly` (the unchecked step a card at a time) plays deals that
    replay from their records with no violation, to the deal's end, ruled as the deal itself
    rules them; over a few dozen seeds it declares, exchanges, closes and claims."""
    import random

    from tally.engine.notation import read_deal, write_deal
    from tally.engine.ruling import rule

    rules = RuleSet.parse(spec)
    seen: set[str] = set()
    for seed in range(60):
        rng = random.Random(seed)
        deal = Deal.random(rules, rng, names=("Bert", "Anna"), carry=seed % 3)
        deal.play_out_randomly(rng)
        assert deal.is_over and deal.violations == ()
        text = write_deal(deal.record(hands=True))
        ruling = rule(read_deal(text))
        assert ruling.ok and ruling.outcome == deal.ruling().outcome
        seen.update(word for word in ("20 ", "40 ", "swap", "close", "66") if word in text)
    assert {"swap", "close", "66"} <= seen and seen & {"20 ", "40 "}


def test_the_shuffle_takes_the_digits_one_radix_at_a_time() -> None:
    """The deck a seed shuffles is the one Fisher-Yates gives dividing the 160-bit number by
    each radix in turn (so a seed deals as it always has), for both decks."""
    from tally.engine.deal import _DECK20, _DECK24, _shuffled

    def one_radix_at_a_time(cards: tuple[int, ...], rng: random.Random) -> list[int]:
        deck = list(cards)
        x = rng.getrandbits(160)
        for i in range(len(deck) - 1, 0, -1):
            x, j = divmod(x, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    for cards in (_DECK20, _DECK24):
        for seed in range(500):
            assert _shuffled(cards, random.Random(seed)) == one_radix_at_a_time(
                cards, random.Random(seed)
            )


def test_a_random_card_is_the_k_th_lowest_of_the_hand() -> None:
    """:func:`tally.engine.kernel.random_card` takes the k-th lowest card of a hand, k the random
    number times the hand's size (so a seed plays as it always has), for hands anywhere in
    the deck: every card alone, and random hands of one to twelve cards."""
    import functools

    from tally.engine.kernel import random_card

    rng = random.Random(12)
    hands = [1 << card for card in range(24)] + [
        sum(1 << card for card in rng.sample(range(24), rng.randint(1, 12))) for _ in range(2000)
    ]
    for hand in hands:
        cards = [card for card in range(24) if hand >> card & 1]
        for k, card in enumerate(cards):
            drawn = (k + 0.5) / len(cards)  # (a number that falls on the k-th card)
            assert random_card(hand, functools.partial(float, drawn)) == card
