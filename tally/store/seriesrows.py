"""The rows of a series (``series`` and ``series_events``): finding one, its snapshot for the
audit log, putting a snapshot back and removing one. Below :mod:`tally.store.corrections`,
which reverses a series' audit entries with these; :mod:`tally.store.series` is the API."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally import names
from tally.errors import Advice, Message, NotFound
from tally.i18n import N_
from tally.store import tables as t


def find_series(conn: Connection, ref: str | int) -> RowMapping:
    """A series by number (``3``, ``#3``) or by name (case, spaces and accents aside)."""
    text = str(ref).strip()
    number = text.removeprefix("#")
    if number.isascii() and number.isdigit() and len(number) <= 18:
        row = conn.execute(select(t.series).where(t.series.c.id == int(number))).mappings().first()
        if row is not None:
            return row
    row = (
        conn.execute(select(t.series).where(t.series.c.name_key == names.fold(text)))
        .mappings()
        .first()
    )
    if row is None:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise NotFound(
            Message(
                N_('there is no series "%(series)s"%(advice)s'),
                series=shown,
                advice=Advice(N_(" (see `tally series list`)")),
            )
        )
    return row


def series_event_ids(conn: Connection, series_id: int) -> list[int]:
    """The events of a series, in its order."""
    se = t.series_events
    return list(
        conn.execute(
            select(se.c.event_id).where(se.c.series_id == series_id).order_by(se.c.position)
        ).scalars()
    )


def series_snapshot(conn: Connection, series_id: int) -> dict[str, Any] | None:
    """A series' row and events as JSON-ready data (None if there is none)."""
    row = conn.execute(select(t.series).where(t.series.c.id == series_id)).mappings().first()
    if row is None:
        return None
    snap = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in row.items()}
    snap["events"] = series_event_ids(conn, series_id)
    return snap


def put_series(conn: Connection, snap: dict[str, Any]) -> None:
    """Make a series' row and events what ``snap`` says."""
    sid = snap["id"]
    values = {k: v for k, v in snap.items() if k != "events"}
    values["created_at"] = datetime.fromisoformat(values["created_at"])
    exists = conn.execute(select(t.series.c.id).where(t.series.c.id == sid)).first()
    if exists is None:
        conn.execute(insert(t.series).values(values))
    else:
        conn.execute(update(t.series).where(t.series.c.id == sid).values(values))
    conn.execute(delete(t.series_events).where(t.series_events.c.series_id == sid))
    if snap["events"]:
        conn.execute(
            insert(t.series_events),
            [
                {"series_id": sid, "event_id": eid, "position": i}
                for i, eid in enumerate(snap["events"], start=1)
            ],
        )


def remove_series(conn: Connection, series_id: int) -> None:
    """Delete a series and its list of events (the events stay)."""
    conn.execute(delete(t.series_events).where(t.series_events.c.series_id == series_id))
    conn.execute(delete(t.series).where(t.series.c.id == series_id))


def series_of_event(conn: Connection, event_id: int) -> list[int]:
    """The series an event counts for."""
    se = t.series_events
    return list(
        conn.execute(
            select(se.c.series_id).where(se.c.event_id == event_id).order_by(se.c.series_id)
        ).scalars()
    )
