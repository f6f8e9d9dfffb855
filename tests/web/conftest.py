"""Fixtures of the web tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _quick_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    """PINs hashed with 1,000 rounds instead of 200,000 (the stored form keeps its rounds, so
    checking a PIN works the same; tests/web/test_safety.py checks the real count)."""
    monkeypatch.setattr("tally.web.access.PIN_ROUNDS", 1_000)


@pytest.fixture(autouse=True)
def _walls_made_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wall made again at each change, not at most once a second (a test reads it right
    after a change; tests/web/test_hostile.py checks the second)."""
    monkeypatch.setattr("tally.web.shared.REMAKE_SECONDS", 0.0)


@pytest.fixture(autouse=True)
def _analyses_awaited(monkeypatch: pytest.MonkeyPatch) -> None:
    """A match page waits for its deals' analyses (a test reads them on the first view;
    tests/web/test_routes.py checks a page that does not wait)."""
    monkeypatch.setattr("tally.web.director.FIRST_VIEW_WAIT", 120.0)
