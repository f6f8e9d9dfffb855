"""A phone that sends a tap again (its first answer was lost to a Wi-Fi drop) is told "already
recorded", and the tap counts once: cards, turn-ups, undo, a quick result, a match result from
the phone and from the director's result box; a tap made while the one before it waited is
checked from where that one left the match."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_routes import Web, _client
from tests.web.test_table import _notice


@pytest.fixture
def web(db_url: str) -> Iterator[Web]:
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app
    from tests.web.test_routes import PIN

    store = open_store(db_url, scorer="tester")
    for name in ("Anna", "Bert"):
        store.players.add(name)
    match = store.matches.start("Anna", "Bert", first_dealer="Anna")
    set_pin(store, PIN)
    app = create_app(store)
    try:
        yield Web(_client(app), app, store, 0, match.id)
    finally:
        store.close()


def _actions(web: Web) -> int:
    deal = web.store.deals.current(web.match)
    return int(web.store.deals.view(deal).actions)


def test_a_card_sent_twice_counts_once_and_the_phone_is_told_already_recorded(web: Web) -> None:
    fields = web.form(web.table())
    first = web.post(web.table() + "/start", turn_up="QH", at=fields["at"], tap="turn-up-tap-01")
    again = web.post(web.table() + "/start", turn_up="QH", at=fields["at"], tap="turn-up-tap-01")
    assert (first.status_code, again.status_code) == (303, 303)
    assert _notice(web, again) == "Already recorded: this tap counts once."
    assert len(web.store.matches.state(web.match).deals) == 1
    for _ in range(2):
        res = web.tap("KS", tap="card-tap-00001")
        assert res.status_code == 303
    assert _notice(web, res) == "Already recorded: this tap counts once."
    assert _actions(web) == 1


def test_taps_made_offline_one_after_another_are_stored_in_order(web: Web) -> None:
    fields = web.form(web.table())
    web.post(web.table() + "/start", turn_up="QH", at=fields["at"], tap="turn-up-tap-01")
    page = web.form(web.table())  # the page as the phone had it when the Wi-Fi dropped
    taps = [("KS", "tap-a-000000", ""), ("AS", "tap-b-000000", "tap-a-000000")]
    for token, tap, after in taps:
        sent = {"at": page["at"], "last": page["last"], "tap": tap, "after": after}
        res = web.post(web.table() + "/play", token=token, **sent)
        assert res.status_code == 303, res.text
    assert _notice(web, res) == "Anna played A♠. Anna won the trick."
    assert _actions(web) == 2


def test_a_waiting_tap_the_other_phone_beat_is_refused_with_its_reason(web: Web) -> None:
    fields = web.form(web.table())
    web.post(web.table() + "/start", turn_up="QH", at=fields["at"])
    page = web.form(web.table())
    web.tap("KS")  # the other phone
    res = web.post(
        web.table() + "/play", token="KH", at=page["at"], last=page["last"], tap="late-tap-0001"
    )
    assert res.status_code == 409
    assert "Someone else recorded at this table meanwhile" in res.text
    assert _actions(web) == 1


def test_the_agreement_that_ended_the_match_sent_again_is_already_recorded_not_refused(
    web: Web,
) -> None:
    web.page(web.table())
    asked = web.post(web.table() + "/result", first="7", second="3")
    assert web.agree(asked).status_code == 303
    res = web.agree(asked)  # the phone's answer was lost: the queue sends the agreement again
    assert res.status_code == 303, res.text
    assert _notice(web, res) == "This result is recorded already."
    assert len(web.store.matches.state(web.match).deals) == 2


def test_the_directors_result_box_sent_twice_enters_the_result_once(web: Web) -> None:
    web.login()
    path = f"/director/match/{web.match}/result"
    assert web.post(path, score="7:3", tap="box-tap-000001").status_code == 303
    again = web.post(path, score="7:3", tap="box-tap-000001")
    assert again.status_code == 303
    assert _notice(web, again) == "Already entered: this result counts once."
    assert len(web.store.matches.state(web.match).deals) == 2


def test_a_tap_id_that_is_not_one_is_refused_and_nothing_stored(web: Web) -> None:
    fields = web.form(web.table())
    res = web.post(web.table() + "/start", turn_up="QH", at=fields["at"], tap="<b>x</b>")
    assert res.status_code == 400
    assert "is not a tap" in res.text
    assert web.store.matches.state(web.match).deals == ()


def test_a_form_sent_again_without_script_counts_once_and_another_button_is_checked(
    web: Web,
) -> None:
    """Without the page's script: the browser's Back and the same card again is "already
    recorded"; Back and another card is refused as the deal moved on (it did)."""
    web.post(web.table() + "/start", turn_up="QH", at=web.form(web.table())["at"])
    page = web.form(web.table())
    sent = {"at": page["at"], "last": page["last"], "seen": page["seen"]}
    assert web.post(web.table() + "/play", token="KS", **sent).status_code == 303
    again = web.post(web.table() + "/play", token="KS", **sent)
    assert _notice(web, again) == "Already recorded: this tap counts once."
    other = web.post(web.table() + "/play", token="KH", **sent)
    assert other.status_code == 409
    assert _actions(web) == 1


def test_the_waiting_words_are_in_the_pages_language(web: Web) -> None:
    english = web.page(web.table())
    german = web.page(web.table() + "?lang=de")
    assert 'data-many="No connection: {n} taps waiting, they will be sent"' in english
    assert 'data-one="No connection: {n} tap waiting, it will be sent"' in english
    assert 'data-many="Keine Verbindung: {n} Eingaben warten, sie werden gesendet"' in german
    assert 'data-takeback="{tap} zurücknehmen (noch nicht gesendet)"' in german
