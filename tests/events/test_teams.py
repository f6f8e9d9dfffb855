"""The team round robin and the team standings, checked against independent counts: every
team meets every other once, board k against board k, every player once a round, the first
deal shared out board by board; and the team table's Bummerl won and team match points
counted again from the boards."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tally.events.formats.team import team_schedule
from tally.events.teams import Board, team_table


@settings(max_examples=60, deadline=None)
@given(teams=st.integers(2, 11), boards=st.integers(1, 6))
def test_every_team_meets_every_other_once_board_against_board(teams: int, boards: int) -> None:
    players = [f"{t}.{k}" for t in range(teams) for k in range(boards)]
    team, board = (
        {p: int(p.split(".")[0]) for p in players},
        {p: int(p.split(".")[1]) for p in players},
    )
    rounds = team_schedule(players, boards)
    assert len(rounds) == (teams - 1 if teams % 2 == 0 else teams)
    met: list[frozenset[int]] = []
    for rnd in rounds:
        seated = [p for pairing in rnd.pairings for p in (pairing.first, pairing.second)]
        assert len(seated) == len(set(seated))
        assert len(seated) == boards * (teams - teams % 2)
        assert [p.table for p in rnd.pairings] == list(range(1, len(rnd.pairings) + 1))
        for p in rnd.pairings:
            assert board[p.first] == board[p.second] and team[p.first] != team[p.second]
        for k in range(0, len(rnd.pairings), boards):
            match = rnd.pairings[k : k + boards]
            pair = {frozenset((team[p.first], team[p.second])) for p in match}
            assert len(pair) == 1
            met.append(pair.pop())
            home = {team[p.first] for p in match[::2]}
            assert len(home) == 1  # one team deals first at the odd boards
            assert not home & {team[p.first] for p in match[1::2]}
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in combinations(range(teams), 2)), key=sorted
    )


boards_st = st.lists(
    st.tuples(st.integers(1, 4), st.integers(0, 3), st.integers(0, 3)), min_size=0, max_size=24
)


@settings(max_examples=100, deadline=None)
@given(boards=boards_st, rank=st.sampled_from(["bummerl", "match-points"]))
def test_the_team_table_counts_bummerl_and_team_match_points(
    boards: list[tuple[int, int, int]], rank: str
) -> None:
    """Two teams; each board of round r: (round, Bummerl of team 1, Bummerl of team 2)."""
    played = [(r, Board(1, 2, a, b, True)) for r, a, b in boards]
    rows = {row.team: row for row in team_table([("A", ()), ("B", ())], played, rank)}
    assert rows["A"].bummerl_won == sum(a for _, a, _ in boards)
    assert rows["B"].bummerl_won == rows["A"].bummerl_lost
    points = {"A": 0, "B": 0}
    for r in {r for r, _, _ in boards}:
        a = sum(1 for q, x, y in boards if q == r and x > y)
        b = sum(1 for q, x, y in boards if q == r and y > x)
        points["A"] += 2 if a > b else 1 if a == b else 0
        points["B"] += 2 if b > a else 1 if a == b else 0
    assert {t: rows[t].match_points for t in "AB"} == points
    key = (
        (lambda t: (points[t], rows[t].bummerl_won, rows[t].boards_won))
        if rank == "match-points"
        else (lambda t: (rows[t].bummerl_won, points[t], rows[t].boards_won))
    )
    first = "B" if key("B") > key("A") else "A"
    assert rows[first].rank == 1
    assert rows["B" if first == "A" else "A"].rank == (1 if key("A") == key("B") else 2)
