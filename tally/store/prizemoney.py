"""A Preisschnapsen's money and buy-backs in the store: the entry fee, the prize table and the
buy-back rule of a knockout or groups event (:meth:`Prizes.set_money`), and a life bought back by a
player out of a knockout with lives (:meth:`Prizes.buy_back`, "Nachkauf"). The arithmetic is
:mod:`tally.events.prizes`, the lives :mod:`tally.events.knockout`; the prize table is shown with
the standings by elimination (``store.knockouts.view``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Final

from sqlalchemy import insert, update
from sqlalchemy.engine import RowMapping

from tally.errors import Message, NotFound, Refused
from tally.events.formats import format_of
from tally.events.knockout import MAX_LIVES, buy_back_refusal
from tally.events.knockout.state import KnockoutState
from tally.events.prizes import (
    CategoryPrizes,
    check_shares,
    money,
    parse_category_prizes,
    parse_shares,
)
from tally.i18n import N_
from tally.names import fold
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot, utc_now
from tally.store.knockouts import buy_back_fee_of, lives_lines, load_state
from tally.store.knockoutviews import category_tables
from tally.store.players import resolve_player
from tally.store.transactions import Database

__all__ = []


def _has_lives(fmt: Mapping[str, Any]) -> bool:
    """Whether the event's format counts lives (a knockout with lives): only then can a
    player buy a life back."""
    return fmt["lives"] is not None


#: why a last round for buy-backs can never apply: nobody is out before it
TOO_EARLY: Final = N_(
    "--buy-back-until: %(round)s never allows a buy-back: with %(lives)s life(s) nobody is out "
    "before round %(lives)s, so the first round a bought-back player can join is %(first)s; "
    "give %(first)s or later"
)


def _check_buy_back_until(until: int, lives: int) -> None:
    """Refuse a last round for buy-backs that can never apply: a player loses at most one
    life a round, so with ``lives`` lives the first player out is out in round ``lives`` and
    can first join again in round ``lives + 1``."""
    if until <= lives:
        raise Refused(Message(TOO_EARLY, round=until, lives=lives, first=lives + 1))


def _refuse_without_prizes(ev: RowMapping) -> None:
    """Refuse money settings for an event that does not rank by elimination: prize tables
    and buy-backs are for knockout and groups events."""
    if not format_of(ev["kind"]).ranks_by_elimination:
        raise Refused(
            Message(
                N_(
                    'event %(id)s "%(name)s" is not a knockout or groups event: prize '
                    "tables and buy-backs are for those"
                ),
                id=ev["id"],
                name=ev["name"],
            )
        )


def _prize_values(
    st: KnockoutState, entry_fee: int | None, shares: str | None, unit: int | None
) -> dict[str, Any]:
    """The event's prize columns given: entry fee, prize shares (checked against the field)
    and rounding unit."""
    values: dict[str, Any] = {}
    if entry_fee is not None:
        values["entry_fee"] = entry_fee
    if shares is not None:
        parsed = parse_shares(shares)
        check_shares(parsed, len(st.entrants))
        values["prize_shares"] = ",".join(f"{x.normalize():f}" for x in parsed)
    if unit is not None:
        if unit < 1:
            raise Refused(N_("--round-to: prizes are rounded to at least 1 cent"))
        values["prize_unit"] = unit
    return values


#: what category percentages that make the pool's shares more than 100 % are told
TOO_MANY_SHARES: Final = N_(
    "--category-prizes: the places overall and the categories' percentages add up to "
    "%(total)s %%, more than the pool (100 %%)"
)


def _category_values(
    fmt: Mapping[str, Any], values: Mapping[str, Any], given: Sequence[str]
) -> dict[str, Any]:
    """The event's category prize tables with each of ``given`` (``Damen=10,5``,
    ``Jugend=20 €;10 €``, ``Damen=`` to take a table away) put in place of the category's
    table, in the order first given; refused when the percentages of the overall places and
    of the categories add up to more than the pool."""
    tables: dict[str, CategoryPrizes] = {fold(c.category): c for c in category_tables(fmt)}
    for text in given:
        table = parse_category_prizes(text)
        if table.shares or table.amounts:
            tables[fold(table.category)] = table
        else:
            tables.pop(fold(table.category), None)
    shares = values.get("prize_shares", fmt["prize_shares"]) or ""
    overall = parse_shares(shares) if shares else ()
    total = sum((*overall, *(x for c in tables.values() for x in c.shares)), Decimal(0))
    if total > 100:
        raise Refused(Message(TOO_MANY_SHARES, total=f"{total.normalize():f}"))
    return {"category_prizes": "\n".join(c.written() for c in tables.values()) or None}


def _buy_back_values(ev: RowMapping, st: KnockoutState, given: dict[str, Any]) -> dict[str, Any]:
    """The buy-back rule ``given`` (last round, fee, buy-backs per player, at once), checked:
    only a knockout with lives has buy-backs."""
    if given and not _has_lives(st.fmt):
        raise Refused(
            Message(
                N_(
                    'event %(id)s "%(name)s" has no lives: only a player out of a '
                    "knockout with lives can buy back a life"
                ),
                id=ev["id"],
                name=ev["name"],
            )
        )
    if given.get("buy_back_until") is not None:
        _check_buy_back_until(given["buy_back_until"], int(st.fmt["lives"]))
    buy_backs = given.get("buy_backs")
    if buy_backs is not None and not 1 <= buy_backs <= MAX_LIVES:
        raise Refused(
            Message(
                N_("--buy-backs: a player may buy back 1 to %(most)s times, not %(n)s"),
                most=MAX_LIVES,
                n=buy_backs,
            )
        )
    return given


def _refuse_buy_back(ev: RowMapping, who: RowMapping, st: KnockoutState) -> None:
    """Refuse a buy-back by ``who`` that the event does not allow now: no lives, its final
    stage begun, or the player's lives, elimination, earlier buy-backs and the event's rule
    (:func:`tally.events.knockout.buy_back_refusal`) say no."""
    if not _has_lives(st.fmt):
        raise Refused(
            Message(
                N_('%(player)s cannot buy back: event %(id)s "%(name)s" has no lives'),
                player=who["name"],
                id=ev["id"],
                name=ev["name"],
            )
        )
    if st.fmt["bracket_round"] is not None or st.fmt["playoff_round"] is not None:
        raise Refused(
            Message(
                N_(
                    "%(player)s cannot buy back: the final stage of event %(id)s "
                    '"%(name)s" has begun'
                ),
                player=who["name"],
                id=ev["id"],
                name=ev["name"],
            )
        )
    line = next(x for x in lives_lines(st) if x.player == str(who["id"]))
    why = buy_back_refusal(
        line.lives,
        line.out_in,
        line.withdrawn,
        len(st.bought.get(who["id"], [])),
        next_round=len(st.started) + 1,
        until=st.fmt["buy_back_until"],
        most=st.fmt["buy_backs"],
        at_once=bool(st.fmt["buy_back_at_once"]),
    )
    if why is not None:
        raise Refused(
            Message(
                N_('%(player)s %(why)s (event %(id)s "%(name)s")'),
                player=who["name"],
                why=why,
                id=ev["id"],
                name=ev["name"],
            )
        )


class Prizes:
    """Entry fees, prize shares and buy-backs of a knockout with lives. Reached as
    ``store.prizes``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def set_money(
        self,
        ref: str | int,
        *,
        entry_fee: int | None = None,
        shares: str | None = None,
        unit: int | None = None,
        buy_back_until: int | None = None,
        buy_back_fee: int | None = None,
        buy_backs: int | None = None,
        buy_back_at_once: bool | None = None,
        category_prizes: Sequence[str] = (),
    ) -> None:
        """Set what is given of an event's entry fee (cents), prize shares (``"50,30,20"``),
        rounding unit (cents), last round a bought-back player may join, buy-back fee (cents)
        buy-backs per player and whether a buy-back is taken only straight after elimination
        (``buy_back_at_once``), and the prize tables of categories (``Damen=10,5``,
        ``Jugend=20 €;10 €``; ``Damen=`` takes one away: :func:`_category_values`); checked
        (:func:`tally.events.prizes.check_shares`), audited."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            _refuse_without_prizes(ev)
            st = load_state(conn, ev)
            values = _prize_values(st, entry_fee, shares, unit)
            if category_prizes or "prize_shares" in values:
                values.update(_category_values(st.fmt, values, category_prizes))
            back = {
                "buy_back_until": buy_back_until,
                "buy_back_fee": buy_back_fee,
                "buy_backs": buy_backs,
                "buy_back_at_once": buy_back_at_once,
            }
            values.update(
                _buy_back_values(ev, st, {k: v for k, v in back.items() if v is not None})
            )
            if not values:
                return
            before = {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])}
            conn.execute(
                update(t.event_formats).where(t.event_formats.c.event_id == ev["id"]).values(values)
            )
            words = ", ".join(f"{k} {'; '.join(str(v).splitlines())}" for k, v in values.items())
            Audit(self.store).write(
                conn,
                "event prizes",
                "event",
                ev["id"],
                f'set the money of event {ev["id"]} "{ev["name"]}": {words}',
                before,
                {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])},
                words=Message(N_("Prize money of %(event)s set"), event=ev["name"]),
            )

    def buy_back(self, ref: str | int, player: str, *, fee: int | None = None) -> tuple[str, int]:
        """``player``, out of a knockout with lives, buys back a life before the next round
        (see :func:`tally.events.knockout.buy_back_refusal`); their name and the fee paid (cents),
        which goes into the prize pool: the event's buy-back fee, or ``fee`` when given (what a
        loaded file says was paid). Audited; ``tally audit undo`` takes it back."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            if not format_of(ev["kind"]).ranks_by_elimination:
                raise Refused(
                    Message(
                        N_('event %(id)s "%(name)s" is not a knockout: nobody buys back a life'),
                        id=ev["id"],
                        name=ev["name"],
                    )
                )
            who = resolve_player(conn, player)
            st = load_state(conn, ev)
            if who["id"] not in st.ids:
                raise NotFound(
                    Message(
                        eventrows.NOT_IN_EVENT, player=who["name"], id=ev["id"], name=ev["name"]
                    )
                )
            _refuse_buy_back(ev, who, st)
            started = len(st.started)
            fee = buy_back_fee_of(st.fmt) if fee is None else fee
            before = {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])}
            conn.execute(
                insert(t.event_buy_backs).values(
                    event_id=ev["id"],
                    player_id=who["id"],
                    after_round=started,
                    fee=fee,
                    bought_at=utc_now(),
                )
            )
            Audit(self.store).write(
                conn,
                "event buy-back",
                "event",
                ev["id"],
                f'{who["name"]} bought back a life in event {ev["id"]} "{ev["name"]}" '
                f"after round {started} for {money(fee, 'en')}",
                before,
                {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])},
                words=Message(
                    N_("%(name)s bought back a life in %(event)s for %(fee)s"),
                    name=who["name"],
                    event=ev["name"],
                    fee=money(fee),
                ),
            )
            return str(who["name"]), fee
