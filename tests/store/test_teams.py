"""Teams and team events through the store (SQLite and PostgreSQL): teams of the club's
players in board order with a captain, renamed and re-lined; a team event of teams paired
team against team by the Berger tables, board k against board k, every board recorded as any
match is; the team standings by Bummerl won or by team match points checked against an
independent count; and a team event exported and loaded back with its teams."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tests.store.test_knockouts import players, win

RULES = "sixty-six match_target=3"
TEAMS = {
    "FF Pyhra": ["Anna", "Bert", "Carl"],
    "FF Scheibbs": ["Dora", "Emil", "Fritz"],
    "Gasthof Post": ["Gerda", "Hans", "Ida"],
    "Gasthof Hirsch": ["Jakob", "Karl", "Lena"],
}


def club(store: Any) -> None:
    players(store, [p for members in TEAMS.values() for p in members] + ["Max"])
    for name, members in TEAMS.items():
        store.teams.add(name, members, captain=members[0])


def test_a_team_is_added_renamed_and_its_players_changed(store: Any) -> None:
    club(store)
    team = store.teams.get("ff pyhra")
    assert (team.players, team.captain) == (("Anna", "Bert", "Carl"), "Anna")
    with pytest.raises(Refused, match='already a team "ff PYHRA"'):
        store.teams.add("ff  PYHRA", ["Max"])
    with pytest.raises(Refused, match="captain Max is not in the team"):
        store.teams.add("Solo", ["Anna"], captain="Max")
    with pytest.raises(Refused, match="named twice"):
        store.teams.add("Solo", ["Anna", "anna"])
    with pytest.raises(NotFound, match='no team "Nobody"'):
        store.teams.get("Nobody")
    assert store.teams.rename("FF Pyhra", "FF Pyhra 1").name == "FF Pyhra 1"
    changed = store.teams.set_players("FF Pyhra 1", ["Max", "Carl"], captain="Carl")
    assert (changed.players, changed.captain) == (("Max", "Carl"), "Carl")
    assert [t.name for t in store.teams.all()][:2] == ["FF Pyhra 1", "FF Scheibbs"]


def test_a_team_round_pairs_every_team_board_against_board(store: Any) -> None:
    club(store)
    ev = store.events.create("Abend", kind="team", teams=list(TEAMS), boards=3, rules=RULES)
    assert [name for name, _ in ev.teams] == list(TEAMS)
    assert ev.rounds == 3 and len(ev.players) == 12
    team_of = {p: name for name, members in TEAMS.items() for p in members}
    met: set[frozenset[str]] = set()
    for number in (1, 2, 3):
        rnd = store.events.start_round("Abend", number)
        by_match: dict[frozenset[str], list[Any]] = {}
        for p in rnd.pairings:
            by_match.setdefault(frozenset((team_of[p.first], team_of[p.second])), []).append(p)
        assert len(by_match) == 2
        for pair, boards in by_match.items():
            met.add(pair)
            for k, p in enumerate(boards):
                home, away = sorted(pair, key=list(TEAMS).index)
                assert {p.first, p.second} == {TEAMS[home][k], TEAMS[away][k]}
            for p in boards:
                win(store, p.matches[0].match_id, p.first)
    assert met == {frozenset(c) for c in combinations(TEAMS, 2)}


def count(store: Any, rank: str) -> list[tuple[str, int, int]]:
    """The team standings counted again from the matches, independently: (team, match
    points, Bummerl won) in order of the ranking."""
    team_of = {p: name for name, members in TEAMS.items() for p in members}
    won = dict.fromkeys(TEAMS, 0)
    boards: dict[tuple[int, frozenset[str]], dict[str, int]] = {}
    for m in store.matches.all():
        if m.winner is None:
            continue
        won[team_of[m.winner]] += 1
        key = (m.round, frozenset(team_of[p] for p in m.players))
        boards.setdefault(key, dict.fromkeys(key[1], 0))[team_of[m.winner]] += 1
    points = dict.fromkeys(TEAMS, 0)
    for score in boards.values():
        (a, x), (b, y) = score.items()
        points[a] += 2 if x > y else 1 if x == y else 0
        points[b] += 2 if y > x else 1 if x == y else 0
    key = (lambda t: (points[t], won[t])) if rank == "match-points" else (lambda t: (won[t], 0))
    order = sorted(TEAMS, key=lambda t: tuple(-v for v in key(t)))
    return [(t, points[t], won[t]) for t in order]


@pytest.mark.parametrize("rank", ["bummerl", "match-points"])
def test_team_standings_agree_with_an_independent_count(store: Any, rank: str) -> None:
    club(store)
    store.events.create(
        "Abend", kind="team", teams=list(TEAMS), boards=3, rules=RULES, team_rank=rank
    )
    winners = iter([0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0])
    for number in (1, 2, 3):
        for p in store.events.start_round("Abend", number).pairings:
            win(store, p.matches[0].match_id, (p.first, p.second)[next(winners)])
    view = store.teams.standings("Abend")
    assert [(r.team, r.match_points, r.bummerl_won) for r in view.rows] == count(store, rank)
    assert sum(r.bummerl_won for r in view.rows) == 18
    assert all(r.played == 3 for r in view.rows)


def test_a_team_event_is_refused_what_it_cannot_be(store: Any) -> None:
    club(store)
    store.teams.add("Klein", ["Max"])
    with pytest.raises(Refused, match="needs --boards"):
        store.events.create("A", kind="team", teams=["FF Pyhra", "FF Scheibbs"])
    with pytest.raises(Refused, match="has 1 players, the boards need 2"):
        store.events.create("A", kind="team", teams=["FF Pyhra", "Klein"], boards=2)
    with pytest.raises(Refused, match="teams are for a team event"):
        store.events.create("A", kind="round-robin", teams=["FF Pyhra"], players=["Anna", "Max"])
    with pytest.raises(Refused, match="give --teams, not players"):
        store.events.create("A", kind="team", players=["Anna", "Max"], boards=1)
    with pytest.raises(Refused, match="at least 2 teams"):
        store.events.create("A", kind="team", teams=["FF Pyhra"], boards=2)
    store.teams.add("Zweite", ["Max", "Bert"])
    with pytest.raises(Refused, match="Bert plays for both FF Pyhra and Zweite in this event"):
        store.events.create("A", kind="team", teams=["FF Pyhra", "Zweite"], boards=2)


def test_a_team_event_is_exported_and_loaded_with_its_teams(store: Any, tmp_path: Path) -> None:
    from tally.files.exporting import event_json
    from tally.files.importing import load_paths

    club(store)
    store.events.create("Abend", kind="team", teams=list(TEAMS)[:2], boards=2, rules=RULES)
    for p in store.events.start_round("Abend", 1).pairings:
        win(store, p.matches[0].match_id, p.first if p.first in TEAMS["FF Scheibbs"] else p.second)
    before = store.teams.standings("Abend")
    path = tmp_path / "abend.json"
    document = json.loads(event_json(store, "Abend"))
    assert document["teams"][0] == {"name": "FF Pyhra", "players": ["Anna", "Bert"]}
    document["name"] = "Abend again"
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = load_paths(store, [path])[0]
    after = store.teams.standings(loaded.event.id)
    assert [(r.team, r.bummerl_won, r.match_points) for r in after.rows] == [
        (r.team, r.bummerl_won, r.match_points) for r in before.rows
    ]
    assert after.rows[0].team == "FF Scheibbs"


def test_undo_takes_a_team_s_change_back(store: Any) -> None:
    club(store)
    store.teams.set_players("FF Pyhra", ["Carl", "Anna"], captain="Carl")
    store.teams.rename("FF Pyhra", "Pyhra")
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.teams.get("FF Pyhra").players == ("Carl", "Anna")
    store.audit.reverse(next(e.id for e in store.audit.log() if e.command == "team players"))
    team = store.teams.get("FF Pyhra")
    assert (team.players, team.captain) == (("Anna", "Bert", "Carl"), "Anna")
    store.teams.add("Neu", ["Max"])
    store.audit.reverse(store.audit.log()[-1].id)
    assert [t.name for t in store.teams.all()] == sorted(TEAMS, key=str.casefold)


def test_undo_takes_a_team_event_back_and_the_team_stays(store: Any) -> None:
    club(store)
    store.events.create("Abend", kind="team", teams=["FF Pyhra", "FF Scheibbs"], boards=2)
    team_add = next(e for e in store.audit.log() if e.command == "team add")
    with pytest.raises(Refused, match="plays in events"):
        store.audit.reverse(team_add.id)
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.events.all() == []
    store.audit.reverse(store.audit.log()[-1].id)  # the undo undone: the event is back
    assert [name for name, _ in store.events.get("Abend").teams] == ["FF Pyhra", "FF Scheibbs"]


def test_a_race_of_two_teams_to_five_bummerl(store: Any) -> None:
    """The Vergleichsschnapsen: two teams of three to 5 Bummerl won; every player meets each
    of the other team in turn, and the first team to 5 has won."""
    club(store)
    ev = store.events.create(
        "Vergleich",
        kind="team",
        teams=["FF Pyhra", "FF Scheibbs"],
        boards=3,
        first_to=5,
        rules=RULES,
    )
    assert ev.rounds == 3 and ev.first_to == 5
    with pytest.raises(Refused, match="between two teams"):
        store.events.create("X", kind="team", teams=list(TEAMS)[:3], boards=3, first_to=5)
    met = set()
    for number in (1, 2, 3):
        for p in store.events.start_round("Vergleich", number).pairings:
            met.add(frozenset((p.first, p.second)))
            scheibbs = p.first if p.first in TEAMS["FF Scheibbs"] else p.second
            pyhra = p.second if scheibbs == p.first else p.first
            win(store, p.matches[0].match_id, pyhra if number == 2 else scheibbs)
        if number < 3:
            assert store.teams.standings("Vergleich").winner is None
    assert met == {frozenset((a, b)) for a in TEAMS["FF Pyhra"] for b in TEAMS["FF Scheibbs"]}
    view = store.teams.standings("Vergleich")
    assert (view.winner, view.rows[0].bummerl_won, view.rows[1].bummerl_won) == (
        "FF Scheibbs",
        6,
        3,
    )
    with pytest.raises(Refused, match="race to 5 Bummerl is decided: FF Scheibbs has won it"):
        store.events.start_round("Vergleich", 4)


@pytest.mark.parametrize(("option", "value"), [("boards", 0), ("first_to", 0)])
def test_boards_and_a_race_out_of_range_are_refused(store: Any, option: str, value: int) -> None:
    club(store)
    given = {"boards": 2} | {option: value}
    with pytest.raises(Refused, match=f"must be from 1 to .*, not {value}"):
        store.events.create("A", kind="team", teams=["FF Pyhra", "FF Scheibbs"], **given)


def test_a_player_of_a_team_merged_away_hands_the_team_place_on(store: Any) -> None:
    club(store)
    with pytest.raises(Refused, match="both players play for team FF Pyhra"):
        store.players.merge("Bert", "Anna")
    assert store.players.merge("Max", "Anna").name == "Max"
    team = store.teams.get("FF Pyhra")
    assert (team.players, team.captain) == (("Max", "Bert", "Carl"), "Max")
    entry = store.audit.log()[-1]
    assert entry.command == "player merge"
    store.audit.reverse(entry.id)
    team = store.teams.get("FF Pyhra")
    assert (team.players, team.captain) == (("Anna", "Bert", "Carl"), "Anna")


def test_the_captain_sets_the_board_order_for_the_next_round(store: Any) -> None:
    club(store)
    store.events.create("Abend", kind="team", teams=list(TEAMS)[:2], boards=3, rules=RULES)
    with pytest.raises(Refused, match="Dora does not play for FF Pyhra"):
        store.teams.set_order("Abend", "ff pyhra", ["Dora", "Anna", "Bert"])
    store.teams.set_order("Abend", "FF Pyhra", ["Bert", "Carl", "Anna"])
    assert [p.name for p in store.events.get("Abend").players][:3] == ["Bert", "Carl", "Anna"]
    store.audit.reverse(store.audit.log()[-1].id)
    assert [p.name for p in store.events.get("Abend").players][:3] == ["Anna", "Bert", "Carl"]
    store.teams.set_order("Abend", "FF Pyhra", ["Carl", "Anna", "Bert"])
    pairs = [(p.first, p.second) for p in store.events.start_round("Abend", 1).pairings]
    boards = [frozenset(pair) for pair in pairs]
    assert boards == [
        frozenset(b) for b in zip(["Carl", "Anna", "Bert"], TEAMS["FF Scheibbs"], strict=True)
    ]
    assert store.audit.log()[-2].command == "team order"
    with pytest.raises(Refused, match="every round of Abend is started"):
        store.teams.set_order("Abend", "FF Pyhra", ["Anna", "Bert", "Carl"])
