"""Each page of the published site, made from the store in a language
(:mod:`tally.publish.site` has what they share)."""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING

from markupsafe import Markup

from tally.publish.privacy import Privacy
from tally.publish.site import (
    ANALYSIS_SAMPLES,
    STYLESHEET,
    Selection,
    event_parts,
    leaders,
    matches_of,
    newest_change,
    page,
    part,
    select,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tally.sheets.data import DealAnalysisPart
    from tally.store.store import Store
    from tally.store.views import EventView, MatchView


def index_page(store: Store, chosen: Selection, lang: str) -> str:
    """The index: the events (newest first) with their dates, kinds and winners or leaders,
    and the series; when the results last changed."""
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
        updated=newest_change(store),
        people=chosen.people,
    )


def event_page(store: Store, chosen: Selection, ev: EventView, lang: str) -> str:
    """An event: its standings as the sheets rank them, its rounds (each pairing's results,
    byes and absences) or, for a club evening, its matches."""
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
        people=chosen.people,
    )


def player_page(store: Store, chosen: Selection, name: str, lang: str) -> str:
    """A player: their events, their matches with the result and a link to each recorded
    deal, and their rating match by match."""
    pid = chosen.people[name]
    mine = [m for m in chosen.matches.values() if name in m.players]
    events = [e for e in chosen.events if any(p.name == name for p in e.players)]
    deals = {m.id: _recorded(store, m.id) for m in mine}
    history = store.ratings.history(str(pid))
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
        people=chosen.people,
    )


def _recorded(store: Store, match_id: int) -> list[tuple[int, int]]:
    """The recorded deals of a match that are over, as (number in the match, deal number)."""
    m = store.matches.state(match_id)
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


def site_pages(
    store: Store, refs: Sequence[str] = (), *, lang: str = "en", analyse: bool = False
) -> dict[str, bytes]:
    """Every file of the site of ``refs`` (events and series; all when empty) in ``lang``:
    bytes by their path in the site, private players by their initials."""
    from tally.i18n import use
    from tally.sheets.render import templates_dir

    chosen = select(store, refs)
    hidden = Privacy(chosen.private)
    pages: dict[str, str] = {}
    with use(lang):
        pages["index.html"] = index_page(store, chosen, lang)
        for ev in chosen.events:
            pages[f"events/{ev.id}.html"] = event_page(store, chosen, ev, lang)
        for name, pid in chosen.people.items():
            pages[f"players/{pid}.html"] = player_page(store, chosen, name, lang)
        for mid in chosen.matches:
            match = store.matches.state(mid)
            pages[f"matches/{mid}.html"] = match_page(store, chosen, match, lang)
            for d in match.deals:
                if d.kind == "recorded" and d.finished:
                    pages[f"deals/{d.id}.html"] = deal_page(store, chosen, d.id, lang, analyse)
        for s in chosen.series:
            pages[f"series/{s.id}.html"] = series_page(store, chosen, s.id, lang)
    files = {path: hidden.hide(text).encode() for path, text in pages.items()}
    files[STYLESHEET] = (templates_dir() / "publish" / "publish.css").read_bytes()
    return files
