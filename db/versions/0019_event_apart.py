"""Pairs of players an event keeps apart (same family, same club): ``event_apart``, one row
per pair, the lower player id first.

Revision ID: 0019
Revises: 0017
Create Date: 2026-11-28 12:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0019'
down_revision: Union[str, Sequence[str], None] = '0017'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'event_apart',
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('player_a_id', sa.Integer(), nullable=False),
        sa.Column('player_b_id', sa.Integer(), nullable=False),
        sa.CheckConstraint('player_a_id < player_b_id', name=op.f('ck_event_apart_ordered')),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'],
                                name=op.f('fk_event_apart_event_id_events')),
        sa.ForeignKeyConstraint(['player_a_id'], ['players.id'],
                                name=op.f('fk_event_apart_player_a_id_players')),
        sa.ForeignKeyConstraint(['player_b_id'], ['players.id'],
                                name=op.f('fk_event_apart_player_b_id_players')),
        sa.PrimaryKeyConstraint('event_id', 'player_a_id', 'player_b_id',
                                name=op.f('pk_event_apart')),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('event_apart')
