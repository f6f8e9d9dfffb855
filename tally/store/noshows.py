"""A player's no-show in one round (``tally event forfeit``): a **one-round forfeit**.

A player of a Swiss event or a round robin who does not come to their match in a round that
has started, and stays in the event, is recorded as a no-show for that round: the opponent
wins the round's match by forfeit (``+``/``-`` in the cross-table and in TRF), and when both
players stayed away nobody scores (``-``/``-``). The player is paired again in the next
round. The standings count the match as a forfeit counts (the winner's match points, the
game not played: the tiebreaks' rules for unplayed games, :mod:`tally.events.tiebreaks`);
a Swiss event pairs the two again if it must (a forfeit is no game met) and counts no
dealer for it (:mod:`tally.store.eventrounds`). The match takes no deals
(:mod:`tally.store.over`).

Refused, with the reason: in a format without such rounds (a club evening, a knockout, a
groups event: withdraw the player there), for a round not started, a player not in the event
or withdrawn, a player not paired in the round (the bye, an announced absence), a match with
deals recorded (a game played stands: delete its deals first), and twice. Recording and
taking back (``cancel``) are audited (``tally audit undo``): the no-shows are part of the
event's snapshot.
"""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Advice, Message, Refused
from tally.events.formats import format_of
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.absences import player_still_in
from tally.store.corrections import Audit, snapshot
from tally.store.transactions import Database

__all__ = ["NoShows"]

#: the words of a no-show recorded, and taken back, in the audit log
_NO_SHOW = N_("%(name)s did not come to round %(round)s: the match is forfeited")
_NO_SHOW_TAKEN_BACK = N_("%(name)s's no-show in round %(round)s is taken back")


def _refuse_format(ev: RowMapping) -> None:
    """Refuse a no-show where rounds are not each played by all the players."""
    fmt = format_of(ev["kind"])
    if not fmt.has_scored_rounds:
        raise Refused(
            Message(
                N_(
                    'event %(id)s "%(name)s" is a %(kind)s: a one-round forfeit is for a Swiss '
                    "event or a round robin; withdraw the player instead%(advice)s"
                ),
                id=ev["id"],
                name=ev["name"],
                kind=Message(fmt.audit_name),
                advice=Advice(N_(" (`tally event withdraw %(event)s PLAYER`)"), event=ev["id"]),
            )
        )


def _round_matches(conn: Connection, ev: RowMapping, player: RowMapping, number: int) -> list[int]:
    """The matches ``player`` is paired in in round ``number`` of event ``ev``; refused for a
    round not started and for a player not paired in it."""
    eid, name = ev["id"], ev["name"]
    started = conn.execute(
        select(t.event_rounds.c.number).where(
            (t.event_rounds.c.event_id == eid) & (t.event_rounds.c.number == number)
        )
    ).first()
    if started is None:
        raise Refused(
            Message(
                N_(
                    'round %(round)s of event %(id)s "%(name)s" has not started: a no-show is '
                    "recorded once the round's matches are made"
                ),
                round=number,
                id=eid,
                name=name,
            )
        )
    m = t.matches.c
    ids = list(
        conn.execute(
            select(m.id)
            .where(
                (m.event_id == eid)
                & (m.round_number == number)
                & ((m.player_a_id == player["id"]) | (m.player_b_id == player["id"]))
            )
            .order_by(m.id)
        ).scalars()
    )
    if not ids:
        raise Refused(
            Message(
                N_(
                    '%(player)s has no match in round %(round)s of event %(id)s "%(name)s" '
                    "(the bye, or an announced absence): there is nothing to forfeit"
                ),
                player=player["name"],
                round=number,
                id=eid,
                name=name,
            )
        )
    return ids


def _refuse_played(conn: Connection, player: RowMapping, number: int, ids: list[int]) -> None:
    """Refuse a no-show in a match with deals recorded: a game played stands."""
    d = t.deals.c
    played = conn.execute(
        select(d.match_id, func.count()).where(d.match_id.in_(ids)).group_by(d.match_id)
    ).first()
    if played is not None:
        raise Refused(
            Message(
                N_(
                    "match %(match)s of %(player)s in round %(round)s has %(deals)s deal(s) "
                    "recorded: a game played stands, so it cannot be forfeited; delete its "
                    "deals first if they were recorded by mistake"
                ),
                match=played[0],
                player=player["name"],
                round=number,
                deals=played[1],
            )
        )


def _put(conn: Connection, eid: int, player_id: int, number: int, *, cancel: bool) -> None:
    """Store player ``player_id``'s no-show in round ``number`` of event ``eid`` (``cancel``:
    delete it)."""
    ns = t.event_no_shows.c
    if cancel:
        conn.execute(
            delete(t.event_no_shows).where(
                (ns.event_id == eid) & (ns.player_id == player_id) & (ns.round_number == number)
            )
        )
    else:
        conn.execute(
            insert(t.event_no_shows).values(event_id=eid, player_id=player_id, round_number=number)
        )


def _refuse_twice(ev: RowMapping, player: RowMapping, number: int, there: bool) -> None:
    """Refuse a no-show recorded already (``there``), or one taken back that is not."""
    raise Refused(
        Message(
            N_(
                "%(player)s is recorded already as not coming to round %(round)s of event "
                '%(id)s "%(name)s"'
            )
            if there
            else N_(
                "%(player)s is not recorded as not coming to round %(round)s of event "
                '%(id)s "%(name)s"'
            ),
            player=player["name"],
            round=number,
            id=ev["id"],
            name=ev["name"],
        )
    )


class NoShows:
    """Players who did not come to their match of one round (a one-round forfeit). Reached
    as ``store.no_shows``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def record(self, ref: str | int, number: int, player: str, *, cancel: bool = False) -> str:
        """Record that ``player`` did not come to their match of round ``number`` of an event
        (``cancel``: take it back); the player's name as stored. Audited (the event's
        no-shows afterwards: :attr:`~tally.store.views.EventView.no_shows`)."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            eid = ev["id"]
            _refuse_format(ev)
            row = player_still_in(conn, ev, player)
            ids = _round_matches(conn, ev, row, number)
            missed = eventrows.no_shows_by_event(conn, [eid]).get(eid, [])
            there = (number, row["id"]) in missed
            if there != cancel:
                _refuse_twice(ev, row, number, there)
            if not cancel:
                _refuse_played(conn, row, number, ids)
            before = snapshot(conn, "event", eid)
            _put(conn, eid, row["id"], number, cancel=cancel)
            verb = "no-show taken back" if cancel else "did not come"
            Audit(self.store).write(
                conn,
                "event forfeit",
                "event",
                eid,
                f"{row['name']}: {verb} in round {number} of event {eid}",
                {f"event:{eid}": before},
                {f"event:{eid}": snapshot(conn, "event", eid)},
                words=Message(
                    _NO_SHOW_TAKEN_BACK if cancel else _NO_SHOW, name=row["name"], round=number
                ),
            )
            return str(row["name"])
