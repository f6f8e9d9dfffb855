"""Recording play into a deal, over a plain DB-API connection: the one home of what
``Store.play`` (and ``preview``, ``undo``, ``legal_tokens``) do to the database.

:func:`play` locks the match (a row lock on PostgreSQL; on SQLite the write transaction
holds the database's write lock already), loads its rows and replays its deals through the
engine (:func:`tally.store.derivation.derive`), checks the position the scorer saw
(``--at``), refuses a violation nobody confirmed (unless ``as_played``), and stores the
change: the deal's result in the cache (``deal_results``), the audit entry, the actions.

Two callers, one code: the store's methods (:mod:`tally.store.deals`) hand over the driver
connection of their SQLAlchemy connection inside their transaction (:meth:`Db.of`), and the
plain path of ``tally deal play`` (:func:`play_plainly`, used by :mod:`tally.cli.quickplay`)
opens a connection of its own (:func:`tally.store.dbapi.connect`), never importing
SQLAlchemy. What is stored is the same to the byte: the same statements with the same values
(time stamps as SQLAlchemy writes them, JSON as :func:`json.dumps` writes it); the tests
compare the rows both paths write on SQLite and on PostgreSQL.

The other writes of the store (starting deals, corrections, events) go through SQLAlchemy and
share the pieces here that they need: loading a match (:func:`load_derived`), its players for
claims (:func:`candidates`), the result rows (:func:`result_rows`), the audit row
(:func:`insert_audit`) and a deal's snapshot (:func:`deal_snapshot`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from tally.errors import (
    BadRecord,
    DealMoved,
    Message,
    NotFound,
    RecordError,
    Refused,
    StoreUnavailable,
    ViolationNotConfirmed,
)
from tally.names import Candidate
from tally.ruling import Ruling
from tally.store.dbapi import Db, PlainPathDeclined, connect, read_time
from tally.store.dealviews import PlayResult, Position, ViolationView
from tally.store.derivation import (
    Loaded,
    MatchRow,
    derive,
    iso_time,
    rederive_last,
    view_of_deal,
    view_of_match,
)
from tally.store.recording import REFUSED_ENTRY, moved_message, violation_message
from tally.store.records import (
    ScorerItem,
    StoredDeal,
    claimers_known,
    flatten,
    parse_items,
    place_items,
)
from tally.vocabulary import ruling_words

#: writes one audit entry: (command, entity, entity id, summary, before, after) -> its id
Audit = Callable[[str, str, int, str, dict[str, Any], dict[str, Any]], int]

Snapshot = dict[str, Any] | None


def default_scorer() -> str:
    """Who is making changes: ``$TALLY_SCORER``, else the user logged in."""
    name = os.environ.get("TALLY_SCORER")
    if not name:
        import getpass

        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            return "unknown"
    # bytes of another encoding in the environment (surrogate escapes) cannot be stored
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def utc_now() -> datetime:
    """The time stamp every stored row and audit entry gets (UTC)."""
    return datetime.now(UTC)


def deal_snapshot(deal: StoredDeal) -> dict[str, Any]:
    """A deal row and its actions as JSON-ready data, as an audit entry keeps it."""
    return {"id": deal.id, "match_id": deal.match_id, "number": deal.number, "kind": deal.kind,
            "turn_up": deal.turn_up, "quick_winner_id": deal.quick_winner_id,
            "quick_points": deal.quick_points, "quick_reason": deal.quick_reason,
            "tags": dict(deal.tags), "created_at": iso_time(deal.created_at),
            "actions": [list(a) for a in deal.actions]}


# --- reading a match ------------------------------------------------------------------------

_SELECT_MATCH = (
    "SELECT m.id, m.player_a_id, m.player_b_id, pa.name, pb.name, m.rules, "
    "m.first_dealer_id, m.created_at, m.event_id, m.round_number, m.table_number "
    "FROM matches AS m JOIN players AS pa ON pa.id = m.player_a_id "
    "JOIN players AS pb ON pb.id = m.player_b_id WHERE m.id = ?")
_SELECT_DEALS = (
    "SELECT id, match_id, number, kind, turn_up, quick_winner_id, quick_points, "
    "quick_reason, tags, created_at FROM deals WHERE match_id = ? ORDER BY number")
_SELECT_ACTIONS = (
    "SELECT actions.deal_id, actions.seq, actions.trick, actions.token FROM actions "
    "JOIN deals ON deals.id = actions.deal_id WHERE deals.match_id = ? "
    "ORDER BY actions.deal_id, actions.seq")


def lock_match(db: Db, match_id: int, missing_ok: bool = False) -> None:
    """Lock a match's row until the transaction ends. On SQLite every write transaction
    holds the database's write lock already (BEGIN IMMEDIATE)."""
    if db.dialect == "sqlite":
        return
    found = db.one("SELECT id FROM matches WHERE id = ? FOR UPDATE", (match_id,))
    if found is None and not missing_ok:
        raise NotFound(f"there is no match {match_id}")


def load_match(db: Db, match_id: int) -> MatchRow:
    """A match's row with its players' names."""
    row = db.one(_SELECT_MATCH, (match_id,))
    if row is None:
        raise NotFound(f"there is no match {match_id}")
    (mid, a_id, b_id, a, b, spec, first_dealer_id, created_at, event_id, round_number,
     table_number) = row
    at = read_time(created_at)
    assert at is not None
    return MatchRow(mid, a_id, b_id, a, b, spec, first_dealer_id, at, event_id, round_number,
                    table_number)


def stored_deal(row: Sequence[Any]) -> StoredDeal:
    """A deal from its row (the columns of ``deals`` in their order), without its actions."""
    (deal_id, match_id, number, kind, turn_up, quick_winner_id, quick_points, quick_reason,
     tags, created_at) = row
    at = read_time(created_at)
    assert at is not None
    return StoredDeal(deal_id, match_id, number, kind, turn_up, quick_winner_id, quick_points,
                      quick_reason, json.loads(tags or "{}"), at)


def load_deals(db: Db, match_id: int) -> list[StoredDeal]:
    """A match's deals in order, with their actions."""
    deals = [stored_deal(r) for r in db.rows(_SELECT_DEALS, (match_id,))]
    by_id = {deal.id: deal for deal in deals}
    for deal_id, seq, trick, token in db.rows(_SELECT_ACTIONS, (match_id,)):
        by_id[deal_id].actions.append((seq, trick, token))
    return deals


def load_derived(db: Db, match_id: int, lock: bool = False) -> Loaded:
    """A match (locked first when ``lock``) with its deals, derived through the engine."""
    if lock:
        lock_match(db, match_id)
    match = load_match(db, match_id)
    return derive(match, load_deals(db, match_id))


def candidates(db: Db, ids: Sequence[int]) -> list[Candidate]:
    """Players ``ids`` (in that order) with their aliases, as :mod:`tally.names` resolves
    among them (for claims: ``66@Eva``)."""
    marks = ", ".join("?" for _ in ids)
    rows = db.rows(f"SELECT id, name FROM players WHERE id IN ({marks}) ORDER BY name_key", ids)
    aliases: dict[int, list[str]] = {}
    for pid, alias in db.rows(f"SELECT player_id, alias FROM player_aliases WHERE player_id "
                              f"IN ({marks}) ORDER BY alias_key", ids):
        aliases.setdefault(pid, []).append(alias)
    found = [Candidate(pid, name, tuple(aliases.get(pid, ()))) for pid, name in rows]
    found.sort(key=lambda c: list(ids).index(c.id or 0))
    return found


# --- writing --------------------------------------------------------------------------------

_INSERT_ACTIONS = "INSERT INTO actions (deal_id, seq, trick, token) VALUES (?, ?, ?, ?)"
_RESULT_COLUMNS = ("deal_id", "match_id", "winner_id", "deal_points", "carry_in", "game_points",
                   "reason")
_INSERT_RESULT = (f"INSERT INTO deal_results ({', '.join(_RESULT_COLUMNS)}) "
                  f"VALUES ({', '.join('?' for _ in _RESULT_COLUMNS)})")
_INSERT_AUDIT = (
    'INSERT INTO audit_log (at, scorer, command, entity, entity_id, summary, reversed_by, '
    '"before", "after") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id')


def insert_actions(db: Db, deal_id: int, actions: Sequence[tuple[int, int, str]]) -> None:
    """Insert actions ``(seq, trick, token)`` of a deal."""
    db.run_many(_INSERT_ACTIONS, [(deal_id, seq, trick, token) for seq, trick, token in actions])


def result_rows(loaded: Loaded) -> list[dict[str, Any]]:
    """The result cache's rows of every deal of a derived match."""
    m = loaded.match
    return [{"deal_id": d.deal.id, "match_id": m.id,
             "winner_id": None if s.winner is None else m.player_id(s.winner),
             "deal_points": s.deal_points, "carry_in": s.carry_in,
             "game_points": s.game_points, "reason": s.reason}
            for d, s in zip(loaded.deals, loaded.state.deals, strict=True)]


def save_last_result(db: Db, loaded: Loaded) -> None:
    """Rewrite the cached result of a match's last deal (the only one a play or an undo
    changes: the deals before it, and so their rows, stay as they are)."""
    rows = result_rows(loaded)
    if not rows:
        return
    db.run("DELETE FROM deal_results WHERE deal_id = ?", (rows[-1]["deal_id"],))
    db.run(_INSERT_RESULT, [rows[-1][c] for c in _RESULT_COLUMNS])


def insert_audit(db: Db, *, scorer: str, command: str, entity: str, entity_id: int,
                 summary: str, before: dict[str, Snapshot], after: dict[str, Snapshot]) -> int:
    """Write one audit entry, stamped now; its id."""
    row = db.one(_INSERT_AUDIT, (
        db.bind_time(utc_now()), scorer, command, entity, entity_id, summary, None,
        json.dumps(before, ensure_ascii=False, sort_keys=True),
        json.dumps(after, ensure_ascii=False, sort_keys=True)))
    assert row is not None
    return int(row[0])


# --- recording play -------------------------------------------------------------------------


def check_position(loaded: Loaded, expect: Position | str | None) -> None:
    """Refuse (:class:`DealMoved`) a write made at ``expect`` when the match has moved
    since: another scorer recorded, undid, started or deleted something in between."""
    if expect is None:
        return
    want = Position.parse(expect) if isinstance(expect, str) else expect
    m = loaded.match
    if want.match_id != m.id:
        raise Refused(f"position {want} is in match {want.match_id}, not in match {m.id}")
    last = loaded.deals[-1].deal if loaded.deals else None
    now = Position(m.id, last.number if last else 0, len(last.actions) if last else 0,
                   last.actions[-1][2] if last and last.actions else None)
    if now == want and (want.last is None or want.last == now.last):
        return
    view = view_of_deal(loaded, len(loaded.deals) - 1, False) if loaded.deals else None
    raise DealMoved(moved_message(want, [(d.deal.number, d.deal.actions, d.deal.turn_up)
                                         for d in loaded.deals], view), str(now))


def open_deal(db: Db, deal_id: int, expect: Position | str | None,
              lock: bool = True) -> tuple[Loaded, int]:
    """Load (and lock) the match of a deal that actions may be added to (or undone),
    refused when it is not where the scorer saw it (``expect``)."""
    row = db.one("SELECT match_id, number, kind FROM deals WHERE id = ?", (deal_id,))
    if row is None:
        raise NotFound(f"there is no deal {deal_id}")
    match_id, number, kind = row
    loaded = load_derived(db, match_id, lock=lock)
    check_position(loaded, expect)
    index = loaded.index(deal_id)
    name = f"deal {match_id}.{number}"
    if kind == "quick":
        raise Refused(f"{name} was entered as a result (quick entry): it has no record to "
                      "add to or undo")
    if index != len(loaded.deals) - 1:
        raise Refused(f"{name} is not the last deal of match {match_id}: "
                      f"correct it with `tally deal edit {deal_id}`")
    return loaded, index


def appended(loaded: Loaded, index: int,
             items: Sequence[ScorerItem]) -> tuple[StoredDeal, list[tuple[int, int, str]]]:
    """The last deal with ``items`` placed after its actions, and the actions added."""
    d = loaded.deals[index]
    assert d.record is not None
    items = claimers_known(items, loaded.match.players)
    record = place_items(d.record, items, loaded.match.rules)
    old = flatten(d.record)
    last = d.deal.actions[-1][0] if d.deal.actions else 0
    added = [(last + i, trick, str(item))
             for i, (trick, item) in enumerate(flatten(record)[len(old):], start=1)]
    return replace(d.deal, actions=[*d.deal.actions, *added]), added


def after_play(loaded: Loaded, changed: StoredDeal, text: str) -> Loaded:
    """The match with its last deal changed; refused when the record would be impossible."""
    try:
        return rederive_last(loaded, changed)
    except BadRecord as exc:
        raise RecordError(Message(REFUSED_ENTRY, entry=text, message=exc.record_error)) from None


def played(loaded: Loaded, after: Loaded, index: int, ruling_before: Ruling, referee: bool,
           tokens: tuple[str, ...]) -> PlayResult:
    """What a change to the last deal does: new violations, a new ruling."""
    ruling = after.deals[index].ruling
    assert ruling is not None and ruling.outcome is not None
    seen = {(v.seq, v.player, v.rule) for v in ruling_before.violations}
    new_violations = tuple(ViolationView(v.trick, v.player, v.rule, v.message)
                           for v in ruling.violations if (v.seq, v.player, v.rule) not in seen)
    o0 = ruling_before.outcome
    changed_outcome = (ruling.outcome.reason != "incomplete" and
                       (o0 is None or o0 != ruling.outcome))
    return PlayResult(deal=view_of_deal(after, index, referee, table=True),
                      match=view_of_match(after),
                      tokens=tokens, new_violations=new_violations,
                      ruling_changed=changed_outcome)


def store_played(db: Db, loaded: Loaded, after: Loaded, index: int, changed: StoredDeal,
                 command: str, what: str, audit: Audit) -> None:
    """Rewrite the cached result of the changed last deal and audit the change."""
    save_last_result(db, after)
    old = loaded.deals[index].deal
    audit(command, "deal", changed.id, f"deal {loaded.match.id}.{changed.number}: {what}",
          {f"deal:{changed.id}": deal_snapshot(old)},
          {f"deal:{changed.id}": deal_snapshot(changed)})


def items_of(text: str) -> list[ScorerItem]:
    """The items typed (``"KS AS"``), refused when there is none."""
    items = parse_items(text)
    if not items:
        raise Refused("nothing to record: give cards or actions (KS, swap, 20 QC, close, 66)")
    return items


def preview(db: Db, deal_id: int, text: str, items: Sequence[ScorerItem], *,
            referee: bool = False, expect: Position | str | None = None,
            lock: bool = True) -> tuple[Loaded, Loaded, StoredDeal, list[tuple[int, int, str]],
                                        PlayResult]:
    """What recording ``items`` (typed as ``text``) would do, storing nothing: the match
    before and after, the deal changed, the actions added and the result to tell."""
    loaded, index = open_deal(db, deal_id, expect, lock=lock)
    d = loaded.deals[index]
    assert d.ruling is not None
    m = loaded.match
    known = claimers_known(items, candidates(db, [m.a_id, m.b_id]))
    changed, added = appended(loaded, index, known)
    after = after_play(loaded, changed, text)
    result = played(loaded, after, index, d.ruling, referee, tuple(a[2] for a in added))
    return loaded, after, changed, added, result


def play(db: Db, deal_id: int, tokens: str | Sequence[str], *, audit: Audit,
         referee: bool = False, as_played: bool = False,
         expect: Position | str | None = None) -> PlayResult:
    """Record actions (``"KS AS"``, ``"20 QC"``, ``"close"``, ``"66"``) in a deal, inside the
    write transaction ``db`` is in (:meth:`tally.store.Store.play`, where it is documented
    in full); ``audit`` writes the audit entry."""
    text = tokens if isinstance(tokens, str) else " ".join(tokens)
    items = items_of(text)
    loaded, after, changed, added, result = preview(db, deal_id, text, items, referee=referee,
                                                    expect=expect)
    index = len(loaded.deals) - 1
    ruling = loaded.deals[index].ruling
    assert ruling is not None
    if result.new_violations and not as_played:
        decided = (ruling.outcome is None or ruling.outcome.reason == "incomplete"
                   or result.ruling_changed)
        raise ViolationNotConfirmed(
            violation_message(text, result.new_violations, result.deal, decided),
            result.new_violations, ruling_words(result.deal.winner, result.deal.game_points,
                                                result.deal.reason, "en"), decided, entry=text,
            deal=result.deal)
    store_played(db, loaded, after, index, changed, "deal play",
                 f"played {' '.join(a[2] for a in added)}", audit)
    insert_actions(db, changed.id, added)
    return result


# --- the plain path -------------------------------------------------------------------------


def play_plainly(url: str, match_id: int, tokens: Sequence[str], *, scorer: str,
                 referee: bool = False, as_played: bool = False,
                 expect: str | None = None) -> PlayResult:
    """``tally deal play MATCH TOKENS`` on a connection of its own, in one write transaction:
    the match's current deal (its last, read inside the write transaction), then
    :func:`play`, then commit.

    Raises :class:`PlainPathDeclined`, with nothing stored, where the regular path must run
    instead: a URL, file or driver :func:`tally.store.dbapi.connect` does not take, a schema
    not at the newest revision (the regular path migrates it), a database error before the
    commit (it reports it in its own words). Refusals (:class:`tally.errors.TallyError`) are
    the regular path's, nothing stored either. A failing commit is not handed over (it might
    have stored the entry): it is :class:`StoreUnavailable` with the regular path's words.
    """
    db = connect(url)
    try:
        db.begin_writing()
        if not db.at_head():
            raise PlainPathDeclined("schema")
        load_match(db, match_id)
        row = db.one("SELECT id FROM deals WHERE match_id = ? ORDER BY number DESC LIMIT 1",
                     (match_id,))
        if row is None:
            raise Refused(f"match {match_id} has no deal yet: start one with "
                          f"`tally deal start {match_id} TURNUP`")

        def audit(command: str, entity: str, entity_id: int, summary: str,
                  before: dict[str, Any], after: dict[str, Any]) -> int:
            return insert_audit(db, scorer=scorer, command=command, entity=entity,
                                entity_id=entity_id, summary=summary, before=before,
                                after=after)

        result = play(db, int(row[0]), list(tokens), audit=audit, referee=referee,
                      as_played=as_played, expect=expect)
    except Exception as exc:
        _abandon(db)
        if _driver_error(exc):
            raise PlainPathDeclined(type(exc).__name__) from None
        raise
    try:
        db.commit()
    except Exception as exc:
        if not _driver_error(exc):
            raise
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise StoreUnavailable(f"database error: {first}") from None
    finally:
        db.close()
    return result


def _abandon(db: Db) -> None:
    """Roll back and close; a connection that broke meanwhile is just closed."""
    try:
        db.rollback()
    except Exception as exc:
        if not _driver_error(exc):
            raise
    finally:
        db.close()


def _driver_error(exc: Exception) -> bool:
    """Whether ``exc`` is an error of the database driver (sqlite3 or psycopg)."""
    return type(exc).__module__.partition(".")[0] in ("sqlite3", "psycopg")
