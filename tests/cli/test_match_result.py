"""``tally match result``: a match kept on paper entered whole from the command line, its
refusals, its undo, and an event holding such results moved between databases by
``tally event export`` and ``tally load`` (JSON, folder and CSV), on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.json_support import strict_json
from tests.store_support import ok, refused, tally


def _club(url: str, *, language: str | None = None) -> None:
    for name in ("Anna", "Bert", "Carl", "Dora"):
        ok(url, "player", "add", name)
    extra = ["--lang", language] if language else []
    ok(url, "event", "create", "Paper night", "--kind", "club", *extra)
    ok(url, "match", "start", "Anna", "Bert", "--dealer", "Anna", "--event", "Paper night")
    ok(url, "match", "start", "Carl", "Dora", "--dealer", "Carl", "--event", "Paper night")


def test_a_match_result_typed_the_wrong_way_round_is_corrected_after_the_question(
    db_url: str,
) -> None:
    from tests.store_support import dump

    _club(db_url)
    ok(db_url, "match", "result", "1", "7:3")
    before = dump(db_url)
    out = ok(db_url, "match", "result", "1", "3:7", "--correct", "--dry-run")
    assert "Match 1, Anna v Bert: the score goes from 7:3 to 3:7." in out
    assert "Bert has then won the match." in out and dump(db_url) == before
    out = ok(db_url, "match", "result", "1", "3:7", "--correct", input="no\n")
    assert out.endswith("Nothing was stored.\n") and dump(db_url) == before
    out = ok(db_url, "match", "result", "1", "3:7", "--correct", input="y\n")
    assert "Corrected the result of match 1." in out
    assert out.endswith("Match 1 is over: Bert wins, Anna 3, Bert 7.\n")
    refused(db_url, "match", "result", "2", "7:3", "--correct", match="no result entered whole")
    refused(db_url, "match", "result", "1", "7:3", "--dry-run", match="go with --correct")


def test_a_match_result_in_the_matchs_order_finishes_it(db_url: str) -> None:
    _club(db_url)
    out = ok(db_url, "match", "result", "1", "7:3")
    entry = strict_json(ok(db_url, "audit", "--json"))[-1]["id"]
    assert out == (
        f"Entered the result of match 1. `tally audit undo {entry}` takes it back.\n"
        "Match 1 is over: Anna wins, Anna 7, Bert 3.\n"
    )
    shown = ok(db_url, "match", "show", "1")
    assert "match-result" in shown and "(q: entered as a result" in shown
    out = ok(db_url, "match", "result", "2", "--winner", "dora", "--score", "7:5", "--json")
    view = strict_json(out)
    assert (view["winner"], view["score"], view["over"]) == ("Dora", {"Carl": 5, "Dora": 7}, True)
    stand = strict_json(ok(db_url, "standings", "Paper night", "--json"))
    assert [
        (r["player"], r["game_points_won"], r["game_points_conceded"]) for r in stand["rows"]
    ] == [("Anna", 7, 3), ("Dora", 7, 5), ("Carl", 5, 7), ("Bert", 3, 7)]


def test_bad_input_is_refused_naming_the_input_and_the_rule(db_url: str) -> None:
    _club(db_url)
    refused(
        db_url,
        "match",
        "result",
        "1",
        "6:3",
        match="6:3: nobody reached the match target of 7 game points",
    )
    refused(db_url, "match", "result", "1", "7:8", match="only the winner reaches")
    refused(db_url, "match", "result", "1", "seven", match='"seven" is not a match result')
    refused(db_url, "match", "result", "1", match="give the score once")
    refused(db_url, "match", "result", "1", "7:3", "--score", "7:3", match="give the score once")
    refused(db_url, "match", "result", "1", "--score", "7:3", match="--score goes with --winner")
    refused(
        db_url,
        "match",
        "result",
        "1",
        "--winner",
        "Bert",
        "--score",
        "3:7",
        match="Bert has 3 game points, fewer than the match target 7",
    )
    refused(
        db_url,
        "match",
        "result",
        "1",
        "--winner",
        "Carl",
        "--score",
        "7:3",
        match="Carl (#3) does not play in match 1 (Anna and Bert do)",
    )
    refused(db_url, "match", "result", "9", "7:3", match="there is no match 9")
    ok(db_url, "deal", "quick", "1", "--winner", "Anna", "--points", "2")
    refused(
        db_url,
        "match",
        "result",
        "1",
        "7:3",
        match="match 1 has 1 deal(s) already (Anna 2, Bert 0)",
    )


def test_audit_undo_takes_a_match_result_back(db_url: str) -> None:
    _club(db_url)
    ok(db_url, "match", "result", "1", "3:7")
    entry = strict_json(ok(db_url, "audit", "--json"))[-1]
    assert entry["summary"] == "entered the result of match 1: Anna 3, Bert 7"
    ok(db_url, "audit", "undo", str(entry["id"]))
    assert strict_json(ok(db_url, "match", "show", "1", "--json"))["deals"] == []
    ok(db_url, "match", "result", "1", "3:7")
    deal = strict_json(ok(db_url, "match", "show", "1", "--json"))["deals"][1]["id"]
    ok(db_url, "deal", "delete", str(deal))
    assert strict_json(ok(db_url, "match", "show", "1", "--json"))["deals"] == []


def test_a_match_result_speaks_the_events_language(db_url: str) -> None:
    _club(db_url, language="de")
    ok(db_url, "match", "start", "Anna", "Carl", "--dealer", "Carl", "--event", "Paper night")
    out = ok(db_url, "match", "result", "1", "7:3")
    assert out.startswith("Ergebnis von Bummerl 1 eingetragen.")
    assert "Bummerl 1 ist aus: Anna gewinnt, Anna 7, Bert 3." in out
    assert ok(db_url, "match", "result", "2", "7:1", "--lang", "en").startswith(
        "Entered the result of match 2."
    )
    code, _out, err = tally(db_url, "match", "result", "3", "5:3", "--lang", "de")
    assert code == 2 and "niemand hat das Ziel von 7 Spielpunkten erreicht" in err


def test_results_entered_whole_survive_export_and_load(db_url: str, tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    _club(source)
    ok(source, "match", "result", "1", "7:3")
    ok(source, "match", "result", "2", "0:7")
    ok(source, "match", "start", "Anna", "Carl", "--dealer", "Carl", "--event", "Paper night")
    ok(source, "deal", "quick", "3", "--winner", "Carl", "--points", "2")
    exported = ok(source, "event", "export", "Paper night")
    deals = json.loads(exported)["matches"][0]["deals"]
    assert deals == [
        {"result": {"winner": "Bert", "points": 3, "reason": "match-result"}},
        {"result": {"winner": "Anna", "points": 7, "reason": "match-result"}},
    ]
    path = tmp_path / "night.json"
    path.write_text(exported, encoding="utf-8")
    ok(db_url, "load", str(path))
    assert ok(db_url, "event", "export", "Paper night") == exported
    assert (
        strict_json(ok(db_url, "standings", "Paper night", "--json"))["rows"]
        == strict_json(ok(source, "standings", "Paper night", "--json"))["rows"]
    )
    assert strict_json(ok(db_url, "match", "show", "1", "--json"))["winner"] == "Anna"
    # a hand-written file's match result that does not end the match is refused, one line
    path.write_text(exported.replace('"points": 7,', '"points": 6,', 1), encoding="utf-8")
    target = f"sqlite:///{tmp_path / 'other.db'}"
    code, _out, err = tally(target, "load", str(path))
    assert code == 2 and "matches[0].deals: 6:3: nobody reached the match target" in err


def test_the_folder_and_csv_exports_carry_a_match_result(db_url: str, tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    _club(source)
    ok(source, "match", "result", "1", "7:3")
    folder = tmp_path / "night"
    ok(source, "event", "export", "Paper night", "--format", "folder", "-o", str(folder))
    toml = (folder / "event.toml").read_text(encoding="utf-8")
    assert 'results = ["Bert 3 match-result", "Anna 7 match-result"]' in toml
    ok(db_url, "load", str(folder))
    assert ok(db_url, "event", "export", "Paper night") == ok(
        source, "event", "export", "Paper night"
    )
    rows = list(
        csv.DictReader(io.StringIO(ok(source, "event", "export", "Paper night", "--format", "csv")))
    )
    assert [
        (r["entered"], r["winner"], r["points"], r["reason"], r["match_winner"])
        for r in rows
        if r["match"] == "1"
    ] == [
        ("result", "Bert", "3", "match-result", "Anna"),
        ("result", "Anna", "7", "match-result", "Anna"),
    ]


def test_a_swiss_event_paired_from_results_entered_whole_loads_back(
    db_url: str, tmp_path: Path
) -> None:
    from tally.store import open_store

    source = f"sqlite:///{tmp_path / 'source.db'}"
    store = open_store(source, scorer="tester")
    try:
        names = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]
        for name in names:
            store.players.add(name)
        ev = store.events.create("Paper Swiss", kind="swiss", players=names, rounds=3)
        for number, scores in ((1, ("7:2", "1:7", "7:6")), (2, ("7:0", "8:3", "4:7"))):
            rnd = store.events.start_round(ev.id, number)
            for pairing, score in zip(rnd.pairings, scores, strict=True):
                store.deals.match_result(pairing.matches[0].match_id, score)
        store.events.start_round(ev.id, 3)
    finally:
        store.close()
    exported = ok(source, "event", "export", "Paper Swiss")
    path = tmp_path / "swiss.json"
    path.write_text(exported, encoding="utf-8")
    ok(db_url, "load", str(path))
    assert ok(db_url, "event", "export", "Paper Swiss") == exported
    assert (
        strict_json(ok(db_url, "standings", "Paper Swiss", "--json"))["rows"]
        == strict_json(ok(source, "standings", "Paper Swiss", "--json"))["rows"]
    )


def test_a_files_match_result_must_be_the_losers_line_then_the_winners(tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    _club(source)
    ok(source, "match", "result", "1", "7:3")
    exported = ok(source, "event", "export", "Paper night")
    for wrong in ('"winner": "Anna",', '"winner": null,'):
        path = tmp_path / "night.json"
        path.write_text(exported.replace('"winner": "Bert",', wrong, 1), encoding="utf-8")
        code, _out, err = tally(f"sqlite:///{tmp_path / 'other.db'}", "load", str(path))
        assert code == 2, err
        assert (
            "matches[0].deals: match 1: a match result is the loser's game points (left "
            "out when 0), then the winner's, each naming its player (Anna and Bert play)"
        ) in err
