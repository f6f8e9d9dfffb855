"""A phone that keeps recording through a Wi-Fi drop, in real Chromium at 360x740 (the harness
of ``tests/web/test_browser.py``): with the phone offline (the browser's own network
emulation) or the server stopped for 10 seconds and started again, the taps wait on the page,
which says so, and are sent in order once the server answers, each stored once, with no
reload by hand; a waiting tap that another phone beat is refused with its reason and nothing
wrong is stored; a phone reloaded while offline keeps its waiting taps; the wall says since
when it lost its connection. With ``TALLY_SCREENSHOTS=DIR`` the waiting and the refused page
are saved there (``phone-waiting.png``, ``phone-refused.png``)."""

from __future__ import annotations

import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("selenium")
pytest.importorskip("httpx")

import httpx

from tests.store_support import tally_process
from tests.web.test_browser import (
    CHROMIUM,
    DRIVER,
    PHONE,
    PROJECTOR,
    _browser,
    _shot,
    _submit,
    _tap,
    _text,
    server,  # noqa: F401  (the fixture: a round robin of six, round 1 started)
)
from tests.web_support import free_port

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="no browser: install Debian's chromium and chromium-driver",
    ),
]

WAITING_TWO = "No connection: 2 taps waiting, they will be sent"


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[Any]:
    driver = _browser(PHONE, tmp_path / "phone-profile")
    try:
        yield driver
    finally:
        driver.quit()


def _offline(driver: Any, offline: bool) -> None:
    """The phone's Wi-Fi gone (or back), as Chrome's DevTools emulate it."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def _tap_waiting(driver: Any, token: str, waiting: int) -> None:
    """Tap a card the server cannot be told about now: the page keeps it (``waiting`` taps
    then)."""
    from selenium.webdriver.common.by import By

    button = driver.find_element(By.CSS_SELECTOR, f'button[name="token"][value="{token}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    _until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#waiting li")) == waiting, 10)


def _until(check: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not so within {seconds} s")
        time.sleep(0.2)


def _stored(store: Any, match: int) -> list[str]:
    """The actions of the match's last deal, in the order they are stored."""
    record = store.deals.export(store.deals.current(match))
    tricks = record.split("\n\n", 1)[1].split() if "\n\n" in record else []
    return [item for item in tricks if not item.endswith(".")]


def _waiting(driver: Any) -> tuple[str, list[str]]:
    """What the page says of its waiting taps, and the taps it lists (read at once: the page
    may be replaced meanwhile)."""
    said, taps = driver.execute_script(
        """var box = document.getElementById("waiting");
        if (!box || box.hidden) { return ["", []]; }
        return [box.querySelector(".said").textContent,
                Array.from(box.querySelectorAll("li"), (li) => li.textContent)];"""
    )
    return str(said), [str(t) for t in taps]


def test_taps_made_offline_wait_and_are_sent_in_order_when_the_phone_is_back_online(
    server: dict[str, Any],  # noqa: F811
    phone: Any,
) -> None:
    store, match = server["store"], server["matches"][1]
    phone.get(server["tables"][1])
    _tap(phone, "QH", "turn_up")
    _offline(phone, True)
    _tap_waiting(phone, "KS", 1)
    _tap_waiting(phone, "AS", 2)
    _tap_waiting(phone, "QS", 3)  # a slip of the finger: taken back before it is sent
    back = phone.find_element("css selector", "#waiting button.takeback")
    assert back.text == "Take back Q♠ (not sent yet)"
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", back)
    back.click()
    assert _waiting(phone) == (WAITING_TWO, ["K♠", "A♠"])
    assert not phone.find_element("css selector", 'button[value="KS"]').is_enabled()
    assert phone.find_element("css selector", 'button[value="QS"]').is_enabled()
    _shot(phone, "phone-waiting")
    time.sleep(3)  # the page tries again meanwhile: nothing reaches the server
    assert _stored(store, match) == []
    _offline(phone, False)
    _until(lambda: _stored(store, match) == ["KS", "AS"], 15)
    _until(lambda: _waiting(phone) == ("", []), 10)
    assert "K♠ · A♠ →" in _text(phone, "#tricks")  # the server's page, without a reload
    time.sleep(2)
    assert _stored(store, match) == ["KS", "AS"]


def test_a_waiting_tap_the_other_phone_beat_is_refused_with_its_reason(
    server: dict[str, Any],  # noqa: F811
    phone: Any,
) -> None:
    store, match = server["store"], server["matches"][2]
    phone.get(server["tables"][2])
    _tap(phone, "QH", "turn_up")
    _offline(phone, True)
    _tap_waiting(phone, "KS", 1)
    _tap_waiting(phone, "AS", 2)
    deal = store.deals.current(match)
    store.deals.play(deal, "KH", expect=f"{match}.1:0")  # the second phone at the table
    _offline(phone, False)
    _until(lambda: _waiting(phone)[0].startswith("Not recorded"), 15)
    said, taps = _waiting(phone)
    assert said == (
        "Not recorded: K♠, for the reason above. "
        "Not sent, as they followed from it: A♠. Tap again what still belongs."
    )
    assert taps == []
    error = _text(phone, ".banner.error")
    assert error.startswith("Someone else recorded at this table meanwhile: ")
    assert "K♥" in error or "KH" in error
    assert "led K♥" in _text(phone, "#led")  # the server's state, not the page's
    _shot(phone, "phone-refused")
    time.sleep(3)
    assert _stored(store, match) == ["KH"]


def test_a_phone_reloaded_while_offline_keeps_its_waiting_taps(
    server: dict[str, Any],  # noqa: F811
    phone: Any,
) -> None:
    store, match = server["store"], server["matches"][3]
    phone.get(server["tables"][3])
    _tap(phone, "QH", "turn_up")
    _offline(phone, True)
    _tap_waiting(phone, "KS", 1)
    _tap_waiting(phone, "AS", 2)
    phone.refresh()  # the browser's own "no internet" page: no script runs there
    _offline(phone, False)
    phone.get(server["tables"][3])
    _until(lambda: _stored(store, match) == ["KS", "AS"], 15)
    _until(lambda: _waiting(phone) == ("", []), 10)
    time.sleep(2)
    assert _stored(store, match) == ["KS", "AS"]


# --- a match result that could not be sent -------------------------------------------------


@pytest.fixture
def results(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A server over a round robin of four, round 1 started, no deal recorded: its address,
    the event, the two matches and their table addresses."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app
    from tests.web_support import running

    store = open_store(f"sqlite:///{tmp_path / 'club.db'}", scorer="director")
    players = ["Anna", "Bert", "Carla", "Dora"]
    for name in players:
        store.players.add(name)
    ev = store.events.create("Club night", kind="round-robin", players=players)
    matches = [p.matches[0].match_id for p in store.events.start_round(ev.id, 1).pairings]
    set_pin(store, "1234")
    app = create_app(store)
    try:
        with running(app) as base:
            tables = [f"{base}/t/{m}/{app.state.site.keys.table_secret(m)}" for m in matches]
            yield {
                "base": base,
                "event": ev.id,
                "matches": matches,
                "tables": tables,
                "store": store,
            }
    finally:
        store.close()


def test_a_result_box_entered_offline_waits_and_is_entered_once(
    results: dict[str, Any], phone: Any
) -> None:
    from selenium.webdriver.common.by import By

    store, match = results["store"], results["matches"][0]
    phone.get(results["base"] + "/director")
    phone.find_element(By.NAME, "pin").send_keys("1234")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, "button.primary"))
    phone.get(f"{results['base']}/director/event/{results['event']}")
    box = phone.find_element(By.CSS_SELECTOR, f'form[action="/director/match/{match}/result"]')
    box.find_element(By.NAME, "score").send_keys("7:3")
    _offline(phone, True)
    box.find_element(By.TAG_NAME, "button").click()
    _until(lambda: _waiting(phone)[1] == ["Enter 7:3"], 10)
    assert _waiting(phone)[0] == "No connection: 1 tap waiting, it will be sent"
    assert store.matches.state(match).deals == ()
    _offline(phone, False)
    _until(lambda: _waiting(phone) == ("", []), 15)
    assert _text(phone, ".banner.notice").startswith("The match result is entered: ")
    time.sleep(2)
    assert len(store.matches.state(match).deals) == 2  # the two players' lines, once


def test_a_match_result_agreed_on_the_phone_offline_waits_and_is_entered_once(
    results: dict[str, Any], phone: Any
) -> None:
    from selenium.webdriver.common.by import By

    store, match = results["store"], results["matches"][1]
    phone.get(results["tables"][1])
    phone.find_element(By.CSS_SELECTOR, "details.matchresult summary").click()
    phone.find_element(By.NAME, "first").send_keys("7")
    phone.find_element(By.NAME, "second").send_keys("3")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, "details.matchresult button"))
    agree = phone.find_element(By.CSS_SELECTOR, 'button[name="agree"]')
    _offline(phone, True)
    agree.click()
    _until(lambda: _waiting(phone)[1] == ["Yes, I agree"], 10)
    assert store.matches.state(match).deals == ()
    _offline(phone, False)
    _until(lambda: _waiting(phone) == ("", []), 15)
    assert "wins the match" in _text(phone, ".panel.done")
    time.sleep(2)
    assert len(store.matches.state(match).deals) == 2


def test_the_step_before_the_opponent_confirms_is_not_kept_and_the_page_recovers(
    results: dict[str, Any], phone: Any
) -> None:
    from selenium.webdriver.common.by import By

    phone.get(results["tables"][0])
    phone.find_element(By.CSS_SELECTOR, "details.matchresult summary").click()
    phone.find_element(By.NAME, "first").send_keys("7")
    phone.find_element(By.NAME, "second").send_keys("3")
    _offline(phone, True)
    phone.find_element(By.CSS_SELECTOR, "details.matchresult button").click()
    _until(lambda: _waiting(phone)[0].startswith("No connection: this was not sent."), 10)
    _offline(phone, False)
    _until(lambda: _waiting(phone) == ("", []), 15)  # the server's page, by itself
    assert phone.find_element(By.CSS_SELECTOR, "details.matchresult")
    assert results["store"].matches.state(results["matches"][0]).deals == ()


# --- the server stopped for 10 seconds and started again -----------------------------------


def _serve(url: str, port: int) -> subprocess.Popen[str]:
    proc = tally_process(
        url,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _until(lambda: _answers(f"http://127.0.0.1:{port}/"), 30)
    return proc


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def _director(base: str) -> httpx.Client:
    """A director's browser, logged in with the PIN."""
    client = httpx.Client(base_url=base, timeout=10)
    page = client.get("/director").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    res = client.post("/director/login", data={"pin": "135790", "csrf": csrf.group(1)})
    assert res.status_code == 303
    return client


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A club's SQLite file with a round robin of two, round 1 started, the director's PIN
    set: its URL, the table's address path, the event and the match."""
    from tally.store import open_store
    from tally.web.access import server_keys, set_pin

    url = f"sqlite:///{tmp_path / 'club.db'}"
    with open_store(url, scorer="director") as store:
        for name in ("Anna", "Bert"):
            store.players.add(name)
        ev = store.events.create("Club night", kind="round-robin", players=["Anna", "Bert"])
        match = store.events.start_round(ev.id, 1).pairings[0].matches[0].match_id
        set_pin(store, "135790")
        table = f"/t/{match}/{server_keys(store).table_secret(match)}"
    yield {"url": url, "table": table, "event": ev.id, "match": match}


def test_a_server_stopped_for_ten_seconds_gets_the_waiting_taps_when_it_is_back(
    evening: dict[str, Any], phone: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    from tally.store import open_store

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(evening["url"], port)
    wall = _browser(PROJECTOR, tmp_path / "wall-profile")
    try:
        director = _director(base)
        wall.get(f"{base}/standings/{evening['event']}")
        phone.get(base + evening["table"])
        _tap(phone, "QH", "turn_up")
        began = time.monotonic()
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        out, _err = proc.communicate(timeout=10)
        assert time.monotonic() - began < 2.0
        assert "tally serve stopped: everything acknowledged is stored" in out
        _tap_waiting(phone, "KS", 1)
        _tap_waiting(phone, "AS", 2)
        assert _waiting(phone) == (WAITING_TWO, ["K♠", "A♠"])
        lost = wall.find_element(By.ID, "lost")
        _until(lambda: lost.is_displayed(), 10)
        assert re.fullmatch(r"connection lost since \d\d:\d\d", lost.text)
        time.sleep(10)
        proc = _serve(evening["url"], port)
        with open_store(evening["url"]) as store:
            _until(lambda: _stored(store, evening["match"]) == ["KS", "AS"], 20)
        _until(lambda: _waiting(phone) == ("", []), 10)
        _until(lambda: not lost.is_displayed(), 10)
        # the same table address, the director's session from before the stop
        assert phone.current_url == base + evening["table"]
        assert "Log out" in director.get("/director").text
        with open_store(evening["url"]) as store:
            assert _stored(store, evening["match"]) == ["KS", "AS"]
    finally:
        wall.quit()
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=10)
