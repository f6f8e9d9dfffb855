"""How ``tally serve`` runs its app under uvicorn on a network anyone at the club is on.

- a request must arrive whole within :data:`REQUEST_SECONDS` of the connection (or of the
  previous response on a kept-alive connection): a client that sends its headers or its body
  a byte at a time is cut off, so slow connections cannot pile up;
- one address holds at most :data:`CONNECTIONS_PER_ADDRESS` connections at once (unless the
  server sits behind a proxy, where every request comes from the proxy's address);
- at most :data:`MAX_CONNECTIONS` connections in all are served (uvicorn answers 503 past
  that), idle kept-alive connections close after 5 seconds, and the process may open as many
  files as the system lets it (a slow flood no longer runs into the 1,024 of a default limit).

For a larger event, run several ``tally serve`` processes over one PostgreSQL database behind
a reverse proxy (docs/serve.md).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from starlette.applications import Starlette

#: how long a request may take to arrive whole (headers and body), in seconds
REQUEST_SECONDS = 10.0
#: connections one address may hold at once
CONNECTIONS_PER_ADDRESS = 48
#: connections served at once in all (uvicorn's ``limit_concurrency``)
MAX_CONNECTIONS = 400
#: how long an idle kept-alive connection stays open, in seconds
KEEP_ALIVE_SECONDS = 5


def guarded_protocol() -> type[Any]:
    """uvicorn's HTTP/1.1 protocol with the request deadline and the cap per address."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(H11Protocol):
        #: connections by client address, in this process
        open_by_address: ClassVar[Counter[str]] = Counter()
        #: whether the cap per address applies (not behind a proxy)
        capped: ClassVar[bool] = True

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address = self.client[0] if self.client else "?"
            self._counted = False
            if self.capped and self.open_by_address[self._address] >= CONNECTIONS_PER_ADDRESS:
                transport.close()
                return
            self._counted = True
            self.open_by_address[self._address] += 1
            self._deadline: asyncio.TimerHandle | None = None
            self._arm()

        def _arm(self) -> None:
            """Give the next request :data:`REQUEST_SECONDS` to arrive whole."""
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

        def _too_slow(self) -> None:
            """Close a connection whose request has not arrived whole in time."""
            self._deadline = None
            if (
                self.conn.their_state not in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED)
                and not self.transport.is_closing()
            ):
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._counted and not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._counted:
                self._counted = False
                self.open_by_address[self._address] -= 1
                if self.open_by_address[self._address] <= 0:
                    del self.open_by_address[self._address]
                if self._deadline is not None:
                    self._deadline.cancel()
            super().connection_lost(exc)

    return GuardedH11


def more_open_files() -> None:
    """Let this process open as many files (connections) as the system allows it."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            pass


def server_config(
    app: Starlette, host: str, port: int, forwarded_allow_ips: str | None = None
) -> Any:
    """The uvicorn configuration ``tally serve`` runs: the guarded protocol, the limits, and
    the proxy's forwarded headers trusted only from ``forwarded_allow_ips``."""
    import uvicorn

    protocol = guarded_protocol()
    protocol.capped = forwarded_allow_ips is None
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=protocol,
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        h11_max_incomplete_event_size=16 * 1024,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips or "127.0.0.1",
    )
