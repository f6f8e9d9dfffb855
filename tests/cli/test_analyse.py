"""``tally analyse DEAL``: a stored deal is exported through the store and analysed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.analysis_support import late_claim_record
from tests.store_support import ok

RECORD = late_claim_record("Anna", "Bert")


def test_a_stored_deal_is_analysed_like_its_record(db_url: str, tmp_path: Path) -> None:
    # Bert had 71 counted points after trick 6 and claimed after trick 8: two tricks late.
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    path = tmp_path / "late.deal"
    path.write_text(RECORD, encoding="utf-8")
    ok(db_url, "deal", "import", "1", str(path))
    stored = json.loads(ok(db_url, "analyse", "1.1", "--json"))
    from_file = json.loads(ok(db_url, "analyse", str(path), "--json"))
    assert (
        stored["claim"]
        == from_file["claim"]
        == {
            "claimer": "Bert",
            "trick": 8,
            "correct": True,
            "earliest": 6,
            "on_marriage": False,
            "earliest_on_marriage": False,
        }
    )
    text = ok(db_url, "analyse", "1.1")
    assert "the claim was possible 2 trick(s) earlier, after trick 6" in text


# Bert claims after trick 8, two tricks late, and it costs him: after trick 6 Anna had no
# trick (schwarz, 3 game points); she wins trick 7 with 21 points (schneider: 2 at the claim).
LATE_AND_COSTLY = RECORD.replace("7. AD 9D\n8. 10D JD 66", "7. 10D AD\n8. 9D JD 66")


def _match_with_a_quick_deal(db_url: str, tmp_path: Path, *extra: str) -> None:
    path = tmp_path / "costly.deal"
    path.write_text(LATE_AND_COSTLY, encoding="utf-8")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna", *extra)
    ok(db_url, "deal", "import", "1", str(path))
    ok(db_url, "deal", "quick", "1", "--winner", "Anna", "--points", "1")


def test_match_report_per_player(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    _match_with_a_quick_deal(db_url, tmp_path)
    found = json.loads(ok(db_url, "analyse", "--match", "1", "--json"))
    assert (found["scope"], found["analysed"], found["skipped"]) == ("match 1", 1, 1)
    bert = next(p for p in found["players"] if p["player"] == "Bert")
    assert bert == {
        "player": "Bert",
        "deals": 1,
        "closes": 0,
        "sound_closes": 0,
        "lost_to_unsound_closes": 0,
        "late_claims": 1,
        "lost_to_late_claims": 1,
        "lost_to_closes": bert["lost_to_closes"],
        "lost_to_claims": bert["lost_to_claims"],
        "lost_to_cards": bert["lost_to_cards"],
    }
    # the claims not made after tricks 6 and 7, each a mean over the sampled hands
    assert 0.5 <= bert["lost_to_claims"] <= 1.5
    text = ok(db_url, "analyse", "--match", "1")
    assert "1 quick-entry deal(s) skipped (no record)" in text


def test_event_report_gathers_its_matches(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "event", "create", "Thursday club", "Anna", "Bert", "--date", "2026-01-08")
    _match_with_a_quick_deal(db_url, tmp_path, "--event", "1")
    found = json.loads(ok(db_url, "analyse", "--event", "Thursday club", "--json"))
    assert found["scope"] == 'event 1 "Thursday club"'
    assert [p["player"] for p in found["players"]] == ["Anna", "Bert"]
    assert found["players"][1]["lost_to_late_claims"] == 1


def test_analyse_needs_exactly_one_source(db_url: str) -> None:
    from tests.store_support import refused

    refused(db_url, "analyse", match="give deal FILEs or a DEAL")
    refused(db_url, "analyse", "x.deal", "--match", "1", match="one of them")
