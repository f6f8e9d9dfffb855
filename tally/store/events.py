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

from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Message, NotFound, Refused, TallyError
from tally.events.formats import FORMATS, EventFormat, Given, Settings, every_option, format_of
from tally.events.formats.base import MAX_MATCHES_PER_PAIRING
from tally.events.formats.options import given_options
from tally.events.tiebreaks import check_tiebreaks
from tally.i18n import N_
from tally.store import eventrows, knockouts, standings
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot, utc_now
from tally.store.derivation import Results, checked_rules
from tally.store.eventchecks import (
    check_choices,
    check_points_per_win,
    check_rank_by,
    check_round_tiebreaks,
    check_seed_by,
    clean_event_name,
    one_of,
)
from tally.store.eventdata import (
    event_row,
    event_view,
    load_events,
    lock_event,
    round_started,
    schedule_of,
)
from tally.store.eventrounds import (
    RoundMaker,
    check_round,
    paired_rounds,
    round_view,
    still_at_tables,
)
from tally.store.eventrows import ABSENCE_SCORES
from tally.store.players import resolve_player
from tally.store.seeding import Seeding, fix_seeding, seeded_order
from tally.store.transactions import Database
from tally.store.treasurer import refuse_unchecked
from tally.store.views import CrossTableView, EventView, RoundByRoundView, RoundView, StandingsView

__all__ = ["Events", "clean_event_name"]


def _check_entries(conn: Connection, ev: RowMapping, adding: int) -> None:
    """Refuse ``adding`` players to the event when its kind no longer takes them: a round
    robin once started (the schedule is made from the seeds), a knockout by its own rule, a
    Swiss event once its last round is started."""
    eid = ev["id"]
    fmt = format_of(ev["kind"])
    if fmt.has_rounds_made_in_advance and round_started(conn, eid):
        raise eventrows.entries_refused(
            eid, ev["name"], "a round robin's schedule is made from its entries"
        )
    if fmt.ranks_by_elimination:
        knockouts.check_late_entry(conn, ev, adding)
    if fmt.pairs_from_standings and round_started(conn, eid, ev["rounds"]):
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


def _check_matches_per_pairing(count: int) -> None:
    if not 1 <= count <= MAX_MATCHES_PER_PAIRING:
        raise Refused(
            Message(
                N_("a pairing plays 1 to %(most)s matches, not %(count)s"),
                most=MAX_MATCHES_PER_PAIRING,
                count=count,
            )
        )


def _checked_event(
    name: str,
    kind: str,
    *,
    players: int,
    rules: str,
    match_points_per_win: float,
    given: dict[str, str],
    tiebreaks: Sequence[str] | None,
    rank_by: str | None,
    options: dict[str, Any],
) -> tuple[EventFormat, Settings, dict[str, Any]]:
    """Every setting of a new event checked, in the order :meth:`Events.create` promises:
    its format, the format's settings and the columns of its row. ``given``: its ``bye``,
    ``withdrawal`` and ``language``; ``players``: how many it is created with."""
    known = every_option()
    values = given_options(options, known)
    clean = clean_event_name(name)
    fmt = check_choices(kind, given["bye"], given["withdrawal"], given["language"])
    check_seed_by(fmt, values["seed_by"])
    one_of("--absence-score", values["absence_score"], ABSENCE_SCORES)
    order = check_tiebreaks(fmt.default_tiebreaks if tiebreaks is None else tiebreaks)
    ranking = fmt.default_rank_by if rank_by is None else check_rank_by(rank_by)
    check_round_tiebreaks(fmt, order, values["unplayed"])
    spec = checked_rules(rules)
    _check_matches_per_pairing(values["matches_per_pairing"])
    per_win = check_points_per_win(match_points_per_win)
    settings = fmt.settings(Given.of(values, players=players, bye=given["bye"]))
    columns = {
        column: values[option_name]
        for option_name, option in known.items()
        if (column := option.events_column()) is not None
    } | settings.columns()
    row = {"name": clean, "kind": kind, "rules": spec, "match_points_per_win": per_win}
    row |= {"tiebreaks": ",".join(order), "rank_by": ranking}
    return fmt, settings, row | given | columns


def _team_entries(
    store: Database,
    kind: str,
    given: tuple[Sequence[str], Sequence[str]],
    players: Sequence[str],
    options: dict[str, Any],
) -> tuple[list[tuple[int | None, str, list[str]]], Sequence[str]]:
    """A team event's teams (number, name, players on its boards) and its players, from
    ``teams`` (the club's teams: their first ``boards`` players, team after team) or
    ``team_names`` with ``players`` (a loaded event); refused for teams given to another
    kind, or players given to a team event without their teams' names."""
    entered = _teams_entered(store, kind, given, players, options)
    return entered, [name for _, _, names in entered for name in names] if entered else players


def _teams_entered(
    store: Database,
    kind: str,
    given: tuple[Sequence[str], Sequence[str]],
    players: Sequence[str],
    options: dict[str, Any],
) -> list[tuple[int | None, str, list[str]]]:
    teams, team_names = given
    plays_in_teams = kind in FORMATS and FORMATS[kind].plays_in_teams
    if not plays_in_teams:
        if teams or team_names:
            raise Refused(N_("teams are for a team event (--kind team)"))
        return []
    if players and not team_names:
        raise Refused(N_("a team event's players are its teams' (give --teams, not players)"))
    boards = options.get("boards")
    if not isinstance(boards, int) or boards < 1:
        return []
    if team_names:
        if len(players) != boards * len(team_names):
            raise Refused(
                Message(
                    N_("%(teams)s teams of %(boards)s players need %(count)s players"),
                    teams=len(team_names),
                    boards=boards,
                    count=boards * len(team_names),
                )
            )
        return [
            (None, name, list(players[i * boards : (i + 1) * boards]))
            for i, name in enumerate(team_names)
        ]
    from tally.store.teams import Teams

    return [(tid, name, chunk) for tid, name, chunk in Teams(store).entries(teams, boards)]


def _audit_created(
    audit: Audit, conn: Connection, fmt: EventFormat, eid: int, clean: str, count: int
) -> None:
    """The audit entry of event ``eid`` (named ``clean``) created with ``count`` players."""
    audit.write(
        conn,
        "event create",
        "event",
        eid,
        f'created {fmt.audit_name} {eid} "{clean}" with {count} player(s)',
        {f"event:{eid}": None},
        {f"event:{eid}": snapshot(conn, "event", eid)},
        words=Message(N_("Event %(event)s created (players: %(count)s)"), event=clean, count=count),
    )


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
        teams: Sequence[str] = (),
        team_names: Sequence[str] = (),
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
        them (:func:`check_round_tiebreaks`). ``seed_by``: what its seeding list follows
        (:mod:`tally.store.seeding`); ``absence_score``: what a requested bye scores
        (:mod:`tally.store.absences`); ``teams``, ``team_names``: :func:`_team_entries`.
        """
        entered, players = _team_entries(self.store, kind, (teams, team_names), players, options)
        fmt, settings, columns = _checked_event(
            name,
            kind,
            players=len(players),
            rules=rules,
            match_points_per_win=match_points_per_win,
            given={"bye": bye, "withdrawal": withdrawal, "language": language},
            tiebreaks=tiebreaks,
            rank_by=rank_by,
            options=options,
        )
        with self.store.writing() as conn:
            rows = _distinct_players(conn, players)
            eid = conn.execute(
                insert(t.events)
                .values(held_on=held_on or date.today(), created_at=utc_now(), **columns)
                .returning(t.events.c.id)
            ).scalar_one()
            if (draw := settings.draw()) is not None:
                knockouts.insert_format(conn, eid, draw)
            for row in rows:
                eventrows.add_event_player(conn, eid, row["id"])
            eventrows.insert_event_teams(conn, eid, entered)
            _audit_created(Audit(self.store), conn, fmt, eid, columns["name"], len(rows))
            return event_view(conn, event_row(conn, eid))

    def all(self) -> list[EventView]:
        """Every event, by date (then number)."""
        with self.store.reading() as conn:
            rows = (
                conn.execute(select(t.events).order_by(t.events.c.held_on, t.events.c.id))
                .mappings()
                .all()
            )
            return [event_view(conn, row) for row in rows]

    def get(self, ref: str | int) -> EventView:
        """One event, by number or name."""
        with self.store.reading() as conn:
            return event_view(conn, eventrows.resolve_event(conn, ref))

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
            ev = lock_event(conn, ref)
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
            return event_view(conn, event_row(conn, eid))

    def withdraw(self, ref: str | int, player: str) -> EventView:
        """Withdraw a player from an event. Their remaining matches are then handled by the
        event's rule: ``forfeit`` (each is won by the opponent) or ``void`` (they drop out of the
        standings); see the module docstring. ``tally audit undo`` takes a withdrawal back."""
        with self.store.writing() as conn:
            ev = lock_event(conn, ref)
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
            return event_view(conn, event_row(conn, eid))

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
            data = load_events(conn, t.events.c.id == ev["id"])
        e = data.events[0]
        if ratings is not None:
            by_id = {x.player_id: x for x in e.entrants}
            order = seeded_order([x.player_id for x in e.entrants], ratings)
            e = replace(
                e, entrants=tuple(replace(by_id[p], seed=k) for k, (p, _) in enumerate(order, 1))
            )
        if e.format.has_rounds and not e.round_robin:
            return paired_rounds(e, data, number)
        sched = schedule_of(e)
        if number is not None:
            check_round(e, number, len(sched))
            sched = [sched[number - 1]]
        return [round_view(e, data, r) for r in sched]

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
            if not fmt.has_rounds_made_in_advance or round_started(conn, ev["id"], number):
                return {}
            data = load_events(conn, t.events.c.id == ev["id"])
        e = data.events[0]
        sched = schedule_of(e)
        if not 1 <= number <= len(sched):
            return {}
        return {data.name(p): m for p, m in still_at_tables(e, data, sched[number - 1]).items()}

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
        from tally.store.teams import Teams

        Teams(self.store, events=self).refuse_decided_race(ref)
        ratings = Seeding(self.store).ratings_to_seed(ref)
        with self.store.writing() as conn:
            ev = lock_event(conn, ref)
            if ratings is not None and not ev["seeded"]:
                fix_seeding(conn, ev, ratings)
                ev = lock_event(conn, ev["id"])
            refuse_unchecked(conn, ev)
            maker = RoundMaker(self.store, conn, ev, force, accept_rematches)
            return format_of(ev["kind"]).start_round(maker, number)

    def standings(
        self, ref: str | int, *, tiebreaks: Sequence[str] | None = None, rank_by: str | None = None
    ) -> StandingsView:
        """The standings of an event (:func:`tally.store.standings.standings`)."""
        return standings.standings(self.store, ref, tiebreaks=tiebreaks, rank_by=rank_by)

    def in_category(self, view: StandingsView, category: str) -> StandingsView:
        """Standings of one category's players, ranked within it
        (:func:`tally.store.standings.category_standings`)."""
        return standings.category_standings(self.store, view, category)

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
        """The standings of a season (:func:`tally.store.standings.season_standings`)."""
        return standings.season_standings(
            self.store,
            date_from=date_from,
            date_to=date_to,
            all_events=all_events,
            tiebreaks=tiebreaks,
            match_points_per_win=match_points_per_win,
            rank_by=rank_by,
        )

    def cross_table(self, ref: str | int) -> CrossTableView:
        """The cross-table of an event (:func:`tally.store.standings.cross_table`)."""
        return standings.cross_table(self.store, ref)

    def round_by_round(self, ref: str | int) -> RoundByRoundView:
        """An event round by round (:func:`tally.store.standings.round_by_round`)."""
        return standings.round_by_round(self.store, ref)
