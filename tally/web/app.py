"""What the pages of ``tally serve`` share: rendering, forms, CSRF, the
thread pool for store calls. The application itself is put together by
:func:`tally.web.server.create_app`, which imports the page modules (they import this one).

:func:`~tally.web.server.create_app` takes an open :class:`~tally.store.Store`; each request
that changes something works on a :class:`~tally.store.Store` of its own over the same
engine, named after who is acting (``web: table 3``, ``web: director``) so the audit log
says who did it. Store calls are blocking and run in the thread pool.

Pages are Jinja2 templates of ``templates/web`` with autoescaping on: a player named
``<script>`` or ``{{7*7}}`` is shown as exactly that text.

The table's and the director's pages speak English or German (:func:`language`): the
reader's choice (``?lang=de|en``, the EN/DE switch; remembered in the ``tally_lang`` cookie,
so the forms, redirects and links that follow keep it without carrying it), else the event's
language (the event the page is about, or the event a table's match counts for), else the
browser's ``Accept-Language``, else English. A page is rendered in it (:func:`render`: the
templates' ``_()`` and ``ngettext()`` read :mod:`tally.i18n`'s current language); a refusal
is worded in it as the command line words one (:func:`refusal`).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final, TypeVar

import jinja2

from tally.errors import AccessDenied, Message, NotFound, TallyError, Withdrawn
from tally.events.prizes import money
from tally.i18n import DEFAULT, LANGUAGES, N_, accepted, current, normalize, translations
from tally.names import read_number
from tally.web.access import Keys, Settled, new_nonce, settle
from tally.web.shared import SharedRenders

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from tally.store import Store
    from tally.store.transactions import TableWriter

T = TypeVar("T")
CSRF_COOKIE = "tally_csrf"
#: a notice after a change, shown once by the page the change leads to, then forgotten (never
#: carried in the address, where a reload would repeat it and a link could forge it)
NOTICE_COOKIE = "tally_notice"
#: a refused form of a plain browser, carried to the page it is shown on (:func:`refill_at`)
REFILL_COOKIE = "tally_refill"
#: the director's session cookie (:func:`tally.web.access.start_session`)
SESSION_COOKIE = "tally_director"
#: the language the reader chose with the EN/DE switch (``?lang=``), for the pages that follow
LANG_COOKIE = "tally_lang"
#: how long a browser remembers that choice: a year of club evenings
LANG_SECONDS = 365 * 24 * 3600
#: where a request keeps the language :func:`language` resolved for its page
_LANG = "tally_lang"
#: where a request keeps the stored language of its address's match, read as it settled
_MATCH_LANGUAGE = "tally_match_language"


#: who the web's changes are by, as the audit log keeps them (in English, as its JSON) and as
#: the Changes page words them (:func:`who`)
BY_DIRECTOR: Final = N_("web: director")
BY_TABLE: Final = N_("web: table of match %(match)s")


def by_table(match_id: int) -> str:
    """Who a table's phone's changes are by: ``web: table of match 3``."""
    return BY_TABLE % {"match": match_id}


def who(scorer: str, match_id: int | None, lang: str) -> str:
    """An audit entry's scorer in ``lang``: one of the web's own (the one the web would make
    for the entry's match, not read back from the text), else the name as stored.

    >>> who("web: table of match 3", 3, "de"), who("Anna", 3, "de")
    ('Web: Tisch von Bummerl 3', 'Anna')
    """
    from tally.i18n import worded

    if scorer == BY_DIRECTOR:
        return worded(Message(BY_DIRECTOR), lang)
    if match_id is not None and scorer == by_table(match_id):
        return worded(Message(BY_TABLE, match=match_id), lang)
    return scorer


@dataclass
class Site:
    """What every request shares: the store, the signing keys, the page templates."""

    store: Store
    keys: Keys
    pages: jinja2.Environment
    #: the public pages by what they show and the audit version, each made once however
    #: many screens ask (:mod:`tally.web.shared`)
    shared: SharedRenders[tuple[Any, ...], str] = field(default_factory=lambda: SharedRenders(128))
    #: the server's address as phones reach it (``tally serve``'s ``--url`` or the address it
    #: found); None: the request's own (a test, an embedding)
    base: str | None = None
    #: at most one PIN hash at a time in this process: a flood of guesses waits its turn
    #: instead of taking every core from the tables (made on the event loop when first used)
    pin_turn: Any = None

    def acting(self, who: str, table: TableWriter | None = None) -> Store:
        """A store over the same engine whose audit entries name ``who``; with ``table``,
        the store a table's phone writes through (only into its match, while it is open)."""
        from tally.store import Store

        return Store(self.store.engine, scorer=who, table=table)


def _new_view() -> str:
    """A new id for a form as a page shows it (``seen``: :meth:`tally.store.views.Tap.of_form`)."""
    import secrets

    return secrets.token_hex(8)


@functools.cache
def page_environment() -> jinja2.Environment:
    """The Jinja2 environment of the web pages (``templates/web``), autoescaping always: one
    for the process, so that every application in it (a server, the tests' many) compiles a
    template once and keeps it (nothing in it belongs to one application or one request:
    the language is the request's, :func:`html_of`)."""
    from tally.events.formats import format_of
    from tally.i18n import format_date, gettext, ngettext, worded
    from tally.vocabulary import message_words, spoken
    from tally.web.cards import Button, with_symbols

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tally.templates", "web"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    # the words of the language :func:`render` makes current (new-style: values escaped)
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["button"] = Button.of
    env.globals["new_view"] = _new_view
    env.globals["money"] = money
    env.filters["word"] = spoken
    # words made where the fact is known (a ruling's explanation, a violation's message)
    env.filters["explain"] = lambda words: with_symbols(message_words(words, spoken=True))
    env.filters["day"] = format_date
    env.filters["num"] = _number
    # a store's :class:`~tally.errors.Message` (a warning) in the page's language
    env.filters["worded"] = worded
    # what a template shows of an event follows its format (``(kind | event_format).has_lives``)
    env.filters["event_format"] = format_of
    return env


def compile_pages() -> None:
    """Compile every page template now, not at the first tap that shows it (about 0.3 s of
    processor time that the first phones of an evening would otherwise wait for)."""
    env = page_environment()
    for name in env.list_templates(filter_func=lambda name: name.endswith(".j2")):
        env.get_template(name)


def _number(value: float) -> str:
    """A figure as the sheets print it, in the language of the page (``2.5``, ``2,5``)."""
    from tally.sheets.render import format_number

    return format_number(value, current())


def site_of(request: Request) -> Site:
    """The :class:`Site` of the application serving ``request``."""
    site: Site = request.app.state.site
    return site


def csrf_token(request: Request) -> str:
    """The CSRF token of this browser's forms: its nonce (a new one when it has none; set by
    :func:`render`) signed with the server's key, bound to its director's session."""
    nonce: str | None = request.cookies.get(CSRF_COOKIE) or request.scope.get("tally_csrf")
    if nonce is None:
        nonce = new_nonce()
        request.scope["tally_csrf"] = nonce
    return site_of(request).keys.csrf(nonce, request.cookies.get(SESSION_COOKIE))


def is_director(request: Request) -> bool:
    """True when the request carries a director's session in force (settled by
    :func:`guarded` before the page runs)."""
    return bool(request.scope.get("tally_director"))


def secure(request: Request) -> bool:
    """True when the browser reached the server over https (directly, or through a proxy
    ``--forwarded-allow-ips`` trusts): cookies are then sent over https only."""
    return request.url.scheme == "https"


async def _settle(request: Request) -> None:
    """Read what a page needs before it runs (one read): the tables' key generation for
    every table secret made or checked, the director's session the cookie carries, if it is
    one in force, and, for an address that names a match, the stored language of its event
    (what :func:`language` asks, unless the reader chose one)."""
    site = site_of(request)
    named = whole_number(str(request.path_params.get("match", "")))
    mid = named if chosen_language(request) is None else None
    found: Settled = await blocking(
        settle, site.store, request.cookies.get(SESSION_COOKIE), match=mid
    )
    if found.tables != site.keys.tables:
        site.keys = replace(site.keys, tables=found.tables)
    request.scope["tally_director"] = found.session is not None
    request.scope["tally_session"] = found.session
    if mid is not None and found.language is not None:
        request.scope[_MATCH_LANGUAGE] = (mid, found.language)


def session_of(request: Request) -> int | None:
    """The number of the director's session this request carries (None: none), settled by
    :func:`guarded` before the page runs."""
    found = request.scope.get("tally_session")
    return found if isinstance(found, int) else None


def translate(lang: str) -> Callable[[str], str]:
    """The ``_`` of a page in ``lang``: the catalogue's words (:mod:`tally.i18n`), English
    where it has none.

    >>> translate("de")("Standings"), translate("en")("Standings")
    ('Tabelle', 'Standings')
    """
    return translations(lang).gettext


def chosen_language(request: Request) -> str | None:
    """The language the reader chose: ``?lang=de|en`` on this request, else the one the
    EN/DE switch left in the ``tally_lang`` cookie (``None``: no choice)."""
    for value in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
        if value in LANGUAGES:
            return value
    return None


def page_language(request: Request) -> str:
    """The language of this request's page: the one :func:`language` resolved, else (a page
    about no event, or a refusal before it was resolved) the reader's choice, the browser's
    ``Accept-Language``, English."""
    resolved: str | None = request.scope.get(_LANG)
    return (
        resolved
        or chosen_language(request)
        or accepted(request.headers.get("accept-language", ""))
        or DEFAULT
    )


async def language(request: Request, *, event: int | None = None, match: int | None = None) -> str:
    """The language of a table's page or the director's, first that applies: the reader's
    choice (:func:`chosen_language`), the stored language of ``event`` or of the event
    ``match`` counts for (one query, asked only when the reader chose none: a phone's page;
    the director's pages name no event, so they follow the director's choice and never switch
    with an event's language), the browser's ``Accept-Language`` (its first preference tally
    has: ``de-AT`` is German), English. Kept for the rest of the request: :func:`render`
    renders the page in it and remembers a ``?lang=`` choice in the cookie."""
    if _LANG in request.scope:
        return str(request.scope[_LANG])
    lang = chosen_language(request)
    if lang is None and (event is not None or match is not None):
        settled = request.scope.get(_MATCH_LANGUAGE)
        if event is None and settled is not None and settled[0] == match:
            stored = settled[1]  # read with the request's settling (:func:`_settle`)
        else:
            store = site_of(request).store
            stored = await blocking(store.events.language_of, event=event, match=match)
        lang = normalize(stored)
    lang = lang or page_language(request)
    request.scope[_LANG] = lang
    return lang


async def event_language(
    request: Request, *, event: int | None = None, match: int | None = None
) -> str | None:
    """The language of what an event shows to the room and on paper (its wall, its sheets):
    ``?lang=`` on this address, else the stored language of ``event`` or of the event
    ``match`` counts for; None when neither says one (the event is "as the reader's")."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    if event is None and match is None:
        return None
    stored = await blocking(site_of(request).store.events.language_of, event=event, match=match)
    return normalize(stored) if stored else None


def refusal(exc: Exception, lang: str) -> str:
    """A refusal in ``lang``, as the command line words one: an error's template and values
    from the catalogue (:func:`tally.i18n.worded`: the engine's message and the store's words
    around it, this app's own words marked with ``N_`` where they are raised); anything else
    (an exception that is not tally's) stays as it is, whole. Advice for the command line (a
    command to type, an option) is said in the pages' own words, where the refusal made it
    (:func:`tally.errors.on_pages`)."""
    from tally.errors import TallyError, on_pages
    from tally.i18n import worded

    if not isinstance(exc, TallyError):
        return str(exc)
    return worded(on_pages(exc.wording), lang)


def html_of(site: Site, template: str, **context: Any) -> str:
    """The text of a page from ``templates/web`` in the language ``context["lang"]``."""
    from tally.i18n import use

    with use(context["lang"]):
        return site.pages.get_template(template).render(**context)


def render(request: Request, template: str, status: int = 200, **context: Any) -> Response:
    """A page from ``templates/web`` in its language (``lang`` in ``context``, else
    :func:`page_language`), with the CSRF token its forms repeat. A language the reader
    chose with ``?lang=`` on a table's or the director's page (:func:`language`) is kept in
    a cookie for the pages that follow."""
    from starlette.responses import HTMLResponse

    site = site_of(request)
    token = csrf_token(request)
    context.setdefault("lang", page_language(request))
    html = html_of(site, template, csrf=token, request=request, **context)
    response = HTMLResponse(html, status_code=status)  # (headers: tally.web.limits)
    nonce = token.rsplit(".", 1)[0]
    if request.cookies.get(CSRF_COOKIE) != nonce:
        response.set_cookie(
            CSRF_COOKIE, nonce, httponly=True, samesite="strict", secure=secure(request)
        )
    if request.scope.get("tally_notice_taken"):
        response.delete_cookie(NOTICE_COOKIE, httponly=True, samesite="strict")
    if request.scope.get("tally_refill_taken"):
        response.delete_cookie(REFILL_COOKIE, httponly=True, samesite="strict")
    chosen = request.query_params.get("lang")
    remember = _LANG in request.scope and chosen in LANGUAGES
    if remember and request.cookies.get(LANG_COOKIE) != chosen:
        response.set_cookie(
            LANG_COOKIE, str(chosen), max_age=LANG_SECONDS, httponly=True, samesite="lax"
        )
    return response


async def form_of(request: Request) -> dict[str, str]:
    """The fields of a posted form, refused without the browser's CSRF token."""
    form = await request.form()
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    site_of(request).keys.check_csrf(
        request.cookies.get(CSRF_COOKIE), request.cookies.get(SESSION_COOKIE), fields.get("csrf")
    )
    return fields


async def blocking(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a store call in the thread pool, so the server keeps answering meanwhile."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args, **kwargs)


Endpoint = Callable[["Request"], Awaitable["Response"]]


def guarded(fn: Endpoint) -> Endpoint:
    """A page whose refusals are shown as a page, never as a traceback: a missing match or
    a bad secret is 404, an address withdrawn or replaced 410, a refused form 403, any other
    refusal 400 with the store's reason."""

    @functools.wraps(fn)
    async def wrapper(request: Request) -> Response:
        path = request.url.path
        # back to the page the form was on (for a table: the table page)
        back = path if request.method == "GET" else path.rsplit("/", 1)[0] or "/"
        back = came_from(request, back if len(back) <= 200 else "/")
        try:
            await _settle(request)
            return await fn(request)
        except TallyError as exc:
            status = (
                403
                if isinstance(exc, AccessDenied)
                else 410
                if isinstance(exc, Withdrawn)
                else 404
                if isinstance(exc, NotFound)
                else 400
            )
            return render(
                request,
                "error.html.j2",
                status,
                back="/" if status in (404, 410) else back,
                gone=status == 410,
                message=brief(refusal(exc, page_language(request))),
            )

    return wrapper


@dataclass(frozen=True)
class Refill:
    """A refused form as it comes back to be corrected: the fields as they were typed, the
    field at fault (None: the form as a whole) and the refusal in the page's words. The
    templates mark the field (``aria-invalid``, the message beside it: the macros
    ``invalid`` and ``fault``)."""

    values: dict[str, str]
    field: str | None = None
    message: str | None = None
    #: the form refused, on a page of several (its id; None: the page's one form)
    form: str | None = None

    def get(self, name: str, default: str = "") -> str:
        """The value typed into ``name``."""
        return self.values.get(name, default)

    def typed(self, form: str, name: str) -> str:
        """The value typed into ``name`` of the form ``form`` ("" for another form)."""
        return self.values.get(name, "") if form == self.form else ""

    def at(self, form: str | None, name: str) -> bool:
        """Whether ``name`` of the form ``form`` is the field at fault."""
        return form == self.form and name == self.field

    def marks(self, name: str, form: str | None = None) -> Any:
        """The attributes that mark ``name`` (of ``form``) as the field at fault, the
        refusal beside it named as its description; nothing for another field.

        >>> str(Refill({}, "date", "no").marks("date"))
        ' aria-invalid="true" aria-describedby="date-error"'
        """
        from markupsafe import Markup

        if not self.at(form, name):
            return Markup("")
        return Markup(' aria-invalid="true" aria-describedby="{}-error"').format(name)


#: the most players one form's list takes (the choices of a list are numbered up to it)
MAX_ENTRIES = 200
#: the most of any other field a form shows again (an event's name has at most 100
#: characters, a list of all ten tiebreaks 129)
FIELD_MOST = 200


def kept(fields: dict[str, str]) -> dict[str, str]:
    """What a form shows again of the fields posted: each as typed, cut to what such a
    field can hold (a name, a number; the players' list a line per player), so a refusal
    never echoes a 60,000-character input."""
    from tally.store.columns import NAME_LENGTH

    out = {}
    for key, value in fields.items():
        if key == "players":
            lines = value.splitlines()[:MAX_ENTRIES]
            out[key] = "\n".join(line[: NAME_LENGTH + 1] for line in lines)
        else:
            out[key] = value[:FIELD_MOST]
    return out


class Fields:
    """A posted form's fields, and the one being read: a refusal while a field is read (or
    the store checks it) names that field when the form comes back (:meth:`refill`).

    >>> form = Fields({"name": "Ana"})
    >>> with form.at("name"):
    ...     pass
    >>> form.refill(ValueError("no"), "en").field
    'name'
    """

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values
        self.field: str | None = None

    def at(self, name: str | None) -> Fields:
        """Read ``name`` now (``with form.at("name"): ...``): a refusal from here on is its."""
        self.field = name
        return self

    def __enter__(self) -> Fields:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    @contextmanager
    def about(self, *names: str) -> Iterator[None]:
        """Make a change of the choices ``names`` (``with form.about("a", "b"): ...``): a
        refusal is at the field whose choice is a value of its message (the later of two
        chosen alike; a number only as the value of that name: ``round=3``), else, naming
        none or two, at the form as a whole. The message's values are read, never its text.

        >>> from tally.errors import Message, Refused
        >>> form = Fields({"a": "Anna", "b": "Bert", "round": "3"})
        >>> try:
        ...     with form.about("a", "b", "round"):
        ...         raise Refused(Message("%(player)s sits out round %(round)s of %(name)s",
        ...                               player="Bert", round=2, name="Anna's Cup"))
        ... except Refused:
        ...     form.field
        'b'
        """
        self.field = None
        try:
            yield
        except Exception as exc:
            wording = getattr(exc, "wording", None)
            values = list(_values(wording)) if isinstance(wording, Message) else []
            named = {}
            for name in names:
                value = self.values.get(name, "").strip()
                if value and (
                    (name, value) in values
                    if value.isdigit()
                    else any(said == value for _, said in values)
                ):
                    named[value] = name
            self.field = next(iter(named.values())) if len(named) == 1 else None
            raise

    def refill(self, exc: Exception, lang: str) -> Refill:
        """The form as typed, with the refusal ``exc`` worded in ``lang`` at the field that
        was being read."""
        return Refill(kept(self.values), self.field, brief(refusal(exc, lang)))


def _values(words: Message) -> Iterator[tuple[str, str]]:
    """The values of ``words`` and of the messages among them, each with its name (a list's
    items by the list's), as text: what a refusal names, read from its parameters."""
    for name, value in words.params.items():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Message):
                yield from _values(item)
            else:
                yield name, str(item)


def came_from(request: Request, fallback: str) -> str:
    """The page a refused form or question was reached from (the browser's ``Referer``,
    when it is a page of this site other than the refused one), else ``fallback``: where a
    refusal's "Back" leads. Only a short path of this host is echoed back."""
    from urllib.parse import urlsplit

    ref = urlsplit(request.headers.get("referer", "")[:300])
    if (
        ref.netloc != request.url.netloc
        or not ref.path.startswith("/")
        or ref.path == request.url.path
    ):
        return fallback
    path = ref.path + ("?" + ref.query if ref.query else "")
    return path if len(path) <= 200 and "//" not in path else fallback


def public_base(request: Request) -> str:
    """The server's address as phones reach it, for table links and QR codes: the one
    ``tally serve`` found or was given (``--url``), never the ``Host`` a request names; only
    an app made without one (a test, an embedding) falls back to the request's own base."""
    base = site_of(request).base
    return base if base is not None else str(request.base_url).rstrip("/")


#: how a notice cookie marks a refusal (:func:`redirect_with_notice` with ``refused``)
_REFUSED = "refused:"


def redirect_with_notice(path: str, notice: str = "", *, refused: bool = False) -> Response:
    """Back to ``path`` (303: a reload does not post again), the page there to say
    ``notice`` once (:func:`take_notice`; a refusal: :func:`take_refusal`)."""
    from urllib.parse import quote

    from starlette.responses import RedirectResponse

    response = RedirectResponse(path, 303)
    if notice:
        said = (_REFUSED if refused else "") + brief(notice)
        response.set_cookie(
            NOTICE_COOKIE, quote(said), max_age=60, httponly=True, samesite="strict"
        )
    return response


def _taken(request: Request, refused: bool) -> str | None:
    from urllib.parse import unquote

    text = unquote(request.cookies.get(NOTICE_COOKIE, ""))
    if not text or text.startswith(_REFUSED) != refused:
        return None
    request.scope["tally_notice_taken"] = True
    return brief(text.removeprefix(_REFUSED)) or None


def take_notice(request: Request) -> str | None:
    """The notice a change left for this page, if any; the page's response forgets it."""
    return _taken(request, refused=False)


def take_refusal(request: Request) -> str | None:
    """Why a change sent from this page by a plain form was refused (it came back here, so
    the address is the page's, not the form's), if it was; the page's response forgets it."""
    return _taken(request, refused=True)


#: the most a refused form's cookie may hold (a browser keeps 4 KiB a cookie); a larger one
#: is shown in place, at the form's address
REFILL_MOST = 3000


def refill_at(path: str, refill: Refill) -> Response | None:
    """Back to the page ``path`` (303) with a refused form ``refill`` in a short-lived cookie,
    for that page to show once (:func:`take_refill`): a plain browser's address is then the
    page's, not the form's, and a reload posts nothing. None when the form is too large for a
    cookie (shown in place)."""
    import json
    from urllib.parse import quote

    from starlette.responses import RedirectResponse

    page = path.split("#", 1)[0]
    data = {"p": page, "v": refill.values, "f": refill.field, "m": refill.message}
    said = quote(json.dumps({**data, "i": refill.form}, ensure_ascii=False))
    if len(said) > REFILL_MOST:
        return None
    response = RedirectResponse(path, 303)
    response.set_cookie(REFILL_COOKIE, said, max_age=60, httponly=True, samesite="strict")
    return response


def take_refill(request: Request) -> Refill | None:
    """The refused form :func:`refill_at` left for this page, if any (anything else in the
    cookie is ignored); the page's response forgets it."""
    import json
    from urllib.parse import unquote

    text = request.cookies.get(REFILL_COOKIE, "")
    if not text:
        return None
    request.scope["tally_refill_taken"] = True
    try:
        data = json.loads(unquote(text[:REFILL_MOST]))
        values = {str(k): str(v)[:FIELD_MOST] for k, v in dict(data["v"]).items()}
        if data["p"] != request.url.path or len(values) > MAX_ENTRIES:
            return None
        parts = [data.get(k) for k in ("f", "m", "i")]
        field, message, form = (None if x is None else str(x)[:300] for x in parts)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    return Refill(values, field, message, form)


def navigating(request: Request) -> bool:
    """Whether the browser sent a plain form (it will show the answer at the form's address),
    not the page's script (which shows the answer in place)."""
    return request.headers.get("sec-fetch-mode") == "navigate"


def brief(text: str, most: int = 300) -> str:
    """``text`` cut to ``most`` characters (an ellipsis where it was cut): what a page shows of
    a refusal that may quote a long input.

    >>> brief("x" * 1000)[-3:], len(brief("x" * 1000))
    ('xx…', 300)
    """
    return text if len(text) <= most else text[: most - 1] + "…"


def whole_number(text: str, most_digits: int = 18) -> int | None:
    """``text`` as a whole number when it is 1 to ``most_digits`` ASCII digits, else None:
    the one reading of a number that comes from a request (``²``, ``１`` and ``١`` are not
    numbers here, whatever ``str.isdigit`` says).

    >>> whole_number("12"), whole_number("²"), whole_number("１"), whole_number("-1")
    (12, None, None, None)
    """
    found = read_number(text, most_digits) if text.isdigit() else None
    return None if found is None else int(found)


#: what a page says when its address names no such thing, by the path parameter's name
_NO_SUCH: Final = {
    "deal": N_("there is no deal %(text)s"),
    "entry": N_("there is no entry %(text)s"),
    "event": N_("there is no event %(text)s"),
    "match": N_("there is no match %(text)s"),
    "number": N_("there is no number %(text)s"),
    "session": N_("there is no session %(text)s"),
}


def int_param(request: Request, name: str) -> int:
    """A path parameter that must be a number (else: not found)."""
    text = str(request.path_params.get(name, ""))
    found = whole_number(text)
    if found is None:
        template = _NO_SUCH.get(name)
        if template is None:
            raise NotFound(
                Message(N_("there is no %(name)s %(text)s"), name=name, text=repr(text[:20]))
            )
        raise NotFound(Message(template, text=repr(text[:20])))
    return found
