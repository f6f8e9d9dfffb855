"""The team standings of a team event (:mod:`tally.events.formats.team`), summed from its
boards: each board is a pairing of the event, its Bummerl won by either player.

A board is won by the player with more Bummerl won on it once all its matches are over (a
forfeit: every match of it, to the player it is credited to); a team match, once every board
of it is over, is won by the team with more boards won: 2 team match points, 1 each when the
boards are level, 0 for the loser. The teams are ranked (``team_rank``):

- ``bummerl``: by Bummerl won, then team match points, then boards won;
- ``match-points``: by team match points, then Bummerl won, then boards won.

Teams level on all three share the rank and are listed in their order of entry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Board:
    """One board of a team match: ``first`` and ``second`` (their teams' positions) and the
    Bummerl each won; ``over`` once every match of it is decided."""

    first_team: int
    second_team: int
    first_won: int
    second_won: int
    over: bool


@dataclass
class TeamRow:
    """A team's line of the team standings."""

    position: int
    team: str
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    boards_won: int = 0
    bummerl_won: int = 0
    bummerl_lost: int = 0
    players: tuple[str, ...] = field(default_factory=tuple)


def _team_matches(boards: Sequence[tuple[int, Board]]) -> dict[tuple[int, int], list[Board]]:
    """The boards grouped by team match: (round, lower team position) of each."""
    out: dict[tuple[int, int], list[Board]] = {}
    for number, board in boards:
        key = (number, min(board.first_team, board.second_team))
        out.setdefault(key, []).append(board)
    return out


def _add_match(rows: Mapping[int, TeamRow], played: Sequence[Board]) -> None:
    """Count one team match whose boards are all over."""
    wins: dict[int, int] = {}
    for b in played:
        wins.setdefault(b.first_team, 0)
        wins.setdefault(b.second_team, 0)
        if b.first_won != b.second_won:
            wins[b.first_team if b.first_won > b.second_won else b.second_team] += 1
    (one, one_won), (other, other_won) = sorted(wins.items())
    for team, mine, theirs in ((one, one_won, other_won), (other, other_won, one_won)):
        row = rows[team]
        row.played += 1
        row.boards_won += mine
        if mine > theirs:
            row.won, row.match_points = row.won + 1, row.match_points + 2
        elif mine == theirs:
            row.drawn, row.match_points = row.drawn + 1, row.match_points + 1
        else:
            row.lost += 1


def _key(row: TeamRow, rank: str) -> tuple[int, int, int]:
    if rank == "match-points":
        return (row.match_points, row.bummerl_won, row.boards_won)
    return (row.bummerl_won, row.match_points, row.boards_won)


def team_table(
    teams: Sequence[tuple[str, tuple[str, ...]]], boards: Sequence[tuple[int, Board]], rank: str
) -> list[TeamRow]:
    """The team standings of ``teams`` (name and players, in order of entry; positions from
    1) from ``boards`` (each with its round), ranked by ``rank`` (module docstring).

    >>> t = [("A", ("a",)), ("B", ("b",))]
    >>> [(r.rank, r.team, r.match_points, r.bummerl_won) for r in
    ...  team_table(t, [(1, Board(1, 2, 1, 0, True))], "bummerl")]
    [(1, 'A', 2, 1), (2, 'B', 0, 0)]
    """
    rows = {i: TeamRow(i, name, players=players) for i, (name, players) in enumerate(teams, 1)}
    for _, b in boards:
        rows[b.first_team].bummerl_won += b.first_won
        rows[b.first_team].bummerl_lost += b.second_won
        rows[b.second_team].bummerl_won += b.second_won
        rows[b.second_team].bummerl_lost += b.first_won
    for played in _team_matches(boards).values():
        if all(b.over for b in played):
            _add_match(rows, played)
    ordered = sorted(rows.values(), key=lambda r: (tuple(-x for x in _key(r, rank)), r.position))
    for i, row in enumerate(ordered):
        before = ordered[i - 1] if i else None
        same = before is not None and _key(before, rank) == _key(row, rank)
        row.rank = before.rank if same and before is not None else i + 1
    return ordered
