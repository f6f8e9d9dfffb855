"""Each format option is described once (tally/events/formats/options.py and the format's own
module): a sixth format made up here with an option of its own gets its command-line option,
its field on the director's form, its place in the store's create and its row of the docs'
table from that one record, touching no other file; and docs/events.md's table is current."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tally.cli.events import with_format_options  # (before the ladder joins the table)
from tally.errors import Refused
from tally.events.formats import FORMATS, every_option
from tally.events.formats.base import EventFormat, Given, Option, Settings
from tally.events.formats.options import docs_table, taking, with_docs_table

DOCS = Path(__file__).resolve().parents[2] / "docs" / "events.md"

# --- a sixth format with an option of its own, defined only here ------------------------------

CLIMB = Option(
    "climb",
    "whole",
    low=1,
    high=9,
    default=2,
    label="Places climbed by a win",
    help="How many places a win climbs the ladder.",
    column="events.climb",
    metavar="N",
    form_value="2",
)


class Ladder(EventFormat):
    kind = "ladder"
    file_names = ("ladder",)
    title = audit_name = loaded_name = standings_name = "ladder"
    summary = "a ladder: a win climbs it"
    options = (CLIMB,)

    def settings(self, given: Given) -> Settings:
        # the store hands the option over by its name: refused here, so no column is needed
        raise Refused(f"a ladder climbs {given.options['climb']} places")


@pytest.fixture
def ladder() -> Iterator[EventFormat]:
    """The ladder in the table of formats for one test."""
    FORMATS["ladder"] = Ladder()
    try:
        yield FORMATS["ladder"]
    finally:
        del FORMATS["ladder"]


def test_a_sixth_formats_option_is_in_the_table_with_its_kind_and_column(
    ladder: EventFormat,
) -> None:
    assert every_option()["climb"] is CLIMB
    assert taking(CLIMB, FORMATS.values()) == ("ladder",)
    assert CLIMB.events_column() == "climb"
    row = next(line for line in docs_table(FORMATS.values()).splitlines() if "`--climb`" in line)
    assert row.startswith("| `--climb` | ladder | whole | 2 | `climb` | `events.climb` |")
    assert "How many places a win climbs the ladder." in row


def test_a_sixth_formats_option_is_a_command_line_option(ladder: EventFormat) -> None:
    import typer

    seen: dict[str, Any] = {}

    def command(name: str, kind: str = "club", points_per_win: float = 1.0, **options: Any) -> None:
        seen.update(options, kind=kind)

    app = typer.Typer()
    app.command()(with_format_options(command))
    runner = CliRunner()
    shown = " ".join(runner.invoke(app, ["--help"]).output.replace("│", " ").split())
    assert "--climb" in shown and "How many places a win climbs the ladder." in shown
    assert "'ladder' (a ladder: a win climbs it)" in shown
    assert runner.invoke(app, ["Ladder night", "--kind", "ladder", "--climb", "3"]).exit_code == 0
    assert seen["kind"] == "ladder" and seen["climb"] == 3 and seen["rounds"] is None
    runner.invoke(app, ["Ladder night", "--kind", "ladder"])
    assert seen["climb"] == 2  # its default


def test_a_sixth_formats_option_is_a_field_of_the_new_event_form(ladder: EventFormat) -> None:
    pytest.importorskip("starlette")
    from tally.web.app import Fields
    from tally.web.director_events import _choices, settings

    choices = _choices()
    assert choices["kind_fields"]["ladder"] == ["climb"]
    assert CLIMB in choices["kind_options"]
    got = settings(Fields({"name": "Ladder night", "kind": "ladder", "climb": "4"}))
    assert got["climb"] == 4 and "rounds" not in got
    assert settings(Fields({"name": "Ladder night", "kind": "ladder", "climb": ""}))["climb"] == 2
    with pytest.raises(Refused) as refused:
        settings(Fields({"name": "Ladder night", "kind": "ladder", "climb": "x"}))
    assert str(refused.value) == 'Places climbed by a win: "x" is not a whole number'


def test_a_sixth_formats_option_reaches_it_through_the_stores_create(
    store: Any, ladder: EventFormat
) -> None:
    store.players.add("Anna")
    with pytest.raises(Refused, match="a ladder climbs 5 places"):
        store.events.create("Ladder night", kind="ladder", players=["Anna"], climb=5)
    with pytest.raises(Refused, match="a ladder climbs 2 places"):
        store.events.create("Ladder night", kind="ladder", players=["Anna"])
    with pytest.raises(TypeError, match="'rungs'"):
        store.events.create("Ladder night", kind="ladder", rungs=5)


class ClimbingLadder(Ladder):
    """The ladder once it makes events: its settings are its option's, kept in its column
    from the table (the store writes every option's column)."""

    def settings(self, given: Given) -> Settings:
        return Settings()


@contextmanager
def climb_column(*stores: Any) -> Iterator[None]:
    """What the ladder's migration would do: the ``events`` table's column ``climb`` (a whole
    number, 2 by default), in the schema ``tally.store.tables`` describes and in ``stores``'
    databases; gone again after the test."""
    from sqlalchemy import Column, Integer

    from tally.store import tables as t

    column = Column("climb", Integer, nullable=False, server_default="2")
    t.events.append_column(column)
    try:
        for s in stores:
            with s.engine.begin() as conn:
                conn.exec_driver_sql(
                    "ALTER TABLE events ADD COLUMN climb INTEGER NOT NULL DEFAULT 2"
                )
        yield
    finally:
        t.events._columns.remove(column)


def test_a_sixth_formats_option_reaches_json_and_the_event_file(store: Any, tmp_path: Path) -> None:
    """A made-up format with an option of its own: its value reaches ``tally event show
    --json`` and the event file, and an event file loaded makes the same event, with nothing
    but the format's module, the table of formats and its migration (here: the column)."""
    from tally.files.exporting import event_json
    from tally.files.importing import load_paths
    from tally.store import as_json, open_store

    FORMATS["ladder"] = ClimbingLadder()
    loaded = open_store(f"sqlite:///{tmp_path / 'loaded.db'}", scorer="tester")
    try:
        with climb_column(store, loaded):
            store.players.add("Anna")
            store.players.add("Bert")
            eid = store.events.create(
                "Ladder night", kind="ladder", players=["Anna", "Bert"], climb=5
            ).id
            assert as_json(store.events.get(eid))["climb"] == 5
            shown = store.events.create("Other night", kind="ladder", players=["Anna"]).id
            assert as_json(store.events.get(shown))["climb"] == 2  # its default
            path = tmp_path / "ladder.json"
            path.write_text(event_json(store, eid), encoding="utf-8")
            assert json.loads(path.read_text(encoding="utf-8"))["options"] == {"climb": 5}
            load_paths(loaded, [path])
            again = loaded.events.get("Ladder night")
            assert again.kind == "ladder" and again.options["climb"] == 5
            assert event_json(loaded, again.id) == event_json(store, eid)
    finally:
        loaded.close()
        del FORMATS["ladder"]


def test_the_options_table_of_the_docs_is_current() -> None:
    page = DOCS.read_text(encoding="utf-8")
    assert page == with_docs_table(page, FORMATS.values()), "run: python -m tally.events.formats"
    assert "| `--best-of` | knockout, groups |" in page


def test_the_new_event_form_has_no_kind_list_of_its_own() -> None:
    templates = Path(__file__).resolve().parents[2] / "templates"
    assert not [p for p in templates.rglob("*.j2") if "data-kinds" in p.read_text("utf-8")]
