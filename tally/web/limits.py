"""What every request of ``tally serve`` passes through before a page sees it:

- :class:`RequestLimits`, outside everything else of the app: a budget of requests per
  client address (:class:`ClientBudget`): a request that turns out to be a table's (its
  secret right) or the director's (a session) is given back, so the budget only bounds what
  anyone may ask without either: the wall, the home page, a guess at a table's address (429
  past it, before any page runs); and the security headers (:data:`SECURITY_HEADERS`:
  ``nosniff``, the content security policy, no framing, no referrer) on every response:
  pages, static files, JSON, refusals, and the 500 of a page that failed;
- :class:`BodyLimit`: a bound on the size of a request's body (a form here is a few hundred
  bytes; a flood of megabytes is refused with 413 before anything parses it).

Plain ASGI middleware, so it costs a function call per request and imports nothing. The
server's own answers before the app (400 for a malformed request, 503 when it is full) carry
the same headers (:func:`plain_answer`, used by :mod:`tally.web.serving`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body accepted (bytes): the biggest form, a corrected deal's record, is a
#: few kilobytes.
MAX_BODY = 64 * 1024
#: the headers every response carries: no framing by another site, no sniffing, nothing
#: fetched from outside (the club's network may have no internet anyway); the page a form was
#: sent from is told to this site only (where a refusal's "Back" leads:
#: :func:`tally.web.app.came_from`), never to another (a table's address holds its secret)
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}
_RAW_HEADERS = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
#: requests a second one client address may make without a table's secret or a director's
#: session (the wall asks once a second; a page and its files are four requests) ...
REQUESTS_PER_SECOND = 10.0
#: ... and how many it may make at once after a pause
REQUESTS_AT_ONCE = 40
#: the scope key a request is marked with once it is known to be a table's or the director's
KNOWN = "tally_known"
#: what a request over :data:`MAX_BODY` is told
TOO_LARGE = "The request is too large: a form of tally serve is a few kilobytes.\n"
_STATUS = {400: "Bad Request", 413: "Content Too Large", 429: "Too Many Requests"}
_STATUS |= {500: "Internal Server Error", 503: "Service Unavailable"}


def with_security_headers(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` and every security header they do not already carry."""
    present = {k.lower() for k, _ in headers}
    return headers + [(k, v) for k, v in _RAW_HEADERS if k not in present]


def plain_answer(status: int, text: str) -> bytes:
    """A whole HTTP/1.1 response of ``text`` that closes the connection, with the security
    headers: what the server answers itself, before (or instead of) the app."""
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if status in (429, 503):
        headers.append((b"retry-after", b"1"))
    lines = [f"HTTP/1.1 {status} {_STATUS[status]}".encode()]
    lines += [k + b": " + v for k, v in with_security_headers(headers)]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


class ClientBudget:
    """Requests each client address may still make (a token bucket: ``per_second`` come back
    each second, at most ``at_once`` kept), in this process."""

    def __init__(
        self, per_second: float = REQUESTS_PER_SECOND, at_once: int = REQUESTS_AT_ONCE
    ) -> None:
        self.per_second = per_second
        self.at_once = float(at_once)
        self._left: dict[str, tuple[float, float]] = {}

    def take(self, address: str) -> bool:
        """Spend one request of ``address``'s budget; False when it has none left."""
        now = time.monotonic()
        left, then = self._left.get(address, (self.at_once, now))
        left = min(self.at_once, left + (now - then) * self.per_second)
        if left < 1.0:
            self._left[address] = (left, now)
            return False
        if len(self._left) > 10_000:  # forget the addresses whose budget is whole again
            self._forget(now)
        self._left[address] = (left - 1.0, now)
        return True

    def give_back(self, address: str) -> None:
        """Return the request ``address`` spent (it was a table's or the director's)."""
        left, then = self._left.get(address, (self.at_once, time.monotonic()))
        self._left[address] = (min(self.at_once, left + 1.0), then)

    def _forget(self, now: float) -> None:
        full = [
            a
            for a, (left, then) in self._left.items()
            if left + (now - then) * self.per_second >= self.at_once
        ]
        for address in full:
            del self._left[address]


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


class RequestLimits:
    """Outside everything: refuse a client past its ``budget`` with 429; mark a request
    ``known(scope)`` says is a table's or the director's (and give its request back); add
    the security headers to every response; answer 500 for a page that failed without
    answering."""

    def __init__(
        self,
        app: ASGIApp,
        known: Callable[[Scope], bool] = lambda scope: False,
        budget: ClientBudget | None = None,
    ) -> None:
        self.app = app
        self.known = known
        self.budget = budget if budget is not None else ClientBudget()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = _client(scope)
        if not self.budget.take(address):
            await _answer(send, 429, "Too many requests from this address: wait a moment.\n")
            return
        started = False

        async def headed(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = with_security_headers(list(message.get("headers", [])))
                if self.known(scope):
                    scope[KNOWN] = True
                    self.budget.give_back(address)
            await send(message)

        try:
            await self.app(scope, receive, headed)
        except Exception:
            if not started:
                await _answer(send, 500, "Internal Server Error\n")
            raise


class BodyLimit:
    """Refuse a request whose body is larger than ``max_body`` with 413: from its
    ``Content-Length`` at once, or while it streams in."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self._declared(scope) > self.max_body:
            await _answer(send, 413, TOO_LARGE)
            return
        started = False

        async def noted(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, self._counted(receive), noted)
        except _TooLarge:
            if not started:
                await _answer(send, 413, TOO_LARGE)

    def _counted(self, receive: Receive) -> Receive:
        """``receive``, refusing a body that grows past the limit while it is read."""
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge
            return message

        return counted

    @staticmethod
    def _declared(scope: Scope) -> int:
        """The body's length as its ``Content-Length`` says (0 when absent or unreadable)."""
        for key, value in scope.get("headers", []):
            if key.lower() == b"content-length":
                text = value.decode("latin-1").strip()
                return int(text) if text.isascii() and text.isdigit() else 0
        return 0


class _TooLarge(Exception):
    """The body grew past the limit while it was read (a signal of this module's own)."""


async def _answer(send: Send, status: int, text: str) -> None:
    """A plain-text answer of this middleware's own, with the security headers (a 429 keeps
    the connection: a client over its budget asking again costs no new connection)."""
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
    ]
    headers.append((b"retry-after", b"1") if status == 429 else (b"connection", b"close"))
    start = {"type": "http.response.start", "status": status}
    await send(start | {"headers": with_security_headers(headers)})
    await send({"type": "http.response.body", "body": body})
