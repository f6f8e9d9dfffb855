"""The one insert of an event's round, for every format that has rounds (round robins, Swiss
events, knockouts and groups): the round's row with its bye, each table's matches (the first
dealer alternating when a pairing plays several) and one audit entry, in the caller's
transaction."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection

from tally.errors import Message
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, Snapshot, snapshot, utc_now
from tally.store.transactions import Database


def _insert_matches(
    conn: Connection,
    ev: Any,
    number: int,
    tables: Iterable[tuple[int, int, int, int]],
    matches_per_pairing: int,
    snapshots: tuple[dict[str, Snapshot], dict[str, Snapshot]],
) -> list[int]:
    """Insert each table's matches of round ``number``, the first dealer alternating over a
    pairing's matches, each match added to the audit's ``snapshots`` (before, after); the
    matches made, in order."""
    eid = ev["id"]
    before, after = snapshots
    made: list[int] = []
    for table, a, b, dealer in tables:
        other = b if dealer == a else a
        for k in range(matches_per_pairing):
            mid = eventrows.insert_match(
                conn,
                a,
                b,
                ev["rules"],
                dealer if k % 2 == 0 else other,
                event_id=eid,
                round_number=number,
                table_number=table,
            )
            made.append(mid)
            before[f"match:{mid}"] = None
            after[f"match:{mid}"] = snapshot(conn, "match", mid)
    return made


def _started_words(ev: Any, number: int, rematches: Sequence[str]) -> Message:
    """The audit's words of round ``number`` of ``ev`` started, naming the rematches accepted."""
    return (
        Message(
            N_("Round %(round)s of %(event)s started; rematches accepted: %(pairs)s"),
            round=number,
            event=ev["name"],
            pairs=", ".join(rematches),
        )
        if rematches
        else Message(N_("Round %(round)s of %(event)s started"), round=number, event=ev["name"])
    )


def insert_round(
    store: Database,
    conn: Connection,
    ev: Any,
    number: int,
    bye: int | None,
    tables: Iterable[tuple[int, int, int, int]],
    summary: str,
    *,
    matches_per_pairing: int = 1,
    before: dict[str, Snapshot] | None = None,
    rematches: Sequence[str] = (),
) -> list[int]:
    """Start round ``number`` of event ``ev`` (its row): ``bye`` sits out, each of ``tables``
    (table number, player one, player two, who deals first) plays ``matches_per_pairing``
    matches, the first dealer alternating. One audit entry ``summary: matches N-M`` (``before``:
    the event as it was before the caller changed it already, if it did; ``rematches``: the
    pairings of players who met before, "Anna against Bert", named in its words); the matches
    made, in order."""
    eid = ev["id"]
    if before is None:
        before = {f"event:{eid}": snapshot(conn, "event", eid)}
    after: dict[str, Snapshot] = {}
    conn.execute(
        insert(t.event_rounds).values(
            event_id=eid, number=number, bye_player_id=bye, started_at=utc_now()
        )
    )
    made = _insert_matches(conn, ev, number, tables, matches_per_pairing, (before, after))
    after[f"event:{eid}"] = snapshot(conn, "event", eid)
    listed = (
        f"matches {made[0]}-{made[-1]}"
        if len(made) > 1
        else f"match {made[0]}"
        if made
        else "no match"
    )
    Audit(store).write(
        conn,
        "event round",
        "event",
        eid,
        f"{summary}: {listed}",
        before,
        after,
        words=_started_words(ev, number, rematches),
    )
    return made
