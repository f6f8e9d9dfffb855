"""Unplayed rounds the FIDE way (`tally event create --unplayed virtual-opponent`) and the
progressive score, through the store, the command line (CliRunner) and the director's form
(TestClient). On SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

from tests.store_support import ok, refused


def finish_round(url: str, event: str, number: int) -> None:
    """Start round ``number`` and let every match's first dealer win it (3 + 3 + 1)."""
    ok(url, "event", "round", event, str(number), "--start")
    rows = json.loads(ok(url, "event", "round", event, str(number), "--json"))
    for p in rows["pairings"]:
        for m in p["matches"]:
            for points in ("3", "3", "1"):
                ok(
                    url,
                    "deal",
                    "quick",
                    str(m["match_id"]),
                    "--winner",
                    p["first_dealer"],
                    "--points",
                    points,
                    "--reason",
                    "claim",
                )


def tiebreaks(url: str, event: str) -> dict[str, list[float]]:
    rows = json.loads(ok(url, "standings", event, "--json"))["rows"]
    return {r["player"]: r["tiebreak_values"] for r in rows}


def test_a_bye_counts_a_virtual_opponent_when_the_event_says_so(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl")
    for name, rule in (("Plain", "as-scored"), ("Fide", "virtual-opponent")):
        ok(
            db_url,
            "event",
            "create",
            name,
            "Anna",
            "Bert",
            "Carl",
            "--kind",
            "round-robin",
            "--bye",
            "win",
            "--tiebreaks",
            "buchholz,progressive",
            "--unplayed",
            rule,
        )
        for number in (1, 2, 3):
            finish_round(db_url, name, number)
    # round 1 Bert beats Carl, Anna's bye; round 2 Anna beats Bert, Carl's bye; round 3
    # Carl beats Anna, Bert's bye (1 match point a win, a bye worth a win)
    assert (
        json.loads(ok(db_url, "event", "show", "Fide", "--json"))["unplayed"] == "virtual-opponent"
    )
    # as scored: each the two opponents' 2 points; progressive A 1+2+2, B 1+1+2, C 0+1+2
    assert tiebreaks(db_url, "Plain") == {
        "Anna": [4.0, 5.0],
        "Bert": [4.0, 4.0],
        "Carl": [4.0, 3.0],
    }
    # FIDE: an opponent's bye counts as drawn (Bert 1 + 0 + 0.5, Carl 0 + 0.5 + 1, Anna
    # 0.5 + 1 + 0); the own bye a virtual opponent: Anna's (round 1) 0 + (1 - 1) + 2 x 0.5,
    # Bert's (round 3) 1 + 0, Carl's (round 2) 0 + 0 + 0.5
    assert tiebreaks(db_url, "Fide") == {
        "Anna": [1.5 + 1.5 + 1.0, 5.0],
        "Bert": [1.5 + 1.5 + 1.0, 4.0],
        "Carl": [1.5 + 1.5 + 0.5, 3.0],
    }
    text = ok(db_url, "standings", "Fide")
    assert "BH buchholz, Prog progressive" in text and "3.5" in text
    assert "counts a virtual opponent in the Buchholz tiebreaks" in ok(
        db_url, "event", "show", "Fide"
    )


def test_what_follows_the_rounds_is_refused_for_an_event_without_rounds(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    refused(
        db_url,
        "event",
        "create",
        "Evening",
        "Anna",
        "Bert",
        "--tiebreaks",
        "progressive",
        match="the progressive score adds up the rounds",
    )
    refused(
        db_url,
        "event",
        "create",
        "Evening",
        "Anna",
        "Bert",
        "--unplayed",
        "virtual-opponent",
        match="is for a round robin or a Swiss event",
    )
    refused(
        db_url,
        "event",
        "create",
        "Open",
        "Anna",
        "Bert",
        "--kind",
        "swiss",
        "--rounds",
        "2",
        "--unplayed",
        "fide",
        match="unplayed rounds must be as-scored or virtual-opponent",
    )
    helped = ok(db_url, "event", "create", "--help")
    assert "--unplayed" in helped and "virtual-opponent" in helped and "progressive" in helped


def test_the_store_keeps_the_rule_and_ranks_by_it(db_url: str) -> None:
    from tally.store import open_store

    with open_store(db_url, scorer="tester") as store:
        for name in ("Anna", "Bert", "Carl", "Dora"):
            store.players.add(name)
        ev = store.events.create(
            "Open",
            kind="swiss",
            rounds=2,
            unplayed="virtual-opponent",
            players=["Anna", "Bert", "Carl", "Dora"],
        )
        assert store.events.get(ev.id).unplayed == "virtual-opponent"
        # nothing played yet: every round a virtual opponent is still to come
        assert [r.tiebreak_values[0] for r in store.events.standings(ev.id).rows] == [0.0] * 4


def test_the_rule_travels_in_the_event_file(tmp_path: Path) -> None:
    first, second = (f"sqlite:///{tmp_path / name}" for name in ("a.db", "b.db"))
    ok(first, "player", "add", "Anna", "Bert", "Carl")
    ok(
        first,
        "event",
        "create",
        "Fide",
        "Anna",
        "Bert",
        "Carl",
        "--kind",
        "swiss",
        "--rounds",
        "2",
        "--unplayed",
        "virtual-opponent",
        "--tiebreaks",
        "buchholz",
    )
    exported = json.loads(ok(first, "event", "export", "Fide"))
    assert exported["options"]["unplayed"] == "virtual-opponent"
    (tmp_path / "fide.json").write_text(json.dumps(exported), encoding="utf-8")
    ok(second, "load", str(tmp_path / "fide.json"))
    assert (
        json.loads(ok(second, "event", "show", "Fide", "--json"))["unplayed"] == "virtual-opponent"
    )
