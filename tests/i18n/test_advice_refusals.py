"""Refusals whose advice is made as such where they are raised (``tally.errors.Advice``): on a
German laptop the command line says them in German, the command to type kept as typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.i18n.german_support import refusal_in_german

CASES = [
    # (the command, the German words it must say, the names typed)
    (
        ("series", "standings", "Winter"),
        "es gibt keine Serie „Winter“ (siehe `tally series list`)",
        [],
    ),
    (("event", "show", "Nope"), "es gibt kein Turnier", ["Nope"]),
    (("player", "show", "Zacharias"), "es gibt keinen Spieler „Zacharias“", ["Zacharias"]),
    (
        ("player", "rename", "Bert Huber", "Anna Berger"),
        "um beide zu einem zu machen: `tally player merge`",
        ["Anna Berger", "Bert Huber"],
    ),
    (
        ("event", "create", "Cup", "Anna Berger", "Bert Huber", "--kind", "groups"),
        "Gruppen, dann K.-o. braucht --groups G und --advance K",
        ["Cup", "Anna Berger", "Bert Huber"],
    ),
    (
        ("event", "create", "Cup", "Anna Berger", "Bert Huber", "--kind", "swiss"),
        "ihre Anzahl angeben (--rounds N)",
        ["Cup", "Anna Berger", "Bert Huber", "--rounds N"],  # (an option is typed as it is)
    ),
]


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tally.store import open_store

    root: Path = tmp_path_factory.mktemp("advice")
    url = f"sqlite:///{root / 'club.db'}"
    store = open_store(url, scorer="tester")
    try:
        store.players.add("Anna Berger")
        store.players.add("Bert Huber")
    finally:
        store.close()
    yield url


@pytest.mark.parametrize(("args", "said", "names"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_a_refusal_with_advice_is_german_on_a_german_laptop(
    url: str, args: tuple[str, ...], said: str, names: list[str]
) -> None:
    assert said in refusal_in_german(url, *args, names=names)
