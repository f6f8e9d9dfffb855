"""What the store hands out: plain frozen dataclasses, never ORM rows or open sessions.

Printing, templates and ``--json`` output all read these; :func:`as_json` turns any of them
into JSON-ready dicts. This module imports nothing heavy, so it is safe to import anywhere.
The views of a deal being recorded come first (:class:`DealView`, :class:`MatchView`,
:class:`PlayResult`, :class:`ViolationView`, :class:`Position`, and how a deal lies on the
table: :class:`TableView`, :class:`TrickView`, :class:`MoveView`), then those of players,
events and the audit log.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Final

from tally.engine.match import MATCH_RESULT
from tally.errors import Message, Refused
from tally.i18n import N_

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    # only named in an annotation: recording a card need not import the tiebreaks
    from tally.events.formats import EventFormat
    from tally.events.tiebreaks import StandingRow
    from tally.store.transactions import TableWriter


#: A field of a view for a person only: its words (a :class:`~tally.errors.Message`, worded in
#: any language) beside the English the view keeps for ``--json`` (:func:`as_json` leaves
#: it out).
FOR_PEOPLE: Final = {"json": False}
#: A field :func:`as_json` writes its own way, not as it is.
OWN_JSON: Final = {"json": False}
#: No words (a deal or a violation made without them).
NO_WORDS: Final = Message("")


@dataclass(frozen=True)
class ViolationView:
    """A violation the record proves (RULES.md section 10): ``message`` in English,
    ``wording`` its words for a person."""

    trick: int
    player: str
    rule: str
    message: str
    wording: Message = field(default=NO_WORDS, compare=False, repr=False, metadata=FOR_PEOPLE)


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
            raise Refused(
                Message(
                    N_(
                        '"%(text)s" is not a position: give it as printed after the last '
                        "entry, MATCH.DEAL:ACTIONS (e.g. 1.3:12)"
                    ),
                    text=text[:40],
                )
            )
        return cls(int(m.group(1)), int(m.group(2)), int(m.group(3)))


_POSITION = re.compile(r"([0-9]{1,9})\.([0-9]{1,9}):([0-9]{1,9})")

#: what a tap's id may be: what the table page makes (32 hex digits), with room for others
_TAP = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: a tap id that is not one (sent by something other than the page)
NOT_A_TAP = N_('"%(tap)s" is not a tap\'s id: 8 to 64 letters, digits, "-" or "_"')


@dataclass(frozen=True)
class LastDeal:
    """The last deal of match ``match_id``, whichever it is when the write runs
    (``store.deals.play(LastDeal(3), "KS")``: what a table's phone records into)."""

    match_id: int


@dataclass(frozen=True)
class Tap:
    """A change as a page sends it: ``id``, made by the page for that one tap, so that the
    store keeps it once however often the page sends it again; ``after``, the tap sent before
    it from the same page when this one was made while that one still waited to be sent (the
    phone was offline): then the store checks this tap from where that one left the match,
    not from the position the page showed.

    >>> Tap.read("5f0c2a9e41b7d3c8", "")
    Tap(id='5f0c2a9e41b7d3c8', after=None)
    >>> Tap.read("", "") is None
    True
    """

    id: str
    after: str | None = None

    @classmethod
    def read(cls, tap: str, after: str) -> Tap | None:
        """The tap a form sends (``tap``, ``after``), None without an id (a page without
        its script); refused when either is not an id."""
        if not tap:
            return None
        for text in (tap, after):
            if text and _TAP.fullmatch(text) is None:
                raise Refused(Message(NOT_A_TAP, tap=text[:40]))
        return cls(tap, after or None)

    @classmethod
    def of_form(cls, seen: str, what: str) -> Tap:
        """The tap of a form sent by a page without its script: the form as the page showed
        it (``seen``, new each time a page is shown) and what was tapped on it (``what``), so
        that the same button sent again from the same page (the browser's Back, a form sent
        again after an error page) counts once, and another button is a tap of its own.

        >>> Tap.of_form("3f9a", "KS") == Tap.of_form("3f9a", "KS") != Tap.of_form("3f9a", "AS")
        True
        """
        import hashlib

        return cls("form-" + hashlib.sha256(f"{seen}\n{what}".encode()).hexdigest()[:40])


@dataclass(frozen=True)
class MoveView:
    """A declaration on a trick line (:class:`tally.engine.ruling.Move`), cards as tokens: an
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
    """A recorded deal as it lies on the table (:class:`tally.engine.ruling.Layout`): its trick
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
    #: the words of ``explanation`` for a person (:mod:`tally.errors`)
    wording: Message = field(default=NO_WORDS, compare=False, repr=False, metadata=FOR_PEOPLE)

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
    """A match and its score, derived with :func:`tally.engine.match.score_match`."""

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
        """True when the match's result was entered whole (``store.deals.match_result``), not
        deal by deal."""
        return any(d.reason == MATCH_RESULT for d in self.deals)


@dataclass(frozen=True)
class Over:
    """How a match ended, once it takes no more writes (:func:`tally.store.over.why_over`):
    ``kind`` is ``finished``, ``forfeit``, ``void`` or ``not-needed``, ``words`` why, for
    people (``this match is over: Anna wins 3:0 by forfeit (Bert withdrew)``)."""

    kind: str
    words: Message
    #: a bracket pairing played best of N that is decided: how (``Anna won the pairing 2:0
    #: (best of 3)``)
    pairing: Message | None = None
    #: a no-show decided it (:mod:`tally.store.noshows`): it takes no deals from anyone
    #: until the no-show is taken back
    no_show: bool = False

    def shuts_out(self, table: TableWriter | None, reopened: bool = False) -> bool:
        """True when the match takes no write from ``table`` (None: the command line or the
        director): a match not needed or decided by a no-show none from anyone; a finished,
        forfeited or void one none from its table, but a finished one the director
        ``reopened`` to it."""
        if self.kind == "not-needed" or self.no_show:
            return True
        return table is not None and not (self.kind == "finished" and reopened)


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


@dataclass(frozen=True)
class PlayerView:
    """A stored player: number, name, the number of matches they play in, the other names
    they go by (``tally player alias``), the events they are entered in and their categories
    (``tally player category``)."""

    id: int
    name: str
    matches: int = 0
    aliases: tuple[str, ...] = ()
    events: tuple[int, ...] = ()
    categories: tuple[str, ...] = ()
    #: shown by their initials on the published site (``tally player private``)
    private: bool = False


@dataclass(frozen=True)
class MatchSummary:
    """A line of ``tally match list``."""

    id: int
    players: tuple[str, str]
    rules: str
    deals: int
    score: dict[str, int]
    winner: str | None
    over: bool
    created_at: str
    event_id: int | None
    round: int | None = None
    table: int | None = None


@dataclass(frozen=True)
class AuditView:
    """An audit entry: who changed what, when, and whether it was reversed."""

    id: int
    at: str
    scorer: str
    command: str
    entity: str
    entity_id: int
    summary: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    reversed_by: int | None
    #: the event and the match the change belongs to (None: none, or several)
    event_id: int | None = None
    match_id: int | None = None
    #: the change in words: a message template and its values (``{"template": ...,
    #: "params": {...}}``), None for an entry written before words were kept
    words: dict[str, Any] | None = None
    #: the name of the event, the players of the match (as they are called now)
    event_name: str | None = None
    match_players: tuple[str, ...] = ()

    @property
    def wording(self) -> Message:
        """The change as a :class:`~tally.errors.Message` (the summary as written, for an entry
        written before words were kept): worded by :func:`tally.vocabulary.change_words`."""
        return message_of(self.words) or Message(self.summary)


@dataclass(frozen=True)
class AuditPage:
    """A page of the audit log, newest first: ``older`` is the entry the next (older) page is
    read before (None: this is the last page), ``newer`` the one the page before it is read
    before (0: the newest entries; None: this page starts with them)."""

    entries: tuple[AuditView, ...]
    older: int | None
    newer: int | None


def message_of(data: Any) -> Message | None:
    """The :class:`~tally.errors.Message` that :func:`message_data` made JSON-ready (None for
    anything else).

    >>> str(message_of(message_data(Message("%(a)s and %(b)s", a="x", b=Message("y")))))
    'x and y'
    """
    if not isinstance(data, dict) or not isinstance(data.get("template"), str):
        return None
    raw = data.get("params")
    params = {
        str(k): message_of(v) or v if isinstance(v, dict) else v
        for k, v in (raw.items() if isinstance(raw, dict) else ())
    }
    return Message(data["template"], **params)


def message_data(words: Message) -> dict[str, Any]:
    """A :class:`~tally.errors.Message` as JSON-ready data (a value that is a message
    too)."""
    return {
        "template": words.template,
        "params": {
            k: message_data(v) if isinstance(v, Message) else v for k, v in words.params.items()
        },
    }


@dataclass(frozen=True)
class EventPlayerView:
    """A player of an event: their seed (number in the schedule, from 1), and whether they
    withdrew (and when, ISO 8601)."""

    seed: int
    name: str
    withdrawn_at: str | None = None
    #: the rating the player was seeded by (an event seeded by rating, once its seeding is
    #: fixed; None: unrated or not seeded by rating)
    seed_rating: float | None = None

    @property
    def withdrawn(self) -> bool:
        """True once the player has withdrawn from the event."""
        return self.withdrawn_at is not None


@dataclass(frozen=True)
class EventView:
    """A club evening (``kind="club"``), a round robin (``kind="round-robin"``), a Swiss event
    (``"swiss"``), a knockout
    with lives (``"knockout"``) or groups then knockout (``"groups"``; their format is read
    with ``store.knockouts.view``).

    ``rules`` is the rule set every match of the event is played under. Scoring: a won match
    earns ``match_points_per_win``; a bye earns nothing (``bye="none"``) or as much as a won
    match (``bye="win"``); a withdrawn player's unplayed matches are each a won match for the
    opponent (``withdrawal="forfeit"``) or drop out of the standings (``"void"``). Players
    level on match points (on their percentage: ``rank_by="percentage"``) are told apart by
    ``tiebreaks``, in order. ``rounds`` is the number of rounds of a round robin's schedule or
    of a Swiss event (0 for a club evening), ``rounds_started`` the rounds whose matches were
    made. ``language`` is what its sheets and readable output speak (``"de"``, ``"en"``;
    ``""``: the locale decides, see :mod:`tally.i18n`).
    """

    id: int
    name: str
    date: date
    kind: str
    rules: str
    players: tuple[EventPlayerView, ...]
    double: bool
    matches_per_pairing: int
    match_points_per_win: float
    bye: str
    withdrawal: str
    tiebreaks: tuple[str, ...]
    rounds: int
    rounds_started: tuple[int, ...]
    matches: int
    created_at: str
    rank_by: str = "points"
    language: str = ""
    #: a double round robin plays its first cycle's last two rounds the other way round
    swap_last_rounds: bool = False
    #: a Swiss event's accelerated pairings: ``"none"`` or ``"baku"``
    acceleration: str = "none"
    #: a Swiss event's floats repeated from the round before: ``"allow"`` or ``"avoid"``
    #: (:func:`tally.events.swiss.pair_round`)
    repeated_floats: str = "allow"
    #: a Swiss event's limits on requested byes: how many a player may ask for (None: no
    #: limit), none in its last ``no_absence_last`` rounds (:mod:`tally.store.absences`)
    max_absences: int | None = None
    no_absence_last: int = 0
    #: a Swiss event's pairs kept apart: until round ``apart_until`` (None: every round),
    #: giving way before they move the bye (``apart_keeps_bye``)
    apart_until: int | None = None
    apart_keeps_bye: bool = False
    #: what a bye or a forfeit counts for in the Buchholz tiebreaks: ``"as-scored"`` or
    #: ``"virtual-opponent"`` (:data:`tally.events.tiebreaks.UNPLAYED`)
    unplayed: str = "as-scored"
    #: what the seeding list follows: ``"entry"`` or ``"rating"`` (:mod:`tally.store.seeding`)
    seed_by: str = "entry"
    #: the seeding list is fixed (by rating, when the first round was started)
    seeded: bool = False
    #: what a requested bye (an announced absence) scores: ``"half"`` or ``"zero"``
    absence_score: str = "half"
    #: the absences announced, as (round, player's name), in round order
    #: (:mod:`tally.store.absences`)
    absences: tuple[tuple[int, str], ...] = ()
    #: the no-shows recorded (a one-round forfeit), as (round, player's name), in round
    #: order (:mod:`tally.store.noshows`)
    no_shows: tuple[tuple[int, str], ...] = ()
    #: only players checked in at the treasurer's desk are paired (:mod:`tally.store.treasurer`)
    check_in: bool = False
    #: every format option kept in the ``events`` row, by its key (the table of
    #: :mod:`tally.events.formats.options`, a format's own included): what ``--json`` and the
    #: event file write of them (``--json`` by key beside the fields: :func:`as_json`)
    options: Mapping[str, Any] = field(
        default_factory=dict, compare=False, metadata={"json": False}
    )
    #: a team event's boards per team and what ranks its teams (``"bummerl"`` or
    #: ``"match-points"``: :mod:`tally.events.formats.team`)
    boards: int | None = None
    team_rank: str = "bummerl"
    #: a race between two teams to this many Bummerl won (None: a team round robin)
    first_to: int | None = None
    #: a team event's teams, by position: their names and their players in board order
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def format(self) -> EventFormat:
        """What its kind of event is and does (:mod:`tally.events.formats`)."""
        from tally.events.formats import format_of

        return format_of(self.kind)


@dataclass(frozen=True)
class PairingMatchView:
    """One match of a pairing: its number, who dealt first, the score in game points of the
    pairing's first and second player (``"7:3"``, also while it is played) and its winner
    once it is over."""

    match_id: int
    first_dealer: str
    result: str
    winner: str | None
    over: bool
    #: False for a match of a bracket pairing played best of N after the one that decided
    #: it: it is never played (:func:`tally.store.over.why_over`)
    needed: bool = True


@dataclass(frozen=True)
class PairingView:
    """A table of a round: ``first`` meets ``second`` (as listed by the Berger table) and
    ``first_dealer`` deals first in the first match (the dealer alternates from match to
    match of a pairing).

    ``status`` is ``"scheduled"`` (no match made yet), ``"playing"``, ``"played"`` (every
    match over), ``"forfeit"`` (a player withdrew, or did not come to this round: the
    unplayed matches are won by ``forfeit_winner``), ``"void"`` (a player withdrew, or both
    did not come: the unplayed matches do not count) or ``"annulled"`` (a round robin's player
    withdrew before half of their games: the pairing counts for nobody, its matches played
    included).
    """

    table: int
    first: str
    second: str
    first_dealer: str
    matches: tuple[PairingMatchView, ...]
    status: str
    withdrawn: tuple[str, ...] = ()
    forfeit_winner: str | None = None
    #: who did not come to this round's match (a one-round forfeit: ``status`` is
    #: ``"forfeit"``, or ``"void"`` when neither came; :mod:`tally.store.noshows`)
    no_show: tuple[str, ...] = ()

    @property
    def match_ids(self) -> tuple[int, ...]:
        """The numbers of the matches made for this pairing."""
        return tuple(m.match_id for m in self.matches)

    @property
    def results(self) -> tuple[str, ...]:
        """The results of the finished matches (``"7:3"``, first player first)."""
        return tuple(m.result for m in self.matches if m.over)


@dataclass(frozen=True)
class RoundView:
    """One round of a round robin's schedule or of a Swiss event (its pairings as stored once
    started, as they would be made before): its pairings in table order and who sits out.

    ``started`` once the round's matches were made; ``bye_scores`` when the bye earns match
    points (the event scores a bye as a win, the round was started and the player sitting
    out had not withdrawn). ``draw`` says how a knockout's round was made (``"drawn by lot,
    seed 2026"``, ``"bracket: semi-final"``); None for a round robin. ``rounds``: how many
    rounds the event has; None while nobody can know (a knockout's rounds by lot go on
    until its final stage or its last player).
    """

    event_id: int
    event: str
    number: int
    rounds: int | None
    started: bool
    pairings: tuple[PairingView, ...]
    bye: str | None
    bye_scores: bool
    draw: Message | None = None
    #: the players who announced they miss the round: not paired, each with a requested bye
    #: scoring ``absence_points`` match points (:mod:`tally.store.absences`)
    absent: tuple[str, ...] = ()
    absence_points: float = 0.0


@dataclass(frozen=True)
class StandingsView:
    """Standings of an event (``event`` set) or of a season (``event`` None; ``events`` are
    the events it adds up, between ``date_from`` and ``date_to``, both included).

    ``rows`` are :class:`tally.events.tiebreaks.StandingRow`, best first; their ``tiebreak_values``
    follow ``tiebreaks``. ``stage`` says where an event stands (``"round 3 of 5"``,
    ``"final"``) and is empty for a club evening or a season. ``withdrawn`` lists the players
    who withdrew from the event (from any of the season's events). ``rank_by`` says what the
    players are ranked by before the tiebreaks (``points`` or ``percentage``); ``provisional``
    is true while some match of the standings is still being played (the rows with
    ``running`` above 0).
    """

    title: str
    event: EventView | None
    events: tuple[int, ...]
    date_from: date | None
    date_to: date | None
    tiebreaks: tuple[str, ...]
    match_points_per_win: float
    rows: tuple[StandingRow, ...]
    stage: str | Message
    withdrawn: tuple[str, ...]
    rank_by: str = "points"
    provisional: bool = False
    #: the category these standings are of (``tally standings --category``; None: everyone):
    #: each row's ``rank`` is its rank in the category, ``overall_rank`` in the field
    category: str | None = None
    #: a round robin's players struck out (withdrawn before half of their games, every result
    #: annulled: :func:`tally.events.withdrawals.annulled`), in seed order: in no row, as FIDE
    #: lists them below the ranked players
    struck_out: tuple[str, ...] = ()
    #: the words of ``title`` for a person (a season's; None: a name, said as it is)
    title_wording: Message | None = field(
        default=None, compare=False, repr=False, metadata=FOR_PEOPLE
    )
    #: the words of ``stage`` for a person (None: a knockout's, said as it is stored)
    stage_wording: Message | None = field(
        default=None, compare=False, repr=False, metadata=FOR_PEOPLE
    )


@dataclass(frozen=True)
class CrossTableView:
    """The grid of a round robin: ``cells[i][j]`` holds ``players[i]``'s results against
    ``players[j]`` in game points, their own first (``"7:3"``), one per finished match (in
    the order played), ``"+"``/``"-"`` for a match won/lost by forfeit; the diagonal is
    empty. The same shape as :class:`tally.sheets.CrossTable`. ``byes[i]`` are the rounds
    ``players[i]`` sat out (a round robin's byes; empty for a club evening)."""

    event: EventView
    players: tuple[str, ...]
    cells: tuple[tuple[tuple[str, ...], ...], ...]
    byes: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class RoundCellView:
    """A player's round in a round-by-round table: the opponent (None: sat out or did not
    play), the result (the player's game points first, ``"7:3"``; ``"+"``/``"-"`` won or
    lost by forfeit; several matches of a pairing joined by spaces; ``"bye"``; ``""`` not
    played or not over), the match points it earned and the player's total after it."""

    opponent: str | None
    result: str
    points: float
    total: float


@dataclass(frozen=True)
class RoundByRoundView:
    """An event round by round: ``players`` in the order of the standings (``ranks``
    theirs), ``cells[i][r]`` player ``i``'s round ``r + 1`` of the ``rounds`` started."""

    event: EventView
    rounds: int
    players: tuple[str, ...]
    ranks: tuple[int, ...]
    cells: tuple[tuple[RoundCellView, ...], ...]

    def scores_before(self, number: int) -> dict[str, float]:
        """Each player's match points before round ``number``."""
        return {
            p: (row[number - 2].total if 2 <= number <= self.rounds + 1 else 0.0)
            for p, row in zip(self.players, self.cells, strict=True)
        }


def as_json(obj: Any) -> Any:
    """A view (or a list of views) as plain JSON-ready data."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {
            f.name: as_json(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if f.metadata.get("json", True)
        }
        if isinstance(obj, DealView):
            out["finished"] = obj.finished
            out["position"] = obj.position
        elif isinstance(obj, EventPlayerView):
            out["withdrawn"] = obj.withdrawn
        elif isinstance(obj, PairingView):
            out["match_ids"] = list(obj.match_ids)
        elif isinstance(obj, EventView):  # (the formats' options no field names, by key)
            out |= {k: as_json(v) for k, v in obj.options.items() if k not in out}
        return out
    if isinstance(obj, list | tuple):
        return [as_json(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): as_json(v) for k, v in obj.items()}
    if isinstance(obj, datetime | date):
        return obj.isoformat()
    if isinstance(obj, Message):
        return str(obj)
    return obj


@dataclass(frozen=True)
class SwapView:
    """Two players swapped between the tables of a round (or to be: ``audit_id`` None), what
    needs the director's confirming (``warnings``: a rematch, a pair kept apart, the bye
    given twice) and what is only said (``notes``: unequal match
    points at a table of a Swiss event)."""

    event_id: int
    round: int
    first: str
    second: str
    warnings: tuple[Message, ...]
    notes: tuple[Message, ...]
    audit_id: int | None
    #: the tables ``first`` and ``second`` sat at before the swap (None: the bye); each
    #: goes to the other's
    tables: tuple[int | None, int | None] = (None, None)


def rematches(rounds: Sequence[RoundView], number: int) -> list[tuple[str, str]]:
    """The pairings of round ``number`` whose players met in an earlier round of
    ``rounds``."""
    met = {frozenset((p.first, p.second)) for r in rounds if r.number < number for p in r.pairings}
    return [
        (p.first, p.second)
        for r in rounds
        if r.number == number
        for p in r.pairings
        if frozenset((p.first, p.second)) in met
    ]
