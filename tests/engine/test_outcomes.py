"""How a deal ends and what it is worth: RULES.md sections 7 to 9 and every outcome reason of
NOTATION.md (claim, false-claim, failed-close, illegal-play, last-trick, higher-total, draw,
incomplete) under each preset where it applies, the Result tag, the carry.

Each record's counts are worked out by hand in the comment above it (A 11, 10 10, K 4, Q 3,
J 2, 9 0). Bert is forehand and leads the first trick; Anna deals.
"""

from __future__ import annotations

import pytest

from tally.engine.ruling import REASONS, Ruling, rule_text


def deal(body: str, rules: str = "sixty-six", trump: str = "QH", **tags: str) -> Ruling:
    """Rule on a record of Bert (forehand) against Anna (dealer); tags go after Trump."""
    head = f'[Rules "{rules}"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "{trump}"]\n'
    head += "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return rule_text(head + "\n" + body.strip() + "\n")


def outcome(ruling: Ruling) -> tuple[str | None, int, str]:
    assert ruling.errors == (), ruling.errors
    assert ruling.outcome is not None
    return ruling.outcome.winner, ruling.outcome.game_points, ruling.outcome.reason


def test_the_engine_knows_exactly_the_eight_reasons_of_notation_md() -> None:
    assert set(REASONS) == {
        "claim",
        "false-claim",
        "failed-close",
        "illegal-play",
        "last-trick",
        "higher-total",
        "draw",
        "incomplete",
    }


# --- records -------------------------------------------------------------------------------------

# Sixty-Six, QH turned up, all twelve tricks played and nobody claims.
# Bert: 10 (2) + 15 (4) + 10 (6) + 7 (7) + 13 (9) + 4 (11) = 59
# Anna: 15 (1) + 13 (3) + 20 + 10 (5) + 2 (8) + 7 (10) + 14 (12) + 10 last trick = 91
PLAYED_OUT_66 = """
1. KC AC
2. 9S 10S
3. swap JD AD
4. 20 KS AS
5. 9C 10C
6. 9D 10D
7. KD QD
8. JC 9H
9. QS 10H
10. QC KH
11. JS JH
12. QH AH
"""

# Schnapsen, 10D turned up, all ten tricks played, nobody reaches 66.
# Bert: 6 (2) + 14 (3) + 14 (4) + 12 (6) + 5 (8) + 12 (10) = 63
# Anna: 14 (1) + 21 (5) + 7 (7) + 15 (9) = 57; Bert won the last trick.
PLAYED_OUT_SCHNAPSEN = """
1. QS AS
2. JS KS
3. swap AC QC
4. 10C KC
5. 10H AH
6. 10S JD
7. QH KH
8. JC QD
9. KD AD
10. JH 10D
"""

# pagat-66, AD turned up, played out with equal totals.
# Bert: 14 + 15 + 6 + 5 + 12 + 13 (tricks 1 to 6) = 65
# Anna: 15 + 4 + 3 + 10 + 21 + 2 (tricks 7 to 12) + 10 last trick = 65
EQUAL_TOTALS = """
1. AS QS
2. AC KC
3. JS KH
4. QH JC
5. 10D JD
6. QC 10H
7. KD AD
8. KS 9S
9. QD 9H
10. 9D 10C
11. 10S AH
12. JH 9C
"""

# pagat-66, QC turned up, played out: Bert 101 (91 + 10 last trick), Anna 29 with 3 tricks.
SCHNEIDER_PLAYED_OUT = """
1. 10C 9D
2. KC JH
3. AC QD
4. 10S QH
5. KH KD
6. KS JD
7. QS AS
8. 10D JC
9. JS QC
10. 10H 9H
11. AD 9C
12. 9S AH
"""

# pagat-66, 10D turned up, played out: Bert wins every trick, 120 + 10.
SCHWARZ_PLAYED_OUT = """
1. AS 9C
2. 10H 9H
3. 10S JC
4. KD JH
5. KC JS
6. KH QC
7. AD 10D
8. KS QS
9. QD QH
10. JD 10C
11. 9D AC
12. 9S AH
"""

# Sixty-Six, QC turned up: Bert has 63 card points before the last trick's 10.
# Bert: 14 + 6 + 14 + 12 + 6 + 11 = 63 (tricks 1, 7, 9, 10, 11, 12)
# Anna: 21 + 8 + 5 + 0 + 13 + 10 = 57 (tricks 2 to 6, 8)
BONUS_MAKES_66 = """
1. 10S KS
2. 10H AC
3. KD KH
4. JS QD
5. 9D 9S
6. JH AD
7. JC KC
8. 9C 10C
9. QH AH
10. 10D JD
11. QC QS
12. AS 9H
"""


# --- claim ---------------------------------------------------------------------------------------

# Anna wins five tricks: 15 + 12 + 11 + 12 + 4 = 54, and 20 in diamonds: 74. Bert has no trick.
SCHWARZ_CLAIM = "1. KS AS\n2. 10S JS\n3. AC 9C\n4. 10C JC\n5. 20 KD 9D 66"
SCHWARZ_CLAIM_SCHNAPSEN = "1. KS AS\n2. 10S JS\n3. AC JC\n4. 10C QC\n5. 20 KD JD 66"

# Bert: 21 + 12 = 33 exactly; Anna: 11 + 12 + 11 + 6 + 40 in hearts (9H turned up) = 80
EXACTLY_33 = "1. AS 10S\n2. 10C JC\n3. 9D AD\n4. 10D JD\n5. AC 9C\n6. 40 KH JS 66"
# Bert: 21 + 11 = 32; Anna: 11 + 12 + 12 + 6 + 40 = 81
ONLY_32 = "1. AS 10S\n2. AC 9C\n3. 9D AD\n4. 10D JD\n5. 10C JC\n6. 40 KH JS 66"


@pytest.mark.parametrize("preset", ["sixty-six", "pagat-66"])
def test_claim_scores_three_when_the_opponent_has_no_trick(preset: str) -> None:
    ruling = deal(SCHWARZ_CLAIM, rules=preset)
    assert ruling.points == {"Bert": 0, "Anna": 74}
    assert outcome(ruling) == ("Anna", 3, "claim")


def test_schnapsen_claim_scores_three_when_the_opponent_has_no_trick() -> None:
    # 15 + 12 + 13 + 13 + 6 = 59, and 20: 79
    ruling = deal(SCHWARZ_CLAIM_SCHNAPSEN, rules="schnapsen")
    assert ruling.points == {"Bert": 0, "Anna": 79}
    assert outcome(ruling) == ("Anna", 3, "claim")


@pytest.mark.parametrize("preset", ["sixty-six", "pagat-66"])
def test_claim_scores_one_when_the_opponent_has_exactly_33(preset: str) -> None:
    ruling = deal(EXACTLY_33, rules=preset, trump="9H")
    assert ruling.points == {"Bert": 33, "Anna": 80}
    assert outcome(ruling) == ("Anna", 1, "claim")


@pytest.mark.parametrize("preset", ["sixty-six", "pagat-66"])
def test_claim_scores_two_when_the_opponent_is_schneider_under_33(preset: str) -> None:
    ruling = deal(ONLY_32, rules=preset, trump="9H")
    assert ruling.points == {"Bert": 32, "Anna": 81}
    assert outcome(ruling) == ("Anna", 2, "claim")


def test_schnapsen_claim_with_trump_marriage_scores_one() -> None:
    # Bert: 15 + 12 + 21 = 48; Anna: 13 (QC 10H) + 6 + 40 + 13 = 72; Anna on lead after 6
    body = "1. AS KS\n2. 10S JS\n3. AC 10C\n4. QC 10H\n5. 40 KH JC\n6. AD JD 66"
    ruling = deal(body, rules="schnapsen", trump="AH")
    assert ruling.points == {"Bert": 48, "Anna": 72}
    assert outcome(ruling) == ("Anna", 1, "claim")


def test_schnapsen_claim_scores_two_with_the_opponent_schneider() -> None:
    # Bert exchanges JD for 10D, declares 20 in spades and loses trick 1 (AS), wins trick 2
    # (QS over JS: 5), declares 40 in diamonds and loses trick 3 (AD), wins trick 4 (AC over
    # KC: 15): 5 + 15 + 20 + 40 = 80. Anna: 15 + 15 = 30.
    body = "1. swap 20 KS AS\n2. JS QS\n3. 40 KD AD\n4. KC AC 66"
    ruling = deal(body, rules="schnapsen", trump="10D")
    assert ruling.points == {"Bert": 80, "Anna": 30}
    assert outcome(ruling) == ("Bert", 2, "claim")


def test_the_first_correct_claim_wins_even_if_the_opponent_reached_66_first() -> None:
    # 10S turned up. Bert: 7 + 13 + 21 + 11 = 52 after 4 tricks, 72 with his 20 in hearts
    # (declared at trick 5, which Anna wins: 14). He never claims. Anna: 14 + 14 + 40 = 68
    # after trick 6 and claims: the first correct claim is hers.
    body = "1. QC KD\n2. JC AD\n3. AC 10D\n4. 9C AH\n5. 20 KH 10H\n6. 40 KS 10C 66"
    ruling = deal(body, trump="10S")
    assert ruling.points == {"Bert": 72, "Anna": 68}
    assert outcome(ruling) == ("Anna", 1, "claim")


def test_claim_at_the_start_of_a_line_by_the_player_on_lead() -> None:
    ruling = deal(SCHWARZ_CLAIM.replace(" 66", "") + "\n6. 66")
    assert outcome(ruling) == ("Anna", 3, "claim")


def test_a_claim_after_the_last_trick_counts_its_bonus() -> None:
    ruling = deal(BONUS_MAKES_66.rstrip() + " 66", trump="QC")
    assert ruling.points == {"Bert": 73, "Anna": 57}
    assert outcome(ruling) == ("Bert", 1, "claim")


def test_without_the_last_trick_bonus_the_same_claim_is_false() -> None:
    ruling = deal(BONUS_MAKES_66.rstrip() + " 66", rules="sixty-six last_trick_bonus=0", trump="QC")
    assert ruling.points == {"Bert": 63, "Anna": 57}
    assert outcome(ruling) == ("Anna", 2, "false-claim")


@pytest.mark.parametrize(
    ("rules", "bert", "anna"),
    [
        ("sixty-six", 59, 91),
        ("sixty-six last_trick_bonus=0", 59, 81),
        ("pagat-66", 59, 91),
        ("sixty-six last_trick_bonus=20", 59, 101),
    ],
)
def test_last_trick_bonus(rules: str, bert: int, anna: int) -> None:
    ruling = deal(PLAYED_OUT_66, rules=rules)
    assert ruling.points == {"Bert": bert, "Anna": anna}


def test_schnapsen_has_no_last_trick_bonus() -> None:
    ruling = deal(PLAYED_OUT_SCHNAPSEN, rules="schnapsen", trump="10D")
    assert ruling.points == {"Bert": 63, "Anna": 57}  # 120 between them, nothing more


# --- claims by whom: claim_when ------------------------------------------------------------------

# Anna: 15 + 11 + 12 + 4 + 20 + 13 = 75 after trick 5; Bert wins trick 6 (10S) and is on lead
# when Anna claims.
NOT_ON_LEAD = "1. KS AS\n2. AC 9C\n3. 10C JC\n4. 20 KD 9D\n5. AD JD\n6. 9S 10S 66@Anna"


def test_any_player_may_claim_between_tricks_in_sixty_six() -> None:
    ruling = deal(NOT_ON_LEAD)
    assert ruling.points == {"Bert": 10, "Anna": 75}
    assert outcome(ruling) == ("Anna", 2, "claim")  # Bert 10: schneider


@pytest.mark.parametrize(
    ("rules", "points"), [("pagat-66", 2), ("sixty-six claim_when=on-lead", 2)]
)
def test_a_claim_by_the_player_not_on_lead_is_false_with_claim_when_on_lead(
    rules: str, points: int
) -> None:
    ruling = deal(NOT_ON_LEAD, rules=rules)
    assert outcome(ruling) == ("Bert", points, "false-claim")


# --- false-claim ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "points"),
    [("sixty-six", 3), ("schnapsen", 3), ("pagat-66", 2), ("sixty-six false_claim_points=2", 2)],
)
def test_false_claim_scores_three_when_the_opponent_had_no_trick(rules: str, points: int) -> None:
    ruling = deal("1. KS AS 66", rules=rules)  # Anna claims with 15
    assert ruling.points == {"Bert": 0, "Anna": 15}
    assert outcome(ruling) == ("Bert", points, "false-claim")


@pytest.mark.parametrize("rules", ["sixty-six", "schnapsen", "pagat-66"])
def test_false_claim_scores_two_when_the_opponent_had_a_trick(rules: str) -> None:
    # Anna 15 + 13 = 28 claims; Bert has won trick 2 (10S over JS)
    ruling = deal("1. KS AS\n2. JS 10S\n3. JC AC 66", rules=rules)
    assert ruling.points == {"Bert": 12, "Anna": 28}
    assert outcome(ruling) == ("Bert", 2, "false-claim")


def test_a_claim_by_the_dealer_before_the_first_trick_is_false() -> None:
    ruling = deal("1. 66@Anna")
    assert outcome(ruling) == ("Bert", 3, "false-claim")


def test_a_claim_right_after_a_marriage_without_a_trick_is_false() -> None:
    ruling = deal("1. 20 KD 66")
    assert ruling.points == {"Bert": 0, "Anna": 0}
    assert outcome(ruling) == ("Anna", 3, "false-claim")


# --- failed-close --------------------------------------------------------------------------------

# Bert closes at the first lead and wins four tricks: 15 + 10 + 11 + 12 = 48; Anna wins two:
# 15 + 10 = 25. Anna had no trick at the close.
CLOSER_SHORT_SCHWARZ = "1. close AS KS\n2. 10S 9S\n3. AC 9C\n4. 10C JC\n5. KC AH\n6. 10H 9H"

# Anna closes after trick 3, when Bert has won trick 2: Bert 12 + 7 = 19;
# Anna 15 + 11 + 11 + 12 + 7 + 3 + 4 = 63.
CLOSER_SHORT = (
    "1. KS AS\n2. JS 10S\n3. 9D AD\n4. close AC 9C\n5. 10C JC\n6. KC QC\n"
    "7. QD KD\n8. 9S QS\n9. KH 9H"
)
# The same, but Anna's last trick is AH: 59 + 11 = 70.
CLOSER_REACHES_66 = CLOSER_SHORT.replace("9. KH 9H", "9. AH 9H")


@pytest.mark.parametrize("preset", ["sixty-six", "pagat-66"])
def test_failed_close_scores_three_when_opponent_had_no_trick(preset: str) -> None:
    ruling = deal(CLOSER_SHORT_SCHWARZ, rules=preset)
    assert ruling.points == {"Bert": 48, "Anna": 25}
    assert ruling.tricks == {"Bert": 4, "Anna": 2}
    assert outcome(ruling) == ("Anna", 3, "failed-close")


@pytest.mark.parametrize("preset", ["sixty-six", "pagat-66"])
def test_failed_close_scores_two_when_opponent_had_a_trick(preset: str) -> None:
    ruling = deal(CLOSER_SHORT, rules=preset)
    assert ruling.points == {"Bert": 19, "Anna": 63}
    assert outcome(ruling) == ("Bert", 2, "failed-close")


def test_schnapsen_failed_close_scores_three_when_opponent_had_no_trick() -> None:
    # Bert closes at the first lead: 15 + 13 + 13 = 41; Anna: 14 + 4 = 18
    body = "1. close AS KS\n2. 10S QS\n3. AC JC\n4. KC 10C\n5. JS JD"
    ruling = deal(body, rules="schnapsen")
    assert ruling.points == {"Bert": 41, "Anna": 18}
    assert outcome(ruling) == ("Anna", 3, "failed-close")


def test_schnapsen_failed_close_scores_two_when_opponent_had_a_trick() -> None:
    # Anna closes before trick 3 (Bert has won trick 1): Anna 13 * 4 + 12 = 64; Bert 15 + 15
    body = "1. AS KS\n2. JC AC\n3. close 10C QC\n4. AD JD\n5. 10D QD\n6. KH AH\n7. JS 10S"
    ruling = deal(body, rules="schnapsen")
    assert ruling.points == {"Bert": 30, "Anna": 64}
    assert outcome(ruling) == ("Bert", 2, "failed-close")


def test_sixty_six_closer_with_66_who_never_claimed_draws() -> None:
    ruling = deal(CLOSER_REACHES_66)
    assert ruling.points == {"Bert": 19, "Anna": 70}
    assert outcome(ruling) == (None, 0, "draw")
    assert ruling.carry == 1


def test_pagat_closer_with_66_who_never_claimed_fails() -> None:
    ruling = deal(CLOSER_REACHES_66, rules="pagat-66")
    assert outcome(ruling) == ("Bert", 2, "failed-close")


def test_a_closer_may_claim_right_after_the_last_trick() -> None:
    # Bert has 19 points and two tricks at the claim: schneider
    ruling = deal(CLOSER_REACHES_66 + " 66")
    assert outcome(ruling) == ("Anna", 2, "claim")


# Bert closes at the first lead; Anna wins everything: 15 + 15 + 15 + 13 + 13 = 71
OPPONENT_CLAIMS_FIRST = "1. close KS AS\n2. AC KC\n3. AD KD\n4. 10S QS\n5. 10C QC 66"


@pytest.mark.parametrize("preset", ["sixty-six", "pagat-66"])
def test_failed_close_when_the_opponent_claims_first_with_no_trick_at_the_close(
    preset: str,
) -> None:
    ruling = deal(OPPONENT_CLAIMS_FIRST, rules=preset)
    assert ruling.points == {"Bert": 0, "Anna": 71}
    assert outcome(ruling) == ("Anna", 3, "failed-close")


def test_failed_close_when_the_opponent_claims_first_after_winning_tricks() -> None:
    # JS turned up. Bert: 5 + 15 = 20 when Anna (11) closes before trick 4; then
    # 14 + 14 + 14 + 21: 83, and he claims. He had two tricks at the close: 2.
    body = (
        "1. QH JD\n2. KS AC\n3. 9D AD\n4. close QC JC\n5. QS AS\n6. 10D KD\n7. 10H KH\n8. AH 10C 66"
    )
    for preset in ("sixty-six", "pagat-66"):
        ruling = deal(body, rules=preset, trump="JS")
        assert ruling.points == {"Bert": 83, "Anna": 16}
        assert outcome(ruling) == ("Bert", 2, "failed-close")


def test_schnapsen_failed_close_when_the_opponent_claims_first() -> None:
    # 10H turned up; Bert closes at the first lead. Anna: 15 + 13 + 13 + 6 + 40 = 87.
    body = "1. close KS AS\n2. AC JC\n3. 10C QC\n4. 40 KH JH 66"
    ruling = deal(body, rules="schnapsen", trump="10H")
    assert ruling.points == {"Bert": 0, "Anna": 87}
    assert outcome(ruling) == ("Anna", 3, "failed-close")


# --- close_scored_at -----------------------------------------------------------------------------

# JH turned up. Bert declares 40 in hearts at trick 1 (KH 9H: 4), closes before trick 2, when
# Anna has no trick (AS KS: 15), loses trick 3 (KC AC: 15 for Anna), wins trick 4 (9C 10C: 10):
# 4 + 15 + 10 + 40 = 69, and claims. A marriage after the close would not be allowed.
CLOSER_CLAIMS = "1. 40 KH 9H\n2. close AS KS\n3. KC AC\n4. 9C 10C 66"


@pytest.mark.parametrize(
    ("rules", "points"),
    [
        ("sixty-six", 2),  # Anna 15 at the claim: schneider
        ("pagat-66", 2),
        ("sixty-six close_scored_at=close", 3),  # Anna had no trick when the stock was closed
    ],
)
def test_a_closers_win_is_scored_at_the_claim_or_at_the_close(rules: str, points: int) -> None:
    ruling = deal(CLOSER_CLAIMS, rules=rules, trump="JH")
    assert ruling.points == {"Bert": 69, "Anna": 15}
    assert outcome(ruling) == ("Bert", points, "claim")


@pytest.mark.parametrize(
    ("rules", "points"), [("schnapsen", 3), ("schnapsen close_scored_at=claim", 2)]
)
def test_schnapsen_closers_win_is_scored_at_the_close(rules: str, points: int) -> None:
    # AH turned up. Bert: 15 + 12 + 6 = 33 and 40 in hearts: 73. Anna: 15.
    body = "1. close AS KS\n2. KC AC\n3. JC 10C\n4. 40 KH JH 66"
    ruling = deal(body, rules=rules, trump="AH")
    assert ruling.points == {"Bert": 73, "Anna": 15}
    assert outcome(ruling) == ("Bert", points, "claim")


# --- illegal-play --------------------------------------------------------------------------------

# Anna closes; Bert discards 9D to 10C and later shows KC: a revoke in trick 3.
REVOKE = "1. KS AS\n2. close AC 9C\n3. 10C 9D\n4. JC KC"
REVOKE_SCHNAPSEN = "1. KS AS\n2. close AC JC\n3. 10C JD\n4. QC KC"


@pytest.mark.parametrize(
    ("rules", "body"),
    [("sixty-six", REVOKE), ("pagat-66", REVOKE), ("schnapsen", REVOKE_SCHNAPSEN)],
)
def test_illegal_play_gives_the_opponent_three(rules: str, body: str) -> None:
    ruling = deal(body, rules=rules)
    assert outcome(ruling) == ("Anna", 3, "illegal-play")
    assert ruling.deal_points == 3


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen", "pagat-66"])
def test_illegal_play_points_option(preset: str) -> None:
    body = REVOKE_SCHNAPSEN if preset == "schnapsen" else REVOKE
    ruling = deal(body, rules=f"{preset} illegal_play_points=2")
    assert outcome(ruling) == ("Anna", 2, "illegal-play")


def test_illegal_play_adds_the_carry() -> None:
    ruling = deal(REVOKE, Carry="2")
    assert outcome(ruling) == ("Anna", 5, "illegal-play")
    assert ruling.carry == 0 and ruling.deal_points == 3


# --- last-trick ----------------------------------------------------------------------------------


def test_schnapsen_played_out_goes_to_the_winner_of_the_last_trick() -> None:
    ruling = deal(PLAYED_OUT_SCHNAPSEN, rules="schnapsen", trump="10D")
    assert ruling.tricks == {"Bert": 6, "Anna": 4}
    assert outcome(ruling) == ("Bert", 1, "last-trick")


@pytest.mark.parametrize("preset", ["sixty-six", "pagat-66"])
def test_last_trick_option_in_a_24_card_game(preset: str) -> None:
    ruling = deal(PLAYED_OUT_66, rules=f"{preset} unclaimed_end=last-trick")
    assert outcome(ruling) == ("Anna", 1, "last-trick")  # though Anna had 91


def test_last_trick_adds_the_carry() -> None:
    ruling = deal(PLAYED_OUT_SCHNAPSEN, rules="schnapsen", trump="10D", Carry="2")
    assert outcome(ruling) == ("Bert", 3, "last-trick")
    assert ruling.carry == 0


# --- higher-total --------------------------------------------------------------------------------


def test_pagat_played_out_goes_to_the_higher_total() -> None:
    ruling = deal(PLAYED_OUT_66, rules="pagat-66")
    assert outcome(ruling) == ("Anna", 1, "higher-total")  # Bert has 59


def test_higher_total_is_scored_with_schneider() -> None:
    ruling = deal(SCHNEIDER_PLAYED_OUT, rules="pagat-66", trump="QC")
    assert ruling.points == {"Bert": 101, "Anna": 29}
    assert ruling.tricks == {"Bert": 9, "Anna": 3}
    assert outcome(ruling) == ("Bert", 2, "higher-total")


def test_higher_total_is_scored_with_schwarz() -> None:
    ruling = deal(SCHWARZ_PLAYED_OUT, rules="pagat-66", trump="10D")
    assert ruling.points == {"Bert": 130, "Anna": 0}
    assert outcome(ruling) == ("Bert", 3, "higher-total")


def test_higher_total_with_equal_totals_is_a_draw() -> None:
    ruling = deal(EQUAL_TOTALS, rules="pagat-66", trump="AD", Carry="1")
    assert ruling.points == {"Bert": 65, "Anna": 65}
    assert outcome(ruling) == (None, 0, "draw")
    assert ruling.carry == 1  # carry=none: a draw leaves it as it was


@pytest.mark.parametrize(
    ("rules", "winner"),
    [
        ("sixty-six unclaimed_end=higher-total", "Anna"),
        ("schnapsen unclaimed_end=higher-total", "Bert"),
    ],
)
def test_higher_total_option_in_other_presets(rules: str, winner: str) -> None:
    body, trump = (PLAYED_OUT_66, "QH") if "sixty" in rules else (PLAYED_OUT_SCHNAPSEN, "10D")
    ruling = deal(body, rules=rules, trump=trump)
    assert outcome(ruling) == (winner, 1, "higher-total")


# --- draw and carry ------------------------------------------------------------------------------


def test_sixty_six_played_out_is_drawn_whatever_the_totals() -> None:
    ruling = deal(PLAYED_OUT_66)
    assert ruling.points == {"Bert": 59, "Anna": 91}  # Anna reached 66 without declaring it
    assert outcome(ruling) == (None, 0, "draw")
    assert ruling.carry == 1


def test_a_drawn_deal_adds_one_to_the_carry_with_accumulate() -> None:
    assert deal(PLAYED_OUT_66, Carry="2").carry == 3


@pytest.mark.parametrize(
    ("rules", "body", "trump"),
    [
        ("sixty-six carry=none", PLAYED_OUT_66, "QH"),
        ("schnapsen unclaimed_end=draw", PLAYED_OUT_SCHNAPSEN, "10D"),
        ("pagat-66 unclaimed_end=draw", PLAYED_OUT_66, "QH"),
    ],
)
def test_a_drawn_deal_leaves_the_carry_with_carry_none(rules: str, body: str, trump: str) -> None:
    ruling = deal(body, rules=rules, trump=trump, Carry="2")
    assert outcome(ruling) == (None, 0, "draw")
    assert ruling.carry == 2


def test_schnapsen_draw_option_with_accumulate() -> None:
    ruling = deal(
        PLAYED_OUT_SCHNAPSEN,
        rules="schnapsen unclaimed_end=draw carry=accumulate",
        trump="10D",
        Carry="1",
    )
    assert outcome(ruling) == (None, 0, "draw")
    assert ruling.carry == 2


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen", "pagat-66"])
def test_the_carry_goes_to_the_winner_of_a_decided_deal_whatever_the_option(preset: str) -> None:
    body = SCHWARZ_CLAIM_SCHNAPSEN if preset == "schnapsen" else SCHWARZ_CLAIM
    ruling = deal(body, rules=preset, Carry="2")
    assert outcome(ruling) == ("Anna", 5, "claim")
    assert ruling.deal_points == 3 and ruling.carry_in == 2
    assert ruling.carry == 0


def test_the_carry_goes_to_a_false_claims_opponent_too() -> None:
    ruling = deal("1. KS AS 66", Carry="1")
    assert outcome(ruling) == ("Bert", 4, "false-claim")
    assert ruling.carry == 0


# --- incomplete ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen", "pagat-66"])
def test_a_record_that_stops_before_the_end_is_incomplete(preset: str) -> None:
    ruling = deal("1. KS AS\n2. AC JC\n3. 10C", rules=preset, Carry="1")
    assert outcome(ruling) == (None, 0, "incomplete")
    assert ruling.carry == 1  # unchanged while incomplete
    assert ruling.tricks == {"Bert": 0, "Anna": 2}
    assert ruling.points == {"Bert": 0, "Anna": 28}


def test_a_closed_deal_not_yet_played_out_is_incomplete() -> None:
    ruling = deal("1. close AS KS\n2. 10S 9S")
    assert outcome(ruling) == (None, 0, "incomplete")


# --- the Result tag ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "rules", "trump", "right", "wrong"),
    [
        (SCHWARZ_CLAIM, "sixty-six", "QH", "Anna 3", "Anna 2"),
        ("1. KS AS 66", "pagat-66", "QH", "Bert 2", "Bert 3"),
        (CLOSER_SHORT, "sixty-six", "QH", "Bert 2", "Anna 1"),
        (REVOKE, "sixty-six", "QH", "Anna 3", "Bert 1"),
        (PLAYED_OUT_SCHNAPSEN, "schnapsen", "10D", "Bert 1", "Anna 1"),
        (PLAYED_OUT_66, "pagat-66", "QH", "Anna 1", "draw"),
        (PLAYED_OUT_66, "sixty-six", "QH", "draw", "Anna 1"),
    ],
)
def test_result_tag_is_agreed_only_when_winner_and_game_points_match(
    body: str, rules: str, trump: str, right: str, wrong: str
) -> None:
    assert deal(body, rules=rules, trump=trump, Result=right).agreed is True
    assert deal(body, rules=rules, trump=trump, Result=wrong).agreed is False
    assert deal(body, rules=rules, trump=trump).agreed is None


def test_result_tag_includes_the_carry() -> None:
    assert deal(SCHWARZ_CLAIM, Carry="1", Result="Anna 4").agreed is True
    assert deal(SCHWARZ_CLAIM, Carry="1", Result="Anna 3").agreed is False


def test_a_claim_may_name_a_claimer_with_two_words() -> None:
    text = (
        '[Dealer "Karl Heinz"]\n[Forehand "Bert"]\n[Trump "QH"]\n\n'
        '1. KS AS\n2. JS 10S\n3. 9C AC\n4. 10C JC\n5. AD 9D 66@"Karl Heinz"\n'
    )
    ruling = rule_text(text)
    # Karl Heinz: 15 + 11 + 12 + 11 = 49, a false claim; Bert won trick 2 (10S over JS)
    assert ruling.points == {"Bert": 12, "Karl Heinz": 49}
    assert outcome(ruling) == ("Bert", 2, "false-claim")
