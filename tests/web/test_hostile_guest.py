# ruff: noqa: F811  (the web fixtures are imported, then taken by each test)
"""tally serve against a hostile guest on the club's Wi-Fi, the second round (issue 36):
numbers in other scripts and out of range in the prize form, long inputs echoed back, a batch
of unknown names, PIN guessing from many addresses, and sessions told apart."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_director import desk  # noqa: F401
from tests.web.test_prizes import knockout
from tests.web.test_routes import Web

# --- numbers: the one ASCII reader, the prize form included ---------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"entry_fee": "1１"},
        {"entry_fee": "1e999999999"},
        {"entry_fee": "sNaN"},
        {"entry_fee": "Infinity"},
        {"buy_back_fee": "NaN"},
        {"round_to": "1e-999999999"},
        {"prizes": "5١,30"},
        {"prizes": "sNaN,30"},
        {"prizes": "1e999999999"},
        {"buy_back_until": "²"},
    ],
)
def test_a_number_the_prize_form_cannot_read_is_refused_and_nothing_is_stored(
    desk: Web, fields: dict[str, str]
) -> None:
    eid = knockout(desk)
    before = desk.store.knockouts.settings(eid)
    res = desk.post(f"/director/event/{eid}/prizes", **fields)
    assert res.status_code == 400, res.text[:500]
    assert desk.store.knockouts.settings(eid) == before


def test_the_prize_form_still_takes_amounts_with_a_decimal_comma(desk: Web) -> None:
    eid = knockout(desk)
    res = desk.post(f"/director/event/{eid}/prizes", entry_fee="7,50", prizes="50,30,20")
    assert res.status_code == 303
    page = desk.client.get(res.headers["location"]).text
    assert "Prize pool: 45 (6 entries at 7.50, 0 buy-back(s))." in page


# --- echoes: at most about a hundred characters of an input --------------------------------


def test_the_new_event_form_does_not_echo_long_inputs(desk: Web) -> None:
    long = "W" * 6_000  # ten fields of it: 60,000 characters, under the 64 KiB of a body
    keys = ("name", "date", "rounds", "points", "tiebreaks", "seed", "lives", "final", "groups")
    fields = {key: long for key in keys}
    res = desk.post("/director/new", kind="swiss", players=long, **fields)
    assert res.status_code == 400
    assert len(res.text) < 40_000 and "W" * 200 not in res.text


def test_six_thousand_unknown_names_answer_quickly_and_briefly(desk: Web) -> None:
    eid = desk.store.events.create("Thursday club", kind="club", players=["Anna Berger"]).id
    names = "\n".join(f"Zz{n}" for n in range(6_000))
    start = time.perf_counter()
    res = desk.post(f"/director/event/{eid}/players", players=names)
    assert time.perf_counter() - start < 3.0
    assert res.status_code == 400 and len(res.text) < 40_000
    assert len(desk.store.events.get(eid).players) == 1
