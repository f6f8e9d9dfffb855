"""Importing a FIDE TRF-16 file (`tally event import FILE --format trf`, tally.files.trf_import):
a TRF written by tally read back into another database gives the same standings; a TRF from
a chess pairing program's test suite read in, its players, pairings and results checked;
what a card event cannot hold refused with the database unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tally.errors import LoadError
from tests.store_support import ok, refused

# tests/data/trf/bbp-dutch-2025-C5.trf is bbpPairings' test input test/tests/dutch_2025_C5.input
# (https://github.com/BieremaBoyzProgramming/bbpPairings, commit 16a000f9, Apache License 2.0),
# copied unchanged: six players, two rounds played, and player 4's absence announced for
# round 3 (0000 - Z) before round 3 is paired.
BBP = Path(__file__).parents[1] / "data" / "trf" / "bbp-dutch-2025-C5.trf"

PLAYERS = ["Anna", "Bert", "Carl", "Dora", "Emil"]


def finish_round(url: str, event: str, number: int) -> None:
    """Start round ``number`` and let every match's first dealer win it (3 + 3 + 1)."""
    ok(url, "event", "round", event, str(number), "--start")
    rows = json.loads(ok(url, "event", "round", event, str(number), "--json"))
    for p in rows["pairings"]:
        for m in p["matches"]:
            for points in ("3", "3", "1"):
                ok(
                    url,
                    "deal",
                    "quick",
                    str(m["match_id"]),
                    "--winner",
                    p["first_dealer"],
                    "--points",
                    points,
                    "--reason",
                    "claim",
                )


def table(url: str, event: str) -> list[tuple[int, str, float, int, int, int, list[float]]]:
    rows = json.loads(ok(url, "standings", event, "--json"))["rows"]
    return [
        (
            r["rank"],
            r["player"],
            r["match_points"],
            r["won"],
            r["lost"],
            r["byes"],
            r["tiebreak_values"],
        )
        for r in rows
    ]


def test_a_trf_written_by_tally_imported_back_gives_the_same_standings(
    db_url: str, tmp_path: Path
) -> None:
    ok(db_url, "player", "add", *PLAYERS)
    ok(
        db_url,
        "event",
        "create",
        "Open",
        *PLAYERS,
        "--kind",
        "swiss",
        "--rounds",
        "3",
        "--bye",
        "win",
    )
    for number in (1, 2, 3):
        finish_round(db_url, "Open", number)
    trf = tmp_path / "open.trf"
    ok(db_url, "event", "export", "Open", "--format", "trf", "-o", str(trf))
    other = f"sqlite:///{tmp_path / 'other.db'}"
    out = ok(other, "event", "import", str(trf), "--format", "trf")
    assert out.startswith('Imported Swiss event 1 "Open" from ')
    assert "5 players, 3 rounds, 6 matches." in out
    assert table(other, "Open") == table(db_url, "Open")
    first = json.loads(ok(db_url, "event", "round", "Open", "2", "--json"))
    again = json.loads(ok(other, "event", "round", "Open", "2", "--json"))
    assert [(p["first"], p["second"], p["first_dealer"]) for p in again["pairings"]] == [
        (p["first"], p["second"], p["first_dealer"]) for p in first["pairings"]
    ]
    assert again["bye"] == first["bye"] and again["bye"] is not None
    # and written again, the file is the same
    assert ok(other, "event", "export", "Open", "--format", "trf") == trf.read_text()


def test_a_trf_from_a_pairing_programs_test_suite_is_read_in(db_url: str) -> None:
    ok(db_url, "player", "add", "Test0003 Player0003")  # found by name, not added twice
    out = ok(db_url, "event", "import", str(BBP))
    assert 'Imported Swiss event 1 "Dutch 2025 C5 test"' in out
    assert "6 players, 2 rounds, 6 matches." in out
    shown = json.loads(ok(db_url, "event", "show", "Dutch 2025 C5 test", "--json"))
    assert shown["kind"] == "swiss" and shown["rounds"] == 3 and shown["bye"] == "none"
    assert [p["name"] for p in shown["players"]] == [
        f"Test000{k} Player000{k}" for k in range(1, 7)
    ]
    assert len(json.loads(ok(db_url, "player", "list", "--json"))) == 6
    # round 1: 1 (white) beat 4, 2 (black) beat 5, 3 (white) beat 6; white deals first
    r1 = json.loads(ok(db_url, "event", "round", "Dutch 2025 C5 test", "1", "--json"))
    assert [
        (p["table"], p["first"], p["second"], p["first_dealer"], p["matches"][0]["winner"])
        for p in r1["pairings"]
    ] == [
        (
            1,
            "Test0001 Player0001",
            "Test0004 Player0004",
            "Test0001 Player0001",
            "Test0001 Player0001",
        ),
        (
            2,
            "Test0005 Player0005",
            "Test0002 Player0002",
            "Test0005 Player0005",
            "Test0002 Player0002",
        ),
        (
            3,
            "Test0003 Player0003",
            "Test0006 Player0006",
            "Test0003 Player0003",
            "Test0003 Player0003",
        ),
    ]
    # the file's points column is what the standings give; round 3 is not paired yet
    rows = json.loads(ok(db_url, "standings", "Dutch 2025 C5 test", "--json"))["rows"]
    assert {r["player"][:8]: r["match_points"] for r in rows} == {
        "Test0001": 2.0,
        "Test0002": 1.0,
        "Test0003": 2.0,
        "Test0004": 0.0,
        "Test0005": 1.0,
        "Test0006": 0.0,
    }
    assert shown["rounds_started"] == [1, 2]


def test_what_a_card_event_cannot_hold_is_refused(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", "Anna")
    lines = BBP.read_text().splitlines()
    drawn = tmp_path / "drawn.trf"
    drawn.write_text(
        "\n".join(
            line.replace("     4 w 1", "     4 w =")
            if line.startswith("001    1")
            else line.replace("     1 b 0", "     1 b =")
            for line in lines
        )
        + "\n"
    )
    refused(
        db_url,
        "event",
        "import",
        str(drawn),
        match="Test0001 Player0001 (number 1), round 1: a drawn game (=)",
    )
    lonely = tmp_path / "lonely.trf"
    lonely.write_text(
        "\n".join(
            line.replace("     1 b 0", "     2 b 0") if line.startswith("001    4") else line
            for line in lines
        )
        + "\n"
    )
    refused(db_url, "event", "import", str(lonely), match="whose line does not meet")
    refused(
        db_url,
        "event",
        "import",
        str(BBP),
        "--format",
        "pgn",
        match='--format must be trf, not "pgn"',
    )
    refused(db_url, "event", "import", str(tmp_path / "missing.trf"), match="missing.trf")


def test_a_round_robin_file_becomes_a_swiss_event_ranked_as_a_round_robin(
    db_url: str, tmp_path: Path
) -> None:
    from tally.events.tiebreaks import DEFAULT_TIEBREAKS
    from tally.files.trf_import import import_trf
    from tally.store import open_store

    robin = tmp_path / "robin.trf"
    robin.write_text(
        BBP.read_text().replace(
            "012 Dutch 2025 C5 test", "012 Club cup\n042 2026/03/01\n092 Round robin"
        )
    )
    with open_store(db_url, scorer="tester") as store:
        done = import_trf(store, robin, name="Spring cup")
        ev = store.events.get(done.event.id)
        assert (ev.name, ev.kind, str(ev.date), ev.tiebreaks) == (
            "Spring cup",
            "swiss",
            "2026-03-01",
            DEFAULT_TIEBREAKS,
        )
        assert [r.match_points for r in store.events.standings(ev.id).rows] == [
            2.0,
            2.0,
            1.0,
            1.0,
            0.0,
            0.0,
        ]
        # a refusal leaves nothing behind: the same file again (its event is there)
        players = len(store.players.all())
        with pytest.raises(LoadError, match='an event named "Spring cup" is loaded already'):
            import_trf(store, robin, name="Spring cup")
        assert len(store.players.all()) == players
