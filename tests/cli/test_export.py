"""``tally event export`` and ``tally load FILE.json``: an event moved between databases.

The round trip: events built in one database (the bundled examples, among them a Swiss event
and a knockout with lives, and events with byes that score, withdrawals before a round and
during a match, aliases, records and results mixed in a match, a deal still being played,
groups then knockout with a play-off) are exported as JSON, loaded into a fresh database
(SQLite and PostgreSQL) and exported again: the bytes are the same, and so are the
standings, the cross-tables, the rounds, the standings by elimination and the bracket, and
every deal's ``.deal`` export. Then the CSV and
folder exports, and files that are refused with one line, storing nothing.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tally.store import as_json, open_store
from tests.json_support import strict_json
from tests.store_support import DRAW_DEAL, FAILED_CLOSE, dump, lines, ok, tally

ROOT = Path(__file__).resolve().parents[2]
CLUB, ROBIN = ROOT / "examples" / "club-evening", ROOT / "examples" / "round-robin"
SWISS, KNOCKOUT = ROOT / "examples" / "swiss", ROOT / "examples" / "knockout"
#: The events of :func:`source`, by name.
EVENTS = (
    "Thursday Club Evening",
    "Autumn Round Robin 2026",
    "Winter Swiss Open 2026",
    "Preisschnapsen 2026",
    "Spring cup",
    "Friday club",
    "Summer groups",
    "Late Swiss",
    "Late knockout",
)


def record(deal: tuple[str, str], dealer: str, forehand: str) -> str:
    return (
        f'[Rules "sixty-six"]\n[Dealer "{dealer}"]\n[Forehand "{forehand}"]\n'
        f'[Trump "{deal[0]}"]\n\n'
        + "".join(f"{i}. {line}\n" for i, line in enumerate(lines(deal), start=1))
    )


def build_events(url: str) -> None:
    """A round robin and a club evening with everything the export must carry.

    Spring cup (5 players, a bye scores a win, forfeits): round 1 played out (a record, a
    draw record and results mixed), Emil withdraws before round 2, round 2 started with one
    match finished, one with a deal half played and one not begun. Friday club: three
    matches, a newcomer joins by playing, Dora withdraws while her match is running.
    """

    with open_store(url, scorer="builder") as s:
        for name in (
            "Olga Rainer",
            "Paul Seidl",
            "Rosa Thaler",
            "Stefan Unger",
            "Theo Vogel",
            "=HYPERLINK(1)",
        ):
            s.players.add(name)
        s.players.add_alias("Olga Rainer", "Olgi")
        s.players.add_alias("Paul Seidl", "Pauli")
        ev = s.events.create(
            "Spring cup",
            kind="round-robin",
            rules="sixty-six",
            players=["Olga Rainer", "Paul Seidl", "Rosa Thaler", "Stefan Unger", "Theo Vogel"],
            bye="win",
            withdrawal="forfeit",
            tiebreaks=["wins", "head-to-head"],
        )
        rnd = s.events.start_round(ev.id, 1)
        for p in rnd.pairings:
            mid = p.matches[0].match_id
            first, other = p.first_dealer, (p.second if p.first_dealer == p.first else p.first)
            if p.table == 1:
                s.deals.import_records(
                    mid,
                    [
                        ("a", record(FAILED_CLOSE, first, other)),
                        ("b", record(DRAW_DEAL, other, first)),
                    ],
                )
            s.deals.quick_result(mid, winner=first, points=2, reason="claim")
            if p.table == 1:
                s.deals.import_records(mid, [("c", record(FAILED_CLOSE, other, first))])
            while not s.matches.state(mid).over:
                s.deals.quick_result(mid, winner=p.second, points=3, reason="claim")
        rnd = s.events.start_round(ev.id, 2)
        made = [p for p in rnd.pairings if p.matches]
        assert len(made) == 2
        done, half = made[0].matches[0].match_id, made[1].matches[0].match_id
        for _ in range(3):
            s.deals.quick_result(done, winner=made[0].first, points=3, reason="claim")
        s.deals.quick_result(half, winner=made[1].second, points=1, reason="claim")
        deal = s.deals.start(half, DRAW_DEAL[0])
        s.deals.play(deal.id, lines(DRAW_DEAL)[0].split())
        s.events.withdraw(ev.id, "Theo Vogel")
        s.events.start_round(ev.id, 3, force=True)  # the director confirmed: round 2 is played
        club = s.events.create(
            "Friday club",
            players=["Olga Rainer", "Paul Seidl", "Stefan Unger"],
            withdrawal="forfeit",
        )
        m1 = s.matches.start(
            "Olga Rainer", "Paul Seidl", first_dealer="Paul Seidl", event=club.id
        ).id
        s.deals.import_records(m1, [("x", record(FAILED_CLOSE, "Paul Seidl", "Olga Rainer"))])
        while not s.matches.state(m1).over:
            s.deals.quick_result(m1, winner="Olga Rainer", points=2, reason="claim")
        m2 = s.matches.start(
            "Stefan Unger", "=HYPERLINK(1)", first_dealer="Stefan Unger", event=club.id
        ).id
        s.deals.quick_result(m2, winner="Stefan Unger", points=3, reason="claim")
        m3 = s.matches.start(
            "Paul Seidl", "=HYPERLINK(1)", first_dealer="=HYPERLINK(1)", event=club.id
        ).id
        s.deals.quick_result(m3, winner=None, points=0, reason="draw")
        s.events.withdraw(club.id, "Stefan Unger")
        build_groups(s)
        build_late_entries(s)


def _win(s: Any, match_id: int, winner: str) -> None:
    while not s.matches.state(match_id).over:
        s.deals.quick_result(match_id, winner=winner, points=3, reason="claim")


def build_late_entries(s: Any) -> None:
    """Late Swiss (3 rounds): Yvonne joins after round 1, Uwe withdraws after round 2.
    Late knockout (2 lives, seed "late"): Zenzi joins after round 1, when nobody is out; its
    money has category prizes (Damen: Vroni, Yvonne, Zenzi; Jugend U18: Uwe), one a
    percentage, one fixed amounts."""

    names = [
        "Uwe Amon",
        "Vroni Binder",
        "Willi Czech",
        "Xaver Dobler",
        "Yvonne Eder",
        "Zenzi Frank",
    ]
    for name in names:
        s.players.add(name)
    for event, kind, late, options in (
        ("Late Swiss", "swiss", "Yvonne Eder", {"rounds": 3}),
        ("Late knockout", "knockout", "Zenzi Frank", {"lives": 2, "draw_seed": "late"}),
    ):
        ev = s.events.create(event, kind=kind, players=names[:4], **options)
        for number in (1, 2):
            if number == 2:
                s.events.add_players(ev.id, [late])
            for p in s.events.start_round(ev.id, number).pairings:
                if p.matches:
                    _win(s, p.matches[0].match_id, p.second)
        if kind == "swiss":
            s.events.withdraw(ev.id, "Uwe Amon")
            s.events.start_round(ev.id, 3, force=True)  # the director confirmed: round 2 is played
    for name in ("Vroni Binder", "Yvonne Eder", "Zenzi Frank"):
        s.players.set_categories(name, ["Damen"])
    s.players.set_categories("Uwe Amon", ["Jugend U18", "club members"])
    s.prizes.set_money(
        "Late knockout",
        entry_fee=1000,
        shares="50,30",
        category_prizes=["Damen=10,5", "Jugend U18=20 €;7,50 €"],
    )


def build_groups(s: Any) -> None:
    """Summer groups: 7 players in 2 groups (4 and 3), 2 go through, ranked by percentage,
    tiebreak wins only. The upper player of each match wins; one match of round 1 is kept
    trick by trick; Lena withdraws after round 1 (forfeits); a play-off between two tied
    players after the groups; in the semi-finals Kurt withdraws during his match; the final
    is being played."""
    from tally.errors import Refused

    names = [
        "Hans Auer",
        "Ida Bauer",
        "Jakob Cerny",
        "Kurt Dorn",
        "Lena Ebner",
        "Max Fuchs",
        "Nora Graf",
    ]
    for name in names:
        s.players.add(name)
    ev = s.events.create(
        "Summer groups",
        kind="groups",
        players=names,
        groups=2,
        advance=2,
        tiebreaks=["wins"],
        rank_by="percentage",
    )

    def play(number: int) -> list[Any]:
        made = [p for p in s.events.start_round(ev.id, number).pairings if p.matches]
        for p in made:
            _win(s, p.matches[0].match_id, p.first)
        return made

    made = [p for p in s.events.start_round(ev.id, 1).pairings if p.matches]
    first = made[0]
    other = first.second if first.first_dealer == first.first else first.first
    s.deals.import_records(
        first.matches[0].match_id, [("a", record(FAILED_CLOSE, first.first_dealer, other))]
    )
    for p in made:
        _win(s, p.matches[0].match_id, p.first)
    s.events.withdraw(ev.id, "Lena Ebner")
    play(2)
    play(3)
    players = [line.player for line in s.knockouts.view(ev).lines]
    for a, b in ((a, b) for i, a in enumerate(players) for b in players[i + 1 :]):
        try:
            playoff = s.knockouts.record_playoff(ev.id, a, b, first_dealer=b)
        except Refused:
            continue
        _win(s, playoff, b)
        break
    else:
        raise AssertionError("no tie to play off")
    semis = [p for p in s.events.start_round(ev.id, 4).pairings if p.matches]
    assert len(semis) == 2
    _win(s, semis[0].matches[0].match_id, semis[0].second)
    s.deals.quick_result(
        semis[1].matches[0].match_id, winner=semis[1].first, points=2, reason="claim"
    )
    s.events.withdraw(ev.id, semis[1].first)
    [final] = [p for p in s.events.start_round(ev.id, 5).pairings if p.matches]
    s.deals.quick_result(final.matches[0].match_id, winner=final.second, points=1, reason="claim")


def picture(url: str, name: str) -> dict[str, Any]:
    """What a director sees of event ``name``: standings, cross-table, rounds, the deals'
    exports, without database numbers and time stamps."""

    with open_store(url) as s:
        ev = s.events.get(name)
        table = as_json(s.events.standings(ev.id))
        grid = as_json(s.events.cross_table(ev.id))
        made = as_json(s.events.rounds(ev.id)) if ev.kind != "club" else []
        stage = as_json(s.knockouts.view(ev)) if ev.kind in ("knockout", "groups") else {}
        deals = [
            s.deals.export(d.id) if d.kind == "recorded" else as_json(d)["winner"]
            for m in s.matches.all()
            if m.event_id == ev.id
            for d in s.matches.state(m.id).deals
        ]
        view = as_json(ev)
    for data in (view, table["event"], grid["event"]):
        for key in ("id", "created_at"):
            data.pop(key)
        for p in data["players"]:
            p["withdrawn_at"] = bool(p["withdrawn_at"])
    table.pop("events")
    for r in made:
        r.pop("event_id")
        for p in r["pairings"]:
            for m in p["matches"]:
                m.pop("match_id")
            p.pop("match_ids")
    if stage:
        stage.pop("event")
        for row in stage["bracket"]:
            for m in row:
                m.pop("match_id")
        for p in stage["playoffs"]:
            for m in p["matches"]:
                m.pop("match_id")
            p.pop("match_ids")
    return {
        "event": view,
        "standings": table,
        "cross": grid,
        "rounds": made,
        "deals": deals,
        "stage": stage,
    }


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, str]]:
    """The examples and the events of :func:`build_events` in one SQLite database, and each
    event's JSON export (by name)."""
    from typer.testing import CliRunner

    from tally.cli import app

    base = tmp_path_factory.mktemp("source")
    url = f"sqlite:///{base / 'source.db'}"
    result = CliRunner().invoke(
        app, ["load", str(CLUB), str(ROBIN), str(SWISS), str(KNOCKOUT), "--db", url]
    )
    assert result.exit_code == 0, result.output
    build_events(url)
    files = {}
    for name in EVENTS:
        path = base / f"{name}.json"
        out = ok(url, "event", "export", name, "-o", str(path))
        assert out == f"Wrote {path}\n"
        files[name] = str(path)
    return url, files


#: The inner loop (-m "not slow") round-trips the events built here, one of every kind
#: (byes, withdrawals, late entries, play-offs, a deal being played); the whole suite the four
#: bundled examples too, larger events of the same kinds.
ROUND_TRIPS = [EVENTS[4:], pytest.param(EVENTS[:4], marks=pytest.mark.slow)]


@pytest.mark.parametrize("names", ROUND_TRIPS, ids=["built", "examples"])
def test_an_exported_event_loads_into_another_database_and_exports_the_same_bytes(
    source: tuple[str, dict[str, str]], db_url: str, tmp_path: Path, names: tuple[str, ...]
) -> None:
    url, every = source
    files = {name: every[name] for name in names}
    out = ok(db_url, "load", *files.values())
    kinds = ("round robin", "club evening", "Swiss event", "knockout", "groups")
    if names == EVENTS[4:]:
        assert all(f"Loaded {kind}" in out for kind in kinds), out
    else:
        assert all(f"Loaded {kind}" in out for kind in kinds[:4]), out
    for name, path in files.items():
        again = ok(db_url, "event", "export", name)
        assert again == Path(path).read_text(encoding="utf-8"), name
        assert picture(db_url, name) == picture(url, name), name


def test_the_round_trip_keeps_byes_withdrawals_aliases_and_the_deal_being_played(
    source: tuple[str, dict[str, str]], db_url: str
) -> None:
    url, files = source
    doc = strict_json(Path(files["Spring cup"]).read_text(encoding="utf-8"))
    assert doc["format"] == "tally-event" and doc["version"] == 1
    assert doc["withdrawals"] == [{"player": "Theo Vogel", "before_round": 3}]
    assert [r["round"] for r in doc["rounds"]] == [1, 2, 3]
    assert doc["rounds"][0]["bye"] is not None
    assert doc["players"][0] == {"name": "Olga Rainer", "aliases": ["Olgi"]}
    kinds = [[next(iter(d)) for d in m["deals"]] for m in doc["matches"]]
    assert ["record", "record", "result", "record"] == kinds[0][:4]
    [half] = [
        m for m in doc["matches"] if m["deals"] and "record" in m["deals"][-1] and m["round"] == 2
    ]
    assert half["deals"][-1]["record"].endswith("1. 10C AH\n")  # being played
    assert half["winner"] is None

    with open_store(url) as s:  # each record is what `tally deal export` writes
        spring = s.events.get("Spring cup").id
        exported = [
            s.deals.export(d.id) if d.kind == "recorded" else None
            for m in s.matches.all()
            if m.event_id == spring
            for d in s.matches.state(m.id).deals
        ]
    assert exported == [d.get("record") for m in doc["matches"] for d in m["deals"]]
    assert sum(x is not None for x in exported) == 4  # 3 in round 1, 1 being played
    ok(db_url, "load", files["Spring cup"], files["Friday club"])
    shown = strict_json(ok(db_url, "player", "show", "Olgi", "--json"))
    assert shown["name"] == "Olga Rainer"
    stand = strict_json(ok(db_url, "standings", "Friday club", "--json"))
    assert stand["withdrawn"] == ["Stefan Unger"]
    assert stand == strict_json(ok(url, "standings", "Friday club", "--json")) | {
        "event": stand["event"],
        "events": stand["events"],
    }
    # the half-played deal carries on in the new database
    spring = strict_json(ok(db_url, "event", "show", "Spring cup", "--json"))["id"]
    [match] = [
        m["id"]
        for m in strict_json(ok(db_url, "match", "list", "--json"))
        if m["event_id"] == spring and m["round"] == 2 and not m["over"]
    ]
    ok(db_url, "deal", "play", str(match), *lines(DRAW_DEAL)[1].split())
    shown = strict_json(ok(db_url, "match", "show", str(match), "--json"))
    assert shown["deals"][-1]["actions"] == 4 and shown["deals"][-1]["trick"] == 3


def test_a_load_of_an_event_kept_already_or_refused_midway_stores_nothing(
    source: tuple[str, dict[str, str]], db_url: str, tmp_path: Path
) -> None:
    _url, files = source
    doc = json.loads(Path(files["Spring cup"]).read_text(encoding="utf-8"))
    [half] = [m for m in doc["matches"] if m["round"] == 2 and m["winner"] is None]
    half["deals"][0]["result"]["points"] = 3  # no longer the file's score
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    ok(db_url, "player", "add", "Zoe")
    before = dump(db_url)
    code, _out, err = tally(db_url, "load", files["Friday club"], str(bad))
    assert code == 2
    assert err.startswith(f"tally: {bad}: matches[") and "Traceback" not in err
    assert dump(db_url) == before
    ok(db_url, "load", files["Friday club"])
    code, _out, err = tally(db_url, "load", files["Friday club"])
    assert code == 2 and 'an event named "Friday club" is loaded already' in err


def refusal(db_url: str, tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "event.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    ok(db_url, "init")
    before = dump(db_url)
    code, out, err = tally(db_url, "load", str(path))
    assert code == 2, out
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert dump(db_url) == before
    return err.strip().removeprefix(f"tally: {path}: ")


MINIMAL = {
    "format": "tally-event",
    "version": 1,
    "name": "Mini",
    "kind": "club",
    "players": ["Anna", "Bert"],
    "matches": [
        {
            "players": ["Anna", "Bert"],
            "first_dealer": "Anna",
            "deals": [{"result": {"winner": "Bert", "points": 3, "reason": "claim"}}] * 3,
        }
    ],
}


def variant(**changes: Any) -> str:
    return json.dumps(MINIMAL | changes)


@pytest.mark.parametrize(
    "text, message",
    [
        (variant(match_points_per_win=float("nan")), "not valid JSON: NaN is not a number"),
        ('{"format": "tally-event", "version": 1e999}', "not valid JSON: 1e999 is too large"),
        ('{"format": "tally-event", "format": "x"}', 'the key "format" is given twice'),
        ('{"format": "tally-event",', "not valid JSON: Expecting property name"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON: nested too deeply"),
        ('{"format": "tally-event", "version": ' + "9" * 5000 + "}", "not valid JSON: "),
        ("[1, 2]", "not a tally event file"),
        (variant(version=2), "written by a newer tally (event file version 2)"),
        (variant(version="1"), "version: must be 1"),
        (variant(kind="ladder"), 'kind: "ladder" is not a kind of event this tally loads'),
        (variant(kind="swiss"), "matches[0]: a match of a swiss event has a round and a table"),
        (
            variant(kind="knockout", matches=[], options={"lives": 0}),
            "options.lives: must be a whole number from 1 to 100",
        ),
        (
            variant(kind="groups", matches=[], options={"groups": 1, "advance": 1}),
            "with at least 2 going through",
        ),
        (variant(colour="red"), 'unknown key "colour"'),
        (variant(options={"double": True}), 'options: unknown key "double"'),
        (variant(date="19.11.2026"), 'date: must be a day, YYYY-MM-DD, not "19.11.2026"'),
        (variant(players=["Anna", "anna"]), 'players[1]: "anna" is listed twice'),
        (
            variant(matches=[{"players": ["Anna", "Carl"], "first_dealer": "Anna", "deals": []}]),
            'matches[0].players[1]: "Carl" is not one of the event\'s players',
        ),
        (
            variant(
                matches=[
                    {
                        "players": ["Anna", "Bert"],
                        "first_dealer": "Anna",
                        "deals": [{"result": {"winner": "Bert", "points": 9, "reason": "claim"}}],
                    }
                ]
            ),
            "matches[0].deals[0]: ",
        ),
        (
            variant(
                matches=[
                    {
                        "players": ["Anna", "Bert"],
                        "first_dealer": "Anna",
                        "deals": [{"record": '[Rules "sixty-six"]\n\n1. XX YY\n'}],
                    }
                ]
            ),
            "matches[0].deals[0]: ",
        ),
        (
            variant(
                matches=[
                    {
                        "players": ["Anna", "Bert"],
                        "first_dealer": "Anna",
                        "deals": [{"record": "x", "result": None}],
                    }
                ]
            ),
            'matches[0].deals[0]: a deal is {"record": ...} or {"result": ...}, one of the two',
        ),
        (
            variant(
                matches=[
                    {
                        "players": ["Anna", "Bert"],
                        "first_dealer": "Anna",
                        "deals": [],
                        "winner": "Anna",
                    }
                ]
            ),
            "matches[0].winner: the deals make nobody (not over) the winner",
        ),
        (
            variant(matches=[{"players": ["Anna", "Bert"], "first_dealer": "Carl", "deals": []}]),
            'matches[0].first_dealer: "Carl" does not play in this match',
        ),
        (
            variant(withdrawals=[{"player": "Anna", "before_round": 1}]),
            "withdrawals[0].before_round: round 1 is not among the rounds started",
        ),
        (
            '\ufeff{"format": "tally-event", "version": 1, "name": 5}'.encode() + b"\xff",
            "not UTF-8 text",
        ),
    ],
)
def test_a_bad_event_file_is_refused_with_one_line_naming_the_place(
    db_url: str, tmp_path: Path, text: str | bytes, message: str
) -> None:
    assert message in refusal(db_url, tmp_path, text)


def test_a_round_robin_file_must_follow_the_schedule(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl")
    ok(db_url, "event", "create", "Probe", "Anna", "Bert", "Carl", "--kind", "round-robin")
    pairing = strict_json(ok(db_url, "event", "round", "Probe", "1", "--json"))
    first = pairing["pairings"][0]
    match = {
        "round": 1,
        "table": 1,
        "players": [first["first"], first["second"]],
        "first_dealer": first["first_dealer"],
        "deals": [],
    }
    doc = {
        "format": "tally-event",
        "version": 1,
        "name": "RR",
        "kind": "round-robin",
        "players": ["Anna", "Bert", "Carl"],
        "rounds": [{"round": 1, "bye": pairing["bye"]}],
        "matches": [match | {"players": match["players"][::-1]}],
    }
    assert refusal(db_url, tmp_path, json.dumps(doc)).startswith(
        f"matches[0]: round 1 table 1 is {first['first']} against {first['second']}, "
        f"{first['first_dealer']} dealing first, by the schedule"
    )
    doc["rounds"] = [{"round": 1, "bye": first["first"]}]
    doc["matches"] = [match]
    assert "rounds[0].bye: the schedule gives round 1's bye to " in refusal(
        db_url, tmp_path, json.dumps(doc)
    )
    doc["rounds"] = [{"round": 1, "bye": pairing["bye"]}]
    doc["matches"] = []
    assert "rounds[0]: round 1: the schedule makes 1 match(es), the file lists 0" in refusal(
        db_url, tmp_path, json.dumps(doc)
    )
    doc["matches"] = [match]
    out = ok(db_url, "load", str(_write(tmp_path / "rr.json", doc)))
    assert "Loaded round robin" in out


def _write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_oversized_files_fifos_and_csv_are_refused_unread(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tally.files.importing as importing

    monkeypatch.setattr(importing, "MAX_JSON_BYTES", 100)
    assert "larger than 100 bytes" in refusal(db_url, tmp_path, variant())
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _out, err = tally(db_url, "load", str(fifo))
    assert code == 2 and "is a named pipe (FIFO); only regular files are read" in err
    sheet = tmp_path / "event.csv"
    sheet.write_text("match,round\n", encoding="utf-8")
    code, _out, err = tally(db_url, "load", str(sheet))
    assert code == 2 and "a CSV export is for spreadsheets and is not read back" in err
    code, _out, err = tally(db_url, "load", str(CLUB / "event.toml"))
    assert code == 2 and f"is loaded by its folder: tally load {CLUB}" in err


def test_a_hand_written_minimal_file_loads(db_url: str, tmp_path: Path) -> None:
    out = ok(db_url, "load", str(_write(tmp_path / "mini.json", MINIMAL)))
    assert "Loaded club evening" in out and "1 matches" in out
    stand = strict_json(ok(db_url, "standings", "Mini", "--json"))
    assert [r["player"] for r in stand["rows"]] == ["Bert", "Anna"]


def test_the_csv_export_is_a_row_per_deal_and_safe_in_a_spreadsheet(
    source: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    url, _files = source
    text = ok(url, "event", "export", "Friday club", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == [
        "match",
        "round",
        "table",
        "player_1",
        "player_2",
        "first_dealer",
        "deal",
        "dealer",
        "entered",
        "winner",
        "points",
        "reason",
        "game_points",
        "carry",
        "score_1",
        "score_2",
        "match_winner",
    ]
    assert rows[0]["entered"] == "record" and rows[1]["entered"] == "result"
    assert rows[0]["match_winner"] == "Olga Rainer" and rows[0]["round"] == ""
    last = rows[-1]
    assert (last["player_2"], last["first_dealer"]) == ("'=HYPERLINK(1)", "'=HYPERLINK(1)")
    assert (last["winner"], last["reason"], last["points"]) == ("", "draw", "0")
    assert [r["match"] for r in rows].count("2") == 1 and rows[-1]["match"] == "3"
    path = tmp_path / "friday.csv"
    assert (
        ok(url, "event", "export", "Friday club", "--format", "csv", "-o", str(path))
        == f"Wrote {path}\n"
    )
    assert path.read_text(encoding="utf-8") == text


def test_the_folder_export_loads_back_where_the_folder_format_can_hold_the_event(
    source: tuple[str, dict[str, str]], db_url: str, tmp_path: Path
) -> None:
    url, files = source
    folder = tmp_path / "thursday"
    out = ok(
        url, "event", "export", "Thursday Club Evening", "--format", "folder", "-o", str(folder)
    )
    assert out == f"Wrote {folder}: event.toml and 17 records.\n"
    ok(db_url, "load", str(folder))
    assert ok(db_url, "event", "export", "Thursday Club Evening") == Path(
        files["Thursday Club Evening"]
    ).read_text(encoding="utf-8")
    code, _out, err = tally(
        url, "event", "export", "Spring cup", "--format", "folder", "-o", str(tmp_path / "spring")
    )
    assert code == 2 and "cannot be written as a folder (players withdrew from it)" in err
    code, _out, err = tally(
        url, "event", "export", "Thursday Club Evening", "--format", "folder", "-o", str(folder)
    )
    assert code == 2 and "holds an event.toml already" in err
    code, _out, err = tally(url, "event", "export", "1", "--format", "xml")
    assert code == 2 and "--format must be json, csv, folder or trf" in err


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (keys and list indexes from the top)."""
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*here, i))
    return out


def test_a_mangled_event_file_loads_or_is_refused_cleanly_never_a_traceback(
    source: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    """100 copies of an exported round robin, each with one value replaced by another of any
    JSON type (or removed): each loads, or is refused with a LoadError (one line), and a
    refused one stores nothing."""
    import random

    from tally.errors import TallyError
    from tally.files.importing import load_paths

    _url, files = source
    original = json.loads(Path(files["Spring cup"]).read_text(encoding="utf-8"))
    places = [p for p in _paths(original) if p and p[0] != "name"]
    odd: list[Any] = [
        None,
        True,
        0,
        -1,
        7,
        10**30,
        2.5,
        "",
        "x",
        "Olga Rainer",
        [],
        {},
        ["Olga Rainer"],
        {"record": "x"},
        "round-robin",
        "\u0000",
        "2026-02-30",
    ]
    rng = random.Random(11)
    url = f"sqlite:///{tmp_path / 'fuzz.db'}"
    path = tmp_path / "fuzz.json"
    loaded = refused = 0
    with open_store(url, scorer="fuzz") as s:
        for n in range(100):
            doc = json.loads(json.dumps(original))
            doc["name"] = f"Fuzz {n}"
            place = rng.choice(places)
            *parent, last = place
            holder = doc
            for key in parent:
                holder = holder[key]
            if rng.random() < 0.15 and isinstance(holder, dict):
                del holder[last]
            else:
                holder[last] = rng.choice(odd)
            path.write_text(json.dumps(doc), encoding="utf-8")
            count = len(s.audit.log())
            try:
                load_paths(s, [path])
                loaded += 1
            except TallyError as exc:
                assert "\n" not in str(exc) and str(exc).startswith(str(path)), exc
                assert len(s.audit.log()) == count
                refused += 1
    assert loaded >= 1 and refused >= 50, (loaded, refused)


def test_the_new_kinds_carry_their_options_play_offs_and_withdrawals(
    source: tuple[str, dict[str, str]],
) -> None:
    _url, files = source
    knock = strict_json(Path(files["Preisschnapsen 2026"]).read_text(encoding="utf-8"))
    assert knock["options"] == {"lives": 3, "seed": "2026", "final": 4, "final_fill": "playoff"}
    assert all(m["playoff"] is False for m in knock["matches"])
    swiss = strict_json(Path(files["Winter Swiss Open 2026"]).read_text(encoding="utf-8"))
    assert swiss["options"] == {"rounds": 5, "matches_per_pairing": 1}
    assert [r["round"] for r in swiss["rounds"]] == [1, 2, 3, 4, 5]
    assert all(r["bye"] for r in swiss["rounds"]) and "playoff" not in swiss["matches"][0]
    groups = strict_json(Path(files["Summer groups"]).read_text(encoding="utf-8"))
    assert groups["options"] == {"groups": 2, "advance": 2}
    assert groups["rank_by"] == "percentage"
    [playoff] = [i for i, m in enumerate(groups["matches"]) if m["playoff"]]
    assert groups["matches"][playoff]["round"] is None
    assert [m["round"] for m in groups["matches"][playoff - 1 : playoff + 2]] == [3, None, 4]
    gone = groups["withdrawals"]
    assert gone[0] == {"player": "Lena Ebner", "before_round": 2}
    assert [w["before_round"] for w in gone] == [2, 5]
    for name, late in (("Late Swiss", "Yvonne Eder"), ("Late knockout", "Zenzi Frank")):
        doc = strict_json(Path(files[name]).read_text(encoding="utf-8"))
        assert [p.get("joined_after_round") for p in doc["players"]] == [None] * 4 + [1]
        assert doc["players"][-1]["name"] == late
        assert doc["players"][-1]["categories"] == ["Damen"]
        assert (
            any(late in m["players"] for m in doc["matches"] if m["round"] == 2)
            or doc["rounds"][1]["bye"] == late
        )
    knock = strict_json(Path(files["Late knockout"]).read_text(encoding="utf-8"))
    assert knock["players"][0]["categories"] == ["club members", "Jugend U18"]
    assert knock["prizes"]["category_prizes"] == ["Damen=10,5", "Jugend U18=20 €;7.50 €"]


def _changed(path: str, tmp_path: Path, change: Any) -> str:
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    change(doc)
    return str(_write(tmp_path / "changed.json", doc))


@pytest.mark.parametrize(
    "name, change, message",
    [
        (
            "Winter Swiss Open 2026",
            lambda d: d["matches"][5].update(players=d["matches"][5]["players"][::-1]),
            "matches[5]: round 2 table 2 is ",
        ),
        (
            "Winter Swiss Open 2026",
            lambda d: d["rounds"][0].update(bye="Otto Brunner"),
            "rounds[0].bye: the Swiss pairing gives round 1's bye to ",
        ),
        ("Late knockout", lambda d: d["players"][-1].pop("joined_after_round"), "round 1"),
        (
            "Late Swiss",
            lambda d: d["players"].insert(0, d["players"].pop()),
            "players[1]: the players are listed in the order they joined (seed order)",
        ),
        ("Preisschnapsen 2026", lambda d: d["options"].update(seed="2027"), "by the draw"),
        (
            "Summer groups",
            lambda d: d["withdrawals"].pop(0),
            "rounds[2]: round 3: the draw makes 3 match(es), the file lists 2",
        ),
        (
            "Summer groups",
            lambda d: [
                m.update(
                    players=["Hans Auer", "Lena Ebner"],
                    deals=[],
                    first_dealer="Hans Auer",
                    score=None,
                    winner=None,
                )
                for m in d["matches"]
                if m["playoff"]
            ],
            "Hans Auer and Lena Ebner do not share a rank: a play-off decides a tie only",
        ),
    ],
)
def test_a_file_that_is_not_what_tally_pairs_or_draws_is_refused_with_one_line(
    source: tuple[str, dict[str, str]], tmp_path: Path, name: str, change: Any, message: str
) -> None:
    """Each changed file is refused at the place it stops matching, storing nothing."""
    _url, files = source
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    path = _changed(files[name], tmp_path, change)
    code, _out, err = tally(url, "load", path)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"tally: {path}: ") and message in err, err
    assert not (tmp_path / "fresh.db").exists()  # nothing stored: no new database either


def test_the_csv_of_a_knockout_is_a_row_per_deal_play_offs_without_a_round(
    source: tuple[str, dict[str, str]],
) -> None:
    url, files = source
    for name in ("Preisschnapsen 2026", "Summer groups", "Winter Swiss Open 2026"):
        doc = strict_json(Path(files[name]).read_text(encoding="utf-8"))
        rows = list(
            csv.DictReader(io.StringIO(ok(url, "event", "export", name, "--format", "csv")))
        )
        assert len(rows) == sum(max(1, len(m["deals"])) for m in doc["matches"]), name
    groups = list(
        csv.DictReader(io.StringIO(ok(url, "event", "export", "Summer groups", "--format", "csv")))
    )
    assert any(r["round"] == "" and r["match_winner"] for r in groups)  # the play-off
    code, _out, err = tally(
        url,
        "event",
        "export",
        "Preisschnapsen 2026",
        "--format",
        "folder",
        "-o",
        str(Path(files["Summer groups"]).parent / "k"),
    )
    assert code == 2 and "export it as JSON" in err


def test_an_event_s_language_goes_with_its_file(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "event", "create", "Stammtisch", "Anna", "Bert", "--lang", "de")
    exported = ok(db_url, "event", "export", "Stammtisch")
    assert strict_json(exported)["language"] == "de"
    path = tmp_path / "stammtisch.json"
    path.write_text(exported, encoding="utf-8")
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(other, "load", str(path))
    assert strict_json(ok(other, "event", "show", "Stammtisch", "--json"))["language"] == "de"
    assert ok(other, "event", "export", "Stammtisch") == exported
