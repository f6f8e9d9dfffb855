"""Groups then knockout: the players, in seed order, are snaked into ``groups`` groups that
each play a round robin; the best ``advance`` of each go into a bracket. Its rounds, draw and
standings are :mod:`tally.store.knockouts`' (with :mod:`tally.events.bracket`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tally.errors import Message, Refused, option
from tally.events.formats.base import (
    EventFormat,
    Given,
    Option,
    R,
    RoundMaker,
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
from tally.i18n import N_


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
    options = (
        Option("groups", "whole", low=1, high=100),
        Option("advance", "whole", low=1, high=10_000),
        Option("best_of", "whole", low=1, high=99),
    )
    ranking_note = N_(
        "Ranked by how far each player got (in the bracket: the round reached; before it: the "
        "place in the group), then match points%(tiebreaks)s, then play-offs (Stechen)."
    )
    form_fields = ("groups", "advance", "seed_by")
    has_scheduled_pairings = True
    ranks_by_elimination = True
    has_groups = True
    seeds_by_rating = True

    def settings(self, given: Given) -> GroupsSettings:
        refuse_rounds(given)
        refuse_ordering(given)
        refuse_double_and_several_matches(self, given)
        wrong = given_draw_options(given, ("--lives", "--seed", "--final", "--final-fill"))
        if wrong:
            raise Refused(
                Message(
                    N_("%(options)s: for a knockout (%(kind)s), not groups"),
                    options=named_options(wrong),
                    kind=kind_option(N_("--kind knockout"), "knockout"),
                )
            )
        if given.bye != "none":
            raise Refused(
                Message(
                    N_("a bye in a group scores nothing (%(option)s)"),
                    option=option(N_("--bye none"), N_("A bye"), field=True, value=N_("none")),
                )
            )
        groups, advance, players = given.groups, given.advance, given.players
        if groups is None or advance is None:
            raise Refused(
                Message(
                    N_("groups then knockout needs %(groups)s and %(advance)s"),
                    groups=option(N_("--groups G"), N_("Groups")),
                    advance=option(N_("--advance K"), N_("Going through")),
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
                    option=option(N_("--advance"), N_("Going through")),
                    most=smallest,
                    advance=advance,
                )
            )
        if groups * advance > 64:
            raise Refused(N_("at most 64 players go into the bracket"))
        return GroupsSettings(groups, advance, checked_best_of(given))

    def start_round(self, rounds: RoundMaker[R], number: int) -> R:
        return rounds.drawn(number)

    def json_options(self, event: StoredEvent, draw: Mapping[str, Any] | None) -> dict[str, Any]:
        assert draw is not None
        return {"groups": draw["groups"], "advance": draw["advance"]} | best_of_option(draw)
