"""events.rank_by: what an event's standings rank by before the tiebreaks, match points
(``points``) or the match-point percentage (``percentage``, the default of club evenings,
where players play different numbers of matches). Club evenings stored before this
revision get ``percentage``, every other event ``points``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 09:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0007'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rank_by', sa.String(length=20), nullable=False,
                                      server_default='points'))
        batch_op.create_check_constraint('rank_by', "rank_by IN ('points', 'percentage')")
    op.execute("UPDATE events SET rank_by = 'percentage' WHERE kind = 'club'")


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_constraint('rank_by', type_='check')
        batch_op.drop_column('rank_by')
