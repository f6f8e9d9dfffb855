"""Transactions: :meth:`Store.transaction` (several operations stored as one, with one
audit label) and the connections every store function writes and reads on
(:meth:`Store.writing`, :meth:`Store.reading`), with database errors turned into tally's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from tally.errors import Refused, StoreUnavailable
from tally.store.engine import READ_ONLY


@dataclass
class Transaction:
    """One transaction of :meth:`Store.transaction`: its label, its connection and the number
    of audit entries written in it so far."""

    label: str
    connection: Connection
    audited: int = 0


class Store(Protocol):
    """What the store's modules per concern use of the :class:`tally.store.store.Store` they
    work for. They type their ``store`` parameter with this, so that no module imports the
    facade that imports it (``tests/test_import_structure.py`` holds the store free of cycles).
    """

    engine: Engine
    scorer: str
    _tx: Transaction | None

    def writing(self) -> AbstractContextManager[Connection]: ...

    def reading(self) -> AbstractContextManager[Connection]: ...

    def audit(
        self,
        conn: Connection,
        command: str,
        entity: str,
        entity_id: int,
        summary: str,
        before: dict[str, dict[str, Any] | None],
        after: dict[str, dict[str, Any] | None],
    ) -> int: ...

    def rebuild_results(self) -> int: ...


def _first_line(exc: DBAPIError) -> str:
    return str(exc.orig if exc.orig is not None else exc).strip().splitlines()[0]


@contextmanager
def database_errors() -> Iterator[None]:
    """Database errors of a writing block as tally's: a conflict with what is stored is
    :class:`Refused` (nothing was changed), anything else :class:`StoreUnavailable`; one line
    each."""
    try:
        yield
    except IntegrityError as exc:
        raise Refused(
            f"the change conflicts with what is stored ({_first_line(exc)}); nothing was changed"
        ) from None
    except DBAPIError as exc:
        raise StoreUnavailable(f"database error: {_first_line(exc)}") from None


@contextmanager
def transaction(store: Store, label: str) -> Iterator[Transaction]:
    """Run several store operations as ONE transaction: all of them are stored, or none.
    (:meth:`Store.transaction`, where it is documented in full.)"""
    if store._tx is not None:
        raise RuntimeError(f"a transaction ({store._tx.label}) is in progress already")
    with database_errors(), store.engine.begin() as conn:
        store._tx = Transaction(label, conn)
        try:
            yield store._tx
        finally:
            store._tx = None


@contextmanager
def writing(store: Store) -> Iterator[Connection]:
    """A connection to change the database on: committed when the block ends, rolled back on an
    exception. Inside :meth:`transaction` it is that transaction's connection (nothing commits
    before the transaction does). Store modules (events, recording) and code built on the store
    use it with :meth:`audit` for their own changes. (:meth:`Store.writing`, where it is
    documented in full.)"""
    if store._tx is not None:
        yield store._tx.connection
        return
    with database_errors(), store.engine.begin() as conn:
        yield conn


@contextmanager
def reading(store: Store) -> Iterator[Connection]:
    """A connection to read a consistent snapshot with (REPEATABLE READ on PostgreSQL,
    read-only on SQLite); inside :meth:`transaction` it sees what the transaction wrote.
    (:meth:`Store.reading`, where it is documented in full.)"""
    if store._tx is not None:
        # Inside a transaction a read sees what the transaction has written so far.
        yield store._tx.connection
        return
    try:
        with store.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            else:
                conn = conn.execution_options(**{READ_ONLY: True})
            with conn.begin():
                yield conn
    except DBAPIError as exc:
        raise StoreUnavailable(f"database error: {_first_line(exc)}") from None
