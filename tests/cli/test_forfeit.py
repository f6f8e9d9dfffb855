"""`tally event forfeit` (CliRunner): a player who did not come to one round's match, the
opponent winning it by forfeit (+/-), or nobody when both stayed away (-/-); shown on `tally
event show`, `tally event round` and the cross-table; taken back with --cancel; the refusals
as one line with exit status 2."""

from __future__ import annotations

from tally.store import open_store
from tests.store_support import ok, refused

FOUR = ["Anna", "Bert", "Carl", "Dora"]


def robin(db_url: str) -> tuple[str, str]:
    """A round robin of four, round 1 started: its first pairing."""
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Cup", *FOUR, "--kind", "round-robin")
    ok(db_url, "event", "round", "Cup", "1", "--start")
    with open_store(db_url) as s:
        p = s.events.rounds("Cup", 1)[0].pairings[0]
    return p.first, p.second


def test_a_no_show_is_recorded_shown_and_taken_back(db_url: str) -> None:
    gone, _came = robin(db_url)
    out = ok(db_url, "event", "forfeit", "Cup", gone, "--round", "1")
    assert f'{gone} did not come to round 1 of event 1 "Cup": the match is forfeited.' in out
    assert f"Did not come in round 1 (forfeit): {gone}." in out
    assert f"Did not come in round 1 (forfeit): {gone}." in ok(db_url, "event", "show", "Cup")
    cross = ok(db_url, "event", "cross", "Cup")
    assert "+" in cross and "-" in cross
    out = ok(db_url, "event", "forfeit", "Cup", gone, "--round", "1", "--cancel")
    assert "plays the match of round 1" in out
    assert "Did not come" not in ok(db_url, "event", "show", "Cup")


def test_the_refusals_say_why(db_url: str) -> None:
    gone, came = robin(db_url)
    with open_store(db_url) as s:
        match_id = s.events.rounds("Cup", 1)[0].pairings[0].matches[0].match_id
        s.deals.quick_result(match_id, winner=came, points=2, reason="claim")
    refused(db_url, "event", "forfeit", "Cup", gone, "--round", "1", match="a game played stands")
    refused(db_url, "event", "forfeit", "Cup", gone, "--round", "2", match="has not started")
    refused(db_url, "event", "forfeit", "Cup", "Nobody", "--round", "1", match="Nobody")


def test_a_club_evening_takes_no_one_round_forfeit(db_url: str) -> None:
    ok(db_url, "player", "add", *FOUR)
    ok(db_url, "event", "create", "Evening", *FOUR)
    refused(
        db_url, "event", "forfeit", "Evening", "Anna", "--round", "1",
        match="a one-round forfeit is for a Swiss event or a round robin",
    )  # fmt: skip
