"""Swapping two players between the tables of a round, the tournament director's hand on
a pairing (``tally event swap EVENT ROUND A B``, the director's round page).

The two players change seats: each takes the other's place at the other's table (every
match of it, the first dealer included) or the other's bye. Only while neither table has a
deal recorded (trick by trick or as a quick result); the two must be at different tables.

What an arbiter checks before such a change is said first (:meth:`Swaps.check`), and a swap
that breaks a rule is made only when the director confirms it (``force``):

- a **rematch**: a new pairing met in another round of the event;
- a **pair kept apart** (``tally event apart``) paired;
- the **bye given twice**: the bye moves to a player who had one already;

A round robin's pairings (and a groups event's) are fixed by its schedule: a swap there would
leave pairs that meet twice and pairs that never meet, so it is refused (an arbiter changes
the order of the players before the first round instead). A Swiss round and a knockout's draw
are made when the round starts, so their tables can be swapped.

Unequal match points at a new table of a Swiss event are allowed without confirming (the
pairing rules prefer equal scores but the director may decide otherwise) and are said.

The check and the swap are one transaction with the round's matches locked; the swap is
audited (``event swap``) and ``tally audit undo`` puts the players back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Joined, Message, NotFound, Refused
from tally.events.formats import format_of
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, Snapshot, snapshot
from tally.store.derivation import lock_match
from tally.store.events import Events
from tally.store.players import resolve_player
from tally.store.transactions import Database
from tally.store.views import SwapView

__all__ = []


@dataclass(frozen=True)
class _Plan:
    """A swap worked out: the event, the two players (id, name), the round's matches that
    change and what an arbiter is told."""

    event: RowMapping
    number: int
    ids: tuple[int, int]
    names: tuple[str, str]
    matches: tuple[int, ...]
    bye: int | None
    warnings: tuple[Message, ...]
    notes: tuple[Message, ...]
    seats: tuple[int | None, int | None]


def chained(messages: tuple[Message, ...]) -> Message:
    """Several messages as one, each worded in the reader's language, joined by ``; ``."""
    out = messages[-1]
    for earlier in reversed(messages[:-1]):
        out = Message("%(first)s; %(rest)s", first=earlier, rest=out)
    return out


def _view(plan: _Plan, audit_id: int | None) -> SwapView:
    return SwapView(
        plan.event["id"],
        plan.number,
        plan.names[0],
        plan.names[1],
        plan.warnings,
        plan.notes,
        audit_id,
        plan.seats,
    )


def _refuse_scheduled(ev: RowMapping) -> None:
    """Refuse a swap in an event whose pairings its schedule fixes (a round robin)."""
    fmt = format_of(ev["kind"])
    if fmt.has_scheduled_pairings:
        raise Refused(
            Message(
                N_(
                    'event %(id)s "%(name)s" is a %(kind)s: its pairings are fixed by its '
                    "schedule (a swap would make some players meet twice and some never); "
                    "change the order of the players before the first round instead"
                ),
                id=ev["id"],
                name=ev["name"],
                kind=Message(fmt.audit_name),
            )
        )


def _round_bye(conn: Connection, eid: int, name: str, number: int) -> int | None:
    """Who sits out round ``number`` of event ``eid`` (None: nobody); refused when the round
    has not been started."""
    bye = conn.execute(
        select(t.event_rounds.c.bye_player_id).where(
            (t.event_rounds.c.event_id == eid) & (t.event_rounds.c.number == number)
        )
    ).first()
    if bye is None:
        raise NotFound(
            Message(
                N_('round %(round)s of event %(id)s "%(name)s" has not been started'),
                round=number,
                id=eid,
                name=name,
            )
        )
    player: int | None = bye[0]
    return player


def _plan(
    store: Database, conn: Connection, ref: str | int, number: int, first: str, second: str
) -> _Plan:
    """The swap worked out and checked, the round's matches locked; refused when it cannot
    be made."""
    ev = eventrows.resolve_event(conn, ref, lock=True)
    eid, name = ev["id"], ev["name"]
    _refuse_scheduled(ev)
    rows = [resolve_player(conn, x) for x in (first, second)]
    if rows[0]["id"] == rows[1]["id"]:
        raise Refused(
            Message(N_("%(name)s is named twice: give two players to swap"), name=rows[0]["name"])
        )
    bye = _round_bye(conn, eid, name, number)
    m = t.matches.c
    matches = list(
        conn.execute(
            select(m.id, m.table_number, m.player_a_id, m.player_b_id)
            .where((m.event_id == eid) & (m.round_number == number))
            .order_by(m.id)
        ).mappings()
    )
    for row in matches:
        lock_match(conn, row["id"])
    seats = [_seat(matches, bye, row, eid, name, number) for row in rows]
    if seats[0] == seats[1]:
        raise Refused(
            Message(
                N_(
                    "%(a)s and %(b)s play at the same table: swap one of them with a player "
                    "of another table"
                ),
                a=rows[0]["name"],
                b=rows[1]["name"],
            )
        )
    changed = tuple(r["id"] for r in matches if r["table_number"] in seats)
    _refuse_recorded(conn, changed, seats)
    ids = (rows[0]["id"], rows[1]["id"])
    names = (str(rows[0]["name"]), str(rows[1]["name"]))
    warnings, notes = _warnings(store, conn, ev, number, ids, names, matches, bye)
    return _Plan(ev, number, ids, names, changed, bye, warnings, notes, (seats[0], seats[1]))


def _seat(
    matches: list[RowMapping], bye: int | None, player: RowMapping, eid: int, name: str, number: int
) -> int | None:
    """The table ``player`` sits at in the round (None: the bye); refused when neither."""
    for row in matches:
        if player["id"] in (row["player_a_id"], row["player_b_id"]):
            return int(row["table_number"])
    if player["id"] == bye:
        return None
    raise NotFound(
        Message(
            N_(
                '%(player)s plays no match of round %(round)s of event %(id)s "%(name)s" and '
                "does not have its bye"
            ),
            player=player["name"],
            round=number,
            id=eid,
            name=name,
        )
    )


def _refuse_recorded(conn: Connection, matches: tuple[int, ...], seats: list[int | None]) -> None:
    recorded = conn.execute(
        select(func.count()).select_from(t.deals).where(t.deals.c.match_id.in_(matches))
    ).scalar_one()
    if recorded:
        raise Refused(
            Message(
                N_(
                    "the players of table %(tables)s stay where they are: %(n)s deal(s) are "
                    "recorded there already (a swap is made before play starts)"
                ),
                tables=Joined(N_(" and "), [s for s in seats if s is not None]),
                n=recorded,
            )
        )


def _opponents(matches: list[RowMapping], player: int) -> set[int]:
    return {
        other
        for row in matches
        for one, other in (
            (row["player_a_id"], row["player_b_id"]),
            (row["player_b_id"], row["player_a_id"]),
        )
        if one == player
    }


def _warnings(
    store: Database,
    conn: Connection,
    ev: RowMapping,
    number: int,
    ids: tuple[int, int],
    names: tuple[str, str],
    matches: list[RowMapping],
    bye: int | None,
) -> tuple[tuple[Message, ...], tuple[Message, ...]]:
    """What the swap needs confirming, and what it only says (unequal match points)."""
    eid = ev["id"]
    named = {p["player_id"]: str(p["name"]) for p in eventrows.event_players(conn, eid)}
    new: list[tuple[int, int]] = []
    for mover, other in (ids, ids[::-1]):
        new += [(mover, opp) for opp in _opponents(matches, other) if opp != mover]
    warnings = [
        Message(
            N_("%(a)s and %(b)s met in round %(round)s already"),
            a=named[a],
            b=named[b],
            round=earlier,
        )
        for a, b in new
        for earlier in _met(conn, eid, number, a, b)[:1]
    ]
    apart = set(eventrows.apart_pairs(conn, eid))
    warnings += [
        Message(N_("%(a)s and %(b)s are kept apart"), a=named[a], b=named[b])
        for a, b in new
        if (min(a, b), max(a, b)) in apart
    ]
    if bye in ids:
        taker = ids[1] if bye == ids[0] else ids[0]
        had = _byes(conn, eid, number, taker)
        if had:
            warnings.append(
                Message(
                    N_(
                        "%(player)s had the bye in round %(round)s already: the bye would "
                        "be given twice"
                    ),
                    player=named[taker],
                    round=had[0],
                )
            )
    scored = format_of(ev["kind"]).pairs_from_standings
    notes = _score_notes(store, eid, number, new, named) if scored else []
    return tuple(warnings), tuple(notes)


def _met(conn: Connection, eid: int, number: int, a: int, b: int) -> list[int]:
    """The other rounds of the event in which ``a`` and ``b`` met."""
    m = t.matches.c
    return sorted(
        {
            int(r)
            for r in conn.execute(
                select(m.round_number).where(
                    (m.event_id == eid)
                    & (m.round_number != number)
                    & (
                        ((m.player_a_id == a) & (m.player_b_id == b))
                        | ((m.player_a_id == b) & (m.player_b_id == a))
                    )
                )
            ).scalars()
            if r is not None
        }
    )


def _byes(conn: Connection, eid: int, number: int, player: int) -> list[int]:
    """The other rounds of the event in which ``player`` had the bye."""
    er = t.event_rounds.c
    return sorted(
        conn.execute(
            select(er.number).where(
                (er.event_id == eid) & (er.number != number) & (er.bye_player_id == player)
            )
        ).scalars()
    )


def _score_notes(
    store: Database, eid: int, number: int, new: list[tuple[int, int]], named: dict[int, str]
) -> list[Message]:
    """The new pairings whose players have unequal match points before the round."""

    points = Events(store).round_by_round(eid).scores_before(number)
    out = []
    for a, b in new:
        pa, pb = points.get(named[a], 0.0), points.get(named[b], 0.0)
        if pa != pb:
            out.append(
                Message(
                    N_("%(a)s (%(pa)s) and %(b)s (%(pb)s) have unequal match points"),
                    a=named[a],
                    pa=f"{pa:g}",
                    b=named[b],
                    pb=f"{pb:g}",
                )
            )
    return out


def _apply(store: Database, conn: Connection, plan: _Plan) -> int:
    """Swap the two players in the round's rows; the audit entry's id."""
    eid = plan.event["id"]
    x, y = plan.ids
    before: dict[str, Snapshot] = {f"event:{eid}": snapshot(conn, "event", eid)}
    before |= {f"match:{mid}": snapshot(conn, "match", mid) for mid in plan.matches}
    m = t.matches.c
    for mid in plan.matches:
        snap = before[f"match:{mid}"]
        assert snap is not None
        conn.execute(
            update(t.matches)
            .where(m.id == mid)
            .values(
                {
                    col: {x: y, y: x}.get(snap[col], snap[col])
                    for col in ("player_a_id", "player_b_id", "first_dealer_id")
                }
            )
        )
    if plan.bye in plan.ids:
        er = t.event_rounds.c
        conn.execute(
            update(t.event_rounds)
            .where((er.event_id == eid) & (er.number == plan.number))
            .values(bye_player_id=y if plan.bye == x else x)
        )
    after: dict[str, Snapshot] = {f"event:{eid}": snapshot(conn, "event", eid)}
    after |= {f"match:{mid}": snapshot(conn, "match", mid) for mid in plan.matches}
    summary = (
        f"event {eid} round {plan.number}: swapped {plan.names[0]} and {plan.names[1]}"
        f" (matches {', '.join(map(str, plan.matches))})"
    )
    words = Message(
        N_("Round %(round)s of %(event)s: %(a)s and %(b)s swapped tables"),
        round=plan.number,
        event=plan.event["name"],
        a=plan.names[0],
        b=plan.names[1],
    )
    return Audit(store).write(conn, "event swap", "event", eid, summary, before, after, words=words)


@dataclass(frozen=True)
class MadeSwap:
    """A swap in effect: round ``number`` of an event, the two players' ids and the audit
    entry that undoes it (the swap's own, or the latest re-doing of it)."""

    number: int
    players: tuple[int, int]
    entry: int


def _is_swap(command: str) -> bool:
    return command == "event swap" or command.endswith(": event swap")


def _live(rows: dict[int, RowMapping], entry: int) -> int | None:
    """The entry that holds change ``entry`` in effect: itself while not reversed, the
    reversal of its reversal when that was reversed, ...; None when it is undone."""
    live: int | None = entry
    while live is not None and rows[live]["reversed_by"] is not None:
        undo = rows[live]["reversed_by"]
        live = rows[undo]["reversed_by"] if undo in rows else None
    return live


def _swapped(row: RowMapping) -> tuple[int, tuple[int, int]] | None:
    """The round and the two players of a swap's audit entry, read from the matches it
    changed (the players whose seats moved)."""
    before, after = json.loads(row["before"] or "{}"), json.loads(row["after"] or "{}")
    moved: set[int] = set()
    number = None
    for key, then in before.items():
        now = after.get(key)
        if key.startswith("match:") and then and now:
            seats = ("player_a_id", "player_b_id")
            moved |= {then[k] for k in seats} ^ {now[k] for k in seats}
            number = then["round_number"]
    if number is None or len(moved) != 2:
        return None
    a, b = sorted(moved)
    return int(number), (a, b)


def swaps_made(conn: Connection, event_id: int) -> list[MadeSwap]:
    """The swaps in effect in an event's rounds, in the order they were made."""
    a = t.audit_log.c
    rows = {
        r["id"]: r
        for r in conn.execute(
            select(a.id, a.command, a.before, a.after, a.reversed_by).where(
                (a.entity == "event") & (a.entity_id == event_id)
            )
        ).mappings()
    }
    out = []
    for entry in sorted(rows):
        row = rows[entry]
        live = _live(rows, entry) if _is_swap(row["command"]) else None
        swapped = None if live is None else _swapped(row)
        if swapped is not None and live is not None:
            out.append(MadeSwap(swapped[0], swapped[1], live))
    return out


class Swaps:
    """Two players swapped between the tables of a round, checked first. Reached as
    ``store.swaps``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def check(self, ref: str | int, number: int, first: str, second: str) -> SwapView:
        """What swapping ``first`` and ``second`` in round ``number`` would need confirming
        (``warnings``) and what it says (``notes``), without swapping; refused as the swap would
        be (not at two tables of the round, a deal recorded)."""
        with self.store.reading() as conn:
            plan = _plan(self.store, conn, ref, number, first, second)
            return _view(plan, None)

    def make(
        self, ref: str | int, number: int, first: str, second: str, *, force: bool = False
    ) -> SwapView:
        """Swap ``first`` and ``second`` between their tables (or a table and the bye) in round
        ``number`` of an event, while neither table has a deal recorded. A swap with warnings
        (:meth:`Swaps.check`) is refused unless ``force``. One transaction with the round's
        matches locked; audited (``tally audit undo`` swaps them back)."""
        with self.store.writing() as conn:
            plan = _plan(self.store, conn, ref, number, first, second)
            if plan.warnings and not force:
                raise Refused(
                    Message(
                        N_(
                            "%(first)s and %(second)s were not swapped: %(warnings)s; swap "
                            "them anyway with `--force`"
                        ),
                        first=plan.names[0],
                        second=plan.names[1],
                        warnings=chained(plan.warnings),
                    )
                )
            return _view(plan, _apply(self.store, conn, plan))

    def made(self, ref: str | int) -> list[tuple[int, str, str]]:
        """The swaps in effect in an event's rounds, in the order they were made: (round,
        player, player), the two by name in alphabetical order."""
        with self.store.reading() as conn:
            eid = eventrows.resolve_event(conn, ref)["id"]
            named = {p["player_id"]: str(p["name"]) for p in eventrows.event_players(conn, eid)}
            out = []
            for swap in swaps_made(conn, eid):
                first, second = sorted(named[p] for p in swap.players)
                out.append((swap.number, first, second))
            return out
