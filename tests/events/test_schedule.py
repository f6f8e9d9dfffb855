"""Round-robin schedules follow the published Berger tables.

The tables below are copied from the FIDE Handbook, C.05 Annex 1, "Berger Tables for
Round-Robin Tournaments", as reproduced at http://c.w.fox.tripod.com/chess/berger.html and in
the docstring of gambit-devs/gambit-pairing (``round_robin.py``, "fide handbook"); the two copies
agree with each other for every size written here. Each line is one round, pairings in board
order, the first number of a pair being the player listed first (White / home).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tally.errors import Refused, TallyError
from tally.events.schedule import (
    Pairing,
    Round,
    berger_schedule,
    berger_table,
    first_dealer,
    rounds_for,
)

PUBLISHED = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1-12 2-11 3-10 4-9 5-8 6-7
        12-7 8-6 9-5 10-4 11-3 1-2
        2-12 3-1 4-11 5-10 6-9 7-8
        12-8 9-7 10-6 11-5 1-4 2-3
        3-12 4-2 5-1 6-11 7-10 8-9
        12-9 10-8 11-7 1-6 2-5 3-4
        4-12 5-3 6-2 7-1 8-11 9-10
        12-10 11-9 1-8 2-7 3-6 4-5
        5-12 6-4 7-3 8-2 9-1 10-11
        12-11 1-10 2-9 3-8 4-7 5-6
        6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1-14 2-13 3-12 4-11 5-10 6-9 7-8
        14-8 9-7 10-6 11-5 12-4 13-3 1-2
        2-14 3-1 4-13 5-12 6-11 7-10 8-9
        14-9 10-8 11-7 12-6 13-5 1-4 2-3
        3-14 4-2 5-1 6-13 7-12 8-11 9-10
        14-10 11-9 12-8 13-7 1-6 2-5 3-4
        4-14 5-3 6-2 7-1 8-13 9-12 10-11
        14-11 12-10 13-9 1-8 2-7 3-6 4-5
        5-14 6-4 7-3 8-2 9-1 10-13 11-12
        14-12 13-11 1-10 2-9 3-8 4-7 5-6
        6-14 7-5 8-4 9-3 10-2 11-1 12-13
        14-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
    16: """
        1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9
        16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2
        2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10
        16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3
        3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11
        16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4
        4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12
        16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5
        5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13
        16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6
        6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14
        16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15
        16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8
        8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1
    """,
}


def parse_table(text: str) -> list[tuple[tuple[int, int], ...]]:
    """Read a table written as one line per round of ``first-second`` pairs."""
    rounds = []
    for line in text.strip().splitlines():
        pairs = (pair.split("-") for pair in line.split())
        rounds.append(tuple((int(a), int(b)) for a, b in pairs))
    return rounds


def numbered(n: int) -> list[str]:
    """Players named by their Berger numbers, so a schedule reads like the published table."""
    return [str(i) for i in range(1, n + 1)]


def as_numbers(rounds: list[Round]) -> list[tuple[tuple[int, int], ...]]:
    """A schedule of numbered players written back as the published table would show it."""
    return [tuple((int(p.first), int(p.second)) for p in r.pairings) for r in rounds]


@pytest.mark.parametrize("size", sorted(PUBLISHED))
def test_even_field_is_paired_exactly_as_the_published_berger_table(size: int) -> None:
    expected = parse_table(PUBLISHED[size])
    schedule = berger_schedule(numbered(size))
    assert as_numbers(schedule) == expected
    assert berger_table(size) == expected
    assert [r.number for r in schedule] == list(range(1, size))
    assert all(r.bye is None for r in schedule)
    for r in schedule:
        assert [p.table for p in r.pairings] == list(range(1, size // 2 + 1))


def test_four_players_by_name_get_the_published_four_player_table() -> None:
    schedule = berger_schedule(["Anna", "Bela", "Cili", "Dora"])
    assert schedule == [
        Round(1, (Pairing(1, "Anna", "Dora"), Pairing(2, "Bela", "Cili")), None),
        Round(2, (Pairing(1, "Dora", "Cili"), Pairing(2, "Anna", "Bela")), None),
        Round(3, (Pairing(1, "Bela", "Dora"), Pairing(2, "Cili", "Anna")), None),
    ]


def test_five_players_use_the_six_player_table_and_whoever_meets_six_sits_out() -> None:
    schedule = berger_schedule(numbered(5))
    # Published 6-player table with the pairing against number 6 taken out as the bye.
    assert [(r.number, r.bye, as_numbers([r])[0]) for r in schedule] == [
        (1, "1", ((2, 5), (3, 4))),
        (2, "4", ((5, 3), (1, 2))),
        (3, "2", ((3, 1), (4, 5))),
        (4, "5", ((1, 4), (2, 3))),
        (5, "3", ((4, 2), (5, 1))),
    ]
    for r in schedule:
        assert [p.table for p in r.pairings] == [1, 2]


def test_seven_players_use_the_eight_player_table_with_eight_as_the_bye() -> None:
    schedule = berger_schedule(numbered(7))
    published = parse_table(PUBLISHED[8])
    for r, boards in zip(schedule, published, strict=True):
        (sitting_out,) = [a if b == 8 else b for a, b in boards if 8 in (a, b)]
        assert r.bye == str(sitting_out)
        assert as_numbers([r])[0] == tuple(pair for pair in boards if 8 not in pair)


def test_three_players_take_three_rounds_each_with_one_bye() -> None:
    schedule = berger_schedule(["Anna", "Bela", "Cili"])
    assert schedule == [
        Round(1, (Pairing(1, "Bela", "Cili"),), "Anna"),
        Round(2, (Pairing(1, "Anna", "Bela"),), "Cili"),
        Round(3, (Pairing(1, "Cili", "Anna"),), "Bela"),
    ]


def test_two_players_meet_once_or_twice_with_the_deal_reversed() -> None:
    assert berger_schedule(["Anna", "Bela"]) == [Round(1, (Pairing(1, "Anna", "Bela"),), None)]
    assert berger_schedule(["Anna", "Bela"], double=True) == [
        Round(1, (Pairing(1, "Anna", "Bela"),), None),
        Round(2, (Pairing(1, "Bela", "Anna"),), None),
    ]


def test_double_round_robin_repeats_the_first_cycle_with_first_and_second_swapped() -> None:
    schedule = berger_schedule(numbered(6), double=True)
    assert [r.number for r in schedule] == list(range(1, 11))
    published = parse_table(PUBLISHED[6])
    swapped = [tuple((b, a) for a, b in boards) for boards in published]
    assert as_numbers(schedule) == published + swapped
    assert [p.table for p in schedule[5].pairings] == [1, 2, 3]


def test_double_round_robin_with_an_odd_field_repeats_the_byes_in_the_same_order() -> None:
    schedule = berger_schedule(numbered(5), double=True)
    byes = [r.bye for r in schedule]
    assert byes[:5] == byes[5:] == ["1", "4", "2", "5", "3"]


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("n", range(2, 17))
def test_every_pair_meets_the_right_number_of_times_and_nobody_plays_twice_a_round(
    n: int, double: bool
) -> None:
    players = [f"P{i}" for i in range(1, n + 1)]
    schedule = berger_schedule(players, double=double)
    assert len(schedule) == rounds_for(n, double)

    for r in schedule:
        seated = [name for p in r.pairings for name in (p.first, p.second)]
        if r.bye is not None:
            seated.append(r.bye)
        assert sorted(seated) == sorted(players), f"round {r.number}"
        assert (r.bye is not None) == (n % 2 == 1)

    cycle = rounds_for(n)
    first_leg = Counter((p.first, p.second) for r in schedule[:cycle] for p in r.pairings)
    assert all(count == 1 for count in first_leg.values())
    assert {frozenset(pair) for pair in first_leg} == {
        frozenset(pair) for pair in combinations(players, 2)
    }
    if double:
        second_leg = Counter((p.first, p.second) for r in schedule[cycle:] for p in r.pairings)
        assert second_leg == Counter((b, a) for a, b in first_leg)


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("n", range(3, 17, 2))
def test_with_an_odd_field_everyone_sits_out_exactly_once_per_cycle(n: int, double: bool) -> None:
    players = [f"P{i}" for i in range(1, n + 1)]
    schedule = berger_schedule(players, double=double)
    cycle = rounds_for(n)
    for leg in (schedule[:cycle], schedule[cycle:]) if double else (schedule,):
        assert sorted(r.bye for r in leg if r.bye is not None) == sorted(players)


@pytest.mark.parametrize("n", range(2, 17))
def test_first_deal_is_shared_out_as_evenly_as_berger_allows(n: int) -> None:
    players = [f"P{i}" for i in range(1, n + 1)]
    single = berger_schedule(players)
    deals = Counter(first_dealer(p) for r in single for p in r.pairings)
    counts = [deals[name] for name in players]
    if n % 2 == 0:
        # n - 1 matches each: half the field deals first n/2 times, the other half n/2 - 1.
        assert sorted(counts) == [n // 2 - 1] * (n // 2) + [n // 2] * (n // 2)
    else:
        # n - 1 matches each (one bye): everyone deals first in exactly half of them.
        assert counts == [(n - 1) // 2] * n

    double = berger_schedule(players, double=True)
    deals = Counter(first_dealer(p) for r in double for p in r.pairings)
    # Every pair meets once each way, so everyone deals first in exactly half their matches.
    assert [deals[name] for name in players] == [n - 1] * n


@pytest.mark.parametrize("n", range(2, 17))
def test_nobody_deals_first_or_second_three_matches_running_within_a_cycle(n: int) -> None:
    players = [f"P{i}" for i in range(1, n + 1)]
    roles: dict[str, str] = dict.fromkeys(players, "")
    for r in berger_schedule(players):
        for p in r.pairings:
            roles[p.first] += "F"
            roles[p.second] += "S"
    for name, sequence in roles.items():
        assert "FFF" not in sequence and "SSS" not in sequence, (name, sequence)


def test_the_fixed_last_player_alternates_dealing_first_every_round() -> None:
    schedule = berger_schedule(numbered(10))
    deals_first = [r.pairings[0].first == "10" for r in schedule]
    assert deals_first == [i % 2 == 1 for i in range(9)]


def test_first_dealer_is_the_player_listed_first() -> None:
    assert first_dealer(Pairing(3, "Anna", "Bela")) == "Anna"
    assert first_dealer(Pairing(3, "Bela", "Anna")) == "Bela"


@pytest.mark.parametrize(
    ("n", "single", "double"),
    [(2, 1, 2), (3, 3, 6), (4, 3, 6), (5, 5, 10), (8, 7, 14), (9, 9, 18), (16, 15, 30)],
)
def test_rounds_needed_for_a_field(n: int, single: int, double: int) -> None:
    assert rounds_for(n, False) == single
    assert rounds_for(n, double=True) == double


def test_rounds_for_fewer_than_two_players_is_refused() -> None:
    with pytest.raises(Refused, match="at least 2 players"):
        rounds_for(1, False)


@pytest.mark.parametrize("players", [[], ["Anna"]])
def test_a_round_robin_needs_at_least_two_players(players: list[str]) -> None:
    with pytest.raises(Refused, match="at least 2 players"):
        berger_schedule(players)


@pytest.mark.parametrize("clash", ["Anna", "anna", " ANNA ", "Anna\t"])
def test_the_same_name_twice_is_refused_whatever_its_case_or_spacing(clash: str) -> None:
    with pytest.raises(Refused, match="duplicate player name"):
        berger_schedule(["Anna", "Bela", clash])


def test_a_blank_name_is_refused() -> None:
    with pytest.raises(Refused, match="blank"):
        berger_schedule(["Anna", "  "])


def test_a_single_string_is_not_taken_for_a_list_of_one_letter_players() -> None:
    with pytest.raises(TallyError, match="not one string"):
        berger_schedule("ABCD")


def test_names_are_kept_exactly_as_given() -> None:
    schedule = berger_schedule([" Anna", "Bela "])
    assert schedule[0].pairings == (Pairing(1, " Anna", "Bela "),)


@pytest.mark.parametrize("size", [0, 3, 7])
def test_berger_table_only_exists_for_even_sizes(size: int) -> None:
    with pytest.raises(TallyError, match="even size"):
        berger_table(size)
