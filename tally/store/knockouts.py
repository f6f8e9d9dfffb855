"""Knockouts with lives and groups then knockout, in the store: their format, their rounds,
play-offs and standings by elimination. :mod:`tally.store.events` hands these kinds of event
over to this module; the drawing, lives, ranking and brackets themselves are the pure engine
modules :mod:`tally.events.knockout` and :mod:`tally.events.bracket`.

**Knockout with lives** (``kind="knockout"``, ``lives``, ``draw_seed``, optional
``final_size``). Each round is drawn by lot when it is started (:func:`start_round`), among
the players still in, with the event's seed (``tally.events.knockout.draw_round``); the draw is then
stored as the round's matches (round and table) and its bye, so a later correction of a
result never redraws a round already played. A round can start once every match of the round
before is over (or has a withdrawn player in it). A lost match costs a life; a player is out
in the round of their last life. The event is over when one player is left; with
``final_size`` N (a power of two), the first round started with N or fewer players still in
starts a straight knockout among them instead: seeded by lives left, then by the ordinary
standings, then by entry order (:func:`tally.events.bracket.seeded_slots`; the best seeds get the
byes when fewer than N are left).

**Groups then knockout** (``kind="groups"``, ``groups`` G, ``advance`` K). The players, in
entry order, are dealt into G groups as a snake (:func:`tally.events.bracket.snake_groups`); each
group plays a single round robin by the Berger tables, all groups in the same event rounds
(1 to the most any group needs), tables numbered on from group to group. A bye in a group
scores nothing. Once every group match is over, the next round seeds the top K of each group
(by the group's standings: match points, the event's tiebreaks, then play-offs, then entry
order; a withdrawn player never goes through, the next one does) into a bracket across
groups (:func:`tally.events.bracket.group_slots`).

**The bracket** (both kinds). Round k of the bracket is event round ``bracket_round + k - 1``
and table t its match t; the player in the upper slot deals first. A player who withdraws
loses their bracket match not over (or not made yet): the opponent goes through (whatever the
event's withdrawal rule says: a knockout must go on); nobody goes through when both withdrew.

**Late entries and withdrawals.** A knockout takes late entries (``add_players``) until the
first player is out, in the lives stage: they join the next round drawn with full lives.
Groups take new players only before the first round (the groups are made from the entries).
A withdrawn player gets no new match and no bye; in the lives stage they are out at once
(:mod:`tally.events.knockout`), in a group their remaining matches are forfeit or void by the
event's rule (as in a round robin), in the bracket see above.

**Play-offs** ("Stechen", :meth:`Knockouts.record_playoff`): a match between two players who share a
rank (overall, or in a group's standings when it decides who goes through), made without a
round. It counts in no standings' totals; its winner ranks above the loser of the tie
(:func:`tally.events.knockout.rank_by_stage`).

**Standings** (:func:`standings`, :meth:`Knockouts.view`): ranked by how far each player got
(see :func:`_stage_keys`): in the bracket by the round reached (the champion first), then in
the lives stage by the round of elimination (players still in by lives left), then for groups
by the place in the group (withdrawn players who did not reach the bracket last); then the
ordinary standings (match points and the event's tiebreaks over every match but the
play-offs, byes and forfeits as the event's rules say), then play-offs.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, insert, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally.engine.kernel import OUTRIGHT, SCHNEIDER_WIN, SCHWARZ_WIN, match_won
from tally.errors import Advice, Message, NotFound, Refused
from tally.events.bracket import (
    TBD,
    BracketMatch,
    bracket_rounds,
    bracket_size,
    check_best_of,
    group_slots,
    reached,
    seeded_slots,
    series,
    snake_groups,
)
from tally.events.formats import EventFormat, Given, format_of
from tally.events.knockout import (
    LifeLine,
    Outcome,
    count_lives,
    draw_playoff,
    draw_round,
    rank_by_stage,
)
from tally.events.prizes import PrizeTable, parse_shares, payout, pool, prize_table
from tally.events.schedule import Pairing, berger_schedule, rounds_for
from tally.events.tiebreaks import MatchResult, StandingRow
from tally.events.tiebreaks import standings as rank_players
from tally.events.withdrawals import forfeit_winner
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, Snapshot, snapshot
from tally.store.derivation import Results, rule_set
from tally.store.players import resolve_player
from tally.store.roundrows import insert_round
from tally.store.transactions import Database
from tally.store.views import EventView, PairingMatchView, PairingView, RoundView, StandingsView

__all__ = [
    "BracketMatchView",
    "KnockoutLine",
    "KnockoutView",
    "Knockouts",
    "PrizeView",
    "check_late_entry",
    "insert_format",
    "rounds",
    "standings",
    "start_round",
]


# --- the format ------------------------------------------------------------------------------


def insert_format(conn: Connection, event_id: int, values: dict[str, Any]) -> None:
    """Store a new event's format row (values from its settings' ``draw()``)."""
    conn.execute(
        insert(t.event_formats).values(
            event_id=event_id, bracket_round=None, bracket=None, **values
        )
    )


#: what :meth:`Knockouts.settings` reads of the ``event_formats`` row
FORMAT_KEYS = (
    "lives",
    "draw_seed",
    "final_size",
    "groups",
    "advance",
    "final_fill",
    "best_of",
    "entry_fee",
    "prize_shares",
    "prize_unit",
    "buy_back_until",
    "buy_back_fee",
    "buy_backs",
    "buy_back_at_once",
)


def check_late_entry(conn: Connection, ev: RowMapping, adding: int) -> None:
    """Refuse players added to a knockout or groups when the format no longer takes them
    (see the module docstring)."""
    st = load_state(conn, ev)
    if st.format.has_groups:
        if st.started:
            raise eventrows.entries_refused(
                ev["id"], ev["name"], "the groups are made from the entries"
            )
        st.format.settings(
            Given(
                players=len(st.entrants) + adding,
                groups=st.fmt["groups"],
                advance=st.fmt["advance"],
            )
        )
        return
    out = [x for x in lives_lines(st) if x.out_in is not None and not x.withdrawn]
    if st.fmt["bracket_round"] is not None or out:
        raise eventrows.entries_refused(
            ev["id"], ev["name"], "a knockout takes late entries until the first player is out"
        )


# --- what is stored, loaded ------------------------------------------------------------------


@dataclass(frozen=True)
class _M:
    """A match of the event with its totals from the result cache and its winner."""

    id: int
    a: int
    b: int
    first_dealer: int
    round: int | None
    table: int | None
    gp: dict[int, int]
    schneider: dict[int, int]
    schwarz: dict[int, int]
    winner: int | None


@dataclass(frozen=True)
class _State:
    ev: RowMapping
    fmt: RowMapping
    entrants: list[RowMapping]
    names: dict[int, str]
    #: round number -> (bye player or None, started at)
    started: dict[int, tuple[int | None, datetime]]
    matches: list[_M]
    #: the buy-backs ("Nachkauf"): player -> the rounds they bought a life back after
    bought: dict[int, list[int]] = dataclasses.field(default_factory=dict)
    #: the buy-backs' fees paid (cents)
    bought_fees: int = 0

    @property
    def format(self) -> EventFormat:
        return format_of(self.ev["kind"])

    @property
    def ids(self) -> list[int]:
        return [e["player_id"] for e in self.entrants]

    @property
    def withdrawn(self) -> dict[int, int]:
        """Withdrawn player -> the last round started when they withdrew (0: before any)."""
        out: dict[int, int] = {}
        for e in self.entrants:
            when = e["withdrawn_at"]
            if when is not None:
                out[e["player_id"]] = max(
                    (n for n, (_, at) in self.started.items() if at <= when), default=0
                )
        return out

    @property
    def left(self) -> dict[int, datetime]:
        """Withdrawn player -> when they withdrew (:mod:`tally.events.withdrawals`)."""
        return {e["player_id"]: e["withdrawn_at"] for e in self.entrants if e["withdrawn_at"]}

    def since(self, number: int | None) -> datetime | None:
        """When round ``number`` was started (None: a play-off, made before it mattered);
        a round not started yet: after every withdrawal so far."""
        if number is None:
            return None
        if number in self.started:
            return self.started[number][1]
        return max(self.left.values(), default=None)

    def forfeit_winner(self, a: int, b: int, number: int | None = None) -> int | None:
        """Who wins by forfeit a match not won between ``a`` and ``b`` (of round ``number``
        when it was never made): :func:`tally.events.withdrawals.forfeit_winner`."""
        return forfeit_winner(a, b, self.left, self.since(number))

    def of_round(self, number: int) -> list[_M]:
        return sorted(
            (m for m in self.matches if m.round == number), key=lambda m: (m.table or 0, m.id)
        )

    @property
    def playoffs(self) -> list[_M]:
        return [m for m in self.matches if m.round is None]


def load_state(conn: Connection, ev: RowMapping) -> _State:
    eid = ev["id"]
    fmt = (
        conn.execute(select(t.event_formats).where(t.event_formats.c.event_id == eid))
        .mappings()
        .first()
    )
    if fmt is None:
        raise NotFound(f'event {eid} "{ev["name"]}" has no knockout format stored')
    entrants = eventrows.event_players(conn, eid)
    names = {e["player_id"]: e["name"] for e in entrants}
    started = {
        r["number"]: (r["bye_player_id"], r["started_at"])
        for r in conn.execute(
            select(t.event_rounds).where(t.event_rounds.c.event_id == eid)
        ).mappings()
    }
    rows = (
        conn.execute(select(t.matches).where(t.matches.c.event_id == eid).order_by(t.matches.c.id))
        .mappings()
        .all()
    )
    r = t.deal_results
    outright = r.c.reason.in_([str(reason) for reason in OUTRIGHT])

    def wins(worth: int) -> Any:
        return func.sum(case((and_(r.c.deal_points == worth, outright), 1), else_=0))

    totals: dict[tuple[int, int], tuple[int, int, int]] = {}
    if rows:
        for mid, pid, gp, sch, swz in conn.execute(
            select(
                r.c.match_id,
                r.c.winner_id,
                func.sum(r.c.game_points),
                wins(SCHNEIDER_WIN),
                wins(SCHWARZ_WIN),
            )
            .where(r.c.winner_id.is_not(None), r.c.match_id.in_([row["id"] for row in rows]))
            .group_by(r.c.match_id, r.c.winner_id)
        ):
            totals[(mid, pid)] = (int(gp or 0), int(sch or 0), int(swz or 0))
    target = rule_set(ev["rules"]).match_target
    matches = []
    for row in rows:
        a, b = row["player_a_id"], row["player_b_id"]
        ta, tb = totals.get((row["id"], a), (0, 0, 0)), totals.get((row["id"], b), (0, 0, 0))
        winner = a if match_won(ta[0], target) else b if match_won(tb[0], target) else None
        matches.append(
            _M(
                row["id"],
                a,
                b,
                row["first_dealer_id"],
                row["round_number"],
                row["table_number"],
                {a: ta[0], b: tb[0]},
                {a: ta[1], b: tb[1]},
                {a: ta[2], b: tb[2]},
                winner,
            )
        )
        for p in (a, b):
            if p not in names:
                names[p] = conn.execute(
                    select(t.players.c.name).where(t.players.c.id == p)
                ).scalar_one()
    bought: dict[int, list[int]] = defaultdict(list)
    fees = 0
    b = t.event_buy_backs
    for pid, after, fee in conn.execute(
        select(b.c.player_id, b.c.after_round, b.c.fee).where(b.c.event_id == eid).order_by(b.c.id)
    ):
        bought[pid].append(after)
        fees += fee
    return _State(ev, fmt, entrants, names, started, matches, dict(bought), fees)


def _bracket_slots(st: _State) -> tuple[int | None, ...] | None:
    text = st.fmt["bracket"]
    if text is None:
        return None
    return tuple(int(x) if x else None for x in text.split(","))


# --- lives, groups, bracket ------------------------------------------------------------------


def lives_lines(st: _State) -> list[LifeLine]:
    """Each entrant's lives over the rounds of the lives stage started so far."""
    upto = _lives_rounds(st)
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


def _lives_rounds(st: _State) -> int:
    """How many rounds of the lives stage (the draws by lot) were started: those before a
    play-off for the final stage or the bracket."""
    ends = [r for r in (st.fmt["playoff_round"], st.fmt["bracket_round"]) if r is not None]
    return min(ends) - 1 if ends else len(st.started)


@dataclass(frozen=True)
class _Fill:
    """A knockout's final stage short of players: the ``places`` left, the players out in
    the round that left it short (``candidates``, entry order), those still in the play-off
    (``left``) and the play-off round each loser lost in (``lost``)."""

    places: int
    candidates: list[int]
    left: list[int]
    lost: dict[int, int]


def _fill(st: _State) -> _Fill | None:
    """How the final stage of a knockout stands when the last round of lives left fewer
    players still in than it holds; None when it did not (or the event has none)."""
    final = st.fmt["final_size"]
    upto = _lives_rounds(st)
    if not st.format.has_lives or final is None or upto == 0:
        return None
    places = final - len(_alive(st))
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
    return _Fill(places, candidates, left, lost)


def _finalists(st: _State) -> list[int] | None:
    """The players a knockout's final stage starts with, once it is due: those still in,
    and when a round left it short, the winners of the play-off for the places left (or
    with ``final_fill`` "tiebreaks" the best of the players out in that round by the
    event's standings); None while it is not due (more players still in than it holds, or
    a play-off round to come)."""
    final = st.fmt["final_size"]
    alive = _alive(st)
    if final is None or len(alive) > final:
        return None
    fill = _fill(st)
    if fill is None:
        return alive if len(alive) >= 2 else None
    if st.fmt["final_fill"] != "tiebreaks" and len(fill.left) > fill.places:
        return None
    order = tuple(x for x in st.ev["tiebreaks"].split(",") if x)
    rank = {r.player: r.rank for r in _field(st, order)}
    seeds = {e["player_id"]: e["seed"] for e in st.entrants}
    best = sorted(fill.left, key=lambda p: (rank[st.names[p]], seeds[p]))
    return alive + best[: fill.places]


def _groups(st: _State) -> list[list[int]]:
    return [[int(x) for x in g] for g in snake_groups([str(p) for p in st.ids], st.fmt["groups"])]


def _group_rounds(st: _State) -> int:
    return max((rounds_for(len(g)) for g in _groups(st) if len(g) >= 2), default=0)


def _result(st: _State, m: _M, winner: int) -> MatchResult:
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


def _results(st: _State, matches: Sequence[_M]) -> list[MatchResult]:
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


def _unmade_forfeits(st: _State, members: set[int] | None = None) -> list[MatchResult]:
    """Groups under the ``forfeit`` rule: each scheduled group match not made of a round
    started, of a player who had withdrawn against one still in then, is a match won by the
    opponent (no game points), as in a round robin; only matches among ``members`` when
    given."""
    if not st.format.has_groups or st.ev["withdrawal"] != "forfeit" or not st.withdrawn:
        return []
    made = {(m.round, m.table) for m in st.matches}
    out = []
    for number in range(1, _group_rounds(st) + 1):
        if number not in st.started:
            continue  # credited round by round, as the rounds are played
        for p in _group_round(st, number)[0]:
            a, b = int(p.first), int(p.second)
            if (number, p.table) in made:
                continue
            if members is not None and not {a, b} <= members:
                continue
            winner = st.forfeit_winner(a, b, number)
            if winner is not None:
                out.append(MatchResult(st.names[a], st.names[b], st.names[winner], 0, 0))
    return out


def _field(st: _State, tiebreaks: Sequence[str]) -> list[StandingRow]:
    """The ordinary standings over every match but the play-offs."""
    per_win = float(st.ev["match_points_per_win"])
    byes: dict[str, int] = defaultdict(int)
    for bye, _ in st.started.values():
        if bye is not None:
            byes[st.names[bye]] += 1
    players = [st.names[p] for p in st.ids]
    players += [n for p, n in st.names.items() if n not in players]
    spare = _not_needed(st)
    results = _results(st, [m for m in st.matches if m.round is not None and m.id not in spare])
    return rank_players(
        players,
        results + _unmade_forfeits(st),
        match_points_per_win=per_win,
        match_points_per_bye=per_win if st.ev["bye"] == "win" else 0.0,
        byes=dict(byes),
        tiebreaks=tiebreaks,
    )


def _playoff_pairs(st: _State) -> list[tuple[str, str]]:
    return [
        (str(m.winner), str(m.b if m.winner == m.a else m.a))
        for m in st.playoffs
        if m.winner is not None
    ]


def _group_tables(st: _State, tiebreaks: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Each group's standings as (rank, player), play-offs applied."""
    total = _group_rounds(st)
    out = []
    for group in _groups(st):
        members = set(group)
        ms = [
            m
            for m in st.matches
            if m.round is not None and m.round <= total and {m.a, m.b} <= members
        ]
        rows = rank_players(
            [st.names[p] for p in group],
            _results(st, ms) + _unmade_forfeits(st, members),
            match_points_per_win=float(st.ev["match_points_per_win"]),
            tiebreaks=tiebreaks,
        )
        by_name = {n: p for p, n in st.names.items()}
        field_rank = {str(by_name[r.player]): r.rank for r in rows}
        ranked = rank_by_stage(
            [str(p) for p in group], field_rank, {str(p): (0,) for p in group}, _playoff_pairs(st)
        )
        out.append([(rank, int(p)) for rank, p in ranked])
    return out


def _bracket(st: _State) -> list[list[BracketMatch]] | None:
    """The bracket's rounds with every result and walkover so far (None before it is
    seeded); players as their numbers in text."""
    slots = _bracket_slots(st)
    if slots is None:
        return None
    first = st.fmt["bracket_round"]
    gone = {str(p) for p in st.withdrawn}
    results: dict[tuple[int, int], str | None] = {
        (number - first + 1, table): str(winner)
        for (number, table), (winner, _) in _bracket_series(st).items()
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


def _bracket_series(st: _State) -> dict[tuple[int, int], tuple[int | None, list[_M]]]:
    """Each table of the bracket's rounds (event round, table): the pairing's winner (None
    while undecided) and the matches that count, in the order played (best of N:
    :func:`tally.events.bracket.series`)."""
    first = st.fmt["bracket_round"]
    if first is None:
        return {}
    by: dict[tuple[int, int], list[_M]] = defaultdict(list)
    for m in st.matches:
        if m.round is not None and m.round >= first and m.table:
            by[(m.round, m.table)].append(m)
    out: dict[tuple[int, int], tuple[int | None, list[_M]]] = {}
    for key, made in by.items():
        made.sort(key=lambda m: m.id)
        winner, counted = series(
            [None if m.winner is None else str(m.winner) for m in made], st.fmt["best_of"]
        )
        out[key] = (None if winner is None else int(winner), made[:counted])
    return out


def _not_needed(st: _State) -> set[int]:
    """The bracket's matches not needed: played best of N, those after the deciding one."""
    counted = {m.id for _, made in _bracket_series(st).values() for m in made}
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


def _stage_keys(
    st: _State, tiebreaks: Sequence[str]
) -> tuple[dict[str, tuple[int, ...]], dict[str, str]]:
    """Each player's stage key (higher is better) and the words for how far they got."""
    keys: dict[str, tuple[int, ...]] = {}
    words: dict[str, str] = {}
    gone = st.withdrawn
    if st.format.has_lives:
        for line in lives_lines(st):
            keys[line.player] = (0, *line.stage_key)
            words[line.player] = (
                f"still in, {line.lives} {'life' if line.lives == 1 else 'lives'}"
                if line.out_in is None
                else f"out in round {line.out_in}"
            )
        _playoff_stages(st, keys, words)
    else:
        for number, table in enumerate(_group_tables(st, tiebreaks), start=1):
            for rank, p in table:
                keys[str(p)] = (0, -1, 0) if p in gone else (0, 0, -rank)
                words[str(p)] = f"group {number}, {_ordinal(rank)}"
    found = _bracket(st)
    if found is not None:
        last = len(found)
        champion = found[-1][0].winner if found[-1][0].decided else None
        for who, r in reached(found).items():
            keys[who] = (1, r)
            words[who] = (
                "winner"
                if who == champion and r > last
                else _bracket_round_name(r, last) + ("" if _still_in(found, who) else ", out")
            )
    for pid in gone:
        if str(pid) in words and "withdrew" not in words[str(pid)]:
            words[str(pid)] += ", withdrew"
    return keys, words


def _playoff_stages(st: _State, keys: dict[str, tuple[int, ...]], words: dict[str, str]) -> None:
    """The stage keys and words of the players in a play-off for the final stage: above
    those out before them, the later they lost the play-off the better; still in it best."""
    fill = _fill(st) if st.fmt["playoff_round"] is not None else None
    if fill is None:
        return
    for p in fill.candidates:
        lost = fill.lost.get(p)
        keys[str(p)] = (*keys[str(p)], len(st.started) + 1 if lost is None else lost)
        words[str(p)] = (
            "in the play-off for the final stage"
            if lost is None
            else f"lost the play-off in round {lost}"
        )


def _still_in(found: list[list[BracketMatch]], player: str) -> bool:
    for matches in found:
        for bm in matches:
            if player in (bm.first, bm.second) and bm.decided and bm.winner != player:
                return False
    return True


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _bracket_round_name(r: int, last: int) -> str:
    """``final``, ``semi-final``, ``quarter-final``, ``round of 16``..., for round ``r`` of
    a bracket of ``last`` rounds."""
    left = last - r
    if left == 0:
        return "final"
    if left == 1:
        return "semi-final"
    if left == 2:
        return "quarter-final"
    return f"round of {2 ** (left + 1)}"


# --- views -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BracketMatchView:
    """A match of the bracket: ``first`` and ``second`` (None: a bye; ``""``: not known
    yet, player names are never blank), the winner once decided, the match made for it and
    its score (first player's game points first)."""

    round: int
    table: int
    first: str | None
    second: str | None
    winner: str | None
    decided: bool
    match_id: int | None
    result: str | None


@dataclass(frozen=True)
class KnockoutLine:
    """A player's line of the standings by elimination: rank, how far they got
    (``stage``), lives left (knockout), the round they were out in, their group (groups),
    a mark per round (``W``, ``L``, ``B`` bye, ``?`` playing, ``-`` not playing) and their
    ordinary standings row."""

    rank: int
    player: str
    seed: int
    stage: str
    lives: int | None
    out_in: int | None
    group: int | None
    withdrawn: bool
    marks: tuple[str, ...]
    row: StandingRow
    #: lives bought back ("Nachkauf") and the prize won (cents; None: no prize table)
    bought: int = 0
    prize: int | None = None


@dataclass(frozen=True)
class KnockoutView:
    """A knockout or groups event as its wall sheet shows it: the lines by elimination, the
    groups (names, in group order), the bracket's rounds, the play-offs, where it stands
    (``stage``), the champion once there is one, and the format (lives, seed, final stage,
    qualifiers per group)."""

    event: EventView
    kind: str
    lives: int | None
    draw_seed: str | None
    rounds_started: int
    stage: str
    champion: str | None
    lines: tuple[KnockoutLine, ...]
    groups: tuple[tuple[str, ...], ...]
    bracket: tuple[tuple[BracketMatchView, ...], ...]
    playoffs: tuple[PairingView, ...]
    tiebreaks: tuple[str, ...]
    #: a knockout's final stage (the last N players), groups' qualifiers per group
    final_size: int | None = None
    advance: int | None = None
    #: the prize table (None: the event has none) and the buy-back rule
    prizes: PrizeView | None = None
    buy_back_until: int | None = None
    buy_back_fee: int | None = None
    buy_backs: int = 1
    #: a buy-back only straight after elimination (before the next round)
    buy_back_at_once: bool = False
    #: the bracket's pairings are played best of this many matches
    best_of: int = 1


@dataclass(frozen=True)
class PrizeView:
    """An event's prize table: entries and buy-backs with their fees (``buy_back_fee``: what
    one costs now; the pool holds what each paid), the pool, the shares
    per place (percent, best first), the prizes (rounded down to ``unit``), what the players
    win together (``paid``: players sharing places share their prizes, rounded down again) and
    what is left for the club (``club``: the pool less ``paid``, to the cent); amounts in cents
    (:mod:`tally.events.prizes`)."""

    entries: int
    entry_fee: int
    bought: int
    buy_back_fee: int
    shares: tuple[str, ...]
    table: PrizeTable
    paid: int = 0
    club: int = 0


def _prize_view(st: _State) -> PrizeView | None:
    """The event's prize table as it stands (None when it has no entry fee and shares)."""
    fee, shares = st.fmt["entry_fee"], st.fmt["prize_shares"]
    if fee is None and shares is None:
        return None
    parsed = parse_shares(shares) if shares else ()
    bought = sum(len(x) for x in st.bought.values())
    back_fee = buy_back_fee_of(st.fmt)
    total = pool(len(st.entrants), fee or 0) + st.bought_fees
    return PrizeView(
        len(st.entrants),
        fee or 0,
        bought,
        back_fee,
        tuple(f"{x.normalize():f}" for x in parsed),
        prize_table(total, parsed, st.fmt["prize_unit"]),
    )


def buy_back_fee_of(fmt: RowMapping) -> int:
    """What a buy-back costs (cents): its own fee, else the entry fee, else nothing."""
    fee = fmt["buy_back_fee"] if fmt["buy_back_fee"] is not None else fmt["entry_fee"]
    return int(fee or 0)


def _view(st: _State, event_view: EventView, order: tuple[str, ...]) -> KnockoutView:
    field = _field(st, order)
    by_name = {n: p for p, n in st.names.items()}
    field_rank = {str(by_name[r.player]): r.rank for r in field}
    rows = {str(by_name[r.player]): r for r in field}
    keys, words = _stage_keys(st, order)
    ids = [str(p) for p in st.ids]
    ranked = rank_by_stage(ids, field_rank, keys, _playoff_pairs(st))
    lines_by = {x.player: x for x in lives_lines(st)} if st.format.has_lives else {}
    group_of = {}
    if st.format.has_groups:
        group_of = {str(p): i for i, g in enumerate(_groups(st), start=1) for p in g}
    seeds = {str(e["player_id"]): e["seed"] for e in st.entrants}
    total = len(st.started)
    marks = _marks(st, total)
    lines = []
    gone = st.withdrawn
    prizes = _prize_view(st)
    won = payout([rank for rank, _ in ranked], prizes.table) if prizes else None
    if prizes is not None and won is not None:
        prizes = dataclasses.replace(prizes, paid=won.paid, club=won.club)
    for i, (rank, p) in enumerate(ranked):
        life = lines_by.get(p)
        lines.append(
            KnockoutLine(
                rank=rank,
                player=st.names[int(p)],
                seed=seeds[p],
                stage=words.get(p, ""),
                lives=None if life is None else life.lives,
                out_in=None if life is None else life.out_in,
                group=group_of.get(p),
                withdrawn=int(p) in gone,
                marks=marks[int(p)],
                row=dataclasses.replace(rows[p], rank=rank),
                bought=len(st.bought.get(int(p), [])),
                prize=None if won is None else won.won[i],
            )
        )
    found = _bracket(st)
    bracket: list[tuple[BracketMatchView, ...]] = []
    champion = None
    if found is not None:
        first = st.fmt["bracket_round"]
        played = _bracket_series(st)
        for matches in found:
            views = []
            for bm in matches:
                counted = played.get((first + bm.round - 1, bm.table), (None, []))[1]
                m = counted[0] if counted else None
                a, b = _who(st, bm.first), _who(st, bm.second)
                result = None
                if m is not None and bm.playable:
                    result = _bracket_result(st, counted, int(bm.first or 0), int(bm.second or 0))
                views.append(
                    BracketMatchView(
                        bm.round,
                        bm.table,
                        a,
                        b,
                        _who(st, bm.winner),
                        bm.decided,
                        None if m is None else m.id,
                        result,
                    )
                )
            bracket.append(tuple(views))
        if found[-1][0].decided and found[-1][0].winner:
            champion = st.names[int(found[-1][0].winner)]
    elif st.format.has_lives:
        alive = [x for x in lives_lines(st) if x.out_in is None]
        if len(alive) == 1 and total:
            champion = st.names[int(alive[0].player)]
            lines[0] = dataclasses.replace(lines[0], stage="winner")
    groups = (
        tuple(tuple(st.names[p] for p in g) for g in _groups(st)) if st.format.has_groups else ()
    )
    playoffs = tuple(_pairing(st, m.table or i, [m]) for i, m in enumerate(st.playoffs, start=1))
    return KnockoutView(
        event=event_view,
        kind=st.ev["kind"],
        lives=st.fmt["lives"],
        draw_seed=st.fmt["draw_seed"],
        rounds_started=total,
        stage=_stage(st, champion),
        champion=champion,
        lines=tuple(lines),
        groups=groups,
        bracket=tuple(bracket),
        playoffs=playoffs,
        tiebreaks=order,
        final_size=st.fmt["final_size"],
        advance=st.fmt["advance"],
        prizes=prizes,
        buy_back_until=st.fmt["buy_back_until"],
        buy_back_fee=st.fmt["buy_back_fee"],
        buy_backs=st.fmt["buy_backs"],
        buy_back_at_once=bool(st.fmt["buy_back_at_once"]),
        best_of=st.fmt["best_of"],
    )


def _bracket_result(st: _State, counted: list[_M], first: int, second: int) -> str:
    """A bracket pairing's score, first player's first: game points of its one match, or,
    played best of N, the matches each won."""
    if st.fmt["best_of"] == 1:
        return f"{counted[0].gp[first]}:{counted[0].gp[second]}"
    won = [m.winner for m in counted]
    return f"{won.count(first)}:{won.count(second)}"


def _who(st: _State, slot: str | None) -> str | None:
    if slot is None:
        return None
    return "" if slot == TBD else st.names[int(slot)]


def _marks(st: _State, total: int) -> dict[int, tuple[str, ...]]:
    """A mark per round started for every player (see :class:`KnockoutLine`)."""
    marks: dict[int, list[str]] = {p: ["-"] * total for p in st.names}
    for number, (bye, _) in st.started.items():
        if bye is not None and 1 <= number <= total:
            marks[bye][number - 1] = "B"
    gone = set(st.withdrawn)
    spare = _not_needed(st)
    for m in st.matches:
        if m.round is None or not 1 <= m.round <= total or m.id in spare:
            continue
        if m.winner is not None:
            marks[m.winner][m.round - 1] = "W"
            marks[m.b if m.winner == m.a else m.a][m.round - 1] = "L"
        else:  # still played, or not counting (a player withdrew)
            mark = "-" if {m.a, m.b} & gone else "?"
            marks[m.a][m.round - 1] = marks[m.b][m.round - 1] = mark
    return {p: tuple(x) for p, x in marks.items()}


def _stage(st: _State, champion: str | None) -> str:
    total = len(st.started)
    if champion is not None:
        return f"over after {total} rounds: {champion} won"
    if not total:
        return "not started"
    if st.fmt["bracket_round"] is not None:
        return f"round {total}, the bracket"
    if st.fmt["playoff_round"] is not None:
        return f"round {total}, the play-off for the final stage"
    if st.format.has_groups:
        return f"round {total} of {_group_rounds(st)} of the groups"
    alive = sum(1 for x in lives_lines(st) if x.out_in is None)
    return f"round {total}, {alive} players still in"


def standings(
    store: Database, event_view: EventView, *, tiebreaks: Sequence[str] | None = None
) -> StandingsView:
    """The standings of a knockout or groups event by elimination, as a
    :class:`StandingsView` (ranks by :meth:`Knockouts.view`; the rows' totals are the
    ordinary standings')."""
    view = Knockouts(store).view(event_view, tiebreaks=tiebreaks)
    return StandingsView(
        title=event_view.name,
        event=event_view,
        events=(event_view.id,),
        date_from=event_view.date,
        date_to=event_view.date,
        tiebreaks=view.tiebreaks,
        match_points_per_win=event_view.match_points_per_win,
        rows=tuple(line.row for line in view.lines),
        stage=view.stage,
        withdrawn=tuple(p.name for p in event_view.players if p.withdrawn),
    )


# --- rounds ----------------------------------------------------------------------------------


def _pairing(
    st: _State,
    table: int,
    made: list[_M],
    planned: Pairing | None = None,
    number: int | None = None,
) -> PairingView:
    """A table of a round as the generic pairing view (first = player a)."""
    if made:
        a, b, dealer = made[0].a, made[0].b, made[0].first_dealer
    else:
        assert planned is not None
        a, b = int(planned.first), int(planned.second)
        dealer = a
    gone = [x for x in (a, b) if x in st.withdrawn]
    spare = _not_needed(st)
    views = tuple(
        PairingMatchView(
            m.id,
            st.names[m.first_dealer],
            f"{m.gp[a]}:{m.gp[b]}",
            None if m.winner is None else st.names[m.winner],
            m.winner is not None,
            needed=m.id not in spare,
        )
        for m in made
    )
    forfeit_winner = None
    if made and all(v.over for m, v in zip(made, views, strict=True) if m.id not in spare):
        status = "played"
    elif gone:
        bracket = (
            st.fmt["bracket_round"] is not None
            and made
            and made[0].round is not None
            and made[0].round >= st.fmt["bracket_round"]
        )
        status = "forfeit" if bracket or st.ev["withdrawal"] == "forfeit" else "void"
        through = st.forfeit_winner(a, b, None if made else number)
        if through is None:
            status = "void"
        if status == "forfeit" and through is not None:
            forfeit_winner = st.names[through]
    else:
        status = "playing" if made else "scheduled"
    return PairingView(
        table=table,
        first=st.names[a],
        second=st.names[b],
        first_dealer=st.names[dealer],
        matches=views,
        status=status,
        withdrawn=tuple(st.names[x] for x in gone),
        forfeit_winner=forfeit_winner,
    )


def _total_rounds(st: _State) -> int | None:
    """How many rounds the event has: groups and a seeded bracket know it; a knockout's
    rounds by lot go on until its final stage or last player (None)."""
    if st.format.has_groups:
        qualifiers = st.fmt["groups"] * st.fmt["advance"]
        return _group_rounds(st) + (
            bracket_size(qualifiers).bit_length() - 1 if qualifiers >= 2 else 0
        )
    found = _bracket(st)
    if found is None:
        return None
    return int(st.fmt["bracket_round"]) + len(found) - 1


def _round_view(st: _State, number: int) -> RoundView:
    made = st.of_round(number)
    by_table: dict[int, list[_M]] = defaultdict(list)
    for m in made:
        by_table[m.table or 0].append(m)
    started = number in st.started
    byes: list[str] = []
    planned: dict[int, Pairing] = {}
    if st.format.has_groups and number <= _group_rounds(st):
        for p in _group_round(st, number)[0]:
            planned[p.table] = p
        byes = [st.names[b] for b in _group_round(st, number)[1]]
    elif started and st.started[number][0] is not None:
        byes = [st.names[st.started[number][0] or 0]]
    tables = sorted(set(by_table) | set(planned))
    total = _total_rounds(st)
    pairings = tuple(
        _pairing(st, tb, by_table.get(tb, []), planned.get(tb), number) for tb in tables
    )
    return RoundView(
        event_id=st.ev["id"],
        event=st.ev["name"],
        number=number,
        rounds=None if total is None else max(total, number),
        started=started,
        pairings=pairings,
        bye=", ".join(byes) or None,
        bye_scores=started and st.ev["bye"] == "win" and bool(byes),
        draw=_draw_words(st, number),
    )


def _draw_words(st: _State, number: int) -> str:
    """How round ``number`` was made: a group round, drawn by lot, the play-off for the
    final stage, or a round of the bracket."""
    bracket_round, playoff_round = st.fmt["bracket_round"], st.fmt["playoff_round"]
    if st.format.has_groups and number <= _group_rounds(st):
        return f"group round {number} of {_group_rounds(st)}"
    if bracket_round is not None and number >= bracket_round:
        found = _bracket(st)
        last = len(found) if found else 1
        return f"bracket: {_bracket_round_name(number - bracket_round + 1, last)}"
    if playoff_round is not None and number >= playoff_round:
        return f"play-off for the final stage, drawn by lot, seed {st.fmt['draw_seed']}"
    if number == 1 and st.ev["seed_by"] == "rating":  # tally.events.knockout: seeded round 1
        return f"paired by the seeding list, first against last, seed {st.fmt['draw_seed']}"
    return f"drawn by lot, seed {st.fmt['draw_seed']}"


def _group_round(st: _State, number: int) -> tuple[list[Pairing], list[int]]:
    """The pairings of round ``number`` of every group (tables numbered on from group to
    group) and the byes."""
    pairings: list[Pairing] = []
    byes: list[int] = []
    for group in _groups(st):
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


def rounds(
    conn: Connection,
    ev: RowMapping,
    number: int | None,
    ratings: Mapping[int, float | None] | None = None,
) -> list[RoundView]:
    """The rounds of a knockout or groups event started so far (groups: also the group rounds
    not started yet, their schedule being known, in the seeding order ``ratings`` would fix
    when given: :mod:`tally.store.seeding`); only round ``number`` if given. A knockout's
    round is drawn when it is started, a bracket round seeded then."""
    st = load_state(conn, ev)
    if ratings is not None:
        from tally.store.seeding import seeded_order

        by_id = {e["player_id"]: e for e in st.entrants}
        order = seeded_order(list(by_id), ratings)
        st = dataclasses.replace(st, entrants=[by_id[p] for p, _rating in order])
    known = set(st.started)
    if format_of(ev["kind"]).has_groups:
        known |= set(range(1, _group_rounds(st) + 1))
    if number is not None:
        if number not in known:
            raise NotFound(
                Message(
                    N_(
                        'round %(round)s of event %(event)s "%(name)s" is not drawn yet: it is '
                        "drawn (or seeded) when it is started%(advice)s"
                    ),
                    round=number,
                    event=ev["id"],
                    name=ev["name"],
                    advice=Advice(
                        N_(" (`tally event round %(event)s %(round)s --start`)"),
                        event=ev["id"],
                        round=number,
                    ),
                )
            )
        return [_round_view(st, number)]
    return [_round_view(st, n) for n in sorted(known)]


def start_round(
    store: Database, conn: Connection, ev: RowMapping, number: int, *, force: bool = False
) -> RoundView:
    """Make the matches of round ``number`` (the next one) of a knockout or groups event: a
    draw by lot, a group round or a bracket round (see the module docstring). One audit
    entry; ``tally audit undo`` takes the round back while none of its matches has a deal.
    A group round may start while the round before is played (``force``: the director
    confirmed); a draw or a bracket round waits for its results."""
    eid = ev["id"]
    st = load_state(conn, ev)
    _check_round_can_start(st, number, force)
    before: dict[str, Snapshot] = {f"event:{eid}": snapshot(conn, "event", eid)}
    bye: int | None = None
    what: str
    pairs: list[tuple[int, int, int, int]]  # table, a, b, first dealer
    if format_of(ev["kind"]).has_groups and number <= _group_rounds(st):
        gone = set(st.withdrawn)
        planned, _ = _group_round(st, number)
        pairs = [
            (p.table, int(p.first), int(p.second), int(p.first))
            for p in planned
            if not {int(p.first), int(p.second)} & gone
        ]
        what = "group round"
    else:
        st = _seed_bracket_when_due(conn, st, number)
        fill = _fill(st) if st.fmt["bracket_round"] is None else None
        if fill is not None:
            pairs = _draw_playoff(conn, st, number, fill)
            what = f"play-off for the final stage, drawn with seed {st.fmt['draw_seed']}"
        elif st.fmt["bracket_round"] is None:
            bye, pairs = _draw_by_lot(st, number)
            what = f"drawn with seed {st.fmt['draw_seed']}"
        else:
            pairs = _bracket_pairs(st, number)
            what = "bracket round"
            series_of = st.fmt["best_of"]
            if series_of > 1:
                what += f", best of {series_of}"
    insert_round(
        store,
        conn,
        ev,
        number,
        bye,
        pairs,
        f'started round {number} of event {eid} "{ev["name"]}" ({what})',
        before=before,
        matches_per_pairing=_matches_per_table(st, number),
    )
    return _round_view(load_state(conn, ev), number)


def _matches_per_table(st: _State, number: int) -> int:
    """How many matches each table of round ``number`` plays: a bracket round's pairings
    best of N (all N made at once, the first dealer alternating), any other round one."""
    first = st.fmt["bracket_round"]
    return int(st.fmt["best_of"]) if first is not None and number >= first else 1


def _check_round_can_start(st: _State, number: int, force: bool = False) -> None:
    """Refuse to start round ``number`` unless it is the next one, the event has at least 2
    players and every match of the round before is over (or has a withdrawn player in it);
    a group round whose players are still at a table of the round before only unless
    ``force``."""
    eid, name = st.ev["id"], st.ev["name"]
    expected = len(st.started) + 1
    if number != expected:
        raise eventrows.round_refused(
            eid, name, number, expected, [m.id for m in st.of_round(number)]
        )
    if len(st.entrants) < 2:
        raise Refused(f'event {eid} "{name}" needs at least 2 players')
    if _is_group_round(st, number):
        busy = _still_playing(st, number)
        if busy and not force:
            raise eventrows.still_playing_refused(number, {st.names[p]: m for p, m in busy.items()})
        return
    busy_tables = _busy(st, number - 1)
    if busy_tables:
        raise Refused(
            f"round {number - 1} is not over: table(s) "
            f"{', '.join(str(m.table) for m in busy_tables)} still playing"
        )


def _is_group_round(st: _State, number: int) -> bool:
    return st.format.has_groups and number <= _group_rounds(st)


def _busy(st: _State, number: int) -> list[_M]:
    """The matches of round ``number`` not over (a withdrawn player's and a best of N's
    unneeded matches left out)."""
    gone = set(st.withdrawn)
    spare = _not_needed(st)
    return [
        m
        for m in st.of_round(number)
        if m.winner is None and not {m.a, m.b} & gone and m.id not in spare
    ]


def _still_playing(st: _State, number: int) -> dict[int, int]:
    """Group round ``number``'s players (its pairings without a withdrawn player) still at a
    table of the round before that is not over: player id -> that match."""
    gone = set(st.withdrawn)
    planned, _ = _group_round(st, number)
    seated = {
        int(x)
        for p in planned
        if not {int(p.first), int(p.second)} & gone
        for x in (p.first, p.second)
    }
    return {x: m.id for m in _busy(st, number - 1) for x in (m.a, m.b) if x in seated}


def still_playing(conn: Connection, ev: RowMapping, number: int) -> dict[str, int]:
    """The players of group round ``number`` (not started yet) still at a table of the
    round before: name -> that match; {} for any other round."""
    st = load_state(conn, ev)
    if number in st.started or not _is_group_round(st, number):
        return {}
    return {st.names[p]: m for p, m in _still_playing(st, number).items()}


def _seed_bracket_when_due(conn: Connection, st: _State, number: int) -> _State:
    """Seed the bracket into the event's format when round ``number`` starts it (groups once
    the group rounds are over; a knockout with ``final_size`` N once N or fewer players are
    still in and any play-off for its last places is over: :func:`_finalists`); the event's
    state as it is then."""
    if st.fmt["bracket_round"] is not None:
        return st
    finalists = _finalists(st)
    if st.format.has_groups or finalists is not None:
        slots = _seed_bracket(st, finalists or [])
        conn.execute(
            update(t.event_formats)
            .where(t.event_formats.c.event_id == st.ev["id"])
            .values(
                bracket_round=number, bracket=",".join("" if s is None else str(s) for s in slots)
            )
        )
        return load_state(conn, st.ev)
    return st


def _draw_by_lot(st: _State, number: int) -> tuple[int | None, list[tuple[int, int, int, int]]]:
    """Knockout, lives stage: the bye and the tables of round ``number``, drawn by lot among
    the players still in (:func:`tally.events.knockout.draw_round`); refused once one is left."""
    alive = _alive(st)
    if len(alive) < 2:
        who = f": {st.names[alive[0]]} won" if alive else ""
        raise Refused(f'event {st.ev["id"]} "{st.ev["name"]}" is over{who}')
    last: dict[str, str] = {}
    for m in st.of_round(number - 1):
        last[str(m.a)], last[str(m.b)] = str(m.b), str(m.a)
    had: dict[str, int] = defaultdict(int)
    for b, _ in st.started.values():
        if b is not None:
            had[str(b)] += 1
    drawn = draw_round(
        [str(p) for p in alive],
        seed=st.fmt["draw_seed"],
        number=number,
        last_opponents=last,
        byes=had,
        seeded=st.ev["seed_by"] == "rating",
    )
    bye = None if drawn.bye is None else int(drawn.bye)
    return bye, [(p.table, int(p.first), int(p.second), int(p.first)) for p in drawn.pairings]


def _draw_playoff(
    conn: Connection, st: _State, number: int, fill: _Fill
) -> list[tuple[int, int, int, int]]:
    """Knockout: the tables of round ``number`` of the play-off for the final stage's last
    places (:func:`tally.events.knockout.draw_playoff`); the play-off's first round is kept in the
    event's format."""
    if st.fmt["playoff_round"] is None:
        conn.execute(
            update(t.event_formats)
            .where(t.event_formats.c.event_id == st.ev["id"])
            .values(playoff_round=number)
        )
    drawn = draw_playoff(
        [str(p) for p in fill.left], fill.places, seed=st.fmt["draw_seed"], number=number
    )
    return [(p.table, int(p.first), int(p.second), int(p.first)) for p in drawn.pairings]


def _alive(st: _State) -> list[int]:
    """Knockout: the players still in, in seeding order."""
    if not st.format.has_lives:
        return []
    return [int(x.player) for x in lives_lines(st) if x.out_in is None]


def _seed_bracket(st: _State, alive: list[int]) -> tuple[int | None, ...]:
    """The bracket's slots: a knockout's last players seeded by lives left, the ordinary
    standings, entry order; groups' qualifiers across groups."""
    order = tuple(x for x in st.ev["tiebreaks"].split(",") if x)
    if st.format.has_lives:
        field = _field(st, order)
        rank = {r.player: r.rank for r in field}
        lives = {int(x.player): x.lives for x in lives_lines(st)}
        seeds = {e["player_id"]: e["seed"] for e in st.entrants}
        ranked = sorted(alive, key=lambda p: (-lives[p], rank[st.names[p]], seeds[p]))
        return tuple(None if s is None else int(s) for s in seeded_slots([str(p) for p in ranked]))
    total = _group_rounds(st)
    gone = set(st.withdrawn)
    busy = [
        m
        for m in st.matches
        if m.round is not None and m.round <= total and m.winner is None and not {m.a, m.b} & gone
    ]
    if busy or len(st.started) < total:
        raise Refused(
            "the groups are not over: every group match must be finished before "
            "the bracket is seeded"
        )
    qualifiers = [
        [str(p) for _, p in table if p not in gone][: st.fmt["advance"]]
        for table in _group_tables(st, order)
    ]
    if sum(len(q) for q in qualifiers) < 2:
        raise Refused("fewer than 2 players go through: no bracket")
    return tuple(None if s is None else int(s) for s in group_slots(qualifiers))


def _bracket_pairs(st: _State, number: int) -> list[tuple[int, int, int, int]]:
    found = _bracket(st)
    assert found is not None
    k = number - st.fmt["bracket_round"] + 1
    if k > len(found):
        champion = found[-1][0].winner
        who = f": {st.names[int(champion)]} won" if champion else ""
        raise Refused(f'event {st.ev["id"]} "{st.ev["name"]}" is over{who}')
    matches = found[k - 1]
    if any(TBD in (bm.first, bm.second) for bm in matches):
        raise Refused(f"round {number - 1} of the bracket is not decided yet")
    return [
        (bm.table, int(bm.first or 0), int(bm.second or 0), int(bm.first or 0))
        for bm in matches
        if bm.playable and not bm.decided
    ]


# --- play-offs -------------------------------------------------------------------------------


def _tied(st: _State, order: tuple[str, ...], a: int, b: int) -> bool:
    """Whether players ``a`` and ``b`` share a rank overall or in their group."""
    field = _field(st, order)
    by_name = {n: p for p, n in st.names.items()}
    field_rank = {str(by_name[r.player]): r.rank for r in field}
    keys, _ = _stage_keys(st, order)
    ranked = dict(
        (p, r)
        for r, p in rank_by_stage([str(p) for p in st.ids], field_rank, keys, _playoff_pairs(st))
    )
    if ranked[str(a)] == ranked[str(b)]:
        return True
    if st.format.has_groups:
        for table in _group_tables(st, order):
            rank = {p: r for r, p in table}
            if a in rank and b in rank and rank[a] == rank[b]:
                return True
    return False


class Knockouts:
    """The knockouts' brackets: the format's settings, the bracket view, best-of and play-offs.
    Reached as ``store.knockouts``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def settings(self, ref: str | int) -> dict[str, Any]:
        """The format a knockout or groups event was created with, as its settings
        made it: ``lives``, ``draw_seed``, ``final_size``, ``groups``, ``advance`` (None where
        the kind has none), ``final_fill``, ``best_of``; its money as set since
        (``store.prizes.set_money``: ``entry_fee``, ``prize_shares``,
        ``prize_unit``, ``buy_back_until``, ``buy_back_fee``, ``buy_backs``, cents where money)
        and the buy-backs made (``bought``: player name, the round after which, the fee paid,
        in the order made); for an export that makes the event again."""
        with self.store.reading() as conn:
            st = load_state(conn, eventrows.resolve_event(conn, ref))
            b = t.event_buy_backs
            bought = [
                (st.names[r["player_id"]], r["after_round"], r["fee"])
                for r in conn.execute(
                    select(b.c.player_id, b.c.after_round, b.c.fee)
                    .where(b.c.event_id == st.ev["id"])
                    .order_by(b.c.id)
                ).mappings()
            ]
        return {key: st.fmt[key] for key in FORMAT_KEYS} | {"bought": bought}

    def view(
        self, event_view: EventView, *, tiebreaks: Sequence[str] | None = None
    ) -> KnockoutView:
        """The standings by elimination of a knockout or groups event (see the module
        docstring), with its groups, bracket and play-offs."""
        Results(self.store).ensure()
        with self.store.reading() as conn:
            ev = eventrows.resolve_event(conn, event_view.id)
            st = load_state(conn, ev)
        order = (
            tuple(x for x in ev["tiebreaks"].split(",") if x)
            if tiebreaks is None
            else tuple(tiebreaks)
        )
        return _view(st, event_view, order)

    def set_best_of(self, ref: str | int, best_of: int) -> None:
        """Play the bracket's pairings of a knockout or groups event best of ``best_of``
        matches (odd); refused once the bracket is seeded. Audited."""
        check_best_of(best_of)
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            if not format_of(ev["kind"]).ranks_by_elimination:
                raise Refused(
                    f'event {ev["id"]} "{ev["name"]}" has no bracket: best of N is for '
                    "a knockout's final stage or groups then knockout"
                )
            st = load_state(conn, ev)
            if st.fmt["bracket_round"] is not None:
                raise Refused(
                    f'the bracket of event {ev["id"]} "{ev["name"]}" is seeded already: '
                    "its matches are made"
                )
            before = {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])}
            conn.execute(
                update(t.event_formats)
                .where(t.event_formats.c.event_id == ev["id"])
                .values(best_of=best_of)
            )
            Audit(self.store).write(
                conn,
                "event best-of",
                "event",
                ev["id"],
                f'the bracket of event {ev["id"]} "{ev["name"]}" is played best of {best_of}',
                before,
                {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])},
                words=Message(
                    N_("The bracket of %(event)s is played best of %(n)s"),
                    event=ev["name"],
                    n=best_of,
                ),
            )

    def record_playoff(
        self, ref: str | int, first: str, second: str, *, first_dealer: str | None = None
    ) -> int:
        """Make a play-off ("Stechen") match between two players of a knockout or groups event
        who share a rank (overall or in their group); its winner ranks above the other. Returns
        the match's number; its deals are recorded as any match's."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            if not format_of(ev["kind"]).ranks_by_elimination:
                raise Refused(
                    f'event {ev["id"]} "{ev["name"]}" is not a knockout or groups '
                    "event: it has no play-offs"
                )
            a, b = resolve_player(conn, first), resolve_player(conn, second)
            if a["id"] == b["id"]:
                raise Refused("a play-off needs two different players")
            st = load_state(conn, ev)
            for p in (a, b):
                if p["id"] not in st.ids:
                    raise NotFound(f'{p["name"]} does not play in event {ev["id"]} "{ev["name"]}"')
            order = tuple(x for x in ev["tiebreaks"].split(",") if x)
            tied = _tied(st, order, a["id"], b["id"])
            if not tied:
                names = f"{a['name']} and {b['name']}"
                raise Refused(f"{names} do not share a rank: a play-off decides a tie only")
            dealer = a["id"]
            if first_dealer is not None:
                d = resolve_player(conn, first_dealer)
                if d["id"] not in (a["id"], b["id"]):
                    raise Refused(f"{d['name']} does not play in this play-off")
                dealer = d["id"]
            mid = eventrows.insert_match(
                conn, a["id"], b["id"], ev["rules"], dealer, event_id=ev["id"]
            )
            Audit(self.store).write(
                conn,
                "event playoff",
                "match",
                mid,
                f"play-off {mid} of event {ev['id']}: {a['name']} against {b['name']}",
                {f"match:{mid}": None},
                {f"match:{mid}": snapshot(conn, "match", mid)},
                words=Message(
                    N_("Play-off in %(event)s: %(a)s against %(b)s"),
                    event=ev["name"],
                    a=a["name"],
                    b=b["name"],
                ),
            )
            return mid
