"""The match/event report adds up deal findings per player, without a database."""

from __future__ import annotations

from tally.analysis.findings import UNANALYSABLE, ClaimFinding, CloseFinding, DealAnalysis
from tally.analysis.report import report, report_lines


def _close(player: str, won_share: float, as_played: int) -> CloseFinding:
    return CloseFinding(
        player, 5, True, 1, 1.0 if won_share > 0.5 else -2.0, won_share, as_played, (), ()
    )


def test_closes_and_late_claims_are_added_up_per_player() -> None:
    players = ("Anna", "Bert")
    deals = [
        # Anna's unsound close: Bert scored 2 against it
        DealAnalysis("1.1", "sixty-six", players, _close("Anna", 0.0, -2), None, None, None),
        # Anna's sound close, won: nothing lost
        DealAnalysis("1.2", "sixty-six", players, _close("Anna", 1.0, 3), None, None, None),
        # Bert's unsound close that he still won (Anna erred): nothing lost as played
        DealAnalysis("1.3", "sixty-six", players, _close("Bert", 0.2, 1), None, None, None),
        # Bert's claim two tricks late that cost a game point
        DealAnalysis(
            "1.4",
            "sixty-six",
            players,
            None,
            None,
            ClaimFinding("Bert", 8, True, 6),
            None,
            claim_cost=1,
        ),
        DealAnalysis(
            "1.5",
            "sixty-six",
            players,
            None,
            None,
            None,
            None,
            note=f"{UNANALYSABLE}: nothing to analyse",
        ),
    ]
    r = report("match 1", deals, skipped=1, players=["Anna", "Bert"])
    anna, bert = r.players
    assert (r.analysed, r.skipped, r.unanalysable) == (5, 1, 1)
    assert (anna.deals, anna.closes, anna.sound_closes, anna.lost_to_unsound_closes) == (5, 2, 1, 2)
    assert (bert.closes, bert.sound_closes, bert.lost_to_unsound_closes) == (1, 0, 0)
    assert (bert.late_claims, bert.lost_to_late_claims) == (1, 1)
    assert "1 with record errors" in report_lines(r)[0]
