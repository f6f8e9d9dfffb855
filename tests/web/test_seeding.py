"""The director seeds an event by rating on the "New event" form, and the event's page shows
the seeding list: the order fixed when round 1 is started, each player's rating (TestClient)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.store.test_ratings import played
from tests.web.test_director import CLUB, _create, _event_id, desk  # noqa: F401
from tests.web.test_routes import Web


def test_the_director_seeds_by_rating_and_the_event_page_shows_the_list(desk: Web) -> None:  # noqa: F811

    web = desk
    assert 'name="seed_by"' in web.page("/director/new")
    best = CLUB[2]
    played(web.store, best, CLUB[0], best)
    res = _create(
        web, name="Open", kind="swiss", rounds="3", seed_by="rating", players="\n".join(CLUB[:4])
    )
    eid = _event_id(res)
    assert web.store.events.get(eid).seed_by == "rating"
    page = web.page(f"/director/event/{eid}")
    assert "the order is fixed by the ratings when round 1 is started" in page
    web.store.events.start_round(eid, 1)
    page = web.page(f"/director/event/{eid}")
    assert "the order fixed when round 1 was started" in page
    seeded = web.store.events.get(eid).players
    assert seeded[0].name == best and seeded[0].seed_rating is not None
    listed = re.sub(r"<a [^>]*>|</a>", "", page)  # each name links the player's page
    assert f'<span class="seed">1.</span> {best} ({seeded[0].seed_rating:.1f})' in listed
    res = _create(web, name="Evening", kind="club", seed_by="rating", players="\n".join(CLUB[:2]))
    assert _event_id(res) and web.store.events.get("Evening").seed_by == "entry"
