"""The stages of a knockout or groups event, from its state (:class:`KnockoutState`): the
lives over the rounds of the lives stage, the play-off that fills a final stage left short
(:func:`fill`, :func:`finalists`), the groups and their standings, the bracket with its results
and walkovers (best of N: :func:`bracket_series`), the ordinary standings over every match but
the play-offs, and how far each player got (:func:`stage_keys`). Pure: nothing is stored."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tally.errors import Message
from tally.events.knockout.bracket import (
    BracketMatch,
    bracket_rounds,
    reached,
    series,
    snake_groups,
)
from tally.events.knockout.lives import LifeLine, Outcome, count_lives, rank_by_stage
from tally.events.knockout.state import KnockoutState, Match
from tally.events.knockout.words import (
    IN_GROUP,
    IN_PLAYOFF,
    LOST_PLAYOFF,
    OUT,
    OUT_IN,
    WINNER,
    WITHDREW,
    Said,
    bracket_round_name,
    lives_left,
    ordinal,
)
from tally.events.schedule import Pairing, berger_schedule, rounds_for
from tally.events.tiebreaks import MatchResult, StandingRow
from tally.events.tiebreaks import standings as rank_players

__all__ = [
    "Fill",
    "alive",
    "bracket",
    "bracket_series",
    "bracket_slots",
    "fill",
    "finalists",
    "group_round",
    "group_rounds",
    "group_tables",
    "groups_of",
    "lives_lines",
    "lives_rounds",
    "not_needed",
    "ordinary",
    "playoff_pairs",
    "results",
    "stage_keys",
    "tied",
    "unmade_forfeits",
]


def bracket_slots(st: KnockoutState) -> tuple[int | None, ...] | None:
    text = st.fmt["bracket"]
    if text is None:
        return None
    return tuple(int(x) if x else None for x in text.split(","))


def lives_lines(st: KnockoutState) -> list[LifeLine]:
    """Each entrant's lives over the rounds of the lives stage started so far."""
    upto = lives_rounds(st)
    gone = st.withdrawn
    outcomes = []
    for m in st.matches:
        if m.round is None or m.round > upto:
            continue
        loser = None if m.winner is None else (m.b if m.winner == m.a else m.a)
        outcomes.append(Outcome(m.round, str(m.a), str(m.b), None if loser is None else str(loser)))
    byes = {n: None if bye is None else str(bye) for n, (bye, _) in st.started.items() if n <= upto}
    return count_lives(
        [str(p) for p in st.ids],
        st.fmt["lives"],
        upto,
        outcomes,
        byes,
        withdrawn={str(p): min(r, upto) for p, r in gone.items()},
        bought={str(p): rs for p, rs in st.bought.items()},
    )


def lives_rounds(st: KnockoutState) -> int:
    """How many rounds of the lives stage (the draws by lot) were started: those before a
    play-off for the final stage or the bracket."""
    ends = [r for r in (st.fmt["playoff_round"], st.fmt["bracket_round"]) if r is not None]
    return min(ends) - 1 if ends else len(st.started)


@dataclass(frozen=True)
class Fill:
    """A knockout's final stage short of players: the ``places`` left, the players out in
    the round that left it short (``candidates``, entry order), those still in the play-off
    (``left``) and the play-off round each loser lost in (``lost``)."""

    places: int
    candidates: list[int]
    left: list[int]
    lost: dict[int, int]


def fill(st: KnockoutState) -> Fill | None:
    """How the final stage of a knockout stands when the last round of lives left fewer
    players still in than it holds; None when it did not (or the event has none)."""
    final = st.fmt["final_size"]
    upto = lives_rounds(st)
    if not st.has_lives or final is None or upto == 0:
        return None
    places = final - len(alive(st))
    if places <= 0:
        return None
    gone = st.withdrawn
    candidates = [
        int(x.player) for x in lives_lines(st) if x.out_in == upto and int(x.player) not in gone
    ]
    lost: dict[int, int] = {}
    start, bracket = st.fmt["playoff_round"], st.fmt["bracket_round"]
    for m in st.matches:
        if (
            start is None
            or m.round is None
            or m.round < start
            or m.winner is None
            or (bracket is not None and m.round >= bracket)
        ):
            continue
        lost[m.b if m.winner == m.a else m.a] = m.round
    left = [p for p in candidates if p not in lost]
    return Fill(places, candidates, left, lost)


def finalists(st: KnockoutState) -> list[int] | None:
    """The players a knockout's final stage starts with, once it is due: those still in,
    and when a round left it short, the winners of the play-off for the places left (or
    with ``final_fill`` "tiebreaks" the best of the players out in that round by the
    event's standings); None while it is not due (more players still in than it holds, or
    a play-off round to come)."""
    final = st.fmt["final_size"]
    still = alive(st)
    if final is None or len(still) > final:
        return None
    short = fill(st)
    if short is None:
        return still if len(still) >= 2 else None
    if st.fmt["final_fill"] != "tiebreaks" and len(short.left) > short.places:
        return None
    rank = {r.player: r.rank for r in ordinary(st, st.tiebreaks)}
    seeds = {e.player_id: e.seed for e in st.entrants}
    best = sorted(short.left, key=lambda p: (rank[st.names[p]], seeds[p]))
    return still + best[: short.places]


def groups_of(st: KnockoutState) -> list[list[int]]:
    return [[int(x) for x in g] for g in snake_groups([str(p) for p in st.ids], st.fmt["groups"])]


def group_rounds(st: KnockoutState) -> int:
    return max((rounds_for(len(g)) for g in groups_of(st) if len(g) >= 2), default=0)


def _result(st: KnockoutState, m: Match, winner: int) -> MatchResult:
    return MatchResult(
        st.names[m.a],
        st.names[m.b],
        st.names[winner],
        m.gp[m.a],
        m.gp[m.b],
        m.schneider[m.a],
        m.schneider[m.b],
        m.schwarz[m.a],
        m.schwarz[m.b],
    )


def results(st: KnockoutState, matches: Sequence[Match]) -> list[MatchResult]:
    """Finished matches, and the withdrawal rule's forfeits of matches not over (a game
    played stands: :mod:`tally.events.withdrawals`)."""
    out = []
    for m in matches:
        if m.winner is not None:
            out.append(_result(st, m, m.winner))
        elif st.ev["withdrawal"] == "forfeit":
            winner = st.forfeit_winner(m.a, m.b)
            if winner is not None:
                out.append(_result(st, m, winner))
    return out


def unmade_forfeits(st: KnockoutState, members: set[int] | None = None) -> list[MatchResult]:
    """Groups under the ``forfeit`` rule: each scheduled group match not made of a round
    started, of a player who had withdrawn against one still in then, is a match won by the
    opponent (no game points), as in a round robin; only matches among ``members`` when
    given."""
    if not st.has_groups or st.ev["withdrawal"] != "forfeit" or not st.withdrawn:
        return []
    made = {(m.round, m.table) for m in st.matches}
    out = []
    for number in range(1, group_rounds(st) + 1):
        if number not in st.started:
            continue  # credited round by round, as the rounds are played
        for p in group_round(st, number)[0]:
            a, b = int(p.first), int(p.second)
            if (number, p.table) in made:
                continue
            if members is not None and not {a, b} <= members:
                continue
            winner = st.forfeit_winner(a, b, number)
            if winner is not None:
                out.append(MatchResult(st.names[a], st.names[b], st.names[winner], 0, 0))
    return out


def ordinary(st: KnockoutState, tiebreaks: Sequence[str]) -> list[StandingRow]:
    """The ordinary standings over every match but the play-offs."""
    per_win = float(st.ev["match_points_per_win"])
    byes: dict[str, int] = defaultdict(int)
    for bye, _ in st.started.values():
        if bye is not None:
            byes[st.names[bye]] += 1
    players = [st.names[p] for p in st.ids]
    players += [n for p, n in st.names.items() if n not in players]
    spare = not_needed(st)
    played = results(st, [m for m in st.matches if m.round is not None and m.id not in spare])
    return rank_players(
        players,
        played + unmade_forfeits(st),
        match_points_per_win=per_win,
        match_points_per_bye=per_win if st.ev["bye"] == "win" else 0.0,
        byes=dict(byes),
        tiebreaks=tiebreaks,
    )


def playoff_pairs(st: KnockoutState) -> list[tuple[str, str]]:
    return [
        (str(m.winner), str(m.b if m.winner == m.a else m.a))
        for m in st.playoffs
        if m.winner is not None
    ]


def group_tables(st: KnockoutState, tiebreaks: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Each group's standings as (rank, player), play-offs applied."""
    total = group_rounds(st)
    out = []
    for group in groups_of(st):
        members = set(group)
        ms = [
            m
            for m in st.matches
            if m.round is not None and m.round <= total and {m.a, m.b} <= members
        ]
        rows = rank_players(
            [st.names[p] for p in group],
            results(st, ms) + unmade_forfeits(st, members),
            match_points_per_win=float(st.ev["match_points_per_win"]),
            tiebreaks=tiebreaks,
        )
        by_name = {n: p for p, n in st.names.items()}
        field_rank = {str(by_name[r.player]): r.rank for r in rows}
        ranked = rank_by_stage(
            [str(p) for p in group], field_rank, {str(p): (0,) for p in group}, playoff_pairs(st)
        )
        out.append([(rank, int(p)) for rank, p in ranked])
    return out


def bracket(st: KnockoutState) -> list[list[BracketMatch]] | None:
    """The bracket's rounds with every result and walkover so far (None before it is
    seeded); players as their numbers in text."""
    slots = bracket_slots(st)
    if slots is None:
        return None
    first = st.fmt["bracket_round"]
    gone = {str(p) for p in st.withdrawn}
    results: dict[tuple[int, int], str | None] = {
        (number - first + 1, table): str(winner)
        for (number, table), (winner, _) in bracket_series(st).items()
        if winner is not None
    }
    text = tuple(None if s is None else str(s) for s in slots)
    while True:
        found = bracket_rounds(text, results)
        changed = False
        for matches in found:
            for bm in matches:
                if bm.decided or not bm.playable:
                    continue
                out = {bm.first, bm.second} & gone
                if out:
                    assert bm.first is not None and bm.second is not None
                    through = st.forfeit_winner(int(bm.first), int(bm.second), bm.round + first - 1)
                    results[(bm.round, bm.table)] = None if through is None else str(through)
                    changed = True
        if not changed:
            return found


def bracket_series(st: KnockoutState) -> dict[tuple[int, int], tuple[int | None, list[Match]]]:
    """Each table of the bracket's rounds (event round, table): the pairing's winner (None
    while undecided) and the matches that count, in the order played (best of N:
    :func:`tally.events.knockout.bracket.series`)."""
    first = st.fmt["bracket_round"]
    if first is None:
        return {}
    by: dict[tuple[int, int], list[Match]] = defaultdict(list)
    for m in st.matches:
        if m.round is not None and m.round >= first and m.table:
            by[(m.round, m.table)].append(m)
    out: dict[tuple[int, int], tuple[int | None, list[Match]]] = {}
    for key, made in by.items():
        made.sort(key=lambda m: m.id)
        winner, counted = series(
            [None if m.winner is None else str(m.winner) for m in made], st.fmt["best_of"]
        )
        out[key] = (None if winner is None else int(winner), made[:counted])
    return out


def not_needed(st: KnockoutState) -> set[int]:
    """The bracket's matches not needed: played best of N, those after the deciding one."""
    counted = {m.id for _, made in bracket_series(st).values() for m in made}
    first = st.fmt["bracket_round"]
    return {
        m.id
        for m in st.matches
        if first is not None
        and m.round is not None
        and m.round >= first
        and m.table
        and m.id not in counted
    }


def stage_keys(
    st: KnockoutState, tiebreaks: Sequence[str]
) -> tuple[dict[str, tuple[int, ...]], dict[str, Message]]:
    """Each player's stage key (higher is better) and the words for how far they got."""
    keys: dict[str, tuple[int, ...]] = {}
    words: dict[str, Message] = {}
    if st.has_lives:
        for line in lives_lines(st):
            keys[line.player] = (0, *line.stage_key)
            words[line.player] = (
                lives_left(line.lives) if line.out_in is None else Said(OUT_IN, n=line.out_in)
            )
        _playoff_stages(st, keys, words)
    else:
        gone = st.withdrawn
        for number, table in enumerate(group_tables(st, tiebreaks), start=1):
            for rank, p in table:
                keys[str(p)] = (0, -1, 0) if p in gone else (0, 0, -rank)
                words[str(p)] = Said(IN_GROUP, group=number, place=ordinal(rank))
    _bracket_stages(st, keys, words)
    for pid in st.withdrawn:
        if str(pid) in words:
            words[str(pid)] = Said(WITHDREW, stage=words[str(pid)])
    return keys, words


def _bracket_stages(
    st: KnockoutState, keys: dict[str, tuple[int, ...]], words: dict[str, Message]
) -> None:
    """The stage keys and words of the players who reached the bracket: the round reached,
    the champion best."""
    found = bracket(st)
    if found is None:
        return
    last = len(found)
    champion = found[-1][0].winner if found[-1][0].decided else None
    for who, r in reached(found).items():
        keys[who] = (1, r)
        if who == champion and r > last:
            words[who] = Said(WINNER)
        else:
            name = bracket_round_name(r, last)
            words[who] = name if _still_in(found, who) else Said(OUT, stage=name)


def _playoff_stages(
    st: KnockoutState, keys: dict[str, tuple[int, ...]], words: dict[str, Message]
) -> None:
    """The stage keys and words of the players in a play-off for the final stage: above
    those out before them, the later they lost the play-off the better; still in it best."""
    short = fill(st) if st.fmt["playoff_round"] is not None else None
    if short is None:
        return
    for p in short.candidates:
        lost = short.lost.get(p)
        keys[str(p)] = (*keys[str(p)], len(st.started) + 1 if lost is None else lost)
        words[str(p)] = Said(IN_PLAYOFF) if lost is None else Said(LOST_PLAYOFF, n=lost)


def _still_in(found: list[list[BracketMatch]], player: str) -> bool:
    for matches in found:
        for bm in matches:
            if player in (bm.first, bm.second) and bm.decided and bm.winner != player:
                return False
    return True


def group_round(st: KnockoutState, number: int) -> tuple[list[Pairing], list[int]]:
    """The pairings of round ``number`` of every group (tables numbered on from group to
    group) and the byes."""
    pairings: list[Pairing] = []
    byes: list[int] = []
    for group in groups_of(st):
        if len(group) < 2:
            continue
        sched = berger_schedule([str(p) for p in group])
        if number > len(sched):
            continue
        rnd = sched[number - 1]
        offset = len(pairings)
        pairings += [Pairing(offset + p.table, p.first, p.second) for p in rnd.pairings]
        if rnd.bye is not None:
            byes.append(int(rnd.bye))
    return pairings, byes


def alive(st: KnockoutState) -> list[int]:
    """Knockout: the players still in, in seeding order."""
    if not st.has_lives:
        return []
    return [int(x.player) for x in lives_lines(st) if x.out_in is None]


def tied(st: KnockoutState, order: tuple[str, ...], a: int, b: int) -> bool:
    """Whether players ``a`` and ``b`` share a rank overall or in their group."""
    rows = ordinary(st, order)
    by_name = {n: p for p, n in st.names.items()}
    field_rank = {str(by_name[r.player]): r.rank for r in rows}
    keys, _ = stage_keys(st, order)
    ranked = dict(
        (p, r)
        for r, p in rank_by_stage([str(p) for p in st.ids], field_rank, keys, playoff_pairs(st))
    )
    if ranked[str(a)] == ranked[str(b)]:
        return True
    if st.has_groups:
        for table in group_tables(st, order):
            rank = {p: r for r, p in table}
            if a in rank and b in rank and rank[a] == rank[b]:
                return True
    return False
