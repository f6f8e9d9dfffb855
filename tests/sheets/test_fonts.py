"""The fonts a sheet embeds, and what printing asks of the machine (issue 8 point 11, issue 13).

tally ships DejaVu Sans reduced in advance to the characters it prints
(``templates/fonts/reduce.py``) and embeds it whole, so printing needs no HarfBuzz-Subset library
and logs no warning without it; importing WeasyPrint starts no ``ldconfig``/``gcc``/``ld``.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from datetime import date, datetime
from pathlib import Path

import pypdf
import pytest

from tally.sheets import StandingRow, StandingsSheet
from tally.sheets.render import html_to_pdf, render_standings, templates_dir
from tests.pdf_support import pages_text, squash

ROOT = Path(__file__).resolve().parents[2]
FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
#: Names from across Europe, in Latin (with Latin-1, Extended-A and -B letters), Greek and
#: Cyrillic.
NAMES = [
    "Zoë Ångström",
    "Łukasz Żółć",
    "Őrs Çelik-Şahin",
    "Ștefan Țurcanu",
    "Jiří Dvořák",
    "Ærøy Ðórsson",
    "Δήμητρα Παππά",
    "Ольга Петрова",
    "Ǉubica Ǆokić",
    "Sören Weiß",
]
SUITS = "♠♥♦♣"


def _font_files(pdf: bytes) -> list[bytes]:
    """The font programs embedded in a PDF."""
    out = []
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            for descendant in font["/DescendantFonts"]:
                out.append(descendant.get_object()["/FontDescriptor"]["/FontFile2"].get_data())
    return out


@pytest.fixture(scope="module")
def names_pdf() -> bytes:
    rows = tuple(
        StandingRow(
            rank=i + 1,
            player=name,
            played=1,
            won=1,
            lost=0,
            match_points=1,
            game_points_won=7,
            game_points_conceded=3,
            schneider_wins=0,
            schwarz_wins=0,
            tiebreaks=(),
        )
        for i, name in enumerate(NAMES)
    )
    sheet = StandingsSheet(
        event="Europa final office",
        date=date(2026, 11, 19),
        rule_set="sixty-six",
        printed_at=datetime(2026, 11, 19, 20, 0),
        rows=rows,
        tiebreaks=(),
        stage="",
    )
    return render_standings(sheet)


def test_shipped_fonts_cover_what_tally_prints() -> None:
    from fontTools.ttLib import TTFont

    printed = set("".join(NAMES) + SUITS + "\u2212\u2013\u2014\u201c\u201d\u2026×€")
    for template in templates_dir().glob("*.j2"):
        printed |= {c for c in template.read_text(encoding="utf-8") if ord(c) > 126}
    printed |= {chr(c) for c in range(0x20, 0x7F)} | {chr(c) for c in range(0xA0, 0x250)}
    for name in FONTS:
        font = TTFont(templates_dir() / "fonts" / name)
        missing = {c for c in printed if ord(c) not in font.getBestCmap()}
        assert not missing, (name, sorted(missing))
        features = {r.FeatureTag for r in font["GSUB"].table.FeatureList.FeatureRecord}
        assert not features & {"liga", "clig", "dlig"}, name  # one glyph per character


def test_shipped_fonts_are_reduced_by_the_script() -> None:
    # The unmodified DejaVu Sans files are about 740 KB each; the reduced ones a seventh of it.
    for name in FONTS:
        assert (templates_dir() / "fonts" / name).stat().st_size < 150_000, name
    assert (templates_dir() / "fonts" / "reduce.py").is_file()
    assert "reduced" in (templates_dir() / "fonts" / "LICENSE").read_text(encoding="utf-8")


def test_sheet_embeds_the_shipped_font_whole_without_subsetting_it(names_pdf: bytes) -> None:
    shipped = {(templates_dir() / "fonts" / name).read_bytes() for name in FONTS}
    embedded = _font_files(names_pdf)
    assert embedded and set(embedded) <= shipped


def test_names_with_accents_greek_and_cyrillic_extract_from_the_pdf(names_pdf: bytes) -> None:
    text = "\n".join(pages_text(names_pdf))
    for name in NAMES:
        assert name in text, name
    assert "Europa final office" in text  # no ligature glyph in the way of "fi", "ffi"


def test_suit_symbols_extract_from_the_pdf() -> None:
    pdf = html_to_pdf(
        '<link rel="stylesheet" href="tally.css"><p>10♥ K♠ 9♦ A♣ <b>Bold ♠♥♦♣ final</b></p>'
    )
    assert squash("10♥K♠9♦A♣Bold♠♥♦♣final") in squash(pages_text(pdf)[0])


def test_printing_in_a_fresh_process_starts_no_compiler_and_warns_nothing(tmp_path: Path) -> None:
    """Without libharfbuzz-subset0 WeasyPrint would warn and subset with fontTools; and its
    library look-ups would run ldconfig, gcc and ld about 68 times. Neither happens."""
    script = textwrap.dedent("""
        import logging, sys
        started = []
        sys.addaudithook(lambda e, a: started.append(a[0]) if e == "subprocess.Popen" else None)
        logging.basicConfig(level=logging.WARNING)
        from tally.sheets.render import html_to_pdf
        pdf = html_to_pdf('<link rel="stylesheet" href="tally.css"><p>Zoë ♥ final</p>')
        assert pdf.startswith(b"%PDF-")
        print("processes", len(started), started[:3])
    """)
    temp = tmp_path / "temp"
    temp.mkdir()
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(temp)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "processes 0 []"
    assert done.stderr == ""
    # the fonts' temporary folder (kept for the process, tally.sheets.render._house_style)
    # is gone at exit
    assert list(temp.iterdir()) == []
