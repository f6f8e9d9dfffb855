"""The treasurer's desk through the store (SQLite and PostgreSQL): players checked in, what
they paid and owe (entry fee, buy-backs, extra fees), prizes paid out; an event that pairs
only players checked in; the money sheet adding up to the cent with every control used, a
season's totals, and undo taking each change back."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tally.errors import NotFound, Refused
from tally.events.cashbook import Account, cash_book
from tally.store.treasurer import Desk
from tests.store.test_prizes import RULES, SIX, first_loser, knockout


def test_the_desk_takes_down_present_paid_extra_and_what_is_due(store: Any) -> None:
    ev = knockout(store)
    store.prizes.set_money(ev.id, entry_fee=1000, shares="60,40", buy_back_until=2)
    account = store.treasurer.check_in(ev.id, "P1", Desk(paid=500, extra=350))
    assert (account.present, account.owed, account.paid, account.due) == (True, 1350, 500, 850)
    assert store.treasurer.check_in(ev.id, "P1", Desk(paid_in_full=True)).due == 0
    assert store.treasurer.check_in(ev.id, "P2", Desk(paid=2000)).due == -1000  # change
    assert store.treasurer.check_in(ev.id, "P3", Desk(present=False)).present is False
    book = store.treasurer.book(ev.id)
    assert (book.present, book.entries, book.extra, book.paid) == (2, 6000, 350, 3350)
    assert book.due == 6350 - 3350 and book.balances()
    with pytest.raises(Refused, match="not an amount from 0 to 1000000 euros"):
        store.treasurer.check_in(ev.id, "P1", Desk(paid=-1))
    store.players.add("Outsider")
    with pytest.raises(NotFound, match="Outsider"):
        store.treasurer.check_in(ev.id, "Outsider", Desk())


def test_buy_backs_are_owed_and_prizes_paid_out_and_the_sheet_adds_up(store: Any) -> None:
    ev = knockout(store)
    store.prizes.set_money(
        ev.id, entry_fee=1000, shares="50,30", unit=100, buy_back_until=2, buy_back_fee=500
    )
    loser = first_loser(store, ev)
    store.prizes.buy_back(ev.id, loser)
    account = store.treasurer.check_in(ev.id, loser, Desk(paid_in_full=True))
    assert (account.buy_backs, account.owed, account.due) == (1, 1500, 0)
    book = store.treasurer.book(ev.id)
    assert book.pool == 6500 == book.entries + book.buy_back_fees
    top = book.accounts[0]
    assert top.prize > 0
    paid = store.treasurer.check_in(ev.id, top.player, Desk(prize_paid_out=True))
    assert paid.to_pay_out == 0
    book = store.treasurer.book(ev.id)
    assert book.paid_out == top.prize and book.balances()
    assert book.club == book.pool - book.prizes + book.extra


def test_undo_takes_a_check_in_back(store: Any) -> None:
    ev = knockout(store)
    store.treasurer.check_in(ev.id, "P1", Desk(paid=1000))
    first = store.audit.log()[-1].id
    store.treasurer.check_in(ev.id, "P1", Desk(extra=200))
    store.audit.reverse(store.audit.log()[-1].id)
    account = store.treasurer.book(ev.id).accounts
    mine = next(a for a in account if a.player == "P1")
    assert (mine.paid, mine.extra, mine.present) == (1000, 0, True)
    store.audit.reverse(first)
    mine = next(a for a in store.treasurer.book(ev.id).accounts if a.player == "P1")
    assert (mine.paid, mine.present) == (0, False)


def test_an_event_that_requires_check_in_pairs_only_players_checked_in(store: Any) -> None:
    ev = knockout(store)
    store.treasurer.require(ev.id, True)
    for name in SIX[:5]:
        store.treasurer.check_in(ev.id, name, Desk())
    with pytest.raises(Refused, match=r"pairs only players checked in; not checked in: P6\. Check"):
        store.events.start_round(ev.id, 1)
    store.events.withdraw(ev.id, "P6")
    rnd = store.events.start_round(ev.id, 1)
    paired = {n for p in rnd.pairings for n in (p.first, p.second)} | {rnd.bye}
    assert "P6" not in paired


def test_undo_of_the_requirement_pairs_without_check_in_again(store: Any) -> None:
    ev = knockout(store)
    store.treasurer.require(ev.id, True)
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.events.start_round(ev.id, 1).pairings


def test_a_merge_keeps_what_both_entries_paid(store: Any) -> None:
    ev = knockout(store)
    store.players.add("P1 again")
    other = store.events.create(
        "Herbst", kind="knockout", players=["P1 again", "P2"], rules=RULES, lives=1
    )
    store.treasurer.check_in(ev.id, "P1", Desk(paid=500))
    store.treasurer.check_in(other.id, "P1 again", Desk(paid=700, extra=100))
    store.players.merge("P1", "P1 again")
    mine = next(a for a in store.treasurer.book(other.id).accounts if a.player == "P1")
    assert (mine.present, mine.paid, mine.extra) == (True, 700, 100)
    assert store.treasurer.book(ev.id).accounts[0].paid in (0, 500)
    assert sum(a.paid for a in store.treasurer.book(ev.id).accounts) == 500


def test_a_merge_in_one_event_adds_up_the_desk_rows(store: Any) -> None:
    for name in ("Anna", "Anna B", "Bert", "Carl"):
        store.players.add(name)
    ev = store.events.create(
        "Abend", kind="knockout", players=["Anna", "Anna B", "Bert", "Carl"], rules=RULES, lives=1
    )
    store.treasurer.check_in(ev.id, "Anna", Desk(present=False, paid=500))
    store.treasurer.check_in(ev.id, "Anna B", Desk(paid=300, extra=200))
    store.players.merge("Anna", "Anna B")
    mine = next(a for a in store.treasurer.book(ev.id).accounts if a.player == "Anna")
    assert (mine.present, mine.paid, mine.extra) == (True, 800, 200)


def test_a_season_adds_up_the_events_with_money(store: Any) -> None:
    first = knockout(store)
    store.prizes.set_money(first.id, entry_fee=1000, shares="50")
    store.treasurer.check_in(first.id, "P1", Desk(paid_in_full=True, extra=250))
    second = store.events.create(
        "Herbst", kind="knockout", players=SIX[:4], rules="sixty-six match_target=3", lives=1
    )
    store.prizes.set_money(second.id, entry_fee=500, shares="100")
    store.events.create("Nothing", kind="round-robin", players=SIX[:4], rules="sixty-six")
    season = store.treasurer.season(date_from=date(2000, 1, 1))
    assert [e[1] for e in season.events] == ["Preisschnapsen", "Herbst"]
    assert season.total("entries") == 6000 + 2000
    assert season.total("extra") == 250
    assert season.total("club") == 3000 + 0 + 250
    assert store.treasurer.season(date_to=date(2000, 1, 1)).events == ()


accounts = st.builds(
    Account,
    player=st.text("abc", min_size=1, max_size=3),
    present=st.booleans(),
    entry=st.integers(0, 5000),
    buy_backs=st.integers(0, 3),
    buy_back_fees=st.integers(0, 5000),
    extra=st.integers(0, 3000),
    paid=st.integers(0, 20000),
    prize=st.integers(0, 10000),
    prize_category=st.sampled_from([None, "Damen", "Jugend"]),
    paid_out=st.integers(0, 10000),
)


@given(st.lists(accounts, max_size=12))
def test_every_sheet_of_accounts_balances_to_the_cent(given_accounts: list[Account]) -> None:
    pool = sum(a.entry + a.buy_back_fees for a in given_accounts)
    book = cash_book(given_accounts, pool)
    assert book.balances()
    assert book.cash + book.due - book.to_pay_out == book.club
    assert book.overall_prizes + sum(x for _, x in book.category_prizes()) == book.prizes


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    fee=st.integers(0, 3000),
    back_fee=st.integers(0, 3000),
    unit=st.sampled_from([1, 50, 100]),
    shares=st.sampled_from(["50,30,20", "40,25", "33.33,33.33,33.33", "100"]),
    desks=st.lists(
        st.tuples(
            st.integers(0, 5),
            st.booleans(),
            st.integers(0, 6000),
            st.integers(0, 900),
            st.booleans(),
            st.booleans(),
        ),
        max_size=8,
    ),
    buy_back=st.booleans(),
    woman=st.integers(0, 5),
)
def test_the_money_sheet_balances_with_every_control_used(
    store: Any,
    fee: int,
    back_fee: int,
    unit: int,
    shares: str,
    desks: list[tuple[int, bool, int, int, bool, bool]],
    buy_back: bool,
    woman: int,
) -> None:
    """Entry fees, buy-backs, category prizes, extra fees, part and full payments, change,
    prizes paid out, and undo of the last change: the sheet adds up to the cent each time,
    its pool is the prize table's and its prizes the standings'."""
    run = len(store.events.all()) + 1
    field = [f"R{run}P{i}" for i in range(6)]
    for name in field:
        store.players.add(name)
    ev = store.events.create(
        f"Run {run}", kind="knockout", players=field, rules=RULES, lives=1, draw_seed="2026"
    )
    store.players.set_categories(field[woman], ["Damen"])
    store.prizes.set_money(
        ev.id,
        entry_fee=fee,
        shares=shares,
        unit=unit,
        buy_back_until=2,
        buy_back_fee=back_fee,
        category_prizes=["Damen=10 €"],
    )
    if buy_back:
        store.prizes.buy_back(ev.id, first_loser(store, ev))
    for who, present, paid, extra, in_full, paid_out in desks:
        out = None if paid_out else paid // 3
        desk = Desk(present, None if in_full else paid, in_full, extra, out, paid_out)
        store.treasurer.check_in(ev.id, field[who], desk)
    book = store.treasurer.book(ev.id)
    view = store.knockouts.view(ev)
    assert book.balances()
    assert view.prizes is not None and book.pool == view.prizes.table.pool
    assert book.prizes == view.prizes.paid and book.club_from_pool == view.prizes.club
    if desks:
        store.audit.reverse(store.audit.log()[-1].id)
        assert store.treasurer.book(ev.id).balances()
