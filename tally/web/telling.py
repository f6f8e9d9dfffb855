"""What the table page says of a deal, as people say it at the table: where the stock stands
(open, closed by whom, exhausted), each trick and what was declared on it, and what an action
just recorded did ("Bert closed after drawing", "Anna exchanged 9♥ for Q♥").

Only words: every fact comes from the store's view of the deal
(:attr:`tally.store.views.DealView.table`, the engine's replay of its record); cards are
labelled as the page's buttons are (:func:`tally.web.cards.label`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tally.engine.kernel import OUTRIGHT
from tally.i18n import N_, translations
from tally.vocabulary import message_words, word
from tally.web.cards import shown, with_symbols

if TYPE_CHECKING:
    from tally.store.views import DealView, MoveView, TableView, TrickView

#: the stock as the page shows it, above the cards
STOCK_OPEN = N_("Stock open (face down: %(n)s)")
STOCK_CLOSED = N_("%(player)s closed the stock: follow suit, head the trick")
STOCK_EXHAUSTED = N_("Stock exhausted: follow suit, head the trick")
STOCK_LAST_DRAW = N_("The last draw exhausts the stock: follow suit, head the trick")
#: what lies face up under the stock
FACE_UP = N_("Face up: %(card)s")
FACE_UP_EXCHANGED = N_("Face up: %(card)s (exchanged for %(taken)s)")
#: a card recorded, and the trick it completed
PLAYED = N_("%(player)s played %(card)s.")
WON = N_("%(player)s won the trick.")
#: the other actions
EXCHANGED = N_("%(player)s exchanged %(card)s for %(taken)s.")
EXCHANGED_UNSEEN = N_("%(player)s exchanged %(card)s for the card face up.")
DECLARED = N_("%(player)s declared %(points)s in %(suit)s and led %(card)s.")
CLOSED_AFTER = N_("%(player)s closed after drawing.")
CLOSED_BEFORE = N_("%(player)s closed before drawing.")
CLOSED_FIRST = N_("%(player)s closed before the first trick.")
CLAIMED = N_("%(player)s claimed 66.")
OVER = N_("Deal %(number)s is over: %(explanation)s.")
#: why a win outright is worth what it is (the loser's points or tricks)
WORTH_WHY = {
    1: N_(" (%(loser)s had 33 or more)"),
    2: N_(" (%(loser)s had under 33: schneider)"),
    3: N_(" (%(loser)s took no trick: schwarz)"),
}
WORTH_CARRY = N_("%(winner)s scores %(num)s game points, %(carry)s of them carried over.")
#: a deal entered as a result: the words the opponent agreed to (agree.html.j2, where the
#: catalogue takes them from with their plural)
ENTERED_WON = (
    "%(winner)s wins deal %(number)s: %(num)s game point (%(reason)s)",
    "%(winner)s wins deal %(number)s: %(num)s game points (%(reason)s)",
)
ENTERED_DRAWN = N_("Deal %(number)s is drawn")
#: a move on a trick's line in the list of tricks
MOVES = {
    "exchange": N_("%(player)s exchanged %(card)s for %(taken)s"),
    "marriage": N_("%(player)s declared %(points)s in %(suit)s"),
    "close": N_("%(player)s closed"),
    "claim": N_("%(player)s claimed 66"),
}


def stock_line(table: TableView, lang: str) -> str:
    """Where the stock stands: open (and how many cards), closed by whom, exhausted."""
    say = translations(lang).gettext
    if table.closed_by is not None:
        return say(STOCK_CLOSED) % {"player": table.closed_by}
    if table.exhausted:
        return say(STOCK_LAST_DRAW if table.last_draw else STOCK_EXHAUSTED)
    return say(STOCK_OPEN) % {"n": table.stock_left}


def face_up_line(table: TableView, lang: str) -> str | None:
    """The card lying face up under the stock (after an exchange: the exchange card, and
    what it was exchanged for); None once it is gone."""
    if table.face_up is None or table.closed_by is not None or table.exhausted:
        return None
    say = translations(lang).gettext
    swaps = [m for t in table.tricks for m in t.moves if m.kind == "exchange"]
    if swaps and swaps[-1].card == table.face_up and swaps[-1].taken is not None:
        return say(FACE_UP_EXCHANGED) % {
            "card": shown(table.face_up, lang),
            "taken": shown(swaps[-1].taken, lang),
        }
    return say(FACE_UP) % {"card": shown(table.face_up, lang)}


def move_text(move: MoveView, lang: str) -> str:
    """A move on a trick line, short: ``Anna declared 20 in clubs``."""
    values = _values(move, lang)
    return translations(lang).gettext(MOVES[move.kind]) % values


def _values(move: MoveView, lang: str) -> dict[str, object]:
    suit = ""
    if move.card is not None and move.kind == "marriage":
        from tally.engine.cards import Card

        suit = word(Card.parse(move.card).suit.title, lang)
    return {
        "player": move.player,
        "card": shown(move.card, lang),
        "taken": shown(move.taken, lang),
        "points": move.points,
        "suit": suit,
    }


def entered(deal: DealView, lang: str, how: str | None = None) -> str:
    """What entering a deal's result did: who won it, the game points and why (``how``, as
    the opponent agreed to it, else the reason's word)."""
    words = translations(lang)
    if deal.winner is None:
        return words.gettext(ENTERED_DRAWN) % {"number": deal.number} + "."
    return (
        words.ngettext(*ENTERED_WON, deal.game_points)
        % {
            "winner": deal.winner,
            "number": deal.number,
            "num": deal.game_points,
            "reason": how or word(deal.reason, lang, spoken=True),
        }
        + "."
    )


def told(deal: DealView, tokens: tuple[str, ...], players: tuple[str, str], lang: str) -> str:
    """What recording ``tokens`` did, named after who did it, with the ruling when the deal
    is over; empty when the view does not say (a deal without its table)."""
    table = deal.table
    if table is None:
        return ""
    say = translations(lang).gettext
    said = [_told(token, table, players, say, lang) for token in tokens]
    if not all(said):
        return ""
    if deal.finished and deal.to_move is None:
        said.append(
            say(OVER)
            % {
                "number": deal.number,
                "explanation": with_symbols(message_words(deal.wording, lang, spoken=True), lang),
            }
        )
        said.append(worth(deal, players, lang))
    return " ".join(s for s in said if s)


def worth(deal: DealView, players: tuple[str, str], lang: str) -> str:
    """What a deal over is worth to its winner and why: ``Anna scores 2 game points (Bert had
    under 33: schneider).`` (empty for a drawn deal)."""
    if deal.winner is None:
        return ""
    words = translations(lang)
    loser = players[1] if deal.winner == players[0] else players[0]
    values: dict[str, object] = {"winner": deal.winner, "num": deal.game_points, "why": ""}
    if deal.carry_in:
        return words.gettext(WORTH_CARRY) % {**values, "carry": deal.carry_in}
    if deal.reason in OUTRIGHT and deal.deal_points in WORTH_WHY:
        values["why"] = words.gettext(WORTH_WHY[deal.deal_points]) % {"loser": loser}
    return (
        words.ngettext(
            "%(winner)s scores %(num)s game point%(why)s.",
            "%(winner)s scores %(num)s game points%(why)s.",
            deal.game_points,
        )
        % values
    )


def _told(
    token: str, table: TableView, players: tuple[str, str], say: Callable[[str], str], lang: str
) -> str:
    """One token's sentence(s); empty when the table does not show it."""
    kind = {"swap": "exchange", "66": "claim", "close": "close", "close-before-draw": "close"}.get(
        token
    )
    if kind is None and token.startswith(("20 ", "40 ")):
        kind = "marriage"
    if kind is not None:
        move = _last_move(table, kind)
        if move is None:
            return ""
        values = _values(move, lang)
        if kind == "close":
            first = not move.after_trick and move in table.tricks[0].moves
            return (
                say(CLOSED_BEFORE if move.after_trick else CLOSED_FIRST if first else CLOSED_AFTER)
                % values
            )
        if kind == "exchange":
            return say(EXCHANGED if move.taken else EXCHANGED_UNSEEN) % values
        return say(DECLARED if kind == "marriage" else CLAIMED) % values
    return _played(token, table, players, say, lang)


def _played(
    token: str, table: TableView, players: tuple[str, str], say: Callable[[str], str], lang: str
) -> str:
    """A card played: who played it, and who won the trick it completed."""
    trick = _trick_of(table, token)
    if trick is None:
        return ""
    other = players[1] if trick.leader == players[0] else players[0]
    player = trick.leader if trick.lead == token else other
    text = say(PLAYED) % {"player": player, "card": shown(token, lang)}
    if trick.follow == token and trick.winner is not None:
        text += " " + say(WON) % {"player": trick.winner}
    return text


def _trick_of(table: TableView, card: str) -> TrickView | None:
    for trick in reversed(table.tricks):
        if card in (trick.lead, trick.follow):
            return trick
    return None


def _last_move(table: TableView, kind: str) -> MoveView | None:
    for trick in reversed(table.tricks):
        for move in reversed(trick.moves):
            if move.kind == kind:
                return move
    return None
