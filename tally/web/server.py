"""The Starlette application of ``tally serve``: the page modules' routes and the static files
over one open store (:mod:`tally.web.app` holds what the pages share)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tally.web.access import server_keys
from tally.web.app import Site, page_environment, whole_number
from tally.web.limits import ASGIApp, BodyLimit, ClientBudget, RequestLimits, Scope

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from tally.store import Store

__all__ = ["create_app", "known_request"]


def known_request(site: Site, scope: Scope) -> bool:
    """True for a request of a table (a table's address with its right secret) or of the
    director (a session of the current generation, settled before the page ran): what the
    budget of anonymous requests gives back and the server keeps apart from anonymous
    connections (:mod:`tally.web.serving`)."""
    if scope.get("tally_director"):
        return True
    parts = str(scope.get("path", "")).split("/")
    if len(parts) < 4 or parts[1] != "t":
        return False
    match = whole_number(parts[2])
    return match is not None and site.keys.check_table(match, parts[3])


def create_app(
    store: Store,
    base: str | None = None,
    hosts: list[str] | None = None,
    budget: ClientBudget | None = None,
) -> Starlette:
    """The web application over an open store. ``base`` is the address phones reach it at
    (table links, QR codes); with ``hosts``, a request naming any other ``Host`` is refused
    (Starlette's ``TrustedHostMiddleware``). Outside everything, :class:`RequestLimits` with
    ``budget`` (requests per client address; :class:`ClientBudget`'s own by default)."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    from tally.web import (
        director,
        director_access,
        director_confirm,
        director_deals,
        director_events,
        director_money,
        director_players,
        director_prizes,
        results,
        standings,
        table,
    )

    site = Site(store, server_keys(store), page_environment(), base=base)
    desk = [
        *director_events.routes(),
        *director_confirm.routes(),
        *director_deals.routes(),
        *director_prizes.routes(),
        *director_money.routes(),
        *director_access.routes(),
        *director_players.routes(),
    ]
    routes = [
        *standings.routes(),
        *table.routes(),
        *director.routes(),
        *desk,
        *results.routes(),
        Mount("/static", StaticFiles(packages=[("tally.web", "static")]), name="static"),
    ]
    middleware = [Middleware(BodyLimit)]
    if hosts is not None:
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=hosts))

    class Limited(Starlette):
        """The app inside :class:`RequestLimits`, outside even Starlette's own answer to a
        page that failed (500), so that it carries the security headers too."""

        def build_middleware_stack(self) -> ASGIApp:
            inner: ASGIApp = super().build_middleware_stack()
            return RequestLimits(inner, lambda scope: known_request(site, scope), budget)

    app = Limited(routes=routes, middleware=middleware)
    app.state.site = site
    return app
