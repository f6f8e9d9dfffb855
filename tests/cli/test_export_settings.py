"""Settings that travel with an event file: a knockout created with every option (seeded by
rating, best of 3 in its final stage), its prize table and buy-back rule set, a life bought
back, played to the end, exported (`tally event export`) and loaded (`tally load`) into a
fresh database gives the same standings, prize table, settings and seeding; and
`tally event create --seed-by` / `--best-of` on the command line (CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tally.cli import app
from tally.errors import TallyError
from tally.store import open_store
from tests.store.test_knockouts import win

runner = CliRunner()
EIGHT = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini", "Gust", "Hilde"]
RULES = "sixty-six match_target=3"


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def refused(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    return result.output


def rate_some(db: str) -> None:
    """Hilde wins two friendly matches, Gust one, Bert loses one: they are rated."""
    ok("player", "add", *EIGHT, "Xaver", "--db", db)
    with open_store(db) as store:
        for winner, loser in (("Hilde", "Xaver"), ("Hilde", "Xaver"), ("Gust", "Xaver")):
            m = store.matches.start(winner, loser, first_dealer=winner, rules=RULES)
            win(store, m.id, winner)
        m = store.matches.start("Bert", "Xaver", first_dealer="Bert", rules=RULES)
        win(store, m.id, "Xaver")


def play_to_the_end(db: str) -> None:
    """Play every round, the first player of each table winning (in the final stage until
    the pairing is decided); the first player out after round 1 buys back a life."""
    with open_store(db) as store:
        number = 1
        while True:
            try:
                rnd = store.events.start_round("Cup", number)
            except TallyError:
                break
            for p in rnd.pairings:
                for m in p.matches[: (len(p.matches) + 1) // 2]:
                    win(store, m.match_id, p.first)
            if number == 1:
                lines = store.knockouts.view(store.events.get("Cup")).lines
                out = [x.player for x in lines if x.out_in == 1]
                store.prizes.buy_back("Cup", out[0])
            number += 1
        assert store.knockouts.view(store.events.get("Cup")).champion is not None


def build(db: str) -> None:
    rate_some(db)
    ok(
        "event", "create", "Cup", *EIGHT, "--kind", "knockout", "--lives", "1", "--seed", "2026",
        "--final", "2", "--best-of", "3", "--seed-by", "rating", "--rules", RULES, "--db", db,
    )  # fmt: skip
    ok(
        "event", "prizes", "Cup", "--entry-fee", "10", "--prizes", "60,40", "--round-to", "0,5",
        "--buy-back-until", "3", "--buy-back-fee", "7.50", "--buy-backs", "2",
        "--buy-back-at-once", "--db", db,
    )  # fmt: skip
    play_to_the_end(db)


def settings(db: str) -> dict[str, Any]:
    """What must come back: the standings, the elimination with the prize table, the
    event's settings and seeding."""
    standings = json.loads(ok("standings", "Cup", "--json", "--db", db))
    standings["event"].pop("created_at")
    shown = json.loads(ok("event", "show", "Cup", "--json", "--db", db))
    for key in ("id", "created_at"):
        shown.pop(key)
    with open_store(db) as store:
        view = store.knockouts.view(store.events.get("Cup"))
        money = (
            view.prizes,
            view.buy_back_until,
            view.buy_back_fee,
            view.buy_backs,
            view.buy_back_at_once,
            view.best_of,
            [(x.player, x.out_in) for x in view.lines],
        )
    return {"standings": standings, "event": shown, "money": repr(money)}


def test_a_knockout_with_every_option_comes_back_the_same_from_its_file(tmp_path: Path) -> None:
    db, other = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    build(db)
    exported = tmp_path / "cup.json"
    ok("event", "export", "Cup", "-o", str(exported), "--db", db)
    doc = json.loads(exported.read_text(encoding="utf-8"))
    assert doc["options"]["seed_by"] == "rating" and doc["options"]["best_of"] == 3
    assert doc["prizes"] == {
        "entry_fee": 10,
        "prizes": "60,40",
        "round_to": 0.5,
        "buy_back_until": 3,
        "buy_back_fee": 7.5,
        "buy_backs": 2,
        "buy_back_at_once": True,
    }
    assert [b["after_round"] for b in doc["buy_backs"]] == [1]
    assert doc["buy_backs"][0]["fee"] == 7.5
    # the rated players were seeded first, best first; the others in order of entry
    seeded = [(p["name"], p["seed_rating"] is not None) for p in doc["players"]]
    assert [name for name, _rated in seeded[:3]] == ["Hilde", "Gust", "Bert"]
    assert [rated for _name, rated in seeded] == [True] * 3 + [False] * 5
    ok("load", str(exported), "--db", other)
    assert settings(other) == settings(db)
    assert ok("event", "export", "Cup", "--db", other) == exported.read_text(encoding="utf-8")


def test_a_file_seeded_by_rating_is_paired_by_its_own_ratings_not_the_new_database_s(
    tmp_path: Path,
) -> None:
    db, other = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    build(db)
    exported = tmp_path / "cup.json"
    ok("event", "export", "Cup", "-o", str(exported), "--db", db)
    ok("player", "add", *EIGHT, "Xaver", "--db", other)
    with open_store(other) as store:  # Anna is the best rated in the other database
        for _ in range(3):
            m = store.matches.start("Anna", "Xaver", first_dealer="Anna", rules=RULES)
            win(store, m.id, "Anna")
    ok("load", str(exported), "--db", other)
    assert ok("event", "export", "Cup", "--db", other) == exported.read_text(encoding="utf-8")


def test_seed_by_and_best_of_on_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    rate_some(db)
    out = ok(
        "event", "create", "Open", *EIGHT, "--kind", "swiss", "--rounds", "3",
        "--seed-by", "rating", "--db", db,
    )  # fmt: skip
    assert "Swiss event" in out
    shown = ok("event", "show", "Open", "--db", db)
    assert "Seeded by rating: the order is fixed by the ratings when round 1 is started." in shown
    ok("event", "round", "Open", "1", "--start", "--db", db)
    shown = ok("event", "show", "Open", "--db", db)
    assert "Seeded by rating: the order fixed when round 1 was started" in shown
    players = [line.split(". ", 1)[1] for line in shown.splitlines() if line.startswith("    ")]
    assert [p.split("  [")[0] for p in players[:3]] == ["Hilde", "Gust", "Bert"]
    assert players[3] == "Anna  [-]"
    assert "--seed-by rating is for a Swiss event, a knockout or groups" in refused(
        "event", "create", "Club", "Anna", "Bert", "--seed-by", "rating", "--db", db
    )
    assert "--best-of: only with a final stage (--final N)" in refused(
        "event", "create", "KO", *EIGHT, "--kind", "knockout", "--best-of", "3", "--db", db
    )
    assert "--best-of: only for a knockout or groups, not a swiss" in refused(
        "event", "create", "S", *EIGHT, "--kind", "swiss", "--rounds", "3", "--best-of", "3",
        "--db", db,
    )  # fmt: skip
    assert "not 4" in refused(
        "event", "create", "G", *EIGHT, "--kind", "groups", "--groups", "2", "--advance", "2",
        "--best-of", "4", "--db", db,
    )  # fmt: skip
    ok(
        "event", "create", "G", *EIGHT, "--kind", "groups", "--groups", "2", "--advance", "2",
        "--best-of", "5", "--db", db,
    )  # fmt: skip
    assert "best of 5" in ok("event", "show", "G", "--db", db)


def test_the_pairings_sheet_says_seeded_by_rating_and_shows_each_rating(tmp_path: Path) -> None:
    from tests.cli.test_knockouts import pdf_text

    db = str(tmp_path / "t.db")
    rate_some(db)
    ok("event", "create", "Open", *EIGHT, "--kind", "swiss", "--rounds", "3",
       "--seed-by", "rating", "--db", db)  # fmt: skip
    ok("event", "round", "Open", "1", "--start", "--db", db)
    with open_store(db) as store:
        hilde = store.events.get("Open").players[0]
    assert hilde.name == "Hilde" and hilde.seed_rating is not None
    sheet = tmp_path / "pairings.pdf"
    ok("print", "pairings", "Open", "--round", "1", "-o", str(sheet), "--db", db)
    text = pdf_text(sheet)
    assert "Seeded by rating" in text
    assert f"Hilde ({hilde.seed_rating:.1f})" in text and "Anna (-)" in text


def test_a_folder_gives_the_seeding_and_best_of_and_a_bad_buy_back_is_refused(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "t.db")
    rate_some(db)
    folder = tmp_path / "cup"
    folder.mkdir()
    (folder / "event.toml").write_text(
        'name = "Cup"\nkind = "knockout"\nrules = "sixty-six match_target=3"\n'
        f"players = {json.dumps(EIGHT)}\n"
        'lives = 1\nseed = "2026"\nfinal = 2\nbest_of = 3\nseed_by = "rating"\n',
        encoding="utf-8",
    )
    ok("load", str(folder), "--db", db)
    with open_store(db) as store:
        view = store.knockouts.view(store.events.get("Cup"))
        assert (store.events.get("Cup").seed_by, view.best_of) == ("rating", 3)
    # a file's buy-back must be one the event allows, at its place
    build(str(tmp_path / "a.db"))
    exported = tmp_path / "cup.json"
    ok("event", "export", "Cup", "-o", str(exported), "--db", str(tmp_path / "a.db"))
    doc = json.loads(exported.read_text(encoding="utf-8"))
    winner = next(m["winner"] for m in doc["matches"] if m["round"] == 1)
    doc["buy_backs"][0]["player"] = winner  # not out after round 1
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    out = refused("load", str(tmp_path / "bad.json"), "--db", str(tmp_path / "b.db"))
    assert f"buy_backs[0]: {winner} " in out
    doc["buy_backs"][0]["after_round"] = 99
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    out = refused("load", str(tmp_path / "bad.json"), "--db", str(tmp_path / "b.db"))
    assert "buy_backs[0].after_round: round 99 is not among the rounds started" in out
    doc["buy_backs"][0]["fee"] = "ten"
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    out = refused("load", str(tmp_path / "bad.json"), "--db", str(tmp_path / "b.db"))
    assert "buy_backs[0].fee: must be an amount in euros" in out


def test_groups_seeded_by_rating_and_played_best_of_three_come_back_from_their_file(
    tmp_path: Path,
) -> None:
    db, other = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    rate_some(db)
    ok("event", "create", "Groups", *EIGHT, "--kind", "groups", "--groups", "2", "--advance",
       "2", "--best-of", "3", "--seed-by", "rating", "--rules", RULES, "--db", db)  # fmt: skip
    with open_store(db) as store:
        for p in store.events.start_round("Groups", 1).pairings:
            win(store, p.matches[0].match_id, p.first)
    exported = tmp_path / "groups.json"
    ok("event", "export", "Groups", "-o", str(exported), "--db", db)
    doc = json.loads(exported.read_text(encoding="utf-8"))
    assert doc["options"] == {"groups": 2, "advance": 2, "best_of": 3, "seed_by": "rating"}
    ok("load", str(exported), "--db", other)
    assert ok("event", "export", "Groups", "--db", other) == exported.read_text(encoding="utf-8")
    shown = [json.loads(ok("event", "show", "Groups", "--json", "--db", d)) for d in (db, other)]
    for s in shown:
        s.pop("id"), s.pop("created_at")
    assert shown[0] == shown[1] and shown[0]["seeded"]
    assert [p["name"] for p in shown[0]["players"]][:3] == ["Hilde", "Gust", "Bert"]
