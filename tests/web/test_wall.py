"""The wall (``/standings/N``) as the server sends it, through Starlette's test client: every
player and every table of the round in the page (the browser splits them into pages that fit
the screen: ``tests/web/test_wall_browser.py``), the page indicator's words in the reader's
language, how long a page stays up, and every kind of event."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from html import escape
from typing import Any

import pytest

pytest.importorskip("starlette")

from tests import wall_support


@pytest.fixture
def client(store: Any) -> Iterator[Any]:
    from tally.web.server import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    yield TestClient(create_app(store))


def _page(client: Any, path: str) -> str:
    res = client.get(path)
    assert res.status_code == 200, res.text
    return str(res.text)


def _players(html: str) -> list[str]:
    return re.findall(r'<span class="nm"[^>]*>([^<]*?)(?:&nbsp;\*)?</span>', html)


def _boards(html: str) -> list[tuple[str, str, str]]:
    return re.findall(
        r'<span class="tableno">(\d*)</span><span class="pn"[^>]*>([^<]*)</span>'
        r'<span class="res">[^<]*<i>:</i>[^<]*</span>'
        r'<span class="pn second"[^>]*>([^<]*)</span>',
        html,
    )


def test_the_wall_sends_every_player_and_every_table_of_the_round(store: Any, client: Any) -> None:

    ev = wall_support.swiss(store, 20)
    rnd = store.events.rounds(ev, 2)[0]
    html = _page(client, f"/standings/{ev}")
    assert sorted(_players(html)) == sorted(escape(n) for n in wall_support.names(20))
    assert _boards(html) == [
        (str(p.table), escape(p.first), escape(p.second)) for p in rnd.pairings
    ]
    # the browser pages them: each column says its pages in these words, every 10 seconds
    assert html.count('data-pager="page {page} of {pages}"') == 2
    assert 'data-every="10"' in html and "/static/live.js" in html
    live = client.get(f"/standings/{ev}/live?lang=en&v=x").json()["html"]
    assert _players(live) == _players(html) and _boards(live) == _boards(html)


def test_the_director_chooses_how_long_a_page_stays_up(store: Any, client: Any) -> None:
    ev = wall_support.round_robin(store, 8)
    for given, every in (
        ("20", 20),
        ("1", 2),
        ("600", 120),
        ("99999", 10),
        ("soon", 10),
        ("", 10),
        ("²", 10),
        ("１５", 10),
    ):
        assert f'data-every="{every}"' in _page(client, f"/standings/{ev}?every={given}")


def test_the_german_wall_says_its_pages_in_german(store: Any, client: Any) -> None:
    ev = wall_support.swiss(store, 20)
    html = _page(client, f"/standings/{ev}?lang=de")
    assert html.count('data-pager="Seite {page} von {pages}"') == 2
    assert "Tabelle" in html and "Runde 2" in html and "Tisch" in html


@pytest.mark.parametrize(
    "build, players, tables",
    [
        (wall_support.club, 12, 6),
        (wall_support.knockout, 32, 16),
        (wall_support.groups, 16, 8),
        (wall_support.round_robin, 8, 4),
    ],
)
def test_every_kind_of_event_on_the_wall(
    store: Any, client: Any, build: Any, players: int, tables: int
) -> None:
    ev = build(store)
    for lang in ("en", "de"):
        html = _page(client, f"/standings/{ev}?lang={lang}")
        assert sorted(_players(html)) == sorted(escape(n) for n in wall_support.names(players))
        assert len(_boards(html)) == tables


def test_a_knockout_wall_shows_the_lives_left_and_groups_their_group(
    store: Any, client: Any
) -> None:

    ko = wall_support.knockout(store, 32)
    html = _page(client, f"/standings/{ko}")
    lives = dict(
        re.findall(
            r'<span class="nm"[^>]*>([^<]*?)(?:&nbsp;\*)?</span></td>'
            r'<td class="num strong">(\d)</td>',
            html,
        )
    )
    first = store.events.rounds(ko, 1)[0].pairings
    assert '<th class="num">Lives</th>' in html and len(lives) == 32
    assert {lives[escape(p.second)] for p in first[:8]} == {"1"}  # lost a life of two
    assert {lives[escape(p.first)] for p in first} == {"2"}
    assert '<th class="num">Leben</th>' in _page(client, f"/standings/{ko}?lang=de")
    cup = wall_support.groups(store, 16)
    html = _page(client, f"/standings/{cup}")
    group = re.findall(r'</span></td><td class="num">(\d)</td>', html)
    assert '<th class="num">Group</th>' in html and sorted(group) == sorted("1234" * 4)


def test_a_struck_out_player_is_named_below_the_wall_and_the_sheet_never_ranked(
    store: Any, client: Any
) -> None:
    # (withdrawn before half of their games, every result annulled: FIDE lists them apart)
    from tally.sheets.build import event_standings_sheet
    from tally.sheets.render import render_html

    ev = wall_support.round_robin(store, 8)
    gone = wall_support.names(8)[-1]
    store.events.withdraw(ev, gone)
    html = _page(client, f"/standings/{ev}")
    assert escape(gone) not in _players(html) and len(_players(html)) == 7
    said = "Withdrawn before half of their games, every result annulled (not ranked): "
    assert escape(said + gone) in html
    assert f"Withdrawn: {escape(gone)}" not in html  # said once, as what it is
    german = _page(client, f"/standings/{ev}?lang=de")
    assert escape(f"alle Ergebnisse annulliert (nicht gewertet): {gone}") in german
    sheet = event_standings_sheet(store, ev)
    assert gone not in [r.player for r in sheet.rows] and sheet.struck_out == (gone,)
    assert escape(said + gone) in render_html("standings.html.j2", sheet, lang="en")


def test_an_event_as_the_readers_shows_its_wall_in_the_readers_language(
    store: Any, client: Any
) -> None:
    ev = wall_support.round_robin(store, 8)
    assert not store.events.get(ev).language  # "as the reader's"
    german = {"accept-language": "de-AT,de;q=0.9,en;q=0.5"}
    page = client.get(f"/standings/{ev}", headers=german).text
    assert "Runde 2 von 7" in page and f"/standings/{ev}/live?lang=de" in page  # (and its updates)
    assert "round 2 of 7" in client.get(f"/standings/{ev}?lang=en", headers=german).text
    assert "round 2 of 7" in _page(client, f"/standings/{ev}")  # no preference: English
    client.cookies.set("tally_lang", "de")  # the EN/DE switch chose German
    assert "Runde 2 von 7" in _page(client, f"/standings/{ev}")


def test_a_browser_that_switches_its_language_gets_the_wall_anew_not_not_modified(
    store: Any, client: Any
) -> None:
    ev = wall_support.round_robin(store, 8)
    english = client.get(f"/standings/{ev}", headers={"accept-language": "en"})
    tag = english.headers["etag"]
    assert "Accept-Language" in english.headers["vary"]
    again = client.get(f"/standings/{ev}", headers={"accept-language": "en", "if-none-match": tag})
    assert again.status_code == 304
    german = client.get(f"/standings/{ev}", headers={"accept-language": "de", "if-none-match": tag})
    assert german.status_code == 200 and "Runde 2 von 7" in german.text
