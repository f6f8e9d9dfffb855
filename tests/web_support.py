"""A tally server for the tests that need a real one: the app under uvicorn in a thread on a
free loopback port, stopped when the block ends."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def free_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(app: Any, config: Any = None) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 (with ``config``, a ``uvicorn.Config`` of it, when given)
    until the block ends; yields the server's base address."""
    import uvicorn

    if config is None:
        config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 10
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
