"""What standings are summed from, added up in SQL: the finished matches of chosen events per
pair of players, and the matches not finished one by one.

A season of a million deals is 137,000 matches: handing each match to Python costs more than
the whole sum in the database. So the database adds up each match's deals from the result
cache (``deal_results`` joined to ``matches``: game points, schneider and schwarz wins of both
players), decides the match's winner by the match target of its rules (passed in as a CASE
over the rule sets the matches use, each target from :func:`tally.store.derivation.rule_set`,
so the target has one home), and adds the finished matches up again per pair of players and
outcome: a few thousand rows for a season of 40 players. Matches nobody has won yet come back
one by one (few: those being played, and a withdrawn player's), with their event, round and
table, for the event's withdrawal rule and the "provisional" mark.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from sqlalchemy import Integer, and_, case, func, literal, not_, or_, select
from sqlalchemy.engine import Connection

from tally.engine.kernel import OUTRIGHT, SCHNEIDER_WIN, SCHWARZ_WIN
from tally.store import tables as t
from tally.store.derivation import rule_set

__all__ = ["MatchTotals", "PairTotals", "sum_matches"]


class PairTotals(NamedTuple):
    """Finished matches between players ``a`` and ``b`` (ids, as stored in the matches)
    added up: matches won by each, game points, schneider and schwarz wins of each."""

    a: int
    b: int
    won_a: int
    won_b: int
    gp_a: int
    gp_b: int
    schneider_a: int
    schneider_b: int
    schwarz_a: int
    schwarz_b: int


class MatchTotals(NamedTuple):
    """A match nobody has won yet, with its totals so far."""

    id: int
    event_id: int
    a: int
    b: int
    round_number: int | None
    table_number: int | None
    gp_a: int
    gp_b: int
    schneider_a: int
    schneider_b: int
    schwarz_a: int
    schwarz_b: int


def _outright() -> Any:
    """Whether a cached deal was won outright (a claim or the higher total)."""
    return t.deal_results.c.reason.in_([str(reason) for reason in OUTRIGHT])


def _deal_sums(chosen: Any, many: bool) -> Any:
    """Per match, its totals summed straight over its deals: the plan for SQLite, which reads
    each match's deals from the cache's covering index as it scans the matches in id order."""
    m, r = t.matches, t.deal_results
    event_id: Any = m.c.event_id
    if many:
        # "event_id + 0" keeps SQLite off the event index: for a season, one scan of the
        # matches in id order is faster than an index search and a sort.
        event_id = event_id + 0
    outright = _outright()

    def total(player: Any, value: Any, when: Any = None) -> Any:
        cond = r.c.winner_id == player if when is None else and_(r.c.winner_id == player, when)
        return func.coalesce(func.sum(case((cond, value), else_=0)), 0)

    def wins(player: Any, worth: int) -> Any:
        return total(player, 1, and_(r.c.deal_points == worth, outright))

    a, b = m.c.player_a_id, m.c.player_b_id
    return (
        select(
            m.c.id,
            m.c.event_id,
            a.label("a"),
            b.label("b"),
            m.c.rules,
            m.c.round_number,
            m.c.table_number,
            total(a, r.c.game_points).label("gp_a"),
            total(b, r.c.game_points).label("gp_b"),
            wins(a, SCHNEIDER_WIN).label("s_a"),
            wins(b, SCHNEIDER_WIN).label("s_b"),
            wins(a, SCHWARZ_WIN).label("w_a"),
            wins(b, SCHWARZ_WIN).label("w_b"),
        )
        .select_from(m.outerjoin(r, r.c.match_id == m.c.id))
        .where(event_id.in_(chosen))
        .group_by(m.c.id)
    )


def _winner_sums(chosen: Any) -> Any:
    """Per match, its totals from the cache summed per deal winner first (one ordered pass
    over the cache's covering index), then joined to the matches: the plan for PostgreSQL,
    which merges the two in id order instead of probing the index once per match."""
    m, r = t.matches, t.deal_results
    outright = _outright()

    def wins(worth: int) -> Any:
        return func.sum(case((and_(r.c.deal_points == worth, outright), 1), else_=0))

    # each sum cast back to integer: PostgreSQL sums a bigint into a numeric, and numerics
    # add up several times slower than integers
    w = (
        select(
            r.c.match_id,
            r.c.winner_id,
            func.sum(r.c.game_points).cast(Integer).label("gp"),
            wins(SCHNEIDER_WIN).cast(Integer).label("s"),
            wins(SCHWARZ_WIN).cast(Integer).label("w"),
        )
        .where(r.c.winner_id.is_not(None))
        .group_by(r.c.match_id, r.c.winner_id)
        .subquery("per_winner")
    )

    def total(player: Any, value: Any) -> Any:
        summed = func.sum(case((w.c.winner_id == player, value), else_=0)).cast(Integer)
        return func.coalesce(summed, 0)

    a, b = m.c.player_a_id, m.c.player_b_id
    return (
        select(
            m.c.id,
            m.c.event_id,
            a.label("a"),
            b.label("b"),
            m.c.rules,
            m.c.round_number,
            m.c.table_number,
            total(a, w.c.gp).label("gp_a"),
            total(b, w.c.gp).label("gp_b"),
            total(a, w.c.s).label("s_a"),
            total(b, w.c.s).label("s_b"),
            total(a, w.c.w).label("w_a"),
            total(b, w.c.w).label("w_b"),
        )
        .select_from(m.outerjoin(w, w.c.match_id == m.c.id))
        .where(m.c.event_id.in_(chosen))
        .group_by(m.c.id)
    )


def _per_match(chosen: Any, targets: dict[str, int], many: bool, sqlite: bool) -> Any:
    """One row per match of the events ``chosen`` selects: its totals and its outcome (1: ``a``
    reached the target, 2: ``b`` did, 0: nobody yet). The two dialects get the same sums by
    the query shape each plans best (measured on a season of a million deals)."""
    per_match = (_deal_sums(chosen, many) if sqlite else _winner_sums(chosen)).subquery("per_match")
    target: Any = case(targets, value=per_match.c.rules, else_=None) if targets else literal(None)
    outcome = case((per_match.c.gp_a >= target, 1), (per_match.c.gp_b >= target, 2), else_=0)
    return select(per_match, outcome.label("outcome")).subquery("decided")


def sum_matches(
    conn: Connection, chosen: Any, *, many: bool, struck: Mapping[int, frozenset[int]] | None = None
) -> tuple[list[PairTotals], list[MatchTotals]]:
    """The finished matches of the events ``chosen`` (a select of event ids) added up per
    pair of players, and the matches not finished one by one (oldest first). ``many``: the
    events are a season (another query plan pays off on SQLite). ``struck``: per event, the
    players whose matches there count for nobody (a round robin's withdrawal before half of
    the games: :func:`tally.events.withdrawals.annulled`)."""
    event_id: Any = t.matches.c.event_id + 0 if many else t.matches.c.event_id
    specs = (
        conn.execute(select(t.matches.c.rules).where(event_id.in_(chosen)).distinct())
        .scalars()
        .all()
    )
    targets = {spec: rule_set(spec).match_target for spec in specs}
    d = _per_match(chosen, targets, many, conn.dialect.name == "sqlite")
    # Finished matches fall into one group per pair and outcome; each unfinished match is a
    # group of its own (grouped by its id), so one pass over the deals serves both.
    alone = case((d.c.outcome == 0, d.c.id), else_=None)
    query = select(
        d.c.a,
        d.c.b,
        d.c.outcome,
        alone,
        func.count(),
        func.sum(d.c.gp_a),
        func.sum(d.c.gp_b),
        func.sum(d.c.s_a),
        func.sum(d.c.s_b),
        func.sum(d.c.w_a),
        func.sum(d.c.w_b),
        func.max(d.c.event_id),
        func.max(d.c.round_number),
        func.max(d.c.table_number),
    ).group_by(d.c.a, d.c.b, d.c.outcome, alone)
    if struck:
        query = query.where(
            not_(
                or_(
                    *(
                        and_(d.c.event_id == eid, or_(d.c.a.in_(ps), d.c.b.in_(ps)))
                        for eid, ps in struck.items()
                    )
                )
            )
        )
    pairs: list[PairTotals] = []
    open_matches: list[MatchTotals] = []
    for row in conn.execute(query).cursor.fetchall():
        a, b, outcome, mid, n = row[0], row[1], row[2], row[3], row[4]
        sums = [int(x) for x in row[5:11]]
        if outcome == 0:
            open_matches.append(MatchTotals(mid, row[11], a, b, row[12], row[13], *sums))
        else:
            won = (n, 0) if outcome == 1 else (0, n)
            pairs.append(PairTotals(a, b, *won, *sums))
    open_matches.sort()
    return pairs, open_matches
