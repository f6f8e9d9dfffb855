"""Accelerated Swiss pairings (Baku acceleration, FIDE C.04.5.1): `tally event create
--acceleration baku`: the top half of the seeding list meets itself in the first rounds,
the virtual points never reach the standings, and the event file keeps the option."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tally.events.swiss import baku_points
from tests.store_support import ok, refused

EIGHT = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini", "Gust", "Hilde"]


def test_the_virtual_points_of_a_nine_round_event() -> None:
    # 5 accelerated rounds: 1 point in the first 3, half a point in rounds 4 and 5
    assert [baku_points(30, 9, r)[1] for r in range(1, 10)] == [
        1.0,
        1.0,
        1.0,
        0.5,
        0.5,
        0.0,
        0.0,
        0.0,
        0.0,
    ]
    # group A: the first half rounded up to an even number
    assert [baku_points(n, 5, 1)[0] for n in (8, 9, 10, 12, 13)] == [4, 6, 6, 6, 8]


def pairs(url: str, event: str, number: int) -> set[frozenset[str]]:
    rnd = json.loads(ok(url, "event", "round", event, str(number), "--json"))
    return {frozenset((p["first"], p["second"])) for p in rnd["pairings"]}


def test_round_one_pairs_the_top_half_among_itself(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", *EIGHT)
    ok(
        db_url,
        "event",
        "create",
        "Fast",
        *EIGHT,
        "--kind",
        "swiss",
        "--rounds",
        "4",
        "--acceleration",
        "baku",
    )
    ok(db_url, "event", "create", "Plain", *EIGHT, "--kind", "swiss", "--rounds", "4")
    # group A (Anna Bert Carl Dora) carries a virtual point: two score groups of four
    assert pairs(db_url, "Fast", 1) == {
        frozenset(p)
        for p in (("Anna", "Carl"), ("Bert", "Dora"), ("Emil", "Gust"), ("Fini", "Hilde"))
    }
    assert pairs(db_url, "Plain", 1) == {
        frozenset(p)
        for p in (("Anna", "Emil"), ("Bert", "Fini"), ("Carl", "Gust"), ("Dora", "Hilde"))
    }
    ok(db_url, "event", "round", "Fast", "1", "--start")
    # nothing played yet: the virtual points are not match points
    standings = json.loads(ok(db_url, "standings", "Fast", "--json"))
    assert {r["match_points"] for r in standings["rows"]} == {0.0}
    exported = json.loads(ok(db_url, "event", "export", "Fast"))
    assert exported["options"]["acceleration"] == "baku"
    assert "acceleration" not in json.loads(ok(db_url, "event", "export", "Plain"))["options"]
    (tmp_path / "fast.json").write_text(json.dumps(exported), encoding="utf-8")
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(other, "load", str(tmp_path / "fast.json"))
    assert pairs(other, "Fast", 1) == pairs(db_url, "Fast", 1)


def test_acceleration_is_for_swiss_events_and_named(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    refused(
        db_url,
        "event",
        "create",
        "R",
        "Anna",
        "Bert",
        "--kind",
        "round-robin",
        "--acceleration",
        "baku",
        match="is for a Swiss event",
    )
    refused(
        db_url,
        "event",
        "create",
        "S",
        "Anna",
        "Bert",
        "--kind",
        "swiss",
        "--rounds",
        "1",
        "--acceleration",
        "fast",
        match='acceleration must be none or baku, not "fast"',
    )


def test_late_entries_do_not_grow_group_a(store: Any) -> None:
    from tally.store.derivation import rule_set

    late = ["Ida", "Jakob", "Karl", "Lena"]
    for name in EIGHT + late:
        store.players.add(name)
    ev = store.events.create("Fast", kind="swiss", players=EIGHT, rounds=4, acceleration="baku").id
    target = rule_set("sixty-six").match_target
    for p in store.events.start_round(ev, 1).pairings:  # group A: Anna to Dora
        winner = min(p.first, p.second, key=EIGHT.index)
        store.deals.match_result(p.matches[0].match_id, (target, 0), winner=winner)
    store.events.add_players(ev, late)  # 12 players now: group A stays the first four
    # round 2: Anna and Bert 1 + 0.5 virtual, alone at the top; Emil and Fini 1, in group B
    rnd = store.events.start_round(ev, 2)
    assert {frozenset((p.first, p.second)) for p in rnd.pairings} >= {
        frozenset(("Anna", "Bert")),
        frozenset(("Emil", "Fini")),
    }
