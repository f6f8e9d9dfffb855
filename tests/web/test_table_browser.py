"""The table's phone in a real browser (Chromium at 360x740, the harness of
``tests/web/test_browser.py``): a deal tapped through with an exchange, a marriage, a close and
a claim, and what the page shows after each tap; the quick result's reasons follow the winner
chosen (quick.js). With ``TALLY_SCREENSHOTS=DIR`` each state is saved there as
``phone-*.png`` (``docs/screens`` holds the ones ``docs/serve.md`` shows)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("selenium")

from tests.web.test_browser import (
    CHROMIUM,
    DRIVER,
    PHONE,
    _browser,
    _shot,
    _tap,
    _text,
    server,  # noqa: F401  (the fixture: a round robin of six, round 1 started)
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="no browser: install Debian's chromium and chromium-driver",
    ),
]


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _browser(PHONE, tmp_path_factory.mktemp("table-phone"))
    try:
        yield driver
    finally:
        driver.quit()


def _players(server: dict[str, Any], table: int) -> tuple[str, str]:  # noqa: F811
    """The first dealer of the match at ``table``, and the other, who leads first."""
    match = server["store"].matches.state(server["matches"][table])
    first, second = match.players
    # the first dealer deals deal 1; the other leads its first trick
    return (first, second) if match.first_dealer == first else (second, first)


def test_a_deal_with_an_exchange_a_marriage_a_close_and_a_claim(
    server: dict[str, Any],  # noqa: F811
    phone: Any,
) -> None:
    dealer, leader = _players(server, 1)
    phone.get(server["tables"][1])
    _tap(phone, "QH", "turn_up")
    assert "turn-up Q♥" in _text(phone, ".banner.notice")
    assert _text(phone, "#stock") == "Stock open (face down: 11)"
    _tap(phone, "KS")
    assert _text(phone, ".banner.notice") == f"{leader} played K♠."
    assert _text(phone, "#led") == f"{leader} led K♠"
    _tap(phone, "AS")
    assert _text(phone, ".banner.notice") == f"{dealer} played A♠. {dealer} won the trick."
    _tap(phone, "swap")
    assert _text(phone, ".banner.notice") == f"{dealer} exchanged 9♥ for Q♥."
    assert _text(phone, "#faceup") == "Face up: 9♥ (exchanged for Q♥)"
    _shot(phone, "phone-deal-exchange")
    _tap(phone, "JH")
    _tap(phone, "AH")
    _tap(phone, "20 QC")
    assert _text(phone, ".banner.notice") == (f"{leader} declared 20 in clubs and led Q♣.")
    assert _text(phone, "#led") == f"{leader} led Q♣"
    _shot(phone, "phone-deal-marriage")
    _tap(phone, "JC")
    _tap(phone, "close")
    assert _text(phone, ".banner.notice") == f"{leader} closed after drawing."
    assert _text(phone, "#stock") == (f"{leader} closed the stock: follow suit, head the trick")
    _tap(phone, "10C")
    _shot(phone, "phone-deal-closed")
    _tap(phone, "9C")
    tricks = _text(phone, "#tricks")
    assert tricks.splitlines()[1].startswith(f"{leader} 10♣ · 9♣ → {leader}")
    assert f"{leader} declared 20 in clubs" in tricks
    assert f"{dealer} exchanged 9♥ for Q♥" in tricks
    _tap(phone, "66")  # 48 counted points: a false claim
    notice = _text(phone, ".banner.notice")
    assert notice.startswith(f"{leader} claimed 66. Deal 1 is over: ")
    assert f"{dealer} +" in _text(phone, "#deals") and "(false claim)" in _text(phone, "#deals")
    _shot(phone, "phone-deal-claimed")


def test_the_quick_result_offers_the_reasons_that_fit_the_winner(
    server: dict[str, Any],  # noqa: F811
    phone: Any,
) -> None:
    from selenium.webdriver.common.by import By

    phone.get(server["tables"][2])
    a, b = server["store"].matches.state(server["matches"][2]).players
    phone.find_element(By.CSS_SELECTOR, "details.quick summary").click()

    def shown() -> list[str]:
        return [
            label.text
            for label in phone.find_elements(By.CSS_SELECTOR, "#reasons label")
            if label.is_displayed()
        ]

    assert shown() == [
        f"{a} claimed 66",
        f"{b} claimed 66 falsely",
        f"{b} closed and failed",
        f"{b} broke a rule",
    ]
    phone.find_elements(By.CSS_SELECTOR, 'input[name="winner"]')[1].click()
    assert shown() == [
        f"{b} claimed 66",
        f"{a} claimed 66 falsely",
        f"{a} closed and failed",
        f"{a} broke a rule",
    ]
    phone.find_element(By.CSS_SELECTOR, 'input[value="false-claim"]').click()
    offered = [
        label.text
        for label in phone.find_elements(By.CSS_SELECTOR, "#points label")
        if label.is_displayed()
    ]
    assert offered == ["2", "3"]  # a false claim scores 2 or 3 under sixty-six
    assert phone.find_element(By.CSS_SELECTOR, 'input[name="points"][value="2"]').is_selected()
    _shot(phone, "phone-quick-reasons")
    phone.find_element(By.CSS_SELECTOR, 'input[name="winner"][value=""]').click()
    assert shown() == ["Nobody won: drawn"]
    assert not phone.find_element(By.ID, "points").is_displayed()
    assert phone.find_element(By.CSS_SELECTOR, 'input[value="draw"]').is_selected()
    phone.find_element(By.CSS_SELECTOR, "details.quick button.primary").click()
    assert "is drawn" in _text(phone, "#claim")
    _tap(phone, "yes", "agree")
    assert _text(phone, "#carry") == "1 game point carried into this deal"
    _shot(phone, "phone-deal-carry")


def test_the_table_in_german_on_a_phone(server: dict[str, Any], phone: Any) -> None:  # noqa: F811
    leader = _players(server, 3)[1]
    phone.get(server["tables"][3] + "?lang=de")
    _tap(phone, "QH", "turn_up")
    for token in ("KS", "AS", "swap", "JH", "AH", "20 QC", "JC", "close", "10C"):
        _tap(phone, token)
    assert _text(phone, ".banner.notice") == f"{leader} spielte 10♣."
    assert _text(phone, "#stock") == f"{leader} hat zugedreht: Farbzwang und Stichzwang"
    assert "D♥" in _text(phone, ".play")  # German letters on the cards
    _shot(phone, "phone-de-deal-closed")
    phone.delete_cookie("tally_lang")


def test_the_stock_exhausted_on_a_phone(server: dict[str, Any], phone: Any) -> None:  # noqa: F811
    phone.get(server["tables"][1])  # its deal 1 is over: six tricks of deal 2, no close
    _tap(phone, "AD", "turn_up")
    for token in ("KS", "AS", "9S", "JS", "10S", "QS", "9C", "JC", "QC", "KC", "10C", "AC"):
        _tap(phone, token)
    assert _text(phone, "#stock") == (
        "The last draw exhausts the stock: follow suit, head the trick"
    )
    _tap(phone, "KH")
    assert _text(phone, "#stock") == "Stock exhausted: follow suit, head the trick"
    assert 'id="faceup"' not in phone.page_source  # the loser of the last draw took it
    _shot(phone, "phone-deal-exhausted")
