"""The plain path of ``tally deal play`` (tally/cli/quickplay.py, tally/store/plays.py over a
DB-API connection): it says, exits and stores exactly what the Typer app and the SQLAlchemy
store do, on SQLite and on PostgreSQL; it hands everything else to the Typer app; and two
scorers' processes on one deal still take turns."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tally.cli import run
from tally.cli.quickplay import PlainPlay, plain_play, run_plain_play
from tests.store_support import (  # noqa: F401
    DEALER_CLAIMS,
    LATE_REVOKE,
    PG_ENV,
    ROOT,
    db_url,
    dump,
    lines,
    ok,
    pg_schema_url,
)

CLOCK = datetime(2026, 11, 24, 8, 44, 3, 123456, tzinfo=UTC)


@pytest.fixture
def other_url(db_url: str, tmp_path: Path) -> Iterator[str]:
    """A second empty database of the same kind as ``db_url``."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'other.db'}"
        return
    from sqlalchemy import create_engine

    engine = create_engine(os.environ[PG_ENV])
    schema = "tally_test_" + uuid.uuid4().hex[:12]
    with engine.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    try:
        yield pg_schema_url(os.environ[PG_ENV], schema)
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        engine.dispose()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every time stamp the store writes is :data:`CLOCK` (two databases can then be equal)."""
    import tally.store.store  # noqa: F401  (loads every module of the store)

    class AnyDatetime(type):
        def __instancecheck__(cls, obj: object) -> bool:
            return isinstance(obj, datetime)

    class Frozen(datetime, metaclass=AnyDatetime):
        """``datetime`` whose ``now`` is :data:`CLOCK` (a stored one still counts as one)."""

        @classmethod
        def now(cls, tz: Any = None) -> Frozen:
            return cls.fromisoformat(CLOCK.isoformat())

    for name, module in list(sys.modules.items()):
        if name.startswith("tally.store.") and hasattr(module, "utc_now"):
            monkeypatch.setattr(module, "utc_now", lambda: CLOCK)
        if name.startswith("tally.store.") and getattr(module, "datetime", None) is datetime:
            monkeypatch.setattr(module, "datetime", Frozen)


def _both(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, plain: str,
          regular: str, args: list[str], db: bool = False) -> tuple[int, str, str]:
    """``tally deal play ARGS`` on the plain path on ``plain`` and through Typer and the
    SQLAlchemy store on ``regular`` (named by ``--db`` when ``db``, else by ``$TALLY_DB``):
    the same status, stdout and stderr, which are returned."""
    monkeypatch.setenv("TALLY_DB", "sqlite:///no-such-folder/x.db" if db else plain)
    fast = run_plain_play([*args, "--db", plain] if db else args)
    assert fast is not None, f"the plain path declined {args}"
    fast_out = capsys.readouterr()
    monkeypatch.setenv("TALLY_DB", "sqlite:///no-such-folder/x.db" if db else regular)
    slow = run(["deal", "play", *args, *(["--db", regular] if db else [])], fast=False)
    slow_out = capsys.readouterr()
    assert (fast, fast_out.out, fast_out.err) == (slow, slow_out.out, slow_out.err), args
    return fast, fast_out.out, fast_out.err


def _setup(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
           url: str, *commands: list[str]) -> None:
    monkeypatch.setenv("TALLY_DB", url)
    for command in commands:
        assert run(command, fast=False) == 0, capsys.readouterr()
    capsys.readouterr()


def test_both_paths_say_and_store_the_same(db_url: str, other_url: str, clock: None,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TALLY_SCORER", "tester")
    setup = [["player", "add", "Anna", "Bert"], ["player", "alias", "Bert", "Bertie"],
             ["match", "start", "Anna", "Bert", "--dealer", "Anna"]]
    for url in (db_url, other_url):
        _setup(monkeypatch, capsys, url, *setup)
    statuses = [_both(capsys, monkeypatch, db_url, other_url, ["1", "KS"])[0]]  # no deal yet
    for url in (db_url, other_url):
        _setup(monkeypatch, capsys, url, ["deal", "start", "1", LATE_REVOKE[0]])
    position = "1.1:0"
    for n, word in enumerate(" ".join(lines(LATE_REVOKE)).split()):
        args = ["1", word, *[["--referee"], ["--at", position], [f"--at={position}"],
                             ["--scorer", "Zoe"], []][n % 5]]
        status, out, err = _both(capsys, monkeypatch, db_url, other_url, args, db=n % 3 == 0)
        if status == 2:  # a violation: refused, then recorded as played
            assert "If it happened at the table, record it with --as-played." in err
            status, out, _ = _both(capsys, monkeypatch, db_url, other_url,
                                   [*args, "--as-played"])
        statuses.append(status)
        position = out.splitlines()[-1].removeprefix("Position: ")
    statuses.append(_both(capsys, monkeypatch, db_url, other_url,
                          ["1", "AS", "--at", "1.1:0"])[0])  # moved on since: refused
    statuses.append(_both(capsys, monkeypatch, db_url, other_url, ["7", "KS"])[0])  # no match
    for url in (db_url, other_url):
        _setup(monkeypatch, capsys, url, ["deal", "start", "1", DEALER_CLAIMS[0]])
    for line in lines(DEALER_CLAIMS):
        words = line.replace("66", "66@bertie").split()
        statuses.append(_both(capsys, monkeypatch, db_url, other_url, ["1", *words])[0])
    assert statuses.count(0) >= 12 and 2 in statuses
    assert dump(db_url) == dump(other_url)


def test_time_stamps_are_written_and_read_as_sqlalchemy_does(db_url: str) -> None:
    """:meth:`Db.bind_time` and :func:`read_time` against SQLAlchemy's own processing of
    tally's ``UTCDateTime`` columns, on the database's dialect."""
    from sqlalchemy import text

    from tally.store import tables as t
    from tally.store.dbapi import Db, read_time
    from tally.store.engine import make_engine

    engine = make_engine(db_url)
    column = t.audit_log.c.at.type
    try:
        with engine.begin() as conn:
            dialect = conn.dialect
            db = Db.of(conn)
            for at in (CLOCK, datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
                       datetime(2026, 6, 1, 23, 59, 59, 999999).astimezone()):
                bound = column.process_bind_param(at, dialect)
                impl = column.dialect_impl(dialect)
                processor = impl.impl.bind_processor(dialect)  # type: ignore[attr-defined]
                assert db.bind_time(at) == (processor(bound) if processor else bound)
                stored = conn.execute(text("SELECT :x"), {"x": db.bind_time(at)}).scalar()
                assert read_time(stored) == at
                assert read_time(stored) == column.process_result_value(
                    at.astimezone(UTC).replace(tzinfo=None), dialect)
    finally:
        engine.dispose()


@pytest.mark.parametrize(("args", "parsed"), [
    (["1", "KS"], PlainPlay(1, ["KS"])),
    (["--as-played", "2", "20", "QC", "--referee"], PlainPlay(2, ["20", "QC"], True, True)),
    (["1", "KS", "--expect", "1.1:0", "--db=x.db", "--scorer", "Jo"],
     PlainPlay(1, ["KS"], at="1.1:0", db="x.db", scorer="Jo")),
])
def test_the_plain_grammar_of_deal_play(args: list[str], parsed: PlainPlay) -> None:
    assert plain_play(args) == parsed


@pytest.mark.parametrize("args", [
    [], ["1"], ["--help"], ["1", "KS", "--help"], ["1", "--", "KS"], ["1", "KS", "--deal", "3"],
    ["1", "KS", "--at"], ["1", "KS", "--at", "--referee"], ["1", "KS", "--referee", "--referee"],
    ["1", "KS", "--at", "1.1:0", "--expect", "1.1:0"], ["1", "KS", "--as-played=1"],
    ["1", "KS", "-x"], ["x", "KS"], ["１", "KS"], ["1" * 19, "KS"], ["1", "K\x00S"],
    ["1", "K\udce9"], ["1", "KS", "--db", "a\x00"], ["1", "KS", "--as-playd"],
])
def test_anything_else_goes_to_the_typer_app(args: list[str]) -> None:
    assert plain_play(args) is None


def test_what_the_plain_connection_does_not_handle_goes_to_the_regular_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A database still to be created, a URL with options, another driver: the plain path
    stores nothing and says nothing; the regular path then answers (here: no match)."""
    for url in (f"sqlite:///{tmp_path / 'new.db'}", f"sqlite:///{tmp_path / 'x.db'}?mode=ro",
                "mysql://u@h/db", "sqlite://", f"sqlite:///{tmp_path}"):
        monkeypatch.setenv("TALLY_DB", url)
        assert run_plain_play(["1", "KS"]) is None
        assert capsys.readouterr() == ("", "")
    monkeypatch.setenv("TALLY_DB", f"sqlite:///{tmp_path / 'new.db'}")
    assert run(["deal", "play", "1", "KS"]) == 2
    assert capsys.readouterr().err == "tally: there is no match 1\n"


def test_a_schema_not_at_the_newest_revision_goes_to_the_regular_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tally.store.engine import make_engine, upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    upgrade(engine, "0001")
    engine.dispose()
    monkeypatch.setenv("TALLY_DB", url)
    assert run_plain_play(["1", "KS"]) is None


_PLAIN = ("import sys\nfrom tally.cli import run\nstatus = run(sys.argv[1:])\n"
          "sys.stderr.write('sqlalchemy loaded\\n' if 'sqlalchemy' in sys.modules else '')\n"
          "sys.exit(status)")


def _play(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TALLY_DB=url, TALLY_SCORER="tester")
    return subprocess.run([sys.executable, "-c", _PLAIN, "deal", "play", *args], env=env,
                          capture_output=True, text=True, cwd=ROOT, check=False)


def test_two_scorers_processes_on_one_deal_take_turns(db_url: str) -> None:
    """Two processes record into one deal at once on the plain path (no SQLAlchemy loaded):
    every card is stored once, in some order, with no sequence number lost; two entries made
    at the same position: one is stored, the other refused with what was entered."""
    from tally.cards import CARDS

    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    ok(db_url, "deal", "start", "1", "QH")
    cards = [str(c) for c in CARDS if str(c) != "QH"][:8]
    done: list[subprocess.CompletedProcess[str]] = []

    def scorer(mine: list[str]) -> None:
        for card in mine:
            done.append(_play(db_url, "1", card, "--as-played"))

    threads = [threading.Thread(target=scorer, args=(cards[k::2],)) for k in (0, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    assert [(p.returncode, p.stderr) for p in done] == [(0, "")] * len(cards)
    from tally.store import open_store

    with open_store(db_url) as store:
        view = store.deal_view(store.deal_id("1.1"))
        assert view.actions == len(cards)
        assert store.stale_results() == []
    position = f"1.1:{len(cards)}"
    racers = [subprocess.Popen(
        [sys.executable, "-c", _PLAIN, "deal", "play", "1", card, "--as-played", "--at",
         position], env=dict(os.environ, TALLY_DB=db_url, TALLY_SCORER="tester"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        for card in [str(c) for c in CARDS if str(c) not in (*cards, "QH")][:2]]
    results = [(p.wait(timeout=120), *p.communicate()) for p in racers]
    assert sorted(code for code, _out, _err in results) == [0, 2], results
    loser = next(err for code, _out, err in results if code == 2)
    assert loser.startswith("tally: deal 1.1 has moved on: someone else recorded")
    assert all("sqlalchemy" not in err for _code, _out, err in results)
