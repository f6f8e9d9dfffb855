"""The store's ordinary refusals speak the command's language: German on a German laptop,
English with ``--lang en`` there; and every command takes ``--lang``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.cli import app, load_all
from tests.i18n.german_support import GERMAN, english_words, refusal_in_german
from tests.store_support import DEALER_CLAIMS

ENGLISH = {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}
NAMES = ("Anna", "Bert", "Clara", "Dora", "Abend", "Cup")

#: A refusal a director or a scorer meets on an ordinary evening: the command, and a piece of
#: what it says in English.
REFUSALS = [
    pytest.param(
        ("event", "round", "1", "3", "--start"),
        'round 3 of event 1 "Abend" cannot start yet: round 1 comes next',
        id="a round that cannot start yet",
    ),
    pytest.param(
        ("event", "swap", "1", "2", "Anna", "Bert"),
        'round 2 of event 1 "Abend" has not been started',
        id="a swap in a round not started",
    ),
    pytest.param(
        ("event", "unpair", "1", "2"),
        "it has no pairings to withdraw",
        id="pairings to withdraw that are not there",
    ),
    pytest.param(
        ("event", "absent", "1", "Anna", "--round", "5"),
        'event 1 "Abend" has rounds 1 to 3, not 5',
        id="an absence from a round the event does not have",
    ),
    pytest.param(
        ("event", "buy-back", "1", "Anna"),
        'event 1 "Abend" is not a knockout: nobody buys back a life',
        id="a buy-back refused",
    ),
    pytest.param(
        ("event", "prizes", "1", "--entry-fee", "10"),
        "prize tables and buy-backs are for those",
        id="an entry fee for an event without prizes",
    ),
    pytest.param(
        ("event", "prizes", "2", "--round-to", "0"),
        "--round-to: prizes are rounded to at least 1 cent",
        id="a prize amount rounded to nothing",
    ),
    pytest.param(
        ("event", "prizes", "2", "--buy-backs", "99"),
        "a player may buy back 1 to 9 times, not 99",
        id="too many buy-backs",
    ),
    pytest.param(("match", "show", "99"), "there is no match 99", id="an unknown match"),
    pytest.param(("match", "delete", "99"), "there is no match 99", id="deleting no match"),
    pytest.param(("deal", "show", "77"), "there is no deal 77", id="an unknown deal"),
    pytest.param(("deal", "show", "1.9"), "match 1 has no deal 9", id="a deal number too high"),
    pytest.param(
        ("deal", "undo", "2"), "deal 2.1 has no action to undo", id="undo with nothing to undo"
    ),
    pytest.param(
        ("deal", "start", "3", "QH"),
        "match 3 is over: Anna won 7-0 (Anna-Bert); no more deals",
        id="a deal after the match is over",
    ),
    pytest.param(
        ("deal", "play", "2", "KS", "--expect", "3.1:0"),
        "position 3.1:0 is in match 3, not in match 2",
        id="a position of another match",
    ),
    pytest.param(
        ("deal", "export", "3.1"),
        "was entered as a result (quick entry): it has no record to export",
        id="a quick entry has no record",
    ),
    pytest.param(
        ("player", "add", "Anna"),
        'a player named "Anna" exists already (#1)',
        id="a player added twice",
    ),
    pytest.param(
        ("player", "rename", "Anna", "Anna"),
        'the player is already called "Anna"',
        id="a rename to the same name",
    ),
    pytest.param(
        ("player", "alias", "Anna", "Bert"),
        "an alias cannot be another player's name",
        id="an alias that is another player",
    ),
    pytest.param(("audit", "undo", "999"), "there is no audit entry 999", id="no such entry"),
    pytest.param(
        ("series", "create", "Cup", "--events", "1,1"),
        'event 1 "Abend" is listed twice',
        id="an event listed twice in a series",
    ),
]


def _run(url: str, *args: str) -> None:
    result = CliRunner().invoke(
        app, list(args), env={"TALLY_DB": url, "TALLY_SCORER": "test", **ENGLISH}
    )
    assert result.exit_code == 0, (args, result.output)


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A club's database: four players, a Swiss event (1), a knockout with lives (2), a
    match with a deal started (2) and a match entered whole (3)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('club') / 'tally.db'}"
    _run(url, "init")
    _run(url, "player", "add", "Anna", "Bert", "Clara", "Dora")
    players = ("Anna", "Bert", "Clara", "Dora")
    _run(url, "event", "create", "Abend", *players, "--kind", "swiss", "--rounds", "3")
    _run(url, "event", "create", "Cup", *players, "--kind", "knockout", "--lives", "2")
    _run(url, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    _run(url, "match", "start", "Anna", "Bert", "--dealer", "Bert")
    _run(url, "deal", "start", "2", DEALER_CLAIMS[0])
    _run(url, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    _run(url, "match", "result", "3", "7:0", "--winner", "Anna")
    return url


@pytest.mark.parametrize(("args", "english"), REFUSALS)
def test_an_ordinary_refusal_of_the_store_speaks_german_in_a_german_locale(
    evening: str, args: tuple[str, ...], english: str
) -> None:
    said = refusal_in_german(evening, *args, names=NAMES)
    assert english not in said


@pytest.mark.parametrize(("args", "english"), REFUSALS)
def test_the_same_refusal_with_lang_en_speaks_english_in_a_german_locale(
    evening: str, args: tuple[str, ...], english: str
) -> None:
    result = CliRunner().invoke(
        app, [*args, "--lang", "en"], env={"TALLY_DB": evening, "TALLY_SCORER": "test", **GERMAN}
    )
    said = result.stderr or result.stdout
    assert result.exit_code in (1, 2), said
    assert english in said
    assert english_words(said, NAMES)


def test_an_event_in_german_refuses_in_german_in_an_english_locale(tmp_path: Path) -> None:
    """A command about an event that speaks German (``tally event create --lang de``) refuses
    in German once it knows the event, whatever the locale; ``--lang en`` still decides."""
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    _run(url, "player", "add", "Anna", "Bert")
    _run(
        url,
        "event",
        "create",
        "Abend",
        "Anna",
        "Bert",
        "--kind",
        "swiss",
        "--rounds",
        "1",
        "--lang",
        "de",
    )
    _run(url, "event", "round", "1", "1", "--start")
    correct = ("match", "result", "1", "7:0", "--winner", "Anna", "--correct", "--yes")
    env = {"TALLY_DB": url, "TALLY_SCORER": "test", **ENGLISH}
    german = CliRunner().invoke(app, list(correct), env=env)
    english = CliRunner().invoke(app, [*correct, "--lang", "en"], env=env)
    assert german.exit_code == english.exit_code == 2
    assert german.stderr == (
        "tally: Bummerl 1 hat kein als Ganzes eingegebenes Ergebnis: sein Ergebnis eingeben "
        "oder seine Spiele einzeln berichtigen\n"
    )
    assert english.stderr.startswith("tally: match 1 has no result entered whole")


def test_every_command_takes_lang() -> None:
    def leaves(group: object, path: tuple[str, ...] = ()) -> list[tuple[str, object]]:
        commands = getattr(group, "commands", None)
        if not commands:
            return [(" ".join(path), group)]
        return [leaf for name, sub in commands.items() for leaf in leaves(sub, (*path, name))]

    every = leaves(load_all())
    assert len(every) > 50
    lacking = [
        name
        for name, command in every
        if "--lang" not in [o for p in getattr(command, "params", []) for o in p.opts]
    ]
    assert lacking == []
