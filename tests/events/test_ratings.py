"""Ratings as the engine computes them (tally.events.ratings): OpenSkill's own documented example,
the one-against-one update, the order matches are rated in, determinism, the ranked list."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tally.events.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    RatedMatch,
    Rating,
    expected_score,
    match_order,
    rate,
    update,
)

T0 = datetime(2026, 1, 8, 19, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_the_package_reproduces_its_own_documented_example() -> None:
    """The README of openskill 6 ("Limited Example"): two teams of two new players, the first
    wins; a and x move to exactly these values."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    r = model.rating
    assert (r().mu, r().sigma) == (25.0, 8.333333333333334)
    [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    assert (a.mu, b.mu) == (a.mu, a.mu) and (x.mu, y.mu) == (x.mu, x.mu)


def test_tally_starts_where_the_package_does_and_rates_one_against_one_as_it_does() -> None:
    from openskill.models import PlackettLuce

    assert (Rating().mu, Rating().sigma) == (DEFAULT_MU, DEFAULT_SIGMA) == (25.0, 25.0 / 3)
    model = PlackettLuce()
    [[w], [lo]] = model.rate([[model.rating()], [model.rating()]])
    won, lost = update(Rating(), Rating(), 1.0)
    assert (won.mu, won.sigma, lost.mu, lost.sigma) == (w.mu, w.sigma, lo.mu, lo.sigma)
    assert (won.mu, won.sigma) == (27.635389493140497, 8.06590141354368)
    assert lost.mu == pytest.approx(50.0 - won.mu)


def test_a_draw_leaves_equals_level_and_a_result_must_be_1_0_or_half() -> None:
    a, b = update(Rating(), Rating(), 0.5)
    assert a == b and a.mu == 25.0 and a.sigma < DEFAULT_SIGMA
    with pytest.raises(ValueError):
        update(Rating(), Rating(), 2.0)


def test_expected_score_between_equals_is_half_and_the_two_sides_add_up_to_one() -> None:
    strong, weak = Rating(30.0, 3.0), Rating(20.0, 3.0)
    assert expected_score(Rating(), Rating()) == 0.5
    assert expected_score(strong, weak) > 0.9
    assert expected_score(strong, weak) + expected_score(weak, strong) == pytest.approx(1.0)


def test_two_new_players_are_rated_as_two_players() -> None:
    """Regression: OpenSkill deep-copies the teams together, so one shared starting rating
    object would have made winner and loser one and the same."""
    table = rate([RatedMatch(1, T0, "Anna", "Bert", "Anna")])
    assert table.rating("Anna").mu > 27 and table.rating("Bert").mu < 23
    assert [r.player for r in table.rows] == ["Anna", "Bert"]
    assert [(r.won, r.lost, r.matches) for r in table.rows] == [(1, 0, 1), (0, 1, 1)]


def test_the_history_gives_each_players_rating_before_and_after_and_the_expected_result() -> None:
    table = rate(
        [
            RatedMatch(1, at(0), "Anna", "Bert", "Anna", "Club", (7, 3)),
            RatedMatch(2, at(30), "Bert", "Anna", "Bert", "Club", (7, 5)),
        ]
    )
    anna = table.history_of("Anna")
    assert [(c.match_id, c.opponent, c.result, c.score) for c in anna] == [
        (1, "Bert", 1.0, (7, 3)),
        (2, "Bert", 0.0, (5, 7)),
    ]
    assert anna[0].before == Rating() and anna[0].after == anna[1].before
    assert anna[1].after == table.rating("Anna")
    assert anna[0].expected == 0.5 and anna[1].expected > 0.5
    bert = table.history_of("Bert")
    assert bert[1].expected == pytest.approx(1 - anna[1].expected)


def season(seed: int, n: int = 60, players: int = 8) -> list[RatedMatch[str]]:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    out = []
    for i in range(n):
        a, b = rng.sample(names, 2)
        out.append(RatedMatch(i + 1, at(rng.randrange(0, 600)), a, b, rng.choice((a, b))))
    return out


def test_matches_are_rated_by_when_they_finished_then_by_number_in_whatever_order_given() -> None:
    matches = season(1)
    expected = rate(matches)
    for seed in range(3):
        shuffled = matches[:]
        random.Random(seed).shuffle(shuffled)
        assert rate(shuffled) == expected
    first = [c.match_id for c in expected.history[::2]]
    assert first == [m.match_id for m in sorted(matches, key=match_order)]
    # a tie on the time goes by match number
    same = [RatedMatch(2, T0, "A", "B", "B"), RatedMatch(1, T0, "A", "B", "A")]
    assert [c.match_id for c in rate(same).history[::2]] == [1, 2]


def test_the_order_of_finishing_matters_so_it_is_not_by_number() -> None:
    """The same two results in the other order give other ratings: order is part of the
    system, and it is the finishing order."""
    early = rate([RatedMatch(1, at(10), "A", "B", "A"), RatedMatch(2, at(5), "A", "C", "C")])
    late = rate([RatedMatch(1, at(5), "A", "B", "A"), RatedMatch(2, at(10), "A", "C", "C")])
    assert early.rating("A") != late.rating("A")


def test_players_who_never_meet_are_rated_apart_however_their_matches_interleave() -> None:
    one = [
        RatedMatch(i, at(i), *pair)
        for i, pair in enumerate([("A", "B", "A"), ("B", "C", "C"), ("A", "C", "A")], start=1)
    ]
    two = [
        RatedMatch(10 + i, at(100 + i), *pair)
        for i, pair in enumerate([("X", "Y", "Y"), ("Y", "Z", "Y")], start=1)
    ]
    together = rate(one + two)
    interleaved = rate([*one[:1], *two, *one[1:]])
    alone_one, alone_two = rate(one), rate(two)
    for p in "ABC":
        assert together.rating(p) == alone_one.rating(p) == interleaved.rating(p)
    for p in "XYZ":
        assert together.rating(p) == alone_two.rating(p) == interleaved.rating(p)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_recomputing_gives_the_same_ratings_bit_for_bit(seed: int) -> None:
    matches = season(seed, n=20, players=5)
    full = rate(matches)
    assert full == rate(list(matches))
    bare = rate(matches, history=False)
    assert bare.history == () and bare.rows == full.rows


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_a_win_raises_the_winner_and_lowers_the_loser_and_narrows_both(seed: int) -> None:
    for change in rate(season(seed, n=15, players=4)).history:
        if change.result == 1.0:
            assert change.after.mu > change.before.mu
        else:
            assert change.after.mu < change.before.mu
        assert change.after.sigma < change.before.sigma


def test_which_side_a_player_sits_on_does_not_matter() -> None:
    matches = season(7)
    swapped = [
        RatedMatch(m.match_id, m.finished_at, m.player_b, m.player_a, m.winner) for m in matches
    ]
    a, b = rate(matches), rate(swapped)
    assert [(r.player, r.rating) for r in a.rows] == [(r.player, r.rating) for r in b.rows]
    drawn = [RatedMatch(1, T0, "A", "B", None), RatedMatch(2, at(1), "A", "C", "A")]
    drawn_swapped = [RatedMatch(1, T0, "B", "A", None), RatedMatch(2, at(1), "C", "A", "A")]
    for p in "ABC":
        assert rate(drawn).rating(p).mu == pytest.approx(rate(drawn_swapped).rating(p).mu)


def test_the_list_is_ranked_by_the_conservative_rating_and_equals_share_a_rank() -> None:
    """Cid won once (mu higher than Ann's) but is less certain than Ann after three wins and
    a loss: the list puts Ann first. Two players with the same record share a rank."""
    matches = [
        RatedMatch(1, at(1), "Ann", "Bob", "Ann"),
        RatedMatch(2, at(2), "Ann", "Bob", "Ann"),
        RatedMatch(3, at(3), "Ann", "Bob", "Bob"),
        RatedMatch(4, at(4), "Ann", "Bob", "Ann"),
        RatedMatch(5, at(5), "Cid", "Dan", "Cid"),
        RatedMatch(6, at(6), "Eve", "Fay", "Eve"),
    ]
    table = rate(matches)
    by = {r.player: r for r in table.rows}
    assert by["Ann"].rating.conservative > by["Cid"].rating.conservative
    ranks = [r.rating.conservative for r in table.rows]
    assert ranks == sorted(ranks, reverse=True)
    assert by["Cid"].rank == by["Eve"].rank and by["Dan"].rank == by["Fay"].rank
    assert [r.player for r in table.rows if r.rank == by["Cid"].rank] == ["Cid", "Eve"]


def test_a_match_against_oneself_or_won_by_an_outsider_is_refused() -> None:
    with pytest.raises(ValueError):
        RatedMatch(1, T0, "A", "A", "A")
    with pytest.raises(ValueError):
        RatedMatch(1, T0, "A", "B", "C")
