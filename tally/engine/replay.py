"""The one replay loop: a record's trick lines driven through a deal's public actions.

:func:`replay` checks that each line is well placed (a marriage before the lead, a close
between tricks, nothing after a claim...) and applies its items to a
:class:`~tally.engine.deal.Deal`. A :class:`ReplayVisitor`, when given, is told where each line
begins and ends, as python-chess's PGN reader tells its visitor; that is how per-line summaries are
made without a second loop. The first impossible item stops the replay: after it nothing later
can be trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from tally.engine.decision import ErrorEntry
from tally.engine.kernel import KING, QUEEN
from tally.engine.notation import (
    CardItem,
    ClaimItem,
    CloseItem,
    Item,
    MarriageItem,
    SwapItem,
    TrickLine,
)
from tally.errors import Message, RecordError
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.engine.deal import Deal


# The messages of trick lines out of place, one template each, marked for the catalogue (an
# error carries its template and values, worded in the reader's language from them:
# tally.errors.Message).
MSG_AFTER_CLAIM: Final = N_("nothing may follow a claim")
MSG_ALL_PLAYED: Final = N_("the deal is over: every trick is played")
MSG_UNFINISHED: Final = N_(
    "trick %(trick)s is unfinished; only the last line may stop after the leader's card"
)
MSG_NO_CARDS: Final = N_(
    "trick %(trick)s has no cards; only the last line may stop before its cards"
)
MSG_ITEM_AFTER_CLAIM: Final = N_('"%(item)s" after a claim: nothing may follow a claim')
MSG_ITEM_AFTER_LAST: Final = N_('"%(item)s" after the last trick: only a claim may follow it')
MSG_THIRD_CARD: Final = N_("%(item)s: trick %(trick)s already has its two cards")
MSG_MARRIAGE_PLACE: Final = N_("a marriage is declared by the leader, before leading")
MSG_SWAP_PLACE: Final = N_(
    "swap after the trick: an exchange comes just before a card, on the next trick's line"
)
MSG_CLOSE_PLACE: Final = N_(
    "close between the two cards of a trick: the stock is closed before "
    "leading or right after the trick"
)
#: Every template of a message of this module.
MESSAGES: Final = (
    MSG_AFTER_CLAIM,
    MSG_ALL_PLAYED,
    MSG_UNFINISHED,
    MSG_NO_CARDS,
    MSG_ITEM_AFTER_CLAIM,
    MSG_ITEM_AFTER_LAST,
    MSG_THIRD_CARD,
    MSG_MARRIAGE_PLACE,
    MSG_SWAP_PLACE,
    MSG_CLOSE_PLACE,
)
#: The ranks a marriage is declared with.
_MARRIAGE_RANKS = (KING, QUEEN)


class ReplayVisitor:
    """Told about each trick line as it is replayed; subclass and override what you need."""

    def begin_line(self, deal: Deal, line: TrickLine) -> None:
        """Before the line's items, once the draws of the trick before are made."""

    def end_line(self, deal: Deal, line: TrickLine) -> None:
        """After the line's items, when the line replayed without error."""


def replay(
    deal: Deal, lines: Sequence[TrickLine], visitor: ReplayVisitor | None = None
) -> ErrorEntry | None:
    """Replay ``lines`` on ``deal``; the first record error (with its line), if any."""
    last = len(lines) - 1
    claimed = deal.claimed
    push = deal.push
    for index, tl in enumerate(lines):
        try:
            if claimed:
                raise RecordError(MSG_AFTER_CLAIM)
            if deal.all_tricks_played:
                raise RecordError(MSG_ALL_PLAYED)
            items = tl.items
            # A card draws by itself first; anything else, or a visitor, must see the draws.
            if deal.draw_pending and (
                visitor is not None or not items or type(items[0]) is not CardItem
            ):
                deal.draw()
            if visitor is not None:
                visitor.begin_line(deal, tl)
            cards = 0  # cards put on this line's trick (a declared marriage shows one)
            trick_done = False
            for item in items:
                if type(item) is CardItem and not trick_done and not claimed:
                    trick_done = push(item.card)
                    cards += 1
                else:
                    cards, claimed = _other_item(deal, tl, item, cards, trick_done, claimed)
            if index != last and not claimed:
                if cards and not trick_done:
                    raise RecordError(Message(MSG_UNFINISHED, trick=tl.number))
                if not trick_done:
                    raise RecordError(Message(MSG_NO_CARDS, trick=tl.number))
        except RecordError as exc:
            return ErrorEntry.of(tl.line, exc.bare)
        if visitor is not None:
            visitor.end_line(deal, tl)
    return None


def _other_item(
    deal: Deal, tl: TrickLine, item: Item, cards: int, trick_done: bool, claimed: bool
) -> tuple[int, bool]:
    """Apply an item that is not a card starting or finishing the trick (or refuse it where
    it stands); returns the cards on the trick and whether the deal is claimed now."""
    kind = type(item)
    if claimed:
        raise RecordError(Message(MSG_ITEM_AFTER_CLAIM, item=item))
    if trick_done and kind is not ClaimItem and deal.all_tricks_played:
        raise RecordError(Message(MSG_ITEM_AFTER_LAST, item=item))
    if kind is CardItem:
        raise RecordError(Message(MSG_THIRD_CARD, item=item, trick=tl.number))
    if isinstance(item, MarriageItem):
        if cards or trick_done:
            raise RecordError(MSG_MARRIAGE_PLACE)
        deal.declare(item.card, item.value)
        return cards + 1, False
    if isinstance(item, SwapItem):
        if trick_done:
            raise RecordError(MSG_SWAP_PLACE)
        deal.exchange()
    elif isinstance(item, CloseItem):
        if cards and not trick_done:
            raise RecordError(MSG_CLOSE_PLACE)
        deal.close(after_trick=trick_done)
    elif isinstance(item, ClaimItem):
        deal.claim(item.player)
        return cards, True
    return cards, False
