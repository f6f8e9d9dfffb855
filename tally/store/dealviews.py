"""The views of a deal being recorded: :class:`DealView`, :class:`MatchView`,
:class:`PlayResult`, :class:`ViolationView`, :class:`Position` and how a deal lies on the
table (:class:`TableView`, :class:`TrickView`, :class:`MoveView`).

Part of :mod:`tally.store.views` (which re-exports them and documents them all), kept apart so
that recording a card (the plain path of ``tally deal play``) does not build the dataclasses
of every other view: each frozen dataclass costs its own generated methods at import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tally.errors import Refused
from tally.match import MATCH_RESULT


@dataclass(frozen=True)
class ViolationView:
    """A violation the record proves (RULES.md section 10)."""

    trick: int
    player: str
    rule: str
    message: str


@dataclass(frozen=True)
class Position:
    """Where a scorer saw a match: its last deal (``number``, 0 before the first deal) after
    ``actions`` recorded actions. Written ``MATCH.DEAL:ACTIONS``, ``1.3:12``.

    Every write that appends to a match (start a deal, record, undo) may carry the position
    the scorer saw; the store refuses the write when the match has moved since
    (:class:`tally.errors.DealMoved`): two scorers on one match never interleave. ``last``,
    the last action seen (not written in the text form), also catches another scorer who
    undid an entry and recorded a different one in its place (the count is the same again):
    the interactive recorder passes it (:attr:`DealView.expectation`); a position typed as
    text (``--at``) counts actions only.

    >>> Position.parse("1.3:12")
    Position(match_id=1, number=3, actions=12)
    >>> str(Position(2, 0, 0))
    '2.0:0'
    """

    match_id: int
    number: int
    actions: int
    last: str | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.match_id}.{self.number}:{self.actions}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read ``MATCH.DEAL:ACTIONS`` as printed by ``tally deal play`` and ``start``."""
        m = _POSITION.fullmatch(text.strip())
        if m is None:
            raise Refused(f'"{text[:40]}" is not a position: give it as printed after the '
                          'last entry, MATCH.DEAL:ACTIONS (e.g. 1.3:12)')
        return cls(int(m.group(1)), int(m.group(2)), int(m.group(3)))


_POSITION = re.compile(r"([0-9]{1,9})\.([0-9]{1,9}):([0-9]{1,9})")


@dataclass(frozen=True)
class MoveView:
    """A declaration on a trick line (:class:`tally.ruling.Move`), cards as tokens: an
    exchange (``card`` given for ``taken``, None when unknown), a marriage (``points``,
    ``card`` shown and led), a close (``after_trick``: right after the line's trick, before
    the draws) or a claim."""

    player: str
    kind: str  # "exchange", "marriage", "close" or "claim"
    card: str | None = None
    taken: str | None = None
    points: int = 0
    after_trick: bool = False


@dataclass(frozen=True)
class TrickView:
    """One trick line of a deal: who led, the two cards (None where not played yet), who
    won it (None while it is being played) and what was declared on it."""

    number: int
    leader: str
    lead: str | None
    follow: str | None
    winner: str | None
    moves: tuple[MoveView, ...] = ()


@dataclass(frozen=True)
class TableView:
    """A recorded deal as it lies on the table (:class:`tally.ruling.Layout`): its trick
    lines in order, the card led to the trick being played, the card lying face up under the
    stock (the turn-up, the exchange card after an exchange; None once it is gone or when
    unknown), who closed the stock, whether it is exhausted and the cards left in it."""

    tricks: tuple[TrickView, ...]
    lead: str | None
    face_up: str | None
    closed_by: str | None
    exhausted: bool
    stock_left: int
    #: who leads (or led) the trick being played: who claims by default
    leader: str
    #: the record stops right after the trick whose draws exhaust the stock (its winner may
    #: still close before drawing)
    last_draw: bool = False


@dataclass(frozen=True)
class DealView:
    """One deal of a match as the score sheet shows it, derived from what is stored.

    ``points`` (counted points) is None while the deal is being played, unless a referee
    asked for it: players count in their heads (RULES.md section 8).
    """

    id: int
    match_id: int
    number: int
    kind: str  # "recorded" or "quick"
    dealer: str
    forehand: str
    turn_up: str | None
    winner: str | None
    reason: str
    deal_points: int
    carry_in: int
    game_points: int
    carry_out: int
    score_after: dict[str, int]
    explanation: str
    violations: tuple[ViolationView, ...]
    tricks: dict[str, int]
    points: dict[str, int] | None
    actions: int
    #: who acts next, "lead" or "follow"; None once the deal is over (a claim or the last
    #: trick) or for a quick deal
    to_move: str | None
    to_move_as: str | None
    trick: int
    #: every trick is played and nobody claimed: a claim may still follow the last trick
    claimable: bool = False
    #: the last action recorded (``"AS"``), None before the first
    last_action: str | None = None
    #: how the deal lies on the table: given for the last deal of a :class:`MatchView` and
    #: of a :class:`PlayResult` when it is recorded (None for a quick deal and elsewhere)
    table: TableView | None = None

    @property
    def finished(self) -> bool:
        """True once the deal has an outcome (the next deal may start)."""
        return self.reason != "incomplete"

    @property
    def position(self) -> str:
        """Where the deal stands, to be passed back with the next write (:class:`Position`)."""
        return str(Position(self.match_id, self.number, self.actions))

    @property
    def expectation(self) -> Position:
        """The position with the last action seen: what a recorder passes with its entry."""
        return Position(self.match_id, self.number, self.actions, self.last_action)


@dataclass(frozen=True)
class MatchView:
    """A match and its score, derived with :func:`tally.match.score_match`."""

    id: int
    players: tuple[str, str]
    rules: str
    first_dealer: str
    created_at: str
    event_id: int | None
    target: int
    deals: tuple[DealView, ...]
    score: dict[str, int]
    carry: int
    next_dealer: str | None
    winner: str | None
    over: bool
    #: the deal being played (no outcome yet), if any
    current_deal: int | None
    #: the round and table of a round robin's schedule the match was created from
    round: int | None = None
    table: int | None = None

    @property
    def position(self) -> str:
        """Where the match stands (:class:`Position`): its last deal, ``1.0:0`` before any."""
        return str(self.expectation)

    @property
    def expectation(self) -> Position:
        """:attr:`position` with the last action seen (:attr:`DealView.expectation`)."""
        if not self.deals:
            return Position(self.id, 0, 0)
        return self.deals[-1].expectation

    @property
    def entered_whole(self) -> bool:
        """True when the match's result was entered whole (:meth:`Store.match_result`), not
        deal by deal."""
        return any(d.reason == MATCH_RESULT for d in self.deals)


@dataclass(frozen=True)
class PlayResult:
    """What recording (or undoing) actions did, for the scorer to be told at once."""

    deal: DealView
    match: MatchView
    #: the items stored by this command (for an undo: the item removed)
    tokens: tuple[str, ...]
    #: violations the record proves now and did not before this command
    new_violations: tuple[ViolationView, ...]
    #: the outcome is new or different from the one before this command
    ruling_changed: bool
