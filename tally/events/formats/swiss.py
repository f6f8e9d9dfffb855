"""A Swiss event of ``rounds`` rounds: each round is paired by :func:`tally.events.swiss.pair_round`
from the standings as they are when it starts (``acceleration="baku"``: the first rounds
accelerated, :func:`tally.events.swiss.baku_points`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tally.errors import Message, Refused
from tally.events.formats.base import (
    EventFormat,
    Given,
    Option,
    RoundState,
    Settings,
    refuse_draw_options,
    refuse_ordering,
)
from tally.events.formats.options import MATCHES_PER_PAIRING, SEED_BY, UNPLAYED
from tally.events.formats.round_robin import DOUBLE
from tally.events.schedule import Pairing, Round
from tally.events.swiss import baku_points, pair_round, swiss_players
from tally.events.tiebreaks import SWISS_TIEBREAKS
from tally.i18n import N_

#: the most rounds a Swiss event may play
MAX_SWISS_ROUNDS = 99

ROUNDS = Option(
    "rounds",
    "whole",
    low=1,
    high=10_000,
    label=N_("Rounds"),
    help=N_("The number of rounds."),
    column="events.rounds",
    metavar="N",
    exported="always",
)
ACCELERATION = Option(
    "acceleration",
    "text",
    default="none",
    label=N_("Accelerated pairings"),
    help=N_(
        "'baku' pairs the first half of the rounds accelerated (FIDE's Baku method: the top "
        "half of the seeding list carries virtual points, so the top seeds meet early; for "
        "large fields). See docs/events.md."
    ),
    column="events.acceleration",
    metavar="none|baku",
    choices=(
        ("none", N_("none")),
        ("baku", N_("Baku: the top half carries virtual points in the first rounds")),
    ),
)
REPEATED_FLOATS = Option(
    "repeated_floats",
    "text",
    default="allow",
    label=N_("A float repeated from the round before"),
    help=N_(
        "'avoid' spares a player floating to another score group the same way two rounds "
        "running where the score differences and the dealer balance allow (FIDE's Dutch "
        "system); 'allow' (the default) pairs as tally always has. See docs/events.md."
    ),
    column="events.repeated_floats",
    metavar="allow|avoid",
    choices=(("allow", N_("allowed")), ("avoid", N_("avoided where the scores allow"))),
)
MAX_ABSENCES = Option(
    "max_absences",
    "whole",
    low=0,
    high=99,
    optional=True,
    label=N_("Requested byes a player may ask for"),
    help=N_(
        "How many requested byes (announced absences) a player may ask for (default: no limit)."
    ),
    hint=N_("empty: no limit"),
    column="events.max_absences",
    metavar="N",
)
NO_ABSENCE_LAST = Option(
    "no_absence_last",
    "whole",
    low=0,
    high=99,
    default=0,
    label=N_("No requested bye in the last rounds"),
    help=N_("No requested bye in the last N rounds (default 0: none closed)."),
    column="events.no_absence_last",
    metavar="N",
    form_value="0",
)
APART_UNTIL = Option(
    "apart_until",
    "whole",
    low=1,
    high=10_000,
    optional=True,
    label=N_("Pairs kept apart until round"),
    help=N_(
        "Keep the pairs kept apart (tally event apart) only until round N (default: every round)."
    ),
    hint=N_("empty: every round"),
    column="events.apart_until",
    flag="--apart-until-round",
    metavar="N",
)
APART_KEEPS_BYE = Option(
    "apart_keeps_bye",
    "bool",
    default=False,
    label=N_("A pair kept apart gives way before it moves the bye"),
    help=N_(
        "A pair kept apart gives way before it moves the bye to another player (a scoring "
        "bye to a leader, say)."
    ),
    column="events.apart_keeps_bye",
)
ABSENCE_SCORE = Option(
    "absence_score",
    "text",
    default="half",
    label=N_("A requested bye (an announced absence) scores"),
    help=N_(
        "What a requested bye scores (a player's absence announced with `tally event absent` "
        "before the round is paired): half a win (the default, FIDE's common practice) or "
        "nothing. See docs/events.md."
    ),
    column="events.absence_score",
    metavar="half|zero",
    choices=(("half", N_("half a win")), ("zero", N_("nothing"))),
)


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
    summary = N_("--rounds N rounds, each paired from the standings")
    options = (
        ROUNDS,
        MATCHES_PER_PAIRING,
        ACCELERATION,
        REPEATED_FLOATS,
        MAX_ABSENCES,
        NO_ABSENCE_LAST,
        APART_UNTIL,
        APART_KEEPS_BYE,
        UNPLAYED,
        SEED_BY,
        ABSENCE_SCORE,
    )
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
            option = ROUNDS.advice(metavar=True, field=True)
            if rounds is None:
                raise Refused(
                    Message(
                        N_(
                            "a Swiss event plays 1 to %(most)s rounds: give their number "
                            "(%(option)s)"
                        ),
                        most=MAX_SWISS_ROUNDS,
                        option=option,
                    )
                )
            raise Refused(
                Message(
                    N_(
                        "a Swiss event plays 1 to %(most)s rounds: give their number "
                        "(%(option)s), not %(rounds)s"
                    ),
                    most=MAX_SWISS_ROUNDS,
                    option=option,
                    rounds=rounds,
                )
            )
        if given.double:
            raise Refused(
                Message(
                    N_("a Swiss event is paired round by round: %(option)s is for round robins"),
                    option=DOUBLE.advice(),
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
