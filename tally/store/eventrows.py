"""Events as rows: finding one, its players, and the snapshot of an event the audit log keeps.

An event's snapshot is its row with its players (seed order, withdrawal), the rounds started
and, for a knockout or groups, its format row (``event_formats``), so that reversing an audit
entry (``store.audit.reverse``) puts all three back together. Nothing here rules on a
deal or computes a standing."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Advice, Message, NotFound, Refused, message
from tally.i18n import N_
from tally.names import Candidate, find_event
from tally.store import tables as t

if TYPE_CHECKING:
    pass

BYES = ("none", "win")
#: what a requested bye (an announced absence) scores: half a won match's match points (the
#: default, FIDE's common practice in a Swiss event) or nothing
ABSENCE_SCORES = ("half", "zero")
WITHDRAWALS = ("forfeit", "void")


def resolve_event(conn: Connection, ref: str | int, lock: bool = False) -> RowMapping:
    """An event by number (``7``, ``"#7"``) or by name (any case); a name several events
    share is refused with their numbers. ``lock`` keeps other writers off the event until
    the transaction ends (PostgreSQL; SQLite's write transactions hold the database)."""
    row = _find_event(conn, ref)
    if lock and conn.dialect.name != "sqlite":
        conn.execute(select(t.events.c.id).where(t.events.c.id == row["id"]).with_for_update())
    return row


#: an event number that no event has
NO_SUCH_EVENT = N_("there is no event %(event)s (see `tally event list`)")
#: a player named who is not entered in the event
NOT_IN_EVENT = N_('%(player)s does not play in event %(id)s "%(name)s"')
#: a player who withdrew from the event, named again
WITHDRAWN_FROM = N_('%(player)s has withdrawn from event %(id)s "%(name)s"')
#: the formats' words that :func:`enter_club_match` says (``article_name``, ``matches_made``
#: of :mod:`tally.events.formats`), marked for the catalogue here
FORMAT_WORDS = (
    N_("a club evening"),
    N_("a groups event"),
    N_("a knockout event"),
    N_("a round robin"),
    N_("a Swiss event"),
    N_("from the schedule"),
    N_("by pairing each round"),
)


def _find_event(conn: Connection, ref: str | int) -> RowMapping:
    text = str(ref).strip()
    number = text.removeprefix("#")
    if number.isascii() and number.isdigit():
        if len(number) > 18:  # beyond any id (2**63 - 1)
            shown = number if len(number) <= 30 else f"{number[:20]}... ({len(number)} digits)"
            raise NotFound(
                Message(
                    N_("there is no event %(event)s%(advice)s"),
                    event=shown,
                    advice=Advice(N_(" (see `tally event list`)")),
                )
            )
        row = conn.execute(select(t.events).where(t.events.c.id == int(number))).mappings().first()
        if row is not None:
            return row
    every = {r["id"]: r for r in conn.execute(select(t.events).order_by(t.events.c.id)).mappings()}
    found = find_event(text, [Candidate(i, r["name"]) for i, r in every.items()])
    rows = [every[c.id] for c in found if c.id is not None]
    if len(rows) > 1:
        ids = ", ".join(f"{r['id']} ({r['held_on'].isoformat()})" for r in rows)
        raise Refused(
            Message(
                N_('several events are called "%(name)s": give the number of one (%(ids)s)'),
                name=text,
                ids=ids,
            )
        )
    return rows[0]


def round_refused(
    event_id: int, name: str, number: int, following: int, matches: Sequence[int] = ()
) -> Refused:
    """The one refusal of starting round ``number`` out of turn, for every kind of event:
    started already (its ``matches`` named), or not the round that comes next."""
    if number < following:
        return Refused(
            Message(
                N_(
                    'round %(round)s of event %(id)s "%(name)s" was started already (matches '
                    "%(matches)s)"
                )
                if matches
                else N_('round %(round)s of event %(id)s "%(name)s" was started already'),
                round=number,
                id=event_id,
                name=name,
                matches=", ".join(map(str, matches)),
            )
        )
    return Refused(
        Message(
            N_(
                'round %(round)s of event %(id)s "%(name)s" cannot start yet: round %(next)s '
                "comes next (the rounds start one after the other)"
            ),
            round=number,
            id=event_id,
            name=name,
            next=following,
        )
    )


def still_playing_words(number: int, busy: dict[str, int]) -> Message:
    """What starting round ``number`` now would do while the players ``busy`` (name ->
    match) are still at a table of the round before: a warning on the round's preview."""
    return Message(
        N_(
            "%(players)s: still at a table of round %(before)s (match(es) %(matches)s); "
            "starting round %(round)s now would seat them at two tables at once"
        ),
        players=", ".join(busy),
        before=number - 1,
        matches=", ".join(str(m) for m in sorted(set(busy.values()))),
        round=number,
    )


def still_playing_refused(number: int, busy: dict[str, int]) -> Refused:
    """The refusal to start round ``number`` while the players ``busy`` (name -> match) are
    still at a table of the round before, unless the director confirms."""
    return Refused(
        Message(
            N_(
                "round %(round)s is not started: %(why)s; start it once they have "
                "finished, or now with `--force`"
            ),
            round=number,
            why=still_playing_words(number, busy),
        )
    )


def entries_refused(event_id: int, name: str, why: str | Message) -> Refused:
    """The one refusal of a player joining an event that has started, for every kind of
    event; ``why`` says what its start has fixed."""
    return Refused(
        Message(
            N_('event %(id)s "%(name)s" has started: no player can join (%(why)s)'),
            id=event_id,
            name=name,
            why=message(why),
        )
    )


def event_players(conn: Connection, event_id: int) -> list[RowMapping]:
    """The players of an event in seed order: ``player_id``, ``name``, ``seed``,
    ``withdrawn_at``."""
    ep = t.event_players
    return list(
        conn.execute(
            select(ep.c.player_id, t.players.c.name, ep.c.seed, ep.c.withdrawn_at, ep.c.seed_rating)
            .join_from(ep, t.players, t.players.c.id == ep.c.player_id)
            .where(ep.c.event_id == event_id)
            .order_by(ep.c.seed)
        ).mappings()
    )


def add_event_player(conn: Connection, event_id: int, player_id: int) -> int:
    """Add a player to an event as its last seed; their seed."""
    ep = t.event_players
    last = conn.execute(
        select(ep.c.seed).where(ep.c.event_id == event_id).order_by(ep.c.seed.desc()).limit(1)
    ).scalar_one_or_none()
    seed = (last or 0) + 1
    conn.execute(
        insert(ep).values(event_id=event_id, player_id=player_id, seed=seed, withdrawn_at=None)
    )
    return seed


def insert_match(
    conn: Connection,
    a: int,
    b: int,
    rules: str,
    first_dealer: int,
    *,
    event_id: int | None = None,
    round_number: int | None = None,
    table_number: int | None = None,
) -> int:
    """Store a new match and return its id: the one insert behind ``store.matches.start`` (a
    match on its own or at a club evening) and ``events.start_round`` (a round robin's
    matches, with their round and table)."""
    return int(
        conn.execute(
            insert(t.matches)
            .values(
                player_a_id=a,
                player_b_id=b,
                rules=rules,
                first_dealer_id=first_dealer,
                created_at=datetime.now(UTC),
                event_id=event_id,
                round_number=round_number,
                table_number=table_number,
            )
            .returning(t.matches.c.id)
        ).scalar_one()
    )


def enter_club_match(
    conn: Connection, ev: RowMapping, spec: str, players: tuple[RowMapping, RowMapping]
) -> bool:
    """The event rules for a match started at event ``ev`` (its row, locked) under rule set
    ``spec``: refused for a round robin (its matches come from the schedule), for another
    rule set than the event's, or for a withdrawn player; players not yet on the evening's
    list join it. Returns whether the list changed (so the caller audits the event)."""
    eid = ev["id"]
    from tally.events.formats import format_of  # the formats import the pairing code

    fmt = format_of(ev["kind"])
    if fmt.has_rounds:
        raise Refused(
            Message(
                N_(
                    'event %(event)s "%(name)s" is %(kind)s: its matches are made %(how)s%(advice)s'
                ),
                event=eid,
                name=ev["name"],
                kind=Message(fmt.article_name),
                how=Message(fmt.matches_made),
                advice=Advice(N_(" (`tally event round %(event)s N --start`)"), event=eid),
            )
        )
    if spec != ev["rules"]:
        raise Refused(
            Message(
                N_('event %(id)s "%(name)s" is played under "%(rules)s", not "%(spec)s"'),
                id=eid,
                name=ev["name"],
                rules=ev["rules"],
                spec=spec,
            )
        )
    listed = {p["player_id"]: p for p in event_players(conn, eid)}
    for p in players:
        if p["id"] in listed and listed[p["id"]]["withdrawn_at"] is not None:
            raise Refused(Message(WITHDRAWN_FROM, player=p["name"], id=eid, name=ev["name"]))
    newcomers = [p for p in players if p["id"] not in listed]
    for p in newcomers:
        add_event_player(conn, eid, p["id"])
    return bool(newcomers)


def _iso(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def event_snapshot(conn: Connection, event_id: int) -> dict[str, Any] | None:
    """An event's row, players and rounds as JSON-ready data (None if there is none)."""
    row = conn.execute(select(t.events).where(t.events.c.id == event_id)).mappings().first()
    if row is None:
        return None
    ep, er = t.event_players, t.event_rounds
    snap = {k: _iso(v) for k, v in row.items()}
    if not snap.get("check_in"):  # only when required: other snapshots stay as they were
        snap.pop("check_in", None)
    snap["players"] = [
        # the rating seeded by only where there is one: other snapshots stay as they were
        {k: _iso(v) for k, v in r.items() if k != "seed_rating" or v is not None}
        for r in conn.execute(
            select(ep.c.player_id, ep.c.seed, ep.c.withdrawn_at, ep.c.seed_rating)
            .where(ep.c.event_id == event_id)
            .order_by(ep.c.seed)
        ).mappings()
    ]
    snap["rounds"] = [
        {k: _iso(v) for k, v in r.items()}
        for r in conn.execute(
            select(er.c.number, er.c.bye_player_id, er.c.started_at)
            .where(er.c.event_id == event_id)
            .order_by(er.c.number)
        ).mappings()
    ]
    fmt = (
        conn.execute(select(t.event_formats).where(t.event_formats.c.event_id == event_id))
        .mappings()
        .first()
    )
    if fmt is not None:  # only then: snapshots of other events stay as they were
        snap["format"] = dict(fmt)
    bought = [
        {k: _iso(v) for k, v in r.items()}
        for r in conn.execute(
            select(t.event_buy_backs)
            .where(t.event_buy_backs.c.event_id == event_id)
            .order_by(t.event_buy_backs.c.id)
        ).mappings()
    ]
    if bought:  # likewise
        snap["buy_backs"] = bought
    return snap | _kept_apart_and_after(conn, event_id)


def _kept_apart_and_after(conn: Connection, event_id: int) -> dict[str, Any]:
    """The parts of an event's snapshot that most events have none of: pairs kept apart,
    absences, no-shows, the treasurer's desk, a team event's teams; each only when there is
    one (so snapshots of other events stay as they were)."""
    snap: dict[str, Any] = {}
    apart = apart_pairs(conn, event_id)
    if apart:
        snap["apart"] = [list(pair) for pair in apart]
    absent = absences(conn, event_id)
    if absent:
        snap["absences"] = [list(row) for row in absent]
    missed = no_shows_by_event(conn, [event_id]).get(event_id, [])
    if missed:
        snap["no_shows"] = [list(row) for row in missed]
    desk = check_ins(conn, event_id)
    if desk:
        snap["check_ins"] = desk
    teams = conn.execute(
        select(t.event_teams.c.position, t.event_teams.c.team_id, t.event_teams.c.name)
        .where(t.event_teams.c.event_id == event_id)
        .order_by(t.event_teams.c.position)
    ).all()
    if teams:
        snap["teams"] = [list(row) for row in teams]
    return snap


def check_ins(conn: Connection, event_id: int) -> list[dict[str, Any]]:
    """The treasurer's rows of an event (:mod:`tally.store.treasurer`), by player id, as
    JSON-ready data."""
    ci = t.event_check_ins
    return [
        {k: _iso(v) for k, v in r.items()}
        for r in conn.execute(
            select(ci).where(ci.c.event_id == event_id).order_by(ci.c.player_id)
        ).mappings()
    ]


def drop_absences(conn: Connection, event_id: int, player_id: int) -> None:
    """Take back the absences a player announced from rounds not started (they withdrew: a
    withdrawn player takes no further pairing and no requested bye)."""
    ab = t.event_absences.c
    started = select(t.event_rounds.c.number).where(t.event_rounds.c.event_id == event_id)
    conn.execute(
        delete(t.event_absences).where(
            (ab.event_id == event_id)
            & (ab.player_id == player_id)
            & ab.round_number.not_in(started)
        )
    )


def absences(conn: Connection, event_id: int) -> list[tuple[int, int]]:
    """The absences announced in an event, as (round, player id), in order
    (:mod:`tally.store.absences`)."""
    return absences_by_event(conn, [event_id]).get(event_id, [])


def absences_by_event(conn: Connection, events: Any) -> dict[int, list[tuple[int, int]]]:
    """The absences announced in each of ``events`` (event ids, or a select of them), as
    (round, player id) in order, by event: one query for a season."""
    ab = t.event_absences.c
    found: dict[int, list[tuple[int, int]]] = {}
    for event_id, number, player in conn.execute(
        select(ab.event_id, ab.round_number, ab.player_id)
        .where(ab.event_id.in_(events))
        .order_by(ab.event_id, ab.round_number, ab.player_id)
    ):
        found.setdefault(event_id, []).append((number, player))
    return found


def no_shows_by_event(conn: Connection, events: Any) -> dict[int, list[tuple[int, int]]]:
    """The no-shows recorded in each of ``events`` (event ids, or a select of them), as
    (round, player id) in order, by event (:mod:`tally.store.noshows`)."""
    ns = t.event_no_shows.c
    found: dict[int, list[tuple[int, int]]] = {}
    for event_id, number, player in conn.execute(
        select(ns.event_id, ns.round_number, ns.player_id)
        .where(ns.event_id.in_(events))
        .order_by(ns.event_id, ns.round_number, ns.player_id)
    ):
        found.setdefault(event_id, []).append((number, player))
    return found


def apart_pairs(conn: Connection, event_id: int) -> list[tuple[int, int]]:
    """The pairs of player ids an event keeps apart, lower id first, in order."""
    ea = t.event_apart.c
    return [
        (a, b)
        for a, b in conn.execute(
            select(ea.player_a_id, ea.player_b_id)
            .where(ea.event_id == event_id)
            .order_by(ea.player_a_id, ea.player_b_id)
        )
    ]


def _when(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _put_event_row(conn: Connection, snap: dict[str, Any]) -> None:
    """Make the event's own row what ``snap`` says (inserted when it is not there)."""
    event_id = snap["id"]
    values = {
        k: v
        for k, v in snap.items()
        if k
        not in (
            "players",
            "rounds",
            "format",
            "buy_backs",
            "apart",
            "absences",
            "no_shows",
            "check_ins",
            "teams",
        )
    }
    values["held_on"] = date.fromisoformat(values["held_on"])
    values.setdefault("check_in", False)
    values["created_at"] = _when(values["created_at"])
    exists = conn.execute(select(t.events.c.id).where(t.events.c.id == event_id)).first()
    if exists is None:
        conn.execute(insert(t.events).values(values))
    else:
        conn.execute(update(t.events).where(t.events.c.id == event_id).values(values))


def _put_players_and_rounds(conn: Connection, event_id: int, snap: dict[str, Any]) -> None:
    """Insert the event's players (seeds, withdrawals, seed ratings) and its rounds started
    (byes, times) as ``snap`` lists them."""
    if snap["players"]:
        conn.execute(
            insert(t.event_players),
            [
                {
                    "event_id": event_id,
                    "player_id": p["player_id"],
                    "seed": p["seed"],
                    "withdrawn_at": _when(p["withdrawn_at"]),
                    "seed_rating": p.get("seed_rating"),
                }
                for p in snap["players"]
            ],
        )
    if snap["rounds"]:
        conn.execute(
            insert(t.event_rounds),
            [
                {
                    "event_id": event_id,
                    "number": r["number"],
                    "bye_player_id": r["bye_player_id"],
                    "started_at": _when(r["started_at"]),
                }
                for r in snap["rounds"]
            ],
        )


def put_event(conn: Connection, snap: dict[str, Any]) -> None:
    """Make an event's row, players and rounds what ``snap`` says."""
    event_id = snap["id"]
    _put_event_row(conn, snap)
    conn.execute(delete(t.event_players).where(t.event_players.c.event_id == event_id))
    conn.execute(delete(t.event_rounds).where(t.event_rounds.c.event_id == event_id))
    conn.execute(delete(t.event_buy_backs).where(t.event_buy_backs.c.event_id == event_id))
    conn.execute(delete(t.event_formats).where(t.event_formats.c.event_id == event_id))
    conn.execute(delete(t.event_apart).where(t.event_apart.c.event_id == event_id))
    conn.execute(delete(t.event_absences).where(t.event_absences.c.event_id == event_id))
    conn.execute(delete(t.event_no_shows).where(t.event_no_shows.c.event_id == event_id))
    conn.execute(delete(t.event_check_ins).where(t.event_check_ins.c.event_id == event_id))
    if snap.get("check_ins"):
        conn.execute(
            insert(t.event_check_ins),
            [{**c, "checked_in_at": _when(c["checked_in_at"])} for c in snap["check_ins"]],
        )
    conn.execute(delete(t.event_teams).where(t.event_teams.c.event_id == event_id))
    for position, team_id, name in snap.get("teams", []):
        conn.execute(
            insert(t.event_teams).values(
                event_id=event_id, position=position, team_id=team_id, name=name
            )
        )
    if snap.get("format"):
        conn.execute(insert(t.event_formats).values(snap["format"]))
    if snap.get("buy_backs"):
        conn.execute(
            insert(t.event_buy_backs),
            [{**b, "bought_at": _when(b["bought_at"])} for b in snap["buy_backs"]],
        )
    _put_players_and_rounds(conn, event_id, snap)
    if snap.get("apart"):
        conn.execute(
            insert(t.event_apart),
            [{"event_id": event_id, "player_a_id": a, "player_b_id": b} for a, b in snap["apart"]],
        )
    if snap.get("absences"):
        conn.execute(
            insert(t.event_absences),
            [
                {"event_id": event_id, "round_number": n, "player_id": p}
                for n, p in snap["absences"]
            ],
        )
    if snap.get("no_shows"):
        conn.execute(
            insert(t.event_no_shows),
            [
                {"event_id": event_id, "round_number": n, "player_id": p}
                for n, p in snap["no_shows"]
            ],
        )


def remove_event(conn: Connection, event_id: int) -> None:
    """Delete an event with its players and rounds; refused while matches count for it."""
    if conn.execute(select(t.matches.c.id).where(t.matches.c.event_id == event_id)).first():
        raise Refused(
            Message(N_("event %(id)s has matches: reverse or move them first"), id=event_id)
        )
    conn.execute(delete(t.event_rounds).where(t.event_rounds.c.event_id == event_id))
    conn.execute(delete(t.event_buy_backs).where(t.event_buy_backs.c.event_id == event_id))
    conn.execute(delete(t.event_formats).where(t.event_formats.c.event_id == event_id))
    conn.execute(delete(t.event_apart).where(t.event_apart.c.event_id == event_id))
    conn.execute(delete(t.event_absences).where(t.event_absences.c.event_id == event_id))
    conn.execute(delete(t.event_no_shows).where(t.event_no_shows.c.event_id == event_id))
    conn.execute(delete(t.event_check_ins).where(t.event_check_ins.c.event_id == event_id))
    conn.execute(delete(t.event_teams).where(t.event_teams.c.event_id == event_id))
    conn.execute(delete(t.event_players).where(t.event_players.c.event_id == event_id))
    conn.execute(delete(t.events).where(t.events.c.id == event_id))


def events_of_player(conn: Connection, player_id: int) -> list[int]:
    """The events a player is a player of, or sat out a round of."""
    ids = set(
        conn.execute(
            select(t.event_players.c.event_id).where(t.event_players.c.player_id == player_id)
        ).scalars()
    )
    ids.update(
        conn.execute(
            select(t.event_rounds.c.event_id).where(t.event_rounds.c.bye_player_id == player_id)
        ).scalars()
    )
    return sorted(ids)


_LANGUAGE_OF_EVENT = select(t.events.c.language).where(t.events.c.id == bindparam("e"))
_LANGUAGE_OF_MATCH = (
    select(t.events.c.language)
    .join_from(t.matches, t.events, t.matches.c.event_id == t.events.c.id)
    .where(t.matches.c.id == bindparam("m"))
)


def language_of(conn: Connection, *, event: int | None = None, match: int | None = None) -> str:
    """The stored language of event ``event``, or of the event match ``match`` counts for, in
    one query (what ``tally serve`` asks on every page of a table or an event): ``""`` when
    it has none, or there is no such event or match, or the match counts for no event."""
    if match is not None:
        found = conn.execute(_LANGUAGE_OF_MATCH, {"m": match})
    else:
        found = conn.execute(_LANGUAGE_OF_EVENT, {"e": event})
    return str(found.scalar_one_or_none() or "")


def event_teams(conn: Connection, event_id: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The teams of event ``event_id`` by position: name and players (the entries of their
    seeds, in board order); () for an event without teams."""
    rows = (
        conn.execute(
            select(t.event_teams.c.name)
            .where(t.event_teams.c.event_id == event_id)
            .order_by(t.event_teams.c.position)
        )
        .scalars()
        .all()
    )
    if not rows:
        return ()
    boards = conn.execute(select(t.events.c.boards).where(t.events.c.id == event_id)).scalar_one()
    entrants = (
        conn.execute(
            select(t.players.c.name)
            .join(t.event_players, t.event_players.c.player_id == t.players.c.id)
            .where(t.event_players.c.event_id == event_id)
            .order_by(t.event_players.c.seed)
        )
        .scalars()
        .all()
    )
    return tuple(
        (name, tuple(entrants[i * boards : (i + 1) * boards])) for i, name in enumerate(rows)
    )


def insert_event_teams(
    conn: Connection, event_id: int, teams: Sequence[tuple[int | None, str, list[str]]]
) -> None:
    """Keep the teams (number, name; their players are the entries) of new team event
    ``event_id``, in order."""
    for position, (tid, name, _) in enumerate(teams, 1):
        conn.execute(
            insert(t.event_teams).values(
                event_id=event_id, position=position, team_id=tid, name=name
            )
        )
