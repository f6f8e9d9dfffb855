"""The wall (``/standings/N``) on a projector, in real Chromium: at 1280x720 and at 1920x1080
(the page's own size, as a projector in full screen shows it) a round robin of 8 shows every
row without scrolling; a Swiss event of 20 or 64 players turns its pages by itself until every
player and every table of the round has been inside the screen, with "page 2 of 3" beside each
column's heading; every event kind and the German page alike. With ``TALLY_SCREENSHOTS=DIR``
each wall is saved there as ``wall-KIND-WxH.png``, to be looked at."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import wall_support
from tests.web.test_browser import CHROMIUM, DRIVER, _browser
from tests.web_support import running

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="no browser: install Debian's chromium and chromium-driver",
    ),
]

SIZES = [(1280, 720), (1920, 1080)]
EVERY = 2  # seconds a page stays up (?every=2; 10 by default)

# What is inside the screen now: the player names of the standings and the table numbers of
# the round (each wholly inside the window and inside its column's room, not hidden), the
# page indicators, and whether the page is taller or wider than the window.
SEEN = """
const inside = (el) => {
  const r = el.getBoundingClientRect(), box = el.closest('.pageable').getBoundingClientRect();
  return el.offsetParent !== null && r.height > 0 && r.top >= 0 && r.left >= 0 &&
    r.bottom <= window.innerHeight && r.right <= window.innerWidth &&
    r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
};
const text = (el) => (el.getAttribute('data-full') || el.textContent)
  .replace(/\\u00a0\\*$/, '').trim();
return {
  players: [...document.querySelectorAll('.standings .item .nm')].filter(inside).map(text),
  tables: [...document.querySelectorAll('.tables .item')].filter(inside)
            .map((el) => [...el.querySelectorAll('.pn')].map(text).join(' - ')),
  pages: [...document.querySelectorAll('.pageno')].map((el) => el.textContent),
  scrolls: document.documentElement.scrollHeight > window.innerHeight ||
           document.documentElement.scrollWidth > window.innerWidth,
};
"""


@pytest.fixture(scope="module")
def wall_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A tally server over a SQLite file with one event of each kind, each in a round."""

    from tally.store import open_store
    from tally.web.server import create_app

    db = tmp_path_factory.mktemp("wall") / "club.db"
    store = open_store(f"sqlite:///{db}", scorer="director")
    made = {
        "rr8": wall_support.round_robin(store, 8),
        "swiss20": wall_support.swiss(store, 20),
        "swiss64": wall_support.swiss(store, 64),
        "club": wall_support.club(store, 12),
        "knockout": wall_support.knockout(store, 32),
        "groups": wall_support.groups(store, 16),
        "preisschnapsen": wall_support.preisschnapsen(store),
    }
    try:
        with running(create_app(store)) as base:
            yield {"base": base, "events": made, "store": store}
    finally:
        store.close()


@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def projector(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """Chromium whose page is exactly the projector's size (no window frame to subtract)."""
    width, height = request.param
    driver = _browser((width, height), tmp_path_factory.mktemp("projector"))
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    try:
        yield driver
    finally:
        driver.quit()


def _expected(server: dict[str, Any], kind: str) -> tuple[set[str], set[str]]:
    """Every player of the event's standings, and every table of its current round (or, for
    a club evening, every match shown), as the wall names them."""
    from tally.web.standings import _content

    content = _content(server["store"], server["events"][kind])
    players = {r.player for r in content["standings"].rows}
    tables = {f"{p.first} - {p.second}" for p in content["tables"]}
    tables |= {f"{m.players[0]} - {m.players[1]}" for m in content["club"]}
    return players, tables


def _cycle(driver: Any, url: str, want: tuple[set[str], set[str]]) -> dict[str, Any]:
    """Open the wall and watch it until every player and table has been inside the screen
    (or two whole paging cycles of the longest column passed): what was seen."""
    driver.get(url)
    seen: dict[str, Any] = {"players": set(), "tables": set(), "pages": set(), "scrolls": False}
    deadline = time.time() + 10
    while time.time() < deadline:
        now = driver.execute_script(SEEN)
        seen["players"] |= set(now["players"])
        seen["tables"] |= set(now["tables"])
        seen["pages"] |= {p for p in now["pages"] if p}
        seen["scrolls"] |= now["scrolls"]
        counts = [int(n) for n in re.findall(r"(?:of|von) (\d+)", " ".join(now["pages"]))]
        deadline = max(
            deadline,
            seen.setdefault("start", time.time()) + 2 * EVERY * (max(counts, default=1) + 1),
        )
        if seen["players"] >= want[0] and seen["tables"] >= want[1]:
            break
        time.sleep(0.25)
    return seen


def _screenshot(driver: Any, name: str) -> None:
    folder = os.environ.get("TALLY_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        size = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        driver.save_screenshot(str(Path(folder) / f"wall-{name}-{size[0]}x{size[1]}.png"))


def test_a_round_robin_of_eight_shows_every_row_without_scrolling(
    wall_server: dict[str, Any], projector: Any
) -> None:
    want = _expected(wall_server, "rr8")
    projector.get(f"{wall_server['base']}/standings/{wall_server['events']['rr8']}")
    now = projector.execute_script(SEEN)
    _screenshot(projector, "8")
    assert set(now["players"]) == want[0] and len(want[0]) == 8
    assert set(now["tables"]) == want[1] and len(want[1]) == 4
    assert now["pages"] == ["", ""] and not now["scrolls"]


@pytest.mark.parametrize("players", [20, 64])
def test_a_swiss_field_pages_through_every_player_and_table(
    wall_server: dict[str, Any], projector: Any, players: int
) -> None:
    kind = f"swiss{players}"
    want = _expected(wall_server, kind)
    assert len(want[0]) == players and len(want[1]) == players // 2
    url = f"{wall_server['base']}/standings/{wall_server['events'][kind]}?every={EVERY}"
    projector.get(url)
    _screenshot(projector, str(players))
    seen = _cycle(projector, url, want)
    assert seen["players"] == want[0]
    assert seen["tables"] == want[1]
    assert not seen["scrolls"]
    _every_page_said(seen["pages"], "page {} of {}")


def _every_page_said(pages: set[str], words: str) -> None:
    """Some column paged, and said each of its pages: "page 1 of N" to "page N of N"."""
    pattern = re.escape(words).replace(r"\{\}", r"(\d+)")
    counts = {int(m.group(2)) for p in pages if (m := re.fullmatch(pattern, p))}
    assert counts and min(counts) >= 2, pages
    for n in counts:
        assert {words.format(i, n) for i in range(1, n + 1)} <= pages


@pytest.mark.parametrize("kind", ["club", "knockout", "groups"])
def test_every_kind_of_event_fits_or_pages(
    wall_server: dict[str, Any], projector: Any, kind: str
) -> None:
    want = _expected(wall_server, kind)
    url = f"{wall_server['base']}/standings/{wall_server['events'][kind]}?every={EVERY}"
    seen = _cycle(projector, url, want)
    _screenshot(projector, kind)
    assert seen["players"] == want[0] and seen["tables"] == want[1] and want[1]
    assert not seen["scrolls"]


def test_the_german_wall_pages_in_german(wall_server: dict[str, Any], projector: Any) -> None:
    want = _expected(wall_server, "swiss20")
    url = (
        f"{wall_server['base']}/standings/{wall_server['events']['swiss20']}?lang=de&every={EVERY}"
    )
    seen = _cycle(projector, url, want)
    _screenshot(projector, "20-de")
    assert seen["players"] == want[0] and seen["tables"] == want[1]
    _every_page_said(seen["pages"], "Seite {} von {}")
    assert not seen["scrolls"]


def test_a_result_comes_in_while_the_wall_pages(
    wall_server: dict[str, Any], projector: Any
) -> None:
    """New content keeps the page shown, and the pages keep turning over it."""

    ev = wall_server["events"]["swiss20"]
    projector.get(f"{wall_server['base']}/standings/{ev}?every=8")
    projector.execute_script("window.notReloaded = true")
    deadline = time.time() + 20
    while "page 2 of 2" not in projector.execute_script(SEEN)["pages"] and time.time() < deadline:
        time.sleep(0.1)
    before = projector.execute_script(SEEN)
    assert before["pages"][0] == "page 2 of 2"
    version = projector.find_element("id", "live").get_attribute("data-version")
    playing = next(
        p for p in wall_server["store"].events.rounds(ev, 2)[0].pairings if not p.matches[0].over
    )
    wall_server["store"].deals.quick_result(
        playing.matches[0].match_id, winner=playing.first, points=3, reason="claim"
    )
    deadline = time.time() + 5
    while (
        projector.find_element("id", "live").get_attribute("data-version") == version
        and time.time() < deadline
    ):
        time.sleep(0.1)
    after = projector.execute_script(SEEN)
    assert after["pages"] == before["pages"] and set(after["players"]) == set(before["players"])
    assert projector.execute_script("return window.notReloaded") is True
    want = _expected(wall_server, "swiss20")
    seen = _cycle(projector, projector.current_url, want)
    assert seen["players"] == want[0] and seen["tables"] == want[1]


def test_the_wall_fits_again_when_the_screen_changes(
    wall_server: dict[str, Any], projector: Any
) -> None:
    ev = wall_server["events"]["swiss64"]
    projector.get(f"{wall_server['base']}/standings/{ev}")
    size = projector.execute_script("return [window.innerWidth, window.innerHeight]")
    try:
        for width, height in ((1024, 768), (1366, 768), (size[0], size[1])):
            projector.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            )
            time.sleep(0.5)
            now = projector.execute_script(SEEN)
            assert not now["scrolls"] and now["players"] and now["tables"]
            assert all(re.fullmatch(r"page 1 of \d+", p) for p in now["pages"])
    finally:
        projector.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False},
        )


# How each name of the standings and the tables is shown, whether each cell of the standings
# is inside the screen, and how many rows a page of the standings holds against how many fit.
NAMES = """
const list = document.querySelector('.standings .pageable');
const rows = [...list.querySelectorAll('.item')];
const shown = rows.filter((el) => el.offsetParent !== null);
const head = list.querySelector('thead').getBoundingClientRect().height;
const tallest = Math.max(...rows.map((el) => el.getBoundingClientRect().height));
return {
  names: [...document.querySelectorAll('[data-short]')].filter((el) => el.offsetParent !== null)
    .map((el) => [el.getAttribute('data-full'), el.getAttribute('data-short'), el.textContent,
                  el.scrollWidth <= el.clientWidth + 1]),
  outside: [...document.querySelectorAll('.standings th, .standings td')]
    .filter((el) => el.offsetParent !== null)
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 ||
                    el.getBoundingClientRect().right > list.getBoundingClientRect().right + 0.5)
    .map((el) => el.textContent),
  shown: shown.length,
  all: rows.length,
  fit: Math.floor((list.clientHeight - head - 1) / tallest),
};
"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_preisschnapsen_of_32_long_names_shows_whole_words_every_column_and_full_pages(
    wall_server: dict[str, Any], projector: Any, lang: str
) -> None:
    want = _expected(wall_server, "preisschnapsen")
    url = (
        f"{wall_server['base']}/standings/{wall_server['events']['preisschnapsen']}"
        f"?lang={lang}&every={EVERY}"
    )
    seen = _cycle(projector, url, want)
    assert seen["players"] == want[0] and len(want[0]) == 32 and seen["tables"] == want[1]
    assert not seen["scrolls"]
    projector.get(url.replace(f"every={EVERY}", "every=60"))
    time.sleep(1)
    _screenshot(projector, f"preisschnapsen-{lang}")
    now = projector.execute_script(NAMES)
    # each name whole or shortened as a person reads it, never cut
    for full, short, text, inside in now["names"]:
        assert text.replace("\u00a0*", "") in (full, short) and inside, (full, text)
    assert any(text == short != full for full, short, text, _ in now["names"])
    # every column inside the screen, the prize column too
    assert now["outside"] == []
    # as many rows a page as fit: no more pages than the rows need
    pages = -(-now["all"] // now["fit"])
    assert now["shown"] >= -(-now["all"] // pages) - 1 and now["fit"] >= 10, now
