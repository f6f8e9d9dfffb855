"""The blind spots of issue 37, each on its minimal record (tests/data/analysis, copied from the
specification's cases): a claim not made after the last trick, a close before the draws, a
missed claim in phase 1, the closer's view over what the closer knew, honest intervals and one
judgement of a close on one sheet."""

from __future__ import annotations

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
    assert "Anna did not claim" in text
