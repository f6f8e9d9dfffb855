"""The store: players, matches and deals recorded trick by trick, with an audit log.

Open one with :func:`open_store`; every method is one transaction and returns plain views
(:mod:`tally.store.views`). What a deal is worth, who deals and what is carried are never
stored: each command rebuilds the records of the match from their actions and asks the engine
(:func:`tally.ruling.rule`, :func:`tally.match.score_match`)::

    store = open_store("sqlite:///club.db", scorer="Jo")
    store.add_player("Anna"); store.add_player("Bert")
    match = store.start_match("Anna", "Bert", rules="sixty-six", first_dealer="Anna")
    deal = store.start_deal(match.id, "QH")
    result = store.play(deal.id, "KS AS")        # refused, with the engine's reason, if the
    result.deal.to_move                          # record would be impossible

Every change writes an :class:`~tally.store.models.AuditEntry` holding the state before and
after, and :meth:`Store.reverse` puts the state before back.

The result cache (``deal_results``): standings add up thousands of deals, too many to replay
for every table printed, so each deal's ruling (winner, game points before and after the
carry, the carry, the reason) is also kept in a row of its own. It is derived, never typed:
every method that changes a match's deals (start, play, undo, quick entry, import, edit,
delete, reversing an audit entry, merging players) rewrites that match's rows from the same
derivation it has just checked, in the same transaction, so the cache can never be seen out of
step with the deals (renaming a player changes no row: the cache names players by number).
The cache is stamped with the version of tally that filled it: right after the migrations
have run (a database upgraded from before the cache existed is filled there, in one
transaction), and before anything reads it, a cache another version filled (whose rulings
may differ) is rebuilt (:meth:`Store.ensure_results`).
:meth:`Store.stale_results` compares the cache with a fresh derivation.

Concurrency: on SQLite every write is one ``BEGIN IMMEDIATE`` transaction (see
:mod:`tally.store.engine`); on PostgreSQL a write to a match first locks the match's row
(``SELECT ... FOR UPDATE``), so two scorers appending to one deal take turns, and the unique
(deal, seq) constraint backs that up.
"""

from __future__ import annotations

import getpass
import json
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine, RowMapping
from sqlalchemy.exc import DBAPIError, IntegrityError

import tally
from tally import names
from tally.cards import CARDS, Card, Rank
from tally.errors import (
    DealMoved,
    NotationError,
    NotFound,
    RecordError,
    Refused,
    RulesError,
    TallyError,
    ViolationNotConfirmed,
)
from tally.match import DealResult, MatchState, check_quick_result, score_match
from tally.notation import DealRecord, read_deal, write_deal
from tally.rules import RuleSet
from tally.ruling import Ruling, rule
from tally.store import eventrows
from tally.store import tables as t
from tally.store.engine import (
    READ_ONLY,
    StoreUnavailable,
    check_location,
    describe_url,
    ensure_schema,
    make_engine,
    resolve_url,
)
from tally.store.recording import moved_message, ruling_words, violation_message
from tally.store.records import (
    ScorerItem,
    StoredDeal,
    build_record,
    claimers_known,
    flatten,
    name_matcher,
    parse_items,
    place_items,
    rename_in_deal,
    rename_in_record,
    stored_form,
)
from tally.store.tables import NAME_LENGTH
from tally.store.views import (
    AuditView,
    DealView,
    MatchSummary,
    MatchView,
    PlayerView,
    PlayResult,
    Position,
    ViolationView,
)

#: The version of the code that fills the result cache. A cache another version filled is
#: rebuilt before it is read: the engine's rulings may differ between versions.
RESULTS_VERSION = f"1:{tally.__version__}"

_BAD_NAME_CHARS = re.compile(r'[;:"\\{}\[\]@\x00-\x1f\x7f]')
_DEAL_REF = re.compile(r"\s*([0-9]+)\s*\.\s*([0-9]+)\s*")

Snapshot = dict[str, Any] | None


def default_scorer() -> str:
    """Who is making changes: ``$TALLY_SCORER``, else the user logged in."""
    name = os.environ.get("TALLY_SCORER")
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            return "unknown"
    # bytes of another encoding in the environment (surrogate escapes) cannot be stored
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def open_store(url: str | None = None, *, scorer: str | None = None,
               migrate: bool = True, create: bool = True) -> Store:
    """Open the database at ``url`` (``--db``, ``$TALLY_DB`` or ``tally.db``), creating or
    upgrading its schema with the migrations unless ``migrate`` is False; after migrating,
    the result cache is filled (:meth:`Store.ensure_results`).

    ``create=False`` is for reading only: where there is no database (no SQLite file, or a
    database without tally's tables) :class:`StoreUnavailable` says so, and nothing is
    created. A database of an older revision is still upgraded.
    """
    resolved = resolve_url(url)
    check_location(resolved, create)
    engine = make_engine(resolved, create=create)
    try:
        migrated = ensure_schema(engine, create) if migrate else False
        store = Store(engine, scorer=scorer or default_scorer(), migrated=migrated)
        if migrated:
            # A new database is stamped; an upgraded one gets the result cache of the deals
            # it holds, before any command reads or writes it.
            store.ensure_results()
    except BaseException:
        engine.dispose()
        raise
    return store


def normalize_name(name: str) -> tuple[str, str]:
    """A player's name as stored (spaces collapsed) and its key (also case-folded).

    >>> normalize_name("  Mary   Lou ")
    ('Mary Lou', 'mary lou')
    """
    names.check_text(name, "name")
    clean = " ".join(name.split())
    if not clean:
        raise Refused("a player's name cannot be empty")
    if len(clean) > NAME_LENGTH:
        raise Refused(f'"{clean[:20]}...": a name has at most {NAME_LENGTH} characters')
    bad = _BAD_NAME_CHARS.search(clean)
    if bad:
        raise Refused(f'"{clean}": a name cannot contain {bad.group(0)!r} '
                      '(records use ; : " \\ { } [ ] @)')
    if not any(ch.isalpha() for ch in clean):
        raise Refused(f'"{clean}": a name needs at least one letter')
    return clean, clean.casefold()


# --- what a command loads -------------------------------------------------------------------


@dataclass(frozen=True)
class _Match:
    id: int
    a_id: int
    b_id: int
    a: str
    b: str
    spec: str
    first_dealer_id: int
    created_at: datetime
    event_id: int | None
    round_number: int | None
    table_number: int | None

    @property
    def players(self) -> tuple[str, str]:
        return (self.a, self.b)

    @property
    def rules(self) -> RuleSet:
        return rule_set(self.spec)

    def name(self, player_id: int) -> str:
        if player_id == self.a_id:
            return self.a
        if player_id == self.b_id:
            return self.b
        raise NotFound(f"player #{player_id} does not play in match {self.id}")

    def player_id(self, name: str) -> int:
        return self.a_id if name == self.a else self.b_id


@dataclass(frozen=True)
class _Derived:
    """A stored deal with what the engine makes of it."""

    deal: StoredDeal
    dealer: str
    forehand: str
    carry_in: int
    record: DealRecord | None
    ruling: Ruling | None
    result: DealResult


@dataclass(frozen=True)
class _Loaded:
    match: _Match
    deals: tuple[_Derived, ...]
    state: MatchState

    def index(self, deal_id: int) -> int:
        for i, d in enumerate(self.deals):
            if d.deal.id == deal_id:
                return i
        raise NotFound(f"deal {deal_id} is not in match {self.match.id}")

    def dealer_roles(self) -> dict[int, str]:
        return {d.deal.id: "a" if d.dealer == self.match.a else "b" for d in self.deals}


@lru_cache(maxsize=64)
def rule_set(spec: str) -> RuleSet:
    """The rule set of a stored spec (parsed once per spec: specs repeat on every match)."""
    return RuleSet.parse(spec)


def checked_rules(rules: str) -> str:
    """The canonical spec of a rule set typed by a user; refused when it cannot be read."""
    try:
        return RuleSet.parse(rules).spec
    except RulesError as exc:
        raise Refused(str(exc)) from None


class _BadRecord(Refused):
    """A stored (or about to be stored) deal whose record has errors."""

    def __init__(self, match: _Match, deal: StoredDeal, message: str) -> None:
        super().__init__(f"deal {match.id}.{deal.number} would not be a possible record: "
                         f"{message}")
        self.message = message


#: Rulings of records already ruled in this process, by their content: a recording session
#: replays only the deal that changed, not the whole match, on each action.
_RULINGS: dict[tuple[Any, ...], tuple[DealRecord, Ruling]] = {}
_RULINGS_SIZE = 512


def _rule_stored(match: _Match, deal: StoredDeal, dealer: str, forehand: str,
                 carry: int) -> tuple[DealRecord, Ruling]:
    key = (match.spec, dealer, forehand, carry, deal.turn_up,
           tuple(sorted(deal.tags.items())), tuple(deal.actions))
    found = _RULINGS.get(key)
    if found is None:
        record = build_record(deal, match.spec, dealer, forehand, carry)
        found = (record, rule(record))
        if len(_RULINGS) >= _RULINGS_SIZE:
            del _RULINGS[next(iter(_RULINGS))]
        _RULINGS[key] = found
    return found


def _derive(match: _Match, deals: Sequence[StoredDeal]) -> _Loaded:
    """Rule on every deal of a match in order; raises :class:`Refused` when they do not fit
    together (a record with errors, a deal after the end of the match...)."""
    rules = match.rules
    first = match.name(match.first_dealer_id)
    results: list[DealResult] = []
    out: list[_Derived] = []
    for deal in deals:
        before = score_match(rules, match.players, first, results)
        if before.over:
            raise Refused(f"deal {match.id}.{deal.number} comes after the end of the match "
                          f"({before.winner} won)")
        if before.in_progress:
            raise Refused(f"deal {match.id}.{deal.number} comes after deal "
                          f"{match.id}.{deal.number - 1}, which is not finished")
        dealer = before.next_dealer or first
        forehand = match.b if dealer == match.a else match.a
        derived = _derived_deal(match, deal, dealer, forehand, before.carry)
        out.append(derived)
        results.append(derived.result)
    state = score_match(rules, match.players, first, results)
    return _Loaded(match, tuple(out), state)


def _derived_deal(match: _Match, deal: StoredDeal, dealer: str, forehand: str,
                  carry: int) -> _Derived:
    """One deal with its ruling (a recorded deal) or its stored result (a quick one)."""
    if deal.kind == "quick":
        winner = None if deal.quick_winner_id is None else match.name(deal.quick_winner_id)
        result = DealResult(winner, deal.quick_points or 0, deal.quick_reason or "draw")
        return _Derived(deal, dealer, forehand, carry, None, None, result)
    record, ruling = _rule_stored(match, deal, dealer, forehand, carry)
    if ruling.errors or ruling.outcome is None:
        raise _BadRecord(match, deal, ruling.errors[0].message if ruling.errors
                         else "no ruling")
    result = DealResult(ruling.outcome.winner, ruling.deal_points, ruling.outcome.reason)
    return _Derived(deal, dealer, forehand, carry, record, ruling, result)


def _rederive_last(loaded: _Loaded, changed: StoredDeal) -> _Loaded:
    """``loaded`` with its last deal replaced by ``changed``: the deals before it, and so its
    dealer and carry, stay as they are."""
    last = loaded.deals[-1]
    m = loaded.match
    deals = (*loaded.deals[:-1],
             _derived_deal(m, changed, last.dealer, last.forehand, last.carry_in))
    state = score_match(m.rules, m.players, m.name(m.first_dealer_id),
                        [d.result for d in deals])
    return _Loaded(m, deals, state)


# --- the result cache -------------------------------------------------------------------------


def _result_rows(loaded: _Loaded) -> list[dict[str, Any]]:
    """The cache rows of every deal of a derived match."""
    m = loaded.match
    return [{"deal_id": d.deal.id, "match_id": m.id,
             "winner_id": None if s.winner is None else m.player_id(s.winner),
             "deal_points": s.deal_points, "carry_in": s.carry_in,
             "game_points": s.game_points, "reason": s.reason}
            for d, s in zip(loaded.deals, loaded.state.deals, strict=True)]


_DELETE_MATCH_RESULTS = delete(t.deal_results).where(
    t.deal_results.c.match_id == bindparam("m"))
_DELETE_DEAL_RESULT = delete(t.deal_results).where(t.deal_results.c.deal_id == bindparam("d"))
_INSERT_RESULTS = insert(t.deal_results)


def _save_results(conn: Connection, loaded: _Loaded, *, last_only: bool = False) -> None:
    """Rewrite the cached results of a match from its derivation ``loaded``.

    ``last_only`` when only the last deal changed (recording or undoing an action): the deals
    before it, and so their rows, are the same (:func:`_rederive_last`).
    """
    rows = _result_rows(loaded)
    if last_only and rows:
        conn.execute(_DELETE_DEAL_RESULT, {"d": rows[-1]["deal_id"]})
        conn.execute(_INSERT_RESULTS, rows[-1:])
        return
    conn.execute(_DELETE_MATCH_RESULTS, {"m": loaded.match.id})
    if rows:
        conn.execute(_INSERT_RESULTS, rows)


def _rewrite_results(conn: Connection, match_id: int) -> None:
    """Derive a match from what is stored now and rewrite its cached results."""
    _save_results(conn, _load(conn, match_id))


# --- views ----------------------------------------------------------------------------------


def _violations(ruling: Ruling | None) -> tuple[ViolationView, ...]:
    if ruling is None:
        return ()
    return tuple(ViolationView(v.trick, v.player, v.rule, v.message) for v in ruling.violations)


def _deal_view(loaded: _Loaded, index: int, referee: bool) -> DealView:
    d = loaded.deals[index]
    ds = loaded.state.deals[index]
    ru = d.ruling
    engine_deal = ru.state if ru is not None else None
    over = engine_deal.is_over if engine_deal is not None else True
    to_move = engine_deal.to_move if engine_deal is not None else None
    to_move_as = engine_deal.to_move_as if engine_deal is not None else None
    if ru is not None:
        explanation = ru.explanation
        tricks = dict(ru.tricks)
    else:
        explanation = ("entered as a result: " +
                       (f"{ds.winner} won by {ds.reason}" if ds.winner else "drawn"))
        tricks = {}
    return DealView(
        id=d.deal.id, match_id=loaded.match.id, number=ds.number, kind=d.deal.kind,
        dealer=ds.dealer, forehand=ds.forehand, turn_up=d.deal.turn_up, winner=ds.winner,
        reason=ds.reason, deal_points=ds.deal_points, carry_in=ds.carry_in,
        game_points=ds.game_points, carry_out=ds.carry_out, score_after=dict(ds.score_after),
        explanation=explanation, violations=_violations(ru), tricks=tricks,
        points=dict(ru.points) if ru is not None and (over or referee) else None,
        actions=len(d.deal.actions), to_move=to_move, to_move_as=to_move_as,
        trick=engine_deal.trick if engine_deal is not None else 0,
        claimable=(engine_deal is not None and engine_deal.all_tricks_played
                   and not engine_deal.claimed),
        last_action=d.deal.actions[-1][2] if d.deal.actions else None)


def _match_view(loaded: _Loaded, referee: bool = False) -> MatchView:
    m, s = loaded.match, loaded.state
    deals = tuple(_deal_view(loaded, i, referee) for i in range(len(loaded.deals)))
    current = deals[-1].id if deals and s.in_progress else None
    return MatchView(id=m.id, players=m.players, rules=m.spec,
                     first_dealer=m.name(m.first_dealer_id), created_at=_iso(m.created_at),
                     event_id=m.event_id, target=s.target, deals=deals, score=dict(s.score),
                     carry=s.carry, next_dealer=s.next_dealer, winner=s.winner, over=s.over,
                     current_deal=current, round=m.round_number, table=m.table_number)


# --- recording: placing a scorer's items, checking where the scorer saw the deal ------------


def _appended(loaded: _Loaded, index: int,
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


def _after_play(loaded: _Loaded, changed: StoredDeal, text: str) -> _Loaded:
    """The match with its last deal changed; refused when the record would be impossible."""
    try:
        return _rederive_last(loaded, changed)
    except _BadRecord as exc:
        raise RecordError(f'"{text}" refused, nothing was recorded: {exc.message}') from None


def _check_position(loaded: _Loaded, expect: Position | str | None) -> None:
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
    view = _deal_view(loaded, len(loaded.deals) - 1, False) if loaded.deals else None
    raise DealMoved(moved_message(want, [(d.deal.number, d.deal.actions, d.deal.turn_up)
                                         for d in loaded.deals], view), str(now))


def _context_tags(conn: Connection, match: _Match) -> dict[str, str]:
    """``Event``, ``Date``, ``Round`` and ``Table`` of a match made in an event (none for a
    match of its own)."""
    if match.event_id is None:
        return {}
    row = conn.execute(select(t.events.c.name, t.events.c.held_on)
                       .where(t.events.c.id == match.event_id)).first()
    if row is None:
        return {}
    tags = {"Event": str(row.name), "Date": row.held_on.isoformat()}
    if match.round_number is not None:
        tags["Round"] = str(match.round_number)
    if match.table_number is not None:
        tags["Table"] = str(match.table_number)
    return tags


# --- snapshots: the state an audit entry keeps ------------------------------------------------


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat()


def utc_now() -> datetime:
    """The time stamp every stored row and audit entry gets (UTC)."""
    return datetime.now(UTC)


def _deal_snapshot(deal: StoredDeal) -> dict[str, Any]:
    return {"id": deal.id, "match_id": deal.match_id, "number": deal.number, "kind": deal.kind,
            "turn_up": deal.turn_up, "quick_winner_id": deal.quick_winner_id,
            "quick_points": deal.quick_points, "quick_reason": deal.quick_reason,
            "tags": dict(deal.tags), "created_at": _iso(deal.created_at),
            "actions": [list(a) for a in deal.actions]}


def _norm(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


@dataclass
class Transaction:
    """One transaction of :meth:`Store.transaction`: its label, its connection and the number
    of audit entries written in it so far."""

    label: str
    connection: Connection
    audited: int = 0


# --- the store --------------------------------------------------------------------------------


class Store:
    """tally's database. Methods are transactions; they take and return plain values."""

    def __init__(self, engine: Engine, *, scorer: str, migrated: bool = False) -> None:
        self.engine = engine
        self.scorer = scorer
        #: whether opening the store created or upgraded the schema
        self.migrated = migrated
        #: the transaction of :meth:`transaction` in progress, if any
        self._tx: Transaction | None = None

    @property
    def where(self) -> str:
        """The database, for messages: a file path, or the URL without its password."""
        return describe_url(self.engine.url.render_as_string(hide_password=False))

    def close(self) -> None:
        """Close the database connections."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- transactions -------------------------------------------------------------------------

    @contextmanager
    def transaction(self, label: str) -> Iterator[Transaction]:
        """Run several store operations as ONE transaction: all of them are stored, or none.

        Inside the ``with`` block every method (and every function of
        :mod:`tally.store.events`) works on the same connection; nothing is committed until
        the block ends without an exception, and an exception rolls everything back, audit
        entries included. Each audit entry written inside names ``label`` before its own
        command (``"tally load: player add"``)::

            with store.transaction("tally load") as tx:
                store.add_player("Anna")
                create_event(store, "Club night", players=["Anna"])
            tx.audited                    # 2

        Outside such a block every method commits on its own, as before. Transactions do not
        nest: a second ``transaction`` inside the first is refused (a programming error).
        On SQLite the block holds the write lock (``BEGIN IMMEDIATE``) from start to end, so
        keep it short; on PostgreSQL the rows it writes stay invisible to others until it
        ends.
        """
        if self._tx is not None:
            raise RuntimeError(f"a transaction ({self._tx.label}) is in progress already")
        try:
            with self.engine.begin() as conn:
                self._tx = Transaction(label, conn)
                try:
                    yield self._tx
                finally:
                    self._tx = None
        except IntegrityError as exc:
            raise Refused(f"the change conflicts with what is stored "
                          f"({_first_line(exc)}); nothing was changed") from None
        except DBAPIError as exc:
            raise StoreUnavailable(f"database error: {_first_line(exc)}") from None

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A connection to change the database on: committed when the block ends, rolled
        back on an exception. Inside :meth:`transaction` it is that transaction's connection
        (nothing commits before the transaction does). Store modules (events, recording) and
        code built on the store use it with :meth:`audit` for their own changes."""
        if self._tx is not None:
            yield self._tx.connection
            return
        try:
            with self.engine.begin() as conn:
                yield conn
        except IntegrityError as exc:
            raise Refused(f"the change conflicts with what is stored "
                          f"({_first_line(exc)}); nothing was changed") from None
        except DBAPIError as exc:
            raise StoreUnavailable(f"database error: {_first_line(exc)}") from None

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection to read a consistent snapshot with (REPEATABLE READ on PostgreSQL,
        read-only on SQLite); inside :meth:`transaction` it sees what the transaction wrote."""
        if self._tx is not None:
            # Inside a transaction a read sees what the transaction has written so far.
            yield self._tx.connection
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
            raise StoreUnavailable(f"database error: {_first_line(exc)}") from None

    # --- players ------------------------------------------------------------------------------

    def add_player(self, name: str) -> PlayerView:
        """Add a player; names are unique ignoring case, spaces and accents, and a new name
        may not be another player's alias."""
        clean, key = normalize_name(name)
        with self.writing() as conn:
            _refuse_taken(conn, clean)
            pid = conn.execute(insert(t.players).values(name=clean, name_key=key,
                                                        created_at=utc_now())
                               .returning(t.players.c.id)).scalar_one()
            self.audit(conn, "player add", "player", pid, f'added player "{clean}" (#{pid})',
                        {f"player:{pid}": None}, {f"player:{pid}": snapshot(conn, "player", pid)})
        return PlayerView(pid, clean, 0)

    def players(self) -> list[PlayerView]:
        """Every player, by name, with the number of matches they play in and their
        aliases."""
        with self.reading() as conn:
            counts: dict[int, int] = {}
            for a, b in conn.execute(select(t.matches.c.player_a_id, t.matches.c.player_b_id)):
                counts[a] = counts.get(a, 0) + 1
                counts[b] = counts.get(b, 0) + 1
            rows = conn.execute(select(t.players.c.id, t.players.c.name)
                                .order_by(t.players.c.name_key)).all()
            aliases = _aliases(conn)
            entered: dict[int, list[int]] = {}
            for eid, pid in conn.execute(select(t.event_players.c.event_id,
                                                t.event_players.c.player_id)
                                         .order_by(t.event_players.c.event_id)):
                entered.setdefault(pid, []).append(eid)
        return [PlayerView(pid, name, counts.get(pid, 0), tuple(aliases.get(pid, ())),
                           tuple(entered.get(pid, ()))) for pid, name in rows]

    def player(self, ref: str) -> PlayerView:
        """One player, found as every command finds one (:mod:`tally.names`), with their
        matches, aliases and events."""
        with self.reading() as conn:
            row = resolve_player(conn, ref)
            pid = row["id"]
            return PlayerView(pid, row["name"], len(_match_ids_of(conn, pid)),
                              tuple(_aliases(conn, pid).get(pid, ())),
                              tuple(eventrows.events_of_player(conn, pid)))

    def player_matches(self, ref: str) -> list[int]:
        """The numbers of the matches a player plays in, oldest first."""
        with self.reading() as conn:
            return _match_ids_of(conn, resolve_player(conn, ref)["id"])

    def add_alias(self, ref: str, alias: str) -> PlayerView:
        """Give a player another name to be found by (``"Jogi"`` for Jürgen Roth); an alias
        is unique and is no player's name. Audited; ``tally audit undo`` takes it back."""
        clean, _key = normalize_name(alias)
        with self.writing() as conn:
            row = resolve_player(conn, ref)
            pid = row["id"]
            _refuse_taken(conn, clean, alias_of=pid)
            before = {f"player:{pid}": snapshot(conn, "player", pid)}
            conn.execute(insert(t.player_aliases).values(
                player_id=pid, alias=clean, alias_key=names.fold(clean), created_at=utc_now()))
            self.audit(conn, "player alias", "player", pid,
                        f'player #{pid} "{row["name"]}" also goes by "{clean}"', before,
                        {f"player:{pid}": snapshot(conn, "player", pid)})
            return self._view(conn, pid)

    def remove_alias(self, ref: str, alias: str) -> PlayerView:
        """Take an alias away from a player (audited)."""
        with self.writing() as conn:
            row = resolve_player(conn, ref)
            pid = row["id"]
            key = names.fold(alias)
            found = conn.execute(select(t.player_aliases.c.id, t.player_aliases.c.alias).where(
                (t.player_aliases.c.player_id == pid) & (t.player_aliases.c.alias_key == key))
            ).first()
            if found is None:
                have = _aliases(conn, pid).get(pid, [])
                raise NotFound(f'player #{pid} "{row["name"]}" has no alias "{alias.strip()}"'
                               + (f" (their aliases: {', '.join(have)})" if have
                                  else " (they have none)"))
            before = {f"player:{pid}": snapshot(conn, "player", pid)}
            conn.execute(delete(t.player_aliases).where(t.player_aliases.c.id == found[0]))
            self.audit(conn, "player unalias", "player", pid,
                        f'player #{pid} "{row["name"]}" no longer goes by "{found[1]}"', before,
                        {f"player:{pid}": snapshot(conn, "player", pid)})
            return self._view(conn, pid)

    def _view(self, conn: Connection, pid: int) -> PlayerView:
        name = conn.execute(select(t.players.c.name).where(t.players.c.id == pid)).scalar_one()
        return PlayerView(pid, name, len(_match_ids_of(conn, pid)),
                          tuple(_aliases(conn, pid).get(pid, ())),
                          tuple(eventrows.events_of_player(conn, pid)))

    def rename_player(self, ref: str, new_name: str) -> PlayerView:
        """Rename a player; records that name them (claims, Hands...) follow."""
        clean, key = normalize_name(new_name)
        with self.writing() as conn:
            row = resolve_player(conn, ref)
            pid, old = row["id"], row["name"]
            if clean == old:
                raise Refused(f'the player is already called "{old}"')
            _refuse_taken(conn, clean, renaming=pid)
            before: dict[str, Snapshot] = {f"player:{pid}": snapshot(conn, "player", pid)}
            after: dict[str, Snapshot] = {}
            conn.execute(update(t.players).where(t.players.c.id == pid)
                         .values(name=clean, name_key=key))
            after[f"player:{pid}"] = snapshot(conn, "player", pid)
            self._rename_in_records(conn, _match_ids_of(conn, pid), old, clean, before, after)
            self.audit(conn, "player rename", "player", pid,
                        f'renamed player #{pid} "{old}" to "{clean}"', before, after)
            return self._view(conn, pid)

    def merge_players(self, keep_ref: str, drop_ref: str) -> PlayerView:
        """Make two entries for one person one: ``drop``'s matches, events, byes and aliases
        move to ``keep``, and ``drop``'s entry is deleted.

        Allowed whenever the two never met in a match. When both are entered in the same
        event, the entries become one: it keeps the better (lower) seed of the two, and it is
        withdrawn only if both were (then at the earlier withdrawal). Refused when both are
        entered in a round robin whose first round has started: its schedule pairs them as
        two players. ``tally audit undo`` separates them again.
        """
        with self.writing() as conn:
            keep = resolve_player(conn, keep_ref)
            drop = resolve_player(conn, drop_ref)
            kid, did = keep["id"], drop["id"]
            if kid == did:
                raise Refused(f'"{keep["name"]}" and "{drop["name"]}" are the same entry')
            match_ids = _match_ids_of(conn, did)
            for mid in match_ids:
                _lock_match(conn, mid)
            both = set(match_ids) & set(_match_ids_of(conn, kid))
            if both:
                raise Refused(f'"{keep["name"]}" and "{drop["name"]}" played each other '
                              f"(match {min(both)}): they are two people")
            event_ids = eventrows.events_of_player(conn, did)
            shared = sorted(set(event_ids) & set(eventrows.events_of_player(conn, kid)))
            for eid in shared:
                ev = eventrows.resolve_event(conn, eid, lock=True)
                started = conn.execute(select(t.event_rounds.c.number).where(
                    t.event_rounds.c.event_id == eid).limit(1)).first()
                if ev["kind"] == "round-robin" and started is not None:
                    raise Refused(f'"{keep["name"]}" and "{drop["name"]}" are both entered in '
                                  f'round robin {eid} "{ev["name"]}", which has started: its '
                                  "schedule pairs them as two players, so they stay two "
                                  "entries")
            before: dict[str, Snapshot] = {f"player:{did}": snapshot(conn, "player", did),
                                           f"player:{kid}": snapshot(conn, "player", kid)}
            after: dict[str, Snapshot] = {}
            for eid in event_ids:
                before[f"event:{eid}"] = snapshot(conn, "event", eid)
            for mid in match_ids:
                before[f"match:{mid}"] = snapshot(conn, "match", mid)
                for deal in _load_deals(conn, mid):
                    before[f"deal:{deal.id}"] = _deal_snapshot(deal)
            self._rename_in_records(conn, match_ids, drop["name"], keep["name"], before, after)
            for mid in match_ids:
                snap = before[f"match:{mid}"]
                assert snap is not None
                conn.execute(update(t.matches).where(t.matches.c.id == mid).values({
                    col: kid if snap[col] == did else snap[col]
                    for col in ("player_a_id", "player_b_id", "first_dealer_id")}))
            conn.execute(update(t.deals).where(t.deals.c.quick_winner_id == did)
                         .values(quick_winner_id=kid))
            ep = t.event_players
            for eid in shared:
                rows = {r["player_id"]: r for r in conn.execute(
                    select(ep.c.player_id, ep.c.seed, ep.c.withdrawn_at)
                    .where((ep.c.event_id == eid) & ep.c.player_id.in_([kid, did])))
                    .mappings()}
                if len(rows) < 2:
                    continue  # one of them only sat out a round
                k, d = rows[kid], rows[did]
                withdrawn = (None if k["withdrawn_at"] is None or d["withdrawn_at"] is None
                             else min(k["withdrawn_at"], d["withdrawn_at"]))
                conn.execute(delete(ep).where((ep.c.event_id == eid) & (ep.c.player_id == did)))
                conn.execute(update(ep).where((ep.c.event_id == eid) & (ep.c.player_id == kid))
                             .values(seed=min(k["seed"], d["seed"]), withdrawn_at=withdrawn))
            conn.execute(update(ep).where(ep.c.player_id == did).values(player_id=kid))
            conn.execute(update(t.event_rounds).where(t.event_rounds.c.bye_player_id == did)
                         .values(bye_player_id=kid))
            conn.execute(update(t.player_aliases).where(t.player_aliases.c.player_id == did)
                         .values(player_id=kid))
            for mid in match_ids:
                _rewrite_results(conn, mid)
            conn.execute(delete(t.players).where(t.players.c.id == did))
            for key in before:
                kind, _, ident = key.partition(":")
                after[key] = snapshot(conn, kind, int(ident))
            joined = f", {len(shared)} event entr{'y' if len(shared) == 1 else 'ies'} joined" \
                if shared else ""
            self.audit(conn, "player merge", "player", kid,
                        f'merged player #{did} "{drop["name"]}" into #{kid} "{keep["name"]}" '
                        f"({len(match_ids)} match(es) moved{joined})", before, after)
            return self._view(conn, kid)

    def _rename_in_records(self, conn: Connection, match_ids: Sequence[int], old: str, new: str,
                           before: dict[str, Snapshot], after: dict[str, Snapshot]) -> None:
        """Rewrite ``old`` to ``new`` in the claims and tags of the deals of ``match_ids``."""
        def rename(name: str) -> str:
            return new if name == old else name

        for mid in match_ids:
            for deal in _load_deals(conn, mid):
                renamed = rename_in_deal(deal, rename)
                if renamed.actions == deal.actions and renamed.tags == deal.tags:
                    continue
                key = f"deal:{deal.id}"
                before.setdefault(key, _deal_snapshot(deal))
                _write_deal_row(conn, renamed)
                after[key] = _deal_snapshot(renamed)

    # --- matches ------------------------------------------------------------------------------

    def start_match(self, player_a: str, player_b: str, *, rules: str | None = None,
                    first_dealer: str, event: str | int | None = None) -> MatchView:
        """Start a match; ``rules`` is a preset with optional overrides (``RuleSet.parse``),
        ``sixty-six`` by default.

        With ``event`` (a club evening's number or name) the match counts for that event and
        is played under its rule set (``rules``, if given, must be the same); players not yet
        on the evening's list join it. A round robin's matches come from its schedule
        instead (:func:`tally.store.events.start_round`).
        """
        with self.writing() as conn:
            ev = None if event is None else eventrows.resolve_event(conn, event, lock=True)
            spec = checked_rules(rules if rules is not None else
                                  ev["rules"] if ev is not None else "sixty-six")
            a = resolve_player(conn, player_a)
            b = resolve_player(conn, player_b)
            if a["id"] == b["id"]:
                raise Refused(f'a match needs two players, not "{a["name"]}" twice')
            d = _resolve_in_match(conn, first_dealer, [a["id"], b["id"]],
                                  " in this match (as --dealer)")
            before: dict[str, Snapshot] = {}
            after: dict[str, Snapshot] = {}
            if ev is not None:
                eid = ev["id"]
                event_before = snapshot(conn, "event", eid)
                if eventrows.enter_club_match(conn, ev, spec, (a, b)):
                    before[f"event:{eid}"] = event_before
                    after[f"event:{eid}"] = snapshot(conn, "event", eid)
            mid = eventrows.insert_match(conn, a["id"], b["id"], spec, d["id"],
                                         event_id=None if ev is None else ev["id"])
            before[f"match:{mid}"] = None
            after[f"match:{mid}"] = snapshot(conn, "match", mid)
            where = "" if ev is None else f' for event {ev["id"]} "{ev["name"]}"'
            self.audit(conn, "match start", "match", mid,
                        f'started match {mid}{where}: {a["name"]} v {b["name"]}, {spec}, '
                        f'{d["name"]} deals first', before, after)
            loaded = _load(conn, mid)
        return _match_view(loaded)

    def matches(self) -> list[MatchSummary]:
        """Every match, oldest first, with its score."""
        with self.reading() as conn:
            ids = conn.execute(select(t.matches.c.id).order_by(t.matches.c.id)).scalars().all()
            out = []
            for mid in ids:
                loaded = _load(conn, mid)
                m, s = loaded.match, loaded.state
                out.append(MatchSummary(m.id, m.players, m.spec, len(loaded.deals),
                                        dict(s.score), s.winner, s.over, _iso(m.created_at),
                                        m.event_id, m.round_number, m.table_number))
        return out

    def match_state(self, match_id: int, *, referee: bool = False) -> MatchView:
        """A match with every deal's ruling, the score, the carry and who deals next.

        Counted points of a deal still being played are left out unless ``referee``.
        """
        with self.reading() as conn:
            loaded = _load(conn, match_id)
        return _match_view(loaded, referee)

    def delete_match(self, match_id: int) -> MatchView:
        """Delete a match with its deals (a match started by mistake: wrong players, a
        duplicate); returns the match as it was. Audited as one entry, so ``tally audit undo``
        brings the match and every deal back.

        Refused for a match of a round robin: the schedule made it, with its round and table,
        and a round is taken back whole (reverse the entry that started the round while none
        of its matches has a deal) or a player withdrawn; its deals are corrected one by one.
        A club evening's match may be deleted; its players stay on the evening's list.
        """
        with self.writing() as conn:
            loaded = _load(conn, match_id, lock=True)
            m = loaded.match
            if m.event_id is not None and m.round_number is not None:
                ev = eventrows.resolve_event(conn, m.event_id)
                started = conn.execute(select(t.audit_log.c.id).where(
                    (t.audit_log.c.command == "event round") & (t.audit_log.c.entity_id == ev["id"])
                    & t.audit_log.c.reversed_by.is_(None)
                    & t.audit_log.c.summary.contains(f"round {m.round_number} ")
                ).order_by(t.audit_log.c.id.desc()).limit(1)).scalar_one_or_none()
                how = (f"`tally audit undo {started}` takes the round back while none of its "
                       "matches has a deal" if started is not None else
                       "a round is taken back whole with `tally audit undo`")
                raise Refused(f'match {match_id} was made by the schedule of round robin '
                              f'{ev["id"]} "{ev["name"]}" (round {m.round_number}, table '
                              f"{m.table_number}), so it cannot be deleted on its own: {how}; "
                              "a player who stops is withdrawn (`tally event withdraw`), and "
                              "a deal is corrected with `tally deal edit` or `tally deal delete`")
            view = _match_view(loaded)
            before: dict[str, Snapshot] = {f"match:{match_id}": snapshot(conn, "match",
                                                                          match_id)}
            for d in loaded.deals:
                before[f"deal:{d.deal.id}"] = _deal_snapshot(d.deal)
            conn.execute(_DELETE_MATCH_RESULTS, {"m": match_id})
            deal_ids = [d.deal.id for d in loaded.deals]
            if deal_ids:
                conn.execute(delete(t.actions).where(t.actions.c.deal_id.in_(deal_ids)))
                conn.execute(delete(t.deals).where(t.deals.c.id.in_(deal_ids)))
            conn.execute(delete(t.matches).where(t.matches.c.id == match_id))
            after: dict[str, Snapshot] = dict.fromkeys(before)
            self.audit(conn, "match delete", "match", match_id,
                        f"deleted match {match_id}: {m.a} v {m.b}, "
                        f"{len(deal_ids)} deal(s)", before, after)
        return view

    # --- deals --------------------------------------------------------------------------------

    def deal_id(self, ref: str | int) -> int:
        """The id of a deal given as its id (``"17"``) or as ``"MATCH.NUMBER"`` (``"3.2"``)."""
        with self.reading() as conn:
            return _resolve_deal(conn, ref)

    def current_deal(self, match_id: int) -> int:
        """The deal of a match that play is recorded into: its last deal."""
        with self.reading() as conn:
            _load_match(conn, match_id)
            row = conn.execute(select(t.deals.c.id).where(t.deals.c.match_id == match_id)
                               .order_by(t.deals.c.number.desc()).limit(1)).first()
        if row is None:
            raise Refused(f"match {match_id} has no deal yet: start one with "
                          f"`tally deal start {match_id} TURNUP`")
        return int(row[0])

    def start_deal(self, match_id: int, turn_up: str, *,
                   expect: Position | str | None = None) -> DealView:
        """Start the next deal of a match with its turn-up; the dealer follows the rules.

        ``expect``: where the scorer saw the match (:class:`~tally.store.views.Position`,
        e.g. ``MatchView.position``); refused with :class:`~tally.errors.DealMoved` when
        another scorer has changed it since.
        """
        try:
            card = Card.parse(turn_up)
        except NotationError as exc:
            raise NotationError(f"turn-up: {exc.bare_message}") from None
        with self.writing() as conn:
            loaded = _load(conn, match_id, lock=True)
            _check_position(loaded, expect)
            number = self._next_number(loaded)
            deal = StoredDeal(0, match_id, number, "recorded", str(card), None, None, None, {},
                              utc_now())
            try:
                after = _derive(loaded.match, [*(d.deal for d in loaded.deals), deal])
            except _BadRecord as exc:
                raise RecordError(f"turn-up: {exc.message}") from None
            self._insert_deal(conn, deal)
            _save_results(conn, after, last_only=True)
            view = _deal_view(after, len(after.deals) - 1, False)
            self.audit(conn, "deal start", "deal", deal.id,
                        f"started deal {match_id}.{number}: turn-up {card}, {view.dealer} deals",
                        {f"deal:{deal.id}": None}, {f"deal:{deal.id}": _deal_snapshot(deal)})
        return view

    def play(self, deal_id: int, tokens: str | Sequence[str], *, referee: bool = False,
             as_played: bool = False, expect: Position | str | None = None) -> PlayResult:
        """Record actions (``"KS AS"``, ``"20 QC"``, ``"close"``, ``"66"``) in a deal.

        Refused with the engine's reason, storing nothing, when the record would then describe
        no real deal (RULES.md section 11). An action that would prove a violation is refused
        with :class:`~tally.errors.ViolationNotConfirmed` (the rule broken and the ruling it
        would bring) unless ``as_played``: it is stored only once someone confirms it happened
        at the table. ``expect`` is where the scorer saw the deal (``DealView.position``);
        when given, the write is refused with :class:`~tally.errors.DealMoved` if another
        scorer recorded or undid anything since. ``close`` at the lead is a close after the
        draws, ``close-before-draw`` one before them (:func:`place_items`).
        """
        text = tokens if isinstance(tokens, str) else " ".join(tokens)
        items = parse_items(text)
        if not items:
            raise Refused("nothing to record: give cards or actions (KS, swap, 20 QC, close, 66)")
        with self.writing() as conn:
            loaded, index = self._open_deal(conn, deal_id, expect)
            d = loaded.deals[index]
            assert d.ruling is not None
            items = claimers_known(items, _match_candidates(conn, loaded.match))
            changed, added = _appended(loaded, index, items)
            after = _after_play(loaded, changed, text)
            result = self._played(loaded, after, index, d.ruling, referee,
                                  tuple(a[2] for a in added))
            if result.new_violations and not as_played:
                decided = (d.ruling.outcome is None or d.ruling.outcome.reason == "incomplete"
                           or result.ruling_changed)
                raise ViolationNotConfirmed(
                    violation_message(text, result.new_violations, result.deal, decided),
                    result.new_violations, ruling_words(result.deal), decided)
            self._store_played(conn, loaded, after, index, changed, "deal play",
                               f"played {' '.join(a[2] for a in added)}")
            conn.execute(_INSERT_ACTIONS, [
                {"deal_id": d.deal.id, "seq": s, "trick": tr, "token": tok}
                for s, tr, tok in added])
        return result

    def preview(self, deal_id: int, tokens: str | Sequence[str], *,
                referee: bool = False) -> PlayResult:
        """What :meth:`play` would do with ``tokens``, storing nothing: the same refusals for
        an impossible record, and the violations it would prove (``new_violations``) and the
        ruling it would bring, for a scorer to confirm before recording."""
        text = tokens if isinstance(tokens, str) else " ".join(tokens)
        items = parse_items(text)
        if not items:
            raise Refused("nothing to record: give cards or actions (KS, swap, 20 QC, close, 66)")
        with self.reading() as conn:
            loaded, index = self._open_deal(conn, deal_id, None, lock=False)
            items = claimers_known(items, _match_candidates(conn, loaded.match))
        d = loaded.deals[index]
        assert d.ruling is not None
        changed, added = _appended(loaded, index, items)
        after = _after_play(loaded, changed, text)
        return self._played(loaded, after, index, d.ruling, referee,
                            tuple(a[2] for a in added))

    def legal_tokens(self, deal_id: int) -> list[str]:
        """What may be typed now in a deal being recorded, as far as the record shows:
        each card, ``swap``, marriage (``20 QC``), ``close``, ``close-before-draw`` and claim
        that the engine would accept without proving a violation. Cards a player holds are
        unknown, so a card listed may still turn out to be a revoke later."""
        with self.reading() as conn:
            loaded, index = self._open_deal(conn, deal_id, None, lock=False)
        d = loaded.deals[index]
        assert d.ruling is not None
        deal = d.ruling.state
        if deal is None or (deal.is_over and not (deal.all_tricks_played
                                                  and not deal.claimed)):
            return []
        cards = [c for c in CARDS if loaded.match.rules.deck == 24 or c.rank != Rank.NINE]
        candidates = ["swap", "close", "close-before-draw", "66"]
        for c in cards:
            if c.rank in (Rank.KING, Rank.QUEEN):
                candidates.append(f"20 {c}")
                candidates.append(f"40 {c}")
        candidates += [str(c) for c in cards]
        out = []
        for token in candidates:
            try:
                changed, _ = _appended(loaded, index, parse_items(token))
                after = _after_play(loaded, changed, token)
            except TallyError:
                continue
            ruling = after.deals[index].ruling
            if ruling is not None and len(ruling.violations) == len(d.ruling.violations):
                out.append(token)
        return out

    def undo(self, deal_id: int, *, referee: bool = False,
             expect: Position | str | None = None) -> PlayResult:
        """Remove the last action recorded in a deal (the last deal of its match).

        ``expect`` as for :meth:`play`: refused when the deal moved since the scorer saw it.
        """
        with self.writing() as conn:
            loaded, index = self._open_deal(conn, deal_id, expect)
            d = loaded.deals[index]
            assert d.ruling is not None
            if not d.deal.actions:
                raise Refused(f"deal {loaded.match.id}.{d.deal.number} has no action to undo "
                              f"(to remove the deal itself: `tally deal delete {d.deal.id}`)")
            seq, _trick, token = d.deal.actions[-1]
            conn.execute(delete(t.actions).where((t.actions.c.deal_id == d.deal.id)
                                                 & (t.actions.c.seq == seq)))
            changed = replace(d.deal, actions=d.deal.actions[:-1])
            after = _rederive_last(loaded, changed)
            result = self._played(loaded, after, index, d.ruling, referee, (token,))
            self._store_played(conn, loaded, after, index, changed, "deal undo",
                               f"undid {token}")
        return result

    def _open_deal(self, conn: Connection, deal_id: int, expect: Position | str | None,
                   lock: bool = True) -> tuple[_Loaded, int]:
        """Load (and lock) the match of a deal that actions may be added to (or undone),
        refused when it is not where the scorer saw it (``expect``)."""
        row = conn.execute(_SELECT_DEAL, {"d": deal_id}).first()
        if row is None:
            raise NotFound(f"there is no deal {deal_id}")
        loaded = _load(conn, row.match_id, lock=lock)
        _check_position(loaded, expect)
        index = loaded.index(deal_id)
        name = f"deal {row.match_id}.{row.number}"
        if row.kind == "quick":
            raise Refused(f"{name} was entered as a result (quick entry): it has no record to "
                          "add to or undo")
        if index != len(loaded.deals) - 1:
            raise Refused(f"{name} is not the last deal of match {row.match_id}: "
                          f"correct it with `tally deal edit {deal_id}`")
        return loaded, index

    def _played(self, loaded: _Loaded, after: _Loaded, index: int, ruling_before: Ruling,
                referee: bool, tokens: tuple[str, ...]) -> PlayResult:
        """What a change to the last deal does: new violations, a new ruling."""
        ruling = after.deals[index].ruling
        assert ruling is not None and ruling.outcome is not None
        seen = {(v.seq, v.player, v.rule) for v in ruling_before.violations}
        new_violations = tuple(ViolationView(v.trick, v.player, v.rule, v.message)
                               for v in ruling.violations if (v.seq, v.player, v.rule) not in seen)
        o0 = ruling_before.outcome
        changed_outcome = (ruling.outcome.reason != "incomplete" and
                           (o0 is None or o0 != ruling.outcome))
        return PlayResult(deal=_deal_view(after, index, referee), match=_match_view(after),
                          tokens=tokens, new_violations=new_violations,
                          ruling_changed=changed_outcome)

    def _store_played(self, conn: Connection, loaded: _Loaded, after: _Loaded, index: int,
                      changed: StoredDeal, command: str, what: str) -> None:
        """Rewrite the cached result of the changed last deal and audit the change."""
        _save_results(conn, after, last_only=True)
        old = loaded.deals[index].deal
        self.audit(conn, command, "deal", changed.id,
                    f"deal {loaded.match.id}.{changed.number}: {what}",
                    {f"deal:{changed.id}": _deal_snapshot(old)},
                    {f"deal:{changed.id}": _deal_snapshot(changed)})

    def quick_result(self, match_id: int, *, winner: str | None, points: int,
                     reason: str = "claim") -> DealView:
        """Enter a deal's result without its record: ``winner`` None for a draw.

        ``points`` are the deal's game points without the carry; they are checked against the
        rule set (:func:`tally.match.check_quick_result`).
        """
        with self.writing() as conn:
            loaded = _load(conn, match_id, lock=True)
            m = loaded.match
            winner_id: int | None = None
            winner_name: str | None = None
            if winner is not None:
                winner_name = _resolve_in_match(conn, winner, [m.a_id, m.b_id],
                                                f" in match {match_id}")["name"]
                winner_id = m.player_id(winner_name)
            check_quick_result(m.rules, winner_name, points, reason)
            number = self._next_number(loaded)
            deal = StoredDeal(0, match_id, number, "quick", None, winner_id, points, reason, {},
                              utc_now())
            after = _derive(m, [*(d.deal for d in loaded.deals), deal])
            self._insert_deal(conn, deal)
            _save_results(conn, after, last_only=True)
            view = _deal_view(after, len(after.deals) - 1, False)
            self.audit(conn, "deal quick", "deal", deal.id,
                        f"entered deal {match_id}.{number} as a result: " +
                        (f"{winner_name} {points} ({reason})" if winner_name else "draw"),
                        {f"deal:{deal.id}": None}, {f"deal:{deal.id}": _deal_snapshot(deal)})
        return view

    def import_deals(self, match_id: int, sources: Sequence[tuple[str, str]]) -> list[DealView]:
        """Add ``.deal`` records (``(name, text)`` pairs) as the next deals of a match.

        All or nothing: each must fit the match (players, dealer, rules, carry) and have no
        record errors, else nothing is imported.
        """
        records = [(name, _read_record(text, name)) for name, text in sources]
        with self.writing() as conn:
            loaded = _load(conn, match_id, lock=True)
            views = []
            for name, record in records:
                number = self._next_number(loaded, source=name)
                deal = self._fitted(loaded, record, name, StoredDeal(
                    0, match_id, number, "recorded", None, None, None, None, {}, utc_now()))
                self._insert_deal(conn, deal)
                loaded = _derive(loaded.match, [*(d.deal for d in loaded.deals), deal])
                views.append(_deal_view(loaded, len(loaded.deals) - 1, False))
                self.audit(conn, "deal import", "deal", deal.id,
                            f"imported {name or 'a record'} as deal {match_id}.{number}",
                            {f"deal:{deal.id}": None}, {f"deal:{deal.id}": _deal_snapshot(deal)})
            _save_results(conn, loaded)
        return views

    def export_deal(self, deal_id: int) -> str:
        """A recorded deal as a canonical ``.deal`` record.

        A deal of an event's match carries its context as the loaded examples do: ``Event``
        (the event's name), ``Date`` (the day it is held, ``2026-11-24``) and, for a round
        robin's match, ``Round`` and ``Table``. Tags stored with the deal (an imported
        record's own ``Event``) take precedence.
        """
        with self.reading() as conn:
            loaded, index = _load_deal(conn, deal_id)
            context = _context_tags(conn, loaded.match)
        d = loaded.deals[index]
        if d.record is None:
            raise Refused(f"deal {loaded.match.id}.{d.deal.number} was entered as a result "
                          "(quick entry): it has no record to export")
        return write_deal(replace(d.record, tags={**context, **d.record.tags}))

    def deal_view(self, deal_id: int, *, referee: bool = False) -> DealView:
        """One deal as the score sheet shows it."""
        with self.reading() as conn:
            loaded, index = _load_deal(conn, deal_id)
        return _deal_view(loaded, index, referee)

    def edit_deal(self, deal_id: int, text: str) -> DealView | None:
        """Replace a recorded deal's record with ``text`` (a whole ``.deal`` record).

        The record must keep the match's rules, players and dealer and the derived carry,
        have no record errors, and leave the rest of the match valid (later deals keep their
        dealer). Returns None when nothing changed.
        """
        record = _read_record(text, f"deal {deal_id}")
        with self.writing() as conn:
            loaded, index = _load_deal(conn, deal_id, lock=True)
            for tag, value in _context_tags(conn, loaded.match).items():
                if record.tags.get(tag, "").strip() == value:
                    del record.tags[tag]  # exported from the match's event, not the deal's own
            old = loaded.deals[index].deal
            if old.kind == "quick":
                raise Refused(f"deal {loaded.match.id}.{old.number} was entered as a result "
                              "(quick entry): it has no record to edit")
            new = self._fitted(loaded, record, "the edited record", replace(old), index)
            if _deal_snapshot(new) == _deal_snapshot(old):
                return None
            _write_deal_row(conn, new)
            deals = [d.deal for d in loaded.deals]
            deals[index] = new
            after = _checked(loaded, deals)
            _save_results(conn, after)
            self.audit(conn, "deal edit", "deal", old.id,
                        f"edited deal {loaded.match.id}.{old.number}",
                        {f"deal:{old.id}": _deal_snapshot(old)},
                        {f"deal:{old.id}": _deal_snapshot(new)})
        return _deal_view(after, index, False)

    def delete_deal(self, deal_id: int) -> DealView:
        """Delete the last deal of a match (a deal in the middle would change the ones after
        it: correct it with :meth:`edit_deal` instead). Returns the deal as it was."""
        with self.writing() as conn:
            loaded, index = _load_deal(conn, deal_id, lock=True)
            d = loaded.deals[index].deal
            if index != len(loaded.deals) - 1:
                raise Refused(f"deal {loaded.match.id}.{d.number} is not the last deal of its "
                              "match: only the last deal can be deleted (correct this one with "
                              f"`tally deal edit {deal_id}`)")
            view = _deal_view(loaded, index, False)
            conn.execute(_DELETE_DEAL_RESULT, {"d": d.id})
            conn.execute(delete(t.actions).where(t.actions.c.deal_id == d.id))
            conn.execute(delete(t.deals).where(t.deals.c.id == d.id))
            _save_results(conn, _derive(loaded.match, [x.deal for x in loaded.deals[:-1]]))
            self.audit(conn, "deal delete", "deal", d.id,
                        f"deleted deal {loaded.match.id}.{d.number} ({d.kind})",
                        {f"deal:{d.id}": _deal_snapshot(d)}, {f"deal:{d.id}": None})
        return view

    def _next_number(self, loaded: _Loaded, source: str = "") -> int:
        s = loaded.state
        where = f"{source}: " if source else ""
        if s.over:
            a, b = loaded.match.players
            raise Refused(f"{where}match {loaded.match.id} is over: {s.winner} won "
                          f"{s.score[a]}-{s.score[b]} ({a}-{b}); no more deals")
        if s.in_progress:
            last = loaded.deals[-1].deal
            raise Refused(f"{where}deal {loaded.match.id}.{last.number} is not finished: "
                          "record the rest of it (or undo or delete it) first")
        return len(loaded.deals) + 1

    def _fitted(self, loaded: _Loaded, record: DealRecord, source: str, deal: StoredDeal,
                index: int | None = None) -> StoredDeal:
        """``deal`` with the stored form of ``record``, once the record fits the match at
        ``index`` (the next deal by default) and has no record errors."""
        m = loaded.match
        before = loaded.deals if index is None else loaded.deals[:index]
        state = score_match(m.rules, m.players, m.name(m.first_dealer_id),
                            [d.result for d in before])
        dealer = state.next_dealer or m.a
        forehand = m.b if dealer == m.a else m.a
        tags = record.tags
        try:
            rules = RuleSet.parse(tags.get("Rules", ""))
        except RulesError as exc:
            raise RecordError(f"{source}: {exc}") from None
        if rules != m.rules:
            raise Refused(f'{source}: the record is played under "{rules.spec}", the match '
                          f'under "{m.spec}"')
        canonical = name_matcher(m.players)
        for tag, want in (("Dealer", dealer), ("Forehand", forehand)):
            given = tags.get(tag)
            if given is None:
                continue  # the ruling below reports the missing tag
            if canonical(given) not in m.players:
                raise Refused(f'{source}: {tag} "{given}" does not play in match {m.id} '
                              f"({m.a} and {m.b} do)")
            if canonical(given) != want:
                raise Refused(f"{source}: {tag} is {given}, but in match {m.id} deal "
                              f"{deal.number} is dealt by {dealer} with {forehand} forehand")
        if "Carry" in tags and tags["Carry"].strip() != str(state.carry):
            raise Refused(f'{source}: Carry is "{tags["Carry"]}", but the deals before it '
                          f"carry {state.carry} (the carry is worked out from them)")
        fixed = rename_in_record(record, canonical)
        fixed.tags["Rules"] = m.spec
        fixed.tags["Carry"] = str(state.carry)
        ruling = rule(fixed)
        if ruling.errors:
            raise RecordError(f"{source}: {ruling.errors[0]}")
        turn_up, extra, actions = stored_form(fixed)
        return replace(deal, turn_up=turn_up, tags=extra, actions=actions)

    def _insert_deal(self, conn: Connection, deal: StoredDeal) -> None:
        """Insert a new deal and its actions; ``deal.id`` is set to the new row's id."""
        did = conn.execute(insert(t.deals).values(
            match_id=deal.match_id, number=deal.number, kind=deal.kind, turn_up=deal.turn_up,
            quick_winner_id=deal.quick_winner_id, quick_points=deal.quick_points,
            quick_reason=deal.quick_reason, tags=json.dumps(deal.tags, ensure_ascii=False),
            created_at=deal.created_at).returning(t.deals.c.id)).scalar_one()
        deal.id = int(did)
        _insert_actions(conn, deal)

    # --- the result cache ---------------------------------------------------------------------

    def ensure_results(self) -> int | None:
        """Fill the result cache unless this version of tally filled it: after an upgrade
        from a database without it, or from a tally whose rulings may differ. Returns the
        number of deals ruled, or None when the cache was up to date (one small query).

        Everything that reads the cache (standings, pairings, cross-tables) calls this first;
        ``tally init`` does too.
        """
        with self.reading() as conn:
            version = conn.execute(_SELECT_CACHE_VERSION).scalar_one_or_none()
        if version == RESULTS_VERSION:
            return None
        return self.rebuild_results()

    def rebuild_results(self) -> int:
        """Rebuild the whole result cache from the deals, in one transaction; returns the
        number of deals. A match whose deals no longer fit together gets no rows (it counts
        as unfinished) rather than stopping the rebuild."""
        with self.writing() as conn:
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
            for loaded in _derive_all(conn):
                batch.extend(_result_rows(loaded))
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

    def stale_results(self) -> list[int]:
        """The deals whose cached result differs from a fresh derivation of the stored deals
        (missing and extra rows included), by id; empty when the cache is right."""
        with self.reading() as conn:
            fresh = {row["deal_id"]: row for loaded in _derive_all(conn)
                     for row in _result_rows(loaded)}
            cached = {row["deal_id"]: dict(row)
                      for row in conn.execute(select(t.deal_results)).mappings()}
        return sorted(d for d in set(fresh) | set(cached) if fresh.get(d) != cached.get(d))

    # --- the audit log ------------------------------------------------------------------------

    def audit(self, conn: Connection, command: str, entity: str, entity_id: int, summary: str,
               before: dict[str, Snapshot], after: dict[str, Snapshot]) -> int:
        """Write one audit entry on ``conn`` (a :meth:`writing` connection) and return its
        id; inside :meth:`transaction` the command is prefixed with the transaction's label.
        ``before`` and ``after`` are snapshots (:func:`snapshot`) that :meth:`reverse` puts back."""
        if self._tx is not None:
            self._tx.audited += 1
            command = f"{self._tx.label}: {command}"
        return int(conn.execute(_INSERT_AUDIT, {
            "at": utc_now(), "scorer": self.scorer, "command": command, "entity": entity,
            "entity_id": entity_id, "summary": summary, "reversed_by": None,
            "before": json.dumps(before, ensure_ascii=False, sort_keys=True),
            "after": json.dumps(after, ensure_ascii=False, sort_keys=True),
        }).scalar_one())

    def audit_log(self, *, limit: int | None = None) -> list[AuditView]:
        """The audit log, oldest first (the last ``limit`` entries when given)."""
        q = select(t.audit_log).order_by(t.audit_log.c.id.desc())
        if limit is not None and limit < 0:
            raise Refused(f"--limit {limit}: give how many entries to show (0 or more)")
        if limit is not None:
            q = q.limit(limit)
        with self.reading() as conn:
            rows = conn.execute(q).mappings().all()
        return [_audit_view(r) for r in reversed(rows)]

    def reverse(self, audit_id: int) -> AuditView:
        """Put back the state before audit entry ``audit_id``; the reversal is audited too.

        Refused when what the entry changed has changed again since (reverse the later entries
        first), or when the state before no longer fits (a deal number taken since...).
        """
        with self.writing() as conn:
            row = conn.execute(select(t.audit_log).where(t.audit_log.c.id == audit_id)
                               ).mappings().first()
            if row is None:
                raise NotFound(f"there is no audit entry {audit_id}")
            if row["reversed_by"] is not None:
                raise Refused(f"audit entry {audit_id} was reversed already (by entry "
                              f"{row['reversed_by']})")
            before: dict[str, Snapshot] = json.loads(row["before"] or "{}")
            after: dict[str, Snapshot] = json.loads(row["after"] or "{}")
            keys = sorted(set(before) | set(after))
            match_ids = sorted(_matches_in(keys, before, after))
            for mid in match_ids:
                _lock_match(conn, mid, missing_ok=True)
            roles: dict[int, dict[int, str]] = {}
            for mid in match_ids:
                try:
                    roles[mid] = _load(conn, mid).dealer_roles()
                except (NotFound, Refused):
                    pass
            for key in keys:
                kind, _, ident = key.partition(":")
                now = snapshot(conn, kind, int(ident))
                if _norm(now) != _norm(after.get(key)):
                    later = _later_entries(conn, audit_id, kind, int(ident))
                    raise Refused(f"{kind} {ident} has changed since audit entry {audit_id}"
                                  + (f" (by entries {', '.join(map(str, later))})"
                                     if later else "")
                                  + ": reverse the later changes first")
            _restore(conn, before)
            for mid in match_ids:
                if snapshot(conn, "match", mid) is not None:
                    restored = _load(conn, mid)
                    _keep_dealers(roles.get(mid, {}), restored)
                    _save_results(conn, restored)
            new_id = self.audit(conn, "audit undo", row["entity"], row["entity_id"],
                                 f"reversed entry {audit_id} ({row['summary']})", after, before)
            conn.execute(update(t.audit_log).where(t.audit_log.c.id == audit_id)
                         .values(reversed_by=new_id))
            new_row = conn.execute(select(t.audit_log).where(t.audit_log.c.id == new_id)
                                   ).mappings().one()
        return _audit_view(new_row)


# --- loading -----------------------------------------------------------------------------------


def _first_line(exc: DBAPIError) -> str:
    return str(exc.orig if exc.orig is not None else exc).strip().splitlines()[0]


def _player_by_key(conn: Connection, key: str) -> RowMapping | None:
    return conn.execute(select(t.players.c.id, t.players.c.name)
                        .where(t.players.c.name_key == key)).mappings().first()


def _aliases(conn: Connection, player_id: int | None = None) -> dict[int, list[str]]:
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


def _candidates(conn: Connection, ids: Sequence[int] | None = None) -> list[names.Candidate]:
    """Players as :mod:`tally.names` resolves among them (every player, or those of
    ``ids`` in that order)."""
    q = select(t.players.c.id, t.players.c.name).order_by(t.players.c.name_key)
    if ids is not None:
        q = q.where(t.players.c.id.in_(list(ids)))
    rows = conn.execute(q).all()
    aliases = _aliases(conn)
    found = [names.Candidate(pid, name, tuple(aliases.get(pid, ()))) for pid, name in rows]
    if ids is not None:
        found.sort(key=lambda c: list(ids).index(c.id or 0))
    return found


def _player_row(conn: Connection, player_id: int) -> RowMapping:
    return conn.execute(select(t.players.c.id, t.players.c.name)
                        .where(t.players.c.id == player_id)).mappings().one()


def resolve_player(conn: Connection, ref: str) -> RowMapping:
    """A player by number, name, alias or unique prefix (:func:`tally.names.resolve`);
    an ambiguous reference is refused with the candidates, an unknown one with the closest
    names."""
    names.check_text(ref, "player")
    number = names.as_number(ref)
    if number is not None and number > names.MAX_ID:
        raise names.UnknownName(names.unknown_message(ref, []))
    if number is not None:
        row = conn.execute(select(t.players.c.id, t.players.c.name)
                           .where(t.players.c.id == number)).mappings().first()
        if row is not None:
            return row
    else:
        row = _player_by_key(conn, " ".join(ref.split()).casefold())
        if row is not None:
            return row
    found = names.resolve(ref, _candidates(conn))
    assert found.id is not None
    return _player_row(conn, found.id)


def _resolve_in_match(conn: Connection, ref: str, ids: Sequence[int], where: str) -> RowMapping:
    """One of the players ``ids`` (a match's two): resolved among them first, so that
    ``--dealer A`` means Anna of "Anna v Bert" even when the club has other players whose
    names start with A; a reference to someone else is refused naming the two."""
    names.check_text(ref, "player")
    pair = _candidates(conn, ids)
    if not names.matches(ref, pair):
        try:
            other = resolve_player(conn, ref)
        except NotFound:
            other = None
        if other is not None:
            raise Refused(f'{other["name"]} (#{other["id"]}) does not play{where} '
                          f'({" and ".join(c.name for c in pair)} do)')
    try:
        found = names.resolve_among(ref, pair, where=where)
    except names.UnknownName as exc:
        raise Refused(str(exc)) from None
    assert found.id is not None
    return _player_row(conn, found.id)


def _match_candidates(conn: Connection, match: _Match) -> list[names.Candidate]:
    """The two players of a match with their numbers and aliases, for claims and
    ``--winner`` (:func:`tally.store.records.claimers_known`)."""
    return _candidates(conn, [match.a_id, match.b_id])


def _refuse_taken(conn: Connection, clean: str, *, alias_of: int | None = None,
                  renaming: int | None = None) -> None:
    """Refuse a new name or alias (``alias_of`` its player) that a player is called or goes
    by already, ignoring case, spaces and accents (``renaming``: that player's own name may
    be respelt)."""
    folded = names.fold(clean)
    for c in _candidates(conn):
        if names.fold(c.name) == folded and c.id != renaming:
            if alias_of is not None:
                raise Refused(f'"{clean}" is the name of player #{c.id} "{c.name}": an alias '
                              "cannot be another player's name")
            raise Refused(f'a player named "{c.name}" exists already (#{c.id})'
                          + ("; to make them one, use `tally player merge`"
                             if renaming is not None else
                             "; if this is someone else, give their full name"))
        for a in c.aliases:
            if names.fold(a) == folded:
                if alias_of is not None and c.id == alias_of:
                    raise Refused(f'player #{c.id} "{c.name}" goes by "{a}" already')
                raise Refused(f'"{clean}" is an alias of player #{c.id} "{c.name}" '
                              f'(remove it with `tally player alias {c.id} "{a}" --remove` '
                              "first)")


def _match_ids_of(conn: Connection, player_id: int) -> list[int]:
    return list(conn.execute(select(t.matches.c.id).where(
        (t.matches.c.player_a_id == player_id) | (t.matches.c.player_b_id == player_id))
        .order_by(t.matches.c.id)).scalars())


# The statements of every recorded action, built once (building one costs more than running
# it on SQLite).
_pa, _pb = t.players.alias("pa"), t.players.alias("pb")
_LOCK_MATCH = (select(t.matches.c.id).where(t.matches.c.id == bindparam("m"))
               .with_for_update())
_MATCH_ROWS = (
    select(t.matches.c.id, t.matches.c.player_a_id, t.matches.c.player_b_id,
           _pa.c.name.label("a"), _pb.c.name.label("b"), t.matches.c.rules,
           t.matches.c.first_dealer_id, t.matches.c.created_at, t.matches.c.event_id,
           t.matches.c.round_number, t.matches.c.table_number)
    .join_from(t.matches, _pa, _pa.c.id == t.matches.c.player_a_id)
    .join(_pb, _pb.c.id == t.matches.c.player_b_id))
_SELECT_MATCH = _MATCH_ROWS.where(t.matches.c.id == bindparam("m"))
_SELECT_ALL_MATCHES = _MATCH_ROWS.order_by(t.matches.c.id)
_SELECT_DEALS = (select(t.deals).where(t.deals.c.match_id == bindparam("m"))
                 .order_by(t.deals.c.number))
_SELECT_ACTIONS = (
    select(t.actions.c.deal_id, t.actions.c.seq, t.actions.c.trick, t.actions.c.token)
    .join_from(t.actions, t.deals, t.deals.c.id == t.actions.c.deal_id)
    .where(t.deals.c.match_id == bindparam("m")).order_by(t.actions.c.deal_id, t.actions.c.seq))
_SELECT_DEAL = (select(t.deals.c.match_id, t.deals.c.number, t.deals.c.kind)
                .where(t.deals.c.id == bindparam("d")))
_INSERT_ACTIONS = insert(t.actions)
_INSERT_AUDIT = insert(t.audit_log).returning(t.audit_log.c.id)


def _lock_match(conn: Connection, match_id: int, missing_ok: bool = False) -> None:
    """Lock a match's row until the transaction ends. On SQLite every write transaction
    holds the database's write lock already (BEGIN IMMEDIATE)."""
    if conn.dialect.name == "sqlite":
        return
    found = conn.execute(_LOCK_MATCH, {"m": match_id}).first()
    if found is None and not missing_ok:
        raise NotFound(f"there is no match {match_id}")


def _load_match(conn: Connection, match_id: int) -> _Match:
    row = conn.execute(_SELECT_MATCH, {"m": match_id}).first()
    if row is None:
        raise NotFound(f"there is no match {match_id}")
    return _Match(*row)


def _load_deals(conn: Connection, match_id: int) -> list[StoredDeal]:
    deals = [StoredDeal(r.id, r.match_id, r.number, r.kind, r.turn_up, r.quick_winner_id,
                        r.quick_points, r.quick_reason, json.loads(r.tags or "{}"), r.created_at)
             for r in conn.execute(_SELECT_DEALS, {"m": match_id})]
    by_id = {deal.id: deal for deal in deals}
    for deal_id, seq, trick, token in conn.execute(_SELECT_ACTIONS, {"m": match_id}):
        by_id[deal_id].actions.append((seq, trick, token))
    return deals


_SELECT_CACHE_VERSION = select(t.cache_state.c.version).where(
    t.cache_state.c.name == "deal_results")


def _derive_all(conn: Connection) -> Iterator[_Loaded]:
    """Every match, derived, read with three queries (not three per match); matches whose
    deals do not fit together are left out."""
    matches = [_Match(*row) for row in conn.execute(_SELECT_ALL_MATCHES)]
    deals: dict[int, list[StoredDeal]] = {}
    by_id: dict[int, StoredDeal] = {}
    for r in conn.execute(select(t.deals).order_by(t.deals.c.match_id, t.deals.c.number)):
        deal = StoredDeal(r.id, r.match_id, r.number, r.kind, r.turn_up, r.quick_winner_id,
                          r.quick_points, r.quick_reason, json.loads(r.tags or "{}"),
                          r.created_at)
        deals.setdefault(deal.match_id, []).append(deal)
        by_id[deal.id] = deal
    for deal_id, seq, trick, token in conn.execute(
            select(t.actions.c.deal_id, t.actions.c.seq, t.actions.c.trick, t.actions.c.token)
            .order_by(t.actions.c.deal_id, t.actions.c.seq)):
        by_id[deal_id].actions.append((seq, trick, token))
    for match in matches:
        try:
            yield _derive(match, deals.get(match.id, []))
        except Refused:
            continue


def _load(conn: Connection, match_id: int, lock: bool = False) -> _Loaded:
    if lock:
        _lock_match(conn, match_id)
    match = _load_match(conn, match_id)
    return _derive(match, _load_deals(conn, match_id))


def _load_deal(conn: Connection, deal_id: int, lock: bool = False) -> tuple[_Loaded, int]:
    match_id = conn.execute(select(t.deals.c.match_id).where(t.deals.c.id == deal_id)
                            ).scalar_one_or_none()
    if match_id is None:
        raise NotFound(f"there is no deal {deal_id}")
    loaded = _load(conn, match_id, lock)
    return loaded, loaded.index(deal_id)


def _resolve_deal(conn: Connection, ref: str | int) -> int:
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


def _read_record(text: str, source: str) -> DealRecord:
    try:
        return read_deal(text, source=source)
    except NotationError as exc:
        raise RecordError(f"{source}: {exc}") from None


def _checked(loaded: _Loaded, deals: list[StoredDeal]) -> _Loaded:
    """The match with ``deals`` instead, refused if they no longer fit together."""
    after = _derive(loaded.match, deals)
    _keep_dealers(loaded.dealer_roles(), after)
    return after


def _keep_dealers(before: dict[int, str], after: _Loaded) -> None:
    """Refuse a change that makes another player the dealer of a deal already stored (with
    next_dealer=winner a changed result does): its record would describe other play."""
    for role, d in zip(after.dealer_roles().values(), after.deals, strict=True):
        if before.get(d.deal.id, role) != role:
            raise Refused(f"the change would make another player the dealer of deal "
                          f"{after.match.id}.{d.deal.number} (next_dealer=winner): delete the "
                          "later deals first")


# --- writing and restoring rows -----------------------------------------------------------------


def _insert_actions(conn: Connection, deal: StoredDeal) -> None:
    if deal.actions:
        conn.execute(_INSERT_ACTIONS, [
            {"deal_id": deal.id, "seq": s, "trick": tr, "token": tok}
            for s, tr, tok in deal.actions])


def _write_deal_row(conn: Connection, deal: StoredDeal) -> None:
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
    _insert_actions(conn, replace(deal, actions=[(seq, *wanted[seq]) for seq in sorted(wanted)
                                                 if seq not in stored]))


def snapshot(conn: Connection, kind: str, ident: int) -> Snapshot:
    """The stored state of one player, event, match or deal, as JSON-ready data (None if
    absent)."""
    if kind == "event":
        return eventrows.event_snapshot(conn, ident)
    if kind == "deal":
        row = conn.execute(select(t.deals).where(t.deals.c.id == ident)).first()
        if row is None:
            return None
        deal = StoredDeal(row.id, row.match_id, row.number, row.kind, row.turn_up,
                          row.quick_winner_id, row.quick_points, row.quick_reason,
                          json.loads(row.tags or "{}"), row.created_at)
        deal.actions = [(a[0], a[1], a[2]) for a in conn.execute(
            select(t.actions.c.seq, t.actions.c.trick, t.actions.c.token)
            .where(t.actions.c.deal_id == ident).order_by(t.actions.c.seq))]
        return _deal_snapshot(deal)
    table = {"player": t.players, "match": t.matches}.get(kind)
    if table is None:
        raise NotFound(f"unknown kind of record {kind!r} in the audit log")
    found = conn.execute(select(table).where(table.c.id == ident)).mappings().first()
    if found is None:
        return None
    snap = {k: _iso(v) if isinstance(v, datetime) else v for k, v in found.items()}
    if kind == "player":
        # Only when there are any: snapshots from before aliases existed stay comparable.
        aliases = _aliases(conn, ident).get(ident)
        if aliases:
            snap["aliases"] = aliases
    return snap


def _matches_in(keys: list[str], before: dict[str, Snapshot],
                after: dict[str, Snapshot]) -> set[int]:
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
    deals are written; deals, then matches, then events, then players are deleted."""
    order = {"player": 0, "event": 1, "match": 2, "deal": 3}
    keys = sorted(state, key=lambda k: order[k.partition(":")[0]])
    players = [int(k.partition(":")[2]) for k in keys if k.startswith("player:")]
    if players:  # aliases may move between the players restored (a merge)
        conn.execute(delete(t.player_aliases).where(t.player_aliases.c.player_id.in_(players)))
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
    if kind == "deal":
        deal = StoredDeal(snap["id"], snap["match_id"], snap["number"], snap["kind"],
                          snap["turn_up"], snap["quick_winner_id"], snap["quick_points"],
                          snap["quick_reason"], dict(snap["tags"]),
                          datetime.fromisoformat(snap["created_at"]),
                          [(a[0], a[1], a[2]) for a in snap["actions"]])
        exists = conn.execute(select(t.deals.c.id).where(t.deals.c.id == deal.id)).first()
        if exists is None:
            conn.execute(insert(t.deals).values(
                id=deal.id, match_id=deal.match_id, number=deal.number, kind=deal.kind,
                turn_up=deal.turn_up, quick_winner_id=deal.quick_winner_id,
                quick_points=deal.quick_points, quick_reason=deal.quick_reason,
                tags=json.dumps(deal.tags, ensure_ascii=False), created_at=deal.created_at))
            _insert_actions(conn, deal)
        else:
            _write_deal_row(conn, deal)
        return
    table = t.players if kind == "player" else t.matches
    values = {k: datetime.fromisoformat(v) if k in ("created_at",) and v else v
              for k, v in snap.items() if k != "aliases"}
    exists = conn.execute(select(table.c.id).where(table.c.id == snap["id"])).first()
    if exists is None:
        conn.execute(insert(table).values(values))
    else:
        conn.execute(update(table).where(table.c.id == snap["id"]).values(values))
    if kind == "player":
        _put_aliases(conn, snap["id"], snap.get("aliases", []))


def _put_aliases(conn: Connection, player_id: int, aliases: Sequence[str]) -> None:
    """Make a player's aliases ``aliases``; refused when another player goes by one of
    them now (:func:`_restore` has cleared the aliases of every player it restores)."""
    pa = t.player_aliases
    conn.execute(delete(pa).where(pa.c.player_id == player_id))
    keys = [names.fold(a) for a in aliases]
    if keys:
        held = conn.execute(select(pa.c.alias, pa.c.player_id).where(pa.c.alias_key.in_(keys))
                            ).first()
        if held is not None:
            raise Refused(f'player #{held[1]} goes by "{held[0]}" now: remove that alias '
                          "first")
        conn.execute(insert(pa), [{"player_id": player_id, "alias": a, "alias_key": k,
                                   "created_at": utc_now()} for a, k in zip(aliases, keys,
                                                                         strict=True)])


def _remove(conn: Connection, kind: str, ident: int) -> None:
    if kind == "deal":
        conn.execute(_DELETE_DEAL_RESULT, {"d": ident})
        conn.execute(delete(t.actions).where(t.actions.c.deal_id == ident))
        conn.execute(delete(t.deals).where(t.deals.c.id == ident))
    elif kind == "match":
        if conn.execute(select(t.deals.c.id).where(t.deals.c.match_id == ident)).first():
            raise Refused(f"match {ident} has deals: delete them first")
        conn.execute(delete(t.matches).where(t.matches.c.id == ident))
    elif kind == "event":
        eventrows.remove_event(conn, ident)
    else:
        if _match_ids_of(conn, ident):
            raise Refused(f"player #{ident} plays in matches, so the entry stays")
        if eventrows.events_of_player(conn, ident):
            raise Refused(f"player #{ident} plays in events, so the entry stays")
        conn.execute(delete(t.player_aliases).where(t.player_aliases.c.player_id == ident))
        conn.execute(delete(t.players).where(t.players.c.id == ident))


def _later_entries(conn: Connection, audit_id: int, kind: str, ident: int) -> list[int]:
    return list(conn.execute(select(t.audit_log.c.id).where(
        (t.audit_log.c.id > audit_id) & (t.audit_log.c.entity == kind)
        & (t.audit_log.c.entity_id == ident) & t.audit_log.c.reversed_by.is_(None))
        .order_by(t.audit_log.c.id).limit(10)).scalars())


def _audit_view(row: RowMapping) -> AuditView:
    return AuditView(id=row["id"], at=_iso(row["at"]), scorer=row["scorer"],
                     command=row["command"], entity=row["entity"], entity_id=row["entity_id"],
                     summary=row["summary"],
                     before=json.loads(row["before"]) if row["before"] else None,
                     after=json.loads(row["after"]) if row["after"] else None,
                     reversed_by=row["reversed_by"])
