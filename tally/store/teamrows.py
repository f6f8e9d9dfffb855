"""A team's rows as the audit log keeps them (:func:`team_snapshot`) and puts them back
(:func:`put_team`, :func:`remove_team`): ``tally audit undo`` of a team's change."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from tally.errors import Message, Refused
from tally.i18n import N_
from tally.store import tables as t

#: a team's kind of record in the audit log (``team:7``; not a kind of event)
RECORD = "team"


def team_snapshot(conn: Connection, team_id: int) -> dict[str, Any] | None:
    """A team's row and players (ids in board order) as JSON-ready data (None if none)."""
    row = conn.execute(select(t.teams).where(t.teams.c.id == team_id)).mappings().first()
    if row is None:
        return None
    snap = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in row.items()}
    snap["players"] = list(
        conn.execute(
            select(t.team_members.c.player_id)
            .where(t.team_members.c.team_id == team_id)
            .order_by(t.team_members.c.board)
        ).scalars()
    )
    return snap


def put_team(conn: Connection, snap: dict[str, Any]) -> None:
    """Make a team's row and players what ``snap`` says."""
    tid = snap["id"]
    values = {k: v for k, v in snap.items() if k != "players"}
    values["created_at"] = datetime.fromisoformat(values["created_at"])
    exists = conn.execute(select(t.teams.c.id).where(t.teams.c.id == tid)).first()
    if exists is None:
        conn.execute(insert(t.teams).values(values))
    else:
        conn.execute(update(t.teams).where(t.teams.c.id == tid).values(values))
    conn.execute(delete(t.team_members).where(t.team_members.c.team_id == tid))
    for board, pid in enumerate(snap["players"], 1):
        conn.execute(insert(t.team_members).values(team_id=tid, player_id=pid, board=board))


def remove_team(conn: Connection, team_id: int) -> None:
    """Delete a team and its players' places in it; refused while an event names it."""
    if conn.execute(select(t.event_teams).where(t.event_teams.c.team_id == team_id)).first():
        raise Refused(Message(N_("team #%(id)s plays in events, so the team stays"), id=team_id))
    conn.execute(delete(t.team_members).where(t.team_members.c.team_id == team_id))
    conn.execute(delete(t.teams).where(t.teams.c.id == team_id))
