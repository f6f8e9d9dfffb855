"""The director's pages and a player's announced absence (TestClient): announcing and taking
it back on the event page, the round's page before it starts and the event page after it
leave the absent player out and say "Absent (requested bye, ½)"; a refusal is said."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_director import desk  # noqa: F401  (the fixture)
from tests.web.test_routes import Web

FOUR = ["Anna Berger", "Bert Huber", "Carla Moser", "Dora Wimmer"]


def swiss(web: Web, **options: Any) -> int:

    return web.store.events.create("Open", kind="swiss", players=FOUR, rounds=3, **options).id


def test_the_director_announces_an_absence_and_the_round_leaves_the_player_out(
    desk: Web,  # noqa: F811
) -> None:

    eid = swiss(desk)
    page = desk.page(f"/director/event/{eid}")
    assert 'id="absent"' in page and "No absences announced." in page
    assert "A requested bye (an announced absence) scores half a win." in page
    res = desk.post(f"/director/event/{eid}/absent", player="Dora Wimmer", round="1")
    assert res.status_code == 303
    said = desk.client.get(res.headers["location"]).text
    assert "Dora Wimmer will miss round 1: a requested bye." in said
    assert "Round 1: Dora Wimmer" in said
    assert desk.store.events.get(eid).absences == ((1, "Dora Wimmer"),)
    preview = desk.page(f"/director/event/{eid}/round/1")
    assert "Absent (requested bye, ½): Dora Wimmer" in preview
    desk.post(f"/director/event/{eid}/round", round="1")
    page = desk.page(f"/director/event/{eid}")
    assert "Absent (requested bye, ½): Dora Wimmer" in page
    table = page.split('class="list"')[1].split("</table>")[0]
    assert "Dora Wimmer" not in table
    res = desk.post(f"/director/event/{eid}/absent", player="Anna Berger", round="1")
    assert res.status_code == 400 and "is paired already" in res.text


def test_the_director_takes_an_absence_back(desk: Web) -> None:  # noqa: F811

    eid = swiss(desk, absence_score="zero")
    desk.store.absences.announce(eid, "Bert Huber", 2)
    page = desk.page(f"/director/event/{eid}")
    assert "scores nothing" in page and "take back" in page
    res = desk.post(f"/director/event/{eid}/absent", player="Bert Huber", round="2", cancel="yes")
    said = desk.client.get(res.headers["location"]).text
    assert "Bert Huber will play round 2 after all." in said
    assert desk.store.events.get(eid).absences == ()


def test_a_round_robin_page_offers_no_absence(desk: Web) -> None:  # noqa: F811

    eid = desk.store.events.create("Liga", kind="round-robin", players=FOUR).id
    assert 'id="absent"' not in desk.page(f"/director/event/{eid}")
    res = desk.post(f"/director/event/{eid}/absent", player="Anna Berger", round="1")
    assert res.status_code == 400 and "record the missed game as a forfeit" in res.text


def test_the_new_event_form_sets_what_a_requested_bye_scores(desk: Web) -> None:  # noqa: F811
    from tests.web.test_director import _create, _event_id

    assert 'name="absence_score"' in desk.page("/director/new")
    res = _create(
        desk,
        name="Open",
        kind="swiss",
        rounds="3",
        players="Anna B\nbert\ncarla\ndora",
        absence_score="zero",
    )
    assert desk.store.events.get(_event_id(res)).absence_score == "zero"
    res = _create(
        desk, name="Liga", kind="round-robin", players="Anna B\nbert", absence_score="zero"
    )
    assert desk.store.events.get(_event_id(res)).absence_score == "half"
