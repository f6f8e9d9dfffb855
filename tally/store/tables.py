"""The tables of :mod:`tally.store.models` as light SQLAlchemy Core clauses, for queries.

Every command goes through these rather than the SQLModel classes: ``import sqlmodel`` (with
pydantic and the ORM) costs about 0.15 s more than ``import sqlalchemy`` here, and recording an
action through the CLI must stay well under half a second. ``tests/test_store_schema.py``
checks that each column below exists in the models with the same type.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    Float,
    Integer,
    String,
    Text,
    TypeDecorator,
    column,
    table,
)

#: the longest player name (the models' column length)
NAME_LENGTH = 60


class UTCDateTime(TypeDecorator[datetime]):
    """Aware datetimes stored as UTC, read back in UTC: what SQLModel stores for ``datetime``
    fields (SQLite keeps no offset, so one read from it is UTC by convention)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.utcoffset() is None else value.astimezone(UTC)


players = table(
    "players",
    column("id", Integer),
    column("name", String),
    column("name_key", String),
    column("created_at", UTCDateTime()),
)

player_aliases = table(
    "player_aliases",
    column("id", Integer),
    column("player_id", Integer),
    column("alias", String),
    column("alias_key", String),
    column("created_at", UTCDateTime()),
)

matches = table(
    "matches",
    column("id", Integer),
    column("player_a_id", Integer),
    column("player_b_id", Integer),
    column("rules", String),
    column("first_dealer_id", Integer),
    column("created_at", UTCDateTime()),
    column("event_id", Integer),
    column("round_number", Integer),
    column("table_number", Integer),
)

events = table(
    "events",
    column("id", Integer),
    column("name", String),
    column("kind", String),
    column("held_on", Date),
    column("rules", String),
    column("double_round", Boolean),
    column("matches_per_pairing", Integer),
    column("match_points_per_win", Float),
    column("bye", String),
    column("withdrawal", String),
    column("tiebreaks", String),
    column("created_at", UTCDateTime()),
    column("rank_by", String),
    column("rounds", Integer),
    column("language", String),
    column("swap_last_rounds", Boolean),
    column("acceleration", String),
)

#: the format of a knockout or of groups then knockout (:mod:`tally.store.knockouts`)
event_formats = table(
    "event_formats",
    column("event_id", Integer),
    column("lives", Integer),
    column("draw_seed", String),
    column("final_size", Integer),
    column("groups", Integer),
    column("advance", Integer),
    column("bracket_round", Integer),
    column("bracket", Text),
)

event_players = table(
    "event_players",
    column("event_id", Integer),
    column("player_id", Integer),
    column("seed", Integer),
    column("withdrawn_at", UTCDateTime()),
)

event_rounds = table(
    "event_rounds",
    column("event_id", Integer),
    column("number", Integer),
    column("bye_player_id", Integer),
    column("started_at", UTCDateTime()),
)

deals = table(
    "deals",
    column("id", Integer),
    column("match_id", Integer),
    column("number", Integer),
    column("kind", String),
    column("turn_up", String),
    column("quick_winner_id", Integer),
    column("quick_points", Integer),
    column("quick_reason", String),
    column("tags", Text),
    column("created_at", UTCDateTime()),
)

actions = table(
    "actions",
    column("id", Integer),
    column("deal_id", Integer),
    column("seq", Integer),
    column("trick", Integer),
    column("token", String),
)

audit_log = table(
    "audit_log",
    column("id", Integer),
    column("at", UTCDateTime()),
    column("scorer", String),
    column("command", String),
    column("entity", String),
    column("entity_id", Integer),
    column("summary", Text),
    column("before", Text),
    column("after", Text),
    column("reversed_by", Integer),
)

deal_results = table(
    "deal_results",
    column("deal_id", Integer),
    column("match_id", Integer),
    column("winner_id", Integer),
    column("deal_points", Integer),
    column("carry_in", Integer),
    column("game_points", Integer),
    column("reason", String),
)

cache_state = table(
    "cache_state",
    column("name", String),
    column("version", String),
)

#: ``tally serve``'s settings (:mod:`tally.web.access`)
web_settings = table(
    "web_settings",
    column("name", String),
    column("value", String),
    column("updated_at", UTCDateTime()),
)

#: series of events (:mod:`tally.store.series`)
series = table(
    "series",
    column("id", Integer),
    column("name", String),
    column("name_key", String),
    column("points", String),
    column("best", Integer),
    column("created_at", UTCDateTime()),
)

series_events = table(
    "series_events",
    column("series_id", Integer),
    column("event_id", Integer),
    column("position", Integer),
)

ALL = (players, player_aliases, matches, deals, actions, audit_log, events, event_players,
       event_rounds, deal_results, cache_state, web_settings, series, series_events,
       event_formats)
