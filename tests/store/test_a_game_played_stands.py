"""A game played stands: a withdrawal changes only the games not yet played, in every format.
A forfeit win credited when its loser withdrew stays its winner's when the winner withdraws
later too (the points, ranks and tiebreaks of the others do not move), and a round robin's
forfeits are credited round by round as the rounds are played, not all at once; a round
robin's player who withdraws before half of their games has every result struck out."""

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


def play_rounds(store: Any, ev: int, upto: int) -> None:
    """Start and finish rounds 1 to ``upto`` (each table's first player wins)."""
    for number in range(1, upto + 1):
        store.events.start_round(ev, number)
        for p in store.events.rounds(ev, number)[0].pairings:
            for m in p.matches:
                store.deals.match_result(m.match_id, "7:3", winner=p.first)


@pytest.mark.parametrize(
    ("kind", "options", "before"), [("round-robin", {}, 3), ("swiss", {"rounds": 3}, 0)]
)
def test_a_forfeit_win_stays_and_nobody_elses_tiebreaks_move(
    store: Any, kind: str, options: dict[str, Any], before: int
) -> None:
    # (a round robin's player who withdraws before half of their games is struck out
    # instead: here both have played three of five)
    ev = make(store, kind, SIX, tiebreaks=["buchholz", "sonneborn-berger"], **options)
    play_rounds(store, ev, before)
    number = before + 1
    store.events.start_round(ev, number)
    open_table = table_of(store, ev, number, "Anna")
    winner, loser = open_table.first, open_table.second
    finish_except(store, ev, number, open_table)
    store.events.withdraw(ev, loser)
    before_rows = rows(store, ev, SIX)
    assert row(store, ev, winner).won >= 1
    store.events.withdraw(ev, winner)
    assert rows(store, ev, SIX) == before_rows
    cross = store.events.cross_table(ev)
    me, them = cross.players.index(winner), cross.players.index(loser)
    assert cross.cells[me][them] == ("+",) and cross.cells[them][me] == ("-",)


def test_a_round_robin_credits_a_withdrawn_players_forfeits_round_by_round(store: Any) -> None:
    ev = make(store, "round-robin", SIX)
    play_rounds(store, ev, 3)
    store.events.withdraw(ev, "Anna")  # three of five played: the rest are forfeits
    played = {r.player: r.played for r in store.events.standings(ev).rows}
    assert set(played.values()) == {3}  # rounds 1 to 3 only: no forfeit of a later round yet
    assert store.events.standings(ev).stage == "round 3 of 5"
    nxt = table_of(store, ev, 4, "Anna")
    assert (nxt.status, nxt.matches) == ("forfeit", ())  # the preview says so
    other = nxt.second if nxt.first == "Anna" else nxt.first
    won = row(store, ev, other).won
    store.events.start_round(ev, 4)
    assert row(store, ev, other).won == won + 1  # credited now, with its round
    assert row(store, ev, other).played == 4 and row(store, ev, "Anna").played == 4
    assert sum(r.played for r in store.events.standings(ev).rows) == 6 * 3 + 2


def test_a_round_robin_player_who_withdraws_before_half_their_games_is_struck_out(
    store: Any,
) -> None:
    ev = make(store, "round-robin", SIX, tiebreaks=["sonneborn-berger"])
    play_rounds(store, ev, 2)
    tables = [table_of(store, ev, n, "Anna") for n in (1, 2)]
    opponents = [p.second if p.first == "Anna" else p.first for p in tables]
    others = [n for n in SIX if n != "Anna"]
    counted = {n: row(store, ev, n).played for n in others}
    store.events.withdraw(ev, "Anna")  # two of five played: fewer than half
    view = store.events.standings(ev)
    # ranked nowhere, named apart below the ranked players (FIDE: withdrawn, annulled)
    assert "Anna" not in [r.player for r in view.rows] and view.struck_out == ("Anna",)
    assert view.rows[0].rank == 1 and len(view.rows) == 5
    for name in others:  # Anna's opponents are neither credited nor debited
        assert row(store, ev, name).played == counted[name] - (name in opponents)
    assert view.stage == "round 2 of 5"
    assert {table_of(store, ev, n, "Anna").status for n in (1, 2, 3, 4, 5)} == {"annulled"}
    cross = store.events.cross_table(ev)
    me = cross.players.index("Anna")
    assert all(cell == () for cell in cross.cells[me])
    store.events.start_round(ev, 3)  # her round 3 opponent gets no forfeit win
    third = table_of(store, ev, 3, "Anna")
    other = third.second if third.first == "Anna" else third.first
    assert row(store, ev, other).played == counted[other] - (other in opponents)


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
