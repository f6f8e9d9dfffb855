"""Analysis of whole records: closes, claims and the first costly phase-2 card."""

from __future__ import annotations

from pathlib import Path

import pytest

from tally.analysis.findings import DealAnalysis, analyse
from tally.engine.notation import read_deal
from tests.analysis_support import late_claim_record

DEALS = Path(__file__).resolve().parents[2] / "examples" / "deals"


def analysed(name: str, samples: int = 200, seed: int = 0):  # type: ignore[no-untyped-def]
    path = DEALS / name
    return analyse(
        read_deal(path.read_text(encoding="utf-8"), source=str(path)), samples=samples, seed=seed
    )


@pytest.fixture(scope="module")
def failed_close() -> DealAnalysis:
    """The analysis of failed-close-opponent-claims.deal (30 samples, seed 1), read by two
    tests: a frozen value, and its phase-1 table is most of the module's time."""
    a: DealAnalysis = analysed("failed-close-opponent-claims.deal", samples=30, seed=1)
    return a


def test_failed_close_is_unsound_with_best_defence_too(failed_close: DealAnalysis) -> None:
    # Renate closes before trick 4 holding every card the record shows (Hands, and every
    # phase-2 card played): Klaus's aces and trumps beat her whatever she does, so best play
    # fails too: 2 game points to Klaus, as played. Both hands known: solved exactly, whatever
    # the number of samples.
    a = failed_close
    assert a.close is not None and a.close.exact
    assert (a.close.player, a.close.best, a.close.as_played) == ("Renate", -2.0, -2)
    assert not a.close.sound
    assert a.mistake is None


def test_draw_thrown_away_by_leading_the_wrong_card() -> None:
    # pagat-66: at trick 7 Andreas has won every trick (65 points) and holds the AH; leading
    # it wins the trick and a claim with Petra trickless, schwarz: 3. He led KD instead, lost
    # it, and the deal was drawn: the KD is the first card that changed the value.
    a = analysed("pagat-equal-totals-draw.deal")
    assert a.phase2 is not None and a.phase2.best == 3.0 and a.phase2.as_played == 0
    assert a.mistake is not None
    assert (a.mistake.player, a.mistake.trick, a.mistake.card) == ("Andreas", 7, "KD")


def test_sampling_is_seeded_and_reproducible() -> None:
    first = analysed("sixty-six-claim.deal", samples=24, seed=7)
    again = analysed("sixty-six-claim.deal", samples=24, seed=7)
    assert first == again
    assert first.phase2 is not None and not first.phase2.exact
    assert first.phase2.samples == 24


def test_claim_possible_two_tricks_before_it_was_made() -> None:
    # Sixty-six (claim_when=any), clubs trumps. Anna's tricks 1 to 6 give her 11, 21, 14, 7, 5
    # and 13 card points: 71 after trick 6, so she could claim there. She plays on (the stock
    # is exhausted, she keeps winning) and claims only after trick 8: two tricks late.
    text = late_claim_record("Bert", "Anna")
    a = analyse(read_deal(text))
    assert a.claim is not None and a.claim.correct
    assert (a.claim.claimer, a.claim.trick, a.claim.earliest, a.claim.late_by) == ("Anna", 8, 6, 2)


# --- tally analyse ---


def test_analyse_tells_the_close_like_a_commentator() -> None:
    from typer.testing import CliRunner

    from tally.cli import app

    # both hands known: the close is solved exactly, whatever the samples (4: the decisions
    # to close at each lead, each sample solved exactly, are the rest of the time)
    result = CliRunner().invoke(
        app, ["analyse", "--samples", "4", str(DEALS / "schnapsen-failed-close.deal")]
    )
    assert result.exit_code == 0, result.output
    assert "Elfi closed before trick 3: an unsound close, solved exactly" in result.output
    assert "as played -2" in result.output
    assert "Best line: Elfi" in result.output


def test_analyse_json_is_strict_and_one_object_per_deal() -> None:
    import json

    from typer.testing import CliRunner

    from tally.cli import app

    files = [str(DEALS / "pagat-equal-totals-draw.deal"), str(DEALS / "sixty-six-claim.deal")]
    result = CliRunner().invoke(
        app, ["analyse", "--json", "--samples", "50", "--seed", "3", *files]
    )
    assert result.exit_code == 0, result.output
    objects = [json.loads(line) for line in result.output.splitlines()]
    assert [o["file"] for o in objects] == files
    assert objects[0]["mistake"] == {
        "player": "Andreas",
        "trick": 7,
        "card": "KD",
        "before": 3.0,
        "after": 1.0,
        "after_last": False,
    }
    assert objects[1]["phase2"]["samples"] == 50


def test_analyse_refuses_a_missing_file_in_one_line() -> None:
    from typer.testing import CliRunner

    from tally.cli import app

    result = CliRunner().invoke(app, ["analyse", "no-such.deal"])
    assert result.exit_code != 0
    assert "no-such.deal: cannot be read" in result.output


def test_the_decision_to_close_is_weighed_at_each_phase_one_lead(
    failed_close: DealAnalysis,
) -> None:
    # Renate closed before trick 4 of this record: the decision there is reported, and with
    # Klaus's aces and trumps against her the close loses on average (the exact value of
    # every sampled deal is -2: she never reaches 66), worse than playing on.
    a = failed_close
    closes = [d for d in a.decisions if d.closed]
    assert [(d.trick, d.player) for d in closes] == [(4, "Renate")]
    assert closes[0].close_now == -2.0 and closes[0].better == "play on"
    assert all(d.trick < 4 for d in a.decisions if not d.closed)


#: the inner loop (-m "not slow") analyses the first 2 random deals of each preset (one with
#: both hands recorded, one without), the whole suite all 12
FIRST_DEALS = [range(2), pytest.param(range(2, 12), marks=pytest.mark.slow)]


@pytest.mark.parametrize("deals", FIRST_DEALS)
def test_random_legal_deals_are_analysed_with_values_in_range(deals: range) -> None:
    import random

    from tally.engine.deal import Deal
    from tally.engine.notation import write_deal
    from tally.engine.rules import RuleSet

    for preset in ("sixty-six", "schnapsen", "pagat-66"):
        rules = RuleSet.preset(preset)
        rng = random.Random(preset)
        for k in range(12):
            deal = Deal.random(rules, rng)
            deal.play_out_randomly(rng)
            if k not in deals:
                continue
            record = read_deal(write_deal(deal.record(hands=k % 2 == 0)))
            a = analyse(record, samples=10, seed=k)
            for f in (a.close, a.phase2):
                if f is not None:
                    assert -3 <= f.best <= 3 and 0 <= f.won_share <= 1
                    assert sum(c for _, c in f.distribution) == f.samples
            for d in a.decisions:
                assert -3 <= d.close_now <= 3 and -3 <= d.play_on <= 3
            if a.mistake is not None:
                assert a.mistake.after < a.mistake.before or pytest.fail(str(a.mistake))


def test_marks_resting_on_the_rollout_say_so() -> None:
    # Sixty-Six: the chances to close at the first three leads compare with playing on
    # estimated by the rollout, and their marks carry a star everywhere they are shown;
    # from the fourth lead, and from Schnapsen's second, both are solved
    from tally.analysis.wording import every_decision

    examples = Path(__file__).resolve().parents[2] / "examples" / "deals"
    text = (examples / "failed-close-opponent-claims.deal").read_text(encoding="utf-8")
    a = analyse(read_deal(text), samples=3)
    closes = {m.trick: m for m in a.marks if m.kind in ("close", "no-close")}
    assert [t for t, m in sorted(closes.items()) if m.estimated] == [1, 2, 3]
    assert not closes[4].estimated and closes[4].kind == "close"
    assert all(not m.estimated for m in a.marks if m.kind not in ("close", "no-close"))
    words = every_decision(a)
    assert "1. Klaus no close (+" in words and "*)" in words
    assert words.endswith("*: playing on estimated by the rollout, not solved.")
    assert closes[1].as_json()["estimated"] is True
    schnapsen = (examples / "schnapsen-failed-close.deal").read_text(encoding="utf-8")
    b = analyse(read_deal(schnapsen), samples=3)
    assert [m.trick for m in b.marks if m.estimated] == [1]
    assert b.marks[0].kind == "no-close" and "1. Martin no close (+" in every_decision(b)


def test_samples_caps_the_closers_view_too() -> None:
    # --samples N is a quick look: the closer's view samples no more than N deals either
    examples = Path(__file__).resolve().parents[2] / "examples" / "deals"
    text = (examples / "schnapsen-failed-close.deal").read_text(encoding="utf-8")
    a = analyse(read_deal(text), samples=5)
    assert a.closer_view is not None and a.closer_view.samples <= 5
    assert all(d.samples <= 5 for d in a.decisions)
