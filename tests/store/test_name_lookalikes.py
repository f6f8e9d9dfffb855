"""Names a guest could make look like another (Unicode TR39, issue 36): letters of two scripts
in one name, characters that show as nothing, styled letters, and a new name that looks
like a player's already there. Refused where a name enters: a player, an alias, a rename,
an event, a series; from the store, the command line and the director's pages."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import Refused
from tests.store_support import ok, refused

#: names the first round of attacks got stored (issue 36): look-alike letters of other scripts,
#: mathematical bold, invisible fillers, a right-to-left override and a zero-width space
HOSTILE_NAMES = {
    "cyrillic a": "\u0410nna Berger",
    "greek omicron": "B\u03bfb Huber",
    "cyrillic e in a surname": "Anna B\u0435rger",
    "mathematical bold": "\U0001d400nna Berger",
    "fullwidth": "\uff21nna Berger",
    "hangul filler": "Anna\u3164Berger",
    "hangul choseong filler": "\u115fAnna Berger",
    "braille blank": "Anna Berger\u2800",
    "combining grapheme joiner": "An\u034fna Berger",
    "zero-width space": "Anna\u200b Berger",
    "right-to-left override": "Anna \u202eregreB",
    "piled accents": "Anna Be\u0301\u0301rger",
}


@pytest.mark.parametrize("name", HOSTILE_NAMES.values(), ids=HOSTILE_NAMES.keys())
def test_a_name_that_could_pass_for_another_is_refused_everywhere_a_name_enters(
    store: Any, name: str
) -> None:
    store.players.add("Dora Wimmer")
    night = store.events.create("Thursday club", kind="club").id
    for enter in (
        lambda: store.players.add(name),
        lambda: store.players.add_alias("Dora Wimmer", name),
        lambda: store.players.rename("Dora Wimmer", name),
        lambda: store.events.create(name, kind="club"),
        lambda: store.series.create(name, events=[night], points=[3, 2, 1]),
    ):
        with pytest.raises(Refused):
            enter()
    assert [p.name for p in store.players.all()] == ["Dora Wimmer"]
    assert len(store.events.all()) == 1 and store.series.all() == []


@pytest.mark.parametrize(
    ("there", "new"),
    [
        ("Pepa Cox", "\u0420\u0435\u0440\u0430 \u0421\u043e\u0445"),  # all Cyrillic letters
        ("Anna BergerI", "Anna Bergerl"),  # capital I, small l
        ("Otto Moser", "0tto Moser"),  # zero
        ("Emma Wimmer", "Ernrna Wirnrner"),  # r n for m
    ],
)
def test_a_new_name_that_looks_like_a_players_asks_whether_it_is_the_same_person(
    store: Any, there: str, new: str
) -> None:
    first = store.players.add(there)
    with pytest.raises(Refused, match=rf"looks like {there} \(#{first.id}\): same person\?"):
        store.players.add(new)
    other = store.players.add("Karl Huber")
    with pytest.raises(Refused, match="same person"):
        store.players.rename("Karl Huber", new)
    with pytest.raises(Refused, match="same person"):
        store.players.add_alias("Karl Huber", new)
    assert [p.name for p in store.players.all()] == sorted([there, other.name])


def test_a_lookalike_of_an_alias_is_refused_too(store: Any) -> None:
    store.players.add("Leopold Roth")
    store.players.add_alias("Leopold Roth", "Poldi")
    with pytest.raises(Refused, match=r'Leopold Roth \(#1\), who goes by "Poldi"'):
        store.players.add("PoIdi")  # a capital I for the small l


def test_names_in_one_script_of_any_kind_are_welcome(store: Any) -> None:
    for name in (
        "\u0395\u03bb\u03ad\u03bd\u03b7 \u03a0\u03b1\u03c0\u03c0\u03ac",
        "\u041e\u043b\u044c\u0433\u0430 \u0418\u0432\u0430\u043d\u043e\u0432\u0430",
        "J\u00fcrgen O\u2019Brien-Stra\u00dfe",
        "\u5c71\u7530 Taro",
        "Zo\u00eb \u0106iri\u0107",
    ):
        assert store.players.add(name).name == name


def test_the_command_line_refuses_an_invisible_filler_in_a_players_name(db_url: str) -> None:
    ok(db_url, "player", "add", "Dora Wimmer")
    refused(db_url, "player", "add", "Anna\u3164Berger", match="U+3164 is an invisible")
    refused(db_url, "event", "create", "Cup\u200b", match="U+200B is an invisible")


def test_an_event_folder_naming_a_player_with_an_invisible_filler_is_not_loaded(
    db_url: str, tmp_path: Any
) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "event.toml").write_text(
        'name = "Thursday"\nkind = "club-evening"\nrules = "sixty-six"\n'
        'players = ["Anna Berger", "Bert\u3164Huber"]\n',
        encoding="utf-8",
    )
    ok(db_url, "player", "add", "Dora Wimmer")
    refused(db_url, "load", str(folder), match="U+3164 is an invisible")
