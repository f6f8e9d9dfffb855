"""The director's pages and a one-round forfeit (TestClient): the event page's control asks
first, saying what follows (the opponent wins by forfeit, or nobody when neither came; the
player stays in), and stores nothing until confirmed; the no-show is listed, taken back, and
a refusal (deals recorded) is said with its reason."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_director import desk  # noqa: F401  (the fixture)
from tests.web.test_routes import Web

FOUR = ["Anna Berger", "Bert Huber", "Carla Moser", "Dora Wimmer"]


def started(web: Web) -> tuple[int, str, str]:
    """A Swiss event with round 1 started: its number and the first pairing's players."""
    eid = web.store.events.create("Open", kind="swiss", players=FOUR, rounds=3).id
    p = web.store.events.start_round(eid, 1).pairings[0]
    return eid, p.first, p.second


def test_a_no_show_is_asked_about_first_then_recorded_and_taken_back(
    desk: Web,  # noqa: F811
) -> None:
    eid, gone, came = started(desk)
    page = desk.page(f"/director/event/{eid}")
    assert 'id="no-show"' in page and "No no-shows recorded." in page
    q = f"/director/event/{eid}/forfeit?round=1&player={gone.replace(' ', '+')}"
    html = desk.page(q)
    assert f"{came} wins the match of round 1 against {gone}" in html
    assert "stays in the event and is paired in the next round" in html
    assert desk.store.events.get(eid).no_shows == ()  # only asked
    res = desk.post(f"/director/event/{eid}/forfeit", player=gone, round="1")
    assert res.status_code == 303
    said = desk.client.get(res.headers["location"]).text
    assert f"{gone} did not come to round 1: the match is forfeited." in said
    assert f"Round 1: {gone}" in said
    html = desk.page(f"/director/event/{eid}/forfeit?round=1&player={came.replace(' ', '+')}")
    assert f"Neither {came} nor {gone} came" in html or f"Neither {gone} nor {came} came" in html
    res = desk.post(f"/director/event/{eid}/forfeit", player=gone, round="1", cancel="yes")
    said = desk.client.get(res.headers["location"]).text
    assert f"{gone} plays the match of round 1 after all." in said
    assert desk.store.events.get(eid).no_shows == ()


def test_a_no_show_after_deals_is_refused_with_the_reason(desk: Web) -> None:  # noqa: F811
    eid, gone, came = started(desk)
    mid = desk.store.events.rounds(eid, 1)[0].pairings[0].matches[0].match_id
    desk.store.deals.quick_result(mid, winner=came, points=2, reason="claim")
    res = desk.client.get(f"/director/event/{eid}/forfeit?round=1&player={gone.replace(' ', '+')}")
    assert res.status_code == 400 and "a game played stands" in res.text
    res = desk.post(f"/director/event/{eid}/forfeit", player=gone, round="1")
    assert res.status_code == 400 and "a game played stands" in res.text
