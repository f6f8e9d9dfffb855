"""Every kind of page in German, as an Austrian club reads it, in real Chromium: the
director's pages (login, events, a new event, an event with its round, the round's preview,
a question, a match, the changes), a phone (a deal under way, a refused tap, the question
before a claim sure to be false, a result to agree to) and the wall. None of them uses a word
the glossary of docs/languages.md keeps out. With ``TALLY_SCREENSHOTS=docs/screens`` each
page is saved as ``de-*.png``, to be looked at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import PHONE, PROJECTOR, _browser, _shot, _submit, _tap
from tests.web.test_browser import pytestmark as needs_a_browser
from tests.web_support import running

pytestmark = needs_a_browser

PIN = "2468"
PLAYERS = [
    "Anna Berger",
    "Bert Huber",
    "Carla Moser",
    "Dora Wimmer",
    "Leopold Schützenhöfer-Obermayr",
    "Fritz Bauer",
]
#: words a German reader stumbles on (docs/languages.md, "Glossary"): cutting the deck, the
#: chess words, a turn-up that Schnapser call Atout, English left in German sentences
KEPT_OUT = (
    "Abheben",
    "Remis",
    "Trumpfkarte",
    "best of",
    "1 Nachkäufe",
    "Sprache der Listen",
    "des Lesers",
    "auseinandergehalten",
)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A German Swiss event of six players, round 1 started, one deal under way."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    db = tmp_path_factory.mktemp("german") / "club.db"
    store = open_store(f"sqlite:///{db}", scorer="director")
    for name in PLAYERS:
        store.players.add(name)
    ev = store.events.create(
        "Herbstturnier", kind="swiss", rounds=3, players=PLAYERS, language="de"
    )
    set_pin(store, PIN)
    app = create_app(store)
    keys = app.state.site.keys
    try:
        with running(app) as base:
            yield {"base": base, "event": ev.id, "store": store, "keys": keys}
    finally:
        store.close()


def _text(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.TAG_NAME, "body").text)


def _read(driver: Any, name: str) -> str:
    """The page shown, checked as German without the words kept out, and saved."""
    from selenium.webdriver.common.by import By

    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de", name
    text = _text(driver)
    _shot(driver, f"de-{name}")
    for word in KEPT_OUT:
        assert word not in text, (name, word, text)
    return text


def test_every_kind_of_page_reads_as_german(club: dict[str, Any], tmp_path: Path) -> None:
    desk = _browser((1100, 800), tmp_path / "desk")
    phone = _browser(PHONE, tmp_path / "phone")
    wall = _browser(PROJECTOR, tmp_path / "wall")
    try:
        _director(desk, club)
        _phone(phone, club)
        wall.get(f"{club['base']}/standings/{club['event']}?lang=de")
        _read(wall, "wall")
        _sheets(desk, club, tmp_path / "sheets")
    finally:
        for driver in (desk, phone, wall):
            driver.quit()


def _director(desk: Any, club: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    base, eid = club["base"], club["event"]
    desk.get(f"{base}/director?lang=de")
    assert "PIN" in _read(desk, "director-login")
    label = desk.find_element(By.CSS_SELECTOR, "label.field > span")
    assert label.size["height"] < 40, label.size  # one line, `tally serve` inside it
    desk.find_element(By.NAME, "pin").send_keys(PIN)
    _submit(desk, desk.find_element(By.CSS_SELECTOR, "button.primary"))
    _read(desk, "director-home")
    centre = desk.execute_script(
        """
        var b = document.getElementById("new-event"), r = document.createRange();
        r.selectNodeContents(b);
        var box = b.getBoundingClientRect(), text = r.getBoundingClientRect();
        return [box.top + box.height / 2, text.top + text.height / 2];
        """
    )
    assert abs(centre[0] - centre[1]) < 2, centre  # the button's words in its middle
    desk.get(f"{base}/director/new")
    _read(desk, "director-new-event")
    desk.get(f"{base}/director/event/{eid}/round/1")
    _read(desk, "director-preview")
    _submit(desk, desk.find_element(By.CSS_SELECTOR, "main form button.primary"))
    _read(desk, "director-event")
    _players_in_line(desk)
    desk.get(f"{base}/director/event/{eid}/withdraw?player=Fritz+Bauer")
    assert "Fritz Bauer" in _read(desk, "director-question")
    desk.get(f"{base}/director/event/{eid}/unpair?round=1")
    _read(desk, "director-question-pairings")
    desk.get(f"{base}/director/event/{eid}")
    desk.find_element(By.CSS_SELECTOR, "form.resultbox input[name=score]").send_keys("sieben")
    _submit(desk, desk.find_element(By.CSS_SELECTOR, "form.resultbox button"))
    assert "„sieben“ ist kein Ergebnis eines Bummerls" in _read(desk, "director-refused")
    # the event page comes back, the box refilled as typed and marked where it was
    box = desk.find_element(By.CSS_SELECTOR, "form.resultbox input[name=score]")
    assert box.get_attribute("value") == "sieben" and box.get_attribute("aria-invalid") == "true"
    pairings = club["store"].events.rounds(eid, 1)[0].pairings
    long = next(p for p in pairings if PLAYERS[4] in (p.first, p.second))
    match = long.matches[0].match_id
    club["match"] = match
    desk.get(f"{base}/director/match/{match}")
    _read(desk, "director-match")
    desk.get(f"{base}/director/audit")
    _read(desk, "director-changes")


def _sheets(desk: Any, club: dict[str, Any], folder: Path) -> None:
    """The printed sheets in German (standings, pairings, a score sheet), as the HTML the
    PDF is made from, read in the browser."""
    import shutil

    from tally.i18n import use
    from tally.sheets.build import event_standings_sheet, match_scoresheet, pairings_sheet
    from tally.sheets.render import render_html, templates_dir

    store, eid = club["store"], club["event"]
    shutil.copytree(templates_dir(), folder)
    with use("de"):
        sheets = {
            "standings": ("standings.html.j2", event_standings_sheet(store, eid)),
            "pairings": ("pairings.html.j2", pairings_sheet(store, eid, 1)),
            "scoresheet": ("scoresheet.html.j2", match_scoresheet(store, club["match"])),
        }
        for name, (template, data) in sheets.items():
            page = folder / f"{name}.html"
            page.write_text(render_html(template, data, lang="de"), encoding="utf-8")
            desk.get(page.as_uri())
            _read(desk, f"sheet-{name}")


def _players_in_line(desk: Any) -> None:
    """The event's list of players: no bullets; in each column the seeds end, and the names
    begin, at one line."""
    columns = desk.execute_script(
        """
        var list = document.querySelector("ul.players"), cols = {};
        list.querySelectorAll("li").forEach(function (li) {
          var seed = li.querySelector(".seed").getBoundingClientRect();
          var key = Math.round(li.getBoundingClientRect().left);
          (cols[key] = cols[key] || []).push([Math.round(seed.right), Math.round(seed.top)]);
        });
        return [getComputedStyle(list).listStyleType, Object.values(cols)];
        """
    )
    bullets, lines = columns
    assert bullets == "none"
    assert len(lines) > 1 and all(len({right for right, _ in col}) == 1 for col in lines), lines
    assert len({col[0][1] for col in lines}) == 1, lines  # each column's first line at one height


def _phone(phone: Any, club: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    mid = club["match"]
    phone.get(f"{club['base']}/t/{mid}/{club['keys'].table_secret(mid)}?lang=de")
    _read(phone, "phone-start")
    phone.find_element(By.CSS_SELECTOR, "details.quick summary").click()
    _submit(phone, phone.find_element(By.CSS_SELECTOR, "details.quick button.primary"))
    assert "einverstanden?" in _read(phone, "phone-agree")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, 'form[action$="/decline"] button'))
    assert "Nichts wurde eingetragen" in _read(phone, "phone-not-agreed")
    _tap(phone, "QH", "turn_up")
    _tap(phone, "66")  # nobody has won a trick: asked first
    assert "66 jetzt ansagen?" in _read(phone, "phone-claim-question")
    _submit(phone, phone.find_element(By.CSS_SELECTOR, "a.link-button"))
    for card in ("KS", "AS"):
        _tap(phone, card)
    _read(phone, "phone-table")
    _long_name_wraps_between_words(phone)
    phone.find_element(By.CSS_SELECTOR, "details.others summary").click()
    _tap(phone, "KS")  # played already
    assert "K♠" in _read(phone, "phone-refused")


def _long_name_wraps_between_words(phone: Any) -> None:
    """Each word of the names in the phone's header stands on one line."""
    split = phone.execute_script(
        """
        var out = [];
        document.querySelectorAll(".scorebar .name").forEach(function (el) {
          var text = el.firstChild, at = 0;
          text.data.split(/([ -])/).forEach(function (word) {
            var r = document.createRange();
            r.setStart(text, at); r.setEnd(text, at + word.length); at += word.length;
            var tops = new Set(Array.from(r.getClientRects()).map(function (x) { return x.top; }));
            if (word.trim() && tops.size > 1) { out.push(word); }
          });
        });
        return out;
        """
    )
    assert split == [], split
