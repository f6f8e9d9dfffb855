"""German and Austrian card names: a scorer may type a card the way the table says it.

The names here are written out from the table of issue 8 (and the docstring of
:mod:`tally.engine.cards`), not taken from the engine's own tables.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tally.engine.cards import CARDS, Card
from tally.engine.notation import CardItem, MarriageItem, read_deal, read_items, write_deal
from tally.engine.ruling import rule_text
from tally.errors import NotationError

#: rank value (9 J Q K 10 A = 0..5) -> English letters, then German and Austrian names
RANKS: dict[int, tuple[list[str], list[str]]] = {
    0: (["9"], ["Neun", "Neuner"]),
    1: (["J"], ["Bube", "Bub", "Unter"]),
    2: (["Q"], ["Dame", "Ober"]),
    3: (["K"], ["König", "Koenig", "Konig"]),
    4: (["10", "T"], ["Zehn", "Zehner"]),
    5: (["A"], ["Ass", "Daus", "Sau"]),
}
#: suit value (C D H S = 0..3) -> letters and symbols, then German and Austrian names
SUITS: dict[int, tuple[list[str], list[str]]] = {
    0: (["C", "♣", "♧"], ["Kreuz", "Treff", "Eichel", "Eicheln"]),
    1: (["D", "♦", "♢"], ["Karo", "Schelle", "Schellen"]),
    2: (["H", "♥", "♡"], ["Herz", "Rot"]),
    3: (["S", "♠", "♤"], ["Pik", "Grün", "Gruen", "Grun", "Laub", "Blatt"]),
}
CANONICAL = {(r, s): "9JQKTA"[r].replace("T", "10") + "CDHS"[s] for r in RANKS for s in SUITS}


def spellings(r: int, s: int) -> list[str]:
    """Every way of writing rank ``r`` of suit ``s`` that the table allows."""
    out = []
    for rank_letters, rank_words in [RANKS[r]]:
        for suit_letters, suit_words in [SUITS[s]]:
            for rank in rank_letters + rank_words:
                for suit in suit_letters + suit_words:
                    joined = (rank in rank_letters) == (suit in suit_letters)
                    for sep in [" ", "-"] + ([""] if joined else []):
                        out += [rank + sep + suit, suit + sep + rank]
    return out


def test_every_spelling_of_every_card_reads_as_that_card_and_prints_canonically() -> None:
    count = 0
    for (r, s), canonical in CANONICAL.items():
        for text in spellings(r, s):
            card = Card.parse(text)
            assert (card.rank, card.suit, str(card)) == (r, s, canonical), text
            assert Card.parse(text.lower()) == card and Card.parse(text.upper()) == card
            count += 1
    assert count > 2000


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10♥", "10H"),
        ("KH", "KH"),
        ("as", "AS"),
        ("HK", "KH"),
        ("♥K", "KH"),
        ("K♥", "KH"),
        ("Herz König", "KH"),
        ("König Herz", "KH"),
        ("herzkönig", "KH"),
        ("HERZ-KOENIG", "KH"),
        ("Pikass", "AS"),
        ("Grün Unter", "JS"),
        ("gruen unter", "JS"),
        ("Eichel Ober", "QC"),
        ("Schelle Sau", "AD"),
        ("Rot Daus", "AH"),
        ("Laub Zehner", "10S"),
        ("Blatt Neun", "9S"),
        ("Treff Bube", "JC"),
        ("Karo Dame", "QD"),
    ],
)
def test_a_scorer_types_a_card_in_english_or_german(typed: str, canonical: str) -> None:
    assert str(Card.parse(typed)) == canonical


def test_a_letter_is_always_english_k_is_the_king_and_d_is_diamonds() -> None:
    assert str(Card.parse("KD")) == "KD" and str(Card.parse("DK")) == "KD"
    with pytest.raises(NotationError):
        Card.parse("KK")  # not "Karo König": German has no letters here
    with pytest.raises(NotationError):
        Card.parse("As Herz")  # "As" would clash with the ace of spades


def test_a_trick_line_may_name_its_cards_in_two_words() -> None:
    english = rule_text(
        '[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "QH"]\n\n1. KS AS\n2. 40 KH 9H\n3. 10C JC\n'
    )
    german = rule_text(
        '[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "Herz Ober"]\n'
        '[Remaining "Anna: Eichel Sau Laub Zehn"]\n\n'
        "1. Pik König Pik Ass\n2. 40 Herz König Rot Neun\n"
        "3. Zehn-Kreuz Kreuz Bube ; a comment\n"
    )
    assert german.errors == ()
    assert german.as_json() | {"file": ""} == english.as_json() | {"file": ""}
    record = read_deal("1. Pik König Pik Ass\n2. 40 Herz König Rot Neun\n")
    assert write_deal(record) == "\n1. KS AS\n2. 40 KH 9H\n"


def test_read_items_pairs_the_words_of_each_card() -> None:
    items = read_items("Herz König Pik Ass")
    assert items == [CardItem(Card.parse("KH")), CardItem(Card.parse("AS"))]
    assert read_items("20 Dame Karo swap König Karo") == [
        MarriageItem(20, Card.parse("QD")),
        read_items("swap")[0],
        CardItem(Card.parse("KD")),
    ]


def test_the_hands_tag_accepts_german_names() -> None:
    text = (
        '[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "QH"]\n'
        '[Hands "Bert: Pik König Herz Neun Kreuz Zehn Karo Bube Karo Dame Pik Zehn"]\n\n'
        "1. Pik König AS\n"
    )
    assert rule_text(text).errors == ()
    # the hand is read as six cards: one not in it is refused before any draw
    [error] = rule_text(text.replace("1. Pik König AS", "1. Kreuz Ass AS")).errors
    assert "AC" in error.message and error.line == 6


def test_two_words_that_make_no_card_are_quoted_together() -> None:
    ruling = rule_text('[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "QH"]\n\n1. Herz Herz AS\n')
    assert ruling.errors[0].line == 5
    assert '"Herz Herz" is not a card' in ruling.errors[0].message


_CASES = st.sampled_from([str.lower, str.upper, str.title, lambda t: t])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(CARDS), st.integers(0, 10**6), _CASES, st.booleans()),
        min_size=1,
        max_size=6,
    )
)
def test_any_spelling_in_any_case_reads_back_inside_a_line(
    picks: list[tuple[Card, int, object, bool]],
) -> None:
    words = []
    for card, which, case, decompose in picks:
        choices = spellings(card.rank, card.suit)
        text = case(choices[which % len(choices)])  # type: ignore[operator]
        if decompose:
            text = unicodedata.normalize("NFD", text)
        words.append(text)
    items = read_items(" ".join(words))
    assert [str(i) for i in items] == [str(c) for c, *_ in picks]
