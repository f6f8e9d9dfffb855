"""A match's or an event's closes and claims, per player: the sums of
:mod:`tally.analysis.findings`.

Pure: it adds up :class:`~tally.analysis.findings.DealAnalysis` findings, so it is tested without a
database; ``tally analyse --match/--event`` gets the records through the store.

What is counted, per player, over every recorded deal:

- *closes made*, and *closes sound* (best play wins the close in most consistent deals,
  :attr:`tally.analysis.findings.CloseFinding.sound`);
- *game points lost to unsound closes*: in a deal where the player closed unsoundly, the game
  points the opponent scored (what the close cost as played; nothing if the closer still won);
- *game points lost to late claims*: :attr:`tally.analysis.findings.DealAnalysis.claim_cost`, what a
  correct claim made later than it could have been gave away;
- *game points lost to closes, to claims, to card play*: the sums of the marks' losses
  (:func:`tally.analysis.marks.lost_by`), every decision judged on its own.

Quick-entry deals have no record and are only counted as skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tally.analysis.findings import UNANALYSABLE, DealAnalysis
from tally.analysis.marks import lost_by
from tally.i18n import gettext as _
from tally.i18n import pgettext


@dataclass(frozen=True)
class PlayerTally:
    """One player's closes and claims over the analysed deals."""

    player: str
    deals: int
    closes: int
    sound_closes: int
    lost_to_unsound_closes: int
    late_claims: int
    lost_to_late_claims: int
    #: game points lost by the marks (:mod:`tally.analysis.marks`): to closes and chances to close,
    #: to claims made late or not made, to phase-2 card play
    lost_to_closes: float = 0.0
    lost_to_claims: float = 0.0
    lost_to_cards: float = 0.0


@dataclass(frozen=True)
class AnalysisReport:
    """The closes and claims of a match or an event (``scope``: ``match 3``, ``event 2 "…"``).

    ``analysed`` deals had a record; ``skipped`` were entered as a result (quick entry);
    ``unanalysable`` had a record with errors or violations (nothing to solve).
    """

    scope: str
    analysed: int
    skipped: int
    unanalysable: int
    players: tuple[PlayerTally, ...]


def report(
    scope: str, analyses: Iterable[DealAnalysis], *, skipped: int = 0, players: Iterable[str] = ()
) -> AnalysisReport:
    """Add up deal findings per player (``players`` first, in their order, then any other).

    >>> r = report("match 1", [], skipped=2, players=["Anna", "Bert"])
    >>> (r.analysed, r.skipped, [p.player for p in r.players])
    (0, 2, ['Anna', 'Bert'])
    """
    rows: dict[str, list[int]] = {name: [0] * 6 for name in players}
    analysed = unanalysable = 0
    found = list(analyses)
    for a in found:
        analysed += 1
        if a.note.startswith(UNANALYSABLE):
            unanalysable += 1
        for name in a.players:
            rows.setdefault(name, [0] * 6)[0] += 1
        if a.close is not None:
            row = rows.setdefault(a.close.player, [0] * 6)
            row[1] += 1
            if a.close.sound:
                row[2] += 1
            else:
                row[3] += max(0, -a.close.as_played)
        if a.claim is not None and a.claim.correct and a.claim.late_by > 0:
            row = rows.setdefault(a.claim.claimer, [0] * 6)
            row[4] += 1
            row[5] += a.claim_cost
    lost: dict[str, list[float]] = {}
    for a in found:
        for name in a.players:
            have = lost_by(a.marks, name)
            row_lost = lost.setdefault(name, [0.0, 0.0, 0.0])
            for k, key in enumerate(("closes", "claims", "cards")):
                row_lost[k] += have[key]
    return AnalysisReport(
        scope,
        analysed,
        skipped,
        unanalysable,
        tuple(
            PlayerTally(name, *row, *(round(x, 2) for x in lost.get(name, [0.0, 0.0, 0.0])))
            for name, row in rows.items()
        ),
    )


def report_lines(r: AnalysisReport) -> list[str]:
    """The report as text: a heading, what was left out, one line per player."""
    out = [
        _("%(scope)s: %(n)s recorded deal(s) analysed")
        % {"scope": _scope(r.scope), "n": r.analysed}
        + (
            _(", %(n)s quick-entry deal(s) skipped (no record)") % {"n": r.skipped}
            if r.skipped
            else ""
        )
        + (_(", %(n)s with record errors") % {"n": r.unanalysable} if r.unanalysable else "")
        + "."
    ]
    heads = [
        _("player"),
        _("deals"),
        pgettext("column", "closes"),
        _("sound"),
        _("lost (unsound closes)"),
        _("late claims"),
        _("lost (late claims)"),
        _("lost: closes"),
        _("claims"),
        _("card play"),
    ]
    width = max([len(p.player) for p in r.players] + [6, len(heads[0])])
    w = [len(h) for h in heads]
    out.append(f"  {heads[0]:<{width}}  " + "  ".join(heads[1:]))
    for p in r.players:
        out.append(
            f"  {p.player:<{width}}  {p.deals:>{w[1]}}  {p.closes:>{w[2]}}  "
            f"{p.sound_closes:>{w[3]}}  {p.lost_to_unsound_closes:>{w[4]}}  "
            f"{p.late_claims:>{w[5]}}  {p.lost_to_late_claims:>{w[6]}}  "
            f"{p.lost_to_closes:>{w[7]}.2f}  {p.lost_to_claims:>{w[8]}.2f}  "
            f"{p.lost_to_cards:>{w[9]}.2f}"
        )
    return out


def _scope(scope: str) -> str:
    """``match 3`` / ``event 2 "Name"`` in the current language."""
    kind, _space, rest = scope.partition(" ")
    if kind == "match":
        return _("match %(rest)s") % {"rest": rest}
    if kind == "event":
        return _("event %(rest)s") % {"rest": rest}
    return scope
