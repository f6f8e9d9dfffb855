"""Standings of an event, ranked by match points and then by configurable tiebreaks.

Everything here is a pure function of the players and their finished matches. The ranking works
in stages: sort by match points and split the field into groups level on them; then, for each
tiebreak in the order given, rank the players *inside each group still level* by it and split
the groups again. A tiebreak such as ``head-to-head`` is therefore computed among the players
still tied at that stage, never over the whole field. Players level after the last tiebreak
share a rank, and the next rank skips (1, 2, 2, 4).

Tiebreaks (higher is better for each):

``head-to-head``
    match points earned in matches among just the players still tied (0 for a player who is
    alone in their group by then). As the chess regulations for the direct encounter require,
    it applies only to a group whose players have all played each other (a finished match
    between every two of them); otherwise it is skipped for that group (0 for everyone in it)
    and the next tiebreak decides, so a player is never lifted by beating the one tied player
    they happened to meet while the others never met;
``game-point-difference``
    game points won minus game points conceded;
``game-points-won``
    game points won;
``sonneborn-berger``
    sum of the final match points (byes included) of every opponent beaten, once per win;
    matches cannot be drawn, so no half shares;
``wins``
    number of matches won;
``buchholz``
    sum of the final match points (byes included) of every opponent met in a match that
    counts (won or lost, also by forfeit), once per match: a measure of how strong the
    opposition was, made for Swiss events. A bye has no opponent and adds nothing;
``median-buchholz``
    the Buchholz without the opponent with the most and the one with the fewest match
    points (one each), once a player has met at least three opponents (before that, the
    plain Buchholz).

``buchholz`` and ``median-buchholz`` are not among :data:`DEFAULT_TIEBREAKS` (the order of club
evenings and round robins); a Swiss event ranks by :data:`SWISS_TIEBREAKS` unless told
otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tally.errors import NotFound, TallyError
from tally.schedule import check_player_names

__all__ = ["DEFAULT_TIEBREAKS", "SWISS_TIEBREAKS", "TIEBREAKS", "MatchResult", "StandingRow",
           "standings"]

#: Names of the tiebreaks :func:`standings` understands.
TIEBREAKS: tuple[str, ...] = (
    "head-to-head",
    "game-point-difference",
    "game-points-won",
    "sonneborn-berger",
    "wins",
    "buchholz",
    "median-buchholz",
)

#: The order used when none is given (club evenings and round robins).
DEFAULT_TIEBREAKS: tuple[str, ...] = TIEBREAKS[:5]

#: The order a Swiss event uses when none is given.
SWISS_TIEBREAKS: tuple[str, ...] = ("buchholz", "median-buchholz", "sonneborn-berger",
                                    "game-point-difference", "wins")

#: Values this close count as equal (match points are floats such as 0.5).
_DIGITS = 9


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One match of the event between ``player_a`` and ``player_b``.

    ``winner`` is the name of the player who won the match, or ``None`` for a voided or
    unfinished match, which counts for nothing (not even as played). ``game_points_x`` are the
    game points each player scored in the match; ``schneider_x`` and ``schwarz_x`` the number of
    deals each player won by schneider or schwarz, carried through to the standings as totals.
    """

    player_a: str
    player_b: str
    winner: str | None
    game_points_a: int
    game_points_b: int
    schneider_a: int = 0
    schneider_b: int = 0
    schwarz_a: int = 0
    schwarz_b: int = 0


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings; ``tiebreak_values`` follow the order of the tiebreaks asked."""

    rank: int
    player: str
    played: int
    won: int
    lost: int
    match_points: float
    game_points_won: int
    game_points_conceded: int
    game_point_difference: int
    schneider_wins: int
    schwarz_wins: int
    tiebreak_values: tuple[float, ...]


@dataclass(slots=True)
class _Tally:
    """Running totals for one player while the results are read."""

    played: int = 0
    won: int = 0
    lost: int = 0
    game_points_won: int = 0
    game_points_conceded: int = 0
    schneider_wins: int = 0
    schwarz_wins: int = 0


def _check_tiebreaks(tiebreaks: Sequence[str]) -> None:
    """Raise :class:`TallyError` for any tiebreak name that :func:`standings` does not know."""
    if isinstance(tiebreaks, str):
        raise TallyError(f"tiebreaks must be a list of names, not one string: {tiebreaks!r}")
    for name in tiebreaks:
        if name not in TIEBREAKS:
            raise TallyError(
                f"unknown tiebreak {name!r}; valid tiebreaks are: {', '.join(TIEBREAKS)}"
            )


def _check_result(result: MatchResult, known: set[str]) -> None:
    """Raise a :class:`TallyError` for a result that cannot describe a real match."""
    a, b, winner = result.player_a, result.player_b, result.winner
    if a not in known or b not in known:
        raise NotFound(f"result names {a if a not in known else b!r}, "
                       "who is not a player of this event")
    if a == b:
        raise TallyError(f"a match needs two different players, got {a!r} twice")
    if winner is not None and winner != a and winner != b:
        raise TallyError(f"winner {winner!r} did not play in {a} v {b}")
    if min(result.game_points_a, result.game_points_b, result.schneider_a, result.schneider_b,
           result.schwarz_a, result.schwarz_b) < 0:
        raise TallyError(
            f"negative points in {a} v {b}: game points, "
            "schneider and schwarz counts cannot be below 0"
        )


def _level(value: float) -> float:
    """``value`` rounded so that sums of the same floats in another order compare equal."""
    return round(value, _DIGITS)


def _split(group: list[str], key: Callable[[str], float]) -> list[list[str]]:
    """Order ``group`` by ``key`` (highest first, stable) and cut it where the key changes."""
    ordered = sorted(group, key=lambda p: -_level(key(p)))
    parts: list[list[str]] = []
    for player in ordered:
        if parts and _level(key(parts[-1][-1])) == _level(key(player)):
            parts[-1].append(player)
        else:
            parts.append([player])
    return parts


def standings(
    players: Sequence[str],
    results: Sequence[MatchResult],
    *,
    match_points_per_win: float = 1.0,
    match_points_per_bye: float = 0.0,
    byes: Mapping[str, int] | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[StandingRow]:
    """Rank the players of an event from their match results.

    A won match earns ``match_points_per_win`` match points, a lost one none; ``byes[player]``
    is how many byes the player had, each worth ``match_points_per_bye`` match points but not
    a played match. Results with ``winner=None`` are ignored. Players are sorted by match
    points, then by ``tiebreaks`` in order (see the module docstring); players still level
    share a rank and are listed in the order of ``players``.

    Raises :class:`~tally.errors.TallyError` for an unknown tiebreak (the message lists the
    valid names), duplicate player names, a result naming someone who is not a player, a
    winner who did not play the match, negative points or a negative number of byes.
    """
    bye_counts = _check_inputs(players, tiebreaks, match_points_per_win, match_points_per_bye,
                               byes)
    totals, beaten, opponents = _tally(players, results)
    match_points = {
        p: t.won * match_points_per_win + bye_counts.get(p, 0) * match_points_per_bye
        for p, t in totals.items()
    }
    keys = _Keys(totals, beaten, match_points, match_points_per_win, opponents)
    groups, values = _rank(players, match_points, tiebreaks, keys)
    return _rows(groups, totals, match_points, values)


def _check_inputs(players: Sequence[str], tiebreaks: Sequence[str], per_win: float,
                  per_bye: float, byes: Mapping[str, int] | None) -> dict[str, int]:
    """Refuse what :func:`standings` cannot rank; returns the byes per player."""
    check_player_names(players, minimum=0)
    _check_tiebreaks(tiebreaks)
    if per_win < 0 or per_bye < 0:
        raise TallyError("match points per win and per bye cannot be negative")
    known = set(players)
    bye_counts = dict(byes or {})
    for name, count in bye_counts.items():
        if name not in known:
            raise NotFound(f"byes name {name!r}, who is not a player of this event")
        if count < 0:
            raise TallyError(f"{name!r} cannot have a negative number of byes ({count})")
    return bye_counts


def _tally(players: Sequence[str], results: Sequence[MatchResult]
           ) -> tuple[dict[str, _Tally], dict[str, list[str]], dict[str, list[str]]]:
    """Each player's totals over the results that count, whom each player beat (once per
    win) and whom each met (once per match); every result is checked first."""
    known = set(players)
    totals = {p: _Tally() for p in players}
    beaten: dict[str, list[str]] = defaultdict(list)
    opponents: dict[str, list[str]] = defaultdict(list)
    for result in results:
        _check_result(result, known)
        if result.winner is None:
            continue
        a, b = totals[result.player_a], totals[result.player_b]
        gp_a, gp_b = result.game_points_a, result.game_points_b
        a.played += 1
        a.game_points_won += gp_a
        a.game_points_conceded += gp_b
        a.schneider_wins += result.schneider_a
        a.schwarz_wins += result.schwarz_a
        b.played += 1
        b.game_points_won += gp_b
        b.game_points_conceded += gp_a
        b.schneider_wins += result.schneider_b
        b.schwarz_wins += result.schwarz_b
        loser = result.player_b if result.winner == result.player_a else result.player_a
        totals[result.winner].won += 1
        totals[loser].lost += 1
        beaten[result.winner].append(loser)
        opponents[result.player_a].append(result.player_b)
        opponents[result.player_b].append(result.player_a)
    return totals, beaten, opponents


@dataclass(frozen=True, slots=True)
class _Keys:
    """The tiebreaks as functions of one player, from the totals of :func:`_tally`."""

    totals: dict[str, _Tally]
    beaten: dict[str, list[str]]
    match_points: dict[str, float]
    per_win: float
    opponents: dict[str, list[str]]

    def buchholz(self, player: str, median: bool) -> float:
        """The sum of the match points of ``player``'s opponents (``median``: without the
        highest and the lowest, from three opponents on)."""
        scores = sorted(self.match_points[o] for o in self.opponents[player])
        if median and len(scores) >= 3:
            scores = scores[1:-1]
        return sum(scores)

    def all_met(self, group: list[str]) -> bool:
        """Whether every two players of ``group`` have played a finished match together."""
        met = {frozenset((w, loser)) for w, losers in self.beaten.items() for loser in losers}
        return all(frozenset((a, b)) in met
                   for i, a in enumerate(group) for b in group[i + 1:])

    def key_for(self, name: str, group: list[str]) -> Callable[[str], float]:
        """The tiebreak ``name`` as a function of one player of the still-level ``group``
        (``head-to-head`` counts only the matches among ``group``)."""
        totals, beaten = self.totals, self.beaten
        if name == "head-to-head":
            if not self.all_met(group):
                return lambda p: 0.0
            return lambda p: sum(self.per_win for loser in beaten[p] if loser in group)
        if name == "game-point-difference":
            return lambda p: float(totals[p].game_points_won - totals[p].game_points_conceded)
        if name == "game-points-won":
            return lambda p: float(totals[p].game_points_won)
        if name == "sonneborn-berger":
            return lambda p: sum(self.match_points[loser] for loser in beaten[p])
        if name in ("buchholz", "median-buchholz"):
            median = name == "median-buchholz"
            return lambda p: self.buchholz(p, median)
        return lambda p: float(totals[p].won)


def _rank(players: Sequence[str], match_points: dict[str, float], tiebreaks: Sequence[str],
          keys: _Keys) -> tuple[list[list[str]], dict[str, list[float]]]:
    """The players in groups level on everything, best first, and each player's tiebreak
    values (each computed within the group still level at its stage)."""
    groups = _split(list(players), match_points.__getitem__)
    values: dict[str, list[float]] = {p: [] for p in players}
    for name in tiebreaks:
        regrouped: list[list[str]] = []
        for group in groups:
            key = keys.key_for(name, group)
            for p in group:
                values[p].append(key(p))
            regrouped.extend(_split(group, key) if len(group) > 1 else [group])
        groups = regrouped
    return groups, values


def _rows(groups: list[list[str]], totals: dict[str, _Tally], match_points: dict[str, float],
          values: dict[str, list[float]]) -> list[StandingRow]:
    """The standings lines: a group shares its rank, the next rank skips (1, 2, 2, 4)."""
    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for p in group:
            t = totals[p]
            rows.append(
                StandingRow(
                    rank=rank,
                    player=p,
                    played=t.played,
                    won=t.won,
                    lost=t.lost,
                    match_points=match_points[p],
                    game_points_won=t.game_points_won,
                    game_points_conceded=t.game_points_conceded,
                    game_point_difference=t.game_points_won - t.game_points_conceded,
                    schneider_wins=t.schneider_wins,
                    schwarz_wins=t.schwarz_wins,
                    tiebreak_values=tuple(values[p]),
                )
            )
    return rows
