"""The refusals of events, sheets, series, prizes, names and the web speak German on a German
laptop (``LANG=de_AT.UTF-8``) or to a German browser: not one English word is left in them,
while ``str()`` of the same error stays the English it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.i18n.german_support import english_words, refusal_in_german

NAMES = ("Anna", "Bert", "Carla", "Dora")


@pytest.fixture
def club(db_url: str) -> Iterator[str]:
    """A club of four players, a round robin "Liga" (event 1), a knockout "Cup" (event 2)
    and match 1 with deal 1 started and not finished."""
    from tally.store import open_store

    store = open_store(db_url, scorer="test")
    for name in NAMES:
        store.players.add(name)
    store.events.create("Liga", kind="round-robin", players=list(NAMES))
    store.events.create("Cup", kind="knockout", players=list(NAMES), lives=1, draw_seed="2026")
    match = store.matches.start("Anna", "Bert", first_dealer="Anna")
    store.deals.start(match.id, "QH")
    store.close()
    yield db_url


#: (what is refused, the command, a German word the refusal must hold)
REFUSALS = [
    ("a name nobody has", "player show Ana", "vielleicht Anna"),
    ("a deal number typed as text", "deal play x KS", "Bummerlnummer"),
    ("a ruling of a deal still played", "print ruling 1.1", "wird noch gespielt"),
    ("a score sheet of no match", "print scoresheet", "leeres Formular"),
    ("a PDF into a missing folder", "print pairings Liga -o /nowhere/x.pdf", "Ordner"),
    ("a series' points rising", "series create S --events 1 --points 10,20", "Platz 2"),
    ("a series' points not a number", "series create S --events 1 --points x", "keine Zahl"),
    ("a round robin of one", "event create X Anna --kind round-robin", "mindestens 2"),
    ("a Swiss event of no rounds", "event create X Anna Bert --kind swiss --rounds 0", "Runden"),
    (
        "more groups than players allow",
        "event create X Anna Bert Carla Dora --kind groups --groups 3 --advance 1",
        "Gruppen",
    ),
    ("prize shares over the pool", "event prizes Cup --entry-fee 10 --prizes 60,50", "Preisgeld"),
    (
        "more places paid than players",
        "event prizes Cup --entry-fee 10 --prizes 40,30,10,10,10",
        "nehmen teil",
    ),
    ("a share of nothing", "event prizes Cup --entry-fee 10 --prizes 0,50", "Nachkommastellen"),
]


@pytest.mark.parametrize(("case", "command", "german"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_refusal_of_the_command_line_is_german(
    club: str, case: str, command: str, german: str
) -> None:
    said = refusal_in_german(club, *command.split(), names=NAMES)
    assert german in said, (case, said)


def test_the_same_refusals_stay_english_in_english(club: str) -> None:
    from typer.testing import CliRunner

    from tally.cli import app

    result = CliRunner().invoke(
        app,
        ["series", "create", "S", "--events", "1", "--points", "10,20"],
        env={"TALLY_DB": club, "TALLY_SCORER": "test", "LANG": "C", "LC_ALL": ""},
    )
    assert result.exit_code in (1, 2)
    assert "place 2 cannot earn more points (20) than place 1 (10)" in result.stderr


def _text(page: str) -> str:
    """What a page shows: its HTML without tags, scripts and styles."""
    import html

    page = re.sub(r"(?s)<(script|style)[^>]*>.*?</\1>", " ", page)
    shown = html.unescape(re.sub(r"(?s)<[^>]+>", " ", page))
    return re.sub(r"\S*/\S*", " ", shown)  # an address: a table's secret is any letters


@pytest.fixture
def director(club: str) -> Iterator[Any]:
    """The director logged in with a German browser."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app
    from tests.web.test_routes import PIN, Web, _client

    pytest.importorskip("multipart")
    store = open_store(club, scorer="test")
    set_pin(store, PIN)
    app = create_app(store)
    client = _client(app)
    client.headers.update({"Accept-Language": "de-AT,de;q=0.9,en;q=0.8"})
    web = Web(client, app, store, 1, 1)
    web.login()
    yield web
    store.close()


def test_a_refused_number_on_the_new_event_form_is_german(director: Any) -> None:
    res = director.post(
        "/director/new", name="Herbst", kind="swiss", players="Anna\nBert\nCarla", rounds="drei"
    )
    assert res.status_code == 400
    said = _text(res.text)
    assert "„drei“ ist keine ganze Zahl" in said
    assert english_words(said, [*NAMES, "drei", "Herbst"]) == []


def test_an_address_of_no_match_is_refused_in_german(director: Any) -> None:
    res = director.client.get("/director/match/12x")
    assert res.status_code == 404
    said = _text(res.text)
    assert "Bummerl '12x' gibt es nicht" in said
    assert english_words(said, NAMES) == []


def test_a_sheet_address_of_nothing_is_refused_in_german(director: Any) -> None:
    res = director.client.get("/director/print/ruling/12")
    assert res.status_code in (400, 404)
    said = _text(res.text)
    assert "kein Blatt" in said
    assert english_words(said, NAMES) == []


def test_a_ruling_of_a_deal_still_played_is_refused_in_german(director: Any) -> None:
    res = director.client.get("/director/print/ruling/1-1.pdf")
    assert res.status_code == 400
    said = _text(res.text)
    assert "Spiel 1.1 wird noch gespielt" in said
    assert english_words(said, NAMES) == []


def test_the_event_page_the_changes_page_and_a_swap_read_german(director: Any) -> None:
    """A Swiss round started and two players swapped by the director, a deal started on a
    table's phone, a card led, won and the trump card exchanged: the event's page, the
    Changes page (who made each change and what) and the match's page hold no English."""
    store = director.store
    for name in ("Emil", "Fritz"):
        store.players.add(name)
    players = [*NAMES, "Emil", "Fritz"]
    ev = store.events.create("Herbst", kind="swiss", players=players, rounds=3)
    assert director.post(f"/director/event/{ev.id}/round", round="1").status_code == 303
    first, second = store.events.rounds(ev.id, 1)[0].pairings[:2]
    res = director.post(
        f"/director/event/{ev.id}/swap", round="1", a=first.first, b=second.first, force="yes"
    )
    assert res.status_code == 303
    said = _text(director.client.get(res.headers["location"]).text)
    assert "die Tische getauscht" in said and english_words(said, players) == []
    director.match = store.events.rounds(ev.id, 1)[0].pairings[0].matches[0].match_id
    fields = director.form(director.table())
    director.post(director.table() + "/start", turn_up="QH", at=fields["at"], last="")
    for token in ("KS", "AS", "swap"):
        assert director.tap(token).status_code == 303
    changes = _text(director.page("/director/audit"))
    assert f"Web: Tisch von Bummerl {director.match}" in changes
    assert "Web: Turnierleitung" in changes and "spielte K♠ in Spiel 1, Stich 1" in changes
    for page in (
        f"/director/event/{ev.id}",
        "/director/audit",
        f"/director/match/{director.match}",
    ):
        shown = _text(director.page(page))
        found = english_words(shown, [*players, "Herbst", "Liga", "Cup"])
        assert found == [], (page, re.findall(r".{0,40}\bno\b.{0,40}", shown)[:3])
