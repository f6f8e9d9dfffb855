"""The Starlette application of ``tally serve``: the page modules' routes and the static files
over one open store (:mod:`tally.web.app` holds what the pages share)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tally.web.access import server_keys
from tally.web.app import Site, page_environment
from tally.web.limits import RequestLimits

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from tally.store import Store

__all__ = ["create_app"]


def create_app(store: Store, base: str | None = None, hosts: list[str] | None = None) -> Starlette:
    """The web application over an open store. ``base`` is the address phones reach it at
    (table links, QR codes); with ``hosts``, a request naming any other ``Host`` is refused
    (Starlette's ``TrustedHostMiddleware``)."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    from tally.web import (
        director,
        director_confirm,
        director_deals,
        director_events,
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
    middleware = [Middleware(RequestLimits)]
    if hosts is not None:
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=hosts))
    app = Starlette(routes=routes, middleware=middleware)
    app.state.site = site
    return app
