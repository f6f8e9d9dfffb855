"""A match's number is never given again: on SQLite the ``matches`` table becomes
AUTOINCREMENT (without it SQLite hands the highest number out again once that match was
deleted, e.g. by withdrawing a round's pairings), so a table's address, made from the match's
number, belongs to one match for ever. The numbers of matches deleted before this upgrade,
as the audit log and the table settings remember them, are never given again either.
PostgreSQL's sequence never gives a number twice; it is moved past those numbers too. Table settings (referee mode, a
reopened match) of matches no longer stored are dropped: they belonged to another match.

Revision ID: 0023
Revises: 0027
Create Date: 2026-12-07 15:00:00

"""
import re
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0023'
down_revision: Union[str, Sequence[str], None] = '0027'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: a match named in an audit entry's snapshot ("match:12") or a table setting ("referee:12")
_MATCH_KEY = re.compile(r'"match:(\d+)"')
_SETTING = re.compile(r'^(?:referee|reopened):(\d+)$')


def _highest_ever(conn: sa.engine.Connection) -> int:
    """The highest match number ever given: stored, audited, or in a table setting."""
    highest = conn.execute(sa.text("SELECT COALESCE(MAX(id), 0) FROM matches")).scalar_one()
    rows = conn.execute(sa.text(
        "SELECT entity, entity_id, before, after FROM audit_log "
        "WHERE entity = 'match' OR before LIKE '%\"match:%' OR after LIKE '%\"match:%'"
    ))
    for entity, entity_id, before, after in rows:
        if entity == 'match' and entity_id is not None:
            highest = max(highest, int(entity_id))
        for text in (before or '', after or ''):
            highest = max([highest, *(int(x) for x in _MATCH_KEY.findall(text))])
    for (name,) in conn.execute(sa.text("SELECT name FROM web_settings")):
        found = _SETTING.match(name)
        if found:
            highest = max(highest, int(found.group(1)))
    return int(highest)


def _drop_settings_of_missing_matches(conn: sa.engine.Connection) -> None:
    stored = {int(x) for (x,) in conn.execute(sa.text("SELECT id FROM matches"))}
    for (name,) in conn.execute(sa.text("SELECT name FROM web_settings")).all():
        found = _SETTING.match(name)
        if found and int(found.group(1)) not in stored:
            conn.execute(sa.text("DELETE FROM web_settings WHERE name = :n"), {"n": name})


def upgrade() -> None:
    """Upgrade schema."""
    conn = op.get_bind()
    highest = _highest_ever(conn)
    if conn.dialect.name == 'postgresql':
        # a number given to a row inserted with its id named never moved the sequence on
        conn.execute(
            sa.text(
                # (nothing given yet: the next number is 1, as in a new database)
                "SELECT setval(CAST(:s AS regclass), GREATEST(:n, 1, COALESCE("
                "pg_sequence_last_value(CAST(:s AS regclass)), 0)), GREATEST(:n, COALESCE("
                "pg_sequence_last_value(CAST(:s AS regclass)), 0)) > 0)"
            ),
            {"s": conn.execute(sa.text("SELECT pg_get_serial_sequence('matches', 'id')")).scalar_one(),
             "n": highest},
        )
    if conn.dialect.name == 'sqlite':
        with op.batch_alter_table(
            'matches', schema=None, recreate='always',
            table_kwargs={'sqlite_autoincrement': True},
        ):
            pass
        conn.execute(sa.text("DELETE FROM sqlite_sequence WHERE name = 'matches'"))
        conn.execute(
            sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES ('matches', :n)"),
            {"n": highest},
        )
    _drop_settings_of_missing_matches(conn)


def downgrade() -> None:
    """Downgrade schema."""
    if op.get_bind().dialect.name == 'sqlite':
        with op.batch_alter_table(
            'matches', schema=None, recreate='always',
            table_kwargs={'sqlite_autoincrement': False},
        ):
            pass
