"""A deal of Sixty-Six or Schnapsen, played one action at a time.

:class:`Deal` is the one state of a deal. It knows what a scorer sees (the cards as they are
played) and, when given, the hands as dealt and the order of the stock; it never guesses.
Each action has three faces, in the manner of pokerkit: ``verify_play(card)`` raises with the
reason when the action may not be taken now, ``can_play(card)`` answers yes or no, and
``play(card)`` does it and returns a small frozen record of what happened::

    >>> from tally.rules import RuleSet
    >>> deal = Deal.start(RuleSet.preset(), dealer="Anna", forehand="Bert", trump=Card.parse("QH"))
    >>> deal.play(Card.parse("KS"))
    Play(player='Bert', card=Card.parse('KS'), trick=1)
    >>> deal.play(Card.parse("AS")).player, deal.leader
    ('Anna', 'Anna')

Applying an action that breaks a rule of play (a revoke, a false marriage) is not refused:
it happened at the table, so the deal notes the violation (:attr:`Deal.violations`) and goes
on; :func:`tally.ruling.rule` rules on the whole record, including violations that only a
later play proves. An action that no real deal could contain (a card played twice, the turn-up
played while it lies on the table) raises :class:`RecordError` and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Final

from tally.cards import CARDS, SUIT_MASKS, Card, Rank, Suit, cards_of
from tally.errors import IllegalAction, RecordError
from tally.notation import (
    CARD_ITEMS,
    CLOSE,
    SWAP,
    ClaimItem,
    DealRecord,
    Item,
    MarriageItem,
    TrickLine,
)
from tally.rules import RuleSet

if TYPE_CHECKING:
    from tally.ruling import Ruling

#: ``face_up`` when what lies face up is unknown (after a false exchange).
UNKNOWN: Final = -2
#: ``face_up`` when nothing lies face up any more (the stock is exhausted).
NOTHING: Final = -1

_POINTS: Final = (0, 2, 3, 4, 10, 11) * 4


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


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken by ``player`` at ``trick``, named as in RULES.md section 10."""

    trick: int
    player: str
    rule: str
    message: str
    seq: int = 0

    def as_json(self) -> dict[str, object]:
        """The violation as ``tally check --json`` prints it."""
        return {"trick": self.trick, "player": self.player, "rule": self.rule,
                "message": self.message}


Action = Play | Exchange | Marriage | Close | Claim | Draw


# --- option values as plain ints, for speed -------------------------------------------------


@dataclass(frozen=True, slots=True)
class MarriageEvent:
    """What the ruling needs to know about a declared marriage."""

    seq: int
    trick: int
    player: int
    card: int
    partner: int
    points: int
    allowed: bool


@dataclass(frozen=True, slots=True)
class SwapEvent:
    """What the ruling needs to know about an exchange."""

    seq: int
    trick: int
    player: int
    moved: bool
    allowed: bool
    taken: int  # the card taken: a card, or UNKNOWN


@dataclass(frozen=True, slots=True)
class FollowEvent:
    """A follower's card played in phase 2, to be checked against what the record proves."""

    seq: int
    trick: int
    player: int
    lead: int
    card: int
    played: int  # every card played up to and including this one


class Deal:
    """The state of one deal. Build it with :meth:`start`."""

    __slots__ = (
        "_claim",
        "_drawn",
        "_line_done",
        "_log",
        "_marriage_lead",
        "borrowed",
        "card_points",
        "carry",
        "close_opp_points",
        "close_opp_tricks",
        "close_seq",
        "close_trick",
        "closed",
        "closer",
        "dealt",
        "exhausted",
        "face_up",
        "face_up_by",
        "facedown_draws",
        "follows",
        "hand_count",
        "hands",
        "hidden_takes",
        "known",
        "last_draw_loser",
        "last_draw_seq",
        "last_trick_winner",
        "lead",
        "leader_idx",
        "marriages",
        "names",
        "outside_plays",
        "pending_draw",
        "play_by",
        "play_seq",
        "play_trick",
        "played",
        "played_by",
        "rules",
        "seq",
        "stock",
        "stock_order",
        "swapped_out",
        "swaps",
        "t_taken_by",
        "t_taken_seq",
        "trick",
        "tricks",
        "trump",
        "turn_up",
        "violations",
        "xcard",
    )

    rules: RuleSet
    names: tuple[str, str]

    def __init__(self, rules: RuleSet, names: tuple[str, str], turn_up: Card, carry: int = 0):
        self.rules = rules
        self.names = names  # index 0: forehand, 1: dealer
        self.turn_up = int(turn_up)
        self.trump = turn_up // 6
        self.xcard = self.trump * 6 + int(rules.exchange_card)
        self.carry = carry
        self.seq = 0
        self.trick = 1
        self.leader_idx = 0
        self.lead = -1
        self._marriage_lead = False
        self.pending_draw = False
        self.last_trick_winner = -1
        self.stock = rules.stock_size
        self.face_up = self.turn_up
        self.closed = False
        self.closer = -1
        self.close_seq = -1
        self.close_trick = 0
        self.close_opp_points = 0
        self.close_opp_tricks = 0
        self.exhausted = False
        self.played = 0
        self.play_seq = [-1] * 24
        self.play_trick = [0] * 24
        self.play_by = [-1] * 24
        self.played_by = [0, 0]
        self.tricks = [0, 0]
        self.card_points = [0, 0]
        self.hand_count = [rules.hand, rules.hand]
        self.dealt: list[int | None] = [None, None]
        self.swapped_out = [0, 0]
        self.t_taken_by = -1
        self.t_taken_seq = -1
        self.last_draw_loser = -1
        self.last_draw_seq = -1
        self.hands: list[int] | None = None
        self.stock_order: list[int] | None = None
        self.known = [0, 0]
        self.outside_plays = [0, 0]
        self.facedown_draws = [0, 0]
        # Face-up cards taken after an exchange moved the cards (by a later exchange or at the
        # last draw): the exchange card if that exchange was true, an unknown card if it was
        # false (RULES.md section 12). Each allows one more card from outside the dealt hand,
        # unless the taker had put it there (then it was theirs before).
        self.hidden_takes = [0, 0]
        #: who last put a card face up by an exchange (-1: the turn-up still lies there)
        self.face_up_by = -1
        # Cards of the other's dealt hand played after such a take: the card a false exchanger
        # put face up may have been dealt to them (one per take).
        self.borrowed = [0, 0]
        self.marriages: list[MarriageEvent] = []
        self.swaps: list[SwapEvent] = []
        self.follows: list[FollowEvent] = []
        self.violations: list[Violation] = []
        self._claim: tuple[int, int, bool, int] | None = None  # seq, player, correct, points
        # The trick lines of this deal as a scorer writes them (None: not kept, as in a replay
        # of a record that already has them).
        self._log: list[list[Item]] | None = None
        self._line_done = False
        self._drawn = False

    # --- building ------------------------------------------------------------------------

    @staticmethod
    def start(rules: RuleSet, dealer: str, forehand: str, trump: Card, *, carry: int = 0,
              hands: dict[str, list[Card]] | None = None,
              stock: list[Card] | None = None, keep_history: bool = True) -> Deal:
        """A new deal. ``trump`` is the turn-up card.

        ``hands`` gives the hands as dealt (one player or both). ``stock`` gives the face-down
        stock from the top; with both hands and the stock the deal is fully known, and
        :meth:`legal_actions` lists what the player to move may do. ``keep_history=False``
        skips keeping the trick lines for :meth:`record` (a replay of a record has them).
        """
        if dealer == forehand:
            raise RecordError(f'Forehand and Dealer are both "{dealer}"')
        if trump not in CARDS or (rules.deck == 20 and trump % 6 == Rank.NINE):
            raise RecordError(f"{trump} is not in a {_deck_name(rules)}")
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
        if self.dealt[p] is not None:
            raise RecordError(f"the hand of {name} is given twice")
        if len(cards) != self.rules.hand:
            raise RecordError(f"Hands lists {len(cards)} cards for {name}; a hand has "
                              f"{self.rules.hand}")
        mask = 0
        for c in cards:
            self._check_in_deck(c, "Hands")
            if mask >> c & 1:
                raise RecordError(f"Hands lists {c} twice for {name}")
            if c == self.turn_up:
                raise RecordError(f"Hands gives {name} the turn-up {c}")
            mask |= 1 << c
        other = self.dealt[1 - p]
        if other is not None and other & mask:
            both = ", ".join(str(c) for c in cards_of(other & mask))
            raise RecordError(f"Hands gives {both} to both players")
        self.dealt[p] = mask
        self.known[p] |= mask

    def _set_stock(self, stock: list[Card]) -> None:
        if self.dealt[0] is None or self.dealt[1] is None:
            raise RecordError("a known stock needs both hands")
        if len(stock) != self.rules.stock_size:
            raise RecordError(f"the stock has {self.rules.stock_size} face-down cards")
        everything = (self.dealt[0] | self.dealt[1] | 1 << self.turn_up)
        for c in stock:
            self._check_in_deck(c, "the stock")
            if everything >> c & 1:
                raise RecordError(f"{c} is dealt twice")
            everything |= 1 << c
        self.hands = [self.dealt[0], self.dealt[1]]
        self.stock_order = [int(c) for c in stock]

    @staticmethod
    def random(rules: RuleSet, rng: Random, names: tuple[str, str] = ("Anna", "Bert"),
               carry: int = 0, keep_history: bool = True) -> Deal:
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
        for c in deck[h:2 * h]:
            second |= 1 << c
        deal.dealt = [first, second]
        deal.known = [first, second]
        deal.hands = [first, second]
        deal.stock_order = deck[2 * h + 1:]
        return deal

    # --- what a player may ask ----------------------------------------------------------------

    def player_index(self, name: str) -> int:
        """0 for forehand, 1 for dealer; :class:`RecordError` for anybody else."""
        if name == self.names[0]:
            return 0
        if name == self.names[1]:
            return 1
        raise RecordError(f'"{name}" does not play in this deal '
                          f"({self.names[0]} and {self.names[1]} do)")

    @property
    def forehand(self) -> str:
        """The non-dealer, who leads the first trick."""
        return self.names[0]

    @property
    def dealer(self) -> str:
        """The dealer."""
        return self.names[1]

    @property
    def trumps(self) -> Suit:
        """The trump suit."""
        return Suit(self.trump)

    @property
    def leader(self) -> str:
        """Who leads the current trick (or led it)."""
        return self.names[self.leader_idx]

    @property
    def to_move(self) -> str | None:
        """Who is to act next, or None when the deal is over."""
        if self.is_over:
            return None
        if self.lead >= 0:
            return self.names[1 - self.leader_idx]
        return self.names[self.leader_idx]

    @property
    def phase(self) -> int:
        """1 while the stock is open, 2 once it is exhausted or closed."""
        return 2 if (self.closed or self.exhausted) else 1

    @property
    def is_over(self) -> bool:
        """True after a claim or after the last trick."""
        return self._claim is not None or self.all_tricks_played

    @property
    def all_tricks_played(self) -> bool:
        """True when every trick of the deal has been played."""
        return self.hand_count[0] == 0 and self.hand_count[1] == 0 and self.lead < 0

    @property
    def claimed(self) -> bool:
        """True when somebody has claimed."""
        return self._claim is not None

    @property
    def stock_left(self) -> int:
        """Face-down cards left in the stock."""
        return self.stock

    def counted_points(self, name: str) -> int:
        """Counted points of ``name`` now: card points, marriages once a trick is won, bonus."""
        return self._counted(self.player_index(name), with_bonus=True)

    def tricks_won(self, name: str) -> int:
        """Tricks ``name`` has won."""
        return self.tricks[self.player_index(name)]

    def hand(self, name: str) -> list[Card] | None:
        """The hand of ``name`` when it is known (a fully known deal), else None."""
        if self.hands is None:
            return None
        return cards_of(self.hands[self.player_index(name)])

    def _counted(self, p: int, with_bonus: bool, only_valid: bool = False) -> int:
        total = self.card_points[p]
        if self.tricks[p]:
            for m in self.marriages:
                if m.player == p and (m.allowed or not only_valid):
                    total += m.points
            if (with_bonus and not self.closed and self.all_tricks_played
                    and self.last_trick_winner == p):
                total += self.rules.last_trick_bonus
        return total

    # --- verify / can / do ----------------------------------------------------------------

    def verify_play(self, card: Card) -> None:
        """Raise :class:`RecordError` or :class:`IllegalAction` if ``card`` may not be played."""
        p = self._mover()
        self._check_playable(p, int(card))
        if self.lead >= 0 and self.phase == 2:
            rule, msg = self._follow_problem(p, self.lead, int(card), self._proven_now(p))
            if rule:
                raise IllegalAction(rule, msg)

    def can_play(self, card: Card) -> bool:
        """Whether ``card`` may be played now."""
        return _can(self.verify_play, card)

    def play(self, card: Card) -> Play:
        """Play ``card`` for the player to move; a revoke is noted, not refused."""
        trick = self.trick
        p = self._play(int(card))
        return Play(self.names[p], CARDS[card], trick)

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
            raise RecordError("this deal keeps no history (it is a replay of a record)")
        t: dict[str, str] = {}
        if self.rules.spec != "sixty-six":
            t["Rules"] = self.rules.spec
        t["Dealer"] = self.names[1]
        t["Forehand"] = self.names[0]
        t["Trump"] = str(CARDS[self.turn_up])
        if self.carry:
            t["Carry"] = str(self.carry)
        if hands and self.dealt[0] is not None and self.dealt[1] is not None:
            t["Hands"] = "; ".join(
                f"{self.names[p]}: " + " ".join(str(c) for c in cards_of(self.dealt[p] or 0))
                for p in (0, 1))
        t.update(tags)
        lines = [TrickLine(n, tuple(items)) for n, items in enumerate(self._log, start=1)]
        return DealRecord(t, lines)

    def ruling(self) -> Ruling:
        """The ruling on the deal as it stands (see :func:`tally.ruling.rule_deal`)."""
        from tally.ruling import rule_deal

        return rule_deal(self)

    def _play(self, c: int) -> int:
        """Play card ``c`` for the player to move; returns who played it."""
        if self.pending_draw:
            self._draw()
        if self._claim is not None or (self.lead < 0 and self.hand_count[0] == 0
                                       and self.hand_count[1] == 0):
            self._mover()  # raises the reason
        p = self.leader_idx if self.lead < 0 else 1 - self.leader_idx
        self._check_playable(p, c)
        self.seq += 1
        self._place(p, c)
        if self._log is not None:
            self._log_item(CARD_ITEMS[c], self.lead < 0)
        if self.lead < 0:
            self.lead = c
        else:
            self._marriage_lead = False
            self._finish_trick(p, c)
            if self._log is not None:
                self._line_done = True
                self._drawn = False
        return p

    def verify_exchange(self) -> None:
        """Raise if the player to move may not exchange the turn-up now."""
        p = self._mover()
        rule, msg = self._exchange_problem(p)
        if rule:
            raise IllegalAction(rule, msg)
        if self.hands is not None and not self.hands[p] >> self.xcard & 1:
            raise IllegalAction("false-exchange",
                                f"{self.names[p]} does not hold {CARDS[self.xcard]}")

    def can_exchange(self) -> bool:
        """Whether the player to move may exchange now."""
        return _can(self.verify_exchange)

    def exchange(self) -> Exchange:
        """Swap the exchange card for the turn-up (for the player about to play a card)."""
        self._draw_if_pending()
        p = self._mover()
        self._marriage_lead = False
        self.seq += 1
        rule, msg = self._exchange_problem(p)
        allowed = not rule
        if rule:
            self._violate(p, rule, msg)
        moved = not self.exhausted
        taken = self.face_up if moved else NOTHING
        if moved:
            if self.face_up == self.turn_up:
                self.t_taken_by = p
                self.t_taken_seq = self.seq
            elif self.face_up_by != p:
                self.hidden_takes[p] += 1
            self.face_up_by = p
            if self.dealt[p] is not None:
                self.swapped_out[p] |= 1 << self.xcard
            if taken >= 0:
                self.known[p] |= 1 << taken
            self.known[p] &= ~(1 << self.xcard)
            if self.hands is not None:
                holds = self.hands[p] >> self.xcard & 1
                if taken >= 0:
                    self.hands[p] |= 1 << taken
                if holds:
                    self.hands[p] &= ~(1 << self.xcard)
                    self.face_up = self.xcard
                else:
                    self.face_up = UNKNOWN
            else:
                self.face_up = self.xcard
        self.swaps.append(SwapEvent(self.seq, self.trick, p, moved, allowed, taken))
        if self._log is not None:
            self._log_item(SWAP, self.lead < 0)
        return Exchange(self.names[p], CARDS[self.xcard],
                        CARDS[taken] if taken >= 0 else None, self.trick)

    def verify_declare(self, card: Card) -> None:
        """Raise if the leader may not declare the marriage of ``card`` (a K or Q) now."""
        p = self._leader_before_lead("declare a marriage")
        c = int(card)
        self._check_marriage_card(c)
        self._check_playable(p, c)
        if self.phase == 2 and not self.rules.marriage_in_phase2:
            raise IllegalAction("marriage-not-allowed", "marriages are not declared in phase 2")
        partner = _partner(c)
        if self.hands is not None:
            if not self.hands[p] >> partner & 1:
                raise IllegalAction("false-marriage",
                                    f"{self.names[p]} does not hold {CARDS[partner]}")
        elif self._partner_elsewhere(p, partner):
            raise IllegalAction("false-marriage",
                                f"{CARDS[partner]} is not in {self.names[p]}'s hand")

    def can_declare(self, card: Card) -> bool:
        """Whether the leader may declare the marriage of ``card``."""
        return _can(self.verify_declare, card)

    def declare(self, card: Card, points: int | None = None) -> Marriage:
        """Declare the marriage of ``card``'s suit and show ``card``; it is led next.

        The card is led by the next action unless that action is a claim, which ends the deal
        with the card still in hand. ``points`` (20 or 40), when given, is checked.
        """
        self._draw_if_pending()
        p = self._leader_before_lead("declare a marriage")
        c = int(card)
        self._check_marriage_card(c)
        value = 40 if c // 6 == self.trump else 20
        if points is not None and points != value:
            suit = Suit(c // 6).title
            raise RecordError(f"a marriage in {suit} is worth {value}, not {points}"
                              + (" (trumps)" if value == 40 else ""))
        self._check_playable(p, c)
        self.seq += 1
        allowed = True
        if self.phase == 2 and not self.rules.marriage_in_phase2:
            allowed = False
            self._violate(p, "marriage-not-allowed",
                          f"{self.names[p]} declared {value} in phase 2, where marriages "
                          "are not allowed")
        partner = _partner(c)
        self.marriages.append(MarriageEvent(self.seq, self.trick, p, c, partner, value, allowed))
        self.known[p] |= 1 << partner
        self._place(p, c)
        self.lead = c
        self._marriage_lead = True
        if self._log is not None:
            self._log_item(MarriageItem(value, CARDS[c]), True)
        return Marriage(self.names[p], Suit(c // 6), value, CARDS[c], self.trick)

    def verify_close(self) -> None:
        """Raise if the stock may not be closed now."""
        p = self._closer()
        rule, msg = self._close_problem(p)
        if rule:
            raise IllegalAction(rule, msg)

    def can_close(self) -> bool:
        """Whether the player on lead may close the stock now."""
        return _can(self.verify_close)

    def close(self, after_trick: bool | None = None) -> Close:
        """Close the stock: right after a trick (before the draws) or before leading.

        ``after_trick`` says the close was written right after the last trick's cards (it then
        belongs to that trick); by default that is so while the draws are still to be made.
        """
        p = self._closer()
        before_draws = self.pending_draw
        if after_trick is None:
            after_trick = before_draws
        after_trick = after_trick and self.trick > 1
        self.seq += 1
        rule, msg = self._close_problem(p)
        if rule:
            self._violate(p, rule, msg, trick=self.trick - 1 if after_trick else self.trick)
        if not (self.closed or self.exhausted):
            self.closed = True
            self.closer = p
            self.close_seq = self.seq
            self.close_trick = self.trick - 1 if after_trick else self.trick
            self.close_opp_points = self._counted(1 - p, with_bonus=False)
            self.close_opp_tricks = self.tricks[1 - p]
        self.pending_draw = False
        if self._log is not None:
            self._log_item(CLOSE, not after_trick)
        return Close(self.names[p], before_draws, self.trick - 1 if after_trick else self.trick)

    def verify_claim(self, name: str | None = None) -> None:
        """Raise :class:`RecordError` if nobody may claim now (a claim may be false, though)."""
        self._claimer(name)

    def claim(self, name: str | None = None) -> Claim:
        """``name`` (by default the player on lead) claims 66; the deal ends."""
        p = self._claimer(name)
        self.seq += 1
        trick = self.trick - 1 if self.lead < 0 else self.trick
        marriage_claim = self._marriage_lead
        if self._marriage_lead:
            self._unplace(self.leader_idx, self.lead)
            self.lead = -1
            self._marriage_lead = False
        counted = self._counted(p, with_bonus=True)
        on_lead = p == self.leader_idx
        correct = counted >= 66 and (self.rules.claim_when == "any" or on_lead)
        self._claim = (self.seq, p, correct, counted)
        if self._log is not None:
            at_start = self.lead < 0 and (self._drawn or not self._line_done)
            if marriage_claim:
                at_start = False
            default = self.leader_idx
            item = ClaimItem(None if p == default else self.names[p])
            self._log_item(item, at_start)
        return Claim(self.names[p], correct, counted, max(trick, 1))

    def draw(self) -> Draw | None:
        """Both players draw after a trick (done by itself when the next trick starts)."""
        if not self.pending_draw:
            return None
        w = self.leader_idx
        wcard, lcard = self._draw()
        return Draw(self.names[w], _card_or_none(wcard), self.names[1 - w],
                    _card_or_none(lcard), self.trick - 1)

    # --- legal actions of a fully known deal -------------------------------------------------

    def legal_actions(self) -> list[Action | Card]:
        """What the player to move may do: cards to play and other actions.

        Cards are returned as :class:`Card`; a marriage as :class:`Marriage`, the exchange as
        :class:`Exchange`, and so on (records of the action that would be taken). Needs a fully
        known deal (:meth:`random` or ``start`` with both hands and the stock).
        """
        if self.hands is None:
            raise RecordError("legal actions need the hands (a fully known deal)")
        if self.is_over:
            return []
        out: list[Action | Card] = []
        trick = self.trick
        if self.pending_draw:
            w = self.leader_idx
            name = self.names[w]
            if self._counted(w, True) >= 66:
                out.append(Claim(name, True, self._counted(w, True), trick - 1))
            if self.rules.close_before_draw:
                out.append(Close(name, True, trick - 1))
            out.append(Draw(name, None, self.names[1 - w], None, trick - 1))
            return out
        p = self._mover()
        hand = self.hands[p]
        name = self.names[p]
        if self.lead < 0:
            counted = self._counted(p, True)
            if counted >= 66:
                out.append(Claim(name, True, counted, trick))
            if not self._close_problem(p)[0]:
                out.append(Close(name, False, trick))
            if not self._exchange_problem(p)[0] and hand >> self.xcard & 1:
                out.append(Exchange(name, CARDS[self.xcard], _card_or_none(self.face_up), trick))
            if self.phase == 1 or self.rules.marriage_in_phase2:
                for s in range(4):
                    k, q = s * 6 + 3, s * 6 + 2
                    if hand >> k & 1 and hand >> q & 1:
                        pts = 40 if s == self.trump else 20
                        out.append(Marriage(name, Suit(s), pts, CARDS[k], trick))
                        out.append(Marriage(name, Suit(s), pts, CARDS[q], trick))
            out.extend(CARDS[c] for c in cards_of(hand))
            return out
        if self._marriage_lead:
            declarer = self.leader_idx
            counted = self._counted(declarer, True)
            if counted >= 66:
                out.append(Claim(self.names[declarer], True, counted, trick))
        if (self.rules.exchange_when == "lead-or-follow" and not self._exchange_problem(p)[0]
                and hand >> self.xcard & 1):
            out.append(Exchange(name, CARDS[self.xcard], _card_or_none(self.face_up), trick))
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
        hands = self.hands
        if hands is None:
            raise RecordError("random play needs a fully known deal")
        rand = rng.random
        rules = self.rules
        while self._claim is None:
            if self.pending_draw:
                w = self.leader_idx
                if self.card_points[w] >= 46 and self._counted(w, True) >= 66 and rand() < 0.9:
                    self.claim()
                    return
                if rules.close_before_draw and rand() < 0.04:
                    self.close()
                else:
                    self._draw()
                continue
            p = self.leader_idx
            hand = hands[p]
            if self.lead < 0:
                if not hand:
                    return  # every trick played
                if self.tricks[p] and self._counted(p, True) >= 66 and rand() < 0.9:
                    self.claim()
                    return
                open_stock = not (self.closed or self.exhausted)
                if open_stock and rand() < 0.04:
                    self.close()
                    open_stock = False
                if (open_stock and hand >> self.xcard & 1 and rand() < 0.5
                        and not self._exchange_problem(p)[0]):
                    self.exchange()
                    hand = hands[p]
                if open_stock or rules.marriage_in_phase2:
                    kings = hand & (hand << 1) & _KINGS
                    if kings and rand() < 0.5:
                        k = _random_bit(kings, rand)
                        self.declare(CARDS[k if rand() < 0.5 else k - 1])
                        hand = hands[p]
                        continue
                self._play(_random_bit(hand, rand))
            else:
                f = 1 - p
                if (rules.exchange_when == "lead-or-follow" and hands[f] >> self.xcard & 1
                        and rand() < 0.5 and not self._exchange_problem(f)[0]):
                    self.exchange()
                self._play(_random_bit(self._legal_follows(hands[f]), rand))

    def _legal_follows(self, hand: int) -> int:
        if self.phase == 1:
            return hand
        lead = self.lead
        suit_cards = hand & SUIT_MASKS[lead // 6]
        if suit_cards:
            higher = suit_cards & ~((2 << lead) - 1)
            return higher or suit_cards
        trumps = hand & SUIT_MASKS[self.trump]
        return trumps or hand

    # --- internals ----------------------------------------------------------------------

    def _mover(self) -> int:
        if self._claim is not None:
            raise RecordError("the deal is over: somebody claimed")
        if self.all_tricks_played:
            raise RecordError("the deal is over: every trick is played")
        if self.pending_draw:
            return self.leader_idx
        return self.leader_idx if self.lead < 0 else 1 - self.leader_idx

    def _leader_before_lead(self, what: str) -> int:
        p = self._mover()
        if self._marriage_lead:
            raise RecordError("one marriage per lead")
        if self.lead >= 0:
            raise RecordError(f"only the leader may {what}, before leading")
        return p

    def _closer(self) -> int:
        p = self._mover()
        if self.lead >= 0:
            raise RecordError("the stock is closed before leading or right after a trick, "
                              "not during one")
        return p

    def _claimer(self, name: str | None) -> int:
        if self._claim is not None:
            raise RecordError("the deal is over: somebody claimed already")
        if self.lead >= 0 and not self._marriage_lead:
            raise RecordError("66 straight after a led card: a claim comes between tricks "
                              "or right after a marriage")
        if name is None:
            return self.leader_idx
        return self.player_index(name)

    def _check_in_deck(self, c: int, where: str) -> None:
        if self.rules.deck == 20 and c % 6 == Rank.NINE:
            raise RecordError(f"{CARDS[c]} is not in a {_deck_name(self.rules)} ({where})")

    def _check_marriage_card(self, c: int) -> None:
        if c % 6 not in (Rank.KING, Rank.QUEEN):
            raise RecordError(f"a marriage is declared with a king or queen, not {CARDS[c]}")

    def _check_playable(self, p: int, c: int) -> None:
        """Record errors of playing ``c``: things no real deal can contain."""
        hands = self.hands
        if hands is not None and hands[p] >> c & 1:
            return  # a fully known hand holding the card: nothing can be wrong
        if self.played >> c & 1:
            raise RecordError(f"{CARDS[c]} was already played in trick "
                              f"{self._trick_of_play(c)}")
        if (hands is None and c != self.turn_up and self.dealt[0] is None
                and self.dealt[1] is None and (c % 6 or self.rules.deck == 24)):
            return  # nothing known that the card could contradict
        if self.rules.deck == 20 and c % 6 == 0:
            raise RecordError(f"{CARDS[c]} is not in a {_deck_name(self.rules)}")
        if c == self.turn_up and self.t_taken_by < 0 and self.last_draw_loser < 0:
            where = "in the closed stock" if self.closed else "on the table"
            raise RecordError(f"{CARDS[c]} is the turn-up, lying {where}")
        o = 1 - p
        if c == self.turn_up and self.t_taken_by == o:
            raise RecordError(f"{CARDS[c]} is the turn-up {self.names[o]} took by exchange")
        if c == self.turn_up and self.t_taken_by < 0 and self.last_draw_loser == o:
            raise RecordError(f"{CARDS[c]} is the turn-up {self.names[o]} drew last")
        dealt_o = self.dealt[o]
        if (dealt_o is not None and (dealt_o & ~self.swapped_out[o]) >> c & 1
                and self.borrowed[p].bit_count() >= self.hidden_takes[p]):
            raise RecordError(f"{CARDS[c]} is in {self.names[o]}'s hand (Hands)")
        if self.hands is not None and not self.hands[p] >> c & 1:
            raise RecordError(f"{self.names[p]} does not hold {CARDS[c]}")
        dealt_p = self.dealt[p]
        if (dealt_p is not None and not dealt_p >> c & 1 and c != self.turn_up
                and self.outside_plays[p] >= self.facedown_draws[p] + self.hidden_takes[p]):
            taken = ""
            if self.hidden_takes[p]:
                taken = (f" and taken {self.hidden_takes[p]} face-up card(s) an exchange "
                         "left there")
            raise RecordError(f"{CARDS[c]} is not in {self.names[p]}'s dealt hand, and "
                              f"{self.names[p]} has drawn only {self.facedown_draws[p]} "
                              f"face-down card(s){taken}, all played already")

    def _trick_of_play(self, c: int) -> int:
        return self.play_trick[c]

    def _place(self, p: int, c: int) -> None:
        bit = 1 << c
        self.played |= bit
        self.play_seq[c] = self.seq
        self.play_trick[c] = self.trick
        self.play_by[c] = p
        self.played_by[p] |= bit
        self.hand_count[p] -= 1
        self.known[p] &= ~bit
        hands = self.hands
        if hands is not None:
            hands[p] &= ~bit
        dealt_p = self.dealt[p]
        if dealt_p is not None and not dealt_p & bit and c != self.turn_up:
            self.outside_plays[p] += 1
        dealt_o = self.dealt[1 - p]
        if dealt_o is not None and (dealt_o & ~self.swapped_out[1 - p]) & bit:
            # the card the other put face up by a false exchange, taken since (checked above)
            self.borrowed[p] |= bit
            self.swapped_out[1 - p] |= bit

    def _unplace(self, p: int, c: int) -> None:
        self.played &= ~(1 << c)
        self.play_seq[c] = -1
        self.play_by[c] = -1
        self.played_by[p] &= ~(1 << c)
        self.hand_count[p] += 1
        self.known[p] |= 1 << c
        if self.hands is not None:
            self.hands[p] |= 1 << c
        dealt_p = self.dealt[p]
        if dealt_p is not None and not dealt_p >> c & 1 and c != self.turn_up:
            self.outside_plays[p] -= 1
        if self.borrowed[p] >> c & 1:
            self.borrowed[p] &= ~(1 << c)
            self.swapped_out[1 - p] &= ~(1 << c)

    def _finish_trick(self, f: int, c: int) -> None:
        lead = self.lead
        if self.closed or self.exhausted:
            self.follows.append(FollowEvent(self.seq, self.trick, f, lead, c, self.played))
        if c // 6 == lead // 6:
            winner = f if c > lead else 1 - f
        else:
            winner = f if c // 6 == self.trump else 1 - f
        self.card_points[winner] += _POINTS[c] + _POINTS[lead]
        self.tricks[winner] += 1
        self.leader_idx = winner
        self.last_trick_winner = winner
        self.lead = -1
        self.trick += 1
        if not (self.closed or self.exhausted):
            self.pending_draw = True

    def _draw_if_pending(self) -> None:
        if self.pending_draw:
            self._draw()

    def _draw(self) -> tuple[int, int]:
        """Both players draw; returns the cards drawn (NOTHING where unseen)."""
        self.pending_draw = False
        self._drawn = True
        w = self.leader_idx
        loser = 1 - w
        self.seq += 1
        wcard = lcard = NOTHING
        order = self.stock_order
        if order is not None and self.hands is not None:
            wcard = order[self.rules.stock_size - self.stock]
            self.hands[w] |= 1 << wcard
        self.stock -= 1
        self.facedown_draws[w] += 1
        self.hand_count[w] += 1
        if self.stock > 0:
            if order is not None and self.hands is not None:
                lcard = order[self.rules.stock_size - self.stock]
                self.hands[loser] |= 1 << lcard
            self.stock -= 1
            self.facedown_draws[loser] += 1
        else:
            lcard = self.face_up
            if lcard != self.turn_up and self.face_up_by != loser:
                self.hidden_takes[loser] += 1
            self.last_draw_loser = loser
            self.last_draw_seq = self.seq
            if lcard >= 0:
                self.known[loser] |= 1 << lcard
                if self.hands is not None:
                    self.hands[loser] |= 1 << lcard
            self.face_up = NOTHING
            self.exhausted = True
        self.hand_count[loser] += 1
        return wcard, lcard

    def _exchange_problem(self, p: int) -> tuple[str, str]:
        name = self.names[p]
        if self.exhausted:
            return "exchange-not-allowed", "the stock is exhausted: there is no turn-up"
        if self.closed:
            return "exchange-not-allowed", "the stock is closed"
        if self.lead >= 0 and self.rules.exchange_when == "lead":
            return "exchange-not-allowed", f"{name} exchanged before following; only the " \
                "leader may exchange, just before leading"
        if self.rules.exchange_needs_trick and self.tricks[p] == 0:
            return "exchange-not-allowed", f"{name} had not won a trick yet"
        return "", ""

    def _close_problem(self, p: int) -> tuple[str, str]:
        if self.exhausted:
            return "close-not-allowed", "the stock is exhausted"
        if self.closed:
            return "close-not-allowed", "the stock is closed already"
        if self.pending_draw and not self.rules.close_before_draw:
            return "close-not-allowed", "the stock is closed after the draws, not before them"
        return "", ""

    def _violate(self, p: int, rule: str, message: str, seq: int | None = None,
                 trick: int | None = None) -> None:
        self.violations.append(Violation(trick if trick is not None else self.trick,
                                         self.names[p], rule, message,
                                         seq if seq is not None else self.seq))

    def _proven_now(self, p: int) -> int:
        if self.hands is not None:
            return self.hands[p]
        return self.known[p] & ~self.played

    def _follow_problem(self, p: int, lead: int, c: int, proven: int) -> tuple[str, str]:
        """The phase-2 duty ``c`` breaks when ``proven`` is what the follower is known to hold."""
        proven &= ~(1 << c)
        suit = lead // 6
        name = self.names[p]
        if c // 6 != suit:
            same = proven & SUIT_MASKS[suit]
            if same:
                return "follow-suit", (f"{name} played {CARDS[c]} to {CARDS[lead]} while "
                                       f"holding {_list(same)}")
            if c // 6 != self.trump:
                trumps = proven & SUIT_MASKS[self.trump]
                if trumps:
                    return "must-trump", (f"{name} played {CARDS[c]} to {CARDS[lead]}, "
                                          f"neither following nor trumping, while holding "
                                          f"{_list(trumps)}")
            return "", ""
        if c < lead:
            higher = proven & SUIT_MASKS[suit] & ~((2 << lead) - 1)
            if higher:
                return "must-head", (f"{name} played {CARDS[c]} under {CARDS[lead]} while "
                                     f"holding {_list(higher)}, which beats it")
        return "", ""

    def _partner_elsewhere(self, p: int, partner: int) -> bool:
        """Whether what is known now shows the marriage partner outside ``p``'s hand."""
        if self.played >> partner & 1:
            return True
        if partner == self.turn_up and self.t_taken_by != p and not (
                self.t_taken_by < 0 and self.last_draw_loser == p):
            return True
        dealt_o = self.dealt[1 - p]
        return dealt_o is not None and bool(dealt_o >> partner & 1)


_DECK24: Final = tuple(range(24))
_DECK20: Final = tuple(c for c in range(24) if c % 6 != Rank.NINE)
_KINGS: Final = sum(1 << (s * 6 + Rank.KING) for s in range(4))


def _shuffled(cards: tuple[int, ...], rng: Random) -> list[int]:
    """A uniformly shuffled copy of ``cards`` (Fisher-Yates on one 160-bit random number;
    the bias against 24! orders is below 2**-80)."""
    deck = list(cards)
    x = rng.getrandbits(160)
    for i in range(len(deck) - 1, 0, -1):
        x, j = divmod(x, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _random_bit(mask: int, rand: object) -> int:
    """A random card of a non-empty mask."""
    k = int(rand() * mask.bit_count())  # type: ignore[operator]
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _partner(c: int) -> int:
    return c - 1 if c % 6 == Rank.KING else c + 1


def _card_or_none(c: int) -> Card | None:
    return CARDS[c] if c >= 0 else None


def _list(mask: int) -> str:
    return " ".join(str(c) for c in cards_of(mask))


def _deck_name(rules: RuleSet) -> str:
    if rules.deck == 20:
        return "Schnapsen deck (20 cards, no nines)"
    return "24-card deck"


def _can(fn: object, *args: object) -> bool:
    try:
        fn(*args)  # type: ignore[operator]
    except (RecordError, IllegalAction):
        return False
    return True
