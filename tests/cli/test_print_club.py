"""``tally print pairings EVENT`` for a club evening: the tables as they sit down.

The sheet lists the matches being played (not the finished ones) as tables 1, 2, ... in the
order they were started, each with its match number, the two players, who deals first and
the result boxes; then the players waiting for a table (not the withdrawn). Read back with
pypdf, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pdf_support import pages_text, squash
from tests.store_support import ok, tally

BASE = "http://192.168.1.20:8066"


def test_a_club_evenings_tables_as_they_sit_down(db_url: str, tmp_path: Path) -> None:
    ok(
        db_url,
        "player",
        "add",
        "Anna Berger",
        "Bert Huber",
        "Clara Wimmer",
        "Dieter Gruber",
        "Eva Pichler",
        "Franz Moser",
        "Gerti <b>Hofer</b>",
    )
    ok(
        db_url,
        "event",
        "create",
        "Friday club",
        "Anna",
        "Bert",
        "Clara",
        "Dieter",
        "Eva",
        "Franz",
        "Gerti",
    )

    def start(a: str, b: str) -> int:
        out = ok(db_url, "match", "start", a, b, "--dealer", b, "--event", "Friday club")
        return int(out.split()[2])

    done = start("Anna", "Bert")
    for _ in range(3):
        ok(db_url, "deal", "quick", str(done), "--winner", "Anna", "--points", "3")
    second = start("Clara", "Dieter")
    third = start("Franz", "Anna")
    ok(db_url, "deal", "quick", str(third), "--winner", "Franz", "--points", "2")
    ok(db_url, "event", "withdraw", "Friday club", "Eva")
    path = tmp_path / "tables.pdf"
    assert ok(db_url, "print", "pairings", "Friday club", "-o", str(path)) == f"Wrote {path}\n"
    [page] = pages_text(path.read_bytes())
    flat = squash(page)
    assert "Tablesastheysitdown" in flat
    assert "TableMatchPlayerPlayerFirstdealerResult" in flat
    assert f"1{second}ClaraWimmerDieterGruberDieterGruber" in flat
    assert f"2{third}FranzMoserAnnaBergerAnnaBerger" in flat
    assert f"{done}AnnaBergerBertHuber" not in flat  # finished: the table is free
    assert "Waitingforatable:BertHuber,Gerti<b>Hofer</b>" in flat  # Eva withdrew
    assert "Bye" not in flat
    code, _out, err = tally(db_url, "print", "pairings", "Friday club", "--round", "1")
    assert code == 2 and "is a club evening: it has no rounds" in err
    coded = tmp_path / "coded.pdf"
    ok(db_url, "print", "pairings", "Friday club", "-o", str(coded), "--links", BASE)
    assert "Recordonaphone" in squash(pages_text(coded.read_bytes())[0])
    from tally.sheets.club import club_pairings_sheet
    from tally.store import open_store
    from tally.web.access import server_keys
    from tally.web.qr import qr_svg, with_table_codes

    with open_store(db_url) as store:  # each code holds its own match's table page
        keys = server_keys(store)
        sheet = with_table_codes(store, club_pairings_sheet(store, "Friday club"), BASE, 1)
    assert [t.match_id for t in sheet.tables] == [second, third]
    for t in sheet.tables:
        assert t.match_id is not None
        assert t.qr == qr_svg(f"{BASE}/t/{t.match_id}/{keys.table_secret(t.match_id)}")


def test_an_evening_with_no_match_running_says_how_to_start_one(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "event", "create", "Quiet night", "Anna", "Bert")
    monkeypatch.chdir(tmp_path)
    assert ok(db_url, "print", "pairings", "Quiet night") == "Wrote pairings-event-1.pdf\n"
    flat = squash(pages_text((tmp_path / "pairings-event-1.pdf").read_bytes())[0])
    assert "Nomatchisbeingplayed" in flat and "Waitingforatable:Anna,Bert" in flat


def test_a_round_robins_pairings_need_the_round(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl")
    ok(db_url, "event", "create", "Cup", "Anna", "Bert", "Carl", "--kind", "round-robin")
    code, _out, err = tally(db_url, "print", "pairings", "Cup")
    assert code == 2 and 'event 1 "Cup" has rounds: give the round to print with --round N' in err
    path = tmp_path / "r1.pdf"
    ok(db_url, "print", "pairings", "Cup", "--round", "1", "-o", str(path))
    flat = squash(pages_text(path.read_bytes())[0])
    assert "Pairings,round1" in flat and "TablePlayerPlayerFirstdealer" in flat
    assert "Match" not in flat and "Waiting" not in flat
