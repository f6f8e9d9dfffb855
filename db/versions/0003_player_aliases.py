"""Player aliases: other names a player goes by (``tally player alias``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 06:10:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('player_aliases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('alias', sa.String(length=60), nullable=False),
    sa.Column('alias_key', sa.String(length=60), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_aliases_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_aliases')),
    sa.UniqueConstraint('alias_key', name=op.f('uq_player_aliases_alias_key'))
    )
    with op.batch_alter_table('player_aliases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_aliases_player_id'), ['player_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('player_aliases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_aliases_player_id'))

    op.drop_table('player_aliases')
