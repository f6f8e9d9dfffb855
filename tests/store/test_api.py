"""The store as a library: players, matches, deals recorded trick by trick, corrections and
the audit log, on SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from tally.engine.notation import read_deal
from tally.engine.ruling import rule
from tally.errors import NotationError, NotFound, RecordError, Refused
from tests.store_support import (
    DEALER_CLAIMS,
    DRAW_DEAL,
    FAILED_CLOSE,
    FOREHAND_CLAIMS,
    LATE_REVOKE,
    dump,
    lines,
)


def new_match(store: Any, rules: str = "sixty-six") -> Any:
    store.players.add("Anna")
    store.players.add("Bert")
    return store.matches.start("Anna", "Bert", rules=rules, first_dealer="Anna")


def play_deal(store: Any, match_id: int, deal: tuple[str, str]) -> Any:
    view = store.deals.start(match_id, deal[0])
    result = None
    for line in lines(deal):
        result = store.deals.play(view.id, line)
    return result


# --- players ---------------------------------------------------------------------------------


def test_player_names_are_unique_ignoring_case_and_spaces(store: Any) -> None:
    store.players.add("  Mary   Lou ")
    assert [p.name for p in store.players.all()] == ["Mary Lou"]
    with pytest.raises(Refused, match="Mary Lou"):
        store.players.add("mary lou")
    with pytest.raises(Refused, match="cannot contain"):
        store.players.add("Anna; Bert")
    with pytest.raises(Refused, match="empty"):
        store.players.add("   ")


def test_renaming_a_player_keeps_their_claims_in_the_records(store: Any) -> None:
    m = new_match(store)
    d = store.deals.start(m.id, "QH")
    store.deals.play(d.id, "KS AS")  # Anna wins the trick
    store.deals.play(d.id, "66@bert")  # Bert claims although Anna is on lead: a false claim
    assert "66@Bert" in store.deals.export(d.id)
    store.players.rename("bert", "Bertram")
    assert "66@Bertram" in store.deals.export(d.id)
    assert '[Forehand "Bertram"]' in store.deals.export(d.id)
    view = store.matches.state(m.id)
    assert view.deals[0].winner == "Anna" and view.deals[0].reason == "false-claim"
    with pytest.raises(Refused, match="exists already"):
        store.players.rename("Anna", "BERTRAM")


def test_merging_two_entries_moves_the_matches_to_the_kept_one(store: Any) -> None:
    m = new_match(store)
    store.players.add("Bertie")
    store.players.add("Carl")
    m2 = store.matches.start("Bertie", "Carl", first_dealer="Bertie")
    store.deals.quick_result(m2.id, winner="Bertie", points=2)
    kept = store.players.merge("Bert", "Bertie")
    assert kept.name == "Bert" and kept.matches == 2
    assert [p.name for p in store.players.all()] == ["Anna", "Bert", "Carl"]
    m2_view = store.matches.state(m2.id)
    assert m2_view.players == ("Bert", "Carl")
    assert m2_view.score == {"Bert": 2, "Carl": 0}
    with pytest.raises(Refused, match="played each other"):
        store.players.merge("Anna", "Bert")
    assert m.id != m2.id


def test_unknown_players_and_matches_are_not_found(store: Any) -> None:
    with pytest.raises(NotFound, match="Zoë"):
        store.matches.start("Zoë", "Anna", first_dealer="Zoë")
    with pytest.raises(NotFound, match="no match 42"):
        store.matches.state(42)
    with pytest.raises(NotFound, match="no deal 42"):
        store.deals.play(42, "KS")


# --- matches and deals -------------------------------------------------------------------------


def test_a_match_checks_its_rule_set_and_first_dealer(store: Any) -> None:
    store.players.add("Anna")
    store.players.add("Bert")
    store.players.add("Carl")
    with pytest.raises(Refused, match="unknown preset"):
        store.matches.start("Anna", "Bert", rules="skat", first_dealer="Anna")
    with pytest.raises(Refused, match="does not play in this match"):
        store.matches.start("Anna", "Bert", first_dealer="Carl")
    m = store.matches.start("Anna", "Bert", rules="schnapsen carry=accumulate", first_dealer="Bert")
    assert (m.rules, m.next_dealer, m.target) == ("schnapsen carry=accumulate", "Bert", 7)


def test_each_action_is_checked_and_placed_on_its_trick_line(store: Any) -> None:
    m = new_match(store)
    d = store.deals.start(m.id, "QH")
    assert (d.dealer, d.forehand, d.to_move, d.to_move_as) == ("Anna", "Bert", "Bert", "lead")
    r = store.deals.play(d.id, "KS")
    assert (r.deal.to_move, r.deal.to_move_as, r.tokens) == ("Anna", "follow", ("KS",))
    r = store.deals.play(d.id, ["AS"])
    assert (r.deal.to_move, r.deal.to_move_as, r.deal.trick) == ("Anna", "lead", 2)
    r = store.deals.play(d.id, "20 qc jc")
    assert store.deals.export(d.id).endswith("1. KS AS\n2. 20 QC JC\n")
    assert r.deal.points is None  # counted points stay hidden while the deal is played
    assert store.deals.play(d.id, "9d", referee=True).deal.points == {"Bert": 0, "Anna": 40}


def test_an_impossible_action_is_refused_and_nothing_is_stored(store: Any, db_url: str) -> None:
    m = new_match(store)
    d = store.deals.start(m.id, "QH")
    store.deals.play(d.id, "KS AS")
    before = dump(db_url)
    with pytest.raises(RecordError, match="KS was already played in trick 1"):
        store.deals.play(d.id, "10C KS")  # the first card is fine, the second impossible
    with pytest.raises(RecordError, match="turn-up"):
        store.deals.play(d.id, "QH")
    with pytest.raises(NotationError, match='"XS" is not a card'):
        store.deals.play(d.id, "XS")
    with pytest.raises(Refused, match='"Carl" does not play'):
        store.deals.play(d.id, "66@Carl")
    assert dump(db_url) == before


def test_a_violation_is_stored_and_announced_when_a_later_play_proves_it(store: Any) -> None:
    m = new_match(store)
    d = store.deals.start(m.id, LATE_REVOKE[0])
    announced = []
    for line in lines(LATE_REVOKE):
        r = store.deals.play(d.id, line, as_played=True)
        announced.append((r.deal.trick, [v.rule for v in r.new_violations], r.ruling_changed))
    # the revoke of trick 6 is proven by trick 8's cards, and only then announced
    assert announced[-1] == (9, ["follow-suit"], True)
    assert all(not v and not changed for _, v, changed in announced[:-1])
    assert (r.deal.winner, r.deal.reason, r.deal.game_points) == ("Anna", "illegal-play", 3)
    assert r.deal.violations[0].trick == 6 and r.deal.violations[0].player == "Bert"


def test_the_carry_and_dealer_are_derived_from_the_earlier_deals(store: Any) -> None:
    m = new_match(store)
    r = play_deal(store, m.id, DRAW_DEAL)
    assert (r.deal.reason, r.deal.carry_out, r.match.carry, r.match.next_dealer) == (
        "draw",
        1,
        1,
        "Bert",
    )
    r = play_deal(store, m.id, FAILED_CLOSE)  # Bert deals; Anna closes and fails
    assert (r.deal.dealer, r.deal.winner, r.deal.reason, r.deal.game_points) == (
        "Bert",
        "Bert",
        "failed-close",
        4,
    )
    assert '[Carry "1"]' in store.deals.export(r.deal.id)
    assert r.match.score == {"Anna": 0, "Bert": 4} and r.match.carry == 0


def test_a_deal_starts_only_after_the_last_one_ended_and_not_after_the_match(
    store: Any, db_url: str
) -> None:
    m = new_match(store, "sixty-six match_target=3")
    d = store.deals.start(m.id, "QH")
    with pytest.raises(Refused, match="not finished"):
        store.deals.start(m.id, "JS")
    store.deals.play(d.id, lines(DEALER_CLAIMS)[0])
    store.deals.delete(d.id)
    play_deal(store, m.id, DEALER_CLAIMS)  # Anna, the dealer, wins 3: the match is over
    state = store.matches.state(m.id)
    assert state.over and state.winner == "Anna" and state.next_dealer is None
    before = dump(db_url)
    with pytest.raises(Refused, match="match 1 is over: Anna won 3-0"):
        store.deals.start(m.id, "JS")
    with pytest.raises(Refused, match="over"):
        store.deals.quick_result(m.id, winner="Bert", points=1)
    assert dump(db_url) == before


def test_a_claim_may_follow_the_last_trick(store: Any) -> None:
    m = new_match(store)
    r = play_deal(store, m.id, DRAW_DEAL)
    assert r.deal.claimable and r.deal.reason == "draw"
    r = store.deals.play(r.deal.id, "66")  # Anna won the last trick, with 81 counted points
    assert (r.deal.winner, r.deal.reason, r.ruling_changed) == ("Anna", "claim", True)
    with pytest.raises(RecordError, match="nothing may follow a claim"):
        store.deals.play(r.deal.id, "66")


def test_close_at_the_lead_is_after_the_draws(store: Any) -> None:
    m = new_match(store)
    d = store.deals.start(m.id, "QH")
    store.deals.play(d.id, "KS AS close-before-draw")  # Anna closes before drawing
    assert store.deals.export(d.id).endswith("1. KS AS close\n")
    store.deals.undo(d.id)
    store.deals.play(d.id, "close")  # Anna has drawn and closes now, at the lead
    assert store.deals.export(d.id).endswith("1. KS AS\n2. close\n")
    store.deals.undo(d.id)
    store.deals.play(d.id, "close 10C")  # Anna draws, then closes and leads 10C
    assert store.deals.export(d.id).endswith("1. KS AS\n2. close 10C\n")
    store.deals.undo(d.id)
    store.deals.undo(d.id)
    store.deals.play(d.id, "CBD")  # the short form, any case
    assert store.deals.export(d.id).endswith("1. KS AS close\n")
    with pytest.raises(Refused, match="close-before-draw: a close before the draws comes"):
        store.deals.play(d.id, "10C close-before-draw")


def test_schnapsen_closes_after_the_draws(store: Any) -> None:
    m = new_match(store, "schnapsen")
    d = store.deals.start(m.id, "QH")
    r = store.deals.play(d.id, "KS AS close")
    assert store.deals.export(d.id).endswith("1. KS AS\n2. close\n")
    assert r.deal.violations == ()


def test_quick_results_are_checked_against_the_rule_set(store: Any) -> None:
    m = new_match(store)
    with pytest.raises(Refused, match="worth 1 or 2 or 3"):
        store.deals.quick_result(m.id, winner="Anna", points=4, reason="claim")
    with pytest.raises(Refused, match="does not play"):
        store.deals.quick_result(m.id, winner="Carl", points=1)
    d = store.deals.quick_result(m.id, winner=None, points=0, reason="draw")
    assert (d.kind, d.reason, d.carry_out) == ("quick", "draw", 1)
    d = store.deals.quick_result(m.id, winner="bert", points=2, reason="false-claim")
    assert (d.winner, d.game_points, d.dealer) == ("Bert", 3, "Bert")
    with pytest.raises(Refused, match="no record"):
        store.deals.export(d.id)


def test_import_checks_the_record_fits_the_match(store: Any) -> None:
    m = new_match(store)
    record = (
        '[Rules "sixty-six"]\n[Dealer "anna"]\n[Forehand "Bert"]\n[Trump "AH"]\n'
        '[Result "Anna 3"]\n\n1. QD 10H\n2. AS QS\n3. 40 KH 66\n'
    )
    wrong_dealer = record.replace('"anna"', '"Bert"').replace('"Bert"]\n[Trump', '"Anna"]\n[Trump')
    with pytest.raises(Refused, match="Dealer is Bert"):
        store.deals.import_records(m.id, [("x.deal", wrong_dealer)])
    with pytest.raises(Refused, match="played under"):
        store.deals.import_records(m.id, [("x.deal", record.replace("sixty-six", "pagat-66"))])
    with pytest.raises(RecordError, match="line 8: QS was already played"):
        store.deals.import_records(m.id, [("x.deal", record.replace("10H", "QS"))])
    with pytest.raises(Refused, match="Carry"):
        store.deals.import_records(
            m.id, [("x.deal", record.replace("[Trump", '[Carry "2"]\n[Trump'))]
        )
    [view] = store.deals.import_records(m.id, [("x.deal", record)])
    assert (view.winner, view.game_points) == ("Anna", 3)
    exported = store.deals.export(view.id)
    assert '[Dealer "Anna"]' in exported and '[Result "Anna 3"]' in exported
    assert rule(read_deal(exported)).agreed is True


def test_an_edit_is_checked_by_the_engine_before_it_is_saved(store: Any, db_url: str) -> None:
    m = new_match(store)
    r = play_deal(store, m.id, DEALER_CLAIMS)
    text = store.deals.export(r.deal.id)
    before = dump(db_url)
    with pytest.raises(RecordError, match="already played"):
        store.deals.edit(r.deal.id, text.replace("10H", "QD"))
    with pytest.raises(Refused, match="Dealer is Bert"):
        store.deals.edit(
            r.deal.id,
            text.replace('Dealer "Anna"', 'Dealer "Bert"').replace(
                'Forehand "Bert"', 'Forehand "Anna"'
            ),
        )
    assert dump(db_url) == before
    assert store.deals.edit(r.deal.id, text) is None  # no change
    view = store.deals.edit(r.deal.id, text.replace("3. 40 KH 66", "3. 40 KH 9H"))
    assert view is not None and view.reason == "incomplete"


def test_an_edit_that_would_break_a_later_deal_is_refused(store: Any) -> None:
    m = new_match(store, "pagat-66")  # the winner deals next
    first = play_deal(store, m.id, DEALER_CLAIMS)  # Anna deals and wins: she deals again
    play_deal(store, m.id, FOREHAND_CLAIMS)
    text = store.deals.export(first.deal.id)
    with pytest.raises(Refused, match=r"dealer of deal 1\.2"):
        store.deals.edit(first.deal.id, text.replace("3. 40 KH 66", "3. 66"))  # a false claim
    with pytest.raises(Refused, match="not the last deal"):
        store.deals.delete(first.deal.id)


def test_only_the_last_action_of_the_last_deal_can_be_undone(store: Any) -> None:
    m = new_match(store)
    d = store.deals.start(m.id, "QH")
    with pytest.raises(Refused, match="no action to undo"):
        store.deals.undo(d.id)
    store.deals.play(d.id, "KS AS")
    r = store.deals.undo(d.id)
    assert r.tokens == ("AS",) and (r.deal.to_move, r.deal.to_move_as) == ("Anna", "follow")


def test_every_change_is_audited_and_can_be_reversed(store: Any, db_url: str) -> None:
    empty = dump(db_url)
    m = new_match(store)
    d = store.deals.start(m.id, "QH")
    store.deals.play(d.id, "KS AS")
    after_play = dump(db_url)
    store.deals.play(d.id, "10C")
    log = store.audit.log()
    assert [e.command for e in log] == [
        "player add",
        "player add",
        "match start",
        "deal start",
        "deal play",
        "deal play",
    ]
    assert all(e.scorer == "tester" for e in log)
    assert log[-1].before is not None and log[-1].after is not None
    assert log[-1].after["deal:1"]["actions"][-1] == [3, 2, "10C"]
    with pytest.raises(Refused, match="changed since"):
        store.audit.reverse(log[-2].id)  # the deal changed again after it
    undone = store.audit.reverse(log[-1].id)
    assert undone.command == "audit undo"
    without_audit = {k: v for k, v in dump(db_url).items() if k != "audit_log"}
    assert without_audit == {k: v for k, v in after_play.items() if k != "audit_log"}
    with pytest.raises(Refused, match="reversed already"):
        store.audit.reverse(log[-1].id)
    store.audit.reverse(undone.id)  # the reversal is itself an entry that can be reversed
    assert store.deals.export(d.id).endswith("2. 10C\n")
    for entry in reversed(store.audit.log()):  # newest first: back to an empty database
        if entry.reversed_by is None:
            store.audit.reverse(entry.id)
    assert {k: v for k, v in dump(db_url).items() if k != "audit_log"} == {
        k: v for k, v in empty.items() if k != "audit_log"
    }


def test_a_deleted_deal_comes_back_with_its_actions(store: Any) -> None:
    m = new_match(store)
    r = play_deal(store, m.id, DRAW_DEAL)
    text = store.deals.export(r.deal.id)
    gone = store.deals.delete(r.deal.id)
    assert gone.reason == "draw" and store.matches.state(m.id).deals == ()
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.deals.export(r.deal.id) == text


def test_merging_players_can_be_reversed(store: Any, db_url: str) -> None:
    new_match(store)
    store.players.add("Bertie")
    store.players.add("Carl")
    m2 = store.matches.start("Bertie", "Carl", first_dealer="Carl")
    d = store.deals.start(m2.id, "QH")
    store.deals.play(d.id, "KS AS 66@Bertie")
    before = dump(db_url)
    store.players.merge("Bert", "Bertie")
    assert "66@Bert\n" in store.deals.export(d.id)
    store.audit.reverse(store.audit.log()[-1].id)
    after = dump(db_url)
    assert {k: v for k, v in after.items() if k != "audit_log"} == {
        k: v for k, v in before.items() if k != "audit_log"
    }
    assert "66@Bertie" in store.deals.export(d.id)


def test_deals_are_found_by_number_or_match_and_number(store: Any) -> None:
    m = new_match(store)
    d = store.deals.start(m.id, "QH")
    assert (
        store.deals.id_of(str(d.id))
        == d.id
        == store.deals.id_of("1.1")
        == store.deals.current(m.id)
    )
    with pytest.raises(NotFound, match="match 1 has no deal 2"):
        store.deals.id_of("1.2")
    with pytest.raises(NotFound, match="is not a deal"):
        store.deals.id_of("first")
