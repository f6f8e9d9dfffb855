"""The director's pages for the club's players: the list, and a player's page where a name is
fixed where it is seen: renamed (the records follow), given another name they go by (an
alias) or that name taken away, and a second entry for the same person merged into theirs.

Every change is the store's own call, the one ``tally player rename|alias|merge`` makes
(``store.players.rename``, ``add_alias``, ``remove_alias``, ``merge``): audited, and taken
back on the Changes page. The other entry of a merge is found as the command line finds a
player (``store.players.look_up``: number, name, alias, prefix, accents ignored); a name that
fits several players, or none, comes back with the players it fits or whose names are close,
to choose from. A merge is asked about first. A refused form comes back with what was typed
and the field at fault marked (:class:`tally.web.app.Refill`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tally.errors import TallyError
from tally.i18n import N_
from tally.web.app import (
    Fields,
    Refill,
    blocking,
    form_of,
    guarded,
    language,
    page_language,
    render,
    site_of,
    take_notice,
    translate,
)
from tally.web.director import acting, back, need_director

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store.players import Lookup
    from tally.store.views import PlayerView


def routes() -> list[Route]:
    """The routes of this module."""
    from starlette.routing import Route

    post = ["POST"]
    return [
        Route("/director/players", players_page),
        Route("/director/player/{player}", player_page),
        Route("/director/player/{player}/rename", rename, methods=post),
        Route("/director/player/{player}/alias", alias, methods=post),
        Route("/director/player/{player}/unalias", unalias, methods=post),
        Route("/director/player/{player}/merge", merge, methods=post),
    ]


def _ref(request: Request) -> str:
    """The player a page's address names: their number (or a name, as the event page links
    them), looked up as every command looks one up."""
    return str(request.path_params["player"])[:200]


@guarded
async def players_page(request: Request) -> Response:
    """GET: the club's players, by name, each a link to their page."""
    need_director(request)
    await language(request)
    players = await blocking(site_of(request).store.players.all)
    return render(request, "players.html.j2", players=players, notice=take_notice(request))


async def _show(
    request: Request,
    player: PlayerView,
    status: int = 200,
    *,
    refill: Refill | None = None,
    choices: Lookup | None = None,
    merging: PlayerView | None = None,
) -> Response:
    """A player's page: their names and events, and the forms that fix them."""
    store = site_of(request).store
    events = {ev.id: ev for ev in await blocking(store.events.all)}
    return render(
        request,
        "player.html.j2",
        status,
        player=player,
        events=[events[e] for e in player.events if e in events],
        refill=refill,
        choices=choices,
        merging=merging,
        notice=take_notice(request),
    )


async def _refused(request: Request, player: PlayerView, refill: Refill) -> Response:
    """The player's page with a form of it refused: a plain browser is sent back to the
    page's own address with what was typed (303: a reload posts nothing;
    :func:`tally.web.app.refill_at`), the page's script gets it in place (400)."""
    from tally.web.app import navigating, refill_at

    back_to = refill_at(f"/director/player/{player.id}", refill) if navigating(request) else None
    return back_to or await _show(request, player, 400, refill=refill)


@guarded
async def player_page(request: Request) -> Response:
    """GET: a player's page; ``?merge=N``: with the question before merging player N into
    this one (where :func:`merge` sends the director: a reload asks again, posts nothing);
    after a refused form, with what was typed (:func:`_refused`)."""
    from tally.web.app import take_refill, whole_number

    need_director(request)
    await language(request)
    store = site_of(request).store
    player = await blocking(store.players.get, _ref(request))
    other_id = whole_number(request.query_params.get("merge", ""), 12)
    merging = None
    if other_id is not None and other_id != player.id:
        try:
            merging = await blocking(store.players.get, f"#{other_id}")
        except TallyError:
            merging = None  # (merged or gone meanwhile: nothing to ask)
    return await _show(request, player, merging=merging, refill=take_refill(request))


async def _change(request: Request, field: str, change: Any, said: str) -> Response:
    """POST: make ``change(store, ref, typed)`` with the form's ``field``; back to the
    player's page saying ``said`` (the player's name filled in), or the page again with what
    was typed and the field marked when refused."""
    need_director(request)
    form = Fields(await form_of(request))
    lang = await language(request)
    ref = _ref(request)
    player = await blocking(site_of(request).store.players.get, ref)
    try:
        with form.at(field):
            done: PlayerView = await blocking(
                change, acting(request), f"#{player.id}", form.values.get(field, "")
            )
    except TallyError as exc:
        return await _refused(request, player, form.refill(exc, page_language(request)))
    _ = translate(lang)
    return back(f"/director/player/{done.id}", _(said) % {"name": done.name})


@guarded
async def rename(request: Request) -> Response:
    """POST: rename the player (``name``); their records follow."""
    return await _change(
        request,
        "name",
        lambda store, ref, new: store.players.rename(ref, new),
        N_("Renamed: %(name)s."),
    )


@guarded
async def alias(request: Request) -> Response:
    """POST: another name the player goes by (``alias``)."""
    return await _change(
        request,
        "alias",
        lambda store, ref, new: store.players.add_alias(ref, new),
        N_("%(name)s goes by that name too."),
    )


@guarded
async def unalias(request: Request) -> Response:
    """POST: take one of the player's other names (``alias``) away."""
    return await _change(
        request,
        "alias",
        lambda store, ref, old: store.players.remove_alias(ref, old),
        N_("%(name)s no longer goes by that name."),
    )


@guarded
async def merge(request: Request) -> Response:
    """POST: merge another entry for the same person (``other``, found as the command line
    finds a player) into this player's: asked about first, on the player's page at an address
    of its own (``?merge=N``; ``confirm=yes`` merges); a name
    that fits several players or none comes back with the players to choose from."""
    need_director(request)
    form = Fields(await form_of(request))
    lang = await language(request)
    store = site_of(request).store
    player = await blocking(store.players.get, _ref(request))
    typed = form.values.get("other", "").strip()
    try:
        with form.at("other"):
            found = (await blocking(store.players.look_up, [typed]))[0]
            if found.found is None:
                return await _show(
                    request, player, refill=Refill(form.values, "other"), choices=found
                )
            other = await blocking(store.players.get, f"#{found.found.id}")
            if form.values.get("confirm") != "yes":
                return back(f"/director/player/{player.id}?merge={other.id}")
            done = await blocking(acting(request).players.merge, f"#{player.id}", f"#{other.id}")
    except TallyError as exc:
        return await _refused(request, player, form.refill(exc, page_language(request)))
    _ = translate(lang)
    return back(
        f"/director/player/{done.id}",
        _("%(other)s merged into %(name)s.") % {"other": other.name, "name": done.name},
    )
