"""The engine's refusals that a scorer meets at the table (an illegal action, an impossible
record, a card name that is none, a rule set that cannot be read) speak German when the locale
or ``--lang`` says so: the ``tally: ...`` line of a command and the record errors of ``tally
check``. English stays word for word what it was, JSON stays English, and a message that no
template knows (the store's and the files' administrative refusals) stays English whole."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tally.cli.common import AS_PLAYED, CANNOT_READ, EDIT_KEPT
from tally.engine import cards, deal, evidence, match, notation, replay, rules, ruling
from tally.errors import (
    AT_LINE,
    AT_LINE_COLUMN,
    BAD_RECORD,
    BadRecord,
    IllegalAction,
    Joined,
    Message,
    NotationError,
    RecordError,
    RulesError,
)
from tally.i18n import translations, worded
from tally.store.recording import EDITED_RECORD, IN_DEAL, REFUSED_ENTRY, TURN_UP

GERMAN = {"LANG": "de_AT.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
ENGLISH = {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}

#: the modules whose refusals are worded, and the tuples of their templates
ENGINE = {
    cards: ("MESSAGES",),
    notation: ("MESSAGES",),
    rules: ("MESSAGES",),
    deal: ("ERRORS", "MESSAGES"),
    replay: ("MESSAGES",),
    ruling: ("MESSAGES",),
    match: ("MESSAGES",),
}
#: the exceptions whose message must be a template (never a bare literal or an f-string)
REFUSALS = {"RecordError", "NotationError", "RulesError", "Refused", "IllegalAction"}
#: the words the command line and the store say around an engine message at the table, and
#: where a record's error is
WRAPPERS = (
    AS_PLAYED,
    EDIT_KEPT,
    CANNOT_READ,
    REFUSED_ENTRY,
    TURN_UP,
    BAD_RECORD,
    IN_DEAL,
    EDITED_RECORD,
    AT_LINE,
    AT_LINE_COLUMN,
)
TEMPLATES = sorted(
    {
        *WRAPPERS,
        *evidence.MESSAGES[:3],
        *(t for module, names in ENGINE.items() for name in names for t in getattr(module, name)),
    }
)


# --- every template -------------------------------------------------------------------------


def _sample(template: str) -> tuple[Message, dict[str, str]]:
    """A message of ``template`` with values of the kind each names (a card, a number, a
    name...; a suit, a rule, an inner message as words of the catalogue), and those values as
    German wording gives them."""
    values: dict[str, object] = {
        "card": "KS",
        "led": "AS",
        "cards": "QS JS",
        "byte": "ff",
        "suit": Message("hearts"),
        "rule": Message("follow-suit"),
        "player": "Anna",
        "other": "Bert",
        "forehand": "Anna",
        "dealer": "Bert",
        "closer": "Bert",
        "where": Message(rules.STOCK),
        "choices": Joined(match.OR, (2, 3)),
        "message": Message(deal.MSG_PLAYED_ALREADY, card="KS", trick=1),
    }
    german = {
        "suit": "Herz",
        "rule": "Farbzwang",
        "where": "Talon",
        "choices": "2 oder 3",
        "message": "KS wurde schon in Stich 1 gespielt",
    }
    names = re.findall(r"%\(([a-z]+)\)s", template)
    filled = {
        n: values.get(
            n,
            "7"
            if n
            not in (
                "text",
                "entry",
                "item",
                "tag",
                "digits",
                "options",
                "presets",
                "reasons",
                "values",
                "end",
                "rules",
                "deal",
                "path",
                "file",
            )
            else "xy",
        )
        for n in names
    }
    plain = {n: str(v) for n, v in filled.items()}
    return Message(template, **filled), {**plain, **{n: german[n] for n in names if n in german}}


@pytest.mark.parametrize("template", TEMPLATES)
def test_each_template_has_german_words_and_a_message_of_it_is_worded_with_them(
    template: str,
) -> None:
    german = translations("de").gettext(template)
    assert german != template, "no German translation"
    said, values = _sample(template)
    assert worded(said, "de") == german % values
    assert (
        worded(said, "en")
        == str(said)
        == template % {name: str(value) for name, value in said.params.items()}
    )


def test_every_engine_refusal_is_raised_with_a_template() -> None:
    """A new refusal written as a literal or an f-string would stay English in German: each
    is made of a marked template (``Message(MSG_X, ...)``) or passes another's message on."""
    bare = []
    for module in ENGINE:
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
                and node.exc.func.id in REFUSALS
            ):
                args = (
                    node.exc.args[1:] if node.exc.func.id == "IllegalAction" else node.exc.args[:1]
                )
                args = [
                    a.args[0]
                    if isinstance(a, ast.Call)
                    and isinstance(a.func, ast.Name)
                    and a.func.id == "Message"
                    else a
                    for a in args
                ]
                if any(isinstance(a, ast.JoinedStr | ast.Constant) for a in args):
                    bare.append(f"{module.__name__}:{node.lineno}")
    assert bare == []


def test_a_message_is_worded_whole_or_not_at_all() -> None:
    # the place, the tag and the rule before a message; a card and a name inside it
    not_a_card = RecordError(Message(notation.NOT_A_CARD, text="XY"), 3, tag="Trump")
    assert worded(not_a_card.wording, "de") == (
        "Zeile 3: Trump: „XY“ ist keine Karte (Rang A 10 K Q J 9 und Farbe C D H S, oder "
        "deutsche Namen wie Herz König)"
    )
    with pytest.raises(NotationError) as caught:
        notation.read_deal('[Dealer "A"]\n[Forehand "B"]\n[Trump "QH"]\n1. KS AS\n3. QS\n')
    assert (
        worded(caught.value.wording, "de")
        == "Zeile 5, Spalte 1: Stich 3 steht nicht an der richtigen Stelle (erwartet: Stich 2)"
    )
    heads = IllegalAction(
        "must-head",
        Message(evidence.MSG_MUST_HEAD, player="Bert", card="9C", led="10C", cards="AC"),
    )
    assert (
        worded(heads.wording, "de")
        == "Stichzwang: Bert gab 9C unter 10C zu und hätte mit AC höher zugeben können"
    )
    # the store's words around an engine message: both worded, or neither
    refused = Message(
        REFUSED_ENTRY, entry="KS", message=Message(deal.MSG_PLAYED_ALREADY, card="KS", trick=1)
    )
    assert str(refused) == '"KS" refused, nothing was recorded: KS was already played in trick 1'
    assert worded(refused, "de") == (
        "„KS“ abgelehnt, nichts wurde eingetragen: KS wurde schon in Stich 1 gespielt"
    )
    moon = Message("the moon is made of cheese")
    for said in (
        refused.with_values(message=moon),
        Message(AT_LINE, line=4, message=moon),
        IllegalAction("follow-suit", moon).wording,
        Message("there is no match 7"),
    ):
        assert worded(said, "de") == str(said)


def test_english_messages_are_the_words_they_always_were() -> None:
    assert notation.NOT_A_CARD == f'"%(text)s" is not a card ({cards.CARD_FORMS})'
    with pytest.raises(NotationError) as caught:
        cards.Card.parse("XY")
    assert str(caught.value) == (
        '"XY" is not a card (rank A 10 K Q J 9 and suit C D H S, or '
        "German names such as Herz König)"
    )
    with pytest.raises(NotationError) as caught:
        notation.read_deal('[Dealer "A"]\n[Forehand "B"]\n[Trump "QH"]\n1. KS AS\n3. QS\n')
    assert str(caught.value) == "line 5, column 1: trick 3 is out of order (expected trick 2)"
    with pytest.raises(RulesError) as rules_error:
        rules.RuleSet.parse("schnapsen exchange_card=9")
    assert str(rules_error.value) == (
        "exchange_card=9 needs the 24-card deck (deck=24): a 20-card deck has no nines"
    )
    with pytest.raises(RulesError) as rules_error:
        rules.RuleSet.parse("sixty-six match_target=0")
    assert str(rules_error.value) == (
        'option "match_target" takes a whole number from 1 to 1000, not "0"'
    )
    schnapsen = rules.RuleSet.parse("schnapsen")
    with pytest.raises(RecordError) as record_error:
        rules.check_in_deck(cards.Card.parse("9H"), schnapsen, rules.STOCK)
    assert (
        str(record_error.value) == "9H is not in a Schnapsen deck (20 cards, no nines) (the stock)"
    )
    with pytest.raises(RecordError) as record_error:
        deal.Deal.start(schnapsen, dealer="Anna", forehand="Anna", trump=cards.Card.parse("QH"))
    assert str(record_error.value) == 'Forehand and Dealer are both "Anna"'
    with pytest.raises(match.Refused) as refused:
        match.check_quick_result(rules.RuleSet.parse("sixty-six"), "Anna", 5, "claim")
    assert str(refused.value) == (
        "a deal won by claim is worth 1 or 2 or 3 game point(s) under sixty-six, not 5"
    )
    assert str(BadRecord("1.2", "nothing may follow a claim")) == BAD_RECORD % {
        "deal": "1.2",
        "message": "nothing may follow a claim",
    }
    assert BadRecord("1.2", "x").template == BAD_RECORD


# --- tally deal play ------------------------------------------------------------------------


def _invoke(url: str, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app,
        list(args),
        catch_exceptions=False,
        env={"TALLY_DB": url, "TALLY_SCORER": "test", **env},
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def playing(tmp_path: Path) -> str:
    """A match of Anna and Bert, Anna dealing, QH turned up: Bert led KS, Anna took it with AS,
    closed and led 10C, Bert played 9D to it (a revoke only a later card can prove)."""
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    for args in (
        ("player", "add", "Anna", "Bert"),
        ("match", "start", "Anna", "Bert", "--dealer", "Anna"),
        ("deal", "start", "1", "QH"),
        ("deal", "play", "1", "KS", "AS", "close"),
        ("deal", "play", "1", "10C", "9D"),
    ):
        assert _invoke(url, ENGLISH, *args)[0] == 0
    return url


#: entries ``tally deal play 1`` refuses, and what it says in English and in German
PLAYED = [
    (
        ("XY",),
        '"XY" is not a card (rank A 10 K Q J 9 and suit C D H S, or German names such as '
        "Herz König)",
        "„XY“ ist keine Karte (Rang A 10 K Q J 9 und Farbe C D H S, oder deutsche Namen wie Herz "
        "König)",
    ),
    (
        ("KS",),
        '"KS" refused, nothing was recorded: KS was already played in trick 1',
        "„KS“ abgelehnt, nichts wurde eingetragen: KS wurde schon in Stich 1 gespielt",
    ),
    (
        ("QH",),
        '"QH" refused, nothing was recorded: QH is the turn-up, lying in the closed stock',
        "„QH“ abgelehnt, nichts wurde eingetragen: QH ist die Atoutkarte und liegt im "
        "zugedrehten Talon",
    ),
    (
        ("KD", "JC"),
        '"KD JC" would record a violation: Bert broke follow-suit in trick 2: Bert '
        "played 9D to 10C while holding JC; the deal ends: Anna wins 3 game points "
        "(illegal play). Nothing was recorded. If it happened at the table, record "
        "it with --as-played.",
        "„KD JC“ wäre ein Regelverstoß: Bert verletzte eine Regel (Farbzwang) in Stich 2: "
        "Bert gab 9D zu 10C "
        "zu, mit JC in der Hand; das Spiel endet: Anna gewinnt 3 Spielpunkte (regelwidriges "
        "Spiel). Nichts wurde eingetragen. Wenn es am Tisch so passiert ist, mit --as-played "
        "eintragen.",
    ),
]


@pytest.mark.parametrize(("entry", "english", "german"), PLAYED)
def test_deal_play_refuses_in_the_locales_language(
    playing: str, entry: tuple[str, ...], english: str, german: str
) -> None:
    assert _invoke(playing, GERMAN, "deal", "play", "1", *entry) == (2, "", f"tally: {german}\n")
    assert _invoke(playing, ENGLISH, "deal", "play", "1", *entry) == (2, "", f"tally: {english}\n")


def test_a_violation_refused_reads_german_under_lang_de_from_one_sentence(playing: str) -> None:
    """The refusal of an entry that would record a violation is one message made where the
    violation is known: ``--lang de`` words it whole from the catalogue (no second wording
    from the error's parts), the store's refusal itself worded in German as it is."""
    from tally.errors import ViolationNotConfirmed
    from tally.i18n import worded
    from tally.store import open_store

    german = PLAYED[-1][2]
    said = _invoke(playing, ENGLISH, "deal", "play", "1", "KD", "JC", "--lang", "de")
    assert said == (2, "", f"tally: {german}\n")
    with open_store(playing, scorer="test") as store, pytest.raises(ViolationNotConfirmed) as c:
        store.deals.play(1, "KD JC")
    sentence = german.removesuffix(" Wenn es am Tisch so passiert ist, mit --as-played eintragen.")
    assert worded(c.value.wording, "de") == sentence.removesuffix(".")
    assert worded(c.value.ruling, "de") == "Anna gewinnt 3 Spielpunkte (regelwidriges Spiel)"


def test_a_turn_up_that_is_no_card_is_refused_in_german(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    _invoke(url, ENGLISH, "player", "add", "Anna", "Bert")
    _invoke(
        url, ENGLISH, "match", "start", "Anna", "Bert", "--dealer", "Anna", "--rules", "schnapsen"
    )
    assert _invoke(url, GERMAN, "deal", "start", "1", "9H")[2] == (
        "tally: Atoutkarte: Trump: 9H ist nicht im Schnapsen-Blatt (20 Karten, ohne Neuner)\n"
    )
    assert _invoke(url, ENGLISH, "deal", "start", "1", "9H")[2] == (
        "tally: turn-up: Trump: 9H is not in a Schnapsen deck (20 cards, no nines)\n"
    )
    # an administrative refusal of the store is German too
    said = _invoke(url, GERMAN, "deal", "play", "7", "KS")[2]
    assert said == "tally: ein Bummerl 7 gibt es nicht\n"


def test_lang_chooses_the_language_of_a_refusal(tmp_path: Path) -> None:
    bad = tmp_path / "bad.deal"
    bad.write_text('[Dealer "A"]\n[Forehand "B"]\n[Trump "QH"]\n1. KS XY\n', encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    assert _invoke(url, ENGLISH, "analyse", str(bad), "--lang", "de")[2] == (
        f"tally: {bad}: kann nicht gelesen werden: Zeile 4, Spalte 7: „XY“ ist keine Karte "
        "(Rang A 10 K Q J 9 und Farbe C D H S, oder deutsche Namen wie Herz König)\n"
    )
    assert _invoke(url, GERMAN, "analyse", str(bad), "--lang", "en")[2] == (
        f'tally: {bad}: cannot be read: line 4, column 7: "XY" is not a card (rank A 10 K Q J 9 '
        "and suit C D H S, or German names such as Herz König)\n"
    )


# --- tally check ----------------------------------------------------------------------------

#: broken records, and the record error ``tally check`` says in English and in German
RECORDS = [
    (
        '[Dealer "A"]\n[Forehand "B"]\n[Trump "XY"]\n1. KS AS\n',
        'line 3: Trump: "XY" is not a card (rank A 10 K Q J 9 and suit C D H S, or German names '
        "such as Herz König)",
        "Zeile 3: Trump: „XY“ ist keine Karte (Rang A 10 K Q J 9 und Farbe C D H S, oder deutsche "
        "Namen wie Herz König)",
    ),
    (
        '[Dealer "A"]\n[Forehand "B"]\n[Trump "QH"]\n1. KS\n2. AS 10S\n',
        "line 4: trick 1 is unfinished; only the last line may stop after the leader's card",
        "Zeile 4: Stich 1 ist nicht fertig; nur die letzte Zeile darf nach der ausgespielten Karte "
        "enden",
    ),
    (
        '[Dealer "A"]\n[Forehand "B"]\n[Trump "QH"]\n1. KS AS\n2. QH 10H\n',
        "line 5: QH is the turn-up, lying on the table",
        "Zeile 5: QH ist die Atoutkarte und liegt aufgedeckt am Tisch",
    ),
    (
        '[Rules "schnapsen"]\n[Dealer "A"]\n[Forehand "B"]\n[Trump "QH"]\n'
        '[Hands "B: 9S KS AS JS QS"]\n1. KS AS\n',
        "line 5: 9S is not in a Schnapsen deck (20 cards, no nines) (Hands)",
        "Zeile 5: 9S ist nicht im Schnapsen-Blatt (20 Karten, ohne Neuner) (Hands)",
    ),
    (
        '[Rules "schnapsen deck=9"]\n[Dealer "A"]\n[Forehand "B"]\n[Trump "QH"]\n1. KS AS\n',
        'line 1: option "deck" takes 24, 20, not "9"',
        "Zeile 1: die Option „deck“ erlaubt 24, 20, nicht „9“",
    ),
    (
        '[Dealer "A"]\n[Forehand "B"]\n[Trump "QH"]\n[Result "C 2"]\n1. KS AS\n',
        "line 4: unknown-player (Result names C)",
        "Zeile 4: unbekannter Spieler (Result nennt C)",
    ),
    (
        '[Dealer "A"]\n[Trump "QH"]\n1. KS AS\n',
        'the required tag "Forehand" is missing',
        "die nötige Angabe „Forehand“ fehlt",
    ),
]


@pytest.fixture
def broken(tmp_path: Path) -> list[str]:
    paths = []
    for i, (text, _english, _german) in enumerate(RECORDS):
        path = tmp_path / f"broken{i}.deal"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def _check(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["check", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def test_check_says_a_records_errors_in_german(broken: list[str]) -> None:
    code, german, _ = _check(GERMAN, *broken)
    assert code == 2
    assert _check(ENGLISH, *broken, "--lang", "de")[1] == german
    for _text, english, words in RECORDS:
        assert (
            f"  Die Aufzeichnung kann kein wirkliches Spiel beschreiben:\n    {words}\n"
            "  Keine Entscheidung.\n" in german
        )
        assert english not in german


def test_check_in_english_is_unchanged_and_json_stays_english(broken: list[str]) -> None:
    code, english, _ = _check(ENGLISH, *broken)
    assert code == 2
    assert _check(GERMAN, *broken, "--lang", "en")[1] == english
    for path, (_text, message, _german) in zip(broken, RECORDS, strict=True):
        assert (
            f"  The record cannot describe a real deal:\n    {message}\n  No ruling.\n"
            in english.split(f"{path}: ")[1]
        )
    as_json = _check(GERMAN, "--json", *broken)[1]
    assert as_json == _check(ENGLISH, "--json", *broken)[1]
    errors = [json.loads(line)["errors"][0] for line in as_json.splitlines()]
    assert [
        str(e["message"]) if e["line"] is None else f"line {e['line']}: {e['message']}"
        for e in errors
    ] == [english for _text, english, _german in RECORDS]


def test_check_says_in_german_that_a_file_cannot_be_read(tmp_path: Path) -> None:
    latin = tmp_path / "latin.deal"
    latin.write_bytes('[Dealer "Zoë"]\n'.encode("latin-1"))
    assert _check(GERMAN, str(latin))[2] == (
        f"{latin}: kann nicht gelesen werden: Zeile 1: kein UTF-8-Text: Byte 0xeb an Stelle 11 "
        "(die Datei als UTF-8 speichern)\n"
    )
    assert _check(ENGLISH, str(latin))[2] == (
        f"{latin}: cannot be read: line 1: not UTF-8 text: byte 0xeb at offset 11 (save the file "
        "as UTF-8)\n"
    )
    # the system's reason a file is not there is German too, English as the system says it
    missing = tmp_path / "missing.deal"
    assert _check(GERMAN, str(missing))[2] == (
        f"{missing}: kann nicht gelesen werden: keine solche Datei und kein solcher Ordner\n"
    )
    assert (
        _check(ENGLISH, str(missing))[2]
        == f"{missing}: cannot be read: No such file or directory\n"
    )


def test_a_refused_edit_is_worded_whole_or_stays_english(playing: str, tmp_path: Path) -> None:
    """``tally deal edit`` refuses in two lines: both German, or (a refusal of the store's)
    both English, never one of each."""
    editors = {}
    for name, script in (
        ("again", 'echo "3. AS KS" >> "$1"'),
        ("rules", 'sed -i "s/sixty-six/schnapsen/" "$1"'),
        ("tag", 'sed -i "1s/]//" "$1"'),
    ):
        editor = tmp_path / f"{name}.sh"
        editor.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
        editor.chmod(0o755)
        editors[name] = str(editor)
    _code, _out, err = _invoke(
        playing, {**GERMAN, "EDITOR": editors["again"]}, "deal", "edit", "1.1"
    )
    first, second = err.splitlines()
    assert re.fullmatch(
        r"tally: die bearbeitete Aufzeichnung: Zeile \d+: AS wurde schon in "
        r"Stich 1 gespielt",
        first,
    )
    assert re.fullmatch(r" +nichts wurde geändert; die Bearbeitung bleibt in \S+ erhalten", second)
    _code, _out, err = _invoke(
        playing, {**GERMAN, "EDITOR": editors["rules"]}, "deal", "edit", "1.1"
    )
    first, second = err.splitlines()
    assert first == (
        "tally: die bearbeitete Aufzeichnung: die Aufzeichnung wird nach „schnapsen“ gespielt, "
        "das Bummerl nach „sixty-six“"
    )
    assert re.fullmatch(r" +nichts wurde geändert; die Bearbeitung bleibt in \S+ erhalten", second)
    _code, _out, err = _invoke(playing, {**GERMAN, "EDITOR": editors["tag"]}, "deal", "edit", "1.1")
    assert re.fullmatch(
        r"tally: Spiel 1: Zeile 1, Spalte \d+: der Angabe „Rules“ fehlt das "
        r"schließende „\]“",
        err.splitlines()[0],
    )


# --- the last words of any command --------------------------------------------------------


@pytest.mark.parametrize(
    ("raised", "code", "english", "german"),
    [
        (KeyboardInterrupt(), 130, "tally: interrupted\n", "tally: abgebrochen\n"),
        (
            RuntimeError("boom"),
            3,
            "tally: internal error: RuntimeError: boom\n"
            "       (set TALLY_DEBUG=1 to see the traceback)\n",
            "tally: interner Fehler: RuntimeError: boom\n"
            "       (TALLY_DEBUG=1 setzen, um den Traceback zu sehen)\n",
        ),
    ],
)
def test_a_stopped_or_broken_command_says_so_in_its_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    raised: BaseException,
    code: int,
    english: str,
    german: str,
) -> None:
    """Ctrl-C and an error nobody foresaw end any command in one line, worded in the
    command's --lang (else the locale's), never a traceback."""
    import tally.cli

    def broken(args: list[str]) -> int:
        raise raised

    monkeypatch.setattr(tally.cli, "_plain", broken)
    monkeypatch.delenv("TALLY_DEBUG", raising=False)
    for key, value in ENGLISH.items():
        monkeypatch.setenv(key, value)
    assert tally.cli.run(["check", "x.deal", "--lang", "de"]) == code
    assert capsys.readouterr().err == german
    assert tally.cli.run(["check", "x.deal"]) == code
    assert capsys.readouterr().err == english
    for key, value in GERMAN.items():
        monkeypatch.setenv(key, value)
    assert tally.cli.run(["check", "x.deal"]) == code
    assert capsys.readouterr().err == german
