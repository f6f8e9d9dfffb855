"""``tally match``: start, show (with --json), list."""

from __future__ import annotations

import json

from tests.store_support import DEALER_CLAIMS, DRAW_DEAL, lines, ok, refused


def test_a_match_is_started_shown_and_listed(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    assert ok(
        db_url,
        "match",
        "start",
        "Anna",
        "Bert",
        "--dealer",
        "bert",
        "--rules",
        "sixty-six match_target=5",
    ) == (
        "Started match 1: Anna v Bert, sixty-six match_target=5, to 5 game points. "
        "Bert deals first.\n"
    )
    ok(db_url, "deal", "start", "1", DRAW_DEAL[0])
    for line in lines(DRAW_DEAL):
        ok(db_url, "deal", "play", "1", *line.split())
    ok(db_url, "deal", "quick", "1", "--winner", "Bert", "--points", "2")
    shown = ok(db_url, "match", "show", "1")
    assert "     1  Bert       -          draw                 0      1      0     0" in shown
    assert "     2  Anna       Bert       claim            2+1=3      0      0     3 q" in shown
    assert shown.endswith("Match 1: Anna 0, Bert 3, playing to 5. Next deal: Bert deals.\n")
    data = json.loads(ok(db_url, "match", "show", "1", "--json"))
    assert data["score"] == {"Anna": 0, "Bert": 3} and data["next_dealer"] == "Bert"
    assert [(d["reason"], d["game_points"], d["carry_out"]) for d in data["deals"]] == [
        ("draw", 0, 1),
        ("claim", 3, 0),
    ]
    assert data["deals"][0]["points"] == {"Anna": 49, "Bert": 81}  # the deal is over
    listed = json.loads(ok(db_url, "match", "list", "--json"))
    assert [(m["id"], m["deals"], m["over"]) for m in listed] == [(1, 2, False)]
    assert "Anna v Bert" in ok(db_url, "match", "list")


def test_a_finished_match_says_who_won(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(
        db_url,
        "match",
        "start",
        "Anna",
        "Bert",
        "--dealer",
        "Anna",
        "--rules",
        "sixty-six match_target=3",
    )
    ok(db_url, "deal", "start", "1", DEALER_CLAIMS[0])
    out = ok(db_url, "deal", "play", "1", *" ".join(lines(DEALER_CLAIMS)).split())
    assert "Match 1 is over: Anna wins, Anna 3, Bert 0." in out
    assert json.loads(ok(db_url, "match", "show", "1", "--json"))["winner"] == "Anna"


def test_match_refusals(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl")
    refused(
        db_url,
        "match",
        "start",
        "Anna",
        "Bert",
        "--dealer",
        "Anna",
        "--rules",
        "skat",
        match='unknown preset "skat"',
    )
    refused(
        db_url,
        "match",
        "start",
        "Anna",
        "Bert",
        "--dealer",
        "Anna",
        "--rules",
        "sixty-six carry=lots",
        match='option "carry" takes accumulate, none',
    )
    refused(
        db_url,
        "match",
        "start",
        "Anna",
        "Zoë",
        "--dealer",
        "Anna",
        match='there is no player "Zoë"',
    )
    refused(
        db_url,
        "match",
        "start",
        "Anna",
        "Bert",
        "--dealer",
        "Carl",
        match="does not play in this match",
    )
    refused(
        db_url,
        "match",
        "start",
        "Anna",
        "anna",
        "--dealer",
        "Anna",
        match="a match needs two players",
    )
    refused(db_url, "match", "show", "7", match="there is no match 7")
