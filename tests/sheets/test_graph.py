"""The deal's value graph (:mod:`tally.sheets.graph`): the names beside it never run into
its values, however long."""

from __future__ import annotations

import re

from tally.analysis.marks import Mark
from tally.sheets.graph import NAME_CHARS, WIDTH, value_graph


def _texts(svg: str) -> list[tuple[float, str]]:
    return [(float(x), t) for x, t in re.findall(r'<text x="([\d.]+)"[^>]*>([^<]*)</text>', svg)]


def test_long_names_are_cut_and_the_values_stand_on_the_other_side() -> None:
    marks = [Mark(1, "Maximilian Obermoser-Huber", "no-close", "no close", 1, 1, 1)]
    svg = value_graph(marks, ("Maximilian Obermoser-Huber", "Anna Berger"), "value")
    texts = _texts(svg)
    left = [t for x, t in texts if x < 10]
    assert left == ["Maximilian …", "Anna Berger"]
    assert all(len(t) <= NAME_CHARS + 1 for t in left)
    values = [t for x, t in texts if x > WIDTH - 30]
    assert values == ["+3", "+2", "+1", "0", "-1", "-2", "-3"]
    # the whole name is still in the point's tooltip
    assert "Maximilian Obermoser-Huber no close" in svg


def test_a_points_tooltip_is_worded_in_the_language_of_the_page() -> None:
    from tally.i18n import use

    marks = [Mark(2, "Dora", "no-close", "no close", 1, 0.5, 1)]
    with use("de"):
        svg = value_graph(marks, ("Dora", "Emil"), "Wert")
    assert "<title>2. Dora kein Zudrehen (+1 → +0,5)</title>" in svg
    assert "no close" not in svg
