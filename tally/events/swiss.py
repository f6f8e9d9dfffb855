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
3. **Pairing always succeeds when a legal pairing exists**: whether one exists is decided
   exactly by Edmonds' blossom algorithm (a maximum matching of the graph of players who
   may still meet), never by trial and error, also late in an event when many pairs have
   met.
4. **Score groups and floaters, weighed over the whole round.** Players meet their own
   *score group* (equal match points) where they can; when a group cannot pair within
   itself, some player *floats* to another group. The round is chosen as one optimisation,
   a maximum-weight perfect matching of all the players who may meet (Edmonds' weighted
   blossom algorithm), so who floats is decided by looking ahead at the groups below, not
   by the floater's own opponent alone: the round with the smallest score differences is
   taken, comparing the largest difference first (one pair two points apart is worse than
   any number of pairs one point apart), then the number of pairs that far apart, then the
   next largest difference, and so on.
5. **Dealer balance.** Card games have no colours; the first deal takes their place. A
   player's *balance* is the matches they dealt first minus those they dealt second. Among
   the pairings with the smallest score differences, the one with the fewest pairs of two
   players whose balances lean the same way (both dealt first more often, or both second)
   is taken: such a pair pushes one of them further from an even balance.
6. **Order within a score group** (the Dutch fold), among the pairings equally good by 4
   and 5: players are paired top-down, the highest-ranked player left taking the first
   opponent in their order of preference with whom the rest can still be paired as well.
   Their preference: the closest match points, then no dealer conflict, then the fold: the
   group's top half meets its bottom half in order, 1st against ``g//2 + 1``-th, 2nd
   against ``g//2 + 2``-th, and so on (``g`` the players of the group left to pair; with
   an odd ``g`` the last one floats down); when the natural opponent cannot be taken, the
   next ones down the bottom half are tried, then back up the top half; in another score
   group, opponents are tried by rank.

**Who deals first** in a pairing: the player with the lower balance; on equal balance, when
the two had different roles in their latest pairings, the one who dealt second then; failing
that, the higher-ranked player takes the role opposite to the one they had last (or the
lower-ranked one does, if only they have played); when neither has dealt
yet (round 1, a late entry), the higher-ranked player deals first at odd tables and second at
even ones. Over the rounds this keeps every balance at -1, 0 or 1 whenever rule 5 finds a
partner, which in practice is nearly always (rule 4 comes first: a player whose only
opponent within a point deals first as often as they do may reach a balance of 2).

**Tables** are numbered in the order of pairing: table 1 has the highest-ranked pairing.

Ties everywhere are broken by the order of the list given (the standings, then the entry
number), so the pairings are deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tally.errors import N_, Message, NoPairing, TallyError

__all__ = [
    "ACCELERATIONS",
    "Played",
    "SwissPairing",
    "SwissPlayer",
    "SwissRound",
    "baku_points",
    "keep_apart",
    "pair_round",
    "swiss_players",
]

#: a Swiss event's ways of pairing its first rounds: plainly, or by Baku acceleration
ACCELERATIONS: tuple[str, ...] = ("none", "baku")

#: match points this close are the same score (they are sums of floats such as 0.5)
_DIGITS = 9


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """A player to be paired: ``key`` names them; ``points`` are their match points so far;
    ``met`` the keys of the opponents they have played; ``byes`` how many rounds they sat out
    with a bye; ``first_deals`` and ``second_deals`` how many pairings they dealt first or
    second in; ``last_first`` whether they dealt first in their latest pairing (None before
    their first); ``last_float`` how they floated in the round before: ``"down"`` (met a
    lower score, or had the pairing's bye), ``"up"`` (met a higher score) or None."""

    key: str
    points: float = 0.0
    met: frozenset[str] = field(default_factory=frozenset)
    byes: int = 0
    first_deals: int = 0
    second_deals: int = 0
    last_first: bool | None = None
    last_float: str | None = None

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


def swiss_players(
    order: Sequence[str],
    points: Mapping[str, float],
    played: Sequence[Played],
    byes: Mapping[str, int],
    floats: Mapping[str, str] | None = None,
) -> list[SwissPlayer]:
    """The players ``order`` names (in that order) with what :func:`pair_round` needs, from
    the pairings of the rounds played, the byes had so far and how each floated in the
    round before (``floats``: ``"down"`` or ``"up"``).

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
    return [
        SwissPlayer(
            k,
            float(points.get(k, 0.0)),
            frozenset(met[k]),
            int(byes.get(k, 0)),
            first[k],
            second[k],
            last[k][1] if k in last else None,
            (floats or {}).get(k),
        )
        for k in order
    ]


def baku_points(entrants: int, rounds: int, number: int) -> tuple[int, float]:
    """Baku acceleration (FIDE Handbook C.04.5.1) for round ``number`` of a Swiss event of
    ``rounds`` rounds and ``entrants`` players: how many of the top seeds form group A
    (the first half of the seeding list rounded up to an even number, ``2 * ceil(n / 4)``)
    and the virtual points, in wins, each of them carries into this round's pairing.

    The first half of the rounds (rounded up) are accelerated: in the first half of those
    (rounded up) group A carries 1 virtual point, in the rest half a point; later rounds
    none. Virtual points only pair: they never enter the standings. So the top seeds meet
    each other from round 1, and a large field sorts itself out in fewer rounds.

    >>> [baku_points(20, 9, r) for r in (1, 3, 4, 5, 6)]
    [(10, 1.0), (10, 1.0), (10, 0.5), (10, 0.5), (10, 0.0)]
    >>> baku_points(9, 5, 1)
    (6, 1.0)
    """
    accelerated = -(-rounds // 2)
    full = -(-accelerated // 2)
    virtual = 1.0 if number <= full else 0.5 if number <= accelerated else 0.0
    return 2 * -(-entrants // 4), virtual


def pair_round(
    players: Sequence[SwissPlayer],
    number: int = 1,
    apart: Iterable[tuple[str, str]] = (),
    *,
    rematches: bool = False,
    apart_keeps_bye: bool = False,
) -> SwissRound:
    """Pair round ``number`` of the ``players`` still in the event, given in the order of the
    standings (see the module docstring for the rules). ``apart`` are pairs of players to
    keep apart (same family, same club): they are never paired while any other pairing of
    the round exists (:func:`keep_apart`). ``rematches``: when no pairing without a rematch
    exists, the least bad one is taken instead: the fewest rematches, then the rules as
    always. ``apart_keeps_bye``: the pairs kept apart give way before they move the bye
    (:func:`keep_apart`).

    Raises :class:`~tally.errors.NoPairing` when no pairing without a rematch exists (and
    ``rematches`` is not given), and :class:`~tally.errors.TallyError` for a player listed
    twice.

    >>> r = pair_round([SwissPlayer(k) for k in "abcde"])
    >>> [(p.table, p.first, p.second) for p in r.pairings], r.bye
    ([(1, 'a', 'c'), (2, 'd', 'b')], 'e')
    """
    keys = [p.key for p in players]
    if len(set(keys)) != len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise TallyError(
            Message(N_("%(player)s is listed twice for the pairings"), player=repr(twice))
        )
    # the standings' order, made safe: a stable sort by match points keeps its tie order
    ps = sorted(players, key=lambda p: -round(p.points, _DIGITS))
    n = len(ps)
    alive = [True] * n
    adj = keep_apart(ps, _may_meet(ps, rematch=False), apart, keep_bye=apart_keeps_bye)
    bye, mate = _choose_bye(ps, adj, alive)
    if mate is None and rematches:
        adj = keep_apart(ps, _may_meet(ps, rematch=True), apart, keep_bye=apart_keeps_bye)
        bye, mate = _choose_bye(ps, adj, alive)
    if mate is None:
        raise NoPairing(
            Message(
                N_(
                    "round %(round)s: no pairing of the %(players)s players avoids a rematch "
                    "(every possible pairing has two players who met already)"
                ),
                round=number,
                players=n,
            )
        )
    pairs = _pair_best(ps, adj, alive)
    pairings = tuple(_seat(ps, a, b, table) for table, (a, b) in enumerate(pairs, start=1))
    return SwissRound(number, pairings, None if bye is None else ps[bye].key)


def keep_apart(
    ps: Sequence[SwissPlayer],
    adj: list[set[int]],
    apart: Iterable[tuple[str, str]],
    *,
    keep_bye: bool = False,
) -> list[set[int]]:
    """``adj`` (who may meet) without the pairs to keep ``apart``, when the round can still
    be paired without a rematch that way (with an odd number of players, for some bye;
    ``keep_bye``: for the bye the round has without them, so that keeping a pair apart
    never moves the bye, a scoring one to a leader say); else ``adj`` as it is: keeping a
    family or a club apart gives way to pairing the round at all, never the other way round.

    >>> ps = [SwissPlayer(k) for k in "abcd"]
    >>> every = [{j for j in range(4) if j != i} for i in range(4)]
    >>> keep_apart(ps, every, [("a", "b")])[0]
    {2, 3}
    """
    index = {p.key: i for i, p in enumerate(ps)}
    pairs = [(index[a], index[b]) for a, b in apart if a in index and b in index]
    if not pairs:
        return adj
    narrow = [set(s) for s in adj]
    for i, j in pairs:
        narrow[i].discard(j)
        narrow[j].discard(i)
    alive = [True] * len(ps)
    if keep_bye:
        bye, _ = _choose_bye(ps, adj, [True] * len(ps))
        if bye is not None:
            alive[bye] = False
        return narrow if _perfect_matching(narrow, alive) is not None else adj
    _, mate = _choose_bye(ps, narrow, alive)
    return narrow if mate is not None else adj


def _may_meet(ps: Sequence[SwissPlayer], *, rematch: bool) -> list[set[int]]:
    """Who may meet whom: every two players who have not met (``rematch``: every two)."""
    return [
        {j for j, q in enumerate(ps) if i != j and (rematch or not _met(p, q))}
        for i, p in enumerate(ps)
    ]


def _met(p: SwissPlayer, q: SwissPlayer) -> bool:
    """Whether ``p`` and ``q`` have met already."""
    return q.key in p.met or p.key in q.met


def _choose_bye(
    ps: Sequence[SwissPlayer], adj: list[set[int]], alive: list[bool]
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


def _pair_best(
    ps: Sequence[SwissPlayer], adj: list[set[int]], alive: list[bool]
) -> list[tuple[int, int]]:
    """The best pairing of the players still ``alive`` (who are known to have one), as pairs
    (higher-ranked first) in table order.

    The whole round is weighed at once: a maximum-weight perfect matching (:func:`_best`)
    of the players who may meet, weighted by :func:`_costs`, gives the best score gaps and
    dealer balance any pairing can have. Then the players are paired top-down, each taking
    their first preferred opponent (:func:`_preference` over the players left) with whom the
    rest can still be paired as well as that; so the floaters are the ones that let the
    groups below pair, and among equally good pairings the Dutch fold decides."""
    left = [i for i in range(len(ps)) if alive[i]]
    costs, unit, levels = _costs(ps, adj, left)
    costs = _closest(costs, levels, alive)
    mate = _best(left, costs)
    pairs: list[tuple[int, int]] = []
    while left:
        top = left[0]
        goal = sum(costs[(a, mate[a])] // unit for a in left if a < mate[a])
        for other in _preference(ps, adj, top, left):
            if mate[top] == other:
                break
            swapped = _swap(mate, costs, unit, top, other)
            if swapped is not None:
                mate = swapped
                break
            rest = [i for i in left if i not in (top, other)]
            trial = _best(rest, costs)
            if (
                len(trial) == len(rest)
                and costs[(top, other)] // unit
                + sum(costs[(a, trial[a])] // unit for a in rest if a < trial[a])
                == goal
            ):
                mate = trial
                break
        else:  # pragma: no cover - mate[top] is always among the preferences
            raise NoPairing(N_("no opponent left for the top player"))
        pairs.append((top, other))
        left = [i for i in left if i not in (top, other)]
    return pairs


def _closest(
    costs: dict[tuple[int, int], int], levels: Mapping[tuple[int, int], int], alive: list[bool]
) -> dict[tuple[int, int], int]:
    """``costs`` of the pairs no further apart in points than the closest perfect pairing
    needs (found with the plain matching, level by level): the largest score difference
    counts first, so no better pairing has a pair further apart, and the weighted matchings
    then run on a graph that is mostly the score groups and their neighbours."""
    for most in sorted(set(levels.values())):
        near: list[set[int]] = [set() for _ in alive]
        for (a, b), level in levels.items():
            if level <= most:
                near[a].add(b)
        if _perfect_matching(near, alive) is not None:
            return {ab: c for ab, c in costs.items() if levels[ab] <= most}
    return costs  # pragma: no cover - the whole graph has a perfect matching


def _swap(
    mate: dict[int, int], costs: Mapping[tuple[int, int], int], unit: int, top: int, other: int
) -> dict[int, int] | None:
    """``mate`` with ``top`` paired to ``other`` and their partners to each other, when that
    is as good in score gaps and dealer balance (the quick case of :func:`_pair_best`'s
    check); else None."""
    a, b = mate[top], mate[other]
    if (a, b) not in costs:
        return None
    before = costs[(top, a)] // unit + costs[(other, b)] // unit
    if costs[(top, other)] // unit + costs[(a, b)] // unit != before:
        return None
    swapped = dict(mate)
    swapped[top], swapped[other], swapped[a], swapped[b] = other, top, b, a
    return swapped


def _best(who: list[int], costs: Mapping[tuple[int, int], int]) -> dict[int, int]:
    """A cheapest perfect matching of ``who`` over the pairs ``costs`` prices (each player's
    partner), or a smaller matching when there is no perfect one: a maximum-weight matching
    of maximum cardinality (Edmonds' weighted blossom algorithm, from networkx)."""
    import networkx as nx  # type: ignore[import-untyped]

    inside = set(who)
    pairs = {(a, b): c for (a, b), c in costs.items() if a < b and a in inside and b in inside}
    top = max(pairs.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(who)
    graph.add_weighted_edges_from((a, b, top - c) for (a, b), c in pairs.items())
    mate: dict[int, int] = {}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        mate[a], mate[b] = b, a
    return mate


def _costs(
    ps: Sequence[SwissPlayer], adj: list[set[int]], who: list[int]
) -> tuple[dict[tuple[int, int], int], int, dict[tuple[int, int], int]]:
    """The cost of each pairing the ``who`` may have (both ways round), one number holding
    three criteria in strict priority, so that the cheapest perfect matching is the best
    pairing; the unit of the second (a cost divided by it keeps the first two); and each
    pair's score difference as a level (0 for none, 1 for the smallest there is...):

    1. the score differences, largest first: a pair ``d`` apart costs more than all pairs
       closer than ``d`` together could (``M ** level``, ``M`` above the number of pairs);
    2. dealer conflicts (both players' balance pushed further the same way), counted;
       then the floats repeated from the round before (:func:`_repeats`), counted, as FIDE's
       Dutch system weighs them after the colours (C.04.3, C.14 and C.15);
    3. the place of the lower-ranked player in the higher-ranked one's order of preference
       (:func:`_preference` over the whole field): a guide that makes the cheapest pairing
       the top-down one in most rounds, which :func:`_pair_best` then confirms or
       corrects."""
    level = {i: round(ps[i].points, _DIGITS) for i in who}
    gaps = sorted(
        {round(abs(level[a] - level[b]), _DIGITS) for a in who for b in adj[a] if b in level}
        - {0.0}
    )
    worst = len(gaps)  # a rematch (the least bad pairing) is worse than any gap
    rank = {g: k for k, g in enumerate(gaps)}
    n, many = len(who), len(who) // 2 + 1
    unit, floats = n * n + 1, n + 1
    costs: dict[tuple[int, int], int] = {}
    levels: dict[tuple[int, int], int] = {}
    for a in who:
        for place, b in enumerate(_preference(ps, adj, a, who)):
            gap = round(abs(level[a] - level[b]), _DIGITS)
            again = _met(ps[a], ps[b])
            score = (0 if gap == 0 else many ** rank[gap]) + (many**worst if again else 0)
            levels[(a, b)] = levels[(b, a)] = (
                worst + 1 if again else 0 if gap == 0 else rank[gap] + 1
            )
            repeats = _repeats(ps[a], ps[b])
            cost = ((score * many + _conflict(ps[a], ps[b])) * floats + repeats) * unit + place
            costs[(a, b)] = costs[(b, a)] = cost
    return costs, unit, levels


def _repeats(p: SwissPlayer, q: SwissPlayer) -> int:
    """How many of ``p`` and ``q`` would float the way they floated in the round before: the
    higher score down again, the lower up again (0 for two players level)."""
    if round(p.points - q.points, _DIGITS) == 0:
        return 0
    high, low = (p, q) if p.points > q.points else (q, p)
    return int(high.last_float == "down") + int(low.last_float == "up")


def _conflict(p: SwissPlayer, q: SwissPlayer) -> int:
    """1 when both players dealt first more often than second (or both less): then one of
    them is pushed further from an even balance."""
    want = _sign(p.balance)
    return int(want != 0 and want == _sign(q.balance))


def _preference(
    ps: Sequence[SwissPlayer], adj: list[set[int]], a: int, among: list[int]
) -> list[int]:
    """``a``'s possible opponents among the players ranked below them in ``among`` (players
    in the order of the standings), most preferred first: the closest match points, then no
    dealer conflict, then no float repeated from the round before, then the Dutch fold: in
    ``a``'s score group within ``among`` (of ``g`` players, ``a`` the ``k``-th) the
    ``k + g//2``-th first and on down the bottom half, then back up the top half; in another
    score group by rank."""
    mine = round(ps[a].points, _DIGITS)
    group = [i for i in among if round(ps[i].points, _DIGITS) == mine]
    k, half = group.index(a), len(group) // 2
    fold = group[k + half :] + group[k + 1 : k + half][::-1]
    position = {i: x for x, i in enumerate(fold)}

    def key(i: int) -> tuple[bool, float, int, int, int]:
        return (
            _met(ps[a], ps[i]),
            round(abs(mine - ps[i].points), _DIGITS),
            _conflict(ps[a], ps[i]),
            _repeats(ps[a], ps[i]),
            position.get(i, len(fold) + i),
        )

    below = among[among.index(a) + 1 :]
    return sorted((i for i in below if i in adj[a]), key=key)


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


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


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
    elif p.last_first is not None and q.last_first is not None and p.last_first != q.last_first:
        a_first = not p.last_first
    elif p.last_first is not None:
        a_first = not p.last_first
    elif q.last_first is not None:
        a_first = q.last_first
    else:
        a_first = table % 2 == 1
    return SwissPairing(table, p.key, q.key) if a_first else SwissPairing(table, q.key, p.key)
