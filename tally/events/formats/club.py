"""A club evening: no schedule; matches are started in any pairing, as many per pair as are
played, and ranked by the match-point percentage (players play different numbers)."""

from __future__ import annotations

from typing import ClassVar

from tally.events.formats.base import EventFormat, R, RoundMaker
from tally.i18n import N_


class ClubEvening(EventFormat):
    kind = "club"
    file_names = ("club-evening", "club")
    title = N_("club evening")
    audit_name = "club evening"
    loaded_name = N_("club evening")
    standings_name = N_("club evening")
    article_name = "a club evening"
    summary = N_("a club evening: any pairing, any number of matches")
    has_rounds = False
    counts_in_the_season = True
    exports_as_folder = True
    default_rank_by: ClassVar[str] = "percentage"

    def start_round(self, rounds: RoundMaker[R], number: int) -> R:
        return rounds.refused()
