"""What the pages of ``tally serve`` share: rendering, forms, CSRF, security headers, the
thread pool for store calls. The application itself is put together by
:func:`tally.web.server.create_app`, which imports the page modules (they import this one).

:func:`~tally.web.server.create_app` takes an open :class:`~tally.store.Store`; each request
that changes something works on a :class:`~tally.store.Store` of its own over the same
engine, named after who is acting (``web: table 3``, ``web: director``) so the audit log
says who did it. Store calls are blocking and run in the thread pool.

Pages are Jinja2 templates of ``templates/web`` with autoescaping on: a player named
``<script>`` or ``{{7*7}}`` is shown as exactly that text.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import jinja2

from tally.errors import AccessDenied, NotFound, TallyError
from tally.web.access import Keys, check_csrf, new_csrf

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from tally.store import Store

T = TypeVar("T")
CSRF_COOKIE = "tally_csrf"
#: the headers every page carries: no framing by another site, no sniffing, nothing fetched
#: from outside (the club's network may have no internet anyway)
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}


@dataclass
class Site:
    """What every request shares: the store, the signing keys, the page templates."""

    store: Store
    keys: Keys
    pages: jinja2.Environment
    #: rendered live fragments by (event, language, audit version): several screens poll
    live_cache: dict[tuple[int, str, int], str] = field(default_factory=dict)
    #: failed PIN attempts by client address: (count, first failure time)
    failures: dict[str, tuple[int, float]] = field(default_factory=dict)

    def acting(self, who: str) -> Store:
        """A store over the same engine whose audit entries name ``who``."""
        from tally.store import Store

        return Store(self.store.engine, scorer=who)


def page_environment() -> jinja2.Environment:
    """The Jinja2 environment of the web pages (``templates/web``), autoescaping always."""
    from tally.web.cards import Button

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tally.templates", "web"),
        autoescape=True, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True)
    env.globals["button"] = Button.of
    return env


def site_of(request: Request) -> Site:
    """The :class:`Site` of the application serving ``request``."""
    site: Site = request.app.state.site
    return site


def csrf_token(request: Request) -> str:
    """The browser's CSRF token (a new one when it has none; set by :func:`render`)."""
    token: str | None = request.cookies.get(CSRF_COOKIE) or request.scope.get("tally_csrf")
    if token is None:
        token = new_csrf()
        request.scope["tally_csrf"] = token
    return token


def render(request: Request, template: str, status: int = 200, **context: Any) -> Response:
    """A page from ``templates/web``, with the CSRF token its forms repeat."""
    from starlette.responses import HTMLResponse

    site = site_of(request)
    token = csrf_token(request)
    html = site.pages.get_template(template).render(csrf=token, request=request, **context)
    response = HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
    if request.cookies.get(CSRF_COOKIE) != token:
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict")
    return response


async def form_of(request: Request) -> dict[str, str]:
    """The fields of a posted form, refused without the browser's CSRF token."""
    form = await request.form()
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    check_csrf(request.cookies.get(CSRF_COOKIE), fields.get("csrf"))
    return fields


async def blocking(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a store call in the thread pool, so the server keeps answering meanwhile."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args, **kwargs)


Endpoint = Callable[["Request"], Awaitable["Response"]]


def guarded(fn: Endpoint) -> Endpoint:
    """A page whose refusals are shown as a page, never as a traceback: a missing match or
    a bad secret is 404, a refused form 403, any other refusal 400 with the store's reason."""

    @functools.wraps(fn)
    async def wrapper(request: Request) -> Response:
        path = request.url.path
        # back to the page the form was on (for a table: the table page)
        back = path if request.method == "GET" else path.rsplit("/", 1)[0] or "/"
        try:
            return await fn(request)
        except AccessDenied as exc:
            return render(request, "error.html.j2", 403, message=str(exc), back=back)
        except NotFound as exc:
            return render(request, "error.html.j2", 404, message=str(exc), back="/")
        except TallyError as exc:
            return render(request, "error.html.j2", 400, message=str(exc), back=back)

    return wrapper


def local_address() -> str:
    """This computer's address on the local network, as far as its name tells (phones reach
    the server there); 127.0.0.1 when it cannot be told."""
    import socket

    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"
    return address if not address.startswith("127.") else "127.0.0.1"


def public_base(request: Request) -> str:
    """The server's address as phones reach it, for table links and QR codes: the address
    the director's browser used, unless that is this computer's own loopback address."""
    url = request.base_url
    if url.hostname in ("127.0.0.1", "localhost", "::1"):
        port = f":{url.port}" if url.port else ""
        return f"{url.scheme}://{local_address()}{port}"
    return str(url).rstrip("/")


def int_param(request: Request, name: str) -> int:
    """A path parameter that must be a number (else: not found)."""
    text = str(request.path_params.get(name, ""))
    if not text.isdigit() or len(text) > 18:
        raise NotFound(f"there is no {name} {text[:20]!r}")
    return int(text)

