"""A match result kept on paper entered in the browser: the director's result box at each
table of the event's page, and "Enter the match result" on a table's phone, stored only once
the winner's opponent confirmed it on the same phone."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.store_support import dump
from tests.web.test_routes import Web, web  # noqa: F401


def _url(web: Web) -> str:  # noqa: F811
    return str(web.store.engine.url.render_as_string(hide_password=False))


def test_the_director_enters_a_tables_result_in_its_box(web: Web) -> None:  # noqa: F811
    web.login()
    html = web.page(f"/director/event/{web.event}")
    boxes = re.findall(r'action="/director/match/(\d+)/result"', html)
    assert str(web.match) in boxes and len(boxes) == 2  # one per table of round 1
    a, b = web.store.matches.state(web.match).players
    assert f"Result {a} : {b}" in html
    res = web.post(f"/director/match/{web.match}/result", score="7:3")
    assert res.status_code == 303
    assert res.headers["location"] == f"/director/event/{web.event}"  # the notice: a cookie
    match = web.store.matches.state(web.match)
    assert match.over and match.score == {a: 7, b: 3} and match.winner == a
    html = web.client.get(res.headers["location"]).text
    assert f"The match result is entered: {a} 7, {b} 3." in html
    # the box is gone once the match has its result; the table shows the score
    assert f'action="/director/match/{web.match}/result"' not in html
    assert "7:3" in html
    assert "web: director" in web.page("/director/audit")


def test_the_directors_box_refuses_a_score_that_does_not_end_the_match(web: Web) -> None:  # noqa: F811
    web.login()
    before = dump(_url(web))
    for score, words in (
        ("5:3", "nobody reached the match target of 7"),
        ("7:7", "only the winner reaches the match target"),
        ("seven", "is not a match result"),
    ):
        res = web.post(f"/director/match/{web.match}/result", score=score)
        assert res.status_code == 400 and words in res.text, score
    assert dump(_url(web)) == before


def test_a_refused_box_leads_back_to_the_event_page_it_was_on(web: Web) -> None:  # noqa: F811
    web.login()
    event = f"/director/event/{web.event}"
    res = web.client.post(
        f"/director/match/{web.match}/result",
        data={"score": "5:3", "csrf": web.csrf()},
        headers={"referer": f"http://testserver{event}"},
        follow_redirects=False,
    )
    # the refusal comes back on the event page it was sent from, the box refilled beside it
    assert res.status_code == 400 and "nobody reached the match target of 7" in res.text
    assert f'href="/director/event/{web.event}?lang=de"' in res.text  # (its language switch)
    assert 'value="5:3"' in res.text and 'aria-invalid="true"' in res.text
    # browsers tell this site (and no other) the page a form was sent from
    assert res.headers["referrer-policy"] == "same-origin"


def test_the_directors_box_needs_the_pin(web: Web) -> None:  # noqa: F811
    web.page("/director")
    res = web.post(f"/director/match/{web.match}/result", score="7:3")
    assert res.status_code == 403
    assert web.store.matches.state(web.match).deals == ()


def test_a_phone_enters_the_match_result_and_the_opponent_confirms(web: Web) -> None:  # noqa: F811
    html = web.page(web.table())
    assert "Enter the match result" in html and f'action="{web.table()}/result"' in html
    a, b = web.store.matches.state(web.match).players
    res = web.post(web.table() + "/result", first="4", second="7")
    assert res.status_code == 200
    assert f"{a}, do you agree?" in res.text  # the loser confirms, as for a quick deal
    assert f"{b} wins the match 7 : 4" in res.text  # the winner's score first
    assert web.store.matches.state(web.match).deals == ()
    asked = res
    res = web.agree(asked)
    assert res.status_code == 303
    match = web.store.matches.state(web.match)
    assert match.over and match.winner == b and match.score == {a: 4, b: 7}
    html = web.client.get(res.headers["location"]).text
    assert f"{b} wins the match" in html and "7 : 4, entered as the match result." in html
    assert "Enter the match result" not in html
    assert "match-result" not in html  # its two lines are no deals to list
    # the same confirmation sent again (a second phone, a double tap) does not count twice
    res = web.agree(asked)
    assert res.status_code == 303 and "recorded already" in web.page(res.headers["location"])
    assert len(web.store.matches.state(web.match).deals) == 2
    res = web.post(web.table() + "/result", first="4", second="7", agree="yes")
    assert res.status_code == 403 and "this match is over" in res.text


def test_a_confirmation_with_changed_values_is_refused_and_records_nothing(web: Web) -> None:  # noqa: F811
    web.page(web.table())
    a, b = web.store.matches.state(web.match).players
    asked = web.post(web.table() + "/result", first="4", second="7")
    before = dump(_url(web))
    for changed in ({"first": "7", "second": "4"}, {"second": "9"}):
        res = web.agree(asked, **changed)
        assert res.status_code == 400 and "not the one proposed (4:7)" in res.text
    fields = web.form(web.table())
    quick = web.post(
        web.table() + "/quick", winner=a, points="1", reason="claim", at=fields["at"], last=""
    )
    for changed in ({"points": "3"}, {"winner": b}, {"reason": "false-claim"}):
        res = web.agree(quick, **changed)
        assert res.status_code == 400 and "not the one proposed" in res.text
    res = web.agree(asked)  # the match result, withdrawn by the deal proposed after it
    assert res.status_code == 400 and "withdrawn" in res.text
    res = web.post(web.table() + "/agree", proposal="999", winner=a, points="1", reason="claim")
    assert res.status_code == 404
    assert dump(_url(web))["deals"] == before["deals"]
    assert web.agree(quick).status_code == 303
    assert web.store.matches.state(web.match).score == {a: 1, b: 0}


def test_a_stale_or_declined_proposal_records_nothing(web: Web) -> None:  # noqa: F811
    a, _ = web.store.matches.state(web.match).players
    fields = web.form(web.table())
    stale = web.post(
        web.table() + "/quick", winner=a, points="2", reason="claim", at=fields["at"], last=""
    )
    web.store.deals.quick_result(web.match, winner=a, points=1, reason="claim")  # meanwhile
    res = web.agree(stale)
    assert res.status_code == 400 and "changed since this result was proposed" in res.text
    fields = web.form(web.table())
    asked = web.post(
        web.table() + "/quick", winner=a, points="2", reason="claim", at=fields["at"], last=""
    )
    number = re.search(r'name="proposal" value="(\d+)"', asked.text)
    assert number is not None and f'action="{web.table()}/decline"' in asked.text
    res = web.post(web.table() + "/decline", proposal=number[1])
    assert "Nothing was recorded" in web.page(res.headers["location"])
    assert web.agree(asked).status_code == 400
    assert len(web.store.matches.state(web.match).deals) == 1


def test_a_phone_is_told_why_a_match_result_is_refused(web: Web) -> None:  # noqa: F811
    web.page(web.table())
    before = dump(_url(web))
    res = web.post(web.table() + "/result", first="6", second="3")
    assert res.status_code == 400 and "nobody reached the match target of 7" in res.text
    res = web.post(web.table() + "/result", first="", second="3")
    assert res.status_code == 400 and "is not a match result" in res.text
    assert dump(_url(web)) == before
    other = web.table().replace(f"/t/{web.match}/", f"/t/{web.match + 1}/")
    assert web.post(other + "/result", first="7", second="0").status_code == 404


def test_a_match_result_on_a_german_phone(web: Web) -> None:  # noqa: F811
    html = web.page(web.table() + "?lang=de")
    assert "Ergebnis des Bummerls eintragen" in html
    a, b = web.store.matches.state(web.match).players
    res = web.post(web.table() + "/result", first="7", second="2")
    assert f"<h1>{b}, einverstanden?</h1>" in res.text
    assert f"{a} gewinnt das Bummerl 7 : 2" in res.text
    res = web.agree(res)
    html = web.client.get(res.headers["location"]).text
    assert "Das Ergebnis des Bummerls ist eingetragen" in html
