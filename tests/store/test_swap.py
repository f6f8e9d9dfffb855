"""Swapping two players between the tables of a round (store and command line): what an
arbiter is warned of, the confirmation, the audit log and its reversal."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tally.i18n import worded
from tests.store_support import ok, refused

FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]


def seats(store: Any, ev: int, number: int) -> tuple[set[frozenset[str]], str | None]:
    rnd = store.events.rounds(ev, number)[0]
    return {frozenset((p.first, p.second)) for p in rnd.pairings}, rnd.bye


def swiss(store: Any, players: list[str] = FIVE) -> int:
    for name in players:
        store.players.add(name)
    return store.events.create("Open", kind="swiss", players=players, rounds=3).id


def finish(store: Any, ev: int, number: int) -> None:
    for p in store.events.rounds(ev, number)[0].pairings:
        for m in p.matches:
            store.deals.match_result(m.match_id, "7:3", winner=p.first)


def test_two_players_change_tables_and_undo_puts_them_back(store: Any) -> None:
    ev = swiss(store)
    rnd = store.events.start_round(ev, 1)
    one, two = rnd.pairings
    before = seats(store, ev, 1)
    done = store.swaps.make(ev, 1, one.first, two.first)
    assert done.warnings == () and done.notes == () and done.audit_id is not None
    pairs, bye = seats(store, ev, 1)
    assert frozenset((two.first, one.second)) in pairs
    assert frozenset((one.first, two.second)) in pairs and bye == rnd.bye
    entry = [a for a in store.audit.log() if a.command == "event swap"]
    assert f"swapped {one.first} and {two.first}" in entry[0].summary
    store.audit.reverse(done.audit_id)
    assert seats(store, ev, 1) == before


def test_a_player_takes_the_bye_and_the_bye_takes_the_seat(store: Any) -> None:
    ev = swiss(store)
    rnd = store.events.start_round(ev, 1)
    seat = rnd.pairings[0]
    store.swaps.make(ev, 1, rnd.bye, seat.second)
    pairs, bye = seats(store, ev, 1)
    assert bye == seat.second and frozenset((seat.first, rnd.bye)) in pairs


def test_a_rematch_the_bye_twice_and_unequal_points_are_said_and_need_force(store: Any) -> None:
    ev = swiss(store)
    r1 = store.events.start_round(ev, 1)
    finish(store, ev, 1)
    r2 = store.events.start_round(ev, 2)
    # give round 2's bye back to round 1's bye, and pair two who met in round 1
    holder = r2.bye
    assert holder != r1.bye
    check = store.swaps.check(ev, 2, holder, r1.bye)
    said = [worded(w) for w in check.warnings]
    assert f"{r1.bye} had the bye in round 1 already: the bye would be given twice" in said
    assert check.audit_id is None
    with pytest.raises(Refused, match=r"were not swapped: .*--force"):
        store.swaps.make(ev, 2, holder, r1.bye)
    assert seats(store, ev, 2)[1] == holder
    done = store.swaps.make(ev, 2, holder, r1.bye, force=True)
    assert done.audit_id is not None and seats(store, ev, 2)[1] == r1.bye
    store.audit.reverse(done.audit_id)
    met = {frozenset((p.first, p.second)) for p in r1.pairings}
    a, b = r2.pairings[0].first, r2.pairings[1].first
    opp = {p.first: p.second for p in r2.pairings} | {p.second: p.first for p in r2.pairings}
    rematch = [(x, y) for x, y in ((a, b), (b, a)) if frozenset((x, opp[y])) in met]
    check = store.swaps.check(ev, 2, a, b)
    if rematch:
        x, y = rematch[0]
        assert f"{x} and {opp[y]} met in round 1 already" in [worded(w) for w in check.warnings]
    notes = [worded(n) for n in check.notes]
    assert all("unequal match points" in n for n in notes)


def test_a_round_robin_keeps_its_schedule_and_a_knockout_draw_is_swapped(store: Any) -> None:
    for name in FIVE:
        store.players.add(name)
    ev = store.events.create("Liga", kind="round-robin", players=FIVE[:4]).id
    rnd = store.events.start_round(ev, 1)
    p, q = rnd.pairings
    with pytest.raises(Refused, match="pairings are fixed by its schedule"):
        store.swaps.check(ev, 1, p.first, q.first)
    ko = store.events.create("Cup", kind="knockout", players=FIVE).id
    drawn = store.events.start_round(ko, 1)
    a, b = drawn.pairings[0].first, drawn.pairings[1].second
    store.swaps.make(ko, 1, a, b)
    pairs, bye = seats(store, ko, 1)
    assert frozenset((b, drawn.pairings[0].second)) in pairs and bye == drawn.bye


def test_a_pair_kept_apart_is_warned_of(store: Any) -> None:
    ev = swiss(store, FIVE[:4])
    rnd = store.events.start_round(ev, 1)
    p, q = rnd.pairings
    store.pairings.keep_apart(ev, p.first, q.second)
    said = [worded(w) for w in store.swaps.check(ev, 1, p.second, q.second).warnings]
    assert said in (
        [f"{p.first} and {q.second} are kept apart"],
        [f"{q.second} and {p.first} are kept apart"],
    )


def test_no_swap_at_one_table_at_a_table_in_play_or_of_a_player_not_in_the_round(
    store: Any,
) -> None:
    ev = swiss(store)
    with pytest.raises(NotFound, match="has not been started"):
        store.swaps.make(ev, 1, "Anna", "Bert")
    rnd = store.events.start_round(ev, 1)
    p, q = rnd.pairings
    with pytest.raises(Refused, match="play at the same table"):
        store.swaps.make(ev, 1, p.first, p.second)
    with pytest.raises(Refused, match="named twice"):
        store.swaps.make(ev, 1, p.first, p.first)
    store.players.add("Zora")
    with pytest.raises(NotFound, match="Zora plays no match of round 1"):
        store.swaps.make(ev, 1, p.first, "Zora")
    store.deals.quick_result(q.matches[0].match_id, winner=q.first, points=3, reason="claim")
    with pytest.raises(Refused, match="1 deal\\(s\\) are recorded there already"):
        store.swaps.make(ev, 1, p.first, q.first, force=True)
    store.swaps.make(ev, 1, p.first, rnd.bye)  # the other table and the bye are free


def test_swapping_from_the_command_line(db_url: str) -> None:
    ok(db_url, "player", "add", *FIVE[:4])
    ok(db_url, "event", "create", "Open", *FIVE[:4], "--kind", "swiss", "--rounds", "3")
    ok(db_url, "event", "round", "Open", "1", "--start")
    refused(db_url, "event", "swap", "Open", "1", "Anna", "Anna", match="named twice")
    out = ok(db_url, "event", "round", "Open", "1")
    table = next(line for line in out.splitlines() if "Anna" in line)
    partner = next(p for p in FIVE[1:4] if p in table)
    other = next(p for p in FIVE[1:4] if p != partner)
    ok(db_url, "event", "apart", "Open", partner, other)
    refused(
        db_url,
        "event",
        "swap",
        "Open",
        "1",
        "Anna",
        other,
        match="are kept apart; swap them anyway with `--force`",
    )
    out = ok(db_url, "event", "swap", "Open", "1", "Anna", other, "--force")
    assert "Note: " in out and "are kept apart." in out
    assert f'Swapped Anna and {other} in round 1 of event 1 "Open"' in out
    entry = [x for x in ok(db_url, "audit").splitlines() if "Anna and" in x and "swapped" in x]
    assert entry
    ok(db_url, "audit", "undo", entry[0].split()[0].strip("#"))
    assert table in ok(db_url, "event", "round", "Open", "1")


def test_a_swap_stays_once_a_deal_is_recorded_at_a_table_it_changed(store: Any) -> None:
    ev = swiss(store, FIVE[:4])
    p, q = store.events.start_round(ev, 1).pairings
    done = store.swaps.make(ev, 1, p.first, q.first)
    now = store.events.rounds(ev, 1)[0].pairings[0]
    store.deals.quick_result(now.matches[0].match_id, winner=now.first, points=3, reason="claim")
    with pytest.raises(Refused, match="has deals recorded since: the players who played"):
        store.audit.reverse(done.audit_id)
    assert seats(store, ev, 1)[0] == {
        frozenset((q.first, p.second)),
        frozenset((p.first, q.second)),
    }
