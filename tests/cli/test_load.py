"""`tally load`: the bundled examples into a fresh database, standings, and every sheet as PDF.

This is the README's main job; the standings it shows are checked against a second, separate
reckoning of the same files (the engine's rulings and `score_match`, no database).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from tally.cli import app
from tally.engine.match import DealResult, check_quick_result, score_match
from tally.engine.notation import read_deal
from tally.engine.rules import RuleSet
from tally.engine.ruling import rule
from tests.json_support import strict_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CLUB, ROBIN = EXAMPLES / "club-evening", EXAMPLES / "round-robin"
SWISS = EXAMPLES / "swiss"


def pdf_text(path: Path) -> str:
    return "\n".join(
        page.extract_text() or "" for page in PdfReader(io.BytesIO(path.read_bytes())).pages
    )


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The examples loaded once through the CLI: (database, sheets folder, output)."""
    base = tmp_path_factory.mktemp("load")
    db, sheets = base / "examples.db", base / "sheets"
    result = CliRunner().invoke(
        app,
        [
            "load",
            str(CLUB),
            str(ROBIN),
            str(SWISS),
            "--db",
            str(db),
            "--fresh",
            "--sheets",
            str(sheets),
        ],
    )
    assert result.exit_code == 0, result.output
    return db, sheets, result.output


def reckon(folder: Path) -> dict[str, dict[str, int]]:
    """Matches won and game points won/conceded per player, from the files alone."""
    data = tomllib.loads((folder / "event.toml").read_text(encoding="utf-8"))
    rules = RuleSet.parse(data["rules"])
    table: dict[str, Counter[str]] = {p: Counter() for p in data["players"]}
    for m in data["matches"]:
        a, b = m["players"]
        results = []
        for rel in m.get("records", []):
            ruling = rule(read_deal((folder / rel).read_text(encoding="utf-8")))
            assert ruling.outcome is not None and not ruling.errors
            results.append(
                DealResult(ruling.outcome.winner, ruling.deal_points, ruling.outcome.reason)
            )
        for text in m.get("results", []):
            if text == "draw":
                results.append(DealResult(None, 0, "draw"))
                continue
            *name, points, reason = text.split()
            check_quick_result(rules, " ".join(name), int(points), reason)
            results.append(DealResult(" ".join(name), int(points), reason))
        state = score_match(rules, (a, b), m["first_dealer"], results)
        assert state.over
        for me, other in ((a, b), (b, a)):
            table[me]["played"] += 1
            table[me]["won"] += state.winner == me
            table[me]["gp_won"] += state.score[me]
            table[me]["gp_conceded"] += state.score[other]
    return {p: dict(c) for p, c in table.items()}


@pytest.mark.parametrize("event, folder", [("1", CLUB), ("2", ROBIN), ("3", SWISS)])
def test_loaded_standings_agree_with_a_reckoning_of_the_files(
    loaded: tuple[Path, Path, str], event: str, folder: Path
) -> None:
    db, _, _ = loaded
    out = CliRunner().invoke(app, ["standings", event, "--db", str(db), "--json"])
    assert out.exit_code == 0, out.output
    rows = {r["player"]: r for r in strict_json(out.output)["rows"]}
    expected = reckon(folder)
    assert set(rows) == set(expected)
    for player, exp in expected.items():
        row = rows[player]
        assert (row["played"], row["won"], row["game_points_won"], row["game_points_conceded"]) == (
            exp["played"],
            exp["won"],
            exp["gp_won"],
            exp["gp_conceded"],
        ), player
        # one match point a win, the default; a Swiss bye scores a win (bye = "win"): 5
        # rounds, a bye in each round not played
        byes = 5 - exp["played"] if folder == SWISS else 0
        assert row["match_points"] == exp["won"] + byes
    ranks = [r["rank"] for r in sorted(rows.values(), key=lambda r: r["rank"])]
    assert ranks[0] == 1 and ranks == sorted(ranks)


def test_load_shows_each_event_and_its_standings_table(loaded: tuple[Path, Path, str]) -> None:
    _, _, output = loaded
    assert 'Loaded club evening 1 "Thursday Club Evening"' in output
    assert 'Loaded round robin 2 "Autumn Round Robin 2026"' in output
    assert "28 matches, 71 deals recorded trick by trick, 88 kept as results" in output
    assert "Autumn Round Robin 2026, 2026-10-01, schnapsen, round robin: final" in output
    assert "Ranked by MP (match points), then H2H head-to-head" in output
    assert 'Loaded Swiss event 3 "Winter Swiss Open 2026"' in output
    assert "20 matches, 40 deals recorded trick by trick, 69 kept as results" in output
    assert "Winter Swiss Open 2026, 2026-12-05, sixty-six, Swiss event: final" in output
    assert "Ranked by MP (match points), then BH buchholz, MBH median-buchholz, SB" in output


def test_load_writes_the_standings_pairings_score_sheet_and_a_ruling(
    loaded: tuple[Path, Path, str],
) -> None:
    _, sheets, _ = loaded
    names = sorted(p.name for p in sheets.glob("*.pdf"))
    assert names == [
        "pairings-event-2-round-7.pdf",
        "pairings-event-3-round-5.pdf",
        "ruling-deal-1.1.pdf",
        "ruling-deal-36.1.pdf",
        "ruling-deal-8.1.pdf",
        "scoresheet-match-1.pdf",
        "scoresheet-match-36.pdf",
        "scoresheet-match-8.pdf",
        "standings-event-1.pdf",
        "standings-event-2.pdf",
        "standings-event-3.pdf",
    ]
    swiss = pdf_text(sheets / "pairings-event-3-round-5.pdf")
    assert "Winter Swiss Open 2026" in swiss and "Pairings, round 5" in swiss
    data = tomllib.loads((SWISS / "event.toml").read_text(encoding="utf-8"))
    last = [m for m in data["matches"] if m["round"] == 5]
    assert len(last) == 4
    for m in last:
        assert m["players"][0] in swiss and m["players"][1] in swiss
    sitting_out = set(data["players"]) - {p for m in last for p in m["players"]}
    assert [f"Bye: {p}" in swiss for p in sitting_out] == [True]
    assert "Cross-table" in pdf_text(sheets / "standings-event-3.pdf")
    standings = pdf_text(sheets / "standings-event-2.pdf")
    assert "Autumn Round Robin 2026" in standings and "Cross-table" in standings
    assert "Karin Wolf" in standings and "schnapsen" in standings
    pairings = pdf_text(sheets / "pairings-event-2-round-7.pdf")
    assert "Pairings, round 7" in pairings
    data = tomllib.loads((ROBIN / "event.toml").read_text(encoding="utf-8"))
    for m in data["matches"]:
        if m["round"] == 7:
            assert m["players"][0] in pairings and m["players"][1] in pairings
    scoresheet = pdf_text(sheets / "scoresheet-match-8.pdf")
    assert "round 1, table 1" in scoresheet and "Gerti Hofer" in scoresheet
    ruling = pdf_text(sheets / "ruling-deal-8.1.pdf")
    assert "Ruling: Norbert Lang wins the deal and scores 2 game points" in ruling
    assert "failed close" in ruling


def test_loading_an_event_twice_is_refused_and_changes_nothing(
    loaded: tuple[Path, Path, str],
) -> None:
    db, _, _ = loaded
    before = CliRunner().invoke(app, ["match", "list", "--db", str(db), "--json"]).output
    result = CliRunner().invoke(app, ["load", str(CLUB), "--db", str(db)])
    assert result.exit_code == 2
    assert 'an event named "Thursday Club Evening" is loaded already' in result.output
    assert CliRunner().invoke(app, ["match", "list", "--db", str(db), "--json"]).output == before


def test_a_round_robin_file_that_breaks_the_schedule_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "rr"
    (folder / "deals").mkdir(parents=True)
    text = (ROBIN / "event.toml").read_text(encoding="utf-8")
    # Swap who deals first at round 4 table 1: the Berger table says otherwise.
    data = tomllib.loads(text)
    m = next(m for m in data["matches"] if m["round"] == 4 and m["table"] == 1)
    wrong = m["players"][1]
    text = text.replace(
        f'round = 4\ntable = 1\nplayers = ["{m["players"][0]}", '
        f'"{m["players"][1]}"]\nfirst_dealer = "{m["first_dealer"]}"',
        f'round = 4\ntable = 1\nplayers = ["{m["players"][0]}", '
        f'"{m["players"][1]}"]\nfirst_dealer = "{wrong}"',
    )
    (folder / "event.toml").write_text(text, encoding="utf-8")
    for deal in (ROBIN / "deals").glob("*.deal"):
        (folder / "deals" / deal.name).write_text(deal.read_text(encoding="utf-8"))
    result = CliRunner().invoke(app, ["load", str(folder), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2
    assert "round 4 table 1 is" in result.output and "by the schedule" in result.output
    assert "event.toml, match" in result.output


def swiss_copy(tmp_path: Path, change: str, into: str) -> tuple[Path, str]:
    """The Swiss example in a folder of its own, its event.toml with ``change`` made
    ``into``; (folder, database URL)."""
    folder = tmp_path / "swiss"
    (folder / "deals").mkdir(parents=True)
    text = (SWISS / "event.toml").read_text(encoding="utf-8")
    assert change in text
    (folder / "event.toml").write_text(text.replace(change, into, 1), encoding="utf-8")
    for deal in (SWISS / "deals").glob("*.deal"):
        (folder / "deals" / deal.name).write_text(deal.read_text(encoding="utf-8"))
    return folder, str(tmp_path / "x.db")


def test_a_swiss_file_whose_pairings_are_not_tallys_is_refused_whole(tmp_path: Path) -> None:
    data = tomllib.loads((SWISS / "event.toml").read_text(encoding="utf-8"))
    m = next(m for m in data["matches"] if m["round"] == 3 and m["table"] == 1)
    swapped = [m["players"][1], m["players"][0]]
    other = swapped[0]
    # The same two players with the other one dealing first: not tally's pairing
    folder, db = swiss_copy(
        tmp_path,
        f'round = 3\ntable = 1\nplayers = ["{m["players"][0]}", "{m["players"][1]}"]\n'
        f'first_dealer = "{m["first_dealer"]}"',
        f'round = 3\ntable = 1\nplayers = ["{swapped[0]}", "{swapped[1]}"]\n'
        f'first_dealer = "{other if other != m["first_dealer"] else swapped[1]}"',
    )
    result = CliRunner().invoke(app, ["load", str(folder), "--db", db])
    assert result.exit_code == 2, result.output
    assert "round 3 table 1 is" in result.output and "by the Swiss pairing" in result.output
    assert not Path(db).exists()  # nothing loaded: no new database either


@pytest.mark.parametrize(
    "change, into, message",
    [
        ("rounds = 5\n", "", "a Swiss event plays 1 to 99 rounds"),
        ("round = 1\ntable = 1\n", "round = 1\ntable = 7\n", "not table 7"),
        # a table of round 2 moved to a round 6: round 2 is never finished
        (
            "round = 2\n",
            "round = 6\n",
            "is paired once round 2 is finished (matches still being played: 5)",
        ),
    ],
)
def test_a_swiss_file_with_a_mistake_is_refused(
    tmp_path: Path, change: str, into: str, message: str
) -> None:
    folder, db = swiss_copy(tmp_path, change, into)
    result = CliRunner().invoke(app, ["load", str(folder), "--db", db])
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_fresh_is_only_for_a_sqlite_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["load", str(CLUB), "--fresh", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none"]
    )
    assert result.exit_code == 2
    assert "--fresh starts a new SQLite file" in result.output


def test_print_standings_and_pairings_name_what_they_print(
    loaded: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, _, _ = loaded
    runner = CliRunner()
    out = tmp_path / "s.pdf"
    result = runner.invoke(
        app,
        [
            "print",
            "standings",
            "thursday club evening",
            "--db",
            str(db),
            "-o",
            str(out),
            "--paper",
            "letter",
        ],
    )
    assert result.exit_code == 0, result.output
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert round(float(reader.pages[0].mediabox.width)) == 612  # letter, in points
    text = pdf_text(out)
    # a club evening's sheet carries its cross-table too (issue 11), a season's none
    assert "Thursday Club Evening" in text and "Cross-table" in text
    season = tmp_path / "season.pdf"
    result = runner.invoke(
        app, ["print", "standings", "--season", "--all-events", "--db", str(db), "-o", str(season)]
    )
    assert result.exit_code == 0, result.output
    assert "Karin Wolf" in pdf_text(season) and "Anna Berger" in pdf_text(season)
    assert "Cross-table" not in pdf_text(season)
    refused = runner.invoke(
        app,
        ["print", "pairings", "1", "--round", "1", "--db", str(db), "-o", str(tmp_path / "p.pdf")],
    )
    assert refused.exit_code == 2 and "is a club evening: it has no rounds" in refused.output
    assert not (tmp_path / "p.pdf").exists()
    bad_round = runner.invoke(
        app,
        ["print", "pairings", "2", "--round", "9", "--db", str(db), "-o", str(tmp_path / "p.pdf")],
    )
    assert bad_round.exit_code == 2 and not (tmp_path / "p.pdf").exists()


@pytest.mark.slow  # a real process
def test_the_main_job_runs_as_a_real_process(tmp_path: Path) -> None:
    """The README's Quick start main job, as a whole process (without the install)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tally",
            "load",
            str(CLUB),
            str(ROBIN),
            str(SWISS),
            str(EXAMPLES / "knockout"),
            "--db",
            str(tmp_path / "examples.db"),
            "--fresh",
            "--sheets",
            str(tmp_path / "sheets"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Karin Wolf" in proc.stdout and "Preisschnapsen 2026" in proc.stdout
    assert len(list((tmp_path / "sheets").glob("*.pdf"))) == 16
    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "tally",
            "load",
            str(CLUB),
            "--db",
            str(tmp_path / "examples.db"),
            "--fresh",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert again.returncode == 0, again.stderr  # --fresh: a second run starts over


@pytest.mark.parametrize(
    "kind, toml, message",
    [
        ("round-robin", 'round = "x"\ntable = 1', "round must be a whole number"),
        ("round-robin", "round = 1\ntable = 2", "round 1 table 2 is not in the schedule"),
        (
            "club-evening",
            'records = ["../../../etc/passwd"]',
            "records are read from inside the event's folder only",
        ),
        ("club-evening", 'results = ["Anna Berger x claim"]', 'a result is "Winner N reason"'),
        ("club-evening", 'results = ["Nobody 2 claim"]', "does not play in this match"),
        ("club-evening", 'results = ["Anna Berger 9 claim"]', "worth 1 or 2 or 3 game point(s)"),
    ],
)
def test_a_folder_with_a_mistake_is_refused_whole_and_stores_nothing(
    tmp_path: Path, kind: str, toml: str, message: str
) -> None:
    folder = tmp_path / "ev"
    folder.mkdir()
    (folder / "event.toml").write_text(
        f'name = "Broken"\nkind = "{kind}"\nplayers = ["Anna Berger", "Bert Huber"]\n'
        '[[matches]]\nplayers = ["Anna Berger", "Bert Huber"]\nfirst_dealer = "Anna Berger"\n'
        + toml
        + "\n",
        encoding="utf-8",
    )
    db = str(tmp_path / "x.db")
    result = CliRunner().invoke(app, ["load", str(folder), "--db", db])
    assert result.exit_code == 2, result.output
    assert message in result.output and "event.toml" in result.output
    assert not Path(db).exists()  # nothing stored: no new database either


def test_a_record_that_breaks_a_match_is_refused_before_anything_is_stored(tmp_path: Path) -> None:
    folder = tmp_path / "ev"
    (folder / "deals").mkdir(parents=True)
    deal = (CLUB / "deals" / "match1-deal1.deal").read_text(encoding="utf-8")
    first_card = re.search(r"^1\. (\S+)", deal, re.M).group(1)  # type: ignore[union-attr]
    broken = re.sub(r"^2\. \S+", f"2. {first_card}", deal, count=1, flags=re.M)
    (folder / "deals" / "d.deal").write_text(broken, encoding="utf-8")
    data = tomllib.loads((CLUB / "event.toml").read_text(encoding="utf-8"))
    first = data["matches"][0]
    (folder / "event.toml").write_text(
        f'name = "Broken"\nkind = "club-evening"\nplayers = ["{first["players"][0]}", '
        f'"{first["players"][1]}"]\n[[matches]]\nplayers = ["{first["players"][0]}", '
        f'"{first["players"][1]}"]\nfirst_dealer = "{first["first_dealer"]}"\n'
        'records = ["deals/d.deal"]\n',
        encoding="utf-8",
    )
    db = str(tmp_path / "x.db")
    result = CliRunner().invoke(app, ["load", str(folder), "--db", db])
    assert result.exit_code == 2
    assert "d.deal" in result.output
    assert f"{first_card} was already played in trick 1" in result.output
    assert not Path(db).exists()  # nothing loaded: no new database either
