"""Issue 32 in a real browser (Chromium at 360x740, the harness of ``tests/web/test_browser.py``):
a phone that scanned a table's code keeps its page open while the director withdraws the
round's pairings and pairs the round again; the old address then shows that its pairing was
withdrawn (in English and German) and opens no match, and the new code opens the new one.
With ``TALLY_SCREENSHOTS=DIR`` the page is saved there as ``phone-withdrawn-address*.png``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("selenium")

from tests.web.test_browser import CHROMIUM, DRIVER, PHONE, _browser, _shot, _tap, _text
from tests.web_support import running

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="no browser: install Debian's chromium and chromium-driver",
    ),
]


@pytest.fixture
def club(tmp_path: Any) -> Iterator[dict[str, Any]]:
    """A server over a SQLite file: a round robin of four, round 1 started."""
    from tally.store import open_store
    from tally.web.server import create_app

    store = open_store(f"sqlite:///{tmp_path / 'club.db'}", scorer="director")
    names = ["Anna Berger", "Bert Huber", "Carla Moser", "Dora Wimmer"]
    for name in names:
        store.players.add(name)
    ev = store.events.create("Autumn Cup", kind="round-robin", players=names)
    store.events.start_round(ev.id, 1)
    app = create_app(store)
    try:
        with running(app) as base:
            yield {"base": base, "event": ev.id, "store": store, "keys": app.state.site.keys}
    finally:
        store.close()


def _addresses(club: dict[str, Any]) -> dict[int, str]:
    """Each table's address in round 1, by table."""
    (rnd,) = club["store"].events.rounds(club["event"], 1)
    return {
        p.table: f"{club['base']}/t/{p.matches[0].match_id}/"
        f"{club['keys'].table_secret(p.matches[0].match_id)}"
        for p in rnd.pairings
    }


def test_a_phone_on_withdrawn_pairings_is_told_so_after_the_round_is_paired_again(
    club: dict[str, Any], tmp_path: Any
) -> None:
    store, event = club["store"], club["event"]
    old = _addresses(club)
    phone = _browser(PHONE, tmp_path / "phone")
    try:
        phone.get(old[1])
        assert "Tap the turn-up card" in _text(phone, "main")
        store.pairings.withdraw(event, 1)
        store.events.start_round(event, 1)
        new = _addresses(club)
        assert set(new.values()).isdisjoint(old.values())
        _tap(phone, "QH", "turn_up")  # the page left open: the tap reaches no match
        said = _text(phone, ".banner.error")
        assert said == (
            "this table's pairing was withdrawn (or its match deleted): "
            "ask the director for the new code"
        )
        assert _text(phone, "h1") == "This address opens no table any more"
        _shot(phone, "phone-withdrawn-address")
        for table in new:
            match = store.events.rounds(event, 1)[0].pairings[table - 1].matches[0]
            assert store.matches.state(match.match_id).deals == ()
        phone.get(old[1] + "?lang=de")
        assert "die Paarung dieses Tisches wurde zurückgenommen" in _text(phone, ".banner.error")
        _shot(phone, "phone-withdrawn-address-de")
        phone.get(new[1] + "?lang=en")
        assert "Tap the turn-up card" in _text(phone, "main")
        width = phone.execute_script("return document.documentElement.scrollWidth")
        assert width <= PHONE[0]
    finally:
        phone.quit()
