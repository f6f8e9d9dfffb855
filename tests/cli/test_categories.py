"""Categories and category prizes from the command line: ``tally player category`` (and
``--remove``) shown in ``player list`` and ``show``; ``tally standings EVENT --category``
as a table (English and German) and JSON; ``tally event prizes --category-prizes``; and the
standings sheet (PDF, read through its text) with the categories' prize tables."""

from __future__ import annotations

import json
from pathlib import Path

from tests.pdf_support import pages_text, squash
from tests.store_support import ok, tally

PLAYERS = ["Anna", "Bert", "Clara", "Dora", "Emil", "Franz"]


def knockout(url: str) -> None:
    """Six players, one life, round 1 played: the first of each table wins 7:0. Anna,
    Clara and Dora are Damen."""
    ok(url, "player", "add", *PLAYERS)
    for name in ("Anna", "Clara", "Dora"):
        ok(url, "player", "category", name, "Damen")
    ok(url, "event", "create", "Preis", *PLAYERS, "--kind", "knockout", "--lives", "1")
    ok(url, "event", "round", "Preis", "1", "--start")
    for match in json.loads(ok(url, "match", "list", "--json")):
        ok(url, "match", "result", str(match["id"]), "7:0")


def test_a_player_s_categories_are_set_shown_and_taken_away(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber")
    out = ok(db_url, "player", "category", "Anna", "Damen", "Club members")
    assert out == "#1 Anna Berger is in: Club members, Damen.\n"
    assert "categories: Club members, Damen" in ok(db_url, "player", "list")
    assert "  categories: Club members, Damen\n" in ok(db_url, "player", "show", "Anna")
    shown = json.loads(ok(db_url, "player", "show", "Anna", "--json"))
    assert shown["categories"] == ["Club members", "Damen"]
    code, _out, err = tally(db_url, "player", "category", "Bert", "Herren", "--remove")
    assert code == 2 and err == (
        'tally: player #2 "Bert Huber" is not in category "Herren" (theirs: -)\n'
    )
    code, _out, err = tally(db_url, "player", "category", "Bert", "A;B")
    assert code == 2 and "a category's name cannot contain ';'" in err
    out = ok(db_url, "player", "category", "Anna", "club MEMBERS", "--remove", "--lang", "de")
    assert out == "#1 Anna Berger ist in: Damen.\n"


def test_the_standings_of_a_category_and_its_prizes(db_url: str) -> None:
    knockout(db_url)
    ok(
        db_url,
        "event",
        "prizes",
        "Preis",
        "--entry-fee",
        "10",
        "--prizes",
        "50,30",
        "--category-prizes",
        "Damen=10,5",
    )
    overall = json.loads(ok(db_url, "standings", "Preis", "--json"))
    winners = [r["player"] for r in overall["rows"] if r["rank"] == 1]
    women = json.loads(ok(db_url, "standings", "Preis", "--category", "damen", "--json"))
    assert women["category"] == "Damen"
    ranked = [(r["rank"], r["overall_rank"], r["player"]) for r in women["rows"]]
    won = sorted(w for w in ("Anna", "Clara", "Dora") if w in winners)
    lost = sorted(w for w in ("Anna", "Clara", "Dora") if w not in winners)
    assert sorted(ranked) == sorted([(1, 1, w) for w in won] + [(1 + len(won), 4, w) for w in lost])
    out = ok(db_url, "standings", "Preis", "--category", "Damen")
    assert "#   Overall   Player" in out
    assert "Category Damen: # the rank within the category, Overall the rank" in out
    # 60 in the pool: the three winners share 30 + 18 (16 each), the women out share the
    # women's 6 + 3 (more than one woman out: 4.50 each) or one takes 6
    assert "  Category Damen: 1. 6 (10 %), 2. 3 (5 %); won: " in out
    german = ok(db_url, "standings", "Preis", "--category", "Damen", "--lang", "de")
    assert "Gesamt" in german and "Jeder Spieler gewinnt höchstens einen Preis" in german
    code, _out, err = tally(db_url, "standings", "Preis", "--category", "Jugend")
    assert code == 2
    assert err == 'tally: no player is in category "Jugend" (the categories: Damen)\n'


def test_the_standings_sheet_prints_the_category_prize_tables(db_url: str, tmp_path: Path) -> None:
    knockout(db_url)
    ok(
        db_url,
        "event",
        "prizes",
        "Preis",
        "--entry-fee",
        "7,35",
        "--prizes",
        "40,20",
        "--category-prizes",
        "Damen=5 €;2,50 €",
    )
    sheet = tmp_path / "standings.pdf"
    ok(db_url, "print", "standings", "Preis", "-o", str(sheet))
    text = squash(pages_text(sheet.read_bytes())[0])
    # pool 44.10: the winners share 17.64 + 8.82 (8.82 each); women out share 5 + 2.50
    assert squash("Prizes of the category Damen") in text
    assert squash("1 5 2 2.50") in text
    assert squash("paid to the players:") in text
    ok(db_url, "print", "standings", "Preis", "-o", str(sheet), "--lang", "de")
    german = squash(pages_text(sheet.read_bytes())[0])
    assert squash("Preise der Kategorie Damen") in german
    assert squash("Damen") in german
