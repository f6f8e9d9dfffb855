"""A player's no-show in one round (a one-round forfeit) in the store: the opponent wins that
match by forfeit (+/-), nobody when both stayed away (-/-), the player stays in and is paired
next round; counted as a forfeit in the standings and tiebreaks; the match takes no deals; the
refusals, undo and the event's snapshot; on SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import MatchOver, NotFound, Refused
from tests.store.test_swiss import play, swiss, win

FOUR = ["Anna", "Bert", "Carl", "Dora"]


def pairing_of(rnd: Any, name: str) -> Any:
    return next(p for p in rnd.pairings if name in (p.first, p.second))


def other(p: Any, name: str) -> str:
    return str(p.second if p.first == name else p.first)


def test_the_opponent_wins_by_forfeit_and_the_player_is_paired_next_round(store: Any) -> None:
    ev = swiss(store, FOUR, 3)
    rnd = store.events.start_round(ev, 1)
    p = pairing_of(rnd, "Anna")
    assert store.no_shows.record(ev, 1, "anna") == "Anna"
    for q in rnd.pairings:
        if q is not p:
            win(store, q.matches[0].match_id, q.first)
    shown = pairing_of(store.events.rounds(ev, 1)[0], "Anna")
    assert shown.status == "forfeit" and shown.forfeit_winner == other(p, "Anna")
    assert shown.no_show == ("Anna",)
    rows = {r.player: r for r in store.events.standings(ev).rows}
    assert rows[other(p, "Anna")].match_points == 1.0
    assert rows["Anna"].match_points == 0.0
    assert store.events.get(ev).no_shows == ((1, "Anna"),)
    nxt = store.events.start_round(ev, 2)
    assert "Anna" in {x for q in nxt.pairings for x in (q.first, q.second)}


def test_both_absent_nobody_scores_and_the_round_is_over(store: Any) -> None:
    ev = swiss(store, FOUR, 3)
    rnd = store.events.start_round(ev, 1)
    p = rnd.pairings[0]
    store.no_shows.record(ev, 1, p.first)
    store.no_shows.record(ev, 1, p.second)
    play(store, rnd.__class__(**{**rnd.__dict__, "pairings": rnd.pairings[1:]}))
    shown = store.events.rounds(ev, 1)[0].pairings[0]
    assert shown.status == "void" and shown.forfeit_winner is None
    rows = {r.player: r for r in store.events.standings(ev).rows}
    assert rows[p.first].match_points == 0.0 and rows[p.second].match_points == 0.0
    assert rows[p.first].played == 0
    store.events.start_round(ev, 2)  # the round is over: the next one pairs


def test_a_forfeit_is_no_game_met_for_the_pairing(store: Any) -> None:
    """Two players whose match was forfeited may meet again (FIDE: a forfeit is not played)."""
    ev = swiss(store, ["Anna", "Bert"], 2)
    rnd = store.events.start_round(ev, 1)
    store.no_shows.record(ev, 1, "Bert")
    again = store.events.start_round(ev, 2)
    assert {again.pairings[0].first, again.pairings[0].second} == {"Anna", "Bert"}
    assert rnd.pairings[0].first in ("Anna", "Bert")


def _buchholz_of_the_forfeit_winner(store: Any, unplayed: str) -> tuple[float, str]:
    """Round 1: Anna does not come, the other table is played; round 2: Anna wins. The
    Buchholz of Anna's round-1 opponent, and who that is."""
    name = f"Open {unplayed}"
    ev = store.events.create(
        name, kind="swiss", players=FOUR, rounds=2, unplayed=unplayed, tiebreaks=["buchholz"]
    ).id
    rnd = store.events.start_round(ev, 1)
    p = pairing_of(rnd, "Anna")
    store.no_shows.record(ev, 1, "Anna")
    for q in rnd.pairings:
        if q is not p:
            win(store, q.matches[0].match_id, q.first)
    winner = other(p, "Anna")
    table = store.events.round_by_round(ev)
    cells = dict(zip(table.players, table.cells, strict=True))
    assert cells[winner][0].result == "+" and cells["Anna"][0].result == "-"
    second = store.events.start_round(ev, 2)
    play(store, second, lambda pair: "Anna" if "Anna" in pair else pair[0])
    assert winner not in (pairing_of(second, "Anna").first, pairing_of(second, "Anna").second)
    rows = {r.player: r for r in store.events.standings(ev).rows}
    return rows[winner].tiebreak_values[0], winner


def test_a_forfeit_counts_as_a_game_not_played_in_the_tiebreaks(store: Any) -> None:
    """As scored, the no-show counts as the opponent met (Anna ends on 1 point); under FIDE's
    rule for unplayed games the forfeit's winner met a virtual opponent instead: 0 before the
    round + (1 - 1) + half a win for the one round after it = 0.5."""
    for name in FOUR:
        store.players.add(name)
    scored, _ = _buchholz_of_the_forfeit_winner(store, "as-scored")
    virtual, _ = _buchholz_of_the_forfeit_winner(store, "virtual-opponent")
    assert scored - virtual == 0.5


def test_the_forfeited_match_takes_no_deals(store: Any) -> None:
    ev = swiss(store, FOUR, 2)
    rnd = store.events.start_round(ev, 1)
    p = pairing_of(rnd, "Anna")
    store.no_shows.record(ev, 1, "Anna")
    with pytest.raises(MatchOver, match="Anna did not come"):
        store.deals.quick_result(p.matches[0].match_id, winner="Anna", points=3, reason="claim")


def test_refused_once_deals_are_recorded_with_the_reason(store: Any) -> None:
    ev = swiss(store, FOUR, 2)
    rnd = store.events.start_round(ev, 1)
    p = pairing_of(rnd, "Anna")
    store.deals.quick_result(p.matches[0].match_id, winner="Anna", points=3, reason="claim")
    with pytest.raises(Refused, match="1 deal\\(s\\) recorded: a game played stands"):
        store.no_shows.record(ev, 1, "Anna")


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("club", "a one-round forfeit is for a Swiss event or a round robin"),
        ("knockout", "withdraw the player instead"),
    ],
)
def test_refused_outside_a_swiss_event_or_round_robin(store: Any, kind: str, words: str) -> None:
    for name in FOUR:
        store.players.add(name)
    ev = store.events.create("Cup", kind=kind, players=FOUR).id
    with pytest.raises(Refused, match=words):
        store.no_shows.record(ev, 1, "Anna")


def test_refusals_round_player_bye_and_twice(store: Any) -> None:
    ev = swiss(store, [*FOUR, "Emil"], 3)
    with pytest.raises(Refused, match="has not started"):
        store.no_shows.record(ev, 1, "Anna")
    rnd = store.events.start_round(ev, 1)
    with pytest.raises(Refused, match="no match in round 1"):
        store.no_shows.record(ev, 1, rnd.bye)
    with pytest.raises(NotFound):
        store.no_shows.record(ev, 1, "Nobody")
    store.no_shows.record(ev, 1, "Anna")
    with pytest.raises(Refused, match="recorded already"):
        store.no_shows.record(ev, 1, "Anna")
    with pytest.raises(Refused, match="is not recorded"):
        store.no_shows.record(ev, 1, "Bert", cancel=True)
    with pytest.raises(Refused, match="no-show\\(s\\) of the round are recorded"):
        store.pairings.withdraw(ev, 1)


def test_a_round_robin_takes_a_one_round_forfeit(store: Any) -> None:
    for name in FOUR:
        store.players.add(name)
    ev = store.events.create("RR", kind="round-robin", players=FOUR).id
    rnd = store.events.start_round(ev, 1)
    p = rnd.pairings[0]
    store.no_shows.record(ev, 1, p.first)
    cross = store.events.cross_table(ev)
    i, j = cross.players.index(p.second), cross.players.index(p.first)
    assert cross.cells[i][j] == ("+",) and cross.cells[j][i] == ("-",)
    assert not store.events.get(ev).players[0].withdrawn


def test_recording_and_cancelling_are_audited_and_undone(store: Any) -> None:
    ev = swiss(store, FOUR, 2)
    store.events.start_round(ev, 1)
    store.no_shows.record(ev, 1, "Carl")
    entry = store.audit.log()[-1]
    assert entry.command == "event forfeit" and "Carl" in entry.summary
    store.audit.reverse(entry.id)
    assert store.events.get(ev).no_shows == ()
    store.no_shows.record(ev, 1, "Carl")
    store.no_shows.record(ev, 1, "Carl", cancel=True)
    assert store.events.get(ev).no_shows == ()
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.events.get(ev).no_shows == ((1, "Carl"),)


def test_a_no_show_moves_with_a_merged_player(store: Any) -> None:
    """A duplicate entry merged into the player kept: the no-show is theirs (a player entered
    twice by mistake, one entry withdrawn before round 1)."""
    ev = swiss(store, FOUR, 2)
    store.players.add("Anna Duplicate")
    store.events.start_round(ev, 1)
    store.no_shows.record(ev, 1, "Anna")
    store.players.merge("Anna Duplicate", "Anna")
    assert store.events.get(ev).no_shows == ((1, "Anna Duplicate"),)
