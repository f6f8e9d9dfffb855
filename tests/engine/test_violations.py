"""Violations: every name of RULES.md section 10, and what a record proves (section 12).

The scorer sees the cards as they are played, not the hands: a revoke is a violation only
when the record proves the card the player should have played, perhaps tricks later.
Bert is forehand and leads the first trick; Anna deals. QH is turned up unless said otherwise.
"""

from __future__ import annotations

import pytest

from tally.engine.ruling import Ruling, rule_text

ALL_NAMES = {
    "follow-suit",
    "must-head",
    "must-trump",
    "marriage-not-allowed",
    "false-marriage",
    "exchange-not-allowed",
    "false-exchange",
    "close-not-allowed",
}


def deal(body: str, rules: str = "sixty-six", trump: str = "QH", **tags: str) -> Ruling:
    """Rule on a record of Bert (forehand) against Anna (dealer); tags go after Trump."""
    head = f'[Rules "{rules}"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "{trump}"]\n'
    head += "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return rule_text(head + "\n" + body.strip() + "\n")


def broken(ruling: Ruling) -> list[tuple[int, str, str]]:
    """(trick, player, rule) of every violation, in the order the ruling gives them."""
    assert ruling.errors == (), ruling.errors
    return [(v.trick, v.player, v.rule) for v in ruling.violations]


def decided(ruling: Ruling) -> tuple[str | None, int, str]:
    assert ruling.outcome is not None
    return ruling.outcome.winner, ruling.outcome.game_points, ruling.outcome.reason


# Six phase-1 tricks of Sixty-Six: Bert wins trick 6, so Anna draws the turn-up QH last.
# Bert: 10 + 10 + 10 = 30; Anna: 15 + 13 + 13 = 41.
SIX = "1. KS AS\n2. 9S 10S\n3. JC AC\n4. 9C 10C\n5. JD AD\n6. 9D 10D\n"


# --- follow-suit ---------------------------------------------------------------------------------

# Anna closes before trick 2; at trick 3 Bert discards a diamond to her 10C.
FOLLOW = {
    "sixty-six": ("1. KS AS\n2. close AC 9C\n3. 10C 9D", "4. AD JD\n5. QC KC", "KC"),
    "pagat-66": ("1. KS AS\n2. close AC 9C\n3. 10C 9D", "4. AD JD\n5. QC KC", "KC"),
    "schnapsen": ("1. KS AS\n2. close AC JC\n3. 10C JD", "4. AD QD\n5. QC KC", "KC"),
}


@pytest.mark.parametrize("preset", sorted(FOLLOW))
def test_revoke_is_proved_by_a_later_play(preset: str) -> None:
    start, later, _ = FOLLOW[preset]
    # Bert plays KC two tricks after he failed to follow 10C: he held it then (no drawing)
    ruling = deal(start + "\n" + later, rules=preset)
    assert broken(ruling) == [(3, "Bert", "follow-suit")]
    assert decided(ruling) == ("Anna", 3, "illegal-play")


@pytest.mark.parametrize("preset", sorted(FOLLOW))
def test_revoke_is_proved_by_remaining(preset: str) -> None:
    start, _, card = FOLLOW[preset]
    ruling = deal(start, rules=preset, Remaining=f"Bert: {card}")
    assert broken(ruling) == [(3, "Bert", "follow-suit")]
    assert "KC" in ruling.violations[0].message


def test_revoke_is_proved_by_hands() -> None:
    start, _, _ = FOLLOW["sixty-six"]
    ruling = deal(start, Hands="Bert: KS 9C 9D KC JH JS")
    assert broken(ruling) == [(3, "Bert", "follow-suit")]


@pytest.mark.parametrize("preset", sorted(FOLLOW))
def test_a_revoke_the_record_does_not_prove_is_no_violation(preset: str) -> None:
    start, _, _ = FOLLOW[preset]
    ruling = deal(start, rules=preset)
    assert broken(ruling) == []
    assert decided(ruling) == (None, 0, "incomplete")


def test_a_marriage_partner_shown_proves_a_revoke() -> None:
    # Anna showed QD with her 20 in diamonds; after her close Bert leads AD and she discards
    ruling = deal("1. KS AS\n2. 20 KD 9D\n3. close 10C AC\n4. AD JC")
    assert broken(ruling) == [(4, "Anna", "follow-suit")]
    assert decided(ruling) == ("Bert", 3, "illegal-play")


def test_revoke_after_the_stock_is_exhausted() -> None:
    # Anna drew QH last; Bert leads KH in trick 7 and she discards JS: QH proves a heart.
    ruling = deal(SIX + "7. KH JS")
    assert broken(ruling) == [(7, "Anna", "follow-suit")]


def test_no_revoke_in_phase_one_whatever_the_record_shows() -> None:
    ruling = deal("1. KC 9S\n2. QC AC", Hands="Anna: AC 10C KS QS JS 9S")
    assert broken(ruling) == []


# --- must-head -----------------------------------------------------------------------------------

HEAD = {
    "sixty-six": "1. KS AS\n2. close KC JC\n3. AD 9D\n4. QC 10C",
    "pagat-66": "1. KS AS\n2. close KC JC\n3. AD 9D\n4. QC 10C",
    "schnapsen": "1. KS AS\n2. close KC JC\n3. AD JD\n4. QC 10C",
}


@pytest.mark.parametrize("preset", sorted(HEAD))
def test_following_low_while_holding_a_card_that_beats_the_lead(preset: str) -> None:
    # Anna leads KC after her close; Bert plays JC, and shows 10C two tricks later
    ruling = deal(HEAD[preset], rules=preset)
    assert broken(ruling) == [(2, "Bert", "must-head")]
    assert decided(ruling) == ("Anna", 3, "illegal-play")


def test_must_head_proved_by_remaining() -> None:
    ruling = deal("1. KS AS\n2. close KC JC", Remaining="Bert: 10C AH")
    assert broken(ruling) == [(2, "Bert", "must-head")]


def test_must_head_proved_by_hands() -> None:
    ruling = deal("1. KS AS\n2. close KC JC", Hands="Bert: KS JC AC 9H 9D JS")
    assert broken(ruling) == [(2, "Bert", "must-head")]


def test_following_low_is_fine_when_no_higher_card_is_proved() -> None:
    # Bert holds QC: lower than the king led, so he may play the jack
    ruling = deal("1. KS AS\n2. close KC JC", Remaining="Bert: QC 9C")
    assert broken(ruling) == []


def test_the_ten_beats_the_king_but_not_the_ace() -> None:
    # 10C does not beat AC: nothing to head
    assert broken(deal("1. KS AS\n2. close AC JC", Remaining="Bert: 10C")) == []


# --- must-trump ----------------------------------------------------------------------------------

TRUMP = {
    "sixty-six": "1. KS AS\n2. close AC 9D\n3. AD JD\n4. 10S KH",
    "pagat-66": "1. KS AS\n2. close AC 9D\n3. AD JD\n4. 10S KH",
    "schnapsen": "1. KS AS\n2. close AC JD\n3. AD QD\n4. 10S KH",
}


@pytest.mark.parametrize("preset", sorted(TRUMP))
def test_discarding_while_holding_a_trump(preset: str) -> None:
    # Bert has no club (none shown) but KH, shown at trick 4: he had to trump at trick 2
    ruling = deal(TRUMP[preset], rules=preset)
    assert broken(ruling) == [(2, "Bert", "must-trump")]


def test_must_trump_proved_by_remaining() -> None:
    ruling = deal("1. KS AS\n2. close AC 9D", Remaining="Bert: 10H JS")
    assert broken(ruling) == [(2, "Bert", "must-trump")]


def test_must_trump_proved_by_hands() -> None:
    ruling = deal("1. KS AS\n2. close AC 9D", Hands="Bert: KS 9D KH JS 9S QD")
    assert broken(ruling) == [(2, "Bert", "must-trump")]


def test_a_card_of_the_suit_led_makes_it_follow_suit_not_must_trump() -> None:
    ruling = deal("1. KS AS\n2. close AC 9D", Remaining="Bert: 10H 9C")
    assert broken(ruling) == [(2, "Bert", "follow-suit")]


def test_the_turn_up_taken_by_exchange_proves_a_trump() -> None:
    # Anna exchanges 9H for QH before trick 2; after Bert's close she discards KC to 10S
    ruling = deal("1. KS AS\n2. swap 9C JC\n3. close 10S KC")
    assert broken(ruling) == [(3, "Anna", "must-trump")]


def test_the_turn_up_drawn_last_proves_a_trump() -> None:
    ruling = deal(SIX + "7. KC JS")
    assert broken(ruling) == [(7, "Anna", "must-trump")]


def test_trumping_low_is_enough() -> None:
    ruling = deal(SIX + "7. KC 9H", Remaining="Anna: AH")
    assert broken(ruling) == []


# --- marriage-not-allowed ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["sixty-six", "pagat-66"])
def test_sixty_six_forbids_marriages_after_a_close(preset: str) -> None:
    ruling = deal("1. KS AS\n2. close 20 KD 9D", rules=preset)
    assert broken(ruling) == [(2, "Anna", "marriage-not-allowed")]
    assert ruling.points == {"Bert": 0, "Anna": 19}  # the 20 never scores
    assert decided(ruling) == ("Bert", 3, "illegal-play")


def test_sixty_six_forbids_marriages_once_the_stock_is_exhausted() -> None:
    ruling = deal(SIX + "7. 20 KC QH")
    assert broken(ruling) == [(7, "Bert", "marriage-not-allowed")]


def test_schnapsen_allows_them() -> None:
    ruling = deal("1. KS AS\n2. close 20 KD JD", rules="schnapsen")
    assert broken(ruling) == []


# --- false-marriage ------------------------------------------------------------------------------


def test_marriage_false_when_its_partner_was_played_before() -> None:
    ruling = deal("1. KS AS\n2. QD JD\n3. 20 KD 9C")
    assert broken(ruling) == [(3, "Anna", "false-marriage")]
    # 15 + 5 + 4: the false 20 never scores
    assert ruling.points == {"Bert": 0, "Anna": 24}


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen", "pagat-66"])
def test_marriage_proved_false_by_the_opponent_playing_its_partner_later(preset: str) -> None:
    low = "JD" if preset == "schnapsen" else "9D"
    ruling = deal(f"1. KS AS\n2. 20 KD {low}\n3. 10C QD", rules=preset)
    assert broken(ruling) == [(2, "Anna", "false-marriage")]
    assert decided(ruling) == ("Bert", 3, "illegal-play")


def test_marriage_false_when_its_partner_is_the_turn_up() -> None:
    ruling = deal("1. KS AS\n2. 40 KH 9C")
    assert broken(ruling) == [(2, "Anna", "false-marriage")]


def test_marriage_false_when_the_opponent_took_its_partner_by_exchange() -> None:
    # Bert wins trick 1 and takes QH for 9H before trick 2; Anna then declares 40 in hearts
    ruling = deal("1. AS KS\n2. swap 9C AC\n3. 40 KH 9D")
    assert broken(ruling) == [(3, "Anna", "false-marriage")]


def test_marriage_false_when_its_partner_is_in_the_opponents_hands() -> None:
    ruling = deal("1. KS AS\n2. 20 KD 9C", Hands="Bert: KS 9C QD JD 10D 9S")
    assert broken(ruling) == [(2, "Anna", "false-marriage")]


def test_marriage_false_when_its_partner_is_in_the_opponents_remaining() -> None:
    ruling = deal("1. KS AS\n2. 20 KD 9C", Remaining="Bert: QD")
    assert broken(ruling) == [(2, "Anna", "false-marriage")]


def test_marriage_true_when_the_declarer_plays_its_partner_later() -> None:
    ruling = deal("1. KS AS\n2. 20 KD 9C\n3. QD JD")
    assert broken(ruling) == []
    assert ruling.points == {"Bert": 0, "Anna": 15 + 4 + 20 + 5}


def test_marriage_true_with_the_turn_up_taken_by_exchange() -> None:
    # Anna takes QH by exchange and declares 40 at once
    ruling = deal("1. KS AS\n2. swap 40 KH 9C")
    assert broken(ruling) == []
    assert ruling.points == {"Bert": 0, "Anna": 15 + 4 + 40}


def test_schnapsen_marriage_false_when_its_partner_lies_in_the_closed_stock() -> None:
    ruling = deal("1. KS AS\n2. close 40 KH JC", rules="schnapsen")
    assert broken(ruling) == [(2, "Anna", "false-marriage")]


def test_a_marriage_both_not_allowed_and_false_gives_both_violations() -> None:
    # Sixty-Six, after a close, in trumps while the QH lies in the closed stock
    ruling = deal("1. KS AS\n2. close 40 KH 9C")
    assert sorted(broken(ruling)) == [
        (2, "Anna", "false-marriage"),
        (2, "Anna", "marriage-not-allowed"),
    ]
    assert ruling.points == {"Bert": 0, "Anna": 19}


# --- exchange-not-allowed ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "body", "trick"),
    [
        ("sixty-six", "1. swap KS AS", 1),  # no trick won yet
        ("pagat-66", "1. KS AS\n2. JS 10S\n3. 9C AC\n4. 10C swap JC", 4),  # not on lead
        ("schnapsen", "1. KS AS\n2. QS swap JS", 2),  # not on lead
        ("sixty-six", "1. KS AS\n2. close swap AC 9C", 2),  # stock closed
        ("schnapsen", "1. KS AS\n2. close swap AC JC", 2),
        ("sixty-six", SIX + "7. swap KC QH", 7),  # stock exhausted
    ],
)
def test_exchange_not_allowed(rules: str, body: str, trick: int) -> None:
    ruling = deal(body, rules=rules, trump="QH" if rules != "schnapsen" else "AH")
    assert broken(ruling)[0][0::2] == (trick, "exchange-not-allowed")
    assert decided(ruling)[2] == "illegal-play"


# --- false-exchange ------------------------------------------------------------------------------


def test_exchange_proved_false_by_the_exchange_card_turning_up_elsewhere() -> None:
    # Anna exchanges before trick 2, so 9H lies face up; Bert then plays it
    ruling = deal("1. KS AS\n2. swap AC 9C\n3. 10C 9H")
    assert broken(ruling) == [(2, "Anna", "false-exchange")]
    assert decided(ruling) == ("Bert", 3, "illegal-play")


def test_exchange_false_when_the_exchange_card_was_played_before() -> None:
    # Bert trumps with 9H in trick 2, then exchanges before trick 3
    ruling = deal("1. KS AS\n2. AC 9H\n3. swap JC QC")
    assert broken(ruling) == [(3, "Bert", "false-exchange")]


def test_exchange_false_when_the_exchanger_plays_the_card_that_should_lie_face_up() -> None:
    ruling = deal("1. KS AS\n2. swap AC 9C\n3. 9H JC")
    assert broken(ruling) == [(2, "Anna", "false-exchange")]


def test_exchange_false_when_the_opponents_hands_hold_the_exchange_card() -> None:
    ruling = deal("1. KS AS\n2. swap AC 9C", Hands="Bert: KS 9C 9H JD QD 10S")
    assert broken(ruling) == [(2, "Anna", "false-exchange")]


def test_exchange_false_when_the_opponents_remaining_holds_the_exchange_card() -> None:
    ruling = deal("1. KS AS\n2. swap AC 9C", Remaining="Bert: 9H")
    assert broken(ruling) == [(2, "Anna", "false-exchange")]


def test_exchange_false_when_the_exchange_card_leaves_a_closed_stock() -> None:
    # Anna exchanges, then closes: 9H lies in the closed stock for good
    ruling = deal("1. KS AS\n2. swap AC 9C\n3. close 10C JC\n4. AD 9H")
    assert broken(ruling) == [(2, "Anna", "false-exchange")]


def test_exchange_true_when_the_loser_of_the_last_draw_plays_the_exchange_card() -> None:
    # Anna exchanges before trick 6 and wins it; Bert draws 9H last and plays it
    body = "1. KS AS\n2. 9S 10S\n3. JC AC\n4. 9C 10C\n5. JD AD\n6. swap 10D 9D\n7. AH 9H"
    assert broken(deal(body)) == []


def test_exchange_false_when_the_winner_of_the_last_draw_shows_the_exchange_card() -> None:
    # the same, but Anna (who drew the face-down card) leads 9H: her exchange was false.
    body = "1. KS AS\n2. 9S 10S\n3. JC AC\n4. 9C 10C\n5. JD AD\n6. swap 10D 9D\n7. 9H KC"
    assert broken(deal(body))[0] == (6, "Anna", "false-exchange")


@pytest.mark.parametrize(("rules", "card"), [("schnapsen", "JH"), ("pagat-66", "9H")])
def test_false_exchange_in_other_presets(rules: str, card: str) -> None:
    ruling = deal(f"1. KS AS\n2. swap AC JC\n3. 10C {card}", rules=rules, trump="AH")
    assert broken(ruling) == [(2, "Anna", "false-exchange")]


# --- close-not-allowed ---------------------------------------------------------------------------


def test_schnapsen_close_before_the_draws_belongs_to_the_trick_just_played() -> None:
    body = "1. KS AS\n2. AC JC\n3. 10C QC close"
    assert broken(deal(body, rules="schnapsen")) == [(3, "Anna", "close-not-allowed")]


@pytest.mark.parametrize("rules", ["sixty-six", "pagat-66"])
def test_close_of_an_exhausted_stock_is_not_allowed(rules: str) -> None:
    assert broken(deal(SIX + "7. close KC QH", rules=rules)) == [(7, "Bert", "close-not-allowed")]


def test_close_after_the_last_draw_written_after_trick_six_belongs_to_trick_six() -> None:
    # Bert wins trick 6 and "closes" after it: before its draws the stock still holds one card,
    # so this close is allowed in Sixty-Six.
    assert broken(deal(SIX.rstrip() + " close\n7. KC QS")) == []


def test_close_of_a_closed_stock_is_not_allowed() -> None:
    assert broken(deal("1. KS AS close\n2. close AC JC")) == [(2, "Anna", "close-not-allowed")]


# --- the earliest decisive event -----------------------------------------------------------------


def test_a_violation_before_a_correct_claim_decides() -> None:
    # Anna's 20 in diamonds at trick 3 is false (she led QD in trick 2); she later "claims"
    # 78 counting it. The violation comes first: Bert scores 3.
    body = "1. KS AS\n2. QD JD\n3. 20 KD 9C\n4. AC 9S\n5. 10C JC\n6. AH 9H 66"
    ruling = deal(body)
    assert broken(ruling) == [(3, "Anna", "false-marriage")]
    assert decided(ruling) == ("Bert", 3, "illegal-play")
    assert ruling.points == {"Bert": 0, "Anna": 58}  # 15 + 5 + 4 + 11 + 12 + 11


def test_a_violation_proved_after_a_claim_still_decides() -> None:
    # Bert revokes at trick 3; Anna claims after trick 5 and Remaining shows Bert's KC.
    # Anna: 15 + 4 + 10 + 13 + 13 + 20 = 75; the revoke decides, still in her favour.
    body = "1. KS AS\n2. 20 KD 9D\n3. close 10C 9S\n4. AD JD\n5. AC JC 66"
    ruling = deal(body, Remaining="Bert: KC")
    assert broken(ruling) == [(3, "Bert", "follow-suit")]
    assert decided(ruling) == ("Anna", 3, "illegal-play")


def test_the_first_violation_decides_and_every_one_is_listed_in_play_order() -> None:
    # Anna's false marriage at trick 2, then Bert's revoke at trick 4
    body = "1. KS AS\n2. 20 KD 9C\n3. close 10C QD\n4. JC KC"
    ruling = deal(body)
    assert broken(ruling) == [(2, "Anna", "false-marriage"), (3, "Bert", "follow-suit")]
    assert decided(ruling) == ("Bert", 3, "illegal-play")


def test_play_after_a_violation_still_counts_in_tricks_and_points() -> None:
    start, later, _ = FOLLOW["sixty-six"]
    ruling = deal(start + "\n" + later)
    # Anna: 15 + 11 + 10 + 13 = 49 (tricks 1 to 4); Bert: KC over QC, 7
    assert ruling.tricks == {"Bert": 1, "Anna": 4}
    assert ruling.points == {"Bert": 7, "Anna": 49}


def test_a_claim_ends_the_record_so_nothing_after_it_is_judged() -> None:
    ruling = deal("1. KS AS 66\n2. AC 9D")
    assert ruling.outcome is None and ruling.errors


ONE_OF_EACH = {
    "follow-suit": FOLLOW["sixty-six"][0] + "\n" + FOLLOW["sixty-six"][1],
    "must-head": HEAD["sixty-six"],
    "must-trump": TRUMP["sixty-six"],
    "marriage-not-allowed": "1. KS AS\n2. close 20 KD 9D",
    "false-marriage": "1. KS AS\n2. 40 KH 9C",
    "exchange-not-allowed": "1. swap KS AS",
    "false-exchange": "1. KS AS\n2. swap AC 9C\n3. 10C 9H",
    "close-not-allowed": "1. KS AS close\n2. close AC JC",
}


@pytest.mark.parametrize("name", sorted(ONE_OF_EACH))
def test_each_violation_is_named_as_in_section_10(name: str) -> None:
    ruling = deal(ONE_OF_EACH[name])
    assert [v.rule for v in ruling.violations] == [name]
    assert ruling.violations[0].message  # and says what happened


def test_the_names_are_exactly_those_of_section_10() -> None:
    assert set(ONE_OF_EACH) == ALL_NAMES
