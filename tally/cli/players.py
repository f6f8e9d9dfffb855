"""``tally player``: add, list, rename and merge players."""

from __future__ import annotations

from typing import Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, guard
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, plural

player_app = typer.Typer(help="Players: add, list, rename, merge.", no_args_is_help=True)
app.add_typer(player_app, name="player")


@player_app.command("add")
@guard
def add(
    names: Annotated[list[str], typer.Argument(help="Names; unique ignoring case and spaces.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Add players."""
    with opened(db, scorer) as store:
        for name in names:
            p = store.add_player(name)
            typer.echo(f"Added player #{p.id} {p.name}.")


@player_app.command("list")
@guard
def list_(json_out: JsonOption = False, db: DbOption = None) -> None:
    """List the players, by name."""
    from tally.store import as_json

    with opened(db) as store:
        players = store.players()
    if json_out:
        echo_json(as_json(players))
        return
    if not players:
        typer.echo("No players yet: `tally player add NAME`.")
    for p in players:
        typer.echo(f"{'#' + str(p.id):>5}  {p.name}  ({plural(p.matches, 'match', 'matches')})")


@player_app.command("rename")
@guard
def rename(
    player: Annotated[str, typer.Argument(help="The player's name (any case) or number.")],
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
    """Merge two entries for the same person: the second's matches move to the first."""
    with opened(db, scorer) as store:
        p = store.merge_players(keep, drop)
    typer.echo(f"Merged {drop} into #{p.id} {p.name}, who now has "
               f"{plural(p.matches, 'match', 'matches')}.")
