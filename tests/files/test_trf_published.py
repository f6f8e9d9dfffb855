"""A TRF-16 file as published, and the seeding list through TRF.

tests/data/trf/fide-example1.trf is FIDE's own example of the Tournament Report File,
published with the TRF description at http://ratings.fide.com/download/example1.txt (the
9th Karl-Mala-Gedenkturnier, Frankfurt 2005: 284 players, 7 rounds), copied unchanged from
its copy in https://github.com/sklangen/TRF (tests/example1.trf). tally's reader
(tally.files.trf.read_trf) reads every player, round, opponent and result of it; the import
refuses it, since a chess event has drawn games and a card match has none, naming the first
draw and leaving the database as it was.

A Swiss event seeded by rating (`--seed-by rating`) is written with its players numbered in
the seeding order, TRF's starting rank, so a pairing program sees the same initial order,
and an import of that file keeps it."""

from __future__ import annotations

import json
from pathlib import Path

from tally.files.trf import read_trf
from tally.store import open_store
from tests.store.test_ratings import played
from tests.store_support import ok, refused

FIDE = Path(__file__).parents[1] / "data" / "trf" / "fide-example1.trf"
#: what a result scores in chess, to check the file's points column
POINTS = {"1": 1.0, "0": 0.0, "=": 0.5, "+": 1.0, "-": 0.0}
#: a result as the opponent's line gives it
OTHER_SIDE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


def test_fide_s_published_example_is_read_player_by_player_and_round_by_round() -> None:
    t = read_trf(FIDE.read_text(encoding="ascii"), FIDE.name)
    assert (t.name, t.start, t.end) == (
        "9. Karl-Mala-Gedenkturnier",
        "28. 07. 2005",
        "31. 07. 2005",
    )
    assert t.kind == "Individual: Swiss-System (Standard)"
    assert len(t.players) == 284 and [p.number for p in t.players] == list(range(1, 285))
    assert t.rounds == 7 and all(len(p.games) == 7 for p in t.players)
    first = t.players[0]
    assert (first.name, first.rating, first.points, first.rank) == ("Vasquez,Rodrigo", 2558, 6.0, 4)
    assert [(g.opponent, g.colour, g.result) for g in first.games if g] == [
        (141, "w", "1"),
        (78, "b", "1"),
        (42, "w", "1"),
        (21, "b", "1"),
        (16, "w", "1"),
        (25, "b", "="),
        (31, "w", "="),
    ]
    # player 13 lost round 1 by forfeit to 153 and played no more
    assert [(g.opponent, g.result) if g else None for g in t.players[12].games] == [
        (153, "-"),
        *[None] * 6,
    ]
    by_number = {p.number: p for p in t.players}
    for p in t.players:
        # the points column is the sum of the results read
        assert sum(POINTS[g.result] for g in p.games if g) == p.points, p.name
        for r, game in enumerate(p.games):
            if game is None or game.opponent is None:
                continue
            # every pairing is on both players' lines, the other way round
            other = by_number[game.opponent].games[r]
            assert other is not None and other.opponent == p.number, (p.number, r + 1)
            assert other.result == OTHER_SIDE[game.result]
            assert {game.colour, other.colour} in ({"w", "b"}, {"-"})


def test_fide_s_example_is_refused_for_its_draws_and_nothing_is_stored(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna")
    out = refused(db_url, "event", "import", str(FIDE), match="a drawn game")
    assert "Ebert,Wolfgang (number 36), round 1: a drawn game (=)" in out
    assert len(out.strip().splitlines()) == 1
    assert [p["name"] for p in json.loads(ok(db_url, "player", "list", "--json"))] == ["Anna"]
    assert json.loads(ok(db_url, "event", "list", "--json")) == []


def test_a_swiss_event_seeded_by_rating_numbers_its_players_in_seeding_order(
    db_url: str, tmp_path: Path
) -> None:
    names = ["Anna", "Bert", "Carl", "Dora", "Xaver"]
    ok(db_url, "player", "add", *names)
    with open_store(db_url) as store:
        played(store, "Dora", "Xaver", "Dora")
        played(store, "Dora", "Xaver", "Dora")
        played(store, "Carl", "Xaver", "Carl")
    ok(db_url, "event", "create", "Open", *names[:4], "--kind", "swiss", "--rounds", "2",
       "--seed-by", "rating")  # fmt: skip
    ok(db_url, "event", "round", "Open", "1", "--start")
    trf = read_trf(ok(db_url, "event", "export", "Open", "--format", "trf"))
    assert [(p.number, p.name) for p in trf.players] == [
        (1, "Dora"),
        (2, "Carl"),
        (3, "Anna"),
        (4, "Bert"),
    ]
    path = tmp_path / "open.trf"
    path.write_text(ok(db_url, "event", "export", "Open", "--format", "trf"), encoding="utf-8")
    ok(db_url, "event", "import", str(path), "--name", "Open again")
    shown = json.loads(ok(db_url, "event", "show", "Open again", "--json"))
    assert [p["name"] for p in shown["players"]] == ["Dora", "Carl", "Anna", "Bert"]
