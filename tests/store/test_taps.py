"""A tap sent again (a phone whose answer was lost to a Wi-Fi drop sends it once more) is
stored once and answered "already recorded", however often and however many at once; taps
made while the ones before them waited on the phone are checked from where those left the
match; on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tally.errors import AlreadyRecorded, DealMoved, Refused
from tally.store.views import Tap


def _match(store: Any) -> int:
    store.players.add("Anna")
    store.players.add("Bert")
    return int(store.matches.start("Anna", "Bert", first_dealer="Anna").id)


def _actions(store: Any, mid: int) -> list[str]:
    record = store.deals.export(store.deals.current(mid))
    tricks = record.split("\n\n", 1)[1].split() if "\n\n" in record else []
    return [item for item in tricks if not item.endswith(".")]  # (not the trick numbers)


def test_a_tap_sent_twice_is_stored_once_and_answered_already_recorded(store: Any) -> None:
    mid = _match(store)
    store.deals.start(mid, "QH", expect=f"{mid}.0:0", tap=Tap("start-tap-0001"))
    with pytest.raises(AlreadyRecorded, match="recorded already"):
        store.deals.start(mid, "QH", expect=f"{mid}.0:0", tap=Tap("start-tap-0001"))
    deal = store.deals.current(mid)
    store.deals.play(deal, "KS", expect=f"{mid}.1:0", tap=Tap("play-tap-0001"))
    with pytest.raises(AlreadyRecorded):
        store.deals.play(deal, "KS", expect=f"{mid}.1:0", tap=Tap("play-tap-0001"))
    assert [d.number for d in store.matches.state(mid).deals] == [1]
    assert store.deals.view(deal).actions == 1
    assert store.deals.recorded("play-tap-0001")
    assert not store.deals.recorded("play-tap-0002")


def test_the_same_tap_sent_twenty_times_at_once_is_stored_once(db_url: str) -> None:
    from tally.store import open_store

    with open_store(db_url, scorer="tester") as store:
        mid = _match(store)
        deal = store.deals.start(mid, "QH").id
    answers: list[str] = []
    go = threading.Barrier(20)

    def phone() -> None:
        with open_store(db_url, scorer="phone") as own:
            go.wait()
            try:
                own.deals.play(deal, "KS", expect=f"{mid}.1:0", tap=Tap("same-tap-00000001"))
                answers.append("stored")
            except AlreadyRecorded:
                answers.append("already")

    threads = [threading.Thread(target=phone) for _ in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    assert sorted(answers) == ["already"] * 19 + ["stored"]
    with open_store(db_url) as store:
        assert _actions(store, mid) == ["KS"]
        assert store.results.stale() == []


def test_taps_made_while_the_one_before_waited_are_checked_from_where_it_left(store: Any) -> None:
    mid = _match(store)
    store.deals.start(mid, "QH", expect=f"{mid}.0:0", tap=Tap("tap-one-000"))
    deal = store.deals.current(mid)
    # the page saw 1.1:0 for all three: the second and third were made offline, each after
    # the one before it
    store.deals.play(deal, "KS", expect=f"{mid}.1:0", tap=Tap("tap-two-000"))
    store.deals.play(deal, "AS", expect=f"{mid}.1:0", tap=Tap("tap-three-0", "tap-two-000"))
    store.deals.undo(deal, expect=f"{mid}.1:0", tap=Tap("tap-four-00", "tap-three-0"))
    assert _actions(store, mid) == ["KS"]
    # one after a tap that was never stored is refused, and stores nothing
    with pytest.raises(DealMoved, match="before it on this phone was not recorded"):
        store.deals.play(deal, "AS", expect=f"{mid}.1:0", tap=Tap("tap-six-000", "tap-five-00"))
    assert _actions(store, mid) == ["KS"]


def test_a_waiting_tap_that_another_phone_beat_is_refused_and_not_stored(store: Any) -> None:
    mid = _match(store)
    deal = store.deals.start(mid, "QH").id
    store.deals.play(deal, "KS", expect=f"{mid}.1:0")  # the second phone, first
    with pytest.raises(DealMoved, match="someone else recorded KS"):
        store.deals.play(deal, "KH", expect=f"{mid}.1:0", tap=Tap("offline-tap-1"))
    assert _actions(store, mid) == ["KS"]
    assert not store.deals.recorded("offline-tap-1")


def test_a_match_result_sent_twice_is_entered_once(store: Any) -> None:
    mid = _match(store)
    store.deals.match_result(mid, "7:3", tap=Tap("result-tap-1"))
    with pytest.raises(AlreadyRecorded):
        store.deals.match_result(mid, "7:3", tap=Tap("result-tap-1"))
    assert len(store.matches.state(mid).deals) == 2


def test_a_quick_result_sent_twice_is_entered_once(store: Any) -> None:
    mid = _match(store)
    store.deals.quick_result(
        mid, winner="Anna", points=2, expect=f"{mid}.0:0", tap=Tap("quick-tap-1")
    )
    with pytest.raises(AlreadyRecorded):
        store.deals.quick_result(
            mid, winner="Anna", points=2, expect=f"{mid}.0:0", tap=Tap("quick-tap-1")
        )
    assert len(store.matches.state(mid).deals) == 1


@pytest.mark.parametrize("sent", ["short", "has space in", "x" * 65, "<script>alert</s>"])
def test_a_tap_id_that_is_not_one_is_refused(sent: str) -> None:
    with pytest.raises(Refused, match="is not a tap's id"):
        Tap.read(sent, "")
    with pytest.raises(Refused, match="is not a tap's id"):
        Tap.read("a-good-tap-id", sent)


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_taps_sent_again_in_any_pattern_are_stored_once_and_in_order(
    store: Any, data: st.DataObject
) -> None:
    """Whatever a flaky connection makes a phone send again, and when, the deal holds each
    tap once, in the order the taps were made."""
    if not store.players.all():
        store.players.add("Anna")
        store.players.add("Bert")
    mid = int(store.matches.start("Anna", "Bert", first_dealer="Anna").id)
    deal = store.deals.start(mid, "QH").id
    cards = ["KS", "AS", "9S", "JS", "10C"]
    made = data.draw(st.integers(1, len(cards)))
    taps = [Tap(f"tap-{mid}-{i:04d}", f"tap-{mid}-{i - 1:04d}" if i else None) for i in range(made)]
    again = data.draw(
        st.lists(st.tuples(st.integers(0, made - 1), st.integers(0, made - 1)), max_size=8)
    )
    sendings = []
    for step in range(made):
        sendings.append(step)
        sendings += [k for k, when in again if max(k, when) == step]
    stored = 0
    for k in sendings:
        try:
            store.deals.play(deal, cards[k], expect=f"{mid}.1:0", tap=taps[k])
            stored += 1
        except AlreadyRecorded:
            pass
    assert stored == made
    assert _actions(store, mid) == cards[:made]
