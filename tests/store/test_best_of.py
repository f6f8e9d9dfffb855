"""A knockout's final stage played best of 3 through the store: all three matches of a
pairing are made at once (the first dealer alternating), the pairing is decided when one
player has won two, the match not needed counts nowhere, and the bracket shows matches won."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import Refused
from tally.events.knockout import series
from tests.store.test_knockouts import players, win

RULES = "sixty-six match_target=3"
FOUR = ["P1", "P2", "P3", "P4"]


def final_of_two(store: Any, best_of: int = 3) -> tuple[Any, Any]:
    """Four players with one life, a final of two best of ``best_of``: round 1 played (the
    first player at each table wins), round 2 (the final) started."""
    players(store, FOUR)
    ev = store.events.create(
        "Cup", kind="knockout", players=FOUR, rules=RULES, lives=1, draw_seed="2026", final_size=2
    )
    store.knockouts.set_best_of(ev.id, best_of)
    for p in store.events.start_round(ev.id, 1).pairings:
        win(store, p.matches[0].match_id, p.first)
    return ev, store.events.start_round(ev.id, 2)


def test_a_series_is_won_by_the_first_to_win_the_majority() -> None:
    assert series(["A", "A", None], 3) == ("A", 2)
    assert series(["A", "B", "B"], 3) == ("B", 3)
    assert series(["A", "B", None, None, None], 5) == (None, 5)


def test_a_final_best_of_three_decided_two_nil(store: Any) -> None:
    ev, final = final_of_two(store)
    (table,) = final.pairings
    assert len(table.matches) == 3
    dealers = [m.first_dealer for m in table.matches]
    assert dealers[0] == dealers[2] != dealers[1]
    win(store, table.matches[0].match_id, table.first)
    view = store.knockouts.view(ev)
    assert view.champion is None and view.bracket[-1][0].result == "1:0"
    win(store, table.matches[1].match_id, table.first)
    view = store.knockouts.view(ev)
    assert view.champion == table.first and view.bracket[-1][0].result == "2:0"
    assert view.best_of == 3
    (pairing,) = store.events.rounds(ev.id, 2)[0].pairings
    assert pairing.status == "played"  # the third match is not needed
    with pytest.raises(Refused, match="is over"):
        store.events.start_round(ev.id, 3)
    row = next(x.row for x in view.lines if x.player == table.first)
    assert row.won == 3  # round 1 and two final matches; the third counts nowhere


def test_a_final_best_of_three_goes_to_the_third_match(store: Any) -> None:
    ev, final = final_of_two(store)
    (table,) = final.pairings
    win(store, table.matches[0].match_id, table.first)
    win(store, table.matches[1].match_id, table.second)
    view = store.knockouts.view(ev)
    assert view.champion is None and view.bracket[-1][0].result == "1:1"
    win(store, table.matches[2].match_id, table.second)
    view = store.knockouts.view(ev)
    assert view.champion == table.second and view.bracket[-1][0].result == "1:2"


def test_best_of_is_odd_and_set_before_the_bracket(store: Any) -> None:
    ev, _ = final_of_two(store)
    with pytest.raises(Refused, match="seeded already"):
        store.knockouts.set_best_of(ev.id, 5)
    with pytest.raises(Refused, match="an odd number"):
        store.knockouts.set_best_of(ev.id, 4)


def test_the_bracket_sheet_and_the_wall_show_matches_won(store: Any) -> None:
    import io
    import warnings

    from pypdf import PdfReader

    from tally.sheets.knockout import bracket_sheet
    from tally.sheets.render import render_bracket
    from tally.web.server import create_app

    ev, final = final_of_two(store)
    (table,) = final.pairings
    win(store, table.matches[0].match_id, table.first)
    pdf = render_bracket(bracket_sheet(store, ev.id))
    text = "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "best of 3 matches; score: matches won" in text and "1:0" in text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    html = TestClient(create_app(store)).get(f"/standings/{ev.id}").text
    # the matches won large, the match being played small beside them
    assert '<span class="res" title="matches won">1<i>:</i>0</span>' in html
    assert '<span class="series" title="the match being played">0:0</span>' in html


def test_a_pairing_s_matches_are_recorded_in_turn(store: Any) -> None:
    # a deal in the third match before the first two are over would be played for nothing
    # once the first two decide the pairing 2:0 (and would not load back from the export)
    _, final = final_of_two(store)
    (table,) = final.pairings
    first, second, third = (m.match_id for m in table.matches)
    with pytest.raises(Refused, match=f"match {first} of this pairing is not over yet"):
        store.deals.quick_result(third, winner=table.first, points=1)
    win(store, first, table.first)
    with pytest.raises(Refused, match=f"match {second} of this pairing is not over yet"):
        store.deals.quick_result(third, winner=table.first, points=1)
    win(store, second, table.second)
    store.deals.quick_result(third, winner=table.first, points=1)  # 1:1: the third is needed


def test_a_correction_that_would_reopen_a_match_before_one_played_is_refused(store: Any) -> None:
    # once the third match has a deal, correcting or deleting the second's deciding deal so
    # that it is no longer over would leave the third played out of turn (and the export
    # would not load back): refused, nothing changed; undoing it is refused the same way
    _, final = final_of_two(store)
    (table,) = final.pairings
    first, second, third = (m.match_id for m in table.matches)
    win(store, first, table.first)
    win(store, second, table.second)
    store.deals.quick_result(third, winner=table.first, points=1)
    last = store.matches.state(second).deals[-1]
    score = store.matches.state(second).score
    refused = f"leaves match {second} not over, and match {third} of its pairing has deals"
    with pytest.raises(Refused, match=refused):
        store.deals.delete(last.id)
    with pytest.raises(Refused, match=refused):
        store.deals.edit_quick_result(last.id, winner=table.first, points=1)
    assert store.matches.state(second).score == score and store.matches.state(second).over
    entry = next(e for e in store.audit.log() if e.entity == "deal" and e.entity_id == last.id)
    with pytest.raises(Refused, match=refused):
        store.audit.reverse(entry.id)
    assert store.matches.state(second).over
