"""Issue 11, "Fair tables": ranking by the match-point percentage (the default of club evenings
and seasons, configurable per event and per command), byes and matches still being played
shown, a club evening's cross-table, tiebreak columns printed once, and a standings sheet
sized to its players. The store's parts run on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import re
from datetime import date
from pathlib import Path
from typing import Any

import pypdf
import pytest

from tally.errors import Refused, TallyError
from tally.events.tiebreaks import MatchResult, standings
from tests.json_support import strict_json
from tests.store_support import ok, refused

# A club evening as it happens: Bert stays all evening (4 matches, 3 won), Anna plays once
# and wins, Carl wins one of three, Dora loses both of hers.
EVENING = [
    ("Bert", "Carl", "Bert"),
    ("Bert", "Dora", "Bert"),
    ("Bert", "Carl", "Bert"),
    ("Carl", "Bert", "Carl"),
    ("Anna", "Dora", "Anna"),
]
NAMES = ["Anna", "Bert", "Carl", "Dora"]


def results(evening: list[tuple[str, str, str]]) -> list[MatchResult]:
    """Each match won 7:3 by its winner."""
    return [MatchResult(a, b, w, 7 if w == a else 3, 7 if w == b else 3) for a, b, w in evening]


# --- the ranking (pure) -----------------------------------------------------------------------


def test_percentage_ranks_a_player_of_one_won_match_above_one_of_three_won_of_four() -> None:
    by_points = standings(NAMES, results(EVENING))
    by_share = standings(NAMES, results(EVENING), rank_by="percentage")
    assert [(r.rank, r.player, r.match_points) for r in by_points] == [
        (1, "Bert", 3.0),
        (2, "Anna", 1.0),
        (3, "Carl", 1.0),
        (4, "Dora", 0.0),
    ]
    assert [(r.rank, r.player, round(r.percentage, 1)) for r in by_share] == [
        (1, "Anna", 100.0),
        (2, "Bert", 75.0),
        (3, "Carl", 33.3),
        (4, "Dora", 0.0),
    ]
    # The percentage is shown whatever ranks: the same figures both ways.
    assert {r.player: r.percentage for r in by_points} == {r.player: r.percentage for r in by_share}


def test_equal_percentages_go_to_the_tiebreaks() -> None:
    # Anna 1 of 2 and Bert 2 of 4 are both at 50 %; they met and Anna won, so head-to-head
    # puts her above Bert, who has more match points.
    evening = [
        ("Anna", "Bert", "Anna"),
        ("Carl", "Anna", "Carl"),
        ("Bert", "Dora", "Bert"),
        ("Bert", "Dora", "Bert"),
        ("Carl", "Bert", "Carl"),
    ]
    rows = standings(
        NAMES, results(evening), rank_by="percentage", tiebreaks=["head-to-head", "wins"]
    )
    assert [(r.rank, r.player, r.match_points, r.percentage, r.tiebreak_values) for r in rows] == [
        (1, "Carl", 2.0, 100.0, (0.0, 2.0)),
        (2, "Anna", 1.0, 50.0, (1.0, 1.0)),
        (3, "Bert", 2.0, 50.0, (0.0, 2.0)),
        (4, "Dora", 0.0, 0.0, (0.0, 0.0)),
    ]


def test_a_bye_that_scores_counts_as_a_match_in_the_percentage() -> None:
    # Three players, one bye each; Anna wins both her matches.
    res = results([("Anna", "Bert", "Anna"), ("Anna", "Carl", "Anna"), ("Bert", "Carl", "Bert")])
    byes = {"Anna": 1, "Bert": 1, "Carl": 1}
    scoring = standings(
        ["Anna", "Bert", "Carl"], res, match_points_per_bye=1.0, byes=byes, rank_by="percentage"
    )
    # a bye worth a win: 3 match points out of 3 (two matches and the bye)
    assert [(r.player, r.match_points, r.percentage, r.byes) for r in scoring] == [
        ("Anna", 3.0, 100.0, 1),
        ("Bert", 2.0, 100.0 * 2 / 3, 1),
        ("Carl", 1.0, 100.0 / 3, 1),
    ]
    nothing = standings(["Anna", "Bert", "Carl"], res, byes=byes, rank_by="percentage")
    # a bye worth nothing is no match: 2 of 2, 1 of 2, 0 of 2
    assert [(r.player, r.percentage, r.byes) for r in nothing] == [
        ("Anna", 100.0, 1),
        ("Bert", 50.0, 1),
        ("Carl", 0.0, 1),
    ]


def test_running_matches_are_carried_and_change_no_rank() -> None:
    plain = standings(NAMES, results(EVENING), rank_by="percentage")
    running = standings(
        NAMES, results(EVENING), rank_by="percentage", running={"Carl": 1, "Dora": 1}
    )
    assert [r.player for r in running] == [r.player for r in plain]
    assert [r.running for r in running] == [0, 0, 1, 1]


def test_an_unknown_ranking_is_refused() -> None:
    with pytest.raises(TallyError, match="rank by points or percentage"):
        standings(NAMES, [], rank_by="luck")
    with pytest.raises(TallyError, match="negative number of running matches"):
        standings(NAMES, [], running={"Anna": -1})


# --- the store, both databases ------------------------------------------------------------------


def evening(store: Any, **options: Any) -> int:
    """The club evening of :data:`EVENING`, with Carl v Dora still being played."""

    for name in NAMES:
        store.players.add(name)
    ev = store.events.create("Thursday club", players=NAMES, held_on=date(2026, 11, 19), **options)
    for a, b, winner in EVENING:
        m = store.matches.start(a, b, first_dealer=a, event=ev.id)
        loser = b if winner == a else a
        for who, points in ((loser, 3), (winner, 3), (winner, 3), (winner, 1)):
            store.deals.quick_result(m.id, winner=who, points=points, reason="claim")
    m = store.matches.start("Carl", "Dora", first_dealer="Carl", event=ev.id)
    store.deals.quick_result(m.id, winner="Dora", points=2, reason="claim")
    return ev.id


def test_a_club_evening_ranks_by_percentage_and_marks_who_is_still_playing(store: Any) -> None:

    eid = evening(store)
    view = store.events.standings(eid)
    assert view.event is not None and view.event.rank_by == "percentage"
    assert (view.rank_by, view.provisional) == ("percentage", True)
    assert [(r.rank, r.player, r.played, round(r.percentage, 1), r.running) for r in view.rows] == [
        (1, "Anna", 1, 100.0, 0),
        (2, "Bert", 4, 75.0, 0),
        (3, "Carl", 3, 33.3, 1),
        (4, "Dora", 2, 0.0, 1),
    ]
    # the same evening by match points, asked for
    by_points = store.events.standings(eid, rank_by="points")
    assert [r.player for r in by_points.rows] == ["Bert", "Anna", "Carl", "Dora"]
    assert by_points.rank_by == "points"
    # a season ranks by percentage unless told
    season = store.events.season_standings()
    assert season.rank_by == "percentage" and season.provisional
    assert [r.player for r in season.rows] == ["Anna", "Bert", "Carl", "Dora"]
    assert [r.player for r in store.events.season_standings(rank_by="points").rows] == [
        "Bert",
        "Anna",
        "Carl",
        "Dora",
    ]
    with pytest.raises(Refused, match='the ranking must be points or percentage, not "most"'):
        store.events.standings(eid, rank_by="most")


def test_the_ranking_is_stored_with_the_event(store: Any) -> None:

    eid = evening(store, rank_by="points")
    assert store.events.get(eid).rank_by == "points"
    assert [r.player for r in store.events.standings(eid).rows] == ["Bert", "Anna", "Carl", "Dora"]
    cup = store.events.create("Cup", kind="round-robin", players=["Anna", "Bert", "Carl"])
    assert cup.rank_by == "points"
    with pytest.raises(Refused, match="the ranking must be points or percentage"):
        store.events.create("Odd", rank_by="share")


def test_byes_show_in_the_rows_and_the_cross_table(store: Any) -> None:

    for name in ("Anna", "Bert", "Carl"):
        store.players.add(name)
    cup = store.events.create(
        "Cup", kind="round-robin", players=["Anna", "Bert", "Carl"], bye="win"
    )
    store.events.start_round(cup.id, 1)
    store.events.start_round(cup.id, 2, force=True)  # round 1 still played
    view = store.events.standings(cup.id)
    byes = {r.player: r.byes for r in view.rows}
    assert sorted(byes.values()) == [0, 1, 1] and view.provisional
    grid = store.events.cross_table(cup.id)
    assert sorted(grid.byes) == [(), (1,), (2,)]
    assert {p: len(b) for p, b in zip(grid.players, grid.byes, strict=True)} == byes


# --- the command line -------------------------------------------------------------------------


def cli_evening(url: str, *create: str) -> None:
    ok(url, "player", "add", *NAMES)
    ok(url, "event", "create", "Thursday club", *NAMES, "--date", "2026-11-19", *create)
    for number, (a, b, winner) in enumerate(EVENING, start=1):
        ok(url, "match", "start", a, b, "--dealer", a, "--event", "1")
        loser = b if winner == a else a
        for who, points in ((loser, "3"), (winner, "3"), (winner, "3"), (winner, "1")):
            ok(url, "deal", "quick", str(number), "--winner", who, "--points", points)
    ok(url, "match", "start", "Carl", "Dora", "--dealer", "Carl", "--event", "1")
    ok(url, "deal", "quick", "6", "--winner", "Dora", "--points", "2")


def test_the_terminal_shows_the_percentage_the_mark_and_what_ranks(db_url: str) -> None:
    cli_evening(db_url)
    table = ok(db_url, "standings", "1")
    assert table.splitlines()[0].rstrip().endswith("club evening (provisional)")
    rows = [
        line.split()
        for line in table.splitlines()
        if line.split()[:1] in (["1"], ["2"], ["3"], ["4"])
    ]
    assert [row[:3] for row in rows] == [
        ["1", "Anna", "1"],
        ["2", "Bert", "4"],
        ["3", "Carl", "*"],
        ["4", "Dora", "*"],
    ]
    assert [row[6 if row[2] != "*" else 7] for row in rows] == ["100.0", "75.0", "33.3", "0.0"]
    head = next(line.split() for line in table.splitlines() if line.split()[:1] == ["#"])
    # no byes in a club evening, and only head-to-head and Sonneborn-Berger add a column
    assert head == [
        "#",
        "Player",
        "Pl",
        "W",
        "L",
        "MP",
        "%",
        "GP+",
        "GP-",
        "Diff",
        "Schn",
        "Schw",
        "H2H",
        "SB",
    ]
    assert (
        "Ranked by % (match-point percentage), then H2H head-to-head, Diff, GP+, "
        "SB sonneborn-berger, W;" in table
    )
    assert "* playing a match not over yet: these standings are provisional." in table
    assert "Bye rounds" not in table
    by_points = ok(db_url, "standings", "1", "--rank-by", "points")
    assert [
        line.split()[1] for line in by_points.splitlines() if line.split()[:1] in (["1"], ["2"])
    ] == ["Bert", "Anna"]
    data = strict_json(ok(db_url, "standings", "1", "--json"))
    assert (data["rank_by"], data["provisional"]) == ("percentage", True)
    assert [(r["player"], r["running"]) for r in data["rows"]] == [
        ("Anna", 0),
        ("Bert", 0),
        ("Carl", 1),
        ("Dora", 1),
    ]
    refused(db_url, "standings", "1", "--rank-by", "most", match="the ranking must be")


def test_event_create_takes_the_ranking(db_url: str) -> None:
    cli_evening(db_url, "--rank-by", "points")
    assert strict_json(ok(db_url, "event", "show", "1", "--json"))["rank_by"] == "points"
    assert "Ranked by MP (match points)" in ok(db_url, "standings", "1")
    refused(
        db_url,
        "event",
        "create",
        "Other",
        "--rank-by",
        "share",
        match="the ranking must be points or percentage",
    )


def test_event_toml_takes_the_ranking(tmp_path: Path) -> None:
    folder = tmp_path / "evening"
    folder.mkdir()
    (folder / "event.toml").write_text(
        'name = "Friday"\nkind = "club-evening"\ndate = "2026-11-20"\nrules = "sixty-six"\n'
        'players = ["Anna", "Bert"]\nrank_by = "points"\n\n[[matches]]\n'
        'players = ["Anna", "Bert"]\nfirst_dealer = "Anna"\n'
        'results = ["Anna 3 claim", "Anna 3 claim", "Anna 1 claim"]\n',
        encoding="utf-8",
    )
    url = f"sqlite:///{tmp_path / 'load.db'}"
    ok(url, "load", str(folder))
    assert strict_json(ok(url, "event", "show", "1", "--json"))["rank_by"] == "points"
    (folder / "event.toml").write_text(
        (folder / "event.toml").read_text(encoding="utf-8").replace('"points"', "3"),
        encoding="utf-8",
    )
    code_url = f"sqlite:///{tmp_path / 'bad.db'}"
    from tests.store_support import tally

    code, out, err = tally(code_url, "load", str(folder))
    assert code == 2 and "rank_by must be a text" in err and "Traceback" not in err + out


# --- the sheet --------------------------------------------------------------------------------


def pdf_pages(path: Path) -> list[str]:
    """The text of each page, its white space (and line breaks) as single spaces."""
    return [
        " ".join(page.extract_text().split())
        for page in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages
    ]


def lowest_row(path: Path, last: str) -> float:
    """How far down the first page (0 top, 1 bottom) the line of player ``last`` sits."""
    page = pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages[0]
    height = float(page.mediabox.height)
    found: list[float] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip() == last:
            found.append(1 - tm[5] / height)

    page.extract_text(visitor_text=visit)
    return min(found)


def test_the_club_evening_sheet_has_the_percentage_marks_and_a_cross_table(
    db_url: str, tmp_path: Path
) -> None:
    cli_evening(db_url)
    out = tmp_path / "evening.pdf"
    ok(db_url, "print", "standings", "1", "-o", str(out))
    [text] = pdf_pages(out)
    assert "Standings (provisional)" in text
    assert re.search(
        r"Rank Player Played ?Won Lost MP % GP won GP conc\. Diff\. Schn\. "
        r"Schw\. H2H SB",
        text,
    )
    assert re.search(r"1 Anna 1 1 0 1 100\.0 7 3 \+4", text)
    assert re.search(r"3 Carl \* 3 1 2 1 33\.3", text)
    assert "Ranked by % match-point percentage, then H2H head-to-head" in text
    assert "then Diff. game-point difference, then GP won game points won" in text
    assert "* playing a match not over yet: these standings are provisional." in text
    assert "Bye" not in text  # a club evening has no byes: no column for them
    assert "Cross-table" in text
    # Bert against Carl, three matches: 7:3, 7:3 and 3:7
    assert re.search(r"2 Bert 7:3 7:3 3:7 7:3 3 Carl", text)
    # four players fill the page: their last line sits well below the top third
    assert lowest_row(out, "Dora") > 0.3


def test_a_round_robin_sheet_shows_the_byes(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl")
    ok(
        db_url,
        "event",
        "create",
        "Cup",
        "Anna",
        "Bert",
        "Carl",
        "--kind",
        "round-robin",
        "--bye",
        "win",
    )
    ok(db_url, "event", "round", "1", "1", "--start")
    out = tmp_path / "cup.pdf"
    ok(db_url, "print", "standings", "1", "-o", str(out))
    [text] = pdf_pages(out)
    assert re.search(r"Rank Player Played ?Won Lost Bye MP %", text)
    assert "Bye rounds sat out" in text and "bye R1" in text
    assert "bye R3: sat out round 3." in text  # the legend's example


def test_a_long_table_pages_cleanly(tmp_path: Path) -> None:
    from datetime import datetime

    from tally.sheets.data import StandingRow, StandingsSheet
    from tally.sheets.render import render_standings

    rows = tuple(
        StandingRow(
            rank=i + 1,
            player=f"Member {i + 1:02d}",
            played=10,
            won=10 - i // 8,
            lost=i // 8,
            match_points=10 - i // 8,
            game_points_won=70,
            game_points_conceded=40,
            schneider_wins=1,
            schwarz_wins=0,
            tiebreaks=(1.0, 30.0),
            percentage=100 - 10 * (i // 8),
        )
        for i in range(80)
    )
    sheet = StandingsSheet(
        event="Season",
        date=date(2026, 12, 31),
        rule_set="per event",
        printed_at=datetime(2026, 12, 31, 20, 0),
        rows=rows,
        tiebreaks=("head-to-head", "game-point-difference"),
        rank_by="percentage",
    )
    out = tmp_path / "season.pdf"
    out.write_bytes(render_standings(sheet))
    pages = pdf_pages(out)
    assert len(pages) >= 2
    for page in pages[:-1]:
        assert re.search(r"Rank Player Played ?Won Lost MP %", page)  # the head repeats
    seen = [int(m) for page in pages for m in re.findall(r"Member (\d\d)", page)]
    assert seen == list(range(1, 81))  # every line once, none split over two pages
