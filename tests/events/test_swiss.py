"""The Swiss pairing engine (tally.events.swiss): hand-worked rounds, the bye, rematches, dealer
balance, a whole 9-player event of 5 rounds, and properties against brute force."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tally.errors import NoPairing, TallyError
from tally.events.swiss import Played, SwissPlayer, SwissRound, pair_round, swiss_players


def pairs_of(rnd: SwissRound) -> list[tuple[str, str]]:
    """(first dealer, second) per table, in table order."""
    return [(p.first, p.second) for p in rnd.pairings]


def test_round_one_folds_the_field_and_gives_the_bye_to_the_last_seed() -> None:
    # 5 players, nobody has points: the bye goes to the lowest-ranked (e); of a b c d the
    # top half meets the bottom half (a-c, b-d); the higher-ranked deals first at table 1,
    # the lower-ranked at table 2.
    rnd = pair_round([SwissPlayer(k) for k in "abcde"], 1)
    assert pairs_of(rnd) == [("a", "c"), ("d", "b")]
    assert [p.table for p in rnd.pairings] == [1, 2]
    assert rnd.bye == "e"


def test_score_groups_pair_inside_first_and_the_odd_one_floats_down() -> None:
    # After round 1: a, b, c on 1 point, d, e, f on 0. The 1-point group is odd: a meets b
    # (fold of 3: top half [a], bottom half [b, c]), c floats down to meet the top of the
    # 0-point group (d); e meets f.
    players = [
        SwissPlayer("a", 1),
        SwissPlayer("b", 1),
        SwissPlayer("c", 1),
        SwissPlayer("d"),
        SwissPlayer("e"),
        SwissPlayer("f"),
    ]
    rnd = pair_round(players, 2)
    assert sorted(map(frozenset, pairs_of(rnd))) == sorted(
        map(frozenset, [("a", "b"), ("c", "d"), ("e", "f")])
    )
    assert rnd.bye is None


def test_players_who_met_are_not_paired_again() -> None:
    # a's natural opponent in the group (c) was met: a takes d, and b meets c
    players = [
        SwissPlayer("a", met=frozenset("c")),
        SwissPlayer("b"),
        SwissPlayer("c", met=frozenset("a")),
        SwissPlayer("d"),
    ]
    assert sorted(map(frozenset, pairs_of(pair_round(players, 2)))) == sorted(
        map(frozenset, [("a", "d"), ("b", "c")])
    )


def test_the_top_player_does_not_take_an_opponent_that_leaves_the_rest_unpairable() -> None:
    # a would take c (the fold), but b and d met: then b-d would be a rematch. A greedy
    # pairing stops there; tally looks ahead and pairs a-d, b-c.
    players = [
        SwissPlayer("a"),
        SwissPlayer("b", met=frozenset("d")),
        SwissPlayer("c"),
        SwissPlayer("d", met=frozenset("b")),
    ]
    assert sorted(map(frozenset, pairs_of(pair_round(players, 2)))) == sorted(
        map(frozenset, [("a", "d"), ("b", "c")])
    )


def test_a_floater_does_not_take_the_player_a_lower_group_needs() -> None:
    # a (3 points) has met c and floats into the 2-point group c f g, where c and g met.
    # By rank a would meet f, leaving c and g (who met) to float apart; tally sees that a-g
    # leaves c-f in the group, so: a-g, c-f, h-i (every other pair within its group).
    players = [
        SwissPlayer("a", 3, met=frozenset("c")),
        SwissPlayer("c", 2, met=frozenset("ag")),
        SwissPlayer("f", 2),
        SwissPlayer("g", 2, met=frozenset("c")),
        SwissPlayer("h", 1),
        SwissPlayer("i", 1),
    ]
    assert sorted(map(frozenset, pairs_of(pair_round(players, 4)))) == sorted(
        map(frozenset, [("a", "g"), ("c", "f"), ("h", "i")])
    )


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    players = [
        SwissPlayer("a", 2),
        SwissPlayer("b", 1),
        SwissPlayer("c", 1, byes=1),
        SwissPlayer("d", 1),
        SwissPlayer("e", 0, byes=1),
    ]
    assert pair_round(players, 3).bye == "d"


def test_the_bye_moves_up_when_the_rest_could_not_be_paired() -> None:
    # c is lowest, but a and b met: with c out they would meet again. b takes the bye.
    players = [
        SwissPlayer("a", met=frozenset("b")),
        SwissPlayer("b", met=frozenset("a")),
        SwissPlayer("c"),
    ]
    rnd = pair_round(players, 2)
    assert rnd.bye == "b"
    assert sorted(pairs_of(rnd)[0]) == ["a", "c"]


def test_a_second_bye_only_when_no_pairing_gives_it_to_someone_without_one() -> None:
    # b had a bye; a and c (no byes) can't sit out: the two left would have met.
    players = [
        SwissPlayer("a", met=frozenset("b")),
        SwissPlayer("b", byes=1, met=frozenset("ac")),
        SwissPlayer("c", met=frozenset("b")),
    ]
    rnd = pair_round(players, 3)
    assert rnd.bye == "b" and sorted(pairs_of(rnd)[0]) == ["a", "c"]


def test_no_pairing_without_a_rematch_is_refused() -> None:
    players = [
        SwissPlayer("a", met=frozenset("bcd")),
        SwissPlayer("b", met=frozenset("a")),
        SwissPlayer("c", met=frozenset("a")),
        SwissPlayer("d", met=frozenset("a")),
    ]
    with pytest.raises(NoPairing, match="rematch"):
        pair_round(players, 4)


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(TallyError, match="twice"):
        pair_round([SwissPlayer("a"), SwissPlayer("a")])


def test_the_player_who_dealt_first_more_often_deals_second() -> None:
    players = [
        SwissPlayer("a", 1, first_deals=1, last_first=True),
        SwissPlayer("b", 1, second_deals=1, last_first=False),
    ]
    assert pairs_of(pair_round(players, 2)) == [("b", "a")]


def test_dealer_balance_steers_the_choice_within_a_score_group() -> None:
    # a (dealt first once more) would meet c by the fold, who also dealt first once more;
    # d dealt second: a meets d instead (same points), and d deals first.
    players = [
        SwissPlayer("a", 1, first_deals=1, last_first=True),
        SwissPlayer("b", 1, second_deals=1, last_first=False),
        SwissPlayer("c", 1, first_deals=1, last_first=True),
        SwissPlayer("d", 1, second_deals=1, last_first=False),
    ]
    assert pairs_of(pair_round(players, 2)) == [("d", "a"), ("b", "c")]


def test_swiss_players_counts_met_opponents_byes_and_first_deals() -> None:
    played = [Played(1, "a", "b"), Played(2, "c", "a"), Played(3, "a", "d")]
    a, b = swiss_players(["a", "b"], {"a": 2.0}, played, {"b": 1})
    assert a == SwissPlayer("a", 2.0, frozenset("bcd"), 0, 2, 1, True)
    assert b == SwissPlayer("b", 0.0, frozenset("a"), 1, 0, 1, False)


def play_event(
    keys: list[str],
    rounds: int,
    winner: object = min,
    late: dict[int, list[str]] | None = None,
    gone: dict[int, list[str]] | None = None,
) -> tuple[list[SwissRound], list[SwissPlayer]]:
    """A whole Swiss event: each round paired from the standings (points, then entry
    order), results by ``winner`` over the pair's keys; ``late`` players join before the
    round given, ``gone`` ones withdraw after it."""
    field = list(keys)
    points: dict[str, float] = dict.fromkeys(keys, 0.0)
    played: list[Played] = []
    byes: dict[str, int] = {}
    out: list[SwissRound] = []
    for number in range(1, rounds + 1):
        for k in (late or {}).get(number, []):
            field.append(k)
            points[k] = 0.0
        order = sorted(field, key=lambda k: (-points[k], keys.index(k) if k in keys else 99))
        rnd = pair_round(swiss_players(order, points, played, byes), number)
        out.append(rnd)
        if rnd.bye:
            byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
        for p in rnd.pairings:
            played.append(Played(number, p.first, p.second))
            points[winner((p.first, p.second))] += 1.0  # type: ignore[operator]
        for k in (gone or {}).get(number, []):
            field.remove(k)
    return out, swiss_players(sorted(points), points, played, byes)


NINE = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini", "Gust", "Hilde", "Ida"]


def test_nine_players_five_rounds_no_rematch_distinct_byes_dealers_balanced() -> None:
    # The higher seed (earlier in the list) wins every match.
    rounds, players = play_event(NINE, 5, winner=lambda pair: min(pair, key=NINE.index))
    met = [frozenset((p.first, p.second)) for r in rounds for p in r.pairings]
    assert len(met) == len(set(met)) == 20
    byes = [r.bye for r in rounds]
    assert len(set(byes)) == 5 and None not in byes
    # Score differences come before dealer balance: in round 5 Ida (0 points) can meet only
    # Fini within a point, though both dealt first more often, so Ida ends on +2 (the one
    # player off -1..1; the old pairing kept it at the cost of gaps 3, 2, 2, 1).
    balances = sorted(p.balance for p in players)
    assert balances[0] >= -1 and balances[-2] <= 1 and balances[-1] == 2, balances
    assert pairs_of(rounds[4]) == [
        ("Gust", "Anna"),
        ("Hilde", "Bert"),
        ("Dora", "Carl"),
        ("Ida", "Fini"),
    ]
    # Worked by hand. Round 1 folds the field: Ida, the last seed, sits out; the higher
    # seed deals first at odd tables, the lower at even ones.
    assert pairs_of(rounds[0]) == [
        ("Anna", "Emil"),
        ("Fini", "Bert"),
        ("Carl", "Gust"),
        ("Hilde", "Dora"),
    ]
    assert rounds[0].bye == "Ida"
    # Round 2: winners Anna Bert Carl Dora on 1 point; balances Anna +1, Bert -1, Carl +1,
    # Dora -1, Emil -1, Fini +1, Gust -1, Hilde +1, Ida 0. The bye: the lowest-ranked
    # player without one, Hilde. Anna's fold partner Carl also dealt first (a conflict):
    # she meets Dora, who deals first (lower balance); Bert meets Carl, Bert dealing. Of
    # Emil Fini Gust Ida, Emil's fold partner Gust conflicts, Ida does not: Emil-Ida (Emil
    # deals, -1 < 0), then Gust-Fini (Gust deals).
    assert pairs_of(rounds[1]) == [
        ("Dora", "Anna"),
        ("Bert", "Carl"),
        ("Emil", "Ida"),
        ("Gust", "Fini"),
    ]
    assert rounds[1].bye == "Hilde"


def test_a_late_entry_joins_with_no_points_and_meets_no_one_twice() -> None:
    rounds, _ = play_event(NINE[:7], 4, late={3: ["Ida"]})
    assert "Ida" not in {k for r in rounds[:2] for p in r.pairings for k in (p.first, p.second)}
    assert any("Ida" in (p.first, p.second) for p in rounds[2].pairings) or rounds[2].bye == "Ida"
    met = [frozenset((p.first, p.second)) for r in rounds for p in r.pairings]
    assert len(met) == len(set(met))


def test_a_withdrawn_player_takes_no_further_pairing() -> None:
    rounds, _ = play_event(NINE, 5, gone={2: ["Carl"]})
    later = {k for r in rounds[2:] for p in r.pairings for k in (p.first, p.second)}
    assert "Carl" not in later and all(r.bye != "Carl" for r in rounds[2:])
    assert [len(r.pairings) for r in rounds] == [4, 4, 4, 4, 4]
    assert [r.bye is None for r in rounds] == [False, False, True, True, True]


def test_a_field_of_128_pairs_every_round_in_well_under_a_second() -> None:
    keys = [f"p{i:03}" for i in range(128)]
    rng = random.Random(11)
    # processor time: what the pairing costs, whatever else the machine is running
    start = time.process_time()
    rounds, _ = play_event(keys, 9, winner=lambda pair: rng.choice(pair))
    elapsed = time.process_time() - start
    met = [frozenset((p.first, p.second)) for r in rounds for p in r.pairings]
    assert len(met) == len(set(met)) == 9 * 64
    assert elapsed < 9 * 1.0, elapsed


def test_a_complete_round_robin_by_swiss_pairing_still_pairs_the_last_round() -> None:
    # 10 players, 9 rounds: by the last round every player has exactly one opponent left;
    # the matching finds the one pairing that remains.
    rounds, _ = play_event([f"p{i}" for i in range(10)], 9)
    met = {frozenset((p.first, p.second)) for r in rounds for p in r.pairings}
    assert len(met) == 45


def has_perfect(keys: list[str], met: set[frozenset[str]]) -> bool:
    """Brute force: can ``keys`` all be paired without a pair in ``met``?"""
    if not keys:
        return True
    a, rest = keys[0], keys[1:]
    return any(
        frozenset((a, b)) not in met and has_perfect([k for k in rest if k != b], met) for b in rest
    )


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 9), st.data())
def test_a_legal_pairing_is_found_exactly_when_one_exists(n: int, data: st.DataObject) -> None:
    keys = [chr(ord("a") + i) for i in range(n)]
    all_pairs = [frozenset(p) for p in itertools.combinations(keys, 2)]
    met = set(data.draw(st.lists(st.sampled_from(all_pairs), unique=True)))
    byes = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    points = data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=n, max_size=n))
    players = [
        SwissPlayer(k, points[i], frozenset(x for p in met if k in p for x in p) - {k}, byes[i])
        for i, k in enumerate(keys)
    ]
    if n % 2 == 0:
        possible = has_perfect(keys, met)
        sitters = [None]
    else:
        sitters = [k for k in keys if has_perfect([x for x in keys if x != k], met)]
        possible = bool(sitters)
    if not possible:
        with pytest.raises(NoPairing):
            pair_round(players)
        return
    rnd = pair_round(players)
    seated = [k for p in rnd.pairings for k in (p.first, p.second)]
    assert sorted(seated + ([rnd.bye] if rnd.bye else [])) == keys
    assert not {frozenset((p.first, p.second)) for p in rnd.pairings} & met
    if n % 2:
        fewest = min(byes[keys.index(k)] for k in sitters)
        assert rnd.bye in sitters and byes[keys.index(rnd.bye)] == fewest


def test_the_least_bad_pairing_has_the_fewest_rematches_when_the_director_accepts_them() -> None:
    players = [
        SwissPlayer("a", met=frozenset("bcd")),
        SwissPlayer("b", met=frozenset("a")),
        SwissPlayer("c", met=frozenset("a")),
        SwissPlayer("d", met=frozenset("a")),
    ]
    rnd = pair_round(players, 4, rematches=True)
    met = {frozenset(("a", x)) for x in "bcd"}
    assert sum(frozenset(p) in met for p in pairs_of(rnd)) == 1
    assert len(rnd.pairings) == 2


def test_a_pair_kept_apart_gives_way_before_it_moves_the_bye_when_the_event_says_so() -> None:
    players = [SwissPlayer("a", 2.0), SwissPlayer("b", 1.0), SwissPlayer("c", 0.0)]
    moved = pair_round(players, 3, apart=[("a", "b")])
    assert moved.bye == "b" and pairs_of(moved) == [("a", "c")]  # the leader's rival sits out
    kept = pair_round(players, 3, apart=[("a", "b")], apart_keeps_bye=True)
    assert kept.bye == "c" and sorted(pairs_of(kept)[0]) == ["a", "b"]


def test_pairs_are_kept_apart_only_in_the_first_rounds_the_event_says() -> None:
    from tally.events.formats.base import RoundState
    from tally.events.formats.swiss import Swiss

    def round_two(until: int | None) -> set[frozenset[str]]:
        state = RoundState(
            2,
            ("a", "b", "c", "d"),
            frozenset(),
            {
                "rounds": 3,
                "acceleration": "none",
                "match_points_per_win": 1.0,
                "repeated_floats": "allow",
                "apart_until": until,
            },
            ranked=["a", "b", "c", "d"],
            apart=(("a", "c"),),
        )
        return {frozenset((p.first, p.second)) for p in Swiss().next_round(state).pairings}

    assert frozenset("ac") not in round_two(None)
    assert frozenset("ac") not in round_two(2)
    assert frozenset("ac") in round_two(1)  # the fold pairs a with c once apart has ended
