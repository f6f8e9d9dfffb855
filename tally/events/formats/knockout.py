"""A knockout with lives: every player starts with ``lives`` lives (3 by default), each lost
match costs one, and the draw of every round is made from ``draw_seed``; an optional final
stage (``final_size``) is a bracket, filled by play-offs or tiebreaks (``final_fill``) when
a round leaves it short. Its rounds, draw and standings are :mod:`tally.events.knockout`'s,
kept by :mod:`tally.store.knockouts`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tally.errors import Message, Refused
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
from tally.events.formats.options import BEST_OF, SEED_BY
from tally.events.knockout import MAX_LIVES, DrawnRound, check_best_of, next_round
from tally.events.knockout.lives import LIVES_RANGE
from tally.i18n import N_

#: The longest seed of a draw.
SEED_LENGTH = 100
#: How a knockout fills its final stage when a round leaves it short (the first: the default)
FINAL_FILLS = ("playoff", "tiebreaks")
#: the refusals of a knockout's settings
WRONG_FINAL_SIZE = N_("the final stage is a bracket of 2, 4, 8, 16, 32 or 64 players, not %(n)s")
WRONG_FINAL_FILL = N_("--final-fill is playoff or tiebreaks, not %(fill)s")
WRONG_SEED = N_("a seed is at most %(n)s characters, no control characters")

LIVES = Option(
    "lives",
    "whole",
    low=1,
    high=100,
    optional=True,
    label=N_("Lives"),
    help=N_("Each player's lives (default 3); a lost match costs one."),
    column="event_formats.lives",
    form_value="3",
)
SEED = Option(
    "seed",
    "text",
    "draw_seed",
    optional=True,
    label=N_("Seed of the draw"),
    help=N_(
        "The seed of the draw by lot (default: the time of creation); printed on the pairings."
    ),
    hint=N_("empty: the time now"),
    column="event_formats.draw_seed",
    metavar="S",
)
FINAL = Option(
    "final",
    "whole",
    "final_size",
    low=2,
    high=64,
    optional=True,
    label=N_("Final stage"),
    help=N_("The last N players (2, 4, 8, ...) play a straight knockout bracket."),
    hint=N_("the last 2, 4, 8 … play a bracket; empty: none"),
    column="event_formats.final_size",
    metavar="N",
)
FINAL_FILL = Option(
    "final_fill",
    "text",
    optional=True,
    label=N_("A final stage left short by a round is filled by"),
    help=N_(
        "When a round leaves fewer players than the final stage holds, the players out in "
        "that round play off for the places left (playoff, the default) or the best of them "
        "by the event's standings go through (tiebreaks)."
    ),
    column="event_formats.final_fill",
    metavar="playoff|tiebreaks",
    choices=(
        ("playoff", N_("a play-off among the players out in that round")),
        ("tiebreaks", N_("the best of them by the standings")),
    ),
    form_value="playoff",
)


@dataclass(frozen=True)
class KnockoutSettings(Settings):
    lives: int
    draw_seed: str
    final_size: int | None
    final_fill: str
    best_of: int = 1

    def draw(self) -> dict[str, Any]:
        return {
            "lives": self.lives,
            "draw_seed": self.draw_seed,
            "final_size": self.final_size,
            "groups": None,
            "advance": None,
            "final_fill": self.final_fill,
            "best_of": self.best_of,
        }


class Knockout(EventFormat):
    kind = "knockout"
    file_names = ("knockout",)
    title = N_("knockout with lives")
    audit_name = "knockout"
    loaded_name = N_("knockout")
    standings_name = N_("knockout, ranked by elimination")
    article_name = "a knockout event"
    round_maker = "the draw"
    summary = N_("lives, each round drawn by lot")
    options = (LIVES, SEED, FINAL, FINAL_FILL, BEST_OF, SEED_BY)
    ranking_note = N_(
        "Ranked by how far each player got (in the final stage: the round reached; before it: "
        "the round out in, the later the better, players still in by lives left), then match "
        "points%(tiebreaks)s, then play-offs (Stechen)."
    )
    ranks_by_elimination = True
    has_lives = True
    takes_late_entries = True
    seeds_by_rating = True

    def settings(self, given: Given) -> KnockoutSettings:
        refuse_rounds(given)
        refuse_ordering(given)
        refuse_double_and_several_matches(self, given)
        wrong = given_draw_options(given, but=self.options)
        if wrong:
            raise Refused(
                Message(
                    N_("%(options)s: for groups (%(kind)s), not a knockout"),
                    options=named_options(wrong),
                    kind=kind_option("groups"),
                )
            )
        lives = 3 if given.lives is None else given.lives
        if not 1 <= lives <= MAX_LIVES:
            raise Refused(Message(LIVES_RANGE, most=MAX_LIVES, lives=lives))
        final_size, final_fill = given.final_size, given.final_fill
        if final_size is not None and (
            final_size < 2 or final_size & (final_size - 1) or final_size > 64
        ):
            raise Refused(Message(WRONG_FINAL_SIZE, n=final_size))
        if final_fill is not None and final_fill not in FINAL_FILLS:
            raise Refused(Message(WRONG_FINAL_FILL, fill=repr(final_fill)))
        if final_fill is not None and final_size is None:
            raise Refused(
                Message(
                    N_("--final-fill: only with a final stage (%(option)s)"),
                    option=FINAL.advice(metavar=True, field=True),
                )
            )
        if given.best_of is not None and final_size is None:
            raise Refused(
                Message(
                    N_("--best-of: only with a final stage (%(option)s)"),
                    option=FINAL.advice(metavar=True, field=True),
                )
            )
        seed = (given.draw_seed if given.draw_seed is not None else "").strip()
        if not seed:
            seed = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        if len(seed) > SEED_LENGTH or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in seed):
            raise Refused(Message(WRONG_SEED, n=SEED_LENGTH))
        return KnockoutSettings(
            lives, seed, final_size, final_fill or FINAL_FILLS[0], checked_best_of(given)
        )

    def next_round(self, state: RoundState) -> DrawnRound:
        assert state.knockout is not None
        return next_round(state.knockout, state.number)

    def json_options(self, event: StoredEvent, draw: Mapping[str, Any] | None) -> dict[str, Any]:
        assert draw is not None
        return {
            "lives": draw["lives"],
            "seed": draw["draw_seed"],
            "final": draw["final_size"],
            "final_fill": None if draw["final_size"] is None else draw["final_fill"],
        } | best_of_option(draw)


def checked_best_of(given: Given) -> int:
    """The best of N given (1 when not), checked
    (:func:`tally.events.knockout.bracket.check_best_of`)."""
    return 1 if given.best_of is None else check_best_of(given.best_of)


def best_of_option(draw: Mapping[str, Any]) -> dict[str, Any]:
    """``best_of`` for an export, when the bracket is played best of more than one match."""
    return {"best_of": draw["best_of"]} if draw.get("best_of", 1) != 1 else {}
