"""A mark on every phase-2 decision of a record, as chess annotators mark moves.

For each recorded phase-2 card, each claim, each moment a correct claim was possible but not
made (between tricks, or right after declaring a marriage), the exact value before the
decision (best play on both sides from there) and after it (best play from the position the
decision left), both in game points for the player who decided, with both hands known. When
the record does not prove both hands, each figure is the mean over the sampled deals.

A decision that lost 1 game point or more is marked ``?``, 2 or more ``??``. Best play means
**correct claims only**: a false claim is a violation and never part of it, even where it
would cost less (RULES.md section 8: the opponent scores ``false_claim_points``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from tally.analysis.solver import Judge, Position, play

#: What a recorded phase-2 action is: a card (with the marriage declared with it), a marriage
#: declared to claim at once (no card led), or a claim.
EventKind = Literal["card", "declare", "claim"]
#: What a mark judges.
MarkKind = Literal["card", "claim", "no-claim", "close", "no-close", "exchange", "no-exchange"]


@dataclass(frozen=True)
class Event:
    """One recorded action of phase 2, by player index: ``card`` and the ``marriage`` declared
    with it (cards, declarations); ``correct`` and ``value``, a false claim's game points for
    the opponent (claims)."""

    kind: EventKind
    trick: int
    player: int
    card: int = -1
    marriage: int = 0
    correct: bool = True
    value: int = 0


@dataclass(frozen=True)
class Mark:
    """One decision: who, what, the value before and after it for that player."""

    trick: int
    player: str
    kind: MarkKind
    action: str
    before: float
    after: float
    #: the value after the decision for the first player of the record (the forehand)
    forehand_after: float
    #: the values rest on playing on estimated by the rollout, not solved (a close or a chance
    #: to close at the first three leads of Sixty-Six and pagat-66: tally.analysis.closing)
    estimated: bool = False
    #: the choice that kept the value before (``9S``, ``claim``, ``close``, ``no close``), where
    #: the decision lost (a ``?`` or ``??``); "" where it is the one made
    best_action: str = ""
    #: a phase-1 lead or exchange (:mod:`tally.analysis.phase1`): the orders of the face-down
    #: stock its values are means over (0: not such a mark), whether they are all the orders
    #: there are (else sampled), and the 95% interval of the loss over them
    orders: int = 0
    all_orders: bool = True
    loss_low: float = 0.0
    loss_high: float = 0.0

    @property
    def loss(self) -> float:
        """Game points the decision gave away (0 when it kept the value)."""
        return max(0.0, round(self.before - self.after, 6))

    @property
    def symbol(self) -> str:
        """``??`` for a loss of 2 or more, ``?`` for 1 or more, else nothing."""
        return "??" if self.loss >= 2 else "?" if self.loss >= 1 else ""

    def as_json(self) -> dict[str, object]:
        """The mark as ``tally analyse --json`` prints it: the fields, its loss and symbol."""
        return {
            "trick": self.trick,
            "player": self.player,
            "kind": self.kind,
            "action": self.action,
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "forehand_after": round(self.forehand_after, 4),
            "loss": round(self.loss, 4),
            "mark": self.symbol,
            "estimated": self.estimated,
            "best": self.best_action,
        } | (
            {
                "orders": self.orders,
                "all_orders": self.all_orders,
                "loss_low": round(self.loss_low, 4),
                "loss_high": round(self.loss_high, 4),
            }
            if self.orders
            else {}
        )


def lost_by(found: Sequence[Mark], player: str) -> dict[str, float]:
    """Game points ``player`` lost to closes, to claims and to card play, over ``found``."""
    out = {"closes": 0.0, "claims": 0.0, "cards": 0.0}
    area = {
        "close": "closes",
        "no-close": "closes",
        "claim": "claims",
        "no-claim": "claims",
        "card": "cards",
        "exchange": "cards",
        "no-exchange": "cards",
    }
    for m in found:
        if m.player == player:
            out[area[m.kind]] += m.loss
    return {k: round(v, 4) for k, v in out.items()}


#: ``(trick, player, kind, action, before, after, position)`` of one decision in one deal,
#: values for player 0; the position a card was chosen in (None for claims).
_Raw = tuple[int, int, MarkKind, str, int, int, Position | None]


def card_name(card: int) -> str:
    """``AH``, ``10S``: a card number's name."""
    return ("9", "J", "Q", "K", "10", "A")[card % 6] + "CDHS"[card // 6]


def _claims_missed(
    judge: Judge, pos: Position, trick: int, out: list[_Raw], claimer: int | None
) -> None:
    """A ``no-claim`` for each player who could claim correctly here and did not."""
    for who in (pos.leader, 1 - pos.leader):
        if who != claimer and judge.can_claim(pos, who):
            out.append(
                (
                    trick,
                    who,
                    "no-claim",
                    "no claim",
                    judge.claim(pos, who),
                    judge.declined(pos, who),
                    None,
                )
            )


def _lead(judge: Judge, pos: Position, ev: Event, out: list[_Raw]) -> Position:
    """A led card: its mark, and a ``no-claim`` when its marriage reached 66 unclaimed."""
    move = (ev.card, ev.marriage)
    name = card_name(ev.card) + (f" ({ev.marriage})" if ev.marriage else "")
    led = judge.lead(pos, move)
    out.append((ev.trick, ev.player, "card", name, judge.play_on(pos), led, pos))
    after = play(pos, move)
    if (
        ev.marriage
        and pos.tricks[ev.player]
        and judge.can_claim(replace(after, lead=None, leader=ev.player), ev.player)
    ):
        out.append((ev.trick, ev.player, "no-claim", "no claim", led, judge.value(after), None))
    return after


def decisions(start: Position, events: Sequence[Event], judge: Judge) -> list[_Raw]:
    """Every decision of one deal (both hands known) with its values for player 0."""
    out: list[_Raw] = []
    pos = start
    for ev in events:
        between = pos.lead is None
        if between and ev.kind != "claim":
            _claims_missed(judge, pos, ev.trick, out, None)
        if ev.kind == "claim":
            if between:
                _claims_missed(judge, pos, ev.trick, out, ev.player)
            best = judge.value(pos)
            got = (
                judge.claim(pos, ev.player)
                if ev.correct
                else (-ev.value if ev.player == 0 else ev.value)
            )
            out.append((ev.trick, ev.player, "claim", "claim", best, got, None))
            return out
        if ev.kind == "declare":
            marriages = list(pos.marriages)
            marriages[ev.player] += ev.marriage
            pos = replace(pos, marriages=(marriages[0], marriages[1]))
        elif between:
            pos = _lead(judge, pos, ev, out)
        else:
            after = play(pos, (ev.card, 0))
            out.append(
                (
                    ev.trick,
                    ev.player,
                    "card",
                    card_name(ev.card),
                    judge.value(pos),
                    judge.value(after),
                    pos,
                )
            )
            pos = after
    if pos.lead is None and not (pos.hands[0] | pos.hands[1]) and events:
        # played out with no claim: a correct claim after the last trick was not made
        _claims_missed(judge, pos, events[-1].trick, out, None)
    return out


def marks(
    deals: Sequence[tuple[int, int]],
    start: Callable[[tuple[int, int]], Position],
    events: Sequence[Event],
    judge: Callable[[Position], Judge],
    names: tuple[str, str],
) -> tuple[Mark, ...]:
    """The marks of a record's phase 2 over ``deals`` (one known pair of hands, or samples):
    each figure the mean over the deals, for the player who decided; at a marked decision the
    choice that kept the most (:func:`_best`)."""
    runs = []
    judges = []
    for hands in deals:
        pos = start(hands)
        judges.append(judge(pos))
        runs.append(decisions(pos, events, judges[-1]))
    if not runs or any(len(r) != len(runs[0]) for r in runs):
        return ()
    n = len(runs)
    out = []
    for k, (trick, player, kind, action, _, _, _) in enumerate(runs[0]):
        before = sum(r[k][4] for r in runs) / n
        after = sum(r[k][5] for r in runs) / n
        sign = 1 if player == 0 else -1
        mark = Mark(trick, names[player], kind, action, sign * before, sign * after, after)
        if mark.symbol:
            mark = replace(
                mark,
                best_action=_best(
                    kind, [(j, r[k][6]) for j, r in zip(judges, runs, strict=True)], player
                ),
            )
        out.append(mark)
    return tuple(out)


def _best(kind: MarkKind, at: list[tuple[Judge, Position | None]], player: int) -> str:
    """The choice that kept the most for ``player`` on average over the deals: a card (with
    its marriage) for a card, ``claim`` for a claim not made, ``no claim`` for a claim made
    (a false one), else ""."""
    if kind in ("no-claim", "claim"):
        return "claim" if kind == "no-claim" else "no claim"
    if kind != "card" or any(pos is None for _, pos in at):
        return ""
    totals: dict[tuple[int, int], int] = {}
    for judge, pos in at:
        assert pos is not None
        for move, value in judge.moves(pos).items():
            totals[move] = totals.get(move, 0) + (value if player == 0 else -value)
    card, marriage = max(totals, key=lambda m: (totals[m], -m[0]))
    return card_name(card) + (f" ({marriage})" if marriage else "")
