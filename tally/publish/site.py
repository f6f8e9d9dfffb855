"""The pages of the published site, as bytes by their path in the site.

Paths are stable: ``index.html``, ``style.css``, ``events/N.html``, ``players/N.html``,
``matches/N.html``, ``deals/N.html``, ``series/N.html`` (N the number tally gives it),
``seasons/YYYY.html`` (a calendar year's season, as ``tally standings --season --from
YYYY-01-01 --to YYYY-12-31`` ranks it) and,
with the analysis, ``reports/E-P.html`` (player P's report in event E), so a page keeps its
address across publishings and the links between pages are relative.

Every figure comes from the builders of the printed sheets (standings with their
tiebreaks, the cross-table or the round-by-round table, the elimination table, the bracket,
the prizes, a deal's ruling with the rules quoted and its analysis, a series' standings, a
season's standings),
rendered by the sheets' own templates in the site's frame (``frame`` set to
``publish/part.html.j2``). Nothing of the director's is read: no table secret, PIN, login
link, audit entry (other than the time of the newest) or session.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from tally.errors import Message, NotFound, Refused, TallyError
from tally.i18n import N_
from tally.names import shown

if TYPE_CHECKING:
    import jinja2

    from tally.sheets.data import EliminationSheet, StandingsSheet
    from tally.store.series import SeriesView
    from tally.store.store import Store
    from tally.store.views import EventView, MatchSummary, MatchView, StandingsView

#: what ``tally publish`` says of a name that is no event's and no series'
NO_SUCH = N_("there is no event or series %(ref)s (see `tally event list` and `tally series list`)")
#: the site's stylesheet, written beside the index
STYLESHEET = "style.css"
#: the template of a sheet's part of a page (its title as a heading, no page frame)
PART = "publish/part.html.j2"
#: samples of unknown cards for a deal's analysis (``--analyse``), as the match page's
ANALYSIS_SAMPLES = 50


@dataclass
class Selection:
    """What a site holds: its events, series and seasons, and what they bring along (their
    players, matches and recorded deals), with the names of the private players."""

    events: list[EventView]
    series: list[SeriesView]
    #: the seasons (:func:`seasons`): their standings by year
    seasons: dict[int, StandingsView] = field(default_factory=dict)
    matches: dict[int, MatchSummary] = field(default_factory=dict)
    people: dict[str, int] = field(default_factory=dict)
    private: set[str] = field(default_factory=set)
    #: the published matches as they stand (their deals), each read once when asked for
    states: dict[int, MatchView] = field(default_factory=dict)

    def state(self, store: Store, match_id: int) -> MatchView:
        """Match ``match_id`` as it stands (read once)."""
        if match_id not in self.states:
            self.states[match_id] = store.matches.state(match_id)
        return self.states[match_id]


@functools.cache
def environment(lang: str) -> jinja2.Environment:
    """The sheets' environment in ``lang`` (:func:`tally.sheets.render.environment`), its
    ``person`` filter linking a player's name to their page."""
    import jinja2
    from markupsafe import Markup

    from tally.sheets.render import environment as sheets

    @jinja2.pass_context
    def person(ctx: Any, name: object) -> Any:
        pid = ctx.get("people", {}).get(name)
        if pid is None:
            return str(name)
        return Markup('<a href="{}players/{}.html">{}</a>').format(ctx["up"], pid, name)

    env = sheets(lang).overlay()
    env.filters = {**env.filters, "person": person}  # (an overlay shares its base's filters)
    return env


def _events(store: Store, refs: Sequence[str]) -> tuple[list[EventView], list[SeriesView]]:
    """The events and series named by ``refs`` (an event's or a series' number or name; a
    series brings its events); every one when ``refs`` is empty."""
    if not refs:
        return store.events.all(), store.series.all()
    events: dict[int, EventView] = {}
    series: dict[int, SeriesView] = {}
    for ref in refs:
        try:
            ev = store.events.get(ref)
        except TallyError:
            try:
                s = store.series.get(ref)
            except TallyError:
                raise NotFound(Message(NO_SUCH, ref=shown(ref))) from None
            series[s.id] = s
            for e in s.events:
                events.setdefault(e.id, store.events.get(e.id))
        else:
            events[ev.id] = ev
    return sorted(events.values(), key=lambda e: e.id), sorted(series.values(), key=lambda s: s.id)


def select(store: Store, refs: Sequence[str] = ()) -> Selection:
    """What the site of ``refs`` holds (:class:`Selection`)."""
    events, series = _events(store, refs)
    chosen = Selection(events, series, seasons(store, events))
    ids = {e.id for e in events}
    chosen.matches = {m.id: m for m in store.matches.all() if m.event_id in ids}
    playing = {p.name for e in events for p in e.players}
    playing |= {n for m in chosen.matches.values() for n in m.players}
    for p in store.players.all():
        if p.name in playing:
            chosen.people[p.name] = p.id
            if p.private:
                chosen.private.add(p.name)
    return chosen


def seasons(store: Store, events: Sequence[EventView]) -> dict[int, StandingsView]:
    """The season of each calendar year in which a published event counts in a season (a
    club evening): its standings as ``tally standings --season`` gives them for that year,
    by year; a season that counts an event not published has no page (its players would be
    on the site without their event)."""
    published = {e.id for e in events}
    years = sorted({e.date.year for e in events if e.format.counts_in_the_season})
    found = {}
    for year in years:
        view = store.events.season_standings(date_from=date(year, 1, 1), date_to=date(year, 12, 31))
        if set(view.events) <= published:
            found[year] = view
    return found


def season_path(year: int) -> str:
    """The path of a season's page in the site."""
    return f"seasons/{year}.html"


def part(lang: str, template: str, sheet: object, people: dict[str, int], up: str) -> str:
    """A sheet rendered as a part of a page (its own template in the site's frame)."""
    env = environment(lang)
    return env.get_template(template).render(
        sheet=sheet, page_size="", frame=PART, people=people, up=up
    )


def page(lang: str, template: str, up: str, **context: Any) -> str:
    """A page of the site: ``template`` filled with ``context``; ``up`` leads from the
    page's folder to the site's top (``""`` or ``"../"``)."""
    return environment(lang).get_template(template).render(up=up, css=up + STYLESHEET, **context)


def event_parts(store: Store, ev: EventView, lang: str, people: dict[str, int]) -> list[str]:
    """The sheets of an event's page: its standings (by elimination for a knockout, with the
    prizes), the bracket once seeded, with the cross-table or round-by-round table."""
    from tally.sheets.knockout import bracket_sheet, event_sheet

    sheet = event_sheet(store, ev.id)
    template = "standings.html.j2" if _is_table(sheet) else "elimination.html.j2"
    parts = [part(lang, template, sheet, people, "../")]
    if ev.format.ranks_by_elimination:
        try:
            parts.append(part(lang, "bracket.html.j2", bracket_sheet(store, ev.id), people, "../"))
        except Refused:
            pass  # (no bracket before it is seeded, none in a knockout with lives)
    return parts


def _is_table(sheet: StandingsSheet | EliminationSheet) -> bool:
    from tally.sheets.data import StandingsSheet

    return isinstance(sheet, StandingsSheet)


def leaders(store: Store, ev: EventView) -> tuple[tuple[str, ...], bool]:
    """The players first in an event and whether they won it (else they lead it)."""
    if ev.format.ranks_by_elimination:
        view = store.knockouts.view(ev)
        if view.champion:
            return (view.champion,), True
        return (), False
    standings = store.events.standings(ev.id)
    first = tuple(r.player for r in standings.rows if r.rank == 1 and r.played)
    return first, str(standings.stage) == "final" and not standings.provisional


def newest_change(store: Store) -> datetime | None:
    """When the store last changed (its newest audit entry), in this computer's time zone
    (the club's), None when it never did."""
    log = store.audit.log(limit=1)
    return datetime.fromisoformat(log[-1].at).astimezone() if log else None


def version(store: Store) -> int:
    """The store's change number: its newest audit entry's (every change writes one)."""
    log = store.audit.log(limit=1)
    return log[-1].id if log else 0


def entrants(chosen: Selection, ev: EventView) -> list[str]:
    """The players of an event: those entered, in order, then any other playing a match of it
    (the players a report is written for, :func:`tally.sheets.report.event_reports`)."""
    names = [p.name for p in ev.players]
    for m in sorted(chosen.matches.values(), key=lambda m: m.id):
        if m.event_id == ev.id:
            names += [n for n in m.players if n not in names]
    return names


def report_path(event_id: int, player_id: int) -> str:
    """The path of a player's report in an event, in the site."""
    return f"reports/{event_id}-{player_id}.html"


def matches_of(chosen: Selection, ids: Iterable[int]) -> list[MatchSummary]:
    """The published matches of ``ids``, oldest first."""
    return [chosen.matches[i] for i in sorted(ids) if i in chosen.matches]
