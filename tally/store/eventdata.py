"""What a computation of an event loads: its entrants, options, absences and rounds
(:class:`LoadedEvent`), its matches with their totals (:class:`EventData`), and the event's view
(:class:`~tally.store.views.EventView`). The standings and the rounds are made from these."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, case, func, select
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.sql import ColumnElement

from tally.engine.kernel import OUTRIGHT, SCHNEIDER_WIN, SCHWARZ_WIN, match_won
from tally.errors import Message, Refused
from tally.events.formats import EventFormat, every_option, format_of
from tally.events.schedule import Round
from tally.events.tiebreaks import Ranking
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.derivation import Results, rule_set
from tally.store.transactions import Database
from tally.store.views import EventPlayerView, EventView

__all__ = [
    "EventData",
    "EventMatch",
    "LoadedEvent",
    "add_names",
    "event_row",
    "event_view",
    "load_events",
    "load_one",
    "lock_event",
    "round_started",
    "schedule_of",
    "total_rounds",
]


def lock_event(conn: Connection, ref: str | int) -> RowMapping:
    """An event, its row locked until the transaction ends (PostgreSQL; on SQLite the write
    transaction holds the database already)."""
    return eventrows.resolve_event(conn, ref, lock=True)


def round_started(conn: Connection, event_id: int, number: int | None = None) -> bool:
    q = select(t.event_rounds.c.number).where(t.event_rounds.c.event_id == event_id)
    if number is not None:
        q = q.where(t.event_rounds.c.number == number)
    return conn.execute(q.limit(1)).first() is not None


@dataclass(frozen=True)
class _Entrant:
    player_id: int
    seed: int
    withdrawn: bool
    #: when they withdrew (None: still in)
    withdrawn_at: datetime | None = None


@dataclass(frozen=True)
class LoadedEvent:
    id: int
    name: str
    kind: str
    held_on: date
    rules: str
    double: bool
    matches_per_pairing: int
    match_points_per_win: float
    bye: str
    withdrawal: str
    tiebreaks: tuple[str, ...]
    entrants: tuple[_Entrant, ...]
    #: round number -> who sits out (None: nobody)
    started: dict[int, int | None]
    rank_by: str = "points"
    #: the rounds a Swiss event plays (None for other kinds)
    rounds: int | None = None
    #: a double round robin's first cycle plays its last two rounds the other way round
    swap_last_rounds: bool = False
    acceleration: str = "none"
    unplayed: str = "as-scored"
    #: the pairs of player ids kept apart (:mod:`tally.store.control`)
    apart: tuple[tuple[int, int], ...] = ()
    #: what a requested bye scores (``half`` or ``zero``) and the absences announced, as
    #: (round, player id) (:mod:`tally.store.absences`)
    absence_score: str = "half"
    absences: tuple[tuple[int, int], ...] = ()
    #: round number -> when it was started
    started_at: dict[int, datetime] = field(default_factory=dict)
    #: a Swiss event's repeated floats: ``allow`` or ``avoid``
    repeated_floats: str = "allow"
    #: a Swiss event's pairs kept apart until this round (None: every round), giving way
    #: before they move the bye (``apart_keeps_bye``)
    apart_until: int | None = None
    apart_keeps_bye: bool = False
    #: the no-shows recorded, as (round, player id) (:mod:`tally.store.noshows`)
    no_shows: tuple[tuple[int, int], ...] = ()
    #: a team event's boards per team and the Bummerl a race of two teams is to (None for
    #: other kinds; None: no race)
    team_play: tuple[int | None, int | None] = (None, None)

    def no_show(self, number: int | None, a: int, b: int) -> tuple[bool, int | None]:
        """Whether a no-show decides the match of ``a`` and ``b`` in round ``number``
        (:mod:`tally.store.noshows`), and who wins it: the one who came, nobody (None) when
        neither did."""
        if not self.no_shows or number is None:
            return False, None
        gone = {p for k, p in self.no_shows if k == number and p in (a, b)}
        if not gone:
            return False, None
        return True, (None if len(gone) == 2 else (b if a in gone else a))

    #: a round robin's withdrawn players whose results are struck out (they finished fewer
    #: than half of their matches: :func:`tally.events.withdrawals.annulled`)
    annulled: frozenset[int] = frozenset()

    def absent(self, number: int) -> set[int]:
        """Who announced they miss round ``number``."""
        return {p for k, p in self.absences if k == number}

    @property
    def absence_points(self) -> float:
        """The match points of a requested bye."""
        return self.match_points_per_win / 2 if self.absence_score == "half" else 0.0

    @property
    def ranking(self) -> Ranking:
        """How the event's standings rank, its settings as one value."""
        per_win = self.match_points_per_win
        per_bye = per_win if self.bye == "win" else 0.0
        return Ranking(
            self.tiebreaks, self.rank_by, per_win, per_bye, self.absence_points, self.unplayed
        )

    @property
    def format(self) -> EventFormat:
        return format_of(self.kind)

    @property
    def round_robin(self) -> bool:
        """Its rounds are made in advance (a schedule)."""
        return self.format.has_rounds_made_in_advance

    @property
    def withdrawn(self) -> set[int]:
        return {e.player_id for e in self.entrants if e.withdrawn}

    @property
    def left(self) -> dict[int, datetime]:
        """Withdrawn player -> when they withdrew (:mod:`tally.events.withdrawals`)."""
        return {e.player_id: e.withdrawn_at for e in self.entrants if e.withdrawn_at}

    def since(self, number: int) -> datetime | None:
        """When round ``number`` was started; a round not started yet: after every
        withdrawal so far (a scheduled match there is shown as it would be credited)."""
        if number in self.started_at:
            return self.started_at[number]
        return max(self.left.values(), default=None)


class EventMatch(NamedTuple):
    """A match of an event with its totals summed from the result cache: game points,
    schneider and schwarz wins of player ``a`` and ``b``, and the winner once one has reached
    the match target."""

    id: int
    event_id: int
    a: int
    b: int
    first_dealer: int
    rules: str
    round_number: int | None
    table_number: int | None
    gp_a: int = 0
    gp_b: int = 0
    schneider_a: int = 0
    schneider_b: int = 0
    schwarz_a: int = 0
    schwarz_b: int = 0
    winner: int | None = None

    def points(self, player: int) -> int:
        """The game points ``player`` scored in the match."""
        return self.gp_a if player == self.a else self.gp_b if player == self.b else 0


@dataclass(frozen=True)
class EventData:
    events: list[LoadedEvent]
    matches: list[EventMatch]
    names: dict[int, str]
    by_event: dict[int, list[EventMatch]] = field(default_factory=dict)

    def name(self, player_id: int) -> str:
        return self.names[player_id]

    def matches_of(self, event_id: int) -> list[EventMatch]:
        """The matches of one event, oldest first."""
        return self.by_event.get(event_id, [])


def _entrants(conn: Connection, chosen: Any) -> dict[int, list[_Entrant]]:
    """The players of the events ``chosen`` (a select of their ids), by event, in seed order."""
    entrants: dict[int, list[_Entrant]] = defaultdict(list)
    for r in conn.execute(
        select(t.event_players)
        .where(t.event_players.c.event_id.in_(chosen))
        .order_by(t.event_players.c.event_id, t.event_players.c.seed)
    ).mappings():
        entrants[r["event_id"]].append(
            _Entrant(r["player_id"], r["seed"], r["withdrawn_at"] is not None, r["withdrawn_at"])
        )
    return entrants


def _started_rounds(
    conn: Connection, chosen: Any
) -> tuple[dict[int, dict[int, int | None]], dict[int, dict[int, datetime]]]:
    """The rounds started of the events ``chosen``, by event: each round's bye (its player,
    or None) and when it was started."""
    started: dict[int, dict[int, int | None]] = defaultdict(dict)
    started_at: dict[int, dict[int, datetime]] = defaultdict(dict)
    for r in conn.execute(
        select(t.event_rounds).where(t.event_rounds.c.event_id.in_(chosen))
    ).mappings():
        started[r["event_id"]][r["number"]] = r["bye_player_id"]
        started_at[r["event_id"]][r["number"]] = r["started_at"]
    return started, started_at


def load_events(
    conn: Connection, which: ColumnElement[bool], *, with_matches: bool = True
) -> EventData:
    """The events ``which`` selects with their players, rounds, matches and the matches'
    totals summed from the result cache (one GROUP BY query); ``with_matches=False`` leaves
    the matches out (standings sum them in SQL: :mod:`tally.store.standings`)."""
    ev_rows = (
        conn.execute(select(t.events).where(which).order_by(t.events.c.held_on, t.events.c.id))
        .mappings()
        .all()
    )
    ids = [r["id"] for r in ev_rows]
    chosen = select(t.events.c.id).where(which)
    entrants = _entrants(conn, chosen)
    started, started_at = _started_rounds(conn, chosen)
    absent = eventrows.absences_by_event(conn, chosen)
    missed = eventrows.no_shows_by_event(conn, chosen)
    matches: list[EventMatch] = []
    by_event: dict[int, list[EventMatch]] = {}
    if with_matches:
        matches, by_event = _load_matches(conn, chosen, len(ids) > 1)
    wanted = {p for es in entrants.values() for p in (e.player_id for e in es)}
    wanted |= {p for mt in matches for p in (mt.a, mt.b)}
    evs = [
        LoadedEvent(
            r["id"],
            r["name"],
            r["kind"],
            r["held_on"],
            r["rules"],
            bool(r["double_round"]),
            r["matches_per_pairing"],
            float(r["match_points_per_win"]),
            r["bye"],
            r["withdrawal"],
            tuple(x for x in r["tiebreaks"].split(",") if x),
            tuple(entrants.get(r["id"], [])),
            dict(started.get(r["id"], {})),
            r["rank_by"],
            r["rounds"],
            bool(r["swap_last_rounds"]),
            r["acceleration"],
            r["unplayed"],
            tuple(eventrows.apart_pairs(conn, r["id"])) if len(ev_rows) == 1 else (),
            r["absence_score"],
            tuple(absent.get(r["id"], ())),
            dict(started_at.get(r["id"], {})),
            r["repeated_floats"],
            r["apart_until"],
            bool(r["apart_keeps_bye"]),
            tuple(missed.get(r["id"], ())),
            (r["boards"], r["first_to"]),
        )
        for r in ev_rows
    ]
    assert [e.id for e in evs] == ids
    evs = _with_annulled(conn, evs, by_event if with_matches else None)
    data = EventData(evs, matches, {}, dict(by_event))
    add_names(conn, data, wanted)
    return data


def _with_annulled(
    conn: Connection, evs: list[LoadedEvent], by_event: dict[int, list[EventMatch]] | None
) -> list[LoadedEvent]:
    """``evs`` with each round robin's struck-out players (:attr:`LoadedEvent.annulled`):
    under the ``forfeit`` rule, a withdrawn player who finished fewer than half of the matches
    the schedule gives them. ``by_event``: the events' matches (None: not loaded; read here
    for the events that need them)."""
    from dataclasses import replace

    from tally.events.withdrawals import annulled

    need = [e for e in evs if e.round_robin and e.withdrawal == "forfeit" and e.withdrawn]
    if not need:
        return evs
    if by_event is None:
        chosen = select(t.events.c.id).where(t.events.c.id.in_([e.id for e in need]))
        by_event = _load_matches(conn, chosen, False)[1]
    struck: dict[int, frozenset[int]] = {}
    for e in need:
        finished: Counter[int] = Counter()
        for m in by_event.get(e.id, []):
            if m.winner is not None:
                finished.update((m.a, m.b))
        scheduled: Counter[int] = Counter()
        for rnd in schedule_of(e):
            for p in rnd.pairings:
                scheduled.update((int(p.first), int(p.second)))
        per = e.matches_per_pairing
        struck[e.id] = annulled(e.withdrawn, finished, {p: n * per for p, n in scheduled.items()})
    return [replace(e, annulled=struck[e.id]) if struck.get(e.id) else e for e in evs]


def add_names(conn: Connection, data: EventData, ids: set[int]) -> None:
    """Read the names of the players ``ids`` that ``data`` does not know yet."""
    wanted = ids - data.names.keys()
    if wanted:
        data.names.update(
            (pid, name)
            for pid, name in conn.execute(
                select(t.players.c.id, t.players.c.name).where(t.players.c.id.in_(sorted(wanted)))
            )
        )


_SELECT_MATCHES = select(
    t.matches.c.id,
    t.matches.c.event_id,
    t.matches.c.player_a_id,
    t.matches.c.player_b_id,
    t.matches.c.first_dealer_id,
    t.matches.c.rules,
    t.matches.c.round_number,
    t.matches.c.table_number,
)


def _winner_totals() -> Any:
    """Per match and deal winner: the game points won, and the schneider and schwarz wins,
    summed in SQL from the result cache, which holds each deal's game points (so nothing
    here re-derives them). One GROUP BY over ``deal_results`` alone, read in the order of
    its (match_id, winner_id, ...) covering index: no join, no temporary B-tree."""
    r = t.deal_results
    outright = r.c.reason.in_([str(reason) for reason in OUTRIGHT])

    def wins(worth: int) -> Any:
        return func.sum(case((and_(r.c.deal_points == worth, outright), 1), else_=0))

    return (
        select(
            r.c.match_id,
            r.c.winner_id,
            func.sum(r.c.game_points),
            wins(SCHNEIDER_WIN),
            wins(SCHWARZ_WIN),
        )
        .where(r.c.winner_id.is_not(None))
        .group_by(r.c.match_id, r.c.winner_id)
    )


_SELECT_WINNER_TOTALS = _winner_totals()


def _fetch(conn: Connection, query: Any) -> list[Any]:
    """All rows of ``query`` as the driver's tuples, for queries of plain integers and text
    (SQLAlchemy's row processing would add nothing but time)."""
    return list(conn.execute(query).cursor.fetchall())


def _load_matches(
    conn: Connection, chosen: Any, many: bool
) -> tuple[list[EventMatch], dict[int, list[EventMatch]]]:
    """The matches of the events ``chosen`` selects, oldest first, each with its totals and
    its winner once a player has reached the match target; also the same by event.

    The totals are read for the range of the chosen match ids and matched up here: a range
    scan of the cache's index is several times faster than an IN (...) or a join over a
    season of a million deals, and for one event the range is small."""
    # The rows are plain integers and text that need no conversion: they are read straight
    # from the driver's cursor, which saves a third of the time on a season of 100,000 matches.
    event_id: Any = t.matches.c.event_id
    if many:
        # "event_id + 0" keeps SQLite off the event index: for a season, one scan of the
        # matches in id order is twice as fast as an index search and a sort.
        event_id = event_id + 0
    rows = _fetch(conn, _SELECT_MATCHES.where(event_id.in_(chosen)).order_by(t.matches.c.id))
    totals: dict[tuple[int, int], Sequence[int]] = {}
    if rows:
        span = t.deal_results.c.match_id.between(rows[0][0], rows[-1][0])
        totals = {(r[0], r[1]): r for r in _fetch(conn, _SELECT_WINNER_TOTALS.where(span))}
    matches: list[EventMatch] = []
    by_event: dict[int, list[EventMatch]] = defaultdict(list)
    targets: dict[str, int] = {}
    make = EventMatch._make
    none = (0, 0, 0, 0, 0)
    for row in rows:
        mid, a, b, spec = row[0], row[2], row[3], row[5]
        ta, tb = totals.get((mid, a), none), totals.get((mid, b), none)
        target = targets.get(spec)
        if target is None:
            target = targets[spec] = rule_set(spec).match_target
        winner = a if match_won(ta[2], target) else b if match_won(tb[2], target) else None
        match = make((*row, ta[2], tb[2], ta[3], tb[3], ta[4], tb[4], winner))
        matches.append(match)
        by_event[row[1]].append(match)
    return matches, dict(by_event)


def schedule_of(e: LoadedEvent) -> list[Round]:
    """The Berger schedule of a round robin, over player ids (as text) in seed order."""
    if not e.round_robin:
        raise Refused(
            Message(
                N_('event %(id)s "%(name)s" is a %(kind)s: it has no schedule'),
                id=e.id,
                name=e.name,
                kind=Message(e.format.audit_name),
            )
        )
    if len(e.entrants) < 2:
        return []
    return e.format.schedule(
        [str(p.player_id) for p in e.entrants],
        {
            "double_round": e.double,
            "swap_last_rounds": e.swap_last_rounds,
            "boards": e.team_play[0],
            "first_to": e.team_play[1],
        },
    )


def load_one(store: Database, ref: str | int) -> tuple[EventView, EventData, LoadedEvent]:
    """One event with what its cross-table needs: its view, its loaded data and itself."""
    Results(store).ensure()
    with store.reading() as conn:
        ev = eventrows.resolve_event(conn, ref)
        data = load_events(conn, t.events.c.id == ev["id"])
        view = event_view(conn, ev)
    return view, data, data.events[0]


def event_row(conn: Connection, event_id: int) -> RowMapping:
    return conn.execute(select(t.events).where(t.events.c.id == event_id)).mappings().one()


def _option_fields(row: RowMapping) -> dict[str, Any]:
    """The formats' options kept in the ``events`` row, from the table of
    :mod:`tally.events.formats.options`: all of them by key as the view's ``options`` (what
    ``--json`` and the event file write), and those the view names as fields of their own
    (``rounds`` is the view's count of rounds)."""
    from dataclasses import fields as fields_of

    shown = {f.name for f in fields_of(EventView)} - {"rounds", "options"}
    kept: dict[str, Any] = {}
    for name, option in every_option().items():
        column = option.events_column()
        if column is not None and column in row:
            kept[name] = bool(row[column]) if option.type == "bool" else row[column]
    return {name: value for name, value in kept.items() if name in shown} | {"options": kept}


def event_view(conn: Connection, row: RowMapping) -> EventView:
    eid = row["id"]
    entrants = eventrows.event_players(conn, eid)
    started = tuple(
        conn.execute(
            select(t.event_rounds.c.number)
            .where(t.event_rounds.c.event_id == eid)
            .order_by(t.event_rounds.c.number)
        ).scalars()
    )
    count = conn.execute(
        select(func.count()).select_from(t.matches).where(t.matches.c.event_id == eid)
    ).scalar_one()
    total = format_of(row["kind"]).total_rounds(len(entrants), dict(row))
    names = {p["player_id"]: p["name"] for p in entrants}
    return EventView(
        id=eid,
        name=row["name"],
        date=row["held_on"],
        kind=row["kind"],
        rules=row["rules"],
        players=tuple(
            EventPlayerView(
                p["seed"],
                p["name"],
                None if p["withdrawn_at"] is None else p["withdrawn_at"].isoformat(),
                p["seed_rating"],
            )
            for p in entrants
        ),
        match_points_per_win=float(row["match_points_per_win"]),
        bye=row["bye"],
        withdrawal=row["withdrawal"],
        tiebreaks=tuple(x for x in row["tiebreaks"].split(",") if x),
        rounds=total,
        rounds_started=started,
        matches=int(count),
        created_at=row["created_at"].isoformat(),
        rank_by=row["rank_by"],
        language=row["language"] or "",
        seeded=bool(row["seeded"]),
        check_in=bool(row["check_in"]),
        **_option_fields(row),
        teams=eventrows.event_teams(conn, eid),
        absences=tuple((n, names[p]) for n, p in eventrows.absences(conn, eid)),
        no_shows=tuple(
            (n, names[p]) for n, p in eventrows.no_shows_by_event(conn, [eid]).get(eid, [])
        ),
    )


def total_rounds(e: LoadedEvent) -> int:
    """The rounds an event plays: a Swiss event's number, a round robin's schedule."""
    if not e.round_robin:
        return e.rounds or 0
    return len(schedule_of(e))
