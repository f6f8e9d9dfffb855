"""The director's event form explains every tiebreak and sets what a bye or a forfeit counts
for in the Buchholz tiebreaks (TestClient)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_director import _create, _event_id, desk  # noqa: F401
from tests.web.test_routes import Web


def test_the_directors_form_explains_every_tiebreak_and_sets_the_rule(desk: Web) -> None:  # noqa: F811
    from tally.events.tiebreaks import TIEBREAKS

    web = desk
    page = web.page("/director/new")
    assert all(f"<dt>{name}</dt>" in page for name in TIEBREAKS)
    assert "points won early count more" in page and 'name="unplayed"' in page
    assert "a virtual opponent (FIDE)" in page and "count as drawn" in page
    res = _create(
        web,
        name="Open",
        kind="swiss",
        rounds="3",
        unplayed="virtual-opponent",
        tiebreaks="buchholz-cut-1, progressive",
        players="Anna B\nbert\nCarla",
    )
    ev = web.store.events.get(_event_id(res))
    assert ev.unplayed == "virtual-opponent"
    assert ev.tiebreaks == ("buchholz-cut-1", "progressive")
    res = _create(
        web,
        name="Evening",
        kind="club",
        unplayed="virtual-opponent",
        tiebreaks="progressive",
        players="Anna B\nbert",
    )
    assert res.status_code == 400 and "progressive score adds up the rounds" in res.text
