"""``tally match``: start a match, show it with its score, list matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, fail, guard, language
from tally.cli.lines import score_line
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading
from tally.errors import Message
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.store import MatchView, Store

match_app = typer.Typer(
    help="Matches: start, show, list, enter a whole result, delete.", no_args_is_help=True
)
app.add_typer(match_app, name="match")

MatchArg = Annotated[int, typer.Argument(metavar="MATCH", help="The match number.")]
RefereeOption = Annotated[
    bool,
    typer.Option("--referee", help="Also show the counted points of a deal still being played."),
]


@match_app.command("start")
@guard
def start(
    player_a: Annotated[str, typer.Argument(help="A player (name or number).")],
    player_b: Annotated[str, typer.Argument(help="The other player.")],
    dealer: Annotated[
        str, typer.Option("--dealer", "--first-dealer", help="Who deals the first deal.")
    ],
    rules: Annotated[
        str | None,
        typer.Option(
            help="A preset with optional overrides: 'sixty-six', 'schnapsen carry=accumulate'. "
            "Default: the event's rule set, else sixty-six."
        ),
    ] = None,
    event: Annotated[
        str | None,
        typer.Option(
            "--event",
            metavar="EVENT",
            help="The club evening (number or name) the match counts for; players not on its "
            "list join it.",
        ),
    ] = None,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Start a match between two players under a rule set."""
    with opened(db, scorer) as store:
        m = store.matches.start(player_a, player_b, rules=rules, first_dealer=dealer, event=event)
        event_language = _event_language(store, m.event_id)
    from tally.i18n import gettext as _
    from tally.i18n import use

    a, b = m.players
    with use(language(None, event_language)):
        where = _(" (event %(event)s)") % {"event": m.event_id} if m.event_id is not None else ""
        typer.echo(
            _(
                "Started match %(id)s%(where)s: %(a)s v %(b)s, %(rules)s, to %(target)s "
                "game points. %(dealer)s deals first."
            )
            % {
                "id": m.id,
                "where": where,
                "a": a,
                "b": b,
                "rules": m.rules,
                "target": m.target,
                "dealer": m.first_dealer,
            }
        )


def _event_language(store: Store, event_id: int | None) -> str | None:
    """The stored language of the event a match counts for (``None``: no event, or none)."""
    if event_id is None:
        return None
    return store.matches.event_language(event_id)


@match_app.command("show")
@guard
def show(
    match: MatchArg,
    json_out: JsonOption = False,
    referee: RefereeOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Show a match: each deal's ruling and game points, the carry, the running score, who
    deals next and whether it is over."""
    from tally.i18n import use
    from tally.store import as_json

    event_language = None
    with reading(db) as store:
        m = store.matches.state(match, referee=referee)
        if not json_out:
            event_language = _event_language(store, m.event_id)
    if json_out:
        echo_json(as_json(m))
        return
    with use(language(lang, event_language)):
        typer.echo("\n".join(describe_match(m)))


def describe_match(m: MatchView) -> list[str]:
    """A match as a small score sheet, in the current language (:func:`tally.i18n.use`)."""
    from tally.i18n import gettext as _
    from tally.vocabulary import explanation, word

    a, b = m.players
    out = [
        _(
            "Match %(id)s: %(a)s v %(b)s, %(rules)s, to %(target)s game points; "
            "%(dealer)s dealt first."
        )
        % {
            "id": m.id,
            "a": a,
            "b": b,
            "rules": m.rules,
            "target": m.target,
            "dealer": m.first_dealer,
        }
    ]
    # the reason column is as wide as its longest word (13 in English, as always)
    wr = max([13, *(len(word(d.reason)) for d in m.deals)])
    if m.deals:
        wa, wb = max(len(a), 5), max(len(b), 5)
        deal, dealer, winner, reason = _("deal"), _("dealer"), _("winner"), _("reason")
        points, carry = _("points"), _("carry")
        out.append(
            f"  {deal:>4}  {dealer:<10} {winner:<10} {reason:<{wr}} "
            f"{points:>8}  {carry:>5}  {a:>{wa}} {b:>{wb}}"
        )
    for d in m.deals:
        if d.reason == "incomplete":
            winner, points = _("(playing)"), ""
        else:
            winner = d.winner or "-"
            points = (
                f"{d.deal_points}+{d.carry_in}={d.game_points}"
                if d.winner and d.carry_in
                else str(d.game_points)
            )
        kind = " q" if d.kind == "quick" else ""
        out.append(
            f"  {d.number:>4}  {d.dealer:<10} {winner:<10} {word(d.reason):<{wr}} "
            f"{points:>8}  {d.carry_out:>5}  {d.score_after[a]:>{wa}} "
            f"{d.score_after[b]:>{wb}}{kind}"
        )
        for v in d.violations:
            out.append(
                _("        trick %(trick)s: %(player)s broke %(rule)s: %(message)s")
                % {
                    "trick": v.trick,
                    "player": v.player,
                    "rule": word(v.rule),
                    "message": explanation(v.message),
                }
            )
    if any(d.kind == "quick" for d in m.deals):
        out.append(_("  (q: entered as a result, not recorded trick by trick)"))
    out.append(score_line(m))
    return out


@match_app.command("result")
@guard
def result(
    match: MatchArg,
    score: Annotated[
        str | None,
        typer.Argument(
            metavar="[SCORE]", help="Game points of the two players in the match's order: 7:3."
        ),
    ] = None,
    winner: Annotated[
        str | None,
        typer.Option(
            "--winner",
            metavar="NAME",
            help="Who won the match; --score then gives the winner's game points first.",
        ),
    ] = None,
    score_option: Annotated[
        str | None, typer.Option("--score", metavar="SCORE", help="The score with --winner: 7:3.")
    ] = None,
    correct: Annotated[
        bool,
        typer.Option(
            "--correct",
            help="Correct the result entered whole before: says what changes, then asks.",
        ),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="With --correct: show what changes; store nothing.")
    ] = False,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="With --correct: store without asking.")
    ] = False,
    json_out: JsonOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Enter a whole match's result kept on paper (7:3) instead of its deals; it finishes
    the match and counts in the standings. `tally audit undo` takes it back; --correct
    corrects it (typed the wrong way round: `tally match result MATCH 3:7 --correct`)."""
    if (score is None) == (score_option is None):
        fail(
            Message(
                N_(
                    "give the score once: `tally match result MATCH 7:3` (in the match's order) or "
                    "`tally match result MATCH --winner NAME --score 7:3`"
                )
            )
        )
    if score_option is not None and winner is None:
        fail(
            Message(
                N_(
                    "--score goes with --winner NAME (the winner's game points first); without a "
                    "winner give the score after the match: `tally match result MATCH 7:3`"
                )
            )
        )
    if (dry_run or yes) and not correct:
        fail(Message(N_("--dry-run and --yes go with --correct")))
    if correct:
        _correct_result(match, str(score or score_option), winner, (dry_run, yes), (db, scorer))
        return
    with opened(db, scorer) as store:
        m = store.deals.match_result(match, str(score or score_option), winner=winner)
        entry = store.audit.log(limit=1)[0].id
        event_language = _event_language(store, m.event_id)
    if json_out:
        from tally.store import as_json

        echo_json(as_json(m))
        return
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang, event_language)):
        typer.echo(
            _("Entered the result of match %(id)s. `tally audit undo %(entry)s` takes it back.")
            % {"id": m.id, "entry": entry}
        )
        typer.echo(score_line(m))


def _correct_result(
    match: int,
    score: str,
    winner: str | None,
    how: tuple[bool, bool],
    where: tuple[str | None, str | None],
) -> None:
    """``tally match result --correct``: what the correction changes, asked about (unless
    ``--dry-run`` or ``--yes``, ``how``), then stored."""
    from tally.cli.common import asked_correction
    from tally.i18n import gettext as _
    from tally.i18n import use

    with opened(*where) as store:
        event_language = _event_language(store, store.matches.state(match).event_id)
        with use(language(None, event_language)):
            asked = store.consequences.match_result_correction(match, score, winner=winner)
            if not asked_correction(asked, dry_run=how[0], yes=how[1]):
                return
            m = store.deals.edit_match_result(match, score, winner=winner, expect=asked.mark)
            entry = store.audit.log(limit=1)[0].id
            if m is not None:
                typer.echo(
                    _(
                        "Corrected the result of match %(id)s. `tally audit undo %(entry)s` "
                        "takes it back."
                    )
                    % {"id": m.id, "entry": entry}
                )
                typer.echo(score_line(m))


@match_app.command("list")
@guard
def list_(
    event: Annotated[
        int | None,
        typer.Option(
            "--event", metavar="EVENT", help="Only the matches of this event (its number)."
        ),
    ] = None,
    json_out: JsonOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """List the matches with their scores."""
    from tally.store import as_json

    with reading(db) as store:
        matches = store.matches.all()
    if event is not None:
        matches = [m for m in matches if m.event_id == event]
    if json_out:
        echo_json(as_json(matches))
        return
    from tally.i18n import gettext as _
    from tally.i18n import use

    with use(language(lang)):
        if not matches:
            typer.echo(_("No matches yet: `tally match start A B --dealer A`."))
        for m in matches:
            a, b = m.players
            state = _("over, %(winner)s won") % {"winner": m.winner} if m.over else _("playing")
            where = ""
            if m.event_id is not None:
                where = _("  event %(event)s") % {"event": m.event_id} + (
                    _(" round %(round)s table %(table)s") % {"round": m.round, "table": m.table}
                    if m.round is not None
                    else ""
                )
            typer.echo(
                _(
                    "%(id)5s  %(a)s v %(b)s  %(rules)s  %(deals)s deal(s)  "
                    "%(a)s %(score_a)s, %(b)s %(score_b)s  (%(state)s)%(where)s"
                )
                % {
                    "id": m.id,
                    "a": a,
                    "b": b,
                    "rules": m.rules,
                    "deals": m.deals,
                    "score_a": m.score[a],
                    "score_b": m.score[b],
                    "state": state,
                    "where": where,
                }
            )


@match_app.command("delete")
@guard
def delete(match: MatchArg, db: DbOption = None, scorer: ScorerOption = None) -> None:
    """Delete a match with its deals (one started by mistake); `tally audit undo` brings it
    back. A round robin's matches come from its schedule and cannot be deleted one by one:
    take the round back, withdraw a player, or correct the deals."""
    with opened(db, scorer) as store:
        m = store.matches.delete(match)
        entry = store.audit.log(limit=1)[0].id
        event_language = _event_language(store, m.event_id)
    from tally.i18n import gettext as _
    from tally.i18n import use

    a, b = m.players
    with use(language(None, event_language)):
        typer.echo(
            _(
                "Deleted match %(id)s: %(a)s v %(b)s, %(deals)s deal(s). "
                "`tally audit undo %(entry)s` brings it back."
            )
            % {"id": m.id, "a": a, "b": b, "deals": len(m.deals), "entry": entry}
        )
