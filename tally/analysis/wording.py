"""The findings of :mod:`tally.analysis.findings` in words, shared by ``tally analyse`` and the
printed sheets (``tally print ruling``, ``tally print analysis``), so both say the same thing the
same way.

Each finding is a labelled sentence (:class:`Finding`): the terminal prints the sentences one
a line, a sheet prints the label in a column of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tally.analysis.closer_view import CloserView
from tally.analysis.findings import ClaimFinding, CloseDecision, CloseFinding, DealAnalysis
from tally.analysis.marks import Mark, lost_by
from tally.i18n import N_, decimal_comma, ngettext
from tally.i18n import gettext as _
from tally.vocabulary import word


class Topic(StrEnum):
    """What a finding is about: the label a sheet prints before it."""

    NOTE = N_("Note")
    CLOSE = N_("Close")
    VALUE = N_("Value")
    LINE = N_("Best line")
    TURN = N_("Turning card")
    DECISION = N_("Decision")
    CLAIM = N_("Claim")
    VIEW = N_("Closer's view")
    MARKS = N_("Marks")
    LOST = N_("Game points lost")


@dataclass(frozen=True)
class Finding:
    """One sentence of the analysis and what it is about.

    The terminal prints ``prefix + text``; a sheet prints ``label`` in a column of its own
    and then ``text`` (the label says what the prefix says).
    """

    topic: Topic
    text: str
    prefix: str = ""
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", _(self.topic.value))

    @property
    def sentence(self) -> str:
        """The finding as the terminal prints it."""
        return self.prefix + self.text


def _n(value: float, spec: str) -> str:
    """A number formatted by ``spec``, with the current language's decimal mark."""
    return decimal_comma(format(value, spec))


def close_text(f: CloseFinding, closed: bool) -> str:
    """Who closed and whether soundly (or where phase 2 began), and how it was solved; in the
    current language, as every sentence of this module (:func:`tally.i18n.use`)."""
    how = (
        _("exactly (both hands known)")
        if f.exact
        else _("over %(samples)s deals consistent with the record") % {"samples": f.samples}
    )
    if closed:
        text = (
            _("%(player)s closed before trick %(trick)s: a sound close, solved %(how)s.")
            if f.sound
            else _("%(player)s closed before trick %(trick)s: an unsound close, solved %(how)s.")
        )
        return text % {"player": f.player, "trick": f.trick, "how": how}
    return _("From trick %(trick)s (stock exhausted), solved %(how)s.") % {
        "trick": f.trick,
        "how": how,
    }


def value_text(f: CloseFinding) -> str:
    """The value with best play on both sides against the value as played."""
    if f.exact:
        return _(
            "With best play on both sides (correct claims only) the deal is worth "
            "%(best)s game points to %(player)s; as played %(played)s."
        ) % {"best": _n(f.best, "+.0f"), "player": f.player, "played": f"{f.as_played:+d}"}
    return _(
        "With best play on both sides (correct claims only) %(player)s wins in %(share)s "
        "of them, expected value %(best)s game points; as played %(played)s."
    ) % {
        "player": f.player,
        "share": f"{f.won_share:.0%}",
        "best": _n(f.best, "+.2f"),
        "played": f"{f.as_played:+d}",
    }


def _verdict(v: CloserView) -> str:
    """``Sound``, ``Unsound``, or hedged (``Probably unsound``) where the interval of closing
    less playing on (or the share of deals won, where it decides) spans the line."""
    if v.sure:
        text = (
            _("Sound by what %(player)s knew") if v.sound else _("Unsound by what %(player)s knew")
        )
    elif v.sound:
        text = _("Probably sound by what %(player)s knew")
    else:
        text = _("Probably unsound by what %(player)s knew")
    return text % {"player": v.player}


def _over(v: CloserView) -> str:
    """Over what the view's figures are: every deal, or so many samples (and the closer's own
    hand sampled too where the record does not prove it)."""
    if v.exact:
        return _("over all %(samples)s deals consistent with it") % {"samples": v.samples}
    text = _("over %(samples)s samples of the deals consistent with it, seed %(seed)s") % {
        "samples": v.samples,
        "seed": v.seed,
    }
    if not v.own_known:
        text += _("; %(player)s's own hand is not proven by the record and was sampled too") % {
            "player": v.player
        }
    return text


def gap_text(gap: float, low: float, high: float, exact: bool) -> str:
    """Closing less playing on, with its 95% interval where it was sampled."""
    if exact:
        return _("closing less playing on %(gap)s") % {"gap": _n(gap, "+.2f")}
    return _("closing less playing on %(gap)s (95%% between %(low)s and %(high)s)") % {
        "gap": _n(gap, "+.2f"),
        "low": _n(low, "+.2f"),
        "high": _n(high, "+.2f"),
    }


def view_text(v: CloserView, f: CloseFinding) -> str:
    """The close by what the closer knew, then in hindsight (both hands known)."""
    figures = (
        _(
            ": %(share)s to succeed, %(close)s expected against %(on)s for not closing then "
            "with best play; %(gap)s (%(how)s)"
        )
        if v.play_on_exact
        else _(
            ": %(share)s to succeed, %(close)s expected against %(on)s for playing on as the "
            "rollout estimates it, not solved, so the verdict rests on that estimate; %(gap)s "
            "(%(how)s)"
        )
    ) % {
        "share": f"{v.success:.0%}",
        "close": _n(v.close_value, "+.2f"),
        "on": _n(v.play_on, "+.2f"),
        "gap": gap_text(v.close_value - v.play_on, v.low, v.high, v.exact),
        "how": _over(v),
    }
    hindsight = (
        _("; in hindsight (both hands known) best play wins it.")
        if f.won_share > 0.5
        else _("; in hindsight (both hands known) best play loses it.")
    )
    return _verdict(v) + figures + hindsight


def line_finding(f: CloseFinding) -> Finding:
    """The principal line of best play (of the first sample when the hands were sampled)."""
    label = _("Best line") if f.exact else _("Best line (first sample)")
    return Finding(Topic.LINE, f"{', '.join(_step(s) for s in f.line)}.", f"{label}: ", label)


_END_STEP = re.compile(
    r"(?P<who>.+) (?P<end>claim|failed-close|last-trick|higher-total) "
    r"\((?P<points>\d+)\)"
)


def _step(text: str) -> str:
    """A step of a line (``Anna AH``, ``Anna claim (3)``, ``draw``) with the way the deal ends
    in the current language."""
    found = _END_STEP.fullmatch(text)
    if found is not None:
        return f"{found['who']} {word(found['end'])} ({found['points']})"
    return word(text) if text == "draw" else text


def turn_finding(a: DealAnalysis) -> Finding | None:
    """The first phase-2 card that changed the value, or that none did (``None``: no phase 2
    was solved)."""
    if a.mistake is not None:
        m = a.mistake
        what = (
            _("%(player)s did not claim after the last trick (trick %(trick)s)")
            if m.after_last
            else _("%(player)s did not claim at trick %(trick)s")
            if m.card == "no claim"
            else _("%(player)s's %(card)s at trick %(trick)s")
        )
        return Finding(
            Topic.TURN,
            (what + _(" (%(before)s before, %(after)s after, for %(player)s)."))
            % {
                "player": m.player,
                "card": m.card,
                "trick": m.trick,
                "before": _n(m.before, "+.2f"),
                "after": _n(m.after, "+.2f"),
            },
            _("The turning card: "),
        )
    if (a.close or a.phase2) is not None:
        return Finding(
            Topic.TURN, _("No phase-2 card changed the value: both sides played it out well.")
        )
    return None


def _moment(done: int, on_marriage: bool) -> str:
    """When a claim was (or could have been) made: ``after trick 3``, ``at the first lead``,
    ``right after declaring a marriage before trick 6``."""
    if on_marriage:
        return _("right after declaring a marriage before trick %(trick)s") % {"trick": done + 1}
    if done == 0:
        return _("before the first lead")
    return _("after trick %(trick)s") % {"trick": done}


def claim_text(c: ClaimFinding, cost: int = 0) -> str:
    """The claim's verdict and, when it came late, its earliest moment and the game points
    waiting cost (``cost``: :attr:`tally.analysis.findings.DealAnalysis.claim_cost`)."""
    text = (
        _("%(player)s claimed %(when)s: correct")
        if c.correct
        else _("%(player)s claimed %(when)s: a false claim")
    ) % {"player": c.claimer, "when": _moment(c.trick, c.on_marriage)}
    if c.earliest is not None:
        text += _("; the claim was possible %(late)s trick(s) earlier, %(when)s") % {
            "late": c.late_by,
            "when": _moment(c.earliest, c.earliest_on_marriage),
        }
    if cost:
        text += ngettext(
            "; waiting cost %(num)s game point", "; waiting cost %(num)s game points", cost
        ) % {"num": cost}
    return text + "."


def choice_text(choice: str) -> str:
    """A decision's choice in the current language: ``no claim``, ``close``... or a card."""
    words = {
        "no claim": _("no claim"),
        "no close": _("no close"),
        "close": _("close"),
        "claim": _("claim"),
        "exchange": _("exchange"),
        "no exchange": _("no exchange"),
    }
    return words.get(choice, choice)


def mark_text(m: Mark) -> str:
    """One decision with its mark: ``5. Anna no claim?? (+3 → -3)``; a marked one with the
    choice that kept the value: ``5. Anna AS?? (+2 → -1; 9S instead kept +2)``."""
    star = "*" if m.estimated else ""
    best = ""
    if m.symbol and m.best_action:
        best = "; " + _("%(choice)s instead kept %(value)s") % {
            "choice": choice_text(m.best_action),
            "value": _n(m.before, "+.2g"),
        }
    if m.orders and not m.all_orders:  # a phase-1 mark over sampled orders of the stock
        star += "†"
        best += "; " + _("loss %(low)s to %(high)s") % {
            "low": _n(round(m.loss_low, 2), "g"),
            "high": _n(round(m.loss_high, 2), "g"),
        }
    symbol = m.symbol
    if symbol and m.orders and not m.all_orders and m.loss_low < (2 if symbol == "??" else 1):
        symbol = f"({symbol})"  # the interval reaches below the mark's class: hedged
    return (
        f"{m.trick}. {m.player} {choice_text(m.action)}{symbol} "
        f"({_n(m.before, '+.2g')} → {_n(m.after, '+.2g')}{star}{best})"
    )


def estimated_note(marks: Sequence[Mark]) -> str:
    """The notes a star or a dagger in the marks needs ("" when no mark rests on an estimate
    or a sample of the stock's orders)."""
    out = ""
    if any(m.estimated for m in marks):
        out += " " + _("*: playing on estimated by the rollout, not solved.")
    sampled = [m.orders for m in marks if m.orders and not m.all_orders]
    if sampled:
        out += " " + _(
            "†: a phase-1 decision judged over %(n)s sampled deals (the stock's order, and "
            "hands the record does not prove), not all; the loss's 95%% interval is given, "
            "and a mark it reaches below is in brackets."
        ) % {"n": max(sampled)}
    return out


def every_decision(a: DealAnalysis) -> str:
    """Every decision in play order with its mark and its values before and after (what the
    terminal prints after the findings; a sheet has them in a table)."""
    return _("Every decision: %(marks)s.") % {
        "marks": "; ".join(mark_text(m) for m in a.marks)
    } + estimated_note(a.marks)


def marks_findings(a: DealAnalysis) -> list[Finding]:
    """The marked decisions (those that lost a game point or more) and, per player, the game
    points lost to closes, to claims and to card play (to two decimals, as every total of them
    is shown: 3.95, not 4)."""
    marked = [m for m in a.marks if m.symbol]
    out = [
        Finding(
            Topic.MARKS,
            "; ".join(mark_text(m) for m in marked) + "." + estimated_note(marked)
            if marked
            else _("no decision lost a game point."),
            _("Marks: "),
        )
    ]
    for name in a.players:
        lost = lost_by(a.marks, name)
        out.append(
            Finding(
                Topic.LOST,
                _(
                    "%(player)s lost %(closes)s to closes, %(claims)s to "
                    "claims, %(cards)s to card play (game points)."
                )
                % {
                    "player": name,
                    "closes": _n(round(lost["closes"], 2), "g"),
                    "claims": _n(round(lost["claims"], 2), "g"),
                    "cards": _n(round(lost["cards"], 2), "g"),
                },
            )
        )
    return out


def decision_text(d: CloseDecision) -> str:
    """Closing against playing on at one phase-1 lead, by what the leader knew, in a
    sentence."""
    gap = abs(d.close_now - d.play_on)
    text = (
        _(
            "Trick %(trick)s: %(player)s closed; closing was worth %(close)s, playing on "
            "%(on)s (%(how)s): %(better)s was better by %(gap)s."
        )
        if d.closed
        else _(
            "Trick %(trick)s: %(player)s could have closed; closing was worth %(close)s, playing "
            "on %(on)s (%(how)s): %(better)s was better by %(gap)s."
        )
    )
    how = (
        _("both with best play, by what %(player)s knew, over %(samples)s samples, %(interval)s")
        if d.play_on_exact
        else _(
            "playing on estimated by the rollout, not solved, by what %(player)s knew, over "
            "%(samples)s samples, %(interval)s"
        )
    )
    interval = _("95%% between %(low)s and %(high)s") % {
        "low": _n(d.low, "+.2f"),
        "high": _n(d.high, "+.2f"),
    }
    return text % {
        "trick": d.trick,
        "player": d.player,
        "close": _n(d.close_now, "+.2f"),
        "on": _n(d.play_on, "+.2f"),
        "how": how % {"player": d.player, "samples": d.samples, "interval": interval},
        "better": _(d.better),
        "gap": _n(gap, ".2f"),
    }


def worth_telling(d: CloseDecision) -> bool:
    """Whether a decision is worth a sentence: the lead where the player closed, or one where
    closing would have gained half a game point or more."""
    return d.closed or (d.better == "close" and abs(d.close_now - d.play_on) >= 0.5)


def findings(a: DealAnalysis, *, decisions: bool = True) -> list[Finding]:
    """Every finding of ``a`` in order: note, close, value, best line, turning card, the
    decisions worth telling (when ``decisions``), the claim."""
    out = []
    if a.note:
        out.append(Finding(Topic.NOTE, f"{_(a.note)}.", _("Nothing to say: "), _("Nothing to say")))
    f = a.close or a.phase2
    if f is not None:
        out += [
            Finding(Topic.CLOSE, close_text(f, a.close is not None)),
            Finding(Topic.VALUE, value_text(f)),
            line_finding(f),
        ]
    if a.closer_view is not None and a.close is not None:
        out.append(Finding(Topic.VIEW, view_text(a.closer_view, a.close)))
    turn = turn_finding(a)
    if turn is not None:
        out.append(turn)
    if decisions:
        out += [
            Finding(Topic.DECISION, decision_text(d))
            for d in a.decisions
            if worth_telling(d) and not (d.closed and a.closer_view is not None and a.close)
        ]
    if a.claim is not None:
        out.append(Finding(Topic.CLAIM, claim_text(a.claim, a.claim_cost)))
    if a.marks:
        out += marks_findings(a)
    return out


def claim_verdict(c: ClaimFinding) -> str:
    """The claim's verdict in a few words, for a table cell: ``correct``, ``false``,
    ``correct, 2 tricks late``.

    >>> claim_verdict(ClaimFinding("Anna", 8, True, 6))
    'correct, 2 tricks late'
    """
    if not c.correct:
        return _("false")
    if c.late_by:
        return ngettext(
            "correct, %(num)s trick late", "correct, %(num)s tricks late", c.late_by
        ) % {"num": c.late_by}
    return _("correct")
