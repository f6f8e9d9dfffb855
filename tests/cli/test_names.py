"""Players by the names people use at the table: first names, names without their accents,
numbers and aliases, everywhere a command takes a player; ambiguous names listed; merging two
entries that never met; deleting a match started by mistake."""

from __future__ import annotations

import json

from tests.store_support import FOREHAND_CLAIMS, dump, lines, ok, refused


def test_a_match_is_started_with_first_names(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber")
    out = ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "anna")
    assert out.startswith("Started match 1: Anna Berger v Bert Huber,")
    assert "Anna Berger deals first." in out


def test_a_name_typed_without_its_accent_finds_the_player(db_url: str) -> None:
    ok(db_url, "player", "add", "Jürgen Roth", "Zoë Hansen")
    out = ok(db_url, "match", "start", "Jurgen", "ZOE HANSEN", "--dealer", "jur")
    assert "Jürgen Roth v Zoë Hansen" in out and "Jürgen Roth deals first" in out


def test_an_ambiguous_name_lists_the_candidates(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Anna Huber", "Bert Huber")
    refused(
        db_url,
        "match",
        "start",
        "Anna",
        "Bert",
        "--dealer",
        "Bert",
        match='"Anna" matches Anna Berger (#1) and Anna Huber (#2): say which',
    )
    assert "Anna Huber v Bert Huber" in ok(
        db_url, "match", "start", "anna h", "Bert", "--dealer", "Bert"
    )


def test_a_whole_first_name_is_preferred_to_a_longer_name_it_begins(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Annabel Fox", "Bert Huber")
    assert "Anna Berger v Bert Huber" in ok(
        db_url, "match", "start", "Anna", "Bert", "--dealer", "Bert"
    )


def test_a_player_number_works_with_or_without_the_hash(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber")
    assert "Bert Huber v Anna Berger" in ok(db_url, "match", "start", "#2", "1", "--dealer", "#1")


def test_the_dealer_is_found_among_the_two_players_of_the_match(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Alex Maier", "Bert Huber")
    # "A" fits Anna and Alex in the club, but only Anna in this match
    assert "Anna Berger deals first" in ok(
        db_url, "match", "start", "Anna", "Bert", "--dealer", "A"
    )
    refused(
        db_url,
        "match",
        "start",
        "Anna",
        "Bert",
        "--dealer",
        "Alex",
        match="Alex Maier (#2) does not play in this match (as --dealer) (Anna Berger and "
        "Bert Huber do)",
    )


def test_the_hint_after_an_unknown_name_points_to_the_player_already_there(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber")
    err = refused(
        db_url,
        "match",
        "start",
        "Ana",
        "Bert",
        "--dealer",
        "Bert",
        match='there is no player "Ana": did you mean Anna Berger (#1)?',
    )
    assert "player add" not in err
    err = refused(
        db_url,
        "match",
        "start",
        "Berger",
        "Bert",
        "--dealer",
        "Bert",
        match="did you mean Anna Berger (#1)?",
    )
    assert "player add" not in err
    # nobody close: then, and only then, adding a player is suggested
    refused(
        db_url,
        "match",
        "start",
        "Quentin",
        "Bert",
        "--dealer",
        "Bert",
        match='there is no player "Quentin" (`tally player list` shows every player and '
        'alias; to enter a new player, `tally player add "FULL NAME"`)',
    )


def test_an_alias_is_added_listed_shown_used_removed_and_audited(db_url: str) -> None:
    ok(db_url, "player", "add", "Jürgen Roth", "Bert Huber")
    assert ok(db_url, "player", "alias", "Jurgen", "Jogi") == "#1 Jürgen Roth goes by: Jogi.\n"
    assert ok(db_url, "player", "list") == (
        "   #2  Bert Huber  (0 matches)\n   #1  Jürgen Roth  (0 matches)  also: Jogi\n"
    )
    shown = json.loads(ok(db_url, "player", "show", "jogi", "--json"))
    assert shown["name"] == "Jürgen Roth" and shown["aliases"] == ["Jogi"]
    assert "Jürgen Roth v Bert Huber" in ok(
        db_url, "match", "start", "Jogi", "Bert", "--dealer", "Jogi"
    )
    refused(db_url, "player", "alias", "Bert", "JOGI", match='"JOGI" is an alias of player #1')
    refused(
        db_url,
        "player",
        "alias",
        "Bert",
        "Jürgen Roth",
        match="an alias cannot be another player's name",
    )
    refused(db_url, "player", "add", "Jogi", match='"Jogi" is an alias of player #1')
    assert (
        ok(db_url, "player", "alias", "1", "jogi", "--remove")
        == "#1 Jürgen Roth goes by: no other name.\n"
    )
    log = ok(db_url, "audit")
    assert "Jürgen Roth also goes by Jogi" in log
    assert "Jürgen Roth no longer goes by Jogi" in log
    entry = log.strip().splitlines()[-1].split()[0]
    ok(db_url, "audit", "undo", entry)
    assert "also: Jogi" in ok(db_url, "player", "list")


def test_an_alias_wins_over_the_start_of_another_players_name(db_url: str) -> None:
    ok(db_url, "player", "add", "Robert Klein", "Bertram Huber", "Anna Berger")
    ok(db_url, "player", "alias", "Robert", "Bert")
    assert "Robert Klein v Anna Berger" in ok(
        db_url, "match", "start", "Bert", "Anna", "--dealer", "Anna"
    )


def test_claims_name_the_claimer_by_first_name_or_number_without_quotes(db_url: str) -> None:
    ok(db_url, "player", "add", "Bert Huber", "Eva Maria Koch")  # Eva is #2
    for match, claim in ((1, "66@Eva"), (2, "66@2"), (3, "66@jogi-not-a-player")):
        ok(db_url, "match", "start", "Bert", "Eva", "--dealer", "Bert")
        turn_up, *rest = [FOREHAND_CLAIMS[0], *lines(FOREHAND_CLAIMS)[:-1]]
        ok(db_url, "deal", "start", str(match), turn_up)
        for line in rest:
            ok(db_url, "deal", "play", str(match), *line.split())
        if match == 3:
            refused(
                db_url,
                "deal",
                "play",
                "3",
                claim,
                match='66@jogi-not-a-player: "jogi-not-a-player" does not play in this '
                "match (Bert Huber and Eva Maria Koch do)",
            )
            continue
        out = ok(db_url, "deal", "play", str(match), claim)
        assert 'Recorded 66@"Eva Maria Koch"' in out
        assert f"Deal {match}.1 ruled: Eva Maria Koch wins 3 game points" in out


def test_quick_entry_names_the_winner_by_first_name(db_url: str) -> None:
    ok(db_url, "player", "add", "Bert Huber", "Eva Maria Koch", "Eva Lind")
    ok(db_url, "match", "start", "Bert", "Eva Maria", "--dealer", "Bert")
    # "Eva" fits two players in the club, but one in the match
    out = ok(db_url, "deal", "quick", "1", "--winner", "Eva", "--points", "2")
    assert "Eva Maria Koch wins 2 game points" in out
    refused(
        db_url,
        "deal",
        "quick",
        "1",
        "--winner",
        "Eva Lind",
        "--points",
        "2",
        match="Eva Lind (#3) does not play in match 1",
    )


def test_events_rename_and_merge_take_the_names_people_use(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber", "Jürgen Roth")
    out = ok(db_url, "event", "create", "Club", "anna", "Bert", "jurgen", "--json")
    assert [p["name"] for p in json.loads(out)["players"]] == [
        "Anna Berger",
        "Bert Huber",
        "Jürgen Roth",
    ]
    ok(db_url, "event", "withdraw", "Club", "Jurgen")
    assert (
        ok(db_url, "player", "rename", "bert", "Bert Hubert") == "Player #2 is now Bert Hubert.\n"
    )


def test_entries_that_never_met_merge_even_in_the_same_club_evening(db_url: str) -> None:
    """The duplicate a director made: "Anna" beside Anna Berger, both in the evening's list."""
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber", "Carl Weiss")
    ok(db_url, "event", "create", "Club", "Anna Berger", "Bert", "Carl")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna", "--event", "1")
    out = ok(db_url, "player", "add", "Anna")
    assert 'Note: "Anna" now means #4 Anna; #1 Anna Berger is found by more of the name' in out
    ok(db_url, "match", "start", "Anna", "Carl", "--dealer", "Carl", "--event", "1")
    ok(db_url, "deal", "quick", "2", "--winner", "Anna", "--points", "3")
    before = dump(db_url)
    out = ok(db_url, "player", "merge", "Anna Berger", "4")
    assert out == "Merged 4 into #1 Anna Berger, who now has 2 matches.\n"
    shown = json.loads(ok(db_url, "event", "show", "1", "--json"))
    assert [p["name"] for p in shown["players"]] == ["Anna Berger", "Bert Huber", "Carl Weiss"]
    assert "Anna Berger 3, Carl Weiss 0" in ok(db_url, "match", "show", "2")
    entry = ok(db_url, "audit").strip().splitlines()[-1].split()[0]
    ok(db_url, "audit", "undo", entry)
    after = dump(db_url)
    assert {k: v for k, v in after.items() if k not in ("audit_log", "player_aliases")} == {
        k: v for k, v in before.items() if k not in ("audit_log", "player_aliases")
    }


def test_two_who_played_each_other_stay_two(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Anna")
    ok(db_url, "match", "start", "1", "2", "--dealer", "1")
    refused(db_url, "player", "merge", "1", "2", match="played each other (match 1)")


def test_two_entries_in_a_started_round_robin_stay_two(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Anna", "Bert Huber", "Carl Weiss")
    ok(db_url, "event", "create", "Cup", "1", "2", "3", "4", "--kind", "round-robin")
    ok(db_url, "event", "round", "1", "1", "--start")
    matches = json.loads(ok(db_url, "match", "list", "--json"))
    if any(set(m["players"]) == {"Anna Berger", "Anna"} for m in matches):
        return  # they met in round 1: the other refusal, tested above
    refused(
        db_url,
        "player",
        "merge",
        "1",
        "2",
        match='both entered in round robin 1 "Cup", which has started',
    )


def test_a_match_is_deleted_and_brought_back_by_audit_undo(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber")
    ok(db_url, "event", "create", "Club", "Anna", "Bert")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna", "--event", "1")
    ok(db_url, "deal", "quick", "1", "--winner", "Anna", "--points", "2")
    ok(db_url, "deal", "start", "1", "QH")
    ok(db_url, "deal", "play", "1", "KS")
    before = dump(db_url)
    out = ok(db_url, "match", "delete", "1")
    entry = out.split("`tally audit undo ")[1].split("`")[0]
    assert out == (
        f"Deleted match 1: Anna Berger v Bert Huber, 2 deal(s). "
        f"`tally audit undo {entry}` brings it back.\n"
    )
    assert ok(db_url, "match", "list") == "No matches yet: `tally match start A B --dealer A`.\n"
    assert "Match deleted: Anna Berger against Bert Huber" in ok(db_url, "audit")
    refused(db_url, "match", "show", "1", match="there is no match 1")
    ok(db_url, "audit", "undo", entry)
    assert kept(dump(db_url)) == kept(before)
    assert "Anna Berger 2, Bert Huber 0" in ok(db_url, "match", "show", "1")


def kept(rows: dict[str, list[tuple[object, ...]]]) -> dict[str, list[tuple[object, ...]]]:
    """What a reversal puts back: every row but the audit log's, actions without their row
    id (a restored action is a new row)."""
    out = {k: v for k, v in rows.items() if k != "audit_log"}
    out["actions"] = [row[1:] for row in rows["actions"]]
    return out


def test_a_round_robin_match_is_not_deleted_on_its_own(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna Berger", "Bert Huber")
    ok(db_url, "event", "create", "Cup", "Anna", "Bert", "--kind", "round-robin")
    ok(db_url, "event", "round", "1", "1", "--start")
    entry = ok(db_url, "audit").strip().splitlines()[-1].split()[0]
    refused(
        db_url,
        "match",
        "delete",
        "1",
        match=f'match 1 was made by the schedule of round robin 1 "Cup" (round 1, table 1),'
        f" so it cannot be deleted on its own: `tally audit undo {entry}` takes the "
        "round back",
    )


def test_a_mistyped_event_name_gets_suggestions_as_a_player_name_does(db_url: str) -> None:
    ok(db_url, "event", "create", "Thursday club", "--kind", "club")
    ok(db_url, "event", "create", "Spring Swiss", "--kind", "club")
    refused(
        db_url,
        "event",
        "show",
        "Thursday clup",
        match='there is no event "Thursday clup": did you mean Thursday club (#1)? '
        "(see `tally event list`)",
    )
    refused(db_url, "standings", "Sprng Swiss", match="did you mean Spring Swiss (#2)?")
    assert "Thursday club" in ok(db_url, "event", "show", "thursday")  # a prefix, any case
    refused(
        db_url,
        "event",
        "show",
        "Nothing like it",
        match='there is no event "Nothing like it" (see `tally event list`)',
    )
    ok(db_url, "event", "create", "Spring Cup", "--kind", "club")
    refused(
        db_url,
        "event",
        "show",
        "Spring",
        match='"Spring" matches Spring Swiss (#2) and Spring Cup (#3): say which',
    )
