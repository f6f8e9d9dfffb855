"""A player's no-show in one round of a Swiss event or a round robin (``tally event
forfeit``): ``event_no_shows``, one row per player and round; the round's match is won by the
opponent by forfeit (``+``/``-``), or counts for nobody when both stayed away (``-``/``-``).

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-07 21:20:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0033'
down_revision: Union[str, Sequence[str], None] = '0032'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'event_no_shows',
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('round_number', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'],
                                name=op.f('fk_event_no_shows_event_id_events')),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                                name=op.f('fk_event_no_shows_player_id_players')),
        sa.PrimaryKeyConstraint('event_id', 'player_id', 'round_number',
                                name=op.f('pk_event_no_shows')),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('event_no_shows')
