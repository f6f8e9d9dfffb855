"""A table's address belongs to one match for ever, and a match that is over takes nothing
from its table (issue 32): an address of withdrawn pairings says so and opens no other
match; a forfeited match's phone says why nothing more is recorded; a tap racing an undo
never reopens a finished match; a best-of-3 pairing decided 2:0 closes its third match
everywhere and names its champion on the director's page, the phones and the wall."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.store.test_best_of import final_of_two
from tests.store.test_knockouts import win
from tests.store.test_match_over import at_once, on_the_brink
from tests.web.test_routes import HOSTILE, PIN, Web, _client, _start
from tests.web.test_routes import web as web  # the fixture

WITHDRAWN = "pairing was withdrawn (or its match deleted): ask the director for the new code"


def addresses(web: Web, event: int, number: int) -> dict[int, str]:
    """The table addresses of a round's matches, as the director's page shows them."""
    (rnd,) = web.store.events.rounds(event, number)
    return {m.match_id: web.table(m.match_id) for p in rnd.pairings for m in p.matches}


def test_an_address_of_withdrawn_pairings_opens_no_match_of_another_event(web: Web) -> None:
    old = addresses(web, web.event, 1)
    web.login()
    res = web.post(f"/director/event/{web.event}/unpair", round="1")
    assert res.status_code == 303
    other = web.store.events.create(
        "Second cup", kind="round-robin", players=["Anna", "Bert", "Dora"]
    )
    web.store.events.start_round(other.id, 1)
    new = addresses(web, other.id, 1)
    assert not set(new) & set(old)  # a match's number is never given again
    for mid, address in old.items():
        res = web.client.get(address)
        assert res.status_code == 410 and WITHDRAWN in res.text, mid
        fields = {"at": f"{mid}.0:0", "last": "", "turn_up": "QH"}
        assert web.post(address + "/start", **fields).status_code == 410
    for mid in new:
        assert web.store.matches.state(mid).deals == ()
        assert web.client.get(new[mid]).status_code == 200
    german = web.client.get(next(iter(old.values())) + "?lang=de").text
    assert "die Paarung dieses Tisches wurde zurückgenommen" in german


def test_an_address_of_withdrawn_pairings_opens_nothing_after_the_round_is_paired_again(
    web: Web,
) -> None:
    old = addresses(web, web.event, 1)
    web.login()
    assert web.post(f"/director/event/{web.event}/unpair", round="1").status_code == 303
    web.store.events.start_round(web.event, 1)
    new = addresses(web, web.event, 1)
    assert not set(new) & set(old)
    for address in old.values():
        assert WITHDRAWN in web.client.get(address).text
    desk = web.page(f"/director/event/{web.event}")
    for mid, address in new.items():
        assert address in desk and web.client.get(address).status_code == 200, mid


def test_a_match_a_withdrawal_ended_refuses_its_tables_tap_and_says_why(web: Web) -> None:
    _start(web)
    before = web.store.matches.state(web.match)
    fields = web.form(web.table())
    web.store.events.withdraw(web.event, "Dora")
    html = web.page(web.table())
    # (Dora withdrew before half of her games: struck out, the match counts for nobody)
    assert "This match is over: Dora withdrew, so it does not count" in html
    assert 'name="token"' not in html and "/undo" not in html
    res = web.post(web.table() + "/play", token="KS", at=fields["at"], last=fields["last"])
    assert res.status_code == 403 and "Dora withdrew, so it does not count" in res.text
    assert web.store.matches.state(web.match) == before
    wall = web.page(f"/standings/{web.event}")
    board = next(
        b
        for b in re.findall(r'<li class="item board (\w+)"[^>]*>(.*?)</li>', wall)
        if "Dora" in b[1]
    )
    assert board[0] == "annulled"  # shown as over, not playing


def race_over_http(web: Web) -> tuple[int, dict[str, Any]]:
    """Two phones, each its own browser, at a match one tap from its end: one taps the
    claim that ends it, the other at once takes that claim back (posting the position
    after it). The match and each phone's response."""
    mid, seen = on_the_brink(web.store)
    phones = [_client(web.app), _client(web.app)]
    tokens = []
    for phone in phones:
        html = phone.get(web.table(mid)).text
        tokens.append(re.findall(r'name="csrf" value="([^"]*)"', html)[0])
    address = web.table(mid)
    after = f"{mid}.{seen.number}:{seen.actions + 1}"

    def post(k: int, path: str, **data: str) -> Any:
        data["csrf"] = tokens[k]
        return lambda: phones[k].post(address + path, data=data, follow_redirects=False)

    return mid, at_once(
        {
            "tap": post(0, "/play", token="66", at=str(seen), last=seen.last or ""),
            "undo": post(1, "/undo", at=after, last="66"),
        }
    )


def test_an_undo_racing_the_last_tap_is_refused_over_http(web: Web) -> None:
    """Exactly one of the two is stored, the match stays over, the other phone is told it
    was refused."""
    for _ in range(6):
        mid, told = race_over_http(web)
        codes = sorted(res.status_code for res in told.values())
        assert codes[0] == 303 and codes[1] in (403, 409), told
        refused = next(res for res in told.values() if res.status_code != 303)
        assert "this match is over" in refused.text or "Nothing was recorded" in refused.text
        assert web.store.matches.state(mid).over


@pytest.fixture
def final(db_url: str) -> Iterator[tuple[Web, Any, Any]]:
    """A knockout's final best of 3, decided 2:0 by its first player; the director logged
    in."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    store = open_store(db_url, scorer="tester")
    ev, rnd = final_of_two(store)
    (table,) = rnd.pairings
    for m in table.matches[:2]:
        win(store, m.match_id, table.first)
    set_pin(store, PIN)
    web = Web(_client(create_app(store)), None, store, ev.id, table.matches[2].match_id)
    web.app = web.client.app
    web.login()
    try:
        yield web, ev, table
    finally:
        store.close()


def test_a_best_of_three_decided_two_nil_closes_its_third_match_everywhere(
    final: tuple[Web, Any, Any],
) -> None:
    web, ev, table = final
    third = table.matches[2].match_id
    phone = web.page(web.table(third))
    said = f"This match is not needed: {table.first} won the pairing 2:0 (best of 3)"
    assert said in phone and 'name="turn_up"' not in phone
    assert f"Champion: {table.first}" in phone
    res = web.post(web.table(third) + "/result", first="0", second="3", agree="yes")
    assert res.status_code == 403 and "not needed" in res.text
    res = web.post(f"/director/match/{third}/result", score="0:3")
    assert res.status_code == 400 and "not needed" in res.text
    desk = web.page(f"/director/event/{ev.id}")
    assert f'action="/director/match/{third}/result"' not in desk
    assert "not needed" in desk and f"Champion: {table.first}" in desk
    assert '<strong class="series" title="matches won">2:0</strong>' in desk  # the series
    assert web.store.matches.state(third).deals == ()
    wall = web.page(f"/standings/{ev.id}")
    assert f"Champion: {table.first}" in wall
    assert '<span class="res" title="matches won">2<i>:</i>0</span>' in wall
    assert "3<i>:</i>0" not in wall  # a match's game points are not the pairing's score
    second = web.page(web.table(table.matches[1].match_id))
    assert f"{table.first} won the pairing 2:0 (best of 3)" in second


def test_a_match_not_needed_is_refused_on_the_command_line(final: tuple[Web, Any, Any]) -> None:
    from typer.testing import CliRunner

    from tally.cli import app

    web, _ev, table = final
    third = str(table.matches[2].match_id)
    url = str(web.store.engine.url.render_as_string(hide_password=False))
    result = CliRunner().invoke(app, ["match", "result", third, "3:0", "--db", url])
    assert result.exit_code == 2 and "this match is not needed" in result.output
    assert "Traceback" not in result.output


def test_a_match_forfeited_by_a_withdrawal_refuses_its_tables_tap_and_the_wall_says_so(
    web: Web,
) -> None:
    """The issue's case: a Swiss table whose player withdrew shows a forfeit, its phone
    says why nothing more is recorded (no turn-up to tap), a tap sent anyway stores
    nothing, and the wall shows the table as over, not as playing."""
    store = web.store
    ev = store.events.create(
        "Open", kind="swiss", rounds=3, players=["Anna", "Bert", "Dora", HOSTILE]
    )
    (table,) = [
        p for p in store.events.start_round(ev.id, 1).pairings if "Anna" in (p.first, p.second)
    ]
    mid = table.matches[0].match_id
    other = table.second if table.first == "Anna" else table.first
    address = web.table(mid)
    fields = web.form(address)
    store.events.withdraw(ev.id, "Anna")
    html = web.page(address)
    assert f"This match is over: {other} wins it by forfeit (Anna withdrew)" in html
    assert 'name="turn_up"' not in html and "/undo" not in html
    res = web.post(address + "/start", turn_up="QH", at=fields["at"], last=fields["last"])
    assert res.status_code == 403 and "by forfeit" in res.text
    assert store.matches.state(mid).deals == ()
    wall = web.page(f"/standings/{ev.id}")
    boards = re.findall(r'<li class="item board (\w+)"[^>]*>(.*?)</li>', wall)
    assert [status for status, board in boards if "Anna" in board] == ["forfeit"]
