"""Players' categories and category prizes through the store (SQLite and PostgreSQL): a
player put in categories and taken out, audited and undone, kept through a merge; the
standings of a category ranked within it; and a Preisschnapsen's category prize list with
ties, checked to the cent: a player wins at most one prize, the higher, and the next of the
category moves up."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tests.store.test_knockouts import players, win

RULES = "sixty-six match_target=3"
EIGHT = [f"P{i}" for i in range(1, 9)]


def test_a_player_is_put_in_categories_taken_out_and_undo_takes_it_back(store: Any) -> None:
    players(store, ["Anna Berger", "Bert Huber"])
    shown = store.players.set_categories("Anna", ["Damen", "  club   members "])
    assert shown.categories == ("club members", "Damen")
    with pytest.raises(Refused, match='is in category "Damen" already'):
        store.players.set_categories("Anna", ["DAMEN"])
    with pytest.raises(NotFound, match=r'not in category "Herren" \(theirs: club members'):
        store.players.set_categories("Anna", ["Herren"], remove=True)
    with pytest.raises(Refused, match="cannot contain '='"):
        store.players.set_categories("Anna", ["A=B"])
    assert store.players.set_categories("Anna", ["damen"], remove=True).categories == (
        "club members",
    )
    assert [p.categories for p in store.players.all()] == [("club members",), ()]
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.players.get("Anna").categories == ("club members", "Damen")
    store.audit.reverse(store.audit.log()[-3].id)  # the first: put in Damen, club members
    assert store.players.get("Anna").categories == ()


def test_a_merge_joins_the_categories_and_undo_parts_them(store: Any) -> None:
    players(store, ["Anna Berger", "Anna B"])
    store.players.set_categories("Anna Berger", ["Damen"])
    store.players.set_categories("Anna B", ["damen", "Senioren"])
    assert store.players.merge("Anna Berger", "Anna B").categories == ("Damen", "Senioren")
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.players.get("Anna Berger").categories == ("Damen",)
    assert store.players.get("Anna B").categories == ("damen", "Senioren")


def knockout_after_round_one(store: Any) -> tuple[Any, list[str], list[str]]:
    """Eight players, one life: round 1 played, the first of each table winning. The
    winners (tied 1st) and the losers (tied 5th), in seed order."""
    players(store, EIGHT)
    ev = store.events.create(
        "Preisschnapsen", kind="knockout", players=EIGHT, rules=RULES, lives=1, draw_seed="7"
    )
    rnd = store.events.start_round(ev.id, 1)
    for p in rnd.pairings:
        win(store, p.matches[0].match_id, p.first)
    won = sorted((p.first for p in rnd.pairings), key=EIGHT.index)
    lost = sorted((p.second for p in rnd.pairings), key=EIGHT.index)
    return ev, won, lost


def test_a_category_prize_list_with_ties_adds_up_to_the_cent(store: Any) -> None:
    ev, won, lost = knockout_after_round_one(store)
    store.players.set_categories(won[0], ["Damen"])
    store.players.set_categories(lost[0], ["Damen"])
    store.players.set_categories(lost[1], ["Damen"])
    store.players.set_categories(lost[2], ["Jugend"])
    store.prizes.set_money(
        ev.id, entry_fee=735, shares="40,20,10", category_prizes=["Damen=10,5", "Jugend=5 €;2 €"]
    )
    view = store.knockouts.view(ev)
    p = view.prizes
    assert p is not None and p.table.pool == 5880
    assert p.table.prizes == (2352, 1176, 588)
    assert [(c.category, c.prizes) for c in p.categories] == [
        ("Damen", (588, 294)),
        ("Jugend", (500, 200)),
    ]
    got = {x.player: (x.prize, x.prize_category) for x in view.lines}
    # the four winners share places 1-4 (23.52 + 11.76 + 5.88 + 0) / 4 = 10.29 each; the
    # woman among them takes that, not the women's 5.88: the next two women, tied, move up
    # and share the women's 5.88 + 2.94; the junior wins the junior's fixed 5
    assert all(got[w] == (1029, None) for w in won)
    assert got[lost[0]] == got[lost[1]] == (441, "Damen")
    assert got[lost[2]] == (500, "Jugend")
    assert got[lost[3]] == (0, None)
    assert (p.paid_overall, [c.paid for c in p.categories]) == (4116, [882, 500])
    assert (p.paid, p.club) == (5498, 382)
    assert p.paid_overall + sum(c.paid for c in p.categories) + p.club == p.table.pool


def test_a_category_prize_higher_than_the_overall_one_is_taken_and_the_next_moves_up(
    store: Any,
) -> None:
    ev, won, lost = knockout_after_round_one(store)
    store.players.set_categories(won[1], ["Jugend"])
    store.players.set_categories(lost[3], ["Jugend"])
    store.prizes.set_money(ev.id, entry_fee=1000, shares="50", category_prizes=["Jugend=30 €"])
    view = store.knockouts.view(ev)
    got = {x.player: x.prize for x in view.lines}
    # the junior among the winners takes the junior's 30 rather than a quarter of 40; the
    # other three winners share the overall 40 (13.33 each, the cent left for the club)
    assert got[won[1]] == 3000
    assert [got[w] for w in won if w != won[1]] == [1333] * 3
    assert got[lost[3]] == 0
    assert view.prizes is not None and (view.prizes.paid, view.prizes.club) == (6999, 1001)


def test_category_percentages_and_the_places_together_stay_within_the_pool(store: Any) -> None:
    ev, _won, _lost = knockout_after_round_one(store)
    store.prizes.set_money(ev.id, entry_fee=1000, shares="60,30")
    with pytest.raises(Refused, match="add up to 105 %, more than the pool"):
        store.prizes.set_money(ev.id, category_prizes=["Damen=5", "Senioren=5,5"])
    with pytest.raises(Refused, match="is not a category's prize table"):
        store.prizes.set_money(ev.id, category_prizes=["Damen 5"])
    store.prizes.set_money(ev.id, category_prizes=["Damen=5", "Senioren=5"])
    store.prizes.set_money(ev.id, category_prizes=["damen=", "Senioren=4"])
    view = store.knockouts.view(ev)
    assert view.prizes is not None
    assert [(c.category, c.shares) for c in view.prizes.categories] == [("Senioren", ("4",))]
    store.audit.reverse(store.audit.log()[-1].id)
    view = store.knockouts.view(ev)
    assert view.prizes is not None and len(view.prizes.categories) == 2


def test_the_standings_of_a_category_rank_within_it_with_the_overall_rank_beside(
    store: Any,
) -> None:
    ev, won, lost = knockout_after_round_one(store)
    store.players.set_categories(won[2], ["Senioren"])
    store.players.set_categories(lost[0], ["Senioren"])
    store.players.set_categories(lost[1], ["senioren"])
    view = store.events.in_category(store.events.standings(ev.id), "SENIOREN")
    assert view.category == "Senioren"
    assert [(r.rank, r.overall_rank, r.player) for r in view.rows] == [
        (1, 1, won[2]),
        (2, 5, lost[0]),
        (2, 5, lost[1]),
    ]
    with pytest.raises(NotFound, match=r'no player is in category "Damen" \(the categories: '):
        store.events.in_category(store.events.standings(ev.id), "Damen")
