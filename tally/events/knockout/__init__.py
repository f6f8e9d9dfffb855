"""Knockouts, as pure code on plain values: a knockout with lives ("Preisschnapsen") and groups
then knockout. Nothing here is stored; the store reads an event's :class:`KnockoutState` and
keeps what :func:`next_round` makes (:mod:`tally.store.knockouts`).

- :mod:`~tally.events.knockout.lives`: the draw by lot, the play-off draw, lives, buy-backs,
  the ranking by stage;
- :mod:`~tally.events.knockout.bracket`: brackets, seeding, groups as a snake, best of N;
- :mod:`~tally.events.knockout.state`: the event as it stands (:class:`KnockoutState`);
- :mod:`~tally.events.knockout.stages`: lives over the rounds, the final stage's fill, the
  groups' and the ordinary standings, the bracket with its results, how far each player got;
- :mod:`~tally.events.knockout.rounds`: the next round (:func:`next_round`), through the same
  door as every format (``EventFormat.next_round``);
- :mod:`~tally.events.knockout.words`: what a knockout says of itself, as messages.
"""

from __future__ import annotations

from tally.events.knockout.bracket import (
    MAX_BEST_OF,
    TBD,
    BracketMatch,
    bracket_rounds,
    bracket_size,
    champion,
    check_best_of,
    group_slots,
    reached,
    seed_order,
    seeded_slots,
    series,
    snake_groups,
)
from tally.events.knockout.lives import (
    MAX_LIVES,
    Draw,
    LifeLine,
    Outcome,
    buy_back_refusal,
    count_lives,
    draw_playoff,
    draw_round,
    rank_by_stage,
)
from tally.events.knockout.rounds import DrawnRound, next_round
from tally.events.knockout.state import Entrant, KnockoutState, Match

__all__ = [
    "MAX_BEST_OF",
    "MAX_LIVES",
    "TBD",
    "BracketMatch",
    "Draw",
    "DrawnRound",
    "Entrant",
    "KnockoutState",
    "LifeLine",
    "Match",
    "Outcome",
    "bracket_rounds",
    "bracket_size",
    "buy_back_refusal",
    "champion",
    "check_best_of",
    "count_lives",
    "draw_playoff",
    "draw_round",
    "group_slots",
    "next_round",
    "rank_by_stage",
    "reached",
    "seed_order",
    "seeded_slots",
    "series",
    "snake_groups",
]
