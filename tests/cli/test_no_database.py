"""Commands that only read never create a database: in a folder without ``tally.db`` they say
there is none there and how to make one (exit 2), and leave the folder as it was; commands
that write still create it on first use. On PostgreSQL a database without tally's tables is
refused the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.store_support import dump, tally

#: every command that only reads (the classes of issue 8, point 8)
READING: list[list[str]] = [
    ["standings", "1"],
    ["standings", "--season"],
    ["match", "show", "1"],
    ["match", "list"],
    ["player", "list"],
    ["player", "show", "Anna"],
    ["audit"],
    ["audit", "--limit", "3"],
    ["deal", "show", "1"],
    ["deal", "export", "1.1"],
    ["event", "list"],
    ["event", "show", "1"],
    ["event", "round", "1"],
    ["event", "cross", "1"],
    ["print", "scoresheet", "1"],
    ["print", "ruling", "1"],
    ["print", "standings", "1"],
    ["print", "pairings", "1", "--round", "1"],
    ["ratings"],
    ["ratings", "--json"],
    ["ratings", "history", "Anna"],
    ["series", "list"],
    ["series", "standings", "1"],
    ["print", "ratings"],
    ["print", "series", "1"],
]


def run_in(folder: Path, args: list[str], monkeypatch: Any) -> tuple[int, str, str]:
    """``tally ARGS`` in ``folder`` with neither --db nor $TALLY_DB."""
    from typer.testing import CliRunner

    from tally.cli import app

    monkeypatch.chdir(folder)
    monkeypatch.delenv("TALLY_DB", raising=False)
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("args", READING, ids=[" ".join(a) for a in READING])
def test_a_reading_command_in_the_wrong_folder_creates_no_database(
    tmp_path: Path, args: list[str], monkeypatch: Any
) -> None:
    code, out, err = run_in(tmp_path, args, monkeypatch)
    assert code == 2, out + err
    assert err == (
        f"tally: no database at {tmp_path.resolve() / 'tally.db'} (create one "
        "with `tally init` or give --db)\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_writing_command_creates_the_database_on_first_use(
    tmp_path: Path, monkeypatch: Any
) -> None:
    code, out, _ = run_in(tmp_path, ["player", "add", "Anna Berger"], monkeypatch)
    assert code == 0 and out == "Added player #1 Anna Berger.\n"
    assert (tmp_path / "tally.db").exists()
    code, out, _ = run_in(tmp_path, ["player", "list"], monkeypatch)
    assert code == 0 and out == "   #1  Anna Berger  (0 matches)\n"


def test_a_file_that_is_not_a_tally_database_is_not_turned_into_one(
    tmp_path: Path, monkeypatch: Any
) -> None:
    empty = tmp_path / "notes.db"
    empty.write_bytes(b"")
    code, _, err = run_in(tmp_path, ["standings", "1", "--db", str(empty)], monkeypatch)
    assert code == 2
    assert (
        err == f"tally: no tally database at {empty.resolve()}: it has no tally tables "
        "(create them with `tally init` or give --db)\n"
    )
    assert empty.read_bytes() == b""


def test_a_reading_command_on_an_empty_database_says_so(db_url: str) -> None:
    """On SQLite the file does not exist yet; on PostgreSQL the schema has no tables."""
    for args in (["standings", "1"], ["match", "list"], ["audit"], ["event", "list"]):
        code, out, err = tally(db_url, *args)
        assert code == 2, out + err
        assert err.startswith(("tally: no database at ", "tally: no tally database at ")), err
        assert "tally init" in err and err.count("\n") == 1
    assert dump(db_url) == {}
    code, _, _ = tally(db_url, "init")
    assert code == 0
    code, out, _ = tally(db_url, "match", "list")
    assert code == 0 and out.startswith("No matches yet")


#: writing commands refused before anything is stored
FAILING_WRITES: list[list[str]] = [
    ["player", "add", "  "],
    ["match", "start", "Anna", "Bert", "--dealer", "Anna"],
    ["event", "create", "Club night", "--kind", "nonsense"],
    ["event", "add", "Club night", "Anna"],
]


@pytest.mark.parametrize("args", FAILING_WRITES, ids=[" ".join(a) for a in FAILING_WRITES])
def test_a_writing_command_that_fails_leaves_no_new_database_behind(
    tmp_path: Path, args: list[str], monkeypatch: Any
) -> None:
    code, out, err = run_in(tmp_path, args, monkeypatch)
    assert code != 0 and err.startswith("tally: "), out + err
    assert list(tmp_path.iterdir()) == []


def test_a_failing_write_keeps_a_database_that_was_there(tmp_path: Path, monkeypatch: Any) -> None:
    code, _, _ = run_in(tmp_path, ["init"], monkeypatch)
    assert code == 0
    code, _, _ = run_in(tmp_path, ["player", "add", "  "], monkeypatch)
    assert code != 0
    assert (tmp_path / "tally.db").exists()  # an empty database made by `tally init` stays
    code, _, _ = run_in(tmp_path, ["player", "add", "Anna"], monkeypatch)
    assert code == 0
    code, _, _ = run_in(
        tmp_path, ["match", "start", "Anna", "Zed", "--dealer", "Anna"], monkeypatch
    )
    assert code != 0
    code, out, _ = run_in(tmp_path, ["player", "list"], monkeypatch)
    assert "Anna" in out
