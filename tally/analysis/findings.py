"""What a deal's record says about its close and its claim, with the exact solver.

:func:`analyse` replays a record (the engine's one replay loop) and, from the first phase-2
trick (after a close, or once the stock is exhausted), asks :mod:`tally.analysis.solver` what best
play on both sides was worth. The hands there are known when the record has ``Hands``; otherwise
RULES.md section 12 proves part of them (every card a player plays in phase 2, ``Remaining``)
and the rest is sampled: each unproven card is placed at random among the two hands and the
closed stock, keeping only placements under which every recorded phase-2 card was a legal
follow (the record proves no violation, so a player who did not follow suit had none). The
sampling is seeded, so the same record, samples and seed give the same findings. What the
record proves comes from :func:`tally.engine.evidence.proven_in_phase2` (section 12, one home).

Besides the value of the first phase-2 position it gives a mark on every decision
(:mod:`tally.analysis.marks`) and the close as the closer saw it
(:mod:`tally.analysis.closer_view`).

Findings are frozen dataclasses, players by name, values in game points from the closer's
side (or the forehand's when nobody closed): positive is a win for that player.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tally.analysis.closer_view import CLOSER_SAMPLES, CloserView, Seen, closer_view
from tally.analysis.closing import may_exchange
from tally.analysis.marks import Event, Mark, marks
from tally.analysis.phase1 import PHASE1_ORDERS, LeadMoment, draws_of, hands_at, lead_marks
from tally.analysis.solver import Judge, Position, Step, solve
from tally.analysis.stack import own_stack
from tally.engine.cards import Card
from tally.engine.deal import Deal
from tally.engine.evidence import (
    ClaimFact,
    DealFacts,
    proven_at_lead,
    proven_in_phase2,
    seq_after,
    shown_before,
)
from tally.engine.kernel import CLAIM_AT, DECK_MASKS, cards_in, game_points, legal_follows
from tally.engine.notation import (
    CardItem,
    ClaimItem,
    CloseItem,
    DealRecord,
    MarriageItem,
    SwapItem,
    TrickLine,
    read_hands,
    write_deal,
)
from tally.engine.replay import ReplayVisitor, replay
from tally.engine.rules import RuleSet
from tally.engine.ruling import rule

#: Samples of the unknown cards when a hand is not fully proven.
DEFAULT_SAMPLES = 200
#: Sampled deals per phase-1 lead for the decision to close (each needs a solve of the close
#: and one of playing on, the rest of phase 1 where it is exact).
DECISION_SAMPLES = 16
#: Sampled deals after which a chance to close not taken is settled when closing was worse in
#: the whole interval (:func:`tally.analysis.closer_view.closer_view`, ``settle``).
SETTLE_SAMPLES = 8
#: Sampled deals the marks of phase 2 are averaged over when a hand is not fully proven.
MARK_SAMPLES = 20
#: The note of a record the analysis cannot use (errors or violations).
UNANALYSABLE = "the record has errors or violations"
#: Tries per wanted sample before the sampler gives up on consistent placements.
_TRIES = 20


@dataclass(frozen=True)
class CloseFinding:
    """The value of the first phase-2 position with best play on both sides, for ``player``
    (the closer, or the forehand when the stock ran out), against the result."""

    player: str
    trick: int
    exact: bool
    samples: int
    #: mean game points for the closer with best play (exact when ``exact``)
    best: float
    #: share of the consistent deals the closer wins with best play
    won_share: float
    #: game points the closer actually scored (negative: the opponent's)
    as_played: int
    distribution: tuple[tuple[int, int], ...]
    line: tuple[str, ...]

    @property
    def sound(self) -> bool:
        """A close is sound when best play wins it in most consistent deals."""
        return self.won_share > 0.5


@dataclass(frozen=True)
class ClaimFinding:
    """A claim: correct or not, and the first moment the claimer could have claimed.

    ``trick`` and ``earliest`` count the tricks done at the moment (a claim at the start of
    line 4, or after trick 3, is made after trick 3); ``on_marriage`` and
    ``earliest_on_marriage`` say the moment was right after declaring a marriage, before the
    next trick's lead.
    """

    claimer: str
    trick: int
    correct: bool
    earliest: int | None
    on_marriage: bool = False
    earliest_on_marriage: bool = False

    @property
    def late_by(self) -> int:
        """Tricks played between the earliest correct claim and the claim made (0: on
        time)."""
        if self.earliest is None:
            return 0
        return self.trick - self.earliest


@dataclass(frozen=True)
class MistakeFinding:
    """The first phase-2 decision after which best play was worth less to its player: a card
    (``card`` its name, with a marriage declared) or a claim not made (``card`` is
    ``no claim``)."""

    player: str
    trick: int
    card: str
    before: float
    after: float
    #: a claim not made after the last trick (the deal played out)
    after_last: bool = False


@dataclass(frozen=True)
class CloseDecision:
    """At a phase-1 lead (or right after a trick, before the draws): the leader's mean game
    points of closing now and of playing on (:mod:`tally.analysis.closing`), judged by what the
    leader knew (:func:`tally.analysis.closer_view.closer_view`: their own hand, the cards
    seen, never the opponent's hand), over ``samples`` deals."""

    trick: int
    player: str
    closed: bool
    samples: int
    close_now: float
    play_on: float
    #: whether playing on was solved exactly in each deal (else estimated by the rollout)
    play_on_exact: bool = True
    #: the 95% interval of closing less playing on (:func:`tally.analysis.closer_view.interval`)
    low: float = 0.0
    high: float = 0.0
    #: whether the leader's own hand is the one the record proves (else sampled too)
    own_known: bool = True
    #: right after winning a trick, before the draws (``close_before_draw``)
    before_draws: bool = False

    @property
    def margin(self) -> float:
        """The farthest end of the interval from the difference (0 when every deal counted)."""
        gap = self.close_now - self.play_on
        return round(max(gap - self.low, self.high - gap), 6)

    @property
    def better(self) -> str:
        """``close`` or ``play on``, whichever was worth more (``either`` when equal)."""
        if self.close_now == self.play_on:
            return "either"
        return "close" if self.close_now > self.play_on else "play on"


@dataclass(frozen=True)
class DealAnalysis:
    """Everything :func:`analyse` found in one record."""

    file: str
    rules: str
    players: tuple[str, str]
    close: CloseFinding | None
    phase2: CloseFinding | None
    claim: ClaimFinding | None
    mistake: MistakeFinding | None
    note: str = ""
    decisions: tuple[CloseDecision, ...] = ()
    #: game points the claimer gave away by claiming late: the claim's value at the earliest
    #: correct moment less its value when made (0 when on time, or when the value was fixed
    #: at the close by ``close_scored_at=close``)
    claim_cost: int = 0
    #: a mark on every decision (:mod:`tally.analysis.marks`), in play order
    marks: tuple[Mark, ...] = ()
    #: the close judged by what the closer knew (:mod:`tally.analysis.closer_view`)
    closer_view: CloserView | None = None


@dataclass(frozen=True)
class _Snap:
    """The deal at the start of a phase-2 trick line, as the solver needs it."""

    trick: int
    leader: int
    played: int
    held: int
    points: tuple[int, int]
    marriages: tuple[int, int]
    tricks: tuple[int, int]
    lying: int


class _Watch(ReplayVisitor):
    """Notes every line's start: counted points (for claims) and phase-2 snapshots."""

    def __init__(self) -> None:
        self.snaps: list[_Snap] = []
        # trick, counted points of forehand and dealer, tricks of forehand and dealer
        self.counted: list[tuple[int, int, int, int, int]] = []
        self.leaders: list[int] = []
        # trick, declarer, the declarer's counted points right after declaring a marriage
        self.declared: list[tuple[int, int, int]] = []
        self.openings: list[LeadMoment] = []
        self.leads: list[LeadMoment] = []

    def begin_line(self, deal: Deal, line: TrickLine) -> None:
        names = deal.names
        self.counted.append(
            (
                deal.trick,
                deal.counted_points(names[0], valid_only=True),
                deal.counted_points(names[1], valid_only=True),
                *deal.tricks,
            )
        )
        self.leaders.append(deal.player_index(deal.leader))
        leader = self.leaders[-1]
        for item in line.items:
            if isinstance(item, MarriageItem):  # the leader's counted points once declared
                had = self.counted[-1][1 + leader]
                self.declared.append(
                    (deal.trick, leader, had + (item.value if deal.tricks[leader] else 0))
                )
        # a close written before this line's lead makes the line the first of phase 2
        closing = bool(line.items) and isinstance(line.items[0], CloseItem)
        if deal.phase == 1 and deal.lead is None and deal.can_close():
            self.openings.append(_opening(deal, closing, False))
        if deal.phase == 1 and deal.lead is None:
            moment = _lead_moment(deal, line)
            if moment is not None:
                self.leads.append(moment)
        if (deal.phase != 2 and not closing) or deal.lead is not None:
            return
        lying = deal.face_up
        closed = deal.closed or closing
        lying_mask = 0 if lying is None or (deal.stock_left == 0 and not closed) else 1 << lying
        cards_left = (
            deal.rules.deck - deal.played.bit_count() - deal.stock_left - lying_mask.bit_count()
        )
        mar = [0, 0]
        for m in deal.marriages:
            if m.allowed:
                mar[m.player] += m.points
        self.snaps.append(
            _Snap(
                deal.trick,
                deal.player_index(deal.leader),
                deal.played,
                cards_left // 2,
                deal.card_points,
                (mar[0], mar[1]),
                deal.tricks,
                lying_mask,
            )
        )

    def end_line(self, deal: Deal, line: TrickLine) -> None:
        """A close written after the line's trick: a close right after winning it, before the
        draws (the winner leads the next line)."""
        items = line.items
        if len(items) > 1 and isinstance(items[-1], CloseItem) and deal.closed:
            self.openings.append(_opening(deal, True, True))


def _lead_moment(deal: Deal, line: TrickLine) -> LeadMoment | None:
    """The phase-1 lead of ``line`` as :mod:`tally.analysis.phase1` marks it (None: the line
    closes, or claims instead of leading)."""
    items = list(line.items)
    exchanged = bool(items) and isinstance(items[0], SwapItem)
    if exchanged:
        items.pop(0)
    if not items or isinstance(items[0], CloseItem):
        return None
    first = items[0]
    if isinstance(first, MarriageItem):
        if len(items) > 1 and isinstance(items[1], ClaimItem):
            return None
        card, marriage = int(first.card), first.value
    elif isinstance(first, CardItem):
        card, marriage = int(first.card), 0
    else:
        return None
    reply = int(items[1].card) if len(items) > 1 and isinstance(items[1], CardItem) else -1
    return replace(
        _opening(deal, False, False), exchanged=exchanged, card=card, marriage=marriage, reply=reply
    )


def _opening(deal: Deal, closing: bool, before_draws: bool) -> LeadMoment:
    """The moment of ``deal`` where its leader may close, and whether the record closes."""
    mar = [0, 0]
    for m in deal.marriages:
        if m.allowed:
            mar[m.player] += m.points
    lying = deal.face_up
    return LeadMoment(
        deal.trick,
        deal.player_index(deal.leader),
        deal.played,
        -1 if lying is None else int(lying),
        deal.stock_left,
        deal.card_points,
        (mar[0], mar[1]),
        deal.tricks,
        closing=closing,
        before_draws=before_draws,
    )


def _decisions(
    watch: _Watch,
    facts: DealFacts,
    rules: RuleSet,
    names: tuple[str, str],
    samples: int,
    seed: int,
    closer_hands: Sequence[int],
) -> tuple[tuple[CloseDecision, ...], CloserView | None]:
    """Closing against playing on at every moment the leader could close, judged by what the
    leader knew (:func:`_seen_at`), and the view of the close the record made (the same
    figures: one judgement of a close). ``closer_hands``: the closer's hand at the close in
    each deal the phase-2 sampling found consistent with the record."""
    out = []
    view = None
    for lead in watch.openings:
        seens = _seen_at(lead, facts, rules, closer_hands if lead.closing else (), samples, seed)
        found = closer_view(
            seens,
            rules,
            names[lead.leader],
            lead.trick,
            samples=min(samples, CLOSER_SAMPLES if lead.closing else DECISION_SAMPLES),
            seed=seed + lead.trick,
            settle=0 if lead.closing else SETTLE_SAMPLES,
        )
        if found is None:
            continue
        if lead.closing:
            view = found
        out.append(
            CloseDecision(
                lead.trick,
                found.player,
                lead.closing,
                found.samples,
                found.close_value,
                found.play_on,
                found.play_on_exact,
                found.low,
                found.high,
                found.own_known,
                lead.before_draws,
            )
        )
    return tuple(out), view


def _seen_at(
    lead: LeadMoment,
    facts: DealFacts,
    rules: RuleSet,
    own_hands: Sequence[int],
    samples: int,
    seed: int,
) -> list[Seen]:
    """What the leader saw at ``lead``: their own hand (the one the record proves, or one per
    hand it may have been: ``own_hands``, else sampled around what the record proves by then,
    :func:`tally.engine.evidence.proven_at_lead`), the cards played and lying face up, what the
    opponent showed (:func:`tally.engine.evidence.shown_before`); the opponent's hand never."""
    lying = 0 if lead.lying < 0 else 1 << lead.lying
    deck = DECK_MASKS[rules.deck]
    held = (deck.bit_count() - lead.played.bit_count() - lead.left - lying.bit_count()) // 2
    proven = [k & ~lying for k in proven_at_lead(facts, lead.played)]
    me, opp = lead.leader, 1 - lead.leader
    distinct = set(own_hands)
    if len(distinct) == 1:
        hands = list(distinct)
    elif distinct:
        hands = list(own_hands)  # as often as the sampling found each
    elif proven[me].bit_count() == held:
        hands = [proven[me]]
    else:
        pool = cards_in(deck & ~lead.played & ~lying & ~proven[0] & ~proven[1])
        need = held - proven[me].bit_count()
        if not 0 <= need <= len(pool):
            return []
        rng = random.Random(seed + lead.trick)
        hands = [proven[me] | sum(1 << c for c in rng.sample(pool, need)) for _ in range(samples)]
    shown = shown_before(facts, opp, seq_after(facts, lead.played)) & ~lead.played & ~lying
    out = []
    for own in hands:
        unseen = deck & ~lead.played & ~lying & ~own & ~shown
        if own.bit_count() == held and unseen.bit_count() - (held - shown.bit_count()) == lead.left:
            out.append(
                Seen(
                    me,
                    facts.trump,
                    own,
                    shown,
                    unseen,
                    lead.lying,
                    lead.points,
                    lead.marriages,
                    lead.tricks,
                )
            )
    return out


def _plays(record: DealRecord, leaders: list[int]) -> list[tuple[int, int, int, int]]:
    """``(trick, player, card, marriage points)`` of every card of the record, in order."""
    out = []
    for tl, leader in zip(record.tricks, leaders, strict=False):
        mover = leader
        items = tl.items
        for k, item in enumerate(items):
            # a declared marriage leads its card, unless a claim follows at once
            if isinstance(item, MarriageItem) and not (
                k + 1 < len(items) and isinstance(items[k + 1], ClaimItem)
            ):
                out.append((tl.number, mover, int(item.card), item.value))
                mover = 1 - mover
            elif isinstance(item, CardItem):
                out.append((tl.number, mover, int(item.card), 0))
                mover = 1 - mover
    return out


@own_stack
def analyse(
    record: DealRecord, *, samples: int = DEFAULT_SAMPLES, seed: int = 0, file: str = ""
) -> DealAnalysis:
    """The findings of one record: its close, its claim, a mark on every decision."""
    file = file or record.source
    ruling = rule(record, file)
    names = (ruling.forehand, ruling.dealer)
    if not ruling.ok or ruling.state is None:
        note = f"{UNANALYSABLE}: nothing to analyse"
        return DealAnalysis(file, ruling.rules, names, None, None, None, None, note=note)
    rules = RuleSet.parse(ruling.rules)
    deal, watch = _replay(record, rules)
    claim = _claim(record, deal, watch, rules)
    facts = deal.facts()
    claim_cost = _claim_cost(
        claim, watch, rules, facts.closed, facts.closer, deal.names, ruling.deal_points
    )
    seed_here = deal_seed(record, ruling.rules, seed)
    winner = ruling.outcome.winner if ruling.outcome is not None else None
    result = (winner, ruling.deal_points)
    phase2, note = _phase2_of(record, deal, watch, facts, result, samples, seed_here)
    finding, found, positions = phase2 or (None, (), [])
    closer_hands = [p[facts.closer] for p in positions] if facts.closed else []
    decisions, view = _decisions(
        watch, facts, rules, names, max(1, samples), seed_here, closer_hands
    )
    if view is not None:
        view = replace(view, seed=seed)
    early = _phase1_claims(
        watch, rules, facts, names, watch.snaps[0].trick if watch.snaps else None, result, claim
    )
    leads = _phase1_leads(record, deal, watch, seed_here, positions)
    return DealAnalysis(
        file,
        ruling.rules,
        names,
        finding if facts.closed else None,
        finding,
        claim,
        _turning(found, facts.claim is None),
        note=note,
        decisions=decisions,
        claim_cost=claim_cost,
        marks=_in_order(early + tuple(_close_mark(d, names) for d in decisions) + leads + found),
        closer_view=view,
    )


def phase1_marks(record: DealRecord, *, seed: int = 0) -> tuple[Mark, ...]:
    """The marks of the phase-1 leads and exchanges of a record that analyses (what
    :func:`analyse` gives among its marks), seeded as :func:`analyse` is."""
    ruling = rule(record, record.source)
    if not ruling.ok or ruling.state is None:
        return ()
    deal, watch = _replay(record, RuleSet.parse(ruling.rules))
    seed_here = deal_seed(record, ruling.rules, seed)
    positions: list[tuple[int, int]] = []
    facts = deal.facts()
    if not (facts.dealt[0] and facts.dealt[1]):
        result = (ruling.outcome.winner if ruling.outcome is not None else None, ruling.deal_points)
        phase2, _ = _phase2_of(record, deal, watch, facts, result, DEFAULT_SAMPLES, seed_here)
        positions = phase2[2] if phase2 is not None else []
    return _phase1_leads(record, deal, watch, seed_here, positions)


def _phase1_leads(
    record: DealRecord, deal: Deal, watch: _Watch, seed: int, positions: Sequence[tuple[int, int]]
) -> tuple[Mark, ...]:
    """The marks of each phase-1 lead (and of exchanging or not before it) where the record
    proves both hands, else over :data:`PHASE1_ORDERS` deals consistent with it
    (:mod:`tally.analysis.phase1`): with the dealt hands not listed, each a way the record may
    have been dealt, around the hands of one of ``positions`` (phase 2's sampled deals, so
    that every later follow stays legal)."""
    facts, rules, names = deal.facts(), deal.rules, deal.names
    rounds = (rules.stock_size + 1 - deal.stock_left - (deal.face_up is not None)) // 2
    remaining = {
        facts.names.index(name): sum(1 << c for c in cards)
        for name, cards in read_hands(record.tags.get("Remaining", ""))
    }
    final = proven_in_phase2(facts, remaining)
    plays = _plays(record, watch.leaders)
    rng = random.Random(seed)
    dealt = bool(facts.dealt[0] and facts.dealt[1])
    ways = [draws_of(facts, plays, final, rounds)] if dealt else []
    for k in range(0 if dealt else PHASE1_ORDERS * _TRIES):
        if len(ways) == PHASE1_ORDERS:
            break
        at = positions[k % len(positions)] if positions else final
        ways.append(draws_of(facts, plays, at, rounds, (rules.hand, rng)))
    drawn = [w for w in ways if w is not None]
    if not drawn:
        return ()
    out: list[Mark] = []
    for m in watch.leads:
        rng = random.Random(seed + m.trick)
        if dealt:
            found = hands_at(m, drawn[0], PHASE1_ORDERS, rng)
        else:
            found = [h for d in drawn for h in hands_at(m, d, 1, rng)]
        deals = [h for h in found if not h[0] & h[1] and {k.bit_count() for k in h} == {rules.hand}]
        if not deals:
            continue
        known = -1
        for h in deals:
            known &= h[m.leader]
        swap = may_exchange(rules, facts.trump, known, m.tricks[m.leader], m.lying)
        out += lead_marks(m, deals, rules, names, swap, rng, known if len(deals) > 1 else -1)
    return tuple(out)


def _phase2_of(
    record: DealRecord,
    deal: Deal,
    watch: _Watch,
    facts: DealFacts,
    result: tuple[str | None, int],
    samples: int,
    seed: int,
) -> tuple[tuple[CloseFinding, tuple[Mark, ...], list[tuple[int, int]]] | None, str]:
    """Phase 2's finding, marks and hands (:func:`_phase2`) over the hands the record proves
    (its ``Remaining`` tag too), and the note that says why there are none ("" when there
    are)."""
    if not watch.snaps:
        return None, "the deal never reached phase 2"
    remaining = {
        deal.player_index(name): sum(1 << c for c in cards)
        for name, cards in read_hands(record.tags.get("Remaining", ""))
    }
    proven = proven_in_phase2(facts, remaining)
    phase2 = _phase2(record, deal, watch, result, proven, samples, seed)
    if phase2 is None:
        return None, "the hands the record proves do not fit its phase 2"
    return phase2, ""


#: The tags that say which deal was played (with its rules and trick lines); others, such as
#: ``Hands`` or ``Event``, say what the record knows of it and leave the seed alone.
_DEAL_TAGS = ("Dealer", "Forehand", "Trump")


def _turning(found: tuple[Mark, ...], unclaimed: bool) -> MistakeFinding | None:
    """The first phase-2 decision that lost value (``unclaimed``: nobody claimed, so a
    claim not made as the last mark was after the last trick)."""
    for k, m in enumerate(found):
        if m.loss > 0:
            last = unclaimed and m.kind == "no-claim" and k == len(found) - 1
            return MistakeFinding(m.player, m.trick, m.action, m.before, m.after, last)
    return None


def deal_seed(record: DealRecord, rules: str, seed: int) -> int:
    """The seed one deal's sampling starts from: ``seed`` and the deal as played (its rules as
    the ruling names them, players, trumps and trick lines) together, so that the deals of an
    evening are sampled independently, and the same deal and seed give the same findings."""
    played = DealRecord({k: v for k, v in record.tags.items() if k in _DEAL_TAGS}, record.tricks)
    return zlib.crc32(f"{seed}\n{rules}\n{write_deal(played)}".encode()) & 0x7FFFFFFF


def _in_order(found: tuple[Mark, ...]) -> tuple[Mark, ...]:
    """The marks in play order: by trick (stable, so a moment's marks keep their order)."""
    return tuple(sorted(found, key=lambda m: m.trick))


def _phase2(
    record: DealRecord,
    deal: Deal,
    watch: _Watch,
    result: tuple[str | None, int],
    proven: tuple[int, int],
    samples: int,
    seed: int,
) -> tuple[CloseFinding, tuple[Mark, ...], list[tuple[int, int]]] | None:
    """The value of the first phase-2 position and the marks of phase 2, over the one pair of
    hands the record proves or deals sampled consistent with it, and those hands (None: none
    fits)."""
    facts = deal.facts()
    names = deal.names
    snap = watch.snaps[0]
    closer = facts.closer if facts.closed and facts.closer >= 0 else None
    side = closer if closer is not None else 0
    winner, deal_points = result
    signed = 0
    if winner is not None:
        signed = deal_points if names.index(winner) == side else -deal_points
    at_close = None
    if closer is not None:
        opp = 1 - closer
        pts, trk = [0, 0], [0, 0]
        pts[opp], trk[opp] = facts.close_opp_points, facts.close_opp_tricks
        at_close = ((pts[0], pts[1]), (trk[0], trk[1]))
    later = [p for p in _plays(record, watch.leaders) if p[0] >= snap.trick]
    positions, exact = _sample(snap, later, proven, deal.rules, samples, seed, facts.trump)
    if not positions:
        return None
    finding = _finding(
        positions, exact, snap, deal.rules, closer, at_close, side, names, signed, facts.trump
    )
    events = _events(record, watch.leaders, snap.trick, facts.claim, deal_points)
    found = marks(
        positions[:MARK_SAMPLES],
        lambda hands: _position(hands, snap, closer, at_close, facts.trump),
        events,
        lambda pos: Judge(pos, deal.rules),
        names,
    )
    return finding, found, positions


def _close_mark(d: CloseDecision, names: tuple[str, str]) -> Mark:
    """A close or a chance to close as a mark: the better of closing and playing on against
    the one chosen, by what the leader knew (the decision's means)."""
    best = max(d.close_now, d.play_on)
    after = d.close_now if d.closed else d.play_on
    sign = 1 if d.player == names[0] else -1
    return Mark(
        d.trick,
        d.player,
        "close" if d.closed else "no-close",
        "close" if d.closed else "no close",
        best,
        after,
        sign * after,
        estimated=not d.play_on_exact,
        best_action="" if best == after else "no close" if d.closed else "close",
    )


def _events(
    record: DealRecord, leaders: list[int], first: int, claim: ClaimFact | None, deal_points: int
) -> list[Event]:
    """The recorded actions from trick ``first`` on, as :mod:`tally.analysis.marks` judges them."""
    out = []
    for tl, leader in zip(record.tricks, leaders, strict=False):
        if tl.number < first:
            continue
        mover = leader
        items = tl.items
        for k, item in enumerate(items):
            if isinstance(item, MarriageItem):
                claims = k + 1 < len(items) and isinstance(items[k + 1], ClaimItem)
                out.append(
                    Event(
                        "declare" if claims else "card",
                        tl.number,
                        mover,
                        int(item.card),
                        item.value,
                    )
                )
                mover = mover if claims else 1 - mover
            elif isinstance(item, CardItem):
                out.append(Event("card", tl.number, mover, int(item.card)))
                mover = 1 - mover
            elif isinstance(item, ClaimItem) and claim is not None:
                out.append(
                    Event(
                        "claim", tl.number, claim.player, correct=claim.correct, value=deal_points
                    )
                )
    return out


def _replay(record: DealRecord, rules: RuleSet) -> tuple[Deal, _Watch]:
    """Replay the record (its dealt ``Hands`` given to the deal) with a watcher."""
    tags = record.tags
    deal = Deal.start(
        rules,
        dealer=tags["Dealer"].strip(),
        forehand=tags["Forehand"].strip(),
        trump=Card.parse(tags["Trump"]),
        keep_history=False,
    )
    for name, cards in read_hands(tags["Hands"]) if "Hands" in tags else []:
        deal.set_hand(name, cards)
    watch = _Watch()
    replay(deal, record.tricks, watch)
    return deal, watch


def _sample(
    snap: _Snap,
    later: list[tuple[int, int, int, int]],
    proven_ever: tuple[int, int],
    rules: RuleSet,
    samples: int,
    seed: int,
    trump: int,
) -> tuple[list[tuple[int, int]], bool]:
    """Hands at ``snap`` for the solver, and whether they are exact: the one pair the record
    proves (section 12, :func:`tally.engine.evidence.proven_in_phase2`), or consistent random ones
    around what it proves."""
    proven = [
        proven_ever[0] & ~snap.played & ~snap.lying,
        proven_ever[1] & ~snap.played & ~snap.lying,
    ]
    for _, player, card, _ in later:
        proven[player] |= 1 << card
    pool = cards_in(DECK_MASKS[rules.deck] & ~snap.played & ~proven[0] & ~proven[1] & ~snap.lying)
    need = (snap.held - proven[0].bit_count(), snap.held - proven[1].bit_count())
    if min(need) < 0:
        return [], True  # more proven than held: a record the engine refuses
    if min(need) == 0 and max(need) in (0, len(pool)):
        # one hand proven whole and the rest of the unplayed cards held by the other
        hands = (
            proven[0] | sum(1 << c for c in pool) * (need[0] > 0),
            proven[1] | sum(1 << c for c in pool) * (need[1] > 0),
        )
        return ([hands] if _consistent(hands, later, snap.leader, trump) else []), True
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    for _ in range(max(samples, 10) * _TRIES):
        rng.shuffle(pool)
        h0 = proven[0] | sum(1 << c for c in pool[: need[0]])
        h1 = proven[1] | sum(1 << c for c in pool[need[0] : need[0] + need[1]])
        if _consistent((h0, h1), later, snap.leader, trump):
            out.append((h0, h1))
            if len(out) == samples:
                break
    return out, False


def _consistent(
    hands: tuple[int, int], later: list[tuple[int, int, int, int]], leader: int, trump: int
) -> bool:
    """Whether every recorded phase-2 follow was legal from these hands."""
    held = list(hands)
    lead = -1
    for _, player, card, _ in later:
        if lead >= 0 and not legal_follows(held[player], lead, trump) >> card & 1:
            return False
        held[player] &= ~(1 << card)
        lead = card if lead < 0 else -1
    return True


def _position(
    hands: tuple[int, int],
    snap: _Snap,
    closer: int | None,
    at_close: tuple[tuple[int, int], tuple[int, int]] | None,
    trump: int,
) -> Position:
    return Position(
        hands, snap.leader, trump, snap.points, snap.marriages, snap.tricks, closer, at_close
    )


def _finding(
    positions: list[tuple[int, int]],
    exact: bool,
    snap: _Snap,
    rules: RuleSet,
    closer: int | None,
    at_close: tuple[tuple[int, int], tuple[int, int]] | None,
    side: int,
    names: tuple[str, str],
    signed: int,
    trump: int,
) -> CloseFinding:
    """The value of the first phase-2 position over every sampled (or the known) deal."""
    values: Counter[int] = Counter()
    line: tuple[Step, ...] = ()
    for k, hands in enumerate(positions):
        sol = solve(_position(hands, snap, closer, at_close, trump), rules)
        values[sol.value if side == 0 else -sol.value] += 1
        if k == 0:
            line = sol.line
    n = len(positions)
    return CloseFinding(
        player=names[side],
        trick=snap.trick,
        exact=exact,
        samples=n,
        best=sum(v * c for v, c in values.items()) / n,
        won_share=sum(c for v, c in values.items() if v > 0) / n,
        as_played=signed,
        distribution=tuple(sorted(values.items())),
        line=tuple(_step_text(s, names) for s in line),
    )


def _step_text(step: Step, names: tuple[str, str]) -> str:
    """A line's step in words: ``Anna AH``, ``Anna KH (20)``, ``Anna claims (2)``."""
    if step.end is None:
        return str(step).replace(str(step.player), names[step.player], 1)
    if step.end == "draw":
        return "draw"
    return f"{names[step.player]} {step.end} ({step.game_points})"


def _claim_moment(record: DealRecord, fallback: int) -> tuple[int, bool]:
    """When the record's claim was made: the tricks done by then, and whether right after a
    declared marriage (NOTATION.md: ``66`` at a line's start is made before that line's lead,
    ``66`` after a trick after it)."""
    for tl in record.tricks:
        for k, item in enumerate(tl.items):
            if isinstance(item, ClaimItem):
                if k == 0:
                    return tl.number - 1, False
                if isinstance(tl.items[k - 1], MarriageItem):
                    return tl.number - 1, True
                return tl.number, False
    return fallback, False


def _claim(record: DealRecord, deal: Deal, watch: _Watch, rules: RuleSet) -> ClaimFinding | None:
    """The claim of the record, and the first moment its claimer had 66 and could claim:
    between tricks (any player, or the one on lead with ``claim_when=on-lead``) or right after
    declaring a marriage (section 8)."""
    fact = deal.facts().claim
    if fact is None:
        return None
    made, on_marriage = _claim_moment(record, deal.trick)
    p = fact.player
    moments = [
        (trick - 1, False, (rules.claim_when == "any" or leader == p) and (c0, c1)[p] >= CLAIM_AT)
        for (trick, c0, c1, _, _), leader in zip(watch.counted, watch.leaders, strict=True)
    ]
    moments += [
        (trick - 1, True, who == p and had >= CLAIM_AT) for trick, who, had in watch.declared
    ]
    possible = sorted((done, marriage) for done, marriage, ok in moments if ok)
    earliest: tuple[int, bool] | None = possible[0] if possible else None
    if earliest is not None and earliest >= (made, on_marriage):
        earliest = None
    return ClaimFinding(
        deal.names[p],
        made,
        fact.correct,
        None if earliest is None else earliest[0],
        on_marriage,
        earliest is not None and earliest[1],
    )


def _claim_moments(
    watch: _Watch, rules: RuleSet, facts: DealFacts, close_trick: int
) -> list[tuple[int, bool, int, int]]:
    """Every moment a player could claim correctly, in play order: ``(tricks done, right
    after a marriage, player, game points the claim was worth)``; after a close, worth what
    RULES.md section 7 gives (a failed close for the closer's opponent, the counts at the close
    with ``close_scored_at=close``)."""
    at_start = {trick: (c0, c1, t0, t1) for trick, c0, c1, t0, t1 in watch.counted}

    def worth(trick: int, p: int) -> int:
        c0, c1, t0, t1 = at_start[trick]
        if facts.closed and trick >= close_trick:
            if p != facts.closer:
                return 2 if facts.close_opp_tricks else 3
            if rules.close_scored_at == "close":
                return game_points(facts.close_opp_points, facts.close_opp_tricks)
        return game_points((c1, c0)[p], (t1, t0)[p])

    out = []
    for (trick, c0, c1, _, _), leader in zip(watch.counted, watch.leaders, strict=True):
        for p in (leader, 1 - leader):
            if (rules.claim_when == "any" or leader == p) and (c0, c1)[p] >= CLAIM_AT:
                out.append((trick - 1, False, p, worth(trick, p)))
    for trick, who, had in watch.declared:
        if had >= CLAIM_AT:
            out.append((trick - 1, True, who, worth(trick, who)))
    return sorted(out)


def _phase1_claims(
    watch: _Watch,
    rules: RuleSet,
    facts: DealFacts,
    names: tuple[str, str],
    first_phase2: int | None,
    result: tuple[str | None, int],
    claim: ClaimFinding | None,
) -> tuple[Mark, ...]:
    """A ``no-claim`` mark at each phase-1 moment a player could claim correctly and did not:
    before, the claim's game points then (the counts are known exactly); after, what their
    next chance to claim was worth (the next moment, or the claim they made), or the deal as
    scored when no chance came again. A claim later never scores more (the opponent's points
    and tricks only grow), so the marks of one player add up to what waiting cost them."""
    moments = _claim_moments(watch, rules, facts, first_phase2 or 1 << 30)
    made = (claim.trick, claim.on_marriage) if claim is not None else (1 << 30, False)
    winner, points = result
    out = []
    for k, (done, on_marriage, p, before) in enumerate(moments):
        if (first_phase2 is not None and done + 1 >= first_phase2) or (done, on_marriage) > made:
            break
        if claim is not None and (done, on_marriage) == made and names[p] == claim.claimer:
            continue
        later = [m for m in moments[k + 1 :] if m[2] == p]
        if later:
            after = float(later[0][3])
        else:
            after = (
                0.0 if winner is None else float(points if names.index(winner) == p else -points)
            )
        sign = 1 if p == 0 else -1
        out.append(
            Mark(
                done + 1,
                names[p],
                "no-claim",
                "no claim",
                before,
                after,
                sign * after,
                best_action="claim",
            )
        )
    return tuple(out)


def _claim_cost(
    claim: ClaimFinding | None,
    watch: _Watch,
    rules: RuleSet,
    closed: bool,
    closer: int,
    names: tuple[str, str],
    made_points: int,
) -> int:
    """Game points a correct but late claim gave away: what it was worth at the earliest
    moment (the opponent's counted points and tricks then, :func:`game_points`) less what it
    scored. Nothing when the claim was on time, false, or scored as things stood at the close."""
    if claim is None or not claim.correct or claim.earliest is None:
        return 0
    if closed and (rules.close_scored_at == "close" or names.index(claim.claimer) != closer):
        return 0  # the value was fixed when the stock was closed: waiting cost nothing
    opp = 1 - names.index(claim.claimer)
    for trick, c0, c1, t0, t1 in watch.counted:
        if trick == claim.earliest + 1:
            then = game_points((c0, c1)[opp], (t0, t1)[opp])
            return max(0, then - made_points)
    return 0
