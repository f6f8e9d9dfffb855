"""A player's announced absence from a round (a requested bye) in the store: not paired, the
requested bye scoring half or nothing as the event says, counted as a round not played, the
refusals, undo and the event's snapshot; on SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tests.store.test_swiss import play

FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]


def swiss(store: Any, players: list[str] = FIVE, n: int = 3, **options: Any) -> int:
    for name in players:
        store.players.add(name)
    return store.events.create("Open", kind="swiss", players=players, rounds=n, **options).id


def paired(rnd: Any) -> set[str]:
    return {x for p in rnd.pairings for x in (p.first, p.second)}


def test_an_absent_player_is_not_paired_and_the_odd_player_still_gets_the_bye(store: Any) -> None:
    ev = swiss(store, FIVE[:4])
    assert store.absences.announce(ev, "carl", 1) == "Carl"
    rnd = store.events.start_round(ev, 1)
    assert "Carl" not in paired(rnd) and len(rnd.pairings) == 1
    assert rnd.bye is not None and rnd.bye != "Carl"
    assert rnd.absent == ("Carl",) and rnd.absence_points == 0.5
    assert store.events.get(ev).absences == ((1, "Carl"),)


def test_a_requested_bye_scores_half_a_win_by_default(store: Any) -> None:
    ev = swiss(store, FIVE[:4], n=2)
    store.absences.announce(ev, "Dora", 1)
    rnd = store.events.start_round(ev, 1)
    # three players paired: one of them has the ordinary (pairing) bye, worth nothing here
    play(store, rnd)
    rows = {r.player: r for r in store.events.standings(ev).rows}
    assert rows["Dora"].match_points == 0.5 and rows["Dora"].played == 0
    assert rows["Dora"].byes == 1
    assert rnd.bye is not None and rows[rnd.bye].match_points == 0.0


def test_a_requested_bye_scores_nothing_when_the_event_says_zero(store: Any) -> None:
    ev = swiss(store, FIVE[:4], n=2, absence_score="zero", match_points_per_win=2)
    assert store.events.get(ev).absence_score == "zero"
    store.absences.announce(ev, "Dora", 1)
    rnd = store.events.start_round(ev, 1)
    assert rnd.absence_points == 0.0
    play(store, rnd)
    rows = {r.player: r for r in store.events.standings(ev).rows}
    assert rows["Dora"].match_points == 0.0


def test_half_a_win_follows_the_match_points_per_win(store: Any) -> None:
    ev = swiss(store, FIVE[:4], n=2, match_points_per_win=2)
    store.absences.announce(ev, "Dora", 1)
    play(store, store.events.start_round(ev, 1))
    rows = {r.player: r for r in store.events.standings(ev).rows}
    assert rows["Dora"].match_points == 1.0


def test_an_absence_for_a_round_not_started_scores_nothing_yet(store: Any) -> None:
    ev = swiss(store, FIVE[:4], n=2)
    store.absences.announce(ev, "Dora", 2)
    rows = {r.player: r for r in store.events.standings(ev).rows}
    assert rows["Dora"].match_points == 0.0 and rows["Dora"].byes == 0


def test_a_requested_bye_is_a_virtual_opponent_under_the_fide_rule(store: Any) -> None:
    ev = swiss(store, FIVE[:4], n=2, unplayed="virtual-opponent", tiebreaks=["buchholz"])
    store.absences.announce(ev, "Dora", 1)
    play(store, store.events.start_round(ev, 1))
    rows = {r.player: r for r in store.events.standings(ev).rows}
    # Dora's round 1 is unplayed (0.5 scored): a virtual opponent with her own score
    # before it (0) and the rest drawn (1 round left: 0.5) counts 0.5
    assert rows["Dora"].tiebreak_values == (0.5,)


def test_an_absence_is_refused_once_its_round_is_paired_and_twice(store: Any) -> None:
    ev = swiss(store)
    store.events.start_round(ev, 1)
    with pytest.raises(Refused, match=r"round 1 .* is paired already"):
        store.absences.announce(ev, "Carl", 1)
    store.absences.announce(ev, "Carl", 3)
    with pytest.raises(Refused, match="already"):
        store.absences.announce(ev, "Carl", 3)
    with pytest.raises(NotFound, match="rounds 1 to 3, not 4"):
        store.absences.announce(ev, "Carl", 4)
    with pytest.raises(NotFound, match="rounds 1 to 3, not 0"):
        store.absences.announce(ev, "Carl", 0)


def test_a_withdrawn_player_announces_no_absence_and_withdrawing_drops_theirs(store: Any) -> None:
    ev = swiss(store)
    store.absences.announce(ev, "Bert", 2)
    store.events.withdraw(ev, "Bert")
    assert store.events.get(ev).absences == ()
    with pytest.raises(Refused, match="withdrawn"):
        store.absences.announce(ev, "Bert", 3)
    store.players.add("Zoe")
    with pytest.raises(NotFound, match="does not play"):
        store.absences.announce(ev, "Zoe", 2)


def test_an_absence_is_cancelled_before_the_round_is_paired(store: Any) -> None:
    ev = swiss(store)
    store.absences.announce(ev, "Carl", 1)
    assert store.absences.announce(ev, "Carl", 1, cancel=True) == "Carl"
    assert store.events.get(ev).absences == ()
    with pytest.raises(Refused, match="no absence"):
        store.absences.announce(ev, "Carl", 1, cancel=True)
    assert (
        "Carl" in paired(store.events.start_round(ev, 1))
        or store.events.rounds(ev, 1)[0].bye == "Carl"
    )
    with pytest.raises(Refused, match="paired already"):
        store.absences.announce(ev, "Carl", 1, cancel=True)


def test_an_absence_and_its_cancelling_are_audited_and_undone(store: Any) -> None:
    ev = swiss(store)
    store.absences.announce(ev, "Carl", 2)
    entry = store.audit.log()[-1]
    assert entry.command == "event absent" and "Carl announced an absence" in entry.summary
    store.audit.reverse(entry.id)
    assert store.events.get(ev).absences == ()
    store.absences.announce(ev, "Carl", 2)
    store.absences.announce(ev, "Carl", 2, cancel=True)
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.events.get(ev).absences == ((2, "Carl"),)


def test_a_round_withdrawn_and_paired_again_still_leaves_the_absent_player_out(store: Any) -> None:
    ev = swiss(store)
    store.absences.announce(ev, "Anna", 1)
    store.events.start_round(ev, 1)
    store.pairings.withdraw(ev, 1)
    store.absences.announce(ev, "Anna", 1, cancel=True)
    assert (
        "Anna" in paired(store.events.start_round(ev, 1))
        or store.events.rounds(ev, 1)[0].bye == "Anna"
    )


def test_the_next_round_shown_before_it_is_paired_leaves_the_absent_player_out(store: Any) -> None:
    ev = swiss(store, FIVE[:4], n=2)
    play(store, store.events.start_round(ev, 1))
    store.absences.announce(ev, "Bert", 2)
    (preview,) = store.events.rounds(ev, 2)
    assert not preview.started and "Bert" not in paired(preview) and preview.absent == ("Bert",)


@pytest.mark.parametrize(
    ("kind", "options", "words"),
    [
        ("club", {}, "no rounds to miss"),
        ("round-robin", {}, "record the missed game as a forfeit"),
        ("knockout", {"lives": 2}, "would cost a life; withdraw the player"),
    ],
)
def test_an_absence_is_refused_where_rounds_are_not_paired_from_the_standings(
    store: Any, kind: str, options: dict[str, Any], words: str
) -> None:
    for name in FIVE[:4]:
        store.players.add(name)
    ev = store.events.create("Night", kind=kind, players=FIVE[:4], **options).id
    with pytest.raises(Refused, match=words):
        store.absences.announce(ev, "Anna", 1)


def test_an_unknown_absence_score_is_refused(store: Any) -> None:
    with pytest.raises(Exception, match="absence-score"):
        swiss(store, absence_score="full")


def test_the_requested_bye_counts_in_the_scores_before_a_round_and_in_the_trf(store: Any) -> None:
    from tally.files.trf import read_trf
    from tally.files.trf_export import event_trf

    ev = swiss(store, FIVE[:4], n=2)
    store.absences.announce(ev, "Dora", 1)
    play(store, store.events.start_round(ev, 1))
    assert store.events.round_by_round(ev).scores_before(2)["Dora"] == 0.5
    dora = next(p for p in read_trf(event_trf(store, ev)).players if p.name == "Dora")
    assert dora.games[0] is not None and dora.games[0].result == "H" and dora.points == 0.5


def test_a_requested_bye_counts_in_the_season_standings_as_in_its_event(store: Any) -> None:
    ev = swiss(store, FIVE[:4], n=2)
    store.absences.announce(ev, "Dora", 1)
    play(store, store.events.start_round(ev, 1))
    season = store.events.season_standings(all_events=True, rank_by="points")
    event = store.events.standings(ev, rank_by="points")
    assert {r.player: r.match_points for r in season.rows}["Dora"] == 0.5
    assert sorted((r.player, r.match_points) for r in season.rows) == sorted(
        (r.player, r.match_points) for r in event.rows
    )
    assert {r.player: r.byes for r in season.rows}["Dora"] == 1


def test_the_event_limits_requested_byes_by_count_and_in_its_last_rounds(store: Any) -> None:
    ev = swiss(store, FIVE, n=4, max_absences=1, no_absence_last=2)
    store.absences.announce(ev, "Anna", 1)
    with pytest.raises(Refused, match="allows 1 requested bye"):
        store.absences.announce(ev, "Anna", 2)
    with pytest.raises(Refused, match="no requested bye in its last 2 round"):
        store.absences.announce(ev, "Bert", 3)
    store.absences.announce(ev, "Bert", 2)
    shown = store.events.get(ev)
    assert (shown.max_absences, shown.no_absence_last) == (1, 2)
    assert shown.absences == ((1, "Anna"), (2, "Bert"))


def test_the_limits_on_requested_byes_are_kept_in_the_event_file(store: Any) -> None:
    import json

    from tally.files.exporting import event_json

    ev = swiss(store, FIVE, n=4, max_absences=2, no_absence_last=1)
    options = json.loads(event_json(store, ev))["options"]
    assert (options["max_absences"], options["no_absence_last"]) == (2, 1)
    with pytest.raises(Refused, match="for a Swiss event"):
        store.events.create("Robin", kind="round-robin", players=FIVE, max_absences=1)


def test_event_show_says_the_limits_on_requested_byes(db_url: str) -> None:
    from tests.store_support import ok

    ok(db_url, "player", "add", *FIVE)
    ok(
        db_url,
        "event",
        "create",
        "Open",
        *FIVE,
        "--kind",
        "swiss",
        "--rounds",
        "4",
        "--max-absences",
        "1",
        "--no-absence-last",
        "2",
    )
    shown = ok(db_url, "event", "show", "Open")
    assert "A player may ask for at most 1 requested byes." in shown
    assert "No requested bye in the last 2 rounds." in shown
