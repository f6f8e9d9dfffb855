"""Each audit entry names the event and the match it belongs to (``audit_log.event_id``,
``audit_log.match_id``: the director's Changes page and ``tally audit`` filter by them) and keeps
the change in words as a message template and its values (``audit_log.words``). The places of
the entries written before are read from their snapshots; their words stay None (their summary
is shown as it was written).

Revision ID: 0025
Revises: 0028
Create Date: 2026-12-07 15:00:00

"""
import json
from typing import Any, Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0025'
down_revision: Union[str, Sequence[str], None] = '0028'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _places(entity: str, entity_id: int, snaps: list[Any], event_of: dict[int, Any]) -> tuple[Any, Any]:
    """The event and the match an entry's snapshots name (None where none or several)."""
    events: set[int] = set()
    matches: set[int] = set()
    if entity == 'event':
        events.add(entity_id)
    for key, snap in snaps:
        kind, _, ident = key.partition(':')
        if kind == 'match':
            matches.add(int(ident))
            if snap and snap.get('event_id') is not None:
                events.add(snap['event_id'])
        elif kind == 'deal' and snap:
            matches.add(snap['match_id'])
    if not events:
        events.update(event_of[m] for m in matches if event_of.get(m) is not None)
    return (
        next(iter(events)) if len(events) == 1 else None,
        next(iter(matches)) if len(matches) == 1 else None,
    )


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.add_column(sa.Column('event_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('match_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('words', sa.Text(), nullable=True))
        batch_op.create_index(batch_op.f('ix_audit_log_event_id'), ['event_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_log_match_id'), ['match_id'], unique=False)
    conn = op.get_bind()
    event_of = dict(conn.execute(sa.text('SELECT id, event_id FROM matches')).all())
    rows = conn.execute(
        sa.text('SELECT id, entity, entity_id, before, after FROM audit_log')
    ).all()
    for ident, entity, entity_id, before, after in rows:
        snaps = [*json.loads(before or '{}').items(), *json.loads(after or '{}').items()]
        event, match = _places(entity, entity_id, snaps, event_of)
        if event is not None or match is not None:
            conn.execute(
                sa.text('UPDATE audit_log SET event_id = :e, match_id = :m WHERE id = :i'),
                {'e': event, 'm': match, 'i': ident},
            )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_log_match_id'))
        batch_op.drop_index(batch_op.f('ix_audit_log_event_id'))
        batch_op.drop_column('words')
        batch_op.drop_column('match_id')
        batch_op.drop_column('event_id')
