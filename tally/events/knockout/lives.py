"""Knockout with lives ("Preisschnapsen"): drawing each round by lot, counting lives, ranking
by the round of elimination.

Everything here is a pure function of player names (any text that tells players apart; the
store passes player numbers as text) and the results so far; nothing is stored.

**The draw** (:func:`draw_round`). Each round is drawn afresh among the players still in, by
a random generator seeded with the event's seed and the round number
(``random.Random("tally-knockout:SEED:ROUND")``; Python seeds from a text by its SHA-512, so
the same seed draws the same pairings on every machine and every run). The players, in the
order given (entry order), are shuffled; with an odd number one sits out (*bye*), drawn by
lot among those who have had the fewest byes so far. The rest are paired in the shuffled
order, each with the next one not their opponent of the round before ("no immediate
rematch"); a search with backtracking finds such a pairing whenever one exists (with four or
more players one always does). Avoiding a rematch comes first: if no player with the fewest
byes can sit out without two players meeting again (three players, two of whom just met and
the third having had fewer byes), the bye goes to the next candidate, by lot among those with
the next fewest byes, and so on. Only the last two players, having just
met, play each other again at once. Who deals first at each table is drawn
by lot too. Tables are numbered 1, 2, ... in drawn order.

**A seeded first round** (``seeded=True``: an event seeded by rating, docs/events.md). Round 1
is then not drawn but paired as a seeded bracket's first round: the players, in seeding order,
the first against the last, the second against the second to last, ...; with an odd number the
first seed sits out. Who deals first is still drawn by lot, and every later round is drawn by
lot as above: the seeding keeps the strongest apart at the start, the lot decides the rest.

**Filling the final stage** (:func:`draw_playoff`). When a round leaves fewer players still
in than the final stage holds (a final of 4 and three left), the players out in that round
play off for the places left, as clubs do: each play-off round is drawn by lot among those
still in the play-off (seeded as the draw, ``"tally-knockout-playoff:SEED:ROUND"``), with as
many matches as players must still drop out but no more than one per two players; the others
sit out that round (sitting out of a play-off is no bye: it scores nothing). The loser of a
play-off match is out of it; rounds follow until as many are left as there are places.

**Lives** (:func:`count_lives`). Every player starts with the event's lives. A lost match
costs one life; a won match and a bye cost nothing and earn nothing (a bye is not a match
played; what it scores in the ordinary standings is the event's ``bye`` rule). A player is
*out* in the round in which they lose their last life. A player who withdraws is out at once:
their remaining lives are gone, and they count as out in the last round started when they
withdrew (round 0: before the first round); a match of theirs not over costs their opponent
nothing. A late entry starts with full lives in the round they join.

**Buying back** ("Nachkauf", :func:`buy_back_refusal`). Where the event allows it, a player
out (not withdrawn) may buy back a life at a fee before the next round is drawn, as long as
that round is not later than the last round the director set, and as often as the event
allows (once by default, as most clubs do). They are in again with one life (not their
starting lives) and are drawn in the next round; the round they were out in before no longer
counts.

**Ranking** (:func:`rank_by_stage`). Players are ranked by how far they got: a *stage key*
per player, higher is better (for the lives stage ``(0, round out)`` for a player out and
``(1, lives left)`` for a player still in; a final stage or bracket adds higher keys, see
:mod:`tally.events.knockout.bracket`); players with the same stage key keep the order of the event's
ordinary standings (match points, then the event's tiebreaks) and share a rank where those
are level too. A play-off ("Stechen") between players who share a rank decides the order
between them: each play-off win against another player of the same shared rank counts,
more wins rank higher; players still level share the rank.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tally.errors import Message, Refused
from tally.events.schedule import Pairing
from tally.i18n import N_

__all__ = [
    "MAX_LIVES",
    "Draw",
    "LifeLine",
    "Outcome",
    "buy_back_refusal",
    "count_lives",
    "draw_playoff",
    "draw_round",
    "rank_by_stage",
]

#: The most lives a player may have (Preisschnapsen gives 3; anything beyond 9 is not a
#: knockout any more).
MAX_LIVES = 9

#: the refusals
TOO_FEW_IN = N_("a round needs at least 2 players still in, not %(n)s")
LISTED_TWICE = N_("a player is listed twice in the draw")
PLAYOFF_PLACES = N_("a play-off for %(places)s place(s) needs more players than places, not %(n)s")
LIVES_RANGE = N_("a knockout gives each player 1 to %(most)s lives, not %(lives)s")
NOT_A_PLAYER = N_("%(player)s is not a player of this knockout")
#: why a player may not buy back a life (:func:`buy_back_refusal`)
NO_BUY_BACKS = N_("cannot buy back: this event takes no buy-backs (Nachkauf)")
WITHDREW_NO_BUY_BACK = N_("withdrew: a player who withdrew cannot buy back")
STILL_IN_ONE_LIFE = N_("is still in (%(n)s life left)")
STILL_IN_LIVES = N_("is still in (%(n)s lives left)")
TOO_LATE = N_(
    "is too late: buy-backs are taken until round %(until)s and the next round is %(next)s"
)
TOO_LATE_AT_ONCE = N_(
    "is too late: this event takes a buy-back only straight after elimination, before round "
    "%(round)s"
)
BOUGHT_ENOUGH = N_("has bought back %(n)s time(s) already, the most this event allows")


@dataclass(frozen=True, slots=True)
class Draw:
    """Round ``number`` as drawn with ``seed``: pairings in table order (``first`` deals
    first) and who sits out, if anyone."""

    number: int
    seed: str
    pairings: tuple[Pairing, ...]
    bye: str | None


def _generator(seed: str, number: int) -> random.Random:
    """The seeded generator of round ``number``: the same on every machine and run."""
    return random.Random(f"tally-knockout:{seed}:{number}")


def _pair(order: list[str], last: Mapping[str, str]) -> list[tuple[str, str]] | None:
    """Pair ``order`` front to back, each player with the next one who was not their
    opponent of the round before; backtracks; None when no such pairing exists."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if last.get(first) == other or last.get(other) == first:
            continue
        tail = _pair(rest[:i] + rest[i + 1 :], last)
        if tail is not None:
            return [(first, other), *tail]
    return None


def draw_round(
    players: Sequence[str],
    *,
    seed: str,
    number: int,
    last_opponents: Mapping[str, str] | None = None,
    byes: Mapping[str, int] | None = None,
    seeded: bool = False,
) -> Draw:
    """Draw round ``number`` among ``players`` (those still in, in seeding order) by lot, as
    the module docstring says. ``last_opponents`` maps a player to their opponent of the
    round before, ``byes`` a player to the byes they have had; ``seeded``: round 1 pairs the
    seeding list first against last instead.

    >>> d = draw_round(list("ABCDE"), seed="x", number=1, seeded=True)
    >>> d.bye, [sorted((p.first, p.second)) for p in d.pairings]
    ('A', [['B', 'E'], ['C', 'D']])

    >>> d = draw_round(["A", "B", "C", "D", "E"], seed="x", number=1)
    >>> d == draw_round(["A", "B", "C", "D", "E"], seed="x", number=1)
    True
    >>> len(d.pairings), d.bye is not None
    (2, True)
    """
    if len(players) < 2:
        raise Refused(Message(TOO_FEW_IN, n=len(players)))
    if len(set(players)) != len(players):
        raise Refused(Message(LISTED_TWICE))
    last = dict(last_opponents or {})
    had = Counter(byes or {})
    rng = _generator(seed, number)
    if seeded and number == 1:
        return _seeded_first_round(list(players), seed, rng)
    order = list(players)
    rng.shuffle(order)
    candidates: list[str | None] = [None]
    if len(order) % 2:
        candidates = []
        for count in sorted({had[p] for p in order}):  # fewest byes first, by lot within
            group = [p for p in order if had[p] == count]
            rng.shuffle(group)
            candidates.extend(group)
    chosen: tuple[str | None, list[tuple[str, str]]] | None = None
    for bye in candidates:
        rest = [p for p in order if p != bye]
        pairs = _pair(rest, last)
        if pairs is not None:
            chosen = (bye, pairs)
            break
    if chosen is None:  # unavoidable: two (or three) players who just met
        bye = candidates[0]
        rest = [p for p in order if p != bye]
        chosen = (bye, [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)])
    bye, pairs = chosen
    pairings = []
    for table, (a, b) in enumerate(pairs, start=1):
        if rng.random() < 0.5:
            a, b = b, a
        pairings.append(Pairing(table, a, b))
    return Draw(number, seed, tuple(pairings), bye)


def _seeded_first_round(order: list[str], seed: str, rng: random.Random) -> Draw:
    """Round 1 of a seeded event: first seed against last, ...; the first seed sits out when
    the number is odd; who deals first by lot."""
    bye = order.pop(0) if len(order) % 2 else None
    pairings = []
    for table in range(1, len(order) // 2 + 1):
        a, b = order[table - 1], order[-table]
        if rng.random() < 0.5:
            a, b = b, a
        pairings.append(Pairing(table, a, b))
    return Draw(1, seed, tuple(pairings), bye)


def draw_playoff(players: Sequence[str], places: int, *, seed: str, number: int) -> Draw:
    """Round ``number`` of the play-off for the last ``places`` of a final stage among
    ``players`` (those still in the play-off, in entry order), as the module docstring says;
    nobody has a bye (those not drawn sit out).

    >>> d = draw_playoff(["A", "B", "C", "D"], 3, seed="x", number=9)
    >>> len(d.pairings), d.bye
    (1, None)
    >>> len(draw_playoff(["A", "B", "C", "D", "E"], 1, seed="x", number=9).pairings)
    2
    """
    if not 1 <= places < len(players):
        raise Refused(Message(PLAYOFF_PLACES, places=places, n=len(players)))
    if len(set(players)) != len(players):
        raise Refused(Message(LISTED_TWICE))
    rng = random.Random(f"tally-knockout-playoff:{seed}:{number}")
    order = list(players)
    rng.shuffle(order)
    tables = min(len(order) - places, len(order) // 2)
    pairings = []
    for table in range(1, tables + 1):
        a, b = order[2 * table - 2], order[2 * table - 1]
        if rng.random() < 0.5:
            a, b = b, a
        pairings.append(Pairing(table, a, b))
    return Draw(number, seed, tuple(pairings), None)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A match of round ``round``: ``first`` against ``second``, ``loser`` once it is
    decided (None while it is played, or when it does not count)."""

    round: int
    first: str
    second: str
    loser: str | None


@dataclass(frozen=True, slots=True)
class LifeLine:
    """One player's way through the rounds: lives left, the round they were out in (None
    while still in), whether they withdrew, their byes, and a mark per round from 1:
    ``"W"`` won, ``"L"`` lost (a life), ``"B"`` bye, ``"?"`` playing, ``"-"`` not playing
    (out, withdrawn, not entered yet, or the match did not count)."""

    player: str
    lives: int
    out_in: int | None
    withdrawn: bool
    byes: int
    marks: tuple[str, ...]

    @property
    def still_in(self) -> bool:
        """True while the player has lives left and has not withdrawn."""
        return self.out_in is None

    @property
    def stage_key(self) -> tuple[int, int]:
        """The key :func:`rank_by_stage` ranks the lives stage by (higher is better)."""
        return (1, self.lives) if self.out_in is None else (0, self.out_in)


def count_lives(
    players: Sequence[str],
    lives: int,
    rounds: int,
    outcomes: Sequence[Outcome],
    byes: Mapping[int, str | None],
    *,
    withdrawn: Mapping[str, int] | None = None,
    bought: Mapping[str, Sequence[int]] | None = None,
) -> list[LifeLine]:
    """Each player's lives after ``rounds`` rounds, in the order of ``players``.

    ``outcomes`` are the matches of those rounds, ``byes`` who sat out each round,
    ``withdrawn`` the round each withdrawn player is counted out in (the last round started
    when they withdrew; 0 before the first). A late entry simply has no match before the
    round they joined. ``bought`` holds each player's buy-backs (:func:`buy_back`): the
    rounds they bought a life back after. See the module docstring.

    >>> out = [Outcome(1, "A", "B", "B"), Outcome(2, "A", "B", "B")]
    >>> [(x.player, x.lives, x.out_in, x.marks) for x in
    ...  count_lives(["A", "B"], 2, 2, out, {})]
    [('A', 2, None, ('W', 'W')), ('B', 0, 2, ('L', 'L'))]
    """
    if not 1 <= lives <= MAX_LIVES:
        raise Refused(Message(LIVES_RANGE, most=MAX_LIVES, lives=lives))
    gone = dict(withdrawn or {})
    left = {p: lives for p in players}
    out: dict[str, int] = {}
    marks, had = _bye_marks(players, rounds, byes)
    back = sorted((number, p) for p, numbers in (bought or {}).items() for number in numbers)
    for o in sorted(outcomes, key=lambda o: o.round):
        if not 1 <= o.round <= rounds:
            continue
        while back and back[0][0] < o.round:
            _buy_back(back.pop(0)[1], left, out)
        for p in (o.first, o.second):
            if p not in left:
                raise Refused(Message(NOT_A_PLAYER, player=repr(p)))
        if o.loser is None:  # still played, or not counting (a player withdrew)
            mark = "-" if o.first in gone or o.second in gone else "?"
            marks[o.first][o.round - 1] = marks[o.second][o.round - 1] = mark
            continue
        winner = o.second if o.loser == o.first else o.first
        marks[winner][o.round - 1] = "W"
        marks[o.loser][o.round - 1] = "L"
        if o.loser in out:
            continue
        left[o.loser] -= 1
        if left[o.loser] <= 0:
            out[o.loser] = o.round
    for _, p in back:
        _buy_back(p, left, out)
    for p, number in gone.items():
        if p in left and p not in out:
            out[p] = number
            left[p] = 0
    return [
        LifeLine(p, max(left[p], 0), out.get(p), p in gone, had[p], tuple(marks[p]))
        for p in players
    ]


def _bye_marks(
    players: Sequence[str], rounds: int, byes: Mapping[int, str | None]
) -> tuple[dict[str, list[str]], Counter[str]]:
    """Each player's marks per round with their byes marked (``"B"``), and their byes."""
    marks = {p: ["-"] * rounds for p in players}
    had: Counter[str] = Counter()
    for number, player in byes.items():
        if player is not None and player in marks and 1 <= number <= rounds:
            marks[player][number - 1] = "B"
            had[player] += 1
    return marks, had


def _buy_back(player: str, left: dict[str, int], out: dict[str, int]) -> None:
    """A buy-back ("Nachkauf"): a player out is in again with one life."""
    if player in out:
        del out[player]
        left[player] = 1


def buy_back_refusal(
    lives: int,
    out_in: int | None,
    withdrawn: bool,
    bought: int,
    *,
    next_round: int,
    until: int | None,
    most: int,
    at_once: bool = False,
) -> Message | None:
    """Why a player may not buy back a life before round ``next_round`` (None: they may).
    They must be out (lost their last life, not withdrawn), the event must take buy-backs
    up to round ``until`` (the last round a bought-back player may join), and they must
    have had fewer than ``most`` buy-backs; with ``at_once`` only before the round straight
    after the one they were out in.

    >>> buy_back_refusal(0, 2, False, 0, next_round=3, until=3, most=1) is None
    True
    >>> str(buy_back_refusal(0, 2, False, 1, next_round=3, until=3, most=1))
    'has bought back 1 time(s) already, the most this event allows'
    >>> str(buy_back_refusal(0, 2, False, 0, next_round=4, until=5, most=1, at_once=True))
    'is too late: this event takes a buy-back only straight after elimination, before round 3'
    """
    if until is None:
        return Message(NO_BUY_BACKS)
    if withdrawn:
        return Message(WITHDREW_NO_BUY_BACK)
    if out_in is None or lives > 0:
        return Message(STILL_IN_ONE_LIFE if lives == 1 else STILL_IN_LIVES, n=lives)
    if next_round > until:
        return Message(TOO_LATE, until=until, next=next_round)
    if at_once and next_round != out_in + 1:
        return Message(TOO_LATE_AT_ONCE, round=out_in + 1)
    if bought >= most:
        return Message(BOUGHT_ENOUGH, n=bought)
    return None


def rank_by_stage(
    order: Sequence[str],
    field_rank: Mapping[str, int],
    stage: Mapping[str, tuple[int, ...]],
    playoffs: Sequence[tuple[str, str]] = (),
) -> list[tuple[int, str]]:
    """``(rank, player)`` best first: by ``stage`` key (higher is better), then by the rank
    in the ordinary standings (``field_rank``, lower is better), then by the play-offs
    (``(winner, loser)`` pairs) among players still sharing a rank; players still level
    share the rank and keep the order of ``order``. See the module docstring.

    >>> rank_by_stage(["A", "B", "C"], {"A": 1, "B": 1, "C": 1},
    ...               {"A": (0, 2), "B": (0, 2), "C": (0, 3)}, [("B", "A")])
    [(1, 'C'), (2, 'B'), (3, 'A')]
    """
    position = {p: i for i, p in enumerate(order)}

    def key(p: str) -> tuple[tuple[int, ...], int]:
        return tuple(-x for x in stage[p]), field_rank[p]

    ordered = sorted(order, key=lambda p: (key(p), position[p]))
    groups: list[list[str]] = []
    for p in ordered:
        if groups and key(groups[-1][-1]) == key(p):
            groups[-1].append(p)
        else:
            groups.append([p])
    out: list[tuple[int, str]] = []
    for group in groups:
        members = set(group)
        wins = Counter(w for w, loser in playoffs if w in members and loser in members)
        parts: list[list[str]] = []
        for p in sorted(group, key=lambda p: (-wins[p], position[p])):
            if parts and wins[parts[-1][-1]] == wins[p]:
                parts[-1].append(p)
            else:
                parts.append([p])
        for part in parts:
            rank = len(out) + 1
            out.extend((rank, p) for p in part)
    return out
