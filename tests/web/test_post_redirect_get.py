"""Post/Redirect/Get for every question a change is answered with, when the browser runs no
script (a plain form): the answer to the POST is a 303 to an address of its own (GET), so the
address bar never holds a POST-only address, a reload asks again and posts nothing, and Back
leads where the director or the player came from. The page's script is answered in place."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_director import _create, _event_id, desk  # noqa: F401
from tests.web.test_routes import Web
from tests.web.test_table import MARRIAGE_DEAL, _said, _start, web  # noqa: F401

PLAIN = {"sec-fetch-mode": "navigate"}  # a browser without the page's script


def _plain_post(web: Web, path: str, **data: str) -> Any:  # noqa: F811
    data.setdefault("csrf", web.csrf())
    return web.client.post(path, data=data, headers=PLAIN, follow_redirects=False)


def _asked_twice(web: Web, location: str) -> str:  # noqa: F811
    """The question at its own address, asked twice (a reload): the same page, 200."""
    first = web.client.get(location, follow_redirects=False)
    again = web.client.get(location, follow_redirects=False)
    assert first.status_code == again.status_code == 200, first.text[:500]
    return str(first.text)


def test_a_claim_sure_to_be_false_is_asked_at_an_address_of_its_own(web: Web) -> None:  # noqa: F811
    _start(web)
    fields = web.form(web.table())
    res = _plain_post(web, web.table() + "/play", token="66", **fields)
    assert res.status_code == 303
    where = urlsplit(res.headers["location"])
    assert where.path == web.table() and parse_qs(where.query)["ask"] == ["66"]
    html = _asked_twice(web, res.headers["location"])
    assert "Claim 66 now?" in html and "Bert has won no trick yet" in html
    assert web.store.matches.state(web.match).deals[-1].actions == 0  # nothing recorded
    res = _plain_post(web, web.table() + "/play", token="66", confirm="yes", **fields)
    assert res.status_code == 303 and res.headers["location"] == web.table()
    assert web.store.matches.state(web.match).deals[-1].reason == "false-claim"
    # once the deal moved on, the question's address shows the table: nothing to ask
    assert "Claim 66 now?" not in web.page(urlsplit(res.headers["location"]).path)


def test_the_page_script_is_answered_with_the_question_in_place(web: Web) -> None:  # noqa: F811
    _start(web)
    res = web.tap("66")  # (the script's fetch: no sec-fetch-mode navigate)
    assert res.status_code == 200 and "Claim 66 now?" in res.text


def test_a_tap_that_breaks_a_rule_is_asked_about_at_an_address_of_its_own(web: Web) -> None:  # noqa: F811
    _start(web)
    _said(web, *MARRIAGE_DEAL)
    before = web.store.matches.state(web.match).deals[-1].actions
    fields = web.form(web.table())
    res = _plain_post(web, web.table() + "/play", token="9D", **fields)  # must trump
    assert res.status_code == 303
    html = _asked_twice(web, res.headers["location"])
    assert "A rule would be broken" in html and "must trump" in html
    assert 'name="confirm" value="yes"' in html
    assert web.store.matches.state(web.match).deals[-1].actions == before  # rehearsed only


def test_a_proposed_result_is_passed_to_the_opponent_at_an_address_of_its_own(
    web: Web,  # noqa: F811
) -> None:
    web.page(web.table())
    res = _plain_post(
        web,
        web.table() + "/quick",
        winner="Anna",
        points="2",
        reason="false-claim",
        at=f"{web.match}.0:0",
        last="",
    )
    assert res.status_code == 303
    html = _asked_twice(web, res.headers["location"])
    assert "Anna wins deal 1: 2 game points (Bert claimed 66 falsely)" in html
    assert "/agree" in html and "/decline" in html
    asked = web.client.get(res.headers["location"])
    res = web.agree(asked)
    assert res.status_code == 303
    assert len(web.store.matches.state(web.match).deals) == 1
    # agreed: the proposal's address now shows the table (nothing asked, nothing posted)
    assert "/agree" not in web.page(urlsplit(res.headers["location"]).path)


def test_starting_a_round_while_tables_still_play_is_asked_at_an_address_of_its_own(
    desk: Web,  # noqa: F811
) -> None:
    eid = _event_id(
        _create(desk, name="RR", kind="round-robin", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    res = desk.post(f"/director/event/{eid}/round", round="2")
    assert res.status_code == 303
    assert res.headers["location"] == f"/director/event/{eid}/round?round=2"
    html = _asked_twice(desk, res.headers["location"])
    assert "Start round 2 anyway" in html and 'name="force" value="yes"' in html
    assert f'href="/director/event/{eid}"' in html  # Back: the event's page
    assert desk.store.events.get(eid).rounds_started == (1,)
    res = desk.post(f"/director/event/{eid}/round", round="2", force="yes")
    assert res.status_code == 303 and res.headers["location"] == f"/director/event/{eid}"
    assert desk.store.events.get(eid).rounds_started == (1, 2)


def test_withdrawing_swapped_pairings_asks_once_at_the_questions_address(
    desk: Web,  # noqa: F811
) -> None:
    eid = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    p, q = desk.store.events.rounds(eid, 1)[0].pairings
    desk.store.swaps.make(eid, 1, p.second, q.second, force=True)
    html = _asked_twice(desk, f"/director/event/{eid}/unpair?round=1")
    assert "is undone with them" in html and 'name="confirmed" value="yes"' in html
    res = desk.post(f"/director/event/{eid}/unpair", round="1")  # a form from before the swap
    assert res.status_code == 303
    assert res.headers["location"] == f"/director/event/{eid}/unpair?round=1"
    assert desk.store.events.get(eid).rounds_started == (1,)
    res = desk.post(f"/director/event/{eid}/unpair", round="1", confirmed="yes")
    assert res.status_code == 303 and res.headers["location"] == f"/director/event/{eid}"
    assert desk.store.events.get(eid).rounds_started == ()


def test_a_refusals_back_leads_to_the_page_the_director_came_from(
    desk: Web,  # noqa: F811
) -> None:
    eid = _event_id(
        _create(desk, name="RR", kind="round-robin", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    mid = desk.store.events.rounds(eid, 1)[0].pairings[0].matches[0].match_id
    res = desk.client.get(
        f"/director/match/{mid + 100}/delete",
        headers={"referer": f"http://testserver/director/event/{eid}"},
    )
    assert res.status_code == 404 and f'href="/director/event/{eid}"' in res.text


def test_a_refused_form_comes_back_to_the_events_address_with_what_was_chosen(
    desk: Web,  # noqa: F811
) -> None:
    eid = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    res = _plain_post(desk, f"/director/event/{eid}/apart", a="Anna Berger", b="Anna Berger")
    assert res.status_code == 303
    assert res.headers["location"] == f"/director/event/{eid}#keep-apart"
    html = desk.client.get(f"/director/event/{eid}").text
    assert 'aria-invalid="true"' in html and 'role="alert"' in html
    assert '<option value="Anna Berger" selected' in html  # what was chosen, kept
    again = desk.client.get(f"/director/event/{eid}").text  # a reload: said once, posts nothing
    assert 'aria-invalid="true"' not in again
    assert desk.store.pairings.apart(eid) == []
    # the page's script, or a test client, gets it in place (400)
    res = desk.post(f"/director/event/{eid}/apart", a="Anna Berger", b="Anna Berger")
    assert res.status_code == 400 and 'aria-invalid="true"' in res.text


def test_the_round_preview_shows_a_withdrawn_players_table_as_not_played(
    desk: Web,  # noqa: F811
) -> None:
    players = "Anna B\nbert\ncarla\ndora\nJogi\nAnna Huber"
    eid = _event_id(_create(desk, name="RR", kind="round-robin", players=players))
    for number in (1, 2, 3):  # three of five played by everyone
        desk.post(f"/director/event/{eid}/round", round=str(number))
        for p in desk.store.events.rounds(eid, number)[0].pairings:
            desk.store.deals.match_result(p.matches[0].match_id, "7:3", winner=p.first)
    assert desk.post(f"/director/event/{eid}/withdraw", player="Dora Wimmer").status_code == 303
    html = desk.page(f"/director/event/{eid}/round/4")
    row = next(r for r in html.split("<tr") if "Dora Wimmer" in r)
    assert 'class="forfeit"' in row and "Dora Wimmer: withdrawn" in row
    assert "wins, not played" in row


def test_a_refused_new_event_comes_back_to_the_forms_address_with_what_was_typed(
    desk: Web,  # noqa: F811
) -> None:
    typed = {"name": "Herbst", "kind": "swiss", "rounds": "drei", "players": "Anna B\nbert"}
    res = _plain_post(desk, "/director/new", **typed)
    assert res.status_code == 303 and res.headers["location"] == "/director/new"
    html = desk.client.get("/director/new").text
    assert 'aria-invalid="true"' in html and 'role="alert"' in html
    assert 'value="Herbst"' in html and 'value="drei"' in html  # what was typed, kept
    again = desk.client.get("/director/new").text  # a reload: said once, posts nothing
    assert 'aria-invalid="true"' not in again and 'value="Herbst"' not in again
    assert desk.store.events.all() == []
    # the page's script, or a test client, gets it in place (400)
    res = desk.post("/director/new", **typed)
    assert res.status_code == 400 and 'aria-invalid="true"' in res.text


def test_a_refused_rename_comes_back_to_the_players_address_with_what_was_typed(
    desk: Web,  # noqa: F811
) -> None:
    for name in ("Carla", "Bert"):
        desk.store.players.add(name)
    pid = desk.store.players.get("Carla").id
    res = _plain_post(desk, f"/director/player/{pid}/rename", name="Bert")
    assert res.status_code == 303 and res.headers["location"] == f"/director/player/{pid}"
    html = desk.client.get(f"/director/player/{pid}").text
    assert 'value="Bert" aria-invalid="true" aria-describedby="name-error"' in html
    again = desk.client.get(f"/director/player/{pid}").text  # a reload: said once
    assert 'aria-invalid="true"' not in again and 'value="Carla"' in again
    assert desk.store.players.get(f"#{pid}").name == "Carla"
    res = desk.post(f"/director/player/{pid}/rename", name="Bert")  # the script: in place
    assert res.status_code == 400 and 'aria-invalid="true"' in res.text


def test_a_refused_quick_result_comes_back_to_the_matchs_address_with_what_was_chosen(
    desk: Web,  # noqa: F811
) -> None:
    match = desk.store.matches.start("Anna Berger", "Bert Huber", first_dealer="Anna Berger")
    did = desk.store.deals.quick_result(match.id, winner="Bert Huber", points=2).id
    res = _plain_post(
        desk, f"/director/deal/{did}/quick", winner="Anna Berger", points="0", reason="claim"
    )
    assert res.status_code == 303
    assert res.headers["location"] == f"/director/match/{match.id}#quick-{did}"
    html = desk.client.get(f"/director/match/{match.id}").text
    form = html.split(f'id="quick-{did}"', 1)[1].split("</form>", 1)[0]
    assert 'aria-invalid="true"' in form and "not 0" in form
    assert '<option value="Anna Berger" selected>' in form  # what was chosen, kept
    again = desk.client.get(f"/director/match/{match.id}").text  # a reload: said once
    assert 'aria-invalid="true"' not in again
    assert desk.store.deals.view(did).winner == "Bert Huber"
