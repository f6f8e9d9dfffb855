"""Knockouts on the command line: the bundled Preisschnapsen loaded and checked against a
reckoning of its files, its sheets read back, a groups event kept as files, a file that is
not the draw refused, and the `tally event` commands of a knockout (create, round, playoff,
elimination, bracket) through Typer's CliRunner."""

from __future__ import annotations

import io
import json
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from tally.cli import app
from tally.engine.match import DealResult, score_match
from tally.engine.notation import read_deal
from tally.engine.rules import RuleSet
from tally.engine.ruling import rule
from tally.events.schedule import berger_schedule

ROOT = Path(__file__).resolve().parents[2]
KNOCKOUT = ROOT / "examples" / "knockout"
runner = CliRunner()


def pdf_text(path: Path) -> str:
    return "\n".join(
        page.extract_text() or "" for page in PdfReader(io.BytesIO(path.read_bytes())).pages
    )


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def winners(folder: Path) -> list[tuple[int, str, str]]:
    """(round, winner, loser) of every match of the file, from the records and results."""
    data = tomllib.loads((folder / "event.toml").read_text(encoding="utf-8"))
    rules = RuleSet.parse(data["rules"])
    out = []
    for m in data["matches"]:
        a, b = m["players"]
        results = []
        for rel in m.get("records", []):
            ruling = rule(read_deal((folder / rel).read_text(encoding="utf-8")))
            assert ruling.outcome is not None
            results.append(
                DealResult(ruling.outcome.winner, ruling.deal_points, ruling.outcome.reason)
            )
        for text in m.get("results", []):
            *name, points, reason = text.split()
            results.append(DealResult(" ".join(name), int(points), reason))
        state = score_match(rules, (a, b), m["first_dealer"], results)
        assert state.winner is not None
        out.append((m["round"], state.winner, b if state.winner == a else a))
    return out


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    base = tmp_path_factory.mktemp("knockout")
    db, sheets = base / "ko.db", base / "sheets"
    output = ok("load", str(KNOCKOUT), "--db", str(db), "--fresh", "--sheets", str(sheets))
    return db, sheets, output


def test_the_example_agrees_with_a_reckoning_of_its_files(loaded: tuple[Path, Path, str]) -> None:
    db, _, output = loaded
    assert 'Loaded knockout 1 "Preisschnapsen 2026"' in output
    view = json.loads(ok("event", "elimination", "1", "--db", str(db), "--json"))
    lines = {x["player"]: x for x in view["lines"]}
    played = winners(KNOCKOUT)
    # the final stage: the last rounds, one per round of the bracket (semi-finals, final)
    assert len(view["bracket"]) == 2
    bracket_from = max(r for r, *_ in played) - 1
    lost: Counter[str] = Counter()
    out_in: dict[str, int] = {}
    for number, _, loser in sorted(played):
        if number >= bracket_from:
            continue
        lost[loser] += 1
        if lost[loser] == 3:
            out_in[loser] = number
    assert len(lines) == 16
    for player, line in lines.items():
        if line["out_in"] is not None or line["lives"] == 0:
            assert (line["lives"], line["out_in"]) == (0, out_in[player]), player
        else:  # the last four: lives left when the lives stage ended
            assert line["lives"] == 3 - lost[player], player
    final = max(played)
    assert view["champion"] == final[1]
    assert [x["player"] for x in view["lines"][:2]] == [final[1], final[2]]
    # ranked by the round of elimination, later first, below the last four
    outs = [x["out_in"] for x in view["lines"][4:]]
    assert outs == sorted(outs, reverse=True)


def test_the_examples_sheets(loaded: tuple[Path, Path, str]) -> None:
    db, sheets, _ = loaded
    names = sorted(p.name for p in sheets.glob("*.pdf"))
    last = max(r for r, *_ in winners(KNOCKOUT))
    assert names == [
        "bracket-event-1.pdf",
        f"pairings-event-1-round-{last}.pdf",
        "ruling-deal-1.1.pdf",
        "scoresheet-match-1.pdf",
        "standings-event-1.pdf",
    ]
    standings = pdf_text(sheets / "standings-event-1.pdf")
    assert "Standings by elimination" in standings and "Seed of the draw 2026" in standings
    assert "Lives" in standings and "Brigitte Haas" in standings
    bracket = pdf_text(sheets / "bracket-event-1.pdf")
    assert "Semi-finals" in bracket and "Final" in bracket and "Champion" in bracket
    view = json.loads(ok("event", "elimination", "1", "--db", str(db), "--json"))
    assert view["champion"] in bracket
    target = sheets.parent / "round1.pdf"
    ok("print", "pairings", "1", "--round", "1", "--db", str(db), "-o", str(target))
    pairings = pdf_text(target)
    assert "Round 1: drawn by lot, seed 2026" in pairings


def test_a_file_that_is_not_the_draw_is_refused_whole(tmp_path: Path) -> None:
    folder = tmp_path / "ko"
    (folder / "deals").mkdir(parents=True)
    for f in (KNOCKOUT / "deals").glob("*.deal"):
        (folder / "deals" / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    text = (KNOCKOUT / "event.toml").read_text(encoding="utf-8")
    (folder / "event.toml").write_text(
        text.replace('seed = "2026"', 'seed = "2027"'), encoding="utf-8"
    )
    db = tmp_path / "x.db"
    result = runner.invoke(app, ["load", str(folder), "--db", str(db)])
    assert result.exit_code == 2
    assert "round 1 table 1 is" in result.output and "seed 2027" in result.output
    assert not db.exists()  # nothing loaded: no new database either


def groups_toml(extra: str = "") -> str:
    """8 players, 2 groups (snake: P1 P4 P5 P8 and P2 P3 P6 P7), 2 go through; the player
    entered first wins every match (one claim of 3, the match target)."""
    names = [f"P{i}" for i in range(1, 9)]
    groups = [["P1", "P4", "P5", "P8"], ["P2", "P3", "P6", "P7"]]
    lines = [
        'name = "Cup"',
        'kind = "groups"',
        'rules = "sixty-six match_target=3"',
        "groups = 2",
        "advance = 2",
        "players = [" + ", ".join(f'"{n}"' for n in names) + "]",
        extra,
    ]
    schedules = [berger_schedule(g) for g in groups]

    def match(number: int, table: int, a: str, b: str) -> None:
        win = min(a, b)
        lines.extend(
            [
                "[[matches]]",
                f"round = {number}",
                f"table = {table}",
                f'players = ["{a}", "{b}"]',
                f'first_dealer = "{a}"',
                f'results = ["{win} 3 claim"]',
            ]
        )

    for number in (1, 2, 3):
        table = 0
        for sched in schedules:
            for p in sched[number - 1].pairings:
                table += 1
                match(number, table, p.first, p.second)
    # the bracket by hand: A1 P1 v B2 P3, B1 P2 v A2 P4; the final P1 v P2
    match(4, 1, "P1", "P3")
    match(4, 2, "P2", "P4")
    match(5, 1, "P1", "P2")
    return "\n".join(lines) + "\n"


def test_a_groups_event_kept_as_files_loads(tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    folder.mkdir()
    (folder / "event.toml").write_text(groups_toml(), encoding="utf-8")
    db = str(tmp_path / "g.db")
    ok("load", str(folder), "--db", db, "--sheets", str(tmp_path / "sheets"))
    view = json.loads(ok("event", "elimination", "Cup", "--db", db, "--json"))
    assert view["champion"] == "P1"
    assert [x["stage"] for x in view["lines"][:2]] == ["winner", "final, out"]
    bracket = ok("event", "bracket", "Cup", "--db", db)
    assert "Champion: P1." in bracket
    assert (tmp_path / "sheets" / "bracket-event-1.pdf").exists()


def test_a_groups_file_with_a_withdrawal_and_a_wrong_bracket_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    folder.mkdir()
    # P4 (group 1's runner-up) withdraws after the groups: P5 goes through instead, so
    # the file's bracket (P2 against P4) is not the bracket tally seeds
    text = groups_toml('[[withdrawals]]\nplayer = "P4"\nafter_round = 3\n')
    (folder / "event.toml").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["load", str(folder), "--db", str(tmp_path / "g.db")])
    assert result.exit_code == 2
    assert "round 4 table 2 is P2 against P5" in result.output


def test_knockout_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    ok("player", "add", "Anna", "Bert", "Carl", "Dora", "<b>Eva</b>", "--db", db)
    out = ok(
        "event",
        "create",
        "KO",
        "Anna",
        "Bert",
        "Carl",
        "Dora",
        "<b>Eva</b>",
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
    assert 'Created knockout with lives 1 "KO"' in out
    bad = runner.invoke(
        app, ["event", "create", "X", "--kind", "knockout", "--lives", "0", "--db", db]
    )
    assert bad.exit_code == 2 and "1 to 9 lives" in bad.output
    shown = ok("event", "show", "KO", "--db", db)
    assert "Knockout: 1 lives each, rounds drawn by lot with seed s; the last 2 play" in shown
    out = ok("event", "round", "KO", "1", "--start", "--db", db)
    assert "Round 1: drawn by lot, seed s." in out
    rnd = json.loads(ok("event", "round", "KO", "1", "--json", "--db", db))
    assert rnd["draw"] == "drawn by lot, seed s" and rnd["bye"]
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
    out = ok("event", "elimination", "KO", "--db", db)
    assert "out in round 1" in out and "still in, 1 life" in out
    csv = ok("event", "elimination", "KO", "--csv", "--db", db)
    assert csv.splitlines()[0] == "rank,player,group,lives,out_in,stage,won,lost,r1"
    losers = [p["second"] for p in rnd["pairings"]]
    refused = runner.invoke(app, ["event", "playoff", "KO", losers[0], rnd["bye"], "--db", db])
    assert refused.exit_code == 2 and "do not share a rank" in refused.output
    assert "no bracket yet" in ok("event", "bracket", "KO", "--db", db)
    out = ok("event", "round", "KO", "2", "--start", "--db", db)  # 3 left: a bracket of 2?
    assert "bracket" not in out  # 3 players still in, more than the final's 2
    standings = json.loads(ok("standings", "KO", "--json", "--db", db))
    assert standings["stage"].startswith("round 2")
    target = tmp_path / "e.pdf"
    ok("print", "standings", "KO", "--db", db, "-o", str(target))
    text = pdf_text(target)
    assert "<b>Eva</b>" in text  # a name is printed as text, never as markup
    refused = runner.invoke(
        app, ["print", "bracket", "KO", "--db", db, "-o", str(tmp_path / "b.pdf")]
    )
    assert refused.exit_code == 2 and "no bracket yet" in refused.output


def test_a_knockout_drawn_by_lot_does_not_say_how_many_rounds_it_has(tmp_path: Path) -> None:
    db = str(tmp_path / "ko.db")
    six = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini"]
    ok("player", "add", *six, "--db", db)
    ok(
        "event",
        "create",
        "KO",
        *six,
        "--kind",
        "knockout",
        "--seed",
        "s",
        "--final",
        "4",
        "--db",
        db,
    )
    started = ok("event", "round", "KO", "1", "--start", "--db", db)
    assert "KO, round 1 (started)" in started and " of " not in started.splitlines()[0]
    assert "KO, round 1 (started)" in ok("event", "round", "KO", "--db", db)
    refused = runner.invoke(
        app,
        [
            "event",
            "create",
            "KO2",
            *six,
            "--kind",
            "knockout",
            "--final",
            "4",
            "--final-fill",
            "lots",
            "--db",
            db,
        ],
    )
    assert refused.exit_code == 2 and "--final-fill is playoff or tiebreaks" in refused.output
    made = json.loads(
        ok(
            "event",
            "create",
            "KO3",
            *six,
            "--kind",
            "knockout",
            "--final",
            "4",
            "--final-fill",
            "tiebreaks",
            "--db",
            db,
            "--json",
        )
    )
    exported = json.loads(ok("event", "export", str(made["id"]), "--db", db))
    assert exported["options"]["final_fill"] == "tiebreaks"


def test_the_knockouts_legend_says_what_ranks_it_on_the_sheet_and_the_terminal(
    loaded: tuple[Path, Path, str],
) -> None:
    db, sheets, _ = loaded
    ranking = (
        "Ranked by how far each player got (in the final stage: the round reached; "
        "before it: the round out in, the later the better"
    )
    sheet = " ".join(pdf_text(sheets / "standings-event-1.pdf").split())
    assert ranking in sheet and "then play-offs (Stechen)." in sheet
    for args in (["event", "elimination", "1"], ["standings", "1"]):
        shown = " ".join(ok(*args, "--db", str(db)).split())
        assert ranking in shown and "and the tiebreaks (head-to-head," in shown, args
        assert "Ranked by MP" not in shown  # the ordinary standings' order is not theirs
    german = " ".join(ok("event", "elimination", "1", "--db", str(db), "--lang", "de").split())
    assert "Gereiht danach, wie weit jeder Spieler kam (in der Endrunde" in german
    assert "und den Feinwertungen (direkter Vergleich" in german


def test_the_example_fills_its_final_of_four_by_a_playoff(loaded: tuple[Path, Path, str]) -> None:
    """Round 8 left three players still in: the two out in it played off for the fourth
    place in round 9, and the semi-finals had four players, no bye."""
    db, _, _ = loaded
    view = json.loads(ok("event", "elimination", "1", "--db", str(db), "--json"))
    stages = {x["player"]: x["stage"] for x in view["lines"]}
    assert stages["Ignaz Pfeiffer"] == "lost the play-off in round 9"
    assert stages["Doris Egger"] == "semi-final, out"
    assert all(m["first"] and m["second"] for m in view["bracket"][0])
    shown = ok("event", "round", "1", "9", "--db", str(db))
    assert "Round 9: play-off for the final stage, drawn by lot, seed 2026." in shown
