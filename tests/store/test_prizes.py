"""A Preisschnapsen's money and buy-backs through the store: the prize table from the entry
fees and buy-back fees, rounded down with the rest to the club, and a player out buying back
a life (Nachkauf) until the round the director set, once by default; undone by the audit."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tally.errors import Refused
from tally.events.prizes import PrizeList, check_shares, payout, pool, prize_table, prizes_by_rank
from tests.store.test_knockouts import players, win

RULES = "sixty-six match_target=3"
SIX = [f"P{i}" for i in range(1, 7)]


def knockout(store: Any, lives: int = 1) -> Any:
    players(store, SIX)
    return store.events.create(
        "Preisschnapsen", kind="knockout", players=SIX, rules=RULES, lives=lives, draw_seed="2026"
    )


def first_loser(store: Any, ev: Any) -> str:
    """Start and play round 1, the first player of each table winning; the loser at
    table 1."""
    rnd = store.events.start_round(ev.id, 1)
    for p in rnd.pairings:
        win(store, p.matches[0].match_id, p.first)
    return str(rnd.pairings[0].second)


def test_the_prizes_never_add_up_to_more_than_the_pool() -> None:
    for total in range(0, 20_000, 7):
        table = prize_table(total, [Decimal(45), Decimal("27.5"), Decimal(17), Decimal(10)], 50)
        assert table.paid <= total and table.club == total - table.paid
        assert all(p % 50 == 0 for p in table.prizes)


def test_shares_are_checked_with_clear_errors() -> None:
    with pytest.raises(Refused, match="add up to 110 %"):
        check_shares([Decimal(60), Decimal(50)], 8)
    with pytest.raises(Refused, match="4 places paid but only 3 players"):
        check_shares([Decimal(40), Decimal(30), Decimal(20), Decimal(10)], 3)
    with pytest.raises(Refused, match="place 2 is 0"):
        check_shares([Decimal(60), Decimal(0)], 8)


def test_players_sharing_a_place_share_its_prizes() -> None:
    table = prize_table(10_000, [Decimal(50), Decimal(30), Decimal(20)], 100)
    assert prizes_by_rank([1, 2, 2, 4], table) == [5000, 2500, 2500, 0]


def standing_ranks(tied: list[int]) -> list[int]:
    """The ranks of a field whose players tie in groups of ``tied`` (1, 2, 2, 4, ...)."""
    ranks: list[int] = []
    for size in tied:
        ranks += [len(ranks) + 1] * size
    return ranks


@given(
    tied=st.lists(st.integers(1, 6), min_size=1, max_size=12),
    entry_fee=st.integers(0, 5_000),
    bought=st.integers(0, 20),
    buy_back_fee=st.integers(0, 5_000),
    shares=st.lists(st.integers(1, 40), min_size=1, max_size=6),
    unit=st.sampled_from([1, 10, 50, 100, 500]),
)
def test_the_pool_is_what_the_players_win_and_what_is_left_for_the_club_to_the_cent(
    tied: list[int], entry_fee: int, bought: int, buy_back_fee: int, shares: list[int], unit: int
) -> None:
    ranks = standing_ranks(tied)
    shares = shares[: len(ranks)]
    while sum(shares) > 100:
        shares.pop()
    total = pool(len(ranks), entry_fee, bought, buy_back_fee)
    table = prize_table(total, [Decimal(x) for x in shares], unit)
    paid = payout(ranks, table)
    assert paid.paid + paid.club == total
    assert 0 <= paid.paid <= table.paid and paid.club >= table.club
    assert all(x % unit == 0 and x >= 0 for x in paid.won)
    # players sharing a place win the same
    for rank in set(ranks):
        assert len({w for r, w in zip(ranks, paid.won, strict=True) if r == rank}) == 1


@given(
    tied=st.lists(st.integers(1, 4), min_size=1, max_size=10),
    entry_fee=st.integers(0, 5_000),
    shares=st.lists(st.integers(1, 30), min_size=1, max_size=5),
    unit=st.sampled_from([1, 10, 50, 100]),
    categories=st.lists(
        st.tuples(
            st.sets(st.integers(0, 30)),
            st.lists(st.integers(1, 3_000), min_size=1, max_size=4),
            st.booleans(),
        ),
        max_size=3,
    ),
)
def test_with_category_prizes_and_ties_the_pool_still_adds_up_to_the_cent(
    tied: list[int],
    entry_fee: int,
    shares: list[int],
    unit: int,
    categories: list[tuple[set[int], list[int], bool]],
) -> None:
    """Overall prizes, category prizes (fixed amounts, or shares rounded to the unit) and
    the club's part are the pool to the cent; a player wins at most one prize, a category's
    only a player of it; a list never pays more than its places; players level on the same
    lists win the same; with no categories it is the table shared by rank."""
    ranks = standing_ranks(tied)
    while sum(shares) > 100:
        shares.pop()
    total = pool(len(ranks), entry_fee)
    table = prize_table(total, [Decimal(x) for x in shares], unit)
    lists = [
        PrizeList(
            tuple(sorted(prizes, reverse=True)),
            {i for i in members if i < len(ranks)},
            1 if fixed else unit,
        )
        for members, prizes, fixed in categories
    ]
    won = payout(ranks, table, lists)
    paid = [won.paid_from(n) for n in range(len(lists) + 1)]
    assert sum(paid) + won.club == total == won.pool
    assert paid[0] <= table.paid
    assert all(paid[n + 1] <= sum(x.prizes) for n, x in enumerate(lists))
    for i, (amount, number) in enumerate(zip(won.won, won.lists, strict=True)):
        assert (amount > 0) == (number >= 0)
        if number > 0:
            assert i in (lists[number - 1].members or ())
    if not lists:
        assert list(won.won) == prizes_by_rank(ranks, table)
    for i, j in ((i, j) for i in range(len(ranks)) for j in range(len(ranks))):
        same = all((i in (x.members or ())) == (j in (x.members or ())) for x in lists)
        if ranks[i] == ranks[j] and same:
            assert won.won[i] == won.won[j]


def test_the_prize_table_from_entry_fees_rounded_to_whole_euros(store: Any) -> None:
    ev = knockout(store)
    store.prizes.set_money(ev.id, entry_fee=1050, shares="50,30,20", unit=100)
    view = store.knockouts.view(ev)
    assert view.prizes is not None
    assert view.prizes.table.pool == 6300
    assert view.prizes.table.prizes == (3100, 1800, 1200)
    assert view.prizes.table.club == 200
    # before the first round all six share 1st: the three prizes shared, whole euros each,
    # and the euro a share cannot hold is the club's too: 60 paid, 3 left, 63 in the pool
    assert [x.prize for x in view.lines] == [1000] * 6
    assert (view.prizes.paid, view.prizes.club) == (6000, 300)
    with pytest.raises(Refused, match="more than the pool"):
        store.prizes.set_money(ev.id, shares="70,40")
    with pytest.raises(Refused, match="7 places paid but only 6 players"):
        store.prizes.set_money(ev.id, shares="40,20,10,10,5,5,5")


def test_a_player_out_buys_back_a_life_and_is_drawn_again(store: Any) -> None:
    ev = knockout(store, lives=1)
    store.prizes.set_money(ev.id, entry_fee=1000, shares="60,40", buy_back_until=2)
    loser = first_loser(store, ev)
    line = next(x for x in store.knockouts.view(ev).lines if x.player == loser)
    assert line.out_in == 1
    store.prizes.buy_back(ev.id, loser)
    view = store.knockouts.view(ev)
    line = next(x for x in view.lines if x.player == loser)
    assert (line.lives, line.out_in, line.bought) == (1, None, 1)
    assert view.prizes is not None and view.prizes.table.pool == 7000  # the fee: the entry fee
    rnd = store.events.start_round(ev.id, 2)
    assert loser in {n for p in rnd.pairings for n in (p.first, p.second)} | {rnd.bye}


def test_a_player_buys_back_once_by_default_and_not_after_the_last_round(store: Any) -> None:
    ev = knockout(store, lives=1)
    store.prizes.set_money(ev.id, buy_back_until=2, buy_back_fee=500)
    loser = first_loser(store, ev)
    store.prizes.buy_back(ev.id, loser)
    with pytest.raises(Refused, match="is still in"):
        store.prizes.buy_back(ev.id, loser)
    winner = next(
        x.player for x in store.knockouts.view(ev).lines if x.out_in is None and x.player != loser
    )
    with pytest.raises(Refused, match="is still in"):
        store.prizes.buy_back(ev.id, winner)


def test_a_player_out_in_the_last_round_for_buy_backs_is_too_late(store: Any) -> None:
    ev = knockout(store, lives=1)
    store.prizes.set_money(ev.id, buy_back_until=2)
    first_loser(store, ev)
    rnd = store.events.start_round(ev.id, 2)
    for p in rnd.pairings:
        win(store, p.matches[0].match_id, p.first)
    with pytest.raises(Refused, match="too late: buy-backs are taken until round 2"):
        store.prizes.buy_back(ev.id, rnd.pairings[0].second)


def test_a_buy_back_only_straight_after_elimination_when_the_event_says_so(store: Any) -> None:
    ev = knockout(store, lives=1)
    store.prizes.set_money(ev.id, buy_back_until=4, buy_back_at_once=True)
    late = first_loser(store, ev)
    rnd = store.events.start_round(ev.id, 2)
    for p in rnd.pairings:
        win(store, p.matches[0].match_id, p.first)
    with pytest.raises(Refused, match="only straight after elimination, before round 2"):
        store.prizes.buy_back(ev.id, late)
    store.prizes.buy_back(ev.id, rnd.pairings[0].second)  # out in round 2: straight after
    assert store.knockouts.view(ev).buy_back_at_once
    store.prizes.set_money(ev.id, buy_back_at_once=False)
    store.prizes.buy_back(ev.id, late)  # any round up to round 4 again


@pytest.mark.parametrize(("lives", "until"), [(1, 1), (2, 2), (3, 1)])
def test_a_last_round_for_buy_backs_that_can_never_apply_is_refused_with_the_reason(
    store: Any, lives: int, until: int
) -> None:
    ev = knockout(store, lives=lives)
    with pytest.raises(Refused, match=f"{until} never allows a buy-back: with {lives} life"):
        store.prizes.set_money(ev.id, buy_back_until=until)
    store.prizes.set_money(ev.id, buy_back_until=lives + 1)
    assert store.knockouts.view(ev).buy_back_until == lives + 1


def test_no_buy_back_unless_the_event_takes_them_and_undo_takes_it_back(store: Any) -> None:
    ev = knockout(store, lives=1)
    loser = first_loser(store, ev)
    with pytest.raises(Refused, match="takes no buy-backs"):
        store.prizes.buy_back(ev.id, loser)
    store.prizes.set_money(ev.id, buy_back_until=2, buy_back_fee=500, entry_fee=1000, shares="100")
    store.prizes.buy_back(ev.id, loser)
    assert store.knockouts.view(ev).prizes.table.pool == 6500  # type: ignore[union-attr]
    store.audit.reverse(store.audit.log()[-1].id)
    view = store.knockouts.view(ev)
    line = next(x for x in view.lines if x.player == loser)
    assert (line.out_in, line.bought) == (1, 0)
    assert view.prizes is not None and view.prizes.table.pool == 6000
