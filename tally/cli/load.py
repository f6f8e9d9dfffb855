"""``tally load``: load events kept as files, show their standings, print their sheets.

An event folder holds ``event.toml`` and the ``.deal`` records of its matches (the format is in
:mod:`tally.files.loading`; ``examples/`` has three). This is the whole flow of tally in one
command: records through the engine into the database, standings from the database, sheets
from the standings::

    tally load examples/club-evening examples/round-robin examples/swiss --db examples.db \
        --fresh --sheets sheets

All the folders of one command are loaded in one transaction (:func:`tally.files.loading.
load_events`): a refused folder leaves the database as it was. ``--fresh`` builds the new
database in a temporary file beside the target and moves it into place only when the load
has succeeded; it replaces only a file that is a tally database (a SQLite file with tally's
tables) or nothing, says so before it starts, and refuses anything else (a text file, a
folder, a symbolic link, another program's SQLite file) without touching it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import Language, fail, guard, language
from tally.cli.options import LangOption
from tally.cli.printing import PaperOption, PaperSize, write_and_say
from tally.cli.storage import DbOption, ScorerOption, opened
from tally.errors import N_, Message, system_reason

if TYPE_CHECKING:
    from tally.files.loading import Loaded
    from tally.store import Store


@app.command()
@guard
def load(
    folders: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH...",
            help="Event folders, each with an event.toml, or event files "
            "exported as JSON (tally event export).",
        ),
    ],
    fresh: Annotated[
        bool,
        typer.Option(
            "--fresh",
            help="Start from a new, empty SQLite database file: the file named by --db "
            "is replaced once the load succeeds, and only if it is a tally "
            "database (or missing).",
        ),
    ] = False,
    sheets: Annotated[
        Path | None,
        typer.Option(
            "--sheets",
            metavar="DIR",
            file_okay=False,
            help="Also print each event's sheets as PDF into DIR: standings, the pairings of its "
            "last round, a score sheet and a ruling.",
        ),
    ] = None,
    paper: PaperOption = PaperSize.A4,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Load events kept as files into the database and show their standings.

    A PATH is an event folder (event.toml and .deal records) or an event file
    exported as JSON by `tally event export` (docs/event-json.md). Every record
    is checked by the engine on the way in, every quick result against the rule
    set; a round robin's matches are made from its schedule. All the paths are
    loaded in one transaction: if any is refused, nothing is stored. With
    --sheets DIR the standings, pairings, a score sheet and a ruling of each
    event are written there as PDF.
    """
    from tally.store.engine import checkpoint_database_file, remove_database_file, resolve_url

    url = resolve_url(db)
    if sheets is not None:
        sheets.mkdir(parents=True, exist_ok=True)
    if not fresh:
        with opened(db, scorer) as store:
            _say(N_("Database: %(where)s"), lang, where=store.where)
            _load_and_show(store, folders, sheets, paper.value, lang)
        return
    target = _fresh_target(url)
    if target.exists():
        _say(
            N_(
                "--fresh: the tally database %(where)s will be replaced by a new one once the load "
                "succeeds."
            ),
            lang,
            where=target.resolve(),
        )
    building = target.with_name(f".{target.name}.{os.getpid()}.loading")
    remove_database_file(building)
    try:
        with opened(f"sqlite:///{building}", scorer) as store:
            loaded = _load(store, folders)
        checkpoint_database_file(building)
        remove_database_file(target)
        os.replace(building, target)
    finally:
        remove_database_file(building)
    with opened(f"sqlite:///{target}", scorer) as store:
        _say(N_("Database: %(where)s (new)"), lang, where=store.where)
        _show(store, loaded, sheets, paper.value, lang)


def _say(template: str, lang: Language | None, **values: object) -> None:
    """One line of what the load does, in the command's language."""
    from tally.i18n import worded

    typer.echo(worded(Message(template, **values), language(lang)))


def _load(store: Store, folders: list[Path]) -> list[Loaded]:
    from tally.files.importing import load_paths

    return load_paths(store, folders, label="tally load")


def _load_and_show(
    store: Store, folders: list[Path], sheets: Path | None, paper: str, lang: str | None = None
) -> None:
    _show(store, _load(store, folders), sheets, paper, lang)


def _show(
    store: Store, loaded: list[Loaded], sheets: Path | None, paper: str, lang: str | None = None
) -> None:
    """Each loaded event and its standings (after the load has committed), and its sheets,
    in ``--lang``, else the event's language, else the locale's."""
    from tally.cli.standings import show
    from tally.i18n import format_date, use
    from tally.i18n import gettext as _
    from tally.vocabulary import word

    for one in loaded:
        ev = one.event
        with use(language(lang, ev.language)):
            kind = word(ev.format.loaded_name)
            typer.echo(
                "\n"
                + _(
                    'Loaded %(kind)s %(id)s "%(name)s" (%(date)s, %(rules)s): '
                    "%(players)s players, %(matches)s matches, %(recorded)s deals "
                    "recorded trick by trick, %(quick)s kept as results."
                )
                % {
                    "kind": kind,
                    "id": ev.id,
                    "name": ev.name,
                    "date": format_date(ev.date),
                    "rules": ev.rules,
                    "players": len(ev.players),
                    "matches": one.matches,
                    "recorded": one.recorded_deals,
                    "quick": one.quick_deals,
                }
                + "\n"
            )
            show(store.events.standings(ev.id))
            if ev.format.ranks_by_elimination:
                from tally.cli.knockouts import show_elimination

                show_elimination(store.knockouts.view(ev))
            if sheets is not None:
                _print_sheets(store, one, sheets, paper)


#: The refusals of ``--fresh`` (:func:`_fresh_target`): nothing is removed after any of them.
NOT_SQLITE_FILE = N_("--fresh starts a new SQLite file; %(url)s is not one%(advice)s")
DROP_IT = N_(" (drop the database yourself)")
CANNOT_CHECK = N_("--fresh: %(path)s: cannot be checked: %(reason)s; nothing was removed")
A_LINK = N_(
    "--fresh: %(path)s is a symbolic link; tally replaces only a tally database file (remove it "
    "yourself if it should go)"
)
NOT_A_FILE = N_(
    "--fresh: %(path)s is not a regular file; tally replaces only a tally database file"
)
NOT_TALLY = N_(
    "--fresh: %(path)s is not a tally database, so it is not replaced (remove it yourself, or "
    "give another --db)"
)


def _fresh_target(url: str) -> Path:
    """The SQLite file ``--fresh`` may replace: missing, or a tally database (a SQLite file
    with tally's tables). Anything else (a text file, a folder, a symbolic link, another
    program's SQLite file) is refused, and nothing is removed."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == prefix or ":memory:" in url or "?" in url:
        fail(Message(NOT_SQLITE_FILE, url=url, advice=Message(DROP_IT)))
    path = Path(url[len(prefix) :])
    if not path.name:
        fail(Message(NOT_SQLITE_FILE, url=url, advice=""))
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError as exc:
        fail(Message(CANNOT_CHECK, path=path, reason=system_reason(exc)))
    if stat.S_ISLNK(info.st_mode):
        fail(Message(A_LINK, path=path))
    if not stat.S_ISREG(info.st_mode):
        fail(Message(NOT_A_FILE, path=path))
    from tally.store.engine import is_tally_database

    if not is_tally_database(path):
        fail(Message(NOT_TALLY, path=path))
    return path


def _print_sheets(store: Store, loaded: Loaded, folder: Path, paper: str) -> None:
    """An event's standings, the pairings of its last round, the score sheet of its first
    match and the ruling of one recorded deal (one with a violation if there is one)."""
    from tally.sheets.build import (
        deal_ruling_sheet,
        event_standings_sheet,
        match_scoresheet,
        pairings_sheet,
    )
    from tally.sheets.render import (
        render_pairings,
        render_ruling,
        render_scoresheet,
        render_standings,
    )

    ev = loaded.event
    slug = f"event-{ev.id}"
    if ev.format.ranks_by_elimination:
        _print_knockout_sheets(store, loaded, folder, paper)
    else:
        write_and_say(
            render_standings(event_standings_sheet(store, ev.id), paper=paper),
            folder / f"standings-{slug}.pdf",
        )
    if ev.format.has_rounds and ev.rounds_started:
        last = max(ev.rounds_started)
        write_and_say(
            render_pairings(pairings_sheet(store, ev.id, last), paper=paper),
            folder / f"pairings-{slug}-round-{last}.pdf",
        )
    matches = [m for m in store.matches.all() if store.matches.state(m.id).event_id == ev.id]
    if not matches:
        return
    first = matches[0].id
    write_and_say(
        render_scoresheet(match_scoresheet(store, first), paper=paper),
        folder / f"scoresheet-match-{first}.pdf",
    )
    recorded = [
        d
        for m in matches
        for d in store.matches.state(m.id).deals
        if d.kind == "recorded" and d.reason != "incomplete"
    ]
    if recorded:
        chosen = next((d for d in recorded if d.violations), recorded[0])
        write_and_say(
            render_ruling(deal_ruling_sheet(store, chosen.id), paper=paper),
            folder / f"ruling-deal-{chosen.match_id}.{chosen.number}.pdf",
        )


def _print_knockout_sheets(store: Store, loaded: Loaded, folder: Path, paper: str) -> None:
    """A knockout's standings by elimination and, once seeded, its bracket."""
    from tally.sheets.knockout import bracket_sheet, elimination_sheet
    from tally.sheets.render import render_bracket, render_elimination

    ev = loaded.event
    write_and_say(
        render_elimination(elimination_sheet(store, ev.id), paper=paper),
        folder / f"standings-event-{ev.id}.pdf",
    )
    if store.knockouts.view(ev).bracket:
        write_and_say(
            render_bracket(bracket_sheet(store, ev.id), paper=paper),
            folder / f"bracket-event-{ev.id}.pdf",
        )
