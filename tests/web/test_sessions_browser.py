"""The director's sessions in real Chromium (issue 36): logged in on the laptop and on a
phone, the laptop's *Sessions* page lists both and ends the phone's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_browser import PHONE, PROJECTOR, _browser, _shot, _submit, _text
from tests.web.test_browser import pytestmark as needs_a_browser
from tests.web.test_routes import PIN

pytestmark = needs_a_browser  # slow, and skipped without a browser


def test_the_director_sees_the_sessions_and_ends_the_phones_in_chromium(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The director logs in on the laptop and on a phone; the laptop's *Sessions* page lists
    both, ends the phone's, and the phone is back at the login form. With
    ``TALLY_SCREENSHOTS=DIR`` the page is saved as ``director-sessions.png``."""
    from selenium.webdriver.common.by import By

    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app
    from tests.web_support import running

    store = open_store(f"sqlite:///{tmp_path / 'club.db'}", scorer="director")
    set_pin(store, PIN)
    laptop = _browser(PROJECTOR, tmp_path / "laptop")
    phone = _browser(PHONE, tmp_path / "phone")
    try:
        with running(create_app(store)) as base:
            for driver in (laptop, phone):
                driver.get(f"{base}/director")
                driver.find_element(By.NAME, "pin").send_keys(PIN)
                _submit(driver, driver.find_element(By.CSS_SELECTOR, "button.primary"))
            laptop.get(f"{base}/director/sessions")
            listed = _text(laptop, "table.list")
            assert "(this one)" in listed and listed.count("127.0.0.1") == 2
            _shot(laptop, "director-sessions")
            rows = laptop.find_elements(By.CSS_SELECTOR, "table.list tbody tr")
            theirs = next(r for r in rows if "(this one)" not in r.text)
            _submit(laptop, theirs.find_element(By.CSS_SELECTOR, "button"))
            assert "ended" in _text(laptop, "main")
            phone.get(f"{base}/director")
            assert phone.find_elements(By.NAME, "pin")
    finally:
        laptop.quit()
        phone.quit()
        store.close()
