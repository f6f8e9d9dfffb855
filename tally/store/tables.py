"""The tables of :mod:`tally.store.models` as light SQLAlchemy Core clauses.

Generated from the models by ``python -m tally.store.models``: do not edit it by hand
(``tests/store/test_schema.py`` fails when it is not what the models generate). Every command
goes through these rather than the SQLModel classes: ``import sqlmodel`` (with pydantic and
the ORM) costs about 0.15 s more than ``import sqlalchemy``.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Date, Float, Integer, String, Text, column, table

from tally.store.columns import UTCDateTime

#: A person who plays; ``name_key`` (the name case-folded and stripped) is unique.
players = table(
    "players",
    column("id", Integer),
    column("name", String),
    column("name_key", String),
    column("created_at", UTCDateTime()),
    column("private", Boolean),
)


#: Another name a player goes by (``tally player alias``); ``alias_key`` (the alias folded: case,
#: spaces and accents, :func:`tally.names.fold`) is unique among aliases.
player_aliases = table(
    "player_aliases",
    column("id", Integer),
    column("player_id", Integer),
    column("alias", String),
    column("alias_key", String),
    column("created_at", UTCDateTime()),
)


#: A category a player belongs to (``tally player category``: women, juniors, club members, the
#: club's own); ``category_key`` (the name folded, :func:`tally.names.fold`) is unique per
#: player.
player_categories = table(
    "player_categories",
    column("id", Integer),
    column("player_id", Integer),
    column("category", String),
    column("category_key", String),
    column("created_at", UTCDateTime()),
)


#: Two players, a rule set (a ``Rules`` tag value) and who dealt the first deal.
matches = table(
    "matches",
    column("id", Integer),
    column("player_a_id", Integer),
    column("player_b_id", Integer),
    column("rules", String),
    column("first_dealer_id", Integer),
    column("created_at", UTCDateTime()),
    column("event_id", Integer),
    column("round_number", Integer),
    column("table_number", Integer),
)


#: One deal of a match: recorded trick by trick, or entered quickly as a result.
deals = table(
    "deals",
    column("id", Integer),
    column("match_id", Integer),
    column("number", Integer),
    column("kind", String),
    column("turn_up", String),
    column("quick_winner_id", Integer),
    column("quick_points", Integer),
    column("quick_reason", String),
    column("tags", Text),
    column("created_at", UTCDateTime()),
)


#: One item of a deal record (``KS``, ``swap``, ``close``, ``20 QC``, ``66``, ``66@Anna``) on
#: trick line ``trick``; ``seq`` orders the items of a deal from 1.
actions = table(
    "actions",
    column("id", Integer),
    column("deal_id", Integer),
    column("seq", Integer),
    column("trick", Integer),
    column("token", String),
)


#: A change to the stored data: who made it, with which command, and the state before and after
#: as JSON (a map from ``"deal:12"``-style keys to the entity's snapshot, or null where it did
#: not exist), so that it can be reversed.
audit_log = table(
    "audit_log",
    column("id", Integer),
    column("at", UTCDateTime()),
    column("scorer", String),
    column("command", String),
    column("entity", String),
    column("entity_id", Integer),
    column("summary", Text),
    column("before", Text),
    column("after", Text),
    column("reversed_by", Integer),
    column("event_id", Integer),
    column("match_id", Integer),
    column("words", Text),
)


#: A club evening (matches in any pairing), a round robin (a fixed Berger schedule), a Swiss
#: event (``rounds`` rounds, each paired from the standings: :mod:`tally.events.swiss`), a
#: knockout with lives or groups then knockout (their format: :class:`EventFormat`); ``kind`` is
#: a key of :data:`tally.events.formats.FORMATS`, which checks it.
events = table(
    "events",
    column("id", Integer),
    column("name", String),
    column("kind", String),
    column("held_on", Date),
    column("rules", String),
    column("double_round", Boolean),
    column("matches_per_pairing", Integer),
    column("match_points_per_win", Float),
    column("bye", String),
    column("withdrawal", String),
    column("tiebreaks", String),
    column("created_at", UTCDateTime()),
    column("rank_by", String),
    column("rounds", Integer),
    column("language", String),
    column("swap_last_rounds", Boolean),
    column("acceleration", String),
    column("unplayed", String),
    column("seed_by", String),
    column("seeded", Boolean),
    column("absence_score", String),
    column("repeated_floats", String),
    column("max_absences", Integer),
    column("no_absence_last", Integer),
    column("apart_until", Integer),
    column("apart_keeps_bye", Boolean),
    column("check_in", Boolean),
    column("boards", Integer),
    column("team_rank", String),
    column("first_to", Integer),
)


#: A player of an event: ``seed`` is their number in the schedule (from 1); ``withdrawn_at`` is
#: set once they withdraw.
event_players = table(
    "event_players",
    column("event_id", Integer),
    column("player_id", Integer),
    column("seed", Integer),
    column("withdrawn_at", UTCDateTime()),
    column("seed_rating", Float),
)


#: A round of a round robin whose matches were created; ``bye_player_id`` is who sat out and
#: scores the bye (None when nobody does, or the player had withdrawn).
event_rounds = table(
    "event_rounds",
    column("event_id", Integer),
    column("number", Integer),
    column("bye_player_id", Integer),
    column("started_at", UTCDateTime()),
)


#: The cached ruling of one deal, as :func:`tally.engine.match.score_match` derives it: the
#: winner (None for a draw or a deal still being played), game points before the carry
#: (``deal_points``), the carry it started with, the game points it scored (carry included) and
#: the reason.
deal_results = table(
    "deal_results",
    column("deal_id", Integer),
    column("match_id", Integer),
    column("winner_id", Integer),
    column("deal_points", Integer),
    column("carry_in", Integer),
    column("game_points", Integer),
    column("reason", String),
)


#: A change sent from a table's phone (or the director's result box), stored once: its id, made
#: by the page (``tap``), the match it changed, and where the match stood after it (``position``,
#: ``last``: :class:`tally.store.views.Position`), so that a resend is answered "already
#: recorded" and the next tap waiting on the phone is checked from there.
recorded_taps = table(
    "recorded_taps",
    column("tap", String),
    column("match_id", Integer),
    column("position", String),
    column("last", String),
    column("at", UTCDateTime()),
)


#: What each derived cache was built by: ``deal_results`` holds the version of the store code
#: that filled it; when that is not the running version the cache is rebuilt from the deals
#: before it is read (after an upgrade, or a change to the engine's rulings).
cache_state = table(
    "cache_state",
    column("name", String),
    column("version", String),
)


#: A setting of ``tally serve`` (:mod:`tally.web.access`): its signing key, the director's PIN (a
#: salted hash), referee mode of a table.
web_settings = table(
    "web_settings",
    column("name", String),
    column("value", String),
    column("updated_at", UTCDateTime()),
)


#: A director's session of ``tally serve`` (:mod:`tally.web.access`): a browser that typed the
#: PIN or used the login link.
director_sessions = table(
    "director_sessions",
    column("id", Integer),
    column("token_hash", String),
    column("device", String),
    column("address", String),
    column("started_at", UTCDateTime()),
    column("expires_at", UTCDateTime()),
)


#: A series of events (a Grand Prix, a season cup): ``points`` per placing as a comma-separated
#: list (``25,18,15``), the ``best`` results of each player counting (None: all).
series = table(
    "series",
    column("id", Integer),
    column("name", String),
    column("name_key", String),
    column("points", String),
    column("best", Integer),
    column("created_at", UTCDateTime()),
)


#: An event of a series, at ``position`` (from 1) in the series' order.
series_events = table(
    "series_events",
    column("series_id", Integer),
    column("event_id", Integer),
    column("position", Integer),
)


#: The format of a knockout (``kind="knockout"``) or of groups then knockout (``kind="groups"``),
#: one row per such event (:mod:`tally.store.knockouts`): ``lives`` and the ``draw_seed`` of the
#: draw by lot, ``final_size`` (the last N players play a straight knockout; None: lives to the
#: end), ``groups`` and ``advance`` (how many of each group go into the bracket).
event_formats = table(
    "event_formats",
    column("event_id", Integer),
    column("lives", Integer),
    column("draw_seed", String),
    column("final_size", Integer),
    column("groups", Integer),
    column("advance", Integer),
    column("bracket_round", Integer),
    column("bracket", Text),
    column("final_fill", String),
    column("playoff_round", Integer),
    column("entry_fee", Integer),
    column("prize_shares", String),
    column("prize_unit", Integer),
    column("category_prizes", String),
    column("buy_back_until", Integer),
    column("buy_back_fee", Integer),
    column("buy_backs", Integer),
    column("buy_back_at_once", Boolean),
    column("best_of", Integer),
)


#: A life bought back ("Nachkauf") by a player out of a knockout, after round ``after_round``
#: (the last round started then), at ``fee`` cents.
event_buy_backs = table(
    "event_buy_backs",
    column("id", Integer),
    column("event_id", Integer),
    column("player_id", Integer),
    column("after_round", Integer),
    column("fee", Integer),
    column("bought_at", UTCDateTime()),
)


#: Two players of an event to keep apart (same family, same club): the Swiss pairing never pairs
#: them while another pairing of the round exists (:mod:`tally.store.control`); ``player_a_id``
#: is the lower id.
event_apart = table(
    "event_apart",
    column("event_id", Integer),
    column("player_a_id", Integer),
    column("player_b_id", Integer),
)


#: A player's announced absence from round ``round_number`` of an event: the round is not paired
#: for them and they get a requested bye, scoring as the event's ``absence_score`` says
#: (:mod:`tally.store.absences`).
event_absences = table(
    "event_absences",
    column("event_id", Integer),
    column("player_id", Integer),
    column("round_number", Integer),
)


#: A player who did not come to their match in round ``round_number`` of an event (a Swiss event
#: or a round robin) and stays in it: the opponent wins that round's match by forfeit
#: (``+``/``-``), nobody when both stayed away (``-``/``-``) (:mod:`tally.store.noshows`).
event_no_shows = table(
    "event_no_shows",
    column("event_id", Integer),
    column("player_id", Integer),
    column("round_number", Integer),
)


#: A player at the treasurer's desk of an event (:mod:`tally.store.treasurer`): whether they are
#: here (``present``, checked in at ``checked_in_at``), what they have paid (``paid``, cents: the
#: entry fee, buy-backs and extra fees together), the extra fees they owe beside the entry fee
#: (``extra``, cents: a meal, a late entry; they go to the club, not the pool) and the prize
#: money handed to them (``paid_out``, cents).
event_check_ins = table(
    "event_check_ins",
    column("event_id", Integer),
    column("player_id", Integer),
    column("present", Boolean),
    column("checked_in_at", UTCDateTime()),
    column("paid", Integer),
    column("extra", Integer),
    column("paid_out", Integer),
)


#: A result proposed at a table, waiting for the opponent's agreement
#: (:mod:`tally.store.proposals`): a deal's result (``kind`` ``deal``: winner, game points,
#: reason) or a whole match's (``match``: each player's game points in the match's order).
proposals = table(
    "proposals",
    column("id", Integer),
    column("match_id", Integer),
    column("kind", String),
    column("winner_id", Integer),
    column("points", Integer),
    column("reason", String),
    column("score_a", Integer),
    column("score_b", Integer),
    column("mark", String),
    column("status", String),
    column("proposed_at", UTCDateTime()),
    column("decided_at", UTCDateTime()),
    column("deal_id", Integer),
)


#: A team of the club's players (``tally team add``): ``name_key`` (the name case-folded, spaces
#: collapsed) is unique; ``captain_id`` is its captain, one of its members.
teams = table(
    "teams",
    column("id", Integer),
    column("name", String),
    column("name_key", String),
    column("captain_id", Integer),
    column("created_at", UTCDateTime()),
)


#: A player of a team, at ``board`` (from 1: the team's board order).
team_members = table(
    "team_members",
    column("team_id", Integer),
    column("player_id", Integer),
    column("board", Integer),
)


#: A team of a team event, at ``position`` (from 1): its players are the event's entries of seeds
#: ``(position - 1) * boards + 1`` to ``position * boards``, board by board; ``name`` is the
#: team's name when it was entered.
event_teams = table(
    "event_teams",
    column("event_id", Integer),
    column("position", Integer),
    column("team_id", Integer),
    column("name", String),
)


ALL = (players, player_aliases, player_categories, matches, deals, actions, audit_log, events,
       event_players, event_rounds, deal_results, recorded_taps, cache_state, web_settings,
       director_sessions, series, series_events, event_formats, event_buy_backs, event_apart,
       event_absences, event_no_shows, event_check_ins, proposals, teams, team_members,
       event_teams)
