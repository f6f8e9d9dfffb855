"""Plain data for tally's printed sheets.

The templates in :mod:`tally.templates` receive only these frozen dataclasses (and strings,
numbers, dates and tuples inside them), never database rows: whoever prints a sheet first turns
what is stored into one of the ``*Sheet`` classes below (:mod:`tally.sheets.build`), then hands
it to :mod:`tally.sheets.render`.

Every class checks in ``__post_init__`` that its parts fit together (a row has one value per
tiebreak, a cross-table is square, a first dealer sits at the table...) and raises
:class:`SheetError` otherwise, so a template never has to guess.

Cards are written in tally's canonical notation (``"10H"``, ``"QS"``), suits as one letter
(``"C" "D" "H" "S"``); the templates print them with suit symbols.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Literal

from tally.analysis.marks import Mark
from tally.errors import Message, SheetError
from tally.events.teams import TeamRow

#: The paper sizes a sheet can be printed on.
Paper = Literal["A4", "letter"]

#: The kinds of declaration a trick row can carry.
DeclarationKind = Literal["marriage", "exchange", "close", "claim"]


def _need(condition: bool, message: str) -> None:
    """Raise :class:`SheetError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise SheetError(message)


# --------------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class StandingRow:
    """One player's line in the standings table."""

    rank: int
    player: str
    played: int
    won: int
    lost: int
    match_points: int | float
    game_points_won: int
    game_points_conceded: int
    schneider_wins: int
    schwarz_wins: int
    #: One value per tiebreak of :attr:`StandingsSheet.tiebreaks`, in the same order.
    tiebreaks: tuple[int | float, ...] = ()
    #: The match-point percentage (0 to 100 as the store counts it).
    percentage: float = 0.0
    #: Rounds the player sat out.
    byes: int = 0
    #: Matches of the player still being played: the line is provisional while above 0.
    running: int = 0

    def __post_init__(self) -> None:
        _need(self.rank >= 1, f"rank {self.rank} of {self.player!r} is not 1 or more")
        _need(
            min(
                self.played,
                self.won,
                self.lost,
                self.game_points_won,
                self.game_points_conceded,
                self.schneider_wins,
                self.schwarz_wins,
                self.byes,
                self.running,
            )
            >= 0,
            f"negative count in the standings row of {self.player!r}",
        )
        _need(self.percentage >= 0, f"percentage {self.percentage} of {self.player!r} is below 0")
        _need(
            self.won + self.lost <= self.played,
            f"{self.player!r} won {self.won} and lost {self.lost} of {self.played} matches",
        )

    @property
    def difference(self) -> int:
        """Game points won minus game points conceded."""
        return self.game_points_won - self.game_points_conceded


#: The most players of a Swiss event whose sheet shows a cross-table (mostly empty beyond:
#: each player meets only a few others); a bigger field gets a round-by-round table.
CROSS_TABLE_LIMIT = 12


@dataclass(frozen=True)
class CrossTable:
    """The grid of a round robin: ``cells[i][j]`` holds row player *i*'s results against *j*.

    Each cell is a tuple of results as printed, from the row player's side (``"7:3"`` in game
    points or ``"1"``/``"0"`` in match points), one per meeting (two in a double round robin);
    an empty tuple is a match not played yet. The diagonal must be empty.
    """

    players: tuple[str, ...]
    cells: tuple[tuple[tuple[str, ...], ...], ...]
    #: Per player, the rounds they sat out (a bye); empty when nobody did.
    byes: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        n = len(self.players)
        _need(n >= 2, "a cross-table needs at least two players")
        _need(
            not self.byes or len(self.byes) == n,
            f"a cross-table of {n} players needs {n} lists of byes, or none",
        )
        _need(
            len(self.cells) == n and all(len(row) == n for row in self.cells),
            f"a cross-table of {n} players needs {n} rows of {n} cells",
        )
        _need(
            all(not self.cells[i][i] for i in range(n)),
            "a player has a result against himself in the cross-table",
        )


@dataclass(frozen=True)
class RoundCell:
    """A player's round in a round-by-round table: the opponent's number in the table (its
    line; None: sat out or not played), the result as the cross-table writes it (``"bye"``
    for a bye) and the player's match points after the round."""

    opponent: int | None
    result: str
    total: float


@dataclass(frozen=True)
class RoundTable:
    """A Swiss event round by round, for a field too big for a cross-table: a line per
    player in the order of the standings (``ranks`` theirs), ``cells[i][r]`` their round
    ``r + 1``."""

    players: tuple[str, ...]
    ranks: tuple[int, ...]
    cells: tuple[tuple[RoundCell, ...], ...]

    def __post_init__(self) -> None:
        n = len(self.players)
        _need(
            len(self.ranks) == n and len(self.cells) == n,
            f"a round-by-round table of {n} players needs {n} ranks and {n} lines",
        )
        _need(
            len({len(row) for row in self.cells}) <= 1,
            "every line of a round-by-round table has the same rounds",
        )
        _need(
            all(c.opponent is None or 1 <= c.opponent <= n for row in self.cells for c in row),
            "an opponent's number is not a line of the table",
        )

    @property
    def rounds(self) -> int:
        """How many rounds the table shows."""
        return len(self.cells[0]) if self.cells else 0


@dataclass(frozen=True)
class StandingsSheet:
    """The standings of an event (with its cross-table) or of a season.

    ``rank_by`` is what the players are ranked by before the tiebreaks (``"points"`` or
    ``"percentage"``), ``points_per_win`` what a won match earns (the legend explains the
    percentage with it); ``provisional`` while some match is still being played.
    """

    event: str
    date: date
    rule_set: str
    printed_at: datetime
    rows: tuple[StandingRow, ...]
    #: Names of the tiebreaks, in order; their heads and legend words are their records'
    #: (:data:`tally.events.tiebreaks.TABLE`), a name without one is headed TB1, TB2...
    tiebreaks: tuple[str, ...] = ()
    #: Where the event stands, e.g. ``"after round 5 of 7"`` or ``"final"``; may be empty.
    stage: str | Message = ""
    cross_table: CrossTable | None = None
    #: A Swiss event of more than :data:`CROSS_TABLE_LIMIT` players: round by round instead
    round_table: RoundTable | None = None
    rank_by: str = "points"
    points_per_win: int | float = 1
    provisional: bool = False
    #: a round robin's players struck out (withdrawn before half of their games, every
    #: result annulled): in no row, named below them
    struck_out: tuple[str, ...] = ()
    #: a team event's team standings (:class:`tally.events.teams.TeamRow`), shown above the
    #: players', and what ranks them (``"bummerl"`` or ``"match-points"``)
    teams: tuple[TeamRow, ...] = ()
    team_rank: str = "bummerl"

    @property
    def any_byes(self) -> bool:
        """Whether somebody sat out a round (the sheet then shows a Bye column)."""
        return any(row.byes for row in self.rows)

    def __post_init__(self) -> None:
        _need(
            self.rank_by in ("points", "percentage"),
            f"standings rank by points or percentage, not {self.rank_by!r}",
        )
        for row in self.rows:
            _need(
                len(row.tiebreaks) == len(self.tiebreaks),
                f"{row.player!r} has {len(row.tiebreaks)} tiebreak values, "
                f"the sheet names {len(self.tiebreaks)} tiebreaks",
            )


# --------------------------------------------------------------------------------- pairings


@dataclass(frozen=True)
class PairingTable:
    """One table of a round: two players and who deals first."""

    table: int
    player_one: str
    player_two: str
    first_dealer: str
    #: the QR code of the table's page (``tally serve``) as inline SVG; empty for none
    qr: str = ""
    #: the number of the match played there (a club evening's tables show it), if made
    match_id: int | None = None
    #: the probability that player one wins, from the ratings when the round started (None:
    #: not shown)
    expected: float | None = None
    #: each player's match points before the round (None: not shown)
    score_one: float | None = None
    score_two: float | None = None
    #: each player's rating on the seeding list, as text (an event seeded by rating; ""
    #: not shown, "-" for a player seeded without a rating)
    rating_one: str = ""
    rating_two: str = ""

    def __post_init__(self) -> None:
        _need(self.table >= 1, f"table number {self.table} is not 1 or more")
        _need(
            self.expected is None or 0.0 <= self.expected <= 1.0,
            f"table {self.table}: a win probability of {self.expected} is not 0 to 1",
        )
        _need(
            self.first_dealer in (self.player_one, self.player_two),
            f"first dealer {self.first_dealer!r} does not sit at table {self.table}",
        )


@dataclass(frozen=True)
class PairingsSheet:
    """The pairings of one round, with a box per table for the result; or (``round_number``
    None) a club evening's tables as they sit down, with the players still waiting."""

    event: str
    round_number: int | None
    rule_set: str
    printed_at: datetime
    tables: tuple[PairingTable, ...]
    #: Players who sit out this round (they score a bye).
    byes: tuple[str, ...] = ()
    date: date | None = None
    #: A club evening's players at no table (and not withdrawn).
    waiting: tuple[str, ...] = ()
    #: How the round was made, printed with it (a knockout's ``"drawn by lot, seed 2026"``).
    note: str | Message = ""
    #: the event is seeded by rating: the sheet says so and shows each player's rating
    seeded_by_rating: bool = False
    #: Players who announced they miss this round (a requested bye, printed "Absent
    #: (requested bye, ½): Carl"), and the match points each such bye scores.
    absent: tuple[str, ...] = ()
    absence_points: float = 0.0

    def __post_init__(self) -> None:
        _need(
            self.round_number is None or self.round_number >= 1,
            f"round number {self.round_number} is not 1 or more",
        )
        numbers = [t.table for t in self.tables]
        _need(len(set(numbers)) == len(numbers), "two pairings share a table number")


# --------------------------------------------------------------------------------- knockouts


@dataclass(frozen=True)
class BracketCell:
    """A match of a bracket: its table, both sides (``None``: a bye; ``""``: not known yet),
    the score (first player's game points first) and the winner once decided."""

    table: int
    first: str | None
    second: str | None
    result: str | None = None
    winner: str | None = None


@dataclass(frozen=True)
class BracketSheet:
    """A knockout bracket: its rounds, first to final (``rounds[r]`` holds half as many
    matches as ``rounds[r - 1]``), each round's name, and the champion once decided."""

    event: str
    date: date
    rule_set: str
    printed_at: datetime
    round_names: tuple[str, ...]
    rounds: tuple[tuple[BracketCell, ...], ...]
    champion: str | None = None
    stage: str | Message = ""
    #: the pairings are played best of this many matches (the score: matches won)
    best_of: int = 1

    def __post_init__(self) -> None:
        _need(len(self.rounds) >= 1, "a bracket has at least a final")
        _need(len(self.round_names) == len(self.rounds), "every round of a bracket has a name")
        _need(len(self.rounds[-1]) == 1, "a bracket ends with one final")
        for earlier, later in zip(self.rounds, self.rounds[1:], strict=False):
            _need(len(earlier) == 2 * len(later), "each round of a bracket halves the field")

    @property
    def slots(self) -> int:
        """The bracket's size: two slots per match of its first round."""
        return 2 * len(self.rounds[0])


@dataclass(frozen=True)
class EliminationRow:
    """One player's line of the standings by elimination: rank, how far they got, lives
    left and the round out in (a knockout with lives), the group (groups), matches won and
    lost, and a mark per round (``W`` ``L`` ``B`` ``?`` ``-``)."""

    rank: int
    player: str
    stage: str | Message
    lives: int | None
    out_in: int | None
    group: int | None
    won: int
    lost: int
    marks: tuple[str, ...]
    withdrawn: bool = False
    #: the lives bought back ("Nachkauf")
    bought: int = 0
    #: the prize won, as the sheet prints it (None: none, or no prize table)
    prize: str | None = None
    #: the category whose prize it is (None: an overall prize, or none)
    prize_category: str | None = None


@dataclass(frozen=True)
class CategoryPrizeLines:
    """A category's prize table as a sheet prints it: its name, each place's share (empty
    for a fixed amount) and prize, and what the category's players win of it."""

    category: str
    places: tuple[tuple[int, str, str], ...]
    paid: str


@dataclass(frozen=True)
class PrizeLines:
    """A prize table as a sheet prints it (amounts in euros as text): the pool, the entries
    and buy-backs it comes from, each place's share and prize, the unit the prizes are
    rounded down to and what is left for the club."""

    pool: str
    entries: int
    entry_fee: str
    bought: int
    places: tuple[tuple[int, str, str], ...]
    unit: str
    paid: str
    club: str
    #: the categories' prize tables, and what the overall table pays
    categories: tuple[CategoryPrizeLines, ...] = ()
    paid_overall: str = ""


@dataclass(frozen=True)
class EliminationSheet:
    """The standings of a knockout with lives or groups then knockout, by elimination."""

    event: str
    date: date
    rule_set: str
    printed_at: datetime
    kind: str
    rows: tuple[EliminationRow, ...]
    rounds: int
    lives: int | None = None
    seed: str | None = None
    stage: str | Message = ""
    champion: str | None = None
    tiebreaks: tuple[str, ...] = ()
    prizes: PrizeLines | None = None
    #: buying back a life: the last round it is taken for (None: no buy-backs), how often
    buy_back_until: int | None = None
    buy_backs: int = 1

    def __post_init__(self) -> None:
        for row in self.rows:
            _need(
                len(row.marks) == self.rounds,
                f"{row.player!r} has {len(row.marks)} round marks, the sheet {self.rounds}",
            )


# --------------------------------------------------------------------------------- score sheet


@dataclass(frozen=True)
class ScoreRow:
    """A deal already on the score sheet: played (or being played) and ruled.

    Pairs are in sheet player order (player one, player two).
    """

    number: int
    dealer: str
    #: Game points this deal gave each player, carry included; ``None`` while it is played.
    game_points: tuple[int, int] | None = None
    #: Of the winner's game points, those carried in from drawn deals before.
    carried_in: int = 0
    #: Game points carried to the next deal (after a draw), else 0.
    carry: int = 0
    #: The running score after the deal; ``None`` while it is played.
    score: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        _need(self.number >= 1, f"deal number {self.number} is not 1 or more")
        _need(min(self.carried_in, self.carry) >= 0, f"deal {self.number}: negative carry")
        for pair in (self.game_points, self.score):
            _need(pair is None or min(pair) >= 0, f"deal {self.number}: negative game points")
        _need(
            self.carried_in == 0
            or (self.game_points is not None and max(self.game_points) >= self.carried_in),
            f"deal {self.number}: {self.carried_in} carried in but fewer game points won",
        )

    @property
    def played(self) -> bool:
        """Whether the deal has its result (it is not being played any more)."""
        return self.game_points is not None

    @property
    def drawn(self) -> bool:
        """Whether the deal has its result and nobody scored."""
        return self.game_points is not None and not any(self.game_points)


@dataclass(frozen=True)
class ScoreSheet:
    """A form to score one match by hand; empty names print as lines to write on.

    A match already under way brings its deals (:attr:`deals`): they print filled in, the
    rest of the rows stay empty for the table to go on.
    """

    rule_set: str
    match_target: int = 7
    player_one: str = ""
    player_two: str = ""
    event: str = ""
    #: Round and table, e.g. ``"round 3, table 2"``; may be empty.
    place: str = ""
    printed_at: datetime | None = None
    #: Rows to print; 0 means enough for the target: ``max(14, 2 * target) + 4``.
    deal_rows: int = 0
    #: The match's number in tally, when it is stored.
    match_id: int | None = None
    #: Deals already played, numbered from 1 in order.
    deals: tuple[ScoreRow, ...] = ()
    #: Who deals the first deal not in :attr:`deals`, when it is known.
    next_dealer: str = ""
    #: The winner of the match, once it is over.
    winner: str = ""
    #: the QR code of the match's table page (``tally serve``) as inline SVG; empty for none
    qr: str = ""

    def __post_init__(self) -> None:
        _need(1 <= self.match_target <= 99, f"match target {self.match_target} is not 1-99")
        _need(0 <= self.deal_rows <= 60, f"{self.deal_rows} deal rows do not fit a score sheet")
        _need(
            [d.number for d in self.deals] == list(range(1, len(self.deals) + 1)),
            "the deals of a score sheet are numbered 1, 2, 3... in order",
        )
        _need(len(self.deals) <= 60, f"{len(self.deals)} deals do not fit a score sheet")
        _need(
            all(d.played for d in self.deals[:-1]),
            "only the last deal of a score sheet may still be played",
        )
        names = {self.player_one, self.player_two}
        if self.deals or self.next_dealer or self.winner:
            _need(
                bool(self.player_one and self.player_two),
                "a score sheet with deals, a dealer or a winner names both players",
            )
        for d in self.deals:
            _need(d.dealer in names, f"deal {d.number}: dealer {d.dealer!r} does not play")
        _need(
            not self.next_dealer or self.next_dealer in names,
            f"next dealer {self.next_dealer!r} does not play",
        )
        _need(not self.winner or self.winner in names, f"winner {self.winner!r} does not play")

    @classmethod
    def blank(cls, rule_set: str = "", match_target: int = 7) -> ScoreSheet:
        """A form with no names, event or date, for the pile next to the card tables."""
        return cls(rule_set=rule_set, match_target=match_target)

    @property
    def rows(self) -> int:
        """How many deal rows the form prints: at least its deals, and four empty rows more
        while the match is not over."""
        base = self.deal_rows or max(14, 2 * self.match_target) + 4
        return max(base, len(self.deals) + (0 if self.winner else 4))

    @property
    def is_blank(self) -> bool:
        """Whether the form names no players."""
        return not (self.player_one or self.player_two)


# --------------------------------------------------------------------------------- ruling


@dataclass(frozen=True)
class Declaration:
    """Something a player declared during a trick: a marriage, an exchange, a close, a claim."""

    kind: DeclarationKind
    player: str
    #: Cards shown: the king and queen of a marriage, the trump jack/nine of an exchange.
    cards: tuple[str, ...] = ()
    #: 20 or 40 for a marriage, else 0.
    points: int = 0

    def __post_init__(self) -> None:
        if self.kind == "marriage":
            _need(self.points in (20, 40), f"a marriage is worth 20 or 40, not {self.points}")
        else:
            _need(self.points == 0, f"a {self.kind} is worth no points")


@dataclass(frozen=True)
class TrickRow:
    """One trick line of the deal as played.

    A line may hold no finished trick: a claim before leading, the last trick cut short. Its
    missing cards and its winner are then empty strings.
    """

    number: int
    leader: str
    lead_card: str
    follow_card: str
    winner: str
    #: Counted card points of (player one, player two) after this trick, in sheet player order.
    points: tuple[int, int]
    declarations: tuple[Declaration, ...] = ()

    def __post_init__(self) -> None:
        _need(self.number >= 1, f"trick number {self.number} is not 1 or more")


@dataclass(frozen=True)
class Violation:
    """A broken rule: its name, what happened, and the rule text quoted from the rule book."""

    rule: str
    description: str
    rule_text: str
    player: str = ""
    #: The trick where it happened, if any.
    trick: int | None = None


@dataclass(frozen=True)
class Ruling:
    """The verdict on a deal, in plain words."""

    #: Who wins the deal's game points; ``None`` when nobody scores (carried over).
    winner: str | None
    game_points: int
    #: Why, in a sentence: ``"Ben played 9S on AH although he held hearts (trick 7)."``.
    reason: str
    violations: tuple[Violation, ...] = ()
    #: What the players wrote down before asking for a ruling; ``None`` when they did not agree.
    agreed_winner: str | None = None
    agreed_game_points: int | None = None
    #: The rule that decides the outcome, by name (``claim``, ``illegal-play``...); may be empty.
    rule: str = ""
    #: That rule quoted from the rule book.
    rule_text: str = ""

    def __post_init__(self) -> None:
        if self.winner is None:
            _need(self.game_points == 0, "game points without a winner")
        else:
            _need(
                self.game_points >= 1,
                f"{self.winner!r} wins the deal with {self.game_points} game points",
            )
        if self.agreed_winner is not None:
            _need(
                self.agreed_game_points is not None, "an agreed winner without agreed game points"
            )

    @property
    def has_agreement(self) -> bool:
        """Whether the players recorded a result of their own."""
        return self.agreed_game_points is not None

    @property
    def agreement_matches(self) -> bool:
        """Whether the players' agreed result is the ruling's (false when there is none)."""
        return (
            self.has_agreement
            and self.agreed_winner == self.winner
            and self.agreed_game_points == self.game_points
        )


@dataclass(frozen=True)
class RulingSheet:
    """A dispute sheet for one deal: its tags, its tricks and the ruling."""

    event: str
    players: tuple[str, str]
    dealer: str
    forehand: str
    #: The turned-up card (trump card), in canonical notation.
    turn_up: str
    #: Trump suit letter: ``"C" "D" "H" "S"``.
    trumps: str
    rules: str
    tricks: tuple[TrickRow, ...]
    ruling: Ruling
    printed_at: datetime
    #: Game points carried into this deal from drawn deals before it.
    carry: int = 0
    #: Where the deal was played, e.g. ``"round 3, table 2, deal 5"``.
    place: str = ""
    #: Further tags of the deal record, as (name, value) pairs.
    extra_tags: tuple[tuple[str, str], ...] = field(default=())
    #: The analysis of the deal (``tally analyse``); ``None`` when it is left out.
    analysis: DealAnalysisPart | None = None

    def __post_init__(self) -> None:
        names = set(self.players)
        _need(len(names) == 2, "a ruling needs two different players")
        _need(self.dealer in names, f"dealer {self.dealer!r} is not one of the players")
        _need(self.forehand in names, f"forehand {self.forehand!r} is not one of the players")
        _need(self.trumps in ("C", "D", "H", "S"), f"trumps {self.trumps!r} is not C, D, H or S")
        _need(self.carry >= 0, f"carry {self.carry} is negative")
        for trick in self.tricks:
            _need(
                trick.leader in names and (not trick.winner or trick.winner in names),
                f"trick {trick.number} names a player who is not in the deal",
            )
            for decl in trick.declarations:
                _need(
                    decl.player in names,
                    f"trick {trick.number}: {decl.player!r} is not in the deal",
                )
        _need(
            self.ruling.winner is None or self.ruling.winner in names,
            f"the ruling's winner {self.ruling.winner!r} is not one of the players",
        )
        if self.analysis is not None:
            for d in self.analysis.decisions:
                _need(d.player in names, f"trick {d.trick}: {d.player!r} is not in the deal")


# --------------------------------------------------------------------------------- analysis


@dataclass(frozen=True)
class AnalysisLine:
    """One finding of the analysis: what it is about (``Close``, ``Value``, ``Best line``...)
    and the sentence, worded by :mod:`tally.analysis.wording` as ``tally analyse`` words it."""

    label: str
    text: str

    def __post_init__(self) -> None:
        _need(
            bool(self.label.strip()) and bool(self.text.strip()),
            "an analysis finding needs a label and a sentence",
        )


@dataclass(frozen=True)
class DecisionRow:
    """At one phase-1 lead: the leader's mean game points of closing now and of playing on."""

    trick: int
    player: str
    #: whether the record closes at this lead
    closed: bool
    close_now: float
    play_on: float
    #: ``close``, ``play on`` or ``either``
    better: str
    samples: int
    #: about a 95% margin of closing less playing on over the samples
    margin: float = 0.0
    #: playing on solved with best play (else estimated by the rollout)
    play_on_exact: bool = True

    def __post_init__(self) -> None:
        _need(self.trick >= 1, f"trick number {self.trick} is not 1 or more")
        _need(self.samples >= 1, f"a decision over {self.samples} deals")
        _need(
            self.better in ("close", "play on", "either"),
            f"{self.better!r} is not close, play on or either",
        )

    @property
    def gap(self) -> float:
        """How much better the better choice was, in game points."""
        return abs(self.close_now - self.play_on)


@dataclass(frozen=True)
class DealAnalysisPart:
    """The "Analysis" part of a ruling sheet: the findings in order, closing against playing
    on at each phase-1 lead, or only a one-line ``note`` when the record cannot be analysed
    (errors or violations)."""

    findings: tuple[AnalysisLine, ...] = ()
    decisions: tuple[DecisionRow, ...] = ()
    note: str = ""
    #: samples and seed asked for (the findings say whether the hands were sampled)
    samples: int = 1
    seed: int = 0
    #: every decision with its value before and after and its mark (:mod:`tally.analysis.marks`)
    marks: tuple[Mark, ...] = ()
    #: the value after each decision, an inline SVG (:func:`tally.sheets.graph.value_graph`)
    graph: str = ""

    def __post_init__(self) -> None:
        _need(
            bool(self.note) != bool(self.findings or self.decisions),
            "an analysis part has findings or decisions, or else a note",
        )
        _need(self.samples >= 1 and self.seed >= 0, "samples 1 or more, a seed 0 or more")


@dataclass(frozen=True)
class AnalysisRow:
    """One recorded deal of a match on the analysis sheet."""

    #: ``MATCH.DEAL``
    deal: str
    #: who closed (empty: nobody closed)
    closer: str = ""
    #: the first trick of phase 2 (after the close, or once the stock ran out)
    trick: int | None = None
    #: whether the close was sound; ``None`` when nobody closed
    sound: bool | None = None
    #: whether both hands were known (else the value is a mean over ``samples`` deals)
    exact: bool = True
    samples: int = 1
    #: game points from the closer's side (the forehand's when nobody closed)
    as_played: int | None = None
    best: float | None = None
    #: the side those values are for
    side: str = ""
    #: the claim's verdict in words; empty when nobody claimed
    claim: str = ""
    #: why the deal has no findings (errors, never reached phase 2...)
    note: str = ""

    def __post_init__(self) -> None:
        _need(bool(self.deal), "an analysis row names its deal")
        _need(
            (self.sound is None) == (not self.closer),
            f"deal {self.deal}: a close verdict needs a closer and the other way round",
        )
        _need(
            (self.best is None) == (self.as_played is None) == (not self.side),
            f"deal {self.deal}: values as played and best go together, with their side",
        )
        _need(self.samples >= 1, f"deal {self.deal}: {self.samples} samples")


@dataclass(frozen=True)
class AnalysisTotal:
    """One player's closes and claims over the match (:mod:`tally.analysis.report`)."""

    player: str
    deals: int
    closes: int
    sound_closes: int
    lost_to_unsound_closes: int
    late_claims: int
    lost_to_late_claims: int
    #: game points lost by the marks of every decision (:func:`tally.analysis.marks.lost_by`)
    lost_to_closes: float = 0.0
    lost_to_claims: float = 0.0
    lost_to_cards: float = 0.0

    def __post_init__(self) -> None:
        _need(
            min(
                self.deals,
                self.closes,
                self.sound_closes,
                self.lost_to_unsound_closes,
                self.late_claims,
                self.lost_to_late_claims,
                self.lost_to_closes,
                self.lost_to_claims,
                self.lost_to_cards,
            )
            >= 0,
            f"negative count in the analysis totals of {self.player!r}",
        )
        _need(
            self.sound_closes <= self.closes <= self.deals,
            f"{self.player!r}: {self.sound_closes} sound of {self.closes} closes in "
            f"{self.deals} deals",
        )


@dataclass(frozen=True)
class AnalysisSheet:
    """A whole match's closes on one sheet: a row per recorded deal, the totals per player."""

    match_id: int
    players: tuple[str, str]
    rules: str
    printed_at: datetime
    rows: tuple[AnalysisRow, ...]
    totals: tuple[AnalysisTotal, ...]
    samples: int
    seed: int
    event: str = ""
    #: deals entered as a result (quick entry): no record to analyse
    skipped: int = 0

    def __post_init__(self) -> None:
        names = set(self.players)
        _need(len(names) == 2, "an analysis sheet needs two different players")
        _need(
            self.skipped >= 0 and self.samples >= 1 and self.seed >= 0,
            "skipped deals, samples and seed are not negative",
        )
        for row in self.rows:
            _need(
                not row.closer or row.closer in names,
                f"deal {row.deal}: closer {row.closer!r} does not play",
            )
            _need(not row.side or row.side in names, f"deal {row.deal}: {row.side!r} does not play")
        for t in self.totals:
            _need(t.player in names, f"{t.player!r} does not play in match {self.match_id}")
