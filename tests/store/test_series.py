"""Series stored and ranked (tally.store.series), on SQLite and (when configured)
PostgreSQL: created from events, standings from the events' standings, audited."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tests.store_support import dump


def win(store: Any, event: int, winner: str, loser: str) -> None:
    m = store.matches.start(winner, loser, first_dealer=winner, event=event)
    for points in (3, 3, 1):
        store.deals.quick_result(m.id, winner=winner, points=points, reason="claim")


def evening(store: Any, name: str, results: list[tuple[str, str]]) -> int:
    players = sorted({p for pair in results for p in pair})
    ev = store.events.create(name, players=players)
    for winner, loser in results:
        win(store, ev.id, winner, loser)
    return int(ev.id)


@pytest.fixture
def club(store: Any) -> tuple[Any, list[int]]:
    for name in ("Anna", "Bert", "Carl", "Dora"):
        store.players.add(name)
    # evening 1: Anna 2 wins, Bert 1, Carl 0 -> 1. Anna, 2. Bert, 3. Carl
    one = evening(store, "January", [("Anna", "Bert"), ("Anna", "Carl"), ("Bert", "Carl")])
    # evening 2: Bert 2 wins, Dora 1, Anna 0 -> 1. Bert, 2. Dora, 3. Anna
    two = evening(store, "February", [("Bert", "Dora"), ("Bert", "Anna"), ("Dora", "Anna")])
    # evening 3: Carl beats Dora; Anna and Bert entered but play nothing
    three = store.events.create("March", players=["Anna", "Bert", "Carl", "Dora"]).id
    win(store, three, "Carl", "Dora")
    return store, [one, two, int(three)]


def test_a_series_ranks_by_the_points_of_each_events_placings(club: Any) -> None:
    store, evs = club
    view = store.series.create(
        "Grand Prix", events=[str(e) for e in evs], points=[10, 6, 4, 3], best=2
    )
    assert [e.name for e in view.events] == ["January", "February", "March"]
    assert (view.points, view.best) == ((10.0, 6.0, 4.0, 3.0), 2)
    rows = store.series.standings("grand prix").rows
    # Anna 10 + 4 = 14; Bert 6 + 10 = 16; Carl 4 + 10 = 14; Dora 6 + 6 = 12 (March: 2nd of
    # the two who played). Anna and Carl: 14 each, one 1st and one 3rd each: shared rank 2.
    assert [(r.rank, r.player, r.total) for r in rows] == [
        (1, "Bert", 16),
        (2, "Anna", 14),
        (2, "Carl", 14),
        (4, "Dora", 12),
    ]
    anna = rows[1]
    assert [None if x is None else (x.rank, x.points, x.counted) for x in anna.results] == [
        (1, 10, True),
        (3, 4, True),
        None,
    ]  # no match in March: no result there


def test_a_series_is_found_by_number_or_name_and_listed(club: Any) -> None:
    store, _evs = club
    made = store.series.create("Grand Prix", events=["January", "February"], points=[5, 3])
    assert store.series.get(made.id) == store.series.get("  GRAND   prix ") == made
    assert [s.name for s in store.series.all()] == ["Grand Prix"]
    with pytest.raises(NotFound):
        store.series.get("Spring Cup")


def test_refusals_store_nothing(club: Any, db_url: str) -> None:
    store, _evs = club
    before = dump(db_url)
    for kwargs in (
        {"events": ["1", "1"], "points": [5]},
        {"events": ["99"], "points": [5]},
        {"events": [], "points": [5]},
        {"events": ["1"], "points": [3, 5]},
        {"events": ["1", "2"], "points": [5], "best": 3},
    ):
        with pytest.raises((Refused, NotFound)):
            store.series.create("Cup", **kwargs)
    with pytest.raises(Refused):
        store.series.create("42", events=["1"], points=[5])
    assert dump(db_url) == before
    store.series.create("Cup", events=["1"], points=[5])
    with pytest.raises(Refused):
        store.series.create("cup", events=["2"], points=[5])


def test_creating_a_series_is_audited_and_undone(club: Any, db_url: str) -> None:
    store, _evs = club
    before = dump(db_url)
    made = store.series.create("Cup", events=["1", "2"], points=[5, 3])
    entry = store.audit.log()[-1]
    assert (entry.command, entry.entity, entry.entity_id) == ("series create", "series", made.id)
    store.audit.reverse(entry.id)
    after = dump(db_url)
    assert after["series"] == after["series_events"] == []
    assert {k: v for k, v in after.items() if k != "audit_log"} == {
        k: v for k, v in before.items() if k != "audit_log"
    }
    undo = store.audit.log()[-1]
    store.audit.reverse(undo.id)  # and back again
    assert store.series.get("Cup").events == made.events


def test_an_event_of_a_series_is_not_removed_by_undoing_its_creation(store: Any) -> None:
    store.players.add("Anna")
    ev = store.events.create("Lonely", players=["Anna"])
    store.series.create("Cup", events=[str(ev.id)], points=[5])
    created = next(e for e in store.audit.log() if e.command == "event create")
    with pytest.raises(Refused, match="series"):
        store.audit.reverse(created.id)
