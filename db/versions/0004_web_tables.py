"""tally serve: its settings (the key table secrets and sessions are signed with, the
director's PIN as a salted hash, which tables are in referee mode), one row each.

Revision ID: 0004
Revises: 0002
Create Date: 2026-11-24 06:50:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('web_settings',
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('value', sa.String(length=400), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_web_settings'))
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('web_settings')
