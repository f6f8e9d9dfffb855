"""What a destructive change would do, said by the store before it is done (a withdrawal,
deleting a deal or a match, reversing an audit entry, the next round's pairings), with
nothing stored meanwhile; names looked up for a form; a quick result changed, audited."""

from __future__ import annotations

import pytest

from tally.errors import NotFound, Refused
from tests.store_support import dump

PLAYERS = ["Anna Berger", "Bert Huber", "Carla Moser", "Dora Wimmer"]


@pytest.fixture
def cup(store):  # type: ignore[no-untyped-def]
    """A round robin of four, round 1 started."""

    for name in PLAYERS:
        store.players.add(name)
    ev = store.events.create("Cup", kind="round-robin", players=PLAYERS)
    rnd = store.events.start_round(ev.id, 1)
    return store, ev.id, rnd


def _dumped(store) -> object:  # type: ignore[no-untyped-def]
    return dump(str(store.engine.url.render_as_string(hide_password=False)))


def test_a_withdrawal_after_half_the_games_says_the_running_match_is_forfeit(cup) -> None:  # type: ignore[no-untyped-def]

    store, eid, rnd = cup
    for number in (1, 2):  # rounds 1 and 2 played, 3 started: Dora has played two of three
        for p in rnd.pairings:
            store.deals.match_result(p.matches[0].match_id, "7:3", winner=p.first)
        rnd = store.events.start_round(eid, number + 1)
    before = _dumped(store)
    w = store.consequences.withdrawal(eid, "dora")
    assert w.player == "Dora Wimmer" and w.rule == "forfeit"
    table = next(p for p in rnd.pairings if "Dora Wimmer" in (p.first, p.second))
    opponent = table.second if table.first == "Dora Wimmer" else table.first
    assert w.running == ((table.matches[0].match_id, opponent),)
    assert w.remaining == ()  # round 3 was her last
    assert _dumped(store) == before  # rehearsed: nothing stored, nothing audited


def test_a_withdrawal_before_half_the_games_says_every_result_is_struck_out(cup) -> None:  # type: ignore[no-untyped-def]

    store, eid, rnd = cup
    table = next(p for p in rnd.pairings if "Dora Wimmer" in (p.first, p.second))
    opponent = table.second if table.first == "Dora Wimmer" else table.first
    w = store.consequences.withdrawal(eid, "dora")  # none of three played
    assert w.player == "Dora Wimmer" and w.rule == "annulled"
    assert w.running == ((table.matches[0].match_id, opponent),)
    assert sorted(w.remaining) == sorted(set(PLAYERS) - {"Dora Wimmer", opponent})


def test_a_void_withdrawal_and_one_the_store_refuses_are_said_as_the_store_would(store) -> None:  # type: ignore[no-untyped-def]

    for name in PLAYERS:
        store.players.add(name)
    ev = store.events.create("Void cup", kind="round-robin", players=PLAYERS, withdrawal="void")
    assert store.consequences.withdrawal(ev.id, "Anna").rule == "void"
    store.events.withdraw(ev.id, "Anna")
    with pytest.raises(Refused, match="withdrawn"):
        store.consequences.withdrawal(ev.id, "Anna")


def test_deleting_the_last_deal_says_how_the_score_changes(cup) -> None:  # type: ignore[no-untyped-def]

    store, _, rnd = cup
    mid = rnd.pairings[0].matches[0].match_id
    players = store.matches.state(mid).players
    store.deals.quick_result(mid, winner=players[0], points=2, reason="claim")
    last = store.deals.quick_result(mid, winner=players[1], points=3, reason="claim")
    said = store.consequences.deal_deletion(last.id)
    assert said.number == 2 and said.match.before == (2, 3) and said.match.after == (2, 0)
    assert len(store.matches.state(mid).deals) == 2
    first = store.matches.state(mid).deals[0].id
    with pytest.raises(Refused, match="only the last deal"):
        store.consequences.deal_deletion(first)


def test_reversing_a_round_start_says_its_matches_go(cup) -> None:  # type: ignore[no-untyped-def]

    store, _, rnd = cup
    entry = store.audit.log(limit=1)[-1]
    said = store.consequences.reversal(entry.id)
    gone = {c.match_id for c in said.matches if c.after is None}
    assert gone == {p.matches[0].match_id for p in rnd.pairings}
    assert ("event", rnd.event_id, "restored") in said.things
    with pytest.raises(NotFound):
        store.consequences.reversal(10_000)


def test_a_round_is_previewed_as_it_would_start_and_nothing_is_stored(cup) -> None:  # type: ignore[no-untyped-def]

    store, eid, _ = cup
    before = _dumped(store)
    seen = store.consequences.round_preview(eid, 2)
    assert _dumped(store) == before
    started = store.events.start_round(eid, 2, force=True)  # round 1 is still played
    assert [(p.first, p.second) for p in seen.pairings] == [
        (p.first, p.second) for p in started.pairings
    ]


def test_a_knockout_draw_is_previewed_exactly(store) -> None:  # type: ignore[no-untyped-def]

    for name in PLAYERS:
        store.players.add(name)
    ko = store.events.create("KO", kind="knockout", players=PLAYERS, draw_seed="s1")
    seen = store.consequences.round_preview(ko.id, 1)
    started = store.events.start_round(ko.id, 1)
    assert {(p.first, p.second) for p in seen.pairings} == {
        (p.first, p.second) for p in started.pairings
    }
    with pytest.raises(Refused):
        store.consequences.round_preview(ko.id, 3)


def test_names_are_looked_up_as_the_command_line_does_with_choices(store) -> None:  # type: ignore[no-untyped-def]

    for name in ["Anna Berger", "Anna Huber", "Jürgen Roth"]:
        store.players.add(name)
    store.players.add_alias("Jürgen Roth", "Jogi")
    found = store.players.look_up(["jurgen", "JOGI", "Anna", "Ana Berger", "Zed"])
    assert [x.found.name if x.found else None for x in found] == [
        "Jürgen Roth",
        "Jürgen Roth",
        None,
        None,
        None,
    ]
    assert found[2].ambiguous and [c.name for c in found[2].choices] == [
        "Anna Berger",
        "Anna Huber",
    ]
    assert found[3].choices[0].name == "Anna Berger"
    assert found[4].choices == ()


def test_a_quick_result_is_changed_audited_and_reversible(cup) -> None:  # type: ignore[no-untyped-def]
    store, _, rnd = cup
    mid = rnd.pairings[0].matches[0].match_id
    a, b = store.matches.state(mid).players
    deal = store.deals.quick_result(mid, winner=a, points=1, reason="claim")
    changed = store.deals.edit_quick_result(deal.id, winner=b, points=2, reason="failed-close")
    assert changed is not None and changed.winner == b
    assert store.matches.state(mid).score == {a: 0, b: 2}
    assert store.deals.edit_quick_result(deal.id, winner=b, points=2, reason="failed-close") is None
    with pytest.raises(Refused):
        store.deals.edit_quick_result(deal.id, winner=b, points=5, reason="failed-close")
    entry = store.audit.log(limit=1)[-1]
    assert entry.command == "deal quick edit"
    store.audit.reverse(entry.id)
    assert store.matches.state(mid).score == {a: 1, b: 0}


def test_a_recorded_deal_is_not_changed_as_a_quick_result(cup) -> None:  # type: ignore[no-untyped-def]
    store, _, rnd = cup
    mid = rnd.pairings[0].matches[0].match_id
    deal = store.deals.start(mid, "QH")
    with pytest.raises(Refused, match="recorded card by card"):
        store.deals.edit_quick_result(deal.id, winner=None, points=0, reason="draw")
