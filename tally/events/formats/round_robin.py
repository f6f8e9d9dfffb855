"""A round robin, single or double (``double``), paired by
:func:`tally.events.schedule.berger_schedule` over the players in seed order; each pairing plays
``matches_per_pairing`` matches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tally.errors import Message, Refused
from tally.events.formats.base import (
    MAX_MATCHES_PER_PAIRING,
    EventFormat,
    Given,
    Option,
    R,
    RoundMaker,
    Settings,
    StoredEvent,
    refuse_draw_options,
    refuse_ordering,
    refuse_rounds,
)
from tally.events.schedule import Round, berger_schedule, rounds_for
from tally.i18n import N_


@dataclass(frozen=True)
class RoundRobinSettings(Settings):
    double: bool = False
    matches_per_pairing: int = 1
    swap_last_rounds: bool = False

    def columns(self) -> dict[str, Any]:
        return super().columns() | {
            "double_round": self.double,
            "matches_per_pairing": self.matches_per_pairing,
            "swap_last_rounds": self.swap_last_rounds,
        }


class RoundRobin(EventFormat):
    kind = "round-robin"
    file_names = ("round-robin",)
    title = N_("round robin")
    audit_name = "round robin"
    loaded_name = N_("round robin")
    standings_name = N_("round robin")
    article_name = "a round robin"
    options = (
        Option("double", "bool"),
        Option("swap_last_rounds", "bool"),
        Option("matches_per_pairing", "whole", low=1, high=MAX_MATCHES_PER_PAIRING),
    )
    form_fields = ("double", "matches", "unplayed")
    has_rounds_made_in_advance = True
    has_scheduled_pairings = True
    has_scored_rounds = True
    exports_as_folder = True
    plays_several_matches_per_pairing = True

    def describe(self, double: bool) -> str:
        return N_("double round robin") if double else N_("round robin")

    def settings(self, given: Given) -> RoundRobinSettings:
        refuse_rounds(given)
        refuse_ordering(given, swap=given.double)
        if given.players < 2:
            raise Refused(
                Message(
                    N_("a round robin needs at least 2 players, got %(players)s"),
                    players=given.players,
                )
            )
        refuse_draw_options(self, given)
        return RoundRobinSettings(given.double, given.matches_per_pairing, given.swap_last_rounds)

    def start_round(self, rounds: RoundMaker[R], number: int) -> R:
        return rounds.from_schedule(number)

    def total_rounds(self, players: int, settings: Mapping[str, Any]) -> int:
        return rounds_for(players, bool(settings["double_round"])) if players >= 2 else 0

    def schedule(self, entrants: Sequence[str], settings: Mapping[str, Any]) -> list[Round]:
        return berger_schedule(
            list(entrants),
            double=bool(settings["double_round"]),
            swap_last=bool(settings["swap_last_rounds"]),
        )

    def json_options(self, event: StoredEvent, draw: Mapping[str, Any] | None) -> dict[str, Any]:
        swap = {"swap_last_rounds": True} if event.swap_last_rounds else {}
        return {"double": event.double, "matches_per_pairing": event.matches_per_pairing} | swap
