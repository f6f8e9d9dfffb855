"""What a knockout or groups event is at a moment, as plain values: the event's settings, its
format row, its entrants, the rounds started and the matches with their totals
(:class:`KnockoutState`). The store reads it (``tally.store.knockouts.load_state``); every
rule of the knockout (:mod:`tally.events.knockout.stages`, :mod:`~tally.events.knockout.rounds`)
is a function of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tally.events.withdrawals import forfeit_winner

__all__ = ["Entrant", "KnockoutState", "Match"]


@dataclass(frozen=True)
class Entrant:
    """A player entered, in seed order: withdrawn when ``withdrawn_at`` is set."""

    player_id: int
    name: str
    seed: int
    withdrawn_at: datetime | None = None


@dataclass(frozen=True)
class Match:
    """A match of the event with its totals and its winner (None: not won yet); ``round``
    None for a play-off."""

    id: int
    a: int
    b: int
    first_dealer: int
    round: int | None
    table: int | None
    gp: Mapping[int, int]
    schneider: Mapping[int, int]
    schwarz: Mapping[int, int]
    winner: int | None


@dataclass(frozen=True)
class KnockoutState:
    """A knockout or groups event as stored: ``ev`` its settings (``id``, ``name``,
    ``tiebreaks``, ``withdrawal``, ``bye``, ``seed_by``, ``match_points_per_win``), ``fmt`` its
    format row (``lives``, ``draw_seed``, ``final_size``, ``groups``, ``advance``,
    ``bracket_round``, ``bracket``, ``playoff_round``, ``best_of``, the money), the rounds
    ``started`` (number -> the bye, when) and the buy-backs (player -> the rounds after which)."""

    ev: Mapping[str, Any]
    fmt: Mapping[str, Any]
    entrants: tuple[Entrant, ...]
    names: Mapping[int, str]
    started: Mapping[int, tuple[int | None, datetime]]
    matches: tuple[Match, ...]
    has_lives: bool = False
    has_groups: bool = False
    bought: Mapping[int, list[int]] = field(default_factory=dict)
    #: the buy-backs' fees paid (cents)
    bought_fees: int = 0
    #: the categories of the players entered (``tally player category``), by player number
    categories: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ids(self) -> list[int]:
        return [e.player_id for e in self.entrants]

    @property
    def withdrawn(self) -> dict[int, int]:
        """Withdrawn player -> the last round started when they withdrew (0: before any)."""
        out: dict[int, int] = {}
        for e in self.entrants:
            when = e.withdrawn_at
            if when is not None:
                out[e.player_id] = max(
                    (n for n, (_, at) in self.started.items() if at <= when), default=0
                )
        return out

    @property
    def left(self) -> dict[int, datetime]:
        """Withdrawn player -> when they withdrew (:mod:`tally.events.withdrawals`)."""
        return {e.player_id: e.withdrawn_at for e in self.entrants if e.withdrawn_at}

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The event's tiebreaks, in order."""
        return tuple(x for x in self.ev["tiebreaks"].split(",") if x)

    def since(self, number: int | None) -> datetime | None:
        """When round ``number`` was started (None: a play-off, made before it mattered);
        a round not started yet: after every withdrawal so far."""
        if number is None:
            return None
        if number in self.started:
            return self.started[number][1]
        return max(self.left.values(), default=None)

    def forfeit_winner(self, a: int, b: int, number: int | None = None) -> int | None:
        """Who wins by forfeit a match not won between ``a`` and ``b`` (of round ``number``
        when it was never made): :func:`tally.events.withdrawals.forfeit_winner`."""
        return forfeit_winner(a, b, self.left, self.since(number))

    def of_round(self, number: int) -> list[Match]:
        return sorted(
            (m for m in self.matches if m.round == number), key=lambda m: (m.table or 0, m.id)
        )

    @property
    def playoffs(self) -> list[Match]:
        return [m for m in self.matches if m.round is None]
