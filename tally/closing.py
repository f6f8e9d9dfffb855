"""The decision to close: at a phase-1 lead, closing now against playing on.

Closing now is solved exactly (:mod:`tally.solver`) for each sampled deal. Playing on is
worth what a fixed rollout policy reaches before the stock is gone, then exact play from the
exhausted stock. The **rollout policy** (both players, phase 1, so no duty to follow):

- the leader leads its card worth the fewest points, a non-trump before a trump;
- the follower takes a lead worth 10 or more with its cheapest card that wins (a card of the
  suit led before a trump), else throws its cheapest card, a non-trump before a trump;
- after each trick the winner draws first, and the loser of the last draw takes the turn-up;
- nobody declares a marriage, exchanges or closes in the rollout; a player with 66 counted
  points who may claim (section 8) claims at once.

The policy is plain and known so that "playing on" is a fair reference, not a strong player:
a close judged better than playing on is better than playing on *this* way.
"""

from __future__ import annotations

from dataclasses import dataclass

from tally.kernel import CARD_POINTS, CLAIM_AT, FOLLOWER_WINS, cards_in, game_points
from tally.rules import RuleSet
from tally.solver import Position, solve


@dataclass(frozen=True)
class Opening:
    """A phase-1 lead as the decision needs it: counts, and one sampled deal of the unknown."""

    leader: int
    trump: int
    hands: tuple[int, int]
    stock: tuple[int, ...]  # face-down cards in drawing order, then the card lying face up
    points: tuple[int, int]
    marriages: tuple[int, int]
    tricks: tuple[int, int]


def counted(points: int, marriages: int, tricks: int) -> int:
    """Counted points in phase 1 (no bonus): marriages only once a trick is won."""
    return points + (marriages if tricks else 0)


def close_value(o: Opening, rules: RuleSet) -> int:
    """Game points for the leader (negative: the opponent's) of closing now, best play after."""
    opp = 1 - o.leader
    at = ([0, 0], [0, 0])
    at[0][opp] = counted(o.points[opp], o.marriages[opp], o.tricks[opp])
    at[1][opp] = o.tricks[opp]
    pos = Position(o.hands, o.leader, o.trump, o.points, o.marriages, o.tricks, closer=o.leader,
                   at_close=((at[0][0], at[0][1]), (at[1][0], at[1][1])))
    value = solve(pos, rules).value
    return value if o.leader == 0 else -value


def play_on_value(o: Opening, rules: RuleSet) -> int:
    """Game points for the leader of playing on: the rollout policy, then exact play."""
    hands = list(o.hands)
    points, tricks = list(o.points), list(o.tricks)
    stock = list(o.stock)
    leader = o.leader
    while stock:
        lead = _policy_lead(hands[leader], o.trump)
        follower = 1 - leader
        reply = _policy_follow(hands[follower], lead, o.trump)
        hands[leader] &= ~(1 << lead)
        hands[follower] &= ~(1 << reply)
        winner = leader ^ FOLLOWER_WINS[o.trump][lead][reply]
        points[winner] += CARD_POINTS[lead] + CARD_POINTS[reply]
        tricks[winner] += 1
        if counted(points[winner], o.marriages[winner], tricks[winner]) >= CLAIM_AT:
            loser = 1 - winner
            gp = game_points(counted(points[loser], o.marriages[loser], tricks[loser]),
                             tricks[loser])
            return gp if winner == o.leader else -gp
        hands[winner] |= 1 << stock.pop(0)
        hands[1 - winner] |= 1 << stock.pop(0)
        leader = winner
    pos = Position((hands[0], hands[1]), leader, o.trump, (points[0], points[1]), o.marriages,
                   (tricks[0], tricks[1]))
    value = solve(pos, rules).value
    return value if o.leader == 0 else -value


def _cheapest(cards: int, trump: int) -> int:
    """The card worth the fewest points, a non-trump before a trump."""
    return min(cards_in(cards), key=lambda c: (c // 6 == trump, CARD_POINTS[c], c))


def _policy_lead(hand: int, trump: int) -> int:
    return _cheapest(hand, trump)


def _policy_follow(hand: int, lead: int, trump: int) -> int:
    if CARD_POINTS[lead] >= 10:
        winners = [c for c in cards_in(hand) if FOLLOWER_WINS[trump][lead][c]]
        if winners:
            return min(winners, key=lambda c: (c // 6 == trump and lead // 6 != trump,
                                               CARD_POINTS[c], c))
    return _cheapest(hand, trump)

