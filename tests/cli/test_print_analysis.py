"""``tally print ruling`` with its Analysis part and ``tally print analysis MATCH``, on a stored
match, read back with pypdf.

One SQLite database for the module (match 1: Anna against a player named ``<b>x</b>``, with a
late claim, an unsound close, a revoke and a quick-entry deal); each PDF is printed once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tally.analysis.findings import analyse
from tally.analysis.marks import lost_by
from tally.analysis.wording import findings
from tally.engine.notation import read_deal
from tally.sheets.render import format_number
from tests.analysis_support import late_claim_record
from tests.cli.test_print import Club, Printed, run_in
from tests.pdf_support import pages_text, squash

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "deals"
HOSTILE = "<b>x</b>"

# Both hands known; HOSTILE (forehand) has 71 counted points after trick 6 and claims after
# trick 8, two tricks late (as in tests/cli/test_analyse.py).
LATE_CLAIM = late_claim_record("Anna", HOSTILE)


def _renamed(example: str, names: dict[str, str]) -> str:
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    for old, new in names.items():
        text = text.replace(old, new)
    return text


# HOSTILE deals and closes before trick 4 with both hands known; Anna reaches 83 and claims
# first: a failed close, and best play cannot save it (an unsound close).
FAILED_CLOSE = _renamed("failed-close-opponent-claims.deal", {"Renate": HOSTILE, "Klaus": "Anna"})
# Anna deals; HOSTILE revokes in trick 7: the record has a violation, nothing to analyse.
REVOKE = _renamed("revoke-proved-later.deal", {"Greta Huber": "Anna", "Franz Leitner": HOSTILE})


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    from tally.store import open_store

    root = tmp_path_factory.mktemp("print-analysis")
    url = f"sqlite:///{root / 'club.db'}"
    store = open_store(url, scorer="tester")
    try:
        store.players.add("Anna")
        store.players.add(HOSTILE)
        store.matches.start("Anna", HOSTILE, first_dealer="Anna")
        store.deals.import_records(
            1, [("late", LATE_CLAIM), ("close", FAILED_CLOSE), ("revoke", REVOKE)]
        )
        store.deals.quick_result(1, winner="Anna", points=1)
    finally:
        store.close()
    yield Club(url, root)


@pytest.fixture(scope="module")
def printed(club: Club) -> dict[str, Printed]:
    sheets = {
        "late": ("print", "ruling", "1.1"),
        "close": ("print", "ruling", "1.2", "--samples", "20", "--seed", "3"),
        "bare": ("print", "ruling", "1.2", "--no-analysis"),
        "revoke": ("print", "ruling", "1.3"),
        "match": ("print", "analysis", "1"),
    }
    return {
        key: run_in(club.root / f"printed-{key}", club.url, *args) for key, args in sheets.items()
    }


def test_ruling_sheet_has_the_findings_of_tally_analyse(printed: dict[str, Printed]) -> None:
    flat = squash(printed["late"].text)
    record = read_deal(LATE_CLAIM, source="1.1")
    expected = findings(analyse(record), decisions=False)
    assert [f.label.split(" (")[0] for f in expected] == [
        "Close",
        "Value",
        "Best line",
        "Turning card",
        "Claim",
        "Marks",
        "Game points lost",
        "Game points lost",
    ]
    assert squash("Analysis") in flat
    for f in expected:  # the same sentences, the label in a column of its own
        assert squash(f"{f.label} {f.text}") in flat, f
    assert (
        squash(
            f"{HOSTILE} claimed after trick 8: correct; the claim was possible 2 "
            "trick(s) earlier, after trick 6."
        )
        in flat
    )


def test_ruling_sheet_tells_an_unsound_close_and_each_decision_to_close(
    printed: dict[str, Printed],
) -> None:
    p = printed["close"]
    assert list(p.files) == ["ruling-deal-1.2.pdf"]
    flat = squash(p.text)
    assert (
        squash(
            f"Close {HOSTILE} closed before trick 4: an unsound close, solved exactly "
            "(both hands known)."
        )
        in flat
    )
    assert squash(f"the deal is worth -2 game points to {HOSTILE}; as played -2.") in flat
    assert squash("Closing or playing on, at each lead of phase 1") in flat
    # one row per phase-1 lead where the leader could close; trick 4 is the close itself
    assert squash(f"4 {HOSTILE} closed") in flat
    assert squash("(20 samples, seed 3;") in flat
    # each row's margin, and the earliest leads' playing on marked as the rollout's estimate
    assert squash("±: how far the 95% interval of closing less playing on reaches") in flat
    assert squash("*: playing on estimated by the rollout, a fixed way of playing") in flat


def test_no_analysis_leaves_the_part_out(printed: dict[str, Printed]) -> None:
    text = printed["bare"].text
    assert "Analysis" not in text and "Ruling: Anna wins the deal" in text


def test_a_record_with_a_violation_gets_a_one_line_note(printed: dict[str, Printed]) -> None:
    pages = pages_text(printed["revoke"].pdf)
    flat = squash("".join(pages))
    assert squash("Analysis: not analysed, the record has errors or violations.") in flat
    assert "Closing or playing on" not in "".join(pages) and "Best line" not in flat


def test_match_analysis_sheet_has_a_row_per_recorded_deal_and_totals(
    printed: dict[str, Printed],
) -> None:
    p = printed["match"]
    assert list(p.files) == ["analysis-match-1.pdf"]
    assert p.out == "Wrote analysis-match-1.pdf\n"
    pages = pages_text(p.pdf)
    assert len(pages) == 1
    text, flat = pages[0], squash(pages[0])
    assert "Match 1: the closes and claims" in text
    # nobody closed: values from the forehand's side, a mean over the 200 sampled stocks
    assert (
        squash(f"1.1 nobody (stock out) 7 – {HOSTILE} +3 +3 (200) correct, 2 tricks late") in flat
    )
    assert squash(f"1.2 {HOSTILE} 4 unsound {HOSTILE} −2 −2") in flat
    assert squash("1.3 the record has errors or violations") in flat
    assert squash("1 deal entered as a result (quick entry) had no record") in flat
    # per player: deals, closes, sound, lost to unsound closes, late claims, lost to them,
    # then the marks' losses to closes, to claims, to card play (as tally analyse adds them)
    lost = {"closes": 0.0, "claims": 0.0, "cards": 0.0}
    for record in (LATE_CLAIM, FAILED_CLOSE):
        for area, points in lost_by(analyse(read_deal(record)).marks, HOSTILE).items():
            lost[area] += points
    assert lost["closes"] > 0  # the unsound close and chances to close not taken
    mine = " ".join(format_number(round(lost[k], 4)) for k in ("closes", "claims", "cards"))
    assert squash("Anna 3 0 0 0 0 0 0 0 0") in flat
    assert squash(f"{HOSTILE} 3 1 0 2 1 0 {mine}") in flat  # the late claim still scored 3
    assert "Lost to card play" in text


def test_hostile_names_print_as_text(printed: dict[str, Printed]) -> None:
    for key in ("late", "match"):
        assert HOSTILE in printed[key].text


def test_print_analysis_of_an_unknown_match_is_refused(club: Club) -> None:
    p = run_in(club.root / "unknown", club.url, "print", "analysis", "9")
    assert p.code == 2 and not p.files
