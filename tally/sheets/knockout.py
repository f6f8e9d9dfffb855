"""The sheets of a knockout with lives or groups then knockout, built from the store: the
standings by elimination (:func:`elimination_sheet`, or :func:`event_sheet` for any event's
printed standings) and the bracket (:func:`bracket_sheet`).
The pairings of each round are the ordinary pairings sheet
(:func:`tally.sheets.build.pairings_sheet`), which prints how the round was drawn.
"""

from __future__ import annotations

from datetime import UTC, datetime

from tally.errors import Message, Refused
from tally.events.prizes import money
from tally.i18n import N_
from tally.sheets.data import (
    BracketCell,
    BracketSheet,
    CategoryPrizeLines,
    EliminationRow,
    EliminationSheet,
    PrizeLines,
    StandingsSheet,
)
from tally.store import Store
from tally.store.knockouts import KnockoutView

#: the refusals
NOT_ELIMINATION = N_('event %(id)s "%(name)s" is not a knockout or groups event')
NO_BRACKET_YET = N_(
    'event %(id)s "%(name)s" has no bracket yet (%(stage)s): it is seeded when its first round '
    "starts"
)


def event_sheet(store: Store, ref: str | int) -> StandingsSheet | EliminationSheet:
    """An event's standings as printed (``tally print standings`` and the director's
    standings PDF alike): by elimination for a knockout or groups event (lives, the round out
    in, buy-backs and prizes), else the standings table."""
    from tally.sheets.build import event_standings_sheet

    ev = store.events.get(ref)
    if ev.format.ranks_by_elimination:
        return elimination_sheet(store, ev.id)
    return event_standings_sheet(store, ev.id)


def _view(store: Store, ref: str | int) -> KnockoutView:
    ev = store.events.get(ref)
    if not ev.format.ranks_by_elimination:
        raise Refused(Message(NOT_ELIMINATION, id=ev.id, name=ev.name))
    return store.knockouts.view(ev)


def elimination_sheet(
    store: Store, ref: str | int, *, printed_at: datetime | None = None
) -> EliminationSheet:
    """The standings by elimination of a knockout or groups event."""
    view = _view(store, ref)
    ev = view.event
    rows = tuple(
        EliminationRow(
            rank=x.rank,
            player=x.player,
            stage=x.stage,
            lives=x.lives,
            out_in=x.out_in,
            group=x.group,
            won=x.row.won,
            lost=x.row.lost,
            marks=x.marks,
            withdrawn=x.withdrawn,
            bought=x.bought,
            prize=money(x.prize) if x.prize else None,
            prize_category=x.prize_category if x.prize else None,
        )
        for x in view.lines
    )
    return EliminationSheet(
        event=ev.name,
        date=ev.date,
        rule_set=ev.rules,
        printed_at=printed_at or datetime.now(UTC),
        kind=view.kind,
        rows=rows,
        rounds=view.rounds_started,
        lives=view.lives,
        seed=view.draw_seed,
        stage=view.stage,
        champion=view.champion,
        tiebreaks=view.tiebreaks,
        prizes=_prize_lines(view),
        buy_back_until=view.buy_back_until,
        buy_backs=view.buy_backs,
    )


def _prize_lines(view: KnockoutView) -> PrizeLines | None:
    """The event's prize table as the sheet prints it."""
    p = view.prizes
    if p is None:
        return None
    places = tuple(
        (n, share, money(prize))
        for n, (share, prize) in enumerate(zip(p.shares, p.table.prizes, strict=True), start=1)
    )
    return PrizeLines(
        money(p.table.pool),
        p.entries,
        money(p.entry_fee),
        p.bought,
        places,
        money(p.table.unit),
        money(p.paid),
        money(p.club),
        tuple(
            CategoryPrizeLines(
                c.category,
                tuple(
                    (n, c.shares[n - 1] if c.shares else "", money(prize))
                    for n, prize in enumerate(c.prizes, start=1)
                ),
                money(c.paid),
            )
            for c in p.categories
        ),
        money(p.paid_overall),
    )


def _round_name(r: int, last: int) -> str:
    """The heading of round ``r`` of a bracket of ``last`` rounds, in the current language."""
    from tally.i18n import gettext as _

    left = last - r
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    return _("Round of %(n)s") % {"n": 2 ** (left + 1)}


def bracket_sheet(
    store: Store, ref: str | int, *, printed_at: datetime | None = None
) -> BracketSheet:
    """The bracket of a knockout's final stage or of groups then knockout; refused before
    the bracket is seeded (it is seeded when its first round starts)."""
    view = _view(store, ref)
    ev = view.event
    if not view.bracket:
        raise Refused(Message(NO_BRACKET_YET, id=ev.id, name=ev.name, stage=view.stage))
    last = len(view.bracket)
    rounds = tuple(
        tuple(
            BracketCell(m.table, m.first, m.second, m.result, m.winner if m.decided else None)
            for m in matches
        )
        for matches in view.bracket
    )
    return BracketSheet(
        event=ev.name,
        date=ev.date,
        rule_set=ev.rules,
        printed_at=printed_at or datetime.now(UTC),
        round_names=tuple(_round_name(r, last) for r in range(1, last + 1)),
        rounds=rounds,
        champion=view.champion,
        stage=view.stage,
        best_of=view.best_of,
    )
