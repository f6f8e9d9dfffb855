"""Each page of the published site, made from the store in a language
(:mod:`tally.publish.site` has what they share)."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup

from tally.publish.privacy import Privacy
from tally.publish.site import (
    ANALYSIS_SAMPLES,
    STYLESHEET,
    Selection,
    entrants,
    event_parts,
    leaders,
    matches_of,
    newest_change,
    page,
    part,
    report_path,
    season_path,
    select,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tally.sheets.data import DealAnalysisPart
    from tally.sheets.report import PlayerReport
    from tally.store.ratings import RatingHistoryView
    from tally.store.store import Store
    from tally.store.views import EventView, MatchView


def index_page(store: Store, chosen: Selection, lang: str) -> str:
    """The index: the events (newest first) with their dates, kinds and winners or leaders,
    the series, and the seasons (newest first) with the events they count; when the results
    last changed."""
    rows = []
    for ev in sorted(chosen.events, key=lambda e: (e.date, e.id), reverse=True):
        first, won = leaders(store, ev)
        rows.append({"event": ev, "first": first, "won": won})
    return page(
        lang,
        "publish/index.html.j2",
        "",
        events=rows,
        series=chosen.series,
        seasons=[
            (year, [e for e in chosen.events if e.id in chosen.seasons[year].events])
            for year in sorted(chosen.seasons, reverse=True)
        ],
        updated=newest_change(store),
        people=chosen.people,
    )


def reports_of(chosen: Selection, ev: EventView, analyse: bool) -> dict[str, str]:
    """The path of each player's report in an event (by name; none without the analysis)."""
    if not analyse:
        return {}
    return {n: report_path(ev.id, chosen.people[n]) for n in entrants(chosen, ev)}


def event_page(
    store: Store, chosen: Selection, ev: EventView, lang: str, analyse: bool = False
) -> str:
    """An event: its standings as the sheets rank them, its rounds (each pairing's results,
    byes and absences) or, for a club evening, its matches; with the analysis, a link to
    each player's report."""
    rounds = []
    if ev.format.has_rounds:
        rounds = [r for r in store.events.rounds(ev.id) if r.started]
    club = [] if rounds else matches_of(chosen, (m.id for m in chosen.matches.values()))
    club = [m for m in club if m.event_id == ev.id]
    parts = [Markup(p) for p in event_parts(store, ev, lang, chosen.people)]
    series = [s for s in chosen.series if any(e.id == ev.id for e in s.events)]
    return page(
        lang,
        "publish/event.html.j2",
        "../",
        event=ev,
        parts=parts,
        rounds=rounds,
        club=club,
        series=series,
        reports=reports_of(chosen, ev, analyse),
        people=chosen.people,
    )


def player_page(
    store: Store,
    chosen: Selection,
    name: str,
    lang: str,
    history: RatingHistoryView,
    analyse: bool = False,
) -> str:
    """A player: their events (with the analysis, a link to their report in each), their
    matches with the result and a link to each recorded deal, and their rating match by
    match."""
    mine = [m for m in chosen.matches.values() if name in m.players]
    events = [e for e in chosen.events if name in entrants(chosen, e)]
    reports = {e.id: reports_of(chosen, e, analyse).get(name) for e in events}
    deals = {m.id: _recorded(chosen.state(store, m.id)) for m in mine}
    return page(
        lang,
        "publish/player.html.j2",
        "../",
        name=name,
        events=events,
        names={e.id: e.name for e in chosen.events},
        matches=sorted(mine, key=lambda m: m.id),
        deals=deals,
        history=history,
        published=chosen.matches,
        reports=reports,
        people=chosen.people,
    )


def _recorded(m: MatchView) -> list[tuple[int, int]]:
    """The recorded deals of a match that are over, as (number in the match, deal number)."""
    return [(d.number, d.id) for d in m.deals if d.kind == "recorded" and d.finished]


def match_page(store: Store, chosen: Selection, match: MatchView, lang: str) -> str:
    """A match: its deals in order with each deal's result and the running score, a link to
    each recorded deal; a deal entered as a result is shown as one."""
    event = next((e for e in chosen.events if e.id == match.event_id), None)
    return page(
        lang, "publish/match.html.j2", "../", match=match, event=event, people=chosen.people
    )


def deal_page(store: Store, chosen: Selection, deal_id: int, lang: str, analyse: bool) -> str:
    """A recorded deal: its tricks with the turn-up, the ruling with the rules quoted, and
    (``analyse``) the analysis with its marks and its value graph."""
    from tally.sheets.build import deal_ruling_sheet

    view = store.deals.view(deal_id)
    sheet = deal_ruling_sheet(store, deal_id)
    if analyse:
        found = analysed(store.deals.export(deal_id), deal_id, lang)
        sheet = dataclasses.replace(sheet, analysis=found)
    ruling = Markup(part(lang, "ruling.html.j2", sheet, chosen.people, "../"))
    match = chosen.matches[view.match_id]
    return page(
        lang,
        "publish/deal.html.j2",
        "../",
        deal=view,
        match=match,
        ruling=ruling,
        people=chosen.people,
    )


@functools.lru_cache(maxsize=4096)
def analysed(record: str, deal_id: int, lang: str) -> DealAnalysisPart:
    """The analysis of a deal's record (:func:`tally.sheets.build.analysis_part`), kept for
    the next publishing (``--watch``): it depends only on the record and the language."""
    from tally.engine.notation import read_deal
    from tally.i18n import use
    from tally.sheets.build import analysis_part

    with use(lang):
        return analysis_part(read_deal(record, source=str(deal_id)), samples=ANALYSIS_SAMPLES)


def series_page(store: Store, chosen: Selection, series_id: int, lang: str) -> str:
    """A series: its standings (the results that count and those dropped) and its events."""
    from tally.sheets.ratings import series_sheet

    sheet = series_sheet(store, series_id)
    s = next(s for s in chosen.series if s.id == series_id)
    standings = Markup(part(lang, "series.html.j2", sheet, chosen.people, "../"))
    published = {e.id for e in chosen.events}
    return page(
        lang,
        "publish/series.html.j2",
        "../",
        series=s,
        standings=standings,
        published=published,
        people=chosen.people,
    )


def season_page(chosen: Selection, year: int, lang: str) -> str:
    """A season: its standings (the sheet ``tally print standings --season`` prints) and the
    events it counts."""
    from tally.sheets.build import standings_sheet

    view = chosen.seasons[year]
    sheet = standings_sheet(view)
    standings = Markup(part(lang, "standings.html.j2", sheet, chosen.people, "../"))
    counted = [e for e in chosen.events if e.id in view.events]
    return page(
        lang,
        "publish/season.html.j2",
        "../",
        year=year,
        standings=standings,
        events=counted,
        people=chosen.people,
    )


def report_page(chosen: Selection, report: PlayerReport, lang: str) -> str:
    """A player's report in an event (:mod:`tally.sheets.report`): their matches, what their
    decisions lost, their closes and claims as the analysis judged them, their place and
    rating (``report_part.html.j2`` in the site's frame)."""
    event = next(e for e in chosen.events if e.id == report.event_id)
    return page(
        lang,
        "publish/report.html.j2",
        "../",
        report=report,
        event=event,
        player_id=chosen.people[report.player],
        people=chosen.people,
    )


def report_pages(store: Store, chosen: Selection, want: _Wanted, lang: str) -> dict[str, str]:
    """The report of each player the pages ``want``, in each event they want: all of an
    event's at once (each match analysed once), else each player's alone."""
    from tally.sheets.report import event_reports, player_report

    pages: dict[str, str] = {}
    for ev in chosen.events:
        names = [n for n in entrants(chosen, ev) if n in want.players]
        if ev.id not in want.events or not names:
            continue
        if len(names) == len(entrants(chosen, ev)):
            reports = event_reports(store, ev.id, samples=ANALYSIS_SAMPLES)
        else:
            reports = [player_report(store, ev.id, n, samples=ANALYSIS_SAMPLES) for n in names]
        for report in reports:
            path = report_path(ev.id, chosen.people[report.player])
            pages[path] = report_page(chosen, report, lang)
    return pages


@dataclass(frozen=True)
class Changed:
    """What changed since a publishing: events and matches (their pages, their players',
    their series' and their seasons' are made again)."""

    events: frozenset[int] = frozenset()
    matches: frozenset[int] = frozenset()


@dataclass
class _Wanted:
    events: set[int]
    matches: set[int]
    players: set[str]
    series: set[int]
    seasons: set[int]


def _wanted(chosen: Selection, only: Changed | None) -> _Wanted:
    """The pages to make: all of them, or those ``only`` changes (an event's change without
    a match, a round started, makes its matches' pages too)."""
    if only is None:
        return _Wanted(
            {e.id for e in chosen.events},
            set(chosen.matches),
            set(chosen.people),
            {s.id for s in chosen.series},
            set(chosen.seasons),
        )
    published = {e.id for e in chosen.events}
    matches = {m for m in only.matches if m in chosen.matches}
    events = (set(only.events) | {chosen.matches[m].event_id or 0 for m in matches}) & published
    players = {n for m in matches for n in chosen.matches[m].players}
    for m in chosen.matches.values():
        if m.event_id in only.events:
            matches.add(m.id)
            players.update(m.players)
    players |= {p.name for e in chosen.events if e.id in only.events for p in e.players}
    series = {s.id for s in chosen.series if any(e.id in events for e in s.events)}
    seasons = {y for y, v in chosen.seasons.items() if events & set(v.events)}
    return _Wanted(events, matches, players & set(chosen.people), series, seasons)


def site_pages(
    store: Store,
    refs: Sequence[str] = (),
    *,
    lang: str = "en",
    analyse: bool = False,
    only: Changed | None = None,
) -> dict[str, bytes]:
    """Every file of the site of ``refs`` (events and series, with their seasons; all when
    empty) in ``lang``, or (``only``) the index and the pages those changes touch (with the
    analysis, the reports of the changed matches' players): bytes by their path in the site, private
    players by their initials."""
    from tally.i18n import use
    from tally.sheets.render import templates_dir

    chosen = select(store, refs)
    want = _wanted(chosen, only)
    pages: dict[str, str] = {}
    with use(lang):
        pages["index.html"] = index_page(store, chosen, lang)
        for ev in chosen.events:
            if ev.id in want.events:
                pages[f"events/{ev.id}.html"] = event_page(store, chosen, ev, lang, analyse)
        people = {pid: n for n, pid in chosen.people.items() if n in want.players}
        for pid, history in store.ratings.histories(people).items():
            name = people[pid]
            pages[f"players/{pid}.html"] = player_page(store, chosen, name, lang, history, analyse)
        for mid in sorted(want.matches):
            pages.update(_match_pages(store, chosen, mid, lang, analyse))
        if analyse:
            pages.update(report_pages(store, chosen, want, lang))
        for s in chosen.series:
            if s.id in want.series:
                pages[f"series/{s.id}.html"] = series_page(store, chosen, s.id, lang)
        for year in sorted(want.seasons):
            pages[season_path(year)] = season_page(chosen, year, lang)
    hidden = Privacy(chosen.private)
    files = {path: hidden.hide(text).encode() for path, text in pages.items()}
    files[STYLESHEET] = (templates_dir() / "publish" / "publish.css").read_bytes()
    return files


def _match_pages(
    store: Store, chosen: Selection, mid: int, lang: str, analyse: bool
) -> dict[str, str]:
    """A match's page and the pages of its recorded deals that are over."""
    match = chosen.state(store, mid)
    pages = {f"matches/{mid}.html": match_page(store, chosen, match, lang)}
    for d in match.deals:
        if d.kind == "recorded" and d.finished:
            pages[f"deals/{d.id}.html"] = deal_page(store, chosen, d.id, lang, analyse)
    return pages
