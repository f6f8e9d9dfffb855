"""``tally team``: the club's teams (their players in board order, a captain) and the team
standings of a team event (``tally event create NAME --kind team --teams A B --boards N``;
:mod:`tally.store.teams`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, guard, language
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading
from tally.cli.tables import print_table
from tally.i18n import gettext as _
from tally.i18n import use

if TYPE_CHECKING:
    from tally.store.teams import TeamStandingsView, TeamView

HELP = "Teams of the club's players and the team standings of team events."

team_app = typer.Typer(help=HELP, no_args_is_help=True)
app.add_typer(team_app, name="team")

TeamArg = Annotated[str, typer.Argument(metavar="TEAM", help="The team (number or name).")]
PlayersArg = Annotated[
    list[str],
    typer.Argument(metavar="PLAYER...", help="Its players (names or numbers), in board order."),
]
CaptainOption = Annotated[
    str | None, typer.Option("--captain", metavar="NAME", help="Its captain, one of its players.")
]


def describe(view: TeamView) -> str:
    """A team in a line: number, name, players by board, its captain."""
    players = ", ".join(f"{i}. {name}" for i, name in enumerate(view.players, 1))
    line = f'{view.id}  "{view.name}": {players}'
    if view.captain is not None:
        line += " " + _("(captain: %(name)s)") % {"name": view.captain}
    return line


@team_app.command("add")
@guard
def add(
    name: Annotated[str, typer.Argument(metavar="TEAM", help="The team's name.")],
    players: PlayersArg,
    captain: CaptainOption = None,
    json_out: JsonOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Add a team of players, in board order."""
    from tally.store import as_json

    with opened(db, scorer) as store:
        view = store.teams.add(name, players, captain)
    if json_out:
        echo_json(as_json(view))
        return
    with use(language(lang)):
        typer.echo(_("Added team %(team)s.") % {"team": describe(view)})


@team_app.command("players")
@guard
def players_(
    team: TeamArg,
    players: PlayersArg,
    captain: CaptainOption = None,
    json_out: JsonOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Set a team's players, in board order (for the events created from now on)."""
    from tally.store import as_json

    with opened(db, scorer) as store:
        view = store.teams.set_players(team, players, captain)
    if json_out:
        echo_json(as_json(view))
        return
    with use(language(lang)):
        typer.echo(_("Team %(team)s.") % {"team": describe(view)})


@team_app.command("order")
@guard
def order_(
    event: Annotated[str, typer.Argument(help="The team event (its name or number).")],
    team: TeamArg,
    players: PlayersArg,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Set a team's board order in a team event for the rounds started from now on."""
    with opened(db, scorer) as store:
        store.teams.set_order(event, team, players)
    with use(language(lang)):
        typer.echo(_("Board order of %(team)s set.") % {"team": team})


@team_app.command("rename")
@guard
def rename(
    team: TeamArg,
    new_name: Annotated[str, typer.Argument(metavar="NEW_NAME", help="The team's new name.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Rename a team (the events it played keep the name it had)."""
    with opened(db, scorer) as store:
        view = store.teams.rename(team, new_name)
    with use(language(lang)):
        typer.echo(_("Team %(team)s.") % {"team": describe(view)})


@team_app.command("list")
@guard
def list_(json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None) -> None:
    """List the teams and their players."""
    from tally.store import as_json

    with reading(db) as store:
        found = store.teams.all()
    if json_out:
        echo_json(as_json(found))
        return
    with use(language(lang)):
        if not found:
            typer.echo(_("No teams yet: `tally team add TEAM PLAYER...`."))
        for view in found:
            typer.echo(describe(view))


@team_app.command("show")
@guard
def show_(
    team: TeamArg, json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None
) -> None:
    """Show a team: its players in board order and its captain."""
    from tally.store import as_json

    with reading(db) as store:
        view = store.teams.get(team)
    if json_out:
        echo_json(as_json(view))
        return
    with use(language(lang)):
        typer.echo(describe(view))


def show_team_standings(view: TeamStandingsView) -> None:
    """The team standings of a team event as a table, in the current language."""
    header = [
        "#",
        _("Team"),
        _("Played"),
        _("Won"),
        _("Drawn"),
        _("Lost"),
        _("Match points"),
        _("Boards won"),
        _("Bummerl won"),
        _("Bummerl lost"),
    ]
    rows: list[list[str | int | float | None]] = [
        [
            r.rank,
            r.team,
            r.played,
            r.won,
            r.drawn,
            r.lost,
            r.match_points,
            r.boards_won,
            r.bummerl_won,
            r.bummerl_lost,
        ]
        for r in view.rows
    ]
    ranked = (
        _(
            "Ranked by team match points (2 won, 1 drawn, 0 lost), then Bummerl won, "
            "then boards won."
        )
        if view.team_rank == "match-points"
        else _("Ranked by Bummerl won, then team match points, then boards won.")
    )
    notes = [ranked]
    if view.first_to is not None:
        notes.append(
            _("%(team)s has won the race to %(n)s Bummerl.")
            % {"team": view.winner, "n": view.first_to}
            if view.winner is not None
            else _("A race to %(n)s Bummerl won.") % {"n": view.first_to}
        )
    print_table(
        _("Teams of %(event)s (%(boards)s boards)") % {"event": view.event, "boards": view.boards},
        header,
        rows,
        right=(0, *range(2, len(header))),
        notes=notes,
    )
