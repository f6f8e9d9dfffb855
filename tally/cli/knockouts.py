"""The knockouts' own ``tally event`` commands: ``playoff`` (a "Stechen" between tied
players), ``elimination`` (the standings by elimination, lives and rounds) and ``bracket``.

:func:`register` adds them to the ``tally event`` group (:mod:`tally.cli.events` calls it);
the work is done by :mod:`tally.store.knockouts`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli.common import echo_json, guard, language
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading
from tally.cli.tables import CsvOption, one_format, print_table, write_csv
from tally.i18n import gettext as _
from tally.i18n import use
from tally.vocabulary import elimination_ranking, knockout_text, stage, word

if TYPE_CHECKING:
    from tally.store.knockouts import KnockoutView

_Event = Annotated[str, typer.Argument(metavar="EVENT", help="The event: number or name.")]


def elimination_rows(view: KnockoutView) -> tuple[list[str], list[list[str | int | None]]]:
    """The standings by elimination as CSV rows: rank, player, group, lives left, the round
    out in, how far they got, won, lost, and a mark per round."""
    header = ["rank", "player", "group", "lives", "out_in", "stage", "won", "lost",
              *[f"r{n}" for n in range(1, view.rounds_started + 1)]]
    rows: list[list[str | int | None]] = [
        [x.rank, x.player, x.group, x.lives, x.out_in, x.stage, x.row.won, x.row.lost,
         *x.marks] for x in view.lines]
    return header, rows


def describe_format(view: KnockoutView) -> list[str]:
    """A knockout's or groups event's format and stage, line by line."""
    out = []
    if view.event.format.has_lives:
        final = (f"; the last {view.final_size} play a straight knockout"
                 if view.final_size else "")
        out.append(f"Knockout: {view.lives} lives each, rounds drawn by lot with seed "
                   f"{view.draw_seed}{final}; `tally event elimination {view.event.id}` shows "
                   "who is still in.")
    else:
        sizes = ", ".join(str(len(g)) for g in view.groups)
        out.append(f"Groups: {len(view.groups)} ({sizes} players), snake-seeded; the best "
                   f"{view.advance} of each go into a knockout bracket.")
        for number, group in enumerate(view.groups, start=1):
            out.append(f"  Group {number}: {', '.join(group)}")
    out.append(f"Stage: {view.stage}.")
    return out


def show_elimination(view: KnockoutView) -> None:
    """Print the standings by elimination as a table on the terminal, with notes, in the
    current language (how far each player got and the round marks worded too)."""
    header, rows = elimination_rows(view)
    knockout = view.event.format.has_lives
    short = ["#", _("Player"), _("Group"), _("Lives"), _("Out in"), _("Stage"), _("W"), _("L"),
             *[str(n) for n in range(1, view.rounds_started + 1)]]
    keep = [i for i, name in enumerate(header)
            if not (knockout and name == "group")
            and not (not knockout and name in ("lives", "out_in"))]
    marks = header.index("lost") + 1
    rows = [[*row[:5], knockout_text(str(row[5] or ""), player=True), *row[6:marks],
             *(_(str(m)) if m in ("W", "L", "B") else m for m in row[marks:])] for row in rows]
    notes = [_("Stage: %(stage)s.") % {"stage": stage(view.stage)}]
    if view.draw_seed:
        notes.append(_("Lives: %(lives)s each; rounds drawn by lot, seed %(seed)s.")
                     % {"lives": view.lives, "seed": view.draw_seed})
    notes.append(_("Rounds: W won, L lost, B bye, ? playing, - not playing."))
    notes.append(elimination_ranking(view.kind, view.tiebreaks))
    print_table(_("%(event)s: standings by elimination") % {"event": view.event.name},
                [short[i] for i in keep], [[row[i] for i in keep] for row in rows],
                right=(0,), notes=notes)


def show_bracket(view: KnockoutView) -> None:
    """Print a knockout's bracket as a table on the terminal, in the current language."""
    if not view.bracket:
        typer.echo(_('Event %(id)s "%(name)s" has no bracket yet (%(stage)s).')
                   % {"id": view.event.id, "name": view.event.name, "stage": stage(view.stage)})
        return
    rows: list[list[str | int | None]] = []
    for matches in view.bracket:
        for m in matches:
            rows.append([m.round, m.table, _side(m.first), _side(m.second), m.result,
                         m.winner if m.decided else None, m.match_id])
    notes = [_("Champion: %(player)s.") % {"player": view.champion} if view.champion
             else _("Stage: %(stage)s.") % {"stage": stage(view.stage)},
             _("?: the winner of a match not decided yet.")]
    print_table(_("%(event)s: bracket") % {"event": view.event.name},
                [_("Round"), _("Table"), _("First"), _("Second"), _("Result"), _("Winner"),
                 _("Match")], rows, right=(0, 1, 6), notes=notes)


@guard
def playoff(
    event: _Event,
    first: Annotated[str, typer.Argument(metavar="PLAYER", help="One tied player.")],
    second: Annotated[str, typer.Argument(metavar="PLAYER", help="The other.")],
    dealer: Annotated[str | None, typer.Option(
        "--dealer", help="Who deals first (default: the first player).")] = None,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Start a play-off (Stechen) between two players of a knockout or groups event who
    share a rank (overall, or in their group where it decides who goes through): a
    match without a round that counts in no totals; its winner ranks above the other.
    Record its deals as any match's."""
    from tally.store.knockouts import record_playoff

    with opened(db, scorer) as store:
        mid = record_playoff(store, event, first, second, first_dealer=dealer)
        match = store.match_state(mid)
    typer.echo(f"Play-off: match {mid}, {match.players[0]} against {match.players[1]}, "
               f"{match.first_dealer} deals first. Record it with `tally deal start "
               f"{mid} ...` or `tally deal quick {mid} ...`.")


@guard
def elimination(event: _Event, json_out: JsonOption = False, csv_out: CsvOption = False,
                db: DbOption = None, lang: LangOption = None) -> None:
    """Show the standings of a knockout or groups event by elimination: how far each
    player got (lives left, the round they were out in, their group, the bracket round),
    won and lost, and a mark per round (W won, L lost, B bye, ? playing, - not
    playing)."""
    from tally.store import as_json
    from tally.store.events import event as find_event
    from tally.store.knockouts import knockout_view

    one_format(json_out, csv_out)
    with reading(db) as store:
        view = knockout_view(store, find_event(store, event))
    if json_out:
        echo_json(as_json(view))
        return
    if csv_out:
        write_csv(*elimination_rows(view))
        return
    with use(language(lang, view.event.language)):
        show_elimination(view)


@guard
def bracket(event: _Event, json_out: JsonOption = False, db: DbOption = None,
            lang: LangOption = None) -> None:
    """Show the knockout bracket of a knockout (its final stage) or groups event: each
    round's matches, byes, results and winners."""
    from tally.store import as_json
    from tally.store.events import event as find_event
    from tally.store.knockouts import knockout_view

    with reading(db) as store:
        view = knockout_view(store, find_event(store, event))
    if json_out:
        echo_json(as_json(view.bracket))
        return
    with use(language(lang, view.event.language)):
        show_bracket(view)


def register(event_app: typer.Typer) -> None:
    """Add ``playoff``, ``elimination`` and ``bracket`` to ``tally event``."""
    event_app.command("playoff")(playoff)
    event_app.command("elimination")(elimination)
    event_app.command("bracket")(bracket)


def _side(name: str | None) -> str:
    """A side of a bracket match as the terminal shows it."""
    return word("bye") if name is None else name or "?"
