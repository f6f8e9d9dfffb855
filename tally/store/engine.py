"""Where the database is, how to connect to it safely, and bringing its schema up to date.

- :func:`resolve_url`: ``--db URL``, else ``$TALLY_DB``, else ``tally.db`` in the current
  directory. Any SQLAlchemy URL works; a bare path means a SQLite file.
- :func:`make_engine`: SQLite gets WAL, foreign keys, a 30 s busy timeout and ``BEGIN
  IMMEDIATE`` for every write transaction (the pysqlite driver's own transaction handling is
  switched off, as SQLAlchemy's documentation shows), so concurrent scorers queue instead of
  failing with "database is locked" or losing an update.
- :func:`ensure_schema`: runs the Alembic migrations of :mod:`tally.migrations` when the
  database is not at the newest revision (a new database is created by them). The check reads
  the revision files, not Alembic, so an up-to-date database costs no Alembic import.
- SQLite housekeeping in one place: :func:`remove_database_file` (a file and its journals),
  :func:`is_tally_database` (read-only) and :func:`checkpoint_database_file` (the
  write-ahead log folded in before a file is moved: ``tally load --fresh``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Final

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from tally.errors import N_, Message, StoreUnavailable

DEFAULT_FILE: Final = "tally.db"
#: seconds a SQLite writer waits for another one before giving up
BUSY_TIMEOUT: Final = 30.0


def resolve_url(url: str | None = None) -> str:
    """The database URL to use: ``url``, else ``$TALLY_DB``, else ``sqlite:///tally.db``.

    A value without ``://`` is a path to a SQLite file. A value with a NUL character, or
    with bytes that were not UTF-8 when typed, is refused.

    >>> resolve_url("club.db")
    'sqlite:///club.db'
    """
    value = url or os.environ.get("TALLY_DB") or DEFAULT_FILE
    source: str | Message = (
        "--db"
        if url
        else "$TALLY_DB"
        if os.environ.get("TALLY_DB")
        else Message(N_("the database"))
    )
    if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        shown = (
            hide_password(value)
            .encode("utf-8", "surrogateescape")
            .decode("utf-8", "backslashreplace")
            .replace("\x00", "\\x00")
        )
        raise StoreUnavailable(
            Message(
                N_(
                    '%(source)s "%(shown)s": a database URL or file name cannot hold a NUL '
                    "character or bytes that are not UTF-8"
                ),
                source=source,
                shown=shown,
            )
        )
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
    ``__init__`` is a docstring): cheaper than ``importlib.resources``."""
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
            out[m.group(1)] = set(re.findall(r"['\"]([^'\"]+)['\"]", down.group(1)) if down else [])
    return out


def head_revisions() -> set[str]:
    """The newest revisions: those no other revision follows."""
    graph = revisions()
    return set(graph) - set().union(*graph.values())


#: execution option for read-only transactions (plain BEGIN on SQLite, so they wait for nobody)
READ_ONLY: Final = "tally_read_only"


def describe_url(url: str) -> str:
    """The URL for messages: the absolute file of a SQLite database, no password otherwise."""
    try:
        u = make_url(url)
        if u.get_backend_name() == "sqlite":
            if not u.database or u.database == ":memory:":
                return "an in-memory SQLite database"
            return str(Path(u.database).resolve())
        return u.render_as_string(hide_password=True)
    except (ArgumentError, ValueError, TypeError, OSError):
        return hide_password(url)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for another database, or an in-memory one)."""
    try:
        u = make_url(url)
    except (ArgumentError, ValueError, TypeError):
        return None
    if (
        u.get_backend_name() != "sqlite"
        or not u.database
        or u.database == ":memory:"
        or u.database.startswith("file:")
    ):
        return None
    return Path(u.database)


def check_location(url: str, create: bool) -> None:
    """Refuse a SQLite location that cannot be a database file: a folder, a folder that does
    not exist, or (when ``create`` is False, for a command that only reads) no file at all,
    rather than letting the driver fail or create an empty database."""
    path = sqlite_file(url)
    if path is None:
        return
    if "\x00" in str(path):
        shown = str(path).replace("\x00", "\\x00")
        raise StoreUnavailable(
            Message(N_('the database file "%(file)s" holds a NUL character'), file=shown)
        )
    where = path.resolve()
    if path.is_dir():
        raise StoreUnavailable(
            Message(N_("%(path)s is a folder, not a database file (give --db FILE)"), path=where)
        )
    if not path.exists():
        if not create:
            raise StoreUnavailable(
                Message(
                    N_("no database at %(path)s (create one with `tally init` or give --db)"),
                    path=where,
                )
            )
        if not path.parent.is_dir():
            raise StoreUnavailable(
                Message(
                    N_("cannot create the database %(path)s: the folder %(folder)s does not exist"),
                    path=where,
                    folder=where.parent,
                )
            )


#: tables a new database fills by itself: its schema's revision, the result cache's stamp
SCHEMA_ROWS: Final = ("alembic_version", "cache_state")


def unused(engine: Engine) -> bool:
    """Whether the database holds nothing anybody stored: every table but
    :data:`SCHEMA_ROWS` empty."""
    with engine.connect() as conn:
        names = [n for n in inspect(conn).get_table_names() if n not in SCHEMA_ROWS]
        return not any(
            conn.execute(text(f'SELECT 1 FROM "{name}" LIMIT 1')).first() for name in names
        )


def remove_database_file(path: Path) -> None:
    """Remove the SQLite file ``path`` and the journal files SQLite keeps beside it."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


#: The first 16 bytes of every SQLite database file.
SQLITE_HEADER: Final = b"SQLite format 3\x00"
#: Tables every tally database has (what tells it from another program's SQLite file).
TALLY_TABLES: Final = frozenset({"alembic_version", "players", "matches", "deals", "audit_log"})


def is_tally_database(path: Path) -> bool:
    """Whether ``path`` is a SQLite file holding tally's tables, read without changing it
    (opened read-only, so not even its journal mode changes)."""
    import sqlite3

    try:
        with open(path, "rb") as f:
            if f.read(16) != SQLITE_HEADER:
                return False
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except (OSError, sqlite3.Error):
        return False
    try:
        names = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return TALLY_TABLES <= names


def checkpoint_database_file(path: Path) -> None:
    """Fold a closed SQLite database's write-ahead log into its main file, so that the main
    file alone holds everything (SQLite does this when the last connection closes; this
    makes sure before the file is moved or copied)."""
    import sqlite3

    if Path(f"{path}-wal").exists():
        conn = sqlite3.connect(path)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()


def make_engine(url: str, *, create: bool = True) -> Engine:
    """An engine for ``url``, with tally's connection settings. With ``create`` False (a
    command that only reads) a SQLite file is not switched to WAL on connecting, so a file
    that turns out not to be a tally database is left exactly as it was."""
    shown = describe_url(url)
    try:
        u = make_url(url)
        if u.get_backend_name() == "sqlite":
            if u.query:
                raise StoreUnavailable(
                    Message(
                        N_(
                            'cannot use the database "%(url)s": a SQLite URL takes no options '
                            "(?%(options)s); tally sets its own"
                        ),
                        url=shown,
                        options="&".join(sorted(u.query)),
                    )
                )
            engine = create_engine(u, connect_args={"timeout": BUSY_TIMEOUT})
            event.listen(engine, "connect", _sqlite_connect if create else _sqlite_connect_reading)
            event.listen(engine, "begin", _sqlite_begin)
        else:
            engine = create_engine(u)
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError, TypeError) as exc:
        if isinstance(exc, StoreUnavailable):
            raise
        reason = hide_password(
            str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        )
        raise StoreUnavailable(
            Message(N_('cannot use the database "%(url)s": %(reason)s'), url=shown, reason=reason)
        ) from None
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    sqlite_settings(dbapi_connection)


def _sqlite_connect_reading(dbapi_connection: Any, _record: Any) -> None:
    sqlite_settings(dbapi_connection, writing=False)


def _sqlite_begin(conn: Connection) -> None:
    if conn.get_execution_options().get(READ_ONLY):
        conn.exec_driver_sql("BEGIN")
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


# --- migrations ---------------------------------------------------------------------------


def current_revisions(conn: Connection) -> set[str]:
    """The revisions the database is at (empty for a new database)."""
    if not inspect(conn).has_table("alembic_version"):
        return set()
    return {row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version"))}


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Any:
    """An Alembic ``Config`` for tally's migrations, made in code (no alembic.ini)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the migrations up to ``revision`` (all of them by default)."""
    from alembic import command

    with engine.connect() as conn:
        command.upgrade(alembic_config(connection=conn), revision)


def ensure_schema(engine: Engine, create: bool = True) -> bool:
    """Bring the database up to the newest revision; True when migrations ran.

    With ``create`` False (a command that only reads), a database without tally's tables is
    refused instead of being given them.
    """
    heads = head_revisions()
    where = describe_url(engine.url.render_as_string(hide_password=False))
    try:
        with engine.connect().execution_options(**{READ_ONLY: True}) as conn:
            current = current_revisions(conn)
    except (DBAPIError, ValueError, TypeError, OverflowError) as exc:
        reason = _reason(exc) if isinstance(exc, DBAPIError) else str(exc).splitlines()[0]
        raise StoreUnavailable(
            Message(
                N_("cannot open the database %(path)s: %(reason)s"),
                path=where,
                reason=hide_password(reason),
            )
        ) from None
    if current == heads:
        return False
    if not current and not create:
        raise StoreUnavailable(
            Message(
                N_(
                    "no tally database at %(path)s: it has no tally tables (create them with "
                    "`tally init` or give --db)"
                ),
                path=where,
            )
        )
    unknown = current - set(revisions())
    if unknown:
        raise StoreUnavailable(
            Message(
                N_(
                    "the database is at revision %(revision)s, which this version of tally "
                    "does not know (a newer tally wrote it)"
                ),
                revision=", ".join(sorted(unknown)),
            )
        )
    try:
        upgrade(engine)
    except DBAPIError as exc:
        raise StoreUnavailable(
            Message(
                N_("cannot set up the database %(path)s: %(reason)s"),
                path=where,
                reason=hide_password(_reason(exc)),
            )
        ) from None
    return True


def _reason(exc: DBAPIError) -> str:
    return str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
