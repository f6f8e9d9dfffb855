"""The one replay loop: a record's trick lines driven through a deal's public actions.

:func:`replay` checks that each line is well placed (a marriage before the lead, a close
between tricks, nothing after a claim...) and applies its items to a
:class:`~tally.deal.Deal`. A :class:`ReplayVisitor`, when given, is told where each line begins
and ends, as python-chess's PGN reader tells its visitor; that is how per-line summaries are
made without a second loop. The first impossible item stops the replay: after it nothing later
can be trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from tally.decision import DealState, ErrorEntry
from tally.errors import RecordError
from tally.evidence import (
    ClaimFact,
    DealFacts,
    FollowEvent,
    MarriageEvent,
    SwapEvent,
    counted_points,
)
from tally.i18n import N_
from tally.kernel import (
    CARD_POINTS,
    FOLLOWER_WINS,
    KING,
    NINES_MASK,
    PLAIN_MARRIAGE,
    QUEEN,
    TRUMP_MARRIAGE,
    claim_correct,
    close_refusal,
    exchange_refusal,
    marriage_allowed,
)
from tally.notation import (
    CLOSE_CODE,
    MARRIAGE_20,
    MARRIAGE_40,
    SWAP_CODE,
    CardItem,
    ClaimItem,
    CloseItem,
    Codes,
    Item,
    MarriageItem,
    SwapItem,
    TrickLine,
)
from tally.rules import RuleSet

if TYPE_CHECKING:  # (a plain record is ruled without loading the deal: see quick_replay)
    from tally.deal import Deal

_new_tuple = tuple.__new__

# The messages of trick lines out of place, one template each, marked for the catalogue (the
# engine speaks English; tally.vocabulary.error_message words them in another language by
# matching them against these templates).
MSG_AFTER_CLAIM: Final = N_("nothing may follow a claim")
MSG_ALL_PLAYED: Final = N_("the deal is over: every trick is played")
MSG_UNFINISHED: Final = N_("trick %(trick)s is unfinished; only the last line may stop after "
                           "the leader's card")
MSG_NO_CARDS: Final = N_("trick %(trick)s has no cards; only the last line may stop before its "
                         "cards")
MSG_ITEM_AFTER_CLAIM: Final = N_('"%(item)s" after a claim: nothing may follow a claim')
MSG_ITEM_AFTER_LAST: Final = N_('"%(item)s" after the last trick: only a claim may follow it')
MSG_THIRD_CARD: Final = N_("%(item)s: trick %(trick)s already has its two cards")
MSG_MARRIAGE_PLACE: Final = N_("a marriage is declared by the leader, before leading")
MSG_SWAP_PLACE: Final = N_("swap after the trick: an exchange comes just before a card, on the "
                           "next trick's line")
MSG_CLOSE_PLACE: Final = N_("close between the two cards of a trick: the stock is closed before "
                            "leading or right after the trick")
#: Every template of a message of this module.
MESSAGES: Final = (MSG_AFTER_CLAIM, MSG_ALL_PLAYED, MSG_UNFINISHED, MSG_NO_CARDS,
                   MSG_ITEM_AFTER_CLAIM, MSG_ITEM_AFTER_LAST, MSG_THIRD_CARD, MSG_MARRIAGE_PLACE,
                   MSG_SWAP_PLACE, MSG_CLOSE_PLACE)
#: The common trick line's codes, two different cards, and what playing them needs: both
#: cards, their bits, both bits and their card points together (any other line is not a key).
_PAIRS: Final[dict[tuple[int, ...], tuple[int, int, int, int, int, int]]] = {
    (c, d): (c, d, 1 << c, 1 << d, 1 << c | 1 << d, CARD_POINTS[c] + CARD_POINTS[d])
    for c in range(24) for d in range(24) if c != d}
#: The ranks a marriage is declared with.
_MARRIAGE_RANKS = (KING, QUEEN)


class ReplayVisitor:
    """Told about each trick line as it is replayed; subclass and override what you need."""

    def begin_line(self, deal: Deal, line: TrickLine) -> None:
        """Before the line's items, once the draws of the trick before are made."""

    def end_line(self, deal: Deal, line: TrickLine) -> None:
        """After the line's items, when the line replayed without error."""


def replay(deal: Deal, lines: Sequence[TrickLine],
           visitor: ReplayVisitor | None = None) -> ErrorEntry | None:
    """Replay ``lines`` on ``deal``; the first record error (with its line), if any."""
    last = len(lines) - 1
    claimed = deal.claimed
    push = deal.push
    for index, tl in enumerate(lines):
        try:
            if claimed:
                raise RecordError(MSG_AFTER_CLAIM)
            if deal.all_tricks_played:
                raise RecordError(MSG_ALL_PLAYED)
            items = tl.items
            # A card draws by itself first; anything else, or a visitor, must see the draws.
            if deal.draw_pending and (visitor is not None or not items
                                      or type(items[0]) is not CardItem):
                deal.draw()
            if visitor is not None:
                visitor.begin_line(deal, tl)
            cards = 0  # cards put on this line's trick (a declared marriage shows one)
            trick_done = False
            for item in items:
                if type(item) is CardItem and not trick_done and not claimed:
                    trick_done = push(item.card)
                    cards += 1
                else:
                    cards, claimed = _other_item(deal, tl, item, cards, trick_done, claimed)
            if index != last and not claimed:
                if cards and not trick_done:
                    raise RecordError(MSG_UNFINISHED % {"trick": tl.number})
                if not trick_done:
                    raise RecordError(MSG_NO_CARDS % {"trick": tl.number})
        except RecordError as exc:
            return ErrorEntry(tl.line, exc.bare_message)
        if visitor is not None:
            visitor.end_line(deal, tl)
    return None


def _other_item(deal: Deal, tl: TrickLine, item: Item, cards: int, trick_done: bool,
                claimed: bool) -> tuple[int, bool]:
    """Apply an item that is not a card starting or finishing the trick (or refuse it where
    it stands); returns the cards on the trick and whether the deal is claimed now."""
    kind = type(item)
    if claimed:
        raise RecordError(MSG_ITEM_AFTER_CLAIM % {"item": item})
    if trick_done and kind is not ClaimItem and deal.all_tricks_played:
        raise RecordError(MSG_ITEM_AFTER_LAST % {"item": item})
    if kind is CardItem:
        raise RecordError(MSG_THIRD_CARD % {"item": item, "trick": tl.number})
    if isinstance(item, MarriageItem):
        if cards or trick_done:
            raise RecordError(MSG_MARRIAGE_PLACE)
        deal.declare(item.card, item.value)
        return cards + 1, False
    if isinstance(item, SwapItem):
        if trick_done:
            raise RecordError(MSG_SWAP_PLACE)
        deal.exchange()
    elif isinstance(item, CloseItem):
        if cards and not trick_done:
            raise RecordError(MSG_CLOSE_PLACE)
        deal.close(after_trick=trick_done)
    elif isinstance(item, ClaimItem):
        deal.claim(item.player)
        return cards, True
    return cards, False


# --- the one exception: the quick lane ------------------------------------------------------


def quick_replay(rules: RuleSet, names: tuple[str, str], turn_up: int, carry: int,
                 lines: Sequence[Codes]) -> tuple[DealFacts, DealState] | None:
    """The facts and state of a plain record replayed to its end without a :class:`Deal`, or
    None when the record is not plain: then :func:`replay` must replay it.

    The engine's one exception to "one replay loop" (ARCHITECTURE.md says why): ``tally
    check`` and the store rule whole records far more often than anything else, and a deal's
    per-action bookkeeping costs four times what a record needs. This plays the record's
    trick lines as codes (:data:`tally.notation.Codes`: :func:`tally.notation.read_plain`
    reads them from the text, :func:`tally.notation.item_codes` from a record's items) on
    local numbers with the kernel's tables (:data:`~tally.kernel.FOLLOWER_WINS`,
    :data:`~tally.kernel.CARD_POINTS`) and predicates (:func:`~tally.kernel.exchange_refusal`,
    :func:`~tally.kernel.close_refusal`, :func:`~tally.kernel.marriage_allowed`,
    :func:`~tally.kernel.claim_correct`), as :class:`Deal`'s actions do, and gives up (None)
    at anything unusual instead of judging it: a card played twice, the turn-up or a nine of
    a 20-card deck played, any action that breaks a rule of play, an item out of place, a
    claim straight after a marriage. The caller gives it no record with a ``Hands`` or
    ``Remaining`` tag or a named claim. What the record proves and how the deal is decided
    stay with :mod:`tally.evidence` and :mod:`tally.decision`; the dealt hands are unknown
    here (``dealt`` is ``(0, 0)``), as in a deal started without them.
    ``tests/test_engine_quick_lane.py`` proves the rulings equal to :func:`replay`'s.
    """
    wins = FOLLOWER_WINS[turn_up // 6]
    points = CARD_POINTS
    pair_of = _PAIRS.get
    xcard = turn_up // 6 * 6 + rules.exchange_card
    no_nines = rules.deck == 20
    # cards a plain line may not hold without a closer look: the turn-up, nines missing
    unusual = 1 << turn_up | (NINES_MASK if no_nines else 0)
    left = rules.hand  # cards each player holds between tricks
    stock = rules.stock_size
    play_seq = [-1] * 24
    play_trick = [0] * 24
    # each player's cards played, card points and tricks won (locals: a branch on the player
    # costs less than a list indexed by the player)
    pb0 = pb1 = cp0 = cp1 = t0 = t1 = 0
    swaps: tuple[SwapEvent, ...] = ()  # (most deals have none: no list made for them)
    marriages: tuple[MarriageEvent, ...] = ()
    follows: list[FollowEvent] = []
    played = seq = 0
    trick = 1
    leader = 0
    lead = -1
    pending = closed = phase2 = False
    face_up = turn_up
    # (the winner of the last trick is always the leader once a trick is played)
    t_taken_by = t_taken_seq = last_draw_loser = last_draw_seq = -1
    closer = close_seq = -1
    close_opp_points = close_opp_tricks = 0
    claim: ClaimFact | None = None
    count = len(lines)
    for line in lines:
        # A line starts with no card led and no claim made (only the last line may stop after
        # its lead or hold a claim), so its index is the trick's number less one.
        if not left:
            return None  # a line after the last trick
        if pending:  # both draw after the trick before, the winner first
            seq += 1
            pending = False
            stock -= 2
            if stock < -1:
                return None  # there was nothing left to draw
            if stock < 0:  # the winner drew the last face-down card, the loser the face-up
                stock = 0
                last_draw_loser, last_draw_seq, face_up, phase2 = 1 - leader, seq, -1, True
            left += 1
        pair = pair_of(line)
        if pair is not None and not (played | unusual) & pair[4]:
            # the common line: a lead and a follow card, neither played before nor unusual
            c, d, bc, bd, both, pair_points = pair
            o = 1 - leader
            seq += 2
            played |= both
            play_seq[c] = seq - 1
            play_seq[d] = seq
            play_trick[c] = play_trick[d] = trick
            if leader:
                pb1 |= bc
                pb0 |= bd
            else:
                pb0 |= bc
                pb1 |= bd
            if wins[c][d]:
                leader = o
            if leader:
                cp1 += pair_points
                t1 += 1
            else:
                cp0 += pair_points
                t0 += 1
            if phase2:
                follows.append((seq, trick, o, c, d, played))
                left -= 1
            else:
                # Both draw at once, the winner first: nothing on this line comes between
                # (a close comes after the draw on the next line), and one card played and
                # one drawn leave each hand as it was.
                seq += 1
                stock -= 2
                if stock < 0:  # the winner drew the last face-down card, the loser the face-up
                    if stock < -1:
                        return None  # there was nothing left to draw
                    stock = 0
                    last_draw_loser, last_draw_seq, face_up, phase2 = 1 - leader, seq, -1, True
            trick += 1
            continue
        first = trick  # (the line's trick: its index is one less)
        cards = 0
        trick_done = False
        for code in line:
            if claim is not None:
                return None  # an item after a claim
            if code < SWAP_CODE:  # a card
                c = code
                p = leader if lead < 0 else 1 - leader
                if (trick_done or played >> c & 1 or (no_nines and not c % 6)
                        or (lead < 0 and not left)
                        or (c == turn_up and not _holds_turn_up(p, t_taken_by,
                                                                last_draw_loser))):
                    return None
                seq += 1
                bit = 1 << c
                played |= bit
                play_seq[c] = seq
                play_trick[c] = trick
                if p:
                    pb1 |= bit
                else:
                    pb0 |= bit
                cards += 1
                if lead < 0:
                    lead = c
                    continue
                if phase2:
                    follows.append((seq, trick, p, lead, c, played))
                leader = p if wins[lead][c] else 1 - p
                if leader:
                    cp1 += points[c] + points[lead]
                    t1 += 1
                else:
                    cp0 += points[c] + points[lead]
                    t0 += 1
                lead = -1
                trick += 1
                left -= 1
                pending = not phase2
                trick_done = True
            elif code == SWAP_CODE:
                p = leader if lead < 0 else 1 - leader
                if trick_done or exchange_refusal(phase2 and not closed, closed, lead >= 0,
                                                  rules.exchange_when == "lead",
                                                  rules.exchange_needs_trick,
                                                  t1 if p else t0):
                    return None
                seq += 1
                if face_up == turn_up:
                    t_taken_by, t_taken_seq = p, seq
                swaps += (_new_tuple(SwapEvent, (seq, trick, p, True, True, face_up)),)
                face_up = xcard
            elif code >= MARRIAGE_20:
                c = code % 32
                value = TRUMP_MARRIAGE if c // 6 == turn_up // 6 else PLAIN_MARRIAGE
                if (cards or trick_done or lead >= 0 or c % 6 not in _MARRIAGE_RANKS
                        or (20 if code < MARRIAGE_40 else 40) != value
                        or played >> c & 1
                        or (c == turn_up and not _holds_turn_up(leader, t_taken_by,
                                                                last_draw_loser))
                        or not marriage_allowed(phase2, rules.marriage_in_phase2)):
                    return None
                seq += 1
                partner = c - 1 if c % 6 == KING else c + 1
                marriages += (_new_tuple(MarriageEvent,
                                         (seq, trick, leader, c, partner, value, True)),)
                bit = 1 << c
                played |= bit
                play_seq[c] = seq
                play_trick[c] = trick
                if leader:
                    pb1 |= bit
                else:
                    pb0 |= bit
                lead = c
                cards += 1
            elif code == CLOSE_CODE:
                if (lead >= 0 or not left
                        or close_refusal(phase2 and not closed, closed, pending,
                                         rules.close_before_draw)):
                    return None
                seq += 1
                closed = phase2 = True
                closer = leader
                close_seq = seq
                close_opp_tricks = t0 if leader else t1
                close_opp_points = _counted(cp0 if leader else cp1, close_opp_tricks, marriages,
                                            1 - leader, 0)
                pending = False
            else:  # a claim (of the player on lead)
                if lead >= 0:
                    return None
                seq += 1
                bonus = 0
                if trick > 1 and not closed and not left:  # (the last trick's winner)
                    bonus = rules.last_trick_bonus
                counted = _counted(cp1 if leader else cp0, t1 if leader else t0, marriages,
                                   leader, bonus)
                claim = _new_tuple(ClaimFact, (seq, leader, claim_correct(
                    counted, True, rules.claim_when == "any"), counted))
        if first != count and (claim is not None or not trick_done):
            return None  # a claim, or an unfinished line, before the last line
    if pending and claim is None:  # the record stops after a trick: both have drawn
        seq += 1
        stock -= 2
        if stock < 0:
            stock = 0
            last_draw_loser, last_draw_seq, phase2 = 1 - leader, seq, True
        left += 1
    played_out = lead < 0 and not left
    facts = _new_tuple(DealFacts, (  # (a named tuple made without its slower __new__)
        rules, names, turn_up, turn_up // 6, xcard, carry, swaps, marriages, follows, (),
        play_seq, play_trick,
        (pb0, pb1), (0, 0), t_taken_by, t_taken_seq, last_draw_loser,
        last_draw_seq, claim, closed, closer, close_seq, close_opp_points, close_opp_tricks,
        (t0, t1), (cp0, cp1), leader if trick > 1 else -1,
        played_out))
    over = claim is not None or played_out
    to_move = as_ = None
    if not over:
        to_move = names[1 - leader] if lead >= 0 else names[leader]
        as_ = "follow" if lead >= 0 else "lead"
    state = _new_tuple(DealState, (to_move, as_, trick, over, played_out, claim is not None,
                                   closed, 2 if phase2 else 1, stock, len(swaps)))
    return facts, state


def _counted(card_points: int, tricks: int, marriages: Sequence[MarriageEvent], p: int,
             bonus: int) -> int:
    """Counted points of ``p``, who won ``card_points`` in ``tricks`` tricks
    (:func:`tally.evidence.counted_points`), every marriage allowed."""
    declared = 0
    for m in marriages:
        if m.player == p:
            declared += m.points
    return counted_points(card_points, tricks, declared, bonus)


def _holds_turn_up(p: int, taken_by: int, last_draw_loser: int) -> bool:
    """Whether ``p`` has the turn-up in hand: taken by exchange, or by the last draw."""
    return taken_by == p or (taken_by < 0 and last_draw_loser == p)
