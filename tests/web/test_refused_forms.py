"""A refused form of the director's comes back with what was typed, the field at fault marked
(``aria-invalid``) and the refusal beside it, instead of a page that loses it all: a new
event, players added, a prize table, a match's result (through Starlette's test client)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_director import CLUB, desk  # noqa: F401
from tests.web.test_prizes import knockout
from tests.web.test_routes import Web


def _marked(res: Any, field: str) -> str:
    """The refusal shown beside ``field``, which is marked as the one at fault."""
    assert res.status_code == 400, res.text[:2000]
    assert re.search(
        rf'name="{field}"[^>]*aria-invalid="true" aria-describedby="{field}-error"', res.text
    ), res.text[:3000]
    found = re.search(
        rf'<span class="field-error" id="{field}-error" role="alert">(.*?)</span>', res.text, re.S
    )
    assert found is not None
    assert res.text.count('aria-invalid="true"') == 1  # no other field is blamed
    return html.unescape(found.group(1))


def test_a_refused_new_event_names_the_field_typed_wrong(desk: Web) -> None:  # noqa: F811
    typed = {"name": "Open", "kind": "swiss", "players": "Anna B\nbert", "date": "2026-12-07"}
    res = desk.post("/director/new", **typed, rounds="3", tiebreaks="buchholz, luck")
    assert "luck" in _marked(res, "tiebreaks")
    text = html.unescape(res.text)
    assert 'value="buchholz, luck"' in text and 'value="Open"' in text
    assert "Anna B\nbert</textarea>" in text and 'value="3"' in text
    res = desk.post("/director/new", **typed, rounds="drei")
    assert "drei" in _marked(res, "rounds")
    res = desk.post("/director/new", **{**typed, "name": "   "}, rounds="3")
    assert "name" in _marked(res, "name")
    res = desk.post("/director/new", **{**typed, "players": "+\u0007"}, rounds="3")
    _marked(res, "players")
    assert desk.store.events.all() == []


def test_players_refused_come_back_in_the_box_as_typed(desk: Web) -> None:  # noqa: F811
    ev = desk.store.events.create("Cup", kind="round-robin", players=["Anna Berger", "Bert"])
    desk.store.events.start_round(ev.id, 1)
    res = desk.post(f"/director/event/{ev.id}/players", players="Carla\nDora W")
    said = _marked(res, "players")
    assert "round" in said
    assert "Carla\nDora W</textarea>" in html.unescape(res.text)


def test_a_refused_prize_table_comes_back_with_the_amounts_typed(desk: Web) -> None:  # noqa: F811
    eid = knockout(desk)
    res = desk.post(f"/director/event/{eid}/prizes", entry_fee="10", prizes="50,30,x")
    assert '"x" is not a percentage' in _marked(res, "prizes")
    assert 'value="10"' in res.text and 'value="50,30,x"' in res.text
    res = desk.post(f"/director/event/{eid}/prizes", entry_fee="zehn", prizes="50,50")
    assert "zehn" in _marked(res, "entry_fee")
    res = desk.post(f"/director/event/{eid}/prizes", buy_back_until="two")
    assert "two" in _marked(res, "buy_back_until")


def test_a_refused_match_result_comes_back_in_its_box(desk: Web) -> None:  # noqa: F811
    ev = desk.store.events.create("Cup", kind="round-robin", players=["Anna Berger", "Bert"])
    rnd = desk.store.events.start_round(ev.id, 1)
    mid = rnd.pairings[0].matches[0].match_id
    res = desk.post(f"/director/match/{mid}/result", score="3:2")
    assert "3" in _marked(res, "score")
    assert 'value="3:2"' in res.text
    assert desk.store.matches.state(mid).deals == ()
