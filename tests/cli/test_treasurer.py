"""The treasurer on the command line (SQLite and PostgreSQL): `tally event checkin` takes
down who is here and what they paid, `--required` keeps players not checked in out of the
draw, `tally event money` shows the money sheet in English and German and as JSON, adding up
to the cent, `tally print money` prints it, and a season's totals; undo takes a payment back."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tally.cli import app
from tests.cli.test_knockouts import pdf_text
from tests.cli.test_prizes import SIX

runner = CliRunner()


def run(db: str, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, [*args, "--db", db])
    return result.exit_code, result.output


def ok(db: str, *args: str) -> str:
    code, out = run(db, *args)
    assert code == 0, out
    return out


def evening(db: str) -> None:
    ok(db, "player", "add", *SIX)
    ok(db, "player", "category", "Anna", "Damen")
    ok(db, "event", "create", "KO", *SIX, "--kind", "knockout", "--lives", "1", "--seed", "s")
    ok(
        db,
        "event",
        "prizes",
        "KO",
        "--entry-fee",
        "10",
        "--prizes",
        "50,30",
        "--buy-back-until",
        "2",
        "--category-prizes",
        "Damen=5 €",
    )


def test_the_desk_the_money_sheet_and_its_json_add_up(db_url: str) -> None:
    evening(db_url)
    out = ok(db_url, "event", "checkin", "KO", "Anna", "--paid-in-full", "--extra", "4,50")
    assert "Anna: here; owes 14.50, paid 14.50, due 0" in out
    ok(db_url, "event", "checkin", "KO", "Bert", "--paid", "20,-")
    out = ok(db_url, "event", "money", "KO")
    assert "Entry fees (6 × 10)" in out and "60" in out
    assert "Extra fees (to the club)" in out and "It adds up to the cent." in out
    data = json.loads(ok(db_url, "event", "money", "KO", "--json"))
    totals = data["totals"]
    assert data["balanced"] and totals["pool"] == 6000 and totals["extra"] == 450
    assert totals["paid"] == 3450 and totals["due"] == 6450 - 3450
    assert totals["cash"] + totals["due"] - totals["to_pay_out"] == totals["club"]
    out = ok(db_url, "event", "money", "KO", "--lang", "de")
    assert "Startgelder (6 × 10\xa0€)" in out and "Die Abrechnung stimmt auf den Cent." in out
    code, out = run(db_url, "event", "checkin", "KO", "Anna", "--paid", "zehn")
    assert code != 0 and '"zehn" is not an amount in euros' in out
    code, out = run(db_url, "event", "checkin", "KO", "Anna", "--paid", "5", "--paid-in-full")
    assert code != 0 and "not both" in out
    last = json.loads(ok(db_url, "audit", "--json"))[-1]
    assert last["command"] == "event checkin" and "Bert" in last["summary"]
    ok(db_url, "audit", "undo", str(last["id"]))
    data = json.loads(ok(db_url, "event", "money", "KO", "--json"))
    assert data["totals"]["paid"] == 1450  # Bert's payment taken back


def test_only_players_checked_in_are_drawn_when_required(db_url: str) -> None:
    evening(db_url)
    ok(db_url, "event", "checkin", "KO", "--required")
    for name in SIX[:4]:
        ok(db_url, "event", "checkin", "KO", name)
    code, out = run(db_url, "event", "round", "KO", "1", "--start")
    assert code != 0 and "not checked in: Emil, Fini" in out
    ok(db_url, "event", "withdraw", "KO", "Emil")
    ok(db_url, "event", "withdraw", "KO", "Fini")
    out = ok(db_url, "event", "round", "KO", "1", "--start")
    assert "Emil" not in out and "Fini" not in out


def test_the_money_sheet_is_printed_and_a_season_adds_up(db_url: str, tmp_path: Path) -> None:
    evening(db_url)
    ok(db_url, "event", "checkin", "KO", "Anna", "--paid-in-full")
    target = tmp_path / "money.pdf"
    ok(db_url, "print", "money", "KO", "--lang", "de", "-o", str(target))
    text = pdf_text(target)
    assert "Kassabericht" in text and "Startgelder" in text and "stimmt auf den Cent" in text
    out = ok(db_url, "event", "money", "--season", "--from", "2000-01-01")
    assert "Money of the season" in out and "KO" in out
    data = json.loads(ok(db_url, "event", "money", "--season", "--json"))
    assert [e["name"] for e in data["events"]] == ["KO"]
    code, out = run(db_url, "event", "money", "KO", "--season")
    assert code != 0 and "not both" in out


def test_the_desk_is_exported_and_loaded_back(db_url: str, tmp_path: Path) -> None:
    evening(db_url)
    ok(db_url, "event", "checkin", "KO", "Anna", "--paid-in-full", "--extra", "4,50")
    ok(db_url, "event", "checkin", "KO", "Bert", "--absent", "--paid", "7,50")
    ok(db_url, "event", "checkin", "KO", "--required")
    path = tmp_path / "ko.json"
    ok(db_url, "event", "export", "KO", "-o", str(path))
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["check_in"] is True
    assert document["desk"][0] == {
        "player": "Anna",
        "present": True,
        "paid": 14.5,
        "extra": 4.5,
        "paid_out": 0,
    }
    before = json.loads(ok(db_url, "event", "money", "KO", "--json"))
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(other, "load", str(path))
    after = json.loads(ok(other, "event", "money", "KO", "--json"))
    assert after["accounts"] == before["accounts"] and after["totals"] == before["totals"]
    code, out = run(other, "event", "round", "KO", "1", "--start")
    assert code != 0 and "not checked in" in out
