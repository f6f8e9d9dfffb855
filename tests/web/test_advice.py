"""A refusal that advises the command line (a command to type, an option) says the pages' own
words on a page, in the page's language: the advice is made as such where the refusal is
raised (``tally.errors.Advice``), never found again in the English text."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.i18n.german_support import english_words
from tests.web.test_director import _alert, desk  # noqa: F401 (a fixture)

pytest.importorskip("starlette")


@pytest.mark.parametrize(
    ("lang", "fields", "said", "unsaid"),
    [
        ("en", {"kind": "groups"}, ['"Groups"', '"Going through"'], ["--"]),
        ("de", {"kind": "groups"}, ['"Gruppen"', '"Aufsteiger"'], ["--", "Groups", "needs"]),
        ("de", {"kind": "swiss"}, ['das Feld "Runden"'], ["--rounds", "the field"]),
        (
            "de",
            {"kind": "groups", "bye": "win", "groups": "1", "advance": "2"},
            ['das Feld "Freilos": keiner'],
            ["--bye", "A bye"],
        ),
    ],
)
def test_an_option_a_refusal_names_is_the_form_field_in_the_page_language(
    desk: Any,  # noqa: F811
    lang: str,
    fields: dict[str, str],
    said: list[str],
    unsaid: list[str],
) -> None:
    res = desk.post(f"/director/new?lang={lang}", name="Cup", players="Anna B\nbert", **fields)
    shown = _alert(res).replace("&#34;", '"').replace("&quot;", '"')
    assert res.status_code == 400
    for words in said:
        assert words in shown, shown
    for words in unsaid:
        assert words not in shown, shown
    if lang == "de":
        assert english_words(shown, ["Cup"]) == [], shown


def test_a_command_a_refusal_advises_is_where_to_do_it_on_the_pages(desk: Any) -> None:  # noqa: F811
    from tally.errors import NotFound, Refused
    from tally.web.app import refusal

    store = desk.store
    with pytest.raises(Refused) as refused:
        store.players.rename("Jogi", "Anna Berger")
    assert str(refused.value).endswith("to make them one, use `tally player merge`")
    english, german = refusal(refused.value, "en"), refusal(refused.value, "de")
    assert english.endswith("to make them one, ask the club's scorer to merge the two players")
    assert "den Schreiber des Klubs bitten, die beiden Spieler zusammenzuführen" in german
    assert "`" not in english + german and english_words(german, ["Anna Berger"]) == []
    with pytest.raises(NotFound) as unknown:
        store.series.get("Winter")
    assert "`tally series list`" in str(unknown.value)
    assert re.fullmatch(r"es gibt keine Serie „Winter“", refusal(unknown.value, "de"))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Dora Wimmer is not one of the two players"),
        ("de", "Dora Wimmer ist keiner der beiden Spieler"),
    ],
)
def test_a_first_dealer_who_does_not_play_is_named_by_the_form_field(
    desk: Any,  # noqa: F811
    lang: str,
    said: str,
) -> None:
    players = ["Anna Berger", "Bert Huber", "Dora Wimmer"]
    ev = desk.store.events.create("Thursday", players=players)
    res = desk.post(
        f"/director/event/{ev.id}/match?lang={lang}",
        a="Anna Berger",
        b="Bert Huber",
        dealer="Dora Wimmer",
    )
    shown = res.text.replace("&#34;", '"').replace("&quot;", '"')
    assert res.status_code in (400, 409) and said in shown, shown[-3000:]
    assert '<select name="dealer" aria-invalid="true"' in shown  # the field at fault
    assert "--dealer" not in shown
