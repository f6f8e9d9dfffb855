"""Publishing near live: the pages a change touches written again within seconds.

The store's change number (its newest audit entry: every change writes one) is read every
``every`` seconds, one small query. When it moved, the entries since say which events and
matches changed: the index and those pages (their players', their deals', their series')
are made and written at once; at the next quiet look the whole site is made again (a
finished match moves other players' places on the ratings list), and a change that names
no event or match (a player renamed or made private) makes the whole site at once. Only
the files whose bytes changed are written (:func:`tally.publish.writing.write_site`), so a
folder sync or an upload moves little.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tally.publish.pages import Changed, site_pages
from tally.publish.site import version
from tally.publish.writing import Written, write_site

if TYPE_CHECKING:
    from tally.store.store import Store

#: how often the store's change number is read, in seconds
EVERY = 0.5
#: the most audit entries read to tell what changed (more: the whole site is made)
SINCE = 500


def publish(
    store: Store,
    out: Path,
    refs: Sequence[str] = (),
    *,
    lang: str = "en",
    analyse: bool = False,
    only: Changed | None = None,
) -> Written:
    """Write the site of ``refs`` (every event and series when empty) under ``out``: the
    whole site, or the pages ``only`` those changes touch."""
    files = site_pages(store, refs, lang=lang, analyse=analyse, only=only)
    return write_site(out, files, whole=only is None)


def changed_since(store: Store, seen: int) -> Changed | None:
    """The events and matches changed after audit entry ``seen``; None when a change names
    neither (or there were too many to read): then anything may have changed."""
    entries = [e for e in store.audit.log(limit=SINCE) if e.id > seen]
    if not entries or (entries[0].id > seen + 1 and len(entries) == SINCE):
        return None
    if any(e.event_id is None and e.match_id is None for e in entries):
        return None
    events = frozenset(e.event_id for e in entries if e.event_id is not None)
    matches = frozenset(e.match_id for e in entries if e.match_id is not None)
    return Changed(events, matches)


def watch(
    store: Store,
    out: Path,
    refs: Sequence[str] = (),
    *,
    lang: str = "en",
    analyse: bool = False,
    every: float = EVERY,
    told: Callable[[Written], None] = lambda _: None,
    until: Callable[[], bool] = lambda: False,
) -> None:
    """Publish the whole site now, then the pages each change touches as it comes and the
    whole site again once the store is quiet, until ``until()`` says so (or the process is
    stopped); ``told`` hears what each publishing wrote."""
    seen = version(store)
    told(publish(store, out, refs, lang=lang, analyse=analyse))
    behind = False  # (only the pages of a change are written: the whole site is due)
    while not until():
        time.sleep(every)
        now = version(store)
        if now != seen:
            only = changed_since(store, seen)
            seen = now
            told(publish(store, out, refs, lang=lang, analyse=analyse, only=only))
            behind = only is not None
        elif behind:
            told(publish(store, out, refs, lang=lang, analyse=analyse))
            behind = False
