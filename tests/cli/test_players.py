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
        {"id": 1, "name": "Anna", "matches": 1, "aliases": [], "events": [], "categories": []},
        {"id": 2, "name": "Bert", "matches": 1, "aliases": [], "events": [], "categories": []},
    ]
    assert ok(db_url, "player", "list") == "   #1  Anna  (1 match)\n   #2  Bert  (1 match)\n"


def test_player_refusals(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    refused(db_url, "player", "add", " anna ", match='a player named "Anna" exists already')
    refused(db_url, "player", "rename", "Zoë", "Zoe", match='there is no player "Zoë"')
    refused(db_url, "player", "rename", "Anna", "BERT", match="exists already")
    refused(db_url, "player", "merge", "Anna", "anna", match="are the same entry")
    refused(db_url, "player", "add", "Anna [B]", match="a name cannot contain '['")
