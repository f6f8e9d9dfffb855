"""The treasurer's desk of an event (``tally event checkin``, ``tally event money``):
``event_check_ins``, one row per player of an event at the desk: present, what they paid,
the extra fees they owe and the prize money handed to them, in cents; and
``events.check_in``: only players checked in are paired (``tally event checkin --required``).

Revision ID: 0035
Revises: 0034
Create Date: 2026-12-08 01:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0035'
down_revision: Union[str, Sequence[str], None] = '0034'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'event_check_ins',
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('present', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('checked_in_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('paid', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('extra', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('paid_out', sa.Integer(), nullable=False, server_default='0'),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'],
                                name=op.f('fk_event_check_ins_event_id_events')),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                                name=op.f('fk_event_check_ins_player_id_players')),
        sa.PrimaryKeyConstraint('event_id', 'player_id', name=op.f('pk_event_check_ins')),
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('check_in', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('check_in')
    op.drop_table('event_check_ins')
