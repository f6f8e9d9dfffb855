"""The tournament director's manual control of an event's rounds.

**Withdrawing a round's pairings** (:func:`withdraw_pairings`): the latest round started of a
round robin, Swiss event, knockout or groups event is taken back whole (its matches and its
bye), so that it can be paired again (``tally event round EVENT N --start``: a Swiss round is
paired from the standings as they are then, e.g. after a result was corrected or a player
withdrew). This is refused once any deal of the round is recorded (recorded trick by trick or
entered as a quick result): a round in play is corrected deal by deal, never re-paired. It is
the reversal of the audit entry that started the round, so the audit log shows both.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from tally.errors import NotFound, Refused
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import reverse
from tally.store.store import Store
from tally.store.views import AuditView

__all__ = ["withdraw_pairings"]


def withdraw_pairings(store: Store, ref: str | int, number: int) -> AuditView:
    """Take back round ``number`` of an event, the latest round started, while none of its
    matches has a deal: its matches and bye are removed so that it can be paired again.
    Returns the audit entry of the withdrawal (``tally audit undo`` puts the round back)."""
    with store.reading() as conn:
        ev = eventrows.resolve_event(conn, ref)
        eid, name = ev["id"], ev["name"]
        started = sorted(conn.execute(select(t.event_rounds.c.number).where(
            t.event_rounds.c.event_id == eid)).scalars())
        if number not in started:
            raise NotFound(f'round {number} of event {eid} "{name}" has not been started: '
                           "it has no pairings to withdraw")
        if number != started[-1]:
            raise Refused(f'round {number} of event {eid} "{name}" cannot be withdrawn: '
                          f"round {started[-1]} was started after it (withdraw that first)")
        recorded = _deals_of_round(conn, eid, number)
        if recorded:
            raise Refused(f'the pairings of round {number} of event {eid} "{name}" stay: '
                          f"{recorded} deal(s) of the round are recorded already (correct "
                          "them with `tally deal edit` or `tally deal delete`)")
        entry = _round_entry(conn, eid, number)
    return reverse(store, entry)


def _deals_of_round(conn: Connection, event_id: int, number: int) -> int:
    """How many deals (recorded or quick results) the matches of a round have."""
    m = t.matches.c
    return int(conn.execute(
        select(func.count()).select_from(t.deals)
        .join(t.matches, m.id == t.deals.c.match_id)
        .where((m.event_id == event_id) & (m.round_number == number))).scalar_one())


def _round_entry(conn: Connection, event_id: int, number: int) -> int:
    """The audit entry that started round ``number`` (the latest such entry not reversed)."""
    a = t.audit_log.c
    found = conn.execute(select(a.id).where(
        (a.command == "event round") & (a.entity_id == event_id) & a.reversed_by.is_(None)
        & a.summary.contains(f"round {number} ")).order_by(a.id.desc()).limit(1)
    ).scalar_one_or_none()
    if found is None:
        raise Refused(f"round {number} of event {event_id} was started before the audit log "
                      "kept rounds: it cannot be withdrawn")
    return int(found)
