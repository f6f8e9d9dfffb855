"""``tally deal``: record deals trick by trick, enter or import them, correct them.

Every action goes through the engine before it is stored: an action that would make the record
impossible (RULES.md section 11) is refused with the engine's reason and nothing is stored. A
violation may be stored (it happened at the table), but never silently: ``tally deal play``
refuses it with the rule broken and its consequence unless ``--as-played`` is given, and the
interactive recorder asks (default no). The ruling is announced when a deal ends. Running
counted points are never shown unless ``--referee`` is given.

``close`` at the lead (the last trick finished, no card on the next one) is a close after the
draws (stored as ``N. close``); ``close-before-draw`` (short ``cbd``) is the trick's winner
closing before the draws (``close`` on that trick's line). The interactive recorder asks which
one is meant when the rules allow both at that moment.

Two scorers on one match: ``start``, ``play`` and ``undo`` print the deal's position
(``Position: 1.3:12``); given back with ``--at``, the entry is refused when someone else changed
the deal since, with what they entered. The interactive recorder always passes the position it
showed. Exit status of ``tally deal record``: 0 after quit or the end of the input, 130 after
Ctrl-C; either way everything acknowledged is saved.

What the commands print is in the language of their ``--lang``, else the locale's
(:mod:`tally.i18n`; the deal commands do not look up their match's event), the recorder's
prompts, help and questions included; a refusal is worded as every command's is
(:func:`tally.cli.common.in_language`: the engine's and the store's messages in the language;
the recorder prints it after ``Refused:``).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tally.cli import app
from tally.cli.common import (
    AS_PLAYED,
    EDIT_KEPT,
    THEN,
    asked_correction,
    echo_json,
    fail,
    guard,
    in_language,
    language,
)
from tally.cli.lines import (
    careful_line,
    counted_line,
    describe_play,
    position_line,
    ruling_line,
    score_line,
    turn_line,
)
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading
from tally.errors import DealMoved, Message, NotFound, Refused, TallyError, ViolationNotConfirmed
from tally.i18n import N_, use
from tally.i18n import gettext as _
from tally.vocabulary import message_words, word

if TYPE_CHECKING:
    from tally.store import DealView, PlayResult, Store

deal_app = typer.Typer(
    help="Deals: start, play, undo, record interactively, quick entry, "
    "import, export, edit, delete, show.",
    no_args_is_help=True,
)
app.add_typer(deal_app, name="deal")


MatchArg = Annotated[int, typer.Argument(metavar="MATCH", help="The match number.")]
DealArg = Annotated[
    str, typer.Argument(metavar="DEAL", help="The deal: its number (17) or MATCH.DEAL (3.2).")
]
DealOption = Annotated[
    str | None,
    typer.Option(
        "--deal", metavar="DEAL", help="The deal (17 or 3.2) instead of MATCH's current deal."
    ),
]
RefereeOption = Annotated[
    bool,
    typer.Option(
        "--referee", help="Show counted points while the deal is being played (for a referee)."
    ),
]


def _target_deal(
    store: Store, args: list[str], deal: str | None, need_tokens: bool
) -> tuple[int, list[str]]:
    """The deal to act on and the remaining arguments: ``--deal`` or MATCH's current deal."""
    if deal is not None:
        return store.deals.id_of(deal), args
    if not args:
        raise Refused(N_("give the match (or --deal DEAL)"))
    match, rest = args[0], args[1:]
    if not (match.isascii() and match.isdigit()) or len(match) > 18:
        raise NotFound(
            Message(N_('"%(text)s" is not a match number (or give --deal DEAL)'), text=match[:40])
        )
    if need_tokens and not rest:
        raise Refused(N_("nothing to record: give cards or actions (KS, swap, 20 QC, close, 66)"))
    return store.deals.current(int(match)), rest


# --- commands --------------------------------------------------------------------------------


AtOption = Annotated[
    str | None,
    typer.Option(
        "--at",
        "--expect",
        metavar="POSITION",
        help="Where you saw the deal, as the last command printed it (Position: 1.3:12): the "
        "entry is refused if someone else recorded or undid anything since.",
    ),
]


@deal_app.command("start")
@guard
def start(
    match: MatchArg,
    turn_up: Annotated[str, typer.Argument(metavar="TURNUP", help="The turn-up card, e.g. QH.")],
    at: AtOption = None,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Start the next deal of a match with its turn-up card."""
    with opened(db, scorer) as store:
        d = store.deals.start(match, turn_up, expect=at)
    with use(language(lang)):
        typer.echo(
            _(
                "Deal %(match)s.%(number)s (deal %(id)s): %(dealer)s deals, turn-up "
                "%(card)s. %(turn)s"
            )
            % {
                "match": d.match_id,
                "number": d.number,
                "id": d.id,
                "dealer": d.dealer,
                "card": d.turn_up,
                "turn": turn_line(d),
            }
        )
        typer.echo(position_line(d.position))


@deal_app.command("play")
@guard
def play(
    args: Annotated[
        list[str],
        typer.Argument(
            metavar="[MATCH] ACTIONS...",
            help="The match, then cards and actions: KS AS, swap, 20 QC, 40 KH, close (at the "
            "lead: after the draws), close-before-draw (or cbd: the trick's winner closes "
            "before anyone draws), 66, 66@Name.",
        ),
    ],
    deal: DealOption = None,
    as_played: Annotated[
        bool,
        typer.Option(
            "--as-played",
            help="Record it even though it is a violation: it happened at the "
            "table. Without it a violation is refused and explained.",
        ),
    ] = False,
    at: AtOption = None,
    referee: RefereeOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Record cards and actions in the deal being played.

    An entry that would be a violation (a revoke, a false exchange...) is refused with the
    rule broken and what it would mean for the deal, exit status 2; give --as-played to
    record it when it did happen at the table.
    """
    with opened(db, scorer) as store:
        deal_id, tokens = _target_deal(store, args, deal, need_tokens=True)
        try:
            result = store.deals.play(
                deal_id, tokens, referee=referee, as_played=as_played, expect=at
            )
        except ViolationNotConfirmed as exc:
            fail(Message(AS_PLAYED, message=exc.wording))
    with use(language(lang)):
        typer.echo("\n".join(describe_play(result, referee=referee)))
        typer.echo(position_line(result.deal.position))


@deal_app.command("undo")
@guard
def undo(
    match: Annotated[int | None, typer.Argument(metavar="[MATCH]", help="The match.")] = None,
    deal: DealOption = None,
    at: AtOption = None,
    referee: RefereeOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Remove the last action recorded in a deal."""
    with opened(db, scorer) as store:
        deal_id, _rest = _target_deal(store, [] if match is None else [str(match)], deal, False)
        result = store.deals.undo(deal_id, referee=referee, expect=at)
    with use(language(lang)):
        typer.echo("\n".join(describe_play(result, referee=referee, undo=True)))
        typer.echo(position_line(result.deal.position))


@deal_app.command("record")
@guard
def record(
    match: MatchArg,
    referee: RefereeOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Record a match interactively, deal after deal, one line at a time from stdin.

    At each prompt type a card or action (KS, swap, 20 QC, close, close-before-draw, 66,
    66@Name; several on one line are fine), "undo" to take back the last one, "status" for
    the deal so far, "?" or "help" for what may be typed now, or "quit". Refusals are shown
    and the recording goes on. An entry that would be a violation is explained and stored
    only when you confirm it (default: no). Every entry acknowledged is saved at once: quit,
    the end of the input (exit status 0) and Ctrl-C (exit status 130) lose nothing
    acknowledged. Entries are checked against what you saw: if someone else records in the
    same match meanwhile, you are told what they entered and asked to look before going on.
    """
    with opened(db, scorer) as store, use(language(lang)):
        recorder = _Recorder(store, match, referee)
        try:
            recorder.run()
        except KeyboardInterrupt:
            _stopped(match, interrupted=True)
            raise typer.Exit(130) from None


def _stopped(match: int, *, interrupted: bool = False) -> None:
    where = {"match": match}
    typer.echo(
        "\n"
        + (
            _(
                "Interrupted; everything acknowledged is saved. Go on with `tally deal record "
                "%(match)s`."
            )
            % where
            if interrupted
            else _(
                "Stopped; everything acknowledged is saved. Go on with `tally deal record "
                "%(match)s`."
            )
            % where
        )
    )


_QUIT = ("quit", "q", "exit")
_HELP = ("?", "help", "h")
_YES = ("y", "yes", "j", "ja")
_NO = ("n", "no", "nein")


class _Stop(Exception):
    """The scorer quit, or the input ended."""


def refused_line(exc: TallyError, end: str = "") -> str:
    """What the recorder says of an entry it refused: ``Refused: ...`` in the language, the
    message worded as a command's refusal is (:func:`tally.cli.common.in_language`)."""
    return _("Refused: %(message)s") % {"message": in_language(exc.wording) + end}


class _Recorder:
    """The interactive recorder of ``tally deal record``: one match, deal after deal.

    It keeps the position it last showed and passes it with every entry, so an entry is
    never stored into a deal someone else changed meanwhile; after such a refusal the scorer
    must press Enter (having read what the other scorer entered) before going on, so lines
    typed ahead are not stored blindly.

    It speaks the language made current around it (:func:`tally.i18n.use`); what is typed
    stays the same in every language (cards, ``undo``, ``status``, ``help``, ``quit``; ``j``
    is yes too), and a refusal after ``Refused:`` is worded as every command's is
    (:func:`refused_line`).
    """

    def __init__(self, store: Store, match: int, referee: bool) -> None:
        self.store = store
        self.match = match
        self.referee = referee
        #: a line typed in answer to a question that is not an answer: the next entry
        self.pending: str | None = None

    # --- input ----------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        """Print ``prompt`` and read a line; raises :class:`_Stop` at the end of input."""
        if self.pending is not None:
            line, self.pending = self.pending, None
            typer.echo(prompt + line)
            return line
        typer.echo(prompt, nl=False)
        raw = sys.stdin.readline()
        if not raw:
            raise _Stop
        return raw.strip()

    def run(self) -> None:
        try:
            while self.next_deal():
                pass
        except _Stop:
            _stopped(self.match)

    # --- deals -----------------------------------------------------------------------------

    def next_deal(self) -> bool:
        """Start (or go on with) the match's current deal and record it; False at the end."""
        m = self.store.matches.state(self.match)
        if m.over:
            typer.echo(score_line(m))
            return False
        if m.current_deal is not None:
            view = self.store.deals.view(m.current_deal, referee=self.referee)
            typer.echo(
                _("Deal %(match)s.%(number)s goes on.")
                % {"match": view.match_id, "number": view.number}
            )
            self.play_deal(view)
            return True
        a, b = m.players
        n = len(m.deals) + 1
        forehand = b if m.next_dealer == a else a
        line = self.ask(
            _("Deal %(match)s.%(number)s: %(dealer)s deals, %(forehand)s leads. Turn-up? ")
            % {"match": m.id, "number": n, "dealer": m.next_dealer, "forehand": forehand}
        )
        typed = line.lower()
        if typed in _QUIT:
            raise _Stop
        if not line:
            return True
        if typed in _HELP:
            typer.echo(
                _(
                    "Type the turn-up card (e.g. QH, Herz Dame where accepted), undo (to "
                    "reopen the last deal), status, or quit."
                )
                if m.deals
                else _(
                    "Type the turn-up card (e.g. QH, Herz Dame where accepted), status, or quit."
                )
            )
            return True
        if typed == "status":
            typer.echo(score_line(m))
            return True
        try:
            if typed == "undo" and m.deals:
                result = self.store.deals.undo(
                    m.deals[-1].id, referee=self.referee, expect=m.expectation
                )
                typer.echo("\n".join(describe_play(result, referee=self.referee, undo=True)))
                return True
            view = self.store.deals.start(self.match, line, expect=m.expectation)
        except DealMoved as exc:
            self.moved(exc)
            return True
        except TallyError as exc:
            typer.echo(refused_line(exc))
            return True
        typer.echo(
            _("Deal %(match)s.%(number)s: turn-up %(card)s.")
            % {"match": view.match_id, "number": view.number, "card": view.turn_up}
        )
        self.play_deal(view)
        return True

    def prompt(self, view: DealView) -> str:
        if view.claimable:
            return _("Every trick is played. Claim (66, 66@Name), or Enter to go on> ")
        if view.finished:
            return _(
                "The deal is ruled. Record what was played after it, or Enter for the next deal> "
            )
        where = {
            "match": view.match_id,
            "number": view.number,
            "trick": view.trick,
            "player": view.to_move,
        }
        if view.to_move_as == "lead":
            return _("[%(match)s.%(number)s trick %(trick)s] %(player)s to lead> ") % where
        if view.to_move_as == "follow":
            return _("[%(match)s.%(number)s trick %(trick)s] %(player)s to follow> ") % where
        return (
            f"[{view.match_id}.{view.number} trick {view.trick}] {view.to_move} to "
            f"{view.to_move_as}> "
        )

    def play_deal(self, view: DealView) -> None:
        """Record one deal until it is ruled (and the scorer goes on)."""
        while True:
            if view.finished and view.to_move is None and not view.claimable:
                return
            line = self.ask(self.prompt(view))
            typed = line.lower()
            if typed in _QUIT:
                raise _Stop
            if not line:
                if view.finished:
                    return
                continue
            if typed in _HELP:
                self.help(view)
                continue
            if typed == "status":
                self.status(view)
                continue
            try:
                if typed == "undo":
                    undone = self.store.deals.undo(
                        view.id, referee=self.referee, expect=view.expectation
                    )
                    typer.echo("\n".join(describe_play(undone, referee=self.referee, undo=True)))
                    view = undone.deal
                    continue
                entry = self.which_close(view, line)
                if entry is None:
                    continue
                result = self.record(view, entry)
            except DealMoved as exc:
                self.moved(exc)
                fresh = self.store.matches.state(self.match, referee=self.referee)
                if fresh.current_deal != view.id:
                    return
                view = self.store.deals.view(view.id, referee=self.referee)
                continue
            except TallyError as exc:
                typer.echo(refused_line(exc))
                continue
            if result is None:
                continue
            typer.echo("\n".join(describe_play(result, referee=self.referee)))
            view = result.deal

    def record(self, view: DealView, line: str) -> PlayResult | None:
        """Store ``line``; a violation only once the scorer confirms it (None if not)."""
        try:
            return self.store.deals.play(
                view.id, line, referee=self.referee, expect=view.expectation
            )
        except ViolationNotConfirmed as exc:
            typer.echo(careful_line(exc))
            answer = self.ask(_("Did it happen at the table? Record it as played? [y/N] "))
            if answer.lower() in _YES:
                return self.store.deals.play(
                    view.id, line, referee=self.referee, as_played=True, expect=view.expectation
                )
            if answer and answer.lower() not in _NO:
                self.pending = answer  # not an answer: the corrected entry
            typer.echo(_("Not recorded; type the right entry."))
            return None

    def which_close(self, view: DealView, line: str) -> str | None:
        """``line``, or with its final ``close`` made a close before the draws when the
        scorer says so: asked only when the rules allow both at this moment."""
        words = line.split()
        if not words or words[-1].lower() != "close" or view.to_move is None:
            return line
        before = " ".join([*words[:-1], "close-before-draw"])
        try:
            after_ok = not self.store.deals.preview(view.id, line).new_violations
            before_ok = not self.store.deals.preview(view.id, before).new_violations
        except TallyError:
            return line  # the entry itself says why (recording refuses it with the reason)
        if not (after_ok and before_ok):
            return line
        question = (
            _(
                "Close now, after both of you drew (a), or did %(player)s close right after "
                "winning the trick, before anyone drew (b)? [a/b] "
            )
            % {"player": view.to_move}
            if len(words) == 1
            else _(
                "Close now, after both of you drew (a), or did the trick's winner close right "
                "after winning the trick, before anyone drew (b)? [a/b] "
            )
        )
        answer = self.ask(question).lower()
        if answer in ("a", "after", "now"):
            return line
        if answer in ("b", "before"):
            return before
        if answer:
            self.pending = answer
        typer.echo(_("Not recorded: answer a (after the draws) or b (before the draws)."))
        return None

    # --- help and status ---------------------------------------------------------------------

    def help(self, view: DealView) -> None:
        try:
            tokens = self.store.deals.legal_tokens(view.id)
        except TallyError as exc:
            typer.echo(refused_line(exc))
            return
        cards = [
            t
            for t in tokens
            if t not in ("swap", "close", "close-before-draw", "66")
            and not t.startswith(("20 ", "40 "))
        ]
        actions = [t for t in tokens if t not in cards]
        typer.echo(
            _("%(player)s may now:") % {"player": view.to_move}
            if view.to_move
            else _("the trick's winner may now:")
        )
        if cards:
            typer.echo(_("  play a card: %(cards)s") % {"cards": " ".join(cards)})
        marriages = [t for t in actions if t.startswith(("20 ", "40 "))]
        for token in actions:
            if token not in marriages:
                typer.echo("  " + _(_HELP_WORDS[token]))
        if marriages:
            typer.echo(
                _("  declare a marriage and lead that card: %(marriages)s")
                % {"marriages": ", ".join(marriages)}
            )
        typer.echo(_("  (cards held are unknown: a card may still prove a revoke later)"))
        typer.echo(
            _(
                "Also: undo (take back the last entry), status (the deal so far), "
                "help or ?, quit. Several entries on one line are fine: KS AS."
            )
        )

    def status(self, view: DealView) -> None:
        view = self.store.deals.view(view.id, referee=self.referee)
        text = self.store.deals.export(view.id)
        typer.echo(
            _("Deal %(match)s.%(number)s: %(dealer)s dealt, %(forehand)s led, turn-up %(card)s.")
            % {
                "match": view.match_id,
                "number": view.number,
                "dealer": view.dealer,
                "forehand": view.forehand,
                "card": view.turn_up,
            }
        )
        tricks = text.split("\n\n", 1)[1] if "\n\n" in text else ""
        for trick in tricks.splitlines():
            typer.echo("  " + trick)
        if not tricks.strip():
            typer.echo(_("  (nothing recorded yet)"))
        for v in view.violations:
            typer.echo(
                "  "
                + _("Trick %(trick)s: %(player)s broke %(rule)s: %(message)s.")
                % {
                    "trick": v.trick,
                    "player": v.player,
                    "rule": word(v.rule),
                    "message": message_words(v.wording),
                }
            )
        if view.finished:
            typer.echo(ruling_line(view))
        if view.to_move is not None:
            typer.echo(turn_line(view))
        if self.referee and view.points is not None:
            pts = ", ".join(f"{n} {p}" for n, p in view.points.items())
            tricks_won = ", ".join(f"{n} {k}" for n, k in view.tricks.items())
            typer.echo(
                _("Counted points (for the referee): %(points)s. Tricks: %(tricks)s.")
                % {"points": pts, "tricks": tricks_won}
            )

    def moved(self, exc: DealMoved) -> None:
        """Tell the scorer what the other scorer entered; go on only once they pressed
        Enter (lines typed before that are not stored)."""
        typer.echo(refused_line(exc, "."))
        while True:
            line = self.ask(
                _(
                    "Someone else is recording this match. Press Enter to go on "
                    "from where it stands now (or quit)> "
                )
            )
            if not line:
                return
            if line.lower() in _QUIT:
                raise _Stop
            typer.echo(
                _('Not recorded: "%(line)s" was typed before you had seen the change.')
                % {"line": line[:40]}
            )


#: What each action means, for ``help`` (translated where it is shown).
_HELP_WORDS = {
    "swap": N_("swap: exchange the trump jack/nine for the turn-up (then lead)"),
    "close": N_("close: close the stock now, after the draws (then lead)"),
    "close-before-draw": N_(
        "close-before-draw (or cbd): the trick's winner closed before anyone drew"
    ),
    "66": N_("66: claim 66 (66@Name: that player claims)"),
}


def _quick_terms(winner: str | None, points: int | None, reason: str, draw: bool) -> dict[str, Any]:
    """A deal's result as ``--winner``, ``--points``, ``--reason`` or ``--draw`` give it (for
    ``tally deal quick`` and for correcting a deal entered so with ``tally deal edit``)."""
    if draw == (winner is not None):
        fail(Message(N_("give either --winner NAME --points N [--reason R] or --draw")))
    if draw:
        return {"winner": None, "points": 0, "reason": "draw"}
    if points is None:
        fail(Message(N_("give the deal's game points: --points N")))
    return {"winner": winner, "points": points, "reason": reason}


@deal_app.command("quick")
@guard
def quick(
    match: MatchArg,
    winner: Annotated[str | None, typer.Option(help="Who won the deal.")] = None,
    points: Annotated[
        int | None, typer.Option(help="Game points of the deal, without the carry.")
    ] = None,
    reason: Annotated[
        str,
        typer.Option(
            help="claim, false-claim, failed-close, illegal-play, last-trick or higher-total."
        ),
    ] = "claim",
    draw: Annotated[bool, typer.Option("--draw", help="The deal was drawn.")] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Enter a deal's result without recording it trick by trick."""
    result = _quick_terms(winner, points, reason, draw)
    with opened(db, scorer) as store:
        d = store.deals.quick_result(match, **result)
        m = store.matches.state(match)
    with use(language(lang)):
        typer.echo(
            _("Entered deal %(match)s.%(number)s (deal %(id)s). %(ruling)s")
            % {"match": d.match_id, "number": d.number, "id": d.id, "ruling": ruling_line(d)}
        )
        typer.echo(score_line(m))


@deal_app.command("import")
@guard
def import_(
    match: MatchArg,
    files: Annotated[list[Path], typer.Argument(help="Deal records (.deal), in play order.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Import .deal records as the next deals of a match (all or nothing)."""
    sources = [(str(f), f.read_text(encoding="utf-8")) for f in files]
    with opened(db, scorer) as store:
        views = store.deals.import_records(match, sources)
        m = store.matches.state(match)
    with use(language(lang)):
        for f, d in zip(files, views, strict=True):
            typer.echo(
                _("Imported %(file)s as deal %(match)s.%(number)s (deal %(id)s).")
                % {"file": f, "match": d.match_id, "number": d.number, "id": d.id}
            )
            if d.finished:
                typer.echo("  " + ruling_line(d))
        typer.echo(score_line(m))


@deal_app.command("export")
@guard
def export(
    deal: DealArg,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to FILE.")] = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Print a recorded deal as a canonical .deal record."""
    with reading(db) as store:
        text = store.deals.export(store.deals.id_of(deal))
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        with use(language(lang)):
            typer.echo(_("Wrote %(file)s.") % {"file": output})


@deal_app.command("show")
@guard
def show(
    deal: DealArg,
    json_out: JsonOption = False,
    referee: RefereeOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Show a deal: who dealt, its ruling and its record."""
    from tally.store import as_json

    with reading(db) as store:
        deal_id = store.deals.id_of(deal)
        d = store.deals.view(deal_id, referee=referee)
        text = store.deals.export(deal_id) if d.kind == "recorded" else None
    if json_out:
        echo_json({**as_json(d), "record": text})
        return
    with use(language(lang)):
        where = {
            "match": d.match_id,
            "number": d.number,
            "id": d.id,
            "dealer": d.dealer,
            "forehand": d.forehand,
            "card": d.turn_up,
        }
        typer.echo(
            _(
                "Deal %(match)s.%(number)s (deal %(id)s): %(dealer)s dealt, "
                "%(forehand)s led, turn-up %(card)s."
            )
            % where
            if d.turn_up
            else _("Deal %(match)s.%(number)s (deal %(id)s): %(dealer)s dealt, %(forehand)s led.")
            % where
        )
        for v in d.violations:
            typer.echo(
                _("Trick %(trick)s: %(player)s broke %(rule)s: %(message)s.")
                % {
                    "trick": v.trick,
                    "player": v.player,
                    "rule": word(v.rule),
                    "message": message_words(v.wording),
                }
            )
        if d.finished:
            typer.echo(ruling_line(d))
        else:
            typer.echo(_("Being played. %(turn)s") % {"turn": turn_line(d)})
        counted = counted_line(d) if d.finished or referee else None
        if counted:
            typer.echo(counted)
    if text:
        typer.echo("")
        typer.echo(text, nl=False)


DryRunOption = Annotated[
    bool, typer.Option("--dry-run", help="Show what the correction changes; store nothing.")
]
YesOption = Annotated[
    bool, typer.Option("--yes", "-y", help="Store the correction without asking.")
]


def _edited_record(deal_id: int, text: str, record: Path | None) -> tuple[str, Path | None]:
    """The corrected record: read from ``record``, else edited in $EDITOR from ``text`` (the
    file the editor wrote is returned too, to keep when the correction is refused)."""
    if record is not None:
        try:
            return record.read_text(encoding="utf-8"), None
        except (OSError, UnicodeDecodeError) as exc:
            raise Refused(
                Message(
                    N_("%(file)s: cannot be read (%(error)s)"),
                    file=record,
                    error=exc.__class__.__name__,
                )
            ) from None
    editor = os.environ.get("EDITOR") or os.environ.get("VISUAL") or "vi"
    fd, name = tempfile.mkstemp(prefix=f"tally-deal-{deal_id}-", suffix=".deal")
    path = Path(name)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    done = subprocess.run([*shlex.split(editor), str(path)], check=False)
    if done.returncode != 0:
        path.unlink(missing_ok=True)
        raise Refused(
            Message(
                N_("the editor (%(editor)s) failed with status %(status)s; nothing was changed"),
                editor=editor,
                status=done.returncode,
            )
        )
    return path.read_text(encoding="utf-8"), path


@deal_app.command("edit")
@guard
def edit(
    deal: DealArg,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", metavar="FILE", help="Take the corrected record from FILE, not $EDITOR."
        ),
    ] = None,
    winner: Annotated[
        str | None, typer.Option(help="A deal entered as a result: who won it.")
    ] = None,
    points: Annotated[
        int | None, typer.Option(help="A deal entered as a result: its game points.")
    ] = None,
    reason: Annotated[
        str | None,
        typer.Option(help="A deal entered as a result: why it was won (as tally deal quick)."),
    ] = None,
    draw: Annotated[
        bool, typer.Option("--draw", help="A deal entered as a result: it was drawn.")
    ] = False,
    dry_run: DryRunOption = False,
    yes: YesOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Correct a deal's whole record in $EDITOR (or from --record FILE).

    The record is checked by the engine, then what it changes is shown (who wins each changed
    trick, declarations that change hands, the deal's result and the match score before and
    after) and asked about before it is saved. A deal entered as a result (tally deal quick)
    is corrected with --winner, --points and --reason, or --draw, shown and asked the same
    way."""
    result = (winner, points, reason, draw)
    view = None
    with opened(db, scorer) as store:
        deal_id = store.deals.id_of(deal)
        old = store.deals.view(deal_id)
        if old.kind == "quick" or result != (None, None, None, False):
            _edit_quick(store, old, result, dry_run=dry_run, yes=yes, lang=lang)
            return
        text = store.deals.export(deal_id)
        edited, path = _edited_record(deal_id, text, record)
        keep = False
        try:
            with use(language(lang)):
                if edited == text:
                    typer.echo(_("No change."))
                    return
                asked = store.consequences.record_correction(deal_id, edited)
                if not asked_correction(asked, dry_run=dry_run, yes=yes):
                    keep = path is not None and asked.changes_anything
                    if keep:
                        typer.echo(in_language(Message(EDIT_KEPT, path=path)))
                    return
            view = store.deals.edit(deal_id, edited, expect=asked.mark)
        except TallyError as exc:
            keep = path is not None
            if path is None:
                raise
            fail(Message(THEN, refusal=exc.wording, then=Message(EDIT_KEPT, path=path)))
        finally:
            if path is not None and not keep:
                path.unlink(missing_ok=True)
    with use(language(lang)):
        if view is None:
            typer.echo(_("No change."))
            return
        typer.echo(
            _("Saved deal %(match)s.%(number)s.") % {"match": view.match_id, "number": view.number}
        )
        if view.finished:
            typer.echo(ruling_line(view))


def _edit_quick(
    store: Store,
    old: DealView,
    result: tuple[str | None, int | None, str | None, bool],
    *,
    dry_run: bool,
    yes: bool,
    lang: str | None,
) -> None:
    """``tally deal edit`` of a deal entered as a result: the new result said with what it
    changes (``store.consequences.quick_correction``, as the director's page says it), then
    stored when confirmed."""
    number = f"{old.match_id}.{old.number}"
    if old.kind != "quick":
        fail(Message(RECORDED_NOT_QUICK, deal=number))
    winner, points, reason, draw = result
    if (winner, points, reason, draw) == (None, None, None, False):
        fail(Message(QUICK_NEEDS_RESULT, deal=number))
    kept = old.reason if old.reason not in (None, "draw") else "claim"
    terms = _quick_terms(winner, points, reason or kept, draw)
    with use(language(lang)):
        asked = store.consequences.quick_correction(old.id, **terms)
        if not asked_correction(asked, dry_run=dry_run, yes=yes):
            return
    view = store.deals.edit_quick_result(old.id, **terms, expect=asked.mark)
    with use(language(lang)):
        if view is None:
            typer.echo(_("No change."))
            return
        typer.echo(
            _("Saved deal %(match)s.%(number)s.") % {"match": view.match_id, "number": view.number}
        )
        typer.echo(ruling_line(view))


#: ``tally deal edit`` of a deal entered as a result, without the new result
QUICK_NEEDS_RESULT = N_(
    "deal %(deal)s was entered as a result: give the corrected one with --winner NAME "
    "--points N [--reason R], or --draw"
)
#: ``tally deal edit`` with a quick result's options, of a deal recorded trick by trick
RECORDED_NOT_QUICK = N_(
    "deal %(deal)s is recorded trick by trick: correct its record (without --winner, "
    "--points, --reason or --draw)"
)


@deal_app.command("delete")
@guard
def delete(
    deal: DealArg, db: DbOption = None, scorer: ScorerOption = None, lang: LangOption = None
) -> None:
    """Delete the last deal of a match (`tally audit undo` brings it back)."""
    with opened(db, scorer) as store:
        d = store.deals.delete(store.deals.id_of(deal))
    with use(language(lang)):
        typer.echo(
            _("Deleted deal %(match)s.%(number)s (deal %(id)s).")
            % {"match": d.match_id, "number": d.number, "id": d.id}
        )
