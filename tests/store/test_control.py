"""The director's manual control: keeping pairs apart in the Swiss pairing, and withdrawing
a round's pairings to pair it again (store and command line; SQLite and, when configured,
PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tally.events.swiss import SwissPlayer, pair_round
from tally.store.control import withdraw_pairings
from tally.store.events import create_event, event, rounds, start_round, withdraw
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
        store.add_player(name)
    return create_event(store, "Open", kind="swiss", players=FOUR, rounds=n).id


def test_a_round_without_deals_is_withdrawn_and_paired_again_after_a_withdrawal(store: Any) -> None:
    ev = swiss(store)
    start_round(store, ev, 1)
    entry = withdraw_pairings(store, ev, 1)
    assert "reversed entry" in entry.summary
    assert event(store, ev).rounds_started == () and event(store, ev).matches == 0
    withdraw(store, ev, "Dora")
    again = start_round(store, ev, 1)
    assert "Dora" not in {x for p in again.pairings for x in (p.first, p.second)}
    assert again.bye is not None


def test_a_round_with_a_quick_result_keeps_its_pairings(store: Any) -> None:
    ev = swiss(store)
    rnd = start_round(store, ev, 1)
    p = rnd.pairings[0]
    store.quick_result(p.matches[0].match_id, winner=p.first, points=3, reason="claim")
    with pytest.raises(Refused, match="1 deal\\(s\\) of the round are recorded already"):
        withdraw_pairings(store, ev, 1)
    assert event(store, ev).rounds_started == (1,)


def test_only_the_latest_round_started_is_withdrawn(store: Any) -> None:
    ev = swiss(store)
    with pytest.raises(NotFound, match="has not been started"):
        withdraw_pairings(store, ev, 1)
    start_round(store, ev, 1)
    assert rounds(store, ev, 1)[0].started


def test_withdrawing_a_round_from_the_command_line(db_url: str) -> None:
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Open", *FOUR, "--kind", "swiss", "--rounds", "2")
    ok(db_url, "event", "round", "Open", "1", "--start")
    out = ok(db_url, "event", "unpair", "Open", "1")
    assert 'Withdrew the pairings of round 1 of event 1 "Open"' in out
    refused(db_url, "event", "unpair", "Open", "1", match="has not been started")
    assert "Started round 1" in ok(db_url, "event", "round", "Open", "1", "--start")


def test_a_swiss_event_keeps_a_family_apart_and_undo_brings_them_together(store: Any) -> None:
    from tally.store.control import apart, keep_apart

    ev = swiss(store)
    assert frozenset(("Anna", "Carl")) in met(rounds(store, ev, 1)[0])  # the fold
    assert keep_apart(store, ev, "Anna", "carl") == [("Anna", "Carl")]
    assert frozenset(("Anna", "Carl")) not in met(start_round(store, ev, 1))
    with pytest.raises(Refused, match="kept apart already"):
        keep_apart(store, ev, "Carl", "Anna")
    withdraw_pairings(store, ev, 1)
    kept = [a for a in store.audit_log() if "keeps Anna and Carl apart" in a.summary]
    store.reverse(kept[-1].id)
    assert apart(store, ev) == []
    assert frozenset(("Anna", "Carl")) in met(start_round(store, ev, 1))


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
    from tally.store.control import apart, keep_apart

    ev = swiss(store)
    store.add_player("Ann")
    from tally.store.events import add_players

    add_players(store, ev, ["Ann"])
    keep_apart(store, ev, "Ann", "Carl")
    store.merge_players("Anna", "Ann")
    assert apart(store, ev) == [("Anna", "Carl")]


def test_a_round_robin_warns_of_the_round_that_pairs_a_pair_kept_apart(store: Any) -> None:
    from tally.i18n import worded
    from tally.store.control import apart_warnings, keep_apart

    for name in FOUR:
        store.add_player(name)
    ev = create_event(store, "Liga", kind="round-robin", players=FOUR).id
    keep_apart(store, ev, "Anna", "Carl")
    meets = next(
        r.number
        for r in rounds(store, ev)
        for p in r.pairings
        if {p.first, p.second} == {"Anna", "Carl"}
    )
    said = [worded(w) for w in apart_warnings(store, ev)]
    assert len(said) == 1 and f"but round {meets} pairs them" in said[0]
    assert apart_warnings(store, ev, meets + 1 if meets < 3 else 1) == []
    assert len(apart_warnings(store, ev, meets, adding=True)) == 1  # the schedule is known


def test_a_knockout_warns_of_a_draw_that_pairs_a_pair_kept_apart(store: Any) -> None:
    from tally.i18n import worded
    from tally.store.control import apart_warnings, keep_apart

    for name in FOUR:
        store.add_player(name)
    ev = create_event(store, "Cup", kind="knockout", players=FOUR).id
    keep_apart(store, ev, "Anna", "Carl")
    said = [worded(w) for w in apart_warnings(store, ev, adding=True)]
    assert said == [
        "the draw of each round of this event does not keep players apart: a round that "
        "pairs them is warned of"
    ]
    drawn = start_round(store, ev, 1)
    clash = any({p.first, p.second} == {"Anna", "Carl"} for p in drawn.pairings)
    said = [worded(w) for w in apart_warnings(store, ev, 1)]
    assert said == (
        [
            "Anna and Carl are kept apart, but round 1 pairs them (only a Swiss round keeps "
            "players apart)"
        ]
        if clash
        else []
    )


def test_a_swiss_event_has_no_such_warning(store: Any) -> None:
    from tally.store.control import apart_warnings, keep_apart

    ev = swiss(store)
    keep_apart(store, ev, "Anna", "Carl")
    start_round(store, ev, 1)
    assert apart_warnings(store, ev, adding=True) == []


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
