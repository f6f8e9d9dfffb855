"""``tally player``: add, list, show, rename, merge players, and the other names they go by.

Every command that takes a player finds them as :mod:`tally.names` says: by number (``#2``
or ``2``), by name in any case and without accents, by an alias, or by a unique prefix of
the name (``Anna`` for Anna Berger); an ambiguous name is refused with the candidates.
"""

from __future__ import annotations

from typing import Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, guard
from tally.cli.lines import plural
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading

player_app = typer.Typer(help="Players: add, list, show, rename, merge, alias.",
                         no_args_is_help=True)
app.add_typer(player_app, name="player")

PlayerArg = Annotated[str, typer.Argument(
    metavar="PLAYER", help="The player: number (#2 or 2), name, alias, or a unique start of "
                           "the name (Anna for Anna Berger).")]


@player_app.command("add")
@guard
def add(
    names: Annotated[list[str], typer.Argument(
        help="Full names; unique ignoring case, spaces and accents.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Add players."""
    from tally.names import fold

    with opened(db, scorer) as store:
        for name in names:
            shadowed = [p for p in store.players()
                        if fold(p.name).startswith(fold(name) + " ")]
            p = store.add_player(name)
            typer.echo(f"Added player #{p.id} {p.name}.")
            for other in shadowed:
                typer.echo(f'Note: "{p.name}" now means #{p.id} {p.name}; #{other.id} '
                           f"{other.name} is found by more of the name or the number. If they "
                           f"are one person: `tally player merge {other.id} {p.id}`.")


@player_app.command("list")
@guard
def list_(json_out: JsonOption = False, db: DbOption = None) -> None:
    """List the players, by name, with their numbers and aliases."""
    from tally.store import as_json

    with reading(db) as store:
        players = store.players()
    if json_out:
        echo_json(as_json(players))
        return
    if not players:
        typer.echo("No players yet: `tally player add NAME`.")
    for p in players:
        aka = f"  also: {', '.join(p.aliases)}" if p.aliases else ""
        typer.echo(f"{'#' + str(p.id):>5}  {p.name}  "
                   f"({plural(p.matches, 'match', 'matches')}){aka}")


@player_app.command("show")
@guard
def show(player: PlayerArg, json_out: JsonOption = False, db: DbOption = None) -> None:
    """Show a player: number, name, aliases, events and matches."""
    from tally.store import as_json

    with reading(db) as store:
        p = store.player(player)
        matches = store.player_matches(str(p.id))
    if json_out:
        echo_json({**as_json(p), "match_ids": matches})
        return
    typer.echo(f"#{p.id} {p.name}")
    typer.echo(f"  also goes by: {', '.join(p.aliases) if p.aliases else '-'}")
    typer.echo(f"  events: {', '.join(map(str, p.events)) if p.events else '-'}")
    typer.echo(f"  matches: {', '.join(map(str, matches)) if matches else '-'}")


@player_app.command("rename")
@guard
def rename(
    player: PlayerArg,
    new_name: Annotated[str, typer.Argument(help="The new name.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Rename a player (their records follow)."""
    with opened(db, scorer) as store:
        p = store.rename_player(player, new_name)
    typer.echo(f"Player #{p.id} is now {p.name}.")


@player_app.command("merge")
@guard
def merge(
    keep: Annotated[str, typer.Argument(help="The entry to keep.")],
    drop: Annotated[str, typer.Argument(help="The entry for the same person to fold into it.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Merge two entries for the same person: the second's matches, events and aliases move
    to the first. Allowed whenever the two never played each other; entries in the same
    event become one (the better seed; withdrawn only if both were), except in a round
    robin that has started. `tally audit undo` separates them again."""
    with opened(db, scorer) as store:
        p = store.merge_players(keep, drop)
    typer.echo(f"Merged {drop} into #{p.id} {p.name}, who now has "
               f"{plural(p.matches, 'match', 'matches')}.")


@player_app.command("alias")
@guard
def alias(
    player: PlayerArg,
    name: Annotated[str, typer.Argument(
        metavar="ALIAS", help="Another name the player goes by (Jogi, Anna B).")],
    remove: Annotated[bool, typer.Option("--remove", help="Take the alias away.")] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Give a player another name that every command finds them by (or take it away with
    --remove). An alias is unique, is no player's name, and wins over a prefix of another
    player's name. Audited: `tally audit undo` takes it back."""
    with opened(db, scorer) as store:
        p = store.remove_alias(player, name) if remove else store.add_alias(player, name)
    aka = ", ".join(p.aliases) if p.aliases else "no other name"
    typer.echo(f"#{p.id} {p.name} goes by: {aka}.")
