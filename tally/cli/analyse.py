"""``tally analyse``: what best play was worth in a deal, told like a commentator.

Files are read as ``tally check`` reads them; a stored deal (``3.2`` or an id) is exported
from the store (``store.deals.export``) and analysed the same way.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import CANNOT_READ, MAX_ID, echo_json, fail, guard, language
from tally.cli.options import JobsOption, LangOption
from tally.cli.storage import DbOption
from tally.errors import Message, system_reason
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.analysis.findings import DealAnalysis
    from tally.engine.notation import DealRecord

_DEAL_REF = re.compile(r"[0-9]+(\.[0-9]+)?")


@app.command()
@guard
def analyse(
    deals: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="FILE... | DEAL",
            help="Deal records (.deal), or a stored deal (3.2 or an id).",
            show_default=False,
        ),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per deal.")] = False,
    samples: Annotated[
        int,
        typer.Option(
            "--samples", min=1, max=10000, help="Consistent deals sampled when a hand is unknown."
        ),
    ] = 200,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**31, help="Seed of the sampling.")
    ] = 0,
    match: Annotated[
        int | None,
        typer.Option(
            "--match",
            metavar="MATCH",
            min=1,
            max=MAX_ID,
            help="Report a stored match: closes and claims per player.",
        ),
    ] = None,
    event: Annotated[
        str | None,
        typer.Option("--event", metavar="EVENT", help="Report a stored event (number or name)."),
    ] = None,
    jobs: JobsOption = 0,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Analyse deals: was the close sound, what was best play worth, could the claim have come
    earlier, which phase-2 card threw the deal away. With --match or --event: per player, the
    closes made and sound and the game points lost to unsound closes and to late claims."""
    from tally.analysis.batch import analyse_records
    from tally.engine.notation import decode_record, read_deal
    from tally.errors import Message, NotationError

    if sum(x is not None and x != [] for x in (deals, match, event)) != 1:
        fail(
            Message(
                N_("give deal FILEs or a DEAL, or --match MATCH, or --event EVENT (one of them)")
            )
        )
    if match is not None or event is not None:
        _report(match, event, samples, seed, json_out, db, lang, jobs)
        return
    # every file is read before any is analysed; the first that cannot be read is reported
    # after the analyses of those before it, as if they had been taken one by one
    records: list[tuple[str, DealRecord]] = []
    unreadable: Message | None = None
    for name in deals or []:
        try:
            if not Path(name).exists() and _DEAL_REF.fullmatch(name):
                text = _stored(name, db)
            else:
                text = decode_record(Path(name).read_bytes())
            record = read_deal(text, source=name)
        except (OSError, NotationError) as exc:
            said = exc.wording if isinstance(exc, NotationError) else system_reason(exc)
            unreadable = Message(CANNOT_READ, file=name, message=said)
            break
        records.append((name, record))
    for found in analyse_records(records, samples=samples, seed=seed, jobs=jobs):
        if json_out:
            echo_json(analysis_json(found))
        else:
            from tally.i18n import use

            with use(language(lang)):
                typer.echo("\n".join(commentary(found)))
    if unreadable is not None:
        fail(unreadable)


def _report(
    match: int | None,
    event: str | None,
    samples: int,
    seed: int,
    json_out: bool,
    db: str | None,
    lang: str | None = None,
    jobs: int = 0,
) -> None:
    """The match or event report: every recorded deal exported through the store's public
    API and analysed (``jobs`` processes); quick-entry deals counted as skipped."""
    from tally.analysis.batch import analyse_records
    from tally.analysis.report import report, report_lines
    from tally.cli.storage import reading
    from tally.engine.notation import read_deal

    event_language = None
    with reading(db) as store:
        if event is not None:
            ev = store.events.get(event)
            event_language = ev.language
            scope = f'event {ev.id} "{ev.name}"'
            ids = [m.id for m in store.matches.all() if m.event_id == ev.id]
            players: list[str] = [p.name for p in ev.players]
        else:
            assert match is not None
            scope, ids, players = f"match {match}", [match], []
        records, skipped = [], 0
        for mid in ids:
            state = store.matches.state(mid)
            players += [p for p in state.players if p not in players]
            for d in state.deals:
                if d.kind != "recorded":
                    skipped += 1
                    continue
                ref = f"{mid}.{d.number}"
                records.append((ref, read_deal(store.deals.export(d.id), source=ref)))
    found = list(analyse_records(records, samples=samples, seed=seed, jobs=jobs))
    result = report(scope, found, skipped=skipped, players=players)
    if json_out:
        echo_json(dataclasses.asdict(result))
    else:
        from tally.i18n import use

        with use(language(lang, event_language)):
            typer.echo("\n".join(report_lines(result)))


def analysis_json(a: DealAnalysis) -> dict[str, object]:
    """One deal's findings as ``--json`` prints them: every field, each mark with its loss and
    symbol, and per player the game points lost to closes, to claims and to card play."""
    from tally.analysis.marks import lost_by

    out = dataclasses.asdict(a)
    out["marks"] = [m.as_json() for m in a.marks]
    # how far each interval of closing less playing on reaches from the difference
    for row, d in zip(out["decisions"], a.decisions, strict=True):
        row["margin"] = round(d.margin, 4)
    if a.closer_view is not None:
        out["closer_view"]["margin"] = round(a.closer_view.margin, 4)
    out["lost"] = {name: lost_by(a.marks, name) for name in a.players}
    return out


def _stored(ref: str, db: str | None) -> str:
    """The record text of a stored deal, through the store's public API."""
    from tally.cli.storage import reading

    with reading(db) as store:
        return store.deals.export(store.deals.id_of(ref))


def commentary(a: DealAnalysis) -> list[str]:
    """The findings in plain words, one paragraph per deal (:mod:`tally.analysis.wording`)."""
    from tally.analysis.wording import every_decision, findings
    from tally.i18n import gettext as _

    head = _("%(file)s: %(rules)s, %(forehand)s (forehand) against %(dealer)s (dealer)") % {
        "file": a.file,
        "rules": a.rules,
        "forehand": a.players[0],
        "dealer": a.players[1],
    }
    tail = [f"  {every_decision(a)}"] if a.marks else []
    return [head, *(f"  {f.sentence}" for f in findings(a)), *tail]
