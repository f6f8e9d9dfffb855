"""A double round robin with FIDE's swap of the last two rounds of the first cycle
(tally.events.schedule, `tally event create --double --swap-last-rounds`): the schedule, the store,
the event file and what is refused."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from tally.errors import Refused
from tally.events.schedule import berger_schedule
from tests.store_support import ok, refused


def longest_run(players: list[str], swap: bool) -> int:
    """The most matches running any player deals first (or second) in, byes skipped."""
    rounds = berger_schedule(players, double=True, swap_last=swap)
    longest = 0
    for p in players:
        roles = [q.first == p for r in rounds for q in r.pairings if p in (q.first, q.second)]
        run = 1
        for before, now in itertools.pairwise(roles):
            run = run + 1 if now == before else 1
            longest = max(longest, run)
    return longest


@pytest.mark.parametrize("n", range(3, 17))
def test_the_swap_leaves_nobody_three_matches_running_in_one_role(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    assert longest_run(players, True) == 2
    # without it, an even field has someone three running across the cycles
    assert longest_run(players, False) == (3 if n % 2 == 0 else 2)


def test_the_first_cycles_last_two_rounds_change_places() -> None:
    plain = berger_schedule(list("abcd"), double=True)
    swapped = berger_schedule(list("abcd"), double=True, swap_last=True)
    assert [r.number for r in swapped] == [1, 2, 3, 4, 5, 6]
    assert swapped[1].pairings == plain[2].pairings and swapped[2].pairings == plain[1].pairings
    assert swapped[0] == plain[0] and swapped[3:] == plain[3:]
    # a single round robin is never swapped
    assert berger_schedule(list("abcd"), swap_last=True) == berger_schedule(list("abcd"))


def test_a_double_round_robin_with_the_swap_from_the_command_line(
    db_url: str, tmp_path: Path
) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl", "Dora")
    ok(
        db_url,
        "event",
        "create",
        "Liga",
        "Anna",
        "Bert",
        "Carl",
        "Dora",
        "--kind",
        "round-robin",
        "--double",
        "--swap-last-rounds",
    )
    ok(
        db_url,
        "event",
        "create",
        "Plain",
        "Anna",
        "Bert",
        "Carl",
        "Dora",
        "--kind",
        "round-robin",
        "--double",
    )

    def pairs(event: str, number: int) -> list[tuple[str, str]]:
        rnd = json.loads(ok(db_url, "event", "round", event, str(number), "--json"))
        return [(p["first"], p["second"]) for p in rnd["pairings"]]

    assert pairs("Liga", 2) == pairs("Plain", 3) and pairs("Liga", 3) == pairs("Plain", 2)
    assert pairs("Liga", 4) == pairs("Plain", 4)
    exported = json.loads(ok(db_url, "event", "export", "Liga"))
    assert exported["options"]["swap_last_rounds"] is True
    assert "swap_last_rounds" not in json.loads(ok(db_url, "event", "export", "Plain"))["options"]
    # the event file keeps it: loaded into another database, the same schedule
    (tmp_path / "liga.json").write_text(json.dumps(exported), encoding="utf-8")
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(other, "load", str(tmp_path / "liga.json"))
    assert json.loads(ok(other, "event", "export", "Liga"))["options"]["swap_last_rounds"]
    assert (
        json.loads(ok(other, "event", "round", "Liga", "2", "--json"))["pairings"]
        == json.loads(ok(db_url, "event", "round", "Liga", "2", "--json"))["pairings"]
    )


def test_the_swap_is_only_for_a_double_round_robin(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl")
    refused(
        db_url,
        "event",
        "create",
        "X",
        "Anna",
        "Bert",
        "Carl",
        "--kind",
        "round-robin",
        "--swap-last-rounds",
        match="--swap-last-rounds is for a double round robin",
    )
    refused(
        db_url,
        "event",
        "create",
        "Y",
        "Anna",
        "Bert",
        "Carl",
        "--kind",
        "swiss",
        "--rounds",
        "2",
        "--swap-last-rounds",
        match="is for a double round robin",
    )


def test_the_swap_is_refused_by_the_store_for_a_club_evening(store: Any) -> None:
    store.players.add("Anna")
    store.players.add("Bert")
    with pytest.raises(Refused, match="double round robin"):
        store.events.create("Club", players=["Anna", "Bert"], swap_last_rounds=True)
