"""The director's Changes page (the whole audit log, newest first, a page at a time, for one
event or one match, in words a club reads) and fixing a player's name where it is seen
(rename, alias, merge on the director's pages, each reversible there)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_routes import PIN, Web, _client


@pytest.fixture
def desk(db_url: str) -> Any:
    """The director, logged in, over a club's list of players and no event."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    store = open_store(db_url, scorer="tester")
    for name in ("Anna", "Bert", "Carla", "Dora"):
        store.players.add(name)
    set_pin(store, PIN)
    app = create_app(store)
    web = Web(_client(app), app, store, 0, 0)
    web.login()
    yield web
    store.close()


def _entries(page: str) -> list[int]:
    return [int(x) for x in re.findall(r'<tr id="entry-(\d+)">', page)]


def _older(page: str) -> str | None:
    found = re.search(r'rel="next" href="([^"]+)"', page)
    return None if found is None else html.unescape(found.group(1))


def _two_hundred_changes(desk: Web) -> tuple[int, int]:
    """200 audit entries: a round robin's first round, a card played in a match of it, then
    new players; the event and the match."""
    store = desk.store
    ev = store.events.create("Cup", kind="round-robin", players=["Anna", "Bert", "Carla", "Dora"])
    rnd = store.events.start_round(ev.id, 1)
    mid = rnd.pairings[0].matches[0].match_id
    deal = store.deals.start(mid, "QH")
    store.deals.play(deal.id, "KS")
    made = len(store.audit.log())
    for n in range(200 - made):
        store.players.add(f"Guest {n + 1}")
    assert len(store.audit.log()) == 200
    return ev.id, mid


def test_the_changes_page_reaches_the_first_of_200_entries_page_by_page(desk: Web) -> None:
    _two_hundred_changes(desk)
    first = desk.page("/director/audit")
    assert _entries(first) == list(range(200, 150, -1))
    seen, address = [], "/director/audit"
    while address is not None:
        page = desk.page(address)
        seen += _entries(page)
        address = _older(page)
    assert seen == list(range(200, 0, -1))  # every entry once, newest first, down to entry 1
    assert "New player Anna" in page and "Reverse" in page
    # an address of a page stays that page while changes are made
    second = _older(first)
    assert second == "/director/audit?before=151"
    desk.store.players.add("Latecomer")
    assert _entries(desk.page(second))[0] == 150
    # the page before it is the 50 entries above it (the newest is a page of its own now)
    assert 'rel="prev" href="/director/audit?before=201"' in desk.page(second)


def test_the_changes_of_one_event_or_one_match_in_plain_words(desk: Web) -> None:
    eid, mid = _two_hundred_changes(desk)
    match = desk.store.matches.state(mid)
    a, b = match.players
    leader, dealer = match.deals[0].forehand, match.deals[0].dealer
    page = html.unescape(desk.page(f"/director/audit?match={mid}"))
    assert len(_entries(page)) == 2  # the deal started, the card played
    assert f"{leader} played K♠ in deal 1, trick 1" in page
    assert f"Deal 1 started: {dealer} deals, turn-up Q♥" in page
    assert f"{a} – {b}" in page and "played KS" not in page
    german = html.unescape(desk.page(f"/director/audit?match={mid}&lang=de"))
    assert f"{leader} spielte K♠ in Spiel 1, Stich 1" in german and "Trumpfkarte D♥" in german
    event_page = desk.page(f"/director/audit?event={eid}")
    assert _entries(event_page) == [5, 4, 3, 2]  # created, round 1 started, deal, card
    assert "Round 1 of Cup started" in event_page and "Guest" not in event_page
    assert _older(event_page) is None


def test_a_card_played_is_taken_back_from_the_changes_page(desk: Web) -> None:
    _, mid = _two_hundred_changes(desk)
    played = desk.store.audit.log(match=mid)[-1]
    res = desk.post(f"/director/audit/{played.id}/reverse")
    assert res.status_code == 303
    assert desk.store.matches.state(mid).deals[0].actions == 0
    page = html.unescape(desk.page(f"/director/audit?match={mid}"))
    assert f"Took back entry {played.id}: " in page and "reversed by 201" in page
