"""Matches: deals until one player reaches the match target (RULES.md section 9).

The score of a match is always derived from its deals, never kept on the side::

    >>> rules = RuleSet.preset("sixty-six")
    >>> state = score_match(rules, ("Anna", "Bert"), "Anna",
    ...                     [DealResult(None, 0, "draw"), DealResult("Bert", 2, "claim")])
    >>> state.score, state.carry, state.next_dealer
    ({'Anna': 0, 'Bert': 3}, 0, 'Anna')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Final

from tally.engine.decision import REASONS
from tally.engine.kernel import SCHNEIDER_WIN, SCHWARZ_WIN, match_won, other_player
from tally.engine.notation import DealRecord
from tally.engine.rules import RuleSet
from tally.errors import Joined, Message, Refused
from tally.i18n import N_

# The messages of a match's deals that do not fit together and of a result typed without its
# record (quick entry) that the rule set does not allow, one template each, marked for the
# catalogue (an error carries its template and values, worded in the reader's language from
# them: tally.errors.Message).
MSG_FIRST_DEALER: Final = N_('the first dealer "%(player)s" does not play in this match')
MSG_OVER_BEFORE: Final = N_("deal %(number)s: the match was already over after deal %(before)s")
MSG_NOT_FINISHED: Final = N_("deal %(number)s: deal %(before)s is not finished")
MSG_WINNER_NOT_PLAYING: Final = N_('deal %(number)s: "%(player)s" does not play in this match')
MSG_UNKNOWN_REASON: Final = N_('unknown reason "%(text)s" (reasons: %(reasons)s)')
MSG_DRAW_NO_WINNER: Final = N_("a drawn deal has no winner and no game points")
MSG_NO_DRAW: Final = N_(
    "under %(rules)s a deal cannot be drawn: the last trick or a failed close decides it"
)
MSG_NEEDS_WINNER: Final = N_("a deal decided by %(text)s needs a winner")
MSG_NOT_LAST_TRICK: Final = N_(
    "under %(rules)s an unclaimed deal ends %(end)s, not by the last trick"
)
MSG_NOT_HIGHER_TOTAL: Final = N_(
    "under %(rules)s an unclaimed deal ends %(end)s, not by the higher total"
)
MSG_WORTH: Final = N_(
    "a deal won by %(text)s is worth %(choices)s game point(s) under %(rules)s, not %(points)s"
)
MSG_SCORE_FORM: Final = N_(
    '"%(text)s" is not a match result: give both players\' game points '
    "in the match's order, as 7:3"
)
MSG_NO_WINNER: Final = N_(
    "%(score)s: nobody reached the match target of %(target)s game points "
    "(the winner has at least %(target)s)"
)
MSG_TWO_WINNERS: Final = N_(
    "%(score)s: only the winner reaches the match target of %(target)s "
    "game points (the loser has fewer)"
)
MSG_TOO_HIGH: Final = N_(
    "%(score)s: under %(rules)s a match ends at %(most)s game points at "
    "most (%(below)s before its last deal, which is worth 3 at most)"
)
#: What joins the numbers of game points a deal may be worth (``2 or 3``).
OR: Final = N_(" or ")
#: Every template of a message of this module.
MESSAGES: Final = (
    MSG_FIRST_DEALER,
    MSG_OVER_BEFORE,
    MSG_NOT_FINISHED,
    MSG_WINNER_NOT_PLAYING,
    MSG_UNKNOWN_REASON,
    MSG_DRAW_NO_WINNER,
    MSG_NO_DRAW,
    MSG_NEEDS_WINNER,
    MSG_NOT_LAST_TRICK,
    MSG_NOT_HIGHER_TOTAL,
    MSG_WORTH,
    MSG_SCORE_FORM,
    MSG_NO_WINNER,
    MSG_TWO_WINNERS,
    MSG_TOO_HIGH,
)

#: The reason of a line of a match result entered whole (:func:`match_result_lines`): not how
#: a deal ended (:class:`tally.engine.kernel.Reason`) but the game points a player scored in a match
#: kept on paper.
MATCH_RESULT: Final = "match-result"

_SCORE = re.compile(r"\s*([0-9]{1,4})\s*[:\-]\s*([0-9]{1,4})\s*")


@dataclass(frozen=True)
class DealResult:
    """How one deal ended: its winner (None for a draw or a deal still being played), its game
    points without the carry, and the reason (one of :class:`tally.engine.kernel.Reason`, or
    :data:`MATCH_RESULT` for a line of a match result entered whole)."""

    winner: str | None
    deal_points: int
    reason: str


@dataclass(frozen=True)
class DealScore:
    """One deal of a match as the score sheet shows it."""

    number: int
    dealer: str
    forehand: str
    winner: str | None
    reason: str
    deal_points: int
    carry_in: int
    game_points: int
    carry_out: int
    score_after: dict[str, int]


@dataclass(frozen=True)
class MatchState:
    """The running state of a match, derived from its deals."""

    players: tuple[str, str]
    target: int
    deals: tuple[DealScore, ...]
    score: dict[str, int]
    carry: int
    #: who deals the next deal; None once the match is over
    next_dealer: str | None
    winner: str | None
    in_progress: bool

    @property
    def over(self) -> bool:
        """True once a player has reached the match target."""
        return self.winner is not None


def score_match(
    rules: RuleSet, players: tuple[str, str], first_dealer: str, results: Sequence[DealResult]
) -> MatchState:
    """The match after ``results`` (in order). Only the last deal may be unfinished."""
    a, b = players
    if first_dealer not in players:
        raise Refused(Message(MSG_FIRST_DEALER, player=first_dealer))
    score = {a: 0, b: 0}
    carry = 0
    dealer = first_dealer
    deals: list[DealScore] = []
    winner: str | None = None
    in_progress = False
    for number, r in enumerate(results, start=1):
        if winner is not None:
            raise Refused(Message(MSG_OVER_BEFORE, number=number, before=number - 1))
        if in_progress:
            raise Refused(Message(MSG_NOT_FINISHED, number=number, before=number - 1))
        forehand = other_player(players, dealer)
        carry_in = carry
        gained = 0
        if r.reason == "incomplete":
            in_progress = True
        elif r.winner is None:
            if rules.carry == "accumulate":
                carry += 1
        else:
            if r.winner not in score:
                raise Refused(Message(MSG_WINNER_NOT_PLAYING, number=number, player=r.winner))
            gained = r.deal_points + carry
            score[r.winner] += gained
            carry = 0
            if match_won(score[r.winner], rules.match_target):
                winner = r.winner
        deals.append(
            DealScore(
                number,
                dealer,
                forehand,
                r.winner,
                r.reason,
                r.deal_points,
                carry_in,
                gained,
                carry,
                dict(score),
            )
        )
        dealer = _next_dealer(rules, r, dealer, forehand)
    return MatchState(
        players,
        rules.match_target,
        tuple(deals),
        score,
        carry,
        None if winner is not None else dealer,
        winner,
        in_progress,
    )


def _next_dealer(rules: RuleSet, r: DealResult, dealer: str, forehand: str) -> str:
    """Who deals after deal ``r``: the same dealer while the deal is unfinished; else, under
    the rule set's "winner" rule, the deal's winner (the dealer again after a drawn deal),
    and otherwise the forehand (the deal passes)."""
    if r.reason == "incomplete":
        return dealer
    if rules.next_dealer == "winner":
        return dealer if r.winner is None else r.winner
    return forehand


def check_quick_result(rules: RuleSet, winner: str | None, deal_points: int, reason: str) -> None:
    """Check a result typed without the deal's record (quick entry) against the rule set.

    ``deal_points`` are the game points without the carry. Raises :class:`Refused` naming
    what the rule set allows.
    """
    if reason not in REASONS or reason == "incomplete":
        raise Refused(
            Message(
                MSG_UNKNOWN_REASON,
                text=reason,
                reasons=", ".join(r for r in REASONS if r != "incomplete"),
            )
        )
    if reason == "draw":
        if winner is not None or deal_points:
            raise Refused(MSG_DRAW_NO_WINNER)
        if rules.unclaimed_end == "last-trick":
            raise Refused(Message(MSG_NO_DRAW, rules=rules.spec))
        return
    if winner is None:
        raise Refused(Message(MSG_NEEDS_WINNER, text=reason))
    allowed: tuple[int, ...]
    if reason in ("claim", "higher-total"):
        allowed = (1, SCHNEIDER_WIN, SCHWARZ_WIN)  # kernel.game_points
    elif reason == "false-claim":
        allowed = (2, 3) if rules.false_claim_points == "2or3" else (2,)
    elif reason == "failed-close":
        allowed = (2, 3)
    elif reason == "illegal-play":
        allowed = (rules.illegal_play_points,)
    else:  # last-trick
        allowed = (1,)
    if reason == "last-trick" and rules.unclaimed_end != "last-trick":
        raise Refused(Message(MSG_NOT_LAST_TRICK, rules=rules.spec, end=rules.unclaimed_end))
    if reason == "higher-total" and rules.unclaimed_end != "higher-total":
        raise Refused(Message(MSG_NOT_HIGHER_TOTAL, rules=rules.spec, end=rules.unclaimed_end))
    if deal_points not in allowed:
        raise Refused(
            Message(
                MSG_WORTH,
                text=reason,
                choices=Joined(OR, allowed),
                rules=rules.spec,
                points=deal_points,
            )
        )


def quick_points(rules: RuleSet, reason: str) -> tuple[int, ...]:
    """The game points (without the carry) a quick result may give for ``reason`` under
    ``rules``, as :func:`check_quick_result` accepts them (``(0,)`` for a draw; none for a
    reason the rule set does not have).

    >>> rules = RuleSet.parse("sixty-six")
    >>> quick_points(rules, "false-claim"), quick_points(rules, "last-trick")
    ((2, 3), ())
    """
    winner = None if reason == "draw" else "winner"
    fits = []
    for points in range(4):
        try:
            check_quick_result(rules, winner, points, reason)
        except Refused:
            continue
        fits.append(points)
    return tuple(fits)


def read_score(text: str) -> tuple[int, int]:
    """A match result as people write it, ``7:3`` (or ``7-3``): the two players' game points
    in the match's order. Raises :class:`Refused` for anything else.

    >>> read_score(" 7 : 3 ")
    (7, 3)
    """
    found = _SCORE.fullmatch(text)
    if found is None:
        raise Refused(Message(MSG_SCORE_FORM, text=text.strip()[:40]))
    return int(found[1]), int(found[2])


def check_match_result(rules: RuleSet, score: tuple[int, int]) -> int:
    """Check a match's whole result (game points of its two players, in its order) against
    the rule set: the winner has reached the match target (:func:`tally.engine.kernel.match_won`),
    the loser has not, and without a carry the winner has at most the target less one plus
    the 3 of a deal's best win. Returns the winner's place (0 or 1); raises :class:`Refused`
    naming the rule broken.

    >>> check_match_result(RuleSet.preset("sixty-six"), (3, 7))
    1
    """
    target = rules.match_target
    shown = f"{score[0]}:{score[1]}"
    won = [match_won(points, target) for points in score]
    if not any(won):
        raise Refused(Message(MSG_NO_WINNER, score=shown, target=target))
    if all(won):
        raise Refused(Message(MSG_TWO_WINNERS, score=shown, target=target))
    winner = won.index(True)
    most = target - 1 + SCHWARZ_WIN
    if rules.carry == "none" and score[winner] > most:
        raise Refused(
            Message(MSG_TOO_HIGH, score=shown, rules=rules.spec, most=most, below=target - 1)
        )
    return winner


def match_result_lines(players: tuple[str, str], score: tuple[int, int]) -> list[DealResult]:
    """A match result (checked by :func:`check_match_result`) as the lines
    :func:`score_match` adds up: the loser's game points first (none when 0), then the
    winner's, which end the match.

    >>> [(r.winner, r.deal_points) for r in match_result_lines(("Anna", "Bert"), (7, 3))]
    [('Bert', 3), ('Anna', 7)]
    """
    winner = 0 if score[0] > score[1] else 1
    order = (1 - winner, winner)
    return [DealResult(players[i], score[i], MATCH_RESULT) for i in order if score[i]]


def simulate_match(
    rules: RuleSet,
    players: tuple[str, str],
    first_dealer: str,
    rng: Random,
    *,
    tags: dict[str, str] | None = None,
) -> list[DealRecord]:
    """A whole match of random legal deals, as the records a scorer would have written.

    Dealers and carry follow the rule set (:func:`score_match`); each record carries the
    ``Carry`` it was played with and the ``Result`` the engine rules. For examples, tests and
    benchmarks.
    """
    from tally.engine.deal import Deal

    records: list[DealRecord] = []
    results: list[DealResult] = []
    state = score_match(rules, players, first_dealer, results)
    while not state.over:
        dealer = state.next_dealer
        assert dealer is not None
        forehand = other_player(players, dealer)
        deal = Deal.random(rules, rng, names=(forehand, dealer), carry=state.carry)
        deal.play_out_randomly(rng)
        ruling = deal.ruling()
        outcome = ruling.outcome
        assert outcome is not None
        result = "draw" if outcome.winner is None else f"{outcome.winner} {outcome.game_points}"
        record = deal.record()
        record.tags.update(tags or {})
        record.tags["Result"] = result
        records.append(record)
        results.append(DealResult(outcome.winner, ruling.deal_points, outcome.reason))
        state = score_match(rules, players, first_dealer, results)
    return records
