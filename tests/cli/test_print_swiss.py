"""The sheets of a big Swiss event, printed as a director prints them on the night: a field of
32 (16 tables a round), four rounds played and the fifth started. The pairings fit one page
and show each player's match points before the round; the expected chances are the ratings'
when the round started; the standings give a round-by-round table instead of a cross-table
too big to read. A small round robin's cross-table is in the order of the standings.

The event is made through the store (results as quick deals to a match target of 3); every
PDF is printed through ``tally print`` and read back with pypdf.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tally.store import open_store
from tests.pdf_support import pages_text, squash

FIRST = [
    "Anna",
    "Bert",
    "Clara",
    "Dieter",
    "Eva",
    "Franz",
    "Greta",
    "Hans",
    "Ilse",
    "Jakob",
    "Karin",
    "Lukas",
    "Maria",
    "Norbert",
    "Olga",
    "Peter",
]
LAST = ["Berger", "Huber"]
FIELD = [f"{first} {last}" for last in LAST for first in FIRST]  # 32 players


def _win(store: object, rnd: object, rng: random.Random) -> None:
    """Finish every match of a round: mostly the earlier entry wins."""
    for p in rnd.pairings:  # type: ignore[attr-defined]
        for m in p.matches:
            upset = rng.random() < 0.3
            first = FIELD.index(p.first) < FIELD.index(p.second)
            winner = p.first if first != upset else p.second
            store.deals.quick_result(
                m.match_id,
                winner=winner,
                points=3,  # type: ignore[attr-defined]
                reason="claim",
            )


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("swiss") / "swiss.db")
    store = open_store(db, scorer="test")
    for name in FIELD:
        store.players.add(name)
    ev = store.events.create(
        "Spring Swiss", kind="swiss", players=FIELD, rules="sixty-six match_target=3", rounds=5
    )
    rng = random.Random(7)
    for number in range(1, 5):
        _win(store, store.events.start_round(ev.id, number), rng)
    store.events.start_round(ev.id, 5)
    store.close()
    yield db


def _print(db: str, tmp: Path, *args: str) -> list[str]:
    out = tmp / "sheet.pdf"
    result = CliRunner().invoke(app, ["print", *args, "--db", db, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return pages_text(out.read_bytes())


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_sixteen_tables_of_pairings_fit_one_page_with_the_scores_before_the_round(
    big: str, tmp_path: Path, paper: str
) -> None:
    pages = _print(big, tmp_path, "pairings", "1", "--round", "5", "--paper", paper)
    assert len(pages) == 1
    text = squash(pages[0])
    store = open_store(big)
    before = store.events.round_by_round(1).scores_before(5)
    [rnd] = store.events.rounds(1, 5)
    store.close()
    assert len(rnd.pairings) == 16
    # each player's match points before the round in a box under their name
    assert all(
        squash(f"{p.first}{before[p.first]:g}{p.second}{before[p.second]:g}{p.first_dealer}")
        in text
        for p in rnd.pairings
    )
    assert len({before[p.first] for p in rnd.pairings}) > 1
    assert "matchpointsbeforethisround" in text


def test_the_expected_chances_are_the_ratings_when_the_round_started(
    big: str, tmp_path: Path
) -> None:
    # Nothing was rated before round 1 started: its sheet shows no chances, though every
    # match of it has been rated since; round 2's sheet does.
    assert "Expected" not in " ".join(_print(big, tmp_path, "pairings", "1", "--round", "1"))
    second = " ".join(_print(big, tmp_path, "pairings", "1", "--round", "2"))
    assert "Expected" in second and "when the round started" in second
    shown = CliRunner().invoke(app, ["event", "round", "1", "1", "--db", big]).output
    assert "Expected" not in shown


def test_a_big_swiss_standings_sheet_is_round_by_round(big: str, tmp_path: Path) -> None:
    pages = _print(big, tmp_path, "standings", "1")
    text = " ".join(pages)
    assert "Round by round" in text and "Cross-table" not in text
    store = open_store(big)
    view = store.events.round_by_round(1)
    ranked = [r.player for r in store.events.standings(1).rows]
    store.close()
    assert list(view.players) == ranked
    top = view.cells[0]
    line = {p: i for i, p in enumerate(view.players, start=1)}
    # the leader's line: each round the opponent's number, the result, the running score
    expected = f"{view.ranks[0]}{view.players[0]}" + "".join(
        f"{line[c.opponent]}{c.result}{c.total:g}" for c in top if c.opponent is not None
    )
    assert squash(expected) in squash(text)
    totals = [c.total for c in top]
    assert totals == sorted(totals) and totals[3] == totals[4]  # round 5 not over yet


def test_a_small_events_cross_table_is_in_the_order_of_the_standings(tmp_path: Path) -> None:
    db = str(tmp_path / "rr.db")
    store = open_store(db, scorer="test")
    four = ["Dora Fuchs", "Carl Gruber", "Bert Huber", "Anna Igl"]
    for name in four:
        store.players.add(name)
    ev = store.events.create(
        "Cup", kind="round-robin", players=four, rules="sixty-six match_target=3"
    )
    for number in range(1, 4):
        rnd = store.events.start_round(ev.id, number)
        for p in rnd.pairings:  # the later entry wins: the standings reverse the seeds
            winner = max(p.first, p.second, key=four.index)
            store.deals.quick_result(p.matches[0].match_id, winner=winner, points=3, reason="claim")
    store.close()
    text = squash(" ".join(_print(db, tmp_path, "standings", "Cup")))
    grid = text[text.index("Cross-table") :]
    assert (
        grid.index("AnnaIgl")
        < grid.index("BertHuber")
        < grid.index("CarlGruber")
        < grid.index("DoraFuchs")
    )
