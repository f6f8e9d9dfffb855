"""What a command loads: a match's row and its deals, derived through the engine.

Nothing here touches the database: :func:`derive` rebuilds each deal's record from its
actions, rules it (:func:`tally.ruling.rule`, with a small cache of recent rulings), follows
dealers and the carry through the match, and builds the plain views of a deal and a match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from tally.cards import Card
from tally.errors import BadRecord, NotFound, Refused, RulesError
from tally.match import MATCH_RESULT, DealResult, MatchState, score_match
from tally.notation import DealRecord
from tally.rules import RuleSet
from tally.ruling import Ruling, lay_out, rule
from tally.store.caching import BoundedCache
from tally.store.dealviews import (
    DealView,
    MatchView,
    MoveView,
    TableView,
    TrickView,
    ViolationView,
)
from tally.store.records import StoredDeal, build_record
from tally.vocabulary import MATCH_SCORED, QUICK_DRAWN, QUICK_WON


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
        raise NotFound(f"player #{player_id} does not play in match {self.id}")

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
        raise NotFound(f"deal {deal_id} is not in match {self.match.id}")

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
        raise Refused(str(exc)) from None


#: Rulings of records already ruled in this process, by their content: a recording session
#: replays only the deal that changed, not the whole match, on each action. Shared by the
#: threads of ``tally serve``.
RULINGS: BoundedCache[tuple[Any, ...], tuple[DealRecord, Ruling]] = BoundedCache(512)


def _rule_stored(match: MatchRow, deal: StoredDeal, dealer: str, forehand: str,
                 carry: int) -> tuple[DealRecord, Ruling]:
    key = (match.spec, dealer, forehand, carry, deal.turn_up,
           tuple(sorted(deal.tags.items())), tuple(deal.actions))

    def ruled() -> tuple[DealRecord, Ruling]:
        record = build_record(deal, match.spec, dealer, forehand, carry)
        return record, rule(record)

    return RULINGS.get(key, ruled)


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
            raise Refused(f"deal {match.id}.{deal.number} comes after the end of the match "
                          f"({before.winner} won)")
        if before.in_progress:
            raise Refused(f"deal {match.id}.{deal.number} comes after deal "
                          f"{match.id}.{deal.number - 1}, which is not finished")
        dealer = before.next_dealer or first
        forehand = match.b if dealer == match.a else match.a
        derived = _derived_deal(match, deal, dealer, forehand, before.carry)
        out.append(derived)
        results.append(derived.result)
    state = score_match(rules, match.players, first, results)
    return Loaded(match, tuple(out), state)


def _derived_deal(match: MatchRow, deal: StoredDeal, dealer: str, forehand: str,
                  carry: int) -> Derived:
    """One deal with its ruling (a recorded deal) or its stored result (a quick one)."""
    if deal.kind == "quick":
        winner = None if deal.quick_winner_id is None else match.name(deal.quick_winner_id)
        result = DealResult(winner, deal.quick_points or 0, deal.quick_reason or "draw")
        return Derived(deal, dealer, forehand, carry, None, None, result)
    record, ruling = _rule_stored(match, deal, dealer, forehand, carry)
    if ruling.errors or ruling.outcome is None:
        raise BadRecord(f"{match.id}.{deal.number}", ruling.errors[0].words if ruling.errors
                        else "no ruling")
    result = DealResult(ruling.outcome.winner, ruling.deal_points, ruling.outcome.reason)
    return Derived(deal, dealer, forehand, carry, record, ruling, result)


def rederive_last(loaded: Loaded, changed: StoredDeal) -> Loaded:
    """``loaded`` with its last deal replaced by ``changed``: the deals before it, and so its
    dealer and carry, stay as they are."""
    last = loaded.deals[-1]
    m = loaded.match
    deals = (*loaded.deals[:-1],
             _derived_deal(m, changed, last.dealer, last.forehand, last.carry_in))
    state = score_match(m.rules, m.players, m.name(m.first_dealer_id),
                        [d.result for d in deals])
    return Loaded(m, deals, state)


def _violations(ruling: Ruling | None) -> tuple[ViolationView, ...]:
    if ruling is None:
        return ()
    return tuple(ViolationView(v.trick, v.player, v.rule, v.message) for v in ruling.violations)


def table_view(record: DealRecord | None) -> TableView | None:
    """How a recorded deal lies on the table (:func:`tally.ruling.lay_out`), cards as
    tokens; None for a quick deal."""
    laid = lay_out(record) if record is not None else None
    if laid is None:
        return None

    def token(card: Card | None) -> str | None:
        return None if card is None else str(card)

    tricks = tuple(TrickView(t.number, t.leader, token(t.lead), token(t.follow), t.winner,
                             tuple(MoveView(m.player, m.kind, token(m.card), token(m.taken),
                                            m.points, m.after_trick) for m in t.moves))
                   for t in laid.tricks)
    return TableView(tricks, token(laid.lead), token(laid.face_up), laid.closer,
                     laid.exhausted, laid.stock_left, laid.leader, laid.last_draw)


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
        explanation = ru.explanation
        tricks = dict(ru.tricks)
    else:
        explanation = (MATCH_SCORED % {"winner": ds.winner, "points": ds.deal_points}
                       if ds.reason == MATCH_RESULT else
                       QUICK_WON % {"winner": ds.winner, "reason": ds.reason} if ds.winner
                       else QUICK_DRAWN)
        tricks = {}
    return DealView(
        id=d.deal.id, match_id=loaded.match.id, number=ds.number, kind=d.deal.kind,
        dealer=ds.dealer, forehand=ds.forehand, turn_up=d.deal.turn_up, winner=ds.winner,
        reason=ds.reason, deal_points=ds.deal_points, carry_in=ds.carry_in,
        game_points=ds.game_points, carry_out=ds.carry_out, score_after=dict(ds.score_after),
        explanation=explanation, violations=_violations(ru), tricks=tricks,
        points=dict(ru.points) if ru is not None and (over or referee) else None,
        actions=len(d.deal.actions), to_move=to_move, to_move_as=to_move_as,
        trick=engine_deal.trick if engine_deal is not None else 0,
        claimable=(engine_deal is not None and engine_deal.all_tricks_played
                   and not engine_deal.claimed),
        last_action=d.deal.actions[-1][2] if d.deal.actions else None,
        table=table_view(d.record) if table else None)


def view_of_match(loaded: Loaded, referee: bool = False) -> MatchView:
    m, s = loaded.match, loaded.state
    last = len(loaded.deals) - 1
    deals = tuple(view_of_deal(loaded, i, referee, table=i == last) for i in range(last + 1))
    current = deals[-1].id if deals and s.in_progress else None
    return MatchView(id=m.id, players=m.players, rules=m.spec,
                     first_dealer=m.name(m.first_dealer_id), created_at=iso_time(m.created_at),
                     event_id=m.event_id, target=s.target, deals=deals, score=dict(s.score),
                     carry=s.carry, next_dealer=s.next_dealer, winner=s.winner, over=s.over,
                     current_deal=current, round=m.round_number, table=m.table_number)


def iso_time(at: datetime) -> str:
    return at.astimezone(UTC).isoformat()


def keep_dealers(before: dict[int, str], after: Loaded) -> None:
    """Refuse a change that makes another player the dealer of a deal already stored (with
    next_dealer=winner a changed result does): its record would describe other play."""
    for role, d in zip(after.dealer_roles().values(), after.deals, strict=True):
        if before.get(d.deal.id, role) != role:
            raise Refused(f"the change would make another player the dealer of deal "
                          f"{after.match.id}.{d.deal.number} (next_dealer=winner): delete the "
                          "later deals first")
