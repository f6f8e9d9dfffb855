"""A Swiss event pairs its next round in the order of the standings it publishes: with
FIDE's virtual opponent for unplayed rounds (``unplayed="virtual-opponent"``) the tiebreaks
that order the score groups are the standings' own, so the bye goes to the lowest-ranked
player of the published table who may have it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tally.store.derivation import rule_set


def played_event(store: Any, seed: int) -> int:
    """Three rounds of a Swiss event of 5, 7 or 9 players, the winners drawn by ``seed``."""
    draw = random.Random(seed)
    names = [f"P{k}" for k in range(draw.choice([5, 7, 9]))]
    for name in names:
        store.players.add(name)
    ev = store.events.create(
        "Open", kind="swiss", players=names, rounds=4, bye="win", unplayed="virtual-opponent"
    ).id
    target = rule_set("sixty-six").match_target
    for number in (1, 2, 3):
        for p in store.events.start_round(ev, number).pairings:
            winner = draw.choice([p.first, p.second])
            store.deals.match_result(p.matches[0].match_id, (target, 0), winner=winner)
    return ev


@pytest.mark.parametrize("seed", [30, 35, 38])
def test_the_bye_goes_to_the_last_of_the_published_standings_under_the_virtual_opponent(
    store: Any, seed: int
) -> None:
    ev = played_event(store, seed)
    rows = store.events.standings(ev).rows
    fewest = min(r.byes for r in rows)
    last = [r.player for r in rows if r.byes == fewest][-1]
    (following,) = store.events.rounds(ev, 4)
    assert following.bye == last


def test_the_keep_apart_settings_are_kept_with_the_event_and_in_its_file(store: Any) -> None:
    import json

    from tally.errors import Refused
    from tally.files.exporting import event_json

    for name in ("Anna", "Bert", "Carl"):
        store.players.add(name)
    players = ["Anna", "Bert", "Carl"]
    ev = store.events.create(
        "Open", kind="swiss", players=players, rounds=3, apart_until=2, apart_keeps_bye=True
    )
    assert (ev.apart_until, ev.apart_keeps_bye) == (2, True)
    options = json.loads(event_json(store, ev.id))["options"]
    assert (options["apart_until"], options["apart_keeps_bye"]) == (2, True)
    with pytest.raises(Refused, match="for a Swiss event"):
        store.events.create("Robin", kind="round-robin", players=players, apart_until=1)
