"""Events: club evenings, round robins and Swiss events, their rounds, standings and
cross-tables.

Every function takes an open :class:`~tally.store.Store`, does its work in one transaction and
returns plain frozen dataclasses (:mod:`tally.store.views`)::

    with open_store("club.db") as store:
        ev = create_event(store, "Autumn cup", kind="round-robin",
                          players=["Anna", "Bert", "Carl", "Dora", "Emil"])
        start_round(store, ev.id, 1)          # the matches of round 1, from the schedule
        ...
        table = standings(store, ev.id)       # StandingsView: rows of tally.events.tiebreaks

**Club evening** (``kind="club"``): no schedule; matches are started for the evening
(``Store.start_match(..., event=...)``) in any pairing, as many per pair as are played.

**Round robin** (``kind="round-robin"``): single or double (``double``), paired by
:func:`tally.events.schedule.berger_schedule` over the players in seed order. Each pairing plays
``matches_per_pairing`` matches (one Bummerl by default); :meth:`Events.start_round` makes a round's
matches at once, each with its round and table, the pairing's first player dealing first in
its first match (:func:`tally.events.schedule.first_dealer`) and the first dealer alternating over
the pairing's further matches. With an odd number of players one sits out each round: the bye
scores nothing (``bye="none"``, the default) or as much as a won match (``bye="win"``), and it
counts once its round is started.

**Swiss** (``kind="swiss"``, ``rounds`` rounds): each round is paired by
:func:`tally.events.swiss.pair_round` (its docstring has the pairing rules) from the standings as
they are when the round is started: the players not withdrawn, in the order of the standings
(match points, then the event's tiebreaks, then the entry number), the opponents each has met
and the first deals each has had (the first match of each pairing of an earlier round). A
round is paired and started only once the round before it is **finished** (every match of it
won, or left to the withdrawal rule by a withdrawn player): :meth:`Events.start_round` refuses it
before, naming the matches still being played, and :meth:`Events.rounds` shows the next round's
pairings as they would be made (not stored) once the round before is finished. The pairings of
a started round are stored as its matches (round, table, first dealer), so later corrections
to results never change a round already paired. The bye follows the event's ``bye`` rule as
in a round robin. **Late entries:** :meth:`Events.add_players` adds a player while rounds remain to
be started; they join the next round paired with 0 match points (the rounds they missed score
nothing and count as no bye). **Withdrawals** work as in a round robin: the withdrawn player
takes no further pairing, their matches not over follow the withdrawal rule. A Swiss event
ranks by :data:`tally.events.tiebreaks.SWISS_TIEBREAKS` unless given its own tiebreaks.

**Withdrawal** (:meth:`Events.withdraw`): a withdrawn player's *remaining* matches are every
match of theirs in the event not over when they withdrew, and for a round robin every
scheduled match of theirs not made, once its round is started. Each event says what becomes
of them (a game played stands: :mod:`tally.events.withdrawals`):

- ``forfeit`` (the default): each is a match won by the opponent: played, won and match points
  for the opponent, played and lost for the withdrawn player, with the game points recorded in
  it (none for a match never made). In a cross-table they show as ``+`` and ``-``.
- ``void``: they drop out of the standings, as if they had never been scheduled.

Matches the withdrawn player finished count as played, under both rules; a forfeit credited
stays when its winner withdraws later; a match whose two players had both withdrawn when it
arose is void under both. A withdrawn player sits out the rounds started after the
withdrawal (no match is made for their pairings) and scores no bye there.

**Knockout with lives** (``kind="knockout"``) and **groups then knockout**
(``kind="groups"``): their rounds, play-offs and standings by elimination are
:mod:`tally.store.knockouts`; :meth:`Events.start_round`, :meth:`Events.rounds`,
:meth:`Events.standings` and :meth:`Events.add_players` hand them over to it.

What each kind takes, checks and how its rounds are made is its format's
(:mod:`tally.events.formats`): this module asks the format, never the kind.

**Standings** are always derived, never stored: the game points, schneider and schwarz wins of
both players of each match are summed in SQL from the result cache (``deal_results`` joined
to ``matches``), each match decided by its match target, and the finished matches added up
again per pair of players (:mod:`tally.store.totals`): a few thousand rows for a season of a
million deals. :func:`tally.events.tiebreaks.rank_pairs` ranks the players from those rows
(head-to-head and Sonneborn-Berger need who beat whom, which the pairs keep). Matches nobody
has won yet come back one by one: the withdrawal rule decides them, or they are still being
played (the player's ``running`` count; the standings are ``provisional``). A correction to a
deal rewrites the cache in the same transaction, so it shows in the next standings at once. A
*schneider* (*schwarz*) win is a deal won by a claim or by the higher total worth 2 (3) game
points before the carry; a forfeited match keeps the game points, schneider and schwarz wins
of the deals recorded in it.

**Ranking** (``rank_by``, stored with the event): by match points (``points``, the default
of a round robin, where everyone plays the same matches) or by the match-point percentage
(``percentage``, the default of a club evening, where players play different numbers of
matches, and of a season); then the tiebreaks. See :mod:`tally.events.tiebreaks`.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, case, func, insert, select, update
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.sql import ColumnElement

from tally.engine.kernel import OUTRIGHT, SCHNEIDER_WIN, SCHWARZ_WIN, match_won
from tally.errors import Advice, Message, NotFound, Refused, TallyError
from tally.events.formats import (
    FORMATS,
    EventFormat,
    Given,
    RoundState,
    every_option,
    format_of,
    kinds,
)
from tally.events.formats.base import MAX_MATCHES_PER_PAIRING
from tally.events.formats.options import given_options
from tally.events.schedule import Pairing, Round, first_dealer
from tally.events.swiss import Played
from tally.events.tiebreaks import (
    DEFAULT_TIEBREAKS,
    RANK_BY,
    UNPLAYED,
    MatchResult,
    PairResult,
    Ranking,
    RoundGame,
    StandingRow,
    check_tiebreaks,
    needs_rounds,
    pairs_of,
    rank_pairs,
)
from tally.events.withdrawals import forfeit_winner
from tally.i18n import LANGUAGES, N_
from tally.names import check_text
from tally.store import eventrows, knockouts
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot, utc_now
from tally.store.derivation import Results, checked_rules, rule_set
from tally.store.eventrows import ABSENCE_SCORES, BYES, WITHDRAWALS
from tally.store.players import resolve_player
from tally.store.roundrows import insert_round
from tally.store.seeding import SEED_BY, Seeding, fix_seeding, seeded_order
from tally.store.totals import MatchTotals, PairTotals, sum_matches
from tally.store.transactions import Database
from tally.store.views import (
    CrossTableView,
    EventPlayerView,
    EventView,
    PairingMatchView,
    PairingView,
    RoundByRoundView,
    RoundCellView,
    RoundView,
    StandingsView,
)

__all__ = ["Events"]

EVENT_NAME_LENGTH = 100
#: the most match points a won match may earn (``--points-per-win``): clubs give 1, 2 or 3;
#: anything finite up to this keeps every sum of standings exact and printable.
MAX_POINTS_PER_WIN = 100


# --- creating and changing events --------------------------------------------------------------


def clean_event_name(name: str) -> str:
    """An event's name as stored (spaces collapsed), refused when empty, too long or with
    control characters: what ``store.events.create`` checks first, and the director's form
    before it."""
    check_text(name, "event name")
    clean = " ".join(name.split())
    if not clean:
        raise Refused("an event needs a name")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in clean):
        raise Refused(
            Message(
                N_("%(name)s: an event name cannot contain control characters"),
                name=repr(clean[:20]),
            )
        )
    if len(clean) > EVENT_NAME_LENGTH:
        raise Refused(
            Message(
                N_('"%(name)s...": an event name has at most %(most)s characters'),
                name=clean[:20],
                most=EVENT_NAME_LENGTH,
            )
        )
    return clean


def check_points_per_win(value: float) -> float:
    """Match points of a won match, checked: a finite number from 0 to
    :data:`MAX_POINTS_PER_WIN` (``nan``, ``inf``, ``1e308`` or a negative number would make
    standings that no JSON or spreadsheet reads).

    >>> check_points_per_win(2)
    2.0
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(
            Message(N_("match points per win must be a number, not %(value)s"), value=repr(value))
        )
    huge = isinstance(value, int) and abs(value) > 10**18
    number = math.inf if huge else float(value)
    if not (math.isfinite(number) and 0 <= number <= MAX_POINTS_PER_WIN):
        shown: Message | str = (
            Message(N_("a number of more than 18 digits")) if huge else f"{number:g}"
        )
        raise Refused(
            Message(
                N_("match points per win must be a number from 0 to %(most)s, not %(value)s"),
                most=MAX_POINTS_PER_WIN,
                value=shown,
            )
        )
    return number


def check_rank_by(value: str) -> str:
    """``points`` or ``percentage``, checked.

    >>> check_rank_by("percentage")
    'percentage'
    """
    return _one_of(N_("the ranking"), value, RANK_BY)


def _one_of(what: str, value: str, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``; refused naming ``what`` (a catalogue word, or
    an option as it is typed: ``--seed-by``)."""
    if value not in allowed:
        raise Refused(
            Message(
                N_('%(what)s must be %(allowed)s, not "%(value)s"'),
                what=what if what.startswith("--") else Message(what),
                allowed=either(allowed),
                value=value,
            )
        )
    return value


def either(values: Sequence[str]) -> Message | str:
    """``a``, ``a or b``, ``a or b or c``: the choices a refusal offers, in any language.

    >>> str(either(["none", "win", "half"]))
    'none or win or half'
    """
    if len(values) < 2:
        return "".join(values)
    return Message(N_("%(some)s or %(last)s"), some=either(values[:-1]), last=values[-1])


def _check_choices(kind: str, bye: str, withdrawal: str, language: str) -> EventFormat:
    """The format of ``kind``; refuse a kind of event, bye rule, withdrawal rule or language
    (when given) this tally does not know."""
    _one_of(N_("the kind of event"), kind, kinds())
    _one_of(N_("a bye"), bye, BYES)
    _one_of(N_("the withdrawal rule"), withdrawal, WITHDRAWALS)
    if language:
        _one_of(N_("the event's language"), language, LANGUAGES)
    return format_of(kind)


def _check_seed_by(fmt: EventFormat, seed_by: str) -> None:
    """Refuse a seeding this tally does not know, and seeding by rating for a format
    without a seeding list."""
    _one_of("--seed-by", seed_by, SEED_BY)
    if seed_by != "entry" and not fmt.seeds_by_rating:
        raise Refused(
            Message(
                N_(
                    "--seed-by %(value)s is for a Swiss event, a knockout or groups, "
                    "not a %(kind)s event"
                ),
                value=seed_by,
                kind=fmt.kind,
            )
        )


def _check_round_tiebreaks(fmt: EventFormat, tiebreaks: Sequence[str], unplayed: str) -> None:
    """Refuse a rule for unplayed rounds this tally does not know, and the progressive score
    or FIDE's virtual opponent for an event that plays no numbered rounds."""
    _one_of(N_("unplayed rounds"), unplayed, UNPLAYED)
    if fmt.has_scored_rounds:
        return
    if "progressive" in tiebreaks:
        raise Refused(
            N_("the progressive score adds up the rounds: it is for a round robin or a Swiss event")
        )
    if unplayed != "as-scored":
        raise Refused(
            Message(
                N_(
                    "--unplayed %(value)s counts byes and forfeits round by round: it is "
                    "for a round robin or a Swiss event"
                ),
                value=unplayed,
            )
        )


def _no_such_round(kind: Message, eid: int, name: str, total: int, number: int) -> Message:
    """The refusal of a round ``number`` the event does not have."""
    return Message(
        N_('%(kind)s %(id)s "%(name)s" has rounds 1 to %(total)s, not %(number)s'),
        kind=kind,
        id=eid,
        name=name,
        total=total,
        number=number,
    )


def _paired_later(e: _Event, number: int, waiting: Sequence[int]) -> Message:
    """The refusal of a Swiss round ``number`` before the round before is finished, naming
    the matches still being played (``waiting``) when there are any."""
    words = dict(kind=Message(e.format.audit_name), id=e.id, name=e.name, number=number)
    if not waiting:
        return Message(
            N_(
                'round %(number)s of %(kind)s %(id)s "%(name)s" is paired once round '
                "%(before)s is finished"
            ),
            before=number - 1,
            **words,
        )
    return Message(
        N_(
            'round %(number)s of %(kind)s %(id)s "%(name)s" is paired once round %(before)s '
            "is finished (matches still being played: %(matches)s)"
        ),
        before=number - 1,
        matches=", ".join(map(str, waiting)),
        **words,
    )


def _check_entries(conn: Connection, ev: RowMapping, adding: int) -> None:
    """Refuse ``adding`` players to the event when its kind no longer takes them: a round
    robin once started (the schedule is made from the seeds), a knockout by its own rule, a
    Swiss event once its last round is started."""
    eid = ev["id"]
    fmt = format_of(ev["kind"])
    if fmt.has_rounds_made_in_advance and _started(conn, eid):
        raise eventrows.entries_refused(
            eid, ev["name"], "a round robin's schedule is made from its entries"
        )
    if fmt.ranks_by_elimination:
        knockouts.check_late_entry(conn, ev, adding)
    if fmt.pairs_from_standings and _started(conn, eid, ev["rounds"]):
        raise eventrows.entries_refused(
            eid, ev["name"], "a Swiss event takes late entries until its last round starts"
        )


def _distinct_players(conn: Connection, refs: Sequence[str]) -> list[RowMapping]:
    rows: list[RowMapping] = []
    for ref in refs:
        row = resolve_player(conn, ref)
        if any(r["id"] == row["id"] for r in rows):
            raise Refused(Message(N_("%(name)s is listed twice"), name=row["name"]))
        rows.append(row)
    return rows


# --- rounds ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _RoundMaker:
    """The ways this store makes a round's matches, in the caller's transaction; the event's
    format picks one (:class:`tally.events.formats.base.RoundMaker`)."""

    store: Database
    conn: Connection
    ev: RowMapping
    #: the director confirmed starting a round while players of it are still at a table of
    #: the round before (:func:`tally.store.eventrows.still_playing_refused`)
    force: bool = False
    #: a Swiss round may take the least bad pairing when none avoids a rematch
    rematches: bool = False

    def from_schedule(self, number: int) -> RoundView:
        fmt = format_of(self.ev["kind"])
        return _start_scheduled_round(self.store, self.conn, self.ev, fmt, number, self.force)

    def paired_now(self, number: int) -> RoundView:
        if format_of(self.ev["kind"]).ranks_by_elimination:
            return knockouts.start_round(self.store, self.conn, self.ev, number, force=self.force)
        return _start_paired_round(self.store, self.conn, self.ev, number, self.rematches)

    def refused(self) -> RoundView:
        ev = self.ev
        raise Refused(
            Message(
                N_('event %(event)s "%(name)s" is a %(kind)s: it has no rounds%(advice)s'),
                event=ev["id"],
                name=ev["name"],
                kind=Message(format_of(ev["kind"]).audit_name),
                advice=Advice(N_(" (start its matches with `tally match start ... --event`)")),
            )
        )


def _start_scheduled_round(
    store: Database,
    conn: Connection,
    ev: RowMapping,
    fmt: EventFormat,
    number: int,
    force: bool = False,
) -> RoundView:
    """Make the matches of round ``number`` of a schedule made in advance: for each pairing
    ``matches_per_pairing`` matches under the event's rules, with its round and table; the
    first dealer alternates from the pairing's first player. Pairings with a withdrawn player
    get no match (the withdrawal rule handles them). Refused while a player of the round is
    still at a table of the round before, unless ``force`` (the director confirmed)."""
    eid = ev["id"]
    entrants = eventrows.event_players(conn, eid)
    ids = {str(p["player_id"]): p for p in entrants}
    sched = fmt.schedule(list(ids), dict(ev))
    if not 1 <= number <= len(sched):
        raise NotFound(
            _no_such_round(Message(N_("round robin")), eid, ev["name"], len(sched), number)
        )
    earlier = (
        conn.execute(
            select(t.matches.c.id)
            .where((t.matches.c.event_id == eid) & (t.matches.c.round_number == number))
            .order_by(t.matches.c.id)
        )
        .scalars()
        .all()
    )
    if _started(conn, eid, number) or earlier:
        raise eventrows.round_refused(eid, ev["name"], number, number + 1, earlier)
    rnd = sched[number - 1]
    if not force:
        loaded = _load_events(conn, t.events.c.id == eid)
        busy = _still_playing(loaded.events[0], loaded, rnd)
        if busy:
            raise eventrows.still_playing_refused(
                number, {loaded.name(p): m for p, m in busy.items()}
            )
    withdrawn = {k for k, p in ids.items() if p["withdrawn_at"] is not None}
    bye = None if rnd.bye is None or rnd.bye in withdrawn else int(rnd.bye)
    insert_round(
        store,
        conn,
        ev,
        number,
        bye,
        [
            (p.table, int(p.first), int(p.second), int(first_dealer(p)))
            for p in rnd.pairings
            if not {p.first, p.second} & withdrawn
        ],
        f'started round {number} of event {eid} "{ev["name"]}"',
        matches_per_pairing=ev["matches_per_pairing"],
    )
    data = _load_events(conn, t.events.c.id == eid)
    return _round_view(data.events[0], data, rnd)


def _still_playing(e: _Event, data: _Data, rnd: Round) -> dict[int, int]:
    """The players of round ``rnd`` of a round robin (its pairings without a withdrawn
    player) still at a table of the round before that is not over: player id -> that
    match."""
    gone = e.withdrawn
    seated = {
        int(x)
        for p in rnd.pairings
        if not {int(p.first), int(p.second)} & gone
        for x in (p.first, p.second)
    }
    return {
        x: m.id
        for m in data.matches_of(e.id)
        if m.round_number == rnd.number - 1 and m.winner is None and not {m.a, m.b} & gone
        for x in (m.a, m.b)
        if x in seated
    }


def _check_round(e: _Event, number: int, total: int) -> None:
    if not 1 <= number <= total:
        raise NotFound(_no_such_round(Message(N_("round robin")), e.id, e.name, total, number))


def _lock_event(conn: Connection, ref: str | int) -> RowMapping:
    """An event, its row locked until the transaction ends (PostgreSQL; on SQLite the write
    transaction holds the database already)."""
    return eventrows.resolve_event(conn, ref, lock=True)


def _started(conn: Connection, event_id: int, number: int | None = None) -> bool:
    q = select(t.event_rounds.c.number).where(t.event_rounds.c.event_id == event_id)
    if number is not None:
        q = q.where(t.event_rounds.c.number == number)
    return conn.execute(q.limit(1)).first() is not None


# --- what standings are made of ----------------------------------------------------------------


@dataclass(frozen=True)
class _Entrant:
    player_id: int
    seed: int
    withdrawn: bool
    #: when they withdrew (None: still in)
    withdrawn_at: datetime | None = None


@dataclass(frozen=True)
class _Event:
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


class _Match(NamedTuple):
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
class _Data:
    events: list[_Event]
    matches: list[_Match]
    names: dict[int, str]
    by_event: dict[int, list[_Match]] = field(default_factory=dict)

    def name(self, player_id: int) -> str:
        return self.names[player_id]

    def matches_of(self, event_id: int) -> list[_Match]:
        """The matches of one event, oldest first."""
        return self.by_event.get(event_id, [])


def _load_events(
    conn: Connection, which: ColumnElement[bool], *, with_matches: bool = True
) -> _Data:
    """The events ``which`` selects with their players, rounds, matches and the matches'
    totals summed from the result cache (one GROUP BY query); ``with_matches=False`` leaves
    the matches out (standings sum them in SQL: :func:`_load_sums`)."""
    ev_rows = (
        conn.execute(select(t.events).where(which).order_by(t.events.c.held_on, t.events.c.id))
        .mappings()
        .all()
    )
    ids = [r["id"] for r in ev_rows]
    chosen = select(t.events.c.id).where(which)
    entrants: dict[int, list[_Entrant]] = defaultdict(list)
    for r in conn.execute(
        select(t.event_players)
        .where(t.event_players.c.event_id.in_(chosen))
        .order_by(t.event_players.c.event_id, t.event_players.c.seed)
    ).mappings():
        entrants[r["event_id"]].append(
            _Entrant(r["player_id"], r["seed"], r["withdrawn_at"] is not None, r["withdrawn_at"])
        )
    started: dict[int, dict[int, int | None]] = defaultdict(dict)
    started_at: dict[int, dict[int, datetime]] = defaultdict(dict)
    for r in conn.execute(
        select(t.event_rounds).where(t.event_rounds.c.event_id.in_(chosen))
    ).mappings():
        started[r["event_id"]][r["number"]] = r["bye_player_id"]
        started_at[r["event_id"]][r["number"]] = r["started_at"]
    absent = eventrows.absences_by_event(conn, chosen)
    matches: list[_Match] = []
    by_event: dict[int, list[_Match]] = {}
    if with_matches:
        matches, by_event = _load_matches(conn, chosen, len(ids) > 1)
    wanted = {p for es in entrants.values() for p in (e.player_id for e in es)}
    wanted |= {p for mt in matches for p in (mt.a, mt.b)}
    evs = [
        _Event(
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
        )
        for r in ev_rows
    ]
    assert [e.id for e in evs] == ids
    data = _Data(evs, matches, {}, dict(by_event))
    _add_names(conn, data, wanted)
    return data


def _add_names(conn: Connection, data: _Data, ids: set[int]) -> None:
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
) -> tuple[list[_Match], dict[int, list[_Match]]]:
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
    matches: list[_Match] = []
    by_event: dict[int, list[_Match]] = defaultdict(list)
    targets: dict[str, int] = {}
    make = _Match._make
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


def _schedule(e: _Event) -> list[Round]:
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
        {"double_round": e.double, "swap_last_rounds": e.swap_last_rounds},
    )


class _Result(NamedTuple):
    """A match result the standings count; ``key`` orders them (round, match) and ``forfeit``
    marks a match won by the withdrawal rule rather than played out. (A named tuple: a
    season makes one per match, and a tuple is several times cheaper to build than a frozen
    dataclass.)"""

    key: tuple[int, int, int]
    result: MatchResult
    forfeit: bool


@dataclass(frozen=True)
class _Counted:
    """What one event's matches count for, match by match (its cross-table): results by
    player name, the byes (by player id) and how many made matches are still to be
    finished. Standings add the same up in SQL instead (:func:`_load_sums`), with the same
    withdrawal rules (:func:`_forfeit_winner`, :func:`_unmade`)."""

    results: list[_Result]
    byes: dict[int, int]
    unresolved: int


def _forfeit_winner(e: _Event, a: int, b: int, number: int | None = None) -> int | None:
    """Who a withdrawal makes the winner of a match between ``a`` and ``b`` that nobody has
    won, under the ``forfeit`` rule (:func:`tally.events.withdrawals.forfeit_winner`: the
    opponent of the first to withdraw, if still in then; a game played stands); a scheduled
    match never made is of round ``number``. None when neither withdrew (the match is still
    being played) or the match is void (the ``void`` rule, or both had withdrawn)."""
    if e.withdrawal != "forfeit" or not e.withdrawn:
        return None
    return forfeit_winner(a, b, e.left, None if number is None else e.since(number))


def _unmade(
    e: _Event, made: Counter[tuple[int | None, int | None]]
) -> list[tuple[int, int, int, int, int]]:
    """A round robin's scheduled matches never made that a withdrawal forfeits: (round,
    table, a, b, winner) once per missing match, ``made`` counting the matches made per
    (round, table). Only in the rounds started: a forfeit is credited round by round, as
    the rounds are played."""
    out: list[tuple[int, int, int, int, int]] = []
    if not (e.round_robin and e.withdrawn):
        return out
    for rnd in _schedule(e):
        if rnd.number not in e.started:
            continue
        for p in rnd.pairings:
            a, b = int(p.first), int(p.second)
            winner = _forfeit_winner(e, a, b, rnd.number)
            if winner is None:
                continue
            missing = e.matches_per_pairing - made[(rnd.number, p.table)]
            out.extend((rnd.number, p.table, a, b, winner) for _ in range(missing))
    return out


def _byes(e: _Event) -> dict[int, int]:
    """The byes of an event per player id (rounds started with someone sitting out)."""
    byes: dict[int, int] = {}
    for player in e.started.values():
        if player is not None:
            byes[player] = byes.get(player, 0) + 1
    return byes


def _requested(e: _Event) -> list[int]:
    """The requested byes of an event: who announced an absence from a round started, once
    per such round."""
    return [p for number, p in e.absences if number in e.started]


def _season_requested(data: _Data, per_win: float) -> float:
    """What a requested bye scores in a season counted at ``per_win`` a win: half of it where
    the events that granted requested byes score them half (the default), nothing where they
    all score them nothing (a season mixing the two counts them half)."""
    scores = {e.absence_score for e in data.events if _requested(e)}
    return per_win / 2 if scores != {"zero"} else 0.0


def _counted(e: _Event, data: _Data) -> _Counted:
    """The results of an event's matches as the standings count them, each with a sort key
    (round, match, order): finished matches, then the withdrawal rule on a withdrawn player's
    remaining matches. Also the byes and the number of matches still to finish."""
    out: list[_Result] = []
    unresolved = 0
    name = data.names.__getitem__

    def result(m: _Match, winner: int) -> MatchResult:
        # m[8:14]: gp_a, gp_b, schneider_a, schneider_b, schwarz_a, schwarz_b
        return MatchResult(name(m.a), name(m.b), name(winner), *m[8:14])

    made: Counter[tuple[int | None, int | None]] = Counter()
    for m in data.matches_of(e.id):
        made[(m.round_number, m.table_number)] += 1
        key = (m.round_number or 0, m.id, 0)
        if m.winner is not None:
            out.append(_Result(key, result(m, m.winner), False))
            continue
        winner = _forfeit_winner(e, m.a, m.b)
        if winner is not None:
            out.append(_Result(key, result(m, winner), True))
        elif not {m.a, m.b} & e.withdrawn:
            unresolved += 1
    for k, (rnd, table, a, b, winner) in enumerate(_unmade(e, made)):
        unmade = _Match(0, e.id, a, b, a, e.rules, rnd, table)
        out.append(_Result((rnd, 1 << 40, k), result(unmade, winner), True))
    return _Counted(out, _byes(e), unresolved)


@dataclass(frozen=True)
class _Summed:
    """What standings are ranked from, summed: finished and forfeited matches per pair of
    players (by name), byes and matches still being played per player id, and how many
    matches each event has still to finish."""

    pairs: list[PairResult]
    byes: dict[int, int]
    running: Counter[int]
    unresolved: dict[int, int]
    players: list[int]
    #: the requested byes (announced absences from rounds started) per player id
    requested: dict[int, int] = field(default_factory=dict)


def _load_sums(
    store: Database, which: ColumnElement[bool], *, many: bool, scoring_byes_only: bool = False
) -> tuple[_Data, _Summed]:
    """The events ``which`` selects and their standings' sums (:mod:`tally.store.totals`):
    finished matches added up per pair in SQL, each event's withdrawal rule applied to its
    matches nobody has won and to a round robin's matches never made. ``scoring_byes_only``
    counts only the byes of events whose bye scores (a season)."""
    Results(store).ensure()
    with store.reading() as conn:
        data = _load_events(conn, which, with_matches=False)
        chosen = select(t.events.c.id).where(which)
        pairs, open_matches = sum_matches(conn, chosen, many=many)
        need_made = [e.id for e in data.events if e.round_robin and e.withdrawn]
        made: dict[int, Counter[tuple[int | None, int | None]]] = defaultdict(Counter)
        if need_made:
            m = t.matches.c
            for eid, rnd, table, n in conn.execute(
                select(m.event_id, m.round_number, m.table_number, func.count())
                .where(m.event_id.in_(need_made))
                .group_by(m.event_id, m.round_number, m.table_number)
            ):
                made[eid][(rnd, table)] = n
        ids = {p for pair in pairs for p in pair[:2]} | {
            p for o in open_matches for p in (o.a, o.b)
        }
        _add_names(conn, data, ids)
    return data, _summed(data, pairs, open_matches, made, scoring_byes_only)


def _summed(
    data: _Data,
    pairs: list[PairTotals],
    open_matches: list[MatchTotals],
    made: dict[int, Counter[tuple[int | None, int | None]]],
    scoring_byes_only: bool,
) -> _Summed:
    """The sums of :func:`_load_sums` with names, byes, forfeits and running matches."""
    name = data.names.__getitem__
    out = [PairResult(name(p.a), name(p.b), *p[2:]) for p in pairs]
    by_id = {e.id: e for e in data.events}
    running: Counter[int] = Counter()
    unresolved: Counter[int] = Counter()
    for o in open_matches:
        e = by_id[o.event_id]
        winner = _forfeit_winner(e, o.a, o.b)
        if winner is not None:
            a_won = int(winner == o.a)
            out.append(PairResult(name(o.a), name(o.b), a_won, 1 - a_won, *o[6:]))
        elif not {o.a, o.b} & e.withdrawn:
            running.update((o.a, o.b))
            unresolved[e.id] += 1
    byes: Counter[int] = Counter()
    for e in data.events:
        for _, _, a, b, winner in _unmade(e, made[e.id]):
            a_won = int(winner == a)
            out.append(PairResult(name(a), name(b), a_won, 1 - a_won, 0, 0))
        if not scoring_byes_only or e.bye == "win":
            byes.update(_byes(e))
    seen = dict.fromkeys(x.player_id for e in data.events for x in e.entrants)
    extra = {p for pair in pairs for p in pair[:2]} | set(running)
    extra |= {p for o in open_matches for p in (o.a, o.b)}
    players = [*seen, *sorted(extra - seen.keys())]
    requested = Counter(p for e in data.events for p in _requested(e))
    return _Summed(out, dict(byes), running, dict(unresolved), players, dict(requested))


# --- standings ---------------------------------------------------------------------------------


def _load_one(store: Database, ref: str | int) -> tuple[EventView, _Data, _Event]:
    """One event with what its cross-table needs: its view, its loaded data and itself."""
    Results(store).ensure()
    with store.reading() as conn:
        ev = eventrows.resolve_event(conn, ref)
        data = _load_events(conn, t.events.c.id == ev["id"])
        view = _event_view(conn, ev)
    return view, data, data.events[0]


def _ranked(
    data: _Data,
    summed: _Summed,
    ranking: Ranking,
    players: list[int] | None = None,
    *,
    rounds: dict[str, list[RoundGame | None]] | None = None,
) -> list[Any]:
    """:func:`tally.events.tiebreaks.rank_pairs` over the sums, by player name."""
    name = data.name
    return rank_pairs(
        [name(p) for p in (players or summed.players)],
        summed.pairs,
        ranking,
        byes={name(p): n for p, n in summed.byes.items()},
        running={name(p): n for p, n in summed.running.items()},
        rounds=rounds,
        requested_byes={name(p): n for p, n in summed.requested.items()},
    )


def _follows_rounds(e: _Event, order: Sequence[str]) -> bool:
    """Whether event ``e``'s standings by ``order`` need each player's rounds: the
    progressive score, or the Buchholz tiebreaks under FIDE's virtual opponent, in an event
    that plays rounds."""
    return format_of(e.kind).has_scored_rounds and needs_rounds(order, e.unplayed)


def _round_games(store: Database, e: _Event) -> dict[str, list[RoundGame | None]]:
    """Each player's rounds of event ``e`` (the rounds started), by name: the match points
    each earned and the opponent, a forfeit (the withdrawal rule) as not played, a bye as a
    round without opponent; None for a round the player was not in or is still playing."""
    _view, data, loaded = _load_one(store, e.id)
    return _games_of(e, data, loaded)


def _games_of(e: _Event, data: _Data, loaded: _Event) -> dict[str, list[RoundGame | None]]:
    """:func:`_round_games` of event ``e`` as ``loaded`` (with its matches in ``data``)."""
    total = max(loaded.started, default=0)
    games: dict[str, list[RoundGame | None]] = {
        data.name(x.player_id): [None] * total for x in loaded.entrants
    }
    for counted in _counted(loaded, data).results:
        r, number = counted.result, counted.key[0]
        if not 1 <= number <= total:
            continue
        for me, other in ((r.player_a, r.player_b), (r.player_b, r.player_a)):
            earlier = games.setdefault(me, [None] * total)[number - 1]
            points = (e.match_points_per_win if r.winner == me else 0.0) + (
                earlier.points if earlier is not None else 0.0
            )
            games[me][number - 1] = RoundGame(points, other, not counted.forfeit)
    per_bye = e.match_points_per_win if e.bye == "win" else 0.0
    for number, player in loaded.started.items():
        if player is not None and 1 <= number <= total:
            games[data.name(player)][number - 1] = RoundGame(per_bye, None, False)
    for number, player in loaded.absences:
        if number in loaded.started and 1 <= number <= total:
            games[data.name(player)][number - 1] = RoundGame(e.absence_points, None, False)
    return games


def played_first(rows: Sequence[StandingRow]) -> list[StandingRow]:
    """``rows`` (ranked) with the players who have finished no match and sat out no round
    after everyone who has, sharing the rank below them: a club evening lists who has not
    played yet last, and a percentage of nothing is no 0 %. Ranks are counted again (players
    level before stay level).

    >>> def row(rank: int, name: str, played: int) -> StandingRow:
    ...     return StandingRow(rank, name, played, 0, 0, 0.0, 0, 0, 0, 0, 0, ())
    >>> rows = [row(1, "A", 1), row(2, "B", 0), row(2, "D", 0), row(4, "C", 1)]
    >>> [(r.rank, r.player) for r in played_first(rows)]
    [(1, 'A'), (2, 'C'), (3, 'B'), (3, 'D')]
    """
    ordered = [r for r in rows if r.played or r.byes] + [
        r for r in rows if not (r.played or r.byes)
    ]
    out: list[StandingRow] = []
    for i, r in enumerate(ordered):
        before = ordered[i - 1] if i else None
        level = (
            before is not None
            and before.rank == r.rank
            and bool(before.played or before.byes) == bool(r.played or r.byes)
        )
        out.append(replace(r, rank=out[-1].rank if level else i + 1))
    return out


def _players_of(evs: Sequence[_Event], data: _Data) -> list[int]:
    """The players of events in seed order, then anyone else who played in them."""
    seen: dict[int, None] = {}
    for e in evs:
        for entrant in e.entrants:
            seen.setdefault(entrant.player_id, None)
    ids = {e.id for e in evs}
    for m in data.matches:
        if m.event_id in ids:
            seen.setdefault(m.a, None)
            seen.setdefault(m.b, None)
    return list(seen)


def _seed(e: _Event, player_id: int) -> int:
    return next((x.seed for x in e.entrants if x.player_id == player_id), 1 << 30)


#: How far an event is (:attr:`StandingsView.stage`).
_ROUND_OF = N_("round %(round)s of %(rounds)s")
_NOT_STARTED_OF = N_("not started (%(rounds)s rounds)")
_FINAL = Message(N_("final"))
_NO_STAGE = Message("")


def _stage(e: _Event, unresolved: int) -> Message:
    """Where a round robin stands (no words for a club evening); ``unresolved``: its matches
    nobody has won yet that no withdrawal decides."""
    if not e.format.has_scored_rounds:
        return _NO_STAGE
    total = _total_rounds(e)
    if not e.started:
        return Message(_NOT_STARTED_OF, rounds=total)
    if len(e.started) == total and unresolved == 0:
        return _FINAL
    return Message(_ROUND_OF, round=max(e.started), rounds=total)


#: A season's title (:meth:`Events.season_standings`); its dates as a language writes them.
_SEASON_OF = N_("Season: %(kinds)s%(span)s")
_FROM = N_(" from %(date)s")
_TO = N_(" to %(date)s")
_ALL_EVENTS = Message(N_("all events"))
_CLUB_EVENINGS = Message(N_("club evenings"))


def season_title(all_events: bool, date_from: date | None, date_to: date | None) -> Message:
    """A season's title: ``Season: club evenings from 2026-01-01 to 2026-12-31`` in English.

    >>> str(season_title(False, date(2026, 1, 1), None))
    'Season: club evenings from 2026-01-01'
    """
    return Message(
        _SEASON_OF,
        kinds=_ALL_EVENTS if all_events else _CLUB_EVENINGS,
        span=Message(
            "%(start)s%(end)s",
            start=Message(_FROM, date=date_from) if date_from else "",
            end=Message(_TO, date=date_to) if date_to else "",
        ),
    )


# --- cross-table -------------------------------------------------------------------------------


# --- views ---------------------------------------------------------------------------------------


def _event_row(conn: Connection, event_id: int) -> RowMapping:
    return conn.execute(select(t.events).where(t.events.c.id == event_id)).mappings().one()


def _option_fields(row: RowMapping) -> dict[str, Any]:
    """The view's fields of the formats' options kept in the ``events`` row (the table of
    :mod:`tally.events.formats.options`; ``rounds`` is the view's count of rounds)."""
    from dataclasses import fields as fields_of

    shown = {f.name for f in fields_of(EventView)} - {"rounds"}
    out: dict[str, Any] = {}
    for name, option in every_option().items():
        column = option.events_column()
        if column is not None and name in shown:
            out[name] = bool(row[column]) if option.type == "bool" else row[column]
    return out


def _event_view(conn: Connection, row: RowMapping) -> EventView:
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
        **_option_fields(row),
        absences=tuple((n, names[p]) for n, p in eventrows.absences(conn, eid)),
    )


def _round_view(e: _Event, data: _Data, rnd: Round) -> RoundView:
    by_table: dict[int | None, list[_Match]] = defaultdict(list)
    for m in data.matches:
        if m.event_id == e.id and m.round_number == rnd.number:
            by_table[m.table_number].append(m)
    pairings = tuple(
        _pairing_view(e, data, p, by_table.get(p.table, []), rnd.number) for p in rnd.pairings
    )
    started = rnd.number in e.started
    return RoundView(
        event_id=e.id,
        event=e.name,
        number=rnd.number,
        rounds=_total_rounds(e),
        started=started,
        pairings=pairings,
        bye=None if rnd.bye is None else data.name(int(rnd.bye)),
        bye_scores=started and e.bye == "win" and e.started[rnd.number] is not None,
        absent=tuple(data.name(p) for p in sorted(e.absent(rnd.number), key=lambda p: _seed(e, p))),
        absence_points=e.absence_points,
    )


def _pairing_view(
    e: _Event, data: _Data, p: Pairing, made: list[_Match], number: int | None = None
) -> PairingView:
    a, b = int(p.first), int(p.second)
    views = []
    for m in made:
        views.append(
            PairingMatchView(
                match_id=m.id,
                first_dealer=data.name(m.first_dealer),
                result=f"{m.points(a)}:{m.points(b)}",
                winner=None if m.winner is None else data.name(m.winner),
                over=m.winner is not None,
            )
        )
    gone = [x for x in (a, b) if x in e.withdrawn]
    done = len(views) == e.matches_per_pairing and all(v.over for v in views)
    forfeit_winner: str | None = None
    if done:
        status = "played"
    elif gone:
        through = _forfeit_winner(e, a, b, None if views else number)
        status = "void" if through is None else "forfeit"
        if through is not None:
            forfeit_winner = data.name(through)
    else:
        status = "playing" if views else "scheduled"
    return PairingView(
        table=p.table,
        first=data.name(a),
        second=data.name(b),
        first_dealer=data.name(int(first_dealer(p))),
        matches=tuple(views),
        status=status,
        withdrawn=tuple(data.name(x) for x in gone),
        forfeit_winner=forfeit_winner,
    )


# --- Swiss rounds --------------------------------------------------------------------------------


def _total_rounds(e: _Event) -> int:
    """The rounds an event plays: a Swiss event's number, a round robin's schedule."""
    if not e.round_robin:
        return e.rounds or 0
    return len(_schedule(e))


def _swiss_played(e: _Event, data: _Data) -> list[_Match]:
    """The first match of each pairing of a Swiss event's started rounds (the one whose first
    dealer counts for the dealer balance), in round and table order."""
    first: dict[tuple[int, int], _Match] = {}
    for m in data.matches_of(e.id):
        if m.round_number is not None and m.table_number is not None:
            first.setdefault((m.round_number, m.table_number), m)
    return [first[k] for k in sorted(first)]


def _swiss_unfinished(e: _Event, data: _Data, number: int) -> list[int]:
    """The matches of round ``number`` still to be finished (a withdrawn player's are left to
    the withdrawal rule, so they count as finished)."""
    gone = e.withdrawn
    return [
        m.id
        for m in data.matches_of(e.id)
        if m.round_number == number and m.winner is None and not {m.a, m.b} & gone
    ]


def _swiss_pairing(e: _Event, data: _Data, number: int, *, rematches: bool = False) -> Round:
    """Round ``number`` of an event paired round by round as its format pairs it now (a Swiss
    event: :func:`tally.events.swiss.pair_round`), as a :class:`~tally.events.schedule.Round` over
    player ids (as text), ``first`` dealing first."""
    counted = _counted(e, data)
    order = _players_of([e], data)
    names = [data.name(p) for p in order]
    rows = rank_pairs(
        names,
        pairs_of(names, [r.result for r in counted.results]),
        # pairing goes by match points whatever the published standings rank by first
        replace(e.ranking, rank_by="points"),
        byes={data.name(p): n for p, n in counted.byes.items()},
        requested_byes=Counter(data.name(p) for p in _requested(e)),
        # the published standings' order: the same rounds and unplayed-round rule
        rounds=_games_of(e, data, e) if _follows_rounds(e, e.tiebreaks) else None,
    )
    ids = {data.name(p): p for p in order}
    listed = {x.player_id for x in e.entrants if not x.withdrawn}
    played = [
        Played(m.round_number or 0, str(m.first_dealer), str(m.b if m.first_dealer == m.a else m.a))
        for m in _swiss_played(e, data)
    ]
    return e.format.next_round(
        RoundState(
            number,
            tuple(str(x.player_id) for x in e.entrants),
            frozenset(str(p) for p in e.withdrawn),
            {
                "rounds": e.rounds,
                "acceleration": e.acceleration,
                "repeated_floats": e.repeated_floats,
                "apart_until": e.apart_until,
                "apart_keeps_bye": e.apart_keeps_bye,
                "match_points_per_win": e.match_points_per_win,
                "double_round": e.double,
                "swap_last_rounds": e.swap_last_rounds,
            },
            ranked=[str(ids[r.player]) for r in rows if ids[r.player] in listed],
            points={str(ids[r.player]): r.match_points for r in rows},
            played=played,
            byes={str(p): n for p, n in counted.byes.items()},
            apart=tuple((str(a), str(b)) for a, b in e.apart),
            absent=frozenset(str(p) for p in e.absent(number)),
            first_round=_first_round(e, data),
            rematches=rematches,
            floats={str(ids[name]): way for name, way in _floats(e, data, number - 1).items()},
        )
    )


def _floats(e: _Event, data: _Data, number: int) -> dict[str, str]:
    """How each player floated in round ``number`` of event ``e`` (by name): ``"down"``
    for meeting a lower score or the pairing's bye, ``"up"`` for meeting a higher score;
    scores as they were before the round."""
    if number not in e.started:
        return {}
    games = _games_of(e, data, e)
    before = {
        name: sum(g.points for g in rounds[: number - 1] if g) for name, rounds in games.items()
    }
    out: dict[str, str] = {}
    for name, rounds in games.items():
        game = rounds[number - 1] if len(rounds) >= number else None
        if game is None:
            continue
        if game.opponent is None:
            bye = e.started[number]
            if bye is not None and data.name(bye) == name:
                out[name] = "down"
            continue
        gap = round(before[name] - before.get(game.opponent, 0.0), 9)
        if gap:
            out[name] = "down" if gap > 0 else "up"
    return out


def _first_round(e: _Event, data: _Data) -> int:
    """How many players round 1 of event ``e`` was paired among: those who played it, its
    bye and its absences (0 before it is paired)."""
    if 1 not in e.started:
        return 0
    there = {x for m in data.matches_of(e.id) if m.round_number == 1 for x in (m.a, m.b)}
    bye = e.started[1]
    return len(there | e.absent(1) | ({bye} if bye is not None else set()))


def _swiss_round_of(e: _Event, data: _Data, number: int) -> Round:
    """A started round of a Swiss event as its stored matches pair it."""
    pairings = [
        Pairing(
            m.table_number or 0, str(m.first_dealer), str(m.b if m.first_dealer == m.a else m.a)
        )
        for m in _swiss_played(e, data)
        if m.round_number == number
    ]
    bye = e.started.get(number)
    return Round(number, tuple(pairings), None if bye is None else str(bye))


def _swiss_next(e: _Event, number: int) -> None:
    """Refuse to start round ``number`` of a Swiss event unless it is the next one."""
    total = e.rounds or 0
    if not 1 <= number <= total:
        raise NotFound(_no_such_round(Message(e.format.audit_name), e.id, e.name, total, number))
    following = max(e.started, default=0) + 1
    if number in e.started or number != following:
        raise eventrows.round_refused(e.id, e.name, number, following)


def _paired_rounds(e: _Event, data: _Data, number: int | None) -> list[RoundView]:
    """The rounds of a Swiss event: those started, then the next one as it would be paired
    now when the round before it is finished (only round ``number`` if given)."""
    total = e.rounds or 0
    if number is not None and not 1 <= number <= total:
        raise NotFound(_no_such_round(Message(e.format.audit_name), e.id, e.name, total, number))
    views = [
        _round_view(e, data, _swiss_round_of(e, data, k))
        for k in sorted(e.started)
        if number in (None, k)
    ]
    following = max(e.started, default=0) + 1
    if number is not None and number in e.started:
        return views
    waiting = _swiss_unfinished(e, data, following - 1)
    if following <= total and number in (None, following) and not waiting:
        views.append(_round_view(e, data, _swiss_pairing(e, data, following)))
    elif number is not None:
        raise Refused(_paired_later(e, number, waiting if waiting and number == following else []))
    return views


def _start_paired_round(
    store: Database, conn: Connection, ev: RowMapping, number: int, rematches: bool = False
) -> RoundView:
    """Pair round ``number`` of a Swiss event from its standings now and make its matches
    (module docstring), in the caller's transaction, with one audit entry (``rematches``:
    the least bad pairing when none avoids a rematch, the audit naming each rematch)."""
    eid = ev["id"]
    data = _load_events(conn, t.events.c.id == eid)
    e = data.events[0]
    _swiss_next(e, number)
    waiting = _swiss_unfinished(e, data, number - 1)
    if waiting:
        raise Refused(_paired_later(e, number, waiting))
    absent = e.absent(number)
    active = [x for x in e.entrants if not x.withdrawn and x.player_id not in absent]
    if len(active) < 2:
        raise Refused(
            Message(
                N_(
                    '%(kind)s %(id)s "%(name)s" needs at least 2 players who have not '
                    "withdrawn nor announced an absence to pair round %(number)s, has %(count)s"
                ),
                kind=Message(e.format.audit_name),
                id=eid,
                name=e.name,
                number=number,
                count=len(active),
            )
        )
    rnd = _swiss_pairing(e, data, number, rematches=rematches)
    met = {frozenset((m.a, m.b)) for m in _swiss_played(e, data)}
    again = [
        f"{data.name(int(p.first))} against {data.name(int(p.second))}"
        for p in rnd.pairings
        if frozenset((int(p.first), int(p.second))) in met
    ]
    insert_round(
        store,
        conn,
        ev,
        number,
        None if rnd.bye is None else int(rnd.bye),
        [(p.table, int(p.first), int(p.second), int(p.first)) for p in rnd.pairings],
        f'paired and started round {number} of {e.format.audit_name} {eid} "{e.name}"'
        + (f" (rematches accepted: {', '.join(again)})" if again else ""),
        matches_per_pairing=ev["matches_per_pairing"],
        rematches=again,
    )
    data = _load_events(conn, t.events.c.id == eid)
    return _round_view(data.events[0], data, rnd)


class Events:
    """The events (club evenings, round robins, Swiss, knockouts, groups): created, their
    players entered and withdrawn, their rounds started, their standings, cross-tables and
    round-by-round tables. Reached as ``store.events``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def language_of(self, *, event: int | None = None, match: int | None = None) -> str:
        """The stored language of event ``event``, or of the event match ``match`` counts
        for, in one query (what ``tally serve`` asks on every page of a table or an event):
        ``""`` when it has none, or there is no such event or match, or no event."""
        with self.store.reading() as conn:
            return eventrows.language_of(conn, event=event, match=match)

    def create(
        self,
        name: str,
        *,
        kind: str = "club",
        players: Sequence[str] = (),
        held_on: date | None = None,
        rules: str = "sixty-six",
        match_points_per_win: float = 1.0,
        bye: str = "none",
        withdrawal: str = "forfeit",
        tiebreaks: Sequence[str] | None = None,
        rank_by: str | None = None,
        language: str = "",
        **options: Any,
    ) -> EventView:
        """Create an event of ``kind`` (a key of :data:`tally.events.formats.FORMATS`: ``club``,
        ``round-robin``, ``swiss``, ``knockout``, ``groups``) of stored players, seeded in the
        order given; ``held_on`` defaults to today; ``language`` (``"de"``, ``"en"``, or ``""``
        to let the locale decide) is what its sheets speak.

        The settings every event has are checked here; ``tiebreaks`` and ``rank_by`` default to
        the format's. ``options`` are the formats' options by keyword (the table of
        :mod:`tally.events.formats.options`: ``double``, ``matches_per_pairing``, ``rounds``,
        ``lives``, ``best_of``, ...; the default for each not given): the format's settings
        dataclass checks them and refuses those that are not its own
        (:mod:`tally.events.formats`). ``unplayed`` is what a bye or a forfeit counts for in
        the Buchholz tiebreaks (:data:`tally.events.tiebreaks.UNPLAYED`); it and the
        ``progressive`` tiebreak follow the rounds, so an event without scored rounds refuses
        them (:func:`_check_round_tiebreaks`). ``seed_by`` is what its seeding list follows
        (``entry`` or ``rating``: :mod:`tally.store.seeding`); ``absence_score`` what a
        requested bye (an announced absence) scores, ``half`` or ``zero``
        (:mod:`tally.store.absences`).
        """
        known = every_option()
        values = given_options(options, known)
        clean = clean_event_name(name)
        fmt = _check_choices(kind, bye, withdrawal, language)
        _check_seed_by(fmt, values["seed_by"])
        _one_of("--absence-score", values["absence_score"], ABSENCE_SCORES)
        order = check_tiebreaks(fmt.default_tiebreaks if tiebreaks is None else tiebreaks)
        ranking = fmt.default_rank_by if rank_by is None else check_rank_by(rank_by)
        _check_round_tiebreaks(fmt, order, values["unplayed"])
        spec = checked_rules(rules)
        matches_per_pairing = values["matches_per_pairing"]
        if not 1 <= matches_per_pairing <= MAX_MATCHES_PER_PAIRING:
            raise Refused(
                Message(
                    N_("a pairing plays 1 to %(most)s matches, not %(count)s"),
                    most=MAX_MATCHES_PER_PAIRING,
                    count=matches_per_pairing,
                )
            )
        per_win = check_points_per_win(match_points_per_win)
        settings = fmt.settings(Given.of(values, players=len(players), bye=bye))
        columns = {
            column: values[name]
            for name, option in known.items()
            if (column := option.events_column()) is not None
        } | settings.columns()
        with self.store.writing() as conn:
            rows = _distinct_players(conn, players)
            eid = conn.execute(
                insert(t.events)
                .values(
                    name=clean,
                    kind=kind,
                    held_on=held_on or date.today(),
                    rules=spec,
                    match_points_per_win=per_win,
                    bye=bye,
                    withdrawal=withdrawal,
                    tiebreaks=",".join(order),
                    rank_by=ranking,
                    created_at=utc_now(),
                    language=language,
                    **columns,
                )
                .returning(t.events.c.id)
            ).scalar_one()
            draw = settings.draw()
            if draw is not None:
                knockouts.insert_format(conn, eid, draw)
            for row in rows:
                eventrows.add_event_player(conn, eid, row["id"])
            Audit(self.store).write(
                conn,
                "event create",
                "event",
                eid,
                f'created {fmt.audit_name} {eid} "{clean}" with {len(rows)} player(s)',
                {f"event:{eid}": None},
                {f"event:{eid}": snapshot(conn, "event", eid)},
                words=Message(
                    N_("Event %(event)s created (players: %(count)s)"), event=clean, count=len(rows)
                ),
            )
            return _event_view(conn, _event_row(conn, eid))

    def all(self) -> list[EventView]:
        """Every event, by date (then number)."""
        with self.store.reading() as conn:
            rows = (
                conn.execute(select(t.events).order_by(t.events.c.held_on, t.events.c.id))
                .mappings()
                .all()
            )
            return [_event_view(conn, row) for row in rows]

    def get(self, ref: str | int) -> EventView:
        """One event, by number or name."""
        with self.store.reading() as conn:
            return _event_view(conn, eventrows.resolve_event(conn, ref))

    def takes_entries(self, ref: str | int) -> bool:
        """Whether the event takes another player now (what :meth:`add_players` checks), so
        that its page offers "Add players" only where they can be added."""
        with self.store.reading() as conn:
            try:
                _check_entries(conn, eventrows.resolve_event(conn, ref), 0)
            except TallyError:
                return False
            return True

    def add_players(self, ref: str | int, players: Sequence[str]) -> EventView:
        """Add stored players to an event as its last seeds: to a club evening at any time, to a
        round robin until its first round is started (the schedule is made from the seeds), to a
        Swiss event while rounds remain to be started (a late entry: 0 match points so far)."""
        with self.store.writing() as conn:
            ev = _lock_event(conn, ref)
            eid = ev["id"]
            _check_entries(conn, ev, len(players))
            rows = _distinct_players(conn, players)
            listed = {p["player_id"] for p in eventrows.event_players(conn, eid)}
            for row in rows:
                if row["id"] in listed:
                    raise Refused(
                        Message(
                            N_("%(name)s plays in event %(id)s already"), name=row["name"], id=eid
                        )
                    )
            before = snapshot(conn, "event", eid)
            for row in rows:
                eventrows.add_event_player(conn, eid, row["id"])
            names = ", ".join(r["name"] for r in rows)
            Audit(self.store).write(
                conn,
                "event add",
                "event",
                eid,
                f"added {names} to event {eid}",
                {f"event:{eid}": before},
                {f"event:{eid}": snapshot(conn, "event", eid)},
                words=Message(N_("Added to %(event)s: %(names)s"), event=ev["name"], names=names),
            )
            return _event_view(conn, _event_row(conn, eid))

    def withdraw(self, ref: str | int, player: str) -> EventView:
        """Withdraw a player from an event. Their remaining matches are then handled by the
        event's rule: ``forfeit`` (each is won by the opponent) or ``void`` (they drop out of the
        standings); see the module docstring. ``tally audit undo`` takes a withdrawal back."""
        with self.store.writing() as conn:
            ev = _lock_event(conn, ref)
            eid = ev["id"]
            row = resolve_player(conn, player)
            entry = next(
                (p for p in eventrows.event_players(conn, eid) if p["player_id"] == row["id"]), None
            )
            if entry is None:
                raise NotFound(
                    Message(
                        N_('%(player)s does not play in event %(id)s "%(name)s"'),
                        player=row["name"],
                        id=eid,
                        name=ev["name"],
                    )
                )
            if entry["withdrawn_at"] is not None:
                raise Refused(
                    Message(
                        N_("%(name)s has withdrawn from event %(id)s already"),
                        name=row["name"],
                        id=eid,
                    )
                )
            before = snapshot(conn, "event", eid)
            conn.execute(
                update(t.event_players)
                .where(
                    (t.event_players.c.event_id == eid) & (t.event_players.c.player_id == row["id"])
                )
                .values(withdrawn_at=utc_now())
            )
            eventrows.drop_absences(conn, eid, row["id"])
            Audit(self.store).write(
                conn,
                "event withdraw",
                "event",
                eid,
                f"{row['name']} withdrew from event {eid} ({ev['withdrawal']})",
                {f"event:{eid}": before},
                {f"event:{eid}": snapshot(conn, "event", eid)},
                words=Message(
                    N_("%(name)s withdrew from %(event)s"), name=row["name"], event=ev["name"]
                ),
            )
            return _event_view(conn, _event_row(conn, eid))

    def rounds(self, ref: str | int, number: int | None = None) -> list[RoundView]:
        """The rounds of a round robin's schedule (only round ``number`` if given): pairings with
        table, players, first dealer and the matches made, with their results. For a Swiss event:
        the rounds started, and the next round's pairings as they would be made, once the round
        before it is finished (module docstring). An event seeded by rating whose seeding is not
        fixed yet shows round 1 as the ratings of now would seed it (:mod:`tally.store.seeding`)."""
        Results(self.store).ensure()
        ratings = Seeding(self.store).ratings_to_seed(ref)
        with self.store.reading() as conn:
            ev = eventrows.resolve_event(conn, ref)
            if format_of(ev["kind"]).ranks_by_elimination:
                return knockouts.rounds(conn, ev, number, ratings)
            data = _load_events(conn, t.events.c.id == ev["id"])
        e = data.events[0]
        if ratings is not None:
            by_id = {x.player_id: x for x in e.entrants}
            order = seeded_order([x.player_id for x in e.entrants], ratings)
            e = replace(
                e, entrants=tuple(replace(by_id[p], seed=k) for k, (p, _) in enumerate(order, 1))
            )
        if e.format.has_rounds and not e.round_robin:
            return _paired_rounds(e, data, number)
        sched = _schedule(e)
        if number is not None:
            _check_round(e, number, len(sched))
            sched = [sched[number - 1]]
        return [_round_view(e, data, r) for r in sched]

    def still_playing(self, ref: str | int, number: int) -> dict[str, int]:
        """The players of round ``number`` (not started yet) of a round robin or of a groups
        event's group stage who are still at a table of the round before that is not over:
        name -> that match. Starting the round then needs the director's confirmation
        (``force``); {} for other events and rounds."""
        Results(self.store).ensure()
        with self.store.reading() as conn:
            ev = eventrows.resolve_event(conn, ref)
            fmt = format_of(ev["kind"])
            if fmt.has_groups:
                return knockouts.still_playing(conn, ev, number)
            if not fmt.has_rounds_made_in_advance or _started(conn, ev["id"], number):
                return {}
            data = _load_events(conn, t.events.c.id == ev["id"])
        e = data.events[0]
        sched = _schedule(e)
        if not 1 <= number <= len(sched):
            return {}
        return {data.name(p): m for p, m in _still_playing(e, data, sched[number - 1]).items()}

    def started_rounds(self, ref: str | int) -> list[RoundView]:
        """The rounds of an event that have started, in order (without the next round's
        pairings as they would be made: that a round cannot be paired stops nothing)."""
        ev = self.get(ref)
        return [self.rounds(ev.id, k)[0] for k in sorted(ev.rounds_started)]

    def start_round(
        self, ref: str | int, number: int, *, force: bool = False, accept_rematches: bool = False
    ) -> RoundView:
        """Make the matches of round ``number`` as the event's format makes its next round (a
        round robin's from its schedule, a Swiss event's paired from the standings now, a
        knockout's drawn: :mod:`tally.store.knockouts`), in one transaction with one audit entry:
        ``tally audit undo`` removes the round while none of its matches has a deal. Refused for
        a round started already and for a format without rounds. A round robin's (or groups
        event's group) round is refused while one of its players is still at a table of the
        round before (:meth:`still_playing`), unless ``force``: the director confirmed. An
        event seeded by rating has its seeding fixed by the ratings of now when its first
        round is started (:mod:`tally.store.seeding`).
        ``accept_rematches``: a Swiss round that no pairing can make without a rematch takes
        the least bad one (the fewest rematches), its audit entry naming them."""
        ratings = Seeding(self.store).ratings_to_seed(ref)
        with self.store.writing() as conn:
            ev = _lock_event(conn, ref)
            if ratings is not None and not ev["seeded"]:
                fix_seeding(conn, ev, ratings)
                ev = _lock_event(conn, ev["id"])
            maker = _RoundMaker(self.store, conn, ev, force, accept_rematches)
            return format_of(ev["kind"]).start_round(maker, number)

    def standings(
        self, ref: str | int, *, tiebreaks: Sequence[str] | None = None, rank_by: str | None = None
    ) -> StandingsView:
        """The standings of an event: every player of it, ranked by match points (or their
        percentage: the event's ``rank_by``, or ``rank_by`` given) and then the event's
        tiebreaks (or ``tiebreaks``, to see another order); players still level share the rank
        and are listed in seed order. A player with a match still being played has ``running``
        above 0 and the standings are ``provisional``."""
        order = None if tiebreaks is None else check_tiebreaks(tiebreaks)
        ranking = None if rank_by is None else check_rank_by(rank_by)
        with self.store.reading() as conn:
            ev = eventrows.resolve_event(conn, ref)
            view = _event_view(conn, ev)
        if format_of(ev["kind"]).ranks_by_elimination:
            return knockouts.standings(self.store, view, tiebreaks=order)
        data, summed = _load_sums(self.store, t.events.c.id == ev["id"], many=False)
        e = data.events[0]
        order = e.tiebreaks if order is None else order
        ranking = e.rank_by if ranking is None else ranking
        games = _round_games(self.store, e) if _follows_rounds(e, order) else None
        settings = replace(e.ranking, tiebreaks=order, rank_by=ranking)
        rows = _ranked(data, summed, settings, rounds=games)
        if not e.format.has_rounds or ranking == "percentage":
            rows = played_first(rows)
        stage = _stage(e, summed.unresolved.get(e.id, 0))
        return StandingsView(
            title=e.name,
            event=view,
            events=(e.id,),
            date_from=e.held_on,
            date_to=e.held_on,
            tiebreaks=order,
            match_points_per_win=e.match_points_per_win,
            rows=tuple(rows),
            stage=str(stage),
            stage_wording=stage,
            withdrawn=tuple(data.name(p) for p in sorted(e.withdrawn, key=lambda p: _seed(e, p))),
            rank_by=ranking,
            provisional=bool(summed.running),
        )

    def season_standings(
        self,
        *,
        date_from: date | None = None,
        date_to: date | None = None,
        all_events: bool = False,
        tiebreaks: Sequence[str] | None = None,
        match_points_per_win: float | None = None,
        rank_by: str = "percentage",
    ) -> StandingsView:
        """The standings of a season: the club evenings (every event with ``all_events``) held
        between ``date_from`` and ``date_to`` (both included; open-ended when None), each match
        counted as in its event's standings (byes and withdrawals too).

        A won match earns the match points its event says; when the events disagree, give
        ``match_points_per_win`` to count every win alike. ``tiebreaks`` default to
        :data:`tally.events.tiebreaks.DEFAULT_TIEBREAKS`; players are ranked by their match-point
        percentage unless ``rank_by="points"`` (a season's players play different numbers of
        matches). Players are every player of those events. The matches are summed in SQL
        (:mod:`tally.store.totals`): a season of a million deals is a few thousand rows.
        """
        order = check_tiebreaks(DEFAULT_TIEBREAKS if tiebreaks is None else tiebreaks)
        ranking = check_rank_by(rank_by)
        if match_points_per_win is not None:
            match_points_per_win = check_points_per_win(match_points_per_win)
        if date_from is not None and date_to is not None and date_from > date_to:
            raise Refused(
                Message(
                    N_("the season cannot end (%(end)s) before it begins (%(begin)s)"),
                    end=str(date_to),
                    begin=str(date_from),
                )
            )
        which: ColumnElement[bool] = t.events.c.id.is_not(None)
        if not all_events:
            which = and_(
                which,
                t.events.c.kind.in_([f.kind for f in FORMATS.values() if f.counts_in_the_season]),
            )
        if date_from is not None:
            which = and_(which, t.events.c.held_on >= date_from)
        if date_to is not None:
            which = and_(which, t.events.c.held_on <= date_to)
        data, summed = _load_sums(self.store, which, many=True, scoring_byes_only=True)
        if match_points_per_win is None:
            values = sorted({e.match_points_per_win for e in data.events})
            if len(values) > 1:
                raise Refused(
                    Message(
                        N_(
                            "the season's events give different match points for a win "
                            "(%(points)s): say how many every win counts"
                        ),
                        points=", ".join(f"{v:g}" for v in values),
                    )
                )
            per_win = values[0] if values else 1.0
        else:
            per_win = float(match_points_per_win)
        withdrawn: set[int] = set().union(*(e.withdrawn for e in data.events))
        players = sorted(summed.players, key=lambda p: data.name(p).casefold())
        settings = Ranking(order, ranking, per_win, per_win, _season_requested(data, per_win))
        rows = _ranked(data, summed, settings, players)
        if ranking == "percentage":
            rows = played_first(rows)
        title = season_title(all_events, date_from, date_to)
        return StandingsView(
            title=str(title),
            title_wording=title,
            event=None,
            events=tuple(e.id for e in data.events),
            date_from=date_from,
            date_to=date_to,
            tiebreaks=order,
            match_points_per_win=per_win,
            rows=tuple(rows),
            stage="",
            withdrawn=tuple(sorted((data.name(p) for p in withdrawn), key=str.casefold)),
            rank_by=ranking,
            provisional=bool(summed.running),
        )

    def cross_table(self, ref: str | int) -> CrossTableView:
        """The cross-table of an event (made for round robins; a club evening gets one too),
        its players in the order of the standings: each player's results against each other
        player, their own game points first (``"7:3"``),
        ``+``/``-`` for a match won or lost by forfeit; matches not over are left out; and the
        rounds each player sat out (``byes``)."""
        view, data, e = _load_one(self.store, ref)
        players = _players_of([e], data)
        if len(players) < 2:
            raise Refused(
                Message(
                    N_('event %(id)s "%(name)s" has fewer than two players: no cross-table'),
                    id=e.id,
                    name=e.name,
                )
            )
        place = {r.player: i for i, r in enumerate(self.standings(e.id).rows)}
        players = sorted(players, key=lambda p: place.get(data.name(p), len(place)))
        index = {data.name(p): i for i, p in enumerate(players)}
        cells: list[list[list[tuple[tuple[int, int, int], str]]]] = [
            [[] for _ in players] for _ in players
        ]
        for counted in _counted(e, data).results:
            r = counted.result
            i, j = index[r.player_a], index[r.player_b]
            if counted.forfeit:
                a_text, b_text = ("+", "-") if r.winner == r.player_a else ("-", "+")
            else:
                a_text = f"{r.game_points_a}:{r.game_points_b}"
                b_text = f"{r.game_points_b}:{r.game_points_a}"
            cells[i][j].append((counted.key, a_text))
            cells[j][i].append((counted.key, b_text))
        sat_out: dict[int, list[int]] = defaultdict(list)
        for number, player in sorted(e.started.items()):
            if player is not None:
                sat_out[player].append(number)
        return CrossTableView(
            event=view,
            players=tuple(data.name(p) for p in players),
            cells=tuple(
                tuple(tuple(text for _, text in sorted(cell)) for cell in row) for row in cells
            ),
            byes=tuple(tuple(sat_out.get(p, ())) for p in players),
        )

    def round_by_round(self, ref: str | int) -> RoundByRoundView:
        """A round robin or Swiss event round by round (:class:`RoundByRoundView`): for each
        player in the order of the standings, each round started: the opponent, the result as
        the cross-table writes it, the match points it earned (a win, a forfeit won, a scoring
        bye) and the running total. Matches without a round (a club evening's) are left out."""
        view, data, e = _load_one(self.store, ref)
        if not e.format.has_scored_rounds:
            raise Refused(
                Message(
                    N_(
                        'event %(id)s "%(name)s" is not a round robin or Swiss event: it has '
                        "no rounds to show one by one"
                    ),
                    id=e.id,
                    name=e.name,
                )
            )
        ranked = self.standings(e.id).rows
        index = {r.player: i for i, r in enumerate(ranked)}
        total = max(e.started, default=0)
        results: list[list[tuple[str | None, list[str], float]]] = [
            [(None, [], 0.0) for _ in range(total)] for _ in ranked
        ]
        for counted in sorted(_counted(e, data).results, key=lambda c: c.key):
            r, number = counted.result, counted.key[0]
            if not 1 <= number <= total:
                continue
            for me, other, mine, theirs in (
                (r.player_a, r.player_b, r.game_points_a, r.game_points_b),
                (r.player_b, r.player_a, r.game_points_b, r.game_points_a),
            ):
                won = r.winner == me
                text = ("+" if won else "-") if counted.forfeit else f"{mine}:{theirs}"
                _, texts, points = results[index[me]][number - 1]
                results[index[me]][number - 1] = (
                    other,
                    [*texts, text],
                    points + (e.match_points_per_win if won else 0),
                )
        for number, player in e.started.items():
            if player is not None and 1 <= number <= total and data.name(player) in index:
                per_bye = e.match_points_per_win if e.bye == "win" else 0.0
                results[index[data.name(player)]][number - 1] = (None, ["bye"], per_bye)
        for number, player in e.absences:  # a requested bye
            if number in e.started and 1 <= number <= total and data.name(player) in index:
                results[index[data.name(player)]][number - 1] = (None, ["bye"], e.absence_points)
        cells = []
        for row in results:
            running, line = 0.0, []
            for opponent, texts, points in row:
                running += points
                line.append(RoundCellView(opponent, " ".join(texts), points, running))
            cells.append(tuple(line))
        return RoundByRoundView(
            view,
            total,
            tuple(r.player for r in ranked),
            tuple(r.rank for r in ranked),
            tuple(cells),
        )
