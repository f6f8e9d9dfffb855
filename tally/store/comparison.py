"""What a correction changes, said before it is stored: the one comparison of a match before
and after a correction of a deal's tricks or record, of a quick result or of a match result
entered whole (:func:`compare`). :mod:`tally.store.consequences` rehearses the correction and
asks this module what it changed; the command line and the director's pages word the
answer (:meth:`Correction.lines`, templates worded where they are shown, as errors are).

One card changed in a trick can change who won it, and then every later trick line is
played by the other player: the exchange, a marriage, the close and the claim move with it.
So the comparison names, for each deal whose result or tricks change, the tricks whose cards
or winner change, the declarations that change hands, the deal's result and the match's
score before and after.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from tally.errors import Message
from tally.i18n import N_
from tally.store.corrections import deal_snapshot
from tally.store.derivation import Loaded, table_view

__all__ = ["Correction", "DealChange", "MoveChange", "TrickChange", "compare", "match_mark"]

#: the words of a correction's question (worded where it is shown: tally.i18n.worded)
SCORE = N_("Match %(id)s, %(one)s v %(two)s: the score goes from %(before)s to %(after)s.")
SCORE_KEPT = N_("Match %(id)s, %(one)s v %(two)s: the score stays %(before)s.")
WINNER_LOST = N_("%(winner)s has then not won the match.")
WINNER_NEW = N_("%(winner)s has then won the match.")
DEAL = N_("Deal %(number)s: %(before)s, after the correction %(after)s.")
DEAL_KEPT = N_("Deal %(number)s stays %(before)s.")
WON_ONE = N_("won by %(winner)s with 1 game point (%(reason)s)")
WON_MANY = N_("won by %(winner)s with %(n)s game points (%(reason)s)")
DRAWN = N_("drawn (%(reason)s)")
UNFINISHED = N_("not finished")
GONE = N_("no deal")
TRICK = N_(
    "Trick %(trick)s: %(before)s won by %(was)s, after the correction %(after)s won by %(now)s."
)
TRICK_WON = N_("Trick %(trick)s (%(cards)s): won by %(was)s, after the correction by %(now)s.")
NOT_PLAYED = N_("not played")
NOBODY = N_("nobody")
MOVED = N_("Trick %(trick)s: %(what)s moves from %(was)s to %(now)s.")
ADDED = N_("Trick %(trick)s: %(what)s by %(now)s is new.")
REMOVED = N_("Trick %(trick)s: %(what)s by %(was)s is gone.")
#: a deal's reasons as words (the identifiers ``failed-close``... are the data's)
REASONS = {
    "failed-close": N_("failed close"),
    "false-claim": N_("false claim"),
    "illegal-play": N_("illegal play"),
    "last-trick": N_("last trick"),
    "higher-total": N_("higher total"),
    "match-result": N_("match result"),
}
#: the declarations as the question names them
KINDS = {
    "exchange": N_("the exchange of the trump card"),
    "marriage": N_("the marriage %(card)s (%(points)s)"),
    "close": N_("the close"),
    "claim": N_("the claim of 66"),
}


@dataclass(frozen=True)
class TrickChange:
    """One trick line whose cards or winner a correction changes: its two cards (``"KS AS"``,
    ``""`` where it is not played) and who won it, before and after."""

    number: int
    before: str
    after: str
    winner_before: str | None
    winner_after: str | None


@dataclass(frozen=True)
class MoveChange:
    """A declaration (``kind``: exchange, marriage, close, claim) on a trick line that changes
    hands, appears (``player_before`` None) or goes (``player_after`` None)."""

    trick: int
    kind: str
    card: str | None
    points: int
    player_before: str | None
    player_after: str | None


@dataclass(frozen=True)
class DealResultView:
    """A deal's result as a correction compares it: winner (None: drawn), game points with
    the carry, reason; ``reason`` ``incomplete`` while it is played, ``""`` when there is no
    such deal."""

    winner: str | None
    game_points: int
    reason: str


@dataclass(frozen=True)
class DealChange:
    """A deal whose result, tricks or declarations a correction changes."""

    number: int
    before: DealResultView
    after: DealResultView
    tricks: tuple[TrickChange, ...]
    moves: tuple[MoveChange, ...]


@dataclass(frozen=True)
class Correction:
    """What a correction changes in a match: its deals (:class:`DealChange`), its score and
    winner before and after (in its players' order); ``mark`` is the match as it was asked
    about (:func:`match_mark`): the correction is stored only while the match is still so."""

    match_id: int
    players: tuple[str, str]
    deals: tuple[DealChange, ...]
    score_before: tuple[int, int]
    score_after: tuple[int, int]
    winner_before: str | None
    winner_after: str | None
    mark: str

    @property
    def changes_anything(self) -> bool:
        """False when the correction leaves the match as it is."""
        return bool(self.deals) or self.score_before != self.score_after

    def lines(self) -> list[Message]:
        """The question in words (each worded where it is shown): each deal's changes, then
        the match's score and winner."""
        out: list[Message] = []
        for deal in self.deals:
            out += _deal_lines(deal)
        one, two = self.players
        score = {"id": self.match_id, "one": one, "two": two}
        if self.score_before == self.score_after:
            out.append(Message(SCORE_KEPT, **score, before=_pair(self.score_before)))
        else:
            out.append(
                Message(
                    SCORE, **score, before=_pair(self.score_before), after=_pair(self.score_after)
                )
            )
        if self.winner_before and self.winner_before != self.winner_after:
            out.append(Message(WINNER_LOST, winner=self.winner_before))
        if self.winner_after and self.winner_after != self.winner_before:
            out.append(Message(WINNER_NEW, winner=self.winner_after))
        return out


def _pair(score: tuple[int, int]) -> str:
    return f"{score[0]}:{score[1]}"


def _result(r: DealResultView) -> Message:
    if r.reason == "":
        return Message(GONE)
    if r.reason == "incomplete":
        return Message(UNFINISHED)
    reason = Message(REASONS.get(r.reason, r.reason))
    if r.winner is None:
        return Message(DRAWN, reason=reason)
    template = WON_ONE if r.game_points == 1 else WON_MANY
    return Message(template, winner=r.winner, n=r.game_points, reason=reason)


def _move_words(m: MoveChange) -> Message:
    return Message(KINDS.get(m.kind, m.kind), card=m.card or "", points=m.points)


def _deal_lines(deal: DealChange) -> list[Message]:
    """A deal's changes trick by trick (each trick's winner, then what changes hands on its
    line), then its result."""
    lines = [(t.number, 0, _trick_line(t)) for t in deal.tricks]
    lines += [(m.trick, 1, _move_line(m)) for m in deal.moves]
    out = [line for _, _, line in sorted(lines, key=lambda x: (x[0], x[1]))]
    if deal.before == deal.after:
        out.append(Message(DEAL_KEPT, number=deal.number, before=_result(deal.before)))
    else:
        out.append(
            Message(
                DEAL, number=deal.number, before=_result(deal.before), after=_result(deal.after)
            )
        )
    return out


def _move_line(m: MoveChange) -> Message:
    what = _move_words(m)
    if m.player_before is None:
        return Message(ADDED, trick=m.trick, what=what, now=m.player_after)
    if m.player_after is None:
        return Message(REMOVED, trick=m.trick, what=what, was=m.player_before)
    return Message(MOVED, trick=m.trick, what=what, was=m.player_before, now=m.player_after)


def _trick_line(t: TrickChange) -> Message:
    if t.before == t.after:
        return Message(
            TRICK_WON,
            trick=t.number,
            cards=t.before,
            was=t.winner_before or Message(NOBODY),
            now=t.winner_after or Message(NOBODY),
        )
    return Message(
        TRICK,
        trick=t.number,
        before=t.before or Message(NOT_PLAYED),
        was=t.winner_before or Message(NOBODY),
        after=t.after or Message(NOT_PLAYED),
        now=t.winner_after or Message(NOBODY),
    )


def match_mark(loaded: Loaded) -> str:
    """A short fingerprint of a match as stored (its players and every deal with its
    actions): a question asked about the match, or a result proposed at its table, holds
    only while the mark is the same."""
    m = loaded.match
    data = [
        [m.id, m.a_id, m.b_id, m.spec, m.first_dealer_id],
        [deal_snapshot(d.deal) for d in loaded.deals],
    ]
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _results(loaded: Loaded) -> list[DealResultView]:
    return [
        DealResultView(ds.winner, ds.game_points, ds.reason)
        for ds in loaded.state.deals[: len(loaded.deals)]
    ]


def _tricks(loaded: Loaded, index: int) -> dict[int, tuple[str, str | None, list[MoveChange]]]:
    """Deal ``index``'s trick lines by number: their cards, winner and declarations (as
    moves held by their player before any change)."""
    if index >= len(loaded.deals):
        return {}
    table = table_view(loaded.deals[index].record)
    if table is None:
        return {}
    return {
        t.number: (
            " ".join(c for c in (t.lead, t.follow) if c),
            t.winner,
            [MoveChange(t.number, m.kind, m.card, m.points, m.player, None) for m in t.moves],
        )
        for t in table.tricks
    }


def _moves(before: list[MoveChange], after: list[MoveChange]) -> list[MoveChange]:
    """The declarations of one trick line that change hands, appear or go."""

    def key(m: MoveChange) -> tuple[str, str | None, int]:
        return (m.kind, m.card, m.points)

    was = {key(m): m.player_before for m in before}
    now = {key(m): m.player_before for m in after}
    trick = (before or after)[0].trick if before or after else 0
    return [
        MoveChange(trick, k[0], k[1], k[2], was.get(k), now.get(k))
        for k in [*was, *(k for k in now if k not in was)]
        if was.get(k) != now.get(k)
    ]


def _deal_change(
    before: Loaded, after: Loaded, index: int, results: tuple[DealResultView, DealResultView]
) -> DealChange | None:
    then, now = _tricks(before, index), _tricks(after, index)
    tricks: list[TrickChange] = []
    moves: list[MoveChange] = []
    for number in sorted(set(then) | set(now)):
        a = then.get(number, ("", None, []))
        b = now.get(number, ("", None, []))
        if a[:2] != b[:2]:
            tricks.append(TrickChange(number, a[0], b[0], a[1], b[1]))
        moves += _moves(a[2], b[2])
    if not tricks and not moves and results[0] == results[1]:
        return None
    deals = before.deals if index < len(before.deals) else after.deals
    return DealChange(deals[index].deal.number, *results, tuple(tricks), tuple(moves))


def compare(before: Loaded, after: Loaded) -> Correction:
    """What changes between a match ``before`` a correction and ``after`` it: every deal
    whose result, tricks or declarations change (deals paired by their place in the match),
    and the score."""
    none = DealResultView(None, 0, "")
    then, now = _results(before), _results(after)
    deals = []
    for index in range(max(len(then), len(now))):
        pair = (
            then[index] if index < len(then) else none,
            now[index] if index < len(now) else none,
        )
        change = _deal_change(before, after, index, pair)
        if change is not None:
            deals.append(change)
    a, b = before.match.players
    return Correction(
        before.match.id,
        before.match.players,
        tuple(deals),
        (before.state.score[a], before.state.score[b]),
        (after.state.score[a], after.state.score[b]),
        before.state.winner,
        after.state.winner,
        match_mark(before),
    )
