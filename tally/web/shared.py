"""Public pages made once per change, however many screens ask for them: the wall, its live
part, the list of events.

A page is kept by a key that names everything it shows (the event, the language, the audit
log's newest entry number: every change writes one). Many viewers asking at once for a key
not made yet wait for the one making of it (single flight) instead of each making it again,
and a viewer that already has the page is answered 304 from its ``ETag``
(:func:`tag_of`, :func:`unchanged`) without anything made or read but the version.

Everything here runs on the server's event loop: the making itself goes to the thread pool
(:func:`tally.web.app.blocking`), the waiting holds no thread.
"""

from __future__ import annotations

import asyncio
import secrets
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
#: what a public page tells the browser: keep it, but ask (with its ``ETag``) before using it
REVALIDATE = "no-cache"


class SharedRenders(Generic[K, V]):
    """At most ``size`` pages by key, the least recently used dropped first; each made once,
    its waiters sharing the making (a making that failed is not kept: the next asks again).

    >>> renders: SharedRenders[str, str] = SharedRenders(4)
    >>> made = []
    >>> async def make() -> str:
    ...     made.append(1)
    ...     await asyncio.sleep(0.01)
    ...     return "page"
    >>> async def viewers() -> list[str]:
    ...     return await asyncio.gather(*(renders.get("wall", make) for _ in range(20)))
    >>> asyncio.run(viewers()) == ["page"] * 20, len(made)
    (True, 1)
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._made: OrderedDict[K, asyncio.Future[V]] = OrderedDict()

    async def get(self, key: K, make: Callable[[], Awaitable[V]]) -> V:
        """The page of ``key``: kept, being made (then awaited), or made now."""
        made = self._made.get(key)
        if made is None or self._stale(made):
            made = asyncio.ensure_future(make())
            self._made[key] = made
            while len(self._made) > self._size:
                self._made.popitem(last=False)
        self._made.move_to_end(key)
        # (shielded: a viewer that goes away does not cancel the making the others wait for)
        return await asyncio.shield(made)

    @staticmethod
    def _stale(made: asyncio.Future[V]) -> bool:
        """A making that failed, or that was left pending by another event loop (a test
        client's)."""
        if made.done():
            return made.cancelled() or made.exception() is not None
        return made.get_loop() is not asyncio.get_running_loop()

    def __len__(self) -> int:
        return len(self._made)


def tag_of(version: int) -> str:
    """The ``ETag`` of a public page at audit ``version`` (its address says the rest)."""
    return f'"{BOOT}-{version}"'


def unchanged(request: Request, version: int) -> bool:
    """True when the browser already has this page at ``version`` (``If-None-Match``)."""
    asked = request.headers.get("if-none-match", "")
    tag = tag_of(version)
    return any(t.strip().removeprefix("W/") == tag for t in asked.split(",")) if asked else False
