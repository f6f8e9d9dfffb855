"""The blind spots of issue 37, each on its minimal record (tests/data/analysis, copied from the
specification's cases): a claim not made after the last trick, a close before the draws, a
missed claim in phase 1, the closer's view over what the closer knew, honest intervals and one
judgement of a close on one sheet."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tally.analysis.findings import DealAnalysis
from tests.analysis.test_cases import case, told


def test_a_claim_not_made_after_the_last_trick_is_marked() -> None:
    # Anna closed, took every trick and finished with 66 or more, but never claimed: the deal
    # is drawn (sixty-six), so not claiming after trick 7 threw away the 3 she had.
    a = case("A-unclaimed-end-missed-claim-66.deal", samples=2)
    end = a.marks[-1]
    assert (end.trick, end.player, end.kind, end.before, end.after, end.symbol) == (
        7,
        "Anna",
        "no-claim",
        3.0,
        0.0,
        "??",
    )
    assert end.forehand_after == 0.0  # the graph ends at the drawn deal
    assert not [m for m in a.marks if m.player == "Bert" and m.loss]
    assert a.mistake is not None and (a.mistake.player, a.mistake.card) == ("Anna", "no claim")
    text = told("A-unclaimed-end-missed-claim-66.deal", samples=2)
    assert "both sides played it out well" not in text
    assert "Anna did not claim after the last trick (trick 7)" in text


def test_a_close_before_the_draws_gets_its_mark_and_counts_as_lost_to_closes() -> None:
    # The club evening's deal: Franz wins trick 1 and closes before the draws; by what he knew
    # playing on was worth far more than a close that fails in nearly every deal.
    from tally.analysis.report import report

    a = case("A-before-draws-close-no-mark-club-example.deal", samples=40)
    close = [m for m in a.marks if m.kind == "close"]
    assert [(m.trick, m.player, m.symbol) for m in close] == [(2, "Franz Moser", "??")]
    assert close[0].best_action == "no close"
    (d,) = [d for d in a.decisions if d.closed]
    assert d.before_draws and d.close_now < d.play_on
    text = told("A-before-draws-close-no-mark-club-example.deal", samples=40)
    assert "no decision lost a game point" not in text
    assert "2. Franz Moser close??" in text
    # the deal's total as every total of it is shown, to two decimals (3.95, not 4)
    assert f"Franz Moser lost {round(close[0].loss, 2):g} to closes" in text
    franz = {p.player: p for p in report("match 1", [a]).players}["Franz Moser"]
    assert franz.lost_to_closes == round(close[0].loss, 2) >= 2


def test_the_closers_own_hand_not_proven_is_sampled_and_said_so() -> None:
    # Bert's hand at the close is not proven whole by the record: his view samples it too,
    # and says over how many samples, never "over all deals".
    a = case("A-closer-view-guessed-hand-labelled-all-deals.deal", samples=40)
    v = a.closer_view
    assert v is not None and not v.own_known and not v.exact and v.samples == 40
    text = told("A-closer-view-guessed-hand-labelled-all-deals.deal", samples=40)
    assert "over all" not in text
    assert "over 40 samples of the deals consistent with it" in text
    assert "Bert's own hand is not proven by the record and was sampled too" in text


def test_the_interval_is_of_closing_less_playing_on_and_never_zero_for_a_sample() -> None:
    # Anna's close fails in nearly every deal she had to reckon with: a sample of near-equal
    # outcomes still has an interval, and the difference the mark rests on lies inside it.
    a = case("A-closer-view-margin-zero-mark-class.deal", samples=40)
    v = a.closer_view
    assert v is not None and not v.exact
    gap = v.close_value - v.play_on
    assert v.low < gap < v.high and v.high - v.low > 0.5
    assert v.high < 0 and v.sure  # the whole interval says closing was worse
    text = told("A-closer-view-margin-zero-mark-class.deal", samples=40)
    assert "±0" not in text and "Unsound by what Anna knew" in text
    assert "95% between" in text


def test_sampling_differs_from_deal_to_deal_and_repeats_for_the_same_deal() -> None:
    # the seed comes from the deal as played: another deal samples otherwise, the same deal
    # (whatever else its record says, such as Hands) the same way
    from tally.analysis.findings import deal_seed
    from tally.engine.notation import read_deal
    from tests.analysis.test_cases import CASES

    one, same = (
        read_deal((CASES / f"A-lead-table-uses-opponent-hands-66-{name}.deal").read_text("utf-8"))
        for name in ("with-hands", "no-hands")
    )
    other = read_deal((CASES / "O1-false-claim-cheaper.deal").read_text(encoding="utf-8"))
    assert deal_seed(one, "sixty-six", 0) == deal_seed(same, "sixty-six", 0)
    assert deal_seed(one, "sixty-six", 0) != deal_seed(other, "sixty-six", 0)
    assert deal_seed(one, "sixty-six", 0) != deal_seed(one, "sixty-six", 1)


def test_the_table_of_leads_and_the_closers_view_judge_the_close_alike() -> None:
    # One close, one judgement: the row of the close in the table of leads is the closer's
    # view, and neither knows Bert's hand, so recording it (Hands) or not changes nothing.
    found = {}
    for name in ("with-hands", "no-hands"):
        a = case(f"A-lead-table-uses-opponent-hands-66-{name}.deal", samples=40)
        v = a.closer_view
        (d,) = [d for d in a.decisions if d.closed]
        assert v is not None and (d.close_now, d.play_on, d.low, d.high) == (
            v.close_value,
            v.play_on,
            v.low,
            v.high,
        )
        found[name] = (d.trick, d.close_now, d.play_on, d.low, d.high)
    # the phase-2 play proves Anna's hand at the close: Bert's dealt hand is never used
    assert found["with-hands"] == found["no-hands"]


def test_a_claim_missed_in_phase_1_is_marked_with_its_cost() -> None:
    # Anna had 66 after trick 5 with Bert still without a trick (3 game points); she played
    # on, Bert won trick 6, and her claim after trick 7 scored 2: waiting cost 1.
    a = case("A-phase1-missed-claim-cost.deal", samples=2)
    missed = [m for m in a.marks if m.kind == "no-claim" and m.trick < 7]
    assert [(m.trick, m.player, m.before, m.after, m.symbol, m.best_action) for m in missed] == [
        (6, "Anna", 3.0, 2.0, "?", "claim")
    ]
    assert a.claim_cost == 1
    text = told("A-phase1-missed-claim-cost.deal", samples=2)
    assert "waiting cost 1 game point." in text
    assert "6. Anna no claim? (+3 → +2; claim instead kept +3)" in text
    assert lost_in(a, "Anna")["claims"] >= a.claim_cost


def lost_in(a: DealAnalysis, player: str) -> dict[str, float]:
    from tally.analysis.marks import lost_by

    return lost_by(a.marks, player)


def test_a_marked_card_names_the_card_that_kept_the_value() -> None:
    # D4, both hands proven: Bert's QS at trick 8 threw away 2; the 10D kept his +1.
    a = case("D4-sampling-ignores-s12.deal", samples=2)
    (m,) = [m for m in a.marks if m.symbol and m.kind == "card"]
    assert (m.trick, m.player, m.action, m.best_action, m.before, m.after) == (
        8,
        "Bert",
        "QS",
        "10D",
        1.0,
        -1.0,
    )
    assert "8. Bert QS?? (+1 → -1; 10D instead kept +1)" in told("D4-sampling-ignores-s12.deal", 2)


def test_the_graph_joins_one_kind_of_value_and_labels_the_closers_knowledge() -> None:
    # the line joins the values with both hands known (cards, claims); the closes and chances
    # to close, judged by what the leader knew, are hollow points off the line, labelled
    import re

    from tally.engine.notation import read_deal
    from tally.sheets.build import analysis_part
    from tests.analysis.test_cases import CASES

    path = CASES / "A-before-draws-close-no-mark-club-example.deal"
    part = analysis_part(read_deal(path.read_text(encoding="utf-8")), samples=8)
    knew = [m for m in part.marks if m.kind in ("close", "no-close")]
    line = re.search(r'<polyline points="([^"]*)"', part.graph)
    assert knew and line is not None
    assert len(line[1].split()) == len(part.marks) - len(knew)
    assert part.graph.count('fill="#fff"') == len(knew)
    assert "by what the player on lead knew" in part.graph
    # the marks' table names what was better instead
    assert [m.best_action for m in part.marks if m.symbol] == ["no close"]


def test_json_gives_each_interval_and_the_better_choice() -> None:
    import json

    from tests.analysis.test_cases import said

    found = json.loads(
        said("A-closer-view-margin-zero-mark-class.deal", "--json", "--samples", "8")
    )
    view = found["closer_view"]
    assert view["low"] < view["close_value"] - view["play_on"] < view["high"]
    assert view["margin"] > 0 and view["own_known"] is True
    assert all(d["low"] <= d["high"] and d["margin"] >= 0 for d in found["decisions"])
    # (a phase-1 lead's mark, "orders" in it, names its better card: test_phase1_marks.py)
    assert [m["best"] for m in found["marks"] if m["mark"] and "orders" not in m] == ["no close"]
    assert all(m["best"] for m in found["marks"] if m["mark"])


@given(st.lists(st.integers(-6, 6), min_size=1, max_size=60))
def test_a_sampled_interval_holds_its_mean_and_is_never_a_point(values: list[int]) -> None:
    from tally.analysis.closer_view import interval

    mean = sum(values) / len(values)
    low, high = interval(values)
    assert low <= mean <= high and high - low > 0
    assert interval(values, exact=True) == (mean, mean)
