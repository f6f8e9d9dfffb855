"""Series of events (a Grand Prix): points per placing, the best N results counting, and
which events in which order.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 09:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('series',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('points', sa.String(length=2000), nullable=False),
    sa.Column('best', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('best IS NULL OR best >= 1', name=op.f('ck_series_best')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series')),
    sa.UniqueConstraint('name_key', name=op.f('uq_series_name_key'))
    )
    op.create_table('series_events',
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_series_events_event_id_events')),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_events_series_id_series')),
    sa.PrimaryKeyConstraint('series_id', 'event_id', name=op.f('pk_series_events')),
    sa.UniqueConstraint('series_id', 'position', name=op.f('uq_series_events_series_id_position'))
    )
    with op.batch_alter_table('series_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_series_events_event_id'), ['event_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('series_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_series_events_event_id'))
    op.drop_table('series_events')
    op.drop_table('series')
