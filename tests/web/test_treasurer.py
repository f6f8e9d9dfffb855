"""The treasurer's desk on the director's event page: a player checked in and paid, a bad
amount refused with the field marked, only players checked in drawn once required; the money
sheet as a page and as PDF, adding up to the cent, in German too (Starlette's test client)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.pdf_support import pages_text
from tests.web.test_director import CLUB, desk  # noqa: F401
from tests.web.test_prizes import knockout
from tests.web.test_routes import Web


def test_the_desk_takes_down_payments_and_the_money_sheet_adds_up(desk: Web) -> None:  # noqa: F811
    eid = knockout(desk)
    desk.store.prizes.set_money(eid, entry_fee=1000, shares="50,30")
    page = desk.client.get(f"/director/event/{eid}").text
    assert 'id="checkin"' in page and 'id="desk-links"' in page
    res = desk.post(
        f"/director/event/{eid}/checkin", player=CLUB[0], paid_in_full="yes", extra="3,50"
    )
    assert res.status_code == 303, res.text[:2000]
    said = desk.client.get(res.headers["location"]).text
    assert f"{CLUB[0]}: here; owes 13.50, paid 13.50, due 0" in said
    bad = desk.post(f"/director/event/{eid}/checkin", player=CLUB[1], paid="zehn")
    assert bad.status_code == 400 and "is not an amount in euros" in bad.text
    sheet = desk.client.get(f"/director/event/{eid}/money").text
    assert "Entry fees (6 × 10)" in sheet and "It adds up to the cent." in sheet
    assert "The club&#39;s part of the evening" in sheet
    pdf = desk.client.get(f"/director/print/money/{eid}.pdf")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert "It adds up to the cent." in " ".join(pages_text(pdf.content))
    german = desk.client.get(f"/director/event/{eid}/money?lang=de").text
    assert "Kassabericht" in german and "Die Abrechnung stimmt auf den Cent." in german


def test_once_required_only_players_checked_in_are_drawn(desk: Web) -> None:  # noqa: F811
    eid = knockout(desk)
    res = desk.post(f"/director/event/{eid}/check-in-required", required="yes")
    assert res.status_code == 303
    assert "pairs only players checked in" in desk.client.get(res.headers["location"]).text
    for name in CLUB[:5]:
        desk.post(f"/director/event/{eid}/checkin", player=name)
    with pytest.raises(Exception, match=f"not checked in: {CLUB[5]}"):
        desk.store.events.start_round(eid, 1)
    desk.post(f"/director/event/{eid}/check-in-required", required="no")
    assert desk.store.events.start_round(eid, 1).pairings
