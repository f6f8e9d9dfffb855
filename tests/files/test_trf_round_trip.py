"""Every TRF tally writes (tally.files.trf_export) is read back unchanged by
``tally event import --format trf`` (tally.files.trf_import), and is a file an independent
parser (py4swiss's, strict about points, results and blocks) accepts: over generated Swiss
events with late entries, absences scoring half or nothing, byes scoring a win or nothing,
forfeits and void games of withdrawn players, one-round forfeits (+/-, -/-) of players who
play on and several points per win."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tally.errors import TallyError
from tally.files.trf import read_trf
from tally.files.trf_export import event_trf
from tally.files.trf_import import import_trf
from tally.store import open_store
from tally.store.derivation import rule_set

NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gerda", "Hans"]


def py4swiss_reads(text: str, folder: Path) -> Any:
    """The file as py4swiss's parser reads it (it checks every player's points against the
    file's point system, each game against the opponent's line, every round's block)."""
    from py4swiss.trf import TrfParser

    path = folder / f"{uuid.uuid4().hex}.trf"
    path.write_text(text, encoding="utf-8")
    return TrfParser.parse(path, strict=False)


def finish(store: Any, ev: int, number: int, winners: list[bool]) -> None:
    """Enter round ``number``'s results, the first player or the second winning."""
    (rnd,) = store.events.rounds(ev, number)
    target = rule_set("sixty-six").match_target
    for p, first in zip(rnd.pairings, winners, strict=False):
        if p.status == "scheduled" or p.status == "playing":
            winner = p.first if first else p.second
            store.deals.match_result(p.matches[0].match_id, (target, 0), winner=winner)


def grow_event(store: Any, data: st.DataObject, spare: int = 0) -> int:
    """A Swiss event played through generated rounds (module docstring), ``spare`` rounds
    of it left to play."""
    start = data.draw(st.integers(3, 6))
    for name in NAMES:
        store.players.add(name)
    ev = store.events.create(
        "Open",
        kind="swiss",
        players=NAMES[:start],
        rounds=data.draw(st.integers(1, 4 - spare)) + spare,
        match_points_per_win=data.draw(st.sampled_from([1.0, 2.0, 3.0])),
        bye=data.draw(st.sampled_from(["win", "none"])),
        absence_score=data.draw(st.sampled_from(["half", "zero"])),
        withdrawal=data.draw(st.sampled_from(["forfeit", "void"])),
    ).id
    late = NAMES[start:]
    for number in range(1, store.events.get(ev).rounds + 1 - spare):
        if late and number > 1 and data.draw(st.booleans()):
            store.events.add_players(ev, [late.pop(0)])
        active = [p.name for p in store.events.get(ev).players if not p.withdrawn]
        if len(active) > 3 and data.draw(st.booleans()):
            store.absences.announce(ev, data.draw(st.sampled_from(active)), number)
        try:
            rnd = store.events.start_round(ev, number)
        except TallyError:
            break  # no pairing left: the event ends here
        if rnd.pairings and data.draw(st.booleans()):  # a one-round forfeit: +/- or -/-
            missed = data.draw(st.sampled_from(rnd.pairings))
            for who in data.draw(
                st.sampled_from([[missed.first], [missed.second], [missed.first, missed.second]])
            ):
                store.no_shows.record(ev, number, who)
        if rnd.pairings and data.draw(st.booleans()):
            gone = data.draw(st.sampled_from(rnd.pairings))
            store.events.withdraw(ev, data.draw(st.sampled_from([gone.first, gone.second])))
        finish(store, ev, number, data.draw(st.lists(st.booleans(), min_size=4, max_size=4)))
    return ev


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_trf_tally_writes_is_read_back_unchanged(tmp_path: Path, data: st.DataObject) -> None:
    written = open_store(f"sqlite:///{tmp_path / uuid.uuid4().hex}.db", scorer="tester")
    again = open_store(f"sqlite:///{tmp_path / uuid.uuid4().hex}.db", scorer="tester")
    try:
        text = event_trf(written, grow_event(written, data))
        py4swiss_reads(text, tmp_path).validate_contents()
        path = tmp_path / f"{uuid.uuid4().hex}.trf"
        path.write_text(text, encoding="utf-8")
        imported = import_trf(again, path, name="Open")
        assert event_trf(again, imported.event.id) == text
    finally:
        written.close()
        again.close()


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_round_paired_and_not_played_is_written_and_read_back_unchanged(
    tmp_path: Path, data: st.DataObject
) -> None:
    """The event grown, then its next round paired and partly played (a no-show in it, some
    results): written with --paired, read back as a round being played, written again the
    same; its games not played have an opponent, a colour and no result."""
    written = open_store(f"sqlite:///{tmp_path / uuid.uuid4().hex}.db", scorer="tester")
    again = open_store(f"sqlite:///{tmp_path / uuid.uuid4().hex}.db", scorer="tester")
    try:
        ev = grow_event(written, data, spare=1)
        number = max(written.events.get(ev).rounds_started, default=0) + 1
        try:
            rnd = written.events.start_round(ev, number)
        except TallyError:
            rnd = written.events.rounds(ev, number - 1)[0] if number > 1 else None
        if rnd is not None and rnd.pairings:
            played = data.draw(st.lists(st.booleans(), max_size=len(rnd.pairings)))
            target = rule_set("sixty-six").match_target
            for p, first in zip(rnd.pairings, played, strict=False):
                if first and p.status == "playing" and not p.matches[0].over:
                    written.deals.match_result(p.matches[0].match_id, (target, 0), winner=p.first)
        text = event_trf(written, ev, paired=True)
        path = tmp_path / f"{uuid.uuid4().hex}.trf"
        path.write_text(text, encoding="utf-8")
        imported = import_trf(again, path, name="Open")
        assert event_trf(again, imported.event.id, paired=True) == text
        assert event_trf(again, imported.event.id) == event_trf(written, ev)
        waiting = [
            g for p in read_trf(text).players for g in p.games if g is not None and g.result == " "
        ]
        assert all(g.opponent is not None and g.colour in "wb" for g in waiting)
    finally:
        written.close()
        again.close()


def test_a_paired_round_is_written_for_a_pairing_checker(store: Any) -> None:
    for name in NAMES[:5]:
        store.players.add(name)
    ev = store.events.create("Open", kind="swiss", players=NAMES[:5], rounds=3, bye="win").id
    store.events.start_round(ev, 1)
    finish(store, ev, 1, [True, False])
    rnd = store.events.start_round(ev, 2)
    lines = event_trf(store, ev, paired=True).splitlines()
    players = {line[14:47].strip(): line for line in lines if line.startswith("001")}
    p = rnd.pairings[0]
    block = players[p.first][101:109]
    assert block[5] in "wb" and block.rstrip() == block[:6] and block[7:] == " "
    assert int(block[:4]) == NAMES.index(p.second) + 1
    assert rnd.bye is not None and players[rnd.bye][101:109] == "0000 - U"
    t = read_trf("\n".join(lines))
    rows = {r.player: r.match_points for r in store.events.standings(ev).rows}
    assert {x.name: x.points for x in t.players} == rows  # the bye of round 2 counts


def test_a_zero_point_pairing_bye_and_an_absence_are_told_apart(store: Any) -> None:
    for name in NAMES[:5]:
        store.players.add(name)
    ev = store.events.create(
        "Open", kind="swiss", players=NAMES[:5], rounds=2, bye="none", absence_score="zero"
    ).id
    store.absences.announce(ev, "Emil", 1)
    store.absences.announce(ev, "Dora", 1)
    rnd = store.events.start_round(ev, 1)
    finish(store, ev, 1, [True, True])
    t = read_trf(event_trf(store, ev))
    games = {p.name: p.games[0] for p in t.players}
    assert rnd.bye is not None and games[rnd.bye] is not None
    assert games[rnd.bye].result == "U"  # the pairing's bye, worth 0 by the point system
    assert games["Dora"] == games["Emil"] and games["Dora"].result == "Z"  # absences
    assert t.points is not None and t.points.bye == 0.0


def test_tally_s_points_not_wins_are_written_with_the_point_system(store: Any) -> None:
    for name in NAMES[:3]:
        store.players.add(name)
    ev = store.events.create(
        "Open", kind="swiss", players=NAMES[:3], rounds=2, bye="win", match_points_per_win=3
    ).id
    rnd = store.events.start_round(ev, 1)
    finish(store, ev, 1, [True])
    text = event_trf(store, ev)
    t = read_trf(text)
    rows = {r.player: r.match_points for r in store.events.standings(ev).rows}
    assert {p.name: p.points for p in t.players} == rows
    assert rows[rnd.pairings[0].first] == 3.0 and rnd.bye is not None and rows[rnd.bye] == 3.0
    assert "XXS WW=3.0 BW=3.0" in text and "BBW  3.0" in text
    assert "PAB=3.0" in text and "BBU  3.0" in text


def test_a_mid_round_export_writes_only_finished_rounds_and_their_points(
    store: Any, tmp_path: Path
) -> None:
    for name in NAMES[:5]:
        store.players.add(name)
    ev = store.events.create("Open", kind="swiss", players=NAMES[:5], rounds=3, bye="win").id
    store.events.start_round(ev, 1)
    finish(store, ev, 1, [True, False])
    store.events.start_round(ev, 2)  # paired, nothing played yet: its bye not counted
    text = event_trf(store, ev)
    t = read_trf(text)
    assert all(p.games[1] is None for p in t.players)
    py4swiss_reads(text, tmp_path).validate_contents()


def test_no_round_block_is_left_blank_for_a_late_entry(store: Any) -> None:
    for name in NAMES[:5]:
        store.players.add(name)
    ev = store.events.create("Open", kind="swiss", players=NAMES[:4], rounds=3).id
    store.events.start_round(ev, 1)
    finish(store, ev, 1, [True, True])
    store.events.add_players(ev, ["Emil"])
    store.events.start_round(ev, 2)
    finish(store, ev, 2, [True, True])
    line = event_trf(store, ev).splitlines()[5 + 5]
    assert line[91:99] == "0000 - Z" and line[101:109].strip() != ""


@pytest.mark.parametrize("result", ["H", "Z"])
def test_several_absences_in_one_round_are_imported(tmp_path: Path, result: str) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'a.db'}", scorer="tester")
    other = open_store(f"sqlite:///{tmp_path / 'b.db'}", scorer="tester")
    try:
        for name in NAMES[:6]:
            store.players.add(name)
        ev = store.events.create(
            "Open",
            kind="swiss",
            players=NAMES[:6],
            rounds=3,
            absence_score="half" if result == "H" else "zero",
        ).id
        store.absences.announce(ev, "Emil", 2)
        store.absences.announce(ev, "Fritz", 2)
        for number in (1, 2, 3):
            store.events.start_round(ev, number)
            finish(store, ev, number, [True, True, True])
        text = event_trf(store, ev)
        assert text.count(f"0000 - {result}") == 2
        path = tmp_path / "open.trf"
        path.write_text(text, encoding="utf-8")
        done = import_trf(other, path)
        assert other.events.get(done.event.id).absences == ((2, "Emil"), (2, "Fritz"))
        assert event_trf(other, done.event.id) == text
    finally:
        store.close()
        other.close()


def test_a_forfeit_whose_winner_withdraws_too_keeps_its_plus_and_minus(tmp_path: Path) -> None:
    """A no-show whose opponent withdraws in the same round, the no-show absent (scoring
    nothing) in the last round: the file cannot tell them both from withdrawals, and read
    back as two withdrawals the first to withdraw would lose, whoever did not come."""
    store = open_store(f"sqlite:///{tmp_path / 'a.db'}", scorer="tester")
    other = open_store(f"sqlite:///{tmp_path / 'b.db'}", scorer="tester")
    try:
        for name in NAMES[:6]:
            store.players.add(name)
        ev = store.events.create(
            "Open", kind="swiss", players=NAMES[:6], rounds=2, absence_score="zero"
        ).id
        rnd = store.events.start_round(ev, 1)
        came, missed = sorted((rnd.pairings[0].first, rnd.pairings[0].second), key=NAMES.index)
        store.no_shows.record(ev, 1, missed)  # the higher number did not come
        store.events.withdraw(ev, came)  # and the winner withdraws in the same round
        finish(store, ev, 1, [True, True, True])
        store.absences.announce(ev, missed, 2)
        store.events.start_round(ev, 2)
        finish(store, ev, 2, [True, True, True])
        text = event_trf(store, ev)
        games = {p.name: p.games[0] for p in read_trf(text).players}
        assert (games[came].result, games[missed].result) == ("+", "-")
        path = tmp_path / "open.trf"
        path.write_text(text, encoding="utf-8")
        done = import_trf(other, path)
        assert event_trf(other, done.event.id) == text
        assert other.events.get(done.event.id).no_shows == ((1, missed),)
    finally:
        store.close()
        other.close()
