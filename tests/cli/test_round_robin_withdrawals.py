"""A round robin's withdrawal from the command line, as FIDE has it (docs/events.md,
*Withdrawals*): a player who withdraws before half of their games is struck out, the results
of their games played included; after half, their remaining games are forfeits credited round
by round, and the round's preview shows their table as one."""

from __future__ import annotations

import json

from tests.store_support import ok

SIX = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def _cup(url: str) -> None:
    ok(url, "player", "add", *SIX)
    ok(url, "event", "create", "Cup", *SIX, "--kind", "round-robin")


def _play(url: str, number: int) -> None:
    """Start round ``number`` and let each table's first player win 7:3."""
    ok(url, "event", "round", "Cup", str(number), "--start")
    rows = json.loads(ok(url, "event", "round", "Cup", str(number), "--json"))
    for p in rows["pairings"]:
        for m in p["matches"]:
            ok(url, "match", "result", str(m["match_id"]), "7:3", "--winner", p["first"])


def _standings(url: str) -> dict[str, tuple[int, float]]:
    rows = json.loads(ok(url, "standings", "Cup", "--json"))["rows"]
    return {r["player"]: (r["played"], r["match_points"]) for r in rows}


def test_a_withdrawal_before_half_the_games_strikes_every_result_out(db_url: str) -> None:
    _cup(db_url)
    for number in (1, 2):
        _play(db_url, number)
    out = ok(db_url, "event", "withdraw", "Cup", "Anna")
    assert "they count for nobody, nor do the matches they finished" in out
    table = _standings(db_url)
    assert "Anna" not in table  # ranked nowhere: named below the ranked players
    assert sum(played for played, _ in table.values()) == 2 * (6 - 2)  # 4 games left
    preview = ok(db_url, "event", "round", "Cup", "3")
    assert "annulled" in preview


def test_a_struck_out_player_is_named_below_the_ranked_players_never_above(db_url: str) -> None:
    _cup(db_url)
    _play(db_url, 1)
    ok(db_url, "event", "withdraw", "Cup", "Fritz")
    view = json.loads(ok(db_url, "standings", "Cup", "--json"))
    assert view["struck_out"] == ["Fritz"]
    assert [r["rank"] for r in view["rows"]] == sorted(r["rank"] for r in view["rows"])
    assert len(view["rows"]) == 5 and view["rows"][-1]["match_points"] == 0
    text = ok(db_url, "standings", "Cup")
    ranked, notes = text.split("Ranked by", 1)
    assert "Fritz" not in ranked.split("\n", 3)[-1]  # no line of the table
    assert (
        "Withdrawn before half of their games, every result annulled (not ranked): Fritz" in notes
    )
    german = ok(db_url, "standings", "Cup", "--lang", "de")
    assert "alle Ergebnisse annulliert (nicht gewertet): Fritz" in german


def test_the_trf_of_a_struck_out_player_scores_what_the_standings_say(db_url: str) -> None:
    _cup(db_url)
    _play(db_url, 1)
    _play(db_url, 2)
    ok(db_url, "event", "withdraw", "Cup", "Anna")
    trf = ok(db_url, "event", "export", "Cup", "--format", "trf")
    table = _standings(db_url)
    lines = {line[14:47].strip(): line for line in trf.splitlines() if line.startswith("001")}
    assert float(lines["Anna"][80:84]) == 0.0
    assert float(lines["Anna"][85:89]) == 6  # ranked after the five ranked players
    for name, (_played, points) in table.items():
        assert float(lines[name][80:84]) == points, name


def test_a_withdrawal_after_half_forfeits_the_rest_round_by_round(db_url: str) -> None:
    _cup(db_url)
    for number in (1, 2, 3):
        _play(db_url, number)
    out = ok(db_url, "event", "withdraw", "Cup", "Anna")
    assert "each is won by the opponent (forfeit)" in out
    table = _standings(db_url)
    assert {played for played, _ in table.values()} == {3}  # nothing credited ahead
    assert "round 3 of 5" in ok(db_url, "standings", "Cup")
    rows = json.loads(ok(db_url, "event", "round", "Cup", "4", "--json"))
    [mine] = [p for p in rows["pairings"] if "Anna" in (p["first"], p["second"])]
    assert mine["status"] == "forfeit" and mine["matches"] == []
    ok(db_url, "event", "round", "Cup", "4", "--start")
    assert _standings(db_url)["Anna"][0] == 4  # credited with its round


def test_a_struck_out_player_who_sat_out_a_round_leaves_the_standings_whole(db_url: str) -> None:
    five = SIX[:5]  # an odd field: a bye each round
    ok(db_url, "player", "add", *five)
    ok(db_url, "event", "create", "Cup", *five, "--kind", "round-robin")
    _play(db_url, 1)
    bye = json.loads(ok(db_url, "event", "round", "Cup", "1", "--json"))["bye"]
    ok(db_url, "event", "withdraw", "Cup", bye)
    view = json.loads(ok(db_url, "standings", "Cup", "--json"))
    assert view["struck_out"] == [bye]  # their bye struck out with them, no refusal
    assert bye not in [r["player"] for r in view["rows"]] and len(view["rows"]) == 4
