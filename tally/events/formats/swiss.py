"""A Swiss event of ``rounds`` rounds: each round is paired by :func:`tally.events.swiss.pair_round`
from the standings as they are when it starts (``acceleration="baku"``: the first rounds
accelerated, :func:`tally.events.swiss.baku_points`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tally.errors import Message, Refused, option
from tally.events.formats.base import (
    MAX_MATCHES_PER_PAIRING,
    EventFormat,
    Given,
    Option,
    RoundState,
    Settings,
    StoredEvent,
    refuse_draw_options,
    refuse_ordering,
)
from tally.events.schedule import Pairing, Round
from tally.events.swiss import baku_points, pair_round, swiss_players
from tally.events.tiebreaks import SWISS_TIEBREAKS
from tally.i18n import N_

#: the most rounds a Swiss event may play
MAX_SWISS_ROUNDS = 99


@dataclass(frozen=True)
class SwissSettings(Settings):
    rounds: int
    matches_per_pairing: int = 1
    acceleration: str = "none"
    repeated_floats: str = "allow"
    max_absences: int | None = None
    no_absence_last: int = 0
    apart_until: int | None = None
    apart_keeps_bye: bool = False

    def columns(self) -> dict[str, Any]:
        return super().columns() | {
            "rounds": self.rounds,
            "acceleration": self.acceleration,
            "repeated_floats": self.repeated_floats,
            "max_absences": self.max_absences,
            "no_absence_last": self.no_absence_last,
            "apart_until": self.apart_until,
            "apart_keeps_bye": self.apart_keeps_bye,
            "matches_per_pairing": self.matches_per_pairing,
        }


class Swiss(EventFormat):
    kind = "swiss"
    file_names = ("swiss",)
    title = N_("Swiss event")
    audit_name = "Swiss event"
    loaded_name = N_("Swiss event")
    standings_name = N_("Swiss event")
    article_name = "a Swiss event"
    matches_made = "by pairing each round"
    round_maker = "the Swiss pairing"
    options = (
        Option("rounds", "whole", low=1, high=10_000),
        Option("matches_per_pairing", "whole", low=1, high=MAX_MATCHES_PER_PAIRING),
        Option("acceleration", "text"),
        Option("repeated_floats", "text"),
        Option("max_absences", "whole", low=0, high=99, optional=True),
        Option("no_absence_last", "whole", low=0, high=99),
        Option("apart_until", "whole", low=1, high=10_000, optional=True),
        Option("apart_keeps_bye", "bool"),
    )
    form_fields = ("rounds", "matches", "unplayed", "seed_by", "absence_score")
    pairs_from_standings = True
    has_scored_rounds = True
    takes_late_entries = True
    plays_several_matches_per_pairing = True
    seeds_by_rating = True
    default_tiebreaks = SWISS_TIEBREAKS

    def settings(self, given: Given) -> SwissSettings:
        rounds = given.rounds
        if (
            isinstance(rounds, bool)
            or not isinstance(rounds, int)
            or not 1 <= rounds <= MAX_SWISS_ROUNDS
        ):
            raise Refused(
                Message(
                    N_(
                        "a Swiss event plays 1 to %(most)s rounds: give their number "
                        "(%(option)s), not %(rounds)s"
                    ),
                    most=MAX_SWISS_ROUNDS,
                    option=option(N_("--rounds N"), N_("Rounds"), field=True),
                    rounds=rounds,
                )
            )
        if given.double:
            raise Refused(
                Message(
                    N_("a Swiss event is paired round by round: %(option)s is for round robins"),
                    option=option(N_("--double"), N_("Twice (double round robin)")),
                )
            )
        refuse_ordering(given, accelerate=True)
        refuse_draw_options(self, given)
        return SwissSettings(
            rounds,
            given.matches_per_pairing,
            given.acceleration,
            given.repeated_floats,
            given.max_absences,
            given.no_absence_last,
            given.apart_until,
            given.apart_keeps_bye,
        )

    def total_rounds(self, players: int, settings: Mapping[str, Any]) -> int:
        return int(settings["rounds"])

    def next_round(self, state: RoundState) -> Round:
        points = dict(state.points)
        settings = state.settings
        if settings["acceleration"] == "baku":
            group_a, virtual = baku_points(
                state.first_round or len(state.entrants), settings["rounds"] or 0, state.number
            )
            for k in state.entrants[:group_a]:
                if k in points:
                    points[k] += virtual * settings["match_points_per_win"]
        rnd = pair_round(
            swiss_players(
                [p for p in state.ranked if p not in state.absent],
                points,
                list(state.played),
                dict(state.byes),
                state.floats if settings.get("repeated_floats") == "avoid" else None,
            ),
            state.number,
            apart=list(state.apart)
            if settings.get("apart_until") is None or state.number <= settings["apart_until"]
            else [],
            rematches=state.rematches,
            apart_keeps_bye=bool(settings.get("apart_keeps_bye")),
        )
        return Round(
            state.number, tuple(Pairing(p.table, p.first, p.second) for p in rnd.pairings), rnd.bye
        )

    def json_options(self, event: StoredEvent, draw: Mapping[str, Any] | None) -> dict[str, Any]:
        fast: dict[str, Any] = (
            {"acceleration": event.acceleration} if event.acceleration != "none" else {}
        )
        if event.repeated_floats != "allow":
            fast["repeated_floats"] = event.repeated_floats
        if event.max_absences is not None:
            fast["max_absences"] = event.max_absences
        if event.no_absence_last:
            fast["no_absence_last"] = event.no_absence_last
        if event.apart_until is not None:
            fast["apart_until"] = event.apart_until
        if event.apart_keeps_bye:
            fast["apart_keeps_bye"] = True
        return {"rounds": event.rounds, "matches_per_pairing": event.matches_per_pairing} | fast
