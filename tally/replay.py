"""The one replay loop: a record's trick lines driven through a deal's public actions.

:func:`replay` checks that each line is well placed (a marriage before the lead, a close
between tricks, nothing after a claim...) and applies its items to a
:class:`~tally.deal.Deal`. A :class:`ReplayVisitor`, when given, is told where each line begins
and ends, as python-chess's PGN reader tells its visitor; that is how per-line summaries are
made without a second loop. The first impossible item stops the replay: after it nothing later
can be trusted.
"""

from __future__ import annotations

from collections.abc import Sequence

from tally.deal import Deal
from tally.decision import ErrorEntry
from tally.errors import RecordError
from tally.notation import CardItem, ClaimItem, CloseItem, MarriageItem, SwapItem, TrickLine


class ReplayVisitor:
    """Told about each trick line as it is replayed; subclass and override what you need."""

    def begin_line(self, deal: Deal, line: TrickLine) -> None:
        """Before the line's items, once the draws of the trick before are made."""

    def end_line(self, deal: Deal, line: TrickLine) -> None:
        """After the line's items, when the line replayed without error."""


def replay(deal: Deal, lines: Sequence[TrickLine],
           visitor: ReplayVisitor | None = None) -> ErrorEntry | None:
    """Replay ``lines`` on ``deal``; the first record error (with its line), if any."""
    last = len(lines) - 1
    claimed = deal.claimed
    for index, tl in enumerate(lines):
        try:
            if claimed:
                raise RecordError("nothing may follow a claim")
            if deal.all_tricks_played:
                raise RecordError("the deal is over: every trick is played")
            # A card draws by itself first; anything else, or a visitor, must see the draws.
            if deal.draw_pending and (visitor is not None or not tl.items
                                      or type(tl.items[0]) is not CardItem):
                deal.draw()
            if visitor is not None:
                visitor.begin_line(deal, tl)
            cards, trick_done, claimed = _replay_items(deal, tl)
            if index != last and not claimed:
                if cards and not trick_done:
                    raise RecordError(f"trick {tl.number} is unfinished; only the last line "
                                      "may stop after the leader's card")
                if not trick_done:
                    raise RecordError(f"trick {tl.number} has no cards; only the last line "
                                      "may stop before its cards")
        except RecordError as exc:
            return ErrorEntry(tl.line, exc.bare_message)
        if visitor is not None:
            visitor.end_line(deal, tl)
    return None


def _replay_items(deal: Deal, tl: TrickLine) -> tuple[int, bool, bool]:
    """Apply the items of one line (the deal not claimed before it): how many cards it put
    on the trick (a declared marriage shows one), whether its trick was completed, and
    whether it ended in a claim."""
    push = deal.push
    cards_on_line = 0
    trick_done = False
    claimed = False
    for item in tl.items:
        kind = type(item)
        if kind is CardItem and not trick_done and not claimed:
            trick_done = push(item.card)  # type: ignore[union-attr]
            cards_on_line += 1
            continue
        if claimed:
            raise RecordError(f'"{item}" after a claim: nothing may follow a claim')
        if trick_done and kind is not ClaimItem and deal.all_tricks_played:
            raise RecordError(f'"{item}" after the last trick: only a claim may follow it')
        if kind is CardItem:
            raise RecordError(f"{item}: trick {tl.number} already has its two cards")
        if isinstance(item, MarriageItem):
            if cards_on_line or trick_done:
                raise RecordError("a marriage is declared by the leader, before leading")
            deal.declare(item.card, item.value)
            cards_on_line += 1
        elif isinstance(item, SwapItem):
            if trick_done:
                raise RecordError("swap after the trick: an exchange comes just before "
                                  "a card, on the next trick's line")
            deal.exchange()
        elif isinstance(item, CloseItem):
            if cards_on_line and not trick_done:
                raise RecordError("close between the two cards of a trick: the stock is "
                                  "closed before leading or right after the trick")
            deal.close(after_trick=trick_done)
        elif isinstance(item, ClaimItem):
            deal.claim(item.player)
            claimed = True
    return cards_on_line, trick_done, claimed
