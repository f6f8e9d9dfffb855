"""tally serve through Starlette's test client: every route, the secrets and the PIN, CSRF,
hostile names, violations confirmed first, quick results agreed by the opponent, and two
phones at one table."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.store_support import dump

HOSTILE = "<script>alert(1)</script>"
PIN = "246810"


@dataclass
class Web:
    client: Any
    app: Any
    store: Any
    event: int
    match: int

    def table(self, match: int | None = None) -> str:
        mid = self.match if match is None else match
        return f"/t/{mid}/{self.app.state.site.keys.table_secret(mid)}"

    def page(self, path: str) -> str:
        res = self.client.get(path)
        assert res.status_code == 200, res.text
        return str(res.text)

    def form(self, path: str) -> dict[str, str]:
        """The hidden fields of the first form of the page at ``path``."""
        html = self.page(path)
        return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', html))

    def csrf(self) -> str:
        """The token this browser's forms carry now (as the hidden field of any page)."""
        return str(
            self.app.state.site.keys.csrf(
                self.client.cookies.get("tally_csrf"), self.client.cookies.get("tally_director")
            )
        )

    def post(self, path: str, **data: str) -> Any:
        data.setdefault("csrf", self.csrf())
        return self.client.post(path, data=data, follow_redirects=False)

    def agree(self, asked: Any, **changed: str) -> Any:
        """The opponent taps "Yes, I agree" on the agree page ``asked`` (a response): the
        proposal's number and the values shown are posted (``changed``: values altered
        before posting, as a hostile client could)."""
        form = asked.text.split('/agree"', 1)[1].split("</form>", 1)[0]
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
        fields.pop("csrf", None)
        return self.post(self.table() + "/agree", **{**fields, **changed})

    def tap(self, token: str, **extra: str) -> Any:
        """Tap a card or an action on the table page, as a phone does."""
        fields = self.form(self.table())
        return self.post(
            self.table() + "/play", token=token, at=fields["at"], last=fields["last"], **extra
        )

    def login(self) -> None:
        self.page("/director")
        res = self.post("/director/login", pin=PIN)
        assert res.status_code == 303


def _client(app: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    return TestClient(app)


@pytest.fixture
def web(db_url: str) -> Iterator[Web]:
    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    store = open_store(db_url, scorer="tester")
    for name in ("Anna", "Bert", HOSTILE, "Dora"):
        store.players.add(name)
    ev = store.events.create(
        "{{7*7}} <b>Cup</b>", kind="round-robin", players=["Anna", "Bert", HOSTILE, "Dora"]
    )
    rnd = store.events.start_round(ev.id, 1)
    match = next(
        p.matches[0].match_id for p in rnd.pairings if {p.first, p.second} == {"Anna", "Dora"}
    )
    set_pin(store, PIN)
    app = create_app(store)
    try:
        yield Web(_client(app), app, store, ev.id, match)
    finally:
        store.close()


def _start(web: Web, turn_up: str = "QH") -> None:
    fields = web.form(web.table())
    res = web.post(web.table() + "/start", turn_up=turn_up, at=fields["at"], last=fields["last"])
    assert res.status_code == 303, res.text


def test_hostile_names_and_titles_show_as_text(web: Web) -> None:
    for path in ("/", f"/standings/{web.event}", f"/standings/{web.event}?lang=de"):
        html = web.page(path)
        assert HOSTILE not in html and "49" not in html.replace("2490", "")
    html = web.page(f"/standings/{web.event}")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "{{7*7}} &lt;b&gt;Cup&lt;/b&gt;" in html
    web.login()
    html = web.page(f"/director/event/{web.event}")
    assert HOSTILE not in html and "&lt;script&gt;" in html
    live = web.client.get(f"/standings/{web.event}/live?lang=en&v=x").json()
    assert HOSTILE not in live["html"] and "&lt;script&gt;" in live["html"]


def test_a_table_page_needs_its_own_secret(web: Web) -> None:
    assert web.client.get(f"/t/{web.match}/wrongsecretxxxxx").status_code == 404
    other = web.match + 1
    secret = web.app.state.site.keys.table_secret(web.match)
    assert web.client.get(f"/t/{other}/{secret}").status_code == 404
    before = dump(str(web.store.engine.url.render_as_string(hide_password=False)))
    res = web.post(f"/t/{other}/{secret}/start", turn_up="QH", at=f"{other}.0:0", last="")
    assert res.status_code == 404
    res = web.post(f"/t/{web.match}/xx/start", turn_up="QH", at=f"{web.match}.0:0", last="")
    assert res.status_code == 404
    assert dump(str(web.store.engine.url.render_as_string(hide_password=False))) == before
    html = web.page(web.table())
    assert "Anna" in html and "Dora" in html and "Tap the turn-up card" in html


def test_every_change_needs_the_csrf_token(web: Web) -> None:
    web.page(web.table())
    for token in ("", "forged"):
        res = web.post(
            web.table() + "/start", turn_up="QH", at=f"{web.match}.0:0", last="", csrf=token
        )
        assert res.status_code == 403
    assert web.store.matches.state(web.match).deals == ()
    web.login()
    res = web.post(f"/director/event/{web.event}/round", round="2", csrf="forged")
    assert res.status_code == 403
    assert not web.store.matches.all()[-1].round == 2


def test_a_whole_deal_is_recorded_by_tapping(web: Web) -> None:
    _start(web, "QH")
    html = web.page(web.table())
    assert 'id="turn">Trick 1: <strong>Dora</strong> to lead' in html
    assert "Counted points" not in html
    for token in ("KS", "AS", "close", "10C", "9D", "KD", "JD"):
        res = web.tap(token)
        assert res.status_code == 303, (token, res.text)
    deal = web.store.matches.state(web.match).deals[-1]
    assert deal.actions == 7 and deal.to_move == "Anna"
    res = web.tap("66")
    assert res.status_code == 303
    page = web.client.get(res.headers["location"]).text
    assert "Anna claimed 66. Deal 1 is over:" in page
    deal = web.store.matches.state(web.match).deals[-1]
    assert deal.finished and deal.winner is not None
    # undo takes the claim back, then it is claimed again
    fields = web.form(web.table())
    assert (
        web.post(web.table() + "/undo", at=deal.position, last=deal.last_action or "").status_code
        == 303
    )
    assert not web.store.matches.state(web.match).deals[-1].finished
    assert fields  # the page had its forms
    assert web.tap("66").status_code == 303
    html = web.page(web.table())
    assert "Tap the turn-up card" in html  # the next deal can start


def test_a_violation_is_confirmed_before_it_is_stored(web: Web) -> None:
    _start(web, "QH")
    for token in ("KS", "AS", "close", "10C", "9D", "KD"):
        assert web.tap(token).status_code == 303
    url = str(web.store.engine.url.render_as_string(hide_password=False))
    before = dump(url)
    res = web.tap("JC")
    assert res.status_code == 200 and "A rule would be broken" in res.text
    assert "follow suit" in res.text and "illegal play" in res.text
    assert "follow-suit" not in res.text and "illegal-play" not in res.text
    assert dump(url) == before
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', res.text))
    res = web.post(
        web.table() + "/play", token="JC", at=fields["at"], last=fields["last"], confirm="yes"
    )
    assert res.status_code == 303
    deal = web.store.matches.state(web.match).deals[-1]
    assert deal.reason == "illegal-play" and deal.violations


def test_two_phones_at_one_table_never_interleave(web: Web) -> None:
    _start(web, "QH")
    phone_a, phone_b = web.form(web.table()), web.form(web.table())
    res = web.post(web.table() + "/play", token="KS", at=phone_a["at"], last=phone_a["last"])
    assert res.status_code == 303
    res = web.post(web.table() + "/play", token="AS", at=phone_b["at"], last=phone_b["last"])
    assert res.status_code == 409 and "Someone else recorded" in res.text
    assert web.store.matches.state(web.match).deals[-1].actions == 1
    # the same count but another action in its place is caught too
    res = web.post(web.table() + "/undo", at=f"{web.match}.1:1", last="KS")
    assert res.status_code == 303
    assert web.tap("JS").status_code == 303
    res = web.post(web.table() + "/play", token="AS", at=f"{web.match}.1:1", last="KS")
    assert res.status_code == 409
    assert web.store.matches.state(web.match).deals[-1].last_action == "JS"


def test_a_quick_result_counts_once_the_opponent_agrees(web: Web) -> None:
    fields = web.form(web.table())
    res = web.post(
        web.table() + "/quick", winner="Anna", points="2", reason="claim", at=fields["at"], last=""
    )
    assert res.status_code == 200 and "Dora, do you agree?" in res.text
    assert web.store.matches.state(web.match).deals == ()
    asked = res
    res = web.agree(asked)
    assert res.status_code == 303
    assert web.store.matches.state(web.match).score["Anna"] == 2
    # the same confirmation sent again (a second phone, a double tap) does not count twice
    res = web.agree(asked)
    assert res.status_code == 303 and "recorded already" in web.page(res.headers["location"])
    assert len(web.store.matches.state(web.match).deals) == 1
    # an old client's one POST with agree=yes proposes, it stores nothing
    res = web.post(
        web.table() + "/quick",
        winner="Anna",
        points="2",
        reason="claim",
        at=f"{web.match}.1:0",
        last="",
        agree="yes",
    )
    assert res.status_code == 200 and len(web.store.matches.state(web.match).deals) == 1
    res = web.post(
        web.table() + "/quick",
        winner="Nobody",
        points="2",
        reason="claim",
        at=f"{web.match}.1:0",
        last="",
    )
    assert res.status_code == 400


def test_refused_changes_show_the_reason(web: Web) -> None:
    fields = web.form(web.table())
    res = web.post(web.table() + "/start", turn_up="XX", at=fields["at"], last="")
    assert res.status_code == 400 and "turn-up" in res.text
    res = web.post(web.table() + "/start", turn_up="QH", at="garbage", last="")
    assert res.status_code == 400


def test_referee_mode_shows_counted_points(web: Web) -> None:
    _start(web, "QH")
    web.tap("KS")
    web.tap("AS")
    assert "Counted points" not in web.page(web.table())
    assert web.post(f"/director/match/{web.match}/referee", on="yes").status_code == 403
    web.login()
    assert web.post(f"/director/match/{web.match}/referee", on="yes").status_code == 303
    assert "Counted points (referee): Anna" in web.page(
        web.table()
    ) or "Counted points (referee): Dora" in web.page(web.table())
    assert web.post(f"/director/match/{web.match}/referee", on="no").status_code == 303
    assert "Counted points" not in web.page(web.table())


def test_the_director_needs_the_pin(web: Web) -> None:
    html = web.page("/director")
    assert 'name="pin"' in html
    for path in (
        f"/director/event/{web.event}",
        f"/director/match/{web.match}",
        "/director/audit",
        f"/director/print/standings/{web.event}.pdf",
    ):
        assert web.client.get(path).status_code == 403, path
    assert web.post("/director/login", pin="000000").status_code == 403
    for path, data in (
        (f"/director/event/{web.event}/round", {"round": "2"}),
        (f"/director/event/{web.event}/withdraw", {"player": "Bert"}),
        ("/director/audit/1/reverse", {}),
    ):
        assert web.post(path, **data).status_code == 403, path
    assert [r.started for r in _rounds(web)][:2] == [True, False]
    web.login()
    assert "Events" in web.page("/director")


def _rounds(web: Web) -> list[Any]:

    return web.store.events.rounds(web.event)


def test_the_director_runs_the_evening(web: Web) -> None:
    web.login()
    html = web.page(f"/director/event/{web.event}")
    assert web.table() in html and f"/director/event/{web.event}/round/2" in html
    ask = web.post(f"/director/event/{web.event}/round", round="2")  # round 1 is played
    assert ask.status_code == 303
    ask = web.client.get(ask.headers["location"])
    assert ask.status_code == 200 and "Start round 2 anyway" in ask.text
    assert not _rounds(web)[1].started
    started = web.post(f"/director/event/{web.event}/round", round="2", force="yes")
    assert started.status_code == 303
    assert _rounds(web)[1].started
    assert web.post(f"/director/event/{web.event}/withdraw", player="Bert").status_code == 303
    html = web.page(f"/director/event/{web.event}")
    assert "Bert</a> (withdrawn)" in html
    log = web.page("/director/audit")
    assert "web: director" in log and "withdrew" in log
    last = web.store.audit.log(limit=1)[-1]
    assert web.post(f"/director/audit/{last.id}/reverse").status_code == 303
    assert "Bert</a> (withdrawn)" not in web.page(f"/director/event/{web.event}")


def test_the_director_corrects_and_deletes_a_deal(web: Web) -> None:
    _start(web, "QH")
    for token in ("KS", "AS"):
        web.tap(token)
    web.login()
    deal = web.store.matches.state(web.match).deals[-1]
    assert f"/director/deal/{deal.id}/tricks" in web.page(f"/director/match/{web.match}")
    assert "Save the record as typed" in web.page(f"/director/deal/{deal.id}/tricks")
    record = web.store.deals.export(deal.id)
    res = web.post(f"/director/deal/{deal.id}/edit", record=record.replace("AS", "10S"))
    assert res.status_code == 200 and "Store the correction" in res.text
    mark = re.search(r'name="mark" value="(\w+)"', res.text)
    assert mark is not None
    res = web.post(
        f"/director/deal/{deal.id}/edit", record=record.replace("AS", "10S"), mark=mark[1]
    )
    assert res.status_code == 303, res.text
    assert "10S" in web.store.deals.export(deal.id)
    res = web.post(f"/director/deal/{deal.id}/edit", record="nonsense")
    assert res.status_code == 400
    assert web.post(f"/director/deal/{deal.id}/delete").status_code == 303
    assert web.store.matches.state(web.match).deals == ()


def test_the_director_prints_the_sheets(web: Web) -> None:
    web.login()
    for path in (
        f"/director/print/standings/{web.event}.pdf",
        f"/director/print/pairings/{web.event}-1.pdf",
        f"/director/print/scoresheet/{web.match}.pdf",
    ):
        res = web.client.get(path)
        assert res.status_code == 200 and res.content.startswith(b"%PDF"), path
    assert web.client.get("/director/print/nothing/1.pdf").status_code == 400


def test_the_director_starts_a_club_match(web: Web) -> None:

    club = web.store.events.create("Tuesday", players=["Anna", "Bert"])
    web.login()
    res = web.post(f"/director/event/{club.id}/match", a="Anna", b="Bert", dealer="Bert")
    assert res.status_code == 303
    html = web.page(f"/director/event/{club.id}")
    mid = web.store.matches.all()[-1].id
    assert web.table(mid) in html
    assert "Anna" in web.page(f"/standings/{club.id}")


def test_the_standings_page_updates_itself(web: Web) -> None:
    html = web.page(f"/standings/{web.event}?lang=de")
    assert "Tabelle" in html and "Runde 1" in html and "/static/live.js" in html
    version = re.search(r'data-version="(\d+)"', html)
    assert version is not None
    same = web.client.get(f"/standings/{web.event}/live?lang=de&v={version.group(1)}").json()
    assert same == {"version": int(version.group(1))}
    _start(web, "QH")
    changed = web.client.get(f"/standings/{web.event}/live?lang=de&v={version.group(1)}")
    assert changed.json()["version"] > int(version.group(1))
    assert "Tisch" in changed.json()["html"]
    assert "Standings" in web.page(f"/standings/{web.event}")
    assert web.client.get("/standings/999").status_code == 404
    assert web.client.get("/static/tally.css").status_code == 200
    assert web.client.get("/static/live.js").status_code == 200


def test_pages_forbid_framing_and_outside_scripts(web: Web) -> None:
    res = web.client.get(web.table())
    assert res.headers["x-frame-options"] == "DENY"
    assert "script-src 'self'" in res.headers["content-security-policy"]
    assert "http" not in re.sub(r"https?://testserver", "", res.text.split("<body")[0])


def test_tally_serve_says_how_to_install_what_is_missing(monkeypatch: Any) -> None:
    from typer.testing import CliRunner

    from tally.cli import app
    from tally.cli import serve as serve_module

    monkeypatch.setattr(serve_module, "missing_web_modules", lambda: ["starlette"])
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 2
    assert "-m pip install -e " in result.output  # the command for this checkout


def test_the_sheets_from_the_director_carry_each_tables_qr_code(web: Web) -> None:
    from dataclasses import replace

    from tally.sheets.build import match_scoresheet, pairings_sheet
    from tally.sheets.render import render_html
    from tally.web.qr import qr_svg

    web.login()
    html = web.page(f"/director/event/{web.event}")
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg"') == 2  # two tables
    url = "http://testserver" + web.table()
    sheet = pairings_sheet(web.store, web.event, 1)
    plain = render_html("pairings.html.j2", sheet)
    assert "<svg" not in plain and "Record on a phone" not in plain
    coded = replace(sheet, tables=tuple(replace(t, qr=qr_svg(url)) for t in sheet.tables))
    assert render_html("pairings.html.j2", coded).count("<svg") == 2
    score = replace(match_scoresheet(web.store, web.match), qr=qr_svg(url))
    assert "Record on a phone" in render_html("scoresheet.html.j2", score)
    res = web.client.get(f"/director/print/scoresheet/{web.match}.pdf")
    assert res.status_code == 200 and res.content.startswith(b"%PDF")


def test_a_restarted_server_keeps_secrets_sessions_and_forms(web: Web) -> None:
    from tally.web.server import create_app

    web.login()
    fields = web.form(web.table())
    again = _client(create_app(web.store))
    again.cookies.update(web.client.cookies)
    assert again.get(f"/director/event/{web.event}").status_code == 200
    res = again.post(
        web.table() + "/start",
        data={"csrf": fields["csrf"], "turn_up": "QH", "at": fields["at"], "last": fields["last"]},
        follow_redirects=False,
    )
    assert res.status_code == 303
    assert web.store.matches.state(web.match).deals[-1].turn_up == "QH"


def test_the_director_runs_a_knockout(web: Web) -> None:
    from html import escape

    ko = web.store.events.create(
        "Preisschnapsen",
        kind="knockout",
        players=["Anna", "Bert", HOSTILE, "Dora"],
        lives=1,
        draw_seed="web",
        rules="sixty-six match_target=3",
    )
    web.login()
    assert "Start round 1" in web.page(f"/director/event/{ko.id}")
    assert web.post(f"/director/event/{ko.id}/round", round="1").status_code == 303
    rnd = web.store.events.rounds(ko.id, 1)[0]
    html = web.page(f"/director/event/{ko.id}")
    assert "Round 1" in html and "Start round 2" in html
    for p in rnd.pairings:
        web.store.deals.quick_result(
            p.matches[0].match_id, winner=p.first, points=3, reason="claim"
        )
    assert web.post(f"/director/event/{ko.id}/round", round="2").status_code == 303
    final = web.store.events.rounds(ko.id, 2)[0].pairings[0]
    web.store.deals.quick_result(
        final.matches[0].match_id, winner=final.first, points=3, reason="claim"
    )
    assert "Start round 3" not in web.page(f"/director/event/{ko.id}")  # over
    wall = web.page(f"/standings/{ko.id}")
    assert escape(final.first) in wall and "<script>alert" not in wall


def test_the_wall_shows_what_ranks_a_club_evening_and_who_is_still_playing(web: Web) -> None:

    club = web.store.events.create(
        "Tuesday", players=["Anna", "Bert", "Dora"], rules="sixty-six match_target=3"
    )
    first = web.store.matches.start("Anna", "Bert", first_dealer="Anna", event=club.id)
    web.store.deals.quick_result(first.id, winner="Anna", points=3, reason="claim")
    web.store.matches.start("Anna", "Dora", first_dealer="Dora", event=club.id)
    wall = web.page(f"/standings/{club.id}")
    # a club evening ranks by the match-point percentage, shown; Anna is still playing
    assert re.search(r'<th class="num">%</th>', wall)
    assert re.search(r'Anna&nbsp;\*</span></td>.*?<td class="num strong">100\.0</td>', wall)
    assert "these standings are provisional" in wall
    german = web.page(f"/standings/{club.id}?lang=de")
    assert "100,0" in german and "vorläufig" in german


def test_the_wall_shows_byes(web: Web) -> None:

    odd = web.store.events.create("Odd cup", kind="round-robin", players=["Anna", "Bert", "Dora"])
    web.store.events.start_round(odd.id, 1)
    wall = web.page(f"/standings/{odd.id}")
    assert '<th class="num">Bye</th>' in wall
    assert re.search(r'<td class="num">1</td><td class="num strong">', wall)


# --- German ------------------------------------------------------------------------------------

GERMAN_BROWSER = {"Accept-Language": "de-AT,de;q=0.9,en;q=0.8"}


def _german_event(web: Web, language: str) -> int:
    """A round robin stored with ``language``, round 1 started: its first table's match."""

    ev = web.store.events.create(
        f"Cup {language}",
        kind="round-robin",
        players=["Anna", "Bert", "Dora", HOSTILE],
        language=language,
    )
    return web.store.events.start_round(ev.id, 1).pairings[0].matches[0].match_id


def test_a_table_page_speaks_the_choice_then_the_event_then_the_browser(web: Web) -> None:
    german, english = "Zum Mitschreiben die Atoutkarte antippen", "Tap the turn-up card"
    assert english in web.page(web.table())
    html = web.page(web.table() + "?lang=de")
    assert german in html and '<html lang="de">' in html and english not in html
    assert web.client.cookies.get("tally_lang") == "de"  # the choice is kept
    assert german in web.page(web.table())
    # a browser that chose nothing: the event's language, else the browser's
    de_match, en_match = _german_event(web, "de"), _german_event(web, "en")
    fresh = _client(web.app)
    assert german in fresh.get(web.table(de_match)).text
    assert english in fresh.get(web.table()).text
    assert german in fresh.get(web.table(), headers=GERMAN_BROWSER).text
    assert english in fresh.get(web.table(), headers={"Accept-Language": "en-GB,de;q=0.5"}).text
    assert english in fresh.get(web.table(en_match), headers=GERMAN_BROWSER).text
    assert "tally_lang" not in fresh.cookies
    # the reader's choice beats the event's
    assert english in fresh.get(web.table(de_match) + "?lang=en").text
    assert english in fresh.get(web.table(de_match)).text
    assert english in fresh.get(web.table(de_match) + "?lang=xx").text


def test_a_deal_tapped_through_in_german(web: Web) -> None:
    html = web.page(web.table() + "?lang=de")
    assert "Tisch 1 · Runde 1 · auf 7" in html  # the table, not the match's inner number
    assert "<legend>Wer hat das Spiel gewonnen?</legend>" in html
    assert (
        'data-did="sagte 66 falsch an" data-points="2 3"><input type="radio" '
        'name="reason" value="false-claim"'
    ) in html
    fields = web.form(web.table())
    res = web.post(web.table() + "/start", turn_up="QH", at=fields["at"], last="")
    html = web.client.get(res.headers["location"]).text
    assert "Spiel 1 begonnen: Anna gibt, Atoutkarte D♥." in html
    assert 'id="turn">Stich 1: <strong>Dora</strong> spielt&nbsp;aus' in html
    assert "Spiel 1 · Anna gab · Atoutkarte" in html
    # the buttons are labelled in German and record the same tokens
    assert 'name="token" value="close">Zudrehen (nach dem Ziehen)</button>' in html
    assert 'name="token" value="66">Dora sagt 66 an</button>' in html
    assert 'name="token" value="20 QC">20 mit D♣</button>' in html
    assert web.tap("KS").status_code == 303
    html = web.page(web.table())
    assert 'id="turn">Stich 1: <strong>Anna</strong> gibt&nbsp;zu' in html
    assert ">Zurücknehmen: K♠</button>" in html
    # a refused tap says why in German, what was posted is the same token
    res = web.tap("QH")
    assert res.status_code == 400
    assert "„D♥“ abgelehnt, nichts wurde eingetragen: D♥ ist die Atoutkarte" in res.text
    for token in ("AS", "close", "10C", "9D", "KD"):
        assert web.tap(token).status_code == 303
    res = web.tap("JC")  # a revoke: confirmed first, in German
    assert res.status_code == 200 and "Das wäre ein Regelverstoß" in res.text
    assert (
        "Dora verletzte eine Regel (<strong>Farbzwang</strong>): Dora gab 9♦ zu 10♣ zu" in res.text
    )
    assert "<strong>Anna gewinnt 3 Spielpunkte (regelwidriges Spiel)</strong>" in res.text
    assert 'value="yes">Es ist so passiert: eintragen</button>' in res.text
    assert web.tap("JD").status_code == 303
    res = web.tap("66")
    html = web.client.get(res.headers["location"]).text
    assert "Anna sagte 66 an. Spiel 1 ist aus: " in html
    assert "<h2>Spiele</h2>" in html and "Zum Mitschreiben die Atoutkarte antippen" in html
    # another phone was quicker: told in German (the store's account of it stays English)
    res = web.post(web.table() + "/start", turn_up="QH", at=f"{web.match}.0:0", last="")
    assert res.status_code == 409 and "Inzwischen hat jemand anderer" in res.text


def test_a_quick_result_in_german(web: Web) -> None:
    fields = web.form(web.table() + "?lang=de")
    res = web.post(
        web.table() + "/quick", winner="Anna", points="2", reason="claim", at=fields["at"], last=""
    )
    assert "<h1>Dora, einverstanden?</h1>" in res.text
    assert "Anna gewinnt Spiel 1: 2 Spielpunkte (Anna sagte 66 an)" in res.text
    assert '<input type="hidden" name="reason" value="claim">' in res.text
    res = web.agree(res)
    html = web.client.get(res.headers["location"]).text
    assert "Anna gewinnt Spiel 1: 2 Spielpunkte (Anna sagte 66 an)." in html
    assert "(Ansage, nur das Ergebnis)" in html
    res = web.post(web.table() + "/quick", winner="Nobody", points="2", at=f"{web.match}.1:0")
    assert res.status_code == 400 and "bitte auswählen, wer das Spiel gewonnen hat" in res.text


def test_the_switch_keeps_the_language_across_posts_and_redirects(web: Web) -> None:
    web.client.headers.update(GERMAN_BROWSER)
    html = web.page(web.table())
    assert "Zum Mitschreiben" in html
    assert f'<a href="{web.table()}?lang=en" >EN</a>' in html
    assert f'<a href="{web.table()}?lang=de" aria-current="true">DE</a>' in html
    assert "Tap the turn-up card" in web.page(web.table() + "?lang=en")
    fields = web.form(web.table())  # the forms carry no language: the cookie does
    res = web.post(web.table() + "/start", turn_up="QH", at=fields["at"], last="")
    assert res.status_code == 303 and "lang" not in res.headers["location"]
    assert "Deal 1 started: Anna deals, turn-up Q♥." in web.client.get(res.headers["location"]).text
    web.page(web.table() + "?lang=de")
    res = web.tap("KS")
    assert "Dora spielte K♠." in web.client.get(res.headers["location"]).text
    res = web.post(web.table() + "/play", token="AS", at="garbage", last="", csrf="forged")
    assert res.status_code == 403 and "das Formular ist abgelaufen" in res.text


def test_the_director_pages_in_german(web: Web) -> None:
    from tests.pdf_support import pages_text

    html = web.page("/director?lang=de")
    assert "<h1>Turnierleitung</h1>" in html and ">Öffnen</button>" in html
    res = web.post("/director/login", pin="000000")
    assert res.status_code == 403 and "Das ist nicht die PIN." in res.text
    web.login()
    html = web.page("/director")
    assert ">Abmelden</button>" in html and "<td>Rundenturnier</td>" in html
    assert f'<a href="/standings/{web.event}?lang=de">Tabellenseite</a>' in html
    html = web.page(f"/director/event/{web.event}")
    assert "Runde 2 beginnen" in html and "<th>Tischseite</th>" in html
    ask = web.client.get(
        web.post(f"/director/event/{web.event}/round", round="2").headers["location"]
    )
    assert "Runde 2 trotzdem beginnen" in ask.text and "Sie säßen an zwei Tischen" in ask.text
    res = web.post(f"/director/event/{web.event}/round", round="2", force="yes")
    assert "Runde 2 begonnen: 2 Tische." in web.client.get(res.headers["location"]).text
    res = web.post(f"/director/event/{web.event}/withdraw", player="Bert")
    html = web.client.get(res.headers["location"]).text
    assert "Bert hat sich zurückgezogen." in html and "Bert</a> (zurückgezogen)" in html
    html = web.page(f"/director/match/{web.match}")
    assert "Bummerl " in html and "Noch kein Spiel eingetragen." in html
    res = web.post(f"/director/match/{web.match}/referee", on="yes")
    assert "Schiedsrichtermodus an." in web.client.get(res.headers["location"]).text
    last = web.store.audit.log(limit=1)[-1]
    res = web.post(f"/director/audit/{last.id}/reverse")
    html = web.client.get(res.headers["location"]).text
    said = f"Eintrag {last.id + 1}: Eintrag {last.id} zurückgenommen: "
    assert said in html and "Wann" in html
    # a German event's sheets are German; the director's pages follow the director's
    # language (here the browser's), not the event's
    club = web.store.events.create("Dienstag", players=["Anna", "Bert"], language="de")
    fresh = _client(web.app)
    fresh.cookies.update({k: v for k, v in web.client.cookies.items() if k != "tally_lang"})
    assert "Start a match" in fresh.get(f"/director/event/{club.id}").text
    german = {"accept-language": "de-AT"}
    assert "Ein Bummerl beginnen" in fresh.get(f"/director/event/{club.id}", headers=german).text
    pdf = fresh.get(f"/director/print/standings/{club.id}.pdf")
    assert pdf.status_code == 200 and "Tabelle" in pages_text(pdf.content)[0]


def _as_this_match(name: str) -> str:
    """An issue-24 record of tests/data/analysis with its players as this match deals: Dora
    forehand, Anna dealing."""
    from pathlib import Path

    path = Path(__file__).parents[1] / "data" / "analysis" / name
    text = path.read_text(encoding="utf-8")
    return text.replace("Anna", "@").replace("Bert", "Anna").replace("@", "Dora")


def test_the_match_page_marks_each_decision_and_draws_the_value(web: Web) -> None:
    # The D1 record of issue 24 (Sixty-Six) with Dora forehand and Anna dealing, as this
    # match deals: Anna's claim at the start of line 4 is on time, nothing is marked, and the
    # deal's value is drawn.

    text = _as_this_match("D1-startline-claim.deal")
    web.store.deals.import_records(web.match, [("d1.deal", text)])
    web.login()
    html = web.page(f"/director/match/{web.match}")
    assert "every decision marked" in html
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="value-graph"' in html
    assert "no decision lost a game point." in html
    assert "Anna claimed after trick 3: correct." in html
    # per player, what their decisions lost over the match (nothing here)
    assert "Game points lost by each player's decisions" in html
    assert "<th>Lost to closes</th><th>Lost to claims</th><th>Lost to card play</th>" in html
    assert '<tr><td>Dora</td><td class="num">0</td><td class="num">0</td>' in html


def test_the_match_page_keeps_a_deals_analysis_until_the_deal_changes(web: Web) -> None:
    # the analysis takes seconds a deal: the next view of the page reuses it, a German view
    # words it anew, and an undone card (a changed record) is analysed again

    from tally.web.director import _analysis_part

    text = _as_this_match("D1-startline-claim.deal")
    (deal,) = web.store.deals.import_records(web.match, [("d1.deal", text)])
    web.login()
    _analysis_part.cache_clear()  # the analyses this process kept for other tests
    web.page(f"/director/match/{web.match}")
    before = _analysis_part.cache_info()
    again = web.page(f"/director/match/{web.match}")
    after = _analysis_part.cache_info()
    assert (after.hits - before.hits, after.misses - before.misses) == (1, 0)
    assert "Anna claimed after trick 3: correct." in again
    german = web.page(f"/director/match/{web.match}?lang=de")
    assert _analysis_part.cache_info().misses == after.misses + 1
    assert "Anna sagte nach Stich 3 an: richtig." in german
    web.store.deals.undo(deal.id)
    changed = web.page(f"/director/match/{web.match}")
    assert _analysis_part.cache_info().misses == after.misses + 2
    assert "Anna claimed after trick 3" not in changed


def test_the_match_page_shows_at_once_and_its_analysis_when_ready(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the analysis takes seconds a deal: the first view does not wait for it, says it is
    # being made (and looks again by itself), and a later view shows it
    import time

    from tally.web.director import _analysis_part

    monkeypatch.setattr("tally.web.director.FIRST_VIEW_WAIT", 0.0)  # (the tests' own: 120 s)
    text = _as_this_match("D1-startline-claim.deal")
    web.store.deals.import_records(web.match, [("d1.deal", text)])
    web.login()
    _analysis_part.cache_clear()
    first = web.page(f"/director/match/{web.match}")
    assert "still being analysed" in first and 'http-equiv="refresh"' in first
    assert "Anna claimed after trick 3: correct." not in first
    later = first
    for _ in range(600):  # as the page's refresh does, until the analysis is made
        time.sleep(0.1)
        later = web.page(f"/director/match/{web.match}")
        if "still being analysed" not in later:
            break
    assert "Anna claimed after trick 3: correct." in later
    assert "still being analysed" not in later and "refresh" not in later


def test_the_match_page_adds_up_what_each_players_decisions_lost(web: Web) -> None:
    # O1 of issue 24: Anna closes at the first lead against the odds and loses; her close
    # (and chances to close) cost game points, shown per player over the match

    from tally.analysis.findings import analyse
    from tally.analysis.marks import lost_by
    from tally.engine.notation import read_deal
    from tally.web.director import PAGE_SAMPLES

    text = _as_this_match("O1-false-claim-cheaper.deal")
    web.store.deals.import_records(web.match, [("o1.deal", text)])
    web.login()
    html = web.page(f"/director/match/{web.match}")
    lost = lost_by(analyse(read_deal(text), samples=PAGE_SAMPLES).marks, "Dora")
    assert lost["closes"] > 0
    shown = f"{round(lost['closes'], 2):g}"
    assert f'<tr><td>Dora</td><td class="num">{shown}</td>' in html


def test_a_table_s_qr_code_is_drawn_once_for_the_director_s_page_seen_again() -> None:
    from tally.web.qr import qr_svg

    url = "http://192.168.1.20:8066/t/7/secret-of-table-seven"
    assert qr_svg(url) is qr_svg(url)  # the event page re-drawn at every view: drawn once
    assert qr_svg(url) != qr_svg(url + "x")
