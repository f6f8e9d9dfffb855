"""Alembic environment for tally's database.

Run by :func:`tally.store.engine.upgrade` with the connection in ``config.attributes``; no
alembic.ini is needed. For development, ``alembic`` itself works with a config made in code::

    python -c "from tally.store.engine import alembic_config; from alembic import command; \\
               command.revision(alembic_config('sqlite:///dev.db'), 'add x', autogenerate=True)"

The whole upgrade runs in one transaction (SQLite and PostgreSQL both have transactional DDL),
taken with ``BEGIN IMMEDIATE`` on SQLite and under an advisory lock on PostgreSQL, so two
processes creating the same database at once do it one after the other. SQLite batch
migrations rebuild tables, so foreign keys are off while they run and checked afterwards.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import tally.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from tally.store.engine import make_engine

config = context.config
target_metadata = SQLModel.metadata

#: pg_advisory_xact_lock key: "tally" in ASCII
_PG_LOCK = 0x74616C6C79


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    raw = connection.connection.dbapi_connection
    if sqlite and raw is not None:
        # PRAGMA foreign_keys is a no-op inside a transaction: set it before BEGIN.
        raw.execute("PRAGMA foreign_keys=OFF")
    try:
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK})
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=sqlite,
                compare_type=True,
            )
            with context.begin_transaction():
                context.run_migrations()
            if sqlite:
                bad = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if bad:
                    raise RuntimeError(f"the migration broke foreign keys: {bad[:5]}")
    finally:
        if sqlite and raw is not None:
            raw.execute("PRAGMA foreign_keys=ON")


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///tally.db")
    try:
        with engine.connect() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("tally's migrations run online only (they need the database)")
run_migrations_online()
