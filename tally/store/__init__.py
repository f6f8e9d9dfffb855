"""tally's database: players, matches and deals recorded trick by trick, with an audit log;
events (club evenings, round robins) and their standings in :mod:`tally.store.events`.

The command line imports this package inside its commands only: it brings in SQLAlchemy.
Plain results (:mod:`tally.store.views`) can be imported on their own.
"""

from __future__ import annotations

from tally.errors import StoreUnavailable
from tally.store.engine import describe_url, resolve_url
from tally.store.store import Store, default_scorer, normalize_name, open_store
from tally.store.views import (
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

__all__ = [
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
