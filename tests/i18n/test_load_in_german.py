"""``tally load`` speaks German on a German laptop: what it does (the database it loads
into), its refusals of ``--fresh``, and the system's reason a file cannot be read."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tests.i18n.german_support import GERMAN, english_words, refusal_in_german


def test_a_missing_event_file_is_refused_in_german(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    said = refusal_in_german(
        url, "load", str(tmp_path / "none.event"), names=[str(tmp_path / "none.event")]
    )
    assert "keine solche Datei" in said


def test_fresh_over_a_file_that_is_no_database_is_refused_in_german(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database")
    said = refusal_in_german(
        f"sqlite:///{text}", "load", "--fresh", str(tmp_path), names=[str(tmp_path)]
    )
    assert "keine tally-Datenbank" in said
    assert text.read_text() == "not a database"


def test_fresh_over_a_folder_is_refused_in_german(tmp_path: Path) -> None:
    (tmp_path / "dir.db").mkdir()
    said = refusal_in_german(
        f"sqlite:///{tmp_path / 'dir.db'}", "load", "--fresh", str(tmp_path), names=[str(tmp_path)]
    )
    assert "keine gewöhnliche Datei" in said


def test_the_database_loaded_into_is_named_in_german(tmp_path: Path) -> None:
    from tally.cli import app

    folder = tmp_path / "ev"
    folder.mkdir()
    result = CliRunner().invoke(
        app,
        ["load", str(folder)],
        env={"TALLY_DB": f"sqlite:///{tmp_path / 't.db'}", "TALLY_SCORER": "t", **GERMAN},
    )
    assert result.stdout.startswith("Datenbank: "), result.stdout
    assert not english_words(result.stdout.splitlines()[0], [str(tmp_path)]), result.stdout


def test_the_systems_reason_is_english_in_english() -> None:
    from tally.errors import system_reason

    assert str(system_reason(PermissionError(13, "Permission denied"))) == "Permission denied"
    assert str(system_reason(OSError(99999, "Strange"))) == "Strange"


def test_an_event_without_a_name_is_refused_in_german(tmp_path: Path) -> None:
    said = refusal_in_german(f"sqlite:///{tmp_path / 't.db'}", "event", "create", "  ")
    assert "braucht einen Namen" in said
