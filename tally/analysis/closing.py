"""The decision to close: at a phase-1 lead, closing now against playing on.

Closing now is solved exactly (:mod:`tally.analysis.solver`) for each sampled deal, and so is
playing on (not closing now) wherever the search is in reach (:data:`EXACT_PLAY_ON_CARDS`:
Schnapsen from the second lead, Sixty-Six and pagat-66 from the fourth):
:func:`not_closing_value` plays the rest of phase 1 perfectly on both sides with both hands
and the stock's order of the sampled deal known, every card, marriage, exchange, claim and
later close allowed, the leader only not closing at this moment. Earlier (the first lead of
Schnapsen, the first three of Sixty-Six and pagat-66) that search takes a third of a second
to minutes a deal in pure Python, and playing on is estimated by what a fixed rollout policy
reaches before the stock is gone, then exact play from the exhausted stock
(:func:`play_on_value`). The **rollout policy** (both players, phase 1, so no duty to
follow):

- the leader leads its card worth the fewest points, a non-trump before a trump;
- the follower takes a lead worth 10 or more with its cheapest card that wins (a card of the
  suit led before a trump), else throws its cheapest card, a non-trump before a trump;
- after each trick the winner draws first, and the loser of the last draw takes the turn-up;
- nobody declares a marriage, exchanges or closes in the rollout; a player with 66 counted
  points who may claim (section 8) claims at once.

The policy is plain and known so that "playing on" is a fair reference, not a strong player.
It is **an estimate, not a bound**: it plays both sides, so best play may be worth more to the
leader than it (the leader plays better) or less (the opponent defends better); against the
exact value it is often a game point off, either way.
:func:`playing_on` picks the exact value where it is in reach, else the rollout;
:func:`close_and_play_on`, both values of a sampled deal, is the one way the closer's view,
the table of phase-1 leads and their marks value closing against playing on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final

from tally.analysis.solver import INF, Position, Search, narrowed, solve
from tally.analysis.stack import own_stack
from tally.engine.kernel import (
    CARD_POINTS,
    CLAIM_AT,
    FOLLOWER_WINS,
    KING,
    QUEEN,
    cards_in,
    game_points,
    marriage_value,
)
from tally.engine.rules import RuleSet


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
    pos = Position(
        o.hands,
        o.leader,
        o.trump,
        o.points,
        o.marriages,
        o.tricks,
        closer=o.leader,
        at_close=((at[0][0], at[0][1]), (at[1][0], at[1][1])),
    )
    value = solve(pos, rules).value
    return value if o.leader == 0 else -value


def play_on_value(o: Opening, rules: RuleSet) -> int:
    """Game points for the leader of playing on: the rollout policy, then exact play."""
    hands = list(o.hands)
    points, tricks = list(o.points), list(o.tricks)
    stock = list(o.stock)
    leader = o.leader
    if hands[leader].bit_count() < rules.hand:  # a close before the draws declined: draw first
        hands[leader] |= 1 << stock.pop(0)
        hands[1 - leader] |= 1 << stock.pop(0)
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
            gp = game_points(
                counted(points[loser], o.marriages[loser], tricks[loser]), tricks[loser]
            )
            return gp if winner == o.leader else -gp
        hands[winner] |= 1 << stock.pop(0)
        hands[1 - winner] |= 1 << stock.pop(0)
        leader = winner
    pos = Position(
        (hands[0], hands[1]),
        leader,
        o.trump,
        (points[0], points[1]),
        o.marriages,
        (tricks[0], tricks[1]),
    )
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
            return min(
                winners, key=lambda c: (c // 6 == trump and lead // 6 != trump, CARD_POINTS[c], c)
            )
    return _cheapest(hand, trump)


#: Cards still in the hands and the stock up to which playing on is solved exactly
#: (:func:`not_closing_value`), by the size of a hand: 18, from the second lead of Schnapsen
#: (hands of 5) and the fourth of Sixty-Six and pagat-66 (hands of 6). A solve takes tens of
#: milliseconds there; with 20 cards it takes a quarter to a third of a second (Schnapsen's
#: first lead: the close, the chance to close and the lead's marks there were five sixths of
#: the slowest deal's 6 s, issue 37 wants 2 s), with hands of 6 and 20 cards or more a fifth
#: of a second to minutes; there playing on is estimated by the rollout policy
#: (:func:`play_on_value`, an estimate, not a bound) and the lead is not marked.
EXACT_PLAY_ON_CARDS: Final = {5: 18, 6: 18}


def exact_play_on(o: Opening, rules: RuleSet) -> bool:
    """Whether playing on at ``o`` is solved exactly (few enough cards left)."""
    left = o.hands[0].bit_count() + o.hands[1].bit_count() + len(o.stock)
    return left <= EXACT_PLAY_ON_CARDS.get(rules.hand, 18)


def playing_on(o: Opening, rules: RuleSet, guess: int = 0) -> int:
    """Game points for the leader of not closing now: exact (:func:`not_closing_value`, from
    ``guess``) where :func:`exact_play_on`, else the rollout policy (:func:`play_on_value`)."""
    if exact_play_on(o, rules):
        return not_closing_value(o, rules, guess)
    return play_on_value(o, rules)


def close_and_play_on(o: Opening, rules: RuleSet) -> tuple[int, int]:
    """Game points for the leader of closing now and of playing on (:func:`playing_on`) in
    the deal ``o``: the one way the closer's view and the table of phase-1 leads value a
    sampled deal. Playing on's search starts from the value of closing, a near one."""
    close = close_value(o, rules)
    return close, playing_on(o, rules, guess=close)


@own_stack
def not_closing_value(o: Opening, rules: RuleSet, guess: int = 0) -> int:
    """Game points for the leader (negative: the opponent's) of **not** closing now, with best
    play on both sides from there: both hands and the stock's order as in ``o``, every card,
    marriage, exchange, claim and later close the rules allow (:class:`_PlayOn`).

    When the leader's hand is short by the card not yet drawn (a close before the draws
    declined), the draws are made first. ``guess`` (game points for the leader) only says
    where the search starts: the value of closing now, a near one, saves a quarter of it.
    """
    search = _PlayOn(o, rules)
    state = _start(o)
    if o.hands[o.leader].bit_count() < rules.hand:
        value = mtd(lambda a, b: search.draw(*state, a, b), guess if o.leader == 0 else -guess)
    else:
        value = mtd(
            lambda a, b: search.lead(*state, a, b, may_close=False),
            guess if o.leader == 0 else -guess,
        )
    return value if o.leader == 0 else -value


def _start(o: Opening) -> tuple[int, int, int, int, int, int, int, int, int, int, int]:
    """The search's state at ``o``: hands, stock drawn so far, the card lying face up, the
    leader, counted points, marriages waiting for a first trick, whether each has a trick."""
    w0, w1 = int(o.tricks[0] > 0), int(o.tricks[1] > 0)
    m0, m1 = o.marriages
    c0 = o.points[0] + (m0 if w0 else 0)
    c1 = o.points[1] + (m1 if w1 else 0)
    h0, h1 = o.hands
    return (h0, h1, 0, o.stock[-1], o.leader, c0, c1, 0 if w0 else m0, 0 if w1 else m1, w0, w1)


def mtd(probe: Callable[[int, int], int], guess: int) -> int:
    """The value of a search (for player 0) by MTD(f): null-window probes ``probe(alpha,
    beta)`` sharing one table, from a first guess, until the value's bounds meet (a deal is
    worth -3 to 3: a few probes, each far cheaper than a full search)."""
    lo, hi = -INF, INF
    value = max(-3, min(3, guess))
    while lo < hi:
        beta = max(value, lo + 1)
        value = probe(beta - 1, beta)
        if value < beta:
            hi = value
        else:
            lo = value
    return value


#: A phase-1 choice at a lead (:func:`lead_values`): ``(card, declare its marriage where held,
#: exchange the turn-up first)``.
Choice = tuple[int, bool, bool]


@own_stack
def lead_values(
    o: Opening,
    rules: RuleSet,
    choices: Sequence[Choice],
    made: Choice | None = None,
    replies: Sequence[int] = (),
) -> list[int]:
    """Game points for the leader of each choice at the phase-1 lead ``o``, with best play on
    both sides after it (both hands and the stock's order known, as :func:`not_closing_value`;
    the leader does not close at this moment, later closes allowed); then, once the leader
    made the choice ``made``, of each of the follower's ``replies`` (cards; -2: exchange
    first, then the best card). One search and its table serve every choice and reply."""
    search = _PlayOn(o, rules)
    h0, h1, k, lying, leader, *counts = _start(o)
    out = []
    guess = 0
    for card, declare, swap in choices:
        a0, a1, ly = h0, h1, lying
        if swap:
            a0, a1 = search.exchanged(h0, h1, leader, lying)
            ly = search.exchange
        c0, c1, m0, m1, w0, w1 = counts
        st = (a0, a1, k, ly, leader, c0, c1, m0, m1, w0, w1)
        value = mtd(partial(search.led, *st, card, declare=declare), guess)
        guess = value
        out.append(value if leader == 0 else -value)
    if made is None or not replies:
        return out
    card, declare, swap = made
    if swap:
        h0, h1 = search.exchanged(h0, h1, leader, lying)
        lying = search.exchange
    c0, c1, m0, m1, w0, w1 = counts
    claimed, (h0, h1, c0, c1, m0, m1) = search.leading(
        h0, h1, leader, c0, c1, m0, m1, w0, w1, card, declare
    )
    for reply in replies:
        if claimed is None:
            at = (h0, h1, k, lying, leader, c0, c1, m0, m1, w0, w1, card, reply)
            guess = mtd(partial(search.replied, *at), guess)
        out.append((claimed if claimed is not None else guess) * (1 if leader == 0 else -1))
    return out


def may_exchange(rules: RuleSet, trump: int, hand: int, won: int, lying: int) -> bool:
    """Whether a player holding ``hand`` (``won``: they have a trick) may exchange the card
    ``lying`` face up (-1: none) for the exchange card of ``trump``."""
    exchange = trump * 6 + int(rules.exchange_card)
    return (
        bool(hand >> exchange & 1)
        and lying not in (-1, exchange)
        and (bool(won) or not rules.exchange_needs_trick)
    )


class _PlayOn:
    """Alpha-beta over phase 1 with both hands and the stock's order known (the value for
    player 0). Every choice RULES.md allows: each card (no duty to follow), a marriage with
    its lead (declaring never hurts, as in :mod:`tally.analysis.solver`), an exchange of the turn-up
    (before leading, and before following with ``exchange_when=lead-or-follow``), a close
    before the lead and, with ``close_before_draw``, after winning a trick; claims at the
    earliest correct moment. Once the stock is closed or exhausted, :mod:`tally.analysis.solver`'s
    search takes over (one per way the stock was closed, sharing its table)."""

    def __init__(self, o: Opening, rules: RuleSet) -> None:
        self.rules = rules
        self.trump = o.trump
        self.down = o.stock[:-1]  # face-down cards in drawing order
        self.exchange = o.trump * 6 + int(rules.exchange_card)
        self.on_follow = rules.exchange_when == "lead-or-follow"
        self.before_draw = rules.close_before_draw
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.searches: dict[tuple[int | None, int, int], Search] = {}
        self.open = self.phase2(None, 0, 0)

    def phase2(self, closer: int | None, opp_counted: int, opp_tricks: int) -> Search:
        """The phase-2 search once ``closer`` closed (None: the stock is exhausted), with the
        closer's opponent's counted points and tricks at the close. Closes that the rules
        score alike share one search (and its table): what matters of the counts at the
        close is whether the opponent had a trick and, with ``close_scored_at=close``, the
        game points they fix."""
        fixed = 0
        if closer is not None and self.rules.close_scored_at == "close":
            fixed = game_points(opp_counted, opp_tricks)
        key = (closer, fixed, min(opp_tricks, 1))
        found = self.searches.get(key)
        if found is None:
            at = None
            if closer is not None:
                pts, trk = [0, 0], [0, 0]
                pts[1 - closer], trk[1 - closer] = opp_counted, opp_tricks
                at = ((pts[0], pts[1]), (trk[0], trk[1]))
            found = Search(self.rules, Position((0, 0), 0, self.trump, closer=closer, at_close=at))
            self.searches[key] = found
        return found

    def close(
        self,
        h0: int,
        h1: int,
        closer: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value of ``closer`` closing the stock now (on lead)."""
        search = self.phase2(closer, (c1, c0)[closer], (w1, w0)[closer])
        return search.node(h0, h1, closer, c0, c1, m0, m1, w0, w1, alpha, beta)

    def may_exchange(self, hand: int, won: int, lying: int) -> bool:
        """Whether a player holding ``hand`` (``won``: they have a trick) may exchange."""
        return may_exchange(self.rules, self.trump, hand, won, lying)

    def lead(
        self,
        h0: int,
        h1: int,
        k: int,
        lying: int,
        leader: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        alpha: int,
        beta: int,
        may_close: bool = True,
    ) -> int:
        """The value of a phase-1 position with ``leader`` to lead (claims checked)."""
        claimed = self.open.between(leader, c0, c1, w0, w1)
        if claimed is not None:
            return claimed
        key = (h0, h1, k, lying, leader, c0, c1, m0, m1, w0, w1, may_close)
        hit = self.table.get(key)
        if hit is not None:
            lo, hi = hit
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        maxing = leader == 0
        best = -INF if maxing else INF
        hand = h0 if maxing else h1
        for choice in self._lead_choices(hand, leader, (w0, w1)[leader], lying, may_close):
            lo_, hi_ = (max(alpha, best), beta) if maxing else (alpha, min(beta, best))
            if choice == -1:
                v = self.close(h0, h1, leader, c0, c1, m0, m1, w0, w1, lo_, hi_)
            elif choice == -2:
                s0, s1 = self.exchanged(h0, h1, leader, lying)
                v = self.lead(
                    s0, s1, k, self.exchange, leader, c0, c1, m0, m1, w0, w1, lo_, hi_, may_close
                )
            else:
                v = self.led(h0, h1, k, lying, leader, c0, c1, m0, m1, w0, w1, choice, lo_, hi_)
            if maxing:
                best = max(best, v)
                if best >= beta:
                    break
            else:
                best = min(best, v)
                if best <= alpha:
                    break
        self.table[key] = narrowed(hit, best, a0, b0)
        return best

    def exchanged(self, h0: int, h1: int, who: int, lying: int) -> tuple[int, int]:
        """Both hands once ``who`` exchanges the exchange card for the card lying face up
        (before leading, or before following with ``exchange_when=lead-or-follow``): the one
        way the search swaps them."""
        if who == 0:
            return ~(1 << self.exchange) & h0 | 1 << lying, h1
        return h0, ~(1 << self.exchange) & h1 | 1 << lying

    def _lead_choices(
        self, hand: int, leader: int, won: int, lying: int, may_close: bool
    ) -> list[int]:
        """Cards to lead (best guesses first), then ``-2`` to exchange and ``-1`` to close."""
        cards = sorted(
            cards_in(hand), key=lambda c: -(CARD_POINTS[c] + (c // 6 == self.trump) * 12)
        )
        if self.may_exchange(hand, won, lying):
            cards.insert(0, -2)
        if may_close:
            cards.insert(0, -1)
        return cards

    def led(
        self,
        h0: int,
        h1: int,
        k: int,
        lying: int,
        leader: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        card: int,
        alpha: int,
        beta: int,
        declare: bool = True,
    ) -> int:
        """The value once ``leader`` leads ``card``, declaring its marriage if held (and
        ``declare``: a marriage not declared is judged only as a recorded choice)."""
        claimed, st = self.leading(h0, h1, leader, c0, c1, m0, m1, w0, w1, card, declare)
        if claimed is not None:
            return claimed
        h0, h1, c0, c1, m0, m1 = st
        return self.follow(h0, h1, k, lying, leader, c0, c1, m0, m1, w0, w1, card, alpha, beta)

    def leading(
        self,
        h0: int,
        h1: int,
        leader: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        card: int,
        declare: bool,
    ) -> tuple[int | None, tuple[int, int, int, int, int, int]]:
        """``leader`` leads ``card`` (its marriage declared where held and ``declare``): the
        value of a claim made on declaring (None: none), and the hands and counts after."""
        hand = h0 if leader == 0 else h1
        rank = card % 6
        partner = card + 1 if rank == QUEEN else card - 1
        if declare and rank in (KING, QUEEN) and hand >> partner & 1:
            mar = marriage_value(card, self.trump)
            claimed, c0, c1, m0, m1 = self.open.declare(leader, mar, c0, c1, m0, m1, w0, w1)
            if claimed is not None:
                return claimed, (h0, h1, c0, c1, m0, m1)
        if leader == 0:
            h0 &= ~(1 << card)
        else:
            h1 &= ~(1 << card)
        return None, (h0, h1, c0, c1, m0, m1)

    def follow(
        self,
        h0: int,
        h1: int,
        k: int,
        lying: int,
        leader: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        card: int,
        alpha: int,
        beta: int,
        may_exchange: bool = True,
    ) -> int:
        """The value once ``card`` is led: the follower plays any card (or first exchanges)."""
        follower = 1 - leader
        maxing = follower == 0
        hand = h0 if maxing else h1
        wins = FOLLOWER_WINS[self.trump][card]
        replies: list[int] = sorted(
            cards_in(hand), key=lambda c: (-wins[c], CARD_POINTS[c] + (c // 6 == self.trump) * 12)
        )
        if may_exchange and self.on_follow and self.may_exchange(hand, (w0, w1)[follower], lying):
            replies.append(-2)
        best = -INF if maxing else INF
        for reply in replies:
            lo_, hi_ = (max(alpha, best), beta) if maxing else (alpha, min(beta, best))
            v = self.replied(
                h0, h1, k, lying, leader, c0, c1, m0, m1, w0, w1, card, reply, lo_, hi_
            )
            if maxing:
                best = max(best, v)
                if best >= beta:
                    break
            else:
                best = min(best, v)
                if best <= alpha:
                    break
        return best

    def replied(
        self,
        h0: int,
        h1: int,
        k: int,
        lying: int,
        leader: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        card: int,
        reply: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value once the follower answers ``card`` with ``reply`` (-2: exchanges first,
        then answers as best they can)."""
        if reply == -2:  # they may not exchange again in this trick
            s0, s1 = self.exchanged(h0, h1, 1 - leader, lying)
            return self.follow(
                s0, s1, k, self.exchange, leader, c0, c1, m0, m1, w0, w1, card, alpha, beta, False
            )
        won = leader ^ FOLLOWER_WINS[self.trump][card][reply]
        gain = CARD_POINTS[card] + CARD_POINTS[reply]
        a0, a1 = (h0 & ~(1 << reply), h1) if leader == 1 else (h0, h1 & ~(1 << reply))
        if won == 0:
            return self.trick(a0, a1, k, lying, 0, c0 + gain + m0, c1, 0, m1, 1, w1, alpha, beta)
        return self.trick(a0, a1, k, lying, 1, c0, c1 + gain + m1, m0, 0, w0, 1, alpha, beta)

    def trick(
        self,
        h0: int,
        h1: int,
        k: int,
        lying: int,
        winner: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        alpha: int,
        beta: int,
    ) -> int:
        """After a phase-1 trick won by ``winner``: a claim, a close before the draws, or the
        draws."""
        claimed = self.open.between(winner, c0, c1, w0, w1)
        if claimed is not None:
            return claimed
        drawn = self.draw(h0, h1, k, lying, winner, c0, c1, m0, m1, w0, w1, alpha, beta)
        if not self.before_draw:
            return drawn
        if winner == 0:
            if drawn >= beta:
                return drawn
            return max(
                drawn, self.close(h0, h1, 0, c0, c1, m0, m1, w0, w1, max(alpha, drawn), beta)
            )
        if drawn <= alpha:
            return drawn
        return min(drawn, self.close(h0, h1, 1, c0, c1, m0, m1, w0, w1, alpha, min(beta, drawn)))

    def draw(
        self,
        h0: int,
        h1: int,
        k: int,
        lying: int,
        winner: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The draws (the winner first; the last draw gives the loser the turn-up), then the
        winner's lead, or phase 2 once the stock is exhausted."""
        first = 1 << self.down[k]
        last = k + 1 >= len(self.down)
        second = 1 << (lying if last else self.down[k + 1])
        h0, h1 = (h0 | first, h1 | second) if winner == 0 else (h0 | second, h1 | first)
        if last:
            return self.open.node(h0, h1, winner, c0, c1, m0, m1, w0, w1, alpha, beta)
        return self.lead(h0, h1, k + 2, lying, winner, c0, c1, m0, m1, w0, w1, alpha, beta)
