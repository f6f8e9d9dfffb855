"""``tally event`` and ``tally standings`` end to end: a 5-player round robin run through the
command line, its deals recorded trick by trick, imported and entered as results, and the
final standings as a table, CSV and JSON; club evenings and a season."""

from __future__ import annotations

from pathlib import Path

from tests.json_support import strict_json
from tests.store_support import DEALER_CLAIMS, DRAW_DEAL, FOREHAND_CLAIMS, lines, ok, refused

# sixty-six conformance case 0011: the dealer claims with 72 against 31: 2 game points
DEALER_SCHNEIDER = ("QH", "JC 9D / QS 9H / 9C JD / 10C KD / 20 QC AH / KH AC / 10S AS / 10H JH 66")


def record(deal: tuple[str, str], dealer: str, forehand: str) -> str:
    """One of the deals of tests/store_support.py as a .deal record with these players."""
    return (
        f'[Rules "sixty-six"]\n[Dealer "{dealer}"]\n[Forehand "{forehand}"]\n'
        f'[Trump "{deal[0]}"]\n\n'
        + "".join(f"{i}. {line}\n" for i, line in enumerate(lines(deal), start=1))
    )


def quick(url: str, match: int, *deals: str) -> None:
    """Results typed as ``"Anna 3"``, ``"Anna 2 false-claim"`` or ``"draw"``."""
    for deal in deals:
        if deal == "draw":
            ok(url, "deal", "quick", str(match), "--draw")
            continue
        winner, points, *reason = deal.split()
        ok(
            url,
            "deal",
            "quick",
            str(match),
            "--winner",
            winner,
            "--points",
            points,
            "--reason",
            reason[0] if reason else "claim",
        )


def start_round(url: str, number: int) -> dict[int, int]:
    """Start a round of event 1: its match by table."""
    data = strict_json(ok(url, "event", "round", "1", str(number), "--start", "--json"))
    assert data["started"] and data["number"] == number
    return {p["table"]: p["match_ids"][0] for p in data["pairings"]}


FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]

# rank, player, played, won, lost, match points (2 a win, a bye as a win), game points won,
# conceded, difference, schneider, schwarz, head-to-head, game-point difference.
#
# Anna: beat Bert 7:0 (3 3 1), lost to Carl 2:7 (her 2 a false claim), beat Dora 7:6 (2 3 2)
#   and Emil 9:0 (3 3 3); bye in round 1. 25 : 13, schneider 2, schwarz 2 + 1 + 3.
# Bert: beat Emil 8:0 (3 3 schwarz, 2 schneider, recorded trick by trick), lost to Anna 0:7,
#   beat Carl 7:0 (2 2 3), lost to Dora 0:7; bye in round 3. 15 : 14.
# Carl: beat Dora 7:5 (3, 1 + the carried 1, 2), lost to Emil 4:8 (3 + the carried 1),
#   beat Anna 7:2 (2 2 3), lost to Bert 0:7; bye in round 5. 18 : 22.
# Dora: lost to Carl 5:7 (2, then 3 by a failed close), to Emil 0:7 and Anna 6:7 (3 3),
#   beat Bert 7:0 (3 2 2); bye in round 2. 18 : 21.
# Emil: lost to Bert 0:8, beat Carl 8:4 (3 3 schwarz, 2 schneider, imported), beat Dora 7:0
#   (3 3 1), lost to Anna 0:9; bye in round 4. 15 : 21.
# Bert, Emil and Carl are level on 6 match points: among them Bert beat both (4 match
# points), Emil beat Carl (2), Carl nobody (0).
EXPECTED = [
    (1, "Anna", 4, 3, 1, 8, 25, 13, 12, 2, 6, 0, 12),
    (2, "Bert", 4, 2, 2, 6, 15, 14, 1, 3, 3, 4, 1),
    (3, "Emil", 4, 2, 2, 6, 15, 21, -6, 1, 4, 2, -6),
    (4, "Carl", 4, 2, 2, 6, 18, 22, -4, 3, 3, 0, -4),
    (5, "Dora", 4, 1, 3, 4, 18, 21, -3, 3, 3, 0, -3),
]


def test_a_five_player_round_robin_through_the_command_line(db_url: str, tmp_path: Path) -> None:
    ok(db_url, "player", "add", *FIVE)
    out = ok(
        db_url,
        "event",
        "create",
        "Autumn cup",
        *FIVE,
        "--kind",
        "round-robin",
        "--date",
        "2026-10-01",
        "--points-per-win",
        "2",
        "--bye",
        "win",
        "--tiebreaks",
        "head-to-head, game-point-difference",
    )
    assert out == (
        'Created round robin 1 "Autumn cup" on 2026-10-01, sixty-six, 5 players.\n'
        "5 rounds; start one with `tally event round 1 1 --start`.\n"
    )
    shown = ok(db_url, "event", "round", "1", "1")
    assert "Bye: Anna" in shown and "scheduled" in shown
    assert [
        line.split() for line in shown.splitlines() if line.strip().startswith(("1 ", "2 "))
    ] == [["1", "Bert", "Emil", "Bert", "scheduled"], ["2", "Carl", "Dora", "Carl", "scheduled"]]

    # Round 1: Bert v Emil trick by trick, Carl v Dora as results.
    r1 = start_round(db_url, 1)
    assert r1 == {1: 1, 2: 2}
    refused(db_url, "event", "round", "1", "1", "--start", match="was started already")
    for deal, dealer in (
        (DEALER_CLAIMS, "Bert"),
        (FOREHAND_CLAIMS, "Emil"),
        (DEALER_SCHNEIDER, "Bert"),
    ):
        assert f"{dealer} deals" in ok(db_url, "deal", "start", "1", deal[0])
        for line in lines(deal):
            played = ok(db_url, "deal", "play", "1", *line.split())
    assert "Match 1 is over: Bert wins, Bert 8, Emil 0." in played
    quick(db_url, r1[2], "Dora 2", "Carl 3", "draw", "Carl 1", "Dora 3 failed-close", "Carl 2")

    # Round 2: Emil v Carl imported from .deal records, Anna v Bert as results.
    r2 = start_round(db_url, 2)
    files = []
    for number, (deal, dealer, forehand) in enumerate(
        [
            (DRAW_DEAL, "Emil", "Carl"),
            (DEALER_CLAIMS, "Carl", "Emil"),
            (DEALER_CLAIMS, "Emil", "Carl"),
            (FOREHAND_CLAIMS, "Carl", "Emil"),
            (DEALER_SCHNEIDER, "Emil", "Carl"),
        ],
        start=1,
    ):
        path = tmp_path / f"deal{number}.deal"
        path.write_text(record(deal, dealer, forehand), encoding="utf-8")
        files.append(str(path))
    imported = ok(db_url, "deal", "import", str(r2[1]), *files)
    assert imported.endswith(f"Match {r2[1]} is over: Emil wins, Emil 8, Carl 4.\n")
    quick(db_url, r2[2], "Anna 3", "Anna 3", "Anna 1")

    r3 = start_round(db_url, 3)
    quick(db_url, r3[1], "Carl 2", "Anna 2 false-claim", "Carl 2", "Carl 3")
    quick(db_url, r3[2], "Emil 3", "Emil 3", "Emil 1")
    r4 = start_round(db_url, 4)
    quick(db_url, r4[1], "Dora 3", "Dora 3", "Anna 2", "Anna 3", "Anna 2")
    quick(db_url, r4[2], "Bert 2", "Bert 2", "Bert 3")
    r5 = start_round(db_url, 5)
    quick(db_url, r5[1], "Dora 3", "Dora 2", "Dora 2")
    quick(db_url, r5[2], "Anna 3", "Anna 3", "Anna 3")
    refused(db_url, "event", "round", "1", "6", "--start", match="rounds 1 to 5, not 6")

    # The final standings, three ways.
    data = strict_json(ok(db_url, "standings", "1", "--json"))
    assert (data["title"], data["stage"], data["tiebreaks"]) == (
        "Autumn cup",
        "final",
        ["head-to-head", "game-point-difference"],
    )
    assert (data["event"]["kind"], data["event"]["date"], data["event"]["rules"]) == (
        "round-robin",
        "2026-10-01",
        "sixty-six",
    )
    assert [
        (
            r["rank"],
            r["player"],
            r["played"],
            r["won"],
            r["lost"],
            r["match_points"],
            r["game_points_won"],
            r["game_points_conceded"],
            r["game_point_difference"],
            r["schneider_wins"],
            r["schwarz_wins"],
            *r["tiebreak_values"],
        )
        for r in data["rows"]
    ] == EXPECTED

    # Each player sat out one round (a bye worth a win, 2 match points): the percentage
    # counts it as a match, so Anna's 8 match points are 8 / (5 x 2) = 80 %.
    percent = {"Anna": 80, "Bert": 60, "Emil": 60, "Carl": 60, "Dora": 40}
    assert [(r["percentage"], r["byes"], r["running"]) for r in data["rows"]] == [
        (percent[r["player"]], 1, 0) for r in data["rows"]
    ]
    assert (data["rank_by"], data["provisional"]) == ("points", False)
    assert ok(db_url, "standings", "1", "--csv") == (
        "rank,player,played,won,lost,match_points,percentage,game_points_won,"
        "game_points_conceded,game_point_difference,schneider_wins,schwarz_wins,byes,running,"
        "head-to-head,game-point-difference\n"
        + "".join(
            ",".join(map(str, [*row[:6], percent[row[1]], *row[6:11], 1, 0, *row[11:]])) + "\n"
            for row in EXPECTED
        )
    )

    table = ok(db_url, "standings", "autumn cup")
    assert table.split("\n")[0].rstrip() == "Autumn cup, 2026-10-01, sixty-six, round robin: final"
    rows = [
        line.split()
        for line in table.splitlines()
        if line.split()[:1] in (["1"], ["2"], ["3"], ["4"], ["5"])
    ]
    # The terminal shows the byes and the percentage; game-point-difference repeats the Diff
    # column, so only head-to-head gets a tiebreak column.
    assert rows == [
        [
            *map(str, row[:5]),
            "1",
            str(row[5]),
            f"{percent[row[1]]}.0",
            str(row[6]),
            str(row[7]),
            f"+{row[8]}" if row[8] > 0 else str(row[8]),
            str(row[9]),
            str(row[10]),
            str(row[11]),
        ]
        for row in EXPECTED
    ]
    head = next(line.split() for line in table.splitlines() if line.split()[:1] == ["#"])
    assert head == [
        "#",
        "Player",
        "Pl",
        "W",
        "L",
        "Bye",
        "MP",
        "%",
        "GP+",
        "GP-",
        "Diff",
        "Schn",
        "Schw",
        "H2H",
    ]
    assert (
        "Ranked by MP (match points), then H2H head-to-head, Diff; players still level "
        "share the rank." in table
    )
    assert "(MP / ((Pl + Bye) x 2 MP a win))" in table

    # Pairings and the cross-table of the finished event.
    assert ok(db_url, "event", "round", "1", "3", "--csv") == (
        "round,table,first,second,first_dealer,match,result,status\n"
        "3,1,Carl,Anna,Carl,5,7:2,played\n"
        "3,2,Dora,Emil,Dora,6,0:7,played\n"
        "3,,Bert,,,,,bye\n"
    )
    r3_json = strict_json(ok(db_url, "event", "round", "1", "3", "--json"))
    assert (r3_json["bye"], r3_json["bye_scores"]) == ("Bert", True)
    cross = strict_json(ok(db_url, "event", "cross", "1", "--json"))
    ranked = [row[1] for row in EXPECTED]
    assert cross["players"] == ranked  # in the order of the standings
    at = {p: i for i, p in enumerate(ranked)}
    anna = cross["cells"][at["Anna"]]
    assert [anna[at[p]] for p in FIVE] == [[], ["7:0"], ["2:7"], ["7:6"], ["9:0"]]
    assert cross["cells"][at["Emil"]][at["Carl"]] == ["8:4"]
    # The byes of the comments above: Anna round 1, Bert 3, Carl 5, Dora 2, Emil 4.
    assert [cross["byes"][at[p]] for p in FIVE] == [[1], [3], [5], [2], [4]]
    shown = ok(db_url, "event", "cross", "1")
    assert "Anna     x" in shown and "bye R3: the player sat out round 3." in shown
    assert [
        line.split()[-2:] for line in shown.splitlines() if line.split()[:1] in (["1"], ["2"])
    ] == [["bye", "R1"], ["bye", "R3"]]
    assert ok(db_url, "event", "cross", "1", "--csv").splitlines()[:2] == [
        "no,player,1,2,3,4,5,bye",
        "1,Anna,x,7:0,9:0,2:7,7:6,bye R1",
    ]


def test_club_evenings_and_a_season(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl")
    assert ok(
        db_url,
        "event",
        "create",
        "Thursday club",
        "Anna",
        "--date",
        "2026-01-08",
        "--rules",
        "sixty-six match_target=3",
    ) == (
        'Created club evening 1 "Thursday club" on 2026-01-08, sixty-six match_target=3, '
        "1 player.\nStart its matches with `tally match start A B --dealer A --event 1`.\n"
    )
    assert ok(
        db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna", "--event", "thursday club"
    ).startswith(
        "Started match 1 (event 1): Anna v Bert, sixty-six match_target=3, to 3 game points."
    )
    ok(db_url, "match", "start", "Bert", "Anna", "--dealer", "Anna", "--event", "1")
    quick(db_url, 1, "Anna 3")
    quick(db_url, 2, "Bert 2", "Bert 1")
    ok(db_url, "event", "create", "Thursday club", "--date", "2026-01-15")
    ok(db_url, "match", "start", "Carl", "Bert", "--dealer", "Carl", "--event", "2")
    quick(db_url, 3, "Carl 3", "Carl 3", "Carl 1")
    refused(
        db_url,
        "match",
        "start",
        "Carl",
        "Bert",
        "--dealer",
        "Carl",
        "--event",
        "Thursday club",
        match='several events are called "Thursday club"',
    )
    refused(db_url, "event", "round", "1", "1", match="club evening")
    listed = ok(db_url, "event", "list")
    assert (
        "    1  2026-01-08  Thursday club  (club evening, sixty-six match_target=3, "
        "2 players, 2 matches)" in listed
    )
    shown = ok(db_url, "event", "show", "1")
    assert "    1. Anna\n    2. Bert\n" in shown
    assert "event 1" in ok(db_url, "match", "list", "--event", "1")

    # Anna and Bert beat each other 3:0 (Anna's 3 a schwarz, Bert's 2 a schneider); Carl beat
    # Bert 7:0 a week later. All three have a match point and one head-to-head win; the
    # difference decides. Up to 2026-01-10 Anna and Bert are level on everything.
    season = strict_json(
        ok(
            db_url,
            "standings",
            "--season",
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-31",
            "--json",
            "--rank-by",
            "points",
        )
    )
    assert [
        (
            r["rank"],
            r["player"],
            r["won"],
            r["lost"],
            r["game_points_won"],
            r["game_points_conceded"],
        )
        for r in season["rows"]
    ] == [(1, "Carl", 1, 0, 7, 0), (2, "Anna", 1, 1, 3, 3), (3, "Bert", 1, 2, 3, 10)]
    assert season["events"] == [1, 2] and season["rank_by"] == "points"
    # By percentage (a season's default): Carl 1 of 1 (100 %), Anna 1 of 2, Bert 1 of 3.
    season = strict_json(ok(db_url, "standings", "--season", "--json"))
    assert [(r["player"], round(r["percentage"], 1)) for r in season["rows"]] == [
        ("Carl", 100.0),
        ("Anna", 50.0),
        ("Bert", 33.3),
    ]
    assert season["rank_by"] == "percentage"
    assert ok(db_url, "standings", "--season", "--to", "2026-01-10", "--csv").splitlines()[1:] == [
        "1,Anna,2,1,1,1,50,3,3,0,0,1,0,0,1,0,3,1,1",
        "1,Bert,2,1,1,1,50,3,3,0,1,0,0,0,1,0,3,1,1",
    ]
    refused(
        db_url,
        "standings",
        "--season",
        "--rank-by",
        "luck",
        match='the ranking must be points or percentage, not "luck"',
    )
    table = ok(db_url, "standings", "--season")
    assert table.startswith("Season: club evenings (2 event(s), 1 match point(s) a win)")
    refused(db_url, "standings", match="give an EVENT, or --season")
    refused(db_url, "standings", "1", "--season", match="not both")
    refused(db_url, "standings", "--season", "--from", "Jan 1", match="is not a date")
    refused(db_url, "standings", "1", "--json", "--csv", match="not both")
    refused(db_url, "event", "create", "X", "--kind", "ladder", match="kind of event")
    refused(db_url, "event", "create", "X", "--tiebreaks", "luck", match="unknown tiebreak")
    refused(db_url, "standings", "7", match='no event "7"')


def test_the_already_started_refusals_read_alike_for_every_kind(db_url: str) -> None:
    four = ["Anna", "Bert", "Carl", "Dora"]
    ok(db_url, "player", "add", *four, "Emil")
    kinds = [
        ["--kind", "round-robin"],
        ["--kind", "swiss", "--rounds", "1"],
        ["--kind", "knockout", "--seed", "x"],
        ["--kind", "groups", "--groups", "2", "--advance", "1"],
    ]
    for number, kind in enumerate(kinds, start=1):
        ok(db_url, "event", "create", f"E{number}", *four, *kind)
        ok(db_url, "event", "round", str(number), "1", "--start")
        message = refused(
            db_url,
            "event",
            "round",
            str(number),
            "1",
            "--start",
            match=f'round 1 of event {number} "E{number}" was started already',
        )
        assert message.startswith("tally: round 1 of event"), message
        if kind[1] != "knockout":  # a knockout takes entries until the first player is out
            refused(
                db_url,
                "event",
                "add",
                str(number),
                "Emil",
                match=f'event {number} "E{number}" has started: no player can join (',
            )


def test_a_club_evening_lists_players_who_played_no_match_after_those_who_did(db_url: str) -> None:
    ok(db_url, "player", "add", "Anna", "Bert", "Carl", "Dora")
    ok(db_url, "event", "create", "Club", "Anna", "Bert", "Carl", "Dora")
    ok(db_url, "match", "start", "Anna", "Bert", "--dealer", "Anna", "--event", "Club")
    quick(db_url, 1, "Bert 3 claim", "Bert 3 claim", "Bert 3 claim")
    for args in (
        ["standings", "Club"],
        ["standings", "Club", "--rank-by", "points"],
        ["standings", "--season"],
    ):
        rows = [
            line.split()[:3]
            for line in ok(db_url, *args).splitlines()
            if line.strip()[:1].isdigit()
        ]
        assert rows == [
            ["1", "Bert", "1"],
            ["2", "Anna", "1"],
            ["3", "Carl", "0"],
            ["3", "Dora", "0"],
        ], args
