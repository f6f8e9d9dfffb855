"""The sheets and readable output main gained beside the first German catalogue, in German and
in English: the bracket, the standings by elimination, the ratings list and a series' standings
(PDFs read back with pypdf), a club evening's tables, and the terminal output of ``tally
event elimination``/``bracket``, ``tally ratings`` and ``tally series standings``.

The knockout is the bundled Preisschnapsen (examples/knockout, 16 players, 3 lives, a final of
four), loaded once into a SQLite file; ratings and series use a small club on SQLite.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tests.pdf_support import pages_text, squash

ROOT = Path(__file__).resolve().parents[2]
KNOCKOUT = ROOT / "examples" / "knockout"
runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"LANG": "", "LC_ALL": "", "LC_MESSAGES": ""})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def knockout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("ko") / "ko.db"
    ok("load", str(KNOCKOUT), "--db", str(db), "--fresh")
    return db


def printed(db: Path, *args: str) -> str:
    target = db.parent / f"{'-'.join(args)}.pdf"
    ok("print", *args, "--db", str(db), "-o", str(target))
    return "\n".join(pages_text(target.read_bytes()))


@pytest.mark.parametrize(
    ("lang", "words", "absent"),
    [
        (
            "de",
            (
                "Turnierbaum",
                "Halbfinale",
                "Finale",
                "Sieger",
                "Sieger fett",
                "Datum",
                "Regeln",
                "gedruckt",
            ),
            ("Champion", "Semi-finals", "Winners in bold"),
        ),
        (
            "en",
            (
                "Bracket",
                "Semi-finals",
                "Final",
                "Champion",
                "Winners in bold",
                "Date",
                "Rules",
                "printed",
            ),
            ("Turnierbaum", "Halbfinale"),
        ),
    ],
)
def test_the_bracket_sheet(
    knockout: Path, lang: str, words: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    text = printed(knockout, "bracket", "1", "--lang", lang)
    for word in words:
        assert word in text, (lang, word)
    for word in absent:
        assert word not in text, (lang, word)


@pytest.mark.parametrize(
    ("lang", "words", "absent"),
    [
        (
            "de",
            (
                "Tabelle nach Ausscheiden",
                "Leben übrig",
                "Aus in Runde",
                "Wie weit",
                "Startwert der Auslosung 2026",
                "aus in Runde",
                "Stechen",
                "Runden: G gewonnen, V verloren (ein Leben)",
                "beendet nach",
            ),
            ("Standings by elimination", "Lives left", "out in round", "over after"),
        ),
        (
            "en",
            (
                "Standings by elimination",
                "Lives left",
                "Out in round",
                "How far",
                "Seed of the draw 2026",
                "out in round",
                "play-offs (Stechen)",
                "over after",
            ),
            ("Tabelle nach Ausscheiden", "ausgeschieden"),
        ),
    ],
)
def test_the_elimination_sheet(
    knockout: Path, lang: str, words: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    text = printed(knockout, "standings", "1", "--lang", lang)
    for word in words:
        assert word in text, (lang, word)
    for word in absent:
        assert word not in text, (lang, word)


def test_the_knockout_pairings_say_the_draw_in_german(knockout: Path) -> None:
    text = printed(knockout, "pairings", "1", "--round", "1", "--lang", "de")
    assert "Runde 1: ausgelost, Startwert 2026" in text
    assert "drawn by lot" not in text


def test_elimination_and_bracket_on_the_terminal(knockout: Path) -> None:
    de = ok("event", "elimination", "1", "--db", str(knockout), "--lang", "de")
    assert "Tabelle nach Ausscheiden" in de and "aus in Runde" in de
    assert "Runden: G gewonnen, V verloren, F spielfrei" in de and "Player" not in de
    en = ok("event", "elimination", "1", "--db", str(knockout))
    assert "standings by elimination" in en and "out in round" in en
    de = ok("event", "bracket", "1", "--db", str(knockout), "--lang", "de")
    assert "Turnierbaum" in de and "Sieger:" in de and "Champion" not in de
    en = ok("event", "bracket", "1", "--db", str(knockout))
    assert ": bracket" in en and "Champion:" in en


def test_how_far_a_player_got_is_worded_in_german() -> None:
    from tally.events.knockout import words
    from tally.events.knockout.words import Said, bracket_round_name, lives_left, ordinal
    from tally.i18n import worded
    from tally.vocabulary import stage_text

    semi = bracket_round_name(1, 2)
    gone = Said(words.WITHDREW, stage=Said(words.OUT, stage=semi))
    assert worded(gone, "de") == "Halbfinale, aus, zurückgezogen"
    assert str(gone) == "semi-final, out, withdrew"
    assert worded(bracket_round_name(2, 2), "de") == "Finale"
    assert stage_text("final", "de") == "Endstand"  # a round robin's final standings
    place = Said(words.IN_GROUP, group=2, place=ordinal(3))
    assert worded(place, "de") == "Gruppe 2, 3." and worded(place, "en") == "group 2, 3rd"
    assert worded(lives_left(1), "de") == "noch dabei, 1 Leben"
    left = Said(words.PLAYERS_LEFT, n=4, players=12)
    assert worded(left, "de") == "Runde 4, noch 12 Spieler im Turnier"


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Anna beats Bert twice and Carl once, Carl beats Bert (a club evening); a series of it."""
    db = tmp_path_factory.mktemp("rated") / "r.db"
    url = str(db)
    ok("player", "add", "Anna Berger", "Bert Huber", "Carl Moser", "--db", url)
    ok(
        "event",
        "create",
        "Thursday club",
        "Anna",
        "Bert",
        "Carl",
        "--date",
        "2026-11-19",
        "--db",
        url,
    )
    for n, (winner, loser) in enumerate(
        [("Anna", "Bert"), ("Anna", "Bert"), ("Anna", "Carl"), ("Carl", "Bert")], start=1
    ):
        ok("match", "start", winner, loser, "--dealer", winner, "--event", "1", "--db", url)
        for points in ("3", "3", "1"):
            ok("deal", "quick", str(n), "--winner", winner, "--points", points, "--db", url)
    ok("series", "create", "Grand Prix", "--events", "1", "--points", "10,6,4", "--db", url)
    return db


@pytest.mark.parametrize(
    ("lang", "words", "absent"),
    [
        (
            "de",
            (
                "Wertungszahlen",
                "Gewertete Bummerl 4",
                "Wertungszahl",
                "Kons.",
                "Zuletzt gespielt",
                "gereiht nach mu - 3 sigma",
            ),
            ("Ratings", "Last played"),
        ),
        (
            "en",
            (
                "Ratings",
                "Matches rated 4",
                "Rating",
                "Cons.",
                "Last played",
                "ranked by mu - 3 sigma",
            ),
            ("Wertung", "Zuletzt"),
        ),
    ],
)
def test_the_ratings_sheet(
    rated: Path, lang: str, words: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    text = printed(rated, "ratings", "--lang", lang)
    for word in words:
        assert word in text, (lang, word)
    for word in absent:
        assert word not in text, (lang, word)


@pytest.mark.parametrize(
    ("lang", "words", "absent"),
    [
        (
            "de",
            (
                "Serientabelle",
                "Turniere",
                "Esz\u00e4hlen",
                "jedesErgebnis",
                "T1Thursdayclub",
                "101.Platz",
                "Gesamt",
            ),
            ("Seriesstandings", "place"),
        ),
        (
            "en",
            (
                "Seriesstandings",
                "Events",
                "Counting",
                "everyresult",
                "E1Thursdayclub",
                "101.place",
                "Total",
            ),
            ("Serientabelle", "Platz"),
        ),
    ],
)
def test_the_series_sheet(
    rated: Path, lang: str, words: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    flat = squash(printed(rated, "series", "Grand Prix", "--lang", lang))
    for word in words:
        assert word in flat, (lang, word)
    for word in absent:
        assert word not in flat, (lang, word)


def test_ratings_and_series_on_the_terminal(rated: Path) -> None:
    de = ok("ratings", "--db", str(rated), "--lang", "de")
    # the day each player last played, written as the language does
    assert "Wertungszahlen nach 4 Bummerl" in de and "Zuletzt gespielt" in de
    assert re.search(r"\d\d\.\d\d\.\d{4}", de) and not re.search(r"\d{4}-\d\d-\d\d", de)
    en = ok("ratings", "--db", str(rated))
    assert "Ratings after 4 match(es)" in en and re.search(r"\d{4}-\d\d-\d\d", en)
    de = ok("ratings", "history", "Anna", "--db", str(rated), "--lang", "de")
    assert "Gegner" in de and "gewonnen" in de and "Opponent" not in de
    de = ok("series", "standings", "Grand Prix", "--db", str(rated), "--lang", "de")
    assert "Serie 1: Grand Prix" in de and "Jedes Feld: Punkte (Platz)" in de
    assert "jedes Ergebnis zählt" in de
    en = ok("series", "standings", "Grand Prix", "--db", str(rated))
    assert "Series 1: Grand Prix" in en and "every result counts" in en


def test_a_club_evenings_tables_in_german(rated: Path) -> None:
    ok("match", "start", "Anna", "Carl", "--dealer", "Carl", "--event", "1", "--db", str(rated))
    text = printed(rated, "pairings", "1", "--lang", "de")
    assert "Tische, wie sie sich setzen" in text and "Bummerl" in squash(text)
    assert "Warten auf einen Tisch: Bert Huber" in text
    assert "Tables as they sit down" not in text


@pytest.fixture(scope="module")
def swiss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("swiss") / "s.db"
    ok("load", str(ROOT / "examples" / "swiss"), "--db", str(db), "--fresh")
    return db


def test_a_swiss_event_in_german(swiss: Path) -> None:
    text = ok("standings", "1", "--db", str(swiss), "--lang", "de")
    assert "Schweizer System" in text and "Buchholz" in text and "Swiss event" not in text
    sheet = printed(swiss, "standings", "1", "--lang", "de")
    assert "Buchholz (Matchpunkte der Gegner, gegen die gespielt wurde)" in sheet
    assert "Kreuztabelle" in sheet
    english = printed(swiss, "standings", "1")
    assert "Buchholz (match points of the opponents met)" in english
    pairings = printed(swiss, "pairings", "1", "--round", "1", "--lang", "de")
    assert "Paarungen, Runde 1" in pairings and "Tisch" in pairings
