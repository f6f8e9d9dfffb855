"""The findings of :mod:`tally.analysis` in words, shared by ``tally analyse`` and the printed
sheets (``tally print ruling``, ``tally print analysis``), so both say the same thing the same
way.

Each finding is a labelled sentence (:class:`Finding`): the terminal prints the sentences one
a line, a sheet prints the label in a column of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tally.analysis import ClaimFinding, CloseDecision, CloseFinding, DealAnalysis


class Topic(StrEnum):
    """What a finding is about: the label a sheet prints before it."""

    NOTE = "Note"
    CLOSE = "Close"
    VALUE = "Value"
    LINE = "Best line"
    TURN = "Turning card"
    DECISION = "Decision"
    CLAIM = "Claim"


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
            object.__setattr__(self, "label", self.topic.value)

    @property
    def sentence(self) -> str:
        """The finding as the terminal prints it."""
        return self.prefix + self.text


def close_text(f: CloseFinding, closed: bool) -> str:
    """Who closed and whether soundly (or where phase 2 began), and how it was solved."""
    how = "exactly (both hands known)" if f.exact else \
        f"over {f.samples} deals consistent with the record"
    if closed:
        verdict = "a sound" if f.sound else "an unsound"
        return f"{f.player} closed before trick {f.trick}: {verdict} close, solved {how}."
    return f"From trick {f.trick} (stock exhausted), solved {how}."


def value_text(f: CloseFinding) -> str:
    """The value with best play on both sides against the value as played."""
    if f.exact:
        return (f"With best play on both sides the deal is worth {f.best:+.0f} game points to "
                f"{f.player}; as played {f.as_played:+d}.")
    return (f"With best play on both sides {f.player} wins in {f.won_share:.0%} of them, "
            f"expected value {f.best:+.2f} game points; as played {f.as_played:+d}.")


def line_finding(f: CloseFinding) -> Finding:
    """The principal line of best play (of the first sample when the hands were sampled)."""
    label = f"Best line{' (first sample)' if not f.exact else ''}"
    return Finding(Topic.LINE, f"{', '.join(f.line)}.", f"{label}: ", label)


def turn_finding(a: DealAnalysis) -> Finding | None:
    """The first phase-2 card that changed the value, or that none did (``None``: no phase 2
    was solved)."""
    if a.mistake is not None:
        m = a.mistake
        return Finding(Topic.TURN, f"{m.player}'s {m.card} at trick {m.trick} "
                       f"({m.before:+.2f} before, {m.after:+.2f} after, for {m.player}).",
                       "The turning card: ")
    if (a.close or a.phase2) is not None:
        return Finding(Topic.TURN,
                       "No phase-2 card changed the value: both sides played it out well.")
    return None


def claim_text(c: ClaimFinding) -> str:
    """The claim's verdict and, when it came late, its earliest moment."""
    text = f"{c.claimer} claimed after trick {c.trick}: " + \
        ("correct" if c.correct else "a false claim")
    if c.late_by:
        text += f"; the claim was possible {c.late_by} trick(s) earlier, after trick {c.earliest}"
    return text + "."


def decision_text(d: CloseDecision) -> str:
    """Closing against playing on at one phase-1 lead, in a sentence."""
    gap = abs(d.close_now - d.play_on)
    what = "closed" if d.closed else "could have closed"
    return (f"Trick {d.trick}: {d.player} {what}; closing was worth {d.close_now:+.2f}, playing "
            f"on {d.play_on:+.2f} (over {d.samples} deals): {d.better} was better by "
            f"{gap:.2f}.")


def worth_telling(d: CloseDecision) -> bool:
    """Whether a decision is worth a sentence: the lead where the player closed, or one where
    closing would have gained half a game point or more."""
    return d.closed or (d.better == "close" and abs(d.close_now - d.play_on) >= 0.5)


def findings(a: DealAnalysis, *, decisions: bool = True) -> list[Finding]:
    """Every finding of ``a`` in order: note, close, value, best line, turning card, the
    decisions worth telling (when ``decisions``), the claim."""
    out = []
    if a.note:
        out.append(Finding(Topic.NOTE, f"{a.note}.", "Nothing to say: ",
                           "Nothing to say"))
    f = a.close or a.phase2
    if f is not None:
        out += [Finding(Topic.CLOSE, close_text(f, a.close is not None)),
                Finding(Topic.VALUE, value_text(f)), line_finding(f)]
    turn = turn_finding(a)
    if turn is not None:
        out.append(turn)
    if decisions:
        out += [Finding(Topic.DECISION, decision_text(d)) for d in a.decisions
                if worth_telling(d)]
    if a.claim is not None:
        out.append(Finding(Topic.CLAIM, claim_text(a.claim)))
    return out


def claim_verdict(c: ClaimFinding) -> str:
    """The claim's verdict in a few words, for a table cell: ``correct``, ``false``,
    ``correct, 2 tricks late``.

    >>> claim_verdict(ClaimFinding("Anna", 8, True, 6))
    'correct, 2 tricks late'
    """
    if not c.correct:
        return "false"
    if c.late_by:
        return f"correct, {c.late_by} trick{'s' if c.late_by > 1 else ''} late"
    return "correct"
