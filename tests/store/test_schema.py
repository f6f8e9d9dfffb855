"""The database schema: created by the Alembic migrations, upgraded with data in it, matching
the SQLModel models; SQLite connections set up for safe concurrent use; light imports."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, inspect, text
from sqlalchemy.exc import IntegrityError

from tally.errors import TallyError
from tally.store import open_store
from tally.store.engine import (
    alembic_config,
    current_revisions,
    head_revisions,
    make_engine,
    resolve_url,
    revisions,
    upgrade,
)
from tests.store_support import ROOT, dump

#: every database here is made by the real migrations (elsewhere a copy of their schema)
pytestmark = pytest.mark.migrations


def first_revision() -> str:
    """The revision every other one builds on (0001)."""
    return next(rev for rev, parents in revisions().items() if not parents)


def test_the_revision_files_give_the_same_head_as_alembic() -> None:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    assert head_revisions() == set(script.get_heads())
    assert first_revision() == "0001"


def test_a_new_database_is_created_by_the_migrations(db_url: str) -> None:
    store = open_store(db_url)
    try:
        assert store.migrated
        with store.engine.connect() as conn:
            assert current_revisions(conn) == head_revisions()
    finally:
        store.close()
    again = open_store(db_url)
    assert not again.migrated  # already at the head: nothing to do
    again.close()


def test_the_migrated_schema_matches_the_models(db_url: str) -> None:
    """What `alembic check` does: autogenerate finds nothing to add, drop or alter."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    import tally.store.models  # noqa: F401

    open_store(db_url).close()
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(ctx, SQLModel.metadata) == []
    finally:
        engine.dispose()


def test_the_query_tables_are_generated_from_the_models() -> None:
    """tables.py (light Core clauses for queries) is what ``python -m tally.store.models``
    generates from the models, the schema's one source; and each of its columns has the
    model's SQL type on both databases."""
    from sqlalchemy.dialects import postgresql, sqlite
    from sqlmodel import SQLModel

    from tally.store import tables
    from tally.store.models import core_tables_source

    generated = Path(tables.__file__).read_text(encoding="utf-8")
    assert generated == core_tables_source(), "run: python -m tally.store.models"

    def sql_type(t: Any, dialect: Any) -> str:
        return str(t.compile(dialect=dialect)).split("(")[0]

    assert sorted(t.name for t in tables.ALL) == sorted(SQLModel.metadata.tables)
    for table in tables.ALL:
        model = SQLModel.metadata.tables[table.name]
        assert [c.name for c in table.columns] == [c.name for c in model.columns], table.name
        for col in table.columns:
            for dialect in (sqlite.dialect(), postgresql.dialect()):
                assert sql_type(col.type, dialect) == sql_type(
                    model.columns[col.name].type, dialect
                ), f"{table.name}.{col.name}"


def _insert_at_first_revision(conn: Any) -> None:
    """Rows as the first revision's tables hold them: two players, a match with a finished
    deal (Anna, the dealer, claims 66) and a quick deal won by Bert, and an audit entry."""
    at = datetime(2026, 11, 1, 19, 30, tzinfo=UTC)
    conn.execute(
        text(
            "INSERT INTO players (id, name, name_key, created_at) VALUES "
            "(1, 'Anna', 'anna', :at), (2, 'Bert', 'bert', :at)"
        ),
        {"at": at},
    )
    conn.execute(
        text(
            "INSERT INTO matches (id, player_a_id, player_b_id, rules, "
            "first_dealer_id, created_at, event_id) VALUES "
            "(1, 1, 2, 'sixty-six', 1, :at, NULL)"
        ),
        {"at": at},
    )
    conn.execute(
        text(
            "INSERT INTO deals (id, match_id, number, kind, turn_up, tags, "
            "created_at) VALUES (1, 1, 1, 'recorded', 'AH', '{}', :at)"
        ),
        {"at": at},
    )
    conn.execute(
        text(
            "INSERT INTO deals (id, match_id, number, kind, quick_winner_id, "
            "quick_points, quick_reason, tags, created_at) VALUES "
            "(2, 1, 2, 'quick', 2, 2, 'claim', '{}', :at)"
        ),
        {"at": at},
    )
    for seq, (trick, token) in enumerate(
        [(1, "QD"), (1, "10H"), (2, "AS"), (2, "QS"), (3, "40 KH"), (3, "66")], start=1
    ):
        conn.execute(
            text("INSERT INTO actions (deal_id, seq, trick, token) VALUES (1, :s, :t, :k)"),
            {"s": seq, "t": trick, "k": token},
        )
    conn.execute(
        text(
            "INSERT INTO audit_log (at, scorer, command, entity, entity_id, summary, "
            "before, after) VALUES (:at, 'jo', 'deal import', 'deal', 1, 'imported', "
            "'{}', '{}')"
        ),
        {"at": at},
    )


def test_upgrading_from_the_first_revision_keeps_the_data(db_url: str) -> None:
    """Data written at the first revision is all there, and reads the same, after upgrading
    to the newest revision (whatever later migrations add)."""
    engine = make_engine(db_url)
    try:
        upgrade(engine, first_revision())
        with engine.begin() as conn:
            _insert_at_first_revision(conn)
        before = dump(db_url)
        upgrade(engine, "head")
        with engine.connect() as conn:
            assert current_revisions(conn) == head_revisions()
    finally:
        engine.dispose()
    after = dump(db_url)
    for table in ("players", "matches", "deals", "actions", "audit_log"):
        # every row is still there; later revisions may only add columns at the end
        assert [row[: len(before[table][0])] for row in after[table]] == before[table], table
    # The migration leaves the result cache empty, marked as filled by no version; the store
    # fills it with the deals already stored when it is opened (here, with the migrations run
    # on their own, by open_store below).
    assert after["deal_results"] == [] and after["cache_state"] == [("deal_results", "")]
    with open_store(db_url) as store:
        m = store.matches.state(1)
        assert m.players == ("Anna", "Bert")
        assert [(d.winner, d.reason, d.game_points) for d in m.deals] == [
            ("Anna", "claim", 3),
            ("Bert", "claim", 2),
        ]
        assert m.score == {"Anna": 3, "Bert": 2}
        assert "3. 40 KH 66" in store.deals.export(1)
        assert store.audit.log()[0].scorer == "jo"
        assert store.results.stale() == [] and store.results.ensure() is None
    # deal, match, winner, points before the carry, carry, game points, reason
    assert sorted(dump(db_url)["deal_results"]) == [
        (1, 1, 1, 3, 0, 3, "claim"),
        (2, 1, 2, 2, 0, 2, "claim"),
    ]


def test_opening_a_first_revision_database_upgrades_it_and_rules_its_deals(db_url: str) -> None:
    """What a user sees: the first command on an old database migrates it and fills the
    result cache in the same process, so standings can be summed at once."""
    engine = make_engine(db_url)
    try:
        upgrade(engine, first_revision())
        with engine.begin() as conn:
            _insert_at_first_revision(conn)
    finally:
        engine.dispose()
    with open_store(db_url) as store:
        assert store.migrated
        assert store.results.stale() == [] and store.results.ensure() is None
    assert sorted(dump(db_url)["deal_results"]) == [
        (1, 1, 1, 3, 0, 3, "claim"),
        (2, 1, 2, 2, 0, 2, "claim"),
    ]


def test_downgrading_to_nothing_and_back(db_url: str) -> None:
    from alembic import command

    engine = make_engine(db_url)
    try:
        upgrade(engine)
        with engine.connect() as conn:
            command.downgrade(alembic_config(connection=conn), "base")
        with engine.connect() as conn:
            assert set(inspect(conn).get_table_names()) <= {"alembic_version"}
        upgrade(engine)
        with engine.connect() as conn:
            assert current_revisions(conn) == head_revisions()
    finally:
        engine.dispose()


def test_a_database_from_a_newer_tally_is_refused(db_url: str) -> None:
    open_store(db_url).close()
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(TallyError, match="9999"):
        open_store(db_url)


def test_sqlite_connections_use_wal_foreign_keys_a_busy_timeout_and_begin_immediate(
    tmp_path: Any,
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    store = open_store(url)
    issued: list[str] = []
    event.listen(
        store.engine, "before_cursor_execute", lambda conn, cur, stmt, *a: issued.append(stmt)
    )
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
        store.players.add("Anna")
        assert "BEGIN IMMEDIATE" in issued
    finally:
        store.close()


def test_the_default_database_is_tally_db_in_the_current_directory(monkeypatch: Any) -> None:
    monkeypatch.delenv("TALLY_DB", raising=False)
    assert resolve_url() == "sqlite:///tally.db"
    monkeypatch.setenv("TALLY_DB", "postgresql+psycopg://u@h/db")
    assert resolve_url() == "postgresql+psycopg://u@h/db"
    assert resolve_url("club.db") == "sqlite:///club.db"


# a real process; in the inner loop: tests/test_import_structure.py's
# test_the_command_line_starts_without_the_database_renderer_or_pdf_libraries
@pytest.mark.slow
def test_the_command_line_does_not_import_the_database_libraries() -> None:
    code = (
        "import sys, json, tally.cli; "
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('sqlalchemy', 'sqlmodel', 'alembic'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert json.loads(out) == []


def test_the_ranking_column_keeps_each_stored_event_fair(db_url: str) -> None:
    """Revision 0007 adds events.rank_by: a club evening stored before it ranks by the
    match-point percentage from then on (issue 11), a round robin by match points."""
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0004")
        now = datetime(2026, 11, 19, tzinfo=UTC)
        with engine.begin() as conn:
            for eid, kind in ((1, "club"), (2, "round-robin")):
                conn.execute(
                    text(
                        "INSERT INTO events (id, name, kind, held_on, rules, double_round, "
                        "matches_per_pairing, match_points_per_win, bye, withdrawal, tiebreaks, "
                        "created_at) VALUES (:id, :name, :kind, '2026-11-19', 'sixty-six', false, "
                        "1, 1.0, 'none', 'forfeit', 'wins', :now)"
                    ),
                    {"id": eid, "name": f"Event {eid}", "kind": kind, "now": now},
                )
        upgrade(engine, "head")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT id, rank_by FROM events ORDER BY id")).all() == [
                (1, "percentage"),
                (2, "points"),
            ]
        with pytest.raises(IntegrityError, match=r"(?i)check"), engine.begin() as conn:
            conn.execute(text("UPDATE events SET rank_by = 'luck' WHERE id = 1"))
    finally:
        engine.dispose()


def test_a_deleted_matchs_number_is_never_given_again_after_the_upgrade(db_url: str) -> None:
    """Revision 0023: the numbers of matches deleted before the upgrade (the highest stored,
    one the audit log names, one a table setting names) are not given to a new match, and
    the table settings of matches no longer stored are dropped (issue 32: a table's address
    is made from its match's number)."""
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0022")
        with engine.begin() as conn:
            _insert_at_first_revision(conn)
            conn.execute(
                text(
                    "INSERT INTO matches (id, player_a_id, player_b_id, rules, first_dealer_id, "
                    "created_at) VALUES (2, 1, 2, 'sixty-six', 1, :at)"
                ),
                {"at": datetime(2026, 11, 1, tzinfo=UTC)},
            )
            conn.execute(text("DELETE FROM matches WHERE id = 2"))  # SQLite would give 2 again
            conn.execute(
                text(
                    "INSERT INTO audit_log (at, scorer, command, entity, entity_id, summary, "
                    "before, after) VALUES (:at, 'jo', 'event round', 'event', 1, 'x', "
                    """'{"match:6": null}', '{"match:6": {"id": 6}}')"""
                ),
                {"at": datetime(2026, 11, 1, tzinfo=UTC)},
            )
            for name in ("referee:1", "reopened:9"):
                conn.execute(
                    text(
                        "INSERT INTO web_settings (name, value, updated_at) VALUES (:n, '1', :at)"
                    ),
                    {"n": name, "at": datetime(2026, 11, 1, tzinfo=UTC)},
                )
        upgrade(engine, "head")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT name FROM web_settings")).scalars().all() == [
                "referee:1"
            ]
    finally:
        engine.dispose()
    with open_store(db_url) as store:
        made = store.matches.start("Anna", "Bert", first_dealer="Anna")
        assert made.id == 10
        store.matches.delete(made.id)
        assert store.matches.start("Anna", "Bert", first_dealer="Anna").id == 11
