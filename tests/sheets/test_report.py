"""A player's evening: ``tally print report`` and ``tally print reports`` on the bundled club
evening, read back with pypdf, and the report's data against the standings, the ratings and
the analysis of each deal.

One SQLite database for the module (examples/club-evening loaded, and a player who is not in
it); the analysis samples 20 deals where a hand is unknown, so the module stays quick.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from tally.analysis.marks import lost_by
from tally.sheets.render import format_number
from tally.sheets.report import PlayerReport, event_reports, report_file_names
from tally.store import Store, open_store
from tests.cli.test_print import Club, Printed, run_in
from tests.pdf_support import pages_text, squash

ROOT = Path(__file__).resolve().parents[2]
CLUB_EVENING = ROOT / "examples" / "club-evening"
FIELD = ["Anna Berger", "Bert Huber", "Clara Wimmer", "Dieter Gruber", "Eva Pichler", "Franz Moser"]
SAMPLES = "20"


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    root = tmp_path_factory.mktemp("report")
    url = f"sqlite:///{root / 'club.db'}"
    loaded = run_in(root / "load", url, "load", str(CLUB_EVENING))
    assert loaded.code == 0, loaded.err
    store = open_store(url, scorer="tester")
    try:
        store.players.add("Zoe Fremd")
    finally:
        store.close()
    return Club(url, root)


@pytest.fixture(scope="module")
def store(club: Club) -> Iterator[Store]:
    opened = open_store(club.url, scorer="tester")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def reports(store: Store) -> list[PlayerReport]:
    return event_reports(store, 1, samples=int(SAMPLES))


@pytest.fixture(scope="module")
def every(club: Club) -> Printed:
    return club.run("print", "reports", "--event", "1", "--out", "mail", "--samples", SAMPLES)


@pytest.fixture(scope="module")
def german(club: Club) -> Printed:
    return club.run(
        "print", "report", "Anna", "--event", "Thursday Club Evening", "--lang", "de",
        "--samples", SAMPLES,
    )  # fmt: skip


def test_every_player_gets_a_one_page_report_named_to_be_mailed(every: Printed) -> None:
    assert every.code == 0, every.err
    names = [
        f"mail/2026-11-19-thursday-club-evening-{n.lower().replace(' ', '-')}.pdf" for n in FIELD
    ]
    assert sorted(every.files) == sorted(names)
    for name, player in zip(names, FIELD, strict=True):
        pages = pages_text(every.files[name])
        assert len(pages) == 1, name  # an evening on one page
        assert player in pages[0] and "Closes and claims" in pages[0]
        assert f"Wrote {name}" in every.out


def test_the_game_points_add_up_to_the_match_results_and_the_standings(
    store: Store, reports: list[PlayerReport], every: Printed
) -> None:
    rows = {r.player: r for r in store.events.standings(1).rows}
    assert [r.player for r in reports] == FIELD
    for report in reports:
        row = rows[report.player]
        for m in report.matches:  # each match's score as the store keeps it
            score = store.matches.state(m.match_id).score
            assert (m.own, m.against) == (score[report.player], score[m.opponent])
        assert report.game_points == (row.game_points_won, row.game_points_conceded)
        assert (report.won, report.lost) == (row.won, row.lost)
        assert report.standing is not None and report.standing.rank == row.rank
        text = squash(pages_text(every.files[_file(report.player)])[0])
        won, conceded = report.game_points
        assert squash(f"Total {won}:{conceded} {report.won} won, {report.lost} lost") in text


def test_the_losses_add_up_to_the_analysis_of_each_deal(
    store: Store, reports: list[PlayerReport], every: Printed
) -> None:
    from tally.analysis.batch import analyse_records
    from tally.engine.notation import read_deal

    records = [
        (f"{m.id}.{d.number}", read_deal(store.deals.export(d.id)))
        for m in (store.matches.state(s.id) for s in store.matches.all(1))
        for d in m.deals
        if d.kind == "recorded"
    ]
    marks = [m for a in analyse_records(records, samples=int(SAMPLES), jobs=1) for m in a.marks]
    for report in reports:
        lost = lost_by(marks, report.player)
        t = report.totals
        # each match's line rounds to the hundredth (as every total of them is shown)
        assert t.lost_to_closes == pytest.approx(lost["closes"], abs=0.01 * len(report.matches))
        assert t.lost_to_claims == pytest.approx(lost["claims"], abs=0.01 * len(report.matches))
        assert t.lost_to_cards == pytest.approx(lost["cards"], abs=0.01 * len(report.matches))
        rows = [m.lost for m in report.matches]
        assert report.lost_in_all == pytest.approx(sum(rows))
        text = squash(pages_text(every.files[_file(report.player)])[0])
        assert squash(format_number(report.lost_in_all)) in text
        for d in report.decisions:  # a decision listed is the player's, marked or a close/claim
            assert d.kind in ("close", "claim") or d.lost >= 1
            assert d.deal.split(".")[0] in {str(m.match_id) for m in report.matches}


def test_a_player_with_a_costly_decision_sees_its_mark_and_the_better_choice(
    reports: list[PlayerReport], every: Printed
) -> None:
    marked = [(r, d) for r in reports for d in r.decisions if d.symbol and d.best]
    assert marked, "the example evening has no decision that lost a game point"
    report, d = marked[0]
    text = squash(pages_text(every.files[_file(report.player)])[0])
    assert squash(f"{d.deal} {d.trick} {d.action} {d.symbol}") in text
    assert squash(f"{d.best} instead kept") in text


def test_the_rating_before_and_after_is_the_rating_history(
    store: Store, reports: list[PlayerReport]
) -> None:
    for report in reports:
        history = store.ratings.history(report.player).matches
        mine = [h for h in history if h.match_id in {m.match_id for m in report.matches}]
        assert report.rating is not None and report.rating.matches == len(mine)
        assert report.rating.before == mine[0].rating_before
        assert report.rating.after == mine[-1].rating_after


def test_the_report_in_german(german: Printed) -> None:
    assert german.code == 0, german.err
    assert list(german.files) == ["2026-11-19-thursday-club-evening-anna-berger.pdf"]
    (page,) = pages_text(german.pdf)
    for words in ("Zudrehen und Ansagen", "Spielpunkte", "Gegner", "Wertungszahl", "Gesamt"):
        assert words in page, words
    for english in ("Closes and claims", "Opponent", "Rating before", "won,", "Total"):
        assert english not in page, english


def test_a_player_not_in_the_event_is_refused_by_name(club: Club) -> None:
    p = club.run("print", "report", "Zoe Fremd", "--event", "1")
    assert p.code == 2, p.out + p.err
    assert 'Zoe Fremd is not a player of event 1 "Thursday Club Evening"' in p.err
    assert "Traceback" not in p.out + p.err and p.files == {}
    unknown = club.run("print", "report", "Nobody Here", "--event", "1")
    assert unknown.code == 2 and "Nobody Here" in unknown.err and unknown.files == {}


def test_file_names_are_ascii_stable_and_never_shared(store: Store) -> None:
    event = store.events.get(1)
    names = report_file_names(event, {3: "Jörg Müßig", 4: "Jörg Muessig", 5: "Ψ", 6: "Ana Ñúñez"})
    assert names == {
        3: "2026-11-19-thursday-club-evening-joerg-muessig-3.pdf",
        4: "2026-11-19-thursday-club-evening-joerg-muessig-4.pdf",
        5: "2026-11-19-thursday-club-evening-player-5.pdf",
        6: "2026-11-19-thursday-club-evening-ana-nunez.pdf",
    }
    assert names == report_file_names(
        event, {6: "Ana Ñúñez", 5: "Ψ", 4: "Jörg Muessig", 3: "Jörg Müßig"}
    )
    assert event.date == dt.date(2026, 11, 19)


def _file(player: str) -> str:
    return f"mail/2026-11-19-thursday-club-evening-{player.lower().replace(' ', '-')}.pdf"
