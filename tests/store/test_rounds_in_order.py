"""Rounds in order: a round robin's or a group's next round waits for its players to leave
the tables of the round before, unless the director confirms (``force``, ``--force``); the
preview says so; withdrawing a round's pairings after a swap takes the swap with it."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import Refused
from tally.i18n import worded
from tests.store_support import ok, refused

FOUR = ["Anna", "Bert", "Carl", "Dora"]


def round_robin(store: Any, players: list[str] = FOUR) -> int:
    for name in players:
        store.players.add(name)
    return store.events.create("Cup", kind="round-robin", players=players).id


def finish(store: Any, ev: int, number: int, tables: set[int] | None = None) -> None:
    for p in store.events.rounds(ev, number)[0].pairings:
        if tables is None or p.table in tables:
            for m in p.matches:
                store.deals.match_result(m.match_id, "7:3", winner=p.first)


def test_round_2_of_a_round_robin_waits_for_round_1_unless_the_director_confirms(
    store: Any,
) -> None:
    ev = round_robin(store)
    first = store.events.start_round(ev, 1)
    finish(store, ev, 1, {1})
    busy = first.pairings[1]
    still = store.events.still_playing(ev, 2)
    assert set(still) == {busy.first, busy.second}
    assert set(still.values()) == {busy.matches[0].match_id}
    with pytest.raises(Refused, match="still at a table of round 1") as caught:
        store.events.start_round(ev, 2)
    assert busy.first in str(caught.value) and "--force" in str(caught.value)
    assert store.events.get(ev).rounds_started == (1,)
    [warning] = store.pairings.start_warnings(ev, 2)
    assert "two tables at once" in worded(warning)
    store.events.start_round(ev, 2, force=True)
    assert store.events.get(ev).rounds_started == (1, 2)


def test_a_round_whose_players_have_finished_starts_without_a_question(store: Any) -> None:
    ev = round_robin(store)
    store.events.start_round(ev, 1)
    finish(store, ev, 1)
    assert store.events.still_playing(ev, 2) == {}
    assert store.pairings.start_warnings(ev, 2) == []
    store.events.start_round(ev, 2)


def test_a_withdrawn_players_table_does_not_hold_the_next_round(store: Any) -> None:
    ev = round_robin(store)
    rnd = store.events.start_round(ev, 1)
    finish(store, ev, 1, {1})
    store.events.withdraw(ev, rnd.pairings[1].first)
    assert store.events.still_playing(ev, 2) == {}
    store.events.start_round(ev, 2)


def test_a_group_round_waits_for_its_players_unless_the_director_confirms(store: Any) -> None:
    players = [f"P{k}" for k in range(1, 9)]
    for name in players:
        store.players.add(name)
    ev = store.events.create("Groups", kind="groups", players=players, groups=2, advance=1).id
    store.events.start_round(ev, 1)
    still = store.events.still_playing(ev, 2)
    assert len(still) == 8
    with pytest.raises(Refused, match="still at a table of round 1"):
        store.events.start_round(ev, 2)
    store.events.start_round(ev, 2, force=True)
    assert store.events.get(ev).rounds_started == (1, 2)


def test_the_command_line_refuses_round_2_and_starts_it_with_force(db_url: str) -> None:
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Cup", *FOUR, "--kind", "round-robin")
    ok(db_url, "event", "round", "Cup", "1", "--start")
    out = ok(db_url, "event", "round", "Cup", "2")
    assert "Warning: " in out and "would seat them at two tables at once" in out
    refused(db_url, "event", "round", "Cup", "2", "--start", match="still at a table of round 1")
    out = ok(db_url, "event", "round", "Cup", "2", "--start", "--force")
    assert "Started round 2" in out


def test_withdrawing_the_pairings_after_a_swap_undoes_the_swap_too(store: Any) -> None:
    for name in [*FOUR, "Emil"]:
        store.players.add(name)
    ev = store.events.create("Open", kind="swiss", players=[*FOUR, "Emil"], rounds=3).id
    rnd = store.events.start_round(ev, 1)
    one, two = rnd.pairings
    store.swaps.make(ev, 1, one.first, two.first)
    store.swaps.make(ev, 1, one.second, rnd.bye)
    assert len(store.swaps.made(ev)) == 2
    store.pairings.withdraw(ev, 1)
    assert store.events.get(ev).rounds_started == ()
    assert store.swaps.made(ev) == []
    again = store.events.start_round(ev, 1)
    assert [(p.first, p.second) for p in again.pairings] == [
        (p.first, p.second) for p in rnd.pairings
    ]


def test_the_command_line_says_the_swap_is_undone_with_the_pairings(db_url: str) -> None:
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Open", *FOUR, "--kind", "swiss", "--rounds", "3")
    ok(db_url, "event", "round", "Open", "1", "--start")
    out = ok(db_url, "event", "round", "Open", "1")
    table = next(line for line in out.splitlines() if "Anna" in line)
    other = next(p for p in FOUR[1:] if p not in table)
    ok(db_url, "event", "swap", "Open", "1", "Anna", other)
    out = ok(db_url, "event", "unpair", "Open", "1")
    assert f"The swap of Anna and {other} is undone with them." in out
