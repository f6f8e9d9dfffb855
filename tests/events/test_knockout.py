"""The pure engine of knockouts: the draw by lot (seeded, no immediate rematch, byes), lives,
ranking by stage, and brackets (seeding, groups across the bracket, results)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tally.errors import Refused
from tally.events.knockout import (
    TBD,
    Outcome,
    bracket_rounds,
    bracket_size,
    champion,
    count_lives,
    draw_round,
    group_slots,
    rank_by_stage,
    reached,
    seed_order,
    seeded_slots,
    snake_groups,
)

PLAYERS = [f"P{i:02d}" for i in range(1, 17)]


def pairs_of(draw: object) -> set[frozenset[str]]:
    return {frozenset((p.first, p.second)) for p in draw.pairings}  # type: ignore[attr-defined]


def test_the_same_seed_draws_the_same_round_and_another_seed_another() -> None:
    a = draw_round(PLAYERS, seed="2026", number=1)
    assert a == draw_round(PLAYERS, seed="2026", number=1)
    assert a.pairings != draw_round(PLAYERS, seed="2027", number=1).pairings
    assert a.pairings != draw_round(PLAYERS, seed="2026", number=2).pairings
    assert [p.table for p in a.pairings] == list(range(1, 9))
    assert sorted(x for p in a.pairings for x in (p.first, p.second)) == PLAYERS


def test_an_odd_field_gives_the_bye_to_one_who_had_fewest() -> None:
    players = PLAYERS[:7]
    byes = {p: 1 for p in players if p != "P05"}
    d = draw_round(players, seed="s", number=3, byes=byes)
    assert d.bye == "P05"
    assert len(d.pairings) == 3


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=3, max_value=30),
    st.text(max_size=8),
    st.integers(1, 50),
    st.randoms(use_true_random=False),
)
def test_no_immediate_rematch_whenever_three_or_more_play(
    n: int, seed: str, number: int, rng: object
) -> None:
    players = [f"X{i}" for i in range(n)]
    order = list(players)
    rng.shuffle(order)  # type: ignore[attr-defined]
    last = {}
    for a, b in zip(order[::2], order[1::2], strict=False):
        last[a], last[b] = b, a
    d = draw_round(players, seed=seed, number=number, last_opponents=last)
    for p in d.pairings:
        assert last.get(p.first) != p.second
    seated = [x for p in d.pairings for x in (p.first, p.second)] + ([d.bye] if d.bye else [])
    assert sorted(seated) == sorted(players)


def test_two_players_who_just_met_meet_again() -> None:
    d = draw_round(["A", "B"], seed="s", number=2, last_opponents={"A": "B", "B": "A"})
    assert pairs_of(d) == {frozenset("AB")}


def test_three_players_the_bye_avoids_the_rematch() -> None:
    # A and B just met: only a bye for A or B avoids playing again
    for seed in map(str, range(20)):
        d = draw_round(["A", "B", "C"], seed=seed, number=2, last_opponents={"A": "B", "B": "A"})
        assert d.bye in ("A", "B")


def test_avoiding_a_rematch_comes_before_the_fewest_byes() -> None:
    # C has had the fewest byes, but C sitting out would make A and B meet again
    for seed in map(str, range(20)):
        d = draw_round(
            ["A", "B", "C"],
            seed=seed,
            number=5,
            byes={"A": 2, "B": 2, "C": 1},
            last_opponents={"A": "B", "B": "A"},
        )
        assert d.bye in ("A", "B") and pairs_of(d) != {frozenset("AB")}


def test_a_draw_needs_two_distinct_players() -> None:
    with pytest.raises(Refused):
        draw_round(["A"], seed="s", number=1)
    with pytest.raises(Refused):
        draw_round(["A", "A"], seed="s", number=1)


def test_lives_by_hand() -> None:
    # 3 players, 2 lives. Round 1: A beats B, C bye. Round 2: C beats A, B bye.
    # Round 3: B beats C? no: C beats B (B's 2nd loss: out in 3), A bye. Round 4: A beats C.
    outcomes = [
        Outcome(1, "A", "B", "B"),
        Outcome(2, "C", "A", "A"),
        Outcome(3, "B", "C", "B"),
        Outcome(4, "A", "C", "C"),
    ]
    lines = count_lives(["A", "B", "C"], 2, 4, outcomes, {1: "C", 2: "B", 3: "A"})
    got = {x.player: (x.lives, x.out_in, "".join(x.marks), x.byes) for x in lines}
    assert got == {"A": (1, None, "WLBW", 1), "B": (0, 3, "LBL-", 1), "C": (1, None, "BWWL", 1)}


def test_a_withdrawn_player_is_out_and_costs_the_opponent_nothing() -> None:
    outcomes = [Outcome(1, "A", "B", "B"), Outcome(2, "A", "B", None)]
    lines = count_lives(["A", "B"], 3, 2, outcomes, {}, withdrawn={"B": 2})
    got = {x.player: (x.lives, x.out_in, x.withdrawn, "".join(x.marks)) for x in lines}
    assert got == {"A": (3, None, False, "W-"), "B": (0, 2, True, "L-")}


def test_rank_by_stage_then_standings_then_playoffs() -> None:
    order = ["A", "B", "C", "D", "E"]
    field = {"A": 1, "B": 2, "C": 2, "D": 4, "E": 5}
    stage = {"A": (0, 3), "B": (0, 5), "C": (0, 5), "D": (1, 2), "E": (0, 5)}
    # D still in; B, C, E out in round 5 (B and C level in the standings); A out in round 3
    assert rank_by_stage(order, field, stage) == [(1, "D"), (2, "B"), (2, "C"), (4, "E"), (5, "A")]
    assert rank_by_stage(order, field, stage, [("C", "B")]) == [
        (1, "D"),
        (2, "C"),
        (3, "B"),
        (4, "E"),
        (5, "A"),
    ]
    # a play-off against someone of another rank decides nothing
    assert rank_by_stage(order, field, stage, [("A", "D")])[0] == (1, "D")


def test_bracket_seeding() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(16)[:4] == [1, 16, 8, 9]
    assert bracket_size(5) == 8
    assert seeded_slots(list("ABCDEF")) == ("A", None, "D", "E", "B", None, "C", "F")
    with pytest.raises(Refused):
        seed_order(6)
    with pytest.raises(Refused):
        bracket_size(1)


def test_snake_groups_of_four() -> None:
    groups = snake_groups(PLAYERS, 4)
    assert groups == [
        ["P01", "P08", "P09", "P16"],
        ["P02", "P07", "P10", "P15"],
        ["P03", "P06", "P11", "P14"],
        ["P04", "P05", "P12", "P13"],
    ]


def meets(slots: tuple[str | None, ...], a: str, b: str) -> int:
    return (slots.index(a) ^ slots.index(b)).bit_length()


@pytest.mark.parametrize(
    ("groups", "advance"), [(4, 2), (2, 4), (8, 2), (3, 2), (2, 2), (4, 1), (2, 3), (4, 4)]
)
def test_groups_go_into_the_bracket_kept_apart(groups: int, advance: int) -> None:
    names = [[f"{chr(65 + g)}{r}" for r in range(1, advance + 1)] for g in range(groups)]
    slots = group_slots(names)
    assert sorted(s for s in slots if s) == sorted(x for g in names for x in g)
    rounds = len(slots).bit_length() - 1
    # players of one group meet as late as the bracket allows: with k of them, at most
    # ceil(k/2) in each half, recursively; here: every pair of one group meets no earlier
    # than round rounds - ceil(log2(k)) + 1
    for g in names:
        need = max(1, (len(g) - 1).bit_length())
        for a, b in itertools.combinations(g, 2):
            assert meets(slots, a, b) >= rounds - need + 1, (slots, a, b)
    if advance == 2 and groups & (groups - 1) == 0:  # no byes: winners against runners-up
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            if a and b:  # a group winner against another group's runner-up
                assert {a[1:], b[1:]} == {"1", "2"} and a[0] != b[0]


def test_four_groups_of_two_by_hand() -> None:
    slots = group_slots([["A1", "A2"], ["B1", "B2"], ["C1", "C2"], ["D1", "D2"]])
    assert slots == ("A1", "D2", "C1", "B2", "B1", "C2", "D1", "A2")


def test_bracket_results_byes_and_walkovers() -> None:
    slots = ("A", None, "B", "C", "D", "E", None, "F")
    r = bracket_rounds(slots, {})
    assert [(m.first, m.second, m.winner, m.decided) for m in r[0]] == [
        ("A", None, "A", True),
        ("B", "C", None, False),
        ("D", "E", None, False),
        ("F" if False else None, "F", "F", True),
    ]
    assert r[1][0].first == "A" and r[1][0].second == TBD and not r[1][0].playable
    r = bracket_rounds(slots, {(1, 2): "C", (1, 3): None, (2, 1): "C"})
    assert r[1][1].first is None and r[1][1].second == "F"  # nobody came through table 3
    assert r[1][1].winner == "F"
    r = bracket_rounds(slots, {(1, 2): "C", (1, 3): None, (2, 1): "C", (3, 1): "F"})
    assert champion(r) == "F"
    assert reached(r) == {"A": 2, "B": 1, "C": 3, "D": 1, "E": 1, "F": 4}
    with pytest.raises(Refused):
        bracket_rounds(slots, {(1, 2): "A"})


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=12),
    st.integers(min_value=1, max_value=4),
    st.text(max_size=6),
    st.randoms(use_true_random=False),
)
def test_a_knockout_played_out_by_lot_keeps_its_lives_straight(
    n: int, lives: int, seed: str, rng: object
) -> None:
    """Any field and lives, any results: each player's lives are the lives less the matches
    lost, a player is out in the round of their last loss, and it ends with one player."""
    players = [f"X{i}" for i in range(n)]
    outcomes: list[Outcome] = []
    byes: dict[int, str | None] = {}
    last: dict[str, str] = {}
    number = 0
    while True:
        lines = count_lives(players, lives, number, outcomes, byes)
        alive = [x.player for x in lines if x.still_in]
        if len(alive) < 2:
            break
        number += 1
        had = {p: sum(1 for b in byes.values() if b == p) for p in players}
        d = draw_round(alive, seed=seed, number=number, last_opponents=last, byes=had)
        byes[number] = d.bye
        if len(alive) >= 3:
            assert all(last.get(p.first) != p.second for p in d.pairings)
        last = {}
        for p in d.pairings:
            loser = p.first if rng.random() < 0.5 else p.second  # type: ignore[attr-defined]
            outcomes.append(Outcome(number, p.first, p.second, loser))
            last[p.first], last[p.second] = p.second, p.first
    lost = {p: sum(1 for o in outcomes if o.loser == p) for p in players}
    assert len(alive) == 1 and number <= n * lives
    for x in lines:
        assert x.lives == lives - lost[x.player] >= 0
        if x.out_in is not None:
            assert x.out_in == max(o.round for o in outcomes if o.loser == x.player)
