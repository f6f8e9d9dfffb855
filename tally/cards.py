"""Cards, suits, ranks and card points.

A :class:`Card` is a small ``int`` (``suit * 6 + rank``) so that sets of cards fit in bit masks
and the engine stays fast; the 24 cards exist once each and print canonically::

    >>> Card.parse("th")
    Card.parse('10H')
    >>> str(Card.parse("10♥")), Card.parse("QS").points
    ('10H', 3)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from tally.errors import NotationError


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


RANK_POINTS: Final = (0, 2, 3, 4, 10, 11)

_RANK_TEXT: Final = {"9": 0, "J": 1, "Q": 2, "K": 3, "10": 4, "T": 4, "A": 5}
_SUIT_TEXT: Final = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
                     "♧": 0, "♢": 1, "♡": 2, "♤": 3}


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
        """Read a card in any form the notation accepts: ``10H``, ``TH``, ``th``, ``10♥``.

        Raises :class:`NotationError` naming the text when it is not a card.
        """
        card = PARSE_TABLE.get(text.strip().upper())
        if card is None:
            raise NotationError(f'"{text}" is not a card (rank A 10 K Q J 9, then suit C D H S)')
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

PARSE_TABLE: dict[str, Card] = {}
for _r, _rv in _RANK_TEXT.items():
    for _s, _sv in _SUIT_TEXT.items():
        PARSE_TABLE[_r + _s] = CARDS[_sv * 6 + _rv]

#: Bit mask of each suit's six cards.
SUIT_MASKS: Final = tuple(0b111111 << (6 * s) for s in range(4))
#: Bit mask of all nines (absent from a Schnapsen deck).
NINES_MASK: Final = sum(1 << (6 * s) for s in range(4))
FULL_DECK_MASK: Final = (1 << 24) - 1


def cards_of(mask: int) -> list[Card]:
    """The cards in a bit mask, in canonical order (clubs first, nine first)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def mask_of(cards: list[Card] | tuple[Card, ...] | set[Card]) -> int:
    """The bit mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def sort_for_display(cards: list[Card] | tuple[Card, ...]) -> list[Card]:
    """Cards in the canonical print order ``AS 10S KS QS JS 9S`` within each suit."""
    return sorted(cards, key=lambda c: (c // 6, -(c % 6)))


def points_of(mask: int) -> int:
    """Total card points of the cards in ``mask``."""
    total = 0
    for s in range(4):
        bits = (mask >> (6 * s)) & 0b111111
        while bits:
            low = bits & -bits
            total += RANK_POINTS[low.bit_length() - 1]
            bits ^= low
    return total
