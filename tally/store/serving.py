"""What ``tally serve`` keeps in the database: its settings (``web_settings``: the signing key,
the PIN's hash, the tables' key generation, attempts counted, referee mode ...) and the
director's sessions (``director_sessions``). Reached as ``store.serving``; what the values
mean, and who may change what, is :mod:`tally.web.access`'s.

Each operation is a transaction of its own on the store's engine, as every ``tally serve``
process over one database must agree at once: a read-modify-write of a setting
(:meth:`Serving.update`) runs in one write transaction (SQLite: ``BEGIN IMMEDIATE``;
PostgreSQL: the row locked).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from tally.errors import Message, Refused
from tally.i18n import N_
from tally.store.tables import director_sessions as ds
from tally.store.tables import web_settings as ws
from tally.store.transactions import Database

__all__ = ["Serving", "setting_on"]


_SETTING = select(ws.c.value).where(ws.c.name == bindparam("name"))
_SESSION = select(ds.c.id).where(
    (ds.c.token_hash == bindparam("token")) & (ds.c.expires_at > bindparam("at"))
)


def setting_on(conn: Connection, name: str) -> str | None:
    """A setting, read on ``conn`` (a store's write transaction too: what a table's write
    asks inside its transaction)."""
    return conn.execute(_SETTING, {"name": name}).scalar_one_or_none()


class Serving:
    """The settings of ``tally serve`` and the director's sessions. Reached as
    ``store.serving``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    # --- settings -------------------------------------------------------------------------

    def get(self, name: str) -> str | None:
        """A setting (None: none stored)."""
        with self.store.reading() as conn:
            return setting_on(conn, name)

    def put(self, name: str, value: str, *, replace: bool = True) -> str:
        """Store a setting; with ``replace`` False keep the one another process stored
        first. Returns the value stored."""
        engine = self.store.engine
        try:
            with engine.begin() as conn:
                if replace:
                    conn.execute(delete(ws).where(ws.c.name == name))
                conn.execute(
                    insert(ws).values(name=name, value=value, updated_at=datetime.now(UTC))
                )
            return value
        except IntegrityError:
            with engine.connect() as conn:
                return str(conn.execute(select(ws.c.value).where(ws.c.name == name)).scalar_one())

    def delete(self, name: str) -> None:
        """Forget a setting."""
        with self.store.engine.begin() as conn:
            conn.execute(delete(ws).where(ws.c.name == name))

    def update(self, name: str, change: Callable[[str | None], str | None]) -> str | None:
        """Read-modify-write one setting atomically: ``change`` gets the value stored (None:
        none) and gives the one to store (None: delete it), in one write transaction, so that
        processes and threads counting at once never overwrite each other. Returns what was
        stored."""
        for _attempt in range(3):
            try:
                with self.store.engine.begin() as conn:
                    old = conn.execute(
                        select(ws.c.value).where(ws.c.name == name).with_for_update()
                    ).scalar_one_or_none()
                    new = change(old)
                    now = datetime.now(UTC)
                    if new is None:
                        conn.execute(delete(ws).where(ws.c.name == name))
                    elif old is None:
                        conn.execute(insert(ws).values(name=name, value=new, updated_at=now))
                    elif new != old:
                        conn.execute(
                            update(ws).where(ws.c.name == name).values(value=new, updated_at=now)
                        )
                return new
            except IntegrityError:  # another process inserted the row first: read it again
                continue
        raise Refused(
            Message(
                N_("the setting '%(name)s' is being changed by another process: try again"),
                name=name,
            )
        )

    # --- the director's sessions ----------------------------------------------------------

    def start_session(
        self, token_hash: str, device: str, address: str, at: datetime, until: datetime
    ) -> None:
        """Store a director's session (its token's hash, where it came from, from ``at`` until
        ``until``); sessions expired by ``at`` are deleted on the way."""
        with self.store.engine.begin() as conn:
            conn.execute(delete(ds).where(ds.c.expires_at <= at))
            conn.execute(
                insert(ds).values(
                    token_hash=token_hash,
                    device=device,
                    address=address,
                    started_at=at,
                    expires_at=until,
                )
            )

    def settle(
        self, name: str, token_hash: str | None, at: datetime
    ) -> tuple[str | None, int | None]:
        """The setting ``name`` and the number of the session in force at ``at`` whose token
        hashes to ``token_hash`` (None: none), on one connection (a read: it waits for no
        write)."""
        with self.store.reading() as conn:
            value = setting_on(conn, name)
            session = None
            if token_hash is not None:
                session = conn.execute(
                    _SESSION, {"token": token_hash, "at": at}
                ).scalar_one_or_none()
        return value, None if session is None else int(session)

    def sessions(self, at: datetime) -> list[tuple[int, str, str, datetime]]:
        """The sessions in force at ``at``, oldest first: number, device, address, since."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(ds.c.id, ds.c.device, ds.c.address, ds.c.started_at)
                .where(ds.c.expires_at > at)
                .order_by(ds.c.id)
            ).all()
        return [(int(a), str(b), str(c), d) for a, b, c, d in rows]

    def end_session(self, session: int) -> bool:
        """End one session; False when there was none of that number."""
        with self.store.engine.begin() as conn:
            return bool(conn.execute(delete(ds).where(ds.c.id == session)).rowcount)

    def end_sessions(self) -> int:
        """End every session; how many there were."""
        with self.store.engine.begin() as conn:
            return int(conn.execute(delete(ds)).rowcount or 0)
