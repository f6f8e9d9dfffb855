"""A Preisschnapsen's buy-back may be limited to straight after elimination:
``event_formats.buy_back_at_once`` (false: any round up to ``buy_back_until``).

Revision ID: 0030
Revises: 0025
Create Date: 2026-12-07 16:05:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0030'
down_revision: Union[str, Sequence[str], None] = '0025'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('event_formats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('buy_back_at_once', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('event_formats', schema=None) as batch_op:
        batch_op.drop_column('buy_back_at_once')
