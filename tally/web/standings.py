"""The live standings page for a projector or a TV, read-only, in English or German.

``/standings/EVENT?lang=de`` shows the standings and the current round's tables with their
running match scores. A few lines of JavaScript (``static/live.js``) ask
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

from typing import TYPE_CHECKING, Any

from tally.store.views import MatchSummary, PairingView, RoundView
from tally.web.app import blocking, guarded, int_param, render, site_of, translate, whole_number

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store import Store

LANGUAGES = ("en", "de")
#: how long a page of the wall stays up when the field needs more than one
PAGE_SECONDS = 10


def stage_words(lang: str) -> Any:
    """How far an event is (:attr:`~tally.store.views.StandingsView.stage`) in ``lang``.

    >>> stage_words("de")("round 2 of 5"), stage_words("de")("final")
    ('Runde 2 von 5', 'Endstand')
    """
    from tally.vocabulary import stage

    return lambda text: stage(text, lang)


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
    """GET /: the events, each with its standings page."""

    evs = await blocking(site_of(request).store.events.all)
    lang = _lang(request)
    return render(request, "home.html.j2", events=list(reversed(evs)), lang=lang, _=translate(lang))


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
        mine = [m for m in store.matches.all() if m.event_id == event_id]
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
    }


def _version(store: Store) -> int:
    """The newest audit entry's number: every change writes one."""
    log = store.audit.log(limit=1)
    return log[-1].id if log else 0


def _fragment(request: Request, event_id: int, lang: str) -> tuple[int, str]:
    site = site_of(request)
    version = _version(site.store)
    key = (event_id, lang, version)

    def rendered() -> str:
        from tally.i18n import use

        content = _content(site.store, event_id)
        with use(lang):  # (the amounts of money in the page's language)
            return site.pages.get_template("live.html.j2").render(
                _=translate(lang), stage=stage_words(lang), number=numbers(lang), **content
            )

    return version, site.live_cache.get(key, rendered)


def _every(request: Request) -> int:
    """How many seconds a page of the wall stays up: ``?every=N`` (2 to 120), else 10."""
    given = whole_number(request.query_params.get("every", ""), 3)
    return PAGE_SECONDS if given is None else min(max(given, 2), 120)


@guarded
async def page(request: Request) -> Response:
    """GET /standings/EVENT: the whole page."""

    event_id = int_param(request, "event")
    lang = _lang(request)
    ev = await blocking(site_of(request).store.events.get, event_id)
    version, html = await blocking(_fragment, request, event_id, lang)
    return render(
        request,
        "standings.html.j2",
        event=ev,
        lang=lang,
        _=translate(lang),
        version=version,
        live=html,
        every=_every(request),
    )


@guarded
async def live(request: Request) -> Response:
    """GET /standings/EVENT/live?v=N: ``{"version": N}`` when nothing changed since N,
    else the new version and the live part's HTML."""
    from starlette.responses import JSONResponse

    event_id = int_param(request, "event")
    lang = _lang(request)
    seen = request.query_params.get("v", "")
    site = site_of(request)
    version = await blocking(_version, site.store)
    if seen == str(version):
        return JSONResponse({"version": version}, headers={"Cache-Control": "no-store"})
    version, html = await blocking(_fragment, request, event_id, lang)
    return JSONResponse({"version": version, "html": html}, headers={"Cache-Control": "no-store"})
