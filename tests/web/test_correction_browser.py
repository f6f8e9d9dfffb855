"""A director's correction asked about first, in real Chromium at 1280x720: one card changed
in "Correct its tricks" hands the deal to the other player; the question shows the tricks and
the close moving and the match going from 2:0 to 0:3, and nothing is stored until the
director confirms.

With ``TALLY_SCREENSHOTS=DIR`` the question is saved there as ``director-correction.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.store_support import handed_over_match
from tests.web.test_browser import PROJECTOR, _browser, _shot, _submit, _text
from tests.web.test_browser import pytestmark as needs_a_browser
from tests.web.test_director_browser import PIN, _css, _log_in
from tests.web_support import running

pytestmark = needs_a_browser  # slow, and skipped without a browser


@pytest.fixture
def desk(tmp_path: Any) -> Iterator[dict[str, Any]]:
    """A tally server whose one match (Anna v Bert) has the deal Anna won 2:0, and a laptop."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    store = open_store(f"sqlite:///{tmp_path / 'club.db'}", scorer="director")
    mid, did = handed_over_match(store)
    set_pin(store, PIN)
    laptop = _browser(PROJECTOR, tmp_path / "laptop")
    try:
        with running(create_app(store)) as base:
            yield {"base": base, "store": store, "match": mid, "deal": did, "laptop": laptop}
    finally:
        laptop.quit()
        store.close()


def test_the_directors_correction_shows_before_and_after_and_stores_only_when_confirmed(
    desk: dict[str, Any],
) -> None:
    from selenium.webdriver.support.ui import Select

    laptop, store, mid = desk["laptop"], desk["store"], desk["match"]
    _log_in(laptop, desk["base"])
    laptop.get(f"{desk['base']}/director/match/{mid}")
    _submit(laptop, _css(laptop, 'a[href$="/tricks"]'))
    Select(_css(laptop, 'select[name="t1-1"]')).select_by_value("9C")  # 10S becomes 9C
    _submit(laptop, _css(laptop, "#tricks button.primary"))
    said = _text(laptop, "ul.consequences")
    assert "Trick 2: 10C 10S won by Bert, after the correction 10C 9C won by Anna." in said
    assert "Trick 2: the close moves from Bert to Anna." in said
    assert "Match 1, Anna v Bert: the score goes from 2:0 to 0:3." in said
    assert laptop.get_window_size()["width"] == PROJECTOR[0]
    _shot(laptop, "director-correction")
    assert store.matches.state(mid).score == {"Anna": 2, "Bert": 0}  # nothing stored yet
    _submit(laptop, _css(laptop, "main form button.danger"))
    assert "Deal 1 corrected." in _text(laptop, ".banner.notice")
    assert store.matches.state(mid).score == {"Anna": 0, "Bert": 3}
