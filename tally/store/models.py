"""The database schema as SQLModel table models: the source Alembic migrations are written from.

Tables hold what happened at the table and nothing that can be derived: a deal stores its
turn-up and its actions (one notation item per row, in order), never its score, dealer or
carry; :mod:`tally.store.store` rebuilds the record and asks the engine each time.

The store itself talks to these tables through SQLAlchemy Core (:mod:`tally.store.tables`),
because ``import sqlmodel`` costs more than a recorded action may take; this module is imported
by the migrations and the tests, which check that both descriptions agree.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from tally.store.tables import NAME_LENGTH

#: Names for every constraint and index, so that migrations can name what they alter or drop
#: (SQLite batch migrations rebuild tables and need the names).
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata.naming_convention = NAMING_CONVENTION


class Player(SQLModel, table=True):
    """A person who plays; ``name_key`` (the name case-folded and stripped) is unique."""

    __tablename__ = "players"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=NAME_LENGTH)
    name_key: str = Field(max_length=NAME_LENGTH, unique=True)
    created_at: datetime


class Match(SQLModel, table=True):
    """Two players, a rule set (a ``Rules`` tag value) and who dealt the first deal."""

    __tablename__ = "matches"
    __table_args__ = (
        CheckConstraint("player_a_id <> player_b_id", name="two_players"),
        CheckConstraint("first_dealer_id = player_a_id OR first_dealer_id = player_b_id",
                        name="dealer_plays"),
    )

    id: int | None = Field(default=None, primary_key=True)
    player_a_id: int = Field(foreign_key="players.id", index=True)
    player_b_id: int = Field(foreign_key="players.id", index=True)
    rules: str = Field(max_length=400)
    first_dealer_id: int = Field(foreign_key="players.id")
    created_at: datetime
    #: the event the match belongs to; a later migration adds the events table and its key
    event_id: int | None = Field(default=None, index=True)


class Deal(SQLModel, table=True):
    """One deal of a match: recorded trick by trick, or entered quickly as a result.

    A recorded deal has a ``turn_up``; its actions are :class:`Action` rows. A quick deal has
    the result instead: ``quick_winner_id`` (None for a draw), ``quick_points`` (game points
    without the carry) and ``quick_reason``. ``tags`` is a JSON object of the record's other
    tags (Hands, Remaining, Result, Event...), kept for export.
    """

    __tablename__ = "deals"
    __table_args__ = (
        UniqueConstraint("match_id", "number"),
        CheckConstraint("kind IN ('recorded', 'quick')", name="kind"),
        CheckConstraint("kind = 'quick' OR turn_up IS NOT NULL", name="recorded_turn_up"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    number: int
    kind: str = Field(max_length=10)
    turn_up: str | None = Field(default=None, max_length=3)
    quick_winner_id: int | None = Field(default=None, foreign_key="players.id")
    quick_points: int | None = None
    quick_reason: str | None = Field(default=None, max_length=20)
    tags: str = Field(default="{}", sa_type=Text)
    created_at: datetime


class Action(SQLModel, table=True):
    """One item of a deal record (``KS``, ``swap``, ``close``, ``20 QC``, ``66``, ``66@Anna``)
    on trick line ``trick``; ``seq`` orders the items of a deal from 1."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("deal_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    deal_id: int = Field(foreign_key="deals.id")
    seq: int
    trick: int
    token: str = Field(max_length=80)


class AuditEntry(SQLModel, table=True):
    """A change to the stored data: who made it, with which command, and the state before and
    after as JSON (a map from ``"deal:12"``-style keys to the entity's snapshot, or null where
    it did not exist), so that it can be reversed."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_entity_entity_id", "entity", "entity_id"),)

    id: int | None = Field(default=None, primary_key=True)
    at: datetime
    scorer: str = Field(max_length=100)
    command: str = Field(max_length=40)
    entity: str = Field(max_length=20)
    entity_id: int
    summary: str = Field(sa_type=Text)
    before: str | None = Field(default=None, sa_type=Text)
    after: str | None = Field(default=None, sa_type=Text)
    reversed_by: int | None = Field(default=None, foreign_key="audit_log.id")
