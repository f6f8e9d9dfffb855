"""``tally ratings``, ``tally series`` and their printed sheets, through the command line
(Typer's CliRunner) on SQLite and (when configured) PostgreSQL; PDFs read back with pypdf."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.pdf_support import pages_text, squash
from tests.store_support import ok, tally

NASTY = "<b>Eve</b> & Co"


def quick_win(url: str, match: str, winner: str, loser: str) -> None:
    ok(url, "deal", "quick", match, "--winner", loser, "--points", "2")
    for points in ("3", "3", "1"):
        ok(url, "deal", "quick", match, "--winner", winner, "--points", points)


@pytest.fixture
def club(db_url: str) -> str:
    """Anna beats Bert twice and Carl once, Carl beats Bert; a round robin of the four with
    round 1 started and nothing played; a series of the club evening and the round robin."""
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber", "Carl Moser", NASTY)
    ok(db_url, "event", "create", "Thursday club", "Anna", "Bert", "Carl", "--date", "2026-11-19")
    for n, (winner, loser) in enumerate(
        [("Anna", "Bert"), ("Anna", "Bert"), ("Anna", "Carl"), ("Carl", "Bert")], start=1
    ):
        ok(db_url, "match", "start", winner, loser, "--dealer", winner, "--event", "1")
        quick_win(db_url, str(n), winner, loser)
    ok(
        db_url,
        "event",
        "create",
        "Cup",
        "Anna",
        "Bert",
        "Carl",
        NASTY,
        "--kind",
        "round-robin",
        "--date",
        "2026-11-26",
    )
    ok(db_url, "event", "round", "Cup", "1", "--start")
    return db_url


def test_ratings_list_ranks_every_rated_player(club: str) -> None:
    out = ok(club, "ratings")
    assert "Ratings after 4 match(es)" in out
    lines = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [line[1] for line in lines] == ["Anna", "Carl", "Bert"]
    assert lines[0][:2] == ["1", "Anna"] and lines[0][-4:-1] == ["3", "3", "0"]
    data = json.loads(ok(club, "ratings", "--json"))
    assert data["matches_rated"] == 4
    assert [r["player"] for r in data["rows"]] == ["Anna Berger", "Carl Moser", "Bert Huber"]
    anna = data["rows"][0]
    assert anna["conservative"] == pytest.approx(anna["rating"] - 3 * anna["deviation"])
    assert [r["rank"] for r in data["rows"]] == [1, 2, 3]


def test_ratings_history_of_a_player_match_by_match(club: str) -> None:
    out = ok(club, "ratings", "history", "Bert")
    assert "Bert Huber: rating" in out and "rank 3" in out
    assert out.count("lost") == 3 and "Thursday club" in out and "50%" in out
    data = json.loads(ok(club, "ratings", "history", "Bert", "--json"))
    assert [(m["match_id"], m["opponent"], m["result"], m["score"]) for m in data["matches"]] == [
        (1, "Anna Berger", "lost", "2:7"),
        (2, "Anna Berger", "lost", "2:7"),
        (4, "Carl Moser", "lost", "2:7"),
    ]
    steps = data["matches"]
    assert steps[0]["rating_before"] == 25.0
    assert all(a["rating_after"] == b["rating_before"] for a, b in itertools.pairwise(steps))
    assert data["rating"] == steps[-1]["rating_after"]
    out = ok(club, "ratings", "history", "#4")
    assert "no finished match yet" in out


def test_ratings_refusals_are_one_line(club: str, tmp_path: Path) -> None:
    code, _out, err = tally(club, "ratings", "history", "Zelda")
    assert code == 2 and err.startswith("tally: ") and len(err.strip().splitlines()) == 1
    code, _out, err = tally(f"sqlite:///{tmp_path / 'none.db'}", "ratings")
    assert code == 2 and "Traceback" not in err
    assert not (tmp_path / "none.db").exists()


def test_the_terminal_pairings_show_the_expected_result(club: str) -> None:
    out = ok(club, "event", "round", "Cup", "1")
    assert "Expected" in out and "the ratings when the round started" in out
    row = next(line for line in out.splitlines() if "Anna Berger" in line)
    first, second = (int(x.rstrip("%")) for x in row.split()[-3::2])
    assert first + second == 100 and first > 50  # Anna is the stronger player


def test_series_create_standings_and_list(club: str) -> None:
    out = ok(
        club,
        "series",
        "create",
        "Grand Prix",
        "--events",
        "1,Cup",
        "--points",
        "10,6,4,3",
        "--best",
        "1",
    )
    assert 'Created series 1 "Grand Prix"' in out and "the best 1 result(s) count" in out
    data = json.loads(ok(club, "series", "standings", "grand prix", "--json"))
    # Thursday club: Anna 1st (10), Carl 2nd (6), Bert 3rd (4); the Cup: nothing played
    assert [(r["rank"], r["player"], r["total"]) for r in data["rows"]] == [
        (1, "Anna Berger", 10),
        (2, "Carl Moser", 6),
        (3, "Bert Huber", 4),
    ]
    assert data["series"]["events"][1]["stage"].startswith("round 1")
    out = ok(club, "series", "standings", "1")
    assert "E1 Thursday club" in out and "10 (1.)" in out
    assert "Grand Prix" in ok(club, "series", "list")
    code, _out, err = tally(club, "series", "create", "X", "--events", "1", "--points", "1,x")
    assert code == 2 and '"x" is not a number' in err
    code, _out, err = tally(club, "series", "standings", "nothing")
    assert code == 2 and "there is no series" in err


def printed(url: str, folder: Path, *args: str) -> str:
    target = folder / "sheet.pdf"
    ok(url, "print", *args, "-o", str(target))
    return "\n".join(pages_text(target.read_bytes()))


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_printed_ratings_series_and_pairings_read_back(club: str, tmp_path: Path) -> None:
    text = printed(club, tmp_path, "ratings")
    flat = squash(text)
    assert "Ratings" in text and "Matches rated 4" in text
    assert flat.index("AnnaBerger") < flat.index("CarlMoser") < flat.index("BertHuber")
    assert "ranked by it" in text
    ok(
        club,
        "series",
        "create",
        "Grand Prix",
        "--events",
        "1,2",
        "--points",
        "10,6,4",
        "--best",
        "1",
    )
    text = printed(club, tmp_path, "series", "Grand Prix")
    flat = squash(text)
    assert "GrandPrix" in flat and "Seriesstandings" in flat and "E1Thursdayclub" in flat
    assert "101.place" in flat and "thebest1" in flat
    text = printed(club, tmp_path, "pairings", "Cup", "--round", "1")
    assert "Expected" in text and "when the round started" in text and NASTY in text
    expected = [int(x) for x in re.findall(r"(\d+)% : (\d+)%", text)[0]]
    assert sum(expected) == 100


def test_a_pairings_sheet_with_nobody_rated_has_no_expected_column(tmp_path: Path) -> None:
    # printing reads what the store hands out, the same on both databases: SQLite only
    db_url = f"sqlite:///{tmp_path / 'tally.db'}"
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "event", "create", "Cup", "Anna", "Bert", "--kind", "round-robin")
    text = printed(db_url, tmp_path, "pairings", "Cup", "--round", "1")
    assert "Expected" not in text and "Anna" in text


def test_the_sheets_escape_a_name_with_markup(club: str) -> None:
    """The name reaches the HTML as text, never as a tag (Jinja autoescape)."""
    from tally.sheets.ratings import ratings_sheet, series_sheet
    from tally.sheets.render import render_html
    from tally.store import open_store

    out = ok(club, "match", "start", "Anna", NASTY, "--dealer", "Anna", "--event", "1")
    match = re.search(r"[Mm]atch (\d+)", out)
    assert match is not None
    quick_win(club, match.group(1), NASTY, "Anna")
    ok(club, "series", "create", "GP", "--events", "1", "--points", "3,2,1")
    store: Any = open_store(club)
    try:
        html = render_html("ratings.html.j2", ratings_sheet(store))
        assert "&lt;b&gt;Eve&lt;/b&gt; &amp; Co" in html and "<b>Eve</b>" not in html
        html = render_html("series.html.j2", series_sheet(store, "GP"))
        assert "&lt;b&gt;Eve&lt;/b&gt; &amp; Co" in html and "<b>Eve</b>" not in html
    finally:
        store.close()
