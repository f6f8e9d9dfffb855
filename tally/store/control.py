"""The tournament director's manual control of an event's rounds.

**Withdrawing a round's pairings** (:meth:`Pairings.withdraw`): the latest round started of a
round robin, Swiss event, knockout or groups event is taken back whole (its matches and its
bye), so that it can be paired again (``tally event round EVENT N --start``: a Swiss round is
paired from the standings as they are then, e.g. after a result was corrected or a player
withdrew). This is refused once any deal of the round is recorded (recorded trick by trick or
entered as a quick result): a round in play is corrected deal by deal, never re-paired. It is
the reversal of the audit entry that started the round, so the audit log shows both; a swap
made in the round (:mod:`tally.store.swapping`) is reversed with it, first.

**Pairs kept apart** (:meth:`Pairings.keep_apart`, :meth:`Pairings.apart`): two players of an
event who should not meet (one family, one club). A Swiss round never pairs them while another
pairing of the round exists (:func:`tally.events.swiss.keep_apart`); the pairs are part of the
event's audited snapshot. Where the pairing is not free (a round robin's Berger table, a groups
event's schedule, a knockout's draw by lot) a round that pairs such a pair is warned of
(:meth:`Pairings.apart_warnings`) on ``tally event round``, on the director's pages and when the
pair is added, instead of being silently ignored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Advice, Message, NotFound, Refused
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot
from tally.store.derivation import lock_match
from tally.store.events import Events
from tally.store.players import resolve_player
from tally.store.swapping import swaps_made
from tally.store.transactions import Database
from tally.store.views import AuditView, RoundView

__all__ = ["apart_clashes"]


def _deals_of_round(conn: Connection, event_id: int, number: int) -> int:
    """How many deals (recorded or quick results) the matches of a round have."""
    m = t.matches.c
    return int(
        conn.execute(
            select(func.count())
            .select_from(t.deals)
            .join(t.matches, m.id == t.deals.c.match_id)
            .where((m.event_id == event_id) & (m.round_number == number))
        ).scalar_one()
    )


def _round_entry(conn: Connection, event_id: int, number: int) -> int:
    """The audit entry that started round ``number`` (the latest such entry not reversed)."""
    a = t.audit_log.c
    found = conn.execute(
        select(a.id)
        .where(
            # a round a load started reads "tally load: event round"
            a.command.endswith("event round")
            & (a.entity_id == event_id)
            & a.reversed_by.is_(None)
            & a.summary.contains(f"round {number} ")
        )
        .order_by(a.id.desc())
        .limit(1)
    ).scalar_one_or_none()
    if found is None:
        raise Refused(
            Message(
                N_(
                    "round %(round)s of event %(id)s was started before the audit log kept "
                    "rounds: it cannot be withdrawn"
                ),
                round=number,
                id=event_id,
            )
        )
    return int(found)


def _apart_states(conn: Connection, event_id: int) -> dict[int, set[tuple[int, int]]]:
    """The pairs kept apart in force at the end of each stretch between two rounds started,
    by the last round started then (0: before any), read from the event's snapshots in its
    audit entries, in order (a round withdrawn and started again: the pairs when it was last
    started); the stretch of now from the pairs kept apart now."""
    a = t.audit_log.c
    states: dict[int, set[tuple[int, int]]] = {}
    key = f"event:{event_id}"
    for (after,) in conn.execute(
        select(a.after).where((a.entity == "event") & (a.entity_id == event_id)).order_by(a.id)
    ):
        snap = json.loads(after or "{}").get(key)
        if snap:
            last = max((r["number"] for r in snap.get("rounds", [])), default=0)
            for withdrawn in [k for k in states if k > last]:  # rounds taken back since
                del states[withdrawn]
            states[last] = {(x, y) for x, y in snap.get("apart", [])}
    started = conn.execute(
        select(func.max(t.event_rounds.c.number)).where(t.event_rounds.c.event_id == event_id)
    ).scalar_one()
    states[started or 0] = set(eventrows.apart_pairs(conn, event_id))
    return states


def _apart_names(conn: Connection, event_id: int) -> list[tuple[str, str]]:
    names = {p["player_id"]: p["name"] for p in eventrows.event_players(conn, event_id)}
    return [(names[a], names[b]) for a, b in eventrows.apart_pairs(conn, event_id)]


def apart_clashes(rounds: Sequence[RoundView], pairs: Sequence[tuple[str, str]]) -> list[Message]:
    """The pairings of ``rounds`` that pair two players kept apart (``pairs``, by name), as
    warnings; a round robin's, a groups event's or a knockout's pairings are not made by the
    Swiss pairing, which alone keeps them apart."""
    # each pair named as it is kept (not in the order the draw seated them)
    kept = {frozenset(pair): pair for pair in pairs}
    return [
        Message(
            N_(
                "%(a)s and %(b)s are kept apart, but round %(round)s pairs them (only a "
                "Swiss round keeps players apart)"
            ),
            a=kept[pairing][0],
            b=kept[pairing][1],
            round=r.number,
        )
        for r in rounds
        for p in r.pairings
        if (pairing := frozenset((p.first, p.second))) in kept
    ]


def _check_latest_round(conn: Connection, eid: int, name: str, number: int) -> None:
    """Refuse to withdraw round ``number`` of event ``eid`` unless it is the latest started."""
    started = sorted(
        conn.execute(
            select(t.event_rounds.c.number).where(t.event_rounds.c.event_id == eid)
        ).scalars()
    )
    if number not in started:
        raise NotFound(
            Message(
                N_(
                    'round %(round)s of event %(id)s "%(name)s" has not been started: '
                    "it has no pairings to withdraw"
                ),
                round=number,
                id=eid,
                name=name,
            )
        )
    if number != started[-1]:
        raise Refused(
            Message(
                N_(
                    'round %(round)s of event %(id)s "%(name)s" cannot be withdrawn: '
                    "round %(later)s was started after it (withdraw that first)"
                ),
                round=number,
                id=eid,
                name=name,
                later=started[-1],
            )
        )


def _two_players_of(
    conn: Connection, eid: int, name: str, refs: tuple[str, str]
) -> list[RowMapping]:
    """The two stored players ``refs`` names, refused unless both are entered in event ``eid``
    (named ``name``) and they are two."""
    listed = {p["player_id"] for p in eventrows.event_players(conn, eid)}
    rows = [resolve_player(conn, x) for x in refs]
    for row in rows:
        if row["id"] not in listed:
            raise NotFound(Message(eventrows.NOT_IN_EVENT, player=row["name"], id=eid, name=name))
    if rows[0]["id"] == rows[1]["id"]:
        raise Refused(
            Message(N_("%(name)s is named twice: keep two players apart"), name=rows[0]["name"])
        )
    return rows


def _refuse_no_shows(conn: Connection, eid: int, name: str, number: int) -> None:
    """Refuse to withdraw round ``number``'s pairings while no-shows of it are recorded."""
    missed = [p for k, p in eventrows.no_shows_by_event(conn, [eid]).get(eid, []) if k == number]
    if missed:
        raise Refused(
            Message(
                N_(
                    'the pairings of round %(round)s of event %(event)s "%(name)s" '
                    "stay: %(count)s no-show(s) of the round are recorded%(advice)s"
                ),
                round=number,
                event=eid,
                name=name,
                count=len(missed),
                advice=Advice(
                    N_(
                        " (take them back first: `tally event forfeit %(event)s PLAYER "
                        "--round %(round)s --cancel`)"
                    ),
                    event=eid,
                    round=number,
                ),
            )
        )


#: the words of a pair kept apart, and no longer, in the audit log
_APART = N_("%(a)s and %(b)s kept apart in %(event)s")
_NOT_APART = N_("%(a)s and %(b)s no longer kept apart in %(event)s")


class Pairings:
    """A tournament director's control over pairings: players kept apart, a round's pairings
    taken back. Reached as ``store.pairings``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def withdraw(self, ref: str | int, number: int) -> AuditView:
        """Take back round ``number`` of an event, the latest round started, while none of its
        matches has a deal: its matches and bye are removed so that it can be paired again.
        Returns the audit entry of the withdrawal (``tally audit undo`` puts the round back).
        The swaps made in the round go with it (each reversed, the latest first).

        The check and the withdrawal are one transaction with the round's matches locked, so a
        deal recorded at that moment either comes first (and the withdrawal is refused) or waits.
        """
        with self.store.transaction("event unpair"), self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            eid, name = ev["id"], ev["name"]
            _check_latest_round(conn, eid, name, number)
            for match_id in conn.execute(
                select(t.matches.c.id).where(
                    (t.matches.c.event_id == eid) & (t.matches.c.round_number == number)
                )
            ).scalars():
                lock_match(conn, match_id)
            recorded = _deals_of_round(conn, eid, number)
            if recorded:
                raise Refused(
                    Message(
                        N_(
                            'the pairings of round %(round)s of event %(event)s "%(name)s" '
                            "stay: %(deals)s deal(s) of the round are recorded already"
                            "%(advice)s"
                        ),
                        round=number,
                        event=eid,
                        name=name,
                        deals=recorded,
                        advice=Advice(
                            N_(" (correct them with `tally deal edit` or `tally deal delete`)")
                        ),
                    )
                )
            _refuse_no_shows(conn, eid, name, number)
            entry = _round_entry(conn, eid, number)
            audit = Audit(self.store)
            for swap in reversed(swaps_made(conn, eid)):
                if swap.number == number:
                    audit.reverse(swap.entry)
            return audit.reverse(entry)

    def keep_apart(
        self, ref: str | int, first: str, second: str, *, undo: bool = False
    ) -> list[tuple[str, str]]:
        """Keep two players of an event apart in its pairings (``undo``: no longer); the
        event's pairs kept apart afterwards, by name. Audited."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            eid, name = ev["id"], ev["name"]
            rows = _two_players_of(conn, eid, name, (first, second))
            a, b = sorted((rows[0]["id"], rows[1]["id"]))
            there = (a, b) in eventrows.apart_pairs(conn, eid)
            if there != undo:
                raise Refused(
                    Message(
                        N_('%(a)s and %(b)s are kept apart already in event %(id)s "%(name)s"')
                        if there
                        else N_('%(a)s and %(b)s are not kept apart in event %(id)s "%(name)s"'),
                        a=rows[0]["name"],
                        b=rows[1]["name"],
                        id=eid,
                        name=name,
                    )
                )
            before = snapshot(conn, "event", eid)
            ea = t.event_apart.c
            if undo:
                conn.execute(
                    delete(t.event_apart).where(
                        (ea.event_id == eid) & (ea.player_a_id == a) & (ea.player_b_id == b)
                    )
                )
            else:
                conn.execute(
                    insert(t.event_apart).values(event_id=eid, player_a_id=a, player_b_id=b)
                )
            verb = "no longer keeps" if undo else "keeps"
            Audit(self.store).write(
                conn,
                "event apart",
                "event",
                eid,
                f"event {eid} {verb} {rows[0]['name']} and {rows[1]['name']} apart",
                {f"event:{eid}": before},
                {f"event:{eid}": snapshot(conn, "event", eid)},
                words=Message(
                    _NOT_APART if undo else _APART, a=rows[0]["name"], b=rows[1]["name"], event=name
                ),
            )
            return _apart_names(conn, eid)

    def apart_history(self, ref: str | int) -> list[tuple[int, str, str, bool]]:
        """When the pairs kept apart changed, as far as the pairings could see it: (the
        last round started then, 0 before any; player, player; kept apart from then on or
        no longer), the pairs in force when each round was last paired and now (an event
        file keeps them so that a load pairs every round as it was paired)."""
        with self.store.reading() as conn:
            eid = eventrows.resolve_event(conn, ref)["id"]
            named = {p["player_id"]: str(p["name"]) for p in eventrows.event_players(conn, eid)}
            states = _apart_states(conn, eid)
        out: list[tuple[int, str, str, bool]] = []
        was: set[tuple[int, int]] = set()
        for after in sorted(states):
            now = states[after]
            for a, b in sorted(
                now ^ was, key=lambda pair: sorted((named[pair[0]], named[pair[1]]))
            ):
                first, second = sorted((named[a], named[b]))
                out.append((after, first, second, (a, b) in now))
            was = now
        return out

    def apart(self, ref: str | int) -> list[tuple[str, str]]:
        """The pairs of players an event keeps apart, by name."""
        with self.store.reading() as conn:
            return _apart_names(conn, eventrows.resolve_event(conn, ref)["id"])

    def start_warnings(self, ref: str | int, number: int) -> list[Message]:
        """What starting round ``number`` now would do that the director should know: its
        players still at a table of the round before (:meth:`Events.still_playing`)."""
        busy = Events(self.store).still_playing(ref, number)
        return [eventrows.still_playing_words(number, busy)] if busy else []

    def apart_warnings(
        self,
        ref: str | int,
        number: int | None = None,
        *,
        adding: bool = False,
        shown: Sequence[RoundView] | None = None,
    ) -> list[Message]:
        """What an event whose pairings are not free (a round robin, a groups event, a
        knockout) does with its pairs kept apart: the rounds (round ``number`` only, if given)
        that pair such a pair (``shown``: these rounds instead, e.g. a round's preview);
        ``adding`` (a pair was just added): also that a knockout's draw,
        made when each round starts, does not keep them apart. None for a Swiss event or a club
        evening (the director pairs its matches)."""

        ev = Events(self.store).get(ref)
        fmt = ev.format
        if fmt.pairs_from_standings or not fmt.has_rounds:
            return []
        pairs = self.apart(ev.id)
        if not pairs:
            return []
        if shown is None:
            shown = [
                r for r in Events(self.store).rounds(ev.id) if number is None or r.number == number
            ]
        out = apart_clashes(shown, pairs)
        if adding and not fmt.has_rounds_made_in_advance:
            out.append(
                Message(
                    N_(
                        "the draw of each round of this event does not keep players apart: a "
                        "round that pairs them is warned of"
                    )
                )
            )
        return out
