"""Ratings: a rating per player, updated after every finished match, by the OpenSkill system.

The system is the Weng-Lin Bayesian rating of the `openskill` package (``PlackettLuce``,
the package's default model, with its defaults: a new player starts at mu 25 with sigma
25/3). A rating is a belief about the player's strength: ``mu`` its centre, ``sigma`` how
unsure it is; every match moves the winner's mu up and the loser's down by how surprising
the result was, and narrows both sigmas. The list is ranked by the *conservative* rating
``mu - 3 sigma`` (OpenSkill's "ordinal", as its documentation recommends for leaderboards):
a newcomer who won one match (mu 27.6, sigma 8.1) does not top players proven over a season.

Why OpenSkill (compared in November 2026 on PyPI; docs/ratings-and-series.md): it is maintained
(6.2 released January 2026, regular releases since 2021), MIT-licensed, pure Python with
optional compiled wheels of the same code, typed (``py.typed``, so ``mypy --strict`` checks
the calls), has no dependencies, rates one match at a time (Glicko-2 is defined over rating
periods), and predicts the winner (:func:`expected_score`). The ``glicko2`` package was the
other candidate: last released January 2024, untyped, no faster per match here, and its wheel
installs a top-level ``tests`` package that would collide with this project's own.

This module is the engine's part: pure Python over plain data, no database. It takes the
finished matches (:class:`RatedMatch`) in any order and rates them in *match order*: by when
each finished, then by match number (:func:`match_order`), so the same stored matches always
give the same ratings, bit for bit.

What counts: a match that was played out to its target (a win) or, should one ever be stored,
a drawn match (ranks equal). Forfeits and void matches are not games and are never rated;
which matches are finished is the store's business (:mod:`tally.store.ratings`).

>>> from datetime import datetime, UTC
>>> when = datetime(2026, 11, 19, 20, 0, tzinfo=UTC)
>>> table = rate([RatedMatch(1, when, "Anna", "Bert", "Anna")])
>>> [(r.player, round(r.rating.mu, 2), round(r.rating.sigma, 2)) for r in table.rows]
[('Anna', 27.64, 8.07), ('Bert', 22.36, 8.07)]
>>> round(expected_score(table.rating("Anna"), table.rating("Bert")), 3)
0.659
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "RatedMatch",
    "Rating",
    "RatingChange",
    "RatingRow",
    "RatingTable",
    "expected_score",
    "match_order",
    "rate",
]

#: where every player starts: OpenSkill's defaults (mu 25, sigma 25/3)
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class Rating:
    """A player's rating: ``mu`` (the estimate) and ``sigma`` (its uncertainty)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: a rating the player is very likely above; the list is ranked by
        it (OpenSkill's ``ordinal``)."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True)
class RatedMatch(Generic[P]):
    """A finished match as the ratings see it: when it finished, its two players and the
    winner (None: a draw). ``event`` and ``score`` are carried into the history only."""

    match_id: int
    finished_at: datetime
    player_a: P
    player_b: P
    winner: P | None
    event: str | None = None
    #: the game points of player a and b, as ``"7:3"`` from a's side (history only)
    score: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.player_a == self.player_b:
            raise ValueError(f"match {self.match_id}: a player cannot play themselves")
        if self.winner is not None and self.winner not in (self.player_a, self.player_b):
            raise ValueError(f"match {self.match_id}: the winner does not play in it")


@dataclass(frozen=True)
class RatingChange(Generic[P]):
    """One player's line of one rated match: the opponent, the result (1 won, 0 lost, 0.5
    drawn), the win probability the ratings gave before the match, and the rating before and
    after it."""

    match_id: int
    finished_at: datetime
    event: str | None
    player: P
    opponent: P
    result: float
    expected: float
    before: Rating
    after: Rating
    #: the player's game points and the opponent's, if known
    score: tuple[int, int] | None = None


@dataclass(frozen=True)
class RatingRow(Generic[P]):
    """A line of the ratings list: rank (players with equal ratings share it), player,
    rating, matches rated (won, lost, drawn) and when the last one finished."""

    rank: int
    player: P
    rating: Rating
    matches: int
    won: int
    lost: int
    drawn: int
    last_played: datetime


@dataclass(frozen=True)
class RatingTable(Generic[P]):
    """Every rated player's rating after the matches given, the list ranked, and each
    match's changes in match order (:attr:`history`; empty when :func:`rate` was asked for
    none)."""

    rows: tuple[RatingRow[P], ...]
    history: tuple[RatingChange[P], ...]
    _by_player: dict[P, Rating] = field(default_factory=dict, repr=False, compare=False)

    def rating(self, player: P) -> Rating:
        """The player's rating now (a new player's :class:`Rating` if never rated)."""
        return self._by_player.get(player, Rating())

    def rated(self, player: P) -> bool:
        """Whether the player has a rated match."""
        return player in self._by_player

    def history_of(self, player: P) -> tuple[RatingChange[P], ...]:
        """The player's rated matches in match order, each with the rating before and after."""
        return tuple(c for c in self.history if c.player == player)

    def expected(self, player: P, opponent: P) -> float:
        """The probability that ``player`` beats ``opponent`` on today's ratings."""
        return expected_score(self.rating(player), self.rating(opponent))


def match_order(match: RatedMatch[Any]) -> tuple[datetime, int]:
    """The order matches are rated in: by when they finished, then by match number."""
    return (match.finished_at, match.match_id)


@cache
def _model() -> PlackettLuce:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def _os(rating: Rating) -> PlackettLuceRating:
    return _model().rating(mu=rating.mu, sigma=rating.sigma)


def expected_score(rating: Rating, opponent: Rating) -> float:
    """The probability that a player rated ``rating`` beats one rated ``opponent``
    (OpenSkill's ``predict_win``): 0.5 between equals, the two sides summing to 1.

    >>> expected_score(Rating(), Rating())
    0.5
    """
    first, _second = _model().predict_win([[_os(rating)], [_os(opponent)]])
    return float(first)


def _rated(model: PlackettLuce, a: Any, b: Any, result: float) -> tuple[Any, Any]:
    """OpenSkill's ratings of a and b after a match (``result`` is a's: 1, 0 or 0.5).

    A decided match is handed over winner first and without ranks (the package takes the
    teams' order as the finishing order then, and skips sorting by rank: a fifth faster), so
    the winner's side of the board makes no difference to the numbers; a draw gives equal
    ranks."""
    if result == 1.0:
        [[new_a], [new_b]] = model.rate([[a], [b]])
    elif result == 0.0:
        [[new_b], [new_a]] = model.rate([[b], [a]])
    elif result == 0.5:
        [[new_a], [new_b]] = model.rate([[a], [b]], ranks=[1.0, 1.0])
    else:
        raise ValueError(f"a match result is 1, 0 or 0.5, not {result!r}")
    return new_a, new_b


def update(a: Rating, b: Rating, result: float) -> tuple[Rating, Rating]:
    """The ratings of two players after one match between them; ``result`` is a's: 1 won,
    0 lost, 0.5 drawn. One call of OpenSkill's ``rate``.

    >>> new_a, new_b = update(Rating(), Rating(), 1.0)
    >>> round(new_a.mu, 4), round(new_b.mu, 4), round(new_a.sigma, 4)
    (27.6354, 22.3646, 8.0659)
    """
    new_a, new_b = _rated(_model(), _os(a), _os(b), result)
    return Rating(new_a.mu, new_a.sigma), Rating(new_b.mu, new_b.sigma)


def rate(
    matches: Iterable[RatedMatch[P]], *, name: Any = str, history: bool = True
) -> RatingTable[P]:
    """Rate ``matches`` (in any order: they are rated in :func:`match_order`) from new
    ratings, and rank the players.

    The list is ranked by the conservative rating (:attr:`Rating.conservative`), then by mu,
    then by ``name(player)`` case-folded (``str`` by default) so that the order is stable;
    players whose ratings are equal share the rank. Each match is one call of OpenSkill's
    ``predict_win`` (the expected result before it, kept in the history) and one of its
    ``rate``; ``history=False`` keeps no history (and so predicts nothing), for the list
    alone.
    """
    model = _model()
    ordered = sorted(matches, key=match_order)
    native: dict[P, Any] = {}
    shown: dict[P, Rating] = {}
    counts: dict[P, list[int]] = {}
    last: dict[P, datetime] = {}
    changes: list[RatingChange[P]] = []
    start = Rating()
    for m in ordered:
        a, b = m.player_a, m.player_b
        # a new rating object per new player: OpenSkill deep-copies the teams together,
        # so one object standing for both players would be updated as one
        os_a = native.get(a) or model.rating(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
        os_b = native.get(b) or model.rating(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
        before_a, before_b = shown.get(a, start), shown.get(b, start)
        result = 0.5 if m.winner is None else 1.0 if m.winner == a else 0.0
        expected_a = float(model.predict_win([[os_a], [os_b]])[0]) if history else 0.5
        os_a, os_b = _rated(model, os_a, os_b, result)
        native[a], native[b] = os_a, os_b
        after_a, after_b = Rating(os_a.mu, os_a.sigma), Rating(os_b.mu, os_b.sigma)
        shown[a], shown[b] = after_a, after_b
        if history:
            changes.extend(
                _changes(m, result, expected_a, (before_a, after_a), (before_b, after_b))
            )
        for player, res in ((a, result), (b, 1.0 - result)):
            c = counts.setdefault(player, [0, 0, 0])
            c[0 if res == 1.0 else 1 if res == 0.0 else 2] += 1
            last[player] = m.finished_at
    return RatingTable(_ranked(shown, counts, last, name), tuple(changes), dict(shown))


def _changes(
    m: RatedMatch[P],
    result: float,
    expected_a: float,
    rating_a: tuple[Rating, Rating],
    rating_b: tuple[Rating, Rating],
) -> tuple[RatingChange[P], RatingChange[P]]:
    """The match's two lines of the history, player a's then player b's, each seen from its
    player's side (result, expected result and score turned round for b); ``rating_a`` and
    ``rating_b`` are each player's rating before and after the match."""
    score_b = None if m.score is None else (m.score[1], m.score[0])
    return (
        RatingChange(
            m.match_id,
            m.finished_at,
            m.event,
            m.player_a,
            m.player_b,
            result,
            expected_a,
            *rating_a,
            m.score,
        ),
        RatingChange(
            m.match_id,
            m.finished_at,
            m.event,
            m.player_b,
            m.player_a,
            1.0 - result,
            1.0 - expected_a,
            *rating_b,
            score_b,
        ),
    )


def _ranked(
    shown: dict[P, Rating], counts: dict[P, list[int]], last: dict[P, datetime], name: Any
) -> tuple[RatingRow[P], ...]:
    """The rating list: players by conservative rating, then mu, then name case-folded;
    players whose ratings are equal share the rank. ``counts`` holds each player's won, lost
    and drawn matches, ``last`` when their last rated match finished."""
    ranked = sorted(
        shown, key=lambda p: (-shown[p].conservative, -shown[p].mu, str(name(p)).casefold())
    )
    rows: list[RatingRow[P]] = []
    for i, player in enumerate(ranked):
        rank = i + 1
        if rows and rows[-1].rating == shown[player]:
            rank = rows[-1].rank
        won, lost, drawn = counts[player]
        rows.append(
            RatingRow(
                rank, player, shown[player], won + lost + drawn, won, lost, drawn, last[player]
            )
        )
    return tuple(rows)
