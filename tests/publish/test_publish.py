"""``tally publish``: the bundled examples as a static site that works from ``file://``.

Every relative link and source resolves to a written file, nothing is loaded from another
host, no secret of the director's or the tables' is written, a private player appears by
initials, German pages are in German, and publishing again after one new result rewrites
only the pages that result changes.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tally.store import Store, open_store
from tests.publish_support import PRIVATE, Site


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src", "srcset", "action", "data", "poster") and value:
                self.links.append(value)


def links_of(page: Path) -> list[str]:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.links


def pages(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.html"))


@pytest.mark.parametrize("lang", ["english", "german"])
def test_every_link_and_source_resolves_to_a_written_file(site: Site, lang: str) -> None:
    folder: Path = getattr(site, lang)
    checked = 0
    for page in pages(folder):
        for link in links_of(page):
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{page}: {link} leaves the site"
            assert not parts.path.startswith("/"), f"{page}: {link} is not relative"
            if not parts.path:
                continue  # (a link within the page)
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file(), f"{page.relative_to(folder)}: {link} is not written"
            assert folder.resolve() in target.parents, f"{page}: {link} leaves the folder"
            checked += 1
    assert checked > 500


def test_the_site_covers_every_event_player_match_and_recorded_deal(site: Site) -> None:
    with open_store(site.db) as store:
        events = store.events.all()
        matches = store.matches.all()
        players = {n for m in matches for n in m.players}
        recorded = [
            d.id
            for m in matches
            for d in store.matches.state(m.id).deals
            if d.kind == "recorded" and d.finished
        ]
        ids = {p.name: p.id for p in store.players.all()}
    assert recorded
    for ev in events:
        assert (site.english / "events" / f"{ev.id}.html").is_file()
    for m in matches:
        assert (site.english / "matches" / f"{m.id}.html").is_file()
    for name in players:
        assert (site.english / "players" / f"{ids[name]}.html").is_file()
    for deal in recorded:
        assert (site.english / "deals" / f"{deal}.html").is_file()
    assert (site.english / "series" / "1.html").is_file()


def test_nothing_is_loaded_from_another_host(site: Site) -> None:
    css = (site.english / "style.css").read_text(encoding="utf-8")
    assert "url(" not in css and "@import" not in css
    for page in pages(site.english) + pages(site.german):
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text
        for found in re.finditer(r"""(?:href|src)\s*=\s*["']?\s*(https?:)?//""", text):
            raise AssertionError(f"{page}: {found.group(0)}")
        # (the only address in a page is the SVG namespace of the value graph)
        assert set(re.findall(r"https?://[^\s\"'<>]+", text)) <= {"http://www.w3.org/2000/svg"}


def test_no_secret_of_the_director_or_the_tables_is_written(site: Site) -> None:
    assert len(site.secrets) > 50
    for folder in (site.english, site.german):
        for path in folder.rglob("*"):
            if path.is_file():
                data = path.read_text(encoding="utf-8")
                for secret in site.secrets:
                    assert secret not in data, f"{path.name} holds a secret"
                assert "director" not in data.lower()


def test_a_private_player_appears_by_initials_everywhere(site: Site) -> None:
    with open_store(site.db) as store:
        pid = store.players.get(PRIVATE).id
    for folder in (site.english, site.german):
        for path in folder.rglob("*.html"):
            text = path.read_text(encoding="utf-8")
            assert "Bert Huber" not in text and "Bert" not in text, path
        page = (folder / "players" / f"{pid}.html").read_text(encoding="utf-8")
        assert "<h1>B. H.</h1>" in page
    event = (site.english / "events" / "1.html").read_text(encoding="utf-8")
    assert f'href="../players/{pid}.html">B. H.</a>' in event


def test_german_pages_are_in_german(site: Site) -> None:
    index = (site.german / "index.html").read_text(encoding="utf-8")
    assert '<html lang="de">' in index
    assert "<h1>Ergebnisse</h1>" in index and "Zuletzt aktualisiert" in index
    event = (site.german / "events" / "4.html").read_text(encoding="utf-8")
    assert "Kreuztabelle" in event or "Runde" in event
    for english in ("Results", "Standings", "Player", "Rounds", "Last updated"):
        assert f">{english}<" not in index + event


def test_publishing_again_after_one_result_rewrites_only_the_pages_it_changes(
    site: Site, tmp_path: Path
) -> None:
    import shutil

    from tally.publish.watch import publish

    copy = tmp_path / "club.db"
    shutil.copy(site.db.removeprefix("sqlite:///"), copy)
    out = tmp_path / "site"
    with open_store(f"sqlite:///{copy}", scorer="director") as store:
        first = publish(store, out)
        assert first.written and not first.removed
        assert publish(store, out).written == ()
        club = next(e for e in store.events.all() if not e.format.has_rounds)
        a, b = "Anna Berger", "Franz Moser"
        match = store.matches.start(a, b, first_dealer=a, event=club.id)
        store.deals.quick_result(match.id, winner=a, points=2)
        ids = {p.name: p.id for p in store.players.all()}
        again = publish(store, out)
    # (the index says when the results last changed: to the minute)
    assert set(again.written) - {"index.html"} == {
        f"events/{club.id}.html",
        f"matches/{match.id}.html",
        f"players/{ids[a]}.html",
        f"players/{ids[b]}.html",
        "seasons/2026.html",
    }
    assert again.removed == ()


def _season_rows(page: Path) -> list[list[str]]:
    """The rows of the standings on a season's page, each cell's text."""
    body = page.read_text(encoding="utf-8").split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_a_season_page_has_the_standings_tally_standings_season_gives(site: Site) -> None:
    import json

    from typer.testing import CliRunner

    from tally.cli import app
    from tally.publish.privacy import initials

    command = ["standings", "--season", "--from", "2026-01-01", "--to", "2026-12-31", "--json"]
    result = CliRunner().invoke(app, [*command, "--db", site.db])
    assert result.exit_code == 0, result.output
    season = json.loads(result.stdout)
    page = site.english / "seasons" / "2026.html"
    rows = _season_rows(page)
    assert [r[:5] for r in rows] == [
        [
            str(r["rank"]),
            initials(r["player"]) if r["player"] == PRIVATE else r["player"],
            str(r["played"]),
            str(r["won"]),
            str(r["lost"]),
        ]
        for r in season["rows"]
    ]
    assert [r[6] for r in rows] == [f"{r['percentage']:.1f}" for r in season["rows"]]
    # the events it counts, linked; every player linked to their page
    text = page.read_text(encoding="utf-8")
    assert season["events"] and all(f'href="../events/{e}.html"' in text for e in season["events"])
    with open_store(site.db) as store:
        ids = {p.name: p.id for p in store.players.all()}
        counted = [store.events.get(e).name for e in season["events"]]
    assert all(f'href="../players/{ids[r["player"]]}.html"' in text for r in season["rows"])
    index = (site.english / "index.html").read_text(encoding="utf-8")
    assert 'href="seasons/2026.html">Season 2026</a>' in index
    assert all(name in index.split("Seasons", 1)[1] for name in counted)
    german = (site.german / "seasons" / "2026.html").read_text(encoding="utf-8")
    assert "<h1>Saison 2026</h1>" in german and "Gewertete Turniere" in german
    assert "Rangliste" in german or "Tabelle" in german
    assert ">Season" not in german and ">Standings<" not in german


def test_a_season_counting_an_event_not_published_has_no_page(site: Site, tmp_path: Path) -> None:
    from tally.publish.pages import site_pages

    with open_store(site.db) as store:
        robin = next(e for e in store.events.all() if e.format.has_rounds)
        club = next(e for e in store.events.all() if e.format.counts_in_the_season)
        assert not any(p.startswith("seasons/") for p in site_pages(store, [str(robin.id)]))
        assert "seasons/2026.html" in site_pages(store, [str(club.id)])


def test_a_page_no_longer_published_is_removed(site: Site, tmp_path: Path) -> None:
    from tally.publish.writing import write_site

    out = tmp_path / "site"
    write_site(out, {"index.html": b"a", "matches/7.html": b"m", "matches/8.html": b"n"})
    (out / "matches" / "notes.txt").write_text("kept")
    done = write_site(out, {"index.html": b"a", "matches/7.html": b"m2"})
    assert done.written == ("matches/7.html",) and done.removed == ("matches/8.html",)
    assert done.unchanged == 1
    assert (out / "matches" / "notes.txt").is_file()


def _new_result(store: Store) -> tuple[int, int, tuple[int, int]]:
    """A match of the club evening played to its end: its event, its number, its players."""
    club = next(e for e in store.events.all() if not e.format.has_rounds)
    a, b = "Anna Berger", "Franz Moser"
    match = store.matches.start(a, b, first_dealer=a, event=club.id)
    while not store.matches.state(match.id).over:
        store.deals.quick_result(match.id, winner=a, points=3)
    ids = {p.name: p.id for p in store.players.all()}
    return club.id, match.id, (ids[a], ids[b])


def test_the_pages_a_change_touches_are_made_as_the_whole_site_makes_them(
    site: Site, tmp_path: Path
) -> None:
    import shutil

    from tally.publish.pages import site_pages
    from tally.publish.site import version
    from tally.publish.watch import changed_since, publish

    copy = tmp_path / "club.db"
    shutil.copy(site.db.removeprefix("sqlite:///"), copy)
    with open_store(f"sqlite:///{copy}", scorer="director") as store:
        seen = version(store)
        event, match, players = _new_result(store)
        changed = changed_since(store, seen)
        assert changed is not None and match in changed.matches and event in changed.events
        part = site_pages(store, only=changed)
        whole = site_pages(store)
        store.players.set_private("Anna", True)
        assert changed_since(store, version(store) - 1) is None  # (a player's change)
        done = publish(store, tmp_path / "site", only=changed)
    assert {f"events/{event}.html", f"matches/{match}.html", "index.html"} <= set(part)
    assert {f"players/{p}.html" for p in players} <= set(part)
    assert "seasons/2026.html" in part  # (the club evening counts in the season)
    assert "events/2.html" not in part and len(part) < len(whole) / 4
    assert all(whole[path] == data for path, data in part.items())
    assert done.removed == ()


@pytest.mark.slow
def test_watch_rewrites_the_standings_and_the_season_within_seconds_of_a_result(
    site: Site, tmp_path: Path
) -> None:
    import shutil
    import subprocess
    import sys
    import time

    from tally.publish.pages import site_pages

    copy = tmp_path / "club.db"
    shutil.copy(site.db.removeprefix("sqlite:///"), copy)
    url, out = f"sqlite:///{copy}", tmp_path / "site"
    command = [sys.executable, "-m", "tally", "publish", "--watch", "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--db", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        assert "files written" in process.stdout.readline()  # (the whole site, at first)
        with open_store(url, scorer="director") as store:
            event, _match, _players = _new_result(store)
            recorded = time.time()
            made = site_pages(store)  # (the standings with the match just finished)
        for path in (f"events/{event}.html", "seasons/2026.html"):
            while not (out / path).is_file() or (out / path).read_bytes() != made[path]:
                assert time.time() - recorded < 60, f"{path} was not rewritten"
                assert process.poll() is None, process.stderr and process.stderr.read()
                time.sleep(0.05)
            written = (out / path).stat().st_mtime
            assert written - recorded < 5, f"{path} was rewritten {written - recorded} s later"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_deal_published_with_its_analysis_shows_its_marks_and_value_graph(site: Site) -> None:
    from tally.publish.pages import deal_page
    from tally.publish.site import select

    with open_store(site.db) as store:
        chosen = select(store)
        plain = deal_page(store, chosen, 1, "en", analyse=False)
        analysed = deal_page(store, chosen, 1, "de", analyse=True)
    assert "<svg" not in plain and "<svg" in analysed
    assert 'class="analysis"' in analysed and "Analyse" in analysed
    assert "<blockquote" in plain or "“" in plain  # (the rule quoted)


def test_the_command_publishes_what_it_is_named_and_refuses_a_name_it_does_not_know(
    site: Site, tmp_path: Path
) -> None:
    from tests.store_support import ok, refused

    out = tmp_path / "cup"
    said = ok(site.db, "publish", "Club Cup", "--out", str(out), "--lang", "de")
    assert said.startswith(f"Veröffentlicht nach {out}: ")
    assert len(list((out / "events").iterdir())) == 2 and (out / "series" / "1.html").is_file()
    again = ok(site.db, "publish", "Club Cup", "--out", str(out), "--lang", "de")
    assert "0 Dateien geschrieben, 0 entfernt" in again
    refused(site.db, "publish", "Autumn", "Nowhere", match='no event or series "Nowhere"')


def test_the_site_s_links_stay_on_the_site_and_off_the_printed_sheets() -> None:
    from tally.publish.site import environment as site
    from tally.sheets.render import environment as sheets

    linked = site("en").from_string("{{ 'Anna Berger' | person }}")
    assert linked.render(people={"Anna Berger": 3}, up="../") == (
        '<a href="../players/3.html">Anna Berger</a>'
    )
    assert sheets("en").filters["person"] is str  # a sheet printed after a publish: no link
    printed = sheets("en").from_string("{{ 'Anna Berger' | person }}")
    assert printed.render() == "Anna Berger"


def test_without_the_analysis_no_report_is_written_or_linked(site: Site) -> None:
    for folder in (site.english, site.german):
        assert not (folder / "reports").exists()
        for page in pages(folder):
            assert not any("reports/" in link for link in links_of(page)), page


def _club_players(store: Store) -> tuple[int, dict[str, int]]:
    """The club evening's number and its players' numbers by name."""
    club = next(e for e in store.events.all() if not e.format.has_rounds)
    names = {p.name for p in club.players}
    names |= {n for m in store.matches.all(club.id) for n in m.players}
    return club.id, {p.name: p.id for p in store.players.all() if p.name in names}


@pytest.mark.slow
def test_with_the_analysis_every_player_has_a_report_linked_from_their_page_and_the_event(
    analysed_site: Site,
) -> None:
    with open_store(analysed_site.db) as store:
        club, players = _club_players(store)
    assert len(players) >= 4
    for folder in (analysed_site.english, analysed_site.german):
        event = links_of(folder / "events" / f"{club}.html")
        for pid in players.values():
            report = f"reports/{club}-{pid}.html"
            assert (folder / report).is_file()
            assert f"../{report}" in event
            assert f"../{report}" in links_of(folder / "players" / f"{pid}.html")
        assert len(list((folder / "reports").iterdir())) == len(players)
        for page in pages(folder):
            for link in links_of(page):
                path = urlsplit(link).path
                if path:
                    assert (page.parent / unquote(path)).resolve().is_file(), (page, link)
    page = (analysed_site.english / "reports" / f"{club}-{players['Anna Berger']}.html").read_text(
        encoding="utf-8"
    )
    assert "<h1>Anna Berger</h1>" in page and "Closes and claims" in page
    assert "Game points lost by the player&#39;s decisions" in page or "decisions" in page


@pytest.mark.slow
def test_a_private_players_report_shows_their_initials_and_not_their_name(
    analysed_site: Site,
) -> None:
    with open_store(analysed_site.db) as store:
        club, players = _club_players(store)
    assert PRIVATE in players
    for folder in (analysed_site.english, analysed_site.german):
        for page in pages(folder):
            assert "Bert" not in page.read_text(encoding="utf-8"), page
        own = (folder / "reports" / f"{club}-{players[PRIVATE]}.html").read_text(encoding="utf-8")
        assert "<h1>B. H.</h1>" in own
    other = f"{club}-{players['Anna Berger']}.html"
    assert "B. H." in (analysed_site.english / "reports" / other).read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_german_report_page_is_in_german(analysed_site: Site) -> None:
    with open_store(analysed_site.db) as store:
        club, players = _club_players(store)
    page = (analysed_site.german / "reports" / f"{club}-{players['Anna Berger']}.html").read_text(
        encoding="utf-8"
    )
    assert '<html lang="de">' in page and "› <span>Bericht</span>" in page
    assert "Zudrehen und Ansagen" in page and "Spielpunkte" in page
    for english in ("Report", "Matches", "Closes and claims", "Game points", "Opponent"):
        assert f">{english}<" not in page
    event = (analysed_site.german / "events" / f"{club}.html").read_text(encoding="utf-8")
    assert "Berichte der Spieler" in event


@pytest.mark.slow
def test_a_result_makes_the_reports_of_its_players_as_the_whole_site_makes_them(
    analysed_site: Site, tmp_path: Path
) -> None:
    import shutil

    from tally.publish.pages import Changed, site_pages
    from tally.publish.site import version
    from tally.publish.watch import changed_since

    copy = tmp_path / "club.db"
    shutil.copy(analysed_site.db.removeprefix("sqlite:///"), copy)
    with open_store(f"sqlite:///{copy}", scorer="director") as store:
        club, _ = _club_players(store)
        seen = version(store)
        event, match, (a, b) = _new_result(store)
        changed = changed_since(store, seen)
        assert changed is not None
        part = site_pages(store, [str(club)], analyse=True, only=changed)
        # (a change naming the match alone: its two players' reports, each made alone)
        pair = site_pages(
            store, [str(club)], analyse=True, only=Changed(matches=frozenset({match}))
        )
        whole = site_pages(store, [str(club)], analyse=True)
    ours = {f"reports/{event}-{a}.html", f"reports/{event}-{b}.html"}
    assert ours <= set(part)
    assert {path for path in pair if path.startswith("reports/")} == ours
    assert all(whole[path] == data for path, data in (part | pair).items())
    assert "events/2.html" not in whole  # (the club evening's site alone)
