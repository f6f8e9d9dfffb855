"""A match that is over takes no write from its table (issue 32): finished, forfeited or made
void by a withdrawal, or not needed once its best-of pairing is decided (that one takes no
write from anyone); the rule is checked inside the transaction that would write, so a race
cannot get past it. And a match's number is never given again, so a table's address (made
from it) opens one match for ever."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from tally.errors import DealMoved, MatchOver, Refused
from tally.store import Store
from tally.store.transactions import TableWriter
from tally.store.views import Position
from tests.store.test_best_of import final_of_two
from tests.store.test_knockouts import win
from tests.store_support import DEALER_CLAIMS


def at_table(store: Any, match_id: int, reopened: bool = False) -> Any:
    """The store a table's phone writes through (as ``tally serve``'s table page makes it)."""
    return Store(store.engine, scorer="table", table=TableWriter(match_id, lambda conn: reopened))


def round_robin(store: Any) -> tuple[Any, Any]:
    for name in ("Anna", "Bert", "Carla", "Dora"):
        store.players.add(name)
    ev = store.events.create("Cup", kind="round-robin", players=["Anna", "Bert", "Carla", "Dora"])
    return ev, store.events.start_round(ev.id, 1)


def test_a_table_writes_nothing_into_a_match_forfeited_by_a_withdrawal(store: Any) -> None:
    ev, rnd = round_robin(store)
    for number in (1, 2):  # Bert plays two of three: his last match is a forfeit
        for p in rnd.pairings:
            store.deals.match_result(p.matches[0].match_id, "7:3", winner=p.first)
        rnd = store.events.start_round(ev.id, number + 1)
    pairing = next(p for p in rnd.pairings if "Bert" in (p.first, p.second))
    mid = pairing.matches[0].match_id
    other = next(p for p in (pairing.first, pairing.second) if p != "Bert")
    store.deals.quick_result(mid, winner=other, points=3)
    store.events.withdraw(ev.id, "Bert")
    over = store.matches.over(mid)
    assert over is not None and over.kind == "forfeit"
    assert str(over.words) == f"this match is over: {other} wins 3:0 by forfeit (Bert withdrew)"
    table = at_table(store, mid)
    for write in (
        lambda: table.deals.start(mid, "QH"),
        lambda: table.deals.quick_result(mid, winner=other, points=3),
    ):
        with pytest.raises(MatchOver, match="by forfeit") as refused:
            write()
        assert refused.value.kind == "forfeit"
    assert len(store.matches.state(mid).deals) == 1
    # the director still corrects it (the command line)
    store.deals.quick_result(mid, winner=other, points=1)


def test_a_void_match_and_a_finished_one_take_nothing_from_their_table(store: Any) -> None:
    for name in ("Anna", "Bert", "Carla", "Dora"):
        store.players.add(name)
    ev = store.events.create(
        "Cup", kind="round-robin", players=["Anna", "Bert", "Carla", "Dora"], withdrawal="void"
    )
    rnd = store.events.start_round(ev.id, 1)
    void = next(p for p in rnd.pairings if "Bert" in (p.first, p.second)).matches[0].match_id
    done = next(p for p in rnd.pairings if "Bert" not in (p.first, p.second)).matches[0]
    store.events.withdraw(ev.id, "Bert")
    with pytest.raises(MatchOver, match="withdrew, so it does not count"):
        at_table(store, void).deals.start(void, "QH")
    for _ in range(3):
        win(store, done.match_id, done.first_dealer)
    with pytest.raises(MatchOver, match="this match is over"):
        at_table(store, done.match_id).deals.quick_result(
            done.match_id, winner=done.first_dealer, points=1
        )
    with pytest.raises(Refused, match="records match"):
        at_table(store, void).deals.quick_result(done.match_id, winner="Anna", points=1)


def test_a_best_of_three_decided_two_nil_takes_no_third_match(store: Any) -> None:
    ev, final = final_of_two(store)
    (table,) = final.pairings
    first, second, third = (m.match_id for m in table.matches)
    win(store, first, table.first)
    assert store.matches.over(third) is None
    win(store, second, table.first)
    over = store.matches.over(third)
    assert over is not None and over.kind == "not-needed"
    assert str(over.words) == (
        f"this match is not needed: {table.first} won the pairing 2:0 (best of 3)"
    )
    for write in (
        lambda s: s.deals.start(third, "QH"),
        lambda s: s.deals.quick_result(third, winner=table.second, points=3),
        lambda s: s.deals.match_result(third, "0:3"),
    ):
        for writer in (store, at_table(store, third)):  # the director's too
            with pytest.raises(MatchOver, match="not needed"):
                write(writer)
    assert store.matches.state(third).deals == ()
    assert store.knockouts.view(ev).champion == table.first


def on_the_brink(store: Any) -> tuple[int, Position]:
    """A match one tap from its end: Anna 6, Bert 0, deal 3 (Anna deals) played up to
    Anna's 40 in hearts; her claim (``66``) ends the match. Returns the match and the
    position a phone sees."""
    match = store.matches.start("Anna", "Bert", first_dealer="Anna")
    for _ in range(2):
        store.deals.quick_result(match.id, winner="Anna", points=3)
    deal = store.deals.start(match.id, DEALER_CLAIMS[0])
    for line in ("QD 10H", "AS QS", "40 KH"):
        store.deals.play(deal.id, line)
    return match.id, store.matches.state(match.id).expectation


def at_once(writes: dict[str, Callable[[], object]]) -> dict[str, object]:
    """Run ``writes`` in threads released together; what each returned or raised."""
    go = threading.Barrier(len(writes))
    told: dict[str, object] = {}

    def phone(name: str) -> None:
        go.wait()
        try:
            told[name] = writes[name]()
        except (MatchOver, DealMoved) as exc:
            told[name] = exc

    threads = [threading.Thread(target=phone, args=(name,)) for name in writes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return told


def race_the_last_tap(store: Any) -> tuple[int, dict[str, object]]:
    """One phone taps the claim that ends a match, another at once takes back that very
    claim (posting the position after it)."""
    mid, seen = on_the_brink(store)
    after = Position(mid, seen.number, seen.actions + 1, "66")
    table = at_table(store, mid)
    deal = table.deals.current(mid)
    return mid, at_once(
        {
            "tap": lambda: table.deals.play(deal, "66", expect=seen),
            "undo": lambda: table.deals.undo(deal, expect=after),
        }
    )


@pytest.mark.parametrize("rounds", [8])
def test_an_undo_racing_the_last_tap_never_reopens_the_match(store: Any, rounds: int) -> None:
    """Exactly one of the two is stored, the match stays over, and the other is told it
    was refused."""
    store.players.add("Anna")
    store.players.add("Bert")
    for _ in range(rounds):
        mid, told = race_the_last_tap(store)
        refused = [name for name, out in told.items() if isinstance(out, Exception)]
        assert len(refused) == 1, told
        assert store.matches.state(mid).over, told
