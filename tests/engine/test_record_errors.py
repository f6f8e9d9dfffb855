"""Record errors: RULES.md section 11, one test for each kind, with the line it is on.

A record that cannot describe a real deal gets errors and no ruling (``outcome`` is None).
Line numbers count every line of the record from 1, tags included.
"""

from __future__ import annotations

import pytest

from tally.engine.ruling import ErrorEntry, Ruling, rule_text

TAGS = '[Rules "{rules}"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "QH"]\n'


def deal(body: str, rules: str = "sixty-six", **tags: str) -> Ruling:
    """Lines 1 to 4 are the tags Rules, Dealer, Forehand, Trump; extra tags follow; then a
    blank line; so with no extra tag trick 1 is on line 6."""
    head = TAGS.format(rules=rules)
    head += "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return rule_text(head + "\n" + body.strip() + "\n")


def the_error(ruling: Ruling) -> ErrorEntry:
    assert ruling.outcome is None
    assert ruling.violations == ()
    assert len(ruling.errors) == 1, ruling.errors
    return ruling.errors[0]


def error_on(ruling: Ruling, line: int | None, *words: str) -> None:
    error = the_error(ruling)
    assert error.line == line, error
    for word in words:
        assert word in error.message, error


# --- cards ---------------------------------------------------------------------------------------


def test_a_card_not_in_the_deck() -> None:
    error_on(deal("1. KS AS\n2. 10C 9C", rules="schnapsen"), 7, "9C")


def test_a_card_played_twice() -> None:
    error_on(deal("1. KS AS\n2. AC KS"), 7, "KS")


def test_the_turn_up_played_while_it_lies_on_the_table() -> None:
    error_on(deal("1. KS AS\n2. AC QH"), 7, "QH")


def test_the_turn_up_played_from_a_closed_stock() -> None:
    error_on(deal("1. KS AS\n2. close 10C JC\n3. QH 9C"), 8, "QH")


def test_a_card_the_record_places_in_the_other_players_hands() -> None:
    error_on(deal("1. KS AS", Hands="Anna: KS 9S 10S KD QD JD"), 7, "KS")


def test_the_turn_up_the_other_player_took_by_exchange() -> None:
    body = "1. KS AS\n2. JS 10S\n3. 9C AC\n4. 10C swap JC\n5. QH KC"
    error_on(deal(body), 10, "QH")


def test_the_turn_up_the_other_player_drew_last() -> None:
    six = "1. KS AS\n2. 9S 10S\n3. JC AC\n4. 9C 10C\n5. JD AD\n6. 9D 10D\n"
    error_on(deal(six + "7. QH KC"), 12, "QH")


def test_a_card_in_a_closed_stock_cannot_be_played_by_either_player() -> None:
    # Anna closes before the draws of trick 1; QH (the turn-up) stays in the stock for good
    error_on(deal("1. KS AS close\n2. QH JC"), 7, "QH")


def test_playing_from_outside_the_dealt_hand_before_any_draw() -> None:
    error_on(deal("1. KC AS", Hands="Bert: KS 9S 10S KD QD JD"), 7, "KC")


def test_playing_more_cards_from_outside_the_dealt_hand_than_drawn() -> None:
    # Bert drew one card after trick 1 (JC may be it), then Anna closed: QC cannot be his too
    body = "1. KS AS\n2. close 10C JC\n3. AC QC"
    assert deal(body.rsplit("\n", 1)[0], Hands="Bert: KS 9S 10S KD QD JD").errors == ()
    error_on(deal(body, Hands="Bert: KS 9S 10S KD QD JD"), 9, "QC")


def test_the_turn_up_and_exchange_card_aside_a_player_may_play_what_he_took() -> None:
    # Bert's dealt hand has 9H; he exchanges it for QH and plays QH: no error
    body = "1. AS KS\n2. swap QH JC"
    assert deal(body, Hands="Bert: AS 9H 10S KD QD JD").errors == ()


# --- marriages and claims ------------------------------------------------------------------------


def test_twenty_for_a_marriage_in_trumps() -> None:
    error_on(deal("1. KS AS\n2. 20 KH 9C"), 7, "40")


def test_forty_for_a_marriage_in_a_plain_suit() -> None:
    error_on(deal("1. KS AS\n2. 40 KD 9C"), 7, "20")


def test_a_marriage_is_declared_with_a_king_or_a_queen() -> None:
    assert the_error(deal("1. KS AS\n2. 20 JD 9C")).line == 7


def test_66_straight_after_a_led_card_without_a_marriage() -> None:
    error_on(deal("1. KS AS\n2. AC 66"), 7, "66")


def test_an_action_after_a_claim_on_the_same_line() -> None:
    error_on(deal("1. KS AS 66 close"), 6)


def test_an_action_after_a_claim_on_a_later_line() -> None:
    error_on(deal("1. KS AS 66\n2. AC 9C"), 7)


def test_two_claims() -> None:
    error_on(deal("1. KS AS 66 66@Bert"), 6)


# Twelve tricks of Sixty-Six, nobody closing or claiming (trick 12 on line 17).
TWELVE = (
    "1. KC AC\n2. 9S 10S\n3. swap JD AD\n4. 20 KS AS\n5. 9C 10C\n6. 9D 10D\n"
    "7. KD QD\n8. JC 9H\n9. QS 10H\n10. QC KH\n11. JS JH\n12. QH AH"
)


def test_a_claim_after_the_last_trick_on_its_line_is_fine() -> None:
    assert deal(TWELVE + " 66").errors == ()


def test_a_close_after_the_last_trick() -> None:
    error_on(deal(TWELVE + " close"), 17)


def test_a_claim_on_a_line_after_the_last_trick() -> None:
    error_on(deal(TWELVE + "\n13. 66"), 18)


def test_a_trick_after_the_last_trick() -> None:
    error_on(deal(TWELVE + "\n13. AD 9D"), 18)


def test_a_claim_after_the_last_trick_and_another_item() -> None:
    error_on(deal(TWELVE + " 66 66"), 17)


# --- trick lines ---------------------------------------------------------------------------------


def test_an_unfinished_trick_before_the_last_line() -> None:
    error_on(deal("1. KS AS\n2. AC\n3. 10C 9C"), 7, "2")


def test_a_trick_line_with_no_card_before_the_last_line() -> None:
    assert the_error(deal("1. KS AS\n2. close\n3. 10C 9C")).line == 7


def test_an_unfinished_trick_on_the_last_line_is_fine() -> None:
    ruling = deal("1. KS AS\n2. AC")
    assert ruling.errors == ()
    assert ruling.outcome is not None and ruling.outcome.reason == "incomplete"


def test_three_cards_in_a_trick() -> None:
    assert the_error(deal("1. KS AS 9S")).line == 6


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("1. KS AS\n3. AC 9C", 7),  # a gap
        ("1. KS AS\n1. AC 9C", 7),  # a repeat
        ("2. KS AS", 6),  # not starting at 1
        ("1. KS AS\n2. AC 9C\n2. 10C JC", 8),
    ],
)
def test_trick_numbers_out_of_order(body: str, line: int) -> None:
    error_on(deal(body), line, "order")


# --- tags ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("missing", ["Dealer", "Forehand", "Trump"])
def test_a_missing_required_tag(missing: str) -> None:
    tags = {"Dealer": "Anna", "Forehand": "Bert", "Trump": "QH"}
    del tags[missing]
    text = "".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + "\n1. KS AS\n"
    ruling = rule_text(text)
    assert ruling.outcome is None
    assert any(missing in e.message for e in ruling.errors)


def test_tag_names_are_case_sensitive() -> None:
    ruling = rule_text('[dealer "Anna"]\n[Forehand "Bert"]\n[Trump "QH"]\n\n1. KS AS\n')
    assert ruling.outcome is None
    assert any("Dealer" in e.message for e in ruling.errors)


def test_a_repeated_tag() -> None:
    error_on(deal("1. KS AS", Dealer="Anna"), 5, "Dealer")


def test_a_tag_after_the_first_trick() -> None:
    error_on(rule_text(TAGS.format(rules="sixty-six") + '\n1. KS AS\n[Result "Anna 1"]\n'), 7)


def test_forehand_equal_to_dealer() -> None:
    text = '[Dealer "Anna"]\n[Forehand "Anna"]\n[Trump "QH"]\n\n1. KS AS\n'
    ruling = rule_text(text)
    assert ruling.outcome is None
    assert "Anna" in the_error(ruling).message


def test_forehand_equal_to_dealer_is_reported_on_the_players_lines() -> None:
    text = '[Dealer "Anna"]\n[Forehand "Anna"]\n[Trump "QH"]\n\n1. KS AS\n'
    assert the_error(rule_text(text)).line in (1, 2)


def test_a_carry_that_is_not_a_number_is_reported_on_its_line() -> None:
    error_on(deal("1. KS AS", Carry="one"), 5, "Carry")


def test_a_carry_that_is_not_a_number_is_an_error() -> None:
    assert "Carry" in the_error(deal("1. KS AS", Carry="one")).message


@pytest.mark.parametrize("tag", ["Hands", "Remaining"])
def test_an_unknown_player_in_hands_or_remaining(tag: str) -> None:
    error_on(deal("1. KS AS", **{tag: "Zorro: 9S"}), 5, "Zorro")


def test_an_unknown_player_in_the_result() -> None:
    error_on(deal("1. KS AS", Result="Zorro 2"), 5, "Zorro")


def test_an_unknown_player_claiming() -> None:
    error_on(deal("1. KS AS 66@Zorro"), 6, "Zorro")


def test_a_result_that_is_neither_a_name_and_points_nor_draw() -> None:
    error_on(deal("1. KS AS", Result="Anna"), 5, "Result")


def test_an_unknown_preset() -> None:
    error_on(deal("1. KS AS", rules="bauernschnapsen"), 1, "bauernschnapsen")


def test_an_unknown_option() -> None:
    error_on(deal("1. KS AS", rules="sixty-six trumps_first=yes"), 1, "trumps_first")


def test_an_unknown_option_value() -> None:
    error_on(deal("1. KS AS", rules="sixty-six carry=sometimes"), 1, "sometimes")


def test_a_trump_that_is_not_a_card() -> None:
    ruling = rule_text('[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "QX"]\n\n1. KS AS\n')
    error_on(ruling, 3, "QX")


@pytest.mark.parametrize(
    ("rules", "cards"),
    [
        ("sixty-six", "KS 9S 10S KD QD"),  # five cards where a hand has six
        ("sixty-six", "KS 9S 10S KD QD JD 9D"),  # seven
        ("schnapsen", "KS 10S KD QD JD AD"),  # six where a hand has five
    ],
)
def test_hands_not_listing_a_full_hand(rules: str, cards: str) -> None:
    error_on(deal("1. KS AS", rules=rules, Hands=f"Bert: {cards}"), 5, "Bert")


def test_hands_giving_a_card_to_both_players() -> None:
    ruling = deal("1. KS AS", Hands="Bert: KS 9S 10S KD QD JD; Anna: AS JD 9C 10C JC QC")
    error_on(ruling, 5, "JD")


def test_hands_giving_a_player_the_turn_up() -> None:
    error_on(deal("1. KS AS", Hands="Bert: KS QH 10S KD QD JD"), 5, "QH")


def test_remaining_listing_a_played_card() -> None:
    error_on(deal("1. KS AS\n2. AC 9C", Remaining="Bert: 9C"), 5, "9C")


def test_remaining_listing_more_cards_than_the_player_holds() -> None:
    # after a claim before the draws of trick 1, Bert holds five cards
    error_on(deal("1. KS AS 66", Remaining="Bert: 9S 10S KD QD JD AC"), 5, "Bert")


def test_remaining_listing_some_of_the_cards_is_fine() -> None:
    assert deal("1. KS AS 66", Remaining="Bert: 9S 10S").errors == ()


def test_remaining_giving_a_card_to_both_players() -> None:
    ruling = deal("1. KS AS 66", Remaining="Bert: 9S 10S; Anna: 10S")
    error_on(ruling, 5, "10S")


# --- errors stop the ruling ----------------------------------------------------------------------


def test_a_record_error_gives_no_ruling_even_after_a_violation() -> None:
    # Bert's revoke at trick 3 is proved at trick 4; then trick 5 replays KC
    ruling = deal("1. KS AS\n2. close AC 9C\n3. 10C 9D\n4. JC KC\n5. KC QC")
    error_on(ruling, 10, "KC")
    assert ruling.agreed is None
