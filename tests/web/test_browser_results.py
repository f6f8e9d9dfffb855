"""A match result kept on paper, entered in a real browser (Debian's chromium, Selenium): on a
phone (360x740) at the table, confirmed by the opponent on the same phone, and in the
director's result box on a laptop (1280x720). ``TALLY_SCREENSHOTS=DIR`` saves the pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import (  # noqa: F401
    PHONE,
    PROJECTOR,
    _browser,
    _shot,
    _submit,
    _tap,
    _text,
    phone,
    pytestmark,
    server,
)


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _browser(PROJECTOR, tmp_path_factory.mktemp("laptop-profile"))
    try:
        yield driver
    finally:
        driver.quit()


def test_a_phone_enters_the_match_result_and_the_opponent_confirms(
    server: dict[str, Any], phone: Any
) -> None:
    from selenium.webdriver.common.by import By

    phone.set_window_size(*PHONE)
    phone.get(server["tables"][1])
    phone.find_element(By.CSS_SELECTOR, "details.matchresult summary").click()
    first, second = phone.find_elements(By.CSS_SELECTOR, "details.matchresult input[type=number]")
    first.send_keys("3")
    second.send_keys("7")
    _shot(phone, "phone-match-result")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, "details.matchresult button.primary"))
    match = server["store"].matches.state(server["matches"][1])
    a, b = match.players
    assert _text(phone, "h1") == f"{a}, do you agree?"
    assert _text(phone, "#claim") == f"{b} wins the match 7 : 3"  # the winner's score first
    assert match.deals == ()
    _shot(phone, "phone-match-result-agree")
    _tap(phone, "yes", "agree")
    assert f"The match result is entered: {a} 3, {b} 7." in _text(phone, ".banner.notice")
    assert _text(phone, "#score").replace("\u2009", "") == "3:7"
    assert "entered as the match result" in _text(phone, ".panel.done")
    _shot(phone, "phone-match-result-done")
    match = server["store"].matches.state(server["matches"][1])
    assert (match.over, match.winner, match.score) == (True, b, {a: 3, b: 7})


def test_the_director_enters_a_result_in_the_box_of_a_table(
    server: dict[str, Any], laptop: Any
) -> None:
    from selenium.webdriver.common.by import By

    laptop.get(f"{server['base']}/director")
    laptop.find_element(By.NAME, "pin").send_keys("1234")
    _submit(laptop, laptop.find_element(By.CSS_SELECTOR, "button.primary"))
    laptop.get(f"{server['base']}/director/event/{server['event']}")
    mid = server["matches"][2]
    box = laptop.find_element(By.CSS_SELECTOR, f'form[action="/director/match/{mid}/result"]')
    box.find_element(By.NAME, "score").send_keys("7:5")
    _shot(laptop, "director-result-box")
    _submit(laptop, box.find_element(By.CSS_SELECTOR, "button"))
    assert "The match result is entered" in _text(laptop, ".banner.notice")
    assert not laptop.find_elements(By.CSS_SELECTOR, f'form[action="/director/match/{mid}/result"]')
    _shot(laptop, "director-result-entered")
    match = server["store"].matches.state(mid)
    assert match.over and sorted(match.score.values()) == [5, 7]
