"""The one replay loop: a record's trick lines driven through a deal's public actions.

:func:`replay` checks that each line is well placed (a marriage before the lead, a close
between tricks, nothing after a claim...) and applies its items to a
:class:`~tally.deal.Deal`. A :class:`ReplayVisitor`, when given, is told where each line begins
and ends, as python-chess's PGN reader tells its visitor; that is how per-line summaries are
made without a second loop. The first impossible item stops the replay: after it nothing later
can be trusted.

The quick lane
--------------
:func:`quick_replay` is the engine's one exception to "one replay loop" (docs/architecture.md says
why): ``tally check`` and the store rule whole records far more often than anything else, and a
deal's per-action bookkeeping costs four times what a record needs. It plays the record's trick
lines as codes (:data:`tally.notation.Codes`: :func:`tally.notation.read_plain` reads them from
the text, :func:`tally.notation.item_codes` from a record's items) on local numbers with the
kernel's tables (:data:`~tally.kernel.FOLLOWER_WINS`, :data:`~tally.kernel.CARD_POINTS`) and
predicates (:func:`~tally.kernel.exchange_refusal`, :func:`~tally.kernel.close_refusal`,
:func:`~tally.kernel.marriage_allowed`, :func:`~tally.kernel.claim_correct`), as
:class:`~tally.deal.Deal`'s actions do, and gives up (None) at anything unusual instead of
judging it: a card played twice, the turn-up or a nine of a 20-card deck played, any action
that breaks a rule of play, an item out of place, a claim straight after a marriage. The
caller gives it no record with a ``Hands`` or ``Remaining`` tag or a named claim. What the
record proves and how the deal is decided stay with :mod:`tally.evidence` and
:mod:`tally.decision`; the dealt hands are unknown here (``dealt`` is ``(0, 0)``), as in a
deal started without them.

A line of a common form (two cards, perhaps an exchange, a close or a marriage before them, a
close or a claim after: :func:`_form_of`) is played whole in :func:`quick_replay`'s loop, each
player's cards, points and tricks kept in locals, its items by :func:`_item`; any other line
card by card (:func:`_odd_line`). Both draw at the end of a trick's line in phase 1 unless a
close or a claim follows the trick. ``tests/test_engine_quick_lane.py`` proves the rulings
equal to :func:`replay`'s.
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
    marriage_value,
)
from tally.notation import (
    CLAIM_CODE,
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

#: What playing a line of a common form needs (:func:`_form_of`): the item before the lead
#: (0 for none; an exchange, a close, or a marriage declared with the lead card), the lead
#: and the follow card, their bits, both bits together, their card points, whether the follow
#: card wins the trick, and the item after the trick (0 for none; a close or a claim). (No
#: item's code is 0: a card's code is its number, below any item's.)
_Form = tuple[int, int, int, int, int, int, int, int, int]
#: A line of no common form: played card by card (:func:`_odd_line`); its bits are all bits.
_ODD: Final[_Form] = (0, -1, -1, 0, 0, -1, 0, 0, 0)
#: The forms of the lines played before, one table for each trump suit (whether the follow
#: card wins depends on it); never more than ``_FORMS_MOST`` lines in a table.
_FORMS: Final[tuple[dict[Codes, _Form], ...]] = ({}, {}, {}, {})
_FORMS_MOST: Final = 20_000
#: The rarer notes of a deal in the quick lane (:func:`_item` makes them): its exchanges, its
#: marriages, its close ``(closer, seq, the opponent's counted points and tricks)`` and its
#: claim.
_Notes = tuple[tuple[SwapEvent, ...], tuple[MarriageEvent, ...],
               "tuple[int, int, int, int] | None", ClaimFact | None]
_NO_NOTES: Final[_Notes] = ((), (), None, None)
#: The state of a deal in the quick lane that a line played card by card changes: ``(seq,
#: played, pb0, cp0, cp1, t0, t1, leader, lead, trick, left, phase2, stock, last_draw,
#: notes)`` (as :func:`quick_replay`'s locals of these names).
_State = tuple[int, int, int, int, int, int, int, int, int, int, int, bool, int,
               tuple[int, int], _Notes]


class _LeftToReplay(Exception):
    """Raised inside the quick lane at anything it leaves to :func:`replay` (to judge it and
    say what is wrong): :func:`quick_replay` then gives None."""


def quick_replay(rules: RuleSet, names: tuple[str, str], turn_up: int, carry: int,
                 lines: Sequence[Codes]) -> tuple[DealFacts, DealState] | None:
    """The facts and state of a plain record replayed to its end without a :class:`Deal`, or
    None when the record is not plain, for :func:`replay` ("The quick lane" above says how)."""
    form_of = _FORMS[turn_up // 6].get
    # a line is played card by card when it is of no common form (its bits hold bit 24) or
    # plays a card played before or a nine of a 20-card deck; the turn-up, when not held
    odd = 1 << 24 | (NINES_MASK if rules.deck == 20 else 0)
    unusual = odd | 1 << turn_up
    left, stock = rules.hand, rules.stock_size  # (left: cards each holds between tricks)
    play_seq = [-1] * 24
    follows: list[FollowEvent] = []
    # (pb0: the cards forehand played; the dealer played the rest of those played)
    pb0 = cp0 = cp1 = t0 = t1 = played = seq = leader = 0
    trick, lead, last_draw, notes, phase2 = 1, -1, (-1, -1), _NO_NOTES, False
    try:
        for line in lines:  # (a line starts a trick: its index is the trick's number less one)
            pre, c, d, bc, bd, both, points, follower_wins, post = (
                form_of(line) or _form_of(line, turn_up // 6))
            if not left or ((played | unusual) & both and ((played | odd) & both or not (
                    _holds_turn_up(leader ^ (c != turn_up), notes[0], last_draw[0])))):
                (seq, played, pb0, cp0, cp1, t0, t1, leader, lead, trick, left, phase2,
                 stock, last_draw, notes) = _odd_line(
                    rules, turn_up, line, trick == len(lines), follows, play_seq,
                    (seq, played, pb0, cp0, cp1, t0, t1, leader, lead, trick, left, phase2,
                     stock, last_draw, notes))
                continue
            if pre:  # (the leader's, before leading)
                seq, left, phase2, notes = _item(rules, turn_up, pre, leader, -1, trick, False,
                                                 seq, left, phase2, False, cp0, cp1, t0, t1,
                                                 notes)
            played |= both
            seq += 2
            play_seq[c], play_seq[d] = seq - 1, seq
            pb0 |= bd if leader else bc
            if follower_wins:
                leader = 1 - leader
            if leader:
                cp1 += points
                t1 += 1
            else:
                cp0 += points
                t0 += 1
            if phase2:
                follows.append((seq, trick, leader ^ (not follower_wins), c, d, played))
                left -= 1
            elif not post:  # both draw, the winner first (see _odd_line)
                seq, stock = seq + 1, stock - 2
                if stock < 0:
                    stock, phase2, last_draw = 0, True, (1 - leader, seq)
            trick += 1
            if post:  # (the winner's, after the trick; the draws not made before it)
                seq, left, phase2, notes = _item(rules, turn_up, post, leader, -1, trick,
                                                 trick > len(lines), seq, left, phase2,
                                                 not phase2, cp0, cp1, t0, t1, notes)
    except _LeftToReplay:
        return None
    return _lane_result(rules, names, turn_up, carry, notes, follows, play_seq, lines,
                        played, pb0, last_draw, t0, t1, cp0, cp1, leader, lead, trick, left,
                        phase2, stock)


def _form_of(line: Codes, trump: int) -> _Form:
    """The form of ``line`` (kept for the next time), or :data:`_ODD`: a lead and a follow
    card, with an exchange, a close or a marriage (the lead card's, of the right value)
    before them or a close or a claim after."""
    pre = post = 0
    pair = line
    if len(line) == 3:
        if line[0] == SWAP_CODE or line[0] == CLOSE_CODE:
            pre, pair = line[0], line[1:]
        elif line[2] == CLOSE_CODE or line[2] == CLAIM_CODE:
            post, pair = line[2], line[:2]
    elif len(line) == 2 and line[0] >= MARRIAGE_20 and _declared(line[0], trump) >= 0:
        pre, pair = line[0], (line[0] % 32, line[1])
    form = _ODD
    if len(pair) == 2 and pair[0] < SWAP_CODE and pair[1] < SWAP_CODE and pair[0] != pair[1]:
        c, d = pair
        form = (pre, c, d, 1 << c, 1 << d, 1 << c | 1 << d, CARD_POINTS[c] + CARD_POINTS[d],
                FOLLOWER_WINS[trump][c][d], post)
    forms = _FORMS[trump]
    if len(forms) < _FORMS_MOST:
        forms[line] = form
    return form


def _odd_line(rules: RuleSet, turn_up: int, line: Codes, last: bool, follows: list[FollowEvent],
              play_seq: list[int], state: _State) -> _State:
    """``state`` after the line ``line`` (the record's last when ``last``) played card by
    card and item by item, each in turn; ``follows`` and ``play_seq`` are changed in place.
    Raises :class:`_LeftToReplay` at anything the quick lane leaves to :func:`replay`."""
    (seq, played, pb0, cp0, cp1, t0, t1, leader, lead, trick, left, phase2, stock,
     last_draw, notes) = state
    if not left:
        raise _LeftToReplay  # a line after the last trick
    wins = FOLLOWER_WINS[turn_up // 6]
    pending = trick_done = False  # (pending: the draws after this line's trick)
    for code in line:
        if notes[3] is not None or (trick_done and code != CLOSE_CODE and code != CLAIM_CODE):
            raise _LeftToReplay  # an item after a claim, a card or an exchange after the trick
        p = leader if lead < 0 else 1 - leader
        if code >= SWAP_CODE:  # an item (a marriage is followed by its lead card)
            seq, left, phase2, notes = _item(rules, turn_up, code, p, lead, trick, last, seq,
                                             left, phase2, pending, cp0, cp1, t0, t1, notes)
            pending = pending and not phase2  # (a close: no draws)
            if code < MARRIAGE_20:
                continue
        c = code % 32
        if (played >> c & 1 or (rules.deck == 20 and not c % 6) or (lead < 0 and not left)
                or (c == turn_up and not _holds_turn_up(p, notes[0], last_draw[0]))):
            raise _LeftToReplay
        seq += 1
        played |= 1 << c
        play_seq[c] = seq
        if not p:
            pb0 |= 1 << c
        if lead < 0:
            lead = c
            continue
        if phase2:
            follows.append((seq, trick, p, lead, c, played))
            left -= 1
        pending = not phase2
        leader = p if wins[lead][c] else 1 - p
        if leader:
            cp1 += CARD_POINTS[c] + CARD_POINTS[lead]
            t1 += 1
        else:
            cp0 += CARD_POINTS[c] + CARD_POINTS[lead]
            t0 += 1
        lead, trick, trick_done = -1, trick + 1, True
    if not last and not trick_done:
        raise _LeftToReplay  # an unfinished line before the last line
    if pending and notes[3] is None:  # both draw, the winner first
        seq, stock = seq + 1, stock - 2
        if stock < 0:  # (the face-down cards are odd in number: the stock is -1 now)
            stock, phase2, last_draw = 0, True, (1 - leader, seq)  # the loser drew the face-up
    return (seq, played, pb0, cp0, cp1, t0, t1, leader, lead, trick, left, phase2, stock,
            last_draw, notes)


def _item(rules: RuleSet, turn_up: int, code: int, p: int, lead: int, trick: int, last: bool,
          seq: int, left: int, phase2: bool, pending: bool, cp0: int, cp1: int, t0: int,
          t1: int, notes: _Notes) -> tuple[int, int, bool, _Notes]:
    """``(seq, left, phase2, notes)`` after ``p`` makes the item of ``code`` (an exchange,
    a close, a claim or a marriage, whose lead card is played next at the seq it is given)
    on ``trick`` (the record's last when ``last``), the draws after the trick before it
    still to be made when ``pending``. Raises :class:`_LeftToReplay` when a rule refuses it
    or it is out of place."""
    swaps, marriages, close, claim = notes
    closed = close is not None
    seq += 1
    if code == SWAP_CODE:
        if exchange_refusal(phase2 and not closed, closed, lead >= 0,
                            rules.exchange_when == "lead", rules.exchange_needs_trick,
                            t1 if p else t0):
            raise _LeftToReplay
        face_up = turn_up // 6 * 6 + rules.exchange_card if swaps else turn_up
        swaps += (_new_tuple(SwapEvent, (seq, trick, p, True, True, face_up)),)
    elif code == CLOSE_CODE:
        if lead >= 0 or not left or close_refusal(phase2 and not closed, closed, pending,
                                                  rules.close_before_draw):
            raise _LeftToReplay
        tricks = t0 if p else t1
        close = (p, seq, _counted(cp0 if p else cp1, tricks, marriages, 1 - p, 0), tricks)
        if pending:  # (no draws: the hands keep the card less the trick took)
            left -= 1
        phase2 = True
    elif code == CLAIM_CODE:
        if lead >= 0 or not last:
            raise _LeftToReplay
        bonus = rules.last_trick_bonus if trick > 1 and not closed and not left else 0
        counted = _counted(cp1 if p else cp0, t1 if p else t0, marriages, p, bonus)
        claim = _new_tuple(ClaimFact, (seq, p, claim_correct(
            counted, True, rules.claim_when == "any"), counted))
    else:  # a marriage
        c = _declared(code, turn_up // 6)
        if lead >= 0 or c < 0 or not marriage_allowed(phase2, rules.marriage_in_phase2):
            raise _LeftToReplay
        seq -= 1  # (the lead card's, when it is played)
        marriages += (_new_tuple(MarriageEvent, (seq + 1, trick, p, c, c - 1 if c % 6 == KING
                                                 else c + 1, 40 if code >= MARRIAGE_40 else 20,
                                                 True)),)
    return seq, left, phase2, (swaps, marriages, close, claim)


def _declared(code: int, trump: int) -> int:
    """The card a marriage's code declares, or -1 when it is no king or queen or the code
    gives the wrong value (a trump marriage is 40, any other 20)."""
    c = code % 32
    if c % 6 not in _MARRIAGE_RANKS or (
            PLAIN_MARRIAGE if code < MARRIAGE_40 else TRUMP_MARRIAGE) != marriage_value(c, trump):
        return -1
    return c


def _lane_result(rules: RuleSet, names: tuple[str, str], turn_up: int, carry: int,
                 notes: _Notes, follows: list[FollowEvent], play_seq: list[int],
                 lines: Sequence[Codes], played: int, pb0: int, last_draw: tuple[int, int], t0: int,
                 t1: int, cp0: int, cp1: int, leader: int, lead: int, trick: int, left: int,
                 phase2: bool, stock: int) -> tuple[DealFacts, DealState]:
    """The facts and state of a deal the quick lane played to the end of its record (each
    argument as :func:`quick_replay`'s local of its name)."""
    swaps, marriages, close, claim = notes
    closer, close_seq, close_opp_points, close_opp_tricks = close or (-1, -1, 0, 0)
    taken_by, taken_seq = (swaps[0].player, swaps[0].seq) if swaps else (-1, -1)
    played_out = lead < 0 and not left
    facts = _new_tuple(DealFacts, (  # (a named tuple made without its slower __new__)
        rules, names, turn_up, turn_up // 6, turn_up // 6 * 6 + rules.exchange_card, carry,
        swaps, marriages, follows, (), play_seq, _LineTricks(lines), (pb0, played ^ pb0),
        (0, 0), taken_by, taken_seq, last_draw[0], last_draw[1], claim, close is not None, closer,
        close_seq, close_opp_points, close_opp_tricks, (t0, t1), (cp0, cp1),
        leader if trick > 1 else -1, played_out))
    over = claim is not None or played_out
    to_move = as_ = None
    if not over:
        to_move = names[1 - leader] if lead >= 0 else names[leader]
        as_ = "follow" if lead >= 0 else "lead"
    return facts, _new_tuple(DealState, (to_move, as_, trick, over, played_out,
                                         claim is not None, close is not None,
                                         2 if phase2 else 1, stock, len(swaps)))


class _LineTricks:
    """The trick each card was played in, of a deal the quick lane played
    (:class:`~tally.evidence.CardTricks`): the number of the line the card is on, each line
    being a trick's. Worked out when asked (only a false marriage's message asks)."""

    __slots__ = ("lines",)

    def __init__(self, lines: Sequence[Codes]) -> None:
        self.lines = lines

    def __getitem__(self, card: int, /) -> int:
        for trick, line in enumerate(self.lines, start=1):
            if any(code % 32 == card for code in line):  # (a card, or a marriage showing it)
                return trick
        return 0


def _counted(card_points: int, tricks: int, marriages: Sequence[MarriageEvent], p: int,
             bonus: int) -> int:
    """Counted points of ``p``, who won ``card_points`` in ``tricks`` tricks
    (:func:`tally.evidence.counted_points`), every marriage allowed."""
    declared = 0
    for m in marriages:
        if m.player == p:
            declared += m.points
    return counted_points(card_points, tricks, declared, bonus)


def _holds_turn_up(p: int, swaps: Sequence[SwapEvent], last_draw_loser: int) -> bool:
    """Whether ``p`` has the turn-up in hand: taken by the first exchange, or by the last
    draw."""
    return swaps[0].player == p if swaps else last_draw_loser == p
