"""Series of events (a Grand Prix, a season cup): stored as which events in which order,
the points per placing and how many results count; the standings derived each time.

    with open_store("club.db") as store:
        create_series(store, "Grand Prix 2026", events=["1", "2", "3"],
                      points=[25, 18, 15, 12, 10, 8, 6, 4, 2, 1], best=2)
        view = series_standings(store, "Grand Prix 2026")

A series' standings are never stored: each event's placings are its standings now
(``store.events.standings``, with the event's own tiebreaks; players level there
share the rank; a player who played no match there has no result in it and the places of
the others close up, :func:`placings_of`), and
:func:`tally.events.series.series_standings` turns them into points (ties on a
placing share the points of the places they hold), counts the best N and ranks the players
(total, then countback). An event still being played counts with its standings so far, and
its stage is shown. Creating a series is audited (``tally audit undo`` removes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection

from tally import names
from tally.errors import Message, Refused
from tally.events.series import EventPlacings, SeriesRow, check_best, check_points
from tally.events.series import series_standings as rank_series
from tally.i18n import N_
from tally.store import eventrows, seriesrows
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot, utc_now
from tally.store.events import Events
from tally.store.transactions import Database
from tally.store.views import FOR_PEOPLE

__all__ = [
    "Series",
    "SeriesEventView",
    "SeriesStandingsView",
    "SeriesView",
    "format_points",
    "placings_of",
]

SERIES_NAME_LENGTH = 100
#: the most events a series may have
MAX_EVENTS = 200


@dataclass(frozen=True)
class SeriesEventView:
    """An event of a series: number, name, date, and its stage (``final``, ``round 3 of 7``;
    empty for a club evening)."""

    id: int
    name: str
    date: date
    kind: str
    stage: str | Message
    #: the words of ``stage`` for a person (None: a knockout's, whose ``stage`` is its words)
    stage_wording: Message | None = field(
        default=None, compare=False, repr=False, metadata=FOR_PEOPLE
    )


@dataclass(frozen=True)
class SeriesView:
    """A series: its events in order, points per placing, how many results count (None:
    all)."""

    id: int
    name: str
    events: tuple[SeriesEventView, ...]
    points: tuple[float, ...]
    best: int | None
    created_at: str


@dataclass(frozen=True)
class SeriesStandingsView:
    """The standings of a series: a row per player with one result per event (None where
    they did not play), their total of the counted results, ranked."""

    series: SeriesView
    rows: tuple[SeriesRow, ...]


def format_points(points: Sequence[float]) -> str:
    """Points as stored and shown: ``25,18,15,12.5``.

    >>> format_points((25.0, 18.0, 12.5))
    '25,18,12.5'
    """
    return ",".join(f"{p:g}" for p in points)


def _parse_points(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in text.split(",") if x)


def _clean_name(name: str) -> str:
    names.check_text(name, "series name")
    clean = " ".join(name.split())
    if not clean:
        raise Refused(N_("a series needs a name"))
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in clean):
        raise Refused(
            Message(
                N_("%(name)s: a series name cannot contain control characters"),
                name=repr(clean[:20]),
            )
        )
    if len(clean) > SERIES_NAME_LENGTH:
        raise Refused(
            Message(
                N_('"%(name)s...": a series name has at most %(most)s characters'),
                name=clean[:20],
                most=SERIES_NAME_LENGTH,
            )
        )
    if clean.removeprefix("#").isdigit():
        raise Refused(
            Message(
                N_(
                    '"%(name)s": a series name cannot be a number (numbers name series by their '
                    "number)"
                ),
                name=clean,
            )
        )
    return clean


def placings_of(rows: Sequence[tuple[str, int, int]]) -> dict[str, int]:
    """The placings of an event from its standings rows (player, rank, matches played):
    players who played no match are left out, and the places of the others close up (a
    player's place is one more than the number of players who played and rank above them;
    players sharing a rank share the place).

    >>> placings_of([("Carl", 1, 1), ("Anna", 2, 0), ("Dora", 4, 1), ("Eva", 4, 1)])
    {'Carl': 1, 'Dora': 2, 'Eva': 2}
    """
    ranks = sorted(rank for _p, rank, played in rows if played)
    out: dict[str, int] = {}
    for player, rank, played in rows:
        if played:
            out[player] = 1 + sum(1 for r in ranks if r < rank)
    return out


def _check_name_free(conn: Connection, clean: str, key: str) -> None:
    """Refuse the name ``clean`` (folded: ``key``) when another series has it."""
    taken = conn.execute(select(t.series.c.id).where(t.series.c.name_key == key)).first()
    if taken is not None:
        raise Refused(
            Message(
                N_('there is a series "%(name)s" already (number %(id)s)'), name=clean, id=taken[0]
            )
        )


def _distinct_events(conn: Connection, events: Sequence[str | int]) -> list[int]:
    """The numbers of the events ``events`` names, in order; refused for one given twice."""
    ids: list[int] = []
    for ref in events:
        row = eventrows.resolve_event(conn, ref)
        if row["id"] in ids:
            raise Refused(
                Message(
                    N_('event %(id)s "%(name)s" is listed twice'), id=row["id"], name=row["name"]
                )
            )
        ids.append(int(row["id"]))
    return ids


class Series:
    """Series of events, with their standings summed from the events' placings. Reached as
    ``store.series``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def create(
        self,
        name: str,
        *,
        events: Sequence[str | int],
        points: Sequence[float],
        best: int | None = None,
    ) -> SeriesView:
        """Create a series of stored events (by number or name, in the series' order): a
        placing earns ``points[place - 1]`` (nothing beyond the list), each player's ``best``
        results count (all when None). Refused for a name another series has (case, spaces
        and accents aside), an event given twice, no events, or points that rise with a worse
        place."""
        clean = _clean_name(name)
        scale = check_points(points)
        if not 1 <= len(events) <= MAX_EVENTS:
            raise Refused(
                Message(
                    N_("a series has 1 to %(most)s events, not %(n)s"),
                    most=MAX_EVENTS,
                    n=len(events),
                )
            )
        count = check_best(best, len(events))
        with self.store.writing() as conn:
            key = names.fold(clean)
            _check_name_free(conn, clean, key)
            ids = _distinct_events(conn, events)
            sid = conn.execute(
                insert(t.series)
                .values(
                    name=clean,
                    name_key=key,
                    points=format_points(scale),
                    best=count,
                    created_at=utc_now(),
                )
                .returning(t.series.c.id)
            ).scalar_one()
            conn.execute(
                insert(t.series_events),
                [
                    {"series_id": sid, "event_id": eid, "position": i}
                    for i, eid in enumerate(ids, start=1)
                ],
            )
            Audit(self.store).write(
                conn,
                "series create",
                "series",
                sid,
                f'created series {sid} "{clean}" of {len(ids)} event(s)',
                {f"series:{sid}": None},
                {f"series:{sid}": snapshot(conn, "series", sid)},
                words=Message(N_("Series %(series)s created"), series=clean),
            )
        return self.get(sid)

    def get(self, ref: str | int) -> SeriesView:
        """One series, by number or name."""
        with self.store.reading() as conn:
            row = seriesrows.find_series(conn, ref)
            ids = seriesrows.series_event_ids(conn, row["id"])
            evs = (
                {
                    r["id"]: r
                    for r in conn.execute(select(t.events).where(t.events.c.id.in_(ids))).mappings()
                }
                if ids
                else {}
            )
        out: list[SeriesEventView] = []
        for eid in ids:
            ev = evs[eid]
            out.append(SeriesEventView(eid, ev["name"], ev["held_on"], ev["kind"], ""))
        return SeriesView(
            row["id"],
            row["name"],
            tuple(out),
            _parse_points(row["points"]),
            row["best"],
            row["created_at"].isoformat(),
        )

    def all(self) -> list[SeriesView]:
        """Every series, by number."""
        with self.store.reading() as conn:
            ids = list(conn.execute(select(t.series.c.id).order_by(t.series.c.id)).scalars())
        return [self.get(sid) for sid in ids]

    def standings(self, ref: str | int) -> SeriesStandingsView:
        """The standings of a series now: every player placed in one of its events, ranked by
        their total of the best N results (module docstring of :mod:`tally.events.series`)."""
        view = self.get(ref)
        placings: list[EventPlacings] = []
        shown: list[SeriesEventView] = []
        for ev in view.events:
            table = Events(self.store).standings(ev.id)
            placings.append(
                EventPlacings(
                    ev.id,
                    ev.name,
                    ev.date.isoformat(),
                    placings_of([(r.player, r.rank, r.played) for r in table.rows]),
                    table.stage,
                )
            )
            shown.append(
                SeriesEventView(ev.id, ev.name, ev.date, ev.kind, table.stage, table.stage_wording)
            )
        rows = rank_series(placings, view.points, view.best)
        return SeriesStandingsView(
            SeriesView(view.id, view.name, tuple(shown), view.points, view.best, view.created_at),
            rows,
        )
