"""Events as a library: club evenings and round robins, rounds from the Berger schedule,
withdrawals, and standings, on SQLite and (when configured) PostgreSQL.

Every expected standings row below was worked out by hand from the matches the test sets up
(written next to them); the matches are entered as quick results, deal by deal.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tally.events.tiebreaks import StandingRow
from tests.store_support import dump

Deal = tuple[str, int] | tuple[str, int, str] | None


def quick(store: Any, match_id: int, *deals: Deal) -> None:
    """Enter deals as results: (winner, game points before the carry[, reason]); None is a
    draw."""
    for deal in deals:
        if deal is None:
            store.deals.quick_result(match_id, winner=None, points=0, reason="draw")
        else:
            store.deals.quick_result(
                match_id,
                winner=deal[0],
                points=deal[1],
                reason=deal[2] if len(deal) == 3 else "claim",
            )


def chunks(points: int) -> list[int]:
    """Game points as claims of 3 and the rest: 7 is 3 + 3 + 1."""
    return [3] * (points // 3) + ([points % 3] if points % 3 else [])


def won(store: Any, match_id: int, winner: str, loser: str, score: tuple[int, int]) -> None:
    """The loser's game points first, then the winner's (at most 9), as claims."""
    quick(
        store,
        match_id,
        *[(loser, p) for p in chunks(score[1])],
        *[(winner, p) for p in chunks(score[0])],
    )


def club_match(store: Any, ev: int, winner: str, loser: str, score: tuple[int, int]) -> int:
    m = store.matches.start(winner, loser, first_dealer=winner, event=ev)
    won(store, m.id, winner, loser, score)
    return int(m.id)


def players(store: Any, *names: str) -> None:
    for name in names:
        store.players.add(name)


def ranks(view: Any) -> list[tuple[int, str]]:
    return [(row.rank, row.player) for row in view.rows]


def without_new_columns(rows: Any) -> list[StandingRow]:
    """The rows with the columns of issue 11 (percentage, byes, running) at their defaults:
    what the tests written before them compare; the new columns have tests of their own."""
    return [dataclasses.replace(r, percentage=0.0, byes=0, running=0) for r in rows]


def row(
    rank: int,
    player: str,
    played: int,
    won: int,
    lost: int,
    mp: float,
    gp: tuple[int, int],
    schneider: int,
    schwarz: int,
    *tiebreaks: float,
) -> StandingRow:
    return StandingRow(
        rank=rank,
        player=player,
        played=played,
        won=won,
        lost=lost,
        match_points=mp,
        game_points_won=gp[0],
        game_points_conceded=gp[1],
        game_point_difference=gp[0] - gp[1],
        schneider_wins=schneider,
        schwarz_wins=schwarz,
        tiebreak_values=tuple(tiebreaks),
    )


# --- club evenings ---------------------------------------------------------------------------


def test_club_evening_standings_add_up_every_column(store: Any) -> None:
    players(store, "Anna", "Bert", "Carl", "Dora")
    ev = store.events.create(
        "Thursday club", players=["Anna", "Bert", "Carl", "Dora"], held_on=date(2026, 11, 19)
    )
    # Anna 7 : Bert 2. Anna's 3 is schwarz, her 2 by a claim schneider; Bert's 2 by a false
    # claim and Anna's last 2 by a failed close are neither.
    m = store.matches.start("Anna", "Bert", first_dealer="Anna", event=ev.id)
    quick(
        store,
        m.id,
        ("Anna", 3),
        ("Bert", 2, "false-claim"),
        ("Anna", 2),
        ("Anna", 2, "failed-close"),
    )
    # Carl 7 : Dora 5. Dora 2 (schneider), Carl 3 (schwarz), a draw, Carl 1 + the carried 1
    # (2 game points, but 1 before the carry: no schneider), Dora 3 by a failed close, Carl 2
    # (schneider).
    m = store.matches.start("Carl", "Dora", first_dealer="Carl", event=ev.id)
    quick(
        store,
        m.id,
        ("Dora", 2),
        ("Carl", 3),
        None,
        ("Carl", 1),
        ("Dora", 3, "failed-close"),
        ("Carl", 2),
    )
    # Anna 7 : Carl 5. Anna 3 (schwarz) + 2 + 2 (schneider twice); Carl 3 (schwarz), 2.
    m = store.matches.start("Anna", "Carl", first_dealer="Carl", event=ev.id)
    quick(store, m.id, ("Anna", 3), ("Carl", 3), ("Carl", 2), ("Anna", 2), ("Anna", 2))
    # Bert v Dora is still being played: it counts for nothing yet.
    m = store.matches.start("Bert", "Dora", first_dealer="Bert", event=ev.id)
    quick(store, m.id, ("Bert", 3))

    view = store.events.standings(ev.id)
    assert view.tiebreaks == (
        "head-to-head",
        "game-point-difference",
        "game-points-won",
        "sonneborn-berger",
        "wins",
    )
    # Anna: won both, 7+7 : 2+5; Sonneborn-Berger: Bert's 0 + Carl's 1.
    # Carl: beat Dora, lost to Anna, 7+5 : 5+7. Dora and Bert are level on 0 match points and
    # never finished a match against each other; Dora's difference (-2) beats Bert's (-5).
    assert without_new_columns(view.rows) == [
        row(1, "Anna", 2, 2, 0, 2.0, (14, 7), 3, 2, 0, 7, 14, 1, 2),
        row(2, "Carl", 2, 1, 1, 1.0, (12, 12), 2, 2, 0, 0, 12, 0, 1),
        row(3, "Dora", 1, 0, 1, 0.0, (5, 7), 1, 0, 0, -2, 5, 0, 0),
        row(4, "Bert", 1, 0, 1, 0.0, (2, 7), 0, 0, 0, -5, 2, 0, 0),
    ]
    assert view.event is not None and view.event.kind == "club"
    assert (view.title, view.stage, view.withdrawn) == ("Thursday club", "", ())


# Anna beat Bert 7:6 and Dora 7:5; Bert beat Carl 7:6 and Dora 7:4; Carl beat Anna 7:6; Dora
# beat Carl 7:4. Match points: Anna 2, Bert 2, Carl 1, Dora 1.
# Game points won : conceded. Anna 7+6+7 = 20 : 6+7+5 = 18 (+2); Bert 6+7+7 = 20 : 7+6+4 = 17
# (+3); Carl 7+6+4 = 17 : 6+7+7 = 20 (-3); Dora 5+4+7 = 16 : 7+7+4 = 18 (-2).
# Sonneborn-Berger: Anna beat Bert (2) and Dora (1): 3; Bert beat Carl (1) and Dora (1): 2;
# Carl beat Anna (2): 2; Dora beat Carl (1): 1.
FIELD = [
    ("Anna", "Bert", (7, 6)),
    ("Carl", "Anna", (7, 6)),
    ("Anna", "Dora", (7, 5)),
    ("Bert", "Carl", (7, 6)),
    ("Bert", "Dora", (7, 4)),
    ("Dora", "Carl", (7, 4)),
]


def test_ties_are_broken_by_each_tiebreak_in_the_order_the_event_gives(store: Any) -> None:
    players(store, "Anna", "Bert", "Carl", "Dora")
    ev = store.events.create(
        "Cup", players=["Anna", "Bert", "Carl", "Dora"], tiebreaks=["game-points-won"]
    )
    for winner, loser, score in FIELD:
        club_match(store, ev.id, winner, loser, score)

    # The event's own order: game points won. Anna and Bert both won 20 and stay level.
    view = store.events.standings(ev.id)
    assert view.tiebreaks == ("game-points-won",)
    assert ranks(view) == [(1, "Anna"), (1, "Bert"), (3, "Carl"), (4, "Dora")]
    assert [r.tiebreak_values for r in view.rows] == [(20,), (20,), (17,), (16,)]

    def by(tiebreak: str) -> tuple[list[tuple[int, str]], list[tuple[float, ...]]]:
        v = store.events.standings(ev.id, tiebreaks=[tiebreak])
        return ranks(v), [r.tiebreak_values for r in v.rows]

    # Head-to-head inside each group: Anna beat Bert, Dora beat Carl.
    assert by("head-to-head") == (
        [(1, "Anna"), (2, "Bert"), (3, "Dora"), (4, "Carl")],
        [(1,), (0,), (1,), (0,)],
    )
    assert by("game-point-difference") == (
        [(1, "Bert"), (2, "Anna"), (3, "Dora"), (4, "Carl")],
        [(3,), (2,), (-2,), (-3,)],
    )
    assert by("sonneborn-berger") == (
        [(1, "Anna"), (2, "Bert"), (3, "Carl"), (4, "Dora")],
        [(3,), (2,), (2,), (1,)],
    )
    # One match point a win and no byes: wins tell nobody apart here.
    assert by("wins") == (
        [(1, "Anna"), (1, "Bert"), (3, "Carl"), (3, "Dora")],
        [(2,), (2,), (1,), (1,)],
    )
    with pytest.raises(Refused, match="unknown tiebreak"):
        store.events.standings(ev.id, tiebreaks=["coin-toss"])


def test_players_level_on_every_tiebreak_share_the_rank(store: Any) -> None:
    players(store, "Emil", "Fritz", "Gerd")
    ev = store.events.create("Friday club", players=["Emil", "Fritz", "Gerd"])
    # Emil and Fritz beat each other 7:3, and both beat Gerd 7:0: 2 match points each,
    # head-to-head 1 each, 17 : 10 each, Sonneborn-Berger 2 (each other) + 0 (Gerd), 2 wins.
    club_match(store, ev.id, "Emil", "Fritz", (7, 3))
    club_match(store, ev.id, "Fritz", "Emil", (7, 3))
    club_match(store, ev.id, "Emil", "Gerd", (7, 0))
    club_match(store, ev.id, "Fritz", "Gerd", (7, 0))
    view = store.events.standings(ev.id)
    assert ranks(view) == [(1, "Emil"), (1, "Fritz"), (3, "Gerd")]
    assert view.rows[0].tiebreak_values == view.rows[1].tiebreak_values == (1, 7, 17, 2, 2)


def test_a_club_match_inherits_the_rules_and_brings_new_players_in(store: Any) -> None:
    players(store, "Anna", "Bert", "Carl")
    ev = store.events.create("Schnapsen night", players=["Anna"], rules="schnapsen")
    m = store.matches.start("Bert", "Anna", first_dealer="Bert", event="schnapsen NIGHT")
    assert (m.rules, m.event_id, m.round, m.table) == ("schnapsen", ev.id, None, None)
    assert [p.name for p in store.events.get(ev.id).players] == ["Anna", "Bert"]
    with pytest.raises(Refused, match='played under "schnapsen", not "sixty-six"'):
        store.matches.start("Carl", "Anna", first_dealer="Carl", event=ev.id, rules="sixty-six")
    store.events.withdraw(ev.id, "Bert")
    with pytest.raises(Refused, match="Bert has withdrawn"):
        store.matches.start("Bert", "Carl", first_dealer="Bert", event=ev.id)
    with pytest.raises(NotFound, match='no event "Nope"'):
        store.matches.start("Carl", "Anna", first_dealer="Carl", event="Nope")
    store.events.create("Schnapsen night", players=[])
    with pytest.raises(Refused, match="several events"):
        store.events.get("Schnapsen night")


# --- round robins ----------------------------------------------------------------------------


FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]
# The Berger table for 5 players (6 with the bye), seeds 1-5: (table, first, second) and the
# bye of each round.
FIVE_ROUNDS = [
    ([(1, "Bert", "Emil"), (2, "Carl", "Dora")], "Anna"),
    ([(1, "Emil", "Carl"), (2, "Anna", "Bert")], "Dora"),
    ([(1, "Carl", "Anna"), (2, "Dora", "Emil")], "Bert"),
    ([(1, "Anna", "Dora"), (2, "Bert", "Carl")], "Emil"),
    ([(1, "Dora", "Bert"), (2, "Emil", "Anna")], "Carl"),
]


def test_a_round_robin_follows_the_berger_schedule_and_starts_each_round_once(
    store: Any, db_url: str
) -> None:
    players(store, *FIVE)
    ev = store.events.create("Autumn cup", kind="round-robin", players=FIVE, matches_per_pairing=2)
    assert (ev.rounds, ev.rounds_started, ev.matches_per_pairing) == (5, (), 2)
    schedule = store.events.rounds(ev.id)
    assert [
        ([(p.table, p.first, p.second) for p in r.pairings], r.bye) for r in schedule
    ] == FIVE_ROUNDS
    assert all(
        p.first_dealer == p.first and p.status == "scheduled" for r in schedule for p in r.pairings
    )

    started = store.events.start_round(ev.id, 1)
    assert started.started and started.bye == "Anna" and not started.bye_scores  # bye=none
    # Two matches a pairing; the first dealer alternates between them.
    assert [
        (p.table, [(m.match_id, m.first_dealer, m.result) for m in p.matches])
        for p in started.pairings
    ] == [
        (1, [(1, "Bert", "0:0"), (2, "Emil", "0:0")]),
        (2, [(3, "Carl", "0:0"), (4, "Dora", "0:0")]),
    ]
    m = store.matches.state(2)
    assert (m.players, m.first_dealer, m.event_id, m.round, m.table) == (
        ("Bert", "Emil"),
        "Emil",
        ev.id,
        1,
        1,
    )
    before = dump(db_url)
    with pytest.raises(Refused, match='round 1 of event 1 "Autumn cup" was started already'):
        store.events.start_round(ev.id, 1)
    with pytest.raises(NotFound, match="rounds 1 to 5, not 6"):
        store.events.start_round(ev.id, 6)
    with pytest.raises(Refused, match="round robin: its matches are made from the schedule"):
        store.matches.start("Anna", "Bert", first_dealer="Anna", event=ev.id)
    with pytest.raises(Refused, match="has started"):
        store.events.add_players(ev.id, ["Anna"])
    assert dump(db_url) == before
    quick(store, 1, ("Emil", 3), ("Bert", 3), ("Bert", 3), ("Bert", 1))
    [r1] = store.events.rounds(ev.id, 1)
    assert [(p.status, p.results) for p in r1.pairings] == [("playing", ("7:3",)), ("playing", ())]
    assert store.events.standings(ev.id).stage == "round 1 of 5"


def test_a_double_round_robin_plays_the_return_leg_the_other_way_round(store: Any) -> None:
    players(store, "Anna", "Bert", "Carl", "Dora")
    ev = store.events.create(
        "Winter league", kind="round-robin", double=True, players=["Anna", "Bert", "Carl", "Dora"]
    )
    schedule = store.events.rounds(ev.id)
    assert ev.rounds == len(schedule) == 6
    # Berger for 4: round 1 is 1-4 and 2-3; round 4 repeats it with the colours swapped.
    assert [(p.first, p.second) for p in schedule[0].pairings] == [
        ("Anna", "Dora"),
        ("Bert", "Carl"),
    ]
    assert [(p.first, p.second, p.first_dealer) for p in schedule[3].pairings] == [
        ("Dora", "Anna", "Dora"),
        ("Carl", "Bert", "Carl"),
    ]
    club = store.events.create("Club", players=["Anna"])
    with pytest.raises(Refused, match="club evening: it has no schedule"):
        store.events.rounds(club.id)
    with pytest.raises(Refused, match="club evening has no schedule"):
        store.events.create("Club", double=True)
    with pytest.raises(Refused, match="at least 2 players"):
        store.events.create("Alone", kind="round-robin", players=["Anna"])


THREE = ["Anna", "Bert", "Carl"]
# Berger for 3 (4 with the bye): round 1 Bert v Carl, Anna sits out; round 2 Anna v Bert, Carl
# sits out; round 3 Carl v Anna, Bert sits out.


def three_player_cup(store: Any, name: str, withdrawal: str) -> int:
    """Round 1: Bert beats Carl 7:4. Round 2: Anna leads Bert 3:0 when Bert withdraws.
    Round 3 (started after that): Carl beats Anna 7:5. A bye scores as a win."""
    ev = store.events.create(
        name, kind="round-robin", players=THREE, bye="win", withdrawal=withdrawal
    )
    r1 = store.events.start_round(ev.id, 1)
    won(store, r1.pairings[0].match_ids[0], "Bert", "Carl", (7, 4))
    r2 = store.events.start_round(ev.id, 2)
    quick(store, r2.pairings[0].match_ids[0], ("Anna", 3))
    store.events.withdraw(ev.id, "Bert")
    r3 = store.events.start_round(ev.id, 3)
    won(store, r3.pairings[0].match_ids[0], "Carl", "Anna", (7, 5))
    return int(ev.id)


def test_a_withdrawn_players_remaining_matches_are_forfeited(store: Any) -> None:
    players(store, *THREE)
    ev = three_player_cup(store, "Forfeit cup", "forfeit")
    view = store.events.standings(ev)
    # Anna: won round 2 by forfeit (3 : 0 as recorded, one schwarz), lost round 3 5 : 7 (3 + 2:
    # a schwarz and a schneider), bye in round 1: 1 + 1 match points, 8 : 7. Carl: lost 4 : 7
    # (3 + 1), won 7 : 5 (3 + 3 + 1), bye in round 2: 2 match points, 11 : 12, three schwarz;
    # he beat Anna, so he is first. Bert: beat Carl (3 + 3 + 1), lost the forfeit, and no bye
    # in round 3 (he had withdrawn): 1 match point, 7 : 7.
    # Sonneborn-Berger: Carl beat Anna (2), Anna beat Bert (1), Bert beat Carl (2).
    assert without_new_columns(view.rows) == [
        row(1, "Carl", 2, 1, 1, 2.0, (11, 12), 0, 3, 1, -1, 11, 2, 1),
        row(2, "Anna", 2, 1, 1, 2.0, (8, 7), 1, 2, 0, 1, 8, 1, 1),
        row(3, "Bert", 2, 1, 1, 1.0, (7, 7), 0, 2, 0, 0, 7, 2, 1),
    ]
    assert (view.stage, view.withdrawn) == ("final", ("Bert",))
    r2, r3 = store.events.rounds(ev, 2)[0], store.events.rounds(ev, 3)[0]
    assert (r2.pairings[0].status, r2.pairings[0].forfeit_winner) == ("forfeit", "Anna")
    assert (r2.bye, r2.bye_scores, r3.bye, r3.bye_scores) == ("Carl", True, "Bert", False)
    grid = store.events.cross_table(ev)
    assert grid.players == ("Carl", "Anna", "Bert")  # in the order of the standings
    assert grid.cells == (((), ("7:5",), ("4:7",)), (("5:7",), (), ("+",)), (("7:4",), ("-",), ()))


def test_a_withdrawn_players_remaining_matches_can_be_void(store: Any) -> None:
    players(store, *THREE)
    ev = three_player_cup(store, "Void cup", "void")
    view = store.events.standings(ev)
    # Round 2 drops out. Carl: 2 match points (a win and a bye). Anna: her bye only, 5 : 7.
    # Bert: his win over Carl, 7 : 4. Anna and Bert never finished a match: the difference
    # puts Bert (+3) ahead of Anna (-2). Sonneborn-Berger: Carl beat Anna (1), Bert beat
    # Carl (2).
    assert without_new_columns(view.rows) == [
        row(1, "Carl", 2, 1, 1, 2.0, (11, 12), 0, 3, 0, -1, 11, 1, 1),
        row(2, "Bert", 1, 1, 0, 1.0, (7, 4), 0, 2, 0, 3, 7, 2, 1),
        row(3, "Anna", 1, 0, 1, 1.0, (5, 7), 1, 1, 0, -2, 5, 0, 0),
    ]
    [r2] = store.events.rounds(ev, 2)
    assert (r2.pairings[0].status, r2.pairings[0].forfeit_winner) == ("void", None)
    assert store.events.cross_table(ev).cells[2][1] == ()  # Anna (third) against Bert (second)


def test_a_player_who_withdraws_before_the_start_has_every_scheduled_match_struck_out(
    store: Any,
) -> None:
    players(store, *THREE)
    ev = store.events.create("Early exit", kind="round-robin", players=THREE)
    store.events.withdraw(ev.id, "Carl")
    with pytest.raises(Refused, match="withdrawn from event 1 already"):
        store.events.withdraw(ev.id, "carl")
    # Carl played none of his two matches (fewer than half): they count for nobody, as FIDE
    # strikes out a round robin's player who withdrew before half of their games.
    r1 = store.events.start_round(ev.id, 1)
    assert [(p.status, p.match_ids, p.forfeit_winner) for p in r1.pairings] == [
        ("annulled", (), None)
    ]
    view = store.events.standings(ev.id)
    assert [(r.player, r.played, r.won, r.lost, r.match_points) for r in view.rows] == [
        ("Anna", 0, 0, 0, 0.0),
        ("Bert", 0, 0, 0, 0.0),
    ]
    assert view.struck_out == ("Carl",)  # ranked nowhere, named below the ranked players
    assert view.stage == "round 1 of 3"  # Anna v Bert, round 2, is still to come
    [r2] = store.events.start_round(ev.id, 2).pairings
    won(store, r2.match_ids[0], "Anna", "Bert", (7, 3))
    store.events.start_round(ev.id, 3)
    view = store.events.standings(ev.id)
    assert [(r.player, r.played, r.won, r.lost, r.match_points) for r in view.rows] == [
        ("Anna", 1, 1, 0, 1.0),
        ("Bert", 1, 0, 1, 0.0),  # (never below Carl, who played nothing)
    ]


# --- seasons ---------------------------------------------------------------------------------


def test_season_standings_add_up_the_club_evenings_of_a_date_range(store: Any) -> None:
    players(store, "Anna", "Bert", "Carl")
    first = store.events.create("Club 1", players=["Anna", "Bert"], held_on=date(2026, 1, 8))
    club_match(store, first.id, "Anna", "Bert", (7, 0))  # 3 + 3 + 1: two schwarz
    second = store.events.create("Club 2", players=["Bert", "Carl"], held_on=date(2026, 1, 15))
    club_match(store, second.id, "Bert", "Carl", (7, 2))  # Carl's 2 is a schneider
    before = store.events.create("Old club", players=["Carl", "Anna"], held_on=date(2025, 12, 18))
    club_match(store, before.id, "Carl", "Anna", (7, 0))
    cup = store.events.create(
        "Cup", kind="round-robin", players=["Anna", "Carl"], held_on=date(2026, 1, 20)
    )
    r1 = store.events.start_round(cup.id, 1)
    won(store, r1.pairings[0].match_ids[0], "Carl", "Anna", (7, 1))

    season = store.events.season_standings(
        date_from=date(2026, 1, 1), date_to=date(2026, 6, 30), rank_by="points"
    )
    assert season.events == (first.id, second.id) and season.event is None
    assert season.title == "Season: club evenings from 2026-01-01 to 2026-06-30"
    # Anna 7 : 0 and Bert (7 : 9) have a match point each; Anna beat Bert (Sonneborn-Berger:
    # Bert's 1).
    assert without_new_columns(season.rows) == [
        row(1, "Anna", 1, 1, 0, 1.0, (7, 0), 0, 2, 1, 7, 7, 1, 1),
        row(2, "Bert", 2, 1, 1, 1.0, (7, 9), 0, 2, 0, -2, 7, 0, 1),
        row(3, "Carl", 1, 0, 1, 0.0, (2, 7), 1, 0, 0, -5, 2, 0, 0),
    ]
    # With the round robin, all three have a match point and each beat another: Anna (8 : 7)
    # and Carl (9 : 8) are level on the difference, Carl won more game points.
    every = store.events.season_standings(
        date_from=date(2026, 1, 1),
        all_events=True,
        tiebreaks=["head-to-head", "game-point-difference", "game-points-won"],
    )
    assert every.events == (first.id, second.id, cup.id)
    assert [(r.rank, r.player, r.tiebreak_values) for r in every.rows] == [
        (1, "Carl", (1, 1, 9)),
        (2, "Anna", (1, 1, 8)),
        (3, "Bert", (1, -2, 7)),
    ]
    # Without a range: the old club evening counts too.
    assert store.events.season_standings().events == (before.id, first.id, second.id)
    store.events.create("Club 3", held_on=date(2026, 2, 5), match_points_per_win=2)
    with pytest.raises(Refused, match=r"different match points for a win \(1, 2\)"):
        store.events.season_standings(date_from=date(2026, 1, 1))
    assert (
        store.events.season_standings(date_from=date(2026, 1, 1), match_points_per_win=3)
        .rows[0]
        .match_points
        == 3.0
    )
    with pytest.raises(Refused, match="cannot end"):
        store.events.season_standings(date_from=date(2026, 2, 1), date_to=date(2026, 1, 1))


# --- the audit log ---------------------------------------------------------------------------


def test_event_changes_are_audited_and_can_be_reversed(store: Any, db_url: str) -> None:
    players(store, *THREE)
    empty = {k: v for k, v in dump(db_url).items() if k != "audit_log"}
    ev = store.events.create("Cup", kind="round-robin", players=THREE)
    created = {k: v for k, v in dump(db_url).items() if k != "audit_log"}
    store.events.start_round(ev.id, 1)
    started = {k: v for k, v in dump(db_url).items() if k != "audit_log"}
    store.events.withdraw(ev.id, "Anna")
    log = store.audit.log()
    assert [(e.command, e.entity, e.entity_id) for e in log[-3:]] == [
        ("event create", "event", ev.id),
        ("event round", "event", ev.id),
        ("event withdraw", "event", ev.id),
    ]
    assert log[-2].summary == 'started round 1 of event 1 "Cup": match 1'
    with pytest.raises(Refused, match="changed since"):
        store.audit.reverse(log[-2].id)  # the withdrawal came after it
    store.audit.reverse(log[-1].id)
    assert {k: v for k, v in dump(db_url).items() if k != "audit_log"} == started
    quick(store, 1, ("Bert", 3))
    with pytest.raises(Refused, match="match 1 has deals"):
        store.audit.reverse(log[-2].id)
    store.deals.delete(1)
    store.audit.reverse(log[-2].id)  # the round's match goes, the round is not started any more
    assert {k: v for k, v in dump(db_url).items() if k != "audit_log"} == created
    assert store.events.get(ev.id).rounds_started == ()
    store.audit.reverse(log[-3].id)
    assert store.events.all() == []
    assert {k: v for k, v in dump(db_url).items() if k != "audit_log"} == empty


def test_merging_players_moves_their_events_too(store: Any) -> None:
    players(store, "Anna", "Bert", "Bertie")
    ev = store.events.create("Club", players=["Anna", "Bertie"])
    club_match(store, ev.id, "Bertie", "Anna", (7, 0))
    cup = store.events.create("Cup", kind="round-robin", players=["Bertie", "Anna", "Bert"])
    store.players.merge("Bert", "Bertie")
    assert [p.name for p in store.events.get(ev.id).players] == ["Anna", "Bert"]
    # both were entered in the cup (not started): one entry, with Bertie's better seed
    assert [p.name for p in store.events.get(cup.id).players] == ["Bert", "Anna"]
    assert ranks(store.events.standings(ev.id)) == [(1, "Bert"), (2, "Anna")]
    assert store.results.stale() == []
    store.audit.reverse(store.audit.log()[-1].id)
    assert [p.name for p in store.events.get(ev.id).players] == ["Anna", "Bertie"]
    assert [p.name for p in store.events.get(cup.id).players] == ["Bertie", "Anna", "Bert"]
    assert ranks(store.events.standings(ev.id)) == [(1, "Bertie"), (2, "Anna")]
    assert store.results.stale() == []


def test_the_bundled_round_robin_is_paired_as_the_schedule_says(store: Any) -> None:
    import tomllib

    from tests.store_support import ROOT

    data = tomllib.loads((ROOT / "examples" / "round-robin" / "event.toml").read_text("utf-8"))
    players(store, *data["players"])
    ev = store.events.create(
        data["name"],
        kind="round-robin",
        players=data["players"],
        rules=data["rules"],
        held_on=date.fromisoformat(data["date"]),
    )
    scheduled = {
        (r.number, p.table): ([p.first, p.second], p.first_dealer)
        for r in store.events.rounds(ev.id)
        for p in r.pairings
    }
    assert scheduled == {
        (m["round"], m["table"]): (m["players"], m["first_dealer"]) for m in data["matches"]
    }


def test_an_event_says_whether_it_takes_another_player_as_adding_one_would(store: Any) -> None:
    players(store, *FIVE)
    evening = store.events.create("Tuesday", players=FIVE[:2])
    robin = store.events.create("Autumn cup", kind="round-robin", players=FIVE[:4])
    swiss = store.events.create("Open", kind="swiss", rounds=2, players=FIVE[:4])
    assert all(store.events.takes_entries(e.id) for e in (evening, robin, swiss))
    store.events.start_round(robin.id, 1)
    store.events.start_round(swiss.id, 1)
    assert store.events.takes_entries(evening.id) and store.events.takes_entries(swiss.id)
    assert not store.events.takes_entries(robin.id)  # the schedule is made from the entries
    with pytest.raises(Refused, match="has started"):
        store.events.add_players(robin.id, ["Emil"])
