"""``tally load``: load events kept as files, show their standings, print their sheets.

An event folder holds ``event.toml`` and the ``.deal`` records of its matches (the format is in
:mod:`tally.store.loading`; ``examples/`` has two). This is the whole flow of tally in one
command: records through the engine into the database, standings from the database, sheets
from the standings::

    tally load examples/club-evening examples/round-robin --db examples.db --fresh --sheets sheets
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import fail, guard
from tally.cli.printing import PaperOption, PaperSize, _written
from tally.cli.storage import DbOption, ScorerOption, opened

if TYPE_CHECKING:
    from tally.store import Store
    from tally.store.loading import Loaded


@app.command()
@guard
def load(
    folders: Annotated[list[Path], typer.Argument(
        metavar="FOLDER...", help="Event folders, each with an event.toml.",
        exists=True, file_okay=False)],
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Start from a new, empty SQLite database file (the old file is "
                        "removed).")] = False,
    sheets: Annotated[Path | None, typer.Option(
        "--sheets", metavar="DIR", file_okay=False,
        help="Also print each event's sheets as PDF into DIR: standings, the pairings of its "
             "last round, a score sheet and a ruling.")] = None,
    paper: PaperOption = PaperSize.A4,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Load events kept as files into the database and show their standings.

    Every record is checked by the engine on the way in, every quick result
    against the rule set; a round robin's matches are made from its schedule.
    With --sheets DIR the standings, pairings, a score sheet and a ruling of
    each event are written there as PDF.
    """
    from tally.cli.standings import show
    from tally.store.engine import resolve_url
    from tally.store.events import standings
    from tally.store.loading import load_event

    if fresh:
        _remove_sqlite_file(resolve_url(db))
    if sheets is not None:
        sheets.mkdir(parents=True, exist_ok=True)
    with opened(db, scorer) as store:
        typer.echo(f"Database: {store.where}")
        for folder in folders:
            loaded = load_event(store, folder)
            ev = loaded.event
            kind = "club evening" if ev.kind == "club" else "round robin"
            typer.echo(f'\nLoaded {kind} {ev.id} "{ev.name}" ({ev.date}, {ev.rules}): '
                       f"{len(ev.players)} players, {loaded.matches} matches, "
                       f"{loaded.recorded_deals} deals recorded trick by trick, "
                       f"{loaded.quick_deals} kept as results.\n")
            show(standings(store, ev.id))
            if sheets is not None:
                _print_sheets(store, loaded, sheets, paper.value)


def _remove_sqlite_file(url: str) -> None:
    """Remove the SQLite file of ``url`` (and its WAL files) for a fresh start."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == prefix or ":memory:" in url:
        fail(f"--fresh starts a new SQLite file; {url} is not one (drop the database yourself)")
    path = Path(url[len(prefix):])
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def _print_sheets(store: Store, loaded: Loaded, folder: Path, paper: str) -> None:
    """An event's standings, the pairings of its last round, the score sheet of its first
    match and the ruling of one recorded deal (one with a violation if there is one)."""
    from tally.printing import render_pairings, render_ruling, render_scoresheet, render_standings
    from tally.store.sheetdata import (
        deal_ruling_sheet,
        event_standings_sheet,
        match_scoresheet,
        pairings_sheet,
    )

    ev = loaded.event
    slug = f"event-{ev.id}"
    _written(render_standings(event_standings_sheet(store, ev.id), paper=paper),
             folder / f"standings-{slug}.pdf")
    if ev.kind == "round-robin" and ev.rounds_started:
        last = max(ev.rounds_started)
        _written(render_pairings(pairings_sheet(store, ev.id, last), paper=paper),
                 folder / f"pairings-{slug}-round-{last}.pdf")
    matches = [m for m in store.matches() if store.match_state(m.id).event_id == ev.id]
    if not matches:
        return
    first = matches[0].id
    _written(render_scoresheet(match_scoresheet(store, first), paper=paper),
             folder / f"scoresheet-match-{first}.pdf")
    recorded = [d for m in matches for d in store.match_state(m.id).deals
                if d.kind == "recorded" and d.reason != "incomplete"]
    if recorded:
        chosen = next((d for d in recorded if d.violations), recorded[0])
        _written(render_ruling(deal_ruling_sheet(store, chosen.id), paper=paper),
                 folder / f"ruling-deal-{chosen.match_id}.{chosen.number}.pdf")
