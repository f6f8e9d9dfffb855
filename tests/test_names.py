"""The one resolver of player references (tally.names): properties over generated clubs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tally.errors import Refused
from tally.names import AmbiguousName, Candidate, UnknownName, check_text, fold, matches, resolve

WORDS = st.text(alphabet="aäbeéjkoöruüzß", min_size=1, max_size=6)
NAMES = st.lists(WORDS, min_size=1, max_size=3).map(lambda ws: " ".join(w.title() for w in ws))


def club_of(names: list[str]) -> list[Candidate]:
    seen: dict[str, Candidate] = {}
    for name in names:
        seen.setdefault(fold(name), Candidate(len(seen) + 1, name))
    return list(seen.values())


@settings(max_examples=150, deadline=None)
@given(st.lists(NAMES, min_size=1, max_size=8))
def test_every_player_is_found_by_name_number_and_name_without_accents(names: list[str]) -> None:
    club = club_of(names)
    for c in club:
        assert resolve(c.name, club) == c
        assert resolve(c.name.upper(), club) == c
        assert resolve(fold(c.name), club) == c
        assert resolve(f"#{c.id}", club) == c and resolve(str(c.id), club) == c


@settings(max_examples=150, deadline=None)
@given(st.lists(NAMES, min_size=1, max_size=8), st.integers(1, 6))
def test_a_prefix_that_fits_one_player_finds_them_and_one_that_fits_several_lists_them(
    names: list[str], length: int
) -> None:
    club = club_of(names)
    for c in club:
        prefix = fold(c.name)[:length].strip()
        if not prefix:
            continue
        fitting = [d for d in club if fold(d.name).startswith(prefix)]
        found = matches(prefix, club)
        assert c in fitting
        if len(fitting) == 1:
            assert resolve(prefix, club) == c
        elif len(found) > 1:
            with pytest.raises(AmbiguousName) as info:
                resolve(prefix, club)
            assert set(info.value.candidates) <= set(fitting)


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=30), st.lists(NAMES, max_size=5))
def test_any_text_finds_a_player_or_says_why_not(text: str, names: list[str]) -> None:
    try:
        found = resolve(text, club_of(names))
    except (UnknownName, AmbiguousName) as exc:
        assert "\n" not in str(exc)
    else:
        assert found in club_of(names)


@pytest.mark.parametrize(
    "name",
    [
        "Anna\u202eregreB",
        "An\u200bna Berger",
        "Anna\u2066 Berger",
        "Ann\u00ada",
        "\ufeffAnna",
        "\ud800",
        "Anna \udce9",
    ],
)
def test_a_name_that_could_pass_for_another_is_refused_with_what_is_wrong(name: str) -> None:
    """Invisible formatting characters (right-to-left override, zero-width space, isolates,
    soft hyphen, BOM) and lone surrogates are refused with a one-line reason, never a crash."""
    with pytest.raises(Refused) as refused:
        check_text(name, "name")
    assert "\n" not in str(refused.value) and str(refused.value).startswith('name "')


def test_adding_a_look_alike_player_stores_nothing(tmp_path: Path) -> None:
    from tally.store import open_store

    with open_store(f"sqlite:///{tmp_path / 't.db'}") as store:
        store.players.add("Anna Berger")
        for name in ("Anna Berger\u200b", "\u202eAnna Berger", "\ud800"):
            with pytest.raises(Refused):
                store.players.add(name)
        assert [p.name for p in store.players.all()] == ["Anna Berger"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_name_or_refused_with_a_short_reason(text: str) -> None:
    """Whatever a guest types, the one name reader answers: accepted, or refused in one line
    quoting at most about a hundred characters of it (never another error)."""
    try:
        check_text(text, "name")
    except Refused as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400


@settings(max_examples=200, deadline=None)
@given(NAMES)
def test_a_latin_name_looks_like_itself_written_with_cyrillic_look_alikes(name: str) -> None:
    from tally.names import lookalike, skeleton

    swapped = name.translate(str.maketrans("aeopcxyABEKMHOPCTX", "аеорсхуАВЕКМНОРСТХ"))
    assert skeleton(swapped) == skeleton(name)
    if swapped != name:
        assert lookalike(swapped, [Candidate(1, name)]) == (Candidate(1, name), name)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**12), st.integers(0, 99))
def test_a_number_read_is_the_number_written(whole: int, cents: int) -> None:
    from decimal import Decimal

    from tally.names import read_number

    assert read_number(str(whole)) == whole
    for mark in (".", ","):
        assert read_number(f"{whole}{mark}{cents:02d}", places=2) == Decimal(f"{whole}.{cents:02d}")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_any_text_is_a_number_of_ascii_digits_or_none(text: str) -> None:
    from tally.names import read_number

    found = read_number(text, places=2)
    assert found is None or (found.is_finite() and found >= 0 and text.isascii())
