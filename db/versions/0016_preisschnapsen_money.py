"""Preisschnapsen money and buy-backs: a knockout's entry fee, prize shares and the unit the
prizes are rounded down to, whether and until which round a player out may buy back a life
("Nachkauf"), its fee and how often (``event_formats``), and the buy-backs made
(``event_buy_backs``); and how many matches a pairing of the bracket is played best of
(``best_of``).

Revision ID: 0016
Revises: 0014
Create Date: 2026-11-28 11:20:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0016'
down_revision: Union[str, Sequence[str], None] = '0014'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('event_formats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('entry_fee', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('prize_shares', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('prize_unit', sa.Integer(), nullable=False,
                                      server_default='1'))
        batch_op.add_column(sa.Column('buy_back_until', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('buy_back_fee', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('buy_backs', sa.Integer(), nullable=False,
                                      server_default='1'))
        batch_op.add_column(sa.Column('best_of', sa.Integer(), nullable=False,
                                      server_default='1'))
    op.create_table('event_buy_backs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('after_round', sa.Integer(), nullable=False),
    sa.Column('fee', sa.Integer(), nullable=False),
    sa.Column('bought_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_event_buy_backs_event_id_events')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_event_buy_backs_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_event_buy_backs'))
    )
    with op.batch_alter_table('event_buy_backs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_event_buy_backs_event_id'), ['event_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('event_buy_backs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_event_buy_backs_event_id'))
    op.drop_table('event_buy_backs')
    with op.batch_alter_table('event_formats', schema=None) as batch_op:
        batch_op.drop_column('best_of')
        batch_op.drop_column('buy_backs')
        batch_op.drop_column('buy_back_fee')
        batch_op.drop_column('buy_back_until')
        batch_op.drop_column('prize_unit')
        batch_op.drop_column('prize_shares')
        batch_op.drop_column('entry_fee')
