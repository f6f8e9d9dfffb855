"""Sheets and readable output in English and German (issue 11, "Sheets and language").

- the catalogue: complete, no fuzzy entry, the committed ``.mo`` is the ``.po`` compiled now;
- no template shows a word outside ``{% trans %}`` / ``_()`` (so a string added in English
  fails here until it is marked and translated);
- every sheet printed in German and in English from one stored club, read back with pypdf;
- the readable output of standings, round, match show, check and analyse with ``--lang de``;
- which language wins: ``--lang``, then the event's, then the locale, then English;
- the event's language stored by ``tally event create --lang`` and by ``tally load``;
- JSON stays English and unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest
from typer.testing import CliRunner

from tally.cli import app
from tally.i18n import LANGUAGES, locale_language, resolve, translations, use
from tally.sheets.render import templates_dir
from tests.cli.test_print import Club, Printed, run_in
from tests.pdf_support import pages_text

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "deals"
REVOKE = EXAMPLES / "revoke-proved-later.deal"
PO = ROOT / "tally" / "locale" / "de" / "LC_MESSAGES" / "tally.po"

#: The sheet templates and the pages of tally serve.
TEMPLATES = [
    *sorted(templates_dir().glob("*.html.j2")),
    *sorted((templates_dir() / "web").glob("*.html.j2")),
]
#: What a template may print as it is in every language: the program's name, and the class
#: names a page's ``body_class`` block gives its body.
SAME_IN_EVERY_LANGUAGE = frozenset(("tally", "desk", "wall"))


# ------------------------------------------------------------------------------ the catalogue


def test_the_catalogue_is_complete_and_the_mo_is_the_po_compiled() -> None:
    pytest.importorskip("babel")
    from tally.i18n import problems

    assert problems("de") == []


def test_the_compiled_catalogue_ships_in_the_package() -> None:
    assert (ROOT / "tally" / "locale" / "de" / "LC_MESSAGES" / "tally.mo").is_file()
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.mo"' in text
    assert translations("de").gettext("Standings") == "Tabelle"


def test_a_catalogue_with_an_untranslated_entry_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("babel")
    import tally.i18n as i18n

    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    text = PO.read_text(encoding="utf-8")
    text += '\nmsgid "A brand-new column"\nmsgstr ""\n'
    (folder / "tally.po").write_text(text, encoding="utf-8")
    (folder / "tally.mo").write_bytes(PO.with_suffix(".mo").read_bytes())
    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path)
    assert i18n.problems("de") == ["untranslated: 'A brand-new column'"]
    # translated in the .po but not compiled: the .mo is stale
    translated = text[: -len('msgstr ""\n')] + 'msgstr "Neu"\n'
    (folder / "tally.po").write_text(translated, encoding="utf-8")
    found = i18n.problems("de")
    assert len(found) == 1 and "is not tally.po compiled" in found[0]


def test_a_catalogue_compiled_by_another_babel_is_not_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled catalogue names the Babel that compiled it; a newer Babel on a fresh
    machine must not call the shipped one stale (it happened: Babel 2.19)."""
    pytest.importorskip("babel")
    import re

    import tally.i18n as i18n

    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "tally.po").write_bytes(PO.read_bytes())
    mo = PO.with_suffix(".mo").read_bytes()
    version = re.search(rb"Generated-By: Babel ([0-9.]+)", mo)
    assert version is not None
    other = b"9" * len(version[1])  # (the same length: the file's offsets stay right)
    (folder / "tally.mo").write_bytes(mo.replace(version[0], b"Generated-By: Babel " + other))
    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path)
    assert i18n.problems("de") == []


def _visible_literals(path: Path) -> list[str]:
    """The words a template prints outside ``{% trans %}`` and expressions: its data text with
    the tags, entities and style sheets taken out."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    parts: list[str] = []
    in_trans = after_block = False
    for _line, kind, value in env.lex(path.read_text(encoding="utf-8")):
        if kind == "whitespace":
            continue
        if kind == "block_begin":
            after_block = True
            parts.append("\x00")
            continue
        if kind == "name" and after_block:
            in_trans = value in ("trans", "pluralize") or (in_trans and value != "endtrans")
        after_block = False
        if kind == "data" and not in_trans:
            parts.append(value)
        elif kind == "variable_begin":
            parts.append("\x00")
    text = "".join(parts)
    text = re.sub(r"<style>.*?</style>", " ", text, flags=re.S)
    text = re.sub(r"<!DOCTYPE[^>]*>", " ", text)
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r"&[#\w]+;", " ", text)
    return re.findall(r"[^\W\d_]{2,}", text)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_no_template_prints_a_word_outside_the_catalogue(path: Path) -> None:
    # A word typed straight into a template (``<th>Bye mark</th>``) would print in English on
    # a German sheet: wrap it in {% trans %}...{% endtrans %} or {{ _("...") }}, then run
    # `python -m tally.i18n update` and translate it in tally/locale/de/LC_MESSAGES/tally.po.
    assert [w for w in _visible_literals(path) if w not in SAME_IN_EVERY_LANGUAGE] == []


def test_the_template_check_finds_a_bare_word(tmp_path: Path) -> None:
    bad = tmp_path / "bad.html.j2"
    bad.write_text(
        '<th class="x">{{ _("Rank") }}</th><th>Bye mark</th>{% trans %}Fine{% endtrans %}',
        encoding="utf-8",
    )
    assert _visible_literals(bad) == ["Bye", "mark"]


# ------------------------------------------------------------------------------ choosing


def test_lang_wins_then_the_event_then_the_locale_then_english() -> None:
    assert resolve("en", "de", {"LANG": "de_AT.UTF-8"}) == "en"
    assert resolve("de", "en", {}) == "de"
    assert resolve(None, "de", {"LANG": "en_GB.UTF-8"}) == "de"
    assert resolve(None, "", {"LANG": "de_AT.UTF-8"}) == "de"
    assert resolve(None, None, {"LC_MESSAGES": "de_DE", "LANG": "en_US"}) == "de"
    assert resolve(None, None, {}) == "en"
    assert resolve(None, None, {"LANG": "fr_FR.UTF-8"}) == "en"


def test_the_first_locale_variable_set_decides_as_posix_says() -> None:
    assert locale_language({"LC_ALL": "C", "LANG": "de_AT.UTF-8"}) is None
    assert locale_language({"LC_ALL": "", "LC_MESSAGES": "de_AT", "LANG": "en"}) == "de"
    assert locale_language({"LANG": "de"}) == "de"
    assert locale_language({"LANGUAGE": "de"}) is None


def test_use_sets_the_language_for_its_block_only() -> None:
    from tally.i18n import current, gettext

    assert current() == "en"
    with use("de"):
        assert gettext("Standings") == "Tabelle"
    assert gettext("Standings") == "Standings"
    assert set(LANGUAGES) == {"en", "de"}


# ------------------------------------------------------------------------------ a stored club

DE_WORDS = {
    "standings": (
        "Tabelle",
        "Platz",
        "Spieler",
        "Kreuztabelle",
        "DV",
        "direkter Vergleich",
        "Matchpunkte",
        "Seite 1 von 1",
        "Runde 1 von 3",
    ),
    "pairings": (
        "Paarungen, Runde 1",
        "Tisch",
        "Erster Geber",
        "Ergebnis (Spielpunkte)",
        "Datum",
        "Regeln",
    ),
    "scoresheet": (
        "Schreibblatt",
        "Runde 1, Tisch 1",
        "Geber",
        "Spielpunkte dieses Spiels",
        "Übertrag",
        "Spielstand",
        "Unterschrift",
    ),
    "blank": ("Ein Bummerl auf 7 Spielpunkte", "Spieler A", "Unterschrift"),
    "ruling": (
        "Entscheidung",
        "Das Spiel",
        "Vorhand",
        "Atoutkarte",
        "Stiche",
        "Regelverstöße",
        "Farbzwang",
        "Bummerl 1, Spiel 1",
        "Analyse",
    ),
    "analysis": (
        "Bummerl 1, Greta Huber – Franz Leitner: Zudrehen und Ansagen",
        "Je Spieler",
        "Zugedreht",
        "Späte Ansagen",
        "Seite 1 von 1",
    ),
}
EN_WORDS = {
    "standings": (
        "Standings",
        "Rank",
        "Player",
        "Cross-table",
        "H2H",
        "head-to-head",
        "match points",
        "page 1 of 1",
        "round 1 of 3",
    ),
    "pairings": (
        "Pairings, round 1",
        "Table",
        "First dealer",
        "Result (game points)",
        "Date",
        "Rules",
    ),
    "scoresheet": (
        "Score sheet",
        "round 1, table 1",
        "Dealer",
        "Game points this deal",
        "Carry",
        "Running score",
        "Signature",
    ),
    "blank": ("One match to 7 game points", "Player A", "Signature"),
    "ruling": (
        "Ruling",
        "The deal",
        "Forehand",
        "Turn-up",
        "Tricks",
        "Rule violations",
        "follow suit",
        "match 1, deal 1",
        "Analysis",
    ),
    "analysis": (
        "Match 1, Greta Huber – Franz Leitner: the closes and claims",
        "Per player",
        "Closes",
        "Late claims",
        "page 1 of 1",
    ),
}
SHEETS = {
    "standings": ("print", "standings", "1"),
    "pairings": ("print", "pairings", "1", "--round", "1"),
    "scoresheet": ("print", "scoresheet", "1"),
    "blank": ("print", "scoresheet", "--blank"),
    "ruling": ("print", "ruling", "1.1", "--samples", "10"),
    "analysis": ("print", "analysis", "1", "--samples", "10"),
}


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    """Event 1: a round robin of four (no language of its own), round 1 started; match 1
    (Greta Huber v Franz Leitner) has the revoke deal of the examples and a quick deal,
    match 2 a quick win. Event 2: a club evening whose language is German, one match."""
    from tally.store import open_store

    root = tmp_path_factory.mktemp("i18n")
    url = f"sqlite:///{root / 'club.db'}"
    store = open_store(url, scorer="tester")
    try:
        for name in ("Greta Huber", "Anna Berger", "Bert Huber", "Franz Leitner"):
            store.players.add(name)
        store.events.create(
            "Autumn cup",
            kind="round-robin",
            players=["Greta Huber", "Anna Berger", "Bert Huber", "Franz Leitner"],
        )
        store.events.start_round(1, 1)
        store.deals.import_records(1, [("revoke", REVOKE.read_text(encoding="utf-8"))])
        store.deals.quick_result(1, winner="Greta Huber", points=1)
        store.deals.quick_result(2, winner="Anna Berger", points=3)
        store.deals.quick_result(2, winner="Anna Berger", points=3)
        store.deals.quick_result(2, winner="Anna Berger", points=1)
        store.events.create("Thursday club", players=["Anna Berger", "Bert Huber"], language="de")
        store.matches.start(
            "Anna Berger", "Bert Huber", first_dealer="Anna Berger", event="Thursday club"
        )
        store.deals.quick_result(3, winner="Bert Huber", points=2)
    finally:
        store.close()
    yield Club(url, root)


def _text(printed: Printed) -> str:
    assert printed.code == 0, printed.err
    return " ".join(" ".join(pages_text(printed.pdf)).split())


@pytest.fixture(scope="module")
def sheets(club: Club) -> dict[tuple[str, str], str]:
    """Every sheet printed in German and in English, as its text."""
    return {
        (name, lang): _text(club.run(*args, "--lang", lang))
        for name, args in SHEETS.items()
        for lang in ("de", "en")
    }


@pytest.mark.parametrize("name", list(SHEETS))
def test_each_sheet_prints_in_german(sheets: dict[tuple[str, str], str], name: str) -> None:
    text = sheets[name, "de"]
    for word in DE_WORDS[name]:
        assert word in text, (name, word)
    for word in EN_WORDS[name]:
        assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), (name, word)


@pytest.mark.parametrize("name", list(SHEETS))
def test_each_sheet_prints_in_english(sheets: dict[tuple[str, str], str], name: str) -> None:
    text = sheets[name, "en"]
    for word in EN_WORDS[name]:
        assert word in text, (name, word)
    for word in ("Tabelle", "Spieler", "Bummerl", "Spielpunkte", "Entscheidung", "Seite"):
        assert word not in text, (name, word)


def test_german_sheets_write_dates_and_decimals_the_german_way(
    sheets: dict[tuple[str, str], str],
) -> None:
    assert re.search(r"gedruckt \d\d\.\d\d\.20\d\d \d\d:\d\d", sheets["standings", "de"])
    assert re.search(r"printed 20\d\d-\d\d-\d\d \d\d:\d\d", sheets["standings", "en"])


def test_the_rules_a_german_ruling_quotes_are_german(sheets: dict[tuple[str, str], str]) -> None:
    de, en = sheets["ruling", "de"], sheets["ruling", "en"]
    assert "In der zweiten Phase muss der Nachspielende Farbe bekennen" in de
    assert "„" in de and "In phase 2 the follower must follow suit" in en


def test_a_german_event_prints_german_and_lang_overrides_it(club: Club) -> None:
    assert "Tabelle" in _text(club.run("print", "standings", "2"))
    assert "Standings" in _text(club.run("print", "standings", "2", "--lang", "en"))
    assert "Schreibblatt" in _text(club.run("print", "scoresheet", "3"))


def _cli(club: Club, *args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(
        app, list(args), catch_exceptions=False, env={"TALLY_DB": club.url, **(env or {})}
    )
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def test_the_locale_chooses_when_neither_lang_nor_the_event_does(club: Club) -> None:
    german = {"LANG": "de_AT.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    assert "Sp " in _cli(club, "standings", "1", env=german)
    assert "Pl " in _cli(club, "standings", "1", env={**german, "LC_ALL": "C"})
    assert "Pl " in _cli(club, "standings", "1", "--lang", "en", env=german)
    # the event's own language beats the locale
    assert "Sp " in _cli(club, "standings", "2", env={"LANG": "en_GB.UTF-8"})
    printed = run_in(club.root / "locale-print", club.url, "print", "standings", "1")
    assert "Standings" in _text(printed)


# ------------------------------------------------------------------------------ the terminal


def test_standings_in_german(club: Club) -> None:
    out = _cli(club, "standings", "1", "--lang", "de")
    assert "Autumn cup, 01.01.2026" not in out  # the date is the event's, written German
    assert re.search(r"Autumn cup, \d\d\.\d\d\.\d{4}, sixty-six, Rundenturnier: Runde 1 von 3", out)
    for word in (
        "Spieler",
        "Sp",
        "SP+",
        "Gereiht nach MP (Matchpunkte), dann DV direkter Vergleich",
        "Sp gespielt, G gewonnen",
    ):
        assert word in out, word
    assert "Player" not in out and "Tiebreaks" not in out


def test_season_standings_in_german(club: Club) -> None:
    out = _cli(club, "standings", "--season", "--from", "2026-01-01", "--lang", "de")
    assert (
        "Saison: Klubabende ab 01.01.2026 (1 Turnier(e), 1 Matchpunkt(e) je Sieg, vorläufig)"
    ) in out
    english = _cli(club, "standings", "--season", "--from", "2026-01-01")
    assert (
        "Season: club evenings from 2026-01-01 (1 event(s), 1 match point(s) a win, provisional)"
    ) in english
    sheet = _text(club.run("print", "standings", "--season", "--lang", "de"))
    assert "Saison: Klubabende" in sheet and "je Turnier" in sheet


def test_round_match_check_and_analyse_in_german(club: Club) -> None:
    rnd = _cli(club, "event", "round", "1", "1", "--lang", "de")
    assert "Autumn cup, Runde 1 von 3 (begonnen)" in rnd
    assert "Tisch" in rnd and "Erster Geber" in rnd and "beendet" in rnd
    shown = _cli(club, "match", "show", "1", "--lang", "de")
    assert shown.startswith("Bummerl 1: Greta Huber gegen Franz Leitner")
    assert "Farbzwang" in shown and "Geber" in shown and "(q: als Ergebnis eingetragen" in shown
    checked = _cli(club, "check", str(REVOKE), "--lang", "de")
    assert "(Vorhand) gegen" in checked and "verletzte eine Regel (Farbzwang)" in checked
    assert "Entscheidung:" in checked and "Gezählte Augen:" in checked
    analysed = _cli(club, "analyse", str(EXAMPLES / "pagat-equal-totals-draw.deal"), "--lang", "de")
    assert "Bei bester Spielweise beider Seiten" in analysed and "gelöst" in analysed
    report = _cli(club, "analyse", "--match", "1", "--lang", "de", "--samples", "5")
    assert report.startswith("Bummerl 1: 1 aufgezeichnete(s) Spiel(e) analysiert")
    assert "Spieler" in report and "späte Ansagen" in report


def test_cross_table_in_german(club: Club) -> None:
    out = _cli(club, "event", "cross", "1", "--lang", "de")
    assert "Autumn cup: Kreuztabelle" in out and "Nr." in out and "Spieler" in out
    assert "Jede Zeile zeigt" in out
    assert "Autumn cup: cross-table" in _cli(club, "event", "cross", "1")
    assert "Thursday club: Kreuztabelle" in _cli(club, "event", "cross", "2")


def test_english_stays_english(club: Club) -> None:
    assert _cli(club, "match", "show", "1").startswith("Match 1: Greta Huber v Franz Leitner")
    assert "(forehand) against" in _cli(club, "check", str(REVOKE))


def test_json_stays_english_and_unchanged(club: Club) -> None:
    german = {"LANG": "de_AT.UTF-8"}
    for args in (
        ("standings", "1", "--json"),
        ("match", "show", "1", "--json"),
        ("event", "round", "1", "1", "--json"),
    ):
        assert _cli(club, *args, "--lang", "de", env=german) == _cli(club, *args)
    assert _cli(club, "standings", "1", "--csv", "--lang", "de") == _cli(
        club, "standings", "1", "--csv"
    )
    assert _cli(club, "check", str(REVOKE), "--json", "--lang", "de") == _cli(
        club, "check", str(REVOKE), "--json"
    )


# ------------------------------------------------------------------------------ the event's


def test_event_create_stores_its_language(tmp_path: Path) -> None:
    env = {"TALLY_DB": f"sqlite:///{tmp_path / 'x.db'}"}
    runner = CliRunner()
    made = runner.invoke(app, ["event", "create", "Abend", "--lang", "de", "--json"], env=env)
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["language"] == "de"
    plain = runner.invoke(app, ["event", "create", "Evening", "--json"], env=env)
    assert json.loads(plain.stdout)["language"] == ""
    shown = runner.invoke(app, ["event", "show", "Abend", "--lang", "en"], env=env).stdout
    assert "Language of its sheets and output: de." in shown
    # without --lang the German event shows itself in German
    shown = runner.invoke(app, ["event", "show", "Abend"], env=env).stdout
    assert "Sprache der Blätter und Ausgaben: de." in shown
    assert "Language" not in runner.invoke(app, ["event", "show", "Evening"], env=env).stdout
    bad = runner.invoke(app, ["event", "create", "Soirée", "--lang", "fr"], env=env)
    assert bad.exit_code == 2
    assert "the event's language must be en or de" in bad.stderr
    assert "Traceback" not in bad.output


def test_load_reads_the_language_of_event_toml(tmp_path: Path) -> None:
    folder = tmp_path / "abend"
    folder.mkdir()
    (folder / "event.toml").write_text(
        'name = "Donnerstagsrunde"\nkind = "club-evening"\ndate = "2026-11-19"\n'
        'language = "de"\nplayers = ["Anna Berger", "Bert Huber"]\n\n[[matches]]\n'
        'players = ["Anna Berger", "Bert Huber"]\nfirst_dealer = "Anna Berger"\n'
        'results = ["Anna Berger 3 claim", "Anna Berger 3 claim", "Anna Berger 1 claim"]\n',
        encoding="utf-8",
    )
    env = {"TALLY_DB": f"sqlite:///{tmp_path / 'x.db'}"}
    loaded = CliRunner().invoke(app, ["load", str(folder)], env=env)
    assert loaded.exit_code == 0, loaded.output
    assert "Spieler" in loaded.stdout and "Gereiht nach" in loaded.stdout
    assert "Klubabend 1 „Donnerstagsrunde“ geladen (19.11.2026, sixty-six)" in loaded.stdout
    listed = CliRunner().invoke(app, ["event", "list", "--json"], env=env)
    assert json.loads(listed.stdout)[0]["language"] == "de"
    english = CliRunner().invoke(
        app, ["load", str(folder), "--lang", "en", "--db", f"sqlite:///{tmp_path / 'y.db'}"]
    )
    assert "Player" in english.stdout and "Spieler" not in english.stdout
    (folder / "event.toml").write_text(
        (folder / "event.toml").read_text(encoding="utf-8").replace('"de"', "7"), encoding="utf-8"
    )
    refused = CliRunner().invoke(
        app, ["load", str(folder), "--db", f"sqlite:///{tmp_path / 'z.db'}"]
    )
    assert refused.exit_code == 2 and "language must be a text" in refused.stderr


def test_the_web_wall_uses_the_same_catalogue() -> None:
    pytest.importorskip("starlette")
    from tally.web.standings import translate

    assert translate("de")("Standings") == "Tabelle"
    assert translate("de")("playing") == "läuft"
    with use("de"):
        assert translate("en")("Standings") == "Standings"


def test_the_shipped_fonts_have_every_character_of_the_german_catalogue() -> None:
    from fontTools.ttLib import TTFont

    catalogue = translations("de")
    text = "".join(str(v) for v in getattr(catalogue, "_catalog", {}).values())
    assert "Übertrag" in text and "„" in text
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        cmap = TTFont(templates_dir() / "fonts" / name).getBestCmap()
        assert sorted({c for c in text if ord(c) > 31 and ord(c) not in cmap}) == [], name


def test_every_explanation_and_violation_message_of_the_examples_is_worded_in_german() -> None:
    # The engine makes them as messages (a template and its values) where it knows the fact:
    # in German no English word is left, in English they are the text --json prints.
    from tally.engine.ruling import rule_text
    from tally.vocabulary import message_words
    from tests.conftest import CONFORMANCE, PRESET_DIRS
    from tests.i18n.german_support import english_words

    records = sorted(EXAMPLES.glob("*.deal"))
    records += [p for preset in PRESET_DIRS for p in sorted((CONFORMANCE / preset).glob("*.deal"))]
    seen = 0
    for path in records:
        ruling = rule_text(path.read_text(encoding="utf-8"), file=path.name)
        said = [(v.wording, v.message) for v in ruling.violations]
        said += [(ruling.wording, ruling.explanation)] if ruling.explanation else []
        names = (ruling.forehand, ruling.dealer)
        for words, english in said:
            seen += 1
            assert message_words(words, "en") == english
            german = message_words(words, "de")
            assert german != english and english_words(german, names) == [], (path, german)
            assert english_words(message_words(words, "de", spoken=True), names) == []
    assert seen >= 300


def test_a_season_title_and_an_event_stage_read_german_on_a_sheet_and_the_wall(
    tmp_path: Path,
) -> None:
    # The store makes an event's stage and a season's title as messages; a German sheet and
    # the wall word them from the catalogue, and an event's name is never taken for a title.
    from datetime import date

    from tally.sheets.build import standings_sheet
    from tally.sheets.render import render_html
    from tally.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 'season.db'}", scorer="tester")
    try:
        players = ["Anna Berger", "Bert Huber", "Carla Moser", "Dora Wimmer"]
        for name in players:
            store.players.add(name)
        named = "Season: all events from 2026-01-01"  # a name, not a season's title
        store.events.create(named, kind="round-robin", players=players)
        store.events.start_round(1, 1)
        event = store.events.standings(1)
        season = store.events.season_standings(all_events=True, date_from=date(2026, 1, 1))
        with use("de"):
            shown = render_html("standings.html.j2", standings_sheet(event), lang="de")
            titled = render_html("standings.html.j2", standings_sheet(season), lang="de")
        assert event.stage == "round 1 of 3" and "Runde 1 von 3" in shown
        assert "round 1 of 3" not in shown and named in shown and "Saison" not in shown
        assert season.title == "Season: all events from 2026-01-01"
        assert "Saison: alle Turniere ab 01.01.2026" in titled and "Season" not in titled
        pytest.importorskip("starlette")
        from tally.web.server import create_app
        from tests.web.test_routes import _client

        wall = _client(create_app(store)).get("/standings/1?lang=de").text
        assert '<span class="stage">Runde 1 von 3</span>' in wall and "round 1 of 3" not in wall
    finally:
        store.close()
