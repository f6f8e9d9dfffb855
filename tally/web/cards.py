"""Cards and actions as the table page shows them: big buttons in suit colours.

Only presentation: which tokens may be entered comes from :meth:`tally.store.Store.legal_tokens`
and the rule set's deck from :class:`tally.rules.RuleSet`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tally.cards import CARDS, Card, Rank, Suit
from tally.errors import NotationError
from tally.kernel import in_deck
from tally.rules import RuleSet

#: how actions other than a card are labelled on their buttons
ACTION_LABELS = {
    "swap": "Swap for the turn-up",
    "close": "Close (after the draws)",
    "close-before-draw": "Close before drawing",
    "66": "Claim 66",
}


@dataclass(frozen=True)
class Button:
    """One button of the table page: the token it records and how it looks.

    >>> Button.of("10H")
    Button(token='10H', label='10♥', css='card red')
    >>> Button.of("20 QC").label
    '20 with Q♣'
    """

    token: str
    label: str
    css: str

    @classmethod
    def of(cls, token: str) -> Button:
        """The button of a token from :meth:`~tally.store.Store.legal_tokens`."""
        if token in ACTION_LABELS:
            return cls(token, ACTION_LABELS[token], "action")
        if token.startswith(("20 ", "40 ")):
            card = _card(token[3:])
            if card is not None:
                return cls(token, f"{token[:2]} with {card.symbol}", "action marriage "
                           + ("red" if card.suit.is_red else "black"))
        card = _card(token)
        if card is None:
            return cls(token, token, "action")
        return cls(token, card.symbol, "card " + ("red" if card.suit.is_red else "black"))


def _card(text: str) -> Card | None:
    try:
        return Card.parse(text)
    except NotationError:
        return None


def deck(rules: str) -> list[Card]:
    """The cards of a rule set's deck, by suit (♣ ♠ ♥ ♦ as on the sheets) and rank."""
    size = RuleSet.parse(rules).deck
    cards = [c for c in CARDS if in_deck(c, size)]
    order = [Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS]
    return sorted(cards, key=lambda c: (order.index(c.suit), -c.points, int(c.rank)))


def card_rows(tokens: list[str]) -> list[list[Button]]:
    """The card tokens among ``tokens`` as buttons, one row per suit."""
    by_suit: dict[Suit, list[Card]] = {}
    for token in tokens:
        card = _card(token) if token not in ACTION_LABELS and " " not in token else None
        if card is not None:
            by_suit.setdefault(card.suit, []).append(card)
    order = [Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS]
    return [[Button.of(str(c)) for c in sorted(by_suit[s], key=lambda c: -c.points)]
            for s in order if s in by_suit]


def action_buttons(tokens: list[str], rules: str) -> list[Button]:
    """The tokens that are not plain cards (swap, marriages, closing, claims); ``swap`` names
    the rule set's exchange card (the trump nine, or the jack in Schnapsen).

    >>> [b.label for b in action_buttons(["swap", "66"], "schnapsen")]
    ['Swap the trump jack', 'Claim 66']
    """
    rank = "nine" if RuleSet.parse(rules).exchange_card == Rank.NINE else "jack"
    return [Button(t, "Swap the trump " + rank, "action") if t == "swap" else Button.of(t)
            for t in tokens if t in ACTION_LABELS or " " in t]
