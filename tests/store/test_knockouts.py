"""Knockouts with lives and groups then knockout, through the store, on SQLite and (when
configured) PostgreSQL: a 16-player knockout with 3 lives played to the end, a final stage,
groups of 4 into a bracket of 8, withdrawals, late entries, play-offs and undoing a round.

Matches are won by one quick deal worth 3 game points (the rule set's match target is 3), so
every match below is one line; the expected lives, eliminations and brackets are worked out
by hand (or, for the draw, by the pure engine with the same seed) next to them.
"""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tally.events.knockout import draw_round

RULES = "sixty-six match_target=3"
SIXTEEN = [f"P{i:02d}" for i in range(1, 17)]


def players(store: Any, names: list[str]) -> None:
    for name in names:
        store.players.add(name)


def win(store: Any, match_id: int, winner: str) -> None:
    store.deals.quick_result(match_id, winner=winner, points=3, reason="claim")


def play(store: Any, rnd: Any, pick: Any, gone: frozenset[str] = frozenset()) -> None:
    """Finish every match of a round but those of players ``gone`` (withdrawn):
    ``pick(pairing)`` names the winner."""
    for p in rnd.pairings:
        if p.matches and not p.matches[0].over and not {p.first, p.second} & gone:
            win(store, p.matches[0].match_id, pick(p))


def lower(p: Any) -> str:
    """The player entered earlier wins (names sort in entry order)."""
    return str(min(p.first, p.second))


def test_sixteen_players_three_lives_played_to_the_end(store: Any) -> None:
    players(store, SIXTEEN)
    ev = store.events.create(
        "Preisschnapsen", kind="knockout", players=SIXTEEN, rules=RULES, lives=3, draw_seed="2026"
    )

    # The result rule: at tables 1 and 2 the player entered later wins, elsewhere the one
    # entered earlier. The test keeps its own ledger of lives and checks the store's.
    def pick(p: Any) -> str:
        a, b = sorted((p.first, p.second))
        return b if p.table <= 2 else a

    lives = dict.fromkeys(SIXTEEN, 3)
    out_in: dict[str, int] = {}
    last: dict[str, str] = {}
    byes: dict[str, int] = {}
    number = 0
    while sum(1 for v in lives.values() if v > 0) > 1:
        number += 1
        alive = [p for p in SIXTEEN if lives[p] > 0]
        rnd = store.events.start_round(ev.id, number)
        # reproducible by seed: exactly the engine's draw among those still in
        drawn = draw_round(alive, seed="2026", number=number, last_opponents=last, byes=byes)
        assert [(p.table, p.first, p.second, p.first_dealer) for p in rnd.pairings] == [
            (p.table, p.first, p.second, p.first) for p in drawn.pairings
        ]
        assert rnd.bye == drawn.bye
        assert rnd.draw == "drawn by lot, seed 2026"
        # no immediate rematch while three or more are in
        pairs = {frozenset((p.first, p.second)) for p in rnd.pairings}
        if len(alive) >= 3:
            assert all(last.get(p.first) != p.second for p in rnd.pairings)
        if rnd.bye:
            byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
        play(store, rnd, pick)
        last = {}
        for pair in pairs:
            a, b = sorted(pair)
            last[a], last[b] = b, a
        for p in rnd.pairings:
            loser = p.second if pick(p) == p.first else p.first
            lives[loser] -= 1
            if lives[loser] == 0:
                out_in[loser] = number
        view = store.knockouts.view(ev)
        assert {x.player: (x.lives, x.out_in) for x in view.lines} == {
            p: (lives[p], out_in.get(p)) for p in SIXTEEN
        }
    champion = next(p for p in SIXTEEN if lives[p] > 0)
    with pytest.raises(Refused, match=f"is over: {champion} won"):
        store.events.start_round(ev.id, number + 1)
    view = store.knockouts.view(ev)
    assert view.champion == champion
    assert view.stage == f"over after {number} rounds: {champion} won"
    # 15 players lost all 3 lives; every line's L marks are its lost lives
    assert len(out_in) == 15
    for x in view.lines:
        assert x.marks.count("L") == 3 - x.lives
        assert x.row.lost == 3 - x.lives
    # ranked by round of elimination, later first
    outs = [(x.rank, x.out_in) for x in view.lines]
    assert outs[0] == (1, None)
    assert [o for _, o in outs[1:]] == sorted((o for _, o in outs[1:]), reverse=True)
    table = store.events.standings(ev.id)
    assert [r.player for r in table.rows] == [x.player for x in view.lines]
    assert table.stage == view.stage


def test_a_withdrawal_costs_the_opponent_nothing_and_the_player_is_out(store: Any) -> None:
    six = SIXTEEN[:6]
    players(store, six)
    ev = store.events.create(
        "KO", kind="knockout", players=six, rules=RULES, lives=2, draw_seed="w"
    )
    rnd = store.events.start_round(ev.id, 1)
    first = rnd.pairings[0]
    leaver, opponent = first.first, first.second
    store.events.withdraw(ev.id, leaver)
    for p in rnd.pairings[1:]:  # the withdrawn player's match stays unplayed
        win(store, p.matches[0].match_id, lower(p))
    view = store.knockouts.view(ev)
    by = {x.player: x for x in view.lines}
    assert (by[leaver].lives, by[leaver].out_in, by[leaver].withdrawn) == (0, 1, True)
    assert by[leaver].stage == "out in round 1, withdrew"
    assert by[opponent].lives == 2 and by[opponent].marks == ("-",)
    assert view.lines[-1].player == leaver  # out first, and with no win
    # forfeit (the default): the opponent's unplayed match is a won match in the totals
    assert by[opponent].row.won == 1
    rnd2 = store.events.start_round(ev.id, 2)
    seated = {x for p in rnd2.pairings for x in (p.first, p.second)} | {rnd2.bye}
    assert leaver not in seated and seated == set(six) - {leaver}
    assert store.events.standings(ev.id).withdrawn == (leaver,)


def test_late_entries_until_the_first_player_is_out(store: Any) -> None:
    players(store, [*SIXTEEN[:5], "Late", "Later"])
    ev = store.events.create(
        "KO", kind="knockout", players=SIXTEEN[:4], rules=RULES, lives=1, draw_seed="late"
    )
    store.events.add_players(ev.id, ["P05"])  # before round 1
    rnd = store.events.start_round(ev.id, 1)
    assert rnd.bye is not None  # five players: one sits out
    store.events.add_players(ev.id, ["Late"])  # nobody is out yet
    play(store, rnd, lower)
    with pytest.raises(Refused, match="takes late entries until the first player is out"):
        store.events.add_players(ev.id, ["Later"])
    rnd2 = store.events.start_round(ev.id, 2)
    seated = {x for p in rnd2.pairings for x in (p.first, p.second)} | {rnd2.bye}
    assert "Late" in seated
    late = next(x for x in store.knockouts.view(ev).lines if x.player == "Late")
    assert late.lives == 1 and late.marks[0] == "-"


def test_a_play_off_decides_a_tie_and_only_a_tie(store: Any) -> None:
    four = SIXTEEN[:4]
    players(store, four)
    ev = store.events.create(
        "KO", kind="knockout", players=four, rules=RULES, lives=1, draw_seed="p", tiebreaks=[]
    )
    rnd = store.events.start_round(ev.id, 1)
    play(store, rnd, lower)
    losers = sorted(p.second if lower(p) == p.first else p.first for p in rnd.pairings)
    winners = sorted(lower(p) for p in rnd.pairings)
    view = store.knockouts.view(ev)
    ranks = {x.player: x.rank for x in view.lines}
    assert ranks[losers[0]] == ranks[losers[1]] == 3  # out in round 1, no tiebreaks
    with pytest.raises(Refused, match="do not share a rank"):
        store.knockouts.record_playoff(ev.id, losers[0], winners[0])
    mid = store.knockouts.record_playoff(ev.id, losers[0], losers[1], first_dealer=losers[1])
    assert store.matches.state(mid).first_dealer == losers[1]
    win(store, mid, losers[1])
    view = store.knockouts.view(ev)
    ranks = {x.player: x.rank for x in view.lines}
    assert (ranks[losers[1]], ranks[losers[0]]) == (3, 4)
    assert len(view.playoffs) == 1 and view.playoffs[0].status == "played"
    # a play-off counts in no totals
    assert {x.player: x.row.played for x in view.lines}[losers[1]] == 1


def test_a_final_of_four_left_short_by_a_round_is_filled_by_a_playoff(store: Any) -> None:
    six = SIXTEEN[:6]
    players(store, six)
    ev = store.events.create(
        "KO", kind="knockout", players=six, rules=RULES, lives=1, draw_seed="f", final_size=4
    )
    rnd = store.events.start_round(ev.id, 1)
    assert rnd.rounds is None  # drawn by lot: nobody knows yet how many rounds there are
    play(store, rnd, lower)
    alive = sorted(lower(p) for p in rnd.pairings)  # three winners, one life each
    out = sorted(set(six) - set(alive))  # out in round 1: they play off for the 4th place
    rnd2 = store.events.start_round(ev.id, 2)
    assert rnd2.draw == "play-off for the final stage, drawn by lot, seed f"
    assert len(rnd2.pairings) == 1 and rnd2.bye is None  # two of three drop out, one a round
    assert {rnd2.pairings[0].first, rnd2.pairings[0].second} < set(out)
    view = store.knockouts.view(ev)
    assert view.stage == "round 2, the play-off for the final stage"
    play(store, rnd2, lower)
    first_loser = max(rnd2.pairings[0].first, rnd2.pairings[0].second)
    rnd3 = store.events.start_round(ev.id, 3)
    assert rnd3.draw == rnd2.draw and len(rnd3.pairings) == 1
    assert first_loser not in (rnd3.pairings[0].first, rnd3.pairings[0].second)
    play(store, rnd3, lower)
    fourth = lower(rnd3.pairings[0])
    second_loser = max(rnd3.pairings[0].first, rnd3.pairings[0].second)
    rnd4 = store.events.start_round(ev.id, 4)
    assert rnd4.draw == "bracket: semi-final" and rnd4.rounds == 5 and rnd4.bye is None
    seated = {name for p in rnd4.pairings for name in (p.first, p.second)}
    assert len(rnd4.pairings) == 2 and seated == set(alive) | {fourth}
    view = store.knockouts.view(ev)
    assert all(m.first and m.second for m in view.bracket[0])  # four players, no bye
    stages = {x.player: x.stage for x in view.lines}
    assert stages[second_loser] == "lost the play-off in round 3"
    assert stages[first_loser] == "lost the play-off in round 2"
    ranks = {x.player: x.rank for x in view.lines}
    assert ranks[second_loser] == 5 and ranks[first_loser] == 6
    play(store, rnd4, lower)
    rnd5 = store.events.start_round(ev.id, 5)
    assert rnd5.draw == "bracket: final"
    play(store, rnd5, lower)
    view = store.knockouts.view(ev)
    assert view.champion == min([*alive, fourth])  # the player entered first wins
    assert [x.stage for x in view.lines[:2]] == ["winner", "final, out"]


def test_a_final_of_four_left_short_is_filled_by_the_tiebreaks_when_chosen(store: Any) -> None:
    six = SIXTEEN[:6]
    players(store, six)
    ev = store.events.create(
        "KO",
        kind="knockout",
        players=six,
        rules=RULES,
        lives=1,
        draw_seed="f",
        final_size=4,
        final_fill="tiebreaks",
    )
    rnd = store.events.start_round(ev.id, 1)
    play(store, rnd, lower)
    alive = sorted(lower(p) for p in rnd.pairings)
    out = sorted(set(six) - set(alive))
    rnd2 = store.events.start_round(ev.id, 2)
    assert rnd2.draw == "bracket: semi-final" and len(rnd2.pairings) == 2
    # the players out in round 1 are level in the standings: the earliest entry goes through
    seated = {name for p in rnd2.pairings for name in (p.first, p.second)}
    assert seated == set(alive) | {out[0]}
    with pytest.raises(Refused, match="--final-fill is playoff or tiebreaks"):
        store.events.create(
            "X", kind="knockout", players=six, rules=RULES, final_size=4, final_fill="lots"
        )
    with pytest.raises(Refused, match="only with a final stage"):
        store.events.create("X", kind="knockout", players=six, rules=RULES, final_fill="tiebreaks")


SNAKE = [
    ["P01", "P08", "P09", "P16"],
    ["P02", "P07", "P10", "P15"],
    ["P03", "P06", "P11", "P14"],
    ["P04", "P05", "P12", "P13"],
]


def groups_event(store: Any) -> Any:
    players(store, SIXTEEN)
    return store.events.create(
        "Cup", kind="groups", players=SIXTEEN, rules=RULES, groups=4, advance=2
    )


def test_groups_of_four_into_a_bracket_of_eight(store: Any) -> None:
    ev = groups_event(store)
    view = store.knockouts.view(ev)
    assert [list(g) for g in view.groups] == SNAKE
    shown = store.events.rounds(ev.id)
    assert [r.number for r in shown] == [1, 2, 3] and shown[0].rounds == 6
    for number in (1, 2, 3):
        rnd = store.events.start_round(ev.id, number)
        assert len(rnd.pairings) == 8 and rnd.draw == f"group round {number} of 3"
        for p in rnd.pairings:  # every group's pairing inside the group
            assert any({p.first, p.second} <= set(g) for g in SNAKE)
        play(store, rnd, lower)
    # every group: the player entered first wins all: winners P01-P04, runners-up
    # P08, P07, P06, P05 (A2, B2, C2, D2)
    rnd = store.events.start_round(ev.id, 4)
    assert rnd.draw == "bracket: quarter-final"
    assert [(p.table, p.first, p.second) for p in rnd.pairings] == [
        (1, "P01", "P05"),
        (2, "P03", "P07"),
        (3, "P02", "P06"),
        (4, "P04", "P08"),
    ]
    # A1 and A2 (P01, P08) in opposite halves: they can meet only in the final; so can
    # B1/B2, C1/C2, D1/D2
    play(store, rnd, lower)
    play(store, store.events.start_round(ev.id, 5), lower)
    final = store.events.start_round(ev.id, 6)
    assert [(p.first, p.second) for p in final.pairings] == [("P01", "P02")]
    play(store, final, lower)
    view = store.knockouts.view(ev)
    assert view.champion == "P01"
    assert [(x.rank, x.player, x.stage) for x in view.lines[:4]] == [
        (1, "P01", "winner"),
        (2, "P02", "final, out"),
        (3, "P03", "semi-final, out"),
        (3, "P04", "semi-final, out"),
    ]
    assert {x.stage for x in view.lines[-4:]} == {f"group {g}, 4th" for g in range(1, 5)}
    assert {x.stage for x in view.lines[8:12]} == {f"group {g}, 3rd" for g in range(1, 5)}
    with pytest.raises(Refused, match="is over: P01 won"):
        store.events.start_round(ev.id, 7)


def test_groups_withdrawals_before_and_in_the_bracket(store: Any) -> None:
    ev = groups_event(store)
    for number in (1, 2):
        play(store, store.events.start_round(ev.id, number), lower)
    rnd3 = store.events.start_round(ev.id, 3)
    with pytest.raises(Refused, match="round 3 is not over"):
        store.events.start_round(ev.id, 4)
    store.events.withdraw(ev.id, "P08")  # group 1's runner-up so far, match of round 3 unplayed
    play(store, rnd3, lower, frozenset({"P08"}))
    rnd = store.events.start_round(ev.id, 4)
    # P08 never goes through: group 1's next player (P09) does, as A2 against D1
    assert (4, "P04", "P09") in [(p.table, p.first, p.second) for p in rnd.pairings]
    store.events.withdraw(ev.id, "P03")  # in the bracket: P07 goes through by walkover
    play(store, rnd, lower, frozenset({"P03"}))
    pairing = next(p for p in rnd.pairings if p.first == "P03")
    assert pairing.second == "P07"
    view = store.knockouts.view(ev)
    semis = view.bracket[1]
    assert ("P01", "P07") in [(m.first, m.second) for m in semis]
    walkover = next(m for m in view.bracket[0] if m.first == "P03")
    assert walkover.winner == "P07" and walkover.decided
    rnd5 = store.events.start_round(ev.id, 5)
    assert (
        next(p for p in store.events.rounds(ev.id, 4)[0].pairings if p.first == "P03").status
        == "forfeit"
    )
    assert len(rnd5.pairings) == 2
    by = {x.player: x for x in view.lines}
    assert by["P08"].withdrawn and by["P08"].stage.endswith("withdrew")
    # forfeit: P08's unplayed group match (round 3, against P16) is won by P16
    assert (by["P16"].row.won, by["P08"].row.won, by["P08"].row.lost) == (1, 1, 2)
    assert by["P03"].stage == "quarter-final, out, withdrew"


def test_undoing_the_round_that_seeded_the_bracket(store: Any) -> None:
    ev = groups_event(store)
    for number in (1, 2, 3):
        play(store, store.events.start_round(ev.id, number), lower)
    store.events.start_round(ev.id, 4)
    assert store.knockouts.view(ev).bracket
    store.audit.reverse(store.audit.log()[-1].id)
    view = store.knockouts.view(ev)
    assert not view.bracket and view.rounds_started == 3
    assert len(store.events.start_round(ev.id, 4).pairings) == 4


def test_formats_are_checked(store: Any) -> None:
    players(store, SIXTEEN[:5])
    five = SIXTEEN[:5]
    for kwargs, message in [
        ({"kind": "knockout", "lives": 0}, "1 to 9 lives"),
        ({"kind": "knockout", "final_size": 6}, "bracket of 2, 4, 8"),
        ({"kind": "knockout", "groups": 2}, "for groups"),
        ({"kind": "groups", "groups": 2}, "needs --groups G and --advance K"),
        ({"kind": "groups", "groups": 3, "advance": 1}, "3 groups need at least 6"),
        ({"kind": "groups", "groups": 2, "advance": 3}, "--advance must be from 1 to 2"),
        ({"kind": "groups", "groups": 2, "advance": 1, "bye": "win"}, "scores nothing"),
        ({"kind": "round-robin", "lives": 3}, "only for a knockout"),
        ({"kind": "knockout", "draw_seed": "x" * 101}, "at most 100"),
    ]:
        with pytest.raises(Refused, match=message):
            store.events.create("X", players=five, rules=RULES, **kwargs)
    ev = store.events.create("G", kind="groups", players=five, rules=RULES, groups=2, advance=1)
    with pytest.raises(NotFound, match="not drawn yet"):
        store.events.rounds(ev.id, 4)  # groups of 3 and 2: group rounds 1 to 3
    with pytest.raises(Refused, match=r"round 2 .* cannot start yet: round 1 comes next"):
        store.events.start_round(ev.id, 2)
    with pytest.raises(Refused, match="a groups event: its matches"):
        store.matches.start("P01", "P02", first_dealer="P01", event=ev.id, rules=RULES)
    store.events.start_round(ev.id, 1)
    with pytest.raises(Refused, match=r"no player can join \(the groups are made"):
        store.events.add_players(ev.id, [])


def test_undoing_the_creation_of_a_knockout(store: Any) -> None:
    players(store, SIXTEEN[:4])
    ev = store.events.create("KO", kind="knockout", players=SIXTEEN[:4], rules=RULES, draw_seed="u")
    store.audit.reverse(store.audit.log()[-1].id)
    with pytest.raises(NotFound):
        store.knockouts.view(ev)
    again = store.events.create("KO", kind="knockout", players=SIXTEEN[:4], rules=RULES)
    view = store.knockouts.view(again)
    assert view.lives == 3 and view.draw_seed  # the defaults: 3 lives, a seed of the time


def test_a_group_player_who_withdraws_before_the_start_forfeits_every_match(store: Any) -> None:
    eight = SIXTEEN[:8]
    players(store, eight)
    ev = store.events.create("Cup", kind="groups", players=eight, rules=RULES, groups=2, advance=1)
    store.events.withdraw(ev.id, "P05")  # group 1: P01 P04 P05 P08
    for number in (1, 2, 3):
        rnd = store.events.start_round(ev.id, number)
        assert all("P05" not in (p.first, p.second) for p in rnd.pairings if p.matches)
        play(store, rnd, lower)
    by = {x.player: x for x in store.knockouts.view(ev).lines}
    # P01, P04 and P08 each win their match against P05 by forfeit, none made
    assert (by["P05"].row.played, by["P05"].row.lost) == (3, 3)
    assert (by["P01"].row.won, by["P04"].row.won, by["P08"].row.won) == (3, 2, 1)
    rnd = store.events.start_round(ev.id, 4)  # the final: the two group winners
    assert [(p.first, p.second) for p in rnd.pairings] == [("P01", "P02")]
