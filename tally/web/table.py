"""The table page: one phone per table records its match trick by trick.

Reached at ``/t/MATCH/SECRET`` (:meth:`tally.web.access.Keys.table_secret`); a wrong secret is
"not found", and a secret only opens its own match. Every change is a form that carries the
CSRF token and where the phone saw the deal (``at``, ``last``: a
:class:`~tally.store.views.Position`): when another phone recorded meanwhile the store refuses
it (:class:`~tally.errors.DealMoved`) and the page shows the deal as it is now. A violation is
shown for confirmation first and stored only after "it happened" (``as_played``); a quick
result is proposed (``store.proposals``) and stored only once the opponent agreed to that
proposal on the same phone (:mod:`tally.web.results`).

The pages speak the language :func:`tally.web.app.language` resolves for the match (the
reader's choice, its event's language, the browser's); what a button records is the same in
every language.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from tally.errors import (
    AccessDenied,
    AlreadyRecorded,
    DealMoved,
    MatchOver,
    NotFound,
    Refused,
    TallyError,
    ViolationNotConfirmed,
    Withdrawn,
)
from tally.i18n import N_
from tally.store.transactions import TableWriter
from tally.store.views import DealView, LastDeal, MatchView, Over, Position, Tap
from tally.vocabulary import message_words
from tally.web.access import referee_mode, reopened, reopened_on
from tally.web.app import (
    blocking,
    brief,
    by_table,
    form_of,
    guarded,
    int_param,
    language,
    navigating,
    redirect_with_notice,
    refusal,
    render,
    site_of,
    take_notice,
    take_refusal,
    translate,
    whole_number,
)
from tally.web.cards import action_buttons, card_rows, deck, shown, with_symbols
from tally.web.telling import face_up_line, move_text, stock_line, told

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store import Store
    from tally.store.proposals import ProposalView

#: the reasons of a quick result (those of ``tally deal quick --reason``) by whose doing they
#: are (the winner's, the loser's, nobody won), each worded as what that player did: the form
#: offers those that fit its winner and the match's rule set
QUICK_CHOICES: tuple[tuple[str, str, str], ...] = (
    ("winner", "claim", N_("claimed 66")),
    ("winner", "last-trick", N_("won the last trick")),
    ("winner", "higher-total", N_("had the higher total")),
    ("loser", "false-claim", N_("claimed 66 falsely")),
    ("loser", "failed-close", N_("closed and failed")),
    ("loser", "illegal-play", N_("broke a rule")),
    ("nobody", "draw", N_("drawn")),
)
#: the reasons a quick result may give (the director's form of a quick result offers them)
QUICK_REASONS = tuple(c[1] for c in QUICK_CHOICES)


def routes() -> list[Route]:
    """The table page's routes."""
    from starlette.routing import Route

    base = "/t/{match}/{secret}"
    return [
        Route(base, show),
        Route(base + "/play", play, methods=["POST"]),
        Route(base + "/undo", undo, methods=["POST"]),
        Route(base + "/start", start, methods=["POST"]),
        Route(base + "/quick", quick, methods=["POST"]),
    ]


def table_url(request: Request, match_id: int) -> str:
    """The table page of a match, with its secret."""
    return f"/t/{match_id}/{site_of(request).keys.table_secret(match_id)}"


#: what an address of a match no longer stored says (its pairings withdrawn, it deleted)
GONE = N_(
    "this table's pairing was withdrawn (or its match deleted): ask the director for the new code"
)
#: what an address made before the director made new table addresses says
REPLACED = N_("this table's address was replaced by a new one: ask the director for the new code")


def _match_id(request: Request) -> int:
    """The match of a table URL, refused ("not found") unless the secret is its own; an
    address of an older key generation says it was replaced (the match is still stored,
    :func:`_shut` says when it is not)."""
    mid = int_param(request, "match")
    secret = str(request.path_params["secret"])
    keys = site_of(request).keys
    if keys.check_table(mid, secret):
        return mid
    if keys.replaced_table(mid, secret):
        raise Withdrawn(REPLACED)
    raise NotFound(N_("this table's address is not right: scan the code on the sheet again"))


def _acting(request: Request, mid: int) -> Store:
    """The store a table's phone writes through: only into its own match, and only while
    the match is open to its table (the store checks that as it writes)."""
    site = site_of(request)
    writer = TableWriter(mid, lambda conn: reopened_on(conn, mid))
    return site.acting(by_table(mid), writer)


def _expected(mid: int, fields: dict[str, str]) -> Position:
    """Where the phone saw the match when the form was shown."""
    at = Position.parse(fields.get("at", ""))
    if at.match_id != mid:
        raise AccessDenied(N_("the form belongs to another table"))
    return Position(at.match_id, at.number, at.actions, fields.get("last") or None)


#: the fields that say what was tapped on a form (with the form's view, a tap without script)
TAPPED = (
    "token",
    "turn_up",
    "confirm",
    "winner",
    "points",
    "reason",
    "agree",
    "first",
    "second",
    "score",
)


def _tap(fields: dict[str, str]) -> Tap | None:
    """The tap a form was sent as: by the page's script (``static/taps.js``: ``tap``, and
    ``after`` for one made while the one before it waited), else the form as the page showed
    it (``seen``) with what was tapped on it; None from neither."""
    if not fields.get("tap") and fields.get("seen"):
        return Tap.of_form(fields["seen"], "\n".join(fields.get(k, "") for k in TAPPED))
    return Tap.read(fields.get("tap", ""), fields.get("after", ""))


def _current(match: MatchView) -> DealView | None:
    """The deal play is recorded into: the last one, while it is recorded and not over."""
    if not match.deals:
        return None
    last = match.deals[-1]
    if last.kind != "recorded" or (last.to_move is None and not last.claimable):
        return None
    return last


def _shut(store: Store, mid: int) -> Over | None:
    """How the match ended when it takes no more writes from its table (None: it takes
    them), by the rule the store checks as it writes."""
    try:
        over = store.matches.over(mid)
    except NotFound:  # a secret of its own, so the match was stored once: taken back since
        raise Withdrawn(GONE) from None
    if over is None:
        return None
    again = over.kind == "finished" and reopened(store, mid)
    return over if over.shuts_out(TableWriter(mid), again) else None


def _state(store: Store, mid: int, lang: str) -> dict[str, Any]:
    """Everything the table page shows, read from the store in one read (the match derived
    once: :meth:`~tally.store.transactions.Database.snapshot`); buttons labelled in ``lang``."""
    with store.snapshot():
        return _state_now(store, mid, lang)


def _state_now(store: Store, mid: int, lang: str) -> dict[str, Any]:
    """:func:`_state` inside its read."""
    shut = _shut(store, mid)
    referee = referee_mode(store, mid)
    match = store.matches.state(mid, referee=referee)
    if shut is not None:
        return _shut_state(match, shut, lang, _champion(store, match))
    deal = _current(match)
    legal = store.deals.legal_tokens(deal.id) if deal is not None else []
    last = match.deals[-1] if match.deals else None
    cards = [str(c) for c in deck(match.rules)]
    can_start = not match.over and (last is None or last.finished)
    return {
        "match": match,
        "deal": deal,
        "last": last,
        "referee": referee,
        "rows": card_rows(legal, lang),
        "actions": action_buttons(
            legal, match.rules, lang, deal.table.leader if deal and deal.table else None
        ),
        "others": (
            card_rows([c for c in cards if c not in legal], lang) if deal is not None else []
        ),
        "turn_ups": card_rows(cards, lang) if can_start else [],  # (shown to start a deal)
        "can_start": can_start,
        "can_undo": (last is not None and last.kind == "recorded" and last.actions > 0),
        "choices": _choices(match.rules) if can_start else [],  # (the quick result's form)
        "shut": None,
        "pairing": None,
        "champion": None,
        **_laid_out(last, lang),
    }


def _champion(store: Store, match: MatchView) -> str | None:
    """The champion of the knockout the match counts for, once it has one."""
    if match.event_id is None:
        return None
    event = store.events.get(match.event_id)
    if not event.format.ranks_by_elimination:
        return None
    return store.knockouts.view(event).champion


def _shut_state(match: MatchView, shut: Over, lang: str, champion: str | None) -> dict[str, Any]:
    """The table page of a match over for its table: why, how its best-of pairing was
    decided, the champion, the deals; nothing to tap."""
    from tally.i18n import worded

    last = match.deals[-1] if match.deals else None
    return {
        "match": match,
        "deal": None,
        "last": last,
        "referee": False,
        "rows": [],
        "actions": [],
        "others": [],
        "turn_ups": [],
        "can_start": False,
        "can_undo": False,
        "choices": [],
        "shut": _capital(worded(shut.words, lang)),
        "pairing": None if shut.pairing is None else _capital(worded(shut.pairing, lang)),
        "champion": champion,
        **_laid_out(last, lang),
    }


def _capital(text: str) -> str:
    """``text`` as a sentence, its first letter a capital."""
    return text[:1].upper() + text[1:]


def _choices(rules: str) -> list[tuple[str, str, str, str]]:
    """The reasons the quick-result form offers: those the match's rule set allows, by whose
    doing they are, each with the game points it may give (:func:`tally.engine.match.quick_points`)
    as ``"2 3"``."""
    from tally.engine.match import quick_points
    from tally.engine.rules import RuleSet

    rule_set = RuleSet.parse(rules)
    out = []
    for side, reason, said in QUICK_CHOICES:
        points = quick_points(rule_set, reason)
        if points:
            out.append((side, reason, said, " ".join(map(str, points))))
    return out


def _laid_out(last: DealView | None, lang: str) -> dict[str, Any]:
    """How the last deal lies on the table, in words: the stock, the card face up, the
    card led to the trick being played, its tricks newest first with what was declared."""
    table = last.table if last is not None else None
    if table is None:
        return {"stock": None, "face_up": None, "led": None, "tricks": []}
    led = table.tricks[-1] if table.lead is not None and table.tricks else None
    return {
        "stock": stock_line(table, lang),
        "face_up": face_up_line(table, lang),
        "led": led,
        "tricks": [(t, [move_text(m, lang) for m in t.moves]) for t in reversed(table.tricks)],
    }


async def _page(
    request: Request,
    mid: int,
    *,
    status: int = 200,
    error: str | None = None,
    notice: str | None = None,
) -> Response:
    if error is not None and navigating(request):
        # (a plain form: back to the table's own address, so that a reload does not post)
        return redirect_with_notice(table_url(request, mid), error, refused=True)
    store = site_of(request).store
    state = await blocking(_state, store, mid, await language(request, match=mid))
    said = notice or take_notice(request)
    return render(
        request,
        "table.html.j2",
        status,
        url=table_url(request, mid),
        error=error or take_refusal(request),
        notice=said,
        **state,
    )


def _done(request: Request, mid: int, message: str) -> Response:
    """Back to the table page (303: a reload does not post again), saying what was done."""

    return redirect_with_notice(table_url(request, mid), message)


@guarded
async def show(request: Request) -> Response:
    """GET: the table page; with ``?ask=TOKEN&at=...&last=...`` or ``?proposal=N``, the
    question a plain form's tap was answered with (:func:`_question_at`), while it still
    arises."""
    mid = _match_id(request)
    q = request.query_params
    asked: Response | None = None
    if "ask" in q:
        asked = await _tap_question(request, mid, q.get("ask", "")[:40].strip())
    elif "proposal" in q:
        asked = await _proposal_question(request, mid, q.get("proposal", ""))
    return asked or await _page(request, mid)


def _question_at(request: Request, mid: int, query: dict[str, str]) -> Response:
    """Where a plain form's tap that needs a question goes (303): the table's address with
    the question in its query, so that the address is no POST's, a reload asks again and
    posts nothing, and Back leads to the table. (The page's script is answered in place.)"""
    from urllib.parse import urlencode

    return redirect_with_notice(f"{table_url(request, mid)}?{urlencode(query)}")


async def _tap_question(request: Request, mid: int, token: str) -> Response | None:
    """The question before a tap (``token`` at the position the query names): a claim sure
    to be false, or a tap that breaks a rule (rehearsed: nothing is stored). None when it no
    longer arises (the deal moved on, the match is over): the table page."""
    q = request.query_params
    store = site_of(request).store
    try:
        expect = _expected(mid, {"at": q.get("at", "")[:200], "last": q.get("last", "")[:40]})
        if token == "66":
            claimer = await blocking(_claim_sure_false, store, mid)
            return None if claimer is None else await _ask_first(request, mid, claimer, expect)
        await blocking(_rehearse_tap, store, mid, token, expect)
    except ViolationNotConfirmed as exc:
        return await _violation(request, mid, token, expect, exc)
    except TallyError:
        return None
    return None


def _rehearse_tap(store: Store, mid: int, token: str, expect: Position) -> None:
    """Play ``token`` as tapped and roll it back (:func:`tally.store.consequences.rehearse`):
    raises :class:`ViolationNotConfirmed` when it breaks a rule, as the tap did."""
    from tally.store.consequences import rehearse
    from tally.store.recording import Deals

    def tap(trial: Any) -> object:
        return Deals(trial).play(LastDeal(mid), token, as_played=False, expect=expect)

    rehearse(store, tap, lambda trial: None)


async def _proposal_question(request: Request, mid: int, number: str) -> Response | None:
    """The page that passes the phone to the opponent, for proposal ``number`` of this
    table while it is pending; None otherwise (the table page)."""
    proposal_id = whole_number(number, 12)
    if proposal_id is None:
        return None
    store = site_of(request).store
    try:
        proposal = await blocking(store.proposals.get, proposal_id, mid)
    except TallyError:
        return None
    if proposal.status != "pending":
        return None
    match = await blocking(store.matches.state, mid)
    how = None
    if proposal.kind == "deal":
        lang = await language(request, match=mid)
        how = _how(match.players, proposal.winner, proposal.reason, lang)
    return _agree_page(request, match, proposal, how)


#: what a phone is told when a tap it sent again had been stored the first time
ALREADY = N_("Already recorded: this tap counts once.")


def _shut_unless_sent_again(store: Store, mid: int, tap: Tap | None) -> Over | None:
    """How the match is over for its table (:func:`_shut`), None when it is not, or when
    ``tap`` is the tap that ended it, sent again: the store answers that one as recorded."""
    if tap is not None and store.deals.recorded(tap.id):
        return None
    return _shut(store, mid)


#: what a phone is told when another one recorded first (the store's words inside, English)
MOVED = N_(
    "Someone else recorded at this table meanwhile: %(message)s. This is the deal as it "
    "stands now; tap again if your entry is still missing."
)


async def _change(
    request: Request,
    mid: int,
    action: Callable[[str], Awaitable[Response]],
    fields: dict[str, str] | None = None,
    *,
    checked_in_store: bool = False,
) -> Response:
    """Run a change in the page's language; a refusal shows the table page again with the
    store's reason. A match over for its table (finished, forfeited, void, not needed)
    takes no change from it: the store refuses it inside the transaction that would write
    (:class:`~tally.errors.MatchOver`); a form of such a match is refused before it asks
    anything (an opponent's confirmation), unless the change is one the store checks in its
    own transaction first of all (``checked_in_store``: a card, an undo, a turn-up; the tap
    is then one transaction, and only a refusal asks again whether the match is over). A
    tap sent again (``fields``) is answered as stored."""
    lang = await language(request, match=mid)
    store = site_of(request).store
    tap = None
    try:
        tap = _tap(fields or {})
        shut = (
            None if checked_in_store else await blocking(_shut_unless_sent_again, store, mid, tap)
        )
        if shut is not None:
            raise MatchOver(shut.words, shut.kind)
        return await action(lang)
    except AlreadyRecorded:
        return _done(request, mid, translate(lang)(ALREADY))
    except DealMoved as exc:
        return await _page(
            request, mid, status=409, error=translate(lang)(MOVED) % {"message": exc}
        )
    except (AccessDenied, Withdrawn):
        raise
    except MatchOver as exc:
        return await _page(request, mid, status=403, error=brief(refusal(exc, lang)))
    except TallyError as exc:
        shut = (
            await blocking(_shut_unless_sent_again, store, mid, tap) if checked_in_store else None
        )
        refused: TallyError = exc if shut is None else MatchOver(shut.words, shut.kind)
        status = 400 if shut is None else 403
        said = with_symbols(refusal(refused, lang), lang)  # the cards as the page shows them
        return await _page(request, mid, status=status, error=brief(said))


@guarded
async def play(request: Request) -> Response:
    """POST: record a card or an action (``token``); a violation asks for confirmation."""
    mid = _match_id(request)
    fields = await form_of(request)

    async def action(lang: str) -> Response:
        token = fields.get("token", "").strip()
        expect = _expected(mid, fields)
        store = _acting(request, mid)
        confirmed = fields.get("confirm") == "yes"
        if token == "66" and not confirmed:
            claimer = await blocking(_claim_sure_false, site_of(request).store, mid)
            if claimer is not None and navigating(request):
                return _question_at(request, mid, _asked_query(token, expect))
            if claimer is not None:
                return await _ask_first(request, mid, claimer, expect)
        try:
            result = await blocking(
                store.deals.play,
                LastDeal(mid),
                token,
                as_played=confirmed,
                expect=expect,
                tap=_tap(fields),
            )
        except ViolationNotConfirmed as exc:
            if navigating(request):
                return _question_at(request, mid, _asked_query(token, expect))
            return await _violation(request, mid, token, expect, exc)
        d = result.deal
        message = told(d, result.tokens, result.match.players, lang)
        if message:
            return _done(request, mid, message)
        _ = translate(lang)
        said = {
            "tokens": _tokens(result.tokens, lang),
            "number": d.number,
            "explanation": with_symbols(message_words(d.wording, lang, spoken=True), lang),
        }
        if d.finished and d.to_move is None:
            return _done(
                request,
                mid,
                _("Recorded %(tokens)s. Deal %(number)s is over: %(explanation)s.") % said,
            )
        return _done(request, mid, _("Recorded %(tokens)s.") % said)

    return await _change(request, mid, action, fields, checked_in_store=True)


def _asked_query(token: str, expect: Position) -> dict[str, str]:
    """The query of a tap's question page (:func:`_tap_question`)."""
    return {"ask": token, "at": str(expect), "last": expect.last or ""}


async def _violation(
    request: Request, mid: int, token: str, expect: Position, exc: ViolationNotConfirmed
) -> Response:
    """The question before a tap that breaks a rule: record it as played, or go back."""
    from tally.i18n import worded

    match = await blocking(site_of(request).store.matches.state, mid)
    return render(
        request,
        "confirm.html.j2",
        200,
        url=table_url(request, mid),
        match=match,
        token=token,
        at=str(expect),
        last=expect.last or "",
        outcome=worded(exc.ruling, await language(request, match=mid)),
        violations=exc.violations,
    )


def _claim_sure_false(store: Store, mid: int) -> str | None:
    """Who would claim 66 now when the claim is sure to be false (the player on lead has
    won no trick, so has no counted points: a marriage counts only with a trick), else None."""
    deal = _current(store.matches.state(mid))
    if deal is None or deal.table is None:
        return None
    claimer = deal.table.leader  # (who the claim button names)
    return claimer if deal.tricks.get(claimer, 0) == 0 else None


async def _ask_first(request: Request, mid: int, claimer: str, expect: Position) -> Response:
    """The question before a claim sure to be false: record it anyway, or go back."""
    match = await blocking(site_of(request).store.matches.state, mid)
    return render(
        request,
        "confirm.html.j2",
        200,
        url=table_url(request, mid),
        match=match,
        token="66",
        at=str(expect),
        last=expect.last or "",
        claimer=claimer,
    )


def _tokens(tokens: tuple[str, ...], lang: str) -> str:
    """Recorded tokens as the page shows them: a card with its suit symbol."""
    return " ".join(shown(t, lang) for t in tokens)


@guarded
async def undo(request: Request) -> Response:
    """POST: take back the last action of the deal."""
    mid = _match_id(request)
    fields = await form_of(request)

    async def action(lang: str) -> Response:
        store = _acting(request, mid)
        result = await blocking(
            store.deals.undo, LastDeal(mid), expect=_expected(mid, fields), tap=_tap(fields)
        )
        _ = translate(lang)
        return _done(
            request, mid, _("Took back %(tokens)s.") % {"tokens": _tokens(result.tokens, lang)}
        )

    return await _change(request, mid, action, fields, checked_in_store=True)


@guarded
async def start(request: Request) -> Response:
    """POST: start the next deal with its turn-up card."""
    mid = _match_id(request)
    fields = await form_of(request)

    async def action(lang: str) -> Response:
        store = _acting(request, mid)
        d = await blocking(
            store.deals.start,
            mid,
            fields.get("turn_up", ""),
            expect=_expected(mid, fields),
            tap=_tap(fields),
        )
        _ = translate(lang)
        return _done(
            request,
            mid,
            _("Deal %(number)s started: %(dealer)s deals, turn-up %(card)s.")
            % {"number": d.number, "dealer": d.dealer, "card": shown(d.turn_up, lang)},
        )

    return await _change(request, mid, action, fields, checked_in_store=True)


@guarded
async def quick(request: Request) -> Response:
    """POST: a deal's result without its record, proposed at the table: stored as a proposal
    (``store.proposals.propose_deal``) and shown to the opponent, whose agreement names it
    (:func:`tally.web.results.phone_agree`)."""
    mid = _match_id(request)
    fields = await form_of(request)

    async def action(lang: str) -> Response:
        expect = _expected(mid, fields)
        winner = fields.get("winner") or None
        reason = fields.get("reason", "claim")[:40]
        if (reason == "draw") != (winner is None):
            raise Refused(
                N_("a drawn deal has no winner: choose who won and how, or nobody and drawn")
            )
        points = 0 if reason == "draw" else whole_number(fields.get("points", ""), 3) or 0
        match = await blocking(site_of(request).store.matches.state, mid)
        if winner is not None and winner not in match.players:
            raise Refused(N_("choose who won the deal"))
        proposal = await blocking(
            _acting(request, mid).proposals.propose_deal,
            mid,
            winner=winner,
            points=points,
            reason=reason,
            expect=expect,
        )
        return ask_to_agree(request, match, proposal, _how(match.players, winner, reason, lang))

    return await _change(request, mid, action, fields)


def ask_to_agree(
    request: Request, match: MatchView, proposal: ProposalView, how: str | None = None
) -> Response:
    """The page that passes the phone to the opponent: the proposed result, "Yes, I agree"
    (posting the proposal's number and the values shown) and "No, that is not right". A
    plain form is sent to the page's own address (:func:`_question_at`)."""
    if navigating(request):
        return _question_at(request, match.id, {"proposal": str(proposal.id)})
    return _agree_page(request, match, proposal, how)


def _agree_page(
    request: Request, match: MatchView, proposal: ProposalView, how: str | None
) -> Response:
    confirmer = (
        next(p for p in match.players if p != proposal.winner)
        if proposal.winner is not None
        else match.players[1]
    )
    return render(
        request,
        "agree.html.j2",
        200,
        url=table_url(request, match.id),
        match=match,
        proposal=proposal,
        how=how,
        confirmer=confirmer,
    )


def _how(players: tuple[str, str], winner: str | None, reason: str, lang: str) -> str | None:
    """How a deal entered as a result ended, naming who did it: ``Bert claimed 66 falsely``
    (None for a draw or a reason the form does not offer)."""
    side = next((c for c in QUICK_CHOICES if c[1] == reason), None)
    if winner is None or side is None or side[0] == "nobody":
        return None
    loser = players[1] if players[0] == winner else players[0]
    return f"{winner if side[0] == 'winner' else loser} {translate(lang)(side[2])}"


# The table page's steps that a match result entered on the phone takes too
# (:mod:`tally.web.results`).
match_of_table = _match_id
acting_at_table = _acting
change_at_table = _change
back_to_table = _done
how_it_ended = _how
tap_of = _tap
