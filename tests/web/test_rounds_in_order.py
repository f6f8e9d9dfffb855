"""The director's pages keep rounds in order: starting a round robin's round whose players
still play the round before asks first, naming them; its preview warns; the started round's
bye is on the event page; withdrawing a round's pairings takes a swap made in it along."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_director import _create, _event_id, desk  # noqa: F401 (a fixture)
from tests.web.test_routes import Web


def test_round_2_is_asked_about_naming_the_players_still_at_round_1(desk: Web) -> None:  # noqa: F811
    eid = _event_id(
        _create(desk, name="RR", kind="round-robin", players="Anna B\nbert\ncarla\ndora\nJogi")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    first = desk.store.events.rounds(eid, 1)[0]
    html = desk.page(f"/director/event/{eid}")
    assert f"Sits out (bye): {first.bye}" in html
    preview = desk.page(f"/director/event/{eid}/round/2")
    assert "would seat them at two tables at once" in preview
    res = desk.post(f"/director/event/{eid}/round", round="2")
    assert res.status_code == 303  # to the question's own address (a reload posts nothing)
    res = desk.client.get(res.headers["location"])
    assert res.status_code == 200 and "Start round 2 anyway" in res.text
    named = set(re.findall(r"<li>(.+?) is still playing match \d+\.</li>", res.text))
    assert named <= {p for q in first.pairings for p in (q.first, q.second)} and named
    assert 'name="force" value="yes"' in res.text
    assert desk.store.events.get(eid).rounds_started == (1,)
    res = desk.post(f"/director/event/{eid}/round", round="2", force="yes")
    assert res.status_code == 303
    assert desk.store.events.get(eid).rounds_started == (1, 2)


def test_withdrawing_swapped_pairings_asks_once_and_the_swap_goes_too(desk: Web) -> None:  # noqa: F811
    eid = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    p, q = desk.store.events.rounds(eid, 1)[0].pairings
    desk.post(f"/director/event/{eid}/swap", round="1", a=p.first, b=q.first, force="yes")
    first, second = sorted((p.first, q.first))
    undone = f"The swap of {first} and {second} is undone with them."
    ask = desk.post(f"/director/event/{eid}/unpair", round="1")
    assert ask.status_code == 303  # to the question, which names the swap
    ask = desk.client.get(ask.headers["location"])
    assert ask.status_code == 200 and undone in ask.text
    assert 'name="confirmed" value="yes"' in ask.text
    assert desk.store.events.get(eid).rounds_started == (1,)
    res = desk.post(f"/director/event/{eid}/unpair", round="1", confirmed="yes")
    assert res.status_code == 303
    assert undone in desk.client.get(res.headers["location"]).text
    assert desk.store.events.get(eid).rounds_started == ()
