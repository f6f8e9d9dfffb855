"""How the director gets in and who is in: the one-time login link ``tally serve`` prints on
the laptop's screen (a way in that no guest on the Wi-Fi has, however often the PIN has been
guessed at), and the page of the director's sessions (device, address, since when), each of
which the director can end. The work is :mod:`tally.web.access`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tally.errors import AccessDenied
from tally.i18n import N_
from tally.web.access import end_session, sessions, use_login_link
from tally.web.app import (
    blocking,
    form_of,
    guarded,
    int_param,
    language,
    render,
    session_of,
    site_of,
    take_notice,
    translate,
)
from tally.web.director import back, enter, need_director

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route


def routes() -> list[Route]:
    """The routes of the login link and of the sessions' page."""
    from starlette.routing import Route

    post = ["POST"]
    return [
        Route("/director/enter/{token}", link_page),
        Route("/director/enter/{token}", use_link, methods=post),
        Route("/director/sessions", sessions_page),
        Route("/director/sessions/{session}/end", end, methods=post),
    ]


def _token(request: Request) -> str:
    return str(request.path_params.get("token", ""))[:100]


@guarded
async def link_page(request: Request) -> Response:
    """GET: the login link's page: a button that uses it (a GET changes nothing, so a link
    previewed by a messenger is not used up)."""
    await language(request)
    return render(request, "enter.html.j2", token=_token(request))


@guarded
async def use_link(request: Request) -> Response:
    """POST: use the login link up and start a director's session."""
    await form_of(request)
    if not await blocking(use_login_link, site_of(request).store, _token(request)):
        raise AccessDenied(
            N_(
                "this login link has been used or has expired: start tally serve again "
                "for a new one, or type the PIN"
            )
        )
    return await enter(request)


@guarded
async def sessions_page(request: Request) -> Response:
    """GET: the director's sessions in force: device, address, since when; each can be
    ended."""
    need_director(request)
    await language(request)
    found = await blocking(sessions, site_of(request).store)
    return render(
        request,
        "sessions.html.j2",
        sessions=found,
        mine=session_of(request),
        notice=take_notice(request),
    )


@guarded
async def end(request: Request) -> Response:
    """POST: end one director's session (another device, or this one)."""
    need_director(request)
    await form_of(request)
    number = int_param(request, "session")
    ended = await blocking(end_session, site_of(request).store, number)
    _ = translate(await language(request))
    if number == session_of(request):
        return back("/director")
    return back(
        "/director/sessions",
        _("Session %(n)s ended: that device needs the PIN again.") % {"n": number}
        if ended
        else _("Session %(n)s had ended already.") % {"n": number},
    )
