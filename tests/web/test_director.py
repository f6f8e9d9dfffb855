"""The director runs the evening in the browser (through Starlette's test client): events of
every kind created from a form (a refusal keeps what was typed), players added with the
command line's lookup (a choice where a name fits several or none), late entries, a round's
pairings seen before it starts, club matches from the event's list (a player at a table is
asked about), every destructive change asked about first with what will follow, a deal
corrected through its tricks, a quick result changed, refusals in the web's words."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.store_support import dump
from tests.web.test_routes import PIN, Web, _client

CLUB = ["Anna Berger", "Anna Huber", "Bert Huber", "Carla Moser", "Dora Wimmer", "Jürgen Roth"]


@pytest.fixture
def desk(db_url: str) -> Any:
    """The director, logged in, over a club's list of players and no event."""
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    store = open_store(db_url, scorer="tester")
    for name in CLUB:
        store.players.add(name)
    store.players.add_alias("Jürgen Roth", "Jogi")
    set_pin(store, PIN)
    app = create_app(store)
    web = Web(_client(app), app, store, 0, 0)
    web.login()
    yield web
    store.close()


def _alert(res: Any) -> str:
    found = re.search(r'role="alert">(.*?)</p>', res.text, re.S)
    assert found is not None, res.text[:2000]
    return str(found.group(1))


def _create(web: Web, **fields: str) -> Any:
    return web.post("/director/new", **fields)


def _event_id(res: Any) -> int:
    assert res.status_code == 303, res.text[:3000]
    return int(res.headers["location"].rsplit("/", 1)[1].split("?")[0])


@pytest.mark.parametrize(
    ("kind", "settings", "check"),
    [
        ("club", {}, lambda ev, fmt: ev.rank_by == "percentage"),
        (
            "round-robin",
            {"double": "yes", "matches": "2", "lives": "9"},
            lambda ev, fmt: ev.double and ev.matches_per_pairing == 2,
        ),
        (
            "swiss",
            {"rounds": "3", "tiebreaks": "buchholz, wins"},
            lambda ev, fmt: ev.rounds == 3 and ev.tiebreaks == ("buchholz", "wins"),
        ),
        (
            "knockout",
            {"lives": "2", "seed": "Cup", "final": "2"},
            lambda ev, fmt: (
                fmt["lives"] == 2 and fmt["draw_seed"] == "Cup" and fmt["final_fill"] == "playoff"
            ),
        ),
        (
            "knockout",
            {"lives": "2", "final": "2", "final_fill": "tiebreaks"},
            lambda ev, fmt: fmt["final_size"] == 2 and fmt["final_fill"] == "tiebreaks",
        ),
        (
            "groups",
            {"groups": "2", "advance": "1"},
            lambda ev, fmt: fmt["groups"] == 2 and fmt["advance"] == 1,
        ),
    ],
)
def test_every_kind_of_event_is_created_from_the_form_with_its_settings(
    desk: Web, kind: str, settings: dict[str, str], check: Any
) -> None:

    res = _create(
        desk,
        name=f"Club {kind}",
        kind=kind,
        date="2026-11-26",
        points="2",
        players="Anna B\nbert\nCarla Moser\ndora",
        **settings,
    )
    ev = desk.store.events.get(_event_id(res))
    fmt = desk.store.knockouts.settings(ev.id) if kind in ("knockout", "groups") else {}
    assert ev.kind == kind and ev.match_points_per_win == 2 and str(ev.date) == "2026-11-26"
    assert [p.name for p in ev.players] == [
        "Anna Berger",
        "Bert Huber",
        "Carla Moser",
        "Dora Wimmer",
    ]
    assert check(ev, fmt)


def test_a_refused_setting_is_shown_on_the_form_with_what_was_typed(desk: Web) -> None:
    res = _create(desk, name="Open", kind="swiss", rounds="x", players="Anna B\nbert")
    assert res.status_code == 400 and "Rounds" in _alert(res)
    assert 'value="Open"' in res.text and "Anna B\nbert" in res.text
    res = _create(
        desk, name="Groups", kind="groups", groups="1", advance="5", players="Anna B\nbert"
    )
    said = _alert(res)
    assert res.status_code == 400 and "Going through" in said and "--" not in said
    res = _create(desk, name="Open", kind="swiss", players="Anna B\nbert")
    assert "tally" not in _alert(res) and "--rounds" not in _alert(res)

    assert desk.store.events.all() == []


def test_a_name_that_fits_several_or_none_is_chosen_on_the_form(desk: Web) -> None:

    res = _create(desk, name="Cup", kind="round-robin", players="Anna\nJogi\nAna Hubr\n+Eva")
    assert res.status_code == 200 and "fits several players" in res.text
    assert '<option value="#1">Anna Berger</option>' in res.text
    assert "There is no player “Ana Hubr”" in res.text and "Anna Huber" in res.text
    assert desk.store.events.all() == []  # nothing stored before the choice
    res = _create(
        desk,
        name="Cup",
        kind="round-robin",
        players="Anna\nJogi\nAna Hubr\n+Eva",
        **{"ref-0": "Anna", "pick-0": "#2", "ref-1": "Ana Hubr", "pick-1": "+Ana Hubr"},
    )
    ev = desk.store.events.get(_event_id(res))
    assert [p.name for p in ev.players] == ["Anna Huber", "Jürgen Roth", "Ana Hubr", "Eva"]


def test_players_join_late_where_the_kind_of_event_takes_them(desk: Web) -> None:

    eid = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    res = desk.post(f"/director/event/{eid}/players", players="jurgen\n+Fritz Neu")
    assert res.status_code == 303
    assert "Added: Jürgen Roth, Fritz Neu." in desk.client.get(res.headers["location"]).text
    assert [p.name for p in desk.store.events.get(eid).players][-2:] == ["Jürgen Roth", "Fritz Neu"]
    res = desk.post(f"/director/event/{eid}/players", players="Anna")
    assert res.status_code == 200 and "fits several players" in res.text
    rr = _event_id(_create(desk, name="RR", kind="round-robin", players="Anna B\nbert"))
    desk.post(f"/director/event/{rr}/round", round="1")
    res = desk.post(f"/director/event/{rr}/players", players="carla")
    assert res.status_code == 400 and "no player can join" in res.text


def test_the_next_round_is_seen_before_it_is_started(desk: Web) -> None:

    eid = _event_id(
        _create(desk, name="RR", kind="round-robin", players="Anna B\nbert\ncarla\ndora")
    )
    html = desk.page(f"/director/event/{eid}")
    assert f'href="/director/event/{eid}/round/1"' in html
    html = desk.page(f"/director/event/{eid}/round/1")
    rows = re.findall(r"<td>([^<]+ – [^<]+)</td>", html)
    assert len(rows) == 2 and not desk.store.events.rounds(eid)[0].started
    assert 'name="round" value="1"' in html
    desk.post(f"/director/event/{eid}/round", round="1")
    started = desk.store.events.rounds(eid, 1)[0]
    assert rows == [f"{p.first} – {p.second}" for p in started.pairings]
    res = desk.client.get(f"/director/event/{eid}/round/1")
    assert res.status_code == 400 and "started already" in res.text
    assert f'href="/director/event/{eid}"' in res.text  # back to the event, not here again


def test_a_club_match_is_started_from_the_list_and_a_busy_player_is_asked_about(desk: Web) -> None:
    eid = _event_id(_create(desk, name="Tuesday", kind="club", players="Anna B\nbert\ncarla"))
    html = desk.page(f"/director/event/{eid}")
    assert '<select name="a"' in html and '<input name="a"' not in html
    res = desk.post(f"/director/event/{eid}/match", a="Anna Berger", b="Bert Huber")
    assert res.status_code == 303
    assert "playing match" in desk.page(f"/director/event/{eid}")
    res = desk.post(f"/director/event/{eid}/match", a="Carla Moser", b="Bert Huber")
    assert res.status_code == 200 and "Bert Huber is still playing match" in res.text
    assert len(desk.store.matches.all()) == 1
    res = desk.post(f"/director/event/{eid}/match", a="Carla Moser", b="Bert Huber", anyway="yes")
    assert res.status_code == 303 and len(desk.store.matches.all()) == 2


def _round_robin(desk: Web) -> tuple[int, Any]:

    eid = _event_id(
        _create(desk, name="RR", kind="round-robin", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    return eid, desk.store.events.rounds(eid, 1)[0]


def test_a_withdrawal_is_asked_about_first_saying_what_follows(desk: Web) -> None:

    eid, _ = _round_robin(desk)
    url = desk.store.engine.url.render_as_string(hide_password=False)
    before = dump(url)
    html = desk.page(f"/director/event/{eid}/withdraw?player=Dora+Wimmer")
    # (none of her three played: fewer than half, every result of hers is struck out)
    assert "fewer than half of their matches: every result of theirs is struck out" in html
    assert "running match against" in html and "will not count" in html
    assert "2 remaining matches will not be played and do not count" in html
    assert "The matches Dora Wimmer finished still count" not in html
    assert dump(url) == before
    res = desk.post(f"/director/event/{eid}/withdraw", player="Dora Wimmer")
    assert res.status_code == 303
    assert [p.name for p in desk.store.events.get(eid).players if p.withdrawn] == ["Dora Wimmer"]
    res = desk.client.get(f"/director/event/{eid}/withdraw?player=Dora+Wimmer")
    assert res.status_code == 400 and f'href="/director/event/{eid}"' in res.text


def test_deleting_a_deal_or_a_match_and_reversing_are_asked_about_first(desk: Web) -> None:
    _, rnd = _round_robin(desk)
    mid = rnd.pairings[0].matches[0].match_id
    a, b = desk.store.matches.state(mid).players
    desk.store.deals.quick_result(mid, winner=a, points=2, reason="claim")
    deal = desk.store.deals.quick_result(mid, winner=b, points=1, reason="claim")
    html = desk.page(f"/director/deal/{deal.id}/delete")
    assert "Deal 2 is deleted: " in html and "the score goes from 2:1 to 2:0" in html
    assert len(desk.store.matches.state(mid).deals) == 2
    entry = desk.store.audit.log(limit=1)[-1]
    html = desk.page(f"/director/audit/{entry.id}/reverse")
    assert f"Change {entry.id} is taken back" in html and "from 2:1 to 2:0" in html
    assert desk.post(f"/director/audit/{entry.id}/reverse").status_code == 303
    again = desk.post(f"/director/audit/{entry.id}/reverse")
    assert again.status_code == 400 and f'href="/director/audit/{entry.id}"' in again.text
    assert desk.client.get(f"/director/audit/{entry.id}").url.path == "/director/audit"
    club = _event_id(_create(desk, name="Club", kind="club", players="Anna B\nbert"))
    desk.post(f"/director/event/{club}/match", a="Anna Berger", b="Bert Huber")
    friendly = desk.store.matches.all()[-1].id
    html = desk.page(f"/director/match/{friendly}/delete")
    assert "is gone" in html
    assert desk.post(f"/director/match/{friendly}/delete").status_code == 303
    assert friendly not in {m.id for m in desk.store.matches.all()}
    res = desk.client.get(f"/director/match/{mid}/delete")
    assert res.status_code == 400 and "tally" not in _alert(res)


def test_a_deal_is_corrected_through_its_tricks_and_a_quick_result_changed(desk: Web) -> None:
    _, rnd = _round_robin(desk)
    mid = rnd.pairings[0].matches[0].match_id
    deal = desk.store.deals.start(mid, "QH")
    desk.store.deals.play(deal.id, "KS AS")
    html = desk.page(f"/director/deal/{deal.id}/tricks")
    assert re.search(r'name="t0-1"[^>]*>.*?<option value="AS" selected>', html, re.S)
    assert '<option value="40 KH"' in html and '<option value="swap"' in html
    res = desk.post(f"/director/deal/{deal.id}/tricks", **{"t0-0": "KS", "t0-1": "10S"})
    assert res.status_code == 200 and "Store the correction" in res.text
    assert "1. KS AS" in desk.store.deals.export(deal.id)  # asked, not stored
    res = desk.post(f"/director/deal/{deal.id}/edit", **_hidden(res.text))
    assert res.status_code == 303, res.text
    assert "1. KS 10S" in desk.store.deals.export(deal.id)
    res = desk.post(f"/director/deal/{deal.id}/tricks", **{"t0-0": "KS", "t0-1": "KS"})
    assert res.status_code == 400 and f'href="/director/deal/{deal.id}"' in res.text
    back = desk.client.get(f"/director/deal/{deal.id}", follow_redirects=False)
    assert back.headers["location"] == f"/director/match/{mid}"
    other = rnd.pairings[1].matches[0].match_id
    a, b = desk.store.matches.state(other).players
    quick = desk.store.deals.quick_result(other, winner=a, points=1, reason="claim")
    assert f'action="/director/deal/{quick.id}/quick"' in desk.page(f"/director/match/{other}")
    res = desk.post(f"/director/deal/{quick.id}/quick", winner=b, points="2", reason="failed-close")
    assert "the score goes from 1:0 to 0:2" in res.text
    assert desk.store.matches.state(other).score == {a: 1, b: 0}
    res = desk.post(f"/director/deal/{quick.id}/quick", **_hidden(res.text))
    assert res.status_code == 303
    assert desk.store.matches.state(other).score == {a: 0, b: 2}


def _hidden(html: str) -> dict[str, str]:
    """The fields a question's button posts (the record's text unescaped)."""
    import html as markup

    fields = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', html)
    return {k: markup.unescape(v) for k, v in fields if k != "csrf"}


def test_the_question_of_a_correction_shows_the_deal_handed_to_the_other_player(
    desk: Web, db_url: str
) -> None:
    from tests.store_support import HANDED_OVER_CHANGED, handed_over_match

    for name in ("Anna", "Bert"):
        desk.store.players.add(name)
    mid, did = handed_over_match(desk.store)
    before = dump(db_url)
    tricks = [line.split(". ", 1)[1].split() for line in HANDED_OVER_CHANGED.split("\n")[5:-1]]
    form = {f"t{i}-{j}": item for i, items in enumerate(tricks) for j, item in enumerate(items)}
    res = desk.post(f"/director/deal/{did}/tricks", **form)  # one card changed in trick 2
    assert res.status_code == 200
    assert "the score goes from 2:0 to 0:3" in res.text
    assert "Trick 2: the close moves from Bert to Anna." in res.text
    assert dump(db_url) == before  # nothing stored until confirmed
    fields = _hidden(res.text)
    assert desk.post(f"/director/deal/{did}/edit", record=fields["record"]).status_code == 200
    res = desk.post(f"/director/deal/{did}/edit", **fields)
    assert res.status_code == 303
    assert desk.store.matches.state(mid).score == {"Anna": 0, "Bert": 3}
    again = desk.post(f"/director/deal/{did}/edit", **fields)  # the same question, posted again
    assert again.status_code == 303 and "Nothing changed" in desk.page(again.headers["location"])
    res = desk.post(f"/director/deal/{did}/edit", record=fields["record"].replace("9C", "10S"))
    stale = _hidden(res.text)
    desk.store.deals.start(mid, "QH")  # the match moves on before the question is answered
    res = desk.post(f"/director/deal/{did}/edit", **stale)
    assert res.status_code == 400 and "has changed since this correction was shown" in res.text
    assert desk.store.matches.state(mid).score == {"Anna": 0, "Bert": 3}


def test_a_whole_match_result_is_corrected_on_the_match_page(desk: Web, db_url: str) -> None:
    for name in ("Anna", "Bert"):
        desk.store.players.add(name)
    m = desk.store.matches.start("Anna", "Bert", rules="sixty-six", first_dealer="Anna")
    desk.store.deals.match_result(m.id, "7:3")
    html = desk.page(f"/director/match/{m.id}")
    assert f'action="/director/match/{m.id}/result/correct"' in html and 'value="7:3"' in html
    assert 'action="/director/deal/' not in html.split("result/correct")[1]  # no quick boxes
    before = dump(db_url)
    res = desk.post(f"/director/match/{m.id}/result/correct", score="3:7")
    assert "the score goes from 7:3 to 3:7" in res.text and "Bert has then won" in res.text
    assert dump(db_url) == before
    res = desk.post(f"/director/match/{m.id}/result/correct", **_hidden(res.text))
    assert res.status_code == 303
    state = desk.store.matches.state(m.id)
    assert state.score == {"Anna": 3, "Bert": 7} and state.winner == "Bert"
    res = desk.post(f"/director/match/{m.id}/result/correct", score="3:3")
    assert res.status_code == 400


def test_refusals_on_pages_give_no_command_line_advice(desk: Web) -> None:
    _, rnd = _round_robin(desk)
    mid = rnd.pairings[0].matches[0].match_id
    winner = desk.store.matches.state(mid).players[0]
    first = desk.store.deals.quick_result(mid, winner=winner, points=1, reason="claim")
    desk.store.deals.quick_result(mid, winner=winner, points=1, reason="claim")
    res = desk.post(f"/director/deal/{first.id}/delete")
    said = _alert(res)
    assert res.status_code == 400 and "only the last deal" in said
    assert "tally" not in said and "`" not in said
    res = desk.post(f"/director/match/{mid}/delete")
    assert "tally" not in _alert(res) and "--" not in _alert(res)


def test_choices_made_are_kept_when_the_form_is_refused_for_something_else(desk: Web) -> None:

    res = _create(
        desk, name="", kind="round-robin", players="Anna\n+Eva", **{"ref-0": "Anna", "pick-0": "#2"}
    )
    assert res.status_code == 400 and "name" in _alert(res)
    assert '<input type="hidden" name="pick-0" value="#2">' in res.text
    assert "Eva" not in [p.name for p in desk.store.players.all()]  # nobody new without it
    res = _create(
        desk,
        name="Cup",
        kind="round-robin",
        players="Anna\n+Eva",
        **{"ref-0": "Anna", "pick-0": "#2"},
    )
    assert [p.name for p in desk.store.events.get(_event_id(res)).players] == ["Anna Huber", "Eva"]


def test_the_pages_own_refusals_are_worded_in_the_pages_language(desk: Web) -> None:
    eid = _event_id(
        _create(desk, name="Dienstag", kind="club", players="Anna B\nbert", lang_of="de")
    )
    res = desk.post(f"/director/event/{eid}/match", a="Anna Berger", b="Anna Berger")
    # the director's pages speak the director's language, not the (German) event's
    assert res.status_code == 400 and "choose two different players" in _alert(res)
    desk.page("/director?lang=de")
    res = desk.post(f"/director/event/{eid}/match", a="Anna Berger", b="Anna Berger")
    assert res.status_code == 400 and "zwei verschiedene Spieler wählen" in _alert(res)


def test_the_director_withdraws_a_round_without_deals_and_not_one_in_play(desk: Web) -> None:

    eid = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    assert f'action="/director/event/{eid}/unpair"' in desk.page(f"/director/event/{eid}")
    res = desk.post(f"/director/event/{eid}/unpair", round="1")
    assert res.status_code == 303
    assert "The pairings of round 1 are withdrawn" in desk.client.get(res.headers["location"]).text
    assert desk.store.events.get(eid).rounds_started == ()
    desk.post(f"/director/event/{eid}/round", round="1")
    p = desk.store.events.rounds(eid, 1)[0].pairings[0]
    desk.store.deals.quick_result(p.matches[0].match_id, winner=p.first, points=3, reason="claim")
    res = desk.post(f"/director/event/{eid}/unpair", round="1")
    assert res.status_code == 400 and "recorded already" in res.text
    assert desk.store.events.get(eid).rounds_started == (1,)


def test_withdrawing_a_rounds_pairings_is_asked_about_first(desk: Web) -> None:

    eid = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    assert f'action="/director/event/{eid}/unpair"' in desk.page(f"/director/event/{eid}")
    p = desk.store.events.rounds(eid, 1)[0].pairings[0]
    ask = desk.client.get(f"/director/event/{eid}/unpair", params={"round": "1"})
    assert ask.status_code == 200 and "Withdraw the pairings of round 1?" in ask.text
    assert f"Table {p.table}: {p.first} – {p.second}" in ask.text
    assert desk.store.events.get(eid).rounds_started == (1,)  # asking changed nothing
    assert 'name="round" value="1"' in ask.text
    desk.store.deals.quick_result(p.matches[0].match_id, winner=p.first, points=3)
    html = desk.page(f"/director/event/{eid}")
    assert "/unpair" not in html and 'id="swap"' not in html  # a deal is recorded: too late


def test_the_swap_question_says_who_goes_to_which_table(desk: Web) -> None:

    eid = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    p, q = desk.store.events.rounds(eid, 1)[0].pairings
    ask = desk.client.get(
        f"/director/event/{eid}/swap", params={"round": "1", "a": p.second, "b": q.second}
    )
    assert f"{p.second} goes to table {q.table}." in ask.text
    assert f"{q.second} goes to table {p.table}." in ask.text


def test_the_events_language_says_it_is_of_its_sheets_wall_and_phones(desk: Web) -> None:

    html = desk.page("/director/new")
    label = html.split('<label for="lang_of">', 1)[1].split("</label>", 1)[0]
    assert label.replace("&#39;", "'") == "Language of its sheets, wall and players' phones"
    assert "pages stay in the director" in html
    html = desk.page("/director/new?lang=de")
    assert "Sprache der Blätter, der Tabellenseite und der Handys an den Tischen" in html
    assert "Die Seiten der Turnierleitung bleiben in ihrer eigenen Sprache" in html


def test_a_german_event_speaks_german_to_the_room_and_the_director_keeps_english(desk: Web) -> None:
    from tests.pdf_support import pages_text

    desk.page("/director?lang=en")  # the director chose English (the EN/DE switch)
    eid = _event_id(
        _create(
            desk, name="Herbst", kind="round-robin", players="Anna B\nbert\ncarla", lang_of="de"
        )
    )
    assert desk.store.events.get(eid).language == "de"
    html = desk.page(f"/director/event/{eid}")
    assert "Start round 1" in html and "Runde 1 beginnen" not in html
    assert f'href="/standings/{eid}"' in html  # the wall link: in the event's language
    desk.post(f"/director/event/{eid}/round", round="1")
    html = desk.page(f"/director/event/{eid}")  # a change to the event: still English
    assert "Round 1 started" in html or "Start round 2" in html
    assert "Runde" not in html.split("<main", 1)[-1]
    wall = desk.page(f"/standings/{eid}")
    assert "Runde 1 von 3" in wall and "round 1 of 3" not in wall
    assert "round 1 of 3" in desk.page(f"/standings/{eid}?lang=en")
    pdf = desk.client.get(f"/director/print/standings/{eid}.pdf")
    assert pdf.status_code == 200 and "Tabelle" in pages_text(pdf.content)[0]
    mid = desk.store.events.rounds(eid, 1)[0].pairings[0].matches[0].match_id
    sheet = desk.client.get(f"/director/print/scoresheet/{mid}.pdf")
    assert sheet.status_code == 200 and "Bummerl" in pages_text(sheet.content)[0]
    # the director's language is the director's: switching it leaves the wall German
    assert "Runde 1 beginnen" not in desk.page(f"/director/event/{eid}")
    desk.page("/director?lang=de")
    assert "Runde 2 beginnen" in desk.page(f"/director/event/{eid}")
    assert "Runde 1 von 3" in desk.page(f"/standings/{eid}")


def test_a_round_robin_offers_no_swap_and_no_late_entry_once_started(desk: Web) -> None:

    eid, _ = _round_robin(desk)
    html = desk.page(f"/director/event/{eid}")
    assert 'id="swap"' not in html and 'id="add-players"' not in html
    assert 'id="unpair"' in html  # no deal yet: its pairings may still be withdrawn
    swiss = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{swiss}/round", round="1")
    html = desk.page(f"/director/event/{swiss}")
    assert 'id="swap"' in html and 'id="add-players"' in html


def test_a_forfeited_match_has_no_result_box_and_withdrawing_names_nobody_first(desk: Web) -> None:

    eid, first = _round_robin(desk)
    html = desk.page(f"/director/event/{eid}")
    assert "<h2>Withdraw a player</h2>" in html
    form = html.split('id="withdraw"', 1)[1].split("</form>", 1)[0]
    assert '<option value="">— player —</option>' in form  # nobody preselected
    dora = next(p for p in first.pairings if "Dora Wimmer" in (p.first, p.second))
    mid = dora.matches[0].match_id
    assert f'action="/director/match/{mid}/result"' in html
    desk.post(f"/director/event/{eid}/withdraw", player="Dora Wimmer")
    html = desk.page(f"/director/event/{eid}")
    assert f'action="/director/match/{mid}/result"' not in html  # a forfeit: nothing to enter


def test_the_director_swaps_two_players_after_seeing_what_it_breaks(desk: Web) -> None:

    eid = _event_id(
        _create(desk, name="Open", kind="swiss", rounds="3", players="Anna B\nbert\ncarla\ndora")
    )
    desk.post(f"/director/event/{eid}/round", round="1")
    assert f'action="/director/event/{eid}/swap"' in desk.page(f"/director/event/{eid}")
    p, q = desk.store.events.rounds(eid, 1)[0].pairings
    desk.store.pairings.keep_apart(eid, p.first, q.second)
    ask = desk.client.get(
        f"/director/event/{eid}/swap", params={"round": "1", "a": p.second, "b": q.second}
    )
    assert ask.status_code == 200 and "are kept apart" in ask.text
    assert 'name="force" value="yes"' in ask.text
    res = desk.post(f"/director/event/{eid}/swap", round="1", a=p.second, b=q.second)
    assert res.status_code == 400 and "were not swapped" in res.text
    res = desk.post(f"/director/event/{eid}/swap", round="1", a=p.second, b=q.second, force="yes")
    assert res.status_code == 303
    said = desk.client.get(res.headers["location"]).text
    assert f"{p.second} and {q.second} swapped tables in round 1." in said
    now = desk.store.events.rounds(eid, 1)[0].pairings
    assert frozenset((p.first, q.second)) in {frozenset((x.first, x.second)) for x in now}
    ask = desk.client.get(
        f"/director/event/{eid}/swap", params={"round": "1", "a": p.first, "b": q.second}
    )
    assert ask.status_code == 400 and "same table" in ask.text


def test_a_round_robin_page_warns_of_the_round_that_pairs_a_pair_kept_apart(desk: Web) -> None:

    eid = _event_id(
        _create(desk, name="Liga", kind="round-robin", players="Anna B\nbert\ncarla\ndora")
    )
    assert "are kept apart, but round" not in desk.page(f"/director/event/{eid}")
    desk.store.pairings.keep_apart(eid, "Anna Berger", "Bert Huber")
    meets = next(
        r.number
        for r in desk.store.events.rounds(eid)
        for p in r.pairings
        if {p.first, p.second} == {"Anna Berger", "Bert Huber"}
    )
    said = f"Anna Berger and Bert Huber are kept apart, but round {meets} pairs them"
    assert said in desk.page(f"/director/event/{eid}")
    if meets == 1:
        assert said in desk.page(f"/director/event/{eid}/round/1")
    else:
        assert "are kept apart" not in desk.page(f"/director/event/{eid}/round/1")


def test_the_director_keeps_two_players_apart_and_is_warned_where_the_draw_is_by_lot(
    desk: Web,
) -> None:

    eid = _event_id(_create(desk, name="Cup", kind="knockout", players="Anna B\nbert\ncarla\ndora"))
    assert 'id="keep-apart"' in desk.page(f"/director/event/{eid}")
    res = desk.post(f"/director/event/{eid}/apart", a="Anna Berger", b="Bert Huber")
    assert res.status_code == 303
    said = desk.client.get(res.headers["location"]).text
    assert "Anna Berger and Bert Huber are kept apart." in said
    assert "Warning: the draw of each round of this event does not keep players apart" in said
    assert desk.store.pairings.apart(eid) == [("Anna Berger", "Bert Huber")]
    res = desk.post(f"/director/event/{eid}/apart", a="Anna Berger", b="Bert Huber", undo="yes")
    assert "are no longer kept apart." in desk.client.get(res.headers["location"]).text
    assert desk.store.pairings.apart(eid) == []
    res = desk.post(f"/director/event/{eid}/apart", a="Anna Berger", b="Anna Berger")
    assert res.status_code == 400 and "named twice" in res.text
