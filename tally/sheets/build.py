"""What is stored, as the plain sheets of :mod:`tally.sheets.data`, ready for
:mod:`tally.sheets.render`.

Each function reads an open :class:`~tally.store.Store` (or a deal record) and returns a frozen
sheet dataclass; nothing here lays out a page or keeps a session open::

    with open_store(url) as store:
        sheet = match_scoresheet(store, 3)
    write_pdf(render_scoresheet(sheet), "scoresheet-match-3.pdf")

A ruling sheet is built from the deal's record as exported (``store.deals.export``), read
again (:func:`tally.engine.notation.read_deal`) and ruled with
:func:`tally.engine.ruling.summarize`, so the sheet shows exactly what ``tally check`` would say of
that record.

Words a builder composes (a score sheet's "round 2, table 3", the rules a ruling quotes, the
analysis's sentences) are in the current language (:func:`tally.i18n.use`): build and render
inside the same ``with use(lang):``. The engine's explanation of a ruling and its violations
are messages, worded by the sheet in its language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from tally.engine.cards import Card, Rank
from tally.engine.notation import (
    ClaimItem,
    CloseItem,
    DealRecord,
    Item,
    MarriageItem,
    SwapItem,
    read_deal,
)
from tally.engine.rulebook import VIOLATION_TEXT, reason_text
from tally.engine.rules import RuleSet
from tally.engine.ruling import TrickSummary, summarize
from tally.errors import N_, Advice, Message, Refused, TallyError
from tally.i18n import gettext as _
from tally.sheets.data import (
    Declaration,
    Ruling,
    RulingSheet,
    ScoreRow,
    ScoreSheet,
    TrickRow,
    Violation,
)
from tally.vocabulary import message_words, stage_words, word

if TYPE_CHECKING:
    from tally.analysis.findings import DealAnalysis
    from tally.analysis.report import AnalysisReport
    from tally.engine.decision import Ruling as EngineRuling
    from tally.sheets.data import (
        AnalysisRow,
        AnalysisSheet,
        DealAnalysisPart,
        PairingsSheet,
        RoundTable,
        StandingsSheet,
    )
    from tally.store.store import Store
    from tally.store.views import (
        CrossTableView,
        EventView,
        MatchView,
        RoundByRoundView,
        RoundView,
        StandingsView,
    )

__all__ = [
    "MatchAnalyses",
    "analysis_part",
    "deal_ruling_sheet",
    "match_analyses",
    "match_analysis_sheet",
    "match_scoresheet",
    "record_ruling_sheet",
    "score_rows",
]

#: Tags a ruling sheet shows in places of their own; the others are listed as they are.
_SHOWN_TAGS = ("Event", "Rules", "Dealer", "Forehand", "Trump", "Carry", "Result")


def _now() -> datetime:
    return datetime.now().replace(second=0, microsecond=0)


# ------------------------------------------------------------------------------ score sheet


def score_rows(match: MatchView) -> tuple[ScoreRow, ...]:
    """The deals of a stored match as score sheet rows, in the match's player order."""
    a, b = match.players
    rows = []
    for d in match.deals:
        if not d.finished:
            rows.append(ScoreRow(d.number, d.dealer))
            continue
        points = (d.game_points if d.winner == a else 0, d.game_points if d.winner == b else 0)
        rows.append(
            ScoreRow(
                d.number,
                d.dealer,
                points,
                carried_in=d.carry_in if d.winner is not None else 0,
                carry=d.carry_out,
                score=(d.score_after[a], d.score_after[b]),
            )
        )
    return tuple(rows)


def match_scoresheet(
    store: Store, match_id: int, *, printed_at: datetime | None = None
) -> ScoreSheet:
    """The score sheet of a stored match: its players, rules and target, the deals played so
    far filled in, who deals next, and the winner once it is over; the event's name, and for
    a round robin the round and table, when the match belongs to an event.
    """
    m = store.matches.state(match_id)
    event_name = place = ""
    if m.event_id is not None:
        event_name = store.events.get(m.event_id).name
        if m.round is not None and m.table is not None:
            place = _("round %(round)s, table %(table)s") % {"round": m.round, "table": m.table}
    a, b = m.players
    if not 1 <= m.target <= 99:
        raise Refused(
            Message(
                N_(
                    "match %(match)s is played to %(target)s game points: a score sheet has "
                    "room for a match to 1-99"
                ),
                match=m.id,
                target=m.target,
            )
        )
    rows = score_rows(m)
    next_dealer = ""
    if m.current_deal is None and not m.over:
        next_dealer = m.next_dealer or ""
    return ScoreSheet(
        rule_set=m.rules,
        match_target=m.target,
        player_one=a,
        player_two=b,
        event=event_name,
        place=place,
        printed_at=printed_at or _now(),
        match_id=m.id,
        deals=rows,
        next_dealer=next_dealer,
        winner=m.winner or "",
    )


# ------------------------------------------------------------------------------ ruling


def _agreed(result_tag: str | None) -> tuple[str | None, int | None]:
    """The winner and game points a ``Result`` tag gives (``(None, 0)`` for a draw)."""
    if result_tag is None:
        return None, None
    text = result_tag.strip()
    if text.lower() == "draw":
        return None, 0
    name, _, points = text.rpartition(" ")
    if not name.strip() or not points.isdigit():  # the engine refuses such a record first
        return None, None
    return name.strip(), int(points)


def _declarations(
    items: Sequence[Item], notes: Sequence[tuple[str, str]], rules: RuleSet, turn_up: Card
) -> tuple[Declaration, ...]:
    """The declarations of one trick line: its items other than cards, in order, each with
    the player the ruling's summary names for it (one note per such item)."""
    out = []
    declared = [i for i in items if isinstance(i, MarriageItem | SwapItem | CloseItem | ClaimItem)]
    for item, (player, _text) in zip(declared, notes, strict=True):
        if isinstance(item, MarriageItem):
            partner = Rank.KING if item.card.rank == Rank.QUEEN else Rank.QUEEN
            cards = sorted((item.card, Card.of(partner, item.card.suit)), reverse=True)
            out.append(Declaration("marriage", player, tuple(str(c) for c in cards), item.value))
        elif isinstance(item, SwapItem):
            exchange = Card.of(rules.exchange_card, turn_up.suit)
            out.append(Declaration("exchange", player, (str(exchange), str(turn_up))))
        elif isinstance(item, CloseItem):
            out.append(Declaration("close", player))
        else:
            out.append(Declaration("claim", player))
    return tuple(out)


def _trick_rows(
    record: DealRecord,
    summaries: Sequence[TrickSummary],
    players: tuple[str, str],
    rules: RuleSet,
    turn_up: Card,
) -> tuple[TrickRow, ...]:
    rows = []
    for line, s in zip(record.tricks, summaries, strict=True):
        rows.append(
            TrickRow(
                number=s.number,
                leader=s.leader,
                lead_card=str(s.lead) if s.lead is not None else "",
                follow_card=str(s.follow) if s.follow is not None else "",
                winner=s.winner or "",
                points=(s.points[players[0]], s.points[players[1]]),
                declarations=_declarations(line.items, s.declarations, rules, turn_up),
            )
        )
    return tuple(rows)


def _refuse_without_ruling(where: str | Message, ruling: EngineRuling) -> None:
    """Refuse a record with errors, or one that stops before the deal ended: there is no
    ruling to print (``where``: the deal, as the sheet names it)."""
    if ruling.errors:
        raise Refused(
            Message(
                N_("%(where)s cannot be ruled on: %(error)s"),
                where=where,
                error=ruling.errors[0].said,
            )
        )
    if ruling.outcome is None or ruling.outcome.reason == "incomplete":
        raise Refused(
            Message(
                N_(
                    "%(where)s is not finished: the record stops before the deal ended, so "
                    "there is no ruling to print yet"
                ),
                where=where,
            )
        )


def _sheet_ruling(ruling: EngineRuling, order: tuple[str, str], rules: RuleSet) -> Ruling:
    """The ruling as the dispute sheet prints it: winner, game points, the reason in words
    (a sentence), the violations with their rule text, and the result the players agreed."""
    outcome = ruling.outcome
    assert outcome is not None
    violations = tuple(
        Violation(
            rule=v.rule,
            description=message_words(v.wording, spoken=True),
            rule_text=_(VIOLATION_TEXT[v.rule]) if v.rule in VIOLATION_TEXT else "",
            player=v.player,
            trick=v.trick,
        )
        for v in ruling.violations
    )
    agreed_winner, agreed_points = _agreed(ruling.result_tag)
    reason = (
        message_words(ruling.wording, spoken=True)
        if ruling.explanation
        else word(outcome.reason, spoken=True)
    )
    if not reason.startswith(order):  # "nobody claimed; ...", not a player's name
        reason = reason[0].upper() + reason[1:]
    reason += "."
    return Ruling(
        winner=outcome.winner,
        game_points=outcome.game_points,
        reason=reason,
        violations=violations,
        agreed_winner=agreed_winner,
        agreed_game_points=agreed_points,
        rule=outcome.reason,
        rule_text=reason_text(outcome.reason, rules, _),
    )


def record_ruling_sheet(
    record: DealRecord,
    *,
    players: tuple[str, str] | None = None,
    place: str = "",
    event: str | None = None,
    printed_at: datetime | None = None,
    analyse: bool = False,
    samples: int = 200,
    seed: int = 0,
) -> RulingSheet:
    """The dispute sheet of a deal record: its tags, each trick line, and the ruling with the
    rules that decide it quoted from the rule book; with ``analyse``, the findings of
    :func:`tally.analysis.findings.analyse` (``samples``, ``seed``) too (:func:`analysis_part`).

    ``players`` sets the order of the point columns (default: forehand, dealer); ``event``
    defaults to the record's ``Event`` tag. Raises :class:`Refused` for a record with errors
    or one that stops before the deal ended: there is no ruling to print.
    """
    ruling, summaries = summarize(record)
    _refuse_without_ruling(place or record.source or Message(N_("the record")), ruling)
    rules = RuleSet.parse(ruling.rules)
    tags = record.tags
    order = players or (ruling.forehand, ruling.dealer)
    turn_up = Card.parse(tags["Trump"])
    verdict = _sheet_ruling(ruling, order, rules)
    extra = tuple((k, v) for k, v in tags.items() if k not in _SHOWN_TAGS)
    return RulingSheet(
        event=tags.get("Event", "") if event is None else event,
        players=order,
        dealer=ruling.dealer,
        forehand=ruling.forehand,
        turn_up=str(turn_up),
        trumps=turn_up.suit.letter,
        rules=rules.spec,
        tricks=_trick_rows(record, summaries, order, rules, turn_up),
        ruling=verdict,
        printed_at=printed_at or _now(),
        carry=ruling.carry_in,
        place=place,
        extra_tags=extra,
        analysis=analysis_part(record, samples=samples, seed=seed) if analyse else None,
    )


def deal_ruling_sheet(
    store: Store,
    ref: str | int,
    *,
    printed_at: datetime | None = None,
    analyse: bool = False,
    samples: int = 200,
    seed: int = 0,
) -> RulingSheet:
    """The dispute sheet of a stored deal (``ref``: its id ``"17"`` or ``"MATCH.DEAL"``), with
    its analysis when ``analyse`` (:func:`record_ruling_sheet`).

    The points columns follow the match's player order. Refused for a deal entered as a
    result (it has no record) and for a deal still being played.
    """
    deal_id = store.deals.id_of(ref)
    view = store.deals.view(deal_id)
    name = Message(N_("deal %(match)s.%(deal)s"), match=view.match_id, deal=view.number)
    if view.kind == "quick":
        raise Refused(
            Message(
                N_(
                    "%(deal)s was entered as a result (quick entry): it has no record to "
                    "print a ruling from"
                ),
                deal=name,
            )
        )
    if not view.finished:
        raise Refused(
            Message(
                N_("%(deal)s is still being played: there is no ruling to print yet"), deal=name
            )
        )
    match = store.matches.state(view.match_id)
    try:
        record = read_deal(store.deals.export(deal_id), source=str(name))
    except TallyError as exc:  # pragma: no cover - the store keeps only readable records
        raise Refused(
            Message(
                N_("%(deal)s: the stored record cannot be read: %(error)s"),
                deal=name,
                error=exc.wording,
            )
        ) from None
    return record_ruling_sheet(
        record,
        players=match.players,
        place=_("match %(match)s, deal %(deal)s") % {"match": view.match_id, "deal": view.number},
        printed_at=printed_at,
        analyse=analyse,
        samples=samples,
        seed=seed,
    )


# ------------------------------------------------------------------------------ analysis


def analysis_part(record: DealRecord, *, samples: int = 200, seed: int = 0) -> DealAnalysisPart:
    """The "Analysis" part of a ruling sheet: :func:`tally.analysis.findings.analyse` of ``record``,
    worded by :mod:`tally.analysis.wording` as ``tally analyse`` words it, with closing against
    playing on at every phase-1 lead; a one-line note for a record with errors or violations.
    """
    from tally.analysis.findings import UNANALYSABLE
    from tally.analysis.findings import analyse as analyse_record
    from tally.analysis.wording import findings
    from tally.sheets.data import AnalysisLine, DealAnalysisPart, DecisionRow
    from tally.sheets.graph import value_graph

    found = analyse_record(record, samples=samples, seed=seed)
    if found.note.startswith(UNANALYSABLE):
        return DealAnalysisPart(
            note=_("not analysed, %(why)s.") % {"why": _(UNANALYSABLE)}, samples=samples, seed=seed
        )
    lines = tuple(AnalysisLine(f.label, f.text) for f in findings(found, decisions=False))
    decisions = tuple(
        DecisionRow(
            d.trick,
            d.player,
            d.closed,
            d.close_now,
            d.play_on,
            d.better,
            d.samples,
            margin=d.margin,
            play_on_exact=d.play_on_exact,
        )
        for d in found.decisions
    )
    graph = value_graph(
        found.marks,
        found.players,
        _("The deal's value after each decision, in game points for %(player)s")
        % {"player": found.players[0]},
        _("closing or not: by what the player on lead knew, not both hands"),
    )
    return DealAnalysisPart(
        lines, decisions, samples=samples, seed=seed, marks=found.marks, graph=graph
    )


def analysis_row(deal: str, found: DealAnalysis) -> AnalysisRow:
    """One deal's line on the match's analysis sheet."""
    from tally.analysis.findings import UNANALYSABLE
    from tally.analysis.wording import claim_verdict
    from tally.sheets.data import AnalysisRow

    f = found.close or found.phase2
    claim = "" if found.claim is None else claim_verdict(found.claim)
    if found.note.startswith(UNANALYSABLE):
        return AnalysisRow(deal, claim=claim, note=UNANALYSABLE)
    if f is None:
        return AnalysisRow(deal, claim=claim, note=found.note)
    closer = found.close.player if found.close is not None else ""
    return AnalysisRow(
        deal,
        closer=closer,
        trick=f.trick,
        sound=found.close.sound if found.close is not None else None,
        exact=f.exact,
        samples=f.samples,
        as_played=f.as_played,
        best=f.best,
        side=f.player,
        claim=claim,
        note=found.note,
    )


@dataclasses.dataclass(frozen=True)
class MatchAnalyses:
    """What the analysis found in a match's finished recorded deals (``found[i]`` is the
    deal ``refs[i]``, ``MATCH.DEAL``), and how many deals were entered as a result (no record,
    ``skipped``): the one analysis the match's analysis sheet and a player's report read."""

    match: MatchView
    refs: tuple[str, ...]
    found: tuple[DealAnalysis, ...]
    skipped: int

    def totals(self) -> AnalysisReport:
        """Per player, the closes and claims of the match (:func:`tally.analysis.report.report`),
        the match's players first."""
        from tally.analysis.report import report

        return report(
            f"match {self.match.id}", self.found, skipped=self.skipped, players=self.match.players
        )


def match_analyses(
    store: Store, match_ids: Sequence[int], *, samples: int = 200, seed: int = 0, jobs: int = 1
) -> dict[int, MatchAnalyses]:
    """Every finished recorded deal of the matches ``match_ids`` exported through the store and
    analysed, all in one batch (by ``jobs`` processes:
    :func:`tally.analysis.batch.analyse_records`); deals entered as a result are counted as
    skipped, a deal still being played is left out (nothing to say yet)."""
    from tally.analysis.batch import analyse_records

    states, records, skipped = [], [], {}
    for match_id in match_ids:
        m = store.matches.state(match_id)
        states.append(m)
        skipped[m.id] = sum(1 for d in m.deals if d.kind != "recorded")
        for d in m.deals:
            if d.kind == "recorded" and d.finished:
                ref = f"{m.id}.{d.number}"
                records.append((m.id, ref, read_deal(store.deals.export(d.id), source=ref)))
    found = list(
        analyse_records([(r, rec) for _, r, rec in records], samples=samples, seed=seed, jobs=jobs)
    )
    return {
        m.id: MatchAnalyses(
            m,
            tuple(r for mid, r, _ in records if mid == m.id),
            tuple(a for (mid, _, _), a in zip(records, found, strict=True) if mid == m.id),
            skipped[m.id],
        )
        for m in states
    }


def match_analysis_sheet(
    store: Store,
    match_id: int,
    *,
    samples: int = 200,
    seed: int = 0,
    printed_at: datetime | None = None,
    jobs: int = 1,
) -> AnalysisSheet:
    """A whole match's closes: a row for each deal :func:`match_analyses` analysed, and the
    per-player totals of :mod:`tally.analysis.report`; deals entered as a result are counted as
    skipped."""
    from tally.sheets.data import AnalysisSheet, AnalysisTotal

    done = match_analyses(store, [match_id], samples=samples, seed=seed, jobs=jobs)[match_id]
    m = done.match
    event_name = ""
    if m.event_id is not None:
        event_name = store.events.get(m.event_id).name
    rows = [analysis_row(ref, a) for ref, a in zip(done.refs, done.found, strict=True)]
    totals = tuple(
        AnalysisTotal(
            p.player,
            p.deals,
            p.closes,
            p.sound_closes,
            p.lost_to_unsound_closes,
            p.late_claims,
            p.lost_to_late_claims,
            p.lost_to_closes,
            p.lost_to_claims,
            p.lost_to_cards,
        )
        for p in done.totals().players
    )
    return AnalysisSheet(
        match_id=m.id,
        players=m.players,
        rules=m.rules,
        printed_at=printed_at or _now(),
        rows=tuple(rows),
        totals=totals,
        samples=samples,
        seed=seed,
        event=event_name,
        skipped=done.skipped,
    )


def standings_sheet(
    view: StandingsView, cross: CrossTableView | None = None, *, printed_at: datetime | None = None
) -> StandingsSheet:
    """The standings of an event or a season as a sheet; ``cross`` adds the event's grid.

    The sheet's date is the event's date, or the last day of the season (today if open).
    """
    from datetime import date

    from tally.sheets.data import CrossTable, StandingRow, StandingsSheet

    event = view.event
    if event is not None:
        when, rules = event.date, event.rules
    else:
        when, rules = view.date_to or date.today(), "per event"
    rows = tuple(
        StandingRow(
            rank=r.rank,
            player=r.player,
            played=r.played,
            won=r.won,
            lost=r.lost,
            match_points=r.match_points,
            game_points_won=r.game_points_won,
            game_points_conceded=r.game_points_conceded,
            schneider_wins=r.schneider_wins,
            schwarz_wins=r.schwarz_wins,
            tiebreaks=tuple(r.tiebreak_values),
            percentage=r.percentage,
            byes=r.byes,
            running=r.running,
        )
        for r in view.rows
    )
    grid = None
    if cross is not None:
        byes = cross.byes if any(cross.byes) else ()
        grid = CrossTable(players=cross.players, cells=cross.cells, byes=byes)
    return StandingsSheet(
        event=message_words(view.title_wording) if view.title_wording else view.title,
        date=when,
        rule_set=rules,
        printed_at=printed_at or _now(),
        rows=rows,
        tiebreaks=view.tiebreaks,
        stage=stage_words(view) if view.stage else "",
        cross_table=grid,
        rank_by=view.rank_by,
        points_per_win=view.match_points_per_win,
        provisional=view.provisional,
        struck_out=view.struck_out,
    )


def event_standings_sheet(
    store: Store, ref: str | int, *, printed_at: datetime | None = None
) -> StandingsSheet:
    """The standings sheet of an event with its cross-table (a club evening's too, as the
    docs/sheets.md promises: who met whom, and how often), unless it has fewer than two players; a
    Swiss event of more than ``CROSS_TABLE_LIMIT`` players gets a round-by-round table
    instead (opponent, result, running score), a cross-table being mostly empty there."""
    from tally.sheets.data import CROSS_TABLE_LIMIT

    view = store.events.standings(ref)
    if (
        view.event is not None
        and view.event.format.pairs_from_standings
        and len(view.rows) > CROSS_TABLE_LIMIT
    ):
        sheet = standings_sheet(view, printed_at=printed_at)
        return dataclasses.replace(sheet, round_table=round_table(store.events.round_by_round(ref)))
    cross = None
    if len(view.rows) >= 2:
        cross = store.events.cross_table(ref)
    sheet = standings_sheet(view, cross, printed_at=printed_at)
    if view.event is not None and view.event.format.plays_in_teams:
        teams = store.teams.standings(view.event.id)
        sheet = dataclasses.replace(sheet, teams=teams.rows, team_rank=teams.team_rank)
    return sheet


def round_table(view: RoundByRoundView) -> RoundTable:
    """An event round by round as the sheet's table: opponents by their line."""
    from tally.sheets.data import RoundCell, RoundTable

    line = {p: i for i, p in enumerate(view.players, start=1)}
    return RoundTable(
        players=view.players,
        ranks=view.ranks,
        cells=tuple(
            tuple(
                RoundCell(None if c.opponent is None else line[c.opponent], c.result, c.total)
                for c in row
            )
            for row in view.cells
        ),
    )


def _printable_round(store: Store, ev: EventView, number: int) -> RoundView:
    """Round ``number`` of ``ev`` whose pairings can be printed: refused for an event
    without rounds and for a Swiss round not paired yet."""
    if not ev.format.has_rounds:
        raise Refused(
            Message(
                N_('event %(event)s "%(name)s" is a %(format)s: it has no rounds'),
                event=ev.id,
                name=ev.name,
                format=Message(ev.format.audit_name),
            )
        )
    rnd = store.events.rounds(ev.id, number)[0]
    if ev.format.pairs_from_standings and not rnd.started:
        raise Refused(
            Message(
                N_(
                    'round %(round)s of Swiss event %(event)s "%(name)s" is not paired yet: '
                    "start it first%(advice)s"
                ),
                round=number,
                event=ev.id,
                name=ev.name,
                advice=Advice(
                    N_(" (`tally event round %(event)s %(round)s --start`)"),
                    event=ev.id,
                    round=number,
                ),
            )
        )
    return rnd


def pairings_sheet(
    store: Store,
    ref: str | int,
    number: int,
    *,
    printed_at: datetime | None = None,
    expected: bool = True,
) -> PairingsSheet:
    """The pairings of round ``number`` of a round robin, a Swiss event (once
    started: a Swiss round is paired when it starts) or a knockout: tables, players (with
    their match points before the round, but in a knockout), first dealers, for a knockout
    how the round was drawn (with the seed), and (``expected``) each table's expected
    result from the ratings when the round started
    (:func:`tally.sheets.ratings.with_expected`)."""
    from tally.sheets.data import PairingsSheet, PairingTable

    ev = store.events.get(ref)
    rnd = _printable_round(store, ev, number)
    before: dict[str, float] = {}
    if ev.format.has_scored_rounds:
        before = store.events.round_by_round(ev.id).scores_before(rnd.number)
    rated = {
        p.name: "-" if p.seed_rating is None else f"{p.seed_rating:.1f}"
        for p in ev.players
        if ev.seeded
    }
    tables = tuple(
        PairingTable(
            p.table,
            p.first,
            p.second,
            p.first_dealer,
            score_one=before.get(p.first),
            score_two=before.get(p.second),
            rating_one=rated.get(p.first, ""),
            rating_two=rated.get(p.second, ""),
        )
        for p in rnd.pairings
    )
    sheet = PairingsSheet(
        event=ev.name,
        round_number=rnd.number,
        rule_set=ev.rules,
        printed_at=printed_at or _now(),
        tables=tables,
        byes=(rnd.bye,) if rnd.bye else (),
        date=ev.date,
        note=rnd.draw or "",
        seeded_by_rating=ev.seeded,
        absent=rnd.absent,
        absence_points=rnd.absence_points,
    )
    if not expected:
        return sheet
    from tally.sheets.ratings import with_expected

    return with_expected(store, sheet, ev.id)
