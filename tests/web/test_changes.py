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
    event_page = desk.page(f"/director/audit?event={eid}&lang=en")
    assert _entries(event_page) == [8, 7, 6, 5]  # a card, a deal, round 1 started, created
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


def _player_link(desk: Web, eid: int, name: str) -> str:
    """The address of a player's page as the event page links their name."""
    found = re.search(
        rf'<a href="(/director/player/[^"]+)">{re.escape(name)}</a>',
        desk.page(f"/director/event/{eid}"),
    )
    assert found is not None
    return found.group(1)


def test_a_misspelled_name_is_renamed_from_the_event_page_and_taken_back(desk: Web) -> None:
    desk.store.players.add("Jürgen Rot")
    ev = desk.store.events.create("Cup", kind="round-robin", players=["Anna", "Jürgen Rot"])
    desk.store.events.start_round(ev.id, 1)
    page = _player_link(desk, ev.id, "Jürgen Rot")
    pid = desk.store.players.get("Jürgen Rot").id
    assert page == "/director/player/J%C3%BCrgen%20Rot"
    assert 'value="Jürgen Rot"' in desk.page(page)
    res = desk.post(f"/director/player/{pid}/rename", name="Jürgen Roth")
    assert res.status_code == 303 and res.headers["location"] == f"/director/player/{pid}"
    assert [p.name for p in desk.store.events.get(ev.id).players] == ["Anna", "Jürgen Roth"]
    assert "Jürgen Roth" in desk.store.matches.state(desk.store.matches.all()[0].id).players
    entry = desk.store.audit.log()[-1]
    assert (entry.command, entry.scorer) == ("player rename", "web: director")
    assert "Jürgen Rot renamed to Jürgen Roth" in html.unescape(desk.page("/director/audit"))
    question = html.unescape(desk.page(f"/director/audit/{entry.id}/reverse"))
    assert f"Change {entry.id} is taken back: Jürgen Rot renamed to Jürgen Roth." in question
    assert desk.post(f"/director/audit/{entry.id}/reverse").status_code == 303
    assert desk.store.players.get(f"#{pid}").name == "Jürgen Rot"


def test_another_name_is_given_and_taken_away_on_the_player_page(desk: Web) -> None:
    pid = desk.store.players.get("Carla").id
    res = desk.post(f"/director/player/{pid}/alias", alias="Carli")
    assert res.status_code == 303
    assert desk.store.players.get("Carli").id == pid  # every form now finds her by it
    assert "Carli" in desk.page(f"/director/player/{pid}")
    entry = desk.store.audit.log()[-1]
    assert "Carla also goes by Carli" in html.unescape(desk.page("/director/audit"))
    assert desk.post(f"/director/player/{pid}/unalias", alias="Carli").status_code == 303
    assert desk.store.players.get(f"#{pid}").aliases == ()
    assert desk.post(f"/director/audit/{entry.id + 1}/reverse").status_code == 303
    assert desk.store.players.get(f"#{pid}").aliases == ("Carli",)


def test_a_second_entry_is_merged_with_a_choice_and_a_question_then_taken_back(desk: Web) -> None:
    keep = desk.store.players.get("Dora").id
    drop = desk.store.players.add("Dorra").id
    desk.store.players.add("Dorian")
    mid = desk.store.matches.start("Dorra", "Anna", first_dealer="Anna").id
    # a name that fits several comes back with the players it fits, to choose from
    page = html.unescape(desk.post(f"/director/player/{keep}/merge", other="Dor").text)
    assert "“Dor” fits several players:" in page
    assert f'<option value="#{drop}">Dorra</option>' in page
    # a typo with the names close to it (as the command line suggests them)
    page = html.unescape(desk.post(f"/director/player/{keep}/merge", other="Dorrra").text)
    assert "There is no player “Dorrra”. Did you mean:" in page
    assert f'<option value="#{drop}">Dorra</option>' in page
    question = desk.post(f"/director/player/{keep}/merge", other=f"#{drop}")
    # the question at an address of its own (a reload asks again and posts nothing)
    assert question.status_code == 303
    assert question.headers["location"] == f"/director/player/{keep}?merge={drop}"
    for _reload in range(2):
        question = desk.client.get(f"/director/player/{keep}?merge={drop}")
        assert question.status_code == 200 and "Merge Dorra into Dora" in question.text
    assert desk.store.players.get(f"#{drop}").name == "Dorra"  # only asked, nothing merged
    res = desk.post(f"/director/player/{keep}/merge", other=f"#{drop}", confirm="yes")
    assert res.status_code == 303
    assert desk.store.matches.state(mid).players == ("Dora", "Anna")
    entry = desk.store.audit.log()[-1]
    assert "Dorra merged into Dora" in html.unescape(desk.page("/director/audit"))
    assert desk.post(f"/director/audit/{entry.id}/reverse").status_code == 303
    assert desk.store.matches.state(mid).players == ("Dorra", "Anna")


def test_a_refused_rename_comes_back_with_the_name_typed_and_the_field_named(desk: Web) -> None:
    pid = desk.store.players.get("Carla").id
    res = desk.post(f"/director/player/{pid}/rename", name="Bert")
    assert res.status_code == 400
    assert 'value="Bert" aria-invalid="true" aria-describedby="name-error"' in res.text
    assert re.search(r'<span class="field-error" id="name-error" role="alert">[^<]*Bert', res.text)
    assert desk.store.players.get(f"#{pid}").name == "Carla"
