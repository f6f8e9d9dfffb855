"""Who floats down in a Swiss round: the whole round chosen at once (tally.events.swiss), so that
the players who drop to a lower score group are those that let the groups below pair. The
21-player case of issue 25 through `tally load` and `tally event round`, and random small
fields against every perfect matching, enumerated here by brute force."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tally.cli import app
from tally.errors import NoPairing, TallyError
from tally.events.swiss import SwissPlayer, pair_round

CASE = Path(__file__).parents[1] / "data" / "cases" / "swiss-21-round6-floater.json"


def load(tmp_path: Path, data: dict[str, object]) -> tuple[str, str]:
    """``data`` written as an event file and loaded into a new database: the output and the
    database's path."""
    path = tmp_path / "event.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    db = str(tmp_path / "t.db")
    result = CliRunner().invoke(app, ["load", str(path), "--db", db])
    return result.output, db


def test_the_floater_is_the_one_that_lets_the_next_group_pair(tmp_path: Path) -> None:
    # Before round 6: seven players on 2 points, P009 on 1, P017 and P014 on 0; P006 (2) has
    # met P009 and P014. Dropping P006 would leave P006-P017 (2 apart) and force P009-P014;
    # dropping another 2-point player onto P009 (1 apart) leaves P017-P014 level and P006
    # paired in its group.
    data = json.loads(CASE.read_text(encoding="utf-8"))
    data["rounds"] = [r for r in data["rounds"] if r["round"] < 6]
    data["matches"] = [m for m in data["matches"] if m["round"] < 6]
    output, db = load(tmp_path, data)
    assert "Loaded" in output, output
    runner = CliRunner()
    started = runner.invoke(app, ["event", "round", "sw", "6", "--start", "--json", "--db", db])
    assert started.exit_code == 0, started.output
    pairs = {frozenset((p["first"], p["second"])) for p in json.loads(started.output)["pairings"]}
    standings = json.loads(runner.invoke(app, ["standings", "sw", "--json", "--db", db]).output)
    points = {r["player"]: r["match_points"] for r in standings["rows"]}
    assert frozenset(("P017", "P014")) in pairs
    assert not any("P006" in p and ({"P017", "P009", "P014"} & p) for p in pairs)
    (p009,) = [p for p in pairs if "P009" in p]
    assert {points[k] for k in p009} == {1.0, 2.0}
    # P012 (5 points) has met both 4-point players and must drop two groups, as before; the
    # one other gap is P009's single point (today's pairing had a second gap of 2)
    gaps = sorted((abs(points[a] - points[b]) for a, b in map(tuple, pairs)), reverse=True)
    assert gaps == [2.0, 1.0] + [0.0] * 8


def test_the_old_floater_pairing_is_not_loaded_as_tallys(tmp_path: Path) -> None:
    # the file's round 6 is the pairing tally made before: it drops P006 onto P017
    output, _ = load(tmp_path, json.loads(CASE.read_text(encoding="utf-8")))
    assert "round 6 table" in output and "by the Swiss pairing" in output, output


def perfect_matchings(keys: list[str]) -> list[list[tuple[str, str]]]:
    """Every way to split ``keys`` (an even number) into pairs."""
    if not keys:
        return [[]]
    first, rest = keys[0], keys[1:]
    return [
        [(first, b), *more] for b in rest for more in perfect_matchings([k for k in rest if k != b])
    ]


def value(pairs: list[tuple[str, str]], by: dict[str, SwissPlayer]) -> tuple[object, ...]:
    """What makes a round better, smaller first: the score gaps largest first, then the
    pairs of two players who both dealt first more often than second (or both less)."""
    gaps = sorted((abs(by[a].points - by[b].points) for a, b in pairs), reverse=True)

    def lean(k: str) -> int:
        return (by[k].balance > 0) - (by[k].balance < 0)

    conflicts = sum(1 for a, b in pairs if lean(a) != 0 and lean(a) == lean(b))
    return (tuple(gaps), conflicts)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 10), st.data())
def test_no_pairing_of_a_small_field_is_better_than_tallys(n: int, data: st.DataObject) -> None:
    keys = [f"p{i}" for i in range(n)]
    points = data.draw(
        st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0]), min_size=n, max_size=n)
    )
    order = sorted(range(n), key=lambda i: -points[i])
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]]
    met = set(data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=n)))
    deals = data.draw(
        st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=n, max_size=n)
    )
    players = [
        SwissPlayer(
            keys[i],
            points[i],
            frozenset(x for p in met if keys[i] in p for x in p) - {keys[i]},
            0,
            deals[i][0],
            deals[i][1],
        )
        for i in order
    ]
    by = {p.key: p for p in players}
    try:
        rnd = pair_round(players)
    except NoPairing:
        sitters = [None] if n % 2 == 0 else keys
        assert all(
            set(m) & met for s in sitters for m in perfect_matchings([k for k in keys if k != s])
        )
        return
    playing = [k for k in keys if k != rnd.bye]
    legal = [m for m in perfect_matchings(playing) if not set(m) & met]
    best = min(value(m, by) for m in legal)
    assert value([(p.first, p.second) for p in rnd.pairings], by) == best


def test_a_player_who_floated_down_last_round_is_spared_a_second_float_when_asked() -> None:
    # Anna 2, Bert and Carl 1, Dora 0: two pairings are equally close (Anna-Bert and
    # Carl-Dora, or Anna-Carl and Bert-Dora); Carl floated down in the round before
    field = [
        SwissPlayer("Anna", 2.0),
        SwissPlayer("Bert", 1.0),
        SwissPlayer("Carl", 1.0, last_float="down"),
        SwissPlayer("Dora", 0.0),
    ]
    pairs = {frozenset((p.first, p.second)) for p in pair_round(field, 3).pairings}
    assert pairs == {frozenset(("Anna", "Carl")), frozenset(("Bert", "Dora"))}
    # the same field without the float history: the fold pairs Anna with Bert
    plain = [SwissPlayer(p.key, p.points) for p in field]
    pairs = {frozenset((p.first, p.second)) for p in pair_round(plain, 3).pairings}
    assert pairs == {frozenset(("Anna", "Bert")), frozenset(("Carl", "Dora"))}


def test_repeated_floats_are_avoided_in_an_event_that_asks_and_the_setting_is_kept(
    store: Any, tmp_path: Path
) -> None:
    from tally.files.exporting import event_json
    from tests.store_support import ok

    names = ["Anna", "Bert", "Carl", "Dora", "Emil"]
    for name in names:
        store.players.add(name)
    ev = store.events.create("Open", kind="swiss", players=names, rounds=3, repeated_floats="avoid")
    assert ev.repeated_floats == "avoid"
    exported = event_json(store, ev.id)
    assert json.loads(exported)["options"]["repeated_floats"] == "avoid"
    (tmp_path / "open.json").write_text(exported, encoding="utf-8")
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(other, "load", str(tmp_path / "open.json"))
    shown = json.loads(ok(other, "event", "show", "Open", "--json"))
    assert json.loads(ok(other, "event", "export", "Open"))["options"]["repeated_floats"] == "avoid"
    assert shown["name"] == "Open"
    with pytest.raises(TallyError, match="--repeated-floats must be allow or avoid"):
        store.events.create("Other", kind="swiss", players=names, rounds=3, repeated_floats="x")


def repeated_floats(store: Any, mode: str, seed: int) -> int:
    """How often a player floated the same way as in the round before, over five rounds of
    an 11-player Swiss event whose winners are drawn by ``seed``."""
    import random

    from tally.store.derivation import rule_set

    draw = random.Random(seed)
    names = [f"P{k:02} {mode} {seed}" for k in range(11)]
    for name in names:
        store.players.add(name)
    ev = store.events.create(
        f"{mode} {seed}", kind="swiss", players=names, rounds=5, repeated_floats=mode
    ).id
    target, repeats, before_ways = rule_set("sixty-six").match_target, 0, {}
    for number in range(1, 6):
        before = {r.player: r.match_points for r in store.events.standings(ev).rows}
        rnd = store.events.start_round(ev, number)
        ways = {rnd.bye: "down"} if rnd.bye else {}
        for p in rnd.pairings:
            if before[p.first] != before[p.second]:
                high, low = sorted((p.first, p.second), key=lambda x: -before[x])
                ways[high], ways[low] = "down", "up"
            winner = draw.choice([p.first, p.second])
            store.deals.match_result(p.matches[0].match_id, (target, 0), winner=winner)
        repeats += sum(1 for k, way in ways.items() if before_ways.get(k) == way)
        before_ways = ways
    return repeats


def test_an_event_that_avoids_repeated_floats_has_fewer_of_them(store: Any) -> None:
    seeds = range(4)
    allowed = sum(repeated_floats(store, "allow", s) for s in seeds)
    avoided = sum(repeated_floats(store, "avoid", s) for s in seeds)
    assert avoided < allowed
