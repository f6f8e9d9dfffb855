"""Transactions: :meth:`Database.transaction` (several operations stored as one, with one
audit label) and the connections every part of the store writes and reads on
(:meth:`Database.writing`, :meth:`Database.reading`), with database errors turned into
tally's. :class:`Database` is what the parts work on; the hub,
:class:`tally.store.store.Store`, is one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from tally.errors import N_, Message, Refused, StoreUnavailable
from tally.store.engine import READ_ONLY


@dataclass
class Transaction:
    """One transaction of :meth:`Store.transaction`: its label, its connection and the number
    of audit entries written in it so far."""

    label: str
    connection: Connection
    audited: int = 0


@dataclass(frozen=True)
class TableWriter:
    """Who writes through a table's page: the phone of match ``match_id``, which writes
    only into that match and only while it is open (:func:`tally.store.over.check_open`);
    ``reopened`` says whether the director reopened its finished match to it, read on the
    connection of the write being checked (asked only of a finished match)."""

    match_id: int
    reopened: Callable[[Connection], bool] = field(default=lambda conn: False)


@dataclass
class Snapshot:
    """One read of the database that several store calls share (:meth:`Database.snapshot`):
    its connection, and what was derived on it (a match's deals through the engine, by the
    match's id: :func:`tally.store.derivation.load_derived`), so that a page reads and derives
    a match once however many parts of it ask."""

    engine: Engine
    connection: Connection
    derived: dict[int, Any] = field(default_factory=dict)


#: the snapshot of the store call running in this thread (None: none)
_SNAPSHOT: ContextVar[Snapshot | None] = ContextVar("tally_snapshot", default=None)


def snapshot_of(conn: Connection) -> Snapshot | None:
    """The snapshot whose connection ``conn`` is, if any (reads on it may share what it
    derived)."""
    snap = _SNAPSHOT.get()
    return snap if snap is not None and snap.connection is conn else None


#: a database error, in the database's own words (its driver's: English)
DATABASE_ERROR = N_("database error: %(error)s")


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
            Message(
                N_("the change conflicts with what is stored (%(error)s); nothing was changed"),
                error=_first_line(exc),
            )
        ) from None
    except DBAPIError as exc:
        raise StoreUnavailable(Message(DATABASE_ERROR, error=_first_line(exc))) from None


class Database:
    """The database the store's parts work on: its engine, who is making changes, and the
    transactions and connections every operation runs in. :class:`tally.store.store.Store`
    (the hub, with its parts and its life cycle) is one; a part (``Players(database)``) works
    on any, so the parts need not import the hub that makes them."""

    def __init__(self, engine: Engine, *, scorer: str, table: TableWriter | None = None) -> None:
        self.engine = engine
        self.scorer = scorer
        #: the table whose phone writes through this store (None: the command line, the
        #: director): a match that is over takes no write from it
        self.table = table
        #: the transaction of :meth:`transaction` in progress, if any
        self._tx: Transaction | None = None

    @contextmanager
    def transaction(self, label: str) -> Iterator[Transaction]:
        """Run several store operations as ONE transaction: all of them are stored, or none.

        Inside the ``with`` block every operation works on the same connection; nothing is
        committed until the block ends without an exception, and an exception rolls
        everything back, audit entries included. Each audit entry written inside names
        ``label`` before its own command (``"tally load: player add"``)::

            with store.transaction("tally load") as tx:
                store.players.add("Anna")
                store.events.create("Club night", players=["Anna"])
            tx.audited                    # 2

        Outside such a block every operation commits on its own. Transactions do not nest: a
        second ``transaction`` inside the first is refused (a programming error). On SQLite
        the block holds the write lock (``BEGIN IMMEDIATE``) from start to end, so keep it
        short; on PostgreSQL the rows it writes stay invisible to others until it ends.
        """
        if self._tx is not None:
            raise RuntimeError(f"a transaction ({self._tx.label}) is in progress already")
        with database_errors(), self.engine.begin() as conn:
            self._tx = Transaction(label, conn)
            try:
                yield self._tx
            finally:
                self._tx = None

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A connection to change the database on: committed when the block ends, rolled
        back on an exception. Inside :meth:`transaction` it is that transaction's connection
        (nothing commits before the transaction does). The parts, and code built on the
        store, use it with ``store.audit.write`` for their own changes."""
        if self._tx is not None:
            yield self._tx.connection
            return
        with database_errors(), self.engine.begin() as conn:
            yield conn

    @contextmanager
    def snapshot(self) -> Iterator[Snapshot]:
        """One read for several store calls: every :meth:`reading` inside the block (in this
        thread, on this database) is the same connection and sees the same snapshot, and a
        match is derived once on it (a table page asks whether its match is over, its state
        and what may be tapped: one read, one derivation)."""
        with self.reading() as conn:
            snap = Snapshot(self.engine, conn)
            token = _SNAPSHOT.set(snap)
            try:
                yield snap
            finally:
                _SNAPSHOT.reset(token)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection to read a consistent snapshot with (REPEATABLE READ on PostgreSQL,
        read-only on SQLite); inside :meth:`transaction` it sees what the transaction wrote,
        inside :meth:`snapshot` it is the snapshot's."""
        if self._tx is not None:
            # Inside a transaction a read sees what the transaction has written so far.
            yield self._tx.connection
            return
        snap = _SNAPSHOT.get()
        if snap is not None and snap.engine is self.engine:
            yield snap.connection
            return
        try:
            with self.engine.connect() as conn:
                if conn.dialect.name == "postgresql":
                    conn = conn.execution_options(isolation_level="REPEATABLE READ")
                else:
                    conn = conn.execution_options(**{READ_ONLY: True})
                with conn.begin():
                    yield conn
        except DBAPIError as exc:
            raise StoreUnavailable(Message(DATABASE_ERROR, error=_first_line(exc))) from None
