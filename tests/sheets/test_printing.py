"""Tests of the printed sheets (tally.sheets.render, tally.sheets, the templates).

PDFs are read back with pypdf: the text on each page, the page count and size, the fonts.
Rendering costs WeasyPrint roughly half a second a document, so each sheet is rendered once per
module (fixtures with ``scope="module"``) and every test reads those bytes.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import os
import re
import sys
from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import jinja2
import pypdf
import pytest

from tally.errors import Message, TallyError
from tally.sheets import (
    CrossTable,
    Declaration,
    PairingsSheet,
    PairingTable,
    Ruling,
    RulingSheet,
    ScoreSheet,
    SheetError,
    StandingRow,
    StandingsSheet,
    TrickRow,
    Violation,
)
from tally.sheets.render import (
    FetchRecord,
    FetchRefused,
    PrintError,
    TemplateFiles,
    card_html,
    environment,
    format_number,
    format_signed,
    html_to_pdf,
    make_url_fetcher,
    render_html,
    render_pairings,
    render_ruling,
    render_scoresheet,
    render_sheet,
    render_standings,
    suit_html,
    templates_dir,
    write_pdf,
)
from tests.pdf_support import page_size, pages_text, squash

EVENT = "Spring Cup 2024"
PRINTED = datetime(2024, 5, 11, 18, 30)
HOSTILE_IMG = '<img src="file:///etc/passwd">'
HOSTILE_BOLD = "<b>x</b>"
PLAYERS = ["Anna Berger", "Ben Schmid", "Clara Novák", "Dieter Huber", "Eva Kovács", "Franz Egger"]

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


# ------------------------------------------------------------------------------ data


def standing_rows(names: list[str], tiebreaks: int = 2) -> tuple[StandingRow, ...]:
    """Plausible standings rows for ``names`` (best first), with distinct figures per row."""
    rows = []
    for i, name in enumerate(names):
        won = max(0, 7 - i % 8)
        rows.append(
            StandingRow(
                rank=i + 1,
                player=name,
                played=7,
                won=won,
                lost=7 - won,
                match_points=2 * won,
                game_points_won=45 + (i * 7) % 13,
                game_points_conceded=30 + i,
                schneider_wins=i % 4,
                schwarz_wins=i % 2,
                tiebreaks=tuple(float(100 + 10 * t + i) + 0.5 for t in range(tiebreaks)),
                percentage=100 * won / 7,
            )
        )
    return tuple(rows)


def round_robin(names: list[str]) -> StandingsSheet:
    """A finished single round robin of ``names`` with game-point results in the cross-table."""
    n = len(names)
    cells = tuple(
        tuple(() if i == j else ((f"7:{j}",) if i < j else (f"{i}:7",)) for j in range(n))
        for i in range(n)
    )
    return StandingsSheet(
        event=EVENT,
        date=date(2024, 5, 11),
        rule_set="Sixty-Six, classic (to 7 game points)",
        printed_at=PRINTED,
        rows=standing_rows(names),
        tiebreaks=("Buchholz", "Sonneborn-Berger"),
        stage="final",
        cross_table=CrossTable(players=tuple(names), cells=cells),
    )


def pairings(names: list[str], round_number: int = 3) -> PairingsSheet:
    tables = tuple(
        PairingTable(
            table=k + 1,
            player_one=names[2 * k],
            player_two=names[2 * k + 1],
            first_dealer=names[2 * k + 1],
        )
        for k in range(len(names) // 2)
    )
    byes = (names[-1],) if len(names) % 2 else ()
    return PairingsSheet(
        event=EVENT,
        round_number=round_number,
        rule_set="Schnapsen",
        printed_at=PRINTED,
        tables=tables,
        byes=byes,
        date=date(2024, 5, 11),
    )


def ruling_sheet(players: tuple[str, str] = ("Anna Berger", "Ben Schmid")) -> RulingSheet:
    """A twelve-trick deal with a marriage, an exchange, a close and a broken rule."""
    a, b = players
    cards = [
        ("AH", "9H"),
        ("KS", "10S"),
        ("JD", "QD"),
        ("QS", "AC"),
        ("10D", "9S"),
        ("KC", "QC"),
        ("JH", "10H"),
        ("9D", "AD"),
        ("JC", "KD"),
        ("10C", "JS"),
        ("QH", "KH"),
        ("AS", "9C"),
    ]
    tricks = []
    pa = pb = 0
    leader = a
    for n, (lead, follow) in enumerate(cards, start=1):
        winner = a if n % 3 else b
        decls: tuple[Declaration, ...] = ()
        if n == 2:
            decls = (Declaration("marriage", a, ("KS", "QS"), 20),)
        elif n == 3:
            decls = (Declaration("exchange", b, ("9C",)),)
        elif n == 5:
            decls = (Declaration("close", a),)
        if winner == a:
            pa += 5 + n
        else:
            pb += 4 + n
        tricks.append(TrickRow(n, leader, lead, follow, winner, (pa, pb), decls))
        leader = winner
    ruling = Ruling(
        winner=a,
        game_points=2,
        reason=f"{b} did not follow suit in trick 7 after {a} closed; {a} wins the closed deal.",
        violations=(
            Violation(
                rule="follow-suit",
                player=b,
                trick=7,
                description=f"{b} played 10H on JH although he held hearts.",
                rule_text="Once the stock is closed, the second player must follow suit.",
            ),
        ),
        agreed_winner=b,
        agreed_game_points=1,
    )
    return RulingSheet(
        event=EVENT,
        players=players,
        dealer=b,
        forehand=a,
        turn_up="JC",
        trumps="C",
        rules="Sixty-Six, classic",
        tricks=tuple(tricks),
        ruling=ruling,
        printed_at=PRINTED,
        carry=1,
        place="round 3, table 2, deal 5",
        extra_tags=(("Arbiter", "M. Gruber"),),
    )


# ------------------------------------------------------------------------------ PDF helpers


def font_names(pdf: bytes) -> set[str]:
    names = set()
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        resources = page["/Resources"].get_object()
        assert isinstance(resources, pypdf.generic.DictionaryObject)
        fonts = resources.get("/Font", pypdf.generic.DictionaryObject()).get_object()
        for ref in fonts.values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+", 1)[-1])
    return names


# ------------------------------------------------------------------------------ audit


class Audit:
    """Records file opens and network events (PEP 578 audit hooks) while ``active``."""

    def __init__(self) -> None:
        self.active = False
        self.opened: list[str] = []
        self.network: list[tuple[str, tuple[Any, ...]]] = []

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.active:
            return
        if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            self.opened.append(os.fsdecode(args[0]))
        elif event.startswith(("socket.", "urllib.")):
            self.network.append((event, args))


_AUDIT = Audit()
sys.addaudithook(_AUDIT)


@pytest.fixture
def audit() -> Iterator[Audit]:
    _AUDIT.opened.clear()
    _AUDIT.network.clear()
    _AUDIT.active = True
    try:
        yield _AUDIT
    finally:
        _AUDIT.active = False


# ------------------------------------------------------------------------------ rendered once


class _Collect(logging.Handler):
    """Keeps every WeasyPrint warning or error (bad CSS, unreachable resource...)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


_WEASYPRINT_LOG = _Collect()


def logged(pdf: Callable[[], bytes]) -> bytes:
    """Render with ``pdf()``, keeping WeasyPrint's warnings in ``_WEASYPRINT_LOG``."""
    logger = logging.getLogger("weasyprint")
    logger.addHandler(_WEASYPRINT_LOG)
    try:
        return pdf()
    finally:
        logger.removeHandler(_WEASYPRINT_LOG)


@pytest.fixture(scope="module")
def standings_pdf() -> bytes:
    return logged(lambda: render_standings(round_robin(PLAYERS)))


@pytest.fixture(scope="module")
def long_standings_pdf() -> bytes:
    names = [f"Player {i:03d}" for i in range(1, 121)]
    sheet = StandingsSheet(
        event=EVENT,
        date=date(2024, 5, 11),
        rule_set="Schnapsen",
        printed_at=PRINTED,
        rows=standing_rows(names, tiebreaks=3),
        tiebreaks=("Buchholz", "Median", "Wins"),
        stage="after round 7 of 9",
    )
    return logged(lambda: render_standings(sheet))


@pytest.fixture(scope="module")
def pairings_pdf() -> bytes:
    return logged(lambda: render_pairings(pairings(PLAYERS[:5])))


@pytest.fixture(scope="module")
def pairings_letter_pdf() -> bytes:
    return logged(lambda: render_pairings(pairings(PLAYERS[:4], round_number=4), paper="letter"))


@pytest.fixture(scope="module")
def scoresheet_pdf() -> bytes:
    return logged(
        lambda: render_scoresheet(
            ScoreSheet(
                rule_set="Sixty-Six, classic",
                match_target=7,
                player_one="Anna Berger",
                player_two="Ben Schmid",
                event=EVENT,
                place="round 3, table 2",
                printed_at=PRINTED,
            )
        )
    )


@pytest.fixture(scope="module")
def blank_pdf() -> bytes:
    return logged(lambda: render_scoresheet(ScoreSheet.blank()))


@pytest.fixture(scope="module")
def ruling_pdf() -> bytes:
    return logged(lambda: render_ruling(ruling_sheet()))


# ------------------------------------------------------------------------------ standings


def test_standings_shows_names_figures_and_tags(standings_pdf: bytes) -> None:
    texts = pages_text(standings_pdf)
    assert len(texts) == 1
    text = texts[0]
    for name in PLAYERS:
        assert name in text
    assert "Standings final" in text
    assert "2024-05-11" in text and "printed 2024-05-11 18:30" in text
    assert "Sixty-Six, classic (to 7 game points)" in text
    # Anna: rank 1, 7 played, 7 won, 0 lost, 14 MP, 100 %, 45 won, 30 conceded, +15, 0, 0, TBs.
    assert re.search(r"1 Anna Berger 7 7 0 14 100\.0 45 30 \+15 0 0 100\.5 110\.5", text)
    # Ben: 6 of 7 (85.7 %), difference 52 - 31 = +21; Franz: 45 + 35 % 13 = 54, 54 - 35 = +19.
    assert re.search(r"2 Ben Schmid 7 6 1 12 85\.7 52 31 \+21 1 1 101\.5 111\.5", text)
    assert "TB1 Buchholz" in text and "TB2 Sonneborn-Berger" in text


def test_standings_negative_difference_uses_minus_sign() -> None:
    row = StandingRow(
        rank=1,
        player="P",
        played=1,
        won=0,
        lost=1,
        match_points=0,
        game_points_won=2,
        game_points_conceded=7,
        schneider_wins=0,
        schwarz_wins=0,
    )
    assert row.difference == -5
    assert format_signed(row.difference) == "\u22125"
    assert format_signed(3) == "+3" and format_signed(0) == "0"
    assert format_number(2.5) == "2.5" and format_number(3.0) == "3"
    assert format_number(30.999) == "31" and format_number(-1.25) == "\u22121.25"


def test_cross_table_has_results_and_numbered_columns(standings_pdf: bytes) -> None:
    text = pages_text(standings_pdf)[0]
    assert "Cross-table" in text
    # Row 1 (Anna) beat everyone 7:j; row 6 (Franz) lost 5:7 to all.
    assert "1 Anna Berger 7:1 7:2 7:3 7:4 7:5" in text
    assert "6 Franz Egger 5:7 5:7 5:7 5:7 5:7" in text
    html = render_html("standings.html.j2", round_robin(PLAYERS))
    assert html.count('<td class="self"></td>') == len(PLAYERS)


def test_long_standings_repeat_header_and_running_heads(long_standings_pdf: bytes) -> None:
    texts = pages_text(long_standings_pdf)
    n = len(texts)
    assert n >= 3
    for i, text in enumerate(texts, start=1):
        for word in ("Rank", "Player", "Played", "Won", "Lost", "MP", "Diff.", "TB3"):
            assert word in text, f"header word {word!r} missing on page {i}"
        assert f"page {i} of {n}" in text
        assert EVENT in text
        assert "Standings after round 7 of 9" in text
    assert "Player 001" in texts[0] and "Player 120" in texts[-1]
    # Every row printed exactly once, none lost or doubled at a page break.
    everything = "\n".join(texts)
    for i in range(1, 121):
        assert everything.count(f"Player {i:03d}") == 1


def test_layout_logs_no_warnings(
    standings_pdf: bytes,
    long_standings_pdf: bytes,
    pairings_pdf: bytes,
    pairings_letter_pdf: bytes,
    scoresheet_pdf: bytes,
    blank_pdf: bytes,
    ruling_pdf: bytes,
) -> None:
    assert [r.getMessage() for r in _WEASYPRINT_LOG.records] == []


def test_sheet_uses_only_the_shipped_font(standings_pdf: bytes, ruling_pdf: bytes) -> None:
    for pdf in (standings_pdf, ruling_pdf):
        assert font_names(pdf) <= {"Tally-Sans", "Tally-Sans-Bold"}
        assert "Tally-Sans" in font_names(pdf)
    fonts = templates_dir() / "fonts"
    assert (fonts / "DejaVuSans.ttf").is_file() and (fonts / "DejaVuSans-Bold.ttf").is_file()
    assert "Bitstream" in (fonts / "LICENSE").read_text(encoding="utf-8")


# ------------------------------------------------------------------------------ pairings


def test_pairings_lists_tables_dealers_and_bye(pairings_pdf: bytes) -> None:
    texts = pages_text(pairings_pdf)
    assert len(texts) == 1
    text = texts[0]
    assert "Pairings, round 3" in text
    assert "1 Anna Berger Ben Schmid Ben Schmid" in text
    assert "2 Clara Novák Dieter Huber Dieter Huber" in text
    assert "Bye: Eva Kovács" in text
    assert "First dealer" in text and "Result (game points)" in text
    assert "page 1 of 1" in text and EVENT in text


def test_pairings_result_boxes_are_empty() -> None:
    html = render_html("pairings.html.j2", pairings(PLAYERS[:4]))
    assert html.count('<span class="box"></span>') == 4


def test_paper_sizes(pairings_pdf: bytes, pairings_letter_pdf: bytes) -> None:
    assert page_size(pairings_pdf) == A4
    assert page_size(pairings_letter_pdf) == LETTER
    assert "Pairings, round 4" in pages_text(pairings_letter_pdf)[0]
    with pytest.raises(PrintError, match="unknown paper"):
        render_pairings(pairings(PLAYERS[:2]), paper="legal")


# ------------------------------------------------------------------------------ score sheets


def test_scoresheet_names_and_enough_rows(scoresheet_pdf: bytes) -> None:
    texts = pages_text(scoresheet_pdf)
    assert len(texts) == 1
    text = texts[0]
    assert "Player A Anna Berger" in text and "Player B Ben Schmid" in text
    assert "Match to 7 game points" in text and "round 3, table 2" in text
    assert "Sixty-Six, classic" in text
    deal_numbers = [int(x) for x in re.findall(r"^(\d+)$", text, flags=re.M)]
    assert deal_numbers == list(range(1, 19))
    for column in ("Deal", "Dealer", "Carry", "Running score", "Game points this deal"):
        assert column in text


def test_blank_scoresheet_has_no_names(blank_pdf: bytes) -> None:
    texts = pages_text(blank_pdf)
    assert len(texts) == 1
    text = texts[0]
    assert "Score sheet" in text and "One match to 7 game points" in text
    assert "Signature Player A" in text and "Signature Player B" in text
    assert not any(name in text for name in PLAYERS)
    assert re.findall(r"^(\d+)$", text, flags=re.M)[-1] == "18"


def test_scoresheet_row_count() -> None:
    assert ScoreSheet.blank().rows == 18
    assert ScoreSheet.blank(match_target=11).rows == 26
    assert ScoreSheet(rule_set="", deal_rows=20).rows == 20
    assert ScoreSheet.blank().is_blank and not ScoreSheet("", player_one="A").is_blank


# ------------------------------------------------------------------------------ ruling


def test_ruling_says_who_won_and_why(ruling_pdf: bytes) -> None:
    texts = pages_text(ruling_pdf)
    assert len(texts) == 1, "a twelve-trick ruling fits one page"
    text = texts[0]
    flat = squash(text)
    assert "Ruling: Anna Berger wins the deal and scores 2 game points." in text
    assert squash("Ben Schmid did not follow suit in trick 7") in flat
    assert "follow suit (trick 7, Ben Schmid)" in text
    assert squash("“Once the stock is closed, the second player must follow suit.”") in flat
    assert squash("does NOT match the ruling") in flat
    assert squash("Ben Schmid wins 1 game point — does not match the ruling") in flat
    for tag in (
        "Dealer Ben Schmid",
        "Forehand Anna Berger",
        "Turn-up J♣",
        "Trumps ♣ clubs",
        "1 game point carried in",
        "Arbiter M. Gruber",
        "round 3, table 2, deal 5",
    ):
        assert tag in text


def test_ruling_tricks_table(ruling_pdf: bytes) -> None:
    text = pages_text(ruling_pdf)[0]
    assert "1 Anna Berger A♥ 9♥ Anna Berger" in text
    assert "Anna Berger: marriage 20 K♠ Q♠" in text
    assert "Ben Schmid: exchange 9♣" in text
    assert "Anna Berger: closes" in text
    # Trick 12 and the counted points after it: Anna 5+1 ... ; check the final pair.
    sheet = ruling_sheet()
    last = sheet.tricks[-1]
    assert re.search(rf"^12 .* {last.points[0]} {last.points[1]}$", text, flags=re.M)


def test_ruling_section_is_not_split_on_letter() -> None:
    sheet = ruling_sheet()
    # A second violation makes the ruling too long for what is left of page one.
    ruling = dataclasses.replace(sheet.ruling, violations=sheet.ruling.violations * 2)
    texts = pages_text(render_ruling(dataclasses.replace(sheet, ruling=ruling), paper="letter"))
    assert len(texts) == 2
    assert "Tricks" in texts[0] and "Ruling: Anna Berger wins" in texts[0]
    second = squash(texts[1])
    for part in ("Decision:", "Reason:", "Ruleviolations", "Players'agreedresult:"):
        assert part in second
    assert "page 2 of 2" in texts[1] and EVENT in texts[1]


def test_ruling_agreement_and_no_winner() -> None:
    agreed = Ruling(winner="A", game_points=1, reason="r", agreed_winner="A", agreed_game_points=1)
    assert agreed.agreement_matches
    assert not Ruling(winner="A", game_points=1, reason="r").agreement_matches
    with pytest.raises(SheetError):
        Ruling(winner=None, game_points=2, reason="r")
    sheet = ruling_sheet()
    nobody = dataclasses.replace(
        sheet,
        ruling=Ruling(winner=None, game_points=0, reason="Both reached 66 without announcing."),
    )
    html = render_html("ruling.html.j2", nobody)
    assert "nobody wins this deal; no game points are scored" in html
    assert "The players recorded no agreed result." in html


# ------------------------------------------------------------------------------ cards


def test_card_filter_colours_red_suits_and_escapes() -> None:
    assert str(card_html("10H")) == '<span class="card">10<span class="suit red">♥</span></span>'
    assert str(card_html("QS")) == '<span class="card">Q<span class="suit black">♠</span></span>'
    assert 'class="suit red">♦' in str(card_html("9D"))
    assert 'class="suit black">♣' in str(card_html("AC"))
    assert str(card_html("<b>H")) == "&lt;b&gt;H"
    assert str(suit_html('"><x>')) == "&#34;&gt;&lt;x&gt;"
    html = render_html("ruling.html.j2", ruling_sheet())
    assert 'A<span class="suit red">♥</span>' in html


# ------------------------------------------------------------------------------ safety


def test_environment_escapes_and_is_strict() -> None:
    env = environment()
    assert env.autoescape("standings.html.j2") is True  # type: ignore[operator]
    assert env.autoescape("anything.j2") is True  # type: ignore[operator]
    assert env.undefined is jinja2.StrictUndefined
    assert env.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"
    with pytest.raises(jinja2.UndefinedError):
        env.get_template("pairings.html.j2").render(page_size="A4")


def test_hostile_names_print_literally(audit: Audit) -> None:
    names = [HOSTILE_IMG, HOSTILE_BOLD, "Anna Berger", "Ben Schmid"]
    sheet = round_robin(names)
    gate = TemplateFiles()
    pdf = render_standings(sheet, files=gate)
    audit.active = False
    html = render_html("standings.html.j2", sheet)
    assert "&lt;img src=&#34;file:///etc/passwd&#34;&gt;" in html
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    text = "".join(pages_text(pdf))
    flat = squash(text)
    # In the standings and the cross-table.
    assert flat.count(squash(HOSTILE_IMG)) == 2
    assert flat.count(HOSTILE_BOLD) == 2
    # Only the stylesheet and the two fonts were read, all inside the templates folder.
    root = templates_dir()
    assert {p.name for p in gate.served} == {"tally.css", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"}
    assert all(p.is_relative_to(root) for p in gate.served)
    assert gate.refused == []
    assert not any(Path(p).resolve() == Path("/etc/passwd") for p in audit.opened)
    assert audit.network == []


def test_a_refused_file_is_told_in_german(audit: Audit) -> None:
    from tally.i18n import worded

    with pytest.raises(PrintError) as refused:
        html_to_pdf('<link rel="stylesheet" href="../pyproject.toml"><p>x</p>')
    said = worded(refused.value.wording, "de")
    assert said.startswith("das Blatt verlangte Dateien, die tally nicht ausliefert: "), said
    assert "außerhalb der Vorlagen" in said, said


def test_hostile_names_on_pairings_and_ruling(audit: Audit) -> None:
    gate = TemplateFiles()
    pairing_pdf = render_pairings(pairings([HOSTILE_IMG, HOSTILE_BOLD]), files=gate)
    ruling_pdf = render_ruling(ruling_sheet((HOSTILE_BOLD, HOSTILE_IMG)), files=gate)
    audit.active = False
    assert squash(HOSTILE_IMG) in squash(pages_text(pairing_pdf)[0])
    ruling_text = squash(pages_text(ruling_pdf)[0])
    assert squash(f"Ruling: {HOSTILE_BOLD} wins the deal") in ruling_text
    assert squash(HOSTILE_IMG) in ruling_text
    assert all(r.path is not None and r.path.is_relative_to(templates_dir()) for r in gate.log)
    assert not any("passwd" in p for p in audit.opened)
    assert audit.network == []


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://example.com/",
        "https://example.com/style.css",
        "ftp://example.com/x",
        "data:text/css,body{}",
        "file://example.com/etc/passwd",
        "//example.com/x.css",
        "fonts/DejaVuSans.ttf",
    ],
)
def test_fetcher_refuses_outside_addresses(url: str) -> None:
    gate = TemplateFiles()
    fetcher = make_url_fetcher(gate)
    with pytest.raises(FetchRefused):
        fetcher(url)
    with pytest.raises(FetchRefused):
        fetcher.fetch(url)
    assert [r.url for r in gate.refused] == [url, url]
    assert gate.served == []


def test_fetcher_is_a_weasyprint_fetcher_and_serves_templates() -> None:
    from weasyprint.urls import URLFetcher  # type: ignore[import-untyped]

    gate = TemplateFiles()
    fetcher = make_url_fetcher(gate)
    assert isinstance(fetcher, URLFetcher)
    css = templates_dir() / "tally.css"
    response = fetcher(css.as_uri())
    try:
        assert response.content_type == "text/css"
        assert b"@font-face" in response.read()
    finally:
        response.close()
    assert gate.served == [css]


def test_fetcher_resolves_dotdot_and_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "templates"
    root.mkdir()
    (root / "ok.css").write_text("body {}", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    (root / "link.css").symlink_to(secret)
    (root / "dir").mkdir()
    (root / "sub").symlink_to(tmp_path)
    gate = TemplateFiles(root)
    assert gate.read((root / "ok.css").as_uri()) == (b"body {}", "text/css")
    for url in (
        (root / "link.css").as_uri(),  # symlink out of the folder
        root.as_uri() + "/../secret.txt",  # dot-dot
        root.as_uri() + "/%2e%2e/secret.txt",  # escaped dot-dot
        root.as_uri() + "/sub/secret.txt",  # folder symlink out
        (root / "dir").as_uri(),  # not a file
        (root / "missing.css").as_uri(),  # not there
        "file:///etc/passwd",
    ):
        with pytest.raises(FetchRefused):
            gate.read(url)
    assert gate.served == [(root / "ok.css").resolve()]


def test_the_stylesheet_and_fonts_are_read_once_per_process_and_pass_every_gate(
    standings_pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # standings_pdf was printed in this process: a second sheet reads no file again, yet its
    # gate is asked for the stylesheet and both fonts, and the sheet has them.
    read: list[str] = []
    original = TemplateFiles.read

    def counted(self: TemplateFiles, url: str) -> tuple[bytes, str]:
        read.append(url)
        return original(self, url)

    monkeypatch.setattr(TemplateFiles, "read", counted)
    gate = TemplateFiles()
    pdf = render_pairings(pairings(PLAYERS[:4]), files=gate)
    assert read == []
    assert [p.name for p in gate.served] == ["tally.css", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"]
    assert gate.refused == []
    assert font_names(pdf) == {"Tally-Sans", "Tally-Sans-Bold"}
    assert page_size(pdf) == A4  # the paper of the sheet's own <style> wins over tally.css


class NoFonts(TemplateFiles):
    """The templates folder without its fonts."""

    def resolve(self, url: str) -> Path:
        if url.endswith(".ttf"):
            self.log.append(FetchRecord(url, None, Message("no fonts: %(url)s", url=url)))
            raise FetchRefused(f"no fonts: {url}")
        return super().resolve(url)


def test_a_gate_that_refuses_the_stylesheets_fonts_fails_the_render(
    standings_pdf: bytes, tmp_path: Path
) -> None:
    # The stylesheet and fonts parsed once for the process still pass each render's gate.
    with pytest.raises(PrintError, match="does not serve: no fonts: file:"):
        render_standings(round_robin(PLAYERS[:4]), files=NoFonts())
    # The stylesheet of another templates folder is parsed on its own; there a font is missing.
    root = tmp_path / "templates"
    (root / "fonts").mkdir(parents=True)
    for name in ("tally.css", "fonts/DejaVuSans.ttf"):
        (root / name).write_bytes((templates_dir() / name).read_bytes())
    with pytest.raises(PrintError, match="does not serve: no such template file"):
        render_standings(round_robin(PLAYERS[:4]), files=TemplateFiles(root))


@pytest.mark.parametrize(
    "html",
    [
        f"<p>x</p>{HOSTILE_IMG}",
        '<link rel="stylesheet" href="http://example.com/x.css"><p>x</p>',
        '<link rel="stylesheet" href="../pyproject.toml"><p>x</p>',
    ],
)
def test_raw_html_asking_for_outside_files_fails(html: str, audit: Audit) -> None:
    gate = TemplateFiles()
    with pytest.raises(PrintError, match="does not serve"):
        html_to_pdf(html, files=gate)
    audit.active = False
    assert len(gate.refused) == 1 and gate.served == []
    assert not any("passwd" in p or p.endswith("pyproject.toml") for p in audit.opened)
    assert audit.network == []


# ------------------------------------------------------------------------------ data checks


def test_sheet_data_is_checked() -> None:
    rows = standing_rows(["A", "B"], tiebreaks=1)
    with pytest.raises(SheetError, match="tiebreak"):
        StandingsSheet(
            event="e",
            date=date(2024, 1, 1),
            rule_set="r",
            printed_at=PRINTED,
            rows=rows,
            tiebreaks=(),
        )
    with pytest.raises(SheetError, match="cross-table"):
        CrossTable(players=("A", "B"), cells=((), ()))
    with pytest.raises(SheetError, match="against himself"):
        CrossTable(players=("A", "B"), cells=((("1",), ()), ((), ())))
    with pytest.raises(SheetError, match="first dealer"):
        PairingTable(table=1, player_one="A", player_two="B", first_dealer="C")
    with pytest.raises(SheetError, match="share a table"):
        PairingsSheet(
            event="e",
            round_number=1,
            rule_set="r",
            printed_at=PRINTED,
            tables=(PairingTable(1, "A", "B", "A"), PairingTable(1, "C", "D", "C")),
        )
    with pytest.raises(SheetError, match="marriage"):
        Declaration("marriage", "A", points=30)
    with pytest.raises(SheetError, match="not one of the players"):
        dataclasses.replace(ruling_sheet(), dealer="Zoe")
    assert issubclass(SheetError, TallyError) and issubclass(PrintError, TallyError)


# ------------------------------------------------------------------------------ files


def test_write_pdf_and_render_sheet(tmp_path: Path, pairings_pdf: bytes) -> None:
    target = write_pdf(pairings_pdf, tmp_path / "round3.pdf")
    assert target.read_bytes() == pairings_pdf
    assert [p.name for p in tmp_path.iterdir()] == ["round3.pdf"]
    with pytest.raises(PrintError):
        write_pdf(b"<html>", tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()
    with pytest.raises(OSError):
        write_pdf(pairings_pdf, tmp_path / "missing" / "x.pdf")
    pdf = render_sheet(ScoreSheet.blank(match_target=5), paper="letter")
    assert page_size(pdf) == LETTER
    texts = pages_text(pdf)
    assert len(texts) == 1, "the blank form fits one letter page"
    assert "One match to 5 game points" in texts[0]
