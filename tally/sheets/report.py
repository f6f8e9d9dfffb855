"""A player's evening: their matches and game points in one event, their closes and claims as
the analysis judged them, their place and their rating before and after.

:func:`player_report` builds the :class:`PlayerReport` (plain frozen data checked in
``__post_init__``) from the store and from :func:`tally.sheets.build.match_analyses`, the one
analysis the match's analysis sheet prints too; :func:`event_reports` builds every player's,
analysing each match once. The template ``report.html.j2`` lays it out as a sheet (one page
for an evening); ``report_part.html.j2`` is its body alone, for a page that embeds it (the
published site's player page). :func:`report_file_name` is the file a club mails.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from tally.errors import N_, Message, NotFound, SheetError
from tally.sheets.data import AnalysisTotal, Paper

if TYPE_CHECKING:
    from tally.analysis.findings import DealAnalysis
    from tally.analysis.marks import Mark
    from tally.sheets.build import MatchAnalyses
    from tally.sheets.render import TemplateFiles
    from tally.store.store import Store
    from tally.store.views import EventView, StandingsView

__all__ = [
    "PlayerReport",
    "ReportDecision",
    "ReportMatch",
    "ReportRating",
    "ReportStanding",
    "event_reports",
    "player_report",
    "render_report",
    "report_file_name",
    "report_file_names",
]

#: the marks of a report: decisions that lost this much or more, besides every close and claim
MARKED_LOSS = 1.0


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise SheetError(message)


@dataclass(frozen=True)
class ReportMatch:
    """One of the player's matches: the opponent, the game points each way (the player's
    first), how it ended (``won``, ``lost``, ``playing``), and the game points the player's
    decisions lost in its recorded deals (:func:`tally.analysis.marks.lost_by`)."""

    match_id: int
    opponent: str
    own: int
    against: int
    outcome: str
    deals: int
    #: recorded deals analysed (the others were entered as a result, or are being played)
    analysed: int
    lost_to_closes: float = 0.0
    lost_to_claims: float = 0.0
    lost_to_cards: float = 0.0
    round: int | None = None

    def __post_init__(self) -> None:
        _need(self.outcome in ("won", "lost", "playing"), f"match {self.match_id}: {self.outcome}")
        _need(min(self.own, self.against, self.analysed) >= 0, "negative game points")
        _need(
            self.analysed <= self.deals, f"match {self.match_id}: more deals analysed than played"
        )

    @property
    def lost(self) -> float:
        """Game points the player's decisions gave away in the match, all told."""
        return round(self.lost_to_closes + self.lost_to_claims + self.lost_to_cards, 4)


@dataclass(frozen=True)
class ReportDecision:
    """A close or a claim of the player, or another decision of theirs that lost a game point
    or more: the deal (``MATCH.DEAL``), the mark (:class:`tally.analysis.marks.Mark`), what it
    lost and the choice that would have kept the value (``best``, empty when none was better)."""

    deal: str
    trick: int
    kind: str
    action: str
    symbol: str
    #: the value before and after, for the player (``None``: a claim or close the marks do not
    #: judge, made before phase 2; the verdict says what it was worth)
    before: float | None
    after: float | None
    lost: float
    best: str = ""
    estimated: bool = False
    #: the close's or claim's verdict in words (``sound``, ``Anna claimed after trick 5:
    #: correct; …``)
    verdict: str = ""


@dataclass(frozen=True)
class ReportRating:
    """The player's rating (and its uncertainty) before their first rated match of the event
    and after their last."""

    before: float
    before_deviation: float
    after: float
    after_deviation: float
    matches: int

    @property
    def change(self) -> float:
        """How far the event moved the rating."""
        return self.after - self.before


@dataclass(frozen=True)
class ReportStanding:
    """The player's place in the event's standings and their match points."""

    rank: int
    of: int
    match_points: float
    provisional: bool = False


@dataclass(frozen=True)
class PlayerReport:
    """One player's evening: an event's matches, closes, claims, place and rating."""

    event_id: int
    event: str
    date: date
    rules: str
    player: str
    player_id: int
    printed_at: datetime
    matches: tuple[ReportMatch, ...]
    decisions: tuple[ReportDecision, ...]
    totals: AnalysisTotal
    rating: ReportRating | None
    standing: ReportStanding | None
    samples: int
    seed: int
    #: deals of the player's matches entered as a result: no record to analyse
    skipped: int = 0

    def __post_init__(self) -> None:
        _need(self.totals.player == self.player, "the totals are another player's")
        for part in ("closes", "claims", "cards"):
            rows = sum(getattr(m, f"lost_to_{part}") for m in self.matches)
            total = getattr(self.totals, f"lost_to_{part}")
            _need(abs(rows - total) < 1e-6, f"the matches' losses to {part} do not add up")
        _need(all(m.opponent != self.player for m in self.matches), "a match against themselves")

    @property
    def won(self) -> int:
        """Matches the player won."""
        return sum(1 for m in self.matches if m.outcome == "won")

    @property
    def lost(self) -> int:
        """Matches the player lost."""
        return sum(1 for m in self.matches if m.outcome == "lost")

    @property
    def game_points(self) -> tuple[int, int]:
        """Game points won and conceded over the matches."""
        return sum(m.own for m in self.matches), sum(m.against for m in self.matches)

    @property
    def lost_in_all(self) -> float:
        """Game points the player's decisions gave away over the event."""
        return round(sum(m.lost for m in self.matches), 4)


#: German letters spelt out in a file name (``Müßig`` → ``muessig``)
_SPELT: dict[str, str | int | None] = {
    "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"
}  # fmt: skip


def _slug(text: str) -> str:
    """``Thursday Club Evening`` → ``thursday-club-evening``; German letters spelt out (``ä``
    → ``ae``, ``ß`` → ``ss``), other accents dropped, anything else a hyphen."""
    spelt = text.translate(str.maketrans(_SPELT))
    plain = unicodedata.normalize("NFKD", spelt).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60].strip("-")


def report_file_name(event: EventView, player: str, player_id: int) -> str:
    """The report's file name: the event's date and name and the player's name, ASCII only
    (``2026-11-19-thursday-club-evening-anna-berger.pdf``); a name with no letter to spell
    in ASCII is the player's number (``player-7``)."""
    who = _slug(player) or f"player-{player_id}"
    what = _slug(event.name) or f"event-{event.id}"
    return f"{event.date.isoformat()}-{what}-{who}.pdf"


def report_file_names(event: EventView, players: dict[int, str]) -> dict[int, str]:
    """:func:`report_file_name` for each of ``players`` (number → name); names that would
    share a file (``Müller`` and ``Mueller``) both get the player's number at the end, so a
    report never overwrites another and each keeps its name from one printing to the next."""
    named = {pid: report_file_name(event, name, pid) for pid, name in players.items()}
    seen: dict[str, int] = {}
    for file in named.values():
        seen[file] = seen.get(file, 0) + 1
    return {
        pid: file if seen[file] == 1 else f"{file.removesuffix('.pdf')}-{pid}.pdf"
        for pid, file in named.items()
    }


def _verdict(found: DealAnalysis, mark: Mark) -> str:
    """A close's verdict (``sound``, ``unsound``) or a claim's, in the analysis' sentence
    (:func:`tally.analysis.wording.claim_text`)."""
    from tally.analysis.wording import claim_text
    from tally.i18n import gettext as _

    if mark.kind == "close" and found.close is not None and found.close.player == mark.player:
        return _("sound") if found.close.sound else _("unsound")
    if mark.kind == "claim" and found.claim is not None and found.claim.claimer == mark.player:
        return claim_text(found.claim, found.claim_cost)
    return ""


def _unmarked(ref: str, found: DealAnalysis, player: str) -> list[ReportDecision]:
    """The player's close and claim in a deal that no mark judges (made in phase 1, before
    the marks begin): the close's verdict, the claim's sentence with what waiting cost."""
    from tally.analysis.wording import choice_text, claim_text
    from tally.i18n import gettext as _

    kinds = {m.kind for m in found.marks if m.player == player}
    out = []
    close = found.close
    if close is not None and close.player == player and "close" not in kinds:
        verdict = _("sound") if close.sound else _("unsound")
        out.append(
            ReportDecision(
                ref,
                close.trick,
                "close",
                choice_text("close"),
                "",
                None,
                None,
                0.0,
                verdict=verdict,
            )
        )
    claim = found.claim
    if claim is not None and claim.claimer == player and "claim" not in kinds:
        out.append(
            ReportDecision(
                ref,
                claim.trick,
                "claim",
                choice_text("claim"),
                "",
                None,
                None,
                float(found.claim_cost),
                verdict=claim_text(claim, found.claim_cost),
            )
        )
    return out


def _decisions(done: MatchAnalyses, player: str) -> list[ReportDecision]:
    """The player's closes and claims in the match, and their other decisions that lost a game
    point or more, in play order, each with its mark and the choice that kept the value."""
    from tally.analysis.wording import choice_text

    out = []
    for ref, found in zip(done.refs, done.found, strict=True):
        deal = _unmarked(ref, found, player)
        for m in found.marks:
            if m.player != player or not (m.kind in ("close", "claim") or m.loss >= MARKED_LOSS):
                continue
            deal.append(
                ReportDecision(
                    ref,
                    m.trick,
                    m.kind,
                    choice_text(m.action),
                    m.symbol,
                    m.before,
                    m.after,
                    round(m.loss, 4),
                    choice_text(m.best_action) if m.best_action and m.symbol else "",
                    m.estimated,
                    _verdict(found, m),
                )
            )
        out += sorted(deal, key=lambda d: d.trick)
    return out


def _match_row(done: MatchAnalyses, player: str) -> ReportMatch:
    """The player's line for one match: the score, the result, what their decisions lost."""
    m = done.match
    (opponent,) = [p for p in m.players if p != player]
    mine = next(p for p in done.totals().players if p.player == player)
    outcome = "playing" if m.winner is None else "won" if m.winner == player else "lost"
    return ReportMatch(
        m.id,
        opponent,
        m.score.get(player, 0),
        m.score.get(opponent, 0),
        outcome,
        len(m.deals),
        len(done.found),
        mine.lost_to_closes,
        mine.lost_to_claims,
        mine.lost_to_cards,
        m.round,
    )


def _totals(player: str, matches: list[MatchAnalyses]) -> AnalysisTotal:
    """The player's closes and claims over the event: the sums of each match's
    (:meth:`tally.sheets.build.MatchAnalyses.totals`), as the match rows show them."""
    rows = [p for done in matches for p in done.totals().players if p.player == player]
    return AnalysisTotal(
        player,
        sum(p.deals for p in rows),
        sum(p.closes for p in rows),
        sum(p.sound_closes for p in rows),
        sum(p.lost_to_unsound_closes for p in rows),
        sum(p.late_claims for p in rows),
        sum(p.lost_to_late_claims for p in rows),
        sum(p.lost_to_closes for p in rows),
        sum(p.lost_to_claims for p in rows),
        sum(p.lost_to_cards for p in rows),
    )


def _rating(store: Store, player: str, match_ids: set[int]) -> ReportRating | None:
    """The player's rating before their first rated match of the event and after their last
    (``None``: no match of theirs in the event is rated yet)."""
    lines = [x for x in store.ratings.history(player).matches if x.match_id in match_ids]
    if not lines:
        return None
    first, last = lines[0], lines[-1]
    return ReportRating(
        first.rating_before,
        first.deviation_before,
        last.rating_after,
        last.deviation_after,
        len(lines),
    )


def _standing(view: StandingsView, player: str) -> ReportStanding | None:
    """The player's place in the event's standings (``None``: not ranked there)."""
    row = next((r for r in view.rows if r.player == player), None)
    if row is None:
        return None
    return ReportStanding(row.rank, len(view.rows), row.match_points, row.running > 0)


def _event_field(store: Store, event: EventView) -> dict[str, list[int]]:
    """Each player of the event (entered, or playing a match of it) and their matches'
    numbers, in match order."""
    field: dict[str, list[int]] = {p.name: [] for p in event.players}
    for m in store.matches.all(event.id):
        for name in m.players:
            field.setdefault(name, []).append(m.id)
    return field


def _report(
    store: Store,
    event: EventView,
    player: str,
    analyses: list[MatchAnalyses],
    standings: StandingsView,
    *,
    samples: int,
    seed: int,
    printed_at: datetime | None,
) -> PlayerReport:
    """One player's report from the event's analysed matches ``analyses`` (theirs among
    them)."""
    mine = [done for done in analyses if player in done.match.players]
    decisions = [d for done in mine for d in _decisions(done, player)]
    return PlayerReport(
        event.id,
        event.name,
        event.date,
        event.rules,
        player,
        store.players.get(player).id,
        printed_at or datetime.now().replace(second=0, microsecond=0),
        tuple(_match_row(done, player) for done in mine),
        tuple(decisions),
        _totals(player, mine),
        _rating(store, player, {done.match.id for done in mine}),
        _standing(standings, player),
        samples,
        seed,
        sum(done.skipped for done in mine),
    )


def player_report(
    store: Store,
    event_ref: str | int,
    player_ref: str,
    *,
    samples: int = 200,
    seed: int = 0,
    jobs: int = 1,
    printed_at: datetime | None = None,
) -> PlayerReport:
    """The report of one player (by number, name, alias or unique start of the name) in one
    event; refused (:class:`tally.errors.NotFound`) for a player who is not in the event."""
    event = store.events.get(event_ref)
    name = store.players.get(player_ref).name
    field = _event_field(store, event)
    if name not in field:
        raise NotFound(
            Message(
                N_('%(player)s is not a player of event %(event)s "%(name)s"'),
                player=name,
                event=event.id,
                name=event.name,
            )
        )
    from tally.sheets.build import match_analyses

    analyses = match_analyses(store, field[name], samples=samples, seed=seed, jobs=jobs)
    return _report(
        store,
        event,
        name,
        list(analyses.values()),
        store.events.standings(event.id),
        samples=samples,
        seed=seed,
        printed_at=printed_at,
    )


def event_reports(
    store: Store,
    event_ref: str | int,
    *,
    samples: int = 200,
    seed: int = 0,
    jobs: int = 1,
    printed_at: datetime | None = None,
) -> list[PlayerReport]:
    """The report of every player of the event, in the order they were entered, each match
    analysed once for both its players."""
    event = store.events.get(event_ref)
    field = _event_field(store, event)
    ids = sorted({i for ids in field.values() for i in ids})
    from tally.sheets.build import match_analyses

    analyses = list(match_analyses(store, ids, samples=samples, seed=seed, jobs=jobs).values())
    standings = store.events.standings(event.id)
    return [
        _report(
            store,
            event,
            name,
            analyses,
            standings,
            samples=samples,
            seed=seed,
            printed_at=printed_at,
        )
        for name in field
    ]


def render_report(
    data: PlayerReport, *, paper: Paper | str = "A4", files: TemplateFiles | None = None
) -> bytes:
    """A player's report as PDF bytes."""
    from tally.sheets.render import html_to_pdf, render_html

    return html_to_pdf(render_html("report.html.j2", data, paper=paper), files=files)
