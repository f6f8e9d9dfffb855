"""tally's database over a plain DB-API connection (sqlite3, psycopg), without SQLAlchemy.

The one home of what a connection to tally's database is, for SQLAlchemy's engine
(:mod:`tally.store.engine`) and for the plain path of ``tally deal play``
(:mod:`tally.store.plays`, :func:`connect`) alike:

- where the database is (:func:`resolve_url`) and its password kept out of messages
  (:func:`hide_password`);
- SQLite's settings (:func:`sqlite_settings`): WAL, foreign keys, a 30 s busy timeout, the
  driver's own transaction handling off so that every write transaction is ``BEGIN
  IMMEDIATE`` (:meth:`Db.begin_writing`);
- the migrations' revisions read from their files (:func:`head_revisions`), so a database at
  the newest revision is recognised without Alembic;
- time stamps as they are stored (:meth:`Db.bind_time`, :func:`read_time`): on SQLite the text
  SQLAlchemy writes for a ``DateTime`` (``2026-11-24 08:44:03.123456``, UTC, no offset), on
  PostgreSQL an aware UTC datetime; read back as an aware UTC datetime
  (:class:`tally.store.columns.UTCDateTime` does the same through SQLAlchemy).

:class:`Db` is a connection and its dialect; its SQL is written with ``?`` placeholders (turned
into ``%s`` for psycopg). Inside a SQLAlchemy transaction, :meth:`Db.of` hands over the driver
connection of a SQLAlchemy connection: what is done on it belongs to that transaction.

:func:`connect` opens a connection for the plain path only where it does exactly what the
engine does, and returns None for anything else (the caller then takes the regular path): a
SQLite file that exists, or ``postgresql+psycopg://`` with at most the ``options`` query
parameter; no other driver or option, no database still to be created or migrated.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl, unquote, urlsplit

from tally.errors import StoreUnavailable

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

DEFAULT_FILE: Final = "tally.db"
#: seconds a SQLite writer waits for another one before giving up
BUSY_TIMEOUT: Final = 30.0

#: how SQLAlchemy writes a ``DateTime`` on SQLite (its ``DATETIME`` storage format)
_SQLITE_TIME = "%04d-%02d-%02d %02d:%02d:%02d.%06d"


class PlainPathDeclined(Exception):
    """The plain connection cannot do this as the regular path would (an unusual URL, a
    schema not at the newest revision, a driver missing, a database error): the caller takes
    the regular path, which says what is wrong in its own words, if anything is."""


def resolve_url(url: str | None = None) -> str:
    """The database URL to use: ``url``, else ``$TALLY_DB``, else ``sqlite:///tally.db``.

    A value without ``://`` is a path to a SQLite file. A value with a NUL character, or
    with bytes that were not UTF-8 when typed, is refused.

    >>> resolve_url("club.db")
    'sqlite:///club.db'
    """
    value = url or os.environ.get("TALLY_DB") or DEFAULT_FILE
    source = "--db" if url else "$TALLY_DB" if os.environ.get("TALLY_DB") else "the database"
    if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        shown = hide_password(value).encode("utf-8", "surrogateescape").decode(
            "utf-8", "backslashreplace").replace("\x00", "\\x00")
        raise StoreUnavailable(f'{source} "{shown}": a database URL or file name cannot hold '
                               "a NUL character or bytes that are not UTF-8")
    if "://" not in value:
        return "sqlite:///" + value
    return value


_PASSWORD = re.compile(r"^([^:/?#]*://[^:/?#@]*:)(.*)@")


def hide_password(url: str) -> str:
    """``url`` with its password as ``***``, even when it cannot be read as a URL.

    >>> hide_password("mysql://u:secret@host/x")
    'mysql://u:***@host/x'
    >>> hide_password("postgresql://u:p@ss@[::1/x")
    'postgresql://u:***@[::1/x'
    """
    return _PASSWORD.sub(lambda m: m.group(1) + "***@", url, count=1)


def sqlite_settings(dbapi_connection: Any, *, writing: bool = True) -> None:
    """tally's settings on a new sqlite3 connection: the driver's transaction handling off
    (every transaction is begun explicitly: ``BEGIN IMMEDIATE`` to write), the busy timeout,
    foreign keys, and WAL (unless ``writing`` is False: a command that only reads leaves a
    file that may not be a tally database as it was)."""
    dbapi_connection.isolation_level = None
    dbapi_connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
    dbapi_connection.execute("PRAGMA foreign_keys = ON")
    if writing:
        # journal_mode can only change outside a transaction; it stays set in the file.
        mode = dbapi_connection.execute("PRAGMA journal_mode").fetchone()
        if mode and mode[0].lower() not in ("wal", "memory"):
            dbapi_connection.execute("PRAGMA journal_mode = WAL")


# --- migrations ---------------------------------------------------------------------------

_REVISION = re.compile(r"^revision\s*(?::[^=]*)?=\s*['\"]([^'\"]+)['\"]", re.M)
_DOWN = re.compile(r"^down_revision\s*(?::[^=]*)?=(.*)$", re.M)


def migrations_dir() -> Path:
    """The folder of the Alembic environment (``db/`` in the repository)."""
    return Path(_migrations_folder())


def _migrations_folder() -> str:
    """The folder of ``tally.migrations``, found by importing the package (its
    ``__init__`` is a docstring): cheaper than ``importlib.resources`` on the plain path."""
    import importlib

    package = importlib.import_module("tally.migrations")
    if package.__file__ is None:  # not a plain folder (a zip...): ask importlib.resources
        from importlib import resources

        return str(resources.files("tally.migrations"))
    return os.path.dirname(package.__file__)


def revisions() -> dict[str, set[str]]:
    """Each revision of the migrations with the revisions it follows, read from the files."""
    out: dict[str, set[str]] = {}
    folder = os.path.join(_migrations_folder(), "versions")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as fh:
            source = fh.read()
        m = _REVISION.search(source)
        if m:
            down = _DOWN.search(source)
            out[m.group(1)] = set(re.findall(r"['\"]([^'\"]+)['\"]", down.group(1))
                                  if down else [])
    return out


def head_revisions() -> set[str]:
    """The newest revisions: those no other revision follows."""
    graph = revisions()
    return set(graph) - set().union(*graph.values())


# --- time stamps ---------------------------------------------------------------------------


def read_time(value: datetime | str | None) -> datetime | None:
    """A stored time stamp as an aware UTC datetime: SQLite's text read as SQLAlchemy reads
    it (``datetime.fromisoformat``), a value without an offset taken as UTC."""
    if value is None:
        return None
    at = datetime.fromisoformat(value) if isinstance(value, str) else value
    return at.replace(tzinfo=UTC) if at.utcoffset() is None else at.astimezone(UTC)


@dataclass(frozen=True)
class Db:
    """A DB-API connection to tally's database and its dialect (``sqlite`` or
    ``postgresql``); SQL is written with ``?`` placeholders."""

    connection: Any
    dialect: str

    @classmethod
    def of(cls, conn: Connection) -> Db:
        """The driver connection under a SQLAlchemy connection, in its transaction."""
        return cls(conn.connection.driver_connection, conn.dialect.name)

    def _sql(self, sql: str) -> str:
        return sql if self.dialect == "sqlite" else sql.replace("?", "%s")

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row ``sql`` returns."""
        cur = self.connection.cursor()
        try:
            cur.execute(self._sql(sql), tuple(params))
            return [tuple(row) for row in cur.fetchall()]
        finally:
            cur.close()

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row ``sql`` returns, or None."""
        found = self.rows(sql, params)
        return found[0] if found else None

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run ``sql`` once."""
        cur = self.connection.cursor()
        try:
            cur.execute(self._sql(sql), tuple(params))
        finally:
            cur.close()

    def run_many(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        """Run ``sql`` once per row of ``params`` (nothing when there is none)."""
        if not params:
            return
        cur = self.connection.cursor()
        try:
            cur.executemany(self._sql(sql), [tuple(p) for p in params])
        finally:
            cur.close()

    def bind_time(self, at: datetime) -> datetime | str:
        """A time stamp as SQLAlchemy binds it: UTC; on SQLite as its text."""
        utc = at.astimezone(UTC)
        if self.dialect != "sqlite":
            return utc
        return _SQLITE_TIME % (utc.year, utc.month, utc.day, utc.hour, utc.minute,
                               utc.second, utc.microsecond)

    # --- a connection of its own (the plain path) -------------------------------------------

    def begin_writing(self) -> None:
        """Begin a write transaction as the engine does: ``BEGIN IMMEDIATE`` on SQLite (the
        write lock from the start); on PostgreSQL psycopg begins one with the first
        statement, and a match is locked by its row (``SELECT ... FOR UPDATE``)."""
        if self.dialect == "sqlite":
            self.run("BEGIN IMMEDIATE")

    def at_head(self) -> bool:
        """Whether the database is at the newest revision of the migrations."""
        try:
            found = {row[0] for row in self.rows("SELECT version_num FROM alembic_version")}
        except Exception:  # no such table, or any driver error: not for the plain path
            return False
        return found == head_revisions()

    def commit(self) -> None:
        """Commit the transaction under way."""
        if self.dialect == "sqlite":
            self.run("COMMIT")
        else:
            self.connection.commit()

    def rollback(self) -> None:
        """Roll back what is under way (nothing happens when no transaction is)."""
        if self.dialect == "sqlite":
            if self.connection.in_transaction:
                self.run("ROLLBACK")
        else:
            self.connection.rollback()

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()


def connect(url: str) -> Db:
    """A connection of its own to the database at ``url`` with the engine's settings;
    :class:`PlainPathDeclined` for a URL, a file or a driver the regular path must handle."""
    scheme, sep, rest = url.partition("://")
    if not sep or "#" in url:
        raise PlainPathDeclined(url)
    if scheme in ("sqlite", "sqlite+pysqlite"):
        return _sqlite(rest)
    if scheme == "postgresql+psycopg":
        return _postgresql(url)
    raise PlainPathDeclined(scheme)


def _sqlite(rest: str) -> Db:
    """A SQLite file that exists (``sqlite:///path``): a new one is for the regular path,
    which creates and migrates it."""
    import sqlite3

    if not rest.startswith("/") or "?" in rest:
        raise PlainPathDeclined(rest)
    path = unquote(rest[1:])  # as SQLAlchemy's URL decodes a database
    if not path or path == ":memory:" or path.startswith("file:") or not os.path.isfile(path):
        raise PlainPathDeclined(path)
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT)
    try:
        sqlite_settings(connection)
    except sqlite3.Error:
        connection.close()
        raise PlainPathDeclined(path) from None
    return Db(connection, "sqlite")


def _postgresql(url: str) -> Db:
    """``postgresql+psycopg://user:password@host:port/database`` with at most the ``options``
    query parameter, connected as SQLAlchemy's psycopg dialect connects: user, password and
    database %-decoded as SQLAlchemy's URL decodes them, the query as ``parse_qsl`` reads it."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    host, _colon, port = hostport.partition(":")
    if any(key != "options" for key, _value in query) or len(query) > 1 or "@" in userinfo \
            or any(ch in hostport for ch in "[]%,") or not (port.isdigit() or not port) \
            or "/" in parts.path[1:]:
        raise PlainPathDeclined("postgresql")
    try:
        import psycopg
    except ImportError:
        raise PlainPathDeclined("psycopg") from None
    args: dict[str, Any] = dict(query)
    if at:
        user, colon, password = userinfo.partition(":")
        if user:
            args["user"] = unquote(user)
        if colon:
            args["password"] = unquote(password)
    if host:
        args["host"] = host
    if port:
        args["port"] = int(port)
    if parts.path[1:]:
        args["dbname"] = unquote(parts.path[1:])
    try:
        return Db(psycopg.connect(**args), "postgresql")
    except psycopg.Error:
        raise PlainPathDeclined("postgresql") from None
