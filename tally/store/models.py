"""The database schema as SQLModel table models: the source Alembic migrations are written from.

Tables hold what happened at the table and nothing that can be derived: a deal stores its
turn-up and its actions (one notation item per row, in order), never its score, dealer or
carry; :mod:`tally.store.store` rebuilds the record and asks the engine each time. The one
exception is :class:`DealResultRow`, a cache of each deal's ruling that the store rewrites in
the same transaction as every change to a match's deals, so that standings can be summed up
in SQL; standings themselves are never stored.

The store itself talks to these tables through SQLAlchemy Core (:mod:`tally.store.tables`),
because ``import sqlmodel`` costs more than a recorded action may take; this module is imported
by the migrations and the tests, which check that both descriptions agree.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Index, Text, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlmodel import Field, SQLModel

from tally.store.columns import CATEGORY_LENGTH, NAME_LENGTH

#: Names for every constraint and index, so that migrations can name what they alter or drop
#: (SQLite batch migrations rebuild tables and need the names).
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata.naming_convention = NAMING_CONVENTION


class Player(SQLModel, table=True):
    """A person who plays; ``name_key`` (the name case-folded and stripped) is unique."""

    __tablename__ = "players"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=NAME_LENGTH)
    name_key: str = Field(max_length=NAME_LENGTH, unique=True)
    created_at: datetime
    #: shown by their initials on the published site (``tally player private``)
    private: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})


class PlayerAlias(SQLModel, table=True):
    """Another name a player goes by (``tally player alias``); ``alias_key`` (the alias
    folded: case, spaces and accents, :func:`tally.names.fold`) is unique among aliases."""

    __tablename__ = "player_aliases"

    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="players.id", index=True)
    alias: str = Field(max_length=NAME_LENGTH)
    alias_key: str = Field(max_length=NAME_LENGTH, unique=True)
    created_at: datetime


class PlayerCategory(SQLModel, table=True):
    """A category a player belongs to (``tally player category``: women, juniors, club
    members, the club's own); ``category_key`` (the name folded, :func:`tally.names.fold`) is
    unique per player."""

    __tablename__ = "player_categories"
    __table_args__ = (UniqueConstraint("player_id", "category_key"),)

    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="players.id", index=True)
    category: str = Field(max_length=CATEGORY_LENGTH)
    category_key: str = Field(max_length=CATEGORY_LENGTH)
    created_at: datetime


class Match(SQLModel, table=True):
    """Two players, a rule set (a ``Rules`` tag value) and who dealt the first deal.

    A match's ``id`` is never given again, even after the match is deleted (SQLite:
    AUTOINCREMENT; PostgreSQL's sequence never repeats): a table's address is made from it
    (:meth:`tally.web.access.Keys.table_secret`) and must never open another match."""

    __tablename__ = "matches"
    __table_args__ = (
        CheckConstraint("player_a_id <> player_b_id", name="two_players"),
        CheckConstraint(
            "first_dealer_id = player_a_id OR first_dealer_id = player_b_id", name="dealer_plays"
        ),
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    player_a_id: int = Field(foreign_key="players.id", index=True)
    player_b_id: int = Field(foreign_key="players.id", index=True)
    rules: str = Field(max_length=400)
    first_dealer_id: int = Field(foreign_key="players.id")
    created_at: datetime
    #: the event the match counts for (None: a friendly match)
    event_id: int | None = Field(default=None, foreign_key="events.id", index=True)
    #: for a round robin, the round and table of the schedule the match was created from
    round_number: int | None = None
    table_number: int | None = None


class Event(SQLModel, table=True):
    """A club evening (matches in any pairing), a round robin (a fixed Berger schedule), a
    Swiss event (``rounds`` rounds, each paired from the standings: :mod:`tally.events.swiss`), a
    knockout with lives or groups then knockout (their format: :class:`EventFormat`);
    ``kind`` is a key of :data:`tally.events.formats.FORMATS`, which checks it.

    Matches of the event are played under ``rules``. ``match_points_per_win`` is what a won
    match earns, ``bye`` what sitting out a round earns (``none``, or ``win``: as much as a
    won match), ``withdrawal`` what becomes of a withdrawn player's unplayed matches
    (``forfeit``: each is a win for the opponent; ``void``: they drop out of the standings).
    ``tiebreaks`` is a comma-separated list of :data:`tally.events.tiebreaks.TIEBREAKS`, in order.
    ``rank_by`` is what the standings rank by before them: ``points`` (match points) or
    ``percentage`` (the match-point percentage, the default of a club evening).
    ``language`` is what its sheets and readable output speak (``de``, ``en``; empty: the
    locale decides, see :mod:`tally.i18n`).
    """

    __tablename__ = "events"
    __table_args__ = (
        CheckConstraint("bye IN ('none', 'win')", name="bye"),
        CheckConstraint("withdrawal IN ('forfeit', 'void')", name="withdrawal"),
        CheckConstraint("matches_per_pairing >= 1", name="matches_per_pairing"),
        CheckConstraint("match_points_per_win >= 0", name="match_points_per_win"),
        CheckConstraint("rank_by IN ('points', 'percentage')", name="rank_by"),
        CheckConstraint("rounds IS NULL OR rounds >= 1", name="rounds"),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100)
    kind: str = Field(max_length=20)
    held_on: date = Field(index=True)
    rules: str = Field(max_length=400)
    double_round: bool = False
    matches_per_pairing: int = 1
    match_points_per_win: float = 1.0
    bye: str = Field(default="none", max_length=10)
    withdrawal: str = Field(default="forfeit", max_length=10)
    tiebreaks: str = Field(max_length=200)
    created_at: datetime
    rank_by: str = Field(
        default="points", max_length=20, sa_column_kwargs={"server_default": "points"}
    )
    #: the rounds a Swiss event plays (None for other kinds)
    rounds: int | None = None
    language: str = Field(default="", max_length=10, sa_column_kwargs={"server_default": ""})
    #: a double round robin plays its first cycle's last two rounds the other way round
    swap_last_rounds: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    #: a Swiss event's accelerated pairings: ``none`` or ``baku``
    #: (:func:`tally.events.swiss.baku_points`)
    acceleration: str = Field(
        default="none", max_length=10, sa_column_kwargs={"server_default": "none"}
    )
    #: what a round not played over the table counts for in the Buchholz tiebreaks:
    #: ``as-scored`` or ``virtual-opponent`` (FIDE C.07; :data:`tally.events.tiebreaks.UNPLAYED`)
    unplayed: str = Field(
        default="as-scored", max_length=20, sa_column_kwargs={"server_default": "as-scored"}
    )
    #: what the seeding list (a Swiss event's initial order, a knockout's or groups' seeds)
    #: follows: ``entry`` (the order of entry) or ``rating`` (the ratings when the first
    #: round is started: :mod:`tally.store.seeding`)
    seed_by: str = Field(
        default="entry", max_length=10, sa_column_kwargs={"server_default": "entry"}
    )
    #: the seeding list is fixed (``seed_by="rating"``: the seeds were renumbered by rating
    #: when the first round was started, and later ratings no longer move them)
    seeded: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    #: what a requested bye (a player's announced absence from a round) scores: ``half``
    #: (half a won match's match points, FIDE's common practice) or ``zero``
    #: (:mod:`tally.store.absences`)
    absence_score: str = Field(
        default="half", max_length=10, sa_column_kwargs={"server_default": "half"}
    )
    #: a Swiss event's floats: ``allow`` (a player may float the same way two rounds
    #: running) or ``avoid`` (a repeated float is avoided where the score differences and
    #: the dealer balance allow: :func:`tally.events.swiss.pair_round`)
    repeated_floats: str = Field(
        default="allow", max_length=10, sa_column_kwargs={"server_default": "allow"}
    )
    #: a Swiss event's limits on requested byes (announced absences): how many a player may
    #: ask for (None: no limit), and none in the last ``no_absence_last`` rounds
    #: (:mod:`tally.store.absences`)
    max_absences: int | None = None
    no_absence_last: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    #: a Swiss event's pairs kept apart: only until round ``apart_until`` (None: every
    #: round), and giving way before they move the bye (``apart_keeps_bye``)
    apart_until: int | None = None
    apart_keeps_bye: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    #: only players checked in at the treasurer's desk are paired (``tally event checkin
    #: --required``: a round is not started while a player still in is not checked in)
    check_in: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    #: a team event's boards: how many players of each team play each team match
    #: (:mod:`tally.events.formats.team`; None for other kinds)
    boards: int | None = None
    #: what a team event ranks its teams by: ``bummerl`` (Bummerl won) or ``match-points``
    #: (2 for a team match won on boards, 1 drawn, 0 lost)
    team_rank: str = Field(
        default="bummerl", max_length=20, sa_column_kwargs={"server_default": "bummerl"}
    )
    #: a race between two teams to this many Bummerl won (the Vergleichsschnapsen; None:
    #: a team round robin)
    first_to: int | None = None


class Team(SQLModel, table=True):
    """A team of the club's players (``tally team add``): ``name_key`` (the name case-folded,
    spaces collapsed) is unique; ``captain_id`` is its captain, one of its members."""

    __tablename__ = "teams"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=NAME_LENGTH)
    name_key: str = Field(max_length=NAME_LENGTH, unique=True)
    captain_id: int | None = Field(default=None, foreign_key="players.id")
    created_at: datetime


class TeamMember(SQLModel, table=True):
    """A player of a team, at ``board`` (from 1: the team's board order)."""

    __tablename__ = "team_members"
    __table_args__ = (UniqueConstraint("team_id", "board"),)

    team_id: int = Field(foreign_key="teams.id", primary_key=True)
    player_id: int = Field(foreign_key="players.id", primary_key=True, index=True)
    board: int


class EventTeam(SQLModel, table=True):
    """A team of a team event, at ``position`` (from 1): its players are the event's entries
    of seeds ``(position - 1) * boards + 1`` to ``position * boards``, board by board;
    ``name`` is the team's name when it was entered."""

    __tablename__ = "event_teams"

    event_id: int = Field(foreign_key="events.id", primary_key=True)
    position: int = Field(primary_key=True)
    team_id: int | None = Field(default=None, foreign_key="teams.id")
    name: str = Field(max_length=NAME_LENGTH)


class EventFormat(SQLModel, table=True):
    """The format of a knockout (``kind="knockout"``) or of groups then knockout
    (``kind="groups"``), one row per such event (:mod:`tally.store.knockouts`): ``lives`` and
    the ``draw_seed`` of the draw by lot, ``final_size`` (the last N players play a straight
    knockout; None: lives to the end), ``groups`` and ``advance`` (how many of each group go
    into the bracket). Once the bracket is seeded, ``bracket_round`` is the event round its
    first round is and ``bracket`` its slots: player numbers, comma-separated, empty for a bye
    (stored, so a later correction to a group match does not reseed a bracket in play).
    ``final_fill`` says how a knockout fills its final stage when a round leaves fewer than
    ``final_size`` players (``playoff``: those out in that round play off for the places
    left, from event round ``playoff_round``; ``tiebreaks``: the best of them by the
    event's standings go through)."""

    __tablename__ = "event_formats"

    event_id: int = Field(foreign_key="events.id", primary_key=True)
    lives: int | None = None
    draw_seed: str | None = Field(default=None, max_length=100)
    final_size: int | None = None
    groups: int | None = None
    advance: int | None = None
    bracket_round: int | None = None
    bracket: str | None = Field(default=None, sa_type=Text)
    final_fill: str = Field(
        default="playoff", max_length=10, sa_column_kwargs={"server_default": "playoff"}
    )
    playoff_round: int | None = None
    #: Preisschnapsen money (cents): the entry fee, the prizes' percentages per place best
    #: first (``"50,30,20"``) and the unit they are rounded down to (tally.events.prizes)
    entry_fee: int | None = None
    prize_shares: str | None = Field(default=None, max_length=200)
    prize_unit: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    #: the prize tables of the players' categories, one line per category
    #: (:func:`tally.events.prizes.parse_category_prizes`)
    category_prizes: str | None = Field(default=None, max_length=2000)
    #: buying back a life ("Nachkauf"): the last round a bought-back player may join (None:
    #: no buy-backs), the fee (cents) and how many times a player may buy back
    buy_back_until: int | None = None
    buy_back_fee: int | None = None
    buy_backs: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    #: a player out may buy back only before the round straight after the one they were out
    #: in (False: before any round up to ``buy_back_until``)
    buy_back_at_once: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    #: the bracket's pairings are played best of this many matches (odd; tally.events.knockout)
    best_of: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


class EventBuyBack(SQLModel, table=True):
    """A life bought back ("Nachkauf") by a player out of a knockout, after round
    ``after_round`` (the last round started then), at ``fee`` cents."""

    __tablename__ = "event_buy_backs"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True)
    player_id: int = Field(foreign_key="players.id")
    after_round: int
    fee: int
    bought_at: datetime


class EventPlayer(SQLModel, table=True):
    """A player of an event: ``seed`` is their number in the schedule (from 1);
    ``withdrawn_at`` is set once they withdraw."""

    __tablename__ = "event_players"
    __table_args__ = (UniqueConstraint("event_id", "seed"),)

    event_id: int = Field(foreign_key="events.id", primary_key=True)
    player_id: int = Field(foreign_key="players.id", primary_key=True, index=True)
    seed: int
    withdrawn_at: datetime | None = None
    #: the rating the player was seeded by (an event seeded by rating, once its seeding is
    #: fixed; None: unrated, seeded after the rated players)
    seed_rating: float | None = None


class EventApart(SQLModel, table=True):
    """Two players of an event to keep apart (same family, same club): the Swiss pairing
    never pairs them while another pairing of the round exists
    (:mod:`tally.store.control`); ``player_a_id`` is the lower id."""

    __tablename__ = "event_apart"
    __table_args__ = (CheckConstraint("player_a_id < player_b_id", name="ordered"),)

    event_id: int = Field(foreign_key="events.id", primary_key=True)
    player_a_id: int = Field(foreign_key="players.id", primary_key=True)
    player_b_id: int = Field(foreign_key="players.id", primary_key=True)


class EventAbsence(SQLModel, table=True):
    """A player's announced absence from round ``round_number`` of an event: the round is
    not paired for them and they get a requested bye, scoring as the event's
    ``absence_score`` says (:mod:`tally.store.absences`)."""

    __tablename__ = "event_absences"

    event_id: int = Field(foreign_key="events.id", primary_key=True)
    player_id: int = Field(foreign_key="players.id", primary_key=True)
    round_number: int = Field(primary_key=True)


class EventNoShow(SQLModel, table=True):
    """A player who did not come to their match in round ``round_number`` of an event (a Swiss
    event or a round robin) and stays in it: the opponent wins that round's match by forfeit
    (``+``/``-``), nobody when both stayed away (``-``/``-``) (:mod:`tally.store.noshows`)."""

    __tablename__ = "event_no_shows"

    event_id: int = Field(foreign_key="events.id", primary_key=True)
    player_id: int = Field(foreign_key="players.id", primary_key=True)
    round_number: int = Field(primary_key=True)


class EventCheckIn(SQLModel, table=True):
    """A player at the treasurer's desk of an event (:mod:`tally.store.treasurer`): whether
    they are here (``present``, checked in at ``checked_in_at``), what they have paid
    (``paid``, cents: the entry fee, buy-backs and extra fees together), the extra fees they
    owe beside the entry fee (``extra``, cents: a meal, a late entry; they go to the club,
    not the pool) and the prize money handed to them (``paid_out``, cents)."""

    __tablename__ = "event_check_ins"

    event_id: int = Field(foreign_key="events.id", primary_key=True)
    player_id: int = Field(foreign_key="players.id", primary_key=True)
    present: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    checked_in_at: datetime | None = None
    paid: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    extra: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    paid_out: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class EventRound(SQLModel, table=True):
    """A round of a round robin whose matches were created; ``bye_player_id`` is who sat out
    and scores the bye (None when nobody does, or the player had withdrawn)."""

    __tablename__ = "event_rounds"

    event_id: int = Field(foreign_key="events.id", primary_key=True)
    number: int = Field(primary_key=True)
    bye_player_id: int | None = Field(default=None, foreign_key="players.id")
    started_at: datetime


class Deal(SQLModel, table=True):
    """One deal of a match: recorded trick by trick, or entered quickly as a result.

    A recorded deal has a ``turn_up``; its actions are :class:`Action` rows. A quick deal has
    the result instead: ``quick_winner_id`` (None for a draw), ``quick_points`` (game points
    without the carry) and ``quick_reason``. ``tags`` is a JSON object of the record's other
    tags (Hands, Remaining, Result, Event...), kept for export.
    """

    __tablename__ = "deals"
    __table_args__ = (
        UniqueConstraint("match_id", "number"),
        CheckConstraint("kind IN ('recorded', 'quick')", name="kind"),
        CheckConstraint("kind = 'quick' OR turn_up IS NOT NULL", name="recorded_turn_up"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    number: int
    kind: str = Field(max_length=10)
    turn_up: str | None = Field(default=None, max_length=3)
    quick_winner_id: int | None = Field(default=None, foreign_key="players.id")
    quick_points: int | None = None
    quick_reason: str | None = Field(default=None, max_length=20)
    tags: str = Field(default="{}", sa_type=Text)
    created_at: datetime


class Action(SQLModel, table=True):
    """One item of a deal record (``KS``, ``swap``, ``close``, ``20 QC``, ``66``, ``66@Anna``)
    on trick line ``trick``; ``seq`` orders the items of a deal from 1."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("deal_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    deal_id: int = Field(foreign_key="deals.id")
    seq: int
    trick: int
    token: str = Field(max_length=80)


class AuditEntry(SQLModel, table=True):
    """A change to the stored data: who made it, with which command, and the state before and
    after as JSON (a map from ``"deal:12"``-style keys to the entity's snapshot, or null where
    it did not exist), so that it can be reversed."""

    __tablename__ = "audit_log"
    __table_args__ = (
        Index("ix_audit_log_entity_entity_id", "entity", "entity_id"),
        Index("ix_audit_log_event_id", "event_id"),
        Index("ix_audit_log_match_id", "match_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    at: datetime
    scorer: str = Field(max_length=100)
    command: str = Field(max_length=40)
    entity: str = Field(max_length=20)
    entity_id: int
    summary: str = Field(sa_type=Text)
    before: str | None = Field(default=None, sa_type=Text)
    after: str | None = Field(default=None, sa_type=Text)
    reversed_by: int | None = Field(default=None, foreign_key="audit_log.id")
    #: the event and the match the change belongs to (None: none, or several), for the lists
    #: of one event's or one match's changes; no foreign key: an entry outlives what it names
    event_id: int | None = None
    match_id: int | None = None
    #: the change in words for a person, as a message template and its values (JSON:
    #: ``{"template": ..., "params": {...}}``, a value may be such a message); None for
    #: entries written before they were kept (their ``summary`` is shown)
    words: str | None = Field(default=None, sa_type=Text)


class DealResultRow(SQLModel, table=True):
    """The cached ruling of one deal, as :func:`tally.engine.match.score_match` derives it: the
    winner (None for a draw or a deal still being played), game points before the carry
    (``deal_points``), the carry it started with, the game points it scored (carry included)
    and the reason. The store rewrites a match's rows in the same transaction as every change
    to its deals; ``store.results.stale`` compares them with a fresh
    derivation."""

    __tablename__ = "deal_results"
    # Standings read only these columns, match by match: the index covers them.
    __table_args__ = (
        Index(
            "ix_deal_results_match_id",
            "match_id",
            "winner_id",
            "deal_points",
            "game_points",
            "reason",
        ),
    )

    deal_id: int = Field(foreign_key="deals.id", primary_key=True)
    match_id: int = Field(foreign_key="matches.id")
    winner_id: int | None = Field(default=None, foreign_key="players.id")
    deal_points: int
    carry_in: int
    game_points: int
    reason: str = Field(max_length=20)


class CacheState(SQLModel, table=True):
    """What each derived cache was built by: ``deal_results`` holds the version of the store
    code that filled it; when that is not the running version the cache is rebuilt from the
    deals before it is read (after an upgrade, or a change to the engine's rulings)."""

    __tablename__ = "cache_state"

    name: str = Field(primary_key=True, max_length=40)
    version: str = Field(max_length=40)


class Proposal(SQLModel, table=True):
    """A result proposed at a table, waiting for the opponent's agreement
    (:mod:`tally.store.proposals`): a deal's result (``kind`` ``deal``: winner, game points,
    reason) or a whole match's (``match``: each player's game points in the match's order).
    ``mark`` is the match as it was when proposed (:func:`tally.store.comparison.match_mark`):
    an agreement after the match changed is refused. ``status``: pending, agreed (``deal_id``
    the deal it stored), withdrawn (by "No", or a newer proposal at the table). Ids are never
    reused, so an agreement names one proposal for ever; no foreign keys, so a match or its
    deals can still be deleted (the proposal is then stale)."""

    __tablename__ = "proposals"
    __table_args__ = (
        CheckConstraint("kind IN ('deal', 'match')", name="kind"),
        CheckConstraint("status IN ('pending', 'agreed', 'withdrawn')", name="status"),
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(index=True)
    kind: str = Field(max_length=10)
    winner_id: int | None = Field(default=None)
    points: int = 0
    reason: str = Field(max_length=20)
    score_a: int = 0
    score_b: int = 0
    mark: str = Field(max_length=40)
    status: str = Field(max_length=12)
    proposed_at: datetime
    decided_at: datetime | None = None
    deal_id: int | None = None


class WebSetting(SQLModel, table=True):
    """A setting of ``tally serve`` (:mod:`tally.web.access`): its signing key, the
    director's PIN (a salted hash), referee mode of a table."""

    __tablename__ = "web_settings"

    name: str = Field(primary_key=True, max_length=60)
    value: str = Field(max_length=400)
    updated_at: datetime


class DirectorSession(SQLModel, table=True):
    """A director's session of ``tally serve`` (:mod:`tally.web.access`): a browser that
    typed the PIN or used the login link. The cookie holds a random token; only its SHA-256
    (``token_hash``) is kept here, so reading the database gives no session. Listed for the
    director (the ``device`` as its browser named itself, cut short; the ``address`` it came
    from; since ``started_at``) and ended one by one (a row deleted), or all by a new PIN."""

    __tablename__ = "director_sessions"

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True)
    device: str = Field(max_length=120)
    address: str = Field(max_length=60)
    started_at: datetime
    expires_at: datetime


class Series(SQLModel, table=True):
    """A series of events (a Grand Prix, a season cup): ``points`` per placing as a
    comma-separated list (``25,18,15``), the ``best`` results of each player counting (None:
    all). ``name_key`` (the name folded, :func:`tally.names.fold`) is unique. Its standings
    are derived from its events' standings each time (:mod:`tally.events.series`), never stored."""

    __tablename__ = "series"
    __table_args__ = (CheckConstraint("best IS NULL OR best >= 1", name="best"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100)
    name_key: str = Field(max_length=100, unique=True)
    points: str = Field(max_length=2000)
    best: int | None = None
    created_at: datetime


class SeriesEvent(SQLModel, table=True):
    """An event of a series, at ``position`` (from 1) in the series' order."""

    __tablename__ = "series_events"
    __table_args__ = (UniqueConstraint("series_id", "position"),)

    series_id: int = Field(foreign_key="series.id", primary_key=True)
    event_id: int = Field(foreign_key="events.id", primary_key=True, index=True)
    position: int


class RecordedTap(SQLModel, table=True):
    """A change sent from a table's phone (or the director's result box), stored once: its
    id, made by the page (``tap``), the match it changed, and where the match stood after it
    (``position``, ``last``: :class:`tally.store.views.Position`), so that a resend is
    answered "already recorded" and the next tap waiting on the phone is checked from there.
    Written in the same transaction as the change; no foreign key, so that deleting a match
    keeps its taps answered."""

    __tablename__ = "recorded_taps"

    tap: str = Field(primary_key=True, max_length=64)
    match_id: int = Field(index=True)
    position: str = Field(max_length=40)
    last: str | None = Field(default=None, max_length=80)
    at: datetime


#: The tables in the order the generated Core module lists them.
MODELS: tuple[type[SQLModel], ...] = (
    Player,
    PlayerAlias,
    PlayerCategory,
    Match,
    Deal,
    Action,
    AuditEntry,
    Event,
    EventPlayer,
    EventRound,
    DealResultRow,
    RecordedTap,
    CacheState,
    WebSetting,
    DirectorSession,
    Series,
    SeriesEvent,
    EventFormat,
    EventBuyBack,
    EventApart,
    EventAbsence,
    EventNoShow,
    EventCheckIn,
    Proposal,
    Team,
    TeamMember,
    EventTeam,
)

_HEADER = '''"""The tables of :mod:`tally.store.models` as light SQLAlchemy Core clauses.

Generated from the models by ``python -m tally.store.models``: do not edit it by hand
(``tests/store/test_schema.py`` fails when it is not what the models generate). Every command
goes through these rather than the SQLModel classes: ``import sqlmodel`` (with pydantic and
the ORM) costs about 0.15 s more than ``import sqlalchemy``.
"""

from __future__ import annotations

'''


def _core_type(sql_type: object) -> str:
    """How the generated module writes a column's type (``UTCDateTime()`` for a moment)."""
    from sqlalchemy import Boolean, Date, DateTime, Float, Integer, String, Text, TypeDecorator

    if isinstance(sql_type, TypeDecorator):  # (SQLModel's AutoString: a String)
        sql_type = sql_type.impl
    for kind in (Text, DateTime, Date, Boolean, Float, Integer, String):
        if isinstance(sql_type, kind):
            return "UTCDateTime()" if kind is DateTime else kind.__name__
    raise TypeError(f"no Core type for {sql_type!r}")


def core_tables_source() -> str:
    """The text of :mod:`tally.store.tables`: each model's table as ``table(...)`` with its
    columns and their types, under the first sentence of the model's docstring."""
    import textwrap

    tables: list[str] = []
    used: set[str] = set()
    for model in MODELS:
        sa_table = model.__table__  # type: ignore[attr-defined]
        doc = " ".join((model.__doc__ or "").split()).split(". ")[0].rstrip(".") + "."
        lines = textwrap.wrap(doc, 97, initial_indent="#: ", subsequent_indent="#: ")
        lines += [f"{sa_table.name} = table(", f'    "{sa_table.name}",']
        for col in sa_table.columns:
            kind = _core_type(col.type)
            used.add(kind.removesuffix("()"))
            lines.append(f'    column("{col.name}", {kind}),')
        tables.append("\n".join([*lines, ")"]))
    imports = ", ".join([*sorted(used - {"UTCDateTime"}), "column", "table"])
    names = ", ".join(m.__table__.name for m in MODELS)  # type: ignore[attr-defined]
    everything = "\n".join(textwrap.wrap(f"ALL = ({names})", 97, subsequent_indent=" " * 7))
    return (
        f"{_HEADER}from sqlalchemy import {imports}\n\n"
        "from tally.store.columns import UTCDateTime\n\n"
        + "\n\n\n".join(tables)
        + f"\n\n\n{everything}\n"
    )


if __name__ == "__main__":
    from pathlib import Path

    Path(__file__).with_name("tables.py").write_text(core_tables_source(), encoding="utf-8")
