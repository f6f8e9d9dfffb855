"""Tiebreaks as chess arbiters know them (FIDE C.07): Buchholz cut 1 and Koya, worked out by
hand from the results listed, in the engine and through `tally event create --tiebreaks`."""

from __future__ import annotations

import json

from tally.events.tiebreaks import MatchResult, StandingRow, standings
from tests.store_support import ok


def win(winner: str, loser: str) -> MatchResult:
    return MatchResult(winner, loser, winner, 7, 0)


def ranks(rows: list[StandingRow]) -> list[tuple[int, str, tuple[float, ...]]]:
    return [(r.rank, r.player, r.tiebreak_values) for r in rows]


# X 3, P 2, A D Q 1: A met X (3) and Y (0), D met P (2) and Q (1): both Buchholz 3
SWISS = ["A", "D", "Q", "X", "P", "Y", "F1", "F2", "F3", "F4"]
SWISS_RESULTS = [
    win("A", "Y"),
    win("X", "A"),
    win("D", "Q"),
    win("P", "D"),
    win("X", "F1"),
    win("X", "F2"),
    win("P", "F3"),
    win("Q", "F4"),
]


def test_buchholz_cut_1_drops_the_weakest_opponent() -> None:
    plain = standings(SWISS, SWISS_RESULTS, tiebreaks=["buchholz"])
    assert ranks(plain)[2:5] == [(3, "A", (3.0,)), (3, "D", (3.0,)), (5, "Q", (1.0,))]
    cut = standings(SWISS, SWISS_RESULTS, tiebreaks=["buchholz-cut-1"])
    # A keeps X's 3 (Y's 0 dropped); D keeps P's 2 (Q's 1 dropped); Q keeps D's 1
    assert ranks(cut)[2:5] == [(3, "A", (3.0,)), (4, "D", (2.0,)), (5, "Q", (1.0,))]


def test_buchholz_cut_1_of_a_single_opponent_is_nothing() -> None:
    rows = standings(["A", "B"], [win("A", "B")], tiebreaks=["buchholz-cut-1"])
    assert [r.tiebreak_values for r in rows] == [(0.0,), (0.0,)]


# A round robin of five: C 3 wins; A, B, D 2 (50 %); E 1. A beat C and D, B beat A and E,
# D beat B and E.
ROBIN = ["A", "B", "C", "D", "E"]
ROBIN_RESULTS = [
    win("B", "A"),
    win("A", "C"),
    win("A", "D"),
    win("E", "A"),
    win("C", "B"),
    win("D", "B"),
    win("B", "E"),
    win("C", "D"),
    win("C", "E"),
    win("D", "E"),
]


def test_koya_counts_the_wins_against_the_players_on_half_or_more() -> None:
    rows = standings(ROBIN, ROBIN_RESULTS, tiebreaks=["koya"], match_points_per_win=2.0)
    # in match points (2 a win): A beat C (75 %) and D (50 %); B and D each one of 50 %
    assert ranks(rows) == [
        (1, "C", (4.0,)),
        (2, "A", (4.0,)),
        (3, "B", (2.0,)),
        (3, "D", (2.0,)),
        (5, "E", (2.0,)),
    ]


def test_the_fide_tiebreaks_are_chosen_when_the_event_is_created(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl", "Dora")
    ok(
        db_url,
        "event",
        "create",
        "Open",
        "Anna",
        "Bert",
        "Carl",
        "Dora",
        "--kind",
        "swiss",
        "--rounds",
        "3",
        "--tiebreaks",
        "buchholz-cut-1,koya",
    )
    text = ok(db_url, "standings", "Open")
    assert "BH-C1 buchholz-cut-1, Koya koya" in text
    assert json.loads(ok(db_url, "standings", "Open", "--json"))["tiebreaks"] == [
        "buchholz-cut-1",
        "koya",
    ]
    helped = ok(db_url, "event", "create", "--help")
    assert "buchholz-cut-1" in helped and "koya" in helped
