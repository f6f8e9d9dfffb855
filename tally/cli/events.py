"""``tally event``: club evenings, round robins and knockouts, their rounds, pairings and
cross-tables; the knockouts' own commands (play-offs, standings by elimination, the bracket)
are :mod:`tally.cli.knockouts`, registered here.

The work is done by :mod:`tally.store.events`; these commands parse arguments and print.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tally.cli import app
from tally.cli.common import echo_json, fail, guard, language, parse_date, say_written
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading
from tally.cli.tables import (
    Cell,
    CsvOption,
    number,
    one_format,
    print_table,
    spreadsheet_safe,
    write_csv,
)
from tally.errors import Message
from tally.events.tiebreaks import DEFAULT_TIEBREAKS, SWISS_TIEBREAKS, option_help
from tally.i18n import N_, format_date

if TYPE_CHECKING:
    from tally.store.store import Store
    from tally.store.views import EventView, RoundView

event_app = typer.Typer(
    help="Events: club evenings, round robins, Swiss events and knockouts; rounds, pairings, "
    "cross-tables.",
    no_args_is_help=True,
)
app.add_typer(event_app, name="event")

EventArg = Annotated[str, typer.Argument(metavar="EVENT", help="The event: number or name.")]

WITHDRAWAL_HELP = (
    "What becomes of a withdrawn player's remaining matches (every match of theirs not over, "
    "and a round robin's scheduled matches not made yet): 'forfeit' - each is a match won by "
    "the opponent (played and won, no game points beyond those recorded); 'void' - they drop "
    "out of the standings. Matches the player finished always count."
)


def split_list(text: str | None) -> list[str] | None:
    """``"a, b,c"`` as ``["a", "b", "c"]``; ``""`` as no items."""
    if text is None:
        return None
    return [x.strip() for x in text.split(",") if x.strip()]


def with_format_options(fn: Callable[..., None]) -> Callable[..., None]:
    """``fn`` with every format's option as a command-line option, handed to it in its
    ``**options`` (the table of :mod:`tally.events.formats.options`: flag, metavar, default,
    help and the kinds that take it), placed before ``points_per_win``; and the ``--kind``
    help made from the formats' summaries."""
    import inspect
    import typing

    from tally.events.formats import FORMATS, every_option
    from tally.events.formats.options import cli_help

    types: dict[str, Any] = {"bool": bool, "whole": int, "text": str}
    made: list[inspect.Parameter] = []
    hints = typing.get_type_hints(fn, include_extras=True)
    hints.pop("options", None)
    for name, option in every_option().items():
        python: Any = (
            types[option.type] if option.default is not None else types[option.type] | None
        )
        hint = Annotated[
            python,
            typer.Option(
                option.option,
                metavar=option.metavar or None,
                help=cli_help(option, FORMATS.values()),
            ),
        ]
        made.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option.default))
        hints[name] = hint
    said = [f"'{f.kind}' ({f.summary})" for f in FORMATS.values()]
    hints["kind"] = Annotated[
        str, typer.Option("--kind", help=", ".join(said[:-1]) + " or " + said[-1] + ".")
    ]
    params: list[inspect.Parameter] = []
    for param in inspect.signature(fn).parameters.values():
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            continue
        if param.name == "points_per_win":
            params += made
        params.append(param.replace(kind=inspect.Parameter.KEYWORD_ONLY))
    fn.__annotations__ = hints
    fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [p.replace(annotation=hints.get(p.name, p.annotation)) for p in params],
        return_annotation=None,
    )
    return fn


@event_app.command("create")
@guard
@with_format_options
def create(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The event's name.")],
    players: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="PLAYER",
            help="Players (names or numbers), in seed order: a round robin is paired from it.",
        ),
    ] = None,
    kind: Annotated[str, typer.Option("--kind")] = "club",
    teams: Annotated[
        list[str] | None,
        typer.Option(
            "--teams",
            metavar="TEAM...",
            help="A team event's teams (tally team), in order: `--teams A B C` (the names "
            "after it are teams too).",
        ),
    ] = None,
    when: Annotated[
        str | None,
        typer.Option("--date", metavar="YYYY-MM-DD", help="The day it is held (default: today)."),
    ] = None,
    rules: Annotated[
        str, typer.Option(help="The rule set of every match of the event.")
    ] = "sixty-six",
    points_per_win: Annotated[
        float, typer.Option("--points-per-win", help="Match points for a won match.")
    ] = 1.0,
    bye: Annotated[
        str,
        typer.Option(
            help="What a bye scores: 'none', or 'win' (the match points of a won match; not a "
            "match played)."
        ),
    ] = "none",
    withdrawal: Annotated[str, typer.Option(help=WITHDRAWAL_HELP)] = "forfeit",
    tiebreaks: Annotated[
        str | None,
        typer.Option(
            help=f"Tiebreaks in order, comma-separated. {option_help()}. Default: "
            f"{', '.join(DEFAULT_TIEBREAKS)}; for a Swiss event {', '.join(SWISS_TIEBREAKS)}; "
            "'' for none. See docs/events.md."
        ),
    ] = None,
    rank_by: Annotated[
        str | None,
        typer.Option(
            "--rank-by",
            metavar="points|percentage",
            help="What the standings rank by before the tiebreaks: match points, or the "
            "match-point percentage (default: percentage for a club evening, where players "
            "play different numbers of matches; points otherwise).",
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="de|en",
            help="The event's language: what its sheets and readable output speak unless a "
            "command's --lang says otherwise (default: none, the locale decides).",
        ),
    ] = None,
    json_out: JsonOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    **options: Any,
) -> None:
    """Create a club evening, a round robin, a Swiss event, a knockout with lives or groups
    then knockout."""
    from tally.store import as_json

    held_on = parse_date(when)
    order = split_list(tiebreaks)
    if teams:  # `--teams A B C`: the names after the first are parsed as players
        teams, players = [*teams, *(players or [])], []
    with opened(db, scorer) as store:
        ev = store.events.create(
            name,
            kind=kind,
            teams=teams or [],
            players=players or [],
            held_on=held_on,
            rules=rules,
            match_points_per_win=points_per_win,
            bye=bye,
            withdrawal=withdrawal,
            tiebreaks=order,
            rank_by=rank_by,
            language=(lang or "").strip().lower(),
            **options,
        )
    if json_out:
        echo_json(as_json(ev))
        return
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(None, ev.language)):
        typer.echo(
            _('Created %(kind)s %(id)s "%(name)s" on %(date)s, %(rules)s, %(players)s.')
            % {
                "kind": describe_kind(ev),
                "id": ev.id,
                "name": ev.name,
                "date": format_date(ev.date),
                "rules": ev.rules,
                "players": _players(len(ev.players)),
            }
        )
        if ev.format.has_rounds_made_in_advance:
            typer.echo(
                _("%(rounds)s; start one with `tally event round %(id)s 1 --start`.")
                % {"rounds": _rounds(ev.rounds), "id": ev.id}
            )
        elif ev.format.ranks_by_elimination:
            typer.echo(
                _("Start round 1 with `tally event round %(id)s 1 --start`.") % {"id": ev.id}
            )
        elif ev.format.has_rounds:
            typer.echo(
                _("%(rounds)s, each paired when it starts: `tally event round %(id)s 1 --start`.")
                % {"rounds": _rounds(ev.rounds), "id": ev.id}
            )
        else:
            typer.echo(
                _("Start its matches with `tally match start A B --dealer A --event %(id)s`.")
                % {"id": ev.id}
            )


def _say_folder_written(folder: Path, records: int) -> None:
    """Say what an export as a folder wrote, in the command's language."""
    from tally.i18n import ngettext, use

    with use(language(None)):
        said = ngettext(
            "Wrote %(folder)s: event.toml and %(n)s record.",
            "Wrote %(folder)s: event.toml and %(n)s records.",
            records,
        )
    typer.echo(said % {"folder": folder, "n": records})


def _players(n: int) -> str:
    """``1 player``, ``4 players`` in the current language."""
    from tally.i18n import ngettext

    return ngettext("%(n)s player", "%(n)s players", n) % {"n": n}


def _rounds(n: int) -> str:
    """``1 round``, ``5 rounds`` in the current language."""
    from tally.i18n import ngettext

    return ngettext("%(n)s round", "%(n)s rounds", n) % {"n": n}


def _matches(n: int) -> str:
    """``1 match``, ``3 matches`` in the current language."""
    from tally.i18n import ngettext

    return ngettext("%(n)s match", "%(n)s matches", n) % {"n": n}


def describe_kind(ev: EventView) -> str:
    """``club evening``, ``round robin``, ``double round robin`` or ``Swiss event`` (in the
    current language)."""
    from tally.i18n import gettext as _

    return _(ev.format.describe(ev.double))


@event_app.command("list")
@guard
def list_(json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None) -> None:
    """List the events, by date."""
    from tally.store import as_json

    with reading(db) as store:
        found = store.events.all()
    if json_out:
        echo_json(as_json(found))
        return
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        if not found:
            typer.echo(
                _("No events yet: `tally event create NAME PLAYER... [--kind round-robin]`.")
            )
        for ev in found:
            typer.echo(
                f"{ev.id:>5}  {format_date(ev.date)}  {ev.name}  ({describe_kind(ev)}, "
                f"{ev.rules}, {_players(len(ev.players))}, {_matches(ev.matches)})"
            )


@event_app.command("show")
@guard
def show(
    event: EventArg, json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None
) -> None:
    """Show an event: its settings, players and rounds."""
    from tally.store import as_json

    with reading(db) as store:
        ev = store.events.get(event)
        extra: list[str] = []
        if ev.format.ranks_by_elimination and not json_out:
            from tally.cli.knockouts import describe_format
            from tally.i18n import use

            with use(language(lang, ev.language)):
                extra = describe_format(store.knockouts.view(ev))
    if json_out:
        echo_json(as_json(ev))
        return
    from tally.i18n import use

    with use(language(lang, ev.language)):
        typer.echo("\n".join([*describe_event(ev), *extra]))


def absence_lines(ev: EventView) -> list[str]:
    """What a requested bye scores in an event whose rounds are paired from the standings,
    and the absences announced, round by round."""
    from tally.i18n import gettext as _

    if not ev.format.pairs_from_standings:
        return []
    out = [
        _("A requested bye (an announced absence) scores half a win.")
        if ev.absence_score == "half"
        else _("A requested bye (an announced absence) scores nothing.")
    ]
    if ev.max_absences is not None:
        out.append(_("A player may ask for at most %(n)s requested byes.") % {"n": ev.max_absences})
    if ev.no_absence_last:
        out.append(_("No requested bye in the last %(n)s rounds.") % {"n": ev.no_absence_last})
    by_round: dict[int, list[str]] = {}
    for k, name in ev.absences:
        by_round.setdefault(k, []).append(name)
    out.extend(
        _("Absent in round %(round)s (requested bye): %(players)s.")
        % {"round": k, "players": ", ".join(names)}
        for k, names in sorted(by_round.items())
    )
    return out


def no_show_lines(ev: EventView) -> list[str]:
    """The no-shows recorded in an event (one-round forfeits), round by round."""
    from tally.i18n import gettext as _

    by_round: dict[int, list[str]] = {}
    for k, name in ev.no_shows:
        by_round.setdefault(k, []).append(name)
    return [
        _("Did not come in round %(round)s (forfeit): %(players)s.")
        % {"round": k, "players": ", ".join(names)}
        for k, names in sorted(by_round.items())
    ]


def describe_event(ev: EventView) -> list[str]:
    """An event's settings and players, line by line, in the current language."""
    from tally.i18n import gettext as _
    from tally.vocabulary import word

    out = [
        _("Event %(id)s: %(name)s, %(date)s, %(kind)s, %(rules)s.")
        % {
            "id": ev.id,
            "name": ev.name,
            "date": format_date(ev.date),
            "kind": describe_kind(ev),
            "rules": ev.rules,
        }
    ]
    scoring = _("%(points)s match point(s) a win") % {"points": number(ev.match_points_per_win)}
    if ev.format.has_scored_rounds:
        scoring += _(", a bye scores a win") if ev.bye == "win" else _(", a bye scores nothing")
        out.append(
            _("%(matches)s per pairing; rounds started: %(started)s of %(rounds)s.")
            % {
                "matches": _matches(ev.matches_per_pairing),
                "started": ", ".join(map(str, ev.rounds_started)) or _("none"),
                "rounds": ev.rounds,
            }
        )
    out.append(
        (
            _("Scoring: %(scoring)s; a withdrawn player's remaining matches are forfeited.")
            if ev.withdrawal == "forfeit"
            else _("Scoring: %(scoring)s; a withdrawn player's remaining matches are void.")
        )
        % {"scoring": scoring}
    )
    out.append(
        _("Tiebreaks: %(tiebreaks)s.")
        % {"tiebreaks": ", ".join(word(t) for t in ev.tiebreaks) or _("none")}
    )
    if ev.unplayed == "virtual-opponent":
        out.append(
            _("A bye or a forfeit counts a virtual opponent in the Buchholz tiebreaks (FIDE).")
        )
    out.append(
        _("Ranked by the match-point percentage, then the tiebreaks.")
        if ev.rank_by == "percentage"
        else _("Ranked by match points, then the tiebreaks.")
    )
    if ev.language:
        out.append(
            _("Language of its sheets and output: %(language)s.") % {"language": ev.language}
        )
    if ev.seed_by == "rating":
        out.append(seeding_line(ev))
    out.extend(absence_lines(ev))
    out.extend(no_show_lines(ev))
    out.append(
        _("Players (%(count)s), %(matches)s played or being played:")
        % {"count": len(ev.players), "matches": _matches(ev.matches)}
    )
    for p in ev.players:
        gone = _("  (withdrew %(date)s)") % {"date": p.withdrawn_at[:10]} if p.withdrawn_at else ""
        rated = f"  [{seed_rating(p.seed_rating)}]" if ev.seeded else ""
        out.append(f"  {p.seed:>3}. {p.name}{rated}{gone}")
    return out


def seeding_line(ev: EventView) -> str:
    """What an event seeded by rating says of its seeding, in the current language."""
    from tally.i18n import gettext as _

    if ev.seeded:
        return _(
            "Seeded by rating: the order fixed when round 1 was started (rating in brackets, "
            "a dash: none)."
        )
    return _("Seeded by rating: the order is fixed by the ratings when round 1 is started.")


def seed_rating(rating: float | None) -> str:
    """A player's rating on the seeding list (the conservative rating, one decimal), or a
    dash for a player without one."""
    return "-" if rating is None else f"{rating:.1f}"


@event_app.command("add")
@guard
def add(
    event: EventArg,
    players: Annotated[
        list[str], typer.Argument(metavar="PLAYER", help="Players to add, as the last seeds.")
    ],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Add players to an event (a round robin only before its first round starts; a Swiss
    event until its last round starts: a late entry, with 0 match points so far)."""

    with opened(db, scorer) as store:
        ev = store.events.add_players(event, players)
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang, ev.language)):
        typer.echo(
            _('Event %(id)s "%(name)s" has %(players)s: %(names)s.')
            % {
                "id": ev.id,
                "name": ev.name,
                "players": _players(len(ev.players)),
                "names": ", ".join(p.name for p in ev.players),
            }
        )


@event_app.command("withdraw")
@guard
def withdraw(
    event: EventArg,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player who withdraws.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Withdraw a player from an event: the event's withdrawal rule decides their remaining
    matches (every match of theirs not over, and a round robin's scheduled matches not made
    yet): 'forfeit' - each is a match won by the opponent; 'void' - they drop out of the
    standings.

    Matches the player finished count, except that under 'forfeit' a round robin's player who
    finished fewer than half of their matches has every result struck out (the finished ones
    too; their opponents are neither credited nor debited). A match between two withdrawn
    players is void. A withdrawn player gets no new match and no bye. `tally audit undo` takes
    a withdrawal back."""

    with opened(db, scorer) as store:
        ev = store.events.withdraw(event, player)
        struck = _struck_out(store, ev)
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang, ev.language)):
        rule = (
            _(
                "they count for nobody, nor do the matches they finished: fewer than half "
                "of their matches were played (struck out)"
            )
            if struck
            else _("each is won by the opponent (forfeit)")
            if ev.withdrawal == "forfeit"
            else _("they drop out of the standings (void)")
        )
        typer.echo(
            _(
                '%(player)s withdrew from event %(id)s "%(name)s": of their remaining '
                "matches, %(rule)s."
            )
            % {"player": player, "id": ev.id, "name": ev.name, "rule": rule}
        )


def _struck_out(store: Store, ev: EventView) -> bool:
    """Whether the player who withdrew last from round robin ``ev`` has every result struck
    out (fewer than half of their matches finished: docs/events.md, *Withdrawals*)."""
    if not ev.format.has_scheduled_pairings:
        return False
    gone = max((p for p in ev.players if p.withdrawn_at), key=lambda p: p.withdrawn_at or "")
    return any(
        p.status == "annulled" and gone.name in p.withdrawn
        for rnd in store.events.rounds(ev.id)
        for p in rnd.pairings
    )


@event_app.command("unpair")
@guard
def unpair(
    event: EventArg,
    number_: Annotated[
        int,
        typer.Argument(metavar="ROUND", help="The round to take back (the latest round started)."),
    ],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Withdraw the pairings of the latest round started (its matches and its bye) while no
    deal of it is recorded, so that it can be paired again with `tally event round EVENT N
    --start` (a Swiss round from the standings as they are then). Refused once a deal or a
    quick result of the round is recorded. A swap made in the round (`tally event swap`) is
    undone with it. Audited: `tally audit undo` puts the round back."""

    with opened(db, scorer) as store:
        swapped = [(a, b) for n, a, b in store.swaps.made(event) if n == number_]
        entry = store.pairings.withdraw(event, number_)
        ev = store.events.get(event)
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang, ev.language)):
        typer.echo(
            _(
                'Withdrew the pairings of round %(n)s of event %(id)s "%(name)s" (audit '
                "entry %(entry)s); pair it again with `tally event round %(id)s %(n)s "
                "--start`."
            )
            % {"n": number_, "id": ev.id, "name": ev.name, "entry": entry.id}
        )
        for a, b in swapped:
            typer.echo(_("The swap of %(a)s and %(b)s is undone with them.") % {"a": a, "b": b})


@event_app.command("swap")
@guard
def swap(
    event: EventArg,
    number_: Annotated[int, typer.Argument(metavar="ROUND", help="The round.")],
    first: Annotated[str, typer.Argument(metavar="A", help="A player of the round.")],
    second: Annotated[
        str, typer.Argument(metavar="B", help="A player of another table (or the bye).")
    ],
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Swap even on a rematch, a pair kept apart or the bye given twice."
        ),
    ] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Swap two players between their tables in a round (or one's table and the other's
    bye) of a Swiss event or a knockout, while no deal is recorded at either table (a round
    robin's schedule is fixed: refused). A swap that makes a rematch, pairs players kept
    apart or gives the bye twice is refused unless `--force`; unequal match points at a
    table of a Swiss event are said. Audited: `tally audit undo` swaps them back."""
    from tally.i18n import gettext as _
    from tally.i18n import use, worded

    with opened(db, scorer) as store:
        done = store.swaps.make(event, number_, first, second, force=force)
        ev = store.events.get(event)
    with use(language(lang, ev.language)):
        for said in (*done.warnings, *done.notes):
            typer.echo(_("Note: %(said)s.") % {"said": worded(said)})
        typer.echo(
            _(
                'Swapped %(a)s and %(b)s in round %(n)s of event %(id)s "%(name)s" '
                "(audit entry %(entry)s)."
            )
            % {
                "a": done.first,
                "b": done.second,
                "n": number_,
                "id": ev.id,
                "name": ev.name,
                "entry": done.audit_id,
            }
        )


@event_app.command("apart")
@guard
def apart_(
    event: EventArg,
    players: Annotated[
        list[str] | None,
        typer.Argument(metavar="A B", help="Two players to keep apart (none: list the pairs)."),
    ] = None,
    undo: Annotated[bool, typer.Option("--undo", help="No longer keep the two apart.")] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Keep two players apart (one family, one club): a Swiss round never pairs them while
    another pairing of the round exists; when none does, the round is paired anyway. Without
    players: the pairs kept apart."""
    from tally.i18n import gettext as _

    if players and len(players) != 2:
        fail(Message(N_("give two players to keep apart: tally event apart EVENT A B")))
    with opened(db, scorer) if players else reading(db) as store:
        pairs = (
            store.pairings.keep_apart(event, players[0], players[1], undo=undo)
            if players
            else store.pairings.apart(event)
        )
        warned = store.pairings.apart_warnings(event, adding=bool(players) and not undo)
    if not pairs:
        typer.echo(_("No players are kept apart."))
    for a, b in pairs:
        typer.echo(_("%(a)s and %(b)s are kept apart.") % {"a": a, "b": b})
    warn(warned)


@event_app.command("absent")
@guard
def absent(
    event: EventArg,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player who will miss it.")],
    round_number: Annotated[
        int, typer.Option("--round", metavar="N", help="The round the player will miss.")
    ],
    cancel: Annotated[
        bool, typer.Option("--cancel", help="Take the absence back (before the round is paired).")
    ] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Record that a player of a Swiss event will miss round N (before it is paired): they
    are not paired in it and get a requested bye, scoring as the event's --absence-score
    says (half a win unless told). Refused once round N is paired, for a withdrawn player
    and twice for one round; a round robin records a forfeit instead, a knockout with lives
    withdraws the player. Audited: `tally audit undo` takes it back."""
    from tally.i18n import gettext as _
    from tally.i18n import use

    with opened(db, scorer) as store:
        name = store.absences.announce(event, player, round_number, cancel=cancel)
        ev = store.events.get(event)
    with use(language(lang, ev.language)):
        typer.echo(
            (
                _('%(player)s will play round %(round)s of event %(id)s "%(name)s" after all.')
                if cancel
                else _(
                    '%(player)s will miss round %(round)s of event %(id)s "%(name)s": a '
                    "requested bye."
                )
            )
            % {"player": name, "round": round_number, "id": ev.id, "name": ev.name}
        )
        typer.echo("\n".join(absence_lines(ev)))


@event_app.command("forfeit")
@guard
def forfeit(
    event: EventArg,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player who did not come.")],
    round_number: Annotated[
        int, typer.Option("--round", metavar="N", help="The round the player did not come to.")
    ],
    cancel: Annotated[
        bool, typer.Option("--cancel", help="Take the no-show back: the match is played.")
    ] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Record that a player did not come to their match in round N (a one-round forfeit).

    The player of a Swiss event or a round robin stays in the event: the opponent wins that
    match by forfeit (+/-), or nobody scores when both stayed away (record both: -/-).
    Counted as a forfeit in the standings and tiebreaks (a game not played); the player is
    paired again next round.
    Refused once deals are recorded in the match (a game played stands), for a player with
    no match in round N and twice. Audited: `tally audit undo`, or --cancel, takes it back.
    To withdraw a player for good: `tally event withdraw`."""
    from tally.i18n import gettext as _
    from tally.i18n import use

    with opened(db, scorer) as store:
        name = store.no_shows.record(event, round_number, player, cancel=cancel)
        ev = store.events.get(event)
    with use(language(lang, ev.language)):
        typer.echo(
            (
                _(
                    "%(player)s plays the match of round %(round)s of event %(id)s "
                    '"%(name)s" after all.'
                )
                if cancel
                else _(
                    '%(player)s did not come to round %(round)s of event %(id)s "%(name)s": '
                    "the match is forfeited."
                )
            )
            % {"player": name, "round": round_number, "id": ev.id, "name": ev.name}
        )
        typer.echo("\n".join(no_show_lines(ev)))


def warn(warnings: Sequence[Message]) -> None:
    """Each of a store's warnings on a line of its own, in the current language."""
    from tally.i18n import gettext as _
    from tally.i18n import worded

    for said in warnings:
        typer.echo(_("Warning: %(said)s.") % {"said": worded(said)})


@event_app.command("round")
@guard
def round_(
    event: EventArg,
    number_: Annotated[
        int | None, typer.Argument(metavar="ROUND", help="The round (default: every round).")
    ] = None,
    start: Annotated[
        bool,
        typer.Option(
            "--start",
            help="Make the round's matches from the schedule (a Swiss round: pair "
            "it from the standings now); once per round.",
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Start a round robin's or group's round although some of its players are "
            "still playing the round before.",
        ),
    ] = False,
    accept_rematches: Annotated[
        bool,
        typer.Option(
            "--accept-rematches",
            help="With --start, a Swiss round that no pairing can make without a rematch "
            "takes the least bad pairing (the fewest rematches), naming each rematch; the "
            "audit log keeps it. Without it such a round is refused.",
        ),
    ] = False,
    json_out: JsonOption = False,
    csv_out: CsvOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Show the pairings of a round robin's or a Swiss event's rounds (table, players, first
    dealer, bye, the matches and their results), or make a round's matches with --start. A
    Swiss round is paired when it starts, once the round before it is finished; until then
    the next round shows the pairings as they stand. A round robin's or group's round is
    not started while one of its players still plays the round before (its preview warns),
    unless --force."""
    from tally.i18n import use
    from tally.store import as_json

    one_format(json_out, csv_out)
    if start and number_ is None:
        fail(Message(N_("give the round to start: tally event round EVENT N --start")))
    with opened(db, scorer) if start else reading(db) as store:
        if start:
            assert number_ is not None
            found = [
                store.events.start_round(
                    event, number_, force=force, accept_rematches=accept_rematches
                )
            ]
            from tally.store.views import rematches

            again = rematches(store.events.started_rounds(event), number_)
        else:
            again = []
            found = store.events.rounds(event, number_)
        chances = None if json_out or csv_out else expected_results(store, found)
        ev = store.events.get(event)
        warned = [] if json_out or csv_out else store.pairings.apart_warnings(event, number_)
        if number_ is not None and not start and not (json_out or csv_out):
            warned += store.pairings.start_warnings(event, number_)
    if json_out:
        echo_json(as_json(found if number_ is None else found[0]))
        return
    header, rows = pairing_rows(found)
    if csv_out:
        write_csv(header, rows)
        return
    with use(language(lang, ev.language)):
        if not found:
            from tally.i18n import gettext as _

            following = max(ev.rounds_started, default=0) + 1
            typer.echo(
                _(
                    "No round to show: round %(n)s of %(rounds)s is paired once round "
                    "%(before)s is finished."
                )
                % {"n": following, "rounds": ev.rounds, "before": following - 1}
                if following <= ev.rounds and ev.rounds_started
                else _("No round to show.")
            )
        for r in found:
            show_round(r, start, chances, swiss=ev.format.pairs_from_standings)
        for a, b in again:
            from tally.i18n import gettext as _

            typer.echo(_("Rematch accepted: %(a)s against %(b)s.") % {"a": a, "b": b})
        warn(warned)


def show_round(
    r: RoundView,
    start: bool = False,
    chances: dict[tuple[object, object], str] | None = None,
    *,
    swiss: bool = False,
) -> None:
    """A round's pairings as a table on the terminal, in the current language, with each
    pairing's expected result when ``chances`` has them (:func:`expected_results`); a Swiss
    round not started yet shows the pairings as they stand now."""
    from tally.i18n import gettext as _
    from tally.i18n import worded
    from tally.vocabulary import absent_words, word

    mine = pairing_rows([r])[1]
    state = word("started" if r.started else "not started")
    if not r.started and swiss:
        state = _("not started: the pairings as they stand now")
    notes = []
    if r.bye is not None:
        scores = "" if r.bye_scores else _(" (does not score)") if r.started else ""
        notes.append(_("Bye: %(player)s%(scores)s") % {"player": r.bye, "scores": scores})
    if r.absent:
        notes.append(absent_words(r.absent, r.absence_points))
    if r.draw:
        notes.append(_("Round %(n)s: %(draw)s.") % {"n": r.number, "draw": worded(r.draw)})
    if start:
        made = ", ".join(str(m) for p in r.pairings for m in p.match_ids) or _("none")
        notes.append(
            _("Started round %(n)s: matches %(matches)s.") % {"n": r.number, "matches": made}
        )
    header = [
        _("Table"),
        _("First"),
        _("Second"),
        _("First dealer"),
        _("Match"),
        _("Result"),
        _("Status"),
    ]
    rows = [[*row[1:7], _status(str(row[7]))] for row in mine if row[-1] != "bye"]
    if chances:
        header.append(_("Expected"))
        rows = [[*row, chances.get((row[1], row[2]))] for row in rows]
        notes.append(
            _(
                "Expected: each player's chance to win, from the ratings when the "
                "round started (tally ratings)."
            )
        )
    title = (
        _("%(event)s, round %(n)s (%(state)s)")
        if r.rounds is None
        else _("%(event)s, round %(n)s of %(rounds)s (%(state)s)")
    )
    print_table(
        title % {"event": r.event, "n": r.number, "rounds": r.rounds, "state": state},
        header,
        rows,
        right=(0, 4),
        notes=notes,
    )


def _status(status: str) -> str:
    """A pairing's status (``playing``, ``forfeit (Anna wins)``) in the current language."""
    from tally.i18n import gettext as _
    from tally.vocabulary import word

    head, sep, rest = status.partition(" (")
    if sep and rest.endswith(" wins)"):
        return _("%(status)s (%(player)s wins)") % {
            "status": word(head),
            "player": rest[: -len(" wins)")],
        }
    return word(status)


def expected_results(store: Store, found: list[RoundView]) -> dict[tuple[object, object], str]:
    """Each pairing's expected result from the ratings when its round started, as ``66% :
    34%`` by (first, second); empty when none of the players has a rated match
    (:mod:`tally.store.ratings`)."""

    out: dict[tuple[object, object], str] = {}
    rated = False
    for r in found:
        then = store.ratings.for_round(r.event_id, r.number)
        rated = rated or any(then.rated(name) for p in r.pairings for name in (p.first, p.second))
        for p in r.pairings:
            first = round(then.expected(p.first, p.second) * 100)
            out[(p.first, p.second)] = f"{first}% : {100 - first}%"
    return out if rated else {}


def pairing_rows(found: list[RoundView]) -> tuple[list[str], list[list[str | int | None]]]:
    """Pairings as CSV rows: a row per table (match numbers and results joined by spaces
    when a pairing plays several matches) and one for the bye."""
    header = ["round", "table", "first", "second", "first_dealer", "match", "result", "status"]
    rows: list[list[str | int | None]] = []
    for r in found:
        for p in r.pairings:
            status = p.status
            if p.forfeit_winner:
                status += f" ({p.forfeit_winner} wins)"
            rows.append(
                [
                    r.number,
                    p.table,
                    p.first,
                    p.second,
                    p.first_dealer,
                    " ".join(str(m) for m in p.match_ids) or None,
                    " ".join(m.result for m in p.matches) or None,
                    status,
                ]
            )
        if r.bye is not None:
            rows.append([r.number, None, r.bye, None, None, None, None, "bye"])
    return header, rows


@event_app.command("cross")
@guard
def cross(
    event: EventArg,
    json_out: JsonOption = False,
    csv_out: CsvOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Show the cross-table of an event: each player's results against each other player,
    their own game points first (7:3); + and - for a match won or lost by forfeit; the
    rounds a player sat out (bye R3)."""
    from tally.store import as_json

    one_format(json_out, csv_out)
    with reading(db) as store:
        grid = store.events.cross_table(event)
    if json_out:
        echo_json(as_json(grid))
        return
    byes = any(grid.byes)
    header = [
        "no",
        "player",
        *[str(i) for i in range(1, len(grid.players) + 1)],
        *(["bye"] if byes else []),
    ]
    rows: list[list[str | int | None]] = [
        [
            i + 1,
            name,
            *[("x" if i == j else " ".join(cell)) for j, cell in enumerate(row)],
            *([" ".join(f"bye R{n}" for n in grid.byes[i])] if byes else []),
        ]
        for i, (name, row) in enumerate(zip(grid.players, grid.cells, strict=True))
    ]
    if csv_out:
        write_csv(header, rows)
        return
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang, grid.event.language)):
        notes = [
            _(
                "Each row shows its player's results against the column's player, game "
                "points, their own first."
            )
        ]
        if byes:
            notes.append(_("bye R3: the player sat out round 3."))
            for row, rounds_out in zip(rows, grid.byes, strict=True):
                row[-1] = " ".join(_("bye R%(n)s") % {"n": n} for n in rounds_out)
        print_table(
            _("%(event)s: cross-table") % {"event": grid.event.name},
            [
                _("No."),
                _("Player"),
                *header[2 : len(grid.players) + 2],
                *([_("Bye")] if byes else []),
            ],
            rows,
            right=(0,),
            notes=notes,
        )


@event_app.command("export")
@guard
def export(
    event: EventArg,
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="json|csv|folder|trf",
            help="json: one file that `tally load FILE.json` reads back (docs/event-json.md); "
            "csv: a row per deal, for spreadsheets (not read back); folder: event.toml and "
            "deals/*.deal, the format of examples/ (needs -o); trf: FIDE's TRF-16 for "
            "chess pairing programs (a round robin or Swiss event; docs/events.md).",
        ),
    ] = "json",
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            metavar="PATH",
            help="Write to PATH (a file; a folder for --format folder) instead of printing.",
        ),
    ] = None,
    paired: Annotated[
        bool,
        typer.Option(
            "--paired",
            help="With --format trf: also write the round paired and not played yet, its "
            "games without a result, for a pairing checker (bbpPairings -c); `tally event "
            "import` reads it back as a round being played.",
        ),
    ] = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Export an event as JSON that `tally load` reads back, as CSV, or as a folder.

    The JSON holds its settings, players, rounds, withdrawals, matches and every
    deal (its record, or its result when it was entered as one); loaded into
    another database it gives the same standings, cross-table and deal exports.
    The CSV is a row per deal, for spreadsheets."""
    import sys

    from tally.files.exporting import event_csv, event_folder, event_json, write_folder, write_text
    from tally.files.trf_export import event_trf

    if format_ not in ("json", "csv", "folder", "trf"):
        fail(Message(N_('--format must be json, csv, folder or trf, not "%(text)s"'), text=format_))
    if format_ == "folder" and output is None:
        fail(Message(N_("--format folder writes files: give the folder with -o PATH")))
    if paired and format_ != "trf":
        fail(Message(N_("--paired writes a round not played yet into a TRF: give --format trf")))
    with reading(db) as store:
        if format_ == "folder":
            files = event_folder(store, event)
        elif format_ == "json":
            text = event_json(store, event)
        elif format_ == "trf":
            text = event_trf(store, event, paired=paired)
        else:
            header, rows = event_csv(store, event)
            text = csv_text(header, rows)
    if format_ == "folder":
        assert output is not None
        write_folder(files, output)
        _say_folder_written(output, len(files) - 1)
    elif output is None:
        sys.stdout.write(text)
    else:
        write_text(text, output)
        say_written(output)


@event_app.command("import")
@guard
def import_(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="The file to import.")],
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="trf",
            help="trf: FIDE's TRF-16, the exchange file of chess pairing programs (JaVaFo, "
            "bbpPairings, Swiss-Manager): its players and rounds become a Swiss event "
            "(a file of a round robin too, ranked by the round robin's tiebreaks); each won "
            "game a won match (a forfeit too), the pairing's bye the round's bye; draws and "
            "half-point byes are refused. See docs/events.md.",
        ),
    ] = "trf",
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="The event's name (default: the file's 012 line, else the file's name).",
        ),
    ] = None,
    rules: Annotated[str, typer.Option(help="The rule set of the event's matches.")] = "sixty-six",
    json_out: JsonOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Import an event from another program's file (FIDE's TRF-16): players, rounds,
    pairings, results and byes, in one transaction."""
    from tally.files.trf_import import import_trf
    from tally.store import as_json

    if format_ != "trf":
        fail(Message(N_('--format must be trf, not "%(text)s"'), text=format_))
    with opened(db, scorer) as store:
        done = import_trf(store, path, name=name, rules=rules)
    if json_out:
        echo_json(as_json(done.event))
        return
    ev = done.event
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        said = _(
            'Imported Swiss event %(id)s "%(name)s" from %(file)s: %(players)s, %(rounds)s, '
            "%(matches)s."
        ) % {
            "id": ev.id,
            "name": ev.name,
            "file": path,
            "players": _players(len(ev.players)),
            "rounds": _rounds(done.rounds),
            "matches": _matches(done.matches),
        }
    typer.echo(said)


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """``rows`` under ``header`` as CSV text, cells as ``--csv`` writes them (numbers as
    numbers, text :func:`tally.cli.tables.spreadsheet_safe`)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([spreadsheet_safe(h) for h in header])
    for row in rows:
        writer.writerow(
            [
                ""
                if c is None
                else number(c)
                if isinstance(c, int | float)
                else spreadsheet_safe(c)
                for c in row
            ]
        )
    return buffer.getvalue()


def _register_knockouts() -> None:
    from tally.cli.knockouts import register

    register(event_app)


_register_knockouts()


def _register_treasurer() -> None:
    from tally.cli.treasurer import register

    register(event_app)


_register_treasurer()
