"""After a false exchange the card lying face up is unknown (RULES.md section 12).

The exchanger puts some card of their own face up, not the exchange card; whoever takes it
(the loser of the last draw, or a later exchanger) may play one card more from outside their
dealt hand than they drew face down. The exchanger who takes back what they put there gains
nothing.
"""

from __future__ import annotations

from tally.engine.ruling import Ruling, rule_text


def decided(ruling: Ruling) -> tuple[str | None, int, str]:
    assert ruling.errors == (), ruling.errors
    assert ruling.outcome is not None
    return ruling.outcome.winner, ruling.outcome.game_points, ruling.outcome.reason


def first_violation(ruling: Ruling) -> tuple[int, str, str]:
    v = ruling.violations[0]
    return v.trick, v.player, v.rule


# The record of issue 8: Hans exchanges in trick 3 after playing the exchange card 9C in trick
# 1. Zoë loses trick 6 and takes the card Hans put face up: QS, played in trick 11.
ZOE_HANS = """\
[Rules "sixty-six"]
[Dealer "Zoë"]
[Forehand "Hans"]
[Trump "10C"]
[Hands "Hans: QC 9C QD 9D KS 9S; Zoë: 10D KD JD QH JH AS"]

1. 9C AS
2. KH KD
3. swap 9D JD
4. 9H 10C
5. QC JC
6. 9S AD
7. QD 10D
8. AC KC
9. 10S KS
10. JH AH
11. JS QS
12. QH 10H
"""

# The mirror: the dealer (Anna) exchanges falsely in trick 2 (she played 9H in trick 1) and
# puts KC face up; the forehand (Bert) loses trick 6, takes KC and plays it in trick 7.
ANNA_BERT = """\
[Dealer "Anna"]
[Forehand "Bert"]
[Trump "QH"]
[Hands "Bert: AS 10S KS QS JS 9D; Anna: AC 10C KC QC 9H 9S"]

1. 9D 9H
2. swap 9S JS
3. 9C JC
4. QD JD
5. KD 10D
6. QS QH
7. AC KC
8. 10C JH
9. AS 10H
10. AH KH
11. AD KS
12. QC 10S
"""


def test_the_loser_of_the_last_draw_plays_the_card_a_false_exchange_left_face_up() -> None:
    ruling = rule_text(ZOE_HANS)
    assert decided(ruling) == ("Zoë", 3, "illegal-play")
    assert first_violation(ruling) == (3, "Hans", "false-exchange")


def test_the_forehand_plays_the_card_the_dealers_false_exchange_left_face_up() -> None:
    ruling = rule_text(ANNA_BERT)
    assert decided(ruling) == ("Bert", 3, "illegal-play")
    assert [(v.trick, v.player, v.rule) for v in ruling.violations] == [
        (2, "Anna", "false-exchange")
    ]


def test_the_false_exchanger_who_takes_back_the_face_up_card_gains_no_card() -> None:
    # Anna exchanges falsely, then loses trick 6 and takes back the card she put face up: she
    # holds no more cards from outside her dealt hand than she drew face down (5). Bert's
    # hand is not given, so only that count shows that 10H (her sixth) cannot be hers.
    head, body = ANNA_BERT.split("\n\n")
    head = head.replace("Bert: AS 10S KS QS JS 9D; ", "")
    lines = [*body.splitlines()[:5], "6. QS AD", "7. JH AH", "8. 10H KH"]
    ruling = rule_text(head + "\n\n" + "\n".join(lines) + "\n")
    assert ruling.outcome is None
    error = ruling.errors[0]
    assert error.line == 13, error
    assert "10H is not in Anna's dealt hand" in error.message
    assert "drawn only 5 face-down card(s), all played already" in error.message
    # one card fewer from outside her hand, and the record is a real deal so far
    lines[-1] = "8. 10C KH"
    assert rule_text(head + "\n\n" + "\n".join(lines) + "\n").errors == ()


def test_after_a_true_exchange_the_loser_of_the_last_draw_may_play_the_exchange_card() -> None:
    # Anna exchanges 9H truly before trick 6 and wins it; Bert takes 9H at the last draw and
    # plays it, though it is not in his dealt hand.
    text = """\
[Dealer "Anna"]
[Forehand "Bert"]
[Trump "QH"]
[Hands "Bert: KS 10S JC 10C JD 9D"]

1. KS AS
2. 9S 10S
3. JC AC
4. 9C 10C
5. JD AD
6. swap 10D 9D
7. AH 9H
"""
    ruling = rule_text(text)
    assert ruling.errors == () and ruling.violations == (), ruling
    # Bert's Hands holding 9H instead: the exchange is false, and still no record error.
    ruling = rule_text(text.replace("JD 9D", "9H 9D").replace("5. JD AD", "5. KD AD"))
    assert ruling.errors == (), ruling.errors
    assert first_violation(ruling) == (6, "Anna", "false-exchange")


# Anna (Hands given) exchanges falsely in trick 2, after playing 9H: she may have put KC,
# one of her dealt clubs, face up. Bert takes it at the last draw and leads 9C in trick 8.
ONE_CLUB_LEFT = """\
[Dealer "Anna"]
[Forehand "Bert"]
[Trump "QH"]
[Hands "Anna: AC 10C KC QC 9H 9S"]

1. 9D 9H
2. swap AC JC
3. 10C KS
4. QC QD
5. 9S JD
6. QH KD
7. JH AH
8. 9C 10S
9. KC AS
"""


def test_the_false_exchanger_need_not_hold_the_dealt_card_they_may_have_put_face_up() -> None:
    # Anna's only dealt club left is KC, which Bert took and plays in trick 9: not following
    # 9C in trick 8 is no revoke the record proves.
    ruling = rule_text(ONE_CLUB_LEFT)
    assert ruling.errors == ()
    assert [(v.trick, v.player, v.rule) for v in ruling.violations] == [
        (2, "Anna", "false-exchange")
    ]


def test_the_false_exchanger_still_revokes_with_two_dealt_cards_of_the_suit_left() -> None:
    # Anna keeps QC too: whichever card she put face up, she held a club in trick 8.
    ruling = rule_text(ONE_CLUB_LEFT.replace("4. QC QD", "4. 10D QD"))
    assert ruling.errors == ()
    assert [(v.trick, v.player, v.rule) for v in ruling.violations][:2] == [
        (2, "Anna", "false-exchange"),
        (8, "Anna", "follow-suit"),
    ]


def test_remaining_may_list_the_card_a_false_exchanger_put_face_up_for_the_taker() -> None:
    # Bert took KC (dealt to Anna) at the last draw and still holds it when the record ends
    head, body = ONE_CLUB_LEFT.split("\n\n")
    record = head + '\n[Remaining "Bert: KC"]\n\n' + "\n".join(body.splitlines()[:8]) + "\n"
    assert rule_text(record).errors == ()
    # before the last draw Bert has taken nothing: Remaining cannot give him her dealt cards
    both = head + '\n[Remaining "Bert: KC QC"]\n\n' + "\n".join(body.splitlines()[:3]) + "\n"
    [error] = rule_text(both).errors
    assert "Hands gives it to Anna" in error.message
