"""The director's manual control: keeping pairs apart in the Swiss pairing, and withdrawing
a round's pairings to pair it again (store and command line; SQLite and, when configured,
PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tally.events.swiss import SwissPlayer, pair_round
from tests.store_support import ok, refused

FOUR = ["Anna", "Bert", "Carl", "Dora"]


def met(rnd: Any) -> set[frozenset[str]]:
    return {frozenset((p.first, p.second)) for p in rnd.pairings}


def test_a_pair_kept_apart_is_not_paired_when_another_pairing_exists() -> None:
    ps = [SwissPlayer(k) for k in "abcd"]
    assert frozenset("ac") in met(pair_round(ps))
    kept = pair_round(ps, apart=[("a", "c")])
    assert frozenset("ac") not in met(kept) and len(kept.pairings) == 2


def test_keeping_apart_gives_way_when_only_that_pairing_avoids_a_rematch() -> None:
    ps = [
        SwissPlayer("a", met=frozenset("c")),
        SwissPlayer("b", met=frozenset("d")),
        SwissPlayer("c", met=frozenset("a")),
        SwissPlayer("d", met=frozenset("b")),
    ]
    # a-b and c-d, or a-d and b-c: keeping a-b apart leaves a-d and b-c
    assert met(pair_round(ps, apart=[("a", "b")])) == {frozenset("ad"), frozenset("bc")}
    # keeping both a-b and a-d apart would leave a no opponent: the round is paired anyway
    both = pair_round(ps, apart=[("a", "b"), ("a", "d")])
    assert len(both.pairings) == 2


def test_an_odd_field_keeps_a_pair_apart_by_choosing_another_bye() -> None:
    ps = [SwissPlayer(k) for k in "abc"]
    assert pair_round(ps).bye == "c"  # a-b play
    kept = pair_round(ps, apart=[("a", "b")])
    assert kept.bye != "c" and frozenset("ab") not in met(kept)


def swiss(store: Any, n: int = 2) -> int:
    for name in FOUR:
        store.players.add(name)
    return store.events.create("Open", kind="swiss", players=FOUR, rounds=n).id


def test_a_round_without_deals_is_withdrawn_and_paired_again_after_a_withdrawal(store: Any) -> None:
    ev = swiss(store)
    store.events.start_round(ev, 1)
    entry = store.pairings.withdraw(ev, 1)
    assert "reversed entry" in entry.summary
    assert store.events.get(ev).rounds_started == () and store.events.get(ev).matches == 0
    store.events.withdraw(ev, "Dora")
    again = store.events.start_round(ev, 1)
    assert "Dora" not in {x for p in again.pairings for x in (p.first, p.second)}
    assert again.bye is not None


def test_a_round_with_a_quick_result_keeps_its_pairings(store: Any) -> None:
    ev = swiss(store)
    rnd = store.events.start_round(ev, 1)
    p = rnd.pairings[0]
    store.deals.quick_result(p.matches[0].match_id, winner=p.first, points=3, reason="claim")
    with pytest.raises(Refused, match="1 deal\\(s\\) of the round are recorded already"):
        store.pairings.withdraw(ev, 1)
    assert store.events.get(ev).rounds_started == (1,)


def test_only_the_latest_round_started_is_withdrawn(store: Any) -> None:
    ev = swiss(store)
    with pytest.raises(NotFound, match="has not been started"):
        store.pairings.withdraw(ev, 1)
    store.events.start_round(ev, 1)
    assert store.events.rounds(ev, 1)[0].started


def test_withdrawing_a_round_from_the_command_line(db_url: str) -> None:
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Open", *FOUR, "--kind", "swiss", "--rounds", "2")
    ok(db_url, "event", "round", "Open", "1", "--start")
    out = ok(db_url, "event", "unpair", "Open", "1")
    assert 'Withdrew the pairings of round 1 of event 1 "Open"' in out
    refused(db_url, "event", "unpair", "Open", "1", match="has not been started")
    assert "Started round 1" in ok(db_url, "event", "round", "Open", "1", "--start")


def test_a_swiss_event_keeps_a_family_apart_and_undo_brings_them_together(store: Any) -> None:

    ev = swiss(store)
    assert frozenset(("Anna", "Carl")) in met(store.events.rounds(ev, 1)[0])  # the fold
    assert store.pairings.keep_apart(ev, "Anna", "carl") == [("Anna", "Carl")]
    assert frozenset(("Anna", "Carl")) not in met(store.events.start_round(ev, 1))
    with pytest.raises(Refused, match="kept apart already"):
        store.pairings.keep_apart(ev, "Carl", "Anna")
    store.pairings.withdraw(ev, 1)
    kept = [a for a in store.audit.log() if "keeps Anna and Carl apart" in a.summary]
    store.audit.reverse(kept[-1].id)
    assert store.pairings.apart(ev) == []
    assert frozenset(("Anna", "Carl")) in met(store.events.start_round(ev, 1))


def test_keeping_players_apart_from_the_command_line(db_url: str) -> None:
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Open", *FOUR, "--kind", "swiss", "--rounds", "2")
    assert "Anna and Carl are kept apart." in ok(db_url, "event", "apart", "Open", "Anna", "Carl")
    assert "Anna and Carl are kept apart." in ok(db_url, "event", "apart", "Open")
    refused(db_url, "event", "apart", "Open", "Anna", "Zed", match="Zed")
    assert "No players are kept apart." in ok(
        db_url, "event", "apart", "Open", "Anna", "Carl", "--undo"
    )


def test_a_pair_kept_apart_stays_apart_when_a_duplicate_player_is_merged(store: Any) -> None:

    ev = swiss(store)
    store.players.add("Ann")

    store.events.add_players(ev, ["Ann"])
    store.pairings.keep_apart(ev, "Ann", "Carl")
    store.players.merge("Anna", "Ann")
    assert store.pairings.apart(ev) == [("Anna", "Carl")]


def test_a_round_robin_warns_of_the_round_that_pairs_a_pair_kept_apart(store: Any) -> None:
    from tally.i18n import worded

    for name in FOUR:
        store.players.add(name)
    ev = store.events.create("Liga", kind="round-robin", players=FOUR).id
    store.pairings.keep_apart(ev, "Anna", "Carl")
    meets = next(
        r.number
        for r in store.events.rounds(ev)
        for p in r.pairings
        if {p.first, p.second} == {"Anna", "Carl"}
    )
    said = [worded(w) for w in store.pairings.apart_warnings(ev)]
    assert len(said) == 1 and f"but round {meets} pairs them" in said[0]
    assert store.pairings.apart_warnings(ev, meets + 1 if meets < 3 else 1) == []
    assert len(store.pairings.apart_warnings(ev, meets, adding=True)) == 1  # the schedule is known


def test_a_knockout_warns_of_a_draw_that_pairs_a_pair_kept_apart(store: Any) -> None:
    from tally.i18n import worded

    for name in FOUR:
        store.players.add(name)
    ev = store.events.create("Cup", kind="knockout", players=FOUR).id
    store.pairings.keep_apart(ev, "Anna", "Carl")
    said = [worded(w) for w in store.pairings.apart_warnings(ev, adding=True)]
    assert said == [
        "the draw of each round of this event does not keep players apart: a round that "
        "pairs them is warned of"
    ]
    drawn = store.events.start_round(ev, 1)
    clash = any({p.first, p.second} == {"Anna", "Carl"} for p in drawn.pairings)
    said = [worded(w) for w in store.pairings.apart_warnings(ev, 1)]
    assert said == (
        [
            "Anna and Carl are kept apart, but round 1 pairs them (only a Swiss round keeps "
            "players apart)"
        ]
        if clash
        else []
    )


def test_a_swiss_event_has_no_such_warning(store: Any) -> None:

    ev = swiss(store)
    store.pairings.keep_apart(ev, "Anna", "Carl")
    store.events.start_round(ev, 1)
    assert store.pairings.apart_warnings(ev, adding=True) == []


def test_the_command_line_warns_of_a_pair_kept_apart_in_a_round_robin(db_url: str) -> None:
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Liga", *FOUR, "--kind", "round-robin")
    out = ok(db_url, "event", "apart", "Liga", "Anna", "Bert")
    assert "Warning: Anna and Bert are kept apart, but round" in out
    shown = ok(db_url, "event", "round", "Liga")
    assert "Warning: Anna and Bert are kept apart, but round" in shown
    ok(db_url, "event", "create", "Cup", *FOUR, "--kind", "knockout")
    out = ok(db_url, "event", "apart", "Cup", "Anna", "Bert")
    assert "Warning: the draw of each round of this event does not keep players apart" in out
