"""A misspelled name fixed from the director's pages in real Chromium (1280x720): the event's
list links the name to the player's page, a rename to a name already taken comes back with
what was typed and the field marked, the right spelling is stored, the Changes page says so in
words, and taking it back there restores the old spelling.

With ``TALLY_SCREENSHOTS=DIR`` the pages are saved there as ``director-player*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import PROJECTOR, _browser, _shot, _submit, _text
from tests.web.test_browser import pytestmark as needs_a_browser
from tests.web.test_director_browser import PIN, _css, _log_in
from tests.web_support import running

pytestmark = needs_a_browser  # slow, and skipped without a browser


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server over a round robin whose first round is played, one name misspelled."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    db = tmp_path_factory.mktemp("names") / "club.db"
    store = open_store(f"sqlite:///{db}", scorer="director")
    players = ["Anna Berger", "Bert Huber", "Carla Moser", "Jürgen Rot"]
    for name in players:
        store.players.add(name)
    ev = store.events.create("Thursday Cup", kind="round-robin", players=players)
    store.events.start_round(ev.id, 1)
    set_pin(store, PIN)
    try:
        with running(create_app(store)) as base:
            yield {"base": base, "store": store, "event": ev.id}
    finally:
        store.close()


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _browser(PROJECTOR, tmp_path_factory.mktemp("laptop-profile"))
    try:
        yield driver
    finally:
        driver.quit()


def _rename(driver: Any, name: str) -> None:
    field = _css(driver, "#name")
    field.clear()
    field.send_keys(name)
    _submit(driver, _css(driver, "#rename button.primary"))


def test_a_misspelled_name_is_renamed_from_the_event_page(cup: dict[str, Any], laptop: Any) -> None:
    from selenium.webdriver.common.by import By

    base, store = cup["base"], cup["store"]
    _log_in(laptop, base)
    laptop.get(f"{base}/director/event/{cup['event']}")
    _submit(laptop, laptop.find_element(By.LINK_TEXT, "Jürgen Rot"))
    assert _text(laptop, "h1").startswith("Jürgen Rot")
    _rename(laptop, "Anna Berger")  # taken: refused, the form comes back as typed
    field = _css(laptop, "#name")
    assert field.get_attribute("value") == "Anna Berger"
    assert field.get_attribute("aria-invalid") == "true"
    assert "Anna Berger" in _text(laptop, "#name-error")
    _shot(laptop, "director-player-refused")
    _rename(laptop, "Jürgen Roth")
    assert _text(laptop, "h1").startswith("Jürgen Roth")
    assert "Renamed: Jürgen Roth." in _text(laptop, ".banner.notice")
    _shot(laptop, "director-player")
    assert "Jürgen Roth" in [p.name for p in store.events.get(cup["event"]).players]
    laptop.get(f"{base}/director/audit")
    row = _css(laptop, "table.changes tbody tr")
    assert "Jürgen Rot renamed to Jürgen Roth" in row.text
    _shot(laptop, "director-changes-rename")
    _submit(laptop, row.find_element(By.LINK_TEXT, "Reverse"))
    assert "Jürgen Rot renamed to Jürgen Roth" in _text(laptop, "ul.consequences")
    _submit(laptop, _css(laptop, "main form button.danger"))
    assert "Took back entry" in _text(laptop, ".banner.notice")
    assert "Jürgen Rot" in [p.name for p in store.events.get(cup["event"]).players]
