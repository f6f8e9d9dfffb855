"""Standings of an event, ranked by match points (or their percentage) and then by
configurable tiebreaks; and the tiebreaks themselves, one record each (:data:`TABLE`).

Everything here is a pure function of the players and their finished matches. The ranking works
in stages: sort by the ranking measure and split the field into groups level on it; then, for each
tiebreak in the order given, rank the players *inside each group still level* by it and split
the groups again. A tiebreak such as ``head-to-head`` is therefore computed among the players
still tied at that stage, never over the whole field. Players level after the last tiebreak
share a rank, and the next rank skips (1, 2, 2, 4).

The ranking measure (``rank_by``, one of :data:`RANK_BY`):

``points``
    match points: a won match earns the match points per win, a bye what a bye is worth;
``percentage``
    the match-point percentage: match points / (matches played x match points per win) x 100,
    so that players who played different numbers of matches (a club evening, a season) compare
    fairly. A bye that scores (a bye worth match points) counts as a match played in the
    denominator, so a bye worth a win is 100 % of that match, never more than 100 % overall; a
    bye that scores nothing is left out. A player with no match (or when a win is worth 0
    match points) has 0 %.

**The tiebreaks** (higher is better for each) are the records of :data:`TABLE`, one
:class:`Tiebreak` each: its name, the head of its column (``H2H``) or the column of the
standings it repeats, its words in the sheet's legend, a line of help, and its key, the
function that ranks by it (whose docstring is its exact definition). Everything that shows a
tiebreak reads it from there: the terminal's table and the ``--tiebreaks`` help
(:mod:`tally.cli.standings`), the sheet's heads and legend (templates/standings.html.j2), the
director's "New event" page and the table of docs/events.md
(:mod:`tally.events.tiebreak_docs`). A tiebreak such as ``head-to-head`` is computed among
the players still tied at its stage, never over the whole field (above).

**Unplayed rounds** (``unplayed``, one of :data:`UNPLAYED`) say what a round the player did
not play over the table (a bye, a match won or lost by forfeit, a round they were not paired
in) counts for in the Buchholz tiebreaks (``buchholz``, ``median-buchholz``,
``buchholz-cut-1``):

``as-scored`` (the default)
    a bye has no opponent and adds nothing; a forfeited match counts its opponent like a
    played one, with the opponent's match points as they are;
``virtual-opponent``
    FIDE's rule for unplayed games (Handbook C.07, Tie-Break Regulations, the article on
    unplayed games): a player who did not play in round R is counted as having met a
    *virtual opponent* who had the same match points as the player before round R, got the
    other side of round R's result, and drew every later round. Its match points after the
    last round n are ``S(R-1) + (W - s) + W/2 x (n - R)``, where ``S(R-1)`` is the player's
    score before round R, ``s`` what the player scored in round R and ``W`` the match points
    of a win (FIDE's ``Svon = SPR + (1 - SfPR) + 0.5 x (n - R)`` with W = 1). And every
    unplayed round of an opponent counts as drawn (``W/2``) in the match points that
    opponent adds to the Buchholz of the players who met them, so a bye or a forfeit never
    lifts or sinks someone else's Buchholz. It needs the rounds (``rounds`` of
    :func:`standings`); Sonneborn-Berger and Koya stay as scored.

``buchholz`` and ``median-buchholz`` are not among :data:`DEFAULT_TIEBREAKS` (the order of club
evenings and round robins); a Swiss event ranks by :data:`SWISS_TIEBREAKS` unless told
otherwise.

**The settings** of a ranking (the tiebreaks, what ranks first, the match points of a win, a
bye and a requested bye, the rule for unplayed rounds) are one value, a :class:`Ranking`,
checked when it is made: the store makes one per event and hands it to :func:`rank_pairs`;
:func:`standings` takes the same settings as keywords.

Every refusal here is a :class:`~tally.errors.Message` (a template of the catalogue and its
values), so that the CLI and the web word it in the user's language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, NamedTuple

from tally.errors import N_, Joined, Message, NotFound, Refused, TallyError
from tally.events.schedule import check_player_names

__all__ = [
    "DEFAULT_TIEBREAKS",
    "RANK_BY",
    "SWISS_TIEBREAKS",
    "TABLE",
    "TIEBREAKS",
    "UNPLAYED",
    "MatchResult",
    "PairResult",
    "Ranking",
    "RoundGame",
    "StandingRow",
    "Tiebreak",
    "check_tiebreaks",
    "in_category",
    "needs_rounds",
    "option_help",
    "pairs_of",
    "rank_pairs",
    "standings",
]

#: What players are ranked by before the tiebreaks: match points or their percentage.
RANK_BY: tuple[str, ...] = ("points", "percentage")

#: What a round a player did not play counts for in the Buchholz tiebreaks (module docstring).
UNPLAYED: tuple[str, ...] = ("as-scored", "virtual-opponent")

#: The tiebreaks the rules for unplayed rounds change.
_BUCHHOLZ: tuple[str, ...] = ("buchholz", "median-buchholz", "buchholz-cut-1")

# The refusals, worded by the catalogue (tally.errors.Message).
ONE_STRING: Final = N_("tiebreaks must be a list of names, not one string: %(text)s")
UNKNOWN: Final = N_("unknown tiebreak %(name)s; valid tiebreaks are: %(names)s")
#: The store's words for a tiebreak given by a person (:func:`check_tiebreaks`).
UNKNOWN_GIVEN: Final = N_('unknown tiebreak "%(name)s" (tiebreaks: %(names)s)')
TWICE: Final = N_('the tiebreak "%(name)s" is given twice')
NOT_IN_MATCH: Final = N_("winner %(winner)s did not play in %(a)s v %(b)s")
RESULT_NAMES: Final = N_("result names %(name)s, who is not a player of this event")
NOT_A_PLAYER: Final = N_("%(what)s name %(name)s, who is not a player of this event")
SAME_PLAYER: Final = N_("a match needs two different players, got %(name)s twice")
NEGATIVE_POINTS: Final = N_(
    "negative points in %(a)s v %(b)s: game points, schneider and schwarz counts cannot be below 0"
)
NEGATIVE_REQUESTED: Final = N_("match points per requested bye cannot be negative")
NEGATIVE_WIN_BYE: Final = N_("match points per win and per bye cannot be negative")
RANK_BY_ONE_OF: Final = N_("rank by %(choices)s, not %(text)s")
UNPLAYED_ONE_OF: Final = N_("unplayed rounds count %(choices)s, not %(text)s")
NO_ROUNDS: Final = N_(
    "the progressive score and the virtual opponent of FIDE's rule for unplayed rounds follow "
    "the rounds: these standings have none"
)
NEGATIVE_COUNT: Final = N_("%(name)s cannot have a negative number of %(what)s (%(count)s)")
#: What :data:`NOT_A_PLAYER` and :data:`NEGATIVE_COUNT` count.
ROUNDS: Final = N_("rounds")
BYES: Final = N_("byes")
RUNNING: Final = N_("running matches")
REQUESTED: Final = N_("requested byes")
OR: Final = N_(" or ")

#: Values this close count as equal (match points are floats such as 0.5).
_DIGITS = 9


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One match of the event between ``player_a`` and ``player_b``.

    ``winner`` is the name of the player who won the match, or ``None`` for a voided or
    unfinished match, which counts for nothing (not even as played). ``game_points_x`` are the
    game points each player scored in the match; ``schneider_x`` and ``schwarz_x`` the number of
    deals each player won by schneider or schwarz, carried through to the standings as totals.
    """

    player_a: str
    player_b: str
    winner: str | None
    game_points_a: int
    game_points_b: int
    schneider_a: int = 0
    schneider_b: int = 0
    schwarz_a: int = 0
    schwarz_b: int = 0


@dataclass(frozen=True, slots=True)
class RoundGame:
    """One round of one player, for the tiebreaks that follow the rounds (``progressive``
    and the ``virtual-opponent`` rule): ``points`` the match points the player scored in it
    (a won match, a bye that scores), ``opponent`` whom they met (None for a bye), ``played``
    False for a round not played over the table (a bye, a match won or lost by forfeit)."""

    points: float
    opponent: str | None = None
    played: bool = True


class PairResult(NamedTuple):
    """Finished matches between ``player_a`` and ``player_b`` added up: how many each won (a
    match cannot be drawn, so ``won_a + won_b`` matches were played), the game points each
    scored in them and their schneider and schwarz wins. The same two players may appear in
    several of these (in either order); :func:`rank_pairs` adds them up. A plain tuple: a
    season hands over one per pair (or per match), and tuples are cheap to build."""

    player_a: str
    player_b: str
    won_a: int
    won_b: int
    game_points_a: int
    game_points_b: int
    schneider_a: int = 0
    schneider_b: int = 0
    schwarz_a: int = 0
    schwarz_b: int = 0


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings; ``tiebreak_values`` follow the order of the tiebreaks asked.

    ``percentage`` is the match-point percentage (see the module docstring), shown whatever
    the players are ranked by; ``byes`` the rounds the player sat out (scoring or not);
    ``running`` how many of the player's matches are still being played: while it is above 0
    the player's line is provisional.
    """

    rank: int
    player: str
    played: int
    won: int
    lost: int
    match_points: float
    game_points_won: int
    game_points_conceded: int
    game_point_difference: int
    schneider_wins: int
    schwarz_wins: int
    tiebreak_values: tuple[float, ...]
    percentage: float = 0.0
    byes: int = 0
    running: int = 0
    #: in a category's standings (``tally standings --category``): the rank in the whole
    #: field (``rank`` is then the rank within the category)
    overall_rank: int | None = None


@dataclass(slots=True)
class _Tally:
    """Running totals for one player while the results are read."""

    played: int = 0
    won: int = 0
    lost: int = 0
    game_points_won: int = 0
    game_points_conceded: int = 0
    schneider_wins: int = 0
    schwarz_wins: int = 0


@dataclass(frozen=True, slots=True)
class _Keys:
    """The tiebreaks as functions of one player, from the totals of :func:`_tally`."""

    totals: dict[str, _Tally]
    wins: dict[str, dict[str, int]]
    match_points: dict[str, float]
    per_win: float
    met: dict[str, dict[str, int]]
    percentage: dict[str, float]
    rounds: dict[str, tuple[RoundGame | None, ...]] = field(default_factory=dict)
    unplayed: str = "as-scored"

    def buchholz(self, player: str, name: str) -> float:
        """The sum of the match points of ``player``'s opponents, once per match; for
        ``median-buchholz`` without the highest and the lowest (from three opponents on), for
        ``buchholz-cut-1`` without the lowest. Under ``virtual-opponent`` the opponents come
        from the rounds (:meth:`opponent_scores`)."""
        if self.unplayed == "virtual-opponent":
            scores = sorted(self.opponent_scores(player))
        else:
            scores = sorted(
                self.match_points[o] for o, n in self.met[player].items() for _ in range(n)
            )
        if name == "median-buchholz" and len(scores) >= 3:
            scores = scores[1:-1]
        elif name == "buchholz-cut-1":
            scores = scores[1:]
        return sum(scores)

    def opponent_scores(self, player: str) -> list[float]:
        """The match points of ``player``'s opponents round by round under FIDE's rule for
        unplayed rounds (module docstring): a played round's opponent with their own unplayed
        rounds counted as drawn, a virtual opponent for a round ``player`` did not play."""
        games = self.rounds[player]
        last = len(games)
        out: list[float] = []
        before = 0.0
        for number, game in enumerate(games, start=1):
            scored = 0.0 if game is None else game.points
            if game is not None and game.played and game.opponent is not None:
                out.append(self.drawn_unplayed(game.opponent))
            else:
                out.append(before + (self.per_win - scored) + self.per_win / 2 * (last - number))
            before += scored
        return out

    def drawn_unplayed(self, player: str) -> float:
        """``player``'s match points with every round they did not play counted as drawn."""
        return sum(
            game.points if game is not None and game.played else self.per_win / 2
            for game in self.rounds[player]
        )

    def progressive(self, player: str) -> float:
        """The sum of ``player``'s match points after each round (their cumulative score)."""
        total = running = 0.0
        for game in self.rounds[player]:
            running += 0.0 if game is None else game.points
            total += running
        return total

    def koya(self, player: str) -> float:
        """The match points ``player`` earned against opponents on 50 % or more."""
        return self.per_win * sum(
            n for q, n in self.wins[player].items() if _level(self.percentage[q]) >= 50
        )

    def all_met(self, group: list[str]) -> bool:
        """Whether every two players of ``group`` have played a finished match together."""
        wins = self.wins
        return all(
            b in wins[a] or a in wins[b] for i, a in enumerate(group) for b in group[i + 1 :]
        )

    def key_for(self, name: str, group: list[str]) -> Callable[[str], float]:
        """The tiebreak ``name`` as a function of one player of the still-level ``group``
        (its key in :data:`TABLE`; ``head-to-head`` counts only the matches among
        ``group``)."""
        return TABLE[name].key(self, group)


def _head_to_head(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``head-to-head``: the match points earned in matches among just the players still tied
    (0 for a player who is alone in their group by then). As the chess regulations for the
    direct encounter require, it applies only to a group whose players have all played each
    other (a finished match between every two of them); otherwise it is skipped for that group
    (0 for everyone in it) and the next tiebreak decides, so a player is never lifted by
    beating the one tied player they happened to meet while the others never met."""
    if not keys.all_met(group):
        return lambda p: 0.0
    wins = keys.wins
    return lambda p: keys.per_win * sum(wins[p].get(q, 0) for q in group)


def _game_point_difference(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``game-point-difference``: game points won minus game points conceded."""
    totals = keys.totals
    return lambda p: float(totals[p].game_points_won - totals[p].game_points_conceded)


def _game_points_won(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``game-points-won``: the game points won."""
    totals = keys.totals
    return lambda p: float(totals[p].game_points_won)


def _sonneborn_berger(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``sonneborn-berger``: the sum of the final match points (byes included) of every
    opponent beaten, once per win; matches cannot be drawn, so no half shares."""
    wins, points = keys.wins, keys.match_points
    return lambda p: sum(n * points[q] for q, n in wins[p].items())


def _wins(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``wins``: the number of matches won."""
    totals = keys.totals
    return lambda p: float(totals[p].won)


def _buchholz(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``buchholz``: the sum of the final match points (byes included) of every opponent met
    in a match that counts (won or lost, also by forfeit), once per match: a measure of how
    strong the opposition was, made for Swiss events. A bye has no opponent and adds nothing
    (under ``as-scored``; the virtual opponent: the module docstring)."""
    return lambda p: keys.buchholz(p, "buchholz")


def _median_buchholz(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``median-buchholz``: the Buchholz without the opponent with the most and the one with
    the fewest match points (one each), once a player has met at least three opponents
    (before that, the plain Buchholz)."""
    return lambda p: keys.buchholz(p, "median-buchholz")


def _buchholz_cut_1(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``buchholz-cut-1``: the Buchholz without the opponent with the fewest match points
    (FIDE's "Buchholz cut 1": the weakest opponent, often the one met after a bad start,
    counts for nothing; 0 with one opponent)."""
    return lambda p: keys.buchholz(p, "buchholz-cut-1")


def _koya(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``koya``, for round robins: the match points earned against the opponents who finished
    with at least half of what they could have scored (a match-point percentage of 50 or
    more, as the standings show it): how a player did against the upper half of the field."""
    return keys.koya


def _progressive(keys: _Keys, group: list[str]) -> Callable[[str], float]:
    """``progressive``: the progressive (cumulative) score: the player's match points after
    round 1, plus those after round 2, and so on to the last round, so that points won early
    count more (FIDE's "progressive score"). It needs the rounds (``rounds`` of
    :func:`standings`); a round the player was not in adds the points they had then."""
    return keys.progressive


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One tiebreak, everything that shows it: its ``name`` (as typed and stored), ``head``,
    the head of its own column (a template of the catalogue: ``H2H``, German ``DV``) or None
    when it ``repeats`` a column the standings show anyway (a field of :class:`StandingRow`:
    the legend then names that column), ``legend``, its words in the sheet's legend, ``help``,
    what it counts in a line (the director's form, ``--tiebreaks``, docs/events.md), and
    ``key``: given the totals and the group of players still level, the function of one
    player it ranks by (higher is better; its docstring is the exact definition)."""

    name: str
    head: str | None
    legend: str
    help: str
    key: Callable[[_Keys, list[str]], Callable[[str], float]]
    repeats: str | None = None


#: Every tiebreak :func:`standings` understands, by name, in the order of the docs.
TABLE: Final[Mapping[str, Tiebreak]] = {
    t.name: t
    for t in (
        Tiebreak(
            "head-to-head",
            N_("H2H"),
            N_("head-to-head (among tied players who all met)"),
            N_("match points in the matches among the players still tied, when they have all met"),
            _head_to_head,
        ),
        Tiebreak(
            "game-point-difference",
            None,
            N_("game-point difference"),
            N_("game points won minus game points conceded"),
            _game_point_difference,
            repeats="game_point_difference",
        ),
        Tiebreak(
            "game-points-won",
            None,
            N_("game points won"),
            N_("game points won"),
            _game_points_won,
            repeats="game_points_won",
        ),
        Tiebreak(
            "sonneborn-berger",
            N_("SB"),
            N_("Sonneborn-Berger (match points of the opponents beaten)"),
            N_("the final match points of every opponent beaten"),
            _sonneborn_berger,
        ),
        Tiebreak("wins", None, N_("matches won"), N_("matches won"), _wins, repeats="won"),
        Tiebreak(
            "buchholz",
            N_("BH"),
            N_("Buchholz (match points of the opponents met)"),
            N_("the final match points of every opponent met (for Swiss events)"),
            _buchholz,
        ),
        Tiebreak(
            "median-buchholz",
            N_("MBH"),
            N_("median Buchholz (without the best and the worst opponent)"),
            N_("Buchholz without the strongest and the weakest opponent"),
            _median_buchholz,
        ),
        Tiebreak(
            "buchholz-cut-1",
            N_("BH-C1"),
            N_("Buchholz cut 1 (without the weakest opponent)"),
            N_("Buchholz without the weakest opponent"),
            _buchholz_cut_1,
        ),
        Tiebreak(
            "koya",
            N_("Koya"),
            N_("Koya (match points against the players who scored at least half)"),
            N_(
                "match points against the players who scored at least half of what they "
                "could (for round robins)"
            ),
            _koya,
        ),
        Tiebreak(
            "progressive",
            N_("Prog"),
            N_("progressive"),
            N_(
                "the score after each round added up: points won early count more (round "
                "robin or Swiss)"
            ),
            _progressive,
        ),
    )
}

#: Names of the tiebreaks :func:`standings` understands.
TIEBREAKS: tuple[str, ...] = tuple(TABLE)

#: The order used when none is given (club evenings and round robins).
DEFAULT_TIEBREAKS: tuple[str, ...] = TIEBREAKS[:5]

#: The order a Swiss event uses when none is given.
SWISS_TIEBREAKS: tuple[str, ...] = (
    "buchholz",
    "median-buchholz",
    "sonneborn-berger",
    "game-point-difference",
    "wins",
)


def option_help() -> str:
    """What each tiebreak counts (:data:`TABLE`), for the help of a ``--tiebreaks`` option
    (the command line's help is English).

    >>> option_help()[:49]
    'head-to-head: match points in the matches among t'
    """
    return "; ".join(f"{t.name}: {t.help}" for t in TABLE.values())


@dataclass(frozen=True, slots=True)
class Ranking:
    """How standings rank, as one value: by ``rank_by`` (one of :data:`RANK_BY`) and then the
    ``tiebreaks`` in order (names of :data:`TABLE`, kept as a tuple); a won match earns
    ``match_points_per_win``, a bye ``match_points_per_bye``, a requested bye (an announced
    absence) ``match_points_per_requested_bye``; ``unplayed`` (one of :data:`UNPLAYED`) is
    what a round not played over the table counts in the Buchholz tiebreaks. Checked when
    made (:class:`~tally.errors.TallyError`, the message names what is allowed).

    >>> Ranking(("buchholz", "wins"), unplayed="virtual-opponent").needs_rounds
    True
    """

    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS
    rank_by: str = "points"
    match_points_per_win: float = 1.0
    match_points_per_bye: float = 0.0
    match_points_per_requested_bye: float = 0.0
    unplayed: str = "as-scored"

    def __post_init__(self) -> None:
        _check_tiebreaks(self.tiebreaks)
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        if self.rank_by not in RANK_BY:
            raise TallyError(
                Message(RANK_BY_ONE_OF, choices=Joined(OR, RANK_BY), text=repr(self.rank_by))
            )
        if self.match_points_per_win < 0 or self.match_points_per_bye < 0:
            raise TallyError(Message(NEGATIVE_WIN_BYE))
        if self.match_points_per_requested_bye < 0:
            raise TallyError(Message(NEGATIVE_REQUESTED))
        if self.unplayed not in UNPLAYED:
            raise TallyError(
                Message(UNPLAYED_ONE_OF, choices=Joined(OR, UNPLAYED), text=repr(self.unplayed))
            )

    @property
    def needs_rounds(self) -> bool:
        """Whether ranking so needs each player's rounds (:func:`needs_rounds`)."""
        return needs_rounds(self.tiebreaks, self.unplayed)


def check_tiebreaks(names: Iterable[str]) -> tuple[str, ...]:
    """Tiebreak names as a person gave them (spaces around a name ignored), checked: each one
    of :data:`TIEBREAKS`, none twice; refused (:class:`~tally.errors.Refused`) otherwise.

    >>> check_tiebreaks(["wins", " head-to-head"])
    ('wins', 'head-to-head')
    """
    out: list[str] = []
    for name in names:
        name = name.strip()
        if name not in TIEBREAKS:
            raise Refused(Message(UNKNOWN_GIVEN, name=name, names=", ".join(TIEBREAKS)))
        if name in out:
            raise Refused(Message(TWICE, name=name))
        out.append(name)
    return tuple(out)


def _check_tiebreaks(tiebreaks: Sequence[str]) -> None:
    """Raise :class:`TallyError` for any tiebreak name that :func:`standings` does not know."""
    if isinstance(tiebreaks, str):
        raise TallyError(Message(ONE_STRING, text=repr(tiebreaks)))
    for name in tiebreaks:
        if name not in TIEBREAKS:
            raise TallyError(Message(UNKNOWN, name=repr(name), names=", ".join(TIEBREAKS)))


def _check_result(result: MatchResult, known: set[str]) -> None:
    """Raise a :class:`TallyError` for a result that cannot describe a real match."""
    a, b, winner = result.player_a, result.player_b, result.winner
    if winner is not None and winner != a and winner != b:
        raise TallyError(Message(NOT_IN_MATCH, winner=repr(winner), a=a, b=b))
    _check_pair(
        a,
        b,
        (
            result.game_points_a,
            result.game_points_b,
            result.schneider_a,
            result.schneider_b,
            result.schwarz_a,
            result.schwarz_b,
        ),
        known,
    )


def _check_pair(a: str, b: str, counts: Iterable[int], known: set[str]) -> None:
    """Raise a :class:`TallyError` for two players or counts no real match can have."""
    if a not in known or b not in known:
        raise NotFound(Message(RESULT_NAMES, name=repr(a if a not in known else b)))
    if a == b:
        raise TallyError(Message(SAME_PLAYER, name=repr(a)))
    if min(counts) < 0:
        raise TallyError(Message(NEGATIVE_POINTS, a=a, b=b))


def _level(value: float) -> float:
    """``value`` rounded so that sums of the same floats in another order compare equal."""
    return round(value, _DIGITS)


def _split(group: list[str], key: Callable[[str], float]) -> list[list[str]]:
    """Order ``group`` by ``key`` (highest first, stable) and cut it where the key changes."""
    ordered = sorted(group, key=lambda p: -_level(key(p)))
    parts: list[list[str]] = []
    for player in ordered:
        if parts and _level(key(parts[-1][-1])) == _level(key(player)):
            parts[-1].append(player)
        else:
            parts.append([player])
    return parts


def standings(
    players: Sequence[str],
    results: Sequence[MatchResult],
    *,
    match_points_per_win: float = 1.0,
    match_points_per_bye: float = 0.0,
    byes: Mapping[str, int] | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    rank_by: str = "points",
    running: Mapping[str, int] | None = None,
    rounds: Mapping[str, Sequence[RoundGame | None]] | None = None,
    unplayed: str = "as-scored",
    requested_byes: Mapping[str, int] | None = None,
    match_points_per_requested_bye: float = 0.0,
) -> list[StandingRow]:
    """Rank the players of an event from their match results.

    A won match earns ``match_points_per_win`` match points, a lost one none; ``byes[player]``
    is how many byes the player had, each worth ``match_points_per_bye`` match points but not
    a played match; ``requested_byes[player]`` how many rounds they announced they would
    miss (a requested bye), each worth ``match_points_per_requested_bye`` and counted as a
    bye otherwise. Results with ``winner=None`` are ignored. Players are sorted by match
    points (``rank_by="percentage"``: by their percentage), then by ``tiebreaks`` in order
    (see the module docstring); players still level share a rank and are listed in the order
    of ``players``. ``running[player]`` is how many of their matches are still being played
    (carried to :attr:`StandingRow.running`, it changes no rank). ``rounds[player]`` is the
    player's rounds in order (None: a round they were not in), which ``progressive`` and
    ``unplayed="virtual-opponent"`` need (see the module docstring). The settings are those
    of a :class:`Ranking`; :func:`rank_pairs` takes them as one.

    Raises :class:`~tally.errors.TallyError` for an unknown tiebreak (the message lists the
    valid names), duplicate player names, a result naming someone who is not a player, a
    winner who did not play the match, negative points or a negative number of byes.
    """
    pairs = pairs_of(players, results)
    ranking = Ranking(
        tiebreaks,
        rank_by,
        match_points_per_win,
        match_points_per_bye,
        match_points_per_requested_bye,
        unplayed,
    )
    return rank_pairs(
        players,
        pairs,
        ranking,
        byes=byes,
        running=running,
        rounds=rounds,
        requested_byes=requested_byes,
    )


def pairs_of(players: Sequence[str], results: Iterable[MatchResult]) -> list[PairResult]:
    """The finished matches of ``results`` as :class:`PairResult` rows for :func:`rank_pairs`
    (a voided or unfinished match left out), each checked against ``players`` first."""
    known = set(players)
    pairs: list[PairResult] = []
    for r in results:
        _check_result(r, known)
        if r.winner is None:
            continue
        a_won = r.winner == r.player_a
        pairs.append(
            PairResult(
                r.player_a,
                r.player_b,
                int(a_won),
                int(not a_won),
                r.game_points_a,
                r.game_points_b,
                r.schneider_a,
                r.schneider_b,
                r.schwarz_a,
                r.schwarz_b,
            )
        )
    return pairs


def rank_pairs(
    players: Sequence[str],
    pairs: Iterable[PairResult],
    ranking: Ranking,
    *,
    byes: Mapping[str, int] | None = None,
    running: Mapping[str, int] | None = None,
    rounds: Mapping[str, Sequence[RoundGame | None]] | None = None,
    requested_byes: Mapping[str, int] | None = None,
) -> list[StandingRow]:
    """:func:`standings` by ``ranking`` from finished matches already added up per pair of
    players (the store sums a season's matches in SQL this way): the same ranking, the same
    checks; ``byes``, ``running``, ``rounds`` and ``requested_byes`` as there."""
    check_player_names(players, minimum=0)
    bye_counts = _check_counts(BYES, players, byes)
    running_counts = _check_counts(RUNNING, players, running)
    requested = _check_counts(REQUESTED, players, requested_byes)
    per_win = ranking.match_points_per_win
    per_bye = ranking.match_points_per_bye
    per_requested = ranking.match_points_per_requested_bye
    totals, wins, met = _tally(players, pairs)
    match_points = {
        p: t.won * per_win + bye_counts.get(p, 0) * per_bye + requested.get(p, 0) * per_requested
        for p, t in totals.items()
    }
    scoring = Counter(bye_counts if per_bye > 0 else {})
    scoring.update(requested if per_requested > 0 else {})
    percentage = {
        p: _percentage(match_points[p], (t.played + scoring.get(p, 0)) * per_win)
        for p, t in totals.items()
    }
    bye_counts = dict(Counter(bye_counts) + Counter(requested))
    history = _check_rounds(players, ranking, rounds)
    keys = _Keys(totals, wins, match_points, per_win, met, percentage, history, ranking.unplayed)
    first = match_points if ranking.rank_by == "points" else percentage
    groups, values = _rank(players, first, ranking.tiebreaks, keys)
    return _rows(groups, totals, match_points, values, percentage, bye_counts, running_counts)


def _percentage(points: float, most: float) -> float:
    """``points`` as a percentage of ``most`` (0 when nothing could be scored)."""
    return 100.0 * points / most if most > 0 else 0.0


def needs_rounds(tiebreaks: Sequence[str], unplayed: str) -> bool:
    """Whether standings by ``tiebreaks`` under the rule ``unplayed`` need each player's
    rounds: the progressive score, or a Buchholz tiebreak with the virtual opponent.

    >>> needs_rounds(["buchholz"], "as-scored"), needs_rounds(["buchholz"], "virtual-opponent")
    (False, True)
    """
    return "progressive" in tiebreaks or (
        unplayed == "virtual-opponent" and any(name in _BUCHHOLZ for name in tiebreaks)
    )


def _check_rounds(
    players: Sequence[str],
    ranking: Ranking,
    rounds: Mapping[str, Sequence[RoundGame | None]] | None,
) -> dict[str, tuple[RoundGame | None, ...]]:
    """The rounds of every player, all padded to the same number (a round not there: None);
    refuses a tiebreak or rule for unplayed rounds that needs the rounds when there are
    none."""
    if rounds is None:
        if ranking.needs_rounds:
            raise TallyError(Message(NO_ROUNDS))
        return {}
    known = set(players)
    for name in rounds:
        if name not in known:
            raise NotFound(Message(NOT_A_PLAYER, what=Message(ROUNDS), name=repr(name)))
    count = max((len(r) for r in rounds.values()), default=0)
    return {
        p: tuple(rounds.get(p, ())) + (None,) * (count - len(rounds.get(p, ()))) for p in players
    }


def _check_counts(
    what: str, players: Sequence[str], counts: Mapping[str, int] | None
) -> dict[str, int]:
    """``counts`` per player, checked: known players, none negative; ``what`` they count is a
    word of the catalogue (:data:`BYES`)."""
    known = set(players)
    out = dict(counts or {})
    for name, count in out.items():
        if name not in known:
            raise NotFound(Message(NOT_A_PLAYER, what=Message(what), name=repr(name)))
        if count < 0:
            raise TallyError(
                Message(NEGATIVE_COUNT, name=repr(name), what=Message(what), count=count)
            )
    return out


def _tally(
    players: Sequence[str], pairs: Iterable[PairResult]
) -> tuple[dict[str, _Tally], dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """Each player's totals over the finished matches, how often each player beat each other
    player, and how often each met each other player; every pair is checked first."""
    known = set(players)
    totals = {p: _Tally() for p in players}
    wins: dict[str, dict[str, int]] = {p: {} for p in players}
    met: dict[str, dict[str, int]] = {p: {} for p in players}
    for pair in pairs:
        a_name, b_name, won_a, won_b, gp_a, gp_b = pair[:6]
        _check_pair(a_name, b_name, pair[2:], known)
        a, b = totals[a_name], totals[b_name]
        played = won_a + won_b
        a.played += played
        a.won += won_a
        a.lost += won_b
        a.game_points_won += gp_a
        a.game_points_conceded += gp_b
        a.schneider_wins += pair.schneider_a
        a.schwarz_wins += pair.schwarz_a
        b.played += played
        b.won += won_b
        b.lost += won_a
        b.game_points_won += gp_b
        b.game_points_conceded += gp_a
        b.schneider_wins += pair.schneider_b
        b.schwarz_wins += pair.schwarz_b
        if won_a:
            wins[a_name][b_name] = wins[a_name].get(b_name, 0) + won_a
        if won_b:
            wins[b_name][a_name] = wins[b_name].get(a_name, 0) + won_b
        if played:
            met[a_name][b_name] = met[a_name].get(b_name, 0) + played
            met[b_name][a_name] = met[b_name].get(a_name, 0) + played
    return totals, wins, met


def _rank(
    players: Sequence[str], first: dict[str, float], tiebreaks: Sequence[str], keys: _Keys
) -> tuple[list[list[str]], dict[str, list[float]]]:
    """The players in groups level on everything, best first, and each player's tiebreak
    values (each computed within the group still level at its stage); ``first`` is the
    ranking measure (match points or their percentage)."""
    groups = _split(list(players), first.__getitem__)
    values: dict[str, list[float]] = {p: [] for p in players}
    for name in tiebreaks:
        regrouped: list[list[str]] = []
        for group in groups:
            key = keys.key_for(name, group)
            for p in group:
                values[p].append(key(p))
            regrouped.extend(_split(group, key) if len(group) > 1 else [group])
        groups = regrouped
    return groups, values


def _rows(
    groups: list[list[str]],
    totals: dict[str, _Tally],
    match_points: dict[str, float],
    values: dict[str, list[float]],
    percentage: dict[str, float],
    byes: dict[str, int],
    running: dict[str, int],
) -> list[StandingRow]:
    """The standings lines: a group shares its rank, the next rank skips (1, 2, 2, 4)."""
    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for p in group:
            t = totals[p]
            rows.append(
                StandingRow(
                    rank=rank,
                    player=p,
                    played=t.played,
                    won=t.won,
                    lost=t.lost,
                    match_points=match_points[p],
                    game_points_won=t.game_points_won,
                    game_points_conceded=t.game_points_conceded,
                    game_point_difference=t.game_points_won - t.game_points_conceded,
                    schneider_wins=t.schneider_wins,
                    schwarz_wins=t.schwarz_wins,
                    tiebreak_values=tuple(values[p]),
                    percentage=percentage[p],
                    byes=byes.get(p, 0),
                    running=running.get(p, 0),
                )
            )
    return rows


def in_category(rows: Sequence[StandingRow], members: Collection[str]) -> list[StandingRow]:
    """The standings of a category: the rows of its players (``members``, by name) in the
    same order, each ranked within the category (players level overall share the rank, the
    next rank is skipped as usual) with the overall rank beside it.

    >>> rows = [StandingRow(r, p, 0, 0, 0, 0.0, 0, 0, 0, 0, 0, ()) for r, p in
    ...         [(1, "A"), (2, "B"), (2, "C"), (2, "D"), (5, "E")]]
    >>> [(r.rank, r.overall_rank, r.player) for r in in_category(rows, {"B", "C", "E"})]
    [(1, 2, 'B'), (1, 2, 'C'), (3, 5, 'E')]
    """
    kept = [r for r in rows if r.player in members]
    return [
        replace(r, rank=1 + sum(1 for o in kept if o.rank < r.rank), overall_rank=r.rank)
        for r in kept
    ]
