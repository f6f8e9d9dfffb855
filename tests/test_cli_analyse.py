"""``tally analyse DEAL``: a stored deal is exported through the store and analysed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.store_support import db_url, ok  # noqa: F401

RECORD = """[Dealer "Anna"]
[Forehand "Bert"]
[Trump "9C"]
[Hands "Bert: AC 10C KC QC JC AH; Anna: AS 10S KS QS JS 9S"]

1. AH 9S
2. AC 10S
3. 10C KS
4. KC QS
5. QC JS
6. JC AS
7. AD 9D
8. 10D JD 66
"""


def test_a_stored_deal_is_analysed_like_its_record(db_url: str, tmp_path: Path) -> None:
    # Bert had 71 counted points after trick 6 and claimed after trick 8: two tricks late.
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    path = tmp_path / "late.deal"
    path.write_text(RECORD, encoding="utf-8")
    ok(db_url, "deal", "import", "1", str(path))
    stored = json.loads(ok(db_url, "analyse", "1.1", "--json"))
    from_file = json.loads(ok(db_url, "analyse", str(path), "--json"))
    assert stored["claim"] == from_file["claim"] == {
        "claimer": "Bert", "trick": 8, "correct": True, "earliest": 6}
    text = ok(db_url, "analyse", "1.1")
    assert "the claim was possible 2 trick(s) earlier, after trick 6" in text
