"""Teams (``tally team``) and the teams of team events (:mod:`tally.events.formats.team`).

A team is a name and its players in board order (``team_members.board`` from 1), one of them
perhaps its captain. Its members may change between events: a team event keeps, in
``event_teams``, the team's name and position when it was created, and its players as the
event's entries (seed order, team after team), so a later change to the team never changes
an event already made."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import Connection, RowMapping, delete, func, insert, select, update

from tally import names
from tally.errors import Message, NotFound, Refused
from tally.events.teams import Board, TeamRow, team_table
from tally.i18n import N_
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot, utc_now
from tally.store.eventdata import lock_event
from tally.store.players import normalize_name, resolve_player
from tally.store.transactions import Database
from tally.store.views import EventView, PairingView, RoundView


class _EventsPart(Protocol):
    """What the team standings read of the events part (:class:`tally.store.events.Events`)."""

    def get(self, ref: str | int) -> EventView: ...
    def started_rounds(self, ref: str | int) -> list[RoundView]: ...


@dataclass(frozen=True)
class TeamView:
    """A team: its number, name, players in board order and captain (None: none)."""

    id: int
    name: str
    players: tuple[str, ...]
    captain: str | None


@dataclass(frozen=True)
class TeamStandingsView:
    """The team standings of a team event: what ranks them and a row per team
    (:class:`tally.events.teams.TeamRow`), best first."""

    event_id: int
    event: str
    team_rank: str
    boards: int
    rows: tuple[TeamRow, ...]
    #: a race of two teams to this many Bummerl won, and the team that has won it (None:
    #: not yet, or no race)
    first_to: int | None = None
    winner: str | None = None


def _team_row(conn: Connection, ref: str) -> RowMapping:
    """A team by number or name (any case, or a unique beginning of it)."""
    names.check_text(ref, "team")
    rows = conn.execute(select(t.teams.c.id, t.teams.c.name).order_by(t.teams.c.name_key)).all()
    number = names.as_number(ref)
    by_id = {r[0]: r for r in rows}
    if number is not None and number in by_id:
        found = by_id[number][0]
    else:
        candidates = [names.Candidate(r[0], r[1]) for r in rows]
        try:
            found = names.resolve(ref, candidates).id
        except NotFound:
            raise NotFound(
                Message(N_('there is no team "%(team)s" (tally team list)'), team=ref)
            ) from None
    return conn.execute(select(t.teams).where(t.teams.c.id == found)).mappings().one()


def _view(conn: Connection, row: RowMapping) -> TeamView:
    players = conn.execute(
        select(t.players.c.name, t.players.c.id)
        .join(t.team_members, t.team_members.c.player_id == t.players.c.id)
        .where(t.team_members.c.team_id == row["id"])
        .order_by(t.team_members.c.board)
    ).all()
    captain = next((name for name, pid in players if pid == row["captain_id"]), None)
    return TeamView(row["id"], row["name"], tuple(name for name, _ in players), captain)


def _refuse_name_taken(conn: Connection, key: str, clean: str) -> None:
    if conn.execute(select(t.teams.c.id).where(t.teams.c.name_key == key)).first() is not None:
        raise Refused(Message(N_('there is already a team "%(team)s"'), team=clean))


def _refuse_shared_player(
    entered: Sequence[tuple[int, str, list[str]]], team: str, players: Sequence[str]
) -> None:
    """Refuse when one of ``players`` (of ``team``) already plays for a team in ``entered``."""
    for _, other, members in entered:
        for player in players:
            if player in members:
                raise Refused(
                    Message(
                        N_("%(player)s plays for both %(team)s and %(other)s in this event"),
                        player=player,
                        team=other,
                        other=team,
                    )
                )


def _set_members(
    conn: Connection, team_id: int, players: Sequence[str], captain: str | None
) -> list[str]:
    """Put ``players`` (in board order) in team ``team_id``, ``captain`` its captain; their
    names as stored."""
    if not players:
        raise Refused(N_("a team needs at least one player"))
    rows = [resolve_player(conn, ref) for ref in players]
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        raise Refused(N_("a player is named twice in the team"))
    captain_id = None
    if captain is not None:
        captain_id = resolve_player(conn, captain)["id"]
        if captain_id not in ids:
            raise Refused(Message(N_("the captain %(player)s is not in the team"), player=captain))
    conn.execute(delete(t.team_members).where(t.team_members.c.team_id == team_id))
    for board, pid in enumerate(ids, 1):
        conn.execute(insert(t.team_members).values(team_id=team_id, player_id=pid, board=board))
    conn.execute(update(t.teams).where(t.teams.c.id == team_id).values(captain_id=captain_id))
    return [r["name"] for r in rows]


class Teams:
    """The club's teams and the team standings of team events. Reached as ``store.teams``."""

    def __init__(self, store: Database, events: _EventsPart | None = None) -> None:
        self.store = store
        #: the events part to read events through: the store's, or the caller's own (starting
        #: a round on a bare :class:`Database`, as :mod:`tally.store.consequences` previews it)
        self._given = events

    @property
    def _events(self) -> _EventsPart:
        found: _EventsPart = self._given or self.store.events  # type: ignore[attr-defined]
        return found

    def add(self, name: str, players: Sequence[str], captain: str | None = None) -> TeamView:
        """A new team of ``players`` (names or numbers, in board order)."""
        clean, key = normalize_name(name)
        with self.store.writing() as conn:
            _refuse_name_taken(conn, key, clean)
            tid = conn.execute(
                insert(t.teams)
                .values(name=clean, name_key=key, created_at=utc_now())
                .returning(t.teams.c.id)
            ).scalar_one()
            members = _set_members(conn, tid, players, captain)
            Audit(self.store).write(
                conn,
                "team add",
                "team",
                tid,
                f'added team "{clean}" (#{tid}): {", ".join(members)}',
                {f"team:{tid}": None},
                {f"team:{tid}": snapshot(conn, "team", tid)},
                words=Message(N_("New team %(team)s"), team=clean),
            )
            return _view(conn, _team_row(conn, str(tid)))

    def all(self) -> list[TeamView]:
        """Every team, by name."""
        with self.store.reading() as conn:
            rows = conn.execute(select(t.teams).order_by(t.teams.c.name_key)).mappings().all()
            return [_view(conn, row) for row in rows]

    def get(self, ref: str) -> TeamView:
        """One team, by number or name."""
        with self.store.reading() as conn:
            return _view(conn, _team_row(conn, ref))

    def rename(self, ref: str, new_name: str) -> TeamView:
        """Rename a team (the events it played keep the name it had)."""
        clean, key = normalize_name(new_name)
        with self.store.writing() as conn:
            row = _team_row(conn, ref)
            if row["name_key"] != key:
                _refuse_name_taken(conn, key, clean)
            before = {f"team:{row['id']}": snapshot(conn, "team", row["id"])}
            conn.execute(
                update(t.teams).where(t.teams.c.id == row["id"]).values(name=clean, name_key=key)
            )
            Audit(self.store).write(
                conn,
                "team rename",
                "team",
                row["id"],
                f'renamed team #{row["id"]} "{row["name"]}" to "{clean}"',
                before,
                {f"team:{row['id']}": snapshot(conn, "team", row["id"])},
                words=Message(N_("%(old)s renamed to %(new)s"), old=row["name"], new=clean),
            )
            return _view(conn, _team_row(conn, str(row["id"])))

    def set_players(self, ref: str, players: Sequence[str], captain: str | None = None) -> TeamView:
        """Make ``players`` (in board order) the team's players, ``captain`` its captain: the
        team's line-up for the events created from now on."""
        with self.store.writing() as conn:
            row = _team_row(conn, ref)
            before = {f"team:{row['id']}": snapshot(conn, "team", row["id"])}
            members = _set_members(conn, row["id"], players, captain)
            Audit(self.store).write(
                conn,
                "team players",
                "team",
                row["id"],
                f'team #{row["id"]} "{row["name"]}" players: {", ".join(members)}',
                before,
                {f"team:{row['id']}": snapshot(conn, "team", row["id"])},
                words=Message(N_("Team %(team)s: new line-up"), team=row["name"]),
            )
            return _view(conn, _team_row(conn, str(row["id"])))

    def entries(self, refs: Sequence[str], boards: int) -> list[tuple[int, str, list[str]]]:
        """The teams ``refs`` name as a team event enters them: each team's number, name and
        first ``boards`` players (refused when it has fewer)."""
        with self.store.reading() as conn:
            out: list[tuple[int, str, list[str]]] = []
            for ref in refs:
                view = _view(conn, _team_row(conn, ref))
                if any(view.id == tid for tid, _, _ in out):
                    raise Refused(Message(N_("the team %(team)s is named twice"), team=view.name))
                if len(view.players) < boards:
                    raise Refused(
                        Message(
                            N_(
                                "the team %(team)s has %(count)s players, "
                                "the boards need %(boards)s"
                            ),
                            team=view.name,
                            count=len(view.players),
                            boards=boards,
                        )
                    )
                _refuse_shared_player(out, view.name, view.players[:boards])
                out.append((view.id, view.name, list(view.players[:boards])))
            return out

    def set_order(self, event: str | int, team: str, players: Sequence[str]) -> None:
        """Set the board order of ``team`` in team event ``event`` for the rounds started from
        now on (the captain's order): ``players`` are the team's players of that event, each
        once. Audited; ``tally audit undo`` takes it back. Refused when every round is started
        and for a player not of that team."""
        ev = self._events.get(event)
        if not ev.format.plays_in_teams or not ev.boards:
            raise Refused(Message(N_("%(event)s is not a team event"), event=ev.name))
        folded = {names.fold(n): (pos, n) for pos, (n, _) in enumerate(ev.teams, 1)}
        position, name = folded.get(names.fold(team), (0, team))
        if not position:
            raise NotFound(Message(N_('there is no team "%(team)s" (tally team list)'), team=team))
        with self.store.writing() as conn:
            # checked under the event's lock, as starting a round takes it: no round starts
            # between this check and the new order
            lock_event(conn, ev.id)
            started = conn.execute(
                select(func.count()).where(t.event_rounds.c.event_id == ev.id)
            ).scalar_one()
            if started >= ev.rounds:
                raise Refused(Message(N_("every round of %(event)s is started"), event=ev.name))
            order = [resolve_player(conn, p) for p in players]
            members = dict(ev.teams)[name]
            for row in order:
                if row["name"] not in members:
                    raise Refused(
                        Message(
                            N_("%(player)s does not play for %(team)s"),
                            player=row["name"],
                            team=name,
                        )
                    )
            if len({row["id"] for row in order}) != len(members):
                raise Refused(Message(N_("give each player of %(team)s once"), team=name))
            before = {f"event:{ev.id}": snapshot(conn, "event", ev.id)}
            first = (position - 1) * ev.boards + 1
            for sign in (-1, 1):  # through negative seeds: each seed is unique in the event
                for k, row in enumerate(order):
                    conn.execute(
                        update(t.event_players)
                        .where(t.event_players.c.event_id == ev.id)
                        .where(t.event_players.c.player_id == row["id"])
                        .values(seed=sign * (first + k))
                    )
            Audit(self.store).write(
                conn,
                "team order",
                "event",
                ev.id,
                f"board order of {name}: {', '.join(r['name'] for r in order)}",
                before,
                {f"event:{ev.id}": snapshot(conn, "event", ev.id)},
                words=Message(N_("Board order of %(team)s"), team=name),
            )

    def refuse_decided_race(self, ref: str | int) -> None:
        """Refuse a further round of a race of two teams (``--first-to``) that a team has won."""
        ev = self._events.get(ref)
        if ev.first_to is None or not ev.format.plays_in_teams:
            return
        winner = self.standings(ev.id).winner
        if winner is not None:
            raise Refused(
                Message(
                    N_(
                        "the race to %(count)s Bummerl is decided: %(team)s has won it, "
                        "no further round is played"
                    ),
                    count=ev.first_to,
                    team=winner,
                )
            )

    def standings(self, ref: str | int) -> TeamStandingsView:
        """The team standings of team event ``ref`` (:func:`tally.events.teams.team_table`)."""
        ev = self._events.get(ref)
        if not ev.format.plays_in_teams or not ev.boards:
            raise Refused(Message(N_("%(event)s is not a team event"), event=ev.name))
        rounds: list[RoundView] = self._events.started_rounds(ev.id)
        team_of = {
            player: position
            for position, (_, players) in enumerate(ev.teams, 1)
            for player in players
        }
        boards = [
            (rnd.number, board)
            for rnd in rounds
            for pairing in rnd.pairings
            if (board := _board(pairing, team_of, ev.matches_per_pairing)) is not None
        ]
        rows = team_table(ev.teams, boards, ev.team_rank)
        won = ev.first_to is not None and rows[0].bummerl_won >= ev.first_to
        return TeamStandingsView(
            ev.id,
            ev.name,
            ev.team_rank,
            ev.boards,
            tuple(rows),
            ev.first_to,
            rows[0].team if won and rows[0].rank == 1 else None,
        )


def _board(pairing: PairingView, team_of: dict[str, int], matches: int) -> Board | None:
    """One board of a team match from a round's pairing."""
    if pairing.first not in team_of or pairing.second not in team_of:
        return None
    if pairing.status == "forfeit" and pairing.forfeit_winner is not None:
        first = matches if pairing.forfeit_winner == pairing.first else 0
        return Board(team_of[pairing.first], team_of[pairing.second], first, matches - first, True)
    won = [m.winner for m in pairing.matches if m.needed]
    over = pairing.status in ("played", "forfeit", "void", "annulled")
    return Board(
        team_of[pairing.first],
        team_of[pairing.second],
        won.count(pairing.first),
        won.count(pairing.second),
        over,
    )
