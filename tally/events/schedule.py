"""Round-robin schedules by the standard Berger tables.

Players are numbered 1..n in the order given and paired exactly as in the Berger tables FIDE
publishes (Handbook C.05, Annex 1, "Berger Tables for Round-Robin Tournaments"). For an even
``size`` the published table is the circle method:

* player ``size`` stays fixed and always sits at board 1; in odd rounds it is listed second,
  in even rounds first, so its role alternates;
* the other players sit on a ring; round 1 reads ``1-size, 2-(size-1), 3-(size-2), ...`` and
  each later round turns the ring by ``size/2`` places (``ring[i] = (i + (r-1)*size/2)
  mod (size-1) + 1``), board ``k > 1`` pairing ``ring[k-1]`` (listed first) with
  ``ring[size-k]``.

With an odd number of players a dummy number ``n+1`` is added; whoever meets it has the bye.
A double round robin plays the whole table a second time with first and second swapped. FIDE's
advice to reverse the order of the last two rounds of the first cycle (so that nobody plays
three games running in the same role across the cycles) is an option (``swap_last``): the
first cycle then plays the table's last round second to last and its second-to-last round
last, and the second cycle mirrors the table in its own order.

In card games the player listed first deals first (:func:`first_dealer`); the Berger tables
share that role out as evenly as a round robin allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tally.errors import N_, Message, Refused, TallyError

__all__ = [
    "Pairing",
    "Round",
    "berger_schedule",
    "berger_table",
    "check_player_names",
    "first_dealer",
    "rounds_for",
]


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: at ``table``, ``first`` (listed first by Berger) meets ``second``."""

    table: int
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its number (from 1), its pairings in table order, and who sits out, if anyone."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: str | None


def check_player_names(players: Sequence[str], *, minimum: int = 2) -> None:
    """Refuse a player list that cannot make an event.

    Raises :class:`~tally.errors.Refused` when there are fewer than ``minimum`` players, when a
    name is blank, or when two names are the same ignoring case and surrounding spaces
    (``"Anna"`` and ``" anna "`` would be impossible to tell apart on a score sheet).
    """
    if isinstance(players, str):
        raise TallyError(N_("players must be a list of names, not one string"))
    if len(players) < minimum:
        raise Refused(
            Message(
                N_("a round robin needs at least %(least)s players, got %(players)s"),
                least=minimum,
                players=len(players),
            )
        )
    seen: dict[str, str] = {}
    for name in players:
        key = name.strip().casefold()
        if not key:
            raise Refused(N_("a player's name cannot be blank"))
        if key in seen:
            raise Refused(
                Message(
                    N_("duplicate player name: %(first)s and %(second)s"),
                    first=repr(seen[key]),
                    second=repr(name),
                )
            )
        seen[key] = name


def rounds_for(n: int, double: bool = False) -> int:
    """How many rounds a round robin of ``n`` players takes (twice as many if ``double``).

    An even field needs ``n - 1`` rounds per cycle; an odd field needs ``n`` (one bye each).
    """
    if n < 2:
        raise Refused(
            Message(N_("a round robin needs at least 2 players, got %(players)s"), players=n)
        )
    per_cycle = n - 1 if n % 2 == 0 else n
    return per_cycle * (2 if double else 1)


def berger_table(size: int) -> list[tuple[tuple[int, int], ...]]:
    """The published Berger table for an even ``size``: per round, (first, second) per board.

    Numbers run from 1 to ``size``; board 1 is the pairing of the fixed player ``size``.
    """
    if size < 2 or size % 2:
        raise TallyError(
            Message(N_("a Berger table needs an even size of at least 2, got %(size)s"), size=size)
        )
    half = size // 2
    ring_size = size - 1
    table: list[tuple[tuple[int, int], ...]] = []
    for r in range(ring_size):
        ring = [(i + r * half) % ring_size + 1 for i in range(ring_size)]
        board_one = (ring[0], size) if r % 2 == 0 else (size, ring[0])
        others = tuple((ring[k - 1], ring[size - k]) for k in range(2, half + 1))
        table.append((board_one, *others))
    return table


def berger_schedule(
    players: Sequence[str], *, double: bool = False, swap_last: bool = False
) -> list[Round]:
    """Pair every player with every other (twice if ``double``) by the Berger tables.

    ``players[0]`` is number 1, ``players[1]`` number 2, and so on. With an odd number of
    players, the one paired with the dummy number ``n + 1`` has the bye that round; the tables
    actually played are then numbered 1, 2, ... in the published board order (the dummy's
    board 1 is left out, not left empty). In the second cycle of a double round robin the
    rounds are numbered on from the first cycle, each pairing keeps its table and the bye is
    repeated, but ``first`` and ``second`` are swapped. With ``swap_last`` (a double round
    robin only) the first cycle's last two rounds are played the other way round (FIDE's
    advice, Handbook C.05 Annex 1); the second cycle still mirrors the table in order.

    Raises :class:`~tally.errors.Refused` for fewer than 2 players or duplicate names.
    """
    check_player_names(players)
    names = list(players)
    size = len(names) + len(names) % 2
    dummy = len(names) + 1 if len(names) % 2 else None

    cycle: list[Round] = []
    for index, boards in enumerate(berger_table(size)):
        bye: str | None = None
        pairings: list[Pairing] = []
        for first, second in boards:
            if dummy in (first, second):
                bye = names[(second if first == dummy else first) - 1]
                continue
            pairings.append(Pairing(len(pairings) + 1, names[first - 1], names[second - 1]))
        cycle.append(Round(index + 1, tuple(pairings), bye))

    if not double:
        return cycle
    first_leg = cycle
    if swap_last and len(cycle) >= 2:
        *head, before_last, last = cycle
        first_leg = [
            *head,
            Round(before_last.number, last.pairings, last.bye),
            Round(last.number, before_last.pairings, before_last.bye),
        ]
    return_leg = [
        Round(
            len(cycle) + r.number,
            tuple(Pairing(p.table, p.second, p.first) for p in r.pairings),
            r.bye,
        )
        for r in cycle
    ]
    return first_leg + return_leg


def first_dealer(pairing: Pairing) -> str:
    """Who deals first in the match of ``pairing``: always ``pairing.first``.

    The player listed first in a Berger table (White, or the home side, in other games) deals
    the first hand. The tables alternate that role, so across a cycle each player of an even
    field deals first in ``n/2`` or ``n/2 - 1`` of their ``n - 1`` matches, and each player of
    an odd field in exactly half of their ``n - 1`` matches; in a double round robin each player
    deals first in exactly half of their matches, every pair once each way.
    """
    return pairing.first
