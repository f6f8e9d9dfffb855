"""Cards and actions as the table page shows them: big buttons in suit colours.

Only presentation: which tokens may be entered comes from ``store.deals.legal_tokens``
and the rule set's deck from :class:`tally.engine.rules.RuleSet`. A button's label is in the page's
language (``lang``; by default the current one of :func:`tally.i18n.use`); the token it
records is the same in every language.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from tally.engine.cards import CARDS, Card, Rank, Suit
from tally.engine.kernel import in_deck
from tally.engine.rules import RuleSet
from tally.errors import NotationError
from tally.i18n import N_, gettext, translations
from tally.vocabulary import card_label

#: how actions other than a card are labelled on their buttons
ACTION_LABELS = {
    "swap": N_("Swap for the turn-up"),
    "close": N_("Close (after the draws)"),
    "close-before-draw": N_("Close before drawing"),
    "66": N_("Claim 66"),
}
#: a marriage's button: ``20 with Q♣``
MARRIAGE = N_("%(points)s with %(card)s")
#: the claim's button, naming who claims (the player on lead)
CLAIM = N_("%(player)s claims 66")
#: the exchange's button, naming the rule set's exchange card
SWAP = {Rank.NINE: N_("Swap the trump nine"), Rank.JACK: N_("Swap the trump jack")}


def _words(lang: str | None) -> Callable[[str], str]:
    return gettext if lang is None else translations(lang).gettext


#: a card as a page in ``lang`` shows it (:func:`tally.vocabulary.card_label`: ``Q♥``, a German
#: queen and jack as D and B)
label = card_label


#: a card token inside a sentence (not part of a longer word)
_TOKEN_IN_TEXT = re.compile(r"(?<![\w-])(?:A|10|K|Q|J|9)[CDHS](?![\w-])")


def with_symbols(text: str, lang: str | None = None) -> str:
    """The card tokens in a sentence of the engine's (``Bert played 9D to 10C``) as
    :func:`label` shows them (``Bert played 9♦ to 10♣``).

    >>> with_symbols("Anna gab 9D zu 10C zu, mit QH in der Hand", "de")
    'Anna gab 9♦ zu 10♣ zu, mit D♥ in der Hand'
    """
    return _TOKEN_IN_TEXT.sub(lambda found: shown(found.group(0), lang), text)


def shown(token: str | None, lang: str | None = None) -> str:
    """A card token (``QH``) as :func:`label` shows it; any other text as it is."""
    card = _card(token) if token else None
    return label(card, lang) if card is not None else token or ""


@dataclass(frozen=True)
class Button:
    """One button of the table page: the token it records and how it looks.

    >>> Button.of("10H", "en")
    Button(token='10H', label='10♥', css='card red')
    >>> Button.of("20 QC", "en").label, Button.of("20 QC", "de").label, Button.of("JS", "de")
    ('20 with Q♣', '20 mit D♣', Button(token='JS', label='B♠', css='card black'))
    """

    token: str
    label: str
    css: str

    @staticmethod
    def of(token: str, lang: str | None = None) -> Button:
        """The button of a token from ``store.deals.legal_tokens``, labelled in
        ``lang`` (made once for each token and language: a table page shows some 40)."""
        return _button(token, lang) if lang is None else _BUTTONS(token, lang)


def _button(token: str, lang: str | None) -> Button:
    """:meth:`Button.of`, made anew (``lang`` None: the current language's words)."""
    say = _words(lang)
    if token in ACTION_LABELS:
        return Button(token, say(ACTION_LABELS[token]), "action")
    if token.startswith(("20 ", "40 ")):
        card = _card(token[3:])
        if card is not None:
            text = say(MARRIAGE) % {"points": token[:2], "card": label(card, lang)}
            return Button(
                token, text, "action marriage " + ("red" if card.suit.is_red else "black")
            )
    card = _card(token)
    if card is None:
        return Button(token, token, "action")
    return Button(token, label(card, lang), "card " + ("red" if card.suit.is_red else "black"))


#: the buttons by token and language (a few dozen tokens, a few languages)
_BUTTONS = functools.lru_cache(maxsize=1024)(_button)


def _card(text: str) -> Card | None:
    try:
        return Card.parse(text)
    except NotationError:
        return None


def deck(rules: str) -> list[Card]:
    """The cards of a rule set's deck, by suit (♣ ♠ ♥ ♦ as on the sheets) and rank."""
    return list(_deck(RuleSet.parse(rules).deck))


@functools.cache
def _deck(size: int) -> tuple[Card, ...]:
    """:func:`deck` of a deck of ``size`` cards (20 or 24)."""
    cards = [c for c in CARDS if in_deck(c, size)]
    order = [Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS]
    return tuple(sorted(cards, key=lambda c: (order.index(c.suit), -c.points, int(c.rank))))


def card_rows(tokens: list[str], lang: str | None = None) -> list[list[Button]]:
    """The card tokens among ``tokens`` as buttons, one row per suit, labelled in ``lang``
    (the token each records is the same in every language)."""
    by_suit: dict[Suit, list[Card]] = {}
    for token in tokens:
        card = _card(token) if token not in ACTION_LABELS and " " not in token else None
        if card is not None:
            by_suit.setdefault(card.suit, []).append(card)
    order = [Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS]
    return [
        [Button.of(str(c), lang) for c in sorted(by_suit[s], key=lambda c: -c.points)]
        for s in order
        if s in by_suit
    ]


def action_buttons(
    tokens: list[str], rules: str, lang: str | None = None, claimer: str | None = None
) -> list[Button]:
    """The tokens that are not plain cards (swap, marriages, closing, claims), labelled in
    ``lang``; ``swap`` names the rule set's exchange card (the trump nine, or the jack in
    Schnapsen), ``66`` the ``claimer`` when given.

    >>> [b.label for b in action_buttons(["swap", "66"], "schnapsen", "en")]
    ['Swap the trump jack', 'Claim 66']
    >>> [b.label for b in action_buttons(["66"], "sixty-six", "de", claimer="Anna")]
    ['Anna sagt 66 an']
    """
    say = _words(lang)
    swap = say(SWAP[RuleSet.parse(rules).exchange_card])
    claim = None if claimer is None else say(CLAIM) % {"player": claimer}
    return [
        Button(t, swap, "action")
        if t == "swap"
        else Button(t, claim, "action")
        if t == "66" and claim is not None
        else Button.of(t, lang)
        for t in tokens
        if t in ACTION_LABELS or " " in t
    ]
