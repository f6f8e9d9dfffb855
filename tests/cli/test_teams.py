"""Teams and team events from the command line: ``tally team add/list/show/rename/players``,
``tally event create NAME --kind team --teams A B --boards N``, a round started and its boards
entered as results, and ``tally standings`` showing the team standings (English, German,
JSON) with the players' standings beside (``--players``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.pdf_support import pages_text, squash
from tests.store_support import ok, tally

TEAMS = {"FF Pyhra": ["Anna", "Bert"], "FF Scheibbs": ["Dora", "Emil"]}


def evening(url: str) -> None:
    """Two teams of two, round 1 played: FF Scheibbs wins both boards."""
    ok(url, "player", "add", "Anna", "Bert", "Dora", "Emil", "Max")
    for name, members in TEAMS.items():
        ok(url, "team", "add", name, *members, "--captain", members[1])
    ok(url, "event", "create", "Abend", "--kind", "team", "--teams", *TEAMS, "--boards", "2")
    ok(url, "event", "round", "Abend", "1", "--start")
    for match in json.loads(ok(url, "match", "list", "--json")):
        winner = next(p for p in match["players"] if p in TEAMS["FF Scheibbs"])
        score = "7:2" if match["players"][0] == winner else "2:7"
        ok(url, "match", "result", str(match["id"]), score)


def test_teams_are_added_listed_renamed_and_lined_up(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Max")
    out = ok(db_url, "team", "add", "FF Pyhra", "Anna", "Bert", "--captain", "Bert")
    assert out == 'Added team 1  "FF Pyhra": 1. Anna, 2. Bert (captain: Bert).\n'
    out = ok(db_url, "team", "players", "FF Pyhra", "Max", "Anna", "--lang", "de")
    assert out == 'Mannschaft 1  "FF Pyhra": 1. Max, 2. Anna.\n'
    ok(db_url, "team", "rename", "ff pyhra", "FF Pyhra 1")
    assert ok(db_url, "team", "list") == '1  "FF Pyhra 1": 1. Max, 2. Anna\n'
    assert json.loads(ok(db_url, "team", "show", "1", "--json"))["players"] == ["Max", "Anna"]
    code, _out, err = tally(db_url, "team", "show", "Nobody")
    assert code != 0 and 'there is no team "Nobody"' in err


def test_a_team_evening_shows_its_team_standings(db_url: str) -> None:
    evening(db_url)
    out = ok(db_url, "standings", "Abend")
    assert "Teams of Abend (2 boards)" in out
    lines = [line.split() for line in out.splitlines()]
    assert ["1", "FF", "Scheibbs", "1", "1", "0", "0", "2", "2", "2", "0"] in lines
    assert ["2", "FF", "Pyhra", "1", "0", "0", "1", "0", "0", "0", "2"] in lines
    german = ok(db_url, "standings", "Abend", "--lang", "de")
    assert "Mannschaften von Abend (2 Bretter)" in german
    assert "Gereiht nach gewonnenen Bummerln" in german
    rows = json.loads(ok(db_url, "standings", "Abend", "--json"))["rows"]
    assert [(r["team"], r["bummerl_won"], r["match_points"]) for r in rows] == [
        ("FF Scheibbs", 2, 2),
        ("FF Pyhra", 0, 0),
    ]
    players = json.loads(ok(db_url, "standings", "Abend", "--players", "--json"))
    assert {r["player"] for r in players["rows"][:2]} == {"Dora", "Emil"}


def test_a_team_event_without_boards_or_teams_is_refused(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "team", "add", "A", "Anna")
    ok(db_url, "team", "add", "B", "Bert")
    code, _out, err = tally(db_url, "event", "create", "X", "--kind", "team", "--teams", "A", "B")
    assert code == 2 and "needs --boards N" in err
    code, _out, err = tally(
        db_url, "event", "create", "X", "--kind", "team", "--teams", "A", "B", "--boards", "2"
    )
    assert code == 2 and "the team A has 1 players, the boards need 2" in err


def test_the_standings_sheet_of_a_team_event_shows_the_teams(db_url: str, tmp_path: Path) -> None:
    evening(db_url)
    sheet = tmp_path / "standings.pdf"
    ok(db_url, "print", "standings", "Abend", "-o", str(sheet))
    text = squash(pages_text(sheet.read_bytes())[0])
    assert "RankTeamPlayedWonDrawnLostMatchpointsBoardswonBummerlwon" in text
    assert "1FFScheibbsDora,Emil11002220" in text
    assert "RankPlayerPlayed" in text  # the players' standings beside
    ok(db_url, "print", "standings", "Abend", "-o", str(sheet), "--lang", "de")
    german = squash(pages_text(sheet.read_bytes())[0])
    assert "Mannschaft" in german and "Bummerlgewonnen" in german
