"""Seeding by rating (``tally event create --seed-by rating|entry``): what an event's seeding
list follows (``events.seed_by``, ``entry`` for every event before), whether it is fixed
(``events.seeded``: the first round was started) and the rating each player was seeded by
(``event_players.seed_rating``).

Revision ID: 0021
Revises: 0019
Create Date: 2026-11-28 14:20:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0021'
down_revision: Union[str, Sequence[str], None] = '0019'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed_by', sa.String(length=10), nullable=False,
                                      server_default='entry'))
        batch_op.add_column(sa.Column('seeded', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    with op.batch_alter_table('event_players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed_rating', sa.Float(), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('event_players', schema=None) as batch_op:
        batch_op.drop_column('seed_rating')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('seeded')
        batch_op.drop_column('seed_by')
