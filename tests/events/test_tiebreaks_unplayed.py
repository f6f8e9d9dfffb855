"""Unplayed rounds the FIDE way (Handbook C.07, the virtual opponent) and the progressive
score, in the engine: worked out by hand from the rounds listed."""

from __future__ import annotations

import pytest

from tally.errors import TallyError
from tally.events.tiebreaks import MatchResult, RoundGame, StandingRow, standings


def win(winner: str, loser: str) -> MatchResult:
    return MatchResult(winner, loser, winner, 7, 0)


def won(opponent: str) -> RoundGame:
    return RoundGame(1.0, opponent)


def lost(opponent: str) -> RoundGame:
    return RoundGame(0.0, opponent)


# Three rounds of four players: round 1 A-B 1-0, C-D 1-0; round 2 A v C a forfeit won by A
# (C never came), B-D 1-0; round 3 A-D 1-0, B-C 1-0.
PLAYERS = ["A", "B", "C", "D"]
RESULTS = [win("A", "B"), win("C", "D"), win("A", "C"), win("B", "D"), win("A", "D"), win("B", "C")]
ROUNDS = {
    "A": [won("B"), RoundGame(1.0, "C", played=False), won("D")],
    "B": [lost("A"), won("D"), won("C")],
    "C": [won("D"), RoundGame(0.0, "A", played=False), lost("B")],
    "D": [lost("C"), lost("B"), lost("A")],
}


def values(rows: list[StandingRow], player: str) -> tuple[float, ...]:
    return next(r.tiebreak_values for r in rows if r.player == player)


def test_a_forfeit_counts_a_virtual_opponent_under_fides_rule() -> None:
    plain = standings(PLAYERS, RESULTS, tiebreaks=["buchholz"])
    # as scored: A met B (2), C (1), D (0)
    assert values(plain, "A") == (3.0,)
    fide = standings(
        PLAYERS, RESULTS, tiebreaks=["buchholz"], rounds=ROUNDS, unplayed="virtual-opponent"
    )
    # A's round 2 was not played: a virtual opponent with A's 1 point before it, the other
    # side of the forfeit (0) and a draw in round 3: 1 + 0 + 0.5 = 1.5; B has 2, D 0
    assert values(fide, "A") == (3.5,)
    # C lost round 2 by forfeit: 1 (before) + 1 (the other side) + 0.5 = 2.5, D 0, B 2
    assert values(fide, "C") == (4.5,)
    # B met A, whose round 2 (unplayed) counts as drawn: 1 + 0.5 + 1 = 2.5; D 0; C: 1 + 0.5 + 0
    assert values(fide, "B") == (2.5 + 0.0 + 1.5,)


def test_the_virtual_opponent_is_fides_worked_example() -> None:
    # FIDE's example: in round 3 of nine, P (1.5 after two rounds) did not show up:
    # Svon = 1.5 + (1 - 0) + 0.5 x (9 - 3) = 5.5 at the end of the event
    others = [f"O{k}" for k in range(1, 9)]
    rounds = {
        "P": [
            RoundGame(1.0, "O1"),
            RoundGame(0.5, "O2"),
            RoundGame(0.0, None, False),
            *(RoundGame(0.0, o) for o in others[2:8]),
        ]
    }
    rows = standings(
        ["P", *others], [], tiebreaks=["buchholz"], rounds=rounds, unplayed="virtual-opponent"
    )
    # the real opponents have no rounds listed: each of their 9 rounds counts as drawn (4.5)
    assert values(rows, "P") == (8 * 4.5 + 5.5,)


def test_a_bye_worth_a_win_adds_a_virtual_opponent_in_match_points() -> None:
    # three players, two points a win: B sits out round 1 (bye worth a win), then B beats A
    results = [win("A", "C"), win("B", "A"), win("B", "C")]
    rounds = {
        "A": [RoundGame(2.0, "C"), RoundGame(0.0, "B"), None],
        "B": [RoundGame(2.0, None, False), RoundGame(2.0, "A"), RoundGame(2.0, "C")],
        "C": [RoundGame(0.0, "A"), None, RoundGame(0.0, "B")],
    }
    plain = standings(
        ["A", "B", "C"],
        results,
        tiebreaks=["buchholz"],
        match_points_per_win=2.0,
        match_points_per_bye=2.0,
        byes={"B": 1},
    )
    assert values(plain, "B") == (2.0 + 0.0,)  # A 2, C 0; the bye adds nothing
    fide = standings(
        ["A", "B", "C"],
        results,
        tiebreaks=["buchholz"],
        match_points_per_win=2.0,
        match_points_per_bye=2.0,
        byes={"B": 1},
        rounds=rounds,
        unplayed="virtual-opponent",
    )
    # the bye: 0 before + (2 - 2) + 1 x 2 later rounds drawn = 2; A: 2 + 0 + 1 (round 3 not
    # in, drawn) = 3; C: 0 + 1 + 0 = 1
    assert values(fide, "B") == (2.0 + 3.0 + 1.0,)


def test_buchholz_cut_1_drops_the_weakest_virtual_or_real_opponent() -> None:
    fide = standings(
        PLAYERS,
        RESULTS,
        tiebreaks=["buchholz-cut-1", "median-buchholz"],
        rounds=ROUNDS,
        unplayed="virtual-opponent",
    )
    # A: 2 (B), 1.5 (virtual), 0 (D): cut 1 drops D; median drops D and B
    assert values(fide, "A") == (3.5, 1.5)


def test_the_progressive_score_adds_the_score_after_each_round() -> None:
    rows = standings(PLAYERS, RESULTS, tiebreaks=["progressive"], rounds=ROUNDS)
    # A 1, 2, 3 -> 6; B 0, 1, 2 -> 3; C 1, 1, 1 -> 3; D 0
    assert [(r.rank, r.player, r.tiebreak_values) for r in rows] == [
        (1, "A", (6.0,)),
        (2, "B", (3.0,)),
        (3, "C", (3.0,)),
        (4, "D", (0.0,)),
    ]


def test_points_won_early_break_a_tie_on_the_progressive_score() -> None:
    # E wins round 1 and loses round 2; F the other way round: both 1 point
    rounds = {"E": [won("X"), lost("Y")], "F": [lost("Y"), won("X")]}
    rows = standings(
        ["E", "F", "X", "Y"],
        [win("E", "X"), win("Y", "F"), win("Y", "E"), win("F", "X")],
        tiebreaks=["progressive"],
        rounds=rounds,
    )
    assert [r.player for r in rows][1:3] == ["E", "F"]
    assert values(rows, "E") == (2.0,) and values(rows, "F") == (1.0,)


def test_what_follows_the_rounds_is_refused_without_them() -> None:
    with pytest.raises(TallyError, match="follow the rounds"):
        standings(PLAYERS, RESULTS, tiebreaks=["progressive"])
    with pytest.raises(TallyError, match="follow the rounds"):
        standings(PLAYERS, RESULTS, tiebreaks=["buchholz"], unplayed="virtual-opponent")
    with pytest.raises(TallyError, match="as-scored or virtual-opponent"):
        standings(PLAYERS, RESULTS, unplayed="fide")
