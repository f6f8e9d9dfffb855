"""When no Swiss pairing avoids a rematch, the round is refused; the director may accept the
least bad pairing (`tally event round EVENT N --start --accept-rematches`): the fewest
rematches, each named on the screen and in the audit log."""

from __future__ import annotations

import json

from tests.store_support import ok, refused

FOUR = ["Anna", "Bert", "Carl", "Dora"]


def play_round(url: str, number: int) -> None:
    rnd = json.loads(ok(url, "event", "round", "Open", str(number), "--start", "--json"))
    for p in rnd["pairings"]:
        for m in p["matches"]:
            ok(url, "match", "result", str(m["match_id"]), "7:0")


def test_a_round_with_only_rematches_left_is_refused_or_paired_with_the_rematches_named(
    db_url: str,
) -> None:
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Open", *FOUR, "--kind", "swiss", "--rounds", "4")
    for number in (1, 2, 3):
        play_round(db_url, number)  # everybody has met everybody
    refused(db_url, "event", "round", "Open", "4", "--start", match="rematch")
    out = ok(db_url, "event", "round", "Open", "4", "--start", "--accept-rematches")
    assert out.count("Rematch accepted:") == 2
    assert "rematches accepted: " in ok(db_url, "audit", "--limit", "1")
