"""Groups then knockout: the players, in seed order, are snaked into ``groups`` groups that
each play a round robin; the best ``advance`` of each go into a bracket. Its rounds, draw and
standings are :mod:`tally.events.knockout`'s, kept by :mod:`tally.store.knockouts`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tally.errors import Message, Refused, option
from tally.events.formats.base import (
    EventFormat,
    Given,
    Option,
    RoundState,
    Settings,
    StoredEvent,
    given_draw_options,
    kind_option,
    named_options,
    refuse_double_and_several_matches,
    refuse_ordering,
    refuse_rounds,
)
from tally.events.formats.knockout import FINAL_FILLS, best_of_option, checked_best_of
from tally.events.formats.options import BEST_OF, SEED_BY
from tally.events.knockout import DrawnRound, next_round
from tally.i18n import N_

GROUPS = Option(
    "groups",
    "whole",
    low=1,
    high=100,
    label=N_("Groups"),
    help=N_("How many groups (snake-seeded by the seeding list, --seed-by)."),
    column="event_formats.groups",
    metavar="G",
)
ADVANCE = Option(
    "advance",
    "whole",
    low=1,
    high=10_000,
    label=N_("Going through"),
    help=N_("How many of each group go into the bracket."),
    hint=N_("from each group"),
    column="event_formats.advance",
    metavar="K",
)


@dataclass(frozen=True)
class GroupsSettings(Settings):
    groups: int
    advance: int
    best_of: int = 1

    def draw(self) -> dict[str, Any]:
        return {
            "lives": None,
            "draw_seed": None,
            "final_size": None,
            "groups": self.groups,
            "advance": self.advance,
            "final_fill": FINAL_FILLS[0],
            "best_of": self.best_of,
        }


class Groups(EventFormat):
    kind = "groups"
    file_names = ("groups",)
    title = N_("groups then knockout")
    audit_name = "groups"
    loaded_name = N_("groups event")
    standings_name = N_("groups then knockout, ranked by elimination")
    article_name = "a groups event"
    round_maker = "the draw"
    summary = N_("round-robin groups, then a knockout bracket")
    options = (GROUPS, ADVANCE, BEST_OF, SEED_BY)
    ranking_note = N_(
        "Ranked by how far each player got (in the bracket: the round reached; before it: the "
        "place in the group), then match points%(tiebreaks)s, then play-offs (Stechen)."
    )
    has_scheduled_pairings = True
    ranks_by_elimination = True
    has_groups = True
    seeds_by_rating = True

    def settings(self, given: Given) -> GroupsSettings:
        refuse_rounds(given)
        refuse_ordering(given)
        refuse_double_and_several_matches(self, given)
        wrong = given_draw_options(given, but=self.options)
        if wrong:
            raise Refused(
                Message(
                    N_("%(options)s: for a knockout (%(kind)s), not groups"),
                    options=named_options(wrong),
                    kind=kind_option("knockout"),
                )
            )
        if given.bye != "none":
            raise Refused(
                Message(
                    N_("a bye in a group scores nothing (%(option)s)"),
                    option=option("--bye none", N_("A bye"), field=True, value=N_("none")),
                )
            )
        groups, advance, players = given.groups, given.advance, given.players
        if groups is None or advance is None:
            raise Refused(
                Message(
                    N_("groups then knockout needs %(groups)s and %(advance)s"),
                    groups=GROUPS.advice(metavar=True),
                    advance=ADVANCE.advice(metavar=True),
                )
            )
        if not 1 <= groups <= 32:
            raise Refused(Message(N_("there are 1 to 32 groups, not %(groups)s"), groups=groups))
        if players and players < 2 * groups:
            raise Refused(
                Message(
                    N_("%(groups)s groups need at least %(least)s players, not %(players)s"),
                    groups=groups,
                    least=2 * groups,
                    players=players,
                )
            )
        smallest = players // groups if players else 2
        if not 1 <= advance <= smallest or groups * advance < 2:
            raise Refused(
                Message(
                    N_(
                        "%(option)s must be from 1 to %(most)s (the smallest group) with at "
                        "least 2 going through, not %(advance)s"
                    ),
                    option=ADVANCE.advice(),
                    most=smallest,
                    advance=advance,
                )
            )
        if groups * advance > 64:
            raise Refused(N_("at most 64 players go into the bracket"))
        return GroupsSettings(groups, advance, checked_best_of(given))

    def next_round(self, state: RoundState) -> DrawnRound:
        assert state.knockout is not None
        return next_round(state.knockout, state.number)

    def json_options(self, event: StoredEvent, draw: Mapping[str, Any] | None) -> dict[str, Any]:
        assert draw is not None
        return {"groups": draw["groups"], "advance": draw["advance"]} | best_of_option(draw)
