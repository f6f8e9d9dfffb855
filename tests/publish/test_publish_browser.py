"""The published site in a real browser (Debian's chromium and chromium-driver, by Selenium),
opened from ``file://``: at a phone's 360x740 and a laptop's 1280x720 the index, an event, a
player and a deal page never scroll sideways (a wide table scrolls in its own box). With
``TALLY_SCREENSHOTS=DIR`` the pages are saved there as PNG, to be looked at
(``docs/screens/site-*.png``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.publish_support import Site

pytest.importorskip("selenium")

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

SIZES = {"phone": (360, 740), "laptop": (1280, 720)}
#: the pages looked at: the index, the round robin (its cross-table is the widest table),
#: the knockout, a player, a recorded deal and a series, in English; the index in German
PAGES = {
    "index": "en/index.html",
    "event": "en/events/4.html",
    "knockout": "en/events/2.html",
    "player": "en/players/1.html",
    "deal": "en/deals/1.html",
    "series": "en/series/1.html",
    "de-index": "de/index.html",
}


@pytest.fixture(scope="module", params=sorted(SIZES))
def browser(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    width, height = SIZES[request.param]
    options = webdriver.ChromeOptions()
    assert CHROMIUM is not None and DRIVER is not None
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("profile")
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--no-first-run",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_window_size(width, height)
    driver.size_name = request.param
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
    driver.set_window_size(size["width"], min(max(int(height) + 120, size["height"]), 4000))
    driver.save_screenshot(str(Path(folder) / f"{name}.png"))
    driver.set_window_size(size["width"], size["height"])


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_published_pages_never_scroll_sideways(site: Site, browser: Any, name: str) -> None:
    page = site.english.parent / PAGES[name]
    browser.get(page.as_uri())
    assert browser.find_element("css selector", "h1").text
    wide = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert wide[0] <= wide[1], f"{name} scrolls sideways at {browser.size_name}: {wide}"
    styled = browser.execute_script(
        "return getComputedStyle(document.querySelector('.site-head')).backgroundColor"
    )
    assert styled == "rgb(23, 50, 77)"  # (the stylesheet was found from file://)
    _shot(browser, f"site-{name}-{browser.size_name}")
