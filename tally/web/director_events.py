"""The director's pages for setting an evening up: creating an event of every kind with its
settings, adding players (new names inline, late entries), previewing a round's pairings
before starting it, and starting a club evening's matches from the event's list.

Every change is the store's own call, the one the command line makes
(``store.events.create``, ``store.events.add_players``,
``store.events.start_round``, ``store.matches.start``): the store
checks the settings, and a refusal is shown on the form with what was typed kept.

Players are found as the command line finds them (``store.players.look_up``: number,
name, alias, prefix, accents ignored). A name that fits several players, or none, is not
refused: the form comes back with a choice for it (the players it fits or whose names are
close, or a new player of that name). A line starting with ``+`` is a new player outright.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tally.errors import Message, Refused, TallyError
from tally.events.formats import FORMATS, Option, every_option, kinds
from tally.i18n import N_
from tally.names import read_number, shown
from tally.web.app import (
    MAX_ENTRIES,
    Fields,
    Refill,
    blocking,
    form_of,
    guarded,
    int_param,
    kept,
    language,
    render,
    site_of,
    whole_number,
)
from tally.web.director import acting, back, need_director, refused

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store import Store
    from tally.store.players import Lookup
    from tally.store.views import RoundView

#: how the form names each choice (a kind of event: the templates' ``kind_name``)
LABELS = {
    "none": N_("nothing"),
    "win": N_("as a won match"),
    "forfeit": N_("won by the opponents (forfeit)"),
    "void": N_("do not count (void)"),
    "points": N_("match points"),
    "percentage": N_("percentage of match points"),
    "as-scored": N_("as scored"),
    "virtual-opponent": N_("a virtual opponent (FIDE)"),
}


def routes() -> list[Route]:
    """The routes of this module."""
    from starlette.routing import Route

    post = ["POST"]
    return [
        Route("/director/new", new_event),
        Route("/director/new", create, methods=post),
        Route("/director/event/{event}/players", add, methods=post),
        Route("/director/event/{event}/round/{number}", preview),
        Route("/director/event/{event}/match", start_match, methods=post),
    ]


def _number(form: Fields, option: Option) -> int | None:
    key = option.form_field
    text = form.at(key).values.get(key, "").strip()
    if not text:
        return None
    number = whole_number(text, 6)
    if number is None:
        raise Refused(
            Message(
                N_('%(field)s: "%(text)s" is not a whole number'),
                field=Message(option.label),
                text=text[:20],
            )
        )
    return number


def _option(form: Fields, option: Option) -> Any:
    """The value of ``option`` the form gives (its default when the field is empty)."""
    field = option.form_field
    if option.type == "bool":
        return form.values.get(field) == "yes"
    if option.type == "whole":
        number = _number(form, option)
        return option.default if number is None else number
    return form.values.get(field, "").strip() or option.default


def _points(text: str) -> float:
    value = read_number(text or "1", 6, 2)
    if value is None:
        raise Refused(
            Message(N_("match points per win: %(text)s is not a number"), text=shown(text))
        )
    return float(value)


def settings(form: Fields) -> dict[str, Any]:
    """The keyword arguments of ``store.events.create`` a posted form gives
    (the players apart): only the settings of the chosen kind, so a setting typed for
    another kind before the kind was changed is left out, not refused. Each field is read
    at its name (:class:`~tally.web.app.Fields`): a refusal names the field typed wrong; the
    event's name and its tiebreaks are checked as the store checks them."""
    from datetime import date

    from tally.events.tiebreaks import check_tiebreaks
    from tally.store.events import clean_event_name

    fields = form.values
    with form.at("name"):
        clean_event_name(fields.get("name", ""))
    kind = fields.get("kind", "club")
    mine = FORMATS[kind].options if kind in FORMATS else ()
    when = form.at("date").values.get("date", "").strip()
    try:
        held_on = date.fromisoformat(when) if when else None
    except ValueError:
        raise Refused(
            Message(N_("date: %(text)s is not a date (YYYY-MM-DD)"), text=shown(when))
        ) from None
    tiebreaks = fields.get("tiebreaks", "").strip()
    order = [x for x in tiebreaks.split(",") if x.strip()] if tiebreaks else None
    if order is not None:
        with form.at("tiebreaks"):
            check_tiebreaks(order)
    out: dict[str, Any] = {
        "kind": kind,
        "held_on": held_on,
        "rules": fields.get("rules", "sixty-six"),
        "match_points_per_win": _points(form.at("points").values.get("points", "")),
        "bye": fields.get("bye", "none"),
        "withdrawal": fields.get("withdrawal", "forfeit"),
        "tiebreaks": order,
        "rank_by": fields.get("rank_by") or None,
        "language": fields.get("lang_of", ""),
    }
    for option in mine:
        out[option.argument] = _option(form, option)
    form.at(None)  # the rest is the form as a whole
    return out


@dataclass(frozen=True)
class Entries:
    """The players a form names, as the store takes them (``#12`` a player, ``+Name`` a new
    one), and the names still to be chosen for (``open``)."""

    refs: tuple[str, ...]
    open: tuple[Lookup, ...]


def entries(store: Store, fields: dict[str, str]) -> Entries:
    """The players of the ``players`` field (one a line), each looked up, with the choices
    made for names that needed one (``pick-N`` for the name in ``ref-N``)."""

    picks = {
        fields.get(f"ref-{i}", ""): fields[f"pick-{i}"]
        for i in range(MAX_ENTRIES)
        if fields.get(f"pick-{i}")
    }
    lines = [" ".join(x.split()) for x in fields.get("players", "").splitlines()]
    lines = [picks.get(x, x) for x in lines if x]
    _check_batch(lines)
    looking = [x for x in lines if not x.startswith("+")]
    found = {x.ref: x for x in store.players.look_up(looking)}
    refs: list[str] = []
    unsettled: list[Lookup] = []
    for line in lines:
        hit = None if line.startswith("+") else found[line]
        if hit is None:
            refs.append(line)
        elif hit.found is None:
            unsettled.append(hit)
        else:
            refs.append(f"#{hit.found.id}")
    return Entries(tuple(refs), tuple(unsettled))


def _check_batch(lines: list[str]) -> None:
    """Refuse a players' list no form needs, before a name of it is looked up: more than
    :data:`MAX_ENTRIES` lines, or a line longer than a name can be (6,000 unknown names
    would cost seconds of look-ups and a page of megabytes)."""
    from tally.store.columns import NAME_LENGTH

    if len(lines) > MAX_ENTRIES:
        raise Refused(
            Message(
                N_("%(count)s players in one list: at most %(most)s, add the rest with another"),
                count=len(lines),
                most=MAX_ENTRIES,
            )
        )
    long = next((x for x in lines if len(x) > NAME_LENGTH + 1), None)
    if long is not None:
        raise Refused(
            Message(
                N_("%(name)s: a name has at most %(most)s characters"),
                name=shown(long),
                most=NAME_LENGTH,
            )
        )


def enter_new(store: Store, refs: tuple[str, ...]) -> list[str]:
    """The players ``refs`` names, the new ones (``+Name``) added to the club's list first
    (a new name already on the list, as a form sent twice has it, is that player)."""
    from tally.names import fold

    out: list[str] = []
    for ref in refs:
        if ref.startswith("+"):
            name = ref[1:].strip()
            there = store.players.look_up([name])[0].found
            if there is None or fold(there.name) != fold(name):
                there_id = store.players.add(name).id
            else:
                there_id = there.id or 0
            ref = f"#{there_id}"
        out.append(ref)
    return out


@guarded
async def new_event(request: Request) -> Response:
    """GET: the form that creates an event; after a refusal a plain browser was sent back
    here from (:func:`create`), with what was typed and the field at fault."""
    from tally.web.app import take_refill

    need_director(request)
    await language(request)
    from datetime import date

    refill = take_refill(request)
    if refill is not None:
        return _refused(request, refill, 200)
    return render(
        request,
        "new_event.html.j2",
        error=None,
        refill=None,
        unsettled=(),
        **_choices(),
        values={"kind": "round-robin", "date": date.today().isoformat()},
    )


def _refused(request: Request, refill: Refill, status: int) -> Response:
    """The new-event form refused: everything typed kept, the field at fault marked (the
    refusal above the form when it is of no one field)."""
    return render(
        request,
        "new_event.html.j2",
        status,
        values=refill.values,
        unsettled=(),
        error=None if refill.field else refill.message,
        refill=refill,
        **_choices(),
    )


def _choices() -> dict[str, Any]:
    from tally.engine.rules import PRESETS
    from tally.events.tiebreaks import RANK_BY, TABLE, TIEBREAKS, UNPLAYED
    from tally.i18n import LANGUAGES
    from tally.store.eventrows import BYES, WITHDRAWALS

    return {
        "kinds": kinds(),
        "presets": list(PRESETS),
        "byes": BYES,
        "withdrawals": WITHDRAWALS,
        "rank_bys": RANK_BY,
        "tiebreak_names": TIEBREAKS,
        # what each tiebreak counts, as the form explains it
        "tiebreak_help": {name: t.help for name, t in TABLE.items()},
        "unplayed_rules": UNPLAYED,
        "languages": LANGUAGES,
        "labels": LABELS,
        "kind_options": list(every_option().values()),
        "kind_fields": {
            f.kind: [o.form_field for o in f.options] + (["teams"] if f.plays_in_teams else [])
            for f in FORMATS.values()
        },
    }


def _create(store: Store, form: Fields) -> tuple[int | None, Entries]:
    """Create the event the form describes, or the players still to choose for (a refusal
    names the field being read: :class:`~tally.web.app.Fields`)."""

    with form.at("players"):
        wanted = entries(store, form.values)
    if wanted.open:
        return None, wanted
    kwargs = settings(form)
    kind = form.values.get("kind", "club")
    if kind in FORMATS and FORMATS[kind].plays_in_teams:  # a team event: its teams' players
        lines = form.values.get("teams", "").splitlines()
        kwargs["teams"] = [line.strip() for line in lines if line.strip()]
    with store.transaction("web: new event"):  # new players only with the event
        with form.at("players"):
            players = enter_new(store, wanted.refs)
        form.at(None)
        ev = store.events.create(form.values.get("name", ""), players=players, **kwargs)
    return ev.id, wanted


@guarded
async def create(request: Request) -> Response:
    """POST: create the event; a refusal, or a name to choose for, shows the form again
    with everything typed kept."""
    from tally.errors import TallyError
    from tally.web.app import navigating, page_language, refill_at

    need_director(request)
    form = Fields(await form_of(request))
    fields = form.values
    await language(request)
    try:
        eid, wanted = await blocking(_create, acting(request), form)
    except TallyError as exc:
        refill = form.refill(exc, page_language(request))
        # a plain browser goes back to the form's page (303: a reload posts nothing); the
        # page's script, or a form too large for the cookie, gets it in place
        back_to = refill_at("/director/new", refill) if navigating(request) else None
        return back_to or _refused(request, refill, 400)
    if eid is None:
        return render(
            request,
            "new_event.html.j2",
            values=kept(fields),
            error=None,
            refill=None,
            unsettled=wanted.open,
            **_choices(),
        )
    return back(f"/director/event/{eid}", "")


def _add(store: Store, eid: int, fields: dict[str, str]) -> tuple[Entries, list[str]]:
    """Add the players the form names (or say which names need a choice); the names of
    those added."""

    wanted = entries(store, fields)
    if wanted.open or not wanted.refs:
        return wanted, []
    with store.transaction("web: add players"):  # new players only if they join
        ev = store.events.add_players(eid, enter_new(store, wanted.refs))
    return wanted, [p.name for p in ev.players[-len(wanted.refs) :]]


@guarded
async def add(request: Request) -> Response:
    """POST: add players to the event (late entries where the event's kind takes them); a
    name to choose for shows the choice."""
    from tally.web.app import page_language, translate

    need_director(request)
    form = Fields(await form_of(request))
    fields = form.values
    eid = int_param(request, "event")
    _ = translate(await language(request))
    try:
        with form.at("players"):
            wanted, added = await blocking(_add, acting(request), eid, fields)
            if not wanted.refs and not wanted.open:
                raise Refused(N_("type the names of the players to add, one a line"))
    except TallyError as exc:
        ev = await blocking(site_of(request).store.events.get, eid)
        refill = form.refill(exc, page_language(request))
        return render(
            request,
            "add_players.html.j2",
            400,
            event=ev,
            values=kept(fields),
            unsettled=(),
            refill=refill,
        )
    if wanted.open:
        ev = await blocking(site_of(request).store.events.get, eid)
        return render(
            request,
            "add_players.html.j2",
            event=ev,
            values=kept(fields),
            unsettled=wanted.open,
            refill=None,
        )
    return back(f"/director/event/{eid}", _("Added: %(names)s.") % {"names": ", ".join(added)})


@guarded
async def preview(request: Request) -> Response:
    """GET: the pairings round N would have if started now (rehearsed by the store: the
    same path that starts it), with the button that starts it."""

    need_director(request)
    eid, number = int_param(request, "event"), int_param(request, "number")
    await language(request)
    store = site_of(request).store
    ev = await blocking(store.events.get, eid)
    try:
        rnd, again = await blocking(_least_bad, store, eid, number)
    except TallyError as exc:
        return refused(request, exc, f"/director/event/{eid}")
    warned = await blocking(store.pairings.apart_warnings, eid, shown=[rnd])
    warned += await blocking(store.pairings.start_warnings, eid, number)
    from tally.vocabulary import absent_words

    return render(
        request,
        "preview.html.j2",
        event=ev,
        round=rnd,
        warnings=warned,
        absent_words=absent_words,
        rematches=again,
    )


def _least_bad(store: Store, eid: int, number: int) -> tuple[RoundView, list[tuple[str, str]]]:
    """Round ``number`` as it would start now; when no Swiss pairing avoids a rematch, the
    least bad one with its rematches (the director is offered it, or pairs by hand)."""
    from tally.errors import NoPairing
    from tally.store.views import rematches

    try:
        return store.consequences.round_preview(eid, number), []
    except NoPairing:
        rnd = store.consequences.round_preview(eid, number, accept_rematches=True)
        earlier = [r for r in store.events.started_rounds(eid) if r.number < number]
        return rnd, rematches([*earlier, rnd], number)


def _busy(store: Store, eid: int, names: tuple[str, ...]) -> dict[str, int]:
    """The players of ``names`` at a table now: the match of the event they play, not over."""
    return {p: m.id for m in store.matches.all(eid) if not m.over for p in m.players if p in names}


@guarded
async def start_match(request: Request) -> Response:
    """POST: start a match of a club evening between two players chosen from its list; a
    player who is at a table already is asked about first."""
    from tally.web.app import translate
    from tally.web.director import chosen, event_form_refused

    need_director(request)
    form = Fields(await form_of(request))
    fields = form.values
    eid = int_param(request, "event")
    _ = translate(await language(request))
    store = acting(request)
    try:
        a, b = chosen(form, "a"), chosen(form, "b")
        if a == b:
            raise Refused(N_("choose two different players"))
        busy = await blocking(_busy, store, eid, (a, b))
        if busy and fields.get("anyway") != "yes":
            return render(request, "busy.html.j2", event_id=eid, busy=busy, values=kept(fields))
        dealer = form.at("dealer").values.get("dealer") or a
        if dealer not in (a, b):
            raise Refused(Message(N_("%(player)s is not one of the two players"), player=dealer))
        with form.about("a", "b"):
            m = await blocking(store.matches.start, a, b, first_dealer=dealer, event=eid)
    except TallyError as exc:
        return await event_form_refused(request, eid, "start-match", form, exc)
    return back(
        f"/director/event/{eid}",
        _("Match %(id)s started: %(a)s v %(b)s.")
        % {"id": m.id, "a": m.players[0], "b": m.players[1]},
    )
