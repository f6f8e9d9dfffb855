"""`tally event absent` (CliRunner): announcing and taking back an absence, the refusals as
one line with exit status 2, the absences on `tally event show` and `tally event round`, and
`--absence-score` travelling in the event's JSON file; the pairings sheet (pypdf text)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.pdf_support import pages_text
from tests.store_support import ok, refused

FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]


def swiss(db_url: str, *options: str) -> None:
    ok(db_url, "player", "add", *FIVE)
    ok(db_url, "event", "create", "Open", *FIVE, "--kind", "swiss", "--rounds", "3", *options)


def test_an_absence_is_announced_shown_and_taken_back(db_url: str) -> None:
    swiss(db_url)
    out = ok(db_url, "event", "absent", "Open", "carl", "--round", "2")
    assert 'Carl will miss round 2 of event 1 "Open": a requested bye.' in out
    assert "Absent in round 2 (requested bye): Carl." in out
    shown = ok(db_url, "event", "show", "Open")
    assert "A requested bye (an announced absence) scores half a win." in shown
    assert "Absent in round 2 (requested bye): Carl." in shown
    out = ok(db_url, "event", "absent", "Open", "Carl", "--round", "2", "--cancel")
    assert "Carl will play round 2" in out
    assert "Absent in round" not in ok(db_url, "event", "show", "Open")
    refused(
        db_url, "event", "absent", "Open", "Carl", "--round", "2", "--cancel", match="no absence"
    )


def test_the_round_lists_its_absent_players_and_leaves_them_out(db_url: str) -> None:
    swiss(db_url, "--absence-score", "zero")
    ok(db_url, "event", "absent", "Open", "Emil", "--round", "1")
    out = ok(db_url, "event", "round", "Open", "1", "--start")
    assert "Absent (requested bye, 0): Emil" in out
    table = out.split("Absent")[0]
    assert "Emil" not in table
    refused(db_url, "event", "absent", "Open", "Anna", "--round", "1", match="is paired already")


def test_an_absence_is_undone_from_the_audit_log(db_url: str) -> None:
    swiss(db_url)
    ok(db_url, "event", "absent", "Open", "Bert", "--round", "3")
    entry = ok(db_url, "audit", "--json")
    last = json.loads(entry)[-1]
    assert last["command"] == "event absent"
    ok(db_url, "audit", "undo", str(last["id"]))
    assert "Absent in round" not in ok(db_url, "event", "show", "Open")


def test_absences_are_refused_with_the_reason(db_url: str) -> None:
    swiss(db_url)
    refused(db_url, "event", "absent", "Open", "Carl", "--round", "4", match="rounds 1 to 3")
    ok(db_url, "event", "absent", "Open", "Carl", "--round", "1")
    refused(db_url, "event", "absent", "Open", "Carl", "--round", "1", match="already")
    ok(db_url, "event", "create", "Berger", *FIVE, "--kind", "round-robin")
    refused(
        db_url,
        "event",
        "absent",
        "Berger",
        "Carl",
        "--round",
        "1",
        match="record the missed game as a forfeit",
    )
    refused(
        db_url,
        "event",
        "create",
        "Bad",
        *FIVE,
        "--kind",
        "swiss",
        "--rounds",
        "2",
        "--absence-score",
        "full",
        match="--absence-score",
    )


def test_the_absence_score_travels_in_the_event_file(db_url: str, tmp_path: Path) -> None:
    swiss(db_url, "--absence-score", "zero")
    exported = tmp_path / "open.json"
    ok(db_url, "event", "export", "Open", "-o", str(exported))
    doc = json.loads(exported.read_text(encoding="utf-8"))
    assert doc["options"]["absence_score"] == "zero"
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(other, "load", str(exported))
    assert "A requested bye (an announced absence) scores nothing." in ok(
        other, "event", "show", "Open"
    )


@pytest.mark.parametrize(("score", "said"), [("half", "½"), ("zero", "0")])
def test_the_pairings_sheet_says_who_is_absent_and_what_it_scores(
    db_url: str, tmp_path: Path, score: str, said: str
) -> None:
    swiss(db_url, "--absence-score", score)
    ok(db_url, "event", "absent", "Open", "Dora", "--round", "1")
    ok(db_url, "event", "round", "Open", "1", "--start")
    out = tmp_path / "pairings.pdf"
    ok(db_url, "print", "pairings", "Open", "--round", "1", "-o", str(out))
    text = " ".join(pages_text(out.read_bytes()))
    assert f"Absent (requested bye, {said}): Dora" in text
    tables = text.split("Absent")[0]
    assert "Dora" not in tables
    german = tmp_path / "paarungen.pdf"
    ok(db_url, "print", "pairings", "Open", "--round", "1", "--lang", "de", "-o", str(german))
    assert f"Abwesend (angekündigt, {said}): Dora" in " ".join(pages_text(german.read_bytes()))


def test_absences_travel_in_the_event_file_and_pair_the_same(db_url: str, tmp_path: Path) -> None:
    swiss(db_url)
    ok(db_url, "event", "absent", "Open", "Dora", "--round", "1")
    ok(db_url, "event", "absent", "Open", "Anna", "--round", "3")
    ok(db_url, "event", "round", "Open", "1", "--start")
    exported = tmp_path / "open.json"
    ok(db_url, "event", "export", "Open", "-o", str(exported))
    doc = json.loads(exported.read_text(encoding="utf-8"))
    assert doc["absences"] == [{"player": "Dora", "round": 1}, {"player": "Anna", "round": 3}]
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(other, "load", str(exported))
    shown = ok(other, "event", "show", "Open")
    assert "Absent in round 1 (requested bye): Dora." in shown
    assert "Absent in round 3 (requested bye): Anna." in shown
    again = tmp_path / "again.json"
    ok(other, "event", "export", "Open", "-o", str(again))
    assert again.read_text(encoding="utf-8") == exported.read_text(encoding="utf-8")
    doc["absences"] = [{"player": "Dora", "round": 1}, {"player": "Zoe", "round": 3}]
    doc["name"] = "Other"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    refused(other, "load", str(bad), match="not one of the event's players")
