"""A Swiss event may pair its first rounds accelerated (``tally event create --acceleration
baku``, ``acceleration`` in an event file's options): ``none`` for every event before.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 09:05:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0013'
down_revision: Union[str, Sequence[str], None] = '0012'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('acceleration', sa.String(length=10), nullable=False,
                                      server_default='none'))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('acceleration')
