"""How a knockout fills its final stage when a round leaves fewer players than it holds
(``event_formats.final_fill``: ``playoff``, the players out in that round play off for the
places left, or ``tiebreaks``, the best of them by the event's standings go through), and the
event round the play-off starts in (``playoff_round``; None while there is none).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 08:30:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0014'
down_revision: Union[str, Sequence[str], None] = '0013'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('event_formats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('final_fill', sa.String(length=10), nullable=False,
                                      server_default='playoff'))
        batch_op.add_column(sa.Column('playoff_round', sa.Integer(), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('event_formats', schema=None) as batch_op:
        batch_op.drop_column('playoff_round')
        batch_op.drop_column('final_fill')
