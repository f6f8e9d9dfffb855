"""A game played stands: a withdrawal changes only the games not yet played, in every format.
A forfeit win credited when its loser withdrew stays its winner's when the winner withdraws
later too (the points, ranks and tiebreaks of the others do not move), and a round robin's
forfeits are credited round by round as the rounds are played, not all at once."""

from __future__ import annotations

from typing import Any

import pytest

SIX = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def row(store: Any, ev: int, name: str) -> Any:
    return next(r for r in store.events.standings(ev).rows if r.player == name)


def rows(store: Any, ev: int, names: list[str]) -> list[tuple[Any, ...]]:
    """What the standings say of ``names``: match points, won, lost, tiebreaks."""
    return [
        (r.match_points, r.won, r.lost, r.tiebreak_values)
        for r in (row(store, ev, n) for n in names)
    ]


def table_of(store: Any, ev: int, number: int, name: str) -> Any:
    return next(
        p for p in store.events.rounds(ev, number)[0].pairings if name in (p.first, p.second)
    )


def finish_except(store: Any, ev: int, number: int, keep: Any) -> None:
    for p in store.events.rounds(ev, number)[0].pairings:
        if p is not keep and p.table != keep.table:
            for m in p.matches:
                if not m.over:
                    store.deals.match_result(m.match_id, "7:3", winner=p.first)


def make(store: Any, kind: str, players: list[str], **options: Any) -> int:
    for name in players:
        store.players.add(name)
    return int(store.events.create("Cup", kind=kind, players=players, **options).id)


def test_at_a_club_evening_a_forfeit_win_stays_when_its_winner_withdraws(store: Any) -> None:
    ev = make(store, "club", SIX[:4])
    store.matches.start("Anna", "Bert", first_dealer="Anna", event=ev)
    done = store.matches.start("Carl", "Dora", first_dealer="Carl", event=ev).id
    store.deals.match_result(done, "7:2", winner="Dora")
    store.events.withdraw(ev, "Bert")
    before = rows(store, ev, ["Anna", "Bert", "Carl", "Dora"])
    assert row(store, ev, "Anna").won == 1
    store.events.withdraw(ev, "Anna")
    assert rows(store, ev, ["Anna", "Bert", "Carl", "Dora"]) == before


@pytest.mark.parametrize(("kind", "options"), [("round-robin", {}), ("swiss", {"rounds": 3})])
def test_a_forfeit_win_stays_and_nobody_elses_tiebreaks_move(
    store: Any, kind: str, options: dict[str, Any]
) -> None:
    ev = make(store, kind, SIX, tiebreaks=["buchholz", "sonneborn-berger"], **options)
    store.events.start_round(ev, 1)
    open_table = table_of(store, ev, 1, "Anna")
    winner, loser = open_table.first, open_table.second
    finish_except(store, ev, 1, open_table)
    store.events.withdraw(ev, loser)
    before = rows(store, ev, SIX)
    assert row(store, ev, winner).won == 1
    store.events.withdraw(ev, winner)
    assert rows(store, ev, SIX) == before
    cross = store.events.cross_table(ev)
    me, them = cross.players.index(winner), cross.players.index(loser)
    assert cross.cells[me][them] == ("+",) and cross.cells[them][me] == ("-",)


def test_a_round_robin_credits_a_withdrawn_players_forfeits_round_by_round(store: Any) -> None:
    ev = make(store, "round-robin", SIX)
    store.events.start_round(ev, 1)
    for p in store.events.rounds(ev, 1)[0].pairings:
        store.deals.match_result(p.matches[0].match_id, "7:3", winner=p.first)
    store.events.withdraw(ev, "Anna")
    played = {r.player: r.played for r in store.events.standings(ev).rows}
    assert set(played.values()) == {1}  # round 1 only: no forfeit of a later round yet
    nxt = table_of(store, ev, 2, "Anna")
    other = nxt.second if nxt.first == "Anna" else nxt.first
    won = row(store, ev, other).won
    store.events.start_round(ev, 2)
    assert row(store, ev, other).won == won + 1  # credited now, with its round
    assert row(store, ev, other).played == 2 and row(store, ev, "Anna").played == 2
    assert sum(r.played for r in store.events.standings(ev).rows) == 6 + 2


def test_a_knockout_forfeit_win_stays_when_its_winner_withdraws(store: Any) -> None:
    ev = make(store, "knockout", SIX, lives=2)
    rnd = store.events.start_round(ev, 1)
    open_table = rnd.pairings[0]
    winner, loser = open_table.first, open_table.second
    finish_except(store, ev, 1, open_table)
    store.events.withdraw(ev, loser)
    before = rows(store, ev, SIX)
    assert row(store, ev, winner).won >= 1
    store.events.withdraw(ev, winner)
    assert rows(store, ev, SIX) == before


def test_a_group_forfeit_win_stays_when_its_winner_withdraws(store: Any) -> None:
    players = [*SIX, "Gerti", "Hans"]
    ev = make(store, "groups", players, groups=2, advance=1)
    rnd = store.events.start_round(ev, 1)
    open_table = rnd.pairings[0]
    winner, loser = open_table.first, open_table.second
    finish_except(store, ev, 1, open_table)
    store.events.withdraw(ev, loser)
    before = rows(store, ev, players)
    store.events.withdraw(ev, winner)
    assert rows(store, ev, players) == before
