"""Ratings from what is stored (tally.store.ratings), on SQLite and (when configured)
PostgreSQL: which matches count, in which order, and that a correction shows at once."""

from __future__ import annotations

from typing import Any

from tally.events.ratings import RatedMatch, rate


def win(store: Any, match_id: int, winner: str, loser: str) -> None:
    """The loser takes 2, then the winner claims 3, 3 and 1 (7: the Sixty-Six target)."""
    store.deals.quick_result(match_id, winner=loser, points=2, reason="claim")
    for points in (3, 3, 1):
        store.deals.quick_result(match_id, winner=winner, points=points, reason="claim")


def played(store: Any, a: str, b: str, winner: str, event: int | None = None) -> int:
    m = store.matches.start(a, b, first_dealer=a, event=event)
    win(store, m.id, winner, b if winner == a else a)
    return int(m.id)


def test_finished_matches_of_events_and_outside_them_are_rated_as_the_engine_rates_them(
    store: Any,
) -> None:
    store.players.add("Anna Berger")
    store.players.add("Bert Huber")
    store.players.add("Carl Moser")
    ev = store.events.create("Thursday club", players=["Anna", "Bert", "Carl"])
    m1 = played(store, "Anna", "Bert", "Anna", event=ev.id)
    m2 = played(store, "Bert", "Carl", "Carl")  # a friendly match, no event
    m3 = played(store, "Carl", "Anna", "Anna", event=ev.id)
    unfinished = store.matches.start("Anna", "Carl", first_dealer="Anna")
    store.deals.quick_result(unfinished.id, winner="Carl", points=3, reason="claim")
    found, names = store.ratings.rated_matches()
    assert [(m.match_id, names[m.winner], m.event, m.score) for m in found] == [
        (m1, "Anna Berger", "Thursday club", (7, 2)),
        (m2, "Carl Moser", None, (2, 7)),
        (m3, "Anna Berger", "Thursday club", (2, 7)),
    ]
    view = store.ratings.table()
    assert view.matches_rated == 3
    by_name = {r.player: r for r in view.rows}
    assert set(by_name) == {"Anna Berger", "Bert Huber", "Carl Moser"}
    assert (by_name["Anna Berger"].won, by_name["Anna Berger"].lost) == (2, 0)
    assert view.rows[0].player == "Anna Berger" and view.rows[0].rank == 1
    engine = rate(
        [
            RatedMatch(
                m.match_id, m.finished_at, names[m.player_a], names[m.player_b], names[m.winner]
            )
            for m in found
        ]
    )
    for row in view.rows:
        assert (row.rating, row.deviation) == (
            engine.rating(row.player).mu,
            engine.rating(row.player).sigma,
        )


def test_matches_are_rated_in_the_order_they_finished_not_the_order_they_started(
    store: Any,
) -> None:
    for name in ("Anna", "Bert", "Carl"):
        store.players.add(name)
    first = store.matches.start("Anna", "Bert", first_dealer="Anna")
    second = store.matches.start("Anna", "Carl", first_dealer="Anna")
    store.deals.quick_result(first.id, winner="Bert", points=2, reason="claim")
    win(store, second.id, "Carl", "Anna")  # the later match finishes first
    for points in (3, 3, 1):
        store.deals.quick_result(first.id, winner="Anna", points=points, reason="claim")
    history = store.ratings.history("Anna")
    assert [(h.match_id, h.opponent, h.result) for h in history.matches] == [
        (second.id, "Carl", "lost"),
        (first.id, "Bert", "won"),
    ]
    assert history.matches[0].rating_after == history.matches[1].rating_before
    assert history.matches[0].score == "2:7" and history.matches[1].score == "7:2"
    assert history.matches[0].expected == 0.5
    assert history.rating == history.matches[-1].rating_after


def test_a_correction_shows_in_the_next_ratings(store: Any) -> None:
    store.players.add("Anna")
    store.players.add("Bert")
    m = played(store, "Anna", "Bert", "Anna")
    assert store.ratings.table().matches_rated == 1
    store.deals.delete(store.deals.id_of(f"{m}.4"))  # the deciding deal taken back
    assert store.ratings.table().matches_rated == 0
    assert store.ratings.table().rows == ()
    assert store.ratings.history("Anna").matches == ()
    store.deals.quick_result(m, winner="Bert", points=1, reason="claim")
    assert store.ratings.table().matches_rated == 0  # 6:3 for Anna, still playing
    for _ in range(2):
        store.deals.quick_result(m, winner="Bert", points=2, reason="claim")
    assert [r.player for r in store.ratings.table().rows] == ["Bert", "Anna"]
    store.matches.delete(m)  # a match started by mistake
    assert store.ratings.table().rows == ()


def test_forfeits_are_not_games_and_are_not_rated(store: Any) -> None:
    for name in ("Anna", "Bert", "Carl", "Dora"):
        store.players.add(name)
    ev = store.events.create(
        "Cup", kind="round-robin", players=["Anna", "Bert", "Carl", "Dora"], withdrawal="forfeit"
    )
    rnd = store.events.start_round(ev.id, 1)
    made = [p.match_ids[0] for p in rnd.pairings]
    first = rnd.pairings[0]
    win(store, made[0], first.first, first.second)
    store.events.withdraw(ev.id, rnd.pairings[1].first)  # their match becomes a forfeit
    view = store.ratings.table()
    assert view.matches_rated == 1
    assert {r.player for r in view.rows} == {first.first, first.second}


def test_expected_results_come_from_todays_ratings(store: Any) -> None:
    for name in ("Anna", "Bert", "Carl"):
        store.players.add(name)
    played(store, "Anna", "Bert", "Anna")
    played(store, "Anna", "Bert", "Anna")
    now = store.ratings.current()
    assert now.rated("Anna") and not now.rated("Carl")
    assert now.expected("Anna", "Bert") > 0.6
    assert now.expected("Anna", "Bert") + now.expected("Bert", "Anna") == 1.0
    assert now.expected("Carl", "Nobody") == 0.5
