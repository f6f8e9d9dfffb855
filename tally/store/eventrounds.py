"""An event's rounds: their views, a round robin's scheduled rounds and a Swiss event's
rounds paired from the standings, and the starting of a round in the caller's transaction."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Advice, Message, NotFound, Refused
from tally.events.formats import EventFormat, RoundState, format_of
from tally.events.schedule import Pairing, Round, first_dealer
from tally.events.swiss import Played
from tally.events.tiebreaks import pairs_of, rank_pairs
from tally.i18n import N_
from tally.store import eventrows, knockouts
from tally.store import tables as t
from tally.store.eventdata import (
    EventData,
    EventMatch,
    LoadedEvent,
    load_events,
    round_started,
    total_rounds,
)
from tally.store.roundrows import insert_round
from tally.store.standings import (
    counted_results,
    follows_rounds,
    forfeit_winner_of,
    games_of,
    players_of,
    requested_byes,
    seed_of,
)
from tally.store.transactions import Database
from tally.store.views import PairingMatchView, PairingView, RoundView

__all__ = ["RoundMaker", "check_round", "paired_rounds", "round_view", "still_at_tables"]


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


def _paired_later(e: LoadedEvent, number: int, waiting: Sequence[int]) -> Message:
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


@dataclass(frozen=True)
class RoundMaker:
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
    if round_started(conn, eid, number) or earlier:
        raise eventrows.round_refused(eid, ev["name"], number, number + 1, earlier)
    rnd = sched[number - 1]
    if not force:
        loaded = load_events(conn, t.events.c.id == eid)
        busy = still_at_tables(loaded.events[0], loaded, rnd)
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
    data = load_events(conn, t.events.c.id == eid)
    return round_view(data.events[0], data, rnd)


def still_at_tables(e: LoadedEvent, data: EventData, rnd: Round) -> dict[int, int]:
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


def check_round(e: LoadedEvent, number: int, total: int) -> None:
    if not 1 <= number <= total:
        raise NotFound(_no_such_round(Message(N_("round robin")), e.id, e.name, total, number))


def round_view(e: LoadedEvent, data: EventData, rnd: Round) -> RoundView:
    by_table: dict[int | None, list[EventMatch]] = defaultdict(list)
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
        rounds=total_rounds(e),
        started=started,
        pairings=pairings,
        bye=None if rnd.bye is None else data.name(int(rnd.bye)),
        bye_scores=started and e.bye == "win" and e.started[rnd.number] is not None,
        absent=tuple(
            data.name(p) for p in sorted(e.absent(rnd.number), key=lambda p: seed_of(e, p))
        ),
        absence_points=e.absence_points,
    )


def _pairing_view(
    e: LoadedEvent, data: EventData, p: Pairing, made: list[EventMatch], number: int | None = None
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
    missed, came = e.no_show(number, a, b)
    forfeit_winner: str | None = None
    if {a, b} & e.annulled:
        status = "annulled"  # a withdrawal before half of the games: counts for nobody
    elif done:
        status = "played"
    elif missed:  # a one-round forfeit (:mod:`tally.store.noshows`)
        status = "void" if came is None else "forfeit"
        forfeit_winner = None if came is None else data.name(came)
    elif gone:
        through = forfeit_winner_of(e, a, b, None if views else number)
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
        no_show=tuple(data.name(x) for x in (a, b) if (number, x) in e.no_shows),
    )


def _swiss_played(e: LoadedEvent, data: EventData) -> list[EventMatch]:
    """The first match of each pairing of a Swiss event's started rounds (the one whose first
    dealer counts for the dealer balance), in round and table order."""
    first: dict[tuple[int, int], EventMatch] = {}
    for m in data.matches_of(e.id):
        if m.round_number is not None and m.table_number is not None:
            first.setdefault((m.round_number, m.table_number), m)
    return [first[k] for k in sorted(first)]


def _swiss_unfinished(e: LoadedEvent, data: EventData, number: int) -> list[int]:
    """The matches of round ``number`` still to be finished (a withdrawn player's are left to
    the withdrawal rule, so they count as finished)."""
    gone = e.withdrawn
    return [
        m.id
        for m in data.matches_of(e.id)
        if m.round_number == number
        and m.winner is None
        and not {m.a, m.b} & gone
        and not e.no_show(number, m.a, m.b)[0]
    ]


def _swiss_pairing(
    e: LoadedEvent, data: EventData, number: int, *, rematches: bool = False
) -> Round:
    """Round ``number`` of an event paired round by round as its format pairs it now (a Swiss
    event: :func:`tally.events.swiss.pair_round`), as a :class:`~tally.events.schedule.Round` over
    player ids (as text), ``first`` dealing first."""
    counted = counted_results(e, data)
    order = players_of([e], data)
    names = [data.name(p) for p in order]
    rows = rank_pairs(
        names,
        pairs_of(names, [r.result for r in counted.results]),
        # pairing goes by match points whatever the published standings rank by first
        replace(e.ranking, rank_by="points"),
        byes={data.name(p): n for p, n in counted.byes.items()},
        requested_byes=Counter(data.name(p) for p in requested_byes(e)),
        # the published standings' order: the same rounds and unplayed-round rule
        rounds=games_of(e, data, e) if follows_rounds(e, e.tiebreaks) else None,
    )
    ids = {data.name(p): p for p in order}
    listed = {x.player_id for x in e.entrants if not x.withdrawn}
    played = [  # a one-round forfeit is no game: they may meet again, no dealer counted
        Played(m.round_number or 0, str(m.first_dealer), str(m.b if m.first_dealer == m.a else m.a))
        for m in _swiss_played(e, data)
        if not e.no_show(m.round_number, m.a, m.b)[0]
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


def _floats(e: LoadedEvent, data: EventData, number: int) -> dict[str, str]:
    """How each player floated in round ``number`` of event ``e`` (by name): ``"down"``
    for meeting a lower score or the pairing's bye, ``"up"`` for meeting a higher score;
    scores as they were before the round."""
    if number not in e.started:
        return {}
    games = games_of(e, data, e)
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


def _first_round(e: LoadedEvent, data: EventData) -> int:
    """How many players round 1 of event ``e`` was paired among: those who played it, its
    bye and its absences (0 before it is paired)."""
    if 1 not in e.started:
        return 0
    there = {x for m in data.matches_of(e.id) if m.round_number == 1 for x in (m.a, m.b)}
    bye = e.started[1]
    return len(there | e.absent(1) | ({bye} if bye is not None else set()))


def _swiss_round_of(e: LoadedEvent, data: EventData, number: int) -> Round:
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


def _swiss_next(e: LoadedEvent, number: int) -> None:
    """Refuse to start round ``number`` of a Swiss event unless it is the next one."""
    total = e.rounds or 0
    if not 1 <= number <= total:
        raise NotFound(_no_such_round(Message(e.format.audit_name), e.id, e.name, total, number))
    following = max(e.started, default=0) + 1
    if number in e.started or number != following:
        raise eventrows.round_refused(e.id, e.name, number, following)


def paired_rounds(e: LoadedEvent, data: EventData, number: int | None) -> list[RoundView]:
    """The rounds of a Swiss event: those started, then the next one as it would be paired
    now when the round before it is finished (only round ``number`` if given)."""
    total = e.rounds or 0
    if number is not None and not 1 <= number <= total:
        raise NotFound(_no_such_round(Message(e.format.audit_name), e.id, e.name, total, number))
    views = [
        round_view(e, data, _swiss_round_of(e, data, k))
        for k in sorted(e.started)
        if number in (None, k)
    ]
    following = max(e.started, default=0) + 1
    if number is not None and number in e.started:
        return views
    waiting = _swiss_unfinished(e, data, following - 1)
    if following <= total and number in (None, following) and not waiting:
        views.append(round_view(e, data, _swiss_pairing(e, data, following)))
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
    data = load_events(conn, t.events.c.id == eid)
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
    met = {
        frozenset((m.a, m.b))
        for m in _swiss_played(e, data)
        if not e.no_show(m.round_number, m.a, m.b)[0]
    }
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
    data = load_events(conn, t.events.c.id == eid)
    return round_view(data.events[0], data, rnd)
