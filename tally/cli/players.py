"""``tally player``: add, list, show, rename, merge players, and the other names they go by.

Every command that takes a player finds them as :mod:`tally.names` says: by number (``#2``
or ``2``), by name in any case and without accents, by an alias, or by a unique prefix of
the name (``Anna`` for Anna Berger); an ambiguous name is refused with the candidates.
"""

from __future__ import annotations

from typing import Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, guard, language
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading

player_app = typer.Typer(
    help="Players: add, list, show, rename, merge, alias, category, private.", no_args_is_help=True
)
app.add_typer(player_app, name="player")

PlayerArg = Annotated[
    str,
    typer.Argument(
        metavar="PLAYER",
        help="The player: number (#2 or 2), name, alias, or a unique start of "
        "the name (Anna for Anna Berger).",
    ),
]


@player_app.command("add")
@guard
def add(
    names: Annotated[
        list[str], typer.Argument(help="Full names; unique ignoring case, spaces and accents.")
    ],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Add players."""
    from tally.i18n import gettext as _
    from tally.i18n import use
    from tally.names import fold

    with opened(db, scorer) as store:
        for name in names:
            shadowed = [p for p in store.players.all() if fold(p.name).startswith(fold(name) + " ")]
            p = store.players.add(name)
            with use(language(lang)):
                typer.echo(_("Added player #%(id)s %(name)s.") % {"id": p.id, "name": p.name})
                for other in shadowed:
                    typer.echo(
                        _(
                            'Note: "%(name)s" now means #%(id)s %(name)s; #%(other_id)s '
                            "%(other)s is found by more of the name or the number. If "
                            "they are one person: `tally player merge %(other_id)s "
                            "%(id)s`."
                        )
                        % {"name": p.name, "id": p.id, "other_id": other.id, "other": other.name}
                    )


@player_app.command("list")
@guard
def list_(json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None) -> None:
    """List the players, by name, with their numbers, aliases and categories."""
    from tally.store import as_json

    with reading(db) as store:
        players = store.players.all()
    if json_out:
        echo_json(as_json(players))
        return
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        if not players:
            typer.echo(_("No players yet: `tally player add NAME`."))
        for p in players:
            aka = _("  also: %(aliases)s") % {"aliases": ", ".join(p.aliases)} if p.aliases else ""
            kinds = (
                _("  categories: %(categories)s") % {"categories": ", ".join(p.categories)}
                if p.categories
                else ""
            )
            typer.echo(f"{'#' + str(p.id):>5}  {p.name}  ({_matches(p.matches)}){aka}{kinds}")


def _matches(n: int) -> str:
    """``1 match``, ``3 matches`` in the current language."""
    from tally.i18n import ngettext

    return ngettext("%(n)s match", "%(n)s matches", n) % {"n": n}


@player_app.command("show")
@guard
def show(
    player: PlayerArg, json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None
) -> None:
    """Show a player: number, name, aliases, categories, events and matches."""
    from tally.store import as_json

    with reading(db) as store:
        p = store.players.get(player)
        matches = store.players.match_ids(str(p.id))
    if json_out:
        echo_json({**as_json(p), "match_ids": matches})
        return
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        typer.echo(f"#{p.id} {p.name}")
        typer.echo(
            _("  also goes by: %(aliases)s")
            % {"aliases": ", ".join(p.aliases) if p.aliases else "-"}
        )
        typer.echo(
            _("  categories: %(categories)s")
            % {"categories": ", ".join(p.categories) if p.categories else "-"}
        )
        typer.echo(
            _("  events: %(events)s")
            % {"events": ", ".join(map(str, p.events)) if p.events else "-"}
        )
        typer.echo(
            _("  matches: %(matches)s")
            % {"matches": ", ".join(map(str, matches)) if matches else "-"}
        )


@player_app.command("rename")
@guard
def rename(
    player: PlayerArg,
    new_name: Annotated[str, typer.Argument(help="The new name.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Rename a player (their records follow)."""
    with opened(db, scorer) as store:
        p = store.players.rename(player, new_name)
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        typer.echo(_("Player #%(id)s is now %(name)s.") % {"id": p.id, "name": p.name})


@player_app.command("merge")
@guard
def merge(
    keep: Annotated[str, typer.Argument(help="The entry to keep.")],
    drop: Annotated[str, typer.Argument(help="The entry for the same person to fold into it.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Merge two entries for the same person: the second's matches, events and aliases move
    to the first. Allowed whenever the two never played each other; entries in the same
    event become one (the better seed; withdrawn only if both were), except in a round
    robin that has started. `tally audit undo` separates them again."""
    with opened(db, scorer) as store:
        p = store.players.merge(keep, drop)
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        typer.echo(
            _("Merged %(drop)s into #%(id)s %(name)s, who now has %(matches)s.")
            % {"drop": drop, "id": p.id, "name": p.name, "matches": _matches(p.matches)}
        )


@player_app.command("alias")
@guard
def alias(
    player: PlayerArg,
    name: Annotated[
        str, typer.Argument(metavar="ALIAS", help="Another name the player goes by (Jogi, Anna B).")
    ],
    remove: Annotated[bool, typer.Option("--remove", help="Take the alias away.")] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Give a player another name that every command finds them by (or take it away with
    --remove). An alias is unique, is no player's name, and wins over a prefix of another
    player's name. Audited: `tally audit undo` takes it back."""
    with opened(db, scorer) as store:
        p = (
            store.players.remove_alias(player, name)
            if remove
            else store.players.add_alias(player, name)
        )
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        aka = ", ".join(p.aliases) if p.aliases else _("no other name")
        typer.echo(
            _("#%(id)s %(name)s goes by: %(aliases)s.")
            % {"id": p.id, "name": p.name, "aliases": aka}
        )


@player_app.command("category")
@guard
def category(
    player: PlayerArg,
    categories: Annotated[
        list[str],
        typer.Argument(
            metavar="CATEGORY...",
            help="Categories: women, men, juniors, seniors, club members or the club's own "
            "(Damen, Jugend U18, Senioren); case, spaces and accents ignored.",
        ),
    ],
    remove: Annotated[
        bool, typer.Option("--remove", help="Take the player out of these categories.")
    ] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Put a player in categories (or take them out with --remove): `tally standings EVENT
    --category NAME` ranks a category on its own and category prizes go to its players.
    Audited: `tally audit undo` takes it back."""
    with opened(db, scorer) as store:
        p = store.players.set_categories(player, categories, remove=remove)
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        kinds = ", ".join(p.categories) if p.categories else _("no category")
        typer.echo(
            _("#%(id)s %(name)s is in: %(categories)s.")
            % {"id": p.id, "name": p.name, "categories": kinds}
        )


@player_app.command("private")
@guard
def private(
    player: PlayerArg,
    undo: Annotated[
        bool, typer.Option("--undo", help="Show the player's name on the site again.")
    ] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Keep a player private on the published site (`tally publish`): they appear by their
    initials on every page (standings, pairings, rulings, graphs), or by name again with
    --undo. Audited: `tally audit undo` takes it back."""
    with opened(db, scorer) as store:
        p = store.players.set_private(player, not undo)
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        said = (
            _("#%(id)s %(name)s appears by their initials on the published site.")
            if p.private
            else _("#%(id)s %(name)s appears by name on the published site.")
        )
        typer.echo(said % {"id": p.id, "name": p.name})
