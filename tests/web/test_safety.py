# ruff: noqa: F811  (the web fixture is imported, then taken by each test)
"""tally serve against what anyone on a club's shared Wi-Fi could send (issue 21): numbers
written in other scripts, huge bodies, long inputs echoed back; every answer a page or a
plain refusal, never a server error."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.web.test_routes import PIN, Web, web  # noqa: F401

#: ASCII-looking numbers that are not ASCII digits: superscript two, fullwidth one, Arabic-Indic one
ODD_DIGITS = ("²", "１", "١", "1²")


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_a_number_in_another_script_is_not_found_on_every_route_that_takes_one(
    web: Web, digit: str
) -> None:
    secret = web.app.state.site.keys.table_secret(web.match)
    web.login()
    for path in (
        f"/standings/{digit}",
        f"/standings/{digit}/live",
        f"/t/{digit}/{secret}",
        f"/director/event/{digit}",
        f"/director/match/{digit}",
        f"/director/print/standings/{digit}",
        f"/director/print/pairings/{web.event}-{digit}",
        f"/director/event/{web.event}/round/{digit}",
        f"/director/deal/{digit}",
        f"/director/audit/{digit}",
    ):
        res = web.client.get(path)
        assert res.status_code in (400, 404), (path, res.status_code)
    for path in (
        f"/director/event/{digit}/round",
        f"/director/deal/{digit}/delete",
        f"/director/audit/{digit}/reverse",
        f"/t/{digit}/{secret}/undo",
    ):
        res = web.post(path)
        assert res.status_code in (400, 404), (path, res.status_code)


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_a_number_in_another_script_in_a_form_is_refused_not_read(web: Web, digit: str) -> None:
    web.login()
    res = web.post(f"/director/event/{web.event}/round", round=digit)
    assert res.status_code == 400
    res = web.post(f"/director/match/{web.match}/result", score=f"7:{digit}")
    assert res.status_code == 400

    res = web.post("/director/new", name="Cup", kind="swiss", rounds=digit, players="Anna")
    assert res.status_code == 400 and len(web.store.events.all()) == 1
    assert web.store.matches.state(web.match).deals == ()
    fields = web.form(web.table())
    res = web.post(
        web.table() + "/quick",
        winner="Anna",
        points=digit,
        reason="claim",
        agree="yes",
        at=fields["at"],
        last=fields["last"],
    )
    assert res.status_code in (303, 400)
    deals = web.store.matches.state(web.match).deals
    assert all(d.game_points != 1 or digit != "１" for d in deals)


def test_a_twenty_megabyte_body_is_refused_within_a_second(web: Web) -> None:
    start = time.perf_counter()
    res = web.client.post(
        f"/t/{web.match}/x/play",
        content=b"&" * (20 * 1024 * 1024),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert res.status_code == 413 and time.perf_counter() - start < 1.0


def test_a_body_streamed_without_its_length_is_cut_off_at_the_limit(web: Web) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(400):
            yield b"a=" + b"x" * 65_536 + b"&"

    start = time.perf_counter()
    res = web.client.post(
        web.table() + "/play",
        content=chunks(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert res.status_code == 413 and time.perf_counter() - start < 2.0


def test_static_files_and_json_are_not_sniffed(web: Web) -> None:
    for path in ("/static/tally.css", f"/standings/{web.event}/live"):
        res = web.client.get(path)
        assert res.status_code == 200, path
        assert res.headers["x-content-type-options"] == "nosniff", path


def test_a_long_input_is_not_echoed_whole(web: Web) -> None:
    fields = web.form(web.table())
    res = web.post(
        web.table() + "/start", turn_up="Q" * 60_000, at=fields["at"], last=fields["last"]
    )
    assert res.status_code == 400 and len(res.text) < 20_000
    assert "QQQQ" in res.text


# --- the director's PIN, counted in the database before it is hashed ------------------------


def test_parallel_pin_guesses_get_ten_tries_in_all(web: Web) -> None:
    """Forty guesses from twenty threads at once: ten are counted and checked, the rest are
    refused before the PIN is hashed, on SQLite and PostgreSQL alike."""
    import threading

    from tally.web.access import LOCKOUT_ATTEMPTS, count_attempt

    allowed: list[bool] = []
    start = threading.Barrier(20)

    def guess() -> None:
        start.wait()
        for _ in range(2):
            allowed.append(count_attempt(web.store, "10.0.0.7"))

    threads = [threading.Thread(target=guess) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(allowed) == 40 and allowed.count(True) == LOCKOUT_ATTEMPTS


def test_the_lockout_ends_with_its_window_and_comes_back_with_the_next(web: Web) -> None:
    from tally.web.access import LOCKOUT_ATTEMPTS, LOCKOUT_SECONDS, count_attempt

    t = 1_000_000.0
    assert all(count_attempt(web.store, "a", t + n) for n in range(LOCKOUT_ATTEMPTS))
    assert not count_attempt(web.store, "a", t + LOCKOUT_SECONDS - 1)
    assert count_attempt(web.store, "b", t + 1)  # another address has its own tries
    later = t + LOCKOUT_SECONDS  # a new window: ten tries again, and then locked again
    assert all(count_attempt(web.store, "a", later + n) for n in range(LOCKOUT_ATTEMPTS))
    assert not count_attempt(web.store, "a", later + LOCKOUT_ATTEMPTS)


def test_wrong_pins_over_http_lock_out_even_the_right_one(web: Web) -> None:
    web.page("/director")
    for _ in range(10):
        assert web.post("/director/login", pin="000000").status_code == 403
    res = web.post("/director/login", pin=PIN)
    assert res.status_code == 403 and "too many wrong PINs" in res.text
    assert web.client.get(f"/director/event/{web.event}").status_code == 403


# --- sessions that really end ----------------------------------------------------------------


def test_a_session_cookie_replayed_after_logout_opens_nothing(web: Web) -> None:
    web.login()
    kept = dict(web.client.cookies)
    assert web.client.get(f"/director/event/{web.event}").status_code == 200
    assert web.post("/director/logout").status_code == 303
    web.client.cookies.update(kept)
    assert web.client.get(f"/director/event/{web.event}").status_code == 403


def test_a_session_cookie_replayed_after_a_new_pin_opens_nothing(web: Web) -> None:
    from tally.web.access import set_pin

    web.login()
    kept = dict(web.client.cookies)
    set_pin(web.store, "13579")  # what tally serve --pin does when it starts again
    web.client.cookies.update(kept)
    assert web.client.get(f"/director/event/{web.event}").status_code == 403


def test_the_csrf_token_is_bound_to_the_session(web: Web) -> None:
    """A token made for one browser's nonce, or for no session, does not pass for a
    director's session: a bare copy of the cookie is no token."""
    web.login()
    nonce = web.client.cookies.get("tally_csrf")
    for token in (nonce, web.app.state.site.keys.csrf(nonce, None)):
        res = web.post(f"/director/event/{web.event}/round", round="1", csrf=token)
        assert res.status_code == 403


def test_cookies_are_secure_when_the_server_is_reached_over_https(web: Web) -> None:
    from starlette.testclient import TestClient

    client = TestClient(web.app, base_url="https://testserver")
    res = client.get("/director")
    assert "secure" in res.headers["set-cookie"].lower()
    assert "secure" not in web.client.get("/director").headers["set-cookie"].lower()


# --- a finished match is the director's --------------------------------------------------------


def _finish_by_a_recorded_deal(web: Web) -> None:
    from tests.store_support import DEALER_CLAIMS, lines

    for _ in range(2):
        web.store.deals.quick_result(
            web.match, winner="Anna", points=3
        )  # deal 3: Anna deals, claims
    view = web.store.deals.start(web.match, DEALER_CLAIMS[0])
    for line in lines(DEALER_CLAIMS):
        web.store.deals.play(view.id, line)
    assert web.store.matches.state(web.match).over


def test_a_finished_match_refuses_every_change_from_its_table(web: Web) -> None:
    _finish_by_a_recorded_deal(web)
    before = web.store.matches.state(web.match)
    html = web.page(web.table())
    assert "/undo" not in html
    fields = web.form(web.table())
    for path, data in (
        ("/undo", {}),
        ("/play", {"token": "66"}),
        ("/start", {"turn_up": "QH"}),
        ("/quick", {"winner": "Anna", "points": "1", "agree": "yes"}),
        ("/result", {"first": "7", "second": "0", "agree": "yes"}),
    ):
        res = web.post(
            web.table() + path, at=fields.get("at", ""), last=fields.get("last", ""), **data
        )
        assert res.status_code == 403 and "this match is over" in res.text, path
    assert web.store.matches.state(web.match) == before


def test_the_director_reopens_a_finished_match_for_its_table(web: Web) -> None:
    _finish_by_a_recorded_deal(web)
    web.login()
    assert web.post(f"/director/match/{web.match}/reopen", on="yes").status_code == 303
    fields = web.form(web.table())
    res = web.post(web.table() + "/undo", at=fields["at"], last=fields["last"])
    assert res.status_code == 303
    assert not web.store.matches.state(web.match).over


def test_new_table_keys_make_every_old_table_address_fail(web: Web) -> None:
    old = web.table()
    assert web.client.get(old).status_code == 200
    web.login()
    assert web.post("/director/keys").status_code == 303
    res = web.client.get(old)
    assert res.status_code == 410  # gone, and says so
    assert "address was replaced by a new one: ask the director for the new code" in res.text
    assert web.client.get(web.table()).status_code == 200  # the new address works


# --- notices are shown once, never carried in the address --------------------------------------


def test_a_notice_is_shown_once_and_a_reload_does_not_repeat_it(web: Web) -> None:
    web.login()
    res = web.post(f"/director/match/{web.match}/referee", on="yes")
    assert res.status_code == 303 and "?" not in res.headers["location"]
    first = web.client.get(res.headers["location"]).text
    assert "Referee mode on." in first
    assert "Referee mode on." not in web.client.get(res.headers["location"]).text


def test_text_in_the_address_is_not_shown_as_a_notice(web: Web) -> None:
    web.login()
    for path in ("/director", f"/director/event/{web.event}", web.table()):
        html = web.client.get(path + "?said=Send+the+PIN+to+evil%40example.com").text
        assert "evil@example.com" not in html, path


def test_a_long_address_is_not_echoed_in_its_error_page(web: Web) -> None:
    res = web.client.get("/t/" + "9" * 100 + "/" + "x" * 30_000)
    assert res.status_code == 404 and len(res.text) < 10_000


def test_a_pin_is_stored_with_two_hundred_thousand_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # the other web tests hash with fewer rounds (tests/web/conftest.py); the real count,
    # and a PIN stored with any count still checks
    monkeypatch.undo()
    from tally.web.access import hash_pin, pin_matches

    stored = hash_pin("482913", b"0123456789abcdef")
    assert stored.startswith("pbkdf2$200000$")
    assert pin_matches("482913", stored) and not pin_matches("482914", stored)
    assert pin_matches("482913", stored.replace("$200000$", "$1000$", 1)) is False
