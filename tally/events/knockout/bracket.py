"""Straight knockout brackets and groups: snake seeding into groups, seeding a bracket (also
across groups), and the bracket's rounds as results come in.

Pure functions of player names (the store passes player numbers as text); nothing is stored.

**A bracket** has a power-of-two number of *slots* (:func:`bracket_size`); slot ``2i`` meets
slot ``2i + 1`` in round 1 (table ``i + 1``), the winners of tables ``2i + 1`` and ``2i + 2``
meet at table ``i + 1`` of the next round, and so on to the final. An empty slot (None) is a
*bye*: its opponent goes through without a match. Two slots ``i`` and ``j`` can meet at the
earliest in round ``(i ^ j).bit_length()``.

**Seeding** (:func:`seeded_slots`): seed 1 and seed 2 can meet only in the final, seeds 1 to
4 only in the semi-finals, and so on (the standard order, :func:`seed_order`); in round 1
seed ``s`` meets seed ``size + 1 - s``, so with fewer players than slots the best seeds get
the byes.

**Groups** (:func:`snake_groups`): players in entry order are dealt into groups as a snake, 1
to A, 2 to B, ..., G to the last group, G+1 to the last group again and back, so every group
gets a fair share of the seeds. **Across groups** (:func:`group_slots`): the qualifiers are
seeded rank by rank (all group winners first, in group order, then the runners-up, ...) into
the standard order; then, to keep players of one group apart as long as possible, two players
of the same rank in their groups swap slots wherever that makes players of one group meet later
(a cost of ``4 ** (rounds - r)`` for each pair of one group that could meet in round ``r``; the
best swap is made until none helps, the one furthest down the bracket of equally good ones, so
the top seeds keep their slots and the result is the same on every run). Swapping only players
of the same rank keeps group winners against runners-up of other groups in round 1 (with two
qualifiers per group) and the byes with the best-placed qualifiers.

**Best of N** (:func:`series`): a bracket's pairings may be played best of N matches (N odd,
:func:`check_best_of`): the pairing is decided when one player has won ``(N + 1) / 2`` of
them; the matches after that are not needed and count nowhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tally.errors import Message, Refused
from tally.i18n import N_

__all__ = [
    "MAX_BEST_OF",
    "TBD",
    "BracketMatch",
    "bracket_rounds",
    "bracket_size",
    "champion",
    "check_best_of",
    "group_slots",
    "reached",
    "seed_order",
    "seeded_slots",
    "series",
    "snake_groups",
]

#: the refusals
BRACKET_HOLDS = N_("a bracket holds 2 to %(most)s players, not %(players)s")
POWER_OF_TWO = N_("a bracket has a power of two slots, not %(size)s")
BEST_OF = N_(
    "--best-of: a pairing of the bracket plays best of 1, 3, 5, 7 or 9 matches (an odd number, "
    "so that one player wins), not %(n)s"
)
ONE_GROUP = N_("there must be at least 1 group, not %(groups)s")
DID_NOT_PLAY = N_("%(winner)s did not play at table %(table)s of round %(round)s")
SEEDED_TWICE = N_("a player is seeded twice in the bracket")

#: A slot of a later round whose player is not known yet (the match feeding it is not
#: decided). Player names are never blank, so the empty text cannot be a player.
TBD = ""

#: The largest bracket tally makes (64 players; a Preisschnapsen final is 8 or 16).
MAX_BRACKET = 128


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players`` (at least 2).

    >>> bracket_size(6), bracket_size(8), bracket_size(2)
    (8, 8, 2)
    """
    if not 2 <= players <= MAX_BRACKET:
        raise Refused(Message(BRACKET_HOLDS, most=MAX_BRACKET, players=players))
    size = 2
    while size < players:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """The seed (from 1) in each slot of a bracket of ``size`` slots, standard order.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 2 or size & (size - 1):
        raise Refused(Message(POWER_OF_TWO, size=size))
    order = [1, 2]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [x for s in order for x in (s, n - s)]
    return order


def seeded_slots(entries: Sequence[str]) -> tuple[str | None, ...]:
    """The slots of a bracket for ``entries`` in seed order (best first); None for a bye.

    >>> seeded_slots(["A", "B", "C"])
    ('A', None, 'B', 'C')
    """
    if len(set(entries)) != len(entries):
        raise Refused(Message(SEEDED_TWICE))
    size = bracket_size(len(entries))
    return tuple(entries[s - 1] if s <= len(entries) else None for s in seed_order(size))


#: The longest series a pairing of the bracket plays (best of 1, 3, 5, 7 or 9 matches).
MAX_BEST_OF = 9


def check_best_of(best_of: int) -> int:
    """``best_of`` if a bracket's pairings can be played best of it (odd, 1 to 9)."""
    if not 1 <= best_of <= MAX_BEST_OF or best_of % 2 == 0:
        raise Refused(Message(BEST_OF, n=best_of))
    return best_of


def series(winners: Sequence[str | None], best_of: int) -> tuple[str | None, int]:
    """A pairing played best of ``best_of`` matches: ``winners`` of its matches in the order
    played (None: not over). The pairing's winner (None while undecided): the first to win
    ``(best_of + 1) // 2`` matches; and how many matches count (those up to the deciding
    one; the rest are not needed and count nowhere).

    >>> series(["A", "B", "A", None], 3)
    ('A', 3)
    >>> series(["A", None, None], 3)
    (None, 3)
    """
    need = (best_of + 1) // 2
    won: dict[str, int] = {}
    for i, w in enumerate(winners):
        if w is None:
            continue
        won[w] = won.get(w, 0) + 1
        if won[w] >= need:
            return w, i + 1
    return None, len(winners)


def snake_groups(players: Sequence[str], groups: int) -> list[list[str]]:
    """``players`` in entry order dealt into ``groups`` groups as a snake.

    >>> snake_groups(["1", "2", "3", "4", "5", "6", "7", "8"], 3)
    [['1', '6', '7'], ['2', '5', '8'], ['3', '4']]
    """
    if groups < 1:
        raise Refused(Message(ONE_GROUP, groups=groups))
    out: list[list[str]] = [[] for _ in range(groups)]
    for i, p in enumerate(players):
        row, col = divmod(i, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(p)
    return out


def _meets_in(i: int, j: int) -> int:
    return (i ^ j).bit_length()


def group_slots(qualifiers: Sequence[Sequence[str]]) -> tuple[str | None, ...]:
    """The bracket slots for each group's qualifiers (``qualifiers[g]``: group ``g``'s in
    rank order), seeded across groups as the module docstring says.

    >>> group_slots([["A1", "A2"], ["B1", "B2"], ["C1", "C2"], ["D1", "D2"]])
    ('A1', 'D2', 'C1', 'B2', 'B1', 'C2', 'D1', 'A2')
    """
    ranked = [
        g[r]
        for r in range(max((len(g) for g in qualifiers), default=0))
        for g in qualifiers
        if r < len(g)
    ]
    group_of = {p: gi for gi, g in enumerate(qualifiers) for p in g}
    tier_of = {p: r for g in qualifiers for r, p in enumerate(g)}
    slots = list(seeded_slots(ranked))
    rounds = len(slots).bit_length() - 1

    def cost(s: list[str | None]) -> int:
        total = 0
        for i, a in enumerate(s):
            if a is None:
                continue
            for j in range(i + 1, len(s)):
                b = s[j]
                if b is not None and group_of[a] == group_of[b]:
                    total += 4 ** (rounds - _meets_in(i, j))
        return total

    current = cost(slots)
    while current:
        best: tuple[int, int, int] | None = None
        for i, a in enumerate(slots):
            for j in range(i + 1, len(slots)):
                b = slots[j]
                if a is None or b is None or tier_of[a] != tier_of[b]:
                    continue
                slots[i], slots[j] = b, a
                c = cost(slots)
                slots[i], slots[j] = a, b
                if c < current and (best is None or c <= best[0]):
                    best = (c, i, j)
        if best is None:
            break
        current, i, j = best
        slots[i], slots[j] = slots[j], slots[i]
    return tuple(slots)


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A match of a bracket: round ``round`` (from 1), ``table`` (from 1), ``first`` and
    ``second`` (None: nobody, a bye; :data:`TBD`: the match feeding the slot is not decided
    yet) and ``winner`` once decided (None otherwise, also when nobody goes through).

    ``bye`` is True when one side is nobody: the other goes through without a match."""

    round: int
    table: int
    first: str | None
    second: str | None
    winner: str | None
    decided: bool

    @property
    def bye(self) -> bool:
        """True when one side is a bye (nobody) and the other goes through unplayed."""
        return (self.first is None) != (self.second is None)

    @property
    def playable(self) -> bool:
        """True when both players are known: a match is played here."""
        return self.first not in (None, TBD) and self.second not in (None, TBD)


def bracket_rounds(
    slots: Sequence[str | None], results: Mapping[tuple[int, int], str | None]
) -> list[list[BracketMatch]]:
    """Every round of the bracket ``slots`` with what is decided: ``results[(round, table)]``
    is the winner of that match (None: nobody goes through, both players having withdrawn).
    A bye is decided by itself.

    >>> r = bracket_rounds(["A", None, "B", "C"], {(1, 2): "C"})
    >>> [(m.first, m.second, m.winner) for m in r[1]]
    [('A', 'C', None)]
    """
    size = len(slots)
    if size < 2 or size & (size - 1):
        raise Refused(Message(POWER_OF_TWO, size=size))
    out: list[list[BracketMatch]] = []
    current: list[str | None] = list(slots)
    number = 1
    while len(current) > 1:
        matches: list[BracketMatch] = []
        nxt: list[str | None] = []
        for t in range(len(current) // 2):
            a, b = current[2 * t], current[2 * t + 1]
            winner: str | None
            if TBD in (a, b):
                winner, decided = None, False
            elif a is None or b is None:
                winner, decided = (a if b is None else b), True
            elif (number, t + 1) in results:
                winner, decided = results[(number, t + 1)], True
                if winner not in (a, b, None):
                    raise Refused(Message(DID_NOT_PLAY, winner=winner, table=t + 1, round=number))
            else:
                winner, decided = None, False
            matches.append(BracketMatch(number, t + 1, a, b, winner, decided))
            nxt.append(winner if decided else TBD)
        out.append(matches)
        current = nxt
        number += 1
    return out


def champion(rounds: Sequence[Sequence[BracketMatch]]) -> str | None:
    """The winner of the final, once decided."""
    final = rounds[-1][0]
    return final.winner if final.decided else None


def reached(rounds: Sequence[Sequence[BracketMatch]]) -> dict[str, int]:
    """How far each player of the bracket got: the round they lost (or are still playing)
    in, ``len(rounds) + 1`` for the champion; a player with a bye counts from the round they
    first played or passed. Higher is better.

    >>> reached(bracket_rounds(["A", "B", "C", "D"], {(1, 1): "A", (1, 2): "D", (2, 1): "D"}))
    {'A': 2, 'B': 1, 'C': 1, 'D': 3}
    """
    out: dict[str, int] = {}
    for matches in rounds:
        for m in matches:
            for p in (m.first, m.second):
                if p not in (None, TBD):
                    out[p] = m.round
            if m.decided and m.winner is not None and m.round == len(rounds):
                out[m.winner] = len(rounds) + 1
    return out
