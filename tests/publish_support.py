"""The published site of the bundled examples, for the tests of ``tally publish``: the
examples loaded with a series, the director's secrets made (a PIN, a login link, the signing
key, every table's secret), one player private, the site written in English and German."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tally.store import Store, open_store

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = [
    ROOT / "examples" / name for name in ("club-evening", "knockout", "round-robin", "swiss")
]
PIN = "97531864"
PRIVATE = "Bert Huber"


@dataclass
class Site:
    db: str
    english: Path
    german: Path
    secrets: list[str]


def load_examples(store: Store) -> None:
    """The bundled example events, and a series over two of them."""
    from tally.files.importing import load_paths

    load_paths(store, EXAMPLES)
    events = store.events.all()
    store.series.create("Club Cup", events=[events[0].id, events[-1].id], points=[10, 8, 6])


def director_secrets(store: Store) -> list[str]:
    """What only the director and the tables may know: the PIN, a login link, the signing
    key and every match's table secret."""
    from tally.web.access import new_login_link, server_keys, set_pin

    set_pin(store, PIN)
    keys = server_keys(store)
    found = [PIN, new_login_link(store), keys.key.hex()]
    found += [keys.table_secret(m.id) for m in store.matches.all()]
    return found


def make_site(where: Path) -> Site:
    """The site of the bundled examples under ``where``, with its database."""
    from tally.publish.watch import publish

    db = f"sqlite:///{where / 'club.db'}"
    with open_store(db, scorer="director") as store:
        load_examples(store)
        found = director_secrets(store)
        store.players.set_private(PRIVATE, True)
        publish(store, where / "en", lang="en")
        publish(store, where / "de", lang="de")
    return Site(db, where / "en", where / "de", found)


def make_analysed_site(where: Path) -> Site:
    """The site of the bundled club evening alone, published with the analysis (``--analyse``:
    each player's report), in English and German."""
    from tally.publish.watch import publish

    db = f"sqlite:///{where / 'club.db'}"
    with open_store(db, scorer="director") as store:
        load_examples(store)
        store.players.set_private(PRIVATE, True)
        club = next(e for e in store.events.all() if not e.format.has_rounds)
        publish(store, where / "en", [str(club.id)], lang="en", analyse=True)
        publish(store, where / "de", [str(club.id)], lang="de", analyse=True)
    return Site(db, where / "en", where / "de", [])
