"""The readable confirmations and listings of ``tally player/match/deal/event`` speak German
when the locale (or the event, or ``--lang``) says so, and stay English otherwise."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tally.cli import app
from tests.store_support import DEALER_CLAIMS

GERMAN = {"LANG": "de_AT.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
ENGLISH = {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}


def _run(url: str, env: dict[str, str], *args: str) -> str:
    result = CliRunner().invoke(
        app,
        list(args),
        catch_exceptions=False,
        env={"TALLY_DB": url, "TALLY_SCORER": "test", **env},
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def _session(tmp_path: Path, env: dict[str, str]) -> list[str]:
    """A short recording session: what each command printed."""
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    turn_up, tricks = DEALER_CLAIMS
    first, second, third = (" ".join(t.split()) for t in tricks.split("/"))
    return [
        _run(url, env, "player", "add", "Anna", "Bert"),
        _run(url, env, "match", "start", "Anna", "Bert", "--dealer", "Bert"),
        _run(url, env, "deal", "start", "1", turn_up),
        _run(url, env, "deal", "play", "1", *first.split()),
        _run(url, env, "deal", "undo", "1"),
        _run(url, env, "deal", "play", "1", first.split()[1], *second.split(), *third.split()),
        _run(url, env, "match", "show", "1"),
        _run(url, env, "match", "list"),
        _run(url, env, "event", "create", "Klubabend", "Anna", "Bert", "--date", "2026-11-21"),
        _run(url, env, "event", "show", "1"),
    ]


def test_a_session_in_a_german_locale_speaks_german(tmp_path: Path) -> None:
    (added, started, dealt, played, undone, finished, shown, listed, created, event) = _session(
        tmp_path, GERMAN
    )
    assert added == "Spieler #1 Anna hinzugefügt.\nSpieler #2 Bert hinzugefügt.\n"
    assert started.startswith(
        "Bummerl 1 begonnen: Anna gegen Bert, sixty-six, auf 7 Spielpunkte. Bert gibt zuerst."
    )
    assert dealt.startswith(
        "Spiel 1.1 (Spiel 1): Bert gibt, Atoutkarte AH. Stich 1: Anna spielt aus.\nStand: "
    )
    assert played == "QD 10H in Spiel 1.1 eingetragen.\nStich 2: Bert spielt aus.\nStand: 1.1:2\n"
    assert undone.startswith("10H in Spiel 1.1 zurückgenommen.\nStich 1: Bert gibt zu.\n")
    assert "Spiel 1.1 entschieden: Bert gewinnt 3 Spielpunkte (Ansage): Bert sagte 66" in finished
    assert "Gezählte Augen: " in finished and "Stiche: " in finished
    assert "Bummerl 1: Anna 0, Bert 3, gespielt auf 7. Nächstes Spiel: Anna gibt." in finished
    assert shown.startswith("Bummerl 1: Anna gegen Bert")
    assert listed == "    1  Anna gegen Bert  sixty-six  1 Spiel(e)  Anna 0, Bert 3  (läuft)\n"
    assert created.startswith(
        "Klubabend 1 „Klubabend“ am 21.11.2026 angelegt, sixty-six, "
        "2 Spieler.\nSeine Bummerl beginnen mit `tally match start"
    )
    assert event.startswith("Turnier 1: Klubabend, 21.11.2026, Klubabend, sixty-six.\n")
    assert "Feinwertung: " in event and "Spieler (2), 0 Bummerl gespielt" in event


def test_the_same_session_in_english_is_unchanged(tmp_path: Path) -> None:
    (added, started, dealt, played, undone, finished, shown, listed, created, event) = _session(
        tmp_path, ENGLISH
    )
    assert added == "Added player #1 Anna.\nAdded player #2 Bert.\n"
    assert started == (
        "Started match 1: Anna v Bert, sixty-six, to 7 game points. Bert deals first.\n"
    )
    assert dealt.startswith(
        "Deal 1.1 (deal 1): Bert deals, turn-up AH. Trick 1: Anna to lead.\nPosition: "
    )
    assert played == "Recorded QD 10H in deal 1.1.\nTrick 2: Bert to lead.\nPosition: 1.1:2\n"
    assert undone.startswith("Undid 10H in deal 1.1.\nTrick 1: Bert to follow.\n")
    assert "Deal 1.1 ruled: Bert wins 3 game points (claim): Bert claimed 66" in finished
    assert "Match 1: Anna 0, Bert 3, playing to 7. Next deal: Anna deals." in finished
    assert shown.startswith("Match 1: Anna v Bert")
    assert listed == "    1  Anna v Bert  sixty-six  1 deal(s)  Anna 0, Bert 3  (playing)\n"
    assert created.startswith(
        'Created club evening 1 "Klubabend" on 2026-11-21, sixty-six, '
        "2 players.\nStart its matches with `tally match start"
    )
    assert event.startswith("Event 1: Klubabend, 2026-11-21, club evening, sixty-six.\n")
    assert "Players (2), 0 matches played" in event


def test_the_event_language_beats_the_locale_and_lang_beats_both(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    assert _run(url, GERMAN, "init").startswith("Angelegt: ")
    assert _run(url, GERMAN, "audit") == "Das Protokoll ist leer.\n"
    assert _run(url, ENGLISH, "audit") == "The audit log is empty.\n"
    _run(url, ENGLISH, "player", "add", "Anna", "Bert")
    created = _run(url, ENGLISH, "event", "create", "Abend", "Anna", "Bert", "--lang", "de")
    assert created.startswith("Klubabend 1 „Abend“")
    started = _run(
        url, ENGLISH, "match", "start", "Anna", "Bert", "--dealer", "Anna", "--event", "1"
    )
    assert started.startswith("Bummerl 1 (Turnier 1) begonnen")
    assert _run(url, ENGLISH, "event", "show", "1").startswith("Turnier 1: Abend")
    assert _run(url, GERMAN, "event", "show", "1", "--lang", "en").startswith("Event 1: Abend")
    assert "Anna v Bert" in _run(url, GERMAN, "match", "list", "--lang", "en")
