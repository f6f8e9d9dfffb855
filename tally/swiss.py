"""Swiss-system pairings for card games: who meets whom in the next round, who deals first,
who sits out.

A Swiss event plays a fixed number of rounds; each round pairs players with equal or close
match points who have not met yet. :func:`pair_round` pairs one round from the players still
in the event, given **in the order of the standings** (best first; players level on everything
in order of entry number), each with their match points, the opponents met so far, their
byes and their first deals (:class:`SwissPlayer`; :func:`swiss_players` makes them from the
rounds played). It is a pure function: the same players give the same pairings.

The rules, in order of priority:

1. **No rematch.** Two players who have met (in any earlier round) are never paired again.
   This is absolute: when no pairing of the round avoids every rematch, :func:`pair_round`
   raises :class:`~tally.errors.NoPairing` instead of pairing anyone twice.
2. **The bye.** With an odd number of players one sits out. The bye goes to the
   *lowest-ranked* player among those with the *fewest byes so far* (so nobody has a second
   bye while another player has had none) for whom the others can still be paired without a
   rematch; only if no such player exists does it go to the lowest-ranked of those with one
   bye more, and so on. What a bye scores is the event's rule (``bye = none`` or ``win``).
3. **Pairing always succeeds when a legal pairing exists.** Players are paired top-down: the
   highest-ranked unpaired player takes the first opponent in their order of preference
   (below) *for whom the rest can still be paired*; that is decided exactly by Edmonds'
   blossom algorithm (a maximum matching of the graph of players who may still meet, kept up
   to date with one augmenting-path search per choice), never by trial and error. So the
   pairing is found whenever one exists, also late in an event when many pairs have met, and
   128 players pair in well under a second.
4. **Score groups and floaters.** A player prefers opponents with the same match points
   (their *score group*), then those with the closest match points (a *floater* leaves their
   group: since pairing runs top-down, the player left over in an odd group, or one whose
   group has no opponent left they have not met, floats down to the next group, where they
   meet its highest-ranked player first). Among opponents equally close in points, one is
   preferred who leaves the score groups below able to make as many pairs among themselves
   as any other choice would (so a floater does not take the one player a lower group needed
   to pair within itself: counted exactly, with a maximum matching of the players of equal
   points who may meet).
5. **Dealer balance.** Card games have no colours; the first deal takes their place. A
   player's *balance* is the matches they dealt first minus those they dealt second. Among
   opponents with equally close match points, those who would not push either player's
   balance to 2 are preferred (two players who both dealt first once more than second are
   paired only when nobody else of that closeness is left).
6. **Order within a score group** (the Dutch fold): the group's top half meets its bottom
   half in order, 1st against ``g//2 + 1``-th, 2nd against ``g//2 + 2``-th, and so on (``g``
   the players of the group left to pair; with an odd ``g`` the last one floats down). When
   the natural opponent cannot be taken, the next ones down the bottom half are tried, then
   back up the top half; in another score group, opponents are tried by rank.

**Who deals first** in a pairing: the player with the lower balance; on equal balance, when
the two had different roles in their latest pairings, the one who dealt second then; failing
that, the higher-ranked player takes the role opposite to the one they had last (or the
lower-ranked one does, if only they have played); when neither has dealt
yet (round 1, a late entry), the higher-ranked player deals first at odd tables and second at
even ones. Over the rounds this keeps every balance at -1, 0 or 1 whenever rule 5 finds a
partner, which in practice is nearly always.

**Tables** are numbered in the order of pairing: table 1 has the highest-ranked pairing.

Ties everywhere are broken by the order of the list given (the standings, then the entry
number), so the pairings are deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tally.errors import NoPairing, TallyError

__all__ = ["Played", "SwissPairing", "SwissPlayer", "SwissRound", "pair_round", "swiss_players"]

#: match points this close are the same score (they are sums of floats such as 0.5)
_DIGITS = 9


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """A player to be paired: ``key`` names them; ``points`` are their match points so far;
    ``met`` the keys of the opponents they have played; ``byes`` how many rounds they sat out
    with a bye; ``first_deals`` and ``second_deals`` how many pairings they dealt first or
    second in; ``last_first`` whether they dealt first in their latest pairing (None before
    their first)."""

    key: str
    points: float = 0.0
    met: frozenset[str] = field(default_factory=frozenset)
    byes: int = 0
    first_deals: int = 0
    second_deals: int = 0
    last_first: bool | None = None

    @property
    def balance(self) -> int:
        """First deals minus second deals: above 0, the player should deal second next."""
        return self.first_deals - self.second_deals


@dataclass(frozen=True, slots=True)
class Played:
    """A pairing of an earlier round: in round ``round``, ``first`` dealt first against
    ``second``."""

    round: int
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class SwissPairing:
    """A pairing of the new round: at ``table``, ``first`` deals first against ``second``."""

    table: int
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class SwissRound:
    """The pairings of one round in table order, and who has the bye (None for nobody)."""

    number: int
    pairings: tuple[SwissPairing, ...]
    bye: str | None


def swiss_players(order: Sequence[str], points: Mapping[str, float],
                  played: Sequence[Played], byes: Mapping[str, int]) -> list[SwissPlayer]:
    """The players ``order`` names (in that order) with what :func:`pair_round` needs, from
    the pairings of the rounds played and the byes had so far.

    >>> ps = swiss_players(["a", "b", "c"], {"a": 1.0}, [Played(1, "a", "b")], {"c": 1})
    >>> ps[0].met, ps[0].balance, ps[1].last_first, ps[2].byes
    (frozenset({'b'}), 1, False, 1)
    """
    met: dict[str, set[str]] = {k: set() for k in order}
    first: dict[str, int] = dict.fromkeys(order, 0)
    second: dict[str, int] = dict.fromkeys(order, 0)
    last: dict[str, tuple[int, bool]] = {}
    for p in sorted(played, key=lambda x: x.round):
        for me, other, dealt_first in ((p.first, p.second, True), (p.second, p.first, False)):
            if me not in met:
                continue  # a player no longer in the event
            met[me].add(other)
            (first if dealt_first else second)[me] += 1
            last[me] = (p.round, dealt_first)
    return [SwissPlayer(k, float(points.get(k, 0.0)), frozenset(met[k]), int(byes.get(k, 0)),
                        first[k], second[k], last[k][1] if k in last else None)
            for k in order]


def pair_round(players: Sequence[SwissPlayer], number: int = 1) -> SwissRound:
    """Pair round ``number`` of the ``players`` still in the event, given in the order of the
    standings (see the module docstring for the rules).

    Raises :class:`~tally.errors.NoPairing` when no pairing without a rematch exists, and
    :class:`~tally.errors.TallyError` for a player listed twice.

    >>> r = pair_round([SwissPlayer(k) for k in "abcde"])
    >>> [(p.table, p.first, p.second) for p in r.pairings], r.bye
    ([(1, 'a', 'c'), (2, 'd', 'b')], 'e')
    """
    keys = [p.key for p in players]
    if len(set(keys)) != len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise TallyError(f"{twice!r} is listed twice for the pairings")
    # the standings' order, made safe: a stable sort by match points keeps its tie order
    ps = sorted(players, key=lambda p: -round(p.points, _DIGITS))
    n = len(ps)
    adj: list[set[int]] = [set() for _ in ps]
    for i, p in enumerate(ps):
        for j, q in enumerate(ps):
            if i != j and q.key not in p.met and p.key not in q.met:
                adj[i].add(j)
    alive = [True] * n
    bye, mate = _choose_bye(ps, adj, alive)
    if mate is None:
        raise NoPairing(f"round {number}: no pairing of the {n} players avoids a rematch "
                        "(every possible pairing has two players who met already)")
    pairs = _pair_top_down(ps, adj, alive, mate)
    pairings = tuple(_seat(ps, a, b, table)
                     for table, (a, b) in enumerate(pairs, start=1))
    return SwissRound(number, pairings, None if bye is None else ps[bye].key)


def _choose_bye(ps: Sequence[SwissPlayer], adj: list[set[int]], alive: list[bool]
                ) -> tuple[int | None, list[int] | None]:
    """Who sits out (None with an even number) and a perfect matching of the others (None if
    there is none); marks the bye as no longer ``alive``."""
    n = len(ps)
    if n % 2 == 0:
        return None, _perfect_matching(adj, alive)
    for level in sorted({p.byes for p in ps}):
        for i in reversed(range(n)):
            if ps[i].byes != level:
                continue
            alive[i] = False
            mate = _perfect_matching(adj, alive)
            if mate is not None:
                return i, mate
            alive[i] = True
    return None, None


def _pair_top_down(ps: Sequence[SwissPlayer], adj: list[set[int]], alive: list[bool],
                   mate: list[int]) -> list[tuple[int, int]]:
    """Pair the players still ``alive`` top-down, each taking their first preferred opponent
    for whom the rest can still be paired (``mate``, a perfect matching of the alive players,
    is kept one).

    Beside it, ``inside`` is kept a maximum matching of the graph of players who may meet
    *and have the same match points*: its size is the most pairs the score groups left could
    still make among themselves, which a choice must not lower where another choice at the
    same distance in points does not (:func:`_choose`)."""
    level = [round(p.points, _DIGITS) for p in ps]
    same = [{j for j in adj[i] if level[j] == level[i]} for i in range(len(ps))]
    inside = _maximum_matching(same, alive)
    pairs: list[tuple[int, int]] = []
    while True:
        remaining = [i for i in range(len(ps)) if alive[i]]
        if not remaining:
            return pairs
        top = remaining[0]
        tiers: dict[float, list[int]] = {}
        for other in _preferences(ps, adj, top, remaining):
            tiers.setdefault(round(abs(level[top] - level[other]), _DIGITS), []).append(other)
        for distance, tier in tiers.items():
            chosen = _choose(same, adj, alive, mate, inside, top, tier, distance == 0)
            if chosen is not None:
                pairs.append((top, chosen))
                break
        else:  # pragma: no cover - the matching guarantees a partner
            raise NoPairing("no opponent left for the top player")


def _preferences(ps: Sequence[SwissPlayer], adj: list[set[int]], top: int,
                 remaining: list[int]) -> list[int]:
    """``top``'s possible opponents among ``remaining``, most preferred first: closest match
    points, then no dealer conflict, then the fold within the score group (or rank in another
    group). (:func:`_pair_top_down` puts the score-group lookahead between the first two.)"""
    mine = round(ps[top].points, _DIGITS)
    group = [i for i in remaining if round(ps[i].points, _DIGITS) == mine]
    half = len(group) // 2
    fold = group[half:] + group[1:half][::-1]
    position = {i: k for k, i in enumerate(fold)}
    want = _sign(ps[top].balance)

    def key(i: int) -> tuple[float, int, int]:
        diff = round(abs(mine - ps[i].points), _DIGITS)
        conflict = int(want != 0 and want == _sign(ps[i].balance))
        return diff, conflict, position.get(i, len(fold) + i)

    return sorted((i for i in remaining if i != top and i in adj[top]), key=key)


def _choose(same: list[set[int]], adj: list[set[int]], alive: list[bool], mate: list[int],
            inside: list[int], top: int, tier: list[int], same_score: bool) -> int | None:
    """``top``'s opponent from ``tier`` (equally close in points, in order of preference):
    the first one who leaves the score groups the most pairs among themselves (the pair
    itself counted when it is one of them) and for whom the rest can still be paired, or
    None; ``inside`` is brought up to date. Worked out lazily: an opponent who leaves as many
    as could be left at all is taken at once."""
    size = _pairs(inside)
    best = size if same_score else _without(same, alive, inside, (top,))[0]
    values: dict[int, tuple[int, list[int]]] = {}
    for other in tier:
        after, matching = _without(same, alive, inside, (top, other))
        values[other] = (after + same_score, matching)
        if after + same_score >= best and _take(adj, alive, mate, top, other):
            inside[:] = matching
            return other
    for other in sorted(tier, key=lambda o: -values[o][0]):
        if values[other][0] < best and _take(adj, alive, mate, top, other):
            inside[:] = values[other][1]
            return other
    return None


def _pairs(matching: list[int]) -> int:
    return sum(1 for i, m in enumerate(matching) if m > i)


def _without(same: list[set[int]], alive: list[bool], inside: list[int],
             removed: tuple[int, ...]) -> tuple[int, list[int]]:
    """The maximum matching of the same-score graph without the ``removed`` players (from
    ``inside``, a maximum matching with them) and its number of pairs."""
    after = list(inside)
    freed = [after[x] for x in removed if after[x] != -1 and after[x] not in removed]
    for x in removed:
        if after[x] != -1:
            after[after[x]] = -1
            after[x] = -1
    for x in removed:
        alive[x] = False
    for f in freed:
        if after[f] == -1:  # the first path may have ended at the second
            _augment(same, alive, after, f)
    for x in removed:
        alive[x] = True
    return _pairs(after), after


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _take(adj: list[set[int]], alive: list[bool], mate: list[int], a: int, b: int) -> bool:
    """Pair ``a`` with ``b`` if the other alive players can still all be paired: then mark
    both as paired, keep ``mate`` a perfect matching of the rest and say True; otherwise leave
    everything as it was and say False."""
    if mate[a] == b:
        alive[a] = alive[b] = False
        return True
    saved = list(mate)
    ma, mb = mate[a], mate[b]
    alive[a] = alive[b] = False
    mate[a] = mate[b] = mate[ma] = mate[mb] = -1
    # only ma and mb are unmatched now: a perfect matching exists iff a path joins them
    if _augment(adj, alive, mate, ma):
        return True
    mate[:] = saved
    alive[a] = alive[b] = True
    return False


def _perfect_matching(adj: list[set[int]], alive: list[bool]) -> list[int] | None:
    """A perfect matching of the alive players (``mate[i]`` is i's partner, -1 for the
    others), or None when there is none."""
    mate = _maximum_matching(adj, alive)
    return mate if all(mate[i] != -1 for i in range(len(adj)) if alive[i]) else None


def _maximum_matching(adj: list[set[int]], alive: list[bool]) -> list[int]:
    """A maximum matching of the alive players: greedy, then an augmenting path from every
    player left over (Edmonds; a player with none now never gets one later)."""
    n = len(adj)
    mate = [-1] * n
    for i in range(n):
        if alive[i] and mate[i] == -1:
            for j in sorted(adj[i]):
                if alive[j] and mate[j] == -1:
                    mate[i], mate[j] = j, i
                    break
    for i in range(n):
        if alive[i] and mate[i] == -1:
            _augment(adj, alive, mate, i)
    return mate


def _augment(adj: list[set[int]], alive: list[bool], mate: list[int], root: int) -> bool:
    """Edmonds' blossom search for an augmenting path from the unmatched ``root`` over the
    alive players; if one is found, ``mate`` is augmented along it and True returned."""
    n = len(adj)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adj[v]:
            if not alive[to] or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                top = lca(v, to)
                blossom = [False] * n
                mark(v, top, to, blossom)
                mark(to, top, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:  # flip the path back to the root
                        prev = parent[to]
                        nxt = mate[prev]
                        mate[to], mate[prev] = prev, to
                        to = nxt
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


def _seat(ps: Sequence[SwissPlayer], a: int, b: int, table: int) -> SwissPairing:
    """The pairing of ``a`` (the higher-ranked) and ``b`` at ``table``, the first dealer
    chosen by the dealer balance (module docstring)."""
    p, q = ps[a], ps[b]
    if p.balance != q.balance:
        a_first = p.balance < q.balance
    elif p.last_first is not None and q.last_first is not None and \
            p.last_first != q.last_first:
        a_first = not p.last_first
    elif p.last_first is not None:
        a_first = not p.last_first
    elif q.last_first is not None:
        a_first = q.last_first
    else:
        a_first = table % 2 == 1
    return SwissPairing(table, p.key, q.key) if a_first else SwissPairing(table, q.key, p.key)
