"""tally serve: the director's sessions, one row each (a random token's SHA-256, the device
and address it came from, since when, until when), listed for the director and ended one
by one; the sessions' generation kept in ``web_settings`` is no longer read.

Revision ID: 0028
Revises: 0023
Create Date: 2026-12-07 15:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0028'
down_revision: Union[str, Sequence[str], None] = '0023'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('director_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('device', sa.String(length=120), nullable=False),
    sa.Column('address', sa.String(length=60), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_director_sessions')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_director_sessions_token_hash'))
    )
    op.execute("DELETE FROM web_settings WHERE name = 'director-sessions'")


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('director_sessions')
