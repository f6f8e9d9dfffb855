"""Publishing near live: the site written again whenever the store changes.

The store's change number (its newest audit entry: every change writes one) is read every
``every`` seconds, one small query; when it moved, the site is made again and only the
files whose bytes changed are written (:func:`tally.publish.writing.write_site`), so a
folder sync or an upload moves the pages a result changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tally.publish.pages import site_pages
from tally.publish.site import version
from tally.publish.writing import Written, write_site

if TYPE_CHECKING:
    from tally.store.store import Store

#: how often the store's change number is read, in seconds
EVERY = 1.0


def publish(
    store: Store, out: Path, refs: Sequence[str] = (), *, lang: str = "en", analyse: bool = False
) -> Written:
    """Write the site of ``refs`` (every event and series when empty) under ``out``."""
    return write_site(out, site_pages(store, refs, lang=lang, analyse=analyse))


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
    """Publish now, then again each time the store changes, until ``until()`` says so (or
    the process is stopped); ``told`` hears what each publishing wrote."""
    seen: int | None = None
    while not until():
        now = version(store)
        if now != seen:
            told(publish(store, out, refs, lang=lang, analyse=analyse))
            seen = now
        time.sleep(every)
