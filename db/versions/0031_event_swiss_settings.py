"""A Swiss event's floats: ``events.repeated_floats``, ``allow`` (as before) or ``avoid`` (a
player floating the same way two rounds running is avoided where the score differences and
the dealer balance allow); its limits on requested byes: ``events.max_absences`` (how many a
player may ask for, NULL: no limit) and ``events.no_absence_last`` (none in the last N
rounds); its pairs kept apart: ``events.apart_until`` (only until that round, NULL: every
round) and ``events.apart_keeps_bye`` (they give way before they move the bye).

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-07 16:15:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0031'
down_revision: Union[str, Sequence[str], None] = '0030'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                'repeated_floats', sa.String(length=10), nullable=False, server_default='allow'
            )
        )
        batch_op.add_column(sa.Column('max_absences', sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column('no_absence_last', sa.Integer(), nullable=False, server_default='0')
        )
        batch_op.add_column(sa.Column('apart_until', sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column('apart_keeps_bye', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('apart_keeps_bye')
        batch_op.drop_column('apart_until')
        batch_op.drop_column('no_absence_last')
        batch_op.drop_column('max_absences')
        batch_op.drop_column('repeated_floats')
