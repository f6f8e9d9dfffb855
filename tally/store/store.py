"""The store: players, matches and deals recorded trick by trick, with an audit log.

Open one with :func:`open_store`; every method is one transaction and returns plain views
(:mod:`tally.store.views`). What a deal is worth, who deals and what is carried are never
stored: each command rebuilds the records of the match from their actions and asks the engine
(:func:`tally.engine.ruling.rule`, :func:`tally.engine.match.score_match`)::

    store = open_store("sqlite:///club.db", scorer="Jo")
    store.add_player("Anna"); store.add_player("Bert")
    match = store.start_match("Anna", "Bert", rules="sixty-six", first_dealer="Anna")
    deal = store.start_deal(match.id, "QH")
    result = store.play(deal.id, "KS AS")        # refused, with the engine's reason, if the
    result.deal.to_move                          # record would be impossible

Every change writes an :class:`~tally.store.models.AuditEntry` holding the state before and
after, and :meth:`Store.reverse` puts the state before back.

The result cache (``deal_results``): standings add up thousands of deals, too many to replay
for every table printed, so each deal's ruling (winner, game points before and after the
carry, the carry, the reason) is also kept in a row of its own. It is derived, never typed:
every method that changes a match's deals (start, play, undo, quick entry, import, edit,
delete, reversing an audit entry, merging players) rewrites that match's rows from the same
derivation it has just checked, in the same transaction, so the cache can never be seen out of
step with the deals (renaming a player changes no row: the cache names players by number).
The cache is stamped with the version of tally that filled it: right after the migrations
have run (a database upgraded from before the cache existed is filled there, in one
transaction), and before anything reads it, a cache another version filled (whose rulings
may differ) is rebuilt (:meth:`Store.ensure_results`).
:meth:`Store.stale_results` compares the cache with a fresh derivation.

Concurrency: on SQLite every write is one ``BEGIN IMMEDIATE`` transaction (see
:mod:`tally.store.engine`); on PostgreSQL a write to a match first locks the match's row
(``SELECT ... FOR UPDATE``), so two scorers appending to one deal take turns, and the unique
(deal, seq) constraint backs that up.

:class:`Store` is a facade: each method hands over to the module of its concern, as a function
taking the store: :mod:`~tally.store.transactions`, :mod:`~tally.store.players`,
:mod:`~tally.store.matches`, :mod:`~tally.store.recording` (an entry arriving, checked and
stored), :mod:`~tally.store.corrections` (the audit log), over
:mod:`~tally.store.derivation` (a match derived through the engine, its rows, the result
cache). Imports among them run one way:
store -> recording/matches -> players -> corrections -> derivation -> views.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from sqlalchemy.engine import Connection, Engine

from tally.store import corrections, derivation, matches, players, recording, transactions
from tally.store.corrections import Snapshot
from tally.store.engine import (
    check_location,
    describe_url,
    ensure_schema,
    make_engine,
    remove_database_file,
    resolve_url,
    sqlite_file,
    unused,
)
from tally.store.players import normalize_name
from tally.store.transactions import Transaction
from tally.store.views import (
    AuditView,
    DealView,
    MatchSummary,
    MatchView,
    PlayerView,
    PlayResult,
    Position,
)

__all__ = ["Store", "default_scorer", "normalize_name", "open_store"]


def default_scorer() -> str:
    """Who is making changes: ``$TALLY_SCORER``, else the user logged in."""
    name = os.environ.get("TALLY_SCORER")
    if not name:
        import getpass

        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            return "unknown"
    # bytes of another encoding in the environment (surrogate escapes) cannot be stored
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def open_store(
    url: str | None = None, *, scorer: str | None = None, migrate: bool = True, create: bool = True
) -> Store:
    """Open the database at ``url`` (``--db``, ``$TALLY_DB`` or ``tally.db``), creating or
    upgrading its schema with the migrations unless ``migrate`` is False; then the result cache
    is filled unless it is up to date (:meth:`Store.ensure_results`).

    ``create=False`` is for reading only: where there is no database (no SQLite file, or a
    database without tally's tables) :class:`StoreUnavailable` says so, and nothing is
    created. A database of an older revision is still upgraded. A SQLite file created here is
    remembered (``new_file``), so a command that fails can take it away again
    (:meth:`Store.discard_if_unused`).
    """
    resolved = resolve_url(url)
    check_location(resolved, create)
    file = sqlite_file(resolved)
    new_file = file if create and file is not None and not file.exists() else None
    engine = make_engine(resolved, create=create)
    try:
        migrated = ensure_schema(engine, create) if migrate else False
        store = Store(engine, scorer=scorer or default_scorer(), migrated=migrated)
        store.new_file = new_file
        if migrate:
            # A new database is stamped; an upgraded one, or one whose cache an engine with
            # other rulings filled (tally.engine.ruling.RULINGS_VERSION), gets the result cache of
            # the deals it holds before any command reads or writes it (one small query when
            # the cache is up to date).
            store.ensure_results()
    except BaseException:
        engine.dispose()
        raise
    return store


class Store:
    """tally's database. Methods are transactions; they take and return plain values."""

    def __init__(self, engine: Engine, *, scorer: str, migrated: bool = False) -> None:
        self.engine = engine
        self.scorer = scorer
        #: whether opening the store created or upgraded the schema
        self.migrated = migrated
        #: the transaction of :meth:`transaction` in progress, if any
        self._tx: Transaction | None = None
        #: the SQLite file :func:`open_store` created for this store (None: it existed, or
        #: the database is not a SQLite file)
        self.new_file: Path | None = None

    @property
    def where(self) -> str:
        """The database, for messages: a file path, or the URL without its password."""
        return describe_url(self.engine.url.render_as_string(hide_password=False))

    def close(self) -> None:
        """Close the database connections."""
        self.engine.dispose()

    def discard_if_unused(self) -> bool:
        """Close the store and remove the SQLite file :func:`open_store` created for it, when
        nothing was stored in it (every table but the schema's version and the cache's stamp
        empty): a command that failed leaves no new empty database behind. True when removed.
        """
        self.close()
        if self.new_file is None or not unused(self.engine):
            return False
        self.engine.dispose()
        remove_database_file(self.new_file)
        self.new_file = None
        return True

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- transactions -------------------------------------------------------------------------

    def transaction(self, label: str) -> AbstractContextManager[Transaction]:
        """Run several store operations as ONE transaction: all of them are stored, or none.

        Inside the ``with`` block every method (and every function of
        :mod:`tally.store.events`) works on the same connection; nothing is committed until
        the block ends without an exception, and an exception rolls everything back, audit
        entries included. Each audit entry written inside names ``label`` before its own
        command (``"tally load: player add"``)::

            with store.transaction("tally load") as tx:
                store.add_player("Anna")
                create_event(store, "Club night", players=["Anna"])
            tx.audited                    # 2

        Outside such a block every method commits on its own, as before. Transactions do not
        nest: a second ``transaction`` inside the first is refused (a programming error).
        On SQLite the block holds the write lock (``BEGIN IMMEDIATE``) from start to end, so
        keep it short; on PostgreSQL the rows it writes stay invisible to others until it
        ends.
        """
        return transactions.transaction(self, label)

    def writing(self) -> AbstractContextManager[Connection]:
        """A connection to change the database on: committed when the block ends, rolled
        back on an exception. Inside :meth:`transaction` it is that transaction's connection
        (nothing commits before the transaction does). Store modules (events, recording) and
        code built on the store use it with :meth:`audit` for their own changes."""
        return transactions.writing(self)

    def reading(self) -> AbstractContextManager[Connection]:
        """A connection to read a consistent snapshot with (REPEATABLE READ on PostgreSQL,
        read-only on SQLite); inside :meth:`transaction` it sees what the transaction wrote."""
        return transactions.reading(self)

    def add_player(self, name: str) -> PlayerView:
        """Add a player; names are unique ignoring case, spaces and accents, and a new name
        may not be another player's alias."""
        return players.add_player(self, name)

    def players(self) -> list[PlayerView]:
        """Every player, by name, with the number of matches they play in and their
        aliases."""
        return players.players(self)

    def player(self, ref: str) -> PlayerView:
        """One player, found as every command finds one (:mod:`tally.names`), with their
        matches, aliases and events."""
        return players.player(self, ref)

    def player_matches(self, ref: str) -> list[int]:
        """The numbers of the matches a player plays in, oldest first."""
        return players.player_matches(self, ref)

    def add_alias(self, ref: str, alias: str) -> PlayerView:
        """Give a player another name to be found by (``"Jogi"`` for Jürgen Roth); an alias
        is unique and is no player's name. Audited; ``tally audit undo`` takes it back."""
        return players.add_alias(self, ref, alias)

    def remove_alias(self, ref: str, alias: str) -> PlayerView:
        """Take an alias away from a player (audited)."""
        return players.remove_alias(self, ref, alias)

    def rename_player(self, ref: str, new_name: str) -> PlayerView:
        """Rename a player; records that name them (claims, Hands...) follow."""
        return players.rename_player(self, ref, new_name)

    def merge_players(self, keep_ref: str, drop_ref: str) -> PlayerView:
        """Make two entries for one person one: ``drop``'s matches, events, byes and aliases
        move to ``keep``, and ``drop``'s entry is deleted.

        Allowed whenever the two never met in a match. When both are entered in the same
        event, the entries become one: it keeps the better (lower) seed of the two, and it is
        withdrawn only if both were (then at the earlier withdrawal). Refused when both are
        entered in a round robin whose first round has started: its schedule pairs them as
        two players. ``tally audit undo`` separates them again.
        """
        return players.merge_players(self, keep_ref, drop_ref)

    def start_match(
        self,
        player_a: str,
        player_b: str,
        *,
        rules: str | None = None,
        first_dealer: str,
        event: str | int | None = None,
    ) -> MatchView:
        """Start a match; ``rules`` is a preset with optional overrides (``RuleSet.parse``),
        ``sixty-six`` by default.

        With ``event`` (a club evening's number or name) the match counts for that event and
        is played under its rule set (``rules``, if given, must be the same); players not yet
        on the evening's list join it. A round robin's matches come from its schedule
        instead (:func:`tally.store.events.start_round`).
        """
        return matches.start_match(
            self, player_a, player_b, rules=rules, first_dealer=first_dealer, event=event
        )

    def matches(self) -> list[MatchSummary]:
        """Every match, oldest first, with its score."""
        return matches.matches(self)

    def match_state(self, match_id: int, *, referee: bool = False) -> MatchView:
        """A match with every deal's ruling, the score, the carry and who deals next.

        Counted points of a deal still being played are left out unless ``referee``.
        """
        return matches.match_state(self, match_id, referee=referee)

    def delete_match(self, match_id: int) -> MatchView:
        """Delete a match with its deals (a match started by mistake: wrong players, a
        duplicate); returns the match as it was. Audited as one entry, so ``tally audit undo``
        brings the match and every deal back.

        Refused for a match of a round robin: the schedule made it, with its round and table,
        and a round is taken back whole (reverse the entry that started the round while none
        of its matches has a deal) or a player withdrawn; its deals are corrected one by one.
        A club evening's match may be deleted; its players stay on the evening's list.
        """
        return matches.delete_match(self, match_id)

    def deal_id(self, ref: str | int) -> int:
        """The id of a deal given as its id (``"17"``) or as ``"MATCH.NUMBER"`` (``"3.2"``)."""
        return recording.deal_id(self, ref)

    def current_deal(self, match_id: int) -> int:
        """The deal of a match that play is recorded into: its last deal."""
        return recording.current_deal(self, match_id)

    def start_deal(
        self, match_id: int, turn_up: str, *, expect: Position | str | None = None
    ) -> DealView:
        """Start the next deal of a match with its turn-up; the dealer follows the rules.

        ``expect``: where the scorer saw the match (:class:`~tally.store.views.Position`,
        e.g. ``MatchView.position``); refused with :class:`~tally.errors.DealMoved` when
        another scorer has changed it since.
        """
        return recording.start_deal(self, match_id, turn_up, expect=expect)

    def play(
        self,
        deal_id: int,
        tokens: str | Sequence[str],
        *,
        referee: bool = False,
        as_played: bool = False,
        expect: Position | str | None = None,
    ) -> PlayResult:
        """Record actions (``"KS AS"``, ``"20 QC"``, ``"close"``, ``"66"``) in a deal.

        Refused with the engine's reason, storing nothing, when the record would then describe
        no real deal (RULES.md section 11). An action that would prove a violation is refused
        with :class:`~tally.errors.ViolationNotConfirmed` (the rule broken and the ruling it
        would bring) unless ``as_played``: it is stored only once someone confirms it happened
        at the table. ``expect`` is where the scorer saw the deal (``DealView.position``);
        when given, the write is refused with :class:`~tally.errors.DealMoved` if another
        scorer recorded or undid anything since. ``close`` at the lead is a close after the
        draws, ``close-before-draw`` one before them (:func:`place_items`).
        """
        return recording.play(
            self, deal_id, tokens, referee=referee, as_played=as_played, expect=expect
        )

    def preview(
        self, deal_id: int, tokens: str | Sequence[str], *, referee: bool = False
    ) -> PlayResult:
        """What :meth:`play` would do with ``tokens``, storing nothing: the same refusals for
        an impossible record, and the violations it would prove (``new_violations``) and the
        ruling it would bring, for a scorer to confirm before recording."""
        return recording.preview(self, deal_id, tokens, referee=referee)

    def legal_tokens(self, deal_id: int) -> list[str]:
        """What may be typed now in a deal being recorded, as far as the record shows:
        each card, ``swap``, marriage (``20 QC``), ``close``, ``close-before-draw`` and claim
        that the engine would accept without proving a violation. Cards a player holds are
        unknown, so a card listed may still turn out to be a revoke later."""
        return recording.legal_tokens(self, deal_id)

    def undo(
        self, deal_id: int, *, referee: bool = False, expect: Position | str | None = None
    ) -> PlayResult:
        """Remove the last action recorded in a deal (the last deal of its match).

        ``expect`` as for :meth:`play`: refused when the deal moved since the scorer saw it.
        """
        return recording.undo(self, deal_id, referee=referee, expect=expect)

    def quick_result(
        self, match_id: int, *, winner: str | None, points: int, reason: str = "claim"
    ) -> DealView:
        """Enter a deal's result without its record: ``winner`` None for a draw.

        ``points`` are the deal's game points without the carry; they are checked against the
        rule set (:func:`tally.engine.match.check_quick_result`).
        """
        return recording.quick_result(self, match_id, winner=winner, points=points, reason=reason)

    def match_result(
        self, match_id: int, score: str | tuple[int, int], *, winner: str | None = None
    ) -> MatchView:
        """Enter a match's whole result, kept on paper, instead of its deals: ``score`` the
        players' game points in the match's order (``"7:3"`` or ``(7, 3)``); with ``winner``
        (a name as :meth:`quick_result` takes it) the winner's points come first.

        Checked against the rule set (:func:`tally.engine.match.check_match_result`: the winner has
        reached the match target, the loser has not) and refused for a match that has deals
        already. Stored as the match's lines of its players' game points (quick entries with
        the reason :data:`tally.engine.match.MATCH_RESULT`, the loser's first), so the result cache,
        standings, tiebreaks and ratings take it as they take deals; one audit entry, which
        :meth:`reverse` takes back, as :meth:`delete_deal` of either line does.
        """
        return recording.match_result(self, match_id, score, winner=winner)

    def enter_results(self, match_id: int, results: Sequence[tuple[str | None, int, str]]) -> None:
        """Enter results kept on paper, ``(winner, points, reason)`` in order, as an event
        file lists them: a deal's through :meth:`quick_result`, the lines of a match result
        entered whole through :meth:`match_result`."""
        recording.enter_results(self, match_id, results)

    def import_deals(self, match_id: int, sources: Sequence[tuple[str, str]]) -> list[DealView]:
        """Add ``.deal`` records (``(name, text)`` pairs) as the next deals of a match.

        All or nothing: each must fit the match (players, dealer, rules, carry) and have no
        record errors, else nothing is imported.
        """
        return recording.import_deals(self, match_id, sources)

    def export_deal(self, deal_id: int) -> str:
        """A recorded deal as a canonical ``.deal`` record.

        A deal of an event's match carries its context as the loaded examples do: ``Event``
        (the event's name), ``Date`` (the day it is held, ``2026-11-24``) and, for a round
        robin's match, ``Round`` and ``Table``. Tags stored with the deal (an imported
        record's own ``Event``) take precedence.
        """
        return recording.export_deal(self, deal_id)

    def deal_view(self, deal_id: int, *, referee: bool = False) -> DealView:
        """One deal as the score sheet shows it."""
        return recording.deal_view(self, deal_id, referee=referee)

    def edit_deal(self, deal_id: int, text: str) -> DealView | None:
        """Replace a recorded deal's record with ``text`` (a whole ``.deal`` record).

        The record must keep the match's rules, players and dealer and the derived carry,
        have no record errors, and leave the rest of the match valid (later deals keep their
        dealer). Returns None when nothing changed.
        """
        return recording.edit_deal(self, deal_id, text)

    def edit_quick_result(
        self, deal_id: int, *, winner: str | None, points: int, reason: str = "claim"
    ) -> DealView | None:
        """Change a deal entered as a result (its winner, None for a draw, game points and
        reason), checked as :meth:`quick_result` checks a new one; the deals after it are
        rescored. Returns None when nothing changed."""
        return recording.edit_quick_result(
            self, deal_id, winner=winner, points=points, reason=reason
        )

    def delete_deal(self, deal_id: int) -> DealView:
        """Delete the last deal of a match (a deal in the middle would change the ones after
        it: correct it with :meth:`edit_deal` instead). Returns the deal as it was. A line of
        a match result entered whole (:meth:`match_result`) takes the whole result with it."""
        return recording.delete_deal(self, deal_id)

    def ensure_results(self) -> int | None:
        """Fill the result cache unless this version of tally filled it: after an upgrade
        from a database without it, or from a tally whose rulings may differ. Returns the
        number of deals ruled, or None when the cache was up to date (one small query).

        Everything that reads the cache (standings, pairings, cross-tables) calls this first;
        ``tally init`` does too.
        """
        return derivation.ensure_results(self)

    def rebuild_results(self) -> int:
        """Rebuild the whole result cache from the deals, in one transaction; returns the
        number of recording. A match whose deals no longer fit together gets no rows (it counts
        as unfinished) rather than stopping the rebuild."""
        return derivation.rebuild_results(self)

    def stale_results(self) -> list[int]:
        """The deals whose cached result differs from a fresh derivation of the stored deals
        (missing and extra rows included), by id; empty when the cache is right."""
        return derivation.stale_results(self)

    def audit(
        self,
        conn: Connection,
        command: str,
        entity: str,
        entity_id: int,
        summary: str,
        before: dict[str, Snapshot],
        after: dict[str, Snapshot],
    ) -> int:
        """Write one audit entry on ``conn`` (a :meth:`writing` connection) and return its
        id; inside :meth:`transaction` the command is prefixed with the transaction's label.
        ``before`` and ``after`` are snapshots (:func:`snapshot`) that :meth:`reverse` puts back."""
        return corrections.audit(self, conn, command, entity, entity_id, summary, before, after)

    def audit_log(self, *, limit: int | None = None) -> list[AuditView]:
        """The audit log, oldest first (the last ``limit`` entries when given)."""
        return corrections.audit_log(self, limit=limit)

    def reverse(self, audit_id: int) -> AuditView:
        """Put back the state before audit entry ``audit_id``; the reversal is audited too.

        Refused when what the entry changed has changed again since (reverse the later entries
        first), or when the state before no longer fits (a deal number taken since...).
        """
        return corrections.reverse(self, audit_id)
