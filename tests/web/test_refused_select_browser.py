"""A refused choice in a real browser (Chromium, 1280x720): the director keeps one player
apart from themselves by mistake; the event's page comes back with both lists still showing
the player, the second marked and the reason beside it, in view at the top too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import PROJECTOR, _browser, _submit, _text
from tests.web.test_browser import pytestmark as needs_a_browser
from tests.web_support import running

PIN = "2468"
PLAYERS = ["Anna Berger", "Bert Huber", "Carla Moser", "Dora Wimmer"]

pytestmark = needs_a_browser  # slow, and skipped without a browser


@pytest.fixture(scope="module")
def open_event(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A tally server over a Swiss event of four players, and the PIN."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    db = tmp_path_factory.mktemp("apart") / "club.db"
    store = open_store(f"sqlite:///{db}", scorer="director")
    for name in PLAYERS:
        store.players.add(name)
    event = store.events.create("Open", kind="swiss", players=PLAYERS, rounds=3)
    set_pin(store, PIN)
    try:
        with running(create_app(store)) as base:
            yield {"base": base, "store": store, "event": event.id}
    finally:
        store.close()


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _browser(PROJECTOR, Path(tmp_path_factory.mktemp("laptop-profile")))
    try:
        yield driver
    finally:
        driver.quit()


def test_a_pair_kept_apart_refused_keeps_both_choices(
    open_event: dict[str, Any], laptop: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base, eid = open_event["base"], open_event["event"]
    laptop.get(f"{base}/director")
    laptop.find_element(By.CSS_SELECTOR, 'input[name="pin"]').send_keys(PIN)
    _submit(laptop, laptop.find_element(By.CSS_SELECTOR, "main form button"))
    laptop.get(f"{base}/director/event/{eid}")
    form = laptop.find_element(By.CSS_SELECTOR, "#keep-apart")
    for field in ("a", "b"):
        Select(form.find_element(By.NAME, field)).select_by_value("Carla Moser")
    _submit(laptop, form.find_element(By.CSS_SELECTOR, "button"))
    assert "named twice" in _text(laptop, "#b-error")
    form = laptop.find_element(By.CSS_SELECTOR, "#keep-apart")
    for field in ("a", "b"):
        chosen = Select(form.find_element(By.NAME, field)).first_selected_option
        assert chosen.get_attribute("value") == "Carla Moser"
    assert form.find_element(By.NAME, "b").get_attribute("aria-invalid") == "true"
    assert form.find_element(By.NAME, "a").get_attribute("aria-invalid") is None
    top = laptop.find_element(By.CSS_SELECTOR, "#refused")
    assert "named twice" in top.text and top.is_displayed()
    assert top.rect["y"] + top.rect["height"] <= PROJECTOR[1]
    assert open_event["store"].pairings.apart(eid) == []
    # the address is the event page's, not the form's: a reload posts nothing, says nothing
    assert laptop.current_url.split("#")[0] == f"{base}/director/event/{eid}"
    laptop.refresh()
    assert not laptop.find_elements(By.CSS_SELECTOR, "#refused")
