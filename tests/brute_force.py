"""An independent brute force for the analysis, written from RULES.md alone: it uses neither
tally's solver nor tally.engine.kernel (only ``tally.engine.cards.Card`` to name cards in a record).

- :func:`play_deal` plays a random deal of a preset (random cards, marriages, exchanges,
  closes before the lead and before the draws, claims on time, late, at a line's start and
  right after a marriage) and writes its record with ``Hands``; it notes every moment a player
  could have claimed correctly and the first phase-2 position.
- :func:`value` is a memoised minimax over every choice RULES.md allows in phase 2 (each
  card, declaring a marriage or not, claiming or not whenever a claim would be correct), in
  game points for player 0; false claims are never chosen (best play, correct claims only).
- :func:`play_on` is the same over phase 1 with both hands and the stock's order known: each
  card (no duty to follow), a marriage or not, an exchange or not (before leading, and before
  following where the rules allow), a close or not (before the lead, and after winning a trick
  before the draws where allowed), a claim or not; :func:`value` once the stock is closed or
  exhausted.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from tally.engine.cards import Card

POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
ORDER = ["9", "J", "Q", "K", "10", "A"]
SUITS = "CDHS"


@dataclass(frozen=True)
class Rules:
    """The options of section 1 the brute force needs."""

    name: str
    ranks: tuple[str, ...]
    hand: int
    exchange_rank: str
    exchange_needs_trick: bool
    marriage_in_phase2: bool
    close_before_draw: bool
    close_scored_at: str
    bonus: int
    claim_on_lead: bool
    unclaimed_end: str
    exchange_on_follow: bool = False


PRESETS = {
    "sixty-six": Rules(
        "sixty-six",
        ("9", "J", "Q", "K", "10", "A"),
        6,
        "9",
        True,
        False,
        True,
        "claim",
        10,
        False,
        "draw",
        True,
    ),
    "schnapsen": Rules(
        "schnapsen",
        ("J", "Q", "K", "10", "A"),
        5,
        "J",
        False,
        True,
        False,
        "close",
        0,
        True,
        "last-trick",
    ),
    "pagat-66": Rules(
        "pagat-66",
        ("9", "J", "Q", "K", "10", "A"),
        6,
        "9",
        True,
        False,
        True,
        "claim",
        10,
        True,
        "higher-total",
    ),
}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def beats(follow: str, lead: str, trump: str) -> bool:
    """Section 3: whether the follower's card wins the trick."""
    if suit(follow) == suit(lead):
        return ORDER.index(rank(follow)) > ORDER.index(rank(lead))
    return suit(follow) == trump


def legal(hand: frozenset[str], lead: str, trump: str) -> list[str]:
    """Section 4: the follows allowed in phase 2."""
    same = [c for c in hand if suit(c) == suit(lead)]
    if same:
        higher = [c for c in same if beats(c, lead, trump)]
        return higher or same
    trumps = [c for c in hand if suit(c) == trump]
    return trumps or list(hand)


def game_points(opp_counted: int, opp_tricks: int) -> int:
    """Section 9."""
    if opp_tricks == 0:
        return 3
    return 2 if opp_counted < 33 else 1


# --- exact value of a phase-2 position ------------------------------------------------------


@dataclass(frozen=True)
class Pos:
    """A phase-2 position between tricks; players 0 and 1."""

    hands: tuple[frozenset[str], frozenset[str]]
    leader: int
    trump: str
    points: tuple[int, int]
    marriages: tuple[int, int]
    tricks: tuple[int, int]
    closer: int  # -1: the stock ran out
    at_close: tuple[int, int]  # the closer's opponent's counted points and tricks at the close
    closer_opp_tricks_at_close: tuple[int, int]  # each player's tricks at the close


def counted(points: int, marriages: int, tricks: int) -> int:
    return points + (marriages if tricks else 0)


def claim_value(
    r: Rules,
    pos: Pos,
    who: int,
    pts: tuple[int, int],
    mar: tuple[int, int],
    tricks: tuple[int, int],
) -> int:
    """A correct claim by ``who`` (sections 7 and 9), signed for player 0."""
    opp = 1 - who
    if pos.closer >= 0 and pos.closer != who:
        gp = 2 if pos.closer_opp_tricks_at_close[who] else 3
    elif pos.closer >= 0 and r.close_scored_at == "close":
        gp = game_points(*pos.at_close)
    else:
        gp = game_points(counted(pts[opp], mar[opp], tricks[opp]), tricks[opp])
    return gp if who == 0 else -gp


@dataclass(frozen=True)
class Search:
    """The memoised minimax of one phase 2 (its trump and close fixed), by its parts:
    ``between(h0, h1, leader, points, marriages, tricks, last)`` a position between tricks
    (claims first), ``leads(...)`` the same when nobody claims now, ``lead_one(..., card,
    marriage)`` the value of one lead, ``follow(..., lead)`` once ``lead`` is led."""

    between: Callable[..., int]
    no_claim: Callable[..., int]
    leads: Callable[..., int]
    lead_one: Callable[..., int]
    follow: Callable[..., int]


def value(r: Rules, pos: Pos) -> int:
    """Best play from ``pos`` for both sides, game points for player 0."""
    return searcher(r, pos).between(
        pos.hands[0], pos.hands[1], pos.leader, pos.points, pos.marriages, pos.tricks, False
    )


def searcher(r: Rules, pos: Pos) -> Search:
    """The minimax of the phase 2 ``pos`` starts (its trump and close)."""

    @cache
    def between(
        h0: frozenset[str],
        h1: frozenset[str],
        leader: int,
        pts: tuple[int, int],
        mar: tuple[int, int],
        tricks: tuple[int, int],
        last: bool,
    ) -> int:
        options_for: dict[int, list[int]] = {0: [], 1: []}
        bonus = (0, 0)
        if last and pos.closer < 0:
            bonus = (r.bonus, 0) if leader == 0 else (0, r.bonus)
        full = (pts[0] + bonus[0], pts[1] + bonus[1])
        for who in (leader, 1 - leader):
            if r.claim_on_lead and who != leader:
                continue
            if counted(full[who], mar[who], tricks[who]) >= 66:
                options_for[who].append(claim_value(r, pos, who, full, mar, tricks))
        # the leader may claim first, then the other; else play goes on
        if last:
            rest = unclaimed(leader, full, mar, tricks)
        else:
            rest = leads(h0, h1, leader, pts, mar, tricks)
        other = 1 - leader
        if options_for[other]:
            best_other = max if other == 0 else min
            rest = best_other([rest, *options_for[other]])
        if options_for[leader]:
            best = max if leader == 0 else min
            rest = best([rest, *options_for[leader]])
        return rest

    def unclaimed(
        last: int, full: tuple[int, int], mar: tuple[int, int], tricks: tuple[int, int]
    ) -> int:
        c = (counted(full[0], mar[0], tricks[0]), counted(full[1], mar[1], tricks[1]))
        if pos.closer >= 0:
            if r.unclaimed_end == "draw" and c[pos.closer] >= 66:
                return 0
            opp = 1 - pos.closer
            gp = 2 if pos.closer_opp_tricks_at_close[opp] else 3
            return gp if opp == 0 else -gp
        if r.unclaimed_end == "last-trick":
            return 1 if last == 0 else -1
        if r.unclaimed_end == "higher-total" and c[0] != c[1]:
            return game_points(c[1], tricks[1]) if c[0] > c[1] else -game_points(c[0], tricks[0])
        return 0

    def leads(
        h0: frozenset[str],
        h1: frozenset[str],
        leader: int,
        pts: tuple[int, int],
        mar: tuple[int, int],
        tricks: tuple[int, int],
    ) -> int:
        hand = (h0, h1)[leader]
        results = []
        for card in hand:
            choices = [0]
            partner = {"K": "Q", "Q": "K"}.get(rank(card))
            if r.marriage_in_phase2 and partner and partner + suit(card) in hand:
                choices.append(40 if suit(card) == pos.trump else 20)
            for m in choices:
                results.append(lead_one(h0, h1, leader, pts, mar, tricks, card, m))
        return max(results) if leader == 0 else min(results)

    def lead_one(
        h0: frozenset[str],
        h1: frozenset[str],
        leader: int,
        pts: tuple[int, int],
        mar: tuple[int, int],
        tricks: tuple[int, int],
        card: str,
        m: int,
    ) -> int:
        new_mar = list(mar)
        new_mar[leader] += m
        nm = (new_mar[0], new_mar[1])
        outcomes = [follow(h0, h1, leader, pts, nm, tricks, card)]
        if m and tricks[leader] and counted(pts[leader], nm[leader], 1) >= 66:
            outcomes.append(claim_value(r, pos, leader, pts, nm, tricks))
        return max(outcomes) if leader == 0 else min(outcomes)

    def follow(
        h0: frozenset[str],
        h1: frozenset[str],
        leader: int,
        pts: tuple[int, int],
        mar: tuple[int, int],
        tricks: tuple[int, int],
        lead: str,
    ) -> int:
        hands = [h0, h1]
        hands[leader] = hands[leader] - {lead}
        follower = 1 - leader
        results = []
        for card in legal(hands[follower], lead, pos.trump):
            after = list(hands)
            after[follower] = after[follower] - {card}
            winner = follower if beats(card, lead, pos.trump) else leader
            p, t = list(pts), list(tricks)
            p[winner] += POINTS[rank(lead)] + POINTS[rank(card)]
            t[winner] += 1
            results.append(
                between(
                    after[0],
                    after[1],
                    winner,
                    (p[0], p[1]),
                    mar,
                    (t[0], t[1]),
                    not (after[0] or after[1]),
                )
            )
        return max(results) if follower == 0 else min(results)

    def no_claim(
        h0: frozenset[str],
        h1: frozenset[str],
        leader: int,
        pts: tuple[int, int],
        mar: tuple[int, int],
        tricks: tuple[int, int],
        last: bool,
    ) -> int:
        """Between tricks, the value when nobody claims now (``pts`` without the bonus)."""
        if not last:
            return leads(h0, h1, leader, pts, mar, tricks)
        bonus = (r.bonus, 0) if leader == 0 else (0, r.bonus)
        full = (pts[0] + bonus[0], pts[1] + bonus[1]) if pos.closer < 0 else pts
        return unclaimed(leader, full, mar, tricks)

    return Search(between, no_claim, leads, lead_one, follow)


# --- exact value of a phase-1 position (both hands and the stock's order known) ------------


@dataclass(frozen=True)
class CloseSeen:
    """What the closer saw when closing (RULES.md section 12): their hand, what the opponent
    showed of theirs (the partner of a marriage declared, the turn-up taken by exchange, not yet
    played), the cards neither played, held nor shown, and the counts; players 0 and 1."""

    line: int  # the line of the first trick after the close
    closer: int
    hand: frozenset[str]
    shown: frozenset[str]
    unseen: frozenset[str]  # the opponent's other cards and the face-down stock
    down: int  # face-down stock cards
    turn_up: str
    points: tuple[int, int]
    marriages: tuple[int, int]
    tricks: tuple[int, int]
    before_draws: bool


@dataclass(frozen=True)
class Open:
    """A phase-1 position between tricks (before the lead, or right after a trick before its
    draws when ``draws_pending``), players 0 and 1."""

    hands: tuple[frozenset[str], frozenset[str]]
    leader: int
    trump: str
    down: tuple[str, ...]  # face-down stock, top first
    turn_up: str
    points: tuple[int, int]
    marriages: tuple[int, int]
    tricks: tuple[int, int]
    draws_pending: bool = False


def play_on(
    r: Rules,
    start: Open,
    may_close_now: bool = False,
    first: tuple[bool, str, int] | None = None,
    reply: str | None = None,
) -> int:
    """Best play from ``start`` for both sides, game points for player 0; the leader may not
    close at ``start`` itself unless ``may_close_now`` (they may later). With ``first``
    (exchange or not, card, marriage points declared with it) the leader's choice at
    ``start`` is that one, best play after; with ``reply`` too, the follower answers it with
    that card (no exchange first), best play after."""

    def closed(o: Open, closer: int) -> int:
        opp = 1 - closer
        return value(
            r,
            Pos(
                o.hands,
                o.leader,
                o.trump,
                o.points,
                o.marriages,
                o.tricks,
                closer,
                (counted(o.points[opp], o.marriages[opp], o.tricks[opp]), o.tricks[opp]),
                o.tricks,
            ),
        )

    def claim(o: Open, who: int) -> list[int]:
        """The value of a correct claim by ``who`` now, if they may make one."""
        if r.claim_on_lead and who != o.leader:
            return []
        if counted(o.points[who], o.marriages[who], o.tricks[who]) < 66:
            return []
        opp = 1 - who
        gp = game_points(counted(o.points[opp], o.marriages[opp], o.tricks[opp]), o.tricks[opp])
        return [gp if who == 0 else -gp]

    def exchanged(o: Open, who: int) -> Open | None:
        x = r.exchange_rank + o.trump
        if x not in o.hands[who] or (r.exchange_needs_trick and not o.tricks[who]):
            return None
        hands = list(o.hands)
        hands[who] = hands[who] - {x} | {o.turn_up}
        return Open(
            (hands[0], hands[1]),
            o.leader,
            o.trump,
            o.down,
            x,
            o.points,
            o.marriages,
            o.tricks,
            o.draws_pending,
        )

    def pick(who: int, options: list[int]) -> int:
        return max(options) if who == 0 else min(options)

    @cache
    def at(o: Open, may_close: bool) -> int:
        """Between tricks: the leader may claim, then the other; else play goes on."""
        other = 1 - o.leader
        rest = pick(other, [*claim(o, other), on(o, may_close)])
        return pick(o.leader, [*claim(o, o.leader), rest])

    def on(o: Open, may_close: bool) -> int:
        options: list[int] = []
        if o.draws_pending:
            if r.close_before_draw and may_close:
                options.append(closed(o, o.leader))
            hands = [set(o.hands[0]), set(o.hands[1])]
            down = list(o.down)
            hands[o.leader].add(down.pop(0))
            turn_up = o.turn_up
            if down:
                hands[1 - o.leader].add(down.pop(0))
            else:
                hands[1 - o.leader].add(turn_up)
                turn_up = ""
            if not turn_up:
                options.append(
                    value(
                        r,
                        Pos(
                            (frozenset(hands[0]), frozenset(hands[1])),
                            o.leader,
                            o.trump,
                            o.points,
                            o.marriages,
                            o.tricks,
                            -1,
                            (0, 0),
                            (0, 0),
                        ),
                    )
                )
            else:
                options.append(
                    at(
                        Open(
                            (frozenset(hands[0]), frozenset(hands[1])),
                            o.leader,
                            o.trump,
                            tuple(down),
                            turn_up,
                            o.points,
                            o.marriages,
                            o.tricks,
                        ),
                        True,
                    )
                )
            return pick(o.leader, options)
        if may_close:
            options.append(closed(o, o.leader))
        swapped = exchanged(o, o.leader)
        if swapped is not None:
            options.append(at(swapped, may_close))
        hand = o.hands[o.leader]
        for card in hand:
            partner = {"K": "Q", "Q": "K"}.get(rank(card))
            choices = [0]
            if partner and partner + suit(card) in hand:
                choices.append(40 if suit(card) == o.trump else 20)
            for m in choices:
                options += led(o, card, m)
        return pick(o.leader, options)

    def led(o: Open, card: str, m: int, only: str | None = None) -> list[int]:
        """The leader leads ``card`` declaring ``m``: a claim at once where it reaches 66 with
        a trick, or the follow."""
        options = []
        mar = list(o.marriages)
        mar[o.leader] += m
        if m and o.tricks[o.leader] and counted(o.points[o.leader], mar[o.leader], 1) >= 66:
            gp = game_points(
                counted(o.points[1 - o.leader], mar[1 - o.leader], o.tricks[1 - o.leader]),
                o.tricks[1 - o.leader],
            )
            options.append(gp if o.leader == 0 else -gp)
        declared = Open(
            o.hands, o.leader, o.trump, o.down, o.turn_up, o.points, (mar[0], mar[1]), o.tricks
        )
        options.append(follow(declared, card, only is None, only))
        return options

    def follow(o: Open, lead: str, may_swap: bool, only: str | None = None) -> int:
        follower = 1 - o.leader
        options = []
        if may_swap and r.exchange_on_follow:
            swapped = exchanged(o, follower)
            if swapped is not None:
                options.append(follow(swapped, lead, False))
        for card in o.hands[follower] if only is None else (only,):
            hands = list(o.hands)
            hands[o.leader] = hands[o.leader] - {lead}
            hands[follower] = hands[follower] - {card}
            winner = follower if beats(card, lead, o.trump) else o.leader
            p, t = list(o.points), list(o.tricks)
            p[winner] += POINTS[rank(lead)] + POINTS[rank(card)]
            t[winner] += 1
            options.append(
                at(
                    Open(
                        (hands[0], hands[1]),
                        winner,
                        o.trump,
                        o.down,
                        o.turn_up,
                        (p[0], p[1]),
                        o.marriages,
                        (t[0], t[1]),
                        True,
                    ),
                    True,
                )
            )
        return pick(follower, options)

    if first is not None:
        swap, card, m = first
        chosen = exchanged(start, start.leader) if swap else start
        assert chosen is not None
        return pick(start.leader, led(chosen, card, m, reply))
    return at(start, may_close_now)


# --- a random deal and its record -------------------------------------------------------------


@dataclass
class Played:
    """What :func:`play_deal` made: the record, every moment a claim was possible, the claim,
    the first phase-2 position and what happened (for the situations covered)."""

    record: str
    names: tuple[str, str] = ("Anna", "Bert")
    #: (tricks done, right after a marriage, player, opponent's counted points, opponent's
    #: tricks) for every moment the player could claim correctly
    moments: list[tuple[int, bool, int, int, int]] = field(default_factory=list)
    claim: tuple[int, bool, int] | None = None  # tricks done, after a marriage, claimer
    first_phase2: Pos | None = None
    #: the line of the first phase-2 trick (0: the deal ended in phase 1)
    first_phase2_line: int = 0
    closer: int = -1
    closed_before_draw: bool = False
    situations: set[str] = field(default_factory=set)
    #: the close as the closer saw it, when the record closes (:class:`CloseSeen`)
    close_seen: CloseSeen | None = None
    #: every recorded phase-2 action: (kind, line, player, state, card, marriage) with kind
    #: ``lead``, ``follow``, ``declare`` (a marriage claimed at once), ``claim`` or ``end``
    #: (played out, no claim after the last trick), and state
    #: (hand 0, hand 1, leader, points without a last-trick bonus, marriages, tricks, last)
    #: just before it
    steps: list[tuple[str, int, int, tuple[object, ...], str, int]] = field(default_factory=list)
    #: every phase-1 lead not closed: (line, the position before any exchange, exchanged,
    #: card led, marriage points declared with it)
    leads: list[tuple[int, Open, bool, str, int]] = field(default_factory=list)
    #: the follower's card at each of those leads, by line
    replies: dict[int, str] = field(default_factory=dict)


class _Game:
    """One deal being played at random, by the rules of RULES.md."""

    def __init__(self, r: Rules, rng: random.Random) -> None:
        deck = [rk + s for s in SUITS for rk in r.ranks]
        rng.shuffle(deck)
        self.r, self.rng = r, rng
        n = r.hand
        self.hands = [set(deck[:n]), set(deck[n : 2 * n])]
        self.dealt = [sorted(self.hands[0]), sorted(self.hands[1])]
        self.turn_up = self.deal_turn_up = deck[2 * n]
        self.trump = suit(self.turn_up)
        self.stock = deck[2 * n + 1 :]  # face down, top first; the turn-up lies under them
        self.pts, self.mar, self.tricks = [0, 0], [0, 0], [0, 0]
        self.leader = 0
        self.closer = -1
        self.at_close = (0, 0)
        self.tricks_at_close = (0, 0)
        self.lines: list[str] = []
        self.played = Played("")
        self.gone: set[str] = set()  # cards played
        self.shown: list[set[str]] = [set(), set()]
        self.before_lead: Open | None = None

    def open(self) -> Open:
        """The phase-1 position now (between tricks, before the lead)."""
        return Open(
            (frozenset(self.hands[0]), frozenset(self.hands[1])),
            self.leader,
            self.trump,
            tuple(self.stock),
            self.turn_up,
            (self.pts[0], self.pts[1]),
            (self.mar[0], self.mar[1]),
            (self.tricks[0], self.tricks[1]),
        )

    def phase2(self) -> bool:
        return self.closer >= 0 or (not self.stock and self.turn_up == "")

    def counted(self, p: int) -> int:
        return counted(self.pts[p], self.mar[p], self.tricks[p])

    def can_claim(self, p: int, on_lead: int, bonus: int = 0) -> bool:
        if self.r.claim_on_lead and p != on_lead:
            return False
        return counted(self.pts[p] + bonus, self.mar[p], self.tricks[p]) >= 66

    def note(self, done: int, marriage: bool, p: int) -> None:
        o = 1 - p
        self.played.moments.append((done, marriage, p, self.counted(o), self.tricks[o]))

    def position(self) -> Pos:
        return Pos(
            (frozenset(self.hands[0]), frozenset(self.hands[1])),
            self.leader,
            self.trump,
            (self.pts[0], self.pts[1]),
            (self.mar[0], self.mar[1]),
            (self.tricks[0], self.tricks[1]),
            self.closer,
            self.at_close,
            self.tricks_at_close,
        )

    def state(self, last: bool = False, bonus: int = 0) -> tuple[object, ...]:
        pts = list(self.pts)
        pts[self.leader] -= bonus
        return (
            frozenset(self.hands[0]),
            frozenset(self.hands[1]),
            self.leader,
            (pts[0], pts[1]),
            (self.mar[0], self.mar[1]),
            (self.tricks[0], self.tricks[1]),
            last,
        )

    def step(
        self,
        kind: str,
        line: int,
        p: int,
        card: str = "",
        marriage: int = 0,
        last: bool = False,
        bonus: int = 0,
    ) -> None:
        if self.phase2():
            self.played.steps.append((kind, line, p, self.state(last, bonus), card, marriage))

    def close(self, p: int, line: int, before_draws: bool) -> None:
        o = 1 - p
        shown = self.shown[o] - self.gone
        self.played.close_seen = CloseSeen(
            line,
            p,
            frozenset(self.hands[p]),
            frozenset(shown),
            frozenset(self.hands[o] - shown) | frozenset(self.stock),
            len(self.stock),
            self.turn_up,
            (self.pts[0], self.pts[1]),
            (self.mar[0], self.mar[1]),
            (self.tricks[0], self.tricks[1]),
            before_draws,
        )
        self.closer = p
        o = 1 - p
        self.at_close = (self.counted(o), self.tricks[o])
        self.tricks_at_close = (self.tricks[0], self.tricks[1])
        self.played.closer = p


def _claim_now(g: _Game, p: int, done: int, marriage: bool, items: list[str], form: str) -> bool:
    """Note the moment; claim at random (about half the time: the rest are late claims or
    none)."""
    g.note(done, marriage, p)
    if g.played.claim is not None or g.rng.random() < 0.45:
        return False
    g.played.claim = (done, marriage, p)
    items.append(form)
    return True


def _line_start(g: _Game, n: int, items: list[str]) -> bool:
    """Claims between tricks, exchange, close; True when the deal ended by a claim."""
    for p in (g.leader, 1 - g.leader):
        if g.can_claim(p, g.leader):
            form = "66" if p == g.leader else f"66@{g.played.names[p]}"
            before = len(g.played.moments)
            if _claim_now(g, p, n - 1, False, items, form):
                assert len(g.played.moments) == before + 1
                g.step("claim", n, p)
                g.played.situations.add("claim at a line's start")
                return True
    r, hand = g.r, g.hands[g.leader]
    x = r.exchange_rank + g.trump
    g.before_lead = g.open()
    if (
        not g.phase2()
        and g.stock
        and x in hand
        and g.rng.random() < 0.6
        and (g.tricks[g.leader] or not r.exchange_needs_trick)
    ):
        hand.discard(x)
        hand.add(g.turn_up)
        g.shown[g.leader].add(g.turn_up)
        g.turn_up = x
        items.append("swap")
    elif not g.phase2() and g.stock and g.rng.random() < 0.12:
        g.close(g.leader, n, False)
        items.append("close")
        g.played.situations.add(
            "close before the lead, " + ("forehand" if g.leader == 0 else "dealer")
        )
    return False


def _lead(g: _Game, n: int, items: list[str]) -> str | None:
    """The leader's card, with a marriage now and then; None when the declarer claimed."""
    card = _pick_lead(g, n, items)
    if card is not None and not g.phase2():
        assert g.before_lead is not None
        mar = int(items[-2]) if len(items) > 1 and items[-2] in ("20", "40") else 0
        g.played.leads.append((n, g.before_lead, "swap" in items, card, mar))
    return card


def _pick_lead(g: _Game, n: int, items: list[str]) -> str | None:
    hand, leader = g.hands[g.leader], g.leader
    allowed = not g.phase2() or g.r.marriage_in_phase2
    pairs = [
        c for c in hand if rank(c) in "KQ" and ({"K": "Q", "Q": "K"}[rank(c)] + suit(c)) in hand
    ]
    if allowed and pairs and g.rng.random() < 0.7:
        card = g.rng.choice(sorted(pairs))
        value = 40 if suit(card) == g.trump else 20
        g.shown[leader].add({"K": "Q", "Q": "K"}[rank(card)] + suit(card))
        g.mar[leader] += value
        items += [str(value), card]
        if g.can_claim(leader, leader) and _claim_now(g, leader, n - 1, True, items, "66"):
            g.mar[leader] -= value
            g.step("declare", n, leader, card, value)
            g.mar[leader] += value
            g.step("claim", n, leader)
            g.played.situations.add("claim right after a marriage")
            return None
        g.mar[leader] -= value
        g.step("lead", n, leader, card, value)
        g.mar[leader] += value
        hand.discard(card)
        return card
    card = g.rng.choice(sorted(hand))
    g.step("lead", n, leader, card)
    hand.discard(card)
    items.append(card)
    return card


def _draw(g: _Game) -> None:
    winner = g.leader
    for p in (winner, 1 - winner):
        if g.stock:
            g.hands[p].add(g.stock.pop(0))
        elif g.turn_up:
            g.hands[p].add(g.turn_up)
            g.turn_up = ""


def _trick(g: _Game, n: int, items: list[str], lead: str) -> bool:
    """The follow, the trick, a claim or a close after it, the draws; True when it ended."""
    f = 1 - g.leader
    options = legal(frozenset(g.hands[f]), lead, g.trump) if g.phase2() else sorted(g.hands[f])
    card = g.rng.choice(sorted(options))
    if not g.phase2():
        g.played.replies[n] = card
    g.hands[g.leader].add(lead)  # the state just before the lead, with its marriage
    g.step("follow", n, f, f"{lead} {card}")
    g.hands[g.leader].discard(lead)
    g.hands[f].discard(card)
    g.gone |= {lead, card}
    items.append(card)
    winner = f if beats(card, lead, g.trump) else g.leader
    g.pts[winner] += POINTS[rank(lead)] + POINTS[rank(card)]
    g.tricks[winner] += 1
    g.leader = winner
    last = not (g.hands[0] or g.hands[1])
    bonus = g.r.bonus if last and g.closer < 0 else 0
    if bonus:
        g.pts[winner] += bonus
    for p in (winner, 1 - winner):
        if (last or p == winner) and g.can_claim(p, winner):
            form = "66" if p == winner else f"66@{g.played.names[p]}"
            if _claim_now(g, p, n, False, items, form):
                g.step("claim", n, p, last=last, bonus=bonus)
                return True
    if last:  # played out with no claim: the moments after the last trick not taken
        g.step("end", n, winner, last=True, bonus=bonus)
        g.played.situations.add("played out with no claim")
        return True
    if g.r.close_before_draw and not g.phase2() and g.stock and g.rng.random() < 0.12:
        g.close(winner, n + 1, True)
        items.append("close")
        g.played.closed_before_draw = True
        g.played.situations.add(
            "close before the draws, " + ("forehand" if winner == 0 else "dealer")
        )
    if not g.phase2():
        _draw(g)
    return False


def play_deal(r: Rules, rng: random.Random) -> Played:
    """A random deal of ``r`` and what an analysis of it must find."""
    g = _Game(r, rng)
    n = 0
    while True:
        n += 1
        items: list[str] = []
        if g.played.first_phase2 is None and g.phase2():
            g.played.first_phase2 = g.position()
            g.played.first_phase2_line = n
        ended = _line_start(g, n, items)
        if not ended and g.played.first_phase2 is None and g.phase2():
            g.played.first_phase2 = g.position()  # closed at this line's start
            g.played.first_phase2_line = n
        if not ended:
            lead = _lead(g, n, items)
            ended = lead is None or _trick(g, n, items, lead)
        g.lines.append(f"{n}. " + " ".join(items))
        if ended:
            break
    names = g.played.names
    hands = "; ".join(
        f"{names[p]}: " + " ".join(str(Card.parse(c)) for c in g.dealt[p]) for p in (0, 1)
    )
    held = [p for p in (0, 1) if g.hands[p]]
    remaining = (
        [
            '[Remaining "'
            + "; ".join(
                f"{names[p]}: " + " ".join(str(Card.parse(c)) for c in sorted(g.hands[p]))
                for p in held
            )
            + '"]'
        ]
        if held
        else []
    )
    g.played.record = "\n".join(
        [
            f'[Rules "{r.name}"]',
            f'[Dealer "{names[1]}"]',
            f'[Forehand "{names[0]}"]',
            f'[Trump "{Card.parse(g.deal_turn_up)}"]',
            f'[Hands "{hands}"]',
            *remaining,
            "",
            *g.lines,
            "",
        ]
    )
    return g.played
