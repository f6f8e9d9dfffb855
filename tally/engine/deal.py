"""A deal of Sixty-Six or Schnapsen, played one action at a time.

:class:`Deal` is the one state of a deal. It knows what a scorer sees (the cards as they are
played) and, when given, the hands as dealt and the order of the stock; it never guesses.
Each action has three faces, in the manner of pokerkit: ``verify_play(card)`` raises with the
reason when the action may not be taken now, ``can_play(card)`` answers yes or no, and
``play(card)`` does it and returns a small frozen record of what happened::

    >>> from tally.engine.rules import RuleSet, check_in_deck
    >>> deal = Deal.start(RuleSet.preset(), dealer="Anna", forehand="Bert", trump=Card.parse("QH"))
    >>> deal.play(Card.parse("KS"))
    Play(player='Bert', card=Card.parse('KS'), trick=1)
    >>> deal.play(Card.parse("AS")).player, deal.leader
    ('Anna', 'Anna')

Applying an action that breaks a rule of play (a revoke, a false marriage) is not refused:
it happened at the table, so the deal notes the violation (:attr:`Deal.violations`) and goes
on; :func:`tally.engine.ruling.rule` rules on the whole record, including violations that only a
later play proves. An action that no real deal could contain (a card played twice, the turn-up
played while it lies on the table) raises :class:`RecordError` and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Final

from tally.engine.cards import CARDS, Card, Suit, cards_of
from tally.engine.decision import DealState, Ruling, rule_facts
from tally.engine.evidence import (
    ClaimFact,
    DealFacts,
    FollowEvent,
    MarriageEvent,
    SwapEvent,
    Violation,
    counted_points,
    first_card,
    follow_problem,
)
from tally.engine.kernel import (
    CARD_POINTS,
    CLAIM_AT,
    FOLLOWER_WINS,
    KING,
    KINGS_MASK,
    NINE,
    QUEEN,
    TRUMP_MARRIAGE,
    Rule,
    claim_correct,
    close_refusal,
    exchange_refusal,
    legal_follows,
    marriage_allowed,
    marriage_value,
    random_card,
)
from tally.engine.notation import (
    CARD_ITEMS,
    CLOSE,
    SWAP,
    ClaimItem,
    DealRecord,
    Item,
    MarriageItem,
    TrickLine,
)
from tally.engine.rules import STOCK, RuleSet, check_in_deck
from tally.errors import IllegalAction, Message, RecordError
from tally.i18n import N_

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "Action",
    "Claim",
    "Close",
    "Deal",
    "Draw",
    "Exchange",
    "Marriage",
    "Play",
    "Violation",
    "check_in_deck",
]

#: ``face_up`` when what lies face up is unknown (after a false exchange).
UNKNOWN: Final = -2
#: ``face_up`` when nothing lies face up any more (the stock is exhausted).
NOTHING: Final = -1


# --- what actions return -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to a trick."""

    player: str
    card: Card
    trick: int


@dataclass(frozen=True, slots=True)
class Exchange:
    """The exchange card swapped for the turn-up; ``taken`` is None when it is unknown."""

    player: str
    given: Card
    taken: Card | None
    trick: int


@dataclass(frozen=True, slots=True)
class Marriage:
    """A marriage declared by the leader: king and queen of ``suit``, worth ``points``."""

    player: str
    suit: Suit
    points: int
    card: Card
    trick: int


@dataclass(frozen=True, slots=True)
class Close:
    """The stock closed; ``before_draws`` when the trick winner closed before drawing."""

    player: str
    before_draws: bool
    trick: int


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim of 66; ``correct`` when the claimer's counted points were 66 or more."""

    player: str
    correct: bool
    points: int
    trick: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Both players drew from the stock; the cards are None where nobody saw them."""

    winner: str
    winner_card: Card | None
    loser: str
    loser_card: Card | None
    trick: int


Action = Play | Exchange | Marriage | Close | Claim | Draw


class Deal:
    """The state of one deal. Build it with :meth:`start`."""

    __slots__ = (
        "_borrowed",
        "_card_points",
        "_carry",
        "_claim",
        "_close_opp_points",
        "_close_opp_tricks",
        "_close_seq",
        "_close_trick",
        "_closed",
        "_closer",
        "_dealt",
        "_drawn",
        "_exhausted",
        "_face_up",
        "_face_up_by",
        "_facedown_draws",
        "_follows",
        "_hand_count",
        "_hands",
        "_hidden_takes",
        "_known",
        "_knows_hands",
        "_last_draw_loser",
        "_last_draw_seq",
        "_last_trick_winner",
        "_lead",
        "_leader_idx",
        "_line_done",
        "_log",
        "_marriage_lead",
        "_marriages",
        "_names",
        "_outside_plays",
        "_pending_draw",
        "_play_by",
        "_play_seq",
        "_play_trick",
        "_played",
        "_played_by",
        "_rules",
        "_seq",
        "_stock",
        "_stock_order",
        "_swapped_out",
        "_swaps",
        "_t_taken_by",
        "_t_taken_seq",
        "_trick",
        "_tricks",
        "_trump",
        "_turn_up",
        "_violations",
        "_xcard",
    )

    def __init__(self, rules: RuleSet, names: tuple[str, str], turn_up: Card, carry: int = 0):
        self._rules = rules
        self._names = names  # index 0: forehand, 1: dealer
        self._turn_up = int(turn_up)
        self._trump = turn_up // 6
        self._xcard = self._trump * 6 + int(rules.exchange_card)
        self._carry = carry
        self._seq = 0
        self._trick = 1
        self._leader_idx = 0
        self._lead = -1
        self._marriage_lead = False
        self._pending_draw = False
        self._last_trick_winner = -1
        self._stock = rules.stock_size
        self._face_up = self._turn_up
        self._closed = self._exhausted = False
        self._closer = self._close_seq = -1
        self._close_trick = self._close_opp_points = self._close_opp_tricks = 0
        self._played = 0
        self._play_seq = [-1] * 24
        self._play_trick = [0] * 24
        self._play_by = [-1] * 24
        self._played_by = [0, 0]
        self._tricks = [0, 0]
        self._card_points = [0, 0]
        self._hand_count = [rules.hand, rules.hand]
        self._dealt: list[int | None] = [None, None]
        self._swapped_out = [0, 0]
        self._t_taken_by = self._t_taken_seq = self._last_draw_loser = self._last_draw_seq = -1
        self._hands: list[int] | None = None
        # Whether any hand as dealt is known (a Hands tag, a random deal): if not, a play can
        # contradict only what was played and the turn-up, and the hot path skips the rest.
        self._knows_hands = False
        self._stock_order: list[int] | None = None
        self._known = [0, 0]
        self._outside_plays = [0, 0]
        self._facedown_draws = [0, 0]
        # Face-up cards taken after an exchange moved the cards (by a later exchange or at the
        # last draw): the exchange card if that exchange was true, an unknown card if it was
        # false (RULES.md section 12). Each allows one more card from outside the dealt hand,
        # unless the taker had put it there (then it was theirs before).
        self._hidden_takes = [0, 0]
        #: who last put a card face up by an exchange (-1: the turn-up still lies there)
        self._face_up_by = -1
        # Cards of the other's dealt hand played after such a take: the card a false exchanger
        # put face up may have been dealt to them (one per take).
        self._borrowed = [0, 0]
        self._marriages: list[MarriageEvent] = []
        self._swaps: list[SwapEvent] = []
        self._follows: list[FollowEvent] = []
        self._violations: list[Violation] = []
        self._claim: tuple[int, int, bool, int] | None = None  # seq, player, correct, points
        # The trick lines of this deal as a scorer writes them (None: not kept, as in a replay
        # of a record that already has them).
        self._log: list[list[Item]] | None = None
        self._line_done = False
        self._drawn = False

    # --- building ------------------------------------------------------------------------

    def copy(self) -> Deal:
        """An independent copy of the deal as it stands (an action tried on it leaves this
        one as it is)."""
        twin = Deal.__new__(Deal)
        for name in Deal.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                # (only the trick lines hold lists; the other lists hold numbers and events,
                # which nothing changes in place)
                value = [list(v) for v in value] if name == "_log" else value[:]
            setattr(twin, name, value)
        return twin

    @staticmethod
    def start(
        rules: RuleSet,
        dealer: str,
        forehand: str,
        trump: Card,
        *,
        carry: int = 0,
        hands: dict[str, list[Card]] | None = None,
        stock: list[Card] | None = None,
        keep_history: bool = True,
    ) -> Deal:
        """A new deal. ``trump`` is the turn-up card.

        ``hands`` gives the hands as dealt (one player or both). ``stock`` gives the face-down
        stock from the top; with both hands and the stock the deal is fully known, and
        :meth:`legal_actions` lists what the player to move may do. ``keep_history=False``
        skips keeping the trick lines for :meth:`record` (a replay of a record has them).
        """
        if dealer == forehand:
            raise RecordError(Message(MSG_SAME_PLAYERS, player=dealer))
        if not 0 <= trump < 24:
            raise RecordError(Message(MSG_NO_CARD, text=trump))
        check_in_deck(trump, rules)
        deal = Deal(rules, (forehand, dealer), trump, carry)
        if keep_history:
            deal._log = []
        if hands:
            for name, cards in hands.items():
                deal.set_hand(name, cards)
        if stock is not None:
            deal._set_stock(stock)
        return deal

    def set_hand(self, name: str, cards: list[Card]) -> None:
        """Record the hand ``name`` was dealt (from a ``Hands`` tag)."""
        p = self.player_index(name)
        if self._dealt[p] is not None:
            raise RecordError(Message(MSG_HAND_TWICE, player=name))
        if len(cards) != self._rules.hand:
            raise RecordError(
                Message(MSG_HAND_SIZE, n=len(cards), player=name, hand=self._rules.hand)
            )
        mask = 0
        for c in cards:
            check_in_deck(c, self._rules, "Hands")
            if mask >> c & 1:
                raise RecordError(Message(MSG_HAND_CARD_TWICE, card=c, player=name))
            if c == self._turn_up:
                raise RecordError(Message(MSG_HAND_TURN_UP, player=name, card=c))
            mask |= 1 << c
        other = self._dealt[1 - p]
        if other is not None and other & mask:
            both = ", ".join(str(c) for c in cards_of(other & mask))
            raise RecordError(Message(MSG_HANDS_SHARE, cards=both))
        self._dealt[p] = mask
        self._knows_hands = True
        self._known[p] |= mask

    def _set_stock(self, stock: list[Card]) -> None:
        if self._dealt[0] is None or self._dealt[1] is None:
            raise RecordError(MSG_STOCK_NEEDS_HANDS)
        if len(stock) != self._rules.stock_size:
            raise RecordError(Message(MSG_STOCK_SIZE, n=self._rules.stock_size))
        everything = self._dealt[0] | self._dealt[1] | 1 << self._turn_up
        for c in stock:
            check_in_deck(c, self._rules, STOCK)
            if everything >> c & 1:
                raise RecordError(Message(MSG_DEALT_TWICE, card=c))
            everything |= 1 << c
        self._hands = [self._dealt[0], self._dealt[1]]
        self._stock_order = [int(c) for c in stock]

    @staticmethod
    def random(
        rules: RuleSet,
        rng: Random,
        names: tuple[str, str] = ("Anna", "Bert"),
        carry: int = 0,
        keep_history: bool = True,
    ) -> Deal:
        """A fully known deal shuffled with ``rng``: forehand ``names[0]``, dealer ``names[1]``.

        ``keep_history=False`` plays faster but cannot give its :meth:`record`.
        """
        deck = _shuffled(_DECK24 if rules.deck == 24 else _DECK20, rng)
        h = rules.hand
        deal = Deal(rules, names, CARDS[deck[2 * h]], carry)
        if keep_history:
            deal._log = []
        first = second = 0
        for c in deck[:h]:
            first |= 1 << c
        for c in deck[h : 2 * h]:
            second |= 1 << c
        deal._dealt = [first, second]
        deal._knows_hands = True
        deal._known = [first, second]
        deal._hands = [first, second]
        deal._stock_order = deck[2 * h + 1 :]
        return deal

    # --- what a player may ask ----------------------------------------------------------------

    def player_index(self, name: str) -> int:
        """0 for forehand, 1 for dealer; :class:`RecordError` for anybody else."""
        if name == self._names[0]:
            return 0
        if name == self._names[1]:
            return 1
        raise RecordError(
            Message(MSG_NOT_PLAYING, player=name, forehand=self._names[0], dealer=self._names[1])
        )

    @property
    def forehand(self) -> str:
        """The non-dealer, who leads the first trick."""
        return self._names[0]

    @property
    def dealer(self) -> str:
        """The dealer."""
        return self._names[1]

    @property
    def trumps(self) -> Suit:
        """The trump suit."""
        return Suit(self._trump)

    @property
    def leader(self) -> str:
        """Who leads the current trick (or led it)."""
        return self._names[self._leader_idx]

    @property
    def to_move(self) -> str | None:
        """Who is to act next, or None when the deal is over."""
        if self.is_over:
            return None
        if self._lead >= 0:
            return self._names[1 - self._leader_idx]
        return self._names[self._leader_idx]

    @property
    def phase(self) -> int:
        """1 while the stock is open, 2 once it is exhausted or closed."""
        return 2 if (self._closed or self._exhausted) else 1

    @property
    def is_over(self) -> bool:
        """True after a claim or after the last trick."""
        return self._claim is not None or self.all_tricks_played

    @property
    def all_tricks_played(self) -> bool:
        """True when every trick of the deal has been played."""
        return self._hand_count[0] == 0 and self._hand_count[1] == 0 and self._lead < 0

    @property
    def claimed(self) -> bool:
        """True when somebody has claimed."""
        return self._claim is not None

    @property
    def stock_left(self) -> int:
        """Face-down cards left in the stock."""
        return self._stock

    def counted_points(self, name: str, *, valid_only: bool = False) -> int:
        """Counted points of ``name`` now: card points, marriages once a trick is won, bonus.

        ``valid_only`` leaves out marriages declared where they are not allowed.
        """
        return self._counted(self.player_index(name), True, valid_only)

    @property
    def claimer(self) -> str | None:
        """Who claimed, None while nobody has."""
        return None if self._claim is None else self._names[self._claim[1]]

    def tricks_won(self, name: str) -> int:
        """Tricks ``name`` has won."""
        return self._tricks[self.player_index(name)]

    def hand(self, name: str) -> list[Card] | None:
        """The hand of ``name`` when it is known (a fully known deal), else None."""
        if self._hands is None:
            return None
        return cards_of(self._hands[self.player_index(name)])

    def _counted(self, p: int, with_bonus: bool, only_valid: bool = False) -> int:
        tricks = self._tricks[p]
        marriages = bonus = 0
        if tricks:  # (nothing else counts before a trick: evidence.counted_points says so)
            if self._marriages:
                marriages = sum(
                    m.points
                    for m in self._marriages
                    if m.player == p and (m.allowed or not only_valid)
                )
            if (
                with_bonus
                and self._last_trick_winner == p
                and not self._closed
                and self.all_tricks_played
            ):
                bonus = self._rules.last_trick_bonus
        return counted_points(self._card_points[p], tricks, marriages, bonus)

    # --- read-only state -----------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """The rule set the deal is played under."""
        return self._rules

    @property
    def names(self) -> tuple[str, str]:
        """The players: forehand, then dealer."""
        return self._names

    @property
    def turn_up(self) -> Card:
        """The card turned up at the deal (its suit is trumps)."""
        return CARDS[self._turn_up]

    @property
    def exchange_card(self) -> Card:
        """The trump card that may be exchanged for the turn-up."""
        return CARDS[self._xcard]

    @property
    def face_up(self) -> Card | None:
        """The card lying face up under the stock, None when unknown or gone."""
        return CARDS[self._face_up] if self._face_up >= 0 else None

    @property
    def carry(self) -> int:
        """Game points carried into this deal by drawn deals before it."""
        return self._carry

    @property
    def trick(self) -> int:
        """The number of the trick being played (one past the last once they are all played)."""
        return self._trick

    @property
    def lead(self) -> Card | None:
        """The card led to the current trick, None before the lead."""
        return CARDS[self._lead] if self._lead >= 0 else None

    @property
    def closed(self) -> bool:
        """Whether somebody closed the stock."""
        return self._closed

    @property
    def closer(self) -> str | None:
        """Who closed the stock, None while nobody has."""
        return self._names[self._closer] if self._closed else None

    @property
    def exhausted(self) -> bool:
        """Whether the stock is exhausted (every card drawn; not closed)."""
        return self._exhausted

    @property
    def draw_pending(self) -> bool:
        """Whether both players are still to draw after the last trick."""
        return self._pending_draw

    @property
    def last_trick_winner(self) -> str | None:
        """Who won the last trick played, None before the first."""
        w = self._last_trick_winner
        return self._names[w] if w >= 0 else None

    @property
    def played(self) -> int:
        """The cards played so far, as a bit mask (see :mod:`tally.engine.kernel`)."""
        return self._played

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points won so far by forehand and dealer."""
        return self._card_points[0], self._card_points[1]

    @property
    def tricks(self) -> tuple[int, int]:
        """Tricks won so far by forehand and dealer."""
        return self._tricks[0], self._tricks[1]

    @property
    def violations(self) -> tuple[Violation, ...]:
        """The violations noted so far as the actions were taken (more may be proven by the
        whole record: see :func:`tally.engine.evidence.proven_violations`)."""
        return tuple(self._violations)

    @property
    def marriages(self) -> tuple[MarriageEvent, ...]:
        """The marriages declared so far."""
        return tuple(self._marriages)

    def facts(self) -> DealFacts:
        """Everything the deal noted, frozen, for the evidence and the ruling."""
        claim = self._claim
        tricks, points, dealt = self._tricks, self._card_points, self._dealt
        return DealFacts(  # positional, in the order of DealFacts' fields (made per record)
            self._rules,
            self._names,
            self._turn_up,
            self._trump,
            self._xcard,
            self._carry,
            tuple(self._swaps),
            tuple(self._marriages),
            tuple(self._follows),
            tuple(self._violations),
            tuple(self._play_seq),
            tuple(self._play_trick),
            (self._played_by[0], self._played_by[1]),
            (dealt[0] or 0, dealt[1] or 0),
            self._t_taken_by,
            self._t_taken_seq,
            self._last_draw_loser,
            self._last_draw_seq,
            None if claim is None else ClaimFact(*claim),
            self._closed,
            self._closer,
            self._close_seq,
            self._close_opp_points,
            self._close_opp_tricks,
            (tricks[0], tricks[1]),
            (points[0], points[1]),
            self._last_trick_winner,
            self.all_tricks_played,
        )

    def state(self) -> DealState:
        """Where the deal stands, frozen."""
        claimed = self._claim is not None
        lead = self._lead
        played_out = lead < 0 and not self._hand_count[0] and not self._hand_count[1]
        to_move = as_ = None
        if not (claimed or played_out):
            following = lead >= 0
            to_move = self._names[1 - self._leader_idx if following else self._leader_idx]
            as_ = "follow" if following else "lead"
        return DealState(
            to_move,
            as_,
            self._trick,
            claimed or played_out,
            played_out,
            claimed,
            self._closed,
            2 if self._closed or self._exhausted else 1,
            self._stock,
            len(self._swaps),
        )

    # --- verify / can / do ----------------------------------------------------------------

    def _play_problem(
        self, c: int, judge_now: bool = True
    ) -> tuple[int, Rule | None, str | Message]:
        """Who plays card ``c`` now, and the rule it breaks by what is known now (None: none).

        Raises :class:`RecordError` when no real deal could contain the play. With
        ``judge_now`` False the duty to follow is left to the whole record
        (:mod:`tally.engine.evidence`), as in play: a later card may prove a revoke.
        """
        p = self._mover()
        self._check_playable(p, c)
        if judge_now and self._lead >= 0 and (self._closed or self._exhausted):
            rule, msg = follow_problem(
                self._names, self._trump, p, self._lead, c, self._proven_now(p)
            )
            return p, rule, msg
        return p, None, ""

    def verify_play(self, card: Card) -> None:
        """Raise :class:`RecordError` or :class:`IllegalAction` if ``card`` may not be played."""
        _p, rule, msg = self._play_problem(int(card))
        if rule is not None:
            raise IllegalAction(rule, msg)

    def can_play(self, card: Card) -> bool:
        """Whether ``card`` may be played now."""
        return _can(self.verify_play, card)

    def play(self, card: Card) -> Play:
        """Play ``card`` for the player to move; a revoke is noted, not refused."""
        c = int(card)
        self.push(c)
        return Play(self._names[self._play_by[c]], CARDS[c], self._play_trick[c])

    def _log_item(self, item: Item, lead_side: bool) -> None:
        log = self._log
        assert log is not None
        if not log or (lead_side and self._line_done):
            log.append([])
            self._line_done = False
        log[-1].append(item)

    def record(self, *, hands: bool = False, **tags: str) -> DealRecord:
        """The deal as a ``.deal`` record: what a scorer saw, trick by trick.

        ``hands=True`` adds the ``Hands`` tag of a fully known deal; ``tags`` adds others
        (``Event="Club night"``).
        """
        if self._log is None:
            raise RecordError(MSG_NO_HISTORY)
        t: dict[str, str] = {}
        if self._rules.spec != "sixty-six":
            t["Rules"] = self._rules.spec
        t["Dealer"] = self._names[1]
        t["Forehand"] = self._names[0]
        t["Trump"] = str(CARDS[self._turn_up])
        if self._carry:
            t["Carry"] = str(self._carry)
        if hands and self._dealt[0] is not None and self._dealt[1] is not None:
            t["Hands"] = "; ".join(
                f"{self._names[p]}: " + " ".join(str(c) for c in cards_of(self._dealt[p] or 0))
                for p in (0, 1)
            )
        t.update(tags)
        lines = [TrickLine(n, tuple(items)) for n, items in enumerate(self._log, start=1)]
        return DealRecord(t, lines)

    def ruling(self, file: str = "") -> Ruling:
        """The ruling on the deal as it stands (:func:`tally.engine.decision.rule_facts`)."""
        return rule_facts(self.facts(), self.state(), file)

    def push(self, card: int) -> bool:
        """Play ``card`` as :meth:`play` does, without making a record of it (for replays);
        True when it completed a trick."""
        c = card
        if self._pending_draw:
            self._draw()
        lead = self._lead
        if self._claim is None and (lead >= 0 or self._hand_count[0] or self._hand_count[1]):
            # the hot path of a replay: the play problem without the duty to follow (the whole
            # record judges that) and without asking who moves
            p = self._leader_idx if lead < 0 else 1 - self._leader_idx
            self._check_playable(p, c)
        else:
            p = self._play_problem(c, judge_now=False)[0]  # raises: the deal is over
        self._seq += 1
        self._place(p, c)
        log = self._log
        if log is not None:
            self._log_item(CARD_ITEMS[c], lead < 0)
        if lead < 0:
            self._lead = c
            return False
        self._marriage_lead = False
        self._finish_trick(p, c)
        if log is not None:
            self._line_done = True
            self._drawn = False
        return True

    def verify_exchange(self) -> None:
        """Raise if the player to move may not exchange the turn-up now."""
        rule, msg = self._exchange_problem(self._mover())
        if rule is not None:
            raise IllegalAction(rule, msg)

    def can_exchange(self) -> bool:
        """Whether the player to move may exchange now."""
        return _can(self.verify_exchange)

    def exchange(self) -> Exchange:
        """Swap the exchange card for the turn-up (for the player about to play a card)."""
        self._draw_if_pending()
        p = self._mover()
        self._marriage_lead = False
        self._seq += 1
        rule, msg = self._exchange_problem(p, judge_now=False)
        allowed = rule is None
        if rule is not None:
            self._violate(p, rule, msg)
        moved = not self._exhausted
        taken = self._face_up if moved else NOTHING
        if moved:
            if self._face_up == self._turn_up:
                self._t_taken_by = p
                self._t_taken_seq = self._seq
            elif self._face_up_by != p:
                self._hidden_takes[p] += 1
            self._face_up_by = p
            if self._dealt[p] is not None:
                self._swapped_out[p] |= 1 << self._xcard
            if taken >= 0:
                self._known[p] |= 1 << taken
            self._known[p] &= ~(1 << self._xcard)
            if self._hands is not None:
                holds = self._hands[p] >> self._xcard & 1
                if taken >= 0:
                    self._hands[p] |= 1 << taken
                if holds:
                    self._hands[p] &= ~(1 << self._xcard)
                    self._face_up = self._xcard
                else:
                    self._face_up = UNKNOWN
            else:
                self._face_up = self._xcard
        self._swaps.append(SwapEvent(self._seq, self._trick, p, moved, allowed, taken))
        if self._log is not None:
            self._log_item(SWAP, self._lead < 0)
        return Exchange(
            self._names[p], CARDS[self._xcard], CARDS[taken] if taken >= 0 else None, self._trick
        )

    def _declare_problem(
        self, c: int, points: int | None, judge_now: bool = True
    ) -> tuple[int, int, Rule | None, str | Message]:
        """Who declares the marriage of card ``c`` now, its worth, and the rule it breaks by
        what is known now (None: none). Raises :class:`RecordError` when no real deal could
        contain it (not a king or queen, a wrong worth, a card already played...). With
        ``judge_now`` False whether the partner was held is left to the whole record."""
        p = self._leader_before_lead()
        self._check_marriage_card(c)
        value = marriage_value(c, self._trump)
        if points is not None and points != value:
            raise RecordError(
                Message(
                    (MSG_TRUMP_MARRIAGE_WORTH if value == TRUMP_MARRIAGE else MSG_MARRIAGE_WORTH),
                    suit=Message(Suit(c // 6).title),
                    value=value,
                    points=points,
                )
            )
        self._check_playable(p, c)
        if not marriage_allowed(self._closed or self._exhausted, self._rules.marriage_in_phase2):
            return (
                p,
                value,
                Rule.MARRIAGE_NOT_ALLOWED,
                (Message(MSG_MARRIAGE_IN_PHASE_2, player=self._names[p], points=value)),
            )
        if judge_now:
            partner = c - 1 if c % 6 == KING else c + 1
            if self._hands is not None:
                if not self._hands[p] >> partner & 1:
                    return (
                        p,
                        value,
                        Rule.FALSE_MARRIAGE,
                        (Message(MSG_DOES_NOT_HOLD, player=self._names[p], card=CARDS[partner])),
                    )
            elif self._partner_elsewhere(p, partner):
                return (
                    p,
                    value,
                    Rule.FALSE_MARRIAGE,
                    (Message(MSG_NOT_IN_HAND, card=CARDS[partner], player=self._names[p])),
                )
        return p, value, None, ""

    def verify_declare(self, card: Card) -> None:
        """Raise if the leader may not declare the marriage of ``card`` (a K or Q) now."""
        _p, _value, rule, msg = self._declare_problem(int(card), None)
        if rule is not None:
            raise IllegalAction(rule, msg)

    def can_declare(self, card: Card) -> bool:
        """Whether the leader may declare the marriage of ``card``."""
        return _can(self.verify_declare, card)

    def declare(self, card: Card, points: int | None = None) -> Marriage:
        """Declare the marriage of ``card``'s suit and show ``card``; it is led next.

        The card is led by the next action unless that action is a claim, which ends the deal
        with the card still in hand. ``points`` (20 or 40), when given, is checked.
        """
        self._draw_if_pending()
        c = int(card)
        p, value, rule, msg = self._declare_problem(c, points, judge_now=False)
        self._seq += 1
        allowed = rule is None
        if rule is not None:
            self._violate(p, rule, msg)
        partner = c - 1 if c % 6 == KING else c + 1
        self._marriages.append(MarriageEvent(self._seq, self._trick, p, c, partner, value, allowed))
        self._known[p] |= 1 << partner
        self._place(p, c)
        self._lead = c
        self._marriage_lead = True
        if self._log is not None:
            self._log_item(MarriageItem(value, CARDS[c]), True)
        return Marriage(self._names[p], Suit(c // 6), value, CARDS[c], self._trick)

    def verify_close(self) -> None:
        """Raise if the stock may not be closed now."""
        p = self._closing_player()
        rule, msg = self._close_problem(p)
        if rule is not None:
            raise IllegalAction(rule, msg)

    def can_close(self) -> bool:
        """Whether the player on lead may close the stock now."""
        return _can(self.verify_close)

    def close(self, after_trick: bool | None = None) -> Close:
        """Close the stock: right after a trick (before the draws) or before leading.

        ``after_trick`` says the close was written right after the last trick's cards (it then
        belongs to that trick); by default that is so while the draws are still to be made.
        """
        p = self._closing_player()
        before_draws = self._pending_draw
        if after_trick is None:
            after_trick = before_draws
        after_trick = after_trick and self._trick > 1
        self._seq += 1
        rule, msg = self._close_problem(p)
        if rule is not None:
            self._violate(p, rule, msg, trick=self._trick - 1 if after_trick else self._trick)
        if not (self._closed or self._exhausted):
            self._closed = True
            self._closer = p
            self._close_seq = self._seq
            self._close_trick = self._trick - 1 if after_trick else self._trick
            self._close_opp_points = self._counted(1 - p, with_bonus=False)
            self._close_opp_tricks = self._tricks[1 - p]
        self._pending_draw = False
        if self._log is not None:
            self._log_item(CLOSE, not after_trick)
        return Close(self._names[p], before_draws, self._trick - 1 if after_trick else self._trick)

    def verify_claim(self, name: str | None = None) -> None:
        """Raise :class:`RecordError` if ``name`` may not claim now (a claim may be false,
        though: that decides the deal against the claimer, it is no violation)."""
        self._claim_problem(name)

    def can_claim(self, name: str | None = None) -> bool:
        """Whether ``name`` (by default the player on lead) may claim now."""
        return _can(self.verify_claim, name)

    def claim(self, name: str | None = None) -> Claim:
        """``name`` (by default the player on lead) claims 66; the deal ends."""
        p = self._claim_problem(name)
        self._seq += 1
        trick = self._trick - 1 if self._lead < 0 else self._trick
        marriage_claim = self._marriage_lead
        if self._marriage_lead:
            self._unplace(self._leader_idx, self._lead)
            self._lead = -1
            self._marriage_lead = False
        counted = self._counted(p, with_bonus=True)
        on_lead = p == self._leader_idx
        correct = claim_correct(counted, on_lead, self._rules.claim_when == "any")
        self._claim = (self._seq, p, correct, counted)
        if self._log is not None:
            at_start = self._lead < 0 and (self._drawn or not self._line_done)
            if marriage_claim:
                at_start = False
            default = self._leader_idx
            item = ClaimItem(None if p == default else self._names[p])
            self._log_item(item, at_start)
        return Claim(self._names[p], correct, counted, max(trick, 1))

    def draw(self) -> Draw | None:
        """Both players draw after a trick (done by itself when the next trick starts);
        None when no draw is due."""
        if self._draw_problem():
            return None
        w = self._leader_idx
        wcard, lcard = self._draw()
        return Draw(
            self._names[w],
            _card_or_none(wcard),
            self._names[1 - w],
            _card_or_none(lcard),
            self._trick - 1,
        )

    def check_remaining(self, remaining: dict[int, int]) -> None:
        """Raise :class:`RecordError` when the hands a ``Remaining`` tag lists (card masks by
        player index) cannot be what the players still hold now."""
        both = 0
        for p, mask in remaining.items():
            name = self._names[p]
            count = mask.bit_count()
            if mask & self._played:
                c = first_card(mask & self._played)
                raise RecordError(
                    Message(MSG_REMAINING_PLAYED, card=c, player=name, trick=self._play_trick[c])
                )
            if count > self._hand_count[p]:
                raise RecordError(
                    Message(MSG_REMAINING_COUNT, n=count, player=name, held=self._hand_count[p])
                )
            if both & mask:
                raise RecordError(Message(MSG_REMAINING_BOTH, card=first_card(both & mask)))
            both |= mask
            self._check_remaining_turn_up(p, mask)
            dealt_o = self._dealt[1 - p]
            # a face-up card the other put there by a false exchange may be theirs (RULES.md 12)
            spare = self._hidden_takes[p] - self._borrowed[p].bit_count()
            theirs = 0 if dealt_o is None else dealt_o & ~self._swapped_out[1 - p] & mask
            if theirs.bit_count() > spare:
                raise RecordError(
                    Message(
                        MSG_REMAINING_THEIRS,
                        card=first_card(theirs),
                        player=name,
                        other=self._names[1 - p],
                    )
                )

    def _check_remaining_turn_up(self, p: int, mask: int) -> None:
        t = self._turn_up
        if not mask >> t & 1:
            return
        t_owner = self._t_taken_by if self._t_taken_by >= 0 else self._last_draw_loser
        name = self._names[p]
        if t_owner < 0:
            raise RecordError(Message(MSG_REMAINING_TURN_UP, card=CARDS[t], player=name))
        if t_owner != p:
            raise RecordError(
                Message(
                    MSG_REMAINING_TURN_UP_TAKEN,
                    card=CARDS[t],
                    player=name,
                    other=self._names[t_owner],
                )
            )

    # --- legal actions of a fully known deal -------------------------------------------------

    def legal_actions(self) -> list[Action | Card]:
        """What the player to move may do: cards to play and other actions.

        Cards are returned as :class:`Card`; a marriage as :class:`Marriage`, the exchange as
        :class:`Exchange`, and so on (records of the action that would be taken). Needs a fully
        known deal (:meth:`random` or ``start`` with both hands and the stock).
        """
        if self._hands is None:
            raise RecordError(MSG_LEGAL_NEEDS_HANDS)
        if self.is_over:
            return []
        out: list[Action | Card] = []
        trick = self._trick
        if self._pending_draw:
            w = self._leader_idx
            name = self._names[w]
            if self._counted(w, True) >= CLAIM_AT:
                out.append(Claim(name, True, self._counted(w, True), trick - 1))
            if self._rules.close_before_draw:
                out.append(Close(name, True, trick - 1))
            out.append(Draw(name, None, self._names[1 - w], None, trick - 1))
            return out
        p = self._mover()
        hand = self._hands[p]
        name = self._names[p]
        if self._lead < 0:
            counted = self._counted(p, True)
            if counted >= CLAIM_AT:
                out.append(Claim(name, True, counted, trick))
            if not self._close_problem(p)[0]:
                out.append(Close(name, False, trick))
            if not self._exchange_problem(p)[0] and hand >> self._xcard & 1:
                out.append(Exchange(name, CARDS[self._xcard], _card_or_none(self._face_up), trick))
            if self.phase == 1 or self._rules.marriage_in_phase2:
                for s in range(4):
                    k, q = s * 6 + 3, s * 6 + 2
                    if hand >> k & 1 and hand >> q & 1:
                        pts = marriage_value(k, self._trump)
                        out.append(Marriage(name, Suit(s), pts, CARDS[k], trick))
                        out.append(Marriage(name, Suit(s), pts, CARDS[q], trick))
            out.extend(CARDS[c] for c in cards_of(hand))
            return out
        if self._marriage_lead:
            declarer = self._leader_idx
            counted = self._counted(declarer, True)
            if counted >= CLAIM_AT:
                out.append(Claim(self._names[declarer], True, counted, trick))
        if (
            self._rules.exchange_when == "lead-or-follow"
            and not self._exchange_problem(p)[0]
            and hand >> self._xcard & 1
        ):
            out.append(Exchange(name, CARDS[self._xcard], _card_or_none(self._face_up), trick))
        out.extend(CARDS[c] for c in cards_of(self._legal_follows(hand)))
        return out

    def apply(self, action: Action | Card) -> Action:
        """Take an action listed by :meth:`legal_actions` (or any action of that form)."""
        if isinstance(action, int):
            return self.play(action)
        if isinstance(action, Marriage):
            marriage = self.declare(action.card)
            return marriage
        if isinstance(action, Exchange):
            return self.exchange()
        if isinstance(action, Close):
            return self.close()
        if isinstance(action, Claim):
            return self.claim(action.player)
        if isinstance(action, Draw):
            drawn = self.draw()
            return drawn if drawn is not None else action
        return self.play(action.card)

    def play_out_randomly(self, rng: Random) -> None:
        """Play a fully known deal to its end, each player taking random legal actions.

        The same rules as :meth:`legal_actions`, without building the list: claims are made
        most of the time they are correct (not always, so that deals are also played out), the
        stock is closed now and then, exchanges and marriages are taken half the time.
        """
        hands = self._hands
        if hands is None:
            raise RecordError(MSG_RANDOM_NEEDS_HANDS)
        rand = rng.random
        rules = self._rules
        while self._claim is None:
            if self._pending_draw:
                if self._random_draw(rand):
                    return
                continue
            p = self._leader_idx
            hand = hands[p]
            if self._lead < 0:
                if not hand:
                    return  # every trick played
                if self._tricks[p] and self._counted(p, True) >= CLAIM_AT and rand() < 0.9:
                    self.claim()
                    return
                open_stock = not (self._closed or self._exhausted)
                if open_stock and rand() < 0.04:
                    self.close()
                    open_stock = False
                if (
                    open_stock
                    and hand >> self._xcard & 1
                    and rand() < 0.5
                    and not self._exchange_problem(p)[0]
                ):
                    self.exchange()
                    hand = hands[p]
                if open_stock or rules.marriage_in_phase2:
                    kings = hand & (hand << 1) & KINGS_MASK
                    if kings and rand() < 0.5:
                        k = random_card(kings, rand)
                        self.declare(CARDS[k if rand() < 0.5 else k - 1])
                        hand = hands[p]
                        continue
                self._push_random(p, hand, rand)
            else:
                self._random_follow(hands, 1 - p, rand)

    def _random_draw(self, rand: Callable[[], float]) -> bool:
        """Between tricks in random play: the trick's winner claims most of the time a claim
        is correct (True: the deal is over), may close before drawing, or both draw."""
        w = self._leader_idx
        if self._card_points[w] >= 46 and self._counted(w, True) >= CLAIM_AT and rand() < 0.9:
            self.claim()
            return True
        if self._rules.close_before_draw and rand() < 0.04:
            self.close()
        else:
            self._draw()
        return False

    def _random_follow(self, hands: list[int], f: int, rand: Callable[[], float]) -> None:
        """The follower ``f``'s turn in random play: exchange half the time it is allowed
        (where the rules let the follower exchange), then follow with a random legal card."""
        if (
            self._rules.exchange_when == "lead-or-follow"
            and hands[f] >> self._xcard & 1
            and rand() < 0.5
            and not self._exchange_problem(f)[0]
        ):
            self.exchange()
        hand = hands[f]
        if self._closed or self._exhausted:
            hand = legal_follows(hand, self._lead, self._trump)
        self._push_random(f, hand, rand)

    def _push_random(self, p: int, mask: int, rand: Callable[[], float]) -> None:
        """:meth:`push` for random play: ``p`` is to play a random card of ``mask``, cards of
        their hand (a fully known deal, no draw due), so nothing needs checking; the card is
        chosen by :func:`~tally.engine.kernel.random_card`, :meth:`_place` and :meth:`_finish_trick`
        inline."""
        c = random_card(mask, rand)
        self._seq = seq = self._seq + 1
        bit = 1 << c
        self._played = played = self._played | bit
        self._play_seq[c] = seq
        self._play_trick[c] = trick = self._trick
        self._play_by[c] = p
        self._played_by[p] |= bit
        self._hand_count[p] -= 1
        self._known[p] &= ~bit
        self._hands[p] &= ~bit  # type: ignore[index]
        dealt = self._dealt
        dealt_p = dealt[p]
        if dealt_p is not None and not dealt_p & bit and c != self._turn_up:
            self._outside_plays[p] += 1
        o = 1 - p
        dealt_o = dealt[o]
        if dealt_o is not None and (dealt_o & ~self._swapped_out[o]) & bit:
            self._borrowed[p] |= bit
            self._swapped_out[o] |= bit
        log = self._log
        lead = self._lead
        if log is not None:
            self._log_item(CARD_ITEMS[c], lead < 0)
        if lead < 0:
            self._lead = c
            return
        self._marriage_lead = False
        phase2 = self._closed or self._exhausted
        if phase2:
            self._follows.append((seq, trick, p, lead, c, played))
        winner = p if FOLLOWER_WINS[self._trump][lead][c] else o
        self._card_points[winner] += CARD_POINTS[c] + CARD_POINTS[lead]
        self._tricks[winner] += 1
        self._leader_idx = self._last_trick_winner = winner
        self._lead = -1
        self._trick = trick + 1
        if not phase2:
            self._pending_draw = True
        if log is not None:
            self._line_done = True
            self._drawn = False

    def _legal_follows(self, hand: int) -> int:
        if self._closed or self._exhausted:
            return legal_follows(hand, self._lead, self._trump)
        return hand

    # --- internals ----------------------------------------------------------------------

    def _mover(self) -> int:
        if self._claim is not None:
            raise RecordError(MSG_OVER_CLAIMED)
        if self.all_tricks_played:
            raise RecordError(MSG_OVER_PLAYED)
        if self._pending_draw:
            return self._leader_idx
        return self._leader_idx if self._lead < 0 else 1 - self._leader_idx

    def _leader_before_lead(self) -> int:
        """Who declares a marriage now (the leader, before leading)."""
        p = self._mover()
        if self._marriage_lead:
            raise RecordError(MSG_ONE_MARRIAGE)
        if self._lead >= 0:
            raise RecordError(MSG_MARRIAGE_BEFORE_LEAD)
        return p

    def _closing_player(self) -> int:
        p = self._mover()
        if self._lead >= 0:
            raise RecordError(MSG_CLOSE_DURING_TRICK)
        return p

    def _draw_problem(self) -> str:
        """Why no draw is due now ("" when one is)."""
        if not self._pending_draw:
            return MSG_NO_DRAW
        return ""

    def _claim_problem(self, name: str | None) -> int:
        if self._claim is not None:
            raise RecordError(MSG_CLAIMED_ALREADY)
        if self._lead >= 0 and not self._marriage_lead:
            raise RecordError(MSG_CLAIM_AFTER_LEAD)
        if name is None:
            return self._leader_idx
        return self.player_index(name)

    def _check_marriage_card(self, c: int) -> None:
        if c % 6 not in (KING, QUEEN):
            raise RecordError(Message(MSG_MARRIAGE_RANK, card=CARDS[c]))

    def _check_playable(self, p: int, c: int) -> None:
        """Record errors of playing ``c``: things no real deal can contain."""
        hands = self._hands
        if hands is not None and hands[p] >> c & 1:
            return  # a fully known hand holding the card: nothing can be wrong
        if self._played >> c & 1:
            raise RecordError(
                Message(MSG_PLAYED_ALREADY, card=CARDS[c], trick=self._trick_of_play(c))
            )
        if not self._knows_hands and c != self._turn_up and (c % 6 or self._rules.deck == 24):
            return  # nothing known that the card could contradict
        check_in_deck(c, self._rules)
        if c == self._turn_up and self._t_taken_by < 0 and self._last_draw_loser < 0:
            raise RecordError(
                Message(
                    (MSG_TURN_UP_IN_STOCK if self._closed else MSG_TURN_UP_ON_TABLE), card=CARDS[c]
                )
            )
        o = 1 - p
        if c == self._turn_up and self._t_taken_by == o:
            raise RecordError(Message(MSG_TURN_UP_EXCHANGED, card=CARDS[c], player=self._names[o]))
        if c == self._turn_up and self._t_taken_by < 0 and self._last_draw_loser == o:
            raise RecordError(Message(MSG_TURN_UP_DRAWN, card=CARDS[c], player=self._names[o]))
        dealt_o = self._dealt[o]
        if (
            dealt_o is not None
            and (dealt_o & ~self._swapped_out[o]) >> c & 1
            and self._borrowed[p].bit_count() >= self._hidden_takes[p]
        ):
            raise RecordError(Message(MSG_IN_OTHER_HAND, card=CARDS[c], player=self._names[o]))
        if self._hands is not None and not self._hands[p] >> c & 1:
            raise RecordError(Message(MSG_DOES_NOT_HOLD, player=self._names[p], card=CARDS[c]))
        dealt_p = self._dealt[p]
        if (
            dealt_p is not None
            and not dealt_p >> c & 1
            and c != self._turn_up
            and self._outside_plays[p] >= self._facedown_draws[p] + self._hidden_takes[p]
        ):
            raise RecordError(
                Message(
                    (MSG_NOT_DEALT_TAKEN if self._hidden_takes[p] else MSG_NOT_DEALT),
                    card=CARDS[c],
                    player=self._names[p],
                    drawn=self._facedown_draws[p],
                    taken=self._hidden_takes[p],
                )
            )

    def _trick_of_play(self, c: int) -> int:
        return self._play_trick[c]

    def _place(self, p: int, c: int) -> None:
        bit = 1 << c
        self._played |= bit
        self._play_seq[c] = self._seq
        self._play_trick[c] = self._trick
        self._play_by[c] = p
        self._played_by[p] |= bit
        self._hand_count[p] -= 1
        self._known[p] &= ~bit
        if not self._knows_hands:
            return
        hands = self._hands
        if hands is not None:
            hands[p] &= ~bit
        dealt_p = self._dealt[p]
        if dealt_p is not None and not dealt_p & bit and c != self._turn_up:
            self._outside_plays[p] += 1
        dealt_o = self._dealt[1 - p]
        if dealt_o is not None and (dealt_o & ~self._swapped_out[1 - p]) & bit:
            # the card the other put face up by a false exchange, taken since (checked above)
            self._borrowed[p] |= bit
            self._swapped_out[1 - p] |= bit

    def _unplace(self, p: int, c: int) -> None:
        self._played &= ~(1 << c)
        self._play_seq[c] = -1
        self._play_by[c] = -1
        self._played_by[p] &= ~(1 << c)
        self._hand_count[p] += 1
        self._known[p] |= 1 << c
        if self._hands is not None:
            self._hands[p] |= 1 << c
        dealt_p = self._dealt[p]
        if dealt_p is not None and not dealt_p >> c & 1 and c != self._turn_up:
            self._outside_plays[p] -= 1
        if self._borrowed[p] >> c & 1:
            self._borrowed[p] &= ~(1 << c)
            self._swapped_out[1 - p] &= ~(1 << c)

    def _finish_trick(self, f: int, c: int) -> None:
        lead = self._lead
        phase2 = self._closed or self._exhausted
        if phase2:
            self._follows.append((self._seq, self._trick, f, lead, c, self._played))
        winner = f if FOLLOWER_WINS[self._trump][lead][c] else 1 - f
        self._card_points[winner] += CARD_POINTS[c] + CARD_POINTS[lead]
        self._tricks[winner] += 1
        self._leader_idx = winner
        self._last_trick_winner = winner
        self._lead = -1
        self._trick += 1
        if not phase2:
            self._pending_draw = True

    def _draw_if_pending(self) -> None:
        if self._pending_draw:
            self._draw()

    def _draw(self) -> tuple[int, int]:
        """Both players draw; returns the cards drawn (NOTHING where unseen)."""
        self._pending_draw = False
        self._drawn = True
        w = self._leader_idx
        loser = 1 - w
        self._seq += 1
        wcard = lcard = NOTHING
        order = self._stock_order
        if order is not None and self._hands is not None:
            wcard = order[len(order) - self._stock]
            self._hands[w] |= 1 << wcard
        self._stock -= 1
        self._facedown_draws[w] += 1
        self._hand_count[w] += 1
        if self._stock > 0:
            if order is not None and self._hands is not None:
                lcard = order[len(order) - self._stock]
                self._hands[loser] |= 1 << lcard
            self._stock -= 1
            self._facedown_draws[loser] += 1
        else:
            lcard = self._face_up
            if lcard != self._turn_up and self._face_up_by != loser:
                self._hidden_takes[loser] += 1
            self._last_draw_loser = loser
            self._last_draw_seq = self._seq
            if lcard >= 0:
                self._known[loser] |= 1 << lcard
                if self._hands is not None:
                    self._hands[loser] |= 1 << lcard
            self._face_up = NOTHING
            self._exhausted = True
        self._hand_count[loser] += 1
        return wcard, lcard

    def _exchange_problem(
        self, p: int, judge_now: bool = True
    ) -> tuple[Rule | None, str | Message]:
        """The rule exchanging now breaks for ``p`` (None: none); with ``judge_now`` False
        whether ``p`` held the exchange card is left to the whole record."""
        rules = self._rules
        why = exchange_refusal(
            self._exhausted,
            self._closed,
            self._lead >= 0,
            rules.exchange_when == "lead",
            rules.exchange_needs_trick,
            self._tricks[p],
        )
        name = self._names[p]
        if why:
            return _NO_EXCHANGE, (
                MSG_NO_TURN_UP
                if why == 1
                else MSG_CLOSED
                if why == 2
                else Message(MSG_EXCHANGE_BEFORE_FOLLOWING, player=name)
                if why == 3
                else Message(MSG_NO_TRICK_YET, player=name)
            )
        if judge_now and self._hands is not None and not self._hands[p] >> self._xcard & 1:
            return Rule.FALSE_EXCHANGE, Message(
                MSG_DOES_NOT_HOLD, player=name, card=CARDS[self._xcard]
            )
        return None, ""

    def _close_problem(self, p: int) -> tuple[Rule | None, str]:
        """The rule closing now breaks (None: none)."""
        why = close_refusal(
            self._exhausted, self._closed, self._pending_draw, self._rules.close_before_draw
        )
        if why:
            return _NO_CLOSE, (
                MSG_EXHAUSTED
                if why == 1
                else MSG_CLOSED_ALREADY
                if why == 2
                else MSG_CLOSE_AFTER_DRAWS
            )
        return None, ""

    def _violate(
        self,
        p: int,
        rule: Rule,
        message: str | Message,
        seq: int | None = None,
        trick: int | None = None,
    ) -> None:
        self._violations.append(
            Violation(
                trick if trick is not None else self._trick,
                self._names[p],
                rule,
                message if isinstance(message, Message) else Message(message),
                seq if seq is not None else self._seq,
            )
        )

    def _proven_now(self, p: int) -> int:
        if self._hands is not None:
            return self._hands[p]
        return self._known[p] & ~self._played

    def _partner_elsewhere(self, p: int, partner: int) -> bool:
        """Whether what is known now shows the marriage partner outside ``p``'s hand."""
        if self._played >> partner & 1:
            return True
        if (
            partner == self._turn_up
            and self._t_taken_by != p
            and not (self._t_taken_by < 0 and self._last_draw_loser == p)
        ):
            return True
        dealt_o = self._dealt[1 - p]
        return dealt_o is not None and bool(dealt_o >> partner & 1)


_DECK24: Final = tuple(range(24))
_DECK20: Final = tuple(c for c in range(24) if c % 6 != NINE)
# Enum members looked up once (an enum attribute costs a descriptor call on hot paths).
_NO_EXCHANGE: Final = Rule.EXCHANGE_NOT_ALLOWED
_NO_CLOSE: Final = Rule.CLOSE_NOT_ALLOWED

# The messages of the violations a deal sees as it is played, one template each, marked for
# the catalogue (each violation carries its template and values: ``Violation.wording``).
MSG_NO_TURN_UP: Final = N_("the stock is exhausted: there is no turn-up")
MSG_CLOSED: Final = N_("the stock is closed")
MSG_EXCHANGE_BEFORE_FOLLOWING: Final = N_(
    "%(player)s exchanged before following; only the leader may exchange, just before leading"
)
MSG_NO_TRICK_YET: Final = N_("%(player)s had not won a trick yet")
MSG_DOES_NOT_HOLD: Final = N_("%(player)s does not hold %(card)s")
MSG_EXHAUSTED: Final = N_("the stock is exhausted")
MSG_CLOSED_ALREADY: Final = N_("the stock is closed already")
MSG_CLOSE_AFTER_DRAWS: Final = N_("the stock is closed after the draws, not before them")
MSG_MARRIAGE_IN_PHASE_2: Final = N_(
    "%(player)s declared %(points)s in phase 2, where marriages are not allowed"
)
MSG_NOT_IN_HAND: Final = N_("%(card)s is not in %(player)s's hand")
#: Every template of a message of this module.
MESSAGES: Final = (
    MSG_NO_TURN_UP,
    MSG_CLOSED,
    MSG_EXCHANGE_BEFORE_FOLLOWING,
    MSG_NO_TRICK_YET,
    MSG_DOES_NOT_HOLD,
    MSG_EXHAUSTED,
    MSG_CLOSED_ALREADY,
    MSG_CLOSE_AFTER_DRAWS,
    MSG_MARRIAGE_IN_PHASE_2,
    MSG_NOT_IN_HAND,
)

# The messages of actions no real deal could contain (record errors), one template each,
# marked for the catalogue and worded in another language as the messages above are
# (tally.errors.Message).
MSG_SAME_PLAYERS: Final = N_('Forehand and Dealer are both "%(player)s"')
MSG_NO_CARD: Final = N_("%(text)s is not a card")
MSG_HAND_TWICE: Final = N_("the hand of %(player)s is given twice")
MSG_HAND_SIZE: Final = N_("Hands lists %(n)s cards for %(player)s; a hand has %(hand)s")
MSG_HAND_CARD_TWICE: Final = N_("Hands lists %(card)s twice for %(player)s")
MSG_HAND_TURN_UP: Final = N_("Hands gives %(player)s the turn-up %(card)s")
MSG_HANDS_SHARE: Final = N_("Hands gives %(cards)s to both players")
MSG_STOCK_NEEDS_HANDS: Final = N_("a known stock needs both hands")
MSG_STOCK_SIZE: Final = N_("the stock has %(n)s face-down cards")
MSG_DEALT_TWICE: Final = N_("%(card)s is dealt twice")
MSG_NOT_PLAYING: Final = N_(
    '"%(player)s" does not play in this deal (%(forehand)s and %(dealer)s do)'
)
MSG_NO_HISTORY: Final = N_("this deal keeps no history (it is a replay of a record)")
MSG_MARRIAGE_WORTH: Final = N_("a marriage in %(suit)s is worth %(value)s, not %(points)s")
MSG_TRUMP_MARRIAGE_WORTH: Final = N_(
    "a marriage in %(suit)s is worth %(value)s, not %(points)s (trumps)"
)
MSG_REMAINING_PLAYED: Final = N_(
    "Remaining lists %(card)s for %(player)s, but it was played in trick %(trick)s"
)
MSG_REMAINING_COUNT: Final = N_("Remaining lists %(n)s cards for %(player)s, who holds %(held)s")
MSG_REMAINING_BOTH: Final = N_("Remaining lists %(card)s for both players")
MSG_REMAINING_THEIRS: Final = N_(
    "Remaining lists %(card)s for %(player)s, but Hands gives it to %(other)s"
)
MSG_REMAINING_TURN_UP: Final = N_(
    "Remaining lists the turn-up %(card)s for %(player)s, but it lies on the table"
)
MSG_REMAINING_TURN_UP_TAKEN: Final = N_(
    "Remaining lists the turn-up %(card)s for %(player)s, but %(other)s took it"
)
MSG_LEGAL_NEEDS_HANDS: Final = N_("legal actions need the hands (a fully known deal)")
MSG_RANDOM_NEEDS_HANDS: Final = N_("random play needs a fully known deal")
MSG_OVER_CLAIMED: Final = N_("the deal is over: somebody claimed")
MSG_OVER_PLAYED: Final = N_("the deal is over: every trick is played")
MSG_ONE_MARRIAGE: Final = N_("one marriage per lead")
MSG_MARRIAGE_BEFORE_LEAD: Final = N_("only the leader may declare a marriage, before leading")
MSG_CLOSE_DURING_TRICK: Final = N_(
    "the stock is closed before leading or right after a trick, not during one"
)
MSG_NO_DRAW: Final = N_("no draw is due: both players draw right after a trick of phase 1")
MSG_CLAIMED_ALREADY: Final = N_("the deal is over: somebody claimed already")
MSG_CLAIM_AFTER_LEAD: Final = N_(
    "66 straight after a led card: a claim comes between tricks or right after a marriage"
)
MSG_MARRIAGE_RANK: Final = N_("a marriage is declared with a king or queen, not %(card)s")
MSG_PLAYED_ALREADY: Final = N_("%(card)s was already played in trick %(trick)s")
MSG_TURN_UP_ON_TABLE: Final = N_("%(card)s is the turn-up, lying on the table")
MSG_TURN_UP_IN_STOCK: Final = N_("%(card)s is the turn-up, lying in the closed stock")
MSG_TURN_UP_EXCHANGED: Final = N_("%(card)s is the turn-up %(player)s took by exchange")
MSG_TURN_UP_DRAWN: Final = N_("%(card)s is the turn-up %(player)s drew last")
MSG_IN_OTHER_HAND: Final = N_("%(card)s is in %(player)s's hand (Hands)")
MSG_NOT_DEALT: Final = N_(
    "%(card)s is not in %(player)s's dealt hand, and %(player)s has drawn "
    "only %(drawn)s face-down card(s), all played already"
)
MSG_NOT_DEALT_TAKEN: Final = N_(
    "%(card)s is not in %(player)s's dealt hand, and %(player)s has "
    "drawn only %(drawn)s face-down card(s) and taken %(taken)s "
    "face-up card(s) an exchange left there, all played already"
)
#: Every template of a record error of this module.
ERRORS: Final = (
    MSG_SAME_PLAYERS,
    MSG_NO_CARD,
    MSG_HAND_TWICE,
    MSG_HAND_SIZE,
    MSG_HAND_CARD_TWICE,
    MSG_HAND_TURN_UP,
    MSG_HANDS_SHARE,
    MSG_STOCK_NEEDS_HANDS,
    MSG_STOCK_SIZE,
    MSG_DEALT_TWICE,
    MSG_NOT_PLAYING,
    MSG_NO_HISTORY,
    MSG_MARRIAGE_WORTH,
    MSG_TRUMP_MARRIAGE_WORTH,
    MSG_REMAINING_PLAYED,
    MSG_REMAINING_COUNT,
    MSG_REMAINING_BOTH,
    MSG_REMAINING_THEIRS,
    MSG_REMAINING_TURN_UP,
    MSG_REMAINING_TURN_UP_TAKEN,
    MSG_LEGAL_NEEDS_HANDS,
    MSG_RANDOM_NEEDS_HANDS,
    MSG_OVER_CLAIMED,
    MSG_OVER_PLAYED,
    MSG_ONE_MARRIAGE,
    MSG_MARRIAGE_BEFORE_LEAD,
    MSG_CLOSE_DURING_TRICK,
    MSG_NO_DRAW,
    MSG_CLAIMED_ALREADY,
    MSG_CLAIM_AFTER_LEAD,
    MSG_MARRIAGE_RANK,
    MSG_PLAYED_ALREADY,
    MSG_TURN_UP_ON_TABLE,
    MSG_TURN_UP_IN_STOCK,
    MSG_TURN_UP_EXCHANGED,
    MSG_TURN_UP_DRAWN,
    MSG_IN_OTHER_HAND,
    MSG_NOT_DEALT,
    MSG_NOT_DEALT_TAKEN,
)


def _shuffled(cards: tuple[int, ...], rng: Random) -> list[int]:
    """A uniformly shuffled copy of ``cards`` (Fisher-Yates on one 160-bit random number;
    the bias against 24! orders is below 2**-80).

    The swap at position ``i`` (from the last down) takes the next digit ``j`` of the number
    written in the mixed radix ``len(cards)``, ..., 3, 2. The digits are read a few at a
    time (:data:`_DIGIT_RUNS`): the number is divided once by a run's radices together, and
    the remainder, below 2**30, gives the run's digits in small-number arithmetic; the same
    digits as dividing the number by each radix in turn (``tests/engine/test_play.py``)."""
    deck = list(cards)
    x = rng.getrandbits(160)
    for together, positions in _DIGIT_RUNS[len(deck)]:
        x, digits = divmod(x, together)
        for i, radix in positions:
            j = digits % radix
            digits //= radix
            deck[i], deck[j] = deck[j], deck[i]
    return deck


def _digit_runs(n: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """The runs of swap positions of a deck of ``n`` cards, from the last down, each with its
    radix, whose radices multiply to less than 2**30, with that product."""
    runs = []
    i = n - 1
    while i > 0:
        together, positions = 1, []
        while i > 0 and together * (i + 1) < 2**30:
            together *= i + 1
            positions.append((i, i + 1))
            i -= 1
        runs.append((together, tuple(positions)))
    return tuple(runs)


#: :func:`_shuffled`'s runs of digits, for the 20- and the 24-card deck.
_DIGIT_RUNS: Final = {20: _digit_runs(20), 24: _digit_runs(24)}


def _card_or_none(c: int) -> Card | None:
    return CARDS[c] if c >= 0 else None


def _can(fn: Callable[..., None], *args: object) -> bool:
    try:
        fn(*args)
    except (RecordError, IllegalAction):
        return False
    return True
