"""Teams and team events: ``teams``, ``team_members``, ``event_teams`` and the team event's
``events.boards``, ``events.first_to`` and ``events.team_rank`` (``tally team``, ``tally event create --kind team``).

Revision ID: 0036
Revises: 0035
Create Date: 2026-12-08 01:00:00

"""

from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = "0036"
down_revision: Union[str, Sequence[str], None] = "0035"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=60), nullable=False),
        sa.Column("captain_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["captain_id"], ["players.id"], name=op.f("fk_teams_captain_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_teams")),
        sa.UniqueConstraint("name_key", name=op.f("uq_teams_name_key")),
    )
    op.create_table(
        "team_members",
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_team_members_team_id_teams")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_team_members_player_id_players")
        ),
        sa.PrimaryKeyConstraint("team_id", "player_id", name=op.f("pk_team_members")),
        sa.UniqueConstraint("team_id", "board", name=op.f("uq_team_members_team_id_board")),
    )
    with op.batch_alter_table("team_members", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_team_members_player_id"), ["player_id"], unique=False)
    op.create_table(
        "event_teams",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_event_teams_event_id_events")
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_event_teams_team_id_teams")
        ),
        sa.PrimaryKeyConstraint("event_id", "position", name=op.f("pk_event_teams")),
    )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("boards", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("first_to", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("team_rank", sa.String(length=20), nullable=False, server_default="bummerl")
        )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_column("team_rank")
        batch_op.drop_column("first_to")
        batch_op.drop_column("boards")
    op.drop_table("event_teams")
    with op.batch_alter_table("team_members", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_team_members_player_id"))
    op.drop_table("team_members")
    op.drop_table("teams")
