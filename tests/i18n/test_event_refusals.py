"""The store's refusals about events speak German on a German laptop: creating an event with a
setting it does not take, a round it does not have or cannot pair yet, a player twice, a
season that ends before it begins (each refusal of tally/store/events.py, run through the
command line under LANG=de_AT.UTF-8)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.i18n.german_support import refusal_in_german


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A club with four players, a club evening (1), a round robin of two (2), a Swiss event
    of four with round 1 started (3) and a club evening of one player (4); Dora has withdrawn
    from the Swiss event."""
    from tally.store import open_store

    path: Path = tmp_path_factory.mktemp("refusals") / "tally.db"
    store = open_store(f"sqlite:///{path}", scorer="test")
    for name in ("Anna", "Bert", "Carl", "Dora"):
        store.players.add(name)
    store.events.create("Klubabend", players=["Anna", "Bert"])
    store.events.create("Meisterschaft", kind="round-robin", players=["Anna", "Bert"])
    swiss = store.events.create(
        "Open", kind="swiss", rounds=3, players=["Anna", "Bert", "Carl", "Dora"]
    )
    store.events.start_round(swiss.id, 1)
    store.events.withdraw(swiss.id, "Dora")
    store.events.create("Allein", players=["Anna"])
    store.close()
    yield f"sqlite:///{path}"


CREATE = ("event", "create", "Herbst", "Anna", "Bert")

#: (what is refused, the command, what a person typed that may stay as typed)
CASES = [
    ("match points per win out of range", (*CREATE, "--points-per-win", "5000"), ()),
    ("an unknown bye rule", (*CREATE, "--bye", "oft"), ()),
    ("an unknown withdrawal rule", (*CREATE, "--withdrawal", "weg"), ()),
    ("an unknown language", (*CREATE, "--lang", "fr"), ()),
    ("an unknown ranking", (*CREATE, "--rank-by", "glueck"), ()),
    ("an unknown kind", (*CREATE, "--kind", "liga"), ("round-robin",)),
    ("the progressive score at a club", (*CREATE, "--tiebreaks", "progressive"), ()),
    ("a virtual opponent at a club", (*CREATE, "--unplayed", "virtual-opponent"), ()),
    ("an unknown rule for unplayed rounds", (*CREATE, "--unplayed", "egal"), ()),
    ("seeding by rating at a club", (*CREATE, "--seed-by", "rating"), ("club",)),
    ("an unknown seeding", (*CREATE, "--kind", "swiss", "--rounds", "3", "--seed-by", "los"), ()),
    ("an unknown absence score", (*CREATE, "--absence-score", "alles"), ()),
    ("too many matches", (*CREATE, "--kind", "round-robin", "--matches", "30"), ()),
    ("a player twice", ("event", "create", "Herbst", "Anna", "Anna"), ("Anna",)),
    ("a name too long", ("event", "create", "x" * 120), ("x" * 20,)),
    ("a club evening's round", ("event", "round", "1", "1", "--start"), ("Klubabend",)),
    ("a round robin's round 9", ("event", "round", "2", "9"), ("Meisterschaft",)),
    ("a Swiss round before the last", ("event", "round", "3", "2", "--start"), ("Open",)),
    ("a Swiss round 7", ("event", "round", "3", "7"), ("Open",)),
    ("a player added twice", ("event", "add", "3", "Anna"), ("Anna",)),
    ("a withdrawal twice", ("event", "withdraw", "3", "Dora"), ("Dora",)),
    ("a withdrawal of a stranger", ("event", "withdraw", "1", "Carl"), ("Carl", "Klubabend")),
    ("a club evening's rounds", ("event", "round", "1"), ("Klubabend",)),
    ("a cross-table of one", ("event", "cross", "4"), ("Allein",)),
    (
        "a season that ends before it begins",
        ("standings", "--season", "--from", "2026-12-01", "--to", "2026-01-01"),
        (),
    ),
]


@pytest.mark.parametrize(("what", "args", "typed"), CASES, ids=[c[0] for c in CASES])
def test_the_stores_event_refusals_speak_german(
    url: str, what: str, args: tuple[str, ...], typed: tuple[str, ...]
) -> None:
    refusal_in_german(url, *args, names=typed)
