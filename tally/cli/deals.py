"""``tally deal``: record deals trick by trick, enter or import them, correct them.

Every action goes through the engine before it is stored: an action that would make the record
impossible (RULES.md section 11) is refused with the engine's reason and nothing is stored; a
violation is stored (it happened at the table) and announced at once, as is the ruling when a
deal ends. Running counted points are never shown unless ``--referee`` is given.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, fail, guard
from tally.cli.storage import (
    DbOption,
    JsonOption,
    ScorerOption,
    counted_line,
    opened,
    reading,
    ruling_line,
    score_line,
)
from tally.errors import NotFound, Refused, TallyError

if TYPE_CHECKING:
    from tally.store import DealView, PlayResult, Store

deal_app = typer.Typer(help="Deals: start, play, undo, record interactively, quick entry, "
                            "import, export, edit, delete, show.", no_args_is_help=True)
app.add_typer(deal_app, name="deal")

MatchArg = Annotated[int, typer.Argument(metavar="MATCH", help="The match number.")]
DealArg = Annotated[str, typer.Argument(
    metavar="DEAL", help="The deal: its number (17) or MATCH.DEAL (3.2).")]
DealOption = Annotated[str | None, typer.Option(
    "--deal", metavar="DEAL", help="The deal (17 or 3.2) instead of MATCH's current deal.")]
RefereeOption = Annotated[bool, typer.Option(
    "--referee", help="Show counted points while the deal is being played (for a referee).")]


# --- what the scorer is told ------------------------------------------------------------------


def turn_line(deal: DealView) -> str:
    """Whose turn it is: ``Trick 3: Bert to lead.``"""
    if deal.to_move is None:
        return f"Deal {deal.match_id}.{deal.number} is over."
    return f"Trick {deal.trick}: {deal.to_move} to {deal.to_move_as}."


def describe_play(result: PlayResult, *, referee: bool, undo: bool = False) -> list[str]:
    """What recording (or undoing) told the table, line by line."""
    d = result.deal
    tokens = " ".join(result.tokens)
    out = [f"Undid {tokens} in deal {d.match_id}.{d.number}." if undo
           else f"Recorded {tokens} in deal {d.match_id}.{d.number}."]
    for v in result.new_violations:
        out.append(f"Violation in trick {v.trick}: {v.player} broke {v.rule}: {v.message}.")
    if d.finished and result.ruling_changed:
        out.append(ruling_line(d))
        counted = counted_line(d)
        if counted:
            out.append(counted)
        out.append(score_line(result.match))
        if d.claimable:
            out.append("Every trick is played: a claim may still follow (66 or 66@Name).")
        elif d.to_move is not None:
            out.append(f"The deal is ruled; play may still be recorded in it ({turn_line(d)})")
        return out
    if d.to_move is not None:
        out.append(turn_line(d))
    if referee and d.points is not None and d.to_move is not None:
        pts = ", ".join(f"{n} {p}" for n, p in d.points.items())
        out.append(f"Counted points (for the referee): {pts}.")
    return out


def _target_deal(store: Store, args: list[str], deal: str | None,
                 need_tokens: bool) -> tuple[int, list[str]]:
    """The deal to act on and the remaining arguments: ``--deal`` or MATCH's current deal."""
    if deal is not None:
        return store.deal_id(deal), args
    if not args:
        raise Refused("give the match (or --deal DEAL)")
    match, rest = args[0], args[1:]
    if not (match.isascii() and match.isdigit()) or len(match) > 18:
        raise NotFound(f'"{match[:30]}" is not a match number (or give --deal DEAL)')
    if need_tokens and not rest:
        raise Refused("nothing to record: give cards or actions (KS, swap, 20 QC, close, 66)")
    return store.current_deal(int(match)), rest


# --- commands --------------------------------------------------------------------------------


@deal_app.command("start")
@guard
def start(
    match: MatchArg,
    turn_up: Annotated[str, typer.Argument(metavar="TURNUP", help="The turn-up card, e.g. QH.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Start the next deal of a match with its turn-up card."""
    with opened(db, scorer) as store:
        d = store.start_deal(match, turn_up)
    typer.echo(f"Deal {d.match_id}.{d.number} (deal {d.id}): {d.dealer} deals, turn-up "
               f"{d.turn_up}. {turn_line(d)}")


@deal_app.command("play")
@guard
def play(
    args: Annotated[list[str], typer.Argument(
        metavar="[MATCH] ACTIONS...",
        help="The match, then cards and actions: KS AS, swap, 20 QC, 40 KH, close, 66, "
             "66@Name.")],
    deal: DealOption = None,
    referee: RefereeOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Record cards and actions in the deal being played."""
    with opened(db, scorer) as store:
        deal_id, tokens = _target_deal(store, args, deal, need_tokens=True)
        result = store.play(deal_id, tokens, referee=referee)
    typer.echo("\n".join(describe_play(result, referee=referee)))


@deal_app.command("undo")
@guard
def undo(
    match: Annotated[int | None, typer.Argument(metavar="[MATCH]", help="The match.")] = None,
    deal: DealOption = None,
    referee: RefereeOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Remove the last action recorded in a deal."""
    with opened(db, scorer) as store:
        deal_id, _ = _target_deal(store, [] if match is None else [str(match)], deal, False)
        result = store.undo(deal_id, referee=referee)
    typer.echo("\n".join(describe_play(result, referee=referee, undo=True)))


@deal_app.command("record")
@guard
def record(
    match: MatchArg,
    referee: RefereeOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Record a match interactively, deal after deal, one line at a time from stdin.

    At each prompt type a card or action (KS, swap, 20 QC, close, 66, 66@Name; several on one
    line are fine), "undo" to take back the last one, or "quit". Refusals are shown and the
    recording goes on.
    """
    with opened(db, scorer) as store:
        _record_loop(store, match, referee)


def _ask(prompt: str) -> str | None:
    """Print ``prompt`` and read a line from stdin; None at the end of the input."""
    typer.echo(prompt, nl=False)
    line = sys.stdin.readline()
    return line.strip() if line else None


def _record_loop(store: Store, match: int, referee: bool) -> None:
    while True:
        m = store.match_state(match)
        if m.over:
            typer.echo(score_line(m))
            return
        if m.current_deal is None:
            a, b = m.players
            n = len(m.deals) + 1
            forehand = b if m.next_dealer == a else a
            line = _ask(f"Deal {m.id}.{n}: {m.next_dealer} deals, {forehand} leads. Turn-up? ")
            if line is None or line.lower() in ("quit", "q"):
                _stopped(match)
                return
            if not line:
                continue
            try:
                if line.lower() == "undo" and m.deals:
                    result = store.undo(m.deals[-1].id, referee=referee)
                    typer.echo("\n".join(describe_play(result, referee=referee, undo=True)))
                    continue
                view = store.start_deal(match, line)
            except TallyError as exc:
                typer.echo(f"Refused: {exc}")
                continue
            typer.echo(f"Deal {view.match_id}.{view.number}: turn-up {view.turn_up}.")
        else:
            view = store.deal_view(m.current_deal, referee=referee)
            typer.echo(f"Deal {view.match_id}.{view.number} goes on.")
        if not _play_deal(store, view, referee):
            _stopped(match)
            return


def _stopped(match: int) -> None:
    typer.echo(f"\nStopped; everything recorded is saved. Go on with `tally deal record "
               f"{match}`.")


def _play_deal(store: Store, view: DealView, referee: bool) -> bool:
    """Record one deal until it is ruled; False when the scorer quits."""
    while True:
        if view.finished and not view.claimable:
            return True
        if view.claimable:
            prompt = "Every trick is played. Claim (66, 66@Name), or Enter to go on> "
        else:
            prompt = f"[{view.match_id}.{view.number} trick {view.trick}] {view.to_move} to " \
                     f"{view.to_move_as}> "
        line = _ask(prompt)
        if line is None or line.lower() in ("quit", "q"):
            return False
        if not line:
            if view.claimable:
                return True
            continue
        try:
            if line.lower() == "undo":
                result = store.undo(view.id, referee=referee)
            else:
                result = store.play(view.id, line, referee=referee)
        except TallyError as exc:
            typer.echo(f"Refused: {exc}")
            continue
        typer.echo("\n".join(describe_play(result, referee=referee, undo=line.lower() == "undo")))
        view = result.deal


@deal_app.command("quick")
@guard
def quick(
    match: MatchArg,
    winner: Annotated[str | None, typer.Option(help="Who won the deal.")] = None,
    points: Annotated[int | None, typer.Option(
        help="Game points of the deal, without the carry.")] = None,
    reason: Annotated[str, typer.Option(
        help="claim, false-claim, failed-close, illegal-play, last-trick or higher-total.")
    ] = "claim",
    draw: Annotated[bool, typer.Option("--draw", help="The deal was drawn.")] = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Enter a deal's result without recording it trick by trick."""
    if draw == (winner is not None):
        fail("give either --winner NAME --points N [--reason R] or --draw")
    if draw:
        win, pts, why = None, 0, "draw"
    else:
        if points is None:
            fail("give the deal's game points: --points N")
        win, pts, why = winner, points, reason
    with opened(db, scorer) as store:
        d = store.quick_result(match, winner=win, points=pts, reason=why)
        m = store.match_state(match)
    typer.echo(f"Entered deal {d.match_id}.{d.number} (deal {d.id}). {ruling_line(d)}")
    typer.echo(score_line(m))


@deal_app.command("import")
@guard
def import_(
    match: MatchArg,
    files: Annotated[list[Path], typer.Argument(help="Deal records (.deal), in play order.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Import .deal records as the next deals of a match (all or nothing)."""
    sources = [(str(f), f.read_text(encoding="utf-8")) for f in files]
    with opened(db, scorer) as store:
        views = store.import_deals(match, sources)
        m = store.match_state(match)
    for f, d in zip(files, views, strict=True):
        typer.echo(f"Imported {f} as deal {d.match_id}.{d.number} (deal {d.id}).")
        if d.finished:
            typer.echo("  " + ruling_line(d))
    typer.echo(score_line(m))


@deal_app.command("export")
@guard
def export(
    deal: DealArg,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to FILE.")] = None,
    db: DbOption = None,
) -> None:
    """Print a recorded deal as a canonical .deal record."""
    with reading(db) as store:
        text = store.export_deal(store.deal_id(deal))
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"Wrote {output}.")


@deal_app.command("show")
@guard
def show(deal: DealArg, json_out: JsonOption = False, referee: RefereeOption = False,
         db: DbOption = None) -> None:
    """Show a deal: who dealt, its ruling and its record."""
    from tally.store import as_json

    with reading(db) as store:
        deal_id = store.deal_id(deal)
        d = store.deal_view(deal_id, referee=referee)
        text = store.export_deal(deal_id) if d.kind == "recorded" else None
    if json_out:
        echo_json({**as_json(d), "record": text})
        return
    typer.echo(f"Deal {d.match_id}.{d.number} (deal {d.id}): {d.dealer} dealt, {d.forehand} "
               f"led" + (f", turn-up {d.turn_up}." if d.turn_up else "."))
    for v in d.violations:
        typer.echo(f"Trick {v.trick}: {v.player} broke {v.rule}: {v.message}.")
    if d.finished:
        typer.echo(ruling_line(d))
    else:
        typer.echo(f"Being played. {turn_line(d)}")
    counted = counted_line(d) if d.finished or referee else None
    if counted:
        typer.echo(counted)
    if text:
        typer.echo("")
        typer.echo(text, nl=False)


@deal_app.command("edit")
@guard
def edit(deal: DealArg, db: DbOption = None, scorer: ScorerOption = None) -> None:
    """Edit a deal's whole record in $EDITOR; it is checked by the engine before it is saved."""
    editor = os.environ.get("EDITOR") or os.environ.get("VISUAL") or "vi"
    with opened(db, scorer) as store:
        deal_id = store.deal_id(deal)
        text = store.export_deal(deal_id)
        fd, name = tempfile.mkstemp(prefix=f"tally-deal-{deal_id}-", suffix=".deal")
        path = Path(name)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        keep = False
        try:
            done = subprocess.run([*shlex.split(editor), str(path)], check=False)
            if done.returncode != 0:
                raise Refused(f"the editor ({editor}) failed with status {done.returncode}; "
                              "nothing was changed")
            edited = path.read_text(encoding="utf-8")
            if edited == text:
                typer.echo("No change.")
                return
            try:
                view = store.edit_deal(deal_id, edited)
            except TallyError as exc:
                keep = True
                fail(f"{exc}\n       nothing was changed; your edit is kept in {path}")
        finally:
            if not keep:
                path.unlink(missing_ok=True)
    if view is None:
        typer.echo("No change.")
        return
    typer.echo(f"Saved deal {view.match_id}.{view.number}.")
    if view.finished:
        typer.echo(ruling_line(view))


@deal_app.command("delete")
@guard
def delete(deal: DealArg, db: DbOption = None, scorer: ScorerOption = None) -> None:
    """Delete the last deal of a match (`tally audit undo` brings it back)."""
    with opened(db, scorer) as store:
        d = store.delete_deal(store.deal_id(deal))
    typer.echo(f"Deleted deal {d.match_id}.{d.number} (deal {d.id}).")
