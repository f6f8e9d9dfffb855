"""A player's announced absence from a round (``tally event absent``): ``event_absences``,
one row per player and round, and what such a requested bye scores (``events.absence_score``,
``half`` for every event before).

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28 15:10:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0022'
down_revision: Union[str, Sequence[str], None] = '0021'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('absence_score', sa.String(length=10), nullable=False,
                                      server_default='half'))
    op.create_table(
        'event_absences',
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('round_number', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'],
                                name=op.f('fk_event_absences_event_id_events')),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                                name=op.f('fk_event_absences_player_id_players')),
        sa.PrimaryKeyConstraint('event_id', 'player_id', 'round_number',
                                name=op.f('pk_event_absences')),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('event_absences')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('absence_score')
