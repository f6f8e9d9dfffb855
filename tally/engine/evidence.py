"""What a record proves (RULES.md section 12), worked out on frozen facts.

A :class:`~tally.engine.deal.Deal` notes what happened as it is replayed and hands over a frozen
:class:`DealFacts`; :func:`proven_violations` then looks at the whole record once more for what
only the record as a whole proves: a revoke shown by a card played tricks later, a marriage
shown false by the opponent playing its queen, an exchange shown false by where the exchange
card turns up. Nothing here changes a deal; the deal itself imports this module for the
messages of the follow duty (:func:`follow_problem`), so both say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple, Protocol

from tally.engine.cards import CARDS, Card, cards_of
from tally.engine.kernel import HIGHER, SUIT_MASKS, Rule, follow_duty
from tally.engine.rules import RuleSet
from tally.errors import Message
from tally.i18n import N_


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken by ``player`` at ``trick``, named as in RULES.md section 10."""

    trick: int
    player: str
    rule: Rule
    #: what the referee says, for a person in any language (:mod:`tally.errors`)
    wording: Message
    seq: int = 0

    @property
    def message(self) -> str:
        """What the referee says, in English (``tally check --json``)."""
        return str(self.wording)

    def as_json(self) -> dict[str, object]:
        """The violation as ``tally check --json`` prints it."""
        return {
            "trick": self.trick,
            "player": self.player,
            "rule": str(self.rule),
            "message": self.message,
        }


class MarriageEvent(NamedTuple):
    """A declared marriage, as the ruling needs to know it."""

    seq: int
    trick: int
    player: int
    card: int
    partner: int
    points: int
    allowed: bool


class SwapEvent(NamedTuple):
    """An exchange, as the ruling needs to know it; ``taken`` is a card or negative (unknown,
    or nothing moved)."""

    seq: int
    trick: int
    player: int
    moved: bool
    allowed: bool
    taken: int


#: A follower's card played in phase 2, to be checked against what the record proves:
#: ``(seq, trick, player, lead, card, played)``, ``played`` being every card played up to and
#: including this one. (A plain tuple: a deal makes one per trick of phase 2, and a named
#: tuple is made ten times slower.)
FollowEvent = tuple[int, int, int, int, int, int]


class ClaimFact(NamedTuple):
    """A claim: when (``seq``), by whom, whether correct, with what counted points."""

    seq: int
    player: int
    correct: bool
    points: int


class CardTricks(Protocol):
    """The trick each card was played in, by the card's number (0: not played)."""

    def __getitem__(self, card: int, /) -> int: ...


class DealFacts(NamedTuple):
    """Everything a deal noted, frozen: what :func:`proven_violations` and the ruling read.

    Players are indices (0 forehand, 1 dealer); cards are numbers; ``-1`` means none. (A
    named tuple rather than a dataclass: one is made for every record ruled, and a tuple of
    28 fields is made three times faster. The sequences are tuples from a deal and the quick
    lane's own lists, made for these facts alone: nothing changes them after.)
    """

    rules: RuleSet
    names: tuple[str, str]
    turn_up: int
    trump: int
    xcard: int
    carry: int
    swaps: Sequence[SwapEvent]
    marriages: Sequence[MarriageEvent]
    follows: Sequence[FollowEvent]
    violations: tuple[Violation, ...]
    play_seq: Sequence[int]
    play_trick: CardTricks
    played_by: tuple[int, int]
    dealt: tuple[int, int]
    t_taken_by: int
    t_taken_seq: int
    last_draw_loser: int
    last_draw_seq: int
    claim: ClaimFact | None
    closed: bool
    closer: int
    close_seq: int
    close_opp_points: int
    close_opp_tricks: int
    tricks: tuple[int, int]
    card_points: tuple[int, int]
    last_trick_winner: int
    all_tricks_played: bool

    def counted(self, p: int, with_bonus: bool = True, valid_only: bool = True) -> int:
        """Counted points of player ``p`` (see :func:`counted_points`)."""
        marriages = 0
        if self.marriages:
            marriages = sum(
                m.points for m in self.marriages if m.player == p and (m.allowed or not valid_only)
            )
        bonus = self.last_trick_bonus(p) if with_bonus else 0
        return counted_points(self.card_points[p], self.tricks[p], marriages, bonus)

    def both_counted(self) -> tuple[int, int]:
        """Counted points of both players, as :meth:`counted` gives each (one call for the
        ruling of every record)."""
        m0 = m1 = 0
        for m in self.marriages:
            if m.allowed:
                if m.player:
                    m1 += m.points
                else:
                    m0 += m.points
        (c0, c1), (t0, t1) = self.card_points, self.tricks
        return (
            counted_points(c0, t0, m0, self.last_trick_bonus(0)),
            counted_points(c1, t1, m1, self.last_trick_bonus(1)),
        )

    def last_trick_bonus(self, p: int) -> int:
        """The last-trick bonus of ``p``: for winning the last trick of a deal not closed."""
        if self.all_tricks_played and self.last_trick_winner == p and not self.closed:
            return self.rules.last_trick_bonus
        return 0

    def player_of(self, card: int) -> int:
        """Who played ``card`` (a player's index), ``-1`` when nobody has."""
        if self.played_by[0] >> card & 1:
            return 0
        return 1 if self.played_by[1] >> card & 1 else -1

    def turn_up_with(self, p: int, seq: int) -> bool:
        """Whether the turn-up was in ``p``'s hand at ``seq`` (taken by exchange or last draw)."""
        if self.t_taken_by >= 0:
            return self.t_taken_by == p and self.t_taken_seq < seq
        return self.last_draw_loser == p and 0 <= self.last_draw_seq < seq


def counted_points(card_points: int, tricks: int, marriages: int, bonus: int) -> int:
    """Counted points (RULES.md section 3): card points won, plus marriages and the last-trick
    bonus once the player has won a trick."""
    return card_points + (marriages + bonus if tricks else 0)


# The messages of the violations the record proves, one template each, marked for the
# catalogue (each violation carries its template and values: :attr:`Violation.wording`).
MSG_FOLLOW_SUIT: Final = N_("%(player)s played %(card)s to %(led)s while holding %(cards)s")
MSG_MUST_TRUMP: Final = N_(
    "%(player)s played %(card)s to %(led)s, neither following nor trumping, while holding %(cards)s"
)
MSG_MUST_HEAD: Final = N_(
    "%(player)s played %(card)s under %(led)s while holding %(cards)s, which beats it"
)
MSG_FALSE_EXCHANGE: Final = N_("%(player)s exchanged without holding %(card)s")
MSG_FALSE_MARRIAGE: Final = N_(
    "%(player)s declared %(points)s without holding %(card)s: %(message)s"
)
MSG_PLAYED_BEFORE: Final = N_("%(card)s was played in trick %(trick)s")
MSG_IS_TURN_UP: Final = N_("%(card)s is the turn-up")
MSG_TOOK_TURN_UP: Final = N_("%(player)s had taken the turn-up %(card)s")
MSG_PLAYED_IT: Final = N_("%(player)s played %(card)s in trick %(trick)s")
MSG_DEALT_TO: Final = N_("%(card)s was dealt to %(player)s")
MSG_STILL_HELD: Final = N_("%(player)s still held %(card)s")
#: Every template of a message of this module.
MESSAGES: Final = (
    MSG_FOLLOW_SUIT,
    MSG_MUST_TRUMP,
    MSG_MUST_HEAD,
    MSG_FALSE_EXCHANGE,
    MSG_FALSE_MARRIAGE,
    MSG_PLAYED_BEFORE,
    MSG_IS_TURN_UP,
    MSG_TOOK_TURN_UP,
    MSG_PLAYED_IT,
    MSG_DEALT_TO,
    MSG_STILL_HELD,
)


def follow_problem(
    names: tuple[str, str], trump: int, p: int, lead: int, card: int, proven: int
) -> tuple[Rule | None, Message]:
    """The phase-2 duty ``card`` breaks when ``proven`` is what follower ``p`` is known to
    hold, with the message a referee gives; ``(None, Message(""))`` when none."""
    rule, cards = follow_duty(lead, card, trump, proven)
    if rule is None:
        return None, Message("")
    template = (
        MSG_FOLLOW_SUIT
        if rule is Rule.FOLLOW_SUIT
        else MSG_MUST_TRUMP
        if rule is Rule.MUST_TRUMP
        else MSG_MUST_HEAD
    )
    return rule, Message(
        template, player=names[p], card=CARDS[card], led=CARDS[lead], cards=card_list(cards)
    )


def card_list(mask: int) -> str:
    """The cards of ``mask`` for a message: ``"KS QS"``."""
    return " ".join(str(c) for c in cards_of(mask))


def first_card(mask: int) -> Card:
    """The lowest card of a non-empty mask."""
    return CARDS[(mask & -mask).bit_length() - 1]


# --- what the whole record proves ---------------------------------------------------------


def proven_violations(facts: DealFacts, remaining: dict[int, int]) -> list[Violation]:
    """The violations only the whole record proves: false exchanges, false marriages and
    phase-2 follows against every card the record shows a player held."""
    out: list[Violation] = []
    rem = (remaining.get(0, 0), remaining.get(1, 0)) if remaining else (0, 0)
    false_moves: Sequence[tuple[int, int]]
    true_partners: Sequence[tuple[int, int, int]]
    if facts.swaps:
        false_moves, last_drawn = _exchanges(facts, rem, out)
    else:  # (what _exchanges finds when nobody exchanged)
        false_moves, last_drawn = (), facts.turn_up if facts.last_draw_seq >= 0 else -1
    true_partners = _marriages(facts, rem, false_moves, out) if facts.marriages else ()
    if facts.follows:
        _follows(facts, rem, false_moves, true_partners, last_drawn, out)
    return out


def _exchange_false(
    facts: DealFacts, s: SwapEvent, rem: tuple[int, int], x_face_since: int
) -> bool:
    """Whether the record proves that exchange ``s`` was made without the exchange card."""
    x, e, p = facts.xcard, s.seq, s.player
    play_seq, d_seq, loser = facts.play_seq[x], facts.last_draw_seq, facts.last_draw_loser
    if x == facts.turn_up or 0 <= play_seq < e or facts.dealt[1 - p] >> x & 1:
        return True
    if x_face_since >= 0 and not (0 <= d_seq and x_face_since < d_seq < e and loser == p):
        return True
    false = False
    q = facts.player_of(x)
    if q >= 0 and play_seq > e:
        if s.moved:
            false = not (0 <= d_seq and e < d_seq < play_seq and q == loser)
        else:
            false = q != p
    for r in (0, 1):
        if rem[r] >> x & 1:
            if s.moved:
                false = false or not (0 <= d_seq and d_seq > e and r == loser)
            else:
                false = false or r != p
    return false


def _exchanges(
    facts: DealFacts, rem: tuple[int, int], out: list[Violation]
) -> tuple[Sequence[tuple[int, int]], int]:
    """False exchanges into ``out``; returns the false exchanges that moved the cards
    ``(seq, exchanger)`` and the card the loser of the last draw took (-1: unknown)."""
    names, x = facts.names, facts.xcard
    x_face_since = -1  # seq since which a true exchange put X face up
    true_swap_seqs: list[int] = []
    # False exchanges that moved the cards: the exchanger put an unknown card of theirs face
    # up, so one card of their dealt hand may be gone (to whoever takes it).
    false_moves: list[tuple[int, int]] = []
    for s in facts.swaps:
        p = s.player
        if _exchange_false(facts, s, rem, x_face_since):
            out.append(
                Violation(
                    s.trick,
                    names[p],
                    Rule.FALSE_EXCHANGE,
                    Message(MSG_FALSE_EXCHANGE, player=names[p], card=CARDS[x]),
                    s.seq,
                )
            )
            if s.moved:
                false_moves.append((s.seq, p))
        elif s.moved:
            x_face_since = s.seq
            true_swap_seqs.append(s.seq)
    # What the loser of the last draw took: the turn-up, or the card an exchange put there.
    last_drawn = -1
    d_seq = facts.last_draw_seq
    if d_seq >= 0:
        moving = [s for s in facts.swaps if s.moved and s.seq < d_seq]
        if not moving:
            last_drawn = facts.turn_up
        elif moving[-1].seq in true_swap_seqs:
            last_drawn = x
    return false_moves, last_drawn


def _marriage_false(
    facts: DealFacts, m: MarriageEvent, rem: tuple[int, int], false_moves: Sequence[tuple[int, int]]
) -> Message | None:
    """Why the record proves marriage ``m`` false (None when it does not)."""
    names = facts.names
    p, o, q, e = m.player, 1 - m.player, m.partner, m.seq
    d_seq, loser = facts.last_draw_seq, facts.last_draw_loser
    if 0 <= facts.play_seq[q] < e:
        return Message(MSG_PLAYED_BEFORE, card=CARDS[q], trick=facts.play_trick[q])
    if q == facts.turn_up and not facts.turn_up_with(p, e):
        if not facts.turn_up_with(o, e):
            return Message(MSG_IS_TURN_UP, card=CARDS[q])
        return Message(MSG_TOOK_TURN_UP, player=names[o], card=CARDS[q])
    if facts.player_of(q) == o:
        return Message(MSG_PLAYED_IT, player=names[o], card=CARDS[q], trick=facts.play_trick[q])
    if facts.dealt[o] >> q & 1 and not (
        0 <= d_seq < e and loser == p and any(who == o and seq < d_seq for seq, who in false_moves)
    ):
        # (unless o put it face up by a false exchange and p took it at the last draw)
        return Message(MSG_DEALT_TO, card=CARDS[q], player=names[o])
    if rem[o] >> q & 1:
        return Message(MSG_STILL_HELD, player=names[o], card=CARDS[q])
    return None


def _marriages(
    facts: DealFacts,
    rem: tuple[int, int],
    false_moves: Sequence[tuple[int, int]],
    out: list[Violation],
) -> list[tuple[int, int, int]]:
    """False marriages into ``out``; returns the true ones as ``(seq, player, partner)``."""
    names = facts.names
    true_partners: list[tuple[int, int, int]] = []
    for m in facts.marriages:
        why = _marriage_false(facts, m, rem, false_moves)
        if why is not None:
            out.append(
                Violation(
                    m.trick,
                    names[m.player],
                    Rule.FALSE_MARRIAGE,
                    Message(
                        MSG_FALSE_MARRIAGE,
                        player=names[m.player],
                        points=m.points,
                        card=CARDS[m.partner],
                        message=why,
                    ),
                    m.seq,
                )
            )
        else:
            true_partners.append((m.seq, m.player, m.partner))
    return true_partners


def _follows(
    facts: DealFacts,
    rem: tuple[int, int],
    false_moves: Sequence[tuple[int, int]],
    true_partners: Sequence[tuple[int, int, int]],
    last_drawn: int,
    out: list[Violation],
) -> None:
    """Phase-2 follows into ``out``: the duty to follow, head and trump, against what the
    record proves the follower held."""
    follows, trump, played_by = facts.follows, facts.trump, facts.played_by
    # What each player is proven to hold at every follow, less what is played by then: the
    # cards they play later, those the Remaining tag shows, the partners of their true
    # marriages, the turn-up they took and the card they drew last, when all these were shown
    # before the first follow (as they mostly are: phase 2 starts with the last draw, and
    # nobody exchanges in phase 2). Dealt hands, or anything shown later: worked out follow by
    # follow instead (_proven_at).
    known = [rem[0] | played_by[0], rem[1] | played_by[1]]
    steady = not facts.dealt[0] and not facts.dealt[1]
    first = follows[0][0]  # (follows are noted in play order)
    for at, who, q in true_partners:
        steady = steady and at < first
        known[who] |= 1 << q
    if facts.t_taken_by >= 0:
        steady = steady and facts.t_taken_seq < first
        known[facts.t_taken_by] |= 1 << facts.turn_up
    if facts.last_draw_loser >= 0 and last_drawn >= 0:
        steady = steady and facts.last_draw_seq < first
        known[facts.last_draw_loser] |= 1 << last_drawn
    trumps = SUIT_MASKS[trump]
    for seq, trick, p, lead, card, played in follows:
        if steady:
            proven = known[p] & ~played
        else:
            proven = _proven_at(facts, rem, true_partners, last_drawn, seq, p, played)
        # the common case, nothing proven against this follow (kernel.legal_follows, inline)
        suit = lead // 6
        same = proven & SUIT_MASKS[suit]
        if same:
            if card // 6 == suit and (card > lead or not same & HIGHER[lead]):
                continue
        elif (played_suit := card // 6) == suit or played_suit == trump or not proven & trumps:
            continue
        rule, message = follow_problem(facts.names, trump, p, lead, card, proven)
        if rule is not None and any(who == p and at < seq for at, who in false_moves):
            # any one dealt card may be the one p put face up: proven only without each
            held = _dealt_held(facts, seq, p) & ~(rem[p] | facts.played_by[p])
            for y in cards_of(held & ~played):
                if follow_duty(lead, card, trump, proven & ~(1 << y))[0] is None:
                    rule = None
                    break
        if rule is not None:
            out.append(Violation(trick, facts.names[p], rule, message, seq))


def _proven_at(
    facts: DealFacts,
    rem: tuple[int, int],
    true_partners: Sequence[tuple[int, int, int]],
    last_drawn: int,
    seq: int,
    p: int,
    played: int,
) -> int:
    """What the record proves ``p`` held when making the follow ``seq``, ``played`` being
    every card played by then: the cards p plays later, those the Remaining tag shows, p's
    dealt cards (less the exchange card once p has exchanged), the partners of p's true
    marriages, the turn-up p took and the card p drew last (``last_drawn``, -1: unknown)."""
    proven = rem[p] | (facts.played_by[p] & ~played)
    if facts.dealt[p]:
        proven |= _dealt_held(facts, seq, p)
    for at, who, q in true_partners:
        if who == p and at < seq:
            proven |= 1 << q
    if facts.t_taken_by == p and facts.t_taken_seq < seq:
        proven |= 1 << facts.turn_up
    if facts.last_draw_loser == p and last_drawn >= 0 and facts.last_draw_seq < seq:
        proven |= 1 << last_drawn
    return proven & ~played


def _dealt_held(facts: DealFacts, seq: int, p: int) -> int:
    """The cards dealt to ``p`` that p still held at ``seq`` as far as the deal's start shows:
    all but the exchange card once p has exchanged (played cards are the caller's)."""
    held = facts.dealt[p]
    if facts.swaps and any(s.moved and s.player == p and s.seq < seq for s in facts.swaps):
        held &= ~(1 << facts.xcard)
    return held


def proven_in_phase2(facts: DealFacts, remaining: dict[int, int]) -> tuple[int, int]:
    """Every card the whole record proves in each player's hand at some moment of phase 2
    (section 12), played or not: nobody draws in phase 2, so a card proven there was held from
    the first phase-2 trick until played. The cards p plays, their ``Remaining``, their dealt
    cards less the exchange card once they exchanged, the partners of their true marriages,
    the turn-up they took by exchange and the card they drew as the loser of the last draw.
    The caller takes away the cards played before the moment it asks about."""
    rem = (remaining.get(0, 0), remaining.get(1, 0))
    ignored: list[Violation] = []
    if facts.swaps:
        false_moves, last_drawn = _exchanges(facts, rem, ignored)
    else:
        false_moves, last_drawn = (), facts.turn_up if facts.last_draw_seq >= 0 else -1
    partners = _marriages(facts, rem, false_moves, ignored) if facts.marriages else ()
    end = 1 << 30  # after every action of the record
    return (
        _proven_at(facts, rem, partners, last_drawn, end, 0, 0) | facts.played_by[0],
        _proven_at(facts, rem, partners, last_drawn, end, 1, 0) | facts.played_by[1],
    )


def shown_before(facts: DealFacts, p: int, seq: int) -> int:
    """The cards of ``p``'s hand shown at the table before ``seq`` and not played by then:
    the partners of the marriages p declared, the turn-up p took by exchange. What the
    opponent of ``p`` saw of p's hand (the cards played aside)."""
    shown = 0
    for m in facts.marriages:
        if m.player == p and m.seq < seq:
            shown |= 1 << m.partner
    if facts.t_taken_by == p and facts.t_taken_seq < seq:
        shown |= 1 << facts.turn_up
    for card in cards_of(shown):
        if 0 <= facts.play_seq[int(card)] < seq:
            shown &= ~(1 << int(card))
    return shown


def seq_after(facts: DealFacts, played: int) -> int:
    """The moment right after the last of ``played`` (every card played by then) was played:
    what :func:`shown_before` and :func:`proven_at_lead` take as "by then"."""
    return 1 + max(
        (facts.play_seq[c] for c in range(len(facts.play_seq)) if played >> c & 1), default=-1
    )


def proven_at_lead(facts: DealFacts, played: int) -> tuple[int, int]:
    """What the record proves each player held at a phase-1 lead, ``played`` being every card
    played by then (section 12 while cards are still drawn): their dealt cards not played, less
    the exchange card once they exchanged; the partners of the marriages they showed; the
    turn-up they took by exchange. Cards played later or in ``Remaining`` prove nothing here:
    they may be drawn after this lead."""
    seq = seq_after(facts, played)
    out = []
    for p in (0, 1):
        held = _dealt_held(facts, seq, p) if facts.dealt[p] else 0
        out.append((held | shown_before(facts, p, seq)) & ~played)
    return out[0], out[1]
