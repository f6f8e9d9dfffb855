"""The kinds of event are those of the table of formats (tally/events/formats/): the
database no longer lists them in a check constraint of its own, so a new format needs no
change to the schema; ``create_event`` refuses a kind the table does not know.

Revision ID: 0018
Revises: 0016
Create Date: 2026-11-28 11:00:00

"""
from typing import Sequence, Union

from alembic import op


# revision identifiers, used by Alembic.
revision: str = '0018'
down_revision: Union[str, Sequence[str], None] = '0016'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_events_kind'), type_='check')


def downgrade() -> None:
    """Downgrade schema (refused while an event of another kind is stored)."""
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_check_constraint(
            batch_op.f('ck_events_kind'),
            "kind IN ('club', 'round-robin', 'swiss', 'knockout', 'groups')")
