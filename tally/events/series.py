"""Series (a Grand Prix, a season cup): points per placing in chosen events, the best N
results counting.

Each event of a series ranks its players (its own standings, with its tiebreaks); a placing
earns the points the series gives for it (``25,18,15,...``: first place 25, second 18...;
placings beyond the list earn nothing). A player's series total is the sum of their best
``best`` results (every result when ``best`` is None); an event a player did not play in is
no result. This module is the engine's part: pure Python over placings, no database.

**Ties on a placing.** Players who share a rank in an event's standings share the points of
the places they hold between them, equally: two players tied for second hold places 2 and 3
and get ``(18 + 15) / 2 = 16.5`` each (as golf's and cycling's dead heats are settled);
nobody gains or loses by the tie against the players behind them.

**Which results count.** The ``best`` highest point results; among equal results the earlier
event counts (it makes no difference to the total, only to which result the sheet marks as
dropped).

**Ranking the series.** By total points, then by countback over all results (counted or
dropped): more first places, then more second places, and so on (as Formula One breaks ties);
players still level share the rank and are listed by name.

>>> pts = points_for_placings({"Anna": 1, "Bert": 2, "Carl": 2, "Dora": 4}, (25, 18, 15, 12))
>>> pts == {"Anna": 25, "Bert": 16.5, "Carl": 16.5, "Dora": 12}
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tally.errors import N_, Message, Refused

__all__ = [
    "MAX_PLACES",
    "MAX_POINTS",
    "EventPlacings",
    "SeriesResult",
    "SeriesRow",
    "check_best",
    "check_points",
    "points_for_placings",
    "series_standings",
]

#: the longest points list a series may give (places with points)
MAX_PLACES = 200
#: the most points a placing may earn
MAX_POINTS = 10_000


def check_points(points: Sequence[float]) -> tuple[float, ...]:
    """Points per placing, checked: 1 to :data:`MAX_PLACES` finite numbers from 0 to
    :data:`MAX_POINTS`, never more for a worse place.

    >>> check_points([25, 18, 15])
    (25.0, 18.0, 15.0)
    """
    if not 1 <= len(points) <= MAX_PLACES:
        raise Refused(
            Message(
                N_("a series gives points to 1 to %(most)s places, not %(places)s"),
                most=MAX_PLACES,
                places=len(points),
            )
        )
    out: list[float] = []
    for place, value in enumerate(points, start=1):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise Refused(
                Message(
                    N_("the points of place %(place)s must be a number, not %(value)s"),
                    place=place,
                    value=repr(value),
                )
            )
        number = float(value) if abs(value) <= MAX_POINTS else math.inf
        if not (math.isfinite(number) and 0 <= number <= MAX_POINTS):
            raise Refused(
                Message(
                    N_("the points of place %(place)s must be a number from 0 to %(most)s"),
                    place=place,
                    most=MAX_POINTS,
                )
            )
        if out and number > out[-1]:
            raise Refused(
                Message(
                    N_(
                        "place %(place)s cannot earn more points (%(points)s) than place "
                        "%(above)s (%(above_points)s)"
                    ),
                    place=place,
                    points=f"{number:g}",
                    above=place - 1,
                    above_points=f"{out[-1]:g}",
                )
            )
        out.append(number)
    return tuple(out)


def check_best(best: int | None, events: int) -> int | None:
    """How many results count, checked: None (all) or 1 to the number of events."""
    if best is None:
        return None
    if isinstance(best, bool) or not isinstance(best, int) or not 1 <= best <= max(events, 1):
        raise Refused(
            Message(
                N_(
                    "the best N results of %(events)s event(s) count: "
                    "N is 1 to %(most)s, not %(best)s"
                ),
                events=events,
                most=max(events, 1),
                best=best,
            )
        )
    return best


def points_for_placings(ranks: Mapping[str, int], points: Sequence[float]) -> dict[str, float]:
    """The series points of each player of one event from their ranks (shared ranks allowed):
    players sharing a rank split the points of the places they hold equally."""
    held = Counter(ranks.values())
    out: dict[str, float] = {}
    for player, rank in ranks.items():
        if rank < 1:
            raise ValueError(f"{player!r}: rank {rank} is not 1 or more")
        places = range(rank, rank + held[rank])
        share = sum(points[p - 1] if p <= len(points) else 0.0 for p in places)
        out[player] = share / held[rank]
    return out


@dataclass(frozen=True)
class EventPlacings:
    """One event of a series: its number, name, date (ISO text) and how far it has got
    (``stage``, e.g. ``"final"``), and each player's rank in its standings."""

    event_id: int
    name: str
    date: str
    ranks: Mapping[str, int]
    stage: str = ""


@dataclass(frozen=True)
class SeriesResult:
    """A player's result in one event of the series: rank, points, and whether it counts
    towards the total (False: dropped, outside the best N)."""

    event_id: int
    rank: int
    points: float
    counted: bool


@dataclass(frozen=True)
class SeriesRow:
    """A player's line of the series standings: one entry per event of the series in order
    (None where they did not play), the total of the counted results, events played."""

    rank: int
    player: str
    total: float
    played: int
    results: tuple[SeriesResult | None, ...]


def series_standings(
    events: Sequence[EventPlacings], points: Sequence[float], best: int | None = None
) -> tuple[SeriesRow, ...]:
    """The standings of a series over ``events`` (in the series' order): each placing's
    points, the best ``best`` results counted, ranked by total then countback (see the
    module docstring).

    >>> ev = [EventPlacings(1, "Jan", "2026-01-08", {"Anna": 1, "Bert": 2}),
    ...       EventPlacings(2, "Feb", "2026-02-05", {"Bert": 1, "Anna": 2, "Carl": 3})]
    >>> [(r.rank, r.player, r.total) for r in series_standings(ev, (10, 6, 4), best=1)]
    [(1, 'Anna', 10.0), (1, 'Bert', 10.0), (3, 'Carl', 4.0)]
    """
    scale = check_points(points)
    best = check_best(best, len(events))
    per_event = [points_for_placings(e.ranks, scale) for e in events]
    players = sorted({p for e in events for p in e.ranks}, key=lambda p: (p.casefold(), p))
    # countback vectors: minus the number of 1st, 2nd, ... places, to the deepest rank given
    deepest_rank = max((r for e in events for r in e.ranks.values()), default=0)
    lines: list[tuple[float, tuple[int, ...], str, tuple[SeriesResult | None, ...], int]] = []
    for player in players:
        mine = [
            (i, e.ranks[player], per_event[i][player])
            for i, e in enumerate(events)
            if player in e.ranks
        ]
        by_value = sorted(mine, key=lambda x: (-x[2], x[0]))
        counted = {i for i, _r, _p in (by_value if best is None else by_value[:best])}
        results: list[SeriesResult | None] = [None] * len(events)
        for i, rank, value in mine:
            results[i] = SeriesResult(events[i].event_id, rank, value, i in counted)
        total = sum(value for i, _r, value in mine if i in counted)
        ranks = Counter(rank for _i, rank, _v in mine)
        countback = tuple(-ranks[r] for r in range(1, deepest_rank + 1))
        lines.append((-total, countback, player, tuple(results), len(mine)))
    lines.sort(key=lambda x: (x[0], x[1], x[2].casefold(), x[2]))
    rows: list[SeriesRow] = []
    for i, line in enumerate(lines):
        rank = i + 1
        if rows and lines[i - 1][:2] == line[:2]:
            rank = rows[-1].rank
        rows.append(SeriesRow(rank, line[2], -line[0] + 0.0, line[4], line[3]))
    return tuple(rows)
