"""Several scorers at once, and a scorer's process killed mid-deal: nothing acknowledged is
lost, nobody sees "database is locked", and recording carries on."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time

import pytest

from tally.engine.notation import read_items
from tests.store_support import deal_actions, ok, random_match_deals, tally_process

pytestmark = pytest.mark.slow

WORKERS = 4
ACTIONS = 200


def stored_deals(url: str, match: int) -> list[tuple[list[str], bool]]:
    """Each deal of a match: its stored actions in order, and whether it is finished."""
    from tally.store import open_store

    with open_store(url) as store:
        out = []
        for deal in store.matches.state(match).deals:
            record = store.deals.export(deal.id)
            tricks = record.split("\n\n", 1)[1].splitlines() if "\n\n" in record else []
            out.append(
                (
                    [str(item) for line in tricks for item in read_items(line.split(".", 1)[1])],
                    deal.finished,
                )
            )
        return out


def feed_text(deals: list[list[str]]) -> str:
    return "\n".join(line for deal in deals for line in deal) + "\n"


def start_match(url: str) -> None:
    ok(
        url,
        "match",
        "start",
        "Anna",
        "Bert",
        "--dealer",
        "Anna",
        "--rules",
        "sixty-six match_target=200",
    )


def test_four_scorers_record_four_matches_at_once(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    feeds = []
    for m in range(1, WORKERS + 1):
        start_match(db_url)
        feeds.append(random_match_deals(seed=m, actions=ACTIONS))
    procs = [
        tally_process(
            db_url,
            "deal",
            "record",
            str(m),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for m in range(1, WORKERS + 1)
    ]
    results = [
        p.communicate(feed_text(feed), timeout=300) for p, feed in zip(procs, feeds, strict=True)
    ]
    for p, (out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, err
        assert "locked" not in out + err and "Refused" not in out, (out + err)[-2000:]
    for m, feed in enumerate(feeds, start=1):
        stored = [actions for actions, _ in stored_deals(db_url, m)]
        assert stored == [deal_actions(deal) for deal in feed]
        assert sum(map(len, stored)) >= ACTIONS
    from tally.store import open_store

    with open_store(db_url) as store:
        plays = [e for e in store.audit.log() if e.command == "deal play"]
    assert len(plays) == sum(out.count("Recorded ") for out, _ in results)


def _read_until(proc: subprocess.Popen[str], marker: str, deadline: float) -> str:
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError("the recording process ended early")
        if marker in line:
            return line
    raise AssertionError(f"no {marker!r} in time")


def test_a_killed_recording_loses_nothing_acknowledged(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert")
    start_match(db_url)
    deals = random_match_deals(seed=7, actions=120)
    proc = tally_process(
        db_url,
        "deal",
        "record",
        "1",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=1,
    )
    assert proc.stdin is not None
    deadline = time.monotonic() + 120
    acked: list[str] = []  # actions whose commit the process acknowledged
    lines = [(i, line) for i, deal in enumerate(deals) for line in deal]
    sent = 0
    # One line at a time, waiting for the acknowledgement printed after each commit...
    while len(acked) < 40:
        index, line = lines[sent]
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        first_of_deal = sent == 0 or lines[sent - 1][0] != index
        sent += 1
        if first_of_deal:
            _read_until(proc, "turn-up", deadline)
        elif line:
            got = _read_until(proc, "Recorded ", deadline)
            acked += [
                str(i) for i in read_items(got.split("Recorded ", 1)[1].split(" in deal ")[0])
            ]
    # ...then a burst without waiting, killed in the middle of it.
    proc.stdin.write("".join(line + "\n" for _, line in lines[sent : sent + 15]))
    proc.stdin.flush()
    time.sleep(0.1)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)

    if db_url.startswith("sqlite"):
        with sqlite3.connect(db_url.removeprefix("sqlite:///")) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    stored = stored_deals(db_url, 1)
    flat = [a for actions, _ in stored for a in actions]
    assert flat[: len(acked)] == acked  # everything acknowledged is there
    for (actions, _), deal in zip(stored, deals, strict=False):
        assert actions == deal_actions(deal)[: len(actions)]  # and only what was typed

    # Recording carries on from where the database stands.
    last_actions, last_finished = stored[-1]
    current = deals[len(stored) - 1]
    rest: list[str] = []
    if not last_finished:
        done = 0
        for k, line in enumerate(current[1:], start=1):
            if done == len(last_actions):
                rest = current[k:]
                break
            done += len(read_items(line)) if line else 0
    out = ok(
        db_url,
        "deal",
        "record",
        "1",
        input="\n".join(rest) + "\n" + feed_text(deals[len(stored) :]),
    )
    assert "Refused" not in out
    assert [a for a, _ in stored_deals(db_url, 1)] == [deal_actions(d) for d in deals]


def test_two_scorers_appending_to_one_deal_take_turns(db_url: str) -> None:
    """Two writers add cards to the same deal at once: each append waits for the other (the
    match row is locked on PostgreSQL, the database on SQLite), so none is refused for a
    sequence number taken meanwhile and every card is stored once."""
    import threading

    from tally.engine.cards import CARDS
    from tally.store import open_store

    ok(db_url, "player", "add", "Anna", "Bert")
    start_match(db_url)
    ok(db_url, "deal", "start", "1", "QH")
    cards = [str(c) for c in CARDS if str(c) != "QH"][:20]
    errors: list[BaseException] = []
    go = threading.Barrier(2)

    def scorer(mine: list[str]) -> None:
        with open_store(db_url, scorer="scorer") as store:
            go.wait()
            for card in mine:
                try:
                    store.deals.play(
                        1, card, as_played=True
                    )  # any cards: a revoke may be among them
                except BaseException as exc:
                    errors.append(exc)

    threads = [threading.Thread(target=scorer, args=(cards[k::2],)) for k in (0, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    assert errors == []
    [(stored, _)] = stored_deals(db_url, 1)
    assert sorted(stored) == sorted(cards)


def _deal_play(url: str, *args: str) -> subprocess.Popen[str]:
    """``tally deal play ARGS`` in a process of its own."""
    return tally_process(url, "deal", "play", *args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_two_scorers_processes_on_one_deal_take_turns(db_url: str) -> None:
    """Two ``tally deal play`` processes record into one deal at once: every card is stored
    once, in some order, with no sequence number lost; two entries made at the same position:
    one is stored, the other refused with what was entered."""
    import threading

    from tally.engine.cards import CARDS
    from tally.store import open_store

    ok(db_url, "player", "add", "Anna", "Bert")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    ok(db_url, "deal", "start", "1", "QH")
    cards = [str(c) for c in CARDS if str(c) != "QH"][:8]
    done: list[tuple[int, str]] = []

    def scorer(mine: list[str]) -> None:
        for card in mine:
            proc = _deal_play(db_url, "1", card, "--as-played")
            _out, err = proc.communicate(timeout=120)
            done.append((proc.returncode, err))

    threads = [threading.Thread(target=scorer, args=(cards[k::2],)) for k in (0, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=240)
    assert done == [(0, "")] * len(cards)
    with open_store(db_url) as store:
        view = store.deals.view(store.deals.id_of("1.1"))
        assert view.actions == len(cards)
        assert store.results.stale() == []
    racers = [
        _deal_play(db_url, "1", card, "--as-played", "--at", f"1.1:{len(cards)}")
        for card in [str(c) for c in CARDS if str(c) not in (*cards, "QH")][:2]
    ]
    results = [(p.wait(timeout=120), *p.communicate()) for p in racers]
    assert sorted(code for code, _out, _err in results) == [0, 2], results
    loser = next(err for code, _out, err in results if code == 2)
    assert loser.startswith("tally: deal 1.1 has moved on: someone else recorded")
