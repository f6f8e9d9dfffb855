"""The live standings page for a projector or a TV, read-only, in English or German.

``/standings/EVENT`` shows the standings and the current round's tables with their running
match scores, in the event's language (``?lang=de`` or ``en`` chooses another; an event
"as the reader's" is English unless told). A few lines of JavaScript (``static/live.js``) ask
``/standings/EVENT/live`` every second for the audit log's newest entry number and, when it
changed, the new content: any change anywhere shows within two seconds, from this server
process or another one on the same database. Without JavaScript the page reloads itself
every 30 seconds.

The server sends every row; the same script fits them to the screen (a projector's 1280x720
or 1920x1080): each column's rows that do not fit are split into pages, measured as the
browser lays them out, and turned every ``?every=N`` seconds (:data:`PAGE_SECONDS`), with
"page 2 of 3" beside the column's heading (docs/serve.md, "The wall").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tally.store.views import EventView, MatchSummary, PairingView, RoundView
from tally.web.app import (
    Site,
    blocking,
    event_language,
    guarded,
    html_of,
    int_param,
    page_language,
    site_of,
    translate,
    whole_number,
)
from tally.web.shared import REVALIDATE, tag_of, unchanged

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store import Store

LANGUAGES = ("en", "de")
#: how long a page of the wall stays up when the field needs more than one
PAGE_SECONDS = 10


def stage_words(lang: str) -> Any:
    """How far the event of a :class:`~tally.store.views.StandingsView` is, in ``lang``
    (:func:`tally.vocabulary.stage_words`)."""
    from tally.vocabulary import stage_words as said

    return lambda view: said(view, lang)


def numbers(lang: str) -> Any:
    """A number already written with a decimal point, in ``lang``'s way.

    >>> numbers("de")("62.5"), numbers("en")("62.5")
    ('62,5', '62.5')
    """
    from tally.i18n import decimal_comma

    return lambda text: decimal_comma(text, lang)


def routes() -> list[Route]:
    """The routes of the read-only pages."""
    from starlette.routing import Route

    return [
        Route("/", home),
        Route("/standings/{event}", page),
        Route("/standings/{event}/live", live),
    ]


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


@guarded
async def home(request: Request) -> Response:
    """GET /: the events, each with its standings page (made once per change)."""
    site = site_of(request)
    lang = _lang(request)

    def made(_: int) -> str:
        evs = site.store.events.all()
        events = list(reversed(evs))
        return html_of(site, "home.html.j2", events=events, lang=lang, _=translate(lang))

    return await _public(request, ("home", lang), made, lang=lang)


def _current_round(rounds: list[RoundView]) -> RoundView | None:
    started = [r for r in rounds if r.started]
    return started[-1] if started else None


def _content(store: Store, event_id: int) -> dict[str, Any]:
    """What the live part shows: standings (with each player's lives left in a knockout, their
    group in groups then knockout, their prize when the event has a prize table, and the
    prize table), and the tables now playing with their scores."""

    view = store.events.standings(event_id)
    assert view.event is not None
    staged = store.knockouts.view(view.event) if view.event.format.ranks_by_elimination else None
    lines = {} if staged is None else {line.player: line for line in staged.lines}
    current: RoundView | None = None
    tables: list[PairingView] = []
    club: list[MatchSummary] = []
    if view.event.format.has_rounds:
        current = _current_round(store.events.rounds(event_id))
        tables = list(current.pairings) if current is not None else []
    else:
        mine = store.matches.all(event_id)
        club = [m for m in mine if not m.over] + [m for m in mine if m.over][-6:]
    from tally.names import short_names

    names = [r.player for r in view.rows]
    names += [n for p in tables for n in (p.first, p.second) if n]
    names += [n for m in club for n in m.players]
    return {
        "short": short_names(names),
        "standings": view,
        "lines": lines,
        "round": current,
        "tables": tables,
        "club": club,
        "prizes": None if staged is None else staged.prizes,
        # (a column of buy-backs once someone bought back)
        "buy_backs": staged is not None and any(line.bought for line in staged.lines),
        "champion": None if staged is None else staged.champion,
        **_teams(store, view.event),
    }


def _teams(store: Store, event: EventView) -> dict[str, Any]:
    """A team event's team standings and each player's team (the tables' team matches)."""
    if not event.format.plays_in_teams:
        return {"teams": None, "team_of": {}, "boards": 0}
    return {
        "teams": store.teams.standings(event.id),
        "team_of": {p: name for name, players in event.teams for p in players},
        "boards": event.boards or 1,
    }


def _version(store: Store) -> int:
    """The newest audit entry's number: every change writes one."""
    log = store.audit.log(limit=1)
    return log[-1].id if log else 0


async def _public(
    request: Request,
    key: tuple[Any, ...],
    made: Callable[[int], str],
    version: int | None = None,
    *,
    lang: str,
) -> Response:
    """A public page of ``key`` in ``lang``: 304 for a browser that has it (``ETag``), else
    the page made once for every viewer (``made(version)``,
    :class:`~tally.web.shared.SharedRenders`) at the audit version (read here unless
    given)."""
    from starlette.responses import HTMLResponse, Response

    site = site_of(request)
    if version is None:
        version = await blocking(_version, site.store)
    if unchanged(request, version, lang):
        return Response(status_code=304, headers=_headers(version, lang))
    shown, html = await site.shared.get(key, version, lambda: blocking(made, version))
    if unchanged(request, shown, lang):
        return Response(status_code=304, headers=_headers(shown, lang))
    return HTMLResponse(html, headers=_headers(shown, lang))


def _headers(version: int, lang: str) -> dict[str, str]:
    """What a public page at ``version`` in ``lang`` tells the browser of keeping it (the
    language may come from the browser's settings or its cookie: ``Vary``)."""
    return {
        "ETag": tag_of(version, lang),
        "Cache-Control": REVALIDATE,
        "Vary": "Accept-Language, Cookie",
    }


async def _live(request: Request, event_id: int, lang: str, version: int) -> tuple[int, str]:
    """The live part of the wall, as made for every viewer, and the version it shows."""
    site = site_of(request)
    return await site.shared.get(
        ("live", event_id, lang), version, lambda: blocking(_fragment, site, event_id, lang)
    )


def _fragment(site: Site, event_id: int, lang: str) -> str:
    """The live part of the wall: the standings and the round's tables."""
    from tally.i18n import use

    content = _content(site.store, event_id)
    with use(lang):  # (the amounts of money in the page's language)
        return site.pages.get_template("live.html.j2").render(
            _=translate(lang), stage=stage_words(lang), number=numbers(lang), **content
        )


def _every(request: Request) -> int:
    """How many seconds a page of the wall stays up: ``?every=N`` (2 to 120), else 10."""
    given = whole_number(request.query_params.get("every", ""), 3)
    return PAGE_SECONDS if given is None else min(max(given, 2), 120)


@guarded
async def page(request: Request) -> Response:
    """GET /standings/EVENT: the whole page (made once per change)."""
    site = site_of(request)
    event_id = int_param(request, "event")
    # the event's own language (what it shows to the room), unless the address says ?lang=;
    # an event "as the reader's": the reader's choice (cookie), their browser's, English
    lang = await event_language(request, event=event_id) or page_language(request)
    every = _every(request)
    ev = await blocking(site.store.events.get, event_id)
    version, live = await _live(request, event_id, lang, await blocking(_version, site.store))

    def made(_: int) -> str:
        context = {"event": ev, "lang": lang, "version": version, "live": live, "every": every}
        return html_of(site, "standings.html.j2", _=translate(lang), **context)

    return await _public(request, ("wall", event_id, lang, every), made, version, lang=lang)


@guarded
async def live(request: Request) -> Response:
    """GET /standings/EVENT/live?v=N: ``{"version": N}`` when nothing changed since N,
    else the new version and the live part's HTML (made once per change); 304 for a browser
    that has the answer (``ETag``)."""
    from starlette.responses import JSONResponse, Response

    site = site_of(request)
    event_id = int_param(request, "event")
    lang = _lang(request)  # (the page asks in its own language: ?lang=)
    seen = request.query_params.get("v", "")
    version = await blocking(_version, site.store)
    if unchanged(request, version, lang):
        return Response(status_code=304, headers=_headers(version, lang))
    if seen == str(version):
        return JSONResponse({"version": version}, headers=_headers(version, lang))
    version, html = await _live(request, event_id, lang, version)
    if seen == str(version):  # (the change is not made into the page yet: next second)
        return JSONResponse({"version": version}, headers=_headers(version, lang))
    return JSONResponse({"version": version, "html": html}, headers=_headers(version, lang))
