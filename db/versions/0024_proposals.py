"""Results proposed at a table, waiting for the opponent's agreement: ``proposals``, one row
per proposal (never reused: AUTOINCREMENT on SQLite), so the opponent's "agree" names the
result it confirms.

Revision ID: 0024
Revises: 0022
Create Date: 2026-12-07 15:00:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0024'
down_revision: Union[str, Sequence[str], None] = '0022'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'proposals',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('winner_id', sa.Integer(), nullable=True),
        sa.Column('points', sa.Integer(), nullable=False),
        sa.Column('reason', sa.String(length=20), nullable=False),
        sa.Column('score_a', sa.Integer(), nullable=False),
        sa.Column('score_b', sa.Integer(), nullable=False),
        sa.Column('mark', sa.String(length=40), nullable=False),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('proposed_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('deal_id', sa.Integer(), nullable=True),
        sa.CheckConstraint("kind IN ('deal', 'match')", name=op.f('ck_proposals_kind')),
        sa.CheckConstraint(
            "status IN ('pending', 'agreed', 'withdrawn')", name=op.f('ck_proposals_status')
        ),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_proposals')),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table('proposals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_proposals_match_id'), ['match_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('proposals', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_proposals_match_id'))
    op.drop_table('proposals')
