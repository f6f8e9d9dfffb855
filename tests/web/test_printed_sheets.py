"""Every sheet `tally print` makes is printable from the director's pages: a knockout's
standings by elimination (lives, buy-backs, prizes), its bracket, the ratings list, a
series' standings, a deal's ruling sheet and a match's analysis (through Starlette's test
client; the PDFs read back with pypdf)."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from pypdf import PdfReader

from tests.web.test_director import CLUB, desk  # noqa: F401
from tests.web.test_routes import Web, _as_this_match, web  # noqa: F401


def pdf_text(content: bytes) -> str:
    assert content.startswith(b"%PDF")
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(content)).pages)


def played_to_its_bracket(site: Web) -> int:
    """A knockout of six with one life and a final of two, played until the final is
    drawn; its prize table set."""
    ev = site.store.events.create(
        "Preisschnapsen",
        kind="knockout",
        players=CLUB,
        rules="sixty-six match_target=3",
        lives=1,
        final_size=2,
        draw_seed="2026",
    )
    site.store.prizes.set_money(ev.id, entry_fee=1000, shares="60,40", buy_back_until=2)
    number = 1
    while not site.store.knockouts.view(site.store.events.get(ev.id)).bracket:
        rnd = site.store.events.start_round(ev.id, number)
        for p in rnd.pairings:
            site.store.deals.quick_result(
                p.matches[0].match_id, winner=p.first, points=3, reason="claim"
            )
        number += 1
    return int(ev.id)


def get_pdf(site: Web, path: str) -> str:
    res = site.client.get(path)
    assert res.status_code == 200, (path, res.status_code, res.text[:300])
    return pdf_text(res.content)


def test_the_director_prints_a_knockouts_standings_by_elimination_and_its_bracket(
    desk: Web,  # noqa: F811
) -> None:
    eid = played_to_its_bracket(desk)
    page = desk.client.get(f"/director/event/{eid}").text
    assert f'href="/director/print/bracket/{eid}.pdf"' in page
    standings = get_pdf(desk, f"/director/print/standings/{eid}.pdf")
    assert "Standings by elimination" in standings
    assert "Lives left" in standings and "Out in round" in standings
    assert "Bought back" in standings and "Prize pool: 60" in standings
    bracket = get_pdf(desk, f"/director/print/bracket/{eid}.pdf")
    assert "Final" in bracket


def test_the_director_prints_the_ratings_a_series_a_ruling_and_an_analysis(
    web: Web,  # noqa: F811
) -> None:
    web.store.deals.import_records(
        web.match, [("d1.deal", _as_this_match("D1-startline-claim.deal"))]
    )
    web.login()
    web.store.series.create("Winter", events=[web.event], points=[10, 6, 3])
    home = web.client.get("/director").text
    assert 'href="/director/print/ratings/all.pdf"' in home
    assert "Ratings" in get_pdf(web, "/director/print/ratings/all.pdf")
    series = web.store.series.all()[0]
    assert f'href="/director/print/series/{series.id}.pdf"' in home
    assert "Winter" in get_pdf(web, f"/director/print/series/{series.id}.pdf")
    match_page = web.client.get(f"/director/match/{web.match}").text
    assert f'href="/director/print/analysis/{web.match}.pdf"' in match_page
    assert "Anna" in get_pdf(web, f"/director/print/analysis/{web.match}.pdf")
    assert f'href="/director/print/ruling/{web.match}-1.pdf"' in match_page
    assert "Trick" in get_pdf(web, f"/director/print/ruling/{web.match}-1.pdf")
    for bad in ("ruling/1.pdf", "pairings/1.pdf", "ratings/2.pdf", "series/x.pdf"):
        assert web.client.get(f"/director/print/{bad}").status_code == 400, bad
