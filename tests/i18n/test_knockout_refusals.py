"""A knockout's refusals in a German locale: starting a round before the one before is over, a
round not drawn yet, a play-off that is no tie, best of N where there is no bracket, a buy-back
the event does not take, a knockout's settings out of range, a bracket printed before it is
seeded. Each is German from its first word to its last (:mod:`tests.i18n.german_support`)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tests.i18n.german_support import refusal_in_german

SIX = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini"]
NAMES = (*SIX, "Zora", "KO", "RR")


def _ok(db: str, *args: str) -> None:
    result = CliRunner().invoke(app, [*args, "--db", db], env={"TALLY_SCORER": "test"})
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A knockout "KO" of six, one life each, round 1 started; a round robin "RR"."""
    url = str(tmp_path_factory.mktemp("ko") / "ko.db")
    _ok(url, "player", "add", *SIX, "Zora")
    _ok(url, "event", "create", "KO", *SIX, "--kind", "knockout", "--lives", "1", "--seed", "s")
    _ok(url, "event", "round", "KO", "1", "--start")
    _ok(url, "event", "create", "RR", "Anna", "Bert", "--kind", "round-robin")
    return url


CASES = [
    pytest.param(("event", "round", "KO", "2", "--start"), "Runde 1 ist nicht vorbei", id="busy"),
    pytest.param(("event", "round", "KO", "5"), "noch nicht ausgelost", id="not-drawn"),
    pytest.param(("event", "playoff", "KO", "Anna", "Anna"), "zwei verschiedene", id="same"),
    pytest.param(("event", "playoff", "KO", "Anna", "Zora"), "spielt nicht in", id="outsider"),
    pytest.param(("event", "playoff", "RR", "Anna", "Bert"), "kein Stechen", id="no-playoffs"),
    pytest.param(("event", "best-of", "KO", "4"), "ungerade", id="even-best-of"),
    pytest.param(("event", "best-of", "RR", "3"), "keinen Turnierbaum", id="no-bracket"),
    pytest.param(("event", "buy-back", "KO", "Anna"), "keinen Nachkauf", id="no-buy-backs"),
    pytest.param(
        ("event", "create", "K2", "Anna", "Bert", "Carl", "--kind", "knockout", "--final", "3"),
        "Endrunde",
        id="final-size",
    ),
    pytest.param(
        ("event", "create", "K3", "Anna", "Bert", "--kind", "knockout", "--final-fill", "playoff"),
        "nur mit einer Endrunde",
        id="fill-without-final",
    ),
    pytest.param(
        ("event", "create", "K4", "Anna", "Bert", "--kind", "knockout", "--lives", "12"),
        "1 bis 9 Leben",
        id="lives",
    ),
    pytest.param(("print", "bracket", "KO"), "noch keinen Turnierbaum", id="bracket-sheet"),
]


@pytest.mark.parametrize(("args", "german"), CASES)
def test_a_knockout_refuses_in_german(db: str, args: tuple[str, ...], german: str) -> None:
    said = refusal_in_german(db, *args, names=(*NAMES, "--best-of", "--final-fill", "--final"))
    assert german in said, said


def test_a_knockouts_format_and_stage_are_shown_in_german(db: str) -> None:
    from tests.i18n.german_support import english_words

    result = CliRunner().invoke(app, ["event", "show", "KO", "--db", db, "--lang", "de"])
    assert result.exit_code == 0, result.output
    said = result.output
    assert "je 1 Leben, Runden ausgelost mit Startwert s" in said, said
    assert "Stand: Runde 1, noch 6 Spieler im Turnier." in said, said
    assert english_words(said, NAMES) == [], said
