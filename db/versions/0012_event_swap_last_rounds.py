"""A double round robin may play the last two rounds of its first cycle the other way round
(FIDE's advice: ``tally event create --double --swap-last-rounds``, ``swap_last_rounds`` in
an event file's options); false for every event before.

Revision ID: 0012
Revises: 0009
Create Date: 2026-11-28 09:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0012'
down_revision: Union[str, Sequence[str], None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('swap_last_rounds', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('swap_last_rounds')
