"""FIDE's TRF-16 (tally.files.trf, `tally event export --format trf`): a Swiss event written by
tally and read back, a round robin, what a TRF cannot hold, and a file laid out as the
TRF-16 description and the pairing programs' documentation show it, read in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tally.errors import TallyError
from tally.files.trf import RESULTS, TrfGame, read_trf
from tests.store_support import ok, refused

SWISS = Path(__file__).resolve().parents[2] / "examples" / "swiss"

# tests/data/trf/example-open.trf: three rounds of a six-player Swiss as the TRF-16 layout
# has it: a Swiss-Manager-like head, 001 lines with sex, title, rating, federation, FIDE id
# and birth date filled in, a draw, a forfeit, a pairing-allocated bye and a half-point bye
# asked for.
EXAMPLE = (Path(__file__).parents[1] / "data" / "trf" / "example-open.trf").read_text(
    encoding="utf-8"
)


def test_a_trf_as_the_pairing_programs_document_it_is_read() -> None:
    t = read_trf(EXAMPLE)
    assert (t.name, t.start, t.end, t.rounds) == (
        "Example Open 2024",
        "2024/03/01",
        "2024/03/03",
        3,
    )
    assert [(p.number, p.name, p.rating, p.points, p.rank) for p in t.players][:2] == [
        (1, "Alpha, Anton", 2510, 2.5, 1),
        (2, "Beta, Bruno", 2405, 2.0, 2),
    ]
    anton, bruno, gerda, dieter, _, zeno = t.players
    assert anton.games == (TrfGame(4, "w", "1"), TrfGame(2, "b", "="), TrfGame(3, "w", "1"))
    assert bruno.games[2] == TrfGame(None, "-", "H") and gerda.games[1].result == "U"
    assert dieter.games[1] == TrfGame(6, "w", "+") and zeno.games[1] == TrfGame(4, "b", "-")
    assert zeno.games[2] is None  # not paired in round 3: a short line
    # every player's points are what their results add up to
    assert all(sum(RESULTS[g.result] for g in p.games if g) == p.points for p in t.players)


@pytest.mark.parametrize(
    "change, message",
    [
        ("     4 w 1     2 b =", "     4 x 1     2 b ="),
        ("001    2 mIM  Beta", "001    1 mIM  Beta"),
        ("     4 w 1     2 b =", "     9 w 1     2 b ="),
    ],
)
def test_a_trf_that_breaks_the_layout_is_refused_naming_the_line(change: str, message: str) -> None:
    with pytest.raises(TallyError, match=r"open\.trf"):
        read_trf(EXAMPLE.replace(change, message), "open.trf")


def test_a_swiss_event_written_as_trf_reads_back_the_same(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    runner = CliRunner()
    assert runner.invoke(app, ["load", str(SWISS), "--db", db]).exit_code == 0
    out = tmp_path / "open.trf"
    result = runner.invoke(
        app,
        [
            "event",
            "export",
            "Winter Swiss Open 2026",
            "--format",
            "trf",
            "-o",
            str(out),
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output
    t = read_trf(out.read_text(encoding="utf-8"))
    event = json.loads(
        runner.invoke(app, ["event", "show", "Winter Swiss Open 2026", "--json", "--db", db]).output
    )
    names = [p["name"] for p in event["players"]]
    assert [p.name for p in t.players] == names and t.rounds == 5 and t.kind == "Swiss"
    standings = json.loads(
        runner.invoke(app, ["standings", "Winter Swiss Open 2026", "--json", "--db", db]).output
    )
    rows = {r["player"]: r for r in standings["rows"]}
    for p in t.players:
        assert (p.points, p.rank) == (rows[p.name]["match_points"], rows[p.name]["rank"])
        assert sum(RESULTS[g.result] for g in p.games if g) == p.points
    for number in range(1, 6):
        rnd = json.loads(
            runner.invoke(
                app, ["event", "round", "Winter Swiss Open 2026", str(number), "--json", "--db", db]
            ).output
        )
        for pairing in rnd["pairings"]:
            first = t.players[names.index(pairing["first_dealer"])].games[number - 1]
            other = (
                pairing["second"]
                if pairing["first"] == pairing["first_dealer"]
                else pairing["first"]
            )
            assert first is not None and first.colour == "w"
            assert first.opponent == names.index(other) + 1
            won = pairing["matches"][0]["winner"] == pairing["first_dealer"]
            assert first.result == ("1" if won else "0")
        bye = t.players[names.index(rnd["bye"])].games[number - 1]
        assert bye == TrfGame(None, "-", "U")  # the example's byes score a win


def test_a_round_robin_is_written_and_a_club_evening_refused(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl", "Dora")
    ok(db_url, "event", "create", "Robin", "Anna", "Bert", "Carl", "Dora", "--kind", "round-robin")
    text = ok(db_url, "event", "export", "Robin", "--format", "trf")
    t = read_trf(text)
    assert t.kind == "Round robin" and t.rounds == 3
    assert all(p.games == (None,) * 3 for p in t.players)  # nothing played: rounds blank
    ok(db_url, "event", "create", "Club", "Anna", "Bert")
    refused(
        db_url,
        "event",
        "export",
        "Club",
        "--format",
        "trf",
        match="a TRF holds round robins and Swiss events",
    )
