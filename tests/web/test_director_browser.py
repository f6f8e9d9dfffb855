"""A whole club evening from the browser (real Chromium): the director logs in on a laptop
(1280x720), creates an 8-player round robin, adds the players (a new name chosen inline),
previews round 1 and starts it; four phones (360x740) open their table pages from the event
page's links and one records a whole deal by taps (an exchange, a marriage, a close and a
claim), another enters its match's result, kept on paper, and the opponent confirms it on the
same phone; the wall shows the standings. Each step is a function of its own.

With ``TALLY_SCREENSHOTS=DIR`` the director's pages are saved there as
``director-*.png`` (what ``docs/screens`` holds).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import PHONE, PROJECTOR, _browser, _shot, _submit, _tap, _text
from tests.web.test_browser import pytestmark as needs_a_browser
from tests.web_support import running

PIN = "1357"
#: the club's list before the evening (the director types some of them as people say them)
KNOWN = ["Anna Berger", "Bert Huber", "Carla Moser", "Dora Wimmer", "Emil Gruber", "Jürgen Roth"]
#: what the director types: a prefix, an accent left out, an alias-like surname, new names
TYPED = [
    "Anna",
    "bert huber",
    "Carla Moser",
    "dora",
    "Emil Gruber",
    "jurgen roth",
    "+Gerda Lang",
    "Hans Pichler",
]
#: one whole deal by taps: the exchange, a marriage (40 in trumps), a close, a claim
DEAL = ["KS", "AS", "swap", "40 KH", "9C", "close", "AC", "10C", "66"]

pytestmark = needs_a_browser  # slow, and skipped without a browser


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A tally server over a SQLite file holding only the club's players and the PIN."""

    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    db = tmp_path_factory.mktemp("evening") / "club.db"
    store = open_store(f"sqlite:///{db}", scorer="director")
    for name in KNOWN:
        store.players.add(name)
    set_pin(store, PIN)
    try:
        with running(create_app(store)) as base:
            yield {"base": base, "store": store}
    finally:
        store.close()


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _browser(PROJECTOR, tmp_path_factory.mktemp("laptop-profile"))
    try:
        yield driver
    finally:
        driver.quit()


def _css(driver: Any, css: str) -> Any:
    from selenium.webdriver.common.by import By

    _text(driver, css)  # waits for it
    return driver.find_element(By.CSS_SELECTOR, css)


def _log_in(driver: Any, base: str) -> None:
    """The director's pages, the PIN typed first unless the browser is logged in."""
    from selenium.webdriver.common.by import By

    driver.get(f"{base}/director")
    if driver.find_elements(By.CSS_SELECTOR, 'input[name="pin"]'):
        _css(driver, 'input[name="pin"]').send_keys(PIN)
        _submit(driver, _css(driver, "main form button"))
    assert "New event" in _text(driver, "main")


def _create_round_robin(driver: Any) -> None:
    """The new-event form: the name, round robin, the players as typed; a name nobody has
    (Hans Pichler) comes back as a choice, a new player, and the form is sent again."""
    from selenium.webdriver.support.ui import Select

    _submit(driver, _css(driver, "#new-event"))
    _shot(driver, "director-new-event")
    _css(driver, "#name").send_keys("Thursday Club Cup")
    Select(_css(driver, "#kind")).select_by_value("round-robin")
    _css(driver, "#players").send_keys("\n".join(TYPED))
    _submit(driver, _css(driver, "#new-event button.primary"))
    assert "There is no player “Hans Pichler” yet." in _text(driver, "#choose")
    _shot(driver, "director-choose-players")
    pick = Select(_css(driver, 'select[name="pick-0"]'))
    assert pick.first_selected_option.get_attribute("value") == "+Hans Pichler"
    _submit(driver, _css(driver, "#new-event button.primary"))
    players = _text(driver, "ul.links")
    for name in [*KNOWN, "Gerda Lang", "Hans Pichler"]:
        assert name in players


def _preview_and_start_round_1(driver: Any) -> list[str]:
    """The event page's next round: its pairings first, then started; the tables' links."""
    from selenium.webdriver.common.by import By

    _shot(driver, "director-event-before")
    _submit(driver, _css(driver, "#next-round"))
    rows = _css(driver, "#preview").find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == 4
    _shot(driver, "director-preview")
    _submit(driver, _css(driver, "main form button.primary"))
    assert "Round 1 started: 4 tables." in _text(driver, ".banner.notice")
    _shot(driver, "director-event-round")
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a.tablelink")]
    assert len(links) == 4
    return links


def _phones_record(base: str, links: list[str], tmp: Path) -> None:
    """Four phones open their tables from the event page's links (the path of each: the
    server listens on loopback here); each taps the turn-up; the first plays a whole deal."""
    from urllib.parse import urlsplit

    phones = [_browser(PHONE, tmp / f"phone-{i}") for i in range(4)]
    try:
        for n, (phone, link) in enumerate(zip(phones, links, strict=True)):
            phone.get(base + urlsplit(link).path)
            assert "Tap the turn-up card" in phone.page_source
            if n == 1:  # this table kept its score on paper
                _phone_enters_the_match_result(phone)
                continue
            _tap(phone, "QH", "turn_up")
            assert "Trick 1:" in _text(phone, "#turn")
        first = phones[0]
        for token in DEAL:
            _tap(first, token)
        assert "66" in _text(first, ".banner.notice")
        assert "Tap the turn-up card" in first.page_source
    finally:
        for phone in phones:
            phone.quit()


def _phone_enters_the_match_result(phone: Any) -> None:
    """A table that scored on paper enters the whole match, 7:2; the phone goes to the
    opponent, who confirms it; the table then shows the result."""
    from selenium.webdriver.common.by import By

    _css(phone, "details.matchresult summary").click()
    _css(phone, 'details.matchresult input[name="first"]').send_keys("7")
    _css(phone, 'details.matchresult input[name="second"]').send_keys("2")
    _submit(phone, _css(phone, "details.matchresult button.primary"))
    assert "do you agree?" in _text(phone, "main h1")
    _shot(phone, "phone-match-result-agree")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, 'button[name="agree"][value="yes"]'))
    assert "7 : 2, entered as the match result." in _text(phone, "main")


def _director_sees_the_deal(driver: Any) -> None:
    """The match page of table 1: the deal won by the claim; its tricks as a form."""
    from selenium.webdriver.common.by import By

    _submit(driver, driver.find_elements(By.CSS_SELECTOR, 'a[href^="/director/match/"]')[0])
    assert "claimed 66 correctly" in _text(driver, "main")
    _shot(driver, "director-match")
    _submit(driver, _css(driver, 'a[href$="/tricks"]'))
    assert _css(driver, 'select[name="t1-0"]').get_attribute("value") == "swap"
    _shot(driver, "director-tricks")
    driver.back()
    _submit(driver, _css(driver, 'a[href$="/delete"]'))
    assert "is deleted" in _text(driver, "ul.consequences")
    _shot(driver, "director-confirm-delete")


def _withdrawal_is_asked_first(driver: Any, event_page: str) -> None:
    from selenium.webdriver.support.ui import Select

    driver.get(event_page)
    Select(_css(driver, "#withdraw select")).select_by_visible_text("Hans Pichler")
    _submit(driver, _css(driver, "#withdraw button"))
    said = _text(driver, "ul.consequences")
    assert "Hans Pichler's running match" in said and "remaining matches" in said
    _shot(driver, "director-confirm-withdraw")
    driver.get(event_page)


def _wall_shows_everyone(base: str, event: str, tmp: Path) -> None:
    wall = _browser(PROJECTOR, tmp / "wall")
    try:
        wall.get(f"{base}/standings/{event}")
        shown = _text(wall, "#live")
        for name in [*KNOWN, "Gerda Lang", "Hans Pichler"]:
            assert name in shown
    finally:
        wall.quit()


def test_a_club_evening_run_from_the_browser(
    club: dict[str, Any], laptop: Any, tmp_path: Path
) -> None:
    base = club["base"]
    _log_in(laptop, base)
    _create_round_robin(laptop)
    event_page = laptop.current_url.split("?")[0]
    event = event_page.rsplit("/", 1)[1]
    links = _preview_and_start_round_1(laptop)
    _phones_record(base, links, tmp_path)
    laptop.get(event_page)
    _director_sees_the_deal(laptop)
    _withdrawal_is_asked_first(laptop, event_page)
    _wall_shows_everyone(base, event, tmp_path)
    laptop.get(f"{base}/director/audit")
    _shot(laptop, "director-changes")
    laptop.get(f"{base}/director")
    assert "Thursday Club Cup" in _text(laptop, "table.list")
    _shot(laptop, "director-home")


def test_a_club_evening_starts_its_matches_from_the_list(club: dict[str, Any], laptop: Any) -> None:
    """A club evening: matches started by choosing both players from the event's list; a
    player still at a table is marked there, and starting another match with them asks."""
    from selenium.webdriver.support.ui import Select

    base = club["base"]
    _log_in(laptop, base)
    _submit(laptop, _css(laptop, "#new-event"))
    _css(laptop, "#name").send_keys("Tuesday Club Evening")
    Select(_css(laptop, "#kind")).select_by_value("club")
    _css(laptop, "#players").send_keys("Anna\nbert\ncarla\ndora")
    _submit(laptop, _css(laptop, "#new-event button.primary"))

    def start(a: str, b: str) -> None:
        Select(_css(laptop, '#start-match select[name="a"]')).select_by_value(a)
        Select(_css(laptop, '#start-match select[name="b"]')).select_by_value(b)
        _submit(laptop, _css(laptop, "#start-match button"))

    start("Anna Berger", "Bert Huber")
    assert "Anna Berger v Bert Huber" in _text(laptop, ".banner.notice")
    assert "Bert Huber (playing match" in _text(laptop, '#start-match select[name="b"]')
    _shot(laptop, "director-club-evening")
    start("Carla Moser", "Bert Huber")
    assert "Bert Huber is still playing match" in _text(laptop, "main")
    _shot(laptop, "director-busy")
    _submit(laptop, _css(laptop, "main a.link-button"))
    start("Carla Moser", "Dora Wimmer")
    assert "Carla Moser v Dora Wimmer" in _text(laptop, ".banner.notice")
