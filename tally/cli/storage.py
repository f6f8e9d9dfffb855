"""``tally init`` and ``tally audit``, and what every database command shares: the ``--db`` and
``--scorer`` options and opening the store (the lines that print scores and rulings are in
:mod:`tally.cli.lines`).

The store (SQLAlchemy) is imported inside the commands, never at module level, so ``tally
--help`` and ``tally check`` do not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app, opening
from tally.cli.common import echo_json, guard, hide_secrets_of
from tally.cli.options import LangOption

if TYPE_CHECKING:
    from tally.store import Store

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Database: a SQLAlchemy URL (postgresql+psycopg://...) or a SQLite file. "
        "Default: $TALLY_DB, else tally.db in the current directory.",
    ),
]
ScorerOption = Annotated[
    str | None,
    typer.Option(
        "--scorer",
        help="Who makes the change, for the audit log (default: $TALLY_SCORER or the "
        "user logged in).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]


@contextmanager
def opened(db: str | None, scorer: str | None = None, *, create: bool = True) -> Iterator[Store]:
    """The store at ``db`` (``--db``, ``$TALLY_DB`` or ``tally.db``), closed afterwards.

    A command that writes creates and migrates the database on first use; one that only
    reads passes ``create=False`` (:func:`reading`) and is refused where there is no database
    (a SQLite file that does not exist, a database without tally's tables) rather than
    leaving an empty ``tally.db`` behind; a command that fails on a database this call created
    takes it away again while nothing is stored in it. The password of the URL is kept out of every
    message (:func:`tally.cli.common.hide_secrets_of`).
    """
    import os

    hide_secrets_of(db if db is not None else os.environ.get("TALLY_DB"))
    with opening():  # SQLAlchemy imported, the database opened: still start-up
        from tally.store import open_store

        store = open_store(db, scorer=scorer, create=create)
    try:
        yield store
    except BaseException as exc:
        if getattr(exc, "exit_code", getattr(exc, "code", 1)) != 0:
            store.discard_if_unused()  # a failed first write leaves no empty database
        raise
    finally:
        store.close()


def reading(db: str | None) -> AbstractContextManager[Store]:
    """The store at ``db`` for a command that only reads: never creates a database."""
    return opened(db, create=False)


@app.command()
@guard
def init(db: DbOption = None, lang: LangOption = None) -> None:
    """Create the database (or bring it up to date) and say where it is; fill the cache of
    deal results that standings are summed from, if this version of tally has not."""
    from tally.cli.common import language
    from tally.i18n import gettext as _
    from tally.i18n import ngettext, use

    with opened(db) as store, use(language(lang)):
        typer.echo(
            (_("Created %(where)s") if store.migrated else _("Already up to date: %(where)s"))
            % {"where": store.where}
        )
        filled = store.results.ensure()
        if filled:
            typer.echo(
                ngettext(
                    "Ruled %(n)s deal into the result cache.",
                    "Ruled %(n)s deals into the result cache.",
                    filled,
                )
                % {"n": filled}
            )


audit_app = typer.Typer(
    help="The log of every change, and undoing a change.", invoke_without_command=True
)
app.add_typer(audit_app, name="audit")


@audit_app.callback()
@guard
def audit(
    ctx: typer.Context,
    limit: Annotated[int | None, typer.Option(help="Show only the last N entries.")] = None,
    event: Annotated[
        str | None, typer.Option(help="Only the changes of this event (its number or name).")
    ] = None,
    match: Annotated[int | None, typer.Option(help="Only the changes of this match.")] = None,
    before: Annotated[
        int | None,
        typer.Option(
            help="Only the entries older than entry ID (the page before it).", metavar="ID"
        ),
    ] = None,
    json_out: JsonOption = False,
    lang: LangOption = None,
    db: DbOption = None,
) -> None:
    """List the changes made to the database, oldest first, in words (``tally audit undo ID``
    reverses one)."""
    if ctx.invoked_subcommand is not None:
        return
    from tally.store import as_json

    with reading(db) as store:
        event_id = None if event is None else store.events.get(event).id
        entries = store.audit.log(limit=limit, event=event_id, match=match, before=before)
    if json_out:
        echo_json(as_json(entries))
        return
    from tally.cli.common import language
    from tally.i18n import gettext as _
    from tally.i18n import use
    from tally.vocabulary import change_words

    with use(language(lang)):
        if not entries:
            filtered = (event, match, before) != (None, None, None)
            typer.echo(_("No change fits.") if filtered else _("The audit log is empty."))
        for e in entries:
            reversed_by = (
                _("  [reversed by %(entry)s]") % {"entry": e.reversed_by} if e.reversed_by else ""
            )
            where = " – ".join(e.match_players) or e.event_name or ""
            typer.echo(
                f"{e.id:>5}  {e.at[:19].replace('T', ' ')}  {e.scorer}  "
                + (f"[{where}] " if where else "")
                + f"{change_words(e.wording)}{reversed_by}"
            )


@audit_app.command("undo")
@guard
def audit_undo(
    entry: Annotated[int, typer.Argument(help="The number of the audit entry to reverse.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Reverse a change: put back the state before it (the reversal is logged too)."""
    from tally.cli.common import language
    from tally.i18n import gettext as _
    from tally.i18n import use

    with opened(db, scorer) as store:
        done = store.audit.reverse(entry)
    from tally.vocabulary import change_words

    with use(language(lang)):
        typer.echo(
            _("Entry %(id)s: %(change)s") % {"id": done.id, "change": change_words(done.wording)}
        )
