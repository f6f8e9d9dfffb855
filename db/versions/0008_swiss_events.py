"""Swiss events: the kind "swiss" and the number of rounds a Swiss event plays.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 09:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rounds', sa.Integer(), nullable=True))
        batch_op.drop_constraint(batch_op.f('ck_events_kind'), type_='check')
        batch_op.create_check_constraint(
            batch_op.f('ck_events_kind'), "kind IN ('club', 'round-robin', 'swiss', 'knockout', 'groups')")
        batch_op.create_check_constraint(
            batch_op.f('ck_events_rounds'), "rounds IS NULL OR rounds >= 1")


def downgrade() -> None:
    """Downgrade schema (refused while a Swiss event is stored: its kind would break the
    constraint)."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_events_rounds'), type_='check')
        batch_op.drop_constraint(batch_op.f('ck_events_kind'), type_='check')
        batch_op.create_check_constraint(
            batch_op.f('ck_events_kind'), "kind IN ('club', 'round-robin', 'knockout', 'groups')")
        batch_op.drop_column('rounds')
