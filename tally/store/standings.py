"""The standings of an event and of a season, an event's cross-table and its round-by-round
table: the matches counted (byes, withdrawals, absences), summed in SQL and ranked by
:mod:`tally.events.tiebreaks`. Always derived, never stored (see :mod:`tally.store.events`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import and_, func, select
from sqlalchemy.sql import ColumnElement

from tally import names
from tally.errors import Message, NotFound, Refused
from tally.events.formats import FORMATS, format_of
from tally.events.tiebreaks import (
    DEFAULT_TIEBREAKS,
    MatchResult,
    PairResult,
    Ranking,
    RoundGame,
    StandingRow,
    check_tiebreaks,
    in_category,
    needs_rounds,
    rank_pairs,
)
from tally.events.withdrawals import forfeit_winner
from tally.i18n import N_
from tally.store import eventrows, knockouts
from tally.store import tables as t
from tally.store.derivation import Results
from tally.store.eventchecks import check_points_per_win, check_rank_by
from tally.store.eventdata import (
    EventData,
    EventMatch,
    LoadedEvent,
    add_names,
    event_view,
    load_events,
    load_one,
    schedule_of,
    total_rounds,
)
from tally.store.totals import MatchTotals, PairTotals, sum_matches
from tally.store.transactions import Database
from tally.store.views import CrossTableView, RoundByRoundView, RoundCellView, StandingsView

__all__ = [
    "counted_results",
    "cross_table",
    "follows_rounds",
    "forfeit_winner_of",
    "games_of",
    "nobody_came",
    "played_first",
    "players_of",
    "requested_byes",
    "round_by_round",
    "season_standings",
    "season_title",
    "seed_of",
    "standings",
]


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
    withdrawal rules (:func:`forfeit_winner_of`, :func:`_unmade`)."""

    results: list[_Result]
    byes: dict[int, int]
    unresolved: int


def forfeit_winner_of(e: LoadedEvent, a: int, b: int, number: int | None = None) -> int | None:
    """Who a withdrawal makes the winner of a match between ``a`` and ``b`` that nobody has
    won, under the ``forfeit`` rule (:func:`tally.events.withdrawals.forfeit_winner`: the
    opponent of the first to withdraw, if still in then; a game played stands); a scheduled
    match never made is of round ``number``. None when neither withdrew (the match is still
    being played) or the match is void (the ``void`` rule, or both had withdrawn)."""
    if e.withdrawal != "forfeit" or not e.withdrawn:
        return None
    return forfeit_winner(a, b, e.left, None if number is None else e.since(number))


def _unmade(
    e: LoadedEvent, made: Counter[tuple[int | None, int | None]]
) -> list[tuple[int, int, int, int, int]]:
    """A round robin's scheduled matches never made that a withdrawal forfeits: (round,
    table, a, b, winner) once per missing match, ``made`` counting the matches made per
    (round, table). Only in the rounds started: a forfeit is credited round by round, as
    the rounds are played."""
    out: list[tuple[int, int, int, int, int]] = []
    if not (e.round_robin and e.withdrawn):
        return out
    for rnd in schedule_of(e):
        if rnd.number not in e.started:
            continue
        for p in rnd.pairings:
            a, b = int(p.first), int(p.second)
            if {a, b} & e.annulled:
                continue  # struck out: counts for nobody
            winner = forfeit_winner_of(e, a, b, rnd.number)
            if winner is None:
                continue
            missing = e.matches_per_pairing - made[(rnd.number, p.table)]
            out.extend((rnd.number, p.table, a, b, winner) for _ in range(missing))
    return out


def _byes(e: LoadedEvent) -> dict[int, int]:
    """The byes of an event per player id (rounds started with someone sitting out)."""
    byes: dict[int, int] = {}
    for player in e.started.values():
        if player is not None:
            byes[player] = byes.get(player, 0) + 1
    return byes


def requested_byes(e: LoadedEvent) -> list[int]:
    """The requested byes of an event: who announced an absence from a round started, once
    per such round."""
    return [p for number, p in e.absences if number in e.started]


def _season_requested(data: EventData, per_win: float) -> float:
    """What a requested bye scores in a season counted at ``per_win`` a win: half of it where
    the events that granted requested byes score them half (the default), nothing where they
    all score them nothing (a season mixing the two counts them half)."""
    scores = {e.absence_score for e in data.events if requested_byes(e)}
    return per_win / 2 if scores != {"zero"} else 0.0


def counted_results(e: LoadedEvent, data: EventData) -> _Counted:
    """The results of an event's matches as the standings count them, each with a sort key
    (round, match, order): finished matches, then the withdrawal rule on a withdrawn player's
    remaining matches. Also the byes and the number of matches still to finish."""
    out: list[_Result] = []
    unresolved = 0
    name = data.names.__getitem__

    def result(m: EventMatch, winner: int) -> MatchResult:
        # m[8:14]: gp_a, gp_b, schneider_a, schneider_b, schwarz_a, schwarz_b
        return MatchResult(name(m.a), name(m.b), name(winner), *m[8:14])

    made: Counter[tuple[int | None, int | None]] = Counter()
    for m in data.matches_of(e.id):
        made[(m.round_number, m.table_number)] += 1
        if {m.a, m.b} & e.annulled:
            continue  # a withdrawal before half of the games: struck out
        key = (m.round_number or 0, m.id, 0)
        if m.winner is not None:
            out.append(_Result(key, result(m, m.winner), False))
            continue
        missed, came = e.no_show(m.round_number, m.a, m.b)
        if missed:  # a one-round forfeit (+/-), or nobody's (-/-)
            if came is not None:
                out.append(_Result(key, result(m, came), True))
            continue
        winner = forfeit_winner_of(e, m.a, m.b)
        if winner is not None:
            out.append(_Result(key, result(m, winner), True))
        elif not {m.a, m.b} & e.withdrawn:
            unresolved += 1
    for k, (rnd, table, a, b, winner) in enumerate(_unmade(e, made)):
        unmade = EventMatch(0, e.id, a, b, a, e.rules, rnd, table)
        out.append(_Result((rnd, 1 << 40, k), result(unmade, winner), True))
    return _Counted(out, _byes(e), unresolved)


def nobody_came(e: LoadedEvent, data: EventData) -> list[tuple[int, int, int, int]]:
    """The matches of event ``e`` neither player came to (``-``/``-``, a no-show of both:
    :mod:`tally.store.noshows`), which count for nobody: (round, match, a, b)."""
    return [
        (m.round_number or 0, m.id, m.a, m.b)
        for m in data.matches_of(e.id)
        if m.winner is None and e.no_show(m.round_number, m.a, m.b) == (True, None)
    ]


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
) -> tuple[EventData, _Summed]:
    """The events ``which`` selects and their standings' sums (:mod:`tally.store.totals`):
    finished matches added up per pair in SQL, each event's withdrawal rule applied to its
    matches nobody has won and to a round robin's matches never made. ``scoring_byes_only``
    counts only the byes of events whose bye scores (a season)."""
    Results(store).ensure()
    with store.reading() as conn:
        data = load_events(conn, which, with_matches=False)
        chosen = select(t.events.c.id).where(which)
        struck = {e.id: e.annulled for e in data.events if e.annulled}
        pairs, open_matches = sum_matches(conn, chosen, many=many, struck=struck)
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
        add_names(conn, data, ids)
    return data, _summed(data, pairs, open_matches, made, scoring_byes_only)


def _summed(
    data: EventData,
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
        missed, winner = e.no_show(o.round_number, o.a, o.b)
        if not missed:
            winner = forfeit_winner_of(e, o.a, o.b)
        if winner is not None:
            a_won = int(winner == o.a)
            out.append(PairResult(name(o.a), name(o.b), a_won, 1 - a_won, *o[6:]))
        elif not missed and not {o.a, o.b} & e.withdrawn:
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
    requested = Counter(p for e in data.events for p in requested_byes(e))
    return _Summed(out, dict(byes), running, dict(unresolved), players, dict(requested))


def _ranked(
    data: EventData,
    summed: _Summed,
    ranking: Ranking,
    players: list[int] | None = None,
    *,
    rounds: dict[str, list[RoundGame | None]] | None = None,
) -> list[Any]:
    """:func:`tally.events.tiebreaks.rank_pairs` over the sums, by player name, of
    ``players`` only (a round robin's player struck out is ranked nowhere: their byes and
    rounds are left out with them)."""
    name = data.name
    ranked = players or summed.players
    kept = set(ranked)
    shown = {name(p) for p in ranked}
    return rank_pairs(
        [name(p) for p in ranked],
        summed.pairs,
        ranking,
        byes={name(p): n for p, n in summed.byes.items() if p in kept},
        running={name(p): n for p, n in summed.running.items() if p in kept},
        rounds=None if rounds is None else {k: v for k, v in rounds.items() if k in shown},
        requested_byes={name(p): n for p, n in summed.requested.items() if p in kept},
    )


def follows_rounds(e: LoadedEvent, order: Sequence[str]) -> bool:
    """Whether event ``e``'s standings by ``order`` need each player's rounds: the
    progressive score, or the Buchholz tiebreaks under FIDE's virtual opponent, in an event
    that plays rounds."""
    return format_of(e.kind).has_scored_rounds and needs_rounds(order, e.unplayed)


def _round_games(store: Database, e: LoadedEvent) -> dict[str, list[RoundGame | None]]:
    """Each player's rounds of event ``e`` (the rounds started), by name: the match points
    each earned and the opponent, a forfeit (the withdrawal rule) as not played, a bye as a
    round without opponent; None for a round the player was not in or is still playing."""
    _view, data, loaded = load_one(store, e.id)
    return games_of(e, data, loaded)


def games_of(
    e: LoadedEvent, data: EventData, loaded: LoadedEvent
) -> dict[str, list[RoundGame | None]]:
    """:func:`_round_games` of event ``e`` as ``loaded`` (with its matches in ``data``)."""
    total = max(loaded.started, default=0)
    games: dict[str, list[RoundGame | None]] = {
        data.name(x.player_id): [None] * total for x in loaded.entrants
    }
    for counted in counted_results(loaded, data).results:
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


def players_of(evs: Sequence[LoadedEvent], data: EventData) -> list[int]:
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


def seed_of(e: LoadedEvent, player_id: int) -> int:
    return next((x.seed for x in e.entrants if x.player_id == player_id), 1 << 30)


#: How far an event is (:attr:`StandingsView.stage`).
_ROUND_OF = N_("round %(round)s of %(rounds)s")
_NOT_STARTED_OF = N_("not started (%(rounds)s rounds)")
_FINAL = Message(N_("final"))
_NO_STAGE = Message("")


def _stage(e: LoadedEvent, unresolved: int) -> Message:
    """Where a round robin stands (no words for a club evening); ``unresolved``: its matches
    nobody has won yet that no withdrawal decides."""
    if not e.format.has_scored_rounds:
        return _NO_STAGE
    total = total_rounds(e)
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


def category_standings(store: Database, view: StandingsView, category: str) -> StandingsView:
    """The standings ``view`` of one category's players (``tally player category``), ranked
    within it, the overall rank beside (:func:`tally.events.tiebreaks.in_category`); refused
    for a category no player is in."""
    clean, key = names.category_name(category)
    pc = t.player_categories
    with store.reading() as conn:
        found = conn.execute(
            select(t.players.c.name, pc.c.category)
            .join(pc, pc.c.player_id == t.players.c.id)
            .where(pc.c.category_key == key)
        ).all()
        members = {name for name, _category in found}
        known = sorted(set(conn.execute(select(pc.c.category)).scalars()))
    if not members:
        raise NotFound(
            Message(
                N_('no player is in category "%(category)s" (the categories: %(known)s)'),
                category=clean,
                known=", ".join(known) or "-",
            )
        )
    rows = in_category(view.rows, members)
    return replace(view, rows=tuple(rows), category=found[0][1])


def standings(
    store: Database,
    ref: str | int,
    *,
    tiebreaks: Sequence[str] | None = None,
    rank_by: str | None = None,
) -> StandingsView:
    """The standings of an event: every player of it, ranked by match points (or their
    percentage: the event's ``rank_by``, or ``rank_by`` given) and then the event's
    tiebreaks (or ``tiebreaks``, to see another order); players still level share the rank
    and are listed in seed order. A player with a match still being played has ``running``
    above 0 and the standings are ``provisional``. A round robin's player struck out (withdrawn
    before half of their games: every result annulled) is ranked nowhere: ``struck_out``."""
    order = None if tiebreaks is None else check_tiebreaks(tiebreaks)
    ranking = None if rank_by is None else check_rank_by(rank_by)
    with store.reading() as conn:
        ev = eventrows.resolve_event(conn, ref)
        view = event_view(conn, ev)
    if format_of(ev["kind"]).ranks_by_elimination:
        return knockouts.standings(store, view, tiebreaks=order)
    data, summed = _load_sums(store, t.events.c.id == ev["id"], many=False)
    e = data.events[0]
    order = e.tiebreaks if order is None else order
    ranking = e.rank_by if ranking is None else ranking
    games = _round_games(store, e) if follows_rounds(e, order) else None
    settings = replace(e.ranking, tiebreaks=order, rank_by=ranking)
    ranked = [p for p in summed.players if p not in e.annulled]
    rows = _ranked(data, summed, settings, ranked, rounds=games)
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
        withdrawn=tuple(data.name(p) for p in sorted(e.withdrawn, key=lambda p: seed_of(e, p))),
        rank_by=ranking,
        provisional=bool(summed.running),
        struck_out=tuple(data.name(p) for p in sorted(e.annulled, key=lambda p: seed_of(e, p))),
    )


def _season_events(
    all_events: bool, date_from: date | None, date_to: date | None
) -> ColumnElement[bool]:
    """Which events a season counts: the club evenings (every event with ``all_events``) held
    between ``date_from`` and ``date_to``; refused when it would end before it begins."""
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
            which, t.events.c.kind.in_([f.kind for f in FORMATS.values() if f.counts_in_the_season])
        )
    if date_from is not None:
        which = and_(which, t.events.c.held_on >= date_from)
    if date_to is not None:
        which = and_(which, t.events.c.held_on <= date_to)
    return which


def _season_points_per_win(data: EventData, match_points_per_win: float | None) -> float:
    """The match points a win counts in a season: ``match_points_per_win`` when given, else
    what all its events say; refused when they disagree."""
    if match_points_per_win is not None:
        return float(match_points_per_win)
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
    return values[0] if values else 1.0


def season_standings(
    store: Database,
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
    which = _season_events(all_events, date_from, date_to)
    data, summed = _load_sums(store, which, many=True, scoring_byes_only=True)
    per_win = _season_points_per_win(data, match_points_per_win)
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


def cross_table(store: Database, ref: str | int) -> CrossTableView:
    """The cross-table of an event (made for round robins; a club evening gets one too),
    its players in the order of the standings: each player's results against each other
    player, their own game points first (``"7:3"``),
    ``+``/``-`` for a match won or lost by forfeit, ``-`` for both when neither came; matches
    not over are left out; and the
    rounds each player sat out (``byes``)."""
    view, data, e = load_one(store, ref)
    players = players_of([e], data)
    if len(players) < 2:
        raise Refused(
            Message(
                N_('event %(id)s "%(name)s" has fewer than two players: no cross-table'),
                id=e.id,
                name=e.name,
            )
        )
    place = {r.player: i for i, r in enumerate(standings(store, e.id).rows)}
    players = sorted(players, key=lambda p: place.get(data.name(p), len(place)))
    index = {data.name(p): i for i, p in enumerate(players)}
    cells: list[list[list[tuple[tuple[int, int, int], str]]]] = [
        [[] for _ in players] for _ in players
    ]
    for counted in counted_results(e, data).results:
        r = counted.result
        i, j = index[r.player_a], index[r.player_b]
        if counted.forfeit:
            a_text, b_text = ("+", "-") if r.winner == r.player_a else ("-", "+")
        else:
            a_text = f"{r.game_points_a}:{r.game_points_b}"
            b_text = f"{r.game_points_b}:{r.game_points_a}"
        cells[i][j].append((counted.key, a_text))
        cells[j][i].append((counted.key, b_text))
    for number, match, a, b in nobody_came(e, data):  # -/-
        i, j = index[data.name(a)], index[data.name(b)]
        cells[i][j].append(((number, match, 0), "-"))
        cells[j][i].append(((number, match, 0), "-"))
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


def _add_nobody_came(
    e: LoadedEvent,
    data: EventData,
    index: dict[str, int],
    results: list[list[tuple[str | None, list[str], float]]],
) -> None:
    """Put the matches neither player came to (``-``/``-``) into a round-by-round table's
    ``results`` (rows by ``index``): the opponent, ``-``, no match points."""
    total = len(results[0]) if results else 0
    for number, _match, a, b in nobody_came(e, data):
        for mine, theirs in ((a, b), (b, a)):
            if 1 <= number <= total and data.name(mine) in index:
                results[index[data.name(mine)]][number - 1] = (data.name(theirs), ["-"], 0.0)


def round_by_round(store: Database, ref: str | int) -> RoundByRoundView:
    """A round robin or Swiss event round by round (:class:`RoundByRoundView`): for each
    player in the order of the standings, each round started: the opponent, the result as
    the cross-table writes it, the match points it earned (a win, a forfeit won, a scoring
    bye) and the running total. Matches without a round (a club evening's) are left out."""
    view, data, e = load_one(store, ref)
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
    ranked = standings(store, e.id).rows
    index = {r.player: i for i, r in enumerate(ranked)}
    total = max(e.started, default=0)
    results: list[list[tuple[str | None, list[str], float]]] = [
        [(None, [], 0.0) for _ in range(total)] for _ in ranked
    ]
    for counted in sorted(counted_results(e, data).results, key=lambda c: c.key):
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
    _add_nobody_came(e, data, index, results)
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
        view, total, tuple(r.player for r in ranked), tuple(r.rank for r in ranked), tuple(cells)
    )
