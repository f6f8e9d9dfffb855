"""``tally print``: printed sheets as PDF, a match's score sheet (or a blank form), the
ruling sheet of a recorded deal, an event's sheets and each player's evening.

WeasyPrint, Jinja2 and the store are imported inside the commands, so ``tally --help`` does not
load them.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import MAX_ID, fail, guard, language, say_written
from tally.cli.options import (
    FromOption,
    JobsOption,
    LangOption,
    MoneySeasonOption,
    SeasonOption,
    ToOption,
)
from tally.cli.standings import AllEventsOption, EventArgument
from tally.cli.storage import DbOption, reading
from tally.errors import Message
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.sheets import ScoreSheet
    from tally.store import Store

print_app = typer.Typer(
    help="Printed sheets as PDF: a match's score sheet or a blank form, a "
    "deal's ruling, a match's analysis, an event's standings and "
    "cross-table, a round's pairings, the ratings, a series' "
    "standings, a knockout's bracket, a player's evening, an event's or a season's money.",
    no_args_is_help=True,
)
app.add_typer(print_app, name="print")


class PaperSize(StrEnum):
    """The paper a sheet is laid out for."""

    A4 = "A4"
    LETTER = "letter"


PaperOption = Annotated[
    PaperSize, typer.Option("--paper", case_sensitive=False, help="Paper size.")
]
LinksOption = Annotated[
    str | None,
    typer.Option(
        "--links",
        metavar="URL",
        help="Print each table's QR code for its page on `tally serve` at URL (the server's "
        "address as the players' phones reach it, e.g. http://192.168.1.20:8066).",
    ),
]
OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        dir_okay=False,
        help="The PDF to write (replaced if it exists).",
    ),
]


def _target(output: Path | None, default: str) -> Path:
    """The file to write: ``output``, else ``default`` in the current directory; refused
    before anything is rendered when its folder does not exist."""
    path = output if output is not None else Path(default)
    if not path.parent.is_dir():
        fail(
            Message(
                N_("%(path)s: there is no folder %(folder)s to write the PDF in"),
                path=path,
                folder=repr(str(path.parent)),
            )
        )
    return path


def write_and_say(pdf: bytes, path: Path) -> None:
    """Write ``pdf`` to ``path`` in one piece and say where it went (``tally load --sheets``
    too)."""
    from tally.sheets.render import write_pdf

    write_pdf(pdf, path)
    say_written(path)


def _blank_sheet(rules: str | None) -> ScoreSheet:
    """An empty form: for ``rules`` (a rule set) with their match target, else rules to write
    in and room for a match to 7."""
    from tally.engine.rules import RuleSet
    from tally.sheets import ScoreSheet

    if rules is None:
        return ScoreSheet.blank()
    rule_set = RuleSet.parse(rules)
    if rule_set.match_target > 99:
        fail(
            Message(
                N_("a score sheet has room for a match to 1-99 game points, not %(target)s"),
                target=rule_set.match_target,
            )
        )
    return ScoreSheet.blank(rule_set.spec, rule_set.match_target)


@print_app.command("scoresheet")
@guard
def scoresheet(
    match: Annotated[
        int | None,
        typer.Argument(metavar="MATCH", help="The match number (or --blank).", show_default=False),
    ] = None,
    blank: Annotated[
        bool,
        typer.Option(
            "--blank", help="An empty form to fill in by hand, for no match in particular."
        ),
    ] = False,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="SPEC",
            help="With --blank: the rule set to name and size the form for ('schnapsen', "
            "'sixty-six match_target=11'); without it the rules are a line to write on.",
        ),
    ] = None,
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    links: LinksOption = None,
    lang: LangOption = None,
) -> None:
    """Print a match's score sheet as PDF (with --blank, an empty form).

    A row per deal: dealer, game points each way, carry, running score, with
    room for the match target. A stored match prints with its players and the
    deals played so far filled in.

    Default file: scoresheet-match-N.pdf or scoresheet-blank.pdf here.
    """
    if blank and match is not None:
        fail(Message(N_("give a match number or --blank, not both")))
    if not blank and match is None:
        fail(Message(N_("give a match number, or --blank for an empty form")))
    if rules is not None and not blank:
        fail(
            Message(
                N_("--rules is for a blank form (--blank): a match's sheet names the match's rules")
            )
        )
    if links is not None and blank:
        fail(Message(N_("--links is for a match's sheet: a blank form belongs to no table")))
    from tally.i18n import use
    from tally.sheets.render import render_scoresheet

    if match is None:
        path = _target(output, "scoresheet-blank.pdf")
        with use(language(lang)):
            sheet = _blank_sheet(rules)
            pdf = render_scoresheet(sheet, paper=paper.value)
    else:
        from tally.sheets.build import match_scoresheet

        path = _target(output, f"scoresheet-match-{match}.pdf")
        with reading(db) as store:
            with use(language(lang, _match_language(store, match, lang))):
                sheet = match_scoresheet(store, match)
                if links is not None:
                    from tally.web.qr import with_table_codes

                    sheet = with_table_codes(store, sheet, links)
                pdf = render_scoresheet(sheet, paper=paper.value)
    write_and_say(pdf, path)


def _match_language(store: Store, match: int, lang: object) -> str | None:
    """The language of the event a match belongs to (``None``: none, or ``--lang`` given)."""
    if lang is not None:
        return None
    event_id = store.matches.state(match).event_id
    if event_id is None:
        return None

    return store.events.get(event_id).language


#: the analysis options of ``tally print ruling`` and ``tally print analysis``
SamplesOption = Annotated[
    int,
    typer.Option(
        "--samples",
        min=1,
        max=10000,
        help="Analysis: consistent deals sampled when a hand is unknown.",
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", min=0, max=2**31, help="Analysis: seed of the sampling.")
]


@print_app.command("ruling")
@guard
def ruling(
    deal: Annotated[
        str, typer.Argument(metavar="DEAL", help="The deal: its number (17) or MATCH.DEAL (3.2).")
    ],
    no_analysis: Annotated[
        bool,
        typer.Option(
            "--no-analysis", help="Leave out the analysis (the close, best play, the claim)."
        ),
    ] = False,
    samples: SamplesOption = 200,
    seed: SeedOption = 0,
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print the ruling sheet of a recorded deal as PDF.

    What a referee hands both players: the deal's tags; every trick with both
    cards, who won it, marriages, exchange, close and claim, and the counted
    points after it; the ruling with the rules that decide it quoted; whether
    the players' agreed result matches; and the analysis of `tally analyse`
    (unless --no-analysis). A deal entered as a result has no record, so no
    ruling sheet.

    Default file: ruling-deal-MATCH.DEAL.pdf here.
    """
    from tally.sheets.build import deal_ruling_sheet
    from tally.sheets.render import render_ruling

    if output is not None:
        _target(output, "")
    from tally.i18n import use

    with reading(db) as store:
        view = store.deals.view(store.deals.id_of(deal))
        with use(language(lang, _match_language(store, view.match_id, lang))):
            sheet = deal_ruling_sheet(
                store, view.id, analyse=not no_analysis, samples=samples, seed=seed
            )
            pdf = render_ruling(sheet, paper=paper.value)
    path = _target(output, f"ruling-deal-{view.match_id}.{view.number}.pdf")
    write_and_say(pdf, path)


@print_app.command("analysis")
@guard
def analysis(
    match: Annotated[
        int, typer.Argument(metavar="MATCH", min=1, max=MAX_ID, help="The match number.")
    ],
    samples: SamplesOption = 200,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print a match's closes on one sheet as PDF.

    A row per recorded deal: who closed and before which trick, whether the
    close was sound, its value as played against best play, the claim's
    verdict; then per player the closes made and sound and the game points
    lost to unsound closes and late claims (`tally analyse --match`).

    Default file: analysis-match-N.pdf here.
    """
    from tally.i18n import use
    from tally.sheets.build import match_analysis_sheet
    from tally.sheets.render import render_analysis

    path = _target(output, f"analysis-match-{match}.pdf")
    with reading(db) as store:
        with use(language(lang, _match_language(store, match, lang))):
            sheet = match_analysis_sheet(store, match, samples=samples, seed=seed, jobs=jobs)
            pdf = render_analysis(sheet, paper=paper.value)
    write_and_say(pdf, path)


@print_app.command("standings")
@guard
def standings(
    event: EventArgument = None,
    season: SeasonOption = False,
    date_from: FromOption = None,
    date_to: ToOption = None,
    all_events: AllEventsOption = False,
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print the standings of an event (or of a season, --season) as PDF.

    The table of the terminal's `tally standings` with the tiebreaks named, and
    for a round robin the cross-table of results player by player; the event's
    name, date and rule set, and when it was printed. A knockout's (or groups
    event's) standings are by elimination: lives, the round out in, a mark per
    round.

    Default file: standings-event-N.pdf or standings-season.pdf here.
    """
    from tally.cli.common import parse_date

    if event is not None and season:
        fail(Message(N_("give an EVENT or --season, not both")))
    if event is None and not season:
        fail(Message(N_("give an EVENT, or --season for the club evenings of a date range")))
    if event is not None and (date_from or date_to or all_events):
        fail(Message(N_("--from, --to and --all-events are for --season")))
    if output is not None:
        _target(output, "")
    from tally.i18n import use
    from tally.sheets.build import standings_sheet
    from tally.sheets.render import render_standings

    with reading(db) as store:
        if event is not None:
            found = store.events.get(event)
            number = found.id
            default = f"standings-event-{number}.pdf"
            with use(language(lang, found.language)):
                from tally.sheets.knockout import event_sheet
                from tally.sheets.render import render_sheet

                pdf = render_sheet(event_sheet(store, number), paper=paper.value)
        else:
            with use(language(lang)):
                sheet = standings_sheet(
                    store.events.season_standings(
                        date_from=parse_date(date_from, "--from"),
                        date_to=parse_date(date_to, "--to"),
                        all_events=all_events,
                    )
                )
                pdf = render_standings(sheet, paper=paper.value)
            default = "standings-season.pdf"
    write_and_say(pdf, _target(output, default))


@print_app.command("pairings")
@guard
def pairings(
    event: Annotated[
        str,
        typer.Argument(
            metavar="EVENT", help="The round robin, Swiss event or knockout, or the club evening."
        ),
    ],
    round_number: Annotated[
        int | None,
        typer.Option(
            "--round",
            metavar="N",
            help="The round to print (a round robin's; a club evening has none).",
        ),
    ] = None,
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    links: LinksOption = None,
    lang: LangOption = None,
) -> None:
    """Print the pairings of a round, or a club evening's tables, as PDF.

    Each table's number, its two players and who deals first, with a box for
    the result; who sits out the round; how a knockout's round was drawn (the
    seed). For a club evening (no --round): the matches being played as the
    tables sit down, with their match numbers, and the players waiting for a
    table.

    Default file: pairings-event-N-round-R.pdf (pairings-event-N.pdf for a
    club evening) here.
    """
    if output is not None:
        _target(output, "")
    from tally.i18n import use
    from tally.sheets.build import pairings_sheet
    from tally.sheets.club import club_pairings_sheet
    from tally.sheets.render import render_pairings

    with reading(db) as store:
        found = store.events.get(event)
        number = found.id
        if not found.format.has_rounds and round_number is not None:
            fail(
                Message(
                    N_(
                        'event %(event)s "%(name)s" is a club evening: it has no rounds '
                        "(leave out --round to print its tables)"
                    ),
                    event=number,
                    name=found.name,
                )
            )
        if found.format.has_rounds and round_number is None:
            fail(
                Message(
                    N_(
                        'event %(event)s "%(name)s" has rounds: '
                        "give the round to print with --round N"
                    ),
                    event=number,
                    name=found.name,
                )
            )
        with use(language(lang, found.language)):
            if not found.format.has_rounds:
                sheet = club_pairings_sheet(store, number)
                default = f"pairings-event-{number}.pdf"
            else:
                assert round_number is not None
                sheet = pairings_sheet(store, number, round_number)
                default = f"pairings-event-{number}-round-{round_number}.pdf"
            if links is not None:
                from tally.web.qr import with_table_codes

                sheet = with_table_codes(store, sheet, links, number)
            pdf = render_pairings(sheet, paper=paper.value)
    write_and_say(pdf, _target(output, default))


@print_app.command("ratings")
@guard
def ratings(
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print the ratings list as PDF.

    Every rated player ranked by the conservative rating, with the rating, its
    uncertainty, matches won and lost and the last one played (`tally
    ratings`).

    Default file: ratings.pdf here.
    """
    from tally.i18n import use
    from tally.sheets.ratings import ratings_sheet, render_ratings

    path = _target(output, "ratings.pdf")
    with use(language(lang)), reading(db) as store:
        pdf = render_ratings(ratings_sheet(store), paper=paper.value)
    write_and_say(pdf, path)


@print_app.command("series")
@guard
def series(
    name: Annotated[str, typer.Argument(metavar="SERIES", help="The series (number or name).")],
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print the standings of a series as PDF.

    Per player the points of each event with the placing, the results outside
    the best N in brackets, and the total (`tally series standings`).

    Default file: series-N.pdf here.
    """
    from tally.i18n import use
    from tally.sheets.ratings import render_series, series_sheet

    if output is not None:
        _target(output, "")
    with use(language(lang)), reading(db) as store:
        number = store.series.get(name).id
        pdf = render_series(series_sheet(store, number), paper=paper.value)
    write_and_say(pdf, _target(output, f"series-{number}.pdf"))


@print_app.command("bracket")
@guard
def bracket(
    event: Annotated[str, typer.Argument(metavar="EVENT", help="The knockout or groups event.")],
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print the knockout bracket of an event as PDF.

    A column per round to the champion: each match's players (winners in
    bold), byes, scores, and empty lines for the matches still to come.

    Default file: bracket-event-N.pdf here.
    """
    if output is not None:
        _target(output, "")
    from tally.i18n import use
    from tally.sheets.knockout import bracket_sheet
    from tally.sheets.render import render_bracket

    with reading(db) as store:
        found = store.events.get(event)
        number = found.id
        with use(language(lang, found.language)):
            pdf = render_bracket(bracket_sheet(store, number), paper=paper.value)
    write_and_say(pdf, _target(output, f"bracket-event-{number}.pdf"))


@print_app.command("money")
@guard
def money(
    event: EventArgument = None,
    season: MoneySeasonOption = False,
    date_from: FromOption = None,
    date_to: ToOption = None,
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print the treasurer's money sheet of an event, or a season's (--season), as PDF.

    The text of `tally event money`: per player here, entry fee, buy-backs, extra fees,
    paid, due, prize and paid out; then the pool, the prizes per place and category, what
    is left for the club and the cash box, adding up to the cent.

    Default file: money-event-N.pdf (money-season.pdf) here.
    """
    if output is not None:
        _target(output, "")
    from tally.cli.common import parse_date
    from tally.i18n import use
    from tally.sheets.money import money_sheet, season_sheet
    from tally.sheets.render import render_money

    if (event is None) == (not season and date_from is None and date_to is None):
        fail(Message(N_("give an EVENT, or --season with its options, not both")))
    with reading(db) as store:
        if event is not None:
            found = store.events.get(event)
            book = store.treasurer.book(found.id)
            with use(language(lang, found.language)):
                pdf = render_money(money_sheet(book, found.name, found.date), paper=paper.value)
            name = f"money-event-{found.id}.pdf"
        else:
            first, last = parse_date(date_from, "--from"), parse_date(date_to, "--to")
            totals = store.treasurer.season(first, last)
            with use(language(lang)):
                sheet = season_sheet(totals, f"{first or '…'} – {last or '…'}")
                pdf = render_money(sheet, paper=paper.value)
            name = "money-season.pdf"
    write_and_say(pdf, _target(output, name))


ReportEventOption = Annotated[
    str,
    typer.Option(
        "--event", metavar="EVENT", help="The event (number or name).", show_default=False
    ),
]


@print_app.command("report")
@guard
def report(
    player: Annotated[
        str, typer.Argument(metavar="PLAYER", help="The player (number, name or alias).")
    ],
    event: ReportEventOption,
    samples: SamplesOption = 200,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    paper: PaperOption = PaperSize.A4,
    output: OutputOption = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print a player's evening as PDF: their report for one event.

    Their matches with the game points each way and the result, their place
    and match points, their rating before and after the event, and their
    closes and claims as the analysis judged them (`tally print analysis`):
    each with its mark, the game points it lost and the choice that was
    better, with the game points lost to closes, claims and card play match
    by match.

    Default file: DATE-EVENT-PLAYER.pdf here (2026-11-19-thursday-club-evening-anna-berger.pdf).
    """
    from tally.i18n import use
    from tally.sheets.report import player_report, render_report, report_file_name

    if output is not None:
        _target(output, "")
    with reading(db) as store:
        found = store.events.get(event)
        with use(language(lang, found.language)):
            sheet = player_report(store, found.id, player, samples=samples, seed=seed, jobs=jobs)
            pdf = render_report(sheet, paper=paper.value)
    default = report_file_name(found, sheet.player, sheet.player_id)
    write_and_say(pdf, _target(output, default))


@print_app.command("reports")
@guard
def reports(
    event: ReportEventOption,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            metavar="DIR",
            file_okay=False,
            help="The folder to write the reports in (made if it does not exist).",
            show_default=False,
        ),
    ],
    samples: SamplesOption = 200,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    paper: PaperOption = PaperSize.A4,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print every player's evening of an event as PDF, one file each.

    The report of `tally print report` for each player of the event, each
    match analysed once. The files are named to be mailed and stay the same
    from one printing to the next: DATE-EVENT-PLAYER.pdf, ASCII letters only
    (2026-11-19-thursday-club-evening-anna-berger.pdf).
    """
    from tally.i18n import use
    from tally.sheets.report import event_reports, render_report, report_file_names

    if not out.parent.is_dir():
        fail(
            Message(
                N_("%(path)s: there is no folder %(folder)s to make the reports' folder in"),
                path=out,
                folder=repr(str(out.parent)),
            )
        )
    with reading(db) as store:
        found = store.events.get(event)
        with use(language(lang, found.language)):
            sheets = event_reports(store, found.id, samples=samples, seed=seed, jobs=jobs)
            pdfs = [render_report(s, paper=paper.value) for s in sheets]
    names = report_file_names(found, {s.player_id: s.player for s in sheets})
    out.mkdir(exist_ok=True)
    for sheet, pdf in zip(sheets, pdfs, strict=True):
        write_and_say(pdf, out / names[sheet.player_id])
