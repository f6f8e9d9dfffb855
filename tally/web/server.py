"""The Starlette application of ``tally serve``: the page modules' routes and the static files
over one open store (:mod:`tally.web.app` holds what the pages share)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tally.web.access import server_keys
from tally.web.app import Site, local_address, page_environment
from tally.web.limits import RequestLimits

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from tally.store import Store

__all__ = ["create_app", "local_address"]


def create_app(store: Store) -> Starlette:
    """The web application over an open store."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    from tally.web import (
        director,
        director_confirm,
        director_deals,
        director_events,
        results,
        standings,
        table,
    )

    site = Site(store, server_keys(store), page_environment())
    desk = [*director_events.routes(), *director_confirm.routes(), *director_deals.routes()]
    routes = [*standings.routes(), *table.routes(), *director.routes(), *desk, *results.routes(),
              Mount("/static", StaticFiles(packages=[("tally.web", "static")]), name="static")]
    app = Starlette(routes=routes, middleware=[Middleware(RequestLimits)])
    app.state.site = site
    return app
