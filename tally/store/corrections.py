"""The audit log and its corrections: the snapshot of a row an audit entry keeps before and
after a change, writing an entry (``store.audit.write``), listing them (``store.audit.log``),
and reversing one (``store.audit.reverse``) by putting the state before back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, bindparam, delete, insert, select, true, update
from sqlalchemy.engine import Connection, RowMapping

from tally import names
from tally.errors import Message, NotFound, Refused
from tally.i18n import N_
from tally.store import eventrows, seriesrows, teamrows
from tally.store import tables as t
from tally.store.derivation import (
    DELETE_DEAL_RESULT,
    StoredDeal,
    aliases_of,
    categories_of,
    insert_actions,
    iso_time,
    keep_dealers,
    load_derived,
    lock_match,
    match_ids_of,
    put_deal_row,
    save_results,
    stored_deal,
    write_deal_row,
)
from tally.store.derivation import utc_now as utc_now
from tally.store.over import check_kept_in_turn
from tally.store.views import AuditPage, AuditView, message_data

if TYPE_CHECKING:
    from tally.store.transactions import Database


Snapshot = dict[str, Any] | None
#: the words of a reversal: the entry reversed and its own words
#: an audit entry's number that no entry has
NO_SUCH_ENTRY = N_("there is no audit entry %(entry)s")
#: the kinds of record an audit entry changes, as words (``match 3 has changed...``)
KIND_WORDS = {
    "match": N_("match"),
    "deal": N_("deal"),
    "player": N_("player"),
    "event": N_("event"),
    "series": N_("series"),
}
REVERSED = N_("Took back entry %(entry)s: %(change)s")


def deal_snapshot(deal: StoredDeal) -> dict[str, Any]:
    """A deal row and its actions as JSON-ready data, as an audit entry keeps it."""
    return {
        "id": deal.id,
        "match_id": deal.match_id,
        "number": deal.number,
        "kind": deal.kind,
        "turn_up": deal.turn_up,
        "quick_winner_id": deal.quick_winner_id,
        "quick_points": deal.quick_points,
        "quick_reason": deal.quick_reason,
        "tags": dict(deal.tags),
        "created_at": iso_time(deal.created_at),
        "actions": [list(a) for a in deal.actions],
    }


def _norm(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def snapshot(conn: Connection, kind: str, ident: int) -> Snapshot:
    """The stored state of one player, event, match or deal, as JSON-ready data (None if
    absent)."""
    if kind == "event":
        return eventrows.event_snapshot(conn, ident)
    if kind == "series":
        return seriesrows.series_snapshot(conn, ident)
    if kind == teamrows.RECORD:
        return teamrows.team_snapshot(conn, ident)
    if kind == "deal":
        row = conn.execute(select(t.deals).where(t.deals.c.id == ident)).first()
        if row is None:
            return None
        deal = stored_deal(row)
        deal.actions = [
            (a[0], a[1], a[2])
            for a in conn.execute(
                select(t.actions.c.seq, t.actions.c.trick, t.actions.c.token)
                .where(t.actions.c.deal_id == ident)
                .order_by(t.actions.c.seq)
            )
        ]
        return deal_snapshot(deal)
    table = {"player": t.players, "match": t.matches}.get(kind)
    if table is None:
        raise NotFound(
            Message(N_("unknown kind of record %(kind)s in the audit log"), kind=repr(kind))
        )
    found = conn.execute(select(table).where(table.c.id == ident)).mappings().first()
    if found is None:
        return None
    snap = {k: iso_time(v) if isinstance(v, datetime) else v for k, v in found.items()}
    if kind == "player":
        # Only when there are any: snapshots from before aliases existed stay comparable.
        aliases = aliases_of(conn, ident).get(ident)
        if aliases:
            snap["aliases"] = aliases
        categories = categories_of(conn, ident).get(ident)
        if categories:
            snap["categories"] = categories
        if not snap.get("private"):  # (likewise: only a private player's says so)
            snap.pop("private", None)
    return snap


def _matches_in(
    keys: list[str], before: dict[str, Snapshot], after: dict[str, Snapshot]
) -> set[int]:
    """The matches an audit entry's changes belong to."""
    out = set()
    for key in keys:
        kind, _, ident = key.partition(":")
        if kind == "match":
            out.add(int(ident))
        elif kind == "deal":
            out.update(snap["match_id"] for snap in (before.get(key), after.get(key)) if snap)
    return out


def _restore(conn: Connection, state: dict[str, Snapshot]) -> None:
    """Make the rows named in ``state`` what it says: players, then events, then matches, then
    deals, then series are written; series, deals, matches, events, then players are
    deleted."""
    order = {"player": 0, teamrows.RECORD: 1, "event": 2, "match": 3, "deal": 4, "series": 5}
    keys = sorted(state, key=lambda k: order[k.partition(":")[0]])
    players = [int(k.partition(":")[2]) for k in keys if k.startswith("player:")]
    if players:  # aliases and categories may move between the players restored (a merge)
        conn.execute(delete(t.player_aliases).where(t.player_aliases.c.player_id.in_(players)))
        conn.execute(
            delete(t.player_categories).where(t.player_categories.c.player_id.in_(players))
        )
    for key in keys:
        snap = state[key]
        if snap is not None:
            _put(conn, key.partition(":")[0], snap)
    for key in reversed(keys):
        if state[key] is None:
            kind, _, ident = key.partition(":")
            _remove(conn, kind, int(ident))


def _put(conn: Connection, kind: str, snap: dict[str, Any]) -> None:
    if kind == "event":
        eventrows.put_event(conn, snap)
        return
    if kind == "series":
        seriesrows.put_series(conn, snap)
        return
    if kind == teamrows.RECORD:
        teamrows.put_team(conn, snap)
        return
    if kind == "deal":
        deal = StoredDeal(
            snap["id"],
            snap["match_id"],
            snap["number"],
            snap["kind"],
            snap["turn_up"],
            snap["quick_winner_id"],
            snap["quick_points"],
            snap["quick_reason"],
            dict(snap["tags"]),
            datetime.fromisoformat(snap["created_at"]),
            [(a[0], a[1], a[2]) for a in snap["actions"]],
        )
        exists = conn.execute(select(t.deals.c.id).where(t.deals.c.id == deal.id)).first()
        if exists is None:
            put_deal_row(conn, deal, new=True)
            insert_actions(conn, deal.id, deal.actions)
        else:
            write_deal_row(conn, deal)
        return
    table = t.players if kind == "player" else t.matches
    values = {
        k: datetime.fromisoformat(v) if k in ("created_at",) and v else v
        for k, v in snap.items()
        if k not in ("aliases", "categories")
    }
    if kind == "player":
        values.setdefault("private", False)
    exists = conn.execute(select(table.c.id).where(table.c.id == snap["id"])).first()
    if exists is None:
        conn.execute(insert(table).values(values))
    else:
        conn.execute(update(table).where(table.c.id == snap["id"]).values(values))
    if kind == "player":
        _put_aliases(conn, snap["id"], snap.get("aliases", []))
        put_categories(conn, snap["id"], snap.get("categories", []))


def _put_aliases(conn: Connection, player_id: int, aliases: Sequence[str]) -> None:
    """Make a player's aliases ``aliases``; refused when another player goes by one of
    them now (:func:`_restore` has cleared the aliases of every player it restores)."""
    pa = t.player_aliases
    conn.execute(delete(pa).where(pa.c.player_id == player_id))
    keys = [names.fold(a) for a in aliases]
    if keys:
        held = conn.execute(
            select(pa.c.alias, pa.c.player_id).where(pa.c.alias_key.in_(keys))
        ).first()
        if held is not None:
            raise Refused(
                Message(
                    N_('player #%(id)s goes by "%(alias)s" now: remove that alias first'),
                    id=held[1],
                    alias=held[0],
                )
            )
        conn.execute(
            insert(pa),
            [
                {"player_id": player_id, "alias": a, "alias_key": k, "created_at": utc_now()}
                for a, k in zip(aliases, keys, strict=True)
            ],
        )


def put_categories(conn: Connection, player_id: int, categories: Sequence[str]) -> None:
    """Make a player's categories ``categories`` (names as stored)."""
    pc = t.player_categories
    conn.execute(delete(pc).where(pc.c.player_id == player_id))
    if categories:
        conn.execute(
            insert(pc),
            [
                {
                    "player_id": player_id,
                    "category": c,
                    "category_key": names.fold(c),
                    "created_at": utc_now(),
                }
                for c in categories
            ],
        )


def _remove(conn: Connection, kind: str, ident: int) -> None:
    if kind == "deal":
        conn.execute(DELETE_DEAL_RESULT, {"d": ident})
        conn.execute(delete(t.actions).where(t.actions.c.deal_id == ident))
        conn.execute(delete(t.deals).where(t.deals.c.id == ident))
    elif kind == "match":
        if conn.execute(select(t.deals.c.id).where(t.deals.c.match_id == ident)).first():
            raise Refused(Message(N_("match %(id)s has deals: delete them first"), id=ident))
        conn.execute(delete(t.matches).where(t.matches.c.id == ident))
    elif kind == "event":
        if seriesrows.series_of_event(conn, ident):
            raise Refused(
                Message(N_("event %(id)s counts for a series: reverse the series first"), id=ident)
            )
        eventrows.remove_event(conn, ident)
    elif kind == "series":
        seriesrows.remove_series(conn, ident)
    elif kind == teamrows.RECORD:
        teamrows.remove_team(conn, ident)
    else:
        if match_ids_of(conn, ident):
            raise Refused(
                Message(N_("player #%(id)s plays in matches, so the entry stays"), id=ident)
            )
        if eventrows.events_of_player(conn, ident):
            raise Refused(
                Message(N_("player #%(id)s plays in events, so the entry stays"), id=ident)
            )
        conn.execute(delete(t.player_aliases).where(t.player_aliases.c.player_id == ident))
        conn.execute(delete(t.player_categories).where(t.player_categories.c.player_id == ident))
        conn.execute(delete(t.players).where(t.players.c.id == ident))


def _later_entries(conn: Connection, audit_id: int, kind: str, ident: int) -> list[int]:
    return list(
        conn.execute(
            select(t.audit_log.c.id)
            .where(
                (t.audit_log.c.id > audit_id)
                & (t.audit_log.c.entity == kind)
                & (t.audit_log.c.entity_id == ident)
                & t.audit_log.c.reversed_by.is_(None)
            )
            .order_by(t.audit_log.c.id)
            .limit(10)
        ).scalars()
    )


_EVENTS_OF_MATCHES = select(t.matches.c.event_id).where(
    t.matches.c.id.in_(bindparam("ids", expanding=True))
)
#: an audit entry written (its id returned): made once, as every change writes one
_INSERT_ENTRY = insert(t.audit_log).returning(t.audit_log.c.id)


def _places(
    conn: Connection,
    entity: str,
    entity_id: int,
    before: dict[str, Snapshot],
    after: dict[str, Snapshot],
) -> tuple[int | None, int | None]:
    """The event and the match an entry's changes belong to (None where none or several);
    a deal deleted belongs to the match its snapshot before names."""
    snaps = {**before, **after}
    keys = sorted(snaps)
    matches = _matches_in(keys, before, after)
    events = {entity_id} if entity == "event" else set()
    events.update(
        snap["event_id"]
        for key, snap in snaps.items()
        if key.startswith("match:") and snap and snap.get("event_id") is not None
    )
    if not events and matches:
        found = conn.execute(_EVENTS_OF_MATCHES, {"ids": list(matches)}).scalars()
        events.update(e for e in found if e)
    return (
        next(iter(events)) if len(events) == 1 else None,
        next(iter(matches)) if len(matches) == 1 else None,
    )


def _where(
    event: int | None, match: int | None, before: int | None, after: int | None = None
) -> Any:
    """The entries of ``event`` and ``match`` older than entry ``before`` (and newer than
    ``after``), as a WHERE clause."""
    a = t.audit_log.c
    clauses = [
        test
        for test in (
            None if event is None else a.event_id == event,
            None if match is None else a.match_id == match,
            None if before is None else a.id < before,
            None if after is None else a.id > after,
        )
        if test is not None
    ]
    return and_(true(), *clauses)


def _named(conn: Connection, rows: Sequence[RowMapping]) -> list[AuditView]:
    """The views of ``rows``, each with its event's name and its match's players."""
    event_ids = {r["event_id"] for r in rows if r["event_id"] is not None}
    match_ids = {r["match_id"] for r in rows if r["match_id"] is not None}
    e, m = t.events.c, t.matches.c
    events = dict(conn.execute(select(e.id, e.name).where(e.id.in_(event_ids))).all())
    a, b = t.players.alias("a"), t.players.alias("b")
    found = conn.execute(
        select(m.id, a.c.name, b.c.name)
        .join(a, a.c.id == m.player_a_id)
        .join(b, b.c.id == m.player_b_id)
        .where(m.id.in_(match_ids))
    ).all()
    players = {r[0]: (r[1], r[2]) for r in found}
    return [
        replace(
            audit_view(r),
            event_name=events.get(r["event_id"]),
            match_players=players.get(r["match_id"], ()),
        )
        for r in rows
    ]


def audit_view(row: RowMapping) -> AuditView:
    return AuditView(
        id=row["id"],
        at=iso_time(row["at"]),
        scorer=row["scorer"],
        command=row["command"],
        entity=row["entity"],
        entity_id=row["entity_id"],
        summary=row["summary"],
        before=json.loads(row["before"]) if row["before"] else None,
        after=json.loads(row["after"]) if row["after"] else None,
        reversed_by=row["reversed_by"],
        event_id=row["event_id"],
        match_id=row["match_id"],
        words=json.loads(row["words"]) if row["words"] else None,
    )


def _refuse_players_under_deals(
    conn: Connection, row: RowMapping, before: dict[str, Snapshot], after: dict[str, Snapshot]
) -> None:
    """Refuse to put other players back at a match that has deals recorded since entry
    ``row`` changed its players (a swap between tables, reversed after play started there):
    those deals were played by the players seated now."""
    for key, then in before.items():
        now = after.get(key)
        if not key.startswith("match:") or then is None or now is None:
            continue
        seats = ("player_a_id", "player_b_id")
        if [then[k] for k in seats] == [now[k] for k in seats]:
            continue
        mid = int(key.partition(":")[2])
        d = t.deals.c
        since = select(d.id).where((d.match_id == mid) & (d.created_at > row["at"])).limit(1)
        if conn.execute(since).first():
            raise Refused(
                Message(
                    N_(
                        "audit entry %(entry)s changed the players of match %(match)s, which has "
                        "deals recorded since: the players who played them stay (delete the "
                        "deals first)"
                    ),
                    entry=row["id"],
                    match=mid,
                )
            )


def _entry_to_reverse(conn: Connection, audit_id: int) -> RowMapping:
    """Audit entry ``audit_id``, refused when there is none or it was reversed already."""
    row = conn.execute(select(t.audit_log).where(t.audit_log.c.id == audit_id)).mappings().first()
    if row is None:
        raise NotFound(Message(NO_SUCH_ENTRY, entry=audit_id))
    if row["reversed_by"] is not None:
        raise Refused(
            Message(
                N_("audit entry %(entry)s was reversed already (by entry %(by)s)"),
                entry=audit_id,
                by=row["reversed_by"],
            )
        )
    return row


def _refuse_changed_since(
    conn: Connection, audit_id: int, keys: list[str], after: dict[str, Snapshot]
) -> None:
    """Refuse to reverse audit entry ``audit_id`` when a thing it changed (``keys``) is no
    longer as the entry left it (``after``), naming the later entries that changed it."""
    for key in keys:
        kind, _, ident = key.partition(":")
        now = snapshot(conn, kind, int(ident))
        if _norm(now) != _norm(after.get(key)):
            later = _later_entries(conn, audit_id, kind, int(ident))
            raise Refused(
                Message(
                    N_(
                        "%(kind)s %(id)s has changed since audit entry %(entry)s (by "
                        "entries %(later)s): reverse the later changes first"
                    )
                    if later
                    else N_(
                        "%(kind)s %(id)s has changed since audit entry %(entry)s: "
                        "reverse the later changes first"
                    ),
                    kind=Message(KIND_WORDS.get(kind, kind)),
                    id=ident,
                    entry=audit_id,
                    later=", ".join(map(str, later)),
                )
            )


class Audit:
    """The audit log: every change written with the state before and after, listed, and
    reversed. Reached as ``store.audit``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def write(
        self,
        conn: Connection,
        command: str,
        entity: str,
        entity_id: int,
        summary: str,
        before: dict[str, Snapshot],
        after: dict[str, Snapshot],
        *,
        words: Message | None = None,
    ) -> int:
        """Write one audit entry on ``conn`` (a :meth:`writing` connection) and return its id;
        inside :meth:`transaction` the command is prefixed with the transaction's label. ``before``
        and ``after`` are snapshots (:func:`snapshot`) that
        ``store.audit.reverse`` puts back. ``summary`` is the change as the log has always
        kept it (English, with ids); ``words`` says it for a person, a
        :class:`~tally.errors.Message` whose template and values are kept for wording it in
        any language. The entry names the event and the match its snapshots belong to."""
        if self.store._tx is not None:
            self.store._tx.audited += 1
            command = f"{self.store._tx.label}: {command}"
        event_id, match_id = _places(conn, entity, entity_id, before, after)
        data = None if words is None else json.dumps(message_data(words), ensure_ascii=False)
        return int(
            conn.execute(
                _INSERT_ENTRY,
                {
                    "at": utc_now(),
                    "scorer": self.store.scorer,
                    "command": command,
                    "entity": entity,
                    "entity_id": entity_id,
                    "summary": summary,
                    "words": data,
                    "event_id": event_id,
                    "match_id": match_id,
                    "reversed_by": None,
                    "before": json.dumps(before, ensure_ascii=False, sort_keys=True),
                    "after": json.dumps(after, ensure_ascii=False, sort_keys=True),
                },
            ).scalar_one()
        )

    def log(
        self,
        *,
        limit: int | None = None,
        event: int | None = None,
        match: int | None = None,
        before: int | None = None,
    ) -> list[AuditView]:
        """The audit log, oldest first (the last ``limit`` entries when given): only the
        entries of ``event`` and of ``match`` when given, and those older than entry
        ``before``."""
        q = select(t.audit_log).where(_where(event, match, before))
        if limit is not None and limit < 0:
            raise Refused(
                Message(
                    N_("--limit %(limit)s: give how many entries to show (0 or more)"), limit=limit
                )
            )
        if limit is not None:
            q = q.limit(limit)
        with self.store.reading() as conn:
            rows = conn.execute(q.order_by(t.audit_log.c.id.desc())).mappings().all()
            return _named(conn, rows[::-1])

    def page(
        self,
        *,
        size: int = 50,
        event: int | None = None,
        match: int | None = None,
        before: int | None = None,
    ) -> AuditPage:
        """A page of the audit log, newest first: ``size`` entries of ``event`` and of
        ``match`` (when given) older than entry ``before`` (from the newest when None),
        with where the pages before and after it start (an address that stays the page it
        was while new entries are written)."""
        a = t.audit_log.c
        with self.store.reading() as conn:
            rows = (
                conn.execute(
                    select(t.audit_log)
                    .where(_where(event, match, before))
                    .order_by(a.id.desc())
                    .limit(size + 1)
                )
                .mappings()
                .all()
            )
            entries = _named(conn, rows[:size])
            newer: list[int] = []
            if entries and before is not None:
                newer = list(
                    conn.execute(
                        select(a.id)
                        .where(_where(event, match, None, entries[0].id))
                        .order_by(a.id)
                        .limit(size + 1)
                    ).scalars()
                )
        return AuditPage(
            entries=tuple(entries),
            older=entries[-1].id if len(rows) > size else None,
            newer=(newer[size] if len(newer) > size else 0) if newer else None,
        )

    def reverse(self, audit_id: int) -> AuditView:
        """Put back the state before audit entry ``audit_id``; the reversal is audited too.

        Refused when what the entry changed has changed again since (reverse the later entries
        first), or when the state before no longer fits (a deal number taken since...)."""
        with self.store.writing() as conn:
            row = _entry_to_reverse(conn, audit_id)
            before: dict[str, Snapshot] = json.loads(row["before"] or "{}")
            after: dict[str, Snapshot] = json.loads(row["after"] or "{}")
            keys = sorted(set(before) | set(after))
            match_ids = sorted(_matches_in(keys, before, after))
            for mid in match_ids:
                lock_match(conn, mid, missing_ok=True)
            roles: dict[int, dict[int, str]] = {}
            for mid in match_ids:
                try:
                    roles[mid] = load_derived(conn, mid).dealer_roles()
                except (NotFound, Refused):
                    pass
            _refuse_changed_since(conn, audit_id, keys, after)
            _refuse_players_under_deals(conn, row, before, after)
            _restore(conn, before)
            for mid in match_ids:
                if snapshot(conn, "match", mid) is not None:
                    restored = load_derived(conn, mid)
                    keep_dealers(roles.get(mid, {}), restored)
                    check_kept_in_turn(conn, restored)
                    save_results(conn, restored)
            new_id = self.write(
                conn,
                "audit undo",
                row["entity"],
                row["entity_id"],
                f"reversed entry {audit_id} ({row['summary']})",
                after,
                before,
                words=Message(REVERSED, entry=audit_id, change=audit_view(row).wording),
            )
            conn.execute(
                update(t.audit_log).where(t.audit_log.c.id == audit_id).values(reversed_by=new_id)
            )
            new_row = (
                conn.execute(select(t.audit_log).where(t.audit_log.c.id == new_id)).mappings().one()
            )
        return audit_view(new_row)
