"""The next round of a knockout or groups event, made from its state (:func:`next_round`, what
the formats' ``next_round`` answers): a group round by the Berger tables, a round of the lives
stage drawn by lot, a round of the play-off that fills a final stage left short, or a round of
the bracket (seeded when it is due). What a round needs before it starts
(:func:`refuse_busy`, :func:`still_playing`). Pure: the store keeps what it says."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from typing import Final

from tally.errors import Message, Refused
from tally.events.knockout.bracket import TBD, group_slots, seeded_slots
from tally.events.knockout.lives import draw_playoff, draw_round
from tally.events.knockout.stages import (
    alive,
    bracket,
    fill,
    finalists,
    group_round,
    group_rounds,
    group_tables,
    lives_lines,
    not_needed,
    ordinary,
)
from tally.events.knockout.state import KnockoutState, Match
from tally.events.knockout.words import Said
from tally.events.schedule import Pairing, Round
from tally.i18n import N_

__all__ = [
    "DrawnRound",
    "busy",
    "is_group_round",
    "next_round",
    "over_refusal",
    "refuse_busy",
    "slots_text",
    "still_playing",
]

#: how a round was made, as its audit entry says (English there)
GROUP_ROUND: Final = N_("group round")
DRAWN_WITH: Final = N_("drawn with seed %(seed)s")
PLAYOFF_DRAWN: Final = N_("play-off for the final stage, drawn with seed %(seed)s")
BRACKET_ROUND: Final = N_("bracket round")
BRACKET_BEST_OF: Final = N_("bracket round, best of %(n)s")
#: the refusals
OVER: Final = N_('event %(id)s "%(name)s" is over')
OVER_WON: Final = N_('event %(id)s "%(name)s" is over: %(winner)s won')
NOT_OVER: Final = N_("round %(round)s is not over: table(s) %(tables)s still playing")
GROUPS_NOT_OVER: Final = N_(
    "the groups are not over: every group match must be finished before the bracket is seeded"
)
TOO_FEW_THROUGH: Final = N_("fewer than 2 players go through: no bracket")
BRACKET_UNDECIDED: Final = N_("round %(round)s of the bracket is not decided yet")


@dataclass(frozen=True, slots=True)
class DrawnRound(Round):
    """A knockout's or groups event's round as made now: its pairings (``first`` deals first)
    and bye, how it was made (``made``), how many matches each pairing plays, and what the
    store keeps of the format when this round starts the bracket (``bracket``: its slots,
    players as their numbers in text, None a bye) or the play-off (``playoff``)."""

    made: Message
    matches_per_pairing: int = 1
    bracket: tuple[int | None, ...] | None = None
    playoff: bool = False


def slots_text(slots: tuple[int | None, ...]) -> str:
    """The bracket's slots as the format row keeps them (``"3,,1,2"``)."""
    return ",".join("" if s is None else str(s) for s in slots)


def is_group_round(st: KnockoutState, number: int) -> bool:
    return st.has_groups and number <= group_rounds(st)


def busy(st: KnockoutState, number: int) -> list[Match]:
    """The matches of round ``number`` not over (a withdrawn player's and a best of N's
    unneeded matches left out)."""
    gone = set(st.withdrawn)
    spare = not_needed(st)
    return [
        m
        for m in st.of_round(number)
        if m.winner is None and not {m.a, m.b} & gone and m.id not in spare
    ]


def refuse_busy(st: KnockoutState, number: int) -> None:
    """Refuse round ``number`` (not a group round) while a match of the round before is not
    over."""
    tables = busy(st, number - 1)
    if tables:
        raise Refused(
            Message(NOT_OVER, round=number - 1, tables=", ".join(str(m.table) for m in tables))
        )


def still_playing(st: KnockoutState, number: int) -> dict[int, int]:
    """Group round ``number``'s players (its pairings without a withdrawn player) still at a
    table of the round before that is not over: player id -> that match."""
    gone = set(st.withdrawn)
    planned, _ = group_round(st, number)
    seated = {
        int(x)
        for p in planned
        if not {int(p.first), int(p.second)} & gone
        for x in (p.first, p.second)
    }
    return {x: m.id for m in busy(st, number - 1) for x in (m.a, m.b) if x in seated}


def over_refusal(st: KnockoutState, winner: int | None) -> Refused:
    """The refusal of a round after the last: the event is over (``winner`` won)."""
    ev = st.ev
    if winner is None:
        return Refused(Message(OVER, id=ev["id"], name=ev["name"]))
    return Refused(Message(OVER_WON, id=ev["id"], name=ev["name"], winner=st.names[winner]))


def next_round(st: KnockoutState, number: int) -> DrawnRound:
    """Round ``number`` of the event, made now: a group round, else (the bracket seeded
    first when this round starts it) a round of the play-off for the final stage, a round
    drawn by lot, or a round of the bracket."""
    if is_group_round(st, number):
        gone = set(st.withdrawn)
        planned, _ = group_round(st, number)
        pairs = tuple(p for p in planned if not {int(p.first), int(p.second)} & gone)
        return DrawnRound(number, pairs, None, Said(GROUP_ROUND))
    slots = _bracket_due(st)
    if slots is not None:
        fmt = {**st.fmt, "bracket_round": number, "bracket": slots_text(slots)}
        st = dataclasses.replace(st, fmt=fmt)
    seed = st.fmt["draw_seed"]
    short = fill(st) if st.fmt["bracket_round"] is None else None
    if short is not None:
        left = [str(p) for p in short.left]
        drawn = draw_playoff(left, short.places, seed=seed, number=number)
        playoff = st.fmt["playoff_round"] is None
        made = Said(PLAYOFF_DRAWN, seed=seed)
        return DrawnRound(number, drawn.pairings, None, made, playoff=playoff)
    if st.fmt["bracket_round"] is None:
        lot = _draw_by_lot(st, number)
        return DrawnRound(number, lot.pairings, lot.bye, Said(DRAWN_WITH, seed=seed))
    best_of = int(st.fmt["best_of"])
    made = Said(BRACKET_ROUND) if best_of == 1 else Said(BRACKET_BEST_OF, n=best_of)
    pairs = _bracket_pairs(st, number)
    return DrawnRound(number, pairs, None, made, matches_per_pairing=best_of, bracket=slots)


def _bracket_due(st: KnockoutState) -> tuple[int | None, ...] | None:
    """The bracket's slots when the next round starts it (groups once the group rounds are
    over; a knockout with ``final_size`` N once N or fewer players are still in and any
    play-off for its last places is over: :func:`finalists`); None when it does not."""
    if st.fmt["bracket_round"] is not None:
        return None
    last = finalists(st)
    if st.has_groups or last is not None:
        return _seed_bracket(st, last or [])
    return None


def _draw_by_lot(st: KnockoutState, number: int) -> Round:
    """Knockout, lives stage: round ``number`` drawn by lot among the players still in
    (:func:`tally.events.knockout.draw_round`); refused once one is left."""
    still = alive(st)
    if len(still) < 2:
        raise over_refusal(st, still[0] if still else None)
    last: dict[str, str] = {}
    for m in st.of_round(number - 1):
        last[str(m.a)], last[str(m.b)] = str(m.b), str(m.a)
    had: dict[str, int] = defaultdict(int)
    for b, _ in st.started.values():
        if b is not None:
            had[str(b)] += 1
    drawn = draw_round(
        [str(p) for p in still],
        seed=st.fmt["draw_seed"],
        number=number,
        last_opponents=last,
        byes=had,
        seeded=st.ev["seed_by"] == "rating",
    )
    return Round(number, drawn.pairings, drawn.bye)


def _seed_bracket(st: KnockoutState, finalists: list[int]) -> tuple[int | None, ...]:
    """The bracket's slots: a knockout's last players seeded by lives left, the ordinary
    standings, entry order; groups' qualifiers across groups."""
    order = st.tiebreaks
    if st.has_lives:
        rank = {r.player: r.rank for r in ordinary(st, order)}
        lives = {int(x.player): x.lives for x in lives_lines(st)}
        seeds = {e.player_id: e.seed for e in st.entrants}
        ranked = sorted(finalists, key=lambda p: (-lives[p], rank[st.names[p]], seeds[p]))
        return tuple(None if s is None else int(s) for s in seeded_slots([str(p) for p in ranked]))
    total = group_rounds(st)
    gone = set(st.withdrawn)
    playing = [
        m
        for m in st.matches
        if m.round is not None and m.round <= total and m.winner is None and not {m.a, m.b} & gone
    ]
    if playing or len(st.started) < total:
        raise Refused(Message(GROUPS_NOT_OVER))
    qualifiers = [
        [str(p) for _, p in table if p not in gone][: st.fmt["advance"]]
        for table in group_tables(st, order)
    ]
    if sum(len(q) for q in qualifiers) < 2:
        raise Refused(Message(TOO_FEW_THROUGH))
    return tuple(None if s is None else int(s) for s in group_slots(qualifiers))


def _bracket_pairs(st: KnockoutState, number: int) -> tuple[Pairing, ...]:
    found = bracket(st)
    assert found is not None
    k = number - st.fmt["bracket_round"] + 1
    if k > len(found):
        champion = found[-1][0].winner
        raise over_refusal(st, int(champion) if champion else None)
    matches = found[k - 1]
    if any(TBD in (bm.first, bm.second) for bm in matches):
        raise Refused(Message(BRACKET_UNDECIDED, round=number - 1))
    return tuple(
        Pairing(bm.table, bm.first or "0", bm.second or "0")
        for bm in matches
        if bm.playable and not bm.decided
    )
