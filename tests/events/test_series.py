"""Series as the engine ranks them (tally.events.series): points per placing, ties sharing the
points of the places they hold, the best N results, countback. Every expected total below is
worked out by hand next to it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tally.errors import Refused
from tally.events.series import (
    EventPlacings,
    check_best,
    check_points,
    points_for_placings,
    series_standings,
)

F1 = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)


def ev(number: int, ranks: dict[str, int]) -> EventPlacings:
    return EventPlacings(number, f"Event {number}", f"2026-0{number}-01", ranks)


def test_each_placing_earns_its_points_and_later_places_none() -> None:
    ranks = {f"P{i}": i for i in range(1, 13)}
    pts = points_for_placings(ranks, F1)
    assert [pts[f"P{i}"] for i in range(1, 13)] == [*F1, 0, 0]


def test_players_tied_on_a_placing_share_the_points_of_the_places_they_hold() -> None:
    # three tied for 2nd hold places 2, 3 and 4: (18 + 15 + 12) / 3 = 15 each; 5th gets 10
    pts = points_for_placings({"A": 1, "B": 2, "C": 2, "D": 2, "E": 5}, F1)
    assert pts == {"A": 25, "B": 15, "C": 15, "D": 15, "E": 10}
    # two tied for 10th hold places 10 and 11: (1 + 0) / 2
    assert points_for_placings({"X": 10, "Y": 10}, F1) == {"X": 0.5, "Y": 0.5}
    # a tie never changes the points handed out in all
    assert sum(pts.values()) == sum(F1[:5])


def test_the_best_n_results_count_and_the_rest_are_dropped() -> None:
    events = [
        ev(1, {"Anna": 1, "Bert": 2, "Carl": 3}),
        ev(2, {"Anna": 3, "Bert": 1, "Carl": 2}),
        ev(3, {"Bert": 3, "Carl": 1}),
    ]
    rows = series_standings(events, F1, best=2)
    # Anna 25 + 15 (2 events); Bert 25 + 18 (drops 15); Carl 25 + 18 (drops 15)
    assert [(r.player, r.total, r.played) for r in rows] == [
        ("Bert", 43, 3),
        ("Carl", 43, 3),
        ("Anna", 40, 2),
    ]
    bert = rows[0]
    assert [(x.points, x.counted) for x in bert.results if x] == [
        (18, True),
        (25, True),
        (15, False),
    ]
    assert [r.rank for r in rows] == [1, 1, 3]  # Bert and Carl: 43, one 1st, one 2nd, one 3rd
    every = series_standings(events, F1)
    assert [(r.player, r.total) for r in every] == [("Bert", 58), ("Carl", 58), ("Anna", 40)]


def test_among_equal_results_the_earlier_event_counts() -> None:
    rows = series_standings([ev(1, {"A": 2}), ev(2, {"A": 2})], F1, best=1)
    assert [x.counted for x in rows[0].results if x] == [True, False]


def test_level_totals_are_broken_by_countback_more_first_places_first() -> None:
    # Anna 25 + 0 (11th) = 25; Bert 15 + 10 = 25: Anna has a first place, Bert none
    events = [ev(1, {"Anna": 1, "Bert": 3}), ev(2, {"Anna": 11, "Bert": 5})]
    rows = series_standings(events, F1)
    assert [(r.rank, r.player, r.total) for r in rows] == [(1, "Anna", 25), (2, "Bert", 25)]


def test_a_player_who_did_not_play_an_event_has_no_result_there() -> None:
    rows = series_standings([ev(1, {"A": 1}), ev(2, {"B": 1})], F1)
    by = {r.player: r for r in rows}
    assert by["A"].results[1] is None and by["B"].results[0] is None
    assert by["A"].played == by["B"].played == 1


def test_points_and_best_are_checked() -> None:
    assert check_points([10, 10, 5]) == (10.0, 10.0, 5.0)
    for bad in ([], [1, 2], [-1], [float("nan")], [float("inf")], [1e300], [True]):
        with pytest.raises(Refused):
            check_points(bad)  # type: ignore[arg-type]
    assert check_best(None, 3) is None and check_best(3, 3) == 3
    for bad_best in (0, 4, -1):
        with pytest.raises(Refused):
            check_best(bad_best, 3)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.dictionaries(st.sampled_from("ABCDEF"), st.integers(1, 6), min_size=1),
        min_size=1,
        max_size=5,
    ),
    st.integers(1, 5),
)
def test_totals_add_up_the_counted_results_at_most_best_of_them(
    ranks: list[dict[str, int]], best: int
) -> None:
    events = [ev(i, r) for i, r in enumerate(ranks, start=1)]
    best = min(best, len(events))
    rows = series_standings(events, F1, best=best)
    assert {r.player for r in rows} == {p for r in ranks for p in r}
    for row in rows:
        results = [x for x in row.results if x is not None]
        counted = [x for x in results if x.counted]
        assert len(counted) == min(best, len(results)) and row.played == len(results)
        assert row.total == pytest.approx(sum(x.points for x in counted))
        dropped = [x.points for x in results if not x.counted]
        assert all(d <= min(x.points for x in counted) for d in dropped)
    totals = [r.total for r in rows]
    assert totals == sorted(totals, reverse=True)
    assert rows[0].rank == 1 and all(r.rank <= i + 1 for i, r in enumerate(rows))
