"""``tally load`` refuses a broken event folder or event file in the reader's language: under
``LANG=de_AT.UTF-8`` every refusal is German from its first word to its last, naming the file
and the place in it (the match, the key) as in English."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.i18n.german_support import refusal_in_german

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _toml(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(
        'name = "Kaputt"\nplayers = ["Anna Berger", "Bert Huber"]\n' + body, encoding="utf-8"
    )
    return folder


def _json(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _event(**changes: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "format": "tally-event",
        "version": 1,
        "name": "Kaputt",
        "kind": "round-robin",
        "players": ["Anna", "Bert", "Carl"],
        "matches": [],
    }
    return doc | changes


#: what the file says as it is (its keys, its file names): the same in every language
KEYS = ("matches[0]", "players[1]", "x.deal", "tally-event", "event.toml")
MATCH = {"round": 1, "table": 1, "first_dealer": "Carl", "deals": []}

#: each case: what it writes into the folder given, the words the German refusal has
CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "a match of one player": (
        lambda tmp: _toml(
            tmp / "ev",
            'kind = "club-evening"\n[[matches]]\nplayers = ["Anna Berger"]\n'
            'first_dealer = "Anna Berger"\n',
        ),
        "Bummerl 1: ein Bummerl hat zwei Spieler",
    ),
    "a record outside the folder": (
        lambda tmp: _toml(
            tmp / "ev",
            'kind = "club-evening"\n[[matches]]\nplayers = ["Anna Berger", "Bert Huber"]\n'
            'first_dealer = "Anna Berger"\nrecords = ["../x.deal"]\n',
        ),
        "Aufzeichnungen werden nur aus dem Ordner des Turniers gelesen",
    ),
    "a date with a time": (
        lambda tmp: _toml(tmp / "ev", 'kind = "club-evening"\ndate = 2026-11-19T20:00:00\n'),
        "kein Tag mit Uhrzeit",
    ),
    "a result that is not one": (
        lambda tmp: _toml(
            tmp / "ev",
            'kind = "club-evening"\n[[matches]]\nplayers = ["Anna Berger", "Bert Huber"]\n'
            'first_dealer = "Anna Berger"\nresults = ["Anna Berger x claim"]\n',
        ),
        "ein Ergebnis lautet",
    ),
    "an event file that is a folder": (
        lambda tmp: (tmp / "ev" / "event.toml").mkdir(parents=True) or tmp / "ev",
        "ist ein Ordner, keine Datei",
    ),
    "not an event file": (
        lambda tmp: _json(tmp / "x.json", {"format": "other"}),
        "keine Turnierdatei von tally",
    ),
    "an unknown key": (
        lambda tmp: _json(tmp / "x.json", _event(colour="red")),
        "unbekannter Schlüssel „colour“",
    ),
    "a player who does not play": (
        lambda tmp: _json(tmp / "x.json", _event(matches=[MATCH | {"players": ["Anna", "Zoe"]}])),
        "matches[0].players[1]: „Zoe“ spielt im Turnier nicht mit",
    ),
    "a round robin's pairing not the schedule's": (
        lambda tmp: _json(
            tmp / "x.json",
            _event(rounds=[{"round": 1}], matches=[MATCH | {"players": ["Carl", "Bert"]}]),
        ),
        "nach dem Spielplan",
    ),
    "a key given twice": (
        lambda tmp: (
            (tmp / "x.json").write_text('{"format": 1, "format": 2}', encoding="utf-8")
            and tmp / "x.json"
        ),
        "steht zweimal in einem Objekt",
    ),
    "a CSV export": (
        lambda tmp: (tmp / "x.csv").write_text("match,round\n", encoding="utf-8") and tmp / "x.csv",
        "ein CSV-Export ist für Tabellenkalkulationen",
    ),
    "an event file of a folder": (
        lambda tmp: EXAMPLES / "club-evening" / "event.toml",
        "wird über seinen Ordner geladen",
    ),
}


def _known() -> str:
    """The keys an event file may have, as a refusal of an unknown one lists them."""
    from tally.files.importing import _TOP_OPTIONAL, _TOP_REQUIRED

    return ", ".join([*_TOP_REQUIRED, *_TOP_OPTIONAL])


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_broken_event_is_refused_in_german(tmp_path: Path, case: str) -> None:
    write, words = CASES[case]
    path = write(tmp_path)
    said = refusal_in_german(
        f"sqlite:///{tmp_path / 'x.db'}",
        "load",
        str(path),
        names=(str(tmp_path), str(EXAMPLES), _known(), *KEYS, "Anna", "Bert", "Carl", "Zoe"),
    )
    assert words in said, said


def test_an_event_loaded_twice_is_refused_in_german(tmp_path: Path) -> None:
    from tests.store_support import ok

    url = f"sqlite:///{tmp_path / 'x.db'}"
    ok(url, "load", str(EXAMPLES / "club-evening"))
    said = refusal_in_german(
        url,
        "load",
        str(EXAMPLES / "club-evening"),
        names=(str(EXAMPLES), "event.toml", "Thursday Club Evening"),
    )
    assert "ist schon geladen" in said, said


# --- a TRF imported (`tally event import`) and exported (`tally event export --format trf`) --

BBP = Path(__file__).parents[1] / "data" / "trf" / "bbp-dutch-2025-C5.trf"


def _trf(tmp: Path, change: Callable[[str], str]) -> Path:
    path = tmp / "x.trf"
    path.write_text("\n".join(change(line) for line in BBP.read_text().splitlines()) + "\n")
    return path


def _drawn(line: str) -> str:
    if line.startswith("001    1"):
        return line.replace("     4 w 1", "     4 w =")
    return line.replace("     1 b 0", "     1 b =")


#: each TRF: how its lines are changed, the words the German refusal has
TRF_CASES: dict[str, tuple[Callable[[str], str], str]] = {
    "a drawn game": (_drawn, "Runde 1: eine Remis-Partie (=)"),
    "a line that does not meet its opponent": (
        lambda line: (
            line.replace("     1 b 0", "     2 b 0") if line.startswith("001    4") else line
        ),
        "deren Zeile in dieser Runde nicht auf",
    ),
    "no player": (lambda line: "" if line.startswith("001") else line, "kein Spieler"),
    "a starting rank twice": (
        lambda line: line.replace("001    2", "001    1", 1),
        "dieselbe Startnummer",
    ),
    "a player without a name": (
        lambda line: line[:14] + " " * 33 + line[47:] if line.startswith("001    3") else line,
        "ein Spieler ohne Namen",
    ),
    "a round that is not one": (
        lambda line: line[:91] + "   1 x 1" + line[99:] if line.startswith("001    3") else line,
        "ist keine Runde",
    ),
}


@pytest.mark.parametrize("case", sorted(TRF_CASES))
def test_a_broken_trf_is_refused_in_german(tmp_path: Path, case: str) -> None:
    change, words = TRF_CASES[case]
    path = _trf(tmp_path, change)
    names = [line[14:47].strip() for line in BBP.read_text().splitlines() if line[:3] == "001"]
    said = refusal_in_german(
        f"sqlite:///{tmp_path / 'x.db'}",
        "event",
        "import",
        str(path),
        names=(str(tmp_path), "x.trf", *names, *(n.split()[0] for n in names if n)),
    )
    assert words in said, said


def test_a_trf_export_of_a_knockout_is_refused_in_german(tmp_path: Path) -> None:
    from tests.store_support import ok

    url = f"sqlite:///{tmp_path / 'x.db'}"
    ok(url, "player", "add", "Anna", "Bert")
    ok(url, "event", "create", "Cup", "Anna", "Bert", "--kind", "knockout")
    said = refusal_in_german(
        url, "event", "export", "Cup", "--format", "trf", names=("Cup", "knockout", "TRF")
    )
    assert "hält nur Rundenturniere" in said, said
