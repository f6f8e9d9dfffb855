"""The order in which an event's rounds were started and its players withdrew.

A round robin's matches depend on it: a round started after a player withdrew makes no match
for that player's pairings and gives them no bye (``store.events.start_round``). An
export that is to be loaded back into another database (:mod:`tally.files.exporting`) therefore
says, for each withdrawal, before which round it happened, and lists the rounds in the order
they were started. This module reads that order from the stored time stamps (each round's
``started_at``, each player's ``withdrawn_at``) and hands it out as plain frozen data, with
names instead of database numbers; and :meth:`Timeline.records` gives the records of all of an
event's matches at once, as ``tally deal export`` writes each (one load of each match instead
of one per deal: an event of 4,000 recorded deals exports in seconds, not a minute).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.engine import Connection

from tally.engine.notation import write_deal
from tally.store import eventrows
from tally.store import tables as t
from tally.store.derivation import load_derived
from tally.store.transactions import Database


@dataclass(frozen=True)
class StartedRound:
    """A round that was started: its number and who scores its bye (None: nobody, also
    when the player who sat out had withdrawn)."""

    number: int
    bye: str | None


@dataclass(frozen=True)
class Withdrawal:
    """A player who withdrew and the first round started after it (None: no round was
    started after it)."""

    player: str
    before_round: int | None


@dataclass(frozen=True)
class EventTimeline:
    """An event's started rounds in the order they were started, its withdrawals in the
    order they happened, and the numbers of its matches in the order they were made."""

    rounds: tuple[StartedRound, ...]
    withdrawals: tuple[Withdrawal, ...]
    match_ids: tuple[int, ...]


def _player_names(conn: Connection, eid: int, byes: set[int]) -> dict[int, str]:
    """The names of the event's players by number, and of the players of ``byes`` who are
    no longer among them."""
    names = dict(
        conn.execute(
            select(t.players.c.id, t.players.c.name)
            .join_from(t.event_players, t.players, t.players.c.id == t.event_players.c.player_id)
            .where(t.event_players.c.event_id == eid)
        ).all()
    )
    missing = byes - set(names)
    if missing:
        names.update(
            conn.execute(
                select(t.players.c.id, t.players.c.name).where(t.players.c.id.in_(sorted(missing)))
            )
        )
    return names


class Timeline:
    """An event told in order: its rounds started and its withdrawals, and its deals' records.
    Reached as ``store.timeline``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def of_event(self, ref: str | int) -> EventTimeline:
        """The rounds, withdrawals and matches of event ``ref`` (number or name), in order.

        A withdrawal stamped at the same instant as a round's start counts as after it (the
        round's matches were made with the player still in)."""
        with self.store.reading() as conn:
            ev = eventrows.resolve_event(conn, ref)
            eid = ev["id"]
            started = conn.execute(
                select(
                    t.event_rounds.c.number,
                    t.event_rounds.c.bye_player_id,
                    t.event_rounds.c.started_at,
                )
                .where(t.event_rounds.c.event_id == eid)
                .order_by(t.event_rounds.c.started_at, t.event_rounds.c.number)
            ).all()
            gone = conn.execute(
                select(t.event_players.c.player_id, t.event_players.c.withdrawn_at)
                .where(
                    (t.event_players.c.event_id == eid)
                    & t.event_players.c.withdrawn_at.is_not(None)
                )
                .order_by(t.event_players.c.withdrawn_at, t.event_players.c.seed)
            ).all()
            match_ids = tuple(
                conn.execute(
                    select(t.matches.c.id)
                    .where(t.matches.c.event_id == eid)
                    .order_by(t.matches.c.id)
                ).scalars()
            )
            names = _player_names(
                conn, eid, {r.bye_player_id for r in started if r.bye_player_id is not None}
            )
        rounds = tuple(
            StartedRound(r.number, None if r.bye_player_id is None else names[r.bye_player_id])
            for r in started
        )
        withdrawals = tuple(
            Withdrawal(
                names[g.player_id],
                next((r.number for r in started if r.started_at > g.withdrawn_at), None),
            )
            for g in gone
        )
        return EventTimeline(rounds, withdrawals, match_ids)

    def records(self, match_ids: tuple[int, ...]) -> list[list[str | None]]:
        """For each match of ``match_ids``, its deals' canonical ``.deal`` records in order, the
        same text ``store.deals.export`` writes (with the ``Event``, ``Date``, ``Round`` and
        ``Table`` tags of a match of an event); None for a deal entered as a result."""
        out: list[list[str | None]] = []
        events: dict[int, tuple[str, str]] = {}
        with self.store.reading() as conn:
            for match_id in match_ids:
                loaded = load_derived(conn, match_id)
                m = loaded.match
                context: dict[str, str] = {}
                if m.event_id is not None:
                    if m.event_id not in events:
                        row = conn.execute(
                            select(t.events.c.name, t.events.c.held_on).where(
                                t.events.c.id == m.event_id
                            )
                        ).one()
                        events[m.event_id] = (str(row.name), row.held_on.isoformat())
                    name, held_on = events[m.event_id]
                    context = {"Event": name, "Date": held_on}
                    if m.round_number is not None:
                        context["Round"] = str(m.round_number)
                    if m.table_number is not None:
                        context["Table"] = str(m.table_number)
                out.append(
                    [
                        None
                        if d.record is None
                        else write_deal(replace(d.record, tags={**context, **d.record.tags}))
                        for d in loaded.deals
                    ]
                )
        return out
