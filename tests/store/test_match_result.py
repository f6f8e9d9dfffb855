"""A match kept on paper, its whole result entered at once (``store.deals.match_result``): it
finishes the match and counts in standings, every tiebreak, knockouts and ratings exactly as
the same match played deal by deal; it is checked against the match's rules, audited and
reversible, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from tally.engine.match import MATCH_RESULT
from tally.errors import NotFound, Refused
from tests.store_support import dump


def _match(store: Any, *names: str, event: int | None = None, rules: str | None = None) -> int:
    for name in names:
        if not [p for p in store.players.all() if p.name == name]:
            store.players.add(name)
    m = store.matches.start(names[0], names[1], first_dealer=names[0], event=event, rules=rules)
    return int(m.id)


def test_a_match_result_finishes_the_match_with_its_game_points(store: Any) -> None:
    mid = _match(store, "Anna", "Bert")
    view = store.deals.match_result(mid, "7:3")
    assert (view.over, view.winner, view.score) == (True, "Anna", {"Anna": 7, "Bert": 3})
    assert view.entered_whole
    # kept as the two players' lines, the loser's first: the result cache adds them up
    assert [(d.kind, d.winner, d.deal_points, d.reason) for d in view.deals] == [
        ("quick", "Bert", 3, MATCH_RESULT),
        ("quick", "Anna", 7, MATCH_RESULT),
    ]
    assert view.deals[0].explanation == "the match result entered whole: Bert scored 3"
    assert store.matches.state(mid) == view
    assert store.results.stale() == []
    with pytest.raises(Refused, match="is over"):
        store.deals.quick_result(mid, winner="Bert", points=1)
    with pytest.raises(Refused, match="is over"):
        store.deals.start(mid, "QH")


def test_a_shutout_is_one_line_and_a_winner_named_comes_first(store: Any) -> None:
    mid = _match(store, "Anna", "Bert")
    view = store.deals.match_result(mid, (0, 7))
    assert [(d.winner, d.deal_points) for d in view.deals] == [("Bert", 7)]
    other = _match(store, "Anna", "Bert")
    view = store.deals.match_result(other, "7:5", winner="bert")  # a name as the players are found
    assert view.score == {"Anna": 5, "Bert": 7} and view.winner == "Bert"


@pytest.mark.parametrize(
    ("score", "rules", "words"),
    [
        ("6:3", None, "nobody reached the match target of 7 game points"),
        ("7:7", None, "only the winner reaches the match target of 7"),
        ("8:9", None, "only the winner reaches"),
        ("7 to 3", None, '"7 to 3" is not a match result'),
        ("", None, "is not a match result"),
        ("10:3", "schnapsen", "a match ends at 9 game points at most"),
        ("3:4", "sixty-six match_target=3", "only the winner reaches the match target of 3"),
    ],
)
def test_a_score_the_rules_do_not_allow_is_refused(
    store: Any, db_url: str, score: str, rules: str | None, words: str
) -> None:
    mid = _match(store, "Anna", "Bert", rules=rules)
    before = dump(db_url)
    with pytest.raises(Refused, match=words):
        store.deals.match_result(mid, score)
    assert dump(db_url) == before


def test_a_carry_lets_the_winner_go_past_the_target(store: Any) -> None:
    mid = _match(store, "Anna", "Bert")  # sixty-six carries the draws' game points on
    assert store.deals.match_result(mid, "11:2").score == {"Anna": 11, "Bert": 2}


def test_a_match_with_deals_or_a_winner_who_did_not_win_is_refused(store: Any, db_url: str) -> None:
    mid = _match(store, "Anna", "Bert")
    store.deals.quick_result(mid, winner="Anna", points=2)
    before = dump(db_url)
    with pytest.raises(Refused, match=r"match \d+ has 1 deal\(s\) already \(Anna 2, Bert 0\)"):
        store.deals.match_result(mid, "7:3")
    other = _match(store, "Anna", "Bert")
    before = dump(db_url)
    with pytest.raises(Refused, match="Bert has 3 game points, fewer than the match target 7"):
        store.deals.match_result(other, "3:7", winner="Bert")
    with pytest.raises(Refused, match=r'"Zoe" does not play in match \d+ \(Anna and Bert do\)'):
        store.deals.match_result(other, "7:3", winner="Zoe")
    with pytest.raises(NotFound):
        store.deals.match_result(999, "7:3")
    assert dump(db_url) == before
    store.deals.match_result(other, "7:3")
    with pytest.raises(Refused, match="has 2 deal"):  # entered twice (a double tap)
        store.deals.match_result(other, "7:3")


def test_a_match_result_is_audited_and_reversed_whole(store: Any, db_url: str) -> None:
    mid = _match(store, "Anna", "Bert")
    before = dump(db_url)
    store.deals.match_result(mid, "7:4")
    entry = store.audit.log(limit=1)[0]
    assert (entry.command, entry.entity, entry.entity_id) == ("match result", "match", mid)
    assert entry.summary == f"entered the result of match {mid}: Anna 7, Bert 4"
    assert len(entry.after) == 2 and set(entry.before.values()) == {None}
    store.audit.reverse(entry.id)
    assert store.matches.state(mid).deals == ()
    after = dump(db_url)
    assert {k: v for k, v in after.items() if k != "audit_log"} == {
        k: v for k, v in before.items() if k != "audit_log"
    }
    assert store.results.stale() == []
    # entered again, then either line deleted: the whole result goes, and comes back whole
    view = store.deals.match_result(mid, "7:4")
    store.deals.delete(view.deals[0].id)
    assert store.matches.state(mid).deals == ()
    deleted = store.audit.log(limit=1)[0]
    assert deleted.summary == f"deleted the result of match {mid} entered whole"
    store.audit.reverse(deleted.id)
    assert store.matches.state(mid).score == {"Anna": 7, "Bert": 4}
    assert store.results.stale() == []


def _played(store: Any, mid: int, winner: str, loser: str, score: tuple[int, int]) -> None:
    """The same match deal by deal: the loser's points as claims of 1, then the winner's as
    failed closes of 2 and a claim of 1 (no schneider or schwarz, as a result entered whole
    carries none)."""
    for _ in range(score[1]):
        store.deals.quick_result(mid, winner=loser, points=1)
    points = score[0]
    while points:
        worth = 2 if points >= 2 else 1
        store.deals.quick_result(
            mid, winner=winner, points=worth, reason="failed-close" if worth == 2 else "claim"
        )
        points -= worth


FIELD = [
    ("Anna", "Bert", (7, 3)),
    ("Carl", "Anna", (7, 6)),
    ("Anna", "Dora", (7, 5)),
    ("Bert", "Carl", (7, 6)),
    ("Bert", "Dora", (8, 4)),
    ("Dora", "Carl", (7, 0)),
]


@pytest.mark.parametrize("kind", ["club", "round-robin"])
def test_standings_and_every_tiebreak_are_the_same_as_for_the_deals(store: Any, kind: str) -> None:
    names = ["Anna", "Bert", "Carl", "Dora"]
    for name in names:
        store.players.add(name)
    tiebreaks = [
        "head-to-head",
        "game-point-difference",
        "game-points-won",
        "sonneborn-berger",
        "wins",
        "buchholz",
        "median-buchholz",
    ]
    views = []
    for how in ("deals", "results"):
        ev = store.events.create(f"{kind} by {how}", kind=kind, players=names, tiebreaks=tiebreaks)
        if kind == "round-robin":
            for number in (1, 2, 3):
                store.events.start_round(ev.id, number, force=True)  # all made at once
        made = {frozenset(m.players): m.id for m in store.matches.all() if m.event_id == ev.id}
        for winner, loser, score in FIELD:
            mid = made.get(frozenset((winner, loser))) if made else None
            if mid is None:
                mid = store.matches.start(winner, loser, first_dealer=winner, event=ev.id).id
            if how == "deals":
                _played(store, mid, winner, loser, score)
            else:
                m = store.matches.state(mid)
                store.deals.match_result(mid, score if m.players[0] == winner else score[::-1])
        views.append(ev.id)
    by_deals, by_results = (store.events.standings(ev) for ev in views)
    assert by_results.rows == by_deals.rows
    assert [(r.player, r.played, r.game_points_won) for r in by_results.rows][:1] == [
        ("Anna", 3, 20)
    ]
    assert all(r.played == 3 for r in by_results.rows)
    assert store.events.cross_table(views[1]).cells == store.events.cross_table(views[0]).cells


def test_a_swiss_round_is_paired_from_results_entered_whole(store: Any) -> None:
    names = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]
    for name in names:
        store.players.add(name)
    pairings = []
    for how in ("deals", "results"):
        ev = store.events.create(f"Swiss by {how}", kind="swiss", players=names, rounds=3)
        rnd = store.events.start_round(ev.id, 1)
        for i, p in enumerate(rnd.pairings):
            mid = p.matches[0].match_id
            m = store.matches.state(mid)
            score = (7, i) if i % 2 == 0 else (i, 7)
            if how == "results":
                store.deals.match_result(mid, score)
            else:
                first = score[0] >= 7
                winner, loser = m.players if first else m.players[::-1]
                _played(store, mid, winner, loser, score if first else score[::-1])
        nxt = store.events.start_round(ev.id, 2)
        pairings.append([(p.first, p.second) for p in nxt.pairings])
    assert pairings[0] == pairings[1]


def test_ratings_count_a_match_result_as_a_finished_match(store: Any) -> None:
    mid = _match(store, "Anna", "Bert")
    store.deals.match_result(mid, "3:7")

    found, names = store.ratings.rated_matches()
    assert [(m.match_id, m.winner and names[m.winner], m.score) for m in found] == [
        (mid, "Bert", (3, 7))
    ]


def test_a_knockout_takes_a_life_for_a_match_result(store: Any) -> None:
    names = ["Anna", "Bert", "Carl", "Dora"]
    for name in names:
        store.players.add(name)
    ev = store.events.create(
        "Paper knockout", kind="knockout", players=names, lives=1, draw_seed="2026"
    )
    winners = []
    for pairing in store.events.start_round(ev.id, 1).pairings:
        view = store.deals.match_result(pairing.matches[0].match_id, "7:2")
        winners.append(view.players[0])
    view = store.events.standings(ev.id)
    assert view.stage == "round 1, 2 players still in"
    assert sorted(r.player for r in view.rows if r.won == 1) == sorted(winners)
    final = store.events.start_round(ev.id, 2).pairings
    assert {final[0].first, final[0].second} == set(winners)
