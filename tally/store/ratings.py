"""Ratings from what is stored: every finished match, of every event and outside events,
rated by :func:`tally.events.ratings.rate` in match order.

Ratings are derived, never stored: each call reads the finished matches (five small queries
over ``matches``, the result cache ``deal_results``, ``deals`` and ``events``) and rates them
all again, so a corrected deal, a deleted match or a merged player shows in the next list at
once, and there is no second source of truth to fall out of step. Rating a season of 100,000
deals takes under the 2 s target (1.4 s on this 2-core machine under load,
``benchmarks/ratings.py``).

**Which matches.** A match is rated once a player has reached its match target (the winner,
from the game points in the result cache, as the standings decide it). Matches still being
played, matches won by forfeit under an event's withdrawal rule, void matches and byes are not
games between the two players and are not rated.

**Match order.** By when the match finished, then by match number. A match finished with its
last deal, so its finishing time is when that deal was entered: the ``created_at`` of its
latest deal (the moment a quick result was typed, or the deciding deal started trick by
trick; a deal moved by ``tally deal edit`` keeps its time). Matches loaded together from files
(``tally load``) finish in the order they were loaded.

The results are plain frozen dataclasses (:class:`RatingsView`, :class:`RatingHistoryView`)
defined here, beside the one query that makes them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from tally.engine.kernel import match_won
from tally.events.ratings import RatedMatch, RatingChange, RatingTable, rate
from tally.i18n import N_
from tally.store import tables as t
from tally.store.derivation import Results, rule_set
from tally.store.players import resolve_player
from tally.store.transactions import Database

__all__ = [
    "CurrentRatings",
    "RatingHistoryLine",
    "RatingHistoryView",
    "RatingLine",
    "Ratings",
    "RatingsView",
]


@dataclass(frozen=True)
class RatingLine:
    """A player's line of the ratings list: ``rating`` is mu, ``deviation`` sigma, ranked by
    ``conservative`` (mu - 3 sigma)."""

    rank: int
    player: str
    player_id: int
    rating: float
    deviation: float
    conservative: float
    matches: int
    won: int
    lost: int
    drawn: int
    last_played: datetime


@dataclass(frozen=True)
class RatingsView:
    """The ratings list: every player with a rated match, best first."""

    system: str
    rows: tuple[RatingLine, ...]
    matches_rated: int


@dataclass(frozen=True)
class RatingHistoryLine:
    """One rated match of a player: when it finished, the event (None outside events), the
    opponent, the result (``won``, ``lost``, ``drawn``), the game points (own first), the
    win probability the ratings gave before it, and the rating and deviation before and
    after."""

    match_id: int
    finished_at: datetime
    event: str | None
    opponent: str
    result: str
    score: str | None
    expected: float
    rating_before: float
    deviation_before: float
    rating_after: float
    deviation_after: float


@dataclass(frozen=True)
class RatingHistoryView:
    """A player's rating now and match by match."""

    player: str
    player_id: int
    rank: int | None
    rating: float
    deviation: float
    conservative: float
    matches: tuple[RatingHistoryLine, ...]


#: how the lists name the rating system
SYSTEM = N_("OpenSkill (Weng-Lin Plackett-Luce), mu 25, sigma 25/3; ranked by mu - 3 sigma")


def _finished(conn: Any) -> tuple[list[RatedMatch[int]], dict[int, str]]:
    """The finished matches with their winners and finishing times, and every player's name."""
    r = t.deal_results
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for mid, winner, points in conn.execute(
        select(r.c.match_id, r.c.winner_id, func.sum(r.c.game_points))
        .where(r.c.winner_id.is_not(None))
        .group_by(r.c.match_id, r.c.winner_id)
    ):
        totals[mid][winner] = int(points)
    d = t.deals
    finished_at: dict[int, datetime] = dict(
        conn.execute(select(d.c.match_id, func.max(d.c.created_at)).group_by(d.c.match_id)).all()
    )
    event_names = dict(conn.execute(select(t.events.c.id, t.events.c.name)).all())
    names: dict[int, str] = dict(conn.execute(select(t.players.c.id, t.players.c.name)).all())
    m = t.matches
    targets: dict[str, int] = {}
    out: list[RatedMatch[int]] = []
    for mid, a, b, spec, eid in conn.execute(
        select(m.c.id, m.c.player_a_id, m.c.player_b_id, m.c.rules, m.c.event_id)
    ):
        points = totals.get(mid)
        if not points:
            continue
        target = targets.get(spec)
        if target is None:
            target = targets[spec] = rule_set(spec).match_target
        pa, pb = points.get(a, 0), points.get(b, 0)
        winner = a if match_won(pa, target) else b if match_won(pb, target) else None
        if winner is None:
            continue
        out.append(
            RatedMatch(
                mid,
                finished_at[mid],
                a,
                b,
                winner,
                None if eid is None else event_names[eid],
                (pa, pb),
            )
        )
    return out, names


def _table(
    store: Database, *, history: bool = True, before: datetime | None = None
) -> tuple[RatingTable[int], dict[int, str], int]:
    found, names = Ratings(store).rated_matches()
    if before is not None:
        found = [m for m in found if m.finished_at < before]
    return rate(found, name=names.__getitem__, history=history), names, len(found)


def _history(
    table: RatingTable[int], names: dict[int, str], pid: int, name: str
) -> RatingHistoryView:
    """Player ``pid``'s rating now and match by match, from the rated ``table``."""
    now = table.rating(pid)
    return RatingHistoryView(
        player=name,
        player_id=pid,
        rank=next((r.rank for r in table.rows if r.player == pid), None),
        rating=now.mu,
        deviation=now.sigma,
        conservative=now.conservative,
        matches=tuple(_line(c, names) for c in table.history_of(pid)),
    )


def _line(change: RatingChange[int], names: dict[int, str]) -> RatingHistoryLine:
    result = "won" if change.result == 1.0 else "lost" if change.result == 0.0 else "drawn"
    score = None if change.score is None else f"{change.score[0]}:{change.score[1]}"
    return RatingHistoryLine(
        change.match_id,
        change.finished_at,
        change.event,
        names[change.opponent],
        result,
        score,
        change.expected,
        change.before.mu,
        change.before.sigma,
        change.after.mu,
        change.after.sigma,
    )


@dataclass(frozen=True)
class CurrentRatings:
    """Today's ratings by player name, for the expected results on pairings."""

    table: RatingTable[int]
    ids: dict[str, int]

    def rated(self, player: str) -> bool:
        """Whether the player has a rated match."""
        pid = self.ids.get(player)
        return pid is not None and self.table.rated(pid)

    def expected(self, player: str, opponent: str) -> float:
        """The probability that ``player`` beats ``opponent`` (names as stored); an unknown
        or unrated player has the starting rating."""
        return self.table.expected(self.ids.get(player, -1), self.ids.get(opponent, -2))


class Ratings:
    """The players' ratings, from the matches in the result cache. Reached as ``store.ratings``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def rated_matches(self) -> tuple[list[RatedMatch[int]], dict[int, str]]:
        """Every finished match as the ratings take it (players by number), and the players'
        names by number."""
        Results(self.store).ensure()
        with self.store.reading() as conn:
            return _finished(conn)

    def table(self) -> RatingsView:
        """The ratings list: every player who has a finished match, ranked by the conservative
        rating (mu - 3 sigma), each with rating, deviation and matches rated."""
        table, names, count = _table(self.store, history=False)
        rows = tuple(
            RatingLine(
                r.rank,
                names[r.player],
                r.player,
                r.rating.mu,
                r.rating.sigma,
                r.rating.conservative,
                r.matches,
                r.won,
                r.lost,
                r.drawn,
                r.last_played,
            )
            for r in table.rows
        )
        return RatingsView(SYSTEM, rows, count)

    def history(self, player: str) -> RatingHistoryView:
        """A player's rating match by match (by number, name, alias or unique start of the
        name), oldest first; a player with no finished match has the starting rating."""
        with self.store.reading() as conn:
            row = resolve_player(conn, player)
        table, names, _count = _table(self.store)
        return _history(table, names, int(row["id"]), row["name"])

    def histories(self, players: Mapping[int, str]) -> dict[int, RatingHistoryView]:
        """The history of each of ``players`` (name by number), every match rated once for
        all of them (what :meth:`history` says of each)."""
        table, names, _count = _table(self.store)
        return {pid: _history(table, names, pid, name) for pid, name in players.items()}

    def current(self, *, before: datetime | None = None) -> CurrentRatings:
        """Today's ratings, to look players up by name (:class:`CurrentRatings`); with
        ``before``, the ratings as they were then: only the matches finished before it rated."""
        table, names, _count = _table(self.store, history=False, before=before)
        return CurrentRatings(table, {name: pid for pid, name in names.items()})

    def for_round(self, event_id: int, number: int) -> CurrentRatings:
        """The ratings a round's pairings are judged by: as they were when round ``number`` of
        event ``event_id`` was started (today's while it is not started), so its own results,
        and any later, do not change what was expected of it."""
        with self.store.reading() as conn:
            started = conn.execute(
                select(t.event_rounds.c.started_at).where(
                    (t.event_rounds.c.event_id == event_id) & (t.event_rounds.c.number == number)
                )
            ).scalar_one_or_none()
        return self.current(before=started)
