"""The store: players, matches and deals recorded trick by trick, with an audit log.

Open one with :func:`open_store`. The :class:`Store` is a hub (as datasette's): it holds the
database's life cycle and transactions, and every operation is reached through one of its
parts, named as a club player would::

    store = open_store("sqlite:///club.db", scorer="Jo")
    store.players.add("Anna"); store.players.add("Bert")
    match = store.matches.start("Anna", "Bert", rules="sixty-six", first_dealer="Anna")
    deal = store.deals.start(match.id, "QH")
    result = store.deals.play(deal.id, "KS AS")  # refused, with the engine's reason, if the
    result.deal.to_move                          # record would be impossible
    store.events.standings("Club night")

======================  =============================================  =================
part                    what it does                                   module
======================  =============================================  =================
``store.players``       add, find, rename, merge players; aliases      ``players``
``store.matches``       start, list, show, delete matches              ``matches``
``store.deals``         record a deal: start, play, undo, results,     ``recording``
                        import, export, edit, delete
``store.audit``         the audit log: write, list, reverse            ``corrections``
``store.results``       the result cache: ensure, rebuild, check       ``derivation``
``store.events``        events, their players, rounds, standings       ``events``
``store.knockouts``     brackets, best-of, play-offs                   ``knockouts``
``store.pairings``      players kept apart, pairings taken back        ``control``
``store.given``         rounds started with the pairings given         ``given``
``store.prizes``        entry fees, prize money, buy-backs             ``prizemoney``
``store.ratings``       the rating table and a player's history        ``ratings``
``store.series``        series of events and their standings           ``series``
``store.timeline``      an event's rounds and withdrawals in order     ``timeline``
``store.consequences``  what a withdrawal, deletion, reversal, new     ``consequences``
                        round or correction would do, before it is done
``store.proposals``     results proposed at a table, agreed by the     ``proposals``
                        opponent
``store.serving``       ``tally serve``'s settings, director sessions  ``serving``
======================  =============================================  =================

Each part is a small class in the module of its concern, made on first use (a one-shot
command imports only the modules it uses). A part works on a
:class:`~tally.store.transactions.Database` (what the hub is beside its parts): inside the
store package a part reaches another by making it (``Results(store).ensure()``), so no
module of the store imports the hub. Every operation is one transaction, unless run inside
:meth:`~tally.store.transactions.Database.transaction`, and returns plain views
(:mod:`tally.store.views`). What a deal is worth, who deals and what is carried are never
stored: each operation rebuilds the records of the match from their actions and asks the
engine (:func:`tally.engine.ruling.rule`, :func:`tally.engine.match.score_match`).

Every change writes an :class:`~tally.store.models.AuditEntry` holding the state before and
after, and ``store.audit.reverse`` puts the state before back.

The result cache (``deal_results``): standings add up thousands of deals, too many to replay
for every table printed, so each deal's ruling is also kept in a row of its own, derived,
never typed: every operation that changes a match's deals rewrites that match's rows in the
same transaction. A cache another version of the engine's rulings filled is rebuilt when the
store is opened (``store.results.ensure()``); ``store.results.stale()`` compares the cache
with a fresh derivation.

Concurrency: on SQLite every write is one ``BEGIN IMMEDIATE`` transaction (see
:mod:`tally.store.engine`); on PostgreSQL a write to a match first locks the match's row
(``SELECT ... FOR UPDATE``), so two scorers appending to one deal take turns, and the unique
(deal, seq) constraint backs that up.
"""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

from tally.store.corrections import Audit
from tally.store.derivation import Results
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
from tally.store.matches import Matches
from tally.store.players import Players, normalize_name
from tally.store.recording import Deals
from tally.store.transactions import Database, TableWriter

if TYPE_CHECKING:
    from tally.store.absences import Absences
    from tally.store.consequences import Consequences
    from tally.store.control import Pairings
    from tally.store.events import Events
    from tally.store.given import GivenRounds
    from tally.store.knockouts import Knockouts
    from tally.store.noshows import NoShows
    from tally.store.prizemoney import Prizes
    from tally.store.proposals import Proposals
    from tally.store.ratings import Ratings
    from tally.store.seeding import Seeding
    from tally.store.series import Series
    from tally.store.serving import Serving
    from tally.store.swapping import Swaps
    from tally.store.teams import Teams
    from tally.store.timeline import Timeline
    from tally.store.treasurer import Treasurer

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
    is filled unless it is up to date (``store.results.ensure()``).

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
            store.results.ensure()
    except BaseException:
        engine.dispose()
        raise
    return store


class Store(Database):
    """tally's database: its life cycle and transactions (:class:`Database`), and its parts,
    through which every operation is reached (``store.players.add("Anna")``)."""

    def __init__(
        self,
        engine: Engine,
        *,
        scorer: str,
        migrated: bool = False,
        table: TableWriter | None = None,
    ) -> None:
        super().__init__(engine, scorer=scorer, table=table)
        #: whether opening the store created or upgraded the schema
        self.migrated = migrated
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

    # --- the parts ----------------------------------------------------------------------------

    @cached_property
    def players(self) -> Players:
        """The players (:class:`~tally.store.players.Players`)."""
        return Players(self)

    @cached_property
    def matches(self) -> Matches:
        """The matches (:class:`~tally.store.matches.Matches`)."""
        return Matches(self)

    @cached_property
    def deals(self) -> Deals:
        """The deals, recorded trick by trick or entered as results
        (:class:`~tally.store.recording.Deals`)."""
        return Deals(self)

    @cached_property
    def audit(self) -> Audit:
        """The audit log (:class:`~tally.store.corrections.Audit`)."""
        return Audit(self)

    @cached_property
    def results(self) -> Results:
        """The result cache (:class:`~tally.store.derivation.Results`)."""
        return Results(self)

    @cached_property
    def teams(self) -> Teams:
        """The club's teams and team events' standings (:class:`~tally.store.teams.Teams`)."""
        from tally.store.teams import Teams

        return Teams(self)

    @cached_property
    def events(self) -> Events:
        """Events and their rounds and standings (:class:`~tally.store.events.Events`)."""
        from tally.store.events import Events

        return Events(self)

    @cached_property
    def knockouts(self) -> Knockouts:
        """Knockouts' brackets (:class:`~tally.store.knockouts.Knockouts`)."""
        from tally.store.knockouts import Knockouts

        return Knockouts(self)

    @cached_property
    def given(self) -> GivenRounds:
        """Rounds started with the pairings given (:class:`~tally.store.given.GivenRounds`)."""
        from tally.store.given import GivenRounds

        return GivenRounds(self)

    @cached_property
    def pairings(self) -> Pairings:
        """Pairings kept apart or taken back (:class:`~tally.store.control.Pairings`)."""
        from tally.store.control import Pairings

        return Pairings(self)

    @cached_property
    def prizes(self) -> Prizes:
        """Entry fees, prize money, buy-backs (:class:`~tally.store.prizemoney.Prizes`)."""
        from tally.store.prizemoney import Prizes

        return Prizes(self)

    @cached_property
    def treasurer(self) -> Treasurer:
        """The treasurer's desk and money sheets (:class:`~tally.store.treasurer.Treasurer`)."""
        from tally.store.treasurer import Treasurer

        return Treasurer(self)

    @cached_property
    def ratings(self) -> Ratings:
        """The players' ratings (:class:`~tally.store.ratings.Ratings`)."""
        from tally.store.ratings import Ratings

        return Ratings(self)

    @cached_property
    def no_shows(self) -> NoShows:
        """No-shows in one round, one-round forfeits (:class:`~tally.store.noshows.NoShows`)."""
        from tally.store.noshows import NoShows

        return NoShows(self)

    @cached_property
    def absences(self) -> Absences:
        """Announced absences, requested byes (:class:`~tally.store.absences.Absences`)."""
        from tally.store.absences import Absences

        return Absences(self)

    @cached_property
    def seeding(self) -> Seeding:
        """Seeding lists fixed by the ratings (:class:`~tally.store.seeding.Seeding`)."""
        from tally.store.seeding import Seeding

        return Seeding(self)

    @cached_property
    def swaps(self) -> Swaps:
        """Players swapped between tables (:class:`~tally.store.swapping.Swaps`)."""
        from tally.store.swapping import Swaps

        return Swaps(self)

    @cached_property
    def series(self) -> Series:
        """Series of events (:class:`~tally.store.series.Series`)."""
        from tally.store.series import Series

        return Series(self)

    @cached_property
    def timeline(self) -> Timeline:
        """An event's rounds and withdrawals in order (:class:`~tally.store.timeline.Timeline`)."""
        from tally.store.timeline import Timeline

        return Timeline(self)

    @cached_property
    def proposals(self) -> Proposals:
        """Results proposed at a table, agreed by the opponent
        (:class:`~tally.store.proposals.Proposals`)."""
        from tally.store.proposals import Proposals

        return Proposals(self)

    @cached_property
    def serving(self) -> Serving:
        """The settings of ``tally serve`` and the director's sessions
        (:class:`~tally.store.serving.Serving`)."""
        from tally.store.serving import Serving

        return Serving(self)

    @cached_property
    def consequences(self) -> Consequences:
        """What a change would do, before it is done
        (:class:`~tally.store.consequences.Consequences`)."""
        from tally.store.consequences import Consequences

        return Consequences(self)
