"""Reading and writing the rows of matches, deals and actions through SQLAlchemy: locking a
match, loading it (derived), resolving a deal reference (``3.2`` or a number), writing a deal
and its actions, and reading every match at once for the result cache.

Locking and loading one match, and inserting actions, are done by :mod:`tally.store.plays`
over the driver connection of the SQLAlchemy connection (one home for the plain path of
``tally deal play`` and for every store method).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from tally.errors import NotFound, Refused
from tally.store import plays
from tally.store import tables as t
from tally.store.dbapi import Db
from tally.store.derivation import Loaded, MatchRow, derive
from tally.store.records import StoredDeal

_DEAL_REF = re.compile(r"\s*([0-9]+)\s*\.\s*([0-9]+)\s*")


_pa, _pb = t.players.alias("pa"), t.players.alias("pb")
_MATCH_ROWS = (
    select(t.matches.c.id, t.matches.c.player_a_id, t.matches.c.player_b_id,
           _pa.c.name.label("a"), _pb.c.name.label("b"), t.matches.c.rules,
           t.matches.c.first_dealer_id, t.matches.c.created_at, t.matches.c.event_id,
           t.matches.c.round_number, t.matches.c.table_number)
    .join_from(t.matches, _pa, _pa.c.id == t.matches.c.player_a_id)
    .join(_pb, _pb.c.id == t.matches.c.player_b_id))


_SELECT_ALL_MATCHES = _MATCH_ROWS.order_by(t.matches.c.id)


def lock_match(conn: Connection, match_id: int, missing_ok: bool = False) -> None:
    """Lock a match's row until the transaction ends (:func:`tally.store.plays.lock_match`)."""
    plays.lock_match(Db.of(conn), match_id, missing_ok)


def load_match(conn: Connection, match_id: int) -> MatchRow:
    """A match's row (:func:`tally.store.plays.load_match`)."""
    return plays.load_match(Db.of(conn), match_id)


def load_deals(conn: Connection, match_id: int) -> list[StoredDeal]:
    """A match's deals with their actions (:func:`tally.store.plays.load_deals`)."""
    return plays.load_deals(Db.of(conn), match_id)


def load_derived(conn: Connection, match_id: int, lock: bool = False) -> Loaded:
    """A match derived through the engine (:func:`tally.store.plays.load_derived`)."""
    return plays.load_derived(Db.of(conn), match_id, lock)


def load_deal(conn: Connection, deal_id: int, lock: bool = False) -> tuple[Loaded, int]:
    match_id = conn.execute(select(t.deals.c.match_id).where(t.deals.c.id == deal_id)
                            ).scalar_one_or_none()
    if match_id is None:
        raise NotFound(f"there is no deal {deal_id}")
    loaded = load_derived(conn, match_id, lock)
    return loaded, loaded.index(deal_id)


def resolve_deal(conn: Connection, ref: str | int) -> int:
    text = str(ref).strip()
    m = _DEAL_REF.fullmatch(text)
    if m:
        if max(len(m.group(1)), len(m.group(2))) > 18:  # beyond any id (2**63 - 1)
            raise NotFound(f"match {_short(m.group(1))} has no deal {_short(m.group(2))}")
        match_id, number = int(m.group(1)), int(m.group(2))
        found = conn.execute(select(t.deals.c.id).where((t.deals.c.match_id == match_id)
                                                        & (t.deals.c.number == number))).first()
        if found is None:
            raise NotFound(f"match {match_id} has no deal {number}")
        return int(found[0])
    if not (text.isascii() and text.isdigit()):
        raise NotFound(f'"{text}" is not a deal: give its number (17) or MATCH.DEAL (3.2)')
    if len(text) > 18:  # beyond any id (2**63 - 1)
        raise NotFound(f"there is no deal {_short(text)}")
    found = conn.execute(select(t.deals.c.id).where(t.deals.c.id == int(text))).first()
    if found is None:
        raise NotFound(f"there is no deal {text}")
    return int(found[0])


def _short(digits: str) -> str:
    """A number for a message: a very long one abridged."""
    return digits if len(digits) <= 30 else f"{digits[:20]}... ({len(digits)} digits)"


def insert_actions(conn: Connection, deal: StoredDeal) -> None:
    """Insert a deal's actions (:func:`tally.store.plays.insert_actions`)."""
    plays.insert_actions(Db.of(conn), deal.id, deal.actions)


def write_deal_row(conn: Connection, deal: StoredDeal) -> None:
    """Make a stored deal's row and actions what ``deal`` says; actions already right keep
    their rows."""
    conn.execute(update(t.deals).where(t.deals.c.id == deal.id).values(
        match_id=deal.match_id, number=deal.number, kind=deal.kind, turn_up=deal.turn_up,
        quick_winner_id=deal.quick_winner_id, quick_points=deal.quick_points,
        quick_reason=deal.quick_reason, tags=json.dumps(deal.tags, ensure_ascii=False),
        created_at=deal.created_at))
    stored = {seq: (trick, token) for seq, trick, token in conn.execute(
        select(t.actions.c.seq, t.actions.c.trick, t.actions.c.token)
        .where(t.actions.c.deal_id == deal.id))}
    wanted = {seq: (trick, token) for seq, trick, token in deal.actions}
    stale = [seq for seq in stored if seq not in wanted]
    if stale:
        conn.execute(delete(t.actions).where((t.actions.c.deal_id == deal.id)
                                             & t.actions.c.seq.in_(stale)))
    for seq, (trick, token) in wanted.items():
        if seq in stored and stored[seq] != (trick, token):
            conn.execute(update(t.actions).where((t.actions.c.deal_id == deal.id)
                                                 & (t.actions.c.seq == seq))
                         .values(trick=trick, token=token))
    insert_actions(conn, replace(deal, actions=[(seq, *wanted[seq]) for seq in sorted(wanted)
                                                 if seq not in stored]))


def derive_all(conn: Connection) -> Iterator[Loaded]:
    """Every match, derived, read with three queries (not three per match); matches whose
    deals do not fit together are left out."""
    matches = [MatchRow(*row) for row in conn.execute(_SELECT_ALL_MATCHES)]
    deals: dict[int, list[StoredDeal]] = {}
    by_id: dict[int, StoredDeal] = {}
    for r in conn.execute(select(t.deals).order_by(t.deals.c.match_id, t.deals.c.number)):
        deal = plays.stored_deal(r)
        deals.setdefault(deal.match_id, []).append(deal)
        by_id[deal.id] = deal
    for deal_id, seq, trick, token in conn.execute(
            select(t.actions.c.deal_id, t.actions.c.seq, t.actions.c.trick, t.actions.c.token)
            .order_by(t.actions.c.deal_id, t.actions.c.seq)):
        by_id[deal_id].actions.append((seq, trick, token))
    for match in matches:
        try:
            yield derive(match, deals.get(match.id, []))
        except Refused:
            continue


def aliases_of(conn: Connection, player_id: int | None = None) -> dict[int, list[str]]:
    """The aliases of every player (or of one), by player number, in the order of their
    keys."""
    q = select(t.player_aliases.c.player_id, t.player_aliases.c.alias).order_by(
        t.player_aliases.c.alias_key)
    if player_id is not None:
        q = q.where(t.player_aliases.c.player_id == player_id)
    out: dict[int, list[str]] = {}
    for pid, alias in conn.execute(q):
        out.setdefault(pid, []).append(alias)
    return out


def match_ids_of(conn: Connection, player_id: int) -> list[int]:
    return list(conn.execute(select(t.matches.c.id).where(
        (t.matches.c.player_a_id == player_id) | (t.matches.c.player_b_id == player_id))
        .order_by(t.matches.c.id)).scalars())
