"""Knockout with lives and groups then knockout: two more kinds of event and their format
(lives, the seed of the draw, the final stage, groups, the bracket once seeded).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 09:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_events_kind'), type_='check')
        batch_op.create_check_constraint(
            'kind', "kind IN ('club', 'round-robin', 'knockout', 'groups')")
    op.create_table('event_formats',
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('lives', sa.Integer(), nullable=True),
    sa.Column('draw_seed', sa.String(length=100), nullable=True),
    sa.Column('final_size', sa.Integer(), nullable=True),
    sa.Column('groups', sa.Integer(), nullable=True),
    sa.Column('advance', sa.Integer(), nullable=True),
    sa.Column('bracket_round', sa.Integer(), nullable=True),
    sa.Column('bracket', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_event_formats_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', name=op.f('pk_event_formats'))
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('event_formats')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_events_kind'), type_='check')
        batch_op.create_check_constraint('kind', "kind IN ('club', 'round-robin')")
