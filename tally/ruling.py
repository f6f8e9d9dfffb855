"""Rulings: replaying a deal record and ruling on it, as ``tally check`` does.

:func:`rule` replays a :class:`~tally.notation.DealRecord` through a :class:`~tally.deal.Deal`,
then looks at the whole record once more for what only the record as a whole proves (RULES.md
section 12): a revoke shown by a card played tricks later, a marriage shown false by the
opponent playing its queen, an exchange shown false by where the exchange card turns up. The
earliest decisive event in play order rules the deal (section 10).

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
  digits, a trick number at most four (see :mod:`tally.notation`).
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Any

from tally.cards import CARDS, Card, cards_of
from tally.cards import shorten as _short
from tally.deal import Deal, Violation
from tally.errors import NotationError, RecordError, RulesError
from tally.notation import (
    REQUIRED_TAGS,
    CardItem,
    ClaimItem,
    CloseItem,
    DealRecord,
    MarriageItem,
    SwapItem,
    read_deal,
    read_hands,
    read_tags,
)
from tally.rules import RuleSet

REASONS = ("claim", "false-claim", "failed-close", "illegal-play", "last-trick",
           "higher-total", "draw", "incomplete")


@dataclass(frozen=True)
class Outcome:
    """Who won the deal, the game points they score (carry included) and why."""

    winner: str | None
    game_points: int
    reason: str


@dataclass(frozen=True)
class ErrorEntry:
    """A record error: the line it is on (None when it is not on one line) and what is wrong."""

    line: int | None
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


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
    #: plain words for the ruling, as a referee would say it
    explanation: str = ""
    #: the agreed result as written in the Result tag
    result_tag: str | None = None
    deal: Deal | None = field(default=None, compare=False, repr=False)

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
            "outcome": None if self.outcome is None else {
                "winner": self.outcome.winner, "game_points": self.outcome.game_points,
                "reason": self.outcome.reason},
            "agreed": self.agreed,
            "carry": self.carry,
        }


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


def summarize(record: DealRecord, file: str = "") -> tuple[Ruling, list[TrickSummary]]:
    """The ruling on ``record`` and a summary of each of its trick lines."""
    summaries: list[TrickSummary] = []
    ruling = rule(record, file, summaries)
    deal = ruling.deal
    if deal is None or ruling.errors:
        return ruling, summaries
    # A marriage proved false later never scores: take it out of the points after it.
    false_at = {v.seq for v in ruling.violations if v.rule == "false-marriage"}
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
        return _error_ruling(file, partial, [ErrorEntry(exc.line, exc.bare_message)], spec)
    return rule(record, file)


def rule(record: DealRecord, file: str = "",
         summaries: list[TrickSummary] | None = None) -> Ruling:
    """Replay ``record`` and rule on it (NOTATION.md, ``tally check``).

    ``summaries``, when given, receives a :class:`TrickSummary` for each trick line replayed.
    """
    file = file or record.source
    errors: list[ErrorEntry] = []
    tags = record.tags
    lines = record.tag_lines
    for name in REQUIRED_TAGS:
        if name not in tags:
            errors.append(ErrorEntry(None, f'the required tag "{name}" is missing'))
    # NOTATION.md: the preset, then the overrides as given, one space apart.
    rules_spec = " ".join(tags.get("Rules", "sixty-six").split()) or "sixty-six"
    try:
        rules = RuleSet.parse(rules_spec)
    except RulesError as exc:
        errors.append(ErrorEntry(lines.get("Rules"), str(exc)))
        rules = RuleSet.preset()
    if errors:
        return _error_ruling(file, record, errors, rules_spec)
    forehand, dealer = tags["Forehand"].strip(), tags["Dealer"].strip()
    carry_in = 0
    tag = "Trump"
    try:
        trump = _tag_card(tags["Trump"], "Trump")
        if rules.deck == 20 and trump.rank == 0:
            raise RecordError(f"Trump: {trump} is not in a Schnapsen deck (20 cards, no nines)")
        tag = "Carry"
        carry_in = _tag_count(tags.get("Carry", "0"))
        tag = "Forehand"
        if not forehand or not dealer:
            tag = "Forehand" if not forehand else "Dealer"
            raise RecordError(f"{tag}: a player's name is empty")
        deal = Deal.start(rules, dealer=dealer, forehand=forehand, trump=trump, carry=carry_in,
                          keep_history=False)
    except RecordError as exc:
        line = lines.get(tag)
        if tag == "Forehand":
            line = max(lines.get("Forehand", 0), lines.get("Dealer", 0)) or None
        return _error_ruling(file, record, [ErrorEntry(line, exc.bare_message)], rules_spec)
    remaining: dict[int, int] = {}
    result: tuple[str | None, int] | None = None
    tag = ""
    try:
        for tag in ("Hands", "Remaining", "Result"):
            if tag not in tags:
                continue
            if tag == "Result":
                result = _read_result(tags[tag], deal)
                continue
            for name, cards in _tag_hands(tags[tag], tag):
                p = _tag_player(deal, name, tag)
                if tag == "Hands":
                    deal.set_hand(name, cards)
                else:
                    if p in remaining:
                        raise RecordError(f"Remaining lists {name} twice")
                    m = 0
                    for c in cards:
                        deal._check_in_deck(c, "Remaining")
                        m |= 1 << c
                    remaining[p] = m
    except RecordError as exc:
        return _error_ruling(file, record, [ErrorEntry(lines.get(tag), exc.bare_message)],
                             rules_spec, deal)

    error = _replay(deal, record) if summaries is None else _replay_noting(deal, record,
                                                                            summaries)
    if error is None and deal.pending_draw and not deal.claimed:
        deal._draw()  # the record stops after a trick: at the table both have drawn already
    if error is None:
        error = _check_remaining(deal, remaining, lines.get("Remaining"))
    if error is not None:
        return _error_ruling(file, record, [error], rules_spec, deal)
    violations = list(deal.violations)
    violations += _proven_violations(deal, remaining)
    violations.sort(key=lambda v: v.seq)
    return _decide(file, rules_spec, deal, violations, result, tags.get("Result"))


def rule_deal(deal: Deal, file: str = "") -> Ruling:
    """Rule on a deal played through the :class:`Deal` API (what it knows so far)."""
    violations = list(deal.violations)
    violations += _proven_violations(deal, {})
    violations.sort(key=lambda v: v.seq)
    return _decide(file, deal.rules.spec, deal, violations, None, None)


# --- replay ----------------------------------------------------------------------------


def _replay(deal: Deal, record: DealRecord, first_index: int = 0,
            last: bool | None = None) -> ErrorEntry | None:
    """Replay the trick lines of ``record`` on ``deal``; the first record error, if any.

    ``first_index`` and ``last`` let a caller replay a record one line at a time.
    """
    last_index = len(record.tricks) - 1 + first_index
    if last is not None:
        last_index = first_index if last else first_index + 1
    hand_count = deal.hand_count
    play = deal._play
    for index, tl in enumerate(record.tricks, start=first_index):
        try:
            if deal._claim is not None:
                raise RecordError("nothing may follow a claim")
            if deal.lead < 0 and not hand_count[0] and not hand_count[1]:
                raise RecordError("the deal is over: every trick is played")
            if deal.pending_draw:
                deal._draw()
            cards_on_line = 0
            trick_done = False
            for item in tl.items:
                kind = type(item)
                if kind is CardItem and not trick_done and deal._claim is None:
                    play(item.card)  # type: ignore[union-attr]
                    cards_on_line += 1
                    trick_done = deal.lead < 0
                    continue
                if deal._claim is not None:
                    raise RecordError(f'"{item}" after a claim: nothing may follow a claim')
                if trick_done and kind is not ClaimItem and deal.all_tricks_played:
                    raise RecordError(f'"{item}" after the last trick: only a claim may follow it')
                if kind is CardItem:
                    raise RecordError(f"{item}: trick {tl.number} already has its two cards")
                elif isinstance(item, MarriageItem):
                    if cards_on_line or trick_done:
                        raise RecordError("a marriage is declared by the leader, before leading")
                    deal.declare(item.card, item.value)
                    cards_on_line += 1
                elif isinstance(item, SwapItem):
                    if trick_done:
                        raise RecordError("swap after the trick: an exchange comes just before "
                                          "a card, on the next trick's line")
                    deal.exchange()
                elif isinstance(item, CloseItem):
                    if cards_on_line and not trick_done:
                        raise RecordError("close between the two cards of a trick: the stock is "
                                          "closed before leading or right after the trick")
                    deal.close(after_trick=trick_done)
                elif isinstance(item, ClaimItem):
                    deal.claim(item.player)
            if index != last_index and not deal.claimed and deal.lead >= 0:
                raise RecordError(f"trick {tl.number} is unfinished; only the last line may "
                                  "stop after the leader's card")
            if index != last_index and not trick_done and not deal.claimed:
                raise RecordError(f"trick {tl.number} has no cards; only the last line may "
                                  "stop before its cards")
        except RecordError as exc:
            return ErrorEntry(tl.line, exc.bare_message)
    return None


def _replay_noting(deal: Deal, record: DealRecord,
                   summaries: list[TrickSummary]) -> ErrorEntry | None:
    """Replay line by line (as :func:`_replay`), noting what happened on each line."""
    names = deal.names
    for index, tl in enumerate(record.tricks):
        if deal.pending_draw:
            deal._draw()
        leader = deal.leader_idx
        lead: Card | None = None
        follow: Card | None = None
        winner: str | None = None
        # Who closes after the trick (its winner) or claims is known only once the line is
        # replayed: those notes get their player below.
        notes: list[tuple[str | None, str]] = []
        tricks_before = sum(deal.tricks)
        for item in tl.items:
            # before the first card the leader acts; after it, the follower (an exchange)
            mover = leader if lead is None else 1 - leader
            if isinstance(item, CardItem):
                if lead is None:
                    lead = item.card
                else:
                    follow = item.card
            elif isinstance(item, MarriageItem):
                lead = item.card
                notes.append((names[leader], f"declares {item.value} in "
                                             f"{item.card.suit.title} with {item.card}"))
            elif isinstance(item, SwapItem):
                taken = deal.face_up
                what = f"for the turn-up {CARDS[taken]}" if taken >= 0 else "for the turn-up"
                notes.append((names[mover], f"exchanges {CARDS[deal.xcard]} {what}"))
            elif isinstance(item, CloseItem):
                # before the leader's card the leader closes; after the trick, its winner
                notes.append((names[leader] if follow is None else None, "closes the stock"))
            elif isinstance(item, ClaimItem):
                notes.append((None, "claims 66"))
        single = DealRecord(record.tags, [tl])
        error = _replay(deal, single, first_index=index, last=index == len(record.tricks) - 1)
        if error is not None:
            return error
        if sum(deal.tricks) > tricks_before:
            winner = names[deal.last_trick_winner]
        claim = deal._claim
        done = [(who if who is not None
                 else names[claim[1]] if what == "claims 66" and claim is not None
                 else winner or names[leader], what)
                for who, what in notes]
        items = tl.items
        if any(isinstance(a, MarriageItem) and isinstance(b, ClaimItem)
               for a, b in itertools.pairwise(items)):
            lead = None  # the declarer claimed at once: the marriage card was not led
        summaries.append(TrickSummary(
            tl.number, names[leader], lead, follow, winner, tuple(done),
            {names[p]: deal._counted(p, True, True) for p in (0, 1)},
            {names[p]: deal.tricks[p] for p in (0, 1)}))
    return None


def _check_remaining(deal: Deal, remaining: dict[int, int], line: int | None) -> ErrorEntry | None:
    both = 0
    for p, mask in remaining.items():
        name = deal.names[p]
        count = mask.bit_count()
        if mask & deal.played:
            c = _first(mask & deal.played)
            return ErrorEntry(line, f"Remaining lists {c} for {name}, but it was played in "
                                    f"trick {deal.play_trick[c]}")
        if count > deal.hand_count[p]:
            return ErrorEntry(line, f"Remaining lists {count} cards for {name}, who holds "
                                    f"{deal.hand_count[p]}")
        if both & mask:
            return ErrorEntry(line, f"Remaining lists {_first(both & mask)} for both players")
        both |= mask
        t = deal.turn_up
        if mask >> t & 1:
            t_owner = deal.t_taken_by if deal.t_taken_by >= 0 else deal.last_draw_loser
            if t_owner < 0:
                return ErrorEntry(line, f"Remaining lists the turn-up {CARDS[t]} for {name}, "
                                        "but it lies on the table")
            if t_owner != p:
                return ErrorEntry(line, f"Remaining lists the turn-up {CARDS[t]} for {name}, "
                                        f"but {deal.names[t_owner]} took it")
        dealt_o = deal.dealt[1 - p]
        # a face-up card the other put there by a false exchange may be theirs (RULES.md 12)
        spare = deal.hidden_takes[p] - deal.borrowed[p].bit_count()
        theirs = 0 if dealt_o is None else dealt_o & ~deal.swapped_out[1 - p] & mask
        if theirs.bit_count() > spare:
            c = _first(theirs)
            return ErrorEntry(line, f"Remaining lists {c} for {name}, but Hands gives it to "
                                    f"{deal.names[1 - p]}")
    return None


def _first(mask: int) -> Card:
    return CARDS[(mask & -mask).bit_length() - 1]


# --- what the whole record proves ---------------------------------------------------------


def _proven_violations(deal: Deal, remaining: dict[int, int]) -> list[Violation]:
    out: list[Violation] = []
    names = deal.names
    x = deal.xcard
    play_seq, play_by = deal.play_seq, deal.play_by
    rem = (remaining.get(0, 0), remaining.get(1, 0))
    dealt = (deal.dealt[0] or 0, deal.dealt[1] or 0)
    d_seq, loser = deal.last_draw_seq, deal.last_draw_loser

    # Exchanges, in order: where the exchange card lies after each.
    x_face_since = -1  # seq since which a true exchange put X face up
    true_swap_seqs: list[int] = []
    # False exchanges that moved the cards: the exchanger put an unknown card of theirs face
    # up, so one card of their dealt hand may be gone (to whoever takes it).
    false_moves: list[tuple[int, int]] = []  # (seq, exchanger)
    for s in deal.swaps:
        p, o = s.player, 1 - s.player
        e = s.seq
        false = False
        if x == deal.turn_up:
            false = True
        elif 0 <= play_seq[x] < e:
            false = True
        elif dealt[o] >> x & 1:
            false = True
        elif x_face_since >= 0 and not (0 <= d_seq and x_face_since < d_seq < e and loser == p):
            false = True
        else:
            q = play_by[x]
            if q >= 0 and play_seq[x] > e:
                if s.moved:
                    false = not (0 <= d_seq and e < d_seq < play_seq[x] and q == loser)
                else:
                    false = q != p
            for r in (0, 1):
                if rem[r] >> x & 1:
                    if s.moved:
                        false = false or not (0 <= d_seq and d_seq > e and r == loser)
                    else:
                        false = false or r != p
        if false:
            out.append(Violation(s.trick, names[p], "false-exchange",
                                 f"{names[p]} exchanged without holding {CARDS[x]}", e))
            if s.moved:
                false_moves.append((e, p))
        elif s.moved:
            x_face_since = e
            true_swap_seqs.append(e)

    # What the loser of the last draw took: the turn-up, or the card an exchange put there.
    last_drawn = -1
    if d_seq >= 0:
        moving = [s for s in deal.swaps if s.moved and s.seq < d_seq]
        if not moving:
            last_drawn = deal.turn_up
        elif moving[-1].seq in true_swap_seqs:
            last_drawn = x

    # Marriages: the partner card must be where the declarer says it is.
    true_partners: list[tuple[int, int, int]] = []  # (seq, player, partner)
    t = deal.turn_up
    for m in deal.marriages:
        p, o, q, e = m.player, 1 - m.player, m.partner, m.seq
        why = ""
        if 0 <= play_seq[q] < e:
            why = f"{CARDS[q]} was played in trick {deal.play_trick[q]}"
        elif q == t and not _t_with(deal, p, e):
            why = f"{CARDS[q]} is the turn-up" if not _t_with(deal, o, e) else (
                f"{names[o]} had taken the turn-up {CARDS[q]}")
        elif play_by[q] == o:
            why = f"{names[o]} played {CARDS[q]} in trick {deal.play_trick[q]}"
        elif dealt[o] >> q & 1 and not (0 <= d_seq < e and loser == p and any(
                who == o and seq < d_seq for seq, who in false_moves)):
            # (unless o put it face up by a false exchange and p took it at the last draw)
            why = f"{CARDS[q]} was dealt to {names[o]}"
        elif rem[o] >> q & 1:
            why = f"{names[o]} still held {CARDS[q]}"
        if why:
            out.append(Violation(m.trick, names[p], "false-marriage",
                                 f"{names[p]} declared {m.points} without holding "
                                 f"{CARDS[q]}: {why}", e))
        else:
            true_partners.append((e, p, q))

    # Phase-2 follows: the duty to follow, head and trump, against what the record proves.
    swaps_out = [(s.seq, s.player) for s in deal.swaps if s.moved]
    for f in deal.follows:
        p, at = f.player, f.seq
        proven = rem[p] | (deal.played_by[p] & ~f.played)
        held = 0
        if dealt[p]:
            held = dealt[p]
            for seq, who in swaps_out:
                if who == p and seq < at:
                    held &= ~(1 << x)
            held &= ~proven
            proven |= held
        for seq, who, q in true_partners:
            if who == p and seq < at:
                proven |= 1 << q
        if deal.t_taken_by == p and deal.t_taken_seq < at:
            proven |= 1 << t
        if loser == p and last_drawn >= 0 and d_seq < at:
            proven |= 1 << last_drawn
        proven &= ~f.played
        rule, message = deal._follow_problem(p, f.lead, f.card, proven)
        if rule and any(who == p and seq < at for seq, who in false_moves):
            # any one dealt card may be the one p put face up: proven only without each
            for y in cards_of(held & ~f.played):
                if not deal._follow_problem(p, f.lead, f.card, proven & ~(1 << y))[0]:
                    rule = ""
                    break
        if rule:
            out.append(Violation(f.trick, names[p], rule, message, at))
    return out


def _t_with(deal: Deal, p: int, seq: int) -> bool:
    """Whether the turn-up was in ``p``'s hand at ``seq`` (taken by exchange or last draw)."""
    if deal.t_taken_by >= 0:
        return deal.t_taken_by == p and deal.t_taken_seq < seq
    return deal.last_draw_loser == p and 0 <= deal.last_draw_seq < seq


# --- the outcome ------------------------------------------------------------------------


def _decide(file: str, spec: str, deal: Deal, violations: list[Violation],
            result: tuple[str | None, int] | None, result_tag: str | None) -> Ruling:
    rules = deal.rules
    names = deal.names
    claim = deal._claim
    points = {names[p]: deal._counted(p, with_bonus=True, only_valid=True) for p in (0, 1)}
    for p in (0, 1):
        if any(v.player == names[p] and v.rule in ("false-marriage", "marriage-not-allowed")
               for v in violations):
            points[names[p]] = _counted_without_bad_marriages(deal, p, violations)
    tricks = {names[p]: deal.tricks[p] for p in (0, 1)}
    winner: int | None = None
    base = 0
    reason = "incomplete"
    why = ""
    first = violations[0] if violations else None
    if first is not None and (claim is None or first.seq < claim[0]):
        offender = names.index(first.player)
        winner, base, reason = 1 - offender, rules.illegal_play_points, "illegal-play"
        why = (f"{first.player} broke a rule ({first.rule}) in trick {first.trick}: "
               f"{first.message}")
    elif claim is not None:
        _seq, c, correct, counted = claim
        o = 1 - c
        o_tricks = deal.tricks[o]
        if not correct:
            winner, reason = o, "false-claim"
            base = 3 if rules.false_claim_points == "2or3" and o_tricks == 0 else 2
            if counted >= 66:
                why = (f"{names[c]} claimed 66 while not on lead; only the player on lead "
                       "may claim")
            else:
                why = f"{names[c]} claimed 66 with only {counted} counted points"
        elif deal.closed and deal.close_seq < _seq and c != deal.closer:
            winner, reason = c, "failed-close"
            base = 3 if deal.close_opp_tricks == 0 else 2
            why = (f"{names[c]} reached {counted} and claimed before {names[deal.closer]}, "
                   "who had closed the stock")
        else:
            winner, reason = c, "claim"
            if deal.closed and deal.close_seq < _seq and rules.close_scored_at == "close":
                opp_points, opp_tricks = deal.close_opp_points, deal.close_opp_tricks
            else:
                opp_points, opp_tricks = deal._counted(o, True, True), o_tricks
            base = _game_points(opp_points, opp_tricks)
            why = f"{names[c]} claimed 66 correctly with {counted} counted points"
    elif deal.all_tricks_played:
        if deal.closed:
            k = deal.closer
            k_points = deal._counted(k, with_bonus=False, only_valid=True)
            if rules.unclaimed_end == "draw" and k_points >= 66:
                reason = "draw"
                why = f"{names[k]} closed and reached {k_points} but never claimed"
            else:
                winner, reason = 1 - k, "failed-close"
                base = 3 if deal.close_opp_tricks == 0 else 2
                why = f"{names[k]} closed the stock and did not make 66 ({k_points})"
        elif rules.unclaimed_end == "draw":
            reason = "draw"
            why = "the deal was played out with no correct claim"
        elif rules.unclaimed_end == "last-trick":
            winner, base, reason = deal.last_trick_winner, 1, "last-trick"
            why = f"nobody claimed; {names[deal.last_trick_winner]} won the last trick"
        else:
            a, b = points[names[0]], points[names[1]]
            if a == b:
                reason = "draw"
                why = f"the deal was played out with equal totals ({a})"
            else:
                winner = 0 if a > b else 1
                loser = 1 - winner
                reason = "higher-total"
                base = _game_points(points[names[loser]], deal.tricks[loser])
                why = (f"nobody claimed; {names[winner]} has the higher total "
                       f"({max(a, b)} to {min(a, b)})")
    carry_in = deal.carry
    if winner is not None:
        outcome = Outcome(names[winner], base + carry_in, reason)
        carry_out = 0
    elif reason == "draw":
        outcome = Outcome(None, 0, reason)
        carry_out = carry_in + 1 if rules.carry == "accumulate" else carry_in
    else:
        outcome = Outcome(None, 0, "incomplete")
        carry_out = carry_in
        why = "the record stops before the deal ended"
    agreed = None
    if result is not None:
        agreed = outcome.reason != "incomplete" and result == (outcome.winner,
                                                               outcome.game_points)
    return Ruling(file=file, rules=spec, forehand=names[0], dealer=names[1], errors=(),
                  violations=tuple(violations), tricks=tricks, points=points, outcome=outcome,
                  agreed=agreed, carry=carry_out, carry_in=carry_in, deal_points=base,
                  explanation=why, result_tag=result_tag, deal=deal)


def _counted_without_bad_marriages(deal: Deal, p: int, violations: list[Violation]) -> int:
    bad = {v.seq for v in violations if v.rule in ("false-marriage", "marriage-not-allowed")}
    total = deal._counted(p, with_bonus=True, only_valid=False)
    if deal.tricks[p]:
        total -= sum(m.points for m in deal.marriages if m.player == p and m.seq in bad)
    return total


def _game_points(opp_points: int, opp_tricks: int) -> int:
    if opp_tricks == 0:
        return 3
    return 2 if opp_points < 33 else 1


# --- tags --------------------------------------------------------------------------------


def _error_ruling(file: str, record: DealRecord | None, errors: list[ErrorEntry],
                  spec: str | None = None, deal: Deal | None = None) -> Ruling:
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
        tricks = {deal.names[p]: deal.tricks[p] for p in (0, 1)}
        points = {deal.names[p]: deal._counted(p, True) for p in (0, 1)}
    return Ruling(file=file, rules=spec if spec is not None else tags.get("Rules", "sixty-six"),
                  forehand=forehand, dealer=dealer, errors=tuple(errors), violations=(),
                  tricks=tricks, points=points, outcome=None, agreed=None, carry=carry,
                  carry_in=carry, explanation="the record has errors", deal=deal)


def _tag_card(value: str, tag: str) -> Card:
    try:
        return Card.parse(value)
    except NotationError as exc:
        raise RecordError(f"{tag}: {exc.bare_message}") from None


#: The largest carry a record may give: more than any real run of drawn deals.
MAX_CARRY = 999


def _tag_count(value: str) -> int:
    text = value.strip()
    # ASCII digits only (int() reads Arabic-Indic digits, refuses ² and 5,000 digits)
    if not (text.isascii() and text.isdigit()):
        raise RecordError(f'Carry must be a whole number of game points, not "{_short(value)}"')
    if len(text.lstrip("0")) > 3 or int(text) > MAX_CARRY:
        raise RecordError(f'Carry "{_short(value)}" is more than {MAX_CARRY} game points')
    return int(text)


def _tag_hands(value: str, tag: str) -> list[tuple[str, list[Card]]]:
    try:
        return read_hands(value)
    except NotationError as exc:
        raise RecordError(f"{tag}: {exc.bare_message}") from None


def _tag_player(deal: Deal, name: str, tag: str) -> int:
    if name == deal.names[0]:
        return 0
    if name == deal.names[1]:
        return 1
    raise RecordError(f"unknown-player ({tag} names {name})")


def _read_result(value: str, deal: Deal) -> tuple[str | None, int]:
    text = value.strip()
    if text.lower() == "draw":
        return (None, 0)
    name, _, num = text.rpartition(" ")
    if not (num.isascii() and num.isdigit() and len(num) <= 4) or not name.strip():
        raise RecordError(f'Result should be "Name N" or "draw", not "{_short(value)}"')
    _tag_player(deal, name.strip(), "Result")
    return (name.strip(), int(num))
