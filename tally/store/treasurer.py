"""The treasurer's desk of an event in the store (``tally event checkin``, ``tally event
money``): a player checked in (present), what they paid, the extra fees they owe and the prize
money handed to them (:meth:`Treasurer.check_in`); whether only players checked in are paired
(:meth:`Treasurer.require`: a round is not started while a player still in is not checked
in, :func:`refuse_unchecked`); the event's money sheet (:meth:`Treasurer.book`) and a season's
(:meth:`Treasurer.season`). The arithmetic is :mod:`tally.events.cashbook`; the prizes are the
standings by elimination's (:mod:`tally.store.knockoutviews`). Every change is audited and
``tally audit undo`` takes it back: the desk's rows are part of the event's snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Advice, Message, NotFound, Refused
from tally.events.cashbook import Account, CashBook, SeasonTotals, cash_book, season_totals
from tally.events.formats import format_of
from tally.events.prizes import MAX_CENTS, money
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot, utc_now
from tally.store.players import resolve_player
from tally.store.transactions import Database

__all__ = ["Desk", "Treasurer", "refuse_unchecked"]

#: what starting a round with players not checked in is told
NOT_CHECKED_IN: Final = N_(
    'event %(id)s "%(name)s" pairs only players checked in; not checked in: %(players)s. Check '
    "them in or withdraw them%(advice)s"
)


def refuse_unchecked(conn: Connection, ev: RowMapping) -> None:
    """Refuse to pair a round of an event that requires check-in while a player still in it
    (not withdrawn) is not checked in at the desk."""
    if not ev["check_in"]:
        return
    ep, ci = t.event_players.c, t.event_check_ins.c
    here = select(ci.player_id).where((ci.event_id == ev["id"]) & ci.present)
    missing = list(
        conn.execute(
            select(t.players.c.name)
            .join(t.event_players, t.players.c.id == ep.player_id)
            .where((ep.event_id == ev["id"]) & ep.withdrawn_at.is_(None))
            .where(ep.player_id.not_in(here))
            .order_by(ep.seed)
        ).scalars()
    )
    if missing:
        raise Refused(
            Message(
                NOT_CHECKED_IN,
                id=ev["id"],
                name=ev["name"],
                players=", ".join(missing),
                advice=Advice(N_(" (`tally event checkin %(event)s PLAYER`)"), event=ev["id"]),
            )
        )


@dataclass(frozen=True, slots=True)
class Desk:
    """What the treasurer gives for one player: each None stays as it is. ``paid``: what
    they have paid in all (cents), or ``paid_in_full``: what they owe; ``extra``: the extra
    fees owed (cents); ``paid_out``: the prize money handed over, or ``prize_paid_out``: all
    of their prize."""

    present: bool | None = True
    paid: int | None = None
    paid_in_full: bool = False
    extra: int | None = None
    paid_out: int | None = None
    prize_paid_out: bool = False


def _refuse_amounts(values: Mapping[str, Any]) -> None:
    """Refuse an amount the desk cannot hold (more than tally takes)."""
    for key in ("paid", "extra", "paid_out"):
        if key in values and not 0 <= values[key] <= MAX_CENTS:
            raise Refused(
                Message(
                    N_("--%(what)s: %(amount)s is not an amount from 0 to 1000000 euros"),
                    what=key.replace("_", "-"),
                    amount=money(values[key]),
                )
            )


class Treasurer:
    """The treasurer's desk and money sheets. Reached as ``store.treasurer``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def check_in(self, ref: str | int, player: str, desk: Desk) -> Account:
        """Take down at the desk what ``desk`` gives for ``player`` of event ``ref`` (present
        or not, paid, extra fees, prize paid out); their account as it stands then. Audited."""
        book = None
        if desk.paid_in_full or desk.prize_paid_out:
            book = self.book(ref)
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            who = _entrant(conn, ev, player)
            values = _desk_values(desk, book, str(who["name"]))
            _refuse_amounts(values)
            before = {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])}
            _write_desk(conn, ev["id"], who["id"], values)
            words = ", ".join(f"{k} {v}" for k, v in values.items() if k != "checked_in_at")
            Audit(self.store).write(
                conn,
                "event checkin",
                "event",
                ev["id"],
                f'{who["name"]} at the desk of event {ev["id"]} "{ev["name"]}": {words}',
                before,
                {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])},
                words=Message(
                    N_("%(name)s at the treasurer's desk of %(event)s"),
                    name=who["name"],
                    event=ev["name"],
                ),
            )
        return next(a for a in self.book(ref).accounts if a.player == who["name"])

    def require(self, ref: str | int, required: bool) -> None:
        """Whether only players checked in are paired in event ``ref``. Audited."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            if bool(ev["check_in"]) == required:
                return
            before = {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])}
            conn.execute(
                update(t.events).where(t.events.c.id == ev["id"]).values(check_in=required)
            )
            Audit(self.store).write(
                conn,
                "event checkin",
                "event",
                ev["id"],
                f'event {ev["id"]} "{ev["name"]}" '
                + ("pairs only players checked in" if required else "pairs without check-in"),
                before,
                {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])},
                words=Message(
                    N_("%(event)s pairs only players checked in")
                    if required
                    else N_("%(event)s pairs without check-in"),
                    event=ev["name"],
                ),
            )

    def book(self, ref: str | int) -> CashBook:
        """The money sheet of event ``ref``: every player's account in the standings' order
        (:mod:`tally.events.cashbook`)."""
        with self.store.reading() as conn:
            ev = eventrows.resolve_event(conn, ref)
            rows = _desk_rows(conn, ev["id"])
        return _book(self.store, ev, rows)

    def season(self, date_from: date | None = None, date_to: date | None = None) -> SeasonTotals:
        """The money sheets of the events held from ``date_from`` to ``date_to`` (either
        open) that have money (an entry fee, a prize table or a desk row), and their totals."""
        e = t.events.c
        with self.store.reading() as conn:
            query = select(t.events).order_by(e.held_on, e.id)
            if date_from is not None:
                query = query.where(e.held_on >= date_from)
            if date_to is not None:
                query = query.where(e.held_on <= date_to)
            found = [(ev, _desk_rows(conn, ev["id"])) for ev in conn.execute(query).mappings()]
        books = []
        for ev, rows in found:
            book = _book(self.store, ev, rows)
            if book.owed or book.paid or book.prizes or book.paid_out:
                books.append((int(ev["id"]), str(ev["name"]), ev["held_on"].isoformat(), book))
        return season_totals(books)


def _entrant(conn: Connection, ev: RowMapping, player: str) -> RowMapping:
    """``player`` of event ``ev``; refused for a player not in it."""
    who = resolve_player(conn, player)
    ep = t.event_players.c
    found = conn.execute(
        select(ep.player_id).where((ep.event_id == ev["id"]) & (ep.player_id == who["id"]))
    ).first()
    if found is None:
        raise NotFound(
            Message(eventrows.NOT_IN_EVENT, player=who["name"], id=ev["id"], name=ev["name"])
        )
    return who


def _desk_values(desk: Desk, book: CashBook | None, name: str) -> dict[str, Any]:
    """The desk's columns ``desk`` gives (what is owed and won from ``book``)."""
    values: dict[str, Any] = {}
    if desk.present is not None:
        values["present"] = desk.present
        if desk.present:
            values["checked_in_at"] = utc_now()
    mine = None if book is None else next(a for a in book.accounts if a.player == name)
    if desk.extra is not None:
        values["extra"] = desk.extra
    if desk.paid is not None:
        values["paid"] = desk.paid
    elif desk.paid_in_full and mine is not None:
        values["paid"] = mine.owed - mine.extra + values.get("extra", mine.extra)
    if desk.paid_out is not None:
        values["paid_out"] = desk.paid_out
    elif desk.prize_paid_out and mine is not None:
        values["paid_out"] = mine.prize
    return values


def _write_desk(conn: Connection, event_id: int, player_id: int, values: dict[str, Any]) -> None:
    """Insert or update the player's desk row with ``values``."""
    ci = t.event_check_ins
    mine = (ci.c.event_id == event_id) & (ci.c.player_id == player_id)
    row = conn.execute(select(ci.c.present, ci.c.checked_in_at).where(mine)).first()
    if row is not None and row.present and values.get("present"):
        values = {**values, "checked_in_at": row.checked_in_at}  # the first check-in stays
    if row is None:
        conn.execute(insert(ci).values(event_id=event_id, player_id=player_id, **values))
    elif values:
        conn.execute(update(ci).where(mine).values(values))


@dataclass(frozen=True, slots=True)
class _Rows:
    """What the store holds of an event's money: its players (id, name, seed order), entry
    fee, each player's buy-backs (number, fees) and desk row."""

    players: list[tuple[int, str]]
    entry_fee: int
    bought: dict[int, tuple[int, int]]
    desk: dict[int, RowMapping]


def _desk_rows(conn: Connection, event_id: int) -> _Rows:
    ep, b, ci = t.event_players.c, t.event_buy_backs.c, t.event_check_ins
    players = [
        (int(i), str(n))
        for i, n in conn.execute(
            select(ep.player_id, t.players.c.name)
            .join(t.players, t.players.c.id == ep.player_id)
            .where(ep.event_id == event_id)
            .order_by(ep.seed)
        )
    ]
    fee = conn.execute(
        select(t.event_formats.c.entry_fee).where(t.event_formats.c.event_id == event_id)
    ).scalar()
    bought = {
        int(p): (int(n), int(s))
        for p, n, s in conn.execute(
            select(b.player_id, func.count(), func.sum(b.fee))
            .where(b.event_id == event_id)
            .group_by(b.player_id)
        )
    }
    desk = {
        int(r["player_id"]): r
        for r in conn.execute(select(ci).where(ci.c.event_id == event_id)).mappings()
    }
    return _Rows(players, int(fee or 0), bought, desk)


def _book(store: Any, ev: RowMapping, rows: _Rows) -> CashBook:
    """The money sheet of event ``ev`` from its ``rows`` and, for a knockout or groups event,
    the prizes of its standings by elimination."""
    places: dict[str, tuple[int, int, str | None]] = {}
    pool = rows.entry_fee * len(rows.players) + sum(s for _, s in rows.bought.values())
    order = {name: i for i, (_, name) in enumerate(rows.players)}
    if format_of(ev["kind"]).ranks_by_elimination:
        view = store.knockouts.view(store.events.get(ev["id"]))
        if view.prizes is not None:
            pool = view.prizes.table.pool
        for i, line in enumerate(view.lines):
            places[line.player] = (line.rank, line.prize or 0, line.prize_category)
            order[line.player] = i
    accounts = []
    for pid, name in rows.players:
        desk = rows.desk.get(pid)
        number, fees = rows.bought.get(pid, (0, 0))
        rank, prize, category = places.get(name, (None, 0, None))
        accounts.append(
            Account(
                player=name,
                present=bool(desk and desk["present"]),
                entry=rows.entry_fee,
                buy_backs=number,
                buy_back_fees=fees,
                extra=int(desk["extra"]) if desk else 0,
                paid=int(desk["paid"]) if desk else 0,
                rank=rank,
                prize=prize,
                prize_category=category,
                paid_out=int(desk["paid_out"]) if desk else 0,
            )
        )
    accounts.sort(key=lambda a: order[a.player])
    return cash_book(accounts, pool, rows.entry_fee)
