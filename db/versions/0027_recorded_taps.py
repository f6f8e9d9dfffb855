"""Taps stored once: ``recorded_taps``, the id a table's page gave each change it sent, with
the match and where the match stood after it, so that a resend is answered "already recorded".

Revision ID: 0027
Revises: 0024
Create Date: 2026-12-07 15:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0027'
down_revision: Union[str, Sequence[str], None] = '0024'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'recorded_taps',
        sa.Column('tap', sa.String(length=64), nullable=False),
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('position', sa.String(length=40), nullable=False),
        sa.Column('last', sa.String(length=80), nullable=True),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('tap', name=op.f('pk_recorded_taps')),
    )
    with op.batch_alter_table('recorded_taps', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_recorded_taps_match_id'), ['match_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('recorded_taps', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_recorded_taps_match_id'))
    op.drop_table('recorded_taps')
