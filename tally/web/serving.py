"""How ``tally serve`` runs its app under uvicorn on a network anyone at the club is on.

Anyone on the club's Wi-Fi can open connections, from as many addresses as their laptop
takes, and send nothing, or a byte now and then. The server keeps them from starving the
tables (:class:`Connections`, :func:`guarded_protocol`):

- a request's headers must arrive whole within :data:`HEADER_SECONDS` of the connection (or
  of the previous response on a kept-alive connection), its body within
  :data:`BODY_SECONDS` of its headers; idle kept-alive connections close after
  :data:`KEEP_ALIVE_SECONDS`;
- a connection is *anonymous* until a request on it proves to be a table's (its secret
  right) or the director's (a session): one address holds at most
  :data:`ANONYMOUS_PER_ADDRESS` anonymous connections, and :data:`ANONYMOUS_CONNECTIONS` in
  all are kept; when they are full, a new connection of an address that holds fewer than
  the address holding the most is let in, and the anonymous connection waiting longest of
  the latter is closed instead (a new phone is never refused because others hold
  connections they do not use; a flood only pushes out its own);
- tables and the director (their connections proven) are kept apart from that pool, up to
  :data:`CONNECTIONS_PER_ADDRESS` and :data:`MAX_CONNECTIONS` in all; past that the server
  answers 503 itself, with the security headers (so does its 400 for a malformed request);
- the process may open as many files as the system lets it.

Why uvicorn with this protocol, not another server: docs/serve.md ("The server"). For a
larger event, run several ``tally serve`` processes over one PostgreSQL database behind a
reverse proxy (docs/serve.md); behind a proxy every connection comes from the proxy, so the
caps per address are off.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING, Any, Protocol

from tally.web.limits import KNOWN, plain_answer

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from uvicorn.protocols.http.h11_impl import H11Protocol as _H11
else:
    _H11 = object  # (uvicorn is imported when the server starts: guarded_protocol)

#: how long a request's headers may take to arrive whole, in seconds
HEADER_SECONDS = 5.0
#: how long its body may take after its headers, in seconds
BODY_SECONDS = 10.0
#: anonymous connections one address may hold at once
ANONYMOUS_PER_ADDRESS = 16
#: anonymous connections kept at once in all (the longest waiting make room for new ones)
ANONYMOUS_CONNECTIONS = 128
#: connections one address may hold at once, its tables' and the director's included
CONNECTIONS_PER_ADDRESS = 64
#: connections served at once in all (the server answers 503 past it)
MAX_CONNECTIONS = 1024
#: how long an idle kept-alive connection stays open, in seconds
KEEP_ALIVE_SECONDS = 5


class Connection(Protocol):
    """What :class:`Connections` needs of a connection."""

    @property
    def busy(self) -> bool:
        """A request on it is with the app now (it is not closed to make room)."""

    def cut(self) -> None:
        """Close the connection at once."""


class Connections:
    """The open connections of one server by client address, the anonymous ones apart from
    those of tables and the director (``capped``: the caps per address apply; off behind a
    proxy)."""

    def __init__(self, capped: bool = True) -> None:
        self.capped = capped
        #: anonymous connections by address, each address's oldest first
        self.anonymous: dict[str, dict[Connection, None]] = {}
        self.by_address: Counter[str] = Counter()
        self.total = 0
        self.waiting = 0

    def admit(self, conn: Connection, address: str) -> str:
        """Take in a new connection: ``"in"``, ``"refused"`` (its address holds too many
        already, or its share of a full pool: close it) or ``"full"`` (the server is full:
        answer 503)."""
        mine = len(self.anonymous.get(address, {}))
        if self.capped and (
            self.by_address[address] >= CONNECTIONS_PER_ADDRESS or mine >= ANONYMOUS_PER_ADDRESS
        ):
            return "refused"
        if self.total >= MAX_CONNECTIONS:
            return "full"
        if self.waiting >= ANONYMOUS_CONNECTIONS:
            room = self._make_room(mine)
            if room is None:
                return "refused"
            if not room:
                return "full"
        self.anonymous.setdefault(address, {})[conn] = None
        self.by_address[address] += 1
        self.total += 1
        self.waiting += 1
        return "in"

    def prove(self, conn: Connection, address: str) -> None:
        """``conn`` carried a table's or the director's request: no longer anonymous."""
        mine = self.anonymous.get(address, {})
        if conn in mine:
            del mine[conn]
            self.waiting -= 1
            if not mine:
                del self.anonymous[address]

    def drop(self, conn: Connection, address: str) -> None:
        """``conn`` closed."""
        self.prove(conn, address)
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]

    def _make_room(self, mine: int) -> bool | None:
        """Room for a connection of an address holding ``mine`` anonymous ones: the one
        waiting longest of the address holding the most is closed (not one whose request is
        with the app). None when the new one's address holds as many already (it is refused
        instead: a flood cannot push out others' connections with its own; not behind a
        proxy, where every connection has the proxy's address), False when every one is
        busy."""
        for address in sorted(self.anonymous, key=lambda a: -len(self.anonymous[a])):
            if self.capped and mine and mine + 1 >= len(self.anonymous[address]):
                return None
            for conn in self.anonymous[address]:
                if not conn.busy:
                    self.drop(conn, address)
                    conn.cut()
                    return True
        return False


class _Guarded(_H11):
    """What :func:`guarded_protocol` adds to uvicorn's HTTP/1.1 protocol: the deadlines and
    the caps of :attr:`pool`."""

    pool: Connections

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else "?"
        self._deadline: asyncio.TimerHandle | None = None
        self._phase = "headers"
        self._counted = False
        verdict = self.pool.admit(self, self._address)
        if verdict == "full":
            transport.write(plain_answer(503, "The server is full: try again in a moment.\n"))
        if verdict != "in":
            transport.close()
            return
        self._counted = True
        self._arm(HEADER_SECONDS)

    @property
    def busy(self) -> bool:
        return self._phase == "app"

    def cut(self) -> None:
        self._counted = False  # (already dropped by :class:`Connections`)
        self._disarm()
        self.transport.close()

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _arm(self, seconds: float) -> None:
        """Give what is awaited (the headers, the body) ``seconds`` to arrive."""
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _too_slow(self) -> None:
        """Close a connection whose request has not arrived whole in time."""
        self._deadline = None
        if self._phase != "app" and not self.transport.is_closing():
            self.transport.close()

    def _follow(self) -> None:
        """Move the deadline on as the request arrives: the body's once the headers are in,
        none while the app answers."""
        import h11

        if not self._counted:
            return
        state = self.conn.their_state
        if state is h11.SEND_BODY and self._phase == "headers":
            self._phase = "body"
            self._arm(BODY_SECONDS)
        elif state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED):
            self._phase = "app"
            self._disarm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def send_400_response(self, msg: str) -> None:
        self.transport.write(plain_answer(400, "Bad Request: not an HTTP request.\n"))
        self.transport.close()

    def on_response_complete(self) -> None:
        if self._counted and self.scope.get(KNOWN):
            self.pool.prove(self, self._address)
        closing = self.transport.is_closing()
        if self._counted and not closing:
            self._phase = "headers"
            self._arm(HEADER_SECONDS)
        super().on_response_complete()
        if not closing:
            self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._counted:
            self._counted = False
            self.pool.drop(self, self._address)
        self._disarm()
        super().connection_lost(exc)


def guarded_protocol(connections: Connections) -> type[Any]:
    """uvicorn's HTTP/1.1 protocol with the deadlines and the caps of ``connections``."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    return type("GuardedH11", (_Guarded, H11Protocol), {"pool": connections})


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
    app: Starlette,
    host: str,
    port: int,
    forwarded_allow_ips: str | None = None,
    https: tuple[str, str] | None = None,
) -> Any:
    """The uvicorn configuration ``tally serve`` runs: the guarded protocol, the limits, the
    proxy's forwarded headers trusted only from ``forwarded_allow_ips``, and https with
    ``https`` (a certificate file and its key's)."""
    import uvicorn

    protocol = guarded_protocol(Connections(capped=forwarded_allow_ips is None))
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=protocol,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        h11_max_incomplete_event_size=16 * 1024,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips or "127.0.0.1",
        ssl_certfile=https[0] if https else None,
        ssl_keyfile=https[1] if https else None,
    )
