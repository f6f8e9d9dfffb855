"""tally serve in a real browser: Debian's chromium and chromium-driver, driven by Selenium.

A phone-sized window (360x740) plays a whole deal by tapping, the opponent confirms a quick
result, and a projector-sized window sees the standings change without a reload. Skipped, with
the reason, where no browser is installed. With ``TALLY_SCREENSHOTS=DIR`` the pages are saved
there as PNG (phone and projector sizes), to be looked at.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("selenium")

from tests.web_support import running

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="no browser: install Debian's chromium and chromium-driver "
        "(apt-get install chromium chromium-driver)",
    ),
]

PHONE = (360, 740)
PROJECTOR = (1280, 720)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A tally server on a loopback port over a SQLite file: a round robin of four players,
    round 1 started."""

    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    db = tmp_path_factory.mktemp("serve") / "club.db"
    store = open_store(f"sqlite:///{db}", scorer="director")
    players = [
        "Anna Berger",
        "Bert Huber",
        "Carla Moser",
        "Dora Wimmer",
        "Emil Gruber",
        "Fritz Bauer",
    ]
    for name in players:
        store.players.add(name)
    ev = store.events.create("Autumn Cup 2026", kind="round-robin", players=players)
    rnd = store.events.start_round(ev.id, 1)
    set_pin(store, "1234")
    app = create_app(store)
    keys = app.state.site.keys
    try:
        with running(app) as base:
            tables = {
                p.table: f"{base}/t/{p.matches[0].match_id}/"
                f"{keys.table_secret(p.matches[0].match_id)}"
                for p in rnd.pairings
            }
            yield {
                "base": base,
                "event": ev.id,
                "tables": tables,
                "store": store,
                "matches": {p.table: p.matches[0].match_id for p in rnd.pairings},
            }
    finally:
        store.close()


def _browser(size: tuple[int, int], profile: Path) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    assert CHROMIUM is not None and DRIVER is not None
    options.binary_location = CHROMIUM
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_window_size(*size)
    return driver


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _browser(PHONE, tmp_path_factory.mktemp("phone-profile"))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def wall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _browser(PROJECTOR, tmp_path_factory.mktemp("wall-profile"))
    try:
        yield driver
    finally:
        driver.quit()


def _shot(driver: Any, name: str) -> None:
    """Save a screenshot of the whole page when TALLY_SCREENSHOTS names a folder."""
    folder = os.environ.get("TALLY_SCREENSHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    size = driver.get_window_size()
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size["width"], max(int(height) + 120, size["height"]))
    driver.save_screenshot(str(Path(folder) / f"{name}.png"))
    driver.set_window_size(size["width"], size["height"])


def _tap(driver: Any, value: str, name: str = "token") -> None:
    """Tap a button and wait for the page it leads to. A page still being replaced (the
    redirect after the previous tap, or the page reloading itself once it saw that change) is
    waited for: the button is looked up again, and a click the browser could not deliver to a
    node that left the document is made again (it never reached the server)."""
    from selenium.common.exceptions import TimeoutException, WebDriverException
    from selenium.webdriver.common.by import By

    for attempt in range(10):
        try:
            button = driver.find_element(By.CSS_SELECTOR, f'button[name="{name}"][value="{value}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        except TimeoutException:
            raise
        except WebDriverException:
            if attempt == 9:
                raise
            time.sleep(0.2)
            continue
        break
    _wait_for_next_page(driver, button)


def _submit(driver: Any, element: Any) -> None:
    element.click()
    _wait_for_next_page(driver, element)


def _gone(element: Any) -> bool:
    """Whether ``element`` has left the document. (Selenium's ``staleness_of`` knows only the
    stale-element error; Chromium may also say "Node with given id does not belong to the
    document" while the next page replaces it.)"""
    from selenium.common.exceptions import WebDriverException

    try:
        element.is_enabled()
    except WebDriverException:
        return True
    return False


def _wait_for_next_page(driver: Any, element: Any) -> None:
    """Wait until the page of ``element`` (just clicked) is replaced and the next one loaded."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 10).until(lambda d: _gone(element))
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )


def _text(driver: Any, css: str) -> str:
    """The text of the element ``css``, waiting up to 10 s for the page that has it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    found = WebDriverWait(driver, 10).until(
        ec.presence_of_element_located((By.CSS_SELECTOR, css)),
        message=f"{css} not on the page: {driver.page_source[:3000]}",
    )
    return str(found.text)


def test_a_whole_deal_by_tapping_and_the_wall_follows(
    server: dict[str, Any], phone: Any, wall: Any
) -> None:
    wall.get(f"{server['base']}/standings/{server['event']}")
    wall.execute_script("window.notReloaded = true")
    before = _text(wall, "#live")
    phone.get(server["tables"][1])
    assert "Tap the turn-up card" in phone.page_source
    _shot(phone, "phone-start")
    _tap(phone, "QH", "turn_up")
    assert "Trick 1:" in _text(phone, "#turn")
    who = _text(phone, "#turn").split(":")[1].split(" to ")[0].strip()
    _tap(phone, "KS")
    _tap(phone, "AS")
    _shot(phone, "phone-table")
    for token in ("close", "10C", "9D", "KD", "JD", "66"):
        _tap(phone, token)
    assert "claimed 66. Deal 1 is over" in _text(phone, ".banner.notice")
    assert "Tap the turn-up card" in phone.page_source
    assert who in _text(phone, "#deals")
    _shot(phone, "phone-deal-over")
    # the wall changed by itself, without a reload
    deadline = time.time() + 10  # (ends as soon as it shows; a cold browser is slow)
    while _text(wall, "#live") == before and time.time() < deadline:
        time.sleep(0.2)
    assert _text(wall, "#live") != before
    assert wall.execute_script("return window.notReloaded") is True
    _shot(wall, "wall-standings")


def test_the_opponent_confirms_a_quick_result(
    server: dict[str, Any], phone: Any, wall: Any
) -> None:
    from selenium.webdriver.common.by import By

    wall.set_window_size(*PROJECTOR)
    wall.get(f"{server['base']}/standings/{server['event']}")  # it follows from here on
    phone.set_window_size(*PHONE)
    phone.get(server["tables"][2])
    phone.find_element(By.CSS_SELECTOR, "details.quick summary").click()
    radios = phone.find_elements(By.CSS_SELECTOR, 'input[name="winner"]')
    radios[1].click()
    phone.find_element(By.CSS_SELECTOR, 'input[name="points"][value="2"]').click()
    _shot(phone, "phone-quick")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, "details.quick button.primary"))
    assert "do you agree?" in phone.page_source
    claim = _text(phone, "#claim")
    assert "2 game points" in claim
    _shot(phone, "phone-agree")
    _tap(phone, "yes", "agree")
    assert "wins deal 1: 2 game points" in _text(phone, ".banner.notice")
    match = server["store"].matches.state(server["matches"][2])
    assert sorted(match.score.values()) == [0, 2]
    a, b = match.players
    board = f"{a}\n{match.score[a]}:{match.score[b]}\n{b}"
    deadline = time.time() + 10  # (ends as soon as it shows; a cold browser is slow)
    while board not in _text(wall, "#live") and time.time() < deadline:
        time.sleep(0.2)
    assert board in _text(wall, "#live")
    wall.get(f"{server['base']}/standings/{server['event']}?lang=de")
    assert "Tabelle" in _text(wall, "#live")
    _shot(wall, "wall-standings-de")


def test_a_table_and_the_director_in_german_on_a_phone(server: dict[str, Any], phone: Any) -> None:
    from selenium.webdriver.common.by import By

    phone.set_window_size(390, 844)
    phone.get(server["tables"][3] + "?lang=de")
    assert "Zum Mitschreiben die Atoutkarte antippen" in phone.page_source
    _shot(phone, "phone-de-start")
    # the opponent is asked in German; saying no stores nothing
    phone.find_element(By.CSS_SELECTOR, "details.quick summary").click()
    _submit(phone, phone.find_element(By.CSS_SELECTOR, "details.quick button.primary"))
    assert "einverstanden?" in _text(phone, "h1")
    _shot(phone, "phone-de-agree")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, 'form[action$="/decline"] button'))
    assert "Nichts wurde eingetragen" in _text(phone, ".banner.notice")
    _tap(phone, "QH", "turn_up")
    assert _text(phone, "#turn").startswith("Stich 1:")
    assert "Atoutkarte" in _text(phone, ".banner.notice")
    for token in ("KS", "AS", "close", "10C", "9D", "KD"):
        _tap(phone, token)
    _shot(phone, "phone-de-table")
    phone.find_element(By.CSS_SELECTOR, "details.others summary").click()
    _tap(phone, "JC")  # the revoke of trick 2 proved: asked first, in German
    assert "Regelverstoß" in _text(phone, "h1")
    _shot(phone, "phone-de-confirm")
    phone.get(f"{server['base']}/director")
    phone.find_element(By.NAME, "pin").send_keys("1234")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, "button.primary"))
    assert "Abmelden" in phone.page_source
    _shot(phone, "phone-de-director")
    phone.get(f"{server['base']}/director/event/{server['event']}")
    assert "Runde 2 beginnen" in phone.page_source
    _shot(phone, "phone-de-event")
    phone.get(f"{server['base']}/director/match/{server['matches'][3]}")
    assert "Schiedsrichtermodus" in phone.page_source
    _shot(phone, "phone-de-match")
    phone.delete_cookie("tally_lang")
    phone.set_window_size(*PHONE)
