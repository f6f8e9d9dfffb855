"""Cards, suits, ranks and card points.

A :class:`Card` is a small ``int`` (``suit * 6 + rank``) so that sets of cards fit in bit masks
and the engine stays fast; the 24 cards exist once each and print canonically::

    >>> Card.parse("th")
    Card.parse('10H')
    >>> str(Card.parse("10♥")), Card.parse("QS").points
    ('10H', 3)
    >>> str(Card.parse("Herz König")), str(Card.parse("eichel-ober")), str(Card.parse("HK"))
    ('KH', 'QC', 'KH')

What a scorer may type for a card (any case; the canonical form printed is always ``KH``):

- rank then suit, or suit then rank, as one token: ``KH``, ``HK``, ``K♥``, ``♥K``, ``10H``,
  ``TH``, ``H10``; letters are the English ones only, so ``K`` is always the king and ``D``
  always diamonds (no German letters: they would clash);
- German and Austrian names, rank and suit in either order, written as two words
  (``Herz König``, ``König Herz``), with a hyphen (``Herz-König``) or as one word
  (``Herzkönig``, ``Pikass``); a name may also be paired with a letter or symbol
  (``Herz K``, ``K-Herz``, ``♥ König``), though not joined to one without a hyphen, and two
  letters may be two words (``K H``); names of both columns mix freely (``Herz Ober`` is QH);
- umlauts may be written ``ö``/``ü``, ``oe``/``ue`` or ``o``/``u`` (``Koenig``, ``Gruen``).

============  ======================  =======================
Card          French-suited German    Doppeldeutsch (Austria)
============  ======================  =======================
C  clubs      Kreuz, Treff            Eichel, Eicheln
D  diamonds   Karo                    Schelle, Schellen
H  hearts     Herz                    Rot (or Herz)
S  spades     Pik                     Grün, Laub, Blatt
A  ace        Ass, Daus               Sau, Daus
10 ten        Zehn, Zehner            Zehn, Zehner
K  king       König                   König
Q  queen      Dame                    Ober
J  jack       Bube, Bub               Unter
9  nine       Neun, Neuner            Neun, Neuner
============  ======================  =======================

``As`` (the Austrian spelling of the ace) is not accepted: ``AS`` is the ace of spades.
"""

from __future__ import annotations

import unicodedata
from enum import IntEnum
from typing import Final

from tally.engine.kernel import (
    FULL_DECK_MASK,
    NINES_MASK,
    RANK_POINTS,
    SUIT_MASKS,
    in_deck,
    points_of,
)
from tally.errors import Message, NotationError
from tally.i18n import N_

__all__ = [
    "CARDS",
    "FULL_DECK_MASK",
    "NINES_MASK",
    "RANK_POINTS",
    "SUIT_MASKS",
    "Card",
    "Rank",
    "Suit",
    "card_named",
    "cards_of",
    "in_deck",
    "parse_cards",
    "points_of",
    "sort_for_display",
]


class Suit(IntEnum):
    """The four suits, in the order clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit's letter in the notation: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def title(self) -> str:
        """The suit's English name in the plural: ``clubs``."""
        return ("clubs", "diamonds", "hearts", "spades")[self]


class Rank(IntEnum):
    """Ranks in trick-taking order: 9 < J < Q < K < 10 < A."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def letter(self) -> str:
        """The rank as written in the notation: ``9 J Q K 10 A``."""
        return ("9", "J", "Q", "K", "10", "A")[self]

    @property
    def points(self) -> int:
        """Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0."""
        return RANK_POINTS[self]


_RANK_TEXT: Final = {"9": 0, "J": 1, "Q": 2, "K": 3, "10": 4, "T": 4, "A": 5}
_SUIT_TEXT: Final = {
    "C": 0,
    "D": 1,
    "H": 2,
    "S": 3,
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
}


class Card(int):
    """One of the 24 cards; an ``int`` from 0 to 23 (``suit * 6 + rank``).

    Build cards with :meth:`parse` or :meth:`of`; each card exists once.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        return int.__new__(cls, value)

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """The card of ``rank`` and ``suit``: ``Card.of(Rank.QUEEN, Suit.HEARTS)`` is QH."""
        return CARDS[suit * 6 + rank]

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card in any form the notation accepts: ``10H``, ``TH``, ``th``, ``10♥``,
        ``HK``, ``Herz König``, ``Eichel-Ober`` (see the table of names above).

        Raises :class:`NotationError` naming the text when it is not a card.
        """
        card = PARSE_TABLE.get(text.strip().upper())
        if card is not None:
            return card
        card = card_named(text)
        if card is None:
            raise NotationError(Message(NOT_A_CARD, text=shorten(text)))
        return card

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self // 6)

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self % 6)

    @property
    def points(self) -> int:
        """Card points of this card."""
        return RANK_POINTS[self % 6]

    @property
    def mask(self) -> int:
        """This card as a one-bit set."""
        return 1 << self

    @property
    def symbol(self) -> str:
        """The card with its suit symbol: ``10♥``."""
        return Rank(self % 6).letter + "♣♦♥♠"[self // 6]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_NAMES[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)


_NAMES: Final = tuple(Rank(r).letter + Suit(s).letter for s in range(4) for r in range(6))
CARDS: Final = tuple(Card(i) for i in range(24))

#: The English notation (rank then suit, upper case): what tally itself writes.
PARSE_TABLE: dict[str, Card] = {}
for _r, _rv in _RANK_TEXT.items():
    for _s, _sv in _SUIT_TEXT.items():
        PARSE_TABLE[_r + _s] = CARDS[_sv * 6 + _rv]

#: What a "not a card" message says a card looks like.
CARD_FORMS: Final = "rank A 10 K Q J 9 and suit C D H S, or German names such as Herz König"
#: The message of text that is not a card (with :data:`CARD_FORMS`), marked for the catalogue
#: (an error carries it and its values: :mod:`tally.errors`).
NOT_A_CARD: Final = N_(
    '"%(text)s" is not a card (rank A 10 K Q J 9 and suit C D H S, or German '
    "names such as Herz König)"
)
#: Every template of a message of this module.
MESSAGES: Final = (NOT_A_CARD,)

#: German and Austrian rank names (upper case, umlauts as typed and spelled out).
RANK_NAMES: Final[dict[str, int]] = {
    "ASS": 5,
    "DAUS": 5,
    "SAU": 5,
    "ZEHN": 4,
    "ZEHNER": 4,
    "KÖNIG": 3,
    "KOENIG": 3,
    "KONIG": 3,
    "DAME": 2,
    "OBER": 2,
    "BUBE": 1,
    "BUB": 1,
    "UNTER": 1,
    "NEUN": 0,
    "NEUNER": 0,
}
#: German and Austrian suit names (upper case, umlauts as typed and spelled out).
SUIT_NAMES: Final[dict[str, int]] = {
    "KREUZ": 0,
    "TREFF": 0,
    "EICHEL": 0,
    "EICHELN": 0,
    "KARO": 1,
    "SCHELLE": 1,
    "SCHELLEN": 1,
    "HERZ": 2,
    "ROT": 2,
    "PIK": 3,
    "GRÜN": 3,
    "GRUEN": 3,
    "GRUN": 3,
    "LAUB": 3,
    "BLATT": 3,
}


def _all_spellings() -> dict[str, Card]:
    """Every one-token spelling of every card, upper case (:data:`PARSE_TABLE` included)."""
    table = dict(PARSE_TABLE)
    ranks = {**_RANK_TEXT}
    suits = {**_SUIT_TEXT}
    for r, rv in ranks.items():  # suit first, letters or symbols: HK, ♥K, H10
        for st, sv in suits.items():
            table[st + r] = CARDS[sv * 6 + rv]
    rank_any = {**ranks, **RANK_NAMES}
    suit_any = {**suits, **SUIT_NAMES}
    for r, rv in rank_any.items():
        for st, sv in suit_any.items():
            card = CARDS[sv * 6 + rv]
            table[r + "-" + st] = card
            table[st + "-" + r] = card
            if r in RANK_NAMES and st in SUIT_NAMES:  # Herzkönig, Königherz
                table[st + r] = card
                table[r + st] = card
    return table


#: Every spelling of a card as one token, upper case.
SPELLINGS: Final = _all_spellings()
#: Halves of a card written as two tokens: ``HERZ`` or ``KÖNIG`` (or ``K``, ``♥``, ``10``),
#: with whether each is a rank and its value.
HALVES: Final[dict[str, tuple[bool, int]]] = {
    **{t: (True, v) for t, v in {**_RANK_TEXT, **RANK_NAMES}.items()},
    **{t: (False, v) for t, v in {**_SUIT_TEXT, **SUIT_NAMES}.items()},
}
# A token is a whole card or half of one, never both: two-word names then read one way only.
assert not (SPELLINGS.keys() & HALVES.keys())


def shorten(text: str, limit: int = 40) -> str:
    """User input cut to ``limit`` characters for a message (a token may be megabytes long)."""
    return text if len(text) <= limit else text[:limit] + "..."


def _key(text: str) -> str:
    """``text`` as a spelling key: composed umlauts, upper case, no surrounding space."""
    return unicodedata.normalize("NFC", text.strip()).upper()


def card_named(text: str) -> Card | None:
    """The card ``text`` names in any accepted spelling (one token or two words), or None.

    >>> str(card_named("könig herz")), card_named("Herz Herz")
    ('KH', None)
    """
    key = _key(text)
    card = SPELLINGS.get(key)
    if card is not None:
        return card
    words = key.split()
    if len(words) == 2:
        return pair_halves(words[0], words[1])
    return None


def pair_halves(first: str, second: str) -> Card | None:
    """The card two tokens name together (``HERZ`` ``KÖNIG``, any order), or None.

    The tokens are upper case (as :func:`half_of` expects).
    """
    a = HALVES.get(first)
    b = HALVES.get(second)
    if a is None or b is None or a[0] == b[0]:
        return None
    rank, suit = (a[1], b[1]) if a[0] else (b[1], a[1])
    return CARDS[suit * 6 + rank]


def half_key(token: str) -> str:
    """``token`` as :func:`pair_halves` expects it (composed, upper case)."""
    return _key(token)


def parse_cards(text: str) -> list[Card]:
    """Cards separated by spaces, two-word names paired: ``"Herz König AS"`` is KH AS.

    Raises :class:`NotationError` naming the first token that is not part of a card.
    """
    out: list[Card] = []
    tokens = text.split()
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        card = PARSE_TABLE.get(tok.upper())
        if card is None:
            key = _key(tok)
            card = SPELLINGS.get(key)
            if card is None and i + 1 < len(tokens):
                card = pair_halves(key, _key(tokens[i + 1]))
                if card is not None:
                    i += 1
            if card is None:
                raise NotationError(Message(NOT_A_CARD, text=shorten(tok)))
        out.append(card)
        i += 1
    return out


def cards_of(mask: int) -> list[Card]:
    """The cards in a bit mask, in canonical order (clubs first, nine first)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def sort_for_display(cards: list[Card] | tuple[Card, ...]) -> list[Card]:
    """Cards in the canonical print order ``AS 10S KS QS JS 9S`` within each suit."""
    return sorted(cards, key=lambda c: (c // 6, -(c % 6)))
