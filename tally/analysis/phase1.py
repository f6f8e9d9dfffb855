"""Marks of phase-1 decisions with both hands known: each lead (with the marriage declared
with it or not, and which) and exchanging the turn-up or not before it.

At a phase-1 lead the record proves both hands when it lists ``Hands`` and the draws so far
are pinned down by what each player later played or still held (:func:`hands_at`). The
stock's face-down order is then the one thing unseen: each choice is valued with best play
on both sides after it (:func:`tally.analysis.closing.lead_values`, the search of
:func:`tally.analysis.closing.not_closing_value`: every card, marriage, exchange, claim and
later close, the order of the stock known once chosen) and **averaged over the stock's
orders**: every order where there are at most :data:`PHASE1_ORDERS` (the last rounds of
drawing), else that many sampled ones (seeded per deal), and the mark then carries the 95%
interval of its loss (:func:`tally.analysis.closer_view.interval`). Before is the best
choice's mean, after the chosen one's; the leads where the search is out of reach (the first
three of Sixty-Six and pagat-66, :func:`tally.analysis.closing.exact_play_on`) get no mark.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import permutations
from typing import Final, NamedTuple

from tally.analysis.closer_view import interval
from tally.analysis.closing import Choice, Opening, exact_play_on, lead_values
from tally.analysis.closing import may_exchange as allowed
from tally.analysis.marks import Mark, MarkKind, card_name
from tally.engine.evidence import DealFacts
from tally.engine.kernel import DECK_MASKS, KING, QUEEN, cards_in
from tally.engine.rules import RuleSet

#: Orders of the face-down stock a phase-1 mark is averaged over: all of them where there are
#: at most this many (three cards face down or fewer), else this many sampled.
PHASE1_ORDERS: Final = 6


@dataclass(frozen=True)
class LeadMoment:
    """A moment of phase 1 at a lead: the counts, and what the leader did there. At a lead the
    record makes (:mod:`tally.analysis.phase1` marks it): ``exchanged`` before leading,
    ``card`` led with ``marriage`` points declared. At a moment the leader may close
    (:mod:`tally.analysis.findings` judges it): whether the record ``closing`` there, and
    whether it is right after winning a trick, before the draws (``before_draws``; the hands
    are a card short). One record of both, so they cannot count a moment differently."""

    trick: int
    leader: int
    played: int
    lying: int  # the card lying face up (-1: none)
    left: int  # face-down cards in the stock
    points: tuple[int, int]
    marriages: tuple[int, int]
    tricks: tuple[int, int]
    exchanged: bool = False
    card: int = -1
    marriage: int = 0
    reply: int = -1  # the follower's card (-1: not recorded, or they exchanged first)
    closing: bool = False
    before_draws: bool = False


class Drawn(NamedTuple):
    """What the whole record proves of one player's draws: the cards they drew (in no known
    order, the face-up card of the last draw apart), the trick each was played at or
    exchanged away by them (absent: kept past phase 1), and the card they took face up by
    the last draw or by exchange (-1: none)."""

    dealt: int
    cards: tuple[int, ...]
    due: dict[int, int]
    gone: dict[int, int]
    last: int
    took: int
    swapped_at: int  # the trick they exchanged at (1 << 30: never)


def draws_of(
    facts: DealFacts,
    plays: Sequence[tuple[int, int, int, int]],
    final: tuple[int, int],
    rounds: int,
    deal: tuple[int, random.Random] | None = None,
) -> tuple[Drawn, Drawn] | None:
    """Each player's draws as the record proves them (None when it does not prove every card
    drawn: a dealt hand not listed, or a deal ended in phase 1 without ``Remaining``).
    ``plays``: ``(trick, player, card, marriage)`` of every card; ``final``: what the record
    proves of each hand in phase 2 (:func:`tally.engine.evidence.proven_in_phase2`, or one
    sampled deal's hands there); ``rounds``: the rounds of drawing the deal had.

    With ``deal`` (the cards a hand is dealt, and a seeded generator) and a dealt hand not
    listed, one way the record may have been dealt instead: the cards it does not place go to
    the hands short of them at random, and each player's dealt hand and draws are a random
    order of their cards in which each card is held by the trick it is played at (or its
    marriage declared, or it is exchanged away). None when no such order exists."""
    parts = [_cards_of(facts, plays, final, p) for p in (0, 1)]
    last = [-1, -1]
    if facts.last_draw_loser in (0, 1) and rounds:
        p = facts.last_draw_loser
        last[p] = facts.xcard if _swapped(facts) else facts.turn_up
        parts[p] = parts[p]._replace(ever=parts[p].ever | 1 << last[p])
    known = bool(facts.dealt[0] and facts.dealt[1])
    if not known:
        if deal is None or not _filled(facts, parts, deal[0] + rounds, deal[1]):
            return None
    out = []
    for p, (ever, due, gone, took, swapped_at) in enumerate(parts):
        dealt = facts.dealt[p] if known else 0
        cards = tuple(c for c in cards_in(ever & ~dealt) if c not in (took, last[p]))
        if not known and deal is not None:
            order = _draw_order(
                Drawn(0, cards, {c: t + deal[0] for c, t in due.items()}, gone, -1, -1, 0), deal[1]
            )
            if order is None:
                return None
            dealt, cards = sum(1 << c for c in order[: deal[0]]), tuple(order[deal[0] :])
        if len(cards) + (last[p] >= 0) != rounds:
            return None
        out.append(Drawn(dealt, cards, due, gone, last[p], took, swapped_at))
    return out[0], out[1]


def _swapped(facts: DealFacts) -> bool:
    return any(s.moved for s in facts.swaps)


class _Cards(NamedTuple):
    """Every card the record proves one player held in the deal, and when: the trick each
    was held by (``due``: played, declared with its partner, exchanged away), the trick each
    left their hand at (``gone``), the turn-up taken by exchange (-1: none) and the trick of
    the exchange (1 << 30: never)."""

    ever: int
    due: dict[int, int]
    gone: dict[int, int]
    took: int
    swapped_at: int


def _cards_of(
    facts: DealFacts, plays: Sequence[tuple[int, int, int, int]], final: tuple[int, int], p: int
) -> _Cards:
    """What the record proves of the cards ``p`` held (:class:`_Cards`)."""
    gone = {c: t for t, who, c, _ in plays if who == p}
    due = dict(gone)
    for t, who, c, marriage in plays:
        partner = c + 1 if c % 6 == QUEEN else c - 1
        if who == p and marriage:  # the partner shown with it was held by then
            due[partner] = min(due.get(partner, 1 << 30), t)
    swaps = [s.trick for s in facts.swaps if s.moved and s.player == p]
    took = facts.turn_up if swaps else -1
    if swaps:
        gone.setdefault(facts.xcard, swaps[0])
        due.setdefault(facts.xcard, swaps[0])
    ever = facts.dealt[p] | final[p] | sum(1 << c for c in gone)
    return _Cards(ever, due, gone, took, swaps[0] if swaps else 1 << 30)


def _filled(facts: DealFacts, parts: list[_Cards], held: int, rng: random.Random) -> bool:
    """Deal the cards the record places in no hand (nor face up at the end) at random to the
    players short of ``held`` cards over the deal (the turn-up taken by exchange apart);
    False when the counts do not fit."""
    lying = facts.xcard if _swapped(facts) else facts.turn_up
    deck = DECK_MASKS[facts.rules.deck] & ~parts[0].ever & ~parts[1].ever & ~(1 << lying)
    pool = cards_in(deck)
    short = [held - (c.ever.bit_count() - (c.took >= 0)) for c in parts]
    if min(short) < 0 or sum(short) > len(pool):
        return False
    rng.shuffle(pool)
    for p in (0, 1):
        extra = sum(1 << c for c in pool[: short[p]])
        pool = pool[short[p] :]
        parts[p] = parts[p]._replace(ever=parts[p].ever | extra)
    return True


def _draw_order(d: Drawn, rng: random.Random) -> list[int] | None:
    """A random order of ``d``'s draws (round 1 first; round ``i`` follows trick ``i``) in
    which each card is drawn before the trick that lets it go (None: no such order)."""
    left = list(d.cards)
    out = []
    for i in range(1, len(left) + 1):
        pool = left
        for j in range(i, len(d.cards) + 1):  # the cards due by round j, tightest first
            need = [c for c in left if d.due.get(c, 1 << 30) <= j + 1]
            if len(need) > j - i + 1:
                return None
            if len(need) == j - i + 1 and need:
                pool = need
                break
        pick = rng.choice(pool)
        left.remove(pick)
        out.append(pick)
    return out + ([d.last] if d.last >= 0 else [])


def _proven_draws(d: Drawn, done: int) -> bool:
    """Whether the record pins down ``d``'s first ``done`` draws."""
    early = len(d.cards)  # the last draw's face-up card comes last
    due = sum(1 for c in d.cards if d.due.get(c, 1 << 30) <= done + 1)
    return done >= early + (d.last >= 0) or due == done or early == done


def _hand(d: Drawn, order: Sequence[int], trick: int) -> int:
    """``d``'s hand at the lead of ``trick`` had they drawn in ``order``."""
    hand = d.dealt | sum(1 << c for c in order[: trick - 1])
    if d.swapped_at < trick:  # the turn-up taken, perhaps played since
        hand |= 1 << d.took
    return hand & ~sum(1 << c for c, t in d.gone.items() if t < trick)


def hands_at(
    m: LeadMoment, draws: tuple[Drawn, Drawn], samples: int, rng: random.Random
) -> list[tuple[int, int]]:
    """Both hands at the lead ``m`` (before the leader's exchange): the one pair the record
    proves, else ``samples`` pairs from consistent orders of the draws so far (seeded); none
    when no order is consistent."""
    proven = all(_proven_draws(d, m.trick - 1) for d in draws)
    out = []
    for _ in range(1 if proven else samples):
        first, second = _draw_order(draws[0], rng), _draw_order(draws[1], rng)
        if first is None or second is None:
            return []
        out.append((_hand(draws[0], first, m.trick), _hand(draws[1], second, m.trick)))
    return out


def _orders(down: list[int], rng: random.Random) -> list[tuple[int, ...]]:
    """Every order of the face-down stock (top first) where few, else :data:`PHASE1_ORDERS`
    sampled ones."""
    if math.factorial(len(down)) <= PHASE1_ORDERS:
        return list(permutations(down))
    out = []
    for _ in range(PHASE1_ORDERS):
        rng.shuffle(down)
        out.append(tuple(down))
    return out


def _choices(hand: int, m: LeadMoment, swap: bool) -> list[Choice]:
    """Each lead from ``hand`` (a marriage declared with it where held), and the recorded
    lead when it is a marriage's card led without declaring it."""
    out: list[Choice] = [(c, True, swap) for c in cards_in(hand)]
    rank = m.card % 6
    partner = m.card + 1 if rank == QUEEN else m.card - 1
    if swap == m.exchanged and not m.marriage and rank in (KING, QUEEN) and hand >> partner & 1:
        out.append((m.card, False, swap))
    return out


def _name(choice: Choice, hand: int, m: LeadMoment) -> str:
    """``KH (20)``, ``9S``: a lead as the marks write it."""
    card, declare, _ = choice
    rank = card % 6
    partner = card + 1 if rank == QUEEN else card - 1
    if declare and rank in (KING, QUEEN) and hand >> partner & 1:
        return f"{card_name(card)} ({40 if card // 6 == m.lying // 6 else 20})"
    return card_name(card)


def _starts(
    m: LeadMoment, deals: list[tuple[int, int]], rules: RuleSet, trump: int, rng: random.Random
) -> tuple[list[Opening], bool]:
    """The deals to value the lead ``m`` on, both hands and the stock's order in each: every
    order (or :data:`PHASE1_ORDERS` sampled ones) for the one pair of hands proven, else one
    sampled order for each pair of ``deals``; and whether that is a sample (not all)."""
    lying = 1 << m.lying
    out = []
    for hands in deals:
        down = cards_in(DECK_MASKS[rules.deck] & ~m.played & ~hands[0] & ~hands[1] & ~lying)
        if len(down) != m.left:
            return [], True
        base = Opening(m.leader, trump, hands, (*down, m.lying), m.points, m.marriages, m.tricks)
        if len(deals) == 1:
            out = [replace(base, stock=(*o, m.lying)) for o in _orders(down, rng)]
            return out, len(out) < math.factorial(len(down))
        rng.shuffle(down)
        out.append(replace(base, stock=(*down, m.lying)))
    return out, True


class _Sides(NamedTuple):
    """Per deal, the game points of the choice made and of the best choice on average (over
    the deals with the leader's same hand); their names."""

    made: list[int]
    best: list[int]
    made_name: str
    best_name: str


def _judged(
    m: LeadMoment,
    starts: list[Opening],
    rules: RuleSet,
    may_exchange: bool,
    known: int,
    replies: list[int],
) -> tuple[_Sides, _Sides | None, list[list[int]]]:
    """The lead and the exchange (None where the leader may not exchange) over ``starts``,
    valued per group of deals with the leader's same hand (the leader knew it; the stock's
    order and, where the record does not prove it, the opponent's hand they did not). Where
    the record does not prove the leader's hand either, the deals are one group and the
    choices those of the cards ``known`` (held in every deal): the best is then the choice
    worth most on average over every deal, never one per deal in hindsight. Last, per deal,
    the leader's game points of each of the follower's ``replies`` to the lead made."""
    groups: dict[int, list[Opening]] = {}
    for o in starts:
        groups.setdefault(o.hands[m.leader] & known, []).append(o)
    lead = _Sides([], [], "", "")
    swap = _Sides([], [], "exchange" if m.exchanged else "no exchange", "")
    xcard = starts[0].trump * 6 + int(rules.exchange_card)
    worst = 0.0
    answers: list[list[int]] = []
    made = (m.card, bool(m.marriage), m.exchanged)
    for hand, group in groups.items():
        swapped = ~(1 << xcard) & hand | 1 << m.lying
        played = swapped if m.exchanged else hand
        leads = _choices(played, m, m.exchanged)
        # the leader may exchange with this hand (where the record does not prove it, not
        # every hand sampled may): else the exchange is no choice in these deals
        may = may_exchange and allowed(rules, m.lying // 6, hand, m.tricks[m.leader], m.lying)
        other = _choices(hand if m.exchanged else swapped, m, not m.exchanged) if may else []
        runs = [lead_values(o, rules, leads + other, made, replies) for o in group]
        answers.extend(r[len(leads) + len(other) :] for r in runs)
        means = [sum(r[k] for r in runs) / len(runs) for k in range(len(leads) + len(other))]
        plain = (m.card, False, m.exchanged)
        chosen = leads.index(plain if plain in leads else (m.card, True, m.exchanged))
        best = _best(means, leads, 0)
        lead.made.extend(r[chosen] for r in runs)
        lead.best.extend(r[best] for r in runs)
        gap = means[best] - means[chosen]
        if gap > worst:  # the other choice named: the one of the hand where choosing cost most
            worst = gap
            lead = lead._replace(best_name=_name(leads[best], played, m))
        lead = lead._replace(made_name=_name(leads[chosen], played, m))
        theirs = _best(means, other, len(leads)) if other else best
        better = means[theirs] > means[best]
        swap.made.extend(r[best] for r in runs)
        swap.best.extend(r[theirs if better else best] for r in runs)
    if may_exchange:
        return lead, swap._replace(best_name="no exchange" if m.exchanged else "exchange"), answers
    return lead, None, answers


def _answered(m: LeadMoment, answers: list[list[int]], replies: list[int]) -> _Sides:
    """The follower's reply to the lead over the deals: per deal their game points of the
    card they played and of the reply worth most to them on average over every deal (the
    lowest card on a tie); its name where it is another."""
    mine = [[-v for v in r] for r in answers]
    means = [sum(r[k] for r in mine) / len(mine) for k in range(len(replies))]
    best = max(range(len(replies)), key=lambda k: (means[k], -replies[k]))
    chosen = replies.index(m.reply)
    return _Sides(
        [r[chosen] for r in mine],
        [r[best] for r in mine],
        card_name(m.reply),
        card_name(replies[best]),
    )


def lead_marks(
    m: LeadMoment,
    deals: list[tuple[int, int]],
    rules: RuleSet,
    names: tuple[str, str],
    may_exchange: bool,
    rng: random.Random,
    known: int = -1,
) -> list[Mark]:
    """The marks of the lead ``m`` over ``deals`` (both hands at the lead): exchanging or not
    (where the leader may), the lead, then the follower's reply (where the record has it,
    :attr:`LeadMoment.reply`); none where the search is out of reach. ``known``: the cards
    of the leader's hand the record proves (all, -1, unless the deals are sampled hands the
    record allows, :func:`_judged`); the follower's replies judged are the cards they held
    in every deal."""
    if m.lying < 0 or not deals:
        return []
    starts, sampled = _starts(m, deals, rules, m.lying // 6, rng)
    if not starts or not exact_play_on(starts[0], rules):
        return []
    held = -1
    for o in starts:
        held &= o.hands[1 - m.leader]
    replies = cards_in(held) if m.reply >= 0 and held >> m.reply & 1 else []
    lead, swap, answers = _judged(m, starts, rules, may_exchange, known, replies)
    out = []
    if swap is not None:
        kind: MarkKind = "exchange" if m.exchanged else "no-exchange"
        out.append(_mark(m, m.leader, names, kind, swap, sampled))
    out.append(_mark(m, m.leader, names, "card", lead, sampled))
    if replies:
        out.append(_mark(m, 1 - m.leader, names, "card", _answered(m, answers, replies), sampled))
    return out


def _best(means: list[float], choices: list[Choice], at: int) -> int:
    """The index (from ``at``) of the choice worth most on average, the lowest card on a tie."""
    return max(range(at, at + len(choices)), key=lambda k: (means[k], -choices[k - at][0]))


def _mark(
    m: LeadMoment, player: int, names: tuple[str, str], kind: MarkKind, sides: _Sides, sampled: bool
) -> Mark:
    """A mark from the values of the choice made and of the best one, per deal."""
    n = len(sides.made)
    after, before = sum(sides.made) / n, sum(sides.best) / n
    low, high = interval([b - c for b, c in zip(sides.best, sides.made, strict=True)], not sampled)
    sign = 1 if player == 0 else -1
    return Mark(
        m.trick,
        names[player],
        kind,
        sides.made_name,
        before,
        after,
        sign * after,
        best_action=sides.best_name if before > after else "",
        orders=n,
        all_orders=not sampled,
        loss_low=max(0.0, low),
        loss_high=max(0.0, high),
    )
