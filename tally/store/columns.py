"""What the schema's two faces share: the column type of a moment in time and the length of a
name. :mod:`tally.store.models` (SQLModel, the schema's source) and the Core tables generated
from it (:mod:`tally.store.tables`) both use these."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, TypeDecorator

from tally.names import CATEGORY_LENGTH

#: the longest player name (the models' column length)
NAME_LENGTH = 60

__all__ = ["CATEGORY_LENGTH", "NAME_LENGTH", "UTCDateTime"]


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
