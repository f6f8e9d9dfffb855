"""The result cache (``deal_results``): each deal's ruling kept in a row, rewritten in the
same transaction as every change to a match's deals, stamped with the version of the rulings
that filled it (see :mod:`tally.store.store`); :meth:`Store.ensure_results`,
:meth:`Store.rebuild_results`, :meth:`Store.stale_results`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection

from tally.ruling import RULINGS_VERSION
from tally.store import tables as t
from tally.store.dbapi import Db
from tally.store.derivation import Loaded
from tally.store.plays import result_rows, save_last_result
from tally.store.rows import derive_all, load_derived

if TYPE_CHECKING:
    from tally.store.transactions import Store


#: What the rows of the result cache depend on: the layout of a row (the number before the
#: colon, bumped when this module writes a row differently) and the engine's rulings
#: (:data:`tally.ruling.RULINGS_VERSION`). A cache filled under another version is rebuilt
#: before it is read.
RESULTS_VERSION = f"1:rulings-{RULINGS_VERSION}"


DELETE_MATCH_RESULTS = delete(t.deal_results).where(
    t.deal_results.c.match_id == bindparam("m"))


DELETE_DEAL_RESULT = delete(t.deal_results).where(t.deal_results.c.deal_id == bindparam("d"))


_INSERT_RESULTS = insert(t.deal_results)


def save_results(conn: Connection, loaded: Loaded, *, last_only: bool = False) -> None:
    """Rewrite the cached results of a match from its derivation ``loaded``.

    ``last_only`` when only the last deal changed (recording or undoing an action): the deals
    before it, and so their rows, are the same (:func:`rederive_last`); that row is written by
    :func:`tally.store.plays.save_last_result`, as the plain path of ``tally deal play``
    writes it.
    """
    if last_only:
        save_last_result(Db.of(conn), loaded)
        return
    rows = result_rows(loaded)
    conn.execute(DELETE_MATCH_RESULTS, {"m": loaded.match.id})
    if rows:
        conn.execute(_INSERT_RESULTS, rows)


def rewrite_results(conn: Connection, match_id: int) -> None:
    """Derive a match from what is stored now and rewrite its cached results."""
    save_results(conn, load_derived(conn, match_id))


_SELECT_CACHE_VERSION = select(t.cache_state.c.version).where(
    t.cache_state.c.name == "deal_results")


def ensure_results(store: Store) -> int | None:
    """Fill the result cache unless this version of tally filled it: after an upgrade from a
    database without it, or from a tally whose rulings may differ. Returns the number of deals
    ruled, or None when the cache was up to date (one small query).
    (:meth:`Store.ensure_results`, where it is documented in full.)"""
    with store.reading() as conn:
        version = conn.execute(_SELECT_CACHE_VERSION).scalar_one_or_none()
    if version == RESULTS_VERSION:
        return None
    return store.rebuild_results()


def rebuild_results(store: Store) -> int:
    """Rebuild the whole result cache from the deals, in one transaction; returns the number of
    deals. A match whose deals no longer fit together gets no rows (it counts as unfinished)
    rather than stopping the rebuild. (:meth:`Store.rebuild_results`, where it is documented in
    full.)"""
    with store.writing() as conn:
        if conn.dialect.name == "postgresql":
            # Writers (who all write the cache) wait until the rebuild is done; readers
            # do not. On SQLite, BEGIN IMMEDIATE has made every writer wait already.
            conn.exec_driver_sql("LOCK TABLE deal_results IN EXCLUSIVE MODE")
        found = conn.execute(_SELECT_CACHE_VERSION.with_for_update()).first()
        if found is None:
            conn.execute(insert(t.cache_state).values(name="deal_results", version=""))
        conn.execute(delete(t.deal_results))
        count = 0
        batch: list[dict[str, Any]] = []
        for loaded in derive_all(conn):
            batch.extend(result_rows(loaded))
            if len(batch) >= 5000:
                conn.execute(_INSERT_RESULTS, batch)
                count += len(batch)
                batch = []
        if batch:
            conn.execute(_INSERT_RESULTS, batch)
            count += len(batch)
        conn.execute(update(t.cache_state).where(t.cache_state.c.name == "deal_results")
                     .values(version=RESULTS_VERSION))
    return count


def stale_results(store: Store) -> list[int]:
    """The deals whose cached result differs from a fresh derivation of the stored deals
    (missing and extra rows included), by id; empty when the cache is right.
    (:meth:`Store.stale_results`, where it is documented in full.)"""
    with store.reading() as conn:
        fresh = {row["deal_id"]: row for loaded in derive_all(conn)
                 for row in result_rows(loaded)}
        cached = {row["deal_id"]: dict(row)
                  for row in conn.execute(select(t.deal_results)).mappings()}
    return sorted(d for d in set(fresh) | set(cached) if fresh.get(d) != cached.get(d))
