"""The route of a recorded card, second step: what is derived from the stored deals and kept.

- Stored deals as records (:class:`StoredDeal`, :func:`build_record`, :func:`place_items`,
  :func:`stored_form`): a deal row and its actions made a ``.deal`` record and back.
- A match derived through the engine (:func:`derive`): each deal's record rebuilt from its
  actions and ruled (:func:`tally.engine.ruling.rule`, with a small cache of recent rulings),
  dealers and the carry followed through the match, the plain views of a deal and a match built.
- The rows of a match read and written through SQLAlchemy Core (:func:`load_derived`,
  :func:`lock_match`, :func:`write_deal_row`...).
- The result cache (``deal_results``): each deal's ruling kept in a row, rewritten in the same
  transaction as every change to a match's deals, stamped with :data:`RESULTS_VERSION` (the
  engine's :data:`tally.engine.ruling.RULINGS_VERSION`): a cache filled under another version is
  rebuilt before it is read (:meth:`Results.ensure`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection

from tally.engine.cards import Card
from tally.engine.match import MATCH_RESULT, DealResult, MatchState, score_match
from tally.engine.notation import (
    ClaimItem,
    CloseItem,
    DealRecord,
    Item,
    TrickLine,
    add_items,
    line_is_complete,
    read_hands,
    read_items,
)
from tally.engine.rules import RuleSet
from tally.engine.ruling import RULINGS_VERSION, Ruling, lay_out, rule
from tally.errors import (
    HEADED,
    N_,
    BadRecord,
    Message,
    NotationError,
    NotFound,
    Refused,
    RulesError,
)
from tally.names import Candidate, matches, resolve_among
from tally.store import tables as t
from tally.store.caching import BoundedCache
from tally.store.transactions import snapshot_of
from tally.store.views import DealView, MatchView, MoveView, TableView, TrickView, ViolationView
from tally.vocabulary import MATCH_SCORED, QUICK_DRAWN, QUICK_WON

if TYPE_CHECKING:
    from tally.store.transactions import Database


# --- stored deals as records ------------------------------------------------------------------

#: tags a stored deal derives from its match and position; all others are kept as given
DERIVED_TAGS = ("Rules", "Dealer", "Forehand", "Trump", "Carry")


@dataclass
class StoredDeal:
    """A deal row with its actions ``(seq, trick, token)`` in order."""

    id: int
    match_id: int
    number: int
    kind: str
    turn_up: str | None
    quick_winner_id: int | None
    quick_points: int | None
    quick_reason: str | None
    tags: dict[str, str]
    created_at: datetime
    actions: list[tuple[int, int, str]] = field(default_factory=list)


@lru_cache(maxsize=512)
def token_items(token: str) -> tuple[Item, ...]:
    """The notation items of a stored token (one, but ``20 QC`` is read as a pair of words)."""
    return tuple(read_items(token))


@dataclass(frozen=True)
class CloseBeforeDraw:
    """``close-before-draw`` typed by a scorer: the winner of the trick just finished closes
    the stock before anyone draws. Stored as ``close`` on that trick's line (NOTATION.md)."""

    def __str__(self) -> str:
        return "close-before-draw"


#: what a scorer may type for a close before the draws (any case)
CLOSE_BEFORE_DRAW_WORDS = ("close-before-draw", "cbd")

#: an item as a scorer types it: a notation item, or the explicit close before the draws
ScorerItem = Item | CloseBeforeDraw


def parse_items(text: str) -> list[ScorerItem]:
    """Items typed by a scorer, ``"20 QC KD"``; the error names the word, not a line.

    ``close-before-draw`` (or ``cbd``) is the trick's winner closing before the draws;
    everything else is read as notation (:func:`tally.engine.notation.read_items`).

    >>> [str(i) for i in parse_items("KS AS cbd 10c")]
    ['KS', 'AS', 'close-before-draw', '10C']
    """
    out: list[ScorerItem] = []
    words: list[str] = []
    for word in [*text.split(), None]:
        if word is not None and word.casefold() not in CLOSE_BEFORE_DRAW_WORDS:
            words.append(word)
            continue
        if words:
            try:
                out.extend(read_items(" ".join(words)))
            except NotationError as exc:
                raise NotationError(exc.bare) from None
            words = []
        if word is not None:
            out.append(CloseBeforeDraw())
    return out


def build_record(
    deal: StoredDeal, rules: str, dealer: str, forehand: str, carry: int
) -> DealRecord:
    """The ``.deal`` record of a stored deal; Dealer, Forehand and Carry come from the match."""
    tags = {"Rules": rules, "Dealer": dealer, "Forehand": forehand, "Trump": deal.turn_up or ""}
    if carry:
        tags["Carry"] = str(carry)
    for name, value in deal.tags.items():
        tags.setdefault(name, value)
    lines: dict[int, list[Item]] = {}
    for _seq, trick, token in deal.actions:
        lines.setdefault(trick, []).extend(token_items(token))
    return DealRecord(tags, [TrickLine(n, tuple(items)) for n, items in sorted(lines.items())])


def flatten(record: DealRecord) -> list[tuple[int, Item]]:
    """Every item of a record with its trick line, in play order."""
    return [(tl.number, item) for tl in record.tricks for item in tl.items]


def place_items(record: DealRecord, items: Iterable[ScorerItem], rules: RuleSet) -> DealRecord:
    """``record`` with ``items`` added where the scorer means them (:func:`add_items`).

    ``close`` typed at the lead (the last trick finished, no card on the next one yet) is the
    leader's close *after* the draws: it opens the next trick's line (``7. close``), as the
    players see it at the table: they have drawn, they close now. Closing before the draws
    is typed explicitly, ``close-before-draw`` (:class:`CloseBeforeDraw`), and goes on the
    finished trick's line (``6. KS AS close``); it is refused where no trick has just been
    finished. ``rules`` is kept for callers; whether a close is allowed is the engine's
    ruling.
    """
    del rules  # the engine rules on the close; placement no longer depends on the rule set
    for item in items:
        last = record.tricks[-1] if record.tricks else None
        at_lead = (
            last is not None
            and line_is_complete(last.items)
            and not any(isinstance(i, ClaimItem) for i in last.items)
        )
        if isinstance(item, CloseBeforeDraw):
            if last is None or not at_lead:
                raise Refused(
                    Message(
                        HEADED,
                        head="close-before-draw",
                        message=Message(
                            N_(
                                "a close before the draws comes right after a trick's second "
                                "card (type close to close at the lead)"
                            )
                        ),
                    )
                )
            record = replace(
                record,
                tricks=[
                    *record.tricks[:-1],
                    TrickLine(last.number, (*last.items, CloseItem()), last.line),
                ],
            )
        elif isinstance(item, CloseItem) and last is not None and at_lead:
            record = replace(record, tricks=[*record.tricks, TrickLine(last.number + 1, (item,))])
        else:
            record = add_items(record, [item])
    return record


def stored_form(record: DealRecord) -> tuple[str, dict[str, str], list[tuple[int, int, str]]]:
    """What is stored of a record: the canonical turn-up, the kept tags and the actions."""
    trump = record.tags.get("Trump", "")
    try:
        turn_up = str(Card.parse(trump))
    except NotationError:
        turn_up = trump.strip()
    tags = {k: v for k, v in record.tags.items() if k not in DERIVED_TAGS}
    actions = [
        (seq, trick, str(item)) for seq, (trick, item) in enumerate(flatten(record), start=1)
    ]
    return turn_up, tags, actions


def _renamed_item(item: Item, rename: Callable[[str], str]) -> Item:
    if isinstance(item, ClaimItem) and item.player is not None:
        return ClaimItem(rename(item.player))
    return item


def renamed_tags(tags: dict[str, str], rename: Callable[[str], str]) -> dict[str, str]:
    """``tags`` with the player names in Dealer, Forehand, Hands, Remaining and Result passed
    through ``rename``; values that cannot be read are left for the ruling to report."""
    out = dict(tags)
    for tag in ("Dealer", "Forehand"):
        if tag in out:
            out[tag] = rename(out[tag].strip())
    for tag in ("Hands", "Remaining"):
        if tag in out:
            try:
                hands = read_hands(out[tag])
            except NotationError:
                continue
            out[tag] = "; ".join(
                f"{rename(n)}: {' '.join(str(c) for c in cards)}" for n, cards in hands
            )
    if "Result" in out and out["Result"].strip().lower() != "draw":
        name, _, points = out["Result"].strip().rpartition(" ")
        if name.strip() and points.isdigit():
            out["Result"] = f"{rename(name.strip())} {points}"
    return out


def rename_in_record(record: DealRecord, rename: Callable[[str], str]) -> DealRecord:
    """A copy of ``record`` with player names (tags, ``66@Name``) passed through ``rename``;
    line numbers are kept for messages."""
    tricks = [
        TrickLine(tl.number, tuple(_renamed_item(i, rename) for i in tl.items), tl.line)
        for tl in record.tricks
    ]
    return DealRecord(
        renamed_tags(record.tags, rename),
        tricks,
        dict(record.tag_lines),
        list(record.header),
        record.source,
    )


def rename_in_deal(deal: StoredDeal, rename: Callable[[str], str]) -> StoredDeal:
    """A copy of a stored deal with player names in its claims and tags passed through
    ``rename`` (for a renamed or merged player)."""
    actions = []
    for seq, trick, token in deal.actions:
        items = token_items(token)
        if len(items) == 1 and isinstance(items[0], ClaimItem):
            token = str(_renamed_item(items[0], rename))
        actions.append((seq, trick, token))
    return replace(deal, actions=actions, tags=renamed_tags(deal.tags, rename))


def _as_candidates(players: Sequence[str | Candidate]) -> list[Candidate]:
    return [p if isinstance(p, Candidate) else Candidate(None, p) for p in players]


def name_matcher(players: Sequence[str | Candidate]) -> Callable[[str], str]:
    """A function giving the stored spelling of a match's player named in a record or
    typed by a scorer: any case, accents, a unique prefix or first name, and (given as
    :class:`~tally.names.Candidate`) an alias or number (:func:`tally.names.matches`).

    Names that fit neither player, or both, come back unchanged (the caller or the engine
    reports them).
    """
    pool = _as_candidates(players)

    def match(name: str) -> str:
        found = matches(name, pool)
        return found[0].name if len(found) == 1 else name

    return match


def claimers_known(
    items: Iterable[ScorerItem], players: Sequence[str | Candidate]
) -> list[ScorerItem]:
    """``items`` with ``66@name`` spelt as the player is stored; the claimer is found among
    the match's two players as :func:`tally.names.resolve_among` finds them (``66@Eva``
    for Eva Maria Koch, ``66@2`` for player #2 when the players come with their numbers);
    refuses unknown or ambiguous claimers."""
    pool = _as_candidates(players)
    out: list[ScorerItem] = []
    for item in items:
        if isinstance(item, ClaimItem) and item.player is not None:
            try:
                item = ClaimItem(resolve_among(item.player, pool).name)
            except NotFound as exc:
                raise Refused(
                    Message(HEADED, head=f"66@{item.player}", message=exc.wording)
                ) from None
        out.append(item)
    return out


# --- a match derived through the engine ----------------------------------------------------


@dataclass(frozen=True)
class MatchRow:
    id: int
    a_id: int
    b_id: int
    a: str
    b: str
    spec: str
    first_dealer_id: int
    created_at: datetime
    event_id: int | None
    round_number: int | None
    table_number: int | None

    @property
    def players(self) -> tuple[str, str]:
        return (self.a, self.b)

    @property
    def rules(self) -> RuleSet:
        return rule_set(self.spec)

    def name(self, player_id: int) -> str:
        if player_id == self.a_id:
            return self.a
        if player_id == self.b_id:
            return self.b
        raise NotFound(
            Message(
                N_("player #%(id)s does not play in match %(match)s"), id=player_id, match=self.id
            )
        )

    def player_id(self, name: str) -> int:
        return self.a_id if name == self.a else self.b_id


@dataclass(frozen=True)
class Derived:
    """A stored deal with what the engine makes of it."""

    deal: StoredDeal
    dealer: str
    forehand: str
    carry_in: int
    record: DealRecord | None
    ruling: Ruling | None
    result: DealResult


@dataclass(frozen=True)
class Loaded:
    match: MatchRow
    deals: tuple[Derived, ...]
    state: MatchState

    def index(self, deal_id: int) -> int:
        for i, d in enumerate(self.deals):
            if d.deal.id == deal_id:
                return i
        raise NotFound(
            Message(
                N_("deal %(deal)s is not in match %(match)s"), deal=deal_id, match=self.match.id
            )
        )

    def dealer_roles(self) -> dict[int, str]:
        return {d.deal.id: "a" if d.dealer == self.match.a else "b" for d in self.deals}


@lru_cache(maxsize=64)
def rule_set(spec: str) -> RuleSet:
    """The rule set of a stored spec (parsed once per spec: specs repeat on every match)."""
    return RuleSet.parse(spec)


def checked_rules(rules: str) -> str:
    """The canonical spec of a rule set typed by a user; refused when it cannot be read."""
    try:
        return RuleSet.parse(rules).spec
    except RulesError as exc:
        raise Refused(exc.wording) from None


#: Rulings of records already ruled in this process, by their content: a recording session
#: replays only the deal that changed, not the whole match, on each action. Shared by the
#: threads of ``tally serve``: room for every deal of 128 tables' matches and the positions
#: they move through (about 10 KB a ruling, 40 MB full), so that a busy evening re-rules no
#: deal it ruled already. Only deals as stored are kept, never a candidate tried
#: (:func:`tried_ruling`).
RULINGS: BoundedCache[tuple[Any, ...], tuple[DealRecord, Ruling]] = BoundedCache(4096)


def ruling_key(
    match: MatchRow, deal: StoredDeal, dealer: str, forehand: str, carry: int
) -> tuple[Any, ...]:
    """What a deal's ruling depends on: equal keys, equal records, equal rulings."""
    return (
        match.spec,
        dealer,
        forehand,
        carry,
        deal.turn_up,
        tuple(sorted(deal.tags.items())),
        tuple(deal.actions),
    )


def _rule_stored(
    match: MatchRow, deal: StoredDeal, dealer: str, forehand: str, carry: int
) -> tuple[DealRecord, Ruling]:
    key = ruling_key(match, deal, dealer, forehand, carry)
    return RULINGS.get(key, lambda: _ruled(match, deal, dealer, forehand, carry))


def _ruled(
    match: MatchRow, deal: StoredDeal, dealer: str, forehand: str, carry: int
) -> tuple[DealRecord, Ruling]:
    record = build_record(deal, match.spec, dealer, forehand, carry)
    return record, rule(record)


def tried_ruling(loaded: Loaded, changed: StoredDeal) -> Ruling | None:
    """The ruling of ``loaded``'s last deal were it ``changed`` (a candidate tried: not kept
    in :data:`RULINGS`, where it would push out the deals as stored); None when the record
    would be impossible (what :func:`rederive_last` refuses)."""
    last = loaded.deals[-1]
    ruling = _ruled(loaded.match, changed, last.dealer, last.forehand, last.carry_in)[1]
    return None if ruling.errors or ruling.outcome is None else ruling


def derive(match: MatchRow, deals: Sequence[StoredDeal]) -> Loaded:
    """Rule on every deal of a match in order; raises :class:`Refused` when they do not fit
    together (a record with errors, a deal after the end of the match...)."""
    rules = match.rules
    first = match.name(match.first_dealer_id)
    results: list[DealResult] = []
    out: list[Derived] = []
    for deal in deals:
        before = score_match(rules, match.players, first, results)
        if before.over:
            raise Refused(
                Message(
                    N_("deal %(deal)s comes after the end of the match (%(winner)s won)"),
                    deal=f"{match.id}.{deal.number}",
                    winner=before.winner,
                )
            )
        if before.in_progress:
            raise Refused(
                Message(
                    N_("deal %(deal)s comes after deal %(before)s, which is not finished"),
                    deal=f"{match.id}.{deal.number}",
                    before=f"{match.id}.{deal.number - 1}",
                )
            )
        dealer = before.next_dealer or first
        forehand = match.b if dealer == match.a else match.a
        derived = _derived_deal(match, deal, dealer, forehand, before.carry)
        out.append(derived)
        results.append(derived.result)
    state = score_match(rules, match.players, first, results)
    return Loaded(match, tuple(out), state)


def _derived_deal(
    match: MatchRow, deal: StoredDeal, dealer: str, forehand: str, carry: int
) -> Derived:
    """One deal with its ruling (a recorded deal) or its stored result (a quick one)."""
    if deal.kind == "quick":
        winner = None if deal.quick_winner_id is None else match.name(deal.quick_winner_id)
        result = DealResult(winner, deal.quick_points or 0, deal.quick_reason or "draw")
        return Derived(deal, dealer, forehand, carry, None, None, result)
    record, ruling = _rule_stored(match, deal, dealer, forehand, carry)
    if ruling.errors or ruling.outcome is None:
        raise BadRecord(
            f"{match.id}.{deal.number}",
            ruling.errors[0].words if ruling.errors else Message(N_("no ruling")),
        )
    result = DealResult(ruling.outcome.winner, ruling.deal_points, ruling.outcome.reason)
    return Derived(deal, dealer, forehand, carry, record, ruling, result)


def rederive_last(loaded: Loaded, changed: StoredDeal) -> Loaded:
    """``loaded`` with its last deal replaced by ``changed``: the deals before it, and so its
    dealer and carry, stay as they are."""
    last = loaded.deals[-1]
    m = loaded.match
    deals = (
        *loaded.deals[:-1],
        _derived_deal(m, changed, last.dealer, last.forehand, last.carry_in),
    )
    state = score_match(m.rules, m.players, m.name(m.first_dealer_id), [d.result for d in deals])
    return Loaded(m, deals, state)


def _violations(ruling: Ruling | None) -> tuple[ViolationView, ...]:
    if ruling is None:
        return ()
    return tuple(
        ViolationView(v.trick, v.player, v.rule, v.message, v.wording) for v in ruling.violations
    )


def table_view(record: DealRecord | None) -> TableView | None:
    """How a recorded deal lies on the table (:func:`tally.engine.ruling.lay_out`), cards as
    tokens; None for a quick deal."""
    laid = lay_out(record) if record is not None else None
    if laid is None:
        return None

    def token(card: Card | None) -> str | None:
        return None if card is None else str(card)

    tricks = tuple(
        TrickView(
            t.number,
            t.leader,
            token(t.lead),
            token(t.follow),
            t.winner,
            tuple(
                MoveView(m.player, m.kind, token(m.card), token(m.taken), m.points, m.after_trick)
                for m in t.moves
            ),
        )
        for t in laid.tricks
    )
    return TableView(
        tricks,
        token(laid.lead),
        token(laid.face_up),
        laid.closer,
        laid.exhausted,
        laid.stock_left,
        laid.leader,
        laid.last_draw,
    )


def view_of_deal(loaded: Loaded, index: int, referee: bool, *, table: bool = False) -> DealView:
    """The view of deal ``index``; with ``table``, how it lies on the table too."""
    d = loaded.deals[index]
    ds = loaded.state.deals[index]
    ru = d.ruling
    engine_deal = ru.state if ru is not None else None
    over = engine_deal.is_over if engine_deal is not None else True
    to_move = engine_deal.to_move if engine_deal is not None else None
    to_move_as = engine_deal.to_move_as if engine_deal is not None else None
    if ru is not None:
        explanation = ru.wording
        tricks = dict(ru.tricks)
    else:
        explanation = (
            Message(MATCH_SCORED, winner=ds.winner, points=ds.deal_points)
            if ds.reason == MATCH_RESULT
            else Message(QUICK_WON, winner=ds.winner, reason=Message(ds.reason))
            if ds.winner
            else Message(QUICK_DRAWN)
        )
        tricks = {}
    return DealView(
        id=d.deal.id,
        match_id=loaded.match.id,
        number=ds.number,
        kind=d.deal.kind,
        dealer=ds.dealer,
        forehand=ds.forehand,
        turn_up=d.deal.turn_up,
        winner=ds.winner,
        reason=ds.reason,
        deal_points=ds.deal_points,
        carry_in=ds.carry_in,
        game_points=ds.game_points,
        carry_out=ds.carry_out,
        score_after=dict(ds.score_after),
        explanation=str(explanation),
        wording=explanation,
        violations=_violations(ru),
        tricks=tricks,
        points=dict(ru.points) if ru is not None and (over or referee) else None,
        actions=len(d.deal.actions),
        to_move=to_move,
        to_move_as=to_move_as,
        trick=engine_deal.trick if engine_deal is not None else 0,
        claimable=(
            engine_deal is not None and engine_deal.all_tricks_played and not engine_deal.claimed
        ),
        last_action=d.deal.actions[-1][2] if d.deal.actions else None,
        table=table_view(d.record) if table else None,
    )


def view_of_match(loaded: Loaded, referee: bool = False) -> MatchView:
    m, s = loaded.match, loaded.state
    last = len(loaded.deals) - 1
    deals = tuple(view_of_deal(loaded, i, referee, table=i == last) for i in range(last + 1))
    current = deals[-1].id if deals and s.in_progress else None
    return MatchView(
        id=m.id,
        players=m.players,
        rules=m.spec,
        first_dealer=m.name(m.first_dealer_id),
        created_at=iso_time(m.created_at),
        event_id=m.event_id,
        target=s.target,
        deals=deals,
        score=dict(s.score),
        carry=s.carry,
        next_dealer=s.next_dealer,
        winner=s.winner,
        over=s.over,
        current_deal=current,
        round=m.round_number,
        table=m.table_number,
    )


#: a match, a deal that is not stored
NO_SUCH_MATCH = N_("there is no match %(match)s")
NO_SUCH_DEAL = N_("there is no deal %(deal)s")
NO_DEAL_NUMBER = N_("match %(match)s has no deal %(number)s")


def iso_time(at: datetime) -> str:
    return at.astimezone(UTC).isoformat()


def keep_dealers(before: dict[int, str], after: Loaded) -> None:
    """Refuse a change that makes another player the dealer of a deal already stored (with
    next_dealer=winner a changed result does): its record would describe other play."""
    for role, d in zip(after.dealer_roles().values(), after.deals, strict=True):
        if before.get(d.deal.id, role) != role:
            raise Refused(
                Message(
                    N_(
                        "the change would make another player the dealer of deal %(deal)s "
                        "(next_dealer=winner): delete the later deals first"
                    ),
                    deal=f"{after.match.id}.{d.deal.number}",
                )
            )


# --- the rows of a match -------------------------------------------------------------------

_DEAL_REF = re.compile(r"\s*([0-9]+)\s*\.\s*([0-9]+)\s*")

_pa, _pb = t.players.alias("pa"), t.players.alias("pb")
_MATCH_ROWS = (
    select(
        t.matches.c.id,
        t.matches.c.player_a_id,
        t.matches.c.player_b_id,
        _pa.c.name.label("a"),
        _pb.c.name.label("b"),
        t.matches.c.rules,
        t.matches.c.first_dealer_id,
        t.matches.c.created_at,
        t.matches.c.event_id,
        t.matches.c.round_number,
        t.matches.c.table_number,
    )
    .join_from(t.matches, _pa, _pa.c.id == t.matches.c.player_a_id)
    .join(_pb, _pb.c.id == t.matches.c.player_b_id)
)
_ACTION_ROWS = select(t.actions.c.deal_id, t.actions.c.seq, t.actions.c.trick, t.actions.c.token)
# The queries of a tap (a phone's card: read the match, then write it), made once: a statement
# built for each call costs more than the database's answer to it.
_MATCH_ROW = _MATCH_ROWS.where(t.matches.c.id == bindparam("m"))
_DEALS_OF_MATCH = (
    select(t.deals).where(t.deals.c.match_id == bindparam("m")).order_by(t.deals.c.number)
)
_ACTIONS_OF_MATCH = (
    _ACTION_ROWS.join_from(t.actions, t.deals, t.deals.c.id == t.actions.c.deal_id)
    .where(t.deals.c.match_id == bindparam("m"))
    .order_by(t.actions.c.deal_id, t.actions.c.seq)
)
_INSERT_ACTIONS = insert(t.actions)
_LOCK_MATCH = select(t.matches.c.id).where(t.matches.c.id == bindparam("m")).with_for_update()


def utc_now() -> datetime:
    """The time stamp every stored row and audit entry gets (UTC)."""
    return datetime.now(UTC)


def lock_match(conn: Connection, match_id: int, missing_ok: bool = False) -> None:
    """Lock a match's row until the transaction ends (``SELECT ... FOR UPDATE`` on
    PostgreSQL). On SQLite every write transaction holds the database's write lock already
    (``BEGIN IMMEDIATE``)."""
    if conn.dialect.name == "sqlite":
        return
    found = conn.execute(_LOCK_MATCH, {"m": match_id}).first()
    if found is None and not missing_ok:
        raise NotFound(Message(NO_SUCH_MATCH, match=match_id))


def load_match(conn: Connection, match_id: int) -> MatchRow:
    """A match's row with its players' names."""
    row = conn.execute(_MATCH_ROW, {"m": match_id}).first()
    if row is None:
        raise NotFound(Message(NO_SUCH_MATCH, match=match_id))
    return MatchRow(*row)


def stored_deal(row: Any) -> StoredDeal:
    """A deal from its row (the columns of ``deals`` in their order), without its actions."""
    (
        deal_id,
        match_id,
        number,
        kind,
        turn_up,
        quick_winner_id,
        quick_points,
        quick_reason,
        tags,
        created_at,
    ) = row
    return StoredDeal(
        deal_id,
        match_id,
        number,
        kind,
        turn_up,
        quick_winner_id,
        quick_points,
        quick_reason,
        json.loads(tags or "{}"),
        created_at,
    )


def load_deals(conn: Connection, match_id: int) -> list[StoredDeal]:
    """A match's deals in order, with their actions."""
    deals = [stored_deal(r) for r in conn.execute(_DEALS_OF_MATCH, {"m": match_id})]
    by_id = {deal.id: deal for deal in deals}
    for deal_id, seq, trick, token in conn.execute(_ACTIONS_OF_MATCH, {"m": match_id}):
        by_id[deal_id].actions.append((seq, trick, token))
    return deals


def load_many(conn: Connection, match_ids: Sequence[int]) -> list[Loaded]:
    """Matches ``match_ids`` (in that order) with their deals, derived: three queries for
    them all, not three for each (an event's page of many rounds)."""
    if not match_ids:
        return []
    rows = {
        r[0]: MatchRow(*r) for r in conn.execute(_MATCH_ROWS.where(t.matches.c.id.in_(match_ids)))
    }
    deals: dict[int, list[StoredDeal]] = {mid: [] for mid in rows}
    by_id: dict[int, StoredDeal] = {}
    for r in conn.execute(
        select(t.deals).where(t.deals.c.match_id.in_(match_ids)).order_by(t.deals.c.number)
    ):
        deal = stored_deal(r)
        deals[deal.match_id].append(deal)
        by_id[deal.id] = deal
    for deal_id, seq, trick, token in conn.execute(
        _ACTION_ROWS.join_from(t.actions, t.deals, t.deals.c.id == t.actions.c.deal_id)
        .where(t.deals.c.match_id.in_(match_ids))
        .order_by(t.actions.c.deal_id, t.actions.c.seq)
    ):
        by_id[deal_id].actions.append((seq, trick, token))
    return [derive(rows[mid], deals[mid]) for mid in match_ids if mid in rows]


def load_derived(conn: Connection, match_id: int, lock: bool = False) -> Loaded:
    """A match (locked first when ``lock``) with its deals, derived through the engine; read
    and derived once in a snapshot (:meth:`tally.store.transactions.Database.snapshot`)."""
    if lock:
        lock_match(conn, match_id)
    snap = snapshot_of(conn)
    if snap is not None and match_id in snap.derived:
        return cast(Loaded, snap.derived[match_id])
    loaded = derive(load_match(conn, match_id), load_deals(conn, match_id))
    if snap is not None:
        snap.derived[match_id] = loaded
    return loaded


def load_deal(conn: Connection, deal_id: int, lock: bool = False) -> tuple[Loaded, int]:
    """The match of a deal, derived (locked first when ``lock``), and the deal's index."""
    match_id = conn.execute(
        select(t.deals.c.match_id).where(t.deals.c.id == deal_id)
    ).scalar_one_or_none()
    if match_id is None:
        raise NotFound(Message(NO_SUCH_DEAL, deal=deal_id))
    loaded = load_derived(conn, match_id, lock)
    return loaded, loaded.index(deal_id)


def insert_actions(conn: Connection, deal_id: int, actions: Sequence[tuple[int, int, str]]) -> None:
    """Insert actions ``(seq, trick, token)`` of a deal."""
    if actions:
        conn.execute(
            _INSERT_ACTIONS,
            [
                {"deal_id": deal_id, "seq": seq, "trick": trick, "token": token}
                for seq, trick, token in actions
            ],
        )


def resolve_deal(conn: Connection, ref: str | int) -> int:
    text = str(ref).strip()
    m = _DEAL_REF.fullmatch(text)
    if m:
        if max(len(m.group(1)), len(m.group(2))) > 18:  # beyond any id (2**63 - 1)
            raise NotFound(
                Message(NO_DEAL_NUMBER, match=_short(m.group(1)), number=_short(m.group(2)))
            )
        match_id, number = int(m.group(1)), int(m.group(2))
        found = conn.execute(
            select(t.deals.c.id).where(
                (t.deals.c.match_id == match_id) & (t.deals.c.number == number)
            )
        ).first()
        if found is None:
            raise NotFound(Message(NO_DEAL_NUMBER, match=match_id, number=number))
        return int(found[0])
    if not (text.isascii() and text.isdigit()):
        raise NotFound(
            Message(
                N_('"%(text)s" is not a deal: give its number (17) or MATCH.DEAL (3.2)'), text=text
            )
        )
    if len(text) > 18:  # beyond any id (2**63 - 1)
        raise NotFound(Message(NO_SUCH_DEAL, deal=_short(text)))
    found = conn.execute(select(t.deals.c.id).where(t.deals.c.id == int(text))).first()
    if found is None:
        raise NotFound(Message(NO_SUCH_DEAL, deal=text))
    return int(found[0])


def _short(digits: str) -> str:
    """A number for a message: a very long one abridged."""
    return digits if len(digits) <= 30 else f"{digits[:20]}... ({len(digits)} digits)"


def put_deal_row(conn: Connection, deal: StoredDeal, *, new: bool) -> int:
    """Write the ``deals`` row of ``deal`` (its columns but the id, the one place they are
    written): a ``new`` row (numbered ``deal.id``, or the next number when it is 0), else the
    row ``deal.id`` changed. Returns the row's id; the actions are the caller's."""
    values = {
        "match_id": deal.match_id,
        "number": deal.number,
        "kind": deal.kind,
        "turn_up": deal.turn_up,
        "quick_winner_id": deal.quick_winner_id,
        "quick_points": deal.quick_points,
        "quick_reason": deal.quick_reason,
        "tags": json.dumps(deal.tags, ensure_ascii=False),
        "created_at": deal.created_at,
    }
    if not new:
        conn.execute(update(t.deals).where(t.deals.c.id == deal.id).values(**values))
        return deal.id
    if deal.id:
        values["id"] = deal.id
    return int(conn.execute(insert(t.deals).values(**values).returning(t.deals.c.id)).scalar_one())


def write_deal_row(conn: Connection, deal: StoredDeal) -> None:
    """Make a stored deal's row and actions what ``deal`` says; actions already right keep
    their rows."""
    put_deal_row(conn, deal, new=False)
    stored = {
        seq: (trick, token)
        for seq, trick, token in conn.execute(
            select(t.actions.c.seq, t.actions.c.trick, t.actions.c.token).where(
                t.actions.c.deal_id == deal.id
            )
        )
    }
    wanted = {seq: (trick, token) for seq, trick, token in deal.actions}
    stale = [seq for seq in stored if seq not in wanted]
    if stale:
        conn.execute(
            delete(t.actions).where((t.actions.c.deal_id == deal.id) & t.actions.c.seq.in_(stale))
        )
    for seq, (trick, token) in wanted.items():
        if seq in stored and stored[seq] != (trick, token):
            conn.execute(
                update(t.actions)
                .where((t.actions.c.deal_id == deal.id) & (t.actions.c.seq == seq))
                .values(trick=trick, token=token)
            )
    insert_actions(
        conn, deal.id, [(seq, *wanted[seq]) for seq in sorted(wanted) if seq not in stored]
    )


def derive_all(conn: Connection) -> Iterator[Loaded]:
    """Every match, derived, read with three queries (not three per match); matches whose
    deals do not fit together are left out."""
    matches = [MatchRow(*row) for row in conn.execute(_MATCH_ROWS.order_by(t.matches.c.id))]
    deals: dict[int, list[StoredDeal]] = {}
    by_id: dict[int, StoredDeal] = {}
    for r in conn.execute(select(t.deals).order_by(t.deals.c.match_id, t.deals.c.number)):
        deal = stored_deal(r)
        deals.setdefault(deal.match_id, []).append(deal)
        by_id[deal.id] = deal
    for deal_id, seq, trick, token in conn.execute(
        _ACTION_ROWS.order_by(t.actions.c.deal_id, t.actions.c.seq)
    ):
        by_id[deal_id].actions.append((seq, trick, token))
    for match in matches:
        try:
            yield derive(match, deals.get(match.id, []))
        except Refused:
            continue


def aliases_of(
    conn: Connection, players: int | Sequence[int] | None = None
) -> dict[int, list[str]]:
    """The aliases of every player (or of one, or of those numbered), by player number, in
    the order of their keys."""
    q = select(t.player_aliases.c.player_id, t.player_aliases.c.alias).order_by(
        t.player_aliases.c.alias_key
    )
    if isinstance(players, int):
        q = q.where(t.player_aliases.c.player_id == players)
    elif players is not None:
        q = q.where(t.player_aliases.c.player_id.in_(players))
    out: dict[int, list[str]] = {}
    for pid, alias in conn.execute(q):
        out.setdefault(pid, []).append(alias)
    return out


def categories_of(
    conn: Connection, players: int | Sequence[int] | None = None
) -> dict[int, list[str]]:
    """The categories of every player (or of one, or of those numbered), by player number,
    in the order of their keys (``tally player category``)."""
    pc = t.player_categories
    q = select(pc.c.player_id, pc.c.category).order_by(pc.c.category_key)
    if isinstance(players, int):
        q = q.where(pc.c.player_id == players)
    elif players is not None:
        q = q.where(pc.c.player_id.in_(players))
    out: dict[int, list[str]] = {}
    for pid, category in conn.execute(q):
        out.setdefault(pid, []).append(category)
    return out


def match_ids_of(conn: Connection, player_id: int) -> list[int]:
    return list(
        conn.execute(
            select(t.matches.c.id)
            .where((t.matches.c.player_a_id == player_id) | (t.matches.c.player_b_id == player_id))
            .order_by(t.matches.c.id)
        ).scalars()
    )


# --- the result cache ------------------------------------------------------------------------

#: What the rows of the result cache depend on: the layout of a row (the number before the
#: colon, bumped when this module writes a row differently) and the engine's rulings
#: (:data:`tally.engine.ruling.RULINGS_VERSION`). A cache filled under another version is rebuilt
#: before it is read.
RESULTS_VERSION = f"1:rulings-{RULINGS_VERSION}"


DELETE_MATCH_RESULTS = delete(t.deal_results).where(t.deal_results.c.match_id == bindparam("m"))


DELETE_DEAL_RESULT = delete(t.deal_results).where(t.deal_results.c.deal_id == bindparam("d"))


_INSERT_RESULTS = insert(t.deal_results)


def result_rows(loaded: Loaded) -> list[dict[str, Any]]:
    """The result cache's rows of every deal of a derived match."""
    m = loaded.match
    return [
        {
            "deal_id": d.deal.id,
            "match_id": m.id,
            "winner_id": None if s.winner is None else m.player_id(s.winner),
            "deal_points": s.deal_points,
            "carry_in": s.carry_in,
            "game_points": s.game_points,
            "reason": s.reason,
        }
        for d, s in zip(loaded.deals, loaded.state.deals, strict=True)
    ]


def save_results(conn: Connection, loaded: Loaded, *, last_only: bool = False) -> None:
    """Rewrite the cached results of a match from its derivation ``loaded``.

    ``last_only`` when only the last deal changed (recording or undoing an action): the deals
    before it, and so their rows, are the same (:func:`rederive_last`); only its row is
    rewritten.
    """
    rows = result_rows(loaded)
    if last_only:
        if rows:
            conn.execute(DELETE_DEAL_RESULT, {"d": rows[-1]["deal_id"]})
            conn.execute(_INSERT_RESULTS, rows[-1:])
        return
    conn.execute(DELETE_MATCH_RESULTS, {"m": loaded.match.id})
    if rows:
        conn.execute(_INSERT_RESULTS, rows)


def rewrite_results(conn: Connection, match_id: int) -> None:
    """Derive a match from what is stored now and rewrite its cached results."""
    save_results(conn, load_derived(conn, match_id))


_SELECT_CACHE_VERSION = select(t.cache_state.c.version).where(
    t.cache_state.c.name == "deal_results"
)


class Results:
    """The result cache (``deal_results``): filled when this version of the engine's rulings did
    not fill it, rebuilt, and compared with a fresh derivation. Reached as ``store.results``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def ensure(self) -> int | None:
        """Fill the result cache unless this version of tally filled it: after an upgrade
        from a database without it, or from a tally whose rulings may differ. Returns the
        number of deals ruled, or None when the cache was up to date (one small query).

        Everything that reads the cache (standings, pairings, cross-tables) calls this first;
        ``tally init`` does too."""
        with self.store.reading() as conn:
            version = conn.execute(_SELECT_CACHE_VERSION).scalar_one_or_none()
        if version == RESULTS_VERSION:
            return None
        return self.rebuild()

    def rebuild(self) -> int:
        """Rebuild the whole result cache from the deals, in one transaction; returns the
        number of recording. A match whose deals no longer fit together gets no rows (it counts
        as unfinished) rather than stopping the rebuild."""
        with self.store.writing() as conn:
            if conn.dialect.name == "postgresql":
                # Writers (who all write the cache) wait until the rebuild is done; readers
                # do not. On SQLite, BEGIN IMMEDIATE has made every writer wait already.
                conn.exec_driver_sql("LOCK TABLE deal_results IN EXCLUSIVE MODE")
            found = conn.execute(_SELECT_CACHE_VERSION.with_for_update()).first()
            if found is None:
                conn.execute(insert(t.cache_state).values(name="deal_results", version=""))
            conn.execute(delete(t.deal_results))
            count = 0
            batch: list[dict[str, Any]] = []
            for loaded in derive_all(conn):
                batch.extend(result_rows(loaded))
                if len(batch) >= 5000:
                    conn.execute(_INSERT_RESULTS, batch)
                    count += len(batch)
                    batch = []
            if batch:
                conn.execute(_INSERT_RESULTS, batch)
                count += len(batch)
            conn.execute(
                update(t.cache_state)
                .where(t.cache_state.c.name == "deal_results")
                .values(version=RESULTS_VERSION)
            )
        return count

    def stale(self) -> list[int]:
        """The deals whose cached result differs from a fresh derivation of the stored deals
        (missing and extra rows included), by id; empty when the cache is right."""
        with self.store.reading() as conn:
            fresh = {
                row["deal_id"]: row for loaded in derive_all(conn) for row in result_rows(loaded)
            }
            cached = {
                row["deal_id"]: dict(row) for row in conn.execute(select(t.deal_results)).mappings()
            }
        return sorted(d for d in set(fresh) | set(cached) if fresh.get(d) != cached.get(d))
