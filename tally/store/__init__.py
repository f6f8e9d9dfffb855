"""tally's database: players, matches and deals recorded trick by trick, with an audit log;
events (club evenings, round robins) and their standings in :mod:`tally.store.events`.

The command line imports this package inside its commands only: it brings in SQLAlchemy.
Plain results (:mod:`tally.store.views`) can be imported on their own. The names below are
loaded on first use (PEP 562), so importing ``tally.store.views`` does not import SQLAlchemy
through this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tally.errors import StoreUnavailable
    from tally.store.engine import describe_url, resolve_url
    from tally.store.store import Store, default_scorer, normalize_name, open_store
    from tally.store.views import (
        AuditPage,
        AuditView,
        CrossTableView,
        DealView,
        EventPlayerView,
        EventView,
        MatchSummary,
        MatchView,
        PairingMatchView,
        PairingView,
        PlayerView,
        PlayResult,
        RoundView,
        StandingsView,
        ViolationView,
        as_json,
    )

#: where each public name lives
_HOMES = {
    "StoreUnavailable": "tally.errors",
    "describe_url": "tally.store.engine",
    "resolve_url": "tally.store.engine",
    "Store": "tally.store.store",
    "default_scorer": "tally.store.store",
    "normalize_name": "tally.store.store",
    "open_store": "tally.store.store",
}


def __getattr__(name: str) -> Any:
    """A public name of the store, imported from its module on first use."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES.get(name, "tally.store.views")), name)
    globals()[name] = value
    return value


__all__ = [
    "AuditPage",
    "AuditView",
    "CrossTableView",
    "DealView",
    "EventPlayerView",
    "EventView",
    "MatchSummary",
    "MatchView",
    "PairingMatchView",
    "PairingView",
    "PlayResult",
    "PlayerView",
    "RoundView",
    "StandingsView",
    "Store",
    "StoreUnavailable",
    "ViolationView",
    "as_json",
    "default_scorer",
    "describe_url",
    "normalize_name",
    "open_store",
    "resolve_url",
]
