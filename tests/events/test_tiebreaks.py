"""Standings: match points first, then tiebreaks applied inside each group still level.

Every expected table here was worked out by hand from the results listed in the test.
"""

from __future__ import annotations

import pytest

from tally.errors import NotFound, TallyError
from tally.events.schedule import berger_schedule
from tally.events.tiebreaks import (
    DEFAULT_TIEBREAKS,
    SWISS_TIEBREAKS,
    TIEBREAKS,
    MatchResult,
    StandingRow,
    standings,
)


def win(winner: str, loser: str, winner_points: int = 7, loser_points: int = 0) -> MatchResult:
    """A finished match ``winner`` won by ``winner_points`` game points to ``loser_points``."""
    return MatchResult(winner, loser, winner, winner_points, loser_points, 0, 0, 0, 0)


def ranks(rows: list[StandingRow]) -> list[tuple[int, str]]:
    """The standings reduced to (rank, player), top first."""
    return [(row.rank, row.player) for row in rows]


def by_player(rows: list[StandingRow]) -> dict[str, StandingRow]:
    """The standings keyed by player."""
    return {row.player: row for row in rows}


# Anna and Bela both win twice; Anna beat Bela, but Bela has the better game-point difference.
HEAD_TO_HEAD_FIELD = ["Anna", "Bela", "Cili", "Dora"]
HEAD_TO_HEAD_RESULTS = [
    win("Anna", "Bela", 7, 6),
    win("Cili", "Anna", 7, 0),
    win("Anna", "Dora", 7, 5),
    win("Bela", "Cili", 7, 0),
    win("Bela", "Dora", 7, 0),
    win("Dora", "Cili", 7, 6),
]


def test_a_tie_on_match_points_is_broken_by_who_won_between_them() -> None:
    rows = standings(HEAD_TO_HEAD_FIELD, HEAD_TO_HEAD_RESULTS, tiebreaks=["head-to-head"])
    # Anna 2, Bela 2, Cili 1, Dora 1. Anna beat Bela; Dora beat Cili.
    assert ranks(rows) == [(1, "Anna"), (2, "Bela"), (3, "Dora"), (4, "Cili")]
    assert [row.tiebreak_values for row in rows] == [(1.0,), (0.0,), (1.0,), (0.0,)]


def test_head_to_head_comes_before_game_point_difference_by_default() -> None:
    rows = standings(HEAD_TO_HEAD_FIELD, HEAD_TO_HEAD_RESULTS)
    table = by_player(rows)
    # Bela's difference (20 won, 7 conceded: +13) is far better than Anna's (14 won, 18
    # conceded: -4), but Anna beat Bela.
    assert table["Bela"].game_point_difference == 13
    assert table["Anna"].game_point_difference == -4
    assert ranks(rows)[:2] == [(1, "Anna"), (2, "Bela")]


def test_head_to_head_only_counts_matches_among_the_players_still_tied() -> None:
    # A cycle: Anna beat Cili, Bela beat Anna, Cili beat Bela. All three have one win.
    results = [win("Anna", "Cili", 7, 6), win("Bela", "Anna", 7, 5), win("Cili", "Bela", 7, 5)]
    # Game points won: Anna 7 + 5 = 12, Bela 7 + 5 = 12, Cili 6 + 7 = 13.
    rows = standings(
        ["Anna", "Bela", "Cili"], results, tiebreaks=["game-points-won", "head-to-head"]
    )
    # Cili is clear on game points; between Anna and Bela alone, Bela won. (Over all three,
    # everyone would have one head-to-head win and Anna and Bela would still be level.)
    assert ranks(rows) == [(1, "Cili"), (2, "Bela"), (3, "Anna")]
    assert [row.tiebreak_values for row in rows] == [(13.0, 0.0), (12.0, 1.0), (12.0, 0.0)]


def test_head_to_head_that_is_itself_level_leaves_a_cycle_sharing_the_rank() -> None:
    results = [win("Anna", "Cili"), win("Bela", "Anna"), win("Cili", "Bela")]
    rows = standings(["Anna", "Bela", "Cili"], results, tiebreaks=["head-to-head"])
    assert ranks(rows) == [(1, "Anna"), (1, "Bela"), (1, "Cili")]


# Everyone wins once. Game points won: Anna 7 + 5 = 12, Bela 7 + 6 = 13, Cili 0 + 7 = 7,
# Dora 7 + 6 = 13. Conceded: Anna 0 + 7 = 7, Bela 6 + 7 = 13, Cili 7 + 6 = 13, Dora 5 + 7 = 12.
GAME_POINT_FIELD = ["Anna", "Bela", "Cili", "Dora"]
GAME_POINT_RESULTS = [
    win("Anna", "Cili", 7, 0),
    win("Dora", "Anna", 7, 5),
    win("Bela", "Dora", 7, 6),
    win("Cili", "Bela", 7, 6),
]


def test_a_tie_is_broken_by_game_point_difference() -> None:
    rows = standings(GAME_POINT_FIELD, GAME_POINT_RESULTS, tiebreaks=["game-point-difference"])
    # Anna +5, Dora +1, Bela 0, Cili -6.
    assert ranks(rows) == [(1, "Anna"), (2, "Dora"), (3, "Bela"), (4, "Cili")]
    assert [row.tiebreak_values for row in rows] == [(5.0,), (1.0,), (0.0,), (-6.0,)]
    assert [row.game_point_difference for row in rows] == [5, 1, 0, -6]


def test_a_tie_is_broken_by_game_points_won() -> None:
    rows = standings(GAME_POINT_FIELD, GAME_POINT_RESULTS, tiebreaks=["game-points-won"])
    # Bela 13 and Dora 13 stay level, then Anna 12, Cili 7.
    assert ranks(rows) == [(1, "Bela"), (1, "Dora"), (3, "Anna"), (4, "Cili")]
    assert [row.tiebreak_values for row in rows] == [(13.0,), (13.0,), (12.0,), (7.0,)]
    assert [row.game_points_conceded for row in rows] == [13, 12, 7, 13]


def test_a_tie_is_broken_by_sonneborn_berger() -> None:
    # Two match points a win. Anna beat Cili, who beat Dora; Bela beat only Dora, who won nothing.
    results = [win("Anna", "Cili"), win("Cili", "Dora"), win("Bela", "Dora")]
    rows = standings(
        ["Anna", "Bela", "Cili", "Dora"],
        results,
        match_points_per_win=2.0,
        tiebreaks=["sonneborn-berger"],
    )
    assert [row.match_points for row in rows] == [2.0, 2.0, 2.0, 0.0]
    # Anna: Cili's 2 match points. Bela and Cili: Dora's 0.
    assert ranks(rows) == [(1, "Anna"), (2, "Bela"), (2, "Cili"), (4, "Dora")]
    assert [row.tiebreak_values for row in rows] == [(2.0,), (0.0,), (0.0,), (0.0,)]


def test_sonneborn_berger_counts_a_beaten_opponents_bye_points_and_each_win_over_them() -> None:
    # Double round robin leftovers: Anna beat Cili twice; Bela beat Dora twice and lost to Cili.
    results = [
        win("Anna", "Cili"),
        win("Anna", "Cili"),
        win("Bela", "Dora"),
        win("Bela", "Dora"),
        win("Cili", "Bela"),
    ]
    rows = standings(
        ["Anna", "Bela", "Cili", "Dora"],
        results,
        match_points_per_bye=1.0,
        byes={"Dora": 2},
        tiebreaks=["sonneborn-berger"],
    )
    # Match points: Anna 2, Bela 2, Cili 1, Dora 2 (two byes).
    # Sonneborn-Berger: Anna 1 + 1 = 2, Bela 2 + 2 = 4, Dora 0.
    table = by_player(rows)
    assert table["Anna"].tiebreak_values == (2.0,)
    assert table["Bela"].tiebreak_values == (4.0,)
    assert table["Dora"].tiebreak_values == (0.0,)
    assert ranks(rows) == [(1, "Bela"), (2, "Anna"), (3, "Dora"), (4, "Cili")]


def test_a_tie_is_broken_by_the_number_of_matches_won() -> None:
    # A bye is worth a win's match points here, so Anna's bye and one win equal Bela's two wins.
    results = [win("Anna", "Cili"), win("Bela", "Cili"), win("Bela", "Dora")]
    rows = standings(
        ["Anna", "Bela", "Cili", "Dora"],
        results,
        match_points_per_bye=1.0,
        byes={"Anna": 1},
        tiebreaks=["wins"],
    )
    assert [(row.player, row.match_points) for row in rows[:2]] == [("Bela", 2.0), ("Anna", 2.0)]
    assert ranks(rows) == [(1, "Bela"), (2, "Anna"), (3, "Cili"), (3, "Dora")]
    assert [row.tiebreak_values for row in rows] == [(2.0,), (1.0,), (0.0,), (0.0,)]


def test_players_level_on_everything_share_a_rank_and_the_next_rank_is_skipped() -> None:
    # Bela and Cili split their two matches 7-5 and 7-5, both lost to Anna 3-7 and both beat
    # Dora 7-1: same match points, head-to-head, game points, Sonneborn-Berger and wins.
    results = [
        win("Anna", "Bela", 7, 3),
        win("Anna", "Cili", 7, 3),
        win("Anna", "Dora", 7, 0),
        win("Bela", "Cili", 7, 5),
        win("Cili", "Bela", 7, 5),
        win("Bela", "Dora", 7, 1),
        win("Cili", "Dora", 7, 1),
    ]
    rows = standings(["Anna", "Bela", "Cili", "Dora"], results)
    assert ranks(rows) == [(1, "Anna"), (2, "Bela"), (2, "Cili"), (4, "Dora")]
    bela, cili = rows[1], rows[2]
    # head-to-head, difference (22 - 20), won, Sonneborn-Berger (Bela/Cili 2 + Dora 0), wins.
    assert bela.tiebreak_values == cili.tiebreak_values == (1.0, 2.0, 22.0, 2.0, 2.0)


def test_players_sharing_a_rank_are_listed_in_the_order_given() -> None:
    results = [win("Anna", "Bela", 7, 3), win("Bela", "Anna", 7, 3)]
    assert ranks(standings(["Bela", "Anna"], results)) == [(1, "Bela"), (1, "Anna")]
    assert ranks(standings(["Anna", "Bela"], results)) == [(1, "Anna"), (1, "Bela")]


def test_a_row_carries_the_players_totals() -> None:
    results = [
        MatchResult("Anna", "Bela", "Anna", 7, 2, 2, 0, 1, 0),
        MatchResult("Bela", "Anna", "Bela", 7, 4, 1, 1, 0, 0),
        MatchResult("Anna", "Cili", "Anna", 7, 6, 0, 0, 0, 0),
    ]
    table = by_player(standings(["Anna", "Bela", "Cili"], results, match_points_per_win=2.0))
    # Anna is alone on 4 match points, so her head-to-head group is just herself (0); her
    # Sonneborn-Berger is Bela's 2 match points plus Cili's 0.
    assert table["Anna"] == StandingRow(
        rank=1,
        player="Anna",
        played=3,
        won=2,
        lost=1,
        match_points=4.0,
        game_points_won=18,
        game_points_conceded=15,
        game_point_difference=3,
        schneider_wins=3,
        schwarz_wins=1,
        tiebreak_values=(0.0, 3.0, 18.0, 2.0, 2.0),
        percentage=100.0 * 4.0 / 6.0,
    )
    assert (table["Bela"].schneider_wins, table["Bela"].schwarz_wins) == (1, 0)
    assert (table["Cili"].played, table["Cili"].lost, table["Cili"].rank) == (1, 1, 3)


def test_byes_earn_their_match_points_but_are_not_played_matches() -> None:
    # Three players: the Berger schedule gives each of them one bye.
    schedule = berger_schedule(["Anna", "Bela", "Cili"])
    byes = {r.bye: 1 for r in schedule if r.bye is not None}
    assert byes == {"Anna": 1, "Bela": 1, "Cili": 1}
    results = [win("Bela", "Cili"), win("Anna", "Bela"), win("Anna", "Cili")]
    rows = standings(
        ["Anna", "Bela", "Cili"], results, match_points_per_bye=0.5, byes=byes, tiebreaks=[]
    )
    assert [(r.player, r.played, r.won, r.match_points) for r in rows] == [
        ("Anna", 2, 2, 2.5),
        ("Bela", 2, 1, 1.5),
        ("Cili", 2, 0, 0.5),
    ]


def test_a_bye_can_lift_a_player_above_someone_with_the_same_wins() -> None:
    results = [win("Anna", "Cili"), win("Bela", "Cili")]
    rows = standings(["Anna", "Bela", "Cili"], results, match_points_per_bye=1.0, byes={"Bela": 1})
    assert ranks(rows) == [(1, "Bela"), (2, "Anna"), (3, "Cili")]


def test_byes_are_worth_nothing_unless_the_event_says_so() -> None:
    results = [win("Anna", "Cili"), win("Bela", "Cili")]
    rows = standings(["Anna", "Bela", "Cili"], results, byes={"Bela": 1}, tiebreaks=[])
    assert [row.match_points for row in rows] == [1.0, 1.0, 0.0]
    assert ranks(rows) == [(1, "Anna"), (1, "Bela"), (3, "Cili")]


def test_a_voided_or_unfinished_match_counts_for_nothing() -> None:
    results = [MatchResult("Anna", "Bela", None, 5, 3, 1, 0, 0, 0), win("Bela", "Cili")]
    table = by_player(standings(["Anna", "Bela", "Cili"], results))
    assert (table["Anna"].played, table["Anna"].game_points_won, table["Anna"].schneider_wins) == (
        0,
        0,
        0,
    )
    assert (table["Bela"].played, table["Bela"].won, table["Bela"].game_points_conceded) == (
        1,
        1,
        0,
    )


def test_an_event_with_no_results_yet_has_everyone_sharing_first_place() -> None:
    rows = standings(["Anna", "Bela", "Cili"], [])
    assert ranks(rows) == [(1, "Anna"), (1, "Bela"), (1, "Cili")]
    assert all(row.tiebreak_values == (0.0,) * 5 for row in rows)


def test_an_unknown_tiebreak_is_rejected_with_the_valid_names() -> None:
    with pytest.raises(TallyError, match="unknown tiebreak 'toss'") as caught:
        standings(["Anna", "Bela"], [], tiebreaks=["wins", "toss"])
    for name in TIEBREAKS:
        assert name in str(caught.value)


def test_a_single_tiebreak_name_must_still_be_given_as_a_list() -> None:
    with pytest.raises(TallyError, match="not one string"):
        standings(["Anna", "Bela"], [], tiebreaks="wins")


def test_the_valid_tiebreak_names() -> None:
    assert TIEBREAKS == (
        "head-to-head",
        "game-point-difference",
        "game-points-won",
        "sonneborn-berger",
        "wins",
        "buchholz",
        "median-buchholz",
        "buchholz-cut-1",
        "koya",
        "progressive",
    )
    assert DEFAULT_TIEBREAKS == TIEBREAKS[:5]
    assert set(SWISS_TIEBREAKS) <= set(TIEBREAKS)


def test_buchholz_adds_up_the_match_points_of_every_opponent_met() -> None:
    # Anna beat Bela and Cora, lost to Dora; Bela beat Cora and Eva; Dora beat Eva.
    # Match points: Anna 2, Bela 2, Cora 0, Dora 2, Eva 0.
    results = [
        win("Anna", "Bela"),
        win("Anna", "Cora"),
        win("Dora", "Anna"),
        win("Bela", "Cora"),
        win("Bela", "Eva"),
        win("Dora", "Eva"),
    ]
    rows = standings(
        ["Anna", "Bela", "Cora", "Dora", "Eva"], results, tiebreaks=["buchholz", "median-buchholz"]
    )
    by = {r.player: r.tiebreak_values for r in rows}
    # Anna met Bela 2, Cora 0, Dora 2: Buchholz 4; the median drops 2 and 0: 2
    assert by["Anna"] == (4.0, 2.0)
    # Bela met Anna 2, Cora 0, Eva 0: 2; median drops 2 and 0: 0
    assert by["Bela"] == (2.0, 0.0)
    # Dora met Anna 2 and Eva 0: two opponents, nothing dropped
    assert by["Dora"] == (2.0, 2.0)
    # Anna, Bela and Dora are level on 2 match points; Buchholz ranks Anna first, then the
    # median Buchholz puts Dora (2) before Bela (0)
    assert [r.player for r in rows][:3] == ["Anna", "Dora", "Bela"]


def test_a_bye_adds_nothing_to_the_buchholz_but_counts_in_the_opponents_points() -> None:
    rows = standings(
        ["Anna", "Bela", "Cora"],
        [win("Anna", "Bela")],
        match_points_per_bye=1.0,
        byes={"Bela": 1},
        tiebreaks=["buchholz"],
    )
    by = {r.player: r.tiebreak_values for r in rows}
    assert by == {"Anna": (1.0,), "Bela": (1.0,), "Cora": (0.0,)}


def test_a_result_for_someone_outside_the_event_is_rejected() -> None:
    with pytest.raises(NotFound, match="'Zora'"):
        standings(["Anna", "Bela"], [win("Anna", "Zora")])


def test_byes_for_someone_outside_the_event_are_rejected() -> None:
    with pytest.raises(NotFound, match="'Zora'"):
        standings(["Anna", "Bela"], [], byes={"Zora": 1})


def test_a_winner_who_did_not_play_the_match_is_rejected() -> None:
    with pytest.raises(TallyError, match="did not play"):
        standings(["Anna", "Bela", "Cili"], [MatchResult("Anna", "Bela", "Cili", 7, 0, 0, 0, 0, 0)])


def test_a_player_cannot_play_themselves() -> None:
    with pytest.raises(TallyError, match="two different players"):
        standings(["Anna", "Bela"], [win("Anna", "Anna")])


def test_negative_game_points_are_rejected() -> None:
    with pytest.raises(TallyError, match="negative points"):
        standings(["Anna", "Bela"], [MatchResult("Anna", "Bela", "Anna", 7, -1, 0, 0, 0, 0)])


def test_negative_byes_or_match_points_are_rejected() -> None:
    with pytest.raises(TallyError, match="negative number of byes"):
        standings(["Anna", "Bela"], [], byes={"Anna": -1})
    with pytest.raises(TallyError, match="cannot be negative"):
        standings(["Anna", "Bela"], [], match_points_per_win=-1.0)


def test_the_same_player_twice_in_the_field_is_rejected() -> None:
    with pytest.raises(TallyError, match="duplicate player name"):
        standings(["Anna", "Bela", "anna"], [])


# The club evening: Eva, Jürgen, Anna, Bela and Cili all on one match point, but only
# Jürgen-Eva and Eva-Anna ever met among them. Game-point differences: Bela +6 (7-1 v Dora),
# Anna +5 (5-7 v Eva, 7-0 v Dora), Jürgen +4 (7-3 v Eva), Cili +3 (7-4 v Gerd), Eva -2.
FIVE_WAY_FIELD = ["Eva", "Jürgen", "Anna", "Bela", "Cili", "Dora", "Gerd"]
FIVE_WAY_RESULTS = [
    win("Jürgen", "Eva", 7, 3),
    win("Eva", "Anna", 7, 5),
    win("Anna", "Dora", 7, 0),
    win("Bela", "Dora", 7, 1),
    win("Cili", "Gerd", 7, 4),
]


def test_head_to_head_is_skipped_for_a_five_way_tie_whose_players_mostly_never_met() -> None:
    rows = standings(FIVE_WAY_FIELD, FIVE_WAY_RESULTS)
    # Head-to-head among all five would lift Jürgen and Eva (one win each inside the group)
    # above Bela and Anna; as not all five met, it counts 0 for all and the game-point
    # difference decides. Eva (1-1) ends below Jürgen (1-0), who beat her.
    assert ranks(rows)[:5] == [(1, "Bela"), (2, "Anna"), (3, "Jürgen"), (4, "Cili"), (5, "Eva")]
    assert [row.tiebreak_values[0] for row in rows[:5]] == [0.0] * 5


def test_head_to_head_applies_to_a_tied_group_that_all_met_even_when_another_did_not() -> None:
    # Dora and Gerd (no wins) never met: skipped, and they stay level on everything else bar
    # the difference. Within a two-player group that met, head-to-head still decides.
    results = [
        win("Anna", "Bela", 7, 6),
        win("Bela", "Cili", 7, 0),
        win("Anna", "Dora", 7, 0),
        win("Cili", "Gerd", 7, 0),
        win("Bela", "Gerd", 7, 0),
        win("Cili", "Dora", 7, 0),
    ]
    rows = standings(["Anna", "Bela", "Cili", "Dora", "Gerd"], results)
    # Anna 2, Bela 2, Cili 2: all three met? Anna-Bela, Bela-Cili yes, Anna-Cili no: skipped,
    # difference: Bela +13, Cili +7, Anna +8.
    assert ranks(rows)[:3] == [(1, "Bela"), (2, "Anna"), (3, "Cili")]
    assert [row.tiebreak_values[0] for row in rows] == [0.0] * 5
    two = standings(
        ["Anna", "Bela"],
        [win("Anna", "Bela", 7, 6), win("Bela", "Anna", 7, 0)],
        tiebreaks=["head-to-head"],
    )
    assert [row.tiebreak_values for row in two] == [(1.0,), (1.0,)]
