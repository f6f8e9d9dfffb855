"""The director's round page when no Swiss pairing avoids a rematch (TestClient): it offers
the least bad pairing, naming each rematch, and starting it accepts them (audited); without
the acceptance the round is refused."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tally.store.derivation import rule_set
from tests.web.test_director import desk  # noqa: F401  (the fixture)
from tests.web.test_routes import Web

FOUR = ["Anna Berger", "Bert Huber", "Carla Moser", "Dora Wimmer"]


def test_the_round_page_offers_the_least_bad_pairing_and_starting_it_accepts_it(
    desk: Web,  # noqa: F811
) -> None:
    store = desk.store
    eid = store.events.create("Open", kind="swiss", players=FOUR, rounds=4).id
    target = rule_set("sixty-six").match_target
    for number in (1, 2, 3):  # everybody meets everybody
        for p in store.events.start_round(eid, number).pairings:
            store.deals.match_result(p.matches[0].match_id, (target, 0), winner=p.first)
    preview = desk.page(f"/director/event/{eid}/round/4")
    assert "No pairing of this round avoids a rematch." in preview
    assert preview.count("Rematch accepted:") == 2
    assert 'name="rematches" value="accept"' in preview
    refused = desk.post(f"/director/event/{eid}/round", round="4")
    assert refused.status_code == 400 and "rematch" in refused.text
    res = desk.post(f"/director/event/{eid}/round", round="4", rematches="accept")
    assert res.status_code == 303
    assert store.events.get(eid).rounds_started == (1, 2, 3, 4)
    assert "rematches accepted:" in store.audit.log(limit=1)[0].summary
