"""A command line that does not parse (an unknown option or command, a missing argument, a
round typed as a word) is refused in German on a German laptop or with ``--lang de``, from
the exception's parts, and in English as Click words it otherwise."""

from __future__ import annotations

import pytest

from tests.i18n.german_support import GERMAN, english_words

#: (the command line, a German word the refusal must hold)
USAGE = [
    ("nonsense", "Befehl"),
    ("chek", "gemeint: 'check'"),
    ("event nonsense", "Befehl"),
    ("event create", "fehlt"),
    ("event create Klub --entry-fee 5 Anna", "keine Option"),
    ("event round 1 abc", "keine ganze Zahl"),
    ("standings 1 --points-per-win x", "keine Zahl"),
    ("match result 99 Anna 7", "zu viele"),
    ("event round 1 --json=3", "keinen Wert"),
    ("event round 1 --lang", "braucht einen Wert"),
    ("init --lang fr", "ungültiger Wert"),
]


def _said(
    line: str, env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> str:
    from tally.cli import run

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TALLY_DB", "sqlite:///:memory:")
    status = run(line.split())
    said = capsys.readouterr().err
    assert status == 2, (line, status, said)
    assert said.startswith("tally: ") and said.count("\n") == 1, said
    return said


@pytest.mark.parametrize(("line", "german"), USAGE)
def test_a_usage_error_is_german_on_a_german_laptop(
    line: str, german: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    said = _said(line, GERMAN, monkeypatch, capsys)
    assert german in said
    assert "zeigt den Aufruf" in said
    assert not english_words(said, ["Anna", "Klub"]), said


def test_lang_de_words_a_usage_error_in_german_in_an_english_locale(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    said = _said("event round 1 abc --lang de", {"LANG": "C"}, monkeypatch, capsys)
    assert "'abc' ist keine ganze Zahl" in said


@pytest.mark.parametrize(
    ("line", "english"),
    [
        ("match result 99 Anna 7", "Got unexpected extra argument(s) (7)"),
        ("event create Klub --entry-fee 5", "No such option: --entry-fee (Possible options:"),
        ("event create", "Missing argument 'NAME'."),
        ("event round 1 --json=3", "Option '--json' does not take a value."),
        ("nonsense", "No such command 'nonsense'."),
    ],
)
def test_a_usage_error_stays_as_click_words_it_in_english(
    line: str, english: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    said = _said(line, {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}, monkeypatch, capsys)
    assert english in said
    assert said.rstrip().endswith("--help` shows the usage)")
