"""How a deal is decided (RULES.md sections 7 to 10), on frozen facts: the :class:`Ruling`.

:func:`decide` takes the :class:`~tally.engine.evidence.DealFacts` a deal noted and the violations
the record proves, and finds the earliest decisive event in play order: a violation, a claim, or
the end of the last trick. It never sees a live deal; a :class:`Ruling` carries only frozen
facts (:class:`DealState` says where the deal stands, for a recorder).
"""

from __future__ import annotations

import json.encoder
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from tally.engine.evidence import DealFacts, Violation, proven_violations
from tally.engine.kernel import CLAIM_AT, Reason, Rule, game_points
from tally.errors import Message, at_line
from tally.i18n import N_

#: No words (a ruling that explains nothing: the record stops before the deal ended, its
#: explanation ``""``).
NO_WORDS: Final = Message("")
#: Every outcome reason, as stored and printed.
REASONS: Final = tuple(Reason)


@dataclass(frozen=True)
class Outcome:
    """Who won the deal, the game points they score (carry included) and why."""

    winner: str | None
    game_points: int
    reason: Reason


@dataclass(frozen=True)
class ErrorEntry:
    """A record error: the line it is on (None when it is not on one line) and what is wrong
    (``message``, English; ``wording`` its template and values, :mod:`tally.errors`)."""

    line: int | None
    message: str
    wording: Message | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, line: int | None, text: str | Message) -> ErrorEntry:
        """The error ``text`` (an error's words) on ``line``."""
        return cls(line, str(text), text if isinstance(text, Message) else None)

    @property
    def words(self) -> Message:
        """The words of ``message``."""
        return self.wording or Message(self.message)

    @property
    def said(self) -> Message:
        """The whole error, its line before it: the words of ``str(entry)``."""
        return at_line(self.words, self.line or None)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


class DealState(NamedTuple):
    """Where a replayed deal stands, frozen: what a recorder shows and may offer next."""

    #: who acts next (None once the deal is over) and whether they ``"lead"`` or ``"follow"``
    to_move: str | None
    to_move_as: str | None
    #: the trick being played (or, once over, one past the last)
    trick: int
    is_over: bool
    all_tricks_played: bool
    claimed: bool
    closed: bool
    phase: int
    stock_left: int
    exchanges: int


@dataclass(frozen=True)
class Ruling:
    """Everything ``tally check`` says about one record."""

    file: str
    rules: str
    forehand: str
    dealer: str
    errors: tuple[ErrorEntry, ...]
    violations: tuple[Violation, ...]
    tricks: dict[str, int]
    points: dict[str, int]
    outcome: Outcome | None
    agreed: bool | None
    carry: int
    carry_in: int = 0
    #: game points of the outcome without the carry
    deal_points: int = 0
    #: plain words for the ruling, as a referee would say it, for a person in any language
    #: (:mod:`tally.errors`; :attr:`explanation` the English)
    wording: Message = NO_WORDS
    #: the agreed result as written in the Result tag
    result_tag: str | None = None
    #: where the deal stands after the record (None when the record could not start a deal)
    state: DealState | None = None

    @property
    def explanation(self) -> str:
        """Plain words for the ruling, in English ("" when there are none)."""
        return str(self.wording)

    @property
    def ok(self) -> bool:
        """True when the record has neither errors nor violations."""
        return not self.errors and not self.violations

    def as_json(self) -> dict[str, Any]:
        """The ruling in the shape NOTATION.md gives for ``tally check --json``."""
        return {
            "file": self.file,
            "rules": self.rules,
            "players": {"forehand": self.forehand, "dealer": self.dealer},
            "errors": [{"line": e.line, "message": e.message} for e in self.errors],
            "violations": [v.as_json() for v in self.violations],
            "tricks": self.tricks,
            "points": self.points,
            "outcome": None
            if self.outcome is None
            else {
                "winner": self.outcome.winner,
                "game_points": self.outcome.game_points,
                "reason": str(self.outcome.reason),
            },
            "agreed": self.agreed,
            "carry": self.carry,
        }

    def json_line(self) -> str:
        """:meth:`as_json` as ``json.dumps(..., ensure_ascii=False)`` writes it: one line of
        ``tally check --json``.

        A ruling with no error and no violation (the common one) is written here directly,
        its strings quoted by the JSON encoder's own function: a quarter of the time of
        making the dictionary and encoding it, per record checked. Any other goes through
        :meth:`as_json` and the encoder. (``tests/engine/test_cli.py`` compares the two over
        rulings of every kind, names with quotes, backslashes and control characters too.)
        """
        outcome = self.outcome
        if self.errors or self.violations or outcome is None:
            return _ENCODE(self.as_json())
        q = _QUOTE
        agreed = self.agreed
        winner = outcome.winner
        return (
            f'{{"file": {q(self.file)}, "rules": {q(self.rules)}, "players": '
            f'{{"forehand": {q(self.forehand)}, "dealer": {q(self.dealer)}}}, "errors": [], '
            f'"violations": [], "tricks": {_json_counts(self.tricks)}, '
            f'"points": {_json_counts(self.points)}, "outcome": {{"winner": '
            f'{"null" if winner is None else q(winner)}, "game_points": '
            f'{int(outcome.game_points)}, "reason": {q(str(outcome.reason))}}}, "agreed": '
            f"{'null' if agreed is None else 'true' if agreed else 'false'}, "
            f'"carry": {int(self.carry)}}}'
        )


def _json_counts(counts: dict[str, int]) -> str:
    """A player's count by name, as the JSON encoder writes the dictionary."""
    q = _QUOTE
    return "{" + ", ".join([f"{q(name)}: {int(n)}" for name, n in counts.items()]) + "}"


#: What ``json.dumps(value, ensure_ascii=False)`` does, with the encoder made once, and the
#: encoder's quoting of one string (the C function where Python has it).
_ENCODE: Final = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
_QUOTE: Final[Callable[[str], str]] = json.encoder.encode_basestring


#: No ``Remaining`` tag (read only).
_NO_REMAINING: Final[dict[int, int]] = {}


def rule_facts(
    facts: DealFacts,
    state: DealState,
    file: str = "",
    remaining: dict[int, int] | None = None,
    result: tuple[str | None, int] | None = None,
    result_tag: str | None = None,
) -> Ruling:
    """The ruling on a deal's facts: the violations noted in play and those the whole record
    proves (with the ``Remaining`` hands), then the decision."""
    violations = proven_violations(facts, remaining or _NO_REMAINING)
    if facts.violations:
        violations[:0] = facts.violations
    if len(violations) > 1:
        violations.sort(key=lambda v: v.seq)
    return decide(facts, state, violations, file, result, result_tag)


#: What decided a deal: the winner (None: nobody), the game points without the carry, the
#: reason and its explanation (a plain tuple: one is made for every record ruled).
_Verdict = tuple[int | None, int, Reason, Message]


_BAD_MARRIAGE: Final = (Rule.FALSE_MARRIAGE, Rule.MARRIAGE_NOT_ALLOWED)
_INCOMPLETE: Final[_Verdict] = (None, 0, Reason.INCOMPLETE, NO_WORDS)


# The explanation of a ruling, one template each, marked for the catalogue (a ruling carries
# its template and values: :attr:`Ruling.wording`).
WHY_ILLEGAL: Final = N_("%(player)s broke a rule (%(rule)s) in trick %(trick)s: %(message)s")
WHY_INCOMPLETE: Final = N_("the record stops before the deal ended")
WHY_NOT_ON_LEAD: Final = N_(
    "%(player)s claimed 66 while not on lead; only the player on lead may claim"
)
WHY_TOO_FEW: Final = N_("%(player)s claimed 66 with only %(points)s counted points")
WHY_BEFORE_CLOSER: Final = N_(
    "%(player)s reached %(points)s and claimed before %(closer)s, who had closed the stock"
)
WHY_CLAIM: Final = N_("%(player)s claimed 66 correctly with %(points)s counted points")
WHY_NEVER_CLAIMED: Final = N_("%(player)s closed and reached %(points)s but never claimed")
WHY_FAILED_CLOSE: Final = N_("%(player)s closed the stock and did not make 66 (%(points)s)")
WHY_PLAYED_OUT: Final = N_("the deal was played out with no correct claim")
WHY_LAST_TRICK: Final = N_("nobody claimed; %(player)s won the last trick")
WHY_EQUAL: Final = N_("the deal was played out with equal totals (%(points)s)")
WHY_HIGHER: Final = N_("nobody claimed; %(player)s has the higher total (%(high)s to %(low)s)")
#: Every template of an explanation.
EXPLANATIONS: Final = (
    WHY_ILLEGAL,
    WHY_INCOMPLETE,
    WHY_NOT_ON_LEAD,
    WHY_TOO_FEW,
    WHY_BEFORE_CLOSER,
    WHY_CLAIM,
    WHY_NEVER_CLAIMED,
    WHY_FAILED_CLOSE,
    WHY_PLAYED_OUT,
    WHY_LAST_TRICK,
    WHY_EQUAL,
    WHY_HIGHER,
)
#: The explanations without values, made once.
_WHY_INCOMPLETE: Final = Message(WHY_INCOMPLETE)
_WHY_PLAYED_OUT: Final = Message(WHY_PLAYED_OUT)


def _counted(facts: DealFacts, violations: list[Violation]) -> tuple[int, int]:
    """Both players' counted points: card points, with the marriages (false ones score
    nothing) and, for a deal played out and not closed, the last trick's bonus."""
    if facts.marriages:
        if violations:  # (false marriages score nothing)
            counted = (_points(facts, 0, violations), _points(facts, 1, violations))
        else:
            counted = facts.both_counted()
    elif facts.all_tricks_played and not facts.closed:  # the last trick's bonus, nothing else
        counted = facts.both_counted()
    else:  # (what both_counted gives: card points alone)
        counted = facts.card_points
    return counted


def _verdict(facts: DealFacts, violations: list[Violation], counted: tuple[int, int]) -> _Verdict:
    """The earliest decisive event: a violation before any claim, else the claim, else the
    deal played out; incomplete when none has happened yet."""
    first = violations[0] if violations else None
    claim = facts.claim
    if first is not None and (claim is None or first.seq < claim.seq):
        return (
            1 - facts.names.index(first.player),
            facts.rules.illegal_play_points,
            Reason.ILLEGAL_PLAY,
            Message(
                WHY_ILLEGAL,
                player=first.player,
                rule=Message(str(first.rule)),
                trick=first.trick,
                message=first.wording,
            ),
        )
    elif claim is not None:
        o = 1 - claim.player  # (the opponent's counted points: as counted, unless in doubt)
        return _claimed(facts, facts.counted(o) if violations else counted[o])
    elif facts.all_tricks_played:
        return _played_out(facts, counted)
    else:
        return _INCOMPLETE


def decide(
    facts: DealFacts,
    state: DealState,
    violations: list[Violation],
    file: str = "",
    result: tuple[str | None, int] | None = None,
    result_tag: str | None = None,
) -> Ruling:
    """The ruling: the earliest decisive event in play order decides (RULES.md section 10)."""
    names = facts.names
    counted = _counted(facts, violations)
    verdict = _verdict(facts, violations, counted)
    carry_in = facts.carry
    winner, won, reason, why = verdict
    if winner is not None:
        outcome = Outcome(names[winner], won + carry_in, reason)
        carry_out = 0
    elif reason is Reason.DRAW:
        outcome = _DRAWN
        carry_out = carry_in + 1 if facts.rules.carry == "accumulate" else carry_in
    else:
        outcome = _UNDECIDED
        carry_out = carry_in
        why = _WHY_INCOMPLETE
    agreed = None
    if result is not None:
        agreed = outcome.reason is not Reason.INCOMPLETE and result == (
            outcome.winner,
            outcome.game_points,
        )
    first_name, second_name = names
    tricks = facts.tricks
    return Ruling(
        file=file,
        rules=facts.rules.spec,
        forehand=first_name,
        dealer=second_name,
        errors=(),
        violations=tuple(violations),
        tricks={first_name: tricks[0], second_name: tricks[1]},
        points={first_name: counted[0], second_name: counted[1]},
        outcome=outcome,
        agreed=agreed,
        carry=carry_out,
        carry_in=carry_in,
        deal_points=won,
        wording=why,
        result_tag=result_tag,
        state=state,
    )


#: The outcomes with no winner (frozen, so every ruling may share them).
_DRAWN: Final = Outcome(None, 0, Reason.DRAW)
_UNDECIDED: Final = Outcome(None, 0, Reason.INCOMPLETE)


def _said(template: str, player: str, points: int) -> Message:
    """``template`` (an explanation of a player and their points) worded."""
    return Message(template, player=player, points=points)


def _points(facts: DealFacts, p: int, violations: list[Violation]) -> int:
    """Counted points of ``p`` without the marriages the record shows false or not allowed."""
    if not violations or not facts.marriages:
        return facts.counted(p)
    bad = {v.seq for v in violations if v.rule in _BAD_MARRIAGE}
    if not any(v.player == facts.names[p] and v.rule in _BAD_MARRIAGE for v in violations):
        return facts.counted(p)
    total = facts.counted(p, valid_only=False)
    if facts.tricks[p]:
        total -= sum(m.points for m in facts.marriages if m.player == p and m.seq in bad)
    return total


def _claimed(facts: DealFacts, opp_counted: int) -> _Verdict:
    """A deal ended by a claim (RULES.md sections 7 and 8); ``opp_counted``: the counted
    points of the claimer's opponent (:meth:`DealFacts.counted`)."""
    claim = facts.claim
    assert claim is not None
    names, rules = facts.names, facts.rules
    c, counted = claim.player, claim.points
    o = 1 - c
    if not claim.correct:
        points = 3 if rules.false_claim_points == "2or3" and facts.tricks[o] == 0 else 2
        if counted >= CLAIM_AT:
            why = Message(WHY_NOT_ON_LEAD, player=names[c])
        else:
            why = _said(WHY_TOO_FEW, names[c], counted)
        return (o, points, Reason.FALSE_CLAIM, why)
    closed_before = facts.closed and facts.close_seq < claim.seq
    if closed_before and c != facts.closer:
        return (
            c,
            3 if facts.close_opp_tricks == 0 else 2,
            Reason.FAILED_CLOSE,
            Message(WHY_BEFORE_CLOSER, player=names[c], points=counted, closer=names[facts.closer]),
        )
    if closed_before and rules.close_scored_at == "close":
        opp_points, opp_tricks = facts.close_opp_points, facts.close_opp_tricks
    else:
        opp_points, opp_tricks = opp_counted, facts.tricks[o]
    return (
        c,
        game_points(opp_points, opp_tricks),
        Reason.CLAIM,
        _said(WHY_CLAIM, names[c], counted),
    )


def _played_out(facts: DealFacts, points: tuple[int, int]) -> _Verdict:
    """A deal whose every trick was played with no claim (RULES.md sections 7 and 8)."""
    names, rules = facts.names, facts.rules
    if facts.closed:
        k = facts.closer
        k_points = facts.counted(k, with_bonus=False)
        if rules.unclaimed_end == "draw" and k_points >= CLAIM_AT:
            return (None, 0, Reason.DRAW, _said(WHY_NEVER_CLAIMED, names[k], k_points))
        return (
            1 - k,
            3 if facts.close_opp_tricks == 0 else 2,
            Reason.FAILED_CLOSE,
            _said(WHY_FAILED_CLOSE, names[k], k_points),
        )
    if rules.unclaimed_end == "draw":
        return (None, 0, Reason.DRAW, _WHY_PLAYED_OUT)
    if rules.unclaimed_end == "last-trick":
        w = facts.last_trick_winner
        return (w, 1, Reason.LAST_TRICK, Message(WHY_LAST_TRICK, player=names[w]))
    a, b = points
    if a == b:
        return (None, 0, Reason.DRAW, Message(WHY_EQUAL, points=a))
    winner = 0 if a > b else 1
    loser = 1 - winner
    return (
        winner,
        game_points(points[loser], facts.tricks[loser]),
        Reason.HIGHER_TOTAL,
        Message(WHY_HIGHER, player=names[winner], high=max(a, b), low=min(a, b)),
    )
