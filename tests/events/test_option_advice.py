"""A refusal names a format's option from its record (``Option.advice``): the command line's
flag on the CLI, the form field's label on the director's pages, in the page's language."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import Refused, on_pages
from tally.events.formats import every_option
from tally.i18n import worded


@pytest.mark.parametrize(
    ("kind", "extra", "typed", "label"),
    [
        ("swiss", {"final_fill": "playoff"}, "--final-fill", "Endrunde wird aufgefüllt"),
        ("round-robin", {"best_of": 3}, "--best-of", "Bummerl je Paarung im K.-o.-Baum"),
        ("knockout", {"groups": 2}, "--groups", '"Gruppen"'),
    ],
)
def test_a_draw_option_a_format_does_not_take_is_its_form_field_on_the_pages(
    store: Any, kind: str, extra: dict[str, Any], typed: str, label: str
) -> None:
    for name in ("Anna", "Bert", "Carl", "Dora"):
        store.players.add(name)
    options: dict[str, Any] = {"rounds": 3} if kind == "swiss" else {}
    with pytest.raises(Refused) as refused:
        store.events.create(
            "Cup", kind=kind, players=["Anna", "Bert", "Carl", "Dora"], **options, **extra
        )
    assert str(refused.value).startswith(typed + ":")
    page = worded(on_pages(refused.value.wording), "de")
    assert label in page and "--" not in page, page


def test_every_option_a_refusal_names_says_its_flag_and_metavar_on_the_command_line() -> None:
    table = every_option()
    assert str(table["final_size"].advice(metavar=True)) == "--final N"
    assert str(table["groups"].advice(metavar=True)) == "--groups G"
    assert str(worded(table["rounds"].advice(metavar=True, field=True), "de")) == "--rounds N"
    page = on_pages(table["rounds"].advice(metavar=True, field=True))
    assert worded(page, "de") == 'das Feld "Runden"'
