"""Public pages made once per change, however many screens ask for them: the wall, its live
part, the list of events.

A page is kept by a key that names what it shows (the event, the language) with the audit
log's newest entry number it was made at (every change writes one). Many viewers asking at
once for a page not made yet wait for the one making of it (single flight) instead of each
making it again; a page is made again at most once a second however often the tables tap
(:class:`SharedRenders`); and a viewer that already has the page is answered 304 from its
``ETag`` (:func:`tag_of`, :func:`unchanged`) without anything made or read but the version.

Everything here runs on the server's event loop: the making itself goes to the thread pool
(:func:`tally.web.app.blocking`), the waiting holds no thread.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from starlette.requests import Request

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: this process's mark in every ``ETag`` (a page made by another version of tally, before a
#: restart, is never taken for the same)
BOOT = secrets.token_hex(4)
#: how often a page is made again at most, in seconds, however often the tables tap
REMAKE_SECONDS = 1.0
#: what a public page tells the browser: keep it, but ask (with its ``ETag``) before using it
REVALIDATE = "no-cache"


class SharedRenders(Generic[K, V]):
    """The newest page of each key (at most ``size`` keys, the least recently used dropped
    first), made once for every viewer (single flight: viewers asking while it is being made
    wait for that making) and made again at most once every ``seconds``
    (:data:`REMAKE_SECONDS` unless given): a viewer asking for
    a newer version within ``seconds`` of the last making gets the page made then (the wall
    shows it at the next poll). A making that failed is not kept.

    >>> renders: SharedRenders[str, str] = SharedRenders(4, seconds=60)
    >>> made = []
    >>> async def make() -> str:
    ...     made.append(1)
    ...     await asyncio.sleep(0.01)
    ...     return f"page {len(made)}"
    >>> async def viewers(version: int) -> set[tuple[int, str]]:
    ...     asked = (renders.get("wall", version, make) for _ in range(20))
    ...     return set(await asyncio.gather(*asked))
    >>> asyncio.run(viewers(7)), asyncio.run(viewers(8)), len(made)
    ({(7, 'page 1')}, {(7, 'page 1')}, 1)
    """

    def __init__(self, size: int, seconds: float | None = None) -> None:
        self._size = size
        self._seconds = seconds
        self._latest: OrderedDict[K, tuple[int, float, asyncio.Future[V]]] = OrderedDict()

    async def get(self, key: K, version: int, make: Callable[[], Awaitable[V]]) -> tuple[int, V]:
        """The page of ``key`` and the version it shows: the one made for ``version`` (or
        within the last ``seconds``), being made (then awaited), or made now."""
        now = time.monotonic()
        latest = self._latest.get(key)
        if (
            latest is None
            or self._stale(latest[2])
            or (latest[0] < version and now - latest[1] >= self._gap())
        ):
            latest = (version, now, asyncio.ensure_future(make()))
            self._latest[key] = latest
            while len(self._latest) > self._size:
                self._latest.popitem(last=False)
        self._latest.move_to_end(key)
        # (shielded: a viewer that goes away does not cancel the making the others wait for)
        return latest[0], await asyncio.shield(latest[2])

    def _gap(self) -> float:
        """How long a page is shown before a newer version is made: ``seconds``, else
        :data:`REMAKE_SECONDS`."""
        return REMAKE_SECONDS if self._seconds is None else self._seconds

    @staticmethod
    def _stale(made: asyncio.Future[V]) -> bool:
        """A making that failed, or that was left pending by another event loop (a test
        client's)."""
        if made.done():
            return made.cancelled() or made.exception() is not None
        return made.get_loop() is not asyncio.get_running_loop()

    def __len__(self) -> int:
        return len(self._latest)


def tag_of(version: int, lang: str = "") -> str:
    """The ``ETag`` of a public page at audit ``version`` in ``lang`` (its address says the
    rest; the language may come from the reader's browser, so the tag says it too)."""
    return f'"{BOOT}-{version}{"-" + lang if lang else ""}"'


def unchanged(request: Request, version: int, lang: str = "") -> bool:
    """True when the browser already has this page at ``version`` in ``lang``
    (``If-None-Match``)."""
    asked = request.headers.get("if-none-match", "")
    tag = tag_of(version, lang)
    return any(t.strip().removeprefix("W/") == tag for t in asked.split(",")) if asked else False
