"""Rounds kept as they were made: a round started with the pairings given (a director's manual
pairing), and which rounds an event must keep so.

A Swiss round is paired, and a knockout's round drawn, from the results of the rounds before
it. A result corrected after the next round was made leaves that round as it was made: it no
longer follows from the results. An export (:mod:`tally.files.exporting`) marks such a round
(:meth:`GivenRounds.rounds`), and a load starts it with its pairings as the file gives them
(:meth:`GivenRounds.start`) instead of pairing it again, so the export of any event loads
back as the same event. A round started so is kept as given in its turn: its audit entry
says so, and the export of the loaded event marks it again.

A knockout's or groups event's round kept as made may be the one that seeded the bracket or
started the play-off for the final stage: the export says so on the round
(:meth:`GivenRounds.seeding`: the bracket's slots by name, ``playoff``), and the round given
keeps them in the event's format as the draw would have (``bracket``, ``playoff``), so that
the rounds after it are made from the same bracket.

The pairings given are checked for what any round holds: the event has rounds and this is
the next one, every player is one of the event's and has not withdrawn, nobody sits at two
tables or at a table and the bye, tables are numbered once each, and the first dealer plays
at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Message, Refused
from tally.events.formats import format_of
from tally.events.knockout.rounds import slots_text
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.players import resolve_player
from tally.store.roundrows import insert_round
from tally.store.transactions import Database

#: what the audit summary of a round started with the pairings given says
AS_GIVEN: Final = "with the pairings given"


@dataclass(frozen=True)
class GivenTable:
    """One table of a round given: its number, its two players (as the match lists them,
    by name or ``#number``), who deals first and how many matches it plays."""

    table: int
    first: str
    second: str
    first_dealer: str
    matches: int = 1


class GivenRounds:
    """Rounds started with the pairings given, and the rounds an event keeps so. Reached as
    ``store.given``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def start(
        self,
        ref: str | int,
        number: int,
        tables: Sequence[GivenTable],
        bye: str | None,
        *,
        bracket: Sequence[str | None] | None = None,
        playoff: bool = False,
    ) -> list[int]:
        """Start round ``number`` of an event with the pairings ``tables`` and ``bye`` as
        given (module docstring), checked; one audit entry. ``bracket`` (its slots, a player
        or None each) when the round seeded the bracket, ``playoff`` when it started the
        play-off for the final stage. The matches made, in order."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            _check_next(conn, ev, number)
            _keep_seeding(conn, ev, number, bracket, playoff)
            ids = _player_ids(conn, ev, [x for tb in tables for x in (tb.first, tb.second)])
            rows = _checked_tables(conn, ev, number, tables, ids)
            bye_id = None if bye is None else _player_ids(conn, ev, [bye])[bye]
            if bye_id is not None and any(bye_id in (r[1], r[2]) for r in rows):
                raise Refused(
                    Message(
                        N_("round %(round)s gives the bye to %(player)s, who plays in it"),
                        round=number,
                        player=bye,
                    )
                )
            counts = {tb.matches for tb in tables} or {1}
            if len(counts) > 1:
                raise Refused(
                    Message(
                        N_("every table of round %(round)s plays as many matches"), round=number
                    )
                )
            return insert_round(
                self.store,
                conn,
                ev,
                number,
                bye_id,
                rows,
                f'started round {number} of event {ev["id"]} "{ev["name"]}" {AS_GIVEN}',
                matches_per_pairing=counts.pop(),
            )

    def rounds(self, ref: str | int) -> set[int]:
        """The rounds of an event kept as they were made: started with the pairings given,
        or changed since by a result corrected (any change to a match of a round before
        it, or a play-off, after the round was started)."""
        with self.store.reading() as conn:
            eid = eventrows.resolve_event(conn, ref)["id"]
            a, m = t.audit_log.c, t.matches.c
            entries = conn.execute(
                select(a.id, a.summary)
                .where(
                    a.command.endswith("event round")
                    & (a.entity == "event")
                    & (a.entity_id == eid)
                    & a.reversed_by.is_(None)
                )
                .order_by(a.id)
            ).all()
            started = conn.execute(
                select(t.event_rounds.c.number).where(t.event_rounds.c.event_id == eid)
            ).scalars()
            kept: set[int] = set()
            for number in started:
                entry = _start_entry(entries, number)
                if entry is None:
                    continue
                if AS_GIVEN in entry[1]:
                    kept.add(number)
                    continue
                rounds_before = select(m.id).where((m.event_id == eid) & (m.round_number < number))
                playoffs_before = (
                    select(a.match_id)
                    .join(t.matches, m.id == a.match_id)
                    .where((m.event_id == eid) & m.round_number.is_(None))
                    .group_by(a.match_id)
                    .having(func.min(a.id) < entry[0])
                )
                changed = conn.execute(
                    select(func.count())
                    .select_from(t.audit_log)
                    .where(
                        (a.id > entry[0])
                        & (a.match_id.in_(rounds_before) | a.match_id.in_(playoffs_before))
                    )
                ).scalar_one()
                if changed:
                    kept.add(number)
            return kept

    def seeding(self, ref: str | int) -> dict[int, dict[str, Any]]:
        """What a knockout's or groups event's rounds seeded, by round: ``{"bracket": [the
        slots by name, None for an empty one]}`` on the round that seeded the bracket,
        ``{"playoff": True}`` on the round that started the play-off; {} for other kinds."""
        with self.store.reading() as conn:
            eid = eventrows.resolve_event(conn, ref)["id"]
            f = t.event_formats.c
            row = conn.execute(
                select(f.bracket_round, f.bracket, f.playoff_round).where(f.event_id == eid)
            ).first()
            out: dict[int, dict[str, Any]] = {}
            if row is None:
                return out
            if row.bracket_round is not None:
                slots = [int(x) if x else None for x in str(row.bracket or "").split(",")]
                names = dict(
                    conn.execute(
                        select(t.players.c.id, t.players.c.name).where(
                            t.players.c.id.in_([x for x in slots if x is not None])
                        )
                    ).all()
                )
                bracket = [None if x is None else names[x] for x in slots]
                out[int(row.bracket_round)] = {"bracket": bracket}
            if row.playoff_round is not None:
                out.setdefault(int(row.playoff_round), {})["playoff"] = True
            return out


def _keep_seeding(
    conn: Connection,
    ev: RowMapping,
    number: int,
    bracket: Sequence[str | None] | None,
    playoff: bool,
) -> None:
    """Keep in the event's format the bracket round ``number`` seeded (its slots) or the
    play-off it started; refused for an event that has neither."""
    if bracket is None and not playoff:
        return
    if not format_of(ev["kind"]).ranks_by_elimination:
        raise Refused(
            Message(
                N_('event %(id)s "%(name)s" has no bracket and no play-off'),
                id=ev["id"],
                name=ev["name"],
            )
        )
    values: dict[str, Any] = {}
    if bracket is not None:
        listed = {p["player_id"] for p in eventrows.event_players(conn, ev["id"])}
        slots: list[int | None] = []
        for ref in bracket:
            player = None if ref is None else int(resolve_player(conn, ref)["id"])
            if player is not None and player not in listed:
                raise Refused(
                    Message(
                        N_("%(player)s is not a player of %(event)s"), player=ref, event=ev["name"]
                    )
                )
            slots.append(player)
        values |= {"bracket_round": number, "bracket": slots_text(tuple(slots))}
    if playoff:
        values["playoff_round"] = number
    conn.execute(
        update(t.event_formats).where(t.event_formats.c.event_id == ev["id"]).values(**values)
    )


def _start_entry(entries: Sequence[tuple[int, str]], number: int) -> tuple[int, str] | None:
    """The latest audit entry (id, summary) that started round ``number`` and stands."""
    mark = f"round {number} "
    found = [(int(i), str(s)) for i, s in entries if mark in str(s)]
    return found[-1] if found else None


def _check_next(conn: Connection, ev: RowMapping, number: int) -> None:
    """Refuse a round given of an event without rounds, or not the next one."""
    fmt = format_of(ev["kind"])
    if not fmt.has_rounds:
        raise Refused(
            Message(N_('event %(id)s "%(name)s" has no rounds'), id=ev["id"], name=ev["name"])
        )
    last = conn.execute(
        select(func.max(t.event_rounds.c.number)).where(t.event_rounds.c.event_id == ev["id"])
    ).scalar_one()
    following = (last or 0) + 1
    if number != following:
        raise eventrows.round_refused(ev["id"], ev["name"], number, following)


def _player_ids(conn: Connection, ev: RowMapping, refs: Sequence[str]) -> dict[str, int]:
    """Each reference -> the id of the event's player it names; refused for a player who
    is not in the event or has withdrawn."""
    listed = {p["player_id"]: p for p in eventrows.event_players(conn, ev["id"])}
    out: dict[str, int] = {}
    for ref in refs:
        row = resolve_player(conn, ref)
        entry = listed.get(row["id"])
        if entry is None or entry["withdrawn_at"] is not None:
            raise Refused(
                Message(
                    N_("%(player)s is not a player of %(event)s who has not withdrawn"),
                    player=row["name"],
                    event=ev["name"],
                )
            )
        out[ref] = int(row["id"])
    return out


def _checked_tables(
    conn: Connection, ev: RowMapping, number: int, tables: Sequence[GivenTable], ids: dict[str, int]
) -> list[tuple[int, int, int, int]]:
    """The tables as rows of :func:`insert_round`, each checked: numbered once, two players
    who sit nowhere else in the round, the first dealer one of them."""
    seen: set[int] = set()
    seated: set[int] = set()
    rows: list[tuple[int, int, int, int]] = []
    for tb in tables:
        a, b = ids[tb.first], ids[tb.second]
        if tb.table < 1 or tb.table in seen:
            raise Refused(
                Message(
                    N_("round %(round)s lists table %(table)s twice"), round=number, table=tb.table
                )
            )
        for player, ref in ((a, tb.first), (b, tb.second)):
            if player in seated or a == b:
                raise Refused(
                    Message(N_("round %(round)s seats %(player)s twice"), round=number, player=ref)
                )
            seated.add(player)
        dealer = resolve_player(conn, tb.first_dealer)["id"]
        if dealer not in (a, b):
            raise Refused(
                Message(
                    N_("%(player)s does not play at table %(table)s of round %(round)s"),
                    player=tb.first_dealer,
                    table=tb.table,
                    round=number,
                )
            )
        seen.add(tb.table)
        rows.append((tb.table, a, b, int(dealer)))
    return rows
