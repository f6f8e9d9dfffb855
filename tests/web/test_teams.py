"""A team event in the browser's pages (through Starlette's test client): the wall shows the
team standings above the players' and each team match's boards under its teams' names, in
English and German; the director's event page shows the team standings."""

from __future__ import annotations

from tests.store.test_knockouts import win
from tests.web.test_director import CLUB, desk  # noqa: F401
from tests.web.test_routes import Web


def team_evening(web: Web) -> int:
    """Two teams of three (CLUB's first three and last three), round 1 started; the second
    team wins board 1."""
    web.store.teams.add("FF Pyhra", CLUB[:3])
    web.store.teams.add("FF Scheibbs", CLUB[3:])
    ev = web.store.events.create(
        "Abend",
        kind="team",
        teams=["FF Pyhra", "FF Scheibbs"],
        boards=3,
        rules="sixty-six match_target=3",
    )
    first = web.store.events.start_round(ev.id, 1).pairings[0]
    win(web.store, first.matches[0].match_id, first.second)
    return int(ev.id)


def test_the_wall_shows_the_teams_and_their_boards(desk: Web) -> None:  # noqa: F811
    eid = team_evening(desk)
    wall = desk.client.get(f"/standings/{eid}/live").json()["html"]
    assert '<table class="teams">' in wall
    assert ">FF Scheibbs</td>" in wall and "Bummerl won" in wall
    assert wall.index(">FF Scheibbs</td>") < wall.index(">FF Pyhra</td>")
    assert '<li class="item teamhead">FF Pyhra – FF Scheibbs</li>' in wall
    german = desk.client.get(f"/standings/{eid}/live?lang=de").json()["html"]
    assert "Bummerl gewonnen" in german and "Mannschaft" in german


def test_the_director_creates_a_team_event_from_the_teams(desk: Web) -> None:  # noqa: F811
    desk.store.teams.add("FF Pyhra", CLUB[:3])
    desk.store.teams.add("FF Scheibbs", CLUB[3:])
    res = desk.post(
        "/director/new",
        name="Abend",
        kind="team",
        teams="FF Pyhra\nFF Scheibbs\n",
        boards="3",
        team_rank="match-points",
    )
    assert res.status_code == 303, res.text[:2000]
    ev = desk.store.events.get("Abend")
    assert [name for name, _ in ev.teams] == ["FF Pyhra", "FF Scheibbs"]
    assert (ev.boards, ev.team_rank, len(ev.players)) == (3, "match-points", 6)
    page = desk.page(f"/director/event/{ev.id}")
    assert '<section id="teams">' in page and "Ranked by team match points" in page
    refused = desk.post("/director/new", name="Zwei", kind="team", teams="FF Pyhra\n", boards="3")
    assert refused.status_code != 303 and "at least 2 teams" in refused.text
