"""Hostile command lines: ids beyond what a database holds, digits that are not ASCII, bytes
that are not UTF-8, NUL characters, broken ``--db`` URLs with a password in them. Each one
is refused with one line on stderr and exit status 2 (through `tally.cli.run`, what the `tally`
script runs, and in real processes): no traceback, no "internal error", and
never the password.

The list is the record of what was probed; every command appears in it at least once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.store_support import ROOT

SECRET = "s3cretpw"
BIG = "99999999999999999999"
HUGE = "9" * 5000
BAD = "Caf\udce9"  # what Python makes of the bytes b"Caf\xe9" in argv

#: (command line, text the message must contain); {tmp} is a folder of the test's own.
HOSTILE: list[tuple[list[str], str]] = [
    # ids beyond SQLite's 64-bit range, negative, zero, not ASCII digits
    (["match", "show", BIG], "MATCH 99999999999999999999: out of range"),
    (["match", "show", "--", "-1"], "there is no match -1"),
    (["match", "show", "0"], "there is no match 0"),
    (["match", "delete", BIG], "out of range"),
    (["match", "list", "--event", BIG], "--event 99999999999999999999: out of range"),
    (["deal", "show", BIG], BIG),
    (["deal", "show", f"1.{BIG}"], BIG),
    (["deal", "show", f"{BIG}.1"], BIG),
    (["deal", "show", HUGE], "99999999999999999999"),
    (["deal", "export", BIG], BIG),
    (["deal", "show", "--", "-3"], "is not a deal"),
    (["deal", "show", "²"], "is not a deal"),
    (["deal", "show", "١٢"], "is not a deal"),
    (["deal", "show", "①.1"], "is not a deal"),
    (["deal", "play", BIG, "KS"], "is not a match number"),
    (["deal", "play", "١", "KS"], "is not a match number"),
    (["deal", "undo", BIG], "MATCH"),
    (["deal", "start", BIG, "QH"], "MATCH"),
    (["deal", "quick", BIG, "--winner", "Anna", "--points", "1"], "MATCH"),
    (["deal", "quick", "1", "--winner", "Anna", "--points", BIG], "--points"),
    (["deal", "delete", BIG], BIG),
    (["deal", "edit", BIG], BIG),
    (["audit", "undo", BIG], "out of range"),
    (["audit", "undo", "--", "-1"], "there is no audit entry -1"),
    (["audit", "--limit", BIG], "--limit 99999999999999999999: out of range"),
    (["audit", "--limit", "-1"], "--limit"),
    (["event", "show", BIG], "there is no event"),
    (["event", "show", "²"], "there is no event"),
    (["event", "show", "#" + BIG], "there is no event"),
    (["event", "withdraw", BIG, "Anna"], "there is no event"),
    (["event", "round", BIG], "there is no event"),
    (["event", "round", "2", BIG], "out of range"),
    (["event", "cross", BIG], "there is no event"),
    (["event", "add", "1", BIG], "there is no player #99999999999999999999"),
    (["standings", BIG], "there is no event"),
    (["print", "scoresheet", BIG], "out of range"),
    (["print", "ruling", BIG], BIG),
    (["print", "pairings", BIG, "--round", "1"], "there is no event"),
    (["print", "standings", "١"], "there is no event"),
    (["player", "show", BIG], "there is no player #99999999999999999999"),
    (["player", "show", "#" + HUGE], "there is no player"),
    (["player", "rename", BIG, "Zed"], "there is no player"),
    (["player", "merge", "Anna", BIG], "there is no player"),
    # text that was not UTF-8, NUL characters
    (["player", "add", BAD], 'NAMES "Caf\\xe9": not UTF-8 text'),
    (["player", "add", "Anna\x00"], "not UTF-8 text"),
    (["player", "rename", "Anna", BAD], "NEW_NAME"),
    (["player", "alias", "Anna", BAD], 'ALIAS "Caf\\xe9"'),
    (["player", "show", "\udcff"], "PLAYER"),
    (["match", "start", BAD, "Bert", "--dealer", "Bert"], "PLAYER_A"),
    (["match", "start", "Anna", "Bert", "--dealer", BAD], "--dealer"),
    (["event", "create", BAD], "NAME"),
    (["event", "create", "Cup", "Anna", BAD], "PLAYER"),
    (["deal", "play", "1", "K\udcd3"], "not UTF-8 text"),
    (["deal", "play", "1", f"66@{BAD}"], "not UTF-8 text"),
    (["deal", "quick", "1", "--winner", BAD, "--points", "1"], "--winner"),
    (["player", "add", "Zed", "--scorer", BAD], "--scorer"),
    (["player", "list", "--db", f"{BAD}.db"], "--db"),
    # names
    (["player", "add", ""], "cannot be empty"),
    (["player", "add", "12345"], "needs at least one letter"),
    (["player", "add", "x" * 500], "at most 60 characters"),
    (["player", "add", "anna berger"], "exists already"),
    (["player", "add", "Jurgen Roth"], "exists already"),
    (["player", "alias", "Anna", "Bert Huber"], "cannot be another player's name"),
    (["match", "start", "Anna", "Anna", "--dealer", "Anna"], 'not "Anna Berger" twice'),
    (["match", "start", "Anna", "Bert", "--dealer", "Jurgen"], "does not play in this match"),
    (["match", "start", "Zed", "Bert", "--dealer", "Bert"], 'there is no player "Zed"'),
    (["deal", "play", "1", "66@Nobody"], "does not play"),
    (["deal", "play", "1", "66@"], "66@ needs the claimer's name"),
    (["player", "merge", "Anna", "Anna Berger"], "are the same entry"),
    # --db URLs: broken, unknown, unusable, with a password that must stay hidden
    (["player", "list", "--db", "postgresql://[::1/x"], "cannot use the database"),
    (["player", "list", "--db", f"postgresql://u:{SECRET}@[::1/x"], "cannot use the database"),
    (["player", "add", "Zed", "--db", "sqlite:///{tmp}/x.db?timeout=abc"], "takes no options"),
    (["player", "list", "--db", f"mysql://u:{SECRET}@host/x"], "mysql://u:***@host/x"),
    (["player", "list", "--db", f"mysql://u:{SECRET}@pw@host/x"], "cannot use the database"),
    (["player", "list", "--db", f"nosuchdriver://u:{SECRET}@h/x"], "nosuchdriver"),
    (["player", "list", "--db", f"postgresql+nosuch://u:{SECRET}@h/x"], "Can't load plugin"),
    (["player", "add", "Zed", "--db", "sqlite:///a%00b"], "NUL"),
    (["player", "add", "Zed", "--db", "a\x00b.db"], "--db"),
    (["player", "add", "Zed", "--db", "{tmp}"], "is a folder, not a database file"),
    (["player", "add", "Zed", "--db", "{tmp}/missing/dir/x.db"], "does not exist"),
    (["player", "add", "Zed", "--db", "/proc/tally-x.db"], "cannot open the database"),
    (
        ["standings", "1", "--db", f"postgresql+psycopg://u:{SECRET}@127.0.0.1:1/x"],
        "cannot open the database",
    ),
    (
        ["player", "list", "--db", f"postgresql+psycopg://u:{SECRET}@127.0.0.1:99999/x"],
        "invalid port",
    ),
    (
        [
            "player",
            "list",
            "--db",
            f"postgresql+psycopg://u:{SECRET}@127.0.0.1:1/x?connect_timeout=abc",
        ],
        "connect_timeout",
    ),
    (["player", "list", "--db", "sqlite://"], "no tally tables"),
    (["match", "list", "--db", ":memory:"], "no tally tables"),
    (["audit", "--db", "{tmp}/nothing-here.db"], "no database at"),
]


def prepared(tmp_path: Path) -> str:
    """A database with Anna Berger, Bert Huber and Jürgen Roth, match 1 (Anna v Bert) with a
    deal started, a club evening 1 and a round robin 2."""
    from tests.store_support import ok

    url = f"sqlite:///{tmp_path / 'club.db'}"
    ok(url, "player", "add", "Anna Berger", "Bert Huber", "Jürgen Roth")
    ok(url, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    ok(url, "deal", "start", "1", "QH")
    ok(url, "event", "create", "Club", "Anna", "Bert")
    ok(url, "event", "create", "Cup", "Anna", "Bert", "Jurgen", "--kind", "round-robin")
    return url


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    return prepared(folder), folder


def _line(args: list[str], tmp: Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)) for a in args]


def _assert_refused(code: int, out: str, err: str, expected: str) -> None:
    assert code == 2, (code, out, err)
    assert err.startswith("tally: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert expected in err, err
    for bad in ("Traceback", "internal error", SECRET):
        assert bad not in out + err, out + err


@pytest.mark.parametrize(
    ("args", "expected"),
    HOSTILE,
    ids=[f"{i}-{' '.join(a)[:40]}" for i, (a, _) in enumerate(HOSTILE)],
)
def test_a_hostile_command_line_is_one_line_and_exit_2(
    club: tuple[str, Path],
    args: list[str],
    expected: str,
    monkeypatch: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Run in-process through :func:`tally.cli.run`, what the ``tally`` script runs."""
    from tally.cli import run
    from tests.store_support import dump

    url, folder = club
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TALLY_DB", url)
    monkeypatch.setenv("TALLY_SCORER", "tester")
    before = dump(url)
    capsys.readouterr()
    code = run(_line(args, folder))
    out, err = capsys.readouterr()
    _assert_refused(code, out, err, expected)
    assert dump(url) == before


def test_there_are_more_than_sixty_hostile_lines_over_every_command() -> None:
    assert len(HOSTILE) > 60
    probed = {
        tuple(a[:2]) if a[0] in ("match", "deal", "player", "event", "print", "audit") else (a[0],)
        for a, _ in HOSTILE
    }
    for command in [
        ("match", "show"),
        ("match", "delete"),
        ("match", "start"),
        ("match", "list"),
        ("deal", "show"),
        ("deal", "play"),
        ("deal", "quick"),
        ("deal", "export"),
        ("deal", "undo"),
        ("audit", "undo"),
        ("event", "show"),
        ("event", "create"),
        ("player", "add"),
        ("player", "alias"),
        ("print", "ruling"),
        ("standings",),
    ]:
        assert command in probed, command


SUBPROCESS: list[tuple[list[str], str]] = [
    (["match", "show", BIG], "out of range"),
    (["match", "show", "abc"], "Invalid value for 'MATCH'"),
    (["match", "show", "١٢"], "Invalid value for 'MATCH'"),
    (["match", "show", HUGE], "Invalid value for 'MATCH'"),
    (["deal", "show", "²"], "is not a deal"),
    (["player", "nosuch"], "No such command"),
    (["match", "show", "1", "--bogus"], "No such option: --bogus"),
    (["player", "list", "--db", f"mysql://u:{SECRET}@host/x"], "mysql://u:***@host/x"),
]


@pytest.mark.parametrize(
    ("args", "expected"), SUBPROCESS, ids=[" ".join(a)[:40] for a, _ in SUBPROCESS]
)
def test_the_real_process_lines_in_process_too(
    club: tuple[str, Path],
    args: list[str],
    expected: str,
    monkeypatch: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The lines below, in the inner loop (-m "not slow"): the real processes are slow."""
    test_a_hostile_command_line_is_one_line_and_exit_2(club, args, expected, monkeypatch, capsys)


@pytest.mark.slow  # a real process
@pytest.mark.parametrize(
    ("args", "expected"), SUBPROCESS, ids=[" ".join(a)[:40] for a, _ in SUBPROCESS]
)
def test_a_hostile_command_line_in_a_real_process(
    club: tuple[str, Path], args: list[str], expected: str
) -> None:
    url, _ = club
    done = subprocess.run(
        [sys.executable, "-m", "tally", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"TALLY_DB": url, "PATH": "/usr/bin:/bin"},
    )
    _assert_refused(done.returncode, done.stdout, done.stderr, expected)


def test_bytes_that_are_not_utf8_in_a_real_argv_are_named(club: tuple[str, Path]) -> None:
    url, _ = club
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"tally", b"player", b"add", b"Caf\xe9"],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        env={"TALLY_DB": url, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
    )
    err = done.stderr.decode("utf-8")
    _assert_refused(
        done.returncode, done.stdout.decode("utf-8"), err, 'NAMES "Caf\\xe9": not UTF-8 text'
    )
