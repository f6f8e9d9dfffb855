"""Every file tally reads or writes is handled safely (issue 13): hostile event folders, option
values and exports, each refused with one line naming the file and exit status 2, the database
holding exactly what it held before.
"""

from __future__ import annotations

import csv
import io
import os
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from tally.files.loading import MAX_FILE_BYTES
from tests.json_support import strict_json
from tests.store_support import dump, ok, refused, tally

PLAYERS = ["Anna Berger", "Bert Huber"]
#: results that end a Sixty-Six match (to 7): Anna Berger wins it
WON = 'results = ["Anna Berger 3 claim", "Anna Berger 3 claim", "Anna Berger 1 claim"]'
RECORD = """[Rules "sixty-six"]
[Dealer "Anna Berger"]
[Forehand "Bert Huber"]
[Trump "QH"]

1. KS AS
"""


def event_folder(
    base: Path,
    *,
    name: str = "Club night",
    players: list[str] | None = None,
    extra: str = "",
    match: str = "",
    folder: str = "ev",
) -> Path:
    """An event folder with event.toml: a club evening of ``players`` and ``match`` lines in
    one [[matches]] table (none when empty)."""
    out = base / folder
    (out / "deals").mkdir(parents=True, exist_ok=True)
    players = PLAYERS if players is None else players
    quoted = ", ".join(f'"{p}"' for p in players)
    text = (
        f'name = "{name}"\nkind = "club-evening"\ndate = "2026-11-19"\n'
        f"players = [{quoted}]\n{extra}\n"
    )
    if match:
        text += (
            f'[[matches]]\nplayers = ["{PLAYERS[0]}", "{PLAYERS[1]}"]\n'
            f'first_dealer = "{PLAYERS[0]}"\n{match}\n'
        )
    (out / "event.toml").write_text(text, encoding="utf-8")
    return out


@pytest.fixture
def url(db_url: str) -> str:
    """A database with something in it already (a player), so 'as it was' means something."""
    ok(db_url, "player", "add", "Zoe Early")
    return db_url


class Timeout(Exception):
    pass


def _alarm(_signum: int, _frame: FrameType | None) -> None:
    raise Timeout("tally blocked")


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail (instead of hanging the suite) if the test blocks for more than 20 seconds."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ------------------------------------------------------------------------------ --fresh


def test_fresh_refuses_to_replace_a_file_that_is_not_a_tally_database(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    folder = event_folder(tmp_path)
    code, _, err = tally("unused", "load", str(folder), "--fresh", "--db", str(notes))
    assert code == 2
    assert err.startswith("tally: --fresh: ") and "notes.txt is not a tally database" in err
    assert len(err.strip().splitlines()) == 1
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ev", "notes.txt"]


def test_fresh_refuses_another_programs_sqlite_file_a_folder_and_a_symlink(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE mine (x)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    (tmp_path / "adir").mkdir()
    (tmp_path / "link.db").symlink_to(other)
    folder = event_folder(tmp_path)
    for target, message in (
        (other, "is not a tally database"),
        (tmp_path / "adir", "is not a regular file"),
        (tmp_path / "link.db", "is a symbolic link"),
    ):
        code, _, err = tally("unused", "load", str(folder), "--fresh", "--db", str(target))
        assert code == 2 and message in err, err
    assert other.read_bytes() == before and (tmp_path / "adir").is_dir()
    assert (tmp_path / "link.db").is_symlink()


def test_fresh_says_it_replaces_a_tally_database_before_it_does(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    ok(str(db), "player", "add", "Old Player")
    folder = event_folder(tmp_path)
    code, out, err = tally("unused", "load", str(folder), "--fresh", "--db", str(db))
    assert code == 0, err
    assert out.index("--fresh: the tally database") < out.index("Loaded club evening")
    players = strict_json(ok(str(db), "player", "list", "--json"))
    assert [p["name"] for p in players] == PLAYERS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.db", "ev"]


def test_fresh_load_that_is_refused_keeps_the_old_database(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    ok(str(db), "player", "add", "Old Player")
    before = dump(f"sqlite:///{db}")
    folder = event_folder(tmp_path, players=["Zed Partial", "Bad;Name"])
    code, _, err = tally("unused", "load", str(folder), "--fresh", "--db", str(db))
    assert code == 2 and "Bad;Name" in err
    assert dump(f"sqlite:///{db}") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.db", "ev"]


# ------------------------------------------------------------------------------ one transaction


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": ["Zed Partial", "Bad;Name"]}, "a name cannot contain ';'"),
        ({"players": ["Zed Partial", "N" * 61]}, "a name has at most 60 characters"),
        (
            {"players": ["Zed Partial", "Yva Partial"], "name": "E" * 200},
            "an event name has at most 100 characters",
        ),
    ],
)
def test_refused_folder_leaves_the_database_as_it_was(
    url: str, tmp_path: Path, kwargs: dict[str, object], message: str
) -> None:
    folder = event_folder(tmp_path, **kwargs)  # type: ignore[arg-type]
    err = refused(url, "load", str(folder), match=message)
    assert "event.toml" in err and len(err.strip().splitlines()) == 1
    names = [p["name"] for p in strict_json(ok(url, "player", "list", "--json"))]
    assert names == ["Zoe Early"]


def test_two_folders_are_loaded_both_or_neither(url: str, tmp_path: Path) -> None:
    good = event_folder(tmp_path, folder="good", match='results = ["Anna Berger 3 claim"]')
    bad = event_folder(tmp_path, folder="bad", name="Second", match='results = ["Nobody 3 x"]')
    refused(url, "load", str(good), str(bad), match="bad/event.toml, match 1")
    out = ok(url, "load", str(good))  # (PostgreSQL does not give back a sequence's numbers)
    assert "Loaded club evening" in out and '"Club night"' in out
    assert [e["name"] for e in strict_json(ok(url, "event", "list", "--json"))] == ["Club night"]


def test_load_writes_its_audit_entries_in_its_transaction(url: str, tmp_path: Path) -> None:
    folder = event_folder(tmp_path, match='results = ["Anna Berger 3 claim"]')
    ok(url, "load", str(folder))
    commands = [e["command"] for e in strict_json(ok(url, "audit", "--json"))]
    assert commands == [
        "player add",
        "tally load: player add",
        "tally load: player add",
        "tally load: event create",
        "tally load: match start",
        "tally load: deal quick",
    ]


def test_store_transaction_commits_once_or_not_at_all(db_url: str) -> None:
    from tally.errors import Refused
    from tally.store import open_store

    with open_store(db_url, scorer="tester") as store:
        before = dump(db_url)
        with pytest.raises(Refused), store.transaction("batch"):
            store.players.add("Anna")
            store.events.create("Night", players=["Anna"])
            assert [p.name for p in store.players.all()] == ["Anna"]  # seen inside
            store.players.add("anna")  # a duplicate: the whole batch goes
        assert dump(db_url) == before
        with store.transaction("batch") as tx:
            store.players.add("Anna")
            store.events.create("Night", players=["Anna"])
        assert tx.audited == 2
        assert [e.command for e in store.audit.log()] == [
            "batch: player add",
            "batch: event create",
        ]
        store.players.add("Bert")  # outside a transaction: commits on its own again
        assert [e.command for e in store.audit.log()][-1] == "player add"


# ------------------------------------------------------------------------------ hostile files


def test_fifo_record_is_refused_without_blocking(url: str, tmp_path: Path, deadline: None) -> None:
    folder = event_folder(tmp_path, match='records = ["deals/pipe.deal"]')
    os.mkfifo(folder / "deals" / "pipe.deal")
    refused(
        url,
        "load",
        str(folder),
        match="pipe.deal: is a named pipe (FIFO); only regular files are read",
    )


def test_fifo_event_file_is_refused_without_blocking(
    url: str, tmp_path: Path, deadline: None
) -> None:
    folder = tmp_path / "ev"
    folder.mkdir()
    os.mkfifo(folder / "event.toml")
    refused(url, "load", str(folder), match="event.toml: is a named pipe (FIFO)")


def test_device_and_folder_named_as_files_are_refused(
    url: str, tmp_path: Path, deadline: None
) -> None:
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "event.toml").symlink_to("/dev/zero")
    refused(url, "load", str(dev), match="event.toml: is a device")
    folder = event_folder(tmp_path, match='records = ["deals/adir.deal"]')
    (folder / "deals" / "adir.deal").mkdir()
    refused(url, "load", str(folder), match="adir.deal: is a folder, not a file")


@pytest.mark.parametrize("nested", ["x = " + "[" * 100_000, "x = " + "{a=" * 50_000])
def test_deeply_nested_toml_is_refused_in_one_line(url: str, tmp_path: Path, nested: str) -> None:
    folder = tmp_path / "ev"
    folder.mkdir()
    (folder / "event.toml").write_text(nested, encoding="utf-8")
    err = refused(url, "load", str(folder), match="event.toml: not valid TOML")
    assert len(err.strip().splitlines()) == 1 and len(err) < 300


@pytest.mark.parametrize(
    "result",
    [
        "Anna Berger \u00b2 claim",
        "Anna Berger " + "9" * 5000 + " claim",
        "Anna Berger \u0663 claim",
    ],
)
def test_a_result_that_is_not_plain_digits_is_refused(
    url: str, tmp_path: Path, result: str
) -> None:
    folder = event_folder(tmp_path, match=f'results = ["{result}"]')
    err = refused(url, "load", str(folder), match='a result is "Winner N reason"')
    assert "event.toml, match 1" in err and len(err) < 300


@pytest.mark.parametrize("which", ["record", "event"])
def test_oversized_file_is_refused_before_it_is_read(url: str, tmp_path: Path, which: str) -> None:
    folder = event_folder(tmp_path, match='records = ["deals/big.deal"]')
    big = folder / "deals" / "big.deal" if which == "record" else folder / "event.toml"
    with open(big, "ab") as f:
        f.truncate(100 * 1024 * 1024)  # 100 MB, sparse: nothing to read in it
    start = time.perf_counter()
    refused(url, "load", str(folder), match=f"larger than {MAX_FILE_BYTES:,} bytes")
    assert time.perf_counter() - start < 5


def test_a_file_growing_past_the_limit_is_not_read_beyond_it(tmp_path: Path) -> None:
    from tally.errors import LoadError
    from tally.files.loading import read_text_file

    path = tmp_path / "r.deal"
    path.write_text("x" * 101, encoding="utf-8")
    with pytest.raises(LoadError, match="larger than 100 bytes"):
        read_text_file(path, limit=100)
    path.write_bytes(b"\xef\xbb\xbf" + RECORD.encode())
    assert read_text_file(path) == RECORD  # a byte-order mark is skipped
    path.write_bytes("Zo\u00eb".encode("latin-1"))
    with pytest.raises(LoadError, match="not UTF-8 text"):
        read_text_file(path)


# ------------------------------------------------------------------------------ options, JSON, CSV


@pytest.mark.parametrize("value", ["1e308", "nan", "inf", "-inf", "-1", "101"])
def test_points_per_win_must_be_finite_and_sensible(url: str, tmp_path: Path, value: str) -> None:
    refused(
        url,
        "event",
        "create",
        "Night",
        "Zoe Early",
        "--points-per-win",
        value,
        match="match points per win must be a number from 0 to 100",
    )
    refused(
        url,
        "standings",
        "--season",
        "--points-per-win",
        value,
        match="match points per win must be a number from 0 to 100",
    )
    toml_value = {
        "1e308": "1e308",
        "nan": "nan",
        "inf": "inf",
        "-inf": "-inf",
        "-1": "-1",
        "101": "101",
    }[value]
    folder = event_folder(tmp_path, extra=f"match_points_per_win = {toml_value}")
    refused(url, "load", str(folder), match="match points per win must be a number from 0")


def test_standings_json_is_strict_json(url: str, tmp_path: Path) -> None:
    folder = event_folder(tmp_path, extra="match_points_per_win = 2.5", match=WON)
    ok(url, "load", str(folder))
    data = strict_json(ok(url, "standings", "1", "--json"))
    assert {r["player"]: r["match_points"] for r in data["rows"]} == {
        "Anna Berger": 2.5,
        "Bert Huber": 0,
    }
    season = strict_json(ok(url, "standings", "--season", "--points-per-win", "100", "--json"))
    assert max(r["match_points"] for r in season["rows"]) == 100


def test_strict_json_helper_refuses_what_is_not_json() -> None:
    for text in ("NaN", '{"a": Infinity}', "[-Infinity]"):
        with pytest.raises(ValueError, match="is not JSON"):
            strict_json(text)


def test_standings_csv_neutralises_formula_cells(url: str, tmp_path: Path) -> None:
    players = ["=HYPERLINK(evil)", "+Plus Sign", "-Minus Sign"]
    folder = tmp_path / "ev"
    folder.mkdir()
    quoted = ", ".join(f'"{p}"' for p in players)
    (folder / "event.toml").write_text(
        f'name = "=Evil night"\nkind = "club-evening"\nplayers = [{quoted}]\n'
        f'[[matches]]\nplayers = ["{players[0]}", "{players[1]}"]\n'
        f'first_dealer = "{players[0]}"\n'
        f'results = ["{players[0]} 3 claim", "{players[0]} 3 claim", "{players[0]} 1 claim"]\n',
        encoding="utf-8",
    )
    ok(url, "load", str(folder))
    rows = list(csv.DictReader(io.StringIO(ok(url, "standings", "1", "--csv"))))
    by_player = {r["player"]: r for r in rows}
    assert set(by_player) == {"'=HYPERLINK(evil)", "'+Plus Sign", "'-Minus Sign"}
    loser = by_player["'+Plus Sign"]
    assert int(loser["game_point_difference"]) == -7  # a number stays a number
    assert int(by_player["'=HYPERLINK(evil)"]["game_point_difference"]) == 7
    for row in rows:
        for cell in row.values():
            assert (cell or "x")[0] not in "=+@\t\r" or cell in ("+", "-"), cell
            assert not cell.startswith("-") or cell.lstrip("-").isdigit(), cell
    cross = list(csv.reader(io.StringIO(ok(url, "event", "cross", "1", "--csv"))))
    assert cross[1][1] == "'=HYPERLINK(evil)"


def test_spreadsheet_safe_quotes_text_that_starts_a_formula() -> None:
    from tally.cli.tables import spreadsheet_safe

    assert [
        spreadsheet_safe(t)
        for t in ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "Anna", "7:3", "+", "-")
    ] == ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", "'\rx", "Anna", "7:3", "+", "-"]


# ------------------------------------------------------------------------------ fuzz

HOSTILE_VALUES = [
    '"x"',
    '""',
    '"Anna Berger"',
    '"Bert Huber"',
    "1",
    "0",
    "-1",
    "2",
    "1e308",
    "nan",
    "-inf",
    "9" * 25,
    "true",
    "[]",
    "[[]]",
    '["Anna Berger"]',
    '["Anna Berger", "Anna Berger"]',
    "{a = 1}",
    '"\\u0000"',
    '"\\u00b2"',
    '"' + "N" * 300 + '"',
    "2026-01-01T10:00:00",
    "2026-02-30",
    '"2026-13-01"',
    '"round-robin"',
    '"club"',
    '"../x.deal"',
    '"deals"',
    '"Anna Berger 3 claim"',
    '"Anna Berger \\u0663 claim"',
    '"draw"',
    '"=HYPERLINK(1)"',
    '["deals/d.deal"]',
]
SLOTS = (
    "name",
    "kind",
    "date",
    "rules",
    "players",
    "match_points_per_win",
    "bye",
    "tiebreaks",
    "round",
    "table",
    "mplayers",
    "first_dealer",
    "records",
    "results",
)


def test_hostile_event_files_are_refused_cleanly_or_loaded(tmp_path: Path) -> None:
    """Event files with any slot given a hostile value: loaded, or refused with a TallyError
    and nothing stored; never another exception."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tally.errors import TallyError
    from tally.files.loading import load_events
    from tally.store import open_store

    url = f"sqlite:///{tmp_path / 'fuzz.db'}"
    folder = tmp_path / "ev"
    (folder / "deals").mkdir(parents=True)
    (folder / "deals" / "d.deal").write_text(RECORD, encoding="utf-8")
    good = {
        "name": '"Fuzz night"',
        "kind": '"club-evening"',
        "date": "2026-11-19",
        "rules": '"sixty-six"',
        "players": '["Anna Berger", "Bert Huber"]',
        "match_points_per_win": "1",
        "bye": '"none"',
        "tiebreaks": '["wins"]',
        "round": "1",
        "table": "1",
        "mplayers": '["Anna Berger", "Bert Huber"]',
        "first_dealer": '"Anna Berger"',
        "records": "[]",
        "results": '["Anna Berger 3 claim"]',
    }
    store = open_store(url, scorer="fuzz")
    count = {"loaded": 0}

    @settings(
        max_examples=int(os.environ.get("TALLY_FUZZ_EXAMPLES", "60")),
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        st.dictionaries(
            st.sampled_from(SLOTS), st.sampled_from(HOSTILE_VALUES), min_size=1, max_size=4
        )
    )
    def check(changes: dict[str, str]) -> None:
        count["tried"] = count.get("tried", 0) + 1
        v = {**good, "name": f'"Fuzz night {count["tried"]}"', **changes}
        text = "".join(
            f"{k} = {v[k]}\n"
            for k in (
                "name",
                "kind",
                "date",
                "rules",
                "players",
                "match_points_per_win",
                "bye",
                "tiebreaks",
            )
        )
        text += (
            f"[[matches]]\nround = {v['round']}\ntable = {v['table']}\n"
            f"players = {v['mplayers']}\nfirst_dealer = {v['first_dealer']}\n"
            f"records = {v['records']}\nresults = {v['results']}\n"
        )
        (folder / "event.toml").write_text(text, encoding="utf-8")
        before = dump(url)
        try:
            load_events(store, [folder])
        except TallyError as exc:
            assert "\n" not in str(exc).strip()
            assert dump(url) == before
        else:
            count["loaded"] += 1

    try:
        check()
    finally:
        store.close()
    assert count["loaded"] > 0  # the unchanged slots make a file that loads
