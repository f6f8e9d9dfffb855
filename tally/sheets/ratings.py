"""The sheets of play across events: the ratings list, a series' standings, and the expected
result of each pairing (from the ratings when its round started) on a pairings sheet.

Each sheet is plain frozen data checked in ``__post_init__`` (as :mod:`tally.sheets.data`),
built from the store (:func:`ratings_sheet`, :func:`series_sheet`, :func:`with_expected`) and
rendered by the templates ``ratings.html.j2`` and ``series.html.j2`` through
:func:`tally.sheets.render.render_html` (autoescaped: a player's name never becomes markup).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from tally.errors import SheetError
from tally.sheets.data import Paper

if TYPE_CHECKING:
    from tally.sheets.data import PairingsSheet
    from tally.sheets.render import TemplateFiles
    from tally.store.store import Store

__all__ = [
    "RatingsSheet",
    "RatingsSheetRow",
    "SeriesSheet",
    "SeriesSheetEvent",
    "SeriesSheetRow",
    "ratings_sheet",
    "render_ratings",
    "render_series",
    "series_sheet",
    "with_expected",
]


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise SheetError(message)


def _now() -> datetime:
    return datetime.now().replace(second=0, microsecond=0)


# ----------------------------------------------------------------------------- ratings


@dataclass(frozen=True)
class RatingsSheetRow:
    """A line of the printed ratings list."""

    rank: int
    player: str
    rating: float
    deviation: float
    conservative: float
    matches: int
    won: int
    lost: int
    last_played: date

    def __post_init__(self) -> None:
        _need(self.rank >= 1, f"{self.player!r}: rank {self.rank} is not 1 or more")
        _need(self.deviation >= 0, f"{self.player!r}: a negative uncertainty")
        _need(
            self.won + self.lost <= self.matches,
            f"{self.player!r}: more matches won and lost than rated",
        )


@dataclass(frozen=True)
class RatingsSheet:
    """The ratings list: every rated player, best first."""

    title: str
    system: str
    matches_rated: int
    printed_at: datetime
    rows: tuple[RatingsSheetRow, ...]

    def __post_init__(self) -> None:
        ranks = [r.rank for r in self.rows]
        _need(ranks == sorted(ranks), "the ratings list is not in rank order")


def ratings_sheet(store: Store, *, printed_at: datetime | None = None) -> RatingsSheet:
    """The ratings list now, as a sheet."""

    view = store.ratings.table()
    rows = tuple(
        RatingsSheetRow(
            r.rank,
            r.player,
            r.rating,
            r.deviation,
            r.conservative,
            r.matches,
            r.won,
            r.lost,
            r.last_played.date(),
        )
        for r in view.rows
    )
    from tally.i18n import gettext as _

    return RatingsSheet(
        _("Across all events"), view.system, view.matches_rated, printed_at or _now(), rows
    )


def render_ratings(
    data: RatingsSheet, *, paper: Paper | str = "A4", files: TemplateFiles | None = None
) -> bytes:
    """The ratings list as PDF bytes."""
    from tally.sheets.render import html_to_pdf, render_html

    return html_to_pdf(render_html("ratings.html.j2", data, paper=paper), files=files)


def with_expected(store: Store, sheet: PairingsSheet, event_id: int | None = None) -> PairingsSheet:
    """``sheet`` with each table's expected result (player one's win probability from the
    ratings as they were when the round started, ``store.ratings.for_round``;
    today's for a club evening's tables or without ``event_id``), when at least one of its
    players has a rated match; unchanged otherwise (a column of 50% everywhere would say
    nothing)."""

    now = (
        store.ratings.current()
        if event_id is None or sheet.round_number is None
        else store.ratings.for_round(event_id, sheet.round_number)
    )
    if not any(now.rated(p) for t in sheet.tables for p in (t.player_one, t.player_two)):
        return sheet
    tables = tuple(
        dataclasses.replace(t, expected=now.expected(t.player_one, t.player_two))
        for t in sheet.tables
    )
    return dataclasses.replace(sheet, tables=tables)


# ----------------------------------------------------------------------------- series


@dataclass(frozen=True)
class SeriesSheetEvent:
    """An event of a series as the sheet heads its column."""

    number: int
    name: str
    date: date
    stage: str = ""


@dataclass(frozen=True)
class SeriesSheetRow:
    """A player's line: per event ``(points, placing, counted)`` or None (did not play)."""

    rank: int
    player: str
    results: tuple[tuple[float, int, bool] | None, ...]
    played: int
    total: float


@dataclass(frozen=True)
class SeriesSheet:
    """The standings of a series."""

    name: str
    events: tuple[SeriesSheetEvent, ...]
    points: str
    best: int | None
    printed_at: datetime
    rows: tuple[SeriesSheetRow, ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            _need(
                len(row.results) == len(self.events),
                f"{row.player!r} has {len(row.results)} results, the series "
                f"{len(self.events)} events",
            )
            counted = sum(r[0] for r in row.results if r is not None and r[2])
            _need(
                abs(counted - row.total) < 1e-9,
                f"{row.player!r}: the counted results do not add up to the total",
            )


def series_sheet(
    store: Store, ref: str | int, *, printed_at: datetime | None = None
) -> SeriesSheet:
    """The standings of a series now, as a sheet."""
    from tally.store.series import format_points
    from tally.vocabulary import stage_words

    view = store.series.standings(ref)
    s = view.series
    events = tuple(
        SeriesSheetEvent(e.id, e.name, e.date, stage_words(e) if e.stage else "") for e in s.events
    )
    rows = tuple(
        SeriesSheetRow(
            r.rank,
            r.player,
            tuple(None if x is None else (x.points, x.rank, x.counted) for x in r.results),
            r.played,
            r.total,
        )
        for r in view.rows
    )
    return SeriesSheet(s.name, events, format_points(s.points), s.best, printed_at or _now(), rows)


def render_series(
    data: SeriesSheet, *, paper: Paper | str = "A4", files: TemplateFiles | None = None
) -> bytes:
    """The standings of a series as PDF bytes."""
    from tally.sheets.render import html_to_pdf, render_html

    return html_to_pdf(render_html("series.html.j2", data, paper=paper), files=files)
