"""A Preisschnapsen's money on the command line: `tally event prizes` sets and shows the
entry fee, the prize table and the buy-back rule, `tally event buy-back` lets a player out
buy back a life, and the standings show the prize table; bad shares are refused clearly."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tally.cli import app
from tests.cli.test_knockouts import pdf_text

runner = CliRunner()
SIX = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini"]


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def knockout(db: str) -> None:
    ok("player", "add", *SIX, "--db", db)
    ok(
        "event",
        "create",
        "KO",
        *SIX,
        "--kind",
        "knockout",
        "--lives",
        "1",
        "--seed",
        "s",
        "--rules",
        "sixty-six match_target=3",
        "--db",
        db,
    )


def test_the_director_sets_the_prize_table_and_the_standings_show_it(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    knockout(db)
    out = ok(
        "event",
        "prizes",
        "KO",
        "--entry-fee",
        "10,50",
        "--prizes",
        "50,30,20",
        "--round-to",
        "1",
        "--db",
        db,
    )
    assert "Prize pool: 63 (6 entries at 10.50, 0 buy-backs)." in out
    assert "Place 1: 31 (50 %)" in out and "Place 3: 12 (20 %)" in out
    # all six share 1st before round 1: 10 each (61 / 6 rounded down), the rest to the club
    assert "paid to the players: 60; left for the club: 3." in out
    shown = ok("standings", "KO", "--db", db)
    assert "Prize pool: 63" in shown
    assert "Place 2: 18 (30 %)" in ok("event", "elimination", "KO", "--db", db)
    target = tmp_path / "s.pdf"
    ok("print", "standings", "KO", "--db", db, "-o", str(target))
    text = pdf_text(target)
    assert "Prize pool: 63" in text and "left for the club: 3" in text


def test_bad_shares_are_refused_with_the_rule_broken(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    knockout(db)
    bad = runner.invoke(app, ["event", "prizes", "KO", "--prizes", "60,50", "--db", db])
    assert bad.exit_code == 2 and "add up to 110 %, more than the pool" in bad.output
    bad = runner.invoke(
        app, ["event", "prizes", "KO", "--prizes", "30,20,20,10,10,5,5", "--db", db]
    )
    assert bad.exit_code == 2 and "7 places paid but only 6 players" in bad.output
    bad = runner.invoke(app, ["event", "prizes", "KO", "--entry-fee", "ten", "--db", db])
    assert bad.exit_code == 2 and '--entry-fee: "ten" is not an amount' in bad.output


def test_a_player_out_buys_back_a_life_from_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    knockout(db)
    ok(
        "event",
        "prizes",
        "KO",
        "--entry-fee",
        "10",
        "--prizes",
        "100",
        "--buy-back-until",
        "2",
        "--buy-back-fee",
        "5",
        "--db",
        db,
    )
    ok("event", "round", "KO", "1", "--start", "--db", db)
    rnd = json.loads(ok("event", "round", "KO", "1", "--json", "--db", db))
    for p in rnd["pairings"]:
        ok(
            "deal",
            "quick",
            str(p["match_ids"][0]),
            "--winner",
            p["first"],
            "--points",
            "3",
            "--reason",
            "claim",
            "--db",
            db,
        )
    loser = rnd["pairings"][0]["second"]
    out = ok("event", "buy-back", "KO", loser, "--db", db)
    assert f"{loser} bought back a life for 5" in out
    again = runner.invoke(app, ["event", "buy-back", "KO", loser, "--db", db])
    assert again.exit_code == 2 and "is still in" in again.output
    shown = ok("event", "elimination", "KO", "--db", db)
    assert "Prize pool: 65 (6 entries at 10, 1 buy-back)." in shown
    assert "until round 2, at most 1 time each" in shown
    # whose line shows the life they bought back: on the terminal and on the sheet
    header = next(line for line in shown.splitlines() if "Bought back" in line)
    column = header.index("Bought back")
    mine = next(line for line in shown.splitlines() if loser in line)
    assert mine[column:].split()[0] == "1"
    assert sum(1 for line in shown.splitlines() if line[column:].startswith("1 ")) == 1
    target = tmp_path / "e.pdf"
    ok("print", "standings", "KO", "--db", db, "-o", str(target))
    assert "Bought back" in pdf_text(target)


def test_a_last_round_for_buy_backs_nobody_can_reach_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    knockout(db)
    bad = runner.invoke(app, ["event", "prizes", "KO", "--buy-back-until", "1", "--db", db])
    assert bad.exit_code == 2 and "never allows a buy-back" in bad.output
    assert "give 2 or later" in bad.output


def test_the_final_is_played_best_of_three_from_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    ok("player", "add", "Anna", "Bert", "Carl", "Dora", "--db", db)
    ok(
        "event",
        "create",
        "Cup",
        "Anna",
        "Bert",
        "Carl",
        "Dora",
        "--kind",
        "knockout",
        "--lives",
        "1",
        "--seed",
        "s",
        "--final",
        "2",
        "--rules",
        "sixty-six match_target=3",
        "--db",
        db,
    )
    bad = runner.invoke(app, ["event", "best-of", "Cup", "4", "--db", db])
    assert bad.exit_code == 2 and "an odd number" in bad.output
    assert "best of 3 matches" in ok("event", "best-of", "Cup", "3", "--db", db)
    assert "played best of 3 matches" in ok("event", "show", "Cup", "--db", db)
    for number in (1, 2):
        ok("event", "round", "Cup", str(number), "--start", "--db", db)
        rnd = json.loads(ok("event", "round", "Cup", str(number), "--json", "--db", db))
        for p in rnd["pairings"]:
            ok(
                "deal",
                "quick",
                str(p["match_ids"][0]),
                "--winner",
                p["first"],
                "--points",
                "3",
                "--reason",
                "claim",
                "--db",
                db,
            )
    (final,) = rnd["pairings"]
    assert len(final["match_ids"]) == 3
    shown = ok("event", "bracket", "Cup", "--db", db)
    assert "1:0" in shown and "best of 3 matches; result: matches won" in shown
    ok(
        "deal",
        "quick",
        str(final["match_ids"][1]),
        "--winner",
        final["first"],
        "--points",
        "3",
        "--reason",
        "claim",
        "--db",
        db,
    )
    assert "Champion: " + final["first"] in ok("event", "bracket", "Cup", "--db", db)


def test_amounts_are_taken_as_austrians_write_them_and_the_json_adds_up(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    knockout(db)
    ok("event", "prizes", "KO", "--entry-fee", "10,-", "--prizes", "50,30,15", "--db", db)
    ok("event", "prizes", "KO", "--round-to", "1 €", "--buy-back-fee", "7,50 €", "--db", db)
    shown = json.loads(ok("event", "elimination", "KO", "--json", "--db", db))["prizes"]
    assert (shown["entry_fee"], shown["buy_back_fee"], shown["table"]["unit"]) == (1000, 750, 100)
    # all six share 1st: 57 of the places' prizes held by six, 9 each; 6 left for the club
    assert (shown["table"]["pool"], shown["paid"], shown["club"]) == (6000, 5400, 600)
    german = ok("standings", "KO", "--lang", "de", "--db", db)
    assert "60\u00a0€" in german and "10\u00a0€" in german
