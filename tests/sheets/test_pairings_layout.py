"""The pairings sheet of a 32-player round with long names, ratings, match points and the
QR codes of the director's print: no text drawn over other text (the match-point badge over
the rating, a long name into the next column). Read as a reader sees it: where each run of
text is drawn on the page (pypdf), each at least half an em a character wide."""

from __future__ import annotations

import io
import itertools
from datetime import UTC, datetime

from pypdf import PdfReader

from tally.sheets.data import PairingsSheet, PairingTable
from tally.sheets.render import render_pairings

FIRST = ["Bartholomäus", "Maria-Theresia", "Maximilian", "Leopoldine"]
LAST = ["Mühlbacher", "Schwarzenberger-Oberhollenzer", "Oberhollenzerschwarzenberger", "Wallnöfer"]
#: the QR code's size only matters here: a square of the width the director's print gives it
QR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>'


def long_names_round() -> bytes:
    names = [f"{FIRST[i % 4]} {LAST[(i // 4) % 4]}" for i in range(32)]
    tables = tuple(
        PairingTable(
            t + 1,
            names[2 * t],
            names[2 * t + 1],
            names[2 * t],
            qr=QR,
            expected=0.55,
            score_one=12.5,
            score_two=10.0,
            rating_one="1623.4",
            rating_two="1588.0",
        )
        for t in range(16)
    )
    sheet = PairingsSheet(
        "Preisschnapsen", 5, "schnapsen", datetime.now(UTC), tables, seeded_by_rating=True
    )
    return render_pairings(sheet)


def runs_by_line(pdf: bytes) -> list[list[tuple[float, float, str]]]:
    """Per page and line of text (the same baseline), each run's x, font size and text."""
    out = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        lines: dict[float, list[tuple[float, float, str]]] = {}

        def seen(
            text: str,
            cm: list[float],
            tm: list[float],
            font: object,
            size: float,
            lines: dict[float, list[tuple[float, float, str]]] = lines,
        ) -> None:
            if text.strip():
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                lines.setdefault(round(y), []).append((x, size * tm[0] * cm[0], text.strip()))

        page.extract_text(visitor_text=seen)
        out += [sorted(line) for line in lines.values()]
    return out


def test_no_text_of_a_32_player_round_with_long_names_runs_over_other_text() -> None:
    lines = runs_by_line(long_names_round())
    assert sum(1 for line in lines for x in line if x[2] == "12.5") == 16
    for line in lines:
        for (x, size, text), (after, _, next_text) in itertools.pairwise(line):
            assert after >= x + 0.5 * size * len(text), (text, next_text)
