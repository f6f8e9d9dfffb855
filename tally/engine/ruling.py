"""Rulings: reading a deal record's tags, replaying it and ruling on it, as ``tally check`` does.

:func:`rule` reads the tags of a :class:`~tally.engine.notation.DealRecord`, replays its trick lines
through a :class:`~tally.engine.deal.Deal` (:func:`tally.engine.replay.replay`), then has
:mod:`tally.engine.evidence` look at the whole record once more for what only the record as a whole
proves (RULES.md section 12) and :mod:`tally.engine.decision` find the earliest decisive event in
play order (section 10). This is the engine's public face: :class:`Ruling` and its parts are
re-exported from :mod:`tally.engine.decision`.

Choices where the rules are silent, made as a club referee would:

- Record errors stop the replay at the first one: after an impossible event nothing later can
  be trusted, so only that error is reported, with its line.
- An exchange whose exchange card is also the turn-up (a turn-up of the trump nine in
  Sixty-Six) is a false exchange: the card lies face up, not in the exchanger's hand.
- A ``Result`` tag is agreed when it names the winner and game points of the ruling; a record
  that stops before the deal ended (``incomplete``) agrees with no result.
- After a false exchange the card lying face up is unknown (section 12): it is one the
  exchanger held. Whoever takes it (the loser of the last draw, or a later exchanger) may play
  one card more from outside their dealt hand than they drew face down, possibly one dealt to
  the exchanger; the exchanger taking it back gains nothing. A duty to follow is proven
  against the exchanger's dealt hand only if it holds whichever dealt card went face up.
- Numbers in a record are ASCII digits: ``Carry`` at most 999, a ``Result`` at most four
  digits, a trick number at most four (see :mod:`tally.engine.notation`).
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from tally.engine.cards import Card
from tally.engine.cards import shorten as _short
from tally.engine.decision import REASONS, DealState, ErrorEntry, Outcome, Ruling, rule_facts
from tally.engine.evidence import Violation
from tally.engine.kernel import Reason, Rule
from tally.engine.notation import (
    REQUIRED_TAGS,
    CardItem,
    ClaimItem,
    CloseItem,
    DealRecord,
    MarriageItem,
    SwapItem,
    TrickLine,
    read_deal,
    read_hands,
    read_result,
    read_tags,
)
from tally.engine.replay import ReplayVisitor, replay
from tally.engine.rules import RuleSet, check_in_deck
from tally.errors import Message, NotationError, RecordError, RulesError
from tally.i18n import N_

#: The version of the engine's rulings: bump it whenever a record is ruled differently (a
#: rule fixed, a reason changed). Databases key their cache of deal rulings on it, so a cache
#: filled before the change is re-derived when opened; ``tests/engine/test_rulings_version.py``
#: holds a digest of the rulings of every conformance case and example and fails until this
#: number is bumped with it.
RULINGS_VERSION: Final = 2

if TYPE_CHECKING:  # (loaded when a record needs the full replay: see _rule)
    from tally.engine.deal import Deal

__all__ = [
    "MESSAGES",
    "REASONS",
    "RULINGS_VERSION",
    "DealState",
    "ErrorEntry",
    "Layout",
    "Move",
    "Outcome",
    "Reason",
    "Rule",
    "Ruling",
    "TrickSummary",
    "Violation",
    "lay_out",
    "rule",
    "rule_deal",
    "rule_text",
    "summarize",
]

# The messages of a record's tags that cannot be, one template each, marked for the catalogue
# (an error carries its template and values, worded in the reader's language
# from them: tally.errors.Message).
MSG_MISSING_TAG: Final = N_('the required tag "%(tag)s" is missing')
MSG_EMPTY_NAME: Final = N_("a player's name is empty")
MSG_REMAINING_TWICE: Final = N_("Remaining lists %(player)s twice")
MSG_CARRY_NUMBER: Final = N_('Carry must be a whole number of game points, not "%(text)s"')
MSG_CARRY_TOO_MANY: Final = N_('Carry "%(text)s" is more than %(most)s game points')
MSG_UNKNOWN_PLAYER: Final = N_("unknown-player (%(tag)s names %(player)s)")
#: Every template of a message of this module.
MESSAGES: Final = (
    MSG_MISSING_TAG,
    MSG_EMPTY_NAME,
    MSG_REMAINING_TWICE,
    MSG_CARRY_NUMBER,
    MSG_CARRY_TOO_MANY,
    MSG_UNKNOWN_PLAYER,
)
#: What a ruling says of a record it cannot rule on (its explanation).
_HAS_ERRORS: Final = Message(N_("the record has errors"))


@dataclass(frozen=True)
class Move:
    """What a player declared on a trick line, other than a card: an exchange (``card`` the
    exchange card given, ``taken`` the card that lay face up, None when unknown), a marriage
    (``points``, ``card`` the card shown and led), a close (``after_trick``: right after the
    line's trick, before the draws; else before the lead) or a claim."""

    player: str
    kind: str  # "exchange", "marriage", "close" or "claim"
    card: Card | None = None
    taken: Card | None = None
    points: int = 0
    after_trick: bool = False

    @property
    def text(self) -> str:
        """The move as a referee's sheet says it: ``exchanges 9H for the turn-up QH``."""
        if self.kind == "exchange":
            what = f"for the turn-up {self.taken}" if self.taken is not None else "for the turn-up"
            return f"exchanges {self.card} {what}"
        if self.kind == "marriage" and self.card is not None:
            return f"declares {self.points} in {self.card.suit.title} with {self.card}"
        return "closes the stock" if self.kind == "close" else "claims 66"


@dataclass(frozen=True)
class TrickSummary:
    """One trick line of a record, as a referee's sheet shows it."""

    number: int
    leader: str
    lead: Card | None
    follow: Card | None
    winner: str | None
    #: what was declared on the line, in order: ``("Anna", "exchanges 9H for QH")``
    declarations: tuple[tuple[str, str], ...]
    #: counted points and tricks of each player after the line
    points: dict[str, int]
    tricks: dict[str, int]
    #: the declarations as :class:`Move` (the same, in the same order)
    moves: tuple[Move, ...] = ()


class _Summaries(ReplayVisitor):
    """The replay visitor that notes what happened on each trick line."""

    def __init__(self) -> None:
        self.lines: list[TrickSummary] = []
        self._leader = ""
        self._tricks_before = 0
        self._lead: Card | None = None
        self._follow: Card | None = None
        # Who closes after the trick (its winner) or claims is known only once the line is
        # replayed: those moves get their player at the end of the line ("" until then).
        self._moves: list[Move] = []
        #: the draws after the last line replayed are still to be made
        self.draw_pending = False

    def begin_line(self, deal: Deal, line: TrickLine) -> None:
        names = deal.names
        leader = deal.leader
        follower = names[1] if leader == names[0] else names[0]
        self._leader = leader
        self._tricks_before = sum(deal.tricks)
        lead: Card | None = None
        follow: Card | None = None
        moves: list[Move] = []
        for item in line.items:
            if isinstance(item, CardItem):
                if lead is None:
                    lead = item.card
                else:
                    follow = item.card
            elif isinstance(item, MarriageItem):
                lead = item.card
                moves.append(Move(leader, "marriage", item.card, None, item.value))
            elif isinstance(item, SwapItem):
                # before the first card the leader exchanges; after it, the follower
                moves.append(
                    Move(
                        leader if lead is None else follower,
                        "exchange",
                        deal.exchange_card,
                        deal.face_up,
                    )
                )
            elif isinstance(item, CloseItem):
                # before the leader's card the leader closes; after the trick, its winner
                moves.append(
                    Move(leader if follow is None else "", "close", after_trick=follow is not None)
                )
            elif isinstance(item, ClaimItem):
                moves.append(Move("", "claim"))
        self._lead, self._follow, self._moves = lead, follow, moves

    def end_line(self, deal: Deal, line: TrickLine) -> None:
        names = deal.names
        winner = deal.last_trick_winner if sum(deal.tricks) > self._tricks_before else None
        claimer = deal.claimer
        moves = tuple(
            m
            if m.player
            else dataclasses.replace(
                m,
                player=claimer
                if m.kind == "claim" and claimer is not None
                else winner or self._leader,
            )
            for m in self._moves
        )
        lead = self._lead
        if any(
            isinstance(a, MarriageItem) and isinstance(b, ClaimItem)
            for a, b in itertools.pairwise(line.items)
        ):
            lead = None  # the declarer claimed at once: the marriage card was not led
        self.draw_pending = deal.draw_pending
        self.lines.append(
            TrickSummary(
                line.number,
                self._leader,
                lead,
                self._follow,
                winner,
                tuple((m.player, m.text) for m in moves),
                {n: deal.counted_points(n, valid_only=True) for n in names},
                {n: deal.tricks_won(n) for n in names},
                moves,
            )
        )


@dataclass(frozen=True)
class Layout:
    """A deal as it lies on the table after its record: each trick line, the card led to the
    trick being played, the card lying face up under the stock (the turn-up, or the exchange
    card after an exchange; None when it is gone or unknown), who closed, whether the stock is
    exhausted, how many cards it still holds, and who leads (or led) the trick being played:
    the one who claims by default. ``last_draw``: the record stops right after the trick whose
    draws exhaust the stock (they are counted as made; its winner may still close first)."""

    tricks: tuple[TrickSummary, ...]
    lead: Card | None
    face_up: Card | None
    closer: str | None
    exhausted: bool
    stock_left: int
    leader: str
    last_draw: bool = False


def lay_out(record: DealRecord) -> Layout | None:
    """How ``record``'s deal lies on the table now (:class:`Layout`); None for a record with
    errors."""
    visitor = _Summaries()
    ruling, deal = _rule(record, "", visitor)
    if deal is None or ruling.errors:
        return None
    return Layout(
        tuple(visitor.lines),
        deal.lead,
        deal.face_up,
        deal.closer,
        deal.exhausted,
        deal.stock_left,
        deal.leader,
        visitor.draw_pending and deal.exhausted,
    )


def summarize(record: DealRecord, file: str = "") -> tuple[Ruling, list[TrickSummary]]:
    """The ruling on ``record`` and a summary of each of its trick lines."""
    visitor = _Summaries()
    ruling, deal = _rule(record, file, visitor)
    summaries = visitor.lines
    if deal is None or ruling.errors:
        return ruling, summaries
    # A marriage proved false later never scores: take it out of the points after it.
    false_at = {v.seq for v in ruling.violations if v.rule is Rule.FALSE_MARRIAGE}
    for m in deal.marriages:
        if m.seq not in false_at or not m.allowed:
            continue
        name = deal.names[m.player]
        for i, t in enumerate(summaries):
            if t.number >= m.trick and t.tricks[name]:
                points = dict(t.points)
                points[name] -= m.points
                summaries[i] = dataclasses.replace(t, points=points)
    return ruling, summaries


def rule_text(text: str, file: str = "") -> Ruling:
    """Read a record from text and rule on it; notation errors become record errors."""
    try:
        record = read_deal(text, source=file)
    except NotationError as exc:
        partial = DealRecord(read_tags(text), source=file)
        spec = " ".join(partial.tags.get("Rules", "sixty-six").split()) or "sixty-six"
        return _error_ruling(file, partial, [ErrorEntry.of(exc.line, exc.bare)], spec)
    return rule(record, file)


def rule(record: DealRecord, file: str = "") -> Ruling:
    """Replay ``record`` and rule on it (NOTATION.md, ``tally check``)."""
    return _rule(record, file, None)[0]


def rule_replayed(record: DealRecord) -> tuple[Ruling, Deal | None]:
    """:func:`rule`, and the deal as replayed (None when it could not start): what
    :func:`rule_next_card` continues from."""
    return _rule(record, "", None)


#: the tags whose reading a card played next would have to check again (:func:`rule_next_card`)
_CHECKED_TAGS = ("Hands", "Remaining", "Result")


def rule_next_card(record: DealRecord, deal: Deal, card: Card) -> Ruling | None:
    """The ruling on ``record`` with ``card`` played next, continuing ``deal`` (``record``
    replayed: :func:`rule_replayed`) instead of replaying the record again: the ruling
    :func:`rule` gives on the record with the card added. None when no real deal could
    contain the card there. Only for a record without ``Hands``, ``Remaining`` or
    ``Result`` tags (raises ``ValueError`` otherwise)."""
    if any(tag in record.tags for tag in _CHECKED_TAGS):
        raise ValueError("rule_next_card: a record with Hands, Remaining or Result")
    if deal.claimed or deal.all_tricks_played:
        return None
    after = deal.copy()
    try:
        after.push(int(card))
        if after.draw_pending and not after.claimed:
            after.draw()
    except RecordError:
        return None
    spec = " ".join(record.tags.get("Rules", "sixty-six").split()) or "sixty-six"
    ruling = rule_facts(after.facts(), after.state(), record.source, {}, None, None)
    return ruling if ruling.rules == spec else dataclasses.replace(ruling, rules=spec)


def rule_deal(deal: Deal, file: str = "") -> Ruling:
    """Rule on a deal played through the :class:`Deal` API (what it knows so far)."""
    return deal.ruling(file)


def _rule(
    record: DealRecord, file: str, visitor: ReplayVisitor | None
) -> tuple[Ruling, Deal | None]:
    """The ruling on ``record``, and the deal replayed (None when it could not start)."""
    file = file or record.source
    tags = record.tags
    lines = record.tag_lines
    # NOTATION.md: the preset, then the overrides as given, one space apart.
    written = tags.get("Rules")
    spec = "sixty-six" if written is None else " ".join(written.split()) or "sixty-six"
    errors = (
        []
        if "Dealer" in tags and "Forehand" in tags and "Trump" in tags
        else [
            ErrorEntry.of(None, Message(MSG_MISSING_TAG, tag=name))
            for name in REQUIRED_TAGS
            if name not in tags
        ]
    )
    try:
        rules = RuleSet.parse(spec)
    except RulesError as exc:
        errors.append(ErrorEntry.of(lines.get("Rules"), exc.wording))
    if errors:
        return _error_ruling(file, record, errors, spec), None
    try:
        forehand, dealer, trump, carry = _start_args(tags, lines, rules)
    except RecordError as exc:
        return _error_ruling(file, record, [ErrorEntry.of(exc.line, exc.bare)], spec), None
    from tally.engine.deal import Deal

    try:
        deal = Deal.start(
            rules, dealer=dealer, forehand=forehand, trump=trump, carry=carry, keep_history=False
        )
    except RecordError as exc:
        return _error_ruling(
            file, record, [ErrorEntry.of(_players_line(lines), exc.bare)], spec
        ), None
    try:
        remaining, result = _read_deal_tags(record, deal)
    except RecordError as exc:
        return _error_ruling(file, record, [ErrorEntry.of(exc.line, exc.bare)], spec, deal), deal
    error = replay(deal, record.tricks, visitor)
    if error is None and deal.draw_pending and not deal.claimed:
        deal.draw()  # the record stops after a trick: at the table both have drawn already
    if error is None and remaining:
        try:
            deal.check_remaining(remaining)
        except RecordError as exc:
            error = ErrorEntry.of(lines.get("Remaining"), exc.bare)
    if error is not None:
        return _error_ruling(file, record, [error], spec, deal), deal
    ruling = rule_facts(deal.facts(), deal.state(), file, remaining, result, tags.get("Result"))
    if ruling.rules != spec:
        ruling = dataclasses.replace(ruling, rules=spec)
    return ruling, deal


def _start_args(
    tags: dict[str, str], lines: dict[str, int], rules: RuleSet
) -> tuple[str, str, Card, int]:
    """Forehand, dealer, trump and carry from the tags, checked, each error on its tag's line
    (:meth:`Deal.start` checks the rest)."""
    forehand, dealer = tags["Forehand"].strip(), tags["Dealer"].strip()
    try:
        trump = Card.parse(tags["Trump"])
        check_in_deck(trump, rules)
    except (NotationError, RecordError) as exc:
        raise RecordError(exc.bare, lines.get("Trump"), tag="Trump") from None
    carry = _tag_count(tags["Carry"], lines.get("Carry")) if "Carry" in tags else 0
    if not forehand or not dealer:
        tag = "Forehand" if not forehand else "Dealer"
        raise RecordError(
            MSG_EMPTY_NAME, _players_line(lines) if not forehand else lines.get("Dealer"), tag=tag
        )
    return forehand, dealer, trump, carry


def _players_line(lines: dict[str, int]) -> int | None:
    """The line of the later of the ``Forehand`` and ``Dealer`` tags, for messages."""
    return max(lines.get("Forehand", 0), lines.get("Dealer", 0)) or None


def _read_deal_tags(
    record: DealRecord, deal: Deal
) -> tuple[dict[int, int], tuple[str | None, int] | None]:
    """The ``Hands`` (given to the deal), ``Remaining`` and ``Result`` tags, in that order;
    an error is placed on its tag's line."""
    remaining: dict[int, int] = {}
    result: tuple[str | None, int] | None = None
    for tag in ("Hands", "Remaining", "Result"):
        value = record.tags.get(tag)
        if value is None:
            continue
        try:
            if tag == "Result":
                result = _result(value, deal.names)
            elif tag == "Hands":
                for name, cards in _hands(value, tag):
                    _tag_player(deal.names, name, tag)
                    deal.set_hand(name, cards)
            else:
                for name, cards in _hands(value, tag):
                    p = _tag_player(deal.names, name, tag)
                    if p in remaining:
                        raise RecordError(Message(MSG_REMAINING_TWICE, player=name))
                    for c in cards:
                        check_in_deck(c, deal.rules, "Remaining")
                    remaining[p] = sum(1 << c for c in set(cards))
        except RecordError as exc:
            raise RecordError(exc.bare, record.tag_lines.get(tag)) from None
    return remaining, result


def _hands(value: str, tag: str) -> list[tuple[str, list[Card]]]:
    """A ``Hands`` or ``Remaining`` value read."""
    try:
        return read_hands(value)
    except NotationError as exc:
        raise RecordError(exc.bare, tag=tag) from None


def _result(value: str, names: tuple[str, str]) -> tuple[str | None, int]:
    """A ``Result`` tag read (:func:`tally.engine.notation.read_result`), the winner a player."""
    try:
        result = read_result(value)
    except NotationError as exc:
        raise RecordError(exc.bare) from None
    if result[0] is not None:
        _tag_player(names, result[0], "Result")
    return result


def _error_ruling(
    file: str,
    record: DealRecord | None,
    errors: list[ErrorEntry],
    spec: str | None = None,
    deal: Deal | None = None,
) -> Ruling:
    tags = record.tags if record is not None else {}
    forehand = tags.get("Forehand", "")
    dealer = tags.get("Dealer", "")
    tricks: dict[str, int] = {}
    points: dict[str, int] = {}
    if forehand.strip() and dealer.strip() and forehand != dealer:
        tricks = {forehand: 0, dealer: 0}
        points = {forehand: 0, dealer: 0}
    carry = 0
    if deal is not None:
        carry = deal.carry
        tricks = {name: deal.tricks_won(name) for name in deal.names}
        points = {name: deal.counted_points(name) for name in deal.names}
    return Ruling(
        file=file,
        rules=spec if spec is not None else tags.get("Rules", "sixty-six"),
        forehand=forehand,
        dealer=dealer,
        errors=tuple(errors),
        violations=(),
        tricks=tricks,
        points=points,
        outcome=None,
        agreed=None,
        carry=carry,
        carry_in=carry,
        wording=_HAS_ERRORS,
        state=None if deal is None else deal.state(),
    )


#: The largest carry a record may give: more than any real run of drawn deals.
MAX_CARRY = 999


def _tag_count(value: str, line: int | None) -> int:
    """The ``Carry`` tag: ASCII digits, at most :data:`MAX_CARRY`."""
    text = value.strip()
    # ASCII digits only (int() reads Arabic-Indic digits, refuses ² and 5,000 digits)
    if not (text.isascii() and text.isdigit()):
        raise RecordError(Message(MSG_CARRY_NUMBER, text=_short(value)), line)
    if len(text.lstrip("0")) > 3 or int(text) > MAX_CARRY:
        raise RecordError(Message(MSG_CARRY_TOO_MANY, text=_short(value), most=MAX_CARRY), line)
    return int(text)


def _tag_player(names: tuple[str, str], name: str, tag: str) -> int:
    """The index of the player a tag names; ``unknown-player`` for anybody else."""
    if name == names[0]:
        return 0
    if name == names[1]:
        return 1
    raise RecordError(Message(MSG_UNKNOWN_PLAYER, tag=tag, player=name))
