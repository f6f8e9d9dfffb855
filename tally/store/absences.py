"""A player's announced absence from a round (``tally event absent``): a **requested bye**.

A player of a Swiss event who tells the director before round N is paired that they will
miss it is not paired in round N; they get a requested bye scoring as the event says
(``absence_score``: ``half`` a won match's match points, the default and FIDE's common
practice for a bye asked for in advance, or ``zero``). It is not the pairing bye: the odd
player out of the players paired still gets the ordinary bye. In the standings it is a round
not played (a bye: no opponent; under ``--unplayed virtual-opponent`` a virtual opponent).

Refused where a round is not paired from the standings: a club evening has no rounds (a
player who misses it is simply given no match), a round robin's or a groups event's schedule
is fixed (the director records the missed game as a one-round forfeit once the round is
started, :mod:`tally.store.noshows`), and in a knockout with lives a
missed round would cost a life (the director withdraws the player). Also refused once round
N is paired, for a withdrawn player, a round beyond the event and twice for one round.
Announcing and taking back (``cancel``) are audited (``tally audit undo``): the absences are
part of the event's snapshot.
"""

from __future__ import annotations

from sqlalchemy import delete, insert
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Advice, Message, NotFound, Refused
from tally.events.formats import format_of
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot
from tally.store.players import resolve_player
from tally.store.transactions import Database

__all__ = ["Absences", "player_still_in"]


def _refuse_format(ev: RowMapping) -> None:
    """Refuse an absence where the event's rounds are not paired from the standings."""
    fmt = format_of(ev["kind"])
    which = Message(N_('event %(id)s "%(name)s"'), id=ev["id"], name=ev["name"])
    if not fmt.has_rounds:
        raise Refused(
            Message(
                N_(
                    'event %(id)s "%(name)s" is a %(kind)s: it has no rounds to miss (a player '
                    "who is not there is simply given no match that evening)"
                ),
                id=ev["id"],
                name=ev["name"],
                kind=Message(fmt.audit_name),
            )
        )
    if fmt.has_lives:
        raise Refused(
            Message(
                N_(
                    "%(event)s is a %(kind)s: a missed round would cost a life; withdraw the "
                    "player instead%(advice)s"
                ),
                event=which,
                kind=Message(fmt.audit_name),
                advice=Advice(N_(" (`tally event withdraw %(event)s PLAYER`)"), event=ev["id"]),
            )
        )
    if not fmt.pairs_from_standings:
        raise Refused(
            Message(
                N_(
                    "%(event)s is a %(kind)s with a fixed schedule: record the missed game "
                    "as a forfeit instead, once the round is started%(advice)s"
                ),
                event=which,
                kind=Message(fmt.audit_name),
                advice=Advice(
                    N_(" (`tally event forfeit %(event)s PLAYER --round N`)"), event=ev["id"]
                ),
            )
        )


def _refuse_limits(conn: Connection, ev: RowMapping, player: RowMapping, number: int) -> None:
    """Refuse a requested bye beyond the event's limits: more than ``max_absences`` for one
    player, or one in the last ``no_absence_last`` rounds."""
    eid, name = ev["id"], ev["name"]
    last = ev["no_absence_last"] or 0
    rounds = ev["rounds"] or 0
    if last and number > rounds - last:
        raise Refused(
            Message(
                N_(
                    'event %(id)s "%(name)s" takes no requested bye in its last %(last)s '
                    "round(s) (rounds %(first)s to %(rounds)s): %(player)s cannot miss round "
                    "%(round)s that way"
                ),
                id=eid,
                name=name,
                last=last,
                first=rounds - last + 1,
                rounds=rounds,
                player=player["name"],
                round=number,
            )
        )
    most = ev["max_absences"]
    had = sum(1 for _, p in eventrows.absences(conn, eid) if p == player["id"])
    if most is not None and had >= most:
        raise Refused(
            Message(
                N_(
                    'event %(id)s "%(name)s" allows %(most)s requested bye(s) a player: '
                    "%(player)s has announced %(had)s already"
                ),
                id=eid,
                name=name,
                most=most,
                player=player["name"],
                had=had,
            )
        )


def _refuse_round(conn: Connection, ev: RowMapping, number: int) -> None:
    """Refuse a round the event does not play, and one paired already."""
    eid, name = ev["id"], ev["name"]
    players = len(eventrows.event_players(conn, eid))
    total = format_of(ev["kind"]).total_rounds(players, dict(ev))
    if not 1 <= number <= total:
        raise NotFound(
            Message(
                N_('event %(id)s "%(name)s" has rounds 1 to %(total)s, not %(round)s'),
                id=eid,
                name=name,
                total=total,
                round=number,
            )
        )
    paired = conn.execute(
        t.event_rounds.select().where(
            (t.event_rounds.c.event_id == eid) & (t.event_rounds.c.number == number)
        )
    ).first()
    if paired is not None:
        raise Refused(
            Message(
                N_(
                    'round %(round)s of event %(event)s "%(name)s" is paired already: an '
                    "absence is announced before its round is paired%(advice)s"
                ),
                round=number,
                event=eid,
                name=name,
                advice=Advice(N_(" (withdraw the round's pairings first: `tally event unpair`)")),
            )
        )


def player_still_in(conn: Connection, ev: RowMapping, player: str) -> RowMapping:
    """The stored player ``player``, refused unless entered in event ``ev`` and not withdrawn."""
    eid, name = ev["id"], ev["name"]
    row = resolve_player(conn, player)
    entry = next(
        (p for p in eventrows.event_players(conn, eid) if p["player_id"] == row["id"]), None
    )
    if entry is None:
        raise NotFound(Message(eventrows.NOT_IN_EVENT, player=row["name"], id=eid, name=name))
    if entry["withdrawn_at"] is not None:
        raise Refused(Message(eventrows.WITHDRAWN_FROM, player=row["name"], id=eid, name=name))
    return row


def _put_absence(conn: Connection, eid: int, player_id: int, number: int, *, cancel: bool) -> None:
    """Store player ``player_id``'s absence from round ``number`` of event ``eid`` (``cancel``:
    delete it)."""
    ab = t.event_absences.c
    if cancel:
        conn.execute(
            delete(t.event_absences).where(
                (ab.event_id == eid) & (ab.player_id == player_id) & (ab.round_number == number)
            )
        )
    else:
        conn.execute(
            insert(t.event_absences).values(event_id=eid, player_id=player_id, round_number=number)
        )


#: the words of an absence announced, and taken back, in the audit log
_ABSENT = N_("%(name)s announced an absence from round %(round)s")
_ABSENCE_TAKEN_BACK = N_("%(name)s takes back the absence from round %(round)s")


class Absences:
    """Players' announced absences from a round of an event (a requested bye). Reached as
    ``store.absences``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def announce(self, ref: str | int, player: str, number: int, *, cancel: bool = False) -> str:
        """Record that ``player`` will miss round ``number`` of an event (``cancel``: take it
        back) before the round is paired; the player's name as stored. Audited (the event's
        absences afterwards: :attr:`~tally.store.views.EventView.absences`)."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            eid, name = ev["id"], ev["name"]
            _refuse_format(ev)
            row = player_still_in(conn, ev, player)
            _refuse_round(conn, ev, number)
            there = (number, row["id"]) in eventrows.absences(conn, eid)
            if not cancel:
                _refuse_limits(conn, ev, row, number)
            if there != cancel:
                raise Refused(
                    Message(
                        N_(
                            "%(player)s has announced an absence from round %(round)s of event "
                            '%(id)s "%(name)s" already'
                        )
                        if there
                        else N_(
                            "%(player)s has announced no absence from round %(round)s of event "
                            '%(id)s "%(name)s"'
                        ),
                        player=row["name"],
                        round=number,
                        id=eid,
                        name=name,
                    )
                )
            before = snapshot(conn, "event", eid)
            _put_absence(conn, eid, row["id"], number, cancel=cancel)
            verb = "takes back the absence" if cancel else "announced an absence"
            Audit(self.store).write(
                conn,
                "event absent",
                "event",
                eid,
                f"{row['name']} {verb} from round {number} of event {eid}",
                {f"event:{eid}": before},
                {f"event:{eid}": snapshot(conn, "event", eid)},
                words=Message(
                    _ABSENCE_TAKEN_BACK if cancel else _ABSENT, name=row["name"], round=number
                ),
            )
            return str(row["name"])
