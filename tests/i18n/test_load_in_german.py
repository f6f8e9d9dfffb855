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


def _german(url: str, *args: str) -> str:
    from tally.cli import app

    result = CliRunner().invoke(
        app, list(args), env={"TALLY_DB": url, "TALLY_SCORER": "t", **GERMAN}
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


def test_what_an_export_and_an_import_wrote_is_said_in_german(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    _german(url, "player", "add", "Anna", "Bert", "Carla")
    _german(
        url, "event", "create", "Offen", "Anna", "Bert", "Carla", "--kind", "swiss", "--rounds", "2"
    )
    _german(url, "event", "create", "Liga", "Anna", "Bert", "Carla", "--kind", "round-robin")
    trf, folder = tmp_path / "offen.trf", tmp_path / "liga"
    said = _german(url, "event", "export", "1", "--format", "trf", "-o", str(trf))
    assert said == f"Geschrieben: {trf}\n"
    said = _german(url, "event", "export", "2", "--format", "folder", "-o", str(folder))
    assert said == f"Geschrieben: {folder}: event.toml und 0 Aufzeichnungen.\n"
    said = _german(f"sqlite:///{tmp_path / 'o.db'}", "event", "import", str(trf), "--format", "trf")
    assert said.startswith("Schweizer System 1 „Offen“ aus "), said
    assert said.endswith(": 3 Spieler, 0 Runden, 0 Bummerl.\n"), said


def test_why_an_event_is_not_written_as_a_folder_is_said_in_german(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    _german(url, "player", "add", "Anna", "Bert")
    _german(url, "event", "create", "Offen", "Anna", "Bert", "--kind", "swiss", "--rounds", "2")
    out = str(tmp_path / "offen")
    said = refusal_in_german(url, "event", "export", "1", "--format", "folder", "-o", out)
    assert "keine Turniere der Art Schweizer System" in said, said


def test_a_swiss_event_without_rounds_asks_for_them_without_saying_none(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    _german(url, "player", "add", "Anna", "Bert")
    said = refusal_in_german(url, "event", "create", "Offen", "Anna", "Bert", "--kind", "swiss")
    assert said.rstrip().endswith("ihre Anzahl angeben (--rounds N)"), said
    assert "None" not in said
