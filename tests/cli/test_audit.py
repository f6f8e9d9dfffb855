"""``tally init`` and ``tally audit``: where the database is, the log of changes, undoing one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.json_support import strict_json
from tests.store_support import dump, ok, refused, tally


def test_init_creates_the_database_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TALLY_DB", raising=False)
    from typer.testing import CliRunner

    from tally.cli import app

    result = CliRunner().invoke(app, ["init"])
    assert result.exit_code == 0
    assert result.stdout == f"Created {tmp_path.resolve() / 'tally.db'}\n"
    assert CliRunner().invoke(app, ["init"]).stdout.startswith("Already up to date:")
    # any command that writes creates it too, on first use (one that reads does not)
    result = CliRunner().invoke(app, ["player", "add", "Anna", "--db", str(tmp_path / "other.db")])
    assert result.exit_code == 0 and (tmp_path / "other.db").exists()


def test_a_database_that_cannot_be_opened_is_a_clean_error(tmp_path: Path) -> None:
    code, _, err = tally(f"sqlite:///{tmp_path}/missing/dir/x.db", "player", "add", "Anna")
    assert code == 2 and err.startswith("tally: cannot create the database")
    code, _, err = tally("nosuchdb://x", "player", "list")
    assert code == 2 and "nosuchdb" in err


def test_the_audit_log_lists_changes_and_undoes_one(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    ok(db_url, "deal", "start", "1", "QH")
    code, _, _ = tally(db_url, "deal", "play", "1", "KS", "AS", scorer="Jo")
    assert code == 0
    entries = strict_json(ok(db_url, "audit", "--json"))
    assert [(e["id"], e["command"], e["scorer"]) for e in entries] == [
        (1, "player add", "tester"),
        (2, "player add", "tester"),
        (3, "match start", "tester"),
        (4, "deal start", "tester"),
        (5, "deal play", "Jo"),
    ]
    assert entries[-1]["before"]["deal:1"]["actions"] == []
    assert entries[-1]["after"]["deal:1"]["actions"] == [[1, 1, "KS"], [2, 1, "AS"]]
    listing = ok(db_url, "audit", "--limit", "1")
    assert listing.count("\n") == 1
    assert "Jo  [Anna – Bert] Recorded K♠, A♠ in deal 1 from trick 1" in listing
    assert ok(db_url, "audit", "undo", "5").startswith(
        "Entry 6: Took back entry 5: Recorded K♠, A♠ in deal 1 from trick 1"
    )
    assert ok(db_url, "deal", "export", "1").endswith('[Trump "QH"]\n')
    assert "[reversed by 6]" in ok(db_url, "audit")
    refused(db_url, "audit", "undo", "5", match="audit entry 5 was reversed already")
    refused(db_url, "audit", "undo", "99", match="there is no audit entry 99")
    refused(db_url, "audit", "undo", "1", match="plays in matches")
    before = dump(db_url)
    ok(db_url, "audit", "--json")
    assert dump(db_url) == before  # listing changes nothing


def test_the_audit_log_pages_back_and_lists_one_event_or_match(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl")
    ok(db_url, "event", "create", "Cup", "Anna", "Bert", "Carl", "--kind", "club")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna", "--event", "Cup")
    ok(db_url, "match", "start", "Bert", "Carl", "--dealer", "Bert")
    ok(db_url, "deal", "start", "1", "QH")
    ok(db_url, "deal", "play", "1", "KS")
    lines = ok(db_url, "audit", "--match", "1").splitlines()
    assert [x.split()[0] for x in lines] == ["5", "7", "8"]
    assert lines[-1].endswith("[Anna – Bert] Bert played K♠ in deal 1, trick 1")
    assert "Deal 1 started: Anna deals, turn-up Q♥" in lines[1]
    by_event = ok(db_url, "audit", "--event", "Cup").splitlines()
    assert [x.split()[0] for x in by_event] == ["4", "5", "7", "8"]
    assert "Event Cup created (players: 3)" in by_event[0]
    older = ok(db_url, "audit", "--before", "4", "--limit", "2").splitlines()
    assert [x.split()[0] for x in older] == ["2", "3"]
    german = ok(db_url, "audit", "--match", "1", "--lang", "de")
    assert "Bert spielte K♠ in Spiel 1, Stich 1" in german
