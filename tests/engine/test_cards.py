"""Cards and rule sets: what a scorer may type, and the three presets of RULES.md section 1.

Every expected value here is read off RULES.md and NOTATION.md, not off the engine.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tally.engine.cards import CARDS, Card, Rank, Suit, points_of, sort_for_display
from tally.engine.rules import OPTIONS, RuleSet
from tally.engine.ruling import Ruling, rule_text
from tally.errors import NotationError, RulesError

RANKS = ("A", "10", "K", "Q", "J", "9")
SUITS = ("C", "D", "H", "S")


def deal(body: str, rules: str = "sixty-six", trump: str = "QH", **tags: str) -> Ruling:
    """Rule on a record of Bert (forehand) against Anna (dealer); tags go after Trump."""
    head = f'[Rules "{rules}"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "{trump}"]\n'
    head += "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return rule_text(head + "\n" + body.strip() + "\n")


# --- cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10h", "10H"),
        ("10♥", "10H"),
        ("t♥", "10H"),
        ("AS", "AS"),
        ("as", "AS"),
        ("A♠", "AS"),
        ("kd", "KD"),
        ("K♦", "KD"),
        ("Qc", "QC"),
        ("Q♣", "QC"),
        ("j♥", "JH"),
        ("9S", "9S"),
        ("9♠", "9S"),
    ],
)
def test_a_scorer_may_type_a_card_in_any_accepted_form(typed: str, canonical: str) -> None:
    assert str(Card.parse(typed)) == canonical


def test_every_card_prints_canonically_and_reads_back() -> None:
    names = [rank + suit for suit in SUITS for rank in RANKS]
    assert sorted(str(c) for c in CARDS) == sorted(names)
    for name in names:
        assert str(Card.parse(name)) == name
        assert Card.parse(name.lower()) == Card.parse(name)


def test_symbols_name_the_same_suits_as_letters() -> None:
    for letter, symbol in zip(SUITS, "♣♦♥♠", strict=True):
        for rank in RANKS:
            assert Card.parse(rank + symbol) == Card.parse(rank + letter)


def test_cards_of_a_suit_print_in_the_order_a_s_10_k_q_j_9() -> None:
    spades = [Card.parse(t) for t in ("9S", "KS", "AS", "JS", "10S", "QS")]
    assert " ".join(str(c) for c in sort_for_display(spades)) == "AS 10S KS QS JS 9S"


@pytest.mark.parametrize(
    ("rank", "points"), [("A", 11), ("10", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)]
)
def test_card_points(rank: str, points: int) -> None:
    for suit in SUITS:
        assert Card.parse(rank + suit).points == points


def test_a_deck_holds_120_card_points_with_or_without_the_nines() -> None:
    everything = sum(1 << c for c in CARDS)
    assert points_of(everything) == 120
    no_nines = sum(1 << c for c in CARDS if c.rank != Rank.NINE)
    assert points_of(no_nines) == 120  # a Schnapsen deck: nines are worth nothing


def test_card_rank_and_suit() -> None:
    card = Card.parse("10♥")
    assert card.rank == Rank.TEN and card.suit == Suit.HEARTS
    assert Card.of(Rank.QUEEN, Suit.SPADES) == Card.parse("QS")


@pytest.mark.parametrize(
    "text",
    [
        "1H",
        "10X",
        "KK",
        "",
        "HH",
        "ace",
        "11S",
        "Q",
        "Herz Herz",
        "König",
        "Kaiser Herz",
        "As Herz",
    ],
)
def test_a_non_card_is_rejected_with_its_text_quoted(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert f'"{text}"' in str(info.value)


def test_a_non_card_in_a_trick_line_is_a_record_error_naming_it_and_its_line() -> None:
    ruling = deal("1. KS AS\n2. 10S 1H")
    assert ruling.outcome is None
    [error] = ruling.errors
    assert error.line == 7
    assert '"1H"' in error.message


@pytest.mark.parametrize(
    ("body", "tags", "line", "nine"),
    [
        ("1. 9S AS", {}, 6, "9S"),  # led
        ("1. KS AS\n2. 10S 9C", {}, 7, "9C"),  # played by the follower
        ("1. KS AS", {"Hands": "Bert: KS 9C AD KD QD"}, 5, "9C"),
        ("1. KS AS", {"Remaining": "Bert: 9D AD"}, 5, "9D"),
    ],
)
def test_a_nine_in_a_schnapsen_record_is_a_record_error_naming_it(
    body: str, tags: dict[str, str], line: int, nine: str
) -> None:
    ruling = deal(body, rules="schnapsen", **tags)
    assert ruling.outcome is None
    [error] = ruling.errors
    assert error.line == line
    assert nine in error.message


def test_a_nine_turned_up_in_schnapsen_is_a_record_error() -> None:
    ruling = deal("1. KS AS", rules="schnapsen", trump="9H")
    assert ruling.outcome is None
    [error] = ruling.errors
    assert "9H" in error.message
    assert error.line == 4


def test_the_same_nine_is_fine_in_sixty_six() -> None:
    ruling = deal("1. 9S AS")
    assert ruling.errors == ()
    assert ruling.tricks == {"Bert": 0, "Anna": 1}


# --- rule sets -----------------------------------------------------------------------------------

#: RULES.md section 1, column by column, as the options are written in a Rules tag.
TABLE = {
    "sixty-six": {
        "deck": "24",
        "hand": "6",
        "exchange_card": "9",
        "exchange_when": "lead-or-follow",
        "exchange_needs_trick": "yes",
        "marriage_in_phase2": "no",
        "close_before_draw": "yes",
        "close_scored_at": "claim",
        "last_trick_bonus": "10",
        "claim_when": "any",
        "unclaimed_end": "draw",
        "false_claim_points": "2or3",
        "carry": "accumulate",
        "illegal_play_points": "3",
        "match_target": "7",
        "next_dealer": "alternate",
    },
    "schnapsen": {
        "deck": "20",
        "hand": "5",
        "exchange_card": "J",
        "exchange_when": "lead",
        "exchange_needs_trick": "no",
        "marriage_in_phase2": "yes",
        "close_before_draw": "no",
        "close_scored_at": "close",
        "last_trick_bonus": "0",
        "claim_when": "on-lead",
        "unclaimed_end": "last-trick",
        "false_claim_points": "2or3",
        "carry": "none",
        "illegal_play_points": "3",
        "match_target": "7",
        "next_dealer": "alternate",
    },
    "pagat-66": {
        "deck": "24",
        "hand": "6",
        "exchange_card": "9",
        "exchange_when": "lead",
        "exchange_needs_trick": "yes",
        "marriage_in_phase2": "no",
        "close_before_draw": "yes",
        "close_scored_at": "claim",
        "last_trick_bonus": "10",
        "claim_when": "on-lead",
        "unclaimed_end": "higher-total",
        "false_claim_points": "2",
        "carry": "none",
        "illegal_play_points": "3",
        "match_target": "7",
        "next_dealer": "winner",
    },
}

#: Values to try for each option; a test takes the first that differs from the preset's.
CANDIDATES = {
    "deck": ("24", "20"),
    "hand": ("5", "6"),
    "exchange_card": ("J",),
    "exchange_when": ("lead", "lead-or-follow"),
    "exchange_needs_trick": ("no", "yes"),
    "marriage_in_phase2": ("yes", "no"),
    "close_before_draw": ("no", "yes"),
    "close_scored_at": ("close", "claim"),
    "last_trick_bonus": ("20",),
    "claim_when": ("on-lead", "any"),
    "unclaimed_end": ("last-trick", "higher-total"),
    "false_claim_points": ("2", "2or3"),
    "carry": ("none", "accumulate"),
    "illegal_play_points": ("2",),
    "match_target": ("11",),
    "next_dealer": ("winner", "alternate"),
}


@pytest.mark.parametrize("preset", sorted(TABLE))
@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_every_option_can_be_overridden(preset: str, option: str) -> None:
    value = next((v for v in CANDIDATES[option] if v != TABLE[preset][option]), None)
    extra = ""
    if option == "deck" and value == "20":
        extra = " exchange_card=J"  # a 20-card deck has no nines to exchange
    if value is None:  # exchange_card in Schnapsen: the jack is all a 20-card deck has
        value = TABLE[preset][option]
    rules = RuleSet.parse(f"{preset} {option}={value}{extra}")
    assert rules.value(option) == value
    assert rules.spec == f"{preset} {option}={value}{extra}"
    untouched = {n: v for n, v in TABLE[preset].items() if n != option and n not in extra}
    assert {n: rules.value(n) for n in untouched} == untouched


def test_overrides_are_kept_as_given_and_whitespace_does_not_matter() -> None:
    rules = RuleSet.parse("  pagat-66   carry=accumulate  claim_when=any ")
    assert rules.spec == "pagat-66 carry=accumulate claim_when=any"
    assert rules.carry == "accumulate" and rules.claim_when == "any"


def test_a_record_reports_its_rules_as_preset_then_overrides() -> None:
    ruling = deal("1. KS AS", rules="schnapsen close_scored_at=claim")
    assert ruling.as_json()["rules"] == "schnapsen close_scored_at=claim"


def test_an_unknown_preset_is_rejected_listing_the_presets() -> None:
    with pytest.raises(RulesError) as info:
        RuleSet.parse("bauernschnapsen")
    message = str(info.value)
    assert '"bauernschnapsen"' in message
    for preset in TABLE:
        assert preset in message


def test_an_unknown_option_is_rejected_listing_the_options() -> None:
    with pytest.raises(RulesError) as info:
        RuleSet.parse("sixty-six trumps_first=yes")
    message = str(info.value)
    assert '"trumps_first"' in message
    for option in OPTIONS:
        assert option in message


@pytest.mark.parametrize(
    ("override", "allowed"),
    [
        ("carry=maybe", ["accumulate", "none"]),
        ("unclaimed_end=replay", ["draw", "last-trick", "higher-total"]),
        ("claim_when=never", ["any", "on-lead"]),
        ("exchange_when=follow", ["lead", "lead-or-follow"]),
        ("false_claim_points=3", ["2or3", "2"]),
        ("close_scored_at=end", ["claim", "close"]),
        ("next_dealer=loser", ["alternate", "winner"]),
        ("exchange_needs_trick=sometimes", ["yes", "no"]),
        ("illegal_play_points=0", ["whole number"]),
        ("last_trick_bonus=ten", ["whole number"]),
        ("match_target=-1", ["whole number"]),
    ],
)
def test_an_unknown_value_is_rejected_listing_the_values_allowed(
    override: str, allowed: list[str]
) -> None:
    with pytest.raises(RulesError) as info:
        RuleSet.parse(f"sixty-six {override}")
    message = str(info.value)
    assert f'"{override.partition("=")[2]}"' in message
    for value in allowed:
        assert value in message


def test_an_option_given_twice_or_without_a_value_is_rejected() -> None:
    with pytest.raises(RulesError):
        RuleSet.parse("sixty-six carry=none carry=none")
    with pytest.raises(RulesError):
        RuleSet.parse("sixty-six carry")


def test_a_twenty_card_deck_cannot_exchange_a_nine() -> None:
    with pytest.raises(RulesError):
        RuleSet.parse("sixty-six deck=20")
    with pytest.raises(RulesError):
        RuleSet.parse("schnapsen exchange_card=9")
    assert RuleSet.parse("sixty-six deck=20 exchange_card=J").deck == 20
    assert RuleSet.parse("schnapsen deck=24").exchange_card == Rank.JACK


def test_an_unknown_rules_value_in_a_record_is_a_record_error_on_the_rules_line() -> None:
    ruling = deal("1. KS AS", rules="sixty-six carry=maybe")
    assert ruling.outcome is None
    [error] = ruling.errors
    assert error.line == 1
    assert "accumulate" in error.message and "none" in error.message


# --- tally rules ---------------------------------------------------------------------------------

runner = CliRunner()


def test_tally_rules_prints_the_default_preset_and_every_option() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("sixty-six")
    for option, value in TABLE["sixty-six"].items():
        assert any(line.split()[:2] == [option, value] for line in lines[1:]), option


@pytest.mark.parametrize("preset", sorted(TABLE))
def test_tally_rules_json_gives_the_table_values(preset: str) -> None:
    result = runner.invoke(app, ["rules", preset, "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data.pop("rules") == preset
    assert data == TABLE[preset]


def test_tally_rules_shows_an_override() -> None:
    result = runner.invoke(app, ["rules", "pagat-66 carry=accumulate", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["rules"] == "pagat-66 carry=accumulate"
    assert data["carry"] == "accumulate"
    assert data["unclaimed_end"] == "higher-total"


def test_tally_rules_rejects_an_unknown_preset_cleanly() -> None:
    result = runner.invoke(app, ["rules", "bauernschnapsen"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "sixty-six" in result.output and "schnapsen" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
