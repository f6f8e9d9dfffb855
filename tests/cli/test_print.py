"""``tally print scoresheet`` and ``tally print ruling`` on a real database, read back with pypdf.

One SQLite database per module holds every situation (a match with a revoke, a drawn deal,
a deal won with a carry and a wrong agreed result, a quick-entry deal, a deal being played; a
finished match; a fresh match); each PDF is printed once per module (WeasyPrint costs about
half a second a sheet) and every test reads those bytes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tally.engine.rulebook import REASON_TEXT, VIOLATION_TEXT
from tests.pdf_support import page_size, pages_text, squash

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "deals"
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
HOSTILE = "<b>x</b>"

DRAWN = """[Dealer "Franz Leitner"]
[Forehand "Greta Huber"]
[Trump "QH"]
[Result "draw"]

1. KC AC
2. 9S 10S
3. swap JD AD
4. 20 KS AS
5. 9C 10C
6. 9D 10D
7. KD QD
8. JC 9H
9. QS 10H
10. QC KH
11. JS JH
12. QH AH
"""

# Franz exchanges, declares 40 and claims before leading to trick 4; with the carry of the
# drawn deal he scores 3 + 1, but the players wrote down 3.
CARRIED = """[Dealer "Greta Huber"]
[Forehand "Franz Leitner"]
[Trump "QD"]
[Carry "1"]
[Result "Franz Leitner 3"]

1. TH JH
2. swap 40 QD KC
3. TD TC
4. 66
"""


@dataclass
class Printed:
    """A command run in a folder of its own: exit status, output, and the PDFs it left."""

    code: int
    out: str
    err: str
    files: dict[str, bytes]

    @property
    def pdf(self) -> bytes:
        assert self.code == 0, self.err
        (data,) = self.files.values()
        return data

    @property
    def text(self) -> str:
        return "\n".join(pages_text(self.pdf))


def run_in(folder: Path, url: str, *args: str) -> Printed:
    """Run ``tally ARGS`` on the database at ``url`` with ``folder`` as the current directory:
    what it printed and every file in the folder afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    here = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(
            app, list(args), catch_exceptions=False, env={"TALLY_DB": url, "TALLY_SCORER": "tester"}
        )
    finally:
        os.chdir(here)
    files = {
        f.relative_to(folder).as_posix(): f.read_bytes() for f in folder.rglob("*") if f.is_file()
    }
    return Printed(result.exit_code, result.stdout, result.stderr, files)


@dataclass
class Club:
    """The module's database, and a fresh folder for each command run on it."""

    url: str
    root: Path
    runs: int = 0

    def run(self, *args: str) -> Printed:
        self.runs += 1
        return run_in(self.root / f"run-{self.runs}", self.url, *args)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    """Match 1: Greta Huber v Franz Leitner, five deals (revoke, draw, carried claim, quick,
    one being played). Match 2: Mia v Hans (Schnapsen), won 7-0 by Hans in three quick deals.
    Match 3: HOSTILE v Anna Berger, no deal yet, HOSTILE deals first."""
    from tally.store import open_store

    root = tmp_path_factory.mktemp("print")
    url = f"sqlite:///{root / 'club.db'}"
    store = open_store(url, scorer="tester")
    try:
        for name in ("Greta Huber", "Franz Leitner", "Mia", "Hans", HOSTILE, "Anna Berger"):
            store.players.add(name)
        store.matches.start("Greta Huber", "Franz Leitner", first_dealer="Greta Huber")
        store.deals.import_records(
            1,
            [
                ("revoke", (EXAMPLES / "revoke-proved-later.deal").read_text()),
                ("drawn", DRAWN),
                ("carried", CARRIED),
            ],
        )
        store.deals.quick_result(1, winner="Greta Huber", points=1)
        deal = store.deals.start(1, "AH")
        store.deals.play(deal.id, "QD 10H")
        store.matches.start("Mia", "Hans", rules="schnapsen", first_dealer="Mia")
        store.deals.quick_result(2, winner="Hans", points=3)
        store.deals.quick_result(2, winner="Hans", points=3, reason="illegal-play")
        store.deals.quick_result(2, winner="Hans", points=1)
        store.matches.start(HOSTILE, "Anna Berger", first_dealer=HOSTILE)
    finally:
        store.close()
    yield Club(url, root)


@pytest.fixture(scope="module")
def printed(club: Club) -> dict[str, Printed]:
    """Every sheet the tests read, printed once, each in a folder of its own (with an empty
    subfolder ``sheets``)."""
    sheets = {
        "match": ("print", "scoresheet", "1"),
        "finished": ("print", "scoresheet", "2", "--paper", "letter"),
        "fresh": ("print", "scoresheet", "3", "-o", "sheets/table-3.pdf"),
        "blank": ("print", "scoresheet", "--blank"),
        "blank11": (
            "print",
            "scoresheet",
            "--blank",
            "--rules",
            "schnapsen match_target=11",
            "--paper",
            "LETTER",
        ),
        "revoke": ("print", "ruling", "1.1"),
        "drawn": ("print", "ruling", "2"),
        "carried": ("print", "ruling", "1.3", "--paper", "letter"),
    }
    out = {}
    for key, args in sheets.items():
        folder = club.root / f"printed-{key}"
        (folder / "sheets").mkdir(parents=True)
        out[key] = run_in(folder, club.url, *args)
    return out


# ------------------------------------------------------------------------------ score sheet


def test_match_scoresheet_is_written_under_its_default_name(printed: dict[str, Printed]) -> None:
    p = printed["match"]
    assert p.code == 0, p.err
    assert list(p.files) == ["scoresheet-match-1.pdf"]
    assert p.out == "Wrote scoresheet-match-1.pdf\n"
    assert page_size(p.pdf) == A4


def test_match_scoresheet_fills_in_the_deals_played_and_the_running_score(
    printed: dict[str, Printed],
) -> None:
    text = printed["match"].text
    assert "Player A Greta Huber Player B Franz Leitner" in text
    assert "Rules sixty-six" in text and "Match 1, to 7 game points" in text
    rows = {int(m.group(1)): m.group(2) for m in re.finditer(r"^(\d+) ?(.*)$", text, re.M)}
    assert rows[1] == "Greta Huber 3 3 0"  # the revoke: Greta 3
    assert rows[2] == "Franz Leitner draw 1 3 0"  # drawn, 1 carried to deal 3
    assert rows[3] == "Greta Huber 4 = 3 + 1 carried 3 4"
    assert rows[4] == "Franz Leitner 1 4 4"  # entered as a result
    assert rows[5] == "Greta Huber"  # being played: only its dealer
    assert all(rows[n] == "" for n in range(6, 19))  # room for 7 game points each way
    assert 19 not in rows


def test_finished_match_names_its_winner_and_prints_on_letter(printed: dict[str, Printed]) -> None:
    p = printed["finished"]
    assert list(p.files) == ["scoresheet-match-2.pdf"]
    assert page_size(p.pdf) == LETTER
    text = p.text
    assert "Rules schnapsen" in text
    assert re.search(r"^3 Mia 1 0 7$", text, re.M)
    assert re.search(r"^Winner\nHans$", text, re.M)


def test_fresh_match_has_its_first_dealer_on_row_one_and_goes_where_asked(
    printed: dict[str, Printed],
) -> None:
    p = printed["fresh"]
    assert list(p.files) == ["sheets/table-3.pdf"]
    assert p.out == "Wrote sheets/table-3.pdf\n"
    assert re.search(rf"^1 {re.escape(HOSTILE)}$", p.text, re.M)


def test_a_name_with_markup_prints_as_literal_text(printed: dict[str, Printed]) -> None:
    text = printed["fresh"].text
    assert f"Player A {HOSTILE} Player B Anna Berger" in text
    assert f"Signature {HOSTILE}" in text


def test_blank_form_names_nobody(printed: dict[str, Printed]) -> None:
    p = printed["blank"]
    assert list(p.files) == ["scoresheet-blank.pdf"]
    text = p.text
    for name in ("Greta", "Franz", "Mia", "Hans", "Anna", HOSTILE):
        assert name not in text
    assert "Player A Player B" in text and "One match to 7 game points" in text
    assert re.search(r"^18$", text, re.M) and not re.search(r"^19$", text, re.M)
    assert page_size(p.pdf) == A4


def test_blank_form_for_rules_has_room_for_their_target(printed: dict[str, Printed]) -> None:
    p = printed["blank11"]
    text = p.text
    assert page_size(p.pdf) == LETTER
    assert "Rules schnapsen match_target=11" in text
    assert "One match to 11 game points" in text
    assert re.search(r"^26$", text, re.M) and not re.search(r"^27$", text, re.M)


# ------------------------------------------------------------------------------ ruling


def test_ruling_sheet_rules_on_a_revoke_and_quotes_the_rules(printed: dict[str, Printed]) -> None:
    p = printed["revoke"]
    assert list(p.files) == ["ruling-deal-1.1.pdf"] and p.out == "Wrote ruling-deal-1.1.pdf\n"
    pages = pages_text(p.pdf)
    assert len(pages) == 1, "an eleven-trick ruling fits one A4 page"
    text, flat = pages[0], squash(pages[0])
    assert "Gasthaus Krone club night" in text  # the record's Event tag
    assert "Ruling: Greta Huber wins the deal and scores 3 game points." in text
    assert (
        squash(
            "Reason: Franz Leitner broke a rule (follow suit) in trick 7: Franz Leitner "
            "played JD to 10C while holding JC."
        )
        in flat
    )
    assert squash("illegal play: “" + REASON_TEXT["illegal-play"]) in flat
    assert "follow suit (trick 7, Franz Leitner)" in text
    assert squash("“" + VIOLATION_TEXT["follow-suit"] + "”") in flat
    assert (
        squash("Players' agreed result: Greta Huber wins 3 game points — matches the ruling.")
        in flat
    )
    for tag in (
        "Date 2026-11-26",
        "Table 1",
        "Dealer Greta Huber",
        "Turn-up Q♠",
        "Trumps ♠ spades",
        "Deal match 1, deal 1",
    ):
        assert tag in text


def test_ruling_sheet_lists_every_trick_with_its_cards_winner_and_points(
    printed: dict[str, Printed],
) -> None:
    text = printed["revoke"].text
    assert "1 Franz Leitner 10♠ 10♦ Franz Leitner 0 20" in text
    assert "7 Greta Huber 10♣ J♦ Greta Huber Franz Leitner broke follow suit 27 42" in text
    # Greta leads AD, Franz trumps with the QS and claims (too late: the revoke decided).
    assert "11 Greta Huber A♦ Q♠ Franz Leitner Franz Leitner: claims 66 47 67" in text
    assert len(re.findall(r"^\d+ (Greta Huber|Franz Leitner) ", text, re.M)) == 11


def test_ruling_sheet_shows_exchange_marriage_claim_and_a_wrong_agreed_result(
    printed: dict[str, Printed],
) -> None:
    p = printed["carried"]
    assert page_size(p.pdf) == LETTER
    text, flat = p.text, squash(p.text)
    assert "Ruling: Franz Leitner wins the deal and scores 4 game points." in text
    assert "Carry 1 game point carried in" in text
    assert (
        squash(
            "2 Franz Leitner Q♦ K♣ Franz Leitner Franz Leitner: exchange 9♦ for Q♦ "
            "Franz Leitner: marriage 40 K♦ Q♦ 0 59"
        )
        in flat
    )
    assert "4 Franz Leitner – – no trick Franz Leitner: claims 66 0 79" in text
    assert squash("claim: “" + REASON_TEXT["claim"] + "”") in flat
    assert "Rule violations: none." in text
    assert (
        squash(
            "The players' agreed result (Franz Leitner wins 3 game points) does NOT "
            "match the ruling."
        )
        in flat
    )
    assert squash("does not match the ruling (Franz Leitner wins 4 game points)") in flat


def test_ruling_sheet_of_a_drawn_deal(printed: dict[str, Printed]) -> None:
    p = printed["drawn"]
    assert list(p.files) == ["ruling-deal-1.2.pdf"]  # asked for by its id, 2
    text, flat = p.text, squash(p.text)
    assert "Ruling: the deal is drawn; no game points are scored." in text
    assert squash("draw: “" + REASON_TEXT["draw"] + "”") in flat
    assert "3 Greta Huber J♦ A♦ Franz Leitner Greta Huber: exchange 9♥ for Q♥" in text
    assert squash("nobody scores — matches the ruling.") in flat


# ------------------------------------------------------------------------------ sheet data


def test_a_schnapsen_exchange_shows_the_trump_jack_and_the_turn_up() -> None:
    from tally.engine.notation import read_deal
    from tally.sheets import Declaration
    from tally.sheets.build import record_ruling_sheet

    text = (ROOT / "tests/data/conformance/schnapsen/0003.deal").read_text()
    sheet = record_ruling_sheet(read_deal(text))
    assert sheet.players == ("Bert", "Josef") and sheet.event == ""
    assert sheet.tricks[1].declarations == (Declaration("exchange", "Bert", ("JC", "AC")),)
    assert sheet.tricks[2].declarations == (Declaration("close", "Bert"),)
    assert sheet.ruling.rule_text.startswith(REASON_TEXT[sheet.ruling.rule][:40])


def test_every_finished_conformance_record_makes_a_ruling_sheet() -> None:
    from tally.engine.notation import read_deal
    from tally.engine.ruling import rule
    from tally.errors import NotationError, Refused
    from tally.sheets.build import record_ruling_sheet
    from tests.conftest import CONFORMANCE, PRESET_DIRS

    made = 0
    for path in sorted(p for d in PRESET_DIRS for p in (CONFORMANCE / d).glob("*.deal")):
        try:
            record = read_deal(path.read_text(), source=path.name)
        except NotationError:  # record-error cases that do not even read
            continue
        ruling = rule(record)
        if ruling.errors or ruling.outcome is None or ruling.outcome.reason == "incomplete":
            with pytest.raises(Refused):
                record_ruling_sheet(record)
            continue
        sheet = record_ruling_sheet(record)
        assert len(sheet.tricks) == len(record.tricks), path
        assert sheet.ruling.winner == ruling.outcome.winner, path
        assert sheet.ruling.rule == ruling.outcome.reason and sheet.ruling.rule_text, path
        assert [v.rule for v in sheet.ruling.violations] == [v.rule for v in ruling.violations]
        made += 1
    assert made >= 50


def test_an_unfinished_record_has_no_ruling_sheet() -> None:
    from tally.engine.notation import read_deal
    from tally.errors import Refused
    from tally.sheets.build import record_ruling_sheet

    text = (EXAMPLES / "unfinished-deal.deal").read_text()
    with pytest.raises(Refused, match="is not finished"):
        record_ruling_sheet(read_deal(text, source="unfinished-deal.deal"))


# ------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("scoresheet", "99"), "there is no match 99"),
        (("ruling", "9.9"), "match 9 has no deal 9"),
        (("ruling", "999"), "there is no deal 999"),
        (("ruling", "1.4"), "deal 1.4 was entered as a result (quick entry): it has no record"),
        (("ruling", "1.5"), "deal 1.5 is still being played: there is no ruling to print yet"),
        (("scoresheet",), "give a match number, or --blank for an empty form"),
        (("scoresheet", "1", "--blank"), "give a match number or --blank, not both"),
        (("scoresheet", "1", "--rules", "schnapsen"), "--rules is for a blank form"),
        (("scoresheet", "--blank", "--rules", "bogus"), 'unknown preset "bogus"'),
        (("scoresheet", "1", "-o", "missing/x.pdf"), "there is no folder 'missing'"),
        (("ruling", "1.1", "-o", "missing/x.pdf"), "there is no folder 'missing'"),
    ],
)
def test_refusals_exit_2_with_a_reason_and_write_nothing(
    club: Club, args: tuple[str, ...], message: str
) -> None:
    p = club.run("print", *args)
    assert p.code == 2, p.out + p.err
    assert p.err.startswith("tally: ") and message in p.err, p.err
    assert "Traceback" not in p.out + p.err
    assert p.files == {}


def test_an_unknown_paper_is_a_usage_error(club: Club) -> None:
    p = club.run("print", "scoresheet", "--blank", "--paper", "A5")
    assert p.code == 2 and "--paper" in p.err and p.files == {}


# ------------------------------------------------------------------------------ startup


# a real process; in the inner loop: tests/test_import_structure.py's
# test_the_command_line_starts_without_the_database_renderer_or_pdf_libraries
@pytest.mark.slow
def test_the_command_line_loads_no_renderer_or_database_until_a_sheet_is_printed() -> None:
    code = (
        "import sys, tally.cli; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'weasyprint', 'jinja2', 'sqlalchemy', 'pypdf'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "[]"


def test_print_help_lists_both_sheets(runner: Any) -> None:
    result = runner.invoke(app, ["print", "--help"])
    assert result.exit_code == 0
    assert "scoresheet" in result.stdout and "ruling" in result.stdout
