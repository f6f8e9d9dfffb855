"""Players' categories (``tally player category``: women, juniors, club members, the club's
own) in ``player_categories``, and an event's category prize tables
(``event_formats.category_prizes``: one line per category, see
:func:`tally.events.prizes.parse_category_prizes`).

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-07 21:30:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0032'
down_revision: Union[str, Sequence[str], None] = '0031'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('player_categories',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('category', sa.String(length=40), nullable=False),
    sa.Column('category_key', sa.String(length=40), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_categories_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_categories')),
    sa.UniqueConstraint('player_id', 'category_key', name=op.f('uq_player_categories_player_id_category_key'))
    )
    with op.batch_alter_table('player_categories', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_categories_player_id'), ['player_id'], unique=False)
    with op.batch_alter_table('event_formats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('category_prizes', sa.String(length=2000), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('event_formats', schema=None) as batch_op:
        batch_op.drop_column('category_prizes')
    with op.batch_alter_table('player_categories', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_categories_player_id'))
    op.drop_table('player_categories')
