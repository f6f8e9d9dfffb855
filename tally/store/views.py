"""What the store hands out: plain frozen dataclasses, never ORM rows or open sessions.

Printing, templates and ``--json`` output all read these; :func:`as_json` turns any of them
into JSON-ready dicts. This module imports nothing heavy, so it is safe to import anywhere.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayerView:
    """A stored player."""

    id: int
    name: str
    matches: int = 0


@dataclass(frozen=True)
class ViolationView:
    """A violation the record proves (RULES.md section 10)."""

    trick: int
    player: str
    rule: str
    message: str


@dataclass(frozen=True)
class DealView:
    """One deal of a match as the score sheet shows it, derived from what is stored.

    ``points`` (counted points) is None while the deal is being played, unless a referee
    asked for it: players count in their heads (RULES.md section 8).
    """

    id: int
    match_id: int
    number: int
    kind: str  # "recorded" or "quick"
    dealer: str
    forehand: str
    turn_up: str | None
    winner: str | None
    reason: str
    deal_points: int
    carry_in: int
    game_points: int
    carry_out: int
    score_after: dict[str, int]
    explanation: str
    violations: tuple[ViolationView, ...]
    tricks: dict[str, int]
    points: dict[str, int] | None
    actions: int
    #: who acts next, "lead" or "follow"; None once the deal is over (a claim or the last
    #: trick) or for a quick deal
    to_move: str | None
    to_move_as: str | None
    trick: int
    #: every trick is played and nobody claimed: a claim may still follow the last trick
    claimable: bool = False

    @property
    def finished(self) -> bool:
        """True once the deal has an outcome (the next deal may start)."""
        return self.reason != "incomplete"


@dataclass(frozen=True)
class MatchView:
    """A match and its score, derived with :func:`tally.match.score_match`."""

    id: int
    players: tuple[str, str]
    rules: str
    first_dealer: str
    created_at: str
    event_id: int | None
    target: int
    deals: tuple[DealView, ...]
    score: dict[str, int]
    carry: int
    next_dealer: str | None
    winner: str | None
    over: bool
    #: the deal being played (no outcome yet), if any
    current_deal: int | None


@dataclass(frozen=True)
class MatchSummary:
    """A line of ``tally match list``."""

    id: int
    players: tuple[str, str]
    rules: str
    deals: int
    score: dict[str, int]
    winner: str | None
    over: bool
    created_at: str
    event_id: int | None


@dataclass(frozen=True)
class PlayResult:
    """What recording (or undoing) actions did, for the scorer to be told at once."""

    deal: DealView
    match: MatchView
    #: the items stored by this command (for an undo: the item removed)
    tokens: tuple[str, ...]
    #: violations the record proves now and did not before this command
    new_violations: tuple[ViolationView, ...]
    #: the outcome is new or different from the one before this command
    ruling_changed: bool


@dataclass(frozen=True)
class AuditView:
    """An audit entry: who changed what, when, and whether it was reversed."""

    id: int
    at: str
    scorer: str
    command: str
    entity: str
    entity_id: int
    summary: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    reversed_by: int | None


def as_json(obj: Any) -> Any:
    """A view (or a list of views) as plain JSON-ready data."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {f.name: as_json(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        if isinstance(obj, DealView):
            out["finished"] = obj.finished
        return out
    if isinstance(obj, list | tuple):
        return [as_json(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): as_json(v) for k, v in obj.items()}
    return obj
