"""The exact solver: best play from a position where both hands are known and nothing more is
drawn (after a close, or once the stock is exhausted).

It plays both sides perfectly under a deal's rule set (the phase-2 duties of RULES.md section 4,
marriages in phase 2 where the preset allows them, claims at the earliest correct moment, the
last-trick bonus, schneider and schwarz, the failed close and its 2-or-3 rule,
``close_scored_at``) and maximises **game points**, not card points: the value of a position is
the game points player 0 wins (positive) or player 1 wins (negative), without any carry.

Every rule of play comes from :mod:`tally.engine.kernel` (trick winner, follow duty, card points,
game points); this module only searches. The search is alpha-beta over whole tricks with bitmask
hands and a transposition table of bounds, since values are small integers (-3 to 3).

Two choices that lose nothing (so the search skips the alternatives):

- a player who may claim correctly claims at once: the opponent's points and tricks only grow,
  so a later claim never scores more;
- a player leading the king or queen of a marriage they hold declares it where the rules allow:
  more counted points never hurt the declarer.

A position whose bounds (:meth:`Search.bounds`: what each side could still win at most, by
the counts now) lie outside the window searched is not searched.

    >>> from tally.engine.rules import RuleSet
    >>> KH, QH, AH, AS = 15, 14, 17, 23
    >>> pos = Position(hands=(1 << AH | 1 << AS, 1 << KH | 1 << QH), leader=0, trump=2,
    ...                points=(60, 40), tricks=(3, 2))
    >>> sol = solve(pos, RuleSet.preset("sixty-six"))
    >>> sol.value, [str(s) for s in sol.line]
    (1, ['0 AH', '1 QH', 'claim 0'])
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from tally.analysis.stack import own_stack
from tally.engine.kernel import (
    CARD_POINTS,
    CLAIM_AT,
    FOLLOWER_WINS,
    KING,
    QUEEN,
    RANK_POINTS,
    game_points,
    legal_follows,
    marriage_value,
)
from tally.engine.rules import RuleSet

INF: Final = 4  # above any value: a deal is worth at most 3 game points
#: Card points of each set of ranks of one suit (six bits, as a suit's part of a hand mask).
_SUIT_POINTS: Final = tuple(
    sum(RANK_POINTS[r] for r in range(6) if ranks >> r & 1) for ranks in range(64)
)
#: Bit mask of all queens (a marriage is a queen with the king just above it).
_QUEENS: Final = sum(1 << (6 * s + QUEEN) for s in range(4))


def _points(cards: int) -> int:
    """The card points of a mask of cards."""
    return (
        _SUIT_POINTS[cards & 63]
        + _SUIT_POINTS[cards >> 6 & 63]
        + _SUIT_POINTS[cards >> 12 & 63]
        + _SUIT_POINTS[cards >> 18]
    )


def narrowed(known: tuple[int, int] | None, best: int, alpha: int, beta: int) -> tuple[int, int]:
    """The bounds a transposition table keeps for a position once a search of window
    (``alpha``, ``beta``) returned ``best``, narrowing what was ``known`` of it: an upper bound
    when it failed low, a lower bound when it failed high, the exact value otherwise.

    >>> narrowed(None, 1, -4, 4), narrowed(None, -1, 0, 2), narrowed((-2, 3), 2, 0, 2)
    ((1, 1), (-4, -1), (2, 3))
    """
    lo, hi = known or (-INF, INF)
    if best <= alpha:
        return lo, min(hi, best)
    if best >= beta:
        return max(lo, best), hi
    return best, best


class End(StrEnum):
    """How a solved line ends (a subset of the engine's reasons, named alike)."""

    CLAIM = "claim"
    FAILED_CLOSE = "failed-close"
    LAST_TRICK = "last-trick"
    HIGHER_TOTAL = "higher-total"
    DRAW = "draw"


@dataclass(frozen=True)
class Position:
    """A phase-2 position: both hands known, nothing more to draw.

    Players are 0 and 1 (the caller decides who is who). ``points`` are the card points of the
    tricks each has won, ``marriages`` the marriage points each has declared (they count once
    the player has won a trick), ``tricks`` the tricks won. ``closer`` is the player who closed
    the stock (None once it is exhausted: the last-trick bonus applies), ``at_close`` each
    player's counted points and tricks when it was closed: ``((p0, p1), (t0, t1))``.
    ``lead`` is a card the leader has already led (the follower is to play).
    """

    hands: tuple[int, int]
    leader: int
    trump: int
    points: tuple[int, int] = (0, 0)
    marriages: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    closer: int | None = None
    at_close: tuple[tuple[int, int], tuple[int, int]] | None = None
    lead: int | None = None

    def counted(self, player: int) -> int:
        """Counted points of ``player`` now (marriages only once they have a trick)."""
        return self.points[player] + (self.marriages[player] if self.tricks[player] else 0)


@dataclass(frozen=True)
class Step:
    """One step of a line: a card played (with a marriage declared), or the end of the deal."""

    player: int
    card: int | None = None
    marriage: int = 0
    end: End | None = None
    game_points: int = 0

    def __str__(self) -> str:
        if self.card is None:
            return f"{self.end} {self.player}" if self.end != End.DRAW else "draw"
        text = f"{self.player} {_name(self.card)}"
        return f"{text} ({self.marriage})" if self.marriage else text


@dataclass(frozen=True)
class Solution:
    """The solver's answer: ``value`` in game points (positive for player 0, negative for
    player 1, 0 for a draw), the winner (None for a draw) and a principal line of play."""

    value: int
    line: tuple[Step, ...]
    nodes: int

    @property
    def winner(self) -> int | None:
        """The player who wins with best play on both sides, or None for a draw."""
        return None if self.value == 0 else (0 if self.value > 0 else 1)


def _name(card: int) -> str:
    return ("9", "J", "Q", "K", "10", "A")[card % 6] + "CDHS"[card // 6]


class Search:
    """Alpha-beta over whole tricks for one deal's constants (rules, trump, close)."""

    def __init__(self, rules: RuleSet, pos: Position) -> None:
        self.trump = pos.trump
        self.closer = pos.closer
        self.marriages = rules.marriage_in_phase2
        self.on_lead_only = rules.claim_when == "on-lead"
        self.bonus = rules.last_trick_bonus if pos.closer is None else 0
        self.unclaimed = rules.unclaimed_end
        # the most a player wins when nobody claims (the deal played out, not closed)
        self.unclaimed_win = {"draw": 0, "last-trick": 1}.get(rules.unclaimed_end, 3)
        at = pos.at_close or ((0, 0), (0, 0))
        self.fixed: tuple[int, int] | None = None
        self.failed = (0, 0)
        if pos.closer is not None:
            # the failed close's 2 or 3 and the closer's win with close_scored_at=close are
            # both fixed by the counts at the close
            self.failed = (2 if at[1][0] else 3, 2 if at[1][1] else 3)
            opp = 1 - pos.closer
            self.fixed = (
                (game_points(at[0][opp], at[1][opp]),) * 2
                if rules.close_scored_at == "close"
                else None
            )
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.options: dict[int, list[tuple[int, int]]] = {}
        self.nodes = 0

    def claim_value(self, who: int, c0: int, c1: int, w0: int, w1: int) -> int:
        """Game points of a correct claim by ``who`` (signed for player 0)."""
        if self.closer is not None and self.closer != who:
            gp = self.failed[who]
        elif self.closer is not None and self.fixed is not None:
            gp = self.fixed[0]
        elif who == 0:
            gp = game_points(c1, w1)
        else:
            gp = game_points(c0, w0)
        return gp if who == 0 else -gp

    def bounds(
        self, h0: int, h1: int, c0: int, c1: int, m0: int, m1: int, w0: int, w1: int
    ) -> tuple[int, int]:
        """Bounds of the value of a position: a player's points and tricks only grow, so a
        claim never scores more than it would now; a player who cannot reach 66 even winning
        every card left (with their pending and possible marriages, and the last trick's
        bonus) never claims; after a close the closer's opponent wins only the failed close's
        2 or 3 (and the closer at most the game points fixed at the close, if any)."""
        rest = _points(h0 | h1) + self.bonus
        short0 = c0 + m0 + rest + self._may_declare(h0) < CLAIM_AT
        short1 = c1 + m1 + rest + self._may_declare(h1) < CLAIM_AT
        if self.closer is None:
            lo, hi = -game_points(c0, w0), game_points(c1, w1)
            if short0:
                hi = min(hi, self.unclaimed_win)
            if short1:
                lo = max(lo, -self.unclaimed_win)
            return lo, hi
        if self.closer == 0:
            if short0:  # the close fails
                return -self.failed[1], -self.failed[1]
            return -self.failed[1], self.fixed[0] if self.fixed else game_points(c1, w1)
        if short1:
            return self.failed[0], self.failed[0]
        return -(self.fixed[0] if self.fixed else game_points(c0, w0)), self.failed[0]

    def _may_declare(self, hand: int) -> int:
        """The marriage points ``hand`` may still declare in phase 2."""
        if not self.marriages:
            return 0
        pairs = hand & hand >> 1 & _QUEENS
        trump = pairs >> (6 * self.trump + QUEEN) & 1
        return 20 * pairs.bit_count() + 20 * trump

    def between(self, leader: int, c0: int, c1: int, w0: int, w1: int) -> int | None:
        """The value when someone claims between tricks, else None (play goes on)."""
        first = (c0, c1)[leader] >= CLAIM_AT
        if first:
            return self.claim_value(leader, c0, c1, w0, w1)
        if not self.on_lead_only and (c1, c0)[leader] >= CLAIM_AT:
            return self.claim_value(1 - leader, c0, c1, w0, w1)
        return None

    def end(self, last: int, c0: int, c1: int, w0: int, w1: int) -> int:
        """The value after the last trick (won by ``last``), bonus and claim included."""
        if self.bonus:
            if last == 0:
                c0 += self.bonus
            else:
                c1 += self.bonus
        claimed = self.between(last, c0, c1, w0, w1)
        if claimed is not None:
            return claimed
        return self.played_out(last, c0, c1, w0, w1)

    def played_out(self, last: int, c0: int, c1: int, w0: int, w1: int) -> int:
        """The value of a deal played out with no claim (the bonus counted in)."""
        if self.closer is not None:
            if self.unclaimed == "draw" and (c0, c1)[self.closer] >= CLAIM_AT:
                return 0
            gp = self.failed[1 - self.closer]
            return gp if self.closer == 1 else -gp
        if self.unclaimed == "last-trick":
            return 1 if last == 0 else -1
        if self.unclaimed == "higher-total" and c0 != c1:
            return game_points(c1, w1) if c0 > c1 else -game_points(c0, w0)
        return 0

    def lead_options(self, hand: int, leader: int) -> list[tuple[int, int]]:
        """``(card, marriage points)`` for each card the leader may lead, best guesses first."""
        known = self.options.get(hand)
        if known is None:
            known = self.options[hand] = self._lead_options(hand)
        return known

    def _lead_options(self, hand: int) -> list[tuple[int, int]]:
        out = []
        cards = hand
        while cards:
            low = cards & -cards
            card = low.bit_length() - 1
            cards ^= low
            mar = 0
            rank = card % 6
            if self.marriages and rank in (KING, QUEEN):
                partner = card + 1 if rank == QUEEN else card - 1
                if hand >> partner & 1:
                    mar = marriage_value(card, self.trump)
            out.append((card, mar))
        # high cards and marriages first: they decide most positions quickest
        out.sort(key=lambda m: -(m[1] * 4 + CARD_POINTS[m[0]] + (m[0] // 6 == self.trump) * 12))
        return out

    def node(
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
        alpha: int,
        beta: int,
    ) -> int:
        """The value (for player 0) of a position between tricks with ``leader`` to lead."""
        self.nodes += 1
        lo, hi = self.bounds(h0, h1, c0, c1, m0, m1, w0, w1)
        if hi <= alpha:
            return hi
        if lo >= beta:
            return lo
        key = (h0, h1, leader, c0, c1, m0, m1, w0, w1)
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
        for card, mar in self.lead_options(h0 if maxing else h1, leader):
            v = self.after_lead(
                h0,
                h1,
                leader,
                c0,
                c1,
                m0,
                m1,
                w0,
                w1,
                card,
                mar,
                max(alpha, best) if maxing else alpha,
                beta if maxing else min(beta, best),
            )
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

    def after_lead(
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
        mar: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value once ``leader`` leads ``card`` (declaring ``mar`` points): the follower
        picks the reply best for them."""
        if mar:
            return self._declare_and_lead(
                h0, h1, leader, c0, c1, m0, m1, w0, w1, card, mar, alpha, beta
            )
        trump = self.trump
        if leader == 0:
            h0 &= ~(1 << card)
            replies = legal_follows(h1, card, trump)
        else:
            h1 &= ~(1 << card)
            replies = legal_follows(h0, card, trump)
        follower_maxes = leader == 1
        best = -INF if follower_maxes else INF
        wins = FOLLOWER_WINS[trump][card]
        lead_points = CARD_POINTS[card]
        while replies:
            low = replies & -replies
            reply = low.bit_length() - 1
            replies ^= low
            v = self.trick(
                h0 & ~low if leader == 1 else h0,
                h1 & ~low if leader == 0 else h1,
                leader ^ wins[reply],
                c0,
                c1,
                m0,
                m1,
                w0,
                w1,
                lead_points + CARD_POINTS[reply],
                max(alpha, best) if follower_maxes else alpha,
                beta if follower_maxes else min(beta, best),
            )
            if follower_maxes:
                best = max(best, v)
                if best >= beta:
                    break
            else:
                best = min(best, v)
                if best <= alpha:
                    break
        return best

    def declare(
        self, leader: int, mar: int, c0: int, c1: int, m0: int, m1: int, w0: int, w1: int
    ) -> tuple[int | None, int, int, int, int]:
        """The counts once ``leader`` declares a marriage worth ``mar``: counted at once for a
        player with a trick, else waiting for their first trick; first the value of the claim
        it allows (66 reached with a trick), else None. The one way both searches declare
        (this one, and phase 1's in :mod:`tally.analysis.closing`)."""
        if leader == 0:
            if w0:
                c0 += mar
            else:
                m0 += mar
        elif w1:
            c1 += mar
        else:
            m1 += mar
        if (w1 if leader else w0) and (c1 if leader else c0) >= CLAIM_AT:
            return self.claim_value(leader, c0, c1, w0, w1), c0, c1, m0, m1
        return None, c0, c1, m0, m1

    def _declare_and_lead(
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
        mar: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value once ``leader`` declares a marriage worth ``mar`` and leads its ``card``
        (:meth:`declare`). Off the search's usual path: marriage leads only."""
        claimed, c0, c1, m0, m1 = self.declare(leader, mar, c0, c1, m0, m1, w0, w1)
        if claimed is not None:
            return claimed
        return self.after_lead(h0, h1, leader, c0, c1, m0, m1, w0, w1, card, 0, alpha, beta)

    def trick(
        self,
        h0: int,
        h1: int,
        winner: int,
        c0: int,
        c1: int,
        m0: int,
        m1: int,
        w0: int,
        w1: int,
        points: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value after a trick worth ``points`` went to ``winner``."""
        if winner == 0:
            c0 += points + m0
            m0, w0 = 0, 1
        else:
            c1 += points + m1
            m1, w1 = 0, 1
        if not (h0 | h1):
            return self.end(winner, c0, c1, w0, w1)
        claimed = self.between(winner, c0, c1, w0, w1)
        if claimed is not None:
            return claimed
        return self.node(h0, h1, winner, c0, c1, m0, m1, w0, w1, alpha, beta)


def _start(pos: Position) -> tuple[int, int, int, int, int, int]:
    """``(c0, c1, m0, m1, w0, w1)``: counted points and pending marriages of a position."""
    w0, w1 = int(pos.tricks[0] > 0), int(pos.tricks[1] > 0)
    m0, m1 = pos.marriages
    c0 = pos.points[0] + (m0 if w0 else 0)
    c1 = pos.points[1] + (m1 if w1 else 0)
    return c0, c1, 0 if w0 else m0, 0 if w1 else m1, w0, w1


@own_stack
def solve(pos: Position, rules: RuleSet) -> Solution:
    """Best play from ``pos`` under ``rules``: the value in game points and a principal line.

    The line lists each card played (with any marriage declared) and ends with how the deal
    ends: who claims, a failed close, the last trick, a higher total or a draw.
    """
    search = Search(rules, pos)
    value = _value(search, pos, -INF, INF)
    line = _line(search, pos, value)
    return Solution(value=value, line=line, nodes=search.nodes)


class Judge:
    """Exact values of the positions of one phase 2 (one transposition table for all), for
    judging each decision of a recorded line: the value before it, the value after it.

    Values are for player 0, in game points, correct claims only (a false claim is never part
    of best play: see :meth:`claim`).
    """

    def __init__(self, pos: Position, rules: RuleSet) -> None:
        self._search = Search(rules, pos)

    def value(self, pos: Position) -> int:
        """Best play from ``pos``; a player who may claim correctly claims at once."""
        return _value(self._search, pos, -INF, INF)

    def play_on(self, pos: Position) -> int:
        """Between tricks: best play when nobody claims now (a claim may still come later)."""
        c0, c1, m0, m1, w0, w1 = _start(pos)
        h0, h1 = pos.hands
        if not (h0 | h1):
            return self._search.end(pos.leader, c0, c1, w0, w1)
        return self._search.node(h0, h1, pos.leader, c0, c1, m0, m1, w0, w1, -INF, INF)

    def declined(self, pos: Position, who: int) -> int:
        """Between tricks: the value when ``who`` does not claim now (the opponent still may,
        when the rules let them)."""
        other = 1 - who
        c0, c1, _, _, w0, w1 = _start(pos)
        h0, h1 = pos.hands
        if not (h0 | h1):  # after the last trick: its bonus counts
            bonus = self._search.bonus
            c0, c1 = (c0 + bonus, c1) if pos.leader == 0 else (c0, c1 + bonus)
            on = self._search.played_out(pos.leader, c0, c1, w0, w1)
        else:
            on = self.play_on(pos)
        if (self._search.on_lead_only and other != pos.leader) or (c0, c1)[other] < CLAIM_AT:
            return on
        claimed = self._search.claim_value(other, c0, c1, w0, w1)
        return max(on, claimed) if other == 0 else min(on, claimed)

    def lead(self, pos: Position, move: tuple[int, int]) -> int:
        """The value of leading ``move`` (a declared marriage that reaches 66 is claimed)."""
        return _child(self._search, pos, move, -INF, INF)

    def moves(self, pos: Position) -> dict[tuple[int, int], int]:
        """The value of each move of the player to move (the follower when ``pos.lead`` is
        set): ``{(card, marriage): value}``."""
        return {m: _child(self._search, pos, m, -INF, INF) for m in _moves(self._search, pos)}

    def can_claim(self, pos: Position, who: int) -> bool:
        """Whether ``who`` may claim correctly now (counted points, ``claim_when``)."""
        if self._search.on_lead_only and who != pos.leader:
            return False
        end = not (pos.hands[0] | pos.hands[1]) and who == pos.leader  # the last-trick bonus
        return pos.counted(who) + (self._search.bonus if end else 0) >= CLAIM_AT

    def claim(self, pos: Position, who: int) -> int:
        """The value of a correct claim by ``who`` now (after the last trick, its bonus
        counted for the player who won it)."""
        c0, c1, _, _, w0, w1 = _start(pos)
        if not (pos.hands[0] | pos.hands[1]):
            bonus = self._search.bonus
            c0, c1 = (c0 + bonus, c1) if pos.leader == 0 else (c0, c1 + bonus)
        return self._search.claim_value(who, c0, c1, w0, w1)


def move_values(pos: Position, rules: RuleSet) -> dict[tuple[int, int], int]:
    """The exact value of each move of the player to move: ``{(card, marriage): value}``.

    The player to move is the follower when ``pos.lead`` is set, else the leader.
    """
    return Judge(pos, rules).moves(pos)


def _moves(search: Search, pos: Position) -> list[tuple[int, int]]:
    if pos.lead is None:
        return search.lead_options(pos.hands[pos.leader], pos.leader)
    follower = 1 - pos.leader
    return [(c, 0) for c in _bits(legal_follows(pos.hands[follower], pos.lead, pos.trump))]


def _bits(mask: int) -> list[int]:
    return [i for i in range(24) if mask >> i & 1]


def _value(search: Search, pos: Position, alpha: int, beta: int) -> int:
    c0, c1, m0, m1, w0, w1 = _start(pos)
    h0, h1 = pos.hands
    if pos.lead is None:
        if not (h0 | h1):
            return search.end(pos.leader, c0, c1, w0, w1)
        claimed = search.between(pos.leader, c0, c1, w0, w1)
        if claimed is not None:
            return claimed
        return search.node(h0, h1, pos.leader, c0, c1, m0, m1, w0, w1, alpha, beta)
    return search.after_lead(h0, h1, pos.leader, c0, c1, m0, m1, w0, w1, pos.lead, 0, alpha, beta)


def _child(search: Search, pos: Position, move: tuple[int, int], alpha: int, beta: int) -> int:
    if pos.lead is None:  # a lead: the search declares and claims a marriage itself
        c0, c1, m0, m1, w0, w1 = _start(pos)
        return search.after_lead(
            pos.hands[0],
            pos.hands[1],
            pos.leader,
            c0,
            c1,
            m0,
            m1,
            w0,
            w1,
            move[0],
            move[1],
            alpha,
            beta,
        )
    return _value(search, play(pos, move), alpha, beta)


def play(pos: Position, move: tuple[int, int]) -> Position:
    """The position after the player to move plays ``move`` = ``(card, marriage points)``.

    A lead leaves the trick open (``lead`` set); a follow completes the trick.
    """
    card, mar = move
    hands = list(pos.hands)
    if pos.lead is None:
        hands[pos.leader] &= ~(1 << card)
        marriages = list(pos.marriages)
        marriages[pos.leader] += mar
        return Position(
            (hands[0], hands[1]),
            pos.leader,
            pos.trump,
            pos.points,
            (marriages[0], marriages[1]),
            pos.tricks,
            pos.closer,
            pos.at_close,
            lead=card,
        )
    follower = 1 - pos.leader
    hands[follower] &= ~(1 << card)
    winner = pos.leader ^ FOLLOWER_WINS[pos.trump][pos.lead][card]
    points, tricks = list(pos.points), list(pos.tricks)
    points[winner] += CARD_POINTS[pos.lead] + CARD_POINTS[card]
    tricks[winner] += 1
    return Position(
        (hands[0], hands[1]),
        winner,
        pos.trump,
        (points[0], points[1]),
        pos.marriages,
        (tricks[0], tricks[1]),
        pos.closer,
        pos.at_close,
    )


def _line(search: Search, pos: Position, value: int) -> tuple[Step, ...]:
    """A principal line: at each turn a move that keeps the value, until the deal ends."""
    steps: list[Step] = []
    while True:
        end = _ending(search, pos)
        if end is not None:
            steps.append(end)
            return tuple(steps)
        mover = pos.leader if pos.lead is None else 1 - pos.leader
        for move in _moves(search, pos):
            if _child(search, pos, move, value - 1, value + 1) == value:
                break
        else:  # pragma: no cover - the value is always reached by some move
            raise AssertionError("no move keeps the solved value")
        card, mar = move
        steps.append(Step(mover, card, mar))
        if mar and pos.tricks[mover] and pos.counted(mover) + mar >= CLAIM_AT:
            steps.append(_claim_step(search, play(pos, move), mover))
            return tuple(steps)
        pos = play(pos, move)


def _claim_step(search: Search, pos: Position, who: int) -> Step:
    c0, c1, _, _, w0, w1 = _start(pos)
    v = search.claim_value(who, c0, c1, w0, w1)
    end = End.FAILED_CLOSE if pos.closer is not None and pos.closer != who else End.CLAIM
    return Step(who, end=end, game_points=abs(v))


def _ending(search: Search, pos: Position) -> Step | None:
    """The step that ends the deal at ``pos`` (a claim or the end of play), else None."""
    if pos.lead is not None:
        return None
    c0, c1, _, _, w0, w1 = _start(pos)
    if pos.hands[0] | pos.hands[1]:
        if search.between(pos.leader, c0, c1, w0, w1) is None:
            return None
        who = pos.leader if (c0, c1)[pos.leader] >= CLAIM_AT else 1 - pos.leader
        return _claim_step(search, pos, who)
    v = search.end(pos.leader, c0, c1, w0, w1)
    bonus = (search.bonus if pos.leader == 0 else 0, search.bonus if pos.leader == 1 else 0)
    if search.between(pos.leader, c0 + bonus[0], c1 + bonus[1], w0, w1) is not None:
        who = (
            pos.leader if (c0 + bonus[0], c1 + bonus[1])[pos.leader] >= CLAIM_AT else 1 - pos.leader
        )
        return _claim_step(
            search,
            Position(
                pos.hands,
                pos.leader,
                pos.trump,
                (pos.points[0] + bonus[0], pos.points[1] + bonus[1]),
                pos.marriages,
                pos.tricks,
                pos.closer,
                pos.at_close,
            ),
            who,
        )
    if v == 0:
        return Step(0, end=End.DRAW)
    winner = 0 if v > 0 else 1
    if search.closer is not None:
        end = End.FAILED_CLOSE
    else:
        end = End.LAST_TRICK if search.unclaimed == "last-trick" else End.HIGHER_TOTAL
    return Step(winner, end=end, game_points=abs(v))
