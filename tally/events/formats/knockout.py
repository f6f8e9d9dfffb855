"""A knockout with lives: every player starts with ``lives`` lives (3 by default), each lost
match costs one, and the draw of every round is made from ``draw_seed``; an optional final
stage (``final_size``) is a bracket, filled by play-offs or tiebreaks (``final_fill``) when
a round leaves it short. Its rounds, draw and standings are :mod:`tally.store.knockouts`'
(with :mod:`tally.events.knockout` and :mod:`tally.events.bracket`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tally.errors import Message, Refused, option
from tally.events.bracket import check_best_of
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
from tally.events.knockout import MAX_LIVES
from tally.i18n import N_

#: The longest seed of a draw.
SEED_LENGTH = 100
#: How a knockout fills its final stage when a round leaves it short (the first: the default)
FINAL_FILLS = ("playoff", "tiebreaks")


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
    options = (
        Option("lives", "whole", low=1, high=100, optional=True),
        Option("seed", "text", "draw_seed", optional=True),
        Option("final", "whole", "final_size", low=2, high=64, optional=True),
        Option("final_fill", "text", optional=True),
        Option("best_of", "whole", low=1, high=99),
    )
    ranking_note = N_(
        "Ranked by how far each player got (in the final stage: the round reached; before it: "
        "the round out in, the later the better, players still in by lives left), then match "
        "points%(tiebreaks)s, then play-offs (Stechen)."
    )
    form_fields = ("lives", "seed", "final", "final_fill", "seed_by")
    ranks_by_elimination = True
    has_lives = True
    takes_late_entries = True
    seeds_by_rating = True

    def settings(self, given: Given) -> KnockoutSettings:
        refuse_rounds(given)
        refuse_ordering(given)
        refuse_double_and_several_matches(self, given)
        wrong = given_draw_options(given, ("--groups", "--advance"))
        if wrong:
            raise Refused(
                Message(
                    N_("%(options)s: for groups (%(kind)s), not a knockout"),
                    options=named_options(wrong),
                    kind=kind_option(N_("--kind groups"), "groups"),
                )
            )
        lives = 3 if given.lives is None else given.lives
        if not 1 <= lives <= MAX_LIVES:
            raise Refused(f"a knockout gives each player 1 to {MAX_LIVES} lives, not {lives}")
        final_size, final_fill = given.final_size, given.final_fill
        if final_size is not None and (
            final_size < 2 or final_size & (final_size - 1) or final_size > 64
        ):
            raise Refused(
                f"the final stage is a bracket of 2, 4, 8, 16, 32 or 64 players, not {final_size}"
            )
        if final_fill is not None and final_fill not in FINAL_FILLS:
            raise Refused(f"--final-fill is {' or '.join(FINAL_FILLS)}, not {final_fill!r}")
        if final_fill is not None and final_size is None:
            raise Refused(
                Message(
                    N_("--final-fill: only with a final stage (%(option)s)"),
                    option=option(N_("--final N"), N_("Final stage"), field=True),
                )
            )
        if given.best_of is not None and final_size is None:
            raise Refused(
                Message(
                    N_("--best-of: only with a final stage (%(option)s)"),
                    option=option(N_("--final N"), N_("Final stage"), field=True),
                )
            )
        seed = (given.draw_seed if given.draw_seed is not None else "").strip()
        if not seed:
            seed = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        if len(seed) > SEED_LENGTH or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in seed):
            raise Refused(f"a seed is at most {SEED_LENGTH} characters, no control characters")
        return KnockoutSettings(
            lives, seed, final_size, final_fill or FINAL_FILLS[0], checked_best_of(given)
        )

    def start_round(self, rounds: RoundMaker[R], number: int) -> R:
        return rounds.drawn(number)

    def json_options(self, event: StoredEvent, draw: Mapping[str, Any] | None) -> dict[str, Any]:
        assert draw is not None
        return {
            "lives": draw["lives"],
            "seed": draw["draw_seed"],
            "final": draw["final_size"],
            "final_fill": None if draw["final_size"] is None else draw["final_fill"],
        } | best_of_option(draw)


def checked_best_of(given: Given) -> int:
    """The best of N given (1 when not), checked (:func:`tally.events.bracket.check_best_of`)."""
    return 1 if given.best_of is None else check_best_of(given.best_of)


def best_of_option(draw: Mapping[str, Any]) -> dict[str, Any]:
    """``best_of`` for an export, when the bracket is played best of more than one match."""
    return {"best_of": draw["best_of"]} if draw.get("best_of", 1) != 1 else {}
