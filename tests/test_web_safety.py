"""tally serve against what anyone on a club's shared Wi-Fi could send (issue 21): numbers
written in other scripts, huge bodies, long inputs echoed back; every answer a page or a
plain refusal, never a server error."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.store_support import db_url  # noqa: F401
from tests.test_web_routes import PIN, Web, web  # noqa: F401

#: ASCII-looking numbers that are not ASCII digits: superscript two, fullwidth one, Arabic-Indic one
ODD_DIGITS = ("²", "１", "١", "1²")


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_a_number_in_another_script_is_not_found_on_every_route_that_takes_one(
        web: Web, digit: str) -> None:
    secret = web.app.state.site.keys.table_secret(web.match)
    web.login()
    for path in (f"/standings/{digit}", f"/standings/{digit}/live", f"/t/{digit}/{secret}",
                 f"/director/event/{digit}", f"/director/match/{digit}",
                 f"/director/print/standings/{digit}", f"/director/print/pairings/{web.event}-{digit}"):
        res = web.client.get(path)
        assert res.status_code in (400, 404), (path, res.status_code)
    for path in (f"/director/event/{digit}/round", f"/director/deal/{digit}/delete",
                 f"/director/audit/{digit}/reverse", f"/t/{digit}/{secret}/undo"):
        res = web.post(path)
        assert res.status_code in (400, 404), (path, res.status_code)


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_a_number_in_another_script_in_a_form_is_refused_not_read(web: Web, digit: str) -> None:
    web.login()
    res = web.post(f"/director/event/{web.event}/round", round=digit)
    assert res.status_code == 400
    assert web.store.match_state(web.match).deals == ()
    fields = web.form(web.table())
    res = web.post(web.table() + "/quick", winner="Anna", points=digit, reason="claim",
                   agree="yes", at=fields["at"], last=fields["last"])
    assert res.status_code in (303, 400)
    deals = web.store.match_state(web.match).deals
    assert all(d.game_points != 1 or digit != "１" for d in deals)


def test_a_twenty_megabyte_body_is_refused_within_a_second(web: Web) -> None:
    start = time.perf_counter()
    res = web.client.post(f"/t/{web.match}/x/play", content=b"&" * (20 * 1024 * 1024),
                          headers={"content-type": "application/x-www-form-urlencoded"})
    assert res.status_code == 413 and time.perf_counter() - start < 1.0


def test_a_body_streamed_without_its_length_is_cut_off_at_the_limit(web: Web) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(400):
            yield b"a=" + b"x" * 65_536 + b"&"

    start = time.perf_counter()
    res = web.client.post(web.table() + "/play", content=chunks(),
                          headers={"content-type": "application/x-www-form-urlencoded"})
    assert res.status_code == 413 and time.perf_counter() - start < 2.0


def test_static_files_and_json_are_not_sniffed(web: Web) -> None:
    for path in ("/static/tally.css", f"/standings/{web.event}/live"):
        res = web.client.get(path)
        assert res.status_code == 200, path
        assert res.headers["x-content-type-options"] == "nosniff", path


def test_a_long_input_is_not_echoed_whole(web: Web) -> None:
    fields = web.form(web.table())
    res = web.post(web.table() + "/start", turn_up="Q" * 60_000, at=fields["at"],
                   last=fields["last"])
    assert res.status_code == 400 and len(res.text) < 20_000
    assert "QQQQ" in res.text
