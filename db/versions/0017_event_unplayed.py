"""What a round not played over the table (a bye, a forfeit) counts for in an event's
Buchholz tiebreaks (``tally event create --unplayed``): ``as-scored`` for every event before.

Revision ID: 0017
Revises: 0018
Create Date: 2026-11-28 11:10:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0017'
down_revision: Union[str, Sequence[str], None] = '0018'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('unplayed', sa.String(length=20), nullable=False,
                                      server_default='as-scored'))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('unplayed')
