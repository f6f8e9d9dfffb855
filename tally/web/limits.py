"""What every request of ``tally serve`` passes through before a page sees it: a bound on the
size of its body (a form here is a few hundred bytes; a flood of megabytes is refused with 413
before anything parses it) and ``X-Content-Type-Options: nosniff`` on every response, static
files and JSON included.

Plain ASGI middleware, so it costs a function call per request and imports nothing.
"""

from __future__ import annotations

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


class _TooLarge(Exception):
    """The body grew past the limit while it was read (a signal of this module's own)."""


class RequestLimits:
    """Refuse a request whose body is larger than ``max_body`` with 413, from its
    ``Content-Length`` at once or while it streams in; add ``nosniff`` to every response."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_nosniff(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                if not any(k.lower() == b"x-content-type-options" for k, _ in headers):
                    headers.append((b"x-content-type-options", b"nosniff"))
                message["headers"] = headers
            await send(message)

        if self._declared(scope) > self.max_body:
            await self._refuse(send_nosniff)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send_nosniff)
        except _TooLarge:
            if not started:
                await self._refuse(send_nosniff)

    @staticmethod
    def _declared(scope: Scope) -> int:
        """The body's length as its ``Content-Length`` says (0 when absent or unreadable)."""
        for key, value in scope.get("headers", []):
            if key.lower() == b"content-length":
                text = value.decode("latin-1").strip()
                return int(text) if text.isascii() and text.isdigit() else 0
        return 0

    @staticmethod
    async def _refuse(send: Send) -> None:
        body = b"The request is too large: a form of tally serve is a few kilobytes.\n"
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
