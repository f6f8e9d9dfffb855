"""The bitmask kernel of the game: cards as numbers, sets of cards as masks, and the tables
that decide a trick, the duty to follow and the game points of a win.

Everything here is plain ``int`` arithmetic on precomputed tables, with no import from the
rest of tally, so that the engine's hot paths (replaying a record, random play) and a future
solver share one home for each rule of play. A card is ``suit * 6 + rank`` (suits clubs,
diamonds, hearts, spades; ranks 9 J Q K 10 A), and a set of cards is a 24-bit mask::

    >>> KS, AS, AD, NINE_H = 21, 23, 11, 12
    >>> trick_winner(KS, AS, trump=2)   # the follower's ace beats the led king
    1
    >>> trick_winner(AS, NINE_H, trump=2)   # a trump beats any other suit
    1
    >>> trick_winner(AS, AD, trump=2)   # another suit, no trump: the lead wins
    0
    >>> game_points(opp_points=40, opp_tricks=2), game_points(20, 1), game_points(0, 0)
    (1, 2, 3)
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Callable


class Rule(StrEnum):
    """The rules of play a player can break, named as in RULES.md section 10 (stored and
    printed as these strings)."""

    FOLLOW_SUIT = "follow-suit"
    MUST_HEAD = "must-head"
    MUST_TRUMP = "must-trump"
    MARRIAGE_NOT_ALLOWED = "marriage-not-allowed"
    FALSE_MARRIAGE = "false-marriage"
    EXCHANGE_NOT_ALLOWED = "exchange-not-allowed"
    FALSE_EXCHANGE = "false-exchange"
    CLOSE_NOT_ALLOWED = "close-not-allowed"


class Reason(StrEnum):
    """Why a deal ended as it did (RULES.md sections 7 to 10; stored and printed as these)."""

    CLAIM = "claim"
    FALSE_CLAIM = "false-claim"
    FAILED_CLOSE = "failed-close"
    ILLEGAL_PLAY = "illegal-play"
    LAST_TRICK = "last-trick"
    HIGHER_TOTAL = "higher-total"
    DRAW = "draw"
    INCOMPLETE = "incomplete"


#: Reasons of a deal won outright, where a schneider or schwarz win counts (the store's SQL).
OUTRIGHT: Final = (Reason.CLAIM, Reason.HIGHER_TOTAL)

#: Card points by rank: 9 0, J 2, Q 3, K 4, 10 10, A 11 (RULES.md section 2).
RANK_POINTS: Final = (0, 2, 3, 4, 10, 11)
#: Card points by card number.
CARD_POINTS: Final = RANK_POINTS * 4
#: Rank numbers that matter to the rules.
NINE: Final = 0
QUEEN: Final = 2
KING: Final = 3

#: Bit mask of each suit's six cards.
SUIT_MASKS: Final = tuple(0b111111 << (6 * s) for s in range(4))
#: Bit mask of all nines (absent from a 20-card deck).
NINES_MASK: Final = sum(1 << (6 * s) for s in range(4))
#: Bit mask of all kings (a marriage is a king with the queen just below it).
KINGS_MASK: Final = sum(1 << (6 * s + KING) for s in range(4))
FULL_DECK_MASK: Final = (1 << 24) - 1
#: The cards of each deck size, as masks.
DECK_MASKS: Final = {24: FULL_DECK_MASK, 20: FULL_DECK_MASK & ~NINES_MASK}

#: ``HIGHER[c]``: the cards of ``c``'s suit that beat it.
HIGHER: Final = tuple(SUIT_MASKS[c // 6] & ~((2 << c) - 1) for c in range(24))


def in_deck(card: int, deck: int) -> bool:
    """Whether ``card`` is in a deck of ``deck`` cards: a 20-card deck has no nines."""
    return deck == 24 or card % 6 != NINE


def _winner_table() -> tuple[tuple[bytes, ...], ...]:
    # WINS[trump][lead][follow] is 1 when the follower wins the trick, else 0.
    out = []
    for trump in range(4):
        rows = []
        for lead in range(24):
            row = bytearray(24)
            for follow in range(24):
                if follow // 6 == lead // 6:
                    row[follow] = follow > lead
                else:
                    row[follow] = follow // 6 == trump
            rows.append(bytes(row))
        out.append(tuple(rows))
    return tuple(out)


#: ``FOLLOWER_WINS[trump][lead][follow]``: 1 when the follower's card takes the trick.
FOLLOWER_WINS: Final = _winner_table()


def trick_winner(lead: int, follow: int, trump: int) -> int:
    """0 when the led card takes the trick, 1 when the follower's card does."""
    return FOLLOWER_WINS[trump][lead][follow]


def legal_follows(hand: int, lead: int, trump: int) -> int:
    """The cards of ``hand`` that may follow ``lead`` in phase 2 (RULES.md section 4): a higher
    card of the suit led if any, else any card of that suit, else a trump, else anything."""
    same = hand & SUIT_MASKS[lead // 6]
    if same:
        return (same & HIGHER[lead]) or same
    return (hand & SUIT_MASKS[trump]) or hand


def follow_duty(lead: int, card: int, trump: int, held: int) -> tuple[Rule | None, int]:
    """Which phase-2 duty following ``lead`` with ``card`` breaks while holding ``held``.

    ``(None, 0)`` when none; else the violation name (``follow-suit``, ``must-trump``,
    ``must-head``) and the held cards that prove it. ``held`` need not exclude ``card``.
    The duty itself is :func:`legal_follows`: this only names which part of it was broken.
    """
    held &= ~(1 << card)
    if legal_follows(held | 1 << card, lead, trump) >> card & 1:
        return None, 0
    if card // 6 != lead // 6:
        same = held & SUIT_MASKS[lead // 6]
        if same:
            return Rule.FOLLOW_SUIT, same
        return Rule.MUST_TRUMP, held & SUIT_MASKS[trump]
    return Rule.MUST_HEAD, held & HIGHER[lead]


def points_of(mask: int) -> int:
    """Total card points of the cards in ``mask``."""
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_POINTS[low.bit_length() - 1]
        mask ^= low
    return total


#: Counted points a correct claim needs (RULES.md section 8).
CLAIM_AT: Final = 66
#: Marriage points: 20 in a plain suit, 40 in trumps (RULES.md section 6).
PLAIN_MARRIAGE: Final = 20
TRUMP_MARRIAGE: Final = 40
#: Counted points under which the loser of a claimed deal is schneider (RULES.md section 9).
SCHNEIDER_BELOW: Final = 33
#: Game points of a win against a schneider and a schwarz opponent (the store counts these).
SCHNEIDER_WIN: Final = 2
SCHWARZ_WIN: Final = 3


def game_points(opp_points: int, opp_tricks: int) -> int:
    """Game points of a correct claim (or higher total): 1; 2 when the opponent has under 33
    counted points (schneider); 3 when the opponent won no trick (schwarz)."""
    if opp_tricks == 0:
        return SCHWARZ_WIN
    return SCHNEIDER_WIN if opp_points < SCHNEIDER_BELOW else 1


def exchange_refusal(
    exhausted: bool, closed: bool, following: bool, lead_only: bool, needs_trick: bool, tricks: int
) -> int:
    """Why exchanging the turn-up is not allowed now (RULES.md section 5): 0 when it is;
    1 the stock is exhausted, 2 it is closed, 3 only the leader may (``exchange_when=lead``)
    and the exchanger follows, 4 the exchanger has won no trick (``exchange_needs_trick``)."""
    if exhausted:
        return 1
    if closed:
        return 2
    if following and lead_only:
        return 3
    if needs_trick and not tricks:
        return 4
    return 0


def close_refusal(
    exhausted: bool, closed: bool, draws_pending: bool, close_before_draw: bool
) -> int:
    """Why closing the stock is not allowed now (RULES.md section 7): 0 when it is;
    1 the stock is exhausted, 2 it is closed already, 3 the draws are still to be made and
    the rules close only after them."""
    if exhausted:
        return 1
    if closed:
        return 2
    if draws_pending and not close_before_draw:
        return 3
    return 0


def marriage_value(card: int, trump: int) -> int:
    """What a marriage shown with ``card`` is worth (RULES.md section 6): 40 in the trump
    suit ``trump``, 20 in any other."""
    return TRUMP_MARRIAGE if card // 6 == trump else PLAIN_MARRIAGE


def marriage_allowed(phase2: bool, in_phase2: bool) -> bool:
    """Whether a marriage may be declared now (RULES.md section 6): in phase 1 always, in
    phase 2 only where the rules allow it (``marriage_in_phase2``)."""
    return not phase2 or in_phase2


def claim_correct(counted: int, on_lead: bool, anyone: bool) -> bool:
    """Whether a claim is correct (RULES.md section 8): 66 counted points or more, by the
    player on lead unless anyone may claim (``claim_when=any``)."""
    return counted >= CLAIM_AT and (anyone or on_lead)


def other_player(players: tuple[str, str], one: str) -> str:
    """The other of two players: the forehand is the player who is not the dealer.

    >>> other_player(("Anna", "Bert"), "Anna")
    'Bert'
    """
    return players[1] if one == players[0] else players[0]


def match_won(score: int, target: int) -> bool:
    """Whether a player with ``score`` game points has won a match played to ``target``."""
    return score >= target


def cards_in(mask: int) -> list[int]:
    """The card numbers in ``mask``, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def random_card(mask: int, rand: Callable[[], float]) -> int:
    """A card of the non-empty ``mask`` chosen at random: the k-th lowest, k drawn from
    ``rand`` (one number)."""
    return (_CARDS_LOW[mask & 4095] + _CARDS_HIGH[mask >> 12])[int(rand() * mask.bit_count())]


def _cards_of_masks(first: int) -> tuple[tuple[int, ...], ...]:
    """The cards of every mask of the 12 cards from ``first`` on, lowest first, by mask: a
    mask's cards are those of the mask without its highest card, and that card."""
    table: list[tuple[int, ...]] = [()]
    for bit in range(12):
        table += [(*cards, first + bit) for cards in table]
    return tuple(table)


#: The cards of a mask's lower and upper half, lowest first (:func:`random_card` picks the
#: k-th of both together without a loop over the bits; 4,096 entries each, made at import
#: in about 1.5 ms).
_CARDS_LOW: Final = _cards_of_masks(0)
_CARDS_HIGH: Final = _cards_of_masks(12)
