"""A round robin, single or double (``double``), paired by
:func:`tally.events.schedule.berger_schedule` over the players in seed order; each pairing plays
``matches_per_pairing`` matches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tally.errors import Message, Refused
from tally.events.formats.base import (
    EventFormat,
    Given,
    Option,
    R,
    RoundMaker,
    Settings,
    refuse_draw_options,
    refuse_ordering,
    refuse_rounds,
)
from tally.events.formats.options import MATCHES_PER_PAIRING, UNPLAYED
from tally.events.schedule import Round, berger_schedule, rounds_for
from tally.i18n import N_

DOUBLE = Option(
    "double",
    "bool",
    default=False,
    label=N_("Twice (double round robin)"),
    help=N_("Every pairing twice, the second time with the first dealer the other way round."),
    hint=N_("every pairing plays again, the other dealing first"),
    column="events.double_round",
    exported="always",
)
SWAP_LAST_ROUNDS = Option(
    "swap_last_rounds",
    "bool",
    default=False,
    label=N_("The first cycle's last two rounds the other way round"),
    help=N_(
        "A double round robin plays the last two rounds of the first cycle the other way "
        "round (FIDE's advice: nobody plays three matches running dealing first, or second)."
    ),
    column="events.swap_last_rounds",
)


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
    summary = N_("a fixed Berger schedule")
    options = (DOUBLE, SWAP_LAST_ROUNDS, MATCHES_PER_PAIRING, UNPLAYED)
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
