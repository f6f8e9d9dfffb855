"""``tally player``: add, list, rename, merge; refusals leave the database as it was."""

from __future__ import annotations

import json

from tests.store_support import ok, refused


def test_players_are_added_listed_renamed_and_merged(db_url: str) -> None:
    assert ok(db_url, "player", "add", "Anna", "Bert", "bertie") == (
        "Added player #1 Anna.\nAdded player #2 Bert.\nAdded player #3 bertie.\n"
    )
    ok(db_url, "match", "start", "anna", "bertie", "--dealer", "Anna")
    assert ok(db_url, "player", "rename", "BERTIE", "Bertie B") == "Player #3 is now Bertie B.\n"
    assert "Bert, who now has 1 match." in ok(db_url, "player", "merge", "Bert", "Bertie B")
    listed = json.loads(ok(db_url, "player", "list", "--json"))
    assert listed == [
        {
            "id": 1,
            "name": "Anna",
            "matches": 1,
            "aliases": [],
            "events": [],
            "categories": [],
            "private": False,
        },
        {
            "id": 2,
            "name": "Bert",
            "matches": 1,
            "aliases": [],
            "events": [],
            "categories": [],
            "private": False,
        },
    ]
    assert ok(db_url, "player", "list") == "   #1  Anna  (1 match)\n   #2  Bert  (1 match)\n"


def test_player_refusals(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    refused(db_url, "player", "add", " anna ", match='a player named "Anna" exists already')
    refused(db_url, "player", "rename", "Zoë", "Zoe", match='there is no player "Zoë"')
    refused(db_url, "player", "rename", "Anna", "BERT", match="exists already")
    refused(db_url, "player", "merge", "Anna", "anna", match="are the same entry")
    refused(db_url, "player", "add", "Anna [B]", match="a name cannot contain '['")


def test_a_player_made_private_and_public_again_is_audited_and_undone(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber")
    said = ok(db_url, "player", "private", "Anna")
    assert said == "#1 Anna Berger appears by their initials on the published site.\n"
    listed = json.loads(ok(db_url, "player", "list", "--json"))
    assert [p["private"] for p in listed] == [True, False]
    refused(db_url, "player", "private", "Anna", match="Anna Berger is already private")
    assert "Anna Berger made private" in ok(db_url, "audit")
    last = json.loads(ok(db_url, "audit", "--json"))[-1]
    ok(db_url, "audit", "undo", str(last["id"]))
    assert not json.loads(ok(db_url, "player", "list", "--json"))[0]["private"]
    ok(db_url, "player", "private", "Anna")
    assert ok(db_url, "player", "private", "Anna", "--undo", "--lang", "de") == (
        "#1 Anna Berger erscheint auf der veröffentlichten Seite mit Namen.\n"
    )
    refused(db_url, "player", "private", "Anna", "--undo", match="Anna Berger is not private")
